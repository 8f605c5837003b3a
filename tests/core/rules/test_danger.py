"""Exposure at a destination and the cover icons (issue 18) on Ishikhov mid-game: the preview's 'would be targeted'
equals the Zone's agent's target from that spot (AI-D.01/AI-D.02/AI-D.03), p_wound is the odds API's exact chance
on the same RangedAttack (COMBAT-4.1.RANGED), the queries are pure, and the icons are `attack.situation`'s cover
(GEO-12/GEO-14)."""
from __future__ import annotations

import math
import statistics
import time

import pytest

from game.ai.zone.agent import ZoneAgent
from game.client.setup import GameSetup
from game.core.actions import Activate, IllegalAction, RangedAttack
from game.core.odds.actions import attack_odds
from game.core.odds.danger import cover_icons, exposure_at, hypothetical, would_target
from game.core.rules.apply import apply
from game.core.rules.attack import situation
from game.core.rules.context import read_ctx
from game.core.rules.dispatch import ACTIONS
from game.core.rules.flow import eligible_units
from game.core.state import GameState, Phase, SideKind
from tests.core.rules.test_options import _play


@pytest.fixture(scope="module")
def ishikhov() -> list[GameState]:
    return _play(GameSetup(seed=1, scenario="ishikhov"), 160)


def _hostile_turn(states: list[GameState]) -> tuple[GameState, str]:
    """A mid-game state where a hostile force is to activate a unit (the last such, hostiles on the table)."""
    for st in reversed(states):
        if st.phase is Phase.ACTIVATE and st.deciding in st.forces:
            units = eligible_units(st, st.deciding)
            if units:
                return st, units[0]
    raise AssertionError("no hostile activation in the game")


def _crew_models(st: GameState) -> list[str]:
    kinds = {s.id: s.kind for s in st.sides}
    return sorted(m.id for m in st.models.values() if m.in_play and kinds.get(m.side) is SideKind.CREW)


def _spots(st: GameState, unit: str, n: int = 12) -> list[tuple[float, float]]:
    """Points in a ring round the hostile unit (4" to 14"), inside the table."""
    h = st.unit_models(unit)[0]
    w, d = st.table
    out = []
    for k in range(n):
        r = 4.0 + (k % 4) * 3.0
        a = math.radians(30.0 * k)
        x = min(max(h.x + r * math.cos(a), 1.0), w - 1.0)
        y = min(max(h.y + r * math.sin(a), 1.0), d - 1.0)
        out.append((x, y))
    return out


def test_would_target_equals_the_zone_agents_target_from_each_spot(ishikhov: list[GameState]) -> None:
    st, unit = _hostile_turn(ishikhov)
    model = min(_crew_models(st), key=lambda c: math.dist((st.models[c].x, st.models[c].y),
                                                          (st.unit_models(unit)[0].x, st.unit_models(unit)[0].y)))
    agent = ZoneAgent()
    checked, yes = 0, 0
    for spot in _spots(st, unit):
        exp = exposure_at(st, model, spot)
        hyp = hypothetical(st, model, spot)
        try:
            apply(hyp, Activate(unit))
        except IllegalAction:
            continue
        if hyp.phase is not Phase.ACTION or hyp.activation is None or hyp.activation.unit != unit:
            continue
        target = agent.decide(hyp).reason["target"]
        mine = next((t.would_target for t in exp.threats if t.unit == unit), False)
        assert bool(mine) == (target == model), (spot, target)
        assert (unit in exp.targeted_by) == (target == model)
        checked += 1
        yes += target == model
    print(f"agent equality: {checked} spots, targeted at {yes}")
    assert checked >= 10 and 0 < yes < checked  # both answers occur


def test_p_wound_is_the_odds_apis_chance_on_the_same_attack(ishikhov: list[GameState]) -> None:
    st, unit = _hostile_turn(ishikhov)
    found = 0
    for model in _crew_models(st):
        for spot in _spots(st, unit):
            exp = exposure_at(st, model, spot)
            hyp = hypothetical(st, model, spot)
            for t in exp.threats:
                ctx = read_ctx(hyp)
                best = 0.0
                for wid in hyp.unit_models(t.unit)[0].profile.weapons:
                    a = RangedAttack(t.unit, model, wid)
                    try:
                        ACTIONS.check(type(ctx)(hyp, ctx.dice, hyp.battlefield, ACTIONS), a, actor=t.unit,
                                      context="own")
                        best = max(best, float(attack_odds(hyp, a).target_round.p_wound))
                    except IllegalAction:
                        pass
                assert t.p_wound == pytest.approx(best, abs=1e-12)
                found += t.p_wound > 0
    assert found >= 1


def test_the_queries_are_pure(ishikhov: list[GameState]) -> None:
    st, unit = _hostile_turn(ishikhov)
    before = st.to_json()
    for model in _crew_models(st)[:2]:
        for spot in _spots(st, unit, 4):
            exposure_at(st, model, spot)
        cover_icons(st, model)
    assert st.to_json() == before


def test_cover_icons_agree_with_the_resolvers_situation(ishikhov: list[GameState]) -> None:
    st, _ = _hostile_turn(ishikhov)
    ctx = read_ctx(st)
    for model in _crew_models(st):
        icons = cover_icons(st, model)
        assert icons, model
        a = st.models[model]
        for eid, cov in icons.items():
            assert st.models[eid].side != a.side
            assert cov is situation(ctx, a, st.models[eid], melee=False).cover


def test_would_target_follows_a_held_lock(ishikhov: list[GameState]) -> None:
    st, unit = _hostile_turn(ishikhov)
    hyp = st.clone()
    crews = _crew_models(hyp)
    apply(hyp, Activate(unit))
    mem = hyp.ai.get(unit)
    if mem is None or mem.lock is None:
        pytest.skip("the unit holds no lock here")
    assert would_target(hyp, unit, mem.lock)
    assert not any(would_target(hyp, unit, c) for c in crews if c != mem.lock)


def test_exposure_at_timing_on_ishikhov_mid_game(ishikhov: list[GameState]) -> None:
    st, unit = _hostile_turn(ishikhov)
    model = _crew_models(st)[0]
    times = []
    for spot in [*_spots(st, unit), *_spots(st, unit, 8)]:
        t0 = time.perf_counter()
        exposure_at(st, model, spot)
        times.append(time.perf_counter() - t0)
    t1 = time.perf_counter()
    st.clone()
    clone_ms = (time.perf_counter() - t1) * 1000
    med = statistics.median(times) * 1000
    print(f"exposure_at: median {med:.1f} ms over {len(times)} spots; clone {clone_ms:.1f} ms")
    assert statistics.median(times) < 2.0
