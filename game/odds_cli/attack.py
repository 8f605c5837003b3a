"""The checked attack: catalog objects and numbers the rules accept (ARMORY-5.1, VITALS-2.2.RANGE)."""
from __future__ import annotations

from dataclasses import dataclass

from game.core.battlefield import Cover
from game.core.catalog import Armour, Grenade, Template, Weapon, WeaponProfile
from game.core.geometry.templates import FLAME_END_CENTRE, FLAME_END_RADIUS

FLAME_REACH = FLAME_END_CENTRE + FLAME_END_RADIUS  # GEO-15: the teardrop is 8" long from the attacker's base


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
