"""Tile art for `zona-alfa render-map --art`: terrain textured by class from sprites/, over the geometry drawing."""
from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from game.core.battlefield import Area, Battlefield, Cover, Movement, TerrainPiece
from game.render.painter import Painter
from game.render.plan import PlanLayer, plan_order
from game.render.style import Colour, darker, piece_fill, shade

if TYPE_CHECKING:
    import pygame

SPRITES_DIR = Path(__file__).resolve().parents[2] / "sprites"
TILE_IN = 2.0  # a terrain tile covers 2" x 2" (game/tools/make_sprites.py)
GROUND_TEXTURES = {"road": "asphalt", "trail": "trail", "gravel": "gravel", "yard": "yard", "pavement": "pavement"}
TREES = ("tree-pine", "tree-birch", "tree-pine-2", "tree-birch-2", "tree-pine", "tree-dead")


class Art:
    """Loaded sprites, scaled once per table scale."""

    def __init__(self, root: Path, ppi: float) -> None:
        import pygame

        self.pg = pygame
        self.root = Path(root)
        self.ppi = ppi
        self._cache: dict[tuple[str, int, int], pygame.Surface | None] = {}
        if not (self.root / "terrain" / "grass.png").exists():
            raise FileNotFoundError(f"{self.root}: no sprites/terrain/grass.png; "
                                    "run `python -m game.tools.make_sprites`")

    def image(self, rel: str, w: int, h: int) -> pygame.Surface | None:
        """sprites/<rel>.png scaled to w x h pixels (cached); None when the file is missing or unreadable, so the
        piece is drawn from its geometry instead."""
        key = (rel, w, h)
        if key not in self._cache:
            try:
                img = self.pg.image.load(str(self.root / f"{rel}.png"))
                self._cache[key] = self.pg.transform.smoothscale(img, (max(1, w), max(1, h)))
            except (self.pg.error, OSError, ValueError):
                self._cache[key] = None
        return self._cache[key]

    def tile(self, name: str) -> pygame.Surface | None:
        """The terrain tile `name`, one tile covering TILE_IN x TILE_IN inches (None when missing)."""
        side = max(2, round(TILE_IN * self.ppi))
        return self.image(f"terrain/{name}", side, side)


def texture_for(p: TerrainPiece) -> str | None:
    """The terrain tile a piece is painted with, by kind, cover and name (docs/tables.md).

    None: the piece is drawn with a sprite or as an outline.
    """
    word = p.name.split("-")[0]
    if p.top_z <= 0 and p.bottom_z <= 0 and word in GROUND_TEXTURES:
        return GROUND_TEXTURES[word]
    by_kind = {"woods": "forest-floor", "hedge": "hedge", "fence": "fence", "rubble": "rubble", "water": "water",
               "floor": "floor-planks", "rocks": "stone", "tree": "log", "platform": "floor-planks",
               "sill": "wall-concrete"}
    if p.kind == "wall":
        return "wall-brick" if zlib.crc32(p.building.encode()) % 3 == 0 else "wall-concrete"
    if p.kind == "roof":
        return "roof-tin" if zlib.crc32(p.building.encode()) % 2 == 0 else "roof-slate"
    if p.kind == "barricade":
        return "sandbags" if p.cover is Cover.HARDENED else "junk" if p.cover is Cover.SOFT else "stone"
    if p.kind == "container":
        return "steel" if p.surface or p.movement is Movement.IMPASSABLE else "fence"
    if p.kind == "vehicle":
        return "steel"
    if p.kind == "other" and "tent" in p.name:
        return "canvas"
    if p.kind == "other" and p.movement is Movement.IMPASSABLE:
        return "steel"
    return by_kind.get(p.kind, "mud" if p.movement is Movement.DIFFICULT else None)


def sprite_for(p: TerrainPiece) -> str | None:
    """Pieces drawn with an object sprite fitted to their footprint."""
    if p.kind == "vehicle":
        return "objects/btr" if "btr" in p.name else "objects/car-wreck"
    if "tank" in p.name and p.surface:
        return "objects/water-tower"
    if p.kind == "container" and "drum" in p.name:
        return "objects/drums"
    if p.kind == "container" and "crate" in p.name:
        return "objects/crates"
    if "fire" in p.name:
        return "objects/campfire"
    return None


def _masked(pt: Painter, art: Art, pts: list[tuple[float, float]], tex: str, alpha: int, light: float,
            fallback: Colour | None = None) -> None:
    """Fill a polygon with a tiled texture aligned to the table, lightened by height."""
    pg = pt.pg
    xs, ys = [q[0] for q in pts], [q[1] for q in pts]
    x0, y0 = int(math.floor(min(xs))), int(math.floor(min(ys)))
    w, h = int(math.ceil(max(xs))) - x0 + 1, int(math.ceil(max(ys))) - y0 + 1
    if w <= 0 or h <= 0:
        return
    tile = art.tile(tex)
    if tile is None:  # a missing texture: the geometry drawing's fill, or nothing for a blend
        if fallback is not None:
            pg.draw.polygon(pt.surface, fallback, pts)
        return
    tw, th = tile.get_size()
    ox, oy = pt.to_px((0.0, 0.0))
    patch = pg.Surface((w, h), pg.SRCALPHA)
    sx, sy = -((x0 - round(ox)) % tw), -((y0 - round(oy)) % th)
    for ty in range(sy, h, th):
        for tx in range(sx, w, tw):
            patch.blit(tile, (tx, ty))
    if light > 0:
        k = int(255 * light)
        patch.fill((k, k, k, 0), special_flags=pg.BLEND_RGBA_ADD)
    mask = pg.Surface((w, h), pg.SRCALPHA)
    pg.draw.polygon(mask, (255, 255, 255, alpha), [(x - x0, y - y0) for x, y in pts])
    patch.blit(mask, (0, 0), special_flags=pg.BLEND_RGBA_MIN)
    pt.surface.blit(patch, (x0, y0))


def _fitted(pt: Painter, art: Art, p: TerrainPiece, poly: Any, rel: str) -> None:
    """An object sprite stretched over the piece's minimum rotated rectangle, long side along the sprite's x."""
    rect = shapely.minimum_rotated_rectangle(poly)
    c = np.asarray(rect.exterior.coords)[:4]
    e1, e2 = c[1] - c[0], c[2] - c[1]
    long_, short = (e1, e2) if np.hypot(*e1) >= np.hypot(*e2) else (e2, e1)
    length, width = float(np.hypot(*long_)), float(np.hypot(*short))
    angle = math.degrees(math.atan2(long_[1], long_[0]))
    if "btr" in rel:  # the hull polygon's nose points along +x of its own frame; keep the sprite nose the same way
        pts = np.asarray(p.footprint)
        centre = pts.mean(axis=0)
        axis = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
        proj = (pts - centre) @ axis
        if abs(proj.max()) < abs(proj.min()):
            angle += 180.0
    img = art.image(rel, round(length * art.ppi), round(width * art.ppi))
    if img is None:  # a missing sprite: the piece's geometry fill
        pt.pg.draw.polygon(pt.surface, shade(piece_fill(p, pt.pal), p.top_z), pt.poly_px(p.footprint))
        return
    rot = pt.pg.transform.rotozoom(img, -angle, 1.0)
    cx, cy = pt.to_px((poly.centroid.x, poly.centroid.y))
    pt.surface.blit(rot, rot.get_rect(center=(round(cx), round(cy))))


def _trees(pt: Painter, art: Art, p: TerrainPiece, poly: Any) -> None:
    """Tree crowns on a jittered 1.5" grid inside a woods footprint, each with a soft shadow."""
    rng = np.random.default_rng(p.id * 7919 + 17)
    minx, miny, maxx, maxy = poly.bounds
    gx, gy = np.meshgrid(np.arange(minx + 0.75, maxx, 1.5), np.arange(miny + 0.75, maxy, 1.5))
    xs = gx.ravel() + rng.uniform(-0.4, 0.4, gx.size)
    ys = gy.ravel() + rng.uniform(-0.4, 0.4, gy.size)
    inside = shapely.contains_xy(poly.buffer(-0.3), xs, ys)
    kinds = rng.integers(0, len(TREES), gx.size)
    sizes = rng.uniform(1.5, 2.1, gx.size)
    for x, y, k, s in zip(xs[inside], ys[inside], kinds[inside], sizes[inside], strict=False):
        d = round(s * art.ppi)
        cx, cy = pt.to_px((x, y))
        shadow = pt.pg.Surface((d, d), pt.pg.SRCALPHA)
        pt.pg.draw.circle(shadow, (0, 0, 0, 60), (d / 2, d / 2), d * 0.45)
        pt.surface.blit(shadow, (round(cx - d / 2 + art.ppi * 0.25), round(cy - d / 2 + art.ppi * 0.25)))
        img = art.image(f"objects/{TREES[int(k)]}", d, d)
        if img is None:
            pt.pg.draw.circle(pt.surface, darker(pt.pal.moss, 0.25), (cx, cy), d * 0.4)
        else:
            pt.surface.blit(img, (round(cx - d / 2), round(cy - d / 2)))


def draw_ground(pt: Painter, art: Art) -> None:
    """The table mat: grass and mud mixed at a large scale, and a faint 6" grid for measuring by eye."""
    bf: Battlefield = pt.bf
    corners = [(0.0, 0.0), (bf.width, 0.0), (bf.width, bf.height), (0.0, bf.height)]
    table = [pt.to_px(c) for c in corners]
    _masked(pt, art, table, "grass", 255, 0.0, pt.pal.mat)
    rng = np.random.default_rng(int(bf.width * 1000 + bf.height))
    for _ in range(int(bf.width * bf.height / 120)):
        cx, cy = rng.uniform(0, bf.width), rng.uniform(0, bf.height)
        rx, ry = rng.uniform(1.0, 3.0), rng.uniform(0.8, 2.0)
        angles = np.linspace(0, 2 * math.pi, 14)[:-1]
        ring = shapely.Polygon([(cx + rx * math.cos(t), cy + ry * math.sin(t)) for t in angles])
        blob = ring.intersection(shapely.box(0, 0, bf.width, bf.height))
        if blob.geom_type == "Polygon" and not blob.is_empty:
            _masked(pt, art, pt.poly_px(list(blob.exterior.coords)[:-1]), "mud", 110, 0.0)
    for i in range(6, int(bf.width), 6):
        pt.pg.draw.line(pt.surface, darker(pt.pal.grid_major, 0.1), pt.to_px((i, 0)), pt.to_px((i, bf.height)), 1)
    for j in range(6, int(bf.height), 6):
        pt.pg.draw.line(pt.surface, darker(pt.pal.grid_major, 0.1), pt.to_px((0, j)), pt.to_px((bf.width, j)), 1)


def _building_floors(pt: Painter, art: Art, polys: Sequence[Any]) -> None:
    """Every building's ground floor: concrete over its footprint, under its walls."""
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(pt.bf.pieces):
        if p.building and p.kind in ("wall", "sill", "lintel", "floor", "roof"):
            groups.setdefault(p.building, []).append(i)
    for idx in groups.values():
        hull = shapely.union_all([polys[i] for i in idx]).envelope
        _masked(pt, art, pt.poly_px(list(hull.exterior.coords)[:-1]), "floor-concrete", 255, 0.0, pt.pal.floor)


def draw_pieces(pt: Painter, polys: Sequence[Any], art: Art) -> None:
    """Pieces in the geometry drawing's order (game.render.plan.plan_order), textured; outlines and shadows kept."""
    pg, bf = pt.pg, pt.bf
    _building_floors(pt, art, polys)
    for i, layer in plan_order(bf):
        p, poly = bf.pieces[i], polys[i]
        pts = pt.poly_px(p.footprint)
        fill = shade(piece_fill(p, pt.pal), p.top_z)
        if layer is PlanLayer.UPPER_WALL:
            pg.draw.polygon(pt.surface, darker(fill, 0.2), pts, 1)
            continue
        if p.kind == "lintel":
            pg.draw.polygon(pt.surface, darker(fill, 0.25), pts, 1)
            continue
        shadow = min(0.35, 0.06 * p.top_z) * pt.ppi
        if p.top_z > p.bottom_z and shadow >= 1 and p.area is not Area.WOODS:
            pt.translucent_polygon(pt.poly_px(p.footprint, shadow, shadow), (0, 0, 0, 80))
        sprite, tex = sprite_for(p), texture_for(p)
        light = min(0.22, max(0.0, p.top_z) * 0.035)
        if sprite:
            _fitted(pt, art, p, poly, sprite)
        elif tex:
            alpha = 225 if p.kind == "roof" else 255
            _masked(pt, art, pts, tex, alpha, light, fill)
        else:
            pg.draw.polygon(pt.surface, fill, pts)
        if p.area is Area.WOODS:
            _trees(pt, art, p, poly)
            pg.draw.polygon(pt.surface, darker(pt.pal.moss, 0.35), pts, 2)
        elif p.top_z > 0 and not sprite:
            pg.draw.polygon(pt.surface, darker(fill, 0.5), pts, 2 if p.movement is Movement.IMPASSABLE else 1)
