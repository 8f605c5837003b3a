"""Exposure at a destination (issue 18): which enemy crews and hostile units could see and shoot a model standing at
a point, with their exact odds of Wounding it (COMBAT-4.1.RANGED through `attack_odds`), its cover against them
(GEO-12/GEO-14 after elevation, `attack.situation`), whether it would be *in the open* for the hostiles' targeting
(ZONE HOSTILE AI Shared definitions, AI-D.01) and whether a hostile unit would target it there (AI-D.02 lock /
AI-D.03 draw if held, else the AI-D.01 choice, the same core queries `memory.checkpoint` and the Zone's agent use);
and the cover icons of every enemy against a selected model.

Pure queries: the hypothetical is a clone of the state (GameState.clone; the battlefield is shared), the odds roll
no dice (read contexts whose dice refuse to roll). The module lives under game.core.odds because it prices attacks
with the odds API and the core's layers put odds over rules.
"""
from __future__ import annotations

from dataclasses import dataclass

from game.core.actions import IllegalAction, RangedAttack
from game.core.battlefield import Cover
from game.core.odds.actions import attack_odds
from game.core.rules import settings_of
from game.core.rules.attack import situation
from game.core.rules.context import Ctx, NoDice, read_ctx
from game.core.rules.dispatch import ACTIONS
from game.core.rules.exposure import choose_target, in_the_open, nearest_model, seen_by, unit_models
from game.core.rules.queries import catalog_of
from game.core.state import GameState, ModelState, SideKind

RULES = ("GEO-10", "GEO-12", "GEO-14", "COMBAT-4.1.RANGED", "AI-D.01")
HOSTILE_RULES = (*RULES, "AI-D.02", "AI-D.03")


@dataclass(frozen=True, slots=True)
class Threat:
    """One enemy unit against the model at the point: its side and kind ('crew' or 'hostile'), its models with
    GEO-10 LOS to the model (`shooters`), the model's cover against the unit's nearest model (GEO-12/GEO-14 after
    elevation), whether the model is in the open for that unit (AI-D.01's sense), the best exact chance over the
    shooters' legal ranged attacks of at least one Wound (0.0 when none is legal), and for hostiles whether the unit
    would target the model (None for crews)."""

    unit: str
    side: str
    kind: str
    shooters: tuple[str, ...]
    cover: Cover
    in_open: bool
    p_wound: float
    would_target: bool | None
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Exposure:
    """The model, the point it was tried at, the threats (by unit id) and the hostile units that would target it."""

    model: str
    point: tuple[float, float, float]
    threats: tuple[Threat, ...]
    targeted_by: tuple[str, ...]


def hypothetical(state: GameState, model: str, point: tuple[float, ...]) -> GameState:
    """A clone of the state with `model` standing at `point` ((x, y) keeps its z). The state is not touched."""
    hyp = state.clone()
    m = hyp.models[model]
    m.x, m.y = float(point[0]), float(point[1])
    if len(point) > 2:
        m.z = float(point[2])
    return hyp


def _check_ctx(state: GameState) -> Ctx:
    return Ctx(state, NoDice(), state.battlefield, ACTIONS)


def _enemy_units(state: GameState, model: str) -> list[tuple[str, str]]:
    """(unit, kind) of every unit in play of another crew side or of a hostile force, by id."""
    own = state.models[model].side
    kinds = {s.id: s.kind for s in state.sides}
    out = []
    for uid in sorted(state.units):
        u = state.units[uid]
        if u.side == own or not state.unit_in_play(uid):
            continue
        if kinds.get(u.side) is SideKind.CREW:
            out.append((uid, "crew"))
        elif u.side in state.forces or kinds.get(u.side) is SideKind.HOSTILE:
            out.append((uid, "hostile"))
    return out


def best_wound_chance(state: GameState, unit: str, target: str) -> float:
    """COMBAT-4.1.RANGED: the best exact P(at least one Wound) over the unit's ranged weapons on `target`, each a
    RangedAttack the engine's own checks accept (whose turn it is aside, as the Zone's agent asks); 0.0 if none."""
    ctx = _check_ctx(state)
    cat = catalog_of(ctx)
    models = unit_models(state, unit)
    if not models:
        return 0.0
    best = 0.0
    for wid in models[0].profile.weapons:
        w = cat.weapon(wid)
        if not any(p.range_max and p.template is None for p in w.profiles):
            continue
        act = RangedAttack(unit, target, w.id)
        try:
            ACTIONS.check(ctx, act, actor=unit, context="own")
            odds = attack_odds(state, act)
        except IllegalAction:
            continue
        best = max(best, float(odds.target_round.p_wound))
    return best


def would_target(state: GameState, unit: str, model: str) -> bool:
    """AI-D.03 overrides AI-D.02: a held draw or lock on a model in play decides; else the AI-D.01 choice
    (`exposure.choose_target` with `ai.close_tol` and `ai.hostile_vs_hostile`, as `memory.checkpoint` locks)."""
    mem = state.ai.get(unit)
    held = (mem.draw or mem.lock) if mem is not None else None
    if held is not None and held in state.models and state.models[held].in_play:
        return held == model
    s = settings_of(state)
    picked = choose_target(state, unit, close_tol=float(s["ai.close_tol"]),
                           hostile_vs_hostile=bool(s["ai.hostile_vs_hostile"])).chosen
    return picked is not None and picked.enemy == model


def exposure_at(state: GameState, model: str, point: tuple[float, ...]) -> Exposure:
    """Exposure of `model` if it stood at `point` (see the module docstring). Every enemy unit that sees it there
    or would target it is a threat. Pure: it works on a clone."""
    hyp = hypothetical(state, model, point)
    ctx = read_ctx(hyp)
    m = hyp.models[model]
    threats = []
    for uid, kind in _enemy_units(hyp, model):
        shooters = seen_by(hyp, uid, model)
        target = would_target(hyp, uid, model) if kind == "hostile" else None
        if not shooters and not target:
            continue
        near = nearest_model(hyp, uid, model)
        cover = situation(ctx, near, m, melee=False).cover
        p = best_wound_chance(hyp, uid, model) if shooters else 0.0
        threats.append(Threat(uid, hyp.units[uid].side, kind, shooters, cover, in_the_open(hyp, uid, model), p,
                              target, HOSTILE_RULES if kind == "hostile" else RULES))
    return Exposure(model, (m.x, m.y, m.z), tuple(threats), tuple(t.unit for t in threats if t.would_target))


def _enemy_models(state: GameState, model: str) -> list[ModelState]:
    units = {u for u, _ in _enemy_units(state, model)}
    return [e for e in sorted(state.models.values(), key=lambda e: e.id) if e.unit in units and e.in_play]


def cover_icons(state: GameState, model: str) -> dict[str, Cover]:
    """GEO-12/GEO-14: every enemy model in play's cover class (after elevation) against `model` as the attacker,
    from `attack.situation` (the call the resolver makes)."""
    ctx = read_ctx(state)
    a = state.models[model]
    return {e.id: situation(ctx, a, e, melee=False).cover for e in _enemy_models(state, model)}
