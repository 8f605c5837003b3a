"""The battlefield geometry in inches (GEO-*): every verdict the rules ask of the table, explained.
Its modules: `distance` (base to base, weapon range, contact, terrain distance: GEO-1..GEO-6), `polygon`
(plain point-in-polygon helpers), `terrain` (levels and the pieces that block, slow or trip a base),
`crossing` (the shared segment/piece kernels), `templates` (flame and blast templates), `indirect` (indirect
arcs and deviation), `zone` (Zone Hostile ranges, cohesion, path triggers), `arrays` (numpy array type names),
`jit` (lazy numba compilation of the kernel modules); and two subpackages with faces of their own,
`sight/` (line of sight, cover) and `movement/` (path cost, legal positions, shortest paths, reach).
It imports the data model only (`game.core.battlefield`, `game.core.settings`, `game.core.tolerance`), never
`game.core.rules` or `game.core.odds`, and nothing compiles or loads numba at import. This face re-exports
the light distance and polygon helpers other packages call most; everything else is imported from the
module that defines it, and modules inside geometry always import each other by their full module path.
"""
from game.core.geometry.distance import (
    ContactFact,
    DistanceFact,
    RangeFact,
    base_contact,
    base_distance,
    bases_overlap,
    on_table,
    point_distance,
    polyline_length,
    segment_point_distance,
    terrain_distance,
    weapon_range,
)
from game.core.geometry.polygon import circle_inside_polygon, polygon_bounds, rect

__all__ = [
    "ContactFact",
    "DistanceFact",
    "RangeFact",
    "base_contact",
    "base_distance",
    "bases_overlap",
    "circle_inside_polygon",
    "on_table",
    "point_distance",
    "polygon_bounds",
    "polyline_length",
    "rect",
    "segment_point_distance",
    "terrain_distance",
    "weapon_range",
]
