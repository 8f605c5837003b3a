"""`zona-alfa odds`: the exact distribution of a ranged or template attack, priced from the catalog (COMBAT-4.*)."""
from __future__ import annotations

from game.odds_cli.attack import FLAME_REACH, Attack
from game.odds_cli.build import build_attack
from game.odds_cli.checks import COVERS, OBSCURED, check_spec
from game.odds_cli.command import add_arguments, run
from game.odds_cli.exact import Prob, p_saved
from game.odds_cli.json_out import odds_json
from game.odds_cli.price import odds_from_spec, price
from game.odds_cli.spec import ALIASES, FIELDS, FLAG_HELP, FLAGS, MAX_SPEC_BYTES, SpecError, read_spec_file, spec_from
from game.odds_cli.table import BlastOdds, tiny_table
from game.odds_cli.text_out import EFFECTS_TEXT, odds_text, tn_text

__all__ = [
    "ALIASES",
    "COVERS",
    "EFFECTS_TEXT",
    "FIELDS",
    "FLAGS",
    "FLAG_HELP",
    "FLAME_REACH",
    "MAX_SPEC_BYTES",
    "OBSCURED",
    "Attack",
    "BlastOdds",
    "Prob",
    "SpecError",
    "add_arguments",
    "build_attack",
    "check_spec",
    "odds_from_spec",
    "odds_json",
    "odds_text",
    "p_saved",
    "price",
    "read_spec_file",
    "run",
    "spec_from",
    "tiny_table",
    "tn_text",
]
