"""Search (MISSION-8.2.CLEARING, SALVAGE-8.4.SEARCH, GAP-53): only a triggered location whose own hostiles are all
gone, by a player model within 1" of its point, once; never by hostiles (AI-C.6)."""
from __future__ import annotations

import pytest

from game.core.actions import IllegalAction, Search
from game.core.dice import ScriptedDice
from game.core.rules.apply import apply, validate
from game.core.state import LocationState
from tests.enginekit import activate, profile
from tests.zonekit import add_force, zone_game


def board(*, x: float = 15.6, triggered: bool = True, settings: dict | None = None, **loc) -> tuple:
    st = zone_game([("a1", "a", profile(), (x, 15.0)), ("b1", "b", profile(), (34.0, 34.0))], settings=settings)
    st.locations["hs"] = LocationState("hs", "the shed", "hotspot", 15.0, 15.0, 1, triggered=triggered, **loc)
    activate(st, "a1")
    return st


def refused(st, action) -> str:
    with pytest.raises(IllegalAction) as ei:
        validate(st, action)
    return ei.value.rule


def test_a_cleared_triggered_location_is_searched_once() -> None:
    """GAP-53: within 1" of the point (0.1" here); the search loots it: never again (SALVAGE-8.4.SEARCH)."""
    st = board()
    (e,) = [x for x in apply(st, Search("a1", "hs")) if x.type == "search"]
    assert e.data["searched"] and e.data["progress"] == 1 and "SALVAGE-8.4.SEARCH" in e.rules
    assert st.locations["hs"].searched and st.activation.spent == 1
    assert refused(st, Search("a1", "hs")) == "SALVAGE-8.4.SEARCH"


def test_its_own_hostiles_must_be_gone_first() -> None:
    """MISSION-8.2.CLEARING / GAP-53 (`search.cleared`=force_out): the models of its own force; others do not matter."""
    st = board()
    add_force(st, "zombies", [(30.0, 30.0)], location=(15.0, 15.0), loc_id="hs", units=1)
    st.locations["hs"].force = "zone-hs"
    assert refused(st, Search("a1", "hs")) == "MISSION-8.2.CLEARING"
    add_force(st, "zombies", [(30.0, 5.0)], location=(5.0, 5.0), loc_id="other", units=1)
    st.models["hs-zombies-1"].ooa = True
    validate(st, Search("a1", "hs"))


def test_the_searcher_stands_within_1_inch() -> None:
    st = board(x=17.0)  # edge 1.5" from the point
    assert refused(st, Search("a1", "hs")) == "GAP-53"


@pytest.mark.setting("search.range")
def test_search_range_setting() -> None:
    validate(board(x=17.0, settings={"search.range": 2.0}), Search("a1", "hs"))


def test_an_untriggered_location_cannot_be_searched() -> None:
    assert refused(board(triggered=False), Search("a1", "hs")) == "GAP-53"


@pytest.mark.setting("search.needs_trigger")
def test_search_needs_trigger_false() -> None:
    validate(board(triggered=False, settings={"search.needs_trigger": False}), Search("a1", "hs"))


def test_several_actions_and_a_skill_check() -> None:
    """MISSION-8.2.CLEARING: "some locations may demand more actions or a Skill Check": a free check first (a failure
    costs nothing and waits for a later activation), then the actions."""
    st = board(search_actions=2, search_difficulty=1)
    ev = apply(st, Search("a1", "hs"), ScriptedDice([9]))  # Will 5 - 1 = TN 4: a 9 fails
    assert [x.type for x in ev][-1] == "search_check_failed" and st.activation.spent == 0
    assert refused(st, Search("a1", "hs")) == "MISSION-8.2.CLEARING"
    st2 = board(search_actions=2, search_difficulty=1)
    apply(st2, Search("a1", "hs"), ScriptedDice([2]))
    assert not st2.locations["hs"].searched and st2.locations["hs"].search_progress == 1
    (e,) = [x for x in apply(st2, Search("a1", "hs")) if x.type == "search"]
    assert e.data["searched"] and e.data["needed"] == 2


def test_hostiles_never_search() -> None:
    """AI-C.6."""
    st = board()
    (unit,) = add_force(st, "bandit", [(15.6, 16.5)], location=(15.0, 15.0), loc_id="hs2", units=1)
    from tests.zonekit import activate_hostile

    activate_hostile(st, unit)
    assert refused(st, Search(unit, "hs")) == "AI-C.6"
