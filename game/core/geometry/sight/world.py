"""Per-battlefield flat arrays and grid for the sight kernels, cached in `Battlefield.cache` (GEO-10)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from game.core.battlefield import Area, Battlefield, Point2, TerrainPiece
from game.core.geometry.sight.kernels import FLAG_BLOCKS, FLAG_WOODS, PAD

WORLD_KEY = "game.core.geometry.sight.world/world/v1"  # Battlefield.cache key of the compiled world
MEMO_KEY = "game.core.geometry.sight.world/memo/v1"  # Battlefield.cache key of the per-query memo (clearable)
WALKS_KEY = "game.core.geometry.movement.cost/walks/v1"  # the walked segments' terrain verdicts (movement.cost)
GRID_TARGET_CELL = 1.5  # inches; measured best on bench-town (1" to 3" within 20%)


class SightDataError(ValueError):
    """A terrain piece the sight kernels cannot use: names the map, the piece and how to fix it."""


def _ring(bf: Battlefield, piece: TerrainPiece, ring: tuple[Point2, ...], what: str) -> list[Point2]:
    pts = [(float(x), float(y)) for x, y in ring]
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts.pop()
    if len(pts) < 3:
        raise SightDataError(
            f"{bf.source or bf.name}: terrain piece {piece.id} ({piece.name!r}) has a {what} with "
            f"{len(pts)} distinct points; a footprint needs at least 3 (redraw it as a polygon or rectangle)"
        )
    for x, y in pts:
        if not (math.isfinite(x) and math.isfinite(y)):
            raise SightDataError(f"{bf.source or bf.name}: terrain piece {piece.id} ({piece.name!r}) has a "
                                 f"non-finite point in its {what}")
    return pts


@dataclass(eq=False)
class World:
    """Flat arrays of one battlefield (see `game.core.geometry.sight.kernels` for the layout) plus scratch space."""

    pieces: tuple[TerrainPiece, ...]
    ed: np.ndarray
    pf: np.ndarray
    pn: np.ndarray
    gf: np.ndarray
    gn: np.ndarray
    cs: np.ndarray
    ci: np.ndarray
    wi: np.ndarray
    max_edges: int
    index_of: dict[int, int]
    bd: np.ndarray  # per piece: its building's number (1, 2, ... in map order of first use), 0 for none (GEO-13)
    stamp: np.ndarray = field(repr=False)
    cand: np.ndarray = field(repr=False)
    tbuf: np.ndarray = field(repr=False)
    sbuf: np.ndarray = field(repr=False)  # crossing spans of one segment's obstructions (GEO-13 walls)
    _lists: tuple[list[float], list[float], list[int], list[int]] | None = field(default=None, repr=False)
    _bd_list: list[int] | None = field(default=None, repr=False)

    @property
    def n_pieces(self) -> int:
        return len(self.pieces)

    @property
    def n_edges(self) -> int:
        return len(self.ed) // 4

    def as_lists(self) -> tuple[list[float], list[float], list[int], list[int]]:
        """(ed, pf, pn, wi) as Python lists, for the pure-Python paths (list indexing beats numpy scalars)."""
        if self._lists is None:
            self._lists = (self.ed.tolist(), self.pf.tolist(), self.pn.tolist(), self.wi.tolist())
        return self._lists

    def buildings_list(self) -> list[int]:
        """`bd` as a Python list, for the pure-Python paths."""
        if self._bd_list is None:
            self._bd_list = self.bd.tolist()
        return self._bd_list


def span_capacity(n_edges: int, n_pieces: int) -> int:
    """Floats `crossing.cross_spans` may write for one segment against every piece: 2 * (2 edges + 1) each."""
    return 2 * (2 * n_edges + n_pieces) + 2


def build_world(bf: Battlefield, *, cell: float = GRID_TARGET_CELL) -> World:
    """Flatten every piece's footprint (outer ring and holes) and bucket the pieces in a uniform grid."""
    eds: list[float] = []
    pf: list[float] = []
    pn: list[int] = []
    wi: list[int] = []
    bd: list[int] = []
    buildings: dict[str, int] = {}
    max_edges = 0
    for idx, piece in enumerate(bf.pieces):
        e0 = len(eds) // 4
        rings = [_ring(bf, piece, piece.footprint, "footprint")]
        rings += [_ring(bf, piece, h, f"hole {i}") for i, h in enumerate(piece.holes)]
        xs = [x for r in rings for x, _ in r]
        ys = [y for r in rings for _, y in r]
        for r in rings:
            for i, (x0, y0) in enumerate(r):
                x1, y1 = r[(i + 1) % len(r)]
                eds += [x0, y0, x1, y1]
        e1 = len(eds) // 4
        max_edges = max(max_edges, e1 - e0)
        woods = piece.area is Area.WOODS
        flags = (FLAG_WOODS if woods else 0) | (FLAG_BLOCKS if piece.blocks_los and not woods else 0)
        pf += [min(xs), min(ys), max(xs), max(ys), float(piece.bottom_z), float(piece.top_z)]
        pn += [e0, e1, flags, piece.cover.rank, int(piece.id)]
        if woods:
            wi.append(idx)
        bd.append(buildings.setdefault(piece.building, len(buildings) + 1) if piece.building else 0)
    n = len(bf.pieces)
    pfa = np.array(pf, dtype=np.float64).reshape(-1)
    ox = min([0.0] + [pfa[6 * i] for i in range(n)]) - 1.0
    oy = min([0.0] + [pfa[6 * i + 1] for i in range(n)]) - 1.0
    ex = max([bf.width] + [pfa[6 * i + 2] for i in range(n)]) + 1.0
    ey = max([bf.height] + [pfa[6 * i + 3] for i in range(n)]) + 1.0
    nx = max(1, int(math.ceil((ex - ox) / cell)))
    ny = max(1, int(math.ceil((ey - oy) / cell)))
    buckets: list[list[int]] = [[] for _ in range(nx * ny)]
    for i in range(n):
        ix0 = max(0, int(math.floor((pfa[6 * i] - 2 * PAD - ox) / cell)))
        ix1 = min(nx - 1, int(math.floor((pfa[6 * i + 2] + 2 * PAD - ox) / cell)))
        iy0 = max(0, int(math.floor((pfa[6 * i + 1] - 2 * PAD - oy) / cell)))
        iy1 = min(ny - 1, int(math.floor((pfa[6 * i + 3] + 2 * PAD - oy) / cell)))
        for row in range(iy0, iy1 + 1):
            for col in range(ix0, ix1 + 1):
                buckets[row * nx + col].append(i)
    cs = np.zeros(nx * ny + 1, dtype=np.int64)
    cs[1:] = np.cumsum([len(b) for b in buckets])
    ci = np.array([p for b in buckets for p in b], dtype=np.int64)
    return World(
        pieces=tuple(bf.pieces),
        ed=np.array(eds, dtype=np.float64),
        pf=pfa,
        pn=np.array(pn, dtype=np.int64),
        gf=np.array([ox, oy, cell], dtype=np.float64),
        gn=np.array([nx, ny], dtype=np.int64),
        cs=cs,
        ci=ci,
        wi=np.array(wi, dtype=np.int64),
        max_edges=max_edges,
        index_of={int(p.id): i for i, p in enumerate(bf.pieces)},
        bd=np.array(bd, dtype=np.int64),
        stamp=np.zeros(n + 1, dtype=np.int64),
        cand=np.zeros(max(n, 1), dtype=np.int64),
        tbuf=np.zeros(3 * max_edges + 4, dtype=np.float64),
        sbuf=np.zeros(span_capacity(len(eds) // 4, n), dtype=np.float64),
    )


def world_of(bf: Battlefield) -> World:
    """The compiled world of a battlefield, built once and kept in `bf.cache[WORLD_KEY]`."""
    w = bf.cache.get(WORLD_KEY)
    if w is None:
        w = build_world(bf)
        bf.cache[WORLD_KEY] = w
    return w


def query_memo(bf: Battlefield) -> dict[tuple[object, ...], Any]:
    """The per-query memo of a battlefield (cleared by `clear_query_caches`): query key -> its fact."""
    memo: dict[tuple[object, ...], Any] = bf.cache.setdefault(MEMO_KEY, {})
    return memo


def clear_query_caches(bf: Battlefield) -> None:
    """Forget every memoised query answer of this battlefield: the sight memo and the walked segments' verdicts
    (the compiled world and the nav graphs stay: they never change)."""
    bf.cache.pop(MEMO_KEY, None)
    bf.cache.pop(WALKS_KEY, None)
