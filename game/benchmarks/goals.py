"""The goal of each benchmark figure and how a text line says whether it was met (`MISSED` when not)."""
from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

MISSED = "MISSED"


class Better(enum.Enum):
    """Which way a figure improves."""

    LOWER = "<="  # times
    HIGHER = ">="  # rates and speed-ups


@dataclass(frozen=True, slots=True)
class Goal:
    """A figure's target: `metric <= target` (LOWER) or `metric >= target` (HIGHER)."""

    metric: str
    better: Better
    target: float

    def met(self, value: float) -> bool:
        """>>> Goal("x_ms", Better.LOWER, 5).met(5.0), Goal("x_per_s", Better.HIGHER, 10).met(9.9)
        (True, False)
        """
        return value <= self.target if self.better is Better.LOWER else value >= self.target

    def note(self, value: float) -> str:
        """'goal <= 5' or 'goal <= 5 MISSED': what a text line shows after the figure.

        >>> Goal("path_query_ms", Better.LOWER, 5).note(6.2)
        'goal <= 5 MISSED'
        """
        return f"goal {self.better.value} {self.target:g}" + ("" if self.met(value) else f" {MISSED}")


def goal_note(goals: Iterable[Goal], metric: str, value: float) -> str:
    """The note of `metric`'s goal; a figure without a goal has none ('')."""
    for g in goals:
        if g.metric == metric:
            return g.note(value)
    return ""


def missed(goals: Iterable[Goal], metrics: Mapping[str, float]) -> list[tuple[Goal, float]]:
    """The goals whose figure was measured and missed, in the goals' order."""
    return [(g, metrics[g.metric]) for g in goals if g.metric in metrics and not g.met(metrics[g.metric])]
