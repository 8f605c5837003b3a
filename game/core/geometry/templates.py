"""Blast and flame templates (GEO-15, GEO-16, GAP-73): who is under or touched, and who is shielded or in soft cover."""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from game.core.battlefield import Area, Base, Battlefield, Cover, Point2, Point3, Scene, TerrainPiece
from game.core.geometry.crossing import TOL
from game.core.geometry.distance import segment_point_distance
from game.core.geometry.sight.los import FAST, SightBackend
from game.core.geometry.sight.world import world_of
from game.core.settings import Settings
from game.core.tolerance import EPS

FLAME_END_CENTRE = 6.5  # GEO-15: end circle centre on the axis, 6.5" from the tip
FLAME_END_RADIUS = 1.5  # GEO-15: so the teardrop is 8" long and 3" wide


class TemplateKind(enum.Enum):
    """Template shapes (GEO-15, ARMORY-5.1.SBT-LBT, ARMORY-5.1.FLAME)."""

    SBT = "sbt"
    LBT = "lbt"
    FLAME = "flame"

    @property
    def radius(self) -> float:
        """Blast radius in inches (SBT 3" and LBT 5" diameter); the flame's end-circle radius."""
        return {TemplateKind.SBT: 1.5, TemplateKind.LBT: 2.5, TemplateKind.FLAME: FLAME_END_RADIUS}[self]


class TemplateEffect(enum.Enum):
    """What the template does to a touched model (GEO-16)."""

    AFFECTED = "affected"
    SOFT_COVER = "soft_cover"  # affected, soft cover between: +2 to the save (ARMORY-5.2.TEMPLATE-COVER)
    SHIELDED = "shielded"  # unaffected: blocking or hard/hardened terrain between


@dataclass(frozen=True, slots=True)
class ModelCoverage:
    """One model under or touched by a template, and what the terrain between does for it (GEO-16)."""

    model: str
    side: str
    distance: float  # from the base edge to the template (0: overlapping or tangent)
    touched: bool
    effect: TemplateEffect
    shielded_by: tuple[int, ...]
    soft_cover_between: tuple[int, ...]
    reason: str
    rule: str = "GEO-16"
    soft_cover_contact: tuple[int, ...] = ()  # soft pieces between that the base touches (GEO-6): GAP-75's Will cover

    @property
    def affected(self) -> bool:
        return self.effect is not TemplateEffect.SHIELDED


@dataclass(frozen=True, slots=True)
class TemplateFact:
    """GEO-15/16: a placed template, its outline and every model it touches with the reason."""

    kind: TemplateKind
    origin: Point3  # blast centre, or the flame's tip
    angle: float | None  # flame axis in radians (GEO-1: from +x toward +y)
    outline: tuple[Point2, ...]
    models: tuple[ModelCoverage, ...]
    attacker: str | None
    rule: str = "GEO-15"

    def model(self, model_id: str) -> ModelCoverage | None:
        return next((m for m in self.models if m.model == model_id), None)

    @property
    def affected(self) -> tuple[str, ...]:
        return tuple(m.model for m in self.models if m.affected)


def flame_frame(attacker: Base, angle: float) -> tuple[Point2, Point2]:
    """GEO-15: the flame's tip, touching the attacker's base, and its unit axis at `angle`."""
    c, s = math.cos(angle), math.sin(angle)
    return (attacker.x + attacker.radius * c, attacker.y + attacker.radius * s), (c, s)


def _flame_local(tip: Point2, axis: Point2, p: Point2) -> Point2:
    dx, dy = p[0] - tip[0], p[1] - tip[1]
    return dx * axis[0] + dy * axis[1], abs(-dx * axis[1] + dy * axis[0])


def _flame_tangent() -> Point2:
    d, r = FLAME_END_CENTRE, FLAME_END_RADIUS
    length = math.sqrt(d * d - r * r)
    return length * (length / d), length * (r / d)


def flame_distance(tip: Point2, axis: Point2, p: Point2) -> float:
    """GEO-15: distance from a point to the teardrop (hull of the tip and the end circle); 0 inside."""
    u, v = _flame_local(tip, axis, p)
    to_disc = max(0.0, math.hypot(u - FLAME_END_CENTRE, v) - FLAME_END_RADIUS)
    tx, ty = _flame_tangent()
    # triangle tip, (tx, ty), (tx, -ty): with v >= 0 only the upper edge and the chord can be nearest
    if 0.0 <= u <= tx and v * tx <= ty * u:
        return 0.0
    to_tri = min(segment_point_distance((0.0, 0.0), (tx, ty), (u, v)),
                 segment_point_distance((tx, ty), (tx, -ty), (u, v)))
    return min(to_disc, to_tri)


def flame_outline(tip: Point2, axis: Point2, *, steps: int = 32) -> tuple[Point2, ...]:
    """The teardrop's outline (for drawing): tip, upper tangent, far arc, lower tangent."""
    tx, ty = _flame_tangent()
    start = math.atan2(ty, tx - FLAME_END_CENTRE)
    pts = [(0.0, 0.0)]
    for i in range(steps + 1):
        a = start - (2 * start) * i / steps
        pts.append((FLAME_END_CENTRE + FLAME_END_RADIUS * math.cos(a), FLAME_END_RADIUS * math.sin(a)))
    c, s = axis
    return tuple((tip[0] + u * c - v * s, tip[1] + u * s + v * c) for u, v in pts)


def circle_outline(centre: Point2, radius: float, *, steps: int = 48) -> tuple[Point2, ...]:
    return tuple((centre[0] + radius * math.cos(2 * math.pi * i / steps),
                  centre[1] + radius * math.sin(2 * math.pi * i / steps)) for i in range(steps))


def _shields(piece: TerrainPiece, zo: float, zm: float, kinds: tuple[str, ...]) -> bool:
    """GEO-16/GAP-73: a crossed piece shields if it blocks LOS above both ends, or is hard/hardened.

    Reading: a piece whose top is not above the lower of the two ends lies under both and shields nothing.
    """
    if "blocks_los" in kinds and piece.blocks_los and piece.area is not Area.WOODS and piece.top_z > max(zo, zm) + TOL:
        return True
    return piece.cover.value in kinds and piece.top_z > min(zo, zm) + TOL


def _soft(piece: TerrainPiece, zo: float, zm: float) -> bool:
    return (piece.cover is Cover.SOFT or piece.area is Area.WOODS) and piece.top_z > min(zo, zm) + TOL



def template_coverage(bf: Battlefield, scene: Scene, kind: TemplateKind | str, origin: Point2 | Point3 | None, *,
                      angle: float | None = None, attacker_id: str | None = None, settings: Settings | None = None,
                      backend: SightBackend | None = None) -> TemplateFact:
    """GEO-15/16: every model under or touched by the template and the terrain between it and the origin.

    SBT/LBT: `origin` is the blast centre (x, y[, z]); a base is touched iff |c - centre| <= R + r (+EPS).
    FLAME: needs `attacker_id`; the tip touches its base at `angle` (or pointing at `origin` when no angle
    is given); the attacker itself is never affected (GAP-73). For each touched model the 2D segment
    origin -> model centre is tested: a crossed blocking piece whose top is above both ends, or a crossed
    hard/hardened piece, shields it (`flame.blocked_by` for the flame); else a crossed soft piece or woods
    gives it soft cover (+2 save, applied by the combat engine); else it is affected normally. The soft pieces
    between that the base also touches (within `geo.contact_tol`) are listed for GAP-75's Will cover.
    """
    settings = settings or Settings.defaults()
    backend = backend or FAST
    kind = TemplateKind(kind)
    attacker = scene.base(attacker_id) if attacker_id is not None else None
    if kind is TemplateKind.FLAME:
        if attacker is None:
            raise ValueError("template_coverage: a flame template needs attacker_id (its tip touches that base)")
        if angle is None:
            if origin is None:
                raise ValueError("template_coverage: a flame template needs an angle or a point to aim at")
            angle = math.atan2(origin[1] - attacker.y, origin[0] - attacker.x)
        tip, axis = flame_frame(attacker, angle)
        o3: Point3 = (tip[0], tip[1], attacker.z)
        outline = flame_outline(tip, axis)
        kinds = tuple(settings["flame.blocked_by"])
    else:
        if origin is None:
            raise ValueError(f"template_coverage: a {kind.value} template needs its centre point")
        o3 = (float(origin[0]), float(origin[1]), float(origin[2]) if len(origin) > 2 else 0.0)
        outline = circle_outline(o3[:2], kind.radius)
        kinds = ("blocks_los", "hard", "hardened")
    world = world_of(bf)
    tol = float(settings["geo.contact_tol"])
    models = []
    for b in scene.bases:
        if kind is TemplateKind.FLAME:
            if attacker is not None and b.id == attacker.id:
                continue
            gap = flame_distance(tip, axis, b.centre) - b.radius
        else:
            gap = math.hypot(b.x - o3[0], b.y - o3[1]) - kind.radius - b.radius
        if gap > EPS:
            continue
        crossed = [(i, world.pieces[i]) for i in backend.crossed(world, o3[:2], b.centre)]
        shield = tuple(int(p.id) for _, p in crossed if _shields(p, o3[2], b.z, kinds))
        soft_idx = [i for i, p in crossed if not _shields(p, o3[2], b.z, kinds) and _soft(p, o3[2], b.z)]
        soft = tuple(int(world.pieces[i].id) for i in soft_idx)
        contact: tuple[int, ...] = ()
        if soft_idx and not shield:
            touching = {i for i, _ in backend.contacts(world, b.x, b.y, b.radius, tol)}
            contact = tuple(int(world.pieces[i].id) for i in soft_idx if i in touching)
        if shield:
            effect = TemplateEffect.SHIELDED
            why = f"GEO-16: shielded by pieces {list(shield)} between it and the origin"
        elif soft:
            effect, why = TemplateEffect.SOFT_COVER, f"GEO-16: soft cover {list(soft)} between: +2 to its save"
        else:
            effect, why = TemplateEffect.AFFECTED, "GEO-16: nothing between it and the origin"
        touch = "under the template" if gap < -EPS else "touching the template's edge"
        models.append(ModelCoverage(b.id, b.side, max(0.0, gap), True, effect, shield, soft, f"{touch}; {why}",
                                    soft_cover_contact=contact))
    return TemplateFact(kind, o3, angle if kind is TemplateKind.FLAME else None, outline, tuple(models),
                        attacker.id if attacker else None)
