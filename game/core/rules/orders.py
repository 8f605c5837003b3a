"""Leader Orders (SKILL-6.1.LEADER-ORDER, GAP-37): the ordered action re-enters dispatch through the context."""
from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.actions import Deploy, IllegalAction, Order, Rally, UseItem
from game.core.geometry.distance import base_distance
from game.core.rules.queries import can_see, sole_model
from game.core.state import ModelState
from game.core.tolerance import EPS

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

ORDER_RANGE = 12.0  # GEO-22: Order recipient within 12"


def nested_context(context: str) -> str:
    """The context of the recipient's action: "ordered" in the Leader's activation; "alert" when the Order is the
    Leader's held Alert action (CORE-3.3.ALERT: one action, its crit extra action taken right after, GAP-12)."""
    return "alert" if context == "alert" else "ordered"


def check_order(ctx: Ctx, a: Order, m: ModelState, context: str) -> int:
    """SKILL-6.1.LEADER-ORDER / GAP-37: the Leader transfers his actions to another crew model within 12" and in
    his LOS, 1 Leader action per transferred action, so the Order costs what the ordered action costs (an Alert or
    an Unload is a transferred pair; Aim then the attack are two consecutive Orders to the same recipient). Given
    in the Leader's own activation, or as his held Alert action (CORE-3.3.ALERT: "any action"; then one action)."""
    st = ctx.state
    if context not in ("own", "alert"):
        raise IllegalAction("Orders are given in the Leader's own activation or as his held Alert action",
                            "SKILL-6.1.LEADER-ORDER")
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
    # 1 Leader action per transferred action (GAP-37)
    return ctx.check_action(a.action, actor=a.recipient, context=nested_context(context))


def do_order(ctx: Ctx, a: Order, m: ModelState, context: str) -> int:
    """The recipient performs the ordered action at once, fully resolved before the Leader goes on."""
    inner = nested_context(context)
    cost = ctx.check_action(a.action, actor=a.recipient, context=inner)  # the Leader pays what the action costs
    held = {"held": True} if context == "alert" else {}
    ctx.emit("order", ("SKILL-6.1.LEADER-ORDER", "GAP-37") + (("CORE-3.3.ALERT",) if held else ()), leader=a.unit,
             recipient=a.recipient, action=type(a.action).__name__, leader_actions=cost, **held)
    ctx.resolve(a.action, actor=a.recipient, context=inner)
    return cost
