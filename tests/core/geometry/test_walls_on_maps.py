"""GEO-13 `obstruction.building_walls` on the shipped maps: shots through two buildings' windows (bench-town, Ishikhov).

Each shot is between two ground-level models in the open; the centre line enters and leaves buildings through
windows, crossing each window's sill and lintel and, on a two-storey building, the upper storey's wall or window
above. per_wall counts one obstruction per wall crossed; per_piece (the count before GEO-13 was amended) one per
map piece.
"""
from __future__ import annotations

from functools import cache

import pytest

from game.core.battlefield import Base, Battlefield, Scene
from game.core.geometry.sight.batch import check_pairs, naive_check
from game.core.geometry.sight.cover import cover_against
from game.core.geometry.sight.los import line_of_sight
from game.core.settings import Settings
from game.maps.loader import load_map
from tests.paths import MAPS

PER_PIECE = Settings({"obstruction.building_walls": "per_piece"})


@cache
def table(name: str) -> Battlefield:
    return load_map(MAPS / name)


def shot(a: tuple[float, float], t: tuple[float, float]) -> Scene:
    return Scene(bases=(Base("A", a[0], a[1], 0.0, 0.5, 1.25, "crew"),
                        Base("T", t[0], t[1], 0.0, 0.5, 1.25, "hostile")))


SHOTS = [
    # map, attacker, target, per_piece count, the buildings of the walls per_wall counts
    pytest.param("bench-town.tmx", (22.62, 24.01), (20.74, 37.14), 12, ("b25", "b25", "b31", "b31"),
                 id="bench-town-b25-b31-window-to-window"),
    pytest.param("ishikhov.tmx", (13.18, 37.76), (40.38, 2.17), 11, ("cpo", "cpo", "warehouse-ne", "warehouse-ne"),
                 id="ishikhov-cpo-window-to-window-warehouse-window-and-door"),
    pytest.param("ishikhov.tmx", (43.43, 10.52), (14.07, 33.99), 10, ("cpo", "cpo", "warehouse-ne"),
                 id="ishikhov-cpo-window-and-door-warehouse-door"),
]


@pytest.mark.setting("obstruction.building_walls")
@pytest.mark.parametrize("name, a, t, pieces, walls", SHOTS)
def test_geo13_a_shot_through_two_buildings_counts_each_wall_once(name, a, t, pieces, walls):
    """GEO-13 per_wall: one obstruction per building wall crossed (sill, lintel and the storey above are one); the
    reasoned fact, the batch verdict and the naive reference agree. per_piece counts every piece, as before."""
    bf = table(name)
    sc = shot(a, t)
    assert line_of_sight(bf, sc, "A", "T").visible
    fact = cover_against(bf, sc, "A", "T")
    assert fact.piece is None and not fact.elevated
    assert fact.obstruction_count == len(walls)
    assert sorted(bf.piece(g[0]).building for g in fact.obstruction_groups) == sorted(walls)
    assert all(bf.piece(p).building == bf.piece(g[0]).building for g in fact.obstruction_groups for p in g)
    assert check_pairs(bf, sc, [("A", "T")])[0].obstruction_count == len(walls)
    assert naive_check(bf, sc, "A", "T").obstruction_count == len(walls)
    before = cover_against(bf, sc, "A", "T", settings=PER_PIECE)
    assert before.obstruction_count == pieces and sorted(before.obstructions) == sorted(fact.obstructions)
    assert check_pairs(bf, sc, [("A", "T")], settings=PER_PIECE)[0].obstruction_count == pieces
