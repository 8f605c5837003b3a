"""Where a base can get to with what it has left, per level: the move-range overlay, the AI's moves (GEO-8, GEO-27)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.errors import GEOSException

from game.core.battlefield import Base, Battlefield, Point3
from game.core.geometry.arrays import Floats, Ints
from game.core.geometry.movement.free_space import TAU
from game.core.geometry.movement.graph import NavGraph, graph
from game.core.geometry.movement.positions import vertically_overlap
from game.core.geometry.movement.query import PathQuery, enemy_bases
from game.core.geometry.movement.reach_jit import kernels
from game.core.geometry.movement.reach_kernels import DIFFICULT, FLAG_REPAIR, SOLID
from game.core.geometry.movement.search import search
from game.core.geometry.terrain import pieces_at
from game.core.settings import Settings

SHRINK = 1e-3  # shadows are cast by obstacles this much smaller than exact, so the region errs by < 0.001"
ARC_SAMPLES = math.pi / 4  # departure points round a corner (docs/movement.md: what this spacing costs)
DISC_SEGS = 16  # quarter-circle segments of the reach discs
MIN_REM = 0.05  # a departure point with less left adds less than the 0.1" tolerance
SHADOW_SEGS = 3  # quarter-circle segments of obstacles casting shadows (inscribed: the region errs by < 0.03")
UNBLOCK_STEPS = 30  # bisection steps along an arc to where it is stopped (pi/4 / 2^30: < 1e-9")
ENEMY_SIDES = 16  # sides of the polygon inscribed in an enemy base grown by r (errs by < 0.02")


@dataclass(frozen=True, slots=True)
class ReachRegion:
    """GEO-8/GEO-27: the points a base centre can end at for at most `budget` inches, per level id, with the
    level heights. Built from the same graph and cost as `shortest_path`; within 0.1" of the exact region."""

    budget: float
    start: Point3
    regions: dict[int, shapely.Geometry]  # level id -> where the centre may end
    heights: dict[int, float]  # level id -> z
    viewpoints: int = 0

    def contains(self, x: float, y: float, z: float | None = None) -> bool:
        """True if a base centre at (x, y) on the level at height z (any level when None) is within reach."""
        p = shapely.Point(x, y)
        for lid, geom in self.regions.items():
            if z is not None and abs(self.heights[lid] - z) > 0.01:
                continue
            if geom.covers(p):
                return True
        return False

    def area(self) -> float:
        return float(sum(g.area for g in self.regions.values()))


OccluderArrays = tuple[Floats, Floats, Ints, Floats, Ints]  # vertex x, y, polygon offsets, (4, n) boxes, kinds


@dataclass(frozen=True, slots=True)
class _Occluders:
    """Convex obstacles of one level as flat arrays for `game.core.geometry.movement.reach_kernels` (inflated
    blockers and the space off the floor are SOLID, difficult ground is DIFFICULT), and where a base centre may
    end."""

    vx: np.ndarray
    vy: np.ndarray
    poff: np.ndarray
    box: np.ndarray  # (4, n): min x, min y, max x, max y per polygon
    kind: np.ndarray
    free: shapely.Geometry  # prepared


def _convex_parts(geom: shapely.Geometry) -> list[shapely.Polygon]:
    """The polygons of geom, each split into triangles unless it is convex and has no hole."""
    out = []
    for g in shapely.get_parts(geom):
        if g.is_empty or g.area <= 0:
            continue
        if abs(g.convex_hull.area - g.area) <= 1e-9 and len(g.interiors) == 0:
            out.append(g)
        else:
            out.extend(t for t in shapely.get_parts(shapely.constrained_delaunay_triangles(g)) if t.area > 0)
    return out


def _flat(solid: Sequence[shapely.Polygon], difficult: Sequence[shapely.Polygon]) -> OccluderArrays:
    """Counter-clockwise vertex arrays (no closing vertex), offsets, boxes and kinds of the convex polygons."""
    polys = np.asarray(list(solid) + list(difficult), dtype=object)
    kind = np.concatenate([np.full(len(solid), SOLID, np.int64), np.full(len(difficult), DIFFICULT, np.int64)])
    if len(polys) == 0:
        return np.zeros(0), np.zeros(0), np.zeros(1, np.int64), np.zeros((4, 0)), kind
    rings = shapely.get_exterior_ring(shapely.orient_polygons(polys, exterior_cw=False))
    xy, idx = shapely.get_coordinates(rings, return_index=True)
    counts = np.bincount(idx, minlength=len(polys))
    last = np.cumsum(counts) - 1  # the closing vertex of each ring
    keep = np.ones(len(xy), bool)
    keep[last] = False
    xy, idx = xy[keep], idx[keep]
    poff = np.concatenate([[0], np.cumsum(counts - 1)]).astype(np.int64)
    box = np.stack(shapely.bounds(polys).T) if len(polys) else np.zeros((4, 0))
    return np.ascontiguousarray(xy[:, 0]), np.ascontiguousarray(xy[:, 1]), poff, np.ascontiguousarray(box), kind


def _occluders(bf: Battlefield, g: NavGraph, lid: int) -> _Occluders:
    key = ("reach.occluders", g.radius, g.height, lid)
    cached: _Occluders | None = bf.cache.get(key)
    if cached is not None:
        return cached
    nav = g.navs[lid]
    r = g.radius
    at = pieces_at(bf, nav.z, g.height)
    parts = []
    polys = list(at.blocker_polys)
    if nav.support is not None:
        near = nav.support.buffer(r + 0.01)
        polys = [p for p in polys if p.intersects(near)]
    for poly in polys:
        for c in _convex_parts(poly):
            parts.append(c.buffer(r - SHRINK, quad_segs=SHADOW_SEGS))
    xa, ya, xb, yb = nav.box
    box = shapely.box(xa, ya, xb, yb)
    free = box
    if nav.support is not None:
        outside = shapely.box(xa - 50, ya - 50, xb + 50, yb + 50).difference(nav.support)
        parts.extend(_convex_parts(outside.buffer(-SHRINK)))
        free = free.intersection(nav.support)
    ends_blocked = [p.buffer(r - SHRINK) for p in polys] + [p.buffer(r - SHRINK) for p in at.low_polys]
    if ends_blocked:
        free = free.difference(shapely.union_all(ends_blocked))
    shapely.prepare(free)
    dif = _convex_parts(nav.difficult) if nav.difficult is not None else []
    vx, vy, poff, pbox, kind = _flat(parts, dif)
    hit = _Occluders(vx, vy, poff, pbox, kind, free)
    bf.cache[key] = hit
    return hit


def _with_enemies(occ: _Occluders, ens: list[tuple[float, float, float]]) -> OccluderArrays:
    """The level's occluder arrays plus the enemy bases at it (SOLID 16-gons inscribed in radius r + r_enemy)."""
    if not ens:
        return occ.vx, occ.vy, occ.poff, occ.box, occ.kind
    e = np.asarray(ens, float)
    ang = np.arange(ENEMY_SIDES) * (2.0 * math.pi / ENEMY_SIDES)
    rad = (e[:, 2] - 1e-3)[:, None]
    ex = (e[:, 0][:, None] + rad * np.cos(ang)).ravel()
    ey = (e[:, 1][:, None] + rad * np.sin(ang)).ravel()
    poff = np.concatenate([occ.poff, occ.poff[-1] + ENEMY_SIDES * np.arange(1, len(e) + 1)])
    ebox = np.stack([e[:, 0] - rad[:, 0], e[:, 1] - rad[:, 0], e[:, 0] + rad[:, 0], e[:, 1] + rad[:, 0]])
    return (np.concatenate([occ.vx, ex]), np.concatenate([occ.vy, ey]), poff,
            np.concatenate([occ.box, ebox], axis=1), np.concatenate([occ.kind, np.full(len(e), SOLID, np.int64)]))


def _visible(xs: np.ndarray, ys: np.ndarray, rads: np.ndarray, usedif: np.ndarray,
             arrays: OccluderArrays) -> np.ndarray:
    """The visible region of each viewpoint (a polygon, or None where it sees nothing), by the kernel."""
    vx, vy, poff, box, kind = arrays
    ox, oy, off, flags = kernels().visibility_rings(
        np.ascontiguousarray(xs, dtype=float), np.ascontiguousarray(ys, dtype=float),
        np.ascontiguousarray(rads, dtype=float), np.ascontiguousarray(usedif, dtype=np.int64),
        vx, vy, poff, box[0], box[1], box[2], box[3], kind)
    out = np.full(len(xs), None, dtype=object)
    live = np.nonzero(np.diff(off) >= 3)[0]
    if len(live) == 0:
        return out
    idx = np.repeat(np.arange(len(live)), np.diff(off)[live])
    rings = shapely.linearrings(np.stack([ox, oy], axis=1), indices=idx)
    polys = shapely.polygons(rings)
    bad = flags[live] == FLAG_REPAIR
    if bad.any():
        polys[bad] = shapely.make_valid(polys[bad])
    out[live] = polys
    return out


def _viewpoints(q: PathQuery, dist: dict[int, float], budget: float) -> np.ndarray:
    """One row per viewpoint: x, y, remaining, level, and for departure samples round a reached corner the
    circle (cx, cy, r), the sample's angle and the previous sample towards the arrival (angle, remaining),
    so a sample the arc cannot reach can be moved back to where the arc is stopped (see `_unblock`)."""
    g = q.g
    nodes = []
    groups: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for u, d in dist.items():
        rem = budget - d
        if rem <= MIN_REM and u != q.S:
            continue
        ci, side, off = q.node_arc(u) if u != q.S else (-1, 0, 0.0)
        if ci < 0:
            x, y = q.node_xy(u)
            lv = g.nlevel[u] if u < q.N else q.ql[u - q.N]
            nodes.append((x, y, rem, lv, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0))
            continue
        groups.setdefault((ci, side), []).append((off, d))
    rows = [np.asarray(nodes, float).reshape(-1, 10)]
    cx, cy, c0, cw = q.circles
    for (ci, side), arr in groups.items():
        lv = q.circle_level(ci)
        r = float(q.cr[ci])
        w = float(cw[ci])
        arr.sort()
        offs = np.asarray([a[0] for a in arr])
        ds = np.asarray([a[1] for a in arr])
        n = max(1, int(math.ceil(w / ARC_SAMPLES)))
        grid = np.unique(np.concatenate([np.linspace(0.0, w, n + 1), offs[np.argmin(ds):np.argmin(ds) + 1]]))
        if side > 0:  # travel increases the angle: best arrival at or before the sample
            key = ds - r * offs
            best = np.minimum.accumulate(key)
            pos = np.searchsorted(offs, grid, side="right") - 1
            dd = np.where(pos >= 0, best[np.maximum(pos, 0)] + r * grid, math.inf)
            back = np.arange(len(grid)) - 1
        else:
            key = ds + r * offs
            best = np.minimum.accumulate(key[::-1])[::-1]
            pos = np.searchsorted(offs, grid, side="left")
            dd = np.where(pos < len(offs), best[np.minimum(pos, len(offs) - 1)] - r * grid, math.inf)
            back = np.arange(len(grid)) + 1
        if w >= TAU - 1e-9:  # an enemy base: arcs may pass angle 0 (one extra lap covers it)
            dd = np.minimum(dd, dd.min() + r * np.minimum((grid - grid[np.argmin(dd)]) % TAU,
                                                          (grid[np.argmin(dd)] - grid) % TAU))
            k = np.arange(len(grid))
            lo, hi = (k - 1) % len(grid), (k + 1) % len(grid)
            back = np.where(dd[lo] <= dd[hi], lo, hi)
        ok = np.nonzero(budget - dd > MIN_REM)[0]
        if len(ok) == 0:
            continue
        ang = c0[ci] + grid[ok]
        b = back[ok]
        has = (b >= 0) & (b < len(grid))
        bi = np.clip(b, 0, len(grid) - 1)
        bang = c0[ci] + grid[bi]
        if w >= TAU - 1e-9:  # the short way round
            bang = ang + (bang - ang + math.pi) % TAU - math.pi
        brem = np.where(has & np.isfinite(dd[bi]), budget - dd[bi], -1.0)
        m = len(ok)
        rows.append(np.column_stack([cx[ci] + r * np.cos(ang), cy[ci] + r * np.sin(ang), budget - dd[ok],
                                     np.full(m, float(lv)), np.full(m, cx[ci]), np.full(m, cy[ci]),
                                     np.full(m, r), ang, bang, brem]))
    return np.concatenate(rows)


def reach(bf: Battlefield, start: Point3, budget: float, *, radius: float, height: float,
          others: Sequence[Base] = (), side: str = "", can_climb: bool = True,
          settings: Settings | None = None) -> ReachRegion:
    """GEO-8/GEO-27: every point a base can end at from `start` for at most `budget` (per level). One-to-all
    search on the NavGraph; from each reached point and departure point round a corner, the disc of the
    remaining allowance minus what obstacles hide (a visibility polygon by the angular sweep of
    `game.core.geometry.movement.reach_kernels`); difficult ground at `move.difficult_mult` from its edges. The
    regions of all viewpoints of a level are merged in one `shapely.union_all`."""
    s = settings or Settings.defaults()
    start = (float(start[0]), float(start[1]), float(start[2]))
    enemies = enemy_bases(others, side)
    if not bf.pieces and not enemies:
        box = shapely.box(radius, radius, bf.width - radius, bf.height - radius)
        geom = shapely.Point(start[:2]).buffer(budget, quad_segs=DISC_SEGS).intersection(box)
        geom = _minus_bases(geom, others, start[2], radius, height)
        return ReachRegion(budget, start, {0: geom}, {0: start[2]}, 1)
    g = graph(bf, radius, height, settings=s)
    q = PathQuery(g, bf, start, None, budget, enemies, can_climb)
    dist, _, _ = search(q)
    views = _viewpoints(q, dist, budget)
    regions = {}
    for lid in np.unique(views[:, 3]).astype(int).tolist():
        geom = _level_region(bf, g, lid, views[views[:, 3] == lid], q.by_level.get(lid, []))
        geom = _minus_bases(geom, others, g.navs[lid].z, radius, height)
        if not geom.is_empty:
            regions[lid] = geom
    return ReachRegion(budget, start, regions, {lid: g.navs[lid].z for lid in regions}, len(views))


def _distinct(pts: np.ndarray) -> np.ndarray:
    """One viewpoint per position (both turning sides of a tangent point are one place), with the most left."""
    key = np.round(pts[:, :2], 9)
    _, first, inv = np.unique(key, axis=0, return_index=True, return_inverse=True)
    rem = np.full(len(first), -np.inf)
    np.maximum.at(rem, inv.ravel(), pts[:, 2])
    return np.column_stack([pts[first, 0], pts[first, 1], rem])


def _unblock(views: np.ndarray, arrays: OccluderArrays) -> np.ndarray:
    """Viewpoints (x, y, remaining) a base can stand on: a departure sample inside a blocker (the arc round its
    corner runs into another piece or an enemy base) moves back along the arc to where the arc is stopped,
    found by bisection from the previous sample towards the arrival; other blocked viewpoints are dropped."""
    vx, vy, poff, box, kind = arrays
    k = kernels()
    pts = np.ascontiguousarray(views[:, :3])
    inside = k.inside_solid(np.ascontiguousarray(pts[:, 0]), np.ascontiguousarray(pts[:, 1]), vx, vy, poff,
                            box[0], box[1], box[2], box[3], kind).astype(bool)
    if not inside.any():
        return pts
    fix = np.nonzero(inside & (views[:, 6] > 0) & (views[:, 9] > MIN_REM))[0]
    cx, cy, r, a_in, a_out, rem_out = (views[fix, j] for j in range(4, 10))
    lo, hi = a_out.copy(), a_in.copy()  # lo: free (the previous sample), hi: blocked
    free0 = ~k.inside_solid(cx + r * np.cos(lo), cy + r * np.sin(lo), vx, vy, poff, box[0], box[1], box[2], box[3],
                            kind).astype(bool)
    for _ in range(UNBLOCK_STEPS):
        mid = 0.5 * (lo + hi)
        blocked = k.inside_solid(cx + r * np.cos(mid), cy + r * np.sin(mid), vx, vy, poff, box[0], box[1], box[2],
                                 box[3], kind).astype(bool)
        hi = np.where(blocked, mid, hi)
        lo = np.where(blocked, lo, mid)
    rem = rem_out - r * np.abs(lo - a_out)
    moved = np.column_stack([cx + r * np.cos(lo), cy + r * np.sin(lo), rem])[free0 & (rem > MIN_REM)]
    return np.concatenate([pts[~inside], moved])


def _level_region(bf: Battlefield, g: NavGraph, lid: int, pts: np.ndarray,
                  ens: list[tuple[float, float, float]]) -> shapely.Geometry:
    """GEO-8 on one level: uniform-cost rays from viewpoints outside difficult ground (which hides what lies
    behind it) minus difficult ground, plus rays at `move.difficult_mult` per inch from viewpoints in it or on
    its edge, within difficult ground; cut to where a base centre may end."""
    nav = g.navs[lid]
    occ = _occluders(bf, g, lid)
    arrays = _with_enemies(occ, ens)
    pts = _distinct(_unblock(pts, arrays))
    xs, ys, rem = pts[:, 0], pts[:, 1], pts[:, 2]
    n = len(xs)
    if nav.difficult is None:
        inside = on_edge = np.zeros(n, bool)
    else:
        inside = shapely.contains_xy(nav.difficult, xs, ys)
        on_edge = ~inside & (shapely.distance(nav.difficult, shapely.points(xs, ys)) <= 1e-6)
    uni = np.nonzero(~inside)[0]
    dif = np.nonzero(inside | on_edge)[0]
    cx = np.concatenate([xs[uni], xs[dif]])
    cy = np.concatenate([ys[uni], ys[dif]])
    cr = np.concatenate([rem[uni], rem[dif] / nav.mult])
    cd = np.concatenate([np.ones(len(uni), np.int64), np.zeros(len(dif), np.int64)])
    polys = _visible(cx, cy, cr, cd, arrays)
    parts = []
    u = [p for p in polys[: len(uni)] if p is not None]
    if u:
        parts.append(_union(u))
        if nav.difficult is not None:
            parts[-1] = parts[-1].difference(nav.difficult)
    d = [p for p in polys[len(uni):] if p is not None]
    if d:
        parts.append(_union(d).intersection(nav.difficult))
    if not parts:
        return shapely.Polygon()
    return shapely.union_all(parts).intersection(occ.free)


def _union(polys: list[shapely.Polygon]) -> shapely.Geometry:
    """One shapely call for all the visible regions; rings the sweep left touching themselves are made valid
    first if GEOS refuses them."""
    try:
        return shapely.union_all(polys)
    except GEOSException:
        return shapely.union_all(shapely.make_valid(np.asarray(polys, dtype=object)))


def _minus_bases(geom: shapely.Geometry, others: Sequence[Base], z: float, radius: float,
                 height: float) -> shapely.Geometry:
    """No base may end on another (GEO-6): cut every base at this level near the region, grown by r."""
    near = [o for o in others if vertically_overlap(z, height, o.z, o.height)]
    if not near or geom.is_empty:
        return geom
    xa, ya, xb, yb = geom.bounds
    xy = np.asarray([(o.x, o.y, o.radius + radius - 1e-3) for o in near], float)
    keep = ((xy[:, 0] + xy[:, 2] >= xa) & (xy[:, 0] - xy[:, 2] <= xb)
            & (xy[:, 1] + xy[:, 2] >= ya) & (xy[:, 1] - xy[:, 2] <= yb))
    if not keep.any():
        return geom
    xy = xy[keep]
    cuts = shapely.buffer(shapely.points(xy[:, 0], xy[:, 1]), xy[:, 2], quad_segs=8)
    return geom.difference(shapely.union_all(cuts))
