"""Visibility polygons for the move-range overlay (GEO-8, GEO-27): an angular sweep in numba's Python subset.

Every function here is plain Python over scalars and flat numpy arrays that numba also compiles
(`game.core.geometry.movement.reach_jit` compiles this very source lazily; with `ZONA_ALFA_NO_JIT=1` it runs as is).

Occluders are convex polygons (counter-clockwise, no closing vertex): polygon `p` owns vertices
`poff[p] <= k < poff[p + 1]` of `vx, vy`, its bounding box is `bx0..by1` and its kind is SOLID (blocks every ray:
inflated pieces, enemy bases, off-floor space) or DIFFICULT (hides only for uniform-cost rays). From a viewpoint v
with remaining allowance `rad`, the visible region is the disc (a 64-gon, as shapely's `buffer(rad, quad_segs=16)`)
minus every point whose segment from v meets an occluder. The sweep sorts the angles of the front-facing edges'
ends, the disc's 64 vertices and where edges cross the circle; in each angular interval the nearest curve (an
edge's line, or the circle) is found at both ends and, where it differs, the interval is split at the crossing
(bisection), so the polygon is exact up to the disc's inscribed chords. A viewpoint strictly inside a SOLID
occluder sees nothing (no base stands there); one on an occluder's boundary is blind in the wedge into it.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from game.core.geometry.arrays import Floats, Ints

SOLID = 0
DIFFICULT = 1
DISC_SIDES = 64  # shapely's buffer(quad_segs=16)
TOL = 1e-9  # inside / boundary / outside of an occluder (inches)
ANG_TOL = 1e-12  # event angles closer than this are one event (radians)
MAX_SPLITS = 64  # crossings resolved per interval before the rest is emitted as found
FLAG_DEAD = 1  # the viewpoint lies inside a SOLID occluder: no polygon
FLAG_REPAIR = 2  # the ring touches the viewpoint more than once: make it valid before use
BIG = 1e300
SAME_POINT = 1e-9  # ring points closer than this (per coordinate) are one point


def side_of(x: float, y: float, vx: Floats, vy: Floats, k0: int, k1: int) -> int:
    """1 if (x, y) is inside the convex polygon by more than TOL, 0 if outside by more than TOL, else -1."""
    inside = True
    for k in range(k0, k1):
        j = k + 1
        if j == k1:
            j = k0
        ex = vx[j] - vx[k]
        ey = vy[j] - vy[k]
        ln = math.sqrt(ex * ex + ey * ey)
        if ln <= 1e-12:
            continue
        sd = (ex * (y - vy[k]) - ey * (x - vx[k])) / ln  # > 0 on the interior side
        if sd < -TOL:
            return 0
        if sd <= TOL:
            inside = False
    if inside:
        return 1
    return -1


def regular(a: float) -> bool:
    """True if angle a is one of the disc's vertices (a multiple of 2 pi / DISC_SIDES)."""
    k = a * DISC_SIDES / (2.0 * math.pi)
    return abs(k - math.floor(k + 0.5)) * (2.0 * math.pi / DISC_SIDES) <= ANG_TOL


def seg_point_dist(x: float, y: float, ax: float, ay: float, bx: float, by: float) -> float:
    ex = bx - ax
    ey = by - ay
    l2 = ex * ex + ey * ey
    u = 0.0
    if l2 > 0.0:
        u = ((x - ax) * ex + (y - ay) * ey) / l2
        if u < 0.0:
            u = 0.0
        elif u > 1.0:
            u = 1.0
    dx = ax + u * ex - x
    dy = ay + u * ey - y
    return math.sqrt(dx * dx + dy * dy)


def norm_angle(a: float) -> float:
    two_pi = 2.0 * math.pi
    a = a % two_pi
    if a >= two_pi:
        a -= two_pi
    return a


def curve_dist(c: int, dc: float, ds: float, x: float, y: float, rad: float, ctype: Ints, cax: Floats, cay: Floats,
               cbx: Floats, cby: Floats) -> float:
    """Distance from v along the ray of direction (dc, ds) to curve c (-1: the circle; type 0: an edge's
    line; type 1: a wedge, distance 0)."""
    if c < 0:
        return rad
    if ctype[c] == 1:
        return 0.0
    ex = cbx[c] - cax[c]
    ey = cby[c] - cay[c]
    den = dc * ey - ds * ex
    if den == 0.0:
        return BIG
    t: float = ((cax[c] - x) * ey - (cay[c] - y) * ex) / den
    if t < 0.0:
        return 0.0
    return t


def curve_point(c: int, ang: float, dc: float, ds: float, x: float, y: float, rad: float, ctype: Ints, cax: Floats,
                cay: Floats, cbx: Floats, cby: Floats, cs: Floats, ce: Floats) -> tuple[float, float]:
    """The point of curve c on the ray at `ang` (direction (dc, ds)); an edge's own end exactly at its end
    angles."""
    if c < 0:
        return x + rad * dc, y + rad * ds
    if ctype[c] == 1:
        return x, y
    if abs(norm_angle(ang) - cs[c]) <= ANG_TOL:
        return cbx[c], cby[c]
    if abs(norm_angle(ang) - ce[c]) <= ANG_TOL:
        return cax[c], cay[c]
    d = curve_dist(c, dc, ds, x, y, rad, ctype, cax, cay, cbx, cby)
    return x + d * dc, y + d * ds


def nearest(dc: float, ds: float, x: float, y: float, rad: float, lst: Ints, l0: int, l1: int, ctype: Ints,
            cax: Floats, cay: Floats, cbx: Floats, cby: Floats) -> tuple[int, float]:
    """(curve, distance) nearest to v along the ray of direction (dc, ds) among curves lst[l0:l1] and the
    circle (-1)."""
    best = rad
    who = -1
    for i in range(l0, l1):
        c = lst[i]
        d = curve_dist(c, dc, ds, x, y, rad, ctype, cax, cay, cbx, cby)
        if d < best:
            best = d
            who = c
    return who, best


def crossing_angle(c1: int, c2: int, a: float, b: float, x: float, y: float, rad: float, ctype: Ints, cax: Floats,
                   cay: Floats, cbx: Floats, cby: Floats) -> float:
    """The angle in [a, b] where curves c1 (nearer at a) and c2 (nearer at b) are equally far (bisection)."""
    lo = a
    hi = b
    for _ in range(60):
        m = 0.5 * (lo + hi)
        if m <= lo or m >= hi:
            break
        dc = math.cos(m)
        ds = math.sin(m)
        f = curve_dist(c1, dc, ds, x, y, rad, ctype, cax, cay, cbx, cby) - curve_dist(c2, dc, ds, x, y, rad, ctype,
                                                                                      cax, cay, cbx, cby)
        if f <= 0.0:
            lo = m
        else:
            hi = m
    return 0.5 * (lo + hi)


def grow(a: Floats, need: int) -> Floats:
    """`a` itself when it holds `need` floats, else a copy at least twice as long."""
    if need <= len(a):
        return a
    n = 2 * len(a)
    if n < need:
        n = need
    out = np.empty(n, np.float64)
    out[: len(a)] = a
    return out


def put(rx: Floats, ry: Floats, m: int, px: float, py: float) -> int:
    """Write (px, py) at m unless it repeats the point before; returns the new count (capacity is the caller's)."""
    if m > 0 and abs(rx[m - 1] - px) <= SAME_POINT and abs(ry[m - 1] - py) <= SAME_POINT:
        return m
    rx[m] = px
    ry[m] = py
    return m + 1


def candidates(x: float, y: float, rad: float, usedif: int, vx: Floats, vy: Floats, poff: Ints, bx0: Floats,
               by0: Floats, bx1: Floats, by1: Floats, pkind: Ints) -> tuple[Ints, Ints, int, bool]:
    """Occluders near the viewpoint: (indices, states, count, dead); state 0 outside, -1 on the boundary."""
    npoly = len(poff) - 1
    cand = np.empty(npoly, np.int64)
    state = np.empty(npoly, np.int64)
    n = 0
    for p in range(npoly):
        if pkind[p] == DIFFICULT and usedif == 0:
            continue
        if bx0[p] > x + rad or bx1[p] < x - rad or by0[p] > y + rad or by1[p] < y - rad:
            continue
        st = side_of(x, y, vx, vy, poff[p], poff[p + 1])
        if st == 1:
            if pkind[p] == SOLID:
                return cand, state, 0, True
            continue  # inside difficult ground: those rays are the other region's
        cand[n] = p
        state[n] = st
        n += 1
    return cand, state, n, False


def wedge(x: float, y: float, vx: Floats, vy: Floats, k0: int, k1: int) -> tuple[float, float]:
    """(start, span) of the directions from a boundary point into a convex polygon; span 0 if degenerate."""
    cx = 0.0
    cy = 0.0
    for k in range(k0, k1):
        cx += vx[k]
        cy += vy[k]
    cx /= k1 - k0
    cy /= k1 - k0
    if abs(cx - x) <= TOL and abs(cy - y) <= TOL:
        return 0.0, 0.0
    ref = math.atan2(cy - y, cx - x)
    lo = 0.0
    hi = 0.0
    for k in range(k0, k1):
        dx = vx[k] - x
        dy = vy[k] - y
        if dx * dx + dy * dy <= TOL * TOL:
            continue
        rel = math.atan2(dy, dx) - ref
        while rel > math.pi:
            rel -= 2.0 * math.pi
        while rel <= -math.pi:
            rel += 2.0 * math.pi
        if rel < lo:
            lo = rel
        if rel > hi:
            hi = rel
    return norm_angle(ref + lo), hi - lo


def view_curves(x: float, y: float, rad: float, cand: Ints, state: Ints, n: int, vx: Floats, vy: Floats, poff: Ints
                ) -> tuple[Ints, Floats, Floats, Floats, Floats, Floats, Floats, int]:
    """The curves that can hide something from v: front-facing edges within rad, and boundary wedges.

    Returns (ctype, cax, cay, cbx, cby, cstart, cend, count); wedges store their start/end angles in cax/cbx."""
    cap = 0
    for i in range(n):
        p = cand[i]
        cap += poff[p + 1] - poff[p]
    ctype = np.empty(cap + 1, np.int64)
    cax = np.empty(cap + 1, np.float64)
    cay = np.empty(cap + 1, np.float64)
    cbx = np.empty(cap + 1, np.float64)
    cby = np.empty(cap + 1, np.float64)
    cs = np.empty(cap + 1, np.float64)
    ce = np.empty(cap + 1, np.float64)
    m = 0
    for i in range(n):
        p = cand[i]
        k0 = poff[p]
        k1 = poff[p + 1]
        if state[i] == -1:
            w0, span = wedge(x, y, vx, vy, k0, k1)
            if span > ANG_TOL:
                ctype[m] = 1
                cax[m] = w0
                cbx[m] = w0 + span
                cay[m] = 0.0
                cby[m] = 0.0
                cs[m] = w0
                ce[m] = norm_angle(w0 + span)
                m += 1
            continue
        for k in range(k0, k1):
            j = k + 1
            if j == k1:
                j = k0
            ax = vx[k]
            ay = vy[k]
            bx = vx[j]
            by = vy[j]
            ex = bx - ax
            ey = by - ay
            ln = math.sqrt(ex * ex + ey * ey)
            if ln <= 1e-12:
                continue
            if (ex * (y - ay) - ey * (x - ax)) / ln >= -TOL:
                continue  # back-facing: the front of this convex polygon is nearer
            if seg_point_dist(x, y, ax, ay, bx, by) >= rad:
                continue
            ctype[m] = 0
            cax[m] = ax
            cay[m] = ay
            cbx[m] = bx
            cby[m] = by
            cs[m] = norm_angle(math.atan2(by - y, bx - x))  # seen from v, a -> b runs clockwise
            ce[m] = norm_angle(math.atan2(ay - y, ax - x))
            m += 1
    return ctype, cax, cay, cbx, cby, cs, ce, m


def circle_events(x: float, y: float, rad: float, ctype: Ints, cax: Floats, cay: Floats, cbx: Floats, cby: Floats,
                  m: int, ev: Floats, ne: int) -> int:
    """Write the angles where edges cross the circle (at most two per edge) into ev from index ne; returns the
    new count."""
    for c in range(m):
        if ctype[c] != 0:
            continue
        ex = cbx[c] - cax[c]
        ey = cby[c] - cay[c]
        fx = cax[c] - x
        fy = cay[c] - y
        qa = ex * ex + ey * ey
        qb = 2.0 * (fx * ex + fy * ey)
        qc = fx * fx + fy * fy - rad * rad
        disc = qb * qb - 4.0 * qa * qc
        if disc <= 0.0 or qa <= 0.0:
            continue
        sq = math.sqrt(disc)
        for u in ((-qb - sq) / (2.0 * qa), (-qb + sq) / (2.0 * qa)):
            if 0.0 < u < 1.0:
                ev[ne] = norm_angle(math.atan2(fy + u * ey, fx + u * ex))
                ne += 1
    return ne


def intervals(x: float, y: float, rad: float, ctype: Ints, cax: Floats, cay: Floats, cbx: Floats, cby: Floats,
              cs: Floats, ce: Floats, m: int) -> tuple[Floats, int, Ints, Ints]:
    """The sorted distinct event angles (uniq[:nu]) and, per interval between consecutive events, the curves
    that cover it: lst[cnt[k]:cnt[k + 1]]."""
    # raw events: the disc's vertices, then each curve's start and end, then circle crossings
    ev = np.empty(DISC_SIDES + 4 * m + 8, np.float64)
    for k in range(DISC_SIDES):
        ev[k] = 2.0 * math.pi * k / DISC_SIDES
    for c in range(m):
        ev[DISC_SIDES + 2 * c] = cs[c]
        ev[DISC_SIDES + 2 * c + 1] = ce[c]
    ne = circle_events(x, y, rad, ctype, cax, cay, cbx, cby, m, ev, DISC_SIDES + 2 * m)
    order = np.argsort(ev[:ne], kind="mergesort")
    uniq = np.empty(ne, np.float64)
    uidx = np.empty(ne, np.int64)
    nu = 0
    for i in range(ne):
        a = ev[order[i]]
        if nu == 0 or a - uniq[nu - 1] > ANG_TOL:
            uniq[nu] = a
            nu += 1
        uidx[order[i]] = nu - 1
    # which intervals each curve covers (cyclic index ranges), as compressed lists per interval
    cnt = np.zeros(nu + 1, np.int64)
    for c in range(m):
        i0 = uidx[DISC_SIDES + 2 * c]
        span = (uidx[DISC_SIDES + 2 * c + 1] - i0) % nu
        for t in range(span):
            cnt[(i0 + t) % nu + 1] += 1
    for k in range(nu):
        cnt[k + 1] += cnt[k]
    lst = np.empty(cnt[nu], np.int64)
    fill = cnt[:nu].copy()
    for c in range(m):
        i0 = uidx[DISC_SIDES + 2 * c]
        span = (uidx[DISC_SIDES + 2 * c + 1] - i0) % nu
        for t in range(span):
            k = (i0 + t) % nu
            lst[fill[k]] = c
            fill[k] += 1
    return uniq, nu, cnt, lst


def view_ring(x: float, y: float, rad: float, usedif: int, vx: Floats, vy: Floats, poff: Ints, bx0: Floats,
              by0: Floats, bx1: Floats, by1: Floats, pkind: Ints) -> tuple[Floats, Floats, int, int]:
    """The visible region of one viewpoint as a ring (rx, ry, count, flag)."""
    rx = np.empty(4 * DISC_SIDES, np.float64)
    ry = np.empty(4 * DISC_SIDES, np.float64)
    cand, state, n, dead = candidates(x, y, rad, usedif, vx, vy, poff, bx0, by0, bx1, by1, pkind)
    if dead or rad <= 0.0:
        return rx, ry, 0, FLAG_DEAD
    ctype, cax, cay, cbx, cby, cs, ce, m = view_curves(x, y, rad, cand, state, n, vx, vy, poff)
    two_pi = 2.0 * math.pi
    uniq, nu, cnt, lst = intervals(x, y, rad, ctype, cax, cay, cbx, cby, cs, ce, m)
    # sweep: in each interval the nearest curve at both ends; split where they differ
    ucos = np.empty(nu + 1, np.float64)
    usin = np.empty(nu + 1, np.float64)
    for k in range(nu):
        ucos[k] = math.cos(uniq[k])
        usin[k] = math.sin(uniq[k])
    ucos[nu] = ucos[0]
    usin[nu] = usin[0]
    slo = np.empty(MAX_SPLITS + 2, np.float64)
    shi = np.empty(MAX_SPLITS + 2, np.float64)
    npts = 0
    zero_runs = 0
    last_zero = False
    prev_c = -2
    end_pushed = False
    for k in range(nu):
        a0 = uniq[k]
        b0 = uniq[k + 1] if k + 1 < nu else uniq[0] + two_pi
        if b0 - a0 <= ANG_TOL:
            continue
        l0 = cnt[k]
        l1 = cnt[k + 1]
        if npts + 2 * MAX_SPLITS + 8 > len(rx):  # room for every piece this interval can add
            rx = grow(rx, 2 * len(rx) + 2 * MAX_SPLITS + 8)
            ry = grow(ry, len(rx))
        slo[0] = a0
        shi[0] = b0
        top = 1
        splits = 0
        while top > 0:
            top -= 1
            a = slo[top]
            b = shi[top]
            if a == a0:
                acos = ucos[k]
                asin = usin[k]
            else:
                acos = math.cos(a)
                asin = math.sin(a)
            if b == b0:
                bcos = ucos[k + 1]
                bsin = usin[k + 1]
            else:
                bcos = math.cos(b)
                bsin = math.sin(b)
            c1, d1 = nearest(acos, asin, x, y, rad, lst, l0, l1, ctype, cax, cay, cbx, cby)
            c2, d2 = nearest(bcos, bsin, x, y, rad, lst, l0, l1, ctype, cax, cay, cbx, cby)
            same = c1 == c2
            if not same:
                e1 = curve_dist(c1, bcos, bsin, x, y, rad, ctype, cax, cay, cbx, cby)
                e2 = curve_dist(c2, acos, asin, x, y, rad, ctype, cax, cay, cbx, cby)
                same = abs(e1 - d2) <= 1e-9 and abs(e2 - d1) <= 1e-9
            mid = a
            if not same and splits < MAX_SPLITS and top + 2 <= MAX_SPLITS:
                mid = crossing_angle(c1, c2, a, b, x, y, rad, ctype, cax, cay, cbx, cby)
            if mid - a <= ANG_TOL or b - mid <= ANG_TOL:  # one curve, or they cross at an end: emit a..b
                cb = c1 if same else c2
                run = c1 == prev_c and cb == c1 and end_pushed
                if run and (c1 >= 0 and ctype[c1] == 0 or c1 < 0 and not regular(a)):
                    npts -= 1  # the last point is inside a run along this same line (or circle): drop it
                else:
                    pax, pay = curve_point(c1, a, acos, asin, x, y, rad, ctype, cax, cay, cbx, cby, cs, ce)
                    npts = put(rx, ry, npts, pax, pay)
                pbx, pby = curve_point(cb, b, bcos, bsin, x, y, rad, ctype, cax, cay, cbx, cby, cs, ce)
                k0 = npts
                npts = put(rx, ry, npts, pbx, pby)
                end_pushed = npts > k0
                prev_c = c1 if cb == c1 else -2  # a piece ending on another curve ends the run
                if (c1 >= 0 and ctype[c1] == 1) or (cb >= 0 and ctype[cb] == 1):
                    if not last_zero:
                        zero_runs += 1
                    last_zero = True
                else:
                    last_zero = False
                continue
            splits += 1
            slo[top] = mid
            shi[top] = b
            slo[top + 1] = a
            shi[top + 1] = mid
            top += 2
    if npts > 1 and abs(rx[npts - 1] - rx[0]) <= SAME_POINT and abs(ry[npts - 1] - ry[0]) <= SAME_POINT:
        npts -= 1
    if npts < 3:
        return rx, ry, 0, FLAG_DEAD
    return rx, ry, npts, FLAG_REPAIR if zero_runs > 1 else 0


def visibility_rings(px: Floats, py: Floats, prad: Floats, pdif: Ints, vx: Floats, vy: Floats, poff: Ints,
                     bx0: Floats, by0: Floats, bx1: Floats, by1: Floats, pkind: Ints
                     ) -> tuple[Floats, Floats, Ints, Ints]:
    """Rings of every viewpoint i (centre px/py, radius prad, DIFFICULT occluders used iff pdif[i]):
    (x, y, offsets, flags); ring i is x/y[offsets[i]:offsets[i + 1]], empty when flags[i] is FLAG_DEAD."""
    n = len(px)
    ox = np.empty(n * DISC_SIDES + 16, np.float64)
    oy = np.empty(n * DISC_SIDES + 16, np.float64)
    off = np.zeros(n + 1, np.int64)
    flags = np.zeros(n, np.int64)
    m = 0
    for i in range(n):
        rx, ry, k, flag = view_ring(px[i], py[i], prad[i], pdif[i], vx, vy, poff, bx0, by0, bx1, by1, pkind)
        flags[i] = flag
        ox = grow(ox, m + k)
        oy = grow(oy, m + k)
        for j in range(k):
            ox[m + j] = rx[j]
            oy[m + j] = ry[j]
        m += k
        off[i + 1] = m
    return ox[:m], oy[:m], off, flags


def inside_solid(xs: Floats, ys: Floats, vx: Floats, vy: Floats, poff: Ints, bx0: Floats, by0: Floats, bx1: Floats,
                 by1: Floats, pkind: Ints) -> Ints:
    """1 where the point lies inside some SOLID occluder by more than TOL (no base centre may stand there)."""
    out = np.zeros(len(xs), np.int64)
    for i in range(len(xs)):
        x = xs[i]
        y = ys[i]
        for p in range(len(poff) - 1):
            if pkind[p] != SOLID or bx0[p] > x or bx1[p] < x or by0[p] > y or by1[p] < y:
                continue
            if side_of(x, y, vx, vy, poff[p], poff[p + 1]) == 1:
                out[i] = 1
                break
    return out
