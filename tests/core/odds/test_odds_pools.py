"""The pool distributions behind the exact odds (INTRO-1.2.D10, INTRO-1.2.CRIT-*, GAP-11, GAP-14): the import-time
tables and the closed form equal `evaluate_pool` over every face tuple and the dynamic programme over dice."""
from __future__ import annotations

import itertools
from types import MappingProxyType

import pytest

from game.core.dice import evaluate_pool
from game.core.odds.pools import _TABLES, TABLE_DICE, TABLE_TNS, closed_form, dynamic, pool_dist, pool_dists
from game.core.settings import Settings

VARIANTS = {
    "default": {},
    "mix_keeps_auto": {"crit.mix_keeps_auto": True},
    "any_die": {"crit.best_of_two": "any_die"},
    "no_crits": {"crit.enabled": False},
}


def _joint(pd) -> dict[tuple[int, str], int]:
    return {(k, c.value): w for k, c, w in pd.outcomes}


def _brute(n: int, tn: int, group: int, s: Settings) -> dict[tuple[int, str], int]:
    """Every face tuple scored as combat.roll_saves does: the lowest die of each group kept, crits on the kept
    dice, or on every die with `crit.best_of_two`=any_die (GAP-14)."""
    out: dict[tuple[int, str], int] = {}
    for faces in itertools.product(range(1, 11), repeat=n * group):
        groups = [faces[i * group:(i + 1) * group] for i in range(n)]
        kept = tuple(min(g) for g in groups)
        res = evaluate_pool(kept, tn, settings=s)
        crit = res.crit
        if group > 1 and s["crit.best_of_two"] == "any_die":
            crit = evaluate_pool(faces, tn, settings=s).crit
        key = (res.successes, crit.value)
        out[key] = out.get(key, 0) + 1
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_single_dice_pools_equal_evaluate_pool_over_every_face(variant):
    """INTRO-1.2.CRIT-MIX / GAP-11: 0..3 dice at every TN class (<= 0, 1..9, >= 10), every face tuple."""
    s = Settings(VARIANTS[variant])
    for tn in (-3, 0, 1, 2, 5, 9, 10, 12):
        for n in range(4):
            pd = pool_dist(n, tn, settings=s)
            assert pd.denom == 10 ** n
            assert _joint(pd) == _brute(n, tn, 1, s), (variant, tn, n)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_best_of_two_pools_equal_roll_saves_over_every_face(variant):
    """COMBAT-4.1.SAVE / GAP-14: best-of-two armour, 1 and 2 hits, crits on the kept die or on any die."""
    s = Settings(VARIANTS[variant])
    for tn in (-1, 0, 1, 6, 9, 10, 11):
        for n in (1, 2):
            pd = pool_dist(n, tn, group=2, settings=s)
            assert pd.denom == 100 ** n
            assert _joint(pd) == _brute(n, tn, 2, s), (variant, tn, n)


def test_tables_equal_the_dynamic_programme():
    """The import-time tables hold, for every TN in TABLE_TNS and 0..TABLE_DICE dice, exactly the dynamic
    programme's distribution, marginals included (INTRO-1.2.CRIT-*, GAP-11)."""
    assert isinstance(_TABLES, MappingProxyType)
    for group, keeps in itertools.product((1, 2), (False, True)):
        s = Settings({"crit.mix_keeps_auto": keeps})
        for tn in TABLE_TNS:
            ref = dynamic(TABLE_DICE, tn, group, crits=True, keeps=keeps, mode="kept_die_only")
            got = pool_dists(TABLE_DICE, tn, group=group, settings=s)
            assert got is not ref and len(got) == TABLE_DICE + 1
            for a, b in zip(got, ref, strict=False):
                assert (a.n, a.tn, a.denom, a.by_succ, a.fail_by_succ) == (b.n, b.tn, b.denom, b.by_succ,
                                                                           b.fail_by_succ)
                assert dict(a.by_crit) == dict(b.by_crit) and _joint(a) == _joint(b)
                assert a._outcomes is not None  # filled at import: the tables never change afterwards


def test_outside_the_tables_the_closed_form_still_equals_the_dynamic_programme():
    """More dice than the tables hold, and TNs beyond TABLE_TNS, are computed per query with the same result."""
    for keeps, tn, group in itertools.product((False, True), (-20, -7, 3, 17, 30), (1, 2)):
        n = TABLE_DICE + 2
        a = closed_form(n, tn, group, keeps=keeps, only_last=True)[n]
        b = dynamic(n, tn, group, crits=True, keeps=keeps, mode="kept_die_only", only_last=True)[n]
        assert a is not None and b is not None
        assert (a.by_succ, a.fail_by_succ, dict(a.by_crit), _joint(a)) == (b.by_succ, b.fail_by_succ, dict(b.by_crit),
                                                                           _joint(b))
        s = Settings({"crit.mix_keeps_auto": keeps})
        cache: dict = {}
        c = pool_dist(n, tn, group=group, settings=s, cache=cache)
        assert c.tn == tn and c.by_succ == b.by_succ and cache[(n, tn, group)] is c
