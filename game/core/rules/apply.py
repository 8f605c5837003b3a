"""`apply(state, action, dice) -> events`: the one writer of the game state, and `validate`, its checks alone
(TURN-1)."""
from __future__ import annotations

from dataclasses import replace

import game.core.rules.memory as memory
from game.core.actions import Action, DeclineInterrupt, Deploy, IllegalAction, Interrupt, Parry, Reasoned
from game.core.dice import Dice
from game.core.events import Event
from game.core.rules.context import Ctx, NoDice
from game.core.rules.deploy import check_deploy
from game.core.rules.dispatch import ACTIONS
from game.core.rules.melee import check_parry
from game.core.rules.phases import (
    PHASE_HANDLERS,
    check_action,
    check_activate,
    check_decline,
    check_found_item,
    check_hostile_roll,
    check_initiative,
    check_interrupt,
    check_medkit_decision,
    check_spawn_move,
    expect,
)
from game.core.state import GameState, Phase


def apply(state: GameState, action: Action, dice: Dice | None = None) -> list[Event]:
    """Validate and resolve one decision; raise IllegalAction (naming the rule) leaving state unchanged.

    Randomness comes from the state's PRNG unless scripted dice are passed (STYLE habit 4).
    """
    ctx = Ctx(state, dice if dice is not None else state.rng, state.battlefield, ACTIONS)
    handler = PHASE_HANDLERS.get(state.phase)
    reason = None
    if isinstance(action, Reasoned):
        reason, action = dict(action.reason), action.action
        if isinstance(action, Reasoned):
            raise IllegalAction("a Reasoned decision wraps one decision, not another Reasoned", "TURN-1")
    if handler is None:
        raise IllegalAction(f"the mission is over; no {type(action).__name__} is possible", "TURN-11")
    handler(ctx, action)
    if state.ai:
        memory.sweep(ctx)  # AI-D.02 (i): locks on models no longer in play drop at once
    if reason is not None and ctx.events:
        first = ctx.events[0]
        rule = str(reason.get("rule", ""))
        rules = first.rules if rule in first.rules else first.rules + (rule,)
        key = "decision_reason" if "reason" in first.data else "reason"
        ctx.events[0] = replace(first, rules=rules, data={**first.data, key: reason})
    return ctx.events


def validate(state: GameState, action: Action) -> None:
    """Raise IllegalAction if `action` is not legal now; never changes the state or draws dice.

    The client's preview and the agents use this; `apply` runs the same checks before resolving."""
    ctx = Ctx(state, NoDice(), state.battlefield, ACTIONS)
    st = state
    ph = st.phase
    if isinstance(action, Reasoned):
        action = action.action
    if ph is Phase.MISSION_END:
        raise IllegalAction("the mission is over", "TURN-11")
    if ph is Phase.DEPLOY:
        expect(action, Deploy)
        assert isinstance(action, Deploy)
        check_deploy(ctx, action)
        return
    if ph is Phase.INITIATIVE:
        check_initiative(ctx, action)
        return
    if ph is Phase.ACTIVATE:
        check_activate(st, action)
        return
    if ph is Phase.PARRY:
        expect(action, Parry)
        assert isinstance(action, Parry)
        check_parry(ctx, action)
        return
    if ph is Phase.MEDKIT:
        check_medkit_decision(ctx, action)
        return
    if ph is Phase.HOSTILE_ROLL:
        check_hostile_roll(ctx, action)
        return
    if ph is Phase.SPAWN_MOVE:
        check_spawn_move(ctx, action)
        return
    if ph is Phase.FOUND_ITEM:
        check_found_item(ctx, action)
        return
    if ph is Phase.INTERRUPT:
        expect(action, Interrupt, DeclineInterrupt)
        if isinstance(action, DeclineInterrupt):
            check_decline(ctx, action)
            return
        assert isinstance(action, Interrupt)
        check_interrupt(ctx, action)
        return
    check_action(ctx, action)
