"""Proportions with 95% intervals for the headless reports (issue 16): the Wilson score interval, and a `Rate` that
carries its numerator and denominator so a report can print both beside the interval."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile: a two-sided 95% interval


def wilson(successes: float, trials: int, *, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (Wilson 1927) for a proportion: `successes` of `trials` (successes may be a half
    count, e.g. wins + draws/2). Unlike the normal approximation it stays inside [0, 1] and is honest near 0 and 1
    and for small samples. (0.0, 1.0) when there are no trials.

    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    >>> [round(x, 4) for x in wilson(0, 10)]
    [0.0, 0.2775]
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"wilson: successes {successes} must lie in 0..trials, trials {trials} must be >= 0")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Rate:
    """`num` of `den` (num may be a half count), with its Wilson 95% interval."""

    num: float
    den: int

    @property
    def value(self) -> float | None:
        return self.num / self.den if self.den else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.num, self.den)

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"num": self.num, "den": self.den, "rate": self.value, "ci95": [round(lo, 6), round(hi, 6)]}

    def text(self) -> str:
        """`num/den (p%, 95% CI lo-hi%)`; `0/0 (-)` for no trials.

        >>> Rate(5, 10).text()
        '5/10 (50.0%, 95% CI 23.7-76.3%)'
        >>> Rate(1.5, 2).text()
        '1.5/2 (75.0%, 95% CI 19.8-97.3%)'
        """
        if not self.den:
            return f"{_num(self.num)}/0 (-)"
        lo, hi = self.interval
        return f"{_num(self.num)}/{self.den} ({100 * self.num / self.den:.1f}%, 95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
