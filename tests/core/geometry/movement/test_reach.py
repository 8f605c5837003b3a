"""GEO-8/GEO-27 reach regions (game/core/geometry/movement/reach.py): the move-range overlay agrees with path costs."""
from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from game.core.battlefield import Base, Battlefield, Movement, TerrainPiece
from game.core.geometry.movement.paths import shortest_path
from game.core.geometry.movement.positions import position_fact
from game.core.geometry.movement.reach import reach
from game.core.geometry.polygon import rect

R, H = 0.5, 1.25
TOL = 0.1  # the agreement tolerance (inches)


def test_open_table_reach_is_a_disc_clipped_by_the_table_and_other_bases() -> None:
    """GEO-8: with nothing in the way, a 7" allowance reaches a 7" disc of centres, minus other bases (GEO-6)."""
    bf = Battlefield("t", 36, 36)
    region = reach(bf, (18.0, 18.0, 0.0), 7.0, radius=R, height=H)
    assert region.area() == pytest.approx(math.pi * 49, rel=0.002)
    assert region.contains(24.9, 18.0) and not region.contains(25.1, 18.0)
    edge = reach(bf, (2.0, 18.0, 0.0), 7.0, radius=R, height=H)
    assert not edge.contains(0.4, 18.0) and edge.contains(0.6, 18.0)
    friend = Base("f", 21, 18, 0, 0.5, 1.25, "a")
    cut = reach(bf, (18.0, 18.0, 0.0), 7.0, radius=R, height=H, others=[friend], side="a")
    assert not cut.contains(21.0, 18.0) and cut.contains(23.0, 18.0)  # passed, not ended on


SCENE = Battlefield("t", 24, 24, pieces=(
    TerrainPiece(1, "wall", rect(10, 6, 10.5, 15), 0.0, 3.0, movement=Movement.IMPASSABLE),
    TerrainPiece(2, "house", rect(4, 14, 8, 18), 0.0, 3.0, movement=Movement.IMPASSABLE),
    TerrainPiece(3, "mud", rect(13, 9, 17, 13), 0.0, 0.5, movement=Movement.DIFFICULT),
))


def test_reach_goes_round_a_wall_and_pays_double_in_mud() -> None:
    """GEO-8: behind the wall only what the way round allows; in mud half as far."""
    region = reach(SCENE, (8.0, 10.0, 0.0), 7.0, radius=R, height=H)
    assert region.contains(12.0, 10.0) is False  # 4" straight, but the wall forces a 7"+ detour
    assert region.contains(8.0, 4.5)
    mud = reach(SCENE, (12.0, 11.0, 0.0), 3.0, radius=R, height=H)
    assert mud.contains(13.0, 11.0) and mud.contains(13.9, 11.0) and not mud.contains(14.2, 11.0)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(start=st.tuples(st.floats(1, 23), st.floats(1, 23)), probe=st.tuples(st.floats(-8, 8), st.floats(-8, 8)))
def test_property_points_in_reach_are_reachable_and_points_outside_are_not(start, probe) -> None:  # type: ignore[no-untyped-def]
    """Property (reach vs path cost, GEO-27): a point inside the region has a path costing <= budget + 0.1";
    a point outside has none costing <= budget - 0.1" (walls, a house and difficult ground on the table)."""
    s = (start[0], start[1], 0.0)
    assume(position_fact(SCENE, *s, radius=R, height=H).legal)
    p = (s[0] + probe[0], s[1] + probe[1], 0.0)
    assume(position_fact(SCENE, *p, radius=R, height=H).legal)
    region = reach(SCENE, s, 7.0, radius=R, height=H)
    path = shortest_path(SCENE, s, p, radius=R, height=H)
    cost = path.fact.cost if path.found else math.inf
    if region.contains(p[0], p[1], 0.0):
        assert cost <= 7.0 + TOL
    else:
        assert cost >= 7.0 - TOL


def test_reach_region_is_within_the_free_space() -> None:
    """GEO-7: no reachable point overlaps impassable terrain."""
    region = reach(SCENE, (8.0, 10.0, 0.0), 7.0, radius=R, height=H)
    geom = region.regions[0]
    wall = shapely.Polygon(rect(10, 6, 10.5, 15)).buffer(R - 0.01)
    assert geom.intersection(wall).area < 1e-6


# --- the visibility sweep (game/core/geometry/movement/reach_kernels.py) ---------------------------------


def _shadow_reference(v, rad, polys):  # type: ignore[no-untyped-def]
    """Independent reference: the 64-gon disc minus, per obstacle, the hull of it and its copy pushed far away."""
    import numpy as np

    disc = shapely.Point(v).buffer(rad, quad_segs=16)
    hulls = []
    for p in polys:
        xy = np.asarray(p.exterior.coords)
        d = np.hypot(xy[:, 0] - v[0], xy[:, 1] - v[1])
        far = np.asarray(v) + (xy - np.asarray(v)) * ((rad + 1.0) * 4.0 / d.min() + 1.0)
        hulls.append(shapely.MultiPoint(np.vstack([xy, far])).convex_hull)
    return disc.difference(shapely.union_all(hulls)) if hulls else disc


def _sweep(v, rad, polys, *, python: bool = False):  # type: ignore[no-untyped-def]
    import numpy as np

    from game.core.geometry.movement import reach as reach_mod
    from game.core.geometry.movement import reach_kernels as reachkernels
    from game.core.geometry.movement.reach_jit import kernels

    vx, vy, poff, box, kind = reach_mod._flat(polys, [])
    k = reachkernels if python else kernels()
    ox, oy, off, flags = k.visibility_rings(np.array([v[0]]), np.array([v[1]]), np.array([rad]), np.ones(1, np.int64),
                                            vx, vy, poff, box[0], box[1], box[2], box[3], kind)
    return shapely.Polygon(np.column_stack([ox, oy])) if off[1] >= 3 else None, int(flags[0])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(v=st.tuples(st.floats(-3, 3), st.floats(-3, 3)), rad=st.floats(0.3, 9.0),
       boxes=st.lists(st.tuples(st.floats(-8, 8), st.floats(-8, 8), st.floats(0.05, 3), st.floats(0.05, 3),
                                st.floats(0, 3.2)), min_size=0, max_size=7))
def test_property_sweep_matches_disc_minus_shadows(v, rad, boxes) -> None:  # type: ignore[no-untyped-def]
    """GEO-27 reach: the kernel's visibility polygon (overlapping rotated boxes as obstacles) is the disc minus
    what they hide, to within the disc's inscribed chords (rad * (1 - cos(pi/64)) < 0.0013 * rad)."""
    from shapely import affinity

    polys = [affinity.rotate(shapely.box(x, y, x + w, y + h), a, origin="centroid", use_radians=True)
             for x, y, w, h, a in boxes]
    assume(all(p.exterior.distance(shapely.Point(v)) > 1e-3 and not p.contains(shapely.Point(v)) for p in polys))
    got, flag = _sweep(v, rad, polys)
    want = _shadow_reference(v, rad, polys)
    assert flag == 0 and got is not None and got.is_valid
    assert shapely.hausdorff_distance(got, want) <= 0.0013 * rad + 1e-6
    assert abs(got.area - want.area) <= 0.01 * rad * rad


def test_sweep_compiled_and_python_give_identical_rings() -> None:
    """The numba kernel and its pure-Python source (ZONA_ALFA_NO_JIT=1) give the same polygon, vertex for vertex."""
    polys = [shapely.box(1, -1, 2, 3), shapely.box(1.5, 0.5, 4, 1.0), shapely.Point(-2, -2).buffer(0.7, quad_segs=3)]
    a, _ = _sweep((0.0, 0.0), 6.0, polys)
    b, _ = _sweep((0.0, 0.0), 6.0, polys, python=True)
    assert a is not None and b is not None and shapely.equals_exact(a, b, 0.0)


def test_sweep_viewpoint_inside_an_obstacle_sees_nothing_and_on_its_edge_is_blind_into_it() -> None:
    """GEO-7: no base stands inside an inflated piece, so it contributes nothing; from a point on an
    obstacle's corner the rays into the obstacle stop at once (nothing behind it is seen through it)."""
    square = [shapely.box(0, 0, 2, 2)]
    got, flag = _sweep((1.0, 1.0), 5.0, square)
    assert got is None and flag != 0
    corner, _ = _sweep((0.0, 0.0), 5.0, square)
    assert corner is not None and corner.is_valid
    assert not corner.contains(shapely.Point(3.0, 3.0)) and corner.contains(shapely.Point(-3.0, -3.0))
    assert corner.area == pytest.approx(math.pi * 25 * 0.75, rel=0.003)


def test_reach_from_a_corner_of_mud_does_not_see_across_it() -> None:
    """GEO-8: from the corner of difficult ground, a point beyond the far corner is 6.4" away in a straight line
    but every path costs more than 7" (round the mud, or double through it): out of reach."""
    region = reach(SCENE, (13.0, 9.0, 0.0), 7.0, radius=R, height=H)
    path = shortest_path(SCENE, (13.0, 9.0, 0.0), (17.5, 13.5, 0.0), radius=R, height=H)
    assert path.fact.cost > 7.1
    assert not region.contains(17.5, 13.5, 0.0)
    assert region.contains(13.0, 10.5, 0.0)  # 1.5" into the mud costs 3"


CROWDED = Battlefield("c", 24, 24, pieces=(
    TerrainPiece(1, "wall", rect(10, 6, 10.5, 15), 0.0, 3.0, movement=Movement.IMPASSABLE),
    TerrainPiece(2, "post", rect(11.2, 14.6, 12.2, 15.6), 0.0, 3.0, movement=Movement.IMPASSABLE),
    TerrainPiece(3, "house", rect(4, 14, 8, 18), 0.0, 3.0, movement=Movement.IMPASSABLE),
    TerrainPiece(4, "crate", rect(7.6, 11.2, 8.6, 12.2), 0.0, 3.0, movement=Movement.IMPASSABLE),
))
ENEMY = Base("e", 14.0, 10.0, 0.0, 0.5, 1.25, "them")


@settings(max_examples=30, deadline=None, derandomize=True)
@given(start=st.tuples(st.floats(5, 19), st.floats(5, 19)), probe=st.tuples(st.floats(-7, 7), st.floats(-7, 7)))
def test_property_reach_agrees_with_paths_round_tight_gaps_and_an_enemy(start, probe) -> None:  # type: ignore[no-untyped-def]
    """Property (GEO-8, GEO-27): with gaps narrower than a base between pieces (arcs round one corner run into the
    next piece) and an enemy base, points in reach have a path within budget + 0.1", points out of it none
    within budget - 0.1"."""
    s = (start[0], start[1], 0.0)
    assume(position_fact(CROWDED, *s, radius=R, height=H, others=[ENEMY]).legal)
    p = (s[0] + probe[0], s[1] + probe[1], 0.0)
    assume(position_fact(CROWDED, *p, radius=R, height=H, others=[ENEMY]).legal)
    region = reach(CROWDED, s, 6.0, radius=R, height=H, others=[ENEMY], side="us")
    path = shortest_path(CROWDED, s, p, radius=R, height=H, others=[ENEMY], side="us")
    cost = path.fact.cost if path.found else math.inf
    if region.contains(p[0], p[1], 0.0):
        assert cost <= 6.0 + TOL
    else:
        assert cost >= 6.0 - TOL
