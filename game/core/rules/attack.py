"""What every attack shares: the situation, the numbers, saves, Wounds first, the deflection Will check, the rolling
model of a unit, weapons and ammunition (COMBAT-4.1, COMBAT-4.3, CORE-3.7, GAP-77)."""
from __future__ import annotations

import math
from dataclasses import asdict, replace
from typing import TYPE_CHECKING, Any

from game.core.actions import IllegalAction
from game.core.battlefield import Cover
from game.core.catalog.profiles import Special, Weapon, WeaponProfile
from game.core.dice import PoolResult, TargetNumber, evaluate_pool
from game.core.geometry.distance import RangeFact, base_distance, weapon_range
from game.core.rules.context import record_crit
from game.core.rules.modifiers import AttackNumbers, AttackSituation, attack_numbers, will_tn
from game.core.rules.queries import can_see, catalog_of, enemy_contacts, in_contact, leader_bonus, unit_mates
from game.core.rules.turnrolls import range_multiplier
from game.core.rules.wounds import add_pins, inflict_wounds
from game.core.state import ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx
    from game.core.state import GameState


def situation(ctx: Ctx, a: ModelState, t: ModelState, *, melee: bool, aim: bool = False,
              into_melee: bool = False, extra_dice: int = 0) -> AttackSituation:
    """Geometric facts (GEO-4, GEO-12..14) of an attack turned into an AttackSituation; in melee the cover is
    degraded by elevation only with `elev.melee` (GAP-82) and kept only when between (`melee.cover`, GAP-79)."""

    dist = base_distance(a.base(), t.base()).distance
    cover = before = Cover.NONE
    elevated = False
    obstructions = 0
    bf = ctx.battlefield
    if bf.pieces:
        from game.core.geometry.sight.cover import cover_against

        cf = cover_against(bf, ctx.state.scene(), a.id, t.id, settings=ctx.settings)
        cover, before, elevated, obstructions = cf.degraded, cf.cover, cf.elevated, cf.obstruction_count
        if melee and elevated and not ctx.settings["elev.melee"]:
            cover, elevated = before, False  # GAP-82 `elev.melee`=false: elevation degrades cover for ranged only
        if melee and ctx.settings["melee.cover"] == "only_if_between":
            between = cf.piece is not None and cf.piece in cf.crossed
            if not between:
                cover = before = Cover.NONE
            obstructions = 0
        elif melee:
            cover = before = Cover.NONE
            obstructions = 0
    units = ctx.state.units[t.unit]
    lost = sum(1 for mid in units.models if not ctx.state.models[mid].in_play)
    return AttackSituation(melee=melee, distance=dist, cover=cover, cover_before_elevation=before, elevated=elevated,
                           obstructions=obstructions, aim=aim, into_melee=into_melee,
                           kick_first_round=melee and ctx.state.units[t.unit].pins > 0 and not t.kicked,
                           leader_bonus=bool(leader_bonus(ctx, t)), casualties=lost, extra_dice=extra_dice)


def numbers(ctx: Ctx, a: ModelState, t: ModelState, weapon: Weapon, profile: WeaponProfile,
            s: AttackSituation, *, fp: int | None = None) -> AttackNumbers:
    return attack_numbers(a, t, weapon, profile, s, catalog=catalog_of(ctx), settings=ctx.settings,
                          target_pinned=ctx.state.units[t.unit].pins > 0, fp=fp)


def roll_saves(ctx: Ctx, defender: ModelState, hits: int, tn: TargetNumber, save_dice: int, *,
               what: str, rules: tuple[str, ...]) -> PoolResult:
    """One armour-save roll for all hits of a round (COMBAT-4.1.SAVE); best-of-two armour rolls two dice per
    hit and keeps the better; crits count on the kept dice only (GAP-14 `crit.best_of_two`)."""
    if save_dice <= 1:
        return ctx.roll_pool(hits, tn, what=what, who=defender.id, rules=rules)
    pairs = [tuple(ctx.dice.d10() for _ in range(save_dice)) for _ in range(hits)]
    kept = tuple(min(p) for p in pairs)
    res = evaluate_pool(kept, tn.value, settings=ctx.settings)
    if ctx.settings["crit.best_of_two"] == "any_die":
        flat = tuple(f for p in pairs for f in p)
        crit = evaluate_pool(flat, tn.value, settings=ctx.settings).crit
        res = PoolResult(res.faces, res.tn, res.success, crit)
    ctx.state.round_counter += 1
    cited = rules + tuple(r for r in ("COMBAT-4.1.SAVE", "GAP-14") if r not in rules)
    ctx.emit("roll", cited, what=what, who=defender.id, dice=list(kept),
             rolled=[list(p) for p in pairs], tn=tn.value, tn_text=tn.text(), breakdown=tn.breakdown(),
             successes=res.successes, outcome=[bool(x) for x in res.success], crit=res.crit.value,
             round=ctx.state.round_counter)
    return res


def situation_json(s: AttackSituation) -> dict[str, Any]:
    d = asdict(s)
    d["cover"] = s.cover.value
    d["cover_before_elevation"] = s.cover_before_elevation.value
    return d


def situation_from_json(d: dict[str, Any]) -> AttackSituation:
    d = dict(d)
    d["cover"] = Cover(d["cover"])
    d["cover_before_elevation"] = Cover(d["cover_before_elevation"])
    return AttackSituation(**d)


def take_hits(ctx: Ctx, defender: ModelState, hits: int, nums: AttackNumbers, s: AttackSituation, *,
              round_id: int, ranged: bool, what: str, rules: tuple[str, ...],
              attacker: ModelState | None = None) -> None:
    """Saves for `hits` hits, then Wounds first (COMBAT-4.3.ORDER), then (ranged and templates) one Will
    check for the round's deflections, queued after any Med-Kit decision (COMBAT-4.3.DEFLECT-WILL)."""

    if hits <= 0 or not defender.in_play:
        return
    if attacker is not None:  # POST-8.5.EARN: these hits are the attacker's (a melee defender's hits back too)
        ctx.state.blame = {"model": attacker.id, "side": attacker.side, "cause": "melee" if not ranged else "ranged"}
    res = roll_saves(ctx, defender, hits, nums.save, nums.save_dice, what=what, rules=rules)
    record_crit(ctx, defender.unit, res, context="offturn", rules=("COMBAT-4.1.SAVE",))
    deflected = res.successes
    wounds = hits - deflected
    ctx.emit("hits_resolved", ("COMBAT-4.3.RANGED-RESULTS" if ranged else "COMBAT-4.3.MELEE-RESULTS",),
             model=defender.id, hits=hits, wounds=wounds, deflected=deflected, round=round_id)
    if ranged and deflected:
        ctx.state.continuations.append({"kind": "deflect_will", "model": defender.id, "round": round_id,
                                        "situation": situation_json(s)})
    inflict_on_unit(ctx, defender, wounds, round_id, attacker)


def casualty_order(st: GameState, defender: ModelState, attacker: ModelState | None) -> list[ModelState]:
    """GAP-77: a unit loses the model closest to the attacker first (ties: lowest id); without an attacker
    (a template hit on one model) the hit model comes first."""
    unit = st.units[defender.unit]
    if attacker is None or len(unit.models) == 1:
        return [defender] + [st.models[m] for m in unit.models if m != defender.id]
    return sorted((st.models[m] for m in unit.models),
                  key=lambda x: (math.hypot(x.x - attacker.x, x.y - attacker.y), x.id))


def inflict_on_unit(ctx: Ctx, defender: ModelState, wounds: int, round_id: int,
                    attacker: ModelState | None = None) -> None:
    """Wounds to a unit: each unsaved hit goes to the standing model first in `casualty_order` (GAP-77)."""
    st = ctx.state
    unit = st.units[defender.unit]
    if len(unit.models) == 1 or wounds <= 0:
        inflict_wounds(ctx, defender.id, wounds, round_id)
        return
    order = casualty_order(st, defender, attacker)
    for _ in range(wounds):
        alive = [m for m in order if m.in_play]
        if not alive:
            break
        inflict_wounds(ctx, alive[0].id, 1, round_id)


def deflection_will(ctx: Ctx, c: dict[str, Any]) -> None:
    """COMBAT-4.3.DEFLECT-WILL: one Will check per round with deflections; fail -> 1 Pin; a natural 10 adds
    the Critical Failure Pin (INTRO-1.2.CRIT-SCOPE: 2 in all)."""

    st = ctx.state
    m = st.models[c["model"]]
    unit = st.units[m.unit]
    if not m.in_play:
        # A multi-model unit checks as one: any model still standing takes it (CORE-3.7.AS-ONE-MODEL).
        standing = [st.models[x] for x in unit.models if st.models[x].in_play]
        if not standing:
            return
        m = standing[0]

    lost = sum(1 for x in unit.models if not st.models[x].in_play)
    s = replace(situation_from_json(c["situation"]), casualties=lost if len(unit.models) > 1 else 0,
                leader_bonus=bool(leader_bonus(ctx, m)))
    tn, why = will_tn(m, s, catalog=catalog_of(ctx), settings=ctx.settings)
    if tn is None:
        ctx.emit("will_exempt", ("COMBAT-4.3.DEFLECT-WILL", "GAP-22", "ARMORY-5.3.NERVES"), model=m.id, reason=why)
        return
    res = ctx.roll_pool(1, tn, what="Will check for deflected hits", who=m.id, rules=("COMBAT-4.3.DEFLECT-WILL",))
    if not res.successes:
        add_pins(ctx, m.unit, 1, reason="failed the Will check for deflected hits", rules=("COMBAT-4.3.DEFLECT-WILL",))
    record_crit(ctx, m.unit, res, context="offturn", rules=("COMBAT-4.3.DEFLECT-WILL",))


def pick(ctx: Ctx, k: int) -> int:
    """A uniform index in [0, k) from D10s by rejection (GAP-76's random assignment), k <= 10."""
    if k <= 1:
        return 0
    limit = (10 // k) * k
    while True:
        r = ctx.dice.d10()
        if r <= limit:
            return (r - 1) % k


def weapon_and_profile(ctx: Ctx, m: ModelState, weapon_id: str, profile: str | None) -> tuple[Weapon, WeaponProfile]:
    if weapon_id not in m.profile.weapons:
        raise IllegalAction(f"{m.id} carries no {weapon_id}", "INTRO-1.2.WYSIWYG")
    w = catalog_of(ctx).weapon(weapon_id)
    try:
        p = w.profile_named(profile) if profile else w.profile
    except KeyError as exc:
        raise IllegalAction(str(exc), "ARMORY-5.1.CATEGORIES") from None
    return w, model_profile(m, w, p)


def model_profile(m: ModelState, w: Weapon, p: WeaponProfile) -> WeaponProfile:
    """A hostile's own FP and Damage with its weapon (HOSTILE-8.3.STATS, GAP-09 `hostiles.melee_fp`)."""
    for wid, fp, dmg in m.profile.fp_overrides:
        if wid == w.id:
            return replace(p, fp=fp, damage=dmg)
    return p


def max_range(ctx: Ctx, p: WeaponProfile) -> float:
    """The profile's maximum range, halved in a Rainstorm (GAP-59)."""

    return float(p.range_max or 0.0) * range_multiplier(ctx)


def check_ammo(ctx: Ctx, m: ModelState, w: Weapon) -> None:
    if w.id in m.unloaded:
        raise IllegalAction(f"{m.id}'s {w.name} must Reload first", "ARMORY-5.1.SR-RELOAD")
    if Special.LIMITED_AMMO in w.specials and m.ammo.get(w.id, w.ammo or 0) <= 0:
        raise IllegalAction(f"{m.id}'s {w.name} is out of ammunition", "ARMORY-5.1.SR-LIMITED")


def spend_ammo(ctx: Ctx, m: ModelState, w: Weapon, p: WeaponProfile) -> None:
    if Special.LIMITED_AMMO in w.specials:
        m.ammo[w.id] = m.ammo.get(w.id, w.ammo or 0) - 1
    if Special.RELOAD in p.specials or Special.RELOAD in w.specials:
        if w.id not in m.unloaded:
            m.unloaded.append(w.id)


def ranged_reach(ctx: Ctx, a: ModelState, t: ModelState, p: WeaponProfile) -> RangeFact:
    """GEO-5 / GAP-116 (`range.min_rule`): in range iff minimum <= distance <= maximum (halved in a Rainstorm),
    measured edge to edge; with `centre` the minimum is measured between the base centres instead."""
    return weapon_range(a.base(), t.base(), p.range_min, max_range(ctx, p), settings=ctx.settings)


def ranged_eligible(ctx: Ctx, o: ModelState, t: ModelState, p: WeaponProfile) -> bool:
    """A model of a unit may add its FP to a ranged attack on t: not Engaged, t not in contact, range, LOS."""

    if enemy_contacts(ctx, o) or in_contact(ctx, o, t):
        return False
    if not ranged_reach(ctx, o, t, p).in_range:
        return False
    return can_see(ctx, o, t)


def lead_model(ctx: Ctx, m: ModelState, t: ModelState, p: WeaponProfile | None, *, melee: bool) -> ModelState:
    """GAP-77: the model that rolls for a multi-model unit: the first (unit order) with LOS and range to t (melee:
    in base contact with t); m itself for a one-model unit or when none qualifies (its own checks then say why)."""
    mates = unit_mates(ctx, m)
    if len(mates) <= 1:
        return m
    for o in mates:
        if in_contact(ctx, o, t) if melee or p is None else ranged_eligible(ctx, o, t, p):
            return o
    return m


def pooled_fp(ctx: Ctx, m: ModelState, t: ModelState, w: Weapon, p: WeaponProfile, *, melee: bool) -> int:
    """GAP-77 (`multimodel.fp`=sum_eligible, CORE-3.7.AS-ONE-MODEL): a multi-model unit rolls the FP of every
    model in play with LOS and range to t (melee: in base contact with t); m is the unit's rolling model."""
    own = p.fp or 0
    mates = unit_mates(ctx, m)
    if len(mates) <= 1 or ctx.settings["multimodel.fp"] != "sum_eligible":
        return own
    total = own
    for o in mates:
        if o.id == m.id or (w.id not in o.profile.weapons and w.id != "unarmed"):
            continue
        if in_contact(ctx, o, t) if melee else ranged_eligible(ctx, o, t, p):
            total += model_profile(o, w, p).fp or 0
    return total


def unit_target(ctx: Ctx, m: ModelState, t: ModelState, w: Weapon, p: WeaponProfile) -> ModelState:
    """GAP-77 (`multimodel.cover`=least_protected): a ranged attack on a multi-model unit needs LOS and range to
    one of its models and uses the situation of the least-protected one (highest hit TN; ties: the named model,
    then unit order)."""
    mates = unit_mates(ctx, t)
    if len(mates) <= 1 or ctx.settings["multimodel.cover"] != "least_protected":
        return t
    best, best_tn = None, None
    for o in [t] + [x for x in mates if x.id != t.id]:
        if not o.in_play or not ranged_eligible(ctx, m, o, p):
            continue
        tn = numbers(ctx, m, o, w, p, situation(ctx, m, o, melee=False)).hit.value
        if best_tn is None or tn > best_tn:
            best, best_tn = o, tn
    return best if best is not None else t


def expected_wound_chance(nums: AttackNumbers) -> float:
    """P(one hit wounds) for a single-die save: used by the parry policy of the A.I. (AI-D.12)."""
    p_save = min(9, max(1, nums.save.value)) / 10.0
    if nums.save_dice > 1:
        p_save = 1 - (1 - p_save) ** nums.save_dice
    return 1 - p_save
