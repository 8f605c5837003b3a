"""Exact odds of a grenade, blast weapon or flame: the throw, deviation, each touched model's Cases (GAP-70..75)."""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from game.core.actions import FlameAttack
from game.core.battlefield import Base, Battlefield, Point2, Scene
from game.core.catalog.profiles import GrenadeEffect, Template
from game.core.dice import TargetNumber
from game.core.geometry.distance import EPS
from game.core.geometry.indirect import deviation_distance
from game.core.geometry.templates import TemplateFact, TemplateKind, template_coverage
from game.core.odds.deviation import deviation_arcs, touch_arc
from game.core.odds.facts import odds_ctx
from game.core.odds.pools import pool_dist
from game.core.odds.ranged import RoundOdds
from game.core.odds.template_rounds import mix_rounds, model_round
from game.core.odds.unit import Dist
from game.core.rules.delivery import Blast, action_blast, blast_tn, delivery, flame_tn
from game.core.rules.queries import aim_pending, leader_bonus, sole_model
from game.core.rules.template_effects import smoke_cloud, spared, will_cover
from game.core.settings import Settings
from game.core.state import GameState, ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

_KIND = {Template.SBT: TemplateKind.SBT, Template.LBT: TemplateKind.LBT, Template.FLAME: TemplateKind.FLAME}
EFFECTS = ("affected", "soft_cover", "shielded", "untouched")
Prob = Fraction | float


@dataclass(frozen=True, slots=True)
class Case:
    """What a touched model's round depends on besides its own dice, for one landing of the template.

    `effect` is its GEO-16 effect ("affected" or "soft_cover"); `will_cover` whether its deflection check has the
    cover Will bonus (GAP-75); `leaders` the GEO-16 effect of each Leader under the same template whose fate
    decides its Leader bonus (SKILL-6.1.LEADER: he must still be in play when the check is taken); `leader_sees`,
    for smoke, whether its Leader bonus survives the new cloud (GAP-72)."""

    effect: str
    will_cover: bool = False
    leaders: tuple[str, ...] = ()
    leader_sees: bool | None = None


@dataclass(frozen=True, slots=True)
class ModelTemplateOdds:
    """One model and a template: P(each GEO-16 effect), P(each Case) and its round in each Case that hits it."""

    model: str
    effects: dict[str, Prob]
    cases: dict[Case, Prob]
    rounds: dict[Case, RoundOdds]  # the model's round (save, Will, or the Burn chain) in each Case

    @property
    def given(self) -> dict[str, RoundOdds]:
        """The round given each GEO-16 effect, for the effects that come in one Case only."""
        by: dict[str, list[Case]] = {}
        for c in self.rounds:
            by.setdefault(c.effect, []).append(c)
        return {e: self.rounds[cs[0]] for e, cs in by.items() if len(cs) == 1}

    def _mix(self, f: Callable[[RoundOdds], Prob]) -> Prob:
        return sum((self.cases[c] * f(r) for c, r in self.rounds.items()), Fraction(0))

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
    """GAP-70: the throw (1 die; for the flame none, or one with `flame.auto_hit`=false), then every model the
    template may touch."""

    attacker: str
    weapon: str
    tn: TargetNumber | None
    p_hit: Fraction
    attacker_crit: Dist
    models: dict[str, ModelTemplateOdds]
    on_hit: dict[str, Case | str]  # each model's Case (or "untouched", "shielded", "spared") when the throw hits


def _exact(x: float) -> Prob:
    return Fraction(int(x)) if x in (0.0, 1.0) else x


class _Plan:
    """What each touched model's round depends on beyond its own dice and effect, read through the resolver's
    own functions: the Leaders under the same template whose fate decides its Leader bonus (their saves come
    first: all of them before any Will check, or the earlier Burn chains), and for smoke the new cloud."""

    def __init__(self, ctx: Ctx, attacker: ModelState, blast: Blast, scene: Scene) -> None:
        self.ctx, self.attacker, self.blast, self.scene = ctx, attacker, blast, scene
        self.order = [b.id for b in scene.bases]
        self.smoke = GrenadeEffect.SMOKE in blast.effects
        self.damage = blast.damage is not None
        self._what_if: Ctx | None = None
        self._down: dict[tuple[str, str], Fraction] = {}
        self._rounds: dict[tuple[str, str, bool, bool | None], RoundOdds] = {}
        self.leaders: dict[str, tuple[str, ...]] = {}
        self.sees: dict[str, bool] = {}

    def what_if(self) -> Ctx:
        """A private copy of the game to ask the resolver's questions of a state the attack may bring about."""
        if self._what_if is None:
            self._what_if = odds_ctx(self.ctx.state.clone())
        return self._what_if

    def bonus_if_down(self, model: str, down: tuple[str, ...]) -> bool:
        """queries.leader_bonus of `model` once the models `down` are Out of Action."""
        w = self.what_if()
        saved = [(x, w.state.models[x].ooa) for x in down]
        for x in down:
            w.state.models[x].ooa = True
        try:
            return bool(leader_bonus(w, w.state.models[model]))
        finally:
            for x, v in saved:
                w.state.models[x].ooa = v

    def prepare(self, touchable: set[str]) -> None:
        """Each model's deciding Leaders (SKILL-6.1.LEADER) among those the template may touch."""
        st = self.ctx.state
        burn = GrenadeEffect.BURN in self.blast.effects
        for mid in touchable:
            m = st.models[mid]
            if self.smoke:
                self.sees[mid] = bool(leader_bonus(self.ctx, m))
            if not self.damage or not leader_bonus(self.ctx, m):
                continue
            cands = tuple(x for x in self.order if x in touchable and x != mid and st.models[x].side == m.side
                          and st.models[x].profile.leader and (not burn or self.order.index(x) < self.order.index(mid)))
            if cands and not self.bonus_if_down(mid, cands):
                self.leaders[mid] = cands

    def varies(self, model: str) -> bool:
        return bool(self.leaders.get(model)) or self.sees.get(model, False)

    def case(self, model: str, fact: TemplateFact, at: Point2, *, rounding: bool = False) -> Case | str:
        """The model's Case for a template placed as `fact` (centred at `at`), or its effect if it is not hit."""
        cov = fact.model(model)
        if cov is None and not rounding:
            return "untouched"
        effect = "affected" if cov is None else cov.effect.value
        if effect == "shielded":
            return "shielded"
        if spared(self.ctx.settings, self.attacker, self.blast, self.ctx.state.models[model].side):
            return "spared"
        leaders = tuple(_effect_of(fact, x) for x in self.leaders.get(model, ()))
        sees = None
        if self.smoke:
            sees = self.sees.get(model, False) and self._sees_through(model, at)
        return Case(effect, self.damage and cov is not None and will_cover(cov), leaders, sees)

    def _sees_through(self, model: str, at: Point2) -> bool:
        w = self.what_if()
        base = list(w.state.smoke)
        w.state.smoke.append(smoke_cloud(w.settings, at, w.state.turn))
        try:
            return bool(leader_bonus(w, w.state.models[model]))
        finally:
            w.state.smoke[:] = base

    def p_down(self, leader: str, effect: str) -> Fraction:
        """P(the Leader is Out of Action after his own round under this template), SKILL-6.1.LEADER."""
        if effect not in ("affected", "soft_cover"):
            return Fraction(0)
        if (leader, effect) not in self._down:
            p = model_round(self.ctx, leader, self.blast, effect, leader=False).p_ooa
            self._down[(leader, effect)] = Fraction(p)
        return self._down[(leader, effect)]

    def round(self, model: str, case: Case) -> RoundOdds:
        """The model's round in a Case: with a Leader's fate undecided, the exact mixture over it."""
        if case.leader_sees is not None:
            return self._round(model, case.effect, case.will_cover, case.leader_sees)
        cands = self.leaders.get(model, ())
        if not cands:
            return self._round(model, case.effect, case.will_cover, None)
        weights: dict[bool, Fraction] = {}
        for down in itertools.product((False, True), repeat=len(cands)):
            p = Fraction(1)
            for x, eff, d in zip(cands, case.leaders, down, strict=True):
                q = self.p_down(x, eff)
                p *= q if d else 1 - q
            if p:
                bonus = self.bonus_if_down(model, tuple(x for x, d in zip(cands, down, strict=True) if d))
                weights[bonus] = weights.get(bonus, Fraction(0)) + p
        return mix_rounds([(p, self._round(model, case.effect, case.will_cover, b)) for b, p in weights.items()])

    def _round(self, model: str, effect: str, cover: bool, bonus: bool | None) -> RoundOdds:
        key = (model, effect, cover, bonus)
        if key not in self._rounds:
            self._rounds[key] = model_round(self.ctx, model, self.blast, effect, will_cover=cover, leader=bonus)
        return self._rounds[key]


def _effect_of(fact: TemplateFact, model: str) -> str:
    cov = fact.model(model)
    return "untouched" if cov is None else cov.effect.value


def _add(probs: dict[Any, Prob], key: Any, p: Prob) -> None:
    if p:
        probs[key] = probs.get(key, Fraction(0)) + p


def template_odds(state: GameState, action: Any, *, context: str = "own") -> TemplateOdds:
    """blasts.resolve_blast / do_flame before the roll: P(hit) from blast_tn (the flame: none, or flame_tn with
    `flame.auto_hit`=false); on a miss each D10 deviation (GEO-18) and the angles that put each model under the
    template (exact arcs); each model's round in each Case."""
    ctx = odds_ctx(state)
    st = state
    m = sole_model(ctx, action.unit)
    blast = action_blast(ctx, m, action)
    scene = st.scene()
    settings = ctx.settings
    bf = ctx.battlefield
    plan = _Plan(ctx, m, blast, scene)
    per_model: dict[str, dict[Any, Prob]] = {}
    if isinstance(action, FlameAttack):
        fact = template_coverage(bf, scene, TemplateKind.FLAME, None, angle=action.angle, attacker_id=m.id,
                                 settings=settings)
        if settings["flame.auto_hit"]:
            tn, p_hit, crit = None, Fraction(1), Dist({"no_roll": 1}, 1)
        else:
            tn = flame_tn(ctx, m, aim_pending(ctx, m, context))
            p_hit, crit = _throw(tn, settings)
        plan.prepare({c.model for c in fact.models})
        on_hit: dict[str, Case | str] = {}
        for cov in fact.models:
            probs: dict[Any, Prob] = {}
            on_hit[cov.model] = plan.case(cov.model, fact, fact.origin[:2])
            _add(probs, on_hit[cov.model], p_hit)
            _add(probs, "untouched", 1 - p_hit)
            per_model[cov.model] = probs
    else:
        kind = _KIND[blast.template]
        dlv = delivery(ctx, m, action.x, action.y, blast)
        tn = blast_tn(ctx, m, dlv, aim_pending(ctx, m, context))
        p_hit, crit = _throw(tn, settings)
        point = (action.x, action.y)
        on_fact = template_coverage(bf, scene, kind, (point[0], point[1], 0.0), settings=settings)
        touchable = {b.id for b in scene.bases if _touchable(on_fact, kind, point, b, p_hit, settings)}
        plan.prepare(touchable)
        on_hit = {b: plan.case(b, on_fact, point) for b in sorted(touchable)}
        for b in touchable:
            if plan.varies(b) or (bf.pieces and blast.damage is not None):
                per_model[b] = _case_probs(plan, bf, scene, kind, point, b, p_hit, settings)
            else:
                per_model[b] = _plain_cases(plan, _effect_probs(bf, scene, kind, point, b, p_hit, settings), b)
    models = {}
    for mid, probs in per_model.items():
        effects: dict[str, Prob] = {e: Fraction(0) for e in EFFECTS}
        rounds = {}
        for key, p in probs.items():
            e = key.effect if isinstance(key, Case) else ("shielded" if key == "spared" else key)
            effects[e] = effects[e] + p
            if isinstance(key, Case):
                rounds[key] = plan.round(mid, key)
        if effects["untouched"] != 1:
            models[mid] = ModelTemplateOdds(mid, effects, {k: v for k, v in probs.items() if isinstance(k, Case)},
                                            rounds)
    return TemplateOdds(m.id, blast.name, tn, p_hit, crit, models, on_hit)


def _throw(tn: TargetNumber, settings: Settings) -> tuple[Fraction, Dist]:
    """GAP-70: one die at the throw's TN: P(hit) and its crit."""
    roll = pool_dist(1, tn.value, settings=settings)
    hit_w = sum(w for s, _, w in roll.outcomes if s)
    return Fraction(hit_w, roll.denom), Dist({c.value: w for _, c, w in roll.outcomes}, roll.denom)


def _touchable(on_fact: TemplateFact, kind: TemplateKind, point: Point2, b: Base, p_hit: Fraction,
               settings: Settings) -> bool:
    """The template can land on b: where it is aimed (if it can hit), or on some deviation (GEO-18, closed form)."""
    if p_hit and on_fact.model(b.id) is not None:
        return True
    reach = kind.radius + b.radius + EPS
    return p_hit != 1 and any(touch_arc(point, deviation_distance(k, settings=settings), (b.x, b.y), reach)
                              is not None for k in range(1, 11))


def _effect_probs(bf: Battlefield, scene: Scene, kind: TemplateKind, point: Point2, model: str, p_hit: Fraction,
                  settings: Settings) -> dict[str, Prob]:
    """P(each GEO-16 effect) for one model: on the point with P(hit), else over the ten deviations' arcs."""
    probs: dict[str, Prob] = {e: Fraction(0) for e in EFFECTS}
    hit_cov = template_coverage(bf, scene, kind, (point[0], point[1], 0.0), settings=settings).model(model)
    probs["untouched" if hit_cov is None else hit_cov.effect.value] += p_hit
    for k in range(1, 11):
        touched = 0.0
        for a in deviation_arcs(bf, scene, kind, point, model, k, settings=settings):
            probs[a.effect] += (1 - p_hit) / 10 * _exact(a.width / (2 * math.pi))
            touched += a.width / (2 * math.pi)
        probs["untouched"] += (1 - p_hit) / 10 * _exact(1.0 - min(1.0, touched))
    return probs


def _plain_cases(plan: _Plan, effects: dict[str, Prob], model: str) -> dict[Any, Prob]:
    """A model whose round depends on its GEO-16 effect alone (an open table, no deciding Leader, no smoke LOS)."""
    probs: dict[Any, Prob] = {}
    spare = spared(plan.ctx.settings, plan.attacker, plan.blast, plan.ctx.state.models[model].side)
    for e, p in effects.items():
        if e in ("affected", "soft_cover") and not spare:
            _add(probs, Case(e, False, (), plan.sees.get(model) if plan.smoke else None), p)
        else:
            _add(probs, "spared" if e in ("affected", "soft_cover") else e, p)
    return probs


def _case_probs(plan: _Plan, bf: Battlefield, scene: Scene, kind: TemplateKind, point: Point2, model: str,
                p_hit: Fraction, settings: Settings) -> dict[Any, Prob]:
    """P(each Case) for one model: on the point with P(hit), else over the deviations' arcs split by Case."""
    probs: dict[Any, Prob] = {}

    def case_at(at: Point2, rounding: bool = False) -> Case | str:
        fact = template_coverage(bf, scene, kind, (at[0], at[1], 0.0), settings=settings)
        return plan.case(model, fact, at, rounding=rounding)

    _add(probs, case_at(point), p_hit)
    for k in range(1, 11):
        d = deviation_distance(k, settings=settings)
        seeds = []
        for x in plan.leaders.get(model, ()):
            b = scene.base(x)
            arc = touch_arc(point, d, (b.x, b.y), kind.radius + b.radius + EPS)
            if arc is not None:
                seeds += [arc[0], arc[1]]
        touched = 0.0
        for a in deviation_arcs(bf, scene, kind, point, model, k, settings=settings,
                                key=lambda at: case_at(at, rounding=True), seeds=tuple(seeds)):
            _add(probs, a.effect, (1 - p_hit) / 10 * _exact(a.width / (2 * math.pi)))
            touched += a.width / (2 * math.pi)
        _add(probs, "untouched", (1 - p_hit) / 10 * _exact(1.0 - min(1.0, touched)))
    return probs
