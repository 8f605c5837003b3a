"""Where a base can get to with its remaining allowance, per level: the move-range overlay and the A.I.'s move set (GEO-8, GEO-27)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import shapely
from shapely import STRtree

from game.core.battlefield import Base, Battlefield, Point3
from game.core.navgraph import TAU, NavGraph, graph
from game.core.pathfind import _enemies, _Query
from game.core.positions import vertically_overlap
from game.core.settings import Settings
from game.core.terrain_rules import pieces_at

SHRINK = 1e-3  # shadows are cast by obstacles this much smaller than exact, so the region errs by < 0.001"
ARC_SAMPLES = math.pi / 4  # departure points round a corner; the region then errs by r(t - sin t) < 0.04"
DISC_SEGS = 16  # quarter-circle segments of the reach discs
MIN_REM = 0.05  # a departure point with less left adds less than the 0.1" tolerance
SHADOW_SEGS = 3  # quarter-circle segments of obstacles casting shadows (inscribed: the region errs by < 0.03")


@dataclass(frozen=True, slots=True)
class ReachRegion:
    """GEO-8/GEO-27: the points a base centre can end at for at most `budget` inches, per level id, with the
    level heights. Built from the same graph and cost as `shortest_path`; within 0.1" of the exact region."""

    budget: float
    start: Point3
    regions: dict  # level id -> shapely geometry
    heights: dict  # level id -> z
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


@dataclass(slots=True)
class _Shadows:
    """Convex obstacles of one level (inflated by r) that hide what lies behind them from a viewpoint."""

    parts: list
    tree: STRtree
    difficult: list  # convex parts of difficult ground (hide only for uniform-cost rays)
    dtree: STRtree | None
    free: object  # where a base centre may end on this level


def _convex_parts(geom) -> list:  # type: ignore[no-untyped-def]
    out = []
    for g in shapely.get_parts(geom):
        if g.is_empty or g.area <= 0:
            continue
        if abs(g.convex_hull.area - g.area) <= 1e-9 and len(g.interiors) == 0:
            out.append(g)
        else:
            out.extend(t for t in shapely.get_parts(shapely.constrained_delaunay_triangles(g)) if t.area > 0)
    return out


def _shadows(bf: Battlefield, g: NavGraph, lid: int) -> _Shadows:
    key = ("reach.shadows", g.radius, g.height, lid)
    hit = bf.cache.get(key)
    if hit is not None:
        return hit
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
    dif = _convex_parts(nav.difficult) if nav.difficult is not None else []
    hit = _Shadows(parts, STRtree(parts), dif, STRtree(dif) if dif else None, free)
    bf.cache[key] = hit
    return hit


def _visible(v: tuple[float, float], rad: float, convex: list) -> object:  # type: ignore[no-untyped-def]
    """The disc of radius rad round v minus the shadows of the convex obstacles: each shadow is the hull of the
    obstacle and its copy pushed away from v beyond the disc."""
    disc = shapely.Point(v).buffer(rad, quad_segs=DISC_SEGS)
    if not convex:
        return disc
    vv = np.asarray(v)
    coords, index = [], []
    for k, p in enumerate(convex):
        xy = shapely.get_coordinates(p)
        d = np.hypot(xy[:, 0] - vv[0], xy[:, 1] - vv[1])
        if d.min() <= 1e-9 or p.contains(shapely.Point(v)):
            continue
        far = vv + (xy - vv) * ((rad + 1.0) * 2.0 / d.min() + 1.0)
        coords.append(np.vstack([xy, far]))
        index.append(np.full(2 * len(xy), len(index)))
    if not coords:
        return disc
    hulls = shapely.convex_hull(shapely.multipoints(np.vstack(coords), indices=np.concatenate(index)))
    return disc.difference(shapely.union_all(hulls))


def _viewpoints(q: _Query, dist: dict, budget: float) -> list[tuple[float, float, float, int, int]]:
    """(x, y, remaining, level, node) for every reached point, plus departure samples round each reached corner."""
    g = q.g
    out = []
    groups: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for u, d in dist.items():
        rem = budget - d
        if rem <= MIN_REM and u != q.S:
            continue
        ci, side, off = q.node_arc(u) if u != q.S else (-1, 0, 0.0)
        if ci < 0:
            x, y = q.node_xy(u)
            lv = g.nlevel[u] if u < q.N else q.ql[u - q.N]
            out.append((float(x), float(y), rem, int(lv), u))
            continue
        groups.setdefault((ci, side), []).append((off, d))
    cx, cy, c0, cw = q.circles
    for (ci, side), arr in groups.items():
        lv = _circle_level(q, ci)
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
        else:
            key = ds + r * offs
            best = np.minimum.accumulate(key[::-1])[::-1]
            pos = np.searchsorted(offs, grid, side="left")
            dd = np.where(pos < len(offs), best[np.minimum(pos, len(offs) - 1)] - r * grid, math.inf)
        if w >= TAU - 1e-9:  # an enemy base: arcs may pass angle 0 (one extra lap covers it)
            dd = np.minimum(dd, dd.min() + r * np.minimum((grid - grid[np.argmin(dd)]) % TAU,
                                                          (grid[np.argmin(dd)] - grid) % TAU))
        for o, d in zip(grid, dd):
            rem = budget - d
            if rem > MIN_REM:
                a = c0[ci] + o
                out.append((float(cx[ci] + r * math.cos(a)), float(cy[ci] + r * math.sin(a)), float(rem), lv, -1))
    return out


def _circle_level(q: _Query, ci: int) -> int:
    return int(q.g.clevel[ci]) if ci < q.nc else int(q.el[ci - q.nc])


def reach(bf: Battlefield, start: Point3, budget: float, *, radius: float, height: float,
          others: Sequence[Base] = (), side: str = "", can_climb: bool = True,
          settings: Settings | None = None) -> ReachRegion:
    """GEO-8/GEO-27: every point a base can end at from `start` for at most `budget` (per level). One-to-all
    search on the NavGraph; from each reached point and departure point round a corner, the disc of the
    remaining allowance minus what obstacles hide; difficult ground at `move.difficult_mult` from its edges."""
    s = settings or Settings.defaults()
    start = tuple(float(v) for v in start)  # type: ignore[assignment]
    enemies = _enemies(others, side)
    if not bf.pieces and not enemies:
        box = shapely.box(radius, radius, bf.width - radius, bf.height - radius)
        geom = shapely.Point(start[:2]).buffer(budget, quad_segs=DISC_SEGS).intersection(box)
        geom = _minus_bases(geom, others, start[2], radius, height)
        return ReachRegion(budget, start, {0: geom}, {0: start[2]}, 1)
    g = graph(bf, radius, height, settings=s)
    q = _Query(g, bf, start, None, budget, enemies, can_climb)
    dist, _, _ = q.run()
    views = _viewpoints(q, dist, budget)
    pieces: dict[int, list] = {}
    for x, y, rem, lid, node in views:
        sh = _shadows(bf, g, lid)
        nav = g.navs[lid]
        box = (x - rem, y - rem, x + rem, y + rem)
        near = [sh.parts[int(i)] for i in sh.tree.query(shapely.Point(x, y), predicate="dwithin", distance=rem)]
        ens = [shapely.Point(ex, ey).buffer(er - 1e-3, quad_segs=4) for ex, ey, er in q.by_level.get(lid, [])
               if abs(ex - x) < rem + er and abs(ey - y) < rem + er]
        dif = [sh.difficult[int(i)] for i in sh.dtree.query(shapely.box(*box))] if sh.dtree is not None else []
        v = (x, y)
        pt = shapely.Point(v)
        inside = nav.difficult is not None and nav.difficult.contains(pt)
        on_edge = nav.difficult is not None and not inside and nav.difficult.distance(pt) <= 1e-6
        parts_here = []
        if not inside:  # uniform-cost rays: difficult ground hides what is behind it (reached from its edge)
            region = _visible(v, rem, near + ens + dif)
            parts_here.append(region.difference(nav.difficult) if dif else region)
        if inside or on_edge:  # rays through difficult ground cost `move.difficult_mult` per inch
            parts_here.append(_visible(v, rem / nav.mult, near + ens).intersection(nav.difficult))
        region = shapely.union_all(parts_here)
        pieces.setdefault(lid, []).append(region)
    regions = {}
    for lid, parts in pieces.items():
        geom = shapely.union_all(parts).intersection(_shadows(bf, g, lid).free)
        geom = _minus_bases(geom, others, g.navs[lid].z, radius, height)
        if not geom.is_empty:
            regions[lid] = geom
    return ReachRegion(budget, start, regions, {lid: g.navs[lid].z for lid in regions}, len(views))


def _minus_bases(geom, others: Sequence[Base], z: float, radius: float, height: float):  # type: ignore[no-untyped-def]
    """No base may end on another (GEO-6): cut every base at this level, grown by r."""
    cuts = [shapely.Point(o.x, o.y).buffer(o.radius + radius - 1e-3, quad_segs=8) for o in others
            if vertically_overlap(z, height, o.z, o.height)]
    return geom.difference(shapely.union_all(cuts)) if cuts else geom
