"""The mission result: SCEN-10.5.VICTORY (`scen.victory`=objective_then_advances) from the advances of
POST-8.5.EARN, and the mission_end event that carries it (TURN-11)."""
from __future__ import annotations

import pytest

from game.core.rules.context import Ctx
from game.core.rules.flow import end_mission
from game.core.rules.outcome import Advances, advances_earned, mission_result
from game.core.state import GameState, Phase, TaskState
from tests.enginekit import game, profile


def board() -> GameState:
    """Two crews of three single-model units."""
    p = profile()
    return game([("a1", "a", p, (3, 3)), ("a2", "a", p, (4, 3)), ("a3", "a", p, (5, 3)),
                 ("b1", "b", p, (30, 30)), ("b2", "b", p, (31, 30)), ("b3", "b", p, (32, 30))],
                tasks=[TaskState("mo", "the objective", 18, 18, 1, 1, 1)])


def test_post_8_5_earn_counts_survivors_and_rival_units_out() -> None:
    """POST-8.5.EARN: 1 per crew model in play at the end, 1 per rival unit wholly out of play (OOA or Dead)."""
    st = board()
    st.models["a1"].ooa = True
    st.models["b1"].dead = True
    st.models["b2"].ooa = True
    assert advances_earned(st, "a") == Advances(survivors=2, units_out=2)
    assert advances_earned(st, "b") == Advances(survivors=1, units_out=1)
    assert advances_earned(st, "a").total == 4


def test_never_deployed_rivals_are_not_counted_as_put_out_of_action() -> None:
    st = board()
    st.models["b3"].deployed = False
    assert advances_earned(st, "a").units_out == 0 and advances_earned(st, "b").survivors == 2


def test_scen_10_5_victory_more_advances_wins() -> None:
    """SCEN-10.5.VICTORY: no Mission Objective completed, so the crew with more advances wins."""
    st = board()
    st.models["b1"].ooa = True
    r = mission_result(st)
    assert r["winner"] == "a" and r["decided_by"] == "advances" and not r["draw"]
    assert r["advances"]["a"]["total"] == 4 and r["advances"]["b"]["total"] == 2


def test_scen_10_5_victory_level_advances_is_a_draw() -> None:
    """SCEN-10.5.VICTORY: tie = draw."""
    st = board()
    st.models["a1"].ooa = True
    st.models["b1"].ooa = True
    r = mission_result(st)
    assert r["winner"] is None and r["draw"] and r["decided_by"] == "tie"


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
    st.models["b1"].ooa = True
    ctx = Ctx(st, st.rng, st.battlefield)
    end_mission(ctx, reason="turn limit reached")
    assert st.phase is Phase.MISSION_END
    e = ctx.events[-1]
    assert e.type == "mission_end" and "SCEN-10.5.VICTORY" in e.rules and "POST-8.5.EARN" in e.rules
    assert e.data["winner"] == "a" and e.data["fates"]["b"]["b1"] == "ooa"
    assert e.data["crews"] == {"a": "Side A", "b": "Side B"} and st.result["winner"] == "a"
