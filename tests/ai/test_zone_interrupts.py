"""The Zone's decisions outside its own actions (ZONE HOSTILE AI): the Alert interrupt (AI-D.09), the melee parry
(AI-D.12) and its own Med-Kit (AI-D.11), driven by real crew actions on tiny inline boards."""
from __future__ import annotations

import pytest

from game.ai.zone.attacks import ranged_shots
from game.core.actions import (
    DeclineInterrupt,
    DeclineMedKit,
    Interrupt,
    MeleeAttack,
    Move,
    Parry,
    RangedAttack,
    UseItem,
)
from game.core.dice import ScriptedDice
from game.core.rules.apply import apply
from game.core.state import Phase
from tests.enginekit import activate, profile
from tests.zonekit import activate_hostile, add_force, decide, events_of, lock, low_wall, step, wall, zone_game

CREW = profile("stalker", weapons=("knife",))
RIFLE = profile("rifleman", weapons=("assault_rifle",))


def crew_turn(st, unit: str) -> None:
    """Activate a crew unit, letting the Zone decline the activation-start window its Alert opens."""
    activate(st, unit)
    while st.phase is Phase.INTERRUPT:
        d, _ = step(st)
        assert isinstance(d.action, DeclineInterrupt) and d.reason["rule"] == "AI-D.09"


# --- AI-D.09 -------------------------------------------------------------------------------------------------------

def test_an_alert_bandit_shoots_the_first_enemy_that_steps_into_its_sight() -> None:
    """AI-D.09: `runner` walks out from behind a wall into LOS and range of a bandit on Alert; at that window the
    bandit interrupts with the AK at the AI-D.01 choice among the enemies it can attack with one action; the
    window before (nobody attackable) it declines."""
    st = zone_game([("runner", "a", CREW, (18.0, 4.0)), ("hidden", "a", CREW, (24.0, 4.0))],
                   pieces=(wall(1, 14.0, 6.0, 30.0, 8.0),))
    (b,) = add_force(st, "bandit", [(10.0, 14.0)], location=(10.0, 14.0), tl=2)
    st.units[b].alert = True
    crew_turn(st, "runner")
    ev = apply(st, Move("runner", ((12.0, 4.0),)))
    assert st.phase is Phase.INTERRUPT and st.deciding == st.units[b].side
    d, ev = step(st, [9, 9, 9])
    assert isinstance(d.action, Interrupt) and d.action.unit == b
    assert d.action.action == RangedAttack(b, "runner", "assault_rifle")
    assert d.reason["rule"] == "AI-D.09" and d.reason["target"] == "runner"
    assert ev[0].type == "interrupt"


def test_an_alert_bandit_attacks_the_ai_d01_choice_among_those_it_can_attack() -> None:
    """AI-D.09 with AI-D.01: two enemies in reach when the window opens, one in the open farther (within 1"), one in
    cover nearer: the Alert goes on the one in the open."""
    st = zone_game([("cov", "a", CREW, (15.55, 14.0)), ("open", "a", CREW, (10.0, 19.6))],
                   pieces=(low_wall(1, 14.6, 13.0, 15.0, 15.0),))
    (b,) = add_force(st, "bandit", [(10.0, 14.0)], location=(10.0, 14.0), tl=2)
    st.units[b].alert = True
    activate(st, "cov")
    assert st.phase is Phase.INTERRUPT
    d = decide(st)
    assert isinstance(d.action, Interrupt) and d.action.action.target == "open"


def test_a_locked_hostile_on_alert_does_not_spring_on_another_enemy() -> None:
    """AI-D.02 within AI-D.09: its lock holds on a hidden target: a different enemy in reach is not attacked."""
    st = zone_game([("locked", "a", CREW, (30.0, 4.0)), ("other", "a", CREW, (12.0, 20.0))],
                   pieces=(wall(1, 14.0, 0.0, 15.0, 13.0),))
    (b,) = add_force(st, "bandit", [(10.0, 14.0)], location=(10.0, 14.0), tl=2)
    st.units[b].alert = True
    lock(st, b, "locked")
    activate(st, "other")
    assert st.phase is Phase.INTERRUPT
    assert ranged_shots(st, b, "other", "alert") and not ranged_shots(st, b, "locked", "alert")
    d = decide(st)
    assert isinstance(d.action, DeclineInterrupt)


def test_a_locked_hostile_on_alert_fights_the_enemy_in_base_contact() -> None:
    """AI-D.09 with AI-D.07 step 2 (the referee's reading): locked on a hidden target it cannot attack, a bandit on
    Alert with another enemy in base contact fights that enemy at the window (declining was a checker violation in
    game 178 of `simulate chernya-woods --seed 3 --agents normal,easy --check`)."""
    st = zone_game([("locked", "a", CREW, (30.0, 4.0)), ("other", "a", CREW, (11.02, 14.0))],
                   pieces=(wall(1, 14.0, 0.0, 15.0, 13.0),))
    (b,) = add_force(st, "bandit", [(10.0, 14.0)], location=(10.0, 14.0), tl=2)
    st.units[b].alert = True
    lock(st, b, "locked")
    activate(st, "other")
    assert st.phase is Phase.INTERRUPT
    d = decide(st)
    assert isinstance(d.action, Interrupt) and isinstance(d.action.action, MeleeAttack)
    assert d.action.action.target == "other" and d.reason["rule"] == "AI-D.09"


# --- AI-D.12 -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("hostile,crew,p_a,p_b,k", [
    # Rad Ghoul Big Claws (Damage 1) vs Armor 6: save TN 5, fails 0.5; the Knife (Damage 0) vs Armor 4: fails 0.6
    ("ghouls", profile("s", armor=6, weapons=("knife",)), 0.5, 0.6, 1),
    # Mutant Big Claws (Damage 1) vs Armor 3: fails 0.8; a Machete (Damage 1) vs Armor 3: fails 0.8 -> no parry
    ("mutant", profile("s", armor=3, weapons=("machete",)), 0.8, 0.8, 0),
    # Mutant vs Armor 6: fails 0.5; the Machete vs Armor 3: 0.8 > 0.5 -> parry min(a, b) = min(2, 1)
    ("mutant", profile("s", armor=6, weapons=("machete",)), 0.5, 0.8, 1),
])
def test_parry_k_is_min_a_b_exactly_when_pb_beats_pa(hostile, crew, p_a, p_b, k) -> None:
    """AI-D.12: the hostile attacker hits `a` times, the defender `b`: pA = the chance one of its hits wounds the
    defender, pB = the chance one defender hit wounds it; k = min(a, b) if pB > pA else 0; the reason carries
    pA, pB, a, b and k, and apply accepts the Parry."""
    st = zone_game([("c1", "a", crew, (12.5, 10.0))])
    (h,) = add_force(st, hostile, [(10.0, 10.0)], location=(10.0, 10.0), tl=1)
    m = st.models[st.units[h].models[0]]
    m.x = 12.5 - 0.5 - m.radius  # base contact
    activate_hostile(st, h)
    d, _ = step(st, [1, 1, 1, 1])  # every die hits
    assert isinstance(d.action, MeleeAttack) and st.phase is Phase.PARRY
    d, ev = step(st, [9, 9, 9, 9])
    n = d.reason["numbers"]
    assert isinstance(d.action, Parry) and d.reason["rule"] == "AI-D.12"
    assert (n["pA"], n["pB"]) == pytest.approx((p_a, p_b))
    assert n["a"] == m.profile.fp_overrides[0][1] and n["b"] == 1
    assert d.action.hits == n["k"] == k == (min(n["a"], n["b"]) if p_b > p_a else 0)


# --- AI-D.11 -------------------------------------------------------------------------------------------------------

def test_a_wounded_bandit_dresses_its_wound_with_its_own_med_kit_and_declines_without_one() -> None:
    """AI-D.11: shot and wounded (it would go Out of Action), a bandit carrying a Med-Kit uses it on itself at
    once; the same Wound with the kit gone is declined (DeclineMedKit) and it goes Out of Action."""
    for kit in (True, False):
        st = zone_game([("c1", "a", RIFLE, (20.0, 14.0))])
        (b,) = add_force(st, "bandit", [(10.0, 14.0)], location=(10.0, 14.0), tl=2)
        st.models[b].items.append("medkit")
        activate(st, "c1")
        apply(st, RangedAttack("c1", b, "assault_rifle"), ScriptedDice([2, 9, 9, 9]))  # one hit, the save fails
        assert st.phase is Phase.MEDKIT and st.deciding == st.units[b].side
        if not kit:
            st.models[b].items.clear()
        d, ev = step(st)
        assert d.reason["rule"] == "AI-D.11"
        if kit:
            assert d.action == UseItem(b, "medkit") and not st.models[b].ooa
            assert events_of(ev, "medkit")
        else:
            assert d.action == DeclineMedKit(b) and st.models[b].ooa
