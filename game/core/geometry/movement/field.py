"""A cost field: the GEO-8 cost of the cheapest path from one source to every NavGraph node, and from it the
cheapest path to many end points at once (GEO-8, GEO-27).

`shortest_path` answers one goal with one query and one A*; asking it for a hundred end points round one model
(AI-D.06's candidates) pays a hundred queries. A field pays one: the source joined to the graph as `PathQuery`
joins a start (with or without enemy bases), then Dijkstra's one-to-all costs (`field_kernels.dijkstra`, the
loop of `search.search` compiled; `search.search` itself when enemy bases are checked lazily per edge). An end
point is then reached as the query for that goal alone would reach it: straight from the source, from a graph
point node, or from the goal's own tangent point on a corner, itself reached by an arc from its neighbour on the
corner's chain (the hook `PathQuery` adds) or from the query node before it on that corner (the source's
tangent point, or one an enemy base's tangents left there). The segments and arcs are built and tested by the
same functions (`tangent_candidates`, `LevelNav.valid`, `valid_arcs`, `costs`, `clear_of_enemies`), so cost
and path are those of `shortest_path`, ties aside. Where the goal's own query would hold different nodes on
an enemy base's circle (the field joins the enemies to every corner within its bound, the query only to those
near its ellipse), the path is replayed over the query's nodes; where even that cannot be sure, the arrival
says so (`Arrival.sure`) and the caller asks `shortest_path`.

Path costs are symmetric (every straight segment, arc, stairs, ladder and climb costs the same both ways;
difficult ground is paid per inch either way), so a field from a goal gives the cost from every end point to
that goal, up to the order the float additions are made in.
"""
from __future__ import annotations

import math
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import shapely

import game.core.geometry.movement.field_kernels as fieldkernels
from game.core.battlefield import Base, Battlefield, Point3
from game.core.geometry.arrays import Bools, Floats, Ints
from game.core.geometry.jit import compile_kernels
from game.core.geometry.movement.free_space import ARC_STEP, TAU, LevelNav, arc_vertices
from game.core.geometry.movement.graph import NavGraph, connected_levels, graph
from game.core.geometry.movement.positions import vertically_overlap
from game.core.geometry.movement.query import PathQuery
from game.core.geometry.movement.tangents import ARC, CLIMB, STRAIGHT, Enemies, clear_of_enemies, tangent_candidates
from game.core.geometry.terrain import GROUND, Z_TOL, level_at, walking_level
from game.core.settings import Settings
from game.core.tolerance import EPS

CSR_CACHE = "movement.field.csr"
DIRECT, POINT, HOOK, QUERY_ARC, CORNER = 0, 1, 2, 3, 4  # how the last stretch into an end starts
TIE = 1e-12  # ways whose lower bound is this close to the best are still tried (exact ties: the earlier settled)


@lru_cache(maxsize=1)
def kernels() -> types.SimpleNamespace:
    """The compiled field kernels (game.core.geometry.jit), or the Python ones when numba is unavailable."""
    return compile_kernels((fieldkernels,))


def _static_arrays(bf: Battlefield, g: NavGraph) -> tuple[Ints, Ints, Floats, Ints]:
    """The graph's adjacency as numpy arrays, kept beside the graph in `Battlefield.cache`."""
    key = (CSR_CACHE, round(g.radius, 6), round(g.height, 6))
    hit = bf.cache.get(key)
    if hit is None or hit[0] is not g:
        indptr, to, cost, kind = g.adj
        hit = (g, (np.asarray(indptr, np.int64), np.asarray(to, np.int64), np.asarray(cost, np.float64),
                   np.asarray(kind, np.int64)))
        bf.cache[key] = hit
    arrays: tuple[Ints, Ints, Floats, Ints] = hit[1]
    return arrays


def _static_heights(bf: Battlefield, g: NavGraph) -> list[float]:
    """The height of every graph node's level (`PathQuery.point3`'s z), kept beside the graph."""
    key = (CSR_CACHE, "z", round(g.radius, 6), round(g.height, 6))
    hit = bf.cache.get(key)
    if hit is None or hit[0] is not g:
        lz = {lid: nav.z for lid, nav in g.navs.items()}
        hit = (g, [lz[lv] for lv in g.node_lists[2]])
        bf.cache[key] = hit
    heights: list[float] = hit[1]
    return heights


@dataclass(frozen=True, slots=True)
class _QueryNodes:
    """The query's own nodes on one corner and turning side, by angle: offsets, ids, and what each needs to
    exist in the query for one goal: the corner or graph point node at the other end of its straight edge
    (`partner_circle` / `partner_point`, -1 for none: the source's tangent points need only their own corner)."""

    offsets: Floats
    nodes: Ints
    partner_circle: Ints
    partner_point: Ints


@dataclass(slots=True)
class CostField:
    """GEO-8 costs of the cheapest paths from `source` to every node of `query` within `bound` (inf beyond), each
    node's parent and the kind of edge it was reached by; `level` is the source's walking level (None: no floor,
    no path). `query` is the source joined to the NavGraph (and to the enemy bases, if any), node ids as
    `PathQuery` numbers them."""

    query: PathQuery
    source: Point3
    level: int | None
    bound: float
    can_climb: bool
    dist: Floats
    parent: Ints
    pkind: Ints
    chain_min: Floats | None = None  # per corner * 2 + (side > 0): the least cost reached on it (lazily)
    paths: dict[int, tuple[Point3, ...]] = field(default_factory=dict)  # node -> its path, written once
    qnodes: dict[int, _QueryNodes] | None = None  # per corner and side (lazily)
    incoming: dict[int, list[tuple[int, float, int]]] | None = None  # the query's own edges by head (lazily)
    nodes: tuple[list[float], list[float], list[float], Ints, Ints, Floats] | None = None  # see `_node_table`

    @property
    def enemies(self) -> bool:
        """Does the query hold enemy bases (corners beyond the graph's)?"""
        return len(self.query.circles[0]) > self.query.nc

    def polyline(self, u: int) -> list[Point3]:
        """The path from the source to node u, as `PathQuery.polyline` writes it (arcs as circumscribed polylines,
        points closer than 1e-9" merged); every node's path is written once and shared by the paths through it."""
        if u not in self.paths:
            self.write([u])
        return list(self.paths[u])

    def write(self, tails: Sequence[int]) -> None:
        """Write the paths to these nodes (and every node before them), the arcs of all of them by one
        `arc_vertices` (the formula `PathQuery.arc_points` uses, element by element)."""
        memo, q = self.paths, self.query
        parent = self.parent
        order: list[int] = []
        planned: set[int] = set()
        for u in tails:
            chain = []
            v = int(u)
            while v not in memo and v not in planned and parent[v] >= 0:
                chain.append(v)
                v = int(parent[v])
            if v not in memo and v not in planned:  # the source
                memo[v] = (q.point3(v),)
            chain.reverse()
            order.extend(chain)
            planned.update(chain)
        if not order:
            return
        xs, ys, zs, _, _, noff = _node_table(self)
        pk = self.pkind[order]
        arcs = [w for w, k in zip(order, pk.tolist(), strict=True) if k == ARC]
        verts = dict(zip(arcs, _arc_polylines(self, [int(parent[w]) for w in arcs], noff[arcs]), strict=True))
        for w in order:
            pts = list(memo[int(parent[w])])
            _extend(pts, [*verts.get(w, ()), (xs[w], ys[w], zs[w])])
            memo[w] = tuple(pts)


def _node_table(f: CostField) -> tuple[list[float], list[float], list[float], Ints, Ints, Floats]:
    """Every node of the field's query as `PathQuery.point3` and `node_arc` give it: x, y, z of its level, corner,
    turning side and angle offset (graph nodes, then the query's)."""
    if f.nodes is None:
        q, g = f.query, f.query.g
        gx, gy, _ = g.node_lists
        lz = {lid: nav.z for lid, nav in g.navs.items()}
        f.nodes = (gx + q.qx.tolist(), gy + q.qy.tolist(), _static_heights(q.bf, g) + [lz[lv] for lv in q.ql.tolist()],
                   np.concatenate([g.ncircle, q.qc]), np.concatenate([g.ns, q.qs]), np.concatenate([g.noff, q.qo]))
    return f.nodes


def _arc_polylines(f: CostField, tails: Sequence[int], offsets: Floats) -> list[list[Point3]]:
    """`PathQuery.arc_points` for many arcs, each from a node round its corner to an angle offset, by one
    `arc_vertices` call (its formula, element by element)."""
    n = len(tails)
    if not n:
        return []
    q = f.query
    _, _, zs, ncircle, ns, noff = _node_table(f)
    u = np.asarray(tails, np.int64)
    ci, side, o1 = ncircle[u], ns[u], noff[u]
    d = np.asarray(offsets, float) - o1
    d = np.where((side > 0) & (d < 0), d + TAU, d)
    d = np.where((side < 0) & (d > 0), d - TAU, d)
    which, xs, ys = arc_vertices(q.circles[0][ci], q.circles[1][ci], q.cr[ci], q.circles[2][ci] + o1, d)
    cuts = np.searchsorted(which, np.arange(n + 1)).tolist()
    xl, yl = xs.tolist(), ys.tolist()
    zt = [zs[t] if t != q.S else q.point3(t)[2] for t in tails]
    return [[(xl[j], yl[j], zt[k]) for j in range(cuts[k], cuts[k + 1])] for k in range(n)]


def _extend(pts: list[Point3], more: Sequence[Point3]) -> None:
    """Append points to a path, dropping each within 1e-9" of the last one kept (as `PathQuery.polyline` does)."""
    hypot = math.hypot
    lx, ly, lz = pts[-1]
    for p in more:
        if hypot(p[0] - lx, p[1] - ly) > 1e-9 or abs(p[2] - lz) > 1e-9:
            pts.append(p)
            lx, ly, lz = p


def cost_field(bf: Battlefield, source: Point3, *, radius: float, height: float, bound: float,
               enemies: Sequence[Base] = (), can_climb: bool = True, settings: Settings | None = None) -> CostField:
    """GEO-27 one-to-all: the source joined to the NavGraph of this base (and to the `enemies`' bases, which no path
    may pass through, GEO-8), every node's cost from it within `bound`. The query and the loop are those of
    `shortest_path` without a goal: its first pass with no enemies, its second with them."""
    s = settings or Settings.defaults()
    src = (float(source[0]), float(source[1]), float(source[2]))
    g = graph(bf, radius, height, settings=s)
    q = PathQuery(g, bf, src, None, bound, list(enemies), can_climb)
    lv = walking_level(bf, src[0], src[1], src[2]) if bf.pieces else None
    n = q.N + len(q.qx)
    dist = np.full(n, math.inf)
    parent = np.full(n, -1, np.int64)
    pkind = np.full(n, -1, np.int64)
    sptr, sto, scost, skind = _static_arrays(bf, g)
    xptr, xto, xcost, xkind = _extra_arrays(q, n)
    nx = np.concatenate([g.nx, q.qx])
    ny = np.concatenate([g.ny, q.qy])
    nlevel = np.concatenate([g.nlevel, q.ql])
    ncircle = np.concatenate([g.ncircle, q.qc])
    top = int(max(int(nlevel.max(initial=0)), int(q.el.max(initial=0)))) + 2
    order = np.argsort(q.el, kind="stable")  # the enemy bases by level, in the order the search lists them
    eptr = np.searchsorted(q.el[order], np.arange(top)).astype(np.int64)
    kernels().dijkstra(q.S, q.N, sptr, sto, scost, skind, xptr, xto, xcost, xkind, q.bound + EPS, can_climb, dist,
                       parent, pkind, nx, ny, nlevel.astype(np.int64), ncircle.astype(np.int64),
                       q.cr.astype(np.float64), q.nc, eptr, q.ex[order], q.ey[order], q.er[order],
                       1 / math.cos(ARC_STEP / 2) - 1, EPS)
    return CostField(q, src, lv.id if lv is not None else (0 if not bf.pieces else None), bound, can_climb, dist,
                     parent, pkind)


def _extra_arrays(q: PathQuery, n: int) -> tuple[Ints, Ints, Floats, Ints]:
    """The query's own edges (`PathQuery.extra`, in its order) as flat arrays by tail node."""
    counts = np.zeros(n + 1, np.int64)
    for u, edges in q.extra.items():
        counts[u + 1] = len(edges)
    ptr = np.cumsum(counts)
    m = int(ptr[-1])
    to = np.empty(m, np.int64)
    cost = np.empty(m, np.float64)
    kind = np.empty(m, np.int64)
    for u, edges in q.extra.items():
        k = int(ptr[u])
        for v, c, kd in edges:
            to[k], cost[k], kind[k] = v, c, kd
            k += 1
    return ptr, to, cost, kind


def _query_nodes(f: CostField) -> dict[int, _QueryNodes]:
    """The query's own nodes per corner and side (see `_QueryNodes`), built once per field."""
    if f.qnodes is not None:
        return f.qnodes
    q = f.query
    on = np.nonzero(q.qc >= 0)[0]
    partner = np.full(len(q.qx), -2, np.int64)  # -2: none seen, else the node at the other end (S for the source)
    for u, edges in q.extra.items():
        for v, _, kind in edges:
            if kind != STRAIGHT:
                continue
            if v >= q.N and q.qc[v - q.N] >= 0:
                partner[v - q.N] = u
            if u >= q.N and q.qc[u - q.N] >= 0:
                partner[u - q.N] = v
    out: dict[int, _QueryNodes] = {}
    keys = q.qc[on] * 2 + (q.qs[on] > 0)
    for key in np.unique(keys).tolist():
        idx = on[keys == key]
        idx = idx[np.argsort(q.qo[idx], kind="stable")]
        pc = np.full(len(idx), -1, np.int64)
        pp = np.full(len(idx), -1, np.int64)
        for j, i in enumerate(idx.tolist()):
            w = int(partner[i])
            if w >= q.N:
                pc[j] = q.qc[w - q.N]
            elif 0 <= w < q.N:
                pp[j] = w
        out[int(key)] = _QueryNodes(q.qo[idx], idx + q.N, pc, pp)
    f.qnodes = out
    return out


# --- arrivals at many end points ------------------------------------------------------------------------------

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
class _Goal:
    """What the query for one end alone would hold beyond the field: which corners and points it joins."""

    near_c: Bools  # per corner (graph corners, then enemy bases): joined to the start and goal (2 r slack)
    px: Floats  # the end point
    py: Floats


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
    wrap: bool = False
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


def _enemies_at(q: PathQuery, lid: int) -> Enemies:
    sel = q.el == lid
    return (q.ex[sel], q.ey[sel], q.er[sel])


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
    ens = _enemies_at(q, lid)
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


def _goals(f: CostField, lid: int, ex: Floats, ey: Floats) -> _Goal:
    """Per end, the corners its own query would join (`PathQuery._in_bound` with the corners' 2 r slack): those a
    way can turn round, and with enemy bases in the field every corner (their query nodes depend on far ones)."""
    q = f.query
    cx, cy = q.circles[0], q.circles[1]
    cols = np.arange(len(cx)) if f.enemies else _live_corners(f, lid)
    near = np.zeros((len(ex), len(cx)), bool)
    ds = np.hypot(cx[cols] - q.start[0], cy[cols] - q.start[1])
    near[:, cols] = ds[None, :] + np.hypot(cx[cols][None, :] - ex[:, None], cy[cols][None, :] - ey[:, None]) \
        <= q.bound + EPS + 2.0 * q.cr[cols][None, :]
    return _Goal(near, ex, ey)


def _rounds(f: CostField, nav: LevelNav, ways: _Ways, goals: _Goal, ens: Enemies, best: Floats,
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
                key = _pop_key(f, int(w.tail[k]), gx, gy)
                cand = _Best(v, key, POINT, int(w.tail[k]), leg=float(leg[k]))
            else:
                d_t = float(dt[k])
                tx, ty = float(w.tx[k]), float(w.ty[k])
                key = (d_t + math.hypot(tx - gx, ty - gy), d_t, q.N + len(q.qx))  # a goal's node: after the rest
                cand = _Best(v, key, int(via[k]), int(tail[k]), float(arc[k]), float(leg[k]), tx, ty,
                             int(w.circle[k]), int(w.side[k]), float(w.offset[k]),
                             bool(w.qwrap[k]) and via[k] == QUERY_ARC)
            old = rec[e]
            if old is None or v < old.value or (v == old.value and key < old.key):
                best[e], rec[e] = v, cand
    for e, through in passes:  # a path on past such a tangent point costs at least this: could it be the best?
        r = rec[e]
        if r is not None and through <= best[e] + TIE:
            r.bent = True


def _pop_key(f: CostField, u: int, gx: float, gy: float) -> tuple[float, float, int]:
    """When A* toward (gx, gy) settles node u: its (f, cost, id) heap entry, the order ties are decided in."""
    x, y = f.query.node_xy(u)
    d = float(f.dist[u])
    return (d + math.hypot(float(x) - gx, float(y) - gy), d, u)


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
    _, _, _, ncircle, ns, _ = _node_table(f)
    reached = np.nonzero(np.isfinite(f.dist) & (ncircle >= 0))[0]
    out = np.full(2 * len(f.query.circles[0]) + 2, math.inf)
    np.minimum.at(out, ncircle[reached] * 2 + (ns[reached] > 0), f.dist[reached])
    f.chain_min = out
    return out


def _corner_ways(f: CostField, lid: int, goals: _Goal, best: Floats, lim: float) -> _Ways | None:
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


def _refine(f: CostField, goals: _Goal, w: _Ways) -> _Ways | None:
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


def _present(f: CostField, goals: _Goal, e: int, qn: _QueryNodes) -> Bools:
    """Which of these query nodes the query for end e alone would hold: its corner near, and the corner or point
    at the other end of its straight edge joined too (a graph point inside the query's ellipse)."""
    q, g = f.query, f.query.g
    ok = np.ones(len(qn.nodes), bool)
    pc = qn.partner_circle
    sel = pc >= 0
    if sel.any():
        ok[sel] = goals.near_c[e, pc[sel]]
    pp = qn.partner_point
    sel = pp >= 0
    if sel.any():
        px, py = g.nx[pp[sel]], g.ny[pp[sel]]
        ok[sel] = np.hypot(px - q.start[0], py - q.start[1]) + np.hypot(px - goals.px[e], py - goals.py[e]) \
            <= q.bound + EPS
    return ok


def _query_before(f: CostField, goals: _Goal, pe: Ints, pc: Ints, ps: Ints,
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
    table = _query_nodes(f)
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
            here = _present(f, goals, int(pe[k]), qn)
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
        lazy = _ens_list(ens)
        for k in np.nonzero(valid & pt)[0].tolist():  # a straight edge from a graph node: checked again lazily
            valid[k] = not _hits(lazy, float(x0[k]), float(y0[k]), float(x1[k]), float(y1[k]))
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
            use_q[k] = _pop_key(f, int(a.qnode[k]), gx, gy) < _pop_key(f, int(a.hook[k]), gx, gy)
        dt[arcs] = np.where(use_q, qv, hv)
        arc[arcs] = np.where(use_q, qc, hc)
        via[arcs] = np.where(use_q, QUERY_ARC, HOOK)
        tail[arcs] = np.where(use_q, a.qnode, a.hook)
    return dt + leg, dt, arc, leg, via, tail


def _ens_list(ens: Enemies) -> list[tuple[float, float, float]]:
    """Enemy arrays as the search's per-level list of (x, y, r + r_enemy)."""
    return list(zip(ens[0].tolist(), ens[1].tolist(), ens[2].tolist(), strict=True))


def _hits(ens: list[tuple[float, float, float]], ux: float, uy: float, vx: float, vy: float,
          margin: float = 0.0) -> bool:
    """`search._hits`: does the segment pass within er + margin of an enemy centre (its very arithmetic)?"""
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


def _arc_blocked(q: PathQuery, ens: list[tuple[float, float, float]], ci: int, ux: float, uy: float, vx: float,
                 vy: float) -> bool:
    """`search._blocked` for an arc edge on corner ci: its chord, the enemies grown by the arc's sagitta; arcs
    round an enemy base are exempt."""
    if not ens or ci >= q.nc:
        return False
    r = float(q.cr[ci])
    half = math.hypot(vx - ux, vy - uy) / 2
    sag = r - math.sqrt(max(0.0, r * r - half * half)) + r * (1 / math.cos(ARC_STEP / 2) - 1)
    return _hits(ens, ux, uy, vx, vy, sag)


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
        lazy = _ens_list(ens)
        for j, k in enumerate(h.tolist()):
            if ok[k] and _arc_blocked(q, lazy, int(circ[j]), float(g.nx[tails[j]]), float(g.ny[tails[j]]),
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
        lazy = _ens_list(ens)
        for j, k in enumerate(a.tolist()):
            if ok[j] and _arc_blocked(q, lazy, int(circ[j]), float(q.qx[qi[j]]), float(q.qy[qi[j]]),
                                      float(w.tx[k]), float(w.ty[k])):
                out[k] = math.inf
    return out


# --- the path of an arrival --------------------------------------------------------------------------------

def _finish(f: CostField, nav: LevelNav, lid: int, ends: list[Point3], rec: list[_Best | None],
            goals: _Goal) -> list[Arrival | None]:
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
            chain = _chain(f, r.tail)
            sure = sure and _held(f, nav, chain, goals, k) and _settled_alike(f, chain, goals, k)
        plain[k] = sure
    tails = {k: r.tail for k, r in enumerate(rec) if r is not None}
    f.write([tails[k] for k in plain])
    for k, sure in plain.items():
        head[k] = (float(f.dist[tails[k]]), list(f.paths[tails[k]]), sure)
    turns = [k for k in head if (r := rec[k]) is not None and r.via in (HOOK, QUERY_ARC)]
    verts = _arc_polylines(f, [tails[k] for k in turns],
                           np.asarray([r.offset for k in turns if (r := rec[k]) is not None]))
    where = {k: j for j, k in enumerate(turns)}
    out: list[Arrival | None] = [None] * len(ends)
    for k, (d_tail, pts, sure) in head.items():
        r = rec[k]
        assert r is not None
        if r.via in (HOOK, QUERY_ARC):
            _extend(pts, [*verts[where[k]], (r.tx, r.ty, q.g.navs[lid].z)])
            cost = (d_tail + r.arc) + r.leg
        else:
            cost = d_tail + r.leg
        _extend(pts, [ends[k]])
        out[k] = Arrival(cost, ends[k], tuple(pts), sure)
    return out


def _chain(f: CostField, u: int) -> list[int]:
    """The nodes of the field's path to u, source first."""
    out = [u]
    while f.parent[out[-1]] >= 0:
        out.append(int(f.parent[out[-1]]))
    out.reverse()
    return out


def _held(f: CostField, nav: LevelNav, chain: list[int], goals: _Goal, e: int) -> bool:
    """Does the query for end e alone hold the field's path to this tail, arc for arc? Every query node on it
    is one that query has (its straight edge leads to a corner or point that query joins), and the path never
    turns round a corner across the angle of the end's own tangent point there (that query splits the arc)."""
    q = f.query
    table = _query_nodes(f)
    for u in chain:
        if u < q.N or u == q.S or q.qc[u - q.N] < 0:
            continue
        ci = int(q.qc[u - q.N])
        qn = table[ci * 2 + (int(q.qs[u - q.N]) > 0)]
        j = int(np.nonzero(qn.nodes == u)[0][0])
        if not (goals.near_c[e, ci] and _present(f, goals, e, qn)[j]):
            return False
    return not _crosses_goal_tangent(f, nav, chain, goals, e)


def _settled_alike(f: CostField, chain: list[int], goals: _Goal, e: int) -> bool:
    """Would A* toward end e have set the same parent on every node of the chain? Round enemy bases and their
    tangent points one node is often reached at exactly the same cost by two edges; Dijkstra keeps the first it
    settles in cost order, A* the first in (cost + distance to the goal) order. False where they could differ."""
    q = f.query
    gx, gy = float(goals.px[e]), float(goals.py[e])
    dist = f.dist
    table = _query_nodes(f)
    into = _incoming(f)
    for u, v in zip(chain, chain[1:], strict=False):
        dv = float(dist[v])
        if _merged_rival(f, goals, e, v):
            return False
        rivals = [w for w, c, kind in into(v) if w != u and math.isfinite(dist[w]) and float(dist[w]) + c == dv
                  and (kind != CLIMB or f.can_climb) and not _lazy_blocked(f, w, v, kind)]
        for w in rivals:
            if w >= q.N and q.qc[w - q.N] >= 0:
                ci = int(q.qc[w - q.N])
                qn = table[ci * 2 + (int(q.qs[w - q.N]) > 0)]
                if not (goals.near_c[e, ci] and _present(f, goals, e, qn)[int(np.nonzero(qn.nodes == w)[0][0])]):
                    continue  # not in that query
            if _pop_key(f, w, gx, gy)[:2] <= _pop_key(f, u, gx, gy)[:2]:
                return False
    return True


def _merged_rival(f: CostField, goals: _Goal, e: int, v: int) -> bool:
    """Could the query for end e reach query node v as cheaply by a query arc the field lacks? Where the field
    holds query nodes that query does not (their straight edges lead beyond its ellipse), that query's arc from
    the node before v skips them."""
    q = f.query
    if v < q.N or v == q.S or q.qc[v - q.N] < 0:
        return False
    ci, side = int(q.qc[v - q.N]), int(q.qs[v - q.N])
    qn = _query_nodes(f)[ci * 2 + (side > 0)]
    here = _present(f, goals, e, qn)
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
    if kk == k0 % n:
        return False  # the same node before it as in the field
    w = int(qn.nodes[kk])
    if not math.isfinite(f.dist[w]):
        return False
    ang = (float(qn.offsets[j]) - float(qn.offsets[kk])) * (1 if side > 0 else -1) % TAU
    return float(f.dist[w]) + float(q.cr[ci]) * ang <= float(f.dist[v]) + 1e-12


def _incoming(f: CostField) -> Callable[[int], list[tuple[int, float, int]]]:
    """The edges into a node (tail, cost, kind): the graph's, from a reversed adjacency kept beside it, and the
    query's own."""
    q, g = f.query, f.query.g
    key = (CSR_CACHE, "in", round(g.radius, 6), round(g.height, 6))
    hit = q.bf.cache.get(key)
    if hit is None or hit[0] is not g:
        indptr, to, cost, kind = g.adj
        rev: dict[int, list[tuple[int, float, int]]] = {}
        for u in range(len(indptr) - 1):
            for k in range(indptr[u], indptr[u + 1]):
                rev.setdefault(to[k], []).append((u, cost[k], kind[k]))
        hit = (g, rev)
        q.bf.cache[key] = hit
    static: dict[int, list[tuple[int, float, int]]] = hit[1]
    if f.incoming is None:
        mine: dict[int, list[tuple[int, float, int]]] = {}
        for u, edges in q.extra.items():
            for v, c, kd in edges:
                mine.setdefault(v, []).append((u, c, kd))
        f.incoming = mine
    own = f.incoming

    def into(v: int) -> list[tuple[int, float, int]]:
        return static.get(v, []) + own.get(v, [])

    return into


def _lazy_blocked(f: CostField, u: int, v: int, kind: int) -> bool:
    """`search.search`'s lazy check of edge u -> v against the enemy bases of u's level."""
    q = f.query
    if kind > ARC or not (u < q.N or kind == ARC):
        return False
    lv = int(q.g.nlevel[u]) if u < q.N else int(q.ql[u - q.N])
    ens = _ens_list(_enemies_at(q, lv))
    if not ens:
        return False
    ux, uy = q.node_xy(u)
    vx, vy = q.node_xy(v)
    if kind != ARC:
        return _hits(ens, float(ux), float(uy), float(vx), float(vy))
    return _arc_blocked(q, ens, q.node_arc(u)[0], float(ux), float(uy), float(vx), float(vy))


def _crosses_goal_tangent(f: CostField, nav: LevelNav, nodes: list[int], goals: _Goal, e: int) -> bool:
    """Does the path turn round a corner across the angle of the end's own tangent point there (with a legal leg
    into the end)? That end's query would split the arc there, a path the field does not hold."""
    q = f.query
    for a, b in zip(nodes, nodes[1:], strict=False):
        if a < q.N or b < q.N or a == q.S or b == q.S:
            continue
        ci, side, oa = q.node_arc(a)
        cj, _, ob = q.node_arc(b)
        if ci < 0 or ci != cj:
            continue
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
            ens = _enemies_at(q, int(q.circle_level(ci)))
            if leg_ok and len(ens[0]):
                leg_ok = bool(clear_of_enemies(ens, cand.tax, cand.tay, goals.px[[e]], goals.py[[e]])[0])
            if leg_ok:
                return True
    return False


def crosses_enemies(path: Sequence[Point3], enemies: Sequence[Base], *, radius: float, height: float) -> bool:
    """Does the centre path pass within r + r_enemy of an enemy base at its level (GEO-8)? The test
    `shortest_path` makes on its first pass before it routes round the enemy bases."""
    ens = [e for e in enemies if any(vertically_overlap(p[2], height, e.z, e.height) for p in path)]
    if not ens or len(path) < 2:
        return False
    xs = [p[0] for p in path]
    ys = [p[1] for p in path]
    lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
    ens = [e for e in ens if lo_x - radius - e.radius <= e.x <= hi_x + radius + e.radius
           and lo_y - radius - e.radius <= e.y <= hi_y + radius + e.radius]
    if not ens:
        return False
    arr = np.asarray(path)
    at = (np.asarray([e.x for e in ens]), np.asarray([e.y for e in ens]),
          np.asarray([radius + e.radius for e in ens]))
    return not bool(clear_of_enemies(at, arr[:-1, 0], arr[:-1, 1], arr[1:, 0], arr[1:, 1]).all())
