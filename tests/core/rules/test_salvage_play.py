"""Salvage in whole games: the open-table demo crews with Hot Spots and a Mission Objective (with loot) on its three
task points, Zone Hostiles, the Zone's rules checker on every decision. The crews play random-legal, except that
they take a legal Search or SearchAnomaly at once (so a CI-sized sample reaches them: the plain random agent
searches about once in twenty games). Every game ends by TURN-9/TURN-10, its checker finds nothing, its record
replays byte for byte, and the sample searches, rolls equipment and meets anomalies. The seeds were picked from a
100-game soak per TL for what they exercise (TL2 seed 65: a 6 chosen, a discharge, the objective)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from game.ai.random_agent import RandomAgent
from game.core.actions import Action, IllegalAction, Search, SearchAnomaly
from game.core.rules.apply import validate
from game.core.rules.setup import LocationSpec, LootSpec, Scenario, scenario
from game.core.state import GameState, Phase
from game.referee.zone import ZoneChecker
from game.sim.loop import play, replay


class Scavenger(RandomAgent):
    """The random-legal agent that takes a legal SearchAnomaly or Search at once (a test harness, not an agent)."""

    def choose(self, state: GameState) -> Action:
        act = state.activation
        if state.phase is Phase.ACTION and act is not None and act.extra_left == 0:
            for lid in state.locations:
                for a in (SearchAnomaly(act.unit, lid), Search(act.unit, lid)):
                    try:
                        validate(state, a)
                    except IllegalAction:
                        continue
                    return a
        return super().choose(state)


def salvage_scenario(tl: int) -> Scenario:
    base = scenario("open-table-demo")
    locs = (LocationSpec("radio-hs", "the radio mast", "hotspot", (18.0, 18.0), tl),
            LocationSpec("ied-hs", "the roadside", "hotspot", (10.0, 26.0), tl),
            LocationSpec("locker-mo", "the supply locker", "objective", (26.0, 10.0), tl,
                         loot=LootSpec(items=("keycard",), grenades=(("molotov", 1),),
                                       equipment_rolls=(("basic", 2),))))
    return replace(base, id=f"salvage-play-tl{tl}", locations=locs)


SAMPLE = ((2, 65, {"equipment_chosen", "anomaly_discharge", "objective_completed", "loot"}),
          (1, 32, {"artifact"}), (1, 1, {"anomaly_check_failed", "anomaly_discharge"}))


@pytest.mark.parametrize("tl, seed, seen", SAMPLE)
def test_whole_games_with_salvage_end_clean_and_replay(tl: int, seed: int, seen: set[str]) -> None:
    scen = salvage_scenario(tl)
    agents = {c.side: Scavenger(seed * 1000 + i) for i, c in enumerate(scen.crews)}
    checker = ZoneChecker({})
    st, record, events = play(scen, agents, seed, observer=checker)
    assert st.phase is Phase.MISSION_END and not checker.report.violations
    end = [e for e in events if e.type == "mission_end"][-1]
    assert end.rules[1] in ("TURN-9", "TURN-10") and end.data["report"] and "why" in end.data
    _, again = replay(record, scen)
    assert [e.line() for e in again] == [e.line() for e in events]
    kinds = {e.type for e in events}
    assert {"search", "salvage"} | seen <= kinds, sorted(kinds)
