"""Scenery helpers for the shipped tables: oriented pieces, ground materials, woods stands, vehicles, towers."""
from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from typing import Any

import shapely
from shapely.geometry import LineString, MultiPolygon, Polygon
from shapely.ops import split

from game.tools.tmxwriter import PRESETS, TmxMap

Pt = tuple[float, float]

# Ground materials are flat, open pieces (top_in = bottom_in = 0, kind other): no rules effect, they only tell
# the art which texture to lay (docs/tables.md). The material is the first word of the piece's name.
GROUND_MATERIALS = ("road", "trail", "gravel", "yard", "pavement")


def q(v: float) -> float:
    """A coordinate snapped to 1/32" so the files stay short and byte-stable."""
    return round(v * 32) / 32


def ring(points: Iterable[Pt]) -> list[Pt]:
    return [(q(x), q(y)) for x, y in points]


def oriented_rect(cx: float, cy: float, length: float, width: float, angle_deg: float) -> list[Pt]:
    """Corners of a length x width rectangle centred on (cx, cy), its long axis at angle_deg (GEO-1: +x toward +y)."""
    a = math.radians(angle_deg)
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -uy, ux
    hl, hw = length / 2, width / 2
    return ring([(cx + sx * hl * ux + sy * hw * vx, cy + sx * hl * uy + sy * hw * vy)
                 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def bar(p0: Pt, p1: Pt, width: float) -> list[Pt]:
    """A straight strip of the given width from p0 to p1 (a hedge, fence or wall section)."""
    cx, cy = (p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2
    length = math.hypot(p1[0] - p0[0], p1[1] - p0[1])
    return oriented_rect(cx, cy, length, width, math.degrees(math.atan2(p1[1] - p0[1], p1[0] - p0[0])))


def ellipse_pts(cx: float, cy: float, rx: float, ry: float, n: int = 12, *, rng: random.Random | None = None,
                wobble: float = 0.0) -> list[Pt]:
    """An n-gon on an ellipse, optionally with a seeded wobble of the radius (organic shapes)."""
    out = []
    for i in range(n):
        t = 2 * math.pi * i / n
        k = 1.0 + (rng.uniform(-wobble, wobble) if rng else 0.0)
        out.append((cx + rx * k * math.cos(t), cy + ry * k * math.sin(t)))
    return ring(out)


def piece(m: TmxMap, layer: str, preset: str | None, name: str, pts: Sequence[Pt], *, top: float,
          bottom: float = 0.0, **props: Any) -> int:
    """A polygonal Terrain piece with a preset's properties (or none)."""
    merged = {**(PRESETS[preset] if preset else {}), "bottom_in": bottom, "top_in": top, **props}
    return m.polygon(layer, "Terrain", name, list(pts), **merged)


def ground(m: TmxMap, name: str, pts: Sequence[Pt]) -> int:
    """A flat ground material (road, trail, gravel, yard, pavement): open, no cover, no height."""
    if name.split("-")[0] not in GROUND_MATERIALS:
        raise ValueError(f"ground piece {name!r} must start with one of {GROUND_MATERIALS}")
    return piece(m, "ground", None, name, pts, top=0.0)


def poly_rings(geom: Any) -> list[list[Pt]]:
    """Exterior rings (without the closing point) of every polygon in a shapely geometry."""
    polys = list(geom.geoms) if isinstance(geom, MultiPolygon) else [geom] if isinstance(geom, Polygon) else [
        g for g in getattr(geom, "geoms", []) if isinstance(g, Polygon)]
    return [ring(list(p.exterior.coords)[:-1]) for p in polys if not p.is_empty]


def without_holes(geom: Any, *, min_area: float) -> list[Polygon]:
    """Split polygons at their holes (Tiled polygons have none) and drop slivers smaller than min_area."""
    todo = [g for g in (geom.geoms if hasattr(geom, "geoms") else [geom]) if isinstance(g, Polygon)]
    out: list[Polygon] = []
    while todo:
        p = todo.pop()
        if p.area < min_area:
            continue
        if not p.interiors:
            out.append(p)
            continue
        hx = p.interiors[0].centroid.x
        parts = split(p, LineString([(hx, p.bounds[1] - 1), (hx, p.bounds[3] + 1)]))
        todo.extend(g for g in parts.geoms if isinstance(g, Polygon))
    return sorted(out, key=lambda g: (round(g.centroid.y, 3), round(g.centroid.x, 3)))


def clean_polygon(p: Polygon, *, tolerance: float = 0.12) -> Polygon | None:
    """Simplified, snapped to 1/32", valid; None when it degenerates."""
    g = shapely.set_precision(p.simplify(tolerance), 1 / 32)
    if g.is_empty or not isinstance(g, Polygon) or not g.is_valid or g.area < 0.5:
        return None
    return g


def woods(m: TmxMap, name: str, pts: Sequence[Pt]) -> int:
    """A stand of trees: area terrain, 4" canopy, soft cover, open movement (GEO-10.WOODS)."""
    return piece(m, "ground", "woods", name, pts, top=4.0)


def btr(m: TmxMap, name: str, cx: float, cy: float, angle_deg: float, *, layer: str = "scenery") -> list[Pt]:
    """A disabled eight-wheeled APC hull, 5.5" x 2.25", 2" tall: hard cover, impassable, climbable (GEO-12)."""
    a = math.radians(angle_deg)
    ux, uy, vx, vy = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
    local = [(-2.75, -0.95), (-2.45, -1.125), (1.9, -1.125), (2.75, -0.55), (2.75, 0.55), (1.9, 1.125),
             (-2.45, 1.125), (-2.75, 0.95)]
    pts = ring([(cx + x * ux + y * vx, cy + x * uy + y * vy) for x, y in local])
    piece(m, layer, "vehicle", name, pts, top=2.0)
    return pts


def water_tower(m: TmxMap, name: str, cx: float, cy: float, *, layer: str = "scenery") -> None:
    """Four steel legs (impassable 0-5") under a tank (5-8", its top a surface) with a ladder up one leg.

    Bases walk between the legs and under the tank (its bottom is above every model, GEO-7)."""
    for i, (sx, sy) in enumerate(((-1, -1), (1, -1), (1, 1), (-1, 1))):
        lx, ly = cx + sx * 1.6, cy + sy * 1.6
        piece(m, layer, "wall", f"{name}-leg{i + 1}", ring([(lx - 0.2, ly - 0.2), (lx + 0.2, ly - 0.2),
                                                           (lx + 0.2, ly + 0.2), (lx - 0.2, ly + 0.2)]),
              top=5.0, kind="other", building=name)
    tank = ellipse_pts(cx, cy, 2.0, 2.0, 16)
    piece(m, layer, "wall", f"{name}-tank", tank, bottom=5.0, top=8.0, kind="container", surface=True,
          building=name)
    m.polyline(layer, "Ladder", f"{name}-ladder", [(q(cx + 2.6), q(cy)), (q(cx + 1.6), q(cy))], from_in=0.0,
               to_in=8.0, building=name)


def crate_stack(m: TmxMap, name: str, cx: float, cy: float, angle: float, *, layer: str = "scenery") -> None:
    """Wooden crates: 1" high soft cover that blocks LOS below 1" (CORE-3.6.SOFT)."""
    piece(m, layer, None, name, oriented_rect(cx, cy, 2.0, 1.0, angle), top=1.0, kind="container",
          cover="soft", blocks_los=True)


def barrels(m: TmxMap, name: str, cx: float, cy: float, *, layer: str = "scenery") -> None:
    """A cluster of oil drums: 1.25" high hard cover, impassable (GEO-12 hard)."""
    piece(m, layer, None, name, ellipse_pts(cx, cy, 0.8, 0.6, 10), top=1.25, kind="container", cover="hard",
          blocks_los=True, movement="impassable")


def car_wreck(m: TmxMap, name: str, cx: float, cy: float, angle: float, *, layer: str = "scenery") -> None:
    """A burnt-out car, 3.5" x 1.5", 1.5" tall: hard cover, impassable, climbable."""
    piece(m, layer, "vehicle", name, oriented_rect(cx, cy, 3.5, 1.5, angle), top=1.5)


def rubble(m: TmxMap, name: str, cx: float, cy: float, rx: float, ry: float, rng: random.Random, *,
           layer: str = "scenery") -> None:
    """A heap of rubble: obstruction, difficult ground, 0.75" high (GEO-8, GEO-13)."""
    piece(m, layer, "rubble", name, ellipse_pts(cx, cy, rx, ry, 10, rng=rng, wobble=0.2), top=0.75)
