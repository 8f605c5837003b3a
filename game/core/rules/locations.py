"""Locations: Hot Spots and the Mission Objective (MISSION-8.2), the Reaction Radius trigger of a player model's path
(GEO-19, GAP-49, GAP-50), several locations of one action in the order entered (TURN-8), never by hostiles
(HOSTILE-8.3.NO-TRIGGER, AI-C.6). A trigger is recorded in the state (`LocationState.triggered`, the
`GameState.trigger_queue` of locations awaiting their Zone Hostiles roll, HOSTILE-8.3.ROLL) for the spawn to read.

Also the family of the location actions: Inspect (CORE-3.3.INSPECT, GEO-23, GAP-52) and Bolt Toss
(MISSION-8.2.BOLT-TOSS, GAP-51), both refused for hostiles (AI-C.6). Shared by the movement of every family (through
`movepath.emit_triggers`); it imports no family."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from game.core.actions import BoltToss, IllegalAction, Inspect
from game.core.battlefield import Point2
from game.core.catalog.profiles import Template
from game.core.dice import Modifier, TargetNumber
from game.core.geometry.distance import EPS, point_distance
from game.core.geometry.zone import InspectFact, TriggerFact, inspect_range, path_triggers
from game.core.rules.context import record_crit
from game.core.rules.delivery import Blast, delivery
from game.core.rules.stats import effective_ca
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


def inspect_fact(ctx: Ctx, m: ModelState, loc: LocationState) -> InspectFact:
    """GEO-23: the location point within 12" of the model's base (24" with Binoculars, EQUIP-6.2.BINOCULARS) and
    in its LOS (a 0.5"-tall marker at the point)."""
    return inspect_range(ctx.battlefield, ctx.state.scene(), m.id, (loc.x, loc.y),
                         binoculars="binoculars" in m.items, settings=ctx.settings)


def check_inspect(ctx: Ctx, a: Inspect, m: ModelState, context: str) -> int:
    """CORE-3.3.INSPECT: a player model, a location not yet triggered or searched, not inspected by this player
    this turn already (GAP-52: no stacking), in range and LOS (GEO-23)."""
    refuse_hostile(ctx, m, "Inspect")
    loc = location_of(ctx, a.location, "CORE-3.3.INSPECT")
    if loc.searched or loc.triggered:
        state = "searched" if loc.searched else "triggered"
        raise IllegalAction(f"{loc.id} is already {state}: an Inspect shifts only a Zone Hostiles roll still to "
                            "come", "CORE-3.3.INSPECT")
    if loc.inspected.get(m.side) == ctx.state.turn:
        raise IllegalAction(f"{m.side} has already inspected {loc.id} this turn (Inspects do not stack)", "GAP-52")
    fact = inspect_fact(ctx, m, loc)
    if not fact.ok:
        why = [] if fact.in_range else [f"{fact.distance:.2f}\" away, over the {fact.limit:g}\" Inspect range"]
        why += [] if fact.in_los else ["the location point is not in LOS"]
        raise IllegalAction(f"{m.id} cannot inspect {loc.id}: {'; '.join(why)}", "GEO-23")
    return 1


def do_inspect(ctx: Ctx, a: Inspect, m: ModelState, context: str) -> int:
    loc = ctx.state.locations[a.location]
    fact = inspect_fact(ctx, m, loc)
    loc.inspected[m.side] = ctx.state.turn
    binoculars = "binoculars" in m.items
    rules = ("CORE-3.3.INSPECT", "GEO-23", "GAP-52") + (("EQUIP-6.2.BINOCULARS",) if binoculars else ())
    ctx.emit("inspect", rules, unit=m.unit, model=m.id, side=m.side, location=loc.id, distance=round(fact.distance, 4),
             limit=fact.limit, binoculars=binoculars, shift=int(ctx.settings["inspect.max_shift"]), turn=ctx.state.turn)
    return 1


def inspect_shift(ctx: Ctx, loc: LocationState, side: str) -> int:
    """HOSTILE-8.3.ROLL / GAP-52: the largest shift the triggering `side` may apply to the location's roll this
    turn: `inspect.max_shift` when it inspected the location this turn (`inspect.own_trigger_only`=false: when any
    player did), else 0."""
    turn = ctx.state.turn
    if ctx.settings["inspect.own_trigger_only"]:
        inspected = loc.inspected.get(side) == turn
    else:
        inspected = turn in loc.inspected.values()
    return int(ctx.settings["inspect.max_shift"]) if inspected else 0


def roll_choices(roll: int, shift: int) -> tuple[int, ...]:
    """GAP-52 (`inspect.after_roll`=true): the results a player may pick after seeing the D6, shifted by up to
    `shift` either way and clamped to 1-6 (TV-35: a 6 with Inspect -> 5 or 6; a 1 -> 1 or 2; never 0 or 7)."""
    return tuple(sorted({max(1, min(6, roll + k)) for k in range(-shift, shift + 1)}))


# --- Bolt Toss (MISSION-8.2.BOLT-TOSS, GAP-51) -----------------------------------------------------------------


def _bolt(ctx: Ctx) -> Blast:
    return Blast("bolt", "GAP-51", Template.SBT, None, frozenset(), 0.0, float(ctx.settings["bolt.range"]), True)


def bolt_tn(ctx: Ctx, m: ModelState, indirect: str | None) -> TargetNumber:
    """GAP-51: CA with the indirect modifier, `bolt.in_los_mod` (-1) if the point is in LOS, else `bolt.no_los_mod`
    (-3); a bolt always arcs (it is never a direct attack on a model)."""
    if indirect == "no_los":
        mods = (Modifier("bolt, point not in LOS", int(ctx.settings["bolt.no_los_mod"]), "GAP-51"),)
    else:
        mods = (Modifier("bolt, point in LOS", int(ctx.settings["bolt.in_los_mod"]), "GAP-51"),)
    return TargetNumber(effective_ca(m), mods)


def _bolt_check(ctx: Ctx, a: BoltToss, m: ModelState) -> tuple[LocationState, str | None]:
    refuse_hostile(ctx, m, "Bolt Toss")
    loc = location_of(ctx, a.location, "MISSION-8.2.BOLT-TOSS")
    if not (math.isfinite(a.x) and math.isfinite(a.y)):
        raise IllegalAction(f"bolt point ({a.x},{a.y}) is not a number", "GEO-1")
    if loc.searched or (loc.triggered and ctx.settings["trigger.once"]):
        state = "searched" if loc.searched else "triggered"
        raise IllegalAction(f"{loc.id} is already {state}: a bolt cannot trigger it again", "MISSION-8.2.TRIGGER")
    radius = float(ctx.settings["bolt.target_radius"])
    off = math.hypot(a.x - loc.x, a.y - loc.y)
    if off > radius + EPS:
        raise IllegalAction(f"the point ({a.x:g},{a.y:g}) is {off:.2f}\" from {loc.id}'s point, outside its "
                            f"{radius:g}\" Reaction Radius", "GAP-51")
    reach = float(ctx.settings["bolt.range"])
    d = point_distance(m.base(), (a.x, a.y))
    if d > reach + EPS:
        raise IllegalAction(f"the point is {d:.2f}\" from {m.id}; a bolt reaches {reach:g}\"", "GAP-51")
    d_ = delivery(ctx, m, a.x, a.y, _bolt(ctx))  # the shadow rule (ARMORY-5.4.SHADOW) refuses here
    if d_.indirect is None:
        return loc, "in_los"
    return loc, d_.indirect


def check_bolt(ctx: Ctx, a: BoltToss, m: ModelState, context: str) -> int:
    """GAP-51: a player model (AI-C.6), a point in the location's radius and the bolt's range, the shadow rule."""
    _bolt_check(ctx, a, m)
    return 1


def do_bolt(ctx: Ctx, a: BoltToss, m: ModelState, context: str) -> int:
    """GAP-51: `bolt.dice` dice against the TN, crits apply; a success triggers the location (the thrower's player
    rolls its Zone Hostiles Table), a failure does nothing (no deviation)."""
    loc, indirect = _bolt_check(ctx, a, m)
    rules = ("MISSION-8.2.BOLT-TOSS", "GAP-51")
    res = ctx.roll_pool(int(ctx.settings["bolt.dice"]), bolt_tn(ctx, m, indirect),
                        what=f"bolt toss at {loc.id} ({a.x:g},{a.y:g})", who=m.id, rules=rules)
    record_crit(ctx, m.unit, res, context=context, rules=rules)
    hit = res.successes > 0
    ctx.emit("bolt_toss", rules, unit=m.unit, model=m.id, location=loc.id, point=[a.x, a.y], indirect=indirect,
             success=hit)
    if hit:
        record_trigger(ctx, loc, m, how="bolt", distance=math.hypot(a.x - loc.x, a.y - loc.y),
                       limit=float(ctx.settings["bolt.target_radius"]), segment=-1, at=0.0)
    return 1
