"""`python -m game.bench` (issue 13): exact --only names listed in --help, an unknown name exits 2 with the list,
every figure that misses its goal says MISSED on its line, the exit stays 0, the last line is one JSON object of
plain numbers, and each module's share of the time is printed before it. Run in-process on a stand-in module, so
no heavy workload runs."""
from __future__ import annotations

import json
import re
import sys
import types

import pytest

from game import bench
from game.benchmarks.goals import Better, Goal, goal_note, missed


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        rc = bench.main(argv)
    except SystemExit as exc:
        rc = int(exc.code or 0)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """A stand-in benchmark module with one missed and one met goal; records the `quick` it was run with."""
    calls: list[bool] = []
    mod = types.ModuleType("game.benchmarks.fakework")

    def run(quick: bool, say):  # type: ignore[no-untyped-def]
        calls.append(quick)
        say(f"slow_ms 12.5; {goal_note(mod.GOALS, 'slow_ms', 12.5)}")  # type: ignore[attr-defined]
        return {"slow_ms": 12.5, "fast_per_s": 2000.0, "count": 7}

    mod.run = run  # type: ignore[attr-defined]
    mod.GOALS = (Goal("slow_ms", Better.LOWER, 5), Goal("fast_per_s", Better.HIGHER, 1000))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "game.benchmarks.fakework", mod)
    monkeypatch.setattr(bench, "BENCHMARKS", ["game.benchmarks.fakework"])
    return calls


def test_help_lists_the_module_names(capsys) -> None:  # type: ignore[no-untyped-def]
    rc, out, _ = _run(["--help"], capsys)
    assert rc == 0 and all(name in out for name in ("rules", "sight", "maps", "movement", "odds"))


@pytest.mark.parametrize("name", ["nosuch", "odd", "game.benchmarks", "benchmarks.odds"])
def test_an_unknown_module_exits_2_with_the_names(capsys, name) -> None:  # type: ignore[no-untyped-def]
    """Names are exact: `odd` is not `odds` (substring matching ran unintended modules)."""
    rc, out, err = _run(["--only", name], capsys)
    assert rc == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert f"--only {name}" in line and "rules, sight, maps, movement, odds" in line


def test_short_and_full_names_select_exactly() -> None:
    names = bench.BENCHMARKS
    assert bench.select(["odds"], names) == ["game.benchmarks.odds"]
    assert bench.select(["game.benchmarks.maps", "rules"], names) == ["game.benchmarks.rules", "game.benchmarks.maps"]
    assert bench.select([], names) == names


def test_every_module_states_goals_for_metrics_it_knows() -> None:
    """The goals of docs/geometry.md, docs/movement.md and docs/odds.md live beside their workloads."""
    import importlib

    goals = {g.metric for n in bench.BENCHMARKS for g in importlib.import_module(n).GOALS}
    assert {"rules_actions_per_s", "map_load_ms", "los_speedup_vs_naive", "allpairs_los_ms", "path_query_ms",
            "path_query_ms_difficult", "path_query_ms_levels", "path_graph_build_ms", "reach_overlay_ms",
            "odds_speedup_vs_montecarlo"} <= goals


def test_missed_figures_are_flagged_and_the_json_stays_plain(fake, capsys) -> None:  # type: ignore[no-untyped-def]
    rc, out, _ = _run(["--quick", "--only", "fakework"], capsys)
    lines = out.strip().splitlines()
    assert rc == 0 and fake == [True]
    assert "slow_ms 12.5; goal <= 5 MISSED" in lines  # the module's own line
    assert "slow_ms 12.5  goal <= 5 MISSED" in lines  # and the figures table
    assert "fast_per_s 2,000  goal >= 1000" in lines
    assert "goals: 1 of 2 met; MISSED: slow_ms" in lines
    assert any(re.fullmatch(r"fakework \d+\.\d s \(\d+%\)", line) for line in lines)  # its share of the time
    assert any("of the 300 s --quick budget" in line for line in lines)
    last = json.loads(lines[-1])
    assert last == {"slow_ms": 12.5, "fast_per_s": 2000.0, "count": 7, "quick": True}
    assert all(isinstance(v, (int, float)) for v in last.values())
    assert "MISSED" not in lines[-1]


def test_goal_helpers() -> None:
    g = [Goal("a_ms", Better.LOWER, 5), Goal("b_per_s", Better.HIGHER, 10)]
    assert goal_note(g, "a_ms", 5.0) == "goal <= 5" and goal_note(g, "c", 1.0) == ""
    assert missed(g, {"a_ms": 6.0, "b_per_s": 11.0}) == [(g[0], 6.0)]
