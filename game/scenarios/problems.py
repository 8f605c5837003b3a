"""What is wrong with a scenario file: every problem, each naming the file, the field, what is wrong and what is
allowed (`file: field: what is wrong; allowed: ...`). A ScenarioError carries all of them."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem: the file, the field's dotted path (`hostiles[2].figures`), what is wrong, what is allowed."""

    file: str
    field: str
    what: str
    allowed: str = ""

    def __str__(self) -> str:
        tail = f"; allowed: {self.allowed}" if self.allowed else ""
        return f"{self.file}: {self.field}: {self.what}{tail}"


class ScenarioError(ValueError):
    """A scenario that cannot be played: every problem found (`problems`), one per line in the message."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(p.field for p in self.problems)


class Collector:
    """Gathers the problems of one file."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []

    def add(self, field: str, what: str, allowed: str = "") -> None:
        self.problems.append(Problem(self.file, field, what, allowed))

    def raise_if_any(self) -> None:
        if self.problems:
            raise ScenarioError(self.problems)
