"""`python -m game.bench`: named speed metrics, one JSON object on the last line.

Every benchmark module in BENCHMARKS exposes `run(quick: bool, say) -> dict[str, float]`; `say`
prints the workload description and intermediate numbers. The last line printed is one JSON
object with every metric (and `"quick": true` under `--quick`).
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
import time

BENCHMARKS: list[str] = [
    "game.benchmarks.rules",
    "game.benchmarks.sight",
    "game.benchmarks.maps",
    "game.benchmarks.movement",
    "game.benchmarks.odds",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller workloads, same metric names, < 2 minutes")
    parser.add_argument("--only", action="append", default=[],
                        help="run only benchmark modules whose name contains this")
    args = parser.parse_args(argv)

    def say(msg: str) -> None:
        print(msg, flush=True)

    metrics: dict[str, object] = {}
    started = time.perf_counter()
    for name in BENCHMARKS:
        if args.only and not any(o in name for o in args.only):
            continue
        say(f"== {name}")
        mod = importlib.import_module(name)
        metrics.update(mod.run(args.quick, say))
    if args.quick:
        metrics["quick"] = True
    say(f"(total {time.perf_counter() - started:.1f} s)")
    print(json.dumps(metrics, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
