"""The sandbox: a 36" table with one of every terrain class and rule (GEO-7, GEO-8, GEO-10..GEO-14, GEO-24)."""
from __future__ import annotations

import random

from game.tools.mapkit import bar, car_wreck, ellipse_pts, ground, oriented_rect, piece, q, ring, rubble, woods
from game.tools.tmxwriter import Building, Opening, TmxMap, add_building

SIZE = 36
ZONE_IN = 3.0
SEED = 36
JUMP_GAP_IN = 2.0  # GEO-24: a gap of <= 2" is one Jump action

RUIN = Building("ruin", 5.0, 5.0, 9.0, 7.0, storeys=2, roof=False, ruin=True, anchor="ruin",
                openings=(Opening("s", 2.0, 2.0), Opening("n", 5.5, 1.75), Opening("e", 4.5, 1.0, window=True),
                          Opening("s", 6.0, 1.0, window=True), Opening("n", 2.0, 1.5, 1),
                          Opening("s", 4.0, 1.0, 1, window=True)))
HOUSE = Building("house", 20.0, 4.0, 7.0, 5.5, access="ladder", anchor="house",
                 openings=(Opening("s", 1.0, 2.0), Opening("s", 4.5, 1.0, window=True),
                           Opening("w", 2.0, 1.0, window=True)))
CONTAINERS = (("container-a", 6.0), ("container-b", 6.0 + 6.0 + JUMP_GAP_IN))
CONTAINER_Y, CONTAINER_TOP = 16.5, 2.5

HOTSPOTS = (
    ("hotspot-1", 9.5, 8.5, 3.25),  # on the ruin's upper floor (stairs and ladder)
    ("hotspot-2", 23.5, 6.75, 3.25),  # on the house roof (ladder)
    ("hotspot-3", 17.0, 17.75, 2.5),  # on container-b, past the jump
    ("hotspot-4", 25.0, 24.75, 0.0),  # in the woods
    ("hotspot-5", 12.0, 29.0, 0.0),  # by the marsh
    ("hotspot-6", 29.5, 14.75, 0.0),  # behind the sandbag emplacement
)


def _cover_line(m: TmxMap) -> None:
    """Soft, hard and hardened cover side by side, plus a fence that gives cover but hides nothing (GEO-12)."""
    piece(m, "scenery", "hedge", "hedge", bar((5.0, 21.5), (11.0, 21.5), 0.75), top=1.25)
    piece(m, "scenery", "fence", "fence", bar((12.5, 21.5), (17.5, 21.5), 0.25), top=1.0)
    piece(m, "scenery", "barricade", "stone-wall", bar((19.0, 21.5), (24.0, 21.5), 0.5), top=1.0)
    for name, p0, p1 in (("sandbags-front", (27.5, 12.5), (31.5, 12.5)), ("sandbags-left", (27.0, 12.5), (27.0, 16.0)),
                         ("sandbags-right", (32.0, 12.5), (32.0, 16.0))):
        piece(m, "scenery", "sandbags", name, bar(p0, p1, 1.0), top=1.0)


def _ground_rules(m: TmxMap, rng: random.Random) -> None:
    """Woods, difficult ground (rubble field, marsh), an obstruction platform, rocks and a wreck."""
    woods(m, "woods", ellipse_pts(25.5, 26.5, 4.5, 3.5, 16, rng=rng, wobble=0.1))
    piece(m, "ground", "water", "marsh", ellipse_pts(8.5, 29.5, 3.0, 2.0, 14, rng=rng, wobble=0.1), top=0.0)
    rubble(m, "rubble-field", 16.0, 27.5, 2.0, 1.5, rng)
    piece(m, "scenery", "platform", "loading-platform", oriented_rect(29.0, 20.0, 3.0, 2.0, 0.0), top=0.75)
    piece(m, "scenery", "rocks", "rocks", ellipse_pts(18.0, 11.0, 1.5, 1.0, 10, rng=rng, wobble=0.15), top=2.0)
    car_wreck(m, "car-wreck", 18.5, 32.5, 10.0)


def sandbox() -> TmxMap:
    """The sandbox table; deterministic (the same file byte for byte)."""
    rng = random.Random(SEED)
    m = TmxMap(SIZE, SIZE, ppi=32, title="Sandbox")
    m.layer("ground")
    ground(m, "road-sandbox", ring([(0, 31.75), (SIZE, 31.25), (SIZE, 34.25), (0, 34.75)]))
    ground(m, "gravel-yard", ring([(4.0, 14.5), (26.0, 14.5), (26.0, 19.5), (4.0, 19.5)]))
    m.layer("scenery")
    _cover_line(m)
    _ground_rules(m, rng)
    for name, x in CONTAINERS:
        piece(m, "scenery", "container", name, ring([(x, CONTAINER_Y), (x + 6.0, CONTAINER_Y),
                                                     (x + 6.0, CONTAINER_Y + 2.5), (x, CONTAINER_Y + 2.5)]),
              top=CONTAINER_TOP)
    add_building(m, RUIN)
    ladder_y = RUIN.y + 2.0
    m.polyline("buildings", "Ladder", "ruin-ladder", [(q(RUIN.x + RUIN.w + 0.5), ladder_y),
                                                      (q(RUIN.x + RUIN.w - 0.5), ladder_y)],
               from_in=0.0, to_in=RUIN.floor_z(1), building=RUIN.name)
    add_building(m, HOUSE)
    for name, x, y, z in HOTSPOTS:
        m.point("anchors", "Anchor", name, x, y, z_in=z, kind="hotspot")
    m.rect("zones", "DeploymentZone", "deploy-west", 0, 0, ZONE_IN, SIZE)
    m.rect("zones", "DeploymentZone", "deploy-east", SIZE - ZONE_IN, 0, ZONE_IN, SIZE)
    return m
