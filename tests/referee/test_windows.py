"""The hostile decisions outside its own actions, judged by the referee: Alert interrupts (AI-D.09), parries
(AI-D.12), free attacks on a withdrawer (AI-D.13), which unit activates (AI-S.ORDER), spawn free moves (AI-S.SPAWN)."""
from __future__ import annotations

from game.core.actions import (
    Activate,
    Alert,
    DeclineInterrupt,
    Interrupt,
    MeleeAttack,
    Move,
    Parry,
    RangedAttack,
    StayPut,
    Withdraw,
)
from game.core.dice import ScriptedDice
from game.core.rules import exposure as ex
from game.core.rules.apply import apply
from game.core.state import LocationState, Phase
from game.referee.zone import ZoneChecker
from tests.referee.kit import ZONE, Table, rules_of, zone_game

B = "hs-bandit-1"
AR = "assault_rifle"


def alert_table() -> Table:
    """A bandit on Alert; c1 in its sight starts its activation: the window before c1's first action opens."""
    t = Table(zone_game([("c1", (18.0, 26.0))], [(18.0, 18.0)]))
    t.st.units[B].alert = True
    assert t.activate("c1") == []
    assert t.st.phase is Phase.INTERRUPT and t.st.deciding == ZONE
    return t


def test_declining_an_alert_interrupt_with_a_shot_available_breaks_ai_d09() -> None:
    t = alert_table()
    found = t.do(DeclineInterrupt(ZONE))
    assert rules_of(found) == ["AI-D.09"] and "c1" in found[0].allowed
    t = alert_table()
    assert t.do(Interrupt(B, RangedAttack(B, "c1", AR)), [9, 9, 9]) == []
    assert t.checks["AI-D.09"] == 1 and t.checks["AI-8.3.RULE3"] == 1


def test_a_held_action_that_is_not_the_attack_breaks_ai_d09() -> None:
    t = alert_table()
    assert rules_of(t.do(Interrupt(B, Move(B, ((18.0, 17.0),))))) == ["AI-D.09"]


def test_melee_only_hostiles_never_go_on_alert() -> None:
    t = Table(zone_game([("c1", (30.0, 30.0))], [(18.0, 18.0)], hostile="zombies"))
    t.activate("hs-zombies-1")
    assert "AI-D.09" in rules_of(t.do(Alert("hs-zombies-1")))


M = "hs-mutant-1"


def parry_table() -> Table:
    """A Mutant (Big Claws FP 2, Damage 1) hits c1 twice and c1 (unarmed) hits back once: pA = 0.6 (c1 saves on
    4), pB = 0.7 (the Mutant saves on 3), so AI-D.12 parries min(2, 1) = 1."""
    t = Table(zone_game([("c1", (18.0, 19.35))], [(18.0, 18.0)], hostile="mutant"))
    assert t.activate(M) == []
    assert t.do(MeleeAttack(M, "c1", "big_claws"), [2, 2, 2]) == []
    assert t.st.phase is Phase.PARRY
    return t


def test_a_wrong_parry_breaks_ai_d12_and_the_right_one_passes() -> None:
    t = parry_table()
    found = t.do(Parry(M, 0), [9, 9, 9])
    assert rules_of(found) == ["AI-D.12"] and "parry 1" in found[0].allowed and "pB=0.700" in found[0].allowed
    t = parry_table()
    assert t.do(Parry(M, 1), [9, 9]) == [] and t.checks["AI-D.12"] == 1


def withdraw_table() -> Table:
    t = Table(zone_game([("c1", (18.0, 19.05))], [(18.0, 18.0)], hostile="zombies"))
    assert t.activate("c1") == []
    return t


def test_every_engaged_hostile_makes_its_free_attack_on_a_withdrawer() -> None:
    """AI-D.13: the engine rolls the free attack; the referee finds it in the events (and trusts nobody: a log
    without it is a violation)."""
    t = withdraw_table()
    assert t.do(Withdraw("c1", ((18.0, 24.0),)), [9]) == [] and t.checks["AI-D.13"] == 1

    t = withdraw_table()
    before = t.st.clone()
    action = Withdraw("c1", ((18.0, 24.0),))
    events = [e for e in apply(t.st, action, ScriptedDice([9])) if e.type != "roll"]
    t.checker.observe(before, action, events, t.st)
    assert rules_of(t.checker.last) == ["AI-D.13"]


def test_a_hostile_never_withdraws() -> None:
    t = Table(zone_game([("c1", (18.0, 19.05))], [(18.0, 18.0)], hostile="zombies"))
    t.activate("hs-zombies-1")
    assert "AI-D.13" in rules_of(t.do(Withdraw("hs-zombies-1", ((18.0, 14.0),)), [9]))


def test_the_force_activates_its_unit_nearest_an_enemy() -> None:
    """AI-S.ORDER: of two bandits, the one 3" from c1 activates, not the one 7" away."""
    st = zone_game([("c1", (18.0, 26.0))], [(18.0, 18.0), (18.0, 22.0)])
    for unit, broken in (("hs-bandit-1", ["AI-S.ORDER"]), ("hs-bandit-2", [])):
        t = Table(st.clone())
        t.st.phase, t.st.deciding, t.st.cycle = Phase.ACTIVATE, ZONE, 1
        assert rules_of(t.do(Activate(unit))) == broken
        assert t.checks["AI-S.ORDER"] == 1


def spawn_table() -> Table:
    """c1 enters a TL1 location's Reaction Radius: D6 1, a Vermin Swarm (one 1.6" figure, melee, 6" Move) lands on
    the location point (deviation D10 1: 0.5" at angle 0) and makes its free move."""
    st = zone_game([("c1", (18.0, 32.0))], [], hostile="bandit")
    st.locations["den"] = LocationState("den", "the den", "hotspot", 18.0, 23.0, 1)
    t = Table(st)
    t.activate("c1")
    t.do(Move("c1", ((18.0, 26.0),)), [1, 1, 0.0])
    assert t.st.phase is Phase.SPAWN_MOVE
    return t


def test_a_spawned_melee_hostile_moves_toward_its_enemy() -> None:
    """AI-S.SPAWN: the swarm sees c1; staying put is a violation, the AI-D.06 move passes."""
    t = spawn_table()
    unit = t.st.spawning.pending[0]
    assert rules_of(t.do(StayPut(unit))) == ["AI-S.SPAWN"]
    t = spawn_table()
    unit = t.st.spawning.pending[0]
    cands = ex.candidate_points(t.st, unit, 7.6, target="c1", leash_centre=(18.0, 23.0))
    c = ex.choose_melee_move(cands, cover_slack=1.0).chosen
    assert c is not None
    assert t.do(Move(unit, tuple((p[0], p[1]) for p in c.path[1:]))) == []
    assert t.checks["AI-S.SPAWN"] == 1


def test_a_checker_built_from_settings_counts_the_same() -> None:
    assert ZoneChecker().tune == ZoneChecker({"ai.cover_slack": 1.0}).tune
