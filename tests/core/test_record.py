"""Records, format version 2: the action count and the end seal, validation of every field, and files that are
cut, corrupt or not records at all (docs/formats.md; issue 13 item 6)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.core.actions import Activate, EndActivation
from game.core.events import Event
from game.core.record import (
    RECORD_VERSION,
    Record,
    RecordEnd,
    RecordError,
    complete_actions,
    load_record,
    log_sha256,
)
from tests.paths import FIXTURES

V1 = FIXTURES / "records" / "v1-demo-seed3.json"


def sealed() -> Record:
    events = [Event("setup", ("TURN-2",), {"seed": 1}, seq=1)]
    return Record(scenario="open-table-demo", seed=1, actions=[Activate("v-boris"), EndActivation("v-boris")],
                  end=RecordEnd.of("mission_end", 7, events))


def test_version_2_carries_the_action_count_and_the_end_seal() -> None:
    data = sealed().to_json()
    assert data["version"] == RECORD_VERSION == 3 and data["action_count"] == 2
    assert data["end"] is not None and data["end"]["events"] == 1 and len(data["end"]["log_sha256"]) == 64
    back = Record.from_json(json.loads(json.dumps(data)))
    assert back.actions == sealed().actions and back.end == sealed().end and back.version == 3


def test_log_hash_is_the_hash_of_the_canonical_lines() -> None:
    a = [Event("x", (), {"v": 1.0000001}, seq=1)]
    b = [Event("x", (), {"v": 1.0000002}, seq=1)]  # rounded to 1e-6 in the canonical line: the same log
    assert log_sha256(a) == log_sha256(b) != log_sha256([Event("x", (), {"v": 2}, seq=1)])


def test_version_1_records_still_load_without_a_seal() -> None:
    """The record written by `demo --seed 3 --record` before format 2 loads; it has no count and no end."""
    r = load_record(V1)
    assert r.version == 1 and r.end is None and r.seed == 3 and len(r.actions) == 216


def test_fewer_actions_than_declared_is_truncation_at_the_first_missing_one() -> None:
    data = sealed().to_json()
    data["actions"] = data["actions"][:1]
    with pytest.raises(RecordError, match=r"truncated at action #2: it holds 1 of the 2 actions"):
        Record.from_json(data)


@pytest.mark.parametrize("field,value,fragment", [
    ("seed", True, "field 'seed'"),
    ("seed", 2**64, "field 'seed'"),
    ("seed", "3", "field 'seed'"),
    ("seed", 1.5, "field 'seed'"),
    ("scenario", 7, "field 'scenario'"),
    ("settings", [1], "field 'settings'"),
    ("actions", {"a": 1}, "field 'actions'"),
    ("map", 3, "field 'map'"),
    ("map_sha256", "abc", "field 'map_sha256'"),
    ("action_count", -1, "field 'action_count'"),
    ("action_count", "2", "field 'action_count'"),
    ("end", [1], "field 'end'"),
    ("end", {"phase": "mission_end"}, "field 'end' is corrupt"),
    ("version", 4, "newer than this game understands"),
    ("version", 0, "record version 0 is not valid"),
    ("format", "zona-alfa-save", "not a Zona Alfa record"),
])
def test_every_field_is_checked(field: str, value: object, fragment: str) -> None:
    data = dict(sealed().to_json())
    data[field] = value
    with pytest.raises(RecordError, match=re.escape(fragment)):
        Record.from_json(data)


def test_a_malformed_action_is_named_by_its_number() -> None:
    data = sealed().to_json()
    data["actions"][1] = {"type": "Teleport"}
    with pytest.raises(RecordError, match=r"action #2: unknown action type 'Teleport'"):
        Record.from_json(data)


def test_a_file_cut_inside_the_action_list_names_the_action(tmp_path: Path) -> None:
    """A record cut short on disk is refused at the action where the JSON breaks off."""
    text = V1.read_text()
    cut = text[:text.index('"type": "ChooseInitiative"')]  # inside action #13
    p = tmp_path / "cut.json"
    p.write_text(cut)
    with pytest.raises(RecordError) as ei:
        load_record(p)
    assert "truncated or corrupt at action #13" in str(ei.value) and str(p) in str(ei.value)
    assert complete_actions(cut) == 12


@pytest.mark.parametrize("content,fragment", [
    (b"", "corrupt record, line 1 column 1"),
    (b"\xff\xfe\x00garbage", "not a text file"),
    (b"[1, 2, 3]", "not a Zona Alfa record"),
    (b'{"format": "zona-alfa-record", "seed": ' + b"9" * 5000 + b"}", "corrupt record"),
    (b"[" * 100_000, "corrupt record"),
    (b'{"format": "zona-alfa-record", "scenario": "s", "seed": NaN, "actions": []}', "field 'seed'"),
])
def test_files_that_are_not_records_are_refused_in_one_line(tmp_path: Path, content: bytes, fragment: str) -> None:
    p = tmp_path / "bad.json"
    p.write_bytes(content)
    with pytest.raises(RecordError) as ei:
        load_record(p)
    message = str(ei.value)
    assert fragment in message and str(p) in message and "\n" not in message and len(message) < 400


def test_a_folder_or_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="is a folder"):
        load_record(tmp_path)
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "nothing.json")


def test_a_written_record_has_the_users_usual_permissions(tmp_path: Path) -> None:
    """An atomic write (temp file + rename) leaves the file readable like any other the user writes (umask)."""
    import os
    import stat

    from game.core.record import atomic_write_text

    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "r.json", "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "r.json").stat().st_mode) == 0o644


@pytest.mark.parametrize("body", ['{"format": "zona-alfa-save", "version": ' + "9" * 5000 + "}",
                                  "[" * 100_000 + "]" * 100_000,
                                  '{"format": "zona-alfa-save", "version": true}'])
def test_a_malformed_save_is_refused_naming_the_file(tmp_path: Path, body: str) -> None:
    """A save with a 5,000-digit number, absurd nesting or a boolean version is a RecordError naming the file, as
    for records (docs/formats.md), never a bare ValueError or RecursionError."""
    from game.core.record import RecordError, load_save

    path = tmp_path / "bad-save.json"
    path.write_text(body)
    with pytest.raises(RecordError, match="bad-save.json"):
        load_save(path)
