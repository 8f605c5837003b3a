"""The `zona-alfa` command line: one subcommand per capability, imported only when used."""
from __future__ import annotations

import argparse
import importlib
import sys

# Each subcommand lives in its own module exposing `add_arguments(parser)` and `run(args) -> int`.
# Modules that need pygame or pytmx import them inside `run`, so `--help` stays light.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "play": ("game.client.play_cli", "open the game's window: watch the agents play a scenario (the pygame-ce client)"),
    "demo": ("game.sim.demo_cli", "play a seeded demo game between two random-legal crews and print the log"),
    "simulate": ("game.sim.simulate_cli", "play many seeded games of a scenario headless and sum up what happened"),
    "replay": ("game.sim.replay_cli", "re-play a game record and print its log; refuse a cut or edited record"),
    "check-crew": ("game.crews.check_cli",
                   "check crew roster files against the format and PART 7's starting-crew rules; --list the shipped"),
    "check-map": ("game.maps.lint", "lint Tiled maps: report every problem with object id and name"),
    "check-scenario": ("game.scenarios.check_cli", "check scenario files: report every problem with its field"),
    "generate-mission": ("game.scenarios.generate_cli",
                         "roll a mission on the Mission Table for a shipped table and write it as a scenario file"),
    "render-map": ("game.render.picture", "draw a map (and overlays) to a PNG"),
    "odds": ("game.odds_cli.command",
             "exact outcome distribution of a ranged or template attack (hits, wounds, Pins, OOA, crits)"),
}
INTERNAL_ERROR = 70  # EX_SOFTWARE: a bug, not the user's input
REPORT_HINT = "please report it with the command line that caused it (a bug, not your input)"


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with `only`, the arguments of that subcommand alone are loaded (its module imported), so
    one subcommand never fails because another's module cannot be imported."""
    parser = argparse.ArgumentParser(prog="zona-alfa", description="Zona Alfa digital tabletop")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module)
        if only is None or name == only:
            importlib.import_module(module).add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand and return its exit status: 0 done, 1 a failed lint, 2 wrong input (one line naming the
    argument; argparse's own refusals too), 70 an unexpected error (one line and a hint to report it)."""
    command = "?"
    try:
        words = sys.argv[1:] if argv is None else argv
        chosen = next((w for w in words if not w.startswith("-")), "")
        parser = build_parser(only=chosen if chosen in SUBCOMMANDS else "")
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # argparse printed the usage and one error line (2), or the help (0)
            return exc.code if isinstance(exc.code, int) else 2
        command = getattr(args, "command", None) or "?"
        if command == "?":
            parser.print_help()
            return 2
        mod = importlib.import_module(args._module)
        return int(mod.run(args) or 0)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the last line of defence: never a traceback
        text = " ".join(str(exc).split())[:300] or "(no message)"
        print(f"zona-alfa {command}: internal error: {type(exc).__name__}: {text}; {REPORT_HINT}", file=sys.stderr)
        return INTERNAL_ERROR
