"""Melee: simultaneous rounds, the attacker's Parry decision, deadlock and Withdraw (COMBAT-4.2, COMBAT-4.3)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.core.actions import IllegalAction, MeleeAttack, Parry, Withdraw
from game.core.catalog.profiles import Weapon, WeaponProfile
from game.core.dice import PoolResult, evaluate_pool
from game.core.geometry.distance import base_distance
from game.core.rules.attack import (
    expected_wound_chance,
    lead_model,
    model_profile,
    numbers,
    pooled_fp,
    situation,
    take_hits,
)
from game.core.rules.context import record_crit
from game.core.rules.modifiers import AttackNumbers, AttackSituation
from game.core.rules.movepath import (
    allowance_of,
    judge_path,
    place_along,
    refuse_illegal,
    refuse_leash,
    withdraw_hustle,
)
from game.core.rules.queries import (
    aim_pending,
    catalog_of,
    contact_tol,
    enemy_contacts,
    in_contact,
    opposed,
    target_model,
)
from game.core.rules.stats import Allowance
from game.core.rules.wounds import inflict_wounds
from game.core.state import ModelState, Phase
from game.core.tolerance import EPS

if TYPE_CHECKING:
    from game.core.rules.context import Ctx


# --- melee (COMBAT-4.2, COMBAT-4.3) ---------------------------------------------------------------


def melee_weapons(ctx: Ctx, m: ModelState) -> list[Weapon]:
    cat = catalog_of(ctx)
    out = [cat.weapon(w) for w in m.profile.weapons]
    out = [w for w in out if not w.melee_forbidden and any(p.fp for p in w.profiles)]
    return out or [cat.weapon("unarmed")]


def melee_profile(w: Weapon, m: ModelState | None = None) -> WeaponProfile:
    chosen = w.profile
    for p in w.profiles:
        if p.template is None and p.fp:
            chosen = p
            break
    return model_profile(m, w, chosen) if m is not None else chosen


def defender_weapon(ctx: Ctx, d: ModelState, a: ModelState) -> Weapon:
    """The defender fights back with its best melee option: most expected hits (house choice; GAP-78)."""
    best, score = None, -1.0
    s = situation(ctx, d, a, melee=True)  # the geometry is the same whatever the weapon
    for w in melee_weapons(ctx, d):
        p = melee_profile(w, d)
        tn = numbers(ctx, d, a, w, p, s).hit.value
        sc = (p.fp or 0) * min(9, max(1, tn)) / 10.0
        if sc > score + 1e-12:
            best, score = w, sc
    assert best is not None
    return best


def check_melee(ctx: Ctx, act: MeleeAttack, m: ModelState, context: str) -> int:
    t = target_model(ctx, m, act.target)
    m = lead_model(ctx, m, t, None, melee=True)
    if t.ooa and ctx.settings["ooa.targetable"] != "templates_and_melee":
        raise IllegalAction(f"{t.id} is Out of Action and cannot be attacked", "GAP-93")
    if not in_contact(ctx, m, t):
        raise IllegalAction(f"{t.id} is not in base contact with {m.id}", "COMBAT-4.2.MELEE-REQ")
    cat = catalog_of(ctx)
    for wid in (act.weapon, act.second_weapon):
        if wid is None:
            continue
        if wid != "unarmed" and wid not in m.profile.weapons:
            raise IllegalAction(f"{m.id} carries no {wid}", "INTRO-1.2.WYSIWYG")
        w = cat.weapon(wid)
        if w.melee_forbidden:
            raise IllegalAction(f"{w.name} cannot be used in melee", "ARMORY-5.1.MELEE-USE")
    if act.second_weapon is not None:
        if not m.profile.has("knife_man") or ctx.settings["melee.dual_wield"] != "knife_man_only":
            raise IllegalAction("only a Knife Man fights with two weapons", "GAP-08")
        if not (cat.weapon(act.weapon).melee_capable and cat.weapon(act.second_weapon).melee_capable):
            raise IllegalAction("both weapons must be melee-capable", "SKILL-6.1.KNIFE-MAN")
    return 1


@dataclass(frozen=True, slots=True)
class MeleePlan:
    """A declared melee round as it will resolve, before any die: the rolling models (GAP-77), Aim, the attacker's
    weapon(s) each with its numbers (SKILL-6.1.KNIFE-MAN), the defender's best weapon and its numbers. `do_melee`
    rolls it; the exact odds (game.core.odds.melee) price the same plan."""

    attacker: ModelState
    target: ModelState
    aim: bool
    situation: AttackSituation
    weapons: tuple[tuple[Weapon, AttackNumbers], ...]
    defender_weapon: Weapon
    defender_numbers: AttackNumbers


def melee_plan(ctx: Ctx, act: MeleeAttack, m: ModelState, t: ModelState, context: str) -> MeleePlan:
    """COMBAT-4.2.SIMULTANEOUS: `m` (the unit's rolling model) against `t`, planned exactly as `do_melee` rolls it."""
    cat = catalog_of(ctx)
    aim = aim_pending(ctx, m, context)  # CORE-3.3.AIM: own activation, or an ordered Aim then this blow (GAP-37)
    s_a = situation(ctx, m, t, melee=True, aim=aim)
    weapons = [cat.weapon(act.weapon)] + ([cat.weapon(act.second_weapon)] if act.second_weapon else [])
    planned = []
    for i, w in enumerate(weapons):
        p = melee_profile(w, m)
        pooled = pooled_fp(ctx, m, t, w, p, melee=True) if i == 0 else None  # GAP-77: the first weapon pools
        planned.append((w, numbers(ctx, m, t, w, p, s_a, fp=pooled)))
    dw = defender_weapon(ctx, t, m)
    dp = melee_profile(dw, t)
    d_nums = numbers(ctx, t, m, dw, dp, situation(ctx, t, m, melee=True), fp=pooled_fp(ctx, t, m, dw, dp, melee=True))
    return MeleePlan(m, t, aim, s_a, tuple(planned), dw, d_nums)


def do_melee(ctx: Ctx, act: MeleeAttack, m: ModelState, context: str) -> int:
    """COMBAT-4.2.SIMULTANEOUS: both roll; the attacker then chooses how many hits to parry (a Parry decision).
    Multi-model units roll the FP of every model in contact with the opposing model (GAP-77)."""

    st = ctx.state
    t = st.models[act.target]
    m = lead_model(ctx, m, t, None, melee=True)
    if t.ooa:
        # GAP-93 (`ooa.targetable`=templates_and_melee): a deliberate blow, automatic, no save.
        ctx.emit("attack", ("GAP-93", "COMBAT-4.4.PERMA-DEAD"), kind="coup_de_grace", attacker=m.id, target=t.id)
        st.round_counter += 1
        inflict_wounds(ctx, t.id, 1, st.round_counter)
        return 1
    plan = melee_plan(ctx, act, m, t, context)
    aim, s_a = plan.aim, plan.situation
    a_faces: list[int] = []
    a_ok: list[bool] = []
    hits_by: list[list[Any]] = []  # [weapon id, hits, damage]: each die keeps its weapon's Damage (SKILL-6.1.KNIFE-MAN)
    for w, nums in plan.weapons:
        kick = ("COMBAT-4.3.KICK-MELEE",) if s_a.kick_first_round else ()
        res = ctx.roll_pool(nums.dice, nums.hit, what=f"melee with {w.name} on {t.id}", who=m.id,
                            rules=("COMBAT-4.2.SIMULTANEOUS",) + kick)
        a_faces += list(res.faces)
        a_ok += list(res.success)
        hits_by.append([w.id, res.successes, nums.damage])
    if s_a.kick_first_round:
        t.kicked = True
    a_crit = evaluate_pool(tuple(a_faces), 0, settings=ctx.settings).crit  # one round: crits once (CRIT-PER-ROUND)
    dw, d_nums = plan.defender_weapon, plan.defender_numbers
    d_res = ctx.roll_pool(d_nums.dice, d_nums.hit, what=f"defending with {dw.name}", who=t.id,
                          rules=("COMBAT-4.2.SIMULTANEOUS",))
    record_crit(ctx, m.unit, PoolResult(tuple(a_faces), 0, tuple(a_ok), a_crit), context=context,
                rules=("COMBAT-4.2.SIMULTANEOUS",))
    record_crit(ctx, t.unit, d_res, context="offturn", rules=("COMBAT-4.2.SIMULTANEOUS",))
    a_hits = sum(a_ok)
    d_hits = d_res.successes
    round_id = st.round_counter
    pending = {"kind": "melee_round", "attacker": m.id, "defender": t.id, "a_hits": a_hits, "d_hits": d_hits,
               "a_hits_by": hits_by, "d_weapon": dw.id, "round": round_id, "aim": aim, "parry": None}
    ctx.emit("melee_round", ("COMBAT-4.2.SIMULTANEOUS",), attacker=m.id, defender=t.id, attacker_hits=a_hits,
             defender_hits=d_hits, defender_weapon=dw.id)
    if a_hits and d_hits:
        st.continuations.insert(0, pending)
        st.phase = Phase.PARRY
        st.deciding = m.side
        return 1
    pending["parry"] = 0
    st.continuations.insert(0, pending)
    return 1


def check_parry(ctx: Ctx, act: Parry) -> dict[str, Any]:
    st = ctx.state
    c = st.continuations[0] if st.continuations else None
    if c is None or c.get("kind") != "melee_round" or c.get("parry") is not None:
        raise IllegalAction("there is no melee round waiting for a parry", "COMBAT-4.2.PARRY")
    attacker = st.models[c["attacker"]]
    if act.unit != attacker.unit:
        raise IllegalAction(f"only the attacker {attacker.id} decides the parry", "COMBAT-4.2.PARRY")
    top = min(c["a_hits"], c["d_hits"])
    if not 0 <= act.hits <= top:
        raise IllegalAction(f"parry between 0 and {top} hits", "COMBAT-4.2.PARRY")
    return c


def parry_chances(ctx: Ctx, c: dict[str, Any]) -> tuple[float, float]:
    """AI-D.12 inputs for a melee round waiting for its parry, from the numbers `resolve_melee_round` will use: pA
    = the chance one of the attacker's hits (its first weapon, with the round's Aim) wounds the defender, pB = the
    chance one defender hit wounds the attacker."""
    st = ctx.state
    a, d = st.models[c["attacker"]], st.models[c["defender"]]
    cat = catalog_of(ctx)
    aw, dw = cat.weapon(c["a_hits_by"][0][0]), cat.weapon(c["d_weapon"])
    a_nums = numbers(ctx, a, d, aw, melee_profile(aw, a), situation(ctx, a, d, melee=True, aim=c["aim"]))
    d_nums = numbers(ctx, d, a, dw, melee_profile(dw, d), situation(ctx, d, a, melee=True))
    return expected_wound_chance(a_nums), expected_wound_chance(d_nums)


def resolve_melee_round(ctx: Ctx, c: dict[str, Any]) -> None:
    """COMBAT-4.2.PARRY then saves for the remaining hits on both sides; deflected melee hits are misses
    (COMBAT-4.3.MELEE-RESULTS); both may fall; otherwise Deadlock (COMBAT-4.3.DEADLOCK)."""
    st = ctx.state
    a = st.models[c["attacker"]]
    d = st.models[c["defender"]]
    cat = catalog_of(ctx)
    k = int(c["parry"] or 0)
    d_left = c["d_hits"] - k
    if k:
        ctx.emit("parry", ("COMBAT-4.2.PARRY",), attacker=a.id, parried=k)
    round_id = c["round"]
    s_a = situation(ctx, a, d, melee=True, aim=c["aim"])
    dw = cat.weapon(c["d_weapon"])
    s_d = situation(ctx, d, a, melee=True)
    # Parried hits come off the weapon with the lowest Damage first (house: the attacker keeps its best blows).
    groups = sorted(([w, n, dmg] for w, n, dmg in c["a_hits_by"]), key=lambda g: g[2])
    spend = k
    for g in groups:
        used = min(spend, g[1])
        g[1] -= used
        spend -= used
    # Hits of equal Damage share one save roll; a second weapon with another Damage saves apart.
    order = [x[0] for x in c["a_hits_by"]]
    by_damage: dict[int, list[Any]] = {}
    for wid, n, dmg in sorted(groups, key=lambda g: order.index(g[0])):
        if n:
            by_damage.setdefault(dmg, [wid, 0])[1] += n
    for wid, n in by_damage.values():
        if d.in_play:
            aw = cat.weapon(wid)
            nums = numbers(ctx, a, d, aw, melee_profile(aw, a), s_a)
            take_hits(ctx, d, n, nums, s_a, round_id=round_id, ranged=False, what="armour saves (melee)", attacker=a,
                      rules=("COMBAT-4.2.PARRY",))
    if d_left and a.in_play:
        nums = numbers(ctx, d, a, dw, melee_profile(dw, d), s_d)
        take_hits(ctx, a, d_left, nums, s_d, round_id=round_id, ranged=False, what="armour saves (melee)", attacker=d,
                  rules=("COMBAT-4.2.PARRY",))
    st.continuations.insert(0, {"kind": "melee_outcome", "attacker": a.id, "defender": d.id})


def melee_outcome(ctx: Ctx, c: dict[str, Any]) -> None:
    a = ctx.state.models[c["attacker"]]
    d = ctx.state.models[c["defender"]]
    if a.in_play and d.in_play and in_contact(ctx, a, d):
        ctx.emit("deadlock", ("COMBAT-4.3.DEADLOCK", "GAP-78"), attacker=a.id, defender=d.id,
                 note="both stay Engaged; the melee carries on")
    else:
        ctx.emit("melee_over", ("COMBAT-4.2.PARRY",), attacker=a.id, defender=d.id,
                 standing=[x.id for x in (a, d) if x.in_play])


# --- Withdraw (COMBAT-4.3.WITHDRAW) ---------------------------------------------------------------


def _withdraw_allowance(ctx: Ctx, m: ModelState, hustled: bool) -> Allowance:
    """COMBAT-4.3.WITHDRAW: "moves up to its Movement", one Move allowance (GEO-8); with Hustle's +2" when the
    Withdraw is the second Move of a pair and `hustle.withdraw_counts` is true (SKILL-6.1.HUSTLE)."""
    return allowance_of(ctx, m, "withdraw", hustled=hustled)


def check_withdraw(ctx: Ctx, act: Withdraw, m: ModelState, context: str) -> int:
    """COMBAT-4.3.WITHDRAW: only from a melee; the path is judged like a Move (GEO-8 cost, terrain, bases, Hustle
    per `hustle.withdraw_counts`) and must end out of contact with every enemy."""

    if not enemy_contacts(ctx, m):
        raise IllegalAction(f"{m.id} is not in a melee", "COMBAT-4.3.WITHDRAW")
    if not act.path:
        raise IllegalAction("Withdraw needs a path out of contact", "COMBAT-4.3.WITHDRAW")
    allowance = _withdraw_allowance(ctx, m, withdraw_hustle(ctx, m, context))
    verdict = judge_path(ctx, m, act.path, allowance.inches)
    refuse_illegal(m, verdict, allowance)
    refuse_leash(ctx, m, verdict.points)
    end = m.base().__class__(m.id, verdict.points[-1][0], verdict.points[-1][1], verdict.end_z, m.radius,
                             m.profile.height, m.side)
    for o in ctx.state.models.values():
        touching = base_distance(end, o.base()).distance <= contact_tol(ctx) + EPS
        if o.in_play and opposed(ctx, m.side, o.side) and touching:
            raise IllegalAction(f"a Withdraw must end out of contact; it ends touching {o.id}", "COMBAT-4.3.WITHDRAW")
    return int(ctx.settings["melee.withdraw_cost"])


def do_withdraw(ctx: Ctx, act: Withdraw, m: ModelState, context: str) -> int:
    """Each engaged enemy makes one free melee attack; the withdrawer only saves ("dodges"); if still in play
    it then moves out of contact (`melee.withdraw_cost`)."""
    st = ctx.state
    st.round_counter += 1
    for foe in enemy_contacts(ctx, m):
        if not m.in_play:
            break
        w = defender_weapon(ctx, foe, m)
        s = situation(ctx, foe, m, melee=True)
        nums = numbers(ctx, foe, m, w, melee_profile(w, foe), s)
        res = ctx.roll_pool(nums.dice, nums.hit, what=f"free attack on the withdrawing {m.id}", who=foe.id,
                            rules=("COMBAT-4.3.WITHDRAW",))
        take_hits(ctx, m, res.successes, nums, s, round_id=st.round_counter, ranged=False, attacker=foe,
                  what="dodges (armour saves)", rules=("COMBAT-4.3.WITHDRAW",))
    # The Hustle decision is taken now: the activation's Move run has moved on when the move itself resolves.
    st.continuations.append({"kind": "withdraw_move", "model": m.id, "path": [list(p) for p in act.path],
                             "hustle": withdraw_hustle(ctx, m, context)})
    return int(ctx.settings["melee.withdraw_cost"])


def withdraw_move(ctx: Ctx, c: dict[str, Any]) -> None:
    """The withdrawer, if still in play after the free attacks, moves along its path (judged again now)."""

    m = ctx.state.models[c["model"]]
    if not m.in_play:
        return
    path = tuple(tuple(p) for p in c["path"])
    hustled = bool(c.get("hustle", False))  # records saved before `hustle.withdraw_counts`: no Hustle
    allowance = _withdraw_allowance(ctx, m, hustled)
    v = judge_path(ctx, m, path, allowance.inches)
    if not v.legal:
        ctx.emit("withdraw_blocked", ("COMBAT-4.3.WITHDRAW",), model=m.id, reason=v.reason)
        return
    place_along(ctx, m, v)
    rules = ("COMBAT-4.3.WITHDRAW", "GEO-8") + (("SKILL-6.1.HUSTLE",) if hustled else ())
    ctx.emit("move", rules, unit=m.unit, model=m.id, path=[[p[0], p[1]] for p in v.points], length=v.length,
             cost=v.cost, allowance=allowance.inches, allowance_text=allowance.text())
