"""What the Zone's agent reads of a state, all through the core's public queries: its units and models, their
force's leash, the target memory `apply` keeps (AI-D.02/AI-D.03), the legality of a candidate action, and a model
tried at another point (to ask "would this spot keep LOS and range?" with the engine's own checks)."""
from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from game.core.actions import Action, IllegalAction
from game.core.battlefield import Point2, Point3
from game.core.catalog.profiles import Weapon
from game.core.rules import settings_of
from game.core.rules.context import Ctx, NoDice
from game.core.rules.dispatch import ACTIONS
from game.core.rules.exposure import unit_models
from game.core.rules.movepath import allowance_of
from game.core.rules.queries import catalog_of
from game.core.state import ForceState, GameState, ModelState

TERRITORY = 12.0  # AI-D.02 / AI-D.04 (b): the territory is the 12" round pL


@dataclass(frozen=True, slots=True)
class Tuning:
    """The `ai.*` settings of a game (AI-D.01 `ai.close_tol`, AI-D.06 `ai.cover_slack`, AI-D.07 `ai.alert`,
    `ai.hostile_vs_hostile`)."""

    close_tol: float
    cover_slack: float
    alert: bool
    hostile_vs_hostile: bool

    @staticmethod
    def of(state: GameState) -> Tuning:
        s = settings_of(state)
        return Tuning(float(s["ai.close_tol"]), float(s["ai.cover_slack"]), bool(s["ai.alert"]),
                      bool(s["ai.hostile_vs_hostile"]))


def ctx_of(state: GameState) -> Ctx:
    """A read-only context with the action table, so unit actions can be checked without dice."""
    return Ctx(state, NoDice(), state.battlefield, ACTIONS)


def force_of(state: GameState, unit: str) -> ForceState | None:
    return state.forces.get(state.units[unit].side)


def in_territory(state: GameState, unit: str, model: str) -> bool:
    """AI-D.02 / AI-D.04 (b): the model's centre within 12.0" of the unit's location point pL (no location: never)."""
    f = force_of(state, unit)
    if f is None or f.centre is None:
        return False
    m = state.models[model]
    limit = f.leash if f.leash is not None else TERRITORY
    return math.hypot(m.x - f.centre[0], m.y - f.centre[1]) <= limit + 1e-9


def target_of(state: GameState, unit: str) -> str | None:
    """AI-D.03 overrides AI-D.02: the melee draw, else the lock; None when the unit has neither."""
    mem = state.ai.get(unit)
    if mem is None:
        return None
    t = mem.draw or mem.lock
    if t is None or t not in state.models or not state.models[t].in_play:
        return None
    return t


def last_known(state: GameState, unit: str) -> Point2 | None:
    mem = state.ai.get(unit)
    if mem is None or not mem.last_known:
        return None
    return (mem.last_known[0], mem.last_known[1])


def weapons(state: GameState, m: ModelState) -> list[Weapon]:
    cat = catalog_of(ctx_of(state))
    return [cat.weapon(w) for w in m.profile.weapons]


def ranged_weapons(state: GameState, m: ModelState) -> list[Weapon]:
    """Weapons with a range (not "Melee" alone, not a flame template)."""
    return [w for w in weapons(state, m) if any(p.range_max and p.template is None for p in w.profiles)]


def is_ranged_unit(state: GameState, unit: str) -> bool:
    models = unit_models(state, unit)
    return bool(models) and bool(ranged_weapons(state, models[0]))


def allowance(state: GameState, m: ModelState, context: str = "own") -> float:
    """The model's one-Move allowance (GEO-8), as the engine's Move check computes it."""
    return allowance_of(ctx_of(state), m, context).inches


def legal(state: GameState, action: Action, unit: str, context: str = "own") -> bool:
    """The unit action passes the engine's own checks (dispatch), ignoring whose turn it is."""
    try:
        ACTIONS.check(ctx_of(state), action, actor=unit, context=context)
    except IllegalAction:
        return False
    return True


@contextmanager
def placed(state: GameState, model: str, xyz: Point3) -> Iterator[ModelState]:
    """Try `model` standing at `xyz` (restored afterwards): the queries run on the state as it would be."""
    m = state.models[model]
    old = (m.x, m.y, m.z)
    m.x, m.y, m.z = xyz
    try:
        yield m
    finally:
        m.x, m.y, m.z = old


def straight(a: ModelState, b: ModelState) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)
