"""Distances, ranges and base contact in inches (GEO-4..GEO-6): frozen facts citing GEO IDs."""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

from game.core.battlefield import Base, Battlefield, Point2, TerrainPiece
from game.core.settings import Settings
from game.core.tolerance import EPS as EPS  # re-exported: distances are judged with the GEO-1 tolerance


@dataclass(frozen=True, slots=True)
class DistanceFact:
    """Edge-to-edge distance between two bases (GEO-4)."""

    a: str
    b: str
    distance: float
    centre_distance: float
    rule: str = "GEO-4"


@dataclass(frozen=True, slots=True)
class RangeFact:
    """Whether a target is within a weapon's range band (GEO-5)."""

    distance: float
    min_range: float
    max_range: float
    in_range: bool
    too_close: bool
    too_far: bool
    rule: str = "GEO-5"


@dataclass(frozen=True, slots=True)
class ContactFact:
    """Whether two bases are in base contact (GEO-6)."""

    a: str
    b: str
    distance: float
    in_contact: bool
    tolerance: float
    rule: str = "GEO-6"


def base_distance(a: Base, b: Base) -> DistanceFact:
    """GEO-4: D(A,B) = max(0, |cA - cB| - rA - rB), closest base edge to closest base edge."""
    c = math.hypot(a.x - b.x, a.y - b.y)
    return DistanceFact(a.id, b.id, max(0.0, c - a.radius - b.radius), c)


def point_distance(a: Base, p: Point2) -> float:
    """GEO-4: model to point, max(0, |c - p| - r)."""
    return max(0.0, math.hypot(a.x - p[0], a.y - p[1]) - a.radius)


def weapon_range(a: Base, t: Base, min_range: float, max_range: float, *,
                 settings: Settings | None = None) -> RangeFact:
    """GEO-5: in range iff min <= D(A,T) <= max, each limit met within EPS (COMBAT-4.1.REQUIREMENTS).

    The maximum is always edge to edge (any part of the base within range). The minimum follows
    `range.min_rule` (GAP-116): `closest_edge` (the house rule) compares D(A,T); `centre` compares the
    distance between the base centres, and the fact then cites GAP-116.
    """
    settings = settings or Settings.defaults()
    rule = settings["range.min_rule"]
    fact = base_distance(a, t)
    d = fact.distance
    if rule == "closest_edge":
        too_close = d < min_range - EPS
    elif rule == "centre":
        too_close = fact.centre_distance < min_range - EPS
    else:
        raise ValueError(f"range.min_rule {rule!r}: expected 'closest_edge' or 'centre' (GAP-116)")
    too_far = d > max_range + EPS
    return RangeFact(d, min_range, max_range, not (too_close or too_far), too_close, too_far,
                     rule="GEO-5" if rule == "closest_edge" else "GAP-116")


def base_contact(a: Base, b: Base, tolerance: float) -> ContactFact:
    """GEO-6: in contact iff the edge distance <= tolerance (`geo.contact_tol`)."""
    d = base_distance(a, b).distance
    return ContactFact(a.id, b.id, d, d <= tolerance + EPS, tolerance)


def bases_overlap(a: Base, b: Base) -> bool:
    """GEO-6: bases may never overlap (tolerance -EPS)."""
    return math.hypot(a.x - b.x, a.y - b.y) < a.radius + b.radius - EPS


def on_table(bf: Battlefield, x: float, y: float, radius: float) -> bool:
    """GEO-7/GEO-26: the whole base lies on the table."""
    return (
        x - radius >= -EPS
        and y - radius >= -EPS
        and x + radius <= bf.width + EPS
        and y + radius <= bf.height + EPS
    )


def polyline_length(points: list[Point2] | tuple[Point2, ...]) -> float:
    """Length of a 2D polyline in inches."""
    return sum(math.hypot(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in pairwise(points))


def segment_point_distance(p0: Point2, p1: Point2, q: Point2) -> float:
    """Shortest distance from point q to the segment p0-p1."""
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    L2 = dx * dx + dy * dy
    if L2 == 0.0:
        return math.hypot(q[0] - p0[0], q[1] - p0[1])
    t = max(0.0, min(1.0, ((q[0] - p0[0]) * dx + (q[1] - p0[1]) * dy) / L2))
    return math.hypot(p0[0] + t * dx - q[0], p0[1] + t * dy - q[1])


@dataclass(frozen=True, slots=True)
class TerrainDistanceFact:
    """Distance from a base to a terrain footprint, and whether they are in contact (GEO-4, GEO-6)."""

    model: str
    piece: int
    distance: float
    in_contact: bool
    tolerance: float
    rule: str = "GEO-4"


def terrain_distance(a: Base, piece: TerrainPiece, *, settings: Settings | None = None) -> TerrainDistanceFact:
    """GEO-4: base circle to footprint polygon (holes included), 0 when overlapping; GEO-6 contact within
    `geo.contact_tol`. Uses the shared predicate module's exact distance (game.core.geometry.crossing)."""
    from game.core.geometry.crossing import circle_piece_distance

    settings = settings or Settings.defaults()
    ed: list[float] = []
    for ring in (piece.footprint, *piece.holes):
        pts = list(ring[:-1]) if len(ring) > 1 and ring[0] == ring[-1] else list(ring)
        for i, (x0, y0) in enumerate(pts):
            x1, y1 = pts[(i + 1) % len(pts)]
            ed += [float(x0), float(y0), float(x1), float(y1)]
    d = circle_piece_distance(a.x, a.y, a.radius, ed, 0, len(ed) // 4)
    tol = float(settings["geo.contact_tol"])
    return TerrainDistanceFact(a.id, int(piece.id), d, d <= tol + EPS, tol)
