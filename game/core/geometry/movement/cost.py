"""The exact cost and legality of a base's centre path: walked, difficult, climbed, stairs (GEO-7, GEO-8, GEO-24)."""
from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import shapely
from shapely import LineString, Point

from game.core.battlefield import Base, Battlefield, Connector, ConnectorKind, Point3, TerrainPiece
from game.core.geometry.distance import segment_point_distance
from game.core.geometry.movement.positions import vertically_overlap
from game.core.geometry.sight.world import WALKS_KEY
from game.core.geometry.terrain import (
    GROUND,
    LOW_OBSTACLE,
    Z_TOL,
    Level,
    footprint,
    level_at,
    pieces_at,
    stand_z,
    walking_level,
)
from game.core.settings import Settings
from game.core.tolerance import EPS

CLIMB_RATE = 2.0  # GEO-24: 2" of allowance per inch climbed, up or down
CONNECTOR_REACH = 1.0  # a path joins stairs or a ladder with its centre within 1" of the connector's end
CLIMB_REACH = 0.5  # a climb ends with the centre at most r + 0.5" in from the face it went up
CONTACT = 0.1  # GEO-6 contact tolerance: the base touches the face it climbs


class SegmentKind(enum.Enum):
    """How one segment of a path is crossed (GEO-8, GEO-24, CORE-3.3.CLIMB)."""

    WALK = "walk"  # on one level: 1 per inch, difficult ground x `move.difficult_mult`, climbing over walls
    STEP = "step"  # up or down at most 1" (a low surface): free height (GEO-8 low obstacles)
    CLIMB = "climb"  # a climbable face over 1" tall: 2" per inch of height (GEO-24)
    STAIRS = "stairs"  # normal rate along the 3D segment (CORE-3.3.CLIMB)
    LADDER = "ladder"


@dataclass(frozen=True, slots=True)
class SegmentCost:
    """One segment of a path (1-based `index`) and what it costs (GEO-8)."""

    index: int
    start: Point3
    end: Point3
    kind: SegmentKind
    length: float  # inches travelled by the centre (3D on stairs and ladders, horizontal otherwise)
    cost: float
    difficult: float = 0.0  # inches of it inside difficult ground (GAP-85)
    climbed: float = 0.0  # inches of height climbed (GEO-24)
    pieces: tuple[int, ...] = ()  # difficult or climbed pieces, or the connector id


@dataclass(frozen=True, slots=True)
class PathFact:
    """GEO-8: the verdict on a centre path: legal or not and why (segment, piece, by how much), and its cost."""

    legal: bool
    cost: float
    length: float
    points: tuple[Point3, ...]
    segments: tuple[SegmentCost, ...]
    allowance: float | None
    end_z: float
    reason: str = ""
    rule: str = ""
    segment: int = 0  # 1-based segment at fault; 0 for none or the end position
    piece: int | None = None
    excess: float = 0.0  # inches over the allowance, or depth of an overlap
    climbs: bool = False  # some segment climbs (GEO-24; the Slow scar forbids it)

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return ("GEO-8",) if not self.rule else (self.rule,)


class _Illegal(Exception):
    def __init__(self, reason: str, rule: str, segment: int = 0, piece: int | None = None, excess: float = 0.0):
        super().__init__(reason)
        self.reason, self.rule, self.segment, self.piece, self.excess = reason, rule, segment, piece, excess


def _f(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _pt(p: Point3) -> str:
    return f"({_f(p[0])},{_f(p[1])},{_f(p[2])})"


def _name(p: TerrainPiece) -> str:
    return f"{p.name or p.kind or 'piece'} (id {p.id})"


# --- parsing ----------------------------------------------------------------------------------------


def _points(bf: Battlefield, start: Point3, waypoints: Sequence[Sequence[float]], radius: float) -> list[Point3]:
    """Start plus waypoints as 3D points; a waypoint without z stays on the previous point's level."""
    sx, sy, sz = (float(v) for v in start)
    lv = walking_level(bf, sx, sy, sz) if (bf.pieces or sz) else None
    pts: list[Point3] = [(sx, sy, lv.z if lv is not None else sz)]
    for i, w in enumerate(waypoints):
        if len(w) not in (2, 3):
            raise _Illegal(f"waypoint {i + 1} {tuple(w)!r} needs (x, y) or (x, y, z)", "GEO-1", i + 1)
        x, y = float(w[0]), float(w[1])
        z = float(w[2]) if len(w) == 3 else pts[-1][2]
        if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
            raise _Illegal(f"waypoint {i + 1} ({w[0]}, {w[1]}) is not a number", "GEO-1", i + 1)
        if not (x - radius >= -EPS and y - radius >= -EPS and x + radius <= bf.width + EPS
                and y + radius <= bf.height + EPS):
            over = max(radius - x, radius - y, x + radius - bf.width, y + radius - bf.height)
            raise _Illegal(f"waypoint {i + 1} ({_f(x)},{_f(y)}) puts the base {_f(over)}\" off the table",
                           "GEO-26", i + 1, excess=over)
        pts.append((x, y, z))
    return pts


# --- segment rules ------------------------------------------------------------------------------------


def _connector(bf: Battlefield, a: Point3, b: Point3) -> Connector | None:
    lo, hi = (a, b) if a[2] < b[2] else (b, a)
    for c in bf.connectors:
        if (abs(lo[2] - c.start[2]) <= Z_TOL and abs(hi[2] - c.end[2]) <= Z_TOL
                and math.hypot(lo[0] - c.start[0], lo[1] - c.start[1]) <= CONNECTOR_REACH + EPS
                and math.hypot(hi[0] - c.end[0], hi[1] - c.end[1]) <= CONNECTOR_REACH + EPS):
            return c
    return None


def _level_or_fail(bf: Battlefield, p: Point3, index: int) -> Level:
    lv = level_at(bf, p[0], p[1], p[2])
    if lv is None:
        raise _Illegal(f"there is no floor to stand on at {_pt(p)} (segment {index})", "GEO-7", index)
    return lv


def _vertical(bf: Battlefield, index: int, a: Point3, b: Point3, radius: float, height: float,
              can_climb: bool) -> SegmentCost:
    """A segment that changes level: stairs/ladder (normal 3D rate), a step <= 1", or a climb (GEO-24)."""
    horiz = math.hypot(b[0] - a[0], b[1] - a[1])
    dz = abs(b[2] - a[2])
    c = _connector(bf, a, b)
    if c is not None:
        length = math.sqrt(horiz * horiz + dz * dz)
        kind = SegmentKind.STAIRS if c.kind is ConnectorKind.STAIRS else SegmentKind.LADDER
        return SegmentCost(index, a, b, kind, length, length, pieces=(c.id,))
    lo, hi = (a, b) if a[2] < b[2] else (b, a)
    _level_or_fail(bf, lo, index)
    _level_or_fail(bf, hi, index)
    if dz <= LOW_OBSTACLE + EPS:
        if horiz > 2 * radius + CLIMB_REACH + EPS:
            raise _Illegal(f"segment {index} steps {_f(dz)}\" up or down over {_f(horiz)}\"; a step ends within "
                           f"{_f(2 * radius + CLIMB_REACH)}\" of where it starts", "GEO-8", index)
        return SegmentCost(index, a, b, SegmentKind.STEP, horiz, horiz)
    if not can_climb:
        raise _Illegal(f"segment {index} climbs {_f(dz)}\", which this model may not do (Slow scar: ladders and "
                       "stairs only)", "GEO-24", index)
    face = _climb_face(bf, lo, hi, radius)
    if face is None:
        raise _Illegal(f"segment {index} from {_pt(a)} to {_pt(b)} changes height by {_f(dz)}\" but follows no "
                       f"stairs or ladder and climbs no climbable face (climbs start with the base touching a "
                       f"climbable piece whose top is the upper floor and end within {_f(radius + CLIMB_REACH)}\")",
                       "GEO-24", index)
    return SegmentCost(index, a, b, SegmentKind.CLIMB, horiz, horiz + CLIMB_RATE * dz, climbed=dz, pieces=(face,))


def _climb_face(bf: Battlefield, lo: Point3, hi: Point3, radius: float) -> int | None:
    """The climbable piece a climb from `lo` up to `hi` goes up, or None (GEO-24)."""
    horiz = math.hypot(hi[0] - lo[0], hi[1] - lo[1])
    if horiz > radius + CLIMB_REACH + CONTACT + EPS:
        return None
    low_pt = Point(lo[0], lo[1])
    for p in bf.pieces:
        if not p.climbable or abs(p.top_z - hi[2]) > Z_TOL or p.bottom_z > lo[2] + Z_TOL:
            continue
        if footprint(p).distance(low_pt) <= radius + CONTACT + EPS:
            return p.id
    return None


def _walk(bf: Battlefield, index: int, a: Point3, b: Point3, radius: float, height: float, can_climb: bool,
          enemies: Sequence[Base], settings: Settings) -> SegmentCost:
    """A segment on one level: support, impassable pieces (or climbing over climbable ones), difficult ground,
    low obstacles and enemy bases (GEO-7, GEO-8, GEO-24)."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    z = a[2]
    lo_x, hi_x = min(a[0], b[0]), max(a[0], b[0])
    lo_y, hi_y = min(a[1], b[1]), max(a[1], b[1])
    for e in enemies:
        reach = radius + e.radius
        if e.x < lo_x - reach or e.x > hi_x + reach or e.y < lo_y - reach or e.y > hi_y + reach:
            continue
        if (vertically_overlap(z, height, e.z, e.height)
                and segment_point_distance(a[:2], b[:2], (e.x, e.y)) < radius + e.radius - EPS):
            depth = radius + e.radius - segment_point_distance(a[:2], b[:2], (e.x, e.y))
            raise _Illegal(f"segment {index} {_pt(a)}->{_pt(b)} passes through enemy {e.id} "
                           f"(the bases would overlap by {_f(depth)}\")", "GEO-8", index, excess=depth)
    if not bf.pieces or length <= 0.0:
        return SegmentCost(index, a, b, SegmentKind.WALK, length, length)
    diff_mult, low_extra = float(settings["move.difficult_mult"]), float(settings["move.low_obstacle_extra"])
    key = (WALKS, index, a, b, radius, height, can_climb, diff_mult, low_extra)
    memo: dict[tuple[object, ...], SegmentCost | tuple[object, ...]] = bf.cache.setdefault(WALKS, {})
    hit = memo.get(key)
    if hit is None:
        try:
            hit = _terrain_walk(bf, index, a, b, length, radius, height, can_climb, diff_mult, low_extra)
        except _Illegal as bad:
            hit = (bad.reason, bad.rule, bad.segment, bad.piece, bad.excess)
        if len(memo) >= WALKS_LIMIT:
            memo.clear()
        memo[key] = hit
    if isinstance(hit, tuple):
        raise _Illegal(*hit)  # type: ignore[arg-type]
    return hit


WALKS = WALKS_KEY  # Battlefield.cache: terrain verdicts of walked segments (see `_walk`; `clear_query_caches`)
WALKS_LIMIT = 50_000


def _terrain_walk(bf: Battlefield, index: int, a: Point3, b: Point3, length: float, radius: float, height: float,
                  can_climb: bool, diff_mult: float, low_extra: float) -> SegmentCost:
    """`_walk` past the enemy bases: the floor, impassable and climbable pieces, difficult ground and low
    obstacles. A pure function of the battlefield (its pieces never change) and the arguments, so `_walk` keeps
    its answers (or its `_Illegal`'s fields) in the battlefield's cache, keyed by all of them."""
    z = a[2]
    seg = LineString([a[:2], b[:2]])
    lv = level_at(bf, a[0], a[1], z)
    if lv is None:
        raise _Illegal(f"segment {index} starts at {_pt(a)}, where there is no floor to walk on", "GEO-7", index)
    if lv.id != GROUND and lv.support is not None and not lv.support.covers(seg):
        raise _Illegal(f"segment {index} {_pt(a)}->{_pt(b)} leaves the edge of {lv.name} (no floor under the base "
                       f"centre)", "GEO-7", index)
    at = pieces_at(bf, z, height)
    extra = 0.0
    climbed = 0.0
    touched: list[int] = []
    for j in at.blocker_tree.query(seg, predicate="dwithin", distance=radius - EPS):
        piece, poly = at.blockers[int(j)], at.blocker_polys[int(j)]
        over = _over_climb(piece, poly, seg, a, b, radius, z) if piece.climbable and not piece.surface else 0
        if over and can_climb:
            h = piece.top_z - z
            extra += 2 * CLIMB_RATE * h * over
            climbed += 2 * h * over
            touched.append(piece.id)
            continue
        depth = radius - poly.distance(seg)
        why = " (this model may not climb)" if over else ""
        raise _Illegal(f"segment {index} {_pt(a)}->{_pt(b)} runs into impassable {_name(piece)}: the base would "
                       f"overlap it by {_f(depth)}\"{why}", "GEO-7", index, piece.id, depth)
    diff = 0.0
    if at.difficult_union is not None and len(at.difficult_tree.query(seg)):
        diff = float(shapely.length(shapely.intersection(seg, at.difficult_union)))
        if diff > EPS:
            extra += (diff_mult - 1.0) * diff
            touched.extend(p.id for p, q in zip(at.difficult, at.difficult_polys, strict=True) if q.intersects(seg))
    if low_extra:
        for j in at.low_tree.query(seg):
            if shapely.length(shapely.intersection(seg, at.low_polys[int(j)])) > EPS:
                extra += low_extra
    return SegmentCost(index, a, b, SegmentKind.WALK, length, length + extra, difficult=diff, climbed=climbed,
                       pieces=tuple(touched))


def _over_climb(piece: TerrainPiece, poly: shapely.Polygon, seg: LineString, a: Point3, b: Point3, radius: float,
                z: float) -> int:
    """How many times the centre line goes up and over a climbable piece, with both ends clear of it (GEO-24)."""
    if piece.top_z - z <= LOW_OBSTACLE:
        return 0
    if poly.distance(Point(a[:2])) < radius - EPS or poly.distance(Point(b[:2])) < radius - EPS:
        return 0
    inter = seg.intersection(poly)
    parts = [g for g in shapely.get_parts(inter) if g.length > EPS]
    return len(parts)


# --- the whole path --------------------------------------------------------------------------------


def path_cost(
    bf: Battlefield,
    start: Point3,
    waypoints: Sequence[Sequence[float]],
    *,
    radius: float,
    height: float,
    others: Sequence[Base] = (),
    side: str = "",
    allowance: float | None = None,
    can_climb: bool = True,
    settings: Settings | None = None,
) -> PathFact:
    """GEO-8 cost of a base's centre path from `start` through `waypoints` ((x, y) or (x, y, z); no z = same level).

    Cost: 1 per inch; `move.difficult_mult` per inch of centre path inside difficult ground (GAP-85); low
    obstacles up to 1" free (+`move.low_obstacle_extra` per crossing); stairs and ladders at their 3D length;
    climbing a climbable face over 1" at 2" per inch of height, up or down, including up-and-over (GEO-24).
    Legal iff the base never overlaps impassable terrain at its level, never leaves its floor or the table,
    never passes through an enemy base (friends may be passed), ends on no base and no low obstacle, and the
    cost is within `allowance` (when given). The verdict names the segment, the piece and by how much.
    """
    s = settings or Settings.defaults()
    enemies = [o for o in others if o.side != side]
    try:
        pts = _points(bf, start, waypoints, radius)
    except _Illegal as bad:
        return _fail(bad, ((float(start[0]), float(start[1]), float(start[2])),), (), 0.0, allowance)
    segs: list[SegmentCost] = []
    total = 0.0
    try:
        for i, (a, b) in enumerate(pairwise(pts), start=1):
            if abs(b[2] - a[2]) > Z_TOL:
                sc = _vertical(bf, i, a, b, radius, height, can_climb)
            else:
                sc = _walk(bf, i, a, b, radius, height, can_climb, enemies, s)
            segs.append(sc)
            total += sc.cost
            if allowance is not None and total > allowance + EPS:
                raise _Illegal(f"the path costs {total:.2f}\" by the end of segment {i} but the allowance is "
                               f"{allowance:g}\": {total - allowance:.2f}\" too far", "GEO-8", i,
                               excess=total - allowance)
        end_z = _check_end(bf, pts[-1], radius, height, others, len(segs))
    except _Illegal as bad:
        return _fail(bad, tuple(pts), tuple(segs), total, allowance)
    length = sum(sc.length for sc in segs)
    climbs = any(sc.kind is SegmentKind.CLIMB or (sc.kind is SegmentKind.WALK and sc.climbed) for sc in segs)
    return PathFact(True, total, length, tuple(pts), tuple(segs), allowance, end_z, climbs=climbs)


def _fail(bad: _Illegal, pts: tuple[Point3, ...], segs: tuple[SegmentCost, ...], total: float,
          allowance: float | None) -> PathFact:
    """The verdict of an illegal path: what was costed up to where it failed, and why (GEO-8)."""
    return PathFact(False, total, sum(sc.length for sc in segs), pts, segs, allowance, pts[-1][2] if pts else 0.0,
                    bad.reason, bad.rule, bad.segment, bad.piece, bad.excess)


def _check_end(bf: Battlefield, p: Point3, radius: float, height: float, others: Sequence[Base], n: int) -> float:
    """GEO-6/GEO-7 end position: on a floor, on no other base, on no impassable piece and no low obstacle."""
    for o in others:
        if (vertically_overlap(p[2], height, o.z, o.height)
                and math.hypot(o.x - p[0], o.y - p[1]) < radius + o.radius - EPS):
            depth = radius + o.radius - math.hypot(o.x - p[0], o.y - p[1])
            raise _Illegal(f"the path ends on {o.id}'s base (overlap {_f(depth)}\"); friends may be passed, "
                           "not ended on", "GEO-6", 0, excess=depth)
    if not bf.pieces:
        return p[2]
    _level_or_fail(bf, p, n)
    at = pieces_at(bf, p[2], height)
    pt = Point(p[0], p[1])
    for j in at.blocker_tree.query(pt, predicate="dwithin", distance=radius - EPS):
        piece = at.blockers[int(j)]
        depth = radius - at.blocker_polys[int(j)].distance(pt)
        raise _Illegal(f"the path ends overlapping impassable {_name(piece)} by {_f(depth)}\"", "GEO-7", 0,
                       piece.id, depth)
    for j in at.low_tree.query(pt, predicate="dwithin", distance=radius - EPS):
        piece = at.lows[int(j)]
        raise _Illegal(f"the path ends on low obstacle {_name(piece)}, which a base crosses but may not stand on",
                       "GEO-7", 0, piece.id)
    return stand_z(bf, p[0], p[1], p[2], radius, height)
