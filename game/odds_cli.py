"""`zona-alfa odds`: the exact outcome distribution of a ranged or template attack described by flags or a JSON
file, priced from the catalog's profiles through the resolver's own functions (COMBAT-4.*, ARMORY-5.*)."""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
import textwrap
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from game.core.actions import FlameAttack, IllegalAction, TemplateAttack, ThrowGrenade
from game.core.battlefield import Base, Battlefield, Cover, TerrainPiece
from game.core.catalog import (
    Armour,
    Catalog,
    Grenade,
    GrenadeEffect,
    Special,
    Template,
    Weapon,
    WeaponProfile,
    load_catalog,
)
from game.core.dice import Rng, TargetNumber, seed_state
from game.core.geometry.distance import weapon_range
from game.core.geometry.polygon import rect
from game.core.geometry.sight.cover import degrade
from game.core.geometry.templates import FLAME_END_CENTRE, FLAME_END_RADIUS
from game.core.odds.facts import odds_ctx
from game.core.odds.pools import pool_dist
from game.core.odds.ranged import RangedOdds, RoundOdds, ranged_round
from game.core.odds.templates import Case, ModelTemplateOdds, TemplateOdds, template_odds
from game.core.odds.unit import Dist, UnitFacts
from game.core.rules import validate
from game.core.rules.attack import situation
from game.core.rules.blasts import (
    Blast,
    flame_blast,
    grenade_blast,
    smoke_will_tn,
    template_save,
    template_will_situation,
    weapon_blast,
)
from game.core.rules.context import Ctx
from game.core.rules.modifiers import AttackNumbers, AttackSituation, attack_numbers, will_tn
from game.core.rules.setup import ModelSpec, build_profile
from game.core.settings import Settings
from game.core.state import ActivationState, GameState, ModelState, Phase, SideKind, SideState, UnitState

Prob = Fraction | float

# name -> (type, default, help). A default of None is taken from the profiles (armour, weapon) when the attack is
# checked; `--help` says which.
FIELDS: dict[str, tuple[type, Any, str]] = {
    "ca": (int, 5, "attacker CA, 0-10 (VITALS-2.1.CA)"),
    "weapon": (str, "assault_rifle", "attacker weapon or grenade id (game/data/weapons.toml, grenades.toml)"),
    "profile": (str, None, "the weapon's firing profile when it has several (rpg: anti_armour, anti_infantry)"),
    "attacker_items": (str, "", "attacker items, comma separated (red_dot, scope, hot_load)"),
    "attacker_skills": (str, "", "attacker skills, comma separated (unload, ...)"),
    "armour_type": (str, None, "target armour type: bdu, improvised, civilian, military, advanced, mimetic, exo "
                               "(game/data/armour.toml); it sets the rating, the save dice, Obscured and the Exo's "
                               "Will exemption (ARMORY-5.3.TABLE); civilian unless --creature"),
    "armour_value": (int, None, "target Armor rating 0-9 when it differs from the type's (GAP-62); a --creature's "
                                "hide needs one (ARMORY-5.3.NATURAL)"),
    "obscured": (str, None, "target Obscured rule: in_cover, always or none; it follows the armour type "
                            "(ARMORY-5.3.OBSCURED) and only a matching value is accepted"),
    "will": (str, "5", "target Will 0-10, or NA (GAP-22)"),
    "wounds": (int, 1, "target Wounds, 1-10 (COMBAT-4.4.WOUNDS)"),
    "wounds_taken": (int, 0, "target Wounds already taken, fewer than --wounds (GAP-92)"),
    "save_dice": (int, None, "save dice per hit, kept best; it follows the armour type (2 for advanced and exo, "
                             "ARMORY-5.3.TABLE, GAP-14) and only a matching number is accepted"),
    "target_skills": (str, "", "target skills, comma separated (hard, leader, ...)"),
    "target_items": (str, "", "target items, comma separated (medkit, kevlar_plates, ...)"),
    "models": (int, 1, "models in the target unit, 1-12 (GAP-77)"),
    "cover": (str, "none", "target cover class: none, soft, hard or hardened (GEO-12)"),
    "obstructions": (int, 0, "obstructions on the line of fire, 0-10 (GEO-13)"),
    "range": (float, None, "edge-to-edge distance in inches (GEO-4); 10, or 4 for the flame thrower"),
}
FLAGS = ("elevated", "aim", "pinned", "unload", "creature", "will_exempt", "ai", "leader_bonus")
FLAG_HELP = {
    "elevated": "the attacker stands 1\" or more above the target: cover one step down, obstructions ignored (GEO-14)",
    "aim": "the attacker Aimed first (CORE-3.3.AIM)",
    "pinned": "the target's unit carries a Pinned counter (COMBAT-4.3.KICK-RANGED, COMBAT-4.4.PIN-COVER)",
    "unload": "two attack actions as one round of 2xFP+2 dice; the attacker has the skill (SKILL-6.1.UNLOAD)",
    "creature": "the target is a creature: natural armour, never Obscured (ARMORY-5.3.NATURAL)",
    "will_exempt": "the target never takes the deflection Will check: drone, robot, walker (ARMORY-5.3.NERVES)",
    "ai": "the target's side is A.I.-controlled and uses its Med-Kits (AI-D.11)",
    "leader_bonus": "the target's Leader sees it: +1 Will (SKILL-6.1.LEADER)",
}
ALIASES = {"armour": "armour_type", "armor": "armour_value"}  # the old names, still read from flags and files
COVERS = ("none", "soft", "hard", "hardened")
OBSCURED = ("in_cover", "always", "none")
MAX_SPEC_BYTES = 1 << 20
FLAME_REACH = FLAME_END_CENTRE + FLAME_END_RADIUS  # GEO-15: the teardrop is 8" long from the attacker's base
EFFECTS_TEXT = {"affected": "affected", "soft_cover": "soft cover between (+2 save)",
                "shielded": "shielded (hard or hardened cover, or a blocking piece, between)", "untouched": "untouched"}


class SpecError(ValueError):
    """A refused attack description: one line naming the argument, what is wrong and the rule."""


# --- reading the description -----------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", nargs="?", help="JSON file with any of the fields below (flags override it)")
    for name, (_typ, default, help_text) in FIELDS.items():
        shown = "" if default is None else f" (default {default if default != '' else 'none'})"
        parser.add_argument("--" + name.replace("_", "-"), dest=name, default=None, metavar=name.upper(),
                            help=help_text + shown)
    for old in ALIASES:
        parser.add_argument("--" + old, dest=f"alias_{old}", default=None, help=argparse.SUPPRESS)
    for name in FLAGS:
        parser.add_argument("--" + name.replace("_", "-"), dest=name, action="store_true", default=None,
                            help=FLAG_HELP[name])
    parser.add_argument("--json", dest="as_json", action="store_true",
                        help="print the numbers and exact probabilities as \"p/q\" strings")


def _flag_name(name: str) -> str:
    return "--" + name.replace("_", "-")


def read_spec_file(path_text: str) -> dict[str, Any]:
    """The JSON object of an attack description; every failure is one SpecError line naming the file."""
    path = Path(path_text)
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_SPEC_BYTES + 1)
    except FileNotFoundError:
        raise SpecError(f"spec {path_text}: no such file") from None
    except IsADirectoryError:
        raise SpecError(f"spec {path_text}: is a directory, not a JSON attack description") from None
    except OSError as exc:
        raise SpecError(f"spec {path_text}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_SPEC_BYTES:
        raise SpecError(f"spec {path_text}: larger than {MAX_SPEC_BYTES} bytes; an attack description is a small "
                        f"JSON object")
    try:
        obj = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise SpecError(f"spec {path_text}: not UTF-8 text; an attack description is a JSON object") from None
    except json.JSONDecodeError as exc:
        raise SpecError(f"spec {path_text}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise SpecError(f"spec {path_text}: nested too deeply to be an attack description") from None
    if not isinstance(obj, dict):
        raise SpecError(f"spec {path_text}: the attack description must be a JSON object of fields, not "
                        f"{type(obj).__name__}")
    known = set(FIELDS) | set(FLAGS) | set(ALIASES)
    bad = sorted(set(obj) - known)
    if bad:
        raise SpecError(f"spec {path_text}: unknown field(s) {bad}; known: {sorted(set(FIELDS) | set(FLAGS))}")
    return obj


def spec_from(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, str]]:
    """The raw description (the JSON file, then the flags over it) and where each value came from."""
    raw: dict[str, Any] = {}
    where: dict[str, str] = {}
    if getattr(args, "spec", None):
        for key, value in read_spec_file(args.spec).items():
            name = ALIASES.get(key, key)
            _put(raw, where, name, value, f"spec {args.spec} field {key!r}")
    for old, new in ALIASES.items():
        value = getattr(args, f"alias_{old}", None)
        if value is not None:
            _put(raw, where, new, value, "--" + old, flags=True)
    for name in list(FIELDS) + list(FLAGS):
        value = getattr(args, name, None)
        if value is not None:
            _put(raw, where, name, value, _flag_name(name), flags=True)
    return raw, where


def _put(raw: dict[str, Any], where: dict[str, str], name: str, value: Any, label: str, *,
         flags: bool = False) -> None:
    """Set one field; the same field given twice at one level (a name and its old alias) must agree."""
    if name in raw and where[name].startswith("--") == flags and raw[name] != value:
        raise SpecError(f"{where[name]} {raw[name]!r} and {label} {value!r} name the same field ({name}) with "
                        f"different values")
    raw[name] = value
    where[name] = label


# --- checking it ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attack:
    """A checked attack description: catalog objects and numbers the rules accept."""

    ca: int
    weapon: Weapon | None
    grenade: Grenade | None
    profile: WeaponProfile | None  # None for grenades
    attacker_items: tuple[str, ...]
    attacker_skills: tuple[str, ...]
    armour: Armour | None  # None: a creature's natural armour
    armour_value: int
    obscured: str | None
    will: int | None
    wounds: int
    wounds_taken: int
    save_dice: int
    will_exempt: bool
    target_skills: tuple[str, ...]
    target_items: tuple[str, ...]
    models: int
    cover: Cover
    obstructions: int
    range: float
    range_given: bool
    elevated: bool
    aim: bool
    pinned: bool
    unload: bool
    creature: bool
    ai: bool
    leader_bonus: bool

    @property
    def template(self) -> Template | None:
        """The template this attack places (ARMORY-5.1.SBT-LBT, ARMORY-5.1.FLAME), None for a direct attack."""
        if self.grenade is not None:
            return self.grenade.template
        assert self.profile is not None
        return self.profile.template

    @property
    def name(self) -> str:
        return self.grenade.name if self.grenade is not None else self.weapon.name if self.weapon else "?"

    @property
    def item_id(self) -> str:
        """The weapon's or grenade's catalog id."""
        return self.grenade.id if self.grenade is not None else self.weapon.id if self.weapon else "?"

    @property
    def band(self) -> tuple[float, float]:
        """The range band in inches (VITALS-2.2.RANGE); the flame's is its template's length (GEO-15)."""
        if self.grenade is not None:
            return self.grenade.range_min, self.grenade.range_max
        assert self.profile is not None
        if self.profile.template is Template.FLAME:
            return 0.0, FLAME_REACH
        return self.profile.range_min, float(self.profile.range_max or 0.0)


class _Reader:
    """Turns raw values (strings from flags, JSON values from a file) into checked ones, naming the source."""

    def __init__(self, raw: dict[str, Any], where: dict[str, str]) -> None:
        self.raw = raw
        self.where = where

    def label(self, name: str) -> str:
        return self.where.get(name, f"the default {_flag_name(name)}")

    def given(self, name: str) -> bool:
        return self.raw.get(name) is not None

    def value(self, name: str) -> Any:
        v = self.raw.get(name)
        return FIELDS[name][1] if v is None and name in FIELDS else v

    def fail(self, name: str, why: str) -> SpecError:
        flag = name in FLAGS and self.label(name).startswith("--")
        return SpecError(f"{self.label(name)}{'' if flag else ' ' + self.shown(name)}: {why}")

    def shown(self, name: str) -> str:
        v = self.value(name)
        return v if isinstance(v, str) else json.dumps(v)

    def int(self, name: str, lo: int, hi: int, what: str, rule: str) -> int:
        v = self.value(name)
        n: int | None = None
        if isinstance(v, bool):
            n = None
        elif isinstance(v, int):
            n = v
        elif isinstance(v, float) and math.isfinite(v) and v.is_integer():
            n = int(v)
        elif isinstance(v, str) and re.fullmatch(r"\s*[+-]?\d{1,40}\s*", v):
            n = int(v)
        if n is None:
            raise self.fail(name, f"{what} is a whole number ({rule})")
        if not lo <= n <= hi:
            raise self.fail(name, f"{what} is {lo}-{hi} ({rule})")
        return n

    def float(self, name: str, what: str, rule: str) -> float:
        v = self.value(name)
        x: float | None = None
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            x = float(v)
        elif isinstance(v, str):
            try:
                x = float(v)
            except ValueError:
                x = None
        if x is None:
            raise self.fail(name, f"{what} is a number of inches ({rule})")
        if not math.isfinite(x):
            raise self.fail(name, f"{what} must be a finite number of inches ({rule})")
        if x < 0:
            raise self.fail(name, f"{what} cannot be negative ({rule})")
        return x

    def text(self, name: str) -> str:
        v = self.value(name)
        if not isinstance(v, str):
            raise self.fail(name, "expected a name (a JSON string)")
        return v.strip()

    def names(self, name: str) -> tuple[str, ...]:
        v = self.value(name)
        if isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
            return tuple(x.strip() for x in v if x.strip())
        if isinstance(v, str):
            return tuple(x.strip() for x in v.split(",") if x.strip())
        raise self.fail(name, "expected names separated by commas (or a JSON list of strings)")

    def flag(self, name: str) -> bool:
        v = self.raw.get(name)
        if v is None:
            return False
        if not isinstance(v, bool):
            raise self.fail(name, "expected true or false")
        return v


def check_spec(raw: dict[str, Any], where: dict[str, str] | None = None, *,
               settings: Settings | None = None) -> Attack:
    """Every field checked against the catalog and the rules: unknown names, impossible numbers, contradictions
    with the armour's profile, weapons outside their range band or unable to Unload are refused (SpecError)."""
    s = settings or Settings.defaults()
    cat = load_catalog(s)
    bad = sorted(set(raw) - set(FIELDS) - set(FLAGS) - set(ALIASES))
    if bad:
        raise SpecError(f"unknown field(s) {bad}; known: {sorted(set(FIELDS) | set(FLAGS))}")
    raw = {ALIASES.get(k, k): v for k, v in raw.items()}
    r = _Reader(raw, dict(where) if where else {k: f"field {k!r}" for k in raw})
    flags = {name: r.flag(name) for name in FLAGS}
    weapon, grenade, profile = _weapon(r, cat)
    a_items = _items(r, "attacker_items", cat, weapon)
    a_skills = _skills(r, "attacker_skills", cat, s)
    if flags["unload"]:
        _check_unload(r, cat, weapon, profile)
        a_skills = a_skills if "unload" in a_skills else a_skills + ("unload",)
    armour, value, save_dice, obscured = _armour(r, cat, s, creature=flags["creature"])
    will = None if str(r.value("will")).strip().upper() == "NA" else r.int("will", 0, 10, "Will", "VITALS-2.1.WILL")
    wounds = r.int("wounds", 1, 10, "a model's Wounds", "COMBAT-4.4.WOUNDS")
    taken = r.int("wounds_taken", 0, 10, "Wounds taken", "COMBAT-4.3.WOUND")
    if taken >= wounds:
        raise r.fail("wounds_taken", f"a model with {wounds} Wound(s) is Out of Action once it has taken {wounds}; "
                                     f"give 0-{wounds - 1} (GAP-92, COMBAT-4.4.OOA)")
    cover_text = r.text("cover").lower()
    if cover_text == "obstruction":
        raise r.fail("cover", "cover is soft, hard or hardened (GEO-12); count low obstacles on the line with "
                              "--obstructions (GEO-13); soft cover seen from 1\" above is --cover soft --elevated "
                              "(GEO-14)")
    if cover_text not in COVERS:
        raise r.fail("cover", f"unknown cover class; one of {', '.join(COVERS)} (GEO-12, CORE-3.6.TABLE)")
    if flags["leader_bonus"] and "leader" in r.names("target_skills") and not s["leader.self_bonus"]:
        raise r.fail("leader_bonus", "the target is the Leader, who does not give himself the bonus "
                                     "(SKILL-6.1.LEADER, leader.self_bonus)")
    a = Attack(
        ca=r.int("ca", 0, 10, "CA", "VITALS-2.1.CA"), weapon=weapon, grenade=grenade, profile=profile,
        attacker_items=a_items, attacker_skills=a_skills, armour=armour, armour_value=value, obscured=obscured,
        will=will, wounds=wounds, wounds_taken=taken, save_dice=save_dice,
        will_exempt=flags["will_exempt"] or bool(armour and armour.will_exempt),
        target_skills=_skills(r, "target_skills", cat, s), target_items=_items(r, "target_items", cat, None),
        models=r.int("models", 1, 12, "models in a unit", "GAP-77"), cover=Cover(cover_text),
        obstructions=r.int("obstructions", 0, 10, "obstructions on the line", "GEO-13"),
        range=0.0, range_given=r.given("range"), **{k: v for k, v in flags.items() if k != "will_exempt"})
    return replace(a, range=_range(r, a, s))


def _weapon(r: _Reader, cat: Catalog) -> tuple[Weapon | None, Grenade | None, WeaponProfile | None]:
    wid = r.text("weapon")
    if wid in cat.grenades:
        if r.given("profile"):
            raise r.fail("profile", f"a grenade has one profile; {cat.grenades[wid].name} has no named profiles "
                                    f"(ARMORY-5.1.GRENADE-TABLE)")
        return None, cat.grenades[wid], None
    if wid not in cat.weapons:
        raise r.fail("weapon", f"unknown weapon or grenade; known: {', '.join(sorted(cat.weapons))}; grenades: "
                               f"{', '.join(sorted(cat.grenades))} (ARMORY-5.1)")
    w = cat.weapons[wid]
    if w.melee_only:
        raise r.fail("weapon", f"{w.name} is a melee weapon (range \"Melee\", ARMORY-5.1.MELEE-USE); this command "
                               f"prices ranged and template attacks")
    if r.given("profile"):
        name = r.text("profile")
        names = [p.name for p in w.profiles]
        if name not in names:
            raise r.fail("profile", f"{w.name} has the profile(s) {', '.join(names)} (ARMORY-5.1.CATEGORIES)")
        return w, None, w.profile_named(name)
    return w, None, w.profile


def _items(r: _Reader, name: str, cat: Catalog, weapon: Weapon | None) -> tuple[str, ...]:
    items = r.names(name)
    for it in items:
        if it not in cat.equipment_items:
            raise r.fail(name, f"unknown item {it!r}; known: {', '.join(sorted(cat.equipment_items))} (EQUIP-6.2)")
        fits = [w.name for w in cat.weapons.values() if it in w.accepts]
        if weapon is not None and fits and it not in weapon.accepts:
            raise r.fail(name, f"{cat.equipment_items[it].name} does not fit the {weapon.name}; it fits "
                               f"{', '.join(fits)} ({cat.equipment_items[it].rule})")
        cap = cat.equipment_items[it].max_per_model
        if cap is not None and items.count(it) > cap:
            raise r.fail(name, f"at most {cap} {cat.equipment_items[it].name} per model "
                               f"({cat.equipment_items[it].rule})")
    return items


def _skills(r: _Reader, name: str, cat: Catalog, s: Settings) -> tuple[str, ...]:
    skills = r.names(name)
    out = []
    for sk in skills:
        try:
            out.append(cat.skill(sk).id)
        except KeyError:
            raise r.fail(name, f"unknown skill {sk!r}; known: {', '.join(sorted(cat.skills))} (SKILL-6.1)") from None
    if len(set(out)) > int(s["skills.max"]):
        raise r.fail(name, f"no character may have more than {s['skills.max']} Skills (SKILL-6.1.LIMIT)")
    return tuple(dict.fromkeys(out))


def _check_unload(r: _Reader, cat: Catalog, weapon: Weapon | None, profile: WeaponProfile | None) -> None:
    if weapon is None or profile is None or not weapon.unload_eligible or profile.template is not None:
        what = weapon.name if weapon is not None else "a grenade"
        able = ", ".join(w.id for w in cat.weapons.values() if w.unload_eligible)
        raise r.fail("unload", f"{what} cannot Unload: only FP 2+ weapons without Reload, Limited Ammo or a "
                               f"template may ({able}; SKILL-6.1.UNLOAD)")


def _armour(r: _Reader, cat: Catalog, s: Settings, *,
            creature: bool) -> tuple[Armour | None, int, int, str | None]:
    """(armour, Armor, save dice, Obscured rule) from the type, checked against any value given for them."""
    cap = int(s["advances.caps.armor"])
    value = r.int("armour_value", 0, cap, "Armor", "VITALS-2.1.ARMOR, GAP-62") if r.given("armour_value") else None
    armour: Armour | None = None
    if creature:
        if r.given("armour_type"):
            raise r.fail("armour_type", "a creature wears no armour type: give its hide's rating with "
                                        "--armour-value (ARMORY-5.3.NATURAL)")
        if value is None:
            raise SpecError("--creature needs --armour-value: the Armor of its hide, shell or plates "
                            "(ARMORY-5.3.NATURAL)")
        dice, obscured, owner = 1, None, "a creature's natural armour"
    else:
        tid = r.text("armour_type").lower() if r.given("armour_type") else "civilian"
        if tid not in cat.armours:
            raise r.fail("armour_type", f"unknown armour type; known: {', '.join(cat.armours)} (ARMORY-5.3.TABLE)")
        armour = cat.armours[tid]
        value = armour.armor if value is None else value
        dice, obscured, owner = armour.save_dice, armour.obscured.value, armour.name
    if r.given("save_dice"):
        given = r.int("save_dice", 0, 10, "save dice", "COMBAT-4.1.SAVE")
        if given < 1:
            raise r.fail("save_dice", "every hit gets a save roll of at least one die (COMBAT-4.1.SAVE)")
        if given != dice:
            keep = "rolls 2 dice per hit and keeps the better" if dice == 2 else "rolls 1 die per hit"
            raise r.fail("save_dice", f"{owner} {keep} (ARMORY-5.3.TABLE, COMBAT-4.1.SAVE, GAP-14); set the armour "
                                      f"type instead")
    if r.given("obscured"):
        o = r.text("obscured").lower()
        if o not in OBSCURED:
            raise r.fail("obscured", f"unknown Obscured rule; one of {', '.join(OBSCURED)} (ARMORY-5.3.OBSCURED)")
        if (None if o == "none" else o) != obscured:
            rule = "never Obscured" if obscured is None else f"Obscured {obscured.replace('_', ' ')}"
            raise r.fail("obscured", f"{owner} is {rule} (ARMORY-5.3.OBSCURED, ARMORY-5.3.NATURAL); set the armour "
                                     f"type instead")
    return armour, value, dice, obscured


def _range(r: _Reader, a: Attack, s: Settings) -> float:
    """GEO-4/GEO-5: a distance the weapon reaches; base contact leaves only melee (GEO-5, GAP-78)."""
    lo, hi = a.band
    if r.given("range"):
        d = r.float("range", "a distance", "GEO-4")
    else:
        d = 10.0 if lo <= 10.0 <= hi else FLAME_REACH / 2 if a.template is Template.FLAME else (lo + hi) / 2
    tol = float(s["geo.contact_tol"])
    what = f"{a.name}" + (f" ({a.profile.name})" if a.weapon is not None and len(a.weapon.profiles) > 1
                          and a.profile is not None else "")
    if d <= tol:
        raise r.fail("range", f"within {tol:g}\" the bases are in contact: only melee is possible (GEO-5, GEO-6, "
                              f"GAP-78)")
    if a.template is Template.FLAME:
        if d > FLAME_REACH:
            raise r.fail("range", f"the flame template reaches {FLAME_REACH:g}\" from the attacker's base "
                                  f"(ARMORY-5.1.FLAME, GEO-15)")
        return d
    fact = weapon_range(Base("a", 0.0, 0.0, 0.0, 0.5, 1.25, "a"), Base("t", 1.0 + d, 0.0, 0.0, 0.5, 1.25, "b"), lo, hi)
    if not fact.in_range:
        side = "closer than its minimum" if fact.too_close else "beyond its maximum"
        rule = "GEO-5, GAP-70" if a.template is not None else "GEO-5, COMBAT-4.1.REQUIREMENTS"
        raise r.fail("range", f"{side} range: {what} reaches {lo:g}-{hi:g}\" ({rule})")
    return d


# --- building the attack from the profiles -----------------------------------------------------------------------


def _models(a: Attack, cat: Catalog) -> tuple[ModelState, tuple[ModelState, ...]]:
    """The attacker and the target unit as the engine builds crew models (setup.build_profile), with the
    described numbers; a creature's profile carries its hide's Armor and no Obscured rule (ARMORY-5.3.NATURAL)."""
    weapons = (a.weapon.id,) if a.weapon is not None else ()
    a_prof = replace(build_profile(cat, ModelSpec("attacker", "attacker", "veteran", "civilian", weapons,
                                                  a.attacker_skills, a.attacker_items)), ca=a.ca)
    t_spec = ModelSpec("target", "target", "hardened", a.armour.id if a.armour else "civilian", (), a.target_skills,
                       a.target_items)
    base = build_profile(cat, t_spec)
    natural = a.armour is None  # ARMORY-5.3.NATURAL: a hide, never Obscured, one save die
    t_prof = replace(base, will=a.will, wounds=a.wounds, armor=a.armour_value, will_exempt=a.will_exempt,
                     armour="natural" if natural else base.armour, armour_move_mod=0.0 if natural else
                     base.armour_move_mod, creature=natural, obscured=None if natural else base.obscured,
                     save_dice=1 if natural else base.save_dice)
    attacker = ModelState("attacker", "attacker", "a", a_prof, deployed=True, items=list(a.attacker_items),
                          grenades={a.grenade.id: 2} if a.grenade is not None else {})
    targets = tuple(ModelState(f"target{i + 1}" if i else "target", "target", "b", t_prof, deployed=True,
                               items=list(a.target_items), wounds_taken=a.wounds_taken if i == 0 else 0)
                    for i in range(a.models))
    return attacker, targets


def _situation(a: Attack, s: Settings) -> AttackSituation:
    """The facts the geometry would give (GEO-12..14): cover after elevation, obstructions unless higher."""
    return AttackSituation(distance=a.range, cover=degrade(a.cover, settings=s) if a.elevated else a.cover,
                           cover_before_elevation=a.cover, elevated=a.elevated,
                           obstructions=0 if a.elevated else a.obstructions, aim=a.aim, leader_bonus=a.leader_bonus,
                           extra_dice=((a.profile.fp or 0) + 2) if a.unload and a.profile else 0)


def build_attack(spec: dict[str, Any], *,
                 settings: Settings | None = None) -> tuple[AttackNumbers, UnitFacts, AttackSituation, Catalog]:
    """(AttackNumbers, target unit, situation, catalog) of a direct ranged attack, through modifiers.attack_numbers
    with the catalog's weapon and armour profiles; a template weapon is refused (it has no such numbers)."""
    s = settings or Settings.defaults()
    a = check_spec(spec, settings=s)
    if a.template is not None:
        raise SpecError(f"{a.name} places a template: its odds come from odds_from_spec (template_odds)")
    return _ranged_parts(a, s)


def _ranged_parts(a: Attack, s: Settings) -> tuple[AttackNumbers, UnitFacts, AttackSituation, Catalog]:
    cat = load_catalog(s)
    assert a.weapon is not None and a.profile is not None
    attacker, targets = _models(a, cat)
    sit = _situation(a, s)
    nums = attack_numbers(attacker, targets[0], a.weapon, a.profile, sit, catalog=cat, settings=s,
                          target_pinned=a.pinned)
    return nums, UnitFacts(targets, a.ai, s, 1 if a.pinned else 0), sit, cat


# --- template attacks on a tiny table ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BlastOdds:
    """A template attack (GAP-70, ARMORY-5.1.FLAME) priced by odds.templates.template_odds on a tiny table, with
    the numbers a touched target model faces (blasts.template_save, blasts.template_will_situation)."""

    attack: Attack
    odds: TemplateOdds
    damage: int | None
    save: TargetNumber | None  # the save of an affected model; None: no damage roll (smoke, flash bang)
    save_soft: TargetNumber | None  # behind soft cover (ARMORY-5.2.TEMPLATE-COVER, GAP-73)
    save_dice: int
    will: TargetNumber | None
    will_soft: TargetNumber | None  # touching the soft cover that gave the save bonus (GAP-75)
    will_reason: str

    @property
    def target(self) -> ModelTemplateOdds | None:
        return self.odds.models.get("target")

    def summary(self) -> dict[str, Prob]:
        t = self.target
        zero = Fraction(0)
        return {"p_hit": self.odds.p_hit, "p_touched": t.p_touched if t else zero,
                "p_affected": (t.effects["affected"] + t.effects["soft_cover"]) if t else zero,
                "expected_wounds": t.expected_wounds if t else zero, "p_wound": t.p_wound if t else zero,
                "p_ooa": t.p_ooa if t else zero, "p_pinned_by_will": t.p_pinned_by_will if t else zero,
                "p_any_pin": t.p_any_pin if t else zero}


def tiny_table(a: Attack, attacker: ModelState, targets: tuple[ModelState, ...], s: Settings) -> GameState:
    """A game in the attacker's activation on an open table: the target `range` inches away edge to edge along +x,
    its unit mates in a line behind it 0.05" apart (GEO-21), a low wall of the described cover class in contact in
    front of it (GEO-12), the obstructions spread on the line between (GEO-13), the attacker on a 1" platform when
    elevated (GEO-14), the target's Leader 10" aside, out of any template's reach, for --leader-bonus. No piece
    blocks sight, so every throw is direct (GAP-70)."""
    ra, rt = attacker.radius, targets[0].radius
    ax, y = 6.0, 12.0
    tx = ax + ra + a.range + rt
    pieces: list[TerrainPiece] = []
    front = tx - rt
    if a.cover is not Cover.NONE:
        pieces.append(TerrainPiece(1, f"{a.cover.value} cover", rect(front - 0.25, y - 2.0, front - 0.05, y + 2.0),
                                   0.0, 1.0, cover=a.cover))
        front -= 0.25
    n = a.obstructions
    if n:
        lo, hi = ax + ra + 0.3, front - 0.2
        if hi - lo < 0.15 * n:
            raise SpecError(f"--obstructions {n}: {n} obstruction(s) do not fit on a {a.range:g}\" line between "
                            f"the bases (GEO-13); give a longer --range")
        step = (hi - lo) / n
        for i in range(n):
            x0 = lo + i * step
            pieces.append(TerrainPiece(10 + i, f"obstruction {i + 1}", rect(x0, y - 2.0, x0 + 0.1, y + 2.0), 0.0,
                                       0.75, cover=Cover.OBSTRUCTION))
    z = float(s["elev.step"]) if a.elevated else 0.0
    if a.elevated:  # the attacker stands on a 1" platform (GEO-7) reaching no farther than its base
        pieces.append(TerrainPiece(2, "platform", rect(ax - ra, y - 1.0, ax + ra, y + 1.0), 0.0, z, surface=True))
    width = tx + rt * 2 * a.models + 12.0
    bf = Battlefield(name="odds", width=width, height=2 * y, pieces=tuple(pieces))
    st = GameState(scenario="odds", seed=0, rng=Rng(seed_state(0)), settings=dict(s.overrides),
                   table=(width, 2 * y), battlefield=bf, turn=1, turn_limit=6, phase=Phase.ACTION)
    st.sides = [SideState("a", "attacker", SideKind.CREW, deployed=True),
                SideState("b", "target", SideKind.CREW, controller="ai" if a.ai else "human", deployed=True)]
    st.models["attacker"] = replace(attacker, x=ax, y=y, z=z)
    st.units["attacker"] = UnitState("attacker", "a", ["attacker"])
    for i, m in enumerate(targets):
        st.models[m.id] = replace(m, x=tx + i * (2 * rt + 0.05), y=y)
    st.units["target"] = UnitState("target", "b", [m.id for m in targets], pins=1 if a.pinned else 0)
    if a.leader_bonus:
        lead = replace(targets[0], id="leader", unit="leader", x=tx, y=y + 10.0, wounds_taken=0, items=[],
                       profile=replace(targets[0].profile, name="leader", leader=True))
        st.models["leader"] = lead
        st.units["leader"] = UnitState("leader", "b", ["leader"])
    st.order, st.deciding = ["a", "b"], "a"
    st.activation = ActivationState("attacker", budget=3, aim=a.aim)
    return st


def _template_action(a: Attack, st: GameState) -> FlameAttack | TemplateAttack | ThrowGrenade:
    t = st.models["target"]
    if a.grenade is not None:
        return ThrowGrenade("attacker", a.grenade.id, t.x, t.y)
    assert a.weapon is not None and a.profile is not None
    if a.profile.template is Template.FLAME:
        return FlameAttack("attacker", a.weapon.id, 0.0)
    return TemplateAttack("attacker", a.weapon.id, t.x, t.y, a.profile.name if len(a.weapon.profiles) > 1 else None)


def _blast_of(ctx: Ctx, a: Attack, m: ModelState) -> Blast:
    if a.grenade is not None:
        return grenade_blast(ctx, a.grenade.id)
    assert a.weapon is not None and a.profile is not None
    if a.profile.template is Template.FLAME:
        return flame_blast(ctx, m, a.weapon.id)
    return weapon_blast(ctx, m, a.weapon.id, a.profile.name)[2]


def _blast_odds(a: Attack, s: Settings) -> BlastOdds:
    cat = load_catalog(s)
    attacker, targets = _models(a, cat)
    st = tiny_table(a, attacker, targets, s)
    action = _template_action(a, st)
    try:
        validate(st, action)
    except IllegalAction as exc:
        raise SpecError(f"--weapon {a.item_id} at --range {a.range:g}: the engine refuses the attack: {exc.reason} "
                        f"({exc.rule})") from None
    ctx = odds_ctx(st)
    geo = situation(ctx, st.models["attacker"], st.models["target"], melee=False)
    want = _situation(a, s)
    if (geo.cover, geo.cover_before_elevation, geo.elevated, geo.obstructions, geo.leader_bonus) != (
            want.cover, want.cover_before_elevation, want.elevated, want.obstructions, want.leader_bonus):
        raise SpecError(f"--cover/--obstructions/--elevated: the table laid out for this attack gives cover "
                        f"{geo.cover.value}, {geo.obstructions} obstruction(s), elevated {geo.elevated}, not the "
                        f"described ones (GEO-12..14); try a longer --range")
    odds = template_odds(st, action)
    t = st.models["target"]
    blast = _blast_of(ctx, a, st.models["attacker"])
    sv = soft = None
    if blast.damage is not None:
        sv, soft = template_save(ctx, t, blast, False), template_save(ctx, t, blast, True)
    will, why = will_tn(t, replace(template_will_situation(False), leader_bonus=a.leader_bonus), catalog=cat,
                        settings=s)
    if GrenadeEffect.AUTO_PIN in blast.effects:
        will, why = None, "the Flash Bang pins each model it touches, no save, no check (GAP-112)"
    elif GrenadeEffect.SMOKE in blast.effects:
        exempt = "Will NA (GAP-22)" if t.profile.will is None else "Gas Mask (EQUIP-6.2.GAS-MASK)" if (
            "gas_mask" in t.items) else ""
        will, why = (None, exempt) if exempt else (smoke_will_tn(ctx, t), "")
    will_soft = will_tn(t, replace(template_will_situation(True), leader_bonus=a.leader_bonus), catalog=cat,
                        settings=s)[0]
    return BlastOdds(a, odds, blast.damage, sv, soft, max(1, t.profile.save_dice), will, will_soft, why)


def price(a: Attack, settings: Settings | None = None) -> RangedOdds | BlastOdds:
    """The exact odds of a checked attack: a direct one through attack_numbers and ranged_round, a template one
    through template_odds on a tiny table (its deviation arcs are floats where geometry makes them so)."""
    s = settings or Settings.defaults()
    if a.template is not None:
        return _blast_odds(a, s)
    nums, unit, sit, cat = _ranged_parts(a, s)
    return ranged_round("attacker", "target", nums, unit, sit, catalog=cat)


def odds_from_spec(spec: dict[str, Any], *, settings: Settings | None = None,
                   where: dict[str, str] | None = None) -> RangedOdds | BlastOdds:
    """The exact odds of a described attack (every field of FIELDS and FLAGS optional); SpecError if refused."""
    s = settings or Settings.defaults()
    return price(check_spec(spec, where, settings=s), s)


# --- output ------------------------------------------------------------------------------------------------------


def _pq(x: Prob) -> str | float:
    """Exact probabilities as "p/q"; a float (a deviation arc found by geometry) stays a JSON number."""
    return f"{x.numerator}/{x.denominator}" if isinstance(x, Fraction) else x


def _tn_json(tn: TargetNumber | None) -> dict[str, Any] | None:
    return None if tn is None else {"tn": tn.value, "breakdown": tn.breakdown()}


def tn_text(tn: TargetNumber) -> str:
    """"TN 4 = CA 5, 1 obstruction(s) -1 (CORE-3.6.OBSTRUCTION)": the TN, its base and each modifier's rule."""
    parts = [f"{tn.base.label} {tn.base.value}"] + [f"{m.label} {m.value:+d} ({m.rule})" for m in tn.mods]
    return f"TN {tn.value} = " + ", ".join(parts)


def p_saved(tn: int, dice: int, s: Settings) -> Fraction:
    """P(one hit alone is saved): odds.pools.pool_dist of one hit, `dice` dice kept best (COMBAT-4.1.SAVE, GAP-14)."""
    d = pool_dist(1, tn, group=dice, settings=s)
    return Fraction(d.by_succ[1], d.denom)


def _save_formula(tn: int, dice: int) -> str:
    t = min(9, max(1, tn))
    clamp = "" if 1 <= tn <= 9 else (" (a natural 1 always saves)" if tn < 1 else " (a natural 10 never saves)")
    one = f"{t}/10"
    return (one if dice == 1 else f"1 - (1 - {one})^{dice}") + clamp


def _dist_json(d: Dist) -> dict[str, str | float]:
    return {str(k): _pq(v) for k, v in d.fractions().items()}


def _round_json(r: RoundOdds) -> dict[str, dict[str, str | float]]:
    return {"hits": _dist_json(r.hits), "deflections": _dist_json(r.deflections), "wounds": _dist_json(r.wounds),
            "pins_gained": _dist_json(r.pins), "models_lost": _dist_json(r.models_lost),
            "will_check": _dist_json(r.will), "will_crit": _dist_json(r.will_crit),
            "save_crit": _dist_json(r.save_crit), "ooa": _dist_json(r.ooa)}


def _target_json(a: Attack) -> dict[str, Any]:
    return {"armour_type": a.armour.id if a.armour else "natural", "armour_value": a.armour_value,
            "save_dice": a.save_dice, "will": a.will, "will_exempt": a.will_exempt, "wounds": a.wounds,
            "wounds_taken": a.wounds_taken, "models": a.models, "cover": a.cover.value,
            "obstructions": a.obstructions, "elevated": a.elevated, "pinned": a.pinned}


def odds_json(o: RangedOdds | BlastOdds, *, settings: Settings | None = None) -> dict[str, Any]:
    """The numbers (with breakdowns), the summary and every distribution; probabilities as exact "p/q"."""
    s = settings or Settings.defaults()
    if isinstance(o, BlastOdds):
        return _blast_json(o, s)
    r = o.target_round
    n = o.numbers
    dists = _round_json(r) | {"attacker_crit": _dist_json(o.attacker_crit)}
    return {"numbers": {"dice": n.dice, "hit_tn": n.hit.text(), "hit": _tn_json(n.hit), "damage": n.damage,
                        "damage_breakdown": [m.as_list() for m in n.damage_parts], "save_tn": n.save.text(),
                        "save": _tn_json(n.save), "save_dice": n.save_dice,
                        "p_save_one_hit": _pq(p_saved(n.save.value, n.save_dice, s)),
                        "will_tn": n.will.text() if n.will else n.will_exempt_reason, "will": _tn_json(n.will)},
            "summary": {k: _pq(v) for k, v in o.summary().items()},
            "distributions": dists}


def _blast_json(o: BlastOdds, s: Settings) -> dict[str, Any]:
    t = o.target
    tn = o.odds.tn
    numbers = {"dice": 0 if tn is None else 1,
               "hit_tn": "no roll (ARMORY-5.1.FLAME)" if tn is None else tn.text(), "hit": _tn_json(tn),
               "template": o.attack.template.value if o.attack.template else None, "damage": o.damage,
               "save_tn": o.save.text() if o.save else None, "save": _tn_json(o.save),
               "save_soft_cover": _tn_json(o.save_soft), "save_dice": o.save_dice,
               "p_save_one_hit": _pq(p_saved(o.save.value, o.save_dice, s)) if o.save else None,
               "will_tn": o.will.text() if o.will else o.will_reason, "will": _tn_json(o.will),
               "will_soft_cover": _tn_json(o.will_soft)}
    others = {mid: {"p_touched": _pq(m.p_touched), "p_wound": _pq(m.p_wound), "p_ooa": _pq(m.p_ooa)}
              for mid, m in o.odds.models.items() if mid != "target"}
    return {"numbers": numbers, "summary": {k: _pq(v) for k, v in o.summary().items()},
            "effects": {k: _pq(v) for k, v in (t.effects.items() if t else ())},
            "cases": [_case_json(c, p, t.rounds[c]) for c, p in t.cases.items()] if t else [],
            "attacker_crit": _dist_json(o.odds.attacker_crit), "other_models": others}


def _case_json(c: Case, p: Prob, r: RoundOdds) -> dict[str, Any]:
    """One way the template can leave the target hit (odds.templates.Case) with its probability and round."""
    return {"effect": c.effect, "will_cover": c.will_cover, "leaders": list(c.leaders), "leader_sees": c.leader_sees,
            "p": _pq(p), "round": _round_json(r)}


def _attack_json(a: Attack) -> dict[str, Any]:
    lo, hi = a.band
    return {"kind": "template" if a.template else "ranged", "weapon": a.item_id,
            "profile": a.profile.name if a.profile else None,
            "template": a.template.value if a.template else None, "range": a.range, "range_band": [lo, hi],
            "ca": a.ca, "aim": a.aim, "unload": a.unload, "items": list(a.attacker_items),
            "skills": list(a.attacker_skills)}


_ORDER = {"none": 0, "no_roll": 0, "exempt": 1, "pass": 2, "fail": 3, "success": 4, "failure": 5, "mix": 6}
_NOTES = {
    "hits": "dice that hit",
    "template hits": "the template's automatic hit on a model it touches (GAP-70)",
    "smoke check": "none: no check (a Flash Bang); exempt: Will NA or a Gas Mask (GAP-72)",
    "saves rolled": "the Burn's saves, one after each failed one (ARMORY-5.1.BURN)",
    "deflections": "hits the armour saved",
    "wounds": "hits not saved, one Wound each (COMBAT-4.3.WOUND)",
    "pins gained": "change of the unit's Pinned counters: a failed Will check +1 (on a natural 10 +2), a natural "
                   "10 among the saves +1, a Med-Kit +2, at most 4 (COMBAT-4.4.PIN-CAP); a unit that goes Out of "
                   "Action drops its Pins (GAP-33)",
    "Will check": "none: no deflected hit or the target is down; exempt: never checks (COMBAT-4.3.DEFLECT-WILL)",
    "attacker crit": "success: a natural 1 (an extra action); failure: a natural 10 (a Pin); mix: both, "
                     "neither counts (INTRO-1.2.CRIT-*)",
    "save crit": "read on the kept dice (GAP-14); no_roll: no hit to save",
}
_SUMMARY = {"p_hit": "P(at least one hit)", "p_touched": "P(the template touches it)",
            "p_affected": "P(touched, not shielded)", "expected_wounds": "expected Wounds",
            "p_wound": "P(at least one Wound)", "p_ooa": "P(target Out of Action)",
            "p_pinned_by_will": "P(Pinned by the Will check)", "p_any_pin": "P(any Pin this round)"}


def _row(label: str, d: Dist) -> list[str]:
    def key(k: Any) -> tuple[int, str]:
        return (int(k), "") if isinstance(k, (int, bool)) else (_ORDER.get(str(k).split(">")[0], 9), str(k))

    items = sorted(d.fractions().items(), key=lambda kv: key(kv[0]))
    return [f"  {label:<14}" + "  ".join(f"{k}: {float(v):.6g}" for k, v in items), f"  {'':<14}({_NOTES[label]})"]


def _round_lines(r: RoundOdds, attacker_crit: Dist | None, *, kind: str = "ranged") -> list[str]:
    """The rows of one round; `kind` "template" (one automatic hit), "burn" (the saves of the Burn) or "no_damage"
    (a smoke or Flash Bang template: Pins and the smoke Will check only)."""
    first = {"burn": "saves rolled", "template": "template hits"}.get(kind, "hits")
    rows = [] if kind == "no_damage" else [(first, r.hits), ("deflections", r.deflections), ("wounds", r.wounds)]
    rows += [("pins gained", r.pins), ("smoke check" if kind == "no_damage" else "Will check", r.will)]
    rows += [("attacker crit", attacker_crit)] if attacker_crit is not None else []
    rows += [] if kind == "no_damage" else [("save crit", r.save_crit)]
    return [line for label, d in rows for line in _row(label, d)]


def _summary_lines(summary: dict[str, Prob], labels: dict[str, str]) -> list[str]:
    out = []
    for k, v in summary.items():
        exact = f"= {_pq(v)}" if isinstance(v, Fraction) else "(a float: deviation arcs from the geometry)"
        out.append(f"  {labels.get(k, _SUMMARY[k]):<32}{float(v):<12.10g}{exact}  [{k}]")
    return out


def _band(a: Attack) -> str:
    """The range band as the tables write it: "Melee-12" for guns usable in base contact (VITALS-2.2.RANGE)."""
    lo, hi = a.band
    return f"{'Melee' if a.profile is not None and a.profile.melee_capable else f'{lo:g}'}-{hi:g}"


def _distance(a: Attack) -> str:
    return f"{a.range:g}\"" + ("" if a.range_given else " (the default --range)")


def _mods(tn: TargetNumber) -> str:
    return ", ".join([f"{tn.base.label} {tn.base.value}"] + [f"{m.label} {m.value:+d} ({m.rule})" for m in tn.mods])


def _target_lines(a: Attack, save: TargetNumber | None, dice: int, will: TargetNumber | None, why: str,
                  s: Settings, *, check: str = "deflection Will check: once per round with a deflected hit while it "
                                              "stands; failed: 1 Pin (COMBAT-4.3.DEFLECT-WILL)") -> list[str]:
    if a.armour is None:
        kind = f"natural armour, Armor {a.armour_value} (ARMORY-5.3.NATURAL)"
    else:
        own = "the type's rating" if a.armour_value == a.armour.armor else f"given; the type's is {a.armour.armor}"
        kind = f"{a.armour.name}, Armor {a.armour_value} ({own})"
    taken = f", {a.wounds_taken} taken" if a.wounds_taken else ""
    lines = [f"Target: {kind}; {a.models} model(s) of {a.wounds} Wound(s){taken}"]
    if save is not None:
        how = "2 dice per hit, the better kept (ARMORY-5.3.TABLE, GAP-14)" if dice == 2 else f"{dice} die per hit"
        lines += [f"  save: {how}; a die <= the TN deflects the hit (COMBAT-4.1.SAVE)", f"    save {tn_text(save)}",
                  f"    one hit alone is saved with P {float(p_saved(save.value, dice, s)):.6g} = "
                  f"{_save_formula(save.value, dice)}"]
    if will is None:
        return lines + [f"  {check.split(':')[0]}: none: {why}"]
    return lines + [f"  {check}", f"    Will {tn_text(will)}"]


def odds_text(o: RangedOdds | BlastOdds, attack: Attack, *, settings: Settings | None = None) -> str:
    """The readable report: every number with where it comes from, then the distributions and the summary."""
    s = settings or Settings.defaults()
    if isinstance(o, BlastOdds):
        return _blast_text(o, s)
    n, a = o.numbers, attack
    assert a.weapon is not None and a.profile is not None
    fp = a.profile.fp
    prof = f" ({a.profile.name})" if len(a.weapon.profiles) > 1 else ""
    lines = [f"Attack: {a.weapon.name}{prof}, FP {fp}, range {_band(a)}\"; the target is {_distance(a)} "
             f"away edge to edge (GEO-4)",
             f"  {n.dice} dice (" + (f"FP {fp} + FP {fp} + 2: Unload, SKILL-6.1.UNLOAD" if a.unload else f"FP {fp}")
             + "); a die <= the TN hits, a natural 1 always, a natural 10 never (INTRO-1.2.CRIT-*)",
             f"    hit {tn_text(n.hit)}"]
    if a.elevated and a.obstructions:
        lines.append(f"    {a.obstructions} obstruction(s) ignored: the attacker is higher (GEO-14)")
    lines.append(f"  each hit: Damage {n.damage} = {_mods(TargetNumber(n.damage_parts[0], n.damage_parts[1:]))}")
    lines += _target_lines(a, n.save, n.save_dice, n.will, n.will_exempt_reason, s)
    lines += ["", "The round (exact distributions; decimals shown):"] + _round_lines(o.target_round, o.attacker_crit)
    return _wrapped(lines + ["", "Summary:"] + _summary_lines(dict(o.summary()), {}))


def _blast_text(o: BlastOdds, s: Settings) -> str:
    a, tn, t = o.attack, o.odds.tn, o.target
    kind = {Template.SBT: "SBT, 3\" across", Template.LBT: "LBT, 5\" across",
            Template.FLAME: "flame template, 8\" long and 3\" wide"}[a.template or Template.SBT]
    burn = bool(a.grenade and GrenadeEffect.BURN in a.grenade.effects) or bool(
        a.profile and Special.BURN in a.profile.specials)
    if tn is None:
        lines = [f"Attack: {a.name} ({kind}, GEO-15), its tip on the attacker's base, pointed at the target "
                 f"{_distance(a)} away edge to edge; no roll: every model under it is hit (ARMORY-5.1.FLAME, GAP-73)"]
        labels = {"p_hit": "P(placed: no roll)"}
    else:
        prof = f" ({a.profile.name})" if a.weapon is not None and a.profile and len(a.weapon.profiles) > 1 else ""
        lines = [f"Attack: {a.name}{prof} ({kind}), range {_band(a)}\", aimed at the centre of the target "
                 f"{_distance(a)} away edge to edge (GAP-70)",
                 f"  1 die: a roll <= the TN lands on the point, P {float(o.odds.p_hit):.6g} (INTRO-1.2.CRIT-*)",
                 f"    throw {tn_text(tn)}",
                 "  a miss deviates D10/2\" in a random direction (ARMORY-5.4.DEVIATION, GEO-18, GAP-71)"]
        labels = {"p_hit": "P(lands on the point)"}
    if t is not None:
        lines.append("  the target (1\" base) ends: " + ", ".join(f"{EFFECTS_TEXT[e]} {float(p):.6g}"
                                                                   for e, p in t.effects.items() if p))
    if o.damage is None:
        pin = bool(a.grenade and GrenadeEffect.AUTO_PIN in a.grenade.effects)
        lines.append("  each model touched: no damage; " + ("1 automatic Pin, no save (GAP-112)" if pin else
                                                            "a Will check at -2, failed: 1 Pin (GAP-72)"))
    else:
        rule = "GAP-73" if a.template is Template.FLAME else "ARMORY-5.1.SBT-LBT, GAP-70"
        lines.append(f"  each model touched: 1 automatic hit at Damage {o.damage} ({rule})" + (
            "; it Burns: saves again after each failed save until one passes or it is down (ARMORY-5.1.BURN, "
            "GAP-74)" if burn else ""))
    smoke = bool(a.grenade and GrenadeEffect.SMOKE in a.grenade.effects)
    check = ("smoke Will check: once for each model the cloud lands on; failed: 1 Pin (GAP-72)" if smoke else
             "deflection Will check: once with a deflected hit while it stands; failed: 1 Pin "
             "(COMBAT-4.3.DEFLECT-WILL, GAP-75)")
    lines += _target_lines(a, o.save, o.save_dice, o.will, o.will_reason, s, check=check)
    if o.save_soft is not None and t is not None and t.effects.get("soft_cover"):
        lines.append(f"    behind soft cover: save {tn_text(o.save_soft)}")
    if o.will_soft is not None and t is not None and any(c.will_cover for c in t.cases):
        lines.append(f"    touching the soft cover that gave it the save bonus: Will {tn_text(o.will_soft)} (GAP-75)")
    for c, p in (t.cases.items() if t is not None else ()):
        assert t is not None
        how = EFFECTS_TEXT[c.effect] + (", touching that soft cover (GAP-75)" if c.will_cover else "") + (
            ", its Leader's sight through the new smoke " + ("kept" if c.leader_sees else "lost")
            if c.leader_sees is not None and a.leader_bonus else "")
        lines += ["", f"If the target is {how} (P {float(p):.6g}; exact distributions, decimals shown):"]
        lines += _round_lines(t.rounds[c], None, kind="no_damage" if o.damage is None else "burn" if burn
                              else "template")
    lines += ["", "Summary, over where the template lands:"] + _summary_lines(o.summary(), labels)
    others = [f"  {mid}: touched {float(m.p_touched):.6g}" + ("" if mid == "attacker" else
                                                             f", P(at least one Wound) {float(m.p_wound):.6g}")
              for mid, m in o.odds.models.items() if mid != "target"]
    if others:
        lines += ["", "Other models it may touch (the attacker's own armour is not described here):"] + others
    if a.elevated and a.obstructions:
        lines.insert(1, f"  {a.obstructions} obstruction(s) ignored: the attacker is higher (GEO-14)")
    return _wrapped(lines)


def _wrapped(lines: list[str], width: int = 112) -> str:
    """Long lines folded at commas and spaces, the rest indented under their start."""
    out = []
    for line in lines:
        lead = len(line) - len(line.lstrip(" "))
        out.append(textwrap.fill(line, width, subsequent_indent=" " * (lead + 4), break_on_hyphens=False,
                                 break_long_words=False) if len(line) > width else line)
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    s = Settings.defaults()
    try:
        raw, where = spec_from(args)
        attack = check_spec(raw, where, settings=s)
        o = price(attack, s)
    except SpecError as exc:
        print(f"zona-alfa odds: {exc}", file=sys.stderr)
        return 2
    if args.as_json:
        out = odds_json(o, settings=s)
        out = {"attack": _attack_json(attack), "target": _target_json(attack)} | out
        print(json.dumps(out, indent=2))
    else:
        print(odds_text(o, attack, settings=s))
    return 0
