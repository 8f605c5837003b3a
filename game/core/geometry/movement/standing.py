"""Where a base may stand, for many points at once (GEO-6, GEO-7, GEO-26): the floor under each (`floors`) and
`position_fact`'s verdict (`legal_positions`), each tree queried once for all the points."""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely

from game.core.battlefield import Base, Battlefield, Point3
from game.core.geometry.movement.positions import vertically_overlap
from game.core.geometry.terrain import GROUND, LOW_OBSTACLE, Z_TOL, Level, levels, pieces_at
from game.core.tolerance import EPS

FLOOR_TREE = "movement.standing.floors"  # Battlefield.cache: the raised levels' floors as one tree


def floors(bf: Battlefield, points: Sequence[Point3]) -> tuple[list[Level | None], list[Level | None]]:
    """For every point, `terrain.level_at` (the floor at its very height) and `terrain.walking_level` (that floor,
    or the one under the platform it stands on), the raised floors under all the points found by one query."""
    lvs = levels(bf)
    n = len(points)
    under: list[list[Level]] = [[lvs[GROUND]] for _ in range(n)]
    high = [i for i, p in enumerate(points) if abs(float(p[2])) > Z_TOL]
    if high and len(lvs) > 1:
        tree: shapely.STRtree | None = bf.cache.get(FLOOR_TREE)
        if tree is None:
            tree = shapely.STRtree([lv.support for lv in lvs[1:]])
            bf.cache[FLOOR_TREE] = tree
        pts = shapely.points(np.asarray([(float(points[i][0]), float(points[i][1])) for i in high]))
        hit = tree.query(pts, predicate="intersects")
        for j, k in sorted(zip(hit[0].tolist(), hit[1].tolist(), strict=True)):
            under[high[j]].append(lvs[k + 1])
    exact: list[Level | None] = []
    walk: list[Level | None] = []
    for i, p in enumerate(points):
        z = float(p[2])
        if abs(z) <= Z_TOL:
            exact.append(lvs[GROUND])
            walk.append(lvs[GROUND])
            continue
        at = next((lv for lv in under[i][1:] if abs(lv.z - z) <= Z_TOL), None)
        exact.append(at)
        if at is None:
            for lv in under[i]:
                if lv.z - Z_TOL <= z <= lv.z + LOW_OBSTACLE + Z_TOL and (at is None or lv.z > at.z):
                    at = lv
        walk.append(at)
    return exact, walk


def legal_positions(bf: Battlefield, points: Sequence[Point3], *, radius: float, height: float,
                    others: Sequence[Base] = (), mover: str = "",
                    walking: Sequence[Level | None] | None = None) -> list[bool]:
    """`position_fact(...).legal` for every point (GEO-7/GEO-26/GEO-6): on the table, on a floor, overlapping no
    other base (`mover` left out), no impassable piece at its level and no low obstacle, by the same tests (the
    bases near a point measured as `position_fact` measures them). `walking`: the points' `floors` (walking
    levels), if already known."""
    n = len(points)
    if not n:
        return []
    xyz = np.asarray([(float(p[0]), float(p[1]), float(p[2])) for p in points]).reshape(-1, 3)
    x, y, z = xyz[:, 0], xyz[:, 1], xyz[:, 2]
    ok = np.isfinite(xyz).all(axis=1)
    ok &= (x - radius >= -EPS) & (y - radius >= -EPS) & (x + radius <= bf.width + EPS) \
        & (y + radius <= bf.height + EPS)
    for o in others:
        if o.id == mover:
            continue
        near = np.nonzero(ok & (np.abs(x - o.x) < radius + o.radius + 1e-3)
                          & (np.abs(y - o.y) < radius + o.radius + 1e-3))[0]
        for i in near.tolist():
            xi, yi, zi = float(x[i]), float(y[i]), float(z[i])
            if vertically_overlap(zi, height, o.z, o.height) and \
                    math.hypot(o.x - xi, o.y - yi) < radius + o.radius - EPS:
                ok[i] = False
    if not bf.pieces:
        return [bool(v) for v in ok]
    by_level: dict[float, list[int]] = {}
    live = np.nonzero(ok)[0].tolist()
    walk = walking if walking is not None else floors(bf, points)[1]
    for i in live:
        lv = walk[i]
        if lv is None:
            ok[i] = False
        else:
            by_level.setdefault(lv.z, []).append(i)
    for lz, idx in by_level.items():
        at = pieces_at(bf, lz, height)
        pts = shapely.points(x[idx], y[idx])
        for tree in (at.blocker_tree, at.low_tree):
            hit = tree.query(pts, predicate="dwithin", distance=radius - EPS)
            if hit.shape[1]:
                ok[np.asarray(idx)[np.unique(hit[0])]] = False
    return [bool(v) for v in ok]
