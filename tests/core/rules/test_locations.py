"""Locations (MISSION-8.2): data on the scenario and in the state, refused when unplayable, and the Reaction Radius
trigger of a player model's path (GEO-19, GAP-49, GAP-50, TURN-8, HOSTILE-8.3.NO-TRIGGER, TV-40)."""
from __future__ import annotations

import dataclasses
import json

import pytest

from game.core.actions import BoltToss, IllegalAction, Inspect, Move
from game.core.dice import ScriptedDice
from game.core.geometry.zone import path_triggers
from game.core.record import Record, RecordError, load_save, save_game
from game.core.rules.apply import apply
from game.core.rules.locations import HOSTILE_TABLE, entries
from game.core.rules.scouting import bolt_tn, inspect_shift, roll_choices
from game.core.rules.setup import LocationSpec, new_game, scenario
from game.core.state import GameState, LocationError, LocationState, SideKind
from tests.enginekit import activate, game, profile, settle

SPAWN = [3, 4, 0.0]  # the spawn's dice: D6 3 (TL1: Feral Dogs, one pack), its deviation D10 4 and angle 0


def spot(lid: str, x: float, y: float, *, tl: int = 1, kind: str = "hotspot") -> LocationState:
    return LocationState(lid, f"the {lid}", kind, x, y, tl)


def crew_game(pos: tuple[float, float], *locs: LocationState, move: float = 16.0, settings: dict | None = None,
              hostile: bool = False) -> GameState:
    st = game([("a1", "a", profile(move=move), pos), ("b1", "b", profile(), (34.0, 34.0))], settings=settings)
    for loc in locs:
        st.locations[loc.id] = loc
    if hostile:
        st.sides[0].kind = SideKind.HOSTILE
    activate(st, "a1")
    return st


def triggered(ev: list) -> list:
    return [e for e in ev if e.type == "location_triggered"]


# --- the trigger geometry (GEO-19) ------------------------------------------------------------------------------


def test_tv40_pass_at_3_4_triggers_and_at_3_6_does_not() -> None:
    """TV-40 (GEO-19): hot spot at (0,0), r = 0.5, path (-5, 3.4) -> (5, 3.4): 3.4 <= 3.5 triggers; y = 3.6 does not.
    The same vector through the geometry and through a Move (the table shifted by (15, 15))."""
    (fact,) = path_triggers([(-5.0, 3.4), (5.0, 3.4)], 0.5, {"hs": (0.0, 0.0)})
    assert fact.triggered and fact.min_distance == pytest.approx(3.4) and fact.limit == 3.5
    (fact,) = path_triggers([(-5.0, 3.6), (5.0, 3.6)], 0.5, {"hs": (0.0, 0.0)})
    assert not fact.triggered

    st = crew_game((10.0, 18.4), spot("hs", 15.0, 15.0))
    (e,) = triggered(apply(st, Move("a1", ((20.0, 18.4),))))
    assert e.data["location"] == "hs" and e.data["distance"] == pytest.approx(3.4) and e.data["limit"] == 3.5
    assert e.rules[0] == "GEO-19" and "MISSION-8.2.TRIGGER" in e.rules
    loc = st.locations["hs"]
    assert loc.triggered and loc.triggered_by == "a1" and loc.triggered_side == "a" and loc.triggered_turn == 1
    assert loc.force == "zone-hs" and st.trigger_queue == []  # its Zone Hostiles appeared (HOSTILE-8.3.ROLL, TURN-8)

    st = crew_game((10.0, 18.6), spot("hs", 15.0, 15.0))
    assert not triggered(apply(st, Move("a1", ((20.0, 18.6),))))
    assert not st.locations["hs"].triggered and st.trigger_queue == []


def test_ending_within_the_radius_triggers() -> None:
    """MISSION-8.2.TRIGGER / GEO-19: "ends its move within" 3" + r."""
    st = crew_game((5.0, 15.0), spot("hs", 15.0, 15.0))
    (e,) = triggered(apply(st, Move("a1", ((11.6, 15.0),))))
    assert e.data["distance"] == pytest.approx(3.4) and e.data["entered_at"] == pytest.approx(6.5)


def test_a_location_triggers_once() -> None:
    """MISSION-8.2.TRIGGER (`trigger.once`=true, GEO-19): an already triggered location is ignored."""
    st = crew_game((5.0, 15.0), spot("hs", 15.0, 15.0))
    assert len(triggered(apply(st, Move("a1", ((12.0, 15.0),))))) == 1
    settle(st)
    assert not triggered(apply(st, Move("a1", ((5.0, 15.0), (5.0, 20.0)))))
    assert [s.id for s in st.sides if s.kind is SideKind.HOSTILE] == ["zone-hs"]


@pytest.mark.setting("trigger.once")
def test_trigger_once_false_lets_a_location_trigger_again() -> None:
    """`trigger.once`=false: each action whose path enters the radius triggers the location again."""
    st = crew_game((5.0, 15.0), spot("hs", 15.0, 15.0), settings={"trigger.once": False})
    assert len(triggered(apply(st, Move("a1", ((12.0, 15.0),))))) == 1
    settle(st)
    (e,) = triggered(apply(st, Move("a1", ((5.0, 15.0), (5.0, 20.0)))))
    settle(st)
    assert e.data["again"] is True
    assert [s.id for s in st.sides if s.kind is SideKind.HOSTILE] == ["zone-hs", "zone-hs-2"]


def test_a_searched_location_never_triggers() -> None:
    """GEO-19: looted locations are ignored, whatever `trigger.once` says."""
    loc = spot("hs", 15.0, 15.0)
    loc.searched = True
    st = crew_game((5.0, 15.0), loc, settings={"trigger.once": False})
    assert not triggered(apply(st, Move("a1", ((20.0, 15.0),))))


def test_several_locations_of_one_action_in_the_order_entered() -> None:
    """TURN-8 / GAP-49: several locations of one path trigger in the order entered, not the order the game lists
    them (the geometry reports map order)."""
    far, near = spot("far", 20.0, 15.0), spot("near", 10.0, 15.0)
    st = crew_game((2.0, 15.0), far, near, move=26.0)  # listed far first
    ev = triggered(apply(st, Move("a1", ((28.0, 15.0),))))
    assert [e.data["location"] for e in ev] == ["near", "far"]
    assert ev[0].data["entered_at"] == pytest.approx(4.5) and ev[1].data["entered_at"] == pytest.approx(14.5)
    assert st.spawning.location == "near" and st.trigger_queue == ["far"]  # resolved in the order entered
    settle(st)
    assert [s for s in st.order if s.startswith("zone-")] == ["zone-near", "zone-far"]
    # a bent path: the first waypoint passes the second-listed location first
    locs = {"a": spot("a", 30.0, 5.0), "b": spot("b", 5.0, 30.0)}
    order = [e.location for e in entries([(5.0, 5.0), (5.0, 33.0), (33.0, 5.0)], 0.5, locs)]
    assert order == ["b", "a"]


def test_a_path_starting_inside_an_untriggered_radius_enters_it_at_once() -> None:
    """GEO-19: the path passes through the radius from its first point (entry 0")."""
    locs = {"x": spot("x", 10.0, 10.0), "y": spot("y", 11.0, 10.0)}
    (first, second) = entries([(12.0, 10.0), (30.0, 10.0)], 0.5, locs)
    assert first.at == 0.0 and second.at == 0.0 and [first.location, second.location] == ["x", "y"]


def test_hostiles_never_trigger() -> None:
    """HOSTILE-8.3.NO-TRIGGER / AI-C.6: a hostile model's path is ignored."""
    st = crew_game((5.0, 15.0), spot("hs", 15.0, 15.0), hostile=True)
    assert not triggered(apply(st, Move("a1", ((20.0, 15.0),))))
    assert not st.locations["hs"].triggered


def test_a_game_with_locations_reports_them_not_the_map_anchors() -> None:
    """docs/formats.md: `location_triggered` replaces `reaction_radius` in a game with locations."""
    from game.core.battlefield import Anchor

    st = crew_game((5.0, 15.0), spot("hs", 15.0, 15.0))
    st.battlefield = dataclasses.replace(st.battlefield, anchors=(Anchor(3, "hotspot-a", (15.0, 15.0),
                                                                         kind="hotspot"),), cache={})
    ev = apply(st, Move("a1", ((20.0, 15.0),)))
    assert [e.type for e in ev if e.type in ("reaction_radius", "location_triggered")] == ["location_triggered"]


def test_the_event_reads_as_a_line() -> None:
    from game.core.events import describe

    st = crew_game((5.0, 15.0), spot("hs", 15.0, 15.0, tl=2))
    (e,) = triggered(apply(st, Move("a1", ((12.0, 15.0),))))
    assert describe(e).startswith("  a1 (a) triggers the hs (hotspot, TL2)")


# --- locations as data -------------------------------------------------------------------------------------------


def with_locations(*specs: LocationSpec):  # type: ignore[no-untyped-def]
    return dataclasses.replace(scenario("open-table-demo"), locations=specs)


def test_scenario_locations_enter_the_state_and_round_trip() -> None:
    """MISSION-8.2: a scenario's Hot Spots and MO (point, footprint, TL, search requirements) are state data."""
    sc = with_locations(LocationSpec("shed", "the shed", "hotspot", (12.0, 20.0), 2,
                                     footprint=((11.0, 19.0), (13.0, 19.0), (13.0, 21.0)), search_actions=2,
                                     search_difficulty=1),
                        LocationSpec("mo", "the bunker", "objective", (18.0, 18.0), 1))
    st, ev = new_game(sc, 3)
    assert list(st.locations) == ["shed", "mo"]
    shed = st.locations["shed"]
    assert (shed.kind, shed.x, shed.y, shed.tl, shed.search_actions, shed.search_difficulty) == (
        "hotspot", 12.0, 20.0, 2, 2, 1)
    assert ev[0].data["locations"][1] == {"id": "mo", "name": "the bunker", "kind": "objective",
                                          "point": [18.0, 18.0], "tl": 1}
    shed.triggered, shed.triggered_by = True, "v-boris"
    st.trigger_queue.append("shed")
    back = GameState.from_json(json.loads(json.dumps(st.to_json())))
    assert back.locations == st.locations and back.trigger_queue == ["shed"]
    assert back.to_json() == st.to_json()


def test_a_scenario_without_locations_sets_up_as_before() -> None:
    st, ev = new_game(scenario("open-table-demo"), 3)
    assert st.locations == {} and "locations" not in ev[0].data


@pytest.mark.parametrize(("spec", "field", "allowed"), [
    (LocationSpec("hs", "x", "hotspot", (5.0, 5.0), 4), "'tl'", "0, 1, 2 or 3"),
    (LocationSpec("hs", "x", "hotspot", (5.0, 5.0), -1), "'tl'", "0, 1, 2 or 3"),
    (LocationSpec("hs", "x", "cache", (5.0, 5.0), 1), "'kind'", "hotspot, objective"),
    (LocationSpec("hs", "x", "hotspot", (40.0, 5.0), 1), "'x, y'", "0 <= x <= 36"),
    (LocationSpec("hs", "x", "hotspot", (5.0, 5.0), 1, footprint=((4.0, 4.0), (6.0, -1.0), (6.0, 6.0))),
     "'footprint[1]'", "0 <= y <= 36"),
    (LocationSpec("hs", "x", "hotspot", (5.0, 5.0), 1, footprint=((4.0, 4.0), (6.0, 4.0))), "'footprint'",
     "3 or more"),
    (LocationSpec("hs", "x", "objective", (5.0, 5.0), 1, search_actions=0), "'search_actions'", ">= 1"),
])
def test_an_unplayable_location_is_refused_naming_the_field(spec: LocationSpec, field: str, allowed: str) -> None:
    """Issue 14, bad input: a TL outside 0-3, a location off the table or an unknown kind is refused before play."""
    with pytest.raises(LocationError) as ei:
        new_game(with_locations(spec), 3)
    msg = str(ei.value)
    assert "scenario open-table-demo" in msg and "location 'hs'" in msg and field in msg and allowed in msg
    assert "\n" not in msg


def test_a_duplicate_location_id_is_refused() -> None:
    spec = LocationSpec("hs", "x", "hotspot", (5.0, 5.0), 1)
    with pytest.raises(ValueError, match="given twice"):
        new_game(with_locations(spec, spec), 3)


def test_a_save_with_a_bad_location_is_refused_in_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A saved state with a TL outside 0-3 fails to load with the file, the field and what is allowed."""
    st, _ = new_game(with_locations(LocationSpec("hs", "x", "hotspot", (5.0, 5.0), 1)), 3)
    rec = Record(scenario="open-table-demo", seed=3, settings={}, actions=[])
    path = tmp_path / "s.json"
    save_game(path, st, rec)
    data = json.loads(path.read_text())
    data["state"]["locations"]["hs"]["tl"] = 5
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError) as ei:
        load_save(path)
    msg = str(ei.value)
    assert str(path) in msg and "'tl'" in msg and "0, 1, 2 or 3" in msg and "\n" not in msg


def test_an_old_save_without_locations_loads() -> None:
    """Saves made before locations existed load with none (new fields have defaults)."""
    st, _ = new_game(scenario("open-table-demo"), 3)
    data = st.to_json()
    del data["locations"], data["trigger_queue"]
    back = GameState.from_json(data)
    assert back.locations == {} and back.trigger_queue == []


# --- Inspect (CORE-3.3.INSPECT, GEO-23, GAP-52) ------------------------------------------------------------------


def inspect_game(pos: tuple[float, float], *, binoculars: bool = False, settings: dict | None = None,
                 hostile: bool = False) -> GameState:
    st = game([("a1", "a", profile(), pos), ("b1", "b", profile(), (34.0, 34.0))], settings=settings,
              items={"a1": ["binoculars"]} if binoculars else None)
    st.locations["hs"] = spot("hs", 17.4, 15.0, tl=2)
    if hostile:
        st.sides[0].kind = SideKind.HOSTILE
    activate(st, "a1")
    return st


def ctx_of(st: GameState):  # type: ignore[no-untyped-def]
    from game.core.rules.context import Ctx

    return Ctx(st, st.rng, st.battlefield)


def test_inspect_in_12_inches_and_los_marks_the_location_for_this_turn() -> None:
    """CORE-3.3.INSPECT / GEO-23: max(0, |cA - pL| - rA) <= 12 and LOS; the player may shift the roll this turn."""
    st = inspect_game((5.0, 15.0))  # 12.4" centre to point, 11.9" from the base
    (e,) = [e for e in apply(st, Inspect("a1", "hs")) if e.type == "inspect"]
    assert e.data["distance"] == pytest.approx(11.9) and e.data["limit"] == 12.0 and e.data["shift"] == 1
    assert e.rules[:3] == ("CORE-3.3.INSPECT", "GEO-23", "GAP-52")
    assert st.locations["hs"].inspected == {"a": 1} and st.activation.spent == 1
    assert inspect_shift(ctx_of(st), st.locations["hs"], "a") == 1
    assert inspect_shift(ctx_of(st), st.locations["hs"], "b") == 0  # GAP-52: only the inspecting player's trigger
    with pytest.raises(IllegalAction) as ei:  # GAP-52: no stacking
        apply(st, Inspect("a1", "hs"))
    assert ei.value.rule == "GAP-52"


def test_inspect_range_is_24_inches_with_binoculars() -> None:
    """GEO-23 / EQUIP-6.2.BINOCULARS: 12.5" from the base is out of range, unless the model carries Binoculars."""
    st = inspect_game((4.4, 15.0))
    with pytest.raises(IllegalAction) as ei:
        apply(st, Inspect("a1", "hs"))
    assert ei.value.rule == "GEO-23" and "12.50\" away" in ei.value.reason
    st = inspect_game((4.4, 15.0), binoculars=True)
    (e,) = [e for e in apply(st, Inspect("a1", "hs")) if e.type == "inspect"]
    assert e.data["limit"] == 24.0 and e.data["binoculars"] and "EQUIP-6.2.BINOCULARS" in e.rules


def test_inspect_refusals() -> None:
    """AI-C.6: hostiles never Inspect; a triggered location or an unknown one cannot be inspected."""
    st = inspect_game((5.0, 15.0), hostile=True)
    with pytest.raises(IllegalAction) as ei:
        apply(st, Inspect("a1", "hs"))
    assert ei.value.rule == "AI-C.6"
    st = inspect_game((5.0, 15.0))
    st.locations["hs"].triggered = True
    with pytest.raises(IllegalAction, match="already triggered"):
        apply(st, Inspect("a1", "hs"))
    with pytest.raises(IllegalAction, match="no location 'nope'"):
        apply(st, Inspect("a1", "nope"))


def test_tv35_inspect_choices() -> None:
    """TV-35: a 6 at TL2 with Inspect -> 5 (Bandits, anomaly) or 6 (Mutant, anomaly); a 1 -> 1 or 2; never 0 or 7."""
    assert roll_choices(6, 1) == (5, 6)
    assert [HOSTILE_TABLE[2][r] for r in roll_choices(6, 1)] == [("Bandits", 4, True), ("Mutant", 1, True)]
    assert roll_choices(1, 1) == (1, 2)
    assert roll_choices(4, 0) == (4,)
    assert all(set(roll_choices(r, 1)) <= set(range(1, 7)) for r in range(1, 7))


@pytest.mark.setting("inspect.max_shift")
def test_inspect_max_shift_sets_how_far_the_roll_moves() -> None:
    """`inspect.max_shift`=2: the inspecting player may move the D6 by up to 2 (clamped to 1-6)."""
    st = inspect_game((5.0, 15.0), settings={"inspect.max_shift": 2})
    (e,) = [e for e in apply(st, Inspect("a1", "hs")) if e.type == "inspect"]
    shift = inspect_shift(ctx_of(st), st.locations["hs"], "a")
    assert e.data["shift"] == 2 and shift == 2 and roll_choices(6, shift) == (4, 5, 6)


@pytest.mark.setting("inspect.own_trigger_only")
def test_inspect_own_trigger_only_false_lets_any_trigger_use_it() -> None:
    """`inspect.own_trigger_only`=false: an Inspect made this turn shifts the roll whoever triggers the location."""
    st = inspect_game((5.0, 15.0), settings={"inspect.own_trigger_only": False})
    apply(st, Inspect("a1", "hs"))
    assert inspect_shift(ctx_of(st), st.locations["hs"], "b") == 1
    st.turn = 2
    assert inspect_shift(ctx_of(st), st.locations["hs"], "b") == 0  # "this turn" only


# --- Bolt Toss (MISSION-8.2.BOLT-TOSS, GAP-51) ------------------------------------------------------------------


def bolt_game(pos: tuple[float, float] = (5.0, 15.0), *, settings: dict | None = None,
              hostile: bool = False) -> GameState:
    st = game([("a1", "a", profile(ca=5), pos), ("b1", "b", profile(), (34.0, 34.0))], settings=settings)
    st.locations["hs"] = spot("hs", 20.0, 15.0)
    if hostile:
        st.sides[0].kind = SideKind.HOSTILE
    activate(st, "a1")
    return st


def test_a_bolt_that_lands_triggers_the_location_for_the_thrower() -> None:
    """GAP-51: 1 die vs CA -1 (point in LOS); a success triggers the location; the thrower's player rolls."""
    st = bolt_game()
    ev = apply(st, BoltToss("a1", "hs", 18.0, 15.0), ScriptedDice([4, *SPAWN]))
    (roll,) = [e for e in ev if e.type == "roll"]
    assert roll.data["tn"] == 4 and roll.data["successes"] == 1
    (bolt,) = [e for e in ev if e.type == "bolt_toss"]
    assert bolt.data["success"] and bolt.data["indirect"] == "in_los"
    (trig,) = triggered(ev)
    assert trig.data["how"] == "bolt" and trig.data["side"] == "a"
    (hr,) = [e for e in ev if e.type == "hostile_roll"]
    assert hr.data["side"] == "a" and hr.data["roll"] == 3
    settle(st)
    assert st.locations["hs"].triggered_side == "a" and st.activation.spent == 1
    with pytest.raises(IllegalAction) as ei:  # trigger.once: nothing left to trigger
        apply(st, BoltToss("a1", "hs", 18.0, 15.0), ScriptedDice([4]))
    assert ei.value.rule == "MISSION-8.2.TRIGGER"


def test_a_bolt_that_misses_wastes_the_action() -> None:
    """MISSION-8.2.BOLT-TOSS: on failure the action is wasted and nothing happens (no deviation)."""
    st = bolt_game()
    ev = apply(st, BoltToss("a1", "hs", 18.0, 15.0), ScriptedDice([5]))
    assert not triggered(ev) and not st.locations["hs"].triggered and st.activation.spent == 1
    assert [e.data["success"] for e in ev if e.type == "bolt_toss"] == [False]


def test_bolt_refusals() -> None:
    """GAP-51: the point within 3" of the location point and 18" of the thrower; AI-C.6: never by hostiles."""
    st = bolt_game()
    with pytest.raises(IllegalAction) as ei:
        apply(st, BoltToss("a1", "hs", 16.5, 15.0))
    assert ei.value.rule == "GAP-51" and "Reaction Radius" in ei.value.reason
    st = bolt_game((1.0, 15.0))
    with pytest.raises(IllegalAction) as ei:
        apply(st, BoltToss("a1", "hs", 19.9, 15.0))  # 18.9" from the thrower's centre, 18.4" from its base
    assert ei.value.rule == "GAP-51" and "reaches 18\"" in ei.value.reason
    st = bolt_game(hostile=True)
    with pytest.raises(IllegalAction) as ei:
        apply(st, BoltToss("a1", "hs", 18.0, 15.0))
    assert ei.value.rule == "AI-C.6"


def test_actions_round_trip_through_json() -> None:
    from game.core.actions import action_from_json

    for a in (Inspect("a1", "hs"), BoltToss("a1", "hs", 18.0, 15.5)):
        assert action_from_json(json.loads(json.dumps(a.to_json()))) == a


@pytest.mark.setting("bolt.range")
def test_bolt_range_setting() -> None:
    st = bolt_game((1.0, 15.0), settings={"bolt.range": 24.0})
    assert triggered(apply(st, BoltToss("a1", "hs", 19.9, 15.0), ScriptedDice([1, *SPAWN])))


@pytest.mark.setting("bolt.target_radius")
def test_bolt_target_radius_setting() -> None:
    st = bolt_game(settings={"bolt.target_radius": 4.0})
    (trig,) = triggered(apply(st, BoltToss("a1", "hs", 16.5, 15.0), ScriptedDice([2, *SPAWN])))
    assert trig.data["limit"] == 4.0


@pytest.mark.setting("bolt.dice")
def test_bolt_dice_setting() -> None:
    """`bolt.dice`=2: two dice against the TN, one success is enough."""
    st = bolt_game(settings={"bolt.dice": 2})
    ev = apply(st, BoltToss("a1", "hs", 18.0, 15.0), ScriptedDice([9, 3, *SPAWN]))
    assert triggered(ev) and [e.data["dice"] for e in ev if e.type == "roll"] == [[9, 3]]


@pytest.mark.setting("bolt.in_los_mod", "bolt.no_los_mod")
def test_bolt_modifier_settings() -> None:
    """GAP-51: -1 with the point in LOS, -3 without; each a setting."""
    st = bolt_game(settings={"bolt.in_los_mod": 0})
    assert triggered(apply(st, BoltToss("a1", "hs", 18.0, 15.0), ScriptedDice([5, *SPAWN])))  # TN 5 now
    st = bolt_game()
    m = st.models["a1"]
    assert bolt_tn(ctx_of(st), m, "no_los").value == 2
    st = bolt_game(settings={"bolt.no_los_mod": -1})
    assert bolt_tn(ctx_of(st), st.models["a1"], "no_los").value == 4


def test_an_engaged_model_may_not_inspect_or_toss_a_bolt() -> None:
    """GAP-78 (`melee.engaged_actions`): neither Inspect nor Bolt Toss is on an Engaged model's list."""
    st = game([("a1", "a", profile(), (5.0, 15.0)), ("b1", "b", profile(), (6.0, 15.0))])
    st.locations["hs"] = spot("hs", 10.0, 15.0)
    activate(st, "a1")
    for action in (Inspect("a1", "hs"), BoltToss("a1", "hs", 10.0, 15.0)):
        with pytest.raises(IllegalAction) as ei:
            apply(st, action)
        assert ei.value.rule == "GAP-78"


def test_turn4_no_deployment_inside_a_scenario_locations_reaction_radius() -> None:
    """TURN-4: a model may not start inside the 3" Reaction Radius of a scenario's location (MISSION-8.2), as of a
    map anchor's."""
    from game.core.actions import Deploy
    from game.core.state import Phase

    st = game([("a1", "a", profile(), (3, 3))])
    st.models["a1"].deployed = False
    st.phase, st.deciding = Phase.DEPLOY, "a"
    st.locations["hs"] = spot("hs", 5.0, 5.0)
    with pytest.raises(IllegalAction) as ei:
        apply(st, Deploy("a1", 3.0, 3.0))
    assert ei.value.rule == "TURN-4" and "Reaction Radius of the hs" in ei.value.reason
    del st.locations["hs"]
    apply(st, Deploy("a1", 3.0, 3.0))
    assert st.models["a1"].deployed
