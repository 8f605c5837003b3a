"""`zona-alfa check-scenario FILE...`: every problem of a scenario file with its field (docs/scenarios.md).

Each FILE (a .toml path, or a shipped scenario name) is read, validated against its map and the catalog, built with
its default crews (the starter crews of game.crews, checked against the scenario's K limit and zones; a scenario
that names none is set up with the demo crews standing in), and set up once (new_game, seed 1): the pre-placed
hostiles must find their places. Exit status: 0 every file is clean, 1 a scenario has problems, 2 an argument names
no readable file; every FILE is checked either way, and no traceback reaches the user."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace

from game.core.rules.setup import CrewSpec, new_game, scenario
from game.crews import load_crew
from game.scenarios.loader import ScenarioFile, ScenarioNotFound, resolve_scenario
from game.scenarios.problems import Problem, ScenarioError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="scenario .toml files (or shipped scenario names) to check")
    parser.epilog = ("exit status: 0 every scenario is clean, 1 a scenario has problems, 2 an argument names no "
                     "readable file; every FILE is checked either way")


def default_crews(sf: ScenarioFile) -> tuple[list[CrewSpec] | None, str]:
    """The scenario's default crews loaded by game.crews (`load_crew(name, side=..., zone=...)`), or None and why not.
    A crew file the crews package refuses is a problem of the scenario's `crews` field (ScenarioError)."""
    if not sf.crew_names:
        return None, "the scenario names no default crews (field 'crews')"
    out: list[CrewSpec] = []
    problems = []
    for i, (name, dep) in enumerate(zip(sf.crew_names, sf.deployment, strict=False)):
        try:
            loaded = load_crew(name, side=f"crew-{i + 1}", zone=dep.zone)
        except Exception as exc:  # noqa: BLE001 - the crews package's refusal (CrewFileError) is reported as is
            problems.append(Problem(sf.path, f"crews[{i}]", f"crew {name!r} cannot be loaded: "
                                                            f"{' '.join(str(exc).split())}",
                                    "a starter crew id or roster file that game.crews accepts"))
            continue
        out.append(loaded.spec)
    if problems:
        raise ScenarioError(problems)
    return out, ""


def stand_ins(sf: ScenarioFile) -> list[CrewSpec]:
    """The open-table demo crews, one per deployment zone (for the checks that need some crew)."""
    demo = scenario("open-table-demo").crews
    out = []
    for i in range(len(sf.deployment)):
        c = demo[i % len(demo)]
        if i >= len(demo):
            c = replace(c, side=f"{c.side}-{i + 1}", models=tuple(replace(m, id=f"{m.id}-{i + 1}") for m in c.models))
        out.append(c)
    return out


def check_file(arg: str) -> tuple[int, list[str]]:
    """(status, lines) for one FILE: 0 clean, 1 problems, 2 unreadable."""
    try:
        sf = resolve_scenario(arg)
    except ScenarioNotFound as exc:
        return 2, [str(p) for p in exc.problems]
    except ScenarioError as exc:
        return 1, [str(p) for p in exc.problems] + [f"{arg}: {len(exc.problems)} problem(s)"]
    lines: list[str] = []
    try:
        crews, why = default_crews(sf)
    except ScenarioError as exc:
        return 1, [str(p) for p in exc.problems] + [f"{sf.path}: {len(exc.problems)} problem(s)"]
    if crews is None:
        lines.append(f"{sf.path}: note: crew checks skipped ({why}); the demo crews stand in for the setup check")
    try:
        scen, bf = sf.build(crews if crews is not None else stand_ins(sf))
    except ScenarioError as exc:
        return 1, lines + [str(p) for p in exc.problems] + [f"{sf.path}: {len(exc.problems)} problem(s)"]
    try:
        new_game(scen, 1, settings=dict(sf.settings), battlefield=bf)
    except (ValueError, KeyError) as exc:  # a pre-placed force with no room, a location off the table ...
        text = " ".join(str(exc).split())
        return 1, lines + [f"{sf.path}: setup: {text}; allowed: hostiles and locations the table has room for",
                           f"{sf.path}: 1 problem(s)"]
    forces = len({h.force or f"#{i}" for i, h in enumerate(sf.hostiles)})
    lines.append(f"{sf.path}: ok ({sf.id}: {sf.name}; map {bf.source}; TL{sf.tl}; {len(sf.locations)} location(s); "
                 f"{forces} pre-placed force(s); special rules: {', '.join(sf.special_rules) or 'none'})")
    return 0, lines


def run(args: argparse.Namespace) -> int:
    """Exit 0 when every scenario is clean, 1 when one has problems, 2 when an argument names no readable file."""
    return check(args.files)


def check(files: Sequence[str]) -> int:
    worst = 0
    for arg in files:
        status, lines = check_file(arg)
        for line in lines:
            print(line, file=sys.stderr if status == 2 else sys.stdout)
        worst = max(worst, status)
    return worst
