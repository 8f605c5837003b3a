"""`python -m game.bench`: named speed metrics, one JSON object on the last line.

Every benchmark module in BENCHMARKS exposes `run(quick: bool, say) -> dict[str, float]` and `GOALS` (its figures'
targets, game/benchmarks/goals.py); `say` prints the workload description and intermediate numbers. After the
modules, one line per figure with its goal (`MISSED` when it is not met; the exit status stays 0) and each module's
share of the time; the last line printed is one JSON object of plain numbers (and `"quick": true` under --quick).
"""
from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
import time
from collections.abc import Callable

from game.benchmarks.goals import MISSED, Goal, goal_note, missed

BENCHMARKS: list[str] = [
    "game.benchmarks.rules",
    "game.benchmarks.sight",
    "game.benchmarks.maps",
    "game.benchmarks.movement",
    "game.benchmarks.odds",
    "game.benchmarks.hostiles",
    "game.benchmarks.games",
    "game.benchmarks.client",
    "game.benchmarks.seat",
]
QUICK_BUDGET_S = 300.0  # --quick stays under 5 minutes in total as benchmarks are added


def short(name: str) -> str:
    """>>> short("game.benchmarks.odds")
    'odds'
    """
    return name.rsplit(".", 1)[-1]


def select(only: list[str], names: list[str]) -> list[str] | str:
    """The modules `--only` names (a short name such as `odds` or the full module name, exactly), in run order;
    a string is the one-line refusal of an unknown name."""
    known = {short(n): n for n in names} | {n: n for n in names}
    unknown = [o for o in only if o not in known]
    if unknown:
        return (f"--only {unknown[0]}: no such benchmark module; use one of {', '.join(short(n) for n in names)} "
                "(or its full name game.benchmarks.NAME)")
    wanted = {known[o] for o in only}
    return [n for n in names if not only or n in wanted]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m game.bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true",
                   help=f"smaller workloads, same metric names, under {QUICK_BUDGET_S / 60:g} minutes in total")
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="run only this benchmark module (repeatable; exact names): "
                   + ", ".join(short(n) for n in BENCHMARKS) + " or game.benchmarks.NAME")
    return p


def _figures(goals: list[Goal], metrics: dict[str, float], say: Callable[[str], None]) -> None:
    say("== figures")
    for name, value in sorted(metrics.items()):
        note = goal_note(goals, name, value)
        say(f"{name} {value:,.6g}" + (f"  {note}" if note else ""))
    misses = missed(goals, metrics)
    with_goal = sum(1 for g in goals if g.metric in metrics)
    say(f"goals: {with_goal - len(misses)} of {with_goal} met" +
        (f"; {MISSED}: " + ", ".join(g.metric for g, _ in misses) if misses else ""))


def _shares(times: dict[str, float], total: float, quick: bool, say: Callable[[str], None]) -> None:
    say("== time")
    for name, t in times.items():
        say(f"{short(name)} {t:.1f} s ({100 * t / total if total else 0:.0f}%)")
    line = f"total {total:.1f} s"
    if quick:
        over = total > QUICK_BUDGET_S
        line += f" of the {QUICK_BUDGET_S:g} s --quick budget" + (f" {MISSED}" if over else "")
    say(line)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    chosen = select(args.only, BENCHMARKS)
    if isinstance(chosen, str):
        print(f"python -m game.bench: {chosen}", file=sys.stderr)
        return 2

    def say(msg: str) -> None:
        print(msg, flush=True)

    metrics: dict[str, float] = {}
    goals: list[Goal] = []
    times: dict[str, float] = {}
    started = time.perf_counter()
    for name in chosen:
        say(f"== {name}")
        t0 = time.perf_counter()
        mod = importlib.import_module(name)
        goals += list(getattr(mod, "GOALS", ()))
        metrics.update(mod.run(args.quick, say))
        times[name] = time.perf_counter() - t0
    total = time.perf_counter() - started
    plain: dict[str, float | bool] = {}
    for k, v in metrics.items():
        if isinstance(v, (int, float)) and math.isfinite(v):
            plain[k] = v
        else:
            say(f"{k} = {v!r} is not a finite number: left out of the JSON line")
    _figures(goals, {k: float(v) for k, v in plain.items()}, say)
    _shares(times, total, args.quick, say)
    if args.quick:
        plain["quick"] = True
    print(json.dumps(plain, sort_keys=True, allow_nan=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
