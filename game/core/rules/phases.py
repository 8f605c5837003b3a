"""The decisions of each phase of the turn machine, checked then resolved (TURN-4..TURN-8, COMBAT-4.4.MEDKIT-*,
COMBAT-4.2.PARRY): deploy, initiative, activate, act, interrupt, Med-Kit and Parry decisions."""
from __future__ import annotations

from collections.abc import Callable

import game.core.rules.dispatch as dispatch
import game.core.rules.factions as factions
import game.core.rules.memory as memory
import game.core.rules.salvage as salvage
import game.core.rules.spawn as spawn
from game.core.actions import (
    Action,
    Activate,
    ChooseFoundItem,
    ChooseHostileRoll,
    ChooseInitiative,
    DeclineInterrupt,
    DeclineMedKit,
    Deploy,
    EndActivation,
    IllegalAction,
    Interrupt,
    Move,
    Parry,
    StayPut,
    UseItem,
)
from game.core.rules.context import Ctx
from game.core.rules.deploy import check_deploy, do_deploy
from game.core.rules.flow import (
    after_action,
    begin_cycle,
    check_early_end,
    close_window_side,
    end_activation,
    finish_spawn,
    open_window,
    refresh_window,
    remaining,
    resume,
    spawn_after_free_move,
    start_turn,
    window_kits,
)
from game.core.rules.melee import check_parry
from game.core.rules.wounds import dress_wound, medkits, settle_wounds
from game.core.state import ActivationState, GameState, Phase


def expect(action: Action, *types: type) -> None:
    if not isinstance(action, types):
        names = " or ".join(t.__name__ for t in types)
        raise IllegalAction(f"{type(action).__name__} is not possible now: expected {names}", "TURN-1")


def _side_of_unit(state: GameState, unit_id: str) -> str:
    unit = state.units.get(unit_id)
    if unit is None:
        raise IllegalAction(f"no unit {unit_id!r}", "TURN-1")
    return unit.side


def _on_deploy(ctx: Ctx, action: Action) -> None:
    expect(action, Deploy)
    st = ctx.state
    assert isinstance(action, Deploy)
    check_deploy(ctx, action)
    do_deploy(ctx, action)
    side = st.side(st.deciding)
    if all(m.deployed for m in st.models.values() if m.side == side.id):
        side.deployed = True
        rest = [s for s in st.deploy_order if not st.side(s).deployed]
        if rest:
            st.deciding = rest[0]
        else:
            start_turn(ctx)


def check_initiative(ctx: Ctx, action: Action) -> None:
    """CORE-3.1.PASS: only the initiative winner chooses whether to go first."""
    expect(action, ChooseInitiative)
    assert isinstance(action, ChooseInitiative)
    if action.side != ctx.state.deciding:
        raise IllegalAction(f"only the initiative winner {ctx.state.deciding} chooses", "CORE-3.1.PASS")


def check_decline(ctx: Ctx, action: DeclineInterrupt) -> None:
    """TURN-7: only the side being asked declines its interrupt window."""
    if action.side != ctx.state.deciding:
        raise IllegalAction(f"{action.side} is not being asked; {ctx.state.deciding} is", "TURN-7")


def _on_initiative(ctx: Ctx, action: Action) -> None:
    check_initiative(ctx, action)
    assert isinstance(action, ChooseInitiative)
    st = ctx.state
    if not action.go_first and ctx.settings["init.pass"] == "swap_first_two":
        st.order[0], st.order[1] = st.order[1], st.order[0]
    ctx.emit("initiative_choice", ("CORE-3.1.PASS", "GAP-16"), side=action.side, go_first=action.go_first,
             order=list(st.order))
    begin_cycle(ctx)


def check_activate(st: GameState, action: Action) -> str:
    """CORE-3.1.ALTERNATE / CORE-3.1.ONCE / TURN-5: the deciding side activates one eligible unit; its side."""
    expect(action, Activate)
    assert isinstance(action, Activate)
    side = _side_of_unit(st, action.unit)
    if side != st.deciding:
        raise IllegalAction(f"it is {st.deciding}'s turn to activate a unit, not {side}'s", "CORE-3.1.ALTERNATE")
    if st.units[action.unit].activated:
        raise IllegalAction(f"{action.unit} has already activated this turn", "CORE-3.1.ONCE")
    if not st.unit_in_play(action.unit):
        raise IllegalAction(f"{action.unit} is not in play", "TURN-5")
    return side


def _on_activate(ctx: Ctx, action: Action) -> None:
    st = ctx.state
    side = check_activate(st, action)
    assert isinstance(action, Activate)
    unit = st.units[action.unit]
    # TURN-6 step 1: an unused Alert token expires (`alert.expiry`=start_of_own_next_activation).
    if unit.alert and ctx.settings["alert.expiry"] == "start_of_own_next_activation":
        unit.alert = False
        ctx.emit("alert_expired", ("TURN-6", "GAP-17"), unit=unit.id)
    model = st.unit_models(unit.id)[0]
    budget = model.profile.actions
    if unit.ej_hangover:
        budget = min(budget, ctx.settings["ej.hangover_budget"])
    st.activation = ActivationState(unit=unit.id, budget=budget, bonus=unit.bonus_banked)
    banked = unit.bonus_banked
    unit.bonus_banked = 0
    ctx.emit("activation_start", ("TURN-6", "INTRO-1.2.ACTIVATION"), unit=unit.id, side=side, budget=budget,
             hangover=unit.ej_hangover, banked_bonus=banked)
    memory.checkpoint(ctx, unit.id)  # AI-D.02: a hostile unit's check at the start of its activation
    factions.at_activation(ctx, unit.id)  # GAP-44: a crew Leader's free Enemy-priority override check
    st.phase = Phase.ACTION
    st.deciding = side
    open_window(ctx, unit.id, resume="action")


def check_action(ctx: Ctx, action: Action) -> tuple[str, str, int]:
    """TURN-6: who acts and how: (actor, kind, cost). Kinds: "own", "ordered" (a crit extra action owed after
    an Order, GAP-12/GAP-37), "end" (EndActivation), "forgo" (declining that extra action)."""
    act = ctx.state.activation
    assert act is not None
    if act.extra_left > 0:
        assert act.extra_unit is not None
        if getattr(action, "unit", None) != act.extra_unit:
            raise IllegalAction(f"{act.extra_unit} must first take (or forgo) its extra action", "GAP-12")
        if isinstance(action, EndActivation):
            return act.extra_unit, "forgo", 0
        cost = dispatch.check(ctx, action, actor=act.extra_unit, context="ordered")
        if cost > 1:
            raise IllegalAction(f"the extra action is one action; {type(action).__name__} costs {cost}", "GAP-12")
        return act.extra_unit, "ordered", cost
    if isinstance(action, EndActivation):
        if action.unit != act.unit:
            raise IllegalAction(f"{action.unit} is not the active unit ({act.unit})", "TURN-6")
        return act.unit, "end", 0
    unit_id = getattr(action, "unit", None)
    if unit_id != act.unit:
        raise IllegalAction(f"{type(action).__name__} names {unit_id!r}, but {act.unit} is the active unit",
                            "CORE-3.1.ALTERNATE")
    cost = dispatch.check(ctx, action, actor=act.unit, context="own")
    left = remaining(act)
    if cost > left:
        raise IllegalAction(f"{act.unit} has {left} action(s) left, {type(action).__name__} costs {cost}",
                            "CORE-3.3.GENERAL")
    return act.unit, "own", cost


def _on_action(ctx: Ctx, action: Action) -> None:
    st = ctx.state
    act = st.activation
    assert act is not None
    actor, kind, _ = check_action(ctx, action)
    if kind == "end":
        if act.stage == "normal" and act.bonus > 0:
            act.stage = "bonus"
            ctx.emit("bonus_actions", ("TURN-6", "INTRO-1.2.CRIT-SUCCESS"), unit=act.unit, bonus=act.bonus)
            return
        end_activation(ctx)
        return
    if kind == "forgo":
        ctx.emit("extra_action_forgone", ("GAP-12",), unit=actor)
        act.extra_left = 0
        act.extra_unit = None
        after_action(ctx)
        return
    if kind == "ordered":
        act.extra_left -= 1
        if act.extra_left == 0:
            act.extra_unit = None
        dispatch.do(ctx, action, actor=actor, context="ordered")
        after_action(ctx)
        return
    spent = dispatch.do(ctx, action, actor=actor, context="own")
    if act.stage == "normal":
        act.spent += spent
    else:
        act.bonus -= spent
    act.started = True
    after_action(ctx, window=spent > 0)


def check_interrupt(ctx: Ctx, action: Interrupt) -> str:
    """TURN-7 / GAP-17: the held action is one action of the Alert unit of the side being asked, any action
    (CORE-3.3.ALERT; an Order too, SKILL-6.1.LEADER-ORDER), or the crit extra action owed to it (GAP-12); with
    `medkit.self_window`=any_time a multi-wound model may instead treat its own delayed Wound, free, keeping any
    Alert (COMBAT-4.4.MEDKIT-DELAY). Returns what it is: "alert", "extra" or "kit"."""
    st = ctx.state
    win = st.interrupt
    assert win is not None
    unit = st.units.get(action.unit)
    if unit is None or unit.side != st.deciding:
        raise IllegalAction(f"{action.unit} is not a unit of {st.deciding}", "TURN-7")
    extra = win.extra_left > 0
    if extra and action.unit != win.extra_unit:
        raise IllegalAction(f"{win.extra_unit} must first take (or forgo) its extra action", "GAP-12")
    inner = action.action
    if getattr(inner, "unit", None) != action.unit:
        raise IllegalAction("the held action must be taken by the Alert unit itself", "CORE-3.3.ALERT")
    own = next((m.id for m in st.unit_models(unit.id) if m.in_play), None)
    self_kit = isinstance(inner, UseItem) and inner.item == "medkit" and inner.target in (None, own)
    if not extra and self_kit and action.unit in window_kits(ctx, unit.side):
        dispatch.check(ctx, inner, actor=action.unit, context="window")
        return "kit"
    if not unit.alert and not extra:
        raise IllegalAction(f"{action.unit} holds no Alert action", "CORE-3.3.ALERT")
    if isinstance(inner, UseItem) and inner.item == "electric_juice":
        raise IllegalAction("Electric Juice cannot be used with a held Alert action", "GAP-17")
    cost = dispatch.check(ctx, inner, actor=action.unit, context="alert")
    if cost > 1:
        raise IllegalAction(f"the held action is one action; {type(inner).__name__} costs {cost}", "GAP-17")
    return "extra" if extra else "alert"


def _on_interrupt(ctx: Ctx, action: Action) -> None:
    expect(action, Interrupt, DeclineInterrupt)
    st = ctx.state
    win = st.interrupt
    assert win is not None
    if isinstance(action, DeclineInterrupt):
        check_decline(ctx, action)
        if win.extra_left > 0:
            ctx.emit("extra_action_forgone", ("GAP-12",), unit=win.extra_unit)
            win.extra_left = 0
            win.extra_unit = None
            refresh_window(ctx)
            return
        ctx.emit("interrupt_declined", ("TURN-7",), side=action.side)
        close_window_side(ctx)
        return
    assert isinstance(action, Interrupt)
    kind = check_interrupt(ctx, action)
    unit = st.units[action.unit]
    inner = action.action
    if kind == "kit":
        # COMBAT-4.4.MEDKIT-DELAY: a free act, not the held action; the same side may still act at this window.
        dispatch.do(ctx, inner, actor=action.unit, context="window")
        if check_early_end(ctx):
            return
        refresh_window(ctx)
        return
    if kind == "extra":
        win.extra_left -= 1
        if win.extra_left == 0:
            win.extra_unit = None
    else:
        unit.alert = False
    ctx.emit("interrupt", ("TURN-7", "CORE-3.3.ALERT"), unit=action.unit, action=type(inner).__name__,
             acting_unit=win.acting_unit)
    win.held_by = action.unit
    dispatch.do(ctx, inner, actor=action.unit, context="alert")
    dispatch.run_continuations(ctx)
    if st.phase in (Phase.MEDKIT, Phase.PARRY, Phase.FOUND_ITEM):
        return
    if check_early_end(ctx):
        return
    win.held_by = None
    if memory.is_hostile_unit(ctx, action.unit):
        memory.checkpoint(ctx, action.unit)
    if st.trigger_queue and st.spawning is None:
        finish_spawn(ctx, spawn.begin(ctx, "window"))  # TURN-8: a held move that triggered a location
        return
    refresh_window(ctx)


def check_medkit_decision(ctx: Ctx, action: Action) -> int:
    """COMBAT-4.4.MEDKIT-SELF/-MULTI (GAP-32): at the moment of a Wound only the wounded model decides, dressing
    at most `medkit.max_per_round` Wounds of that round with its own kits. Returns the round's cap."""
    expect(action, UseItem, DeclineMedKit)
    st = ctx.state
    dec = st.wound_queue[0]
    m = st.models[dec.model]
    if isinstance(action, DeclineMedKit):
        if action.model != dec.model:
            raise IllegalAction(f"the decision is about {dec.model}, not {action.model}", "COMBAT-4.4.MEDKIT-SELF")
        return 0
    assert isinstance(action, UseItem)
    if action.item != "medkit" or action.unit != m.unit or action.target not in (None, dec.model):
        raise IllegalAction(f"only {dec.model} may dress its own Wound now", "COMBAT-4.4.MEDKIT-SELF")
    if medkits(m) == 0:
        raise IllegalAction(f"{dec.model} carries no Med-Kit", "EQUIP-6.2.MEDKIT")
    cap = min(ctx.settings["medkit.max_per_round"], dec.wounds)
    if dec.dressed >= cap:
        raise IllegalAction(f"at most {cap} Wound(s) of this round can be dressed", "COMBAT-4.4.MEDKIT-MULTI")
    return cap


def _on_medkit(ctx: Ctx, action: Action) -> None:
    st = ctx.state
    cap = check_medkit_decision(ctx, action)
    dec = st.wound_queue[0]
    m = st.models[dec.model]
    if isinstance(action, DeclineMedKit):
        ctx.emit("medkit_declined", ("COMBAT-4.4.MEDKIT-DELAY",), model=dec.model)
        _finish_wound_decision(ctx)
        return
    dress_wound(ctx, dec.model, dec.model)
    dec.dressed += 1
    if dec.dressed >= cap or medkits(m) == 0 or m.wounds_taken == 0:
        _finish_wound_decision(ctx)


def _finish_wound_decision(ctx: Ctx) -> None:
    """Settle the decided Wound; the next queued decision follows, except that one whose model has no Med-Kit left
    (it used its last on an earlier Wound of the queue, e.g. two hits of a Withdraw's free attacks) is settled at
    once: there is nothing to decide (COMBAT-4.4.MEDKIT-SELF)."""
    st = ctx.state
    dec = st.wound_queue.pop(0)
    settle_wounds(ctx, dec.model, dec.round_id)
    while st.wound_queue and medkits(st.models[st.wound_queue[0].model]) == 0:
        later = st.wound_queue.pop(0)  # COMBAT-4.4.MEDKIT-SELF: its last kit went on an earlier Wound: no decision
        if not st.models[later.model].ooa:
            settle_wounds(ctx, later.model, later.round_id)
    if st.wound_queue:
        st.deciding = st.models[st.wound_queue[0].model].side
        return
    resume(ctx)


def _on_parry(ctx: Ctx, action: Action) -> None:
    """COMBAT-4.2.PARRY: the melee attacker's choice once both sides have rolled."""
    expect(action, Parry)
    assert isinstance(action, Parry)
    c = check_parry(ctx, action)
    c["parry"] = action.hits
    resume(ctx)




def check_hostile_roll(ctx: Ctx, action: Action) -> None:
    """HOSTILE-8.3.ROLL / GAP-52: the triggering player picks a result the Inspect shift allows."""
    expect(action, ChooseHostileRoll)
    assert isinstance(action, ChooseHostileRoll)
    spawn.check_roll_choice(ctx, action.side, action.result)


def _on_hostile_roll(ctx: Ctx, action: Action) -> None:
    check_hostile_roll(ctx, action)
    assert isinstance(action, ChooseHostileRoll)
    finish_spawn(ctx, spawn.choose_roll(ctx, action.side, action.result))


def check_found_item(ctx: Ctx, action: Action) -> None:
    """GAP-57: the side owed the choice picks an item of that roll's equipment table."""
    expect(action, ChooseFoundItem)
    assert isinstance(action, ChooseFoundItem)
    salvage.check_found_item(ctx, action.side, action.item)


def _on_found_item(ctx: Ctx, action: Action) -> None:
    """GAP-57: stow the chosen item; with no choice left, finish what the search interrupted (its after-action
    step: the interrupt window, the rest of the activation)."""
    check_found_item(ctx, action)
    assert isinstance(action, ChooseFoundItem)
    if not salvage.choose_found_item(ctx, action.side, action.item):
        resume(ctx)


def check_spawn_move(ctx: Ctx, action: Action) -> None:
    """HOSTILE-8.3.FREE-MOVE / AI-S.SPAWN: the pending unit's free Move, or StayPut."""
    expect(action, Move, StayPut)
    assert isinstance(action, (Move, StayPut))
    spawn.check_free_move(ctx, action)


def _on_spawn_move(ctx: Ctx, action: Action) -> None:
    check_spawn_move(ctx, action)
    assert isinstance(action, (Move, StayPut))
    unit = spawn.do_free_move(ctx, action)
    spawn_after_free_move(ctx, unit)


PHASE_HANDLERS: dict[Phase, Callable[[Ctx, Action], None]] = {
    Phase.DEPLOY: _on_deploy,
    Phase.INITIATIVE: _on_initiative,
    Phase.ACTIVATE: _on_activate,
    Phase.ACTION: _on_action,
    Phase.INTERRUPT: _on_interrupt,
    Phase.MEDKIT: _on_medkit,
    Phase.PARRY: _on_parry,
    Phase.HOSTILE_ROLL: _on_hostile_roll,
    Phase.SPAWN_MOVE: _on_spawn_move,
    Phase.FOUND_ITEM: _on_found_item,
}
