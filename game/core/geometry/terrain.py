"""Terrain for movement: levels (ground, floors, roofs), pieces that block, slow or trip (GEO-7, GEO-8, GEO-24)."""
from __future__ import annotations

from dataclasses import dataclass

import shapely
from shapely import Point, Polygon, STRtree

from game.core.battlefield import Area, Battlefield, Movement, TerrainPiece

GROUND = 0  # id of the ground level
Z_TOL = 0.01  # two heights within this are the same floor (inches)
LOW_OBSTACLE = 1.0  # GEO-8: pieces up to 1" above a level are crossed, not climbed
EPS = 1e-6


@dataclass(frozen=True, slots=True)
class Level:
    """A floor a base can stand on (GEO-7): the ground (support None = the whole table) or one connected
    top of `surface` pieces at one height (a roof, a floor slab, a walkway)."""

    id: int
    z: float
    support: Polygon | None
    pieces: tuple[int, ...] = ()
    name: str = "ground"

    def covers(self, x: float, y: float) -> bool:
        """True if a base centre at (x, y) stands on this level (centre over the floor, boundary included)."""
        return self.support is None or self.support.covers(Point(x, y))


@dataclass(frozen=True, slots=True)
class PiecesAt:
    """The pieces that matter to a base of one height standing at one z (GEO-7, GEO-8), with STRtrees.

    blockers: impassable at z (`TerrainPiece.impassable_at`); climbable non-surface ones may be climbed over.
    difficult: difficult ground at this level. lows: low obstacles a base crosses but may not end on.
    platforms: low pieces marked `platform` a base may stand on (z = their top).
    """

    z: float
    blockers: tuple[TerrainPiece, ...]
    blocker_polys: tuple[Polygon, ...]
    blocker_tree: STRtree
    difficult: tuple[TerrainPiece, ...]
    difficult_polys: tuple[Polygon, ...]
    difficult_union: shapely.Geometry | None
    difficult_tree: STRtree
    lows: tuple[TerrainPiece, ...]
    low_polys: tuple[Polygon, ...]
    low_tree: STRtree
    platforms: tuple[TerrainPiece, ...]
    platform_polys: tuple[Polygon, ...]


def footprint(p: TerrainPiece) -> Polygon:
    """The piece's footprint as a shapely polygon (holes kept)."""
    return Polygon(p.footprint, p.holes)


def _polys(bf: Battlefield) -> tuple[Polygon, ...]:
    hit = bf.cache.get("terrain_rules.polys")
    if hit is None:
        hit = tuple(footprint(p) for p in bf.pieces)
        bf.cache["terrain_rules.polys"] = hit
    return hit


def levels(bf: Battlefield) -> tuple[Level, ...]:
    """Every level of the battlefield, ground first (id 0); surfaces grouped by height and connectivity (GEO-7)."""
    hit: tuple[Level, ...] | None = bf.cache.get("terrain_rules.levels")
    if hit is not None:
        return hit
    polys = _polys(bf)
    out = [Level(GROUND, 0.0, None)]
    by_z: dict[float, list[int]] = {}
    for i, p in enumerate(bf.pieces):
        if p.surface and p.top_z > Z_TOL:
            by_z.setdefault(round(p.top_z / Z_TOL) * Z_TOL, []).append(i)
    for z in sorted(by_z):
        idx = by_z[z]
        union = shapely.union_all([polys[i] for i in idx])
        for part in shapely.get_parts(union):
            if part.geom_type != "Polygon" or part.area <= EPS:
                continue
            members = tuple(bf.pieces[i].id for i in idx if polys[i].intersects(part))
            z_top = max(bf.pieces[i].top_z for i in idx if polys[i].intersects(part))
            names = sorted({bf.pieces[i].building or bf.pieces[i].name for i in idx if polys[i].intersects(part)})
            out.append(Level(len(out), z_top, shapely.normalize(part), members,
                             f"{'/'.join(n for n in names if n) or 'surface'} at {z_top:g}\""))
    result = tuple(out)
    bf.cache["terrain_rules.levels"] = result
    return result


def _level_tree(bf: Battlefield) -> STRtree:
    hit = bf.cache.get("terrain_rules.level_tree")
    if hit is None:
        hit = STRtree([lv.support for lv in levels(bf)[1:]])
        bf.cache["terrain_rules.level_tree"] = hit
    return hit


def levels_under(bf: Battlefield, x: float, y: float) -> list[Level]:
    """The ground and every raised level whose floor covers (x, y), lowest first."""
    lvs = levels(bf)
    out = [lvs[GROUND]]
    if len(lvs) > 1:
        pt = Point(x, y)
        for i in sorted(_level_tree(bf).query(pt, predicate="intersects")):
            out.append(lvs[int(i) + 1])
    return out


def level_at(bf: Battlefield, x: float, y: float, z: float) -> Level | None:
    """The level a base centre at (x, y) stands on at height z, or None if there is no floor there (GEO-7)."""
    if abs(z) <= Z_TOL:
        return levels(bf)[GROUND]
    for lv in levels_under(bf, x, y)[1:]:
        if abs(lv.z - z) <= Z_TOL:
            return lv
    return None


def _tree(polys: list[Polygon]) -> STRtree:
    return STRtree(polys)


def pieces_at(bf: Battlefield, z: float, height: float) -> PiecesAt:
    """The blocking, difficult, low and platform pieces for a base of `height` at `z` (cached per battlefield)."""
    key = ("terrain_rules.at", round(z, 4), round(height, 4))
    cached: PiecesAt | None = bf.cache.get(key)
    if cached is not None:
        return cached
    polys = _polys(bf)
    blk, dif, low, plat = [], [], [], []
    for i, p in enumerate(bf.pieces):
        if p.impassable_at(z, height):
            blk.append(i)
            continue
        on_level = p.bottom_z <= z + EPS and p.top_z >= z - EPS
        if not on_level:
            continue
        if p.movement is Movement.DIFFICULT:
            dif.append(i)
        elif p.platform and p.top_z - z <= LOW_OBSTACLE + EPS:
            plat.append(i)
        elif (z + EPS < p.top_z <= z + LOW_OBSTACLE + EPS and not p.surface and p.area is not Area.WOODS):
            low.append(i)
    dpolys = [polys[i] for i in dif]
    hit = PiecesAt(
        z=z,
        blockers=tuple(bf.pieces[i] for i in blk),
        blocker_polys=tuple(polys[i] for i in blk),
        blocker_tree=_tree([polys[i] for i in blk]),
        difficult=tuple(bf.pieces[i] for i in dif),
        difficult_polys=tuple(dpolys),
        difficult_union=shapely.union_all(dpolys) if dpolys else None,
        difficult_tree=_tree(dpolys),
        lows=tuple(bf.pieces[i] for i in low),
        low_polys=tuple(polys[i] for i in low),
        low_tree=_tree([polys[i] for i in low]),
        platforms=tuple(bf.pieces[i] for i in plat),
        platform_polys=tuple(polys[i] for i in plat),
    )
    bf.cache[key] = hit
    return hit


def blocking_piece_at(bf: Battlefield, x: float, y: float, z: float, radius: float,
                      height: float) -> TerrainPiece | None:
    """The first piece impassable at the model's level that a base at (x, y) would overlap (GEO-7)."""
    at = pieces_at(bf, z, height)
    pt = Point(x, y)
    for i in at.blocker_tree.query(pt, predicate="dwithin", distance=radius - EPS):
        return at.blockers[int(i)]
    return None


def stand_z(bf: Battlefield, x: float, y: float, z: float, radius: float, height: float) -> float:
    """The height a base ends at: a platform it overlaps lifts it to the platform's top (GEO-7), else z."""
    at = pieces_at(bf, z, height)
    pt = Point(x, y)
    top = z
    for p, poly in zip(at.platforms, at.platform_polys, strict=True):
        if poly.distance(pt) < radius - EPS:
            top = max(top, p.top_z)
    return top


def walking_level(bf: Battlefield, x: float, y: float, z: float) -> Level | None:
    """The level a base at height z walks on: its own floor, or the floor under the platform it stands on (GEO-7)."""
    exact = level_at(bf, x, y, z)
    if exact is not None:
        return exact
    best = None
    for lv in levels_under(bf, x, y):
        if lv.z - Z_TOL <= z <= lv.z + LOW_OBSTACLE + Z_TOL:
            if best is None or lv.z > best.z:
                best = lv
    return best
