"""What every movement shares: the allowance with Hustle, the path verdict, placing a model along it, Reaction
Radius triggers and task contact (GEO-8, GEO-19, SKILL-6.1.HUSTLE, CORE-3.4.BANKING)."""
from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from game.core.actions import Action, Climb, IllegalAction, Move, Withdraw
from game.core.battlefield import Base
from game.core.geometry.movement.cost import PathFact, path_cost
from game.core.geometry.movement.positions import position_fact
from game.core.geometry.zone import leash_ok, path_triggers
from game.core.rules.locations import player_model, trigger_along
from game.core.rules.queries import in_task_contact
from game.core.rules.stats import Allowance, move_allowance
from game.core.settings import Settings
from game.core.state import ActivationState, ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx


LOCATION_KINDS = ("hotspot", "objective")  # anchors that are locations with a Reaction Radius (MISSION-8.2.TRIGGER)


def hustle(ctx: Ctx, m: ModelState, context: str, offset: int = 0) -> bool:
    """SKILL-6.1.HUSTLE for a Move taken in this context (only the model's own activation counts)."""
    return context == "own" and hustle_due(ctx.state.activation, m, ctx.settings, offset)


def hustle_due(act: ActivationState | None, m: ModelState, settings: Settings, offset: int = 0) -> bool:
    """SKILL-6.1.HUSTLE (`hustle.pairs`=non_overlapping): +2" on the second Move of each pair of the unit's
    activation; `offset` counts Moves already committed in this action (a Climb of several actions)."""
    if act is None or act.unit != m.unit or not m.profile.has("hustle"):
        return False
    run = act.move_run + offset
    if settings["hustle.pairs"] == "non_overlapping":
        return (run + 1) % 2 == 0
    return run >= 1


def counts_for_hustle(action: Action, settings: Settings) -> bool:
    """SKILL-6.1.HUSTLE: whether an action counts as a Move for Hustle's pairing. Move and Climb do; a Withdraw
    costs a Move action (COMBAT-4.3.WITHDRAW) and counts when `hustle.withdraw_counts` is true."""
    if isinstance(action, (Move, Climb)):
        return True
    return isinstance(action, Withdraw) and bool(settings["hustle.withdraw_counts"])


def withdraw_hustle(ctx: Ctx, m: ModelState, context: str) -> bool:
    """SKILL-6.1.HUSTLE (`hustle.withdraw_counts`=true): a Withdraw that is the second Move of a pair gets +2";
    false: a Withdraw never gets the bonus (the engine's reading before the amendment)."""
    return bool(ctx.settings["hustle.withdraw_counts"]) and hustle(ctx, m, context)


def slow_scars(m: ModelState) -> int:
    """Slow Battle Scars: -1" each, and no jumping or climbing except ladders and stairs (POST-8.5.SCARS-TABLE)."""
    return sum(1 for s in m.scars if s.lower() == "slow")


def allowance_of(ctx: Ctx, m: ModelState, context: str, offset: int = 0, *, hustled: bool | None = None) -> Allowance:
    """GEO-8 allowance of one Move action (TV-06, TV-32, GAP-95); `hustled` overrides the Hustle decision (a
    Withdraw's move decides it when the Withdraw is taken, `withdraw_hustle`)."""
    bonus = hustle(ctx, m, context, offset) if hustled is None else hustled
    return move_allowance(m, hustle_bonus=bonus, slow_scars=slow_scars(m),
                          rainstorm=ctx.state.environment == "rainstorm", settings=ctx.settings)


def others_of(ctx: Ctx, m: ModelState, exclude: Collection[str] = ()) -> list[Base]:
    """Every other base in play (enemies block a path, friends may be passed but not ended on; GEO-8).
    `exclude`: models judged apart (the unit-mates of a unit's move, whose end positions are compared after)."""
    return [o.base() for o in ctx.state.models.values() if o.in_play and o.id != m.id and o.id not in exclude]


def check_position(ctx: Ctx, m: ModelState, x: float, y: float, z: float, *, rule: str,
                   exclude: Collection[str] = ()) -> None:
    """GEO-6/GEO-7/GEO-26: on the table, overlapping no other base and no impassable terrain at its level."""
    fact = position_fact(ctx.battlefield, x, y, z, radius=m.radius, height=m.profile.height,
                         others=others_of(ctx, m, exclude), mover=m.id, settings=ctx.settings)
    if not fact.legal:
        raise IllegalAction(f"{m.id}: {fact.reason}", fact.rule if fact.rule != "GEO-7" else rule)


def _start(m: ModelState) -> tuple[float, float, float]:
    return (m.x, m.y, m.z)


def judge_path(ctx: Ctx, m: ModelState, path: Sequence[Sequence[float]], allowance: float, *,
               exclude: Collection[str] = ()) -> PathFact:
    """The GEO-8 verdict on a path from the model's position; an action's check and its resolution share it
    within one `apply` (nothing moves in between). `exclude`: friends left out of the verdict (a unit's own
    models, which never block a path and whose end positions the unit's move compares itself, GEO-21)."""
    key = ("path", m.id, m.x, m.y, m.z, tuple(tuple(p) for p in path), allowance, tuple(sorted(exclude)))
    hit = ctx.memo.get(key)
    if hit is None:
        hit = path_cost(ctx.battlefield, _start(m), path, radius=m.radius, height=m.profile.height,
                        others=others_of(ctx, m, exclude), side=m.side, allowance=allowance,
                        can_climb=slow_scars(m) == 0, settings=ctx.settings)
        ctx.memo[key] = hit
    return hit


def refuse_illegal(m: ModelState, v: PathFact, allowance: Allowance | None) -> None:
    if v.legal:
        return
    extra = f" ({allowance.text()})" if allowance is not None and "allowance" in v.reason else ""
    raise IllegalAction(f"{m.id}: {v.reason}{extra}", v.rule or "GEO-8")


def refuse_leash(ctx: Ctx, m: ModelState, points: Sequence[Sequence[float]]) -> None:
    """AI-8.3.RULE1 / GEO-20 (`leash.measure`=centre): a hostile model's centre stays within its force's leash
    (12.0") of the location point pL along its whole path and at the end; a force without a location has none."""
    force = ctx.state.forces.get(m.side)
    if force is None or force.centre is None or force.leash is None:
        return
    fact = leash_ok([(m.x, m.y)] + [(float(p[0]), float(p[1])) for p in points], (force.centre[0], force.centre[1]),
                    limit=force.leash, settings=ctx.settings)
    if not fact.ok:
        raise IllegalAction(f"{m.id} would go {fact.max_distance:.2f}\" from its location {force.location} at "
                            f"({fact.worst_point[0]:.2f},{fact.worst_point[1]:.2f}); a hostile never goes more than "
                            f"{force.leash:g}\" from it", "AI-8.3.RULE1")


def emit_triggers(ctx: Ctx, m: ModelState, path: list[tuple[float, float]]) -> None:
    """GEO-19: a player model's centre path within 3" + r of a location point triggers it (hostile paths are
    ignored, HOSTILE-8.3.NO-TRIGGER). A game with locations (`GameState.locations`) triggers them through
    `game.core.rules.locations.trigger_along`: once each (`trigger.once`), in the order entered (TURN-8), one
    `location_triggered` event each. A game without reports the map's hotspot/objective anchors the path enters
    as `reaction_radius` events (a geometric fact, nothing recorded), via `game.core.geometry.zone.path_triggers`."""
    if ctx.state.locations:
        trigger_along(ctx, m, path)
        return
    if not player_model(ctx, m):
        return
    points = {a.name: a.point for a in ctx.battlefield.anchors if a.kind in LOCATION_KINDS}
    if not points:
        return

    for fact in path_triggers(path, m.radius, points, settings=ctx.settings):
        if fact.triggered:
            ctx.emit("reaction_radius", ("GEO-19", "MISSION-8.2.TRIGGER"), model=m.id, location=fact.location,
                     distance=round(fact.min_distance, 4), limit=fact.limit, segment=fact.segment)


def place_along(ctx: Ctx, m: ModelState, v: PathFact) -> None:
    m.x, m.y = v.points[-1][0], v.points[-1][1]
    m.z = v.end_z
    emit_triggers(ctx, m, [(p[0], p[1]) for p in v.points])
    task_leave_check(ctx, m)


def task_leave_check(ctx: Ctx, m: ModelState) -> None:
    """CORE-3.4.BANKING: a holder that leaves base contact with its task loses the banked actions."""

    if "leaves_contact" not in ctx.settings["task.reset_on"]:
        return
    for task in ctx.state.tasks.values():
        if task.holder == m.id and not task.done and not in_task_contact(ctx, m, task):
            ctx.emit("task_progress_lost", ("CORE-3.4.BANKING",), task=task.id, model=m.id,
                     progress=task.progress, reason="left base contact")
            task.holder = None
            task.progress = 0
