"""Typed, path-naming readers for each data file of game/data (one CatalogError per defect)."""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from enum import Enum
from typing import Any, TypedDict, TypeVar, overload

from game.core.catalog.profiles import (
    Armour,
    Body,
    CatalogError,
    CoverClass,
    Equipment,
    EquipmentTable,
    ExperienceLevel,
    Grenade,
    GrenadeEffect,
    HostileAttack,
    HostileProfile,
    Obscured,
    RecruitProfile,
    Skill,
    Special,
    Template,
    TemplateCover,
    UnitForm,
    Weapon,
    WeaponKind,
    WeaponProfile,
)

E = TypeVar("E", bound=Enum)
T = TypeVar("T")
U = TypeVar("U")
D = TypeVar("D")  # the type of a field's default
TOMLTable = dict[str, Any]  # a table as tomllib returns it: values unchecked until a _Fields read types them
ID = re.compile(r"[a-z][a-z0-9_]*")


class _Missing(Enum):
    """The default of a required field (a sentinel, so that None can be a default)."""

    MISSING = "missing"


_MISSING = _Missing.MISSING


class Refs(TypedDict):
    """The parsed tables that recruits and hostiles refer to."""

    levels: Mapping[str, ExperienceLevel]
    armours: Mapping[str, Armour]
    bodies: Mapping[str, Body]
    skills: Mapping[str, Skill]
    weapons: Mapping[str, Weapon]


# --- typed reading of one TOML table --------------------------------------------------------------

class _Fields:
    """Typed reads from one TOML table; every error names `file [entry].path` and what is wrong."""

    def __init__(self, body: object, where: str, provenance: Mapping[str, str]) -> None:
        if not isinstance(body, dict):
            raise CatalogError(f"{where}: expected a table, got {type(body).__name__}")
        self.body: TOMLTable = body
        self.where, self.provenance = where, provenance
        self.used: set[str] = set()

    def fail(self, name: str, what: str) -> CatalogError:
        path = f"{self.where}.{name}"
        origin = self.provenance.get(path)
        return CatalogError(f"{path}: {what}" + (f" (value from setting {origin!r})" if origin else ""))

    @overload
    def get(self, name: str, kind: type[T]) -> T: ...
    @overload
    def get(self, name: str, kind: type[T], default: D) -> T | D: ...
    @overload
    def get(self, name: str, kind: tuple[type[T], type[U]]) -> T | U: ...
    @overload
    def get(self, name: str, kind: tuple[type[T], type[U]], default: D) -> T | U | D: ...

    def get(self, name: str, kind: type | tuple[type, ...], default: object = _MISSING) -> object:
        self.used.add(name)
        if name not in self.body:
            if default is _MISSING:
                raise self.fail(name, "missing field")
            return default
        value = self.body[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise self.fail(name, f"expected {names}, got {type(value).__name__} {value!r}")
        return value

    @overload
    def text(self, name: str) -> str: ...
    @overload
    def text(self, name: str, default: D) -> str | D: ...

    def text(self, name: str, default: object = _MISSING) -> object:
        value = self.get(name, str, default)
        if isinstance(value, str) and not value.strip():
            raise self.fail(name, "must not be empty")
        return value

    @overload
    def int(self, name: str, *, low: int | None = 0) -> int: ...
    @overload
    def int(self, name: str, default: D, *, low: int | None = 0) -> int | D: ...

    def int(self, name: str, default: object = _MISSING, *, low: int | None = 0) -> object:
        value = self.get(name, int, default)
        if isinstance(value, int) and low is not None and value < low:
            raise self.fail(name, f"must be >= {low}, got {value}")
        return value

    @overload
    def inches(self, name: str) -> float: ...
    @overload
    def inches(self, name: str, default: D) -> float | D: ...

    def inches(self, name: str, default: object = _MISSING) -> object:
        value = self.get(name, (int, float), default)
        if not isinstance(value, (int, float)) or default is not _MISSING and value is default:
            return value  # the default of a missing field (None included), as given
        if value < 0:
            raise self.fail(name, f"negative length {value}")
        return float(value)

    def flag(self, name: str, default: bool = False) -> bool:
        return bool(self.get(name, bool, default))

    @overload
    def enum(self, name: str, enum: type[E]) -> E: ...
    @overload
    def enum(self, name: str, enum: type[E], default: D) -> E | D: ...

    def enum(self, name: str, enum: type[E], default: object = _MISSING) -> object:
        value = self.get(name, str, default)
        if value is None or value is default and default is not _MISSING:
            return value
        try:
            return enum(value)
        except ValueError:
            raise self.fail(name, f"unknown value {value!r}; expected one of {[e.value for e in enum]}") from None

    def words(self, name: str) -> tuple[str, ...]:
        value = self.get(name, list, [])
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise self.fail(f"{name}[{i}]", f"expected str, got {type(item).__name__} {item!r}")
        return tuple(value)

    def enums(self, name: str, enum: type[E]) -> frozenset[E]:
        out: set[E] = set()
        for i, word in enumerate(self.words(name)):
            try:
                out.add(enum(word))
            except ValueError:
                raise self.fail(f"{name}[{i}]", f"unknown value {word!r}; expected one of "
                                                f"{[e.value for e in enum]}") from None
        return frozenset(out)

    def done(self, extra: Iterable[str] = ()) -> None:
        unknown = sorted(set(self.body) - self.used - set(extra))
        if unknown:
            raise self.fail(unknown[0], f"unknown field (known fields: {sorted(self.used)})")


def _ref(f: _Fields, name: str, value: str | None, known: Mapping[str, object], what: str) -> None:
    if value is not None and value not in known:
        raise f.fail(name, f"unknown {what} {value!r}; known: {sorted(known)}")


# --- parsing each file ----------------------------------------------------------------------------

def _entries(raw: TOMLTable, file: str) -> Iterator[tuple[str, str]]:
    for entry in raw:
        if not ID.fullmatch(entry):
            raise CatalogError(f"{file} [{entry}]: id must be lower_snake_case (letters, digits, _)")
        yield entry, f"{file} [{entry}]"


def _profile(f: _Fields, name: str) -> WeaponProfile:
    melee = f.flag("melee")
    template = f.enum("template", Template, None)
    range_min = f.inches("range_min", 0.0)
    range_max = f.inches("range_max", None)
    if range_max is None and not melee and template is not Template.FLAME:
        raise f.fail("range_max", "missing field (only Melee and flame weapons have no maximum range)")
    if range_max is not None and range_min > range_max:
        raise f.fail("range_min", f"minimum range {range_min} is greater than maximum range {range_max}")
    fp = f.int("fp", None, low=1) if template is Template.FLAME else f.int("fp", low=1)
    far = f.int("far_damage", None)
    near_max = f.inches("near_max", None)
    if (far is None) != (near_max is None):
        raise f.fail("far_damage" if far is None else "near_max", "far_damage and near_max go together")
    return WeaponProfile(
        name=name, range_min=range_min, range_max=range_max, melee_capable=melee, fp=fp,
        damage=f.int("damage"), far_damage=far, near_max=near_max, near_inclusive=f.flag("near_inclusive", True),
        template=template, specials=f.enums("specials", Special), ca_mod=f.int("ca_mod", 0, low=None))


PROFILE_FIELDS = ("melee", "template", "range_min", "range_max", "fp", "far_damage", "near_max",
                  "near_inclusive", "damage", "specials", "ca_mod")


def parse_weapons(raw: TOMLTable, prov: Mapping[str, str]) -> dict[str, Weapon]:
    out: dict[str, Weapon] = {}
    for entry, where in _entries(raw, "weapons.toml"):
        f = _Fields(raw[entry], where, prov)
        same_as = f.text("same_as", None)
        profiles: tuple[WeaponProfile, ...] = ()
        if "profiles" in f.body:
            tables = f.get("profiles", dict)
            if not tables:
                raise f.fail("profiles", "needs at least one profile table")
            profiles = tuple(_profile(_Fields(body, f"{where}.profiles.{name}", prov), name)
                             for name, body in tables.items())
            for name, body in tables.items():
                _Fields(body, f"{where}.profiles.{name}", prov).done(PROFILE_FIELDS)
        elif same_as is None:
            profiles = (_profile(f, "standard"),)
        out[entry] = Weapon(
            id=entry, name=f.text("name"), rule=f.text("rule"), kind=f.enum("kind", WeaponKind),
            profiles=profiles, ammo=f.int("ammo", None, low=1), starting=f.flag("starting"),
            accepts=frozenset(f.words("accepts")), unload=f.flag("unload"), same_as=same_as)
        f.done(PROFILE_FIELDS if same_as is None and "profiles" not in f.body else ())
        if any(out[entry].specials & {Special.LIMITED_AMMO}) and out[entry].ammo is None:
            raise f.fail("ammo", "missing field (Limited Ammo weapons carry rounds, ARMORY-5.1.SR-LIMITED)")
    for w in list(out.values()):
        if w.same_as is not None:
            f = _Fields(raw[w.id], f"weapons.toml [{w.id}]", prov)
            _ref(f, "same_as", w.same_as, out, "weapon")
            base = out[w.same_as]
            if base.same_as is not None:
                raise f.fail("same_as", f"{w.same_as!r} itself copies {base.same_as!r}; point at the original")
            out[w.id] = replace(w, profiles=base.profiles)
    return out


def parse_grenades(raw: TOMLTable, prov: Mapping[str, str]) -> dict[str, Grenade]:
    out = {}
    for entry, where in _entries(raw, "grenades.toml"):
        f = _Fields(raw[entry], where, prov)
        rmin, rmax = f.inches("range_min"), f.inches("range_max")
        if rmin > rmax:
            raise f.fail("range_min", f"minimum range {rmin} is greater than maximum range {rmax}")
        out[entry] = Grenade(entry, f.text("name"), f.text("rule"), rmin, rmax, f.int("fp", low=1),
                             f.int("damage", None), f.enum("template", Template), f.enums("effects", GrenadeEffect))
        f.done()
    return out


def parse_armours(raw: TOMLTable, prov: Mapping[str, str]) -> dict[str, Armour]:
    out = {}
    for entry, where in _entries(raw, "armour.toml"):
        f = _Fields(raw[entry], where, prov)
        out[entry] = Armour(entry, f.text("name"), f.text("rule"), f.int("armor"),
                            float(f.get("move_mod", (int, float), 0.0)), f.enum("obscured", Obscured),
                            f.int("save_dice", 1, low=1), f.flag("will_exempt"))
        f.done()
    return out


def parse_covers(raw: TOMLTable, prov: Mapping[str, str]) -> dict[str, CoverClass]:
    out = {}
    for entry, where in _entries(raw, "cover.toml"):
        f = _Fields(raw[entry], where, prov)
        elevated = f.text("elevated")
        out[entry] = CoverClass(entry, f.text("name"), f.text("rule"), f.int("ca_mod", low=None),
                                f.int("armor_mod", 0), f.int("will_mod", 0),
                                f.enum("template", TemplateCover, TemplateCover.NONE), f.int("template_save_bonus", 0),
                                f.int("pinned_armor", 0), None if elevated == "none" else elevated,
                                f.flag("cumulative"))
        f.done()
    for c in out.values():
        _ref(_Fields(raw[c.id], f"cover.toml [{c.id}]", prov), "elevated", c.elevated, out, "cover class")
    return out


def parse_levels(raw: TOMLTable, prov: Mapping[str, str]) -> dict[str, ExperienceLevel]:
    out = {}
    for entry, where in _entries(raw, "experience.toml"):
        f = _Fields(raw[entry], where, prov)
        out[entry] = ExperienceLevel(entry, f.text("name"), f.text("nickname"), f.text("rule"),
                                     f.int("actions", low=1), f.int("skills"), f.int("slots"), f.int("k_cost", low=1),
                                     f.words("also_called"))
        f.done()
    return out


def parse_skills(raw: TOMLTable, prov: Mapping[str, str]) -> dict[str, Skill]:
    out = {}
    for entry, where in _entries(raw, "skills.toml"):
        f = _Fields(raw[entry], where, prov)
        out[entry] = Skill(entry, f.text("name"), f.text("rule"), f.text("summary"), f.flag("unique"))
        f.done()
    return out


def parse_equipment(raw: TOMLTable, prov: Mapping[str, str]) -> dict[str, Equipment]:
    out = {}
    for entry, where in _entries(raw, "equipment.toml"):
        f = _Fields(raw[entry], where, prov)
        out[entry] = Equipment(
            entry, f.text("name"), f.text("rule"), f.enum("table", EquipmentTable), f.int("number", low=1),
            f.int("value"), f.text("summary"), f.flag("consumable"), f.int("slot_bonus", 0), f.int("grenade_bonus", 0),
            f.int("armor_bonus", 0), f.int("ca_bonus", 0), f.int("damage_bonus", 0), f.int("ammo_bonus", 0),
            f.int("max_per_model", None, low=1), f.text("adds_weapon", None))
        f.done()
    return out


def parse_bodies(raw: TOMLTable, prov: Mapping[str, str]) -> dict[str, Body]:
    out = {}
    for entry, where in _entries(raw, "bodies.toml"):
        f = _Fields(raw[entry], where, prov)
        body = Body(entry, f.text("name"), f.text("rule"), f.inches("diameter"), f.inches("height"))
        for name in ("diameter", "height"):
            if getattr(body, name) <= 0:
                raise f.fail(name, "must be positive")
        out[entry] = body
        f.done()
    return out


def parse_recruits(raw: TOMLTable, prov: Mapping[str, str], cat: Refs) -> dict[str, RecruitProfile]:
    out = {}
    for entry, where in _entries(raw, "recruits.toml"):
        f = _Fields(raw[entry], where, prov)
        level, armour, body = f.text("level"), f.text("armour"), f.text("body")
        _ref(f, "level", level, cat["levels"], "experience level")
        _ref(f, "armour", armour, cat["armours"], "armour")
        _ref(f, "body", body, cat["bodies"], "body")
        required = f.words("required_skills")
        for i, s in enumerate(required):
            _ref(f, f"required_skills[{i}]", s, cat["skills"], "skill")
        b = cat["bodies"][body]
        out[entry] = RecruitProfile(
            entry, f.text("name"), f.text("rule"), level, cat["levels"][level].actions, f.inches("move"), f.int("ca"),
            armour, f.int("will"), f.int("wounds", low=1), f.int("k_cost", low=1), f.int("ranged"), f.int("melee"),
            f.int("grenades"), f.int("skills"), f.int("basic_items"), body, b.diameter, b.height, required)
        f.done()
    return out


def parse_hostiles(raw: TOMLTable, prov: Mapping[str, str], cat: Refs) -> dict[str, HostileProfile]:
    out = {}
    for entry, where in _entries(raw, "hostiles.toml"):
        f = _Fields(raw[entry], where, prov)
        armour = f.text("armour", None)
        natural = f.int("armor", None)
        if (armour is None) == (natural is None):
            raise f.fail("armor", "give exactly one of armor (natural armour) and armour (worn armour id)")
        _ref(f, "armour", armour, cat["armours"], "armour")
        body = f.text("body")
        _ref(f, "body", body, cat["bodies"], "body")
        attacks = []
        for i, item in enumerate(f.get("attacks", list)):
            a = _Fields(item, f"{where}.attacks[{i}]", prov)
            attack = HostileAttack(a.text("weapon"), a.int("fp", low=1), a.int("damage"))
            _ref(a, "weapon", attack.weapon, cat["weapons"], "weapon")
            a.done()
            attacks.append(attack)
        if not attacks:
            raise f.fail("attacks", "needs at least one attack")
        worn = cat["armours"][armour] if armour else None
        armor = worn.armor if worn else natural
        assert armor is not None  # exactly one of armor and armour was given (checked above)
        b = cat["bodies"][body]
        out[entry] = HostileProfile(
            entry, f.text("name"), f.text("rule"), f.inches("move"), f.int("ca"),
            armor, f.int("will", None), tuple(attacks), f.int("wounds", low=1), body,
            b.diameter, b.height, f.enum("unit", UnitForm), f.flag("creature"), armour,
            worn.obscured if worn else None)
        f.done()
    return out
