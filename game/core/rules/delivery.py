"""What is thrown or fired at a point, and how: direct or indirect, range, the one die's TN (GAP-70, ARMORY-5.4)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.core.actions import IllegalAction
from game.core.catalog.profiles import GrenadeEffect, Special, Template, WeaponProfile
from game.core.dice import Modifier, TargetNumber
from game.core.geometry.distance import EPS, point_distance
from game.core.rules.attack import ranged_reach, situation, weapon_and_profile
from game.core.rules.modifiers import cover_modifiers
from game.core.rules.queries import catalog_of
from game.core.rules.stats import effective_ca
from game.core.rules.turnrolls import range_multiplier
from game.core.settings import Settings, SettingsError
from game.core.state import ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx


@dataclass(frozen=True, slots=True)
class Blast:
    """What is thrown or fired: template, Damage (None = none), effects, range, indirect capability."""

    name: str
    rule: str
    template: Template
    damage: int | None
    effects: frozenset[GrenadeEffect]
    range_min: float
    range_max: float
    indirect: bool


@dataclass(frozen=True, slots=True)
class Delivery:
    """GAP-70: direct (LOS to the point, no blocking terrain crossed) or indirect with its penalty."""

    indirect: str | None  # None, "in_los" or "no_los"
    target: str | None  # the enemy model whose base holds the aim point: the throw is an attack on it (GAP-70)
    reasons: tuple[str, ...]


def grenade_blast(ctx: Ctx, grenade_id: str) -> Blast:

    g = catalog_of(ctx).grenade(grenade_id)
    return Blast(g.name, g.rule, g.template, g.damage, frozenset(g.effects), g.range_min, g.range_max, g.indirect)


def weapon_blast(ctx: Ctx, m: ModelState, weapon_id: str, profile: str | None) -> tuple[Any, Any, Blast]:

    w, p = weapon_and_profile(ctx, m, weapon_id, profile)
    if p.template is None or p.template is Template.FLAME:
        raise IllegalAction(f"{w.name} ({p.name}) is not a blast weapon", "ARMORY-5.1.SBT-LBT")
    effects = frozenset({GrenadeEffect.BURN}) if Special.BURN in p.specials else frozenset()
    blast = Blast(w.name, w.rule, p.template, p.damage, effects, p.range_min, float(p.range_max or 0.0),
                  Special.INDIRECT in p.specials)
    return w, p, blast


def flame_blast(ctx: Ctx, m: ModelState, weapon_id: str) -> Blast:
    """The flame thrower's template, Damage and Burn (ARMORY-5.1.FLAME); it has no range and never deviates."""
    w, p = weapon_and_profile(ctx, m, weapon_id, None)
    effects = frozenset({GrenadeEffect.BURN}) if Special.BURN in p.specials else frozenset()
    return Blast(w.name, w.rule, Template.FLAME, p.damage, effects, 0.0, 0.0, False)


def action_blast(ctx: Ctx, m: ModelState, action: Any) -> Blast:
    """The Blast a ThrowGrenade, TemplateAttack or FlameAttack places (CORE-3.3.GRENADE, ARMORY-5.1.SBT-LBT,
    ARMORY-5.1.FLAME): the one the resolver, the odds and the template preview all read."""
    from game.core.actions import TemplateAttack, ThrowGrenade

    if isinstance(action, ThrowGrenade):
        return grenade_blast(ctx, action.grenade)
    if isinstance(action, TemplateAttack):
        return weapon_blast(ctx, m, action.weapon, action.profile)[2]
    return flame_blast(ctx, m, action.weapon)


def _procedure(settings: Settings) -> None:
    """GAP-70 (`blast.procedure`): the one procedure built here (target point, direct or indirect, deviation)."""
    if settings["blast.procedure"] != "gap_70":
        raise SettingsError(f"setting 'blast.procedure' = {settings['blast.procedure']!r} is not built")


def aimed_model(ctx: Ctx, m: ModelState, x: float, y: float) -> ModelState | None:
    """GAP-70: the enemy model in play whose base holds the aim point (any point of it, its edge included); bases
    never overlap, so at most the two of a tangency share a point: the nearer centre, then the lower id."""
    best: tuple[float, str] | None = None
    found = None
    for o in ctx.state.models.values():
        if not o.in_play or o.side == m.side:
            continue
        d = math.hypot(o.x - x, o.y - y)
        if d <= o.radius + EPS and (best is None or (d, o.id) < best):
            best, found = (d, o.id), o
    return found


def delivery(ctx: Ctx, m: ModelState, x: float, y: float, blast: Blast) -> Delivery:
    """GAP-70 / GEO-17: direct if the thrower sees the point and no LOS-blocking piece is crossed; else an
    indirect attack, legal only outside shadows the thrower is not in (ARMORY-5.4.SHADOW)."""
    _procedure(ctx.settings)
    target = aimed_model(ctx, m, x, y)
    tid = target.id if target else None
    z = target.z if target else 0.0
    bf = ctx.battlefield
    if not bf.pieces and not ctx.state.smoke:
        return Delivery(None, tid, ("open table: direct",))
    from game.core.geometry.indirect import indirect_arc_point

    scene = ctx.state.scene()
    arc = indirect_arc_point(bf, scene, m.id, (x, y, z), settings=ctx.settings)
    if arc.in_los and not arc.shadows:
        return Delivery(None, tid, arc.reasons)
    if not blast.indirect:
        raise IllegalAction(f"{blast.name} needs line of sight to the point (it cannot fire indirectly)", "GAP-05")
    if not arc.legal:
        raise IllegalAction(f"the point ({x:g},{y:g}) is in the shadow of pieces {list(arc.forbidden_by)} and "
                            f"{m.id} is not in that shadow", "ARMORY-5.4.SHADOW")
    return Delivery("in_los" if arc.in_los else "no_los", tid, arc.reasons)


def blast_tn(ctx: Ctx, m: ModelState, d: Delivery, aim: bool) -> TargetNumber:
    """The throw's TN (GAP-70): CA, Aim (+1 CA only, `aim.templates`=ca_only), then either the indirect -1/-3
    or, thrown directly at a model, that model's cover and obstructions; a throw at a Pinned model (or a prone
    one, `prone.counts_as_pinned`) is a ranged attack on it at -2 (COMBAT-4.3.KICK-RANGED). The flame's TN
    (`flame.auto_hit`=false) is this with no model and no penalty."""

    mods: list[Modifier] = []
    if aim and ctx.settings["aim.templates"] == "ca_only":
        mods.append(Modifier("Aim", 1, "GAP-117"))
    t = ctx.state.models[d.target] if d.target is not None else None
    if t is not None and d.indirect is None:
        s = situation(ctx, m, t, melee=False)
        mods.extend(cover_modifiers(t, s, catalog=catalog_of(ctx), settings=ctx.settings))
    if d.indirect == "in_los":
        mods.append(Modifier("indirect, point in LOS", -1, "ARMORY-5.4.PENALTY"))
    elif d.indirect == "no_los":
        mods.append(Modifier("indirect, point not in LOS", -3, "ARMORY-5.4.PENALTY"))
    if t is not None and (ctx.state.units[t.unit].pins > 0 or (t.prone and ctx.settings["prone.counts_as_pinned"])):
        mods.append(Modifier("Pinned target", -2, "COMBAT-4.3.KICK-RANGED"))
    return TargetNumber(effective_ca(m), tuple(mods))


def flame_tn(ctx: Ctx, m: ModelState, aim: bool) -> TargetNumber:
    """GAP-73 `flame.auto_hit`=false: the flame rolls one die like any template weapon (GAP-70) at the attacker's
    CA with Aim (+1 CA only, GAP-117); it is aimed at no model and cannot be indirect."""
    return blast_tn(ctx, m, Delivery(None, None, ("flame: aimed at no model",)), aim)


def throw_distance(ctx: Ctx, m: ModelState, x: float, y: float, blast: Blast) -> tuple[float, bool, bool]:
    """GAP-70 / GEO-5: (distance, too close, too far) of a throw. Aimed at a model it is an attack on that model:
    edge to edge, in range when any part of its base is, the minimum per `range.min_rule` (attack.ranged_reach,
    GAP-116); at an empty point, the model-to-point distance (GEO-4)."""
    reach = blast.range_max * range_multiplier(ctx)
    t = aimed_model(ctx, m, x, y)
    if t is not None:
        band = WeaponProfile(blast.name, blast.range_min, blast.range_max, False, 1, blast.damage or 0)
        r = ranged_reach(ctx, m, t, band)
        return r.distance, r.too_close, r.too_far
    d = point_distance(m.base(), (x, y))
    return d, d < blast.range_min - EPS, d > reach + EPS
