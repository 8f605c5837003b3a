"""A* to a goal and Dijkstra's one-to-all costs on a path query, enemy bases checked lazily per edge (GEO-8, GEO-27)."""
from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from typing import NamedTuple

from game.core.geometry.movement.free_space import ARC_STEP
from game.core.geometry.movement.query import Edge, PathQuery
from game.core.geometry.movement.tangents import ARC, CLIMB
from game.core.tolerance import EPS


class SearchResult(NamedTuple):
    """What a search settled: the GEO-8 cost and the parent (node, edge kind) of every node, and how many
    nodes it expanded."""

    costs: dict[int, float]
    parents: dict[int, tuple[int, int]]
    expanded: int


def search(q: PathQuery) -> SearchResult:
    """A* to the query's goal (Dijkstra's one-to-all costs when it has none), within its bound (GEO-27)."""
    g = q.g
    own_edges = g.edge_lists()
    gxl, gyl, glv = g.node_lists
    qxl, qyl, qlv = q.qx.tolist(), q.qy.tolist(), q.ql.tolist()
    N, bound, goal, G = q.N, q.bound + EPS, q.goal, q.G
    by_level, can_climb, extra = q.by_level, q.can_climb, q.extra
    gx, gy = (goal[0], goal[1]) if goal is not None else (0.0, 0.0)
    dist = {q.S: 0.0}
    parent: dict[int, tuple[int, int]] = {}
    heap = [(0.0, 0.0, q.S)]
    done = set()
    expanded = 0
    edges: Sequence[Edge]
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
            edges = own_edges[u]
            if u in extra:
                edges = edges + extra[u]  # a new list: the graph's own stays as it is
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
            if ens and kind <= ARC and (u < N or kind == ARC) and _blocked(q, ens, u, kind, ux, uy, vx, vy):
                continue
            dist[v] = nd
            parent[v] = (u, kind)
            heapq.heappush(heap, (nd + h, nd, v))
    return SearchResult(dist, parent, expanded)


def _blocked(q: PathQuery, ens: list[tuple[float, float, float]], u: int, kind: int, ux: float, uy: float,
             vx: float, vy: float) -> bool:
    """Lazy GEO-8 check of a graph edge against the enemy bases of its level: a straight edge by its
    segment; an arc by its chord, the enemies grown by the arc's sagitta (arcs round an enemy are exempt)."""
    if kind != ARC:
        return _hits(ens, ux, uy, vx, vy)
    ci = q.node_arc(u)[0]
    if ci >= q.nc:
        return False
    r = float(q.cr[ci])
    half = math.hypot(vx - ux, vy - uy) / 2
    sag = r - math.sqrt(max(0.0, r * r - half * half)) + r * (1 / math.cos(ARC_STEP / 2) - 1)
    return _hits(ens, ux, uy, vx, vy, sag)


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
