"""Shortest legal paths for a round base: an exact tangent visibility graph per level, joined by stairs, ladders and climbs (GEO-27)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely import STRtree

from game.core.battlefield import Battlefield
from game.core.geometry.distance import EPS
from game.core.geometry.movement.links import climb_links, connector_links, difficult_samples, over_links
from game.core.settings import Settings
from game.core.geometry.terrain import GROUND, Level, level_at, levels, pieces_at

TAU = 2.0 * math.pi
ARC_STEP = math.pi / 16  # arcs are written as circumscribed polylines with this step (+0.0025" per right angle)
CACHE = "navgraph"
MASK_CELL = 0.1  # prefilter raster (inches)
MASK_SAMPLE = 0.4  # prefilter samples along a segment (the core of a 0.25" wall is 1.1" thick)
MASK_MIN_CORNERS = 40  # levels with fewer corners skip the raster


@dataclass(slots=True)
class LevelNav:
    """The free space of one level for one base size: where the base centre may go (GEO-7, GEO-27)."""

    level: Level
    z: float
    radius: float
    box: tuple[float, float, float, float]  # centre bounds on the table
    support: object | None  # shapely polygon, prepared; None on the ground
    blockers: object  # STRtree over the union parts of impassable pieces at z
    blocker_parts: tuple
    difficult: object | None  # union of difficult ground at z
    difficult_tree: object | None
    mult: float
    mask: np.ndarray | None = None  # cells surely blocked (prefilter only; the exact test decides)
    mask_origin: tuple[float, float] = (0.0, 0.0)

    def surely_blocked(self, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
        """Segments with a sample point in a cell whose every point is closer than r to a blocker."""
        out = np.zeros(len(x0), bool)
        if self.mask is None or len(x0) == 0:
            return out
        ox, oy = self.mask_origin
        h, w = self.mask.shape
        length = np.hypot(x1 - x0, y1 - y0)
        for lo in range(0, len(x0), 4096):
            sl = slice(lo, lo + 4096)
            n = np.maximum(2, np.ceil(length[sl] / MASK_SAMPLE).astype(np.int64) + 1)
            seg = np.repeat(np.arange(len(n)), n)
            t = (np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)) / np.repeat(n - 1, n)
            px = x0[sl][seg] + t * (x1[sl] - x0[sl])[seg]
            py = y0[sl][seg] + t * (y1[sl] - y0[sl])[seg]
            fx = np.floor((px - ox) / MASK_CELL).astype(np.int64)
            fy = np.floor((py - oy) / MASK_CELL).astype(np.int64)
            inside = (fx >= 0) & (fx < w) & (fy >= 0) & (fy < h)
            hit = self.mask[np.clip(fy, 0, h - 1), np.clip(fx, 0, w - 1)] & inside
            out[sl] = np.bincount(seg, weights=hit, minlength=len(n)) > 0
        return out

    def valid(self, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
        """Segments the base centre may follow: on the table, over the floor, clear of impassable pieces by r."""
        xa, ya, xb, yb = self.box
        ok = ((np.minimum(x0, x1) >= xa - EPS) & (np.maximum(x0, x1) <= xb + EPS)
              & (np.minimum(y0, y1) >= ya - EPS) & (np.maximum(y0, y1) <= yb + EPS))
        if self.mask is not None:
            idx = np.nonzero(ok)[0]
            ok[idx[self.surely_blocked(x0[idx], y0[idx], x1[idx], y1[idx])]] = False
        idx = np.nonzero(ok)[0]
        if len(idx) == 0:
            return ok
        lines = _lines(x0[idx], y0[idx], x1[idx], y1[idx])
        if self.support is not None:
            inside = shapely.covers(self.support, lines)
            ok[idx[~inside]] = False
        if len(self.blocker_parts):
            hit = self.blockers.query(lines, predicate="dwithin", distance=self.radius - EPS)
            if hit.shape[1]:
                ok[idx[np.unique(hit[0])]] = False
        return ok

    def valid_arcs(self, x0, y0, x1, y1, cx, cy, r, a0, delta) -> np.ndarray:  # type: ignore[no-untyped-def]
        """Arcs whose circumscribed polyline (as `arc_vertices` writes it) the base centre may follow: the same
        table, floor and `r - EPS` clearance test as `valid`, on every piece of the polyline (GEO-7, GEO-27)."""
        n = len(x0)
        if n == 0:
            return np.zeros(0, bool)
        arc, vx, vy = arc_vertices(cx, cy, r, a0, delta)
        counts = np.bincount(arc, minlength=n) + 2
        first = np.cumsum(counts) - counts
        X, Y = np.empty(counts.sum()), np.empty(counts.sum())
        X[first], Y[first] = x0, y0
        X[first + counts - 1], Y[first + counts - 1] = x1, y1
        inner = np.ones(len(X), bool)
        inner[first] = inner[first + counts - 1] = False
        X[inner], Y[inner] = vx, vy  # arc_vertices lists each arc's vertices in order, arcs in order
        xa, ya, xb, yb = self.box
        ok = ((np.minimum.reduceat(X, first) >= xa - EPS) & (np.maximum.reduceat(X, first) <= xb + EPS)
              & (np.minimum.reduceat(Y, first) >= ya - EPS) & (np.maximum.reduceat(Y, first) <= yb + EPS))
        lines = shapely.linestrings(X, Y, indices=np.repeat(np.arange(n), counts))
        if self.support is not None:
            ok &= shapely.covers(self.support, lines)
        if len(self.blocker_parts):
            hit = self.blockers.query(lines, predicate="dwithin", distance=self.radius - EPS)
            if hit.shape[1]:
                ok[np.unique(hit[0])] = False
        return ok

    def costs(self, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
        """GEO-8 cost of straight segments: length plus (`move.difficult_mult` - 1) x the length in difficult ground."""
        length = np.hypot(x1 - x0, y1 - y0)
        if self.difficult is None or len(length) == 0:
            return length
        lines = _lines(x0, y0, x1, y1)
        hit = self.difficult_tree.query(lines)
        if hit.shape[1] == 0:
            return length
        idx = np.unique(hit[0])
        inside = shapely.length(shapely.intersection(lines[idx], self.difficult))
        out = length.copy()
        out[idx] += (self.mult - 1.0) * inside
        return out


def _lines(x0, y0, x1, y1):  # type: ignore[no-untyped-def]
    coords = np.stack([np.stack([x0, y0], axis=-1), np.stack([x1, y1], axis=-1)], axis=1)
    return shapely.linestrings(coords)


@dataclass(slots=True)
class NavGraph:
    """The cached graph for one battlefield, base radius and model height (GEO-27).

    Nodes are tangent points on the radius-r circles around convex corners of impassable pieces (with an
    orientation: which way round the corner the path turns), corners of floors' edges, points on
    difficult-ground boundaries, and the ends of stairs, ladders and climbs. Edges are free straight
    segments and arcs round a corner (r x angle), weighted by the GEO-8 cost.
    """

    radius: float
    height: float
    navs: dict[int, LevelNav]
    # circles
    cx: np.ndarray
    cy: np.ndarray
    c0: np.ndarray  # start angle of the free span
    cw: np.ndarray  # width of the free span
    clevel: np.ndarray
    # nodes
    nx: np.ndarray
    ny: np.ndarray
    nlevel: np.ndarray
    ncircle: np.ndarray  # -1 for point nodes
    ns: np.ndarray  # +1 / -1 turning side on circles, 0 on points
    noff: np.ndarray  # angle offset in the circle's span
    adj: list  # adj[u] = list of (v, cost, kind) ; kind 0 straight, 1 arc, 2 connector/climb
    points: dict[int, np.ndarray]  # per level: indices of point nodes
    build_ms: float = 0.0
    stats: dict = field(default_factory=dict)
    lists: tuple = ()  # (x, y, level) of every node as Python lists, for the search loop


# --- geometry helpers -----------------------------------------------------------------------------------


def _corners(geom, blocker: bool) -> list[tuple[float, float, float, float]]:  # type: ignore[no-untyped-def]
    """Corners where a shortest path may bend: convex corners of blockers as (x, y, span start, span width), the
    span being the directions of free space round the corner; or, with blocker=False, reflex corners of a
    floor (a wall of radius 0 for the centre), span width 0."""
    out = []
    for poly in shapely.get_parts(shapely.orient_polygons(geom)):
        if poly.geom_type != "Polygon":
            continue
        for ring in (poly.exterior, *poly.interiors):
            pts = np.asarray(ring.coords)[:-1]
            if len(pts) < 3:
                continue
            din = pts - np.roll(pts, 1, axis=0)
            dout = np.roll(pts, -1, axis=0) - pts
            cross = din[:, 0] * dout[:, 1] - din[:, 1] * dout[:, 0]
            # rings have the interior on the left: a left turn is a convex corner of the piece
            pick = cross > 1e-12 if blocker else cross < -1e-12
            for k in np.nonzero(pick)[0]:
                s0 = math.atan2(-din[k, 0], din[k, 1])  # right (outward) normal of the incoming edge
                s1 = math.atan2(-dout[k, 0], dout[k, 1])
                out.append((float(pts[k, 0]), float(pts[k, 1]), s0 % TAU, (s1 - s0) % TAU if blocker else 0.0))
    return out


def _level_nav(bf: Battlefield, lv: Level, radius: float, height: float, mult: float) -> LevelNav:
    at = pieces_at(bf, lv.z, height)
    box = (radius, radius, bf.width - radius, bf.height - radius)
    polys = list(at.blocker_polys)
    if lv.support is not None:
        near = lv.support.buffer(radius + 0.01)
        polys = [p for p in polys if p.intersects(near)]
    parts = tuple(g for g in shapely.get_parts(shapely.union_all(polys))) if polys else ()
    parts = tuple(g for g in parts if g.geom_type == "Polygon" and not g.is_empty)
    support = None
    if lv.support is not None:
        support = lv.support
        shapely.prepare(support)
    dif = at.difficult_union
    if dif is not None and lv.support is not None:
        dif = shapely.intersection(dif, lv.support)
        if dif.is_empty:
            dif = None
    dtree = STRtree(list(shapely.get_parts(dif))) if dif is not None else None
    if dif is not None:
        shapely.prepare(dif)
    nav = LevelNav(lv, lv.z, radius, box, support, STRtree(list(parts)), parts, dif, dtree, mult)
    if len(parts) and sum(len(shapely.get_coordinates(p)) for p in parts) >= MASK_MIN_CORNERS:
        _raster(nav, shapely.union_all(list(parts)))
    return nav


def _raster(nav: LevelNav, blockers) -> None:  # type: ignore[no-untyped-def]
    """Mark cells whose centre lies deeper than half a cell diagonal inside the inflated blockers: every point of
    such a cell is closer than r to a blocker, so a segment through it is illegal (a sound prefilter)."""
    core = blockers.buffer(nav.radius - MASK_CELL * 0.75, quad_segs=4)
    minx, miny, maxx, maxy = core.bounds
    shapely.prepare(core)
    xs = np.arange(math.floor(minx / MASK_CELL), math.ceil(maxx / MASK_CELL) + 1) * MASK_CELL
    ys = np.arange(math.floor(miny / MASK_CELL), math.ceil(maxy / MASK_CELL) + 1) * MASK_CELL
    X, Y = np.meshgrid(xs + MASK_CELL / 2, ys + MASK_CELL / 2)
    nav.mask = shapely.contains_xy(core, X.ravel(), Y.ravel()).reshape(X.shape)
    nav.mask_origin = (float(xs[0]), float(ys[0]))


def arc_vertices(cx, cy, r, a0, delta) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    """The inner vertices of arcs written as polylines circumscribing their circle (GEO-27): an arc of signed
    angle `delta` from angle `a0` round (cx, cy) gets ceil(|delta| / ARC_STEP) equal steps, a vertex at the
    middle of each at r / cos(step / 2), so every piece is tangent to the circle. Returns (arc index, x, y)
    per vertex, arcs in order; the one formula for the graph's legality test and the written path."""
    cx, cy, r, a0, delta = (np.atleast_1d(np.asarray(v, float)) for v in (cx, cy, r, a0, delta))
    r = np.broadcast_to(r, delta.shape)
    n = np.ceil(np.abs(delta) / ARC_STEP).astype(np.int64)
    step = delta / np.maximum(n, 1)
    arc = np.repeat(np.arange(len(n)), n)
    j = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
    ang = a0[arc] + (j + 0.5) * step[arc]
    rr = r[arc] / np.cos(step[arc] / 2)
    return arc, cx[arc] + rr * np.cos(ang), cy[arc] + rr * np.sin(ang)


def _offsets(px, py, cx, cy, c0):  # type: ignore[no-untyped-def]
    return (np.arctan2(py - cy, px - cx) - c0) % TAU


@dataclass(slots=True)
class _Builder:
    """Collects nodes and edges while a NavGraph is built or a query extends it."""

    nx: list = field(default_factory=list)
    ny: list = field(default_factory=list)
    nlevel: list = field(default_factory=list)
    ncircle: list = field(default_factory=list)
    ns: list = field(default_factory=list)
    noff: list = field(default_factory=list)
    efrom: list = field(default_factory=list)
    eto: list = field(default_factory=list)
    ecost: list = field(default_factory=list)
    ekind: list = field(default_factory=list)
    base: int = 0  # id of the first node held here

    def add_nodes(self, x, y, level, circle, side, off) -> np.ndarray:  # type: ignore[no-untyped-def]
        n = len(x)
        first = self.base + sum(len(a) for a in self.nx)
        self.nx.append(np.asarray(x, float))
        self.ny.append(np.asarray(y, float))
        self.nlevel.append(_column(level, np.int64, n))
        self.ncircle.append(_column(circle, np.int64, n))
        self.ns.append(_column(side, np.int64, n))
        self.noff.append(_column(off, float, n))
        return np.arange(first, first + n)

    def add_edges(self, a, b, cost, kind: int) -> None:  # type: ignore[no-untyped-def]
        a = np.asarray(a, np.int64)
        self.efrom.append(a)
        self.eto.append(np.asarray(b, np.int64))
        self.ecost.append(np.asarray(cost, float))
        self.ekind.append(np.full(len(a), kind, np.int64))

    def cat(self, name: str, dtype) -> np.ndarray:  # type: ignore[no-untyped-def]
        parts = getattr(self, name)
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)


def _column(v, dtype, n: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    """A fresh length-n array of v (a scalar or a length-n array)."""
    if np.ndim(v) == 0:
        return np.full(n, v, dtype)
    return np.broadcast_to(np.asarray(v, dtype), (n,)).copy()


def _segments(b: _Builder, nav: LevelNav, a_xy, a_node, a_circ, a_side, a_r, b_xy, b_node, b_circ, b_side, b_r,
              circles, both_ways: bool = True, enemies=None) -> None:  # type: ignore[no-untyped-def]
    """Add the free tangent segments between candidate pairs (A -> B and, with both_ways, B -> A reversed).

    a_node/b_node: an existing node id for point ends (-1 for circle ends, which get new tangent-point nodes)."""
    cand = _tangents(a_xy, a_node, a_circ, a_side, a_r, b_xy, b_node, b_circ, b_side, b_r, circles, both_ways,
                     enemies)
    _add_segments(b, nav, [cand] if cand is not None else [], circles)


@dataclass(slots=True)
class _Tangents:
    """The candidate tangent segments of one `_segments` call, before the legality test."""

    idx: np.ndarray  # candidate pairs whose tangent leaves both circles inside their free spans
    tax: np.ndarray
    tay: np.ndarray
    tbx: np.ndarray
    tby: np.ndarray
    a: tuple  # (node, circle, side) of the A ends
    b: tuple
    both_ways: bool
    enemies: tuple | None


def _tangents(a_xy, a_node, a_circ, a_side, a_r, b_xy, b_node, b_circ, b_side, b_r, circles, both_ways: bool,
              enemies) -> _Tangents | None:  # type: ignore[no-untyped-def]
    """The tangent segment of each candidate pair (None when no pair has one inside both spans)."""
    ax, ay = a_xy
    bx, by = b_xy
    a_r = np.broadcast_to(np.asarray(a_r, float), np.shape(ax))
    b_r = np.broadcast_to(np.asarray(b_r, float), np.shape(bx))
    cx, cy, c0, cw = circles
    # the tangent's direction alpha fixes both tangent points: angle alpha - side*pi/2 on each circle
    k = b_side * b_r - a_side * a_r
    dx, dy = bx - ax, by - ay
    d = np.hypot(dx, dy)
    ok = d > np.abs(k) + 1e-9
    alpha = np.arctan2(dy, dx) - np.arcsin(np.clip(k / np.where(d > 0, d, 1.0), -1.0, 1.0))
    tha = alpha - a_side * (math.pi / 2)
    thb = alpha - b_side * (math.pi / 2)
    for circ, th in ((a_circ, tha), (b_circ, thb)):
        on = circ >= 0
        if on.any():
            ci = np.where(on, circ, 0)
            ok &= ~on | ((th - c0[ci]) % TAU <= cw[ci] + 1e-9)
    idx = np.nonzero(ok)[0]
    if len(idx) == 0:
        return None
    tax = ax[idx] + a_r[idx] * np.cos(tha[idx]) * (a_circ[idx] >= 0)
    tay = ay[idx] + a_r[idx] * np.sin(tha[idx]) * (a_circ[idx] >= 0)
    tbx = bx[idx] + b_r[idx] * np.cos(thb[idx]) * (b_circ[idx] >= 0)
    tby = by[idx] + b_r[idx] * np.sin(thb[idx]) * (b_circ[idx] >= 0)
    return _Tangents(idx, tax, tay, tbx, tby, (a_node, a_circ, a_side), (b_node, b_circ, b_side), both_ways,
                     enemies)


def _add_segments(b: _Builder, nav: LevelNav, cands: list, circles) -> None:  # type: ignore[no-untyped-def]
    """Test the candidates of several `_segments` calls on one level together (one `valid`, one `costs`, one
    `_clear_of` per run of calls sharing their enemies: every test is per segment, so the verdicts are those of
    separate calls) and add the free ones as nodes and edges in call order."""
    if not cands:
        return
    cat = (lambda name: np.concatenate([getattr(c, name) for c in cands])) if len(cands) > 1 else \
        (lambda name: getattr(cands[0], name))
    tax, tay, tbx, tby = cat("tax"), cat("tay"), cat("tbx"), cat("tby")
    valid = nav.valid(tax, tay, tbx, tby)
    cuts = np.cumsum([0] + [len(c.idx) for c in cands])
    lo = 0
    while lo < len(cands):  # runs of calls with the same enemies
        hi = lo + 1
        while hi < len(cands) and cands[hi].enemies is cands[lo].enemies:
            hi += 1
        ens = cands[lo].enemies
        if ens is not None and len(ens[0]):
            sl = slice(cuts[lo], cuts[hi])
            sel = np.nonzero(valid[sl])[0] + cuts[lo]
            if len(sel):
                valid[sel] &= _clear_of(ens, tax[sel], tay[sel], tbx[sel], tby[sel])
        lo = hi
    keep = np.nonzero(valid)[0]
    if len(keep) == 0:
        return
    cost = nav.costs(tax[keep], tay[keep], tbx[keep], tby[keep])
    kcuts = np.searchsorted(keep, cuts)
    for n, c in enumerate(cands):
        k0, k1 = kcuts[n], kcuts[n + 1]
        if k0 == k1:
            continue
        ks = keep[k0:k1]
        _emit(b, nav, c, valid[cuts[n]:cuts[n + 1]], tax[ks], tay[ks], tbx[ks], tby[ks], cost[k0:k1], circles)


def _emit(b: _Builder, nav: LevelNav, c: _Tangents, valid, tax, tay, tbx, tby, cost, circles) -> None:  # type: ignore[no-untyped-def]
    """Nodes for the tangent points of the free segments of one call and their edges (both ways if asked)."""
    cx, cy, c0, _ = circles
    idx = c.idx[valid]
    lv = nav.level.id

    def ends(node, circ, side, tx, ty, sign):  # type: ignore[no-untyped-def]
        node, circ, side = node[idx], circ[idx], side[idx]
        out = node.copy()
        on = circ >= 0
        if on.any():
            ci = circ[on]
            off = _offsets(tx[on], ty[on], cx[ci], cy[ci], c0[ci])
            out[on] = b.add_nodes(tx[on], ty[on], lv, ci, sign * side[on], off)
        return out

    fa = ends(*c.a, tax, tay, 1)
    fb = ends(*c.b, tbx, tby, 1)
    b.add_edges(fa, fb, cost, 0)
    if c.both_ways:
        ra = ends(*c.a, tax, tay, -1)
        rb = ends(*c.b, tbx, tby, -1)
        b.add_edges(rb, ra, cost, 0)


def _clear_of(enemies, x0, y0, x1, y1) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Segments that keep the base centre at least r + r_enemy from every enemy centre (GEO-8)."""
    ex, ey, er = (np.asarray(a)[None, :] for a in enemies)
    x0, y0, x1, y1 = (np.asarray(a)[:, None] for a in (x0, y0, x1, y1))
    dx, dy = x1 - x0, y1 - y0
    l2 = dx * dx + dy * dy
    t = np.clip(((ex - x0) * dx + (ey - y0) * dy) / np.where(l2 > 0, l2, 1.0), 0.0, 1.0)
    dist = np.hypot(x0 + t * dx - ex, y0 + t * dy - ey)
    return (dist >= er - EPS).all(axis=1)


def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    i, j = np.triu_indices(n, k=1)
    return i, j


# --- building --------------------------------------------------------------------------------------------


def _free_points(nav: LevelNav, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Points where the base centre may stand on this level (GEO-7)."""
    xa, ya, xb, yb = nav.box
    ok = (x >= xa - EPS) & (x <= xb + EPS) & (y >= ya - EPS) & (y <= yb + EPS)
    pts = shapely.points(np.stack([x, y], axis=-1))
    if nav.support is not None:
        ok &= shapely.covers(nav.support, pts)
    if len(nav.blocker_parts):
        hit = nav.blockers.query(pts, predicate="dwithin", distance=nav.radius - EPS)
        if hit.shape[1]:
            ok[np.unique(hit[0])] = False
    return ok


def graph(bf: Battlefield, radius: float, height: float, *, settings: Settings | None = None) -> NavGraph:
    """The NavGraph for this battlefield, base radius and model height, built once and kept in `Battlefield.cache`."""
    s = settings or Settings.defaults()
    key = (CACHE, round(radius, 6), round(height, 6), float(s["move.difficult_mult"]),
           float(s["move.low_obstacle_extra"]))
    hit = bf.cache.get(key)
    if hit is None:
        hit = build(bf, radius, height, settings=s)
        bf.cache[key] = hit
    return hit


def clear_cache(bf: Battlefield) -> None:
    """Forget every NavGraph of this battlefield (benchmarks time the build this way)."""
    for k in [k for k in bf.cache if isinstance(k, tuple) and k and k[0] == CACHE]:
        del bf.cache[k]


def build(bf: Battlefield, radius: float, height: float, *, settings: Settings | None = None) -> NavGraph:
    """Build the visibility graph of every level for a base of this radius and height (GEO-27)."""
    import time

    t0 = time.perf_counter()
    s = settings or Settings.defaults()
    mult = float(s["move.difficult_mult"])
    navs: dict[int, LevelNav] = {}
    circ: list[tuple[float, float, float, float, int]] = []
    pts: list[tuple[float, float, int, float]] = []
    for lv in levels(bf):
        nav = _level_nav(bf, lv, radius, height, mult)
        navs[lv.id] = nav
        if nav.blocker_parts:
            circ.extend((x, y, a, w, lv.id) for x, y, a, w in _corners(shapely.GeometryCollection(list(nav.blocker_parts)), True))
        if lv.support is not None:
            pts.extend((x, y, lv.id, math.inf) for x, y, _, _ in _corners(lv.support, False))
        if nav.difficult is not None:
            pts.extend((x, y, lv.id, math.inf) for x, y in difficult_samples(nav.difficult))
    # keep only corner and boundary points where a base may stand
    kept = []
    for lid in navs:
        mine = [p for p in pts if p[2] == lid]
        if mine:
            arr = np.asarray([(p[0], p[1]) for p in mine])
            ok = _free_points(navs[lid], arr[:, 0], arr[:, 1])
            kept.extend(p for p, k in zip(mine, ok) if k)
    pts = kept
    links = connector_links(bf, radius, height, s) + climb_links(bf, radius, height, s) + \
        over_links(bf, radius, height, s)
    link_ends = []
    for ln in links:
        for p in (ln.a, ln.b):
            lv = level_at(bf, p[0], p[1], p[2])
            link_ends.append(len(pts))
            pts.append((p[0], p[1], lv.id if lv is not None else GROUND, ln.reach))
    b = _Builder()
    P = np.asarray([(p[0], p[1]) for p in pts]).reshape(-1, 2)
    plevel = np.asarray([p[2] for p in pts], np.int64)
    preach = np.asarray([p[3] for p in pts], float)
    pid = b.add_nodes(P[:, 0], P[:, 1], plevel, -1, 0, 0.0)
    C = np.asarray([c[:4] for c in circ]).reshape(-1, 4)
    clevel = np.asarray([c[4] for c in circ], np.int64)
    circles = (C[:, 0], C[:, 1], C[:, 2], C[:, 3])
    for lid, nav in navs.items():
        ci = np.nonzero(clevel == lid)[0]
        pi = np.nonzero(plevel == lid)[0]
        _wire_level(b, nav, circles, ci, pi, P, pid, preach, radius)
    level_links = []
    for k, ln in enumerate(links):
        a, c = pid[link_ends[2 * k]], pid[link_ends[2 * k + 1]]
        b.add_edges([a, c], [c, a], [ln.cost, ln.cost], 3 if ln.climb else 2)
        level_links.append((int(plevel[link_ends[2 * k]]), int(plevel[link_ends[2 * k + 1]]), ln.climb))
    g = _finish(b, navs, circles, clevel, radius, height, pid, plevel)
    g.stats["level_links"] = level_links
    g.build_ms = (time.perf_counter() - t0) * 1000.0
    g.stats |= {"circles": len(C), "points": len(P), "nodes": len(g.nx), "edges": len(g.adj[1]),
               "links": len(links), "levels": len(navs)}
    return g


def _wire_level(b: _Builder, nav: LevelNav, circles, ci, pi, P, pid, preach, radius: float) -> None:  # type: ignore[no-untyped-def]
    """Every free tangent segment of one level: corner to corner, point to corner, point to point."""
    cx, cy = circles[0], circles[1]
    n = len(ci)
    if n > 1:
        i, j = _pairs(n)
        a, c = ci[i], ci[j]
        for sa in (1, -1):
            for sb in (1, -1):
                m = len(a)
                _segments(b, nav, (cx[a], cy[a]), np.full(m, -1), a, np.full(m, sa), radius,
                          (cx[c], cy[c]), np.full(m, -1), c, np.full(m, sb), radius, circles)
    if len(pi) and n:
        pp, cc = np.repeat(pi, n), np.tile(ci, len(pi))
        near = np.hypot(P[pp, 0] - cx[cc], P[pp, 1] - cy[cc]) <= preach[pp] + radius
        pp, cc = pp[near], cc[near]
        m = len(pp)
        for sb in (1, -1):
            _segments(b, nav, (P[pp, 0], P[pp, 1]), pid[pp], np.full(m, -1), np.zeros(m, np.int64), 0.0,
                      (cx[cc], cy[cc]), np.full(m, -1), cc, np.full(m, sb), radius, circles)
    if len(pi) > 1:
        i, j = _pairs(len(pi))
        a, c = pi[i], pi[j]
        near = np.hypot(P[a, 0] - P[c, 0], P[a, 1] - P[c, 1]) <= np.minimum(preach[a], preach[c])
        a, c = a[near], c[near]
        m = len(a)
        zero = np.zeros(m, np.int64)
        _segments(b, nav, (P[a, 0], P[a, 1]), pid[a], np.full(m, -1), zero, 0.0,
                  (P[c, 0], P[c, 1]), pid[c], np.full(m, -1), zero, 0.0, circles)


def _arcs(nx, ny, nlevel, ncircle, ns, noff, circles, radius_of, navs, first: int = 0):  # type: ignore[no-untyped-def]
    """Arc edges between consecutive tangent points on the same corner and side (r x angle, GEO-8 cost)."""
    cx, cy, c0, cw = circles
    on = np.nonzero(ncircle >= 0)[0]
    if len(on) < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    order = on[np.lexsort((noff[on], ns[on], ncircle[on]))]
    u, v = order[:-1], order[1:]
    same = (ncircle[u] == ncircle[v]) & (ns[u] == ns[v])
    u, v = u[same], v[same]
    ci = ncircle[u]
    r = radius_of(ci)
    d = noff[v] - noff[u]
    mid = c0[ci] + (noff[u] + noff[v]) / 2
    mx, my = cx[ci] + r * np.cos(mid), cy[ci] + r * np.sin(mid)
    ok = np.ones(len(u), bool)
    cost = r * d
    fwd = ns[u] > 0
    a0 = c0[ci] + np.where(fwd, noff[u], noff[v])  # the polyline from the edge's tail, as the path is written
    sgn = np.where(fwd, 1.0, -1.0)
    for lid, nav in navs.items():
        sel = np.nonzero(nlevel[u] == lid)[0]
        if len(sel) == 0:
            continue
        t, h = np.where(fwd[sel], u[sel], v[sel]), np.where(fwd[sel], v[sel], u[sel])
        ok[sel] = nav.valid_arcs(nx[t], ny[t], nx[h], ny[h], cx[ci[sel]], cy[ci[sel]], r[sel], a0[sel],
                                 sgn[sel] * d[sel]) | (d[sel] < 1e-9)
        if nav.difficult is not None:
            inside = shapely.contains_xy(nav.difficult, mx[sel], my[sel])
            cost[sel[inside]] *= nav.mult
    u, v, cost, fwd = u[ok], v[ok], cost[ok], fwd[ok]
    a = np.where(fwd, u, v)
    b = np.where(fwd, v, u)
    return a + first, b + first, cost


def _finish(b: _Builder, navs, circles, clevel, radius: float, height: float, pid, plevel) -> NavGraph:  # type: ignore[no-untyped-def]
    nx, ny = b.cat("nx", float), b.cat("ny", float)
    nlevel, ncircle = b.cat("nlevel", np.int64), b.cat("ncircle", np.int64)
    ns, noff = b.cat("ns", np.int64), b.cat("noff", float)
    a, c, cost = _arcs(nx, ny, nlevel, ncircle, ns, noff, circles, lambda ci: np.full(len(ci), radius), navs)
    b.add_edges(a, c, cost, 1)
    efrom, eto = b.cat("efrom", np.int64), b.cat("eto", np.int64)
    ecost, ekind = b.cat("ecost", float), b.cat("ekind", np.int64)
    order = np.argsort(efrom, kind="stable")
    efrom, eto, ecost, ekind = efrom[order], eto[order], ecost[order], ekind[order]
    indptr = np.searchsorted(efrom, np.arange(len(nx) + 1))
    adj = (indptr.tolist(), eto.tolist(), ecost.tolist(), ekind.tolist())
    points = {lid: pid[plevel == lid] for lid in navs}
    chains = _chains(ncircle, ns, noff)
    g = NavGraph(radius, height, navs, circles[0], circles[1], circles[2], circles[3], clevel, nx, ny, nlevel,
                 ncircle, ns, noff, adj, points)
    g.stats["chains"] = chains
    g.lists = (nx.tolist(), ny.tolist(), nlevel.tolist())
    return g


def _chains(ncircle, ns, noff) -> dict:  # type: ignore[no-untyped-def]
    """Per (corner, side): the tangent points sorted by angle, to hook query points onto arcs."""
    on = np.nonzero(ncircle >= 0)[0]
    order = on[np.lexsort((noff[on], ns[on], ncircle[on]))]
    keys = ncircle[order] * 2 + (ns[order] > 0)
    out = {}
    if len(order) == 0:
        return out
    cuts = np.nonzero(np.diff(keys))[0] + 1
    for grp in np.split(order, cuts):
        k = int(ncircle[grp[0]] * 2 + (ns[grp[0]] > 0))
        out[k] = (noff[grp], grp)
    return out


def connected_levels(g: NavGraph, a: int, b: int, *, can_climb: bool = True) -> bool:
    """True if some chain of stairs, ladders and climbs joins level a to level b (a quick 'no path' answer)."""
    if a == b:
        return True
    seen, todo = {a}, [a]
    links = g.stats.get("level_links", ())
    while todo:
        u = todo.pop()
        for x, y, climb in links:
            if climb and not can_climb:
                continue
            for p, q in ((x, y), (y, x)):
                if p == u and q not in seen:
                    if q == b:
                        return True
                    seen.add(q)
                    todo.append(q)
    return False
