"""Pins, Wounds, Out of Action and Med-Kits (COMBAT-4.4, INTRO-1.2.CRIT-FAIL, GAP-32, GAP-33)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.state import ModelState, Phase, WoundDecision

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

PIN_CAP = 4  # COMBAT-4.4.PIN-CAP


def add_pins(ctx: Ctx, unit_id: str, n: int, *, reason: str, rules: tuple[str, ...]) -> int:
    """Give a unit Pinned counters, capped at 4; Will-NA units never take Pins (GAP-22); Hard ignores
    the first Pin of the mission (SKILL-6.1.HARD, `hard.scope`). Returns the Pins actually added."""
    st = ctx.state
    unit = st.units[unit_id]
    models = st.unit_models(unit_id)
    if not any(m.in_play for m in models):
        return 0
    if all(m.profile.will is None for m in models):
        ctx.emit("pin_ignored", ("GAP-22",), unit=unit_id, reason="Will NA: cannot be Pinned")
        return 0
    if n > 0 and ctx.settings["hard.scope"] == "first_pin_each_mission":
        for m in models:
            if m.profile.has("hard") and not m.hard_pin_ignored:
                m.hard_pin_ignored = True
                n -= 1
                ctx.emit("pin_ignored", ("SKILL-6.1.HARD", "GAP-39"), unit=unit_id,
                         reason="Hard: first Pinned counter of the mission ignored")
                break
    before = unit.pins
    unit.pins = min(PIN_CAP, unit.pins + max(0, n))
    added = unit.pins - before
    if n > 0:
        ctx.emit("pinned", rules + ("COMBAT-4.4.PIN-CAP",), unit=unit_id, added=added,
                 discarded=n - added, pins=unit.pins, reason=reason)
    return added


def medkits(m: ModelState) -> int:
    return m.items.count("medkit")


def inflict_wounds(ctx: Ctx, model_id: str, n: int, round_id: int, *, kit_window: bool = True) -> None:
    """Apply n Wounds from one round (COMBAT-4.3.WOUND). Three or more in one round put the model
    Out of Action whatever its kits (GAP-92); otherwise a model carrying a Med-Kit decides at once
    whether to dress them (COMBAT-4.4.MEDKIT-SELF, `medkit.self_window`), as a MEDKIT decision, unless the
    resolution offers none (`kit_window`=False: a Burn Wound with `burn.medkit_between`=false, GAP-74)."""
    st = ctx.state
    m = st.models[model_id]
    if n <= 0 or m.dead or not m.deployed:
        return
    if m.ooa:
        if round_id != m.ooa_round:
            kill(ctx, model_id, reason="wounded again while Out of Action, in a different round")
        return
    m.wounds_taken += n
    if st.blame is not None:  # POST-8.5.EARN: who put it out of play, if this Wound does (rules/outcome.py)
        m.wounded_by = {**st.blame, "turn": st.turn, "seq": st.event_seq}
    ctx.emit("wounded", ("COMBAT-4.3.WOUND",), model=model_id, wounds=n, wounds_taken=m.wounds_taken,
             wounds_max=m.profile.wounds, round=round_id)
    _task_reset_on_wound(ctx, model_id)
    if n >= 3:
        m.ooa_beyond_kits = True  # GAP-32/GAP-92: no kit, own or an ally's, brings it back
        go_out_of_action(ctx, model_id, reason="three or more Wounds in one round", round_id=round_id)
        return
    if kit_window and medkits(m) and min(n, 2) > 0:
        st.wound_queue.append(WoundDecision(model_id, round_id, n))
        if st.phase is not Phase.MEDKIT:
            ctx.push_phase(Phase.MEDKIT, st.models[model_id].side)
        return
    settle_wounds(ctx, model_id, round_id)


def settle_wounds(ctx: Ctx, model_id: str, round_id: int = 0) -> None:
    """OOA when undressed Wounds reach the model's Wounds (GAP-92)."""
    m = ctx.state.models[model_id]
    if not m.ooa and m.wounds_taken >= m.profile.wounds:
        go_out_of_action(ctx, model_id, reason="Wounds reached the model's total", round_id=round_id)
    elif m.wounds_taken:
        ctx.emit("two_wound_rule", ("COMBAT-4.4.TWO-WOUND-RULE",), model=model_id,
                 wounds_taken=m.wounds_taken)


def kill(ctx: Ctx, model_id: str, *, reason: str) -> None:
    """COMBAT-4.4.PERMA-DEAD: permanently dead; its kit goes to the crew pool after the mission."""
    m = ctx.state.models[model_id]
    m.dead = True
    m.ooa = True
    ctx.emit("dead", ("COMBAT-4.4.PERMA-DEAD", "GAP-93"), model=model_id, reason=reason)


def go_out_of_action(ctx: Ctx, model_id: str, *, reason: str, round_id: int = 0) -> None:
    """COMBAT-4.4.OOA: the model takes no further part; Pins, Alert and Aim go (GAP-33 `pin.on_ooa`)."""
    st = ctx.state
    m = st.models[model_id]
    m.ooa = True
    m.ooa_round = round_id
    unit = st.units[m.unit]
    if not st.unit_in_play(m.unit):
        if ctx.settings["pin.on_ooa"] == "discard":
            unit.pins = 0
        unit.alert = False
        if st.activation is not None and st.activation.unit == m.unit:
            st.activation.aim = False
    ctx.emit("out_of_action", ("COMBAT-4.4.OOA", "GAP-33"), model=model_id, reason=reason)
    _task_reset_on_wound(ctx, model_id)


def dress_wound(ctx: Ctx, patient_id: str, applier_id: str, *, rules: tuple[str, ...] = ()) -> None:
    """One Med-Kit removes one Wound for 2 Pinned counters, 1 if the applier is a Bone Doc (TV-27).

    On oneself it is COMBAT-4.4.MEDKIT-SELF; on an ally COMBAT-4.4.MEDKIT-ALLY. An ally's kit on an Out of
    Action model revives it (COMBAT-4.4.MEDKIT-OOA, GAP-32 `medkit.ooa_revive_returns`=true): it returns to play
    with exactly the kit's Pins (GAP-33), keeping at most one Wound fewer than its total, since Wounds past the
    total count for nothing once it is Out of Action (GAP-92). `rules` adds the IDs of when it was used."""
    st = ctx.state
    patient = st.models[patient_id]
    applier = st.models[applier_id]
    applier.items.remove("medkit")
    revived = patient.ooa
    patient.wounds_taken = max(0, patient.wounds_taken - 1)
    if revived:
        patient.wounds_taken = min(patient.wounds_taken, patient.profile.wounds - 1)
        patient.ooa = False
    bone_doc = applier.profile.has("bone_doc")
    pins = ctx.settings["medkit.pins_bone_doc"] if bone_doc else ctx.settings["medkit.pins"]
    how: tuple[str, ...] = ("COMBAT-4.4.MEDKIT-SELF",) if patient_id == applier_id else ("COMBAT-4.4.MEDKIT-ALLY",)
    if revived:
        how += ("COMBAT-4.4.MEDKIT-OOA", "GAP-32", "GAP-33")
    ctx.emit("medkit", how + rules + ("SKILL-6.1.BONE-DOC" if bone_doc else "EQUIP-6.2.MEDKIT",),
             patient=patient_id, applier=applier_id, wounds_taken=patient.wounds_taken, revived=revived,
             pins=pins)
    add_pins(ctx, patient.unit, pins, reason="Med-Kit", rules=how[:1])


def _task_reset_on_wound(ctx: Ctx, model_id: str) -> None:
    """CORE-3.4.BANKING (`task.reset_on`): a Wound or OOA loses the holder's banked task actions."""
    if "wounded" not in ctx.settings["task.reset_on"]:
        return
    for task in ctx.state.tasks.values():
        if task.holder == model_id and not task.done:
            ctx.emit("task_progress_lost", ("CORE-3.4.BANKING",), task=task.id, model=model_id,
                     progress=task.progress, reason="wounded")
            task.holder = None
            task.progress = 0
