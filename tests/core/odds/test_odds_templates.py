"""Deviated templates (GEO-18, GEO-16): the exact touch arcs against `apply` at 3,600 scripted angles per D10 roll,
and the arc endpoints against bisection on the resolver's touch predicate."""
from __future__ import annotations

import math

import pytest

from game.core.actions import ThrowGrenade
from game.core.battlefield import Cover
from game.core.dice import ScriptedDice
from game.core.geometry.indirect import deviation_distance
from game.core.geometry.templates import TemplateKind, template_coverage
from game.core.odds.actions import attack_odds
from game.core.odds.deviation import deviation_arcs, touch_arc
from game.core.rules.apply import apply
from game.core.settings import Settings
from tests.core.rules.test_combat import piece
from tests.enginekit import activate, game, profile

ANGLES = 3600
POINT = (20.0, 11.0)


def flash_game(pieces=()):
    """A Flash Bang (SBT, no dice after the template) at POINT; the Will-NA target 2.5" away shows each touch
    as a `pin_ignored` event, so one state can be reused for every angle."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("t1", "b", profile(will=None), (22.5, 11.0))],
              pieces=pieces, grenades={"a1": {"flash_bang": 10 ** 6}})
    activate(st, "a1")
    return st


def effect_by_apply(st, k: int, angle: float) -> str:
    """Miss (9 vs TN 5), deviation roll k, the angle; the resolver's template event says what t1 got."""
    ev = apply(st, ThrowGrenade("a1", "flash_bang", *POINT), ScriptedDice([9, k, angle]))
    st.activation.spent = 0
    tmpl = next(e for e in ev if e.type == "template").data["models"]
    return next((m["effect"] for m in tmpl if m["model"] == "t1"), "untouched")


def fractions_by_apply(st, k: int) -> dict[str, float]:
    counts: dict[str, int] = {}
    for j in range(ANGLES):
        e = effect_by_apply(st, k, 2 * math.pi * (j + 0.5) / ANGLES)
        counts[e] = counts.get(e, 0) + 1
    return {e: c / ANGLES for e, c in counts.items()}


def fractions_by_arcs(st, k: int) -> dict[str, float]:
    arcs = deviation_arcs(st.battlefield, st.scene(), TemplateKind.SBT, POINT, "t1", k, settings=Settings.defaults())
    out: dict[str, float] = {}
    for a in arcs:
        out[a.effect] = out.get(a.effect, 0.0) + a.width / (2 * math.pi)
    out["untouched"] = 1.0 - sum(out.values())
    return {e: f for e, f in out.items() if f > 1e-12}


def test_touch_probability_equals_apply_at_3600_angles_per_roll():
    """GEO-18: for every D10 deviation roll, the exact touched fraction of angles equals apply's within 1e-3."""
    st = flash_game()
    for k in range(1, 11):
        exact, seen = fractions_by_arcs(st, k), fractions_by_apply(st, k)
        assert set(seen) <= set(exact) | {"untouched"}
        for e in set(exact) | set(seen):
            assert exact.get(e, 0.0) == pytest.approx(seen.get(e, 0.0), abs=1e-3), (k, e)


def test_soft_cover_sub_arcs_equal_apply():
    """GEO-16: a bush between parts of the deviation circle and the model splits the touch arc into soft-cover
    and plain sub-arcs; both fractions equal apply's at 3,600 angles (rolls 2 and 3)."""
    bush = piece(12, "bush", 21.6, 10.0, 21.8, 11.3, 0.75, cover=Cover.SOFT)
    st = flash_game((bush,))
    for k in (2, 3):
        exact, seen = fractions_by_arcs(st, k), fractions_by_apply(st, k)
        assert "soft_cover" in exact and ("affected" in exact) is (k == 3)
        for e in set(exact) | set(seen):
            assert exact.get(e, 0.0) == pytest.approx(seen.get(e, 0.0), abs=1e-3), (k, e)


@pytest.mark.parametrize("k", range(1, 11))
def test_arc_endpoints_equal_bisection_on_the_touch_predicate(k):
    """The closed-form arc ends equal bisection on template_coverage's touch test to 1e-9 (GEO-16, GEO-18)."""
    st = flash_game()
    scene, bf = st.scene(), st.battlefield
    d = deviation_distance(k)
    base = scene.base("t1")

    def touched(t: float) -> bool:
        at = (POINT[0] + d * math.cos(t), POINT[1] + d * math.sin(t), 0.0)
        return template_coverage(bf, scene, TemplateKind.SBT, at).model("t1") is not None

    arc = touch_arc(POINT, d, (base.x, base.y), TemplateKind.SBT.radius + base.radius + 1e-6)
    if arc is None or arc[1] - arc[0] >= 2 * math.pi:
        for j in range(36):
            assert touched(2 * math.pi * j / 36) is (arc is not None)
        return
    mid = 0.5 * (arc[0] + arc[1])
    assert touched(mid)
    for end, far in ((arc[0], mid - math.pi), (arc[1], mid + math.pi)):
        inside, outside = mid, far
        while abs(outside - inside) > 1e-13:
            m = 0.5 * (inside + outside)
            inside, outside = (m, outside) if touched(m) else (inside, m)
        assert end == pytest.approx(0.5 * (inside + outside), abs=1e-9)


def test_template_odds_touch_probability_sums_hit_and_deviations():
    """GAP-70: P(touched) = P(hit) * [touched at the point] + P(miss)/10 * sum of the arcs' fractions."""
    st = flash_game()
    o = attack_odds(st, ThrowGrenade("a1", "flash_bang", *POINT))
    mo = o.models["t1"]
    expected = float(o.p_hit) * 0 + (1 - float(o.p_hit)) / 10 * sum(
        1 - fractions_by_arcs(st, k).get("untouched", 0.0) for k in range(1, 11))
    assert float(mo.p_touched) == pytest.approx(expected, abs=1e-12)
    assert o.p_hit == 0.5
