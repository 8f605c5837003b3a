"""Use Item: the Med-Kit on oneself or an ally and Electric Juice (EQUIP-6.2, COMBAT-4.4.MEDKIT-*, GAP-31, GAP-32)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.actions import IllegalAction, UseItem
from game.core.geometry.distance import base_distance
from game.core.rules.wounds import dress_wound, medkits, settle_wounds
from game.core.state import ModelState
from game.core.tolerance import EPS

if TYPE_CHECKING:
    from game.core.rules.context import Ctx


def check_use_item(ctx: Ctx, a: UseItem, m: ModelState, context: str) -> int:
    """Electric Juice (GAP-31); a Med-Kit on oneself, free, for a multi-wound model's delayed Wound
    (COMBAT-4.4.MEDKIT-DELAY); or on an ally in base contact for `medkit.ally_cost`, an Out of Action one included
    (COMBAT-4.4.MEDKIT-ALLY, COMBAT-4.4.MEDKIT-OOA), refused before the kit is spent where GAP-32/GAP-92 forbid it:
    a Dead model, or one put Out of Action by three or more Wounds in one round."""
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
        raise IllegalAction(f"{a.target} is dead: Dead models cannot be helped", "GAP-32")
    if patient.ooa and patient.ooa_beyond_kits:
        raise IllegalAction(f"{a.target} took three or more Wounds in one round: Out of Action whatever the kits",
                            "GAP-92")
    if patient.wounds_taken == 0 and not patient.ooa:
        raise IllegalAction(f"{a.target} has no Wound", "COMBAT-4.4.MEDKIT-ALLY")
    tol = ctx.settings["geo.contact_tol"]
    if base_distance(m.base(), patient.base()).distance > tol + EPS:
        raise IllegalAction(f"{m.id} is not in base contact with {a.target}", "COMBAT-4.4.MEDKIT-ALLY")
    return int(ctx.settings["medkit.ally_cost"])


def do_use_item(ctx: Ctx, a: UseItem, m: ModelState, context: str) -> int:
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
        ctx.emit("medkit", ("COMBAT-4.4.MEDKIT-ALLY", "COMBAT-4.4.MEDKIT-OOA", "GAP-32"), patient=target,
                 applier=m.id, revived=False,
                 note="healed but stays out of this mission (`medkit.ooa_revive_returns`=false)")
        return int(ctx.settings["medkit.ally_cost"])
    # A self-kit taken as a UseItem is a delayed one (the kit at the Wound is the MEDKIT decision): in the model's
    # own activation, or at a TURN-7 window of an enemy's (`medkit.self_window`=any_time).
    delayed = ("COMBAT-4.4.MEDKIT-DELAY",) + (("TURN-7",) if context == "window" else ()) if target == m.id else ()
    dress_wound(ctx, target, m.id, rules=delayed)
    settle_wounds(ctx, target)
    return 0 if target == m.id else int(ctx.settings["medkit.ally_cost"])
