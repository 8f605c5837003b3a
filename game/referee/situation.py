"""What the referee asks of a state before judging a hostile decision: which actions attack whom, which attacks
`apply.validate` accepts now, Fire Power, actions left, melees, leashes, allowances, and a probe that stands a unit
elsewhere to ask the same questions there."""
from __future__ import annotations

import math
from dataclasses import dataclass

from game.core.actions import (
    Action,
    Climb,
    FlameAttack,
    IllegalAction,
    Interrupt,
    Jump,
    MeleeAttack,
    Move,
    RangedAttack,
    Reasoned,
    TemplateAttack,
    ThrowGrenade,
)
from game.core.battlefield import Point2
from game.core.rules.apply import validate
from game.core.rules.attack import model_profile
from game.core.rules.context import read_ctx
from game.core.rules.flow import remaining
from game.core.rules.movepath import allowance_of
from game.core.rules.queries import catalog_of, contacts_of
from game.core.state import GameState, ModelState, SideKind
from game.core.tolerance import EPS

ATTACKS = (RangedAttack, MeleeAttack, ThrowGrenade, TemplateAttack, FlameAttack)
MOVES = (Move, Climb, Jump)


def unwrap(action: Action) -> Action:
    """The decision inside a `Reasoned` wrapper (the reason is never read)."""
    return action.action if isinstance(action, Reasoned) else action


def is_hostile(state: GameState, unit: str | None) -> bool:
    u = state.units.get(unit) if unit else None
    return u is not None and u.side in state.forces


def is_crew_model(state: GameState, model: str) -> bool:
    m = state.models.get(model)
    return m is not None and state.side(m.side).kind is SideKind.CREW


def attacked(state: GameState, action: Action) -> str | None:
    """The model an attack is aimed at: the named target, or for a grenade or blast the enemy base nearest its
    point (Out of Action figures lying on the table included, AI-D.14); None for a flame or no enemy."""
    if isinstance(action, (RangedAttack, MeleeAttack)):
        return action.target
    if isinstance(action, (ThrowGrenade, TemplateAttack)):
        own = state.units[action.unit].side
        foes = [m for m in state.models.values() if m.deployed and not m.dead and m.side != own]
        if not foes:
            return None
        return min(foes, key=lambda m: (max(0.0, math.hypot(m.x - action.x, m.y - action.y) - m.radius), m.id)).id
    return None


def ranged_weapons(state: GameState, unit: str) -> list[str]:
    """The weapons of the unit's models fired at a model (a range, no template)."""
    cat = catalog_of(read_ctx(state))
    out: list[str] = []
    for m in state.unit_models(unit):
        for wid in m.profile.weapons:
            w = cat.weapon(wid)
            if wid not in out and any(p.range_max and p.template is None for p in w.profiles):
                out.append(wid)
    return out


def melee_only(state: GameState, unit: str) -> bool:
    """AI-D.07: a hostile with no ranged weapon ("melee-only hostiles never choose ranged options")."""
    return not ranged_weapons(state, unit)


def fire_power(state: GameState, model: ModelState, weapon: str, *, melee: bool) -> int:
    """The model's own FP with the weapon (the hostile's stat line overrides the Armory, GAP-09)."""
    w = catalog_of(read_ctx(state)).weapon(weapon)
    prof = w.profile
    if melee:
        prof = next((p for p in w.profiles if p.template is None and p.fp), prof)
    return int(model_profile(model, w, prof).fp or 0)


def attack_dice(state: GameState, action: RangedAttack | MeleeAttack, context: str = "own") -> int:
    """The FP an attack rolls, from the resolver's own plan: a multi-model unit's pooled FP (GAP-77; "treat a
    multi-model unit as one model with more FP", CORE-3.7.AS-ONE-MODEL), which AI-D.08 (a) reads as the unit's FP."""
    from game.core.rules.context import Ctx, NoDice
    from game.core.rules.fire import ranged_plan
    from game.core.rules.melee import melee_plan
    from game.core.rules.queries import sole_model

    ctx = Ctx(state, NoDice(), state.battlefield)
    m = sole_model(ctx, action.unit)
    if isinstance(action, RangedAttack):
        return int(ranged_plan(ctx, action, m, context).numbers.dice)
    return int(melee_plan(ctx, action, m, state.models[action.target], context).weapons[0][1].dice)


def actions_left(state: GameState) -> int:
    """The actions the active unit may still spend in its current stage (TURN-6)."""
    return remaining(state.activation) if state.activation is not None else 0


def in_melee(state: GameState, model: str, *, besides: frozenset[str] = frozenset()) -> bool:
    """The model is in base contact with a model of another side (a melee), `besides` left out (the shooter)."""
    t = state.models[model]
    return any(o.side != t.side and o.id not in besides for o in contacts_of(read_ctx(state), t))


def leash_of(state: GameState, unit: str) -> tuple[Point2 | None, float]:
    """The force's location point and leash (GEO-20); (None, 0) for a force without one."""
    force = state.forces.get(state.units[unit].side)
    if force is None or force.centre is None or force.leash is None:
        return None, 0.0
    return (force.centre[0], force.centre[1]), float(force.leash)


def allowance(state: GameState, model: str, context: str) -> float:
    """GEO-8: the allowance of one Move action of the model in this context ("own", "spawn")."""
    return allowance_of(read_ctx(state), state.models[model], context).inches


@dataclass(frozen=True, slots=True)
class Option:
    """An attack `apply.validate` accepts now: the action, ranged or melee, and whether it fires into a melee."""

    action: RangedAttack | MeleeAttack
    ranged: bool
    into_melee: bool


def options(state: GameState, unit: str, target: str, *, window: bool = False) -> list[Option]:
    """Every attack of the unit on `target` that is legal now: each weapon of its models as a RangedAttack (each
    firing profile) and as a MeleeAttack; in an interrupt window, as the held action of an Interrupt."""
    t = state.models.get(target)
    if t is None or not t.in_play:
        return []
    cat = catalog_of(read_ctx(state))
    weapons = list(dict.fromkeys(w for m in state.unit_models(unit) if m.in_play for w in m.profile.weapons))
    tried: list[RangedAttack | MeleeAttack] = []
    for wid in weapons:
        w = cat.weapon(wid)
        named = [p.name for p in w.profiles if p.range_max and p.template is None]
        for prof in ([None, *named[1:]] if named and w.profile.name == named[0] else named):
            tried.append(RangedAttack(unit, target, wid, prof))
        if w.melee_capable:
            tried.append(MeleeAttack(unit, target, wid))
    own = frozenset(m.id for m in state.unit_models(unit))
    out = []
    for a in tried:
        try:
            validate(state, Interrupt(unit, a) if window else a)
        except IllegalAction:
            continue
        ranged = isinstance(a, RangedAttack)
        out.append(Option(a, ranged, ranged and in_melee(state, target, besides=own)))
    return out


class Probe:
    """A private copy of a state where a unit's models can stand elsewhere, to ask the same questions there."""

    def __init__(self, state: GameState) -> None:
        self.state = state.clone()

    def stand(self, model: str, x: float, y: float, z: float) -> None:
        m = self.state.models[model]
        m.x, m.y, m.z = x, y, z

    def stand_like(self, other: GameState, unit: str) -> None:
        """The unit's models where they stand in `other` (a move's result)."""
        for m in self.state.unit_models(unit):
            o = other.models[m.id]
            m.x, m.y, m.z = o.x, o.y, o.z


def touching(state: GameState, a: str, b: str) -> bool:
    """GEO-6 base contact of two models."""
    ma, mb = state.models[a], state.models[b]
    tol = float(read_ctx(state).settings["geo.contact_tol"])
    return math.hypot(ma.x - mb.x, ma.y - mb.y) - ma.radius - mb.radius <= tol + EPS


@dataclass(frozen=True, slots=True)
class Tuning:
    """The A.I.'s house settings the referee judges by (`ai.close_tol`, `ai.cover_slack`, `ai.alert`,
    `ai.hostile_vs_hostile`)."""

    close_tol: float = 1.0
    cover_slack: float = 1.0
    alert: bool = True
    hostile_vs_hostile: bool = False
