"""AI-D.10, the Zone's grenades (Game Two's bandits carry a Molotov each, GAP-100): about to shoot, a bandit throws
instead when the Molotov's SBT on its target would touch 2+ enemies and no hostile (a), or when the target has hard
cover against its fire (b); else it shoots. The rules checker judges the choice from the same core query
(game.core.rules.hostile_grenades) and flags a shot where the rule calls for a throw."""
from __future__ import annotations

from game.core.actions import RangedAttack, ThrowGrenade
from game.core.rules.apply import apply
from game.core.rules.hostile_grenades import grenade_call
from game.referee.zone import ZoneChecker
from tests.enginekit import profile
from tests.zonekit import activate_hostile, add_force, decide, lock, low_wall, zone_game

CREW = profile("stalker", weapons=("knife",))


def _bandit(st, at=(10.0, 10.0), molotovs: int = 1) -> str:
    (b,) = add_force(st, "bandit", [at], location=at, tl=1, actions=1)
    st.models[b].grenades = {"molotov": molotovs} if molotovs else {}
    return b


def test_two_enemies_under_the_template_and_no_hostile_draw_the_molotov() -> None:
    """(a): two stalkers 1" apart in the open, 12" away; the SBT on the target touches both."""
    st = zone_game([("c1", "a", CREW, (22.0, 10.0)), ("c2", "a", CREW, (22.0, 11.2))])
    b = _bandit(st)
    activate_hostile(st, b)
    lock(st, b, "c1")
    call = grenade_call(st, b, "c1")
    assert call is not None and call.condition == "a" and call.enemies == ("c1", "c2")
    d = decide(st)
    assert isinstance(d.action, ThrowGrenade) and d.action.grenade == "molotov"
    assert (d.action.x, d.action.y) == (22.0, 10.0) and d.reason["rule"] == "AI-D.10"
    ev = apply(st, d.reasoned())
    assert st.models[b].grenades["molotov"] == 0 and any(e.type == "template" for e in ev)


def test_a_lone_target_in_the_open_is_shot_not_burned() -> None:
    st = zone_game([("c1", "a", CREW, (22.0, 10.0))])
    b = _bandit(st)
    activate_hostile(st, b)
    lock(st, b, "c1")
    assert grenade_call(st, b, "c1") is None
    assert isinstance(decide(st).action, RangedAttack)


def test_a_target_in_hard_cover_draws_the_molotov() -> None:
    """(b): the target crouches behind a low hard wall against the bandit's fire."""
    st = zone_game([("c1", "a", CREW, (22.0, 10.0))], pieces=(low_wall(1, 21.0, 8.0, 21.5, 12.0),))
    b = _bandit(st)
    activate_hostile(st, b)
    lock(st, b, "c1")
    call = grenade_call(st, b, "c1")
    assert call is not None and call.condition == "b" and call.cover == "hard"
    assert isinstance(decide(st).action, ThrowGrenade)


def test_without_a_molotov_or_out_of_its_range_it_shoots() -> None:
    st = zone_game([("c1", "a", CREW, (22.0, 10.0)), ("c2", "a", CREW, (22.0, 11.2))])
    b = _bandit(st, molotovs=0)
    activate_hostile(st, b)
    lock(st, b, "c1")
    assert grenade_call(st, b, "c1") is None
    st2 = zone_game([("c1", "a", CREW, (32.0, 10.0)), ("c2", "a", CREW, (32.0, 11.2))])  # 22": beyond 18"
    b2 = _bandit(st2)
    activate_hostile(st2, b2)
    lock(st2, b2, "c1")
    assert grenade_call(st2, b2, "c1") is None and isinstance(decide(st2).action, RangedAttack)


def test_the_checker_flags_a_shot_when_the_rule_calls_for_the_molotov() -> None:
    st = zone_game([("c1", "a", CREW, (22.0, 10.0)), ("c2", "a", CREW, (22.0, 11.2))])
    b = _bandit(st)
    activate_hostile(st, b)
    lock(st, b, "c1")
    checker = ZoneChecker.from_state(st)
    shot = RangedAttack(b, "c1", "assault_rifle")
    before = st.clone()
    ev = apply(st, shot)
    checker.observe(before, shot, ev, st)
    assert "AI-D.10" in [v.rule for v in checker.report.violations]
