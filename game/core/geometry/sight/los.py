"""Line of sight (GEO-10, GEO-10.WOODS): exact 2.5D rays through terrain prisms, smoke and woods, with reasons."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from game.core.battlefield import Base, Battlefield, Point2, Point3, Scene, SmokeCloud
from game.core.geometry.crossing import sample_point
from game.core.geometry.distance import base_distance
from game.core.geometry.sight.jit import kernels
from game.core.geometry.sight.world import World, clear_query_caches, query_memo, world_of
from game.core.settings import Settings
from game.core.tolerance import EPS

__all__ = [
    "LosFact", "RayFact", "SightBackend", "FastBackend", "line_of_sight", "point_line_of_sight", "sees",
    "clear_query_caches", "sample_points", "SAMPLE_LABELS",
]

SAMPLE_LABELS = (
    "centre head", "centre body", "left head", "left body", "right head", "right body",
    "near head", "near body", "far head", "far body",
)
MEMO_LIMIT = 4096

Ray = tuple[float, float, float, float, float, float]
Trace = tuple[tuple[int, ...], tuple[int, ...], float]  # (piece indices passed through, cylinders, woods length)


class SightBackend(Protocol):
    """How the fact builders reach the shared predicate: the fast grid+JIT path or the naive reference."""

    name: str

    def trace(self, world: World, rays: Sequence[Ray], cyl: Sequence[tuple[float, ...]]) -> list[Trace]:
        """Per ray: sorted indices of the pieces whose prism it passes through (woods: canopy with length > 0),
        the cylinders it passes through and its woods length below the canopy."""
        ...

    def crossed(self, world: World, a: Point2, b: Point2) -> tuple[int, ...]:
        """Sorted indices of the pieces whose footprint interior the 2D segment meets (GEO-12 crossing)."""
        ...

    def contacts(self, world: World, x: float, y: float, r: float, reach: float) -> tuple[tuple[int, float], ...]:
        """(index, distance) of every piece within `reach` of the base circle, by index (GEO-4, GEO-6)."""
        ...

    def walls(self, world: World, a: Point2, b: Point2, pieces: Sequence[int], excluded: Sequence[bool],
              gap: float) -> tuple[int, ...]:
        """GEO-13 items of the obstructing `pieces` (indices) crossed by a-b: per entry, the first entry of its
        item (`verdicts.wall_groups`; `gap` < 0: every piece its own)."""
        ...


class FastBackend:
    """The grid + compiled path (game.core.geometry.sight.kernels through game.core.geometry.sight.jit)."""

    name = "fast"

    def trace(self, world: World, rays: Sequence[Ray], cyl: Sequence[tuple[float, ...]]) -> list[Trace]:
        k = kernels()
        m = len(rays)
        flat = np.array(rays, dtype=np.float64).reshape(-1)
        cyla = np.array(cyl, dtype=np.float64).reshape(-1) if cyl else np.zeros(0, dtype=np.float64)
        hits = np.empty(m * max(world.n_pieces, 1), dtype=np.int64)
        hptr = np.empty(m + 1, dtype=np.int64)
        cyls = np.empty(m * max(len(cyl), 1), dtype=np.int64)
        cptr = np.empty(m + 1, dtype=np.int64)
        woods = np.empty(m, dtype=np.float64)
        k.trace_rays(flat, m, world.ed, world.pf, world.pn, world.gf, world.gn, world.cs, world.ci, world.wi,
                     cyla, len(cyl), world.stamp, world.cand, world.tbuf, hits, hptr, cyls, cptr, woods)
        hl = hits.tolist()
        cl = cyls.tolist()
        hp = hptr.tolist()
        cp = cptr.tolist()
        return [
            (tuple(sorted(hl[hp[i]:hp[i + 1]])), tuple(sorted(cl[cp[i]:cp[i + 1]])), float(woods[i]))
            for i in range(m)
        ]

    def crossed(self, world: World, a: Point2, b: Point2) -> tuple[int, ...]:
        k = kernels()
        out = np.empty(max(world.n_pieces, 1), dtype=np.int64)
        n = k.crossed(float(a[0]), float(a[1]), float(b[0]), float(b[1]), world.ed, world.pf, world.pn, world.gf,
                      world.gn, world.cs, world.ci, world.stamp, world.cand, world.tbuf, out)
        return tuple(sorted(out[:n].tolist()))

    def contacts(self, world: World, x: float, y: float, r: float, reach: float) -> tuple[tuple[int, float], ...]:
        k = kernels()
        idx = np.empty(max(world.n_pieces, 1), dtype=np.int64)
        dist = np.empty(max(world.n_pieces, 1), dtype=np.float64)
        n = k.contacts(float(x), float(y), float(r), float(reach), world.ed, world.pf, world.pn, world.gf,
                       world.gn, world.cs, world.ci, world.stamp, world.cand, idx, dist, 0)
        return tuple(sorted(zip(idx[:n].tolist(), dist[:n].tolist(), strict=True)))

    def walls(self, world: World, a: Point2, b: Point2, pieces: Sequence[int], excluded: Sequence[bool],
              gap: float) -> tuple[int, ...]:
        m = len(pieces)
        if m == 0:
            return ()
        grp = np.empty(m, dtype=np.int64)
        kernels().wall_groups(float(a[0]), float(a[1]), float(b[0]), float(b[1]), world.ed, world.pn, world.bd,
                              np.array(pieces, dtype=np.int64), np.array(excluded, dtype=np.int64), m, float(gap),
                              world.tbuf, np.empty(m + 1, dtype=np.int64), world.sbuf, grp)
        return tuple(grp.tolist())


FAST = FastBackend()


@dataclass(frozen=True, slots=True)
class RayFact:
    """One GEO-10 ray from an eye to a sample point, and what stands in its way."""

    viewer: str
    target: str
    sample: int
    label: str
    start: Point3
    end: Point3
    blocked: bool
    blocked_by: tuple[int, ...]  # piece ids with blocks_los whose prism the ray passes through
    through: tuple[int, ...]  # every other (non-woods) piece whose prism it passes through
    woods: tuple[int, ...]  # woods piece ids it runs in below the 4" canopy
    woods_length: float
    woods_blocked: bool
    smoke_by: tuple[int, ...]  # indices into scene.smoke
    models_by: tuple[str, ...]  # bases in the way (only with los.models_block)
    rule: str = "GEO-10"


@dataclass(frozen=True, slots=True)
class LosFact:
    """GEO-10 mutual line of sight between two models: the verdict, both directions and every ray."""

    viewer: str
    target: str
    visible: bool
    a_sees_t: bool
    t_sees_a: bool
    rays: tuple[RayFact, ...]  # 10 rays viewer->target samples, then 10 target->viewer samples
    blocked_by: tuple[int, ...]
    smoke_by: tuple[int, ...]
    woods_blocked: bool
    too_far: bool
    reasons: tuple[str, ...]
    rule: str = "GEO-10"

    def open_rays(self, direction: str = "a") -> tuple[RayFact, ...]:
        """The unblocked rays of one direction ('a': viewer->target, 't': target->viewer)."""
        half = self.rays[:10] if direction == "a" else self.rays[10:]
        return tuple(r for r in half if not r.blocked)


def sample_points(viewer: Point2, target: Base) -> tuple[Point3, ...]:
    """GEO-10: the 10 sample points of `target` seen from `viewer` (order of SAMPLE_LABELS)."""
    return tuple(
        sample_point(float(viewer[0]), float(viewer[1]), target.x, target.y, target.z, target.height,
                     target.radius, i)
        for i in range(10)
    )


def eye(b: Base) -> Point3:
    """GEO-10: the viewer's eye, top centre of its base."""
    return (float(b.x), float(b.y), float(b.z + b.height))


def cylinders(scene: Scene, *, exclude: tuple[str, ...],
              settings: Settings) -> tuple[list[tuple[float, ...]], list[int | str]]:
    """Smoke clouds (GAP-72) and, with `los.models_block`, every other base as LOS-blocking cylinders."""
    cyl: list[tuple[float, ...]] = []
    owners: list[int | str] = []  # smoke cloud index or base id
    for i, s in enumerate(scene.smoke):
        cyl.append((s.x, s.y, s.radius, s.z, s.z + s.height))
        owners.append(i)
    if settings["los.models_block"]:
        for b in scene.bases:
            if b.id not in exclude:
                cyl.append((b.x, b.y, b.radius, b.z, b.z + b.height))
                owners.append(b.id)
    return cyl, owners


def trace_facts(world: World, viewer: str, target: str, rays: Sequence[Ray], traces: Sequence[Trace],
                owners: Sequence[int | str], depth: float) -> tuple[RayFact, ...]:
    """Turn backend traces into RayFacts (GEO-10 blocked iff a blocks_los prism, woods > depth, or smoke)."""
    out = []
    for i, (ray, (hits, cyl_hits, wlen)) in enumerate(zip(rays, traces, strict=True)):
        blockers = tuple(sorted(int(world.pieces[p].id) for p in hits if world.pn[5 * p + 2] & 1))
        woods = tuple(sorted(int(world.pieces[p].id) for p in hits if world.pn[5 * p + 2] & 2))
        through = tuple(sorted(int(world.pieces[p].id) for p in hits if not world.pn[5 * p + 2] & 3))
        smoke = tuple(o for c in cyl_hits if isinstance(o := owners[c], int))
        models = tuple(o for c in cyl_hits if isinstance(o := owners[c], str))
        wblocked = wlen > depth + EPS
        out.append(RayFact(
            viewer=viewer, target=target, sample=i % 10, label=SAMPLE_LABELS[i % 10],
            start=ray[:3], end=ray[3:], blocked=bool(blockers or wblocked or cyl_hits),
            blocked_by=blockers, through=through, woods=woods, woods_length=wlen, woods_blocked=wblocked,
            smoke_by=smoke, models_by=models,
        ))
    return tuple(out)


def _los_reasons(a: str, t: str, fact_rays: tuple[RayFact, ...], ast: bool, tsa: bool, depth: float) -> list[str]:
    reasons = []
    for who, other, seen, half in ((a, t, ast, fact_rays[:10]), (t, a, tsa, fact_rays[10:])):
        open_n = sum(1 for r in half if not r.blocked)
        if seen:
            first = next(r.label for r in half if not r.blocked)
            reasons.append(f"GEO-10: {who} sees {other}: {open_n}/10 rays open (first: {first})")
        else:
            why = sorted({p for r in half for p in r.blocked_by})
            parts = []
            if why:
                parts.append(f"pieces {why}")
            if any(r.woods_blocked for r in half):
                worst = max(r.woods_length for r in half)
                parts.append(f"woods deeper than {depth:g}\" (up to {worst:.2f}\", GEO-10.WOODS)")
            if any(r.smoke_by for r in half):
                parts.append(f"smoke {sorted({s for r in half for s in r.smoke_by})}")
            if any(r.models_by for r in half):
                parts.append(f"models {sorted({s for r in half for s in r.models_by})}")
            reasons.append(f"GEO-10: {who} cannot see {other}: all 10 rays blocked by " + ", ".join(parts))
    return reasons


def line_of_sight(bf: Battlefield, scene: Scene, viewer_id: str, target_id: str, *, settings: Settings | None = None,
                  max_distance: float | None = None, backend: SightBackend | None = None) -> LosFact:
    """GEO-10 mutual LOS: visible iff some ray viewer-eye -> target sample, or target-eye -> viewer sample, is open.

    A ray is blocked by a `blocks_los` prism it passes strictly through (touching or grazing does not
    block), by woods totalling more than `los.woods_depth` below the 4" canopy (GEO-10.WOODS), by a smoke
    cylinder (GAP-72), or (with `los.models_block`) another model. `max_distance` caps the edge-to-edge
    distance (Sudden Darkness 12", GAP-59). The preview and the resolution call this same function.
    """
    settings = settings or Settings.defaults()
    backend = backend or FAST
    if settings["los.mode"] != "2.5d_rays":
        raise ValueError(f"los.mode {settings['los.mode']!r}: only '2.5d_rays' (GEO-10) is implemented")
    a = scene.base(viewer_id)
    t = scene.base(target_id)
    depth = float(settings["los.woods_depth"])
    models_block = bool(settings["los.models_block"])
    key = ("los", backend.name, a, t, scene.smoke, scene.bases if models_block else (), depth, max_distance)
    memo = query_memo(bf)
    hit: LosFact | None = memo.get(key)
    if hit is not None:
        return hit
    world = world_of(bf)
    cyl, owners = cylinders(scene, exclude=(a.id, t.id), settings=settings)
    rays: list[Ray] = [eye(a) + s for s in sample_points(a.centre, t)]
    rays += [eye(t) + s for s in sample_points(t.centre, a)]
    traces = backend.trace(world, rays, cyl)
    facts = trace_facts(world, a.id, t.id, rays[:10], traces[:10], owners, depth)
    facts += trace_facts(world, t.id, a.id, rays[10:], traces[10:], owners, depth)
    ast = any(not r.blocked for r in facts[:10])
    tsa = any(not r.blocked for r in facts[10:])
    reasons = _los_reasons(a.id, t.id, facts, ast, tsa, depth)
    too_far = False
    if max_distance is not None:
        d = base_distance(a, t).distance
        if d > max_distance + EPS:
            too_far = True
            ast = tsa = False
            reasons.append(f"GEO-10: {d:.2f}\" apart, beyond the {max_distance:g}\" sight limit (GAP-59)")
    fact = LosFact(
        viewer=a.id, target=t.id, visible=ast or tsa, a_sees_t=ast, t_sees_a=tsa, rays=facts,
        blocked_by=tuple(sorted({p for r in facts for p in r.blocked_by})),
        smoke_by=tuple(sorted({s for r in facts for s in r.smoke_by})),
        woods_blocked=any(r.woods_blocked for r in facts), too_far=too_far, reasons=tuple(reasons),
    )
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = fact
    return fact


def sees(bf: Battlefield, a: Base, t: Base, smoke: tuple[SmokeCloud, ...], *, settings: Settings,
         max_distance: float | None = None) -> bool:
    """`line_of_sight(...).visible` for two bases when models do not block LOS (`los.models_block` false: the
    other bases play no part), without the scene or the per-ray facts: the same rays through the same kernel, a
    ray blocked by the same test (a `blocks_los` prism, woods deeper than `los.woods_depth`, a smoke cylinder),
    visible iff one ray of either direction is open and (with `max_distance`) the bases are within it.

    Cached in the battlefield's query memo beside `line_of_sight`'s facts (the same key, so a fact already there
    answers; `clear_query_caches` forgets both): the answer is a pure function of the key (the two bases, the
    smoke, the woods depth, the limit) and the battlefield, whose pieces never change."""
    if settings["los.models_block"]:
        raise ValueError("sees: with los.models_block every base counts; use line_of_sight with the scene")
    if settings["los.mode"] != "2.5d_rays":
        raise ValueError(f"los.mode {settings['los.mode']!r}: only '2.5d_rays' (GEO-10) is implemented")
    depth = float(settings["los.woods_depth"])
    key = ("los", FAST.name, a, t, smoke, (), depth, max_distance)
    memo = query_memo(bf)
    fact: LosFact | None = memo.get(key)
    if fact is not None:
        return fact.visible
    vkey = ("sees", *key)
    hit: bool | None = memo.get(vkey)
    if hit is not None:
        return hit
    if max_distance is not None and base_distance(a, t).distance > max_distance + EPS:
        seen = False
    else:
        seen = _any_open(world_of(bf), a, t, smoke, depth)
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[vkey] = seen
    return seen


def _any_open(world: World, a: Base, t: Base, smoke: tuple[SmokeCloud, ...], depth: float) -> bool:
    """Is one of the 20 GEO-10 rays of a and t open (`trace_facts`' `blocked`, read straight off the kernel)? The
    kernel traces every ray on its own, so the rays from a's eye are traced first and t's only when all are shut."""
    cyl = [(s.x, s.y, s.radius, s.z, s.z + s.height) for s in smoke]
    cyla = np.array(cyl, dtype=np.float64).reshape(-1) if cyl else np.zeros(0, dtype=np.float64)
    pn = world.as_lists()[2]
    k = kernels()
    m = 10
    hits = np.empty(m * max(world.n_pieces, 1), dtype=np.int64)
    hptr = np.empty(m + 1, dtype=np.int64)
    cyls = np.empty(m * max(len(cyl), 1), dtype=np.int64)
    cptr = np.empty(m + 1, dtype=np.int64)
    woods = np.empty(m, dtype=np.float64)
    for viewer, target in ((a, t), (t, a)):
        rays = [eye(viewer) + s for s in sample_points(viewer.centre, target)]
        k.trace_rays(np.array(rays, dtype=np.float64).reshape(-1), m, world.ed, world.pf, world.pn, world.gf,
                     world.gn, world.cs, world.ci, world.wi, cyla, len(cyl), world.stamp, world.cand, world.tbuf,
                     hits, hptr, cyls, cptr, woods)
        hl, hp, cp, wl = hits.tolist(), hptr.tolist(), cptr.tolist(), woods.tolist()
        for i in range(m):
            if cp[i + 1] > cp[i] or wl[i] > depth + EPS:
                continue
            if not any(pn[5 * p + 2] & 1 for p in hl[hp[i]:hp[i + 1]]):
                return True
    return False


def point_line_of_sight(bf: Battlefield, scene: Scene, viewer_id: str, point: Point3, *, marker_height: float = 0.5,
                        settings: Settings | None = None, backend: SightBackend | None = None) -> LosFact:
    """GEO-23: mutual LOS between a model and a marker `marker_height` tall standing at `point` (x, y, z).

    The marker is a base of radius 0: its samples are its top and its middle; its eye is its top.
    """
    settings = settings or Settings.defaults()
    backend = backend or FAST
    a = scene.base(viewer_id)
    mx, my = float(point[0]), float(point[1])
    mz = float(point[2]) if len(point) > 2 else 0.0
    marker = Base(id=f"point({mx:g},{my:g})", x=mx, y=my, z=mz, radius=0.0, height=marker_height, side="marker")
    depth = float(settings["los.woods_depth"])
    world = world_of(bf)
    cyl, owners = cylinders(scene, exclude=(a.id,), settings=settings)
    rays: list[Ray] = [eye(a) + (mx, my, mz + marker_height), eye(a) + (mx, my, mz + 0.5 * marker_height)]
    rays += [eye(marker) + s for s in sample_points(marker.centre, a)]
    traces = backend.trace(world, rays, cyl)
    there = trace_facts(world, a.id, marker.id, rays[:2], traces[:2], owners, depth)
    back = trace_facts(world, marker.id, a.id, rays[2:], traces[2:], owners, depth)
    ast = any(not r.blocked for r in there)
    tsa = any(not r.blocked for r in back)
    reasons = (
        f"GEO-23: {a.id} {'sees' if ast else 'cannot see'} the marker at ({mx:g}, {my:g}, {mz:g}); "
        f"from the marker {'one' if tsa else 'no'} ray reaches {a.id}",
    )
    return LosFact(
        viewer=a.id, target=marker.id, visible=ast or tsa, a_sees_t=ast, t_sees_a=tsa, rays=there + back,
        blocked_by=tuple(sorted({p for r in there + back for p in r.blocked_by})),
        smoke_by=tuple(sorted({s for r in there + back for s in r.smoke_by})),
        woods_blocked=any(r.woods_blocked for r in there + back), too_far=False, reasons=reasons,
    )


def segment_length(a: Point3, b: Point3) -> float:
    """2D length of a ray (for reports)."""
    return math.hypot(b[0] - a[0], b[1] - a[1])
