"""The simple actions of CORE-3.3: Aim, Alert, Rally, Recover and Reload (check, then do)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.actions import Aim, Alert, IllegalAction, Rally, Recover, Reload
from game.core.state import ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx


def check_aim(ctx: Ctx, a: Aim, m: ModelState, context: str) -> int:
    return 1


def do_aim(ctx: Ctx, a: Aim, m: ModelState, context: str) -> int:
    """CORE-3.3.AIM: pending for the model's next action; an ordered Aim for the recipient's next ordered action
    (GAP-37: a transferred pair, Aim then attack). A held Alert Aim pays off on nothing (GAP-17)."""
    act = ctx.state.activation
    if act is not None and context == "own" and act.unit == a.unit:
        act.aim = True
    elif act is not None and context == "ordered":
        act.ordered_aim = a.unit
    ctx.emit("aim", ("CORE-3.3.AIM",), unit=a.unit, note="lost unless an attack follows at once")
    return 1


def check_alert(ctx: Ctx, a: Alert, m: ModelState, context: str) -> int:
    if context == "alert":
        raise IllegalAction("a held Alert action cannot be another Alert", "GAP-17")
    if ctx.state.units[a.unit].alert:
        raise IllegalAction(f"{a.unit} already holds an Alert action", "CORE-3.3.ALERT")
    return int(ctx.settings["alert.cost"])


def do_alert(ctx: Ctx, a: Alert, m: ModelState, context: str) -> int:
    ctx.state.units[a.unit].alert = True
    ctx.emit("alert", ("CORE-3.3.ALERT", "GAP-17"), unit=a.unit)
    return int(ctx.settings["alert.cost"])


def check_rally(ctx: Ctx, a: Rally, m: ModelState, context: str) -> int:
    if ctx.state.units[a.unit].pins <= 0:
        raise IllegalAction(f"{a.unit} has no Pinned counter to remove", "CORE-3.3.RALLY")
    return 1


def do_rally(ctx: Ctx, a: Rally, m: ModelState, context: str) -> int:
    unit = ctx.state.units[a.unit]
    unit.pins -= 1
    if unit.pins == 0:
        for x in ctx.state.unit_models(a.unit):
            x.kicked = False  # GAP-80: the next Pins give a fresh first-round +2
    ctx.emit("rally", ("CORE-3.3.RALLY", "COMBAT-4.4.PIN-RALLY"), unit=a.unit, pins=unit.pins)
    return 1


def check_recover(ctx: Ctx, a: Recover, m: ModelState, context: str) -> int:
    if not m.prone:
        raise IllegalAction(f"{m.id} is not prone", "CORE-3.3.RECOVER")
    return 1


def do_recover(ctx: Ctx, a: Recover, m: ModelState, context: str) -> int:
    m.prone = False
    ctx.emit("recover", ("CORE-3.3.RECOVER", "GAP-89"), unit=a.unit)
    return 1


def check_reload(ctx: Ctx, a: Reload, m: ModelState, context: str) -> int:
    if a.weapon not in m.profile.weapons:
        raise IllegalAction(f"{m.id} carries no {a.weapon}", "CORE-3.3.RELOAD")
    if a.weapon not in m.unloaded:
        raise IllegalAction(f"{m.id}'s {a.weapon} does not need reloading", "CORE-3.3.RELOAD")
    return 1


def do_reload(ctx: Ctx, a: Reload, m: ModelState, context: str) -> int:
    m.unloaded.remove(a.weapon)
    ctx.emit("reload", ("CORE-3.3.RELOAD", "ARMORY-5.1.SR-RELOAD"), unit=a.unit, weapon=a.weapon)
    return 1
