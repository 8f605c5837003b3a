"""Where the autopilot moves a unit: the AI-D.06 candidate end points toward its goal (the core's
`candidate_points`: progress along the shortest path, a ring, points in contact with cover), each judged by the
threat there (who would see it, through what cover: `View.spots`), the shots it opens, and whether its path would
set off a location the unit should not (a wounded model kept out of a Reaction Radius)."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from game.ai.autopilot.levels import Level
from game.ai.autopilot.view import View
from game.ai.common import cut
from game.core.actions import Move
from game.core.battlefield import Cover, Point3
from game.core.geometry.movement.standing import legal_positions
from game.core.rules import hustle_due, settings_of
from game.core.rules.exposure import Candidate, candidate_points, contact_points, path_to
from game.core.rules.formation import formation_move
from game.core.rules.locations import entries, live_locations
from game.core.rules.stats import move_allowance
from game.core.state import LocationState, ModelState

CALM = 12.0  # inches: with no enemy this near and none in view, a move simply follows the shortest path
PRESELECT = 12  # candidates judged per family (progress-ranked) before the threat check


@dataclass(frozen=True, slots=True)
class MoveOption:
    action: Move
    score: float
    text: str
    numbers: dict[str, Any]


def allowance(view: View, m: ModelState) -> float:
    """The Move allowance (GEO-8) with Hustle when due, a hair short so the path fits."""
    st = view.st
    hustle = hustle_due(st.activation, m, settings_of(st), 0)
    return move_allowance(m, hustle_bonus=hustle, settings=settings_of(st)).inches * 0.999


def search_spots(view: View, m: ModelState, loc: LocationState, *, by_point: bool = False) -> list[Point3]:
    """Standing spots from which m may search `loc` (GAP-53: base in contact with its scenic item, or within 1" of
    its point), nearest to m first (`by_point`: nearest to the location's point first, where a model sets it off
    soonest: MISSION-8.2.TRIGGER measures from the point)."""
    bf = view.st.battlefield
    if loc.footprint:
        pts = [(x, y, 0.0) for (x, y), _ in contact_points([(p[0], p[1]) for p in loc.footprint], m.radius,
                                                                gap=0.04, step=1.0)]
    else:
        r = max(0.0, float(view.settings["search.range"]) - 0.1)
        pts = [(loc.x, loc.y, 0.0)] + [(loc.x + r * math.cos(a * math.pi / 4), loc.y + r * math.sin(a * math.pi / 4),
                                        0.0) for a in range(8)]
    others = [o.base() for o in view.st.models.values() if o.in_play and o.id != m.id]
    ok = legal_positions(bf, pts, radius=m.radius, height=m.profile.height, others=others, mover=m.id)
    keep = [p for p, good in zip(pts, ok, strict=True) if good]
    ox, oy = (loc.x, loc.y) if by_point else (m.x, m.y)
    return sorted(keep, key=lambda p: (math.hypot(p[0] - ox, p[1] - oy), p[0], p[1]))


def triggers(view: View, m: ModelState, c: Candidate) -> list[str]:
    """The locations the path to `c` would set off (MISSION-8.2.TRIGGER, GEO-19): the same entry test apply uses."""
    if not view.st.locations:
        return []
    return [e.location for e in entries([(p[0], p[1]) for p in c.path], m.radius, live_locations(view.ctx))]


def choose_move(view: View, m: ModelState, level: Level, rng: random.Random, *, goal: tuple[float, float],
                purpose: str, target: str | None = None, fight: bool = False, arrive: list[Point3] | None = None,
                may_trigger: bool = True, context: str = "own", rush: bool = False) -> MoveOption | None:
    """The best Move of m's unit toward `goal`: progress (as a share of the allowance), plus cover and minus threat
    at the end (weighted by the level), plus the shots it opens when the unit is going to fight, plus arriving at one
    of `arrive` (a search spot). None when no candidate beats standing still."""
    st = view.st
    budget = allowance(view, m)
    calm = not any(math.hypot(f.x - m.x, f.y - m.y) <= CALM or view.sees(f.id, m.id) for f in view.foes)
    if calm or rush or not (level.cover or level.exposure):
        if arrive and rush:
            near = _arrivals(view, m, budget, arrive)
            if near:
                mv = formation_move(st, m.unit, m.id, near[0].path, target=None, context=context)
                if mv is not None:
                    return MoveOption(mv, 2.0, f"{purpose}: to the search spot ({near[0].x:.1f}, {near[0].y:.1f})",
                                      {"arrives": 1, "to": [round(near[0].x, 3), round(near[0].y, 3)]})
        quick = _straight(view, m, budget, goal, target, may_trigger, context, purpose)
        if quick is not None:
            return quick
    cs = candidate_points(st, m.id, budget, target=target, step=level.cover_step) if target is not None else \
        candidate_points(st, m.id, budget, point=goal, step=level.cover_step)
    moving = [c for c in cs.kept if c.source != "stay" and math.isfinite(c.progress)]
    if arrive:
        moving += _arrivals(view, m, budget, arrive)
    if not may_trigger:
        moving = [c for c in moving if not triggers(view, m, c)]
    if not moving:
        return None
    ranked = sorted(moving, key=lambda c: (-c.progress, c.x, c.y))
    covers = [c for c in ranked if c.source == "cover"]
    pool = list(dict.fromkeys(ranked[:PRESELECT] + covers[:PRESELECT]))
    judged = view.spots(m, [(c.x, c.y, c.z) for c in pool]) if (level.cover or level.exposure or fight) else None
    scored = []
    for k, c in enumerate(pool):
        s = c.progress / max(budget, 1.0)
        parts: dict[str, float] = {"progress": round(c.progress, 3)}
        if judged is not None:
            sp = judged[k]
            s -= level.exposure * 0.35 * sp.threat
            if sp.seen_by and sp.covered == sp.seen_by:
                s += level.cover * 0.4
            if fight and sp.shots:
                s += 0.5
            parts.update(threat=sp.threat, seen_by=sp.seen_by, in_cover=sp.covered, shots=len(sp.shots))
        if arrive and any(math.hypot(c.x - a[0], c.y - a[1]) < 0.05 for a in arrive):
            s += 2.0
            parts["arrives"] = 1
        scored.append((round(s, 6), c, parts))
    scored.sort(key=lambda t: (-t[0], t[1].x, t[1].y))
    if level.slip and len(scored) > 1 and rng.random() < level.slip:
        scored[0], scored[1] = scored[1], scored[0]
    for s, c, parts in scored[:6]:
        mv = formation_move(st, m.unit, m.id, c.path, target=None, context=context)
        if mv is None:
            continue
        text = (f"{purpose}: to ({c.x:.1f}, {c.y:.1f}), {c.progress:.1f}\" nearer"
                + (f", seen by {parts['seen_by']:.0f}" if "seen_by" in parts else "")
                + (" in cover" if parts.get("in_cover") and parts.get("in_cover") == parts.get("seen_by") else ""))
        return MoveOption(mv, s, text, {**parts, "score": s, "to": [round(goal[0], 3), round(goal[1], 3)]})
    return None


def _straight(view: View, m: ModelState, budget: float, goal: tuple[float, float], target: str | None,
              may_trigger: bool, context: str, purpose: str) -> MoveOption | None:
    """With no enemy near (or at a level that ignores cover): along the shortest path (GEO-27) toward the goal, as
    far as the allowance goes (never stopping half-way up stairs or a ladder). None when there is no path, it would
    set off a location it must not, or the engine refuses the Move."""
    st = view.st
    res = path_to(st, m.id, (m.x, m.y, m.z), target if target is not None else goal)
    if not res.found or len(res.points) < 2:
        return None
    stop = budget
    if target is not None:
        t = st.models[target]
        stop = min(budget, max(0.0, res.cost - m.radius - t.radius - 0.02))
    pts = [res.points[0], *cut(res.points, stop)]
    if len(pts) < 2 or sum(math.dist(a[:2], b[:2]) for a, b in zip(pts, pts[1:], strict=False)) < 0.05:
        return None
    if not may_trigger and view.st.locations and entries([(p[0], p[1]) for p in pts], m.radius,
                                                          live_locations(view.ctx)):
        return None
    mv = formation_move(st, m.unit, m.id, pts, target=None, context=context)
    if mv is None:
        return None
    end = pts[-1]
    gone = sum(math.dist(a[:2], b[:2]) for a, b in zip(pts, pts[1:], strict=False))
    return MoveOption(mv, gone / max(budget, 1.0), f"{purpose}: to ({end[0]:.1f}, {end[1]:.1f}) along the shortest "
                      f"path, no enemy within {CALM:g}\"", {"progress": round(gone, 3), "to": [round(goal[0], 3),
                                                                                                round(goal[1], 3)]})


def _arrivals(view: View, m: ModelState, budget: float, spots: list[Point3]) -> list[Candidate]:
    """Search spots within reach this Move, as candidates (their path by the engine's own shortest path)."""
    out: list[Candidate] = []
    for p in spots[:3]:
        if math.hypot(p[0] - m.x, p[1] - m.y) > budget + 0.5:
            continue
        res = path_to(view.st, m.id, (m.x, m.y, m.z), (p[0], p[1]), budget=budget)
        if res.found and res.cost <= budget:
            out.append(Candidate(p[0], p[1], res.points[-1][2], "arrive", res.cost, tuple(res.points), budget,
                                 Cover.NONE))
    return out


def retreat_goal(view: View, m: ModelState) -> tuple[float, float]:
    """Away from the enemies that see m: the point 12" from m opposite their centre, kept on the table."""
    seen = [f for f in view.foes if view.sees(f.id, m.id)] or view.foes
    if not seen:
        return (m.x, m.y)
    cx = sum(f.x for f in seen) / len(seen)
    cy = sum(f.y for f in seen) / len(seen)
    d = math.hypot(m.x - cx, m.y - cy) or 1.0
    w, h = view.st.table
    x = min(max(m.x + 12.0 * (m.x - cx) / d, 1.0), w - 1.0)
    y = min(max(m.y + 12.0 * (m.y - cy) / d, 1.0), h - 1.0)
    return (x, y)

