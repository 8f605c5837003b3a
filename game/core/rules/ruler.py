"""The ruler: edge-to-edge distance (GEO-4), the engine's own LOS verdict (GEO-10) and the line's side view."""
from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import LineString

from game.core.geometry.distance import base_distance, point_distance
from game.core.geometry.sight.los import LosFact, line_of_sight
from game.core.geometry.terrain import footprint, levels_under
from game.core.settings import Settings
from game.core.state import GameState

End = str | tuple[float, float]


@dataclass(frozen=True, slots=True)
class Section:
    """One terrain piece crossed by the centre line a->b: where (inches along the line) and how tall."""

    piece_id: int
    name: str
    kind: str
    start_in: float
    end_in: float
    bottom: float
    top: float
    cover: str
    blocks: bool


@dataclass(frozen=True, slots=True)
class Ruler:
    """A measurement: GEO-4 distance, centre length, ground and eye heights at each end, the profile, the LOS."""

    a: End
    b: End
    distance: float
    length: float
    ground_a: float
    ground_b: float
    eye_a: float | None
    eye_b: float | None
    profile: tuple[Section, ...]
    los: LosFact | None
    blocking: int | None
    rule: str = "GEO-4"


def _centre(state: GameState, e: End) -> tuple[float, float]:
    if isinstance(e, str):
        m = state.models[e]
        return (m.x, m.y)
    return (float(e[0]), float(e[1]))


def _ground(state: GameState, p: tuple[float, float]) -> float:
    return max(lv.z for lv in levels_under(state.battlefield, p[0], p[1]))


def measure(state: GameState, a: End, b: End) -> Ruler:
    """GEO-4 distance between two ends (model ids or table points); with two models, GEO-10 LOS and the profile.

    Pure: reads the state, never changes it. The LOS is `line_of_sight`, the function the attack preview uses.
    """
    settings = Settings(dict(state.settings))
    ca, cb = _centre(state, a), _centre(state, b)
    length = math.hypot(cb[0] - ca[0], cb[1] - ca[1])
    if isinstance(a, str) and isinstance(b, str):
        dist = base_distance(state.models[a].base(), state.models[b].base()).distance
    elif isinstance(a, str):
        dist = point_distance(state.models[a].base(), cb)
    elif isinstance(b, str):
        dist = point_distance(state.models[b].base(), ca)
    else:
        dist = length
    los = None
    if isinstance(a, str) and isinstance(b, str) and state.battlefield.pieces:
        los = line_of_sight(state.battlefield, state.scene(), a, b, settings=settings)
    blockers = set(los.blocked_by) if los is not None else set()
    profile: list[Section] = []
    if length > 0:
        line = LineString([ca, cb])
        for p in state.battlefield.pieces:
            part = footprint(p).intersection(line)
            if part.is_empty or part.length <= 0:
                continue
            ts = [line.project(shp) for shp in _points(part)]
            profile.append(Section(p.id, p.name, p.kind, max(0.0, min(ts)), min(length, max(ts)),
                                   p.bottom_z, p.top_z, p.cover.value, p.id in blockers))
    profile.sort(key=lambda s: (s.start_in, s.piece_id))
    blocking = None
    if los is not None and not los.visible and los.blocked_by:
        # the tallest blocker the centre line crosses (the one the side view shows), else the tallest of all
        on_line = {sec.piece_id for sec in profile}
        pieces = {p.id: p for p in state.battlefield.pieces}
        blocking = max(los.blocked_by, key=lambda i: (i in on_line, pieces[i].top_z, -i))
    eye_a = state.models[a].base().z + state.models[a].base().height if isinstance(a, str) else None
    eye_b = state.models[b].base().z + state.models[b].base().height if isinstance(b, str) else None
    return Ruler(a, b, dist, length, _ground(state, ca), _ground(state, cb), eye_a, eye_b, tuple(profile), los,
                 blocking)


def _points(geom: object) -> list[object]:
    from shapely.geometry import Point

    coords: list[object] = []
    parts = getattr(geom, "geoms", [geom])
    for g in parts:
        coords += [Point(c) for c in g.coords]
    return coords
