"""Line of sight and cover (GEO-10..GEO-14): the exact verdicts, their compiled kernels and the naive reference.
Its modules: `los` (`line_of_sight`, `point_line_of_sight`: visible or not and why, GEO-10..GEO-12),
`cover` (`cover_against`: the cover class and target number reasons, GEO-13/GEO-14), `batch` (many pairs at
once: `check_pairs`, `all_pairs`), `world` (the per-battlefield flat arrays and query caches), `kernels` and
`verdicts` (the numba-subset kernels, compiled lazily by `jit`), `naive` (the pure-Python reference the
tests compare against). It imports the data model (`game.core.battlefield`, `game.core.settings`) and
`game.core.geometry`'s own modules, never `game.core.rules` or `game.core.odds`; importing it compiles
nothing. This face re-exports the entry points other packages use; modules inside geometry import from the
defining module (`game.core.geometry.sight.los`), never through this face.
"""
from game.core.geometry.sight.batch import all_pairs, check_pairs
from game.core.geometry.sight.cover import CoverFact, cover_against
from game.core.geometry.sight.los import LosFact, line_of_sight, point_line_of_sight
from game.core.geometry.sight.world import world_of

__all__ = [
    "CoverFact",
    "LosFact",
    "all_pairs",
    "check_pairs",
    "cover_against",
    "line_of_sight",
    "point_line_of_sight",
    "world_of",
]
