"""House settings: every [HOUSE key] of RULES.md with its default, rule ID, range and enforcer (CFG)."""
from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any

HOUSE_FILE = "house.toml"
TYPES = ("bool", "int", "float", "str", "list", "int_or_null")
NUMERIC = ("int", "float", "int_or_null")
# leaf_of/gap_text mark a leaf invented for a wildcard or compound RULES.md key (e.g. `bolt.*`).
# min/max/step bound a numeric key; choices list a str key's values or a list key's allowed items;
# unbuilt lists values of an enforced key that the feature named by unbuilt_by does not play yet.
FIELDS = ("default", "type", "rule", "enforced_by", "doc", "choices", "leaf_of", "gap_text", "min", "max", "step",
          "unbuilt", "unbuilt_by")

# A key no module reads names what it waits for (`enforced_by`). "later:" labels name a feature this version
# does not play at all: any value but the default is refused with the feature's name.
NOT_PLAYED: Mapping[str, str] = MappingProxyType({
    "later: zone hostiles and A.I.": "the Zone's hostiles and their A.I.",
    "later: hot-seat": "hot-seat play (a human at the hostiles' controls)",
    "later: locations": "locations (Hot Spots and Mission Objectives, their triggers, searches, Inspect and bolts)",
    "later: anomalies": "anomalies",
    "later: salvage": "salvage and the equipment tables",
    "later: environment": "the environmental conditions beyond the mission roll",
    "later: campaign": "the campaign (rosters, hiring, advances, promotions and scars)",
    "later: the Stalls": "the Stalls",
    "later: factions": "factions",
    "later: scenarios": "the book's scenarios (Games One to Three)",
    "later: powered weapons": "the optional powered (hi-tech) weapons",
    "later: mid-climb stops": "models that stop part-way up a climb",
    "later: discharge radius": "an anomaly discharge over the 3\" Reaction Radius instead of an LBT (GAP-55)",
    "later: burns past a save": "a Burn that goes on after a passed save (RULES.md states none: ARMORY-5.1.BURN)",
    "later: client": "the graphical client",
})
# "issue N:" labels name behaviour that is played, but only at the default: no rule reads the key yet.
DEFAULT_ONLY: Mapping[str, str] = MappingProxyType({
    "issue 2: rules engine part 1": "the rules engine",
    "issue 4: LOS, cover, templates": "line of sight, cover and templates",
    "issue 5: combat": "combat",
    "issue 6: exact odds": "the exact odds",
    "issue 7: movement": "movement",
    "issue 8: tables": "the tables",
})
LABELS = tuple(NOT_PLAYED) + tuple(DEFAULT_ONLY)


def feature_of(label: str) -> str:
    """The words for what an `enforced_by` / `unbuilt_by` label waits for (NOT_PLAYED, DEFAULT_ONLY), else the
    label itself."""
    return NOT_PLAYED.get(label, DEFAULT_ONLY.get(label, label))


class SettingsError(ValueError):
    """A malformed settings file or override: names the file or option, the key and the reason."""


def shown(value: Any) -> str:
    """A value as a `--set` option writes it (JSON): `true`, `2`, `"roll/2"`, `["a"]`."""
    return json.dumps(list(value) if isinstance(value, tuple) else value, ensure_ascii=False)


def _number(x: float | int) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """One declared setting: key, default, type, allowed values (choices or range), rule ID, enforcer, meaning."""

    key: str
    default: Any
    type: str
    rule: str
    enforced_by: str
    doc: str
    choices: tuple[Any, ...] = ()
    leaf_of: str = ""
    gap_text: str = ""
    min: float | int | None = None
    max: float | int | None = None
    step: float | int | None = None
    unbuilt: tuple[Any, ...] = ()
    unbuilt_by: str = ""

    @property
    def enforced(self) -> bool:
        """True when a module (not a later issue) enforces this setting."""
        return self.enforced_by.startswith("game.")

    @property
    def has_alternatives(self) -> bool:
        """True when the key allows (and plays) a value besides its default: a flip test must show its effect."""
        if not self.enforced:
            return False
        if self.type == "bool":
            return True not in self.unbuilt and False not in self.unbuilt
        if self.type in NUMERIC:
            return self.type == "int_or_null" or self.min is None or self.max is None or self.min < self.max
        if self.choices and self.type == "str":
            return any(c != self.default and c not in self.unbuilt for c in self.choices)
        return True  # a free string or a list

    def range_text(self) -> str:
        """The allowed numbers in words: `1 to 10`, `2 to 4 in steps of 2`, `null or 0 to 10`."""
        lo = "any" if self.min is None else _number(self.min)
        hi = "any" if self.max is None else _number(self.max)
        text = f"{lo} to {hi}" + (f" in steps of {_number(self.step)}" if self.step is not None else "")
        return ("null or " + text) if self.type == "int_or_null" else text

    def refusal(self, value: Any) -> str:
        """Why this version refuses `value` for this key (its feature is not built), or "" when it plays it."""
        if value == self.default:
            return ""  # the default is what the engine plays (or inert): records that spell it out still load
        if not self.enforced:
            if self.enforced_by in DEFAULT_ONLY:
                return (f"`{self.key}` is not switchable yet: {DEFAULT_ONLY[self.enforced_by]} plays only its "
                        f"default {shown(self.default)} and no rule reads this setting ({self.enforced_by}); "
                        f"leave it at {shown(self.default)}")
            feature = feature_of(self.enforced_by)
            return (f"`{self.key}` belongs to {feature}, which this version does not play yet; "
                    f"leave it at its default {shown(self.default)}")
        if value in self.unbuilt:
            feature = feature_of(self.unbuilt_by)
            return (f"`{self.key}`={shown(value)} belongs to {feature}, which this version does not play yet; "
                    f"use {shown(self.default)}")
        return ""


def _type_ok(t: str, value: Any) -> tuple[bool, Any]:
    if t == "bool":
        return isinstance(value, bool), value
    if t in ("int", "int_or_null"):
        if t == "int_or_null" and value is None:
            return True, value
        return isinstance(value, int) and not isinstance(value, bool), value
    if t == "float":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        return ok, float(value) if ok else value
    if t == "str":
        return isinstance(value, str), value
    if t == "list":
        ok = isinstance(value, (list, tuple)) and all(isinstance(x, str) for x in value)
        return ok, tuple(value) if ok else value
    return False, value  # pragma: no cover - guarded at load


def _check_value(spec: SettingSpec, value: Any, where: str) -> Any:
    """The value as the engine stores it, or a SettingsError naming where, the key, what is wrong and the fix."""
    t = spec.type
    ok, value = _type_ok(t, value)
    if not ok:
        what = {"list": "list of strings", "float": "float (a finite number)"}.get(t, t)
        hint = f" from {spec.range_text()}" if t in NUMERIC and (spec.min is not None or spec.max is not None) else ""
        raise SettingsError(f"{where}: setting {spec.key!r} must be of type {what}{hint}, got {value!r}")
    if t == "list":
        bad = [x for x in value if spec.choices and x not in spec.choices]
        if bad:
            raise SettingsError(f"{where}: setting {spec.key!r} lists {bad[0]!r}, which is not one of "
                                f"{list(spec.choices)}")
    elif spec.choices and value not in spec.choices:
        raise SettingsError(
            f"{where}: setting {spec.key!r} = {value!r} is not one of {list(spec.choices)}"
        )
    if t in NUMERIC and value is not None:
        low = spec.min is not None and value < spec.min
        high = spec.max is not None and value > spec.max
        off = False
        if spec.step is not None:
            n = (value - (spec.min if spec.min is not None else 0)) / spec.step
            off = abs(n - round(n)) > 1e-9
        if low or high or off:
            raise SettingsError(f"{where}: setting {spec.key!r} = {value!r} is out of range: "
                                f"use {spec.range_text()}")
    return value


def _check_bounds(body: Mapping[str, Any], where: str) -> None:
    """min/max/step belong to numeric keys, are numbers and keep min <= max; step > 0."""
    for f in ("min", "max", "step"):
        if f not in body:
            continue
        if body["type"] not in NUMERIC:
            raise SettingsError(f"{where}: field {f!r} is only for numeric settings (type {body['type']})")
        v = body[f]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise SettingsError(f"{where}: field {f!r} must be a finite number, got {v!r}")
        if body["type"] != "float" and not isinstance(v, int):
            raise SettingsError(f"{where}: field {f!r} of an integer setting must be an integer, got {v!r}")
    if "min" in body and "max" in body and body["min"] > body["max"]:
        raise SettingsError(f"{where}: min {body['min']!r} is greater than max {body['max']!r}")
    if "step" in body and body["step"] <= 0:
        raise SettingsError(f"{where}: field 'step' must be positive, got {body['step']!r}")


def _spec_of(key: str, body: Mapping[str, Any], where: str) -> SettingSpec:
    missing = [f for f in ("default", "type", "rule", "enforced_by", "doc") if f not in body]
    if "default" in missing and body.get("type") == "int_or_null":
        missing.remove("default")  # TOML has no null: a missing default means None
    if missing:
        raise SettingsError(f"{where}: missing field(s) {missing}")
    unknown = set(body) - set(FIELDS)
    if unknown:
        raise SettingsError(f"{where}: unknown field(s) {sorted(unknown)}")
    if body["type"] not in TYPES:
        raise SettingsError(f"{where}: type {body['type']!r} is not one of {list(TYPES)}")
    for f in ("rule", "enforced_by", "doc"):
        if not isinstance(body[f], str) or not body[f].strip():
            raise SettingsError(f"{where}: field {f!r} must be a non-empty string")
    for f in ("leaf_of", "gap_text", "unbuilt_by"):
        if f in body and (not isinstance(body[f], str) or not body[f].strip()):
            raise SettingsError(f"{where}: field {f!r} must be a non-empty string")
    if ("leaf_of" in body) != ("gap_text" in body):
        raise SettingsError(f"{where}: leaf_of and gap_text go together (the RULES.md key and its GAP words)")
    if ("unbuilt" in body) != ("unbuilt_by" in body):
        raise SettingsError(f"{where}: unbuilt and unbuilt_by go together (the values and the feature they wait for)")
    for f in ("choices", "unbuilt"):
        if f in body and not isinstance(body[f], list):
            raise SettingsError(f"{where}: field {f!r} must be a list")
    if "choices" in body and body["type"] not in ("str", "list"):
        raise SettingsError(f"{where}: field 'choices' is only for str and list settings")
    _check_bounds(body, where)
    spec = SettingSpec(
        key=key,
        default=body.get("default"),
        type=body["type"],
        rule=body["rule"],
        enforced_by=body["enforced_by"],
        doc=body["doc"],
        choices=tuple(body.get("choices", ())),
        leaf_of=body.get("leaf_of", ""),
        gap_text=body.get("gap_text", ""),
        min=body.get("min"),
        max=body.get("max"),
        step=body.get("step"),
        unbuilt_by=body.get("unbuilt_by", ""),
    )
    spec = replace(spec, default=_check_value(spec, spec.default, where),
                   unbuilt=tuple(_check_value(spec, v, where) for v in body.get("unbuilt", ())))
    if spec.default in spec.unbuilt:
        raise SettingsError(f"{where}: the default {shown(spec.default)} cannot be unbuilt")
    return spec


def parse_specs(text: str, filename: str) -> dict[str, SettingSpec]:
    """Parse and validate a house settings TOML text; errors name the file, the key and the reason."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{filename}: not valid TOML: {exc}") from None
    specs: dict[str, SettingSpec] = {}
    for key, body in raw.items():
        where = f"{filename} [{key!r}]"
        if not isinstance(body, dict):
            raise SettingsError(f"{where}: expected a table with default/type/rule/enforced_by/doc")
        specs[key] = _spec_of(key, body, where)
    return specs


@lru_cache(maxsize=1)
def house_specs() -> Mapping[str, SettingSpec]:
    """The declared settings of game/data/house.toml (read once; tables at import count as code)."""
    text = resources.files("game.data").joinpath(HOUSE_FILE).read_text(encoding="utf-8")
    return MappingProxyType(parse_specs(text, f"game/data/{HOUSE_FILE}"))


def parse_override(text: str) -> tuple[str, Any]:
    """Parse one `--set key=value` option; the value is JSON if it parses, else a plain string."""
    if "=" not in text:
        raise SettingsError(f"--set {text!r}: expected key=value, e.g. --set deviation.distance=roll*2")
    key, _, value = text.partition("=")
    key = key.strip()
    value = value.strip()
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    return key, parsed


def check_override(key: str, value: Any, *, where: str) -> Any:
    """One override checked like the loader does: a known key, its type, choices or range, and a value this
    version plays (a key whose feature is not built accepts only its default). Returns the stored value."""
    specs = house_specs()
    if key not in specs:
        close = [k for k in specs if k.split(".")[0] == key.split(".")[0]]
        hint = f"; settings under {key.split('.')[0]!r}: {close}" if close else ""
        raise SettingsError(f"{where}: unknown setting {key!r}{hint}")
    spec = specs[key]
    clean = _check_value(spec, value, where)
    why = spec.refusal(clean)
    if why:
        raise SettingsError(f"{where}: {why}")
    return clean


class Settings(Mapping[str, Any]):
    """The settings of one game: house defaults plus validated overrides. Immutable.

    Every override is checked (`check_override`): --set options, scenario settings and the settings of a loaded
    record or save all pass here, so a value the engine would silently ignore never gets in."""

    __slots__ = ("_values", "_overrides")

    def __init__(self, overrides: Mapping[str, Any] | None = None, *, where: str = "settings") -> None:
        specs = house_specs()
        values = {k: s.default for k, s in specs.items()}
        clean = {key: check_override(key, value, where=where) for key, value in (overrides or {}).items()}
        values.update(clean)
        self._values = values
        self._overrides = clean

    @classmethod
    def defaults(cls) -> Settings:
        return _defaults()

    @classmethod
    def from_options(cls, options: list[str]) -> Settings:
        """Settings from `--set key=value` command-line options."""
        return cls(dict(parse_override(o) for o in options), where="--set")

    def __getitem__(self, key: str) -> Any:
        try:
            return self._values[key]
        except KeyError:
            raise KeyError(f"unknown setting {key!r} (declared in game/data/{HOUSE_FILE})") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    @property
    def overrides(self) -> dict[str, Any]:
        """The values that differ from the house defaults (what a record stores)."""
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in sorted(self._overrides.items())}

    def __repr__(self) -> str:
        return f"Settings(overrides={self.overrides!r})"


@lru_cache(maxsize=1)
def _defaults() -> Settings:
    return Settings()
