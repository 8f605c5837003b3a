"""Zone geometry: Reaction Radius triggers (GEO-19), leash (GEO-20), cohesion (GEO-21), Leader, Inspect (GEO-22/23)."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from game.core.battlefield import Base, Battlefield, Point2, Point3, Scene
from game.core.geometry.distance import base_distance, segment_point_distance
from game.core.geometry.sight.los import line_of_sight, point_line_of_sight
from game.core.settings import Settings
from game.core.tolerance import EPS

REACTION_RADIUS = 3.0  # GEO-15: 6" diameter around the location point
LEASH = 12.0  # GEO-20
COHESION = 1.0  # GEO-21
ORDER_RANGE = 12.0  # GEO-22
INSPECT_RANGE = 12.0  # GEO-23
BINOCULARS_BONUS = 12.0  # GEO-23


@dataclass(frozen=True, slots=True)
class TriggerFact:
    """GEO-19: whether a move's centre path comes within 3" + r of a location point."""

    location: str
    point: Point2
    triggered: bool
    min_distance: float
    limit: float
    segment: int  # index of the nearest path segment (-1 for a one-point path)
    rule: str = "GEO-19"


@dataclass(frozen=True, slots=True)
class LeashFact:
    """GEO-20: a hostile's centre path stays within 12" of its location point."""

    ok: bool
    max_distance: float
    limit: float
    worst_point: Point2
    rule: str = "GEO-20"


@dataclass(frozen=True, slots=True)
class CohesionFact:
    """GEO-21: the within-1" graph of a unit's models is connected. `gap`: by how many inches the chain falls
    short in all (a minimum spanning tree's links over 1", summed; 0 when connected), the measure of "moving
    further apart" for a unit whose chain casualties broke."""

    connected: bool
    groups: tuple[tuple[str, ...], ...]
    links: tuple[tuple[str, str], ...]
    rule: str = "GEO-21"
    gap: float = 0.0

    @property
    def main(self) -> tuple[str, ...]:
        """The largest group (ties: the one holding the first model given); the rest are cut off from it."""
        return max(self.groups, key=len) if self.groups else ()

    @property
    def cut_off(self) -> tuple[str, ...]:
        """The models outside the main group, in the order given."""
        main = set(self.main)
        return tuple(i for g in self.groups for i in g if i not in main)


@dataclass(frozen=True, slots=True)
class LeaderRangeFact:
    """GEO-22: an Order needs D(Leader, R) <= 12" and LOS; the Will bonus needs LOS only."""

    leader: str
    recipient: str
    distance: float
    in_range: bool
    in_los: bool
    can_order: bool
    will_bonus: bool
    rule: str = "GEO-22"


@dataclass(frozen=True, slots=True)
class InspectFact:
    """GEO-23: a location within 12" (24" with Binoculars) of the model's base and in its LOS."""

    model: str
    point: Point3
    distance: float
    limit: float
    in_range: bool
    in_los: bool
    ok: bool
    rule: str = "GEO-23"


def _path(path: Sequence[Point2]) -> list[Point2]:
    pts = [(float(p[0]), float(p[1])) for p in path]
    if not pts:
        raise ValueError("a path needs at least one point (the final centre)")
    return pts


def path_triggers(path: Sequence[Point2], radius: float, location_points: Mapping[str, Point2] | Sequence[Point2], *,
                  settings: Settings | None = None) -> tuple[TriggerFact, ...]:
    """GEO-19: a location is triggered iff the minimum distance from its point to any segment of the model's
    centre path (or its final centre) is <= 3" + the base radius (EPS tolerance). Hostile paths, and
    already triggered or looted locations, are the caller's to leave out."""
    pts = _path(path)
    items = location_points.items() if isinstance(location_points, Mapping) else (
        (str(i), p) for i, p in enumerate(location_points))
    limit = REACTION_RADIUS + radius
    out = []
    for name, p in items:
        q = (float(p[0]), float(p[1]))
        if len(pts) == 1:
            best, seg = math.hypot(pts[0][0] - q[0], pts[0][1] - q[1]), -1
        else:
            dists = [segment_point_distance(a, b, q) for a, b in pairwise(pts)]
            seg = min(range(len(dists)), key=dists.__getitem__)
            best = dists[seg]
        out.append(TriggerFact(name, q, best <= limit + EPS, best, limit, seg))
    return tuple(out)


def leash_ok(path: Sequence[Point2], location_point: Point2, *, limit: float = LEASH,
             settings: Settings | None = None) -> LeashFact:
    """GEO-20 (`leash.measure` = centre): every point of the centre path within `limit` of the location point.

    The distance to a fixed point is convex along a segment, so the vertices decide.
    """
    settings = settings or Settings.defaults()
    if settings["leash.measure"] != "centre":
        raise ValueError(f"leash.measure {settings['leash.measure']!r}: only 'centre' (GEO-20) is implemented")
    pts = _path(path)
    q = (float(location_point[0]), float(location_point[1]))
    worst = max(pts, key=lambda p: math.hypot(p[0] - q[0], p[1] - q[1]))
    d = math.hypot(worst[0] - q[0], worst[1] - q[1])
    return LeashFact(d <= limit + EPS, d, limit, worst)


def cohesion(bases: Sequence[Base], *, limit: float = COHESION, settings: Settings | None = None) -> CohesionFact:
    """GEO-21 (`cohesion.mode`=connected_chain): link two models when D(a, b) <= 1" (edge to edge); the unit
    coheres iff the graph is connected. Also measures the chain's total shortfall (`CohesionFact.gap`)."""
    s = settings or Settings.defaults()
    mode = s["cohesion.mode"]
    if mode != "connected_chain":
        raise ValueError(f"cohesion.mode {mode!r}: only 'connected_chain' (CORE-3.7.COHESION, GEO-21) is built")
    ids = [b.id for b in bases]
    dist = {(a.id, b.id): base_distance(a, b).distance for i, a in enumerate(bases) for b in bases[i + 1:]}
    links = [pair for pair, d in dist.items() if d <= limit + EPS]
    parent = {i: i for i in ids}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in links:
        parent[root(a)] = root(b)
    groups: dict[str, list[str]] = {}
    for i in ids:
        groups.setdefault(root(i), []).append(i)
    # Kruskal over the groups: the shortest extra links that would join them, each counted beyond the 1".
    gap = 0.0
    for (a, b), d in sorted(dist.items(), key=lambda kv: kv[1]):
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[ra] = rb
            gap += max(0.0, d - limit)
    return CohesionFact(len(groups) <= 1, tuple(tuple(g) for g in groups.values()), tuple(links), gap=gap)


def order_range(bf: Battlefield, scene: Scene, leader_id: str, recipient_id: str, *,
                settings: Settings | None = None) -> LeaderRangeFact:
    """GEO-22: Order iff D(Leader, R) <= 12" and LOS (GEO-10); the Will bonus needs LOS at any distance."""
    d = base_distance(scene.base(leader_id), scene.base(recipient_id)).distance
    los = line_of_sight(bf, scene, leader_id, recipient_id, settings=settings).visible
    in_range = d <= ORDER_RANGE + EPS
    return LeaderRangeFact(leader_id, recipient_id, d, in_range, los, in_range and los, los)


def inspect_range(bf: Battlefield, scene: Scene, model_id: str, point: Point2 | Point3, *, binoculars: bool = False,
                  marker_height: float = 0.5, settings: Settings | None = None) -> InspectFact:
    """GEO-23: max(0, |cA - pL| - rA) <= 12 (24 with Binoculars) and LOS to a `marker_height` marker at pL."""
    a = scene.base(model_id)
    p3: Point3 = (float(point[0]), float(point[1]), float(point[2]) if len(point) > 2 else 0.0)
    d = max(0.0, math.hypot(a.x - p3[0], a.y - p3[1]) - a.radius)
    limit = INSPECT_RANGE + (BINOCULARS_BONUS if binoculars else 0.0)
    los = point_line_of_sight(bf, scene, model_id, p3, marker_height=marker_height, settings=settings).visible
    return InspectFact(model_id, p3, d, limit, d <= limit + EPS, los, d <= limit + EPS and los)
