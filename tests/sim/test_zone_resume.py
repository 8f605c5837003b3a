"""A save made in the middle of a hostile activation, loaded in another process, continues to the same event log
byte for byte: the A.I.'s memory is in the state (AI-D.02/AI-D.03), so the Zone's agent decides the same there."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from game.ai.random_agent import RandomAgent
from game.core.record import Record, save_game
from game.core.rules import apply
from game.core.rules.demos import zone_map_demo
from game.core.state import Phase
from game.maps.loader import load_map
from game.sim.loop import play
from tests.paths import MAPS, REPO_ROOT

CONTINUE = r"""
import json, sys
from game.ai.zone.agent import ZoneAgent
from game.core.actions import action_from_json
from game.core.record import load_save
from game.core.rules import apply
from game.maps.loader import load_map
state, record = load_save(sys.argv[1], load_map=load_map)
rest = [action_from_json(a) for a in json.loads(open(sys.argv[2]).read())]
zone = ZoneAgent()
out = []
for a in rest:
    if state.deciding in state.forces:
        mine = zone.choose(state)
        if mine.to_json() != a.to_json():
            print("DIFFERENT DECISION", json.dumps(mine.to_json()), json.dumps(a.to_json()))
            sys.exit(3)
    out += [e.line() for e in apply(state, a)]
print("\n".join(out))
"""


def _mid_hostile(state) -> bool:
    act = state.activation
    return (state.phase is Phase.ACTION and act is not None and act.spent >= 1
            and state.units[act.unit].side in state.forces)


def test_a_save_mid_hostile_activation_continues_identically_in_another_process(tmp_path: Path) -> None:
    bf = load_map(str(MAPS / "sandbox.tmx"))
    scen = zone_map_demo(bf, tl=2)  # TL2: two actions per hostile activation, so one can be in the middle
    seed = next(s for s in range(1, 40) if _spawns(scen, bf, s))  # the first seed whose hostiles act
    agents = {c.side: RandomAgent(seed * 1000 + i) for i, c in enumerate(scen.crews)}
    _, record, events = play(scen, agents, seed, battlefield=bf)
    # replay up to the first point in the middle of a hostile activation, and save there
    from game.core.rules import new_game

    state, ev = new_game(scen, seed, battlefield=bf)
    done = Record(scenario=record.scenario, seed=seed, settings=dict(record.settings), map_path=record.map_path,
                  map_sha256=record.map_sha256)
    for a in record.actions:
        if _mid_hostile(state):
            break
        ev += apply(state, a)
        done.actions.append(a)
    k = len(done.actions)
    assert _mid_hostile(state), "no hostile activation with an action spent in this game"
    save = tmp_path / "mid.json"
    save_game(save, state, done)
    rest = tmp_path / "rest.json"
    rest.write_text(json.dumps([a.to_json() for a in record.actions[k:]]))
    env = dict(os.environ, PYTHONHASHSEED="7")
    out = subprocess.run([sys.executable, "-c", CONTINUE, str(save), str(rest)], cwd=REPO_ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert out.stdout.strip().splitlines() == [e.line() for e in events[len(ev):]]


def _spawns(scen, bf, seed: int) -> bool:
    agents = {c.side: RandomAgent(seed * 1000 + i) for i, c in enumerate(scen.crews)}
    st, _, events = play(scen, agents, seed, battlefield=bf)
    return any(e.type == "activation_start" and e.data["side"] in st.forces for e in events)
