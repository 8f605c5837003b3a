"""Anomalies and artifacts (SALVAGE-8.4.ANOMALY-*, SALVAGE-8.4.ARTIFACT-TABLE, GAP-54..GAP-56, GAP-106, TV-21, TV-38):
the free Will check (Will - TL, Leader +1, Detector +2), the artifact on a pass, the Damage 2 LBT discharge on a
failure that costs no action, the retry rule, a Scrounger's two artifacts, and who is refused."""
from __future__ import annotations

import pytest

from game.core.actions import EndActivation, IllegalAction, Search, SearchAnomaly
from game.core.dice import ScriptedDice
from game.core.rules.anomaly import ARTIFACTS, anomaly_tn, artifact_row
from game.core.rules.apply import apply, validate
from game.core.rules.context import read_ctx
from game.core.rules.outcome import advances_earned, casualties
from game.core.settings import SettingsError
from game.core.state import GameState, LocationState, Phase
from tests.enginekit import activate, profile
from tests.zonekit import add_force, zone_game

TL = 2


def board(*, searcher: dict | None = None, items: dict | None = None, extra: list | None = None,
          tl: int = TL, searched: bool = True, settings: dict | None = None) -> GameState:
    """a1 stands 0.6" from a searched TL `tl` Hot Spot at (15, 15) with an anomaly; b1 far away."""
    models = [("a1", "a", profile(**(searcher or {})), (15.6, 15.0)), ("b1", "b", profile(), (34.0, 34.0)),
              *(extra or [])]
    st = zone_game(models, settings=settings)
    for mid, kit in (items or {}).items():
        st.models[mid].items = list(kit)
    st.locations["hs"] = LocationState("hs", "the shed", "hotspot", 15.0, 15.0, tl, triggered=True,
                                       searched=searched, searched_by=["a1"] if searched else [], anomaly=True)
    return st


def tn(st: GameState, mid: str = "a1") -> int:
    return anomaly_tn(read_ctx(st), st.models[mid], st.locations["hs"]).value


# --- TV-21 and TV-38 ----------------------------------------------------------------------------------------


def test_tv21_the_anomaly_check_target_numbers() -> None:
    """TV-21: Will 5 at TL2 -> TN 3; with a Detector in a slot -> 5; and the Leader in LOS -> 6
    (SALVAGE-8.4.ANOMALY-MODS, GAP-36)."""
    assert tn(board()) == 3
    assert tn(board(items={"a1": ["detector"]})) == 5
    leader = ("a0", "a", profile(skills=("leader",)), (18.0, 15.0))
    st = board(items={"a1": ["detector"]}, extra=[leader])
    assert tn(st) == 6
    assert "Leader in LOS" in anomaly_tn(read_ctx(st), st.models["a1"], st.locations["hs"]).text()


def test_a_detector_counts_only_in_a_slot() -> None:
    """SALVAGE-8.4.ANOMALY-MODS: the searcher itself carries the Detector in a slot; one stowed as salvage or
    carried by another model does not count."""
    st = board(items={"b1": ["detector"]})
    st.models["a1"].salvage.append({"location": "x", "roll": 1, "value": 0, "equipment_rolls": 1,
                                    "table": "advanced", "items": ["detector"], "turn": 1})
    assert tn(st) == 3


def test_tv38_the_artifact_table() -> None:
    """TV-38 (SALVAGE-8.4.ARTIFACT-TABLE): roll 2 -> 3,500; roll 6 -> 5,500 and +1 Will; the whole table."""
    assert artifact_row(2) == (3500, None)
    assert artifact_row(6) == (5500, "will")
    assert ARTIFACTS == {1: (2000, None), 2: (3500, None), 3: (4500, None), 4: (4500, "move"), 5: (5000, "armor"),
                         6: (5500, "will")}


# --- a pass ---------------------------------------------------------------------------------------------------


def test_a_pass_spends_the_action_and_stows_the_artifact() -> None:
    """SALVAGE-8.4.ANOMALY-EFFECT / TV-38 in play: the free Will check passes (D10 3 vs TN 3), the Search action
    is spent, the Artifact D6 6 gives 5,500 ZS and a Will bonus that needs a slot (GAP-106), so a1's Will is
    unchanged this mission; the anomaly is inert."""
    st = board()
    activate(st, "a1")
    ev = apply(st, SearchAnomaly("a1", "hs"), ScriptedDice([3, 6]))
    (art,) = [e for e in ev if e.type == "artifact"]
    assert art.data["value"] == 5500 and art.data["bonus"] == "will" and "GAP-106" in art.rules
    assert st.models["a1"].artifacts == [{"location": "hs", "roll": 6, "value": 5500, "bonus": "will",
                                         "bonus_needs_slot": True, "active": False, "turn": 1}]
    assert st.models["a1"].profile.will == 5  # GAP-106: stowed, no bonus this mission
    assert st.activation is not None and st.activation.spent == 1
    assert st.locations["hs"].anomaly_inert
    with pytest.raises(IllegalAction, match="inert"):
        validate(st, SearchAnomaly("a1", "hs"))


def test_a_scrounger_takes_two_artifacts_and_nobody_else_a_second() -> None:
    """SALVAGE-8.4.ANOMALY-TWICE: a Scrounger may search the anomaly twice (an action and a Will check each time),
    and take two artifacts; after the first, another model is refused; after the second it is inert."""
    extra = [("a2", "a", profile(), (14.4, 15.0))]
    st = board(searcher={"skills": ("scrounger",), "actions": 3}, extra=extra)
    activate(st, "a1")
    apply(st, SearchAnomaly("a1", "hs"), ScriptedDice([1, 1]))
    assert not st.locations["hs"].anomaly_inert
    ev = apply(st, SearchAnomaly("a1", "hs"), ScriptedDice([2, 4]))
    assert "SALVAGE-8.4.ANOMALY-TWICE" in [e for e in ev if e.type == "artifact"][0].rules
    assert [a["value"] for a in st.models["a1"].artifacts] == [2000, 4500] and st.locations["hs"].anomaly_inert
    st = board(searcher={"skills": ("scrounger",)}, extra=extra)
    activate(st, "a1")
    apply(st, SearchAnomaly("a1", "hs"), ScriptedDice([1, 1]))
    apply(st, EndActivation("a1"), ScriptedDice([]))
    activate(st, "a2")
    with pytest.raises(IllegalAction, match="only a1, a Scrounger"):
        validate(st, SearchAnomaly("a2", "hs"))


# --- a failure: the discharge (GAP-55, GAP-56) ------------------------------------------------------------------


def discharge_board() -> GameState:
    """a1 searches; a2 (friend) and b2 (rival) stand inside the LBT (2.5" + their base radius of (15, 15)); b3 just
    outside it; b1 far away."""
    extra = [("a2", "a", profile(), (15.0, 17.9)), ("b2", "b", profile(), (13.0, 14.0)),
             ("b3", "b", profile(), (15.0, 18.1))]
    return board(extra=extra)


def test_a_failure_discharges_on_every_model_under_the_lbt() -> None:
    """SALVAGE-8.4.ANOMALY-EFFECT / GAP-55 (`anomaly.area`=LBT, 2.5" radius centred on the location point): every
    model it touches, the searcher too, takes one Damage 2 hit with an armour save (Armor 5 - 2: TN 3; a D10 8
    fails: Out of Action); b3 outside is untouched; the failed check costs no action (GAP-56); the anomaly
    stays; the models put out are the anomaly's, nobody's kills (POST-8.5.EARN)."""
    st = discharge_board()
    activate(st, "a1")
    ev = apply(st, SearchAnomaly("a1", "hs"), ScriptedDice([9, 8, 8, 8]))
    (d,) = [e for e in ev if e.type == "anomaly_discharge"]
    assert sorted(m["model"] for m in d.data["models"]) == ["a1", "a2", "b2"] and d.data["damage"] == 2
    saves = [e for e in ev if e.type == "roll" and "armour save" in e.data["what"]]
    assert len(saves) == 3 and {e.data["tn"] for e in saves} == {3}
    assert {m for m in ("a1", "a2", "b2", "b3") if st.models[m].ooa} == {"a1", "a2", "b2"}
    assert st.locations["hs"].anomaly and not st.locations["hs"].anomaly_inert
    assert st.models["a1"].artifacts == []
    assert {c["unit"]: c["cause"] for c in casualties(st)} == {"a1": "anomaly", "a2": "anomaly", "b2": "anomaly"}
    assert advances_earned(st, "a").units_out == 0 and advances_earned(st, "b").units_out == 0


def test_a_failure_costs_no_action_and_the_same_model_may_not_retry_this_activation() -> None:
    """GAP-56 (`anomaly.retry`=once_per_model_per_activation): saves pass (D10 2: deflected, each then takes its
    deflection Will check); the searcher keeps both actions but may not try again this activation; another model
    may; the searcher may in its next activation."""
    st = discharge_board()
    activate(st, "a1")
    ev = apply(st, SearchAnomaly("a1", "hs"), ScriptedDice([9, 2, 2, 2, 2, 2, 2]))
    assert any(e.type == "anomaly_check_failed" and "GAP-56" in e.rules for e in ev)
    assert not any(st.models[m].ooa for m in ("a1", "a2", "b2"))
    assert st.activation is not None and st.activation.spent == 0 and st.phase is Phase.ACTION
    with pytest.raises(IllegalAction, match="GAP-56"):
        validate(st, SearchAnomaly("a1", "hs"))
    apply(st, EndActivation("a1"), ScriptedDice([]))
    st.models["a2"].x, st.models["a2"].y = 14.4, 15.0
    activate(st, "a2")
    validate(st, SearchAnomaly("a2", "hs"))
    apply(st, EndActivation("a2"), ScriptedDice([]))
    for u in st.units.values():
        u.activated = False
    activate(st, "a1")
    validate(st, SearchAnomaly("a1", "hs"))


def test_the_searcher_wounded_by_its_discharge_takes_its_med_kit_decision() -> None:
    """The discharge goes through the template code: a searcher with a Med-Kit decides at the Wound
    (COMBAT-4.4.MEDKIT-SELF), then its activation goes on with its actions unspent."""
    st = board(searcher={"wounds": 2}, items={"a1": ["medkit"]})
    activate(st, "a1")
    apply(st, SearchAnomaly("a1", "hs"), ScriptedDice([9, 8]))
    assert st.phase is Phase.MEDKIT and st.deciding == "a"


# --- refusals ---------------------------------------------------------------------------------------------------


def test_who_and_when_may_search_an_anomaly() -> None:
    """No anomaly (GAP-54), not yet searched (SALVAGE-8.4.ANOMALY-NOSPAWN), hostiles in play
    (MISSION-8.2.CLEARING), out of reach (`anomaly.search_range`=same_as_hotspot_search, GAP-53), a hostile
    (AI-C.6): refused, with the rule."""
    st = board()
    st.locations["hs"].anomaly = False
    activate(st, "a1")
    with pytest.raises(IllegalAction, match="GAP-54"):
        validate(st, SearchAnomaly("a1", "hs"))
    st = board(searched=False)
    activate(st, "a1")
    with pytest.raises(IllegalAction, match="SALVAGE-8.4.ANOMALY-NOSPAWN"):
        validate(st, SearchAnomaly("a1", "hs"))
    st = board()
    st.models["a1"].x = 17.0
    activate(st, "a1")
    with pytest.raises(IllegalAction, match="SALVAGE-8.4.ANOMALY-SEARCH"):
        validate(st, SearchAnomaly("a1", "hs"))
    st = board()
    (unit,) = add_force(st, "bandit", [(20.0, 20.0)], location=(15.0, 15.0), loc_id="hs")
    activate(st, "a1")
    with pytest.raises(IllegalAction, match="MISSION-8.2.CLEARING"):
        validate(st, SearchAnomaly("a1", "hs"))
    st.models["a1"].x, st.models["a1"].y = 5.0, 5.0
    st.models[unit].x, st.models[unit].y = 15.6, 15.0
    st.models[unit].ooa = False
    activate(st, unit)
    with pytest.raises(IllegalAction, match="AI-C.6"):
        validate(st, SearchAnomaly(unit, "hs"))


@pytest.mark.setting("anomaly.source")
def test_anomaly_source_hostile_roll_only() -> None:
    """GAP-54 (`anomaly.source`): with either_roll a Salvage `*` (TL2 roll 5) reveals an anomaly; with
    hostile_roll_only it does not."""
    for source, present in (("either_roll", True), ("hostile_roll_only", False)):
        st = board(searched=False, settings={"anomaly.source": source})
        st.locations["hs"].anomaly = False
        activate(st, "a1")
        apply(st, Search("a1", "hs"), ScriptedDice([5, 1, 1]))
        assert st.locations["hs"].anomaly is present


def test_unbuilt_alternatives_are_refused() -> None:
    """GAP-55's 3" reaction-radius discharge and GAP-106's slot-free artifact bonus are not built: refused."""
    with pytest.raises(SettingsError, match="anomaly.area"):
        read_ctx(board(settings={"anomaly.area": "reaction_radius"}))
    with pytest.raises(SettingsError, match="artifact.bonus_needs_slot"):
        read_ctx(board(settings={"artifact.bonus_needs_slot": False}))


def test_the_random_agent_attempts_an_anomaly_and_play_goes_on() -> None:
    """The random-legal agent offers SearchAnomaly once an anomaly is present; what it picks is legal, and its
    games go on whatever the check gives (pass, or a discharge)."""
    from game.ai.random_agent import RandomAgent

    tried = 0
    for seed in range(40):
        st = board()
        st.rng = type(st.rng)(seed)
        activate(st, "a1")
        a = RandomAgent(seed).choose(st)
        validate(st, a)
        if isinstance(a, SearchAnomaly):
            tried += 1
            apply(st, a)
            assert st.models["a1"].artifacts or st.locations["hs"].anomaly_tried == ["a1"] or not st.models[
                "a1"].in_play
    assert tried >= 3
