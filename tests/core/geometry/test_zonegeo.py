"""GEO-19..23 on tiny inline boards: Reaction Radius triggers (TV-40), leash, cohesion, Leader and Inspect ranges."""
from __future__ import annotations

import pytest

from game.core.battlefield import Base, Battlefield, Cover, Scene, TerrainPiece
from game.core.geometry.zone import cohesion, inspect_range, leash_ok, order_range, path_triggers


def model(mid, x, y, z=0.0, *, r=0.5):
    return Base(mid, x, y, z, r, 1.25, "crew")


def wall_board():
    wall = TerrainPiece(1, "wall", ((10, 0), (10.5, 0), (10.5, 24), (10, 24)), 0.0, 2.0, blocks_los=True,
                        cover=Cover.HARD)
    return Battlefield("inline", 36.0, 24.0, pieces=(wall,))


def test_tv40_hot_spot_trigger_geometry():
    (hit,) = path_triggers([(-5.0, 3.4), (5.0, 3.4)], 0.5, {"hotspot": (0.0, 0.0)})
    assert hit.triggered and hit.min_distance == pytest.approx(3.4) and hit.limit == 3.5 and hit.rule == "GEO-19"
    (miss,) = path_triggers([(-5.0, 3.6), (5.0, 3.6)], 0.5, {"hotspot": (0.0, 0.0)})
    assert not miss.triggered and miss.min_distance == pytest.approx(3.6)


def test_geo19_passing_through_ending_within_and_many_locations():
    facts = path_triggers([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)], 0.5, [(5.0, 3.0), (13.4, 10.0), (20.0, 20.0)])
    assert [f.triggered for f in facts] == [True, True, False]
    assert facts[1].segment == 1
    (end,) = path_triggers([(20.0, 20.0)], 0.5, {"L": (23.5, 20.0)})
    assert end.triggered and end.segment == -1  # the final centre within 3.5"
    with pytest.raises(ValueError, match="at least one point"):
        path_triggers([], 0.5, {"L": (0.0, 0.0)})


def test_geo20_leash_along_the_whole_path():
    assert leash_ok([(0.0, 0.0), (12.0, 0.0)], (0.0, 0.0)).ok
    bad = leash_ok([(0.0, 0.0), (13.0, 0.0), (5.0, 0.0)], (0.0, 0.0))
    assert not bad.ok and bad.worst_point == (13.0, 0.0) and bad.max_distance == 13.0 and bad.rule == "GEO-20"


def test_geo21_cohesion_is_a_connected_chain():
    chain = [model("a", 0.0, 0.0), model("b", 2.0, 0.0), model("c", 4.0, 0.0)]  # 1" gaps
    assert cohesion(chain).connected and len(cohesion(chain).links) == 2
    broken = [model("a", 0.0, 0.0), model("b", 2.0, 0.0), model("c", 4.2, 0.0)]
    fact = cohesion(broken)
    assert not fact.connected and sorted(map(sorted, fact.groups)) == [["a", "b"], ["c"]]


def test_geo22_order_needs_range_and_los_will_bonus_needs_los():
    bf = wall_board()
    sc = Scene(bases=(model("L", 2.0, 5.0), model("near", 8.0, 5.0), model("far", 2.0, 20.0),
                      model("hidden", 13.0, 5.0)))
    assert order_range(bf, sc, "L", "near").can_order
    far = order_range(bf, sc, "L", "far")
    assert far.distance == pytest.approx(14.0) and not far.can_order and far.will_bonus
    hidden = order_range(bf, sc, "L", "hidden")
    assert hidden.in_range and not hidden.in_los and not hidden.can_order and not hidden.will_bonus


def test_geo23_inspect_range_binoculars_and_los():
    bf = wall_board()
    sc = Scene(bases=(model("A", 2.0, 5.0),))
    assert inspect_range(bf, sc, "A", (8.0, 5.0)).ok
    far = inspect_range(bf, sc, "A", (2.0, 20.0))
    assert far.distance == pytest.approx(14.5) and not far.ok and far.in_los
    assert inspect_range(bf, sc, "A", (2.0, 20.0), binoculars=True).ok
    behind = inspect_range(bf, sc, "A", (12.0, 5.0))
    assert behind.in_range and not behind.in_los and behind.rule == "GEO-23"


def test_geo21_gap_measures_how_far_a_broken_chain_falls_short():
    """GEO-21: `gap` sums, over the shortest links that would join the groups, the inches beyond 1" edge to edge
    (0 for a connected chain); the main group is the largest, the rest are cut off."""
    assert cohesion([model("a", 0.0, 0.0), model("b", 2.0, 0.0)]).gap == 0.0
    fact = cohesion([model("a", 0.0, 0.0), model("b", 2.0, 0.0), model("c", 4.5, 0.0), model("d", 10.0, 0.0)])
    assert fact.gap == pytest.approx(0.5 + 3.5)  # b-c 1.5" edge to edge, c-d 4.5"
    assert fact.main == ("a", "b") and fact.cut_off == ("c", "d") and fact.rule == "GEO-21"
    tie = cohesion([model("a", 0.0, 0.0), model("b", 5.0, 0.0)])
    assert tie.main == ("a",) and tie.cut_off == ("b",) and tie.gap == pytest.approx(3.0)
    assert cohesion([]).connected and cohesion([]).cut_off == ()
