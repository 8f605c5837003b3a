"""Shortest legal paths and one-to-all move costs on the cached NavGraph, other bases added per query (GEO-8, GEO-27)."""
from __future__ import annotations

import heapq
import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from game.core.battlefield import Base, Battlefield, Point3
from game.core.geometry.distance import EPS
from game.core.geometry.movement.cost import PathFact, path_cost
from game.core.geometry.movement.graph import (
    ARC_STEP,
    TAU,
    NavGraph,
    _arcs,
    _Builder,
    _add_segments,
    _clear_of,
    _tangents,
    arc_vertices,
    connected_levels,
    graph,
)
from game.core.geometry.movement.positions import position_fact, vertically_overlap
from game.core.settings import Settings
from game.core.geometry.terrain import level_at, walking_level

STRAIGHT, ARC, CONNECTOR, CLIMB = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class PathResult:
    """GEO-27: the shortest legal path (start first, arcs written as circumscribed polylines) and its GEO-8 cost,
    or why there is none. `fact` is the verdict of `movement.path_cost` on `points`: the same cost function that
    judges a player's own waypoints."""

    found: bool
    cost: float
    points: tuple[Point3, ...]
    fact: PathFact | None = None
    reason: str = ""
    expanded: int = 0

    @property
    def waypoints(self) -> tuple[Point3, ...]:
        """The points after the start, ready for `Move(unit, path)`."""
        return self.points[1:]


class _Query:
    """One query: the start (and goal) joined to the graph, enemy bases as extra corners, A* or Dijkstra."""

    def __init__(self, g: NavGraph, bf: Battlefield, start: Point3, goal: Point3 | None, bound: float,
                 enemies: Sequence[Base], can_climb: bool) -> None:
        self.g, self.bf, self.bound, self.can_climb = g, bf, bound, can_climb
        self.N = len(g.nx)
        self.start, self.goal = start, goal
        ls = walking_level(bf, start[0], start[1], start[2]) if bf.pieces else None
        self.ls = ls.id if ls is not None else 0
        lg = level_at(bf, goal[0], goal[1], goal[2]) if (goal is not None and bf.pieces) else None
        self.lg = lg.id if lg is not None else (0 if goal is not None else -1)
        self.b = _Builder(base=self.N)
        self.extra: dict[int, list[tuple[int, float, int]]] = {}
        self._enemies(enemies)
        self.S = int(self.b.add_nodes([start[0]], [start[1]], self.ls, -1, 0, 0.0)[0])
        self.G = int(self.b.add_nodes([goal[0]], [goal[1]], self.lg, -1, 0, 0.0)[0]) if goal is not None else -1
        self._connect()
        self._merge()

    # -- setup ----------------------------------------------------------------------------------------------
    def _enemies(self, enemies: Sequence[Base]) -> None:
        g = self.g
        self.nc = len(g.cx)
        ex, ey, er, el = [], [], [], []
        for e in enemies:
            for lid, nav in g.navs.items():
                if vertically_overlap(nav.z, g.height, e.z, e.height) and (
                        nav.support is None or nav.support.distance(_pt(e.x, e.y)) < g.radius + e.radius):
                    ex.append(e.x), ey.append(e.y), er.append(g.radius + e.radius), el.append(lid)
        self.ex, self.ey, self.er = np.asarray(ex, float), np.asarray(ey, float), np.asarray(er, float)
        self.el = np.asarray(el, np.int64)
        self.by_level: dict[int, list[tuple[float, float, float]]] = {}
        for x, y, r, lid in zip(ex, ey, er, el):
            self.by_level.setdefault(lid, []).append((x, y, r))
        self.circles = (np.concatenate([g.cx, self.ex]), np.concatenate([g.cy, self.ey]),
                        np.concatenate([g.c0, np.zeros(len(ex))]), np.concatenate([g.cw, np.full(len(ex), TAU)]))
        self.cr = np.concatenate([np.full(self.nc, g.radius), self.er])

    def _in_bound(self, x: np.ndarray, y: np.ndarray, slack=0.0) -> np.ndarray:  # type: ignore[no-untyped-def]
        """Points that a path of cost <= bound may touch (ellipse round start and goal, or a disc)."""
        sx, sy = self.start[0], self.start[1]
        d = np.hypot(x - sx, y - sy)
        if self.goal is not None:
            d = d + np.hypot(x - self.goal[0], y - self.goal[1])
        return d <= self.bound + EPS + slack

    def _connect(self) -> None:
        """Join the start and goal (and the enemy corners) to the graph: the candidate segments of each level are
        gathered and tested together (`navgraph._add_segments`); levels with no end and no enemy skip it."""
        g, b = self.g, self.b
        circles, cr = self.circles, self.cr
        cx, cy = circles[0], circles[1]
        clevel = np.concatenate([g.clevel, self.el])
        near_c = self._in_bound(cx, cy, 2.0 * cr)
        busy = {self.ls, self.lg} | set(self.el[near_c[self.nc:]].tolist())
        for lid, nav in g.navs.items():
            if lid not in busy:
                continue
            cands: list = []
            ens = self._enemy_arrays(lid)
            ci = np.nonzero(near_c & (clevel == lid))[0]
            pts = g.points.get(lid, np.zeros(0, np.int64))
            pi = pts[self._in_bound(g.nx[pts], g.ny[pts])] if len(pts) else pts
            ends = []
            if lid == self.ls:
                ends.append((self.S, self.start, True))
            if lid == self.lg and self.G >= 0:
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
            if len(ends) == 2:
                one = np.ones(1)
                cands.append(self._seg((one * self.start[0], one * self.start[1]), np.array([self.S]),
                                       np.array([-1]), np.zeros(1, np.int64), 0.0,
                                       (one * self.goal[0], one * self.goal[1]), np.array([self.G]), np.array([-1]),
                                       np.zeros(1, np.int64), 0.0, True, ens))
            # enemy corners against everything near
            eci = ci[ci >= self.nc]
            if len(eci):
                self._enemy_wiring(cands, eci, ci, pi, ens)
            _add_segments(b, nav, [c for c in cands if c is not None], circles)

    def _enemy_arrays(self, lid: int):  # type: ignore[no-untyped-def]
        sel = self.el == lid
        return (self.ex[sel], self.ey[sel], self.er[sel])

    def _seg(self, a_xy, a_node, a_circ, a_side, a_r, b_xy, b_node, b_circ, b_side, b_r, out: bool,
             ens):  # type: ignore[no-untyped-def]
        """The candidates A -> B when out, else B -> A (segments into the goal), as `_segments` makes them."""
        if out:
            return _tangents(a_xy, a_node, a_circ, a_side, a_r, b_xy, b_node, b_circ, b_side, b_r, self.circles,
                             False, ens)
        return _tangents(b_xy, b_node, b_circ, -b_side, b_r, a_xy, a_node, a_circ, a_side, a_r, self.circles,
                         False, ens)

    def _enemy_wiring(self, cands: list, eci, ci, pi, ens) -> None:  # type: ignore[no-untyped-def]
        cx, cy = self.circles[0], self.circles[1]
        cr = self.cr
        for e in eci:
            others = ci[ci != e]
            m = len(others)
            mine = _without(ens, cx[e], cy[e])
            for sa in (1, -1):
                for sb in (1, -1):
                    if m:
                        cands.append(_tangents((np.full(m, cx[e]), np.full(m, cy[e])), np.full(m, -1),
                                               np.full(m, e), np.full(m, sa), cr[e], (cx[others], cy[others]),
                                               np.full(m, -1), others, np.full(m, sb), cr[others], self.circles,
                                               True, mine))
            k = len(pi)
            if k:
                for sa in (1, -1):
                    cands.append(_tangents((np.full(k, cx[e]), np.full(k, cy[e])), np.full(k, -1), np.full(k, e),
                                           np.full(k, sa), cr[e], (self.g.nx[pi], self.g.ny[pi]), pi,
                                           np.full(k, -1), np.zeros(k, np.int64), 0.0, self.circles, True, mine))

    def _merge(self) -> None:
        """Query edges and arcs into `extra`; hook new tangent points onto the static arcs of their corner."""
        b, g = self.b, self.g
        qx, qy = b.cat("nx", float), b.cat("ny", float)
        ql, qc = b.cat("nlevel", np.int64), b.cat("ncircle", np.int64)
        qs, qo = b.cat("ns", np.int64), b.cat("noff", float)
        self.qx, self.qy, self.ql, self.qc, self.qs, self.qo = qx, qy, ql, qc, qs, qo
        radius_of = lambda ci: self.cr[ci]  # noqa: E731
        a, c, cost = _arcs(qx, qy, ql, qc, qs, qo, self.circles, radius_of, g.navs, first=self.N)
        b.add_edges(a, c, cost, ARC)
        self._wrap_enemy_arcs(qc, qs, qo)
        self._hooks(qx, qy, ql, qc, qs, qo)
        for fr, to, co, ki in zip(b.cat("efrom", np.int64).tolist(), b.cat("eto", np.int64).tolist(),
                                  b.cat("ecost", float).tolist(), b.cat("ekind", np.int64).tolist()):
            self.extra.setdefault(fr, []).append((to, co, ki))

    def _wrap_enemy_arcs(self, qc, qs, qo) -> None:  # type: ignore[no-untyped-def]
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

    def _edges_clear(self, a, c, circ, side) -> np.ndarray:  # type: ignore[no-untyped-def]
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

    def _node_arrays(self, ids: np.ndarray):  # type: ignore[no-untyped-def]
        """x, y, level and arc offset of node ids (graph nodes below N, query nodes above)."""
        g, N = self.g, self.N
        stat = ids < N
        s, q = ids[stat], ids[~stat] - N
        out = []
        for static, query, dtype in ((g.nx, self.qx, float), (g.ny, self.qy, float), (g.nlevel, self.ql, np.int64),
                                     (g.noff, self.qo, float)):
            col = np.empty(len(ids), dtype)
            col[stat], col[~stat] = static[s], query[q]
            out.append(col)
        return tuple(out)

    def _hooks(self, qx, qy, ql, qc, qs, qo) -> None:  # type: ignore[no-untyped-def]
        chains = self.g.stats["chains"]
        r = self.g.radius
        fr, to, co, owner = [], [], [], []
        for q in np.nonzero((qc >= 0) & (qc < self.nc))[0]:
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
                fr.append(a), to.append(c), co.append(r * (offs[hi] - o)), owner.append(q)
            if lo >= 0:
                a, c = (int(ids[lo]), nid) if fwd else (nid, int(ids[lo]))
                fr.append(a), to.append(c), co.append(r * (o - offs[lo])), owner.append(q)
        if not fr:
            return
        qi = np.asarray(owner)
        keep = np.nonzero(self._edges_clear(np.asarray(fr), np.asarray(to), qc[qi], qs[qi]))[0]
        self.b.add_edges(np.asarray(fr)[keep], np.asarray(to)[keep], np.asarray(co)[keep], ARC)

    # -- search ---------------------------------------------------------------------------------------------
    def node_xy(self, u: int) -> tuple[float, float]:
        if u < self.N:
            return self.g.nx[u], self.g.ny[u]
        return self.qx[u - self.N], self.qy[u - self.N]

    def run(self) -> tuple[dict[int, float], dict[int, tuple[int, int]], int]:
        """A* to the goal (Dijkstra when there is none), within the bound; returns costs, parents, expansions."""
        g = self.g
        indptr, eto, ecost, ekind = g.adj
        gxl, gyl, glv = g.lists
        qxl, qyl, qlv = self.qx.tolist(), self.qy.tolist(), self.ql.tolist()
        N, bound, goal, G = self.N, self.bound + EPS, self.goal, self.G
        by_level, can_climb, extra = self.by_level, self.can_climb, self.extra
        gx, gy = (goal[0], goal[1]) if goal is not None else (0.0, 0.0)
        sx, sy = self.start[0], self.start[1]
        dist = {self.S: 0.0}
        parent: dict[int, tuple[int, int]] = {}
        heap = [(0.0, 0.0, self.S)]
        done = set()
        expanded = 0
        while heap:
            f, d, u = heapq.heappop(heap)
            if u in done:
                continue
            done.add(u)
            expanded += 1
            if u == G:
                break
            if u < N:
                ux, uy, ul = gxl[u], gyl[u], glv[u]
                edges = [(eto[k], ecost[k], ekind[k]) for k in range(indptr[u], indptr[u + 1])]
                if u in extra:
                    edges += extra[u]
            else:
                ux, uy, ul = qxl[u - N], qyl[u - N], qlv[u - N]
                edges = extra.get(u, ())
            ens = by_level.get(ul)
            for v, c, kind in edges:
                if kind == CLIMB and not can_climb:
                    continue
                nd = d + c
                if v < N:
                    vx, vy = gxl[v], gyl[v]
                else:
                    vx, vy = qxl[v - N], qyl[v - N]
                if goal is not None:
                    h = math.hypot(vx - gx, vy - gy)
                    if nd + h > bound:
                        continue
                else:
                    h = 0.0
                    if nd > bound:
                        continue
                if nd >= dist.get(v, math.inf):
                    continue
                if ens and kind <= ARC and (u < N or kind == ARC) and self._blocked(ens, u, kind, ux, uy, vx, vy):
                    continue
                dist[v] = nd
                parent[v] = (u, kind)
                heapq.heappush(heap, (nd + h, nd, v))
        return dist, parent, expanded

    def _blocked(self, ens, u: int, kind: int, ux: float, uy: float, vx: float, vy: float) -> bool:  # type: ignore[no-untyped-def]
        """Lazy GEO-8 check of a graph edge against the enemy bases of its level: a straight edge by its
        segment; an arc by its chord, the enemies grown by the arc's sagitta (arcs round an enemy are exempt)."""
        if kind != ARC:
            return _hits(ens, ux, uy, vx, vy)
        ci = self.node_arc(u)[0]
        if ci >= self.nc:
            return False
        r = float(self.cr[ci])
        half = math.hypot(vx - ux, vy - uy) / 2
        sag = r - math.sqrt(max(0.0, r * r - half * half)) + r * (1 / math.cos(ARC_STEP / 2) - 1)
        return _hits(ens, ux, uy, vx, vy, sag)

    # -- output ---------------------------------------------------------------------------------------------
    def polyline(self, parent: dict[int, tuple[int, int]], end: int) -> list[Point3]:
        chain = [end]
        kinds = []
        while chain[-1] in parent:
            u, k = parent[chain[-1]]
            kinds.append(k)
            chain.append(u)
        chain.reverse()
        kinds.reverse()
        out: list[Point3] = [self.point3(chain[0])]
        for (u, v), k in zip(zip(chain, chain[1:]), kinds):
            if k == ARC:
                out.extend(self.arc_points(u, v))
            out.append(self.point3(v))
        dedup = [out[0]]
        for p in out[1:]:
            if math.hypot(p[0] - dedup[-1][0], p[1] - dedup[-1][1]) > 1e-9 or abs(p[2] - dedup[-1][2]) > 1e-9:
                dedup.append(p)
        return dedup

    def point3(self, u: int) -> Point3:
        if u == self.S:
            return (self.start[0], self.start[1], self.g.navs[self.ls].z if self.bf.pieces else self.start[2])
        if u == self.G and self.goal is not None:
            return (self.goal[0], self.goal[1], self.goal[2])
        x, y = self.node_xy(u)
        lv = self.g.nlevel[u] if u < self.N else self.ql[u - self.N]
        return (float(x), float(y), self.g.navs[int(lv)].z)

    def node_arc(self, u: int) -> tuple[int, int, float]:
        if u < self.N:
            return int(self.g.ncircle[u]), int(self.g.ns[u]), float(self.g.noff[u])
        i = u - self.N
        return int(self.qc[i]), int(self.qs[i]), float(self.qo[i])

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
        return [(float(x), float(y), z) for x, y in zip(xs, ys)]


def _pt(x: float, y: float):  # type: ignore[no-untyped-def]
    from shapely import Point

    return Point(x, y)


def _without(ens, x: float, y: float):  # type: ignore[no-untyped-def]
    ex, ey, er = ens
    keep = (np.abs(ex - x) > 1e-12) | (np.abs(ey - y) > 1e-12)
    return ex[keep], ey[keep], er[keep]


def _hits(ens: list[tuple[float, float, float]], ux: float, uy: float, vx: float, vy: float,
          margin: float = 0.0) -> bool:
    """Does the segment pass within er + margin of an enemy centre? The same arithmetic as
    `geometry.segment_point_distance`, inlined behind a bounding-box reject (the search's hot loop)."""
    dx, dy = vx - ux, vy - uy
    l2 = dx * dx + dy * dy
    lo_x, hi_x = (ux, vx) if ux <= vx else (vx, ux)
    lo_y, hi_y = (uy, vy) if uy <= vy else (vy, uy)
    for ex, ey, er in ens:
        lim = er + margin - EPS
        if ex < lo_x - lim or ex > hi_x + lim or ey < lo_y - lim or ey > hi_y + lim:
            continue
        if l2 == 0.0:
            d = math.hypot(ux - ex, uy - ey)
        else:
            t = max(0.0, min(1.0, ((ex - ux) * dx + (ey - uy) * dy) / l2))
            d = math.hypot(ux + t * dx - ex, uy + t * dy - ey)
        if d < lim:
            return True
    return False


def _enemies(others: Sequence[Base], side: str) -> list[Base]:
    return [o for o in others if o.side != side]


def shortest_path(bf: Battlefield, start: Point3, goal: Point3, *, radius: float, height: float,
                  others: Sequence[Base] = (), side: str = "", budget: float | None = None, can_climb: bool = True,
                  settings: Settings | None = None, verify: bool = True) -> PathResult:
    """GEO-27: the cheapest legal path for a base from `start` to `goal` under the GEO-8 cost (enemy bases are
    obstacles, friends may be passed but not ended on). Optimal within 0.01" where cost is uniform and within
    max(0.1", 1%) through difficult ground. With `budget`, paths costing more are not searched for."""
    s = settings or Settings.defaults()
    start = tuple(float(v) for v in start)  # type: ignore[assignment]
    goal = tuple(float(v) for v in goal)  # type: ignore[assignment]
    end = position_fact(bf, goal[0], goal[1], goal[2], radius=radius, height=height, others=others, settings=s)
    if not end.legal:
        return PathResult(False, math.inf, (start,), reason=f"the goal is not a legal position: {end.reason}")
    if bf.pieces and level_at(bf, goal[0], goal[1], goal[2]) is None:
        return PathResult(False, math.inf, (start,), reason=f"there is no floor at {goal}")
    if math.hypot(goal[0] - start[0], goal[1] - start[1]) <= EPS and abs(goal[2] - start[2]) <= EPS:
        fact = path_cost(bf, start, [goal], radius=radius, height=height, others=others, side=side, settings=s)
        return PathResult(fact.legal, 0.0, (start, goal), fact, fact.reason)
    if not bf.pieces:
        return _open_table(bf, start, goal, radius=radius, height=height, others=others, side=side, budget=budget,
                           can_climb=can_climb, settings=s, verify=verify)
    g = graph(bf, radius, height, settings=s)
    ls = walking_level(bf, start[0], start[1], start[2])
    lg = level_at(bf, goal[0], goal[1], goal[2])
    if ls is None or lg is None or not connected_levels(g, ls.id, lg.id, can_climb=can_climb):
        return PathResult(False, math.inf, (start,), reason="no stairs, ladder or climb joins the two floors")
    enemies = _enemies(others, side)
    # pass 1 without enemy bases: its cost is a lower bound; if its path avoids every enemy it is the answer
    first = _search(g, bf, start, goal, budget, [], can_climb)
    if first is None:
        why = f"no legal path costs {budget:g}\" or less" if budget is not None else "no legal path exists"
        return PathResult(False, math.inf, (start,), reason=why)
    cost, pts, expanded = first
    if enemies and _blocked_by(pts, enemies, radius, height):
        lower = cost
        second = _search(g, bf, start, goal, budget, enemies, can_climb,
                         bound=max(1.25 * lower + 1.0, lower + 4.0) if budget is None else budget)
        if second is None:
            why = f"no legal path costs {budget:g}\" or less" if budget is not None else "no legal path exists"
            return PathResult(False, math.inf, (start,), reason=why + " round the enemy bases")
        cost, pts, expanded = second
    fact = path_cost(bf, start, pts[1:], radius=radius, height=height, others=others, side=side,
                     can_climb=can_climb, settings=s) if verify else None
    ok = fact.legal if fact is not None else True
    return PathResult(ok, cost, tuple(pts), fact, "" if ok else fact.reason, expanded)


def _search(g: NavGraph, bf: Battlefield, start: Point3, goal: Point3, budget: float | None, enemies: list[Base],
            can_climb: bool, *, bound: float | None = None):  # type: ignore[no-untyped-def]
    """A* within a growing ellipse (any path of cost <= bound lies inside it, so the first hit is optimal)."""
    direct = math.hypot(goal[0] - start[0], goal[1] - start[1])
    if bound is None:
        bound = budget if budget is not None else max(1.25 * direct + 1.0, direct + 4.0)
    limit = 8.0 * (bf.width + bf.height)
    while True:
        q = _Query(g, bf, start, goal, bound, enemies, can_climb)
        dist, parent, expanded = q.run()
        if q.G in dist:
            return dist[q.G], q.polyline(parent, q.G), expanded
        if budget is not None or bound >= limit:
            return None
        bound *= 2.0


def _blocked_by(pts: list[Point3], enemies: list[Base], radius: float, height: float) -> bool:
    """Does the polyline pass within r + r_enemy of an enemy base at its level (GEO-8)?"""
    ens = [e for e in enemies if any(vertically_overlap(p[2], height, e.z, e.height) for p in pts)]
    if not ens:
        return False
    arr = np.asarray(pts)
    ok = _clear_of((np.asarray([e.x for e in ens]), np.asarray([e.y for e in ens]),
                    np.asarray([radius + e.radius for e in ens])), arr[:-1, 0], arr[:-1, 1], arr[1:, 0], arr[1:, 1])
    return not bool(ok.all())


def _open_table(bf: Battlefield, start: Point3, goal: Point3, *, radius: float, height: float,
                others: Sequence[Base], side: str, budget: float | None, can_climb: bool, settings: Settings,
                verify: bool) -> PathResult:
    """With no terrain the straight line is shortest unless enemy bases stand in the way: then the graph of
    their discs alone answers."""
    fact = path_cost(bf, start, [goal], radius=radius, height=height, others=others, side=side,
                     can_climb=can_climb, settings=settings)
    if fact.legal and (budget is None or fact.cost <= budget + EPS):
        return PathResult(True, fact.cost, fact.points, fact)
    if fact.legal:
        return PathResult(False, math.inf, (start,), reason=f"no legal path costs {budget:g}\" or less")
    g = graph(bf, radius, height, settings=settings)
    direct = math.hypot(goal[0] - start[0], goal[1] - start[1])
    bound = budget if budget is not None else direct + 4.0 * radius + 8.0
    q = _Query(g, bf, start, goal, bound, _enemies(others, side), can_climb)
    dist, parent, expanded = q.run()
    if q.G not in dist:
        return PathResult(False, math.inf, (start,), reason="no legal path round the bases in the way",
                          expanded=expanded)
    pts = q.polyline(parent, q.G)
    f2 = path_cost(bf, start, pts[1:], radius=radius, height=height, others=others, side=side, can_climb=can_climb,
                   settings=settings) if verify else None
    ok = f2.legal if f2 is not None else True
    return PathResult(ok, dist[q.G], tuple(pts), f2, "" if ok else f2.reason, expanded)
