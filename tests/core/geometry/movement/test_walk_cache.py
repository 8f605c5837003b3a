"""GEO-8 segment verdicts kept in the battlefield's cache (`cost._walk`): a path judged again, warm, gets the same
PathFact as judged cold (costs, segments, the illegal verdict's reason, piece and excess), and the cache keys on
the settings and the enemy bases are never cached."""
from __future__ import annotations

import random

from game.core.battlefield import Base, Battlefield, Cover, Movement, TerrainPiece
from game.core.geometry.movement.cost import WALKS, path_cost
from game.core.geometry.sight.world import clear_query_caches
from game.core.settings import Settings


def rect(pid: int, x0: float, y0: float, x1: float, y1: float, top: float, **kw: object) -> TerrainPiece:
    return TerrainPiece(pid, f"piece-{pid}", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), 0.0, top, **kw)  # type: ignore[arg-type]


BOARD = Battlefield("inline", 24.0, 24.0, pieces=(
    rect(1, 8, 2, 9, 14, 3.0, blocks_los=True, cover=Cover.HARD, movement=Movement.IMPASSABLE),
    rect(2, 14, 8, 20, 16, 0.01, movement=Movement.DIFFICULT),
    rect(3, 3, 17, 9, 18, 0.8, blocks_los=True, cover=Cover.SOFT, movement=Movement.IMPASSABLE),  # a low wall
    rect(4, 11, 18, 12, 23, 2.0, cover=Cover.HARD, movement=Movement.IMPASSABLE, climbable=True),
))


def judge(waypoints: list[tuple[float, float]], settings: Settings, others: tuple[Base, ...] = ()) -> object:
    return path_cost(BOARD, (2.0, 2.0, 0.0), waypoints, radius=0.5, height=1.25, others=others, side="me",
                     settings=settings)


def test_warm_verdicts_are_the_cold_ones() -> None:
    rng = random.Random(8)
    s = Settings.defaults()
    paths = [[(rng.uniform(1, 23), rng.uniform(1, 23)) for _ in range(rng.randint(1, 3))] for _ in range(300)]
    cold = []
    for p in paths:
        BOARD.cache.pop(WALKS, None)
        cold.append(judge(p, s))
    warm = [judge(p, s) for p in paths]
    assert warm == cold
    assert any(not f.legal and f.piece for f in cold) and any(f.legal for f in cold)  # type: ignore[attr-defined]
    assert BOARD.cache[WALKS]
    clear_query_caches(BOARD)  # what simulate does between games: forgotten with the sight memo
    assert WALKS not in BOARD.cache


def test_settings_and_enemies_are_not_taken_from_the_cache() -> None:
    s = Settings.defaults()
    across = [(2.0, 16.0), (13.0, 16.0), (22.0, 12.0)]  # round the wall, then through the difficult ground
    BOARD.cache.pop(WALKS, None)
    plain = judge(across, s)
    doubled = judge(across, Settings({"move.difficult_mult": 3.0}))
    assert plain.legal and doubled.legal and doubled.cost > plain.cost  # type: ignore[attr-defined]
    enemy = Base("e", 7.0, 16.0, 0.0, 0.5, 1.25, "them")
    blocked = judge(across, s, (enemy,))
    assert not blocked.legal and "enemy e" in blocked.reason  # type: ignore[attr-defined]
    assert judge(across, s) == plain
