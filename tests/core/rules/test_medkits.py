"""Med-Kits with scripted dice: an ally's kit on an Out of Action model, what no kit can help, and a multi-wound model's
delayed self-kit at the TURN-7 windows of an enemy's activation (COMBAT-4.4.MEDKIT-*, GAP-32, GAP-33, GAP-92)."""
from __future__ import annotations

from typing import Any

import pytest

from game.core.actions import (
    Aim,
    DeclineInterrupt,
    DeclineMedKit,
    IllegalAction,
    Interrupt,
    UseItem,
)
from game.core.dice import ScriptedDice
from game.core.events import Event
from game.core.rules.apply import apply, validate
from game.core.rules.context import Ctx
from game.core.rules.wounds import inflict_wounds
from game.core.state import GameState, Phase
from tests.enginekit import activate, game, profile, types

ANY_TIME = {"medkit.self_window": "any_time"}


def _wound(st: GameState, model: str, n: int) -> list[Event]:
    """n Wounds on `model` from one new round (COMBAT-4.3.WOUND)."""
    ctx = Ctx(st, ScriptedDice([]), st.battlefield)
    st.round_counter += 1
    inflict_wounds(ctx, model, n, st.round_counter)
    return ctx.events


def _of(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.type == kind)


# --- an ally's kit on an Out of Action model (COMBAT-4.4.MEDKIT-ALLY, COMBAT-4.4.MEDKIT-OOA, GAP-32, GAP-33) ------


def _patient_and_doc(**kw: Any) -> GameState:
    """A 2-Wound model with no kit of its own, an ally in base contact carrying one, an enemy far away."""
    return game([("l", "a", profile(wounds=2, actions=3), (10, 10)), ("doc", "a", profile(actions=2), (11.05, 10)),
                 ("e", "b", profile(), (30, 30))], items={"doc": ["medkit"]}, **kw)


@pytest.mark.parametrize("rounds", [(2,), (1, 1), (1, 2)], ids=["2-in-one-round", "1-then-1", "1-then-2"])
def test_medkit_ooa_ally_kit_returns_multiwound_model_to_play_with_two_pins(rounds: tuple[int, ...]) -> None:
    """COMBAT-4.4.MEDKIT-ALLY / COMBAT-4.4.MEDKIT-OOA / GAP-32 (`medkit.ooa_revive_returns`=true): an ally in base
    contact spends 1 action and a kit; the OOA model returns to play with exactly the kit's 2 Pins (GAP-33) and one
    Wound fewer than its total (Wounds past the total count for nothing once OOA, GAP-92). The events cite the ally
    rules, never COMBAT-4.4.MEDKIT-SELF."""
    st = _patient_and_doc()
    for n in rounds:
        _wound(st, "l", n)
    assert st.models["l"].ooa
    activate(st, "doc")
    ev = apply(st, UseItem("doc", "medkit", "l"))
    m = st.models["l"]
    assert m.in_play and not m.ooa and m.wounds_taken == 1
    assert st.units["l"].pins == 2 and st.models["doc"].items == [] and st.activation.spent == 1
    kit = _of(ev, "medkit")
    assert kit.data["revived"] is True
    assert {"COMBAT-4.4.MEDKIT-ALLY", "COMBAT-4.4.MEDKIT-OOA", "GAP-32", "GAP-33"} <= set(kit.rules)
    assert "COMBAT-4.4.MEDKIT-SELF" not in kit.rules
    assert _of(ev, "pinned").rules[0] == "COMBAT-4.4.MEDKIT-ALLY"
    assert "out_of_action" not in types(ev)


def test_medkit_ooa_single_wound_model_two_wounds_in_a_round_revived_unwounded() -> None:
    """GAP-32 (a): an ally's kit revives a single-Wound model; two Wounds in that round (not three) do not stop it."""
    st = game([("m", "a", profile(), (10, 10)), ("doc", "a", profile(actions=2), (11.05, 10)),
               ("e", "b", profile(), (30, 30))], items={"doc": ["medkit"]})
    _wound(st, "m", 2)
    activate(st, "doc")
    apply(st, UseItem("doc", "medkit", "m"))
    assert st.models["m"].in_play and st.models["m"].wounds_taken == 0 and st.units["m"].pins == 2


def test_medkit_refused_before_the_kit_is_spent_after_three_wounds_in_one_round() -> None:
    """GAP-92 / GAP-32 (d): three or more Wounds in one round put the model OOA whatever the kits, an ally's too:
    refused before anything changes, the kit kept and the action unspent."""
    st = _patient_and_doc()
    _wound(st, "l", 3)
    activate(st, "doc")
    before = st.to_json()
    with pytest.raises(IllegalAction) as ei:
        apply(st, UseItem("doc", "medkit", "l"))
    assert ei.value.rule == "GAP-92"
    assert st.to_json() == before and st.models["doc"].items == ["medkit"]


def test_medkit_refused_on_a_dead_model() -> None:
    """GAP-32: Dead models cannot be helped (COMBAT-4.4.PERMA-DEAD: wounded again while OOA in another round)."""
    st = _patient_and_doc()
    _wound(st, "l", 2)
    _wound(st, "l", 1)
    assert st.models["l"].dead
    activate(st, "doc")
    with pytest.raises(IllegalAction) as ei:
        validate(st, UseItem("doc", "medkit", "l"))
    assert ei.value.rule == "GAP-32" and st.models["doc"].items == ["medkit"]


@pytest.mark.setting("medkit.ooa_revive_returns")
def test_medkit_ooa_revive_returns_false_heals_but_the_model_stays_out() -> None:
    """GAP-32 (b), `medkit.ooa_revive_returns`=false: the kit heals the OOA model (no Wound left) but it stays out of
    this mission, with no Pins; the default returns it to play with 2 Pins."""
    st = _patient_and_doc(settings={"medkit.ooa_revive_returns": False})
    _wound(st, "l", 2)
    activate(st, "doc")
    ev = apply(st, UseItem("doc", "medkit", "l"))
    assert st.models["l"].ooa and st.models["l"].wounds_taken == 0 and st.units["l"].pins == 0
    kit = _of(ev, "medkit")
    assert kit.data["revived"] is False and "COMBAT-4.4.MEDKIT-OOA" in kit.rules
    st2 = _patient_and_doc()
    _wound(st2, "l", 2)
    activate(st2, "doc")
    apply(st2, UseItem("doc", "medkit", "l"))
    assert st2.models["l"].in_play and st2.units["l"].pins == 2


# --- the delayed self-kit at the TURN-7 windows (COMBAT-4.4.MEDKIT-DELAY, `medkit.self_window`) -------------------


def _delayed(settings: dict[str, object] | None = None, *, wounds: int = 2, kit: bool = True,
             controller: str = "human") -> GameState:
    """Side b's 2-Wound model "bl" took a Wound and declined its kit at the Wound; side a is about to act."""
    st = game([("a1", "a", profile(actions=2), (5, 5)), ("bl", "b", profile(wounds=wounds, actions=3), (30, 30))],
              items={"bl": ["medkit"] if kit else []}, settings=settings)
    st.side("b").controller = controller
    _wound(st, "bl", 1)
    if st.phase is Phase.MEDKIT:
        apply(st, DeclineMedKit("bl"))
    return st


def test_medkit_delay_default_on_wound_offers_no_window_in_an_enemy_activation() -> None:
    """`medkit.self_window`=on_wound (default): the delayed kit waits for the model's own activation; an enemy's
    activation opens no window for it and an Interrupt with it is refused (no Alert held)."""
    st = _delayed()
    ev = activate(st, "a1")
    assert "interrupt_window" not in types(ev) and st.phase is Phase.ACTION and st.deciding == "a"
    apply(st, Aim("a1"))
    assert st.phase is Phase.ACTION


@pytest.mark.setting("medkit.self_window")
def test_medkit_delay_any_time_window_before_the_first_enemy_action() -> None:
    """COMBAT-4.4.MEDKIT-DELAY (`medkit.self_window`=any_time): before the enemy's first action (TURN-7) the
    wounded multi-wound model with a kit is offered its kit; used there, it is free: the Wound goes, 2 Pins come,
    the event cites the delay and the window, and the enemy's activation resumes."""
    st = _delayed(ANY_TIME)
    ev = activate(st, "a1")
    win = _of(ev, "interrupt_window")
    assert win.data["medkits"] == ["bl"] and "COMBAT-4.4.MEDKIT-DELAY" in win.rules
    assert st.phase is Phase.INTERRUPT and st.deciding == "b"
    ev = apply(st, Interrupt("bl", UseItem("bl", "medkit")))
    kit = _of(ev, "medkit")
    assert {"COMBAT-4.4.MEDKIT-SELF", "COMBAT-4.4.MEDKIT-DELAY", "TURN-7"} <= set(kit.rules)
    assert st.models["bl"].wounds_taken == 0 and st.units["bl"].pins == 2 and st.models["bl"].items == []
    assert st.phase is Phase.ACTION and st.deciding == "a" and st.activation.spent == 0


@pytest.mark.setting("medkit.self_window")
def test_medkit_delay_any_time_window_after_each_enemy_action_and_declined() -> None:
    """TURN-7 (b): the kit is offered again after each enemy action; DeclineInterrupt (an existing decision) lets
    the window pass and keeps the kit and the Wound."""
    st = _delayed(ANY_TIME)
    activate(st, "a1")
    apply(st, DeclineInterrupt("b"))
    assert st.phase is Phase.ACTION and st.deciding == "a"
    ev = apply(st, Aim("a1"))
    assert _of(ev, "interrupt_window").data["medkits"] == ["bl"] and st.deciding == "b"
    apply(st, DeclineInterrupt("b"))
    assert st.models["bl"].wounds_taken == 1 and st.models["bl"].items == ["medkit"]
    assert st.phase is Phase.ACTION and st.deciding == "a"


@pytest.mark.parametrize("kw", [{"wounds": 1}, {"kit": False}, {"controller": "ai"}],
                         ids=["single-wound", "no-kit", "ai-side"])
def test_medkit_delay_offered_only_to_multiwound_models_with_a_wound_and_a_kit(kw: dict[str, Any]) -> None:
    """COMBAT-4.4.MEDKIT-DELAY: only a multi-wound model with an untreated Wound and a kit is offered the window (a
    single-wound model is OOA once wounded); hostile and `ai` sides decide at the Wound (AI-D.11): no window."""
    st = _delayed(ANY_TIME, **kw)
    ev = activate(st, "a1")
    assert "interrupt_window" not in types(ev) and st.phase is Phase.ACTION


@pytest.mark.setting("medkit.self_window")
def test_medkit_delay_window_kit_keeps_the_alert_and_the_side_may_still_interrupt() -> None:
    """The window kit is a free act, not the held action (CORE-3.3.FREE): an Alert unit that dresses its Wound keeps
    its Alert and is asked again at the same window (TURN-7)."""
    st = _delayed(ANY_TIME)
    st.units["bl"].alert = True
    activate(st, "a1")
    apply(st, Interrupt("bl", UseItem("bl", "medkit")))
    assert st.units["bl"].alert and st.phase is Phase.INTERRUPT and st.deciding == "b"
    with pytest.raises(IllegalAction):
        validate(st, Interrupt("bl", UseItem("bl", "medkit")))  # no Wound left, no kit left
    apply(st, DeclineInterrupt("b"))
    assert st.phase is Phase.ACTION and st.units["bl"].alert


def test_medkit_delay_state_mid_window_round_trips_and_old_saves_load() -> None:
    """A game saved at a kit window reloads and continues alike; saves written before the new fields
    (`ordered_aim`, `ooa_beyond_kits`) still load with their defaults."""
    st = _delayed(ANY_TIME)
    activate(st, "a1")
    data = st.to_json()
    del data["activation"]["ordered_aim"]
    for m in data["models"].values():
        del m["ooa_beyond_kits"]
    back = GameState.from_json(data)
    assert back.activation.ordered_aim is None and not back.models["bl"].ooa_beyond_kits
    apply(back, Interrupt("bl", UseItem("bl", "medkit")))
    apply(st, Interrupt("bl", UseItem("bl", "medkit")))
    assert back.to_json() == st.to_json()
