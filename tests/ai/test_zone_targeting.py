"""The Zone's agent choosing whom to attack (ZONE HOSTILE AI): the closest visible model, the open before cover and
the clearest line of sight among near-equals (AI-8.3.RULE3, AI-D.01), the lock kept until the target is destroyed or
lost (AI-D.02), the melee draw (AI-8.3.RULE4, AI-D.03), out-of-action models ignored (AI-D.14) and which unit
activates (AI-S.ORDER); every decision's reason reaches the log (Reasoned)."""
from __future__ import annotations

import pytest

from game.core.actions import Activate, Aim, MeleeAttack, Move, RangedAttack
from game.core.battlefield import Cover
from game.core.dice import ScriptedDice
from game.core.rules.apply import apply
from game.core.rules.exposure import choose_target, in_the_open, pen
from game.core.state import Phase
from tests.enginekit import activate, profile
from tests.zonekit import (
    activate_hostile,
    add_force,
    decide,
    events_of,
    lock,
    low_wall,
    piece,
    play,
    step,
    wall,
    zone_game,
)

CREW = profile("stalker", weapons=("knife",))


def locked(ev: list) -> str | None:
    (e,) = events_of(ev, "target_locked")
    assert {"AI-D.01", "AI-D.02", "AI-8.3.RULE3"} <= set(e.rules)
    return e.data["target"]


# --- AI-D.01 / AI-8.3.RULE3 -----------------------------------------------------------------------------------

def test_a_bandit_shoots_the_enemy_in_the_open_although_one_in_cover_is_closer() -> None:
    """AI-D.01, AI-8.3.RULE3 "enemies standing in the open are preferred over enemies in cover": `cov` stands 4"
    away touching a low wall between them (hard cover), `open` 4.6" away in the open (within `ai.close_tol` of
    the nearest, and nearer ones in cover would not matter either): C narrows to the open, the bandit shoots
    `open`."""
    st = zone_game([("cov", "a", CREW, (15.55, 18.0)), ("open", "a", CREW, (10.0, 23.6))],
                   pieces=(low_wall(1, 14.6, 17.0, 15.0, 19.0),))
    (b,) = add_force(st, "bandit", [(10.0, 18.0)], location=(10.0, 18.0), tl=1)
    assert not in_the_open(st, b, "cov") and in_the_open(st, b, "open")
    ch = choose_target(st, b, close_tol=1.0)
    assert ch.open_only and [f.enemy for f in ch.visible] == ["cov", "open"]  # cov is the closer
    assert locked(activate_hostile(st, b)) == "open"
    d, ev = step(st, [9, 9, 9])
    assert isinstance(d.action, RangedAttack) and d.action.target == "open"
    assert d.reason["rule"] == "AI-D.07" and d.reason["target"] == "open"


def test_among_near_equally_close_enemies_the_clearest_line_of_sight_wins() -> None:
    """AI-D.01 "clearest line of sight" = lowest pen among C' (within `ai.close_tol` 1" of d*): `near` (4") is seen
    across a fence (an obstruction, pen 1), `clear` (4.6") is not: the bandit shoots `clear`."""
    st = zone_game([("near", "a", CREW, (15.0, 18.0)), ("clear", "a", CREW, (10.0, 23.6))],
                   pieces=(piece(1, 12.0, 17.0, 12.4, 19.0, 0.75, cover=Cover.OBSTRUCTION),))
    (b,) = add_force(st, "bandit", [(10.0, 18.0)], location=(10.0, 18.0), tl=1)
    assert in_the_open(st, b, "near") and pen(st, b, "near") == 1 and pen(st, b, "clear") == 0
    assert locked(activate_hostile(st, b)) == "clear"
    d, _ = step(st, [9, 9, 9])
    assert isinstance(d.action, RangedAttack) and d.action.target == "clear"


def test_the_clearer_enemy_beyond_the_tolerance_loses_to_the_closest() -> None:
    """AI-D.01: `far` (5.2", pen 0) is beyond d* + 1" of `near` (4", pen 1): the closest is attacked."""
    st = zone_game([("near", "a", CREW, (15.0, 18.0)), ("far", "a", CREW, (10.0, 24.2))],
                   pieces=(piece(1, 12.0, 17.0, 12.4, 19.0, 0.75, cover=Cover.OBSTRUCTION),))
    (b,) = add_force(st, "bandit", [(10.0, 18.0)], location=(10.0, 18.0), tl=1)
    assert locked(activate_hostile(st, b)) == "near"


def test_out_of_action_enemies_are_never_targets() -> None:
    """AI-D.14: the nearest model is Out of Action: the ghoul chases the next one."""
    st = zone_game([("down", "a", CREW, (12.0, 18.0)), ("up", "a", CREW, (18.0, 18.0))])
    st.models["down"].ooa = True
    (g,) = add_force(st, "ghouls", [(10.0, 18.0)], location=(10.0, 18.0), tl=2)
    assert locked(activate_hostile(st, g)) == "up"


# --- AI-D.02 the lock --------------------------------------------------------------------------------------------

def test_the_lock_is_kept_when_another_enemy_comes_closer() -> None:
    """AI-D.02, AI-8.3.RULE3 "keeps attacking that opponent": locked on `first`, the ghoul ignores `second` who
    now stands closer and visible, and moves toward `first`."""
    st = zone_game([("first", "a", CREW, (22.0, 18.0)), ("second", "a", CREW, (10.0, 21.0))])
    (g,) = add_force(st, "ghouls", [(10.0, 18.0)], location=(10.0, 18.0), tl=2)
    lock(st, g, "first")
    assert choose_target(st, g, close_tol=1.0).chosen.enemy == "second"  # a fresh choice would be `second`
    ev = activate_hostile(st, g)
    assert not events_of(ev, "target_locked")
    d, _ = step(st)
    assert isinstance(d.action, Move) and d.reason["target"] == "first"
    assert st.models[g].x == pytest.approx(18.0, abs=1e-6)


def test_a_locked_bandit_shoots_its_target_not_the_closer_one() -> None:
    """AI-D.02: the bandit's lock holds on `first` (visible, in range) while `second` is closer."""
    st = zone_game([("first", "a", CREW, (24.0, 18.0)), ("second", "a", CREW, (10.0, 21.0))])
    (b,) = add_force(st, "bandit", [(10.0, 18.0)], location=(10.0, 18.0), tl=1)
    lock(st, b, "first")
    activate_hostile(st, b)
    d, _ = step(st, [9, 9, 9])
    assert isinstance(d.action, RangedAttack) and d.action.target == "first"


def test_the_lock_is_dropped_when_the_target_is_out_of_action() -> None:
    """AI-D.02 (i): the locked target goes Out of Action: the lock is dropped at the next check and the AI-D.01
    choice becomes the new lock."""
    st = zone_game([("first", "a", CREW, (22.0, 18.0)), ("second", "a", CREW, (10.0, 24.0))])
    (g,) = add_force(st, "ghouls", [(10.0, 18.0)], location=(10.0, 18.0), tl=2)
    lock(st, g, "first")
    st.models["first"].ooa = True
    ev = activate_hostile(st, g)
    (drop,) = events_of(ev, "target_lock_dropped")
    assert drop.data["target"] == "first" and "Out of Action" in drop.data["why"]
    assert locked(ev) == "second"
    assert decide(st).reason["target"] == "second"


def test_the_lock_is_dropped_after_a_whole_activation_neither_seen_nor_in_the_territory() -> None:
    """AI-D.02 (ii): `gone` hides behind a wall 20" from pL; the ghoul walks toward its last known position for the
    whole activation, then the engine's memory drops the lock at the activation's end (`target_lock_dropped`);
    the next activation locks on `seen`, who was visible all along, and moves toward it."""
    st = zone_game([("gone", "a", CREW, (30.0, 18.0)), ("seen", "a", CREW, (4.0, 34.0))],
                   pieces=(wall(1, 24.0, 4.0, 25.0, 32.0),))
    (g,) = add_force(st, "ghouls", [(10.0, 18.0)], location=(10.0, 18.0), tl=2)
    lock(st, g, "gone", at=(30.0, 21.0))
    out = play(st, g)
    assert [d.reason["target"] for d, _ in out] == ["gone", "gone"]
    assert all(isinstance(d.action, Move) and d.reason["rule"] == "AI-D.02" for d, _ in out)
    (drop,) = events_of(out[-1][1], "target_lock_dropped")
    assert drop.data["target"] == "gone" and drop.data["why"].startswith("neither visible nor inside")
    assert drop.rules[0] == "AI-D.02"
    ev_types = [e.type for e in out[-1][1]]
    assert ev_types.index("target_lock_dropped") < ev_types.index("activation_end")
    assert st.ai[g].lock is None
    st.units[g].activated = False
    assert locked(activate_hostile(st, g)) == "seen"
    d = decide(st)
    assert isinstance(d.action, Move) and d.reason["target"] == "seen" and d.reason["rule"] == "AI-D.06"


def test_a_hidden_lock_inside_the_territory_is_kept() -> None:
    """AI-D.02 (ii): hidden but with its centre within 12" of pL at a check, the target stays locked."""
    st = zone_game([("hid", "a", CREW, (20.0, 18.0))], pieces=(wall(1, 17.0, 10.0, 18.0, 26.0),))
    (g,) = add_force(st, "ghouls", [(12.0, 18.0)], location=(10.0, 18.0), tl=1)
    lock(st, g, "hid")
    out = play(st, g)
    assert out[0][0].reason["target"] == "hid"
    assert not any(events_of(ev, "target_lock_dropped") for _, ev in out)
    assert st.ai[g].lock == "hid"


# --- AI-D.03 / AI-8.3.RULE4 the melee draw ------------------------------------------------------------------------

@pytest.mark.parametrize("attacked", [True, False])
def test_a_melee_attack_draws_the_hostile_off_its_lock(attacked: bool) -> None:
    """AI-D.03, AI-8.3.RULE4: a ghoul in contact with `locked` (its lock) and `brawler`; `brawler` melee-attacks
    it (both miss): at its next activation the ghoul Aims (AI-D.08) and attacks `brawler`, rule AI-D.03. Without
    the attack it keeps to its lock."""
    st = zone_game([("locked", "a", CREW, (11.0, 10.0)), ("brawler", "a", CREW, (10.0, 11.0))])
    (g,) = add_force(st, "ghouls", [(10.0, 10.0)], location=(10.0, 10.0), tl=2)
    lock(st, g, "locked")
    if attacked:
        activate(st, "brawler")
        ev = apply(st, MeleeAttack("brawler", g, "knife"), ScriptedDice([9, 9]))
        (draw,) = events_of(ev, "melee_draw")
        assert draw.data["target"] == "brawler" and draw.rules == ("AI-D.03", "AI-8.3.RULE4")
    foe = "brawler" if attacked else "locked"
    activate_hostile(st, g)
    d, _ = step(st)
    assert isinstance(d.action, Aim) and d.reason["target"] == foe and d.reason["rule"] == "AI-D.08"
    d = decide(st)
    assert isinstance(d.action, MeleeAttack) and d.action.target == foe
    assert d.reason["rule"] == ("AI-D.03" if attacked else "AI-D.07")
    assert st.ai[g].lock == "locked"  # the draw overrides the lock, it does not replace it


def test_a_melee_attack_pulls_a_bandit_off_its_distant_target() -> None:
    """AI-D.03 (AI-8.3.RULE4 "only a melee attack can pull its attention away"): a bandit locked on a visible
    target far off is knifed by `brawler`: it fights `brawler` in melee with its best melee weapon (AI-D.07 step
    2), not its lock."""
    st = zone_game([("far", "a", CREW, (24.0, 10.0)), ("brawler", "a", CREW, (10.0, 11.0))])
    (b,) = add_force(st, "bandit", [(10.0, 10.0)], location=(10.0, 10.0), tl=1)
    lock(st, b, "far")
    activate(st, "brawler")
    apply(st, MeleeAttack("brawler", b, "knife"), ScriptedDice([9] * 6))
    activate_hostile(st, b)
    d = decide(st)
    assert isinstance(d.action, MeleeAttack) and d.action.target == "brawler" and d.reason["rule"] == "AI-D.03"


# --- AI-S.ORDER ----------------------------------------------------------------------------------------------------

def test_the_unit_nearest_any_enemy_activates_ties_to_the_lowest_id() -> None:
    """AI-S.ORDER: of three bandits (each its own unit), the one nearest any enemy activates; the reason names the
    rule and is on the `activation_start` event."""
    st = zone_game([("c1", "a", CREW, (20.0, 10.0)), ("c2", "a", CREW, (4.0, 30.0))])
    units = add_force(st, "bandit", [(10.0, 10.0), (8.0, 26.0), (14.0, 14.0)], location=(10.0, 18.0), tl=2)
    st.phase, st.deciding = Phase.ACTIVATE, st.units[units[0]].side
    d, ev = step(st)
    assert isinstance(d.action, Activate) and d.action.unit == units[1]  # 3.7" from c2 (c1: 5.2" from the third)
    assert d.reason["rule"] == "AI-S.ORDER" and d.reason["numbers"]["eligible"][0] == units[1]
    assert ev[0].type == "activation_start" and "AI-S.ORDER" in ev[0].rules
    st2 = zone_game([("c1", "a", CREW, (10.0, 20.0))])
    tie = add_force(st2, "bandit", [(14.0, 24.0), (6.0, 16.0)], location=(10.0, 20.0), tl=2)
    st2.phase, st2.deciding = Phase.ACTIVATE, st2.units[tie[0]].side
    assert decide(st2).action == Activate(min(tie))


# --- AI-8.3.RULE2 and the reasons ---------------------------------------------------------------------------------

def test_inside_its_territory_it_always_attacks_move_into_contact_then_attack_with_the_rest() -> None:
    """AI-8.3.RULE2, AI-D.07 (melee-only: "with 2+ actions and contact reachable with the first, they attack with
    the rest"), Reasoned: a 3-action ghoul reaches contact with its first Move, then (2 actions left, FP 1, no move
    needed: AI-D.08) Aims and attacks; each decision's reason {rule, target, goal, text, numbers} is on its first
    event with its rule in the event's rules (checked by `step`)."""
    st = zone_game([("c1", "a", CREW, (16.0, 10.0))])
    (g,) = add_force(st, "ghouls", [(10.0, 10.0)], location=(10.0, 10.0), tl=3)
    out = play(st, g)
    kinds = [type(d.action).__name__ for d, _ in out]
    assert kinds[:3] == ["Move", "Aim", "MeleeAttack"], kinds
    assert [d.reason["rule"] for d, _ in out[:3]] == ["AI-D.06", "AI-D.08", "AI-D.07"]
    assert out[0][0].reason["goal"] == [16.0, 10.0] and out[0][0].reason["numbers"]["branch"] == "contact"
    assert all(d.reason["target"] == "c1" for d, _ in out[:3])
    first = out[2][1][0]
    assert first.data["reason"]["text"].startswith("AI-D.07: ") and "AI-D.07" in first.rules
