"""`zona-alfa simulate SCENARIO --games N --seed S`: play N seeded games of a scenario to their end with no one at
the keyboard and print what happened (issue 15 part 5): outcome rates, end reasons (TURN-9 / TURN-10), turns,
casualties per crew, Hot Spots, salvage, hostiles and attacks; `--check` judges every hostile decision.

Standard output and standard error together depend only on the scenario, the crews, the agents, the seed, the
number of games, --check and --difficulty: never on --workers, on the form that names the scenario, on timings or
on the machine (no echoed command line, no times, no worker counts; progress only when stderr is a terminal).
Exit status: 0 every game ended, 1 a game raised or a rule was broken (--check), 2 wrong input (one line)."""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from game.core.record import atomic_write_text
from game.scenarios.generate_cli import add_generate_arguments, generated_scenario
from game.sim.behaviour import RATES
from game.sim.options import SEED_MAX, fail, one_line, output_problem, seed_arg
from game.sim.simulate import (
    AGENTS,
    DEFAULT_AGENT,
    GAMES_MAX,
    WORKERS_MAX,
    Job,
    behaviour_totals,
    default_crash_dir,
    game_seed,
    paired_outcomes,
    play_one,
    table_of,
)
from game.sim.sources import SourceError, crews_source, known_scenarios, scenario_source
from game.sim.stats import Rate

COMMAND = "simulate"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenario_arg", nargs="?", metavar="SCENARIO",
                   help=f"a scenario name ({', '.join(known_scenarios()[:3])}, ...) or a scenario file")
    p.add_argument("--scenario", dest="scenario_opt", metavar="NAME|FILE", help="the scenario, as an option")
    p.add_argument("--games", type=_whole, default=None, metavar="N", help=f"how many games, 1 to {GAMES_MAX}")
    p.add_argument("--seed", type=seed_arg, default=1,
                   help=f"master seed, 0 to {SEED_MAX}; game k plays a seed derived from it and k (default 1); "
                        "with --generate it also seeds the mission")
    p.add_argument("--crews", metavar="A,B", help="the crews, one per deployment zone (default: the scenario's)")
    p.add_argument("--agents", metavar="A,B",
                   help=f"one agent id per crew (default {DEFAULT_AGENT}): {', '.join(sorted(AGENTS))} (easy, "
                        "normal, hard: the crew autopilot, docs/autopilot.md; random: the random-legal baseline)")
    p.add_argument("--workers", type=_whole, default=1, metavar="W",
                   help=f"worker processes, 1 to {WORKERS_MAX} (the output does not depend on it)")
    p.add_argument("--check", action="store_true",
                   help="judge every hostile decision with the Zone's rules checker (game.referee); a violation "
                        "makes the exit status 1")
    p.add_argument("--json", metavar="FILE", help="also write the aggregate and every game's summary as JSON")
    p.add_argument("--records", metavar="DIR",
                   help="write every game's record to DIR (game-00001.json, ...); without it only a crashed "
                        "game's record is written (to ./simulate-crashes)")
    p.add_argument("--paired", action="store_true",
                   help="paired games: each seed is played twice, the agents A,B swapped between the crews (crews "
                        "and deployment zones stay); --games N is the number of games (even); reports agent A's "
                        "win rate with its Wilson 95%% interval")
    p.add_argument("--solo", action="store_true",
                   help="one crew against the Zone alone: the scenario's first crew (or the one --crews names) in "
                        "its first deployment zone, the other zones empty")
    add_generate_arguments(p)  # --generate --table T [--tl N] [--out FILE] (game.scenarios.generate_cli)
    p.add_argument("--difficulty", metavar="LEVEL", default=None,
                   help="the Zone's hostiles at a difficulty level: book (default), easy, hard or brutal "
                        "(setting hostiles.difficulty, HOSTILE-8.3.SCALING; docs/zone.md)")


def _whole(text: str) -> int:
    try:
        return int(text.strip().replace("_", ""), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None


def run(args: argparse.Namespace) -> int:
    problem = _check(args)
    if isinstance(problem, int):
        return problem
    jobs, header = problem
    results = _play(jobs, args.workers)
    aggregate = aggregate_results(results)
    if args.paired:
        aggregate["paired"] = paired_outcomes(results, [c.spec.side for c in jobs[0].crews])
    for line in header + report_lines(aggregate, results, check=args.check):
        print(line)
    if args.json is not None:
        data = {"format": "zona-alfa-simulation", "version": 1, "header": header, "aggregate": aggregate,
                "games": results}
        try:
            atomic_write_text(args.json, json.dumps(data, indent=1, sort_keys=True))
        except OSError as exc:
            return fail(COMMAND, "--json", f"cannot write {args.json}: {exc.strerror or exc}")
    bad = aggregate["crashed"] or (args.check and aggregate["violations"])
    return 1 if bad else 0


def _check(args: argparse.Namespace) -> tuple[list[Job], list[str]] | int:
    """Every argument checked before a game is played; an int is the exit status of a refusal."""
    if args.scenario_arg is not None and args.scenario_opt is not None:
        return fail(COMMAND, "--scenario", "name the scenario once: as SCENARIO or as --scenario, not both")
    name = args.scenario_opt if args.scenario_opt is not None else args.scenario_arg
    if name is None and not args.generate:
        return fail(COMMAND, "SCENARIO", f"which scenario? give a name ({', '.join(known_scenarios())}) or a file, "
                                         "or --generate --table T")
    if args.games is None:
        return fail(COMMAND, "--games", f"how many games? give --games N, 1 to {GAMES_MAX}")
    if not 1 <= args.games <= GAMES_MAX:
        return fail(COMMAND, "--games", f"{args.games} is out of range; give 1 to {GAMES_MAX}")
    if not 1 <= args.workers <= WORKERS_MAX:
        return fail(COMMAND, "--workers", f"{args.workers} is out of range; give 1 to {WORKERS_MAX}")
    generated = generated_scenario(COMMAND, args, name)  # --generate: the mission file written from --seed
    if isinstance(generated, int):
        return generated
    name = generated if generated is not None else name
    assert name is not None
    try:
        source = scenario_source(name)
    except SourceError as exc:
        return fail(COMMAND, "SCENARIO" if args.scenario_opt is None else "--scenario", str(exc))
    crew_names = _list(args.crews) if args.crews is not None else list(source.crew_names)
    if args.solo and args.crews is None:
        crew_names = crew_names[:1]
    if problem := _mode_problem(args, crew_names, len(source.crew_names)):
        return fail(COMMAND, *problem)
    if not args.solo and len(crew_names) != len(source.crew_names):
        return fail(COMMAND, "--crews", f"{len(crew_names)} crew(s) given; {source.name} is played by "
                                        f"{len(source.crew_names)} (one per deployment zone), e.g. "
                                        f"--crews {','.join(source.crew_names)}; or --solo with one crew")
    try:
        crews = crews_source(crew_names, k_limit=source.k_limit)
    except SourceError as exc:
        return fail(COMMAND, "--crews", str(exc))
    agents = _list(args.agents) if args.agents is not None else [DEFAULT_AGENT] * len(crews)
    if len(agents) != len(crews):
        return fail(COMMAND, "--agents", f"{len(agents)} agent id(s) for {len(crews)} crew(s); give one per crew"
                                         + (" (--paired: agents A,B, swapped between the crews)" if args.paired
                                            else "")
                                         + f", e.g. --agents {','.join([DEFAULT_AGENT] * len(crews))}")
    for a in agents:
        if a not in AGENTS:
            return fail(COMMAND, "--agents", f"unknown agent {a!r}; known: {', '.join(sorted(AGENTS))}")
    for opt, path in (("--json", args.json),):
        if path is not None and (p := output_problem(path)) is not None:
            return fail(COMMAND, opt, p)
    if args.records is not None:
        folder = Path(args.records)
        if folder.exists() and not folder.is_dir():
            return fail(COMMAND, "--records", f"{args.records} exists and is not a folder; give a folder")
        if (p := output_problem(str(folder / "game-00001.json")) if folder.is_dir() else None) is not None:
            return fail(COMMAND, "--records", p)
        if not folder.exists() and not folder.parent.is_dir():
            return fail(COMMAND, "--records", f"the folder {folder.parent} does not exist; create it first")
    try:
        scen, _ = source.build(crews, battlefield=table_of(source), solo=args.solo)
    except SourceError as exc:
        return fail(COMMAND, "SCENARIO", str(exc))
    except (ValueError, KeyError) as exc:
        return fail(COMMAND, "--crews", one_line(str(exc)))
    run_settings = {} if args.difficulty is None else {"hostiles.difficulty": args.difficulty}
    if run_settings:  # HOSTILE-8.3.SCALING: checked like --set, over the scenario file's own [settings]
        from game.core.settings import Settings, SettingsError
        try:
            Settings({**dict(source.settings), **run_settings}, where="--difficulty")
        except SettingsError as exc:
            return fail(COMMAND, "--difficulty", str(exc).removeprefix("--difficulty: "))
    if args.paired:  # seed k twice: agents A,B then B,A (docs: the crews and their zones stay)
        jobs = [Job(k, game_seed(args.seed, k // 2), source, tuple(crews),
                    tuple(agents if k % 2 == 0 else agents[::-1]), bool(args.check), args.records,
                    default_crash_dir(), settings=run_settings, pair=k // 2) for k in range(args.games)]
    else:
        jobs = [Job(k, game_seed(args.seed, k), source, tuple(crews), tuple(agents), bool(args.check), args.records,
                    default_crash_dir(), settings=run_settings, solo=bool(args.solo)) for k in range(args.games)]
    header = [f"zona-alfa simulate: {scen.name} ({source.name}, scenario {scen.id}), {args.games} game(s), master "
              f"seed {args.seed}" + (", every hostile decision checked" if args.check else "")
              + (f", hostiles at difficulty {args.difficulty}" if run_settings else ""),
              "crews: " + ", ".join(f"{c.name} ({spec.name}, agent {a})"
                                    for c, spec, a in zip(crews, scen.crews, agents, strict=True))]
    if args.paired:
        header.append(f"paired: {args.games // 2} seed(s), each played twice: agent {agents[0]} on "
                      f"{scen.crews[0].side} against {agents[1]}, then the agents swapped (the crews keep their "
                      "deployment zones)")
    if args.solo:
        header.append(f"solo: {scen.crews[0].name} alone against the Zone in {scen.crews[0].zone}; the other "
                      "deployment zones stay empty; it wins by completing the Mission Objective (SCEN-10.5.VICTORY)")
    return jobs, header


def _mode_problem(args: argparse.Namespace, crew_names: list[str], zones: int) -> tuple[str, str] | None:
    """--paired and --solo against the rest: (argument, what is wrong and what is allowed), or None."""
    if args.paired and args.solo:
        return "--paired", "paired games need two crews; --solo plays one: give one of them"
    if args.solo and len(crew_names) != 1:
        return "--crews", f"{len(crew_names)} crews given with --solo; a solo game is one crew against the Zone"
    if args.paired and zones != 2:
        return "--paired", f"paired games swap two agents between two crews; this scenario has {zones} crews"
    if args.paired and args.games % 2:
        return "--games", (f"{args.games} is odd; with --paired every seed is played twice, so give an even number "
                           "of games")
    return None


def _list(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _play(jobs: Sequence[Job], workers: int) -> list[dict[str, Any]]:
    """The games in index order; progress on stderr only when it is a terminal."""
    tty = sys.stderr.isatty()
    if workers <= 1 or len(jobs) <= 1:
        out = []
        for j in jobs:
            out.append(play_one(j))
            if tty:
                print(f"\r{len(out)}/{len(jobs)} games", end="", file=sys.stderr, flush=True)
    else:
        from concurrent.futures import ProcessPoolExecutor

        out = []
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            for r in pool.map(play_one, jobs, chunksize=1):
                out.append(r)
                if tty:
                    print(f"\r{len(out)}/{len(jobs)} games", end="", file=sys.stderr, flush=True)
    if tty:
        print("\r" + " " * 30 + "\r", end="", file=sys.stderr, flush=True)
    return out


def aggregate_results(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The run's totals: outcome, end reasons, turns, casualties, locations, salvage, hostiles, checks."""
    done = [r for r in results if not r["crashed"]]
    crews = sorted({side for r in done for side in r["casualties"]})
    counts: Counter[str] = Counter()
    for r in done:
        counts.update(r["counts"])
    checks: Counter[str] = Counter()
    violations: list[str] = []
    for r in results:
        checks.update(r.get("checks", {}))
        violations += [f"game {r['index'] + 1} (seed {r['seed']}): {v}" for v in r.get("violations", [])]
    turns = [r["turn"] for r in done]
    return {
        "games": len(results),
        "ended": len(done),
        "crashed": len(results) - len(done),
        "end_reasons": dict(sorted(Counter(f"{r['end_reason']} ({'/'.join(r['end_rules']) or '?'})"
                                           for r in done).items())),
        "objective_done": sum(1 for r in done if r["objective_done"]),
        "objective_by": {side: sum(1 for r in done if r.get("objective_by") == side) for side in crews},
        "winner": {side: sum(1 for r in done if r["winner"] == side) for side in crews},
        "draws": sum(1 for r in done if r["draw"]),
        "no_winner": sum(1 for r in done if r["winner"] is None and not r["draw"]),
        "wiped_out": {side: sum(1 for r in done if side in r["wiped_out"]) for side in crews},
        "turns": {"total": sum(turns), "min": min(turns, default=0), "max": max(turns, default=0),
                  "histogram": dict(sorted(Counter(turns).items()))},
        "casualties": {side: {f: sum(r["casualties"].get(side, {}).get(f, 0) for r in done)
                              for f in ("survived", "ooa", "dead", "absent")} for side in crews},
        "locations": {k: sum(r["locations"][k] for r in done) for k in (
            "hotspots", "triggered", "cleared", "searched", "objective_triggered", "objective_cleared", "anomalies",
            "artifacts_taken")},
        "salvage_carried": {side: sum(r["salvage_carried"].get(side, 0) for r in done) for side in crews},
        "counts": dict(sorted(counts.items())),
        "decisions": sum(r.get("decisions") or 0 for r in done),
        "checks": dict(sorted(checks.items())),
        "violations": violations,
        "behaviour": behaviour_totals(results),
        "by_agent": _by_agent(done),
    }


def _by_agent(done: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per agent id: the games it played a crew in, won, and whose Mission Objective its crew completed."""
    out: dict[str, Counter[str]] = {}
    for r in done:
        for side, a in (r.get("agents") or {}).items():
            c = out.setdefault(a, Counter())
            c["crews"] += 1
            c["wins"] += r["winner"] == side
            c["objective"] += r.get("objective_by") == side
    return {a: {k: int(c[k]) for k in ("crews", "wins", "objective")} for a, c in sorted(out.items())}


def _rate(n: float, games: int) -> str:
    """`n/games (p%, 95% CI lo-hi%)`: every proportion the report prints carries its Wilson interval."""
    return Rate(n, games).text()


def _per(n: int, games: int) -> str:
    return f"{n / games:.2f}/game" if games else "-"


def report_lines(agg: dict[str, Any], results: Sequence[dict[str, Any]], *, check: bool) -> list[str]:
    """The printed report: the same lines for the same games, whatever the workers."""
    n = agg["ended"]
    c = agg["counts"]
    lines = [f"games: {agg['games']}, ended {agg['ended']}, crashed {agg['crashed']}"]
    lines.append("end reasons: " + (", ".join(f"{k} {_rate(v, n)}" for k, v in agg["end_reasons"].items())
                                    or "none"))
    if n:
        lines.append(f"turns: mean {agg['turns']['total'] / n:.2f}, min {agg['turns']['min']}, max "
                     f"{agg['turns']['max']}; by turn: "
                     + ", ".join(f"{t}: {k}" for t, k in agg["turns"]["histogram"].items()))
    lines.append(f"objective done: {_rate(agg['objective_done'], n)}; by crew: "
                 + ", ".join(f"{s} {_rate(v, n)}" for s, v in agg["objective_by"].items()))
    lines.append("winner: " + ", ".join(f"{s} {_rate(v, n)}" for s, v in agg["winner"].items())
                 + f", draw {_rate(agg['draws'], n)}"
                 + (f", no winner (solo, objective not completed) {_rate(agg['no_winner'], n)}"
                    if agg["no_winner"] else ""))
    lines.append("crews wiped out: " + ", ".join(f"{s} {_rate(v, n)}" for s, v in agg["wiped_out"].items()))
    for side, fates in agg["casualties"].items():
        fielded = sum(fates.values())
        lines.append(f"casualties {side}: " + ", ".join(f"{f} {_per(v, n)}" for f, v in fates.items())
                     + f"; models lost (Out of Action or dead) {_rate(fates['ooa'] + fates['dead'], fielded)}")
    for a, played in agg["by_agent"].items():
        lines.append(f"agent {a}: crews played {played['crews']}, won {_rate(played['wins'], played['crews'])}, "
                     f"objective completed {_rate(played['objective'], played['crews'])}")
    loc = agg["locations"]
    lines.append(f"Hot Spots: {_per(loc['hotspots'], n)}; triggered {_per(loc['triggered'], n)}, "
                 f"cleared {_per(loc['cleared'], n)}, searched {_per(loc['searched'], n)}")
    lines.append(f"Mission Objective: triggered {_rate(loc['objective_triggered'], n)}, cleared "
                 f"{_rate(loc['objective_cleared'], n)}, completed {_rate(agg['objective_done'], n)}")
    lines.append(f"salvage: search actions {_per(c.get('search_actions', 0), n)}, searches done "
                 f"{_per(c.get('searches', 0), n)}, salvage rolls {_per(c.get('salvage_rolls', 0), n)}, value found "
                 f"{_per(c.get('salvage_value', 0), n)}, equipment rolls {_per(c.get('equipment_rolls', 0), n)}, "
                 f"items found {_per(c.get('items_found', 0), n)}; carried at the end: "
                 + ", ".join(f"{s} {_per(v, n)}" for s, v in agg["salvage_carried"].items()))
    lines.append(f"anomalies: present {_per(loc['anomalies'], n)}, checks failed "
                 f"{_per(c.get('anomaly_failed', 0), n)}, discharges {_per(c.get('discharges', 0), n)}, artifacts "
                 f"{_per(c.get('artifacts', 0), n)}")
    lines.append(f"hostiles: spawns {_per(c.get('spawns', 0), n)} ({_per(c.get('spawned_models', 0), n)} models), "
                 f"pre-placed units {_per(c.get('placed', 0), n)}, ranged attacks "
                 f"{_per(c.get('hostile_ranged', 0), n)}, melee rounds {_per(c.get('hostile_melee', 0), n)}, grenades "
                 f"{_per(c.get('hostile_blast', 0), n)}, Med-Kits {_per(c.get('hostile_medkits', 0), n)}")
    lines.append(f"crews: ranged attacks {_per(c.get('crew_ranged', 0), n)}, melee rounds "
                 f"{_per(c.get('crew_melee', 0), n)}, grenades and blasts {_per(c.get('crew_blast', 0), n)}, "
                 f"Med-Kits {_per(c.get('crew_medkits', 0), n)}, Electric Juice {_per(c.get('electric_juice', 0), n)}, "
                 f"decisions {_per(agg['decisions'], n)}")
    lines += behaviour_lines(agg["behaviour"], paired="paired" in agg)
    if "paired" in agg:
        lines += paired_lines(agg["paired"])
    for r in results:
        if r["crashed"]:
            lines.append(f"CRASHED game {r['index'] + 1} (seed {r['seed']}) at decision #{(r['decisions'] or 0) + 1}: "
                         f"{r['error']}; record of the decisions before it: {r['record'] or '(not written)'}")
    if check:
        lines.append(f"checks: {sum(agg['checks'].values())} of {len(agg['checks'])} rules, "
                     f"{len(agg['violations'])} violation(s)")
        lines += [f"  {rule}: {k}" for rule, k in agg["checks"].items()]
        lines += [f"VIOLATION {v}" for v in agg["violations"]]
    return lines


def behaviour_lines(totals: dict[str, Any], *, paired: bool) -> list[str]:
    """One line per crew side (per agent id in paired games, where each agent plays both crews): the behaviour
    counts per game and every rate of `behaviour.RATES` with its numerator, denominator and Wilson interval."""
    lines = []
    blocks = totals["agents"] if paired else totals["sides"]
    for who, b in blocks.items():
        c = b["counts"]
        rates = "; ".join(f"{label} {Rate(c[num], c[den]).text()}" for label, num, den in RATES)
        lines.append(f"behaviour {'agent ' if paired else ''}{who}: shots {c['shots']}, attacks {c['attacks']}, "
                     f"Med-Kits on a friend {c['medkit_ally']}, objective search actions "
                     f"{c['objective_search_actions']}, grenades {c['grenades']}; {rates}")
    return lines


def paired_lines(p: dict[str, Any]) -> list[str]:
    """Agent A's record over the paired games, its win rate with the interval, and each seed's pair."""
    pp = p["pair_points"]
    return [f"paired: agent {p['agent']} against {p['opponent']}: {p['games']} game(s): won {p['wins']}, lost "
            f"{p['losses']}, drew {p['draws']}" + (f", crashed {p['crashed']}" if p["crashed"] else "")
            + f"; win rate (wins + draws/2)/games {Rate(p['win_rate']['num'], p['win_rate']['den']).text()} "
              "(Wilson score interval)",
            f"paired: points of {p['agent']} per seed (out of 2): " + ", ".join(f"{k}: {v}" for k, v in pp.items()),
            f"paired: each seed's games (agent {p['agent']} on the first crew, then on the second; W won, L lost, D "
            "draw, C crashed): " + " ".join(f"{q['first']}{q['swapped']}" for q in p["pairs"])]
