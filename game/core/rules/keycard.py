"""A location that needs a key (SCEN-10.3.CARD, GAP-101 (c), `scen.g3_keycard`): Game Three's Central Planning Office
opens to the worn official keycard of Game Two. With `scen.g3_keycard`="task_without_card" a crew none of whose models
in play carries the location's key item must first complete the location's key task, a Complex Task (CORE-3.4:
Difficulty 2, 2 actions at the CPO), before its Search; with "ignore" the key changes nothing.

The key task is played as an ordinary CORE-3.4 task (the `ComplexTask` action, its free Skill Check, banked actions)
placed at the location: a circle round the location point that holds the scenic item's footprint (its farthest
vertex from the point), or of radius `search.range` without a footprint, so a model standing where it could Search
(GAP-53) is in contact with it. Interpretation: once any crew completes it the way in stays open (a forced lock does
not close again), so the Search is open to every crew after it."""
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


def add_key_tasks(ctx: Ctx) -> None:
    """At setup (TURN-2): one CORE-3.4 task per location with a key item and a key task (see the module docstring);
    none when `scen.g3_keycard`="ignore"."""
    if not key_in_force(ctx):
        return
    st = ctx.state
    for loc in st.locations.values():
        if loc.key_item is None or loc.key_task is None:
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
    """The Search hook (scouting.check_search): refuse the Search of a crew without the key item while the location's
    key task is not complete (SCEN-10.3.CARD)."""
    if loc.key_item is None or loc.key_task is None or not key_in_force(ctx):
        return
    task = ctx.state.tasks.get(key_task_id(loc))
    if task is None or task.done or has_key(ctx, m.side, loc.key_item):
        return
    raise IllegalAction(f"{m.side} carries no {loc.key_item}: a model must first complete {task.name} "
                        f"(Complex Task {task.id}, Difficulty {task.difficulty}, {task.actions} actions) before "
                        f"searching {loc.id}", RULES[0])
