"""Audit of the turn structure and the non-combat actions against RULES.md, with scripted dice (TURN-*, CORE-3.*,
INTRO-1.2.*, COMBAT-4.4.*, SKILL-6.1.*, GAP-12/17/31/32/37/78/114, TV-05/13/14/39)."""
from __future__ import annotations

import pytest

from game.core.actions import (
    Activate,
    Aim,
    Alert,
    ComplexTask,
    DeclineInterrupt,
    EndActivation,
    IllegalAction,
    MeleeAttack,
    Move,
    Order,
    Rally,
    RangedAttack,
    Reload,
    UseItem,
)
from game.core.dice import ScriptedDice, evaluate_pool
from game.core.rules.apply import apply, validate
from game.core.rules.context import Ctx, record_crit
from game.core.rules.turnrolls import roll_turn_limit
from game.core.rules.wounds import inflict_wounds
from game.core.state import GameState, Phase, SideKind, SideState, TaskState
from tests.enginekit import activate, game, profile, types


def _wound(st: GameState, model: str, n: int) -> list:
    ctx = Ctx(st, ScriptedDice([]), st.battlefield)
    st.round_counter += 1
    inflict_wounds(ctx, model, n, st.round_counter)
    return ctx.events


# --- CORE-3.4.CHECK retries (`task.retry`=once_per_activation) -------------------------------------


def _order_task_game() -> GameState:
    task = TaskState("ied", "IED", 15.0, 11.0, 0.5, difficulty=0, actions=2)
    return game([("boss", "a", profile(actions=3, skills=("leader",)), (10, 10)),
                 ("r", "a", profile(actions=1, will=6), (15, 10)), ("e", "b", profile(), (30, 30))], tasks=[task])


def test_core34_check_failed_in_an_order_may_be_retried_in_own_activation():
    """CORE-3.4.CHECK: one attempt per activation. A check failed as an ordered action belongs to the Leader's
    activation, so the recipient may try again in its own later activation; not again in the same one."""
    st = _order_task_game()
    activate(st, "boss")
    apply(st, Order("boss", "r", ComplexTask("r", "ied")), ScriptedDice([9]))
    assert st.tasks["ied"].holder is None
    with pytest.raises(IllegalAction) as ei:
        apply(st, Order("boss", "r", ComplexTask("r", "ied")), ScriptedDice([1]))
    assert ei.value.rule == "CORE-3.4.CHECK"
    apply(st, EndActivation("boss"))
    apply(st, Activate("e"))
    apply(st, EndActivation("e"))
    assert st.deciding == "a"
    apply(st, Activate("r"))
    ev = apply(st, ComplexTask("r", "ied"), ScriptedDice([3, 5, 2]))  # the check, then turn 2's initiative
    assert st.tasks["ied"].holder == "r" and "task_progress" in types(ev)


def test_core34_check_failed_after_activating_is_retried_next_turn():
    """CORE-3.4.CHECK: an activated recipient that fails an ordered check may try again in its next activation."""
    st = _order_task_game()
    st.units["r"].activated = True
    activate(st, "boss")
    apply(st, Order("boss", "r", ComplexTask("r", "ied")), ScriptedDice([9]))
    apply(st, EndActivation("boss"))
    apply(st, Activate("e"))
    apply(st, EndActivation("e"), ScriptedDice([5, 3]))  # turn 2 initiative: a 5, b 3
    assert st.turn == 2
    activate(st, "r")
    apply(st, ComplexTask("r", "ied"), ScriptedDice([3]))
    assert st.tasks["ied"].holder == "r"


# --- GAP-37 Order cost ----------------------------------------------------------------------------


@pytest.mark.setting("alert.cost")
def test_gap37_ordered_alert_costs_the_leader_the_alert_cost():
    """GAP-37: 1 Leader action per recipient action; a transferred pair puts the recipient on Alert
    (`alert.cost` read as set, here 3)."""
    st = game([("boss", "a", profile(actions=3, skills=("leader",)), (10, 10)),
               ("r", "a", profile(actions=1), (15, 10)), ("e", "b", profile(), (30, 30))],
              settings={"alert.cost": 3})
    activate(st, "boss")
    ev = apply(st, Order("boss", "r", Alert("r")))
    assert st.units["r"].alert
    assert [e for e in ev if e.type == "order"][0].data["leader_actions"] == 3
    assert "activation_end" in types(ev)  # 3 of 3 actions spent


def test_gap37_ordered_alert_pair():
    """GAP-37: with the default `alert.cost`=2 an Order of Alert spends 2 of the Leader's 3 actions."""
    st = game([("boss", "a", profile(actions=3, skills=("leader",)), (10, 10)),
               ("r", "a", profile(actions=1), (15, 10)), ("e", "b", profile(), (30, 30))])
    activate(st, "boss")
    apply(st, Order("boss", "r", Alert("r")))
    assert st.units["r"].alert and st.activation.spent == 2


# --- GAP-78 / TURN-6 step 3: what an Engaged model may do -------------------------------------------


def _engaged_game(**kw) -> GameState:
    return game([("a1", "a", profile(actions=3, weapons=("assault_rifle", "knife")), (10, 10)),
                 ("a2", "a", profile(), (10, 11.05)),
                 ("b1", "b", profile(), (11.0, 10))], **kw)


@pytest.mark.parametrize("action", [
    Reload("a1", "assault_rifle"),
    Alert("a1"),
    ComplexTask("a1", "ied"),
])
def test_gap78_engaged_model_may_not(action):
    """TURN-6 step 3 / GAP-78 (`melee.engaged_actions`): an Engaged model may not Reload, go on Alert or work a task."""
    st = _engaged_game(tasks=[TaskState("ied", "IED", 9.0, 10.0, 0.5, difficulty=0, actions=1)])
    st.models["a1"].unloaded.append("assault_rifle")
    activate(st, "a1")
    before = st.to_json()
    with pytest.raises(IllegalAction) as ei:
        apply(st, action)
    assert ei.value.rule == "GAP-78"
    assert st.to_json() == before
    with pytest.raises(IllegalAction):
        validate(st, action)


def test_gap78_engaged_model_may_rally_aim_juice_and_kit_an_ally():
    """GAP-78: Rally, Aim, Electric Juice and a Med-Kit on an ally in contact stay legal while Engaged."""
    st = _engaged_game(items={"a1": ["electric_juice", "medkit"]})
    st.models["a2"].wounds_taken = 1
    st.models["a2"].ooa = True
    activate(st, "a1")
    apply(st, UseItem("a1", "electric_juice"))
    apply(st, UseItem("a1", "medkit", "a2"))
    assert not st.models["a2"].ooa
    apply(st, Aim("a1"))
    st.units["a1"].pins = 1
    apply(st, Rally("a1"))
    assert st.units["a1"].pins == 0


def test_gap78_engaged_leader_may_not_order():
    """GAP-78: Order is not in the Engaged list."""
    st = game([("boss", "a", profile(actions=3, skills=("leader",)), (10, 10)),
               ("r", "a", profile(actions=1), (14, 10)), ("b1", "b", profile(), (11.0, 10))])
    activate(st, "boss")
    with pytest.raises(IllegalAction) as ei:
        apply(st, Order("boss", "r", Move("r", ((15.0, 10.0),))))
    assert ei.value.rule == "GAP-78"


@pytest.mark.setting("melee.engaged_actions")
def test_gap78_setting_widens_the_list():
    """GAP-78 is a setting: listing "reload" lets an Engaged model Reload."""
    from game.core.settings import Settings

    allowed = list(Settings.defaults()["melee.engaged_actions"]) + ["reload"]
    st = _engaged_game(settings={"melee.engaged_actions": allowed})
    st.models["a1"].unloaded.append("assault_rifle")
    activate(st, "a1")
    apply(st, Reload("a1", "assault_rifle"))
    assert "assault_rifle" not in st.models["a1"].unloaded


def test_gap78_engaged_melee_attack_still_legal():
    """GAP-78: the melee attack itself is legal while Engaged."""
    st = _engaged_game()
    activate(st, "a1")
    validate(st, MeleeAttack("a1", "b1", "knife"))  # raises IllegalAction if refused
    ev = apply(st, MeleeAttack("a1", "b1", "knife"), ScriptedDice([9, 9]))
    assert any(e.type == "melee_round" for e in ev)


# --- validate mirrors apply (TURN-1) ----------------------------------------------------------------


def test_validate_medkit_decision_checks_like_apply():
    """COMBAT-4.4.MEDKIT-SELF / MEDKIT-MULTI: in the Med-Kit decision validate refuses what apply refuses."""
    st = game([("m", "a", profile(wounds=2, actions=3), (10, 10)), ("e", "b", profile(), (30, 30))],
              items={"m": ["medkit", "medkit", "electric_juice"]})
    _wound(st, "m", 1)
    assert st.phase is Phase.MEDKIT
    for bad in (UseItem("m", "electric_juice"), UseItem("m", "medkit", "e"), UseItem("nobody", "medkit")):
        with pytest.raises(IllegalAction):
            validate(st, bad)
        with pytest.raises(IllegalAction):
            apply(st, bad)
    validate(st, UseItem("m", "medkit"))
    apply(st, UseItem("m", "medkit"))
    assert st.models["m"].wounds_taken == 0 and st.units["m"].pins == 2


def test_validate_activate_names_the_same_rule_as_apply():
    """CORE-3.1.ONCE: validate and apply refuse a second activation with the same rule."""
    st = game([("a1", "a", profile(), (3, 3)), ("a2", "a", profile(), (5, 3)), ("b1", "b", profile(), (30, 30))])
    st.units["a1"].activated = True
    for fn in (validate, apply):
        with pytest.raises(IllegalAction) as ei:
            fn(st, Activate("a1"))
        assert ei.value.rule == "CORE-3.1.ONCE"


# --- TURN-7 / GAP-114: hostile forces never interrupt each other ---------------------------------------


def _hostile_game() -> GameState:
    st = game([("a1", "a", profile(), (3, 3)), ("h1", "h", profile(), (20, 20)), ("g1", "g", profile(), (30, 30))])
    st.sides = [st.sides[0], SideState("h", "Dogs", SideKind.HOSTILE, "ai"),
                SideState("g", "Zombies", SideKind.HOSTILE, "ai")]
    st.order = ["a", "h", "g"]
    return st


def test_turn7_hostile_alert_does_not_interrupt_another_hostile_force():
    """TURN-7: hostiles are opponents of every crew but not of each other (GAP-114): no window for them."""
    st = _hostile_game()
    st.units["g1"].alert = True
    activate(st, "h1")
    assert st.phase is Phase.ACTION and st.interrupt is None
    apply(st, Move("h1", ((22.0, 20.0),)))
    assert st.interrupt is None


def test_turn7_hostile_alert_interrupts_a_crew():
    """TURN-7: a hostile Alert unit may interrupt a crew unit's activation."""
    st = _hostile_game()
    st.units["g1"].alert = True
    activate(st, "a1")
    assert st.phase is Phase.INTERRUPT and st.deciding == "g"
    apply(st, DeclineInterrupt("g"))
    assert st.phase is Phase.ACTION


# --- alternative settings of the turn end (TURN-9) ---------------------------------------------------


def _end_turn(st: GameState) -> list:
    apply(st, Activate("a1"))
    apply(st, EndActivation("a1"))
    apply(st, Activate("b1"))
    if st.phase is Phase.INTERRUPT:
        apply(st, DeclineInterrupt(st.deciding))
    return apply(st, EndActivation("b1"), ScriptedDice([6, 2]))


@pytest.mark.setting("alert.expiry")
def test_alert_expiry_end_of_turn_setting():
    """GAP-17 `alert.expiry`=end_of_turn: unused Alert tokens go at the turn end (default: they persist)."""
    for expiry, held in (("end_of_turn", False), ("start_of_own_next_activation", True)):
        st = game([("a1", "a", profile(), (3, 3)), ("a2", "a", profile(), (5, 3)), ("b1", "b", profile(), (30, 30))],
                  settings={"alert.expiry": expiry})
        st.units["a2"].alert = True
        st.units["a2"].activated = True
        _end_turn(st)
        assert st.turn == 2 and st.units["a2"].alert is held


@pytest.mark.setting("crit.offturn")
def test_crit_offturn_next_activation_setting_carries_into_next_turn():
    """GAP-12 `crit.offturn`=next_activation: an activated unit's off-turn extra action waits for its next
    activation; the default `bank_if_unactivated` loses it."""
    for policy, bonus in (("next_activation", 1), ("bank_if_unactivated", 0)):
        st = game([("a1", "a", profile(), (3, 3)), ("b1", "b", profile(), (30, 30))],
                  settings={"crit.offturn": policy})
        apply(st, Activate("a1"))
        apply(st, EndActivation("a1"))
        apply(st, Activate("b1"))
        ctx = Ctx(st, ScriptedDice([]), st.battlefield)
        record_crit(ctx, "a1", evaluate_pool((1,), 4), context="offturn", rules=())
        apply(st, EndActivation("b1"), ScriptedDice([6, 2]))
        assert st.turn == 2
        ev = activate(st, "a1")
        assert ev[-1].data["banked_bonus"] == bonus if ev[-1].type == "activation_start" else \
            [e for e in ev if e.type == "activation_start"][0].data["banked_bonus"] == bonus


# --- TV-39 / GAP-12 off-turn critical successes ------------------------------------------------------


def _shoot_with_save_crit(defender_activated: bool) -> GameState:
    st = game([("a1", "a", profile(ca=5, weapons=("assault_rifle",)), (10, 10)),
               ("b1", "b", profile(armor=5, will=5, actions=2), (20, 10))])
    st.units["b1"].activated = defender_activated
    activate(st, "a1")
    # 3 attack dice vs TN 5: one hit; the save (TN 4) rolls a natural 1; the deflection Will check passes.
    apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([3, 9, 9, 1, 5]))
    return st


def test_tv39_offturn_crit_banked_for_unactivated_unit():
    """TV-39 / GAP-12: a natural 1 on an armour save of an unactivated model -> +1 action on its activation."""
    st = _shoot_with_save_crit(False)
    assert st.units["b1"].bonus_banked == 1 and st.units["b1"].pins == 0
    apply(st, EndActivation("a1"))
    ev = apply(st, Activate("b1"))
    start = [e for e in ev if e.type == "activation_start"][0]
    assert start.data["budget"] == 2 and start.data["banked_bonus"] == 1 and st.activation.bonus == 1


def test_tv39_offturn_crit_lost_for_activated_unit():
    """TV-39: an already-activated model gets no extra action from its natural 1."""
    st = _shoot_with_save_crit(True)
    assert st.units["b1"].bonus_banked == 0


# --- TV-13 / TURN-2 turn limits -------------------------------------------------------------------------


@pytest.mark.parametrize("table,players,face,limit", [
    ((36.0, 36.0), 2, 1, 5), ((36.0, 36.0), 2, 4, 6), ((48.0, 48.0), 2, 6, 7), ((36.0, 48.0), 2, 3, 6),
    ((48.0, 72.0), 2, 1, 7), ((48.0, 72.0), 2, 6, 9), ((36.0, 36.0), 3, 2, 7),
])
def test_tv13_turn_limit(table, players, face, limit):
    """TV-13 / GAP-48: 4+D3 up to 48"x48" (36"x48" included) with 2 players; 6+D3 larger or 3+ players."""
    models = [(f"{s}1", s, profile(), (3, 3)) for s in "abc"[:players]]
    st = game(models, table=table)
    if players == 3:
        st.sides.append(SideState("c", "Side C", SideKind.CREW))
    ctx = Ctx(st, ScriptedDice([face]), st.battlefield)
    assert roll_turn_limit(ctx, None) == limit


def test_tv13_high_radiation_also_shortens_a_fixed_limit():
    """TV-13 / GAP-58: High Radiation takes one turn off a scenario's fixed limit too."""
    from game.core.dice import Rng
    from game.core.rules.setup import new_game, scenario

    st, _ = new_game(scenario("open-table-demo"), seed=1, settings={"env.enabled": True})
    assert st.turn_limit in (5, 6, 7) or st.environment == "high_radiation"
    st.rng = Rng(1)
    ctx = Ctx(st, ScriptedDice([6]), st.battlefield)
    from game.core.rules.turnrolls import roll_environment
    st.turn_limit = roll_turn_limit(Ctx(st, ScriptedDice([]), st.battlefield), 8)
    roll_environment(ctx)
    assert st.environment == "high_radiation" and st.turn_limit == 7


# --- TURN-2 / ZONE-8.1.PARITY K limit ----------------------------------------------------------------------


def test_turn2_crews_over_the_k_limit_are_refused():
    """TURN-2 / ZONE-8.1.PARITY / TV-05: a crew over the scenario's K limit is refused at setup, naming it;
    a crew exactly at the limit is legal."""
    from dataclasses import replace

    from game.core.rules.setup import new_game, scenario

    demo = scenario("open-table-demo")  # two crews of 10K
    with pytest.raises(ValueError) as ei:
        new_game(replace(demo, k_limit=9), seed=1)
    assert "10K" in str(ei.value) and "9K" in str(ei.value) and "ZONE-8.1.PARITY" in str(ei.value)
    st, _ = new_game(replace(demo, k_limit=10), seed=1)
    assert st.phase is Phase.DEPLOY
    st, _ = new_game(replace(demo, k_limit=None), seed=1)
    assert len(st.models) == 12


# --- TV-14 Leader bonus on a Skill Check ---------------------------------------------------------------


def test_tv14_leader_in_los_adds_one_to_skill_check():
    """TV-14 / SKILL-6.1.LEADER: IED Difficulty 2, Will 6 -> TN 4; with the Leader in LOS -> 5; the Leader's own
    check gets no bonus (`leader.self_bonus`=false)."""
    t = TaskState("ied", "IED", 10.0, 11.0, 0.5, difficulty=2, actions=2, explosive=True)
    st = game([("a1", "a", profile(will=6, actions=3), (10, 10)),
               ("boss", "a", profile(will=6, actions=3, skills=("leader",)), (20, 20)),
               ("b1", "b", profile(), (30, 30))], tasks=[t])
    activate(st, "a1")
    ev = apply(st, ComplexTask("a1", "ied"), ScriptedDice([5]))
    roll = [e for e in ev if e.type == "roll"][0]
    assert roll.data["tn"] == 5 and roll.data["successes"] == 1
    t2 = TaskState("ied", "IED", 10.0, 11.0, 0.5, difficulty=2, actions=2, explosive=True)
    st = game([("boss", "a", profile(will=6, actions=3, skills=("leader",)), (10, 10)),
               ("b1", "b", profile(), (30, 30))], tasks=[t2])
    activate(st, "boss")
    ev = apply(st, ComplexTask("boss", "ied"), ScriptedDice([5]))
    assert [e for e in ev if e.type == "roll"][0].data["tn"] == 4


@pytest.mark.setting("melee.engaged_actions")
@pytest.mark.parametrize("listed", [False, True])
def test_gap78_setting_decides_shooting_while_engaged(listed: bool):
    """GAP-78 (`melee.engaged_actions`): an Engaged model may shoot another enemy only when the list names
    "ranged_attack"; the shared action check decides, no attack family adds its own refusal."""
    from game.core.settings import Settings

    allowed = list(Settings.defaults()["melee.engaged_actions"]) + (["ranged_attack"] if listed else [])
    st = game([("a1", "a", profile(weapons=("assault_rifle", "knife")), (10, 10)), ("b1", "b", profile(), (11, 10)),
               ("b2", "b", profile(), (20, 10))], settings={"melee.engaged_actions": allowed})
    activate(st, "a1")
    shot = RangedAttack("a1", "b2", "assault_rifle")
    if listed:
        validate(st, shot)
    else:
        with pytest.raises(IllegalAction) as ei:
            validate(st, shot)
        assert ei.value.rule == "GAP-78"
