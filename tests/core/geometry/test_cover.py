"""GEO-12 cover, GEO-13 obstructions, GEO-14 elevation on tiny inline boards (TV-03, TV-31 as facts)."""
from __future__ import annotations

import pytest

from game.core.battlefield import Area, Base, Battlefield, Cover, Scene, TerrainPiece
from game.core.geometry.sight.batch import all_pairs, check_pairs, naive_check
from game.core.geometry.sight.cover import cover_against, degrade, is_higher
from game.core.geometry.sight.los import line_of_sight
from game.core.geometry.sight.naive import naive_cover_against
from game.core.settings import Settings


def rect(pid, x0, y0, x1, y1, top, *, bottom=0.0, **kw):
    return TerrainPiece(pid, kw.pop("name", f"piece-{pid}"), ((x0, y0), (x1, y0), (x1, y1), (x0, y1)),
                        bottom, top, **kw)


def model(mid, x, y, z=0.0, *, r=0.5, h=1.25):
    return Base(mid, x, y, z, r, h, "crew")


def board(*pieces):
    return Battlefield("inline", 24.0, 24.0, pieces=tuple(pieces))


def same_everywhere(bf, sc, a, t, settings=None):
    """The reasoned fact, the naive reference and the batch kernels agree (preview == resolution)."""
    fact = cover_against(bf, sc, a, t, settings=settings)
    assert fact == naive_cover_against(bf, sc, a, t, settings=settings)
    batch = check_pairs(bf, sc, [(a, t)], settings=settings)[0]
    assert batch == naive_check(bf, sc, a, t, settings=settings)
    assert batch == all_pairs(bf, sc, [a, t], settings=settings).verdict(a, t)
    assert (batch.cover, batch.degraded, batch.obstruction_count, batch.elevated) == (
        fact.cover, fact.degraded, fact.obstruction_count, fact.elevated)
    return fact


def test_tv03_low_hedge_obstruction_and_stone_wall_hard_cover():
    hedge = rect(1, 6.0, 0.0, 6.5, 24.0, 0.75, cover=Cover.SOFT, name="hedge")
    stone = rect(2, 11.0, 9.0, 11.5, 15.0, 1.0, blocks_los=True, cover=Cover.HARD, name="stone wall")
    bf = board(hedge, stone)
    sc = Scene(bases=(model("Raven", 2.0, 12.0), model("Ghoul", 12.0, 12.0)))
    fact = same_everywhere(bf, sc, "Raven", "Ghoul")
    assert fact.piece == 2 and fact.cover is Cover.HARD and fact.degraded is Cover.HARD
    assert fact.obstructions == (1,) and fact.obstruction_count == 1
    assert fact.crossed == (1, 2)
    assert line_of_sight(bf, sc, "Raven", "Ghoul").visible


def test_tv31_roof_over_a_two_inch_wall_hard_cover_becomes_soft_obstructions_ignored():
    house = rect(1, 0.0, 0.0, 10.0, 10.0, 3.0, blocks_los=True, surface=True, name="house")
    wall = rect(2, 11.0, 0.0, 11.5, 3.0, 2.0, blocks_los=True, cover=Cover.HARD, name="brick wall")
    crates = rect(3, 10.25, 1.25, 10.75, 1.75, 0.5, cover=Cover.SOFT, name="crates")
    bf = board(house, wall, crates)
    sc = Scene(bases=(model("R", 9.4, 1.5, 3.0), model("B", 12.0, 1.5), model("G", 9.4, 12.0)))
    assert line_of_sight(bf, sc, "R", "B").visible
    fact = same_everywhere(bf, sc, "R", "B")
    assert fact.elevated and fact.height_difference == 3.0
    assert fact.piece == 2 and fact.cover is Cover.HARD and fact.degraded is Cover.SOFT
    assert fact.obstruction_count == 0 and fact.obstructions == ()
    assert fact.ignored_obstructions == (3,)
    assert any("GEO-14" in r for r in fact.reasons)
    ground = same_everywhere(bf, Scene(bases=(model("R", 9.4, 1.5, 0.0), model("B", 12.0, 1.5))), "R", "B")
    assert not ground.elevated and ground.degraded is Cover.HARD and ground.obstructions == (3,)


@pytest.mark.setting("elev.hardened_becomes", "elev.step")
def test_geo14_soft_becomes_obstruction_and_hardened_becomes_hard():
    assert degrade(Cover.SOFT) is Cover.OBSTRUCTION
    assert degrade(Cover.HARD) is Cover.SOFT
    assert degrade(Cover.HARDENED) is Cover.HARD
    assert degrade(Cover.HARDENED, settings=Settings({"elev.hardened_becomes": "soft"})) is Cover.SOFT
    assert is_higher(1.0, 0.0) and not is_higher(0.99, 0.0)
    assert is_higher(2.0, 0.0, settings=Settings({"elev.step": 2.0}))


def test_geo13_obstruction_crossed_twice_counts_once():
    u_hedge = TerrainPiece(1, "u-hedge", ((5, 8), (9, 8), (9, 16), (5, 16), (5, 15), (8, 15), (8, 9), (5, 9)),
                           0.0, 0.75, cover=Cover.OBSTRUCTION)
    bf = board(u_hedge)
    sc = Scene(bases=(model("A", 2.0, 12.0 - 3.5 + 0.0), model("T", 12.0, 12.0 + 3.5)))
    fact = same_everywhere(bf, sc, "A", "T")
    assert fact.crossed == (1,) and fact.obstructions == (1,) and fact.obstruction_count == 1
    straight = same_everywhere(bf, Scene(bases=(model("A", 2.0, 8.5), model("T", 12.0, 8.5))), "A", "T")
    assert straight.obstruction_count == 1  # along the whole bottom arm: one piece, once


@pytest.mark.setting("obstruction.ignore_attacker_contact")
def test_geo13_attackers_own_cover_does_not_count():
    low_wall = rect(1, 3.0, 8.0, 3.5, 16.0, 1.0, blocks_los=True, cover=Cover.HARD, name="low wall")
    bf = board(low_wall)
    sc = Scene(bases=(model("A", 2.5, 12.0), model("T", 12.0, 12.0)))
    fact = same_everywhere(bf, sc, "A", "T")
    assert fact.obstruction_count == 0 and fact.attacker_contact == (1,) and fact.cover is Cover.NONE
    off = cover_against(bf, sc, "A", "T", settings=Settings({"obstruction.ignore_attacker_contact": False}))
    assert off.obstruction_count == 1 and off.obstructions == (1,)


def test_geo12_partial_occlusion_peeking_round_a_corner():
    corner = rect(1, 8.0, 0.0, 11.5, 11.4, 3.0, blocks_los=True, cover=Cover.HARD, name="building corner")
    bf = board(corner)
    sc = Scene(bases=(model("A", 8.0, 16.0), model("T", 12.0, 11.0)))  # T touches the side by the corner
    fact = same_everywhere(bf, sc, "A", "T")
    cand = fact.candidates[0]
    assert not cand.crossed and cand.occluded_rays and cand.qualifies
    assert fact.piece == 1 and fact.cover is Cover.HARD
    assert line_of_sight(bf, sc, "A", "T").visible


def test_geo12_cover_needs_contact_and_being_between():
    wall = rect(1, 10.0, 8.0, 10.5, 16.0, 1.0, blocks_los=True, cover=Cover.HARD)
    bf = board(wall)
    near = Scene(bases=(model("A", 2.0, 12.0), model("T", 11.05, 12.0)))  # 0.05" away: contact
    far = Scene(bases=(model("A", 2.0, 12.0), model("T", 11.2, 12.0)))  # 0.2" away: no contact
    behind = Scene(bases=(model("A", 20.0, 12.0), model("T", 11.0, 12.0)))  # wall behind the defender
    assert same_everywhere(bf, near, "A", "T").cover is Cover.HARD
    far_fact = same_everywhere(bf, far, "A", "T")
    assert far_fact.cover is Cover.NONE and far_fact.obstruction_count == 1
    back = same_everywhere(bf, behind, "A", "T")
    assert back.cover is Cover.NONE and back.candidates[0].reason == "in contact but not between the models"
    assert same_everywhere(bf, near, "A", "T").rule == "GEO-12"


def test_geo12_best_piece_wins_and_other_crossed_cover_is_an_obstruction():
    hedge = rect(1, 10.0, 8.0, 10.5, 16.0, 0.75, cover=Cover.SOFT, name="hedge")
    sandbags = rect(2, 11.0, 11.0, 11.5, 13.0, 1.0, blocks_los=True, cover=Cover.HARDENED, name="sandbags")
    bf = board(hedge, sandbags)
    sc = Scene(bases=(model("A", 2.0, 12.0), model("T", 12.0, 12.0 - 0.0)))
    fact = same_everywhere(bf, sc, "A", "T")
    assert fact.piece == 2 and fact.cover is Cover.HARDENED
    assert fact.obstructions == (1,)  # the hedge is not the chosen cover: it obstructs


def test_geo10_woods_soft_cover_when_the_base_overlaps_and_the_centre_line_crosses():
    woods = rect(1, 10.0, 0.0, 14.0, 24.0, 4.0, area=Area.WOODS, name="woods")
    other = rect(2, 5.0, 0.0, 6.0, 24.0, 4.0, area=Area.WOODS, name="copse")
    bf = board(woods, other)
    sc = Scene(bases=(model("A", 2.0, 12.0), model("T", 10.8, 12.0)))
    fact = same_everywhere(bf, sc, "A", "T")
    assert fact.piece == 1 and fact.cover is Cover.SOFT
    assert fact.obstructions == (2,)  # the copse crossed on the way is one obstruction


def test_geo12_terrain_below_the_defenders_feet_is_no_cover():
    platform = rect(1, 10.0, 10.0, 14.0, 14.0, 1.0, blocks_los=True, cover=Cover.HARD, platform=True)
    bf = board(platform)
    sc = Scene(bases=(model("A", 2.0, 12.0, 1.0), model("T", 12.0, 12.0, 1.0)))
    fact = same_everywhere(bf, sc, "A", "T")
    assert fact.cover is Cover.NONE and "not above the defender's feet" in fact.candidates[0].reason


@pytest.mark.setting("cover.below_feet")
def test_geo12_cover_below_feet_setting_restores_the_three_conditions():
    """GEO-12 [HOUSE `cover.below_feet`=false]: the platform the defender stands on (top 1" = its base) is no cover;
    with `true` only conditions (1)-(3) apply, and the same platform (hard, in contact, crossed) covers it."""
    platform = rect(1, 10.0, 10.0, 14.0, 14.0, 1.0, blocks_los=True, cover=Cover.HARD, platform=True)
    bf = board(platform)
    sc = Scene(bases=(model("A", 2.0, 12.0, 1.0), model("T", 12.0, 12.0, 1.0)))
    house = same_everywhere(bf, sc, "A", "T")
    assert house.piece is None and house.cover is Cover.NONE and not house.candidates[0].qualifies
    book = same_everywhere(bf, sc, "A", "T", settings=Settings({"cover.below_feet": True}))
    assert book.piece == 1 and book.cover is Cover.HARD and book.candidates[0].qualifies
    assert book.obstruction_count == 0  # the cover piece is never also an obstruction (GEO-13)


# --- GEO-13 `obstruction.building_walls`: a building's wall is one item however many pieces model it -------------

PER_PIECE = Settings({"obstruction.building_walls": "per_piece"})


def house_wall(first_id, x, building, *, y_window=11.0, storeys=2):
    """A wall of `building` at x..x+0.25 from y 6 to 18 with one window (sill 0-1", lintel 2-3") at
    y_window..y_window+2, and (storeys=2) the upper storey's wall over its whole length (3.25-6.25"), as the map
    recipe builds them (maps/README.md)."""
    kw = {"blocks_los": True, "cover": Cover.HARD, "building": building}
    x1 = x + 0.25
    pieces = [
        rect(first_id, x, 6.0, x1, y_window, 3.0, kind="wall", **kw),
        rect(first_id + 1, x, y_window + 2.0, x1, 18.0, 3.0, kind="wall", **kw),
        rect(first_id + 2, x, y_window, x1, y_window + 2.0, 1.0, kind="sill", **kw),
        rect(first_id + 3, x, y_window, x1, y_window + 2.0, 3.0, bottom=2.0, kind="lintel", **kw),
    ]
    if storeys == 2:
        pieces.append(rect(first_id + 4, x, 6.0, x1, 18.0, 6.25, bottom=3.25, kind="wall", **kw))
    return pieces


@pytest.mark.setting("obstruction.building_walls")
def test_geo13_a_shot_through_one_window_is_one_obstruction():
    """GEO-13 per_wall: the sill, the lintel and the upper-storey wall the centre line crosses at one window are
    one item (-1); `per_piece` counts each piece (-3)."""
    bf = board(*house_wall(1, 10.0, "house"))
    sc = Scene(bases=(model("A", 4.0, 12.0), model("T", 16.0, 12.0)))
    assert line_of_sight(bf, sc, "A", "T").visible  # the heads see each other through the window
    wall = same_everywhere(bf, sc, "A", "T")
    assert wall.obstruction_count == 1 and wall.obstruction_groups == ((3, 4, 5),)
    assert wall.obstructions == (3, 4, 5) and wall.rule == "GEO-12"
    assert any("house's wall (pieces 3, 4, 5)" in r for r in wall.reasons)
    piece = same_everywhere(bf, sc, "A", "T", settings=PER_PIECE)
    assert piece.obstruction_count == 3 and piece.obstruction_groups == ((3,), (4,), (5,))


@pytest.mark.setting("obstruction.building_walls")
def test_geo13_across_a_building_from_window_to_window_is_two_obstructions():
    """GEO-13: in through one window and out through the opposite one, 6" further on: two walls, -2 (per_piece -6)."""
    bf = board(*house_wall(1, 8.0, "house"), *house_wall(11, 14.0, "house"))
    sc = Scene(bases=(model("A", 2.0, 12.0), model("T", 21.0, 12.0)))
    assert line_of_sight(bf, sc, "A", "T").visible
    wall = same_everywhere(bf, sc, "A", "T")
    assert wall.obstruction_count == 2 and wall.obstruction_groups == ((3, 4, 5), (13, 14, 15))
    assert same_everywhere(bf, sc, "A", "T", settings=PER_PIECE).obstruction_count == 6


@pytest.mark.setting("obstruction.building_walls")
def test_geo13_two_buildings_window_to_window_count_four():
    """GEO-13: two buildings crossed window to window: four walls (-4), twelve pieces under per_piece."""
    bf = Battlefield("inline", 40.0, 24.0, pieces=(
        *house_wall(1, 6.0, "north"), *house_wall(11, 11.0, "north"),
        *house_wall(21, 20.0, "south"), *house_wall(31, 25.0, "south")))
    sc = Scene(bases=(model("A", 2.0, 12.0), model("T", 30.0, 12.0)))
    assert line_of_sight(bf, sc, "A", "T").visible
    wall = same_everywhere(bf, sc, "A", "T")
    assert wall.obstruction_count == 4
    assert wall.obstruction_groups == ((3, 4, 5), (13, 14, 15), (23, 24, 25), (33, 34, 35))
    assert same_everywhere(bf, sc, "A", "T", settings=PER_PIECE).obstruction_count == 12


def test_geo13_only_pieces_of_one_building_within_one_inch_are_one_wall():
    """GEO-13: the 1.0" reach is measured between the crossings along the centre line (0.75" apart: one wall; 1.25":
    two); pieces of two buildings, or with no `building`, never merge however close."""
    def pair(gap, b1, b2):
        a = rect(1, 10.0, 0.0, 10.25, 24.0, 0.75, cover=Cover.OBSTRUCTION, building=b1)
        b = rect(2, 10.25 + gap, 0.0, 10.5 + gap, 24.0, 0.75, cover=Cover.OBSTRUCTION, building=b2)
        return board(a, b)

    sc = Scene(bases=(model("A", 4.0, 12.0), model("T", 16.0, 12.0)))
    assert same_everywhere(pair(0.75, "x", "x"), sc, "A", "T").obstruction_count == 1
    assert same_everywhere(pair(1.0, "x", "x"), sc, "A", "T").obstruction_count == 1  # exactly 1.0": within
    assert same_everywhere(pair(1.25, "x", "x"), sc, "A", "T").obstruction_count == 2
    assert same_everywhere(pair(0.0, "x", "y"), sc, "A", "T").obstruction_count == 2
    assert same_everywhere(pair(0.0, "", ""), sc, "A", "T").obstruction_count == 2
    slanted = Scene(bases=(model("A", 4.0, 6.0), model("T", 16.0, 18.0)))  # 0.75" apart in x is 1.06" along the line
    assert same_everywhere(pair(0.75, "x", "x"), slanted, "A", "T").obstruction_count == 2


@pytest.mark.setting("obstruction.building_walls")
def test_geo13_the_rest_of_the_defenders_cover_wall_is_not_an_obstruction():
    """GEO-13: a defender at a window takes the wall as its cover (the sill, lowest id); the lintel is the same item,
    not also an obstruction (per_piece: the lintel counts -1, as before)."""
    bf = board(*house_wall(1, 10.0, "house", storeys=1))
    sc = Scene(bases=(model("A", 2.0, 12.0), model("T", 10.8, 12.0)))
    wall = same_everywhere(bf, sc, "A", "T")
    assert wall.piece == 3 and wall.cover is Cover.HARD
    assert wall.obstruction_count == 0 and wall.same_wall == (4,)
    piece = same_everywhere(bf, sc, "A", "T", settings=PER_PIECE)
    assert piece.piece == 3 and piece.obstruction_count == 1 and piece.obstructions == (4,)


@pytest.mark.setting("obstruction.building_walls")
def test_geo13_the_attackers_own_wall_is_not_an_obstruction():
    """GEO-13: an attacker at a window (touching the sill and lintel) shooting slantwise: the centre line leaves
    through the end of the wall beside the window, 0.25" from the sill, out of the attacker's contact. per_wall:
    that piece is the attacker's own wall, not counted; per_piece: it counts -1."""
    bf = board(*house_wall(1, 10.0, "house", storeys=1, y_window=10.5))
    sc = Scene(bases=(model("A", 9.4, 12.0), model("T", 19.4, 19.0)))
    wall = same_everywhere(bf, sc, "A", "T")
    assert wall.attacker_contact == (3, 4) and wall.same_wall == (2,) and wall.obstruction_count == 0
    piece = same_everywhere(bf, sc, "A", "T", settings=PER_PIECE)
    assert piece.attacker_contact == (3, 4) and piece.obstructions == (2,) and piece.obstruction_count == 1
