"""Exact odds for an action declared in a game, taken through the resolver's own situation and numbers (COMBAT-4.*)."""
from __future__ import annotations

from typing import Any

from game.core.actions import FlameAttack, IllegalAction, MeleeAttack, RangedAttack, TemplateAttack, ThrowGrenade
from game.core.odds.facts import odds_ctx, unit_facts
from game.core.odds.melee import melee_odds
from game.core.odds.ranged import RangedOdds, ranged_round
from game.core.odds.templates import template_odds
from game.core.rules.fire import ranged_plan
from game.core.rules.queries import catalog_of, leader_bonus, sole_model
from game.core.state import GameState


def ranged_odds(state: GameState, act: RangedAttack, *, context: str = "own") -> RangedOdds:
    """The exact odds of the plan `do_ranged` resolves (rules.fire.ranged_plan): Aim, firing into a melee
    (GAP-76), Unload, cover and the TNs."""
    ctx = odds_ctx(state)
    plan = ranged_plan(ctx, act, sole_model(ctx, act.unit), context)
    m, t = plan.attacker, plan.target
    k = 1
    if plan.into_melee and not plan.aim and ctx.settings["melee.fire_into"] == "random_per_hit":
        k = 1 + len(plan.crowd)
    return ranged_round(m.id, t.id, plan.numbers, unit_facts(ctx, t, m), plan.situation, catalog=catalog_of(ctx),
                        share_k=k, leader_of=lambda x: bool(leader_bonus(ctx, x)))


def attack_odds(state: GameState, action: Any, *, context: str = "own") -> Any:
    """The exact odds of any declared attack: RangedAttack, MeleeAttack, ThrowGrenade, TemplateAttack, FlameAttack."""
    if isinstance(action, RangedAttack):
        return ranged_odds(state, action, context=context)
    if isinstance(action, MeleeAttack):
        return melee_odds(state, action, context=context)
    if isinstance(action, (ThrowGrenade, TemplateAttack, FlameAttack)):
        return template_odds(state, action, context=context)
    raise IllegalAction(f"{type(action).__name__} is not an attack; odds exist for attacks only", "CORE-3.3.ATTACK")
