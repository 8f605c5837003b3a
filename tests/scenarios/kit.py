"""Shipped scenarios built with the demo crews (until the starter crews land, game.crews), deployed by the
random-legal agent, for tests that then stand models where they need them."""
from __future__ import annotations

from dataclasses import replace
from functools import cache

from game.ai.random_agent import RandomAgent
from game.core.battlefield import Battlefield
from game.core.rules.apply import apply
from game.core.rules.setup import CrewSpec, Scenario, new_game, scenario
from game.core.state import GameState, Phase
from game.scenarios import ScenarioFile, resolve_scenario


def demo_crews() -> tuple[CrewSpec, ...]:
    return tuple(replace(c, zone="") for c in scenario("open-table-demo").crews)


@cache
def shipped(name: str) -> tuple[ScenarioFile, Scenario, Battlefield]:
    sf = resolve_scenario(name)
    scen, bf = sf.build(demo_crews())
    return sf, scen, bf


def fresh(name: str, seed: int = 1, settings: dict | None = None) -> tuple[GameState, list]:
    sf, scen, bf = shipped(name)
    return new_game(scen, seed, settings={**sf.settings, **(settings or {})}, battlefield=bf)


def deployed(name: str, seed: int = 1, settings: dict | None = None) -> GameState:
    """The game after both crews deployed (TURN-4), in turn 1."""
    st, _ = fresh(name, seed, settings)
    agents = {s.id: RandomAgent(seed * 10 + i) for i, s in enumerate(st.sides) if s.id not in st.forces}
    while st.phase is Phase.DEPLOY:
        apply(st, agents[st.deciding].choose(st))
    return st
