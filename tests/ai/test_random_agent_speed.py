"""The random agent's charge (issue 15, speed): the shortest path to base contact with the nearest enemy is searched
within growing budgets (GEO-27), so a goal that enemy bases close off (GEO-8) costs a few bounded searches, not a
search of the whole table again and again; where a way exists it is the path `shortest_path` finds unbounded."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

import game.ai.random_agent as random_agent
from game.ai.random_agent import RandomAgent
from game.core.actions import Action, IllegalAction, Move
from game.core.battlefield import Movement, TerrainPiece
from game.core.geometry.movement import shortest_path
from game.core.geometry.polygon import rect
from game.core.rules.apply import validate
from game.core.rules.context import settings_of
from game.core.state import GameState, ModelState
from tests.enginekit import activate, game, profile


def _wall(pid: int, x0: float, y0: float, x1: float, y1: float) -> TerrainPiece:
    return TerrainPiece(pid, f"wall {pid}", rect(x0, y0, x1, y1), 0.0, 6.0, blocks_los=True,
                        movement=Movement.IMPASSABLE)


# A pocket open to the east: a west wall with a north and a south wing.
POCKET = (_wall(1, 10.0, 14.0, 10.5, 22.0), _wall(2, 10.0, 21.5, 18.0, 22.0), _wall(3, 10.0, 14.0, 18.0, 14.5))
MOVER = (4.0, 18.0)
TARGET = (12.5, 18.0)  # inside the pocket, 8.5" from the mover through the west wall: its nearest enemy
GUARDS = [(18.5, y) for y in (15.6, 17.4, 19.2, 21.0)]  # bases across the pocket's mouth: no 2" gap between them


def _state(guards: bool) -> GameState:
    models: list[tuple[str, str, Any, tuple[float, float]]] = [("a1", "a", profile(), MOVER),
                                                               ("b1", "b", profile(), TARGET)]
    if guards:
        models += [(f"g{i}", "b", profile(), p) for i, p in enumerate(GUARDS)]
    st = game(models, pieces=POCKET)
    activate(st, "a1")
    return st


def _legal(st: GameState, a: Action) -> bool:
    try:
        validate(st, a)
    except IllegalAction:
        return False
    return True


def _unbounded(st: GameState, m: ModelState, goal: tuple[float, float, float]) -> Any:
    others = [o.base() for o in st.models.values() if o.in_play and o.id != m.id]
    return shortest_path(st.battlefield, (m.x, m.y, m.z), goal, radius=m.radius, height=m.profile.height,
                         others=others, side=m.side, settings=settings_of(st))


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[float | None]:
    budgets: list[float | None] = []
    real: Callable[..., Any] = random_agent.shortest_path

    def counted(*args: Any, **kw: Any) -> Any:
        budgets.append(kw.get("budget"))
        return real(*args, **kw)

    monkeypatch.setattr(random_agent, "shortest_path", counted)
    return budgets


def test_a_closed_off_enemy_costs_at_most_three_bounded_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """GEO-8 / GEO-27: with enemy bases across the pocket's mouth no legal path reaches base contact with the
    enemy inside (the unbounded search says so too); the charge gives up after three bounded searches and the
    Move kind offers no step toward it."""
    st = _state(guards=True)
    m = st.models["a1"]
    agent = RandomAgent(0)
    goal = agent._toward_enemy(st, m)
    assert goal is not None and math.hypot(goal[0] - TARGET[0], goal[1] - TARGET[1]) < 1.1
    assert not _unbounded(st, m, goal).found
    budgets = _counting(monkeypatch)
    assert agent._charge_path(st, m, goal) is None
    assert 1 <= len(budgets) <= 3 and all(b is not None for b in budgets)
    assert list(agent._cut_paths(st, m, goal, agent._budget(st, m))) == []


def test_an_open_way_is_the_unbounded_shortest_path_and_its_cut_is_legal(monkeypatch: pytest.MonkeyPatch) -> None:
    """GEO-27: without the guards the way runs round the south wing and into the pocket, longer than twice the
    straight line; the charge finds the very path the unbounded search finds, and cuts it at the allowance
    (GEO-8) into a legal Move."""
    st = _state(guards=False)
    m = st.models["a1"]
    agent = RandomAgent(0)
    goal = agent._toward_enemy(st, m)
    assert goal is not None
    full = _unbounded(st, m, goal)
    assert full.found and full.cost > 2 * math.hypot(goal[0] - m.x, goal[1] - m.y)
    budgets = _counting(monkeypatch)
    res = agent._charge_path(st, m, goal)
    assert res is not None and res.points == full.points and res.cost == pytest.approx(full.cost)
    assert len(budgets) >= 2  # the first area (the straight line's ellipse) holds no way round
    budget = agent._budget(st, m)
    cuts = [Move("a1", c) for c in agent._cut_paths(st, m, goal, budget)]
    assert cuts and any(_legal(st, a) for a in cuts)
    first = next(a for a in cuts if _legal(st, a))
    assert first.path[-1][0] > m.x  # toward the pocket
