"""Sight speed (GEO-10, GEO-12..14): checks per second against the naive reference, and all-pairs LOS in one frame.

Workload: the shipped map in maps/ with the most terrain edges; random legal 1" bases (no overlap with
terrain impassable at their level, a third standing on raised surfaces); pair lengths uniform in 3-30".
A check = LOS both ways + the target's cover and obstructions against the attacker. Every fast verdict
is asserted equal to the naive reference's (pure Python, every edge of every piece per ray).
"""
from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import shapely

from game.benchmarks.goals import Better, Goal, goal_note
from game.core.battlefield import Base, Battlefield, Movement, Scene
from game.core.geometry.sight.batch import all_pairs, check_pairs, naive_check
from game.core.geometry.sight.cover import cover_against
from game.core.geometry.sight.jit import kernels
from game.core.geometry.sight.los import line_of_sight
from game.core.geometry.sight.world import clear_query_caches, world_of

MAPS_DIR = Path(__file__).resolve().parents[2] / "maps"
RADIUS = 0.5
HEIGHT = 1.25
GOALS = (Goal("los_speedup_vs_naive", Better.HIGHER, 30), Goal("allpairs_los_ms", Better.LOWER, 16.7))


def bench_map() -> tuple[Battlefield, int]:
    """The shipped map with the most terrain edges (outer rings and holes), and that count."""
    from game.maps.loader import load_map  # the only pytmx user

    best: tuple[Battlefield, int] | None = None
    for path in sorted(MAPS_DIR.glob("*.tmx")):
        bf = load_map(path)
        edges = sum(len(p.footprint) + sum(len(h) for h in p.holes) for p in bf.pieces)
        if best is None or edges > best[1]:
            best = (bf, edges)
    if best is None:
        raise FileNotFoundError(f"no .tmx map in {MAPS_DIR}: the sight benchmark runs on the shipped maps")
    return best


class Placer:
    """Random legal positions for 1" bases: ground or the top of a `surface` piece (GEO-7 as far as needed)."""

    def __init__(self, bf: Battlefield, rng: random.Random) -> None:
        self.bf = bf
        self.rng = rng
        self.polys = [shapely.Polygon(p.footprint, p.holes) for p in bf.pieces]
        self.tree = shapely.STRtree(self.polys)
        self.surfaces = [(i, self.polys[i].buffer(-RADIUS)) for i, p in enumerate(bf.pieces) if p.surface]
        self.surfaces = [(i, s) for i, s in self.surfaces if not s.is_empty]

    def legal(self, x: float, y: float, z: float) -> bool:
        if not (RADIUS <= x <= self.bf.width - RADIUS and RADIUS <= y <= self.bf.height - RADIUS):
            return False
        disc = shapely.Point(x, y).buffer(RADIUS, quad_segs=8)
        for i in self.tree.query(disc, predicate="intersects"):
            p = self.bf.pieces[i]
            if p.movement is Movement.IMPASSABLE and p.impassable_at(z, HEIGHT):
                return False
        return True

    def raised(self, near: tuple[float, float] | None = None, length: float = 0.0) -> tuple[float, float, float] | None:
        i, area = self.rng.choice(self.surfaces)
        if near is not None:  # only the part of the surface about `length` from `near`
            centre = shapely.Point(near)
            area = area.intersection(centre.buffer(length + 0.25).difference(centre.buffer(max(length - 0.25, 0.0))))
            if area.is_empty:
                return None
        minx, miny, maxx, maxy = area.bounds
        for _ in range(30):
            x, y = self.rng.uniform(minx, maxx), self.rng.uniform(miny, maxy)
            z = self.bf.pieces[i].top_z
            if area.contains(shapely.Point(x, y)) and self.legal(x, y, z):
                return x, y, z
        return None

    def ground(self, near: tuple[float, float] | None = None, length: float = 0.0) -> tuple[float, float, float] | None:
        for _ in range(30):
            if near is None:
                x, y = (self.rng.uniform(RADIUS, self.bf.width - RADIUS),
                        self.rng.uniform(RADIUS, self.bf.height - RADIUS))
            else:
                a = self.rng.uniform(0.0, 2.0 * math.pi)
                x, y = near[0] + length * math.cos(a), near[1] + length * math.sin(a)
            if self.legal(x, y, 0.0):
                return x, y, 0.0
        return None

    def place(self, near: tuple[float, float] | None = None, length: float = 0.0) -> tuple[float, float, float]:
        """A legal spot, a third of the time on a raised surface; with `near`, `length` from it (centres)."""
        while True:
            if self.rng.random() < 1.0 / 3.0:
                spot = None
                for _ in range(40):
                    spot = self.raised(near, length)
                    if spot is not None:
                        break
            else:
                spot = self.ground(near, length)
            if spot is not None:
                return spot


def _base(mid: str, spot: tuple[float, float, float], side: str) -> Base:
    return Base(mid, spot[0], spot[1], spot[2], RADIUS, HEIGHT, side)


def make_queries(placer: Placer, n: int) -> list[Scene]:
    """n distinct two-model scenes, attacker A and target T, centre distance uniform in 3-30"."""
    out: list[Scene] = []
    while len(out) < n:
        a = placer.place()
        length = placer.rng.uniform(3.0, 30.0)
        t = placer.place((a[0], a[1]), length)
        if math.hypot(t[0] - a[0], t[1] - a[1]) >= 2 * RADIUS + 1e-6:
            out.append(Scene(bases=(_base("A", a, "crew"), _base("T", t, "hostile"))))
    return out


def make_board_scene(placer: Placer, crew: int = 12, hostiles: int = 24) -> Scene:
    """36 non-overlapping models, a third on raised surfaces."""
    bases: list[Base] = []
    while len(bases) < crew + hostiles:
        spot = placer.place()
        if all(math.hypot(spot[0] - b.x, spot[1] - b.y) >= 2 * RADIUS for b in bases):
            side = "crew" if len(bases) < crew else "hostile"
            bases.append(_base(f"{side}-{len(bases)}", spot, side))
    return Scene(bases=tuple(bases))


def _timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def run(quick: bool, say: Callable[[str], None]) -> dict[str, float]:
    bf, edges = bench_map()
    world = world_of(bf)
    say(f"map {bf.source or bf.name}: {len(bf.pieces)} pieces, {edges} edges, {bf.width:g}x{bf.height:g}\"")
    pair = Scene(bases=(_base("A", (1, 1, 0), "c"), _base("T", (5, 1, 0), "h")))
    warm = _timed(lambda: (kernels(), check_pairs(bf, pair, [("A", "T")])))
    say(f"kernels ready in {warm:.2f} s (compiled: {kernels().compiled}; JIT or disk cache on first use)")
    rng = random.Random(20240604)
    placer = Placer(bf, rng)
    n_fast = 1000
    n_naive = 60 if quick else 1000
    queries = make_queries(placer, n_fast)
    say(f"checks: {n_fast} distinct (A, T) pairs, lengths uniform 3-30\", a third raised; naive on {n_naive}")

    fast_times, verdicts = [], []
    for sc in queries:
        clear_query_caches(bf)
        t0 = time.perf_counter()
        verdicts.append(check_pairs(bf, sc, [("A", "T")])[0])
        fast_times.append(time.perf_counter() - t0)
    naive_total = 0.0
    for sc, v in zip(queries[:n_naive], verdicts, strict=False):
        clear_query_caches(bf)
        t0 = time.perf_counter()
        ref = naive_check(bf, sc, "A", "T")
        naive_total += time.perf_counter() - t0
        assert ref == v, f"fast verdict differs from the naive reference:\n fast  {v}\n naive {ref}\n scene {sc}"
    fast_same = sum(fast_times[:n_naive])
    fact_times = []
    for sc in queries[:200]:
        clear_query_caches(bf)
        t0 = time.perf_counter()
        line_of_sight(bf, sc, "A", "T")
        cover_against(bf, sc, "A", "T")
        fact_times.append(time.perf_counter() - t0)
    vis = sum(v.visible for v in verdicts)
    say(f"  verdicts: {vis}/{n_fast} visible, {sum(v.cover.rank > 1 for v in verdicts)} in cover, "
        f"{sum(v.elevated for v in verdicts)} elevated, {sum(v.obstruction_count for v in verdicts)} obstructions")
    say(f"  fast  {1e6 * sum(fast_times) / n_fast:9.1f} us/check (one compiled call per check)")
    speedup = naive_total / fast_same
    say(f"  naive {1e6 * naive_total / n_naive:9.1f} us/check "
        f"(same {n_naive} checks: fast {1e6 * fast_same / n_naive:.1f} us, speed-up {speedup:,.0f}x; "
        f"{goal_note(GOALS, 'los_speedup_vs_naive', speedup)})")
    say(f"  facts {1e6 * statistics.mean(fact_times):9.1f} us/check (line_of_sight + cover_against, with reasons)")
    say(f"  all {n_naive} fast verdicts equal the naive reference")

    n_scenes = 10 if quick else 40
    scenes = [make_board_scene(placer) for _ in range(n_scenes)]
    all_pairs(bf, scenes[0])
    ms = []
    for sc in scenes:  # best of 3 per scene (the machine is shared), median over scenes
        runs = []
        for _ in range(3):
            clear_query_caches(bf)
            runs.append(1000 * _timed(partial(all_pairs, bf, sc)))
        ms.append(min(runs))
    table = all_pairs(bf, scenes[0])
    for a, t in [(table.ids[0], table.ids[5]), (table.ids[20], table.ids[3]), (table.ids[35], table.ids[12])]:
        assert table.verdict(a, t) == naive_check(bf, scenes[0], a, t)
    n_vis = int(table.visible().sum())
    note = goal_note(GOALS, "allpairs_los_ms", statistics.median(ms))
    say(f"all pairs: 36 models (12 crew, 24 hostiles), 1,260 ordered pairs, {n_scenes} scenes: median "
        f"{statistics.median(ms):.2f} ms (best of 3 per scene; {note}), max {max(ms):.2f} ms "
        f"({n_vis} of 1,260 visible in the first scene)")
    return {
        "los_checks_per_s": n_fast / sum(fast_times),
        "los_naive_checks_per_s": n_naive / naive_total,
        "los_speedup_vs_naive": speedup,
        "los_facts_per_s": len(fact_times) / sum(fact_times),
        "allpairs_los_ms": statistics.median(ms),
        "sight_map_edges": float(edges),
        "sight_world_pieces": float(world.n_pieces),
    }
