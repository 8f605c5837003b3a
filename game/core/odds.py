"""Exact odds of a declared attack before it is rolled, from the resolver's own TN function and steps (COMBAT-4.*)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable

from game.core.dice import Crit, TargetNumber
from game.core.modifiers import AttackNumbers, AttackSituation, will_tn
from game.core.odds_pools import pool_dist, pool_dists
from game.core.odds_unit import Dist, Snap, UnitFacts, add_pins, inflict_on_unit, will_target
from game.core.settings import Settings
from game.core.state import ModelState

CRITS = ("none", "success", "failure", "mix")
_FAILURE = Crit.FAILURE


class _Acc:
    """Named marginals accumulated from weighted leaves (integer weights over one denominator)."""

    __slots__ = ("d",)

    def __init__(self) -> None:
        self.d: dict[str, dict[Any, int]] = {}

    def add(self, name: str, key: Any, w: int) -> None:
        m = self.d.setdefault(name, {})
        m[key] = m.get(key, 0) + w

    def dist(self, name: str, denom: int) -> Dist:
        return Dist(dict(self.d.get(name, {})), denom)


@dataclass(frozen=True, slots=True)
class RoundOdds:
    """The defender's side of one round of hits (COMBAT-4.3.RANGED-RESULTS, COMBAT-4.3.DEFLECT-WILL).

    `wounds` counts unsaved hits; `pins` the change of the unit's Pinned counters over the round (the deflection
    Will check, Critical Failures of its saves and Will check, Med-Kits; discarded if the unit goes OOA, GAP-33);
    `save_crit` includes "no_roll" when there was no hit to save."""

    hits: Dist
    deflections: Dist
    wounds: Dist
    ooa: Dist  # True/False: the hit model is Out of Action at the end of the round
    models_lost: Dist
    will: Dist  # "none" (no check), "exempt", "pass", "fail"
    will_crit: Dist
    pins: Dist
    save_crit: Dist

    @property
    def expected_wounds(self) -> Fraction:
        return self.wounds.mean()

    @property
    def p_wound(self) -> Fraction:
        return self.wounds.at_least(1)

    @property
    def p_ooa(self) -> Fraction:
        return self.ooa.p(True)

    @property
    def p_pinned_by_will(self) -> Fraction:
        """P(the deflection Will check is failed): the TV-01/TV-03 quantity (INTRO-1.2.CRIT-SCOPE)."""
        return self.will.p("fail")

    @property
    def p_any_pin(self) -> Fraction:
        return self.pins.at_least(1)


@dataclass(frozen=True, slots=True)
class RangedOdds:
    """A ranged attack (COMBAT-4.1.RANGED, SKILL-6.1.UNLOAD): its numbers, the attacker's crits, the target's round."""

    attacker: str
    target: str
    numbers: AttackNumbers
    attacker_crit: Dist
    attack_hits: Dist  # the attacker's hits (before any GAP-76 assignment)
    target_round: RoundOdds
    share: Fraction = Fraction(1)  # GAP-76: each hit lands on the target with this chance (firing into melee)

    @property
    def hits(self) -> Dist:
        return self.attack_hits

    def summary(self) -> dict[str, Fraction]:
        r = self.target_round
        return {"p_hit": self.attack_hits.at_least(1), "expected_wounds": r.expected_wounds,
                "p_wound": r.p_wound, "p_ooa": r.p_ooa, "p_pinned_by_will": r.p_pinned_by_will,
                "p_any_pin": r.p_any_pin}


def defender_round(u: UnitFacts, hits: dict[int, int], hits_denom: int, *, save_tn: int, save_group: int,
                   ranged: bool, will_tn_of: Callable[[ModelState, int], TargetNumber | None] | None,
                   first: int = 0, cache: dict | None = None) -> RoundOdds:
    """Saves for h hits in one roll, Critical Failure Pin, Wounds first, then one Will check for the round's
    deflections (combat.take_hits + deflection_will; COMBAT-4.1.SAVE, COMBAT-4.3.ORDER, COMBAT-4.3.DEFLECT-WILL).

    Branches are merged as soon as they agree: per hit count, save outcomes by (deflections, Critical Failure);
    after the Will check, by (snapshot, result). Crit marginals are summed per roll, not per branch."""
    s = u.settings
    cache = {} if cache is None else cache
    wcache: dict = {}
    nmax = max(hits) if hits else 0
    gd = 10 ** save_group
    full = gd ** nmax
    denom = hits_denom * full * 10
    snap0 = u.start()
    pins0 = u.pins_before
    lost0 = sum(snap0[1])
    defl: dict[int, int] = {}
    wounds: dict[int, int] = {}
    save_crit: dict[Crit | None, int] = {}
    will_crit: dict[str, int] = {}
    will_by_tn: dict[int, int] = {}
    final: dict[tuple[int, str], int] = {}  # (snapshot id, Will result) -> weight
    ids: dict[Snap, int] = {}
    after: dict[tuple[bool, int, bool], tuple[Snap, Any]] = {}  # (save crit Pin, wounds, deflected) -> state, Will
    pools = pool_dists(nmax, save_tn, group=save_group, settings=s, cache=cache) if nmax and not snap0[1][first] else []
    for h, wh in hits.items():
        if h <= 0 or snap0[1][first]:
            w = wh * full * 10
            defl[0] = defl.get(0, 0) + w
            wounds[0] = wounds.get(0, 0) + w
            save_crit[None] = save_crit.get(None, 0) + w
            will_crit["no_roll"] = will_crit.get("no_roll", 0) + w
            k0 = (ids.setdefault(snap0, len(ids)), "none")
            final[k0] = final.get(k0, 0) + w
            continue
        scale = wh * gd ** (nmax - h) * 10
        pool = pools[h]
        for c, w in pool.by_crit:
            save_crit[c] = save_crit.get(c, 0) + w * scale
        groups: dict[tuple[int, bool], int] = {}
        for d in range(h + 1):
            w = pool.by_succ[d]
            if not w:
                continue
            defl[d] = defl.get(d, 0) + w * scale
            wounds[h - d] = wounds.get(h - d, 0) + w * scale
            f = pool.fail_by_succ[d]
            if f:
                groups[(d, True)] = f
            if w - f:
                groups[(d, False)] = w - f
        for (d, pinned), ws in groups.items():
            skey = (pinned, h - d, d > 0)
            if skey not in after:
                entries, tn = _after_saves(u, snap0, first, pinned, h - d, ranged and d > 0 and will_tn_of is not None,
                                           will_tn_of, wcache, cache)
                after[skey] = ([((ids.setdefault(sn, len(ids)), will), f) for (sn, will), f in entries], tn)
            entries, tn = after[skey]
            w = ws * wh * gd ** (nmax - h)  # over hits_denom * full; the Will die adds a factor 10
            if tn is None:
                will_crit["no_roll"] = will_crit.get("no_roll", 0) + w * 10
            else:
                will_by_tn[tn] = will_by_tn.get(tn, 0) + w
            for key, f in entries:
                final[key] = final.get(key, 0) + w * f
    for tn, w in will_by_tn.items():
        for _, wc, ww in pool_dist(1, tn, settings=s, cache=cache).outcomes:
            will_crit[wc.value] = will_crit.get(wc.value, 0) + w * ww
    acc = _Acc()
    snaps = list(ids)
    for (sid, will), w in final.items():
        snap = snaps[sid]
        acc.add("will", will, w)
        acc.add("ooa", snap[1][first], w)
        acc.add("lost", sum(snap[1]) - lost0, w)
        acc.add("pins", snap[4] - pins0, w)
    hits_w = {h: w * full * 10 for h, w in hits.items()}
    return RoundOdds(Dist(hits_w, denom), Dist(defl, denom), Dist(wounds, denom), acc.dist("ooa", denom),
                     acc.dist("lost", denom), acc.dist("will", denom), Dist(will_crit, denom), acc.dist("pins", denom),
                     Dist({("no_roll" if c is None else c.value): w for c, w in save_crit.items()}, denom))


def _after_saves(u: UnitFacts, snap0: Snap, first: int, pinned: bool, wounds: int, will: bool, will_tn_of: Any,
                 wcache: dict, cache: dict) -> tuple[list[tuple[tuple[Snap, str], int]], int | None]:
    """One save result's consequences: the Critical Failure Pin, the Wounds, then the Will check's three ends
    (pass; fail: 1 Pin; fail on a natural 10: 2 Pins) as (final key, weight over 10), and the Will TN if rolled."""
    snap = add_pins(u, snap0, 1) if pinned else snap0
    snap = inflict_on_unit(u, snap, first, wounds)
    target = will_target(u, snap, first, will_tn_of, wcache) if will else None
    if target is None or target[1] is None:
        return [((snap, "none" if target is None else "exempt"), 10)], None
    tn = target[1].value
    out: dict[tuple[Snap, str], int] = {}
    for ok, wc, ww in pool_dist(1, tn, settings=u.settings, cache=cache).outcomes:
        if ok:
            key = (snap, "pass")
        else:
            s2 = add_pins(u, snap, 1)
            key = (add_pins(u, s2, 1) if wc is _FAILURE else s2, "fail")
        out[key] = out.get(key, 0) + ww
    return list(out.items()), tn


def will_fn(situation: AttackSituation, *, catalog: Any, settings: Settings) -> Callable[[ModelState, int], TargetNumber | None]:
    """The deflection check's TN for a model as it stands, with models lost (modifiers.will_tn, the one TN function)."""
    def tn(m: ModelState, lost: int) -> TargetNumber | None:
        s = situation if lost == situation.casualties else replace(situation, casualties=lost)
        return will_tn(m, s, catalog=catalog, settings=settings)[0]
    return tn


def ranged_round(attacker: str, target: str, nums: AttackNumbers, unit: UnitFacts, situation: AttackSituation, *,
                 catalog: Any, first: int = 0, share_k: int = 1, cache: dict | None = None) -> RangedOdds:
    """COMBAT-4.1.RANGED: one roll of `nums.dice` at the hit TN, then the target's round. With `share_k` > 1
    (GAP-76 `melee.fire_into`=random_per_hit) each hit lands on the target with chance 1/k."""
    s = unit.settings
    cache = {} if cache is None else cache
    atk = pool_dist(nums.dice, nums.hit.value, settings=s, cache=cache)
    by_hits = {h: w for h, w in enumerate(atk.by_succ) if w}
    crit = {c.value: w for c, w in atk.by_crit if w}
    denom = atk.denom
    attack_hits = Dist(dict(by_hits), denom)
    if share_k > 1:
        by_hits, denom = _thin(by_hits, denom, share_k)
    rnd = defender_round(unit, by_hits, denom, save_tn=nums.save.value, save_group=nums.save_dice, ranged=True,
                         will_tn_of=will_fn(situation, catalog=catalog, settings=s), first=first, cache=cache)
    return RangedOdds(attacker, target, nums, Dist(crit, atk.denom), attack_hits, rnd, Fraction(1, share_k))


def _thin(by_hits: dict[int, int], denom: int, k: int) -> tuple[dict[int, int], int]:
    """Hits landing on the target when each is assigned uniformly among k models (GAP-76): binomial thinning."""
    from math import comb

    nmax = max(by_hits)
    out: dict[int, int] = {}
    for h, w in by_hits.items():
        for j in range(h + 1):
            out[j] = out.get(j, 0) + w * comb(h, j) * (k - 1) ** (h - j) * k ** (nmax - h)
    return out, denom * k ** nmax


def initiative_odds(pinned_a: int, pinned_b: int) -> dict[str, Fraction]:
    """CORE-3.1.INITIATIVE / GAP-16 (rules.roll_initiative): each side rolls D10 minus its Pinned units; ties
    re-roll with the same modifiers, so P(A wins) = P(A higher) / (1 - P(tie)) (TV-18)."""
    higher = tie = 0
    for fa in range(1, 11):
        for fb in range(1, 11):
            ra, rb = fa - pinned_a, fb - pinned_b
            higher += ra > rb
            tie += ra == rb
    lower = 100 - higher - tie
    return {"a_higher": Fraction(higher, 100), "tie": Fraction(tie, 100), "b_higher": Fraction(lower, 100),
            "a_wins": Fraction(higher, 100 - tie), "b_wins": Fraction(lower, 100 - tie)}
