"""Alert and Leader Orders with scripted dice: an Order as the held action, transferred pairs (Aim then the attack,
Alert, Unload), the Leader's bonus without LOS, and no mid-move windows (CORE-3.3.ALERT, SKILL-6.1.LEADER-ORDER,
GAP-12, GAP-17, GAP-36, GAP-37, TURN-7)."""
from __future__ import annotations

from typing import Any

import pytest

from game.core.actions import (
    Aim,
    Alert,
    ComplexTask,
    DeclineInterrupt,
    EndActivation,
    IllegalAction,
    Interrupt,
    Move,
    Order,
    RangedAttack,
    ThrowGrenade,
)
from game.core.battlefield import Cover, TerrainPiece
from game.core.dice import ScriptedDice
from game.core.events import Event
from game.core.geometry.polygon import rect
from game.core.rules.apply import apply, validate
from game.core.rules.context import Ctx
from game.core.rules.queries import leader_bonus
from game.core.settings import Settings, SettingsError
from game.core.state import GameState, Phase, TaskState
from tests.enginekit import activate, game, profile, types


def _of(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.type == kind)


def _roll(events: list[Event], what: str) -> Event:
    return next(e for e in events if e.type == "roll" and e.data["what"].startswith(what))


# --- CORE-3.3.ALERT: an Order as the held action -------------------------------------------------------------------


def _held(**kw: Any) -> GameState:
    """Side b's Leader "bl" holds an Alert action; its crew mate "b2" stands 4" away in LOS; side a acts."""
    st = game([("a1", "a", profile(), (5, 5)), ("bl", "b", profile(leader=True, actions=3, wounds=2), (26, 26)),
               ("b2", "b", profile(), (30, 26))], **kw)
    st.units["bl"].alert = True
    return st


def test_core33_alert_held_action_may_be_an_order_the_recipient_acts() -> None:
    """CORE-3.3.ALERT: the held action "may be any action"; the Leader's held Order hands it to a crew mate in 12"
    and LOS, who performs it at once (SKILL-6.1.LEADER-ORDER); the Alert is spent and side a resumes."""
    st = _held()
    activate(st, "a1")
    assert st.phase is Phase.INTERRUPT and st.deciding == "b"
    ev = apply(st, Interrupt("bl", Order("bl", "b2", Move("b2", ((30.0, 22.0),)))))
    order = _of(ev, "order")
    assert order.data["held"] is True and "CORE-3.3.ALERT" in order.rules and order.data["leader_actions"] == 1
    assert _of(ev, "interrupt").data["action"] == "Order"
    assert (st.models["b2"].x, st.models["b2"].y) == (30.0, 22.0)
    assert not st.units["bl"].alert and st.phase is Phase.ACTION and st.deciding == "a"


def test_core33_held_order_is_one_action_and_keeps_the_order_rules() -> None:
    """GAP-17 (f): the held action is one action, so a held Order cannot transfer a pair (Alert costs 2); the Order's
    own rules still hold: the recipient within 12" (GEO-22)."""
    st = _held()
    activate(st, "a1")
    with pytest.raises(IllegalAction) as ei:
        validate(st, Interrupt("bl", Order("bl", "b2", Alert("b2"))))
    assert ei.value.rule == "GAP-17"
    st.models["b2"].x, st.models["b2"].y = 5.0, 30.0
    with pytest.raises(IllegalAction) as ei:
        validate(st, Interrupt("bl", Order("bl", "b2", Move("b2", ((6.0, 30.0),)))))
    assert ei.value.rule == "GEO-22"


def test_gap12_held_order_recipient_crit_takes_its_extra_action_right_after() -> None:
    """GAP-12 / GAP-37: a critical success of the recipient of a held Order gives an extra action taken right after
    it, at the same window, by the recipient (not banked, not given to the acting enemy)."""
    task = TaskState("mast", "the radio mast", 31.0, 26.0, 0.5, 0, 2)
    st = _held(tasks=[task])
    activate(st, "a1")
    ev = apply(st, Interrupt("bl", Order("bl", "b2", ComplexTask("b2", "mast"))), ScriptedDice([1]))
    assert _of(ev, "extra_action").data["when"] == "right after the Alert action"
    assert st.interrupt is not None and st.interrupt.extra_unit == "b2" and st.deciding == "b"
    assert st.activation.unit == "a1" and st.activation.extra_left == 0 and st.units["b2"].bonus_banked == 0
    apply(st, Interrupt("b2", Move("b2", ((30.0, 22.0),))))
    assert st.phase is Phase.ACTION and st.deciding == "a" and st.models["b2"].y == 22.0


# --- SKILL-6.1.LEADER-ORDER / GAP-37: one or more transferred actions ----------------------------------------------


def _leader(**kw: Any) -> GameState:
    """Side a's Leader "al" (3 actions) with crew mates "a2" (smoke grenade, assault rifle, Unload) and "a3"."""
    return game([("al", "a", profile(leader=True, actions=3, wounds=2), (10, 10)),
                 ("a2", "a", profile(ca=5, skills=("unload",), weapons=("assault_rifle",)), (14, 10)),
                 ("a3", "a", profile(ca=5), (10, 14)),
                 ("e", "b", profile(armor=9), (24, 10))],
                grenades={"a2": {"smoke": 1}, "a3": {"smoke": 1}}, **kw)


def _throw(st: GameState, unit: str) -> list[Event]:
    return apply(st, Order("al", unit, ThrowGrenade(unit, "smoke", 20.0, 20.0)), ScriptedDice([2] * 4))


def test_gap37_transferred_pair_aim_then_attack_pays_off() -> None:
    """GAP-37 / CORE-3.3.AIM: two consecutive Orders to one recipient, Aim then the attack, are a transferred pair:
    the Aim pays off (+1 CA on the throw), the Leader paying one action each."""
    st = _leader()
    activate(st, "al")
    apply(st, Order("al", "a2", Aim("a2")))
    assert st.activation.ordered_aim == "a2" and not st.activation.aim
    ev = _throw(st, "a2")
    roll = _roll(ev, "Smoke Grenade")
    assert roll.data["tn"] == 6 and any(b[0] == "Aim" for b in roll.data["breakdown"])
    assert st.activation.spent == 2 and st.activation.ordered_aim is None


@pytest.mark.parametrize("between", ["leader_acts", "other_recipient"])
def test_gap37_ordered_aim_lost_unless_the_next_action_is_that_recipients_attack(between: str) -> None:
    """CORE-3.3.AIM: the ordered Aim is lost if the Leader does anything else first, and it is never another
    recipient's (the pair is two consecutive actions of one recipient)."""
    st = _leader()
    activate(st, "al")
    apply(st, Order("al", "a2", Aim("a2")))
    if between == "leader_acts":
        apply(st, Move("al", ((10.0, 11.0),)))
        roll = _roll(_throw(st, "a2"), "Smoke Grenade")
    else:
        roll = _roll(_throw(st, "a3"), "Smoke Grenade")
    assert roll.data["tn"] == 5 and not any(b[0] == "Aim" for b in roll.data["breakdown"])


def test_gap37_transferred_pair_puts_the_recipient_on_alert_for_two_leader_actions() -> None:
    """GAP-37: a transferred pair can put the recipient on Alert; the Leader pays 2 actions (1 per transferred
    action), and with 1 action left he cannot."""
    st = _leader()
    activate(st, "al")
    ev = apply(st, Order("al", "a2", Alert("a2")))
    assert _of(ev, "order").data["leader_actions"] == 2 and st.units["a2"].alert and st.activation.spent == 2
    with pytest.raises(IllegalAction) as ei:
        validate(st, Order("al", "a3", Alert("a3")))
    assert ei.value.rule == "CORE-3.3.GENERAL"


def test_gap37_ordered_unload_and_ordered_aim_on_a_ranged_attack() -> None:
    """SKILL-6.1.UNLOAD / GAP-37: an ordered Unload is a transferred pair (the Leader pays 2); an ordered Aim pays off
    on the ordered shot that follows."""
    st = _leader()
    activate(st, "al")
    ev = apply(st, Order("al", "a2", RangedAttack("a2", "e", "assault_rifle", unload=True)), ScriptedDice([9] * 20))
    assert _of(ev, "order").data["leader_actions"] == 2 and st.activation.spent == 2
    st2 = _leader()
    activate(st2, "al")
    apply(st2, Order("al", "a2", Aim("a2")))
    ev = apply(st2, Order("al", "a2", RangedAttack("a2", "e", "assault_rifle")), ScriptedDice([9] * 20))
    assert _of(ev, "attack").data["aim"] is True


# --- SKILL-6.1.LEADER / GAP-36: `leader.bonus_needs_los` -----------------------------------------------------------


WALL = TerrainPiece(1, "wall", rect(19.5, 0, 20.5, 36), 0.0, 3.0, blocks_los=True, cover=Cover.HARD)


def _behind_wall(**kw: Any) -> GameState:
    """The Leader and a crew mate on either side of a wall that blocks LOS, a radio mast at the crew mate's feet."""
    task = TaskState("mast", "the radio mast", 26.0, 10.0, 0.5, 1, 2)
    return game([("al", "a", profile(leader=True, actions=3, wounds=2), (10, 10)),
                 ("a2", "a", profile(will=5), (25.0, 10)), ("e", "b", profile(), (30, 30))],
                pieces=(WALL,), tasks=[task], **kw)


@pytest.mark.setting("leader.bonus_needs_los")
def test_gap36_leader_bonus_needs_los_false_applies_at_any_range_without_los() -> None:
    """GAP-36 (`leader.bonus_needs_los`=true): no +1 for an ally the Leader cannot see; false: the Leader's +1 applies
    at any range without LOS, so the ally's Skill Check TN rises from 4 to 5 (Will 5, Difficulty -1, Leader +1)."""
    for needs, tn in ((True, 4), (False, 5)):
        st = _behind_wall(settings={"leader.bonus_needs_los": needs})
        ctx = Ctx(st, ScriptedDice([]), st.battlefield)
        assert bool(leader_bonus(ctx, st.models["a2"])) is not needs
        activate(st, "a2")
        ev = apply(st, ComplexTask("a2", "mast"), ScriptedDice([9]))
        assert _roll(ev, "Skill Check").data["tn"] == tn


def test_gap36_leader_bonus_in_los_either_way_and_never_on_himself() -> None:
    """GAP-36: with LOS the +1 applies whatever `leader.bonus_needs_los` says; never on the Leader himself
    (`leader.self_bonus`=false)."""
    for needs in (True, False):
        st = game([("al", "a", profile(leader=True, actions=3), (10, 10)), ("a2", "a", profile(), (14, 10))],
                  settings={"leader.bonus_needs_los": needs})
        ctx = Ctx(st, ScriptedDice([]), st.battlefield)
        assert leader_bonus(ctx, st.models["a2"]) and not leader_bonus(ctx, st.models["al"])


# --- TURN-7 / GAP-17: no window in the middle of a move (`alert.mid_move`) -----------------------------------------


def test_turn7_alert_window_after_the_move_never_in_its_middle() -> None:
    """TURN-7 (`alert.mid_move`=false): a Move that passes right by an Alert enemy opens one window, after the move
    is complete (the mover already at its end point)."""
    st = game([("a1", "a", profile(), (5, 20)), ("b1", "b", profile(actions=2), (8, 22))])
    st.units["b1"].alert = True
    activate(st, "a1")
    apply(st, DeclineInterrupt("b"))
    ev = apply(st, Move("a1", ((8.0, 20.0), (11.0, 20.0))))
    assert types(ev).count("interrupt_window") == 1 and types(ev).index("move") < types(ev).index("interrupt_window")
    assert st.phase is Phase.INTERRUPT and (st.models["a1"].x, st.models["a1"].y) == (11.0, 20.0)
    apply(st, DeclineInterrupt("b"))
    apply(st, EndActivation("a1"))


def test_turn7_alert_mid_move_true_is_refused_until_built() -> None:
    """GAP-17 (d) / TURN-7: the mid-move windows are not built; `alert.mid_move`=true is refused by the settings
    loader (as `demo --set` and scenario files refuse it), naming the key; the default false loads."""
    with pytest.raises(SettingsError, match="alert.mid_move"):
        Settings({"alert.mid_move": True})
    assert Settings({"alert.mid_move": False})["alert.mid_move"] is False


@pytest.mark.parametrize("kind", ["ranged", "melee"])
def test_gap37_ordered_aim_preview_is_the_resolution(kind: str) -> None:
    """GAP-37 / CORE-3.3.AIM: after an ordered Aim, the exact odds of the ordered attack (context "ordered") carry
    the Aim exactly as the resolution does: both come from one plan (rules.fire.ranged_plan, rules.melee.melee_plan),
    so the hit TN previewed is the TN rolled."""
    from game.core.actions import MeleeAttack
    from game.core.odds.actions import attack_odds

    far = (20.0, 5.0) if kind == "ranged" else (8.0, 5.05)
    st = game([("al", "a", profile(leader=True, actions=3, weapons=("assault_rifle",)), (5, 8)),
               ("a2", "a", profile(ca=5, weapons=("assault_rifle", "knife")), (7, 5)),
               ("b1", "b", profile(), far)])
    activate(st, "al")
    apply(st, Order("al", "a2", Aim("a2")))
    attack = RangedAttack("a2", "b1", "assault_rifle") if kind == "ranged" else MeleeAttack("a2", "b1", "knife")
    odds = attack_odds(st, attack, context="ordered")
    ev = apply(st, Order("al", "a2", attack), ScriptedDice([5] * 12))
    roll = next(e for e in ev if e.type == "roll" and e.data["who"] == "a2")
    assert any(b[0] == "Aim" for b in roll.data["breakdown"])
    numbers = odds.numbers if kind == "ranged" else odds.attacker_numbers[0]
    assert numbers.hit.value == roll.data["tn"] and numbers.dice == len(roll.data["dice"])
    assert any(m.label == "Aim" for m in numbers.hit.mods)
