"""The Crossroads at Blyatsk (SCEN-10.1.CARD, GAP-99): a 48" village crossroads with a disabled BTR."""
from __future__ import annotations

import random

from game.tools.mapkit import (
    bar,
    barrels,
    btr,
    car_wreck,
    crate_stack,
    ellipse_pts,
    ground,
    oriented_rect,
    piece,
    ring,
    rubble,
    water_tower,
    woods,
)
from game.tools.tmxwriter import Building, Opening, TmxMap, add_building

SIZE = 48
CORNER_IN = 6.0  # SCEN-10.1.CARD: deployment inside a 6" x 6" square in a corner
SEED = 1986

# Four structures around the crossroads (anchors structure-1..4); every ground floor holds 8 dogs (GAP-99).
STRUCTURES = (
    Building("farmhouse", 11.5, 11.0, 8.0, 6.5, storeys=1, access="ladder", anchor="structure-1",
             openings=(Opening("s", 5.0, 2.0), Opening("e", 1.0, 1.75), Opening("n", 2.0, 1.0, window=True),
                       Opening("n", 5.0, 1.0, window=True), Opening("w", 2.5, 1.0, window=True))),
    Building("kolkhoz-office", 29.0, 10.0, 7.0, 8.5, storeys=2, anchor="structure-2",
             openings=(Opening("w", 5.5, 2.0), Opening("s", 2.5, 1.75), Opening("e", 3.0, 1.0, window=True),
                       Opening("n", 3.0, 1.0, window=True), Opening("s", 1.0, 1.0, 1, window=True),
                       Opening("s", 4.5, 1.0, 1, window=True), Opening("w", 5.5, 1.0, 1, window=True),
                       Opening("e", 3.0, 1.0, 1, window=True))),
    Building("burnt-house", 10.5, 30.5, 9.0, 7.0, storeys=2, roof=False, ruin=True, anchor="structure-3",
             openings=(Opening("n", 5.0, 2.5), Opening("e", 3.5, 2.0), Opening("s", 2.0, 1.0, window=True),
                       Opening("w", 3.5, 1.0, window=True), Opening("n", 1.5, 1.0, 1, window=True),
                       Opening("n", 6.0, 1.5, 1), Opening("e", 2.0, 1.0, 1, window=True))),
    Building("machine-barn", 30.0, 31.0, 10.5, 7.5, storeys=1, storey_in=4.0, anchor="structure-4",
             openings=(Opening("w", 2.0, 3.0), Opening("n", 6.5, 2.5), Opening("e", 3.0, 1.0, window=True),
                       Opening("s", 3.0, 1.0, window=True), Opening("s", 7.0, 1.0, window=True))),
    Building("bus-shelter", 4.0, 17.25, 3.5, 2.0, storeys=1, storey_in=2.5,
             openings=(Opening("s", 0.75, 2.0),)),
)


def _roads(m: TmxMap) -> None:
    """Two roads crossing just off the centre, the east-west one slightly skewed; a gravel yard by the barn."""
    ground(m, "road-north-south", ring([(21.5, 0), (26.0, 0), (26.25, 20), (26.5, 48), (22.0, 48), (21.75, 28)]))
    ground(m, "road-east-west", ring([(0, 20.75), (20, 21.75), (48, 23.0), (48, 27.5), (28, 26.5), (0, 25.25)]))
    ground(m, "gravel-barn-yard", ring([(26.5, 28.5), (41.5, 28.5), (42.5, 39.5), (29.0, 40.0), (26.75, 38.0)]))
    ground(m, "yard-farmhouse", ring([(9.5, 9.0), (20.5, 9.0), (20.75, 19.5), (9.5, 19.75)]))


def _hedges_and_fences(m: TmxMap) -> None:
    """Hedges round the farmhouse garden (soft, 1.25"), picket fences along the roads (soft, no LOS block)."""
    piece(m, "scenery", "hedge", "hedge-garden-n", bar((9.0, 8.5), (19.0, 8.5), 0.75), top=1.25)
    piece(m, "scenery", "hedge", "hedge-garden-w", bar((9.0, 9.5), (9.0, 17.5), 0.75), top=1.25)
    piece(m, "scenery", "hedge", "hedge-field-ne", bar((38.5, 19.0), (46.0, 20.0), 0.75), top=1.5)
    piece(m, "scenery", "hedge", "hedge-field-sw", bar((2.0, 28.5), (9.5, 28.0), 0.75), top=1.25)
    piece(m, "scenery", "fence", "fence-office", bar((28.0, 20.0), (37.0, 20.0), 0.25), top=1.0)
    piece(m, "scenery", "fence", "fence-office-e", bar((37.5, 9.0), (37.5, 19.5), 0.25), top=1.0)
    piece(m, "scenery", "fence", "fence-ruin-s", bar((9.0, 39.5), (19.0, 39.5), 0.25), top=1.0)
    piece(m, "scenery", "fence", "fence-ruin-w", bar((8.5, 30.0), (8.5, 38.5), 0.25), top=1.0)
    piece(m, "scenery", "fence", "fence-roadside-se", bar((27.5, 41.5), (27.5, 46.5), 0.25), top=1.0)


def _trees(m: TmxMap, rng: random.Random) -> None:
    """Stands of birch and pine: in the north-east field, the south-west corner and an orchard south-east."""
    woods(m, "woods-north-east", ellipse_pts(42.5, 12.5, 4.0, 5.0, 14, rng=rng, wobble=0.15))
    woods(m, "woods-south-west", ellipse_pts(5.0, 34.0, 4.0, 4.5, 14, rng=rng, wobble=0.15))
    woods(m, "woods-orchard", ellipse_pts(43.5, 38.5, 3.0, 2.5, 12, rng=rng, wobble=0.12))
    woods(m, "woods-north-west", ellipse_pts(4.0, 11.0, 2.5, 3.0, 12, rng=rng, wobble=0.12))
    woods(m, "woods-south", ellipse_pts(18.0, 44.0, 3.5, 2.25, 12, rng=rng, wobble=0.12))


def _scatter(m: TmxMap, rng: random.Random) -> None:
    """Checkpoint sandbags, jersey barriers, crates, drums, a burnt-out car and rubble heaps."""
    piece(m, "scenery", "sandbags", "sandbags-checkpoint", bar((21.0, 17.5), (24.0, 17.5), 1.0), top=1.0)
    piece(m, "scenery", "barricade", "jersey-barrier-1", bar((27.5, 22.0), (27.5, 24.5), 0.75), top=1.0)
    piece(m, "scenery", "barricade", "jersey-barrier-2", bar((19.5, 27.5), (21.5, 29.0), 0.75), top=1.0)
    car_wreck(m, "car-wreck-west", 6.5, 23.5, 8.0)
    car_wreck(m, "car-wreck-south", 24.0, 39.0, 95.0)
    crate_stack(m, "crates-barn-1", 38.5, 29.5, 0.0)
    crate_stack(m, "crates-barn-2", 41.5, 34.5, 90.0)
    crate_stack(m, "crates-office", 26.5, 13.0, 90.0)
    barrels(m, "drums-barn", 28.0, 36.0)
    barrels(m, "drums-tower", 33.0, 3.0)
    rubble(m, "rubble-burnt-house-1", 21.0, 34.0, 1.25, 1.0, rng)
    rubble(m, "rubble-burnt-house-2", 14.0, 41.5, 1.5, 0.9, rng)
    rubble(m, "rubble-verge", 36.5, 25.0, 1.0, 0.8, rng)
    piece(m, "scenery", "platform", "loading-dock", oriented_rect(42.75, 31.5, 2.0, 3.0, 0.0), top=0.75)
    piece(m, "scenery", "water", "pond", ellipse_pts(10.5, 45.0, 2.5, 1.5, 14, rng=rng, wobble=0.1), top=0.0)


def crossroads() -> TmxMap:
    """The Crossroads at Blyatsk; deterministic (the same file byte for byte)."""
    rng = random.Random(SEED)
    m = TmxMap(SIZE, SIZE, ppi=32, title="The Crossroads at Blyatsk")
    m.layer("ground")
    _roads(m)
    _trees(m, rng)
    m.layer("scenery")
    _hedges_and_fences(m)
    _scatter(m, rng)
    pts = btr(m, "btr-hull", 24.25, 24.0, 28.0)
    m.polygon("anchors", "Anchor", "btr", pts, kind="objective")
    water_tower(m, "water-tower", 37.0, 4.5)
    for b in STRUCTURES:
        add_building(m, b)
    c = CORNER_IN
    for name, x, y in (("deploy-nw", 0, 0), ("deploy-ne", SIZE - c, 0), ("deploy-sw", 0, SIZE - c),
                       ("deploy-se", SIZE - c, SIZE - c)):
        m.rect("zones", "DeploymentZone", name, x, y, c, c)
    return m
