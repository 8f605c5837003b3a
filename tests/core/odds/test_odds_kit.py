"""Exhaustive enumeration of `apply` with scripted dice: every die over its outcome classes (natural 1; 2..TN;
TN+1..9; natural 10) weighted by face count, for comparison with game.core.odds.ranged (INTRO-1.2.CRIT-*)."""
from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from types import FrameType
from typing import Any

from game.core.actions import DeclineMedKit, Parry, UseItem
from game.core.odds.melee import parry_choice
from game.core.odds.unit import medkit_use_now
from game.core.rules.apply import apply
from game.core.rules.context import settings_of
from game.core.state import GameState, Phase


class NeedDie(Exception):
    """The script ran out: the next D10 belongs to a success test at `tn` (None: not a test, 10 faces) in a pool of
    `n`."""

    def __init__(self, tn: int | None, n: int, pooled: bool) -> None:
        super().__init__(tn)
        self.tn, self.n, self.pooled = tn, n, pooled


class EnumDice:
    """Dice from a prefix; past it, find which roll asks (by the resolver frame) and stop."""

    def __init__(self, prefix: list[int], angle: float = 0.0) -> None:
        self.prefix, self.i, self.angle_value = prefix, 0, angle

    def d10(self) -> int:
        if self.i < len(self.prefix):
            self.i += 1
            return self.prefix[self.i - 1]
        f: FrameType | None = sys._getframe(1)
        while f is not None:
            name = f.f_code.co_name
            if name == "roll_pool":
                raise NeedDie(f.f_locals["tn"].value, f.f_locals["n"], True)
            if name in ("roll_saves", "burn_save_roll"):
                raise NeedDie(f.f_locals["tn"].value, 1, False)
            if name in ("pick", "resolve_blast"):
                raise NeedDie(None, 1, False)
            f = f.f_back
        raise AssertionError("a D10 was asked for outside any known roll")

    def d6(self) -> int:
        raise AssertionError("no D6 in an attack")

    def angle(self) -> float:
        return self.angle_value


def classes(tn: int | None) -> list[tuple[int, int]]:
    """(representative face, face count) per outcome class of one die at `tn`; a non-test die has 10 classes."""
    if tn is None:
        return [(f, 1) for f in range(1, 11)]
    out = [(1, 1)]
    if tn >= 2:
        out.append((2, min(tn, 9) - 1))
    if tn <= 8:
        lo = max(tn + 1, 2)
        out.append((lo, 10 - lo))
    out.append((10, 1))
    return out


@dataclass
class Leaf:
    state: GameState
    events: list
    weight: Fraction


@dataclass
class Policy:
    """How decisions are taken during the enumeration: the parry policy and whether `ai` sides use Med-Kits."""

    parry: str = "ai"
    p_a: float = 0.0
    p_b: float = 0.0
    decisions: list = field(default_factory=list)


def decide(st: GameState, pol: Policy) -> Any:
    if st.phase is Phase.PARRY:
        c = st.continuations[0]
        unit = st.models[c["attacker"]].unit
        return Parry(unit, parry_choice(pol.parry, c["a_hits"], c["d_hits"], pol.p_a, pol.p_b))
    dec = st.wound_queue[0]
    m = st.models[dec.model]
    cap = min(settings_of(st)["medkit.max_per_round"], dec.wounds)
    ai = st.side(m.side).controller == "ai"
    if ai and medkit_use_now(m.wounds_taken, m.profile.wounds, m.items.count("medkit"), cap - dec.dressed):
        return UseItem(m.unit, "medkit")
    return DeclineMedKit(m.id)


def enumerate_apply(base: GameState, action: Any, *, pol: Policy | None = None, pooled: bool = False,
                    angle: float = 0.0, prefix: list[int] | None = None) -> list[Leaf]:
    """Every outcome of `action` from `base`: a depth-first walk over die classes, re-running `apply` on a clone
    with a longer script each time a die is missing. `pooled`: a whole roll_pool is enumerated at once as a
    multiset of classes with multinomial weights (the same distribution, fewer runs)."""
    pol = pol or Policy()
    leaves: list[Leaf] = []
    stack: list[tuple[list[int], Fraction]] = [(list(prefix or []), Fraction(1))]
    while stack:
        script, w = stack.pop()
        st = base.clone()
        dice = EnumDice(script, angle)
        events: list = []
        try:
            events += apply(st, action, dice)
            while st.phase in (Phase.PARRY, Phase.MEDKIT):
                events += apply(st, decide(st, pol), dice)
        except NeedDie as need:
            if pooled and need.pooled and need.n > 1:
                cl = classes(need.tn)
                for combo in itertools.combinations_with_replacement(range(len(cl)), need.n):
                    counts = [combo.count(i) for i in range(len(cl))]
                    mult = math.factorial(need.n)
                    cw = 1
                    for i, c in enumerate(counts):
                        mult //= math.factorial(c)
                        cw *= cl[i][1] ** c
                    stack.append((script + [cl[i][0] for i in combo], w * mult * cw / 10 ** need.n))
            else:
                for face, count in classes(need.tn):
                    stack.append((script + [face], w * Fraction(count, 10)))
            continue
        assert dice.i == len(script), "unused scripted dice"
        leaves.append(Leaf(st, events, w))
    return leaves


def marginal(leaves: list[Leaf], key: Callable[[Leaf], Any]) -> dict:
    out: dict = {}
    for lf in leaves:
        k = key(lf)
        out[k] = out.get(k, 0) + lf.weight
    return {k: v for k, v in out.items() if v}


def rolls(lf: Leaf, prefix: str) -> list:
    return [e for e in lf.events if e.type == "roll" and e.data["what"].startswith(prefix)]


def nonzero(d: dict) -> dict:
    return {k: v for k, v in d.items() if v}
