"""The naive sight reference (GEO-10, GEO-12): pure-Python loops over every terrain edge of every piece per ray.

No grid, no bounding boxes, no compilation: each ray is handed to the shared predicate
(`game.core.geometry.crossing.seg_piece`, run as plain Python) for every piece in map order. The fast path must
give identical verdicts; the benchmark and the property tests assert it.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from game.core.battlefield import Battlefield, Point2, Scene
from game.core.geometry.crossing import (
    MODE_CROSS,
    MODE_PRISM,
    MODE_WOODS,
    circle_piece_distance,
    seg_cylinder,
    seg_piece,
)
from game.core.geometry.sight.kernels import EPS, FLAG_WOODS, WOODS_CANOPY
from game.core.geometry.sight.verdicts import wall_groups
from game.core.geometry.sight.world import World, span_capacity
from game.core.settings import Settings

if TYPE_CHECKING:
    from game.core.geometry.sight.cover import CoverFact
    from game.core.geometry.sight.los import LosFact, Trace

Ray = tuple[float, float, float, float, float, float]


class NaiveBackend:
    """Every piece, every edge, plain Python (the reference of `game.benchmarks.sight`)."""

    name = "naive"

    def trace(self, world: World, rays: Sequence[Ray], cyl: Sequence[tuple[float, ...]]) -> list[Trace]:
        ed, pf, pn, _ = world.as_lists()
        tbuf = [0.0] * (3 * world.max_edges + 4)
        out: list[Trace] = []
        for ax, ay, az, bx, by, bz in rays:
            hits: list[int] = []
            woods = 0.0
            for p in range(world.n_pieces):
                z0 = pf[6 * p + 4]
                if pn[5 * p + 2] & FLAG_WOODS:
                    res = seg_piece(ax, ay, az, bx, by, bz, ed, pn[5 * p], pn[5 * p + 1], z0, z0 + WOODS_CANOPY,
                                    MODE_WOODS, tbuf)
                    if res[2] > 0.0:
                        woods += res[2]
                        hits.append(p)
                else:
                    res = seg_piece(ax, ay, az, bx, by, bz, ed, pn[5 * p], pn[5 * p + 1], z0, pf[6 * p + 5],
                                    MODE_PRISM, tbuf)
                    if res[1]:
                        hits.append(p)
            smoke = [k for k, c in enumerate(cyl) if seg_cylinder(ax, ay, az, bx, by, bz, *c)[1]]
            out.append((tuple(hits), tuple(smoke), woods))
        return out

    def crossed(self, world: World, a: Point2, b: Point2) -> tuple[int, ...]:
        ed, pf, pn, _ = world.as_lists()
        tbuf = [0.0] * (3 * world.max_edges + 4)
        return tuple(
            p for p in range(world.n_pieces)
            if seg_piece(float(a[0]), float(a[1]), 0.0, float(b[0]), float(b[1]), 0.0, ed, pn[5 * p],
                         pn[5 * p + 1], 0.0, 0.0, MODE_CROSS, tbuf)[0]
        )

    def contacts(self, world: World, x: float, y: float, r: float, reach: float) -> tuple[tuple[int, float], ...]:
        ed, pf, pn, _ = world.as_lists()
        out = []
        for p in range(world.n_pieces):
            d = circle_piece_distance(float(x), float(y), float(r), ed, pn[5 * p], pn[5 * p + 1])
            if d <= reach + EPS:
                out.append((p, d))
        return tuple(out)

    def walls(self, world: World, a: Point2, b: Point2, pieces: Sequence[int], excluded: Sequence[bool],
              gap: float) -> tuple[int, ...]:
        ed, _, pn, _ = world.as_lists()
        m = len(pieces)
        grp = [0] * m
        wall_groups(float(a[0]), float(a[1]), float(b[0]), float(b[1]), ed, pn, world.buildings_list(), list(pieces),
                    [1 if e else 0 for e in excluded], m, float(gap), [0.0] * (3 * world.max_edges + 4),
                    [0] * (m + 1), [0.0] * span_capacity(world.n_edges, world.n_pieces), grp)
        return tuple(grp)


NAIVE = NaiveBackend()


def naive_line_of_sight(bf: Battlefield, scene: Scene, viewer_id: str, target_id: str, *,
                        settings: Settings | None = None) -> LosFact:
    """GEO-10 by the naive reference (same facts as `game.core.geometry.sight.los.line_of_sight`)."""
    from game.core.geometry.sight.los import line_of_sight

    return line_of_sight(bf, scene, viewer_id, target_id, settings=settings, backend=NAIVE)


def naive_cover_against(bf: Battlefield, scene: Scene, attacker_id: str, target_id: str, *,
                        settings: Settings | None = None) -> CoverFact:
    """GEO-12/13/14 by the naive reference (same facts as `game.core.geometry.sight.cover.cover_against`)."""
    from game.core.geometry.sight.cover import cover_against

    return cover_against(bf, scene, attacker_id, target_id, settings=settings, backend=NAIVE)
