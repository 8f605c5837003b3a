"""GEO-17 indirect arcs and shadows (TV-15) and GEO-18 deviation (TV-16) on tiny inline boards."""
from __future__ import annotations

import math

import pytest

from game.core.battlefield import Base, Battlefield, Cover, Scene, TerrainPiece
from game.core.geometry.indirect import deviation_distance, deviation_point, indirect_arc, indirect_arc_point
from game.core.geometry.sight.naive import NAIVE
from game.core.settings import Settings


def model(mid, x, y, z=0.0):
    return Base(mid, x, y, z, 0.5, 1.25, "crew")


def wall_board(top):
    wall = TerrainPiece(1, "concrete wall", ((10, 0), (10.5, 0), (10.5, 24), (10, 24)), 0.0, top,
                        blocks_los=True, cover=Cover.HARDENED)
    return Battlefield("inline", 36.0, 24.0, pieces=(wall,))


def test_tv15_two_inch_wall_casts_a_two_inch_shadow():
    bf = wall_board(2.0)
    inside = Scene(bases=(model("A", 2.0, 12.0), model("T", 10.5 + 1.9 + 0.5, 12.0)))
    outside = Scene(bases=(model("A", 2.0, 12.0), model("T", 10.5 + 2.1 + 0.5, 12.0)))
    fact = indirect_arc(bf, inside, "A", "T")
    assert not fact.legal and fact.forbidden_by == (1,) and fact.rule == "GEO-17"
    assert fact.shadows[0].height_above_target == 2.0 and not fact.in_los
    assert indirect_arc(bf, outside, "A", "T").legal


def test_tv15_three_inch_wall_thrower_within_three_inches_is_legal_at_three_and_a_half_not():
    bf = wall_board(3.0)
    bandit = model("T", 10.5 + 2.5 + 0.5, 12.0)  # within 3" behind the wall
    near = Scene(bases=(model("A", 10.0 - 3.0 - 0.5, 12.0), bandit))
    far = Scene(bases=(model("A", 10.0 - 3.5 - 0.5, 12.0), bandit))
    ok = indirect_arc(bf, near, "A", "T")
    assert ok.legal and ok.shadows[0].attacker_in_shadow and ok.shadows[0].target_in_shadow
    bad = indirect_arc(bf, far, "A", "T")
    assert not bad.legal and "not" in bad.reasons[0]
    assert indirect_arc(bf, far, "A", "T", backend=NAIVE) == bad


def test_geo17_target_on_top_is_never_in_the_shadow_and_points_can_be_targeted():
    bf = wall_board(2.0)
    on_top = Scene(bases=(model("A", 2.0, 12.0), model("T", 10.25, 12.0, 2.0)))
    fact = indirect_arc(bf, on_top, "A", "T")
    assert fact.legal and fact.shadows[0].height_above_target == 0.0
    sc = Scene(bases=(model("A", 2.0, 12.0),))
    assert not indirect_arc_point(bf, sc, "A", (11.5, 12.0)).legal
    open_point = indirect_arc_point(bf, sc, "A", (6.0, 12.0))
    assert open_point.legal and open_point.in_los


def test_tv16_deviation_distances_and_mean():
    assert [deviation_distance(k) for k in (1, 4, 7, 10)] == [0.5, 2.0, 3.5, 5.0]
    assert sum(deviation_distance(k) for k in range(1, 11)) / 10 == 2.75
    assert deviation_distance(3, settings=Settings({"deviation.distance": "roll*2"})) == 6.0
    with pytest.raises(ValueError, match="1..10"):
        deviation_distance(11)


def test_geo18_deviation_point_is_a_pure_function_and_may_leave_the_table():
    fact = deviation_point((1.0, 1.0), 10, math.pi)
    assert fact.point == pytest.approx((-4.0, 1.0)) and fact.distance == 5.0 and fact.rule == "GEO-18"
    assert deviation_point((1.0, 1.0), 10, math.pi) == fact
    down = deviation_point((10.0, 10.0), 4, math.pi / 2)  # +y is down the screen (GEO-1)
    assert down.point == pytest.approx((10.0, 12.0))
