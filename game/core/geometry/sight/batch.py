"""Batch check verdicts (GEO-10, GEO-12..14): many (attacker, target) pairs in one compiled call, e.g. all pairs.

A *check* for an ordered pair (A, T) is LOS both ways plus T's cover and obstructions against A. The
verdicts equal those of `line_of_sight` + `cover_against` (which add the reasons); `naive_check` computes
the same verdict by the naive reference.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.core.battlefield import Battlefield, Cover, Scene
from game.core.geometry.sight.cover import below_feet_gives_cover, cover_against, rank_to_cover, wall_gap
from game.core.geometry.sight.jit import kernels
from game.core.geometry.sight.los import SightBackend, cylinders, line_of_sight
from game.core.geometry.sight.verdicts import VERDICT_WIDTH
from game.core.geometry.sight.world import World, world_of
from game.core.settings import Settings


@dataclass(frozen=True, slots=True)
class CheckVerdict:
    """The bare verdict of one check: LOS (mutual and per direction), cover class, elevation, obstructions."""

    attacker: str
    target: str
    visible: bool
    a_sees_t: bool
    t_sees_a: bool
    cover_piece: int | None
    cover: Cover
    degraded: Cover
    elevated: bool
    obstruction_count: int
    rule: str = "GEO-10"


def _params(settings: Settings) -> np.ndarray:
    """The kernels' `params` row (layout in `game.core.geometry.sight.verdicts`)."""
    return np.array([
        float(settings["los.woods_depth"]), float(settings["geo.contact_tol"]), float(settings["elev.step"]),
        1.0 if settings["obstruction.ignore_attacker_contact"] else 0.0,
        1.0 if settings["elev.ignore_obstructions"] else 0.0,
        float(Cover(settings["elev.hardened_becomes"]).rank),
        wall_gap(settings),
        1.0 if below_feet_gives_cover(settings) else 0.0,
    ], dtype=np.float64)


def _bases(scene: Scene, ids: Sequence[str]) -> np.ndarray:
    rows = []
    for i in ids:
        b = scene.base(i)
        rows += [b.x, b.y, b.z, b.radius, b.height]
    return np.array(rows, dtype=np.float64)


def _verdict(world: World, a: str, t: str, row: Sequence[int]) -> CheckVerdict:
    piece = int(world.pieces[row[3]].id) if row[3] >= 0 else None
    return CheckVerdict(a, t, bool(row[2]), bool(row[0]), bool(row[1]), piece, rank_to_cover(int(row[4])),
                        rank_to_cover(int(row[5])), bool(row[6]), int(row[7]))


@dataclass(frozen=True, slots=True)
class PairTable:
    """Verdict rows of all ordered pairs of `ids` (row i * n + j is attacker ids[i], target ids[j])."""

    ids: tuple[str, ...]
    rows: np.ndarray  # (n * n, VERDICT_WIDTH) int64; the diagonal rows are zeros
    world: World

    def verdict(self, attacker: str, target: str) -> CheckVerdict:
        n = len(self.ids)
        i, j = self.ids.index(attacker), self.ids.index(target)
        return _verdict(self.world, attacker, target, self.rows[i * n + j].tolist())

    def visible(self) -> np.ndarray:
        """n x n boolean matrix of mutual LOS (False on the diagonal)."""
        n = len(self.ids)
        return self.rows[:, 2].reshape(n, n).astype(bool)


def _scratch(world: World, nb: int) -> tuple[np.ndarray, ...]:
    """xl, cidx, cdist, cptr, then el, ex, grp, soff (GEO-13 walls) for a call over nb bases."""
    np_ = max(world.n_pieces, 1)
    return (np.empty(np_, dtype=np.int64), np.empty(nb * np_, dtype=np.int64),
            np.empty(nb * np_, dtype=np.float64), np.empty(nb + 1, dtype=np.int64),
            np.empty(np_, dtype=np.int64), np.empty(np_, dtype=np.int64), np.empty(np_, dtype=np.int64),
            np.empty(np_ + 1, dtype=np.int64))


def check_pairs(bf: Battlefield, scene: Scene, pairs: Sequence[tuple[str, str]], *,
                settings: Settings | None = None) -> tuple[CheckVerdict, ...]:
    """Verdicts of the given ordered (attacker, target) pairs in one compiled call."""
    settings = settings or Settings.defaults()
    if settings["los.models_block"]:  # every pair has its own blockers: go through the reasoned facts
        return tuple(naive_or_fact_check(bf, scene, a, t, settings=settings) for a, t in pairs)
    world = world_of(bf)
    ids = tuple(dict.fromkeys(i for p in pairs for i in p))
    pos = {m: k for k, m in enumerate(ids)}
    flat = np.array([pos[m] for p in pairs for m in p], dtype=np.int64)
    cyl, _ = cylinders(scene, exclude=(), settings=settings)
    cyla = np.array(cyl, dtype=np.float64).reshape(-1) if cyl else np.zeros(0, dtype=np.float64)
    out = np.zeros(len(pairs) * VERDICT_WIDTH, dtype=np.int64)
    xl, cidx, cdist, cptr, el, ex, grp, soff = _scratch(world, len(ids))
    kernels().pair_verdicts(flat, len(pairs), _bases(scene, ids), len(ids), world.ed, world.pf, world.pn, world.bd,
                            world.gf, world.gn, world.cs, world.ci, world.wi, cyla, len(cyl), _params(settings),
                            world.stamp, world.cand, world.tbuf, xl, cidx, cdist, cptr, el, ex, grp, soff, world.sbuf,
                            out)
    rows = out.reshape(-1, VERDICT_WIDTH).tolist()
    return tuple(_verdict(world, a, t, r) for (a, t), r in zip(pairs, rows, strict=True))


def all_pairs(bf: Battlefield, scene: Scene, ids: Sequence[str] | None = None, *,
              settings: Settings | None = None) -> PairTable:
    """Every ordered pair of `ids` (default: every base of the scene) in one compiled call."""
    settings = settings or Settings.defaults()
    if settings["los.models_block"]:
        raise ValueError("all_pairs: los.models_block=true makes every pair depend on the others; "
                         "use check_pairs or line_of_sight per pair")
    world = world_of(bf)
    ids = tuple(ids) if ids is not None else tuple(b.id for b in scene.bases)
    cyl, _ = cylinders(scene, exclude=(), settings=settings)
    cyla = np.array(cyl, dtype=np.float64).reshape(-1) if cyl else np.zeros(0, dtype=np.float64)
    n = len(ids)
    out = np.zeros(n * n * VERDICT_WIDTH, dtype=np.int64)
    xl, cidx, cdist, cptr, el, ex, grp, soff = _scratch(world, n)
    kernels().all_pair_verdicts(_bases(scene, ids), n, world.ed, world.pf, world.pn, world.bd, world.gf, world.gn,
                                world.cs, world.ci, world.wi, cyla, len(cyl), _params(settings), world.stamp,
                                world.cand, world.tbuf, xl, cidx, cdist, cptr, el, ex, grp, soff, world.sbuf, out)
    return PairTable(ids, out.reshape(-1, VERDICT_WIDTH), world)


def naive_or_fact_check(bf: Battlefield, scene: Scene, attacker: str, target: str, *,
                        settings: Settings | None = None, backend: SightBackend | None = None) -> CheckVerdict:
    """The verdict of one check built from the reasoned facts (`backend` None: fast, NAIVE: the reference)."""
    los = line_of_sight(bf, scene, attacker, target, settings=settings, backend=backend)
    cov = cover_against(bf, scene, attacker, target, settings=settings, backend=backend)
    return CheckVerdict(attacker, target, los.visible, los.a_sees_t, los.t_sees_a, cov.piece, cov.cover,
                        cov.degraded, cov.elevated, cov.obstruction_count)


def naive_check(bf: Battlefield, scene: Scene, attacker: str, target: str, *,
                settings: Settings | None = None) -> CheckVerdict:
    """One check by the naive reference (pure Python, every edge of every piece per ray)."""
    from game.core.geometry.sight.naive import NAIVE

    return naive_or_fact_check(bf, scene, attacker, target, settings=settings, backend=NAIVE)
