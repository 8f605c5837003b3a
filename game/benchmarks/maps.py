"""Map loading speed: the shipped map with the most edges, loaded with its per-map query structures."""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from game.benchmarks.goals import Better, Goal, goal_note
from game.maps.safexml import parse_bytes

MAPS_DIR = Path(__file__).resolve().parents[2] / "maps"
GOALS = (Goal("map_load_ms", Better.LOWER, 300),)


def edge_count(path: Path) -> int:
    """The terrain edges of a map file (polygon vertices of its loadable Terrain objects): picks the bench map."""
    from game.maps.loader import read_map

    parsed = read_map(path)
    return sum(len(m.points) for m in parsed.objects if m.ok and m.cls == "Terrain")


def run(quick: bool, say: Callable[[str], None]) -> dict[str, float]:
    """`map_load_ms`: median wall time of `load_map` (XML, pytmx, inches, Battlefield, shapely footprints and
    STRtree) plus the LOS world every sight/cover/template query uses (`sightworld.build_world`, JIT excluded)
    on the shipped map with the most terrain edges; baseline: parsing the same XML only."""
    from game.core.geometry.sight.world import world_of
    from game.maps.loader import load_map

    maps = sorted(MAPS_DIR.glob("*.tmx"))
    if not maps:
        raise SystemExit(f"no maps under {MAPS_DIR}")
    edges = {p: edge_count(p) for p in maps}
    path = max(maps, key=lambda p: (edges[p], p.name))
    runs = 5 if quick else 15
    bf = load_map(path)
    world_of(bf)  # warm any lazy imports outside the timed loop
    say(f"workload: load_map({path.name}) + world_of() x{runs}: {len(bf.pieces)} pieces, {edges[path]} edges, "
        f"{len(bf.connectors)} connectors, {len(bf.anchors)} anchors; includes footprints, STRtree, LOS world")
    data = path.read_bytes()
    base: list[float] = []
    times: list[float] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        parse_bytes(data, "bench")
        base.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        world_of(load_map(path))
        times.append(time.perf_counter() - t0)
    ms = statistics.median(times) * 1000
    base_ms = statistics.median(base) * 1000
    say(f"map_load_ms {ms:.1f} (min {min(times) * 1000:.1f}); baseline defused XML parse only {base_ms:.1f} ms "
        f"-> load is {ms / base_ms:.1f}x the parse; ms {goal_note(GOALS, 'map_load_ms', ms)}")
    return {"map_load_ms": round(ms, 2)}
