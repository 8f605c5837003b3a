"""`python -m game.crews list` and `python -m game.crews check NAME|FILE... [--k-limit K] [--set key=value]`: list
the shipped starter crews, or check roster files against the format and the starting-crew rules of PART 7 and
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


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m game.crews", description="List or check crew roster files.")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the shipped starter crews")
    c = sub.add_parser("check", help="check roster files or shipped crew names")
    c.add_argument("crews", nargs="+", metavar="NAME|FILE")
    c.add_argument("--k-limit", type=int, default=None, help="check against this K limit instead of the roster's")
    c.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a house setting override")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "list":
        for name in known_crews():
            c = load_crew(name)
            crew = c.doc["crew"]
            print(f"{name}: {crew['name']} ({crew['faction']}, {crew['k_limit']}K, {len(c.spec.models)} models)")
        return 0
    try:
        settings = Settings.from_options(args.set)
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
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


if __name__ == "__main__":
    sys.exit(main())
