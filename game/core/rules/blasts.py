"""Grenades, blast weapons and the flame: templates, deviation, soft/hard cover, Burn, smoke and flash bangs
(ARMORY-5.1.GRENADE-TABLE, ARMORY-5.1.SBT-LBT, ARMORY-5.1.FLAME, ARMORY-5.1.BURN, ARMORY-5.2, ARMORY-5.4,
 GAP-70..75)."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from game.core.actions import FlameAttack, IllegalAction, TemplateAttack, ThrowGrenade
from game.core.battlefield import Cover, Scene
from game.core.catalog.profiles import GrenadeEffect, Special, Template, WeaponProfile
from game.core.dice import Crit, Modifier, PoolResult, TargetNumber, evaluate_pool
from game.core.geometry.distance import EPS, point_distance
from game.core.geometry.templates import ModelCoverage, TemplateEffect, TemplateFact, TemplateKind, template_coverage
from game.core.rules.attack import (
    check_ammo,
    ranged_reach,
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
from game.core.settings import Settings, SettingsError
from game.core.state import ModelState, SmokeState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

_KIND = {Template.SBT: TemplateKind.SBT, Template.LBT: TemplateKind.LBT, Template.FLAME: TemplateKind.FLAME}
SMOKE_RADIUS = 2.5  # GAP-72: the cloud is an LBT


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


def _check_point(ctx: Ctx, m: ModelState, x: float, y: float, blast: Blast) -> Delivery:

    if not (math.isfinite(x) and math.isfinite(y)):
        raise IllegalAction(f"aim point ({x},{y}) is not a number", "GEO-1")
    if enemy_contacts(ctx, m):
        raise IllegalAction(f"{m.id} is Engaged in melee and may not throw or fire", "GAP-78")
    d, close, far = throw_distance(ctx, m, x, y, blast)
    if close or far:
        reach = blast.range_max * range_multiplier(ctx)
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


def flame_blast(ctx: Ctx, m: ModelState, weapon_id: str) -> Blast:
    """The flame thrower's template, Damage and Burn (ARMORY-5.1.FLAME); it has no range and never deviates."""
    w, p = weapon_and_profile(ctx, m, weapon_id, None)
    effects = frozenset({GrenadeEffect.BURN}) if Special.BURN in p.specials else frozenset()
    return Blast(w.name, w.rule, Template.FLAME, p.damage, effects, 0.0, 0.0, False)


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


def flame_tn(ctx: Ctx, m: ModelState, aim: bool) -> TargetNumber:
    """GAP-73 `flame.auto_hit`=false: the flame rolls one die like any template weapon (GAP-70) at the attacker's
    CA with Aim (+1 CA only, GAP-117); it is aimed at no model and cannot be indirect."""
    return blast_tn(ctx, m, Delivery(None, None, ("flame: aimed at no model",)), aim)


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
    fact = template_coverage(ctx.battlefield, _scene(ctx), TemplateKind.FLAME, None, angle=a.angle,
                             attacker_id=m.id, settings=ctx.settings)
    blast = flame_blast(ctx, m, a.weapon)
    ctx.emit("template", ("ARMORY-5.1.FLAME", "GEO-15", "GEO-16", "GAP-73"), kind="flame", attacker=m.id,
             origin=list(fact.origin), angle=a.angle, models=_coverage_json(fact, _friends(ctx, m, blast, fact)))
    ctx.state.round_counter += 1
    _apply_effects(ctx, m, blast, fact, ctx.state.round_counter)
    return 1


# --- resolution ----------------------------------------------------------------------------------


def _coverage_json(fact: TemplateFact, spare: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Each touched model with its GEO-16 effect, or "spared" for a friend the flame spares (`flame.friendly`)."""
    return [{"model": c.model, "effect": "spared" if c.model in spare else c.effect.value,
             "shielded_by": list(c.shielded_by), "soft_cover": list(c.soft_cover_between)} for c in fact.models]


def _friends(ctx: Ctx, attacker: ModelState, blast: Blast, fact: TemplateFact) -> tuple[str, ...]:
    return tuple(c.model for c in fact.models if c.effect is not TemplateEffect.SHIELDED
                 and spared(ctx.settings, attacker, blast, c.side))


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
    kind = _KIND[blast.template]
    fact = template_coverage(ctx.battlefield, _scene(ctx), kind, (cx, cy, 0.0), settings=ctx.settings)
    ctx.emit("template", ("GEO-15", "GEO-16", "ARMORY-5.2.TEMPLATE-COVER"), kind=kind.value, centre=[cx, cy],
             models=_coverage_json(fact))
    _apply_effects(ctx, m, blast, fact, res_round(ctx))


def deviation_angle(ctx: Ctx) -> float:
    """GEO-18 `deviation.direction`=uniform_continuous: the drift's direction, uniform in [0, 2*pi)."""
    if ctx.settings["deviation.direction"] != "uniform_continuous":
        raise SettingsError(f"setting 'deviation.direction' = {ctx.settings['deviation.direction']!r} is not built")
    return ctx.dice.angle()


def _scene(ctx: Ctx) -> Scene:
    """Templates touch Out of Action figures too when `ooa.targetable` allows it (GAP-93)."""
    return ctx.state.scene(include_ooa=ctx.settings["ooa.targetable"] == "templates_and_melee")


def res_round(ctx: Ctx) -> int:
    return ctx.state.round_counter


def spared(settings: Settings, attacker: ModelState, blast: Blast, side: str) -> bool:
    """GAP-73 `flame.friendly`=false: the flame does not affect the attacker's friends it touches."""
    return blast.template is Template.FLAME and side == attacker.side and not settings["flame.friendly"]


def smoke_cloud(settings: Settings, centre: tuple[float, ...], turn: int) -> SmokeState:
    """GAP-72: an LBT cylinder `smoke.height` tall blocking LOS, until the end of the next turn (`smoke.duration`)."""
    lasts = 1 if settings["smoke.duration"] == "until_end_of_next_turn" else 0
    return {"x": centre[0], "y": centre[1], "z": 0.0, "radius": SMOKE_RADIUS, "height": float(settings["smoke.height"]),
            "expires_after_turn": turn + lasts}


def template_save(ctx: Ctx, m: ModelState, blast: Blast, soft_cover: bool) -> TargetNumber:
    """COMBAT-4.1.SAVE against a template hit: Armor - Damage, +2 behind soft cover (ARMORY-5.2.TEMPLATE-COVER;
    the flame's bonus is `flame.soft_save_bonus`, GAP-73); never the Pinned-in-cover bonus (GAP-75)."""
    assert blast.damage is not None
    flame = blast.template is Template.FLAME
    s = AttackSituation(distance=0.0, template=True, template_soft_cover=soft_cover and not flame)
    sv = save_tn(m, blast.damage, s, catalog=catalog_of(ctx), settings=ctx.settings,
                 target_pinned=ctx.state.units[m.unit].pins > 0)
    bonus = int(ctx.settings["flame.soft_save_bonus"])
    if soft_cover and flame and bonus:
        sv = TargetNumber(sv.base, sv.mods + (Modifier("soft cover vs flame", bonus, "GAP-73"),))
    return sv


def template_will_situation(will_cover: bool) -> AttackSituation:
    """GAP-75: the deflection Will check of a template hit has the cover Will bonus only of a soft piece that gave
    the model its template save bonus (GEO-16) and that its base touches (GEO-12); otherwise none.

    `modifiers.will_tn` grants a cover's Will bonus to a direct, non-template situation, so a check with that
    cover is put as one; the Leader bonus and the models lost are added when the check is taken."""
    if will_cover:
        return AttackSituation(cover=Cover.SOFT, cover_before_elevation=Cover.SOFT)
    return AttackSituation(template=True)


def will_cover(cov: ModelCoverage) -> bool:
    """GAP-75: the model touches a soft piece that gave it the template save bonus."""
    return cov.effect is TemplateEffect.SOFT_COVER and bool(cov.soft_cover_contact)


def _apply_effects(ctx: Ctx, attacker: ModelState, blast: Blast, fact: TemplateFact, round_id: int) -> None:
    st = ctx.state
    if GrenadeEffect.SMOKE in blast.effects:
        centre = fact.origin
        st.smoke.append(smoke_cloud(ctx.settings, centre, st.turn))
        ctx.emit("smoke", ("ARMORY-5.1.GRENADE-TABLE", "GAP-72"), centre=[centre[0], centre[1]],
                 height=ctx.settings["smoke.height"])
    friends = _friends(ctx, attacker, blast, fact)
    if friends:
        ctx.emit("template_spared", ("GAP-73",), models=list(friends),
                 reason="flame.friendly=false: friends are spared")
    for cov in fact.models:
        m = st.models.get(cov.model)
        if m is None or m.dead or cov.effect is TemplateEffect.SHIELDED or cov.model in friends:
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
        sv = template_save(ctx, m, blast, cov.effect is TemplateEffect.SOFT_COVER)
        will_s = template_will_situation(will_cover(cov))
        if GrenadeEffect.BURN in blast.effects:
            st.continuations.append({"kind": "burn", "model": m.id, "save": sv.breakdown(),
                                     "save_dice": max(1, m.profile.save_dice), "round": round_id,
                                     "deflected": 0, "name": blast.name, "will": situation_json(will_s),
                                     "crits": asdict(BurnCrits())})
            continue

        nums = AttackNumbers(1, TargetNumber(Modifier("automatic", 10, "GAP-70")), blast.damage, (), sv,
                             max(1, m.profile.save_dice), None)
        take_hits(ctx, m, 1, nums, will_s, round_id=round_id, ranged=True, what=f"armour save vs {blast.name}",
                  rules=("ARMORY-5.1.SBT-LBT", "GAP-70"))


def _tn_from(breakdown: list[list[Any]]) -> TargetNumber:
    base = Modifier(*breakdown[0])
    return TargetNumber(base, tuple(Modifier(*x) for x in breakdown[1:]))


# --- the Burn (ARMORY-5.1.BURN, GAP-74) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BurnCrits:
    """GAP-74: the saves of one model's Burn are one roll for criticals (INTRO-1.2.CRIT-PER-ROUND): which
    natural 1s and 10s it has shown so far (on the kept dice, and on every die for GAP-14 `any_die`), and
    whether its one crit Pin or one extra action was already given, and the Burn's crit so far."""

    kept_one: bool = False
    kept_ten: bool = False
    any_one: bool = False
    any_ten: bool = False
    pinned: bool = False
    extra: bool = False
    crit: str = "none"


def burn_save(chain: BurnCrits, dice: tuple[int, ...], tn: int,
              settings: Settings) -> tuple[bool, Crit, BurnCrits, bool, bool]:
    """One save of a Burn (ARMORY-5.1.BURN) judged as part of the Burn's one roll (GAP-74): best-of-two armour
    keeps the lower die (COMBAT-4.1.SAVE); a Critical Mix is judged on the dice so far (GAP-11: in a mix, with
    `crit.mix_keeps_auto`=false, the die is compared with the TN normally); the crit Pin comes with the first
    Critical Failure, the extra action with the first Critical Success, never after a mix.

    Returns (saved, the Burn's crit so far, the new chain, a crit Pin now, an extra action now)."""
    kept = min(dice)
    prev = (1,) * chain.kept_one + (10,) * chain.kept_ten
    saved = evaluate_pool(prev + (kept,), tn, settings=settings).success[-1]
    if settings["crit.best_of_two"] == "any_die":
        flat = (1,) * chain.any_one + (10,) * chain.any_ten + tuple(dice)
    else:
        flat = prev + (kept,)
    crit = evaluate_pool(flat, tn, settings=settings).crit
    pin = crit is Crit.FAILURE and not chain.pinned
    extra = crit is Crit.SUCCESS and not chain.extra
    new = BurnCrits(chain.kept_one or kept == 1, chain.kept_ten or kept == 10, chain.any_one or 1 in dice,
                    chain.any_ten or 10 in dice, chain.pinned or pin, chain.extra or extra, crit.value)
    return saved, crit, new, pin, extra


def burn_save_roll(ctx: Ctx, m: ModelState, tn: TargetNumber, save_dice: int, chain: BurnCrits, *,
                   what: str) -> tuple[bool, BurnCrits, PoolResult]:
    """Roll and log one Burn save (`burn_save`): `crit` is what this save changed in the Burn's crit (a roll that
    leaves it as it was shows none), `burn_crit` the Burn's crit so far. Returns the save, the new chain and the
    roll's crit effect for `record_crit` (FAILURE: the Pin now; SUCCESS: the action now)."""
    dice = tuple(ctx.dice.d10() for _ in range(max(1, save_dice)))
    saved, crit, new, pin, extra = burn_save(chain, dice, tn.value, ctx.settings)
    ctx.state.round_counter += 1
    kept = min(dice)
    now = crit if crit.value != chain.crit else Crit.NONE
    rules = ("ARMORY-5.1.BURN", "GAP-74") + (("COMBAT-4.1.SAVE", "GAP-14") if save_dice > 1 else ())
    crit_rule = {Crit.SUCCESS: ("INTRO-1.2.CRIT-SUCCESS",), Crit.FAILURE: ("INTRO-1.2.CRIT-FAIL",),
                 Crit.MIX: ("INTRO-1.2.CRIT-MIX",), Crit.NONE: ()}[now]
    data: dict[str, Any] = {"what": what, "who": m.id, "dice": [kept]}
    if save_dice > 1:
        data["rolled"] = [list(dice)]
    ctx.emit("roll", rules + crit_rule, **data, tn=tn.value, tn_text=tn.text(), breakdown=tn.breakdown(),
             successes=int(saved), outcome=[saved], crit=now.value, burn_crit=crit.value,
             round=ctx.state.round_counter)
    effect = Crit.FAILURE if pin else Crit.SUCCESS if extra else Crit.NONE
    return saved, new, PoolResult((kept,), tn.value, (saved,), effect)


def burn_step(ctx: Ctx, c: dict[str, Any]) -> None:
    """ARMORY-5.1.BURN / GAP-74: save after save until one passes (a deflection: one Will check, unless
    `burn.deflection_will`=false) or the model runs out of Wounds; a Med-Kit may be used between rolls
    (`burn.medkit_between`); all the saves are one roll for criticals (`burn_save`)."""

    st = ctx.state
    m = st.models[c["model"]]
    if not m.in_play:
        return
    tn = _tn_from(c["save"])
    chain = BurnCrits(**c.get("crits", {}))
    saved, chain, effect = burn_save_roll(ctx, m, tn, c["save_dice"], chain, what=f"Burn save vs {c['name']}")
    record_crit(ctx, m.unit, effect, context="offturn", rules=("ARMORY-5.1.BURN", "GAP-74"))
    if saved:
        ctx.emit("burn_out", ("ARMORY-5.1.BURN", "GAP-74"), model=m.id)
        if ctx.settings["burn.deflection_will"]:
            will_s = c.get("will") or situation_json(AttackSituation(template=True))
            st.continuations.insert(0, {"kind": "deflect_will", "model": m.id, "round": c["round"],
                                        "situation": will_s})
        return
    st.continuations.insert(0, dict(c, crits=asdict(chain)))
    if ctx.settings["burn.medkit_between"]:
        inflict_wounds(ctx, m.id, 1, c["round"])
    else:
        inflict_wounds(ctx, m.id, 1, c["round"], kit_window=False)  # GAP-74 `burn.medkit_between`=false


def smoke_will_tn(ctx: Ctx, m: ModelState, *, leader: tuple[Modifier, ...] | None = None) -> TargetNumber:
    """GAP-72: Will at `smoke.will_mod` (-2) with the Leader bonus (SKILL-6.1.LEADER): `leader`, or as the model
    stands now, the new cloud in place."""
    bonus = leader_bonus(ctx, m) if leader is None else leader
    return plain_will_tn(m, (Modifier("smoke", int(ctx.settings["smoke.will_mod"]), "GAP-72"),) + bonus)


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
    res = ctx.roll_pool(1, smoke_will_tn(ctx, m), what="Will check in smoke", who=m.id, rules=("GAP-72",))
    if not res.successes:
        add_pins(ctx, m.unit, int(ctx.settings["smoke.fail_pins"]), reason="failed the smoke Will check",
                 rules=("GAP-72",))
    record_crit(ctx, m.unit, res, context="offturn", rules=("GAP-72",))

