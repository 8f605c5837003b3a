"""A corpus of bad arguments for `zona-alfa demo` and `zona-alfa replay`, driven in-process through
game.cli.main: directories, missing and unreadable files, random bytes, NaN/inf/negative/huge numbers, unknown
names, unwritable outputs, cut and edited records. Each gives no traceback, exit 2 and a message naming the
argument, without relying on the command line's catch-all (issue 13 items 1 and 6)."""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from game.cli import main
from game.core.record import Record
from tests.paths import FIXTURES, MAPS

V1 = FIXTURES / "records" / "v1-demo-seed3.json"


@pytest.fixture(scope="module")
def record_json() -> dict:
    """A sealed version-2 record of a short open-table game (the demo's seed 3, played in-process)."""
    from game.ai.random_agent import RandomAgent
    from game.core.rules.setup import scenario
    from game.sim import play

    scen = scenario("open-table-demo")
    _, record, _ = play(scen, {c.side: RandomAgent(3000 + i) for i, c in enumerate(scen.crews)}, 3)
    return json.loads(json.dumps(record.to_json()))


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def refused(code: int, out: str, err: str, *names: str) -> None:
    """Exit 2, no traceback, not the catch-all, and the last stderr line names the argument."""
    assert code == 2, (code, err)
    assert "Traceback" not in out + err and "internal error" not in err
    lines = [x for x in err.splitlines() if x.strip()]
    assert lines, "no message"
    last = lines[-1]
    assert last.startswith("zona-alfa"), last
    for name in names:
        assert name in last, (name, last)


def write(tmp_path: Path, name: str, content: bytes | str) -> str:
    p = tmp_path / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode())
    return str(p)


# --- demo ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", ["nan", "inf", "-inf", "-1", "1e5", "3.5", "", "seven", "0x10",
                                  "99999999999999999999999999", str(2**64), "9" * 5000])
def test_demo_seed_outside_0_to_2_64_is_refused(seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A seed is a whole number from 0 to 2^64-1; a 26-digit seed is refused, not reduced (documented in --help)."""
    refused(*run(["demo", "--seed", seed], capsys), "--seed")


def test_demo_help_says_large_seeds_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["demo", "--help"], capsys)
    assert code == 0 and "refused, not reduced" in " ".join(out.split())


@pytest.mark.parametrize("option", ["weapons.smg.fp=-5", "weapons.smg.fp=nan", "weapons.smg.fp=1e400",
                                    "move.min=nan", "move.min=inf", "move.min=-1e999", "nosuch.key=1", "x",
                                    "=3", "deviation.distance=zzz", "weapons.nosuch.fp=3"])
def test_demo_bad_settings_are_refused(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    """CFG: a house setting outside its type, range or choices, or a catalog value out of its bounds."""
    refused(*run(["demo", "--set", option], capsys), "--set")


def unreadable(tmp_path: Path) -> str:
    """A file that exists but cannot be read (the process runs as root in CI: chmod would not do)."""
    if os.path.exists("/proc/self/mem"):
        return "/proc/self/mem"
    p = tmp_path / "locked.tmx"
    p.write_text("<map/>")
    p.chmod(0)
    return str(p)


MAP_CASES: list[tuple[str, Callable[[Path], str]]] = [
    ("a folder", lambda d: str(d)),
    ("a folder named .tmx", lambda d: (d / "x.tmx").mkdir() or str(d / "x.tmx")),
    ("missing", lambda d: str(d / "missing.tmx")),
    ("unreadable", unreadable),
    ("random bytes", lambda d: write(d, "noise.tmx", os.urandom(2000))),
    ("empty", lambda d: write(d, "empty.tmx", b"")),
    ("cut XML", lambda d: write(d, "cut.tmx", (MAPS / "sandbox.tmx").read_bytes()[:700])),
    ("a record", lambda d: str(V1)),
]


@pytest.mark.parametrize("name,make", MAP_CASES, ids=[c[0] for c in MAP_CASES])
def test_demo_bad_maps_are_refused(name: str, make: Callable[[Path], str], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """--map problems come back from game.maps as MapError: one line naming --map, exit 2."""
    refused(*run(["demo", "--map", make(tmp_path)], capsys), "--map")


RECORD_CASES: list[tuple[str, Callable[[Path], str]]] = [
    ("a folder", lambda d: str(d)),
    ("/proc", lambda d: "/proc/x.json"),
    ("a missing folder", lambda d: str(d / "no" / "such" / "x.json")),
    ("under a file", lambda d: write(d, "file", "x") + "/x.json"),
    ("no name", lambda d: ""),
    ("a device", lambda d: "/dev/null"),
]


@pytest.mark.parametrize("name,make", RECORD_CASES, ids=[c[0] for c in RECORD_CASES])
def test_demo_unwritable_record_is_refused_before_playing(name: str, make: Callable[[Path], str], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """--record is checked before the game is played: nothing is printed, no file is left behind."""
    target = make(tmp_path)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    code, out, err = run(["demo", "--record", target], capsys)
    refused(code, out, err, "--record")
    assert out == ""
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_demo_unknown_option_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    refused(*run(["demo", "--sede", "3"], capsys), "--sede")


# --- replay -------------------------------------------------------------------------------------------


FILE_CASES: list[tuple[str, Callable[[Path], str], str]] = [
    ("a folder", lambda d: str(d), "is a folder"),
    ("missing", lambda d: str(d / "missing.json"), "cannot read"),
    ("unreadable", unreadable, "cannot"),
    ("random bytes", lambda d: write(d, "noise.json", bytes(range(256)) * 8), "not a text file"),
    ("empty", lambda d: write(d, "empty.json", b""), "corrupt record"),
    ("a map", lambda d: str(MAPS / "sandbox.tmx"), "corrupt record"),
    ("a JSON list", lambda d: write(d, "list.json", "[1, 2]"), "not a Zona Alfa record"),
    ("deep nesting", lambda d: write(d, "deep.json", "[" * 50_000), "corrupt record"),
]


@pytest.mark.parametrize("name,make,fragment", FILE_CASES, ids=[c[0] for c in FILE_CASES])
def test_replay_files_that_are_not_records(name: str, make: Callable[[Path], str], fragment: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    refused(*run(["replay", make(tmp_path)], capsys), "RECORD", fragment)


def edited(record_json: dict, change: Callable[[dict], None]) -> dict:
    data = json.loads(json.dumps(record_json))
    change(data)
    return data


def _set(data: dict, key: str, value: object) -> None:
    data[key] = value


def _action(data: dict, index: int, **fields: object) -> None:
    data["actions"][index].update(fields)


def _first_move(data: dict, **fields: object) -> None:
    """Edit the first Move of the record (the test's fragment names it: action #FIRST_MOVE)."""
    i = next(k for k, a in enumerate(data["actions"]) if a["type"] == "Move")
    data["actions"][i].update(fields)
    data["first_move"] = i + 1


EDITS: list[tuple[str, Callable[[dict], None], str]] = [
    ("seed NaN", lambda d: _set(d, "seed", float("nan")), "field 'seed'"),
    ("seed huge", lambda d: _set(d, "seed", 10**30), "field 'seed'"),
    ("seed negative bool", lambda d: _set(d, "seed", False), "field 'seed'"),
    ("unknown scenario", lambda d: _set(d, "scenario", "no-such-scenario"), "unknown scenario"),
    ("bad setting", lambda d: _set(d, "settings", {"move.min": "nan"}), "field 'settings'"),
    ("unknown setting", lambda d: _set(d, "settings", {"nosuch": 1}), "field 'settings'"),
    ("catalog value", lambda d: _set(d, "settings", {"weapons.smg.fp": -5}), "field 'settings'"),
    ("missing map", lambda d: (_set(d, "map", "/nonexistent/x.tmx"), _set(d, "map_sha256", "0" * 64)), "map"),
    ("map hash", lambda d: (_set(d, "map", str(MAPS / "sandbox.tmx")), _set(d, "map_sha256", "0" * 64)),
     "has SHA-256"),
    ("unknown unit", lambda d: _action(d, 20, unit="nobody"), "action #21"),
    ("unit of the wrong type", lambda d: _action(d, 20, unit=7), "action #21"),
    ("unknown action", lambda d: d["actions"].__setitem__(5, {"type": "Teleport"}), "action #6"),
    ("waypoint NaN", lambda d: _first_move(d, path=[[float("nan"), 1.0]]), "action #FIRST_MOVE"),
    ("waypoint off the table", lambda d: _first_move(d, path=[[1e308, -1e308]]), "action #FIRST_MOVE"),
    ("fewer actions", lambda d: _set(d, "actions", d["actions"][:40]), "truncated at action #41"),
    ("count lowered too", lambda d: (_set(d, "actions", d["actions"][:40]), _set(d, "action_count", 40)),
     "truncated after action #40"),
    ("one action more", lambda d: (d["actions"].append({"type": "EndActivation", "unit": "v-boris"}),
                                   _set(d, "action_count", d["action_count"] + 1)), "already ended"),
    ("edited log", lambda d: _set(d["end"], "log_sha256", "0" * 64), "differs from the recorded one"),
    ("newer version", lambda d: _set(d, "version", 99), "newer than this game"),
]


@pytest.mark.parametrize("name,change,fragment", EDITS, ids=[e[0] for e in EDITS])
def test_replay_corrupt_records_are_refused_with_the_reason(name: str, change: Callable[[dict], None], fragment: str,
                                                            record_json: dict, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A corrupt or truncated record is refused with the action number (when one is at fault) and the reason."""
    data = edited(record_json, change)
    fragment = fragment.replace("FIRST_MOVE", str(data.pop("first_move", "")))
    path = write(tmp_path, "r.json", json.dumps(data))
    code, out, err = run(["replay", path], capsys)
    refused(code, out, err, "RECORD", fragment)
    assert out == ""


def test_replay_a_record_cut_on_disk_names_the_action(record_json: dict, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(record_json, indent=1, sort_keys=True)
    path = write(tmp_path, "cut.json", text[:len(text) // 2])
    code, out, err = run(["replay", path], capsys)
    refused(code, out, err, "RECORD", "truncated or corrupt at action #")


@pytest.mark.parametrize("until", ["-1", "nan", "inf", "1e3", "x"])
def test_replay_until_must_be_a_whole_count(until: str, capsys: pytest.CaptureFixture[str]) -> None:
    refused(*run(["replay", str(V1), "--until", until], capsys), "--until")


def test_replay_until_past_the_end_is_refused(record_json: dict, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "r.json", json.dumps(record_json))
    n = Record.from_json(record_json).actions
    refused(*run(["replay", path, "--until", str(10**30)], capsys), "--until", f"has {len(n)} action(s)")


@pytest.mark.parametrize("args, name", [
    (["demo", "--tl", "2"], "--tl"),
    (["demo", "--map", "maps/sandbox.tmx", "--tl", "7"], "--tl"),
    (["demo", "--map", "maps/sandbox.tmx", "--tl", "0"], "--tl"),
    (["demo", "--map", "maps/sandbox.tmx", "--tl", "2", "--no-hotspots"], "--tl"),
    (["demo", "--no-hotspots"], "--no-hotspots"),
])
def test_demo_zone_arguments_are_checked(args: list[str], name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """MISSION-8.2.TL: a demo's Hot Spots are TL 1-3 and only on a map."""
    refused(*run(args, capsys), name)
