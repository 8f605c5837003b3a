"""One touched model's round under a template: save and Will, smoke, Flash Bang, the Burn chain (GAP-70, GAP-72..75)."""
from __future__ import annotations

import itertools
import math
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from game.core.catalog.profiles import GrenadeEffect
from game.core.dice import Crit, TargetNumber
from game.core.odds.facts import unit_facts
from game.core.odds.pools import pool_dist
from game.core.odds.ranged import RoundOdds, Tally, defender_round, will_fn
from game.core.odds.unit import Dist, Snap, UnitFacts, add_pins, decide_medkits, inflict, settle, will_target
from game.core.rules.burn import BurnCrits, burn_save
from game.core.rules.delivery import Blast
from game.core.rules.queries import catalog_of, leader_bonus
from game.core.rules.template_effects import smoke_will_tn, template_save, template_will_situation

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

_ROUND_FIELDS = ("hits", "deflections", "wounds", "ooa", "models_lost", "will", "will_crit", "pins", "save_crit")


def mix_rounds(parts: list[tuple[Fraction, RoundOdds]]) -> RoundOdds:
    """The exact mixture sum(p * round) of rounds with Fraction weights summing to 1, over one denominator."""
    if len(parts) == 1:
        return parts[0][1]
    fields = []
    for name in _ROUND_FIELDS:
        acc: dict[Any, Fraction] = {}
        for p, r in parts:
            d: Dist = getattr(r, name)
            for k, w in d.weights.items():
                acc[k] = acc.get(k, Fraction(0)) + p * Fraction(w, d.denom)
        denom = math.lcm(1, *(f.denominator for f in acc.values()))
        fields.append(Dist({k: int(f * denom) for k, f in acc.items() if f}, denom))
    return RoundOdds(*fields)


def _group_outcomes(group: int) -> list[tuple[tuple[int, ...], int]]:
    """One save of `group` dice (best-of-two keeps the lower, COMBAT-4.1.SAVE) by what `burn_save` reads of it:
    the kept face and whether any die shows 1 or 10, with the count of face tuples of each (over 10**group)."""
    buckets: dict[tuple[int, bool, bool], list[Any]] = {}
    for dice in itertools.product(range(1, 11), repeat=group):
        k = (min(dice), 1 in dice, 10 in dice)
        if k not in buckets:
            buckets[k] = [dice, 0]
        buckets[k][1] += 1
    return [(b[0], b[1]) for b in buckets.values()]


def burn_round(u: UnitFacts, save: TargetNumber, save_group: int, will_tn_of: Any, *, deflection_will: bool = True,
               medkit_between: bool = True) -> RoundOdds:
    """ARMORY-5.1.BURN / GAP-74 (rules.burn.burn_step): save after save; a failure is a Wound (Med-Kit decision
    between rolls, `burn.medkit_between`), a success ends the chain with one deflection Will check
    (`burn.deflection_will`); stops when the model is down. The saves are one roll for criticals
    (rules.burn.burn_save: one crit Pin at most, a Critical Mix judged on the dice so far). `hits` counts the saves
    rolled, `save_crit` is the Burn's crit as one roll."""
    s = u.settings
    i0 = u.hit
    m = u.models[i0]
    length = max(1, m.profile.wounds - m.wounds_taken + m.items.count("medkit") + 1)
    g = 10 ** save_group
    denom = g ** length * 10
    snap0 = u.start()
    acc = Tally()
    wcache: dict = {}
    cache: dict = {}
    outcomes = _group_outcomes(save_group)
    # snap, rolls, wounds, the Burn's crits so far, its crit value, weight
    branches: list[tuple[Snap, int, int, BurnCrits, str, int]] = [(snap0, 0, 0, BurnCrits(), "no_roll", 1)]
    while branches:
        merged: dict[tuple[Snap, int, int, BurnCrits, str], int] = {}
        for snap, rolls, wounds, chain, crit, w in branches:
            if snap[1][i0]:
                _burn_leaf(acc, u, snap0, snap, rolls, wounds, 0, crit, "none", "no_roll",
                           w * g ** (length - rolls) * 10)
                continue
            for dice, count in outcomes:
                ok, c, new, pin, _ = burn_save(chain, dice, save.value, s)
                s2 = add_pins(u, snap, 1) if pin else snap
                wc = w * count
                if ok:
                    rest = wc * g ** (length - rolls - 1)
                    if deflection_will:
                        _burn_will(acc, u, snap0, s2, rolls + 1, wounds, c.value, rest, will_tn_of, wcache, cache)
                    else:
                        _burn_leaf(acc, u, snap0, s2, rolls + 1, wounds, 1, c.value, "none", "no_roll", rest * 10)
                    continue
                queue: list[tuple[int, int]] = []
                s3 = inflict(u, s2, i0, 1, queue)
                for i, n in queue:
                    s3 = decide_medkits(u, s3, i, n) if medkit_between else settle(u, s3, i)
                key = (s3, rolls + 1, wounds + 1, new, c.value)
                merged[key] = merged.get(key, 0) + wc
        branches = [(*k, w) for k, w in merged.items()]
    return RoundOdds(*(acc.dist(n, denom) for n in ("hits", "defl", "wounds", "ooa", "lost", "will", "will_crit",
                                                     "pins", "save_crit")))


def _burn_will(acc: Tally, u: UnitFacts, snap0: Snap, snap: Snap, rolls: int, wounds: int, crit: str,
               w: int, will_tn_of: Any, wcache: dict, cache: dict) -> None:
    target = will_target(u, snap, u.hit, will_tn_of, wcache)
    if target is None or target[1] is None:
        _burn_leaf(acc, u, snap0, snap, rolls, wounds, 1, crit, "none" if target is None else "exempt",
                   "no_roll", w * 10)
        return
    for ok, wc, ww in pool_dist(1, target[1].value, settings=u.settings, cache=cache).outcomes:
        s2 = snap if ok else add_pins(u, snap, 1)
        if wc is Crit.FAILURE:
            s2 = add_pins(u, s2, 1)
        _burn_leaf(acc, u, snap0, s2, rolls, wounds, 1, crit, "pass" if ok else "fail", wc.value, w * ww)


def _burn_leaf(acc: Tally, u: UnitFacts, snap0: Snap, snap: Snap, rolls: int, wounds: int, defl: int,
               crit: str, will: str, wcrit: str, w: int) -> None:
    acc.add("hits", rolls, w)
    acc.add("defl", defl, w)
    acc.add("wounds", wounds, w)
    acc.add("save_crit", crit, w)
    acc.add("will", will, w)
    acc.add("will_crit", wcrit, w)
    acc.add("ooa", snap[1][u.hit], w)
    acc.add("lost", sum(snap[1]) - sum(snap0[1]), w)
    acc.add("pins", snap[4] - u.pins_before, w)


def model_round(ctx: Ctx, model_id: str, blast: Blast, effect: str, *, will_cover: bool = False,
                leader: bool | None = None) -> RoundOdds:
    """template_effects.apply_template_effects for one touched model: Flash Bang Pin, smoke Will check, then one
    automatic hit at the template Damage with its save (template_effects.template_save) and Will check
    (template_effects.template_will_situation, GAP-75), or the Burn chain (GAP-70, GAP-72, GAP-74). `leader`: its
    Leader bonus when the check is taken (None: as it stands now, queries.leader_bonus)."""
    st = ctx.state
    m = st.models[model_id]
    u = unit_facts(ctx, m)
    bonus = bool(leader_bonus(ctx, m)) if leader is None else leader
    if GrenadeEffect.AUTO_PIN in blast.effects:
        u = _pinned_first(u)
    if blast.damage is None:
        return _no_damage_round(ctx, u, blast, bonus)
    cat = catalog_of(ctx)
    sv = template_save(ctx, m, blast, effect == "soft_cover")
    group = max(1, m.profile.save_dice)
    wf = will_fn(replace(template_will_situation(will_cover), leader_bonus=bonus), catalog=cat, settings=ctx.settings)
    if GrenadeEffect.BURN in blast.effects:
        return burn_round(u, sv, group, wf, deflection_will=bool(ctx.settings["burn.deflection_will"]),
                          medkit_between=bool(ctx.settings["burn.medkit_between"]))
    return defender_round(u, {1: 1}, 1, save_tn=sv.value, save_group=group, ranged=True, will_tn_of=wf)


def _pinned_first(u: UnitFacts) -> UnitFacts:
    """The Flash Bang's automatic Pin (GAP-112) lands before anything else: fold it into the starting snapshot."""
    snap = add_pins(u, u.start(), 1)
    models = tuple(replace(m, hard_pin_ignored=snap[2][i]) for i, m in enumerate(u.models))
    return replace(u, models=models, pins=snap[4], base_pins=u.pins_before)


def _no_damage_round(ctx: Ctx, u: UnitFacts, blast: Blast, bonus: bool) -> RoundOdds:
    """Smoke (GAP-72: Will check at `smoke.will_mod`, Gas Mask and Will NA exempt) or a Flash Bang alone: Pins only."""

    m = u.models[u.hit]
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
        tn = smoke_will_tn(ctx, m, leader=leader_bonus(ctx, m) if bonus else ())
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
