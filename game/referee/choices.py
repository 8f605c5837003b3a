"""A hostile unit's own actions judged (AI-8.3.RULE2..RULE4, AI-D.01..AI-D.03 targeting, AI-D.06..AI-D.08,
AI-D.13, AI-D.14): whom it may attack now, whether an attack was possible, and whether the action taken is one the
rules allow then."""
from __future__ import annotations

from dataclasses import dataclass

from game.core.actions import Action, Aim, Alert, MeleeAttack, Rally, RangedAttack, ThrowGrenade, UseItem, Withdraw
from game.core.rules.converge import converges
from game.core.rules.exposure import cover_against, enemies, nearest_model, seen_by
from game.core.rules.hostile_grenades import grenade_call
from game.core.state import GameState
from game.referee.converge import judge_converge
from game.referee.memory import Memory
from game.referee.moves import cover_move_need, judge_move, meets
from game.referee.report import Judge
from game.referee.situation import (
    ATTACKS,
    MOVES,
    Option,
    Tuning,
    actions_left,
    attack_dice,
    attacked,
    fire_power,
    in_melee,
    melee_only,
    options,
    touching,
)
from game.referee.targeting import Intent, choice, choose, visible_enemies


@dataclass(frozen=True, slots=True)
class Plan:
    """Whom the unit may attack now (`targets`), the legal attacks on them (`options`) and the rule that says so."""

    targets: frozenset[str]
    options: tuple[Option, ...]
    why: str


def intent(state: GameState, unit: str, memory: Memory, tune: Tuning) -> Intent:
    """The unit's target: the draw (AI-D.03), else the lock (AI-D.02), else the AI-D.01 choice now."""
    target, source = memory.target(state, unit)
    if target is not None:
        return Intent(target, source)
    pick = choice(state, unit, tune.close_tol, hostile_vs_hostile=tune.hostile_vs_hostile)
    return Intent(pick, "choice" if pick else "none")


def plan(state: GameState, unit: str, it: Intent, tune: Tuning, *, single: bool, window: bool = False) -> Plan:
    """Whom the unit may attack: its target; with one action and only shots into a melee on it, the AI-D.01 choice
    among the others it can attack (AI-D.08); Engaged away from its target, the enemies in contact (AI-D.07 step
    2); in an interrupt window with no memory, the AI-D.01 choice among those it can attack with one action
    (AI-D.09)."""
    own = frozenset(m.id for m in state.unit_models(unit))

    def opts(e: str) -> list[Option]:
        return [o for o in options(state, unit, e, window=window) if not (window and o.into_melee)] if window \
            else options(state, unit, e)

    if it.target is not None:
        mine = options(state, unit, it.target, window=window)
        clean = [o for o in mine if not o.into_melee]
        if mine and not clean and single:
            others = [e for e in visible_enemies(state, unit, hostile_vs_hostile=tune.hostile_vs_hostile)
                      if e != it.target and not in_melee(state, e, besides=own) and opts(e)]
            alt = choose(state, unit, others, tune.close_tol)
            if alt is not None:
                return Plan(frozenset({alt}), tuple(opts(alt)), "AI-D.08: another target, never one un-aimed shot "
                                                                "into a melee")
            return Plan(frozenset({it.target}), (), "AI-D.08: no un-aimed shot into a melee")
        if mine:
            return Plan(frozenset({it.target}), tuple(mine), f"its target ({it.source})")
    foes = {e.id for e in enemies(state, unit, hostile_vs_hostile=tune.hostile_vs_hostile)}
    contacts = sorted(e for e in foes if any(touching(state, m.id, e) for m in state.unit_models(unit) if m.in_play))
    melee = [o for e in contacts for o in options(state, unit, e, window=window) if not o.ranged]
    if melee:
        return Plan(frozenset(contacts), tuple(melee), "AI-D.07 step 2: the enemy in base contact")
    if it.target is None and window:
        able = [e for e in visible_enemies(state, unit, hostile_vs_hostile=tune.hostile_vs_hostile) if opts(e)]
        pick = choose(state, unit, able, tune.close_tol)
        if pick is not None:
            return Plan(frozenset({pick}), tuple(opts(pick)), "AI-D.09: the AI-D.01 choice among those it can attack")
    return Plan(frozenset({it.target}) if it.target else frozenset(), (), f"its target ({it.source})")


def judge_target(j: Judge, state: GameState, unit: str, action: Action, p: Plan, *, rule: str = "AI-8.3.RULE3") \
        -> None:
    """AI-8.3.RULE3 (AI-D.01..AI-D.03): the attack is on a model the plan allows; AI-D.14: never an Out of Action
    model."""
    t = attacked(state, action)
    if t is None:
        return
    m = state.models[t]
    j.check("AI-D.14", unit, not m.ooa, f"{type(action).__name__} on {t}, Out of Action", "no Out of Action target")
    j.check(rule, unit, t in p.targets, f"{type(action).__name__} on {t}",
            f"{_names(p.targets)} ({p.why})" if p.targets else "no attack: no target")


def judge_action(j: Judge, before: GameState, after: GameState, action: Action, memory: Memory,
                 tune: Tuning) -> None:
    """One action (or EndActivation) of the active hostile unit in its own activation."""
    act = before.activation
    assert act is not None
    unit = act.unit
    if getattr(action, "unit", None) != unit or act.extra_left > 0 or isinstance(action, UseItem):
        return  # AI-D.11 (a Med-Kit on itself) is not judged
    if isinstance(action, Withdraw):
        j.check("AI-D.13", unit, False, "Withdraw", "hostiles never withdraw")
        return
    if before.units[unit].pins > 0:
        j.check("AI-D.07", unit, isinstance(action, Rally), f"{type(action).__name__} while Pinned",
                "Rally (AI-D.07 step 1)")
        return
    if isinstance(action, Alert):
        j.check("AI-D.09", unit, not melee_only(before, unit), "Alert by a melee-only hostile",
                "melee-only hostiles never go on Alert")
    left = actions_left(before)
    it = intent(before, unit, memory, tune)
    aimed_now = bool(act.aim)  # an Aim already taken: the aimed shot into a melee is what AI-D.08 prescribes
    p = plan(before, unit, it, tune, single=left < 2 and not aimed_now)
    if it.target is None and not p.options and converges(before, unit):
        judge_converge(j, before, after, unit, action, tune.cover_slack)  # AI-S.G3ZOMBIES
        return
    if isinstance(action, ATTACKS):
        judge_target(j, before, unit, action, p)
    if p.options:
        _judge_possible(j, before, after, unit, action, p, it, left, act.aim, tune)
    elif isinstance(action, MOVES) and it.target is not None and seen_by(before, unit, it.target):
        judge_move(j, "AI-D.06", before, after, unit, it.target, context="own", ranged=not melee_only(before, unit),
                   slack=tune.cover_slack)


def _judge_possible(j: Judge, before: GameState, after: GameState, unit: str, action: Action, p: Plan,
                    it: Intent, left: int, aimed: bool, tune: Tuning) -> None:
    """An attack was possible: RULE4, AI-D.07 step 3, AI-D.08 and RULE2."""
    target = it.target
    name = type(action).__name__
    ranged = [o for o in p.options if o.ranged]
    move_need = None
    if ranged and left >= 2 and target in p.targets and seen_by(before, unit, target):
        lead = nearest_model(before, unit, target).id
        if not cover_against(before, lead, target).in_cover:
            move_need = cover_move_need(before, unit, target, tune.cover_slack)
    lead_model = next(m for m in before.unit_models(unit) if m.in_play)
    fp1 = any(attack_dice(before, o.action) == 1 for o in p.options)
    into = any(o.into_melee for o in p.options)
    aim_ok = left >= 2 and move_need is None and not aimed and (fp1 or into)
    if it.source == "draw" and target in p.targets and not ranged:
        ok = (isinstance(action, ATTACKS) and attacked(before, action) == target) or (isinstance(action, Aim)
                                                                                     and aim_ok)
        j.check("AI-8.3.RULE4", unit, ok, f"{name}{_on(before, action)} while drawn by {target} in base contact",
                f"a melee attack on {target}")
    call = grenade_call(before, unit, target) if (ranged and target in p.targets and move_need is None
                                                  and not aimed and target is not None) else None
    if isinstance(action, RangedAttack) and call is not None and move_need is None:
        j.check("AI-D.10", unit, False, f"{name} with {action.weapon} on {action.target}",
                f"{call.action.grenade} thrown at {target} instead (condition ({call.condition}))")
    elif isinstance(action, ThrowGrenade):
        ok = call is not None and action == call.action
        j.check("AI-D.10", unit, ok, f"{action.grenade} thrown at ({action.x:.2f}, {action.y:.2f})",
                f"{call.action.grenade} at {target}" if call else "no throw: neither (a) nor (b) holds")
    elif call is None and ranged and isinstance(action, RangedAttack):
        j.check("AI-D.10", unit, True)
    if isinstance(action, ATTACKS):
        if move_need is not None:
            j.check("AI-D.07", unit, False, f"{name} from the open", f"a Move to cover first: {move_need.text}")
        weapon = getattr(action, "weapon", None)
        if weapon is not None and not aimed and left >= 2 and move_need is None:
            fp = attack_dice(before, action) if isinstance(action, (RangedAttack, MeleeAttack)) else \
                fire_power(before, lead_model, weapon, melee=False)
            into_it = any(o.into_melee and o.action == action for o in ranged)
            j.check("AI-D.08", unit, fp != 1 and not into_it,
                    f"{name} with {weapon} (FP {fp}{', into a melee' if into_it else ''}) un-aimed, {left} actions "
                    "left", "Aim first: (a)-(d) of AI-D.08 hold")
        j.check("AI-8.3.RULE2", unit, True)
        return
    if aimed:
        j.check("AI-D.08", unit, False, f"{name} after an Aim", "the attack (Aim, then attack)")
        return
    if isinstance(action, Aim):
        j.check("AI-D.08", unit, aim_ok, f"Aim with {left} action(s) left",
                "no Aim: (a)-(d) of AI-D.08 do not all hold" + (" (a cover move is due)" if move_need else ""))
        return
    if isinstance(action, MOVES) and move_need is not None and target is not None:
        lead = nearest_model(before, unit, target).id
        ok, where = meets(before, after, unit, lead, target, move_need, tune.cover_slack)
        j.check("AI-D.07", unit, ok, where, f"a Move to cover with LOS and range: {move_need.text}")
        j.check("AI-8.3.RULE2", unit, True)
        return
    shots = ", ".join(sorted({f"{type(o.action).__name__} {o.action.weapon} on {o.action.target}" for o in p.options}))
    j.check("AI-8.3.RULE2", unit, False, f"{name} while an attack was possible",
            f"an attack ({shots})" + (f" or a Move to cover ({move_need.text})" if move_need else ""))


def _names(ids: frozenset[str]) -> str:
    return " or ".join(sorted(ids))


def _on(state: GameState, action: Action) -> str:
    t = attacked(state, action)
    return f" on {t}" if t else ""
