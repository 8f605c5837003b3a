"""The Zone A.I.'s house settings flipped (CFG; ZONE HOSTILE AI [HOUSE `ai.*`]): each key changes the decision it
governs on a tiny inline board: `ai.close_tol` (AI-D.01), `ai.cover_slack` (AI-D.06), `ai.alert` (AI-D.07 step 4,
AI-D.04 (d)) and `ai.hostile_vs_hostile` (Shared definitions, AI-D.01)."""
from __future__ import annotations

import pytest

from game.core.actions import Alert, EndActivation, Move, RangedAttack
from game.core.battlefield import Cover
from game.core.rules.exposure import in_cover_against
from tests.enginekit import profile
from tests.zonekit import activate_hostile, add_force, decide, events_of, low_wall, piece, step, wall, zone_game

CREW = profile("stalker", weapons=("knife",))
PISTOL = {"hostiles.bandit.weapons": ["pistol", "knife"]}


@pytest.mark.setting("ai.close_tol")
@pytest.mark.parametrize("tol,target", [(0.0, "near"), (1.0, "clear"), (3.0, "clear")])
def test_close_tol_decides_whether_the_clearer_farther_enemy_counts_as_near(tol: float, target: str) -> None:
    """AI-D.01 [`ai.close_tol`]: `near` 4" behind a fence (pen 1), `clear` 4.6" (pen 0): with tolerance 0 only the
    nearest is a candidate; with 1 (the default) or 3 the clearer line of sight wins."""
    st = zone_game([("near", "a", CREW, (15.0, 18.0)), ("clear", "a", CREW, (10.0, 23.6))],
                   pieces=(piece(1, 12.0, 17.0, 12.4, 19.0, 0.75, cover=Cover.OBSTRUCTION),),
                   settings={"ai.close_tol": tol})
    (b,) = add_force(st, "bandit", [(10.0, 18.0)], location=(10.0, 18.0), tl=1)
    (e,) = events_of(activate_hostile(st, b), "target_locked")
    assert e.data["target"] == target
    d = decide(st)
    assert isinstance(d.action, RangedAttack) and d.action.target == target


@pytest.mark.setting("ai.close_tol")
def test_a_wide_close_tol_lets_a_far_clear_enemy_beat_the_nearest() -> None:
    """AI-D.01 [`ai.close_tol`=3]: `far` 5.2" (pen 0) is within 3" of `near` 4" (pen 1): `far` is chosen; with
    the default 1" it is not."""
    for tol, target in ((1.0, "near"), (3.0, "far")):
        st = zone_game([("near", "a", CREW, (15.0, 18.0)), ("far", "a", CREW, (10.0, 24.2))],
                       pieces=(piece(1, 12.0, 17.0, 12.4, 19.0, 0.75, cover=Cover.OBSTRUCTION),),
                       settings={"ai.close_tol": tol})
        (b,) = add_force(st, "bandit", [(10.0, 18.0)], location=(10.0, 18.0), tl=1)
        (e,) = events_of(activate_hostile(st, b), "target_locked")
        assert e.data["target"] == target


@pytest.mark.setting("ai.cover_slack")
@pytest.mark.parametrize("slack", [0.0, 3.0])
def test_cover_slack_decides_how_much_progress_a_melee_mover_gives_up_for_cover(slack: float) -> None:
    """AI-D.06 [`ai.cover_slack`]: the ghoul's best progress toward a far target is 8"; the only cover against it
    lies ~2" short of that: with slack 0 it takes the full progress in the open, with 3 it ends in cover."""
    st = zone_game([("c1", "a", CREW, (30.0, 10.0))], pieces=(low_wall(1, 16.5, 9.0, 17.0, 11.0),),
                   settings={"ai.cover_slack": slack})
    (g,) = add_force(st, "ghouls", [(10.0, 10.0)], location=(12.0, 10.0), tl=2)
    activate_hostile(st, g)
    d, _ = step(st)
    n = d.reason["numbers"]
    assert isinstance(d.action, Move) and n["best_progress"] == pytest.approx(8.0, abs=1e-3)
    m = st.models[g]
    if slack == 0.0:
        assert n["branch"] == "progress" and (m.x, m.y) == pytest.approx((18.0, 10.0), abs=1e-3)
        assert not in_cover_against(st, g, "c1")
    else:
        assert n["branch"] == "cover" and n["cover"] == "hard" and in_cover_against(st, g, "c1")
        assert n["best_progress"] - 3.0 - 1e-9 <= n["progress"] < n["best_progress"] - 1.0


@pytest.mark.setting("ai.alert")
@pytest.mark.parametrize("alert", [True, False])
def test_alert_false_means_no_ambush_in_cover(alert: bool) -> None:
    """AI-D.07 step 4 [`ai.alert`]: the pistol bandit in cover, its visible target out of range but within 12 + 6":
    Alert by default; with `ai.alert`=false it moves to a spot with a shot instead."""
    st = zone_game([("c1", "a", CREW, (28.0, 10.0))], settings={**PISTOL, "ai.alert": alert},
                   pieces=(low_wall(1, 12.0, 8.0, 12.5, 12.0),))
    (b,) = add_force(st, "bandit", [(11.45, 10.0)], location=(10.0, 10.0), tl=2)
    activate_hostile(st, b)
    d = decide(st)
    assert isinstance(d.action, Alert if alert else Move), d
    assert d.reason["rule"] == "AI-D.07"


@pytest.mark.setting("ai.alert")
def test_alert_false_means_no_waiting_on_alert_at_home() -> None:
    """AI-D.04 (d) [`ai.alert`]: at home in cover with nobody about: Alert by default, EndActivation without it."""
    pieces = (low_wall(1, 10.55, 8.0, 11.0, 12.0), wall(2, 26.0, 26.0, 36.0, 27.0), wall(3, 26.0, 26.0, 27.0, 36.0))
    for alert, expect in ((True, Alert), (False, EndActivation)):
        st = zone_game([("c1", "a", CREW, (34.0, 34.0))], pieces=pieces, settings={"ai.alert": alert})
        (b,) = add_force(st, "bandit", [(10.0, 10.0)], location=(10.0, 10.0), tl=2)
        activate_hostile(st, b)
        assert isinstance(decide(st).action, expect)


@pytest.mark.setting("ai.hostile_vs_hostile")
@pytest.mark.parametrize("hvh", [False, True])
def test_hostile_vs_hostile_makes_another_forces_models_enemies(hvh: bool) -> None:
    """Shared definitions *enemy* [`ai.hostile_vs_hostile`]: a Rad Ghoul and a bandit of another location's force
    6" apart, the only crew model far off behind a wall: by default the ghoul sees no enemy (AI-D.04 (d)); with
    true the bandit is its enemy: it locks on it (AI-D.01) and moves toward it."""
    st = zone_game([("c1", "a", CREW, (34.0, 34.0))], settings={"ai.hostile_vs_hostile": hvh},
                   pieces=(wall(1, 26.0, 26.0, 36.0, 27.0), wall(2, 26.0, 26.0, 27.0, 36.0)))
    (g,) = add_force(st, "ghouls", [(10.0, 10.0)], location=(10.0, 10.0), tl=2)
    (b,) = add_force(st, "bandit", [(17.0, 10.0)], location=(18.0, 10.0), tl=2, loc_id="hs2")
    ev = activate_hostile(st, g)
    d = decide(st)
    if hvh:
        (e,) = events_of(ev, "target_locked")
        assert e.data["target"] == b
        assert isinstance(d.action, Move) and d.reason["target"] == b
    else:
        assert not events_of(ev, "target_locked")
        assert isinstance(d.action, EndActivation) and d.reason["rule"] == "AI-D.04"
