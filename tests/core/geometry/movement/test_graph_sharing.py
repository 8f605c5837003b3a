"""Speed without a change of answer (issue 15, Speed): NavGraphs shared between model heights that block the same
pieces (`graph.height_class`), and the straight-line answer of `shortest_path` that skips the graph (GEO-27)."""
from __future__ import annotations

import random

import numpy as np
import pytest
import shapely

from game.core.battlefield import Base, Battlefield, Movement, TerrainPiece
from game.core.geometry.movement import graph as navgraph
from game.core.geometry.movement import paths
from game.core.geometry.movement.paths import shortest_path
from game.core.geometry.movement.positions import position_fact
from game.core.geometry.polygon import rect
from game.core.geometry.terrain import levels
from tests.paths import MAPS

ARRAYS = ("cx", "cy", "c0", "cw", "clevel", "nx", "ny", "nlevel", "ncircle", "ns", "noff")


def _same_graph(a: navgraph.NavGraph, b: navgraph.NavGraph) -> None:
    for name in ARRAYS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.adj == b.adj
    assert a.level_links == b.level_links
    assert sorted(a.points) == sorted(b.points)
    assert all(np.array_equal(a.points[k], b.points[k]) for k in a.points)
    assert sorted(a.chains) == sorted(b.chains)
    assert sorted(a.navs) == sorted(b.navs)
    for lid in a.navs:
        assert a.navs[lid].blocker_parts == b.navs[lid].blocker_parts


def _map(name: str) -> Battlefield:
    from game.maps.loader import load_map

    return load_map(str(MAPS / f"{name}.tmx"))


@pytest.mark.parametrize(("name", "radius", "first", "second"), [
    ("bench-town", 0.5, 0.75, 1.25),  # human and dog bodies (game/data/bodies.toml)
    ("ishikhov", 0.5, 0.75, 1.25),  # upper floors and stairs
])
def test_a_shared_graph_is_the_separately_built_one(name: str, radius: float, first: float, second: float) -> None:
    bf = _map(name)
    assert navgraph.height_class(bf, first) == navgraph.height_class(bf, second)
    built_first = navgraph.graph(bf, radius, first)
    shared = navgraph.graph(bf, radius, second)
    assert shared.stats.get("shared") == 1 and shared.height == second and built_first.height == first
    _same_graph(shared, navgraph.build(bf, radius, second))


def test_heights_that_block_different_pieces_get_their_own_graph() -> None:
    # a beam from 1" to 3" above the ground: a 0.75" dog passes under it (its top clears 1"), a 1.25" human does not
    beam = TerrainPiece(1, "beam", rect(10, 4, 11, 20), 1.0, 3.0, movement=Movement.IMPASSABLE)
    bf = Battlefield("beam", 24.0, 24.0, pieces=(beam,))
    assert navgraph.height_class(bf, 0.75) != navgraph.height_class(bf, 1.25)
    dog, human = navgraph.graph(bf, 0.5, 0.75), navgraph.graph(bf, 0.5, 1.25)
    assert "shared" not in human.stats and len(human.cx) > len(dog.cx)
    through = shortest_path(bf, (5.0, 12.0, 0.0), (16.0, 12.0, 0.0), radius=0.5, height=0.75)
    around = shortest_path(bf, (5.0, 12.0, 0.0), (16.0, 12.0, 0.0), radius=0.5, height=1.25)
    assert through.found and around.found and around.cost > through.cost + 1.0


def _legal_spot(bf: Battlefield, rng: random.Random, z: float, others: list[Base]) -> tuple[float, float, float]:
    while True:
        x, y = rng.uniform(1, bf.width - 1), rng.uniform(1, bf.height - 1)
        lv = next((lv for lv in levels(bf) if abs(lv.z - z) < 1e-6), None)
        if lv is not None and lv.support is not None and not lv.support.contains(shapely.Point(x, y)):
            continue
        if position_fact(bf, x, y, z, radius=0.5, height=1.25, others=others).legal:
            return (x, y, z)


def test_the_straight_answer_is_the_searched_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a real map with enemy and friendly bases about: wherever the straight line is taken without the graph,
    the graph search (the shortcut switched off) finds the same path, cost and verdict; with and without budget."""
    bf = _map("crossroads-blyatsk")
    rng = random.Random(15)
    others: list[Base] = []
    for k in range(8):
        x, y, z = _legal_spot(bf, rng, 0.0, others)
        others.append(Base(f"m{k}", x, y, z, 0.5, 1.25, "a" if k % 2 else "b"))
    cases = []
    for _ in range(60):
        a, b = _legal_spot(bf, rng, 0.0, others), _legal_spot(bf, rng, 0.0, others)
        cases.append((a, b, rng.choice([None, 6.0, 12.0, 40.0])))
    quick = [shortest_path(bf, a, b, radius=0.5, height=1.25, others=others, side="a", budget=bud)
             for a, b, bud in cases]
    straight = sum(1 for r in quick if r.found and len(r.points) == 2 and r.expanded == 0)
    monkeypatch.setattr(paths, "_straight", lambda *a, **k: None)
    slow = [shortest_path(bf, a, b, radius=0.5, height=1.25, others=others, side="a", budget=bud)
            for a, b, bud in cases]
    assert straight >= 5, "the sample should hold straight answers"
    for q, s in zip(quick, slow, strict=True):
        assert (q.found, q.cost, q.points, q.fact, q.reason) == (s.found, s.cost, s.points, s.fact, s.reason)


def test_arcs_written_together_are_the_arcs_written_one_by_one() -> None:
    """`PathQuery.polyline` writes a path's arcs by one `arc_vertices` call (`arcs_points`): the points are those
    of `arc_points` arc by arc, on paths that wind round many corners."""
    from itertools import pairwise

    from game.core.geometry.movement.query import PathQuery
    from game.core.geometry.movement.search import search
    from game.core.geometry.movement.tangents import ARC

    bf = _map("crossroads-blyatsk")
    g = navgraph.graph(bf, 0.5, 1.25)
    rng = random.Random(7)
    arcs_seen = 0
    for _ in range(12):
        a, b = _legal_spot(bf, rng, 0.0, []), _legal_spot(bf, rng, 0.0, [])
        q = PathQuery(g, bf, a, b, 200.0, [], True)
        _, parent, _ = search(q)
        if q.G not in parent:
            continue
        chain, kinds = [q.G], []
        while chain[-1] in parent:
            u, k = parent[chain[-1]]
            kinds.append(k)
            chain.append(u)
        chain.reverse()
        kinds.reverse()
        arcs = [uv for uv, k in zip(pairwise(chain), kinds, strict=True) if k == ARC]
        arcs_seen += len(arcs)
        assert q.arcs_points(arcs) == [q.arc_points(u, v) for u, v in arcs]
    assert arcs_seen >= 10
