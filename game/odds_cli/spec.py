"""Reading an attack description: its fields and flags, the JSON file, the flags over it, SpecError."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

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
MAX_SPEC_BYTES = 1 << 20


class SpecError(ValueError):
    """A refused attack description: one line naming the argument, what is wrong and the rule."""


def flag_name(name: str) -> str:
    """The flag of a field: `wounds_taken` is `--wounds-taken`."""
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
            _put(raw, where, name, value, flag_name(name), flags=True)
    return raw, where


def _put(raw: dict[str, Any], where: dict[str, str], name: str, value: Any, label: str, *,
         flags: bool = False) -> None:
    """Set one field; the same field given twice at one level (a name and its old alias) must agree."""
    if name in raw and where[name].startswith("--") == flags and raw[name] != value:
        raise SpecError(f"{where[name]} {raw[name]!r} and {label} {value!r} name the same field ({name}) with "
                        f"different values")
    raw[name] = value
    where[name] = label
