"""AI-D.15, a multi-model unit moving as a block, as a public core query: the lead goes to its chosen end point, then
each follower in id order to the legal point closest to the lead's end that ends within 1.0" (GEO-21, edge to edge)
of an already-placed model of the unit with its own path cost <= its allowance (GEO-8) inside the leash (GEO-20);
in melee, points in base contact with the target first, so as many models as possible end in contact. Followers in
base contact with an enemy stay (they would have to Withdraw). The Zone's agent builds its moves with it and the
rules checker (game.referee) asks it whether a better end point could have been reached by the whole unit.

Interpretation: "the least path cost toward the lead's end point" is read as the straight-line distance from the
follower's end to the lead's end (the nearest point to the lead), ties by lowest (x, y)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from game.core.actions import IllegalAction, Move, Waypoint
from game.core.battlefield import Base, Point3
from game.core.geometry.distance import base_distance
from game.core.geometry.movement.paths import shortest_path
from game.core.geometry.movement.positions import position_fact
from game.core.geometry.zone import leash_ok
from game.core.rules.context import Ctx, NoDice
from game.core.rules.movepath import allowance_of
from game.core.rules.queries import enemy_contacts
from game.core.state import GameState, ModelState
from game.core.tolerance import EPS

COHESION_GAP = 0.5  # a follower is placed this far (edge to edge) from a placed mate, inside the 1" of GEO-21
FOLLOW_ANGLES = 16


def waypoints(path: Sequence[Point3]) -> tuple[Waypoint, ...]:
    """A Move's waypoints from a path (its first point is the start): (x, y) on the same level, (x, y, z) when the
    level changes (GEO-24)."""
    out: list[Waypoint] = []
    z = path[0][2]
    for p in path[1:]:
        out.append((p[0], p[1]) if abs(p[2] - z) <= EPS else (p[0], p[1], p[2]))
        z = p[2]
    return tuple(out)


def around(x: float, y: float, d: float) -> list[tuple[float, float]]:
    """16 points at distance d round (x, y), from +x toward +y (GEO-1)."""
    return [(x + d * math.cos(2 * math.pi * k / FOLLOW_ANGLES), y + d * math.sin(2 * math.pi * k / FOLLOW_ANGLES))
            for k in range(FOLLOW_ANGLES)]


def leash_centre(state: GameState, unit: str) -> tuple[float, float] | None:
    """The location point pL a hostile unit is leashed to (GEO-20), None for a unit with no leash."""
    f = state.forces.get(state.units[unit].side)
    if f is None or f.centre is None or f.leash is None:
        return None
    return (f.centre[0], f.centre[1])


def follow(state: GameState, unit: str, f: ModelState, placed: list[Base], lead_end: Point3, target: str | None,
           context: str) -> tuple[Point3, ...] | None:
    """One follower's path (() to stay where it is), or None when it cannot end in cohesion."""
    ctx = Ctx(state, NoDice(), state.battlefield)
    settings = ctx.settings
    budget = allowance_of(ctx, f, context).inches
    others = [m.base() for m in state.models.values() if m.in_play and m.unit != unit]
    centre = leash_centre(state, unit)
    tol = float(settings["geo.contact_tol"])
    pts: list[tuple[float, float]] = [(f.x, f.y)]
    for b in placed:
        pts += around(b.x, b.y, b.radius + f.radius + COHESION_GAP)
    t = state.models[target] if target else None
    contact_first = t is not None and any(base_distance(b, t.base()).distance <= tol + EPS for b in placed)
    if t is not None and contact_first:
        pts += around(t.x, t.y, t.radius + f.radius + 0.02)

    def touches(x: float, y: float) -> bool:
        return t is not None and math.hypot(x - t.x, y - t.y) - f.radius - t.radius <= tol + EPS

    ranked = sorted({(round(x, 6), round(y, 6)) for x, y in pts},
                    key=lambda p: (not (contact_first and touches(*p)),
                                   math.hypot(p[0] - lead_end[0], p[1] - lead_end[1]), p[0], p[1]))
    start: Point3 = (f.x, f.y, f.z)
    for x, y in ranked:
        end = replace(f.base(), x=x, y=y)
        if not any(base_distance(end, b).distance <= 1.0 + EPS for b in placed):
            continue
        if math.hypot(x - f.x, y - f.y) <= 1e-6:
            return ()
        pos = position_fact(state.battlefield, x, y, f.z, radius=f.radius, height=f.profile.height,
                            others=others + placed, mover=f.id, settings=settings)
        if not pos.legal:
            continue
        res = shortest_path(state.battlefield, start, (x, y, pos.z), radius=f.radius, height=f.profile.height,
                            others=others, side=f.side, budget=budget, settings=settings)
        if not res.found or res.cost > budget + EPS:
            continue
        if centre is not None and not leash_ok([(p[0], p[1]) for p in res.points], centre, settings=settings).ok:
            continue
        return tuple(res.points)
    return None


def formation_move(state: GameState, unit: str, lead: str, path: Sequence[Point3], *, target: str | None,
                   context: str = "own") -> Move | None:
    """AI-D.15: the unit's Move with `lead` along `path` (its start first) and the followers placed after it; None
    when a follower cannot keep cohesion or the engine refuses the Move (checked with the engine's own Move check)."""
    models = sorted((m for m in state.unit_models(unit) if m.in_play), key=lambda m: m.id)
    if len(path) < 2 and len(models) == 1:
        return None
    lm = state.models[lead]
    end = path[-1]
    if len(models) == 1:
        mv = Move(unit, waypoints(path))
    else:
        ctx = Ctx(state, NoDice(), state.battlefield)
        placed = [replace(lm.base(), x=end[0], y=end[1], z=end[2])]
        paths: dict[str, tuple[Waypoint, ...]] = {lead: waypoints(path) if len(path) > 1 else ()}
        for f in (m for m in models if m.id != lead):
            stuck = bool(enemy_contacts(ctx, f))
            fp = () if stuck else follow(state, unit, f, placed, end, target, context)
            if fp is None:
                return None
            paths[f.id] = waypoints(fp) if fp else ()
            e = fp[-1] if fp else (f.x, f.y, f.z)
            placed.append(replace(f.base(), x=e[0], y=e[1], z=e[2]))
        if not any(paths.values()):
            return None
        mv = Move.of_unit(unit, {m.id: list(paths[m.id]) for m in models})
    from game.core.rules.dispatch import ACTIONS

    try:
        ACTIONS.check(Ctx(state, NoDice(), state.battlefield, ACTIONS), mv, actor=unit, context=context)
    except IllegalAction:
        return None
    return mv
