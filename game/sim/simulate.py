"""Whole games headless (issue 15 part 5): play N seeded games of one scenario to their end, in one process or in
worker processes, and sum up what happened. `zona-alfa simulate` (game/sim/simulate_cli.py) prints it; the games
benchmark (game/benchmarks/games.py) times it.

Game k plays seed `game_seed(S, k)`, a pure function of the master seed and the index, so results never depend on
how many workers play them or in which order they finish; results are ordered by game index. A worker keeps each
table it loaded (and the nav graphs, compiled sight world and kernels its games built) for its next games: these
caches are pure functions of the table, so a warm worker plays a game exactly as a fresh process does (the test
suite checks 1 against 2 workers).

A game that raises is not hidden: its summary carries the error, the decision it died at and the record of every
decision before it (written to the records folder), and the run counts it as crashed."""
from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.core.actions import Action
from game.core.battlefield import Battlefield
from game.core.events import Event
from game.core.record import Record, atomic_write_text
from game.core.state import GameState, SideKind
from game.sim.behaviour import Behaviour
from game.sim.sources import CrewSource, ScenarioSource

GAMES_MAX = 100_000
WORKERS_MAX = 64
MAX_DECISIONS = 20_000  # the play loop's cap for one game; a game that reaches it is reported, not ended


def game_seed(master: int, index: int) -> int:
    """The seed of game `index` (0-based) of a run with master seed `master`: 64 bits of SHA-256."""
    digest = hashlib.sha256(f"zona-alfa simulate {master} {index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


# -- the agents ---------------------------------------------------------------------------------------------------
def _random_agent(seed: int) -> Any:
    from game.ai.random_agent import RandomAgent

    return RandomAgent(seed)


def _autopilot(level: str) -> Callable[[int], Any]:
    def make(seed: int) -> Any:
        from game.ai.autopilot import CrewAutopilot

        return CrewAutopilot(seed, level)
    return make


# agent id -> factory(agent seed); the test suite adds a failing agent here (a seam, not a plug-in system)
AGENTS: dict[str, Callable[[int], Any]] = {"random": _random_agent, "easy": _autopilot("easy"),
                                           "normal": _autopilot("normal"), "hard": _autopilot("hard")}
DEFAULT_AGENT = "normal"  # the agent of every crew not given one (simulate): the crew autopilot at normal


@dataclass(frozen=True, slots=True)
class Job:
    """One game to play: everything a worker needs, picklable."""

    index: int
    seed: int
    scenario: ScenarioSource
    crews: tuple[CrewSource, ...]
    agents: tuple[str, ...]
    check: bool
    records: str | None  # folder to write every record to (None: only crashed games' records, to `crash_dir`)
    crash_dir: str
    settings: dict[str, Any] = field(default_factory=dict)
    solo: bool = False  # one crew against the Zone alone, in the scenario's first deployment zone (docs/scenarios.md)
    pair: int | None = None  # --paired: the seed's index k (games 2k and 2k + 1 play it, the agents swapped)


def table_of(source: ScenarioSource) -> Battlefield:
    """The process's loaded copy of a scenario's table (loaded once per process with the scenario file)."""
    return source.table()


def play_one(job: Job) -> dict[str, Any]:
    """Play one game to its end and sum it up (a plain dict: it crosses process boundaries and goes into --json)."""
    from game.core.geometry.sight.world import clear_query_caches
    from game.sim.loop import play

    bf = table_of(job.scenario)
    clear_query_caches(bf)  # the per-query sight memo is pure, but need not grow across games
    scen, bf = job.scenario.build(job.crews, battlefield=bf, solo=job.solo)
    checker = None
    if job.check:
        from game.referee.zone import ZoneChecker

        checker = ZoneChecker(game_settings(job))
    watch = Behaviour([c.side for c in scen.crews], inner=checker)
    agents = {c.side: watch.wrap(AGENTS[a](job.seed * 1000 + i))
              for i, (c, a) in enumerate(zip(scen.crews, job.agents, strict=True))}
    crashed: list[tuple[Record, BaseException, Action | None]] = []
    record_crews = [c.record(spec.side) for c, spec in zip(job.crews, scen.crews, strict=True)]
    try:
        state, record, events = play(scen, agents, job.seed, settings=game_settings(job), battlefield=bf,
                                     observer=watch, max_decisions=MAX_DECISIONS,
                                     scenario_file=job.scenario.path, scenario_sha256=job.scenario.sha256,
                                     crews=record_crews, on_crash=lambda r, e, a: crashed.append((r, e, a)))
    except Exception as exc:  # noqa: BLE001 - a crashed game is a finding to report with its record, never hidden
        rec = crashed[0][0] if crashed else None
        action = crashed[0][2] if crashed else None
        path = _write(rec, job, crash=True) if rec is not None else None
        text = " ".join(str(exc).split())[:300]
        return {"index": job.index, "seed": job.seed, "crashed": True, "agents": dict(zip(
                    (c.side for c in scen.crews), job.agents, strict=True)), **({"pair": job.pair} if job.pair
                                                                                 is not None else {}),
                "error": f"{type(exc).__name__}: {text}", "decisions": len(rec.actions) if rec else None,
                "action": action.to_json() if action is not None else None, "record": path,
                "checks": dict(checker.report.checks) if checker else {},
                "violations": [v.text() for v in checker.report.violations] if checker else []}
    summary = summarise(state, events)
    summary.update(index=job.index, seed=job.seed, crashed=False, decisions=len(record.actions),
                   agents={c.side: a for c, a in zip(scen.crews, job.agents, strict=True)},
                   behaviour=watch.counts())
    if job.pair is not None:
        summary["pair"] = job.pair
    if checker is not None:
        summary["checks"] = dict(checker.report.checks)
        summary["violations"] = [v.text() for v in checker.report.violations]
    if job.records is not None:
        summary["record"] = _write(record, job, crash=False)
    return summary


def game_settings(job: Job) -> dict[str, Any]:
    """The house settings a game plays with: the scenario file's overrides, then the run's (TURN-2)."""
    return {**dict(job.scenario.settings), **job.settings}


def _write(record: Record, job: Job, *, crash: bool) -> str:
    folder = Path(job.records if job.records is not None else job.crash_dir)
    name = f"game-{job.index + 1:05d}{'-crashed' if crash else ''}.json"
    path = folder / name
    atomic_write_text(path, json.dumps(record.to_json(), indent=1, sort_keys=True))
    return path.as_posix()


def summarise(state: GameState, events: list[Event]) -> dict[str, Any]:
    """What one finished game did, from its final state and its events (fields read by key: the mission_end event
    grows fields as issue 15 lands, and what is missing is simply not counted)."""
    crews = [s.id for s in state.sides if s.kind is SideKind.CREW]
    hostile = set(state.forces)
    end = next((e.data for e in reversed(events) if e.type == "mission_end"), {})
    fates = end.get("fates") or {}
    casualties = {side: dict(Counter(fates.get(side, {}).values())) for side in crews}
    wiped = [side for side in crews if fates.get(side) and not any(f == "survived" for f in fates[side].values())]
    count: Counter[str] = Counter()
    side_of = {m.id: m.side for m in state.models.values()}
    for e in events:
        d = e.data
        if e.type == "attack":
            who = "hostile" if side_of.get(d.get("attacker", ""), "") in hostile else "crew"
            count[f"{who}_{d.get('kind', '?')}"] += 1
        elif e.type == "melee_round":
            who = "hostile" if side_of.get(d.get("attacker", ""), "") in hostile else "crew"
            count[f"{who}_melee"] += 1
        elif e.type == "hostiles_spawned":
            count["spawns"] += 1
            count["spawned_models"] += int(d.get("figures", 0) or 0)
        elif e.type == "hostiles_placed":
            count["placed"] += 1
        elif e.type == "location_triggered":
            count["triggers"] += 1
        elif e.type == "search":
            count["search_actions"] += 1
            count["searches"] += bool(d.get("searched"))
        elif e.type == "salvage":
            count["salvage_rolls"] += d.get("roll") is not None
            count["salvage_value"] += int(d.get("value", 0) or 0)
            count["equipment_rolls"] += int(d.get("equipment_rolls", 0) or 0)
            count["anomalies"] += bool(d.get("anomaly"))
        elif e.type == "medkit":
            who = "hostile" if side_of.get(d.get("applier", ""), "") in hostile else "crew"
            count[f"{who}_medkits"] += 1
        elif e.type == "artifact":
            count["artifacts"] += 1
        elif e.type == "anomaly_check_failed":
            count["anomaly_failed"] += 1
        elif e.type == "anomaly_discharge":
            count["discharges"] += 1
        elif e.type == "equipment_found":
            count["items_found"] += 1
        elif e.type in ("electric_juice", "smoke", "bolt_toss", "inspect"):
            count[e.type] += 1
    locs = list(state.locations.values())
    report = end.get("locations") or {}
    kinds = {x.id: x.kind for x in locs}

    def of(key: str, kind: str) -> int:
        return sum(1 for i in report.get(key, ()) if kinds.get(i) == kind)
    return {
        "end_reason": str(end.get("reason", state.phase.value)),
        "end_rules": [r for r in next((e.rules for e in reversed(events) if e.type == "mission_end"), ())
                      if r in ("TURN-9", "TURN-10")],
        "turn": state.turn,
        "winner": end.get("winner"),
        "draw": bool(end.get("draw", False)),
        "decided_by": end.get("decided_by"),
        "objective_done": any(bool(a.get("objective")) for a in (end.get("advances") or {}).values()),
        "objective_by": next((s for s, a in (end.get("advances") or {}).items() if a.get("objective")), None),
        "wiped_out": wiped,
        "casualties": casualties,
        "locations": {"hotspots": sum(1 for x in locs if x.kind == "hotspot"),
                      "triggered": of("triggered", "hotspot"), "cleared": of("cleared", "hotspot"),
                      "searched": of("searched", "hotspot"),
                      "objective_triggered": of("triggered", "objective"),
                      "objective_cleared": of("cleared", "objective"),
                      "anomalies": len(report.get("anomalies", ())),
                      "artifacts_taken": len(report.get("artifacts_taken", ()))},
        "salvage_carried": {side: sum(int(i.get("value", 0)) for m in state.models.values() if m.side == side
                                      for i in getattr(m, "salvage", ())) for side in crews},
        "mission_end_salvage": end.get("salvage"),
        "counts": dict(sorted(count.items())),
        "events": len(events),
    }


def run_games(jobs: Sequence[Job], workers: int = 1) -> list[dict[str, Any]]:
    """Play every job, in order; with workers > 1 in that many processes (results still in job order)."""
    if workers <= 1 or len(jobs) <= 1:
        return [play_one(j) for j in jobs]
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
        return list(pool.map(play_one, jobs, chunksize=1))


def default_crash_dir() -> str:
    return os.path.join(".", "simulate-crashes")


# -- behaviour rates and paired games (issue 16) ------------------------------------------------------------------
def behaviour_totals(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The behaviour counters (game.sim.behaviour) of the games that ended, summed per crew side and per agent id
    (an agent's totals cover every crew it played), with each rate of `behaviour.RATES` as num/den and its Wilson
    95% interval."""
    from game.sim.behaviour import COUNTERS, RATES
    from game.sim.stats import Rate

    by_side: dict[str, Counter[str]] = {}
    by_agent: dict[str, Counter[str]] = {}
    for r in results:
        if r["crashed"]:
            continue
        for side, c in (r.get("behaviour") or {}).items():
            by_side.setdefault(side, Counter()).update(c)
            by_agent.setdefault(str((r.get("agents") or {}).get(side, "?")), Counter()).update(c)

    def block(c: Counter[str]) -> dict[str, Any]:
        return {"counts": {k: int(c[k]) for k in COUNTERS},
                "rates": {label: Rate(c[num], c[den]).to_json() for label, num, den in RATES}}
    return {"sides": {s: block(c) for s, c in sorted(by_side.items())},
            "agents": {a: block(c) for a, c in sorted(by_agent.items())}}


def outcome_of(result: dict[str, Any], agent_side: str) -> str:
    """W, L or D for the crew `agent_side` in one game's summary; C when the game crashed."""
    if result["crashed"]:
        return "C"
    if result["winner"] is None:
        return "D"
    return "W" if result["winner"] == agent_side else "L"


def paired_outcomes(results: Sequence[dict[str, Any]], crews: Sequence[str]) -> dict[str, Any]:
    """Paired games (`--paired`): game 2k plays seed k with agent A on the first crew, game 2k + 1 the same seed with
    the agents swapped (crews and deployment zones stay). Agent A's wins, losses and draws over the games that
    ended, its win rate (wins + draws/2)/games with the Wilson 95% interval, and each seed's pair (A's result on
    the first crew, then on the second). An agent's stream follows its crew's place (seed * 1000 + crew index), so
    an agent paired with itself plays the same game twice: 50% by construction, the side bias cancelled."""
    from game.sim.stats import Rate

    first, second = crews[0], crews[1]
    pairs = []
    tally: Counter[str] = Counter()
    for k in range(0, len(results) - 1, 2):
        a, b = results[k], results[k + 1]
        one, two = outcome_of(a, first), outcome_of(b, second)
        tally.update((one, two))
        pairs.append({"pair": k // 2, "seed": a["seed"], "first": one, "swapped": two})
    n = tally["W"] + tally["L"] + tally["D"]
    agent = str((results[0].get("agents") or {}).get(first, "?")) if results else "?"
    other = str((results[0].get("agents") or {}).get(second, "?")) if results else "?"
    points = [sum({"W": 2, "D": 1}.get(x, 0) for x in (p["first"], p["swapped"])) for p in pairs]  # half points
    return {"agent": agent, "opponent": other, "games": n, "wins": tally["W"], "losses": tally["L"],
            "draws": tally["D"], "crashed": tally["C"],
            "win_rate": Rate(tally["W"] + tally["D"] / 2, n).to_json(),
            "pair_points": {f"{p / 2:g}": points.count(p) for p in (4, 3, 2, 1, 0)},
            "pairs": pairs}
