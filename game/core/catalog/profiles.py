"""Rules-content value types: weapons, armour, cover, experience, skills, equipment, recruits, hostiles (frozen)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TypeVar

from game.core.tolerance import EPS

T = TypeVar("T")


class CatalogError(ValueError):
    """A malformed data file: names the file, the key path and what is wrong."""


# --- closed sets ----------------------------------------------------------------------------------

class WeaponKind(Enum):
    """Weapon categories the rules and equipment refer to (ARMORY-5.1.CATEGORIES)."""

    NATURAL = "natural"
    UNARMED = "unarmed"
    MELEE = "melee"
    PISTOL = "pistol"
    SHOTGUN = "shotgun"
    SMG = "smg"
    ASSAULT_RIFLE = "assault_rifle"
    BATTLE_RIFLE = "battle_rifle"
    SNIPER_RIFLE = "sniper_rifle"
    FLAME_THROWER = "flame_thrower"
    GRENADE_LAUNCHER = "grenade_launcher"
    LMG = "lmg"
    ROCKET_LAUNCHER = "rocket_launcher"
    HMG = "hmg"
    MORTAR = "mortar"


class Special(Enum):
    """Weapon special rules (ARMORY-5.1.SR-*, ARMORY-5.1.BURN, ARMORY-5.1.SUPPORT-TABLE)."""

    INDIRECT = "indirect"
    RELOAD = "reload"
    LIMITED_AMMO = "limited_ammo"
    SUPPORT = "support"
    CREW_SERVED = "crew_served"
    BURN = "burn"
    ANTI_ARMOUR = "anti_armour"


class Template(Enum):
    """Area templates (INTRO-1.3.TEMPLATES, GEO-15)."""

    SBT = "sbt"
    LBT = "lbt"
    FLAME = "flame"


class GrenadeEffect(Enum):
    """Grenade effects beyond damage (ARMORY-5.1.GRENADE-TABLE)."""

    BURN = "burn"
    AUTO_PIN = "auto_pin"
    SMOKE = "smoke"


class Obscured(Enum):
    """When armour makes its wearer Obscured (ARMORY-5.3.OBSCURED)."""

    IN_COVER = "in_cover"
    ALWAYS = "always"


class TemplateCover(Enum):
    """What a cover class does against templates (ARMORY-5.2.TEMPLATE-COVER)."""

    NONE = "none"
    SAVE_BONUS = "save_bonus"
    BLOCKS = "blocks"


class EquipmentTable(Enum):
    """The three equipment lists (EQUIP-6.2.CATEGORIES)."""

    BASIC = "basic"
    ADVANCED = "advanced"
    SPECIAL = "special"


class UnitForm(Enum):
    """How the figures of one hostile result form units (GAP-20)."""

    GROUP = "group"
    INDIVIDUAL = "individual"
    SINGLE = "single"


# --- profiles -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class WeaponProfile:
    """One firing profile (VITALS-2.2): range band, FP (None = NA, flame), Damage and special rules."""

    name: str
    range_min: float
    range_max: float | None  # None: no range (flame template)
    melee_capable: bool  # the range lists "Melee" (ARMORY-5.1.MELEE-USE)
    fp: int | None
    damage: int
    far_damage: int | None = None  # shotgun beyond near_max (GAP-07)
    near_max: float | None = None
    near_inclusive: bool = True
    template: Template | None = None
    specials: frozenset[Special] = frozenset()
    ca_mod: int = 0

    @property
    def melee_only(self) -> bool:
        """Range is "Melee" alone (ARMORY-5.1.MELEE-USE)."""
        return self.melee_capable and not self.range_max

    def damage_at(self, distance: float) -> int:
        """Damage at an edge-to-edge distance; base contact counts as 0 (GAP-07, `weapons.shotgun_boundary`)."""
        if self.far_damage is None or self.near_max is None:
            return self.damage
        near = distance <= self.near_max + EPS if self.near_inclusive else distance < self.near_max - EPS
        return self.damage if near else self.far_damage


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon category (ARMORY-5.1) with one or more profiles (the RPG has two warheads, GAP-05)."""

    id: str
    name: str
    rule: str
    kind: WeaponKind
    profiles: tuple[WeaponProfile, ...]
    ammo: int | None = None  # Limited Ammo rounds per load-out (ARMORY-5.1.SR-LIMITED)
    starting: bool = False  # allowed at crew creation (CREW-7.1.WEAPON-CHOICE)
    accepts: frozenset[str] = frozenset()  # equipment ids that fit it (Red Dot, Scope, UBGL)
    unload: bool = False  # listed for Unload (SKILL-6.1.UNLOAD)
    melee_forbidden: bool = False  # `melee.forbidden` (ARMORY-5.1.MELEE-USE)
    same_as: str | None = None

    @property
    def profile(self) -> WeaponProfile:
        return self.profiles[0]

    def profile_named(self, name: str) -> WeaponProfile:
        for p in self.profiles:
            if p.name == name:
                return p
        raise KeyError(f"{self.id} has no profile {name!r}; profiles: {[p.name for p in self.profiles]}")

    @property
    def specials(self) -> frozenset[Special]:
        return frozenset().union(*(p.specials for p in self.profiles))

    @property
    def melee_capable(self) -> bool:
        return any(p.melee_capable for p in self.profiles)

    @property
    def melee_only(self) -> bool:
        return all(p.melee_only for p in self.profiles)

    @property
    def usable_in_melee(self) -> bool:
        """Melee weapons and melee-capable guns freely; others at -2 CA unless forbidden (ARMORY-5.1.MELEE-USE)."""
        return not self.melee_forbidden

    @property
    def melee_penalty(self) -> int:
        """CA modifier when used in melee (ARMORY-5.1.NONMELEE-PENALTY)."""
        return 0 if self.melee_capable else -2

    @property
    def is_support(self) -> bool:
        """Support Weapon: -1" per Move action for the bearer (ARMORY-5.1.SR-SUPPORT)."""
        return Special.SUPPORT in self.specials

    @property
    def unload_eligible(self) -> bool:
        """Unload needs FP >= 2 and no Reload, Limited Ammo or template (SKILL-6.1.UNLOAD)."""
        bad = {Special.RELOAD, Special.LIMITED_AMMO}
        return self.unload and all(
            (p.fp or 0) >= 2 and p.template is None and not (p.specials & bad) for p in self.profiles)

    @property
    def red_dot_eligible(self) -> bool:
        return "red_dot" in self.accepts

    @property
    def scope_eligible(self) -> bool:
        return "scope" in self.accepts


@dataclass(frozen=True, slots=True)
class Grenade:
    """A grenade or explosive (ARMORY-5.1.GRENADE-TABLE); always Indirect-Fire capable."""

    id: str
    name: str
    rule: str
    range_min: float
    range_max: float
    fp: int
    damage: int | None  # per model under the template; None = no damage roll
    template: Template
    effects: frozenset[GrenadeEffect] = frozenset()
    indirect: bool = True


@dataclass(frozen=True, slots=True)
class Armour:
    """A body armour type (ARMORY-5.3.TABLE)."""

    id: str
    name: str
    rule: str
    armor: int
    move_mod: float = 0.0
    obscured: Obscured = Obscured.IN_COVER
    save_dice: int = 1  # dice per hit, keep the best (COMBAT-4.1.SAVE)
    will_exempt: bool = False  # never takes the deflection Will check (ARMORY-5.3.NERVES)


@dataclass(frozen=True, slots=True)
class CoverClass:
    """A cover category and its modifiers (CORE-3.6.TABLE, COMBAT-4.4.PIN-COVER, GAP-81, CORE-3.6.ELEVATED)."""

    id: str
    name: str
    rule: str
    ca_mod: int
    armor_mod: int = 0
    will_mod: int = 0
    template: TemplateCover = TemplateCover.NONE
    template_save_bonus: int = 0
    pinned_armor: int = 0
    elevated: str | None = None  # class against a higher attacker; None = no effect
    cumulative: bool = False


@dataclass(frozen=True, slots=True)
class ExperienceLevel:
    """A Combat Experience level (CORE-3.2.LEVELS)."""

    id: str
    name: str
    nickname: str
    rule: str
    actions: int
    skills: int
    slots: int
    k_cost: int
    also_called: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Skill:
    """A Skill (SKILL-6.1.*)."""

    id: str
    name: str
    rule: str
    summary: str
    unique: bool = False  # one per crew (Leader)


@dataclass(frozen=True, slots=True)
class Equipment:
    """An equipment item (EQUIP-6.2.*) with its table, D6 number, Value and effects."""

    id: str
    name: str
    rule: str
    table: EquipmentTable
    number: int
    value: int
    summary: str
    consumable: bool = False
    slot_bonus: int = 0
    grenade_bonus: int = 0
    armor_bonus: int = 0
    ca_bonus: int = 0
    damage_bonus: int = 0
    ammo_bonus: int = 0
    max_per_model: int | None = None
    adds_weapon: str | None = None

    @property
    def uses_slot(self) -> bool:
        """Special items are not Equipment and use no slot (EQUIP-6.2.SPECIAL-NOSLOT)."""
        return self.table is not EquipmentTable.SPECIAL


@dataclass(frozen=True, slots=True)
class Body:
    """A base size and model height class (GEO-3, `geo.bases`)."""

    id: str
    name: str
    rule: str
    diameter: float
    height: float


@dataclass(frozen=True, slots=True)
class RecruitProfile:
    """A starting crew profile (CREW-7.1.RECRUIT-PROFILES, CREW-7.1.LEADER)."""

    id: str
    name: str
    rule: str
    experience: str
    actions: int
    move: float
    ca: int
    armour: str
    will: int
    wounds: int
    k_cost: int
    ranged: int
    melee: int
    grenades: int
    skills: int
    basic_items: int
    body: str
    base_diameter: float
    height: float
    required_skills: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HostileAttack:
    """One weapon of a hostile with the FP and Damage it uses (HOSTILE-8.3.STATS, GAP-09)."""

    weapon: str
    fp: int
    damage: int


@dataclass(frozen=True, slots=True)
class HostileProfile:
    """A Zone Hostile stat line (HOSTILE-8.3.STATS, GAP-22..GAP-25)."""

    id: str
    name: str
    rule: str
    move: float
    ca: int
    armor: int
    will: int | None  # None = Will "NA" (GAP-22)
    attacks: tuple[HostileAttack, ...]
    wounds: int
    body: str
    base_diameter: float
    height: float
    unit_form: UnitForm
    creature: bool = False
    armour: str | None = None  # worn armour id (Bandits)
    obscured: Obscured | None = None  # None: never Obscured (ARMORY-5.3.NATURAL)


def _lookup(table: Mapping[str, T], key: str, what: str) -> T:
    try:
        return table[key]
    except KeyError:
        raise KeyError(f"unknown {what} {key!r}; known: {sorted(table)}") from None


@dataclass(frozen=True, eq=False)
class Catalog:
    """All rules content of one game, with settings applied. Lookups raise KeyError listing known ids."""

    weapons: Mapping[str, Weapon]
    grenades: Mapping[str, Grenade]
    armours: Mapping[str, Armour]
    covers: Mapping[str, CoverClass]
    levels: Mapping[str, ExperienceLevel]
    skills: Mapping[str, Skill]
    equipment_items: Mapping[str, Equipment]
    bodies: Mapping[str, Body]
    recruits: Mapping[str, RecruitProfile]
    hostiles: Mapping[str, HostileProfile]
    skill_aliases: Mapping[str, str] = field(default_factory=dict)
    # hostiles.difficulty (HOSTILE-8.3.SCALING): the level in play, its changes per hostile id and the stat bounds,
    # already applied to `hostiles`; a scenario's own stat line for a hostile takes them too (game.core.rules.preplace)
    difficulty: str = "book"
    difficulty_changes: Mapping[str, Mapping[str, float | int]] = field(default_factory=dict)
    difficulty_bounds: Mapping[str, tuple[float | int, float | int]] = field(default_factory=dict)

    def weapon(self, id: str) -> Weapon:
        return _lookup(self.weapons, id, "weapon")

    def grenade(self, id: str) -> Grenade:
        return _lookup(self.grenades, id, "grenade")

    def armour(self, id: str) -> Armour:
        return _lookup(self.armours, id, "armour")

    def cover(self, id: str) -> CoverClass:
        return _lookup(self.covers, id, "cover class")

    def level(self, id: str) -> ExperienceLevel:
        return _lookup(self.levels, id, "experience level")

    def skill(self, id: str) -> Skill:
        """A skill by id or by its alias ("salvager" = Scrounger, GAP-27)."""
        return _lookup(self.skills, self.skill_aliases.get(id, id), "skill")

    def equipment(self, id: str) -> Equipment:
        return _lookup(self.equipment_items, id, "equipment item")

    def body(self, id: str) -> Body:
        return _lookup(self.bodies, id, "body")

    def recruit(self, id: str) -> RecruitProfile:
        return _lookup(self.recruits, id, "recruit profile")

    def hostile(self, id: str) -> HostileProfile:
        return _lookup(self.hostiles, id, "hostile")

    def starting_weapons(self) -> tuple[str, ...]:
        """Weapons a new crew member may choose (CREW-7.1.WEAPON-CHOICE, `crew.start_weapons`)."""
        return tuple(w.id for w in self.weapons.values() if w.starting)
