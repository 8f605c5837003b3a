"""The one crossing predicate (GEO-10, GEO-12): a segment against a prism footprint, shared by every LOS path.

Every function here is written in the small subset of Python that numba also compiles: scalars, flat
indexable sequences (Python lists or numpy arrays) and calls to the other functions of this module or of
`game.core.geometry.sight.kernels`. The naive reference (`game.core.geometry.sight.naive`) runs this source as
plain Python; the fast path (`game.core.geometry.sight.jit`) compiles the very same functions. There is no
second predicate.

Footprints are stored as flat edge lists `ed = [x0, y0, x1, y1, x0, y0, ...]` (outer ring and hole rings
together): piece `p` owns edges `e0 <= k < e1`.

Tolerance: `TOL` = 1e-9 inch, in the plane and in z alike. A point is *interior* to a footprint iff it is
inside it and farther than `TOL` from every edge; a segment *crosses* a footprint iff some part of it of
positive length is interior (so grazing a corner or running along a face within 1e-9 does not cross). A
ray *passes through* a prism iff, on an interior interval, its height z(t) rises above `z0 + TOL` and stays
below `z1 - TOL` somewhere (checked at the interval ends, where the linear z(t) is extreme).
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.core.geometry.arrays import FloatBuf, FloatSeq

TOL = 1e-9  # the stated crossing tolerance, in the plane as in z
MODE_CROSS = 0  # 2D: does the segment meet the footprint's interior?
MODE_PRISM = 1  # 3D: does the ray pass strictly through the prism interior?
MODE_WOODS = 2  # 2D length of the interior parts that lie below the canopy top (GEO-10.WOODS)


def point_state(px: float, py: float, ed: FloatSeq, e0: int, e1: int) -> int:
    """1 if (px, py) is interior to the footprint, 0 if outside, -1 if within TOL of an edge (GEO-12 crossing)."""
    inside = False
    for k in range(e0, e1):
        x0 = ed[4 * k]
        y0 = ed[4 * k + 1]
        x1 = ed[4 * k + 2]
        y1 = ed[4 * k + 3]
        dx = x1 - x0
        dy = y1 - y0
        l2 = dx * dx + dy * dy
        u = 0.0
        if l2 > 0.0:
            u = ((px - x0) * dx + (py - y0) * dy) / l2
            if u < 0.0:
                u = 0.0
            elif u > 1.0:
                u = 1.0
        qx = x0 + u * dx - px
        qy = y0 + u * dy - py
        if qx * qx + qy * qy <= TOL * TOL:
            return -1
        if (y0 > py) != (y1 > py):
            xi = x0 + (py - y0) * dx / dy
            if px < xi:
                inside = not inside
    if inside:
        return 1
    return 0


def breakpoints(ax: float, ay: float, dx: float, dy: float, l2: float, seg_len: float, ed: FloatSeq, e0: int,
                e1: int, tbuf: FloatBuf) -> int:
    """Where the segment A + t (dx, dy), 0 <= t <= 1, meets the boundary of edges e0..e1: the sorted parameters
    0, the breakpoints strictly inside, 1 in tbuf[:n]; returns n (the method of `seg_piece`).

    A breakpoint is an edge crossing, a vertex on (or within TOL of) the line, or an end of a collinear overlap.
    """
    reach = TOL * seg_len
    tbuf[0] = 0.0
    tbuf[1] = 1.0
    n = 2
    for k in range(e0, e1):
        qx = ed[4 * k]
        qy = ed[4 * k + 1]
        rx = ed[4 * k + 2]
        ry = ed[4 * k + 3]
        c0 = (qx - ax) * dy - (qy - ay) * dx  # seg_len * signed distance of the edge start from the line
        c1 = (rx - ax) * dy - (ry - ay) * dx
        near0 = abs(c0) <= reach
        if near0:  # a vertex on (or within TOL of) the line: its projection is a breakpoint
            t = ((qx - ax) * dx + (qy - ay) * dy) / l2
            if 0.0 < t < 1.0:
                tbuf[n] = t
                n += 1
        if near0 and abs(c1) <= reach:  # collinear edge: the ends of the overlap are breakpoints
            t = ((rx - ax) * dx + (ry - ay) * dy) / l2
            if 0.0 < t < 1.0:
                tbuf[n] = t
                n += 1
            continue
        if (c0 > 0.0 and c1 > 0.0) or (c0 < 0.0 and c1 < 0.0):
            continue
        s = c0 / (c0 - c1)
        px = qx + s * (rx - qx)
        py = qy + s * (ry - qy)
        t = ((px - ax) * dx + (py - ay) * dy) / l2
        if 0.0 < t < 1.0:
            tbuf[n] = t
            n += 1
    for i in range(1, n):  # insertion sort of the few breakpoints
        v = tbuf[i]
        j = i - 1
        while j >= 0 and tbuf[j] > v:
            tbuf[j + 1] = tbuf[j]
            j -= 1
        tbuf[j + 1] = v
    return n


def seg_piece(ax: float, ay: float, az: float, bx: float, by: float, bz: float, ed: FloatSeq, e0: int, e1: int,
              zlo: float, zhi: float, mode: int, tbuf: FloatBuf) -> tuple[bool, bool, float]:
    """The shared predicate: the segment A->B against one footprint (edges e0..e1) and its z band [zlo, zhi].

    Returns (crosses, hits, low_len): `crosses` iff the 2D segment meets the footprint's interior (GEO-12);
    `hits` (MODE_PRISM) iff the 3D segment passes strictly through the prism (GEO-10); `low_len` (MODE_WOODS)
    the 2D length of the interior parts where the ray is below `zhi` (the 4" canopy, GEO-10.WOODS).
    Method: every parameter t where the segment meets the boundary is a breakpoint (edge crossings, touched
    vertices, ends of collinear overlaps); in MODE_CROSS the ends are taken in (x, y) order so that A->B and
    B->A always agree; between two breakpoints the segment is wholly interior, exterior
    or on the boundary, decided at the midpoint by `point_state`. `tbuf` is scratch space of at least
    2 * (e1 - e0) + 2 floats.
    """
    if mode == MODE_CROSS and (ax > bx or (ax == bx and ay > by)):
        ax, ay, bx, by = bx, by, ax, ay  # crossing is symmetric: always measure from the lower end
    dx = bx - ax
    dy = by - ay
    dz = bz - az
    l2 = dx * dx + dy * dy
    if l2 == 0.0:
        if point_state(ax, ay, ed, e0, e1) != 1:
            return False, False, 0.0
        hit = max(az, bz) > zlo + TOL and min(az, bz) < zhi - TOL
        return True, hit, 0.0
    seg_len = math.sqrt(l2)
    n = breakpoints(ax, ay, dx, dy, l2, seg_len, ed, e0, e1, tbuf)
    crosses = False
    low_len = 0.0
    for i in range(n - 1):
        ta = tbuf[i]
        tb = tbuf[i + 1]
        if (tb - ta) * seg_len <= 2.0 * TOL:
            continue
        tm = 0.5 * (ta + tb)
        if point_state(ax + tm * dx, ay + tm * dy, ed, e0, e1) != 1:
            continue
        crosses = True
        if mode == MODE_CROSS:
            return True, False, 0.0
        za = az + ta * dz
        zb = az + tb * dz
        if mode == MODE_PRISM:
            if max(za, zb) > zlo + TOL and min(za, zb) < zhi - TOL:
                return True, True, 0.0
        else:
            lo = ta
            hi = tb
            if za >= zhi and zb >= zhi:
                continue
            if za >= zhi or zb >= zhi:
                tc = (zhi - az) / dz
                if dz > 0.0:
                    hi = min(hi, tc)
                else:
                    lo = max(lo, tc)
            if hi > lo:
                low_len += (hi - lo) * seg_len
    return crosses, False, low_len


def cross_spans(ax: float, ay: float, bx: float, by: float, ed: FloatSeq, e0: int, e1: int, tbuf: FloatBuf,
                out: FloatBuf, off: int) -> int:
    """The interior parts of the 2D segment A-B in one footprint (GEO-12 crossing; GEO-13 walls), in inches.

    Writes each part as (lo, hi), its distances from the segment's (x, y)-lower end (as MODE_CROSS measures,
    so A-B and B-A agree), to out[off + 2k], out[off + 2k + 1]; returns how many (0 iff `seg_piece` in
    MODE_CROSS says the segment does not cross). At most 2 * (e1 - e0) + 1 parts; `tbuf` as for `seg_piece`.
    """
    if ax > bx or (ax == bx and ay > by):
        ax, ay, bx, by = bx, by, ax, ay
    dx = bx - ax
    dy = by - ay
    l2 = dx * dx + dy * dy
    if l2 == 0.0:
        if point_state(ax, ay, ed, e0, e1) != 1:
            return 0
        out[off] = 0.0
        out[off + 1] = 0.0
        return 1
    seg_len = math.sqrt(l2)
    n = breakpoints(ax, ay, dx, dy, l2, seg_len, ed, e0, e1, tbuf)
    k = 0
    for i in range(n - 1):
        ta = tbuf[i]
        tb = tbuf[i + 1]
        if (tb - ta) * seg_len <= 2.0 * TOL:
            continue
        tm = 0.5 * (ta + tb)
        if point_state(ax + tm * dx, ay + tm * dy, ed, e0, e1) != 1:
            continue
        out[off + 2 * k] = ta * seg_len
        out[off + 2 * k + 1] = tb * seg_len
        k += 1
    return k


def seg_cylinder(ax: float, ay: float, az: float, bx: float, by: float, bz: float, cx: float, cy: float, r: float,
                 zlo: float, zhi: float) -> tuple[bool, bool]:
    """A ray against a vertical cylinder (smoke cloud, GAP-72): (crosses the disc interior, passes through).

    Interior of the disc: farther than TOL inside the circle, as for footprints.
    """
    rho = r - TOL
    if rho <= 0.0:
        return False, False
    dx = bx - ax
    dy = by - ay
    wx = ax - cx
    wy = ay - cy
    a = dx * dx + dy * dy
    c = wx * wx + wy * wy - rho * rho
    if a == 0.0:
        if c >= 0.0:
            return False, False
        return True, max(az, bz) > zlo + TOL and min(az, bz) < zhi - TOL
    b = 2.0 * (wx * dx + wy * dy)
    disc = b * b - 4.0 * a * c
    if disc <= 0.0:
        return False, False
    sq = math.sqrt(disc)
    ta = max((-b - sq) / (2.0 * a), 0.0)
    tb = min((-b + sq) / (2.0 * a), 1.0)
    if tb <= ta:
        return False, False
    za = az + ta * (bz - az)
    zb = az + tb * (bz - az)
    return True, max(za, zb) > zlo + TOL and min(za, zb) < zhi - TOL


def circle_piece_distance(cx: float, cy: float, r: float, ed: FloatSeq, e0: int, e1: int) -> float:
    """GEO-4: distance from a base circle to a footprint (0 when the base overlaps or touches it)."""
    best = -1.0
    inside = False
    for k in range(e0, e1):
        x0 = ed[4 * k]
        y0 = ed[4 * k + 1]
        x1 = ed[4 * k + 2]
        y1 = ed[4 * k + 3]
        dx = x1 - x0
        dy = y1 - y0
        l2 = dx * dx + dy * dy
        u = 0.0
        if l2 > 0.0:
            u = ((cx - x0) * dx + (cy - y0) * dy) / l2
            if u < 0.0:
                u = 0.0
            elif u > 1.0:
                u = 1.0
        qx = x0 + u * dx - cx
        qy = y0 + u * dy - cy
        d = math.sqrt(qx * qx + qy * qy)
        if best < 0.0 or d < best:
            best = d
        if (y0 > cy) != (y1 > cy):
            xi = x0 + (cy - y0) * dx / dy
            if cx < xi:
                inside = not inside
    if inside or best < 0.0:
        return 0.0
    return max(0.0, best - r)


def sample_point(vx: float, vy: float, tx: float, ty: float, tz: float, th: float, tr: float, i: int
                 ) -> tuple[float, float, float]:
    """GEO-10 target sample i (0..9) of a base at (tx, ty, tz), height th, radius tr, seen from (vx, vy).

    i // 2 picks the horizontal point: 0 centre, 1 left (+perpendicular), 2 right (-perpendicular), 3 near
    (toward the viewer), 4 far; i % 2 the height: 0 the head (z + h), 1 the body (z + h/2).
    """
    ux = tx - vx
    uy = ty - vy
    d = math.sqrt(ux * ux + uy * uy)
    if d > 0.0:
        ux = ux / d
        uy = uy / d
    else:
        ux = 1.0
        uy = 0.0
    off = 0.8 * tr
    k = i // 2
    sx = tx
    sy = ty
    if k == 1:
        sx = tx - uy * off
        sy = ty + ux * off
    elif k == 2:
        sx = tx + uy * off
        sy = ty - ux * off
    elif k == 3:
        sx = tx - ux * off
        sy = ty - uy * off
    elif k == 4:
        sx = tx + ux * off
        sy = ty + uy * off
    if i % 2 == 0:
        sz = tz + th
    else:
        sz = tz + 0.5 * th
    return sx, sy, sz
