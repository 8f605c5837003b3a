"""Grenades, blast weapons and the flame: templates, deviation, soft/hard cover, Burn, smoke and flash bangs
(ARMORY-5.1.GRENADE-TABLE, ARMORY-5.1.SBT-LBT, ARMORY-5.1.FLAME, ARMORY-5.1.BURN, ARMORY-5.2, ARMORY-5.4,
 GAP-70..75)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.core.actions import FlameAttack, IllegalAction, TemplateAttack, ThrowGrenade
from game.core.battlefield import Scene
from game.core.catalog.profiles import GrenadeEffect, Special, Template
from game.core.dice import Modifier, TargetNumber
from game.core.geometry.distance import EPS, point_distance
from game.core.geometry.templates import TemplateEffect, TemplateFact, TemplateKind, template_coverage
from game.core.rules.attack import (
    check_ammo,
    roll_saves,
    situation,
    situation_json,
    spend_ammo,
    take_hits,
    weapon_and_profile,
)
from game.core.rules.context import record_crit
from game.core.rules.modifiers import AttackNumbers, AttackSituation, cover_modifiers, save_tn
from game.core.rules.queries import aim_pending, catalog_of, enemy_contacts, leader_bonus
from game.core.rules.stats import effective_ca
from game.core.rules.stats import will_tn as plain_will_tn
from game.core.rules.turnrolls import range_multiplier
from game.core.rules.wounds import add_pins, inflict_wounds
from game.core.state import ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

_KIND = {Template.SBT: TemplateKind.SBT, Template.LBT: TemplateKind.LBT, Template.FLAME: TemplateKind.FLAME}


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
    target: str | None  # a model standing on the aim point, whose cover applies to a direct throw
    reasons: tuple[str, ...]


def _point_target(ctx: Ctx, m: ModelState, x: float, y: float) -> ModelState | None:
    for o in ctx.state.models.values():
        if o.in_play and o.side != m.side and math.hypot(o.x - x, o.y - y) <= 1e-6:
            return o
    return None


def delivery(ctx: Ctx, m: ModelState, x: float, y: float, blast: Blast) -> Delivery:
    """GAP-70 / GEO-17: direct if the thrower sees the point and no LOS-blocking piece is crossed; else an
    indirect attack, legal only outside shadows the thrower is not in (ARMORY-5.4.SHADOW)."""
    target = _point_target(ctx, m, x, y)
    z = target.z if target else 0.0
    bf = ctx.battlefield
    if not bf.pieces and not ctx.state.smoke:
        return Delivery(None, target.id if target else None, ("open table: direct",))
    from game.core.geometry.indirect import indirect_arc_point

    scene = ctx.state.scene()
    arc = indirect_arc_point(bf, scene, m.id, (x, y, z), settings=ctx.settings)
    if arc.in_los and not arc.shadows:
        return Delivery(None, target.id if target else None, arc.reasons)
    if not blast.indirect:
        raise IllegalAction(f"{blast.name} needs line of sight to the point (it cannot fire indirectly)", "GAP-05")
    if not arc.legal:
        raise IllegalAction(f"the point ({x:g},{y:g}) is in the shadow of pieces {list(arc.forbidden_by)} and "
                            f"{m.id} is not in that shadow", "ARMORY-5.4.SHADOW")
    return Delivery("in_los" if arc.in_los else "no_los", None, arc.reasons)


def blast_tn(ctx: Ctx, m: ModelState, d: Delivery, aim: bool) -> TargetNumber:
    """The throw's TN: CA, Aim (+1 CA only, `aim.templates`=ca_only), indirect -1/-3 or, when direct at a
    model, that model's cover and obstructions (GAP-70)."""

    mods: list[Modifier] = []
    if aim and ctx.settings["aim.templates"] == "ca_only":
        mods.append(Modifier("Aim", 1, "GAP-117"))
    if d.target is not None and d.indirect is None:
        t = ctx.state.models[d.target]
        s = situation(ctx, m, t, melee=False)
        mods.extend(cover_modifiers(t, s, catalog=catalog_of(ctx), settings=ctx.settings))
        return TargetNumber(effective_ca(m), tuple(mods))
    if d.indirect == "in_los":
        mods.append(Modifier("indirect, point in LOS", -1, "ARMORY-5.4.PENALTY"))
    elif d.indirect == "no_los":
        mods.append(Modifier("indirect, point not in LOS", -3, "ARMORY-5.4.PENALTY"))
    return TargetNumber(effective_ca(m), tuple(mods))


def _check_point(ctx: Ctx, m: ModelState, x: float, y: float, blast: Blast) -> Delivery:

    if not (math.isfinite(x) and math.isfinite(y)):
        raise IllegalAction(f"aim point ({x},{y}) is not a number", "GEO-1")
    if enemy_contacts(ctx, m):
        raise IllegalAction(f"{m.id} is Engaged in melee and may not throw or fire", "GAP-78")

    d = point_distance(m.base(), (x, y))
    reach = blast.range_max * range_multiplier(ctx)
    if d > reach + EPS or d < blast.range_min - EPS:
        raise IllegalAction(f"the point is {d:.2f}\" away; {blast.name} reaches {blast.range_min:g}-{reach:g}\"",
                            "GEO-5")
    return delivery(ctx, m, x, y, blast)


# --- the three actions -----------------------------------------------------------------------------


def grenade_blast(ctx: Ctx, grenade_id: str) -> Blast:

    g = catalog_of(ctx).grenade(grenade_id)
    return Blast(g.name, g.rule, g.template, g.damage, frozenset(g.effects), g.range_min, g.range_max, g.indirect)


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


def weapon_blast(ctx: Ctx, m: ModelState, weapon_id: str, profile: str | None) -> tuple[Any, Any, Blast]:

    w, p = weapon_and_profile(ctx, m, weapon_id, profile)
    if p.template is None or p.template is Template.FLAME:
        raise IllegalAction(f"{w.name} ({p.name}) is not a blast weapon", "ARMORY-5.1.SBT-LBT")
    effects = frozenset({GrenadeEffect.BURN}) if Special.BURN in p.specials else frozenset()
    blast = Blast(w.name, w.rule, p.template, p.damage, effects, p.range_min, float(p.range_max or 0.0),
                  Special.INDIRECT in p.specials)
    return w, p, blast


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
    if enemy_contacts(ctx, m):
        raise IllegalAction(f"{m.id} is Engaged in melee and may not use the flame thrower", "GAP-78")
    check_ammo(ctx, m, w)
    return 1


def do_flame(ctx: Ctx, a: FlameAttack, m: ModelState, context: str) -> int:
    """ARMORY-5.1.FLAME: no CA roll; every model under or touched (the attacker never) takes Damage 3 and Burns."""

    w, p = weapon_and_profile(ctx, m, a.weapon, None)
    spend_ammo(ctx, m, w, p)
    ctx.emit("attack", ("ARMORY-5.1.FLAME",), kind="blast", attacker=m.id, weapon=w.name,
             point=[m.x + math.cos(a.angle), m.y + math.sin(a.angle)], indirect="flame: no roll")
    fact = template_coverage(ctx.battlefield, _scene(ctx), TemplateKind.FLAME, None, angle=a.angle,
                             attacker_id=m.id, settings=ctx.settings)
    ctx.emit("template", ("ARMORY-5.1.FLAME", "GEO-15", "GEO-16", "GAP-73"), kind="flame", attacker=m.id,
             origin=list(fact.origin), angle=a.angle, models=_coverage_json(fact))
    effects = frozenset({GrenadeEffect.BURN}) if Special.BURN in p.specials else frozenset()
    blast = Blast(w.name, w.rule, Template.FLAME, p.damage, effects, 0.0, 0.0, False)
    ctx.state.round_counter += 1
    _apply_effects(ctx, m, blast, fact, ctx.state.round_counter)
    return 1


# --- resolution ----------------------------------------------------------------------------------


def _coverage_json(fact: TemplateFact) -> list[dict[str, Any]]:
    return [{"model": c.model, "effect": c.effect.value, "shielded_by": list(c.shielded_by),
             "soft_cover": list(c.soft_cover_between)} for c in fact.models]


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
        ang = ctx.dice.angle()
        dev = deviation_point((x, y), d10, ang, settings=ctx.settings)
        cx, cy = dev.point
        ctx.emit("deviation", ("ARMORY-5.4.DEVIATION", "GEO-18", "GAP-71"), d10=d10, angle=ang,
                 distance=dev.distance, point=[cx, cy])
    kind = _KIND[blast.template]
    fact = template_coverage(ctx.battlefield, _scene(ctx), kind, (cx, cy, 0.0), settings=ctx.settings)
    ctx.emit("template", ("GEO-15", "GEO-16", "ARMORY-5.2.TEMPLATE-COVER"), kind=kind.value, centre=[cx, cy],
             models=_coverage_json(fact))
    _apply_effects(ctx, m, blast, fact, res_round(ctx))


def _scene(ctx: Ctx) -> Scene:
    """Templates touch Out of Action figures too when `ooa.targetable` allows it (GAP-93)."""
    return ctx.state.scene(include_ooa=ctx.settings["ooa.targetable"] == "templates_and_melee")


def res_round(ctx: Ctx) -> int:
    return ctx.state.round_counter


def _apply_effects(ctx: Ctx, attacker: ModelState, blast: Blast, fact: TemplateFact, round_id: int) -> None:
    st = ctx.state
    if GrenadeEffect.SMOKE in blast.effects:
        centre = fact.origin
        lasts = 1 if ctx.settings["smoke.duration"] == "until_end_of_next_turn" else 0
        st.smoke.append({"x": centre[0], "y": centre[1], "z": 0.0, "radius": 2.5,
                         "height": float(ctx.settings["smoke.height"]), "expires_after_turn": st.turn + lasts})
        ctx.emit("smoke", ("ARMORY-5.1.GRENADE-TABLE", "GAP-72"), centre=[centre[0], centre[1]],
                 height=ctx.settings["smoke.height"])
    for cov in fact.models:
        m = st.models.get(cov.model)
        if m is None or m.dead or cov.effect is TemplateEffect.SHIELDED:
            continue
        if m.ooa:
            # GAP-93: an Out of Action figure under a template takes the hit; a Wound in another round kills it.
            if blast.damage is not None:
                inflict_wounds(ctx, m.id, 1, round_id)
            continue
        if GrenadeEffect.SMOKE in blast.effects:
            st.continuations.append({"kind": "smoke_will", "model": m.id})
        if GrenadeEffect.AUTO_PIN in blast.effects:
            add_pins(ctx, m.unit, 1, reason=f"{blast.name}: automatic Pin, no save",
                     rules=("ARMORY-5.1.GRENADE-TABLE", "GAP-112"))
        if blast.damage is None:
            continue
        s = AttackSituation(distance=0.0, template=True, template_soft_cover=cov.effect is TemplateEffect.SOFT_COVER)

        sv = save_tn(m, blast.damage, s, catalog=catalog_of(ctx), settings=ctx.settings,
                     target_pinned=st.units[m.unit].pins > 0)
        if GrenadeEffect.BURN in blast.effects:
            st.continuations.append({"kind": "burn", "model": m.id, "save": sv.breakdown(),
                                     "save_dice": max(1, m.profile.save_dice), "round": round_id,
                                     "deflected": 0, "name": blast.name})
            continue

        nums = AttackNumbers(1, TargetNumber(Modifier("automatic", 10, "GAP-70")), blast.damage, (), sv,
                             max(1, m.profile.save_dice), None)
        take_hits(ctx, m, 1, nums, s, round_id=round_id, ranged=True, what=f"armour save vs {blast.name}",
                  rules=("ARMORY-5.1.SBT-LBT", "GAP-70"))


def _tn_from(breakdown: list[list[Any]]) -> TargetNumber:
    base = Modifier(*breakdown[0])
    return TargetNumber(base, tuple(Modifier(*x) for x in breakdown[1:]))


def burn_step(ctx: Ctx, c: dict[str, Any]) -> None:
    """ARMORY-5.1.BURN / GAP-74: save after save until one passes (a deflection: one Will check) or the
    model runs out of Wounds; a Med-Kit may be used between rolls."""

    st = ctx.state
    m = st.models[c["model"]]
    if not m.in_play:
        return
    tn = _tn_from(c["save"])
    res = roll_saves(ctx, m, 1, tn, c["save_dice"], what=f"Burn save vs {c['name']}", rules=("ARMORY-5.1.BURN",))
    record_crit(ctx, m.unit, res, context="offturn", rules=("ARMORY-5.1.BURN",))
    if res.successes:
        ctx.emit("burn_out", ("ARMORY-5.1.BURN", "GAP-74"), model=m.id)
        st.continuations.insert(0, {"kind": "deflect_will", "model": m.id, "round": c["round"],
                                    "situation": situation_json(AttackSituation(template=True))})
        return
    st.continuations.insert(0, dict(c))
    inflict_wounds(ctx, m.id, 1, c["round"])


def smoke_check(ctx: Ctx, c: dict[str, Any]) -> None:
    """GAP-72: each model touched by the smoke takes a Will check at `smoke.will_mod` (-2; Gas Mask and Will NA
    exempt); fail: `smoke.fail_pins` (1) Pin."""

    m = ctx.state.models[c["model"]]
    if not m.in_play:
        return
    if m.profile.will is None or "gas_mask" in m.items:
        ctx.emit("will_exempt", ("GAP-72", "EQUIP-6.2.GAS-MASK"), model=m.id,
                 reason="Gas Mask" if m.profile.will is not None else "Will NA")
        return
    tn = plain_will_tn(m, (Modifier("smoke", int(ctx.settings["smoke.will_mod"]), "GAP-72"),) + leader_bonus(ctx, m))
    res = ctx.roll_pool(1, tn, what="Will check in smoke", who=m.id, rules=("GAP-72",))
    if not res.successes:
        add_pins(ctx, m.unit, int(ctx.settings["smoke.fail_pins"]), reason="failed the smoke Will check",
                 rules=("GAP-72",))
    record_crit(ctx, m.unit, res, context="offturn", rules=("GAP-72",))
