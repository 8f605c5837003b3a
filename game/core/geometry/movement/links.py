"""Links visibility cannot see: stairs, ladders, climbs, up-and-over walls; difficult-ground nodes (GEO-24, GEO-27)."""
from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import shapely

from game.core.battlefield import Battlefield, Point3
from game.core.geometry.movement.cost import path_cost
from game.core.geometry.movement.positions import position_fact
from game.core.geometry.terrain import GROUND, Z_TOL, footprint, level_at, levels, pieces_at
from game.core.settings import Settings

DIFFICULT_STEP = 0.25  # spacing of the extra nodes on difficult-ground boundaries (GEO-27 weighted regions)
LINK_STEP = 1.0  # spacing of climb links along a climbable face
OVER_STEP = 2.0  # spacing of up-and-over links along a climbable wall
LINK_RANGE = 8.0  # climb-link nodes join the graph within this distance


@dataclass(frozen=True, slots=True)
class Link:
    """A straight link the graph cannot find by visibility: stairs, a ladder, a climb or an up-and-over."""

    a: Point3
    b: Point3
    cost: float
    reach: float  # the ends join graph nodes within this distance (inf: all)
    climb: bool = False  # a climb or an up-and-over (GEO-24): closed to models that may not climb


def _free(bf: Battlefield, p: Point3, radius: float, height: float) -> Point3 | None:
    """p if a base may stand there, else the nearest legal point within 1" (GEO-25 search), else None."""
    from game.core.geometry.movement.positions import nearest_legal

    fact = position_fact(bf, p[0], p[1], p[2], radius=radius, height=height)
    if fact.legal and level_at(bf, p[0], p[1], p[2]) is not None:
        return p
    near = nearest_legal(bf, p[0], p[1], p[2], radius=radius, height=height, max_distance=1.0)
    if near is None or level_at(bf, near.x, near.y, p[2]) is None:
        return None
    return (near.x, near.y, p[2])


def connector_links(bf: Battlefield, radius: float, height: float, s: Settings) -> list[Link]:
    """Stairs and ladders (CORE-3.3.CLIMB) whose ends a base can reach, at their path_cost."""
    out = []
    for c in bf.connectors:
        lo = _free(bf, c.start, radius, height)
        hi = _free(bf, c.end, radius, height)
        if lo is None or hi is None:
            continue
        v = path_cost(bf, lo, [hi], radius=radius, height=height, settings=s)
        if v.legal:
            out.append(Link(lo, hi, v.cost, math.inf))
    return out


def _edge_samples(ring: shapely.LinearRing, step: float) -> Iterator[tuple[tuple[float, float], tuple[float, float]]]:
    """(point, outward normal) samples along each edge of an interior-on-the-left ring."""
    pts = np.asarray(ring.coords)
    for (x0, y0), (x1, y1) in zip(pts[:-1], pts[1:], strict=True):
        length = math.hypot(x1 - x0, y1 - y0)
        if length < 0.5:
            continue
        n = max(1, int(length // step))
        nx, ny = (y1 - y0) / length, -(x1 - x0) / length
        for k in range(n):
            t = (k + 0.5) / n
            yield (x0 + t * (x1 - x0), y0 + t * (y1 - y0)), (nx, ny)


def climb_links(bf: Battlefield, radius: float, height: float, s: Settings) -> list[Link]:
    """Climbs onto climbable surfaces (GEO-24), sampled every LINK_STEP along their faces, both ways."""
    out = []
    for lv in levels(bf)[1:]:
        for p in bf.pieces:
            if not p.climbable or abs(p.top_z - lv.z) > Z_TOL or lv.support is None:
                continue
            poly = shapely.orient_polygons(footprint(p))
            if not poly.intersects(lv.support):
                continue
            below = levels(bf)[GROUND] if p.bottom_z <= Z_TOL else level_at(bf, *p.footprint[0], p.bottom_z)
            if below is None:
                continue
            for (qx, qy), (nx, ny) in _edge_samples(poly.exterior, LINK_STEP):
                a = (qx + nx * (radius + 0.02), qy + ny * (radius + 0.02), below.z)
                b = (qx - nx * 0.05, qy - ny * 0.05, lv.z)
                if not position_fact(bf, *a, radius=radius, height=height).legal:
                    continue
                v = path_cost(bf, a, [b], radius=radius, height=height, settings=s)
                if v.legal:
                    out.append(Link(a, b, v.cost, LINK_RANGE, True))
    return out


def over_links(bf: Battlefield, radius: float, height: float, s: Settings) -> list[Link]:
    """Up-and-over links across climbable walls (GEO-24), sampled along their faces."""
    out = []
    for lv in levels(bf):
        at = pieces_at(bf, lv.z, height)
        for p, poly in zip(at.blockers, at.blocker_polys, strict=True):
            if not p.climbable or p.surface or p.top_z - lv.z <= 1.0:
                continue
            if lv.support is not None and not poly.intersects(lv.support):
                continue
            ring = shapely.orient_polygons(poly).exterior
            span = math.hypot(poly.bounds[2] - poly.bounds[0], poly.bounds[3] - poly.bounds[1]) + 1.0
            for (qx, qy), (nx, ny) in _edge_samples(ring, OVER_STEP):
                ray = shapely.LineString([(qx + nx * 1e-3, qy + ny * 1e-3), (qx - nx * span, qy - ny * span)])
                inter = ray.intersection(poly)
                if inter.is_empty:
                    continue
                first = min(shapely.get_parts(inter), key=lambda g: g.distance(shapely.Point(qx, qy)))
                ex, ey = max(first.coords, key=lambda c: (c[0] - qx) * -nx + (c[1] - qy) * -ny)
                a = (qx + nx * (radius + 0.02), qy + ny * (radius + 0.02), lv.z)
                b = (ex - nx * (radius + 0.02), ey - ny * (radius + 0.02), lv.z)
                if not (position_fact(bf, *a, radius=radius, height=height).legal
                        and level_at(bf, a[0], a[1], lv.z) is not None):
                    continue
                v = path_cost(bf, a, [b], radius=radius, height=height, settings=s)
                if v.legal:
                    out.append(Link(a, b, v.cost, LINK_RANGE, True))
    return out


def difficult_samples(dif: shapely.Geometry) -> list[tuple[float, float]]:
    """Nodes on difficult-ground boundaries: every vertex and points every DIFFICULT_STEP (weighted regions)."""
    out: list[tuple[float, float]] = []
    for poly in shapely.get_parts(dif):
        if poly.geom_type != "Polygon":
            continue
        for ring in (poly.exterior, *poly.interiors):
            pts = np.asarray(ring.coords)
            for (x0, y0), (x1, y1) in zip(pts[:-1], pts[1:], strict=True):
                n = max(1, int(math.ceil(math.hypot(x1 - x0, y1 - y0) / DIFFICULT_STEP)))
                for k in range(n):
                    out.append((x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n))
    return out


