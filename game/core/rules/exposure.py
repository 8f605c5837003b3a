"""The geometry the Zone's A.I. stands on (ZONE HOSTILE AI, "Shared definitions", AI-D.01, AI-D.04(d), AI-D.06):
who is an enemy, who is seen, how far, who stands in the open, who is in cover, what a shot would cost (`pen`),
the AI-D.01 target order with the numbers behind it, and the nearest cover (AI-S.SPAWN).

Pure queries over a GameState: no state writes, no dice (the resolver's situation and numbers are read through a
context whose dice refuse to roll). Every answer is a frozen dataclass holding the numbers, so the agent can put
them in its reason and the checker can re-derive them. Ties: the lowest stable model id, then the lowest (x, y).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import shapely

from game.core.battlefield import Area, Base, Battlefield, Cover, Point2, Point3, Scene, TerrainPiece
from game.core.geometry.distance import base_distance, terrain_distance
from game.core.geometry.movement.arrivals import arrivals
from game.core.geometry.movement.cost import path_cost
from game.core.geometry.movement.field import CostField, cost_field, crosses_enemies
from game.core.geometry.movement.paths import PathResult, shortest_path
from game.core.geometry.movement.positions import position_fact
from game.core.geometry.movement.query import enemy_bases
from game.core.geometry.movement.standing import floors, legal_positions
from game.core.geometry.sight.batch import check_pairs
from game.core.geometry.sight.cover import cover_against as geo_cover
from game.core.geometry.terrain import footprint, level_at
from game.core.geometry.zone import cohesion, leash_ok
from game.core.rules.attack import situation
from game.core.rules.context import read_ctx
from game.core.rules.modifiers import AttackSituation, cover_modifiers, pinned_target
from game.core.rules.queries import can_see, catalog_of
from game.core.state import GameState, ModelState, SideKind
from game.core.tolerance import EPS

COVER_CLASSES = (Cover.SOFT, Cover.HARD, Cover.HARDENED)
COVER_BOXES = "exposure.cover_pieces"  # Battlefield.cache: the cover pieces' boxes and contact points


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


def pen_parts(state: GameState, shooter: ModelState, target: ModelState,
              s: AttackSituation | None = None) -> tuple[PenPart, ...]:
    """The CA modifiers of pen: obstructions (GEO-13), cover after elevation (GEO-12/GEO-14), Obscured and the Pinned
    target's -2, from the resolver's own functions (`attack.situation`, `modifiers.cover_modifiers` and
    `modifiers.pinned_target`, which `hit_tn` adds to a direct ranged attack)."""
    ctx = read_ctx(state)
    s = s if s is not None else situation(ctx, shooter, target, melee=False)
    mods = cover_modifiers(target, s, catalog=catalog_of(ctx), settings=ctx.settings)
    pinned = pinned_target(target, s, settings=ctx.settings, target_pinned=state.units[target.unit].pins > 0)
    return tuple(PenPart(m.label, m.value, m.rule) for m in [*mods, *([pinned] if pinned else [])] if m.value < 0)


def enemy_fact(state: GameState, unit: str, enemy: str) -> EnemyFact:
    """Everything the Shared definitions say about e from H, in one fact (see EnemyFact)."""
    e = state.models[enemy]
    near = nearest_model(state, unit, enemy)
    s = situation(read_ctx(state), near, e, melee=False)
    parts = pen_parts(state, near, e, s)  # the same situation: traced once
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


def choose_target(state: GameState, unit: str, *, close_tol: float,
                  hostile_vs_hostile: bool = False) -> TargetChoice:
    """AI-D.01 (AI-8.3.RULE3): C = vis(H); if some candidate is in the open, C = those in the open; d* = min dist;
    C' = {e in C : dist(H, e) <= d* + close_tol}; choose min over C' of (pen(H, e), dist(H, e), id). `close_tol` is
    `ai.close_tol` (default 1.0"), passed by the caller that owns the A.I.'s settings. The lock (AI-D.02) and the
    melee draw (AI-D.03) are the agent's memory, not this query's."""
    tol = float(close_tol)
    seen = [e for e in enemies(state, unit, hostile_vs_hostile=hostile_vs_hostile) if seen_by(state, unit, e.id)]
    facts = sorted((enemy_fact(state, unit, e.id) for e in seen), key=lambda f: (f.distance, f.enemy))
    opened, d_star, ranked = rank_targets(facts, tol)
    return TargetChoice(unit, tuple(facts), opened, d_star, tol, ranked)


def rank_targets(facts: Sequence[EnemyFact], close_tol: float) -> tuple[bool, float, tuple[EnemyFact, ...]]:
    """AI-D.01's order over some candidates: those in the open if any (and whether that narrowed them), d* = their
    min dist, C' = within d* + close_tol, ordered by (pen, dist, id). `choose_target` applies it to vis(H); the
    agent applies it to a subset (AI-D.08: the others it can shoot outside a melee)."""
    opened = [f for f in facts if f.in_open]
    pool = opened or list(facts)
    d_star = min((f.distance for f in pool), default=math.inf)
    near = [f for f in pool if f.distance <= d_star + close_tol + 1e-9]
    return bool(opened), d_star, tuple(sorted(near, key=lambda f: (f.pen, f.distance, f.enemy)))


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



# --- AI-D.06 movement candidates ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Candidate:
    """One AI-D.06 end point for a mover: where, which family produced it ("progress" (i), "ring" (ii), "cover"
    (iii), "stay"), its GEO-8 path cost from the current position and the path, its progress toward the goal
    (pathdist(current->goal) - pathdist(p->goal)), its cover class against the target there (GEO-12/GEO-14, after
    elevation; NONE without a target), the cover piece it was built against, and whether it touches the target."""

    x: float
    y: float
    z: float
    source: str
    cost: float
    path: tuple[Point3, ...]
    progress: float
    cover: Cover
    piece: int | None = None
    contact: bool = False

    @property
    def in_cover(self) -> bool:
        return self.cover in COVER_CLASSES


@dataclass(frozen=True, slots=True)
class CandidateSet:
    """AI-D.06 for one mover: the goal (a target model or a point), the allowance, pathdist(current->goal), how many
    points were generated, the kept points (legal, reachable, leash- and cohesion-respecting) in a stable order
    ((x, y) then source), and how many each filter dropped."""

    model: str
    target: str | None
    goal: Point2
    allowance: float
    start_dist: float
    generated: int
    kept: tuple[Candidate, ...]
    dropped: tuple[tuple[str, int], ...]
    rule: str = "AI-D.06"


@dataclass(frozen=True, slots=True)
class MoveChoice:
    """AI-D.06's choice for a melee mover among a CandidateSet: the contact point with the lowest path cost if any;
    else the best progress, the slack (`ai.cover_slack`), the points within the slack in cover, and the choice
    (best cover class, then higher progress, then lowest (x, y); with none in cover the highest progress, then
    lowest (x, y)). `why` names the branch: "contact", "cover", "progress" or "none"."""

    chosen: Candidate | None
    why: str
    best_progress: float
    slack: float
    in_cover: tuple[Candidate, ...]
    rule: str = "AI-D.06"


def _others(state: GameState, *exclude: str) -> list[Base]:
    return [b for b in state.scene().bases if b.id not in exclude]


def _ring_points(m: ModelState, allowance: float) -> list[tuple[float, float]]:
    """(ii) 16 directions (from +x, counter-clockwise, 22.5 degrees apart) x 4 radii (1/4 .. 1 x allowance)."""
    out = []
    for k in range(16):
        a = math.radians(22.5 * k)
        for f in (0.25, 0.5, 0.75, 1.0):
            out.append((m.x + f * allowance * math.cos(a), m.y + f * allowance * math.sin(a)))
    return out


def _ring(footprint: Sequence[Point2]) -> list[Point2]:
    pts = [(float(p[0]), float(p[1])) for p in footprint]
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]
    area = sum(pts[i][0] * pts[(i + 1) % len(pts)][1] - pts[(i + 1) % len(pts)][0] * pts[i][1]
               for i in range(len(pts)))
    return pts if area > 0 else pts[::-1]  # counter-clockwise: the outward normal of (dx, dy) is (dy, -dx)


def contact_points(footprint: Sequence[Point2], radius: float, *, gap: float = 0.05,
                   step: float = 0.5) -> list[tuple[Point2, Point2]]:
    """(iii) centres of a base of `radius` in contact with a footprint (edge distance `gap`, inside GEO-6's
    `geo.contact_tol`), spaced `step` along each offset edge and round each convex corner, each with its outward
    normal (from the piece toward the base)."""
    pts = _ring(footprint)
    d = radius + gap
    out: list[tuple[Point2, Point2]] = []
    n = len(pts)
    for i in range(n):
        (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % n]
        length = math.hypot(x1 - x0, y1 - y0)
        if length <= EPS:
            continue
        nx, ny = (y1 - y0) / length, -(x1 - x0) / length
        k = max(1, math.ceil(length / step - 1e-9))
        for j in range(k):
            t = j / k
            out.append(((x0 + t * (x1 - x0) + d * nx, y0 + t * (y1 - y0) + d * ny), (nx, ny)))
        # the convex corner at (x1, y1): an arc from this edge's normal to the next edge's
        x2, y2 = pts[(i + 2) % n]
        l2 = math.hypot(x2 - x1, y2 - y1)
        if l2 <= EPS:
            continue
        mx, my = (y2 - y1) / l2, -(x2 - x1) / l2
        a0, a1 = math.atan2(ny, nx), math.atan2(my, mx)
        turn = (a1 - a0) % (2 * math.pi)
        if turn >= math.pi:  # a concave corner: no arc
            continue
        arcs = math.ceil(d * turn / step - 1e-9)
        for j in range(arcs):
            a = a0 + turn * j / arcs
            out.append(((x1 + d * math.cos(a), y1 + d * math.sin(a)), (math.cos(a), math.sin(a))))
    return out


def _covers(state: GameState, m: ModelState, ends: Sequence[Point3], target: ModelState | None) -> list[Cover]:
    """GEO-12/GEO-14 cover class (after elevation) of m standing at each end point against the target's fire: one
    compiled batch of (target, m-there) checks (`sight.batch.check_pairs`, the verdicts of
    `sight.cover.cover_against`); with `los.models_block` every stand-in would block the others, so each point is
    asked alone."""
    if target is None or not state.battlefield.pieces or not ends:
        return [Cover.NONE] * len(ends)
    settings = read_ctx(state).settings
    sc = state.scene()
    if settings["los.models_block"]:
        out = []
        for xyz in ends:
            bases = tuple(replace(b, x=xyz[0], y=xyz[1], z=xyz[2]) if b.id == m.id else b for b in sc.bases)
            out.append(geo_cover(state.battlefield, Scene(bases, sc.smoke), target.id, m.id,
                                 settings=settings).degraded)
        return out
    out = [Cover.NONE] * len(ends)
    # GEO-12 (2): no soft, hard, hardened or woods piece within the contact tolerance, no cover: ask only the rest
    tree = _cover_tree(state.battlefield)
    reach = m.radius + float(settings["geo.contact_tol"]) + 1e-3
    hit = tree.query(shapely.points(np.asarray([(e[0], e[1]) for e in ends])), predicate="dwithin", distance=reach)
    near = sorted(set(hit[0].tolist()))
    if not near:
        return out
    here = m.base()
    stand_ins = [replace(here, id=f"{m.id}@{k}", x=ends[k][0], y=ends[k][1], z=ends[k][2]) for k in near]
    scene = Scene((target.base(), *stand_ins), sc.smoke)
    verdicts = check_pairs(state.battlefield, scene, [(target.id, b.id) for b in stand_ins], settings=settings)
    for k, v in zip(near, verdicts, strict=True):
        out[k] = v.degraded
    return out


def _cover_tree(bf: Battlefield) -> shapely.STRtree:
    """The footprints of the pieces that can give a base cover (soft, hard, hardened, woods), in one tree."""
    key = (COVER_BOXES, "tree")
    hit: shapely.STRtree | None = bf.cache.get(key)
    if hit is None:
        hit = shapely.STRtree([footprint(p) for p in bf.pieces if p.cover in COVER_CLASSES or p.area is Area.WOODS])
        bf.cache[key] = hit
    return hit


def path_to(state: GameState, model: str, start: Point3, goal: Point2 | str, *,
            budget: float | None = None) -> PathResult:
    """GEO-27 shortest path of `model`'s base from `start` to a point, or to a target model's centre with the target
    left out of the obstacles (its own base is where the path ends), the other bases as GEO-8 obstacles."""
    m = state.models[model]
    settings = read_ctx(state).settings
    end, others = _goal_end(state, m, goal)
    return shortest_path(state.battlefield, start, end, radius=m.radius, height=m.profile.height, others=others,
                         side=m.side, budget=budget, settings=settings)


def _goal_end(state: GameState, m: ModelState, goal: Point2 | str) -> tuple[Point3, list[Base]]:
    """Where a path to the goal ends (a target model's centre, or the point at the mover's height) and the bases
    in the way (the target's own left out)."""
    if isinstance(goal, str):
        t = state.models[goal]
        return (t.x, t.y, t.z), _others(state, m.id, goal)
    return (float(goal[0]), float(goal[1]), m.z), _others(state, m.id)


def pathdist(state: GameState, model: str, start: Point3, goal: Point2 | str) -> float:
    """AI-D.06 pathdist(p -> goal): the GEO-27 shortest-path cost from p to the goal (see `path_to`); for a target
    model minus the two radii, i.e. the travel to base contact (the constant cancels in progress). inf: no path."""
    return _travel(state, state.models[model], path_to(state, model, start, goal), goal)


def _travel(state: GameState, m: ModelState, res: PathResult, goal: Point2 | str) -> float:
    """pathdist from a found path: its cost, less the two radii for a target model; inf without a path."""
    if not res.found:
        return math.inf
    if isinstance(goal, str):
        return max(0.0, res.cost - m.radius - state.models[goal].radius)
    return res.cost


def _prefix(points: Sequence[Point3], length: float) -> list[Point3]:
    """The waypoints of a polyline (after its start) up to `length` along it (2D), ending at that point."""
    out: list[Point3] = []
    left = length
    for a, b in zip(points, points[1:], strict=False):
        seg = math.hypot(b[0] - a[0], b[1] - a[1])
        if seg >= left - EPS and seg > EPS:
            t = max(0.0, min(1.0, left / seg))
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), b[2]))
            return out
        out.append(b)
        left -= seg
    return out or [points[-1]]


def _progress_point(state: GameState, m: ModelState, goal: Point2 | str, allowance: float,
                    res: PathResult) -> Point3 | None:
    """(i) the point along the shortest path toward the goal (`res`, from the current position) at full allowance
    (stopping at base contact with a target model), found by bisection on the path length so its own path cost is
    within the allowance."""
    start: Point3 = (m.x, m.y, m.z)
    if not res.found or len(res.points) < 2:
        return None
    pts = res.points
    total = sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(pts, pts[1:], strict=False))
    if isinstance(goal, str):
        total = max(0.0, total - m.radius - state.models[goal].radius - 0.05)  # inside the contact tolerance
    lo, hi = 0.0, min(total, allowance)
    settings = read_ctx(state).settings
    others = _others(state, m.id)

    def cost(s: float) -> float:
        f = path_cost(state.battlefield, start, _prefix(pts, s), radius=m.radius, height=m.profile.height,
                      others=others, side=m.side, settings=settings)
        return f.cost if f.legal else math.inf

    if cost(hi) <= allowance + EPS:
        return _prefix(pts, hi)[-1]
    for _ in range(20):
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if cost(mid) <= allowance + EPS else (lo, mid)
    return _prefix(pts, lo)[-1]


def _at(a: Point3, b: Point3) -> bool:
    """The same place for `shortest_path` (its zero-length answer)."""
    return math.hypot(a[0] - b[0], a[1] - b[1]) <= EPS and abs(a[2] - b[2]) <= EPS


def _routes(state: GameState, m: ModelState, ends: Sequence[Point3], floor: Sequence[int | None], allowance: float,
            others: Sequence[Base]) -> list[tuple[float, tuple[Point3, ...]] | None]:
    """GEO-27 cheapest path (cost, points) from m's position to each end within `allowance`, None where there is
    none, as `shortest_path` finds it, from two cost fields (`movement.field`) instead of a search per end: the
    first without enemy bases; an end whose path there would pass an enemy base is reached from the second, which
    routes round them (`shortest_path`'s two passes). The ends at the start, and those a field is not sure of
    (`field.Arrival.sure`), are asked of `shortest_path`."""
    bf = state.battlefield
    settings = read_ctx(state).settings
    start: Point3 = (m.x, m.y, m.z)
    r, h = m.radius, m.profile.height
    out: list[tuple[float, tuple[Point3, ...]] | None] = [None] * len(ends)
    ask = [k for k, e in enumerate(ends) if not bf.pieces or _at(e, start)]
    far = allowance + EPS + 1e-9  # every edge costs at least its length: no path is shorter than the straight line
    todo = [k for k, e in enumerate(ends) if bf.pieces and not _at(e, start)
            and math.hypot(e[0] - start[0], e[1] - start[1]) <= far]
    enemies = enemy_bases(others, m.side)
    blocked: list[int] = []
    if todo:
        f = cost_field(bf, start, radius=r, height=h, bound=allowance, settings=settings)
        for k, a in zip(todo, arrivals(f, [ends[k] for k in todo], floors=[floor[k] for k in todo]), strict=True):
            if a is None:
                continue  # no path within the allowance even through enemy bases: none round them either
            if not a.sure:
                ask.append(k)
            elif crosses_enemies(a.path, enemies, radius=r, height=h):
                blocked.append(k)
            else:
                out[k] = (a.cost, a.path)
    if blocked:
        f2 = cost_field(bf, start, radius=r, height=h, bound=allowance, enemies=enemies, settings=settings)
        for k, a in zip(blocked, arrivals(f2, [ends[k] for k in blocked], floors=[floor[k] for k in blocked]),
                        strict=True):
            if a is not None and not a.sure:
                ask.append(k)
            elif a is not None:
                out[k] = (a.cost, a.path)
    for k in sorted(ask):
        res = shortest_path(bf, start, ends[k], radius=r, height=h, others=others, side=m.side, budget=allowance,
                            settings=settings)
        if res.found and res.cost <= allowance + EPS:
            out[k] = (res.cost, tuple(res.points))
    return out


class _TowardGoal:
    """The costs to the goal (AI-D.06 pathdist) from cost fields from the goal, GEO-8 costs being
    symmetric (within 1e-9" of a search from each point: the float sums run the other way): the first without enemy
    bases, the second round them for the points whose path would pass one (`shortest_path`'s two passes), both
    bounded by the search from the current position (`first`, which gives start_dist and the progress point)."""

    def __init__(self, state: GameState, m: ModelState, goal: Point2 | str) -> None:
        self.state, self.m, self.goal = state, m, goal
        bf = state.battlefield
        self.settings = read_ctx(state).settings
        self.end, self.others = _goal_end(state, m, goal)
        self.enemies = enemy_bases(self.others, m.side)
        self.shrink = m.radius + state.models[goal].radius if isinstance(goal, str) else 0.0
        self.whole = 16.0 * (bf.width + bf.height)  # beyond any bound `shortest_path` grows its search to
        self.field: CostField | None = None
        start: Point3 = (m.x, m.y, m.z)
        end = self.end
        r, h = m.radius, m.profile.height
        fact = position_fact(bf, end[0], end[1], end[2], radius=r, height=h, others=self.others,
                             settings=self.settings)
        self.refused = bool(bf.pieces) and (not fact.legal or level_at(bf, end[0], end[1], end[2]) is None)
        # the search from the current position itself: the field's path back would write its arcs in other pieces
        # (so the progress point along it would move), and its cost bounds the fields
        self.first = path_to(state, m.id, start, goal)

    def _field(self, bound: float, enemies: bool) -> CostField:
        return cost_field(self.state.battlefield, self.end, radius=self.m.radius, height=self.m.profile.height,
                          bound=bound, enemies=self.enemies if enemies else (), settings=self.settings)

    def dists(self, ends: Sequence[Point3], reach: Sequence[float]) -> list[float]:
        """pathdist(p -> goal) for each end (see `pathdist`); `reach` holds each end's cost from the current
        position: no end is further from the goal than that plus the current position's own cost (with room for
        the graph's tolerance through difficult ground). Ends the fields do not reach are asked of `pathdist`."""
        state, m, goal = self.state, self.m, self.goal
        bf = state.battlefield
        if not bf.pieces or not ends:
            return [pathdist(state, m.id, p, goal) for p in ends]
        if self.refused:
            return [math.inf] * len(ends)  # shortest_path refuses such a goal from anywhere
        r, h = m.radius, m.profile.height
        bound = min(self.whole, 1.02 * (self.first.cost + max(reach)) + 0.5) if self.first.found else self.whole
        if self.field is None or self.field.bound < bound:
            self.field = self._field(bound, False)
        bound = self.field.bound
        out = [math.inf] * len(ends)
        ask = [k for k, p in enumerate(ends) if _at(p, self.end)]
        todo = [k for k, p in enumerate(ends) if not _at(p, self.end)]
        blocked: list[int] = []
        for k, a in zip(todo, arrivals(self.field, [ends[k] for k in todo], paths=bool(self.enemies)), strict=True):
            if a is None:
                if bound < self.whole:
                    ask.append(k)
            elif self.enemies and crosses_enemies(a.path, self.enemies, radius=r, height=h):
                blocked.append(k)
            else:
                out[k] = max(0.0, a.cost - self.shrink) if self.shrink else a.cost
        if blocked:
            f2 = self._field(bound, True)
            for k, a in zip(blocked, arrivals(f2, [ends[k] for k in blocked], paths=False), strict=True):
                if a is None:
                    if bound < self.whole:
                        ask.append(k)
                else:
                    out[k] = max(0.0, a.cost - self.shrink) if self.shrink else a.cost
        for k in ask:
            out[k] = pathdist(state, m.id, ends[k], goal)
        return out


def candidate_points(state: GameState, model: str, allowance: float, *, target: str | None = None,
                     point: Point2 | None = None, leash_centre: Point2 | None = None, leash: float = 12.0,
                     cohesion_with: Sequence[str] = (), step: float = 0.5) -> CandidateSet:
    """AI-D.06 candidate end points for `model` moving with `allowance` (the centre-path budget of its Move) toward
    a target model (`target`) or a point (`point`): (i) the shortest-path progress point at full allowance, (ii) 16
    directions x 4 radii round the current position, (iii) for every soft/hard/hardened piece within the allowance
    (GEO-4), points in base contact with it spaced `step` on the side facing away from the target (every side with
    no target). Kept: legal (GEO-7), reachable (GEO-8 path cost <= allowance), leash-respecting (GEO-20: every
    vertex of the path within `leash` of `leash_centre`; no centre, no leash) and cohesion-respecting (GEO-21: a
    connected 1" chain with the `cohesion_with` models where they stand). progress(p) = pathdist(current->goal) -
    pathdist(p->goal). The current position is kept as "stay" (cost 0).

    The costs come from two GEO-27 cost fields (`movement.field`), one from the current position and one from
    the goal, not from a search per point: the same paths and costs as `shortest_path` per point."""
    return _candidates(state, model, allowance, target=target, point=point, leash_centre=leash_centre, leash=leash,
                       cohesion_with=cohesion_with, step=step, progress=True)


def _candidates(state: GameState, model: str, allowance: float, *, target: str | None, point: Point2 | None,
                leash_centre: Point2 | None, leash: float, cohesion_with: Sequence[str], step: float,
                progress: bool) -> CandidateSet:
    """`candidate_points`; without `progress` every progress is left NaN (nearest cover never reads it)."""
    if (target is None) == (point is None):
        raise ValueError("give exactly one of target and point")
    m = state.models[model]
    t = state.models[target] if target is not None else None
    goal: Point2 | str
    if t is not None:
        goal, goal_xy = t.id, (t.x, t.y)
    else:
        assert point is not None
        goal = goal_xy = (float(point[0]), float(point[1]))
    bf = state.battlefield
    settings = read_ctx(state).settings
    start: Point3 = (m.x, m.y, m.z)
    toward = _TowardGoal(state, m, goal)
    first = toward.first  # GEO-27 current position -> goal, once
    start_dist = _travel(state, m, first, goal)
    raw: list[tuple[str, Point3, int | None]] = [("stay", start, None)]
    prog = _progress_point(state, m, goal, allowance, first)
    if prog is not None:
        raw.append(("progress", prog, None))
    raw += [("ring", (x, y, m.z), None) for x, y in _ring_points(m, allowance)]
    for p in _cover_pieces(state, m, allowance):
        for (x, y), (nx, ny) in _contacts(bf, p, m.radius, step):
            if t is not None and nx * (t.x - x) + ny * (t.y - y) >= 0:
                continue  # the piece must lie between the point and the target
            raw.append(("cover", (x, y, m.z), int(p.id)))
    uniq: list[tuple[str, Point3, int | None]] = []
    seen: set[tuple[float, float]] = set()
    for source, xyz, pid in raw:
        key = (round(xyz[0], 6), round(xyz[1], 6))
        if key not in seen:
            seen.add(key)
            uniq.append((source, xyz, pid))
    others = _others(state, model)
    at, walk = floors(bf, [xyz for _, xyz, _ in uniq])
    legal = legal_positions(bf, [xyz for _, xyz, _ in uniq], radius=m.radius, height=m.profile.height,
                            others=others, mover=model, walking=walk)
    level = [lv.id if lv is not None else None for lv in at]
    walks = [k for k, (source, _, _) in enumerate(uniq) if legal[k] and source != "stay"]
    routes = dict(zip(walks, _routes(state, m, [uniq[k][1] for k in walks], [level[k] for k in walks], allowance,
                                     others), strict=True))
    dropped = {"illegal": 0, "unreachable": 0, "leash": 0, "cohesion": 0}
    mates = [state.models[i].base() for i in cohesion_with if i != model and state.models[i].in_play]
    ok: list[tuple[str, Point3, int | None, float, tuple[Point3, ...]]] = []
    for k, (source, end, pid) in enumerate(uniq):
        if not legal[k]:
            dropped["illegal"] += 1
            continue
        path: tuple[Point3, ...] = (start,)
        cost = 0.0
        if source != "stay":
            route = routes[k]
            if route is None:
                dropped["unreachable"] += 1
                continue
            cost, path = route
            if cost > allowance - EDGE and not move_judged(state, m, path, allowance, others):
                dropped["unreachable"] += 1  # the engine's own Move check refuses it at the allowance's edge
                continue
        if leash_centre is not None and not leash_ok([(q[0], q[1]) for q in path], leash_centre, limit=leash,
                                                     settings=settings).ok:
            dropped["leash"] += 1
            continue
        if mates and not cohesion([replace(m.base(), x=end[0], y=end[1], z=end[2]), *mates],
                                  settings=settings).connected:
            dropped["cohesion"] += 1
            continue
        ok.append((source, end, pid, cost, path))
    walked = [k for k, (source, _, _, _, _) in enumerate(ok) if source != "stay"]
    dists = dict(zip(walked, toward.dists([ok[k][1] for k in walked], [ok[k][3] for k in walked]), strict=True)) \
        if progress else {}
    covers = _covers(state, m, [c[1] for c in ok], t)
    tol = float(settings["geo.contact_tol"])
    kept: list[Candidate] = []
    for k, (source, end, pid, cost, path) in enumerate(ok):
        here = start_dist - (dists[k] if k in dists else start_dist) if progress else math.nan
        contact = t is not None and math.hypot(end[0] - t.x, end[1] - t.y) - m.radius - t.radius <= tol + EPS
        kept.append(Candidate(end[0], end[1], end[2], source, cost, tuple(path), here, covers[k], pid, contact))
    kept.sort(key=lambda c: (c.x, c.y, c.source))
    return CandidateSet(model, target, goal_xy, allowance, start_dist, len(raw), tuple(kept),
                        tuple(dropped.items()))


EDGE = 0.05  # inches below the allowance from which a kept path is judged again by the engine's Move check


def move_judged(state: GameState, m: ModelState, path: Sequence[Point3], allowance: float, others: list[Base]) -> bool:
    """GEO-8: the path as a Move's waypoints passes the engine's own judge (movement.cost.path_cost, what a Move's
    check runs) within the allowance: a field's sum can land a hair under the allowance where the judge, adding the
    same legs in another order, lands a hair over; the point the agent is offered must be one apply accepts."""
    pts = [(p[0], p[1], p[2]) for p in path[1:]]
    if not pts:
        return True
    f = path_cost(state.battlefield, (m.x, m.y, m.z), pts, radius=m.radius, height=m.profile.height, others=others,
                  side=m.side, allowance=allowance, can_climb=not any(sc.lower() == "slow" for sc in m.scars),
                  settings=read_ctx(state).settings)
    return bool(f.legal)


def _cover_pieces(state: GameState, m: ModelState, allowance: float) -> list[TerrainPiece]:
    """(iii) the soft, hard and hardened pieces within the allowance of m's base (GEO-4), in battlefield order; a
    piece whose bounding box already lies beyond it is not measured."""
    settings = read_ctx(state).settings
    pieces = _cover_boxes(state.battlefield)
    if not pieces:
        return []
    box = _cover_box_array(state.battlefield)
    gap = np.hypot(np.maximum(np.maximum(box[:, 0] - m.x, 0.0), m.x - box[:, 2]),
                   np.maximum(np.maximum(box[:, 1] - m.y, 0.0), m.y - box[:, 3]))
    here = m.base()
    return [p for k in np.nonzero(gap <= allowance + m.radius + 1e-6)[0].tolist()
            if terrain_distance(here, (p := pieces[k][0]), settings=settings).distance <= allowance]


def _cover_box_array(bf: Battlefield) -> np.ndarray:
    key = (COVER_BOXES, "array")
    hit: np.ndarray | None = bf.cache.get(key)
    if hit is None:
        hit = np.asarray([b for _, b in _cover_boxes(bf)], float).reshape(-1, 4)
        bf.cache[key] = hit
    return hit


def _cover_boxes(bf: Battlefield) -> list[tuple[TerrainPiece, tuple[float, float, float, float]]]:
    """The battlefield's soft, hard and hardened pieces with their footprints' bounding boxes (kept in its cache)."""
    hit: list[tuple[TerrainPiece, tuple[float, float, float, float]]] | None = bf.cache.get(COVER_BOXES)
    if hit is None:
        hit = []
        for p in bf.pieces:
            if p.cover in COVER_CLASSES:
                xs = [float(q[0]) for q in p.footprint]
                ys = [float(q[1]) for q in p.footprint]
                hit.append((p, (min(xs), min(ys), max(xs), max(ys))))
        bf.cache[COVER_BOXES] = hit
    return hit


def _contacts(bf: Battlefield, p: TerrainPiece, radius: float, step: float) -> list[tuple[Point2, Point2]]:
    """`contact_points` of a piece for this base and spacing, worked out once per battlefield (footprints do not
    move)."""
    key = (COVER_BOXES, int(p.id), radius, step)
    hit: list[tuple[Point2, Point2]] | None = bf.cache.get(key)
    if hit is None:
        hit = contact_points(p.footprint, radius, step=step)
        bf.cache[key] = hit
    return hit


def choose_melee_move(cands: CandidateSet, *, cover_slack: float) -> MoveChoice:
    """AI-D.06 for a melee mover: if base contact with the target is reachable, the contact point with the lowest
    path cost (then lowest (x, y)); else best = max progress; among points with progress >= best - cover_slack
    (`ai.cover_slack`, passed by the A.I.'s owner) those in cover against the target win: best cover class, then
    higher progress, then lowest (x, y); with none in cover the highest progress, then lowest (x, y)."""
    pts = [c for c in cands.kept if math.isfinite(c.progress)]
    contact = [c for c in pts if c.contact]
    if contact:
        best_c = min(contact, key=lambda c: (c.cost, c.x, c.y))
        return MoveChoice(best_c, "contact", best_c.progress, cover_slack, ())
    if not pts:
        return MoveChoice(None, "none", -math.inf, cover_slack, ())
    best = max(c.progress for c in pts)
    near = [c for c in pts if c.progress >= best - cover_slack - 1e-9]
    covered = tuple(sorted((c for c in near if c.in_cover), key=lambda c: (-c.cover.rank, -c.progress, c.x, c.y)))
    if covered:
        return MoveChoice(covered[0], "cover", best, cover_slack, covered)
    top = min(pts, key=lambda c: (-c.progress, c.x, c.y))
    return MoveChoice(top, "progress", best, cover_slack, ())


def nearest_cover(state: GameState, model: str, allowance: float, *, leash_centre: Point2 | None = None,
                  leash: float = 12.0, cohesion_with: Sequence[str] = (), step: float = 0.5) -> Candidate | None:
    """Shared definitions / AI-S.SPAWN *nearest cover*: the reachable point (path cost <= allowance, legal, inside
    the leash) in base contact (GEO-6) with a soft, hard or hardened piece with the least path cost; ties by
    lowest (x, y). The points are AI-D.06's (iii) on every side of each piece, spaced `step`, plus the current
    position when the base already touches such a piece (cost 0). None: no such point is reachable. Its
    progress is AI-D.06's toward the current position (minus the path's cost back there)."""
    m = state.models[model]
    cands = _candidates(state, model, allowance, target=None, point=(m.x, m.y), leash_centre=leash_centre,
                        leash=leash, cohesion_with=cohesion_with, step=step, progress=False)
    settings = read_ctx(state).settings
    pieces = [p for p in state.battlefield.pieces if p.cover in COVER_CLASSES]

    def touches(c: Candidate) -> bool:
        b = replace(m.base(), x=c.x, y=c.y, z=c.z)
        return any(terrain_distance(b, p, settings=settings).in_contact for p in pieces)

    ok = sorted((c for c in cands.kept if c.source in ("cover", "stay")), key=lambda c: (c.cost, c.x, c.y))
    best = next((c for c in ok if touches(c)), None)
    if best is None:
        return None
    back = cands.start_dist if best.source == "stay" else pathdist(state, model, (best.x, best.y, best.z),
                                                                    (m.x, m.y))
    return replace(best, progress=cands.start_dist - back)
