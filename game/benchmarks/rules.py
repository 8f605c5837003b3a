"""`rules_actions_per_s`: apply() calls per second replaying the recorded decisions of `demo --seed 3`."""
from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from game.benchmarks.goals import Better, Goal, goal_note
from game.core.rules.apply import apply
from game.core.rules.setup import new_game, scenario

if TYPE_CHECKING:
    from game.sim import Agent

GOALS = (Goal("rules_actions_per_s", Better.HIGHER, 10_000),)


def run(quick: bool, say: Callable[[str], None]) -> dict[str, float]:
    from game.ai.random_agent import RandomAgent
    from game.sim import play

    scen = scenario("open-table-demo")
    seed = 3
    agents: dict[str, Agent] = {c.side: RandomAgent(seed * 1000 + i) for i, c in enumerate(scen.crews)}
    _, record, _ = play(scen, agents, seed)
    mix = Counter(type(a).__name__ for a in record.actions)
    say(f"workload: replay the {len(record.actions)} recorded decisions of `zona-alfa demo --seed 3` "
        f"(open-table-demo, 2 crews x 6) through apply(); agent time excluded; setup excluded")
    say("action mix: " + ", ".join(f"{k} {v}" for k, v in sorted(mix.items(), key=lambda kv: -kv[1])))

    def one_replay() -> float:
        state, _ = new_game(scen, seed)
        t0 = time.perf_counter()
        for a in record.actions:
            apply(state, a)
        return time.perf_counter() - t0

    # Baseline in the same process: a bare loop that only reads each action (interpreter floor).
    t0 = time.perf_counter()
    for a in record.actions:
        type(a).__name__  # noqa: B018 (the floor: read each action and nothing more)
    floor = time.perf_counter() - t0

    reps = 5 if quick else 25
    times = [one_replay() for _ in range(reps)]
    med = statistics.median(times)
    per_s = len(record.actions) / med
    say(f"replay: median {med * 1e3:.2f} ms over {reps} runs = {per_s:,.0f} apply/s "
        f"({med / len(record.actions) * 1e6:.1f} us per apply; "
        f"bare loop floor {floor / len(record.actions) * 1e9:.0f} ns, "
        f"ratio {med / max(floor, 1e-9):,.0f}x); apply/s {goal_note(GOALS, 'rules_actions_per_s', per_s)}")
    return {"rules_actions_per_s": round(per_s, 1)}
