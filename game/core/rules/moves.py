"""Check and do of the movement actions Move, Climb and Jump (CORE-3.3.MOVE/CLIMB/JUMP, GEO-8, GEO-19, GEO-24)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from game.core.actions import Climb, IllegalAction, Jump, Move
from game.core.geometry.distance import EPS, segment_point_distance
from game.core.geometry.movement.cost import CLIMB_RATE, PathFact
from game.core.geometry.movement.positions import vertically_overlap
from game.core.geometry.terrain import Level
from game.core.rules.context import record_crit
from game.core.rules.movepath import (
    allowance_of,
    check_position,
    emit_triggers,
    hustle,
    judge_path,
    place_along,
    refuse_illegal,
    slow_scars,
    task_leave_check,
)
from game.core.rules.queries import enemies_of, engaged, leader_bonus
from game.core.rules.stats import will_tn
from game.core.state import ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

JUMP_FREE = 2.0  # CORE-3.3.JUMP: a gap up to 2" is crossed for 1 action, no check


# --- shared -------------------------------------------------------------------------------------------


def _common(ctx: Ctx, unit: str, path: Sequence[Sequence[float]], m: ModelState, what: str) -> None:

    if len([x for x in ctx.state.unit_models(unit) if x.in_play]) != 1:
        raise IllegalAction("each model of a multi-model unit needs its own path", "CORE-3.7.COMMON-ACTIONS")
    if not path:
        raise IllegalAction(f"a {what} needs at least one waypoint", "CORE-3.3.MOVE")
    if engaged(ctx, m):
        raise IllegalAction(f"{m.id} is in base contact with an enemy and must Withdraw", "COMBAT-4.3.WITHDRAW")


def _event_data(unit: str, m: ModelState, v: PathFact, allowance: float, text: str) -> dict:
    return dict(unit=unit, model=m.id, path=[[p[0], p[1]] for p in v.points], path_z=[p[2] for p in v.points],
                length=v.length, cost=v.cost, allowance=allowance, allowance_text=text,
                segments=[s.kind.value for s in v.segments], z=m.z)


# --- Move (CORE-3.3.MOVE, GEO-8) ------------------------------------------------------------------------


def check_move(ctx: Ctx, a: Move, m: ModelState, context: str) -> int:
    """CORE-3.3.MOVE/GEO-8: a legal path within one Move allowance (climbs included if they fit, GEO-24)."""
    _common(ctx, a.unit, a.path, m, "Move")
    allowance = allowance_of(ctx, m, context)
    refuse_illegal(m, judge_path(ctx, m, a.path, allowance.inches), allowance)
    return 1


def do_move(ctx: Ctx, a: Move, m: ModelState, context: str) -> int:
    allowance = allowance_of(ctx, m, context)
    hustled = hustle(ctx, m, context)
    v = judge_path(ctx, m, a.path, allowance.inches)
    refuse_illegal(m, v, allowance)
    place_along(ctx, m, v)
    ctx.emit("move", ("CORE-3.3.MOVE", "GEO-8") + (("SKILL-6.1.HUSTLE",) if hustled else ()),
             **_event_data(a.unit, m, v, allowance.inches, allowance.text()))
    return 1


# --- Climb (CORE-3.3.CLIMB, GEO-24) ------------------------------------------------------------------------


def _climb_allowance(ctx: Ctx, m: ModelState, a: Climb, context: str) -> tuple[float, str]:
    parts = [allowance_of(ctx, m, context, k) for k in range(a.actions)]
    return sum(p.inches for p in parts), " + ".join(p.text() for p in parts)


def check_climb(ctx: Ctx, a: Climb, m: ModelState, context: str) -> int:
    """GEO-24: a path that climbs, paid from `actions` committed Move allowances; it must climb, finish within
    them (`climb.allow_end_mid_climb`=false) and the model must be free to climb (no Slow scar)."""
    _common(ctx, a.unit, a.path, m, "Climb")
    if not isinstance(a.actions, int) or a.actions < 1:
        raise IllegalAction(f"a Climb commits a whole number of Move actions (>= 1), not {a.actions!r}", "GEO-24")
    if a.actions > 1 and context != "own":
        raise IllegalAction("a held or ordered action is a single action; climb with actions=1", "GAP-17")
    if slow_scars(m):
        raise IllegalAction(f"{m.id} has the Slow scar: no climbing except ladders and stairs", "GEO-24")
    total, text = _climb_allowance(ctx, m, a, context)
    v = judge_path(ctx, m, a.path, total)
    if not v.legal:
        rule = "GEO-24" if "allowance" in v.reason and not ctx.settings["climb.allow_end_mid_climb"] else v.rule
        raise IllegalAction(f"{m.id}: {v.reason} ({text}; a climb must be completed within the Move actions "
                            f"committed to it)" if "allowance" in v.reason else f"{m.id}: {v.reason}", rule or "GEO-24")
    if not v.climbs:
        raise IllegalAction("this path climbs nothing: use Move", "CORE-3.3.CLIMB")
    return a.actions


def do_climb(ctx: Ctx, a: Climb, m: ModelState, context: str) -> int:
    total, text = _climb_allowance(ctx, m, a, context)
    v = judge_path(ctx, m, a.path, total)
    refuse_illegal(m, v, None)
    place_along(ctx, m, v)
    climbed = sum(s.climbed for s in v.segments)
    ctx.emit("climb", ("CORE-3.3.CLIMB", "GEO-24", "GEO-8"), climbed=climbed, climb_rate=CLIMB_RATE,
             actions=a.actions, **_event_data(a.unit, m, v, total, text))
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


def check_jump(ctx: Ctx, a: Jump, m: ModelState, context: str) -> int:
    """CORE-3.3.JUMP/GEO-24/GAP-88: g <= 2" for 1 action; 2" < g <= `jump.max` only right after a Move (a free Will
    Skill Check then decides); never with the Slow scar; the landing is a legal position."""

    if len([x for x in ctx.state.unit_models(a.unit) if x.in_play]) != 1:
        raise IllegalAction("each model of a multi-model unit jumps on its own", "CORE-3.7.COMMON-ACTIONS")
    if engaged(ctx, m):
        raise IllegalAction(f"{m.id} is in base contact with an enemy and must Withdraw", "COMBAT-4.3.WITHDRAW")
    if slow_scars(m):
        raise IllegalAction(f"{m.id} has the Slow scar and may not jump", "GEO-24")
    here, there, gap, land = jump_gap(ctx, m, a.to)
    limit = float(ctx.settings["jump.max"])
    if gap > limit + EPS:
        raise IllegalAction(f"the gap is {gap:.2f}\"; no model jumps more than {limit:g}\" (`jump.max`)", "GAP-88")
    if gap > JUMP_FREE + EPS:
        act = ctx.state.activation
        if context != "own" or act is None or act.unit != a.unit or act.last_action not in ("Move", "Climb"):
            raise IllegalAction(f"a gap of {gap:.2f}\" (over 2\") is jumped only right after a Move action",
                                "CORE-3.3.JUMP")
        if m.profile.will is None:
            raise IllegalAction(f"{m.id} has Will NA and cannot take the Skill Check for a long jump", "GAP-22")
    for e in enemies_of(ctx, m.side):
        if vertically_overlap(here.z, m.profile.height, e.z, e.profile.height) and \
                segment_point_distance((m.x, m.y), land[:2], (e.x, e.y)) < m.radius + e.radius - EPS:
            raise IllegalAction(f"the jump passes through enemy {e.id}", "GEO-8")
    check_position(ctx, m, land[0], land[1], land[2], rule="GEO-7")
    return 1


def do_jump(ctx: Ctx, a: Jump, m: ModelState, context: str) -> int:

    here, there, gap, land = jump_gap(ctx, m, a.to)
    if gap > JUMP_FREE + EPS:

        tn = will_tn(m, leader_bonus(ctx, m))
        res = ctx.roll_pool(1, tn, what=f"Skill Check to jump a {gap:.2f}\" gap", who=m.id,
                            rules=("CORE-3.3.JUMP", "GAP-88"))
        record_crit(ctx, m.unit, res, context=context, rules=("CORE-3.3.JUMP",))
        if not res.successes:
            ctx.emit("jump_failed", ("CORE-3.3.JUMP", "GAP-88"), unit=a.unit, model=m.id, gap=gap,
                     note="stays at the near edge; the action is spent, no fall")
            return 1
    start = (m.x, m.y)
    m.x, m.y, m.z = land
    ctx.emit("jump", ("CORE-3.3.JUMP", "GEO-24"), unit=a.unit, model=m.id, gap=gap, checked=gap > JUMP_FREE + EPS,
             path=[list(start), [land[0], land[1]]], z=land[2], to_level=there.name)
    emit_triggers(ctx, m, [start, (land[0], land[1])])
    task_leave_check(ctx, m)
    return 1


# --- tasks ----------------------------------------------------------------------------------------------


CHECKS = {Move: check_move, Climb: check_climb, Jump: check_jump}
DOS = {Move: do_move, Climb: do_climb, Jump: do_jump}
