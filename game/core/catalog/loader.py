"""The catalog loader: rules content from game/data/*.toml with house settings applied (ARMORY-5, CORE-3.2, CORE-3.6,
SKILL-6.1, EQUIP-6.2, CREW-7.1, HOSTILE-8.3, GEO-3)."""
from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from game.core.catalog.difficulty import Difficulty, apply_level, parse_difficulty
from game.core.catalog.parse import (
    Refs,
    TOMLTable,
    parse_armours,
    parse_bodies,
    parse_covers,
    parse_equipment,
    parse_grenades,
    parse_hostiles,
    parse_levels,
    parse_recruits,
    parse_skills,
    parse_weapons,
)
from game.core.catalog.profiles import (
    Catalog,
    CatalogError,
    Equipment,
    HostileAttack,
    HostileProfile,
    Obscured,
    Skill,
    UnitForm,
    Weapon,
    WeaponKind,
)
from game.core.settings import Settings

# --- settings applied to the raw data (CFG) -------------------------------------------------------

# (file, path in the raw TOML, setting key). At the house defaults these change nothing (tested).
SETTING_FIELDS: tuple[tuple[str, tuple[str | int, ...], str], ...] = (
    ("weapons.toml", ("smg", "range_max"), "weapons.smg.range_max"),
    ("weapons.toml", ("smg", "fp"), "weapons.smg.fp"),
    ("weapons.toml", ("smg", "damage"), "weapons.smg.damage"),
    ("weapons.toml", ("sniper_rifle", "fp"), "weapons.sniper.fp"),
    ("weapons.toml", ("sniper_rifle", "damage"), "weapons.sniper.damage"),
    ("weapons.toml", ("hmg", "fp"), "weapons.hmg.fp"),
    ("weapons.toml", ("hmg", "damage"), "weapons.hmg.damage"),
    ("weapons.toml", ("mortar", "fp"), "weapons.mortar_fp"),
    ("weapons.toml", ("axe", "same_as"), "weapons.extra.axe"),
    ("weapons.toml", ("chainsaw", "same_as"), "weapons.extra.chainsaw"),
    ("weapons.toml", ("unarmed", "fp"), "melee.unarmed.fp"),
    ("weapons.toml", ("unarmed", "damage"), "melee.unarmed.damage"),
    ("weapons.toml", ("unarmed", "ca_mod"), "melee.unarmed.ca_mod"),
    ("cover.toml", ("hardened", "pinned_armor"), "pin.cover_bonus_hardened"),
    ("cover.toml", ("hardened", "elevated"), "elev.hardened_becomes"),
    ("equipment.toml", ("chest_rig", "grenade_bonus"), "grenades.chest_rig"),
    ("equipment.toml", ("load_bearing_vest", "grenade_bonus"), "grenades.lbv"),
    ("hostiles.toml", ("bandit", "armour"), "hostiles.bandit.armour"),
    ("hostiles.toml", ("mutant", "move"), "hostiles.mutant.move"),
    ("hostiles.toml", ("mutant", "ca"), "hostiles.mutant.ca"),
    ("hostiles.toml", ("mutant", "armor"), "hostiles.mutant.armor"),
    ("hostiles.toml", ("mutant", "will"), "hostiles.mutant.will"),
    ("hostiles.toml", ("mutant", "attacks", 0, "weapon"), "hostiles.mutant.weapon"),
    ("hostiles.toml", ("mutant", "attacks", 0, "fp"), "hostiles.mutant.fp"),
    ("hostiles.toml", ("mutant", "attacks", 0, "damage"), "hostiles.mutant.damage"),
    ("hostiles.toml", ("mutant", "wounds"), "hostiles.mutant.wounds"),
    ("hostiles.toml", ("large_mutant", "move"), "hostiles.large_mutant.move"),
    ("hostiles.toml", ("large_mutant", "ca"), "hostiles.large_mutant.ca"),
    ("hostiles.toml", ("large_mutant", "armor"), "hostiles.large_mutant.armor"),
    ("hostiles.toml", ("large_mutant", "will"), "hostiles.large_mutant.will"),
    ("hostiles.toml", ("large_mutant", "attacks", 0, "weapon"), "hostiles.large_mutant.weapon"),
    ("hostiles.toml", ("large_mutant", "attacks", 0, "fp"), "hostiles.large_mutant.fp"),
    ("hostiles.toml", ("large_mutant", "attacks", 0, "damage"), "hostiles.large_mutant.damage"),
    ("hostiles.toml", ("large_mutant", "wounds"), "hostiles.large_mutant.wounds"),
    ("bodies.toml", ("human", "diameter"), "geo.bases.human.diameter"),
    ("bodies.toml", ("human", "height"), "geo.bases.human.height"),
    ("bodies.toml", ("dog", "diameter"), "geo.bases.dog.diameter"),
    ("bodies.toml", ("dog", "height"), "geo.bases.dog.height"),
    ("bodies.toml", ("vermin", "diameter"), "geo.bases.vermin.diameter"),
    ("bodies.toml", ("vermin", "height"), "geo.bases.vermin.height"),
    ("bodies.toml", ("mutant", "diameter"), "geo.bases.mutant.diameter"),
    ("bodies.toml", ("mutant", "height"), "geo.bases.mutant.height"),
    ("bodies.toml", ("large_mutant", "diameter"), "geo.bases.large_mutant.diameter"),
    ("bodies.toml", ("large_mutant", "height"), "geo.bases.large_mutant.height"),
)
# GAP-23: the Bandit stat line preset (`hostiles.bandit`) and the leaves each preset reads.
BANDIT_PRESETS: Mapping[str, Mapping[str, str]] = MappingProxyType({
    "thugs": {"move": "hostiles.bandit.thugs.move", "ca": "hostiles.bandit.thugs.ca",
              "will": "hostiles.bandit.thugs.will"},
    "rookie": {"move": "hostiles.bandit.rookie.move", "ca": "hostiles.bandit.rookie.ca",
               "will": "hostiles.bandit.rookie.will"},
})
# GAP-09: the "frenzied" preset of `hostiles.melee_fp` raises these hostiles' first attack.
FRENZIED_FP: Mapping[str, str] = MappingProxyType({"dogs": "hostiles.melee_fp.frenzied.dogs",
                                                   "ghouls": "hostiles.melee_fp.frenzied.ghouls"})
SHOTGUN_BOUNDARY: Mapping[str, bool] = MappingProxyType({"le6_is_3": True, "lt6_is_3": False})  # GAP-07


def setting_fields(settings: Settings) -> list[tuple[str, tuple[str | int, ...], object, str]]:
    """Every (file, path, value, setting key) the settings write into the raw data before validation."""
    out = [(file, path, _plain(settings[key]), key) for file, path, key in SETTING_FIELDS]
    preset = settings["hostiles.bandit"]
    out += [("hostiles.toml", ("bandit", stat), settings[key], key) for stat, key in BANDIT_PRESETS[preset].items()]
    if settings["hostiles.melee_fp"] == "frenzied":
        out += [("hostiles.toml", (h, "attacks", 0, "fp"), settings[key], key) for h, key in FRENZIED_FP.items()]
    out.append(("weapons.toml", ("shotgun", "near_inclusive"),
                SHOTGUN_BOUNDARY[settings["weapons.shotgun_boundary"]], "weapons.shotgun_boundary"))
    return out


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def path_text(file: str, path: tuple[str | int, ...]) -> str:
    text = f"{file} [{path[0]}]"
    for part in path[1:]:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def _write(raw: dict[str, TOMLTable], file: str, path: tuple[str | int, ...], value: object, key: str) -> None:
    node: Any = raw[file]  # walks the raw TOML: a missing step or a wrong type is reported below
    for part in path[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            raise CatalogError(f"{path_text(file, path)}: setting {key!r} applies here but "
                               f"{part!r} is missing from the data") from None
    if not isinstance(node, dict):
        raise CatalogError(f"{path_text(file, path)}: setting {key!r} needs a table here")
    node[path[-1]] = value


# --- settings applied after parsing ---------------------------------------------------------------

def _apply_weapon_settings(weapons: dict[str, Weapon], settings: Settings) -> dict[str, Weapon]:
    """`melee.forbidden`, `crew.start_weapons` and `weapons.rpg_single_weapon` (ARMORY-5.1.MELEE-USE, GAP-05,
    GAP-42)."""
    for id in settings["melee.forbidden"]:
        if id not in weapons:
            raise CatalogError(f"setting 'melee.forbidden': unknown weapon {id!r}; known: {sorted(weapons)}")
        weapons[id] = replace(weapons[id], melee_forbidden=True)
    if settings["crew.start_weapons"] == "any":
        for w in list(weapons.values()):
            if w.kind not in (WeaponKind.NATURAL, WeaponKind.UNARMED):
                weapons[w.id] = replace(w, starting=True)
    if not settings["weapons.rpg_single_weapon"] and "rpg" in weapons:
        rpg = weapons.pop("rpg")
        for p in rpg.profiles:
            weapons[f"rpg_{p.name}"] = replace(rpg, id=f"rpg_{p.name}", name=f"{rpg.name}, {p.name.replace('_', '-')}",
                                               profiles=(p,))
    return weapons


def _apply_hostile_settings(hostiles: dict[str, HostileProfile], weapons: Mapping[str, Weapon],
                            settings: Settings, difficulty: Difficulty) -> dict[str, HostileProfile]:
    """`hostiles.bandit.weapons`, `hostiles.grouping` and `obscured.creatures` (GAP-20, GAP-23, ARMORY-5.3.NATURAL),
    then `hostiles.difficulty` on top of every stat setting (HOSTILE-8.3.SCALING, difficulty.toml)."""
    if "bandit" in hostiles:
        attacks = []
        for id in settings["hostiles.bandit.weapons"]:
            if id not in weapons:
                raise CatalogError(f"setting 'hostiles.bandit.weapons': unknown weapon {id!r}; "
                                   f"known: {sorted(weapons)}")
            p = weapons[id].profile
            attacks.append(HostileAttack(id, p.fp or 1, p.damage))
        hostiles["bandit"] = replace(hostiles["bandit"], attacks=tuple(attacks))
    for h in list(hostiles.values()):
        if settings["hostiles.grouping"] == "all_individual":
            h = replace(h, unit_form=UnitForm.INDIVIDUAL)
        if h.creature and settings["obscured.creatures"]:
            h = replace(h, obscured=Obscured.IN_COVER)
        hostiles[h.id] = h
    return apply_level(hostiles, difficulty, settings["hostiles.difficulty"])


def _apply_skill_settings(skills: dict[str, Skill], settings: Settings) -> tuple[dict[str, Skill], dict[str, str]]:
    """`skills.unload` (GAP-30) and `skills.salvager_alias` (GAP-27)."""
    if settings["skills.unload"] == "disabled":
        skills.pop("unload", None)
    target = settings["skills.salvager_alias"]
    match = [s.id for s in skills.values() if s.name == target or s.id == target]
    if not match:
        raise CatalogError(f"setting 'skills.salvager_alias': no skill named {target!r}; "
                           f"skills: {sorted(s.name for s in skills.values())}")
    return skills, {"salvager": match[0]}


# --- loading --------------------------------------------------------------------------------------

FILES = ("weapons.toml", "grenades.toml", "armour.toml", "cover.toml", "experience.toml", "skills.toml",
         "equipment.toml", "bodies.toml", "recruits.toml", "hostiles.toml", "difficulty.toml")


def default_data_dir() -> Path:
    return Path(str(resources.files("game.data")))


def read_raw(data_dir: Path) -> dict[str, TOMLTable]:
    """The raw TOML of every data file; errors name the file."""
    raw: dict[str, TOMLTable] = {}
    for file in FILES:
        path = data_dir / file
        if not path.exists():
            raise CatalogError(f"{file}: missing from {data_dir}")
        try:
            raw[file] = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            hint = " (duplicate id or field)" if "twice" in str(exc) or "overwrite" in str(exc) else ""
            raise CatalogError(f"{file}: not valid TOML{hint}: {exc}") from None
    return raw


class _Entry(Protocol):
    """What every parsed entry has: its id and its display name."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...


def _check_unique(parsed: Mapping[str, Mapping[str, _Entry]]) -> None:
    for file, entries in parsed.items():
        names: dict[str, str] = {}
        for entry in entries.values():
            if entry.name in names:
                raise CatalogError(f"{file} [{entry.id}].name: duplicate name {entry.name!r}, "
                                   f"also [{names[entry.name]}]")
            names[entry.name] = entry.id
    clash = set(parsed["weapons.toml"]) & set(parsed["grenades.toml"])
    if clash:
        raise CatalogError(f"grenades.toml [{sorted(clash)[0]}]: duplicate id, also in weapons.toml")


def _check_weapon_refs(weapons: Mapping[str, Weapon], equipment: Mapping[str, Equipment]) -> None:
    for w in weapons.values():
        for name in sorted(w.accepts):
            if name not in equipment:
                raise CatalogError(f"weapons.toml [{w.id}].accepts: unknown equipment item {name!r}; "
                                   f"known: {sorted(equipment)}")
    for e in equipment.values():
        if e.adds_weapon is not None and e.adds_weapon not in weapons:
            raise CatalogError(f"equipment.toml [{e.id}].adds_weapon: unknown weapon {e.adds_weapon!r}")


def build_catalog(settings: Settings, data_dir: Path) -> Catalog:
    """Read, apply settings to and validate every data file (no cache)."""
    raw = copy.deepcopy(read_raw(data_dir))
    provenance = {}
    for file, path, value, key in setting_fields(settings):
        _write(raw, file, path, value, key)
        provenance[path_text(file, path)] = key
    p = provenance
    weapons, grenades = parse_weapons(raw["weapons.toml"], p), parse_grenades(raw["grenades.toml"], p)
    armours, covers = parse_armours(raw["armour.toml"], p), parse_covers(raw["cover.toml"], p)
    levels, skills = parse_levels(raw["experience.toml"], p), parse_skills(raw["skills.toml"], p)
    equipment, bodies = parse_equipment(raw["equipment.toml"], p), parse_bodies(raw["bodies.toml"], p)
    refs = Refs(levels=levels, armours=armours, bodies=bodies, skills=skills, weapons=weapons)
    recruits = parse_recruits(raw["recruits.toml"], p, refs)
    hostiles = parse_hostiles(raw["hostiles.toml"], p, refs)
    _check_unique({"weapons.toml": weapons, "grenades.toml": grenades, "armour.toml": armours, "cover.toml": covers,
                   "experience.toml": levels, "skills.toml": skills, "equipment.toml": equipment,
                   "bodies.toml": bodies, "recruits.toml": recruits, "hostiles.toml": hostiles})
    _check_weapon_refs(weapons, equipment)
    weapons = _apply_weapon_settings(weapons, settings)
    skills, aliases = _apply_skill_settings(skills, settings)
    difficulty = parse_difficulty(raw["difficulty.toml"], hostiles)
    level = difficulty.level(settings["hostiles.difficulty"])
    hostiles = _apply_hostile_settings(hostiles, weapons, settings, difficulty)
    ro = MappingProxyType
    return Catalog(ro(weapons), ro(grenades), ro(armours), ro(covers), ro(levels), ro(skills), ro(equipment),
                   ro(bodies), ro(recruits), ro(hostiles), ro(aliases), difficulty=level.id if level else "book",
                   difficulty_changes=level.changes if level else ro({}), difficulty_bounds=difficulty.bounds)


def _freeze(value: object) -> object:
    return tuple(value) if isinstance(value, (list, tuple)) else value


@lru_cache(maxsize=16)
def _cached(overrides: tuple[tuple[str, object], ...]) -> Catalog:
    return build_catalog(Settings(dict(overrides), where="catalog"), default_data_dir())


def load_catalog(settings: Settings | None = None, *, data_dir: Path | None = None) -> Catalog:
    """The catalog for these settings (house defaults when None); cached per overrides for the shipped data.

    `data_dir` reads another copy of the data files (tests point it at broken copies); it is never cached.
    """
    settings = Settings.defaults() if settings is None else settings
    if data_dir is not None:
        return build_catalog(settings, Path(data_dir))
    return _cached(tuple(sorted((k, _freeze(v)) for k, v in settings.overrides.items())))
