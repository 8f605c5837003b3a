"""Small pieces every crew agent uses (the random-legal baseline and the autopilot): a unit's lead model, a path cut
at a length, and whether the engine would accept an action now."""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from game.core.actions import Action, IllegalAction
from game.core.battlefield import Point3
from game.core.rules import validate
from game.core.state import GameState, ModelState


def lead(st: GameState, uid: str) -> ModelState:
    """The unit's first model in play (unit order)."""
    return next(st.models[x] for x in st.units[uid].models if st.models[x].in_play)


def cut(points: Sequence[Point3], length: float) -> tuple[Point3, ...]:
    """The waypoints of a path (start first) cut after `length` inches, never half-way up or down a level; the
    start itself is not among them. Exact floats: rounding a tangent point would push the base into the corner it
    skirts."""
    left = length
    pts: list[Point3] = []
    for a, b in itertools.pairwise(points):
        seg = math.dist(a, b)
        if seg <= left:
            pts.append(b)
            left -= seg
            continue
        t = left / seg if seg else 0.0
        if abs(b[2] - a[2]) <= 0.01:  # never stop half-way up stairs, a ladder or a climb
            pts.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2]))
        break
    return tuple((p[0], p[1], p[2]) for p in pts)


def legal(st: GameState, a: Action) -> bool:
    """The engine's own check (`validate`): would `a` be accepted now?"""
    try:
        validate(st, a)
    except IllegalAction:
        return False
    return True
