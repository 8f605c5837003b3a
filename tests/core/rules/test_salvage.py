"""Salvage (SALVAGE-8.4.SEARCH, SALVAGE-8.4.TABLE, SALVAGE-8.4.BACKPACK, GAP-26, GAP-57, GAP-58, GAP-60, TV-36): the
D6 a completed Search rolls on the location's TL column, its equipment rolls (a 6 is a choice), the Scrounger's
second search, the Mission Objective's loot and free roll, all stowed with the searcher."""
from __future__ import annotations

import json

import pytest

from game.ai.random_agent import RandomAgent
from game.core.actions import ChooseFoundItem, EndActivation, IllegalAction, Interrupt, Search
from game.core.dice import ScriptedDice
from game.core.rules.apply import apply, validate
from game.core.rules.context import read_ctx
from game.core.rules.outcome import advances_earned, mission_result
from game.core.rules.salvage import table_items
from game.core.rules.setup import LocationSpec, LootSpec
from game.core.state import GameState, LocationError, LocationState, Phase, check_location
from tests.enginekit import activate, profile
from tests.zonekit import zone_game


def row(e) -> tuple:
    return e.data["value"], e.data["equipment_rolls"], e.data["table"], e.data["anomaly"]


def searched(tl: int, roll: int, *, settings: dict | None = None, environment: str = "",
             equipment: tuple[int, ...] = (1, 1, 1)) -> tuple:
    """A TL `tl` Hot Spot searched by a1 with the Salvage D6 `roll`, then the equipment D6s `equipment`."""
    st = zone_game([("a1", "a", profile(), (15.6, 15.0)), ("b1", "b", profile(), (34.0, 34.0))], settings=settings)
    st.environment = environment
    st.locations["hs"] = LocationState("hs", "the shed", "hotspot", 15.0, 15.0, tl, triggered=True)
    activate(st, "a1")
    ev = apply(st, Search("a1", "hs"), ScriptedDice([roll, *equipment]))
    return st, [e for e in ev if e.type == "salvage"]


@pytest.mark.parametrize("tl, roll, value, rolls, table, anomaly", [
    (1, 1, 200, 0, "", False), (1, 5, 350, 1, "basic", False), (2, 4, 500, 2, "basic", False),
    (2, 5, 750, 2, "basic", True), (3, 3, 1000, 0, "", False), (3, 5, 1000, 2, "advanced", True),
    (1, 6, 500, 1, "basic", True), (2, 6, 1000, 2, "basic", True), (3, 6, 1250, 2, "advanced", True),
])
def test_the_salvage_table(tl: int, roll: int, value: int, rolls: int, table: str, anomaly: bool) -> None:
    """SALVAGE-8.4.TABLE rows 1-5 and GAP-26's row 6 (`salvage.row6`); the `*` rows reveal an anomaly (GAP-54)."""
    st, (e,) = searched(tl, roll)
    assert row(e) == (value, rolls, table, anomaly)
    assert st.locations["hs"].anomaly is anomaly and st.locations["hs"].searched
    (item,) = st.models["a1"].salvage  # SALVAGE-8.4.BACKPACK: stowed with the searcher
    assert item["value"] == value and item["location"] == "hs" and item["equipment_rolls"] == rolls


def test_tv36_tl3_roll_4_and_high_radiation() -> None:
    """TV-36: TL3 roll 4 -> 750 ZS + 2 Advanced rolls + anomaly; with High Radiation 1,500 ZS, the rolls not doubled
    (GAP-58, `env.high_rad`=double_value)."""
    _, (e,) = searched(3, 4)
    assert row(e) == (750, 2, "advanced", True)
    _, (e,) = searched(3, 4, environment="high_radiation")
    assert e.data["value"] == 1500 and e.data["equipment_rolls"] == 2 and "GAP-58" in e.rules


def test_tl0_has_no_salvage_table() -> None:
    """GAP-60: TL0 (White) has no Salvage table: the search loots the location and rolls nothing."""
    st, (e,) = searched(0, 3)
    assert e.data["roll"] is None and not st.models["a1"].salvage


@pytest.mark.setting("salvage.row6.tl1.value", "salvage.row6.tl1.rolls", "salvage.row6.tl1.table",
                     "salvage.row6.tl1.anomaly", "salvage.row6.tl2.value", "salvage.row6.tl2.rolls",
                     "salvage.row6.tl2.table", "salvage.row6.tl2.anomaly", "salvage.row6.tl3.value",
                     "salvage.row6.tl3.rolls", "salvage.row6.tl3.table", "salvage.row6.tl3.anomaly")
@pytest.mark.parametrize("tl", [1, 2, 3])
def test_row6_settings(tl: int) -> None:
    """GAP-26 (`salvage.row6.*`): row 6's value, rolls, table and anomaly are settings."""
    k = f"salvage.row6.tl{tl}"
    _, (e,) = searched(tl, 6, settings={f"{k}.value": 900, f"{k}.rolls": 3, f"{k}.table": "special",
                                        f"{k}.anomaly": False})
    assert row(e) == (900, 3, "special", False)


# --- equipment rolls (GAP-57) ---------------------------------------------------------------------------------


@pytest.mark.setting("equip.roll")
@pytest.mark.parametrize("table, faces, items", [
    ("basic", (1, 5), ["binoculars", "red_dot"]), ("advanced", (1, 3), ["detector", "nods"]),
    ("advanced", (2, 5), ["tool_kit", "scope"]),
])
def test_equipment_rolls_follow_the_catalog_order(table: str, faces: tuple, items: list) -> None:
    """GAP-57 (`equip.roll`=d6_6_is_choice): each owed roll is a D6 on its table in the catalog's `number`
    order (EQUIP-6.2.BASIC/ADVANCED); the items are stowed with the searcher (SALVAGE-8.4.BACKPACK), not carried."""
    tl, roll = (1, 5) if table == "basic" else (3, 4)
    st, _ = searched(tl, roll, equipment=faces[: 1 if table == "basic" else 2])
    got = st.models["a1"].salvage[0]["items"]
    assert got == items[: len(got)] and len(got) == (1 if table == "basic" else 2)
    assert st.models["a1"].items == []  # stowed: nothing in its slots this mission
    assert st.phase is Phase.ACTION


def test_a_six_is_the_searching_sides_free_choice() -> None:
    """GAP-57: a 6 on an equipment roll is the searching player's choice from that table: a FOUND_ITEM decision of
    side a; an item from another table is refused; the choice is stowed and play goes on."""
    st, _ = searched(2, 4, equipment=(6, 2))  # TL2 roll 4: 500 ZS + 2 Basic rolls
    assert st.phase is Phase.FOUND_ITEM and st.deciding == "a"
    assert st.models["a1"].salvage[0]["items"] == ["electric_juice"]
    with pytest.raises(IllegalAction, match="not on the basic equipment table"):
        validate(st, ChooseFoundItem("a", "scope"))
    with pytest.raises(IllegalAction, match="GAP-57"):
        validate(st, ChooseFoundItem("b", "gas_mask"))
    with pytest.raises(IllegalAction):
        validate(st, EndActivation("a1"))  # the choice comes first
    ev = apply(st, ChooseFoundItem("a", "red_dot"), ScriptedDice([]))
    assert [e.type for e in ev][0] == "equipment_chosen" and "GAP-57" in ev[0].rules
    assert st.models["a1"].salvage[0]["items"] == ["electric_juice", "red_dot"]
    assert st.phase is Phase.ACTION and st.deciding == "a" and st.activation is not None
    assert st.activation.spent == 1  # the Search's one action


@pytest.mark.setting("equip.roll")
def test_d6_6_reroll_rolls_a_six_again() -> None:
    """GAP-57 alternative (`equip.roll`=d6_6_reroll): a 6 is rolled again until it shows 1-5; no decision."""
    st, _ = searched(1, 4, settings={"equip.roll": "d6_6_reroll"}, equipment=(6, 6, 3))
    assert st.models["a1"].salvage[0]["items"] == ["gas_mask"] and st.phase is Phase.ACTION


def test_high_radiation_never_doubles_the_equipment_rolls() -> None:
    """GAP-58 / TV-36: High Radiation doubles the Value, the equipment rolls stay 2 (two items)."""
    st, (e,) = searched(3, 4, environment="high_radiation", equipment=(1, 2))
    assert e.data["value"] == 1500 and st.models["a1"].salvage[0]["items"] == ["detector", "tool_kit"]


# --- the Scrounger (SKILL-6.1.SCROUNGER, SALVAGE-8.4.SEARCH) ------------------------------------------------


def scrounger_board(skills: tuple = ("scrounger",)) -> GameState:
    st = zone_game([("a1", "a", profile(skills=skills, actions=3), (15.6, 15.0)),
                    ("a2", "a", profile(), (14.4, 15.0)), ("b1", "b", profile(), (34.0, 34.0))])
    st.locations["hs"] = LocationState("hs", "the shed", "hotspot", 15.0, 15.0, 1, triggered=True)
    return st


def test_a_scrounger_searches_a_hot_spot_twice() -> None:
    """SKILL-6.1.SCROUNGER / SALVAGE-8.4.SEARCH: two Search actions, two Salvage rolls, by the Scrounger alone;
    then nobody searches it again; the Hot Spot counts once for POST-8.5.EARN."""
    st = scrounger_board()
    activate(st, "a1")
    apply(st, Search("a1", "hs"), ScriptedDice([1]))
    ev = apply(st, Search("a1", "hs"), ScriptedDice([3]))
    (sv,) = [e for e in ev if e.type == "salvage"]
    assert sv.data["value"] == 500 and "SKILL-6.1.SCROUNGER" in [e for e in ev if e.type == "search"][0].rules
    assert [x["value"] for x in st.models["a1"].salvage] == [200, 500]
    with pytest.raises(IllegalAction, match="already been searched"):
        validate(st, Search("a1", "hs"))  # a third time: no
    assert advances_earned(st, "a").hot_spots == 1


def test_only_the_scrounger_searches_again() -> None:
    """SALVAGE-8.4.SEARCH: the second search is the Scrounger's; another model, or a model without the skill, is
    refused."""
    st = scrounger_board()
    activate(st, "a1")
    apply(st, Search("a1", "hs"), ScriptedDice([1]))
    apply(st, EndActivation("a1"), ScriptedDice([]))
    activate(st, "a2")
    with pytest.raises(IllegalAction, match="already been searched"):
        validate(st, Search("a2", "hs"))
    st = scrounger_board(skills=())
    activate(st, "a1")
    apply(st, Search("a1", "hs"), ScriptedDice([1]))
    with pytest.raises(IllegalAction, match="SALVAGE-8.4.SEARCH"):
        validate(st, Search("a1", "hs"))


# --- the Mission Objective (MISSION-8.2.OBJECTIVE, GAP-60) -------------------------------------------------


def mo_board(loot: dict | None, tl: int = 1) -> GameState:
    st = zone_game([("a1", "a", profile(), (15.6, 15.0)), ("b1", "b", profile(), (34.0, 34.0))])
    st.locations["mo"] = LocationState("mo", "the camp", "objective", 15.0, 15.0, tl, triggered=True, loot=loot)
    return st


GAME_TWO = {"items": ["keycard"], "grenades": {"molotov": 1}, "equipment_rolls": [["basic", 2]], "value": 0,
            "tl_roll": True}


def test_the_mission_objective_loot_and_its_free_tl_roll() -> None:
    """MISSION-8.2.OBJECTIVE / GAP-60 (SCEN-10.2 "Salvage / reward"): the MO's search completes it for the
    searcher's side and gives the scenario loot (a keycard, a Molotov stowed, 2 Basic rolls) plus one free roll
    on its TL's Salvage table; the crew that completed it wins (SCEN-10.5.VICTORY) and earns 5 (POST-8.5.EARN)."""
    st = mo_board(GAME_TWO)
    activate(st, "a1")
    ev = apply(st, Search("a1", "mo"), ScriptedDice([4, 3, 2]))  # basic 4, 3; then the TL1 Salvage roll 2
    kinds = [e.type for e in ev]
    assert kinds.index("objective_completed") < kinds.index("loot") < kinds.index("salvage")
    assert st.objective == {"side": "a", "model": "a1", "location": "mo", "turn": 1}
    loot, roll = st.models["a1"].salvage
    assert loot["items"] == ["keycard", "medkit", "gas_mask"] and loot["grenades"] == {"molotov": 1}
    assert loot["fixed"] and loot["value"] == 0 and roll["value"] == 350 and roll["roll"] == 2
    assert st.models["a1"].grenades == {}  # stowed: not thrown this mission (SALVAGE-8.4.BACKPACK)
    r = mission_result(st)
    assert r["winner"] == "a" and r["decided_by"] == "objective" and r["advances"]["a"]["objective"] is True
    assert advances_earned(st, "a").total == 1 + 5  # a1 survives + the MO; the MO is no Hot Spot
    assert advances_earned(st, "a").hot_spots == 0


def test_the_mission_objective_without_loot_gives_its_free_roll_and_tl0_none() -> None:
    """GAP-60: with no loot the MO gives its free TL Salvage roll; at TL0 there is no table (and no roll); a fixed
    loot value is never doubled by High Radiation (GAP-58)."""
    st = mo_board(None, tl=2)
    activate(st, "a1")
    apply(st, Search("a1", "mo"), ScriptedDice([2]))
    assert [x["value"] for x in st.models["a1"].salvage] == [500] and st.objective is not None
    st = mo_board({"items": ["attache_case"], "value": 1000, "tl_roll": True}, tl=0)
    st.environment = "high_radiation"
    activate(st, "a1")
    ev = apply(st, Search("a1", "mo"), ScriptedDice([]))
    assert [x["value"] for x in st.models["a1"].salvage] == [1000]
    assert [e.data["roll"] for e in ev if e.type == "salvage"] == [None]
    st = mo_board({"items": ["keycard"], "tl_roll": False}, tl=1)
    activate(st, "a1")
    ev = apply(st, Search("a1", "mo"), ScriptedDice([]))
    assert not [e for e in ev if e.type == "salvage"] and st.models["a1"].salvage[0]["items"] == ["keycard"]


def test_loot_reaches_the_state_from_the_scenario_and_round_trips() -> None:
    """LocationSpec.loot -> LocationState.loot (plain JSON, saved and loaded); a bad loot is refused naming its
    field."""
    spec = LocationSpec("mo", "the camp", "objective", (15.0, 15.0), 1,
                        loot=LootSpec(items=("keycard",), grenades=(("molotov", 1),),
                                      equipment_rolls=(("basic", 2),)))
    loc = spec.state()
    assert loc.loot == GAME_TWO
    st = mo_board(loc.loot)
    back = GameState.from_json(json.loads(json.dumps(st.to_json())), st.battlefield)
    assert back.locations["mo"].loot == GAME_TWO
    bad = mo_board({"equipment_rolls": [["secret", 1]]})
    with pytest.raises(LocationError, match=r"field 'loot'.equipment_rolls .* basic, advanced, special"):
        check_location(bad.locations["mo"], bad.table)


def test_a_search_in_play_with_the_random_agent_never_stalls() -> None:
    """The random agent answers a FOUND_ITEM decision with an item of the table (GAP-57)."""
    st, _ = searched(2, 4, equipment=(6, 6))
    agent = RandomAgent(3)
    while st.phase is Phase.FOUND_ITEM:
        a = agent.choose(st)
        assert isinstance(a, ChooseFoundItem) and a.item in table_items(read_ctx(st), "basic")
        apply(st, a, ScriptedDice([]))
    assert len(st.models["a1"].salvage[0]["items"]) == 2 and st.phase is Phase.ACTION


def test_a_choice_owed_by_a_held_search_returns_to_the_interrupted_activation() -> None:
    """GAP-57 with TURN-7: b1 searches with its held Alert action during a's activation; its two 6s are b's two
    choices (FOUND_ITEM, side b), then the interrupt window closes and a's activation goes on."""
    st = zone_game([("a1", "a", profile(), (5.0, 5.0)), ("b1", "b", profile(), (15.6, 15.0))])
    st.locations["hs"] = LocationState("hs", "the shed", "hotspot", 15.0, 15.0, 2, triggered=True)
    st.units["b1"].alert = True
    activate(st, "a1")
    assert st.phase is Phase.INTERRUPT and st.deciding == "b"
    apply(st, Interrupt("b1", Search("b1", "hs")), ScriptedDice([4, 6, 6]))
    assert st.phase is Phase.FOUND_ITEM and st.deciding == "b" and len(st.found_choices) == 2
    apply(st, ChooseFoundItem("b", "medkit"), ScriptedDice([]))
    assert st.phase is Phase.FOUND_ITEM
    apply(st, ChooseFoundItem("b", "gas_mask"), ScriptedDice([]))
    assert st.phase is Phase.ACTION and st.deciding == "a" and st.activation is not None
    assert st.models["b1"].salvage[0]["items"] == ["medkit", "gas_mask"]


def test_a_save_from_before_salvage_loads_with_the_new_fields_at_their_defaults() -> None:
    """Saves keep working: a state written before this slice (no loot, searched_by, artifacts, wounded_by,
    objective, found_choices, blame) loads with their defaults."""
    st = mo_board(None)
    data = json.loads(json.dumps(st.to_json()))
    for key in ("objective", "found_choices", "blame"):
        del data[key]
    for m in data["models"].values():
        del m["artifacts"], m["wounded_by"]
    for loc in data["locations"].values():
        for key in ("searched_by", "loot", "anomaly_tried", "artifacts_taken", "anomaly_inert"):
            del loc[key]
    back = GameState.from_json(data, st.battlefield)
    assert back.objective is None and back.found_choices == [] and back.blame is None
    assert back.models["a1"].artifacts == [] and back.models["a1"].wounded_by is None
    assert back.locations["mo"].loot is None and back.locations["mo"].searched_by == []
