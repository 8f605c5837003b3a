"""GEO-7, GEO-8, GEO-24, GAP-85/86: the exact cost and legality of a base's centre path
(game/core/geometry/movement/cost.py)."""
from __future__ import annotations

import math

import pytest

from game.core.battlefield import Base, Battlefield, Connector, ConnectorKind, Movement, TerrainPiece
from game.core.geometry.movement.cost import SegmentKind, path_cost
from game.core.geometry.polygon import rect
from game.core.rules.stats import move_allowance
from game.core.state import ModelState
from tests.enginekit import profile

R, H = 0.5, 1.25


def piece(pid: int, fp, top: float, **kw) -> TerrainPiece:  # type: ignore[no-untyped-def]
    return TerrainPiece(pid, kw.pop("name", f"p{pid}"), tuple(fp), kw.pop("bottom", 0.0), top, **kw)


def table(*pieces: TerrainPiece, connectors=(), size=(24.0, 24.0)) -> Battlefield:  # type: ignore[no-untyped-def]
    return Battlefield("t", size[0], size[1], pieces=tuple(pieces), connectors=tuple(connectors))


def cost(bf: Battlefield, start, *pts, allowance=None, others=(), side="a", **kw):  # type: ignore[no-untyped-def]
    return path_cost(bf, start, list(pts), radius=R, height=H, allowance=allowance, others=others, side=side, **kw)


WALL = piece(1, rect(10, 4, 10.5, 16), 3.0, movement=Movement.IMPASSABLE, name="wall")


def test_tv06_tv32_allowance_as_centre_travel() -> None:
    """TV-06/TV-32 as distances (GEO-8, GAP-86): a 6" Move with a 1" base lets the centre travel 7"; the Rookie
    with LMG in a Rainstorm moves 3" + 1"; a Hustling Hardened covers 7 + 9 = 16" in two Moves."""
    bf = table()
    m = ModelState("m", "m", "a", profile(move=6.0))
    seven = move_allowance(m, hustle_bonus=False).inches
    assert seven == 7.0
    assert cost(bf, (2, 2, 0), (9, 2), allowance=seven).legal
    over = cost(bf, (2, 2, 0), (9.01, 2), allowance=seven)
    assert not over.legal and over.rule == "GEO-8" and abs(over.excess - 0.01) < 1e-9 and over.segment == 1
    rookie = ModelState("r", "r", "a", profile(move=5.0, actions=1, support=True))
    four = move_allowance(rookie, hustle_bonus=False, rainstorm=True).inches
    assert four == 4.0
    assert cost(bf, (2, 2, 0), (6, 2), allowance=four).legal and not cost(bf, (2, 2, 0), (6.2, 2), allowance=four).legal
    hard = ModelState("h", "h", "a", profile(move=6.0, skills=("hustle",)))
    two = move_allowance(hard, hustle_bonus=False).inches + move_allowance(hard, hustle_bonus=True).inches
    assert two == 16.0


def test_path_through_a_wall_is_refused_naming_segment_piece_and_depth() -> None:
    """GEO-7: the base may not overlap impassable terrain at its level; the verdict names the segment and piece."""
    bf = table(WALL)
    v = cost(bf, (5, 10, 0), (8, 10), (15, 10))
    assert not v.legal and v.rule == "GEO-7" and v.segment == 2 and v.piece == 1
    assert "wall" in v.reason and abs(v.excess - R) < 1e-9  # the centre line crosses: overlap depth r
    grazing = cost(bf, (5, 3.45, 0), (15, 3.45))  # passes 0.55" from the wall's end: legal
    assert grazing.legal and abs(grazing.cost - 10.0) < 1e-12
    touching = cost(bf, (5, 3.5, 0), (15, 3.5))  # exactly r from the wall: still legal (tolerance EPS)
    assert touching.legal


def test_path_round_a_wall_longer_than_the_allowance_is_refused() -> None:
    """GEO-8: the way round costs more than 7"; refused with how far over, and nothing is reported legal."""
    bf = table(WALL)
    detour = [(9.5, 3.5), (11.0, 3.5), (15, 10)]
    v = cost(bf, (5, 10, 0), *detour, allowance=7.0)
    length = math.dist((5, 10), (9.5, 3.5)) + 1.5 + math.dist((11, 3.5), (15, 10))
    assert not v.legal and v.rule == "GEO-8" and "too far" in v.reason
    assert abs(v.cost - length) < 1e-9 or v.cost <= length
    assert cost(bf, (5, 10, 0), *detour).legal
    assert abs(cost(bf, (5, 10, 0), *detour).cost - length) < 1e-9


def test_difficult_ground_costs_double() -> None:
    """GAP-85 (`move.difficult_mult`=2): each inch of centre path inside difficult ground costs 2"."""
    rubble = piece(2, rect(6, 0, 8, 24), 0.75, movement=Movement.DIFFICULT, name="rubble")
    bf = table(rubble)
    v = cost(bf, (4, 5, 0), (10, 5))
    assert v.legal and abs(v.cost - 8.0) < 1e-9 and abs(v.segments[0].difficult - 2.0) < 1e-9
    assert v.segments[0].pieces == (2,)
    assert cost(bf, (4, 5, 0), (10, 5), allowance=7.0).legal is False
    ends_in = cost(bf, (4, 5, 0), (7, 5))  # a base may end in difficult ground (GEO-7)
    assert ends_in.legal and abs(ends_in.cost - 4.0) < 1e-9


def test_low_obstacle_is_crossed_free_but_not_stood_on() -> None:
    """GEO-8/GEO-7: a 1" hedge costs nothing extra to cross and may not be ended on; a platform may."""
    hedge = piece(3, rect(6, 0, 6.5, 24), 1.0, name="hedge", kind="hedge")
    plat = piece(4, rect(14, 4, 16, 6), 0.75, platform=True, name="crates")
    bf = table(hedge, plat)
    v = cost(bf, (4, 5, 0), (10, 5))
    assert v.legal and abs(v.cost - 6.0) < 1e-12
    on = cost(bf, (4, 5, 0), (6.25, 5))
    assert not on.legal and on.piece == 3 and on.rule == "GEO-7"
    up = cost(bf, (10, 5, 0), (15, 5))
    assert up.legal and up.end_z == 0.75


def test_climb_onto_a_3_inch_roof() -> None:
    """GEO-24/CORE-3.3.CLIMB: a climbable 3" block with a flat top: 2" per inch climbed, then onto the roof."""
    block = piece(5, rect(8, 8, 12, 12), 3.0, movement=Movement.IMPASSABLE, surface=True, climbable=True,
                  name="container")
    bf = table(block)
    v = cost(bf, (4, 10, 0), (7.5, 10), (8.2, 10, 3.0), (10, 10))
    assert v.legal, v.reason
    kinds = [s.kind for s in v.segments]
    assert kinds == [SegmentKind.WALK, SegmentKind.CLIMB, SegmentKind.WALK]
    assert abs(v.cost - (3.5 + 0.7 + 6.0 + 1.8)) < 1e-9 and v.end_z == 3.0 and v.climbs
    slow = cost(bf, (4, 10, 0), (7.5, 10), (8.2, 10, 3.0), can_climb=False)
    assert not slow.legal and slow.rule == "GEO-24"
    not_climbable = table(piece(5, rect(8, 8, 12, 12), 3.0, movement=Movement.IMPASSABLE, surface=True))
    assert not cost(not_climbable, (4, 10, 0), (7.5, 10), (8.2, 10, 3.0)).legal
    down = cost(bf, (10, 10, 3.0), (8.2, 10), (7.5, 10, 0.0))  # down costs the same (GEO-24)
    assert down.legal and abs(down.cost - (1.8 + 0.7 + 6.0)) < 1e-9


def test_up_and_over_a_climbable_wall() -> None:
    """GEO-24: a climbable wall that is not a floor is climbed up and over: 2" per inch each way."""
    ruin = piece(6, rect(10, 0, 10.25, 24), 2.0, movement=Movement.IMPASSABLE, climbable=True, name="ruin")
    bf = table(ruin)
    v = cost(bf, (8, 5, 0), (12, 5))
    assert v.legal and abs(v.cost - (4.0 + 8.0)) < 1e-9 and v.climbs
    assert not cost(bf, (8, 5, 0), (12, 5), can_climb=False).legal


def test_stairs_between_floors_at_the_normal_rate() -> None:
    """CORE-3.3.CLIMB/GEO-8: stairs are walked at their 3D length, not climbed."""
    walls = piece(7, rect(10, 4, 14, 10), 3.0, movement=Movement.IMPASSABLE, name="house")
    floor = piece(8, rect(10, 4, 14, 10), 3.25, bottom=3.0, surface=True, name="roof")
    stairs = Connector(9, "stairs", ConnectorKind.STAIRS, (6.0, 7.0, 0.0), (10.0, 7.0, 3.0))
    bf = table(walls, piece(8, rect(10, 4, 14, 10), 3.0, bottom=3.0, surface=True, name="roof"), connectors=[stairs])
    del floor
    v = cost(bf, (3, 7, 0), (6, 7), (10, 7, 3.0), (12, 7))
    assert v.legal, v.reason
    assert [s.kind for s in v.segments] == [SegmentKind.WALK, SegmentKind.STAIRS, SegmentKind.WALK]
    assert abs(v.cost - (3 + 5.0 + 2)) < 1e-9 and v.end_z == 3.0
    air = cost(bf, (3, 7, 0), (6, 7), (10, 7, 3.0), (16, 7))
    assert not air.legal and air.rule == "GEO-7" and "edge" in air.reason


def test_enemies_block_friends_do_not_but_may_not_be_ended_on() -> None:
    """GEO-8: no passing through enemy bases; friends may be passed, not ended on (GEO-6)."""
    bf = table()
    enemy = Base("e", 8, 5, 0, 0.5, 1.25, "b")
    friend = Base("f", 8, 5, 0, 0.5, 1.25, "a")
    assert not cost(bf, (4, 5, 0), (12, 5), others=[enemy]).legal
    assert cost(bf, (4, 5, 0), (12, 5), others=[friend]).legal
    end = cost(bf, (4, 5, 0), (8.5, 5), others=[friend])
    assert not end.legal and end.rule == "GEO-6"
    upstairs = Base("e2", 8, 5, 3.25, 0.5, 1.25, "b")  # a base on the floor above is not in the way
    assert cost(bf, (4, 5, 0), (12, 5), others=[upstairs]).legal


@pytest.mark.parametrize("bad, rule", [((30, 5), "GEO-26"), ((0.2, 5), "GEO-26"), ((float("nan"), 5), "GEO-1"),
                                       ((5, 5, 2.0), "GEO-7")])
def test_bad_waypoints_are_refused_with_the_rule(bad, rule) -> None:  # type: ignore[no-untyped-def]
    """GEO-26/GEO-1/GEO-7: off the table, not a number, or a height with no floor."""
    v = cost(table(WALL), (4, 5, 0), bad)
    assert not v.legal and v.rule == rule and v.reason
