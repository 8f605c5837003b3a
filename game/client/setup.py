"""What a new game is made from, as the menus or the command line chose it (pure data: no pygame)."""
from __future__ import annotations

from dataclasses import dataclass

DEFAULT_SCENARIO = "crossroads-blyatsk"
SPEEDS = ("normal", "fast")  # autoplay pacing; skipping to the end of an activation or turn is a command, not a speed
HUMAN = "human"  # the "agent" of a crew a player controls at this computer (the window asks the player)


@dataclass(frozen=True, slots=True)
class GameSetup:
    """One game to show: a scenario (shipped name or file), its seed, the crews (starter names or roster files; None:
    the scenario's own), the agent of each crew (`game.sim.simulate.AGENTS` ids; the Zone's agent plays every
    hostile force), and whether the agents play on their own from the start (autoplay)."""

    scenario: str = DEFAULT_SCENARIO
    seed: int = 1
    crews: tuple[str, ...] | None = None
    agents: tuple[str, ...] | None = None  # None: simulate.DEFAULT_AGENT for every crew; HUMAN: a player's seat
    autoplay: bool = True
    record: str | None = None  # write the replayable record here when the game ends (and on quit)
    solo: bool = False  # one crew alone against the Zone, in the scenario's first deployment zone
    difficulty: str | None = None  # the Zone's hostiles at a difficulty level (hostiles.difficulty), None: the book
