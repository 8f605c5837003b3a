"""The Zone A.I.'s shared geometric definitions (ZONE HOSTILE AI "Shared definitions", AI-D.01, AI-D.04(d),
AI-D.06, AI-S.SPAWN) on tiny inline boards: game.core.rules.exposure."""
from __future__ import annotations

import math

import pytest

from game.core.battlefield import Cover, Movement, TerrainPiece
from game.core.geometry.polygon import rect
from game.core.rules import exposure as ex
from game.core.settings import Settings
from game.core.state import GameState, SideKind, SideState
from tests.enginekit import game, profile

CREW = profile("stalker")
TOL = float(Settings.defaults()["ai.close_tol"])  # the A.I.'s owner passes `ai.close_tol` (AI-D.01)
SLACK = float(Settings.defaults()["ai.cover_slack"])  # and `ai.cover_slack` (AI-D.06)
DOG = profile("dog", move=8.0, ca=4, armor=2, will=4, creature=True, base=1.0, height=0.75)


def piece(pid: int, x0: float, y0: float, x1: float, y1: float, top: float, *, cover: Cover,
          blocks: bool = False, bottom: float = 0.0, surface: bool = False,
          movement: Movement = Movement.OPEN) -> TerrainPiece:
    return TerrainPiece(pid, f"piece-{pid}", rect(x0, y0, x1, y1), bottom, top, blocks_los=blocks, cover=cover,
                        surface=surface, movement=movement)


def zone_game(models, **kw) -> GameState:
    """Side "a" a crew, side "b" a hostile force (the Zone)."""
    st = game(models, **kw)
    st.sides[1] = SideState("b", "The Zone", SideKind.HOSTILE, controller="ai", zone="zb", deployed=True)
    return st


# --- enemies, vis(H), dist(H, e) -------------------------------------------------------------------------------

def test_enemies_are_crew_models_in_play_by_id_never_other_hostiles():
    st = zone_game([("h", "b", DOG, (10, 10)), ("z2", "b", DOG, (12, 10)), ("c2", "a", CREW, (10, 20)),
                    ("c1", "a", CREW, (20, 20)), ("c3", "a", CREW, (5, 5))])
    st.models["c3"].ooa = True
    assert [m.id for m in ex.enemies(st, "h")] == ["c1", "c2"]
    st.sides.append(SideState("c", "Other Zone", SideKind.HOSTILE, controller="ai"))
    st.models["z2"].side = st.units["z2"].side = "c"
    assert [m.id for m in ex.enemies(st, "h")] == ["c1", "c2"]  # `ai.hostile_vs_hostile`=false
    assert [m.id for m in ex.enemies(st, "h", hostile_vs_hostile=True)] == ["c1", "c2", "z2"]


def test_vis_keeps_enemies_seen_by_at_least_one_model_and_dist_is_the_min_edge_distance():
    tower = piece(1, 14.0, 0.0, 15.0, 36.0, 6.0, cover=Cover.HARD, blocks=True)  # x 14..15 blocks everything
    st = zone_game([("d1", "b", DOG, (10, 10)), ("d2", "b", DOG, (18, 10)),
                    ("east", "a", CREW, (24, 10)), ("far", "a", CREW, (30, 30))],
                   units={"pack": ["d1", "d2"]}, pieces=(tower,))
    assert ex.seen_by(st, "pack", "east") == ("d2",)
    assert [m.id for m in ex.vis(st, "pack")] == ["east", "far"]
    assert ex.dist(st, "pack", "east") == pytest.approx(6.0 - 1.0)  # d2's edge to east's edge, not d1's
    assert ex.nearest_model(st, "pack", "east").id == "d2"


def test_nearest_model_ties_go_to_the_lowest_id():
    st = zone_game([("d2", "b", DOG, (10, 14)), ("d1", "b", DOG, (10, 6)), ("c", "a", CREW, (10, 10))],
                   units={"pack": ["d2", "d1"]})
    assert ex.nearest_model(st, "pack", "c").id == "d1"


# --- in the open, pen(H, e) ------------------------------------------------------------------------------------

def test_in_the_open_and_pen_in_hard_cover_count_cover_and_obscured():
    wall = piece(1, 14.5, 8.0, 15.0, 12.0, 1.0, cover=Cover.HARD)
    st = zone_game([("h", "b", DOG, (10, 10)), ("c", "a", CREW, (15.6, 10))], pieces=(wall,))
    f = ex.enemy_fact(st, "h", "c")
    assert not ex.in_the_open(st, "h", "c") and not f.in_open and f.cover is Cover.HARD
    assert ex.pen(st, "h", "c") == f.pen == 2  # hard -1 (cover.toml), Obscured -1 (civilian armour in cover)
    assert {p.rule for p in f.pen_parts} == {"CORE-3.6.TABLE", "ARMORY-5.3.OBSCURED"}


def test_open_enemy_behind_an_obstruction_pays_one_and_a_pinned_one_two_more():
    fence = piece(1, 12.0, 8.0, 12.5, 12.0, 0.75, cover=Cover.OBSTRUCTION)
    st = zone_game([("h", "b", DOG, (10, 10)), ("c", "a", CREW, (16, 10))], pieces=(fence,))
    assert ex.in_the_open(st, "h", "c")
    assert ex.pen(st, "h", "c") == 1
    st.units["c"].pins = 1
    f = ex.enemy_fact(st, "h", "c")
    assert f.pen == 3 and [p.rule for p in f.pen_parts] == ["CORE-3.6.OBSTRUCTION", "COMBAT-4.3.KICK-RANGED"]


def test_elevation_degrades_soft_cover_to_an_obstruction_so_the_enemy_stands_in_the_open():
    roof = piece(1, 0.0, 0.0, 10.5, 20.0, 3.0, cover=Cover.NONE, blocks=True, surface=True)
    hedge = piece(2, 14.5, 8.0, 15.0, 12.0, 1.0, cover=Cover.SOFT)
    st = zone_game([("h", "b", DOG, (10, 10, 3.0)), ("c", "a", CREW, (15.6, 10))], pieces=(roof, hedge))
    f = ex.enemy_fact(st, "h", "c")
    assert f.visible and f.cover is Cover.OBSTRUCTION and f.in_open
    assert f.pen == 1 and [p.rule for p in f.pen_parts] == ["GEO-14"]  # no Obscured: not soft after elevation


# --- AI-D.01 target choice --------------------------------------------------------------------------------------

def test_ai_d01_prefers_the_open_enemy_over_a_closer_one_in_cover():
    wall = piece(1, 14.5, 8.0, 15.0, 12.0, 1.0, cover=Cover.HARD)
    st = zone_game([("h", "b", DOG, (10, 10)), ("near", "a", CREW, (15.6, 10)), ("open", "a", CREW, (10, 17))],
                   pieces=(wall,))
    c = ex.choose_target(st, "h", close_tol=TOL)
    assert [f.enemy for f in c.visible] == ["near", "open"]
    assert c.open_only and c.d_star == pytest.approx(6.0) and c.tolerance == 1.0
    assert c.chosen is not None and c.chosen.enemy == "open"
    assert [f.enemy for f in c.ranked] == ["open"]


def test_ai_d01_within_the_tolerance_the_clearest_line_wins_then_distance_then_id():
    fence = piece(1, 12.0, 8.0, 12.5, 12.0, 0.75, cover=Cover.OBSTRUCTION)
    st = zone_game([("h", "b", DOG, (10, 10)), ("e1", "a", CREW, (16, 10)),  # 5.0", one obstruction
                    ("e2", "a", CREW, (10, 16.8)),  # 5.8", clear
                    ("e3", "a", CREW, (3.0, 10)),  # 6.0": exactly d* + 1.0, still in C', clear
                    ("e4", "a", CREW, (10, 3.0 - 0.2))],  # 6.2", clear: out of C'
                   pieces=(fence,))
    c = ex.choose_target(st, "h", close_tol=TOL)
    assert c.d_star == pytest.approx(5.0)
    assert [(f.enemy, f.pen) for f in c.ranked] == [("e2", 0), ("e3", 0), ("e1", 1)]
    assert c.chosen is not None and c.chosen.enemy == "e2"
    assert [f.enemy for f in ex.choose_target(st, "h", close_tol=0.5).ranked] == ["e1"]


def test_ai_d01_equal_numbers_go_to_the_lowest_id_and_nobody_visible_chooses_none():
    st = zone_game([("h", "b", DOG, (10, 10)), ("b2", "a", CREW, (16, 10)), ("b1", "a", CREW, (4, 10))])
    first = ex.choose_target(st, "h", close_tol=TOL).chosen
    assert first is not None and first.enemy == "b1"
    for m in ("b1", "b2"):
        st.models[m].ooa = True
    c = ex.choose_target(st, "h", close_tol=TOL)
    assert c.chosen is None and c.visible == () and c.d_star == math.inf


# --- in cover -------------------------------------------------------------------------------------------------

def test_a_hostile_is_in_cover_against_a_target_only_with_soft_or_better_between():
    wall = piece(1, 10.6, 8.0, 11.1, 12.0, 1.0, cover=Cover.HARD)
    st = zone_game([("h", "b", DOG, (10, 10)), ("east", "a", CREW, (18, 10)), ("west", "a", CREW, (2, 10))],
                   pieces=(wall,))
    s = ex.cover_against(st, "h", "east")
    assert s.in_cover and s.cover is Cover.HARD and s.against == "east"
    assert ex.in_cover_against(st, "h", "east") and not ex.in_cover_against(st, "h", "west")


def test_a_unit_is_in_cover_only_when_every_model_is():
    wall = piece(1, 10.6, 8.0, 11.1, 12.0, 1.0, cover=Cover.SOFT)
    st = zone_game([("d1", "b", DOG, (10, 10)), ("d2", "b", DOG, (10, 14)), ("east", "a", CREW, (18, 10))],
                   units={"pack": ["d1", "d2"]}, pieces=(wall,))
    assert ex.in_cover_against(st, "d1", "east") and not ex.in_cover_against(st, "pack", "east")
    assert ex.in_cover_at_rest(st, "d1") and not ex.in_cover_at_rest(st, "pack")


def test_in_cover_at_rest_is_base_contact_with_a_soft_hard_or_hardened_piece():
    crates = piece(1, 10.55, 9.0, 11.5, 11.0, 1.0, cover=Cover.SOFT)  # 0.05" from the base: contact
    bunker = piece(2, 10.55, 19.0, 11.5, 21.0, 2.0, cover=Cover.HARDENED)
    fence = piece(3, 10.55, 29.0, 11.5, 31.0, 1.0, cover=Cover.OBSTRUCTION)
    st = zone_game([("h1", "b", DOG, (10, 10)), ("h2", "b", DOG, (10, 20)), ("h3", "b", DOG, (10, 30)),
                    ("h4", "b", DOG, (9.7, 14.5)), ("c", "a", CREW, (30, 5))],
                   pieces=(crates, bunker, fence))
    a = ex.cover_at_rest(st, "h1")
    assert a.in_cover and a.cover is Cover.SOFT and a.pieces == (1,)
    assert ex.cover_at_rest(st, "h2").cover is Cover.HARDENED
    assert not ex.in_cover_at_rest(st, "h3")  # an obstruction is no cover
    assert not ex.in_cover_at_rest(st, "h4")  # touches nothing


# --- AI-D.06 candidates, progress, the melee mover's choice, nearest cover -----------------------------------------

WALL_NEAR_PATH = piece(1, 18.0, 10.8, 18.4, 12.8, 1.0, cover=Cover.HARD, movement=Movement.IMPASSABLE)


def test_ai_d06_open_table_candidates_progress_point_and_ring():
    st = zone_game([("h", "b", DOG, (10, 10)), ("c", "a", CREW, (30, 10))])
    cs = ex.candidate_points(st, "h", 8.0, target="c")
    assert cs.generated == 1 + 1 + 64 and cs.start_dist == pytest.approx(19.0)  # 20" centre to centre - radii
    by = {(round(c.x, 6), round(c.y, 6)): c for c in cs.kept}
    assert len(cs.kept) == 65  # the ring's (18, 10) is the progress point, kept once
    prog = by[(18.0, 10.0)]
    assert prog.source == "progress" and prog.cost == pytest.approx(8.0) and prog.progress == pytest.approx(8.0)
    side = by[(10.0, 18.0)]  # ring, 90 degrees, full allowance
    assert side.source == "ring" and side.progress == pytest.approx(19.0 - (math.hypot(20, 8) - 1.0))
    assert by[(10.0, 10.0)].source == "stay" and by[(10.0, 10.0)].cost == 0.0
    assert [(c.x, c.y) for c in cs.kept] == sorted((c.x, c.y) for c in cs.kept)
    choice = ex.choose_melee_move(cs, cover_slack=SLACK)
    assert choice.why == "progress" and choice.chosen is prog and choice.best_progress == pytest.approx(8.0)


def test_ai_d06_a_point_in_cover_within_the_slack_beats_the_best_progress():
    st = zone_game([("h", "b", DOG, (10, 10)), ("c", "a", CREW, (30, 10))], pieces=(WALL_NEAR_PATH,))
    cs = ex.candidate_points(st, "h", 8.0, target="c")
    cover = [c for c in cs.kept if c.source == "cover"]
    assert cover and all(c.x < 18.0 for c in cover)  # only the side facing away from the target
    choice = ex.choose_melee_move(cs, cover_slack=SLACK)
    assert choice.why == "cover" and choice.chosen is not None
    c = choice.chosen
    assert c.in_cover and c.cover is Cover.HARD and c.piece == 1
    assert (c.x, c.y) == (pytest.approx(17.45), pytest.approx(10.8)) and c.progress >= choice.best_progress - 1.0
    assert all(o.progress <= c.progress + 1e-9 for o in choice.in_cover)  # same class: higher progress first
    assert ex.choose_melee_move(cs, cover_slack=0.0).why == "progress"  # nothing in cover within 0"


def test_ai_d06_reachable_contact_takes_the_cheapest_contact_point():
    st = zone_game([("h", "b", DOG, (10, 10)), ("c", "a", CREW, (14, 10))])
    choice = ex.choose_melee_move(ex.candidate_points(st, "h", 8.0, target="c"), cover_slack=SLACK)
    assert choice.why == "contact" and choice.chosen is not None and choice.chosen.contact
    assert choice.chosen.cost == pytest.approx(4.0 - 1.0 - 0.05)


def test_ai_d06_filters_leash_cohesion_and_illegal_points():
    st = zone_game([("h", "b", DOG, (10, 10)), ("c", "a", CREW, (30, 10))])
    leashed = ex.candidate_points(st, "h", 8.0, target="c", leash_centre=(10.0, 10.0), leash=4.0)
    assert dict(leashed.dropped)["leash"] == 32  # radii 6 and 8; the progress point stands for the ring's (18, 10)
    assert all(math.hypot(c.x - 10, c.y - 10) <= 4.0 + 1e-9 for c in leashed.kept)
    st2 = zone_game([("d1", "b", DOG, (10, 10)), ("d2", "b", DOG, (8, 10)), ("c", "a", CREW, (30, 10))],
                    units={"pack": ["d1", "d2"]})
    tied = ex.candidate_points(st2, "d1", 8.0, target="c", cohesion_with=["d2"])
    assert dict(tied.dropped)["cohesion"] > 0
    assert all(math.hypot(c.x - 8, c.y - 10) - 1.0 <= 1.0 + 1e-9 for c in tied.kept)
    st3 = zone_game([("h", "b", DOG, (1, 10)), ("c", "a", CREW, (30, 10))])
    edge = ex.candidate_points(st3, "h", 8.0, target="c")
    assert dict(edge.dropped)["illegal"] > 0 and all(c.x >= 0.5 for c in edge.kept)


def test_pathdist_goes_round_an_impassable_wall():
    wall = piece(1, 15.0, 4.0, 16.0, 16.0, 3.0, cover=Cover.HARD, blocks=True, movement=Movement.IMPASSABLE)
    st = zone_game([("h", "b", DOG, (10, 10)), ("c", "a", CREW, (21, 10))], pieces=(wall,))
    straight = 11.0 - 1.0
    assert ex.pathdist(st, "h", (10.0, 10.0, 0.0), "c") > straight + 1.0
    assert ex.pathdist(st, "h", (10.0, 10.0, 0.0), (12.0, 10.0)) == pytest.approx(2.0)


def test_contact_points_ring_a_footprint_at_the_base_radius_spaced_half_an_inch():
    pts = ex.contact_points(rect(0.0, 0.0, 2.0, 1.0), 0.5)
    for (x, y), (nx, ny) in pts:
        dx, dy = max(0.0 - x, 0.0, x - 2.0), max(0.0 - y, 0.0, y - 1.0)
        assert math.hypot(dx, dy) == pytest.approx(0.55)
        assert math.hypot(nx, ny) == pytest.approx(1.0)
    bottom = sorted(x for (x, y), _ in pts if y == pytest.approx(-0.55))
    assert bottom == pytest.approx([0.0, 0.5, 1.0, 1.5, 2.0])  # 2.0: the corner arc starts on the edge's line


def test_nearest_cover_is_the_cheapest_reachable_contact_point_lowest_xy_on_ties():
    crates = piece(1, 13.0, 9.0, 14.0, 11.0, 1.0, cover=Cover.SOFT, movement=Movement.IMPASSABLE)
    fence = piece(2, 11.0, 0.0, 11.5, 3.0, 1.0, cover=Cover.OBSTRUCTION, movement=Movement.IMPASSABLE)
    st = zone_game([("h", "b", DOG, (10, 10)), ("c", "a", CREW, (30, 30))], pieces=(crates, fence))
    nc = ex.nearest_cover(st, "h", 8.0)
    assert nc is not None and nc.piece == 1 and nc.source == "cover"
    assert (nc.x, nc.y) == (pytest.approx(12.45), pytest.approx(10.0)) and nc.cost == pytest.approx(2.45)
    assert ex.nearest_cover(st, "h", 2.0) is None  # out of reach
    assert ex.nearest_cover(st, "h", 8.0, leash_centre=(10.0, 10.0), leash=2.0) is None  # outside the leash
    st.models["h"].x = 12.45
    here = ex.nearest_cover(st, "h", 8.0)
    assert here is not None and here.source == "stay" and here.cost == 0.0


def test_the_queries_write_nothing_roll_nothing_and_answer_the_same_twice():
    crates = piece(1, 13.0, 9.0, 14.0, 11.0, 1.0, cover=Cover.HARDENED, movement=Movement.IMPASSABLE)
    st = zone_game([("h", "b", DOG, (10, 10)), ("c", "a", CREW, (14.6, 10)), ("o", "a", CREW, (10, 20))],
                   pieces=(crates,))
    before = st.to_json()
    first = (ex.choose_target(st, "h", close_tol=TOL), ex.candidate_points(st, "h", 8.0, target="o"),
             ex.nearest_cover(st, "h", 8.0), ex.in_cover_against(st, "h", "o"), ex.in_cover_at_rest(st, "h"))
    assert ex.pen(st, "h", "c") == 3  # hardened -2, Obscured -1
    assert st.to_json() == before
    again = (ex.choose_target(st, "h", close_tol=TOL), ex.candidate_points(st, "h", 8.0, target="o"),
             ex.nearest_cover(st, "h", 8.0), ex.in_cover_against(st, "h", "o"), ex.in_cover_at_rest(st, "h"))
    assert first == again
