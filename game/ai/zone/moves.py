"""The Zone's movement choices, on the core's AI-D.06 candidate points (game.core.rules.exposure): melee movers
(contact, else progress with cover within `ai.cover_slack`), ranged movers to cover that keeps LOS and range
(AI-D.07 steps 3 and 4), the way back toward the location (AI-D.04 (c)), the nearest cover (AI-S.SPAWN), and the
formation of a multi-model unit: the lead moves, then each follower (AI-D.15)."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from game.ai.zone.look import allowance, placed
from game.core.actions import Move
from game.core.battlefield import Cover, Point2, Point3
from game.core.rules.exposure import (
    Candidate,
    CandidateSet,
    MoveChoice,
    candidate_points,
    choose_melee_move,
    nearest_cover,
    path_to,
    unit_models,
)
from game.core.rules.formation import around, formation_move, leash_centre
from game.core.state import GameState, ModelState
from game.core.tolerance import EPS


@dataclass(frozen=True, slots=True)
class Plan:
    """A chosen move: the action, the lead's candidate, the goal it heads for, and the numbers behind it."""

    action: Move
    lead: str
    end: Candidate
    goal: Point2
    why: str
    numbers: dict[str, object]


def lead_model(state: GameState, unit: str, goal: Point2) -> ModelState:
    """AI-D.15: the model closest to the goal leads (ties: lowest id)."""
    return min(unit_models(state, unit), key=lambda m: (math.hypot(m.x - goal[0], m.y - goal[1]), m.id))


def candidates(state: GameState, unit: str, lead: ModelState, *, target: str | None = None,
               point: Point2 | None = None, context: str = "own") -> CandidateSet:
    return candidate_points(state, lead.id, allowance(state, lead, context), target=target, point=point,
                            leash_centre=leash_centre(state, unit))


def unit_move(state: GameState, unit: str, lead: ModelState, end: Candidate, *, target: str | None,
              context: str = "own") -> Move | None:
    """The Move of the whole unit with the lead going to `end` (AI-D.15, the core's formation query); None when the
    formation cannot follow or the engine refuses it."""
    return formation_move(state, unit, lead.id, end.path, target=target, context=context)


def best_legal(state: GameState, unit: str, lead: ModelState, ranked: Sequence[Candidate], *, target: str | None,
               context: str = "own", tries: int = 12) -> tuple[Move, Candidate] | None:
    """The first of the ranked lead end points whose unit Move the engine accepts (a formation may not fit)."""
    for c in ranked[:tries]:
        mv = unit_move(state, unit, lead, c, target=target, context=context)
        if mv is not None:
            return mv, c
    return None


def melee_choice(cands: CandidateSet, slack: float) -> tuple[MoveChoice, list[Candidate]]:
    """AI-D.06 for a melee mover, and the fallback order if the formation cannot take the first choice. When the
    choice is to stay where it stands (nothing reachable makes progress or is better cover: e.g. at the leash
    boundary, AI-D.05) the order is empty: the unit gives no ground."""
    ch = choose_melee_move(cands, cover_slack=slack)
    if ch.chosen is None or ch.chosen.source == "stay":
        return ch, []
    rest = [c for c in cands.kept if math.isfinite(c.progress) and c.source != "stay"]
    ahead = sorted((c for c in rest if c.progress > EPS), key=lambda c: (-c.progress, c.x, c.y))
    if ch.why == "contact":
        order = sorted((c for c in rest if c.contact), key=lambda c: (c.cost, c.x, c.y)) + ahead
    elif ch.why == "cover":
        order = [c for c in ch.in_cover if c.source != "stay"] + ahead
    else:
        order = ahead
    return ch, [ch.chosen] + [c for c in order if c is not ch.chosen]


def free_goal(state: GameState, lead: ModelState, goal: Point2, *, ring: float = 3.0) -> Point2:
    """A point goal the lead can path to (AI-D.04 (a): "toward the last known position"): the goal itself, or when a
    base stands on it (the hidden target still there, or another model) the nearest point round it that the lead
    can reach (0.25" rings out to `ring`, 16 directions; ties: nearest the lead, then lowest (x, y))."""
    start: Point3 = (lead.x, lead.y, lead.z)
    if path_to(state, lead.id, start, goal).found:
        return goal
    rings = [lead.radius + 0.25 * k for k in range(1, int(ring / 0.25) + 1)]
    for r in rings:
        pts = sorted(around(goal[0], goal[1], r), key=lambda p: (math.hypot(p[0] - lead.x, p[1] - lead.y), p))
        for p in pts:
            if path_to(state, lead.id, start, p).found:
                return p
    return goal


def shot_positions(state: GameState, unit: str, lead: ModelState, cands: CandidateSet,
                   can_shoot: Callable[[], bool]) -> list[Candidate]:
    """The candidate points from which the unit could shoot its target (the engine's own LOS and range checks)."""
    out = []
    for c in cands.kept:
        if c.source == "stay":
            continue
        with placed(state, lead.id, (c.x, c.y, c.z)):
            ok = can_shoot()
        if ok:
            out.append(c)
    return out


def toward_centre(state: GameState, unit: str, lead: ModelState, centre: Point2, near: float,
                  context: str = "own") -> Candidate | None:
    """AI-D.04 (c): along the shortest path toward pL, stopping at the first point within `near` (3.0") of it or when
    the allowance runs out."""
    budget = allowance(state, lead, context)
    res = path_to(state, lead.id, (lead.x, lead.y, lead.z), centre)
    if not res.found or len(res.points) < 2:
        return None
    pts = list(res.points)
    out: list[Point3] = [pts[0]]
    left = budget
    for a, b in zip(pts, pts[1:], strict=False):
        seg = math.hypot(b[0] - a[0], b[1] - a[1])
        # the first point of this segment within `near` of the centre
        stop = None
        steps = max(1, int(seg / 0.05))
        for k in range(1, steps + 1):
            tt = k / steps
            x, y = a[0] + tt * (b[0] - a[0]), a[1] + tt * (b[1] - a[1])
            if math.hypot(x - centre[0], y - centre[1]) <= near + EPS or tt * seg >= left - EPS:
                stop = (x, y, b[2])
                break
        if stop is not None:
            out.append(stop)
            break
        out.append(b)
        left -= seg
    if len(out) < 2:
        return None
    end = out[-1]
    cost = sum(math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(out, out[1:], strict=False))
    return Candidate(end[0], end[1], end[2], "progress", cost, tuple(out), 0.0, Cover.NONE)


def spawn_cover(state: GameState, unit: str, lead: ModelState) -> Candidate | None:
    """AI-S.SPAWN, no enemy visible: the nearest cover (least path cost; ties lowest (x, y))."""
    return nearest_cover(state, lead.id, allowance(state, lead, "spawn"), leash_centre=leash_centre(state, unit))
