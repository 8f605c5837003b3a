"""The cached navigation graph: a tangent visibility graph per level, joined by stairs, ladders and climbs (GEO-27)."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np
import shapely

from game.core.battlefield import Battlefield
from game.core.geometry.arrays import Floats, Ints
from game.core.geometry.movement.free_space import TAU, LevelNav, free_points, level_nav
from game.core.geometry.movement.links import climb_links, connector_links, difficult_samples, over_links
from game.core.geometry.movement.tangents import (
    ARC,
    CLIMB,
    CONNECTOR,
    Circles,
    GraphBuilder,
    add_tangent_segments,
    arc_edges,
)
from game.core.geometry.terrain import GROUND, level_at, levels
from game.core.settings import Settings

CACHE = "navgraph"


class Adjacency(NamedTuple):
    """The edges of every node as Python lists (the search loop reads them): node u owns `indptr[u]:indptr[u+1]`."""

    indptr: list[int]
    to: list[int]
    cost: list[float]
    kind: list[int]  # STRAIGHT, ARC, CONNECTOR or CLIMB (game.core.geometry.movement.tangents)


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
    cx: Floats
    cy: Floats
    c0: Floats  # start angle of the free span
    cw: Floats  # width of the free span
    clevel: Ints
    # nodes
    nx: Floats
    ny: Floats
    nlevel: Ints
    ncircle: Ints  # -1 for point nodes
    ns: Ints  # +1 / -1 turning side on circles, 0 on points
    noff: Floats  # angle offset in the circle's span
    adj: Adjacency
    points: dict[int, Ints]  # per level: indices of point nodes
    chains: dict[int, tuple[Floats, Ints]]  # per corner*2 + (side > 0): its tangent points' offsets and ids
    level_links: list[tuple[int, int, bool]]  # (level, level, climb) of every stair, ladder and climb
    node_lists: tuple[list[float], list[float], list[int]]  # (x, y, level) of every node, for the search loop
    build_ms: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)
    _edges: list[list[tuple[int, float, int]]] | None = field(default=None, repr=False)

    def edge_lists(self) -> list[list[tuple[int, float, int]]]:
        """Per node, its edges (head, GEO-8 cost, kind) in `adj` order, as the search loop reads them: built on
        the first search and kept (the graph never changes); callers must not change the lists."""
        if self._edges is None:
            indptr, to, cost, kind = self.adj
            self._edges = [list(zip(to[indptr[u]:indptr[u + 1]], cost[indptr[u]:indptr[u + 1]],
                                    kind[indptr[u]:indptr[u + 1]], strict=True)) for u in range(len(indptr) - 1)]
        return self._edges

    @property
    def circles(self) -> Circles:
        """The corner circles as (centre x, centre y, free span start, span width)."""
        return (self.cx, self.cy, self.c0, self.cw)


def _corners(geom: shapely.Geometry, blocker: bool) -> list[tuple[float, float, float, float]]:
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


def _pairs(n: int) -> tuple[Ints, Ints]:
    i, j = np.triu_indices(n, k=1)
    return i, j


def graph(bf: Battlefield, radius: float, height: float, *, settings: Settings | None = None) -> NavGraph:
    """The NavGraph for this battlefield, base radius and model height, built once and kept in `Battlefield.cache`."""
    s = settings or Settings.defaults()
    costs = (float(s["move.difficult_mult"]), float(s["move.low_obstacle_extra"]))
    key = (CACHE, round(radius, 6), round(height, 6), *costs)
    hit: NavGraph | None = bf.cache.get(key)
    if hit is None:
        shared_key = (CACHE, "blocking", round(radius, 6), height_class(bf, height), *costs)
        base: NavGraph | None = bf.cache.get(shared_key)
        if base is None:
            hit = build(bf, radius, height, settings=s)
            bf.cache[shared_key] = hit
        else:
            hit = replace(base, height=height, build_ms=0.0, stats=base.stats | {"shared": 1})
        bf.cache[key] = hit
    return hit


def height_class(bf: Battlefield, height: float) -> tuple[tuple[int, ...], ...]:
    """What a model's height changes in its NavGraph: the pieces impassable to it (GEO-7) at every floor height
    and every stair or ladder end. Building the graph reads the height only through `terrain.pieces_at` (free
    space, links and their `path_cost` / `position_fact` checks), `pieces_at` reads it only through
    `TerrainPiece.impassable_at`, and the build asks `pieces_at` only at those heights (links start and end on
    floors and at stair or ladder ends). So two heights of one class have the same graph: it is built once and
    shared, only `NavGraph.height` differs (queries read it against other bases' heights).
    tests/core/test_navgraph_sharing.py compares every shared graph with its separate build."""
    zs = {round(lv.z, 6) for lv in levels(bf)}
    for c in bf.connectors:
        zs |= {round(c.start[2], 6), round(c.end[2], 6)}
    return tuple(tuple(i for i, p in enumerate(bf.pieces) if p.impassable_at(z, height)) for z in sorted(zs))


def clear_cache(bf: Battlefield) -> None:
    """Forget every NavGraph of this battlefield (benchmarks time the build this way)."""
    for k in [k for k in bf.cache if isinstance(k, tuple) and k and k[0] == CACHE]:
        del bf.cache[k]


def build(bf: Battlefield, radius: float, height: float, *, settings: Settings | None = None) -> NavGraph:
    """Build the visibility graph of every level for a base of this radius and height (GEO-27)."""
    t0 = time.perf_counter()
    s = settings or Settings.defaults()
    mult = float(s["move.difficult_mult"])
    navs: dict[int, LevelNav] = {}
    circ: list[tuple[float, float, float, float, int]] = []
    pts: list[tuple[float, float, int, float]] = []
    for lv in levels(bf):
        nav = level_nav(bf, lv, radius, height, mult)
        navs[lv.id] = nav
        if nav.blocker_parts:
            corners = _corners(shapely.GeometryCollection(list(nav.blocker_parts)), True)
            circ.extend((x, y, a, w, lv.id) for x, y, a, w in corners)
        if lv.support is not None:
            pts.extend((x, y, lv.id, math.inf) for x, y, _, _ in _corners(lv.support, False))
        if nav.difficult is not None:
            pts.extend((x, y, lv.id, math.inf) for x, y in difficult_samples(nav.difficult))
    # keep only corner and boundary points where a base may stand
    kept: list[tuple[float, float, int, float]] = []
    for lid in navs:
        mine = [p for p in pts if p[2] == lid]
        if mine:
            arr = np.asarray([(p[0], p[1]) for p in mine])
            ok = free_points(navs[lid], arr[:, 0], arr[:, 1])
            kept.extend(p for p, k in zip(mine, ok, strict=True) if k)
    pts = kept
    links = connector_links(bf, radius, height, s) + climb_links(bf, radius, height, s) + \
        over_links(bf, radius, height, s)
    link_ends = []
    for ln in links:
        for p in (ln.a, ln.b):
            end_level = level_at(bf, p[0], p[1], p[2])
            link_ends.append(len(pts))
            pts.append((p[0], p[1], end_level.id if end_level is not None else GROUND, ln.reach))
    b = GraphBuilder()
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
        b.add_edges([a, c], [c, a], [ln.cost, ln.cost], CLIMB if ln.climb else CONNECTOR)
        level_links.append((int(plevel[link_ends[2 * k]]), int(plevel[link_ends[2 * k + 1]]), ln.climb))
    g = _finish(b, navs, circles, clevel, radius, height, pid, plevel, level_links)
    g.build_ms = (time.perf_counter() - t0) * 1000.0
    g.stats |= {"circles": len(C), "points": len(P), "nodes": len(g.nx), "edges": len(g.adj.to),
                "links": len(links), "levels": len(navs)}
    return g


def _wire_level(b: GraphBuilder, nav: LevelNav, circles: Circles, ci: Ints, pi: Ints, P: Floats, pid: Ints,
                preach: Floats, radius: float) -> None:
    """Every free tangent segment of one level: corner to corner, point to corner, point to point."""
    cx, cy = circles[0], circles[1]
    n = len(ci)
    if n > 1:
        i, j = _pairs(n)
        a, c = ci[i], ci[j]
        for sa in (1, -1):
            for sb in (1, -1):
                m = len(a)
                add_tangent_segments(b, nav, (cx[a], cy[a]), np.full(m, -1), a, np.full(m, sa), radius,
                                     (cx[c], cy[c]), np.full(m, -1), c, np.full(m, sb), radius, circles)
    if len(pi) and n:
        pp, cc = np.repeat(pi, n), np.tile(ci, len(pi))
        near = np.hypot(P[pp, 0] - cx[cc], P[pp, 1] - cy[cc]) <= preach[pp] + radius
        pp, cc = pp[near], cc[near]
        m = len(pp)
        for sb in (1, -1):
            add_tangent_segments(b, nav, (P[pp, 0], P[pp, 1]), pid[pp], np.full(m, -1), np.zeros(m, np.int64), 0.0,
                                 (cx[cc], cy[cc]), np.full(m, -1), cc, np.full(m, sb), radius, circles)
    if len(pi) > 1:
        i, j = _pairs(len(pi))
        a, c = pi[i], pi[j]
        near = np.hypot(P[a, 0] - P[c, 0], P[a, 1] - P[c, 1]) <= np.minimum(preach[a], preach[c])
        a, c = a[near], c[near]
        m = len(a)
        zero = np.zeros(m, np.int64)
        add_tangent_segments(b, nav, (P[a, 0], P[a, 1]), pid[a], np.full(m, -1), zero, 0.0,
                             (P[c, 0], P[c, 1]), pid[c], np.full(m, -1), zero, 0.0, circles)


def _finish(b: GraphBuilder, navs: dict[int, LevelNav], circles: Circles, clevel: Ints, radius: float,
            height: float, pid: Ints, plevel: Ints, level_links: list[tuple[int, int, bool]]) -> NavGraph:
    """The arcs round every corner, then the graph with its edges sorted by tail node."""
    nx, ny = b.cat("nx", float), b.cat("ny", float)
    nlevel, ncircle = b.cat("nlevel", np.int64), b.cat("ncircle", np.int64)
    ns, noff = b.cat("ns", np.int64), b.cat("noff", float)
    a, c, cost = arc_edges(nx, ny, nlevel, ncircle, ns, noff, circles, lambda ci: np.full(len(ci), radius), navs)
    b.add_edges(a, c, cost, ARC)
    efrom, eto = b.cat("efrom", np.int64), b.cat("eto", np.int64)
    ecost, ekind = b.cat("ecost", float), b.cat("ekind", np.int64)
    order = np.argsort(efrom, kind="stable")
    efrom, eto, ecost, ekind = efrom[order], eto[order], ecost[order], ekind[order]
    indptr = np.searchsorted(efrom, np.arange(len(nx) + 1))
    adj = Adjacency(indptr.tolist(), eto.tolist(), ecost.tolist(), ekind.tolist())
    points = {lid: pid[plevel == lid] for lid in navs}
    chains = _chains(ncircle, ns, noff)
    return NavGraph(radius, height, navs, circles[0], circles[1], circles[2], circles[3], clevel, nx, ny, nlevel,
                    ncircle, ns, noff, adj, points, chains, level_links, (nx.tolist(), ny.tolist(), nlevel.tolist()))


def _chains(ncircle: Ints, ns: Ints, noff: Floats) -> dict[int, tuple[Floats, Ints]]:
    """Per (corner, side): the tangent points sorted by angle, to hook query points onto arcs."""
    on = np.nonzero(ncircle >= 0)[0]
    order = on[np.lexsort((noff[on], ns[on], ncircle[on]))]
    keys = ncircle[order] * 2 + (ns[order] > 0)
    out: dict[int, tuple[Floats, Ints]] = {}
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
    links = g.level_links
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
