"""GEO-12 cover, GEO-13 obstructions, GEO-14 elevation on tiny inline boards (TV-03, TV-31 as facts)."""
from __future__ import annotations

from game.core.battlefield import Area, Base, Battlefield, Cover, Scene, TerrainPiece
from game.core.geometry.sight.batch import check_pairs, naive_check
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


def same_everywhere(bf, sc, a, t):
    """The reasoned fact, the naive reference and the batch kernel agree (preview == resolution)."""
    fact = cover_against(bf, sc, a, t)
    assert fact == naive_cover_against(bf, sc, a, t)
    batch = check_pairs(bf, sc, [(a, t)])[0]
    assert batch == naive_check(bf, sc, a, t)
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
