"""Replaying a cost field's path to an end over the nodes the query for that end alone would hold (GEO-8, GEO-27).

A field with enemy bases joins them to every corner within its bound; the query for one end joins them only to
the corners and points near its ellipse, so round an enemy base its arcs run between fewer nodes. The field's
path is replayed over that query's nodes (arcs across dropped nodes merged and tested again), and refused where
that query could hold a different path: a node it lacks at a turn, its own tangent point inside an arc, an edge
of equal or lower cost A* toward that end would settle first.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import shapely

from game.core.battlefield import Point3
from game.core.geometry.movement.field import (
    CSR_CACHE,
    CostField,
    Goals,
    arc_blocked,
    enemies_at,
    enemy_list,
    extend_path,
    hits,
    pop_key,
    present,
    query_nodes,
    static_arrays,
)
from game.core.geometry.movement.free_space import TAU, LevelNav
from game.core.geometry.movement.tangents import ARC, CLIMB, clear_of_enemies, tangent_candidates


def replay(f: CostField, nav: LevelNav, chain: list[int], goals: Goals,
            e: int) -> tuple[float, list[Point3] | None] | None:
    """The field's path to a tail as the query for end e alone holds it, or None where that query could differ.

    That query lacks the field's query nodes whose straight edge leads to a corner or point it does not join;
    round an enemy base (its arcs only run between query nodes) such nodes inside the path's arcs drop out and
    the arcs across them merge (`arc_edges` between the nodes left, tested again). The path must not turn round a
    corner across the angle of the end's own tangent point there (that query splits the arc), and every node on it
    must be settled from the same node by A* toward the end as by the field (`_settled_alike`). Returns the cost
    to the tail summed edge by edge as the search sums it, and the path when it changed (None: the field's own)."""
    q = f.query
    table = query_nodes(f)
    keep = [True] * len(chain)
    for i, u in enumerate(chain):
        if u < q.N or u == q.S or q.qc[u - q.N] < 0:
            continue
        ci = int(q.qc[u - q.N])
        qn = table[ci * 2 + (int(q.qs[u - q.N]) > 0)]
        j = int(np.nonzero(qn.nodes == u)[0][0])
        if goals.near_c[e, ci] and present(f, goals, e, qn)[j]:
            continue
        inner = ci >= q.nc and 0 < i < len(chain) - 1 and f.pkind[u] == ARC and f.pkind[chain[i + 1]] == ARC \
            and chain[i - 1] >= q.N and chain[i + 1] >= q.N
        if not inner:
            return None
        keep[i] = False
    nodes = [u for u, k in zip(chain, keep, strict=True) if k]
    if _crosses_goal_tangent(f, nav, nodes, goals, e):
        return None
    at = {u: i for i, u in enumerate(chain)}
    d = [0.0]
    for a, b in zip(nodes, nodes[1:], strict=False):
        c = _merged_arc(f, nav, a, b) if at[b] - at[a] > 1 else _edge_cost(f, a, b)
        if c is None:
            return None
        d.append(d[-1] + c)
    if not _settled_alike(f, nodes, d, goals, e):
        return None
    if all(keep):
        return d[-1], None
    q_pts: list[Point3] = [q.point3(nodes[0])]
    for a, b in zip(nodes, nodes[1:], strict=False):
        more = q.arc_points(a, b) if at[b] - at[a] > 1 or f.pkind[b] == ARC else []
        extend_path(q_pts, [*more, q.point3(b)])
    return d[-1], q_pts


def _edge_cost(f: CostField, a: int, b: int) -> float:
    """The cost of the edge a -> b the field's search reached b by (of its kind, the one that gave b its cost)."""
    q, g = f.query, f.query.g
    kind = int(f.pkind[b])
    costs: list[float] = []
    if a < q.N:
        indptr, to, cost, kinds = g.adj
        costs += [cost[k] for k in range(indptr[a], indptr[a + 1]) if to[k] == b and kinds[k] == kind]
    costs += [c for v, c, k in q.extra.get(a, ()) if v == b and k == kind]
    exact = [c for c in costs if float(f.dist[a]) + c == float(f.dist[b])]
    return float((exact or sorted(costs))[0])


def _merged_arc(f: CostField, nav: LevelNav, a: int, b: int) -> float | None:
    """The query arc a -> b round an enemy base once the query nodes between are gone: `arc_edges`'s cost and
    test, or across angle 0 `_wrap_enemy_arcs`'s; None when illegal."""
    q = f.query
    ci, side, oa = q.node_arc(a)
    ob = q.node_arc(b)[2]
    nav = q.g.navs[q.circle_level(ci)]
    r = float(q.cr[ci])
    cx, cy, c0 = float(q.circles[0][ci]), float(q.circles[1][ci]), float(q.circles[2][ci])
    if (side > 0 and ob < oa) or (side < 0 and ob > oa):  # across angle 0
        cost = r * (ob + TAU - oa) if side > 0 else r * (oa + TAU - ob)
        delta = ob - oa + (TAU if side > 0 else -TAU)
        tail = (a, oa)
    else:
        lo, hi = (oa, ob) if oa <= ob else (ob, oa)
        cost = r * (hi - lo)
        mid = c0 + (lo + hi) / 2
        if nav.difficult is not None and shapely.contains_xy(nav.difficult, cx + r * math.cos(mid),
                                                             cy + r * math.sin(mid)):
            cost *= nav.mult
        delta = ob - oa
        tail = (a, oa)
    ax, ay = q.node_xy(tail[0])
    bx, by = q.node_xy(b)
    ok = bool(nav.valid_arcs(np.asarray([ax]), np.asarray([ay]), np.asarray([bx]), np.asarray([by]),
                             np.asarray([cx]), np.asarray([cy]), np.asarray([r]), np.asarray([c0 + tail[1]]),
                             np.asarray([delta]))[0])
    return float(cost) if ok or abs(delta) < 1e-9 else None


def _settled_alike(f: CostField, nodes: list[int], d: list[float], goals: Goals, e: int) -> bool:
    """Would A* toward end e settle every node of this path (costs `d`) from the node before it, as the field did?
    Round enemy bases one node is often reached at exactly the same cost by two edges: Dijkstra keeps the first it
    settles in cost order, A* the first in (cost + distance to the goal) order; and where the path was replayed
    (`replay`) another edge may now be cheaper. False where they could differ."""
    q = f.query
    gx, gy = float(goals.px[e]), float(goals.py[e])
    dist = f.dist
    table = query_nodes(f)
    into = _incoming(f)
    for (u, v), dv in zip(zip(nodes, nodes[1:], strict=False), d[1:], strict=True):
        if _merged_rival(f, goals, e, u, v, dv):
            return False
        for w, c, kind in into(v):
            if w == u or not math.isfinite(dist[w]) or float(dist[w]) + c > dv or (kind == CLIMB and not f.can_climb):
                continue
            if _lazy_blocked(f, w, v, kind):
                continue
            if w >= q.N and q.qc[w - q.N] >= 0:
                ci = int(q.qc[w - q.N])
                qn = table[ci * 2 + (int(q.qs[w - q.N]) > 0)]
                if not (goals.near_c[e, ci] and present(f, goals, e, qn)[int(np.nonzero(qn.nodes == w)[0][0])]):
                    continue  # not in that query
            if float(dist[w]) + c < dv or pop_key(f, w, gx, gy)[:2] <= pop_key(f, u, gx, gy)[:2]:
                return False
    return True


def _merged_rival(f: CostField, goals: Goals, e: int, u: int, v: int, dv: float) -> bool:
    """Could the query for end e reach query node v as cheaply by a query arc the field lacks? Where the field
    holds query nodes that query does not (their straight edges lead beyond its ellipse), that query's arc from
    the node before v skips them."""
    q = f.query
    if v < q.N or v == q.S or q.qc[v - q.N] < 0:
        return False
    ci, side = int(q.qc[v - q.N]), int(q.qs[v - q.N])
    qn = query_nodes(f)[ci * 2 + (side > 0)]
    here = present(f, goals, e, qn)
    j = int(np.nonzero(qn.nodes == v)[0][0])
    n = len(qn.nodes)
    full = ci >= q.nc
    step = -1 if side > 0 else 1  # the node before v in its turning direction
    k0 = j + step
    if not full and not 0 <= k0 < n:
        return False
    k = k0
    while True:
        if not full and not 0 <= k < n:
            return False
        kk = k % n
        if kk == j:
            return False
        if here[kk]:
            break
        k += step
    w = int(qn.nodes[kk])
    if kk == k0 % n or w == u or not math.isfinite(f.dist[w]):
        return False  # the same node before it as in the field, or the path's own
    ang = (float(qn.offsets[j]) - float(qn.offsets[kk])) * (1 if side > 0 else -1) % TAU
    return float(f.dist[w]) + float(q.cr[ci]) * ang <= dv + 1e-12


def _incoming(f: CostField) -> Callable[[int], list[tuple[int, float, int]]]:
    """The edges into a node (tail, cost, kind): the graph's, from a reversed adjacency kept beside it, and the
    query's own."""
    q, g = f.query, f.query.g
    key = (CSR_CACHE, "in", round(g.radius, 6), round(g.height, 6))
    hit = q.bf.cache.get(key)
    if hit is None or hit[0] is not g:
        sptr, sto, scost, skind = static_arrays(q.bf, g)
        tails = np.repeat(np.arange(len(sptr) - 1), np.diff(sptr))
        order = np.argsort(sto, kind="stable")
        rptr = np.searchsorted(sto[order], np.arange(len(sptr))).tolist()
        hit = (g, (rptr, tails[order].tolist(), scost[order].tolist(), skind[order].tolist()))
        q.bf.cache[key] = hit
    rptr, rfrom, rcost, rkind = hit[1]
    n_static = len(rptr) - 1
    if f.incoming is None:
        mine: dict[int, list[tuple[int, float, int]]] = {}
        for u, edges in q.extra.items():
            for v, c, kd in edges:
                mine.setdefault(v, []).append((u, c, kd))
        f.incoming = mine
    own = f.incoming

    def into(v: int) -> list[tuple[int, float, int]]:
        mine = own.get(v, [])
        if v >= n_static:
            return mine
        lo, hi = rptr[v], rptr[v + 1]
        return list(zip(rfrom[lo:hi], rcost[lo:hi], rkind[lo:hi], strict=True)) + mine

    return into


def _lazy_blocked(f: CostField, u: int, v: int, kind: int) -> bool:
    """`search.search`'s lazy check of edge u -> v against the enemy bases of u's level."""
    q = f.query
    if kind > ARC or not (u < q.N or kind == ARC):
        return False
    lv = int(q.g.nlevel[u]) if u < q.N else int(q.ql[u - q.N])
    ens = enemy_list(enemies_at(q, lv))
    if not ens:
        return False
    ux, uy = q.node_xy(u)
    vx, vy = q.node_xy(v)
    if kind != ARC:
        return hits(ens, float(ux), float(uy), float(vx), float(vy))
    return arc_blocked(q, ens, q.node_arc(u)[0], float(ux), float(uy), float(vx), float(vy))


def _crosses_goal_tangent(f: CostField, nav: LevelNav, nodes: list[int], goals: Goals, e: int) -> bool:
    """Does the path turn round a corner across the angle of the end's own tangent point there (with a legal leg
    into the end)? That end's query would split the arc there, a path the field does not hold."""
    q = f.query
    for a, b in zip(nodes, nodes[1:], strict=False):
        if a < q.N or b < q.N or a == q.S or b == q.S:
            continue
        ci, side, oa = q.node_arc(a)
        cj, _, ob = q.node_arc(b)
        if ci < 0 or ci != cj or q.circle_level(ci) != nav.level.id:
            continue  # the end's tangent points lie on its own level's corners only
        cand = tangent_candidates((np.asarray([q.circles[0][ci]]), np.asarray([q.circles[1][ci]])),
                                  np.full(1, -1), np.asarray([ci]), np.asarray([side]), q.cr[[ci]],
                                  (goals.px[[e]], goals.py[[e]]), np.full(1, -1), np.full(1, -1),
                                  np.zeros(1, np.int64), 0.0, q.circles, False, None)
        if cand is None:
            continue
        ot = float((math.atan2(cand.tay[0] - q.circles[1][ci], cand.tax[0] - q.circles[0][ci])
                    - q.circles[2][ci]) % TAU)
        span = (ob - oa) % TAU if side > 0 else (oa - ob) % TAU
        into = (ot - oa) % TAU if side > 0 else (oa - ot) % TAU
        if 0.0 < into < span + 1e-12:
            leg_ok = nav.valid(cand.tax, cand.tay, goals.px[[e]], goals.py[[e]])[0]
            ens = enemies_at(q, int(q.circle_level(ci)))
            if leg_ok and len(ens[0]):
                leg_ok = bool(clear_of_enemies(ens, cand.tax, cand.tay, goals.px[[e]], goals.py[[e]])[0])
            if leg_ok:
                return True
    return False
