"""`apply(state, action, dice) -> events`: the one writer of the game state, and the turn state machine (TURN-1..11)."""
from __future__ import annotations

from typing import Callable

from game.core.rules import unit_actions
from game.core.actions import (
    Action,
    Activate,
    ChooseInitiative,
    DeclineInterrupt,
    DeclineMedKit,
    Deploy,
    EndActivation,
    IllegalAction,
    Interrupt,
    Parry,
    UseItem,
)
from game.core.rules.fire import run_continuations
from game.core.rules.context import Ctx, NoDice
from game.core.dice import Dice
from game.core.events import Event
from game.core.rules.melee import check_parry
from game.core.state import ActivationState, GameState, InterruptWindow, Phase, SideKind
from game.core.rules.turnrolls import crew_sides, roll_initiative
from game.core.rules.wounds import dress_wound, medkits, settle_wounds


# --------------------------------------------------------------------------------------------------
# apply


def apply(state: GameState, action: Action, dice: Dice | None = None) -> list[Event]:
    """Validate and resolve one decision; raise IllegalAction (naming the rule) leaving state unchanged.

    Randomness comes from the state's PRNG unless scripted dice are passed (STYLE habit 4).
    """
    ctx = Ctx(state, dice if dice is not None else state.rng, state.battlefield)
    handler = _PHASE_HANDLERS.get(state.phase)
    if handler is None:
        raise IllegalAction(f"the mission is over; no {type(action).__name__} is possible", "TURN-11")
    handler(ctx, action)
    return ctx.events


def _expect(action: Action, *types: type) -> None:
    if not isinstance(action, types):
        names = " or ".join(t.__name__ for t in types)
        raise IllegalAction(f"{type(action).__name__} is not possible now: expected {names}", "TURN-1")


def _side_of_unit(state: GameState, unit_id: str) -> str:
    unit = state.units.get(unit_id)
    if unit is None:
        raise IllegalAction(f"no unit {unit_id!r}", "TURN-1")
    return unit.side


# --- DEPLOY (TURN-4) ---------------------------------------------------------------------------


def _on_deploy(ctx: Ctx, action: Action) -> None:
    _expect(action, Deploy)
    st = ctx.state
    assert isinstance(action, Deploy)
    unit_actions.check_deploy(ctx, action)
    unit_actions.do_deploy(ctx, action)
    side = st.side(st.deciding)
    if all(m.deployed for m in st.models.values() if m.side == side.id):
        side.deployed = True
        rest = [s for s in st.deploy_order if not st.side(s).deployed]
        if rest:
            st.deciding = rest[0]
        else:
            start_turn(ctx)


# --- TURN START / INITIATIVE (TURN-4.1) ---------------------------------------------------------


def start_turn(ctx: Ctx) -> None:
    st = ctx.state
    st.turn += 1
    ctx.emit("turn_start", ("TURN-1", "CORE-3.1.TURN-END"), turn=st.turn, turn_limit=st.turn_limit)
    crews = [s for s in crew_sides(st) if any(st.unit_in_play(u.id) for u in st.units.values() if u.side == s)]
    order = roll_initiative(ctx, crews, purpose="turn") if crews else []
    hostiles = [s.id for s in st.sides if s.kind is SideKind.HOSTILE]
    st.order = order + hostiles
    if len(order) >= 2:
        st.phase = Phase.INITIATIVE
        st.deciding = order[0]
    else:
        _begin_cycle(ctx)


def _on_initiative(ctx: Ctx, action: Action) -> None:
    _expect(action, ChooseInitiative)
    assert isinstance(action, ChooseInitiative)
    st = ctx.state
    if action.side != st.deciding:
        raise IllegalAction(f"only the initiative winner {st.deciding} chooses", "CORE-3.1.PASS")
    if not action.go_first and ctx.settings["init.pass"] == "swap_first_two":
        st.order[0], st.order[1] = st.order[1], st.order[0]
    ctx.emit("initiative_choice", ("CORE-3.1.PASS", "GAP-16"), side=action.side, go_first=action.go_first,
             order=list(st.order))
    _begin_cycle(ctx)


# --- ACTIVATION CYCLE (TURN-5) ------------------------------------------------------------------


def eligible_units(st: GameState, side_id: str) -> list[str]:
    """TURN-5: on the table, not OOA/Dead, not yet activated this turn (Pinned units are eligible)."""
    return [u.id for u in st.units.values() if u.side == side_id and not u.activated and st.unit_in_play(u.id)]


def _begin_cycle(ctx: Ctx) -> None:
    st = ctx.state
    st.cycle = -1
    _next_in_cycle(ctx)


def _next_in_cycle(ctx: Ctx) -> None:
    """Walk the order list; a side with no eligible unit is skipped (TURN-5, `hostiles.interleave`)."""
    st = ctx.state
    n = len(st.order)
    for step in range(1, n + 1):
        idx = (st.cycle + step) % n
        if eligible_units(st, st.order[idx]):
            st.cycle = idx
            st.phase = Phase.ACTIVATE
            st.deciding = st.order[idx]
            return
    end_turn(ctx)


def _check_activate(st: GameState, action: Action) -> str:
    """CORE-3.1.ALTERNATE / CORE-3.1.ONCE / TURN-5: the deciding side activates one eligible unit; its side."""
    _expect(action, Activate)
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
    side = _check_activate(st, action)
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
    st.phase = Phase.ACTION
    st.deciding = side
    _open_window(ctx, unit.id, resume="action")


def remaining(act: ActivationState) -> int:
    """Actions the active unit may still spend in its current stage."""
    return act.budget - act.spent if act.stage == "normal" else act.bonus


def _check_action(ctx: Ctx, action: Action) -> tuple[str, str, int]:
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
        cost = unit_actions.check(ctx, action, actor=act.extra_unit, context="ordered")
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
    cost = unit_actions.check(ctx, action, actor=act.unit, context="own")
    left = remaining(act)
    if cost > left:
        raise IllegalAction(f"{act.unit} has {left} action(s) left, {type(action).__name__} costs {cost}",
                            "CORE-3.3.GENERAL")
    return act.unit, "own", cost


def _on_action(ctx: Ctx, action: Action) -> None:
    st = ctx.state
    act = st.activation
    assert act is not None
    actor, kind, _ = _check_action(ctx, action)
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
        _after_action(ctx)
        return
    if kind == "ordered":
        act.extra_left -= 1
        if act.extra_left == 0:
            act.extra_unit = None
        unit_actions.do(ctx, action, actor=actor, context="ordered")
        _after_action(ctx)
        return
    spent = unit_actions.do(ctx, action, actor=actor, context="own")
    if act.stage == "normal":
        act.spent += spent
    else:
        act.bonus -= spent
    act.started = True
    _after_action(ctx, window=spent > 0)


def _after_action(ctx: Ctx, *, window: bool = True) -> None:
    """After each action: finish its resolution, early end (TURN-10), the interrupt window (TURN-7), continue.

    A free act (Electric Juice, a self Med-Kit, a failed free Skill Check) is not an action: no window."""
    st = ctx.state
    run_continuations(ctx)
    if st.phase in (Phase.MEDKIT, Phase.PARRY):
        return
    if _check_early_end(ctx):
        return
    act = st.activation
    if act is None:
        return
    if act.extra_left > 0:
        st.phase = Phase.ACTION
        st.deciding = st.units[act.unit].side
        return
    if not window or not _open_window(ctx, act.unit, resume="after"):
        _continue_activation(ctx)


def _continue_activation(ctx: Ctx) -> None:
    st = ctx.state
    act = st.activation
    assert act is not None
    if not st.unit_in_play(act.unit):
        end_activation(ctx)
        return
    if act.stage == "normal" and act.spent >= act.budget:
        if act.bonus > 0:
            act.stage = "bonus"
            ctx.emit("bonus_actions", ("TURN-6", "INTRO-1.2.CRIT-SUCCESS"), unit=act.unit, bonus=act.bonus)
        else:
            end_activation(ctx)
            return
    if act.stage == "bonus" and act.bonus <= 0:
        end_activation(ctx)
        return
    st.phase = Phase.ACTION
    st.deciding = st.units[act.unit].side


def end_activation(ctx: Ctx) -> None:
    """TURN-6 step 5: mark Activated, clear Aim; the next side activates (TURN-5)."""
    st = ctx.state
    act = st.activation
    assert act is not None
    unit = st.units[act.unit]
    unit.activated = True
    for task in st.tasks.values():
        task.tried = []  # CORE-3.4.CHECK `task.retry`: one attempt per activation, whoever's activation it was
    lost = remaining(act) + (act.bonus if act.stage == "normal" else 0)
    ctx.emit("activation_end", ("TURN-6",), unit=act.unit, unused_actions=lost)
    st.activation = None
    if _check_early_end(ctx):
        return
    _next_in_cycle(ctx)


# --- INTERRUPTS (TURN-7) -----------------------------------------------------------------------


def _alert_sides(st: GameState, acting_unit: str) -> list[str]:
    """TURN-7: the sides that are opponents of the acting unit and hold an Alert unit in play, in initiative
    order. Hostile forces oppose every crew but never each other (GAP-114)."""
    acting_side = st.units[acting_unit].side
    acting_hostile = st.side(acting_side).kind is SideKind.HOSTILE
    sides = []
    for side_id in st.order:
        if side_id == acting_side or (acting_hostile and st.side(side_id).kind is SideKind.HOSTILE):
            continue
        if any(u.alert and u.side == side_id and st.unit_in_play(u.id) for u in st.units.values()):
            sides.append(side_id)
    return sides


def _open_window(ctx: Ctx, acting_unit: str, *, resume: str) -> bool:
    """TURN-7: a window before the first action and after each action of an opposing unit."""
    st = ctx.state
    sides = _alert_sides(st, acting_unit)
    if not sides:
        return False
    st.interrupt = InterruptWindow(acting_unit=acting_unit, sides=sides, resume=resume)
    st.phase = Phase.INTERRUPT
    st.deciding = sides[0]
    ctx.emit("interrupt_window", ("TURN-7", "CORE-3.3.ALERT"), acting_unit=acting_unit, sides=list(sides))
    return True


def _check_interrupt(ctx: Ctx, action: Interrupt) -> bool:
    """TURN-7 / GAP-17: the held action is one action of the Alert unit of the side being asked (or the
    crit extra action owed to it, GAP-12). Returns True when it is that extra action."""
    st = ctx.state
    win = st.interrupt
    assert win is not None
    unit = st.units.get(action.unit)
    if unit is None or unit.side != st.deciding:
        raise IllegalAction(f"{action.unit} is not a unit of {st.deciding}", "TURN-7")
    extra = win.extra_left > 0
    if extra and action.unit != win.extra_unit:
        raise IllegalAction(f"{win.extra_unit} must first take (or forgo) its extra action", "GAP-12")
    if not unit.alert and not extra:
        raise IllegalAction(f"{action.unit} holds no Alert action", "CORE-3.3.ALERT")
    inner = action.action
    if getattr(inner, "unit", None) != action.unit:
        raise IllegalAction("the held action must be taken by the Alert unit itself", "CORE-3.3.ALERT")
    if isinstance(inner, UseItem) and inner.item == "electric_juice":
        raise IllegalAction("Electric Juice cannot be used with a held Alert action", "GAP-17")
    cost = unit_actions.check(ctx, inner, actor=action.unit, context="alert")
    if cost > 1:
        raise IllegalAction(f"the held action is one action; {type(inner).__name__} costs {cost}", "GAP-17")
    return extra


def _on_interrupt(ctx: Ctx, action: Action) -> None:
    _expect(action, Interrupt, DeclineInterrupt)
    st = ctx.state
    win = st.interrupt
    assert win is not None
    if isinstance(action, DeclineInterrupt):
        if action.side != st.deciding:
            raise IllegalAction(f"{action.side} is not being asked; {st.deciding} is", "TURN-7")
        if win.extra_left > 0:
            ctx.emit("extra_action_forgone", ("GAP-12",), unit=win.extra_unit)
            win.extra_left = 0
            win.extra_unit = None
            _refresh_window(ctx)
            return
        ctx.emit("interrupt_declined", ("TURN-7",), side=action.side)
        _close_window_side(ctx)
        return
    assert isinstance(action, Interrupt)
    extra = _check_interrupt(ctx, action)
    unit = st.units[action.unit]
    inner = action.action
    if extra:
        win.extra_left -= 1
        if win.extra_left == 0:
            win.extra_unit = None
    else:
        unit.alert = False
    ctx.emit("interrupt", ("TURN-7", "CORE-3.3.ALERT"), unit=action.unit, action=type(inner).__name__,
             acting_unit=win.acting_unit)
    unit_actions.do(ctx, inner, actor=action.unit, context="alert")
    run_continuations(ctx)
    if st.phase in (Phase.MEDKIT, Phase.PARRY):
        return
    if _check_early_end(ctx):
        return
    _refresh_window(ctx)


def _refresh_window(ctx: Ctx) -> None:
    """After an interrupt the same side may use another Alert unit; else ask the next side."""
    st = ctx.state
    win = st.interrupt
    assert win is not None
    side = win.sides[0]
    if win.extra_left > 0 or any(u.alert and u.side == side and st.unit_in_play(u.id) for u in st.units.values()):
        st.phase = Phase.INTERRUPT
        st.deciding = side
        return
    _close_window_side(ctx)


def _close_window_side(ctx: Ctx) -> None:
    st = ctx.state
    win = st.interrupt
    assert win is not None
    win.sides.pop(0)
    while win.sides and not any(u.alert and u.side == win.sides[0] and st.unit_in_play(u.id)
                                for u in st.units.values()):
        win.sides.pop(0)
    if win.sides:
        st.phase = Phase.INTERRUPT
        st.deciding = win.sides[0]
        return
    st.interrupt = None
    _resume_after_window(ctx, win.resume)


def _resume_after_window(ctx: Ctx, resume: str) -> None:
    st = ctx.state
    act = st.activation
    if act is None:
        _next_in_cycle(ctx)
        return
    if not st.unit_in_play(act.unit):
        end_activation(ctx)
        return
    if resume == "action":
        st.phase = Phase.ACTION
        st.deciding = st.units[act.unit].side
    else:
        _continue_activation(ctx)


# --- MEDKIT decisions (COMBAT-4.4.MEDKIT-*) -----------------------------------------------------


def _check_medkit_decision(ctx: Ctx, action: Action) -> int:
    """COMBAT-4.4.MEDKIT-SELF/-MULTI (GAP-32): at the moment of a Wound only the wounded model decides, dressing
    at most `medkit.max_per_round` Wounds of that round with its own kits. Returns the round's cap."""
    _expect(action, UseItem, DeclineMedKit)
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
    cap = _check_medkit_decision(ctx, action)
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
    st = ctx.state
    dec = st.wound_queue.pop(0)
    settle_wounds(ctx, dec.model, dec.round_id)
    if st.wound_queue:
        st.deciding = st.models[st.wound_queue[0].model].side
        return
    _resume(ctx)


def _resume(ctx: Ctx) -> None:
    """Continue what a Med-Kit or Parry decision interrupted: the rest of the resolution, then the flow."""
    st = ctx.state
    st.phase = Phase.INTERRUPT if st.interrupt is not None else Phase.ACTION if st.activation is not None \
        else Phase.ACTIVATE
    run_continuations(ctx)
    if st.phase in (Phase.MEDKIT, Phase.PARRY):
        return
    if _check_early_end(ctx):
        return
    if st.interrupt is not None:
        _refresh_window(ctx)
    elif st.activation is not None:
        _after_action(ctx)
    else:
        _next_in_cycle(ctx)


def _on_parry(ctx: Ctx, action: Action) -> None:
    """COMBAT-4.2.PARRY: the melee attacker's choice once both sides have rolled."""
    _expect(action, Parry)
    assert isinstance(action, Parry)
    c = check_parry(ctx, action)
    c["parry"] = action.hits
    _resume(ctx)


# --- TURN END / MISSION END (TURN-9..TURN-11) ---------------------------------------------------


def end_turn(ctx: Ctx) -> None:
    """TURN-9: clear Activated, expire smoke, Electric Juice hangover, next turn or mission end."""
    st = ctx.state
    alert_ends = ctx.settings["alert.expiry"] == "end_of_turn"
    carry = ctx.settings["crit.offturn"] == "next_activation"
    for u in st.units.values():
        u.activated = False
        u.ej_hangover = u.ej_this_turn
        u.ej_this_turn = False
        if not carry:
            u.bonus_banked = 0  # INTRO-1.2.CRIT-SUCCESS: an extra action not used this turn is lost (GAP-12)
        if alert_ends and u.alert:
            u.alert = False
            ctx.emit("alert_expired", ("TURN-9", "GAP-17"), unit=u.id)
    expired = [c for c in st.smoke if c.get("expires_after_turn", st.turn) <= st.turn]
    st.smoke = [c for c in st.smoke if c not in expired]
    ctx.emit("turn_end", ("TURN-9",), turn=st.turn, smoke_expired=len(expired))
    if st.turn >= st.turn_limit:
        end_mission(ctx, reason="turn limit reached")
        return
    start_turn(ctx)


def _check_early_end(ctx: Ctx) -> bool:
    """TURN-10 (`mission.early_end`=no_player_models): end at once when no crew has a model in play."""
    st = ctx.state
    if st.phase is Phase.MISSION_END:
        return True
    if ctx.settings["mission.early_end"] != "no_player_models":
        return False
    if any(m.in_play for m in st.models.values() if st.side(m.side).kind is SideKind.CREW):
        return False
    end_mission(ctx, reason="no player crew model in play")
    return True


def end_mission(ctx: Ctx, *, reason: str) -> None:
    """TURN-11: freeze the board and record each crew model's fate."""
    st = ctx.state
    fates: dict[str, dict[str, str]] = {}
    for s in crew_sides(st):
        fates[s] = {}
        for m in st.models.values():
            if m.side == s:
                fates[s][m.id] = "dead" if m.dead else "ooa" if m.ooa else "survived" if m.deployed else "absent"
    st.phase = Phase.MISSION_END
    st.deciding = ""
    st.activation = None
    st.interrupt = None
    st.result = {"reason": reason, "turn": st.turn, "fates": fates,
                 "tasks_done": sorted(t.id for t in st.tasks.values() if t.done)}
    ctx.emit("mission_end", ("TURN-11", "TURN-10" if "no player" in reason else "TURN-9"), **st.result)


def _on_action_phase(ctx: Ctx, action: Action) -> None:
    _on_action(ctx, action)


_PHASE_HANDLERS: dict[Phase, Callable[[Ctx, Action], None]] = {
    Phase.DEPLOY: _on_deploy,
    Phase.INITIATIVE: _on_initiative,
    Phase.ACTIVATE: _on_activate,
    Phase.ACTION: _on_action_phase,
    Phase.INTERRUPT: _on_interrupt,
    Phase.MEDKIT: _on_medkit,
    Phase.PARRY: _on_parry,
}


def validate(state: GameState, action: Action) -> None:
    """Raise IllegalAction if `action` is not legal now; never changes the state or draws dice.

    The client's preview and the agents use this; `apply` runs the same checks before resolving."""
    ctx = Ctx(state, NoDice(), state.battlefield)
    st = state
    ph = st.phase
    if ph is Phase.MISSION_END:
        raise IllegalAction("the mission is over", "TURN-11")
    if ph is Phase.DEPLOY:
        _expect(action, Deploy)
        unit_actions.check_deploy(ctx, action)  # type: ignore[arg-type]
        return
    if ph is Phase.INITIATIVE:
        _expect(action, ChooseInitiative)
        if action.side != st.deciding:  # type: ignore[attr-defined]
            raise IllegalAction(f"only the initiative winner {st.deciding} chooses", "CORE-3.1.PASS")
        return
    if ph is Phase.ACTIVATE:
        _check_activate(st, action)
        return
    if ph is Phase.PARRY:
        _expect(action, Parry)
        check_parry(ctx, action)  # type: ignore[arg-type]
        return
    if ph is Phase.MEDKIT:
        _check_medkit_decision(ctx, action)
        return
    if ph is Phase.INTERRUPT:
        _expect(action, Interrupt, DeclineInterrupt)
        win = st.interrupt
        assert win is not None
        if isinstance(action, DeclineInterrupt):
            if action.side != st.deciding:
                raise IllegalAction(f"{st.deciding} is being asked", "TURN-7")
            return
        _check_interrupt(ctx, action)  # type: ignore[arg-type]
        return
    _check_action(ctx, action)
