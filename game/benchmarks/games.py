"""Whole games (issues 15 and 16, Speed): `games_per_s_per_core` (the `normal` crew autopilot for both crews against
the Zone), `games_per_s_per_core_easy` and `games_per_s_per_core_random` beside it, `parallel_speedup_2_workers`
on the autopilot workload, and `autopilot_decision_ms` / `autopilot_decision_ms_p95` (the median and 95th
percentile of one autopilot decision's CPU time).

Workload: whole Game One games on its table (`crossroads-blyatsk` as `zona-alfa simulate` plays it: its pre-placed
dog packs and the BTR's zombies played by the Zone's agent), the crews played by the named agent, each to its
TURN-9 / TURN-10 end, the games `simulate --seed 1` plays (seed of game k derived from 1 and k). One process: a
warm-up game first (the table loaded, its nav graphs built, the kernels compiled: reported as start-up), then the
timed games one after another. Parallel: the same autopilot games on one warm worker process and on two (each worker
warmed by its own warm-up game; the warm-up is reported apart), same run; the speed-up is the one-worker wall time
over the two-worker wall time (the load average is printed beside it: other processes on the machine take cores
from the workers). The per-core rate divides by the process's CPU time, not the wall time, so that other processes
do not count against it. A missed goal prints the top entries of a profile of one game."""
from __future__ import annotations

import cProfile
import io
import multiprocessing
import os
import pstats
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from game.benchmarks.goals import Better, Goal, goal_note

SCENARIO = "crossroads-blyatsk"
AUTOPILOT = "normal"
GOALS = (Goal("games_per_s_per_core", Better.HIGHER, 0.5),
         Goal("games_per_s_per_core_random", Better.HIGHER, 2.0),
         Goal("parallel_speedup_2_workers", Better.HIGHER, 1.8))


def jobs(n: int, *, first: int = 1, agent: str = AUTOPILOT) -> list[Any]:
    """Games `first` .. `first + n - 1` of `simulate crossroads-blyatsk --seed 1 --agents A,A` (game 0 is the
    warm-up)."""
    from game.sim.simulate import Job, default_crash_dir, game_seed
    from game.sim.sources import crews_source, scenario_source

    source = scenario_source(SCENARIO)
    crews = tuple(crews_source(source.crew_names, k_limit=source.k_limit))
    return [Job(k, game_seed(1, k), source, crews, (agent,) * len(crews), False, None, default_crash_dir())
            for k in range(first, first + n)]


def _warm(barrier: Any = None) -> None:
    """A worker's start-up: the table, its graphs and the kernels, by playing the warm-up game; with a barrier, it
    then waits until every worker of the pool is warm (so none takes the others' first tasks while they warm up)."""
    from game.sim.simulate import play_one

    play_one(jobs(1, first=0)[0])
    if barrier is not None:
        barrier.wait(timeout=900)


def _pid(pause: float) -> int:
    time.sleep(pause)
    return os.getpid()


def _play(job: Any) -> dict[str, Any]:
    from game.sim.simulate import play_one

    return play_one(job)


def _on_workers(workers: int, work: Sequence[Any]) -> tuple[float, float, list[dict[str, Any]]]:
    """(start-up s, play s, results) of `work` on `workers` warm worker processes."""
    t0 = time.perf_counter()
    mp = multiprocessing.get_context()
    with ProcessPoolExecutor(max_workers=workers, mp_context=mp, initializer=_warm,
                             initargs=(mp.Barrier(workers),)) as pool:
        pids = set(pool.map(_pid, [0.05] * (4 * workers)))
        startup = time.perf_counter() - t0
        t1 = time.perf_counter()
        out = list(pool.map(_play, work, chunksize=1))
        played = time.perf_counter() - t1
    if len(pids) != workers:
        raise RuntimeError(f"expected {workers} warm worker processes, saw {len(pids)}")
    return startup, played, out


def profile_top(job: Any, n: int = 12) -> list[str]:
    """The top `n` entries (cumulative time, game code only) of a profile of one warm game."""
    from game.sim.simulate import play_one

    pr = cProfile.Profile()
    pr.enable()
    play_one(job)
    pr.disable()
    buf = io.StringIO()
    pstats.Stats(pr, stream=buf).sort_stats("cumulative").print_stats(r"game[/\\]", n)
    lines = [ln for ln in buf.getvalue().splitlines() if ln.strip()]
    start = next((i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls")), 0)
    return lines[start:]


class _Timed:
    """An autopilot whose every decision's CPU time is noted (the bench's own wrapper, in this process only)."""

    def __init__(self, inner: Any, times: list[float]) -> None:
        self.inner, self.times = inner, times

    def choose(self, state: Any) -> Any:
        t0 = time.process_time()
        try:
            return self.inner.choose(state)
        finally:
            self.times.append(time.process_time() - t0)


def _one_process(agent: str, work: Sequence[Any], times: list[float] | None = None) -> tuple[float, float, int, int]:
    """(CPU s, wall s, decisions, crashed) of `work` in this process; with `times`, each autopilot decision's CPU
    time is appended to it."""
    from game.sim import simulate

    saved = simulate.AGENTS.get(agent)
    if times is not None and saved is not None:
        simulate.AGENTS[agent] = lambda seed: _Timed(saved(seed), times)
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        results = [simulate.play_one(j) for j in work]
        played, cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        if saved is not None:
            simulate.AGENTS[agent] = saved
    decisions = sum(r.get("decisions") or 0 for r in results)
    return cpu, played, decisions, sum(1 for r in results if r["crashed"])


def _quantile(xs: Sequence[float], q: float) -> float:
    ys = sorted(xs)
    if not ys:
        return float("nan")
    k = min(len(ys) - 1, max(0, round(q * (len(ys) - 1))))
    return ys[k]


def run(quick: bool, say: Callable[[str], None], *, games: int | None = None, parallel: bool = True,
        profile_n: int = 12) -> dict[str, float]:
    n = games if games is not None else (4 if quick else 16)
    side = max(1, n // 2)
    say(f"workload: whole games of `zona-alfa simulate {SCENARIO} --seed 1` (Red Gypsy 3 Game One, its pre-placed "
        "dog packs and the BTR's zombies played by the Zone's agent), both crews played by one agent, each game to "
        f"its end: {n} with the `{AUTOPILOT}` crew autopilot, {side} with `easy`, {side} with the random-legal agent "
        "(games 1.. of each); one process, then the autopilot games on one vs two warm worker processes")
    t0 = time.perf_counter()
    _warm()
    startup = time.perf_counter() - t0
    out: dict[str, float] = {"games_startup_s": round(startup, 3)}
    times: list[float] = []
    work = jobs(n)
    for agent, k, metric in ((AUTOPILOT, n, "games_per_s_per_core"), ("easy", side, "games_per_s_per_core_easy"),
                             ("random", side, "games_per_s_per_core_random")):
        cpu, played, decisions, crashed = _one_process(agent, jobs(k, agent=agent),
                                                       times if agent == AUTOPILOT else None)
        rate = k / cpu
        say(f"{agent}: start-up (table, nav graphs, kernels, warm-up game) {startup:.2f} s; {k} games in "
            f"{cpu:.2f} s of CPU ({played:.2f} s wall) = {cpu / k * 1000:.0f} ms/game, {decisions / k:.0f} "
            f"decisions/game, {cpu / max(decisions, 1) * 1e3:.2f} ms/decision, {crashed} crashed; "
            f"{metric} {rate:.3g} {goal_note(GOALS, metric, rate)}")
        out[metric] = round(rate, 4)
    med, p95 = _quantile(times, 0.5) * 1e3, _quantile(times, 0.95) * 1e3
    say(f"autopilot decisions ({AUTOPILOT}, both crews): {len(times)} timed; autopilot_decision_ms {med:.2f} "
        f"(median), autopilot_decision_ms_p95 {p95:.2f}, slowest {max(times, default=0) * 1e3:.1f} ms")
    out |= {"autopilot_decision_ms": round(med, 3), "autopilot_decision_ms_p95": round(p95, 3)}
    if out["games_per_s_per_core"] < GOALS[0].target and profile_n:
        say("profile of one autopilot game (the goal is missed), top entries by cumulative time:")
        for line in profile_top(work[0], profile_n):
            say("  " + line)
    if parallel:
        s1, p1, r1 = _on_workers(1, work)
        s2, p2, r2 = _on_workers(2, work)
        same = [r["events"] if not r["crashed"] else None for r in r1] == \
            [r["events"] if not r["crashed"] else None for r in r2]
        speedup = p1 / p2
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        say(f"workers ({AUTOPILOT} autopilot games): one warm worker {p1:.2f} s (start-up {s1:.2f} s), two warm "
            f"workers {p2:.2f} s (start-up {s2:.2f} s, apart); same games either way: {same}; cores seen: "
            f"{os.cpu_count()}, load average {load:.2f} (other processes share the cores); "
            f"parallel_speedup_2_workers {speedup:.3g} {goal_note(GOALS, 'parallel_speedup_2_workers', speedup)}")
        out |= {"parallel_speedup_2_workers": round(speedup, 3), "games_workers_startup_s": round(s2, 3)}
    return out
