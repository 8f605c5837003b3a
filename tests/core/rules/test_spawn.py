"""Zone Hostiles appearing (TURN-8, HOSTILE-8.3.ROLL/TABLE/DEPLOY/FREE-MOVE/ACTIVATION, GEO-25, GAP-19..GAP-21,
GAP-52) and joining the activation cycle (TURN-5, TURN-5.1)."""
from __future__ import annotations

import json
import math

import pytest

from game.core.actions import ChooseHostileRoll, EndActivation, IllegalAction, Inspect, Move, StayPut
from game.core.battlefield import Battlefield, Cover, Movement, TerrainPiece, Zone
from game.core.dice import ScriptedDice
from game.core.geometry.polygon import rect
from game.core.rules.apply import apply, validate
from game.core.rules.context import Ctx
from game.core.rules.dispatch import ACTIONS
from game.core.rules.spawn import table_entry
from game.core.state import GameState, LocationState, Phase, SideKind
from tests.enginekit import activate, game, profile, settle


def spot(lid: str, x: float, y: float, *, tl: int = 1) -> LocationState:
    return LocationState(lid, f"the {lid}", "hotspot", x, y, tl)


def crew(pos=(5.0, 15.0), *locs: LocationState, settings: dict | None = None, pieces: tuple = (),
         move: float = 16.0) -> GameState:
    st = game([("a1", "a", profile(move=move), pos), ("b1", "b", profile(), (34.0, 34.0))], settings=settings,
              pieces=pieces)
    for loc in locs:
        st.locations[loc.id] = loc
    activate(st, "a1")
    return st


def spawned(ev: list) -> list:
    return [e for e in ev if e.type == "hostiles_spawned"]


def ctx_of(st: GameState) -> Ctx:
    return Ctx(st, ScriptedDice([]), st.battlefield, ACTIONS)


# --- the table (HOSTILE-8.3.TABLE, GAP-20, GAP-21) ----------------------------------------------------------


@pytest.mark.parametrize("tl, roll, hostile, figures, anomaly", [
    (1, 1, "vermin", 1, False), (1, 3, "dogs", 4, False), (1, 6, "bandit", 4, True),
    (2, 1, "vermin", 2, False), (2, 6, "mutant", 1, True), (3, 5, "mutant", 2, True), (3, 6, "large_mutant", 1, True),
])
def test_the_zone_hostiles_table(tl: int, roll: int, hostile: str, figures: int, anomaly: bool) -> None:
    """HOSTILE-8.3.TABLE: the result by TL and D6, the `*` rows mark an Anomaly (SALVAGE-8.4.ANOMALY-PRESENCE)."""
    assert table_entry(ctx_of(crew()), tl, roll) == (hostile, figures, anomaly)


@pytest.mark.setting("hostiles.vermin_x2")
def test_vermin_x2_setting() -> None:
    """GAP-21 (`hostiles.vermin_x2`): "Vermin Swarm (X 2)" at TL2 is 2 figures, or 4."""
    assert table_entry(ctx_of(crew(settings={"hostiles.vermin_x2": 4})), 2, 1) == ("vermin", 4, False)


# --- a trigger spawns (TURN-8) -------------------------------------------------------------------------------


def test_a_trigger_rolls_places_and_asks_for_the_free_move() -> None:
    """TURN-8: the triggering player rolls (HOSTILE-8.3.ROLL), one pack of 4 dogs (GAP-20) is placed by deviation
    from the location point (GEO-25: D10 4 -> 2", angle 0), then the pack's free move is asked (AI-S.SPAWN)."""
    st = crew((5.0, 15.0), spot("hs", 15.0, 15.0))
    ev = apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([3, 4, 0.0]))
    (roll,) = [e for e in ev if e.type == "hostile_roll"]
    assert roll.data["roll"] == 3 and roll.data["side"] == "a" and roll.data["choices"] == [3]
    (sp,) = spawned(ev)
    assert sp.data["hostile"] == "dogs" and sp.data["figures"] == 4 and sp.data["unit"] == "hs-dogs-1"
    assert sp.data["deviation"]["distance"] == 2.0 and sp.data["positions"][0] == [17.0, 15.0]
    assert sp.data["location"] == "hs" and sp.data["side"] == "zone-hs" and sp.data["actions"] == 1
    assert [e.type for e in ev].index("location_triggered") < [e.type for e in ev].index("hostile_roll")
    dogs = [st.models[m] for m in st.units["hs-dogs-1"].models]
    assert all(m.in_play and m.profile.move == 8.0 and m.profile.actions == 1 for m in dogs)
    for i, a in enumerate(dogs):  # GEO-25: legal, no overlap, a connected 1" chain
        assert all(math.hypot(a.x - b.x, a.y - b.y) >= a.radius + b.radius - 1e-9 for b in dogs[i + 1:])
    assert st.phase is Phase.SPAWN_MOVE and st.deciding == "zone-hs" and st.spawning.pending == ["hs-dogs-1"]
    side = st.side("zone-hs")
    assert side.kind is SideKind.HOSTILE and side.controller == "ai"
    assert st.ai["hs-dogs-1"].lock == "a1"  # AI-D.01: the only enemy it sees
    assert st.locations["hs"].force == "zone-hs" and st.locations["hs"].hostile_roll == 3


def test_bandits_are_one_unit_each_and_mark_an_anomaly() -> None:
    """GAP-20: each Bandit is its own unit (the four form one force), one deviation each; TL1 roll 6 is a `*` row."""
    st = crew((5.0, 15.0), spot("hs", 15.0, 15.0))
    ev = apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([6, 1, 0.0, 2, 1.5, 3, 3.0, 4, 4.5]))
    units = [e.data["unit"] for e in spawned(ev)]
    assert units == ["hs-bandit-1", "hs-bandit-2", "hs-bandit-3", "hs-bandit-4"]
    assert st.locations["hs"].anomaly and all(len(st.units[u].models) == 1 for u in units)
    b = st.models["hs-bandit-1"]
    assert b.profile.weapons == ("assault_rifle", "knife") and b.profile.armour == "improvised"
    assert b.profile.ca == 5 and b.profile.will == 5  # GAP-23 thugs


def test_placement_nudges_off_impassable_terrain() -> None:
    """GEO-25: a deviation into a wall ends at the nearest legal 0.25" grid point, inside the 12" leash."""
    wall = TerrainPiece(1, "wall", rect(16.0, 13.0, 19.0, 17.0), 0.0, 3.0, blocks_los=True, cover=Cover.HARD,
                        movement=Movement.IMPASSABLE)
    st = crew((5.0, 15.0), spot("hs", 15.0, 15.0), pieces=(wall,))
    ev = apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([5, 4, 0.0]))  # ghouls aimed at (17, 15): in the wall
    (sp,) = spawned(ev)
    first = sp.data["positions"][0]
    assert first[0] == pytest.approx(15.5) and first[1] == pytest.approx(15.0)  # 0.5" radius touching x = 16
    assert sp.data["deviation"]["point"] == [17.0, 15.0]


def test_inspect_lets_the_trigger_pick_a_result() -> None:
    """HOSTILE-8.3.ROLL / GAP-52 / TV-35: an Inspect this turn lets its player pick the D6 +-1 after seeing it; a
    result outside the shift is refused."""
    st = crew((5.0, 15.0), spot("hs", 15.0, 15.0))
    st.activation.budget = 3
    apply(st, Inspect("a1", "hs"))
    ev = apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([6]))
    (roll,) = [e for e in ev if e.type == "hostile_roll"]
    assert roll.data["choices"] == [5, 6] and st.phase is Phase.HOSTILE_ROLL and st.deciding == "a"
    with pytest.raises(IllegalAction) as ei:
        validate(st, ChooseHostileRoll("a", 4))
    assert ei.value.rule == "GAP-52"
    ev = apply(st, ChooseHostileRoll("a", 5), ScriptedDice([4, 0.0, 4, 1.0, 4, 2.0, 4, 3.0]))
    assert [e.type for e in ev][:2] == ["hostile_roll_chosen", "hostiles_spawned"]
    assert spawned(ev)[0].data["hostile"] == "ghouls" and st.locations["hs"].hostile_roll == 5


def test_free_move_is_the_pending_units_and_leashed() -> None:
    """HOSTILE-8.3.FREE-MOVE: only the pending unit moves (free, no action); RULE1/GEO-20: never beyond 12" of pL;
    StayPut forgoes it; then the force joins the order (HOSTILE-8.3.ACTIVATION)."""
    st = crew((5.0, 15.0), spot("hs", 15.0, 15.0, tl=1))
    apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([1, 4, 0.0]))  # one vermin swarm figure at (17, 15)
    assert st.spawning.pending == ["hs-vermin-1"]
    with pytest.raises(IllegalAction) as ei:
        validate(st, Move("a1", ((10.0, 15.0),)))
    assert ei.value.rule == "HOSTILE-8.3.FREE-MOVE"
    st.models["hs-vermin-1"].x = 26.0  # stands 11" from pL: a 6" move east would end 17" away
    with pytest.raises(IllegalAction) as ei:
        validate(st, Move("hs-vermin-1", ((31.0, 15.0),)))
    assert ei.value.rule == "AI-8.3.RULE1"
    ev = apply(st, StayPut("hs-vermin-1"))
    assert [e.type for e in ev][:2] == ["free_move", "force_joins"]
    assert st.order == ["a", "b", "zone-hs"] and st.phase is Phase.ACTION and st.deciding == "a"
    assert st.activation.unit == "a1" and st.activation.spent == 1  # the crew's activation carries on


def test_a_free_move_moves_without_spending_an_action() -> None:
    st = crew((5.0, 15.0), spot("hs", 15.0, 15.0, tl=1))
    apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([1, 4, 0.0]))
    ev = apply(st, Move("hs-vermin-1", ((15.0, 15.0),)))
    assert [e.type for e in ev][:2] == ["free_move", "move"] and st.models["hs-vermin-1"].x == 15.0
    assert st.activation.spent == 1


def test_the_force_activates_this_turn_in_the_round_robin() -> None:
    """TURN-5 / GAP-18 round_robin and TURN-5.1 / GAP-19: after the crews' units of a round, the new force's unit."""
    st = crew((5.0, 15.0), spot("hs", 15.0, 15.0, tl=1))
    apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([1, 4, 0.0]))
    settle(st)
    apply(st, EndActivation("a1"))
    assert st.deciding == "b"
    apply(st, __import__("game.core.actions", fromlist=["Activate"]).Activate("b1"))
    apply(st, EndActivation("b1"))
    assert st.phase is Phase.ACTIVATE and st.deciding == "zone-hs"


@pytest.mark.setting("hostiles.activate_on_spawn_turn")
def test_activate_on_spawn_turn_false_waits_for_the_next_turn() -> None:
    """GAP-19 (`hostiles.activate_on_spawn_turn`=false): a force spawned this turn first acts next turn."""
    st = crew((5.0, 15.0), spot("hs", 15.0, 15.0, tl=1), settings={"hostiles.activate_on_spawn_turn": False})
    apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([1, 4, 0.0]))
    settle(st)
    assert st.units["hs-vermin-1"].activated
    from game.core.actions import Activate

    apply(st, EndActivation("a1"))
    apply(st, Activate("b1"))
    ev = apply(st, EndActivation("b1"))
    assert any(e.type == "turn_end" for e in ev)  # nobody left this turn: the vermin waited


@pytest.mark.setting("hostiles.interleave")
def test_after_players_lets_the_crews_finish_first() -> None:
    """TURN-5 alternative `hostiles.interleave`=after_players: crews alternate until none has an eligible unit,
    then the hostile forces."""
    from game.core.actions import Activate

    def play(setting: str) -> list[str]:
        st = game([("a1", "a", profile(move=16.0), (5.0, 15.0)), ("a2", "a", profile(), (5.0, 25.0)),
                   ("b1", "b", profile(), (34.0, 34.0)), ("b2", "b", profile(), (30.0, 34.0))],
                  settings={"hostiles.interleave": setting})
        st.locations["hs"] = spot("hs", 15.0, 15.0, tl=1)
        activate(st, "a1")
        apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([1, 4, 0.0]))
        settle(st)
        apply(st, EndActivation("a1"))
        seen = []
        while st.phase is Phase.ACTIVATE and len(seen) < 4:
            seen.append(st.deciding)
            from game.core.rules.flow import eligible_units

            unit = eligible_units(st, st.deciding)[0]
            apply(st, Activate(unit))
            apply(st, EndActivation(unit))
        return seen

    assert play("round_robin") == ["b", "zone-hs", "a", "b"]
    assert play("after_players") == ["b", "a", "b", "zone-hs"]


def test_two_locations_of_one_move_spawn_in_the_order_entered() -> None:
    """TURN-8: each newly triggered location in the order entered: roll, place, free move, join."""
    st = crew((2.0, 15.0), spot("far", 20.0, 15.0), spot("near", 10.0, 15.0), move=26.0)
    apply(st, Move("a1", ((28.0, 15.0),)), ScriptedDice([1, 4, 1.5, 1, 4, 1.5]))
    settle(st)
    assert [s for s in st.order if s.startswith("zone-")] == ["zone-near", "zone-far"]


# --- saves and replays -----------------------------------------------------------------------------------------


def test_a_save_in_the_middle_of_a_spawn_resumes_the_same() -> None:
    """The spawn in progress (GameState.spawning), the forces and the memory are plain data: a state saved at the
    free-move decision and loaded again decides and resolves the same, event for event."""
    st = crew((5.0, 15.0), spot("hs", 15.0, 15.0, tl=1))
    apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([3, 4, 0.0]))
    back = GameState.from_json(json.loads(json.dumps(st.to_json())), st.battlefield)
    assert back.to_json() == st.to_json()
    for act in (StayPut("hs-dogs-1"), EndActivation("a1")):
        assert [e.line() for e in apply(st, act)] == [e.line() for e in apply(back, act)]


@pytest.mark.parametrize("edit, field", [
    (lambda d: d["forces"]["zone-hs"].update(hostile="dragons"), "hostile"),
    (lambda d: d["ai"]["hs-dogs-1"].update(lock="nobody"), "lock"),
    (lambda d: d["forces"]["zone-hs"].update(location="nowhere"), "location"),
    (lambda d: d["locations"]["hs"].update(tl=4), "tl"),
    (lambda d: d["locations"]["hs"].update(x=99.0), "x, y"),
])
def test_a_save_with_impossible_hostiles_is_refused(edit, field: str) -> None:
    """Bad input: an unknown hostile profile, a lock on a model that does not exist, a force of a missing location,
    a TL outside 0-3, a location off the table: refused naming the field and what is allowed."""
    st = crew((5.0, 15.0), spot("hs", 15.0, 15.0, tl=1))
    apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([3, 4, 0.0]))
    data = json.loads(json.dumps(st.to_json()))
    edit(data)
    with pytest.raises(ValueError) as ei:
        GameState.from_json(data, st.battlefield)
    assert f"'{field}'" in str(ei.value) and "allowed" in str(ei.value)


def test_tl0_spawns_nothing() -> None:
    """MISSION-8.2.TL: TL0 (White) has no Zone Hostiles Table; the trigger rolls nothing."""
    st = crew((5.0, 15.0), spot("hs", 15.0, 15.0, tl=0))
    ev = apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([]))
    (roll,) = [e for e in ev if e.type == "hostile_roll"]
    assert roll.data["roll"] is None and not st.forces and st.phase is Phase.ACTION


def test_zone_demo_battlefield_has_the_open_table_unchanged() -> None:
    """The open-table demo has no locations: nothing in it changes (its seeded logs are pinned elsewhere)."""
    bf = Battlefield(name="t", width=36.0, height=36.0, zones=(Zone(1, "z", rect(0, 0, 6, 6)),))
    assert not bf.anchors


def test_a_scenario_may_set_its_hostiles_actions() -> None:
    """HOSTILE-8.3.ACTIONS-TL / AI-C.3: actions per activation = TL unless the scenario states otherwise."""
    loc = spot("hs", 15.0, 15.0, tl=1)
    loc.hostile_actions = 2
    st = crew((5.0, 15.0), loc)
    apply(st, Move("a1", ((12.0, 15.0),)), ScriptedDice([1, 4, 0.0]))
    assert st.forces["zone-hs"].actions == 2 and st.models["hs-vermin-1"].profile.actions == 2
    loc = spot("hs", 15.0, 15.0, tl=1)
    loc.hostile_actions = 4
    from game.core.state import LocationError, check_location

    with pytest.raises(LocationError, match="'hostile_actions'"):
        check_location(loc, (36.0, 36.0))
