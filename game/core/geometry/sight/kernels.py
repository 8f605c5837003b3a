"""Fast-path sight kernels (GEO-10, GEO-12, GEO-13): a uniform grid picks candidate pieces for the shared predicate.

Same compilable subset as `game.core.geometry.crossing` (compiled by `game.core.geometry.sight.jit`). The grid only
narrows which pieces are handed to `crossing.seg_piece`; a piece is skipped only when the segment misses
its bounding box by more than `PAD` (or the ray's whole height range misses its z band by more than
`ZPAD`), far beyond float error, so every verdict equals the naive all-edges loop (`game.core.geometry.sight.naive`).

World layout (built by `game.core.geometry.sight.world`): `ed` flat edges; `pf` per piece [minx, miny, maxx, maxy,
z0, z1]; `pn` per piece [e0, e1, flags, cover rank, id]; grid `gf` [ox, oy, cell], `gn` [nx, ny], CSR
cell lists `cs`/`ci`; `wi` woods piece indices; `cyl` per cylinder [x, y, r, z0, z1] (smoke, GAP-72).
`stamp` has one slot per piece plus an epoch counter in its last slot.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.core.geometry.crossing import (
    MODE_CROSS,
    MODE_PRISM,
    MODE_WOODS,
    circle_piece_distance,
    seg_cylinder,
    seg_piece,
)

if TYPE_CHECKING:
    from game.core.geometry.arrays import Floats, Ints

PAD = 1e-7  # plane margin of every bounding-box and grid skip (far above float error, far below TOL's effect)
ZPAD = 1e-9  # height margin of the z-band skip
EPS = 1e-6  # GEOMETRY: a value within EPS of a limit meets it
FLAG_BLOCKS = 1  # blocks_los (GEO-10)
FLAG_WOODS = 2  # woods area terrain (GEO-10.WOODS)
WOODS_CANOPY = 4.0  # GEO-10.WOODS canopy height above the woods' ground


def _add_cell(c: int, ci: Ints, cs: Ints, stamp: Ints, ep: int, cand: Ints, n: int) -> int:
    for q in range(cs[c], cs[c + 1]):
        p = ci[q]
        if stamp[p] != ep:
            stamp[p] = ep
            cand[n] = p
            n += 1
    return n


def _next_epoch(stamp: Ints) -> int:
    last = len(stamp) - 1
    stamp[last] = stamp[last] + 1
    epoch: int = stamp[last]
    return epoch


def grid_segment(ax: float, ay: float, bx: float, by: float, gf: Floats, gn: Ints, cs: Ints, ci: Ints, stamp: Ints,
                 cand: Ints) -> int:
    """Candidate pieces for a segment: every piece registered in a grid cell the padded segment touches.

    Columns are walked from A toward B (so the early-exit blocked test meets near blockers first).
    """
    ep = _next_epoch(stamp)
    ox = gf[0]
    oy = gf[1]
    cell = gf[2]
    nx = gn[0]
    ny = gn[1]
    xlo = min(ax, bx) - PAD
    xhi = max(ax, bx) + PAD
    ylo_s = min(ay, by) - PAD
    yhi_s = max(ay, by) + PAD
    ix0 = min(max(int(math.floor((xlo - ox) / cell)), 0), nx - 1)
    ix1 = min(max(int(math.floor((xhi - ox) / cell)), 0), nx - 1)
    dx = bx - ax
    dy = by - ay
    n = 0
    ncols = ix1 - ix0 + 1
    for step in range(ncols):
        c = ix0 + step if dx >= 0.0 else ix1 - step
        x0c = max(xlo, ox + c * cell - PAD)
        x1c = min(xhi, ox + (c + 1) * cell + PAD)
        if dx != 0.0:
            ya = ay + (x0c - ax) * (dy / dx)
            yb = ay + (x1c - ax) * (dy / dx)
            ylo = max(min(ya, yb) - PAD, ylo_s)
            yhi = min(max(ya, yb) + PAD, yhi_s)
        else:
            ylo = ylo_s
            yhi = yhi_s
        iy0 = min(max(int(math.floor((ylo - oy) / cell)), 0), ny - 1)
        iy1 = min(max(int(math.floor((yhi - oy) / cell)), 0), ny - 1)
        nrows = iy1 - iy0 + 1
        for rstep in range(nrows):
            r = iy0 + rstep if dy >= 0.0 else iy1 - rstep
            n = _add_cell(r * nx + c, ci, cs, stamp, ep, cand, n)
    return n


def grid_box(xlo: float, ylo: float, xhi: float, yhi: float, gf: Floats, gn: Ints, cs: Ints, ci: Ints, stamp: Ints,
             cand: Ints) -> int:
    """Candidate pieces registered in the grid cells overlapping a box (padded)."""
    ep = _next_epoch(stamp)
    ox = gf[0]
    oy = gf[1]
    cell = gf[2]
    nx = gn[0]
    ny = gn[1]
    ix0 = min(max(int(math.floor((xlo - PAD - ox) / cell)), 0), nx - 1)
    ix1 = min(max(int(math.floor((xhi + PAD - ox) / cell)), 0), nx - 1)
    iy0 = min(max(int(math.floor((ylo - PAD - oy) / cell)), 0), ny - 1)
    iy1 = min(max(int(math.floor((yhi + PAD - oy) / cell)), 0), ny - 1)
    n = 0
    for r in range(iy0, iy1 + 1):
        for c in range(ix0, ix1 + 1):
            n = _add_cell(r * nx + c, ci, cs, stamp, ep, cand, n)
    return n


def misses_box(ax: float, ay: float, bx: float, by: float, pf: Floats, p: int) -> bool:
    """True when the segment surely misses piece p's bounding box (by more than PAD): a safe skip."""
    minx = pf[6 * p] - PAD
    miny = pf[6 * p + 1] - PAD
    maxx = pf[6 * p + 2] + PAD
    maxy = pf[6 * p + 3] + PAD
    if max(ax, bx) < minx or min(ax, bx) > maxx or max(ay, by) < miny or min(ay, by) > maxy:
        return True
    dx = bx - ax
    dy = by - ay
    s1 = (minx - ax) * dy - (miny - ay) * dx
    s2 = (maxx - ax) * dy - (miny - ay) * dx
    s3 = (minx - ax) * dy - (maxy - ay) * dx
    s4 = (maxx - ax) * dy - (maxy - ay) * dx
    if s1 > 0.0 and s2 > 0.0 and s3 > 0.0 and s4 > 0.0:
        return True
    if s1 < 0.0 and s2 < 0.0 and s3 < 0.0 and s4 < 0.0:
        return True
    return False


def misses_band(az: float, bz: float, zlo: float, zhi: float) -> bool:
    """True when a ray's whole height range lies outside [zlo, zhi] by more than ZPAD: it cannot pass through."""
    return min(az, bz) > zhi + ZPAD or max(az, bz) < zlo - ZPAD


def trace_ray(ax: float, ay: float, az: float, bx: float, by: float, bz: float, ed: Floats, pf: Floats, pn: Ints,
              gf: Floats, gn: Ints, cs: Ints, ci: Ints, wi: Ints, cyl: Floats, ncyl: int, stamp: Ints, cand: Ints,
              tbuf: Floats, out_hits: Ints, hoff: int, out_cyl: Ints, coff: int) -> tuple[int, int, float]:
    """GEO-10 detail for one ray: every piece whose prism it passes through (woods: whose canopy it runs
    under), every smoke cylinder it passes through, and its total length inside woods below the canopy.

    Returns (n_hits, n_cyl, woods_len); hits are piece indices written to `out_hits[hoff:hoff + n_hits]`
    (unsorted), cylinders to `out_cyl[coff:coff + n_cyl]`.
    """
    nc = grid_segment(ax, ay, bx, by, gf, gn, cs, ci, stamp, cand)
    nh = 0
    for q in range(nc):
        p = cand[q]
        if pn[5 * p + 2] & FLAG_WOODS:
            continue
        z0 = pf[6 * p + 4]
        z1 = pf[6 * p + 5]
        if misses_band(az, bz, z0, z1) or misses_box(ax, ay, bx, by, pf, p):
            continue
        res = seg_piece(ax, ay, az, bx, by, bz, ed, pn[5 * p], pn[5 * p + 1], z0, z1, MODE_PRISM, tbuf)
        if res[1]:
            out_hits[hoff + nh] = p
            nh += 1
    woods = 0.0
    for q in range(len(wi)):
        p = wi[q]
        z0 = pf[6 * p + 4]
        top = z0 + WOODS_CANOPY
        if min(az, bz) > top + ZPAD or misses_box(ax, ay, bx, by, pf, p):
            continue
        res = seg_piece(ax, ay, az, bx, by, bz, ed, pn[5 * p], pn[5 * p + 1], z0, top, MODE_WOODS, tbuf)
        if res[2] > 0.0:
            woods += res[2]
            out_hits[hoff + nh] = p
            nh += 1
    ny = 0
    for k in range(ncyl):
        res2 = seg_cylinder(ax, ay, az, bx, by, bz, cyl[5 * k], cyl[5 * k + 1], cyl[5 * k + 2],
                            cyl[5 * k + 3], cyl[5 * k + 4])
        if res2[1]:
            out_cyl[coff + ny] = k
            ny += 1
    return nh, ny, woods


def _blocks(p: int, ax: float, ay: float, az: float, bx: float, by: float, bz: float, ed: Floats, pf: Floats,
            pn: Ints, tbuf: Floats) -> bool:
    """Piece p (blocks_los, not woods) stops this ray (GEO-10), after the safe box and band skips."""
    if (pn[5 * p + 2] & FLAG_BLOCKS) == 0:
        return False
    z0 = pf[6 * p + 4]
    z1 = pf[6 * p + 5]
    if misses_band(az, bz, z0, z1) or misses_box(ax, ay, bx, by, pf, p):
        return False
    return seg_piece(ax, ay, az, bx, by, bz, ed, pn[5 * p], pn[5 * p + 1], z0, z1, MODE_PRISM, tbuf)[1]


def ray_blocked(ax: float, ay: float, az: float, bx: float, by: float, bz: float, ed: Floats, pf: Floats, pn: Ints,
                gf: Floats, gn: Ints, cs: Ints, ci: Ints, wi: Ints, cyl: Floats, ncyl: int, depth: float,
                stamp: Ints, cand: Ints, tbuf: Floats) -> bool:
    """GEO-10 verdict for one ray with early exit: a blocking prism, woods deeper than `depth`, or smoke.

    Walks the grid cells from A toward B (the cells of `grid_segment`) and tests each new piece at once,
    so a blocker near the eye ends the walk.
    """
    for k in range(ncyl):
        res2 = seg_cylinder(ax, ay, az, bx, by, bz, cyl[5 * k], cyl[5 * k + 1], cyl[5 * k + 2],
                            cyl[5 * k + 3], cyl[5 * k + 4])
        if res2[1]:
            return True
    ep = _next_epoch(stamp)
    ox = gf[0]
    oy = gf[1]
    cell = gf[2]
    nx = gn[0]
    ny = gn[1]
    xlo = min(ax, bx) - PAD
    xhi = max(ax, bx) + PAD
    ylo_s = min(ay, by) - PAD
    yhi_s = max(ay, by) + PAD
    ix0 = min(max(int(math.floor((xlo - ox) / cell)), 0), nx - 1)
    ix1 = min(max(int(math.floor((xhi - ox) / cell)), 0), nx - 1)
    dx = bx - ax
    dy = by - ay
    for step in range(ix1 - ix0 + 1):
        c = ix0 + step if dx >= 0.0 else ix1 - step
        x0c = max(xlo, ox + c * cell - PAD)
        x1c = min(xhi, ox + (c + 1) * cell + PAD)
        if dx != 0.0:
            ya = ay + (x0c - ax) * (dy / dx)
            yb = ay + (x1c - ax) * (dy / dx)
            ylo = max(min(ya, yb) - PAD, ylo_s)
            yhi = min(max(ya, yb) + PAD, yhi_s)
        else:
            ylo = ylo_s
            yhi = yhi_s
        iy0 = min(max(int(math.floor((ylo - oy) / cell)), 0), ny - 1)
        iy1 = min(max(int(math.floor((yhi - oy) / cell)), 0), ny - 1)
        for rstep in range(iy1 - iy0 + 1):
            r = iy0 + rstep if dy >= 0.0 else iy1 - rstep
            q0 = cs[r * nx + c]
            q1 = cs[r * nx + c + 1]
            for q in range(q0, q1):
                p = ci[q]
                if stamp[p] == ep:
                    continue
                stamp[p] = ep
                if _blocks(p, ax, ay, az, bx, by, bz, ed, pf, pn, tbuf):
                    return True
    woods = 0.0
    for q in range(len(wi)):
        p = wi[q]
        z0 = pf[6 * p + 4]
        top = z0 + WOODS_CANOPY
        if min(az, bz) > top + ZPAD or misses_box(ax, ay, bx, by, pf, p):
            continue
        res = seg_piece(ax, ay, az, bx, by, bz, ed, pn[5 * p], pn[5 * p + 1], z0, top, MODE_WOODS, tbuf)
        woods += res[2]
    return woods > depth + EPS


def crossed(ax: float, ay: float, bx: float, by: float, ed: Floats, pf: Floats, pn: Ints, gf: Floats, gn: Ints,
            cs: Ints, ci: Ints, stamp: Ints, cand: Ints, tbuf: Floats, out: Ints) -> int:
    """GEO-12 crossing: every piece whose footprint interior the 2D segment meets (unsorted indices)."""
    nc = grid_segment(ax, ay, bx, by, gf, gn, cs, ci, stamp, cand)
    n = 0
    for q in range(nc):
        p = cand[q]
        if misses_box(ax, ay, bx, by, pf, p):
            continue
        res = seg_piece(ax, ay, 0.0, bx, by, 0.0, ed, pn[5 * p], pn[5 * p + 1], 0.0, 0.0, MODE_CROSS, tbuf)
        if res[0]:
            out[n] = p
            n += 1
    return n


def contacts(cx: float, cy: float, r: float, reach: float, ed: Floats, pf: Floats, pn: Ints, gf: Floats, gn: Ints,
             cs: Ints, ci: Ints, stamp: Ints, cand: Ints, out_idx: Ints, out_dist: Floats, off: int) -> int:
    """GEO-4/GEO-6: every piece whose footprint lies within `reach` (+EPS) of the base circle, with distances.

    Writes indices and distances from position `off` of the outputs; returns how many.
    """
    lim = r + reach + EPS
    nc = grid_box(cx - lim, cy - lim, cx + lim, cy + lim, gf, gn, cs, ci, stamp, cand)
    n = 0
    for q in range(nc):
        p = cand[q]
        if (cx + lim < pf[6 * p] - PAD or cx - lim > pf[6 * p + 2] + PAD
                or cy + lim < pf[6 * p + 1] - PAD or cy - lim > pf[6 * p + 3] + PAD):
            continue
        d = circle_piece_distance(cx, cy, r, ed, pn[5 * p], pn[5 * p + 1])
        if d <= reach + EPS:
            out_idx[off + n] = p
            out_dist[off + n] = d
            n += 1
    return n


def trace_rays(rays: Floats, m: int, ed: Floats, pf: Floats, pn: Ints, gf: Floats, gn: Ints, cs: Ints, ci: Ints,
               wi: Ints, cyl: Floats, ncyl: int, stamp: Ints, cand: Ints, tbuf: Floats, hits: Ints, hptr: Ints,
               cyls: Ints, cptr: Ints, woods: Floats) -> None:
    """trace_ray over m rays given flat as [ax, ay, az, bx, by, bz]*m; CSR outputs (hits/hptr, cyls/cptr)."""
    hptr[0] = 0
    cptr[0] = 0
    for i in range(m):
        res = trace_ray(rays[6 * i], rays[6 * i + 1], rays[6 * i + 2], rays[6 * i + 3], rays[6 * i + 4],
                        rays[6 * i + 5], ed, pf, pn, gf, gn, cs, ci, wi, cyl, ncyl, stamp, cand, tbuf,
                        hits, hptr[i], cyls, cptr[i])
        hptr[i + 1] = hptr[i] + res[0]
        cptr[i + 1] = cptr[i] + res[1]
        woods[i] = res[2]
