"""`zona-alfa simulate --paired` and `--solo` (issue 16): every seed played twice with the agents swapped between the
crews (the crews keep their zones), agent A's win rate (wins + draws/2)/games with its Wilson 95% interval and each
seed's pair, the same bytes whatever --workers; one crew against the Zone alone runs to TURN-9 with the checker on,
wins only by the Mission Objective (SCEN-10.5.VICTORY with one crew) and replays; bad combinations are refused in
one line; every default agent is simulate.DEFAULT_AGENT."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from game.ai.random_agent import RandomAgent
from game.cli import main
from game.core.record import load_record
from game.core.rules.outcome import mission_result
from game.sim import simulate
from game.sim.loop import replay_record
from tests.enginekit import game, profile

PAIRED_SCEN = "chernya-woods"  # Game Two: the cheapest Red Gypsy 3 game to play


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


class Other(RandomAgent):
    """A second agent id for the tests: random-legal on another stream, so swapped games differ."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed + 7)


def test_paired_games_swap_the_agents_and_do_not_depend_on_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(simulate.AGENTS, "other", Other)  # the workers are forked: they see it too
    argv = ["simulate", PAIRED_SCEN, "--games", "2", "--seed", "4", "--paired", "--agents", "random,other"]
    a = run([*argv, "--json", str(tmp_path / "a.json")], capsys)
    b = run([*argv, "--workers", "2", "--json", str(tmp_path / "b.json")], capsys)
    assert a[0] == 0 and a == b, a[2]
    ja, jb = (json.loads((tmp_path / f).read_text()) for f in ("a.json", "b.json"))
    assert ja == jb
    g0, g1 = ja["games"]
    assert g0["seed"] == g1["seed"] == simulate.game_seed(4, 0) and g0["pair"] == g1["pair"] == 0
    assert g0["agents"] == {"military": "random", "independents": "other"}
    assert g1["agents"] == {"military": "other", "independents": "random"}  # swapped; the crews keep their zones
    p = ja["aggregate"]["paired"]
    first, second = simulate.outcome_of(g0, "military"), simulate.outcome_of(g1, "independents")
    assert p["agent"] == "random" and p["opponent"] == "other"
    assert p["pairs"] == [{"pair": 0, "seed": g0["seed"], "first": first, "swapped": second}]
    assert p["wins"] + p["losses"] + p["draws"] == 2 == p["games"]
    out = a[1]
    assert "paired: 1 seed(s), each played twice: agent random on military against other" in out
    line = next(x for x in out.splitlines() if x.startswith("paired: agent random against other: 2 game(s)"))
    assert "(Wilson score interval)" in line and "95% CI" in line
    pairs = next(x for x in out.splitlines() if x.startswith("paired: each seed's games"))
    assert pairs.endswith(f"): {first}{second}")
    assert "behaviour agent other:" in out and "behaviour agent random:" in out  # per agent, over both crews


def result(winner: str | None, agents: dict[str, str], *, seed: int = 1, crashed: bool = False) -> dict[str, Any]:
    return {"crashed": crashed, "winner": winner, "draw": winner is None, "agents": agents, "seed": seed}


def test_paired_outcomes_count_half_draws_with_the_wilson_interval() -> None:
    ab, ba = {"x": "A", "y": "B"}, {"x": "B", "y": "A"}
    results = [result("x", ab, seed=1), result("y", ba, seed=1),  # A won both: 2 points
               result("x", ab, seed=2), result(None, ba, seed=2),  # A won, drew: 1.5
               result("y", ab, seed=3), result("x", ba, seed=3),  # A lost both: 0
               result(None, ab, seed=4), result(None, ba, seed=4, crashed=True)]  # a draw; a crash is left out
    p = simulate.paired_outcomes(results, ["x", "y"])
    assert (p["agent"], p["opponent"]) == ("A", "B")
    assert (p["games"], p["wins"], p["losses"], p["draws"], p["crashed"]) == (7, 3, 2, 2, 1)
    assert p["win_rate"]["num"] == 4.0 and p["win_rate"]["den"] == 7  # (3 + 2/2) / 7
    lo, hi = p["win_rate"]["ci95"]
    assert lo == pytest.approx(0.25045, abs=1e-4) and hi == pytest.approx(0.84178, abs=1e-4)
    assert [q["first"] + q["swapped"] for q in p["pairs"]] == ["WW", "WD", "LL", "DC"]
    assert p["pair_points"] == {"2": 1, "1.5": 1, "1": 0, "0.5": 1, "0": 1}


def test_a_solo_game_runs_to_turn_9_with_the_checker_and_replays(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", "crossroads-blyatsk", "--games", "1", "--seed", "3", "--solo", "--check",
                          "--records", str(tmp_path), "--json", str(tmp_path / "s.json")], capsys)
    assert code == 0, err
    assert f"crews: military (Detachment Kestrel, agent {simulate.DEFAULT_AGENT})\n" in out
    assert "independents" not in out
    assert "solo: Detachment Kestrel alone against the Zone in deploy-nw" in out
    assert "end reasons: turn limit reached (TURN-9) 1/1" in out and ", 0 violation(s)" in out
    (g,) = json.loads((tmp_path / "s.json").read_text())["games"]
    assert g["end_rules"] == ["TURN-9"] and list(g["casualties"]) == ["military"]
    assert g["winner"] == ("military" if g["objective_done"] else None) and g["draw"] is False
    assert g["decided_by"] == ("objective" if g["objective_done"] else "solo")
    rec = load_record(tmp_path / "game-00001.json")
    assert rec.crews is not None and len(rec.crews) == 1
    done = replay_record(rec, where="game-00001.json")
    assert done.checked and not [m for m in done.state.models.values() if m.side == "independents"]


def test_victory_with_one_crew_is_the_objective_or_no_winner() -> None:
    """SCEN-10.5.VICTORY with one crew: no rival to out-earn, so advances never make it win."""
    st = game([("a1", "a", profile(), (5.0, 5.0))])
    st.sides = st.sides[:1]
    r = mission_result(st)
    assert (r["winner"], r["draw"], r["decided_by"]) == (None, False, "solo")
    assert "did not complete the Mission Objective" in r["why"]
    st.objective = {"side": "a", "model": "a1", "location": "mo", "turn": 3}
    r = mission_result(st)
    assert (r["winner"], r["draw"], r["decided_by"]) == ("a", False, "objective")


@pytest.mark.parametrize(("argv", "names"), [
    (["--paired", "--agents", "random"], ("--agents", "1 agent id(s) for 2 crew(s)", "swapped")),
    (["--paired", "--solo"], ("--paired", "two crews", "--solo")),
    (["--solo", "--crews", "military,independents"], ("--crews", "2 crews given with --solo")),
    (["--solo", "--agents", "random,random"], ("--agents", "2 agent id(s) for 1 crew(s)")),
    (["--paired", "--games", "3"], ("--games", "odd", "even")),
    (["--crews", "military"], ("--crews", "1 crew(s) given", "--solo")),
])
def test_bad_combinations_are_refused_with_one_line(argv: list[str], names: tuple[str, ...],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    games = [] if "--games" in argv else ["--games", "2"]
    code, out, err = run(["simulate", "crossroads-blyatsk", *games, *argv], capsys)
    assert code == 2 and out == "" and "Traceback" not in err, err
    (line,) = [x for x in err.splitlines() if x.strip()]
    for name in names:
        assert name in line, (name, line)


def test_every_default_agent_is_default_agent(capsys: pytest.CaptureFixture[str]) -> None:
    from game.sim import simulate_cli

    assert simulate.DEFAULT_AGENT in simulate.AGENTS and simulate_cli.DEFAULT_AGENT is simulate.DEFAULT_AGENT
    code, _, err = run(["simulate", "crossroads-blyatsk", "--games", "2", "--agents", "x"], capsys)
    assert code == 2 and f"--agents {simulate.DEFAULT_AGENT},{simulate.DEFAULT_AGENT}" in err
    code, out, _ = run(["simulate", "--help"], capsys)
    assert code == 0 and f"(default {simulate.DEFAULT_AGENT})" in " ".join(out.split())
