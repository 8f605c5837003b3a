"""The engine version written into every record and save (game/core/record.py)."""
from __future__ import annotations

ENGINE_VERSION = "0.1.0"
