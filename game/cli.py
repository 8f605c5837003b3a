"""The `zona-alfa` command line: one subcommand per capability, imported only when used."""
from __future__ import annotations

import argparse
import importlib
import sys

# Each subcommand lives in its own module exposing `add_arguments(parser)` and `run(args) -> int`.
# Modules that need pygame or pytmx import them inside `run`, so `--help` stays light.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("game.sim", "play a seeded demo game between two random-legal crews and print the log"),
    "check-map": ("game.maps.lint", "lint Tiled maps: report every problem with object id and name"),
    "render-map": ("game.render.picture", "draw a map (and overlays) to a PNG"),
    "odds": ("game.odds_cli", "exact outcome distribution of a ranged attack (hits, wounds, Pins, OOA, crits)"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="zona-alfa", description="Zona Alfa digital tabletop")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module)
        mod = importlib.import_module(module)
        mod.add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    mod = importlib.import_module(args._module)
    try:
        return int(mod.run(args) or 0)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
