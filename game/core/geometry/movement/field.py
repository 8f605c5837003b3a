"""A cost field (GEO-8, GEO-27): the GEO-8 cost of the cheapest path from one source to every node of the NavGraph,
the source joined to it as `PathQuery` joins a start (with or without enemy bases), by Dijkstra's one-to-all
search (`field_kernels.dijkstra`: the loop of `search.search`, compiled, enemy bases checked per edge as it checks
them). `shortest_path` answers one goal with one query and one A*; AI-D.06 asks a hundred end points round one
model, and `movement.arrivals` reaches them all from one field. This module holds the field, the paths to its
nodes (written as `PathQuery.polyline` writes them) and what the arrivals and their replay share about the
query for one end alone (`Goals`, `query_nodes`, `present`) and about enemy bases (`hits`, `arc_blocked`,
`crosses_enemies`).

GEO-8 costs are symmetric: every straight segment, arc, stairs, ladder and climb costs the same both ways and
difficult ground is paid per inch either way, so a field from a goal gives the cost from every point to that
goal (up to the order the float additions are made in).
"""
from __future__ import annotations

import math
import types
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

import game.core.geometry.movement.field_kernels as fieldkernels
from game.core.battlefield import Base, Battlefield, Point3
from game.core.geometry.arrays import Bools, Floats, Ints
from game.core.geometry.jit import compile_kernels
from game.core.geometry.movement.free_space import ARC_STEP, TAU, arc_vertices
from game.core.geometry.movement.graph import NavGraph, graph
from game.core.geometry.movement.positions import vertically_overlap
from game.core.geometry.movement.query import PathQuery
from game.core.geometry.movement.tangents import ARC, STRAIGHT, Enemies, clear_of_enemies
from game.core.geometry.terrain import walking_level
from game.core.settings import Settings
from game.core.tolerance import EPS

CSR_CACHE = "movement.field.csr"


@lru_cache(maxsize=1)
def kernels() -> types.SimpleNamespace:
    """The compiled field kernels (game.core.geometry.jit), or the Python ones when numba is unavailable."""
    return compile_kernels((fieldkernels,))


def static_arrays(bf: Battlefield, g: NavGraph) -> tuple[Ints, Ints, Floats, Ints]:
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
class QueryNodes:
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
    qnodes: dict[int, QueryNodes] | None = None  # per corner and side (lazily)
    incoming: dict[int, list[tuple[int, float, int]]] | None = None  # the query's own edges by head (lazily)
    nodes: tuple[list[float], list[float], list[float], Ints, Ints, Floats] | None = None  # see `node_table`

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
        xs, ys, zs, _, _, noff = node_table(self)
        pk = self.pkind[order]
        arcs = [w for w, k in zip(order, pk.tolist(), strict=True) if k == ARC]
        verts = dict(zip(arcs, arc_polylines(self, [int(parent[w]) for w in arcs], noff[arcs]), strict=True))
        for w in order:
            pts = list(memo[int(parent[w])])
            extend_path(pts, [*verts.get(w, ()), (xs[w], ys[w], zs[w])])
            memo[w] = tuple(pts)


def node_table(f: CostField) -> tuple[list[float], list[float], list[float], Ints, Ints, Floats]:
    """Every node of the field's query as `PathQuery.point3` and `node_arc` give it: x, y, z of its level, corner,
    turning side and angle offset (graph nodes, then the query's)."""
    if f.nodes is None:
        q, g = f.query, f.query.g
        gx, gy, _ = g.node_lists
        lz = {lid: nav.z for lid, nav in g.navs.items()}
        f.nodes = (gx + q.qx.tolist(), gy + q.qy.tolist(), _static_heights(q.bf, g) + [lz[lv] for lv in q.ql.tolist()],
                   np.concatenate([g.ncircle, q.qc]), np.concatenate([g.ns, q.qs]), np.concatenate([g.noff, q.qo]))
    return f.nodes


def arc_polylines(f: CostField, tails: Sequence[int], offsets: Floats) -> list[list[Point3]]:
    """`PathQuery.arc_points` for many arcs, each from a node round its corner to an angle offset, by one
    `arc_vertices` call (its formula, element by element)."""
    n = len(tails)
    if not n:
        return []
    q = f.query
    _, _, zs, ncircle, ns, noff = node_table(f)
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


def extend_path(pts: list[Point3], more: Sequence[Point3]) -> None:
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
    sptr, sto, scost, skind = static_arrays(bf, g)
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
    flat = [e for u in sorted(q.extra) for e in q.extra[u]]  # by tail node, each in its order: where ptr puts them
    to = np.array([e[0] for e in flat], np.int64)
    cost = np.array([e[1] for e in flat], np.float64)
    kind = np.array([e[2] for e in flat], np.int64)
    return ptr, to, cost, kind


def query_nodes(f: CostField) -> dict[int, QueryNodes]:
    """The query's own nodes per corner and side (see `QueryNodes`), built once per field."""
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
    out: dict[int, QueryNodes] = {}
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
        out[int(key)] = QueryNodes(q.qo[idx], idx + q.N, pc, pp)
    f.qnodes = out
    return out


# --- arrivals at many end points ------------------------------------------------------------------------------


@dataclass(slots=True)
class Goals:
    """What the query for one end alone would hold beyond the field: which corners and points it joins."""

    near_c: Bools  # per corner (graph corners, then enemy bases): joined to the start and goal (2 r slack)
    px: Floats  # the end point
    py: Floats


def present(f: CostField, goals: Goals, e: int, qn: QueryNodes) -> Bools:
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


def enemies_at(q: PathQuery, lid: int) -> Enemies:
    sel = q.el == lid
    return (q.ex[sel], q.ey[sel], q.er[sel])


def enemy_list(ens: Enemies) -> list[tuple[float, float, float]]:
    """Enemy arrays as the search's per-level list of (x, y, r + r_enemy)."""
    return list(zip(ens[0].tolist(), ens[1].tolist(), ens[2].tolist(), strict=True))


def hits(ens: list[tuple[float, float, float]], ux: float, uy: float, vx: float, vy: float,
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


def arc_blocked(q: PathQuery, ens: list[tuple[float, float, float]], ci: int, ux: float, uy: float, vx: float,
                 vy: float) -> bool:
    """`search._blocked` for an arc edge on corner ci: its chord, the enemies grown by the arc's sagitta; arcs
    round an enemy base are exempt."""
    if not ens or ci >= q.nc:
        return False
    r = float(q.cr[ci])
    half = math.hypot(vx - ux, vy - uy) / 2
    sag = r - math.sqrt(max(0.0, r * r - half * half)) + r * (1 / math.cos(ARC_STEP / 2) - 1)
    return hits(ens, ux, uy, vx, vy, sag)


def pop_key(f: CostField, u: int, gx: float, gy: float) -> tuple[float, float, int]:
    """When A* toward (gx, gy) settles node u: its (f, cost, id) heap entry, the order ties are decided in."""
    x, y = f.query.node_xy(u)
    d = float(f.dist[u])
    return (d + math.hypot(float(x) - gx, float(y) - gy), d, u)


def chain_of(f: CostField, u: int) -> list[int]:
    """The nodes of the field's path to u, source first."""
    out = [u]
    while f.parent[out[-1]] >= 0:
        out.append(int(f.parent[out[-1]]))
    out.reverse()
    return out


def crosses_enemies(path: Sequence[Point3], enemies: Sequence[Base], *, radius: float, height: float) -> bool:
    """Does the centre path pass within r + r_enemy of an enemy base at its level (GEO-8)? The test
    `shortest_path` makes on its first pass before it routes round the enemy bases."""
    if len(path) < 2:
        return False
    # the enemies near the path's box, then those at its levels: both filters keep list order, so the same ones
    # as the other way round, with the cheap one first (the overlap test reads a point's z alone: each level once)
    xs = [p[0] for p in path]
    ys = [p[1] for p in path]
    lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
    ens = [e for e in enemies if lo_x - radius - e.radius <= e.x <= hi_x + radius + e.radius
           and lo_y - radius - e.radius <= e.y <= hi_y + radius + e.radius]
    zs = {p[2] for p in path} if ens else set()
    ens = [e for e in ens if any(vertically_overlap(z, height, e.z, e.height) for z in zs)]
    if not ens:
        return False
    arr = np.asarray(path)
    at = (np.asarray([e.x for e in ens]), np.asarray([e.y for e in ens]),
          np.asarray([radius + e.radius for e in ens]))
    return not bool(clear_of_enemies(at, arr[:-1, 0], arr[:-1, 1], arr[1:, 0], arr[1:, 1]).all())
