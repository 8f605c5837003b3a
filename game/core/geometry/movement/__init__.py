"""Movement in inches (GEO-7, GEO-8, GEO-24..27): path cost, legal positions, shortest paths and reach.
Its modules: `cost` (`path_cost`: the one GEO-8 cost and legality of any path), `positions` (`position_fact`,
`nearest_legal`: GEO-7, GEO-25), `links` (stairs, ladders, climbs), `free_space` (where a base centre may go
on one level), `tangents` (tangent segments and arcs as graph edges), `graph` (the cached NavGraph),
`query` and `search` (one query joined to the graph, A* and one-to-all Dijkstra), `paths` (`shortest_path`),
`reach` (`reach`: the move-range region, GEO-27) with its numba-subset `reach_kernels` compiled lazily by
`reach_jit`. It imports the data model (`game.core.battlefield`, `game.core.settings`) and
`game.core.geometry`'s own modules, never `game.core.rules` or `game.core.odds`; importing it compiles
nothing. This face re-exports the entry points other packages use, except `reach`, which would hide the
submodule of that name: import it from `game.core.geometry.movement.reach`. Modules inside geometry import
from the defining module, never through this face.
"""
from game.core.geometry.movement.cost import PathFact, path_cost
from game.core.geometry.movement.paths import PathResult, shortest_path
from game.core.geometry.movement.positions import PositionFact, nearest_legal, position_fact

__all__ = [
    "PathFact",
    "PathResult",
    "PositionFact",
    "nearest_legal",
    "path_cost",
    "position_fact",
    "shortest_path",
]
