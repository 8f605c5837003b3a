"""Records (seed + settings + map + every decision) and versioned JSON saves written atomically."""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from game.core.actions import Action, action_from_json
from game.core.battlefield import Battlefield
from game.core.events import Event, JSONObject, JSONValue
from game.core.state import SAVE_VERSION, GameState
from game.core.version import ENGINE_VERSION

RECORD_FORMAT = "zona-alfa-record"
SAVE_FORMAT = "zona-alfa-save"


class RecordError(ValueError):
    """A record or save that cannot be used: names the file, what is wrong and how to fix it."""


class RecordJSON(TypedDict):
    """A record as JSON (docs/formats.md)."""

    format: str
    engine: str
    scenario: str
    map: str | None
    map_sha256: str | None
    seed: int
    settings: dict[str, JSONValue]
    actions: list[JSONObject]


class SaveJSON(TypedDict):
    """A versioned save as JSON: the game state and the record so far (docs/formats.md)."""

    format: str
    version: int
    engine: str
    state: JSONObject
    record: RecordJSON


@dataclass(slots=True)
class Record:
    """Everything needed to replay a game exactly: engine, scenario, map + hash, seed, settings, decisions."""

    scenario: str
    seed: int
    settings: dict[str, JSONValue] = field(default_factory=dict)  # the overrides of the house defaults
    map_path: str | None = None
    map_sha256: str | None = None
    actions: list[Action] = field(default_factory=list)
    engine: str = ENGINE_VERSION

    def to_json(self) -> RecordJSON:
        return {
            "format": RECORD_FORMAT,
            "engine": self.engine,
            "scenario": self.scenario,
            "map": self.map_path,
            "map_sha256": self.map_sha256,
            "seed": self.seed,
            "settings": self.settings,
            "actions": [a.to_json() for a in self.actions],
        }

    @staticmethod
    def from_json(data: object, *, where: str = "record") -> Record:
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(f"{where}: not a Zona Alfa record (expected \"format\": \"{RECORD_FORMAT}\")")
        for key in ("scenario", "seed", "actions"):
            if key not in data:
                raise RecordError(f"{where}: missing field {key!r}")
        actions = []
        for i, a in enumerate(data["actions"]):
            try:
                actions.append(action_from_json(a))
            except ValueError as exc:
                raise RecordError(f"{where}: action #{i + 1}: {exc}") from None
        return Record(scenario=data["scenario"], seed=int(data["seed"]), settings=dict(data.get("settings") or {}),
                      map_path=data.get("map"), map_sha256=data.get("map_sha256"), actions=actions,
                      engine=str(data.get("engine", "")))


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def check_map_hash(record: Record, *, where: str = "record") -> None:
    """Loading a record whose map file changed fails and names both hashes (issue 2, item 5)."""
    if record.map_path is None:
        return
    path = Path(record.map_path)
    if not path.exists():
        raise RecordError(f"{where}: map file {record.map_path} not found")
    actual = file_sha256(path)
    if record.map_sha256 and actual != record.map_sha256:
        raise RecordError(
            f"{where}: map {record.map_path} has SHA-256 {actual}, but the record was made on {record.map_sha256}; "
            "replay it with the original map file")


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write to a temporary file in the same folder, fsync, then rename: never a half-written file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_game(path: str | Path, state: GameState, record: Record) -> None:
    """A versioned JSON save: the state and the record so far (docs/formats.md)."""
    data: SaveJSON = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "engine": ENGINE_VERSION,
                      "state": state.to_json(), "record": record.to_json()}
    atomic_write_text(path, json.dumps(data, sort_keys=True, indent=1))


def load_save(path: str | Path, *, load_map: Callable[[str], Battlefield] | None = None) -> tuple[GameState, Record]:
    """Load a save; a corrupt, foreign or newer-version file raises RecordError and changes nothing.

    `load_map` turns the record's map path into a Battlefield (game.maps.loader.load_map; the core never parses maps).
    """
    where = str(path)
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{where}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{where}: not a text file (is it a Zona Alfa save?)") from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: corrupt save, line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise RecordError(f"{where}: not a Zona Alfa save (expected \"format\": \"{SAVE_FORMAT}\")")
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
        raise RecordError(f"{where}: save version {version!r} is not valid")
    if version > SAVE_VERSION:
        raise RecordError(f"{where}: save version {version} is newer than this game understands ({SAVE_VERSION}); "
                          "update the game to load it")
    record = Record.from_json(data.get("record"), where=f"{where} (record)")
    check_map_hash(record, where=where)
    battlefield = None
    if record.map_path is not None:
        if load_map is None:
            raise RecordError(f"{where}: the save is on map {record.map_path}; pass a map loader to load it")
        battlefield = load_map(record.map_path)
    try:
        state = GameState.from_json(data["state"], battlefield)
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"{where}: corrupt game state: {exc}") from None
    return state, record


def event_lines(events: list[Event]) -> str:
    """The canonical event log text: one JSON object per line."""
    return "".join(e.line() + "\n" for e in events)
