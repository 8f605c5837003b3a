"""One path query on the NavGraph: start and goal joined to the graph, enemy bases added as corners (GEO-8, GEO-27)."""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import pairwise

import numpy as np
import shapely

from game.core.battlefield import Base, Battlefield, Point3
from game.core.geometry.arrays import Floats, Ints
from game.core.geometry.movement.free_space import TAU, arc_vertices
from game.core.geometry.movement.graph import NavGraph
from game.core.geometry.movement.positions import vertically_overlap
from game.core.geometry.movement.tangents import (
    ARC,
    Circles,
    Enemies,
    GraphBuilder,
    TangentCandidates,
    add_free_tangents,
    arc_edges,
    tangent_candidates,
)
from game.core.geometry.terrain import level_at, walking_level
from game.core.tolerance import EPS

Edge = tuple[int, float, int]  # (head node, GEO-8 cost, edge kind)


def enemy_bases(others: Sequence[Base], side: str) -> list[Base]:
    """The bases of `others` that are not on `side`: the ones a path may not pass within r + r_enemy of (GEO-8)."""
    return [o for o in others if o.side != side]


class PathQuery:
    """One query: the start (and goal) joined to the graph, enemy bases as extra corners, for `search`.

    Node ids below N are the graph's; ids from N up are this query's (start S, goal G, tangent points).
    Corner ids below nc are the graph's circles; ids from nc up are the enemy bases grown by r."""

    g: NavGraph
    bf: Battlefield
    bound: float
    can_climb: bool
    N: int
    start: Point3
    goal: Point3 | None
    ls: int  # level of the start
    lg: int  # level of the goal (-1 with no goal)
    b: GraphBuilder
    extra: dict[int, list[Edge]]  # query edges by tail node
    nc: int
    ex: Floats  # enemy bases per level they stand at: centre, r + r_enemy, level
    ey: Floats
    er: Floats
    el: Ints
    by_level: dict[int, list[tuple[float, float, float]]]
    circles: Circles  # the graph's corner circles and then the enemy bases
    cr: Floats  # radius of every circle
    S: int
    G: int  # -1 with no goal
    qx: Floats  # this query's nodes
    qy: Floats
    ql: Ints
    qc: Ints
    qs: Ints
    qo: Floats

    def __init__(self, g: NavGraph, bf: Battlefield, start: Point3, goal: Point3 | None, bound: float,
                 enemies: Sequence[Base], can_climb: bool) -> None:
        self.g, self.bf, self.bound, self.can_climb = g, bf, bound, can_climb
        self.N = len(g.nx)
        self.start, self.goal = start, goal
        ls = walking_level(bf, start[0], start[1], start[2]) if bf.pieces else None
        self.ls = ls.id if ls is not None else 0
        lg = level_at(bf, goal[0], goal[1], goal[2]) if (goal is not None and bf.pieces) else None
        self.lg = lg.id if lg is not None else (0 if goal is not None else -1)
        self.b = GraphBuilder(base=self.N)
        self.extra = {}
        self._add_enemies(enemies)
        self.S = int(self.b.add_nodes([start[0]], [start[1]], self.ls, -1, 0, 0.0)[0])
        self.G = int(self.b.add_nodes([goal[0]], [goal[1]], self.lg, -1, 0, 0.0)[0]) if goal is not None else -1
        self._connect()
        self._merge()

    # -- setup ----------------------------------------------------------------------------------------------
    def _add_enemies(self, enemies: Sequence[Base]) -> None:
        """Each enemy base at each level it overlaps in height, as a full circle of radius r + r_enemy."""
        g = self.g
        self.nc = len(g.cx)
        ex: list[float] = []
        ey: list[float] = []
        er: list[float] = []
        el: list[int] = []
        for e in enemies:
            for lid, nav in g.navs.items():
                if vertically_overlap(nav.z, g.height, e.z, e.height) and (
                        nav.support is None or nav.support.distance(shapely.Point(e.x, e.y)) < g.radius + e.radius):
                    ex.append(e.x)
                    ey.append(e.y)
                    er.append(g.radius + e.radius)
                    el.append(lid)
        self.ex, self.ey, self.er = np.asarray(ex, float), np.asarray(ey, float), np.asarray(er, float)
        self.el = np.asarray(el, np.int64)
        self.by_level = {}
        for x, y, r, lid in zip(ex, ey, er, el, strict=True):
            self.by_level.setdefault(lid, []).append((x, y, r))
        self.circles = (np.concatenate([g.cx, self.ex]), np.concatenate([g.cy, self.ey]),
                        np.concatenate([g.c0, np.zeros(len(ex))]), np.concatenate([g.cw, np.full(len(ex), TAU)]))
        self.cr = np.concatenate([np.full(self.nc, g.radius), self.er])

    def _in_bound(self, x: Floats, y: Floats, slack: float | Floats = 0.0) -> np.ndarray:
        """Points that a path of cost <= bound may touch (ellipse round start and goal, or a disc)."""
        sx, sy = self.start[0], self.start[1]
        d = np.hypot(x - sx, y - sy)
        if self.goal is not None:
            d = d + np.hypot(x - self.goal[0], y - self.goal[1])
        return d <= self.bound + EPS + slack

    def _connect(self) -> None:
        """Join the start and goal (and the enemy corners) to the graph: the candidate segments of each level are
        gathered and tested together (`add_free_tangents`); levels with no end and no enemy skip it."""
        g, b = self.g, self.b
        circles, cr = self.circles, self.cr
        cx, cy = circles[0], circles[1]
        clevel = np.concatenate([g.clevel, self.el])
        near_c = self._in_bound(cx, cy, 2.0 * cr)
        busy = {self.ls, self.lg} | set(self.el[near_c[self.nc:]].tolist())
        for lid, nav in g.navs.items():
            if lid not in busy:
                continue
            cands: list[TangentCandidates | None] = []
            ens = self._enemy_arrays(lid)
            ci = np.nonzero(near_c & (clevel == lid))[0]
            pts = g.points.get(lid, np.zeros(0, np.int64))
            pi = pts[self._in_bound(g.nx[pts], g.ny[pts])] if len(pts) else pts
            ends: list[tuple[int, Point3, bool]] = []
            if lid == self.ls:
                ends.append((self.S, self.start, True))
            if lid == self.lg and self.G >= 0 and self.goal is not None:
                ends.append((self.G, self.goal, False))
            for node, p, out in ends:
                m = len(ci)
                for side in (1, -1):
                    if m:
                        cands.append(self._seg((np.full(m, p[0]), np.full(m, p[1])), np.full(m, node),
                                               np.full(m, -1), np.zeros(m, np.int64), 0.0, (cx[ci], cy[ci]),
                                               np.full(m, -1), ci, np.full(m, side), cr[ci], out, ens))
                k = len(pi)
                if k:
                    cands.append(self._seg((np.full(k, p[0]), np.full(k, p[1])), np.full(k, node), np.full(k, -1),
                                           np.zeros(k, np.int64), 0.0, (g.nx[pi], g.ny[pi]), pi, np.full(k, -1),
                                           np.zeros(k, np.int64), 0.0, out, ens))
            if len(ends) == 2 and self.goal is not None:
                one = np.ones(1)
                cands.append(self._seg((one * self.start[0], one * self.start[1]), np.array([self.S]),
                                       np.array([-1]), np.zeros(1, np.int64), 0.0,
                                       (one * self.goal[0], one * self.goal[1]), np.array([self.G]), np.array([-1]),
                                       np.zeros(1, np.int64), 0.0, True, ens))
            # enemy corners against everything near
            eci = ci[ci >= self.nc]
            if len(eci):
                self._enemy_wiring(cands, eci, ci, pi, ens)
            add_free_tangents(b, nav, [c for c in cands if c is not None], circles)

    def _enemy_arrays(self, lid: int) -> Enemies:
        sel = self.el == lid
        return (self.ex[sel], self.ey[sel], self.er[sel])

    def _seg(self, a_xy: tuple[Floats, Floats], a_node: Ints, a_circ: Ints, a_side: Ints, a_r: float | Floats,
             b_xy: tuple[Floats, Floats], b_node: Ints, b_circ: Ints, b_side: Ints, b_r: float | Floats, out: bool,
             ens: Enemies) -> TangentCandidates | None:
        """The candidates A -> B when out, else B -> A (segments into the goal), one way only."""
        if out:
            return tangent_candidates(a_xy, a_node, a_circ, a_side, a_r, b_xy, b_node, b_circ, b_side, b_r,
                                      self.circles, False, ens)
        return tangent_candidates(b_xy, b_node, b_circ, -b_side, b_r, a_xy, a_node, a_circ, a_side, a_r,
                                  self.circles, False, ens)

    def _enemy_wiring(self, cands: list[TangentCandidates | None], eci: Ints, ci: Ints, pi: Ints,
                      ens: Enemies) -> None:
        """Tangents from each enemy corner to the other corners and the points near it (both turning sides)."""
        cx, cy = self.circles[0], self.circles[1]
        cr = self.cr
        for e in eci:
            others = ci[ci != e]
            m = len(others)
            mine = _without(ens, cx[e], cy[e])
            for sa in (1, -1):
                for sb in (1, -1):
                    if m:
                        cands.append(tangent_candidates((np.full(m, cx[e]), np.full(m, cy[e])), np.full(m, -1),
                                                        np.full(m, e), np.full(m, sa), cr[e],
                                                        (cx[others], cy[others]), np.full(m, -1), others,
                                                        np.full(m, sb), cr[others], self.circles, True, mine))
            k = len(pi)
            if k:
                for sa in (1, -1):
                    cands.append(tangent_candidates((np.full(k, cx[e]), np.full(k, cy[e])), np.full(k, -1),
                                                    np.full(k, e), np.full(k, sa), cr[e],
                                                    (self.g.nx[pi], self.g.ny[pi]), pi, np.full(k, -1),
                                                    np.zeros(k, np.int64), 0.0, self.circles, True, mine))

    def _merge(self) -> None:
        """Query edges and arcs into `extra`; hook new tangent points onto the static arcs of their corner."""
        b, g = self.b, self.g
        qx, qy = b.cat("nx", float), b.cat("ny", float)
        ql, qc = b.cat("nlevel", np.int64), b.cat("ncircle", np.int64)
        qs, qo = b.cat("ns", np.int64), b.cat("noff", float)
        self.qx, self.qy, self.ql, self.qc, self.qs, self.qo = qx, qy, ql, qc, qs, qo

        def radius_of(ci: Ints) -> Floats:
            return self.cr[ci]

        a, c, cost = arc_edges(qx, qy, ql, qc, qs, qo, self.circles, radius_of, g.navs, first=self.N)
        b.add_edges(a, c, cost, ARC)
        self._wrap_enemy_arcs(qc, qs, qo)
        self._hooks(qc, qs, qo)
        for fr, to, co, ki in zip(b.cat("efrom", np.int64).tolist(), b.cat("eto", np.int64).tolist(),
                                  b.cat("ecost", float).tolist(), b.cat("ekind", np.int64).tolist(), strict=True):
            self.extra.setdefault(fr, []).append((to, co, ki))

    def _wrap_enemy_arcs(self, qc: Ints, qs: Ints, qo: Floats) -> None:
        """Round an enemy base the arc may pass angle 0: join the last tangent point to the first."""
        for e in np.unique(qc[qc >= self.nc]):
            for side in (1, -1):
                sel = np.nonzero((qc == e) & (qs == side))[0]
                if len(sel) < 2:
                    continue
                sel = sel[np.argsort(qo[sel])]
                lo, hi = sel[0], sel[-1]
                cost = self.cr[e] * (qo[lo] + TAU - qo[hi])
                a, c = (hi, lo) if side > 0 else (lo, hi)
                if self._edges_clear(np.array([a + self.N]), np.array([c + self.N]), np.array([e]),
                                     np.array([side])).all():
                    self.b.add_edges([a + self.N], [c + self.N], [cost], ARC)

    def _edges_clear(self, a: Ints, c: Ints, circ: Ints, side: Ints) -> np.ndarray:
        """Arc edges between node ids a -> c on corner `circ`, turning `side`: is the circumscribed polyline that
        `arc_points` writes for them legal by the same clearance test as the graph's straight edges (GEO-7)?"""
        ok = np.ones(len(a), bool)
        if len(a) == 0:
            return ok
        xa, ya, la, oa = self._node_arrays(a)
        xc, yc, _, oc = self._node_arrays(c)
        delta = oc - oa
        delta = np.where((side > 0) & (delta < 0), delta + TAU, delta)
        delta = np.where((side < 0) & (delta > 0), delta - TAU, delta)
        cx, cy, c0 = self.circles[0][circ], self.circles[1][circ], self.circles[2][circ]
        for lid, nav in self.g.navs.items():
            sel = np.nonzero(la == lid)[0]
            if len(sel):
                ok[sel] = nav.valid_arcs(xa[sel], ya[sel], xc[sel], yc[sel], cx[sel], cy[sel], self.cr[circ[sel]],
                                         c0[sel] + oa[sel], delta[sel]) | (np.abs(delta[sel]) < 1e-9)
        return ok

    def _node_arrays(self, ids: Ints) -> tuple[Floats, Floats, Ints, Floats]:
        """x, y, level and arc offset of node ids (graph nodes below N, query nodes above)."""
        g, N = self.g, self.N
        stat = ids < N
        s, q = ids[stat], ids[~stat] - N

        def column(static: np.ndarray, query: np.ndarray, dtype: type) -> np.ndarray:
            col: np.ndarray = np.empty(len(ids), dtype)
            col[stat], col[~stat] = static[s], query[q]
            return col

        return (column(g.nx, self.qx, float), column(g.ny, self.qy, float), column(g.nlevel, self.ql, np.int64),
                column(g.noff, self.qo, float))

    def _hooks(self, qc: Ints, qs: Ints, qo: Floats) -> None:
        """Arc edges from each new tangent point on a graph corner to its neighbours in angle on the static arc."""
        chains = self.g.chains
        r = self.g.radius
        fr: list[int] = []
        to: list[int] = []
        co: list[float] = []
        owner: list[int] = []
        for q in np.nonzero((qc >= 0) & (qc < self.nc))[0].tolist():
            key = int(qc[q] * 2 + (qs[q] > 0))
            chain = chains.get(key)
            if chain is None:
                continue
            offs, ids = chain
            o = float(qo[q])
            nid = q + self.N
            hi = bisect_left(offs, o)
            lo = bisect_right(offs, o) - 1
            fwd = qs[q] > 0
            if hi < len(offs):  # a static point ahead in angle
                a, c = (nid, int(ids[hi])) if fwd else (int(ids[hi]), nid)
                fr.append(a)
                to.append(c)
                co.append(r * (offs[hi] - o))
                owner.append(q)
            if lo >= 0:
                a, c = (int(ids[lo]), nid) if fwd else (nid, int(ids[lo]))
                fr.append(a)
                to.append(c)
                co.append(r * (o - offs[lo]))
                owner.append(q)
        if not fr:
            return
        qi = np.asarray(owner)
        keep = np.nonzero(self._edges_clear(np.asarray(fr), np.asarray(to), qc[qi], qs[qi]))[0]
        self.b.add_edges(np.asarray(fr)[keep], np.asarray(to)[keep], np.asarray(co)[keep], ARC)

    # -- nodes ----------------------------------------------------------------------------------------------
    def node_xy(self, u: int) -> tuple[float, float]:
        """Where node u is (graph or query node)."""
        if u < self.N:
            return self.g.nx[u], self.g.ny[u]
        return self.qx[u - self.N], self.qy[u - self.N]

    def node_arc(self, u: int) -> tuple[int, int, float]:
        """(corner, turning side, angle offset) of node u; corner -1 for a point node."""
        if u < self.N:
            return int(self.g.ncircle[u]), int(self.g.ns[u]), float(self.g.noff[u])
        i = u - self.N
        return int(self.qc[i]), int(self.qs[i]), float(self.qo[i])

    def circle_level(self, ci: int) -> int:
        """The level of corner ci (a graph corner or an enemy base)."""
        return int(self.g.clevel[ci]) if ci < self.nc else int(self.el[ci - self.nc])

    # -- output ---------------------------------------------------------------------------------------------
    def polyline(self, parent: dict[int, tuple[int, int]], end: int) -> list[Point3]:
        """The path to `end` by the search's parents, arcs written as circumscribed polylines."""
        chain = [end]
        kinds = []
        while chain[-1] in parent:
            u, k = parent[chain[-1]]
            kinds.append(k)
            chain.append(u)
        chain.reverse()
        kinds.reverse()
        out: list[Point3] = [self.point3(chain[0])]
        steps = list(zip(pairwise(chain), kinds, strict=True))
        arcs = iter(self.arcs_points([uv for uv, k in steps if k == ARC]))
        for (_, v), k in steps:
            if k == ARC:
                out.extend(next(arcs))
            out.append(self.point3(v))
        dedup = [out[0]]
        for p in out[1:]:
            if math.hypot(p[0] - dedup[-1][0], p[1] - dedup[-1][1]) > 1e-9 or abs(p[2] - dedup[-1][2]) > 1e-9:
                dedup.append(p)
        return dedup

    def point3(self, u: int) -> Point3:
        """Node u as a table point at its level's height (the start and goal as given)."""
        if u == self.S:
            return (self.start[0], self.start[1], self.g.navs[self.ls].z if self.bf.pieces else self.start[2])
        if u == self.G and self.goal is not None:
            return (self.goal[0], self.goal[1], self.goal[2])
        x, y = self.node_xy(u)
        lv = self.g.nlevel[u] if u < self.N else self.ql[u - self.N]
        return (float(x), float(y), self.g.navs[int(lv)].z)

    def arcs_points(self, arcs: list[tuple[int, int]]) -> list[list[Point3]]:
        """`arc_points` of many arcs (u, v) by one `arc_vertices` call: the same formula element by element, so the
        same points (a path round many corners no longer pays numpy's per-call cost per arc)."""
        if not arcs:
            return []
        ua = [self.node_arc(u) for u, _ in arcs]
        ci = np.asarray([a[0] for a in ua], np.int64)
        side = np.asarray([a[1] for a in ua], np.int64)
        o1 = np.asarray([a[2] for a in ua], float)
        delta = np.asarray([self.node_arc(v)[2] for _, v in arcs], float) - o1
        delta = np.where((side > 0) & (delta < 0), delta + TAU, delta)
        delta = np.where((side < 0) & (delta > 0), delta - TAU, delta)
        which, xs, ys = arc_vertices(self.circles[0][ci], self.circles[1][ci], self.cr[ci], self.circles[2][ci] + o1,
                                     delta)
        cuts = np.searchsorted(which, np.arange(len(arcs) + 1)).tolist()
        xl, yl = xs.tolist(), ys.tolist()
        zs = [self.point3(u)[2] for u, _ in arcs]
        return [[(xl[j], yl[j], zs[k]) for j in range(cuts[k], cuts[k + 1])] for k in range(len(arcs))]

    def arc_points(self, u: int, v: int) -> list[Point3]:
        """The arc from u to v as a polyline circumscribing the circle, so the base never cuts the corner."""
        ci, side, o1 = self.node_arc(u)
        _, _, o2 = self.node_arc(v)
        delta = o2 - o1
        if side > 0 and delta < 0:
            delta += TAU
        if side < 0 and delta > 0:
            delta -= TAU
        cx, cy, c0 = float(self.circles[0][ci]), float(self.circles[1][ci]), float(self.circles[2][ci])
        _, xs, ys = arc_vertices(cx, cy, float(self.cr[ci]), c0 + o1, delta)
        z = self.point3(u)[2]
        return [(float(x), float(y), z) for x, y in zip(xs, ys, strict=True)]


def _without(ens: Enemies, x: float, y: float) -> Enemies:
    """The enemy arrays without the base centred at (x, y)."""
    ex, ey, er = ens
    keep = (np.abs(ex - x) > 1e-12) | (np.abs(ey - y) > 1e-12)
    return ex[keep], ey[keep], er[keep]
