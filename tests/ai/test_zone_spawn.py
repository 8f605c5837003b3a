"""The spawn free move (AI-S.SPAWN, HOSTILE-8.3.FREE-MOVE) decided by the Zone's agent after a real trigger: a
crew Move through a location's Reaction Radius (GEO-19) with scripted dice (the Zone Hostiles Table D6, then per
unit its deviation D10 and angle: GEO-25), then `ZoneAgent().decide` in Phase.SPAWN_MOVE."""
from __future__ import annotations

import math

import pytest

from game.core.actions import Move, StayPut
from game.core.dice import ScriptedDice
from game.core.rules.apply import apply
from game.core.rules.exposure import cover_at_rest, in_cover_against, seen_by
from game.core.state import LocationState, Phase
from tests.enginekit import activate, profile
from tests.zonekit import decide, events_of, low_wall, step, wall, zone_game

RUNNER = profile("runner", move=24.0, weapons=("knife",))
# the runner passes 3.4" from the spot at (15, 15), then hides east of a tall wall block
HIDE = wall(9, 23.0, 8.0, 25.0, 16.0)
HIDE_FROM, HIDE_PATH = (11.0, 11.6), [(15.0, 11.6), (22.0, 11.6), (22.0, 7.0), (26.0, 7.0), (26.0, 12.0)]
HALF_PI = math.pi / 2


def triggered(crew_at, path, *, tl: int, dice: list[float], pieces: tuple = (), loc=(15.0, 15.0)):
    """A crew model at `crew_at` walks `path` through the hot spot at `loc` (TL `tl`) with the spawn's dice."""
    st = zone_game([("a1", "a", RUNNER, crew_at)], pieces=pieces)
    st.locations["hs"] = LocationState("hs", "the hot spot", "hotspot", loc[0], loc[1], tl)
    activate(st, "a1")
    ev = apply(st, Move("a1", tuple(path)), ScriptedDice(dice))
    assert events_of(ev, "location_triggered") and events_of(ev, "hostiles_spawned")
    assert st.phase is Phase.SPAWN_MOVE
    return st, ev


def test_a_melee_type_rushes_into_contact_when_it_is_reachable_and_does_not_attack() -> None:
    """AI-S.SPAWN: TL2 D6 6 = one Mutant, 2" east of the spot (D10 4, angle 0); the runner ends 3.4" from the spot
    in view, 4.05" away: the mutant's free move ends in base contact (the least-cost contact point); no attack is
    rolled, and its unit then joins the order."""
    st, _ = triggered((5.0, 15.0), [(11.6, 15.0)], tl=2, dice=[6, 4, 0.0])
    unit = st.spawning.pending[0]
    assert st.ai[unit].lock == "a1"
    d, ev = step(st)
    assert isinstance(d.action, Move) and d.reason["rule"] == "AI-S.SPAWN" and d.reason["target"] == "a1"
    assert d.reason["numbers"]["branch"] == "contact"
    assert ev[0].type == "free_move" and "AI-S.SPAWN" in ev[0].rules
    m = st.models[unit]
    assert math.hypot(m.x - 11.6, m.y - 15.0) - m.radius - 0.5 <= 0.1 + 1e-9
    assert not events_of(ev, "roll") and not events_of(ev, "attack")
    assert st.spawning is None and st.phase is Phase.ACTION and st.activation.unit == "a1"


def test_a_melee_type_out_of_reach_rushes_toward_the_target() -> None:
    """AI-S.SPAWN: the runner ends far off but in view: the mutant makes its full free move toward it."""
    st, _ = triggered((5.0, 15.0), [(15.0, 11.6), (15.0, 2.0)], tl=2, dice=[6, 4, 0.0])
    unit = st.spawning.pending[0]
    before = math.hypot(17.0 - 15.0, 15.0 - 2.0)
    d, _ = step(st)
    m = st.models[unit]
    assert isinstance(d.action, Move) and d.reason["numbers"]["branch"] != "contact"
    assert math.hypot(m.x - 15.0, m.y - 2.0) == pytest.approx(before - 8.6, abs=0.05)


def test_a_melee_type_that_sees_nobody_stays() -> None:
    """AI-S.SPAWN "melee types with no visible enemy stay": the runner passes the spot and ends behind a wall."""
    st, _ = triggered(HIDE_FROM, HIDE_PATH, tl=2, dice=[6, 4, 0.0], pieces=(HIDE,))
    unit = st.spawning.pending[0]
    assert not seen_by(st, unit, "a1")
    d, ev = step(st)
    assert d.action == StayPut(unit) and d.reason["rule"] == "AI-S.SPAWN"
    assert ev[0].type == "free_move" and ev[0].data["moved"] is False


def test_bandits_take_cover_with_a_view_of_the_target() -> None:
    """AI-S.SPAWN for a ranged type: TL1 D6 6 = four Bandits, each its own unit, 1" from the spot at 0, 90, 180 and
    270 degrees; the runner ends 11" east in view; a low wall east of the spot: each bandit's free move ends in
    base contact with cover against the runner (GEO-12) and still in LOS of it."""
    wall_e = low_wall(1, 19.0, 11.0, 19.5, 19.0)
    dice = [6, 2, 0.0, 2, HALF_PI, 2, math.pi, 2, 3 * HALF_PI]
    st, _ = triggered((15.0, 2.0), [(15.0, 11.6), (26.0, 11.6)], tl=1, dice=dice, pieces=(wall_e,))
    assert all(seen_by(st, u, "a1") for u in st.spawning.pending)
    units = list(st.spawning.pending)
    assert len(units) == 4
    for unit in units:
        assert st.spawning.pending[0] == unit
        d, ev = step(st)
        assert isinstance(d.action, Move) and d.reason["rule"] == "AI-S.SPAWN", d
        assert d.reason["numbers"]["cover"] == "hard"
        assert in_cover_against(st, unit, "a1") and seen_by(st, unit, "a1"), unit
    assert st.spawning is None


def test_bandits_that_see_nobody_go_to_the_nearest_cover() -> None:
    """AI-S.SPAWN / Shared definitions "nearest cover": nobody in view (the runner ends behind a tall wall
    block); a bandit 1" east of the spot in the open walks to the nearest point in base contact with a cover
    piece: the low wall whose west face is 3" east of it (path cost 2.45")."""
    pieces = (HIDE, low_wall(2, 19.0, 13.0, 19.5, 17.0))
    dice = [6, 2, 0.0, 10, HALF_PI, 10, math.pi, 10, 3 * HALF_PI]
    st, _ = triggered(HIDE_FROM, HIDE_PATH, tl=1, dice=dice, pieces=pieces)
    unit = st.spawning.pending[0]
    m = st.models[unit]
    assert (m.x, m.y) == pytest.approx((16.0, 15.0))
    assert not seen_by(st, unit, "a1") and not cover_at_rest(st, unit).in_cover
    d, _ = step(st)
    assert isinstance(d.action, Move) and d.reason["rule"] == "AI-S.SPAWN" and d.reason["target"] is None
    assert d.reason["numbers"]["cost"] == pytest.approx(2.45, abs=1e-6)
    assert cover_at_rest(st, unit).in_cover and st.models[unit].x == pytest.approx(18.45, abs=1e-6)


def test_a_bandit_already_in_cover_that_sees_nobody_stays() -> None:
    """AI-S.SPAWN: appearing in base contact with cover with nobody in view, a bandit stays."""
    pieces = (HIDE, low_wall(2, 16.55, 13.0, 17.0, 17.0))
    dice = [6, 2, 0.0, 10, HALF_PI, 10, math.pi, 10, 3 * HALF_PI]
    st, _ = triggered(HIDE_FROM, HIDE_PATH, tl=1, dice=dice, pieces=pieces)
    unit = st.spawning.pending[0]
    assert cover_at_rest(st, unit).in_cover
    d = decide(st)
    assert d.action == StayPut(unit) and d.reason["rule"] == "AI-S.SPAWN"
