"""Crew checks: is a roster a legal starting crew (PART 7: CREW-7.1.*, FACTION-7.2.PERKS; SKILL-6.1, EQUIP-6.2,
ARMORY-5.1 limits). Pure: it judges a roster document (the plain dict a roster file parses to, docs/crews.md) or a
CrewSpec against the catalog and the settings and returns every Problem, each naming its field and the rule it
breaks. No file I/O; game.crews reads the files."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.core.catalog import Catalog, CatalogError, EquipmentTable, WeaponKind
from game.core.rules.factions import FACTIONS, starting_gear
from game.core.rules.setup import CrewSpec
from game.core.settings import Settings

LEVELS = ("leader", "veteran", "hardened", "rookie")  # recruit profiles (CREW-7.1.RECRUIT-PROFILES, CREW-7.1.LEADER)
STATUSES = ("active", "dead", "retired")  # ROSTER-12.MODEL status
RAISABLE = ("move", "ca", "will")  # CREW-7.1.LEFTOVER: unspent K raises Movement, CA or Will
ADVANCE_STATS = ("move", "ca", "armor", "will")  # POST-8.5.SPEND stat purchases
_NATURAL = (WeaponKind.NATURAL, WeaponKind.UNARMED)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a crew: the field (a path into the roster, e.g. `models[2].weapons`), what is wrong,
    what is allowed, and the rule it breaks."""

    field: str
    what: str
    allowed: str
    rule: str

    def text(self) -> str:
        return f"{self.field}: {self.what}; allowed: {self.allowed} [{self.rule}]"


def active_models(doc: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    """The models that take the field (status "active"), with their index in the roster (ROSTER-12.MODEL)."""
    return [(i, m) for i, m in enumerate(doc.get("models", [])) if m.get("status", "active") == "active"]


def khrabrost(doc: Mapping[str, Any], catalog: Catalog) -> int:
    """CREW-7.1.KHRABROST / CREW-7.1.K-COSTS: the K of the active models (Veteran 3, Hardened 2, Rookie 1; the
    Leader is a Veteran). Unknown levels count nothing (they are reported on their own)."""
    total = 0
    for _, m in active_models(doc):
        rec = catalog.recruits.get(str(m.get("level")))
        if rec is not None:
            total += rec.k_cost
    return total


def doc_from_spec(spec: CrewSpec, catalog: Catalog) -> dict[str, Any]:
    """A roster document for a crew built in code: stats from its recruit profiles, items split into slot contents
    and Special items (EQUIP-6.2.SPECIAL-NOSLOT), no spare equipment beyond the faction's starting gear."""
    models = []
    for ms in spec.models:
        rec = catalog.recruits.get(ms.level)
        slot_items = [i for i in ms.items if i not in catalog.equipment_items or catalog.equipment(i).uses_slot]
        special = [i for i in ms.items if i in catalog.equipment_items and not catalog.equipment(i).uses_slot]
        models.append({
            "id": ms.id, "name": ms.name, "level": ms.level, "status": "active",
            "experience": rec.experience if rec else ms.level,
            "move": rec.move if rec else 0.0, "ca": rec.ca if rec else 0, "will": rec.will if rec else 0,
            "armour": ms.armour, "wounds": rec.wounds if rec else 1, "wounds_current": rec.wounds if rec else 1,
            "slots": catalog.levels[rec.experience].slots if rec and rec.experience in catalog.levels else 0,
            "skills": list(ms.skills), "weapons": list(ms.weapons), "equipment": slot_items, "special": special,
            "grenades": {g: n for g, n in ms.grenades}, "ammo": dict(ms.ammo), "advanced": {},
            "leftover": dict(ms.raises),
            "missions": 0, "scars": []})
    faction = spec.faction
    gear = list(starting_gear(faction)) if faction in FACTIONS else []
    return {"format": "zona-alfa-roster", "version": 1,
            "crew": {"id": spec.side, "name": spec.name, "faction": faction, "advances": 0, "zone_script": 0,
                     "retirement_fund": 0, "salvage": 0, "spare_equipment": gear, "artifacts": [], "notes": ""},
            "models": models}


def check_crew(spec_or_doc: CrewSpec | Mapping[str, Any], catalog: Catalog, settings: Settings, *,
               k_limit: int | None) -> list[Problem]:
    """Every way the crew breaks the starting-crew rules of PART 7, in roster order (empty: legal).

    The document must have the shape game.crews validates (types already checked); a CrewSpec is judged through
    `doc_from_spec`. `k_limit` None skips the K limit (CREW-7.1.K-LIMITS: "crews may be built under the limit")."""
    doc = doc_from_spec(spec_or_doc, catalog) if isinstance(spec_or_doc, CrewSpec) else spec_or_doc
    out: list[Problem] = []
    crew = doc.get("crew", {})
    faction = crew.get("faction")
    if faction is not None and faction not in FACTIONS:
        out.append(Problem("crew.faction", f"unknown faction {faction!r}", "none, or " + ", ".join(FACTIONS),
                           "FACTION-7.2.LIST"))
    out += _check_k(doc, catalog, settings, k_limit)
    out += _check_leader(doc)
    seen_leader_skill = 0
    for i, m in active_models(doc):
        out += _check_model(f"models[{i}]", m, catalog, settings)
        seen_leader_skill += "leader" in m.get("skills", [])
    if seen_leader_skill > 1:
        out.append(Problem("models", f"{seen_leader_skill} models have the Leader skill", "one per crew",
                           "SKILL-6.1.LEADER"))
    if faction in FACTIONS:
        out += _check_spare(crew.get("spare_equipment", []), faction, catalog)
    return out


def _check_k(doc: Mapping[str, Any], catalog: Catalog, settings: Settings, k_limit: int | None) -> list[Problem]:
    """CREW-7.1.K-COSTS / K-LIMITS (TV-05, TV-07) and the leftover-K raises (CREW-7.1.LEFTOVER, GAP-41)."""
    out: list[Problem] = []
    k = khrabrost(doc, catalog)
    if k_limit is not None and k > k_limit:
        costs = Counter(str(m.get("level")) for _, m in active_models(doc))
        parts = ", ".join(f"{n} {lvl} at {catalog.recruits[lvl].k_cost}K" for lvl, n in sorted(costs.items())
                          if lvl in catalog.recruits)
        out.append(Problem("models", f"the crew is {k}K ({parts}), over the {k_limit}K limit",
                           f"at most {k_limit}K (Veteran and Leader 3K, Hardened 2K, Rookie 1K)",
                           "CREW-7.1.K-LIMITS"))
    rate, per_stat = settings["k.leftover_rate"], settings["k.leftover_max_per_stat"]
    spent = 0
    for i, m in active_models(doc):
        for stat, n in sorted(m.get("leftover", {}).items()):
            if stat not in RAISABLE:
                out.append(Problem(f"models[{i}].leftover.{stat}", f"{stat!r} cannot be raised with leftover K",
                                   ", ".join(RAISABLE), "CREW-7.1.LEFTOVER"))
            elif n > per_stat:
                out.append(Problem(f"models[{i}].leftover.{stat}", f"+{n}", f"at most +{per_stat} per stat of a "
                                   "model (k.leftover_max_per_stat)", "GAP-41"))
            spent += n
    if spent:
        room = (k_limit - k) * rate if k_limit is not None else 0
        if spent > room:
            out.append(Problem("models[].leftover", f"{spent} stat point(s) bought with leftover K, "
                               f"{max(0, room)} available", f"{rate} point(s) per unspent K under the limit "
                               "(k.leftover_rate)", "GAP-41"))
    return out


def _check_leader(doc: Mapping[str, Any]) -> list[Problem]:
    """CREW-7.1.LEADER: exactly one Leader (a Veteran with the Leader profile) among the active models."""
    leaders = [i for i, m in active_models(doc) if m.get("level") == "leader"]
    if len(leaders) == 1:
        return []
    what = "no Leader" if not leaders else f"{len(leaders)} Leaders (models {', '.join(map(str, leaders))})"
    return [Problem("models", what, "exactly one model with level \"leader\"", "CREW-7.1.LEADER")]


def _check_model(where: str, m: Mapping[str, Any], catalog: Catalog, settings: Settings) -> list[Problem]:
    level = str(m.get("level"))
    rec = catalog.recruits.get(level)
    if rec is None:
        return [Problem(f"{where}.level", f"unknown level {level!r}", ", ".join(LEVELS),
                        "CREW-7.1.RECRUIT-PROFILES")]
    rule = "CREW-7.1.LEADER" if level == "leader" else "CREW-7.1.RECRUIT-PROFILES"
    out = _check_stats(where, m, rec, catalog, rule)
    out += _check_weapons(where, m, rec, catalog, "CREW-7.1.LEADER-KIT" if level == "leader" else rule)
    out += _check_skills(where, m, rec, catalog, settings, level)
    out += _check_items(where, m, rec, catalog, level)
    out += _check_grenades(where, m, rec, catalog, level)
    return out


def _check_stats(where: str, m: Mapping[str, Any], rec: Any, catalog: Catalog, rule: str) -> list[Problem]:
    """The stat line as bought is the level's profile (CREW-7.1.LEADER, CREW-7.1.RECRUIT-PROFILES)."""
    out: list[Problem] = []
    want = {"experience": rec.experience, "move": rec.move, "ca": rec.ca, "will": rec.will, "armour": rec.armour,
            "wounds": rec.wounds}
    for key, value in want.items():
        got = m.get(key)
        if got != value:
            out.append(Problem(f"{where}.{key}", f"{got!r} for a {m.get('level')}", f"{value!r} (the profile of "
                               f"{rec.name})", rule))
    cur = m.get("wounds_current", rec.wounds)
    if not 0 <= cur <= rec.wounds:
        out.append(Problem(f"{where}.wounds_current", f"{cur}", f"0 to {rec.wounds}", "ROSTER-12.MODEL"))
    slots = catalog.levels[rec.experience].slots if rec.experience in catalog.levels else 0
    if m.get("slots", slots) != slots:
        out.append(Problem(f"{where}.slots", f"{m.get('slots')} Equipment Slots for a {rec.experience}",
                           f"{slots} at creation", "EQUIP-6.2.SLOTS"))
    for stat, n in sorted(m.get("advanced", {}).items()):
        if stat not in ADVANCE_STATS:
            out.append(Problem(f"{where}.advanced.{stat}", f"{stat!r} is not a stat advances raise",
                               ", ".join(ADVANCE_STATS), "POST-8.5.SPEND"))
        elif n:
            out.append(Problem(f"{where}.advanced.{stat}", f"+{n} from advances on a starting crew",
                               "none: advances are earned after missions", "POST-8.5.CREW-CREDIT"))
    return out


def _check_weapons(where: str, m: Mapping[str, Any], rec: Any, catalog: Catalog, rule: str) -> list[Problem]:
    """GAP-42 / CREW-7.1.WEAPON-CHOICE: one ranged and one melee weapon, each a starting weapon."""
    out: list[Problem] = []
    ranged = melee = 0
    for j, wid in enumerate(m.get("weapons", [])):
        f = f"{where}.weapons[{j}]"
        w = catalog.weapons.get(wid)
        if w is None:
            out.append(Problem(f, f"unknown weapon {wid!r}", ", ".join(catalog.starting_weapons()),
                               "ARMORY-5.1.CATEGORIES"))
            continue
        if w.kind in _NATURAL:
            out.append(Problem(f, f"{w.name} is not a weapon a crew member carries",
                               ", ".join(catalog.starting_weapons()), "GAP-42"))
            continue
        if not w.starting:
            out.append(Problem(f, f"{w.name} is not a starting weapon (only by scenario or purchase)",
                               ", ".join(catalog.starting_weapons()) + " (crew.start_weapons)",
                               "CREW-7.1.WEAPON-CHOICE"))
        if w.melee_only:
            melee += 1
        else:
            ranged += 1
    for wid, n in sorted(m.get("ammo", {}).items()):
        w = catalog.weapons.get(wid)
        f = f"{where}.ammo.{wid}"
        if w is None or wid not in m.get("weapons", []) or w.ammo is None:
            out.append(Problem(f, f"{wid!r} is not a Limited-Ammo weapon the model carries",
                               "the model's Limited-Ammo weapons (flame thrower, 40mm GL, RPG, mortar)",
                               "ARMORY-5.1.SR-LIMITED"))
        elif not 0 <= n <= w.ammo:
            out.append(Problem(f, f"{n} rounds", f"0 to {w.ammo} (a load-out, GAP-67)", "ARMORY-5.1.SR-LIMITED"))
    if ranged != rec.ranged or melee != rec.melee:
        out.append(Problem(f"{where}.weapons", f"{ranged} ranged and {melee} melee weapon(s)",
                           f"{rec.ranged} ranged and {rec.melee} melee (a pistol is ranged)", "GAP-42"))
    return out


def _check_skills(where: str, m: Mapping[str, Any], rec: Any, catalog: Catalog, settings: Settings,
                  level: str) -> list[Problem]:
    """SKILL-6.1.GENERAL (Rookie 0, Hardened 1, Veteran 2; Leader: Leader + one other), SKILL-6.1.LIMIT / GAP-40
    (`skills.max`), SKILL-6.1.LEADER (only the Leader)."""
    out: list[Problem] = []
    skills = list(m.get("skills", []))
    for j, sid in enumerate(skills):
        try:
            catalog.skill(sid)
        except KeyError:
            out.append(Problem(f"{where}.skills[{j}]", f"unknown skill {sid!r}", ", ".join(sorted(catalog.skills)),
                               "SKILL-6.1.GENERAL"))
    dup = sorted(s for s, n in Counter(skills).items() if n > 1)
    if dup:
        out.append(Problem(f"{where}.skills", f"{', '.join(dup)} given twice", "each skill once",
                           "SKILL-6.1.GENERAL"))
    cap = settings["skills.max"]
    if cap is not None and len(skills) > cap:
        out.append(Problem(f"{where}.skills", f"{len(skills)} skills", f"at most {cap} (skills.max)", "GAP-40"))
    if len(skills) > rec.skills:
        out.append(Problem(f"{where}.skills", f"{len(skills)} skill(s) for a new {level}",
                           f"at most {rec.skills}", "SKILL-6.1.GENERAL"))
    for req in rec.required_skills:
        if req not in skills:
            out.append(Problem(f"{where}.skills", f"the {level} lacks {req!r}", f"{req} + one other",
                               "CREW-7.1.LEADER-KIT"))
    if level != "leader" and "leader" in skills:
        out.append(Problem(f"{where}.skills", "only the crew Leader has the Leader skill", "any other skill",
                           "SKILL-6.1.LEADER"))
    return out


def _check_items(where: str, m: Mapping[str, Any], rec: Any, catalog: Catalog, level: str) -> list[Problem]:
    """EQUIP-6.2.CATEGORIES (new members pick Basic items), CREW-7.1.RECRUIT-PROFILES / GAP-34 (items = slots),
    EQUIP-6.2.SLOTS (one item per slot), EQUIP-6.2.RED-DOT / SCOPE (a weapon that takes the sight)."""
    out: list[Problem] = []
    items = list(m.get("equipment", []))
    basic = ", ".join(e.id for e in catalog.equipment_items.values() if e.table is EquipmentTable.BASIC)
    for j, iid in enumerate(items):
        f = f"{where}.equipment[{j}]"
        e = catalog.equipment_items.get(iid)
        if e is None:
            out.append(Problem(f, f"unknown item {iid!r}", basic, "EQUIP-6.2.CATEGORIES"))
            continue
        if e.table is not EquipmentTable.BASIC:
            out.append(Problem(f, f"{e.name} is {e.table.value} equipment, bought or found, not chosen at creation",
                               basic + " (faction gear starts in spare_equipment, GAP-47)", "EQUIP-6.2.CATEGORIES"))
        for need, fits in (("red_dot", "red_dot"), ("scope", "scope")):
            if iid == need and not any(fits in catalog.weapons[w].accepts for w in m.get("weapons", [])
                                       if w in catalog.weapons):
                out.append(Problem(f, f"{e.name} fits none of the model's weapons",
                                   "a weapon that takes it (Red Dot: pistol, SMG, shotgun, assault rifle; Scope: "
                                   "assault, battle or sniper rifle)", f"EQUIP-6.2.{need.upper().replace('_', '-')}"))
    for j, iid in enumerate(m.get("special", [])):
        f = f"{where}.special[{j}]"
        e = catalog.equipment_items.get(iid)
        allowed = "none at creation (Special items are bought or found; faction gear starts in spare_equipment)"
        if e is None:
            out.append(Problem(f, f"unknown item {iid!r}", allowed, "EQUIP-6.2.CATEGORIES"))
        elif e.uses_slot:
            out.append(Problem(f, f"{e.name} takes an Equipment Slot", "list it under equipment",
                               "EQUIP-6.2.SPECIAL-NOSLOT"))
        else:
            out.append(Problem(f, f"{e.name} on a new {level}", allowed, "EQUIP-6.2.CATEGORIES"))
    slots = catalog.levels[rec.experience].slots if rec.experience in catalog.levels else 0
    if len(items) > min(slots, rec.basic_items):
        out.append(Problem(f"{where}.equipment", f"{len(items)} items", f"at most {min(slots, rec.basic_items)} "
                           f"Basic item(s) for a new {level}, one per Equipment Slot (crew.start_items)",
                           "EQUIP-6.2.SLOTS"))
    return out


def _check_grenades(where: str, m: Mapping[str, Any], rec: Any, catalog: Catalog, level: str) -> list[Problem]:
    """CREW-7.1.RECRUIT-PROFILES / LEADER-KIT: two grenades of any types; ARMORY-5.1.GRENADE-TABLE ids."""
    out: list[Problem] = []
    grenades: Mapping[str, int] = m.get("grenades", {})
    for gid, n in sorted(grenades.items()):
        if gid not in catalog.grenades:
            out.append(Problem(f"{where}.grenades.{gid}", f"unknown grenade {gid!r}", ", ".join(catalog.grenades),
                               "ARMORY-5.1.GRENADE-TABLE"))
        elif n < 1:
            out.append(Problem(f"{where}.grenades.{gid}", f"{n}", "a count of 1 or more (leave it out for none)",
                               "ARMORY-5.1.GRENADE-CARRY"))
    total = sum(grenades.values())
    if total > rec.grenades:
        out.append(Problem(f"{where}.grenades", f"{total} grenades for a new {level}",
                           f"at most {rec.grenades}, any types", "CREW-7.1.RECRUIT-PROFILES"))
    return out


def _check_spare(spare: Sequence[str], faction: str, catalog: Catalog) -> list[Problem]:
    """FACTION-7.2.PERKS / GAP-47: the faction's free starting gear is in Spare Equipment, nothing else."""
    out: list[Problem] = []
    for j, iid in enumerate(spare):
        if iid not in catalog.equipment_items:
            out.append(Problem(f"crew.spare_equipment[{j}]", f"unknown item {iid!r}",
                               ", ".join(sorted(catalog.equipment_items)), "EQUIP-6.2.CATEGORIES"))
    want, got = Counter(starting_gear(faction)), Counter(spare)
    if want != got:
        shown = ", ".join(starting_gear(faction)) or "nothing (Traders get no gear)"
        out.append(Problem("crew.spare_equipment", f"{', '.join(spare) or 'nothing'}",
                           f"the {faction} starting gear: {shown}", "GAP-47"))
    return out


def require_catalog_ids(catalog: Catalog) -> None:
    """The faction gear names catalog items (a data-file edit that drops one is caught at load)."""
    for faction in FACTIONS:
        for iid in starting_gear(faction):
            if iid not in catalog.equipment_items:
                raise CatalogError(f"FACTION-7.2.PERKS: {faction} starting gear {iid!r} is not in equipment.toml")
