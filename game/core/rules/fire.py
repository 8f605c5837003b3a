"""Ranged attacks (COMBAT-4.1): range, LOS, Aim, Unload, firing into a melee (GAP-76) and the pooled fire of a unit."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.core.actions import IllegalAction, RangedAttack
from game.core.catalog.profiles import Weapon, WeaponProfile
from game.core.rules.attack import (
    check_ammo,
    lead_model,
    max_range,
    numbers,
    pick,
    pooled_fp,
    ranged_reach,
    situation,
    spend_ammo,
    take_hits,
    unit_target,
    weapon_and_profile,
)
from game.core.rules.context import record_crit
from game.core.rules.modifiers import AttackNumbers, AttackSituation
from game.core.rules.queries import aim_pending, can_see, contacts_of, in_contact, target_model
from game.core.state import ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx


# --- ranged attacks (COMBAT-4.1) ------------------------------------------------------------------


def check_ranged(ctx: Ctx, act: RangedAttack, m: ModelState, context: str) -> int:

    w, p = weapon_and_profile(ctx, m, act.weapon, act.profile)
    if p.template is not None or not p.range_max:
        raise IllegalAction(f"{w.name} is not fired at a model with RangedAttack", "COMBAT-4.1.RANGED")
    t = target_model(ctx, m, act.target)
    m = lead_model(ctx, m, t, p, melee=False)
    t = unit_target(ctx, m, t, w, p)
    if t.ooa:
        raise IllegalAction(f"{t.id} is Out of Action and cannot be shot", "GAP-93")
    if in_contact(ctx, m, t):
        raise IllegalAction(f"{t.id} is in base contact: only melee is possible", "GEO-5")
    if not can_see(ctx, m, t):
        raise IllegalAction(f"{m.id} has no line of sight to {t.id}", "COMBAT-4.1.REQUIREMENTS")
    rng = ranged_reach(ctx, m, t, p)
    if not rng.in_range:
        side = "closer than the minimum" if rng.too_close else "beyond the maximum"
        raise IllegalAction(f"{t.id} is {rng.distance:.2f}\" away, {side} range of {w.name} "
                            f"({p.range_min:g}-{max_range(ctx, p):g}\")", rng.rule)
    check_ammo(ctx, m, w)
    if act.unload:
        if not m.profile.has("unload") or not w.unload_eligible:
            raise IllegalAction(f"{m.id} cannot Unload with {w.name}", "SKILL-6.1.UNLOAD")
        if context not in ("own", "ordered"):
            raise IllegalAction("Unload takes two consecutive actions: the model's own, or a pair ordered by its "
                                "Leader (GAP-37)", "SKILL-6.1.UNLOAD")
        return 2
    return 1


@dataclass(frozen=True, slots=True)
class RangedPlan:
    """A declared ranged attack as it will resolve, before any die: the rolling model and the target (GAP-77),
    the weapon, Aim, firing into a melee (GAP-76), the situation and every number. `do_ranged` rolls it; the exact
    odds (game.core.odds.actions) price the same plan, so the preview is the resolution."""

    attacker: ModelState
    target: ModelState
    weapon: Weapon
    profile: WeaponProfile
    aim: bool
    crowd: tuple[ModelState, ...]  # the target's other contacts (GAP-76's random assignment pool)
    into_melee: bool
    situation: AttackSituation
    numbers: AttackNumbers


def ranged_plan(ctx: Ctx, act: RangedAttack, m: ModelState, context: str) -> RangedPlan:
    """COMBAT-4.1.RANGED: the attack `act` of `m`'s unit, planned exactly as `do_ranged` resolves it."""
    w, p = weapon_and_profile(ctx, m, act.weapon, act.profile)
    t = ctx.state.models[act.target]
    m = lead_model(ctx, m, t, p, melee=False)
    t = unit_target(ctx, m, t, w, p)
    aim = aim_pending(ctx, m, context)  # CORE-3.3.AIM: own activation, or an ordered Aim then this shot (GAP-37)
    # Firing into a melee: the target is in base contact with one of its enemies (CORE-3.3.AIM, GAP-76).
    crowd = tuple(o for o in contacts_of(ctx, t) if o.id != m.id)
    into_melee = any(o.side != t.side for o in crowd)
    extra = (p.fp or 0) + 2 if act.unload else 0  # SKILL-6.1.UNLOAD
    s = situation(ctx, m, t, melee=False, aim=aim, into_melee=into_melee, extra_dice=extra)
    nums = numbers(ctx, m, t, w, p, s, fp=pooled_fp(ctx, m, t, w, p, melee=False))
    return RangedPlan(m, t, w, p, aim, crowd, into_melee, s, nums)


def do_ranged(ctx: Ctx, act: RangedAttack, m: ModelState, context: str) -> int:

    st = ctx.state
    plan = ranged_plan(ctx, act, m, context)
    m, t, w, p, aim, s, nums = plan.attacker, plan.target, plan.weapon, plan.profile, plan.aim, plan.situation, \
        plan.numbers
    melee_crowd, into_melee = list(plan.crowd), plan.into_melee
    rules = ("COMBAT-4.1.RANGED",) + (("SKILL-6.1.UNLOAD",) if act.unload else ()) + (("CORE-3.3.AIM",) if aim else ())
    ctx.emit("attack", rules, kind="ranged", attacker=m.id, target=t.id, weapon=w.id, dice=nums.dice,
             distance=s.distance, aim=aim, into_melee=into_melee, cover=s.cover.value, obstructions=s.obstructions,
             damage=nums.damage, damage_text=" ".join(f"{x.label} {x.value:+d}" for x in nums.damage_parts))
    res = ctx.roll_pool(nums.dice, nums.hit, what=f"{w.name} attack on {t.id}", who=m.id, rules=rules)
    record_crit(ctx, m.unit, res, context=context, rules=("COMBAT-4.1.RANGED",))
    spend_ammo(ctx, m, w, p)
    if act.unload and w.id not in m.unloaded:
        m.unloaded.append(w.id)  # SKILL-6.1.UNLOAD: a Reload before it fires normally again
    round_id = st.round_counter
    hits = res.successes
    if not hits:
        return 2 if act.unload else 1
    if into_melee and not aim and ctx.settings["melee.fire_into"] == "random_per_hit":
        pool = [t] + melee_crowd
        counts = [0] * len(pool)
        for _ in range(hits):
            counts[pick(ctx, len(pool))] += 1
        ctx.emit("hits_assigned", ("GAP-76",), shooter=m.id, assigned={x.id: c for x, c in zip(pool, counts,
                                                                                               strict=False) if c})
        for assigned, n in zip(pool, counts, strict=False):
            victim = assigned if assigned.in_play or not n else _standing_in(ctx, assigned, pool, n)
            if n and victim is not None:
                sv = situation(ctx, m, victim, melee=False, into_melee=True)
                take_hits(ctx, victim, n, numbers(ctx, m, victim, w, p, sv), sv, round_id=round_id, ranged=True,
                          attacker=m,
                          what="armour saves", rules=("COMBAT-4.1.SAVE",))
    else:
        take_hits(ctx, t, hits, nums, s, round_id=round_id, ranged=True, what="armour saves", attacker=m,
                  rules=("COMBAT-4.1.SAVE",))
    return 2 if act.unload else 1


def _standing_in(ctx: Ctx, victim: ModelState, pool: list[ModelState], hits: int) -> ModelState | None:
    """GAP-76 / GAP-77: hits assigned to a model an earlier victim's Wounds already removed (a hit on a model of a
    multi-model unit wounds the unit, closest model first) go to its unit: to a standing model of that unit in the
    melee, else any standing model of it; with none left standing they are lost. One `hits_redirected` event."""
    st = ctx.state
    same = [x for x in pool if x.unit == victim.unit and x.in_play]
    same += [st.models[x] for x in st.units[victim.unit].models if st.models[x].in_play and st.models[x] not in same]
    to = same[0] if same else None
    ctx.emit("hits_redirected", ("GAP-76", "GAP-77"), model=victim.id, unit=victim.unit, hits=hits,
             to=to.id if to is not None else None)
    return to


# --- continuations ----------------------------------------------------------------------------------


