"""AI-D.10 as a core query: when a hostile that carries grenades (Game Two's bandits and their Molotovs, GAP-100)
throws one instead of shooting. The Zone's agent throws with it and the rules checker (game.referee) holds the choice
to it, so both read the same facts.

A hostile about to shoot its target throws instead when the target is within the grenade's range (the engine's own
ThrowGrenade check: range, a grenade carried, GAP-70 delivery) and either
(a) the grenade's template centred on the target would touch 2 or more enemies and no hostile model (GEO-15/16,
    the template's own coverage query), or
(b) the target has hard or hardened cover against the thrower's direct fire (GEO-12/GEO-14, the target as the
    defender) and the throw is legal (indirect when needed, GEO-17).
At most one grenade per unit per activation.

Interpretations: the throw is aimed at the target's centre; several grenade types: the first id in sorted order
that qualifies; "per activation" is read from the activation's last action (a unit never throws right after a
throw; every scenario hostile carries one grenade, so the cap is never reached otherwise); a grenade throw is not
preceded by an Aim (AI-D.08 speaks of the FP of ranged and melee weapons; its checker judges those alone)."""
from __future__ import annotations

from dataclasses import dataclass

from game.core.actions import IllegalAction, ThrowGrenade
from game.core.battlefield import Cover
from game.core.catalog.profiles import Template
from game.core.geometry.templates import TemplateKind, template_coverage
from game.core.rules.context import Ctx, NoDice
from game.core.rules.exposure import cover_against, unit_models
from game.core.rules.queries import catalog_of
from game.core.state import GameState

RULE = "AI-D.10"
_KIND = {Template.SBT: TemplateKind.SBT, Template.LBT: TemplateKind.LBT}


@dataclass(frozen=True, slots=True)
class GrenadeCall:
    """The throw AI-D.10 calls for: the action, which condition holds ("a" or "b"), the enemies the template would
    touch and the target's cover class against direct fire."""

    action: ThrowGrenade
    condition: str
    enemies: tuple[str, ...]
    cover: str


def grenade_call(state: GameState, unit: str, target: str, context: str = "own") -> GrenadeCall | None:
    """The AI-D.10 throw at `target` for the unit, or None (see the module docstring)."""
    from game.core.rules.dispatch import ACTIONS

    models = [m for m in unit_models(state, unit) if m.in_play]
    if not models or target not in state.models or not state.models[target].in_play:
        return None
    act = state.activation
    if act is not None and act.unit == unit and act.last_action == "ThrowGrenade":
        return None
    lead = models[0]
    t = state.models[target]
    ctx = Ctx(state, NoDice(), state.battlefield, ACTIONS)
    cat = catalog_of(ctx)
    cover = cover_against(state, target, lead.id).cover
    for g in sorted(k for k, n in lead.grenades.items() if n > 0):
        action = ThrowGrenade(unit, g, t.x, t.y)
        try:
            ACTIONS.check(ctx, action, actor=unit, context=context)
        except IllegalAction:
            continue
        kind = _KIND.get(cat.grenades[g].template)
        hit: tuple[str, ...] = ()
        friends = False
        if kind is not None:
            fact = template_coverage(state.battlefield, state.scene(), kind, (t.x, t.y, t.z), settings=ctx.settings)
            touched = [state.models[c.model] for c in fact.models if c.model in state.models]
            hit = tuple(sorted(m.id for m in touched if m.in_play and m.side not in state.forces))
            friends = any(m.side in state.forces for m in touched)
        if kind is TemplateKind.SBT and len(hit) >= 2 and not friends:
            return GrenadeCall(action, "a", hit, cover.value)
        if cover in (Cover.HARD, Cover.HARDENED):
            return GrenadeCall(action, "b", hit, cover.value)
    return None
