"""The Zone's ranged hostiles (Bandits) and the Aim rule (ZONE HOSTILE AI): AI-D.07 steps 1-4 (Rally; melee in
contact with the best weapon; cover that keeps the shot, else shoot; no shot: ambush on Alert in cover or move to a
spot with a shot) and AI-D.08 (Aim exactly with FP 1, two actions, no move; into a melee always with two actions),
on tiny inline boards. `hostiles.bandit.weapons` = pistol + knife gives a bandit a 12" FP 1 gun."""
from __future__ import annotations

import math

import pytest

from game.ai.zone.attacks import melee_blows, ranged_shots
from game.core.actions import Aim, Alert, MeleeAttack, Move, Rally, RangedAttack
from game.core.battlefield import Cover
from game.core.rules.exposure import cover_at_rest, in_cover_against, seen_by
from tests.enginekit import profile
from tests.zonekit import activate_hostile, add_force, decide, lock, low_wall, step, wall, zone_game

CREW = profile("stalker", weapons=("knife",))
PISTOL = {"hostiles.bandit.weapons": ["pistol", "knife"]}
MISS = [9] * 6


def test_a_pinned_bandit_rallies_first() -> None:
    """AI-D.07 step 1: Pinned -> Rally, whatever else it could do."""
    st = zone_game([("c1", "a", CREW, (20.0, 10.0))])
    (b,) = add_force(st, "bandit", [(10.0, 10.0)], location=(10.0, 10.0), tl=2)
    st.units[b].pins = 1
    activate_hostile(st, b)
    d = decide(st)
    assert isinstance(d.action, Rally) and d.reason["rule"] == "AI-D.07" and d.reason["numbers"]["pins"] == 1


def test_a_bandit_in_contact_melees_with_the_weapon_of_most_expected_wounds() -> None:
    """AI-D.07 step 2: in base contact -> melee attack with the weapon maximising FP x P(hit) x P(save fails): the
    Assault Rifle at -2 (FP 3) against the Knife (FP 1); FP 3 never Aims (AI-D.08 (a))."""
    st = zone_game([("c1", "a", CREW, (11.0, 10.0))])
    (b,) = add_force(st, "bandit", [(10.0, 10.0)], location=(10.0, 10.0), tl=2)
    activate_hostile(st, b)
    blows = {s.weapon: s for s in melee_blows(st, b, "c1")}
    best = max(blows.values(), key=lambda s: s.expected)
    assert set(blows) == {"assault_rifle", "knife"}
    assert blows["assault_rifle"].expected != blows["knife"].expected
    d = decide(st)
    assert isinstance(d.action, MeleeAttack) and d.action.weapon == best.weapon
    assert d.reason["numbers"]["expected_wounds"] == pytest.approx(round(best.expected, 4))


# --- step 3 --------------------------------------------------------------------------------------------------------

def test_in_the_open_with_two_actions_it_moves_to_cover_that_keeps_the_shot_then_shoots() -> None:
    """AI-D.07 step 3, AI-8.3.RULE2: the target is in LOS and range; the bandit stands in the open with 2 actions
    and a low wall 1.5" away gives hard cover against the target with LOS and range kept: it Moves there (the
    nearest such point), then shoots (1 action left; AK FP 3: no Aim)."""
    st = zone_game([("c1", "a", CREW, (24.0, 10.0))], pieces=(low_wall(1, 12.0, 8.0, 12.5, 12.0),))
    (b,) = add_force(st, "bandit", [(10.0, 10.0)], location=(10.0, 10.0), tl=2)
    activate_hostile(st, b)
    assert ranged_shots(st, b, "c1") and not in_cover_against(st, b, "c1")
    d, _ = step(st)
    assert isinstance(d.action, Move) and d.reason["rule"] == "AI-D.07" and "step 3" in d.reason["text"]
    assert d.reason["numbers"]["cover"] == "hard"
    m = st.models[b]
    assert (m.x, m.y) == pytest.approx((11.45, 10.0), abs=1e-6)  # least path cost among the hard-cover points
    assert in_cover_against(st, b, "c1") and ranged_shots(st, b, "c1")
    d, _ = step(st, MISS)
    assert isinstance(d.action, RangedAttack) and d.action.target == "c1"


def test_with_one_action_or_already_in_cover_it_shoots_at_once() -> None:
    """AI-D.07 step 3: no cover move with 1 action left, nor when already in cover against the target; the AK
    (FP 3) shoots without Aiming (AI-D.08)."""
    st = zone_game([("c1", "a", CREW, (24.0, 10.0))], pieces=(low_wall(1, 12.0, 8.0, 12.5, 12.0),))
    (b,) = add_force(st, "bandit", [(10.0, 10.0)], location=(10.0, 10.0), tl=1)
    activate_hostile(st, b)
    d = decide(st)
    assert isinstance(d.action, RangedAttack) and d.action.target == "c1"
    st = zone_game([("c1", "a", CREW, (24.0, 10.0))], pieces=(low_wall(1, 12.0, 8.0, 12.5, 12.0),))
    (b,) = add_force(st, "bandit", [(11.45, 10.0)], location=(10.0, 10.0), tl=2)
    activate_hostile(st, b)
    assert in_cover_against(st, b, "c1")
    d, _ = step(st, MISS)
    assert isinstance(d.action, RangedAttack)
    d = decide(st)
    assert isinstance(d.action, RangedAttack)


# --- step 4 --------------------------------------------------------------------------------------------------------

def test_no_shot_in_cover_with_two_actions_goes_on_alert_to_ambush() -> None:
    """AI-D.07 step 4 [`ai.alert`=true]: the target is visible but 16" off, beyond the pistol's 12"; the bandit is
    in cover against it with 2 actions and the target within 12 + 6": Alert."""
    st = zone_game([("c1", "a", CREW, (28.0, 10.0))], settings=PISTOL,
                   pieces=(low_wall(1, 12.0, 8.0, 12.5, 12.0),))
    (b,) = add_force(st, "bandit", [(11.45, 10.0)], location=(10.0, 10.0), tl=2)
    activate_hostile(st, b)
    assert seen_by(st, b, "c1") and not ranged_shots(st, b, "c1") and in_cover_against(st, b, "c1")
    d, _ = step(st)
    assert isinstance(d.action, Alert) and "step 4" in d.reason["text"] and st.units[b].alert


def test_no_shot_in_the_open_it_moves_to_a_spot_with_a_shot_preferring_cover() -> None:
    """AI-D.07 step 4: the same target, the bandit in the open: it Moves to a legal position with LOS and range,
    in cover when one is reachable (a low wall 1.5" from the pistol's reach)."""
    st = zone_game([("c1", "a", CREW, (26.0, 10.0))], settings=PISTOL,
                   pieces=(low_wall(1, 14.5, 11.0, 15.0, 13.0),))
    (b,) = add_force(st, "bandit", [(10.0, 10.0)], location=(10.0, 10.0), tl=2)
    activate_hostile(st, b)
    assert seen_by(st, b, "c1") and not ranged_shots(st, b, "c1")
    d, _ = step(st)
    assert isinstance(d.action, Move) and "step 4" in d.reason["text"]
    assert ranged_shots(st, b, "c1")
    assert d.reason["numbers"]["cover"] == "hard" and in_cover_against(st, b, "c1")


def test_a_wall_at_its_back_is_no_cover_against_the_visible_target() -> None:
    """Shared definitions, "in cover" against a visible target (AI-D.07 step 4): touching a wall on the far side
    from the target is contact with cover at rest but no cover against it: no ambush, it moves to get a shot."""
    st = zone_game([("c1", "a", CREW, (28.0, 10.0))], settings=PISTOL,
                   pieces=(low_wall(1, 9.0, 8.0, 9.5, 12.0),))
    (b,) = add_force(st, "bandit", [(10.05, 10.0)], location=(10.0, 10.0), tl=2)
    activate_hostile(st, b)
    assert cover_at_rest(st, b).in_cover and not in_cover_against(st, b, "c1")
    d = decide(st)
    assert isinstance(d.action, Move) and "step 4" in d.reason["text"]


def test_a_hidden_lock_is_followed_not_ambushed() -> None:
    """AI-D.04 (a) governs when nobody is visible (not AI-D.07 step 4): the bandit's locked target hides behind a
    wall within range + 6"; in cover with 2 actions, the bandit still moves toward its last known position."""
    st = zone_game([("c1", "a", CREW, (24.0, 10.0))],
                   pieces=(low_wall(1, 12.0, 8.0, 12.5, 12.0), wall(2, 20.0, 4.0, 21.0, 16.0)))
    (b,) = add_force(st, "bandit", [(11.45, 10.0)], location=(10.0, 10.0), tl=2)
    lock(st, b, "c1")
    activate_hostile(st, b)
    assert not seen_by(st, b, "c1") and cover_at_rest(st, b).in_cover
    d, _ = step(st)
    assert isinstance(d.action, Move) and d.reason["rule"] == "AI-D.04" and d.reason["target"] == "c1"
    assert st.models[b].x > 11.45


# --- AI-D.08 Aim ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("tl", [1, 2])
def test_fp1_melee_aims_with_two_actions_in_contact_never_with_one(tl: int) -> None:
    """AI-D.08: a Rad Ghoul (FP 1) in base contact: with 2 actions it Aims, then attacks (Aimed); with 1 it attacks
    at once."""
    st = zone_game([("c1", "a", CREW, (11.0, 10.0))])
    (g,) = add_force(st, "ghouls", [(10.0, 10.0)], location=(10.0, 10.0), tl=tl)
    activate_hostile(st, g)
    if tl == 2:
        d, _ = step(st)
        assert isinstance(d.action, Aim) and d.reason["rule"] == "AI-D.08" and d.reason["numbers"]["dice"] == 1
        assert st.activation.aim
    d = decide(st)
    assert isinstance(d.action, MeleeAttack) and d.action.target == "c1"


def test_fp1_pistol_aims_when_the_shot_needs_no_move() -> None:
    """AI-D.08 (a)-(d): a bandit with a pistol (FP 1), 2 actions, in cover against a target in range: Aim, then
    shoot; the AK (FP 3) in the same spot shoots at once."""
    st = zone_game([("c1", "a", CREW, (20.0, 10.0))], settings=PISTOL, pieces=(low_wall(1, 12.0, 8.0, 12.5, 12.0),))
    (b,) = add_force(st, "bandit", [(11.45, 10.0)], location=(10.0, 10.0), tl=2)
    activate_hostile(st, b)
    d, _ = step(st)
    assert isinstance(d.action, Aim) and d.reason["target"] == "c1"
    d = decide(st)
    assert isinstance(d.action, RangedAttack) and d.action.weapon == "pistol"


def test_fp1_pistol_in_the_open_moves_to_cover_first_and_does_not_aim_after_the_move() -> None:
    """AI-D.08 (d) "they do not need to move": the pistol bandit moves to cover (AI-D.07 step 3) and, with 1 action
    left, shoots un-aimed."""
    st = zone_game([("c1", "a", CREW, (20.0, 10.0))], settings=PISTOL, pieces=(low_wall(1, 12.0, 8.0, 12.5, 12.0),))
    (b,) = add_force(st, "bandit", [(10.0, 10.0)], location=(10.0, 10.0), tl=2)
    activate_hostile(st, b)
    d, _ = step(st)
    assert isinstance(d.action, Move)
    d = decide(st)
    assert isinstance(d.action, RangedAttack) and not st.activation.aim


def test_firing_into_a_melee_aims_first_with_two_actions_and_with_one_picks_another_target() -> None:
    """AI-D.08 exception: the bandit's target `brawl` is in base contact with a ghoul (a melee): with 2 actions it
    Aims first even with the AK (FP 3); with 1 action it never fires un-aimed into the melee and shoots `clear`
    instead."""
    for tl in (2, 1):
        st = zone_game([("brawl", "a", CREW, (20.0, 10.0)), ("clear", "a", CREW, (10.0, 22.0))],
                       pieces=(low_wall(1, 12.0, 8.0, 12.5, 12.0),))
        (b,) = add_force(st, "bandit", [(11.45, 10.0)], location=(10.0, 10.0), tl=tl)
        add_force(st, "ghouls", [(21.0, 10.0)], location=(26.0, 10.0), loc_id="hs2")
        lock(st, b, "brawl")
        activate_hostile(st, b)
        (shot,) = [s for s in ranged_shots(st, b, "brawl") if s.weapon == "assault_rifle"]
        assert shot.into_melee
        d = decide(st)
        if tl == 2:
            assert isinstance(d.action, Aim) and d.reason["target"] == "brawl" and d.reason["rule"] == "AI-D.08"
        else:
            assert isinstance(d.action, RangedAttack) and d.action.target == "clear", d
            assert d.reason["rule"] == "AI-D.08"
    assert math.isfinite(shot.expected)


def test_step_3_prefers_the_better_cover_class_over_the_nearer_spot() -> None:
    """AI-D.07 step 3 "best cover class, then least path cost": a hedge (soft) 1" away and a low brick wall (hard)
    3" away both keep the shot: the bandit goes to the hard cover."""
    hedge = low_wall(1, 11.55, 9.0, 12.0, 11.0, cover=Cover.SOFT)
    brick = low_wall(2, 10.0, 12.55, 12.0, 13.0)
    st = zone_game([("c1", "a", CREW, (20.0, 16.0))], pieces=(hedge, brick))
    (b,) = add_force(st, "bandit", [(10.0, 10.0)], location=(10.0, 10.0), tl=2)
    activate_hostile(st, b)
    d, _ = step(st)
    assert isinstance(d.action, Move) and d.reason["numbers"]["cover"] == "hard"
    assert in_cover_against(st, b, "c1") and ranged_shots(st, b, "c1")


def test_a_bandit_senses_an_intruder_and_moves_where_it_can_shoot_it() -> None:
    """AI-D.04 (b) for a ranged unit: no lock, nobody visible, an enemy inside the territory behind a wall: the
    bandit moves per AI-D.06 to a legal position with LOS (and range) to it."""
    st = zone_game([("c1", "a", CREW, (20.0, 10.0))], pieces=(wall(1, 15.0, 6.0, 16.0, 14.0),))
    (b,) = add_force(st, "bandit", [(12.0, 10.0)], location=(12.0, 12.0), tl=2)
    activate_hostile(st, b)
    assert not seen_by(st, b, "c1") and st.ai[b].lock is None
    d, _ = step(st)
    assert isinstance(d.action, Move) and d.reason["rule"] == "AI-D.04" and "(b)" in d.reason["text"]
    assert d.reason["numbers"]["intruder"] == "c1"
    assert seen_by(st, b, "c1") and ranged_shots(st, b, "c1")
