"""`python -m game` is the `zona-alfa` command."""
from __future__ import annotations

from game.cli import main

raise SystemExit(main())
