"""Many seeded Zone demos judged by the rules checker: `python -m game.sim.soak --demos 300` plays map demos with
Zone Hostiles (TL1 Hot Spots, GAP-118; random-legal crews; the Zone's agent), runs game.referee's ZoneChecker after
every decision, and prints the per-rule check counts, the violations and how many hostile decisions of each kind
happened (spawn free moves, interrupts, parries, free attacks on a withdrawer). Exit status 1 on any violation.

The demos are spread over the shipped maps in turn (seed k plays map k mod the number of maps); `--workers N`
plays them in N processes (the results do not depend on N: each demo is its own seeded game)."""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

MAPS = ("sandbox", "ishikhov", "chernya-woods", "crossroads-blyatsk", "bench-town")
ROOT = Path(__file__).resolve().parents[2]


@dataclass(slots=True)
class DemoResult:
    map: str
    seed: int
    seconds: float
    checks: dict[str, int]
    violations: list[str]
    events: dict[str, int] = field(default_factory=dict)


def one_demo(args: tuple[str, int, int]) -> DemoResult:
    """Play one checked Zone demo (map name, seed, TL)."""
    from game.ai.random_agent import RandomAgent
    from game.core.rules.demos import zone_map_demo
    from game.maps.loader import load_map
    from game.referee.zone import ZoneChecker
    from game.sim.loop import play

    name, seed, tl = args
    t0 = time.perf_counter()
    bf = load_map(str(ROOT / "maps" / f"{name}.tmx"))
    scen = zone_map_demo(bf, tl)
    agents = {c.side: RandomAgent(seed * 1000 + i) for i, c in enumerate(scen.crews)}
    checker = ZoneChecker({})
    try:
        st, _, events = play(scen, agents, seed, battlefield=bf, observer=checker)
    except Exception as exc:  # noqa: BLE001 - a crashed demo is a finding to report, not the end of the soak
        return DemoResult(name, seed, time.perf_counter() - t0, dict(checker.report.checks),
                          [f"CRASH {type(exc).__name__}: {exc}"], {})
    kinds: Counter[str] = Counter()
    for e in events:
        if e.type in ("hostiles_spawned", "free_move", "interrupt", "parry", "withdraw", "target_locked",
                      "target_lock_dropped", "melee_draw", "search", "location_triggered"):
            kinds[e.type] += 1
        if e.type == "interrupt" and e.data.get("unit") in st.units and st.units[e.data["unit"]].side in st.forces:
            kinds["hostile_interrupt"] += 1
        if e.type == "activation_start" and e.data["side"] in st.forces:
            kinds["hostile_activation"] += 1
    rep = checker.report
    return DemoResult(name, seed, time.perf_counter() - t0, dict(rep.checks), [v.text() for v in rep.violations],
                      dict(kinds))


def soak(demos: int, *, first_seed: int = 1, tl: int = 0, workers: int = 1,
         maps: Sequence[str] = MAPS) -> list[DemoResult]:
    """`tl` 1-3 for every demo, or 0 for all three in turn (demo k at TL 1 + k mod 3)."""
    jobs = [(maps[k % len(maps)], first_seed + k, tl or 1 + k % 3) for k in range(demos)]
    if workers <= 1:
        return [one_demo(j) for j in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one_demo, jobs, chunksize=1))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m game.sim.soak", description=__doc__.split("\n\n")[0])
    p.add_argument("--demos", type=int, default=20, help="how many demos (default 20)")
    p.add_argument("--first-seed", type=int, default=1)
    p.add_argument("--tl", type=int, default=0, choices=(0, 1, 2, 3),
                   help="the Hot Spots' Threat Level; 0 (default): TL1, TL2 and TL3 in turn")
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args(argv)
    if args.demos < 1 or args.workers < 1:
        print("python -m game.sim.soak: --demos and --workers must be at least 1", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    results = soak(args.demos, first_seed=args.first_seed, tl=args.tl, workers=args.workers)
    checks: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    bad = []
    for r in results:
        checks.update(r.checks)
        kinds.update(r.events)
        bad += [f"{r.map} seed {r.seed}: {v}" for v in r.violations]
    tls = f"TL{args.tl}" if args.tl else "TL1-3 in turn"
    print(f"{len(results)} Zone demos ({tls}, maps {', '.join(MAPS)}) in {time.perf_counter() - t0:.0f} s; "
          f"{sum(checks.values())} checks, {len(bad)} violation(s)")
    for rule, n in sorted(checks.items()):
        print(f"  {rule}: {n} checks")
    print("hostile decisions and events: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
