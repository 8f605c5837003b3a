"""Leader Orders (SKILL-6.1.LEADER-ORDER, GAP-37): the ordered action re-enters dispatch through the context."""
from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.actions import Deploy, IllegalAction, Order, Rally, UseItem
from game.core.geometry.distance import EPS, base_distance
from game.core.rules.queries import can_see, sole_model
from game.core.state import ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

ORDER_RANGE = 12.0  # GEO-22: Order recipient within 12"


def check_order(ctx: Ctx, a: Order, m: ModelState, context: str) -> int:
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
    return ctx.check_action(a.action, actor=a.recipient, context="ordered")  # 1 Leader action per action (GAP-37)


def do_order(ctx: Ctx, a: Order, m: ModelState, context: str) -> int:
    cost = ctx.check_action(a.action, actor=a.recipient, context="ordered")  # the Leader pays what the action costs
    ctx.emit("order", ("SKILL-6.1.LEADER-ORDER", "GAP-37"), leader=a.unit, recipient=a.recipient,
             action=type(a.action).__name__, leader_actions=cost)
    ctx.resolve(a.action, actor=a.recipient, context="ordered")
    return cost
