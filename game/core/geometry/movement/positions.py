"""Legal positions for a base (GEO-7, GEO-26) and the nearest legal point on a 0.25" grid (GEO-25)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from game.core.battlefield import Base, Battlefield
from game.core.settings import Settings
from game.core.tolerance import EPS

GRID = 0.25  # GEO-25: breadth-first search on a 0.25" grid


@dataclass(frozen=True, slots=True)
class PositionFact:
    """GEO-7: may a base stand here, and if not, why (the piece or base in the way)."""

    legal: bool
    x: float
    y: float
    z: float
    reason: str = ""
    rule: str = "GEO-7"
    piece: int | None = None
    other: str | None = None


def vertically_overlap(z1: float, h1: float, z2: float, h2: float) -> bool:
    """Two bases can collide only if their models overlap in height (a model on a roof never blocks one below)."""
    return abs(z1 - z2) < max(h1, h2) - EPS


def position_fact(bf: Battlefield, x: float, y: float, z: float, *, radius: float, height: float,
                  others: Sequence[Base] = (), mover: str = "", settings: Settings | None = None) -> PositionFact:
    """GEO-7/GEO-26/GEO-6: on the table, on a floor, overlapping no other base, no impassable piece at its level
    and no low obstacle (unless a platform). `mover` is left out of `others`."""
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
        return PositionFact(False, x, y, z, f"({x}, {y}, {z}) is not a point", "GEO-1")
    if not (x - radius >= -EPS and y - radius >= -EPS and x + radius <= bf.width + EPS
            and y + radius <= bf.height + EPS):
        return PositionFact(False, x, y, z, f"a base at ({x:g},{y:g}) would leave the table", "GEO-26")
    for o in others:
        if o.id != mover and vertically_overlap(z, height, o.z, o.height) and \
                math.hypot(o.x - x, o.y - y) < radius + o.radius - EPS:
            return PositionFact(False, x, y, z, f"a base at ({x:g},{y:g}) would overlap {o.id}", "GEO-6", other=o.id)
    if not bf.pieces:
        return PositionFact(True, x, y, z)
    from shapely import Point

    from game.core.geometry.terrain import pieces_at, walking_level

    lv = walking_level(bf, x, y, z)
    if lv is None:
        return PositionFact(False, x, y, z, f"there is no floor at ({x:g},{y:g}) at height {z:g}\"")
    at = pieces_at(bf, lv.z, height)
    pt = Point(x, y)
    for j in at.blocker_tree.query(pt, predicate="dwithin", distance=radius - EPS):
        p = at.blockers[int(j)]
        return PositionFact(False, x, y, z, f"a base at ({x:g},{y:g}) would overlap impassable "
                            f"{p.name or p.kind or 'piece'} (id {p.id})", piece=p.id)
    for j in at.low_tree.query(pt, predicate="dwithin", distance=radius - EPS):
        p = at.lows[int(j)]
        return PositionFact(False, x, y, z, f"a base at ({x:g},{y:g}) would stand on low obstacle "
                            f"{p.name or p.kind or 'piece'} (id {p.id}), which is crossed, not stood on", piece=p.id)
    return PositionFact(True, x, y, z)


def _angle(dx: float, dy: float) -> float:
    """GEO-1 angle from +x toward +y in [0, 2*pi)."""
    a = math.atan2(dy, dx)
    return a + 2 * math.pi if a < 0 else a


def nearest_legal(bf: Battlefield, x: float, y: float, z: float, *, radius: float, height: float,
                  others: Sequence[Base] = (), mover: str = "", max_distance: float = 12.0,
                  settings: Settings | None = None) -> PositionFact | None:
    """GEO-25: the legal grid point (0.25" grid centred on the wanted point) nearest to it; ties by the smallest
    angle from +x toward +y (GEO-1). Rings of the grid are searched outward (breadth first) until no closer point
    can follow; None if nothing is legal within `max_distance`."""
    best: tuple[float, float, PositionFact] | None = None
    rings = int(math.ceil(max_distance / GRID))
    for k in range(rings + 1):
        if best is not None and k * GRID > best[0] + EPS:
            break
        cells = [(i, j) for i in range(-k, k + 1) for j in range(-k, k + 1) if max(abs(i), abs(j)) == k]
        for i, j in cells:
            d = math.hypot(i, j) * GRID
            if d > max_distance + EPS:
                continue
            key = (d, _angle(i, j) if k else 0.0)
            if best is not None and key >= best[:2]:
                continue
            fact = position_fact(bf, x + i * GRID, y + j * GRID, z, radius=radius, height=height, others=others,
                                 mover=mover, settings=settings)
            if fact.legal:
                best = (key[0], key[1], fact)
    return best[2] if best else None
