"""Exact probabilities as the output gives them: "p/q" strings and P(one hit alone is saved)."""
from __future__ import annotations

from fractions import Fraction

from game.core.odds.pools import pool_dist
from game.core.settings import Settings

Prob = Fraction | float


def pq(x: Prob) -> str | float:
    """Exact probabilities as "p/q"; a float (a deviation arc found by geometry) stays a JSON number."""
    return f"{x.numerator}/{x.denominator}" if isinstance(x, Fraction) else x


def p_saved(tn: int, dice: int, s: Settings) -> Fraction:
    """P(one hit alone is saved): odds.pools.pool_dist of one hit, `dice` dice kept best (COMBAT-4.1.SAVE, GAP-14)."""
    d = pool_dist(1, tn, group=dice, settings=s)
    return Fraction(d.by_succ[1], d.denom)
