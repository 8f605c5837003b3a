"""The client's game: built like `demo` and `simulate` build it, applied with the engine's `apply`, recorded so that
`zona-alfa replay` gives the same log; the worker driver plays the very same game in another process."""
from __future__ import annotations

import pytest

from game.client.driver import InlineDriver, WorkerDriver
from game.client.session import SessionError, open_session
from game.client.setup import GameSetup
from game.sim.loop import replay


def _play(session: object, driver: object, *, wait: bool = False) -> None:
    while not session.over:
        session.apply(driver.next_action(wait=wait))


def test_a_session_plays_to_the_end_and_its_record_replays() -> None:
    s = open_session(GameSetup(seed=3, agents=("random", "normal")))
    _play(s, InlineDriver(s))
    assert s.record.end is not None
    state, events = replay(s.record)
    assert [e.line() for e in events] == [e.line() for e in s.events]
    assert state.phase.value == "mission_end"


def test_the_worker_plays_the_same_game() -> None:
    a = open_session(GameSetup(seed=2, agents=("random", "random")))
    _play(a, InlineDriver(a))
    b = open_session(GameSetup(seed=2, agents=("random", "random")))
    w = WorkerDriver(b)
    w.start()
    try:
        _play(b, w, wait=True)
    finally:
        w.stop()
    assert [e.line() for e in b.events] == [e.line() for e in a.events]
    assert w.next_action() is None


@pytest.mark.parametrize("setup, words", [
    (GameSetup(scenario="no-such-place"), "scenario no-such-place"),
    (GameSetup(crews=("military",)), "1 crew(s) given"),
    (GameSetup(crews=("military", "nobody")), "nobody"),
    (GameSetup(agents=("normal", "genius")), "unknown agent 'genius'"),
    (GameSetup(agents=("normal",)), "one agent per crew"),
])
def test_a_game_that_cannot_start_names_the_problem(setup: GameSetup, words: str) -> None:
    with pytest.raises(SessionError, match=None) as err:
        open_session(setup)
    assert words in str(err.value)


def test_a_broken_scenario_file_is_named(tmp_path: object) -> None:
    bad = tmp_path / "broken.toml"
    bad.write_text("this is = = not toml\n")
    with pytest.raises(SessionError) as err:
        open_session(GameSetup(scenario=str(bad)))
    assert "broken.toml" in str(err.value)


def test_a_players_seat_waits_for_the_player_and_the_worker_follows() -> None:
    """A crew with the HUMAN agent: the drivers never decide for it; the player's decisions (here made by the same
    random agent a simulated game would use, seeded alike) are applied by the window and passed to the worker, and
    the game is the same as the one the agents play alone."""
    from game.client.setup import HUMAN
    from game.sim.simulate import AGENTS

    alone = open_session(GameSetup(seed=6, agents=("random", "random")))
    _play(alone, InlineDriver(alone))
    s = open_session(GameSetup(seed=6, agents=(HUMAN, "random")))
    assert s.human_sides == {s.crew_sides()[0]}
    player = AGENTS["random"](6 * 1000 + 0)
    w = WorkerDriver(s)
    w.start()
    inline = InlineDriver(s)
    turns = 0
    try:
        while not s.over:
            if s.human_to_decide():
                assert w.next_action() is None and inline.next_action() is None and not w.thinking
                a = player.choose(s.state)
                s.apply(a)
                w.submit(a)
                turns += 1
            else:
                s.apply(w.next_action(wait=True))
    finally:
        w.stop()
    assert turns > 10
    assert [e.line() for e in s.events] == [e.line() for e in alone.events]


def test_solo_and_difficulty() -> None:
    s = open_session(GameSetup(solo=True, difficulty="hard", agents=("random",)))
    assert len(s.crew_sides()) == 1 and s.settings["hostiles.difficulty"] == "hard"
    assert s.record.settings.get("hostiles.difficulty") == "hard"
    with pytest.raises(SessionError, match="godlike"):
        open_session(GameSetup(difficulty="godlike"))
    with pytest.raises(SessionError, match="solo game is one crew"):
        open_session(GameSetup(solo=True, crews=("military", "bandits")))
