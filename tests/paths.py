"""Where the tests find the repository, its maps and fixtures, and the normative RULES.md beside it."""
from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
FIXTURES = REPO_ROOT / "tests" / "fixtures"
MAPS = REPO_ROOT / "maps"
RULES_MD = REPO_ROOT.parent / "shared" / "RULES.md"
