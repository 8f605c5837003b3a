"""Write maps/bench-town.tmx: a seeded 48"x48" town of 40+ buildings, woods and hedges (the load benchmark)."""
from __future__ import annotations

import argparse
import math
import random
from pathlib import Path

from game.tools.tmxwriter import Building, Opening, TmxMap, add_building

ROOT = Path(__file__).resolve().parents[2]
SIZE = 48
STREET_IN = 1.5  # clearance between buildings
ZONE_DEPTH_IN = 3.0


def _openings(rng: random.Random, w: float, h: float, storeys: int) -> tuple[Opening, ...]:
    """A 1.5" door on one side of the ground storey and 1" windows elsewhere, 0.75" clear of the corners."""
    out: list[Opening] = []
    sides = ["n", "s", "e", "w"]
    rng.shuffle(sides)
    for k in range(storeys):
        for side in sides:
            length = w if side in "ns" else h
            slots = [(1.5, False)] if (k == 0 and side == sides[0]) else []
            slots += [(1.0, True)] * (rng.random() < 0.8) + [(1.0, True)] * (length > 6 and rng.random() < 0.5)
            at = 0.75
            for i, (width, window) in enumerate(slots):
                rest = sum(s for s, _ in slots[i:]) + 0.5 * (len(slots) - i - 1)
                slack = length - 0.75 - at - rest
                if slack < 0:
                    break
                at += rng.uniform(0.0, slack / (len(slots) - i))
                out.append(Opening(side, round(at * 4) / 4 if window else at, width, k, window))
                at = out[-1].at + width + 0.5
    return tuple(out)


COLS, ROWS = 8, 6  # town blocks between the deployment zones
OPEN_CELLS = 6  # blocks left for woods and hedged gardens


def _cells() -> list[tuple[float, float, float, float]]:
    top, bottom = ZONE_DEPTH_IN + 1.0, SIZE - ZONE_DEPTH_IN - 1.0
    cw, ch = SIZE / COLS, (bottom - top) / ROWS
    return [(c * cw, top + r * ch, cw, ch) for r in range(ROWS) for c in range(COLS)]


def _building(rng: random.Random, n: int, cell: tuple[float, float, float, float]) -> Building:
    """A building inside its block, jittered, leaving a 1.5" street to every neighbour."""
    cx, cy, cw, ch = cell
    storeys = 2 if rng.random() < 0.4 else 1
    w = round(rng.uniform(3.5, cw - STREET_IN) * 4) / 4
    h = round(rng.uniform(4.5 if storeys == 2 else 3.5, ch - STREET_IN) * 4) / 4
    x = round((cx + STREET_IN / 2 + rng.uniform(0, cw - STREET_IN - w)) * 4) / 4
    y = round((cy + STREET_IN / 2 + rng.uniform(0, ch - STREET_IN - h)) * 4) / 4
    access = "ladder" if storeys == 1 and rng.random() < 0.5 else "none"
    return Building(f"b{n:02d}", x, y, w, h, storeys=storeys, openings=_openings(rng, w, h, storeys),
                    access=access, ruin=rng.random() < 0.15, anchor=f"structure-{n}")


def _woods(m: TmxMap, rng: random.Random, n: int, cell: tuple[float, float, float, float]) -> None:
    cx, cy, cw, ch = cell
    k = rng.randint(8, 12)
    rx, ry = cw / 2 - 0.75, ch / 2 - 0.75
    pts = [(round(cx + cw / 2 + rx * rng.uniform(0.75, 1.0) * math.cos(2 * math.pi * i / k), 3),
            round(cy + ch / 2 + ry * rng.uniform(0.75, 1.0) * math.sin(2 * math.pi * i / k), 3)) for i in range(k)]
    m.polygon("ground", "Terrain", f"woods-{n}", pts, area="woods", kind="woods", cover="soft", top_in=4.0)


def _garden(m: TmxMap, rng: random.Random, n: int, cell: tuple[float, float, float, float]) -> None:
    """Hedges along three sides of a block, a gap on the fourth; a shed-sized rubble heap inside."""
    cx, cy, cw, ch = cell
    x0, y0, x1, y1 = cx + 0.75, cy + 0.75, cx + cw - 0.75, cy + ch - 0.75
    m.terrain("ground", "hedge", f"hedge-{n}-n", x0, y0, x1 - x0, 0.5, top=1.0)
    m.terrain("ground", "hedge", f"hedge-{n}-w", x0, y0 + 0.5, 0.5, y1 - y0 - 2.5, top=1.0)
    m.terrain("ground", "hedge", f"hedge-{n}-e", x1 - 0.5, y0 + 0.5, 0.5, y1 - y0 - 2.5, top=1.0)
    m.terrain("ground", "rubble", f"rubble-{n}", cx + cw / 2 - 1.0, cy + ch / 2 - 0.5, 2.0, 1.25, top=0.75,
              rotation=rng.uniform(-20, 20))


def bench_town(seed: int = 20240601) -> TmxMap:
    """The benchmark town; the same seed writes the same file byte for byte."""
    rng = random.Random(seed)
    m = TmxMap(SIZE, SIZE, ppi=32, title="Bench Town")
    m.layer("ground")
    cells = _cells()
    open_cells = rng.sample(range(len(cells)), OPEN_CELLS)
    woods = set(open_cells[: OPEN_CELLS // 2])
    n = 0
    for i, cell in enumerate(cells):
        if i in open_cells:
            (_woods if i in woods else _garden)(m, rng, i, cell)
            continue
        n += 1
        add_building(m, _building(rng, n, cell))
    m.rect("zones", "DeploymentZone", "deploy-north", 0, 0, SIZE, ZONE_DEPTH_IN)
    m.rect("zones", "DeploymentZone", "deploy-south", 0, SIZE - ZONE_DEPTH_IN, SIZE, ZONE_DEPTH_IN)
    # hot spots at street crossings
    for name, (c, r) in zip(("hotspot-a", "hotspot-b", "hotspot-c"), ((2, 2), (5, 3), (3, 5)), strict=False):
        x, y, _, _ = cells[r * COLS + c]
        m.point("markers", "Anchor", name, round(x, 3), round(y, 3), kind="hotspot")
    return m


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--out", type=Path, default=ROOT / "maps" / "bench-town.tmx")
    args = parser.parse_args(argv)
    m = bench_town(args.seed)
    m.write(args.out)
    print(f"wrote {args.out}: {m.object_count()} objects")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
