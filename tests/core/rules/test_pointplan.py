"""Climb, Jump, Withdraw and an interrupting Move to a point (issue 18): the action `point_action` returns is one
`validate` accepts and `apply` resolves where the plan says; a refusal carries the engine's reason and rule."""
from __future__ import annotations

import math

import pytest
import shapely

from game.core.actions import Climb
from game.core.rules import apply
from game.core.rules.moveplan import plan_move
from game.core.rules.pointplan import point_action

from .test_moveplan import acting  # noqa: F401 - the shared fixture


def test_a_move_to_a_point_is_the_planned_move(acting: object) -> None:  # noqa: F811
    st = acting.state
    unit = st.activation.unit
    m = st.models[st.units[unit].models[0]]
    for k in range(16):
        p = (m.x + 2 * math.cos(2 * math.pi * k / 16), m.y + 2 * math.sin(2 * math.pi * k / 16))
        assert point_action(st, "move", unit, p).action == plan_move(st, unit, p).action


def test_not_engaged_a_withdraw_is_refused_with_its_rule(acting: object) -> None:  # noqa: F811
    st = acting.state
    unit = st.activation.unit
    m = st.models[st.units[unit].models[0]]
    got = point_action(st, "withdraw", unit, (m.x + 1.5, m.y + 1.5))
    assert got.action is None and got.rule and got.reason


def test_a_jump_from_the_ground_says_why_not(acting: object) -> None:  # noqa: F811
    st = acting.state
    unit = st.activation.unit
    m = st.models[st.units[unit].models[0]]
    got = point_action(st, "jump", unit, (m.x + 1.0, m.y))
    assert got.action is None and got.rule


def test_a_climb_onto_a_floor_is_accepted_or_refused_by_the_engine(acting: object) -> None:  # noqa: F811
    """CORE-3.3.CLIMB / GEO-24: the model set down beside each raised floor asks to climb onto it: an accepted Climb
    is one `apply` resolves to the planned end; a refused one carries the engine's rule."""
    from game.core.geometry.terrain import levels

    st = acting.state
    unit = st.activation.unit
    mid = st.units[unit].models[0]
    floors = [lv for lv in levels(st.battlefield)[1:] if lv.support is not None]
    assert floors, "Game One's table has raised floors"
    accepted = refused = 0
    rules: set[str] = set()
    for lv in floors:
        goal = lv.support.buffer(-0.6).representative_point() if not lv.support.buffer(-0.6).is_empty else None
        if goal is None or goal.is_empty:
            continue
        for t in (0.0, 0.25, 0.5, 0.75):
            edge = lv.support.exterior.interpolate(t, normalized=True) if hasattr(lv.support, "exterior") else None
            if edge is None:
                continue
            dx, dy = edge.x - goal.x, edge.y - goal.y
            d = math.hypot(dx, dy) or 1.0
            near = st.clone()
            near.activation.budget = max(near.activation.budget, 2)  # a unit with two actions: a climb may take both
            mm = near.models[mid]
            mm.x, mm.y, mm.z = edge.x + dx / d * 0.8, edge.y + dy / d * 0.8, 0.0
            from shapely.ops import nearest_points

            _, spot = nearest_points(shapely.Point(mm.x, mm.y), lv.support.buffer(-0.6))  # the nearest standing
            got = point_action(near, "climb", unit, (spot.x, spot.y, lv.z))
            if got.action is None:
                assert got.reason and got.rule
                refused += 1
                rules.add(got.rule)
                continue
            assert isinstance(got.action, Climb)
            after = near.clone()
            apply(after, got.action)
            end = got.action.path[-1]
            assert math.hypot(after.models[mid].x - end[0], after.models[mid].y - end[1]) < 1e-6
            accepted += 1
    assert accepted + refused > 0
    # Game One's floors are reached by stairs: a planned path that climbs nothing is the engine's refusal to Climb
    assert accepted >= 1 or "CORE-3.3.CLIMB" in rules, rules


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="not a movement to a point"):
        point_action(None, "teleport", "u", (0, 0))  # type: ignore[arg-type]
