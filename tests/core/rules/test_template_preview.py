"""template_preview is the resolution (GEO-15, GEO-16, GEO-18, GAP-70, GAP-71, GAP-73)."""
from __future__ import annotations

import math
import time

import pytest

from game.core.actions import ThrowGrenade
from game.core.dice import ScriptedDice
from game.core.rules.apply import apply
from game.core.rules.template_preview import template_preview
from tests.core.rules.test_blasts import FLAME, flame_game
from tests.enginekit import activate, game, profile


def _touched(events: list) -> set[str]:
    tmpl = [e for e in events if e.type == "template"]
    return {m["model"] for m in tmpl[0].data["models"]} if tmpl else set()


def grenade_game():
    """a1 (side a) throws at (20, 11): b1 (enemy) under it, a2 (friend) at its edge, b2 far away."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=5), (20, 11)),
               ("a2", "a", profile(armor=5), (20, 13.0)), ("b2", "b", profile(armor=5), (30, 20))],
              grenades={"a1": {"hand_grenade": 1}})
    activate(st, "a1")
    return st


THROW = ThrowGrenade("a1", "hand_grenade", 20.0, 11.0)


def test_gap70_grenade_preview_touches_what_the_hit_resolves():
    st = grenade_game()
    plan = template_preview(st, THROW)
    assert plan.legal and plan.kind == "sbt" and plan.direct
    assert plan.touched == {"b1", "a2"}
    ev = apply(st, THROW, ScriptedDice([2] + [9] * 10))
    assert _touched(ev) == plan.touched


def test_gap73_flame_preview_touches_what_the_flame_resolves():
    st = flame_game(extra=(("a2", "a", profile(armor=5), (13.0, 11.9)),))
    plan = template_preview(st, FLAME)
    assert plan.legal and plan.kind == "flame" and plan.deviation is None
    assert "b1" in plan.touched and "a1" not in plan.touched
    ev = apply(st, FLAME, ScriptedDice([9] * 10))
    assert _touched(ev) == plan.touched
    rotated = template_preview(st, FLAME.__class__("a1", "flame_thrower", math.pi))
    assert "b1" not in rotated.touched


def test_gap73_friend_under_the_template_is_in_friends_and_spared_per_setting():
    st = grenade_game()
    plan = template_preview(st, THROW)
    assert [f.model for f in plan.friends] == ["a2"] and not plan.friends[0].spared
    assert [e.model for e in plan.enemies] == ["b1"]
    st = flame_game({"flame.friendly": False}, extra=(("a2", "a", profile(armor=5), (13.0, 11.9)),))
    fp = template_preview(st, FLAME)
    assert [(f.model, f.spared) for f in fp.friends] == [("a2", True)]


@pytest.mark.parametrize("d10, angle", [(1, 0.0), (4, 1.0), (7, 2.5), (10, 4.0)])
def test_geo18_deviation_area_holds_the_landed_centre(d10: int, angle: float):
    st = grenade_game()
    plan = template_preview(st, THROW)
    assert plan.deviation is not None
    assert plan.deviation.min_distance == 0.5 and plan.deviation.max_distance == 5.0
    ev = apply(st, THROW, ScriptedDice([9, d10, angle] + [9] * 10))
    dev = [e for e in ev if e.type == "deviation"][0].data
    centre = tuple(dev["point"])
    assert plan.deviation.contains(centre)
    r = math.hypot(centre[0] - 20.0, centre[1] - 11.0)
    assert plan.deviation.min_distance - 1e-9 <= r <= plan.deviation.max_distance + 1e-9


def test_preview_is_pure_and_illegal_is_said():
    st = grenade_game()
    before = st.to_json()
    t0 = time.perf_counter()
    for _ in range(20):
        template_preview(st, THROW)
    per_call = (time.perf_counter() - t0) / 20
    assert st.to_json() == before
    assert per_call < 0.5
    far = template_preview(st, ThrowGrenade("a1", "hand_grenade", 60.0, 11.0))
    assert not far.legal and far.rule == "GEO-5"
