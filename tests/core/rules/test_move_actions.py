"""CORE-3.3.MOVE/CLIMB/JUMP through `apply` (game/core/rules/moves.py): levels, climbs, jumps, triggers, JSON."""
from __future__ import annotations

import dataclasses

import pytest

from game.core.actions import Climb, IllegalAction, Jump, Move, Withdraw, action_from_json
from game.core.battlefield import Anchor, Connector, ConnectorKind, Movement, TerrainPiece
from game.core.dice import ScriptedDice
from game.core.geometry.polygon import rect
from game.core.rules.apply import apply
from game.core.state import SideKind
from tests.enginekit import activate, game, profile


def piece(pid: int, fp, top: float, **kw) -> TerrainPiece:  # type: ignore[no-untyped-def]
    return TerrainPiece(pid, kw.pop("name", f"p{pid}"), tuple(fp), kw.pop("bottom", 0.0), top, **kw)


def on_map(st, *pieces, connectors=(), anchors=()):  # type: ignore[no-untyped-def]
    st.battlefield = dataclasses.replace(st.battlefield, pieces=tuple(pieces), connectors=tuple(connectors),
                                         anchors=tuple(anchors), cache={})
    return st


HOUSE = (piece(1, rect(10, 4, 14, 10), 3.0, movement=Movement.IMPASSABLE, name="house"),
         piece(2, rect(10, 4, 14, 10), 3.0, bottom=3.0, surface=True, name="roof"))
STAIRS = Connector(3, "stairs", ConnectorKind.STAIRS, (6.0, 7.0, 0.0), (10.0, 7.0, 3.0))


def test_move_up_stairs_changes_level_and_logs_heights() -> None:
    """CORE-3.3.MOVE with (x, y, z) waypoints: stairs at the normal rate; the event keeps a 2D path plus heights."""
    st = on_map(game([("a1", "a", profile(move=6.0), (4.0, 7.0)), ("b1", "b", profile(), (30.0, 30.0))]),
                *HOUSE, connectors=[STAIRS])
    activate(st, "a1")
    ev = apply(st, Move("a1", ((6.0, 7.0), (10.0, 7.0, 3.0))))
    move = [e for e in ev if e.type == "move"][0]
    assert move.data["cost"] == pytest.approx(7.0) and move.data["path_z"] == [0.0, 0.0, 3.0]
    assert st.models["a1"].z == 3.0 and (st.models["a1"].x, st.models["a1"].y) == (10.0, 7.0)
    assert move.data["segments"] == ["walk", "stairs"] and move.data["path"][-1] == [10.0, 7.0]


def test_move_into_a_wall_changes_nothing() -> None:
    """GEO-7 through apply: an illegal path raises with the rule and leaves the state unchanged."""
    st = on_map(game([("a1", "a", profile(), (8.0, 7.0)), ("b1", "b", profile(), (30.0, 30.0))]), *HOUSE)
    activate(st, "a1")
    before = st.to_json()
    with pytest.raises(IllegalAction) as ei:
        apply(st, Move("a1", ((12.0, 7.0),)))
    assert ei.value.rule == "GEO-7" and "house" in ei.value.reason
    assert st.to_json() == before


def test_climb_commits_two_moves_for_a_long_climb() -> None:
    """GEO-24 (`climb.allow_end_mid_climb`=false): a 3" climb (6") plus walking does not fit one 7" Move; a Climb
    committing two Moves completes it and spends 2 actions; Move alone is refused."""
    block = piece(5, rect(8, 8, 12, 12), 3.0, movement=Movement.IMPASSABLE, surface=True, climbable=True)
    st = on_map(game([("a1", "a", profile(move=6.0), (4.0, 10.0)), ("b1", "b", profile(), (30.0, 30.0))]), block)
    activate(st, "a1")
    path = ((7.5, 10.0), (8.2, 10.0, 3.0), (10.0, 10.0))
    with pytest.raises(IllegalAction):
        apply(st, Move("a1", path))
    with pytest.raises(IllegalAction) as ei:
        apply(st, Climb("a1", ((7.5, 10.0),), actions=1))
    assert ei.value.rule == "CORE-3.3.CLIMB"
    ev = apply(st, Climb("a1", path, actions=2))
    climb = [e for e in ev if e.type == "climb"][0]
    assert climb.data["climbed"] == pytest.approx(3.0) and climb.data["allowance"] == 14.0
    assert st.models["a1"].z == 3.0 and st.activation is None or st.activation.spent == 2


def test_slow_scar_forbids_climbing() -> None:
    """GEO-24 / POST-8.5.SCARS-TABLE: Slow: no climbing except ladders and stairs."""
    block = piece(5, rect(8, 8, 12, 12), 3.0, movement=Movement.IMPASSABLE, surface=True, climbable=True)
    st = on_map(game([("a1", "a", profile(move=6.0), (4.0, 10.0)), ("b1", "b", profile(), (30.0, 30.0))]), block)
    st.models["a1"].scars.append("slow")
    activate(st, "a1")
    with pytest.raises(IllegalAction) as ei:
        apply(st, Climb("a1", ((7.5, 10.0), (8.2, 10.0, 3.0)), actions=2))
    assert ei.value.rule == "GEO-24"


ROOFS = (piece(10, rect(4, 4, 10, 10), 3.0, bottom=2.75, surface=True, name="roof-w"),
         piece(11, rect(12, 4, 18, 10), 3.0, bottom=2.75, surface=True, name="roof-e"),
         piece(12, rect(21, 4, 27, 10), 3.0, bottom=2.75, surface=True, name="roof-far"))


def _on_roof(x: float) -> object:
    st = on_map(game([("a1", "a", profile(move=6.0, will=6), (x, 7.0)), ("b1", "b", profile(), (30.0, 30.0))]),
                *ROOFS)
    st.models["a1"].z = 3.0
    return st


def test_jump_over_a_2_inch_gap_for_one_action_without_a_check() -> None:
    """CORE-3.3.JUMP/GEO-24: g = 2": 1 action, no roll, base wholly across in contact with the far edge."""
    st = _on_roof(9.5)
    activate(st, "a1")
    ev = apply(st, Jump("a1", (12.5, 7.0)), ScriptedDice([]))
    jump = [e for e in ev if e.type == "jump"][0]
    assert jump.data["gap"] == pytest.approx(2.0) and not jump.data["checked"]
    assert (st.models["a1"].x, st.models["a1"].z) == (12.5, 3.0)


def test_jump_over_3_inches_needs_a_move_first_and_a_will_check() -> None:
    """GAP-88: 2" < g <= 4": only right after a Move, with a free Will Skill Check; a failure stays put."""
    st = _on_roof(17.5)
    activate(st, "a1")
    with pytest.raises(IllegalAction) as ei:
        apply(st, Jump("a1", (21.5, 7.0)))
    assert ei.value.rule == "CORE-3.3.JUMP"
    apply(st, Move("a1", ((17.5, 6.0),)))
    ev = apply(st, Jump("a1", (21.5, 6.0)), ScriptedDice([9]))  # 9 > Will 6: fails
    assert [e.type for e in ev if e.type.startswith("jump")] == ["jump_failed"]
    assert st.models["a1"].x == 17.5
    st2 = _on_roof(17.5)
    activate(st2, "a1")
    apply(st2, Move("a1", ((17.5, 6.0),)))
    ev = apply(st2, Jump("a1", (21.5, 6.0)), ScriptedDice([2]))
    assert [e for e in ev if e.type == "jump"][0].data["checked"] and st2.models["a1"].x == 21.5


def test_jump_wider_than_jump_max_is_refused() -> None:
    """GAP-88 (`jump.max`=4): 5" is too far."""
    st = on_map(game([("a1", "a", profile(will=6), (9.5, 7.0)), ("b1", "b", profile(), (30.0, 30.0))]),
                ROOFS[0], piece(13, rect(15, 4, 20, 10), 3.0, bottom=2.75, surface=True))
    st.models["a1"].z = 3.0
    activate(st, "a1")
    with pytest.raises(IllegalAction) as ei:
        apply(st, Jump("a1", (15.5, 7.0)))
    assert ei.value.rule == "GAP-88"


@pytest.mark.setting("jump.max")
def test_jump_max_widens_the_longest_jump() -> None:
    """GAP-88 (`jump.max`=5): the same 5" gap is tried, right after a Move, with the free Will Skill Check."""
    st = on_map(game([("a1", "a", profile(will=6), (9.5, 7.0)), ("b1", "b", profile(), (30.0, 30.0))],
                     settings={"jump.max": 5.0}),
                ROOFS[0], piece(13, rect(15, 4, 20, 10), 3.0, bottom=2.75, surface=True))
    st.models["a1"].z = 3.0
    activate(st, "a1")
    apply(st, Move("a1", ((9.5, 6.0),)))
    ev = apply(st, Jump("a1", (15.5, 6.0)), ScriptedDice([2]))
    jump = [e for e in ev if e.type == "jump"][0]
    assert jump.data["gap"] == pytest.approx(5.0) and jump.data["checked"] and st.models["a1"].x == 15.5


def test_move_reports_reaction_radius_triggers_for_crews_only() -> None:
    """GEO-19 via zonegeo.path_triggers: a crew model passing within 3" + r of a hot spot triggers it."""
    spot = Anchor(20, "hotspot-a", (10.0, 3.4 + 2.0), kind="hotspot")
    st = on_map(game([("a1", "a", profile(), (5.0, 2.0)), ("b1", "b", profile(), (30.0, 30.0))]), anchors=[spot])
    activate(st, "a1")
    ev = apply(st, Move("a1", ((11.0, 2.0),)))
    trig = [e for e in ev if e.type == "reaction_radius"]
    assert len(trig) == 1 and trig[0].data["location"] == "hotspot-a" and trig[0].rules[0] == "GEO-19"
    st2 = on_map(game([("a1", "a", profile(), (5.0, 1.8)), ("b1", "b", profile(), (30.0, 30.0))]), anchors=[spot])
    activate(st2, "a1")
    assert not [e for e in apply(st2, Move("a1", ((11.0, 1.8),))) if e.type == "reaction_radius"]
    st3 = on_map(game([("a1", "a", profile(), (5.0, 2.0)), ("b1", "b", profile(), (30.0, 30.0))]), anchors=[spot])
    st3.sides[0].kind = SideKind.HOSTILE
    activate(st3, "a1")
    assert not [e for e in apply(st3, Move("a1", ((11.0, 2.0),))) if e.type == "reaction_radius"]


def _engaged_hustler(counts: bool):  # type: ignore[no-untyped-def]
    """A Hardened Hustler (Move 6") who has just moved into contact with b1: his next Move is the second of a pair."""
    st = game([("a1", "a", profile(move=6.0, skills=("hustle",), weapons=("knife",)), (8.0, 10.0)),
               ("b1", "b", profile(ca=5, weapons=("knife",)), (12.0, 10.0))],
              settings={"hustle.withdraw_counts": counts})
    activate(st, "a1")
    ev = apply(st, Move("a1", ((11.0, 10.0),)))
    assert [e for e in ev if e.type == "move"][0].data["allowance"] == 7.0  # the first Move of the pair: no bonus
    return st


@pytest.mark.setting("hustle.withdraw_counts")
def test_withdraw_counts_as_the_second_move_of_a_hustle_pair() -> None:
    """SKILL-6.1.HUSTLE / COMBAT-4.3.WITHDRAW (`hustle.withdraw_counts`=true): a Withdraw costs a Move action, so
    right after a Move it is the second of the pair and gets +2": 6 + 2 + 1" base = 9" of centre travel."""
    st = _engaged_hustler(True)
    ev = apply(st, Withdraw("a1", ((2.5, 10.0),)), ScriptedDice([9, 9, 9]))  # 8.5" away; the free attack misses
    move = [e for e in ev if e.type == "move"][0]
    assert move.data["allowance"] == 9.0 and "SKILL-6.1.HUSTLE" in move.rules and "Hustle +2" in \
        move.data["allowance_text"]
    assert st.models["a1"].x == 2.5


@pytest.mark.setting("hustle.withdraw_counts")
def test_withdraw_never_pairs_for_hustle_when_the_setting_is_false() -> None:
    """SKILL-6.1.HUSTLE (`hustle.withdraw_counts`=false): the Withdraw is judged on the plain 7" allowance; the
    8.5" path is refused (GEO-8), a 6.5" one is taken without the bonus."""
    st = _engaged_hustler(False)
    with pytest.raises(IllegalAction) as ei:
        apply(st, Withdraw("a1", ((2.5, 10.0),)))
    assert ei.value.rule == "GEO-8" and "allowance is 7\"" in ei.value.reason
    ev = apply(st, Withdraw("a1", ((4.5, 10.0),)), ScriptedDice([9, 9, 9]))
    move = [e for e in ev if e.type == "move"][0]
    assert move.data["allowance"] == 7.0 and "SKILL-6.1.HUSTLE" not in move.rules and st.models["a1"].x == 4.5


@pytest.mark.setting("melee.withdraw_cost")
@pytest.mark.parametrize("cost", [1, 2])
def test_withdraw_spends_melee_withdraw_cost_actions(cost: int) -> None:
    """COMBAT-4.3.WITHDRAW (`melee.withdraw_cost`): the Withdraw spends that many of the activation's actions."""
    st = game([("a1", "a", profile(actions=3, weapons=("knife",)), (10.0, 10.0)),
               ("b1", "b", profile(weapons=("knife",)), (11.0, 10.0))], settings={"melee.withdraw_cost": cost})
    activate(st, "a1")
    apply(st, Withdraw("a1", ((5.0, 10.0),)), ScriptedDice([9, 9, 9]))
    assert st.models["a1"].x == 5.0 and st.activation is not None and st.activation.spent == cost


def test_a_withdraw_move_saved_before_the_setting_resumes_without_hustle() -> None:
    """COMBAT-4.3.WITHDRAW: a pending withdrawal move recorded without its Hustle decision resumes on the plain
    allowance (old saves load and continue as before)."""
    from game.core.rules.context import Ctx
    from game.core.rules.dispatch import ACTIONS
    from game.core.rules.melee import withdraw_move

    st = _engaged_hustler(True)
    ctx = Ctx(st, ScriptedDice([]), st.battlefield, ACTIONS)
    withdraw_move(ctx, {"kind": "withdraw_move", "model": "a1", "path": [[2.5, 10.0]]})
    assert [e.type for e in ctx.events] == ["withdraw_blocked"] and st.models["a1"].x == 11.0


@pytest.mark.parametrize("action", [Move("a1", ((1.0, 2.0), (3.0, 4.0, 3.25))), Climb("a1", ((1.0, 2.0, 3.0),), 2),
                                    Jump("a1", (5.0, 6.0, 3.0)), Jump("a1", (5.0, 6.0))])
def test_movement_actions_round_trip_through_json(action) -> None:  # type: ignore[no-untyped-def]
    """Move/Climb/Jump keep 2D and 3D waypoints through JSON."""
    assert action_from_json(action.to_json()) == action


def test_bad_waypoint_json_is_refused() -> None:
    with pytest.raises(ValueError, match="waypoint"):
        action_from_json({"type": "Move", "unit": "a1", "path": [[1, 2, 3, 4]]})
    with pytest.raises(ValueError, match="not a number"):
        action_from_json({"type": "Jump", "unit": "a1", "to": ["x", 2]})
