"""Rules engine part 1 with scripted dice: turn structure, actions, criticals, pins, Med-Kits (TV vectors)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from game.core.actions import (
    Activate,
    Aim,
    Alert,
    ChooseInitiative,
    ComplexTask,
    DeclineInterrupt,
    DeclineMedKit,
    EndActivation,
    IllegalAction,
    Interrupt,
    Move,
    Order,
    Rally,
    UseItem,
)
from game.core.dice import ScriptedDice, evaluate_pool
from game.core.rules.apply import apply
from game.core.rules.context import Ctx, record_crit, settings_of
from game.core.rules.stats import effective_ca, effective_will, move_allowance
from game.core.rules.turnrolls import roll_initiative
from game.core.rules.wounds import add_pins, inflict_wounds
from game.core.state import GameState, Phase, TaskState
from tests.enginekit import activate, game, profile, types


def two(**kw) -> GameState:
    return game([("a1", "a", kw.pop("pa", profile()), (10, 10)), ("b1", "b", kw.pop("pb", profile()), (26, 26))], **kw)


# --- INTRO-1.2 criticals (TV-11) ----------------------------------------------------------------


@pytest.mark.parametrize("faces,tn,hits,crit", [
    ((1, 1, 10), 4, 2, "mix"),
    ((1, 10), 0, 0, "mix"),
    ((1, 10), 11, 2, "mix"),
    ((1, 1, 7), 4, 2, "success"),
    ((10, 10, 3), 4, 1, "failure"),
    ((1,), -2, 1, "success"),
    ((10,), 12, 0, "failure"),
])
def test_tv11_critical_pools(faces, tn, hits, crit):
    """TV-11: Critical Mix compares every die normally (`crit.mix_keeps_auto`=false); effects once per roll."""
    r = evaluate_pool(faces, tn)
    assert (r.successes, r.crit.value) == (hits, crit)


@pytest.mark.setting("crit.mix_keeps_auto")
def test_tv11_mix_keeps_auto_alternative():
    """GAP-11 alternative `crit.mix_keeps_auto`=true: the 1 still succeeds, the 10 still fails."""
    s = settings_of(two(settings={"crit.mix_keeps_auto": True}))
    assert evaluate_pool((1, 10), 0, settings=s).successes == 1
    assert evaluate_pool((1, 10), 11, settings=s).successes == 1


def test_crit_per_round_one_action_one_pin():
    """INTRO-1.2.CRIT-PER-ROUND: [1,1,7] gives exactly +1 action; [10,10,3] exactly 1 Pin."""
    st = two()
    activate(st, "a1")
    ctx = Ctx(st, ScriptedDice([]), st.battlefield)
    record_crit(ctx, "a1", evaluate_pool((1, 1, 7), 4), context="own", rules=())
    assert st.activation.bonus == 1
    record_crit(ctx, "a1", evaluate_pool((10, 10, 3), 4), context="own", rules=())
    assert st.units["a1"].pins == 1


# --- TV-04 Two-Wound Rule -----------------------------------------------------------------------


def test_tv04_two_wound_rule():
    """TV-04: CA 7 Move 6 Will 7 with the first of 2 Wounds -> CA 4, Move 3", Will 6; Leader CA 6 -> 3."""
    st = game([("turk", "a", profile(ca=7, move=6, will=7, wounds=2, actions=3), (5, 5)),
               ("lead", "a", profile(ca=6, move=6, will=7, wounds=2, actions=3), (8, 8))])
    for m in st.models.values():
        m.wounds_taken = 1
    turk, lead = st.models["turk"], st.models["lead"]
    assert effective_ca(turk).value == 4 and effective_will(turk) == 6
    assert move_allowance(turk, hustle_bonus=False).movement == 3.0
    assert effective_ca(lead).value == 3 and effective_will(lead) == 6
    assert move_allowance(lead, hustle_bonus=False).movement == 3.0


# --- TV-06 / TV-32 allowances (GEO-8) -----------------------------------------------------------


def test_tv06_hustle_allowance_and_centre_travel():
    """TV-06: Hardened Hustle 6+6+2 = 14"; centre travel adds the 1" base: 7 + 9 = 16" over two Moves."""
    st = game([("h", "a", profile(actions=2, skills=("hustle",)), (2, 18)), ("e", "b", profile(), (34, 2))])
    activate(st, "h")
    ev = apply(st, Move("h", ((9.0, 18.0),)))
    assert ev[0].data["allowance"] == 7.0
    ev = apply(st, Move("h", ((18.0, 18.0),)))
    assert [e for e in ev if e.type == "move"][0].data["allowance"] == 9.0
    assert st.models["h"].x == 18.0


def test_tv06_veteran_three_moves_non_overlapping_pairs():
    """TV-06: Veteran three consecutive Moves -> 6 + 6+2 + 6 = 20" (`hustle.pairs`=non_overlapping)."""
    st = game([("v", "a", profile(actions=3, skills=("hustle",)), (1, 18)), ("e", "b", profile(), (34, 2))])
    activate(st, "v")
    allowances = []
    for x in (8.0, 17.0, 24.0):
        ev = apply(st, Move("v", ((x, 18.0),)))
        allowances.append([e for e in ev if e.type == "move"][0].data["allowance"])
    assert allowances == [7.0, 9.0, 7.0]
    assert sum(allowances) - 3 * 1.0 == 20.0


def test_hustle_over_budget_refused_with_amount():
    """GEO-8: a path longer than the allowance is refused, naming by how much; nothing changes."""
    st = game([("h", "a", profile(actions=2), (2, 18)), ("e", "b", profile(), (34, 2))])
    activate(st, "h")
    before = st.to_json()
    with pytest.raises(IllegalAction) as ei:
        apply(st, Move("h", ((9.5, 18.0),)))
    assert ei.value.rule == "GEO-8" and "0.50\" too far" in ei.value.reason
    assert st.to_json() == before


@pytest.mark.parametrize("prof,expected", [
    (profile(move=5, actions=1, support=True), 3.0),  # Rookie 5" with LMG in Rainstorm
    (profile(move=6, actions=3, armour_move_mod=-1.0), 5.0),  # Advanced armour Veteran
    (profile(move=6, actions=3, armour_move_mod=2.0), 8.0),  # Exo suit
])
def test_tv32_movement_modifiers(prof, expected):
    """TV-32: Rookie 5 - support 1 - rain 1 = 3"; Advanced -1 -> 5"; Exo +2 -> 8" (+1" base for centre travel)."""
    st = game([("m", "a", prof, (5, 5))])
    rain = prof.support_weapon
    al = move_allowance(st.models["m"], hustle_bonus=False, rainstorm=rain)
    assert al.movement == expected
    assert al.inches == expected + 1.0


def test_move_min_floor():
    """GEO-8 `move.min`=1: a wounded, slowed model never drops below 1"."""
    st = game([("m", "a", profile(move=2, wounds=2, support=True), (5, 5))])
    st.models["m"].wounds_taken = 1
    assert move_allowance(st.models["m"], hustle_bonus=False, rainstorm=True).movement == 1.0


@pytest.mark.setting("move.front_to_rear_adds_base")
def test_front_to_rear_setting_off():
    """GAP-86 alternative: `move.front_to_rear_adds_base`=false -> centre-to-centre, no base width."""
    st = two(settings={"move.front_to_rear_adds_base": False})
    assert move_allowance(st.models["a1"], hustle_bonus=False, settings=settings_of(st)).inches == 6.0


# --- TV-14 complex tasks ------------------------------------------------------------------------


def _task_game(**kw) -> GameState:
    t = TaskState("ied", "IED", 10.0, 11.0, 0.5, difficulty=2, actions=2, explosive=True)
    return game([("a1", "a", kw.pop("pa", profile(will=6, actions=3)), (10, 10)),
                 ("b1", "b", profile(), (30, 30))], tasks=[t], **kw)


def test_tv14_skill_check_tn_and_banked_actions():
    """TV-14: IED Difficulty 2, Will 6 -> TN 4; the free check, then 2 actions (CORE-3.4.*)."""
    st = _task_game()
    activate(st, "a1")
    ev = apply(st, ComplexTask("a1", "ied"), ScriptedDice([4]))
    roll = [e for e in ev if e.type == "roll"][0]
    assert roll.data["tn"] == 4 and roll.data["successes"] == 1
    assert st.activation.spent == 1 and st.tasks["ied"].progress == 1
    ev = apply(st, ComplexTask("a1", "ied"), ScriptedDice([]))
    assert "task_complete" in types(ev)


def test_tv14_failed_check_is_free_and_once_per_activation():
    """CORE-3.4.CHECK: a failed check costs no action and cannot be retried this activation."""
    st = _task_game()
    activate(st, "a1")
    apply(st, ComplexTask("a1", "ied"), ScriptedDice([5]))
    assert st.activation.spent == 0
    with pytest.raises(IllegalAction) as ei:
        apply(st, ComplexTask("a1", "ied"), ScriptedDice([1]))
    assert ei.value.rule == "CORE-3.4.CHECK"


def test_tv14_fuse_cutter_and_tool_kit():
    """TV-14: Fuse Cutter +2 on the IED -> TN 6; Tool Kit on a 3-action mechanical task: TN +2, 2 actions."""
    st = _task_game(pa=profile(will=6, actions=3, skills=("fuse_cutter",)))
    activate(st, "a1")
    ev = apply(st, ComplexTask("a1", "ied"), ScriptedDice([6]))
    assert [e for e in ev if e.type == "roll"][0].data["tn"] == 6
    gen = TaskState("gen", "generator", 10.0, 11.0, 0.5, difficulty=0, actions=3, mechanical=True)
    st = game([("a1", "a", profile(will=6, actions=3), (10, 10)), ("b1", "b", profile(), (30, 30))],
              tasks=[gen], items={"a1": ["tool_kit"]})
    activate(st, "a1")
    ev = apply(st, ComplexTask("a1", "gen"), ScriptedDice([8]))
    assert [e for e in ev if e.type == "roll"][0].data["tn"] == 8
    ev = apply(st, ComplexTask("a1", "gen"), ScriptedDice([]))
    assert "task_complete" in types(ev)


def test_task_progress_lost_when_leaving_contact():
    """CORE-3.4.BANKING: leaving base contact loses the banked actions."""
    st = _task_game()
    activate(st, "a1")
    apply(st, ComplexTask("a1", "ied"), ScriptedDice([2]))
    ev = apply(st, Move("a1", ((6.0, 6.0),)))
    assert "task_progress_lost" in types(ev) and st.tasks["ied"].progress == 0


def test_crit_success_on_skill_check_gives_bonus_action():
    """INTRO-1.2.CRIT-SUCCESS / TURN-6 step 4: a natural 1 adds one action taken at the end."""
    st = _task_game(pa=profile(will=6, actions=1))
    activate(st, "a1")
    ev = apply(st, ComplexTask("a1", "ied"), ScriptedDice([1]))
    assert "extra_action" in types(ev) and "bonus_actions" in types(ev)
    assert st.activation.stage == "bonus"
    ev = apply(st, ComplexTask("a1", "ied"), ScriptedDice([]))
    assert "task_complete" in types(ev) and "activation_end" in types(ev)


def test_crit_failure_on_skill_check_pins():
    """INTRO-1.2.CRIT-FAIL: a natural 10 pins the roller."""
    st = _task_game()
    activate(st, "a1")
    apply(st, ComplexTask("a1", "ied"), ScriptedDice([10]))
    assert st.units["a1"].pins == 1


# --- TV-18 initiative ---------------------------------------------------------------------------


def test_tv18_initiative_modifier_and_odds():
    """TV-18: 7 with 2 Pinned units -> 5; A (no pins) vs B (2 pinned units): 0.64 / 0.08 / 0.28, with re-rolls
    P(A wins) = 0.64/0.92 (exact enumeration of scripted dice through roll_initiative)."""
    def initiative(fa: int, fb: int, rerolls: list[int]) -> list[str]:
        st = game([("a1", "a", profile(), (3, 3)), ("b1", "b", profile(), (30, 30)),
                   ("b2", "b", profile(), (33, 33))])
        st.units["b1"].pins = 1
        st.units["b2"].pins = 2
        ctx = Ctx(st, ScriptedDice([fa, fb] + rerolls), st.battlefield)
        order = roll_initiative(ctx, ["a", "b"], purpose="turn")
        if fa == 7:
            assert ctx.events[0].data["rolls"]["b"]["pinned_units"] == 2
        return order

    higher = tie = lower = 0
    for fa in range(1, 11):
        for fb in range(1, 11):
            ra, rb = fa, fb - 2
            if ra == rb:
                tie += 1
                assert initiative(fa, fb, [6, 3]) == ["a", "b"]
                assert initiative(fa, fb, [3, 6]) == ["b", "a"]
            elif ra > rb:
                higher += 1
                assert initiative(fa, fb, []) == ["a", "b"]
            else:
                lower += 1
                assert initiative(fa, fb, []) == ["b", "a"]
    assert (Fraction(higher, 100), Fraction(tie, 100), Fraction(lower, 100)) == \
        (Fraction(64, 100), Fraction(8, 100), Fraction(28, 100))
    assert round(Fraction(higher, higher + lower), 6) == Fraction(695652, 1000000)


def test_initiative_pass_swaps_order():
    """CORE-3.1.PASS: the winner may make the opponent activate first."""
    st = two()
    st.phase, st.deciding, st.order = Phase.INITIATIVE, "a", ["a", "b"]
    apply(st, ChooseInitiative("a", go_first=False))
    assert st.order == ["b", "a"] and st.deciding == "b" and st.phase is Phase.ACTIVATE


# --- pins, Rally, pin lock ----------------------------------------------------------------------


def test_pins_cap_and_rally():
    """COMBAT-4.4.PIN-CAP: at most 4; Rally removes one, automatically; Pinned units may only Rally."""
    st = two()
    ctx = Ctx(st, ScriptedDice([]), st.battlefield)
    add_pins(ctx, "a1", 6, reason="test", rules=())
    assert st.units["a1"].pins == 4
    activate(st, "a1")
    with pytest.raises(IllegalAction) as ei:
        apply(st, Move("a1", ((11.0, 10.0),)))
    assert ei.value.rule == "COMBAT-4.4.PIN-LOCK"
    apply(st, Rally("a1"))
    assert st.units["a1"].pins == 3


def test_will_na_never_pinned_and_hard_ignores_first():
    """GAP-22: Will NA takes no Pins; SKILL-6.1.HARD ignores the first Pin of the mission (GAP-39)."""
    st = game([("z", "a", profile(will=None), (3, 3)), ("h", "b", profile(skills=("hard",)), (30, 30))])
    ctx = Ctx(st, ScriptedDice([]), st.battlefield)
    add_pins(ctx, "z", 2, reason="t", rules=())
    add_pins(ctx, "h", 1, reason="t", rules=())
    assert st.units["z"].pins == 0 and st.units["h"].pins == 0
    add_pins(ctx, "h", 1, reason="t", rules=())
    assert st.units["h"].pins == 1


# --- Alert and interrupts (CORE-3.3.ALERT, TURN-7) ----------------------------------------------


def test_alert_costs_two_and_interrupts_after_action():
    """CORE-3.3.ALERT / TURN-7: Alert costs 2; the held action interrupts an opponent after its action."""
    st = game([("a1", "a", profile(actions=2), (10, 10)), ("b1", "b", profile(actions=2), (26, 26))])
    activate(st, "a1")
    ev = apply(st, Alert("a1"))
    assert st.units["a1"].alert and "activation_end" in types(ev)
    assert st.deciding == "b" and st.phase is Phase.ACTIVATE
    ev = apply(st, Activate("b1"))
    assert st.phase is Phase.INTERRUPT and st.deciding == "a"  # window before b1's first action
    apply(st, DeclineInterrupt("a"))
    apply(st, Move("b1", ((22.0, 22.0),)))
    assert st.phase is Phase.INTERRUPT
    apply(st, Interrupt("a1", Move("a1", ((12.0, 12.0),))))
    assert not st.units["a1"].alert and st.models["a1"].x == 12.0
    assert st.phase is Phase.ACTION and st.deciding == "b"


def test_rookie_cannot_alert_and_alert_expires():
    """GAP-17: a 1-action Rookie cannot pay 2; an unused Alert expires at its next activation (TURN-6)."""
    st = game([("r", "a", profile(actions=1), (10, 10)), ("b1", "b", profile(), (26, 26))])
    activate(st, "r")
    with pytest.raises(IllegalAction):
        apply(st, Alert("r"))
    st.units["r"].alert = True
    st.units["r"].activated = False
    st.activation = None
    ev = activate(st, "r")
    assert "alert_expired" in types(ev) and not st.units["r"].alert


# --- Order (SKILL-6.1.LEADER-ORDER) -------------------------------------------------------------


def test_order_range_los_and_cost():
    """GEO-22 / GAP-37: 1 Leader action -> 1 recipient action, within 12"."""
    st = game([("boss", "a", profile(actions=3, skills=("leader",)), (10, 10)),
               ("near", "a", profile(actions=1), (15, 10)), ("far", "a", profile(actions=1), (30, 10)),
               ("e", "b", profile(), (30, 30))])
    activate(st, "boss")
    ev = apply(st, Order("boss", "near", Move("near", ((17.0, 10.0),))))
    assert "order" in types(ev) and st.models["near"].x == 17.0 and st.activation.spent == 1
    with pytest.raises(IllegalAction) as ei:
        apply(st, Order("boss", "far", Move("far", ((29.0, 10.0),))))
    assert ei.value.rule == "GEO-22"
    st.units["near"].pins = 1
    with pytest.raises(IllegalAction):
        apply(st, Order("boss", "near", Move("near", ((18.0, 10.0),))))
    apply(st, Order("boss", "near", Rally("near")))
    assert st.units["near"].pins == 0


# --- Electric Juice (EQUIP-6.2.ELECTRIC-JUICE, GAP-31) ------------------------------------------


def test_electric_juice_and_hangover():
    """GAP-31: free, +2 actions now, 1 action next turn; one dose per activation."""
    st = game([("j", "a", profile(actions=2), (10, 10)), ("b1", "b", profile(), (26, 26))],
              items={"j": ["electric_juice", "electric_juice"]})
    activate(st, "j")
    apply(st, UseItem("j", "electric_juice"))
    assert st.activation.budget == 4 and st.activation.spent == 0
    with pytest.raises(IllegalAction):
        apply(st, UseItem("j", "electric_juice"))
    for x in (11.0, 12.0, 13.0, 14.0):
        apply(st, Move("j", ((x, 10.0),)))
    assert st.units["j"].activated
    apply(st, Activate("b1"))
    apply(st, EndActivation("b1"))  # turn ends -> hangover
    assert st.turn == 2
    if st.phase is Phase.INITIATIVE:
        apply(st, ChooseInitiative(st.deciding, go_first=True))
    if st.deciding != "a":
        apply(st, Activate("b1"))
        apply(st, EndActivation("b1"))
    ev = apply(st, Activate("j"))
    assert ev[0].data["budget"] == 1 and ev[0].data["hangover"] is True


# --- Med-Kits (COMBAT-4.4.MEDKIT-*, TV-27) ------------------------------------------------------


def _wound(st: GameState, model: str, n: int) -> list:
    ctx = Ctx(st, ScriptedDice([]), st.battlefield)
    st.round_counter += 1
    inflict_wounds(ctx, model, n, st.round_counter)
    return ctx.events


def test_tv27_self_medkit_one_wound_two_pins_bone_doc_one():
    """TV-27: one Wound, self-kit -> 2 Pins; a Bone Doc -> 1 Pin; the decision is an Action."""
    for skills, pins in (((), 2), (("bone_doc",), 1)):
        st = game([("m", "a", profile(skills=skills), (10, 10)), ("e", "b", profile(), (30, 30))],
                  items={"m": ["medkit"]})
        _wound(st, "m", 1)
        assert st.phase is Phase.MEDKIT and st.deciding == "a"
        apply(st, UseItem("m", "medkit"))
        assert st.units["m"].pins == pins and not st.models["m"].ooa and st.models["m"].wounds_taken == 0


def test_tv27_two_wounds_two_kits_four_pins_three_wounds_ooa():
    """TV-27: two Wounds in one round with two kits -> 4 Pins; three Wounds -> OOA regardless."""
    st = game([("l", "a", profile(wounds=2, actions=3), (10, 10)), ("e", "b", profile(), (30, 30))],
              items={"l": ["medkit", "medkit"]})
    _wound(st, "l", 2)
    apply(st, UseItem("l", "medkit"))
    apply(st, UseItem("l", "medkit"))
    assert st.units["l"].pins == 4 and st.models["l"].wounds_taken == 0 and not st.models["l"].ooa
    st2 = game([("l", "a", profile(wounds=2, actions=3), (10, 10)), ("e", "b", profile(), (30, 30))],
               items={"l": ["medkit", "medkit", "medkit"]})
    ev = _wound(st2, "l", 3)
    assert st2.models["l"].ooa and "out_of_action" in types(ev)


def test_tv27_pin_cap_when_dressing():
    """TV-27: a model with 3 Pins dressing one Wound -> 4 Pins."""
    st = game([("m", "a", profile(), (10, 10)), ("e", "b", profile(), (30, 30))], items={"m": ["medkit"]})
    st.units["m"].pins = 3
    _wound(st, "m", 1)
    apply(st, UseItem("m", "medkit"))
    assert st.units["m"].pins == 4


def test_declined_medkit_single_wound_goes_ooa_and_ally_revives():
    """GAP-32: declining -> OOA (Pins discarded, GAP-33); an ally in contact revives it for 1 action."""
    st = game([("m", "a", profile(), (10, 10)), ("doc", "a", profile(actions=2), (11.05, 10)),
               ("e", "b", profile(), (30, 30))], items={"m": ["medkit"], "doc": ["medkit"]})
    st.units["m"].pins = 2
    _wound(st, "m", 1)
    apply(st, DeclineMedKit("m"))
    assert st.models["m"].ooa and st.units["m"].pins == 0
    activate(st, "doc")
    apply(st, UseItem("doc", "medkit", "m"))
    assert not st.models["m"].ooa and st.units["m"].pins == 2 and st.activation.spent == 1


# --- turn structure -----------------------------------------------------------------------------


def test_illegal_actions_leave_state_unchanged():
    """IllegalAction names the rule and changes nothing: wrong unit, not its activation, already activated."""
    st = two()
    before = st.to_json()
    for action, rule in ((Activate("b1"), "CORE-3.1.ALTERNATE"), (Move("a1", ((11.0, 10.0),)), "TURN-1"),
                         (Aim("a1"), "TURN-1")):
        with pytest.raises(IllegalAction) as ei:
            apply(st, action)
        assert ei.value.rule == rule
        assert st.to_json() == before


def test_side_out_of_units_lets_other_side_finish():
    """TURN-5: a side with no eligible unit is skipped; the other activates its remainder one by one."""
    st = game([("a1", "a", profile(), (3, 3)), ("b1", "b", profile(), (30, 30)), ("b2", "b", profile(), (33, 30))])
    apply(st, Activate("a1"))
    apply(st, EndActivation("a1"))
    apply(st, Activate("b1"))
    apply(st, EndActivation("b1"))
    assert st.deciding == "b"
    apply(st, Activate("b2"))
    ev = apply(st, EndActivation("b2"))
    assert "turn_end" in types(ev) and st.turn == 2


def test_turn_limit_ends_mission():
    """TURN-9/TURN-11: after the last turn the mission ends and every crew model's fate is recorded."""
    st = game([("a1", "a", profile(), (3, 3)), ("b1", "b", profile(), (30, 30))], turn_limit=1)
    apply(st, Activate("a1"))
    apply(st, EndActivation("a1"))
    apply(st, Activate("b1"))
    ev = apply(st, EndActivation("b1"))
    assert st.phase is Phase.MISSION_END and ev[-1].type == "mission_end"
    assert st.result["fates"]["a"]["a1"] == "survived"
    with pytest.raises(IllegalAction) as ei:
        apply(st, Activate("a1"))
    assert ei.value.rule == "TURN-11"


def test_early_end_when_no_player_models():
    """TURN-10 (`mission.early_end`): the mission ends at once when no crew has a model in play."""
    st = game([("a1", "a", profile(), (3, 3)), ("a2", "a", profile(), (5, 3)), ("b1", "b", profile(), (30, 30))])
    activate(st, "a1")
    _wound(st, "a2", 1)
    _wound(st, "b1", 1)
    _wound(st, "a1", 1)
    assert st.phase is Phase.ACTION  # the attack that caused these would end in its action
    ev = apply(st, EndActivation("a1"))
    assert st.phase is Phase.MISSION_END and ev[-1].type == "mission_end"
    assert st.result["reason"] == "no player crew model in play"
    assert st.result["fates"]["a"] == {"a1": "ooa", "a2": "ooa"}


def test_ordered_crit_extra_action_right_after_or_forgone():
    """GAP-12 / GAP-37: a recipient's critical success on an ordered action gives it one extra action, taken
    right after (or forgone with EndActivation naming it); the Leader then continues."""
    task = TaskState("ied", "IED", 15.0, 11.0, 0.5, difficulty=0, actions=3)
    st = game([("boss", "a", profile(actions=3, skills=("leader",)), (10, 10)),
               ("r", "a", profile(actions=1, will=6), (15, 10)), ("e", "b", profile(), (30, 30))], tasks=[task])
    activate(st, "boss")
    ev = apply(st, Order("boss", "r", ComplexTask("r", "ied")), ScriptedDice([1]))
    assert "extra_action" in types(ev) and st.activation.extra_unit == "r"
    with pytest.raises(IllegalAction) as ei:
        apply(st, Aim("boss"))
    assert ei.value.rule == "GAP-12"
    apply(st, ComplexTask("r", "ied"))
    assert st.tasks["ied"].progress == 2 and st.activation.extra_left == 0 and st.activation.spent == 1
    st2 = game([("boss", "a", profile(actions=3, skills=("leader",)), (10, 10)),
                ("r", "a", profile(actions=1, will=6), (15, 10)), ("e", "b", profile(), (30, 30))],
               tasks=[TaskState("ied", "IED", 15.0, 11.0, 0.5, difficulty=0, actions=3)])
    activate(st2, "boss")
    apply(st2, Order("boss", "r", ComplexTask("r", "ied")), ScriptedDice([1]))
    ev = apply(st2, EndActivation("r"))
    assert "extra_action_forgone" in types(ev) and st2.activation.unit == "boss" and st2.activation.extra_left == 0


def test_deploy_zone_and_reaction_radius():
    """TURN-4: models deploy wholly inside their zone, not inside a location's 3" Reaction Radius."""
    from dataclasses import replace as dc_replace

    from game.core.actions import Deploy
    from game.core.battlefield import Anchor

    st = game([("a1", "a", profile(), (3, 3))])
    st.models["a1"].deployed = False
    st.phase, st.deciding = Phase.DEPLOY, "a"
    st.battlefield = dc_replace(st.battlefield, anchors=(Anchor(9, "hotspot-a", (5.0, 5.0), kind="hotspot"),))
    with pytest.raises(IllegalAction) as ei:
        apply(st, Deploy("a1", 5.8, 5.4))
    assert ei.value.rule == "TURN-4" and "not wholly inside" in ei.value.reason
    with pytest.raises(IllegalAction) as ei:
        apply(st, Deploy("a1", 3.0, 3.0))
    assert "Reaction Radius of hotspot-a" in ei.value.reason
    st.battlefield = dc_replace(st.battlefield, anchors=())
    apply(st, Deploy("a1", 3.0, 3.0))
    assert st.models["a1"].deployed


# --- Environmental Hazards (TURN-3, SALVAGE-8.4.ENV, GAP-58, GAP-59) ------------------------------


@pytest.mark.parametrize("face,hazard,limit", [(1, "overcast", 6), (2, "sudden_darkness", 6), (4, "rainstorm", 6),
                                               (6, "high_radiation", 5)])
@pytest.mark.setting("env.enabled")
def test_environment_roll(face, hazard, limit):
    """TURN-3 with `env.enabled`: D6 on the table; High Radiation takes one turn off the limit (TV-13, GAP-58)."""
    from game.core.rules.turnrolls import roll_environment

    st = two(settings={"env.enabled": True})
    ctx = Ctx(st, ScriptedDice([face]), st.battlefield)
    roll_environment(ctx)
    assert st.environment == hazard and st.turn_limit == limit


def test_environment_off_by_default_rolls_nothing():
    from game.core.rules.turnrolls import roll_environment

    st = two()
    ctx = Ctx(st, ScriptedDice([]), st.battlefield)
    roll_environment(ctx)
    assert st.environment == "" and not ctx.events


def test_rainstorm_movement_and_range_sudden_darkness_los():
    """GAP-59: Rainstorm -1" per Move and maximum ranges halved; Sudden Darkness: no LOS beyond 12" without NODs."""
    from game.core.actions import RangedAttack

    st = game([("a1", "a", profile(ca=5, actions=3, weapons=("assault_rifle",)), (2, 11)),
               ("b1", "b", profile(), (29, 11))], settings={"env.enabled": True})
    st.environment = "rainstorm"
    activate(st, "a1")
    ev = apply(st, Move("a1", ((8.0, 11.0),)))
    assert [e for e in ev if e.type == "move"][0].data["allowance"] == 6.0  # 6 - 1, + 1" base
    with pytest.raises(IllegalAction) as ei:
        apply(st, RangedAttack("a1", "b1", "assault_rifle"))  # 20" apart > 36 / 2
    assert ei.value.rule == "GEO-5" and "18" in ei.value.reason
    st2 = game([("a1", "a", profile(ca=5, actions=3, weapons=("assault_rifle",)), (2, 11)),
                ("b1", "b", profile(), (17, 11)), ("b2", "b", profile(), (12, 20))],
               settings={"env.enabled": True})
    st2.environment = "sudden_darkness"
    activate(st2, "a1")
    with pytest.raises(IllegalAction) as ei:
        apply(st2, RangedAttack("a1", "b1", "assault_rifle"))  # 14" edge to edge
    assert ei.value.rule == "COMBAT-4.1.REQUIREMENTS"
    st2.models["a1"].items.append("nods")
    apply(st2, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([9, 9, 9]))


def test_free_acts_keep_aim_and_open_no_window():
    """CORE-3.3.AIM / TURN-7: Electric Juice is free (GAP-31), not an action: the Aim stays and no Alert window
    opens after it."""
    st = game([("a1", "a", profile(actions=2), (10, 10)), ("b1", "b", profile(actions=2), (26, 26))],
              items={"a1": ["electric_juice"]})
    st.units["b1"].alert = True
    st.units["b1"].activated = True
    activate(st, "a1")
    apply(st, DeclineInterrupt("b"))
    apply(st, Aim("a1"))
    apply(st, DeclineInterrupt("b"))
    ev = apply(st, UseItem("a1", "electric_juice"))
    assert "interrupt_window" not in types(ev) and st.activation.aim and st.phase is Phase.ACTION
