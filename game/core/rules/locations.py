"""Locations: Hot Spots and the Mission Objective (MISSION-8.2), the Reaction Radius trigger of a player model's path
(GEO-19, GAP-49, GAP-50), several locations of one action in the order entered (TURN-8), never by hostiles
(HOSTILE-8.3.NO-TRIGGER, AI-C.6). A trigger is recorded in the state (`LocationState.triggered`, the
`GameState.trigger_queue` of locations awaiting their Zone Hostiles roll, HOSTILE-8.3.ROLL) for the spawn to read.

Shared by the movement of every family (through `movepath.emit_triggers`) and by the scouting actions
(rules/scouting.py); it imports no family."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from game.core.actions import IllegalAction
from game.core.battlefield import Point2
from game.core.geometry.zone import TriggerFact, path_triggers
from game.core.state import LocationState, ModelState, SideKind

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

TRIGGER_RULES = ("GEO-19", "MISSION-8.2.TRIGGER", "TURN-8")

# HOSTILE-8.3.TABLE: per TL, the D6 result -> (hostiles, figures, anomaly present `*`); "Vermin Swarm (X 2)" is 2
# figures (GAP-21). The roll itself and the spawn are the next slice's; Inspect's choices read the names.
HOSTILE_TABLE: dict[int, dict[int, tuple[str, int, bool]]] = {
    1: {1: ("Vermin Swarm", 1, False), 2: ("Vermin Swarm", 2, False), 3: ("Feral Dogs", 4, False),
        4: ("Zombies", 4, False), 5: ("Rad Ghoul", 4, False), 6: ("Bandits", 4, True)},
    2: {1: ("Vermin Swarm", 2, False), 2: ("Feral Dogs", 6, False), 3: ("Zombies", 6, False),
        4: ("Rad Ghouls", 6, False), 5: ("Bandits", 4, True), 6: ("Mutant", 1, True)},
    3: {1: ("Feral Dogs", 6, False), 2: ("Zombies", 8, False), 3: ("Rad Ghouls", 6, False),
        4: ("Bandits", 4, True), 5: ("Mutants", 2, True), 6: ("Large Mutant", 1, True)},
}


@dataclass(frozen=True, slots=True)
class Entry:
    """Where along a centre path a location's Reaction Radius is first entered: `at` inches from the path's start
    (0 when the path starts inside it), with the geometry's own fact (GEO-19)."""

    location: str
    at: float
    fact: TriggerFact


def player_model(ctx: Ctx, m: ModelState) -> bool:
    """Only player models trigger locations (HOSTILE-8.3.NO-TRIGGER, AI-C.6)."""
    side = next((s for s in ctx.state.sides if s.id == m.side), None)
    return side is not None and side.kind is SideKind.CREW


def live_locations(ctx: Ctx) -> dict[str, LocationState]:
    """The locations a path can still trigger (GEO-19): never a searched (looted) one, nor an already triggered one
    while `trigger.once` holds (MISSION-8.2.TRIGGER)."""
    once = bool(ctx.settings["trigger.once"])
    return {lid: loc for lid, loc in ctx.state.locations.items()
            if not loc.searched and not (once and loc.triggered)}


def _first_within(a: Point2, b: Point2, q: Point2, limit: float) -> float | None:
    """The smallest t in [0, 1] with |a + t(b - a) - q| <= limit, or None."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    fx, fy = a[0] - q[0], a[1] - q[1]
    c = fx * fx + fy * fy - limit * limit
    if c <= 0.0:
        return 0.0
    aa = dx * dx + dy * dy
    if aa == 0.0:
        return None
    bb = 2.0 * (fx * dx + fy * dy)
    disc = bb * bb - 4.0 * aa * c
    if disc < 0.0:
        return None
    t = (-bb - math.sqrt(disc)) / (2.0 * aa)
    return t if 0.0 <= t <= 1.0 else None


def entry_at(path: Sequence[Point2], fact: TriggerFact) -> float:
    """Inches along the centre path to where it first comes within the fact's limit of the location point; a path
    the geometry judges triggering only within its EPS tolerance enters at the nearest point of its nearest
    segment."""
    pts = [(float(p[0]), float(p[1])) for p in path]
    done = 0.0
    for a, b in pairwise(pts):
        t = _first_within(a, b, fact.point, fact.limit)
        seg = math.hypot(b[0] - a[0], b[1] - a[1])
        if t is not None:
            return done + t * seg
        done += seg
    if len(pts) < 2 or fact.segment < 0:
        return done
    before = sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(pts[:fact.segment + 1]))
    a, b = pts[fact.segment], pts[fact.segment + 1]
    dx, dy = b[0] - a[0], b[1] - a[1]
    aa = dx * dx + dy * dy
    t = 0.0 if aa == 0.0 else max(0.0, min(1.0, ((fact.point[0] - a[0]) * dx + (fact.point[1] - a[1]) * dy) / aa))
    return before + t * math.sqrt(aa)


def entries(path: Sequence[Point2], radius: float, locations: dict[str, LocationState]) -> list[Entry]:
    """GEO-19 over the given locations (the 3" radius measured from each centre point, `locations.radius_from` =
    centre_point, GAP-50), the triggered ones in the order the path enters them (TURN-8; ties: the order given)."""
    if not locations:
        return []
    points = {lid: (loc.x, loc.y) for lid, loc in locations.items()}
    found = [Entry(f.location, entry_at(path, f), f) for f in path_triggers(path, radius, points) if f.triggered]
    return sorted(found, key=lambda e: e.at)


def trigger_along(ctx: Ctx, m: ModelState, path: Sequence[Point2]) -> list[str]:
    """Trigger every live location the player model's centre path passes through or ends within 3" + r of (GEO-19),
    in the order entered (TURN-8): one `location_triggered` event each, recorded in the state. Returns their ids."""
    if not ctx.state.locations or not player_model(ctx, m):
        return []
    out = []
    for e in entries(path, m.radius, live_locations(ctx)):
        record_trigger(ctx, ctx.state.locations[e.location], m, how="path", distance=e.fact.min_distance,
                       limit=e.fact.limit, segment=e.fact.segment, at=e.at)
        out.append(e.location)
    return out


def record_trigger(ctx: Ctx, loc: LocationState, m: ModelState, *, how: str, distance: float, limit: float,
                   segment: int, at: float) -> None:
    """MISSION-8.2.TRIGGER: mark the location triggered by the model's player, queue its Zone Hostiles roll
    (HOSTILE-8.3.ROLL, TURN-8) and log one `location_triggered` event."""
    again = loc.triggered
    loc.triggered = True
    loc.triggered_by = m.id
    loc.triggered_side = m.side
    loc.triggered_turn = ctx.state.turn
    ctx.state.trigger_queue.append(loc.id)
    ctx.emit("location_triggered", TRIGGER_RULES, location=loc.id, name=loc.name, kind=loc.kind, tl=loc.tl,
             model=m.id, side=m.side, how=how, distance=round(distance, 4), limit=limit, segment=segment,
             entered_at=round(at, 4), again=again)


# --- Inspect (CORE-3.3.INSPECT, GEO-23, GAP-52) --------------------------------------------------------------------


def location_of(ctx: Ctx, lid: str, rule: str) -> LocationState:
    loc = ctx.state.locations.get(lid)
    if loc is None:
        known = ", ".join(ctx.state.locations) or "none"
        raise IllegalAction(f"no location {lid!r} in this game; locations: {known}", rule)
    return loc


def refuse_hostile(ctx: Ctx, m: ModelState, what: str) -> None:
    """AI-C.6: hostiles never Search, Inspect or Bolt Toss."""
    if not player_model(ctx, m):
        raise IllegalAction(f"{m.id} is a Zone hostile: hostiles never {what} (only player models do)", "AI-C.6")


# --- Bolt Toss (MISSION-8.2.BOLT-TOSS, GAP-51) -----------------------------------------------------------------


