"""Findings of the 100-game soaks of the shipped scenarios (issue 15), kept as regressions on the game that showed
each: the seed is game k of `zona-alfa simulate NAME --seed 1` (simulate.game_seed(1, k - 1))."""
from __future__ import annotations

import pytest

from game.ai.random_agent import RandomAgent
from game.core.events import Event
from game.sim.loop import play
from game.sim.simulate import game_seed
from game.sim.sources import crews_source, scenario_source


def first_decisions(name: str, seed: int, decisions: int) -> list[Event]:
    """The events of a scenario game's first `decisions` decisions (random-legal crews, the Zone's agent)."""
    src = scenario_source(name)
    scen, bf = src.build(crews_source(src.crew_names, k_limit=src.k_limit))
    agents = {c.side: RandomAgent(seed * 1000 + i) for i, c in enumerate(scen.crews)}
    seen: list[Event] = []

    class Tap:
        def needs_before(self, state: object) -> bool:
            return False

        def observe(self, before: object, action: object, events: list[Event], after: object) -> None:
            seen.extend(events)

    with pytest.raises(RuntimeError, match="did not end within"):
        play(scen, agents, seed, settings=dict(src.settings), battlefield=bf, max_decisions=decisions, observer=Tap())
    return seen


def test_hits_on_a_mob_model_already_removed_go_to_its_unit() -> None:
    """GAP-76/GAP-77: a shot into a melee assigned one hit to zombie .3 and one to zombie .1; the first hit's Wound
    removed .1 (a unit loses its model closest to the shooter first), and the engine then looked up .1's base for
    the second hit and raised KeyError (Game Three, game 46 of the soak). The second hit now goes to the mob."""
    seed = game_seed(1, 45)
    assert seed == 6350852771103663962
    events = first_decisions("ishikhov", seed, 260)
    moved = [e for e in events if e.type == "hits_redirected"]
    assert moved and all(e.data["unit"].startswith("intersection-") for e in moved)
