"""`zona-alfa simulate` (issue 15 part 5) and self-contained records (part 6), driven in-process through
game.cli.main: the output is the same with 1 and 2 workers and whichever form names the scenario, bad arguments
are refused with exit 2 and one line, a game that raises is reported with its seed and its record, records replay
byte for byte from their embedded crews, and an edited map, scenario file or embedded roster is refused."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from game.cli import main
from game.core.actions import Action
from game.core.record import Record, RecordError, load_record
from game.core.state import GameState
from game.sim import simulate
from game.sim.loop import replay_record
from tests.paths import MAPS, REPO_ROOT

SCEN = "crossroads-blyatsk"
SCEN_FILE = "scenarios/crossroads-blyatsk.toml"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_game_seeds_depend_on_the_master_seed_and_the_index_only() -> None:
    seeds = [simulate.game_seed(1, k) for k in range(50)]
    assert len(set(seeds)) == 50 and all(0 <= s < 2**64 for s in seeds)
    assert seeds == [simulate.game_seed(1, k) for k in range(50)] and simulate.game_seed(2, 0) != seeds[0]


def test_one_or_two_workers_and_either_name_give_the_same_bytes(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    a = run(["simulate", SCEN, "--games", "3", "--seed", "7", "--check", "--json", str(tmp_path / "a.json")], capsys)
    b = run(["simulate", "--scenario", SCEN_FILE, "--games", "3", "--seed", "7", "--check",
             "--workers", "2", "--json", str(tmp_path / "b.json")], capsys)
    assert a[0] == 0 and a == b
    out = a[1]
    assert "games: 3, ended 3, crashed 0" in out and "end reasons: " in out and "checks: " in out
    assert "(TURN-9)" in out or "(TURN-10)" in out
    assert "workers" not in out.lower() and " s " not in out  # no worker count, no timings
    ja, jb = (json.loads((tmp_path / f).read_text()) for f in ("a.json", "b.json"))
    assert ja == jb and [g["index"] for g in ja["games"]] == [0, 1, 2]
    assert all(g["end_rules"] and set(g["end_rules"]) <= {"TURN-9", "TURN-10"} for g in ja["games"])
    assert ja["aggregate"]["violations"] == []


@pytest.mark.parametrize(("argv", "names"), [
    (["nosuch", "--games", "2"], ("SCENARIO", "crossroads-blyatsk", "ishikhov")),
    (["--scenario", "nosuch.toml", "--games", "2"], ("--scenario", "no readable file")),
    (["--scenario", "maps/ishikhov.tmx", "--games", "2"], ("--scenario", "not valid TOML")),
    ([SCEN, "--scenario", SCEN, "--games", "2"], ("--scenario", "once")),
    (["--games", "2"], ("SCENARIO",)),
    ([SCEN], ("--games",)),
    ([SCEN, "--games", "0"], ("--games", "1 to")),
    ([SCEN, "--games", "1000000000"], ("--games", "1 to")),
    ([SCEN, "--games", "two"], ("--games",)),
    ([SCEN, "--games", "2", "--seed", "-1"], ("--seed",)),
    ([SCEN, "--games", "2", "--seed", str(2**64)], ("--seed",)),
    ([SCEN, "--games", "2", "--workers", "0"], ("--workers", "1 to")),
    ([SCEN, "--games", "2", "--crews", "military"], ("--crews", "1 crew(s)", "played by 2")),
    ([SCEN, "--games", "2", "--crews", "military,nosuch"], ("--crews", "unknown crew", "traders")),
    ([SCEN, "--games", "2", "--crews", "military,traders-14k"], ("--crews", "14K", "12")),
    ([SCEN, "--games", "2", "--agents", "random"], ("--agents", "one per crew")),
    ([SCEN, "--games", "2", "--agents", "random,clever"], ("--agents", "unknown agent", "random")),
    ([SCEN, "--games", "2", "--json", "/nonexistent-folder/x.json"], ("--json", "does not exist")),
])
def test_bad_arguments_are_refused_with_one_line(argv: list[str], names: tuple[str, ...],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", *argv], capsys)
    assert code == 2 and out == "" and "Traceback" not in err and "internal error" not in err, err
    lines = [x for x in err.splitlines() if x.strip()]
    own = [x for x in lines if x.startswith("zona-alfa")]
    assert len(own) == 1 and (len(lines) == 1 or lines[0].startswith("usage:")), lines  # argparse: usage, 1 line
    last = lines[-1]
    assert last.startswith("zona-alfa") or "error:" in last, last
    for name in names:
        assert name in last, (name, last)


class Boom:
    """An agent that plays random-legal for a while, then raises (the test seam for a crashing game)."""

    def __init__(self, seed: int) -> None:
        from game.ai.random_agent import RandomAgent

        self.inner, self.n = RandomAgent(seed), 0

    def choose(self, state: GameState) -> Action:
        self.n += 1
        if self.n > 12:
            raise ZeroDivisionError("boom at my 13th decision")
        return self.inner.choose(state)


def test_a_raising_game_is_reported_with_its_seed_and_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(simulate.AGENTS, "boom", Boom)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["simulate", SCEN, "--games", "1", "--seed", "3",
                          "--agents", "random,boom"], capsys)
    assert code == 1, out + err
    seed = simulate.game_seed(3, 0)
    line = next(x for x in out.splitlines() if x.startswith("CRASHED"))
    assert f"game 1 (seed {seed})" in line and "ZeroDivisionError: boom" in line
    path = line.rsplit(": ", 1)[1]
    assert path == "simulate-crashes/game-00001-crashed.json" and (tmp_path / path).is_file()
    rec = load_record(tmp_path / path)
    assert rec.seed == seed and rec.end is None and rec.crews is not None
    done = replay_record(rec, where=path)  # the decisions before the crash replay, flagged as unsealed
    assert not done.checked and "no end seal" in done.note


def copy_scenario(root: Path) -> Path:
    """The Game One scenario and its map copied into `root` (so a test may edit either): the copy names its map by
    a path beside it."""
    shutil.copy(MAPS / f"{SCEN}.tmx", root / f"{SCEN}.tmx")
    text = (REPO_ROOT / SCEN_FILE).read_text()
    assert f'map = "{SCEN}"' in text
    path = root / f"{SCEN}.toml"
    path.write_text(text.replace(f'map = "{SCEN}"', f'map = "{SCEN}.tmx"'))
    return path


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """Two games' records of a copy of the scenario and its map (so the tests may edit them)."""
    root = tmp_path_factory.mktemp("records")
    source = simulate_source(copy_scenario(root))
    jobs = [simulate.Job(k, simulate.game_seed(5, k), source, crews(source), ("random",) * 2,
                         False, str(root / "rec"), str(root / "crash")) for k in range(2)]
    return root, simulate.run_games(jobs)


def simulate_source(path: Path) -> Any:
    from game.sim.sources import scenario_source

    return scenario_source(str(path))


def crews(source: Any) -> Any:
    from game.sim.sources import crews_source

    return tuple(crews_source(source.crew_names, k_limit=source.k_limit))


def test_records_embed_their_crews_and_replay_byte_for_byte(records: tuple[Path, list[dict[str, Any]]],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from game.sim import sources

    _, results = records
    built: list[str] = []
    real = sources.crew_from_doc

    def spy(doc: object, **kw: Any) -> Any:
        built.append(kw["side"])
        return real(doc, **kw)

    monkeypatch.setattr(sources, "crew_from_doc", spy)
    for r in results:
        rec = load_record(r["record"])
        data = rec.to_json()
        assert data["version"] == 3 and [c["side"] for c in data["crews"] or []] == ["military", "independents"]
        done = replay_record(rec, where=r["record"])  # checks the log SHA-256 of the seal: byte for byte
        assert done.checked and len(done.events) == r["events"]
    assert built == ["military", "independents"] * len(results)  # the crews came from the embedded documents


def test_an_edited_embedded_roster_is_refused(records: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    _, results = records
    data = json.loads(Path(results[0]["record"]).read_text())
    data["crews"][0]["doc"]["models"][0]["weapons"] = ["squad_lmg"]
    with pytest.raises(RecordError, match=r"crews\[0\].doc.*embedded roster was edited"):
        Record.from_json(data, where="edited.json")


def test_an_edited_map_or_scenario_file_is_refused(records: tuple[Path, list[dict[str, Any]]]) -> None:
    root, results = records
    rec = load_record(results[1]["record"])
    assert rec.scenario_file is not None and rec.scenario_file.endswith(f"{SCEN}.toml") and rec.scenario_sha256
    replay_record(rec)  # unchanged: replays
    scen_file, tmx = root / f"{SCEN}.toml", root / f"{SCEN}.tmx"
    scen_text, tmx_text = scen_file.read_text(), tmx.read_text()
    try:
        scen_file.write_text(scen_text.replace("turn_limit = 7", "turn_limit = 6"))
        with pytest.raises(RecordError, match=r"scenario_file.*SHA-256.*original scenario file"):
            replay_record(rec)
        scen_file.write_text(scen_text)
        tmx.write_text(tmx_text + "<!-- edited -->\n")
        with pytest.raises(RecordError, match=r"map .* has SHA-256"):
            replay_record(rec)
    finally:
        scen_file.write_text(scen_text)
        tmx.write_text(tmx_text)


def test_a_scenario_named_or_given_as_a_file_is_one_source() -> None:
    from game.sim.sources import SourceError, known_scenarios, scenario_source

    assert known_scenarios() == ("chernya-woods", "crossroads-blyatsk", "ishikhov")
    assert scenario_source("ishikhov") == scenario_source("scenarios/ishikhov.toml") == scenario_source(
        str(REPO_ROOT / "scenarios" / "ishikhov.toml"))
    assert (scenario_source("ishikhov").tl, scenario_source(SCEN).tl) == (2, 0)  # Game Three TL2, Game One TL0
    assert scenario_source(SCEN).path == SCEN_FILE and len(scenario_source(SCEN).sha256) == 64
    with pytest.raises(SourceError, match="crossroads-blyatsk"):
        scenario_source("blyatsk")


def test_demo_plays_a_scenario_by_name_or_file_and_its_record_replays(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "g2.json"
    code, out, err = run(["demo", "--scenario", "chernya-woods", "--seed", "2", "--record", str(rec)], capsys)
    assert code == 0, err
    assert out.startswith("setup: Walk in the Chernya Woods (chernya-woods)") and "Big Nikolai" in out
    assert "=== Mission over at turn" in out
    again = run(["demo", "--scenario", "scenarios/chernya-woods.toml", "--seed", "2"], capsys)
    assert again == (0, out, "")  # the name and the file are one scenario
    data = json.loads(rec.read_text())
    assert data["scenario_file"] == "scenarios/chernya-woods.toml" and len(data["crews"]) == 2
    assert run(["replay", str(rec)], capsys)[1] == out


@pytest.mark.parametrize(("argv", "names"), [
    (["--scenario", "nosuch"], ("--scenario", "crossroads-blyatsk")),
    (["--scenario", "ishikhov", "--map", "maps/ishikhov.tmx"], ("--scenario", "drop --map")),
    (["--crews", "military,bandits"], ("--crews", "needs --scenario")),
    (["--scenario", "ishikhov", "--crews", "military"], ("--crews", "played by 2")),
    (["--scenario", "crossroads-blyatsk", "--crews", "military,bandits-14k"], ("--crews", "14K")),
])
def test_demo_refuses_bad_scenario_arguments(argv: list[str], names: tuple[str, ...],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["demo", *argv], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    for name in names:
        assert name in err, (name, err)
