"""Zona Alfa digital tabletop."""
from __future__ import annotations

ENGINE_VERSION = "0.1.0"
