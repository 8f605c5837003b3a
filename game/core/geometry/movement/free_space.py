"""Free space of one level for one base size: where its centre may stand and go, at what cost (GEO-7, GEO-8, GEO-27)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import ArrayLike

from game.core.battlefield import Battlefield
from game.core.geometry.arrays import Bools, Floats, Ints
from game.core.geometry.terrain import Level, pieces_at
from game.core.tolerance import EPS

TAU = 2.0 * math.pi
ARC_STEP = math.pi / 16  # arcs are written as circumscribed polylines with this step (+0.0025" per right angle)
MASK_CELL = 0.1  # prefilter raster (inches)
MASK_SAMPLE = 0.4  # prefilter samples along a segment (the core of a 0.25" wall is 1.1" thick)
MASK_MIN_CORNERS = 40  # levels with fewer corners skip the raster


@dataclass(slots=True)
class LevelNav:
    """The free space of one level for one base size: where the base centre may go (GEO-7, GEO-27)."""

    level: Level
    z: float
    radius: float
    box: tuple[float, float, float, float]  # centre bounds on the table
    support: shapely.Polygon | None  # prepared; None on the ground
    blockers: shapely.STRtree  # over the union parts of impassable pieces at z
    blocker_parts: tuple[shapely.Polygon, ...]
    difficult: shapely.Geometry | None  # union of difficult ground at z, prepared
    difficult_tree: shapely.STRtree | None
    mult: float
    mask: Bools | None = None  # cells surely blocked (prefilter only; the exact test decides)
    mask_origin: tuple[float, float] = (0.0, 0.0)

    def surely_blocked(self, x0: Floats, y0: Floats, x1: Floats, y1: Floats) -> Bools:
        """Segments with a sample point in a cell whose every point is closer than r to a blocker."""
        out = np.zeros(len(x0), bool)
        if self.mask is None or len(x0) == 0:
            return out
        ox, oy = self.mask_origin
        h, w = self.mask.shape
        length = np.hypot(x1 - x0, y1 - y0)
        for lo in range(0, len(x0), 4096):
            sl = slice(lo, lo + 4096)
            n = np.maximum(2, np.ceil(length[sl] / MASK_SAMPLE).astype(np.int64) + 1)
            seg = np.repeat(np.arange(len(n)), n)
            t = (np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)) / np.repeat(n - 1, n)
            px = x0[sl][seg] + t * (x1[sl] - x0[sl])[seg]
            py = y0[sl][seg] + t * (y1[sl] - y0[sl])[seg]
            fx = np.floor((px - ox) / MASK_CELL).astype(np.int64)
            fy = np.floor((py - oy) / MASK_CELL).astype(np.int64)
            inside = (fx >= 0) & (fx < w) & (fy >= 0) & (fy < h)
            hit = self.mask[np.clip(fy, 0, h - 1), np.clip(fx, 0, w - 1)] & inside
            out[sl] = np.bincount(seg, weights=hit, minlength=len(n)) > 0
        return out

    def valid(self, x0: Floats, y0: Floats, x1: Floats, y1: Floats) -> Bools:
        """Segments the base centre may follow: on the table, over the floor, clear of impassable pieces by r."""
        xa, ya, xb, yb = self.box
        ok = ((np.minimum(x0, x1) >= xa - EPS) & (np.maximum(x0, x1) <= xb + EPS)
              & (np.minimum(y0, y1) >= ya - EPS) & (np.maximum(y0, y1) <= yb + EPS))
        if self.mask is not None:
            idx = np.nonzero(ok)[0]
            ok[idx[self.surely_blocked(x0[idx], y0[idx], x1[idx], y1[idx])]] = False
        idx = np.nonzero(ok)[0]
        if len(idx) == 0:
            return ok
        lines = _lines(x0[idx], y0[idx], x1[idx], y1[idx])
        if self.support is not None:
            inside = shapely.covers(self.support, lines)
            ok[idx[~inside]] = False
        if len(self.blocker_parts):
            hit = self.blockers.query(lines, predicate="dwithin", distance=self.radius - EPS)
            if hit.shape[1]:
                ok[idx[np.unique(hit[0])]] = False
        return ok

    def valid_arcs(self, x0: Floats, y0: Floats, x1: Floats, y1: Floats, cx: Floats, cy: Floats, r: Floats,
                   a0: Floats, delta: Floats) -> Bools:
        """Arcs whose circumscribed polyline (as `arc_vertices` writes it) the base centre may follow: the same
        table, floor and `r - EPS` clearance test as `valid`, on every piece of the polyline (GEO-7, GEO-27)."""
        n = len(x0)
        if n == 0:
            return np.zeros(0, bool)
        arc, vx, vy = arc_vertices(cx, cy, r, a0, delta)
        counts = np.bincount(arc, minlength=n) + 2
        first = np.cumsum(counts) - counts
        X, Y = np.empty(counts.sum()), np.empty(counts.sum())
        X[first], Y[first] = x0, y0
        X[first + counts - 1], Y[first + counts - 1] = x1, y1
        inner = np.ones(len(X), bool)
        inner[first] = inner[first + counts - 1] = False
        X[inner], Y[inner] = vx, vy  # arc_vertices lists each arc's vertices in order, arcs in order
        xa, ya, xb, yb = self.box
        ok = ((np.minimum.reduceat(X, first) >= xa - EPS) & (np.maximum.reduceat(X, first) <= xb + EPS)
              & (np.minimum.reduceat(Y, first) >= ya - EPS) & (np.maximum.reduceat(Y, first) <= yb + EPS))
        lines = shapely.linestrings(X, Y, indices=np.repeat(np.arange(n), counts))
        if self.support is not None:
            ok &= shapely.covers(self.support, lines)
        if len(self.blocker_parts):
            hit = self.blockers.query(lines, predicate="dwithin", distance=self.radius - EPS)
            if hit.shape[1]:
                ok[np.unique(hit[0])] = False
        return ok

    def costs(self, x0: Floats, y0: Floats, x1: Floats, y1: Floats) -> Floats:
        """GEO-8 cost of straight segments: length plus (`move.difficult_mult` - 1) x the length in difficult ground."""
        length = np.hypot(x1 - x0, y1 - y0)
        if self.difficult is None or self.difficult_tree is None or len(length) == 0:
            return length
        lines = _lines(x0, y0, x1, y1)
        hit = self.difficult_tree.query(lines)
        if hit.shape[1] == 0:
            return length
        idx = np.unique(hit[0])
        inside = shapely.length(shapely.intersection(lines[idx], self.difficult))
        out = length.copy()
        out[idx] += (self.mult - 1.0) * inside
        return out


def _lines(x0: Floats, y0: Floats, x1: Floats, y1: Floats) -> np.ndarray:
    """One shapely LineString per segment (an object array)."""
    coords = np.stack([np.stack([x0, y0], axis=-1), np.stack([x1, y1], axis=-1)], axis=1)
    lines: np.ndarray = shapely.linestrings(coords)
    return lines


def level_nav(bf: Battlefield, lv: Level, radius: float, height: float, mult: float) -> LevelNav:
    """The free space of level `lv` for a base of this radius and height, difficult ground costing `mult` (GEO-7)."""
    at = pieces_at(bf, lv.z, height)
    box = (radius, radius, bf.width - radius, bf.height - radius)
    polys = list(at.blocker_polys)
    if lv.support is not None:
        near = lv.support.buffer(radius + 0.01)
        polys = [p for p in polys if p.intersects(near)]
    parts = tuple(g for g in shapely.get_parts(shapely.union_all(polys))) if polys else ()
    parts = tuple(g for g in parts if g.geom_type == "Polygon" and not g.is_empty)
    support = None
    if lv.support is not None:
        support = lv.support
        shapely.prepare(support)
    dif = at.difficult_union
    if dif is not None and lv.support is not None:
        dif = shapely.intersection(dif, lv.support)
        if dif.is_empty:
            dif = None
    dtree = shapely.STRtree(list(shapely.get_parts(dif))) if dif is not None else None
    if dif is not None:
        shapely.prepare(dif)
    nav = LevelNav(lv, lv.z, radius, box, support, shapely.STRtree(list(parts)), parts, dif, dtree, mult)
    if len(parts) and sum(len(shapely.get_coordinates(p)) for p in parts) >= MASK_MIN_CORNERS:
        _raster(nav, shapely.union_all(list(parts)))
    return nav


def _raster(nav: LevelNav, blockers: shapely.Geometry) -> None:
    """Mark cells whose centre lies deeper than half a cell diagonal inside the inflated blockers: every point of
    such a cell is closer than r to a blocker, so a segment through it is illegal (a sound prefilter)."""
    core = blockers.buffer(nav.radius - MASK_CELL * 0.75, quad_segs=4)
    minx, miny, maxx, maxy = core.bounds
    shapely.prepare(core)
    xs = np.arange(math.floor(minx / MASK_CELL), math.ceil(maxx / MASK_CELL) + 1) * MASK_CELL
    ys = np.arange(math.floor(miny / MASK_CELL), math.ceil(maxy / MASK_CELL) + 1) * MASK_CELL
    X, Y = np.meshgrid(xs + MASK_CELL / 2, ys + MASK_CELL / 2)
    nav.mask = shapely.contains_xy(core, X.ravel(), Y.ravel()).reshape(X.shape)
    nav.mask_origin = (float(xs[0]), float(ys[0]))


def free_points(nav: LevelNav, x: Floats, y: Floats) -> Bools:
    """Points where the base centre may stand on this level (GEO-7)."""
    xa, ya, xb, yb = nav.box
    ok = (x >= xa - EPS) & (x <= xb + EPS) & (y >= ya - EPS) & (y <= yb + EPS)
    pts = shapely.points(np.stack([x, y], axis=-1))
    if nav.support is not None:
        ok &= shapely.covers(nav.support, pts)
    if len(nav.blocker_parts):
        hit = nav.blockers.query(pts, predicate="dwithin", distance=nav.radius - EPS)
        if hit.shape[1]:
            ok[np.unique(hit[0])] = False
    return ok


def arc_vertices(cx: ArrayLike, cy: ArrayLike, r: ArrayLike, a0: ArrayLike,
                 delta: ArrayLike) -> tuple[Ints, Floats, Floats]:
    """The inner vertices of arcs written as polylines circumscribing their circle (GEO-27): an arc of signed
    angle `delta` from angle `a0` round (cx, cy) gets ceil(|delta| / ARC_STEP) equal steps, a vertex at the
    middle of each at r / cos(step / 2), so every piece is tangent to the circle. Returns (arc index, x, y)
    per vertex, arcs in order; the one formula for the graph's legality test and the written path."""
    x, y, rad, start, turn = (np.atleast_1d(np.asarray(v, float)) for v in (cx, cy, r, a0, delta))
    rad = np.broadcast_to(rad, turn.shape)
    n = np.ceil(np.abs(turn) / ARC_STEP).astype(np.int64)
    step = turn / np.maximum(n, 1)
    arc = np.repeat(np.arange(len(n)), n)
    j = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
    ang = start[arc] + (j + 0.5) * step[arc]
    rr = rad[arc] / np.cos(step[arc] / 2)
    return arc, x[arc] + rr * np.cos(ang), y[arc] + rr * np.sin(ang)
