"""The whole-games bench (issue 15, Speed) on one game: both figures, the start-up apart, the goals' notes and a
profile when a goal is missed, and the module wired into `python -m game.bench`."""
from __future__ import annotations

import math

from game import bench
from game.benchmarks import games


def test_one_game_gives_both_figures_with_their_goals() -> None:
    lines: list[str] = []
    out = games.run(True, lines.append, games=1, profile_n=4)
    assert {"games_per_s_per_core_random", "parallel_speedup_2_workers", "games_startup_s"} <= set(out)
    assert all(math.isfinite(v) and v > 0 for v in out.values())
    text = "\n".join(lines)
    assert "whole games of `zona-alfa simulate crossroads-blyatsk --seed 1`" in text
    assert "start-up" in text and "same games either way: True" in text and "0 crashed" in text
    assert "goal >= 2" in text and "goal >= 1.8" in text
    if out["games_per_s_per_core_random"] < 2:
        assert "MISSED" in text and "profile of one game" in text and "cumtime" in text
    assert {g.metric for g in games.GOALS} == {"games_per_s_per_core_random", "parallel_speedup_2_workers"}
    assert "game.benchmarks.games" in bench.BENCHMARKS
