"""A Move planned toward a point is the Move the engine accepts (issue 18, the preview is the resolution): its path
is the GEO-27 shortest path, cut at the GEO-8 allowance when the point lies beyond it, checked by `validate`, and
applying it moves the model along those points."""
from __future__ import annotations

import math

import pytest

from game.core.rules import apply
from game.core.rules.moveplan import plan_move
from game.core.state import Phase


@pytest.fixture(scope="module")
def acting() -> object:
    """Game One (seed 1, random agents) at the first activation of a one-model crew unit with actions left."""
    from game.client.driver import InlineDriver
    from game.client.session import open_session
    from game.client.setup import GameSetup

    s = open_session(GameSetup(seed=1, agents=("random", "random")))
    d = InlineDriver(s)
    while not s.over:
        st = s.state
        act = st.activation
        if (st.phase is Phase.ACTION and act is not None and act.spent == 0 and st.deciding in s.crew_sides()
                and len(st.units[act.unit].models) == 1):
            return s
        s.apply(d.next_action())
    pytest.skip("no single-model crew activation in this game")


def test_a_near_point_is_reached_and_the_move_goes_there(acting: object) -> None:
    st = acting.state
    unit = st.activation.unit
    m = st.models[st.units[unit].models[0]]
    goal = None
    for k in range(24):  # a legal point 2" away in some direction
        a = 2 * math.pi * k / 24
        plan = plan_move(st, unit, (m.x + 2 * math.cos(a), m.y + 2 * math.sin(a)))
        if plan.action is not None and plan.reached:
            goal = plan
            break
    assert goal is not None
    assert goal.points[0] == (m.x, m.y, m.z) and goal.length <= goal.allowance + 1e-6
    after = st.clone()
    events = apply(after, goal.action)
    moved = next(e for e in events if e.type == "move")
    end = after.models[m.id]
    assert math.hypot(end.x - goal.points[-1][0], end.y - goal.points[-1][1]) < 1e-6
    assert moved.data["cost"] == pytest.approx(goal.cost, abs=0.05)


def test_a_far_point_is_cut_at_the_allowance(acting: object) -> None:
    st = acting.state
    unit = st.activation.unit
    m = st.models[st.units[unit].models[0]]
    plan = None
    for fx in (0.2, 0.5, 0.8):  # a legal point at least 20" away
        for fy in (0.2, 0.5, 0.8):
            p = (st.table[0] * fx, st.table[1] * fy)
            if math.hypot(p[0] - m.x, p[1] - m.y) > 20:
                plan = plan_move(st, unit, p)
                if plan.action is not None:
                    break
        if plan is not None and plan.action is not None:
            break
    assert plan is not None and plan.action is not None, plan
    assert not plan.reached and plan.length <= plan.allowance + 1e-6
    after = st.clone()
    apply(after, plan.action)  # the engine takes it as planned


def test_an_illegal_goal_says_why(acting: object) -> None:
    st = acting.state
    unit = st.activation.unit
    piece = next(p for p in st.battlefield.pieces if p.movement.value == "impassable" and p.top_z > 2)
    import shapely

    inside = shapely.Polygon(piece.footprint).representative_point()
    plan = plan_move(st, unit, (inside.x, inside.y))
    assert plan.action is None and plan.reason and plan.rule


def test_the_reach_band_holds_every_planned_end_and_not_the_far_side(acting: object) -> None:
    """GEO-8/GEO-27: the band drawn for this Move contains the end of each Move the planner accepts within the
    allowance, and not a point farther than the allowance in a straight line; the second band holds the first."""
    from game.core.rules.moveplan import move_reach

    st = acting.state
    unit = st.activation.unit
    m = st.models[st.units[unit].models[0]]
    one = move_reach(st, unit, moves=1)
    two = move_reach(st, unit, moves=2)
    assert two.budget > one.budget
    checked = 0
    for k in range(16):
        a = 2 * math.pi * k / 16
        plan = plan_move(st, unit, (m.x + 3 * math.cos(a), m.y + 3 * math.sin(a)))
        if plan.action is not None and plan.reached:
            end = plan.points[-1]
            assert one.contains(end[0], end[1]) and two.contains(end[0], end[1])
            checked += 1
        far = (m.x + (one.budget + 1.0) * math.cos(a), m.y + (one.budget + 1.0) * math.sin(a))
        assert not one.contains(*far)
    assert checked >= 3


def test_waypoints_bend_the_path_through_them_and_the_engine_walks_it(acting: object) -> None:
    """Waypoints (issue 18): the planned path passes through each one in order, costs more than the straight plan,
    and `apply` ends the model where the plan ends."""
    st = acting.state
    unit = st.activation.unit
    m = st.models[st.units[unit].models[0]]
    done = 0
    tries = [(k, turn, r) for r in (2.0, 3.0) for turn in (math.pi / 2, -math.pi / 2) for k in range(24)]
    for k, turn, r in tries:
        if done >= 3:
            break
        a = 2 * math.pi * k / 24
        goal = (m.x + r * math.cos(a), m.y + r * math.sin(a))
        side = (m.x + 1.5 * math.cos(a + turn), m.y + 1.5 * math.sin(a + turn))
        straight = plan_move(st, unit, goal)
        bent = plan_move(st, unit, goal, via=[side])
        if straight.action is None or bent.action is None or not bent.reached:
            continue
        assert any(math.hypot(p[0] - side[0], p[1] - side[1]) < 1e-6 for p in bent.points)
        assert bent.length > straight.length + 0.5
        after = st.clone()
        apply(after, bent.action)
        end = after.models[m.id]
        assert math.hypot(end.x - bent.points[-1][0], end.y - bent.points[-1][1]) < 1e-6
        done += 1
    assert done >= 3


def test_the_reaction_radius_warning_names_what_the_move_triggers(acting: object) -> None:
    """GEO-19 / MISSION-8.2.TRIGGER: the locations a planned Move says it enters are exactly the ones applying it
    triggers, in the same order (moves toward each live location and in 16 directions)."""
    st = acting.state
    unit = st.activation.unit
    m = st.models[st.units[unit].models[0]]
    cases = [(st, (m.x + 6 * math.cos(2 * math.pi * k / 16), m.y + 6 * math.sin(2 * math.pi * k / 16)))
             for k in range(16)]
    for loc in st.locations.values():  # the model set down 6" from each location, moving to 3" or 2.5" from it
        for k in range(12):
            c, s_ = math.cos(2 * math.pi * k / 12), math.sin(2 * math.pi * k / 12)
            near = st.clone()
            moved = near.models[m.id]
            moved.x, moved.y = loc.x + 6 * c, loc.y + 6 * s_
            cases += [(near, (loc.x + r * c, loc.y + r * s_)) for r in (3.0, 2.5)]
    warned = 0
    for base, g in cases:
        plan = plan_move(base, unit, g)
        if plan.action is None:
            continue
        after = base.clone()
        events = apply(after, plan.action)
        fired = tuple(e.data["location"] for e in events if e.type == "location_triggered")
        assert plan.triggers == fired, (g, plan.triggers, fired)
        warned += bool(fired)
    assert warned >= 1, "no planned Move entered a Reaction Radius"
