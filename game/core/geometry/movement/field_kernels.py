"""Dijkstra's one-to-all GEO-8 costs over flat edge arrays, in numba's Python subset (GEO-27).

`game.core.geometry.movement.field` compiles this source lazily (`game.core.geometry.jit`); with
`ZONA_ALFA_NO_JIT=1` it runs as plain Python, with the same answers. The loop is `search.search` with no goal: the
same order of settling (cost, then node id), the same relaxations (strictly cheaper only, nothing beyond the
bound, no climbs for a model that may not climb, enemy bases checked per edge), so the same costs and parents.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from game.core.geometry.arrays import Floats, Ints

ARC_KIND = 1  # game.core.geometry.movement.tangents.ARC
CLIMB_KIND = 3  # game.core.geometry.movement.tangents.CLIMB


def _less(ka: float, ia: int, kb: float, ib: int) -> bool:
    return ka < kb or (ka == kb and ia < ib)


def _push(hkey: Floats, hid: Ints, size: int, key: float, node: int) -> int:
    """Add (key, node) to the binary heap of `size` entries; returns the new size."""
    i = size
    hkey[i] = key
    hid[i] = node
    while i > 0:
        p = (i - 1) // 2
        if _less(hkey[i], hid[i], hkey[p], hid[p]):
            hkey[i], hkey[p] = hkey[p], hkey[i]
            hid[i], hid[p] = hid[p], hid[i]
            i = p
        else:
            break
    return size + 1


def _pop(hkey: Floats, hid: Ints, size: int) -> int:
    """Remove the smallest entry (read it at index 0 first); returns the new size."""
    size -= 1
    hkey[0] = hkey[size]
    hid[0] = hid[size]
    i = 0
    while True:
        a = 2 * i + 1
        if a >= size:
            break
        b = a + 1
        m = a
        if b < size and _less(hkey[b], hid[b], hkey[a], hid[a]):
            m = b
        if _less(hkey[m], hid[m], hkey[i], hid[i]):
            hkey[i], hkey[m] = hkey[m], hkey[i]
            hid[i], hid[m] = hid[m], hid[i]
            i = m
        else:
            break
    return size


def _hits(lo: int, hi: int, ex: Floats, ey: Floats, er: Floats, ux: float, uy: float, vx: float, vy: float,
          margin: float, eps: float) -> bool:
    """`search._hits`: does the segment pass within er + margin of one of the enemy centres lo..hi-1?"""
    dx = vx - ux
    dy = vy - uy
    l2 = dx * dx + dy * dy
    lo_x = min(ux, vx)
    hi_x = max(ux, vx)
    lo_y = min(uy, vy)
    hi_y = max(uy, vy)
    for k in range(lo, hi):
        lim = er[k] + margin - eps
        if ex[k] < lo_x - lim or ex[k] > hi_x + lim or ey[k] < lo_y - lim or ey[k] > hi_y + lim:
            continue
        if l2 == 0.0:
            d = math.hypot(ux - ex[k], uy - ey[k])
        else:
            t = max(0.0, min(1.0, ((ex[k] - ux) * dx + (ey[k] - uy) * dy) / l2))
            d = math.hypot(ux + t * dx - ex[k], uy + t * dy - ey[k])
        if d < lim:
            return True
    return False


def dijkstra(src: int, n_static: int, sptr: Ints, sto: Ints, scost: Floats, skind: Ints, xptr: Ints, xto: Ints,
             xcost: Floats, xkind: Ints, bound: float, can_climb: bool, dist: Floats, parent: Ints, pkind: Ints,
             nx: Floats, ny: Floats, nlevel: Ints, ncircle: Ints, cr: Floats, nc: int, eptr: Ints, ex: Floats,
             ey: Floats, er: Floats, arc_pad: float, eps: float) -> int:
    """Costs from `src` to every node within `bound` (dist, inf elsewhere), each node's parent and the kind of the
    edge it was reached by. Nodes below n_static own the static edges `sptr[u]:sptr[u+1]` and then the extra edges
    `xptr[u]:xptr[u+1]`; the others own only extra edges. Enemy bases (centre, r + r_enemy) per level
    `eptr[l]:eptr[l+1]` are checked per edge as `search._blocked` checks them: a straight edge from a graph node by
    its segment, an arc by its chord with the enemies grown by its sagitta (`arc_pad` x r for the polyline's
    bulge), arcs round an enemy base (corners from nc up) exempt. Returns how many nodes were settled."""
    n = len(dist)
    cap = len(sto) + len(xto) + 2
    hkey = np.empty(cap, np.float64)
    hid = np.empty(cap, np.int64)
    done = np.zeros(n, np.bool_)
    dist[src] = 0.0
    size = _push(hkey, hid, 0, 0.0, src)
    settled = 0
    while size > 0:
        d = hkey[0]
        u = hid[0]
        size = _pop(hkey, hid, size)
        if done[u]:
            continue
        done[u] = True
        settled += 1
        lv = nlevel[u]
        e0 = eptr[lv]
        e1 = eptr[lv + 1]
        for part in range(2):
            if part == 0:
                if u >= n_static:
                    continue
                lo, hi = sptr[u], sptr[u + 1]
            else:
                lo, hi = xptr[u], xptr[u + 1]
            for k in range(lo, hi):
                if part == 0:
                    v, c, kind = sto[k], scost[k], skind[k]
                else:
                    v, c, kind = xto[k], xcost[k], xkind[k]
                if kind == CLIMB_KIND and not can_climb:
                    continue
                nd = d + c
                if nd > bound:
                    continue
                if nd >= dist[v]:
                    continue
                if e1 > e0 and kind <= ARC_KIND and (u < n_static or kind == ARC_KIND):
                    if kind != ARC_KIND:
                        if _hits(e0, e1, ex, ey, er, nx[u], ny[u], nx[v], ny[v], 0.0, eps):
                            continue
                    else:
                        ci = ncircle[u]
                        if ci < nc:
                            r = cr[ci]
                            half = math.hypot(nx[v] - nx[u], ny[v] - ny[u]) / 2
                            sag = r - math.sqrt(max(0.0, r * r - half * half)) + r * arc_pad
                            if _hits(e0, e1, ex, ey, er, nx[u], ny[u], nx[v], ny[v], sag, eps):
                                continue
                dist[v] = nd
                parent[v] = u
                pkind[v] = kind
                size = _push(hkey, hid, size, nd, v)
    return settled
