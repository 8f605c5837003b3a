"""AI-D.01 re-derived from the core's geometric facts (Shared definitions, AI-8.3.RULE3): the referee ranks the
candidates itself, so a mistake in the core's own ranking (`exposure.choose_target`) shows as a disagreement."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from game.core.rules.exposure import EnemyFact, enemies, enemy_fact, seen_by, unit_models
from game.core.state import GameState


@dataclass(frozen=True, slots=True)
class Intent:
    """The target a hostile unit must attack now and why: "draw" (AI-D.03), "lock" (AI-D.02), "choice" (AI-D.01,
    no memory), or "none" (nobody to attack)."""

    target: str | None
    source: str


def rank(facts: Iterable[EnemyFact], tolerance: float) -> list[EnemyFact]:
    """AI-D.01 over the visible facts: those in the open if any; C' = within d* + tolerance; ordered by
    (pen, dist, id). The first is the choice."""
    pool = [f for f in facts if f.visible]
    opened = [f for f in pool if f.in_open]
    pool = opened or pool
    if not pool:
        return []
    d_star = min(f.distance for f in pool)
    near = [f for f in pool if f.distance <= d_star + tolerance + 1e-9]
    return sorted(near, key=lambda f: (f.pen, f.distance, f.enemy))


def visible_enemies(state: GameState, unit: str, *, hostile_vs_hostile: bool = False) -> list[str]:
    """vis(H): the enemies seen by at least one model of H (the core's GEO-10 LOS), by id."""
    if not unit_models(state, unit):
        return []
    return [e.id for e in enemies(state, unit, hostile_vs_hostile=hostile_vs_hostile) if seen_by(state, unit, e.id)]


def choose(state: GameState, unit: str, among: Iterable[str], tolerance: float) -> str | None:
    """AI-D.01 restricted to `among` (ids of visible enemies): the referee's own ranking of the core's facts."""
    facts = [enemy_fact(state, unit, e) for e in among]
    ranked = rank(facts, tolerance)
    return ranked[0].enemy if ranked else None


def choice(state: GameState, unit: str, tolerance: float, *, hostile_vs_hostile: bool = False) -> str | None:
    """AI-D.01 over vis(H)."""
    return choose(state, unit, visible_enemies(state, unit, hostile_vs_hostile=hostile_vs_hostile), tolerance)
