"""Move, Climb and Jump of one model or a whole unit (CORE-3.3.MOVE/CLIMB/JUMP, CORE-3.7, GEO-8, GEO-19..21, GEO-24)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from game.core.actions import Climb, IllegalAction, Jump, Move
from game.core.battlefield import Base, Point3
from game.core.geometry.distance import base_distance, segment_point_distance
from game.core.geometry.movement.cost import CLIMB_RATE, PathFact
from game.core.geometry.movement.positions import vertically_overlap
from game.core.geometry.terrain import Level
from game.core.geometry.zone import CohesionFact, cohesion
from game.core.rules.context import record_crit
from game.core.rules.movepath import (
    allowance_of,
    check_position,
    emit_triggers,
    hustle,
    judge_path,
    place_along,
    refuse_illegal,
    refuse_leash,
    slow_scars,
    task_leave_check,
)
from game.core.rules.queries import enemies_of, engaged, leader_bonus
from game.core.rules.stats import will_tn
from game.core.state import ModelState
from game.core.tolerance import EPS

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

JUMP_FREE = 2.0  # CORE-3.3.JUMP: a gap up to 2" is crossed for 1 action, no check


# --- whose move: one model, or every model of a unit (CORE-3.7.COMMON-ACTIONS, GEO-21) ---------------------


T = TypeVar("T", bound=Sequence[Any])


@dataclass(frozen=True, slots=True)
class Leg:
    """One model's part of a movement action: its verdict (None: it stays put) and its allowance."""

    model: ModelState
    verdict: PathFact | None
    inches: float = 0.0
    text: str = ""


def unit_legs(ctx: Ctx, unit: str, single: T, per_model: Sequence[tuple[str, T]], what: str, *,
              need_waypoint: bool = True) -> list[tuple[ModelState, T]]:
    """CORE-3.7.COMMON-ACTIONS: who moves where. A unit with one model in play gives `single` (Move.path,
    Jump.to); a multi-model unit gives `per_model`, one entry for every model in play, an empty one for a model
    that stays put, and moves at least one. Returned in the unit's model order."""
    live = [x for x in ctx.state.unit_models(unit) if x.in_play]
    if not per_model:
        if len(live) != 1:
            raise IllegalAction(f"{unit} has {len(live)} models in play ({', '.join(x.id for x in live)}): a {what} "
                                f"of a multi-model unit gives each model its own path (`paths`; an empty path stays "
                                f"put)", "CORE-3.7.COMMON-ACTIONS")
        if need_waypoint and not single:
            raise IllegalAction(f"a {what} needs at least one waypoint", "CORE-3.3.MOVE")
        return [(live[0], single)]
    if len(single):
        raise IllegalAction(f"a {what} gives one path (a one-model unit) or per-model paths, not both",
                            "CORE-3.7.COMMON-ACTIONS")
    members = {x.id: x for x in ctx.state.unit_models(unit)}
    given: dict[str, T] = {}
    for mid, p in per_model:
        if mid in given:
            raise IllegalAction(f"{mid} is given two paths", "CORE-3.7.COMMON-ACTIONS")
        if mid not in members:
            raise IllegalAction(f"{mid} is not a model of {unit}", "CORE-3.7.COMMON-ACTIONS")
        if not members[mid].in_play:
            raise IllegalAction(f"{mid} is not in play and does not move", "COMBAT-4.4.OOA")
        given[mid] = p
    missing = [x.id for x in live if x.id not in given]
    if missing:
        raise IllegalAction(f"{', '.join(missing)} of {unit} {'has' if len(missing) == 1 else 'have'} no path: in a "
                            f"unit's {what} every model in play moves or explicitly stays put (an empty path)",
                            "CORE-3.7.COMMON-ACTIONS")
    if not any(len(p) for p in given.values()):
        raise IllegalAction(f"this {what} moves no model of {unit}", "CORE-3.3.MOVE")
    return [(x, given[x.id]) for x in live]


def _mates(group: Sequence[tuple[ModelState, Any]]) -> frozenset[str]:
    """The unit's models in play when it moves as several (judged apart, then compared at their ends)."""
    return frozenset(m.id for m, _ in group) if len(group) > 1 else frozenset()


def _free_to_move(ctx: Ctx, m: ModelState) -> None:
    """GEO-8/GAP-89 for each model that moves: not in contact with an enemy (Withdraw), not prone."""
    if engaged(ctx, m):
        raise IllegalAction(f"{m.id} is in base contact with an enemy and must Withdraw", "COMBAT-4.3.WITHDRAW")
    if m.prone:
        raise IllegalAction(f"{m.id} is prone and may only Recover", "GAP-89")


def unit_ends(ctx: Ctx, unit: str, ends: Sequence[tuple[ModelState, Point3 | None]],
              what: str) -> tuple[CohesionFact, CohesionFact] | None:
    """GEO-6/GEO-21 for a unit's move (None for one model): no two of its models end on each other (they may
    pass), and the within-1" chain is connected at the end. A unit whose chain casualties broke must restore
    it with its next move; a move that cannot must at least close up (its `gap` shrinks), never move further
    apart. Returns the cohesion before and after."""
    if len(ends) < 2:
        return None
    final = [m.base() if p is None else replace(m.base(), x=p[0], y=p[1], z=p[2]) for m, p in ends]
    moved = {m.id for m, p in ends if p is not None}
    for i, a in enumerate(final):
        for b in final[:i]:
            depth = a.radius + b.radius - math.hypot(a.x - b.x, a.y - b.y)
            if depth > EPS and vertically_overlap(a.z, a.height, b.z, b.height):
                mover, other = (a, b) if a.id in moved else (b, a)
                where = f" where {other.id} ends" if other.id in moved else ""
                raise IllegalAction(f"{mover.id}'s path ends on {other.id}'s base{where} (overlap {depth:.2f}\"): the "
                                    f"models of {unit} may pass each other, not end on each other", "GEO-6")
    before = cohesion([m.base() for m, _ in ends], settings=ctx.settings)
    after = cohesion(final, settings=ctx.settings)
    if after.connected or (not before.connected and after.gap < before.gap - EPS):
        return before, after
    if before.connected:
        raise IllegalAction(f"{unit} would end out of cohesion: {_cut_text(after, final)}", "GEO-21")
    raise IllegalAction(f"{unit} is out of cohesion ({before.gap:.2f}\" short of a 1\" chain) and its next move must "
                        f"restore it, or at least close up; this {what} leaves it {after.gap:.2f}\" short "
                        f"({_cut_text(after, final)})", "GEO-21")


def _cut_text(fact: CohesionFact, final: Sequence[Base]) -> str:
    """Which models are cut off from the main group, and the nearest pair across (edge to edge)."""
    by_id = {b.id: b for b in final}
    cut, main = fact.cut_off, fact.main
    d, a, b = min((base_distance(by_id[c], by_id[k]).distance, c, k) for c in cut for k in main)
    return (f"{', '.join(cut)} cut off, more than 1\" edge to edge from {', '.join(main)} "
            f"(nearest: {a} {d:.2f}\" from {b})")


def _emit_unit_move(ctx: Ctx, unit: str, what: str, legs: Sequence[tuple[ModelState, bool]],
                    before: CohesionFact | None) -> None:
    """One summary of a multi-model unit's movement after the per-model events (CORE-3.7, GEO-21)."""
    if before is None:
        return
    after = cohesion([m.base() for m, _ in legs], settings=ctx.settings)
    ctx.emit("unit_move", ("CORE-3.7.COMMON-ACTIONS", "GEO-21"), unit=unit, action=what,
             moved=[m.id for m, went in legs if went], stayed=[m.id for m, went in legs if not went],
             cohesion=after.connected, groups=[list(g) for g in after.groups], gap=round(after.gap, 4),
             restored=after.connected and not before.connected)


def _event_data(unit: str, m: ModelState, v: PathFact, allowance: float, text: str) -> dict[str, Any]:
    return dict(unit=unit, model=m.id, path=[[p[0], p[1]] for p in v.points], path_z=[p[2] for p in v.points],
                length=v.length, cost=v.cost, allowance=allowance, allowance_text=text,
                segments=[s.kind.value for s in v.segments], pieces=[list(s.pieces) for s in v.segments],
                difficult=[s.difficult for s in v.segments], z=m.z)


def _end(v: PathFact | None) -> Point3 | None:
    return None if v is None else (v.points[-1][0], v.points[-1][1], v.end_z)


# --- Move (CORE-3.3.MOVE, GEO-8) ------------------------------------------------------------------------


def move_legs(ctx: Ctx, a: Move, context: str) -> tuple[list[Leg], CohesionFact | None]:
    """Every model's verdict for a Move (raises IllegalAction naming the model and why) and the unit's cohesion
    before it (None for one model)."""
    group = unit_legs(ctx, a.unit, a.path, a.paths, "Move")
    mates = _mates(group)
    legs = []
    for m, path in group:
        if not path:
            legs.append(Leg(m, None))
            continue
        _free_to_move(ctx, m)
        allowance = allowance_of(ctx, m, context)
        v = judge_path(ctx, m, path, allowance.inches, exclude=mates - {m.id})
        refuse_illegal(m, v, allowance)
        refuse_leash(ctx, m, v.points)
        legs.append(Leg(m, v, allowance.inches, allowance.text()))
    facts = unit_ends(ctx, a.unit, [(leg.model, _end(leg.verdict)) for leg in legs], "Move")
    return legs, facts[0] if facts else None


def check_move(ctx: Ctx, a: Move, m: ModelState, context: str) -> int:
    """CORE-3.3.MOVE/GEO-8: a legal path within one Move allowance (climbs included if they fit, GEO-24); for a
    multi-model unit, every model's own path so, ending in cohesion (CORE-3.7, GEO-21). One action."""
    move_legs(ctx, a, context)
    return 1


def do_move(ctx: Ctx, a: Move, m: ModelState, context: str) -> int:
    legs, before = move_legs(ctx, a, context)
    for leg in legs:
        if leg.verdict is None:
            continue
        hustled = hustle(ctx, leg.model, context)
        place_along(ctx, leg.model, leg.verdict)
        ctx.emit("move", ("CORE-3.3.MOVE", "GEO-8") + (("SKILL-6.1.HUSTLE",) if hustled else ()),
                 **_event_data(a.unit, leg.model, leg.verdict, leg.inches, leg.text))
    _emit_unit_move(ctx, a.unit, "Move", [(leg.model, leg.verdict is not None) for leg in legs], before)
    return 1


# --- Climb (CORE-3.3.CLIMB, GEO-24) ------------------------------------------------------------------------


def _climb_allowance(ctx: Ctx, m: ModelState, a: Climb, context: str) -> tuple[float, str]:
    parts = [allowance_of(ctx, m, context, k) for k in range(a.actions)]
    return sum(p.inches for p in parts), " + ".join(p.text() for p in parts)


def climb_legs(ctx: Ctx, a: Climb, context: str) -> tuple[list[Leg], CohesionFact | None]:
    """Every model's verdict for a Climb: paid from `actions` committed Move allowances, finished within them
    (`climb.allow_end_mid_climb`=false), no Slow scar; some path must climb; a unit ends in cohesion."""
    group = unit_legs(ctx, a.unit, a.path, a.paths, "Climb")
    if not isinstance(a.actions, int) or a.actions < 1:
        raise IllegalAction(f"a Climb commits a whole number of Move actions (>= 1), not {a.actions!r}", "GEO-24")
    if a.actions > 1 and context != "own":
        raise IllegalAction("a held or ordered action is a single action; climb with actions=1", "GAP-17")
    mates = _mates(group)
    legs = []
    for m, path in group:
        if not path:
            legs.append(Leg(m, None))
            continue
        _free_to_move(ctx, m)
        if slow_scars(m):
            raise IllegalAction(f"{m.id} has the Slow scar: no climbing except ladders and stairs", "GEO-24")
        total, text = _climb_allowance(ctx, m, a, context)
        v = judge_path(ctx, m, path, total, exclude=mates - {m.id})
        if not v.legal:
            rule = "GEO-24" if "allowance" in v.reason and not ctx.settings["climb.allow_end_mid_climb"] else v.rule
            raise IllegalAction(f"{m.id}: {v.reason} ({text}; a climb must be completed within the Move actions "
                                f"committed to it)" if "allowance" in v.reason else f"{m.id}: {v.reason}",
                                rule or "GEO-24")
        refuse_leash(ctx, m, v.points)
        legs.append(Leg(m, v, total, text))
    if not any(leg.verdict.climbs for leg in legs if leg.verdict is not None):
        raise IllegalAction("this path climbs nothing: use Move" if len(legs) == 1 else
                            f"no path of {a.unit} climbs anything: use Move", "CORE-3.3.CLIMB")
    facts = unit_ends(ctx, a.unit, [(leg.model, _end(leg.verdict)) for leg in legs], "Climb")
    return legs, facts[0] if facts else None


def check_climb(ctx: Ctx, a: Climb, m: ModelState, context: str) -> int:
    """GEO-24: a path that climbs, paid from `actions` committed Move allowances; it must climb, finish within
    them (`climb.allow_end_mid_climb`=false) and the model must be free to climb (no Slow scar)."""
    climb_legs(ctx, a, context)
    return a.actions


def do_climb(ctx: Ctx, a: Climb, m: ModelState, context: str) -> int:
    legs, before = climb_legs(ctx, a, context)
    for leg in legs:
        v = leg.verdict
        if v is None:
            continue
        place_along(ctx, leg.model, v)
        climbed = sum(s.climbed for s in v.segments)
        ctx.emit("climb", ("CORE-3.3.CLIMB", "GEO-24", "GEO-8"), climbed=climbed, climb_rate=CLIMB_RATE,
                 actions=a.actions, **_event_data(a.unit, leg.model, v, leg.inches, leg.text))
    _emit_unit_move(ctx, a.unit, "Climb", [(leg.model, leg.verdict is not None) for leg in legs], before)
    return a.actions


# --- Jump (CORE-3.3.JUMP, GEO-24, GAP-88) ----------------------------------------------------------------


def jump_gap(ctx: Ctx, m: ModelState, to: tuple[float, ...]) -> tuple[Level, Level, float, tuple[float, float, float]]:
    """GEO-24: the levels jumped from and to and the gap width g between them (edge to edge); raises
    IllegalAction when the jump is not between two floors or the bases are not at the edges."""
    from game.core.geometry.terrain import level_at, walking_level

    bf = ctx.battlefield
    if len(to) not in (2, 3) or not all(math.isfinite(float(c)) for c in to):
        raise IllegalAction(f"a Jump lands at (x, y) or (x, y, z), not {to!r}", "GEO-1")
    here = walking_level(bf, m.x, m.y, m.z) if bf.pieces else None
    x, y = float(to[0]), float(to[1])
    z = float(to[2]) if len(to) == 3 else (here.z if here is not None else m.z)
    there = level_at(bf, x, y, z) if bf.pieces else None
    if here is None or there is None or here.support is None or there.support is None:
        raise IllegalAction("a Jump crosses a gap between two floors (roofs, walkways, platforms); "
                            "on the ground, walk or climb", "CORE-3.3.JUMP")
    if here.id == there.id:
        raise IllegalAction(f"({x:g},{y:g}) is on the floor {m.id} already stands on: walk there", "CORE-3.3.JUMP")
    if there.z > here.z + 1.0 + EPS:
        raise IllegalAction(f"a Jump does not go up {there.z - here.z:g}\": climb instead", "GEO-24")
    from shapely import LineString, Point

    gap = float(here.support.distance(there.support))
    r, tol = m.radius, float(ctx.settings["geo.contact_tol"])
    near = float(here.support.boundary.distance(Point(m.x, m.y)))
    if near > r + tol + EPS:
        raise IllegalAction(f"{m.id} must stand at the edge of {here.name} to jump ({near - r:.2f}\" away)", "GEO-24")
    far_edge = float(there.support.boundary.distance(Point(x, y)))
    if far_edge < r - EPS:
        raise IllegalAction(f"the base must land wholly on {there.name}", "GEO-24")
    if far_edge > r + tol + EPS:
        raise IllegalAction(f"a Jump lands in contact with the far edge of {there.name}", "GEO-24")
    seg = LineString([(m.x, m.y), (x, y)])
    if seg.length > gap + 2 * (r + tol) + EPS:
        raise IllegalAction(f"the jump from ({m.x:g},{m.y:g}) to ({x:g},{y:g}) is {seg.length:.2f}\" long for a gap of "
                            f"{gap:.2f}\": jump straight across", "GEO-24")
    return here, there, gap, (x, y, there.z)


@dataclass(frozen=True, slots=True)
class JumpLeg:
    """One model's part of a Jump: the gap, the landing and the level landed on (land None: it stays put)."""

    model: ModelState
    gap: float = 0.0
    land: Point3 | None = None
    to_level: str = ""


def _check_one_jump(ctx: Ctx, unit: str, m: ModelState, to: Sequence[float], context: str,
                    exclude: frozenset[str]) -> JumpLeg:
    """One model's jump: free to move, no Slow scar, the gap within `jump.max` (over 2" only right after a
    Move, with Will to test), no enemy base crossed, a legal landing."""
    _free_to_move(ctx, m)
    if slow_scars(m):
        raise IllegalAction(f"{m.id} has the Slow scar and may not jump", "GEO-24")
    here, there, gap, land = jump_gap(ctx, m, tuple(to))
    limit = float(ctx.settings["jump.max"])
    if gap > limit + EPS:
        raise IllegalAction(f"the gap is {gap:.2f}\"; no model jumps more than {limit:g}\" (`jump.max`)", "GAP-88")
    if gap > JUMP_FREE + EPS:
        act = ctx.state.activation
        if context != "own" or act is None or act.unit != unit or act.last_action not in ("Move", "Climb"):
            raise IllegalAction(f"a gap of {gap:.2f}\" (over 2\") is jumped only right after a Move action",
                                "CORE-3.3.JUMP")
        if m.profile.will is None:
            raise IllegalAction(f"{m.id} has Will NA and cannot take the Skill Check for a long jump", "GAP-22")
    for e in enemies_of(ctx, m.side):
        if vertically_overlap(here.z, m.profile.height, e.z, e.profile.height) and \
                segment_point_distance((m.x, m.y), land[:2], (e.x, e.y)) < m.radius + e.radius - EPS:
            raise IllegalAction(f"the jump passes through enemy {e.id}", "GEO-8")
    check_position(ctx, m, land[0], land[1], land[2], rule="GEO-7", exclude=exclude)
    refuse_leash(ctx, m, [land])
    return JumpLeg(m, gap, land, there.name)


def jump_legs(ctx: Ctx, a: Jump, context: str) -> tuple[list[JumpLeg], CohesionFact | None]:
    """Every model's jump and the unit's cohesion before it; a unit's landings must not overlap and must end in
    cohesion (GEO-21)."""
    group = unit_legs(ctx, a.unit, a.to, a.landings, "Jump", need_waypoint=False)
    mates = _mates(group)
    legs = [JumpLeg(m) if len(group) > 1 and not to else _check_one_jump(ctx, a.unit, m, to, context, mates - {m.id})
            for m, to in group]
    facts = unit_ends(ctx, a.unit, [(leg.model, leg.land) for leg in legs], "Jump")
    return legs, facts[0] if facts else None


def check_jump(ctx: Ctx, a: Jump, m: ModelState, context: str) -> int:
    """CORE-3.3.JUMP/GEO-24/GAP-88: g <= 2" for 1 action; 2" < g <= `jump.max` only right after a Move (a free Will
    Skill Check then decides); never with the Slow scar; the landing is a legal position. A multi-model unit
    gives each model its landing (`landings`), each judged so."""
    jump_legs(ctx, a, context)
    return 1


def do_jump(ctx: Ctx, a: Jump, m: ModelState, context: str) -> int:
    """Each jumper over 2" takes its own Skill Check; one that fails stays at the near edge (a unit may then
    be out of cohesion, and its next move must restore it, GEO-21)."""
    legs, before = jump_legs(ctx, a, context)
    went = [(leg.model, leg.land is not None and _do_one_jump(ctx, a.unit, leg, context)) for leg in legs]
    _emit_unit_move(ctx, a.unit, "Jump", went, before)
    return 1


def _do_one_jump(ctx: Ctx, unit: str, leg: JumpLeg, context: str) -> bool:
    m, gap, land = leg.model, leg.gap, leg.land
    assert land is not None
    if gap > JUMP_FREE + EPS:
        tn = will_tn(m, leader_bonus(ctx, m))
        res = ctx.roll_pool(1, tn, what=f"Skill Check to jump a {gap:.2f}\" gap", who=m.id,
                            rules=("CORE-3.3.JUMP", "GAP-88"))
        record_crit(ctx, m.unit, res, context=context, rules=("CORE-3.3.JUMP",))
        if not res.successes:
            ctx.emit("jump_failed", ("CORE-3.3.JUMP", "GAP-88"), unit=unit, model=m.id, gap=gap,
                     note="stays at the near edge; the action is spent, no fall")
            return False
    start = (m.x, m.y)
    m.x, m.y, m.z = land
    ctx.emit("jump", ("CORE-3.3.JUMP", "GEO-24"), unit=unit, model=m.id, gap=gap, checked=gap > JUMP_FREE + EPS,
             path=[list(start), [land[0], land[1]]], z=land[2], to_level=leg.to_level)
    emit_triggers(ctx, m, [start, (land[0], land[1])])
    task_leave_check(ctx, m)
    return True


# --- tasks ----------------------------------------------------------------------------------------------


CHECKS = {Move: check_move, Climb: check_climb, Jump: check_jump}
DOS = {Move: do_move, Climb: do_climb, Jump: do_jump}
