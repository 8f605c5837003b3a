"""The other movements to a point the player picks (issue 18): Climb (CORE-3.3.CLIMB, GEO-24), Jump
(CORE-3.3.JUMP, GAP-88), Withdraw (COMBAT-4.3.WITHDRAW) and an Alert unit's interrupting Move (TURN-7), each built
from the same planner as a Move (`moveplan.plan_move`'s legs) and judged by `validate`: the client commits what
this returns and never builds a movement itself. Pure: nothing here changes the state."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.core.actions import Action, Climb, IllegalAction, Interrupt, Jump, Withdraw
from game.core.geometry.terrain import levels_under
from game.core.rules.apply import validate
from game.core.rules.flow import remaining
from game.core.rules.moveplan import MovePlan, plan_move
from game.core.state import GameState

KINDS = ("move", "climb", "jump", "withdraw", "interrupt_move")


@dataclass(frozen=True, slots=True)
class PointPlan:
    """A movement of `kind` by `unit` to a point: the `action` validate accepted (None with `reason` and `rule`),
    and the planned path when there is one (`plan`, for drawing)."""

    kind: str
    unit: str
    action: Action | None
    plan: MovePlan | None = None
    reason: str = ""
    rule: str = ""


def point_action(state: GameState, kind: str, unit: str, point: Sequence[float],
                 via: Sequence[Sequence[float]] = ()) -> PointPlan:
    """The legal `kind` movement of `unit` toward `point` (through `via` where a path is walked), or why none."""
    if kind not in KINDS:
        raise ValueError(f"point_action: kind {kind!r} is not a movement to a point; one of {', '.join(KINDS)}")
    if kind == "jump":
        return _jump(state, unit, point)
    plan = plan_move(state, unit, point, via=via)
    if not plan.points:
        return PointPlan(kind, unit, None, plan, plan.reason, plan.rule)
    if kind == "move":
        return PointPlan(kind, unit, plan.action, plan, plan.reason, plan.rule)
    if kind == "interrupt_move":
        return _judge(state, kind, unit, [Interrupt(unit, plan.action)] if plan.action else [], plan)
    if kind == "withdraw":
        return _judge(state, kind, unit, [Withdraw(unit, tuple((p[0], p[1]) for p in plan.points[1:]))], plan)
    act = state.activation
    left = remaining(act) if act is not None and act.unit == unit else 1
    full = plan_move(state, unit, point, via=via, cut=False)  # a Climb commits the actions its whole path needs
    path = tuple(full.points[1:]) if full.points else tuple(plan.points[1:])
    return _judge(state, kind, unit, [Climb(unit, path=path, actions=k) for k in range(1, max(1, left) + 1)], full)


def _jump(state: GameState, unit: str, point: Sequence[float]) -> PointPlan:
    """GEO-24: a Jump lands on a floor under the point, the highest first (a click gives x and y)."""
    x, y = float(point[0]), float(point[1])
    floors = sorted({lv.z for lv in levels_under(state.battlefield, x, y)}, reverse=True)
    return _judge(state, "jump", unit, [Jump(unit, (x, y, z)) for z in floors], None)


def _judge(state: GameState, kind: str, unit: str, tries: Sequence[Action], plan: MovePlan | None) -> PointPlan:
    last: IllegalAction | None = None
    for a in tries:
        try:
            validate(state, a)
        except IllegalAction as exc:
            last = exc
            continue
        return PointPlan(kind, unit, a, plan)
    if last is None:
        return PointPlan(kind, unit, None, plan, plan.reason if plan else "no landing", plan.rule if plan else "GEO-24")
    return PointPlan(kind, unit, None, plan, last.reason, last.rule)


__all__ = ["KINDS", "PointPlan", "point_action"]
