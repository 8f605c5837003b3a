"""A Move toward a point, planned the way the engine will judge it (issue 18: the preview is the resolution): the
shortest legal path (GEO-27) for the unit's model under the GEO-8 cost, its allowance this action (GEO-8 with Hustle,
SKILL-6.1.HUSTLE), the path cut where the allowance runs out when the point lies beyond it, and the Move action
checked by `validate`. The client draws `points` and commits `action`; nothing here changes the state."""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from game.core.actions import IllegalAction, Move
from game.core.battlefield import Point3
from game.core.geometry.movement.paths import PathResult, shortest_path
from game.core.geometry.movement.reach import ReachRegion, reach
from game.core.geometry.terrain import level_at
from game.core.rules.apply import validate
from game.core.rules.context import Ctx, NoDice
from game.core.rules.dispatch import ACTIONS
from game.core.rules.locations import entries, live_locations, player_model
from game.core.rules.movepath import allowance_of, others_of, slow_scars
from game.core.state import GameState, ModelState

SHARES = (0.999, 0.9, 0.8, 0.65, 0.5)  # where a cut path is tried, as shares of the allowance (GEO-8 cost)


@dataclass(frozen=True, slots=True)
class MovePlan:
    """A planned Move of a one-model unit toward `goal`: `points` start at the model (empty when there is no path),
    `reached` when the goal itself is within this Move's allowance; `action` is the Move `validate` accepted (None
    with `reason` and `rule` when none is legal)."""

    unit: str
    model: str
    goal: Point3
    allowance: float
    allowance_text: str
    points: tuple[Point3, ...]
    length: float
    cost: float
    reached: bool
    action: Move | None
    reason: str = ""
    rule: str = ""
    via: tuple[Point3, ...] = ()  # the player's waypoints the path passes through, in order
    triggers: tuple[str, ...] = ()  # the locations whose Reaction Radius the planned path enters (GEO-19), in order


def goal_level(state: GameState, x: float, y: float, z: float) -> float:
    """The height a point on the table is reached at: the model's own level where there is one under the point,
    else the ground (a click gives x and y only)."""
    bf = state.battlefield
    if bf.pieces and z > 0 and level_at(bf, x, y, z) is not None:
        return z
    return 0.0


def plan_move(state: GameState, unit: str, goal: Sequence[float], via: Sequence[Sequence[float]] = (), *,
              cut: bool = True) -> MovePlan:
    """The Move of `unit` (one model) toward `goal` (x, y[, z]) that the engine would accept now, through the
    player's waypoints `via` in order (each leg the shortest legal path, GEO-27; the whole path costs one allowance,
    GEO-8), and the live locations whose Reaction Radius it enters (GEO-19, MISSION-8.2.TRIGGER: the same
    `locations.entries` the Move's resolution triggers them with). `cut`=False keeps the whole path (a Climb commits
    the actions it needs, `pointplan`)."""
    u = state.units[unit]
    models = [state.models[m] for m in u.models if state.models[m].in_play]
    if not models:
        raise KeyError(f"unit {unit} has no model in play")
    m = models[0]
    z = float(goal[2]) if len(goal) > 2 else goal_level(state, float(goal[0]), float(goal[1]), m.z)
    target: Point3 = (float(goal[0]), float(goal[1]), z)
    ctx = Ctx(state, NoDice(), state.battlefield, ACTIONS)
    allowance = allowance_of(ctx, m, "own")
    stops: list[Point3] = []
    for w in via:
        wz = float(w[2]) if len(w) > 2 else goal_level(state, float(w[0]), float(w[1]), (stops[-1] if stops else
                                                                                          (m.x, m.y, m.z))[2])
        stops.append((float(w[0]), float(w[1]), wz))
    plan = partial(MovePlan, unit, m.id, target, allowance.inches, allowance.text(), via=tuple(stops))
    if len(models) > 1:
        return plan(points=(), length=0.0, cost=0.0, reached=False, action=None,
                        reason=f"{unit} moves as a unit of {len(models)} models: each needs its own path",
                        rule="CORE-3.7.COMMON-ACTIONS")
    points_l: list[Point3] = [(m.x, m.y, m.z)]
    cost = 0.0
    for leg_end in [*stops, target]:
        res = _leg(ctx, m, points_l[-1], leg_end)
        if not res.found or len(res.points) < 2:
            return plan(points=(), length=0.0, cost=0.0, reached=False, action=None,
                        reason=res.reason or "no path", rule="GEO-27")
        points_l += list(res.points[1:])
        cost += res.cost
    points = tuple(points_l)
    reached = cost <= allowance.inches + 1e-9
    if not cut:
        return plan(points=points, length=_length(points), cost=cost, reached=reached, action=None,
                    reason="" if reached else "beyond this Move's allowance", rule="" if reached else "GEO-8")
    tries = [points] if reached else [(points[0], *_cut(points, cost, allowance.inches * s)) for s in SHARES]
    last: IllegalAction | None = None
    for path in tries:
        if len(path) < 2:
            continue
        action = Move(unit, tuple(path[1:]))
        try:
            validate(state, action)
        except IllegalAction as exc:
            last = exc
            continue
        return plan(points=path, length=_length(path), cost=cost if path is points else
                        cost * _length(path) / max(1e-9, _length(points)), reached=reached and path is points,
                        action=action, triggers=_triggers(ctx, m, path))
    return plan(points=tries[0] if tries else points, length=_length(points), cost=cost,
                    reached=reached, action=None, reason=last.reason if last else "no legal Move",
                    rule=last.rule if last else "GEO-8")


def _leg(ctx: Ctx, m: ModelState, start: Point3, end: Point3) -> PathResult:
    """The shortest legal path of one leg, searched within a bound a little above the straight line first, then a
    wide one (a detour around a long wall)."""
    direct = math.hypot(end[0] - start[0], end[1] - start[1])
    res: PathResult | None = None
    for bound in (max(1.25 * direct + 1.0, direct + 4.0), 4.0 * direct + 8.0):
        res = shortest_path(ctx.battlefield, start, end, radius=m.radius, height=m.profile.height,
                            others=others_of(ctx, m), side=m.side, budget=bound, can_climb=slow_scars(m) == 0,
                            settings=ctx.settings)
        if res.found or not res.reason.startswith("no legal path costs"):
            break
    assert res is not None
    return res


def _triggers(ctx: Ctx, m: ModelState, path: Sequence[Point3]) -> tuple[str, ...]:
    """The live locations the path's centre line enters (GEO-19), as the Move's resolution will trigger them."""
    if not ctx.state.locations or not player_model(ctx, m):
        return ()
    return tuple(e.location for e in entries([(p[0], p[1]) for p in path], m.radius, live_locations(ctx)))


def _length(points: Sequence[Point3]) -> float:
    return sum(math.dist(a, b) for a, b in itertools.pairwise(points))


def _cut(points: Sequence[Point3], cost: float, budget: float) -> tuple[Point3, ...]:
    """The waypoints after the start up to `budget` of the path's cost, spread evenly over its length (difficult
    ground makes the cost run ahead of the length; `validate` then judges the cut), never stopping half-way up or
    down a level."""
    total = _length(points)
    left = total * min(1.0, budget / cost) if cost > 0 else total
    out: list[Point3] = []
    for a, b in itertools.pairwise(points):
        seg = math.dist(a, b)
        if seg <= left:
            out.append(b)
            left -= seg
            continue
        if abs(b[2] - a[2]) <= 0.01 and seg > 0:
            t = left / seg
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2]))
        break
    return tuple(out)


def move_reach(state: GameState, unit: str, *, moves: int = 1) -> ReachRegion:
    """Where the unit's model can end this Move (`moves`=1) or with a second Move after it (2: twice this
    allowance, GEO-8), from the same graph, cost and bases as `plan_move` and `shortest_path` (GEO-27); the
    client draws it as the reach bands."""
    u = state.units[unit]
    m = next(state.models[x] for x in u.models if state.models[x].in_play)
    ctx = Ctx(state, NoDice(), state.battlefield, ACTIONS)
    allowance = allowance_of(ctx, m, "own")
    budget = allowance.inches if moves <= 1 else allowance.inches + allowance_of(ctx, m, "own", 1).inches
    return reach(state.battlefield, (m.x, m.y, m.z), budget, radius=m.radius, height=m.profile.height,
                 others=others_of(ctx, m), side=m.side, can_climb=slow_scars(m) == 0, settings=ctx.settings)
