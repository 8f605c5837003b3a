"""GEO-4..6 distances, ranges with minimum range, base contact, and base-to-terrain distance."""
from __future__ import annotations

import pytest

from game.core.battlefield import Base, Cover, TerrainPiece
from game.core.geometry.distance import (
    base_contact,
    base_distance,
    bases_overlap,
    point_distance,
    terrain_distance,
    weapon_range,
)
from game.core.settings import Settings


def model(mid, x, y, r=0.5):
    return Base(mid, x, y, 0.0, r, 1.25, "crew")


def test_geo4_edge_to_edge_distances():
    a, b = model("a", 0.0, 0.0), model("b", 5.0, 0.0, r=0.8)
    fact = base_distance(a, b)
    assert fact.distance == pytest.approx(3.7) and fact.centre_distance == 5.0 and fact.rule == "GEO-4"
    assert base_distance(a, model("c", 0.5, 0.0)).distance == 0.0  # overlapping: 0
    assert point_distance(a, (3.0, 4.0)) == 4.5


def test_geo5_range_with_minimum_range_on_the_closest_edge():
    a = model("a", 0.0, 0.0)
    assert weapon_range(a, model("t", 5.0, 0.0), 4.0, 48.0).in_range  # 4.0" edge to edge: meets Rmin
    close = weapon_range(a, model("t", 4.9, 0.0), 4.0, 48.0)
    assert close.too_close and not close.in_range and close.rule == "GEO-5"
    assert weapon_range(a, model("t", 49.0, 0.0), 0.0, 48.0).in_range
    assert weapon_range(a, model("t", 49.01, 0.0), 0.0, 48.0).too_far


@pytest.mark.setting("range.min_rule")
def test_geo5_gap116_minimum_range_rule_closest_edge_or_centre():
    """GEO-5 / COMBAT-4.1.REQUIREMENTS [HOUSE `range.min_rule`]: a 1-36" weapon at 0.5" edge to edge (1.5" centre to
    centre) is too close by the closest edges, in range by the centres; the maximum is edge to edge either way."""
    a = model("a", 0.0, 0.0)
    t = model("t", 1.5, 0.0)
    edge = weapon_range(a, t, 1.0, 36.0)
    assert edge.too_close and not edge.in_range and edge.rule == "GEO-5"
    assert weapon_range(a, t, 1.0, 36.0, settings=Settings({"range.min_rule": "closest_edge"})) == edge
    centre = weapon_range(a, t, 1.0, 36.0, settings=Settings({"range.min_rule": "centre"}))
    assert not centre.too_close and centre.in_range and centre.distance == pytest.approx(0.5)
    assert centre.rule == "GAP-116"
    far = weapon_range(a, model("t", 37.01, 0.0), 1.0, 36.0, settings=Settings({"range.min_rule": "centre"}))
    assert far.too_far and not far.in_range  # 36.01" edge to edge: the maximum still counts edges


def test_geo6_base_contact_tolerance_and_no_overlap():
    a = model("a", 0.0, 0.0)
    assert base_contact(a, model("b", 1.1, 0.0), 0.1).in_contact
    assert not base_contact(a, model("b", 1.2, 0.0), 0.1).in_contact
    assert bases_overlap(a, model("b", 0.99, 0.0)) and not bases_overlap(a, model("b", 1.0, 0.0))


@pytest.mark.setting("geo.contact_tol")
def test_geo4_geo6_base_to_terrain_distance_and_contact():
    ring = TerrainPiece(1, "walled yard", ((0, 0), (10, 0), (10, 10), (0, 10)), 0.0, 2.0, cover=Cover.HARD,
                        holes=(((2, 2), (8, 2), (8, 8), (2, 8)),))
    assert terrain_distance(model("m", 12.0, 5.0), ring).distance == pytest.approx(1.5)
    assert terrain_distance(model("m", 10.55, 5.0), ring).in_contact
    inside_yard = terrain_distance(model("m", 5.0, 5.0), ring)
    assert inside_yard.distance == pytest.approx(2.5) and not inside_yard.in_contact  # the hole is not the piece
    assert terrain_distance(model("m", 1.0, 5.0), ring).distance == 0.0  # standing on the wall's footprint
    assert terrain_distance(model("m", 10.7, 5.0), ring, settings=Settings({"geo.contact_tol": 0.25})).in_contact
