"""`zona-alfa odds`: the arguments and the run (exit 0 with the report, 2 with one refusal line)."""
from __future__ import annotations

import argparse
import json
import sys

from game.core.settings import Settings
from game.odds_cli.checks import check_spec
from game.odds_cli.json_out import attack_json, odds_json, target_json
from game.odds_cli.price import price
from game.odds_cli.spec import ALIASES, FIELDS, FLAG_HELP, FLAGS, SpecError, spec_from
from game.odds_cli.text_out import odds_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One option per field of FIELDS and FLAGS, the old names hidden, the JSON file and `--json`."""
    parser.add_argument("spec", nargs="?", help="JSON file with any of the fields below (flags override it)")
    for name, (_typ, default, help_text) in FIELDS.items():
        shown = "" if default is None else f" (default {default if default != '' else 'none'})"
        parser.add_argument("--" + name.replace("_", "-"), dest=name, default=None, metavar=name.upper(),
                            help=help_text + shown)
    for old in ALIASES:
        parser.add_argument("--" + old, dest=f"alias_{old}", default=None, help=argparse.SUPPRESS)
    for name in FLAGS:
        parser.add_argument("--" + name.replace("_", "-"), dest=name, action="store_true", default=None,
                            help=FLAG_HELP[name])
    parser.add_argument("--json", dest="as_json", action="store_true",
                        help="print the numbers and exact probabilities as \"p/q\" strings")


def run(args: argparse.Namespace) -> int:
    """Print the report (or `--json`) and return 0; a refused description is one line on stderr and 2."""
    s = Settings.defaults()
    try:
        raw, where = spec_from(args)
        attack = check_spec(raw, where, settings=s)
        o = price(attack, s)
    except SpecError as exc:
        print(f"zona-alfa odds: {exc}", file=sys.stderr)
        return 2
    if args.as_json:
        out = odds_json(o, settings=s)
        out = {"attack": attack_json(attack), "target": target_json(attack)} | out
        print(json.dumps(out, indent=2))
    else:
        print(odds_text(o, attack, settings=s))
    return 0
