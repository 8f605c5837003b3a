"""Effective stats: the Two-Wound Rule and the Move allowance with every modifier (COMBAT-4.4, GEO-8)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from game.core.dice import Modifier, TargetNumber
from game.core.settings import Settings
from game.core.state import ModelState


def is_wounded_multiwound(m: ModelState) -> bool:
    """A multi-wound model carrying at least one undressed Wound (COMBAT-4.4.TWO-WOUND-RULE)."""
    return m.profile.wounds > 1 and m.wounds_taken >= 1 and not m.ooa


def effective_ca(m: ModelState) -> Modifier:
    """CA, halved rounded up for a wounded multi-wound model, applied before other modifiers (TV-04)."""
    if is_wounded_multiwound(m):
        return Modifier("CA (wounded, halved up)", math.ceil(m.profile.ca / 2), "COMBAT-4.4.TWO-WOUND-RULE")
    return Modifier("CA", m.profile.ca, "VITALS-2.1.CA")


def effective_will(m: ModelState) -> int | None:
    """Will, -1 for a wounded multi-wound model (COMBAT-4.4.TWO-WOUND-RULE); None for Will NA (GAP-22)."""
    if m.profile.will is None:
        return None
    return m.profile.will - (1 if is_wounded_multiwound(m) else 0)


def will_tn(m: ModelState, extra: tuple[Modifier, ...] = ()) -> TargetNumber:
    """A Will-based target number with its breakdown (VITALS-2.1.WILL)."""
    will = m.profile.will
    if will is None:
        raise ValueError(f"{m.id} has Will NA and never takes Will checks (GAP-22)")
    mods: list[Modifier] = []
    if is_wounded_multiwound(m):
        mods.append(Modifier("wounded", -1, "COMBAT-4.4.TWO-WOUND-RULE"))
    mods.extend(extra)
    return TargetNumber(Modifier("Will", will, "VITALS-2.1.WILL"), tuple(mods))


@dataclass(frozen=True, slots=True)
class Allowance:
    """The centre-travel allowance of one Move action and how it was reached (GEO-8, TV-06, TV-32)."""

    inches: float
    movement: float  # M_eff after every modifier, Hustle and the floor
    base_width: float
    parts: tuple[tuple[str, float, str], ...]

    def text(self) -> str:
        bits = [f"{label} {value:+g}" if i else f"{label} {value:g}" for i, (label, value, _) in enumerate(self.parts)]
        return " ".join(bits) + f" = {self.inches:g}\""


def move_allowance(
    m: ModelState,
    *,
    hustle_bonus: bool,
    rainstorm: bool = False,
    slow_scars: int = 0,
    settings: Settings | None = None,
) -> Allowance:
    """GEO-8: L = M_eff + B; M_eff = Move + armour - support - rain - Slow, halved if wounded, + Hustle, floor.

    Order per GAP-95: add and subtract, halve, Hustle, then the `move.min` floor.
    """
    s = settings or Settings.defaults()
    p = m.profile
    parts: list[tuple[str, float, str]] = [("Move", p.move, "VITALS-2.1.MOVE")]
    value = p.move
    if p.armour_move_mod:
        parts.append((f"{p.armour} armour", p.armour_move_mod, "ARMORY-5.3.TABLE"))
        value += p.armour_move_mod
    if p.support_weapon:
        parts.append(("support weapon", -1.0, "ARMORY-5.1.SR-SUPPORT"))
        value -= 1.0
    if rainstorm:
        rain = float(s["env.rain_move"])
        parts.append(("rainstorm", -rain, "SALVAGE-8.4.ENV"))
        value -= rain
    if slow_scars:
        parts.append(("Slow scar", -float(slow_scars), "POST-8.5.SCARS-TABLE"))
        value -= slow_scars
    if is_wounded_multiwound(m):
        halved = value / 2.0
        if s["wounded.move_round"] == "up":
            halved = float(math.ceil(halved))
        parts.append(("wounded, halved", halved - value, "COMBAT-4.4.TWO-WOUND-RULE"))
        value = halved
    if hustle_bonus:
        parts.append(("Hustle", 2.0, "SKILL-6.1.HUSTLE"))
        value += 2.0
    floor = float(s["move.min"])
    if value < floor:
        parts.append(("minimum", floor - value, "GEO-8"))
        value = floor
    base = p.base_diameter if s["move.front_to_rear_adds_base"] else 0.0
    if base:
        parts.append(("base width", base, "GAP-86"))
    return Allowance(value + base, value, base, tuple(parts))
