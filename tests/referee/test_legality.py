"""The legality rules the referee leaves to `apply`, shown refused there: the 12" leash (AI-8.3.RULE1, GEO-20), no
Inspect and no Bolt Toss by hostiles (AI-C.6), and a hostile's path never triggers a location
(HOSTILE-8.3.NO-TRIGGER)."""
from __future__ import annotations

import pytest

from game.core.actions import BoltToss, IllegalAction, Inspect, Move
from game.core.state import LocationState
from tests.referee.kit import Table, zone_game

B = "hs-bandit-1"


def bandit_at(x: float, y: float) -> Table:
    st = zone_game([("c1", (3.0, 3.0))], [(x, y)])  # the location point pL is (18, 18)
    st.locations["far"] = LocationState("far", "the far shed", "hotspot", 18.0, 26.0, 2)
    t = Table(st)
    t.activate(B)
    return t


def test_a_hostile_move_leaving_the_leash_is_refused() -> None:
    t = bandit_at(18.0, 27.0)
    with pytest.raises(IllegalAction) as exc:
        t.do(Move(B, ((18.0, 31.0),)))  # 13" from pL at the end
    assert exc.value.rule == "AI-8.3.RULE1"
    with pytest.raises(IllegalAction) as exc:
        t.do(Move(B, ((19.5, 30.5), (18.0, 28.0))))  # out and back: the whole path counts (GEO-20)
    assert exc.value.rule == "AI-8.3.RULE1"
    t.do(Move(B, ((18.0, 29.5),)))  # 11.5": inside
    assert t.st.models[B].y == 29.5


@pytest.mark.parametrize("action", [Inspect(B, "far"), BoltToss(B, "far", 18.0, 26.0)])
def test_a_hostile_never_inspects_nor_tosses_a_bolt(action) -> None:  # type: ignore[no-untyped-def]
    t = bandit_at(18.0, 20.0)
    with pytest.raises(IllegalAction) as exc:
        t.do(action)
    assert exc.value.rule == "AI-C.6"


def test_a_hostile_path_never_triggers_a_location() -> None:
    t = bandit_at(18.0, 20.0)
    t.do(Move(B, ((18.0, 26.5),)))  # ends 0.5" from the far shed's point
    assert not any(e.type == "location_triggered" for e in t.events)
    assert not t.st.locations["far"].triggered and t.st.trigger_queue == []
