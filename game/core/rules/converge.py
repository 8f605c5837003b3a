"""AI-S.G3ZOMBIES as a core query: a scenario force with converge points (Game Three's intersection mobs: the CPO's
doors, `ForceState.converge`) that has no target (no player model visible, no lock: AI-D.01, AI-D.02) spends its
actions moving along the shortest path (GEO-27) toward the nearest of those points, and stops converging only when a
player model comes into view (then the normal targeting holds). The Zone's agent moves with it and the rules checker
(game.referee) holds the move to it.

Interpretations: "the CPO's nearest door/edge" = the converge point with the least shortest-path cost from the
unit's model nearest it in a straight line (that model leads, AI-D.15), ties by the order the scenario lists them; a
mob with a model within ARRIVED (its radius + 0.5") of a point has arrived there and holds; a Move goes the
lead's full allowance along the path (one Move action) or stops on arriving."""
from __future__ import annotations

import math
from dataclasses import dataclass

from game.core.battlefield import Point2, Point3
from game.core.rules.context import read_ctx
from game.core.rules.exposure import path_to
from game.core.rules.movepath import allowance_of
from game.core.state import GameState
from game.core.tolerance import EPS

ARRIVE_GAP = 0.5  # inches beyond the lead's radius: at the door
RULE = "AI-S.G3ZOMBIES"


@dataclass(frozen=True, slots=True)
class Goal:
    """The converge point a unit heads for, its lead model and the lead's shortest-path cost to it."""

    point: Point2
    lead: str
    cost: float
    path: tuple[Point3, ...]

    def arrived(self, state: GameState) -> bool:
        m = state.models[self.lead]
        return math.hypot(m.x - self.point[0], m.y - self.point[1]) <= m.radius + ARRIVE_GAP + EPS


def converges(state: GameState, unit: str) -> bool:
    """The unit's force has converge points (AI-S.G3ZOMBIES applies to it when it has no target)."""
    f = state.forces.get(state.units[unit].side)
    return f is not None and bool(f.converge)


def converge_goal(state: GameState, unit: str) -> Goal | None:
    """The nearest converge point by path (see the module docstring); None without converge points or a path."""
    f = state.forces.get(state.units[unit].side)
    if f is None or not f.converge:
        return None
    models = sorted((m for m in state.unit_models(unit) if m.in_play), key=lambda m: m.id)
    if not models:
        return None
    for gx, gy in f.converge:  # a model already at a point: the unit has arrived there
        for m in models:
            if math.hypot(m.x - gx, m.y - gy) <= m.radius + ARRIVE_GAP + EPS:
                return Goal((gx, gy), m.id, math.hypot(m.x - gx, m.y - gy), ((m.x, m.y, m.z),))
    best: Goal | None = None
    for gx, gy in f.converge:
        lead = min(models, key=lambda m: (math.hypot(m.x - gx, m.y - gy), m.id))
        res = path_to(state, lead.id, (lead.x, lead.y, lead.z), (gx, gy))
        if not res.found:
            continue
        if best is None or res.cost < best.cost - EPS:
            best = Goal((gx, gy), lead.id, res.cost, tuple(res.points))
    return best


def converge_step(state: GameState, unit: str, context: str = "own", *, share: float = 1.0) \
        -> tuple[Goal, tuple[Point3, ...]] | None:
    """The lead's path for one Move toward the goal: along the shortest path for `share` of its allowance (GEO-8),
    stopping at the first point within ARRIVED of the goal; None when it has arrived or has no path. (A caller whose
    Move the engine refuses, e.g. where difficult ground makes the cost exceed the length, asks a smaller share.)"""
    goal = converge_goal(state, unit)
    if goal is None or goal.arrived(state):
        return None
    lead = state.models[goal.lead]
    left = allowance_of(read_ctx(state), lead, context).inches * share - 1e-3
    near = lead.radius + ARRIVE_GAP
    out: list[Point3] = [goal.path[0]]
    for a, b in zip(goal.path, goal.path[1:], strict=False):
        seg = math.hypot(b[0] - a[0], b[1] - a[1])
        reach = min(seg, left)
        steps = max(1, math.ceil(reach / 0.05))
        stop = None
        for k in range(1, steps + 1):
            t = (k / steps) * (reach / seg) if seg > EPS else 1.0
            x, y = a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
            if math.hypot(x - goal.point[0], y - goal.point[1]) <= near or k == steps and seg >= left:
                stop = (x, y, b[2])
                break
        if stop is not None:
            out.append(stop)
            break
        out.append(b)
        left -= seg
    return (goal, tuple(out)) if len(out) > 1 else None
