"""Shortest legal paths for a round base on the cached NavGraph, other bases added per query (GEO-8, GEO-27)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.core.battlefield import Base, Battlefield, Point3
from game.core.geometry.movement.cost import PathFact, SegmentKind, path_cost
from game.core.geometry.movement.graph import NavGraph, connected_levels, graph
from game.core.geometry.movement.positions import position_fact, vertically_overlap
from game.core.geometry.movement.query import PathQuery, enemy_bases
from game.core.geometry.movement.search import search
from game.core.geometry.movement.tangents import clear_of_enemies
from game.core.geometry.terrain import level_at, walking_level
from game.core.settings import Settings
from game.core.tolerance import EPS


@dataclass(frozen=True, slots=True)
class PathResult:
    """GEO-27: the shortest legal path (start first, arcs written as circumscribed polylines) and its GEO-8 cost,
    or why there is none. `fact` is the verdict of `movement.path_cost` on `points`: the same cost function that
    judges a player's own waypoints."""

    found: bool
    cost: float
    points: tuple[Point3, ...]
    fact: PathFact | None = None
    reason: str = ""
    expanded: int = 0

    @property
    def waypoints(self) -> tuple[Point3, ...]:
        """The points after the start, ready for `Move(unit, path)`."""
        return self.points[1:]


def shortest_path(bf: Battlefield, start: Point3, goal: Point3, *, radius: float, height: float,
                  others: Sequence[Base] = (), side: str = "", budget: float | None = None, can_climb: bool = True,
                  settings: Settings | None = None, verify: bool = True) -> PathResult:
    """GEO-27: the cheapest legal path for a base from `start` to `goal` under the GEO-8 cost (enemy bases are
    obstacles, friends may be passed but not ended on). Optimal within 0.01" where cost is uniform and within
    max(0.1", 1%) through difficult ground. With `budget`, paths costing more are not searched for."""
    s = settings or Settings.defaults()
    start = (float(start[0]), float(start[1]), float(start[2]))
    goal = (float(goal[0]), float(goal[1]), float(goal[2]))
    end = position_fact(bf, goal[0], goal[1], goal[2], radius=radius, height=height, others=others, settings=s)
    if not end.legal:
        return PathResult(False, math.inf, (start,), reason=f"the goal is not a legal position: {end.reason}")
    if bf.pieces and level_at(bf, goal[0], goal[1], goal[2]) is None:
        return PathResult(False, math.inf, (start,), reason=f"there is no floor at {goal}")
    if math.hypot(goal[0] - start[0], goal[1] - start[1]) <= EPS and abs(goal[2] - start[2]) <= EPS:
        fact = path_cost(bf, start, [goal], radius=radius, height=height, others=others, side=side, settings=s)
        return PathResult(fact.legal, 0.0, (start, goal), fact, fact.reason)
    if not bf.pieces:
        return _open_table(bf, start, goal, radius=radius, height=height, others=others, side=side, budget=budget,
                           can_climb=can_climb, settings=s, verify=verify)
    ls = walking_level(bf, start[0], start[1], start[2])
    lg = level_at(bf, goal[0], goal[1], goal[2])
    if ls is not None and lg is not None and ls.id == lg.id and (budget is None or _direct(start, goal) <= budget):
        straight = _straight(bf, start, goal, ls.z, radius=radius, height=height, others=others, side=side,
                             can_climb=can_climb, settings=s, verify=verify)
        if straight is not None:
            return straight
    g = graph(bf, radius, height, settings=s)
    if ls is None or lg is None or not connected_levels(g, ls.id, lg.id, can_climb=can_climb):
        return PathResult(False, math.inf, (start,), reason="no stairs, ladder or climb joins the two floors")
    enemies = enemy_bases(others, side)
    # pass 1 without enemy bases: its cost is a lower bound; if its path avoids every enemy it is the answer
    first = _search(g, bf, start, goal, budget, [], can_climb)
    if first is None:
        why = f"no legal path costs {budget:g}\" or less" if budget is not None else "no legal path exists"
        return PathResult(False, math.inf, (start,), reason=why)
    cost, pts, expanded = first
    if enemies and _blocked_by(pts, enemies, radius, height):
        lower = cost
        second = _search(g, bf, start, goal, budget, enemies, can_climb,
                         bound=max(1.25 * lower + 1.0, lower + 4.0) if budget is None else budget)
        if second is None:
            why = f"no legal path costs {budget:g}\" or less" if budget is not None else "no legal path exists"
            return PathResult(False, math.inf, (start,), reason=why + " round the enemy bases")
        cost, pts, expanded = second
    checked = path_cost(bf, start, pts[1:], radius=radius, height=height, others=others, side=side,
                        can_climb=can_climb, settings=s) if verify else None
    return _verified(cost, pts, checked, expanded)


def _direct(start: Point3, goal: Point3) -> float:
    """The straight S -> G length as the graph costs it (`LevelNav.costs`: numpy's hypot, not math's)."""
    return float(np.hypot(goal[0] - start[0], goal[1] - start[1]))


def _straight(bf: Battlefield, start: Point3, goal: Point3, z: float, *, radius: float, height: float,
              others: Sequence[Base], side: str, can_climb: bool, settings: Settings,
              verify: bool) -> PathResult | None:
    """The answer without the graph when the straight segment on one floor is legal at its plain length (no
    difficult ground, no climb, no low-obstacle extra): no path is shorter than the straight line, so the search
    would end on its direct start -> goal edge (the query always offers it on one level) with this cost, these
    points and this `path_cost` verdict (the same call the search's result is verified with). None otherwise: the
    search decides. Results are the search's (tests/core/test_straight_path.py); only `expanded` is 0."""
    fact = path_cost(bf, start, [goal], radius=radius, height=height, others=others, side=side,
                     can_climb=can_climb, settings=settings)
    if not fact.legal or len(fact.segments) != 1:
        return None
    seg = fact.segments[0]
    if seg.kind is not SegmentKind.WALK or seg.cost != seg.length or seg.difficult != 0.0 or seg.climbed != 0.0:
        return None
    pts = [(start[0], start[1], z), goal]
    return _verified(_direct(start, goal), pts, fact if verify else None, 0)


def _verified(cost: float, pts: list[Point3], fact: PathFact | None, expanded: int) -> PathResult:
    """The found path with `path_cost`'s verdict on it (none when not verified: then it stands as found)."""
    ok = fact.legal if fact is not None else True
    return PathResult(ok, cost, tuple(pts), fact, fact.reason if fact is not None and not ok else "", expanded)


def _search(g: NavGraph, bf: Battlefield, start: Point3, goal: Point3, budget: float | None, enemies: list[Base],
            can_climb: bool, *, bound: float | None = None) -> tuple[float, list[Point3], int] | None:
    """A* within a growing ellipse (any path of cost <= bound lies inside it, so the first hit is optimal)."""
    direct = math.hypot(goal[0] - start[0], goal[1] - start[1])
    if bound is None:
        bound = budget if budget is not None else max(1.25 * direct + 1.0, direct + 4.0)
    limit = 8.0 * (bf.width + bf.height)
    while True:
        q = PathQuery(g, bf, start, goal, bound, enemies, can_climb)
        dist, parent, expanded = search(q)
        if q.G in dist:
            return dist[q.G], q.polyline(parent, q.G), expanded
        if budget is not None or bound >= limit:
            return None
        bound *= 2.0


def _blocked_by(pts: list[Point3], enemies: list[Base], radius: float, height: float) -> bool:
    """Does the polyline pass within r + r_enemy of an enemy base at its level (GEO-8)?"""
    ens = [e for e in enemies if any(vertically_overlap(p[2], height, e.z, e.height) for p in pts)]
    if not ens:
        return False
    arr = np.asarray(pts)
    enemies_at = (np.asarray([e.x for e in ens]), np.asarray([e.y for e in ens]),
                  np.asarray([radius + e.radius for e in ens]))
    ok = clear_of_enemies(enemies_at, arr[:-1, 0], arr[:-1, 1], arr[1:, 0], arr[1:, 1])
    return not bool(ok.all())


def _open_table(bf: Battlefield, start: Point3, goal: Point3, *, radius: float, height: float,
                others: Sequence[Base], side: str, budget: float | None, can_climb: bool, settings: Settings,
                verify: bool) -> PathResult:
    """With no terrain the straight line is shortest unless enemy bases stand in the way: then the graph of
    their discs alone answers."""
    fact = path_cost(bf, start, [goal], radius=radius, height=height, others=others, side=side,
                     can_climb=can_climb, settings=settings)
    if fact.legal and (budget is None or fact.cost <= budget + EPS):
        return PathResult(True, fact.cost, fact.points, fact)
    if fact.legal:
        return PathResult(False, math.inf, (start,), reason=f"no legal path costs {budget:g}\" or less")
    g = graph(bf, radius, height, settings=settings)
    direct = math.hypot(goal[0] - start[0], goal[1] - start[1])
    bound = budget if budget is not None else direct + 4.0 * radius + 8.0
    q = PathQuery(g, bf, start, goal, bound, enemy_bases(others, side), can_climb)
    dist, parent, expanded = search(q)
    if q.G not in dist:
        return PathResult(False, math.inf, (start,), reason="no legal path round the bases in the way",
                          expanded=expanded)
    pts = q.polyline(parent, q.G)
    checked = path_cost(bf, start, pts[1:], radius=radius, height=height, others=others, side=side,
                        can_climb=can_climb, settings=settings) if verify else None
    return _verified(dist[q.G], pts, checked, expanded)
