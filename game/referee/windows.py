"""The hostile decisions outside its own actions: which unit of a force activates (AI-S.ORDER), the Alert
interrupt (AI-D.09), the parry (AI-D.12), the free attacks on a withdrawing enemy (AI-D.13) and the spawn free
move (AI-S.SPAWN)."""
from __future__ import annotations

from game.core.actions import (
    Action,
    Activate,
    DeclineInterrupt,
    IllegalAction,
    Interrupt,
    MeleeAttack,
    Move,
    Order,
    Parry,
    StayPut,
    Withdraw,
)
from game.core.events import Event
from game.core.odds.melee import melee_odds
from game.core.rules.context import read_ctx
from game.core.rules.exposure import dist, enemies, seen_by
from game.core.rules.flow import eligible_units
from game.core.rules.queries import enemy_contacts, sole_model
from game.core.state import GameState
from game.referee.choices import Plan, intent, judge_target, plan
from game.referee.memory import Memory
from game.referee.moves import judge_move, judge_spawn_ranged
from game.referee.report import Judge
from game.referee.situation import ATTACKS, Tuning, is_crew_model, is_hostile, melee_only, unwrap
from game.referee.targeting import Intent


def judge_order(j: Judge, before: GameState, action: Action, tune: Tuning) -> None:
    """AI-S.ORDER: the eligible unit of the force with the smallest distance to any enemy; ties, the lowest id."""
    if not isinstance(action, Activate):
        return
    side = before.deciding
    hvh = tune.hostile_vs_hostile
    ranked = sorted((min((dist(before, u, e.id) for e in enemies(before, u, hostile_vs_hostile=hvh)),
                         default=float("inf")), u) for u in eligible_units(before, side))
    if not ranked:
        return
    d, best = ranked[0]
    j.check("AI-S.ORDER", action.unit, action.unit == best, f"activated {action.unit}",
            f"{best}, the eligible unit nearest an enemy ({d:.2f}\")")


def judge_window(j: Judge, before: GameState, action: Action, memory: Memory, tune: Tuning) -> None:
    """AI-D.09: a hostile holding Alert interrupts at the first window where it can attack an enemy with one
    action (its lock or draw if it has one, else the AI-D.01 choice among those it can attack); declining then, or
    holding back the attack, is a violation; the held attack goes to that target (AI-8.3.RULE3)."""
    win = before.interrupt
    if win is None or win.extra_left > 0:
        return
    side = before.deciding
    due: dict[str, Plan] = {}
    plans: dict[str, Plan] = {}
    for u in sorted(x.id for x in before.units.values() if x.side == side and x.alert and before.unit_in_play(x.id)):
        it = intent_for_window(before, u, memory)
        p = plan(before, u, it, tune, single=True, window=True)
        plans[u] = p
        if p.options:
            due[u] = p
    first = next(iter(due), None)
    if isinstance(action, DeclineInterrupt):
        what = ", ".join(f"{u} on {' or '.join(sorted(plans[u].targets))}" for u in due)
        j.check("AI-D.09", first or side, not due, "declined the interrupt window", f"an interrupt attack: {what}")
        return
    if not isinstance(action, Interrupt) or action.unit not in plans:
        return
    inner = unwrap(action.action)
    p = plans[action.unit]
    if isinstance(inner, ATTACKS):
        judge_target(j, before, action.unit, inner, p)
        j.check("AI-D.09", action.unit, True)
    elif action.unit in due:
        j.check("AI-D.09", action.unit, False, f"held action {type(inner).__name__}",
                f"an attack on {' or '.join(sorted(p.targets))}")


def intent_for_window(state: GameState, unit: str, memory: Memory) -> Intent:
    """At a window the unit attacks its draw or lock; with no memory AI-D.09 chooses among the attackable."""
    target, source = memory.target(state, unit)
    return Intent(target, source)


def melee_chances(before: GameState, action: Action) -> tuple[str, str, float, float] | None:
    """AI-D.12 inputs of a hostile's melee attack, from the core's exact odds before the roll: (attacker unit,
    defender, pA, pB); None when the odds cannot be computed."""
    context = "own"
    if isinstance(action, Interrupt):
        action, context = unwrap(action.action), "alert"
    if not isinstance(action, MeleeAttack) or not is_hostile(before, action.unit):
        return None
    try:
        odds = melee_odds(before, action, context=context, policies=("ai",))
    except (IllegalAction, KeyError, ValueError):
        return None
    return action.unit, action.target, float(odds.p_a), float(odds.p_b)


def judge_parry(j: Judge, before: GameState, action: Action, chances: dict[tuple[str, str], tuple[float, float]]) \
        -> None:
    """AI-D.12: parry k = min(a, b) if pB > pA, else 0."""
    if not isinstance(action, Parry) or not before.continuations:
        return
    c = before.continuations[0]
    if c.get("kind") != "melee_round":
        return
    attacker = before.models[c["attacker"]]
    key = (attacker.unit, c["defender"])
    if key not in chances:
        return
    p_a, p_b = chances[key]
    a, b = int(c["a_hits"]), int(c["d_hits"])
    k = min(a, b) if p_b > p_a else 0
    j.check("AI-D.12", attacker.unit, action.hits == k, f"parried {action.hits} of {b} defender hit(s)",
            f"parry {k} (a={a}, b={b}, pA={p_a:.3f}, pB={p_b:.3f})")


def withdrawal(action: Action) -> Withdraw | None:
    """The Withdraw inside a decision (own, ordered or held), if any."""
    a = unwrap(action)
    if isinstance(a, Interrupt):
        a = unwrap(a.action)
    if isinstance(a, Order):
        a = unwrap(a.action)
    return a if isinstance(a, Withdraw) else None


def judge_withdraw(j: Judge, before: GameState, action: Action, events: list[Event], after: GameState) -> None:
    """AI-D.13: every hostile model in base contact with a withdrawing crew model makes its free attack (a roll
    citing COMBAT-4.3.WITHDRAW), unless the withdrawer fell first."""
    w = withdrawal(action)
    if w is None or w.unit not in before.units or is_hostile(before, w.unit):
        return
    try:
        m = sole_model(read_ctx(before), w.unit)
    except IllegalAction:
        return
    if not is_crew_model(before, m.id):
        return
    foes = [f for f in enemy_contacts(read_ctx(before), m) if is_hostile(before, f.unit)]
    rolled = {e.data.get("who") for e in events if e.type == "roll" and "COMBAT-4.3.WITHDRAW" in e.rules}
    standing = after.models[m.id].in_play
    for f in foes:
        if f.id in rolled or not standing:
            j.check("AI-D.13", f.unit, True)
            continue
        j.check("AI-D.13", f.unit, False, f"no free attack on the withdrawing {m.id}",
                "the free attack on a withdrawing enemy (always taken)")


def judge_spawn(j: Judge, before: GameState, action: Action, after: GameState, memory: Memory, tune: Tuning) -> None:
    """AI-S.SPAWN: melee types move toward the AI-D.01 enemy (contact if reachable), or stay with none visible;
    ranged types take the best cover with LOS to it, or the nearest cover with none visible."""
    sp = before.spawning
    if sp is None or not sp.pending or not isinstance(action, (Move, StayPut)):
        return
    unit = sp.pending[0]
    if before.units[unit].pins > 0:
        return  # Pinned before its free move (a window's attack): only StayPut is legal
    it = intent(before, unit, memory, tune)
    target = it.target if it.target is not None and seen_by(before, unit, it.target) else None
    if not melee_only(before, unit):
        judge_spawn_ranged(j, before, after, unit, target, tune.cover_slack)
        return
    if target is None:
        j.check("AI-S.SPAWN", unit, isinstance(action, StayPut), "a free move with no enemy in sight",
                "stay (melee types with no visible enemy stay)")
        return
    judge_move(j, "AI-S.SPAWN", before, after, unit, target, context="spawn", ranged=False, slack=tune.cover_slack)
