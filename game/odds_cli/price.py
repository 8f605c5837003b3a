"""The exact odds of an attack: direct fire through ranged_round, templates through the tiny table."""
from __future__ import annotations

from typing import Any

from game.core.odds.ranged import RangedOdds, ranged_round
from game.core.settings import Settings
from game.odds_cli.attack import Attack
from game.odds_cli.build import ranged_parts
from game.odds_cli.checks import check_spec
from game.odds_cli.table import BlastOdds, blast_odds


def price(a: Attack, settings: Settings | None = None) -> RangedOdds | BlastOdds:
    """The exact odds of a checked attack: a direct one through attack_numbers and ranged_round, a template one
    through template_odds on a tiny table (its deviation arcs are floats where geometry makes them so)."""
    s = settings or Settings.defaults()
    if a.template is not None:
        return blast_odds(a, s)
    nums, unit, sit, cat = ranged_parts(a, s)
    return ranged_round("attacker", "target", nums, unit, sit, catalog=cat)


def odds_from_spec(spec: dict[str, Any], *, settings: Settings | None = None,
                   where: dict[str, str] | None = None) -> RangedOdds | BlastOdds:
    """The exact odds of a described attack (every field of FIELDS and FLAGS optional); SpecError if refused."""
    s = settings or Settings.defaults()
    return price(check_spec(spec, where, settings=s), s)
