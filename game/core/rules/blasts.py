"""The grenade, blast weapon and flame actions: check, throw or fire, deviation (GAP-70, GAP-71, GAP-73, ARMORY-5.1)."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import game.core.rules.factions as factions
from game.core.actions import FlameAttack, IllegalAction, TemplateAttack, ThrowGrenade
from game.core.battlefield import Scene
from game.core.catalog.profiles import Template
from game.core.geometry.templates import TemplateFact, TemplateKind, template_coverage
from game.core.rules.attack import check_ammo, spend_ammo, weapon_and_profile
from game.core.rules.context import record_crit
from game.core.rules.delivery import (
    Blast,
    Delivery,
    blast_tn,
    delivery,
    flame_blast,
    flame_tn,
    grenade_blast,
    throw_distance,
    weapon_blast,
)
from game.core.rules.queries import aim_pending
from game.core.rules.template_effects import apply_template_effects, spared_friends
from game.core.rules.turnrolls import range_multiplier
from game.core.settings import SettingsError
from game.core.state import ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

TEMPLATE_KINDS = {Template.SBT: TemplateKind.SBT, Template.LBT: TemplateKind.LBT, Template.FLAME: TemplateKind.FLAME}


def _check_point(ctx: Ctx, m: ModelState, x: float, y: float, blast: Blast) -> Delivery:

    if not (math.isfinite(x) and math.isfinite(y)):
        raise IllegalAction(f"aim point ({x},{y}) is not a number", "GEO-1")
    d, close, far = throw_distance(ctx, m, x, y, blast)
    if close or far:
        reach = blast.range_max * range_multiplier(ctx)
        raise IllegalAction(f"the point is {d:.2f}\" away; {blast.name} reaches {blast.range_min:g}-{reach:g}\"",
                            "GEO-5")
    dv = delivery(ctx, m, x, y, blast)
    if dv.target is not None:
        factions.check_attack(ctx, m, ctx.state.models[dv.target])  # FACTION-7.2.ALLIED: an attack on that model
    return dv


def check_throw(ctx: Ctx, a: ThrowGrenade, m: ModelState, context: str) -> int:
    try:
        blast = grenade_blast(ctx, a.grenade)
    except KeyError as exc:
        raise IllegalAction(str(exc), "ARMORY-5.1.GRENADE-TABLE") from None
    if m.grenades.get(a.grenade, 0) <= 0:
        raise IllegalAction(f"{m.id} carries no {blast.name}", "ARMORY-5.1.GRENADE-CARRY")
    _check_point(ctx, m, a.x, a.y, blast)
    return 1


def do_throw(ctx: Ctx, a: ThrowGrenade, m: ModelState, context: str) -> int:
    blast = grenade_blast(ctx, a.grenade)
    m.grenades[a.grenade] -= 1
    resolve_blast(ctx, m, blast, a.x, a.y, context=context, rules=("CORE-3.3.GRENADE", "GAP-70"))
    return 1


def check_template_attack(ctx: Ctx, a: TemplateAttack, m: ModelState, context: str) -> int:

    w, p, blast = weapon_blast(ctx, m, a.weapon, a.profile)
    check_ammo(ctx, m, w)
    _check_point(ctx, m, a.x, a.y, blast)
    return 1


def do_template_attack(ctx: Ctx, a: TemplateAttack, m: ModelState, context: str) -> int:

    w, p, blast = weapon_blast(ctx, m, a.weapon, a.profile)
    spend_ammo(ctx, m, w, p)
    resolve_blast(ctx, m, blast, a.x, a.y, context=context, rules=("ARMORY-5.1.SBT-LBT", "GAP-70"))
    return 1


def check_flame(ctx: Ctx, a: FlameAttack, m: ModelState, context: str) -> int:

    w, p = weapon_and_profile(ctx, m, a.weapon, None)
    if p.template is not Template.FLAME:
        raise IllegalAction(f"{w.name} has no flame template", "ARMORY-5.1.FLAME")
    if not math.isfinite(a.angle):
        raise IllegalAction("the flame's angle is not a number", "GEO-15")
    check_ammo(ctx, m, w)
    return 1


def do_flame(ctx: Ctx, a: FlameAttack, m: ModelState, context: str) -> int:
    """ARMORY-5.1.FLAME: no CA roll (GAP-73 `flame.auto_hit`; false: one die at `flame_tn`, a miss touches
    nobody); every model under or touched (the attacker never; friends unless `flame.friendly`=false) takes
    Damage 3 and Burns."""

    w, p = weapon_and_profile(ctx, m, a.weapon, None)
    spend_ammo(ctx, m, w, p)
    auto = bool(ctx.settings["flame.auto_hit"])
    ctx.emit("attack", ("ARMORY-5.1.FLAME",) + (() if auto else ("GAP-73",)), kind="blast", attacker=m.id,
             weapon=w.name, point=[m.x + math.cos(a.angle), m.y + math.sin(a.angle)], angle=a.angle,
             indirect="flame: no roll" if auto else "flame: to-hit roll (flame.auto_hit=false)")
    if not auto:
        rules = ("ARMORY-5.1.FLAME", "GAP-73")
        res = ctx.roll_pool(1, flame_tn(ctx, m, aim_pending(ctx, m, context)), what=f"{w.name} to hit", who=m.id,
                            rules=rules)
        record_crit(ctx, m.unit, res, context=context, rules=rules)
        if not res.successes:
            ctx.emit("flame_miss", rules, attacker=m.id, reason="the to-hit roll failed: the flame touches nobody")
            return 1
    fact = template_coverage(ctx.battlefield, template_scene(ctx), TemplateKind.FLAME, None, angle=a.angle,
                             attacker_id=m.id, settings=ctx.settings)
    blast = flame_blast(ctx, m, a.weapon)
    spare = spared_friends(ctx, m, blast, fact)
    ctx.emit("template", ("ARMORY-5.1.FLAME", "GEO-15", "GEO-16", "GAP-73"), kind="flame", attacker=m.id,
             origin=list(fact.origin), angle=a.angle, models=_coverage_json(fact, spare))
    ctx.state.round_counter += 1
    apply_template_effects(ctx, m, blast, fact, ctx.state.round_counter)
    return 1


def _coverage_json(fact: TemplateFact, spare: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Each touched model with its GEO-16 effect, or "spared" for a friend the flame spares (`flame.friendly`)."""
    return [{"model": c.model, "effect": "spared" if c.model in spare else c.effect.value,
             "shielded_by": list(c.shielded_by), "soft_cover": list(c.soft_cover_between)} for c in fact.models]


def resolve_blast(ctx: Ctx, m: ModelState, blast: Blast, x: float, y: float, *, context: str,
                  rules: tuple[str, ...]) -> None:
    """GAP-70: roll 1 die; a hit centres the template on the point, a miss deviates it (GEO-18); then every
    touched model per GEO-16."""
    from game.core.geometry.indirect import deviation_point

    d = delivery(ctx, m, x, y, blast)
    aim = aim_pending(ctx, m, context)
    tn = blast_tn(ctx, m, d, aim)
    ctx.emit("attack", rules, kind="blast", attacker=m.id, weapon=blast.name, point=[x, y],
             indirect=d.indirect or "direct", at_model=d.target)
    res = ctx.roll_pool(1, tn, what=f"{blast.name} at ({x:g},{y:g})", who=m.id, rules=rules)
    record_crit(ctx, m.unit, res, context=context, rules=rules)
    cx, cy = x, y
    if not res.successes:
        d10 = ctx.dice.d10()
        ang = deviation_angle(ctx)
        dev = deviation_point((x, y), d10, ang, settings=ctx.settings)
        cx, cy = dev.point
        ctx.emit("deviation", ("ARMORY-5.4.DEVIATION", "GEO-18", "GAP-71"), d10=d10, angle=ang,
                 distance=dev.distance, point=[cx, cy])
    kind = TEMPLATE_KINDS[blast.template]
    fact = template_coverage(ctx.battlefield, template_scene(ctx), kind, (cx, cy, 0.0), settings=ctx.settings)
    ctx.emit("template", ("GEO-15", "GEO-16", "ARMORY-5.2.TEMPLATE-COVER"), kind=kind.value, centre=[cx, cy],
             models=_coverage_json(fact))
    apply_template_effects(ctx, m, blast, fact, res_round(ctx))


def deviation_angle(ctx: Ctx) -> float:
    """GEO-18 `deviation.direction`=uniform_continuous: the drift's direction, uniform in [0, 2*pi)."""
    if ctx.settings["deviation.direction"] != "uniform_continuous":
        raise SettingsError(f"setting 'deviation.direction' = {ctx.settings['deviation.direction']!r} is not built")
    return ctx.dice.angle()


def template_scene(ctx: Ctx) -> Scene:
    """Templates touch Out of Action figures too when `ooa.targetable` allows it (GAP-93)."""
    return ctx.state.scene(include_ooa=ctx.settings["ooa.targetable"] == "templates_and_melee")


def res_round(ctx: Ctx) -> int:
    return ctx.state.round_counter
