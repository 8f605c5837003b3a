"""Dice: one seeded PRNG kept in the game state, scripted dice for tests, D10 pools with criticals (INTRO-1.2)."""
from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from game.core.settings import Settings

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: (new_state, output). Pure integer arithmetic, identical on every Python (GEO-28).

    >>> splitmix64(0)[1]
    16294208416658607535
    """
    state = (state + _GOLDEN) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def seed_state(seed: int) -> int:
    """The initial PRNG state for a game seed (any int, negative allowed)."""
    return splitmix64(seed & _MASK64)[1]


class DiceScriptError(RuntimeError):
    """Scripted dice ran out or held a value of the wrong kind for the die asked for."""


class Dice(Protocol):
    """Where rolls come from: the game's seeded PRNG, or a script in tests."""

    def d10(self) -> int: ...
    def d6(self) -> int: ...
    def angle(self) -> float: ...


class Rng:
    """A SplitMix64 generator whose whole state is one int (serialised with the game state)."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK64

    def next64(self) -> int:
        self.state, out = splitmix64(self.state)
        return out

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by multiply-shift (bias < n / 2**64)."""
        return (self.next64() * n) >> 64

    def d10(self) -> int:
        return self.below(10) + 1

    def d6(self) -> int:
        return self.below(6) + 1

    def angle(self) -> float:
        """Uniform angle in [0, 2*pi) (GEO-18 `deviation.direction`=uniform_continuous)."""
        return (self.next64() >> 11) * (2.0 * math.pi / (1 << 53))


class ScriptedDice:
    """Dice from a script: ints are D10 or D6 faces, floats are angles in radians (tests, TV vectors)."""

    __slots__ = ("values", "used")

    def __init__(self, values: Iterable[int | float]) -> None:
        self.values = list(values)
        self.used = 0

    def _next(self, what: str) -> int | float:
        if self.used >= len(self.values):
            raise DiceScriptError(f"scripted dice exhausted: a {what} was asked for after {self.used} values")
        v = self.values[self.used]
        self.used += 1
        return v

    def d10(self) -> int:
        v = self._next("D10")
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 10:
            raise DiceScriptError(f"scripted value #{self.used} is {v!r}, a D10 face (1..10) was asked for")
        return v

    def d6(self) -> int:
        v = self._next("D6")
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise DiceScriptError(f"scripted value #{self.used} is {v!r}, a D6 face (1..6) was asked for")
        return v

    def angle(self) -> float:
        v = self._next("angle")
        if not isinstance(v, float):
            raise DiceScriptError(f"scripted value #{self.used} is {v!r}, an angle (float radians) was asked for")
        return v

    @property
    def remaining(self) -> int:
        return len(self.values) - self.used


class Crit(enum.Enum):
    """The roll-level critical result of one pool (INTRO-1.2.CRIT-*)."""

    NONE = "none"
    SUCCESS = "success"  # at least one natural 1 and no 10: +1 action
    FAILURE = "failure"  # at least one natural 10 and no 1: 1 Pinned counter
    MIX = "mix"  # both: cancel (INTRO-1.2.CRIT-MIX)


@dataclass(frozen=True, slots=True)
class Modifier:
    """One line of a target-number breakdown: what, how much, which rule."""

    label: str
    value: int
    rule: str

    def as_list(self) -> list[str | int]:
        return [self.label, self.value, self.rule]


@dataclass(frozen=True, slots=True)
class TargetNumber:
    """A target number with its breakdown: base stat plus modifiers (INTRO-1.2.D10: roll <= TN)."""

    base: Modifier
    mods: tuple[Modifier, ...] = ()

    @property
    def value(self) -> int:
        return self.base.value + sum(m.value for m in self.mods)

    def breakdown(self) -> list[list[str | int]]:
        return [self.base.as_list()] + [m.as_list() for m in self.mods]

    def text(self) -> str:
        parts = [f"{self.base.label} {self.base.value}"]
        parts += [f"{m.label} {m.value:+d}" for m in self.mods]
        return f"TN {self.value} = " + " ".join(parts)


@dataclass(frozen=True, slots=True)
class PoolResult:
    """One evaluated D10 roll (a round): faces, TN, per-die success, count and the critical result."""

    faces: tuple[int, ...]
    tn: int
    success: tuple[bool, ...]
    crit: Crit

    @property
    def successes(self) -> int:
        return sum(self.success)


def evaluate_pool(faces: tuple[int, ...], tn: int, *, crits: bool = True,
                  settings: Settings | None = None) -> PoolResult:
    """Evaluate a D10 roll-under pool with the critical rules (INTRO-1.2.CRIT-*, GAP-11, GAP-15).

    Dice are never modified (GAP-15). With crits, a natural 1 succeeds and a natural 10 fails whatever
    the TN, except in a Critical Mix where, with `crit.mix_keeps_auto`=false, every die is compared
    with the TN normally (TV-11). Roll-level effects are counted once per roll (INTRO-1.2.CRIT-PER-ROUND).

    >>> evaluate_pool((1, 1, 10), 4).successes, evaluate_pool((1, 1, 10), 4).crit.value
    (2, 'mix')
    >>> evaluate_pool((1, 10), 0).successes, evaluate_pool((1, 10), 11).successes
    (0, 2)
    """
    s = settings or Settings.defaults()
    use_crits = crits and s["crit.enabled"]
    ones = 1 in faces
    tens = 10 in faces
    if not use_crits:
        return PoolResult(faces, tn, tuple(f <= tn for f in faces), Crit.NONE)
    if ones and tens:
        if s["crit.mix_keeps_auto"]:
            ok = tuple(f == 1 or (f != 10 and f <= tn) for f in faces)
        else:
            ok = tuple(f <= tn for f in faces)
        return PoolResult(faces, tn, ok, Crit.MIX)
    ok = tuple(f == 1 or (f != 10 and f <= tn) for f in faces)
    crit = Crit.SUCCESS if ones else Crit.FAILURE if tens else Crit.NONE
    return PoolResult(faces, tn, ok, crit)


def d3_from_d6(face: int) -> int:
    """INTRO-1.2.D3 (`dice.d3`=ceil(d6/2)): 1-2 -> 1, 3-4 -> 2, 5-6 -> 3."""
    return (face + 1) // 2
