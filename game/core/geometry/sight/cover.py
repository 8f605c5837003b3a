"""Cover, obstructions and elevation (GEO-12, GEO-13, GEO-14, GAP-82..84): which piece protects whom, and why."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.core.battlefield import Area, Base, Battlefield, Cover, Scene
from game.core.geometry.crossing import TOL
from game.core.geometry.sight.los import FAST, SightBackend, line_of_sight
from game.core.geometry.sight.verdicts import WALL_GAP
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
    obstructions: tuple[int, ...]  # every piece that obstructs (GEO-13), empty when elevation cancels them
    obstruction_groups: tuple[tuple[int, ...], ...]  # the obstructions, one per item: each counts -1
    obstruction_count: int  # len(obstruction_groups)
    ignored_obstructions: tuple[int, ...]  # would count, cancelled by elevation (GEO-14)
    attacker_contact: tuple[int, ...]  # crossed pieces not counted: in contact with the attacker
    same_wall: tuple[int, ...]  # crossed pieces not counted: the same wall as the cover piece or the attacker's own
    candidates: tuple[CoverCandidate, ...]
    reasons: tuple[str, ...]
    rule: str = "GEO-12"


def wall_gap(settings: Settings) -> float:
    """GEO-13 `obstruction.building_walls`: how far apart (inches along the centre line) crossings of one
    building's pieces may lie and still be one wall: 1.0 for `per_wall`, -1 (never) for `per_piece`."""
    mode = settings["obstruction.building_walls"]
    if mode == "per_wall":
        return WALL_GAP
    if mode == "per_piece":
        return -1.0
    raise ValueError(f"obstruction.building_walls {mode!r}: expected 'per_wall' or 'per_piece' (GEO-13)")


def below_feet_gives_cover(settings: Settings) -> bool:
    """GEO-12 `cover.below_feet`: true restores the three conditions alone, so a piece whose top is at or below
    the defender's base may still give it cover; false (the house rule) refuses it."""
    return bool(settings["cover.below_feet"])


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
                contacts: Sequence[tuple[int, float]], *, below_feet: bool) -> list[CoverCandidate]:
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
        elif not below_feet and piece.top_z <= scene_t.z + TOL:
            ok, why = False, (f"top {piece.top_z:g}\" is not above the defender's feet at {scene_t.z:g}\" "
                              "(GEO-12, cover.below_feet false)")
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

    Cover: a soft/hard/hardened piece within `geo.contact_tol` of the defender's base that the centre line
    crosses or that stands in at least one of the attacker's GEO-10 rays, and (`cover.below_feet` false)
    whose top is above the defender's feet; woods the base overlaps give soft cover when the centre line
    crosses them. Best class wins, ties to the lowest piece id. Obstructions (GEO-13): every crossed piece
    with a cover class (or woods), each once, grouped into items: with `obstruction.building_walls`
    per_wall the pieces of one building whose crossings lie within 1.0" of each other are one wall
    (`verdicts.wall_groups`); an item holding the cover piece, or (`obstruction.ignore_attacker_contact`)
    a piece touching the attacker, does not count; every other item counts -1. Elevation: zA >= zT +
    `elev.step` degrades the class one step and cancels obstructions (`elev.ignore_obstructions`).
    Turning this into target numbers is the combat engine's job.
    """
    settings = settings or Settings.defaults()
    backend = backend or FAST
    a = scene.base(attacker_id)
    t = scene.base(target_id)
    tol = float(settings["geo.contact_tol"])
    gap = wall_gap(settings)
    below_feet = below_feet_gives_cover(settings)
    own_cover = bool(settings["obstruction.ignore_attacker_contact"])
    key = ("cover", backend.name, a, t, tol, float(settings["elev.step"]), own_cover,
           bool(settings["elev.ignore_obstructions"]), settings["elev.hardened_becomes"], gap, below_feet)
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
    cands = _candidates(world, t, ray_hits, cset, t_contacts, below_feet=below_feet)
    best: CoverCandidate | None = None
    for c in cands:
        if c.qualifies and (best is None or c.cover.rank > best.cover.rank
                            or (c.cover.rank == best.cover.rank and c.piece < best.piece)):
            best = c
    cover = best.cover if best else Cover.NONE
    elevated = is_higher(a.z, t.z, settings=settings)
    degraded = degrade(cover, settings=settings) if elevated else cover
    a_contact = {p for p, _ in backend.contacts(world, a.x, a.y, a.radius, tol)} if own_cover else set()
    items = _obstruction_items(world, backend, a, t, crossed, best, a_contact, gap)
    ignored: list[int] = []
    counted = [p for g in items.counted for p in g]
    groups = items.counted
    if elevated and settings["elev.ignore_obstructions"]:
        ignored, counted, groups = counted, [], []
    reasons = _reasons(world, a.id, t.id, best, cover, degraded, elevated, a.z - t.z, groups, ignored, items)
    fact = CoverFact(
        attacker=a.id, target=t.id, piece=best.piece if best else None, cover=cover, degraded=degraded,
        elevated=elevated, height_difference=a.z - t.z,
        crossed=tuple(int(world.pieces[p].id) for p in crossed), obstructions=tuple(counted),
        obstruction_groups=tuple(groups), obstruction_count=len(groups), ignored_obstructions=tuple(ignored),
        attacker_contact=tuple(items.attacker_contact), same_wall=tuple(items.same_wall), candidates=tuple(cands),
        reasons=tuple(reasons),
    )
    memo[key] = fact
    return fact


@dataclass(frozen=True, slots=True)
class _Items:
    """GEO-13 items on the centre line, as piece ids: those that count, and the pieces set aside."""

    counted: list[tuple[int, ...]]  # one tuple per item counting -1 (several pieces: one building's wall)
    attacker_contact: list[int]  # pieces touching the attacker (its own cover)
    same_wall: list[int]  # pieces of the cover piece's wall or of the attacker's own wall


def _obstruction_items(world: World, backend: SightBackend, a: Base, t: Base, crossed: Sequence[int],
                       best: CoverCandidate | None, a_contact: set[int], gap: float) -> _Items:
    """GEO-13: the crossed pieces with a cover class (or woods), grouped into items by the shared wall verdict
    (`verdicts.wall_groups`, as the batch kernels count them); an item with the cover piece or a piece
    touching the attacker does not count."""
    eligible = [p for p in crossed if world.pieces[p].cover is not Cover.NONE or world.pieces[p].area is Area.WOODS]
    cover_idx = world.index_of[best.piece] if best is not None else -1
    excluded = [p == cover_idx or p in a_contact for p in eligible]
    grp = backend.walls(world, a.centre, t.centre, eligible, excluded, gap)
    out = _Items([], [], [])
    for root in sorted(set(grp)):
        members = [k for k in range(len(eligible)) if grp[k] == root]
        ids = tuple(int(world.pieces[eligible[k]].id) for k in members)
        if not any(excluded[k] for k in members):
            out.counted.append(ids)
            continue
        for k in members:
            p = eligible[k]
            if p in a_contact and p != cover_idx:
                out.attacker_contact.append(int(world.pieces[p].id))
            elif p != cover_idx:
                out.same_wall.append(int(world.pieces[p].id))
    out.attacker_contact.sort()
    out.same_wall.sort()
    return out


def _item_text(world: World, group: tuple[int, ...]) -> str:
    building = world.pieces[world.index_of[group[0]]].building
    if not building:
        return f"piece {group[0]}"
    return f"{building}'s wall (piece{'s' if len(group) > 1 else ''} {', '.join(str(p) for p in group)})"


def _reasons(world: World, a: str, t: str, best: CoverCandidate | None, cover: Cover, degraded: Cover,
             elevated: bool, dz: float, groups: list[tuple[int, ...]], ignored: list[int], items: _Items) -> list[str]:
    """The GEO-12/13/14 reasons of a cover fact, in the order the rules apply them."""
    out = []
    if best is None:
        out.append(f"GEO-12: {t} has no cover against {a}")
    else:
        out.append(f"GEO-12: {t} takes {cover.value} cover from piece {best.piece} ({best.name}): {best.reason}")
    if elevated:
        out.append(f"GEO-14: {a} is {dz:g}\" higher: cover {cover.value} -> {degraded.value}, obstructions ignored"
                   + (f" ({ignored})" if ignored else ""))
    if groups and all(len(g) == 1 for g in groups):
        out.append(f"GEO-13: {len(groups)} obstruction(s) on the centre line: pieces {[g[0] for g in groups]}")
    elif groups:
        out.append(f"GEO-13: {len(groups)} obstruction(s) on the centre line: "
                   + "; ".join(_item_text(world, g) for g in groups))
    if items.attacker_contact:
        out.append(f"GEO-13: pieces {items.attacker_contact} touch {a} and are not counted (its own cover)")
    if items.same_wall:
        out.append(f"GEO-13: pieces {items.same_wall} are the same wall as {t}'s cover or {a}'s own cover "
                   "and are not counted (obstruction.building_walls per_wall)")
    return out


def rank_to_cover(rank: int) -> Cover:
    """The Cover class of a kernel rank (Cover.rank)."""
    return _BY_RANK[rank]
