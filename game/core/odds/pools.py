"""Exact distributions of one D10 roll with the critical rules (INTRO-1.2.CRIT-*, GAP-11, GAP-14), as integer
weights."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from game.core.dice import Crit
from game.core.settings import Settings

TABLE_DICE = 12  # pools of 0..12 dice (or best-of groups) are read from the tables built at import
TABLE_TNS = range(-6, 17)  # ... at these TNs (every TN <= 0 scores alike, and every TN >= 10)


class PoolDist:
    """One roll of `n` dice (or `n` best-of-`k` groups): outcome (successes, crit) -> weight over `denom`.

    Weights are integers: the number of face tuples giving that outcome, so `weight / denom` is exact and
    equals what `evaluate_pool` / `roll_saves` would report over all faces (INTRO-1.2.D10). `by_succ`,
    `fail_by_succ` (the Critical Failure part) and `by_crit` are the marginals (`crit_names`: by_crit keyed by
    the crit's value string; `rows`: (successes, failures, 4 * failures + (any success), weight, Critical Failure
    part) for each success count of nonzero weight, as a save roll's outcomes); `outcomes` the joint."""

    __slots__ = ("n", "tn", "denom", "by_succ", "fail_by_succ", "by_crit", "crit_names", "rows", "_outcomes",
                 "_polys")

    def __init__(self, n: int, tn: int, denom: int, outcomes: tuple[tuple[int, Crit, int], ...] | None,
                 by_succ: tuple[int, ...], fail_by_succ: tuple[int, ...], by_crit: tuple[tuple[Crit, int], ...],
                 polys: tuple[tuple[int, ...], ...] | None = None) -> None:
        self.n, self.tn, self.denom = n, tn, denom
        self.by_succ, self.fail_by_succ, self.by_crit = by_succ, fail_by_succ, by_crit
        self.crit_names = tuple((c.value, w) for c, w in by_crit)
        self.rows = tuple((d, n - d, 4 * (n - d) + (d > 0), w, f)
                          for d, (w, f) in enumerate(zip(by_succ, fail_by_succ, strict=False)) if w)
        self._outcomes, self._polys = outcomes, polys

    @property
    def outcomes(self) -> tuple[tuple[int, Crit, int], ...]:
        if self._outcomes is None:
            self._outcomes = _joint(self.n, self._polys)
        return self._outcomes

    def by_successes(self) -> dict[int, int]:
        return {k: w for k, w in enumerate(self.by_succ) if w}


def _joint(n: int, polys: tuple[tuple[int, ...], ...] | None) -> tuple[tuple[int, Crit, int], ...]:
    """The joint (successes, crit) outcomes from the no-crit, crit-success, crit-failure and mix polynomials."""
    assert polys is not None
    return tuple((k, c, w) for k, ws in enumerate(zip(*polys, strict=False)) for c, w in zip(_BY_POLY, ws,
                                                                                             strict=False) if w)


_BY_POLY = (Crit.NONE, Crit.SUCCESS, Crit.FAILURE, Crit.MIX)


def make_pool(n: int, tn: int, denom: int, outcomes: tuple[tuple[int, Crit, int], ...]) -> PoolDist:
    """A PoolDist with its marginals by successes and by crit filled in."""
    by = [0] * (n + 1)
    fail = [0] * (n + 1)
    crit: dict[Crit, int] = {}
    for sc, c, w in outcomes:
        by[sc] += w
        if c is Crit.FAILURE:
            fail[sc] += w
        crit[c] = crit.get(c, 0) + w
    return PoolDist(n, tn, denom, outcomes, tuple(by), tuple(fail), tuple(crit.items()))


def crit_of(has1: bool, has10: bool) -> Crit:
    """The roll-level result (INTRO-1.2.CRIT-SUCCESS/FAIL/MIX) from whether a 1 and a 10 appeared."""
    if has1 and has10:
        return Crit.MIX
    return Crit.SUCCESS if has1 else Crit.FAILURE if has10 else Crit.NONE


def _atoms(tn: int, group: int, mode: str) -> list[tuple[int, bool, bool, bool, bool, bool]]:
    """Per-die (or per-group) outcome classes: (faces, counts if auto, counts if plain, kept 1, kept 10, flat 10).

    A single die has four classes: natural 1, 2..TN, TN+1..9, natural 10 (weighted by face count). A best-of-
    `group` save keeps the lowest die (COMBAT-4.1.SAVE, GAP-14); `mode` any_die also tracks a 10 on any die."""
    faces: dict[tuple[bool, bool, bool, bool, bool], int] = {}
    combos: list[tuple[tuple[int, ...], int]]
    if group <= 1:
        combos = [((f,), 1) for f in range(1, 11)]
    else:
        combos = []
        for low in range(1, 11):
            # tuples of `group` faces whose minimum is `low`, split by whether a 10 appears
            with_ten = (11 - low) ** group - (10 - low) ** group
            if low == 10:
                combos.append(((10, 10), 1))
                continue
            no_ten_total = (10 - low) ** group - (9 - low) ** group  # min = low, all faces <= 9
            combos.append(((low,), no_ten_total))
            combos.append(((low, 10), with_ten - no_ten_total))
    for faces_t, count in combos:
        if count == 0:
            continue
        kept = faces_t[0]
        flat10 = 10 in faces_t
        auto = kept == 1 or (kept != 10 and kept <= tn)
        plain = kept <= tn
        key = (auto, plain, kept == 1, kept == 10, flat10 if mode == "any_die" else kept == 10)
        faces[key] = faces.get(key, 0) + count
    return [(w,) + k for k, w in faces.items()]


def _table(n: int, tn: int, group: int, s: Settings) -> tuple[PoolDist, ...] | None:
    """The import-time series for this roll, or None when it is outside the tables (crits off, GAP-14 any_die,
    more than TABLE_DICE dice, a TN outside TABLE_TNS)."""
    if n > TABLE_DICE or not s["crit.enabled"] or (group > 1 and s["crit.best_of_two"] != "kept_die_only"):
        return None
    return _TABLES.get((group, bool(s["crit.mix_keeps_auto"]), tn))


def pool_dist(n: int, tn: int, *, group: int = 1, settings: Settings | None = None,
              cache: dict | None = None) -> PoolDist:
    """Distribution of one roll of `n` dice at `tn` (INTRO-1.2.D10, INTRO-1.2.CRIT-*, GAP-11 `crit.mix_keeps_auto`,
    GAP-14 `crit.best_of_two`), exactly as `evaluate_pool` / `roll_saves` score every face tuple.

    `group` > 1: each of the `n` hits rolls `group` dice and keeps the lowest (best-of-two armour)."""
    s = settings or Settings.defaults()
    series = _table(n, tn, group, s)
    if series is not None:
        return series[n]
    key = (n, tn, group)
    if cache is not None and key in cache:
        return cache[key]
    d = pool_dists(n, tn, group=group, settings=s, cache=cache, only_last=True)[n]
    assert d is not None  # only_last computes the last size
    return d


def pool_dists(nmax: int, tn: int, *, group: int = 1, settings: Settings | None = None,
               cache: dict | None = None, only_last: bool = False) -> list[PoolDist | None]:
    """`pool_dist` for every pool size 0..nmax at one TN: from the tables, else from one pass of the closed form
    or of the dynamic programme over dice (`only_last`: just nmax)."""
    s = settings or Settings.defaults()
    series = _table(nmax, tn, group, s)
    if series is not None:
        return list(series[:nmax + 1])
    crits = bool(s["crit.enabled"])
    keeps = bool(s["crit.mix_keeps_auto"])
    mode = s["crit.best_of_two"] if group > 1 else "kept_die_only"
    if crits and mode == "kept_die_only":
        out = closed_form(nmax, tn, group, keeps=keeps, only_last=only_last)
    else:
        out = dynamic(nmax, tn, group, crits=crits, keeps=keeps, mode=mode, only_last=only_last)
    if cache is not None:
        for n, d in enumerate(out):
            if d is not None:
                cache[(n, tn, group)] = d
    return out


def dynamic(nmax: int, tn: int, group: int, *, crits: bool, keeps: bool, mode: str,
            only_last: bool = False) -> list[PoolDist | None]:
    """The dynamic programme over dice, one state per (auto successes, plain successes, a kept 1, a kept 10, a
    10 read for crits): any TN, crits on or off, GAP-14 `any_die` (and the reference for `closed_form`)."""
    atoms = _atoms(tn, group, mode)
    same = all(x[1] == x[2] for x in atoms)  # 1 <= TN <= 9: auto and plain agree, track one count
    if same:
        atoms = [(w, auto, False, is1, is10, f10) for w, auto, _, is1, is10, f10 in atoms]
    base = 10 ** group
    states: dict[tuple[int, int, bool, bool, bool], int] = {(0, 0, False, False, False): 1}
    out_list: list[PoolDist | None] = [None if only_last and nmax else _finish(0, tn, 1, states, crits, keeps, same)]
    for n in range(1, nmax + 1):
        nxt: dict[tuple[int, int, bool, bool, bool], int] = {}
        for (a, p, k1, k10, c10), w in states.items():
            for aw, auto, plain, is1, is10, flat10 in atoms:
                key2 = (a + auto, p + plain, k1 or is1, k10 or is10, c10 or flat10)
                nxt[key2] = nxt.get(key2, 0) + w * aw
        states = nxt
        out_list.append(None if only_last and n < nmax else _finish(n, tn, base ** n, states, crits, keeps, same))
    return out_list


_CRITS = (Crit.NONE, Crit.FAILURE, Crit.SUCCESS, Crit.MIX)  # by 2 * (a 1) + (a 10)


def _finish(n: int, tn: int, denom: int, states: dict, crits: bool, keeps: bool, same: bool) -> PoolDist:
    out: dict[tuple[int, int], int] = {}
    for (a, p, k1, k10, c10), w in states.items():
        if not crits:
            key = (a if same else p, 0)
        else:
            key = (a if (same or keeps or not (k1 and k10)) else p, 2 * k1 + c10)
        out[key] = out.get(key, 0) + w
    return make_pool(n, tn, denom, tuple((sc, _CRITS[c], w) for (sc, c), w in out.items()))


def _classes(tn: int, group: int) -> tuple[int, int, int, int]:
    """Kept-die class weights (w1 natural 1, ws 2..TN, wf TN+1..9, w10 natural 10) of one die or group."""
    w1 = ws = wf = w10 = 0
    for w, auto, _, is1, is10, _ in _atoms(tn, group, "kept_die_only"):
        if is1:
            w1 += w
        elif is10:
            w10 += w
        elif auto:
            ws += w
        else:
            wf += w
    return w1, ws, wf, w10


def closed_form(nmax: int, tn: int, group: int, *, keeps: bool, only_last: bool = False) -> list[PoolDist | None]:
    """Crits on, crits read on the kept die: with class weights w1 (kept 1), ws (2..TN), wf (TN+1..9), w10 (kept
    10), a 1 succeeds and a 10 fails outside a mix, so the success-count polynomials of the faces allowed are
    binomial, and the four crit results follow by inclusion-exclusion (INTRO-1.2.CRIT-*). In a Critical Mix with
    `crit.mix_keeps_auto`=false every die is compared with the TN (GAP-11): that changes the count only at TN <= 0
    (no die succeeds) and TN >= 10 (every die succeeds)."""
    w1, ws, wf, w10 = _classes(tn, group)
    plain_mix = not keeps and not 1 <= tn <= 9
    base = 10 ** group
    out: list[PoolDist | None] = []
    # coefficient lists of (ws x + wf)^n, ((ws+w1) x + wf)^n, (ws x + wf + w10)^n, ((ws+w1) x + wf + w10)^n
    polys = [[1], [1], [1], [1]]
    factors = ((ws, wf), (ws + w1, wf), (ws, wf + w10), (ws + w1, wf + w10))
    for n in range(nmax + 1):
        if n:
            polys = [_times(q, a, b) for q, (a, b) in zip(polys, factors, strict=False)]
        if only_last and n < nmax:
            out.append(None)
            continue
        none, no10, no1, every = polys
        succ = tuple(a - b for a, b in zip(no10, none, strict=False))
        fail = tuple(a - b for a, b in zip(no1, none, strict=False))
        mix = [e - a - b + c for e, a, b, c in zip(every, no10, no1, none, strict=False)]
        if plain_mix:
            total = sum(mix)
            mix = [0] * (n + 1)
            mix[n if tn >= 10 else 0] = total
        t_none, t_succ, t_fail, t_mix = sum(none), sum(succ), sum(fail), sum(mix)
        by_crit = ((Crit.NONE, t_none), (Crit.SUCCESS, t_succ), (Crit.FAILURE, t_fail), (Crit.MIX, t_mix))
        by_succ = tuple(a + b + c + m for a, b, c, m in zip(none, succ, fail, mix, strict=False))
        out.append(PoolDist(n, tn, base ** n, None, by_succ, fail, tuple(x for x in by_crit if x[1]),
                            (tuple(none), succ, fail, tuple(mix))))
    return out


def _times(p: list[int], a: int, b: int) -> list[int]:
    """Coefficients of p(x) * (a x + b)."""
    out = [b * c for c in p] + [0]
    for k in range(1, len(out)):
        out[k] += a * p[k - 1]
    return out


def build_tables() -> Mapping[tuple[int, bool, int], tuple[PoolDist, ...]]:
    """(group, crit.mix_keeps_auto, TN) -> the pools of 0..TABLE_DICE dice, crits on and read on the kept die.

    TNs that score alike (<= 0, >= 10) share one computed series, relabelled with their own TN; every entry has
    its joint outcomes filled in, so nothing in the tables changes after import."""
    tables: dict[tuple[int, bool, int], tuple[PoolDist, ...]] = {}
    for group in (1, 2):
        for tn_class in range(0, 11):
            shared = None if tn_class in (0, 10) else _series(tn_class, group, keeps=False)
            for keeps in (False, True):  # GAP-11 changes the count only at TN <= 0 and TN >= 10
                series = shared or _series(tn_class, group, keeps=keeps)
                for tn in TABLE_TNS:
                    if min(max(tn, 0), 10) == tn_class:
                        tables[(group, keeps, tn)] = series if tn == tn_class else tuple(_at_tn(d, tn) for d in series)
    return MappingProxyType(tables)


def _series(tn: int, group: int, *, keeps: bool) -> tuple[PoolDist, ...]:
    """closed_form for 0..TABLE_DICE dice with the joint outcomes filled in now (never after import)."""
    out = tuple(d for d in closed_form(TABLE_DICE, tn, group, keeps=keeps) if d is not None)
    for d in out:
        d._outcomes = _joint(d.n, d._polys)
    return out


def _at_tn(d: PoolDist, tn: int) -> PoolDist:
    """The same distribution labelled with another TN that scores alike."""
    c = PoolDist.__new__(PoolDist)
    for name in PoolDist.__slots__:
        setattr(c, name, getattr(d, name))
    c.tn = tn
    return c


_TABLES = build_tables()
