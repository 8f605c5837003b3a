"""GEO-27 shortest legal paths (game/core/geometry/movement/graph.py, game/core/geometry/movement/paths.py) against
independent oracles."""
from __future__ import annotations

import heapq
import math

import numpy as np
import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from game.core.battlefield import Base, Battlefield, Connector, ConnectorKind, Movement, TerrainPiece
from game.core.geometry.movement import graph as navgraph
from game.core.geometry.movement.cost import path_cost
from game.core.geometry.movement.paths import shortest_path
from game.core.geometry.movement.positions import position_fact
from game.core.geometry.polygon import rect

R, H = 0.5, 1.25


def wall(pid: int, x0: float, y0: float, x1: float, y1: float, **kw) -> TerrainPiece:  # type: ignore[no-untyped-def]
    return TerrainPiece(pid, f"w{pid}", rect(x0, y0, x1, y1), kw.pop("bottom", 0.0), kw.pop("top", 3.0),
                        movement=kw.pop("movement", Movement.IMPASSABLE), **kw)


def oracle(bf: Battlefield, a, b, q: int = 16) -> float:  # type: ignore[no-untyped-def]
    """An independent upper bound: Dijkstra over the vertices of obstacles inflated by a fine polygon that
    circumscribes the base (q segments per quarter circle), every pair tested by the GEO-7 distance rule."""
    polys = [shapely.Polygon(p.footprint) for p in bf.pieces if p.impassable_at(0.0, H)]
    grown = shapely.union_all([p.buffer(R / math.cos(math.pi / (4 * q)), quad_segs=q) for p in polys])
    nodes = [a[:2], b[:2]]
    for g in shapely.get_parts(grown):
        for xy in np.asarray(g.exterior.coords)[:-1]:
            if R <= xy[0] <= bf.width - R and R <= xy[1] <= bf.height - R:
                nodes.append(tuple(xy))
    pts = np.asarray(nodes)
    n = len(pts)
    i, j = np.triu_indices(n, 1)
    lines = shapely.linestrings(np.stack([pts[i], pts[j]], axis=1))
    tree = shapely.STRtree(polys)
    hit = tree.query(lines, predicate="dwithin", distance=R - 1e-6)
    ok = np.ones(len(i), bool)
    ok[np.unique(hit[0])] = False
    adj: dict[int, list[tuple[int, float]]] = {k: [] for k in range(n)}
    for u, v in zip(i[ok], j[ok], strict=False):
        d = float(np.hypot(*(pts[u] - pts[v])))
        adj[u].append((v, d))
        adj[v].append((u, d))
    dist = {0: 0.0}
    heap = [(0.0, 0)]
    while heap:
        d, u = heapq.heappop(heap)
        if u == 1:
            return d
        if d > dist.get(u, math.inf):
            continue
        for v, w in adj[u]:
            if d + w < dist.get(v, math.inf):
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    return math.inf


def test_around_one_wall_matches_the_oracle_and_is_legal() -> None:
    """GEO-27: optimal within 0.01" where cost is uniform; the answer passes the player's cost function."""
    bf = Battlefield("t", 24, 24, pieces=(wall(1, 10, 4, 10.5, 16),))
    a, b = (6.0, 10.0, 0.0), (15.0, 11.0, 0.0)
    res = shortest_path(bf, a, b, radius=R, height=H)
    assert res.found and res.fact is not None and res.fact.legal
    best = oracle(bf, a, b)
    assert best - 0.01 <= res.cost <= best + 1e-6
    assert abs(res.fact.cost - res.cost) < 0.01  # the written path (arcs as polylines) costs the same


def test_graph_is_cached_per_map_and_base_size() -> None:
    """GEO-27: built once per (map, base radius) and kept in Battlefield.cache; cleared on demand."""
    bf = Battlefield("t", 24, 24, pieces=(wall(1, 10, 4, 10.5, 16),))
    g1 = navgraph.graph(bf, R, H)
    assert navgraph.graph(bf, R, H) is g1 and navgraph.graph(bf, 0.8, 1.75) is not g1
    navgraph.clear_cache(bf)
    assert navgraph.graph(bf, R, H) is not g1


rects = st.tuples(st.floats(2, 18), st.floats(2, 18), st.floats(0.25, 5), st.floats(0.25, 5))


@settings(max_examples=30, deadline=None, derandomize=True)
@given(boxes=st.lists(rects, min_size=1, max_size=4), ends=st.tuples(*[st.floats(0.6, 19.4)] * 4))
def test_property_uniform_paths_are_legal_and_optimal(boxes, ends) -> None:  # type: ignore[no-untyped-def]
    """Property (uniform cost, GEO-7/GEO-27): a shortest path never crosses an obstacle (the cost function finds
    it legal), never exceeds its budget, and is within 0.01" of an independent fine-polygon oracle, which
    itself is never shorter than a legal hand-made path."""
    bf = Battlefield("t", 20, 20, pieces=tuple(wall(k + 1, x, y, x + w, y + h) for k, (x, y, w, h) in enumerate(boxes)))
    a, b = (ends[0], ends[1], 0.0), (ends[2], ends[3], 0.0)
    assume(position_fact(bf, *a, radius=R, height=H).legal and position_fact(bf, *b, radius=R, height=H).legal)
    res = shortest_path(bf, a, b, radius=R, height=H)
    best = oracle(bf, a, b)
    if not res.found:
        assert best == math.inf
        return
    assert res.fact is not None and res.fact.legal
    assert res.cost <= best + 1e-6 and res.cost >= best - 0.01
    budgeted = shortest_path(bf, a, b, radius=R, height=H, budget=res.cost + 0.05)
    assert budgeted.found and budgeted.fact.cost <= res.cost + 0.05 + 1e-6
    if res.cost > 0.1:
        assert not shortest_path(bf, a, b, radius=R, height=H, budget=res.cost - 0.05).found


@settings(max_examples=40, deadline=None, derandomize=True)
@given(via=st.tuples(st.floats(0.6, 19.4), st.floats(0.6, 19.4)), ends=st.tuples(*[st.floats(0.6, 19.4)] * 4))
def test_property_never_longer_than_a_hand_made_path(via, ends) -> None:  # type: ignore[no-untyped-def]
    """Property (hand-made paths, GEO-27): whenever a one-waypoint path of the player's is legal, the shortest
    path costs no more (tolerance 0.01"), with walls and difficult ground on the table."""
    bf = Battlefield("t", 20, 20, pieces=(
        wall(1, 6, 3, 6.5, 14), wall(2, 11, 8, 15, 8.5),
        TerrainPiece(3, "mud", rect(8, 12, 12, 17), 0.0, 0.5, movement=Movement.DIFFICULT)))
    a, b = (ends[0], ends[1], 0.0), (ends[2], ends[3], 0.0)
    hand = path_cost(bf, a, [via, b[:2]], radius=R, height=H)
    assume(hand.legal and position_fact(bf, *a, radius=R, height=H).legal)
    res = shortest_path(bf, a, b, radius=R, height=H)
    assert res.found and res.fact.legal
    tol = max(0.01, 0.01 * hand.cost) if any(s.difficult for s in hand.segments) else 0.01
    assert res.fact.cost <= hand.cost + tol


def test_difficult_ground_within_tolerance_of_refraction_oracle() -> None:
    """GEO-27 through difficult ground: within max(0.1", 1%) of the best crossing found by brute force."""
    mud = TerrainPiece(1, "mud", rect(6, 0, 9, 20), 0.0, 0.5, movement=Movement.DIFFICULT)
    bf = Battlefield("t", 20, 20, pieces=(mud,))
    a, b = (2.0, 3.0, 0.0), (14.0, 12.0, 0.0)
    ys = np.linspace(0.5, 19.5, 1901)
    y1, y2 = np.meshgrid(ys, ys)
    total = np.hypot(6 - 2, y1 - 3) + 2 * np.hypot(3, y2 - y1) + np.hypot(14 - 9, 12 - y2)
    best = float(total.min())
    res = shortest_path(bf, a, b, radius=R, height=H)
    assert res.found and res.fact.legal
    assert best - 1e-6 <= res.fact.cost <= best + max(0.1, 0.01 * best)
    straight = path_cost(bf, a, [b[:2]], radius=R, height=H).cost
    assert res.fact.cost < straight - 0.3  # bending to cross the mud where it is narrow pays


def test_stairs_join_floors_and_unreachable_roofs_are_reported() -> None:
    """GEO-27 between surfaces: stairs at their 3D length; a roof with no way up has no path."""
    house = wall(1, 10, 4, 14, 10)
    roof = TerrainPiece(2, "roof", rect(10, 4, 14, 10), 3.0, 3.0, surface=True)
    shed = wall(3, 2, 14, 5, 17)
    shed_roof = TerrainPiece(4, "shed roof", rect(2, 14, 5, 17), 3.0, 3.0, surface=True)
    stairs = Connector(5, "stairs", ConnectorKind.STAIRS, (6.0, 7.0, 0.0), (10.0, 7.0, 3.0))
    bf = Battlefield("t", 20, 20, pieces=(house, roof, shed, shed_roof), connectors=(stairs,))
    res = shortest_path(bf, (3.0, 7.0, 0.0), (12.0, 7.0, 3.0), radius=R, height=H)
    assert res.found and res.fact.legal and res.points[-1][2] == 3.0
    assert res.cost == pytest.approx(3.0 + 5.0 + 2.0, abs=0.01)
    down = shortest_path(bf, (12.0, 7.0, 3.0), (3.0, 7.0, 0.0), radius=R, height=H)
    assert down.found and down.cost == pytest.approx(res.cost, abs=0.01)
    none = shortest_path(bf, (3.0, 7.0, 0.0), (3.5, 15.5, 3.0), radius=R, height=H)
    assert not none.found and "stairs" in none.reason


def test_climbing_path_onto_a_climbable_roof() -> None:
    """GEO-24/GEO-27: with no stairs the graph climbs a climbable face at 2" per inch."""
    block = TerrainPiece(1, "container", rect(8, 8, 12, 12), 0.0, 3.0, movement=Movement.IMPASSABLE, surface=True,
                         climbable=True)
    bf = Battlefield("t", 20, 20, pieces=(block,))
    res = shortest_path(bf, (4.0, 10.0, 0.0), (10.0, 10.0, 3.0), radius=R, height=H)
    assert res.found and res.fact.legal and res.fact.climbs
    assert 12.0 - 0.01 <= res.cost <= 12.0 + LINK_SLACK
    assert not shortest_path(bf, (4.0, 10.0, 0.0), (10.0, 10.0, 3.0), radius=R, height=H, can_climb=False).found


LINK_SLACK = 0.5  # climb links are sampled every 1" along a face (GEO-24 paths are reported, not toleranced)


def test_enemy_bases_are_walked_round_friends_walked_through() -> None:
    """GEO-8: enemy bases are obstacles added per query; friends may be passed but not ended on."""
    bf = Battlefield("t", 20, 20)
    enemy = Base("e", 10, 10, 0, 0.5, 1.25, "b")
    res = shortest_path(bf, (4.0, 10.0, 0.0), (16.0, 10.0, 0.0), radius=R, height=H, others=[enemy], side="a")
    big = 1.0  # r + r_enemy: the exact detour is two tangents and an arc
    t = math.sqrt(36 - big * big)
    arc = big * (math.pi - 2 * math.acos(big / 6))
    assert res.found and res.fact.legal and res.cost == pytest.approx(2 * t + arc, abs=0.01)
    friend = Base("f", 10, 10, 0, 0.5, 1.25, "a")
    assert shortest_path(bf, (4.0, 10.0, 0.0), (16.0, 10.0, 0.0), radius=R, height=H, others=[friend],
                         side="a").cost == pytest.approx(12.0)
    onto = shortest_path(bf, (4.0, 10.0, 0.0), (10.2, 10.0, 0.0), radius=R, height=H, others=[friend], side="a")
    assert not onto.found and "legal position" in onto.reason
