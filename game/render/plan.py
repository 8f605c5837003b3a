"""The ground plan: the order pieces are drawn in, so door gaps and windows show through roofs and upper floors."""
from __future__ import annotations

import enum

from game.core.battlefield import Battlefield, TerrainPiece

WALL_KINDS = ("wall", "sill", "lintel")


class PlanLayer(enum.IntEnum):
    """Where a piece goes in the ground plan, lowest drawn first."""

    UPPER_WALL = 0  # a wall above the ground storey: an outline only
    PIECE = 1  # everything that is not a building wall, sill or lintel
    GROUND_WALL = 2  # a ground-storey wall, sill or lintel: drawn last, over roofs and floors


def ground_storey_tops(bf: Battlefield) -> dict[str, float]:
    """Per building, the top of its lowest floor slab or roof: walls up to there form the ground plan."""
    tops: dict[str, float] = {}
    for p in bf.pieces:
        if p.building and p.kind in ("floor", "roof"):
            tops[p.building] = min(tops.get(p.building, p.top_z), p.top_z)
    return tops


def plan_layer(p: TerrainPiece, ground: dict[str, float]) -> PlanLayer:
    """The piece's layer, given its battlefield's `ground_storey_tops`."""
    if not (p.building and p.kind in WALL_KINDS):
        return PlanLayer.PIECE
    return PlanLayer.GROUND_WALL if p.bottom_z < ground.get(p.building, float("inf")) else PlanLayer.UPPER_WALL


def plan_order(bf: Battlefield) -> list[tuple[int, PlanLayer]]:
    """Every piece index with its layer, in drawing order: by layer, then by top height, then by index."""
    ground = ground_storey_tops(bf)
    layers = [plan_layer(p, ground) for p in bf.pieces]
    order = sorted(range(len(bf.pieces)), key=lambda i: (layers[i], bf.pieces[i].top_z, i))
    return [(i, layers[i]) for i in order]
