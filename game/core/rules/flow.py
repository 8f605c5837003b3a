"""The turn machine's flow (TURN-1, TURN-5..TURN-11): turns, the activation cycle, interrupt windows, resuming
after a decision, the end of a turn and of the mission. What a decision in each phase does is in phases.py."""
from __future__ import annotations

import game.core.rules.memory as memory
import game.core.rules.spawn as spawn
from game.core.actions import IllegalAction, UseItem
from game.core.rules.context import Ctx
from game.core.rules.dispatch import check as check_unit_action
from game.core.rules.dispatch import run_continuations
from game.core.rules.turnrolls import crew_sides, roll_initiative
from game.core.state import ActivationState, GameState, InterruptWindow, Phase, SideKind


def eligible_units(st: GameState, side_id: str) -> list[str]:
    """TURN-5: on the table, not OOA/Dead, not yet activated this turn (Pinned units are eligible)."""
    return [u.id for u in st.units.values() if u.side == side_id and not u.activated and st.unit_in_play(u.id)]


def remaining(act: ActivationState) -> int:
    """Actions the active unit may still spend in its current stage."""
    return act.budget - act.spent if act.stage == "normal" else act.bonus


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
        begin_cycle(ctx)


def begin_cycle(ctx: Ctx) -> None:
    st = ctx.state
    st.cycle = -1
    next_in_cycle(ctx)


def next_in_cycle(ctx: Ctx) -> None:
    """Walk the order list; a side with no eligible unit is skipped (TURN-5). With `hostiles.interleave`=round_robin
    (GAP-18) each hostile force is a seat after the crews in every round; with after_players the crews alternate
    until none has an eligible unit, then the hostile forces take their turns round-robin."""
    st = ctx.state
    idx = next_seat(st, after_players=ctx.settings["hostiles.interleave"] == "after_players")
    if idx is None:
        end_turn(ctx)
        return
    st.cycle = idx
    st.phase = Phase.ACTIVATE
    st.deciding = st.order[idx]


def next_seat(st: GameState, *, after_players: bool, done: str | None = None) -> int | None:
    """The index in `st.order` of the side the activation cycle passes to next, None when no side has a unit left
    (the turn ends): the first side after the current seat with an eligible unit (TURN-5), crews first and then the
    hostile forces with `hostiles.interleave`=after_players (GAP-18). `done`: a unit to count as activated already
    (the one acting now, for a preview of who is next while its activation runs)."""
    n = len(st.order)
    passes = ([lambda s: s not in st.forces, lambda s: s in st.forces] if after_players else [lambda s: True])
    for wanted in passes:
        for step in range(1, n + 1):
            idx = (st.cycle + step) % n
            side = st.order[idx]
            if wanted(side) and any(u != done for u in eligible_units(st, side)):
                return idx
    return None


def after_action(ctx: Ctx, *, window: bool = True) -> None:
    """After each action: finish its resolution, early end (TURN-10), the interrupt window (TURN-7), continue.

    A free act (Electric Juice, a self Med-Kit, a failed free Skill Check) is not an action: no window."""
    st = ctx.state
    run_continuations(ctx)
    if st.phase in (Phase.MEDKIT, Phase.PARRY, Phase.FOUND_ITEM):
        return
    if check_early_end(ctx):
        return
    act = st.activation
    if act is None:
        return
    if memory.is_hostile_unit(ctx, act.unit):
        memory.checkpoint(ctx, act.unit)  # AI-D.02: a check after each of the hostile unit's actions
    if st.trigger_queue and st.spawning is None:
        # TURN-8: the locations this action triggered spawn now, before its interrupt window
        if spawn.begin(ctx, "after" if window else "after_nowindow") == "decide":
            return
    if act.extra_left > 0:
        st.phase = Phase.ACTION
        st.deciding = st.units[act.unit].side
        return
    if not window or not open_window(ctx, act.unit, resume="after"):
        continue_activation(ctx)


def finish_spawn(ctx: Ctx, result: str) -> None:
    """After `spawn` answered "done:<then>": finish what the trigger interrupted (TURN-8): the acting unit's
    after-action step (with or without its window) or the interrupt window whose held action triggered it."""
    if result == "decide":
        return
    then = result.split(":", 1)[1]
    if then == "window":
        refresh_window(ctx)
    else:
        after_action(ctx, window=then == "after")


def spawn_after_free_move(ctx: Ctx, unit: str) -> None:
    """TURN-7: a window after a spawned unit's free move (not inside another window: a held action opens none);
    then the next free move, location, or the flow the trigger interrupted."""
    if ctx.state.interrupt is None and open_window(ctx, unit, resume="spawn"):
        return
    finish_spawn(ctx, spawn.advance(ctx))


def continue_activation(ctx: Ctx) -> None:
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
    for loc in st.locations.values():
        loc.search_tried = []  # a failed search Skill Check is tried again in a later activation
        loc.anomaly_tried = []  # GAP-56 `anomaly.retry`: a failed anomaly check, again in a later activation
    lost = remaining(act) + (act.bonus if act.stage == "normal" else 0)
    memory.end_activation(ctx, act.unit)  # AI-D.02 (ii), AI-D.03
    ctx.emit("activation_end", ("TURN-6",), unit=act.unit, unused_actions=lost)
    st.activation = None
    if check_early_end(ctx):
        return
    next_in_cycle(ctx)


def window_kits(ctx: Ctx, side_id: str) -> list[str]:
    """COMBAT-4.4.MEDKIT-DELAY (`medkit.self_window`=any_time): the units of a side whose model may treat its
    own delayed Wound now, as a free act at a TURN-7 window: a multi-wound model in play with an untreated Wound and a
    Med-Kit, free to use it (Pins, prone, Engaged). Hostiles and `ai` sides decide at the Wound (AI-D.11), so none."""
    st = ctx.state
    side = st.side(side_id)
    if ctx.settings["medkit.self_window"] != "any_time" or side.kind is SideKind.HOSTILE or side.controller == "ai":
        return []
    out = []
    for u in st.units.values():
        if u.side != side_id or not st.unit_in_play(u.id):
            continue
        m = next(x for x in st.unit_models(u.id) if x.in_play)
        if m.profile.wounds <= 1 or m.wounds_taken <= 0 or "medkit" not in m.items:
            continue
        try:
            check_unit_action(ctx, UseItem(u.id, "medkit"), actor=u.id, context="window")
        except IllegalAction:
            continue
        out.append(u.id)
    return out


def _may_interrupt(ctx: Ctx, side_id: str) -> bool:
    """TURN-7: the side holds an Alert unit in play, or a unit that may use its own Med-Kit at the window."""
    st = ctx.state
    return (any(u.alert and u.side == side_id and st.unit_in_play(u.id) for u in st.units.values())
            or bool(window_kits(ctx, side_id)))


def _window_sides(ctx: Ctx, acting_unit: str) -> list[str]:
    """TURN-7: the sides that are opponents of the acting unit and may act at its window (an Alert unit in play, or
    a delayed self Med-Kit, COMBAT-4.4.MEDKIT-DELAY), in initiative order. Hostile forces oppose every crew but never
    each other (GAP-114)."""
    st = ctx.state
    acting_side = st.units[acting_unit].side
    acting_hostile = st.side(acting_side).kind is SideKind.HOSTILE
    sides = []
    for side_id in st.order:
        if side_id == acting_side or (acting_hostile and st.side(side_id).kind is SideKind.HOSTILE):
            continue
        if _may_interrupt(ctx, side_id):
            sides.append(side_id)
    return sides


def open_window(ctx: Ctx, acting_unit: str, *, resume: str) -> bool:
    """TURN-7: a window before the first action and after each action of an opposing unit."""
    st = ctx.state
    sides = _window_sides(ctx, acting_unit)
    if not sides:
        return False
    st.interrupt = InterruptWindow(acting_unit=acting_unit, sides=sides, resume=resume)
    st.phase = Phase.INTERRUPT
    st.deciding = sides[0]
    kits = [k for s in sides for k in window_kits(ctx, s)]
    more = {"medkits": kits} if kits else {}
    ctx.emit("interrupt_window", ("TURN-7", "CORE-3.3.ALERT") + (("COMBAT-4.4.MEDKIT-DELAY",) if kits else ()),
             acting_unit=acting_unit, sides=list(sides), **more)
    return True


def refresh_window(ctx: Ctx) -> None:
    """After an interrupt the same side may use another Alert unit or Med-Kit; else ask the next side."""
    st = ctx.state
    win = st.interrupt
    assert win is not None
    side = win.sides[0]
    if win.extra_left > 0 or _may_interrupt(ctx, side):
        st.phase = Phase.INTERRUPT
        st.deciding = side
        return
    close_window_side(ctx)


def close_window_side(ctx: Ctx) -> None:
    st = ctx.state
    win = st.interrupt
    assert win is not None
    win.sides.pop(0)
    while win.sides and not _may_interrupt(ctx, win.sides[0]):
        win.sides.pop(0)
    if win.sides:
        st.phase = Phase.INTERRUPT
        st.deciding = win.sides[0]
        return
    st.interrupt = None
    resume_after_window(ctx, win.resume)


def resume_after_window(ctx: Ctx, resume: str) -> None:
    st = ctx.state
    if resume == "spawn":
        finish_spawn(ctx, spawn.advance(ctx))
        return
    act = st.activation
    if act is None:
        next_in_cycle(ctx)
        return
    if not st.unit_in_play(act.unit):
        end_activation(ctx)
        return
    if resume == "action":
        st.phase = Phase.ACTION
        st.deciding = st.units[act.unit].side
    else:
        continue_activation(ctx)


def resume(ctx: Ctx) -> None:
    """Continue what a Med-Kit, Parry or found-item decision interrupted: the rest of the resolution, then the flow."""
    st = ctx.state
    st.phase = Phase.INTERRUPT if st.interrupt is not None else Phase.ACTION if st.activation is not None \
        else Phase.ACTIVATE
    run_continuations(ctx)
    if st.phase in (Phase.MEDKIT, Phase.PARRY, Phase.FOUND_ITEM):
        return
    if check_early_end(ctx):
        return
    if st.interrupt is not None:
        held, st.interrupt.held_by = st.interrupt.held_by, None
        if held is not None and memory.is_hostile_unit(ctx, held):
            memory.checkpoint(ctx, held)  # AI-D.02: the check after a held action that waited for a decision
        if st.trigger_queue and st.spawning is None:
            finish_spawn(ctx, spawn.begin(ctx, "window"))
            return
        refresh_window(ctx)
    elif st.activation is not None:
        after_action(ctx)
    else:
        next_in_cycle(ctx)


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


def check_early_end(ctx: Ctx) -> bool:
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
    """TURN-11: freeze the board, record each crew model's fate and the mission result: the advances each crew
    earned (POST-8.5.EARN) and the winner or a draw with why (SCEN-10.5.VICTORY, `scen.victory`), and what happened:
    per crew its survivors, Out of Action and dead, kills, locations looted and what it carries home; the locations
    triggered, cleared and searched; the Mission Objective; every unit put out of play (game/core/rules/outcome.py)."""
    from game.core.rules.outcome import VICTORY_RULES, fates, mission_report, mission_result

    st = ctx.state
    st.phase = Phase.MISSION_END
    st.deciding = ""
    st.activation = None
    st.interrupt = None
    st.result = {"reason": reason, "turn": st.turn, "fates": fates(st),
                 "tasks_done": sorted(t.id for t in st.tasks.values() if t.done),
                 **mission_result(st, victory=ctx.settings["scen.victory"]), **mission_report(st)}
    ctx.emit("mission_end", ("TURN-11", "TURN-10" if "no player" in reason else "TURN-9") + VICTORY_RULES,
             **st.result)
