"""GEO-15/16 templates on tiny inline boards: SBT, LBT, the flame teardrop, tangency, soft cover and shields."""
from __future__ import annotations

import math

import pytest

from game.core.battlefield import Base, Battlefield, Cover, Scene, TerrainPiece
from game.core.geometry.sight.naive import NAIVE
from game.core.geometry.templates import TemplateEffect, TemplateKind, flame_distance, flame_frame, template_coverage


def rect(pid, x0, y0, x1, y1, top, **kw):
    return TerrainPiece(pid, kw.pop("name", f"piece-{pid}"), ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), 0.0, top, **kw)


def model(mid, x, y, z=0.0, *, r=0.5, side="hostile"):
    return Base(mid, x, y, z, r, 1.25, side)


def board(*pieces):
    return Battlefield("inline", 24.0, 24.0, pieces=tuple(pieces))


def test_geo15_sbt_and_lbt_sizes_and_tangency_counts_as_touched():
    sc = Scene(bases=(model("in", 10.0, 10.0), model("tangent", 12.0, 10.0), model("out", 12.001, 13.0),
                      model("lbt-edge", 13.0, 10.0)))
    sbt = template_coverage(board(), sc, "sbt", (10.0, 10.0))
    assert {m.model for m in sbt.models} == {"in", "tangent"}  # 1.5 + 0.5 = 2.0 exactly
    assert sbt.model("tangent").distance == 0.0 and "touching" in sbt.model("tangent").reason
    assert sbt.rule == "GEO-15" and sbt.model("in").rule == "GEO-16"
    lbt = template_coverage(board(), sc, TemplateKind.LBT, (10.0, 10.0))
    assert {m.model for m in lbt.models} == {"in", "tangent", "lbt-edge"}  # 2.5 + 0.5 = 3.0


def test_geo16_soft_cover_inside_a_blast_gives_the_save_bonus():
    hedge = rect(1, 10.75, 8.0, 11.0, 12.0, 0.75, cover=Cover.SOFT, name="hedge")
    sc = Scene(bases=(model("behind", 11.6, 10.0), model("front", 9.0, 10.0)))
    fact = template_coverage(board(hedge), sc, "lbt", (10.0, 10.0))
    assert fact.model("behind").effect is TemplateEffect.SOFT_COVER
    assert fact.model("behind").soft_cover_between == (1,) and fact.model("behind").affected
    assert fact.model("front").effect is TemplateEffect.AFFECTED
    assert set(fact.affected) == {"behind", "front"}


def test_geo16_hard_wall_shields_a_model_inside_an_lbt():
    wall = rect(1, 10.75, 8.0, 11.0, 12.0, 1.0, blocks_los=True, cover=Cover.HARD, name="brick wall")
    sc = Scene(bases=(model("behind", 11.6, 10.0), model("front", 9.0, 10.0)))
    fact = template_coverage(board(wall), sc, "lbt", (10.0, 10.0))
    assert fact.model("behind").effect is TemplateEffect.SHIELDED and fact.model("behind").shielded_by == (1,)
    assert not fact.model("behind").affected and fact.affected == ("front",)
    assert template_coverage(board(wall), sc, "lbt", (10.0, 10.0), backend=NAIVE) == fact


def test_geo16_blocking_piece_lower_than_the_origin_does_not_shield_but_hard_does():
    crate_stack = rect(1, 10.75, 8.0, 11.0, 12.0, 2.0, blocks_los=True, cover=Cover.SOFT)
    sc = Scene(bases=(model("behind", 11.6, 10.0, 0.0),))
    low = template_coverage(board(crate_stack), sc, "sbt", (10.0, 10.0, 0.0))
    assert low.model("behind").effect is TemplateEffect.SHIELDED  # top 2" above both ends
    high = template_coverage(board(crate_stack), Scene(bases=(model("behind", 11.6, 10.0, 3.0),)), "sbt",
                             (10.0, 10.0, 3.0))
    assert high.model("behind").effect is TemplateEffect.AFFECTED  # under both ends: nothing between


def test_geo16_grazing_a_wall_end_does_not_shield():
    wall = rect(1, 10.0, 6.0, 12.0, 10.0, 3.0, blocks_los=True, cover=Cover.HARD)
    sc = Scene(bases=(model("m", 13.375, 10.0),))
    fact = template_coverage(board(wall), sc, "lbt", (10.5, 10.0))  # the segment runs along the y = 10 face
    assert fact.model("m").effect is TemplateEffect.AFFECTED
    inside = template_coverage(board(wall), sc, "lbt", (10.5, 9.875))  # 1/8" inside the face
    assert inside.model("m").effect is TemplateEffect.SHIELDED


def test_geo15_flame_teardrop_at_any_angle_from_the_attackers_base():
    attacker = model("A", 5.0, 5.0, side="crew")
    for deg in (0, 37, 90, 200, 315):
        th = math.radians(deg)
        tip, axis = flame_frame(attacker, th)
        assert math.hypot(tip[0] - 5.0, tip[1] - 5.0) == pytest.approx(0.5)
        far = (tip[0] + 8.0 * axis[0], tip[1] + 8.0 * axis[1])
        assert flame_distance(tip, axis, far) == pytest.approx(0.0, abs=1e-9)
        side = (tip[0] + 6.5 * axis[0] - 1.5 * axis[1], tip[1] + 6.5 * axis[1] + 1.5 * axis[0])
        assert flame_distance(tip, axis, side) == pytest.approx(0.0, abs=1e-9)  # max width 3"
        beyond = (tip[0] + 9.0 * axis[0], tip[1] + 9.0 * axis[1])
        assert flame_distance(tip, axis, beyond) == pytest.approx(1.0)
        th_ = math.radians(deg)
        tgt = model("T", 5.0 + 0.5 * math.cos(th_) + 8.5 * math.cos(th_),
                    5.0 + 0.5 * math.sin(th_) + 8.5 * math.sin(th_))
        fact = template_coverage(board(), Scene(bases=(attacker, tgt)), "flame", None, angle=th, attacker_id="A")
        assert fact.model("T") is not None and fact.model("T").distance == pytest.approx(0.0, abs=1e-6)
        assert fact.model("A") is None  # the attacker itself is never affected


def test_geo15_flame_width_and_miss_and_aim_at_a_point():
    attacker = model("A", 2.0, 10.0, side="crew")
    sc = Scene(bases=(attacker, model("wide", 9.0, 12.0), model("miss", 9.0, 12.05), model("ally", 4.0, 10.0,
                                                                                           side="crew")))
    fact = template_coverage(board(), sc, TemplateKind.FLAME, (20.0, 10.0), attacker_id="A")
    assert fact.angle == pytest.approx(0.0)
    assert {m.model for m in fact.models} == {"wide", "ally"}  # friendly models are touched too
    assert len(fact.outline) > 10


def test_geo16_flame_hard_wall_shields():
    wall = rect(1, 5.0, 8.0, 5.5, 12.0, 1.0, blocks_los=True, cover=Cover.HARD)
    sc = Scene(bases=(model("A", 2.0, 10.0, side="crew"), model("T", 7.0, 10.0)))
    fact = template_coverage(board(wall), sc, "flame", None, angle=0.0, attacker_id="A")
    assert fact.model("T").effect is TemplateEffect.SHIELDED


def test_templates_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="needs attacker_id"):
        template_coverage(board(), Scene(), "flame", (1.0, 1.0))
    with pytest.raises(ValueError, match="not a valid TemplateKind"):
        template_coverage(board(), Scene(), "mortar", (1.0, 1.0))
