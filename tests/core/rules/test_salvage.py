"""Salvage (SALVAGE-8.4.SEARCH, SALVAGE-8.4.TABLE, SALVAGE-8.4.BACKPACK, GAP-26, GAP-58, TV-36): the D6 a completed
Search rolls on the location's TL column, stowed with the searcher."""
from __future__ import annotations

import pytest

from game.core.actions import Search
from game.core.dice import ScriptedDice
from game.core.rules.apply import apply
from game.core.state import LocationState
from tests.enginekit import activate, profile
from tests.zonekit import zone_game


def row(e) -> tuple:
    return e.data["value"], e.data["equipment_rolls"], e.data["table"], e.data["anomaly"]


def searched(tl: int, roll: int, *, settings: dict | None = None, environment: str = "") -> tuple:
    st = zone_game([("a1", "a", profile(), (15.6, 15.0)), ("b1", "b", profile(), (34.0, 34.0))], settings=settings)
    st.environment = environment
    st.locations["hs"] = LocationState("hs", "the shed", "hotspot", 15.0, 15.0, tl, triggered=True)
    activate(st, "a1")
    ev = apply(st, Search("a1", "hs"), ScriptedDice([roll]))
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
