"""Complex Tasks (CORE-3.4): base contact, the free Skill Check, banked actions and completion."""
from __future__ import annotations

from typing import TYPE_CHECKING

import game.core.rules.factions as factions
from game.core.actions import ComplexTask, IllegalAction
from game.core.dice import Modifier, TargetNumber
from game.core.rules.context import record_crit
from game.core.rules.queries import in_task_contact, leader_bonus
from game.core.rules.stats import will_tn
from game.core.state import ModelState, TaskState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

def _task_actions_needed(m: ModelState, task: TaskState) -> int:
    """CORE-3.4.ACTIONS with the Tool Kit's -1 on mechanical tasks, never below 1 (GAP-90)."""
    n = task.actions
    if task.mechanical and "tool_kit" in m.items:
        n -= 1
    return max(1, n)


def check_task(ctx: Ctx, a: ComplexTask, m: ModelState, context: str) -> int:
    task = ctx.state.tasks.get(a.task)
    if task is None:
        raise IllegalAction(f"no task {a.task!r} in this scenario", "CORE-3.4.TASK")
    factions.check_location_action(ctx, m, "interact")  # FACTION-7.2.ENEMY / GAP-44: tasks of the mission area
    if task.done:
        raise IllegalAction(f"task {a.task} is already complete", "CORE-3.4.TASK")
    if not in_task_contact(ctx, m, task):
        raise IllegalAction(f"{m.id} is not in base contact with {task.name}", "CORE-3.4.CONTACT")
    if task.holder != m.id and m.id in task.tried and ctx.settings["task.retry"] == "once_per_activation":
        raise IllegalAction(f"{m.id} already tried the Skill Check for {a.task} this activation", "CORE-3.4.CHECK")
    return 1


def skill_check_tn(ctx: Ctx, m: ModelState, task: TaskState) -> TargetNumber:
    """CORE-3.4.CHECK: Will - Difficulty, Fuse Cutter +2 on explosives, Tool Kit +2 on mechanical tasks,
    Leader +1 (TV-14)."""
    mods = [Modifier("Difficulty", -task.difficulty, "CORE-3.4.DIFFICULTY")] if task.difficulty else []
    if task.explosive and m.profile.has("fuse_cutter"):
        mods.append(Modifier("Fuse Cutter", 2, "SKILL-6.1.FUSE-CUTTER"))
    if task.mechanical and "tool_kit" in m.items:
        mods.append(Modifier("Tool Kit", 2, "EQUIP-6.2.TOOL-KIT"))
    mods.extend(leader_bonus(ctx, m))
    return will_tn(m, tuple(mods))


def do_task(ctx: Ctx, a: ComplexTask, m: ModelState, context: str) -> int:

    task = ctx.state.tasks[a.task]
    if task.holder != m.id:
        task.tried.append(m.id)
        tn = skill_check_tn(ctx, m, task)
        res = ctx.roll_pool(1, tn, what=f"Skill Check for {task.name}", who=m.id,
                            rules=("CORE-3.4.CHECK",))
        record_crit(ctx, m.unit, res, context=context, rules=("CORE-3.4.CHECK",))
        if not res.successes:
            ctx.emit("task_check_failed", ("CORE-3.4.CHECK",), task=task.id, model=m.id,
                     note="the check is free; try again in a later activation")
            return 0
        if task.holder is not None and task.progress:
            ctx.emit("task_progress_lost", ("CORE-3.4.BANKING",), task=task.id, model=task.holder,
                     progress=task.progress, reason="another model started over")
        task.holder = m.id
        task.progress = 0
    task.progress += 1
    need = _task_actions_needed(m, task)
    ctx.emit("task_progress", ("CORE-3.4.ACTIONS", "CORE-3.4.BANKING"), task=task.id, model=m.id,
             progress=task.progress, needed=need)
    if task.progress >= need:
        task.done = True
        ctx.emit("task_complete", ("CORE-3.4.TASK",), task=task.id, model=m.id)
    return 1
