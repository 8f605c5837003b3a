"""The cheapest paths from a cost field's source to many end points at once, as `shortest_path` finds them one by
one (GEO-8, GEO-27).

An end is reached as the query for that goal alone would reach it: straight from the source, from a graph point
node, or from the end's own tangent point on a corner, itself reached by an arc from its neighbour on the
corner's chain (the hook `PathQuery` adds) or from the query node before it there (the source's tangent point,
or one an enemy base's tangents left). Ways in are tried cheapest lower bound first, in rounds, until none left
can beat an end's best; the segments and arcs are built and tested by the functions the query uses
(`tangent_candidates`, `LevelNav.valid`, `valid_arcs`, `costs`, `clear_of_enemies`), and exact ties go the way
A* toward that end would break them. Round enemy bases the path is replayed over that query's own nodes
(`movement.replay`); where the field cannot be sure of the answer (`Arrival.sure`), the caller asks
`shortest_path`.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from game.core.battlefield import Point3
from game.core.geometry.arrays import Bools, Floats, Ints
from game.core.geometry.movement.field import (
    CostField,
    Goals,
    arc_blocked,
    arc_polylines,
    chain_of,
    enemies_at,
    enemy_list,
    extend_path,
    hits,
    node_table,
    pop_key,
    present,
    query_nodes,
)
from game.core.geometry.movement.free_space import TAU, LevelNav
from game.core.geometry.movement.graph import NavGraph, connected_levels
from game.core.geometry.movement.replay import replay
from game.core.geometry.movement.tangents import Enemies, clear_of_enemies, tangent_candidates
from game.core.geometry.terrain import GROUND, Z_TOL, level_at
from game.core.tolerance import EPS

DIRECT, POINT, HOOK, QUERY_ARC, CORNER = 0, 1, 2, 3, 4  # how the last stretch into an end starts
TIE = 1e-12  # ways whose lower bound is this close to the best are still tried (exact ties: the earlier settled)


@dataclass(frozen=True, slots=True)
class Arrival:
    """The cheapest path from the field's source to one end point: its GEO-8 cost and its points (start first, arcs
    as circumscribed polylines). Not `sure`: the query for this end alone may hold a path the field does not (it
    passes one of the end's own tangent points whose leg crosses difficult ground, or arcs round an enemy base
    whose nodes differ); ask `shortest_path` for that end."""

    cost: float
    end: Point3
    path: tuple[Point3, ...]
    sure: bool = True


@dataclass(slots=True)
class _Ways:
    """Ways into the end points of one level not yet ruled out, one row each: the end, a lower bound on the cost,
    and either a point node (`via` POINT, `tail`) or the end's tangent point on a corner (`via` HOOK) with the
    hook arc's chain neighbour and cost and the query node whose query arc could also lead there."""

    end: Ints
    lb: Floats
    via: Ints
    tail: Ints
    tx: Floats
    ty: Floats
    circle: Ints
    side: Ints
    offset: Floats
    hook: Ints
    hook_cost: Floats
    qnode: Ints
    qwrap: Bools  # the query arc runs across angle 0 (round an enemy base)

    def take(self, sel: Ints) -> _Ways:
        return _Ways(*(getattr(self, name)[sel] for name in _WAY_COLUMNS))

    def __len__(self) -> int:
        return len(self.end)


_WAY_COLUMNS = ("end", "lb", "via", "tail", "tx", "ty", "circle", "side", "offset", "hook", "hook_cost", "qnode",
                "qwrap")


def _cat(parts: list[_Ways]) -> _Ways:
    return _Ways(*(np.concatenate([getattr(p, name) for p in parts]) for name in _WAY_COLUMNS))


@dataclass(slots=True)
class _Best:
    """The best way into one end so far: its cost, its A* settling key (for exact ties) and how it runs."""

    value: float
    key: tuple[float, float, int]
    via: int
    tail: int
    arc: float = 0.0  # cost of the arc into the tangent point
    leg: float = 0.0  # cost of the straight leg into the end
    tx: float = 0.0
    ty: float = 0.0
    circle: int = -1
    side: int = 0
    offset: float = 0.0
    bent: bool = False  # a path on past one of the end's tangent points (legs over difficult ground) may beat it


def arrivals(f: CostField, ends: Sequence[Point3], *, paths: bool = True,
             floors: Sequence[int | None] | None = None) -> list[Arrival | None]:
    """The cheapest path to each end point within the field's bound, as `shortest_path` from the field's source
    to that point alone finds it (None: no path within the bound, no floor there, or no stairs, ladder or climb
    between the floors). End points at the source itself are the caller's to answer; `floors`: the ends' levels
    (`terrain.level_at` ids), if already known. Without `paths` only the
    costs are wanted: each arrival's path is just its ends, and round enemy bases its cost is the field's (the
    end's own query may sum the same arcs in other pieces: within float rounding)."""
    out: list[Arrival | None] = [None] * len(ends)
    if f.level is None or not ends:
        return out
    g, bf = f.query.g, f.query.bf
    groups: dict[int, list[int]] = {}
    joined: dict[int, bool] = {}
    for i, e in enumerate(ends):
        x, y, z = float(e[0]), float(e[1]), float(e[2])
        if not bf.pieces:
            lid: int | None = 0
        elif floors is not None:
            lid = floors[i]
        elif abs(z) <= Z_TOL:
            lid = GROUND
        else:
            lv = level_at(bf, x, y, z)
            lid = lv.id if lv is not None else None
        if lid is None:
            continue
        if lid not in joined:
            joined[lid] = connected_levels(g, f.level, lid, can_climb=f.can_climb)
        if joined[lid]:
            groups.setdefault(lid, []).append(i)
    for lid, idx in groups.items():
        pts = [(float(ends[i][0]), float(ends[i][1]), float(ends[i][2])) for i in idx]
        for i, a in zip(idx, _level_arrivals(f, g.navs[lid], lid, pts, paths), strict=True):
            out[i] = a
    return out


def _level_arrivals(f: CostField, nav: LevelNav, lid: int, ends: list[Point3],
                    paths: bool) -> list[Arrival | None]:
    """Arrivals at end points on one level (see `arrivals`): the straight leg from the source first, then the other
    ways in, cheapest lower bound first, in rounds, until no way left can beat an end's best."""
    q = f.query
    lim = f.bound + EPS
    m = len(ends)
    ex = np.asarray([e[0] for e in ends])
    ey = np.asarray([e[1] for e in ends])
    sx, sy = q.start[0], q.start[1]
    ens = enemies_at(q, lid)
    best = np.full(m, math.inf)
    rec: list[_Best | None] = [None] * m
    if lid == f.level:  # the straight leg from the source (the query's S -> G candidate)
        sel = np.nonzero(np.hypot(ex - sx, ey - sy) > 1e-9)[0]
        if len(sel):
            x0, y0 = np.full(len(sel), sx), np.full(len(sel), sy)
            valid = nav.valid(x0, y0, ex[sel], ey[sel])
            if len(ens[0]) and valid.any():
                valid[valid] &= clear_of_enemies(ens, x0[valid], y0[valid], ex[sel][valid], ey[sel][valid])
            keep = sel[valid]
            if len(keep):
                cost = nav.costs(np.full(len(keep), sx), np.full(len(keep), sy), ex[keep], ey[keep])
                for k, c in zip(keep.tolist(), cost.tolist(), strict=True):
                    v = 0.0 + c
                    if v <= lim:
                        best[k] = v
                        rec[k] = _Best(v, (0.0, 0.0, -1), DIRECT, q.S, leg=c)  # the source is settled first
    goals = _goals(f, lid, ex, ey)
    parts = [w for w in (_point_ways(f, lid, ex, ey, best, lim), _corner_ways(f, lid, goals, best, lim))
             if w is not None and len(w)]
    if parts:
        _rounds(f, nav, _cat(parts), goals, ens, best, rec, lim)
    if not paths:
        return [Arrival(r.value, ends[k], (q.start, ends[k]), not r.bent) if r is not None else None
                for k, r in enumerate(rec)]
    return _finish(f, nav, lid, ends, rec, goals)


def _live_corners(f: CostField, lid: int) -> Ints:
    """The level's corners (and enemy bases) with a reached node on either turning side: the only ones a way into
    an end can turn round."""
    q = f.query
    reached = _reached_chains(f)
    ci = np.nonzero(np.concatenate([q.g.clevel, q.el]) == lid)[0]
    return ci[np.isfinite(reached[ci * 2]) | np.isfinite(reached[ci * 2 + 1])]


def _goals(f: CostField, lid: int, ex: Floats, ey: Floats) -> Goals:
    """Per end, the corners its own query would join (`PathQuery._in_bound` with the corners' 2 r slack): those a
    way can turn round, and with enemy bases in the field every corner (their query nodes depend on far ones)."""
    q = f.query
    cx, cy = q.circles[0], q.circles[1]
    cols = np.arange(len(cx)) if f.enemies else _live_corners(f, lid)
    near = np.zeros((len(ex), len(cx)), bool)
    ds = np.hypot(cx[cols] - q.start[0], cy[cols] - q.start[1])
    near[:, cols] = ds[None, :] + np.hypot(cx[cols][None, :] - ex[:, None], cy[cols][None, :] - ey[:, None]) \
        <= q.bound + EPS + 2.0 * q.cr[cols][None, :]
    return Goals(near, ex, ey)


def _rounds(f: CostField, nav: LevelNav, ways: _Ways, goals: Goals, ens: Enemies, best: Floats,
            rec: list[_Best | None], lim: float) -> None:
    """Test the ways into each end, cheapest lower bound first, 2, 4, 8 ... at a time, until none can beat it. A
    corner's tangent point (and its closer bound) is worked out once its corner's bound is within the end's
    best so far."""
    ex, ey = goals.px, goals.py
    q = f.query
    raw = ways.take(np.nonzero(ways.via == CORNER)[0])
    pool = ways.take(np.nonzero(ways.via != CORNER)[0])
    take = 2
    passes: list[tuple[int, float]] = []  # (end, least cost of a path on past it) of tangent points off bent legs
    while True:
        ripe = raw.lb <= best[raw.end] + TIE
        if ripe.any():
            fine = _refine(f, goals, raw.take(np.nonzero(ripe)[0]))
            raw = raw.take(np.nonzero(~ripe)[0])
            if fine is not None and len(fine):
                pool = _cat([pool, fine])
        pool = pool.take(np.nonzero(pool.lb <= best[pool.end] + TIE)[0])
        if not len(pool):
            if not ripe.any():
                break
            continue
        pool = pool.take(np.lexsort((pool.lb, pool.end)))
        rank = np.arange(len(pool)) - np.searchsorted(pool.end, pool.end, side="left")
        now = rank < take
        w = pool.take(np.nonzero(now)[0])
        pool = pool.take(np.nonzero(~now)[0])
        take *= 2
        value, dt, arc, leg, via, tail = _test(f, nav, w, ex, ey, ens)
        reach = np.hypot(w.tx - ex[w.end], w.ty - ey[w.end])
        bent = np.nonzero((w.via != POINT) & np.isfinite(value) & (np.where(np.isfinite(leg), leg, 0.0)
                                                                    > reach + 1e-12))[0]
        passes.extend((int(w.end[k]), float(dt[k] + reach[k])) for k in bent.tolist())
        for k in np.nonzero(value <= np.minimum(lim, best[w.end] + TIE))[0].tolist():
            e = int(w.end[k])
            v = float(value[k])
            gx, gy = float(ex[e]), float(ey[e])
            if w.via[k] == POINT:
                key = pop_key(f, int(w.tail[k]), gx, gy)
                cand = _Best(v, key, POINT, int(w.tail[k]), leg=float(leg[k]))
            else:
                d_t = float(dt[k])
                tx, ty = float(w.tx[k]), float(w.ty[k])
                key = (d_t + math.hypot(tx - gx, ty - gy), d_t, q.N + len(q.qx))  # a goal's node: after the rest
                cand = _Best(v, key, int(via[k]), int(tail[k]), float(arc[k]), float(leg[k]), tx, ty,
                             int(w.circle[k]), int(w.side[k]), float(w.offset[k]))
            old = rec[e]
            if old is None or v < old.value or (v == old.value and key < old.key):
                best[e], rec[e] = v, cand
    for e, through in passes:  # a path on past such a tangent point costs at least this: could it be the best?
        r = rec[e]
        if r is not None and through <= best[e] + TIE:
            r.bent = True


def _point_ways(f: CostField, lid: int, ex: Floats, ey: Floats, best: Floats, lim: float) -> _Ways | None:
    """Point nodes of the level (difficult-ground samples, floor corners, link ends) the field reached, inside the
    ellipse the query for each end joins (`PathQuery._in_bound`); bound: their cost plus the straight distance."""
    q, g = f.query, f.query.g
    pts = g.points.get(lid, np.zeros(0, np.int64))
    if not len(pts):
        return None
    pts = pts[np.isfinite(f.dist[pts])]
    if not len(pts):
        return None
    px, py, pd = g.nx[pts], g.ny[pts], f.dist[pts]
    ds = np.hypot(px - q.start[0], py - q.start[1])
    de = np.hypot(px[None, :] - ex[:, None], py[None, :] - ey[:, None])
    lb = pd[None, :] + de
    k, j = np.nonzero((ds[None, :] + de <= q.bound + EPS) & (lb <= np.minimum(lim, best)[:, None] + TIE)
                      & (de > 1e-9))
    n = len(k)
    zf, zi = np.zeros(n), np.full(n, -1, np.int64)
    return _Ways(k.astype(np.int64), lb[k, j], np.full(n, POINT, np.int64), pts[j], zf, zf, zi, zi, zf, zi,
                 np.full(n, math.inf), zi, np.zeros(n, bool))


def _reached_chains(f: CostField) -> Floats:
    """Per corner and side (index corner * 2 + (side > 0)): the least cost of a reached node on it (inf: none)."""
    if f.chain_min is not None:
        return f.chain_min
    _, _, _, ncircle, ns, _ = node_table(f)
    reached = np.nonzero(np.isfinite(f.dist) & (ncircle >= 0))[0]
    out = np.full(2 * len(f.query.circles[0]) + 2, math.inf)
    np.minimum.at(out, ncircle[reached] * 2 + (ns[reached] > 0), f.dist[reached])
    f.chain_min = out
    return out


def _corner_ways(f: CostField, lid: int, goals: Goals, best: Floats, lim: float) -> _Ways | None:
    """The level's corners (and enemy bases) whose tangent legs could lead into each end (`PathQuery._connect` for a
    goal: both turning sides, corners near the query's ellipse), with the cheapest reached node on that corner and
    side plus the distance to the circle as the bound; their tangent points are worked out when tried."""
    q = f.query
    reached = _reached_chains(f)
    ci_all = _live_corners(f, lid)
    if not len(ci_all):
        return None
    ex, ey = goals.px, goals.py
    cx, cy = q.circles[0], q.circles[1]
    cr = q.cr[ci_all]
    de = np.hypot(cx[ci_all][None, :] - ex[:, None], cy[ci_all][None, :] - ey[:, None])
    cap = np.minimum(lim, best)[:, None] + TIE
    rows: list[tuple[Ints, Ints, Ints, Floats]] = []
    for side in (1, -1):
        ns = -side  # a goal's corners are joined turning the other way (`PathQuery._seg` into the goal)
        lo = reached[ci_all * 2 + (ns > 0)]
        lb = lo[None, :] + np.maximum(0.0, de - cr[None, :])
        k, j = np.nonzero(goals.near_c[:, ci_all] & np.isfinite(lo)[None, :] & (lb <= cap))
        rows.append((k.astype(np.int64), ci_all[j], np.full(len(k), ns, np.int64), lb[k, j]))
    pe = np.concatenate([a for a, _, _, _ in rows])
    n = len(pe)
    if not n:
        return None
    zf, zi = np.zeros(n), np.full(n, -1, np.int64)
    return _Ways(pe, np.concatenate([d for _, _, _, d in rows]), np.full(n, CORNER, np.int64), zi, zf, zf,
                 np.concatenate([b for _, b, _, _ in rows]), np.concatenate([c for _, _, c, _ in rows]), zf, zi,
                 np.full(n, math.inf), zi, np.zeros(n, bool))


def _refine(f: CostField, goals: Goals, w: _Ways) -> _Ways | None:
    """Corner rows made ways: the end's tangent point on the corner (None where the tangent leaves the corner's
    free span), the hook from its chain neighbour and the query arc from the query node before it, and the bound
    the cheaper arc in plus the leg's length gives."""
    q, g = f.query, f.query.g
    cx, cy, c0, _ = q.circles
    ex, ey = goals.px, goals.py
    pe, pc, ps = w.end, w.circle, w.side
    n = len(pe)
    cand = tangent_candidates((cx[pc], cy[pc]), np.full(n, -1), pc, ps, q.cr[pc], (ex[pe], ey[pe]), np.full(n, -1),
                              np.full(n, -1), np.zeros(n, np.int64), 0.0, q.circles, False, None)
    if cand is None:
        return None
    j = cand.idx
    pe, pc, ps = pe[j], pc[j], ps[j]
    tx, ty = cand.tax, cand.tay
    off = (np.arctan2(ty - cy[pc], tx - cx[pc]) - c0[pc]) % TAU  # as `tangents._offsets` writes a node's angle
    hook, hook_cost = _hooks(g, pc, ps, off)
    qnode, qang, qwrap = _query_before(f, goals, pe, pc, ps, off)
    dist = np.append(f.dist, math.inf)  # index -1: no tail
    dh = np.where(hook >= 0, dist[hook] + hook_cost, math.inf)
    dq = np.where(qnode >= 0, dist[qnode] + q.cr[pc] * qang, math.inf)  # before any difficult-ground factor
    lb = np.maximum(w.lb[j], np.minimum(dh, dq) + np.hypot(tx - ex[pe], ty - ey[pe]))
    keep = np.nonzero(np.isfinite(lb))[0]
    n = len(keep)
    return _Ways(pe[keep], lb[keep], np.full(n, HOOK, np.int64), np.full(n, -1, np.int64), tx[keep], ty[keep],
                 pc[keep], ps[keep], off[keep], hook[keep], hook_cost[keep], qnode[keep], qwrap[keep])


def _hooks(g: NavGraph, pc: Ints, ps: Ints, off: Floats) -> tuple[Ints, Floats]:
    """The chain neighbour a hook arc comes from into each tangent point (`PathQuery._hooks`: the static point
    behind it in its turning direction) and that arc's cost, r x angle; -1 where the chain has none."""
    tail = np.full(len(pc), -1, np.int64)
    cost = np.full(len(pc), math.inf)
    keys = pc * 2 + (ps > 0)
    r = g.radius
    for key in np.unique(keys).tolist():
        chain = g.chains.get(int(key))
        if chain is None:
            continue
        offs, ids = chain
        sel = np.nonzero(keys == key)[0]
        o = off[sel]
        if key % 2:  # turning +: the neighbour at or below in angle
            lo = np.searchsorted(offs, o, side="right") - 1
            ok = lo >= 0
            tail[sel[ok]] = ids[lo[ok]]
            cost[sel[ok]] = r * (o[ok] - offs[lo[ok]])
        else:  # turning -: the neighbour at or above
            hi = np.searchsorted(offs, o, side="left")
            ok = hi < len(offs)
            tail[sel[ok]] = ids[hi[ok]]
            cost[sel[ok]] = r * (offs[hi[ok]] - o[ok])
    return tail, cost


def _query_before(f: CostField, goals: Goals, pe: Ints, pc: Ints, ps: Ints,
                  off: Floats) -> tuple[Ints, Floats, Bools]:
    """The query node whose query arc runs into each end's tangent point in that end's own query (`arc_edges` over
    its nodes in angle order, and round an enemy base the arc across angle 0 `PathQuery._wrap_enemy_arcs` adds),
    the arc's angle and whether it crosses angle 0; -1 where there is none."""
    q = f.query
    n = len(pc)
    node = np.full(n, -1, np.int64)
    ang = np.zeros(n)
    wrap = np.zeros(n, bool)
    if not f.enemies:  # only the source's tangent points, one per corner and side, there whenever the corner is
        own = np.nonzero(q.qc >= 0)[0]
        at = np.full(2 * q.nc + 2, -1, np.int64)
        at[q.qc[own] * 2 + (q.qs[own] > 0)] = own
        j = at[pc * 2 + (ps > 0)]
        oq = np.where(j >= 0, q.qo[np.maximum(j, 0)], 0.0)
        into = (j >= 0) & (((ps > 0) & (oq <= off)) | ((ps < 0) & (off < oq)))
        return np.where(into, j + q.N, -1), np.where(ps > 0, off - oq, oq - off), wrap
    table = query_nodes(f)
    if not table:
        return node, ang, wrap
    keys = pc * 2 + (ps > 0)
    for k in range(n):
        qn = table.get(int(keys[k]))
        if qn is None:
            continue
        o = float(off[k])
        offs, ids = qn.offsets, qn.nodes
        if len(ids) == 1 and qn.partner_circle[0] < 0 and qn.partner_point[0] < 0:
            here = np.ones(1, bool)  # the source's own tangent point: there whenever its corner is
        else:
            here = present(f, goals, int(pe[k]), qn)
        if not here.any():
            continue
        full = int(pc[k]) >= q.nc  # an enemy base: its arcs may run across angle 0
        if ps[k] > 0:  # turning +: the node at or below in angle (the source's tangent point first on a tie)
            cand = np.nonzero(here & (offs <= o))[0]
            if len(cand):
                j = cand[-1]
                node[k], ang[k] = ids[j], o - offs[j]
            elif full:
                j = np.nonzero(here)[0][-1]
                node[k], ang[k], wrap[k] = ids[j], o + TAU - offs[j], True
        else:  # turning -: the node above in angle
            cand = np.nonzero(here & (offs > o))[0]
            if len(cand):
                j = cand[0]
                node[k], ang[k] = ids[j], offs[j] - o
            elif full:
                j = np.nonzero(here)[0][0]
                node[k], ang[k], wrap[k] = ids[j], offs[j] + TAU - o, True
    return node, ang, wrap


def _test(f: CostField, nav: LevelNav, w: _Ways, ex: Floats, ey: Floats,
          ens: Enemies) -> tuple[Floats, Floats, Floats, Floats, Ints, Ints]:
    """Exact costs of a batch of ways in (inf where illegal): the legs (`LevelNav.valid`, `costs`, clear of the
    enemy bases) and, for tangent points, the hook arc and the query arc; per way also the tangent point's cost,
    the arc's and the leg's, and which arc and tail led there."""
    g = f.query.g
    n = len(w)
    pt = w.via == POINT
    tails = np.where(pt, w.tail, 0)
    x0, y0 = w.tx.copy(), w.ty.copy()
    x0[pt], y0[pt] = g.nx[w.tail[pt]], g.ny[w.tail[pt]]
    x1, y1 = ex[w.end], ey[w.end]
    leg = np.full(n, math.inf)
    valid = nav.valid(x0, y0, x1, y1)
    if len(ens[0]) and valid.any():
        valid[valid] &= clear_of_enemies(ens, x0[valid], y0[valid], x1[valid], y1[valid])
        lazy = enemy_list(ens)
        for k in np.nonzero(valid & pt)[0].tolist():  # a straight edge from a graph node: checked again lazily
            valid[k] = not hits(lazy, float(x0[k]), float(y0[k]), float(x1[k]), float(y1[k]))
    ok = np.nonzero(valid)[0]
    if len(ok):
        leg[ok] = nav.costs(x0[ok], y0[ok], x1[ok], y1[ok])
    dist = np.append(f.dist, math.inf)
    dt = np.where(pt, dist[tails], math.inf)
    arc = np.zeros(n)
    via = w.via.copy()
    tail = w.tail.copy()
    arcs = np.nonzero(~pt & np.isfinite(leg))[0]
    if len(arcs):
        a = w.take(arcs)
        hc = np.where(_hook_ok(f, nav, a, ens), a.hook_cost, math.inf)
        qc = _query_arcs(f, nav, a, ens)
        hv = dist[a.hook] + hc
        qv = dist[a.qnode] + qc
        use_q = qv < hv
        for k in np.nonzero((qv == hv) & np.isfinite(qv))[0].tolist():  # a tie: the tail settled first leads
            gx, gy = float(x1[arcs[k]]), float(y1[arcs[k]])
            use_q[k] = pop_key(f, int(a.qnode[k]), gx, gy) < pop_key(f, int(a.hook[k]), gx, gy)
        dt[arcs] = np.where(use_q, qv, hv)
        arc[arcs] = np.where(use_q, qc, hc)
        via[arcs] = np.where(use_q, QUERY_ARC, HOOK)
        tail[arcs] = np.where(use_q, a.qnode, a.hook)
    return dt + leg, dt, arc, leg, via, tail


def _hook_ok(f: CostField, nav: LevelNav, w: _Ways, ens: Enemies) -> Bools:
    """Hook arcs legal along their polyline (`PathQuery._edges_clear`) and clear of the enemy bases as the search
    checks them; False where there is no hook."""
    q, g = f.query, f.query.g
    ok = np.zeros(len(w), bool)
    h = np.nonzero(w.hook >= 0)[0]
    if not len(h):
        return ok
    cx, cy, c0, _ = q.circles
    tails, circ, side = w.hook[h], w.circle[h], w.side[h]
    oa = g.noff[tails]
    delta = w.offset[h] - oa
    delta = np.where((side > 0) & (delta < 0), delta + TAU, delta)
    delta = np.where((side < 0) & (delta > 0), delta - TAU, delta)
    ok[h] = nav.valid_arcs(g.nx[tails], g.ny[tails], w.tx[h], w.ty[h], cx[circ], cy[circ], q.cr[circ],
                           c0[circ] + oa, delta) | (np.abs(delta) < 1e-9)
    if len(ens[0]):
        lazy = enemy_list(ens)
        for j, k in enumerate(h.tolist()):
            if ok[k] and arc_blocked(q, lazy, int(circ[j]), float(g.nx[tails[j]]), float(g.ny[tails[j]]),
                                      float(w.tx[k]), float(w.ty[k])):
                ok[k] = False
    return ok


def _query_arcs(f: CostField, nav: LevelNav, w: _Ways, ens: Enemies) -> Floats:
    """Cost of the query arc into each tangent point (`arc_edges`: r x angle, x `move.difficult_mult` when its
    middle lies in difficult ground; across angle 0 round an enemy base `_wrap_enemy_arcs`'s r x angle); inf where
    there is none, it is illegal along its polyline, or an enemy base stands in its way."""
    q = f.query
    out = np.full(len(w), math.inf)
    a = np.nonzero(w.qnode >= 0)[0]
    if not len(a):
        return out
    cx, cy, c0, _ = q.circles
    qi, circ, side, ot, wrap = w.qnode[a] - q.N, w.circle[a], w.side[a], w.offset[a], w.qwrap[a]
    oq = q.qo[qi]
    r = q.cr[circ]
    d = np.where(side > 0, ot - oq, oq - ot)
    cost = r * d
    mid = c0[circ] + np.where(side > 0, oq + ot, ot + oq) / 2
    if nav.difficult is not None:
        cost[shapely.contains_xy(nav.difficult, cx[circ] + r * np.cos(mid), cy[circ] + r * np.sin(mid))] *= nav.mult
    ok = nav.valid_arcs(q.qx[qi], q.qy[qi], w.tx[a], w.ty[a], cx[circ], cy[circ], r, c0[circ] + oq,
                        ot - oq) | (d < 1e-9)
    if wrap.any():  # across angle 0: the wrap arc's cost and its `_edges_clear` test
        wcost = np.where(side > 0, r * (ot + TAU - oq), r * (oq + TAU - ot))
        delta = ot - oq
        delta = np.where((side > 0) & (delta < 0), delta + TAU, delta)
        delta = np.where((side < 0) & (delta > 0), delta - TAU, delta)
        wok = nav.valid_arcs(q.qx[qi], q.qy[qi], w.tx[a], w.ty[a], cx[circ], cy[circ], r, c0[circ] + oq,
                             delta) | (np.abs(delta) < 1e-9)
        cost = np.where(wrap, wcost, cost)
        ok = np.where(wrap, wok, ok)
    out[a[ok]] = cost[ok]
    if len(ens[0]):
        lazy = enemy_list(ens)
        for j, k in enumerate(a.tolist()):
            if ok[j] and arc_blocked(q, lazy, int(circ[j]), float(q.qx[qi[j]]), float(q.qy[qi[j]]),
                                      float(w.tx[k]), float(w.ty[k])):
                out[k] = math.inf
    return out


# --- the path of an arrival --------------------------------------------------------------------------------


def _finish(f: CostField, nav: LevelNav, lid: int, ends: list[Point3], rec: list[_Best | None],
            goals: Goals) -> list[Arrival | None]:
    """The arrivals of the best ways into the ends: each path from the source (replayed over the end's own query
    nodes round enemy bases), its cost, and whether the field can be sure of it."""
    q = f.query
    head: dict[int, tuple[float, list[Point3], bool]] = {}  # end -> cost to its tail, the path there, sure
    plain: dict[int, bool] = {}
    for k, r in enumerate(rec):
        if r is None:
            continue
        sure = not r.bent
        if f.enemies and r.tail != q.S:
            again = replay(f, nav, chain_of(f, r.tail), goals, k)
            if again is not None and again[1] is not None:
                head[k] = (again[0], again[1], sure)
                continue
            sure = sure and again is not None
        plain[k] = sure
    tails = {k: r.tail for k, r in enumerate(rec) if r is not None}
    f.write([tails[k] for k in plain])
    for k, sure in plain.items():
        head[k] = (float(f.dist[tails[k]]), list(f.paths[tails[k]]), sure)
    turns = [k for k in head if (r := rec[k]) is not None and r.via in (HOOK, QUERY_ARC)]
    verts = arc_polylines(f, [tails[k] for k in turns],
                           np.asarray([r.offset for k in turns if (r := rec[k]) is not None]))
    where = {k: j for j, k in enumerate(turns)}
    out: list[Arrival | None] = [None] * len(ends)
    for k, (d_tail, pts, sure) in head.items():
        r = rec[k]
        assert r is not None
        if r.via in (HOOK, QUERY_ARC):
            extend_path(pts, [*verts[where[k]], (r.tx, r.ty, q.g.navs[lid].z)])
            cost = (d_tail + r.arc) + r.leg
        else:
            cost = d_tail + r.leg
        extend_path(pts, [ends[k]])
        out[k] = Arrival(cost, ends[k], tuple(pts), sure)
    return out
