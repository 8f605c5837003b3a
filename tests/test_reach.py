"""GEO-8/GEO-27 reach regions (game/core/reach.py): the move-range overlay agrees with path costs."""
from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from game.core.battlefield import Base, Battlefield, Movement, TerrainPiece
from game.core.pathfind import shortest_path
from game.core.polygon import rect
from game.core.positions import position_fact
from game.core.reach import reach

R, H = 0.5, 1.25
TOL = 0.1  # the agreement tolerance (inches)


def test_open_table_reach_is_a_disc_clipped_by_the_table_and_other_bases() -> None:
    """GEO-8: with nothing in the way, a 7" allowance reaches a 7" disc of centres, minus other bases (GEO-6)."""
    bf = Battlefield("t", 36, 36)
    region = reach(bf, (18.0, 18.0, 0.0), 7.0, radius=R, height=H)
    assert region.area() == pytest.approx(math.pi * 49, rel=0.002)
    assert region.contains(24.9, 18.0) and not region.contains(25.1, 18.0)
    edge = reach(bf, (2.0, 18.0, 0.0), 7.0, radius=R, height=H)
    assert not edge.contains(0.4, 18.0) and edge.contains(0.6, 18.0)
    friend = Base("f", 21, 18, 0, 0.5, 1.25, "a")
    cut = reach(bf, (18.0, 18.0, 0.0), 7.0, radius=R, height=H, others=[friend], side="a")
    assert not cut.contains(21.0, 18.0) and cut.contains(23.0, 18.0)  # passed, not ended on


SCENE = Battlefield("t", 24, 24, pieces=(
    TerrainPiece(1, "wall", rect(10, 6, 10.5, 15), 0.0, 3.0, movement=Movement.IMPASSABLE),
    TerrainPiece(2, "house", rect(4, 14, 8, 18), 0.0, 3.0, movement=Movement.IMPASSABLE),
    TerrainPiece(3, "mud", rect(13, 9, 17, 13), 0.0, 0.5, movement=Movement.DIFFICULT),
))


def test_reach_goes_round_a_wall_and_pays_double_in_mud() -> None:
    """GEO-8: behind the wall only what the way round allows; in mud half as far."""
    region = reach(SCENE, (8.0, 10.0, 0.0), 7.0, radius=R, height=H)
    assert region.contains(12.0, 10.0) is False  # 4" straight, but the wall forces a 7"+ detour
    assert region.contains(8.0, 4.5)
    mud = reach(SCENE, (12.0, 11.0, 0.0), 3.0, radius=R, height=H)
    assert mud.contains(13.0, 11.0) and mud.contains(13.9, 11.0) and not mud.contains(14.2, 11.0)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(start=st.tuples(st.floats(1, 23), st.floats(1, 23)), probe=st.tuples(st.floats(-8, 8), st.floats(-8, 8)))
def test_property_points_in_reach_are_reachable_and_points_outside_are_not(start, probe) -> None:  # type: ignore[no-untyped-def]
    """Property (reach vs path cost, GEO-27): a point inside the region has a path costing <= budget + 0.1";
    a point outside has none costing <= budget - 0.1" (walls, a house and difficult ground on the table)."""
    s = (start[0], start[1], 0.0)
    assume(position_fact(SCENE, *s, radius=R, height=H).legal)
    p = (s[0] + probe[0], s[1] + probe[1], 0.0)
    assume(position_fact(SCENE, *p, radius=R, height=H).legal)
    region = reach(SCENE, s, 7.0, radius=R, height=H)
    path = shortest_path(SCENE, s, p, radius=R, height=H)
    cost = path.fact.cost if path.found else math.inf
    if region.contains(p[0], p[1], 0.0):
        assert cost <= 7.0 + TOL
    else:
        assert cost >= 7.0 - TOL


def test_reach_region_is_within_the_free_space() -> None:
    """GEO-7: no reachable point overlaps impassable terrain."""
    region = reach(SCENE, (8.0, 10.0, 0.0), 7.0, radius=R, height=H)
    geom = region.regions[0]
    wall = shapely.Polygon(rect(10, 6, 10.5, 15)).buffer(R - 0.01)
    assert geom.intersection(wall).area < 1e-6
