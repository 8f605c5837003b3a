"""House settings: every [HOUSE key] of RULES.md with its default, rule ID and enforcer (CFG)."""
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
# leaf_of/gap_text mark a leaf invented for a wildcard or compound RULES.md key (e.g. `bolt.*`).
FIELDS = ("default", "type", "rule", "enforced_by", "doc", "choices", "leaf_of", "gap_text")


class SettingsError(ValueError):
    """A malformed settings file or override: names the file or option, the key and the reason."""


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """One declared setting: key, default, type, allowed choices, rule ID, enforcer and meaning."""

    key: str
    default: Any
    type: str
    rule: str
    enforced_by: str
    doc: str
    choices: tuple[Any, ...] = ()
    leaf_of: str = ""
    gap_text: str = ""

    @property
    def enforced(self) -> bool:
        """True when a module (not a later issue) enforces this setting."""
        return self.enforced_by.startswith("game.")


def _check_value(spec: SettingSpec, value: Any, where: str) -> Any:
    t = spec.type
    ok: bool
    if t == "bool":
        ok = isinstance(value, bool)
    elif t == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif t == "int_or_null":
        ok = value is None or (isinstance(value, int) and not isinstance(value, bool))
    elif t == "float":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        if ok:
            value = float(value)
    elif t == "str":
        ok = isinstance(value, str)
    elif t == "list":
        ok = isinstance(value, (list, tuple))
        if ok:
            value = tuple(value)
    else:  # pragma: no cover - guarded at load
        ok = False
    if not ok:
        raise SettingsError(f"{where}: setting {spec.key!r} must be of type {t}, got {value!r}")
    if spec.choices and value not in spec.choices:
        raise SettingsError(
            f"{where}: setting {spec.key!r} = {value!r} is not one of {list(spec.choices)}"
        )
    return value


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
        for f in ("leaf_of", "gap_text"):
            if f in body and (not isinstance(body[f], str) or not body[f].strip()):
                raise SettingsError(f"{where}: field {f!r} must be a non-empty string")
        if ("leaf_of" in body) != ("gap_text" in body):
            raise SettingsError(f"{where}: leaf_of and gap_text go together (the RULES.md key and its GAP words)")
        if "choices" in body and not isinstance(body["choices"], list):
            raise SettingsError(f"{where}: field 'choices' must be a list")
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
        )
        spec = replace(spec, default=_check_value(spec, spec.default, where))
        specs[key] = spec
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


class Settings(Mapping[str, Any]):
    """The settings of one game: house defaults plus validated overrides. Immutable."""

    __slots__ = ("_values", "_overrides")

    def __init__(self, overrides: Mapping[str, Any] | None = None, *, where: str = "settings") -> None:
        specs = house_specs()
        values = {k: s.default for k, s in specs.items()}
        clean: dict[str, Any] = {}
        for key, value in (overrides or {}).items():
            if key not in specs:
                close = [k for k in specs if k.split(".")[0] == key.split(".")[0]]
                hint = f"; settings under {key.split('.')[0]!r}: {close}" if close else ""
                raise SettingsError(f"{where}: unknown setting {key!r}{hint}")
            clean[key] = _check_value(specs[key], value, where)
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
