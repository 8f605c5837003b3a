"""The actions of CORE-3.3 that need no attack: check (pure) then do (writes), per action type."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.core.actions import (
    Action,
    Aim,
    Alert,
    Climb,
    ComplexTask,
    Deploy,
    IllegalAction,
    Move,
    Order,
    Rally,
    Recover,
    Reload,
    UseItem,
)
from game.core.dice import Modifier
from game.core.geometry.distance import EPS, base_distance, bases_overlap, on_table, polyline_length, segment_point_distance
from game.core.geometry.polygon import circle_inside_polygon
from game.core.state import ModelState
from game.core.rules.stats import move_allowance, will_tn
from game.core.rules.wounds import add_pins, dress_wound, medkits, settle_wounds

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

ORDER_RANGE = 12.0  # GEO-22: Order recipient within 12"
REACTION_RADIUS = 3.0  # MISSION-8.2.TRIGGER / GEO-15: a location's Reaction Radius


# --- helpers ------------------------------------------------------------------------------------


def sole_model(ctx: "Ctx", unit_id: str) -> ModelState:
    models = ctx.state.unit_models(unit_id)
    live = [m for m in models if m.in_play]
    if not live:
        raise IllegalAction(f"{unit_id} has no model in play", "COMBAT-4.4.OOA")
    return live[0]


def can_see(ctx: "Ctx", a: ModelState, b: ModelState) -> bool:
    """GEO-10 mutual LOS between two models. On a table with no terrain and no smoke nothing can block
    a ray (models never block, `los.models_block`=false), so the answer is known without tracing."""
    bf = ctx.battlefield
    dark = ctx.state.environment == "sudden_darkness" and "nods" not in a.items
    limit = float(ctx.settings["env.darkness_los"]) if dark else None  # GAP-59, NODs ignore it (GAP-109)
    if not bf.pieces and not ctx.state.smoke and not ctx.settings["los.models_block"]:
        return limit is None or math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius <= limit + EPS
    from game.core.geometry.sight.los import line_of_sight

    return line_of_sight(bf, ctx.state.scene(), a.id, b.id, settings=ctx.settings, max_distance=limit).visible


def enemies_of(ctx: "Ctx", side: str) -> list[ModelState]:
    return [m for m in ctx.state.models.values() if m.in_play and m.side != side]


def engaged(ctx: "Ctx", m: ModelState) -> bool:
    """GAP-78: a model in base contact with an enemy is Engaged."""
    tol = ctx.settings["geo.contact_tol"] + EPS
    return any(math.hypot(m.x - e.x, m.y - e.y) - m.radius - e.radius <= tol for e in enemies_of(ctx, m.side))


def leader_bonus(ctx: "Ctx", m: ModelState) -> tuple[Modifier, ...]:
    """SKILL-6.1.LEADER (`leader.bonus_applies`, `leader.self_bonus`): +1 to Will-based rolls of allies
    in the Leader's LOS, any range."""
    if ctx.settings["leader.bonus_applies"] != "all_will_based_rolls":
        return ()
    for other in ctx.state.models.values():
        if not other.in_play or other.side != m.side or not other.profile.leader:
            continue
        if other.id == m.id and not ctx.settings["leader.self_bonus"]:
            continue
        if other.id == m.id or can_see(ctx, other, m):
            return (Modifier("Leader in LOS", 1, "SKILL-6.1.LEADER"),)
    return ()


# --- dispatch -----------------------------------------------------------------------------------


def check(ctx: "Ctx", action: Action, *, actor: str, context: str) -> int:
    """Raise IllegalAction if `actor` may not take `action` now; return its cost in actions.

    context: "own" (its activation), "alert" (a held action, TURN-7), "ordered" (SKILL-6.1.LEADER-ORDER).
    """
    st = ctx.state
    unit = st.units[actor]
    m = sole_model(ctx, actor)
    self_kit = isinstance(action, UseItem) and action.item == "medkit" and action.target in (None, m.id)
    if unit.pins > 0 and not isinstance(action, Rally):
        allowed = ctx.settings["pin.allowed"]
        if not (self_kit and "self_medkit" in allowed):
            raise IllegalAction(f"{actor} is Pinned ({unit.pins}) and may only Rally", "COMBAT-4.4.PIN-LOCK")
    if m.prone and not isinstance(action, Recover):
        raise IllegalAction(f"{actor} is prone and may only Recover", "GAP-89")
    _check_engaged(ctx, action, m)
    if type(action).__name__ in ("Move", "Climb", "Jump") and _crew_served(ctx, m):
        raise IllegalAction(f"{m.id} mans a crew-served weapon, a static emplacement", "ARMORY-5.1.SR-CREW")
    fn = _CHECKS.get(type(action))
    if fn is None:
        raise IllegalAction(f"{type(action).__name__} is not an action a unit can take now", "CORE-3.3.GENERAL")
    return fn(ctx, action, m, context)


# GAP-78 names of the actions `melee.engaged_actions` may list; Move, Climb and Jump refuse contact themselves
# (COMBAT-4.3.WITHDRAW) and Recover is the one thing a prone model may do (GAP-89).
_ENGAGED_NAMES = {"Aim": "aim", "Alert": "alert", "ComplexTask": "complex_task", "FlameAttack": "flame_attack",
                  "MeleeAttack": "melee_attack", "Order": "order", "RangedAttack": "ranged_attack",
                  "Rally": "rally", "Reload": "reload", "TemplateAttack": "template_attack",
                  "ThrowGrenade": "throw_grenade", "Withdraw": "withdraw"}


def engaged_action_name(action: Action, m: ModelState) -> str | None:
    """The GAP-78 name of an action for the Engaged whitelist, None when the whitelist does not judge it."""
    if isinstance(action, UseItem):
        if action.item == "medkit":
            return "self_medkit" if action.target in (None, m.id) else "medkit_ally"
        return action.item
    return _ENGAGED_NAMES.get(type(action).__name__)


def _check_engaged(ctx: "Ctx", action: Action, m: ModelState) -> None:
    """TURN-6 step 3 / GAP-78 (`melee.engaged_actions`): a model in base contact with an enemy may only melee
    attack, Aim, Withdraw, Rally, use a Med-Kit on itself or an ally in contact, or take Electric Juice."""
    name = engaged_action_name(action, m)
    if name is None or name in ctx.settings["melee.engaged_actions"]:
        return
    if engaged(ctx, m):
        raise IllegalAction(f"{m.id} is Engaged in melee and may not {name.replace('_', ' ')}; allowed: "
                            f"{', '.join(ctx.settings['melee.engaged_actions'])}", "GAP-78")


def _crew_served(ctx: "Ctx", m: ModelState) -> bool:
    """ARMORY-5.1.SR-CREW / GAP-94: a crew-served weapon never moves, nor does the model manning it."""
    from game.core.catalog import load_catalog
    from game.core.catalog.profiles import Special

    cat = load_catalog(ctx.settings)
    return any(Special.CREW_SERVED in cat.weapon(w).specials for w in m.profile.weapons)


def do(ctx: "Ctx", action: Action, *, actor: str, context: str) -> int:
    """Resolve a checked action; return the actions actually spent."""
    m = sole_model(ctx, actor)
    act = ctx.state.activation
    spent = _DOS[type(action)](ctx, action, m, context)
    if context == "own" and act is not None and act.unit == actor:
        if not isinstance(action, Aim) and spent and ctx.settings["aim.expires"] == "next_action":
            act.aim = False  # CORE-3.3.AIM: any other action loses the Aim (free acts are not actions)
        if isinstance(action, (Move, Climb)):
            act.move_run += spent  # a Climb commits `actions` Moves (GEO-24, SKILL-6.1.HUSTLE)
        elif spent:
            act.move_run = 0
        act.last_action = type(action).__name__
    return spent


# --- Deploy (TURN-4) ----------------------------------------------------------------------------


def check_deploy(ctx: "Ctx", a: Deploy) -> None:
    st = ctx.state
    m = st.models.get(a.model)
    if m is None:
        raise IllegalAction(f"no model {a.model!r}", "TURN-4")
    if m.side != st.deciding:
        raise IllegalAction(f"{a.model} belongs to {m.side}; {st.deciding} is deploying", "TURN-4")
    if m.deployed:
        raise IllegalAction(f"{a.model} is already deployed", "TURN-4")
    zone_name = st.side(m.side).zone
    if zone_name is not None:
        zone = ctx.battlefield.zone(zone_name)
        if not circle_inside_polygon((a.x, a.y), m.radius, zone.footprint):
            raise IllegalAction(f"{a.model} at ({a.x:g},{a.y:g}) is not wholly inside zone {zone_name}", "TURN-4")
    from game.core.rules.moves import LOCATION_KINDS, check_position

    for loc in ctx.battlefield.anchors:
        if loc.kind in LOCATION_KINDS:
            gap = math.hypot(a.x - loc.point[0], a.y - loc.point[1]) - m.radius
            if gap <= REACTION_RADIUS + EPS:
                raise IllegalAction(f"{a.model} at ({a.x:g},{a.y:g}) would start inside the Reaction Radius of "
                                    f"{loc.name} ({gap:.2f} in from it)", "TURN-4")
    check_position(ctx, m, a.x, a.y, a.z, rule="GEO-7")


def do_deploy(ctx: "Ctx", a: Deploy) -> None:
    m = ctx.state.models[a.model]
    m.x, m.y, m.z = float(a.x), float(a.y), float(a.z)
    m.deployed = True
    ctx.emit("deploy", ("TURN-4",), model=a.model, x=m.x, y=m.y, z=m.z)


# --- Move, Climb, Jump (CORE-3.3.MOVE/CLIMB/JUMP, GEO-8, GEO-24): game/core/rules/moves.py -----------------


# --- simple actions -----------------------------------------------------------------------------


def _check_aim(ctx: "Ctx", a: Aim, m: ModelState, context: str) -> int:
    return 1


def _do_aim(ctx: "Ctx", a: Aim, m: ModelState, context: str) -> int:
    act = ctx.state.activation
    if act is not None and act.unit == a.unit:
        act.aim = True
    ctx.emit("aim", ("CORE-3.3.AIM",), unit=a.unit, note="lost unless an attack follows at once")
    return 1


def _check_alert(ctx: "Ctx", a: Alert, m: ModelState, context: str) -> int:
    if context == "alert":
        raise IllegalAction("a held Alert action cannot be another Alert", "GAP-17")
    if ctx.state.units[a.unit].alert:
        raise IllegalAction(f"{a.unit} already holds an Alert action", "CORE-3.3.ALERT")
    return int(ctx.settings["alert.cost"])


def _do_alert(ctx: "Ctx", a: Alert, m: ModelState, context: str) -> int:
    ctx.state.units[a.unit].alert = True
    ctx.emit("alert", ("CORE-3.3.ALERT", "GAP-17"), unit=a.unit)
    return int(ctx.settings["alert.cost"])


def _check_rally(ctx: "Ctx", a: Rally, m: ModelState, context: str) -> int:
    if ctx.state.units[a.unit].pins <= 0:
        raise IllegalAction(f"{a.unit} has no Pinned counter to remove", "CORE-3.3.RALLY")
    return 1


def _do_rally(ctx: "Ctx", a: Rally, m: ModelState, context: str) -> int:
    unit = ctx.state.units[a.unit]
    unit.pins -= 1
    if unit.pins == 0:
        for x in ctx.state.unit_models(a.unit):
            x.kicked = False  # GAP-80: the next Pins give a fresh first-round +2
    ctx.emit("rally", ("CORE-3.3.RALLY", "COMBAT-4.4.PIN-RALLY"), unit=a.unit, pins=unit.pins)
    return 1


def _check_recover(ctx: "Ctx", a: Recover, m: ModelState, context: str) -> int:
    if not m.prone:
        raise IllegalAction(f"{m.id} is not prone", "CORE-3.3.RECOVER")
    return 1


def _do_recover(ctx: "Ctx", a: Recover, m: ModelState, context: str) -> int:
    m.prone = False
    ctx.emit("recover", ("CORE-3.3.RECOVER", "GAP-89"), unit=a.unit)
    return 1


def _check_reload(ctx: "Ctx", a: Reload, m: ModelState, context: str) -> int:
    if a.weapon not in m.profile.weapons:
        raise IllegalAction(f"{m.id} carries no {a.weapon}", "CORE-3.3.RELOAD")
    if a.weapon not in m.unloaded:
        raise IllegalAction(f"{m.id}'s {a.weapon} does not need reloading", "CORE-3.3.RELOAD")
    return 1


def _do_reload(ctx: "Ctx", a: Reload, m: ModelState, context: str) -> int:
    m.unloaded.remove(a.weapon)
    ctx.emit("reload", ("CORE-3.3.RELOAD", "ARMORY-5.1.SR-RELOAD"), unit=a.unit, weapon=a.weapon)
    return 1


# --- Use Item: Med-Kit and Electric Juice -------------------------------------------------------


def _check_use_item(ctx: "Ctx", a: UseItem, m: ModelState, context: str) -> int:
    st = ctx.state
    if a.item == "electric_juice":
        act = st.activation
        if context != "own" or act is None or act.unit != a.unit or act.stage != "normal":
            raise IllegalAction("Electric Juice is used only in the model's own activation", "GAP-31")
        if act.ej_used and ctx.settings["ej.per_activation"] <= 1:
            raise IllegalAction("at most one dose of Electric Juice per activation", "GAP-31")
        if "electric_juice" not in m.items:
            raise IllegalAction(f"{m.id} carries no Electric Juice", "EQUIP-6.2.ELECTRIC-JUICE")
        return int(ctx.settings["ej.use_cost"])
    if a.item != "medkit":
        raise IllegalAction(f"{a.item!r} cannot be used as an action", "CORE-3.3.INTERACT")
    if medkits(m) == 0:
        raise IllegalAction(f"{m.id} carries no Med-Kit", "EQUIP-6.2.MEDKIT")
    if a.target in (None, m.id):
        if not (m.profile.wounds > 1 and m.wounds_taken > 0):
            raise IllegalAction(f"{m.id} has no Wound it can dress now", "COMBAT-4.4.MEDKIT-DELAY")
        return 0
    patient = st.models.get(a.target)
    if patient is None or patient.side != m.side:
        raise IllegalAction(f"{a.target!r} is not a model of {m.side}", "COMBAT-4.4.MEDKIT-ALLY")
    if patient.dead or not patient.deployed:
        raise IllegalAction(f"{a.target} is beyond help", "GAP-32")
    if patient.wounds_taken == 0 and not patient.ooa:
        raise IllegalAction(f"{a.target} has no Wound", "COMBAT-4.4.MEDKIT-ALLY")
    tol = ctx.settings["geo.contact_tol"]
    if base_distance(m.base(), patient.base()).distance > tol + EPS:
        raise IllegalAction(f"{m.id} is not in base contact with {a.target}", "COMBAT-4.4.MEDKIT-ALLY")
    return int(ctx.settings["medkit.ally_cost"])


def _do_use_item(ctx: "Ctx", a: UseItem, m: ModelState, context: str) -> int:
    st = ctx.state
    if a.item == "electric_juice":
        m.items.remove("electric_juice")
        act = st.activation
        assert act is not None
        act.budget += 2
        act.ej_used = True
        st.units[a.unit].ej_this_turn = True
        ctx.emit("electric_juice", ("EQUIP-6.2.ELECTRIC-JUICE", "GAP-31"), unit=a.unit, budget=act.budget,
                 note="only 1 action next turn")
        return int(ctx.settings["ej.use_cost"])
    target = a.target or m.id
    patient = st.models[target]
    if patient.ooa and not ctx.settings["medkit.ooa_revive_returns"]:
        patient.wounds_taken = 0
        m.items.remove("medkit")
        ctx.emit("medkit", ("COMBAT-4.4.MEDKIT-OOA", "GAP-32"), patient=target, applier=m.id, revived=False,
                 note="healed but stays out of this mission (`medkit.ooa_revive_returns`=false)")
        return int(ctx.settings["medkit.ally_cost"])
    dress_wound(ctx, target, m.id)
    settle_wounds(ctx, target)
    return 0 if target == m.id else int(ctx.settings["medkit.ally_cost"])


# --- Complex task (CORE-3.4) --------------------------------------------------------------------


def _in_task_contact(ctx: "Ctx", m: ModelState, task) -> bool:
    d = max(0.0, math.hypot(m.x - task.x, m.y - task.y) - m.radius - task.radius)
    return d <= ctx.settings["geo.contact_tol"] + EPS


def _task_actions_needed(m: ModelState, task) -> int:
    """CORE-3.4.ACTIONS with the Tool Kit's -1 on mechanical tasks, never below 1 (GAP-90)."""
    n = task.actions
    if task.mechanical and "tool_kit" in m.items:
        n -= 1
    return max(1, n)


def _check_task(ctx: "Ctx", a: ComplexTask, m: ModelState, context: str) -> int:
    task = ctx.state.tasks.get(a.task)
    if task is None:
        raise IllegalAction(f"no task {a.task!r} in this scenario", "CORE-3.4.TASK")
    if task.done:
        raise IllegalAction(f"task {a.task} is already complete", "CORE-3.4.TASK")
    if not _in_task_contact(ctx, m, task):
        raise IllegalAction(f"{m.id} is not in base contact with {task.name}", "CORE-3.4.CONTACT")
    if task.holder != m.id and m.id in task.tried and ctx.settings["task.retry"] == "once_per_activation":
        raise IllegalAction(f"{m.id} already tried the Skill Check for {a.task} this activation", "CORE-3.4.CHECK")
    return 1


def skill_check_tn(ctx: "Ctx", m: ModelState, task):
    """CORE-3.4.CHECK: Will - Difficulty, Fuse Cutter +2 on explosives, Tool Kit +2 on mechanical tasks,
    Leader +1 (TV-14)."""
    mods = [Modifier("Difficulty", -task.difficulty, "CORE-3.4.DIFFICULTY")] if task.difficulty else []
    if task.explosive and m.profile.has("fuse_cutter"):
        mods.append(Modifier("Fuse Cutter", 2, "SKILL-6.1.FUSE-CUTTER"))
    if task.mechanical and "tool_kit" in m.items:
        mods.append(Modifier("Tool Kit", 2, "EQUIP-6.2.TOOL-KIT"))
    mods.extend(leader_bonus(ctx, m))
    return will_tn(m, tuple(mods))


def _do_task(ctx: "Ctx", a: ComplexTask, m: ModelState, context: str) -> int:
    from game.core.rules.context import record_crit

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


# --- Leader Order (SKILL-6.1.LEADER-ORDER, GAP-37) ----------------------------------------------


def _check_order(ctx: "Ctx", a: Order, m: ModelState, context: str) -> int:
    st = ctx.state
    if context != "own":
        raise IllegalAction("Orders are given in the Leader's own activation", "SKILL-6.1.LEADER-ORDER")
    if not m.profile.leader:
        raise IllegalAction(f"{m.id} is not a Leader", "SKILL-6.1.LEADER-ORDER")
    rec_unit = st.units.get(a.recipient)
    if rec_unit is None or rec_unit.side != m.side or a.recipient == a.unit:
        raise IllegalAction(f"{a.recipient!r} is not another model of {m.side}", "GAP-37")
    if getattr(a.action, "unit", None) != a.recipient or isinstance(a.action, (Order, Deploy)):
        raise IllegalAction("the ordered action must be an action of the recipient", "GAP-37")
    if isinstance(a.action, UseItem) and a.action.item == "electric_juice":
        raise IllegalAction("Electric Juice cannot be taken as an ordered action", "GAP-31")
    r = sole_model(ctx, a.recipient)
    if base_distance(m.base(), r.base()).distance > ORDER_RANGE + EPS:
        raise IllegalAction(f"{a.recipient} is more than 12\" from the Leader", "GEO-22")
    if not can_see(ctx, m, r):
        raise IllegalAction(f"the Leader has no line of sight to {a.recipient}", "GEO-22")
    if rec_unit.pins > 0 and not isinstance(a.action, Rally):
        raise IllegalAction(f"{a.recipient} is Pinned and may only be ordered to Rally", "GAP-37")
    return check(ctx, a.action, actor=a.recipient, context="ordered")  # 1 Leader action per action (GAP-37)


def _do_order(ctx: "Ctx", a: Order, m: ModelState, context: str) -> int:
    cost = check(ctx, a.action, actor=a.recipient, context="ordered")  # the Leader pays what the action costs
    ctx.emit("order", ("SKILL-6.1.LEADER-ORDER", "GAP-37"), leader=a.unit, recipient=a.recipient,
             action=type(a.action).__name__, leader_actions=cost)
    do(ctx, a.action, actor=a.recipient, context="ordered")
    return cost


def _attack_tables() -> tuple[dict, dict]:
    """Attacks live in combat.py and blasts.py (COMBAT-4.*, ARMORY-5.*)."""
    from game.core.rules import blasts, fire as combat, melee
    from game.core.actions import FlameAttack, MeleeAttack, RangedAttack, TemplateAttack, ThrowGrenade, Withdraw

    checks = {RangedAttack: combat.check_ranged, MeleeAttack: melee.check_melee, Withdraw: melee.check_withdraw,
              ThrowGrenade: blasts.check_throw, TemplateAttack: blasts.check_template_attack,
              FlameAttack: blasts.check_flame}
    dos = {RangedAttack: combat.do_ranged, MeleeAttack: melee.do_melee, Withdraw: melee.do_withdraw,
           ThrowGrenade: blasts.do_throw, TemplateAttack: blasts.do_template_attack, FlameAttack: blasts.do_flame}
    return checks, dos


_CHECKS = {
    Aim: _check_aim,
    Alert: _check_alert,
    Rally: _check_rally,
    Recover: _check_recover,
    Reload: _check_reload,
    UseItem: _check_use_item,
    ComplexTask: _check_task,
    Order: _check_order,
}

_DOS = {
    Aim: _do_aim,
    Alert: _do_alert,
    Rally: _do_rally,
    Recover: _do_recover,
    Reload: _do_reload,
    UseItem: _do_use_item,
    ComplexTask: _do_task,
    Order: _do_order,
}

__all__ = ["check", "do", "check_deploy", "do_deploy", "add_pins", "skill_check_tn"]

_ATTACK_CHECKS, _ATTACK_DOS = _attack_tables()
_CHECKS.update(_ATTACK_CHECKS)
_DOS.update(_ATTACK_DOS)


def _move_tables() -> tuple[dict, dict]:
    """Move, Climb and Jump live in move_actions.py (CORE-3.3.MOVE/CLIMB/JUMP)."""
    from game.core.rules import moves as move_actions

    return move_actions.CHECKS, move_actions.DOS


_MOVE_CHECKS, _MOVE_DOS = _move_tables()
_CHECKS.update(_MOVE_CHECKS)
_DOS.update(_MOVE_DOS)
