"""Template placement preview (GEO-15, GEO-16, GEO-18, GAP-70, GAP-71, GAP-73): where a grenade, blast weapon or
flame lands on a hit, who it touches (friends and enemies, spared or not), and where a miss can deviate to.

Pure: it reads the state through the resolver's own functions (blasts.resolve_blast / do_flame: delivery,
template_coverage, spared_friends, deviation_distance) and never changes it nor draws dice."""
from __future__ import annotations

from dataclasses import dataclass

from game.core.actions import FlameAttack, IllegalAction, TemplateAttack, ThrowGrenade
from game.core.battlefield import Point2
from game.core.geometry.indirect import deviation_distance
from game.core.geometry.templates import TemplateFact, TemplateKind, circle_outline, template_coverage
from game.core.rules.apply import validate
from game.core.rules.blasts import TEMPLATE_KINDS, template_scene
from game.core.rules.context import read_ctx
from game.core.rules.delivery import action_blast, delivery
from game.core.rules.queries import sole_model
from game.core.rules.template_effects import spared_friends
from game.core.state import GameState


@dataclass(frozen=True, slots=True)
class TouchedModel:
    """One model under or touching the template (GEO-16): `coverage` is "under" or "edge" (partial), `effect`
    the GEO-16 effect (affected / soft_cover / shielded), `spared` for a friend GAP-73 spares."""

    model: str
    side: str
    friend: bool
    coverage: str
    effect: str
    spared: bool
    reason: str
    centre: Point2 = (0.0, 0.0)  # the base's centre and radius, inches (for drawing the ring)
    radius: float = 0.0


@dataclass(frozen=True, slots=True)
class DeviationArea:
    """GEO-18 / GAP-71: a miss lands on the ring centred on the aim point between `min_distance` (D10=1) and
    `max_distance` (D10=10), in any direction; the centres are `rings` (one circle per D10 face)."""

    centre: Point2
    min_distance: float
    max_distance: float
    distances: tuple[float, ...]  # one per D10 face 1..10
    radius: float  # the template's radius: the area it can cover reaches max_distance + radius
    rule: str = "GEO-18"

    def contains(self, p: Point2) -> bool:
        import math
        d = math.hypot(p[0] - self.centre[0], p[1] - self.centre[1])
        return any(abs(d - x) <= 1e-6 for x in self.distances)


@dataclass(frozen=True, slots=True)
class TemplatePlan:
    """What the client draws before a template attack: `outline` (inches) where it lands on a hit, the models it
    touches, `direct` (GAP-70), the deviation area of a miss (None: the flame never deviates), `p_hit` is left None here
    (rules may not import odds: the client asks game.core.odds.templates.template_odds for P(hit))."""

    legal: bool
    reason: str
    rule: str
    kind: str
    attacker: str
    side: str
    outline: tuple[Point2, ...]
    models: tuple[TouchedModel, ...]
    direct: bool
    indirect: str | None
    deviation: DeviationArea | None
    p_hit: float | None

    @property
    def friends(self) -> tuple[TouchedModel, ...]:
        return tuple(t for t in self.models if t.friend)

    @property
    def enemies(self) -> tuple[TouchedModel, ...]:
        return tuple(t for t in self.models if not t.friend)

    @property
    def touched(self) -> frozenset[str]:
        return frozenset(t.model for t in self.models)


def template_preview(state: GameState, action: ThrowGrenade | TemplateAttack | FlameAttack) -> TemplatePlan:
    """The template as blasts.resolve_blast / do_flame would place it on a hit (GEO-15/16), its friends
    (GAP-73 `spared_friends`) and enemies, direct or indirect (GAP-70), and a miss's deviation ring (GEO-18)."""
    legal, reason, rule = True, "", ""
    try:
        validate(state, action)
    except IllegalAction as exc:
        legal, reason, rule = False, exc.reason, exc.rule
    ctx = read_ctx(state)
    try:
        m = sole_model(ctx, action.unit)
    except IllegalAction as exc:
        return TemplatePlan(False, reason or str(exc), rule or exc.rule, "", action.unit, "", (), (), True, None,
                            None, None)
    try:
        blast = action_blast(ctx, m, action)
    except (IllegalAction, KeyError) as exc:
        return TemplatePlan(False, reason or str(exc), rule or getattr(exc, "rule", ""), "", m.id, m.side, (), (),
                            True, None, None, None)
    fact: TemplateFact
    dev = None
    indirect = None
    if isinstance(action, FlameAttack):
        fact = template_coverage(ctx.battlefield, template_scene(ctx), TemplateKind.FLAME, None, angle=action.angle,
                                 attacker_id=m.id, settings=ctx.settings)
    else:
        kind = TEMPLATE_KINDS[blast.template]
        try:
            indirect = delivery(ctx, m, action.x, action.y, blast).indirect
        except IllegalAction:
            indirect = None
        fact = template_coverage(ctx.battlefield, template_scene(ctx), kind, (action.x, action.y, 0.0),
                                 settings=ctx.settings)
        ds = tuple(deviation_distance(k, settings=ctx.settings) for k in range(1, 11))
        dev = DeviationArea((float(action.x), float(action.y)), ds[0], ds[-1], ds, kind.radius)
    spare = set(spared_friends(ctx, m, blast, fact))
    bases = {b.id: b for b in template_scene(ctx).bases}
    models = tuple(TouchedModel(c.model, c.side, c.side == m.side, "edge" if c.distance > 0 or "edge" in c.reason
                                else "under", c.effect.value, c.model in spare, c.reason,
                                bases[c.model].centre, bases[c.model].radius) for c in fact.models)
    return TemplatePlan(legal, reason, rule, fact.kind.value, m.id, m.side, fact.outline, models, indirect is None,
                        indirect, dev, None)


def deviation_outline(area: DeviationArea, *, steps: int = 48) -> tuple[tuple[Point2, ...], tuple[Point2, ...]]:
    """The inner and outer circles of the ring of possible centres (for drawing)."""
    return circle_outline(area.centre, area.min_distance, steps=steps), circle_outline(area.centre,
                                                                                       area.max_distance, steps=steps)
