"""Exact odds for an action declared in a game, taken through the resolver's own situation and numbers (COMBAT-4.*)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core.actions import FlameAttack, IllegalAction, MeleeAttack, RangedAttack, TemplateAttack, ThrowGrenade
from game.core.odds.ranged import RangedOdds, ranged_round
from game.core.odds.unit import UnitFacts
from game.core.state import GameState, ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx


def odds_ctx(state: GameState) -> "Ctx":
    """A read-only resolution context: dice that refuse to roll, so computing odds never draws randomness."""
    from game.core.rules.context import Ctx, NoDice

    return Ctx(state, NoDice(), state.battlefield)


def unit_facts(ctx: "Ctx", m: ModelState, attacker: ModelState | None = None) -> UnitFacts:
    """The unit of `m` in the resolver's wound order (combat.casualty_order, GAP-77), its Pins, and whether an
    `ai` side uses Med-Kits (AI-D.11)."""
    from game.core.rules.fire import casualty_order

    st = ctx.state
    unit = st.units[m.unit]
    order = casualty_order(st, m, attacker)
    ai = st.side(m.side).controller == "ai"
    return UnitFacts(tuple(order), ai, ctx.settings, unit.pins)


def ranged_odds(state: GameState, act: RangedAttack, *, context: str = "own") -> RangedOdds:
    """combat.do_ranged before the roll: Aim, firing into a melee (GAP-76), Unload, cover and the TNs."""
    from game.core.rules.fire import (catalog_of, contacts_of, lead_model, numbers, pooled_fp, situation,
                                  unit_target, weapon_and_profile)
    from game.core.rules.unit_actions import sole_model

    ctx = odds_ctx(state)
    st = state
    m, t = sole_model(ctx, act.unit), st.models[act.target]
    w, p = weapon_and_profile(ctx, m, act.weapon, act.profile)
    m = lead_model(ctx, m, t, p, melee=False)
    t = unit_target(ctx, m, t, w, p)
    activation = st.activation
    aim = bool(context == "own" and activation is not None and activation.unit == m.unit and activation.aim)
    crowd = [o for o in contacts_of(ctx, t) if o.id != m.id]
    into_melee = any(o.side != t.side for o in crowd)
    extra = (p.fp or 0) + 2 if act.unload else 0
    s = situation(ctx, m, t, melee=False, aim=aim, into_melee=into_melee, extra_dice=extra)
    nums = numbers(ctx, m, t, w, p, s, fp=pooled_fp(ctx, m, t, w, p, melee=False))
    k = 1
    if into_melee and not aim and ctx.settings["melee.fire_into"] == "random_per_hit":
        k = 1 + len(crowd)
    return ranged_round(m.id, t.id, nums, unit_facts(ctx, t, m), s, catalog=catalog_of(ctx), share_k=k)


def attack_odds(state: GameState, action: Any, *, context: str = "own") -> Any:
    """The exact odds of any declared attack: RangedAttack, MeleeAttack, ThrowGrenade, TemplateAttack, FlameAttack."""
    if isinstance(action, RangedAttack):
        return ranged_odds(state, action, context=context)
    if isinstance(action, MeleeAttack):
        from game.core.odds.melee import melee_odds

        return melee_odds(state, action, context=context)
    if isinstance(action, (ThrowGrenade, TemplateAttack, FlameAttack)):
        from game.core.odds.templates import template_odds

        return template_odds(state, action, context=context)
    raise IllegalAction(f"{type(action).__name__} is not an attack; odds exist for attacks only", "CORE-3.3.ATTACK")
