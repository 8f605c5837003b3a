"""`zona-alfa replay`: a record re-played prints the log its demo printed; a cut record is refused with its action
number; version-1 records still replay, flagged as unchecked (issue 13 item 6; GEO-28 determinism)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main
from game.core.record import Record, load_record
from game.sim import ReplayError, replay, replay_record
from tests.paths import FIXTURES

V1 = FIXTURES / "records" / "v1-demo-seed3.json"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_json_prints_exactly_the_demo_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Done-when of issue 13: `replay R --json` == `demo --seed 3 --json` for the R `demo --seed 3 --record R`
    wrote; the text log is the same too."""
    rec = tmp_path / "R.json"
    code, demo_json, _ = run(["demo", "--seed", "3", "--json", "--record", str(rec)], capsys)
    assert code == 0 and rec.is_file() and demo_json.count("\n") > 300
    code, replay_json, err = run(["replay", str(rec), "--json"], capsys)
    assert code == 0 and err == "" and replay_json == demo_json
    _, demo_text, _ = run(["demo", "--seed", "3"], capsys)
    code, replay_text, _ = run(["replay", str(rec)], capsys)
    assert code == 0 and replay_text == demo_text and "Mission over" in replay_text


def test_a_truncated_record_is_refused_with_its_action_number(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Done-when of issue 13: cut the actions (and the declared count with them) or the bytes: refused, naming
    the action, exit 2, nothing printed."""
    rec = tmp_path / "R.json"
    assert run(["demo", "--seed", "3", "--record", str(rec)], capsys)[0] == 0
    data = json.loads(rec.read_text())
    n = len(data["actions"])
    data["actions"] = data["actions"][:n // 2]
    (tmp_path / "short.json").write_text(json.dumps(data))
    code, out, err = run(["replay", str(tmp_path / "short.json")], capsys)
    assert code == 2 and out == "" and f"truncated at action #{n // 2 + 1}" in err
    data["action_count"] = n // 2
    (tmp_path / "recounted.json").write_text(json.dumps(data))
    code, out, err = run(["replay", str(tmp_path / "recounted.json")], capsys)
    assert code == 2 and out == "" and f"truncated after action #{n // 2}" in err
    text = rec.read_text()
    (tmp_path / "cut.json").write_text(text[:len(text) * 2 // 3])
    code, out, err = run(["replay", str(tmp_path / "cut.json")], capsys)
    assert code == 2 and out == "" and "truncated or corrupt at action #" in err


def test_until_prints_the_log_as_far_as_action_n(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "R.json"
    _, full, _ = run(["demo", "--seed", "3", "--json", "--record", str(rec)], capsys)
    record = load_record(rec)
    done = replay_record(record)
    code, out, _ = run(["replay", str(rec), "--json", "--until", "20"], capsys)
    lines = out.splitlines()
    assert code == 0 and full.startswith(out) and len(lines) == done.marks[20]
    code, out, _ = run(["replay", str(rec), "--json", "--until", "0"], capsys)
    assert code == 0 and [json.loads(x)["type"] for x in out.splitlines()][0] == "setup"
    assert len(out.splitlines()) == done.marks[0]
    assert run(["replay", str(rec), "--json", "--until", str(len(record.actions))], capsys)[1] == full


def test_a_version_1_record_still_replays_flagged_as_unchecked(capsys: pytest.CaptureFixture[str]) -> None:
    """A record written before format 2 (`demo --seed 3 --record`, tests/fixtures/records/) replays to the
    mission end; replay says on stderr that it cannot be checked for truncation."""
    code, out, err = run(["replay", str(V1), "--json"], capsys)
    assert code == 0
    assert "version-1 record" in err and "cannot be checked for truncation" in err
    events = [json.loads(x) for x in out.splitlines()]
    assert events[0]["type"] == "setup" and events[0]["seed"] == 3
    assert events[-1]["type"] == "mission_end" and events[-1]["turn"] == 7
    done = replay_record(load_record(V1))
    assert not done.checked and done.state.phase.value == "mission_end"


def test_a_cut_version_1_record_says_the_game_is_unfinished() -> None:
    """A version-1 record has no count: a cut one cannot be refused, but the note says where the game stands."""
    record = load_record(V1)
    record.actions = record.actions[:100]
    done = replay_record(record)
    assert not done.checked and "stops after action #100 with the game in progress" in done.note


def test_the_api_refuses_a_truncated_record_too() -> None:
    """game.sim.replay raises ReplayError (a RecordError) for a sealed record missing its last actions."""
    from game.ai.random_agent import RandomAgent
    from game.core.rules.setup import scenario
    from game.sim import play

    scen = scenario("open-table-demo")
    _, record, events = play(scen, {c.side: RandomAgent(i) for i, c in enumerate(scen.crews)}, 8)
    assert replay(record)[1] == events
    cut = Record.from_json({**record.to_json(), "actions": [a.to_json() for a in record.actions[:-3]],
                            "action_count": len(record.actions) - 3})
    with pytest.raises(ReplayError, match=f"truncated after action #{len(record.actions) - 3}"):
        replay(cut)
