"""The Ishikhov Shuffle (SCEN-10.3.CARD, GAP-101): a deserted town of nine blocks round the Central Planning Office."""
from __future__ import annotations

import random

from game.tools.mapkit import (
    bar,
    barrels,
    car_wreck,
    crate_stack,
    ellipse_pts,
    ground,
    oriented_rect,
    piece,
    ring,
    rubble,
    woods,
)
from game.tools.tmxwriter import Building, Opening, TmxMap, add_building

SIZE = 48
EDGE_IN = 4.0  # SCEN-10.3.CARD: deployment on opposite table edges, up to 4" in
SEED = 1991
STREETS = ((15.0, 18.0), (30.0, 33.0))  # two streets each way (x for north-south, y for east-west)
INTERSECTIONS = ((16.5, 16.5), (31.5, 16.5), (16.5, 31.5), (31.5, 31.5))
HOTSPOTS = (("hotspot-nw", 10.5, 7.5), ("hotspot-ne", 40.5, 8.75), ("hotspot-sw", 12.25, 38.5),
            ("hotspot-se", 37.75, 36.75))

CPO = Building(
    "cpo", 19.0, 19.5, 10.0, 9.0, storeys=2, access="ladder", anchor="",
    openings=(Opening("n", 4.0, 2.0), Opening("s", 4.0, 2.0), Opening("e", 1.5, 2.0), Opening("w", 5.5, 2.0),
              Opening("n", 1.25, 1.0, window=True), Opening("n", 7.5, 1.0, window=True),
              Opening("s", 1.25, 1.0, window=True), Opening("s", 7.5, 1.0, window=True),
              Opening("e", 5.5, 1.0, window=True), Opening("n", 1.25, 1.0, 1, window=True),
              Opening("n", 4.5, 1.0, 1, window=True), Opening("n", 7.5, 1.0, 1, window=True),
              Opening("s", 1.25, 1.0, 1, window=True), Opening("s", 4.5, 1.0, 1, window=True),
              Opening("s", 7.5, 1.0, 1, window=True), Opening("e", 2.0, 1.0, 1, window=True),
              Opening("e", 6.0, 1.0, 1, window=True), Opening("w", 5.5, 1.0, 1, window=True)))
CPO_DOORS = (("cpo-door-n", 24.0, 19.0), ("cpo-door-s", 24.0, 29.0), ("cpo-door-e", 29.5, 22.0),
             ("cpo-door-w", 18.5, 26.0))

TOWN = (
    Building("flats-nw", 1.0, 5.0, 5.5, 8.5, storeys=2,
             openings=(Opening("e", 5.0, 2.0), Opening("s", 1.5, 1.75), Opening("n", 2.0, 1.0, window=True),
                       Opening("e", 1.5, 1.0, window=True), Opening("e", 1.5, 1.0, 1, window=True),
                       Opening("e", 5.5, 1.0, 1, window=True), Opening("n", 2.0, 1.0, 1, window=True))),
    Building("cottage-nw", 8.5, 10.0, 5.0, 4.0, ruin=True, roof=False,
             openings=(Opening("n", 1.5, 2.0), Opening("e", 1.5, 1.0, window=True))),
    Building("shop-n", 19.5, 6.0, 8.0, 6.0, storeys=2, access="ladder",
             openings=(Opening("s", 3.0, 2.5), Opening("w", 3.5, 1.75), Opening("s", 6.0, 1.0, window=True),
                       Opening("s", 1.5, 1.0, 1, window=True), Opening("s", 5.0, 1.0, 1, window=True))),
    Building("warehouse-ne", 35.0, 5.0, 11.0, 7.5, ruin=True, roof=False, storey_in=3.5,
             openings=(Opening("w", 2.5, 2.5), Opening("s", 4.0, 3.0), Opening("n", 3.0, 1.0, window=True),
                       Opening("n", 7.0, 1.0, window=True), Opening("e", 3.0, 1.5))),
    Building("house-w1", 1.5, 19.5, 6.0, 5.0, access="ladder",
             openings=(Opening("s", 2.0, 1.75), Opening("n", 2.5, 1.0, window=True))),
    Building("house-w2", 8.5, 23.5, 5.5, 5.5,
             openings=(Opening("e", 2.0, 1.75), Opening("n", 1.5, 1.75), Opening("s", 2.5, 1.0, window=True))),
    Building("garages-e", 34.5, 19.0, 11.0, 3.5, storey_in=2.5,
             openings=(Opening("s", 1.0, 2.0), Opening("s", 4.5, 2.0), Opening("s", 8.0, 2.0))),
    Building("ruin-e", 40.0, 23.5, 6.5, 6.0, storeys=2, ruin=True, roof=False,
             openings=(Opening("w", 2.0, 2.0), Opening("n", 4.0, 1.0, window=True), Opening("n", 1.0, 1.5, 1),
                       Opening("w", 2.5, 1.0, 1, window=True))),
    Building("school-sw", 1.5, 34.5, 8.5, 6.5, storeys=2, ruin=True, roof=False,
             openings=(Opening("e", 2.0, 2.0), Opening("n", 4.0, 1.75), Opening("s", 2.0, 1.0, window=True),
                       Opening("s", 5.5, 1.0, window=True), Opening("e", 1.5, 1.0, 1, window=True),
                       Opening("s", 3.5, 1.5, 1))),
    Building("flats-s", 19.0, 35.0, 10.0, 5.0, storeys=3,
             openings=(Opening("n", 4.0, 2.0), Opening("e", 1.5, 1.75), Opening("n", 7.5, 1.0, window=True),
                       Opening("n", 1.5, 1.0, 1, window=True), Opening("n", 5.0, 1.0, 1, window=True),
                       Opening("n", 8.0, 1.0, 1, window=True), Opening("n", 2.0, 1.0, 2, window=True),
                       Opening("n", 6.5, 1.0, 2, window=True), Opening("s", 4.0, 1.0, 2, window=True))),
    Building("kiosk-s", 25.5, 41.5, 3.0, 2.5, storey_in=2.5, openings=(Opening("w", 0.5, 1.5),)),
    Building("house-se", 41.0, 34.5, 6.0, 6.0, access="ladder",
             openings=(Opening("w", 1.5, 1.75), Opening("n", 3.5, 1.0, window=True), Opening("s", 2.0, 1.75))),
    Building("shed-se", 34.5, 40.0, 3.5, 3.0, storey_in=2.75, openings=(Opening("n", 1.0, 1.5),)),
)


def _streets(m: TmxMap) -> None:
    """Two streets each way, 3" wide, dividing the table into nine blocks (SCEN-10.3.CARD)."""
    for i, (a, b) in enumerate(STREETS):
        ground(m, f"road-ns-{i + 1}", ring([(a, 0), (b, 0), (b, SIZE), (a, SIZE)]))
        ground(m, f"road-ew-{i + 1}", ring([(0, a), (SIZE, a), (SIZE, b), (0, b)]))
    ground(m, "pavement-cpo", ring([(18.5, 18.5), (29.5, 18.5), (29.5, 29.5), (18.5, 29.5)]))
    ground(m, "yard-nw", ring([(7.0, 4.5), (14.5, 4.5), (14.5, 9.5), (7.0, 9.5)]))
    ground(m, "gravel-garages", ring([(33.5, 22.5), (39.5, 22.5), (39.5, 29.5), (33.5, 29.5)]))


def _scatter(m: TmxMap, rng: random.Random) -> None:
    """Wrecks, barricades, rubble, yard hedges and fences, a few trees; intersections stay clear for the mobs."""
    car_wreck(m, "car-wreck-1", 16.5, 9.0, 84.0)
    car_wreck(m, "car-wreck-2", 24.0, 16.25, 4.0)
    car_wreck(m, "car-wreck-3", 40.0, 31.75, 176.0)
    car_wreck(m, "car-wreck-4", 31.25, 40.0, 97.0)
    piece(m, "scenery", "barricade", "barricade-w", bar((6.0, 30.75), (6.0, 32.5), 0.75), top=1.0)
    piece(m, "scenery", "sandbags", "sandbags-cpo-n", bar((20.5, 18.5), (22.5, 18.5), 0.75), top=1.0)
    piece(m, "scenery", "sandbags", "sandbags-cpo-s", bar((25.5, 29.75), (27.5, 29.75), 0.75), top=1.0)
    piece(m, "scenery", "hedge", "hedge-w1", bar((1.0, 25.5), (7.0, 25.5), 0.75), top=1.25)
    piece(m, "scenery", "hedge", "hedge-se", bar((40.0, 42.0), (47.0, 42.0), 0.75), top=1.25)
    piece(m, "scenery", "fence", "fence-nw", bar((7.5, 4.75), (14.0, 4.75), 0.25), top=1.0)
    piece(m, "scenery", "fence", "fence-school", bar((11.0, 34.0), (11.0, 36.5), 0.25), top=1.0)
    piece(m, "scenery", "fence", "fence-n", bar((19.0, 13.5), (24.0, 13.5), 0.25), top=1.0)
    woods(m, "woods-square-n", ellipse_pts(27.0, 13.75, 2.0, 1.0, 10, rng=rng, wobble=0.1))
    woods(m, "woods-yard-w", ellipse_pts(4.0, 28.0, 2.5, 1.75, 12, rng=rng, wobble=0.12))
    woods(m, "woods-park-se", ellipse_pts(44.0, 45.0, 3.0, 2.0, 12, rng=rng, wobble=0.12))
    woods(m, "woods-ne", ellipse_pts(46.0, 15.5, 1.25, 2.5, 10, rng=rng, wobble=0.1))
    rubble(m, "rubble-cottage", 12.5, 6.5, 1.0, 0.75, rng)
    rubble(m, "rubble-warehouse", 37.0, 13.5, 1.5, 0.75, rng)
    rubble(m, "rubble-school", 12.75, 42.5, 1.25, 0.9, rng)
    rubble(m, "rubble-ruin-e", 37.0, 26.5, 1.0, 0.8, rng)
    rubble(m, "rubble-street", 8.5, 16.5, 1.25, 0.6, rng)
    crate_stack(m, "crates-shop", 23.0, 4.9, 0.0)
    crate_stack(m, "crates-garages", 35.5, 24.5, 20.0)
    crate_stack(m, "crates-kiosk", 22.0, 42.0, 0.0)
    barrels(m, "drums-garages", 38.25, 28.25)
    barrels(m, "drums-flats", 2.5, 15.0)
    piece(m, "scenery", "platform", "bus-stop-platform", oriented_rect(21.5, 33.75, 3.0, 1.0, 0.0), top=0.5)


def ishikhov() -> TmxMap:
    """The Ishikhov Shuffle; deterministic (the same file byte for byte)."""
    rng = random.Random(SEED)
    m = TmxMap(SIZE, SIZE, ppi=32, title="The Ishikhov Shuffle")
    m.layer("ground")
    _streets(m)
    m.layer("scenery")
    _scatter(m, rng)
    add_building(m, CPO)
    m.rect("anchors", "Anchor", "cpo", CPO.x, CPO.y, CPO.w, CPO.h, kind="objective")
    for name, x, y in CPO_DOORS:
        m.point("anchors", "Anchor", name, x, y, kind="door")
    for b in TOWN:
        add_building(m, b)
    for i, (x, y) in enumerate(INTERSECTIONS):
        m.point("anchors", "Anchor", f"intersection-{i + 1}", x, y, kind="intersection")
    for name, x, y in HOTSPOTS:
        m.point("anchors", "Anchor", name, x, y, kind="hotspot")
    m.rect("zones", "DeploymentZone", "deploy-north", 0, 0, SIZE, EDGE_IN)
    m.rect("zones", "DeploymentZone", "deploy-south", 0, SIZE - EDGE_IN, SIZE, EDGE_IN)
    return m
