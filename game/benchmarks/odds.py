"""Exact attack odds vs a pure-Python Monte Carlo: `odds_us` and `odds_speedup_vs_montecarlo` (COMBAT-4.*)."""
from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from game.benchmarks.goals import Better, Goal, goal_note
from game.core.odds.pools import TABLE_DICE, build_tables
from game.core.odds.ranged import ranged_round
from game.core.settings import Settings
from game.odds_cli import build_attack, odds_from_spec

GOALS = (Goal("odds_speedup_vs_montecarlo", Better.HIGHER, 1000),)
WEAPONS = {3: ("assault_rifle", False), 4: ("squad_lmg", False), 5: ("hmg", False), 6: ("smg", True),
           8: ("assault_rifle", True)}
ARMOURS = ("bdu", "improvised", "civilian", "military", "advanced", "mimetic", "exo")


def situations(count: int, seed: int = 20240611) -> list[dict[str, Any]]:
    """`count` distinct seeded ranged-attack descriptions of 3-8 dice (AK, LMG, HMG, SMG/AK Unload), each one the
    odds command accepts: ranges inside the weapon's band, armour given by its type (two save dice for Advanced
    and Exo, ARMORY-5.3.TABLE) or a creature's hide rating (ARMORY-5.3.NATURAL)."""
    from game.core.catalog import load_catalog

    cat = load_catalog()
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    seen: set[tuple[tuple[str, Any], ...]] = set()
    while len(out) < count:
        dice = rng.choice(sorted(WEAPONS))
        weapon, unload = WEAPONS[dice]
        band = cat.weapon(weapon).profile
        low, high = max(2.0, band.range_min or 0.0), min(30.0, band.range_max or 30.0)
        wounds = rng.choice((1, 1, 2, 3))
        creature = rng.random() < 0.3
        target: dict[str, Any] = {"creature": True, "armour_value": rng.randint(0, 8)} if creature else \
            {"armour_type": rng.choice(ARMOURS)} | ({"armour_value": rng.randint(0, 8)} if rng.random() < 0.5 else {})
        spec = {"ca": rng.randint(2, 9), "weapon": weapon, "unload": unload, "attacker_skills": "unload",
                "will": rng.choice(("NA", "4", "5", "6", "7", "8")), "wounds": wounds,
                "wounds_taken": rng.randint(0, wounds - 1),
                "cover": rng.choice(("none", "none", "soft", "hard", "hardened")), "obstructions": rng.randint(0, 2),
                "range": round(rng.uniform(low, high), 2), "aim": rng.random() < 0.3, "pinned": rng.random() < 0.2,
                "target_skills": "hard" if rng.random() < 0.2 else "",
                "target_items": "medkit" if rng.random() < 0.2 else "", "ai": rng.random() < 0.5, **target}
        key = tuple(sorted(spec.items()))
        if key in seen:
            continue
        seen.add(key)
        out.append(spec)
    return out


def _prepared(spec: dict[str, Any], settings: Settings) -> tuple[Callable[[], Any], Any]:
    """The query (numbers already taken from attack_numbers) and its inputs, for timing the distribution alone."""
    o = odds_from_spec(spec, settings=settings)
    nums, unit, sit, cat = build_attack(dict(spec_defaults(), **spec), settings=settings)
    return (lambda: ranged_round("attacker", "target", nums, unit, sit, catalog=cat, cache={})), o


def spec_defaults() -> dict[str, Any]:
    from game.odds_cli import FIELDS, FLAGS

    return {k: v[1] for k, v in FIELDS.items()} | {k: False for k in FLAGS}


def monte_carlo(o: Any, wounds_left: int, trials: int, seed: int) -> tuple[float, dict[str, float]]:
    """A plain loop on random.Random.random(): n dice at the hit TN with crits, one save roll per round, Wounds,
    OOA and the deflection Will check of a single-model target. Returns (seconds, estimates)."""
    n = o.numbers.dice
    tn = o.numbers.hit.value
    stn = o.numbers.save.value
    sd = o.numbers.save_dice
    will = o.numbers.will.value if o.numbers.will is not None else None
    wmax = wounds_left
    r = random.Random(seed).random
    wound_any = ooa = pinned = 0
    t0 = time.perf_counter()
    for _ in range(trials):
        hits = ones = tens = 0
        plain = 0
        for _ in range(n):
            f = int(r() * 10) + 1
            if f == 1:
                ones += 1
            elif f == 10:
                tens += 1
            if f <= tn:
                plain += 1
            if f == 1 or (f != 10 and f <= tn):
                hits += 1
        if ones and tens:
            hits = plain
        if not hits:
            continue
        saved = s1 = s10 = sp = 0
        for _ in range(hits):
            f = int(r() * 10) + 1
            if sd > 1:
                g = int(r() * 10) + 1
                f = f if f < g else g
            if f == 1:
                s1 += 1
            elif f == 10:
                s10 += 1
            if f <= stn:
                sp += 1
            if f == 1 or (f != 10 and f <= stn):
                saved += 1
        if s1 and s10:
            saved = sp
        wounds = hits - saved
        if wounds:
            wound_any += 1
        if wounds >= wmax:
            ooa += 1
            continue
        if saved and will is not None:
            f = int(r() * 10) + 1
            if f == 10 or (f != 1 and f > will - wounds):
                pinned += 1
    dt = time.perf_counter() - t0
    return dt, {"p_wound": wound_any / trials, "p_ooa": ooa / trials, "p_pinned_by_will": pinned / trials}


def run(quick: bool, say: Callable[[str], None]) -> dict[str, float]:
    settings = Settings.defaults()
    count = 200 if quick else 1000
    specs = situations(count)
    say(f"workload: exact ranged-attack distributions (hits, wounds, deflections, OOA, Will, Pins, crits) for {count} "
        f"distinct seeded situations of 3-8 dice; numbers from attack_numbers beforehand; per-query caches cleared")
    prepared = [_prepared(sp, settings) for sp in specs]
    t0 = time.perf_counter()
    tables = build_tables()
    say(f"  pool tables built at import (counted as code, not per query): {len(tables)} (save group, GAP-11, TN) "
        f"series of 0..{TABLE_DICE} dice in {(time.perf_counter() - t0) * 1e3:.1f} ms")
    times = []
    for query, _ in prepared:
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            query()
            best = min(best, time.perf_counter() - t0)
        times.append(best * 1e6)
    odds_us = statistics.median(times)
    say(f"  exact: median {odds_us:.1f} us, p90 {sorted(times)[int(0.9 * len(times))]:.1f} us per distribution")
    full = []
    for sp in specs[:200]:
        t0 = time.perf_counter()
        odds_from_spec(sp, settings=settings)
        full.append((time.perf_counter() - t0) * 1e6)
    say(f"  including profiles, attack_numbers and Fractions of the summary: median {statistics.median(full):.1f} us")
    trials = 20_000 if quick else 100_000
    subset = prepared[:20]
    mc_t, ex_t, errs = [], [], []
    for i, (query, o) in enumerate(subset):
        dt, est = monte_carlo(o, specs[i]["wounds"] - specs[i]["wounds_taken"], trials, seed=i)
        mc_t.append(dt * 1e6)
        best = float("inf")
        for _ in range(3):  # timed as in odds_us: best of 3 runs, caches cleared each run
            t0 = time.perf_counter()
            query()
            best = min(best, time.perf_counter() - t0)
        ex_t.append(best * 1e6)
        errs.append(abs(est["p_wound"] - float(o.target_round.p_wound)))
    mc_med, ex_med = statistics.median(mc_t), statistics.median(ex_t)
    say(f"  Monte Carlo ({trials} rolls, plain loop on random.Random.random()): median {mc_med / 1e3:.1f} ms per "
        f"situation = {mc_med / trials:.2f} us per trial; |error| of P(>=1 wound) median "
        f"{statistics.median(errs):.4f}, max {max(errs):.4f} (the exact answer has none)")
    ratio = mc_med / ex_med
    note = goal_note(GOALS, "odds_speedup_vs_montecarlo", ratio)
    say(f"  speed-up of the exact distribution over Monte Carlo on the same 20 situations: {ratio:.0f}x ({note})")
    return {"odds_us": round(odds_us, 2), "odds_speedup_vs_montecarlo": round(ratio, 1)}


__all__ = ["run", "situations", "monte_carlo"]
