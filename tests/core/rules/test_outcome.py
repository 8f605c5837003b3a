"""The mission result: SCEN-10.5.VICTORY (`scen.victory`=objective_then_advances) from the advances of
POST-8.5.EARN with kills attributed, and the mission_end event that says what happened (TURN-11)."""
from __future__ import annotations

import pytest

from game.core.actions import MeleeAttack, RangedAttack, Search
from game.core.dice import ScriptedDice
from game.core.events import describe
from game.core.rules.apply import apply
from game.core.rules.context import Ctx
from game.core.rules.demos import zone_map_demo
from game.core.rules.flow import end_mission
from game.core.rules.hotspots import HOTSPOTS_PER_TL
from game.core.rules.outcome import Advances, advances_earned, casualties, kills, mission_result
from game.core.state import GameState, LocationState, Phase, TaskState
from tests.enginekit import activate, game, profile
from tests.zonekit import add_force


def put_out(st: GameState, mid: str, by: str | None, *, dead: bool = False, seq: int = 1) -> None:
    """Model `mid` Out of Action (or Dead), its last Wound from model `by` (None: no recorded source)."""
    m = st.models[mid]
    m.ooa, m.dead = True, dead
    if by is not None:
        m.wounded_by = {"model": by, "side": st.models[by].side, "cause": "ranged", "turn": 1, "seq": seq}


def board() -> GameState:
    """Two crews of three single-model units."""
    p = profile()
    return game([("a1", "a", p, (3, 3)), ("a2", "a", p, (4, 3)), ("a3", "a", p, (5, 3)),
                 ("b1", "b", p, (30, 30)), ("b2", "b", p, (31, 30)), ("b3", "b", p, (32, 30))],
                tasks=[TaskState("mo", "the objective", 18, 18, 1, 1, 1)])


def test_post_8_5_earn_counts_survivors_and_the_units_each_side_put_out() -> None:
    """POST-8.5.EARN: 1 per crew model in play at the end, 1 per rival unit wholly out of play (OOA or Dead) that
    this side put out; a unit put out by its own side or by nothing recorded counts for nobody."""
    st = board()
    put_out(st, "a1", "b3")
    put_out(st, "b1", "a2", dead=True)
    put_out(st, "b2", "a3")
    put_out(st, "b3", "b1")  # friendly fire: nobody's kill
    assert advances_earned(st, "a") == Advances(survivors=2, rival_units=2)
    assert advances_earned(st, "b") == Advances(survivors=0, rival_units=1)
    assert advances_earned(st, "a").total == 4 and advances_earned(st, "a").units_out == 2
    put_out(st, "a2", None)
    assert advances_earned(st, "b").units_out == 1


def test_never_deployed_rivals_are_not_counted_as_put_out_of_action() -> None:
    st = board()
    st.models["b3"].deployed = False
    assert advances_earned(st, "a").units_out == 0 and advances_earned(st, "b").survivors == 2


def test_kills_are_attributed_in_play() -> None:
    """POST-8.5.EARN: the shooter's side gets the rival it shot Out of Action; a melee defender that puts its
    attacker out gets that kill (the hits back are the defender's); a Zone Hostile unit put out counts as a hostile
    unit (a multi-model unit once, when its last model is out)."""
    st = game([("a1", "a", profile(weapons=("assault_rifle",)), (10, 10)), ("b1", "b", profile(armor=3), (20, 10))])
    activate(st, "a1")
    apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 2, 2, 9, 9, 9]))
    assert kills(st, "a") == {"rival": ["b1"], "hostile": []}
    assert casualties(st) == [{"unit": "b1", "side": "b", "kind": "crew", "by_model": "a1", "by_side": "a",
                               "cause": "ranged", "turn": 1}]
    st = game([("a1", "a", profile(weapons=("knife",)), (10, 10)), ("b1", "b", profile(weapons=("knife",)), (11, 10))])
    activate(st, "a1")
    apply(st, MeleeAttack("a1", "b1", "knife"), ScriptedDice([9, 2, 9]))  # a1 misses, b1 hits, a1's save fails
    assert kills(st, "b") == {"rival": ["a1"], "hostile": []} and kills(st, "a") == {"rival": [], "hostile": []}
    st = game([("a1", "a", profile(weapons=("assault_rifle",)), (10, 10)), ("b1", "b", profile(), (30, 30))])
    (unit,) = add_force(st, "zombies", [(20, 10), (20, 11.5)], location=(22, 10))
    activate(st, "a1")
    apply(st, RangedAttack("a1", st.units[unit].models[0], "assault_rifle"), ScriptedDice([2, 9, 9, 9]))
    assert kills(st, "a")["hostile"] == []  # one of its two zombies is still in play
    put_out(st, next(m for m in st.units[unit].models if st.models[m].in_play), "a1", seq=10_000)
    assert kills(st, "a")["hostile"] == [unit] and advances_earned(st, "a").hostile_units == 1


def test_scen_10_5_victory_more_advances_wins() -> None:
    """SCEN-10.5.VICTORY: no Mission Objective completed, so the crew with more advances wins."""
    st = board()
    put_out(st, "b1", "a1")
    r = mission_result(st)
    assert r["winner"] == "a" and r["decided_by"] == "advances" and not r["draw"]
    assert r["advances"]["a"]["total"] == 4 and r["advances"]["b"]["total"] == 2


def test_scen_10_5_victory_level_advances_is_a_draw() -> None:
    """SCEN-10.5.VICTORY: tie = draw."""
    st = board()
    put_out(st, "a1", "b1")
    put_out(st, "b1", "a1")
    r = mission_result(st)
    assert r["winner"] is None and r["draw"] and r["decided_by"] == "tie" and "level" in r["why"]


def test_scen_10_5_victory_the_mission_objective_beats_advances() -> None:
    """SCEN-10.5.VICTORY: the crew that completed the MO wins even with fewer advances (MO +5, POST-8.5.EARN)."""
    st = board()
    for m in ("a1", "a2", "a3"):
        st.models[m].ooa = True  # crew a: 0 survivors
    st.tasks["mo"].done, st.tasks["mo"].holder = True, "b1"
    r = mission_result(st, objectives={"mo"})
    assert r["winner"] == "b" and r["decided_by"] == "objective" and r["advances"]["b"]["objective"] is True
    st.tasks["mo"].holder = "a1"  # completed by a model of crew a, who is OOA now: the MO still counts for a
    r = mission_result(st, objectives={"mo"})
    assert r["winner"] == "a" and r["advances"]["a"]["total"] == 5  # the MO alone; b keeps 3 survivors


def test_a_completed_task_that_is_not_the_objective_earns_nothing() -> None:
    st = board()
    st.tasks["mo"].done, st.tasks["mo"].holder = True, "b1"
    assert mission_result(st)["decided_by"] == "tie"


def test_an_unknown_victory_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="SCEN-10.5.VICTORY"):
        mission_result(board(), victory="last_man_standing")


def test_turn_11_mission_end_event_carries_the_result() -> None:
    """TURN-11: end_mission freezes the board and emits the fates, the advances and the winner."""
    st = board()
    put_out(st, "b1", "a1")
    ctx = Ctx(st, st.rng, st.battlefield)
    end_mission(ctx, reason="turn limit reached")
    assert st.phase is Phase.MISSION_END
    e = ctx.events[-1]
    assert e.type == "mission_end" and "SCEN-10.5.VICTORY" in e.rules and "POST-8.5.EARN" in e.rules
    assert e.data["winner"] == "a" and e.data["fates"]["b"]["b1"] == "ooa"
    assert e.data["crews"] == {"a": "Side A", "b": "Side B"} and st.result["winner"] == "a"


def test_turn_11_the_mission_end_says_what_happened() -> None:
    """TURN-11 / SCEN-10.5.VICTORY: per crew its survivors, Out of Action and dead (with names), kills (rival and
    hostile), locations looted and searched, what it carries home (salvage value, items, artifacts); the
    locations triggered, cleared and searched; who completed the Mission Objective; the winner and why; the
    earlier fields kept. The readable lines say the same."""
    st = game([("a1", "a", profile(weapons=("assault_rifle",)), (15.6, 15.0)), ("a2", "a", profile(), (3, 3)),
               ("b1", "b", profile(), (30, 30)), ("b2", "b", profile(), (31, 30))])
    st.locations["hs"] = LocationState("hs", "the shed", "hotspot", 15.0, 15.0, 1, triggered=True)
    st.locations["mo"] = LocationState("mo", "the camp", "objective", 15.0, 15.5, 1, triggered=True,
                                       loot={"items": ["keycard"], "tl_roll": False})
    st.locations["far"] = LocationState("far", "the van", "hotspot", 25.0, 5.0, 1)
    activate(st, "a1")
    apply(st, Search("a1", "hs"), ScriptedDice([5, 2]))  # 350 ZS + 1 Basic roll: Electric Juice
    apply(st, Search("a1", "mo"), ScriptedDice([]))
    st.models["a1"].artifacts.append({"location": "hs", "roll": 6, "value": 5500, "bonus": "will",
                                      "bonus_needs_slot": True, "active": False, "turn": 1})
    put_out(st, "b1", "a1")
    put_out(st, "b2", "a1", dead=True)
    put_out(st, "a2", "b1")
    ctx = Ctx(st, st.rng, st.battlefield)
    end_mission(ctx, reason="turn limit reached")
    d = ctx.events[-1].data
    for key in ("winner", "draw", "decided_by", "advances", "crews", "fates", "reason", "turn", "tasks_done"):
        assert key in d
    assert d["winner"] == "a" and d["decided_by"] == "objective" and "Mission Objective" in d["why"]
    a, b = d["report"]["a"], d["report"]["b"]
    assert a["survived"] == ["a1"] and a["ooa"] == ["a2"] and b["ooa"] == ["b1"] and b["dead"] == ["b2"]
    assert a["names"]["a1"] == "trooper" and a["kills"] == {"rival": ["b1", "b2"], "hostile": []}
    assert b["kills"] == {"rival": ["a2"], "hostile": []}
    assert a["looted"] == ["hs", "mo"] and a["searched"] == ["hs", "mo"]
    assert a["salvage_value"] == 350 and a["items"] == ["electric_juice", "keycard"]
    assert a["artifacts"] == [{"model": "a1", "value": 5500, "bonus": "will", "location": "hs"}]
    assert a["artifact_value"] == 5500 and b["salvage_value"] == 0
    assert d["locations"]["triggered"] == ["hs", "mo"] and d["locations"]["searched"] == ["hs", "mo"]
    assert d["locations"]["cleared"] == ["hs", "mo"] and d["locations"]["objectives"] == ["mo"]
    assert d["objective"] == {"side": "a", "model": "a1", "location": "mo", "turn": 1}
    assert d["advances"]["a"] == {"survivors": 1, "units_out": 2, "rival_units": 2, "hostile_units": 0,
                                  "hot_spots": 1, "objective": True, "total": 1 + 2 + 3 + 5}
    text = describe(ctx.events[-1])
    for words in ("why: Side A completed the Mission Objective", "dead: trooper (b2)", "kills: rival units b1, b2",
                  "carries home: 350 ZS salvage; items electric_juice, keycard; artifacts 5500 ZS (+1 will)",
                  "locations: triggered hs, mo; cleared hs, mo; searched hs, mo",
                  "Mission Objective mo completed by a1 (a) in turn 1"):
        assert words in text, text


@pytest.mark.parametrize("tl", [1, 2, 3])
def test_tv12_the_zone_demo_has_two_hot_spots_per_threat_level(tl: int) -> None:
    """TV-12 (MISSION-8.2.HOTSPOT-COUNT, `HOTSPOTS_PER_TL`): TL1 -> 2, TL2 -> 4, TL3 -> 6 Hot Spots in the Zone demo
    scenario a mission plays, besides its Mission Objective."""
    from game.maps.loader import load_map
    from tests.paths import REPO_ROOT

    scen = zone_map_demo(load_map(REPO_ROOT / "maps" / "ishikhov.tmx"), tl)
    spots = [loc for loc in scen.locations if loc.kind == "hotspot"]
    assert len(spots) == HOTSPOTS_PER_TL * tl == {1: 2, 2: 4, 3: 6}[tl]
    assert [loc.kind for loc in scen.locations].count("objective") == 1
