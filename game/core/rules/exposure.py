"""The geometry the Zone's A.I. stands on (ZONE HOSTILE AI, "Shared definitions", AI-D.01, AI-D.04(d), AI-D.06):
who is an enemy, who is seen, how far, who stands in the open, who is in cover, what a shot would cost (`pen`),
the AI-D.01 target order with the numbers behind it, and the nearest cover (AI-S.SPAWN).

Pure queries over a GameState: no state writes, no dice (the resolver's situation and numbers are read through a
context whose dice refuse to roll). Every answer is a frozen dataclass holding the numbers, so the agent can put
them in its reason and the checker can re-derive them. Ties: the lowest stable model id, then the lowest (x, y).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from game.core.battlefield import Cover
from game.core.geometry.distance import base_distance, terrain_distance
from game.core.rules.attack import situation
from game.core.rules.context import Ctx, NoDice
from game.core.rules.modifiers import hit_tn
from game.core.rules.queries import can_see, catalog_of
from game.core.state import GameState, ModelState, SideKind

# The CA modifiers pen(H, e) adds up: obstructions, cover (after elevation), Obscured, Pinned target.
PEN_RULES = frozenset({"CORE-3.6.OBSTRUCTION", "CORE-3.6.TABLE", "GEO-14", "ARMORY-5.3.OBSCURED",
                       "COMBAT-4.3.KICK-RANGED"})
COVER_CLASSES = (Cover.SOFT, Cover.HARD, Cover.HARDENED)
CLOSE_TOL = 1.0  # AI-D.01 [`ai.close_tol`=1.0]
COVER_SLACK = 1.0  # AI-D.06 [`ai.cover_slack`=1.0]


@dataclass(frozen=True, slots=True)
class PenPart:
    """One CA modifier behind pen(H, e): its label, its value (negative) and the rule that gives it."""

    label: str
    value: int
    rule: str


@dataclass(frozen=True, slots=True)
class EnemyFact:
    """What hostile unit H knows about one enemy e (Shared definitions): dist(H, e) (GEO-4, min over H's models),
    H's nearest model to e, which of H's models see e (GEO-10), e's cover class against that model after
    elevation (GEO-12/GEO-14), whether e is in the open, and pen(H, e) with its parts."""

    enemy: str
    distance: float
    nearest: str
    seen_by: tuple[str, ...]
    cover: Cover
    in_open: bool
    pen: int
    pen_parts: tuple[PenPart, ...]

    @property
    def visible(self) -> bool:
        return bool(self.seen_by)


@dataclass(frozen=True, slots=True)
class TargetChoice:
    """AI-D.01 for hostile unit H: C = vis(H) (ordered by dist, id), whether C was narrowed to those in the open,
    d* = min dist, the tolerance (`ai.close_tol`), C' (the candidates within d* + tolerance) ordered by
    (pen, dist, id), and the choice (C'[0]; None when nobody is visible)."""

    unit: str
    visible: tuple[EnemyFact, ...]
    open_only: bool
    d_star: float
    tolerance: float
    ranked: tuple[EnemyFact, ...]
    rule: str = "AI-D.01"

    @property
    def chosen(self) -> EnemyFact | None:
        return self.ranked[0] if self.ranked else None


@dataclass(frozen=True, slots=True)
class CoverStanding:
    """A hostile model's cover (Shared definitions "in cover"): against a visible target its GEO-12/GEO-14 class
    after elevation (`against` the target id), or at rest the soft/hard/hardened pieces its base touches (GEO-6)."""

    model: str
    against: str | None
    cover: Cover
    pieces: tuple[int, ...]
    in_cover: bool


def read_ctx(state: GameState) -> Ctx:
    """A read-only context over `state`: dice that refuse to roll, nothing emitted that anyone keeps."""
    return Ctx(state, NoDice(), state.battlefield)


def unit_models(state: GameState, unit: str) -> tuple[ModelState, ...]:
    """The models of `unit` in play, by stable id."""
    return tuple(sorted((m for m in state.unit_models(unit) if m.in_play), key=lambda m: m.id))


def enemies(state: GameState, unit: str, *, hostile_vs_hostile: bool = False) -> tuple[ModelState, ...]:
    """Shared definitions: *enemy* = any crew model not OOA/Dead (of any crew), by stable id. Hostiles never attack
    hostiles (the `ai.hostile_vs_hostile` default false; the caller that owns the A.I.'s settings passes it):
    with true, models of the other hostile forces count too."""
    own = state.units[unit].side
    hvh = hostile_vs_hostile
    kinds = {s.id: s.kind for s in state.sides}
    out = [m for m in state.models.values() if m.in_play and m.side != own
           and (kinds.get(m.side) is SideKind.CREW or (hvh and kinds.get(m.side) is SideKind.HOSTILE))]
    return tuple(sorted(out, key=lambda m: m.id))


def dist(state: GameState, unit: str, enemy: str) -> float:
    """Shared definitions: dist(H, e) = min over H's models of D (GEO-4, base edge to base edge)."""
    e = state.models[enemy]
    return min((base_distance(m.base(), e.base()).distance for m in unit_models(state, unit)), default=math.inf)


def nearest_model(state: GameState, unit: str, enemy: str) -> ModelState:
    """H's model nearest e (GEO-4 D, ties: lowest id): the model "in the open" and pen(H, e) are measured from."""
    e = state.models[enemy]
    models = unit_models(state, unit)
    if not models:
        raise ValueError(f"unit {unit} has no model in play")
    return min(models, key=lambda m: (base_distance(m.base(), e.base()).distance, m.id))


def seen_by(state: GameState, unit: str, enemy: str) -> tuple[str, ...]:
    """The models of H with GEO-10 LOS to e (the engine's own `queries.can_see`), by id."""
    ctx = read_ctx(state)
    e = state.models[enemy]
    return tuple(m.id for m in unit_models(state, unit) if can_see(ctx, m, e))


def vis(state: GameState, unit: str, *, hostile_vs_hostile: bool = False) -> tuple[ModelState, ...]:
    """Shared definitions: vis(H) = the enemies in LOS of at least one model of H, by stable id."""
    return tuple(e for e in enemies(state, unit, hostile_vs_hostile=hostile_vs_hostile) if seen_by(state, unit, e.id))


def pen_parts(state: GameState, shooter: ModelState, target: ModelState) -> tuple[PenPart, ...]:
    """The CA modifiers of pen: obstructions (GEO-13), cover after elevation (GEO-12/GEO-14), Obscured and the Pinned
    target's -2, as the resolver computes them (`attack.situation` + `modifiers.hit_tn` of a direct ranged attack,
    weapon bonuses left out: they are not penalties)."""
    ctx = read_ctx(state)
    s = situation(ctx, shooter, target, melee=False)
    cat = catalog_of(ctx)
    w = cat.weapon("unarmed")
    tn = hit_tn(shooter, target, w, w.profile, s, catalog=cat, settings=ctx.settings,
                target_pinned=state.units[target.unit].pins > 0)
    return tuple(PenPart(m.label, m.value, m.rule) for m in tn.mods if m.rule in PEN_RULES and m.value < 0)


def enemy_fact(state: GameState, unit: str, enemy: str) -> EnemyFact:
    """Everything the Shared definitions say about e from H, in one fact (see EnemyFact)."""
    e = state.models[enemy]
    near = nearest_model(state, unit, enemy)
    s = situation(read_ctx(state), near, e, melee=False)
    parts = pen_parts(state, near, e)
    return EnemyFact(enemy, dist(state, unit, enemy), near.id, seen_by(state, unit, enemy), s.cover,
                     s.cover not in COVER_CLASSES, -sum(p.value for p in parts), parts)


def in_the_open(state: GameState, unit: str, enemy: str) -> bool:
    """Shared definitions: e is *in the open* iff it has no cover (after elevation: GEO-12, GEO-14) against H's
    nearest model. A soft piece degraded by elevation to an obstruction is no cover: e is in the open."""
    e = state.models[enemy]
    return situation(read_ctx(state), nearest_model(state, unit, enemy), e, melee=False).cover not in COVER_CLASSES


def pen(state: GameState, unit: str, enemy: str) -> int:
    """Shared definitions: pen(H, e) = the total CA penalty H's nearest model would suffer shooting e (obstructions +
    cover + Obscured + Pinned -2), as a non-negative number (see `pen_parts`)."""
    return -sum(p.value for p in pen_parts(state, nearest_model(state, unit, enemy), state.models[enemy]))


def choose_target(state: GameState, unit: str, *, close_tol: float = CLOSE_TOL,
                  hostile_vs_hostile: bool = False) -> TargetChoice:
    """AI-D.01 (AI-8.3.RULE3): C = vis(H); if some candidate is in the open, C = those in the open; d* = min dist;
    C' = {e in C : dist(H, e) <= d* + close_tol}; choose min over C' of (pen(H, e), dist(H, e), id). `close_tol` is
    `ai.close_tol` (default 1.0"), passed by the caller that owns the A.I.'s settings. The lock (AI-D.02) and the
    melee draw (AI-D.03) are the agent's memory, not this query's."""
    tol = float(close_tol)
    seen = [e for e in enemies(state, unit, hostile_vs_hostile=hostile_vs_hostile) if seen_by(state, unit, e.id)]
    facts = sorted((enemy_fact(state, unit, e.id) for e in seen), key=lambda f: (f.distance, f.enemy))
    opened = [f for f in facts if f.in_open]
    pool = opened or facts
    d_star = min((f.distance for f in pool), default=math.inf)
    near = [f for f in pool if f.distance <= d_star + tol + 1e-9]
    ranked = tuple(sorted(near, key=lambda f: (f.pen, f.distance, f.enemy)))
    return TargetChoice(unit, tuple(facts), bool(opened), d_star, tol, ranked)


def cover_against(state: GameState, model: str, target: str) -> CoverStanding:
    """Shared definitions, *in cover* for a hostile against a visible target: its GEO-12/GEO-14 cover (after
    elevation) against that target, the target being the attacker, is soft or better."""
    m, t = state.models[model], state.models[target]
    s = situation(read_ctx(state), t, m, melee=False)
    return CoverStanding(model, target, s.cover, (), s.cover in COVER_CLASSES)


def in_cover_against(state: GameState, unit_or_model: str, target: str) -> bool:
    """`cover_against` for a model, or for a unit: every model of it in play is in cover against `target`."""
    ids = [m.id for m in unit_models(state, unit_or_model)] if unit_or_model in state.units else [unit_or_model]
    return bool(ids) and all(cover_against(state, i, target).in_cover for i in ids)


def cover_at_rest(state: GameState, model: str) -> CoverStanding:
    """Shared definitions, *in cover* for a unit with no visible enemy (AI-D.04(d), AI-S.SPAWN): the base is in
    contact (GEO-6, `geo.contact_tol`) with a soft, hard or hardened piece; `cover` is the best touched class."""
    m = state.models[model]
    settings = read_ctx(state).settings
    touching = [p for p in state.battlefield.pieces if p.cover in COVER_CLASSES
                and terrain_distance(m.base(), p, settings=settings).in_contact]
    best = max((p.cover for p in touching), key=lambda c: c.rank, default=Cover.NONE)
    return CoverStanding(model, None, best, tuple(sorted(int(p.id) for p in touching)), bool(touching))


def in_cover_at_rest(state: GameState, unit_or_model: str) -> bool:
    """`cover_at_rest` for a model, or for a unit: every model of it in play touches such a piece."""
    ids = [m.id for m in unit_models(state, unit_or_model)] if unit_or_model in state.units else [unit_or_model]
    return bool(ids) and all(cover_at_rest(state, i).in_cover for i in ids)

