"""Exact odds of one melee round: both rolls, the parry decision, saves on both sides (COMBAT-4.2, COMBAT-4.3,
AI-D.12)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from game.core.actions import IllegalAction, MeleeAttack
from game.core.dice import Crit
from game.core.odds.facts import odds_ctx, unit_facts
from game.core.odds.pools import crit_of, pool_dist
from game.core.odds.unit import Dist, Snap, UnitFacts, add_pins, inflict_on_unit
from game.core.rules.attack import expected_wound_chance, lead_model
from game.core.rules.melee import melee_plan
from game.core.rules.modifiers import AttackNumbers
from game.core.rules.queries import sole_model
from game.core.state import GameState

PARRY_POLICIES = ("ai", "max")


def parry_choice(policy: str, a_hits: int, d_hits: int, p_a: float, p_b: float) -> int:
    """How many hits the attacker parries (COMBAT-4.2.PARRY): "ai" is AI-D.12 (all it can when a defender hit is
    likelier to wound it than its own hit is to wound the defender, else none); "max" parries all it can."""
    top = min(a_hits, d_hits)
    if policy == "max":
        return top
    if policy == "ai":
        return top if p_b > p_a else 0
    raise ValueError(f"unknown parry policy {policy!r}; use one of {PARRY_POLICIES}")


@dataclass(frozen=True, slots=True)
class MeleeOutcome:
    """One melee round under one parry policy: hits, parries, Wounds and OOA on both sides
    (COMBAT-4.3.MELEE-RESULTS)."""

    policy: str
    attacker_hits: Dist
    defender_hits: Dist
    parried: Dist
    unparried: Dist  # (attacker hits left, defender hits left) after the parry
    wounds_to_defender: Dist
    wounds_to_attacker: Dist
    defender_ooa: Dist
    attacker_ooa: Dist
    attacker_pins: Dist
    defender_pins: Dist
    defender_save_crit: Dist
    attacker_save_crit: Dist

    @property
    def p_defender_ooa(self) -> Fraction:
        return self.defender_ooa.p(True)

    @property
    def p_attacker_ooa(self) -> Fraction:
        return self.attacker_ooa.p(True)


@dataclass(frozen=True, slots=True)
class MeleeOdds:
    """COMBAT-4.2.SIMULTANEOUS: the two rolls' numbers and crits, and the round under each parry policy."""

    attacker: str
    defender: str
    attacker_numbers: tuple[AttackNumbers, ...]
    defender_numbers: AttackNumbers
    attacker_crit: Dist
    defender_crit: Dist
    p_a: float  # AI-D.12 inputs: chance one attacker hit wounds the defender
    p_b: float  # and one defender hit wounds the attacker
    outcomes: dict[str, MeleeOutcome]


def _combined(pools: list[tuple[int, int]], settings, cache: dict) -> tuple[dict[tuple[int, Crit], int], int]:
    """All attacker weapons' rolls as one round: hits add up, crits once over all faces (INTRO-1.2.CRIT-PER-ROUND)."""
    acc: dict[tuple[int, bool, bool], int] = {(0, False, False): 1}
    denom = 1
    for n, tn in pools:
        d = pool_dist(n, tn, settings=settings, cache=cache)
        denom *= d.denom
        nxt: dict[tuple[int, bool, bool], int] = {}
        for (h, o1, o10), w in acc.items():
            for s, c, wc in d.outcomes:
                key = (h + s, o1 or c in (Crit.SUCCESS, Crit.MIX), o10 or c in (Crit.FAILURE, Crit.MIX))
                nxt[key] = nxt.get(key, 0) + w * wc
        acc = nxt
    out: dict[tuple[int, Crit], int] = {}
    for (h, o1, o10), w in acc.items():
        c = crit_of(o1, o10) if settings["crit.enabled"] else Crit.NONE
        out[(h, c)] = out.get((h, c), 0) + w
    return out, denom


def melee_round(a_unit: UnitFacts, d_unit: UnitFacts, a_nums: tuple[AttackNumbers, ...], d_nums: AttackNumbers, *,
                p_a: float, p_b: float, policies: tuple[str, ...] = PARRY_POLICIES) -> MeleeOdds:
    """melee.do_melee + melee.resolve_melee_round: saves of the defender against the attacker's first weapon's
    numbers, then the attacker's saves; deflected melee hits are misses (no Will check)."""
    s = a_unit.settings
    cache: dict = {}
    a_dist, a_den = _combined([(n.dice, n.hit.value) for n in a_nums], s, cache)
    d_pool = pool_dist(d_nums.dice, d_nums.hit.value, settings=s, cache=cache)
    a_first = a_nums[0]
    a_max = max(h for h, _ in a_dist)
    d_max = d_nums.dice
    g_d, g_a = 10 ** a_first.save_dice, 10 ** d_nums.save_dice  # saves rolled by the defender / attacker
    denom = a_den * d_pool.denom * g_d ** a_max * g_a ** d_max
    a_crit: dict[str, int] = {}
    d_crit: dict[str, int] = {}
    for (_, c), w in a_dist.items():
        a_crit[c.value] = a_crit.get(c.value, 0) + w
    for _, c, w in d_pool.outcomes:
        d_crit[c.value] = d_crit.get(c.value, 0) + w
    outcomes = {}
    for pol in policies:
        acc: dict[str, dict[object, int]] = {}

        def add(name: str, key: object, w: int, acc: dict[str, dict[object, int]] = acc) -> None:
            m = acc.setdefault(name, {})
            m[key] = m.get(key, 0) + w

        a0, d0 = a_unit.start(), d_unit.start()
        for (ah, ac), wa in a_dist.items():
            a_snap = add_pins(a_unit, a0, 1) if ac is Crit.FAILURE else a0
            for dh, dc, wd in d_pool.outcomes:
                d_snap = add_pins(d_unit, d0, 1) if dc is Crit.FAILURE else d0
                k = parry_choice(pol, ah, dh, p_a, p_b) if (ah and dh) else 0
                a_left, d_left = ah - k, dh - k
                w0 = wa * wd
                for d_branch, wdb in _saves(d_unit, d_snap, a_left, a_first.save.value, a_first.save_dice, g_d, a_max,
                                            cache):
                    d_after, d_wounds, d_scrit = d_branch
                    a_in = not a_snap[1][a_unit.hit]
                    n_a = d_left if a_in else 0
                    for a_branch, wab in _saves(a_unit, a_snap, n_a, d_nums.save.value, d_nums.save_dice, g_a, d_max,
                                                cache):
                        a_after, a_wounds, a_scrit = a_branch
                        w = w0 * wdb * wab
                        add("ah", ah, w)
                        add("dh", dh, w)
                        add("k", k, w)
                        add("left", (a_left, d_left), w)
                        add("wd", d_wounds, w)
                        add("wa", a_wounds, w)
                        add("dooa", d_after[1][d_unit.hit], w)
                        add("aooa", a_after[1][a_unit.hit], w)
                        add("apins", a_after[4] - a0[4], w)
                        add("dpins", d_after[4] - d0[4], w)
                        add("dsc", d_scrit, w)
                        add("asc", a_scrit, w)
        outcomes[pol] = MeleeOutcome(pol, *(Dist(acc.get(x, {}), denom) for x in
                                            ("ah", "dh", "k", "left", "wd", "wa", "dooa", "aooa", "apins", "dpins",
                                             "dsc", "asc")))
    return MeleeOdds(a_unit.models[a_unit.hit].id, d_unit.models[d_unit.hit].id, a_nums, d_nums, Dist(a_crit, a_den),
                     Dist(d_crit, d_pool.denom), p_a, p_b, outcomes)


def _saves(u: UnitFacts, snap: Snap, hits: int, tn: int, group: int, g: int, nmax: int,
           cache: dict) -> list[tuple[tuple[Snap, int, str], int]]:
    """combat.take_hits without the Will check (melee): (snapshot, wounds, save crit) with weights over g**nmax."""
    if hits <= 0 or snap[1][u.hit]:
        return [((snap, 0, "no_roll"), g ** nmax)]
    out = []
    scale = g ** (nmax - hits)
    for d, c, w in pool_dist(hits, tn, group=group, settings=u.settings, cache=cache).outcomes:
        s2 = add_pins(u, snap, 1) if c is Crit.FAILURE else snap
        s2 = inflict_on_unit(u, s2, u.hit, hits - d)
        out.append(((s2, hits - d, c.value), w * scale))
    return out


def melee_odds(state: GameState, act: MeleeAttack, *, context: str = "own",
               policies: tuple[str, ...] = PARRY_POLICIES) -> MeleeOdds:
    """melee.do_melee before the roll: the attacker's weapon(s), the defender's best weapon, both TNs."""
    ctx = odds_ctx(state)
    st = state
    m, t = sole_model(ctx, act.unit), st.models[act.target]
    m = lead_model(ctx, m, t, None, melee=True)
    if t.ooa:
        raise IllegalAction(f"{t.id} is Out of Action: a blow on it is automatic, no dice (GAP-93)", "GAP-93")
    plan = melee_plan(ctx, act, m, t, context)
    a_nums = tuple(nums for _, nums in plan.weapons)
    if len({n.save.value for n in a_nums}) > 1:
        # resolve_melee_round saves such hits in two rolls by Damage; this model has one save roll.
        raise IllegalAction("exact odds of a two-weapon melee whose weapons have different Damage are not "
                            "computed; the two save rolls are resolved separately by the engine", "SKILL-6.1.KNIFE-MAN")
    d_nums = plan.defender_numbers
    return melee_round(unit_facts(ctx, m, t), unit_facts(ctx, t, m), a_nums, d_nums,
                       p_a=expected_wound_chance(a_nums[0]), p_b=expected_wound_chance(d_nums), policies=policies)
