"""Exact odds of a declared attack before it is rolled, from the resolver's own TN function and steps (COMBAT-4.*)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from game.core.dice import Crit, TargetNumber
from game.core.odds.pools import pool_dist, pool_dists
from game.core.odds.unit import Dist, Snap, UnitFacts, add_pins, inflict_on_unit, will_target
from game.core.rules.modifiers import AttackNumbers, AttackSituation, will_tn
from game.core.settings import Settings
from game.core.state import ModelState

CRITS = ("none", "success", "failure", "mix")
_FAILURE = Crit.FAILURE
_ONE = Fraction(1)


class Tally:
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
                   first: int | None = None, cache: dict | None = None) -> RoundOdds:
    """Saves for h hits in one roll, Critical Failure Pin, Wounds first, then one Will check for the round's
    deflections (combat.take_hits + deflection_will; COMBAT-4.1.SAVE, COMBAT-4.3.ORDER, COMBAT-4.3.DEFLECT-WILL).

    Branches are merged as soon as they agree: the save rolls of every hit count by (Critical Failure Pin,
    wounds, any deflection) in integer weights over one denominator; the end of each by what is reported of it
    (hit model OOA, models lost, Pins gained, Will result). Crit marginals are summed per roll, not per branch.
    Hit counts of weight 0 are left out. `first` is the hit model (default: the unit's `hit`)."""
    s = u.settings
    first = u.hit if first is None else first
    cache = {} if cache is None else cache
    nmax = max(hits) if hits else 0
    gd = 10 ** save_group
    full = gd ** nmax
    snap0 = u.start()
    down = snap0[1][first]
    pools = pool_dists(nmax, save_tn, group=save_group, settings=s, cache=cache) if nmax and not down else ()
    # integer weights over hits_denom * full; the Will die's factor 10 is applied in _round_ends
    defl = [0] * (nmax + 1)
    wounds = [0] * (nmax + 1)
    ends = [0] * (4 * nmax + 4)  # at 4 * wounds + 2 * (a save Critical Failure) + (any deflection)
    save_crit: dict[str, int] = {}
    no_roll = 0
    for h, wh in hits.items():
        if not wh:
            continue
        if h <= 0 or down:
            no_roll += wh * full
            continue
        scale = wh * gd ** (nmax - h)
        pool = pools[h]
        assert pool is not None  # every size up to nmax is computed
        for c, w in pool.crit_names:
            save_crit[c] = save_crit.get(c, 0) + w * scale
        for d, wn, i, w, f in pool.rows:
            w *= scale
            f *= scale
            defl[d] += w
            wounds[wn] += w
            ends[i + 2] += f
            ends[i] += w - f
    if no_roll:
        defl[0] += no_roll
        wounds[0] += no_roll
        save_crit["no_roll"] = no_roll
    denom = hits_denom * full * 10
    ooa, lost, will, will_crit, pins = _round_ends(u, snap0, first, ends, no_roll, ranged and will_tn_of is not None,
                                                   will_tn_of, cache)
    return RoundOdds(Dist({h: w * full * 10 for h, w in hits.items()}, denom), _dist10(defl, denom),
                     _dist10(wounds, denom), Dist(ooa, denom), Dist(lost, denom), Dist(will, denom),
                     Dist(will_crit, denom), Dist(pins, denom),
                     Dist({c: w * 10 for c, w in save_crit.items()}, denom))


def _dist10(weights: list[int], denom: int) -> Dist:
    return Dist({k: w * 10 for k, w in enumerate(weights) if w}, denom)


def _after_saves(u: UnitFacts, snap0: Snap, first: int, ends: list[int], no_roll: int,
                 will_on: bool) -> list[tuple[Snap, int, int]]:
    """The unit after each save result: the Critical Failure Pin, then the Wounds with the Med-Kit decisions, as
    (snapshot, weight with no Will check, weight with one: a ranged round that deflected a hit)."""
    items: list[tuple[Snap, int, int]] = [(snap0, no_roll, 0)] if no_roll else []
    pinned0 = add_pins(u, snap0, 1) if any(ends[i + 2] or ends[i + 3] for i in range(0, len(ends), 4)) else snap0
    for i in range(0, len(ends), 2):
        w0, w1 = ends[i], ends[i + 1]
        if w0 or w1:
            base = pinned0 if i & 2 else snap0
            snap = inflict_on_unit(u, base, first, i >> 2) if i >= 4 else base
            items.append((snap, w0, w1) if will_on else (snap, w0 + w1, 0))
    return items


def _round_ends(u: UnitFacts, snap0: Snap, first: int, ends: list[int], no_roll: int, will_on: bool,
                will_tn_of: Any, cache: dict) -> tuple[dict, dict, dict, dict, dict]:
    """Each save result's consequences, then the Will check's three ends (pass; fail: 1 Pin; fail on a natural
    10: 2 Pins). Leaves merge by what is reported of them (hit model OOA, models lost, Pins gained, Will result).
    Returns the marginals of OOA, models lost, the Will result, the Will crit and the Pins gained, over the
    round's denominator (the `ends` weights times 10)."""
    s = u.settings
    pins0 = u.pins_before
    lost0 = sum(snap0[1])
    wcache: dict = {}
    rolls: dict[int, list[tuple[int, bool, str, int]]] = {}  # Will TN -> (success, natural 10, crit, weight)
    leaves: dict[tuple[bool, int, int, str], int] = {}
    will_crit: dict[str, int] = {}
    for snap, w_plain, w_due in _after_saves(u, snap0, first, ends, no_roll, will_on):
        ooa = snap[1][first]
        lost = sum(snap[1]) - lost0
        pins = snap[4] - pins0
        target = will_target(u, snap, first, will_tn_of, wcache) if w_due else None
        if target is not None and target[1] is None:  # Will NA: exempt from the check
            key = (ooa, lost, pins, "exempt")
            leaves[key] = leaves.get(key, 0) + w_due * 10
            will_crit["no_roll"] = will_crit.get("no_roll", 0) + w_due * 10
        elif target is None:
            w_plain += w_due
        else:
            tn_of_check = target[1]
            assert tn_of_check is not None
            tn = tn_of_check.value
            if tn not in rolls:
                rolls[tn] = [(ok, wc is _FAILURE, wc.value, ww)
                             for ok, wc, ww in pool_dist(1, tn, settings=s, cache=cache).outcomes]
            one: Snap | None = None
            for ok, ten, wc, ww in rolls[tn]:
                w = w_due * ww
                will_crit[wc] = will_crit.get(wc, 0) + w
                if ok:
                    key = (ooa, lost, pins, "pass")
                else:
                    one = one or add_pins(u, snap, 1)
                    key = (ooa, lost, (add_pins(u, one, 1) if ten else one)[4] - pins0, "fail")
                leaves[key] = leaves.get(key, 0) + w
        if w_plain:
            key = (ooa, lost, pins, "none")
            leaves[key] = leaves.get(key, 0) + w_plain * 10
            will_crit["no_roll"] = will_crit.get("no_roll", 0) + w_plain * 10
    marginals: tuple[dict, dict, dict, dict] = ({}, {}, {}, {})
    for key, w in leaves.items():
        for m, k in zip(marginals, key, strict=False):
            m[k] = m.get(k, 0) + w
    ooa_d, lost_d, pins_d, will_d = marginals
    return ooa_d, lost_d, will_d, will_crit, pins_d


def will_fn(situation: AttackSituation, *, catalog: Any, settings: Settings,
            leader_of: Callable[[ModelState], bool] | None = None) -> Callable[[ModelState, int], TargetNumber | None]:
    """The deflection check's TN for a model as it stands, with models lost (modifiers.will_tn, the one TN function).

    `leader_of(model)` is the Leader bonus of the model taking the check (attack.deflection_will asks
    queries.leader_bonus of whoever takes it); without it the situation's `leader_bonus` stands."""
    def tn(m: ModelState, lost: int) -> TargetNumber | None:
        s = situation if lost == situation.casualties else replace(situation, casualties=lost)
        if leader_of is not None:
            bonus = leader_of(m)
            if bonus != s.leader_bonus:
                s = replace(s, leader_bonus=bonus)
        return will_tn(m, s, catalog=catalog, settings=settings)[0]
    return tn


def ranged_round(attacker: str, target: str, nums: AttackNumbers, unit: UnitFacts, situation: AttackSituation, *,
                 catalog: Any, first: int | None = None, share_k: int = 1, cache: dict | None = None,
                 leader_of: Callable[[ModelState], bool] | None = None) -> RangedOdds:
    """COMBAT-4.1.RANGED: one roll of `nums.dice` at the hit TN, then the target's round. With `share_k` > 1
    (GAP-76 `melee.fire_into`=random_per_hit) each hit lands on the target with chance 1/k."""
    s = unit.settings
    cache = {} if cache is None else cache
    atk = pool_dist(nums.dice, nums.hit.value, settings=s, cache=cache)
    by_hits = {h: w for h, w in enumerate(atk.by_succ) if w}
    crit = {c: w for c, w in atk.crit_names if w}
    denom = atk.denom
    attack_hits = Dist(dict(by_hits), denom)
    if share_k > 1:
        by_hits, denom = _thin(by_hits, denom, share_k)
    rnd = defender_round(unit, by_hits, denom, save_tn=nums.save.value, save_group=nums.save_dice, ranged=True,
                         will_tn_of=will_fn(situation, catalog=catalog, settings=s, leader_of=leader_of), first=first,
                         cache=cache)
    return RangedOdds(attacker, target, nums, Dist(crit, atk.denom), attack_hits, rnd,
                      _ONE if share_k == 1 else Fraction(1, share_k))


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
