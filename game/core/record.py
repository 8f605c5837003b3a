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
RECORD_VERSION = 3  # 2: action_count and the end (phase, turn, events, log SHA-256) detect truncation and edits;
# 3: the scenario file and its SHA-256, the crews' roster documents embedded with theirs (self-contained records)
SAVE_FORMAT = "zona-alfa-save"
SEED_LIMIT = 2**64  # a record's seed is an int with |seed| < 2^64 (the PRNG uses its low 64 bits, GEO-28)


class RecordError(ValueError):
    """A record or save that cannot be used: names the file, what is wrong and how to fix it."""


class RecordEndJSON(TypedDict):
    """How a recorded game stood after its last action (docs/formats.md)."""

    phase: str
    turn: int
    events: int
    log_sha256: str


class RecordCrewJSON(TypedDict):
    """One crew as a version-3 record embeds it (docs/formats.md)."""

    side: str
    name: str
    source: str | None
    sha256: str
    doc: dict[str, JSONValue]


class RecordJSON(TypedDict, total=False):
    """A record as JSON (docs/formats.md); `scenario_file`, `scenario_sha256` and `crews` from version 3."""

    format: str
    version: int
    engine: str
    scenario: str
    map: str | None
    map_sha256: str | None
    seed: int
    settings: dict[str, JSONValue]
    actions: list[JSONObject]
    action_count: int
    end: RecordEndJSON | None
    scenario_file: str | None
    scenario_sha256: str | None
    crews: list[RecordCrewJSON] | None


class SaveJSON(TypedDict):
    """A versioned save as JSON: the game state and the record so far (docs/formats.md)."""

    format: str
    version: int
    engine: str
    state: JSONObject
    record: RecordJSON


@dataclass(frozen=True, slots=True)
class RecordEnd:
    """The seal of a finished recording: the phase and turn after the last action, the number of events and the
    SHA-256 of the canonical event log (`event_lines`). A replay that ends anywhere else was cut or edited."""

    phase: str
    turn: int
    events: int
    log_sha256: str

    @staticmethod
    def of(phase: str, turn: int, events: list[Event]) -> RecordEnd:
        return RecordEnd(phase, turn, len(events), log_sha256(events))

    def to_json(self) -> RecordEndJSON:
        return {"phase": self.phase, "turn": self.turn, "events": self.events, "log_sha256": self.log_sha256}


@dataclass(frozen=True, slots=True)
class RecordCrew:
    """A crew as the record embeds it: its side, name, the roster file it was read from (None: built in), and its
    plain-dict roster document with the SHA-256 of that document's canonical JSON (`doc_sha256`). Replay builds
    the crew from `doc`, so a game replays after its roster file is edited."""

    side: str
    name: str
    doc: dict[str, JSONValue]
    sha256: str
    source: str | None = None

    def to_json(self) -> RecordCrewJSON:
        return {"side": self.side, "name": self.name, "source": self.source, "sha256": self.sha256, "doc": self.doc}


def doc_sha256(doc: object) -> str:
    """The SHA-256 of a document's canonical JSON (sorted keys, no spaces): how records name embedded rosters."""
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


@dataclass(slots=True)
class Record:
    """Everything needed to replay a game exactly: engine, scenario, map + hash, seed, settings, decisions, and
    (from version 2) the action count and the end it reached, so that a truncated or edited record is refused."""

    scenario: str
    seed: int
    settings: dict[str, JSONValue] = field(default_factory=dict)  # the overrides of the house defaults
    map_path: str | None = None
    map_sha256: str | None = None
    actions: list[Action] = field(default_factory=list)
    engine: str = ENGINE_VERSION
    end: RecordEnd | None = None  # set when the recording finished (game.sim.play seals it)
    version: int = RECORD_VERSION  # the format version it was read from (1: no count, no end: unchecked)
    scenario_file: str | None = None  # the scenario file played (None: a built-in scenario or map demo)
    scenario_sha256: str | None = None  # of that file's bytes; replay refuses the file if it changed
    crews: list[RecordCrew] | None = None  # the crews' roster documents (None: the scenario's built-in crews)

    def to_json(self) -> RecordJSON:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "engine": self.engine,
            "scenario": self.scenario,
            "map": self.map_path,
            "map_sha256": self.map_sha256,
            "seed": self.seed,
            "settings": self.settings,
            "actions": [a.to_json() for a in self.actions],
            "action_count": len(self.actions),
            "end": self.end.to_json() if self.end is not None else None,
            "scenario_file": self.scenario_file,
            "scenario_sha256": self.scenario_sha256,
            "crews": [c.to_json() for c in self.crews] if self.crews is not None else None,
        }

    @staticmethod
    def from_json(data: object, *, where: str = "record") -> Record:
        """Validate a record's JSON (version 1 to 3); a RecordError names the field or the action (#1 first)."""
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(f"{where}: not a Zona Alfa record (expected \"format\": \"{RECORD_FORMAT}\")")
        raw_version = data.get("version", 1)
        version = _whole(raw_version)
        if version is None or version < 1:
            raise RecordError(f"{where}: record version {raw_version!r} is not valid (1 to {RECORD_VERSION})")
        if version > RECORD_VERSION:
            raise RecordError(f"{where}: record version {version} is newer than this game understands "
                              f"({RECORD_VERSION}); update the game to replay it")
        for key in ("scenario", "seed", "actions"):
            if key not in data:
                raise RecordError(f"{where}: missing field {key!r}")
        seed, raw_actions, settings = data["seed"], data["actions"], data.get("settings") or {}
        if not isinstance(data["scenario"], str):
            raise RecordError(f"{where}: field 'scenario' must be a scenario id (a string), not {data['scenario']!r}")
        if _whole(seed) is None or abs(seed) >= SEED_LIMIT:
            raise RecordError(f"{where}: field 'seed' must be a whole number below 2^64 in size, not {seed!r}")
        if not isinstance(settings, dict):
            raise RecordError(f"{where}: field 'settings' must be an object of setting -> value, not {settings!r}")
        if not isinstance(raw_actions, list):
            raise RecordError(f"{where}: field 'actions' must be a list of actions")
        map_path, map_hash = data.get("map"), data.get("map_sha256")
        if map_path is not None and not isinstance(map_path, str):
            raise RecordError(f"{where}: field 'map' must be a .tmx path or null, not {map_path!r}")
        if map_hash is not None and not (isinstance(map_hash, str) and _is_sha256(map_hash)):
            raise RecordError(f"{where}: field 'map_sha256' must be 64 hex digits or null, not {map_hash!r}")
        count = _count(data, version, where)
        if count is not None and len(raw_actions) < count:
            raise RecordError(f"{where}: truncated at action #{len(raw_actions) + 1}: it holds {len(raw_actions)} "
                              f"of the {count} actions it declares; use the complete file")
        if count is not None and len(raw_actions) > count:
            raise RecordError(f"{where}: corrupt at action #{count + 1}: it holds {len(raw_actions)} actions but "
                              f"declares {count}")
        actions = []
        for i, a in enumerate(raw_actions):
            try:
                actions.append(action_from_json(a))
            except (ValueError, TypeError) as exc:
                raise RecordError(f"{where}: action #{i + 1}: {exc}") from None
        scen_file, scen_hash = data.get("scenario_file"), data.get("scenario_sha256")
        if scen_file is not None and not isinstance(scen_file, str):
            raise RecordError(f"{where}: field 'scenario_file' must be a scenario file path or null, not {scen_file!r}")
        if scen_hash is not None and not (isinstance(scen_hash, str) and _is_sha256(scen_hash)):
            raise RecordError(f"{where}: field 'scenario_sha256' must be 64 hex digits or null, not {scen_hash!r}")
        return Record(scenario=data["scenario"], seed=seed, settings=dict(settings), map_path=map_path,
                      map_sha256=map_hash, actions=actions, engine=str(data.get("engine", "")),
                      end=_end(data, version, where), version=version, scenario_file=scen_file,
                      scenario_sha256=scen_hash, crews=_crews(data.get("crews"), where))


def _crews(raw: object, where: str) -> list[RecordCrew] | None:
    """The embedded crews (version 3), each document checked against its SHA-256 (an edited roster is refused)."""
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise RecordError(f"{where}: field 'crews' must be a list of crews or null, not {type(raw).__name__}")
    out = []
    for k, c in enumerate(raw):
        field_name = f"crews[{k}]"
        if not isinstance(c, dict):
            raise RecordError(f"{where}: field '{field_name}' must be an object (side, name, source, sha256, doc)")
        side, name, source, digest, doc = c.get("side"), c.get("name"), c.get("source"), c.get("sha256"), c.get("doc")
        if not isinstance(side, str) or not isinstance(name, str) or not isinstance(doc, dict):
            raise RecordError(f"{where}: field '{field_name}' needs side and name (text) and doc (an object)")
        if source is not None and not isinstance(source, str):
            raise RecordError(f"{where}: field '{field_name}.source' must be a roster file path or null")
        if not isinstance(digest, str) or not _is_sha256(digest):
            raise RecordError(f"{where}: field '{field_name}.sha256' must be 64 hex digits, not {digest!r}")
        actual = doc_sha256(doc)
        if actual != digest:
            raise RecordError(f"{where}: field '{field_name}.doc': crew {name!r}'s embedded roster has SHA-256 "
                              f"{actual[:12]}, but the record names {digest[:12]}: the embedded roster was edited")
        out.append(RecordCrew(side, name, doc, digest, source))
    return out


def check_scenario_hash(record: Record, *, where: str = "record") -> None:
    """Loading a record whose scenario file changed fails and names both hashes (issue 15, item 6), as for maps."""
    if record.scenario_file is not None:
        _check_file(record.scenario_file, record.scenario_sha256, "scenario", f"{where}: field 'scenario_file': ")


def _check_file(path_text: str, digest: str | None, kind: str, at: str) -> None:
    """A file a record names (its map or scenario) must exist and, when the record gives its SHA-256, still have it:
    RecordError (`at` + what is wrong) naming both hashes otherwise."""
    path = Path(path_text)
    if not path.is_file():
        raise RecordError(f"{at}{kind} file {path_text} not found")
    actual = file_sha256(path)
    if digest and actual != digest:
        raise RecordError(f"{at}{kind} {path_text} has SHA-256 {actual}, but the record was made on {digest}; "
                          f"replay it with the original {kind} file")


def _is_sha256(v: str) -> bool:
    return len(v) == 64 and all(c in "0123456789abcdef" for c in v)


def _whole(v: object) -> int | None:
    """v if it is a whole number (not a bool), else None."""
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _count(data: dict[str, object], version: int, where: str) -> int | None:
    if version < 2:
        return None
    raw = data.get("action_count")
    count = _whole(raw)
    if count is None or count < 0:
        raise RecordError(f"{where}: field 'action_count' must be a whole number >= 0, not {raw!r}")
    return count


def _end(data: dict[str, object], version: int, where: str) -> RecordEnd | None:
    raw = data.get("end")
    if version < 2 or raw is None:
        return None
    if not isinstance(raw, dict):
        raise RecordError(f"{where}: field 'end' must be an object (phase, turn, events, log_sha256) or null")
    phase, turn, events, digest = raw.get("phase"), _whole(raw.get("turn")), _whole(raw.get("events")), \
        raw.get("log_sha256")
    if not isinstance(phase, str) or turn is None or events is None or not isinstance(digest, str) \
            or not _is_sha256(digest):
        raise RecordError(f"{where}: field 'end' is corrupt: expected phase (text), turn and events (whole numbers) "
                          f"and log_sha256 (64 hex digits), got {raw!r}")
    return RecordEnd(phase, turn, events, digest)


def log_sha256(events: list[Event]) -> str:
    """The SHA-256 of the canonical event log (`event_lines`), as a record's end stores it."""
    return hashlib.sha256(event_lines(events).encode("utf-8")).hexdigest()


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def check_map_hash(record: Record, *, where: str = "record") -> None:
    """Loading a record whose map file changed fails and names both hashes (issue 2, item 5)."""
    if record.map_path is not None:
        _check_file(record.map_path, record.map_sha256, "map", f"{where}: ")


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write to a temporary file in the same folder, fsync, then rename: never a half-written file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a record or save reads like any file the user writes
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
    """A versioned JSON save: the state and the record so far (docs/formats.md). Keys keep the state's own order
    (not sorted): the by-id tables (models, units, ...) are iterated in the order things entered the game, and a
    loaded game must iterate them the same way (hostiles appear mid-game, after the crews)."""
    data: SaveJSON = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "engine": ENGINE_VERSION,
                      "state": state.to_json(), "record": record.to_json()}
    atomic_write_text(path, json.dumps(data, indent=1))


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
    except (ValueError, RecursionError) as exc:  # a number of over 4,300 digits, absurd nesting (as load_record)
        raise RecordError(f"{where}: corrupt save: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise RecordError(f"{where}: not a Zona Alfa save (expected \"format\": \"{SAVE_FORMAT}\")")
    given = data.get("version")
    version = _whole(given)
    if version is None or version < 1:
        raise RecordError(f"{where}: save version {given!r} is not valid")
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


def load_record(path: str | Path) -> Record:
    """Read a record file; a missing, unreadable, non-JSON, cut or foreign file raises RecordError naming the file
    and, when the JSON breaks off inside the action list, the action where it does."""
    where = str(path)
    p = Path(path)
    if p.is_dir():
        raise RecordError(f"{where}: is a folder, not a record; give a record file (zona-alfa demo --record FILE)")
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise RecordError(f"{where}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{where}: not a text file (byte {exc.start} is not UTF-8): is it a Zona Alfa record?"
                          ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        done = complete_actions(text)
        if done is not None:
            raise RecordError(f"{where}: truncated or corrupt at action #{done + 1} (line {exc.lineno} column "
                              f"{exc.colno}: {exc.msg}); the {done} action(s) before it are intact") from None
        raise RecordError(f"{where}: corrupt record, line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:  # a number of over 4,300 digits, absurd nesting
        raise RecordError(f"{where}: corrupt record: {exc}") from None
    return Record.from_json(data, where=where)


def complete_actions(text: str) -> int | None:
    """How many whole actions a broken record's action list holds before the break, or None when the break is
    not inside the list. (Records are written with sorted keys: "actions" comes before the end seal.)"""
    start = text.find('"actions"')
    while start >= 0:
        i = start + len('"actions"')
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if text.startswith(":", i):
            i += 1
            while i < len(text) and text[i] in " \t\r\n":
                i += 1
            if text.startswith("[", i):
                return _count_items(text, i + 1)
        start = text.find('"actions"', start + 1)
    return None


def _count_items(text: str, i: int) -> int | None:
    decoder = json.JSONDecoder()
    n = 0
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if text.startswith("]", i):
            return None  # the list is whole: the break is after it
        try:
            _, i = decoder.raw_decode(text, i)
        except (ValueError, RecursionError):
            return n
        n += 1
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if text.startswith(",", i):
            i += 1
        elif not text.startswith("]", i):
            return n


def event_lines(events: list[Event]) -> str:
    """The canonical event log text: one JSON object per line."""
    return "".join(e.line() + "\n" for e in events)
