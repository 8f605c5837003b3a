"""AI-S.G3ZOMBIES judged: a unit of a force with converge points (Game Three's intersection mobs) that has no
target (no draw, no lock, no player model visible) spends its actions moving along the shortest path toward the
nearest converge point (the CPO's doors) and never goes on Alert. The requirement comes from the core's own query
(game.core.rules.converge), which the Zone's agent also moves with; the referee recomputes it from the state before.

Judged: an Alert is a violation; a Move must bring the lead (the model that was nearest the goal) nearer the goal
along the shortest path, by the lead's whole allowance (less `ai.cover_slack`) when the whole unit could have
followed such a Move (AI-D.15), else by some distance; ending the activation (or any other action) is allowed only
when the unit has arrived (rules.converge.ARRIVE_GAP), has no path, or no share of a Move along the path lets the
whole unit follow."""
from __future__ import annotations

import math

from game.core.actions import Action, Alert
from game.core.rules.context import read_ctx
from game.core.rules.converge import ARRIVE_GAP, RULE, converge_goal, converge_step
from game.core.rules.exposure import path_to
from game.core.rules.formation import formation_move
from game.core.rules.movepath import allowance_of
from game.core.state import GameState
from game.referee.report import Judge
from game.referee.situation import MOVES, Probe

SHARES = (1.0, 0.75, 0.5, 0.25)


def _could_move(state: GameState, unit: str) -> float | None:
    """The largest share of a Move along the path that the whole unit can follow, None when none can."""
    for share in SHARES:
        step = converge_step(state, unit, share=share)
        if step is None:
            return None
        g, path = step
        if formation_move(state, unit, g.lead, path, target=None) is not None:
            return share
    return None


def judge_converge(j: Judge, before: GameState, after: GameState, unit: str, action: Action, slack: float) -> None:
    name = type(action).__name__
    if isinstance(action, Alert):
        j.check(RULE, unit, False, "Alert", "a converging mob never goes on Alert")
        return
    goal = converge_goal(before, unit)
    if goal is None or goal.arrived(before):
        j.check(RULE, unit, True)
        return
    at = f"({goal.point[0]:.2f}, {goal.point[1]:.2f})"
    if not isinstance(action, MOVES):
        share = _could_move(before, unit)
        j.check(RULE, unit, share is None, f"{name} while {goal.cost:.2f}\" from {at}",
                f"a Move along the shortest path toward {at} (the whole unit could follow {share or 0:g} of one)")
        return
    lead = after.models[goal.lead]
    probe = Probe(before)  # the lead where it ended, its mates where they stood (they do not block its way)
    probe.stand(lead.id, lead.x, lead.y, lead.z)
    res = path_to(probe.state, lead.id, (lead.x, lead.y, lead.z), goal.point)
    left = math.hypot(lead.x - goal.point[0], lead.y - goal.point[1])
    now = res.cost if res.found else (left if left <= lead.radius + ARRIVE_GAP + 1e-6 else math.inf)
    if not math.isfinite(now):
        # No path found from the end (the search can refuse a route grazing a base by hundredths of an inch): an
        # end on the shortest path from the start, `walked` along it, is goal.cost - walked from the goal (a sub-path
        # of a shortest path is shortest).
        walked = _along(goal.path, (lead.x, lead.y))
        if walked is not None:
            now = goal.cost - walked
    progress = goal.cost - now
    m = before.models[goal.lead]
    full = min(allowance_of(read_ctx(before), m, "own").inches, goal.cost - m.radius)
    share = _could_move(before, unit)
    need = (full * share - slack) if share is not None else 1e-6
    j.check(RULE, unit, progress >= need - 1e-6,
            f"{goal.lead} ended {now:.2f}\" from {at} (progress {progress:.2f}\")",
            f"progress >= {need:.2f}\" along the shortest path toward {at} ({goal.cost:.2f}\" away)")


def _along(path: tuple[tuple[float, float, float], ...] | list[tuple[float, float, float]],
           p: tuple[float, float], tol: float = 1e-3) -> float | None:
    """The arc length from the path's start to `p` when `p` lies on the polyline (within `tol`), else None."""
    done = 0.0
    for a, b in zip(path, path[1:], strict=False):
        dx, dy = b[0] - a[0], b[1] - a[1]
        seg = math.hypot(dx, dy)
        if seg > 0.0:
            t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (seg * seg)))
            if math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1]) <= tol:
                return done + t * seg
        done += seg
    return None
