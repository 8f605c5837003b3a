"""Exact odds of grenades, blast weapons and the flame per touched model: the 1-die throw, deviation arcs, the
save and Will check of each model, and the Burn chain (GAP-70..75, GEO-16, GEO-18, ARMORY-5.1.BURN)."""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from game.core.actions import FlameAttack, TemplateAttack, ThrowGrenade
from game.core.battlefield import Battlefield, Point2, Scene
from game.core.catalog.profiles import GrenadeEffect, Special, Template
from game.core.dice import Crit, Modifier, TargetNumber
from game.core.geometry.distance import EPS
from game.core.geometry.indirect import deviation_distance
from game.core.geometry.templates import TemplateKind, template_coverage
from game.core.odds.facts import odds_ctx, unit_facts
from game.core.odds.pools import pool_dist
from game.core.odds.ranged import RoundOdds, Tally, defender_round, will_fn
from game.core.odds.unit import Dist, Snap, UnitFacts, add_pins, decide_medkits, inflict, will_target
from game.core.rules.attack import weapon_and_profile
from game.core.rules.blasts import Blast, blast_tn, delivery, grenade_blast, weapon_blast
from game.core.rules.modifiers import AttackSituation, save_tn
from game.core.rules.queries import aim_pending, catalog_of, leader_bonus, sole_model
from game.core.rules.stats import will_tn as plain_will_tn
from game.core.settings import Settings
from game.core.state import GameState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

_KIND = {Template.SBT: TemplateKind.SBT, Template.LBT: TemplateKind.LBT, Template.FLAME: TemplateKind.FLAME}
EFFECTS = ("affected", "soft_cover", "shielded", "untouched")
Prob = Fraction | float


@dataclass(frozen=True, slots=True)
class Arc:
    """Deviation angles [start, end] (radians, start < end, may exceed 2*pi) giving one template effect (GEO-18)."""

    start: float
    end: float
    effect: str

    @property
    def width(self) -> float:
        return self.end - self.start


def touch_arc(point: Point2, d: float, centre: Point2, reach: float) -> tuple[float, float] | None:
    """The angles t for which |point + d(cos t, sin t) - centre| <= reach, as [start, end], or None if none.

    A full circle is (0, 2*pi). Closed form of templates.template_coverage's touch test (GEO-16, GEO-18)."""
    vx, vy = centre[0] - point[0], centre[1] - point[1]
    dist = math.hypot(vx, vy)
    if dist == 0.0:
        return (0.0, 2 * math.pi) if d <= reach else None
    c = (d * d + dist * dist - reach * reach) / (2.0 * d * dist)
    if c <= -1.0:
        return (0.0, 2 * math.pi)
    if c > 1.0:
        return None
    half = math.acos(c)
    phi = math.atan2(vy, vx)
    return (phi - half, phi + half)


def _effect_at(bf: Battlefield, scene: Scene, kind: TemplateKind, at: Point2, model: str, settings: Settings) -> str:
    cov = template_coverage(bf, scene, kind, (at[0], at[1], 0.0), settings=settings).model(model)
    return "untouched" if cov is None else cov.effect.value


def deviation_arcs(bf: Battlefield, scene: Scene, kind: TemplateKind, point: Point2, model: str, d10: int, *,
                   settings: Settings, samples: int = 64) -> list[Arc]:
    """Where a template deviated by roll `d10` (GEO-18) touches `model`, split by GEO-16 effect.

    The touch arc is exact (closed form); on a table with terrain its sub-arcs per effect are found by sampling
    the resolver's own template_coverage and bisecting each change of effect to 1e-12 rad."""
    base = scene.base(model)
    d = deviation_distance(d10, settings=settings)
    arc = touch_arc(point, d, (base.x, base.y), kind.radius + base.radius + EPS)
    if arc is None:
        return []
    lo, hi = arc
    if not bf.pieces:
        return [Arc(lo, hi, "affected")]

    def eff(t: float) -> str:
        e = _effect_at(bf, scene, kind, (point[0] + d * math.cos(t), point[1] + d * math.sin(t)), model, settings)
        return "affected" if e == "untouched" else e  # the arc's ends are touches; rounding never splits there

    ts = [lo + (hi - lo) * (i + 0.5) / samples for i in range(samples)]
    es = [eff(t) for t in ts]
    cuts = [lo]
    kinds = [es[0]]
    for (t0, e0), (t1, e1) in zip(zip(ts, es, strict=False), zip(ts[1:], es[1:], strict=False), strict=False):
        if e0 == e1:
            continue
        a, b = t0, t1
        while b - a > 1e-12:
            mid = 0.5 * (a + b)
            if eff(mid) == e0:
                a = mid
            else:
                b = mid
        cuts.append(0.5 * (a + b))
        kinds.append(e1)
    cuts.append(hi)
    return [Arc(cuts[i], cuts[i + 1], kinds[i]) for i in range(len(kinds))]


@dataclass(frozen=True, slots=True)
class ModelTemplateOdds:
    """One model and a template: P(each GEO-16 effect) and its round given each effect that hits it."""

    model: str
    effects: dict[str, Prob]
    given: dict[str, RoundOdds]  # "affected" / "soft_cover" -> the model's round (save, Will, or the Burn chain)

    def _mix(self, f: Callable[[RoundOdds], Prob]) -> Prob:
        return sum((self.effects[e] * f(r) for e, r in self.given.items()), Fraction(0))

    @property
    def p_touched(self) -> Prob:
        return 1 - self.effects["untouched"]

    @property
    def p_wound(self) -> Prob:
        return self._mix(lambda r: r.p_wound)

    @property
    def expected_wounds(self) -> Prob:
        return self._mix(lambda r: r.expected_wounds)

    @property
    def p_ooa(self) -> Prob:
        return self._mix(lambda r: r.p_ooa)

    @property
    def p_pinned_by_will(self) -> Prob:
        return self._mix(lambda r: r.p_pinned_by_will)

    @property
    def p_any_pin(self) -> Prob:
        return self._mix(lambda r: r.p_any_pin)


@dataclass(frozen=True, slots=True)
class TemplateOdds:
    """GAP-70: the throw (1 die, or none for the flame), then every model the template may touch."""

    attacker: str
    weapon: str
    tn: TargetNumber | None
    p_hit: Fraction
    attacker_crit: Dist
    models: dict[str, ModelTemplateOdds]


def burn_round(u: UnitFacts, save: TargetNumber, save_group: int, will_tn_of: Any) -> RoundOdds:
    """ARMORY-5.1.BURN / GAP-74 (blasts.burn_step): save after save; a failure is a Wound (Med-Kit decision
    between rolls), a success ends the chain with one deflection Will check; stops when the model is down.
    `hits` counts the saves rolled, `save_crit` the chain of crit results joined by ">"."""
    s = u.settings
    m = u.models[0]
    length = max(1, m.profile.wounds - m.wounds_taken + m.items.count("medkit") + 1)
    g = 10 ** save_group
    denom = g ** length * 10
    snap0 = u.start()
    acc = Tally()
    cache: dict = {}
    wcache: dict = {}
    branches: list[tuple[Snap, int, int, tuple[str, ...], int]] = [(snap0, 0, 0, (),
                                                                    1)]  # snap, rolls, wounds, crits, w
    while branches:
        nxt = []
        for snap, rolls, wounds, crits, w in branches:
            if snap[1][0]:
                _burn_leaf(acc, u.pins_before, snap0, snap, rolls, wounds, 0, crits, "none", "no_roll",
                           w * g ** (length - rolls) * 10)
                continue
            for ok, c, wc in pool_dist(1, save.value, group=save_group, settings=s, cache=cache).outcomes:
                s2 = add_pins(u, snap, 1) if c is Crit.FAILURE else snap
                cr = crits + (c.value,)
                if ok:
                    _burn_will(acc, u, snap0, s2, rolls + 1, wounds, cr, w * wc * g ** (length - rolls - 1),
                               will_tn_of, wcache, cache)
                    continue
                queue: list[tuple[int, int]] = []
                s3 = inflict(u, s2, 0, 1, queue)
                for i, n in queue:
                    s3 = decide_medkits(u, s3, i, n)
                nxt.append((s3, rolls + 1, wounds + 1, cr, w * wc))
        branches = nxt
    return RoundOdds(acc.dist("hits", denom), acc.dist("defl", denom), acc.dist("wounds", denom),
                     acc.dist("ooa", denom),
                     acc.dist("lost", denom), acc.dist("will", denom), acc.dist("will_crit", denom),
                     acc.dist("pins", denom), acc.dist("save_crit", denom))


def _burn_will(acc: Tally, u: UnitFacts, snap0: Snap, snap: Snap, rolls: int, wounds: int, crits: tuple[str, ...],
               w: int, will_tn_of: Any, wcache: dict, cache: dict) -> None:
    target = will_target(u, snap, 0, will_tn_of, wcache)
    if target is None or target[1] is None:
        _burn_leaf(acc, u.pins_before, snap0, snap, rolls, wounds, 1, crits, "none" if target is None else "exempt",
                   "no_roll", w * 10)
        return
    for ok, wc, ww in pool_dist(1, target[1].value, settings=u.settings, cache=cache).outcomes:
        s2 = snap if ok else add_pins(u, snap, 1)
        if wc is Crit.FAILURE:
            s2 = add_pins(u, s2, 1)
        _burn_leaf(acc, u.pins_before, snap0, s2, rolls, wounds, 1, crits, "pass" if ok else "fail", wc.value, w * ww)


def _burn_leaf(acc: Tally, base: int, snap0: Snap, snap: Snap, rolls: int, wounds: int, defl: int,
               crits: tuple[str, ...], will: str, wcrit: str, w: int) -> None:
    acc.add("hits", rolls, w)
    acc.add("defl", defl, w)
    acc.add("wounds", wounds, w)
    acc.add("save_crit", ">".join(crits) or "no_roll", w)
    acc.add("will", will, w)
    acc.add("will_crit", wcrit, w)
    acc.add("ooa", snap[1][0], w)
    acc.add("lost", sum(snap[1]) - sum(snap0[1]), w)
    acc.add("pins", snap[4] - base, w)


def model_round(ctx: Ctx, model_id: str, blast: Any, effect: str) -> RoundOdds:
    """blasts._apply_effects for one touched model: Flash Bang Pin, smoke Will check, then one automatic hit at
    the template Damage with its save (soft cover +2) and Will check, or the Burn chain (GAP-70, GAP-72, GAP-75)."""
    st = ctx.state
    m = st.models[model_id]
    u = unit_facts(ctx, m)
    s = AttackSituation(distance=0.0, template=True, template_soft_cover=effect == "soft_cover")
    pinned = u.pins > 0
    if GrenadeEffect.AUTO_PIN in blast.effects:
        u = _pinned_first(u)
        pinned = u.pins > 0
    if blast.damage is None:
        return _no_damage_round(ctx, u, blast)
    cat = catalog_of(ctx)
    sv = save_tn(m, blast.damage, s, catalog=cat, settings=ctx.settings, target_pinned=pinned)
    group = max(1, m.profile.save_dice)
    if GrenadeEffect.BURN in blast.effects:
        return burn_round(u, sv, group, will_fn(AttackSituation(template=True), catalog=cat, settings=ctx.settings))
    return defender_round(u, {1: 1}, 1, save_tn=sv.value, save_group=group, ranged=True,
                          will_tn_of=will_fn(s, catalog=cat, settings=ctx.settings))


def _pinned_first(u: UnitFacts) -> UnitFacts:
    """The Flash Bang's automatic Pin (GAP-112) lands before anything else: fold it into the starting snapshot."""
    from dataclasses import replace

    snap = add_pins(u, u.start(), 1)
    models = tuple(replace(m, hard_pin_ignored=snap[2][i]) for i, m in enumerate(u.models))
    return replace(u, models=models, pins=snap[4], base_pins=u.pins_before)


def _no_damage_round(ctx: Ctx, u: UnitFacts, blast: Any) -> RoundOdds:
    """Smoke (GAP-72: Will check at `smoke.will_mod`, Gas Mask and Will NA exempt) or a Flash Bang alone: Pins only."""

    m = u.models[0]
    acc = Tally()
    snap0 = u.start()
    base = u.pins_before

    def leaf(snap: Snap, will: str, wc: str, w: int) -> None:
        for name, key in (("hits", 0), ("defl", 0), ("wounds", 0), ("save_crit", "no_roll"), ("ooa", False),
                          ("lost", 0)):
            acc.add(name, key, w)
        acc.add("will", will, w)
        acc.add("will_crit", wc, w)
        acc.add("pins", snap[4] - base, w)

    if GrenadeEffect.SMOKE in blast.effects and m.profile.will is not None and "gas_mask" not in m.items:
        smoke_mod = Modifier("smoke", int(ctx.settings["smoke.will_mod"]), "GAP-72")
        tn = plain_will_tn(m, (smoke_mod,) + leader_bonus(ctx, m))
        for ok, c, w in pool_dist(1, tn.value, settings=u.settings).outcomes:
            s2 = snap0 if ok else add_pins(u, snap0, int(ctx.settings["smoke.fail_pins"]))
            if c is Crit.FAILURE:
                s2 = add_pins(u, s2, 1)
            leaf(s2, "pass" if ok else "fail", c.value, w)
    else:
        smoke = GrenadeEffect.SMOKE in blast.effects
        leaf(snap0, "exempt" if smoke else "none", "no_roll", 10)
    return RoundOdds(*(acc.dist(n, 10) for n in ("hits", "defl", "wounds", "ooa", "lost", "will", "will_crit", "pins",
                                                  "save_crit")))


def _blast_of(ctx: Ctx, m: Any, action: Any) -> Any:
    if isinstance(action, ThrowGrenade):
        return grenade_blast(ctx, action.grenade)
    if isinstance(action, TemplateAttack):
        return weapon_blast(ctx, m, action.weapon, action.profile)[2]
    w, p = weapon_and_profile(ctx, m, action.weapon, None)
    effects = frozenset({GrenadeEffect.BURN}) if Special.BURN in p.specials else frozenset()
    return Blast(w.name, w.rule, Template.FLAME, p.damage, effects, 0.0, 0.0, False)


def _exact(x: float) -> Prob:
    return Fraction(int(x)) if x in (0.0, 1.0) else x


def template_odds(state: GameState, action: Any, *, context: str = "own") -> TemplateOdds:
    """blasts.resolve_blast / do_flame before the roll: P(hit) from blast_tn; on a miss each D10 deviation (GEO-18)
    and the angles that put each model under the template (exact arcs); each model's round per effect."""
    ctx = odds_ctx(state)
    st = state
    m = sole_model(ctx, action.unit)
    blast = _blast_of(ctx, m, action)
    scene = st.scene()
    settings = ctx.settings
    bf = ctx.battlefield
    per_model: dict[str, dict[str, Prob]] = {}
    if isinstance(action, FlameAttack):
        fact = template_coverage(bf, scene, TemplateKind.FLAME, None, angle=action.angle, attacker_id=m.id,
                                 settings=settings)
        for cov in fact.models:
            per_model[cov.model] = {e: Fraction(int(e == cov.effect.value)) for e in EFFECTS}
        tn, p_hit, crit = None, Fraction(1), Dist({"no_roll": 1}, 1)
    else:
        kind = _KIND[blast.template]
        dlv = delivery(ctx, m, action.x, action.y, blast)
        tn = blast_tn(ctx, m, dlv, aim_pending(ctx, m, context))
        roll = pool_dist(1, tn.value, settings=settings)
        hit_w = sum(w for s, _, w in roll.outcomes if s)
        p_hit = Fraction(hit_w, roll.denom)
        crit = Dist({c.value: w for _, c, w in roll.outcomes}, roll.denom)
        on_hit = template_coverage(bf, scene, kind, (action.x, action.y, 0.0), settings=settings)
        for b in scene.bases:
            probs: dict[str, Prob] = {e: Fraction(0) for e in EFFECTS}
            hit_cov = on_hit.model(b.id)
            probs["untouched" if hit_cov is None else hit_cov.effect.value] += p_hit
            for k in range(1, 11):
                arcs = deviation_arcs(bf, scene, kind, (action.x, action.y), b.id, k, settings=settings)
                touched = 0.0
                for a in arcs:
                    frac = _exact(a.width / (2 * math.pi))
                    probs[a.effect] += (1 - p_hit) / 10 * frac
                    touched += a.width / (2 * math.pi)
                probs["untouched"] += (1 - p_hit) / 10 * _exact(1.0 - min(1.0, touched))
            if probs["untouched"] != 1:
                per_model[b.id] = probs
    models = {}
    for mid, probs in per_model.items():
        given = {e: model_round(ctx, mid, blast, e) for e in ("affected", "soft_cover") if probs[e] != 0}
        models[mid] = ModelTemplateOdds(mid, probs, given)
    return TemplateOdds(m.id, blast.name, tn, p_hit, crit, models)
