"""The Zone's movement choices, on the core's AI-D.06 candidate points (game.core.rules.exposure): melee movers
(contact, else progress with cover within `ai.cover_slack`), ranged movers to cover that keeps LOS and range
(AI-D.07 steps 3 and 4), the way back toward the location (AI-D.04 (c)), the nearest cover (AI-S.SPAWN), and the
formation of a multi-model unit: the lead moves, then each follower (AI-D.15)."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from game.ai.zone.attacks import contact_enemies
from game.ai.zone.look import allowance, leash_centre, legal, placed
from game.core.actions import Move, Waypoint
from game.core.battlefield import Base, Cover, Point2, Point3
from game.core.geometry.distance import base_distance
from game.core.geometry.movement.paths import shortest_path
from game.core.geometry.movement.positions import position_fact
from game.core.geometry.zone import leash_ok
from game.core.rules import settings_of
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
from game.core.state import GameState, ModelState
from game.core.tolerance import EPS

COHESION_GAP = 0.5  # a follower is placed this far (edge to edge) from a placed mate, inside the 1" of GEO-21
FOLLOW_ANGLES = 16


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


def waypoints(path: Sequence[Point3]) -> tuple[Waypoint, ...]:
    """A Move's waypoints from a path (its first point is the start): (x, y) on the same level, (x, y, z) when the
    level changes (GEO-24)."""
    out: list[Waypoint] = []
    z = path[0][2]
    for p in path[1:]:
        out.append((p[0], p[1]) if abs(p[2] - z) <= EPS else (p[0], p[1], p[2]))
        z = p[2]
    return tuple(out)


def _bases_except(state: GameState, unit: str) -> list[Base]:
    return [m.base() for m in state.models.values() if m.in_play and m.unit != unit]


def _around(x: float, y: float, d: float) -> list[tuple[float, float]]:
    return [(x + d * math.cos(2 * math.pi * k / FOLLOW_ANGLES), y + d * math.sin(2 * math.pi * k / FOLLOW_ANGLES))
            for k in range(FOLLOW_ANGLES)]


def _follow(state: GameState, unit: str, f: ModelState, placed_ends: list[Base], lead_end: Point3,
            target: str | None, context: str) -> tuple[Point3, ...] | None:
    """AI-D.15 for one follower: the legal, reachable (path cost <= its allowance), leash-respecting point within
    1" (edge to edge) of an already-placed model of the unit closest to the lead's end point (straight line; ties by
    lowest (x, y)); points in base contact with the target first when the lead is in contact (as many models as
    possible in base contact). Its path, or None (it cannot keep up)."""
    settings = settings_of(state)
    budget = allowance(state, f, context)
    others = _bases_except(state, unit)
    centre = leash_centre(state, unit)
    pts: list[tuple[float, float]] = []
    tol = float(settings["geo.contact_tol"])
    for b in placed_ends:
        pts += _around(b.x, b.y, b.radius + f.radius + COHESION_GAP)
    t = state.models[target] if target else None
    contact_first = t is not None and any(base_distance(b, t.base()).distance <= tol + EPS for b in placed_ends)
    if t is not None and contact_first:
        pts += _around(t.x, t.y, t.radius + f.radius + 0.02)

    def touches(x: float, y: float) -> bool:
        return t is not None and math.hypot(x - t.x, y - t.y) - f.radius - t.radius <= \
            float(settings["geo.contact_tol"]) + EPS

    ranked = sorted({(round(x, 6), round(y, 6)) for x, y in pts},
                    key=lambda p: (not (contact_first and touches(*p)),
                                   math.hypot(p[0] - lead_end[0], p[1] - lead_end[1]), p[0], p[1]))
    start: Point3 = (f.x, f.y, f.z)
    for x, y in ranked:
        end = replace(f.base(), x=x, y=y)
        if not any(base_distance(end, b).distance <= 1.0 + EPS for b in placed_ends):
            continue
        pos = position_fact(state.battlefield, x, y, f.z, radius=f.radius, height=f.profile.height,
                            others=others + placed_ends, mover=f.id, settings=settings)
        if not pos.legal:
            continue
        if math.hypot(x - f.x, y - f.y) <= EPS:
            return ()
        res = shortest_path(state.battlefield, start, (x, y, pos.z), radius=f.radius, height=f.profile.height,
                            others=others, side=f.side, budget=budget, settings=settings)
        if not res.found or res.cost > budget + EPS:
            continue
        if centre is not None and not leash_ok([(p[0], p[1]) for p in res.points], centre, settings=settings).ok:
            continue
        return tuple(res.points)
    return None


def unit_move(state: GameState, unit: str, lead: ModelState, end: Candidate, *, target: str | None,
              context: str = "own") -> Move | None:
    """The Move of the whole unit with the lead going to `end` (AI-D.15); None when the formation cannot follow."""
    models = unit_models(state, unit)
    if len(models) == 1:
        if len(end.path) < 2:
            return None
        return Move(unit, waypoints(end.path))
    lead_end: Point3 = (end.x, end.y, end.z)
    placed_ends = [replace(lead.base(), x=end.x, y=end.y, z=end.z)]
    paths: dict[str, tuple[Waypoint, ...]] = {lead.id: waypoints(end.path) if len(end.path) > 1 else ()}
    engaged = set(contact_enemies(state, unit))
    for f in sorted((m for m in models if m.id != lead.id), key=lambda m: m.id):
        stuck = engaged and any(base_distance(f.base(), state.models[e].base()).distance <= 0.1 for e in engaged)
        path = () if stuck else _follow(state, unit, f, placed_ends, lead_end, target, context)
        if path is None:
            path = ()
        paths[f.id] = waypoints(path) if path else ()
        end_f = path[-1] if path else (f.x, f.y, f.z)
        placed_ends.append(replace(f.base(), x=end_f[0], y=end_f[1], z=end_f[2]))
    if not any(paths.values()):
        return None
    return Move.of_unit(unit, {m.id: list(paths[m.id]) for m in models})


def best_legal(state: GameState, unit: str, lead: ModelState, ranked: Sequence[Candidate], *, target: str | None,
               context: str = "own", tries: int = 6) -> tuple[Move, Candidate] | None:
    """The first of the ranked lead end points whose unit Move the engine accepts (a formation may not fit)."""
    for c in ranked[:tries]:
        mv = unit_move(state, unit, lead, c, target=target, context=context)
        if mv is not None and legal(state, mv, unit, context):
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
        pts = sorted(_around(goal[0], goal[1], r), key=lambda p: (math.hypot(p[0] - lead.x, p[1] - lead.y), p))
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
