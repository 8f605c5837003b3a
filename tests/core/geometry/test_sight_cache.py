"""`los.sees` (GEO-10 visibility without the per-ray facts, the engine's `can_see`) answers what `line_of_sight`
answers, shares its memo and is forgotten with it."""
from __future__ import annotations

import random

import pytest

from game.core.battlefield import Area, Base, Battlefield, Cover, Scene, SmokeCloud, TerrainPiece
from game.core.geometry.sight.los import line_of_sight, sees
from game.core.geometry.sight.world import clear_query_caches, query_memo
from game.core.settings import Settings

SETTINGS = Settings.defaults()


def rect(pid: int, x0: float, y0: float, x1: float, y1: float, top: float, **kw: object) -> TerrainPiece:
    return TerrainPiece(pid, f"piece-{pid}", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), 0.0, top, **kw)  # type: ignore[arg-type]


BOARD = Battlefield("inline", 24.0, 24.0, pieces=(
    rect(1, 8, 2, 9, 14, 3.0, blocks_los=True, cover=Cover.HARD),  # a tall wall
    rect(2, 14, 8, 20, 16, 4.0, area=Area.WOODS, cover=Cover.SOFT),  # woods deeper than the LOS limit
    rect(3, 3, 17, 6, 18, 0.8, blocks_los=True, cover=Cover.SOFT),  # a low wall heads see over
))


def base(mid: str, x: float, y: float, side: str) -> Base:
    return Base(mid, x, y, 0.0, 0.5, 1.25, side)


def test_sees_is_line_of_sight_visible_on_random_pairs() -> None:
    rng = random.Random(16)
    seen = blocked = 0
    for k in range(600):
        a = base("a", rng.uniform(1, 23), rng.uniform(1, 23), "x")
        t = base("t", rng.uniform(1, 23), rng.uniform(1, 23), "y")
        smoke = (SmokeCloud(rng.uniform(4, 20), rng.uniform(4, 20), 0.0, 1.5, 3.0),) if k % 3 == 0 else ()
        limit = 8.0 if k % 4 == 0 else None
        clear_query_caches(BOARD)
        want = line_of_sight(BOARD, Scene((a, t), smoke), "a", "t", settings=SETTINGS, max_distance=limit).visible
        clear_query_caches(BOARD)
        assert sees(BOARD, a, t, smoke, settings=SETTINGS, max_distance=limit) is want, (a, t, smoke, limit)
        seen += want
        blocked += not want
    assert seen > 100 and blocked > 100  # both answers are exercised


def test_sees_reads_the_fact_memo_and_is_cleared_with_it() -> None:
    a, t = base("a", 4.0, 8.0, "x"), base("t", 12.0, 8.0, "y")  # the wall stands between them
    clear_query_caches(BOARD)
    assert line_of_sight(BOARD, Scene((a, t)), "a", "t", settings=SETTINGS).visible is False
    memo = query_memo(BOARD)
    (key,) = list(memo)
    memo[key] = line_of_sight(BOARD, Scene((a, base("t", 4.0, 10.0, "y"))), "a", "t", settings=SETTINGS)
    assert sees(BOARD, a, t, (), settings=SETTINGS) is True  # the fact under the same key answers
    clear_query_caches(BOARD)
    assert sees(BOARD, a, t, (), settings=SETTINGS) is False
    assert [k[0] for k in query_memo(BOARD)] == ["sees"]
    clear_query_caches(BOARD)
    assert not query_memo(BOARD)


def test_sees_refuses_models_that_block() -> None:
    blocking = Settings({"los.models_block": True})
    with pytest.raises(ValueError, match="los.models_block"):
        sees(BOARD, base("a", 1, 1, "x"), base("t", 3, 3, "y"), (), settings=blocking)
