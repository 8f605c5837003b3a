"""The random-legal baseline agent: uniform over the legal action kinds, destinations on every floor in reach,
climbs; a seeded map demo shows climbs or upper floors and ends with a SCEN-10.5.VICTORY result (issue 13 item 8)."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import cache

import pytest

from game.ai.random_agent import RandomAgent
from game.core.actions import Action, Climb, IllegalAction, Move
from game.core.battlefield import Battlefield, Movement, TerrainPiece
from game.core.geometry.polygon import rect
from game.core.rules.apply import apply, validate
from game.core.rules.outcome import mission_result
from game.core.rules.setup import map_demo, scenario
from game.core.state import GameState, ModelState, Phase
from game.sim import play
from tests.enginekit import activate, game, profile
from tests.paths import MAPS


def legal(st: GameState, a: Action) -> bool:
    try:
        validate(st, a)
    except IllegalAction:
        return False
    return True


def lead(st: GameState, unit: str) -> ModelState:
    return st.models[st.units[unit].models[0]]


def test_the_docstring_says_it_is_the_baseline() -> None:
    """STYLE habit 7: the random baseline is what later agents are measured against; its docstring says so."""
    doc = " ".join((RandomAgent.__doc__ or "").split())
    assert "baseline" in doc and "measured against" in doc and "uniformly" in doc


def first_action_state() -> GameState:
    """The open-table demo at its first action-phase decision."""
    scen = scenario("open-table-demo")
    agents = {c.side: RandomAgent(5 + i) for i, c in enumerate(scen.crews)}
    from game.core.rules.setup import new_game

    st, _ = new_game(scen, 5)
    while st.phase is not Phase.ACTION:
        apply(st, agents[st.deciding].choose(st))
    return st


def test_kinds_are_drawn_uniformly_among_the_legal_ones() -> None:
    """The kind of action is uniform over the kinds that have a legal instance (each within 25% of 1/k over
    1,200 draws), and never a kind without one."""
    st = first_action_state()
    act = st.activation
    assert act is not None
    probe = RandomAgent(0)
    legal_kinds = {k for k, make in probe._kinds(st, act.unit, context="own").items()
                   if any(legal(st, a) for a in make())}
    assert {"Move", "Aim"} <= legal_kinds and len(legal_kinds) >= 3
    picks: Counter[str] = Counter()
    agent = RandomAgent(1)
    draws = 1200
    for _ in range(draws):
        a = agent._pick(st, act.unit, context="own")
        assert a is not None
        picks[type(a).__name__] += 1
    assert set(picks) == legal_kinds
    share = draws / len(legal_kinds)
    assert all(abs(n - share) < 0.25 * share for n in picks.values()), (picks, legal_kinds)


WALL = TerrainPiece(1, "garden wall", rect(10.0, 4.0, 10.5, 16.0), 0.0, 2.0, blocks_los=True,
                    movement=Movement.IMPASSABLE, climbable=True)


def test_it_climbs_over_a_climbable_wall() -> None:
    """CORE-3.3.CLIMB / GEO-24: up and over a 2" wall costs 2" per inch up and down; the agent offers that Climb,
    committing the Move actions it needs, and it is legal."""
    st = game([("a1", "a", profile(actions=2), (8.0, 10.0)), ("b1", "b", profile(), (33.0, 33.0))], pieces=(WALL,))
    activate(st, "a1")
    m = lead(st, "a1")
    climbs = [a for a in RandomAgent(2)._climbs(st, "a1", m, "own") if isinstance(a, Climb)]
    ok = [a for a in climbs if legal(st, a)]
    assert ok, climbs
    apply(st, ok[0])
    assert st.models["a1"].x > 10.5 + st.models["a1"].radius


@cache
def ishikhov() -> Battlefield:
    from game.maps.loader import load_map

    return load_map(MAPS / "ishikhov.tmx")


def test_destinations_include_upper_floors_in_reach() -> None:
    """GEO-7 / GEO-27: at the foot of the Central Planning Office's stairs, the Move destinations include a spot
    on the floor above, reached by the stairs, and that Move is legal."""
    bf = ishikhov()
    st = game([("a1", "a", profile(), (19.75, 24.0)), ("b1", "b", profile(), (40.0, 46.0))], table=(48.0, 48.0))
    st.battlefield = replace(bf)
    activate(st, "a1")
    m = lead(st, "a1")
    agent = RandomAgent(4)
    ups = []
    for _ in range(6):
        ups += [a for a in agent._moves(st, "a1", m)
                if isinstance(a, Move) and a.path and len(a.path[-1]) == 3 and a.path[-1][2] > 3.0]
    assert ups and any(legal(st, a) for a in ups)


def climbs_or_floors(events: list) -> int:
    """Climb events plus moves that end on, or pass over, a raised floor."""
    n = 0
    for e in events:
        if e.type == "climb":
            n += 1
        elif e.type == "move" and any(z > 0 for z in e.data.get("path_z", [])):
            n += 1
    return n


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seeded_map_demo_climbs_or_goes_upstairs_and_ends_with_a_result(seed: int) -> None:
    """Issue 13 item 8 on the map with the most floors (maps/ishikhov.tmx): the demo shows a Climb or an
    upper-floor move, and ends with the SCEN-10.5.VICTORY winner or a draw, as outcome.mission_result judges
    the final board (the crew with more advances; no scenario marks a Mission Objective yet)."""
    bf = ishikhov()
    scen = map_demo(bf)
    agents = {c.side: RandomAgent(seed * 1000 + i) for i, c in enumerate(scen.crews)}
    st, _, events = play(scen, agents, seed, battlefield=bf)
    assert climbs_or_floors(events) >= 1
    end = events[-1]
    assert end.type == "mission_end" and "SCEN-10.5.VICTORY" in end.rules
    assert {k: end.data[k] for k in ("winner", "draw", "decided_by")} == \
        {k: mission_result(st)[k] for k in ("winner", "draw", "decided_by")}
    totals = {s: a["total"] for s, a in end.data["advances"].items()}
    if end.data["winner"] is None:
        assert len(set(totals.values())) == 1
    else:
        assert totals[end.data["winner"]] == max(totals.values())
    setup = events[0]
    assert setup.type == "setup" and [c["side"] for c in setup.data["crews"]] == [c.side for c in scen.crews]
    assert all(len(c["models"]) == 6 for c in setup.data["crews"])
