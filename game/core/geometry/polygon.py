"""Small exact polygon helpers in inches for rules checks (deployment zones, task contact)."""
from __future__ import annotations

import math

from game.core.battlefield import Point2
from game.core.geometry.distance import segment_point_distance
from game.core.tolerance import EPS


def point_in_polygon(p: Point2, poly: tuple[Point2, ...]) -> bool:
    """Even-odd test; points on the boundary count as inside.

    >>> point_in_polygon((1, 1), ((0, 0), (2, 0), (2, 2), (0, 2)))
    True
    >>> point_in_polygon((3, 1), ((0, 0), (2, 0), (2, 2), (0, 2)))
    False
    """
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        a = poly[i]
        b = poly[(i + 1) % n]
        if segment_point_distance(a, b, p) <= EPS:
            return True
        if (a[1] > y) != (b[1] > y):
            xc = a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if x < xc:
                inside = not inside
    return inside


def distance_to_boundary(p: Point2, poly: tuple[Point2, ...]) -> float:
    """Shortest distance from p to the polygon's boundary."""
    n = len(poly)
    return min(segment_point_distance(poly[i], poly[(i + 1) % n], p) for i in range(n))


def circle_inside_polygon(c: Point2, r: float, poly: tuple[Point2, ...]) -> bool:
    """A base of radius r centred at c lies wholly inside the polygon (TURN-4 'wholly inside')."""
    return point_in_polygon(c, poly) and distance_to_boundary(c, poly) >= r - EPS


def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point2, ...]:
    """An axis-aligned rectangle as a polygon."""
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def polygon_bounds(poly: tuple[Point2, ...]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return (min(xs), min(ys), max(xs), max(ys))


def circle_polygon_distance(c: Point2, r: float, poly: tuple[Point2, ...]) -> float:
    """GEO-4 model to terrain: distance from the base circle to the footprint (0 if overlapping)."""
    if point_in_polygon(c, poly):
        return 0.0
    return max(0.0, distance_to_boundary(c, poly) - r)


def angle_of(p: Point2, q: Point2) -> float:
    """Angle from p to q measured from +x toward +y (GEO-1)."""
    return math.atan2(q[1] - p[1], q[0] - p[0])
