"""Tangent segments and arcs between corners and points, tested and added as graph edges (GEO-7, GEO-8, GEO-27)."""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeAlias

import numpy as np
import shapely
from numpy.typing import ArrayLike, DTypeLike

from game.core.geometry.arrays import Bools, Floats, Ints
from game.core.geometry.movement.free_space import TAU, LevelNav
from game.core.tolerance import EPS

STRAIGHT, ARC, CONNECTOR, CLIMB = 0, 1, 2, 3  # edge kinds: a free segment, an arc round a corner, stairs/ladder, climb

Circles: TypeAlias = tuple[Floats, Floats, Floats, Floats]  # centre x, centre y, free span start, span width
Enemies: TypeAlias = tuple[Floats, Floats, Floats]  # centre x, centre y, r + r_enemy of the enemy bases at a level
Ends: TypeAlias = tuple[Ints, Ints, Ints]  # node id (-1 on a circle), circle (-1 at a point), turning side


@dataclass(slots=True)
class GraphBuilder:
    """Collects nodes and edges while a NavGraph is built or a path query extends it."""

    nx: list[Floats] = field(default_factory=list)
    ny: list[Floats] = field(default_factory=list)
    nlevel: list[Ints] = field(default_factory=list)
    ncircle: list[Ints] = field(default_factory=list)
    ns: list[Ints] = field(default_factory=list)
    noff: list[Floats] = field(default_factory=list)
    efrom: list[Ints] = field(default_factory=list)
    eto: list[Ints] = field(default_factory=list)
    ecost: list[Floats] = field(default_factory=list)
    ekind: list[Ints] = field(default_factory=list)
    base: int = 0  # id of the first node held here
    count: int = 0  # nodes held here (`add_nodes` keeps it)

    def add_nodes(self, x: ArrayLike, y: ArrayLike, level: ArrayLike, circle: ArrayLike, side: ArrayLike,
                  off: ArrayLike) -> Ints:
        """Append nodes (scalars are repeated for every x) and return their ids."""
        xs = np.asarray(x, float)
        n = len(xs)
        first = self.base + self.count
        self.count += n
        self.nx.append(xs)
        self.ny.append(np.asarray(y, float))
        self.nlevel.append(_column(level, np.int64, n))
        self.ncircle.append(_column(circle, np.int64, n))
        self.ns.append(_column(side, np.int64, n))
        self.noff.append(_column(off, float, n))
        return np.arange(first, first + n)

    def add_edges(self, a: ArrayLike, b: ArrayLike, cost: ArrayLike, kind: int) -> None:
        """Append directed edges a -> b of one kind."""
        tails = np.asarray(a, np.int64)
        self.efrom.append(tails)
        self.eto.append(np.asarray(b, np.int64))
        self.ecost.append(np.asarray(cost, float))
        self.ekind.append(np.full(len(tails), kind, np.int64))

    def cat(self, name: str, dtype: DTypeLike) -> np.ndarray:
        """One column (`nx`, `efrom`, ...) of everything added, as one array."""
        parts = getattr(self, name)
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)


def _column(v: ArrayLike, dtype: DTypeLike, n: int) -> np.ndarray:
    """A fresh length-n array of v (a scalar or a length-n array)."""
    if np.ndim(v) == 0:
        return np.full(n, v, dtype)
    a = np.asarray(v, dtype)
    return a.copy() if a.shape == (n,) else np.broadcast_to(a, (n,)).copy()  # the copy alone when no broadcast


@dataclass(slots=True)
class TangentCandidates:
    """The candidate tangent segments of one batch of end pairs, before the legality test."""

    idx: Ints  # candidate pairs whose tangent leaves both circles inside their free spans
    tax: Floats
    tay: Floats
    tbx: Floats
    tby: Floats
    a: Ends  # of the A ends
    b: Ends
    both_ways: bool
    enemies: Enemies | None


def tangent_candidates(a_xy: tuple[Floats, Floats], a_node: Ints, a_circ: Ints, a_side: Ints, a_r: float | Floats,
                       b_xy: tuple[Floats, Floats], b_node: Ints, b_circ: Ints, b_side: Ints, b_r: float | Floats,
                       circles: Circles, both_ways: bool, enemies: Enemies | None) -> TangentCandidates | None:
    """The tangent segment of each candidate pair A -> B (None when no pair has one inside both spans).

    a_node/b_node: an existing node id for point ends (-1 for circle ends, which get new tangent-point nodes);
    a_circ/b_circ: the circle of circle ends (-1 for points), of radius a_r/b_r, turned round on side a_side/b_side."""
    ax, ay = a_xy
    bx, by = b_xy
    # a radius is a scalar or one per end: numpy applies a scalar to every element as the broadcast array would
    a_r = np.asarray(a_r, float)
    b_r = np.asarray(b_r, float)
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
    ar = a_r[idx] if a_r.size > 1 else a_r
    br = b_r[idx] if b_r.size > 1 else b_r
    tax = ax[idx] + ar * np.cos(tha[idx]) * (a_circ[idx] >= 0)
    tay = ay[idx] + ar * np.sin(tha[idx]) * (a_circ[idx] >= 0)
    tbx = bx[idx] + br * np.cos(thb[idx]) * (b_circ[idx] >= 0)
    tby = by[idx] + br * np.sin(thb[idx]) * (b_circ[idx] >= 0)
    return TangentCandidates(idx, tax, tay, tbx, tby, (a_node, a_circ, a_side), (b_node, b_circ, b_side), both_ways,
                             enemies)


def add_tangent_segments(b: GraphBuilder, nav: LevelNav, a_xy: tuple[Floats, Floats], a_node: Ints, a_circ: Ints,
                         a_side: Ints, a_r: float | Floats, b_xy: tuple[Floats, Floats], b_node: Ints, b_circ: Ints,
                         b_side: Ints, b_r: float | Floats, circles: Circles) -> None:
    """Add the free tangent segments between candidate pairs, A -> B and B -> A reversed (see `tangent_candidates`)."""
    cand = tangent_candidates(a_xy, a_node, a_circ, a_side, a_r, b_xy, b_node, b_circ, b_side, b_r, circles, True,
                              None)
    add_free_tangents(b, nav, [cand] if cand is not None else [], circles)


def add_free_tangents(b: GraphBuilder, nav: LevelNav, cands: list[TangentCandidates], circles: Circles) -> None:
    """Test several batches of candidates on one level together (one `valid`, one `costs`, one `clear_of_enemies`
    per run of batches sharing their enemies: every test is per segment, so the verdicts are those of separate
    batches) and add the free ones as nodes and edges in batch order."""
    if not cands:
        return

    def cat(name: str) -> Floats:
        return np.concatenate([getattr(c, name) for c in cands]) if len(cands) > 1 else getattr(cands[0], name)

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
                valid[sel] &= clear_of_enemies(ens, tax[sel], tay[sel], tbx[sel], tby[sel])
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


def _emit(b: GraphBuilder, nav: LevelNav, c: TangentCandidates, valid: Bools, tax: Floats, tay: Floats, tbx: Floats,
          tby: Floats, cost: Floats, circles: Circles) -> None:
    """Nodes for the tangent points of the free segments of one batch and their edges (both ways if asked)."""
    cx, cy, c0, _ = circles
    idx = c.idx[valid]
    lv = nav.level.id

    def ends(node: Ints, circ: Ints, side: Ints, tx: Floats, ty: Floats, sign: int) -> Ints:
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
    b.add_edges(fa, fb, cost, STRAIGHT)
    if c.both_ways:
        ra = ends(*c.a, tax, tay, -1)
        rb = ends(*c.b, tbx, tby, -1)
        b.add_edges(rb, ra, cost, STRAIGHT)


def _offsets(px: Floats, py: Floats, cx: Floats, cy: Floats, c0: Floats) -> Floats:
    """The angle of each point round its circle, from the start of the circle's free span."""
    return (np.arctan2(py - cy, px - cx) - c0) % TAU


def clear_of_enemies(enemies: Enemies, x0: Floats, y0: Floats, x1: Floats, y1: Floats) -> Bools:
    """Segments that keep the base centre at least r + r_enemy from every enemy centre (GEO-8)."""
    ex, ey, er = (np.asarray(a)[None, :] for a in enemies)
    ax, ay, bx, by = (np.asarray(a)[:, None] for a in (x0, y0, x1, y1))
    dx, dy = bx - ax, by - ay
    l2 = dx * dx + dy * dy
    t = np.clip(((ex - ax) * dx + (ey - ay) * dy) / np.where(l2 > 0, l2, 1.0), 0.0, 1.0)
    dist = np.hypot(ax + t * dx - ex, ay + t * dy - ey)
    clear: Bools = np.all(dist >= er - EPS, axis=1)
    return clear


def arc_edges(nx: Floats, ny: Floats, nlevel: Ints, ncircle: Ints, ns: Ints, noff: Floats, circles: Circles,
              radius_of: Callable[[Ints], Floats], navs: dict[int, LevelNav],
              first: int = 0) -> tuple[Ints, Ints, Floats]:
    """Arc edges between consecutive tangent points on the same corner and side (r x angle, GEO-8 cost), each
    tested along its circumscribed polyline; node ids are offset by `first`."""
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
