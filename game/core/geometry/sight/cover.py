"""Cover, obstructions and elevation (GEO-12, GEO-13, GEO-14, GAP-82..84): which piece protects whom, and why."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.core.battlefield import Area, Base, Battlefield, Cover, Scene
from game.core.geometry.crossing import TOL
from game.core.geometry.sight.los import FAST, SightBackend, line_of_sight
from game.core.geometry.sight.world import World, query_memo, world_of
from game.core.settings import Settings
from game.core.tolerance import EPS

_DEGRADE = {Cover.HARD: Cover.SOFT, Cover.SOFT: Cover.OBSTRUCTION, Cover.OBSTRUCTION: Cover.NONE,
            Cover.NONE: Cover.NONE}
_BY_RANK = {c.rank: c for c in Cover}
GIVES_COVER = (Cover.SOFT, Cover.HARD, Cover.HARDENED)


@dataclass(frozen=True, slots=True)
class CoverCandidate:
    """A piece in contact with the defender, and whether it lies between (GEO-12 conditions 1-3)."""

    piece: int
    name: str
    cover: Cover
    distance: float
    crossed: bool  # the centre line cA->cT crosses its footprint
    occluded_rays: tuple[int, ...]  # samples of A's rays passing through its prism (partial occlusion)
    qualifies: bool
    reason: str


@dataclass(frozen=True, slots=True)
class CoverFact:
    """GEO-12/13/14 for one attack: the best cover piece, its class before and after elevation, obstructions."""

    attacker: str
    target: str
    piece: int | None
    cover: Cover  # class of the chosen piece (NONE without cover)
    degraded: Cover  # after GEO-14 elevation (== cover when not elevated)
    elevated: bool
    height_difference: float  # zA - zT
    crossed: tuple[int, ...]  # every piece whose footprint the centre line crosses
    obstructions: tuple[int, ...]  # pieces counting -1 each (GEO-13), empty when elevation cancels them
    obstruction_count: int
    ignored_obstructions: tuple[int, ...]  # would count, cancelled by elevation (GEO-14)
    attacker_contact: tuple[int, ...]  # crossed pieces not counted: in contact with the attacker
    candidates: tuple[CoverCandidate, ...]
    reasons: tuple[str, ...]
    rule: str = "GEO-12"


def degrade(cover: Cover, *, settings: Settings | None = None) -> Cover:
    """GEO-14 / CORE-3.6.ELEVATED: one step down (hardened -> `elev.hardened_becomes`, hard -> soft,
    soft -> obstruction)."""
    settings = settings or Settings.defaults()
    if cover is Cover.HARDENED:
        return Cover(settings["elev.hardened_becomes"])
    return _DEGRADE[cover]


def is_higher(z_attacker: float, z_target: float, *, settings: Settings | None = None) -> bool:
    """GEO-14: the attacker is higher iff zA >= zT + `elev.step` (within EPS)."""
    settings = settings or Settings.defaults()
    return z_attacker >= z_target + float(settings["elev.step"]) - EPS


def _candidates(world: World, scene_t: Base, a_rays_hits: Sequence[set[int]], crossed: set[int],
                contacts: Sequence[tuple[int, float]]) -> list[CoverCandidate]:
    """Every piece in contact with the defender, and whether it gives cover against the attacker (GEO-12)."""
    out = []
    for p, dist in contacts:
        piece = world.pieces[p]
        woods = piece.area is Area.WOODS
        cls = Cover.SOFT if woods else piece.cover
        is_crossed = p in crossed
        occluded = tuple(i for i, hits in enumerate(a_rays_hits) if int(piece.id) in hits) if not woods else ()
        if woods:
            ok = dist <= EPS and is_crossed
            why = ("woods overlapping the base, crossed by the centre line (GEO-10.WOODS)" if ok else
                   "woods not overlapping the base" if dist > EPS else "woods not on the centre line")
        elif cls not in GIVES_COVER:
            ok, why = False, f"{cls.value} is not a cover class (GEO-12 (1))"
        elif piece.top_z <= scene_t.z + TOL:
            ok, why = False, f"top {piece.top_z:g}\" is not above the defender's feet at {scene_t.z:g}\""
        elif is_crossed:
            ok, why = True, "in contact and the centre line crosses it (GEO-12 (3))"
        elif occluded:
            ok, why = True, f"in contact and in the way of {len(occluded)} of the attacker's rays (GEO-12 (3))"
        else:
            ok, why = False, "in contact but not between the models"
        out.append(CoverCandidate(int(piece.id), piece.name, cls, dist, is_crossed, occluded, ok, why))
    return out


def cover_against(bf: Battlefield, scene: Scene, attacker_id: str, target_id: str, *,
                  settings: Settings | None = None, backend: SightBackend | None = None) -> CoverFact:
    """GEO-12/13/14: the defender's best cover against this attacker, the obstructions and the elevation.

    Cover: a soft/hard/hardened piece within `geo.contact_tol` of the defender's base, whose top is above
    the defender's feet, that the centre line crosses or that stands in at least one of the attacker's
    GEO-10 rays; woods the base overlaps give soft cover when the centre line crosses them. Best class
    wins, ties to the lowest piece id. Obstructions: every other crossed piece with a cover class (or
    woods), each once, minus the attacker's own contact pieces (`obstruction.ignore_attacker_contact`).
    Elevation: zA >= zT + `elev.step` degrades the class one step and cancels obstructions
    (`elev.ignore_obstructions`). Turning this into target numbers is the combat engine's job.
    """
    settings = settings or Settings.defaults()
    backend = backend or FAST
    a = scene.base(attacker_id)
    t = scene.base(target_id)
    tol = float(settings["geo.contact_tol"])
    key = ("cover", backend.name, a, t, tol, float(settings["elev.step"]),
           bool(settings["obstruction.ignore_attacker_contact"]), bool(settings["elev.ignore_obstructions"]),
           settings["elev.hardened_becomes"])
    memo = query_memo(bf)
    hit: CoverFact | None = memo.get(key)
    if hit is not None:
        return hit
    world = world_of(bf)
    crossed = backend.crossed(world, a.centre, t.centre)
    cset = set(crossed)
    t_contacts = backend.contacts(world, t.x, t.y, t.radius, tol)
    ray_hits: list[set[int]] = []
    if t_contacts:  # A's ten GEO-10 rays to T (memoised with the LOS fact the engine asks for anyway)
        los = line_of_sight(bf, scene, attacker_id, target_id, settings=settings, backend=backend)
        ray_hits = [set(r.blocked_by) | set(r.through) for r in los.rays[:10]]
    cands = _candidates(world, t, ray_hits, cset, t_contacts)
    best: CoverCandidate | None = None
    for c in cands:
        if c.qualifies and (best is None or c.cover.rank > best.cover.rank
                            or (c.cover.rank == best.cover.rank and c.piece < best.piece)):
            best = c
    cover = best.cover if best else Cover.NONE
    elevated = is_higher(a.z, t.z, settings=settings)
    degraded = degrade(cover, settings=settings) if elevated else cover
    a_contact = {p for p, _ in backend.contacts(world, a.x, a.y, a.radius, tol)}
    counted: list[int] = []
    skipped: list[int] = []
    for p in crossed:
        piece = world.pieces[p]
        if best is not None and int(piece.id) == best.piece:
            continue
        if piece.cover is Cover.NONE and piece.area is not Area.WOODS:
            continue
        if settings["obstruction.ignore_attacker_contact"] and p in a_contact:
            skipped.append(int(piece.id))
            continue
        counted.append(int(piece.id))
    ignored: list[int] = []
    if elevated and settings["elev.ignore_obstructions"]:
        ignored, counted = counted, []
    reasons = _reasons(a.id, t.id, best, cover, degraded, elevated, a.z - t.z, counted, ignored, skipped)
    fact = CoverFact(
        attacker=a.id, target=t.id, piece=best.piece if best else None, cover=cover, degraded=degraded,
        elevated=elevated, height_difference=a.z - t.z,
        crossed=tuple(int(world.pieces[p].id) for p in crossed), obstructions=tuple(counted),
        obstruction_count=len(counted), ignored_obstructions=tuple(ignored), attacker_contact=tuple(skipped),
        candidates=tuple(cands), reasons=tuple(reasons),
    )
    memo[key] = fact
    return fact


def _reasons(a: str, t: str, best: CoverCandidate | None, cover: Cover, degraded: Cover, elevated: bool, dz: float,
             counted: list[int], ignored: list[int], skipped: list[int]) -> list[str]:
    """The GEO-12/13/14 reasons of a cover fact, in the order the rules apply them."""
    out = []
    if best is None:
        out.append(f"GEO-12: {t} has no cover against {a}")
    else:
        out.append(f"GEO-12: {t} takes {cover.value} cover from piece {best.piece} ({best.name}): {best.reason}")
    if elevated:
        out.append(f"GEO-14: {a} is {dz:g}\" higher: cover {cover.value} -> {degraded.value}, obstructions ignored"
                   + (f" ({ignored})" if ignored else ""))
    if counted:
        out.append(f"GEO-13: {len(counted)} obstruction(s) on the centre line: pieces {counted}")
    if skipped:
        out.append(f"GEO-13: pieces {skipped} touch {a} and are not counted (its own cover)")
    return out


def rank_to_cover(rank: int) -> Cover:
    """The Cover class of a kernel rank (Cover.rank)."""
    return _BY_RANK[rank]
