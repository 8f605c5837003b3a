"""The Med-Kit decisions of one resolution (COMBAT-4.4.MEDKIT-SELF, GAP-32): a model owed two decisions (two rounds
of hits in one action, e.g. a Withdraw's free attacks by two hostiles) that spends its only kit on the first is
not asked again: the second Wound is settled at once (found by the salvage soak, TL3 seed 32)."""
from __future__ import annotations

from game.core.actions import UseItem
from game.core.dice import ScriptedDice
from game.core.rules.apply import apply
from game.core.state import Phase, WoundDecision
from tests.enginekit import activate, game, profile


def test_a_second_decision_without_a_kit_left_is_settled_not_asked() -> None:
    st = game([("a1", "a", profile(wounds=2), (5, 5)), ("b1", "b", profile(), (30, 30))], items={"a1": ["medkit"]})
    activate(st, "a1")
    m = st.models["a1"]
    m.wounds_taken = 2
    st.wound_queue = [WoundDecision("a1", 1, 1), WoundDecision("a1", 2, 1)]
    st.phase, st.deciding = Phase.MEDKIT, "a"
    ev = apply(st, UseItem("a1", "medkit"), ScriptedDice([]))
    assert [e.type for e in ev][:2] == ["medkit", "pinned"]
    assert st.wound_queue == [] and st.phase is not Phase.MEDKIT
    assert m.items == [] and m.wounds_taken == 1 and not m.ooa  # one Wound dressed, one kept: the Two-Wound Rule
