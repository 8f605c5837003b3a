"""Ground-level terrain checks for a base: impassable overlap and difficult-ground path cost (GEO-7, GEO-8)."""
from __future__ import annotations

from shapely import LineString, Point, Polygon, STRtree

from game.core.actions import IllegalAction
from game.core.battlefield import Battlefield, Movement, TerrainPiece
from game.core.settings import Settings

_CACHE_KEY = "terrain_rules.index"


def _index(bf: Battlefield) -> tuple[STRtree, list[Polygon]]:
    """Shapely footprints and an STRtree, built once per battlefield (kept in Battlefield.cache)."""
    hit = bf.cache.get(_CACHE_KEY)
    if hit is None:
        polys = [Polygon(p.footprint, p.holes) for p in bf.pieces]
        hit = (STRtree(polys), polys)
        bf.cache[_CACHE_KEY] = hit
    return hit


def _blocking(p: TerrainPiece, z: float, height: float) -> bool:
    return p.impassable_at(z, height)


def blocking_piece_at(bf: Battlefield, x: float, y: float, z: float, radius: float, height: float) -> TerrainPiece | None:
    """The first impassable piece (at the model's level) that a base at (x, y) would overlap (GEO-7)."""
    tree, polys = _index(bf)
    disc = Point(x, y).buffer(radius, quad_segs=16)
    for i in tree.query(disc):
        p = bf.pieces[int(i)]
        if _blocking(p, z, height) and polys[int(i)].intersection(disc).area > 1e-9:
            return p
    return None


def ground_path_cost(
    bf: Battlefield,
    pts: list[tuple[float, float]],
    z: float,
    radius: float,
    height: float,
    *,
    settings: Settings | None = None,
) -> float:
    """GEO-8 cost of a centre path at one level: 1 per inch, `move.difficult_mult` per inch inside difficult
    pieces; a base swept through impassable terrain at its level is refused, naming segment and piece."""
    s = settings or Settings.defaults()
    tree, polys = _index(bf)
    mult = float(s["move.difficult_mult"])
    total = 0.0
    for i, (p0, p1) in enumerate(zip(pts, pts[1:])):
        seg = LineString([p0, p1])
        length = seg.length
        if length == 0.0:
            continue
        swept = seg.buffer(radius, quad_segs=16)
        extra = 0.0
        for j in tree.query(swept):
            piece = bf.pieces[int(j)]
            poly = polys[int(j)]
            if _blocking(piece, z, height) and poly.intersection(swept).area > 1e-9:
                raise IllegalAction(
                    f"segment {i + 1} of the path ({p0[0]:g},{p0[1]:g})->({p1[0]:g},{p1[1]:g}) runs into impassable "
                    f"{piece.name or 'piece'} (id {piece.id})", "GEO-7")
            if piece.movement is Movement.DIFFICULT and piece.bottom_z <= z + 1e-9 < piece.top_z:
                extra += poly.intersection(seg).length
        total += length + (mult - 1.0) * extra
    return total
