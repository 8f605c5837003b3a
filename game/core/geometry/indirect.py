"""Indirect fire arcs and shadows (GEO-17, ARMORY-5.4.SHADOW) and deviation (GEO-18, GAP-71)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from game.core.battlefield import Area, Base, Battlefield, Point2, Point3, Scene
from game.core.geometry.crossing import circle_piece_distance
from game.core.geometry.sight.los import FAST, SightBackend, line_of_sight, point_line_of_sight
from game.core.geometry.sight.world import World, world_of
from game.core.settings import Settings
from game.core.tolerance import EPS

DEVIATION_DISTANCE = {"roll/2": 0.5, "roll*2": 2.0, "roll": 1.0}  # inches per pip (GAP-71)


@dataclass(frozen=True, slots=True)
class ShadowFact:
    """One blocking piece on the line A->T and the shadow it casts (GEO-17)."""

    piece: int
    name: str
    height_above_target: float  # H = z1 - zT
    target_distance: float
    target_in_shadow: bool
    attacker_distance: float
    attacker_in_shadow: bool
    rule: str = "GEO-17"

    @property
    def forbids(self) -> bool:
        """The target hides in this shadow and the attacker is not in the same shadow."""
        return self.target_in_shadow and not self.attacker_in_shadow


@dataclass(frozen=True, slots=True)
class ArcFact:
    """GEO-17: whether an indirect attack on a model or point is legal, and LOS for the penalty choice."""

    attacker: str
    target: str
    target_point: Point3
    legal: bool
    in_los: bool  # ARMORY-5.4.PENALTY picks -1 (LOS) or -3 (no LOS); the combat engine applies it
    shadows: tuple[ShadowFact, ...]
    forbidden_by: tuple[int, ...]
    reasons: tuple[str, ...]
    rule: str = "GEO-17"


@dataclass(frozen=True, slots=True)
class DeviationFact:
    """GEO-18: where a missed indirect shot lands (it may leave the table, GEO-26)."""

    origin: Point2
    roll: int
    angle: float
    distance: float
    point: Point2
    rule: str = "GEO-18"


def _piece_distance(world: World, p: int, x: float, y: float, r: float) -> float:
    ed, _, pn, _ = world.as_lists()
    return circle_piece_distance(x, y, r, ed, pn[5 * p], pn[5 * p + 1])


def _shadows(world: World, crossed: tuple[int, ...], a: Base, tx: float, ty: float, tz: float,
             tr: float) -> list[ShadowFact]:
    out = []
    for p in crossed:
        piece = world.pieces[p]
        if not piece.blocks_los or piece.area is Area.WOODS:
            continue
        h = piece.top_z - tz
        td = _piece_distance(world, p, tx, ty, tr)
        ad = _piece_distance(world, p, a.x, a.y, a.radius)
        out.append(ShadowFact(int(piece.id), piece.name, h, td, h > 0.0 and td <= h + EPS, ad,
                              piece.top_z - a.z > 0.0 and ad <= piece.top_z - a.z + EPS))
    return out


def _arc(attacker: Base, target_name: str, tpoint: Point3, shadows: list[ShadowFact], in_los: bool) -> ArcFact:
    forbidden = tuple(s.piece for s in shadows if s.forbids)
    reasons = []
    for s in shadows:
        if s.forbids:
            reasons.append(f"GEO-17: {target_name} is {s.target_distance:.2f}\" from piece {s.piece} ({s.name}), "
                           f"inside its {s.height_above_target:g}\" shadow, and {attacker.id} is not "
                           f"({s.attacker_distance:.2f}\" away)")
        elif s.target_in_shadow:
            reasons.append(f"GEO-17: both in the shadow of piece {s.piece} ({s.name}): the arc is legal")
    if not forbidden:
        reasons.append(f"GEO-17: legal arc; {'in' if in_los else 'no'} LOS (ARMORY-5.4.PENALTY)")
    return ArcFact(attacker.id, target_name, tpoint, not forbidden, in_los, tuple(shadows), forbidden, tuple(reasons))


def indirect_arc(bf: Battlefield, scene: Scene, attacker_id: str, target_id: str, *, settings: Settings | None = None,
                 backend: SightBackend | None = None) -> ArcFact:
    """GEO-17: for every blocking piece the centre line crosses, H = top - zT; the target is in its shadow iff
    H > 0 and its base is within H of the footprint; the attack is illegal if the target is in a shadow the
    attacker (within top - zA of the footprint) is not in. `in_los` tells the combat engine LOS (GEO-10)."""
    backend = backend or FAST
    a, t = scene.base(attacker_id), scene.base(target_id)
    world = world_of(bf)
    shadows = _shadows(world, backend.crossed(world, a.centre, t.centre), a, t.x, t.y, t.z, t.radius)
    in_los = line_of_sight(bf, scene, attacker_id, target_id, settings=settings, backend=backend).visible
    return _arc(a, t.id, (t.x, t.y, t.z), shadows, in_los)


def indirect_arc_point(bf: Battlefield, scene: Scene, attacker_id: str, point: Point2 | Point3, *,
                       settings: Settings | None = None, backend: SightBackend | None = None) -> ArcFact:
    """GEO-17 for a target point (a blast aimed at the ground): no indirect attack on a point inside a shadow."""
    backend = backend or FAST
    a = scene.base(attacker_id)
    p3: Point3 = (float(point[0]), float(point[1]), float(point[2]) if len(point) > 2 else 0.0)
    world = world_of(bf)
    shadows = _shadows(world, backend.crossed(world, a.centre, p3[:2]), a, p3[0], p3[1], p3[2], 0.0)
    in_los = point_line_of_sight(bf, scene, attacker_id, p3, settings=settings, backend=backend).a_sees_t
    return _arc(a, f"point({p3[0]:g},{p3[1]:g})", p3, shadows, in_los)


def deviation_distance(d10: int, *, settings: Settings | None = None) -> float:
    """GEO-18/GAP-71: inches a miss drifts for a D10 roll (`deviation.distance`: roll/2, roll*2 or roll)."""
    settings = settings or Settings.defaults()
    if not isinstance(d10, int) or isinstance(d10, bool) or not 1 <= d10 <= 10:
        raise ValueError(f"deviation: a D10 roll is an integer 1..10, got {d10!r}")
    return d10 * DEVIATION_DISTANCE[settings["deviation.distance"]]


def deviation_point(point: Point2 | Point3, d10: int, angle: float, *,
                    settings: Settings | None = None) -> DeviationFact:
    """GEO-18: new point = intended point + distance(d10) * (cos angle, sin angle); a pure function."""
    dist = deviation_distance(d10, settings=settings)
    x, y = float(point[0]), float(point[1])
    return DeviationFact((x, y), d10, angle, dist, (x + dist * math.cos(angle), y + dist * math.sin(angle)))
