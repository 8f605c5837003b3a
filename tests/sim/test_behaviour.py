"""Behaviour rates (issue 16, game/sim/behaviour.py) on scripted small games: a shot from cover counts and one from
the open does not (the Zone's own `in_cover_against`, GEO-12/GEO-14), focus fire (the same unit twice in a turn, a
Wounded unit), Med-Kits offered and used (COMBAT-4.4.MEDKIT-SELF), Rally when Pinned (CORE-3.3.RALLY), Alert, a
trigger by a Wounded model (MISSION-8.2.TRIGGER), a harmful grenade on a friend; the Wilson interval (game/sim/stats.py)
against known values; and the counters reaching simulate's summary, aggregate and report."""
from __future__ import annotations

import doctest
from collections.abc import Sequence

import pytest

from game.core.actions import (
    Action,
    Activate,
    Alert,
    DeclineMedKit,
    Move,
    Rally,
    RangedAttack,
    ThrowGrenade,
    UseItem,
)
from game.core.dice import ScriptedDice
from game.core.rules.apply import apply
from game.core.rules.exposure import in_cover_against
from game.core.state import GameState, LocationState, Phase
from game.sim import behaviour, simulate, stats
from game.sim.behaviour import Behaviour
from game.sim.stats import Rate, wilson
from tests.enginekit import activate, game, profile
from tests.zonekit import low_wall

RIFLE = ("assault_rifle",)


class Script:
    """An agent that plays a fixed list of decisions."""

    def __init__(self, actions: Sequence[Action]) -> None:
        self.actions = list(actions)

    def choose(self, state: GameState) -> Action:
        return self.actions.pop(0)


def decide(w: Behaviour, st: GameState, action: Action, dice: Sequence[float] = ()) -> list:
    """One crew decision as `play` makes it: the watched agent chooses, apply, the observer sees the events."""
    a = w.wrap(Script([action])).choose(st)
    ev = apply(st, a, ScriptedDice(list(dice)))
    w.observe(None, a, ev, st)
    return ev


def to_activate(st: GameState, side: str) -> None:
    st.phase, st.deciding, st.cycle = Phase.ACTIVATE, side, st.order.index(side)


def cover_game() -> GameState:
    """a1 stands against a low wall (hard cover) between it and b1; a2 stands in the open."""
    return game([("a1", "a", profile(ca=6, weapons=RIFLE), (11.45, 10.0)),
                 ("a2", "a", profile(ca=6, weapons=RIFLE), (11.0, 24.0)),
                 ("b1", "b", profile(wounds=3), (24.0, 10.0))],
                pieces=(low_wall(1, 12.0, 8.0, 12.5, 12.0),))


def test_a_shot_from_cover_counts_and_one_from_the_open_does_not() -> None:
    st = cover_game()
    assert in_cover_against(st, "a1", "b1") and not in_cover_against(st, "a2", "b1")  # the board is as described
    w = Behaviour(["a", "b"])
    to_activate(st, "a")
    decide(w, st, Activate("a1"))
    decide(w, st, RangedAttack("a1", "b1", "assault_rifle"), [9] * 10)  # a miss
    to_activate(st, "a")
    decide(w, st, Activate("a2"))
    decide(w, st, RangedAttack("a2", "b1", "assault_rifle"), [9] * 10)
    c = w.counts()["a"]
    assert (c["shots"], c["shots_from_cover"], c["attacks"]) == (2, 1, 2)
    assert c["focus"] == 1  # the second shot at b1 this turn
    assert c["activations"] == 2 and c["pinned_activations"] == 0
    assert w.counts()["b"] == dict.fromkeys(behaviour.COUNTERS, 0)


def test_focus_fire_is_per_turn_or_at_a_wounded_unit() -> None:
    st = cover_game()
    w = Behaviour(["a", "b"])
    to_activate(st, "a")
    decide(w, st, Activate("a1"))
    decide(w, st, RangedAttack("a1", "b1", "assault_rifle"), [9] * 10)
    st.turn = 2  # a new turn: b1 was not attacked in it and carries no Wound
    to_activate(st, "a")
    decide(w, st, Activate("a2"))
    decide(w, st, RangedAttack("a2", "b1", "assault_rifle"), [9] * 10)
    assert w.counts()["a"]["focus"] == 0
    st.turn = 3
    st.models["b1"].wounds_taken = 1  # Wounded: attacking it is focusing, whoever attacked it before
    to_activate(st, "a")
    decide(w, st, Activate("a1"))
    decide(w, st, RangedAttack("a1", "b1", "assault_rifle"), [9] * 10)
    assert w.counts()["a"]["focus"] == 1 and w.counts()["a"]["attacks"] == 3


@pytest.mark.parametrize(("dress", "used"), [(True, 1), (False, 0)])
def test_a_medkit_offer_and_its_use(dress: bool, used: int) -> None:
    """TV-27's board: b1 is Wounded carrying a Med-Kit, so side b decides whether to dress it (one offer)."""
    st = game([("a1", "a", profile(ca=6, weapons=RIFLE), (10, 11)),
               ("b1", "b", profile(armor=5, will=5), (20, 11))], items={"b1": ["medkit"]})
    w = Behaviour(["a", "b"])
    activate(st, "a1")
    decide(w, st, RangedAttack("a1", "b1", "assault_rifle"), [2, 3, 9, 9, 2])
    assert st.phase is Phase.MEDKIT and st.deciding == "b"
    decide(w, st, UseItem("b1", "medkit") if dress else DeclineMedKit("b1"), [7, 7, 7])
    c = w.counts()["b"]
    assert (c["medkit_offers"], c["medkit_used"]) == (1, used)
    assert w.counts()["a"]["medkit_offers"] == 0


def test_rally_when_pinned_and_alert() -> None:
    st = cover_game()
    st.units["a1"].pins = 1
    w = Behaviour(["a", "b"])
    to_activate(st, "a")
    decide(w, st, Activate("a1"))
    decide(w, st, Rally("a1"))
    to_activate(st, "a")
    decide(w, st, Activate("a2"))
    decide(w, st, Alert("a2"))
    c = w.counts()["a"]
    assert (c["activations"], c["pinned_activations"], c["rallied_when_pinned"], c["alerts"]) == (2, 1, 1, 1)


@pytest.mark.parametrize(("wounds_taken", "wounded"), [(1, 1), (0, 0)])
def test_a_trigger_by_a_wounded_model(wounds_taken: int, wounded: int) -> None:
    st = game([("a1", "a", profile(move=20.0, wounds=2), (10.0, 18.4)), ("b1", "b", profile(), (34.0, 34.0))])
    st.locations["hs"] = LocationState("hs", "the hs", "hotspot", 15.0, 15.0, 1)
    st.models["a1"].wounds_taken = wounds_taken
    w = Behaviour(["a", "b"])
    to_activate(st, "a")
    decide(w, st, Activate("a1"))
    decide(w, st, Move("a1", ((20.0, 18.4),)), [3, 4, 0.0])  # the spawn's D6, deviation D10 and angle
    c = w.counts()["a"]
    assert (c["triggers"], c["triggers_wounded"]) == (1, wounded)


def test_a_harmful_grenade_that_lands_on_a_friend() -> None:
    """A Hand Grenade (Damage 2) on target b1 with friend a2 beside it: the template touches a2."""
    st = game([("a1", "a", profile(ca=6), (10.0, 10.0)), ("a2", "a", profile(), (20.0, 10.6)),
               ("b1", "b", profile(), (20.0, 9.4))], grenades={"a1": {"hand_grenade": 1}})
    w = Behaviour(["a", "b"])
    to_activate(st, "a")
    decide(w, st, Activate("a1"))
    ev = decide(w, st, ThrowGrenade("a1", "hand_grenade", 20.0, 10.0), [1] + [9] * 20)
    touched = {m["model"]: m["effect"] for e in ev if e.type == "template" for m in e.data["models"]}
    assert touched.get("a2") in ("affected", "soft_cover")
    c = w.counts()["a"]
    assert (c["grenades"], c["grenades_harmful"], c["grenades_hit_friend"], c["shots"]) == (1, 1, 1, 1)


def test_wilson_interval_against_known_values() -> None:
    """Wilson (1927) score interval, 95% (z = 1.96): published values (5/10, 1/20), the closed forms at the ends
    (0/n: upper z^2/(n + z^2); n/n: lower n/(n + z^2)), and any bound p solving n(p^ - p)^2 = z^2 p(1 - p)."""
    for (k, n), (lo, hi) in {(5, 10): (0.236593, 0.763407), (1, 20): (0.008881, 0.236131),
                             (0, 10): (0.0, 1.959964**2 / (10 + 1.959964**2)),
                             (10, 10): (10 / (10 + 1.959964**2), 1.0)}.items():
        got = wilson(k, n)
        assert got == pytest.approx((lo, hi), abs=1e-6), (k, n, got)
    for k, n in ((140, 200), (101.5, 200), (3, 7)):
        for p in wilson(k, n):
            assert n * (k / n - p) ** 2 == pytest.approx(stats.Z95**2 * p * (1 - p), abs=1e-9)
    assert wilson(0, 0) == (0.0, 1.0)
    assert Rate(140, 200).text() == "140/200 (70.0%, 95% CI 63.3-75.9%)"
    assert Rate(0, 0).text() == "0/0 (-)" and Rate(3, 0).value is None
    with pytest.raises(ValueError, match="successes"):
        wilson(11, 10)
    assert doctest.testmod(stats).failed == 0


def test_simulate_reports_behaviour_with_numerators_and_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    from game.cli import main

    code = main(["simulate", "crossroads-blyatsk", "--games", "1", "--seed", "2"])
    out = capsys.readouterr().out
    assert code == 0
    lines = [x for x in out.splitlines() if x.startswith("behaviour ")]
    assert [x.split(":")[0] for x in lines] == ["behaviour independents", "behaviour military"]
    for label, _, _ in behaviour.RATES:
        assert all(f"; {label} " in x for x in lines), label
    assert "95% CI" in next(x for x in out.splitlines() if x.startswith("winner: "))
    assert "models lost (Out of Action or dead)" in out and f"agent {simulate.DEFAULT_AGENT}: crews played 2" in out
