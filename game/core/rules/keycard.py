"""A location that needs a key (SCEN-10.3.CARD, GAP-101 (c), `scen.g3_keycard`): Game Three's Central Planning Office
opens to the worn official keycard of Game Two. With `scen.g3_keycard`="task_without_card" a crew none of whose models
in play carries the location's key item must first complete the location's key task, a Complex Task (CORE-3.4:
Difficulty 2, 2 actions at the CPO), before its Search; with "ignore" the key changes nothing.

The key task is played as an ordinary CORE-3.4 task (the `ComplexTask` action, its free Skill Check, banked actions)
placed at the location: a circle round the location point that holds the scenic item's footprint (its farthest
vertex from the point), or of radius `search.range` without a footprint, so a model standing where it could Search
(GAP-53) is in contact with it. Interpretation: once any crew completes it the way in stays open (a forced lock does
not close again), so the Search is open to every crew after it.

A location with a key task and no key item (a scenario's `[objective.task]`, e.g. a generated Repair or Sabotage
mission, game.scenarios.generate) plays the same task for every crew, whatever it carries and whatever
`scen.g3_keycard` says (that setting is about the keycard, and no item spares this task): the Search is refused
until some crew has completed it (MISSION-8.2.CLEARING "some locations may demand more actions or a Skill Check",
CORE-3.4)."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.core.actions import IllegalAction
from game.core.state import LocationState, ModelState, TaskState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

RULES = ("SCEN-10.3.CARD", "GAP-101")


def key_task_id(loc: LocationState) -> str:
    """The id of a location's key task in `GameState.tasks`."""
    return f"{loc.id}-key"


def key_in_force(ctx: Ctx) -> bool:
    """`scen.g3_keycard`: "task_without_card" plays the key task, "ignore" leaves every location open."""
    return ctx.settings["scen.g3_keycard"] == "task_without_card"


def task_in_force(ctx: Ctx, loc: LocationState) -> bool:
    """Does the location's key task stand between a crew and its Search? A task with a key item: while
    `scen.g3_keycard` plays it; a task with no item (`[objective.task]`): always."""
    return loc.key_task is not None and (loc.key_item is None or key_in_force(ctx))


def add_key_tasks(ctx: Ctx) -> None:
    """At setup (TURN-2): one CORE-3.4 task per location with a key task in force (see the module docstring): a
    key item's task unless `scen.g3_keycard`="ignore", a task without an item always."""
    st = ctx.state
    for loc in st.locations.values():
        if loc.key_task is None or not task_in_force(ctx, loc):
            continue
        if loc.footprint:
            radius = max(math.hypot(x - loc.x, y - loc.y) for x, y in loc.footprint)
        else:
            radius = float(ctx.settings["search.range"])
        kt = loc.key_task
        tid = key_task_id(loc)
        if tid in st.tasks:
            raise ValueError(f"scenario {st.scenario}: task id {tid!r} is taken; location {loc.id!r}'s key task "
                             "needs it")
        name = str(kt.get("name") or f"the way into {loc.name}")
        st.tasks[tid] = TaskState(tid, name, loc.x, loc.y, round(radius, 6), int(kt["difficulty"]),
                                  int(kt["actions"]))


def has_key(ctx: Ctx, side: str, item: str) -> bool:
    """Some model of the crew in play carries the key item in an Equipment Slot."""
    return any(m.in_play and m.side == side and item in m.items for m in ctx.state.models.values())


def check_key(ctx: Ctx, loc: LocationState, m: ModelState) -> None:
    """The Search hook (scouting.check_search): refuse the Search of a crew without the key item (or of any crew, for
    a task without an item) while the location's key task is not complete (SCEN-10.3.CARD, CORE-3.4)."""
    if not task_in_force(ctx, loc):
        return
    task = ctx.state.tasks.get(key_task_id(loc))
    if task is None or task.done or (loc.key_item is not None and has_key(ctx, m.side, loc.key_item)):
        return
    if loc.key_item is None:
        raise IllegalAction(f"{loc.id} is closed until a model completes {task.name} (Complex Task {task.id}, "
                            f"Difficulty {task.difficulty}, {task.actions} actions) before its Search", "CORE-3.4")
    raise IllegalAction(f"{m.side} carries no {loc.key_item}: a model must first complete {task.name} "
                        f"(Complex Task {task.id}, Difficulty {task.difficulty}, {task.actions} actions) before "
                        f"searching {loc.id}", RULES[0])
