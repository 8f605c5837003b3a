"""Compiled batch verdicts (GEO-10, GEO-12, GEO-13, GEO-14): LOS both ways, cover and obstructions per pair.

Same compilable subset as `game.core.geometry.crossing`. These kernels give the bare verdict of a check (no
reasons) for the AI and for whole-board previews; `game.core.geometry.sight.los` and
`game.core.geometry.sight.cover` give the same verdicts with their reasons, and tests and the benchmark assert
that both agree with the naive reference.

`bases` is flat [x, y, z, r, h] per model. `params` is [woods_depth, contact_tol, elev_step,
ignore_attacker_contact (0/1), elevation ignores obstructions (0/1), rank hardened degrades to, wall merge
distance (`obstruction.building_walls`: 1.0 per_wall, -1 per_piece), a piece below the defender's feet
still gives cover (`cover.below_feet`, 0/1)]. `bd` is each piece's building number (0: none); `el`, `ex`,
`grp`, `soff` (ints, one slot per piece + 1) and `sbuf` (floats, `span_capacity`) are scratch for
`wall_groups`.
Verdict rows (`VERDICT_WIDTH` ints): a_sees_t, t_sees_a, visible, cover piece index (-1 none), cover rank,
degraded rank, elevated (0/1), obstruction count.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.geometry.crossing import MODE_PRISM, TOL, cross_spans, sample_point, seg_piece
from game.core.geometry.sight.kernels import EPS, FLAG_WOODS, contacts, crossed, misses_band, misses_box, ray_blocked

if TYPE_CHECKING:
    from collections.abc import MutableSequence

    from game.core.geometry.arrays import FloatBuf, Floats, FloatSeq, Ints, IntSeq

    IntBuf = MutableSequence[int] | Ints  # scratch ints a kernel writes (a Python list or a numpy array)

VERDICT_WIDTH = 8
RANK_OBSTRUCTION = 1
RANK_SOFT = 2
RANK_HARDENED = 4
SAMPLE_ORDER = (0, 2, 4, 6, 8, 1, 3, 5, 7, 9)  # heads first: the likeliest unblocked rays end early
WALL_GAP = 1.0  # GEO-13 per_wall: crossings of one building's pieces within 1.0" of each other are one wall


def sees(vi: int, ti: int, bases: Floats, ed: Floats, pf: Floats, pn: Ints, gf: Floats, gn: Ints, cs: Ints,
         ci: Ints, wi: Ints, cyl: Floats, ncyl: int, depth: float, stamp: Ints, cand: Ints, tbuf: Floats) -> bool:
    """GEO-10 visible(V->T): at least one of V's 10 rays from its eye to T's samples is unblocked."""
    vx = bases[5 * vi]
    vy = bases[5 * vi + 1]
    ez = bases[5 * vi + 2] + bases[5 * vi + 4]
    tx = bases[5 * ti]
    ty = bases[5 * ti + 1]
    tz = bases[5 * ti + 2]
    tr = bases[5 * ti + 3]
    th = bases[5 * ti + 4]
    for k in range(10):
        s = sample_point(vx, vy, tx, ty, tz, th, tr, SAMPLE_ORDER[k])
        if not ray_blocked(vx, vy, ez, s[0], s[1], s[2], ed, pf, pn, gf, gn, cs, ci, wi, cyl, ncyl, depth,
                           stamp, cand, tbuf):
            return True
    return False


def base_contacts(bases: Floats, nb: int, reach: float, ed: Floats, pf: Floats, pn: Ints, gf: Floats, gn: Ints,
                  cs: Ints, ci: Ints, stamp: Ints, cand: Ints, cidx: Ints, cdist: Floats, cptr: Ints) -> None:
    """GEO-6 contact lists of every base (CSR in cidx/cdist/cptr; cidx sized nb * pieces)."""
    cptr[0] = 0
    for b in range(nb):
        n = contacts(bases[5 * b], bases[5 * b + 1], bases[5 * b + 3], reach, ed, pf, pn, gf, gn, cs, ci, stamp,
                     cand, cidx, cdist, cptr[b])
        cptr[b + 1] = cptr[b] + n


def _in(p: int, arr: Ints, lo: int, hi: int) -> bool:
    for q in range(lo, hi):
        if arr[q] == p:
            return True
    return False


def occludes(ai: int, ti: int, p: int, bases: Floats, ed: Floats, pf: Floats, pn: Ints, tbuf: Floats) -> bool:
    """GEO-12 (3): piece p stands in the way of at least one of A's rays to T's samples (partial occlusion)."""
    ax = bases[5 * ai]
    ay = bases[5 * ai + 1]
    ez = bases[5 * ai + 2] + bases[5 * ai + 4]
    z0 = pf[6 * p + 4]
    z1 = pf[6 * p + 5]
    for i in range(10):
        s = sample_point(ax, ay, bases[5 * ti], bases[5 * ti + 1], bases[5 * ti + 2], bases[5 * ti + 4],
                         bases[5 * ti + 3], i)
        if misses_band(ez, s[2], z0, z1) or misses_box(ax, ay, s[0], s[1], pf, p):
            continue
        res = seg_piece(ax, ay, ez, s[0], s[1], s[2], ed, pn[5 * p], pn[5 * p + 1], z0, z1, MODE_PRISM, tbuf)
        if res[1]:
            return True
    return False


def _spans_near(sbuf: FloatSeq, i0: int, i1: int, j0: int, j1: int, gap: float) -> bool:
    """Some interior part of one piece (spans i0..i1) lies within `gap` (+EPS) of one of the other's (j0..j1)."""
    for i in range(i0, i1):
        for j in range(j0, j1):
            if max(sbuf[2 * i], sbuf[2 * j]) - min(sbuf[2 * i + 1], sbuf[2 * j + 1]) <= gap + EPS:
                return True
    return False


def _root(grp: IntSeq, k: int) -> int:
    while grp[k] != k:
        k = grp[k]
    return k


def wall_groups(ax: float, ay: float, bx: float, by: float, ed: FloatSeq, pn: IntSeq, bd: IntSeq, el: IntSeq,
                ex: IntSeq, m: int, gap: float, tbuf: FloatBuf, soff: IntBuf, sbuf: FloatBuf, grp: IntBuf) -> int:
    """GEO-13 `obstruction.building_walls`: the obstructing pieces el[:m] crossed by cA-cB as walls; how many count.

    Pieces of one building (`bd` > 0) whose crossings (`cross_spans`) lie within `gap` inches of each other
    along the segment are one wall, transitively (a window's sill and lintel, the wall above it, the two
    walls at a corner); `gap` < 0 (per_piece) leaves every piece its own. grp[k] is the first entry of k's
    wall. A wall with an excluded entry (ex[k] = 1: the defender's cover piece, a piece touching the
    attacker) does not count: it is the cover or the attacker's own wall. Returns the walls that count.
    """
    for k in range(m):
        grp[k] = k
    shared = False
    if gap >= 0.0:
        for i in range(m):
            if bd[el[i]] != 0:
                for j in range(i + 1, m):
                    if bd[el[j]] == bd[el[i]]:
                        shared = True
    if shared:
        soff[0] = 0
        for i in range(m):
            p = el[i]
            n = 0
            if bd[p] != 0:
                n = cross_spans(ax, ay, bx, by, ed, pn[5 * p], pn[5 * p + 1], tbuf, sbuf, 2 * soff[i])
            soff[i + 1] = soff[i] + n
        for i in range(m):
            for j in range(i + 1, m):
                if bd[el[i]] == 0 or bd[el[j]] != bd[el[i]]:
                    continue
                ri = _root(grp, i)
                rj = _root(grp, j)
                if ri != rj and _spans_near(sbuf, soff[i], soff[i + 1], soff[j], soff[j + 1], gap):
                    if ri < rj:
                        grp[rj] = ri
                    else:
                        grp[ri] = rj
        for k in range(m):
            grp[k] = _root(grp, k)
    count = 0
    for r in range(m):
        if grp[r] != r:
            continue
        counts = True
        for k in range(r, m):
            if grp[k] == r and ex[k] != 0:
                counts = False
        if counts:
            count += 1
    return count


def cover_verdict(ai: int, ti: int, bases: Floats, ed: Floats, pf: Floats, pn: Ints, bd: Ints, xl: Ints, nx: int,
                  cidx: Ints, cdist: Floats, cptr: Ints, params: Floats, tbuf: Floats, el: Ints, ex: Ints, grp: Ints,
                  soff: Ints, sbuf: Floats) -> tuple[int, int, int, bool, int]:
    """GEO-12/13/14 for attacker ai and defender ti, given the pieces xl[:nx] crossed by cA->cT.

    Returns (cover piece index or -1, rank, degraded rank, elevated, obstruction count).
    """
    zt = bases[5 * ti + 2]
    best = -1
    best_rank = 0
    best_id = 0
    for q in range(cptr[ti], cptr[ti + 1]):
        p = cidx[q]
        rank = pn[5 * p + 3]
        woods = pn[5 * p + 2] & FLAG_WOODS
        if woods:
            if cdist[q] > EPS:
                continue
            rank = RANK_SOFT
        elif rank < RANK_SOFT or (params[7] == 0.0 and pf[6 * p + 5] <= zt + TOL):
            continue  # GEO-12 (1); `cover.below_feet` false: a top at or below the defender's base is no cover
        pid = pn[5 * p + 4]
        if not (rank > best_rank or (rank == best_rank and pid < best_id)):
            continue  # could not be chosen: whether it lies between does not matter
        between = _in(p, xl, 0, nx)
        if not between and not woods:
            between = occludes(ai, ti, p, bases, ed, pf, pn, tbuf)
        if between:
            best = p
            best_rank = rank
            best_id = pid
    elevated = bases[5 * ai + 2] >= zt + params[2] - EPS
    degraded = best_rank
    if elevated and best_rank > 0:
        if best_rank == RANK_HARDENED:
            degraded = int(params[5])
        else:
            degraded = best_rank - 1
    nobs = 0
    if not (elevated and params[4] != 0.0):
        m = 0
        for q in range(nx):
            p = xl[q]
            if pn[5 * p + 3] == 0 and (pn[5 * p + 2] & FLAG_WOODS) == 0:
                continue
            el[m] = p
            ex[m] = 1 if (p == best or (params[3] != 0.0 and _in(p, cidx, cptr[ai], cptr[ai + 1]))) else 0
            m += 1
        nobs = wall_groups(bases[5 * ai], bases[5 * ai + 1], bases[5 * ti], bases[5 * ti + 1], ed, pn, bd, el, ex, m,
                           params[6], tbuf, soff, sbuf, grp)
    return best, best_rank, degraded, elevated, nobs


def _write(out: Ints, row: int, ast: bool, tsa: bool, cv: tuple[int, int, int, bool, int]) -> None:
    o = row * VERDICT_WIDTH
    out[o] = 1 if ast else 0
    out[o + 1] = 1 if tsa else 0
    out[o + 2] = 1 if (ast or tsa) else 0
    out[o + 3] = cv[0]
    out[o + 4] = cv[1]
    out[o + 5] = cv[2]
    out[o + 6] = 1 if cv[3] else 0
    out[o + 7] = cv[4]


def pair_verdicts(pairs: Ints, npairs: int, bases: Floats, nb: int, ed: Floats, pf: Floats, pn: Ints, bd: Ints,
                  gf: Floats, gn: Ints, cs: Ints, ci: Ints, wi: Ints, cyl: Floats, ncyl: int, params: Floats,
                  stamp: Ints, cand: Ints, tbuf: Floats, xl: Ints, cidx: Ints, cdist: Floats, cptr: Ints, el: Ints,
                  ex: Ints, grp: Ints, soff: Ints, sbuf: Floats, out: Ints) -> None:
    """One verdict row per ordered pair (attacker pairs[2k], target pairs[2k+1]) into `out`."""
    base_contacts(bases, nb, params[1], ed, pf, pn, gf, gn, cs, ci, stamp, cand, cidx, cdist, cptr)
    for k in range(npairs):
        a = pairs[2 * k]
        t = pairs[2 * k + 1]
        ast = sees(a, t, bases, ed, pf, pn, gf, gn, cs, ci, wi, cyl, ncyl, params[0], stamp, cand, tbuf)
        tsa = sees(t, a, bases, ed, pf, pn, gf, gn, cs, ci, wi, cyl, ncyl, params[0], stamp, cand, tbuf)
        nx = crossed(bases[5 * a], bases[5 * a + 1], bases[5 * t], bases[5 * t + 1], ed, pf, pn, gf, gn, cs, ci,
                     stamp, cand, tbuf, xl)
        cv = cover_verdict(a, t, bases, ed, pf, pn, bd, xl, nx, cidx, cdist, cptr, params, tbuf, el, ex, grp, soff,
                           sbuf)
        _write(out, k, ast, tsa, cv)


def all_pair_verdicts(bases: Floats, nb: int, ed: Floats, pf: Floats, pn: Ints, bd: Ints, gf: Floats, gn: Ints,
                      cs: Ints, ci: Ints, wi: Ints, cyl: Floats, ncyl: int, params: Floats, stamp: Ints, cand: Ints,
                      tbuf: Floats, xl: Ints, cidx: Ints, cdist: Floats, cptr: Ints, el: Ints, ex: Ints, grp: Ints,
                      soff: Ints, sbuf: Floats, out: Ints) -> None:
    """Every ordered pair (i, j), i != j, row i * nb + j; each unordered pair's rays and crossings once."""
    base_contacts(bases, nb, params[1], ed, pf, pn, gf, gn, cs, ci, stamp, cand, cidx, cdist, cptr)
    for i in range(nb):
        for j in range(i + 1, nb):
            ij = sees(i, j, bases, ed, pf, pn, gf, gn, cs, ci, wi, cyl, ncyl, params[0], stamp, cand, tbuf)
            ji = sees(j, i, bases, ed, pf, pn, gf, gn, cs, ci, wi, cyl, ncyl, params[0], stamp, cand, tbuf)
            nx = crossed(bases[5 * i], bases[5 * i + 1], bases[5 * j], bases[5 * j + 1], ed, pf, pn, gf, gn, cs,
                         ci, stamp, cand, tbuf, xl)
            cv = cover_verdict(i, j, bases, ed, pf, pn, bd, xl, nx, cidx, cdist, cptr, params, tbuf, el, ex, grp,
                               soff, sbuf)
            _write(out, i * nb + j, ij, ji, cv)
            cv = cover_verdict(j, i, bases, ed, pf, pn, bd, xl, nx, cidx, cdist, cptr, params, tbuf, el, ex, grp,
                               soff, sbuf)
            _write(out, j * nb + i, ji, ij, cv)
