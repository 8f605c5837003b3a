"""GEO-27 regression: every path shortest_path returns is legal by path_cost (GEO-7, GEO-8), arcs included."""
from __future__ import annotations

import math
import random

import pytest

from game.core.geometry.movement.paths import shortest_path
from game.core.geometry.movement.positions import position_fact
from game.maps.loader import load_map
from tests.paths import MAPS

MAP = MAPS / "ishikhov.tmx"
RADIUS, HEIGHT = 0.8, 1.25


@pytest.fixture(scope="module")
def ishikhov():  # type: ignore[no-untyped-def]
    return load_map(MAP)


def test_geo27_arc_past_a_neighbouring_piece_is_legal(ishikhov) -> None:  # type: ignore[no-untyped-def]
    """GEO-27/GEO-7: round the corner of wall 110 the arc between two tangent points dips 0.008" into the
    0.8" clearance of drums 33 while its midpoint is clear; the graph used that arc and path_cost refused it."""
    start = (3.83, 11.53, 0.0)
    for goal in ((6.081872104988355, 15.816032970797917, 0.0), (8.434972096882753, 16.71144355276821, 0.0),
                 (6.353232208716978, 15.485375960293462, 0.0)):
        res = shortest_path(ishikhov, start, goal, radius=RADIUS, height=HEIGHT)
        assert res.found, res.reason
        assert res.fact is not None and res.fact.legal
        assert res.fact.cost == pytest.approx(res.cost, abs=0.05)


def test_geo27_random_paths_on_ishikhov_are_legal(ishikhov) -> None:  # type: ignore[no-untyped-def]
    """GEO-27 property: seeded random starts (in the crowded north-west block, where about 5% of these paths
    were refused before arcs were checked whole, and over the table) and goals up to 8" away; a found path
    always passes path_cost, and no query fails because path_cost refused the engine's own path."""
    rng = random.Random(27)
    checked = 0
    while checked < 240:
        crowded = checked % 4 != 3
        sx = rng.uniform(1, 10) if crowded else rng.uniform(1, ishikhov.width - 1)
        sy = rng.uniform(8, 20) if crowded else rng.uniform(1, ishikhov.height - 1)
        if not position_fact(ishikhov, sx, sy, 0.0, radius=RADIUS, height=HEIGHT).legal:
            continue
        a, d = rng.uniform(0, 2 * math.pi), rng.uniform(1.0, 8.0)
        gx, gy = sx + d * math.cos(a), sy + d * math.sin(a)
        if not (RADIUS <= gx <= ishikhov.width - RADIUS and RADIUS <= gy <= ishikhov.height - RADIUS):
            continue
        res = shortest_path(ishikhov, (sx, sy, 0.0), (gx, gy, 0.0), radius=RADIUS, height=HEIGHT, budget=14.0)
        if res.fact is None:
            continue
        checked += 1
        assert res.fact.legal, f"{(sx, sy)} -> {(gx, gy)}: {res.fact.reason}"
        assert res.found
