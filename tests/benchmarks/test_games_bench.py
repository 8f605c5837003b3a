"""The whole-games bench (issues 15 and 16, Speed) on one game per agent: every figure, the start-up apart, the
goals' notes and a profile when a goal is missed, and the module wired into `python -m game.bench`."""
from __future__ import annotations

import math

from game import bench
from game.benchmarks import games


def test_one_game_gives_every_figure_with_its_goal() -> None:
    lines: list[str] = []
    out = games.run(True, lines.append, games=1, profile_n=4, parallel=False)  # 1 vs 2 workers: tests/sim
    assert {"games_per_s_per_core", "games_per_s_per_core_easy", "games_per_s_per_core_random",
            "autopilot_decision_ms", "autopilot_decision_ms_p95", "games_startup_s"} <= set(out)
    assert all(math.isfinite(v) and v > 0 for v in out.values())
    assert out["autopilot_decision_ms_p95"] >= out["autopilot_decision_ms"]
    text = "\n".join(lines)
    assert "whole games of `zona-alfa simulate crossroads-blyatsk --seed 1`" in text
    assert "start-up" in text and "0 crashed" in text and "autopilot_decision_ms" in text
    assert "goal >= 0.5" in text and "goal >= 2" in text
    if out["games_per_s_per_core"] < 0.5:
        assert "MISSED" in text and "profile of one autopilot game" in text and "cumtime" in text
    assert {g.metric for g in games.GOALS} == {"games_per_s_per_core", "games_per_s_per_core_random",
                                              "parallel_speedup_2_workers"}
    assert "game.benchmarks.games" in bench.BENCHMARKS
