"""Checking an attack description against the catalog and the rules: every refusal names the argument and the rule."""
from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from typing import Any

from game.core.battlefield import Base, Cover
from game.core.catalog import Armour, Catalog, Grenade, Template, Weapon, WeaponProfile, load_catalog
from game.core.geometry.distance import weapon_range
from game.core.settings import Settings
from game.odds_cli.attack import FLAME_REACH, Attack
from game.odds_cli.spec import ALIASES, FIELDS, FLAGS, SpecError, flag_name

COVERS = ("none", "soft", "hard", "hardened")
OBSCURED = ("in_cover", "always", "none")


class _Reader:
    """Turns raw values (strings from flags, JSON values from a file) into checked ones, naming the source."""

    def __init__(self, raw: dict[str, Any], where: dict[str, str]) -> None:
        self.raw = raw
        self.where = where

    def label(self, name: str) -> str:
        return self.where.get(name, f"the default {flag_name(name)}")

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
    cap = s["skills.max"]  # null: no cap (GAP-40)
    if cap is not None and len(set(out)) > cap:
        raise r.fail(name, f"no character may have more than {cap} Skills (SKILL-6.1.LIMIT)")
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
    fact = weapon_range(Base("a", 0.0, 0.0, 0.0, 0.5, 1.25, "a"), Base("t", 1.0 + d, 0.0, 0.0, 0.5, 1.25, "b"), lo, hi,
                         settings=s)  # `range.min_rule` as the engine measures it (GEO-5, GAP-116)
    if not fact.in_range:
        side = "closer than its minimum" if fact.too_close else "beyond its maximum"
        rule = "GEO-5, GAP-70" if a.template is not None else "GEO-5, COMBAT-4.1.REQUIREMENTS"
        raise r.fail("range", f"{side} range: {what} reaches {lo:g}-{hi:g}\" ({rule})")
    return d
