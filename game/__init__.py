"""Zona Alfa digital tabletop: the rules core in game/core, agents in game/ai, the play loop in game/sim, maps
in game/maps, pictures in game/render (docs/architecture.md)."""
from __future__ import annotations

from game.core.version import ENGINE_VERSION

__all__ = ["ENGINE_VERSION"]
