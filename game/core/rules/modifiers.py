"""Every combat modifier in one place: geometric facts + profiles -> attack, save and Will target numbers
(COMBAT-4.1.MODIFIERS). The client preview, the exact odds and the resolution all call `attack_numbers`."""
from __future__ import annotations

from dataclasses import dataclass

from game.core.battlefield import Cover
from game.core.catalog import Catalog
from game.core.catalog.profiles import Obscured, Weapon, WeaponProfile
from game.core.dice import Modifier, TargetNumber
from game.core.rules.stats import effective_ca, is_wounded_multiwound
from game.core.rules.stats import will_tn as plain_will_tn
from game.core.settings import Settings
from game.core.state import ModelState

_COVER_ID = {Cover.OBSTRUCTION: "obstruction", Cover.SOFT: "soft", Cover.HARD: "hard", Cover.HARDENED: "hardened"}


@dataclass(frozen=True, slots=True)
class AttackSituation:
    """What the rules need to know about one attack, taken from the battlefield facts and the state.

    `cover` is the defender's cover class after elevation (GEO-12/GEO-14), `obstructions` the GEO-13 count
    (0 when elevation cancels them), `distance` the edge-to-edge distance (GEO-4)."""

    melee: bool = False
    distance: float = 0.0
    cover: Cover = Cover.NONE
    cover_before_elevation: Cover = Cover.NONE
    elevated: bool = False
    obstructions: int = 0
    aim: bool = False
    into_melee: bool = False
    indirect: str | None = None  # None (direct), "in_los" (-1) or "no_los" (-3), ARMORY-5.4.PENALTY
    template: bool = False  # a template hit: no CA roll for the target, soft cover +2 to saves
    template_soft_cover: bool = False
    template_will_cover: bool = False  # GAP-75: a soft piece gave the save bonus and the base touches it
    kick_first_round: bool = False  # melee vs a Pinned defender, first round (COMBAT-4.3.KICK-MELEE)
    leader_bonus: bool = False  # defender's Leader in LOS (SKILL-6.1.LEADER)
    casualties: int = 0  # models the defending unit has lost so far (COMBAT-4.3.WILL-CASUALTY-MOD)
    extra_dice: int = 0  # Unload: FP + FP + 2 (SKILL-6.1.UNLOAD)


@dataclass(frozen=True, slots=True)
class AttackNumbers:
    """The numbers of one attack and why: dice, hit TN, Damage, save TN and dice, Will TN (or exempt)."""

    dice: int
    hit: TargetNumber
    damage: int
    damage_parts: tuple[Modifier, ...]
    save: TargetNumber
    save_dice: int
    will: TargetNumber | None  # None: never takes the deflection Will check
    will_exempt_reason: str = ""


def obscured(target: ModelState, situation: AttackSituation, *, settings: Settings) -> bool:
    """ARMORY-5.3.OBSCURED: Mimetic always; other armour only in soft-or-better cover after elevation
    (`obscured.requires`), ranged only (GAP-79); creatures never (`obscured.creatures`)."""
    p = target.profile
    if p.obscured is None:
        return False
    if p.creature and not settings["obscured.creatures"]:
        return False
    if p.obscured == Obscured.ALWAYS.value:
        return True
    if situation.melee:
        return False
    if settings["obscured.requires"] == "soft_or_better_after_elevation":
        return situation.cover.rank >= Cover.SOFT.rank
    return situation.cover_before_elevation.rank >= Cover.SOFT.rank


def cover_modifiers(target: ModelState, s: AttackSituation, *, catalog: Catalog, settings: Settings) -> list[Modifier]:
    """Obstructions (CORE-3.6.OBSTRUCTION), the cover class after elevation (CORE-3.6.TABLE, GEO-14) and
    Obscured (ARMORY-5.3.OBSCURED) as CA modifiers of a direct attack."""
    mods: list[Modifier] = []
    if s.obstructions:
        mods.append(Modifier(f"{s.obstructions} obstruction(s)", -s.obstructions, "CORE-3.6.OBSTRUCTION"))
    if s.cover is not Cover.NONE:
        cc = catalog.cover(_COVER_ID[s.cover])
        degraded = s.elevated and s.cover != s.cover_before_elevation
        label = f"{cc.name}" + (" (degraded by elevation)" if degraded else "")
        mods.append(Modifier(label, cc.ca_mod, "GEO-14" if s.elevated else "CORE-3.6.TABLE"))
    if not s.template and obscured(target, s, settings=settings):
        mods.append(Modifier("Obscured", -1, "ARMORY-5.3.OBSCURED"))
    return mods


def pinned_target(target: ModelState, s: AttackSituation, *, settings: Settings,
                  target_pinned: bool) -> Modifier | None:
    """COMBAT-4.3.KICK-RANGED: -2 to shoot a Pinned target (a prone one counts as Pinned, `prone.counts_as_pinned`,
    GAP-89); None in melee or when the target is not Pinned."""
    if not s.melee and (target_pinned or (target.prone and settings["prone.counts_as_pinned"])):
        return Modifier("Pinned target", -2, "COMBAT-4.3.KICK-RANGED")
    return None


def hit_tn(attacker: ModelState, target: ModelState, weapon: Weapon, profile: WeaponProfile, s: AttackSituation,
           *, catalog: Catalog, settings: Settings, target_pinned: bool) -> TargetNumber:
    """The attacker's TN per die (COMBAT-4.1.MODIFIERS): CA (halved if wounded) plus every modifier; a prone
    model fights in melee at `prone.melee_ca` and counts as Pinned when shot (`prone.counts_as_pinned`, GAP-89)."""
    mods: list[Modifier] = []
    if s.aim and not s.into_melee:
        mods.append(Modifier("Aim", 1, "CORE-3.3.AIM"))
    if s.melee:
        if s.kick_first_round:
            mods.append(Modifier("Pinned defender, first round", 2, "COMBAT-4.3.KICK-MELEE"))
        if weapon.melee_penalty:
            mods.append(Modifier("non-melee weapon", weapon.melee_penalty, "ARMORY-5.1.NONMELEE-PENALTY"))
        if attacker.profile.has("knife_man"):
            mods.append(Modifier("Knife Man", 1, "SKILL-6.1.KNIFE-MAN"))
        if "squeamish" in attacker.scars:
            mods.append(Modifier("Squeamish", -1, "POST-8.5.SCARS-TABLE"))
        if attacker.prone and settings["prone.melee_ca"]:
            mods.append(Modifier("prone", int(settings["prone.melee_ca"]), "GAP-89"))
    if profile.ca_mod:
        mods.append(Modifier(f"{profile.name} profile", profile.ca_mod, weapon.rule))
    if s.indirect is not None:
        if s.indirect == "in_los":
            mods.append(Modifier("indirect, target in LOS", -1, "ARMORY-5.4.PENALTY"))
        else:
            mods.append(Modifier("indirect, target not in LOS", -3, "ARMORY-5.4.PENALTY"))
    else:
        mods.extend(cover_modifiers(target, s, catalog=catalog, settings=settings))
    pinned = pinned_target(target, s, settings=settings, target_pinned=target_pinned)
    if pinned is not None:
        mods.append(pinned)
    if not s.melee and profile.range_max:
        half = profile.range_max / 2.0
        boundary_in = s.distance <= half + 1e-6 if settings["sights.boundary"] == "red_dot_inclusive" \
            else s.distance < half - 1e-6
        if boundary_in and "red_dot" in attacker.items and weapon.red_dot_eligible:
            mods.append(Modifier("Red Dot Sight", 1, "EQUIP-6.2.RED-DOT"))
        if not boundary_in and "scope" in attacker.items and weapon.scope_eligible:
            mods.append(Modifier("Scope", 1, "EQUIP-6.2.SCOPE"))
    return TargetNumber(effective_ca(attacker), tuple(mods))


def damage(attacker: ModelState, weapon: Weapon, profile: WeaponProfile,
           s: AttackSituation) -> tuple[int, tuple[Modifier, ...]]:
    """Damage per hit: the profile (shotgun by range, GAP-07) + Aim +1 (not into melee) + Hot Load +1
    (ranged, non-template, GAP-68)."""
    base = profile.damage_at(0.0 if s.melee else s.distance)
    parts = [Modifier(f"{weapon.name} Damage", base, weapon.rule)]
    if s.aim and not s.into_melee and not s.template:
        parts.append(Modifier("Aim", 1, "CORE-3.3.AIM"))
    if not s.melee and not s.template and profile.template is None and "hot_load" in attacker.items:
        parts.append(Modifier("Hot Load Ammo", 1, "EQUIP-6.2.HOT-LOAD"))
    return sum(p.value for p in parts), tuple(parts)


def save_tn(target: ModelState, dmg: int, s: AttackSituation, *, catalog: Catalog, settings: Settings,
            target_pinned: bool) -> TargetNumber:
    """COMBAT-4.1.SAVE: Armor - Damage + cover Armor + Pinned-in-cover (direct fire only) + soft cover vs
    templates +2 + Kevlar Plates (Armor capped at `advances.caps.armor`, GAP-62) + Knife Man
    (`knife_man.bonus_scope`=all)."""
    mods = [Modifier("Damage", -dmg, "VITALS-2.2.DAMAGE")]
    # GAP-62 / GAP-111: Armor (Kevlar and artifacts included) never exceeds `advances.caps.armor`.
    room = max(0, int(settings["advances.caps.armor"]) - target.profile.armor)
    kevlar = min(2, target.items.count("kevlar_plates"), room)
    if kevlar:
        mods.append(Modifier("Kevlar Plates", kevlar, "EQUIP-6.2.KEVLAR"))
    if s.template:
        if s.template_soft_cover:
            mods.append(Modifier("soft cover vs template", catalog.cover("soft").template_save_bonus,
                                 "ARMORY-5.2.TEMPLATE-COVER"))
    elif s.cover is not Cover.NONE and s.indirect is None:
        cc = catalog.cover(_COVER_ID[s.cover])
        if cc.armor_mod:
            mods.append(Modifier(cc.name, cc.armor_mod, "CORE-3.6.TABLE"))
        if target_pinned and not s.melee and cc.pinned_armor:
            bonus = settings["pin.cover_bonus_hardened"] if s.cover is Cover.HARDENED else cc.pinned_armor
            mods.append(Modifier(f"Pinned in {cc.name.lower()}", bonus, "COMBAT-4.4.PIN-COVER"))
    if s.melee and target.profile.has("knife_man") and settings["knife_man.bonus_scope"] == "all":
        mods.append(Modifier("Knife Man", 1, "SKILL-6.1.KNIFE-MAN"))
    return TargetNumber(Modifier(f"Armor ({target.profile.armour})", target.profile.armor, "VITALS-2.1.ARMOR"),
                        tuple(mods))


def will_tn(target: ModelState, s: AttackSituation, *, catalog: Catalog,
            settings: Settings) -> tuple[TargetNumber | None, str]:
    """COMBAT-4.3.DEFLECT-WILL: Will + cover Will + Hard + Leader - Wounds sustained (GAP-91) - casualties;
    exempt: Will NA (GAP-22) and Exo/enclosed (ARMORY-5.3.NERVES)."""
    p = target.profile
    if p.will is None:
        return None, "Will NA (GAP-22)"
    if p.will_exempt:
        return None, "never takes the deflection check (ARMORY-5.3.NERVES)"
    mods: list[Modifier] = []  # after the Two-Wound Rule's -1, which stats.will_tn adds
    if is_wounded_multiwound(target) and settings["wounded.will_stack"]:
        mods.append(Modifier("Wounds sustained", -target.wounds_taken, "COMBAT-4.3.WILL-CASUALTY-MOD"))
    if s.casualties:
        mods.append(Modifier("models lost", -s.casualties, "COMBAT-4.3.WILL-CASUALTY-MOD"))
    if s.cover is not Cover.NONE and not s.template and s.indirect is None:
        cc = catalog.cover(_COVER_ID[s.cover])
        if cc.will_mod:
            mods.append(Modifier(cc.name, cc.will_mod, "CORE-3.6.TABLE"))
    elif s.template and s.template_will_cover:
        cc = catalog.cover("soft")
        if cc.will_mod:
            mods.append(Modifier(cc.name, cc.will_mod, "GAP-75"))
    if p.has("hard"):
        mods.append(Modifier("Hard", 1, "SKILL-6.1.HARD"))
    if s.leader_bonus:
        mods.append(Modifier("Leader in LOS", 1, "SKILL-6.1.LEADER"))
    return plain_will_tn(target, tuple(mods)), ""


def attack_numbers(attacker: ModelState, target: ModelState, weapon: Weapon, profile: WeaponProfile,
                   s: AttackSituation, *, catalog: Catalog, settings: Settings, target_pinned: bool,
                   fp: int | None = None) -> AttackNumbers:
    """All numbers of one attack (COMBAT-4.1.MODIFIERS): the one function preview, odds and `apply` share."""
    dice = (fp if fp is not None else (profile.fp or 0)) + s.extra_dice
    hit = hit_tn(attacker, target, weapon, profile, s, catalog=catalog, settings=settings, target_pinned=target_pinned)
    dmg, parts = damage(attacker, weapon, profile, s)
    sv = save_tn(target, dmg, s, catalog=catalog, settings=settings, target_pinned=target_pinned)
    wl, why = will_tn(target, s, catalog=catalog, settings=settings)
    return AttackNumbers(dice, hit, dmg, parts, sv, max(1, target.profile.save_dice), wl, why)
