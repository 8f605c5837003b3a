"""`zona-alfa check-crew [--list] NAME|FILE... [--k-limit K] [--set key=value]`: list the shipped starter crews,
or check roster files against the format and the starting-crew rules of PART 7 and
print every problem with its field (docs/crews.md). Exit 0 all legal, 1 a roster has problems, 2 bad usage or a
name/path that names no roster file; never a traceback."""
from __future__ import annotations

import argparse
import sys

from game.core.catalog import load_catalog
from game.core.rules.crews import khrabrost
from game.core.settings import Settings, SettingsError
from game.crews.loader import known_crews, load_crew
from game.crews.roster import CrewFileError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("crews", nargs="*", metavar="NAME|FILE", help="roster files or shipped crew names to check")
    p.add_argument("--list", action="store_true", help="list the shipped starter crews")
    p.add_argument("--k-limit", type=int, default=None, help="check against this K limit instead of the roster's")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a house setting override")
    p.epilog = "exit status: 0 every roster is legal, 1 a roster has problems, 2 a name or path that names no roster"


def run(args: argparse.Namespace) -> int:
    if args.list:
        for name in known_crews():
            c = load_crew(name)
            crew = c.doc["crew"]
            print(f"{name}: {crew['name']} ({crew['faction']}, {crew['k_limit']}K, {len(c.spec.models)} models)")
        if not args.crews:
            return 0
    if not args.crews:
        print("zona-alfa check-crew: NAME|FILE: which roster? give a roster file or a crew name "
              f"({', '.join(known_crews())}), or --list", file=sys.stderr)
        return 2
    if args.k_limit is not None and not 1 <= args.k_limit <= 100:
        print(f"zona-alfa check-crew: --k-limit: {args.k_limit} is out of range; give 1 to 100", file=sys.stderr)
        return 2
    try:
        settings = Settings.from_options(args.set)
    except SettingsError as exc:
        print(f"zona-alfa check-crew: --set: {exc}", file=sys.stderr)
        return 2
    catalog = load_catalog(settings)
    worst = 0
    for name in args.crews:
        try:
            c = load_crew(name, settings=settings, k_limit=args.k_limit)
        except CrewFileError as exc:
            unreadable = any(p.field in ("(file)", "(name)") and "TOML" not in p.what and "UTF-8" not in p.what
                             for p in exc.problems)
            print(str(exc), file=sys.stderr)
            worst = max(worst, 2 if unreadable else 1)
            continue
        crew = c.doc["crew"]
        print(f"{c.source}: legal: {crew['name']} ({crew['faction'] or 'no faction'}, "
              f"{khrabrost(c.doc, catalog)}K of {args.k_limit or crew['k_limit']}K, {len(c.spec.models)} models, "
              f"sha256 {c.sha256[:12]})")
    return worst
