"""The Zone's decision workload (issue 14) on 2 situations, each decision stopped after 0.25 s: it returns the four
figures the goals name, prints the baseline and the profile of the slowest kind, and is wired into the bench."""
from __future__ import annotations

import math

from game import bench
from game.benchmarks import hostiles

FIGURES = {"hostile_decision_ms_standing", "hostile_decision_ms_standing_pack", "hostile_decision_ms_moving",
           "hostile_decision_ms_moving_p95"}


def test_two_situations_give_the_four_figures() -> None:
    lines: list[str] = []
    out = hostiles.run(True, lines.append, situations=2, cap_s=0.25, profile_n=1)
    assert FIGURES <= set(out)
    assert all(math.isfinite(out[k]) and out[k] > 0 for k in FIGURES)
    assert out["hostile_decisions"] == 20  # 10 units x 2 situations, every one activated and timed
    assert out["hostile_decision_ms_moving"] <= out["hostile_decision_ms_moving_p95"] <= 250.0 + 1e-6
    text = "\n".join(lines)
    assert "2 distinct seeded situations" in text and "baseline exposure.choose_target" in text
    assert "profile of the slowest kind" in text and "by cumulative time:" in text
    assert {g.metric for g in hostiles.GOALS} == FIGURES
    assert "game.benchmarks.hostiles" in bench.BENCHMARKS
