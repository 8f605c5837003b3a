"""`zona-alfa demo`: a seeded game between two random-legal crews (the baseline agent), printed as the text or
JSON event log, optionally recorded; every argument is checked before the game is played."""
from __future__ import annotations

import argparse
import json
import sys

from game.core.battlefield import Battlefield
from game.core.events import describe
from game.core.record import RecordCrew, atomic_write_text
from game.core.rules import Scenario, map_demo, scenario
from game.core.rules.demos import zone_map_demo
from game.core.settings import Settings
from game.scenarios.generate_cli import add_generate_arguments, generated_scenario
from game.sim.loop import play
from game.sim.options import SEED_MAX, fail, output_problem, seed_arg

COMMAND = "demo"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=seed_arg, default=1,
                   help=f"game seed, a whole number from 0 to {SEED_MAX} (2^64-1); same seed = same game. "
                        "Larger or negative seeds are refused, not reduced")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a house setting (docs/settings.md), e.g. --set deviation.distance=roll*2")
    p.add_argument("--json", action="store_true", help="print the canonical JSON event log instead of text")
    p.add_argument("--record", metavar="FILE",
                   help="also write the game record (JSON) to FILE; checked writable before the game starts. "
                        "Replay it with `zona-alfa replay FILE`")
    p.add_argument("--map", metavar="TMX",
                   help="play on a Tiled map (e.g. maps/ishikhov.tmx) instead of the open table; the map's Hot Spots "
                        "(TL1, two chosen mirror-symmetrically from its anchors, GAP-118) and Mission Objective "
                        "spawn Zone Hostiles, played by the Zone's A.I.")
    p.add_argument("--check", action="store_true",
                   help="judge every hostile decision with the Zone's rules checker (game.referee, which trusts "
                        "neither the agent nor its reasons); prints its per-rule check counts and any violation on "
                        "stderr, exit status 1 when a rule was broken")
    p.add_argument("--tl", type=int, default=None, metavar="N",
                   help="with --map: the Hot Spots' Threat Level, 1 (default), 2 or 3: 2 x TL Hot Spots, worse "
                        "hostiles, more actions (MISSION-8.2.TL); with --generate: the mission's TL (default: rolled)")
    p.add_argument("--no-hotspots", action="store_true",
                   help="with --map: no locations, the crews alone (the map demo before Zone Hostiles)")
    p.add_argument("--scenario", metavar="NAME|FILE",
                   help="play a scenario instead: a shipped one (crossroads-blyatsk, chernya-woods, ishikhov: Red "
                        "Gypsy 3's games) or a scenario file (docs/scenarios.md), by its default starter crews")
    p.add_argument("--crews", metavar="A,B",
                   help="with --scenario: the crews, starter crew names or roster files, one per deployment zone")
    add_generate_arguments(p, tl=False)  # --generate --table T [--out FILE]; --tl N is the mission's TL with it


def run(args: argparse.Namespace) -> int:
    from game.ai.random_agent import RandomAgent

    overrides = _overrides(args.set)
    if isinstance(overrides, int):
        return overrides
    if args.generate and (args.map is not None or args.no_hotspots):  # a generated mission: a file scenario
        return fail(COMMAND, "--generate", "a generated mission names its own table (--table): drop --map and "
                                           "--no-hotspots")
    generated = generated_scenario(COMMAND, args, args.scenario, own_tl=False)  # --seed seeds the mission too
    if isinstance(generated, int):
        return generated
    if generated is not None:
        args.scenario, args.tl = generated, None
    if args.no_hotspots and args.map is None:
        return fail(COMMAND, "--no-hotspots", "only means something with --map (the open table has no locations)")
    if args.tl is not None and (args.map is None or args.no_hotspots):
        return fail(COMMAND, "--tl", "needs --map (and no --no-hotspots) or --generate: only a map's Hot Spots or a "
                                     "generated mission have a Threat Level")
    if args.tl is not None and args.tl not in (1, 2, 3):
        return fail(COMMAND, "--tl", f"{args.tl} is not a Threat Level a demo plays; use 1, 2 or 3 (MISSION-8.2.TL)")
    bf: Battlefield | None = None
    scen: Scenario = scenario("open-table-demo")
    scenario_file: tuple[str, str] | None = None
    crews: list[RecordCrew] | None = None
    if args.crews is not None and args.scenario is None:
        return fail(COMMAND, "--crews", "needs --scenario (the open-table and map demos play their demo crews)")
    if args.scenario is not None:
        if args.map is not None or args.tl is not None or args.no_hotspots:
            return fail(COMMAND, "--scenario", "a scenario names its own map and Threat Level: drop --map, --tl and "
                                               "--no-hotspots")
        from game.sim.sources import SourceError, crews_source, scenario_source

        try:
            source = scenario_source(args.scenario)
        except SourceError as exc:
            return fail(COMMAND, "--scenario", " ".join(str(exc).split()))
        names = [x.strip() for x in args.crews.split(",") if x.strip()] if args.crews else list(source.crew_names)
        if len(names) != len(source.crew_names):
            return fail(COMMAND, "--crews", f"{len(names)} crew(s) given; {source.name} is played by "
                                            f"{len(source.crew_names)}, e.g. --crews {','.join(source.crew_names)}")
        try:
            loaded = crews_source(names, k_limit=source.k_limit)
            scen, bf = source.build(loaded)
        except SourceError as exc:
            return fail(COMMAND, "--crews", " ".join(str(exc).split()))
        overrides = {**dict(source.settings), **overrides}
        scenario_file = (source.path, source.sha256)
        crews = [c.record(spec.side) for c, spec in zip(loaded, scen.crews, strict=True)]
    if args.map is not None:
        from game.maps.loader import MapError, load_map

        try:
            bf = load_map(args.map)
            scen = map_demo(bf) if args.no_hotspots else zone_map_demo(bf, args.tl or 1,
                                                                        settings=Settings(overrides))
        except MapError as exc:
            return fail(COMMAND, "--map", exc.summary())
        except (ValueError, OSError) as exc:
            return fail(COMMAND, "--map", str(exc))
    if args.record is not None:
        problem = output_problem(args.record)
        if problem is not None:
            return fail(COMMAND, "--record", problem)
    agents = {c.side: RandomAgent(args.seed * 1000 + i) for i, c in enumerate(scen.crews)}
    checker = None
    if args.check:
        from game.referee.zone import ZoneChecker

        checker = ZoneChecker(overrides)
    _, record, events = play(scen, agents, args.seed, settings=overrides, battlefield=bf, observer=checker,
                             scenario_file=scenario_file[0] if scenario_file else None,
                             scenario_sha256=scenario_file[1] if scenario_file else None, crews=crews)
    for e in events:
        print(e.line() if args.json else describe(e))
    if args.record is not None:
        try:
            atomic_write_text(args.record, json.dumps(record.to_json(), indent=1, sort_keys=True))
        except OSError as exc:
            return fail(COMMAND, "--record", f"cannot write {args.record}: {exc.strerror or exc}")
    if checker is not None:
        rep = checker.report
        print(f"zona-alfa demo --check: {sum(rep.checks.values())} checks of {len(rep.checks)} rules, "
              f"{len(rep.violations)} violation(s)", file=sys.stderr)
        if not rep.checks:
            print("  no hostile decision to judge: no Zone Hostiles appeared (the open table has no locations; "
                  "play a map with --map)", file=sys.stderr)
        print(rep.summary(), file=sys.stderr)
        for v in rep.violations:
            print(v.text(), file=sys.stderr)
        return 0 if rep.ok else 1
    return 0


def _overrides(options: list[str]) -> dict[str, object] | int:
    """The --set overrides, with the rules content they change loaded once (a catalog value out of its bounds is
    refused here, before the game); an int is the exit status of a refusal."""
    from game.core.catalog import CatalogError, load_catalog
    from game.core.settings import Settings, SettingsError

    try:
        settings = Settings.from_options(options)
        load_catalog(settings)
    except SettingsError as exc:
        return fail(COMMAND, "--set", str(exc))
    except CatalogError as exc:
        named = [o for o in options if o.partition("=")[0].strip() in str(exc)]
        return fail(COMMAND, f"--set {named[0]}" if named else "--set", str(exc))
    return dict(settings.overrides)
