"""GEO-8/GEO-27 cost fields (game.core.geometry.movement.field) and the batched stand test
(game.core.geometry.movement.standing) against the one-point functions they stand in for, on the shipped maps:
`arrivals` from one field equal `shortest_path` per end point (its first pass, and its second round enemy bases),
a field from a goal gives every point's cost to it (GEO-8 costs are symmetric), `legal_positions` and `floors`
equal `position_fact`, `level_at` and `walking_level`."""
from __future__ import annotations

import math
import random

import pytest

from game.core.battlefield import Base, Battlefield
from game.core.geometry.movement.arrivals import arrivals
from game.core.geometry.movement.field import cost_field, crosses_enemies
from game.core.geometry.movement.paths import shortest_path
from game.core.geometry.movement.positions import position_fact
from game.core.geometry.movement.standing import floors, legal_positions
from game.core.geometry.terrain import level_at, levels, walking_level
from game.maps.loader import load_map
from tests.paths import MAPS

RADIUS, HEIGHT = 0.5, 0.75
_MAPS: dict[str, Battlefield] = {}


def battlefield(name: str) -> Battlefield:
    if name not in _MAPS:
        _MAPS[name] = load_map(MAPS / f"{name}.tmx")
    return _MAPS[name]


def _spot(bf: Battlefield, rng: random.Random, others: list[Base] = ()) -> tuple[float, float, float]:
    while True:
        x, y = rng.uniform(1, bf.width - 1), rng.uniform(1, bf.height - 1)
        if position_fact(bf, x, y, 0.0, radius=RADIUS, height=HEIGHT, others=others).legal:
            return (x, y, 0.0)


def _ends(bf: Battlefield, rng: random.Random, start: tuple[float, float, float], reach: float, n: int,
          others: list[Base] = ()) -> list[tuple[float, float, float]]:
    out = []
    while len(out) < n:
        a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0.3, reach)
        x, y = start[0] + d * math.cos(a), start[1] + d * math.sin(a)
        if position_fact(bf, x, y, 0.0, radius=RADIUS, height=HEIGHT, others=others).legal:
            out.append((x, y, 0.0))
    return out


def _same_path(a: tuple, b: tuple) -> bool:
    return len(a) == len(b) and all(max(abs(u - v) for u, v in zip(p, q, strict=True)) <= 1e-9
                                    for p, q in zip(a, b, strict=True))


@pytest.mark.parametrize("name", ["ishikhov", "sandbox", "chernya-woods"])
def test_geo27_arrivals_from_one_field_equal_shortest_path_per_end(name: str) -> None:
    """GEO-27: every end point within the budget gets `shortest_path`'s first-pass cost and path (no enemy bases),
    and none `shortest_path` cannot reach."""
    bf = battlefield(name)
    rng = random.Random(f"field:{name}")
    for _ in range(3):
        start = _spot(bf, rng)
        budget = rng.uniform(6.0, 9.0)
        ends = _ends(bf, rng, start, budget * 1.1, 40)
        f = cost_field(bf, start, radius=RADIUS, height=HEIGHT, bound=budget)
        for end, a in zip(ends, arrivals(f, ends), strict=True):
            res = shortest_path(bf, start, end, radius=RADIUS, height=HEIGHT, budget=budget)
            old = res.found and res.cost <= budget + 1e-6
            assert (a is not None) == old, (start, end, res.reason)
            if a is not None and a.sure:
                assert abs(a.cost - res.cost) <= 1e-9 and _same_path(a.path, res.points), (start, end)


@pytest.mark.parametrize("name", ["ishikhov", "sandbox"])
def test_geo8_arrivals_round_enemy_bases_equal_shortest_path(name: str) -> None:
    """GEO-8: with enemy bases in the field (its second pass), the ends whose first-pass path would cross one get
    `shortest_path`'s cost and path whenever the field is sure of them, and those it is unsure of are few."""
    bf = battlefield(name)
    rng = random.Random(f"enemies:{name}")
    sure = unsure = 0
    for _ in range(3):
        start = _spot(bf, rng)
        enemies = []
        for k in range(3):
            a, d = rng.uniform(0, 2 * math.pi), rng.uniform(1.5, 5.0)
            x, y = start[0] + d * math.cos(a), start[1] + d * math.sin(a)
            if position_fact(bf, x, y, 0.0, radius=RADIUS, height=1.25, others=enemies).legal:
                enemies.append(Base(f"e{k}", x, y, 0.0, 0.5, 1.25, "crew"))
        budget = rng.uniform(6.0, 9.0)
        ends = _ends(bf, rng, start, budget, 40, enemies)
        f1 = cost_field(bf, start, radius=RADIUS, height=HEIGHT, bound=budget)
        f2 = cost_field(bf, start, radius=RADIUS, height=HEIGHT, bound=budget, enemies=enemies)
        blocked = [e for e, a in zip(ends, arrivals(f1, ends), strict=True)
                   if a is not None and crosses_enemies(a.path, enemies, radius=RADIUS, height=HEIGHT)]
        for end, a in zip(blocked, arrivals(f2, blocked), strict=True):
            res = shortest_path(bf, start, end, radius=RADIUS, height=HEIGHT, others=enemies, side="zone",
                                budget=budget)
            old = res.found and res.cost <= budget + 1e-6
            if a is not None and not a.sure:
                unsure += 1
                continue
            assert (a is not None) == old, (start, end, res.reason)
            if a is not None:
                sure += 1
                assert abs(a.cost - res.cost) <= 1e-9 and _same_path(a.path, res.points), (start, end)
    assert sure > 0 and unsure <= sure


@pytest.mark.parametrize("name", ["ishikhov", "chernya-woods"])
def test_geo8_costs_are_symmetric_a_field_from_the_goal_gives_every_cost_to_it(name: str) -> None:
    """GEO-8: the cost from each point to a goal (`shortest_path` from the point, no budget) is the cost the field
    from the goal finds to the point, within 1e-6"."""
    bf = battlefield(name)
    rng = random.Random(f"symmetric:{name}")
    for _ in range(2):
        goal = _spot(bf, rng)
        ends = _ends(bf, rng, goal, 14.0, 12)
        f = cost_field(bf, goal, radius=RADIUS, height=HEIGHT, bound=40.0)
        for end, a in zip(ends, arrivals(f, ends, paths=False), strict=True):
            res = shortest_path(bf, end, goal, radius=RADIUS, height=HEIGHT)
            assert (a is not None) == res.found
            if a is not None:
                assert a.cost == pytest.approx(res.cost, abs=1e-6)


def test_geo7_legal_positions_and_floors_equal_the_one_point_tests() -> None:
    """GEO-7/GEO-26/GEO-6: the batched stand test and floor lookup give `position_fact`'s, `level_at`'s and
    `walking_level`'s answers, on the ground, on raised floors and off them, near other bases."""
    bf = battlefield("ishikhov")
    rng = random.Random("standing")
    raised = [lv for lv in levels(bf) if lv.support is not None]
    others = [Base(f"b{k}", *_spot(bf, rng)[:2], 0.0, 0.5, 1.25, "crew") for k in range(6)]
    pts = []
    for _ in range(400):
        if rng.random() < 0.4:
            lv = rng.choice(raised)
            xa, ya, xb, yb = lv.support.bounds
            pts.append((rng.uniform(xa - 1, xb + 1), rng.uniform(ya - 1, yb + 1), lv.z + rng.choice([0.0, 0.5])))
        else:
            b = rng.choice(others)
            pts.append((b.x + rng.uniform(-2, 2), b.y + rng.uniform(-2, 2), 0.0) if rng.random() < 0.3
                       else (rng.uniform(-1, bf.width + 1), rng.uniform(-1, bf.height + 1), 0.0))
    at, walk = floors(bf, pts)
    legal = legal_positions(bf, pts, radius=RADIUS, height=HEIGHT, others=others, mover="b0")
    for p, a, w, ok in zip(pts, at, walk, legal, strict=True):
        assert a is level_at(bf, *p) and w is walking_level(bf, *p)
        assert ok == position_fact(bf, *p, radius=RADIUS, height=HEIGHT, others=others, mover="b0").legal, p
