"""The Zone's decisions (issue 14): `ZoneAgent().decide(state)` for an activated hostile unit, by the work it needed.

Workload: maps/ishikhov.tmx, the busiest playing table (334 pieces, four Hot Spot anchors; bench-town, busier,
is the geometry stress map, not a table of the rules). Per seeded situation: ten hostile units of eight forces
bound to the four Hot Spot anchors (12" leash; GEO-25 placement round a seeded point within 8" of the anchor, or
within 2" for about two units in five): packs of Feral Dogs (3 and 4), Zombies (3) and Rad Ghouls (2), four individual
Bandits and two Mutants. Then the twelve demo crew models (deployed once by the engine's random-legal
deployment, then placed again per situation by seeded rejection sampling with `position_fact`): three in base
contact with a hostile unit, half of the rest 3-14" from a Hot Spot, the others anywhere on the table. A third of
the units start locked (AI-D.02) on a crew model inside their 12" territory, its last known position a legal spot
1-6" from where it stands now.

Every unit of every situation is activated in its own copy of the state (`apply(Activate(unit))` with its side
deciding: Phase.ACTION, the memory checkpoint done), the per-query caches are cleared (the sight memo, as the sight
workload does; the compiled world, the nav graphs of every base size and the compiled kernels are built before and
stay, they never change with the models), then one `decide` is timed. Decisions are classed by `Decision.kind`
("standing": no path search; "moving": it searched for a move) and standing ones by the unit's size (a single
model, or a pack). Baseline, in the same process on the same activated states, caches cleared:
`exposure.choose_target` (AI-D.01, the ranking of the visible enemies). The slowest kind is then replayed under
cProfile (a seeded sample) and the top functions by cumulative and own time printed: where the time goes.
"""
from __future__ import annotations

import cProfile
import io
import math
import pstats
import random
import signal
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from game.benchmarks.goals import Better, Goal, goal_note

if TYPE_CHECKING:
    from game.ai.zone.agent import Decision, ZoneAgent
    from game.core.battlefield import Battlefield
    from game.core.state import GameState

MAP = Path(__file__).resolve().parents[2] / "maps" / "ishikhov.tmx"
GOALS = (Goal("hostile_decision_ms_standing", Better.LOWER, 2),
         Goal("hostile_decision_ms_standing_pack", Better.LOWER, 5),
         Goal("hostile_decision_ms_moving", Better.LOWER, 30),
         Goal("hostile_decision_ms_moving_p95", Better.LOWER, 100))
# (hostile catalog id, figures) per force, two forces per Hot Spot anchor: 4 packs and 6 single-model units
FORCES: dict[str, tuple[tuple[str, int], ...]] = {
    "hotspot-nw": (("dogs", 3), ("bandit", 2)),
    "hotspot-ne": (("zombies", 3), ("mutant", 1)),
    "hotspot-sw": (("ghouls", 2), ("bandit", 2)),
    "hotspot-se": (("dogs", 4), ("mutant", 1)),
}
NEAR = (3.0, 14.0)  # half the crew models stand this far from a Hot Spot (inside or near its 12" territory)
SPREAD = 8.0  # a unit is placed (GEO-25) round a seeded point this far at most from its anchor
AT_HOME, HOME_SPREAD = 0.4, 2.0  # or, for this share of the units, this far (inside AI-D.04 (c)'s 3")
CONTACTS = 3  # crew models placed in base contact with a hostile unit's lead model
CONTACT_GAP = 0.01  # edge gap of a base contact, inside geo.contact_tol
LOCKED = 1 / 3  # the share of units that start locked on a crew model inside their territory, seen elsewhere
TERRITORY = 12.0  # AI-D.02 (ii): a lock on a model neither seen nor inside this of the location is dropped
MOVED = (1.0, 6.0)  # ... at a legal spot this far from where the model stands now (its last known position)
SITUATIONS, QUICK_SITUATIONS = 48, 4
QUICK_CAP_S = 10.0  # --quick stops a decision after this long (the full run never does)
PROFILED, QUICK_PROFILED = 30, 6  # decisions of the slowest kind replayed under cProfile
DEPLOY_SEED, SITUATION_SEED = 14, 1000
PROFILE_LINES = 18  # profile lines by cumulative time
PROFILE_OWN = 8  # ... and by own time


@dataclass(frozen=True, slots=True)
class Timed:
    """One timed decision: the situation, the unit, its size, the decision's kind and rule, and the times."""

    situation: int
    unit: str
    models: int
    kind: str
    rule: str
    ms: float
    baseline_ms: float
    stopped: bool = False  # stopped at the cap (`decide_capped`): at least `ms`

    @property
    def klass(self) -> str:
        if self.kind == "moving":
            return "moving"
        return "standing_pack" if self.models > 1 else "standing"


def deployed(bf: Battlefield, seed: int) -> GameState:
    """The demo crews on the map, deployed by the random-legal agent (TURN-4) until the first activation."""
    from game.ai.random_agent import RandomAgent
    from game.core.rules.apply import apply
    from game.core.rules.setup import map_demo, new_game
    from game.core.state import Phase

    scen = map_demo(bf)
    st, _ = new_game(scen, seed, battlefield=bf)
    agents = {c.side: RandomAgent(seed * 1000 + i) for i, c in enumerate(scen.crews)}
    for _ in range(1000):
        if st.phase is Phase.ACTIVATE:
            return st
        apply(st, agents[st.deciding].choose(st))
    raise RuntimeError(f"{bf.name}: the demo crews did not finish deploying")


def _legal_spot(st: GameState, rng: random.Random, mid: str, *, near: tuple[float, float] | None = None,
                within: tuple[float, float] = NEAR, touch: str | None = None) -> tuple[float, float] | None:
    """A seeded legal spot for model `mid` by rejection (no overlap with terrain or another model; GEO-7): anywhere,
    `within` (3-14") of `near`, or in base contact with model `touch` (a `geo.contact_tol` gap); None when none is
    found."""
    from game.core.geometry.movement.positions import position_fact

    bf = st.battlefield
    m = st.models[mid]
    others = [o.base() for o in st.models.values() if o.in_play and o.deployed and o.id != mid]
    r = m.radius
    for _ in range(200 if touch is not None else 20000):
        a = rng.uniform(0.0, math.tau)
        if touch is not None:
            t = st.models[touch]
            d = r + t.radius + CONTACT_GAP
            x, y = t.x + d * math.cos(a), t.y + d * math.sin(a)
        elif near is not None:
            d = rng.uniform(*within)
            x, y = near[0] + d * math.cos(a), near[1] + d * math.sin(a)
        else:
            x, y = rng.uniform(r, bf.width - r), rng.uniform(r, bf.height - r)
        if not (r <= x <= bf.width - r and r <= y <= bf.height - r):
            continue
        if position_fact(bf, x, y, 0.0, radius=r, height=m.profile.height, others=others, mover=mid).legal:
            return x, y
    return None


def situation(base: GameState, seed: int) -> GameState:
    """One seeded situation: eight forces of ten units placed round the Hot Spot anchors (GEO-25, within their
    leash; some units at home, within 3" of it), then the crew models: a few in base contact with a hostile, half
    of the rest 3-14" from a Hot Spot, the others anywhere; a third of the units locked on a crew model last seen
    elsewhere (AI-D.02; a crew model inside the unit's 12" territory, so the lock would have survived)."""
    from game.core.dice import ScriptedDice
    from game.core.rules.context import Ctx
    from game.core.rules.dispatch import ACTIONS
    from game.core.rules.spawn import add_units, new_force, place_unit
    from game.core.state import LocationState

    rng = random.Random(seed)
    st = base.clone()
    bf = st.battlefield
    anchors = {a.name: a.point for a in bf.anchors if a.kind == "hotspot"}
    crew = [m for m in st.models.values() if m.in_play]
    for m in crew:
        m.deployed = False  # off the table while the hostiles are placed
    ctx = Ctx(st, ScriptedDice([]), bf, ACTIONS)
    units: list[str] = []
    for name, forces in FORCES.items():
        ax, ay = anchors[name]
        for j, (hostile, figures) in enumerate(forces):
            lid = name if j == 0 else f"{name}-{j + 1}"
            loc = LocationState(lid, f"the {name}", "hotspot", float(ax), float(ay), 2, triggered=True)
            st.locations[lid] = loc
            force = new_force(ctx, side=f"zone-{lid}", name=f"{hostile} of {lid}", hostile=hostile, location=loc,
                              actions=2, roll=None)
            for models in add_units(ctx, force, figures):
                d = rng.uniform(0.0, HOME_SPREAD if rng.random() < AT_HOME else SPREAD)
                a = rng.uniform(0.0, math.tau)
                place_unit(ctx, models, (ax + d * math.cos(a), ay + d * math.sin(a)), force.centre)
                units.append(models[0].unit)
            st.order.append(force.side)
    rng.shuffle(crew)
    touched = rng.sample(units, CONTACTS)
    for k, m in enumerate(crew):
        spot = None
        if k < CONTACTS:
            lead = st.units[touched[k]].models[0]
            if st.models[lead].deployed:
                spot = _legal_spot(st, rng, m.id, touch=lead)
        if spot is None:
            near = anchors[rng.choice(sorted(anchors))] if k % 2 == 0 else None
            spot = _legal_spot(st, rng, m.id, near=near)
        if spot is None:
            spot = _legal_spot(st, rng, m.id)
        if spot is None:
            raise RuntimeError(f"no legal spot for {m.id}")
        m.x, m.y = spot
        m.z, m.deployed = 0.0, True
    for u in units:
        centre = st.forces[st.units[u].side].centre
        assert centre is not None
        inside = [m for m in crew if math.hypot(m.x - centre[0], m.y - centre[1]) <= TERRITORY]
        if inside and rng.random() < LOCKED:  # a lock survives an activation unseen only inside the territory
            t = rng.choice(inside)
            seen = _legal_spot(st, rng, t.id, near=(t.x, t.y), within=MOVED)  # where it stood when last seen
            if seen is not None:
                mem = st.ai[u]
                mem.lock, mem.last_known = t.id, [seen[0], seen[1]]
    return st


def warm(st: GameState) -> None:
    """What every decision on this map shares and never changes with the models: the nav graph of every base size
    on the table and the terrain of each level for its height (built on first use, kept in `Battlefield.cache`)."""
    from game.core.geometry.movement.graph import graph
    from game.core.geometry.terrain import levels, pieces_at

    bf = st.battlefield
    for r, h in sorted({(m.radius, m.profile.height) for m in st.models.values() if m.in_play}):
        graph(bf, r, h)
        for lv in levels(bf):
            pieces_at(bf, lv.z, h)


def units_of(st: GameState) -> list[str]:
    """The hostile units with every model on the table, in id order."""
    return sorted(u for u, un in st.units.items() if un.side in st.forces
                  and all(st.models[m].deployed and st.models[m].in_play for m in un.models))


def activated(st: GameState, unit: str) -> GameState | None:
    """A copy of the state with `unit` activated by its side (Phase.ACTION), None when the engine refuses."""
    from game.core.actions import Activate, IllegalAction
    from game.core.rules.apply import apply
    from game.core.state import Phase

    s = st.clone()
    s.phase = Phase.ACTIVATE
    s.deciding = s.units[unit].side
    try:
        apply(s, Activate(unit))
    except IllegalAction:
        return None
    return s if s.phase is Phase.ACTION and s.activation is not None and s.activation.unit == unit else None


def clear_caches(bf: Battlefield) -> None:
    """Forget every answer memoised for one query (the sight memo); the world, graphs and kernels stay."""
    from game.core.geometry.sight.world import clear_query_caches

    clear_query_caches(bf)


class _Overrun(Exception):
    """A decision stopped at the cap (see `decide_capped`)."""


def decide_capped(agent: ZoneAgent, s: GameState, cap_s: float | None) -> tuple[float, Decision | None]:
    """(ms, decision) of one `agent.decide(s)`; with `cap_s` (where SIGALRM exists) a decision still running after
    `cap_s` seconds is stopped: (cap in ms, None). Only a search takes that long, so a stopped one is a moving one."""
    use_cap = cap_s is not None and hasattr(signal, "setitimer")
    running = [True]  # the alarm stops only a decision still running: one that fires after it returned is ignored

    def overrun(signum: int, frame: object) -> None:
        if running[0]:
            raise _Overrun

    old = signal.signal(signal.SIGALRM, overrun) if use_cap else None
    t0 = time.perf_counter()
    try:
        if use_cap:
            assert cap_s is not None
            signal.setitimer(signal.ITIMER_REAL, cap_s)
        dec = agent.decide(s)
        running[0] = False
    except _Overrun:
        assert cap_s is not None
        return 1000 * cap_s, None
    finally:
        if use_cap:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    return 1000 * (time.perf_counter() - t0), dec


def measure(states: Sequence[GameState], cap_s: float | None = None) -> list[Timed]:
    """One timed decision per activatable unit per situation, caches cleared before each, with its baseline
    (`choose_target` on the same activated state, caches cleared before it too)."""
    from game.ai.zone.agent import ZoneAgent
    from game.ai.zone.look import Tuning
    from game.core.rules.exposure import choose_target

    agent = ZoneAgent()
    out: list[Timed] = []
    for i, st in enumerate(states):
        for unit in units_of(st):
            s = activated(st, unit)
            if s is None:
                continue
            tune = Tuning.of(s)
            clear_caches(s.battlefield)
            t0 = time.perf_counter()
            choose_target(s, unit, close_tol=tune.close_tol, hostile_vs_hostile=tune.hostile_vs_hostile)
            base_ms = 1000 * (time.perf_counter() - t0)
            clear_caches(s.battlefield)
            ms, dec = decide_capped(agent, s, cap_s)
            out.append(Timed(i, unit, len(s.units[unit].models), dec.kind if dec else "moving",
                             dec.reason["rule"] if dec else "stopped", ms, base_ms, dec is None))
    return out


def p95(xs: Sequence[float]) -> float:
    """The 95th percentile (nearest rank).

    >>> p95(list(range(1, 101)))
    95
    """
    ys = sorted(xs)
    return ys[max(0, math.ceil(0.95 * len(ys)) - 1)]


def profile(states: Sequence[GameState], rows: Sequence[Timed], klass: str, limit: int) -> tuple[int, float, list[str]]:
    """cProfile of a seeded sample of at most `limit` decisions of one class (none stopped at the cap), replayed
    on fresh activated copies with the caches cleared: how many, their profiled seconds, and the lines of where the
    time goes (the top functions by cumulative time, then by own time, each with its share)."""
    from game.ai.zone.agent import ZoneAgent

    agent = ZoneAgent()
    mine = [r for r in rows if r.klass == klass and not r.stopped]
    picked = sorted(random.Random(len(mine)).sample(range(len(mine)), min(limit, len(mine))))
    prof = cProfile.Profile()
    done = 0
    for k in picked:
        s = activated(states[mine[k].situation], mine[k].unit)
        if s is None:
            continue
        clear_caches(s.battlefield)
        prof.enable()
        agent.decide(s)
        prof.disable()
        done += 1
    if not done:
        return 0, 0.0, []
    raw = pstats.Stats(prof, stream=io.StringIO()).stats  # type: ignore[attr-defined]
    total = max(ct for _cc, _nc, _tt, ct, _callers in raw.values())  # the decide() calls themselves

    def where(key: tuple[str, int, str]) -> str:
        file, line, func = key
        return f"{func}" if file == "~" else f"{Path(file).stem}.{func}:{line}"

    def table(col: int, n: int) -> list[str]:
        top = sorted(raw.items(), key=lambda kv: -kv[1][col])[:n]
        return [f"{v[col]:8.2f} s {100 * v[col] / total:5.1f}%  {v[1]:>8} calls  {where(k)}" for k, v in top]

    return done, total, (["by cumulative time:", *table(3, PROFILE_LINES), "by own time:", *table(2, PROFILE_OWN)])


def _summary(rows: Sequence[Timed], klass: str) -> str:
    ms = [r.ms for r in rows if r.klass == klass]
    if not ms:
        return f"{klass}: none"
    return (f"{klass}: {len(ms)} decisions, median {statistics.median(ms):.2f} ms, p95 {p95(ms):.2f} ms, "
            f"max {max(ms):.2f} ms")


def run(quick: bool, say: Callable[[str], None], *, situations: int | None = None, cap_s: float | None = None,
        profile_n: int | None = None) -> dict[str, float]:
    """`hostile_decision_ms_standing` / `_standing_pack` (median of standing decisions of single-model units /
    packs), `hostile_decision_ms_moving` and `_moving_p95` (median and 95th percentile of moving decisions); under
    `quick` fewer situations and each decision stopped at QUICK_CAP_S (the count is printed and returned)."""
    from collections import Counter

    from game.ai.zone.agent import ZoneAgent
    from game.maps.loader import load_map

    n = situations if situations is not None else (QUICK_SITUATIONS if quick else SITUATIONS)
    cap = cap_s if cap_s is not None else (QUICK_CAP_S if quick else None)
    n_prof = profile_n if profile_n is not None else (QUICK_PROFILED if quick else PROFILED)
    t0 = time.perf_counter()
    bf = load_map(MAP)
    base = deployed(bf, DEPLOY_SEED)
    first = situation(base, 0)
    warm(first)
    for unit in units_of(first)[:3]:
        s = activated(first, unit)
        if s is not None:
            ZoneAgent().decide(s)  # the compiled kernels and the catalog once, not timed
    say(f"setup: map, deployment, nav graphs of every base size and the kernels in {time.perf_counter() - t0:.1f} s "
        "(not timed)")
    states = [situation(base, SITUATION_SEED + k) for k in range(n)]
    n_units = round(statistics.mean(len(units_of(st)) for st in states), 1)
    say(f"workload: {MAP.name} ({len(bf.pieces)} pieces), the 12 demo crew models, {n} distinct seeded situations x "
        f"{n_units:g} hostile units of {sum(len(f) for f in FORCES.values())} forces on the 4 Hot Spot anchors "
        "(packs: dogs x3, zombies x3, ghouls x2, dogs x4; single: 4 bandits, 2 mutants); one decide() per unit per "
        "situation on its own activated copy, the sight memo cleared before each"
        + (f"; a decision still running after {cap:g} s is stopped and counted as moving at {cap:g} s" if cap else ""))
    t1 = time.perf_counter()
    rows = measure(states, cap)
    kinds = Counter(r.klass for r in rows)
    rules = Counter((r.klass, r.rule) for r in rows)
    stopped = sum(r.stopped for r in rows)
    say(f"{len(rows)} decisions in {time.perf_counter() - t1:.1f} s: " +
        ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) + "; by kind/rule: " +
        ", ".join(f"{k}/{r} {v}" for (k, r), v in sorted(rules.items())) +
        (f"; {stopped} stopped at the {cap:g} s cap" + (", so the moving figures are lower bounds" if stopped else "")
         if cap else ""))
    base_ms = statistics.median(r.baseline_ms for r in rows)
    say(f"baseline exposure.choose_target (AI-D.01, the ranking of the visible enemies) on the same activated states: "
        f"median {base_ms:.3f} ms")
    out: dict[str, float] = {}
    for klass, metric in (("standing", "hostile_decision_ms_standing"),
                          ("standing_pack", "hostile_decision_ms_standing_pack"),
                          ("moving", "hostile_decision_ms_moving")):
        ms = [r.ms for r in rows if r.klass == klass]
        if not ms:
            say(f"{metric}: no {klass} decision in this workload (not measured)")
            continue
        med = statistics.median(ms)
        out[metric] = round(med, 3)
        say(f"{metric} {med:.2f} median over {len(ms)} (p95 {p95(ms):.2f}, max {max(ms):.2f}); baseline "
            f"{base_ms:.3f} ms -> {med / base_ms:.2g}x; {goal_note(GOALS, metric, med)}")
        if klass == "moving":
            q = p95(ms)
            out["hostile_decision_ms_moving_p95"] = round(q, 3)
            say(f"hostile_decision_ms_moving_p95 {q:.2f} over {len(ms)}; baseline {base_ms:.3f} ms -> "
                f"{q / base_ms:.2g}x; {goal_note(GOALS, 'hostile_decision_ms_moving_p95', q)}")
    for (klass, rule), k in sorted(rules.items()):
        ms = [r.ms for r in rows if r.klass == klass and r.rule == rule]
        say(f"  {klass}/{rule}: {k} decisions, median {statistics.median(ms):.2f} ms, max {max(ms):.2f} ms")
    out["hostile_baseline_choose_target_ms"] = round(base_ms, 4)
    out["hostile_decisions"] = float(len(rows))
    if cap:
        out["hostile_decisions_stopped"] = float(stopped)
    meds = {k: statistics.median([r.ms for r in rows if r.klass == k]) for k in kinds}
    slowest = max(meds, key=lambda k: meds[k])
    done, total, lines = profile(states, rows, slowest, n_prof)
    say(f"profile of the slowest kind, {slowest}: {done} of its {kinds[slowest]} decisions replayed (a seeded sample) "
        f"under cProfile, {total:.1f} s in all:")
    for line in lines:
        say("  " + line)
    return out
