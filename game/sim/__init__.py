"""The headless play loop (STYLE habit 8) and its command lines: `loop` (`play` a game with agents, `replay` a
record and check that it is whole), `options` (what demo and replay check in their arguments), `demo_cli`
(`zona-alfa demo`), `replay_cli` (`zona-alfa replay`). Imports game.ai, game.maps and the core; nothing below
imports it. This face re-exports the loop's entry points."""
from __future__ import annotations

from game.sim.loop import Agent, Replayed, ReplayError, play, replay, replay_record

__all__ = ["Agent", "ReplayError", "Replayed", "play", "replay", "replay_record"]
