"""The roster file format (`format = "zona-alfa-roster"`, `version = 1`, docs/crews.md): every ROSTER-12.CREW and
ROSTER-12.MODEL field, validated into a plain dict (the document records embed), written back as TOML, and turned
into the CrewSpec a game is set up from."""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.core.catalog import load_catalog
from game.core.rules.crews import LEVELS, STATUSES, Problem, check_crew
from game.core.rules.factions import FACTIONS
from game.core.rules.setup import CrewSpec, ModelSpec
from game.core.settings import Settings

FORMAT = "zona-alfa-roster"
VERSION = 1
EXPERIENCE = ("rookie", "hardened", "veteran")  # CORE-3.2.LEVELS
DEFAULT_K_LIMIT = 12  # CREW-7.1.K-LIMITS: starting crews
ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_ID_TEXT = "lower-case letters, digits, '-' and '_', starting with a letter or digit"


class CrewFileError(ValueError):
    """A roster that cannot be played: every problem, each `file: field: what is wrong; allowed: ...`."""

    def __init__(self, where: str, problems: list[Problem]) -> None:
        self.where = where
        self.problems = problems
        lines = [f"{where}: {p.text()}" for p in problems]
        super().__init__("\n".join(lines) if lines else where)


@dataclass(frozen=True, slots=True)
class _Field:
    kind: str  # "str", "int", "number", "strs", "counts", "id", "choice"
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    minimum: int | None = None


_TOP = {"format": _Field("str", True), "version": _Field("int", True), "crew": _Field("table", True),
        "models": _Field("tables", True)}
_CREW = {
    "id": _Field("id", True), "name": _Field("str", True),
    "faction": _Field("choice", choices=FACTIONS),
    "k_limit": _Field("int", default=DEFAULT_K_LIMIT, minimum=1),
    "advances": _Field("int", default=0, minimum=0), "zone_script": _Field("int", default=0, minimum=0),
    "retirement_fund": _Field("int", default=0, minimum=0), "salvage": _Field("int", default=0, minimum=0),
    "spare_equipment": _Field("strs", default=()), "artifacts": _Field("strs", default=()),
    "notes": _Field("str", default=""),
}
_MODEL = {
    "id": _Field("id", True), "name": _Field("str", True),
    "level": _Field("choice", True, choices=LEVELS), "experience": _Field("choice", True, choices=EXPERIENCE),
    "status": _Field("choice", default="active", choices=STATUSES),
    "move": _Field("number", True), "ca": _Field("int", True, minimum=0), "will": _Field("int", True, minimum=0),
    "armour": _Field("str", True), "wounds": _Field("int", True, minimum=1),
    "wounds_current": _Field("int", minimum=0), "slots": _Field("int", True, minimum=0),
    "skills": _Field("strs", default=()), "weapons": _Field("strs", True), "equipment": _Field("strs", default=()),
    "special": _Field("strs", default=()), "grenades": _Field("counts", default={}),
    "ammo": _Field("counts", default={}),
    "advanced": _Field("counts", default={}), "leftover": _Field("counts", default={}),
    "missions": _Field("int", default=0, minimum=0), "scars": _Field("strs", default=()),
}
_KIND_TEXT = {"str": "a string", "id": "an id string", "choice": "a string", "int": "a whole number",
              "number": "a number", "strs": "a list of strings", "counts": "a table of name = whole number",
              "table": "a table", "tables": "an array of tables ([[models]])"}


def _value(kind: str, v: object) -> tuple[bool, object]:
    """(type ok, normalised value)."""
    if kind in ("str", "id", "choice"):
        return isinstance(v, str), v
    if kind == "int":
        return isinstance(v, int) and not isinstance(v, bool), v
    if kind == "number":
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return True, float(v)
        return False, v
    if kind == "strs":
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            return True, list(v)
        return False, v
    if kind == "counts":
        if isinstance(v, dict) and all(isinstance(n, int) and not isinstance(n, bool) for n in v.values()):
            return True, dict(v)
        return False, v
    if kind == "table":
        return isinstance(v, dict), v
    return isinstance(v, list) and all(isinstance(x, dict) for x in v), v


def _table(raw: Mapping[str, Any], spec: Mapping[str, _Field], at: str, out: list[Problem]) -> dict[str, Any]:
    """Validate one table against its fields: unknown keys, missing required ones, types, choices, minimums."""
    doc: dict[str, Any] = {}
    pre = f"{at}." if at else ""
    for key in raw:
        if key not in spec:
            out.append(Problem(f"{pre}{key}", "unknown field", ", ".join(spec), "ROSTER-12"))
    for key, f in spec.items():
        if key not in raw:
            if f.required:
                out.append(Problem(f"{pre}{key}", "missing", f"{_KIND_TEXT[f.kind]} (required)", "ROSTER-12"))
            elif f.default is not None:
                d = f.default
                doc[key] = list(d) if isinstance(d, tuple) else dict(d) if isinstance(d, dict) else d
            continue
        ok, v = _value(f.kind, raw[key])
        if not ok:
            out.append(Problem(f"{pre}{key}", f"{raw[key]!r} is the wrong type", _KIND_TEXT[f.kind], "ROSTER-12"))
            continue
        if f.kind == "id" and not ID.match(str(v)):
            out.append(Problem(f"{pre}{key}", f"{v!r} is not an id", _ID_TEXT, "ROSTER-12"))
            continue
        if f.kind == "choice" and v not in f.choices:
            out.append(Problem(f"{pre}{key}", f"{v!r}", ", ".join(f.choices), "ROSTER-12"))
            continue
        if f.kind == "counts" and isinstance(v, dict) and any(n < 0 for n in v.values()):
            out.append(Problem(f"{pre}{key}", f"{v!r} has a negative count", "whole numbers >= 0", "ROSTER-12"))
            continue
        if f.minimum is not None and isinstance(v, int) and v < f.minimum:
            out.append(Problem(f"{pre}{key}", f"{v}", f"a whole number >= {f.minimum}", "ROSTER-12"))
            continue
        doc[key] = v
    return doc


def validate_doc(raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    """The roster's shape (docs/crews.md): format and version, the crew table and each model, defaults filled in.
    Returns the normalised document and every shape problem (the rules checks come after, `check_crew`)."""
    out: list[Problem] = []
    if not isinstance(raw, Mapping):
        return {}, [Problem("(file)", "not a table", "a roster document", "ROSTER-12")]
    top = _table(raw, _TOP, "", out)
    if "format" in top and top["format"] != FORMAT:
        out.append(Problem("format", f"{top['format']!r}", repr(FORMAT), "ROSTER-12"))
    if "version" in top and top["version"] != VERSION:
        out.append(Problem("version", f"{top['version']!r} is not a version this program reads", str(VERSION),
                           "ROSTER-12"))
    crew = _table(top["crew"], _CREW, "crew", out) if "crew" in top else {}
    models = []
    ids: dict[str, int] = {}
    for i, m in enumerate(top.get("models", [])):
        md = _table(m, _MODEL, f"models[{i}]", out)
        if "wounds_current" not in md and isinstance(md.get("wounds"), int):
            md["wounds_current"] = md["wounds"]
        mid = md.get("id")
        if isinstance(mid, str):
            if mid in ids:
                out.append(Problem(f"models[{i}].id", f"{mid!r} is also models[{ids[mid]}]", "unique model ids",
                                   "ROSTER-12"))
            ids.setdefault(mid, i)
        models.append(md)
    if "models" in top and not models:
        out.append(Problem("models", "no models", "one or more [[models]]", "ROSTER-12"))
    return {"format": top.get("format"), "version": top.get("version"), "crew": crew, "models": models}, out


def crew_from_doc(doc: Mapping[str, Any], *, side: str, zone: str, where: str,
                  settings: Settings | None = None, k_limit: int | None = None) -> CrewSpec:
    """The CrewSpec of a roster document (a parsed file, or the copy a record embeds): the shape, then the crew
    checks of PART 7 against `k_limit` (default: the roster's own `crew.k_limit`). Model ids are `<side>-<id>`; dead
    and retired models stay home. Raises CrewFileError with every problem."""
    settings = Settings.defaults() if settings is None else settings
    norm, problems = validate_doc(doc)
    if not ID.match(side):
        problems.append(Problem("side", f"{side!r} is not an id", _ID_TEXT, "ROSTER-12"))
    if problems:
        raise CrewFileError(where, problems)
    catalog = load_catalog(settings)
    limit = norm["crew"]["k_limit"] if k_limit is None else k_limit
    problems = check_crew(norm, catalog, settings, k_limit=limit)
    if problems:
        raise CrewFileError(where, problems)
    models = []
    for m in norm["models"]:
        if m["status"] != "active":
            continue
        raises: dict[str, int] = {}
        for part in (m["advanced"], m["leftover"]):
            for stat, n in part.items():
                if n:
                    raises[stat] = raises.get(stat, 0) + n
        models.append(ModelSpec(f"{side}-{m['id']}", m["name"], m["level"], m["armour"], tuple(m["weapons"]),
                                tuple(m["skills"]), tuple(m["equipment"]) + tuple(m["special"]),
                                tuple(sorted(m["grenades"].items())), tuple(sorted(raises.items())),
                                tuple(sorted(m["ammo"].items()))))
    crew = norm["crew"]
    return CrewSpec(side, crew["name"], zone, tuple(models), faction=crew.get("faction"), k_limit=crew["k_limit"])


# --- writing ---------------------------------------------------------------------------------------------------


def _toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"cannot write {v!r} to a roster")


def _key(k: str) -> str:
    return k if re.match(r"^[A-Za-z0-9_-]+$", k) else json.dumps(k)


def roster_toml(doc: Mapping[str, Any], *, header: str = "") -> str:
    """A roster document as TOML text in the field order of docs/crews.md (parsing it gives the document back)."""
    lines = [f"# {x}" if x else "#" for x in header.splitlines()]
    lines += [f"format = {_toml_value(doc.get('format', FORMAT))}", f"version = {_toml_value(doc.get('version', 1))}",
              "", "[crew]"]
    def emit(table: Mapping[str, Any], spec: Mapping[str, _Field]) -> None:
        for key in spec:
            if key in table and table[key] is not None:
                lines.append(f"{key} = {_toml_value(table[key])}")
        for key in table:
            if key not in spec and table[key] is not None:
                lines.append(f"{_key(key)} = {_toml_value(table[key])}")

    emit(doc.get("crew", {}), _CREW)
    for m in doc.get("models", []):
        lines += ["", "[[models]]"]
        emit(m, _MODEL)
    return "\n".join(lines) + "\n"
