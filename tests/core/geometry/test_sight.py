"""GEO-10 line of sight on tiny inline boards: grazing, concave ruins, roofs, woods, smoke, mutual LOS."""
from __future__ import annotations

import pytest

from game.core.battlefield import Area, Base, Battlefield, Cover, Scene, SmokeCloud, TerrainPiece
from game.core.geometry.crossing import MODE_CROSS, MODE_PRISM, MODE_WOODS, seg_piece
from game.core.geometry.sight.los import FAST, line_of_sight, point_line_of_sight
from game.core.geometry.sight.naive import NAIVE, naive_line_of_sight
from game.core.geometry.sight.world import clear_query_caches, query_memo, world_of
from game.core.settings import Settings


def rect(pid, x0, y0, x1, y1, top, *, bottom=0.0, **kw):
    return TerrainPiece(pid, kw.pop("name", f"piece-{pid}"), ((x0, y0), (x1, y0), (x1, y1), (x0, y1)),
                        bottom, top, **kw)


def wall(pid, x0, y0, x1, y1, top=2.0, cover=Cover.HARD, **kw):
    return rect(pid, x0, y0, x1, y1, top, blocks_los=True, cover=cover, **kw)


def model(mid, x, y, z=0.0, *, r=0.5, h=1.25, side="crew"):
    return Base(mid, x, y, z, r, h, side)


def board(*pieces, w=24.0, h=24.0):
    return Battlefield("inline", w, h, pieces=tuple(pieces))


def trace_one(bf, ray, backend=FAST):
    return backend.trace(world_of(bf), [ray], [])[0]


# --- the shared predicate ------------------------------------------------------------------------

SQUARE = [0.0, 0.0, 2.0, 0.0, 2.0, 0.0, 2.0, 2.0, 2.0, 2.0, 0.0, 2.0, 0.0, 2.0, 0.0, 0.0]


def cross(ax, ay, bx, by, ed=SQUARE):
    return seg_piece(ax, ay, 0.0, bx, by, 0.0, ed, 0, len(ed) // 4, 0.0, 0.0, MODE_CROSS, [0.0] * 64)[0]


def test_geo12_crossing_grazing_a_corner_does_not_cross():
    assert not cross(-1.0, 1.0, 1.0, 3.0)  # touches the corner (0, 2) only
    assert not cross(-1.0, -1.0, 3.0, -1.0 + 4.0 * 0.0)  # misses entirely
    assert cross(-1.0, 0.875, 1.0, 2.875)  # clips the corner: enters the interior


def test_geo12_crossing_along_a_face_does_not_cross():
    assert not cross(-1.0, 0.0, 3.0, 0.0)  # runs along the bottom face
    assert not cross(2.0, -1.0, 2.0, 5.0)  # along the right face, past both corners
    assert cross(1.875, -1.0, 1.875, 5.0)  # 1/8" inside: crosses


def test_geo12_crossing_through_a_vertex_and_into_the_interior_crosses():
    assert cross(-1.0, -1.0, 3.0, 3.0)  # the diagonal through two corners runs inside
    assert cross(2.0, 2.0, 1.0, 1.0)  # starts at a corner, ends inside


def test_geo12_crossing_is_symmetric():
    for a, b in [((-1.0, 1.0), (1.0, 3.0)), ((-1.0, -1.0), (3.0, 3.0)), ((0.5, -2.0), (0.5, 4.0))]:
        assert cross(*a, *b) == cross(*b, *a)


def test_geo10_prism_skimming_the_top_or_bottom_does_not_block():
    def hit(az: float, bz: float) -> bool:
        return bool(seg_piece(-1.0, 1.0, az, 3.0, 1.0, bz, SQUARE, 0, 4, 0.0, 2.0, MODE_PRISM, [0.0] * 64)[1])

    assert not hit(2.0, 2.0)  # skims the top face
    assert hit(1.999, 1.999)
    assert not hit(3.0, 2.5)  # passes over
    assert hit(3.0, 0.0)  # dives through


def test_geo10_woods_length_counts_only_below_the_canopy():
    def ln(az: float, bz: float) -> float:
        return float(seg_piece(-1.0, 1.0, az, 3.0, 1.0, bz, SQUARE, 0, 4, 0.0, 4.0, MODE_WOODS, [0.0] * 64)[2])

    assert ln(1.0, 1.0) == pytest.approx(2.0)
    assert ln(5.0, 5.0) == 0.0
    assert ln(5.0, 3.0) == pytest.approx(1.0)  # z = 4 at x = 1: only x in [1, 2] counts


# --- rays ------------------------------------------------------------------------------------------

def test_geo10_ray_grazing_a_wall_corner_is_open():
    bf = board(wall(1, 4.0, 4.0, 6.0, 6.0, top=3.0))
    assert trace_one(bf, (2.0, 2.0, 1.0, 4.0, 4.0 + 0.0, 1.0))[0] == ()  # ends on the corner
    assert trace_one(bf, (2.0, 6.0, 1.0, 8.0, 6.0, 1.0))[0] == ()  # along the top face
    assert trace_one(bf, (3.0, 3.0, 1.0, 7.0, 7.0, 1.0))[0] == (0,)  # through the diagonal: blocked
    assert trace_one(bf, (2.0, 2.0, 1.0, 6.0, 2.0 + 4.0, 1.0), NAIVE)[0] == (0,)


def test_geo10_concave_ruin_notch_is_open_arm_blocks():
    """A U-shaped ruin: rays through the notch (outside the polygon, inside its hull) are open."""
    ruin = TerrainPiece(1, "ruin", ((4, 4), (10, 4), (10, 10), (8, 10), (8, 6), (6, 6), (6, 10), (4, 10)),
                        0.0, 3.0, blocks_los=True, cover=Cover.HARD)
    bf = board(ruin)
    sc = Scene(bases=(model("A", 7.0, 14.0), model("T", 7.0, 7.0 + 0.5)))  # T stands in the notch
    los = line_of_sight(bf, sc, "A", "T")
    assert los.visible and los.a_sees_t and los.t_sees_a
    sc2 = Scene(bases=(model("A", 2.0, 7.0), model("T", 7.0, 8.0)))  # across the left arm
    los2 = line_of_sight(bf, sc2, "A", "T")
    assert not los2.visible and los2.blocked_by == (1,)
    assert all(r.blocked_by == (1,) for r in los2.rays)


def test_geo10_low_wall_blocks_body_rays_but_not_heads():
    bf = board(wall(1, 5.0, 0.0, 5.5, 10.0, top=1.0))
    sc = Scene(bases=(model("A", 2.0, 5.0), model("T", 9.0, 5.0)))
    los = line_of_sight(bf, sc, "A", "T")
    assert los.visible
    heads = [r for r in los.rays if r.label.endswith("head")]
    bodies = [r for r in los.rays if r.label.endswith("body")]
    assert all(not r.blocked for r in heads)
    assert all(r.blocked and r.blocked_by == (1,) for r in bodies)


def test_geo10_tall_wall_blocks_and_names_the_piece():
    bf = board(wall(7, 5.0, 0.0, 5.5, 10.0, top=2.0))
    los = line_of_sight(bf, Scene(bases=(model("A", 2.0, 5.0), model("T", 9.0, 5.0))), "A", "T")
    assert not los.visible and los.blocked_by == (7,) and los.rule == "GEO-10"
    assert "blocked" in los.reasons[0]


def test_geo10_roof_sees_over_a_wall_but_not_the_ground_beside_its_building():
    house = rect(1, 0.0, 0.0, 10.0, 10.0, 3.0, blocks_los=True, cover=Cover.HARD, surface=True, name="house")
    low_wall = wall(2, 11.0, 0.0, 11.5, 3.0, top=2.0)
    bf = board(house, low_wall)
    sc = Scene(bases=(
        model("M", 5.0, 8.0, 3.0),  # the middle of the roof
        model("E", 9.4, 8.0, 3.0),  # the roof edge
        model("G", 11.5, 8.0),  # on the ground beside the house
        model("R", 9.4, 1.5, 3.0),  # the roof edge by the wall
        model("B", 12.0, 1.5),  # behind the 2" wall, touching it
    ))
    assert not line_of_sight(bf, sc, "M", "G").visible
    assert line_of_sight(bf, sc, "M", "G").blocked_by == (1,)
    assert line_of_sight(bf, sc, "E", "G").visible
    assert line_of_sight(bf, sc, "R", "B").visible  # the roof sees over the 2" wall
    assert not line_of_sight(bf, sc, "M", "B").visible


def test_geo10_upper_floor_slab_hides_the_room_below():
    slab = rect(1, 0.0, 0.0, 10.0, 10.0, 3.0, bottom=2.75, blocks_los=True, surface=True)
    bf = board(slab)
    sc = Scene(bases=(model("U", 3.0, 5.0, 3.0), model("D", 7.0, 5.0, 0.0)))
    assert not line_of_sight(bf, sc, "U", "D").visible


def woods_board():
    return board(rect(1, 10.0, 0.0, 20.0, 24.0, 4.0, area=Area.WOODS, cover=Cover.SOFT, name="woods"))


def test_geo10_woods_one_and_a_half_inches_deep_is_seen():
    sc = Scene(bases=(model("A", 4.0, 12.0), model("T", 11.5, 12.0)))
    los = line_of_sight(woods_board(), sc, "A", "T")
    assert los.visible and los.a_sees_t and los.t_sees_a
    assert max(r.woods_length for r in los.rays) <= 2.0


def test_geo10_woods_three_inches_deep_is_hidden():
    sc = Scene(bases=(model("A", 4.0, 12.0), model("T", 13.0, 12.0)))
    los = line_of_sight(woods_board(), sc, "A", "T")
    assert not los.visible and los.woods_blocked
    assert all(r.woods_blocked and r.woods == (1,) for r in los.rays)
    assert "GEO-10.WOODS" in los.reasons[0]


def test_geo10_woods_mutual_los_one_way_is_enough():
    sc = Scene(bases=(model("A", 4.0, 12.0), model("T", 12.2, 12.0)))  # T 2.2" deep, its near side 1.8"
    los = line_of_sight(woods_board(), sc, "A", "T")
    assert los.a_sees_t and not los.t_sees_a and los.visible


def test_geo10_woods_over_the_canopy_does_not_count():
    tower = rect(2, 0.0, 10.0, 4.0, 14.0, 8.0, blocks_los=True, surface=True)
    bf = board(rect(1, 6.0, 0.0, 9.0, 24.0, 4.0, area=Area.WOODS), tower)
    sc = Scene(bases=(model("A", 2.0, 12.0, 8.0), model("C", 5.0, 16.0), model("T", 20.0, 12.0)))
    los = line_of_sight(bf, sc, "A", "T")
    assert los.a_sees_t and los.t_sees_a  # from 9.25" up the ray runs above the 4" canopy
    assert max(r.woods_length for r in los.rays) == 0.0
    low = line_of_sight(bf, sc, "C", "T")
    assert not low.visible and low.woods_blocked  # on the ground: 3" of woods


@pytest.mark.setting("los.woods_depth")
def test_geo10_woods_depth_setting():
    sc = Scene(bases=(model("A", 4.0, 12.0), model("T", 13.0, 12.0)))
    assert line_of_sight(woods_board(), sc, "A", "T", settings=Settings({"los.woods_depth": 4.0})).visible


def test_geo10_smoke_cloud_blocks():
    bf = board()
    sc = Scene(bases=(model("A", 2.0, 5.0), model("T", 12.0, 5.0)), smoke=(SmokeCloud(7.0, 5.0, 0.0, 2.5, 3.0),))
    los = line_of_sight(bf, sc, "A", "T")
    assert not los.visible and los.smoke_by == (0,)
    high = Scene(bases=(model("A", 2.0, 5.0, 4.0), model("T", 12.0, 5.0, 4.0)), smoke=sc.smoke)
    assert line_of_sight(bf, high, "A", "T").visible  # above the 3" cloud


@pytest.mark.setting("los.models_block")
def test_geo10_models_never_block_unless_set():
    bf = board()
    sc = Scene(bases=(model("A", 2.0, 5.0), model("X", 7.0, 5.0, r=1.0, h=2.5), model("T", 12.0, 5.0)))
    assert line_of_sight(bf, sc, "A", "T").visible
    los = line_of_sight(bf, sc, "A", "T", settings=Settings({"los.models_block": True}))
    assert not los.visible and los.rays[0].models_by == ("X",)


def test_geo10_ten_samples_and_twenty_rays():
    sc = Scene(bases=(model("A", 2.0, 5.0), model("T", 12.0, 5.0, 1.0)))
    los = line_of_sight(board(), sc, "A", "T")
    assert len(los.rays) == 20
    ends = {r.end for r in los.rays[:10]}
    assert len(ends) == 10
    assert {round(e[2], 9) for e in ends} == {1.625, 2.25}  # z + h/2 and z + h
    assert los.rays[0].start == (2.0, 5.0, 1.25)  # the eye at the top centre
    assert (11.6, 5.0, 2.25) in {tuple(round(v, 9) for v in e) for e in ends}  # the near point, 0.8r


def test_geo10_naive_and_fast_give_the_same_facts():
    ruin = TerrainPiece(1, "ruin", ((4, 4), (10, 4), (10, 10), (8, 10), (8, 6), (6, 6), (6, 10), (4, 10)),
                        0.0, 3.0, blocks_los=True, cover=Cover.HARD)
    bf = board(ruin, rect(2, 12.0, 0.0, 16.0, 24.0, 4.0, area=Area.WOODS))
    sc = Scene(bases=(model("A", 2.0, 7.0), model("T", 13.0, 8.0), model("U", 7.0, 9.0)))
    for a, t in [("A", "T"), ("T", "U"), ("A", "U")]:
        assert line_of_sight(bf, sc, a, t) == naive_line_of_sight(bf, sc, a, t)


def test_geo23_marker_los():
    bf = board(wall(1, 5.0, 0.0, 5.5, 10.0, top=2.0))
    sc = Scene(bases=(model("A", 2.0, 5.0),))
    assert point_line_of_sight(bf, sc, "A", (4.0, 5.0, 0.0)).visible
    assert not point_line_of_sight(bf, sc, "A", (8.0, 5.0, 0.0)).visible


def test_geo10_max_distance_and_query_memo():
    bf = board()
    sc = Scene(bases=(model("A", 2.0, 5.0), model("T", 20.0, 5.0)))
    assert not line_of_sight(bf, sc, "A", "T", max_distance=12.0).visible
    assert line_of_sight(bf, sc, "A", "T").visible
    assert query_memo(bf)
    clear_query_caches(bf)
    assert not query_memo(bf)


def test_geo10_unknown_model_is_a_clear_error():
    with pytest.raises(KeyError, match="no base for model 'Z'"):
        line_of_sight(board(), Scene(bases=(model("A", 2.0, 5.0),)), "A", "Z")
