"""Exact odds for an action declared in a game, taken through the resolver's own situation and numbers (COMBAT-4.*)."""
from __future__ import annotations

from typing import Any

from game.core.actions import FlameAttack, IllegalAction, MeleeAttack, RangedAttack, TemplateAttack, ThrowGrenade
from game.core.odds.facts import odds_ctx, unit_facts
from game.core.odds.melee import melee_odds
from game.core.odds.ranged import RangedOdds, ranged_round
from game.core.odds.templates import template_odds
from game.core.rules.attack import lead_model, numbers, pooled_fp, situation, unit_target, weapon_and_profile
from game.core.rules.queries import catalog_of, contacts_of, leader_bonus, sole_model
from game.core.state import GameState


def ranged_odds(state: GameState, act: RangedAttack, *, context: str = "own") -> RangedOdds:
    """combat.do_ranged before the roll: Aim, firing into a melee (GAP-76), Unload, cover and the TNs."""
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
    return ranged_round(m.id, t.id, nums, unit_facts(ctx, t, m), s, catalog=catalog_of(ctx), share_k=k,
                        leader_of=lambda x: bool(leader_bonus(ctx, x)))


def attack_odds(state: GameState, action: Any, *, context: str = "own") -> Any:
    """The exact odds of any declared attack: RangedAttack, MeleeAttack, ThrowGrenade, TemplateAttack, FlameAttack."""
    if isinstance(action, RangedAttack):
        return ranged_odds(state, action, context=context)
    if isinstance(action, MeleeAttack):
        return melee_odds(state, action, context=context)
    if isinstance(action, (ThrowGrenade, TemplateAttack, FlameAttack)):
        return template_odds(state, action, context=context)
    raise IllegalAction(f"{type(action).__name__} is not an attack; odds exist for attacks only", "CORE-3.3.ATTACK")
