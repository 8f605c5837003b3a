"""Walk in the Chernya Woods (SCEN-10.2.CARD, GAP-100): a corner-to-corner trail through 48" of forest."""
from __future__ import annotations

import random

import shapely
from shapely.geometry import LineString, MultiPoint, Point, Polygon, box

from game.tools.mapkit import (
    bar,
    clean_polygon,
    ellipse_pts,
    ground,
    oriented_rect,
    piece,
    poly_rings,
    q,
    ring,
    without_holes,
    woods,
)
from game.tools.tmxwriter import Building, Opening, TmxMap, add_building

SIZE = 48
CORNER_IN = 4.0  # SCEN-10.2.CARD: deployment inside a 4" x 4" square, in the corners the trail joins (GAP-100)
SEED = 2007
TRAIL_HALF_IN = 1.5
CAMP = (24.0, 24.0)
CLEARING_A = (33.5, 13.5)  # in the middle of the north-east triangle, off the trail
CLEARING_B = (13.5, 33.5)  # in the middle of the south-west triangle
STAND_GAP_IN = 0.6  # half the width of the deer paths between stands

TRAIL = ((-1.0, -1.0), (3.5, 3.0), (8.5, 5.5), (12.5, 10.5), (15.5, 16.0), (19.5, 20.5), (24.0, 24.0), (28.5, 26.5),
         (31.0, 31.5), (35.5, 35.5), (40.0, 38.5), (44.0, 44.0), (49.0, 49.0))


def _chaikin(pts: tuple[tuple[float, float], ...], rounds: int = 2) -> list[tuple[float, float]]:
    """Corner cutting: a smooth trail through the control points (ends kept)."""
    out = list(pts)
    for _ in range(rounds):
        nxt = [out[0]]
        for (x0, y0), (x1, y1) in zip(out, out[1:], strict=False):
            nxt += [(0.75 * x0 + 0.25 * x1, 0.75 * y0 + 0.25 * y1), (0.25 * x0 + 0.75 * x1, 0.25 * y0 + 0.75 * y1)]
        out = nxt + [out[-1]]
    return out


def _open_ground() -> tuple[Polygon, Polygon]:
    """The trail and the three clearings (no woods there); returns (trail, all open ground)."""
    table = box(0, 0, SIZE, SIZE)
    trail = LineString(_chaikin(TRAIL)).buffer(TRAIL_HALF_IN, cap_style="flat").intersection(table)
    camp = Polygon(ellipse_pts(*CAMP, 7.5, 6.5, 20))
    side = [Polygon(ellipse_pts(*c, 4.5, 4.0, 16)) for c in (CLEARING_A, CLEARING_B)]
    corners = [box(0, 0, CORNER_IN, CORNER_IN), box(SIZE - CORNER_IN, SIZE - CORNER_IN, SIZE, SIZE)]
    return trail, shapely.union_all([trail, camp, *side, *corners])


def _stands(rng: random.Random, open_ground: Polygon) -> list[Polygon]:
    """Woods stands: Voronoi cells of seeded points, shrunk to leave deer paths, rounded, minus open ground."""
    seeds = MultiPoint([(rng.uniform(0, SIZE), rng.uniform(0, SIZE)) for _ in range(30)])
    cells = shapely.voronoi_polygons(seeds, extend_to=box(-10, -10, SIZE + 10, SIZE + 10))
    keep_out = open_ground.buffer(0.75)
    table = box(0.25, 0.25, SIZE - 0.25, SIZE - 0.25)
    out: list[Polygon] = []
    for cell in sorted(cells.geoms, key=lambda g: (round(g.centroid.y, 3), round(g.centroid.x, 3))):
        stand = cell.buffer(-STAND_GAP_IN).buffer(-1.0, quad_segs=3).buffer(1.0, quad_segs=3)
        stand = stand.intersection(table).difference(keep_out)
        for part in without_holes(stand, min_area=3.0):
            poly = clean_polygon(part.buffer(-0.3, quad_segs=2).buffer(0.3, quad_segs=2), tolerance=0.15)
            if poly is not None:
                out.append(poly)
    return out


def _camp(m: TmxMap) -> None:
    """Big Nikolai's camp: four makeshift barriers round a fire and a tent (SCEN-10.2.CARD)."""
    cx, cy = CAMP
    piece(m, "scenery", None, "camp-barrier-rubbish", bar((cx - 1.5, cy - 4.75), (cx + 1.5, cy - 4.5), 1.0),
          top=1.0, kind="barricade", cover="soft", blocks_los=True)
    piece(m, "scenery", "hedge", "camp-barrier-shrubs", bar((cx + 4.75, cy - 1.5), (cx + 4.5, cy + 1.5), 1.0),
          top=1.25)
    piece(m, "scenery", "fence", "camp-barrier-fence", bar((cx + 1.5, cy + 4.75), (cx - 1.5, cy + 4.5), 0.3),
          top=1.0)
    piece(m, "scenery", "barricade", "camp-barrier-stone-wall", bar((cx - 4.75, cy + 1.5), (cx - 4.5, cy - 1.5), 0.75),
          top=1.0)
    piece(m, "scenery", None, "camp-fire", ellipse_pts(cx + 1.75, cy - 1.75, 0.5, 0.5, 8), top=0.25, kind="rocks",
          cover="obstruction")
    piece(m, "scenery", None, "camp-tent", oriented_rect(cx - 2.0, cy + 2.25, 2.5, 1.75, -20.0), top=1.5,
          kind="other", cover="soft", blocks_los=True, movement="impassable")
    m.point("anchors", "Anchor", "camp", cx, cy, kind="objective")


def _scatter(m: TmxMap, rng: random.Random, open_ground: Polygon) -> None:
    """Boulders, fallen trunks and a ruined forester's hut, kept off the trail and out of the clearings' centres."""
    spots = ((6.0, 17.0), (20.0, 8.0), (40.0, 24.0), (27.0, 42.0), (9.0, 42.5), (43.0, 6.0), (37.0, 20.5),
             (17.0, 27.5), (30.5, 17.0), (22.5, 36.0))
    for i, (x, y) in enumerate(spots):
        if open_ground.buffer(0.5).contains(Point(x, y)) and i % 2 == 0:
            continue
        if i % 2 == 0:
            piece(m, "scenery", "rocks", f"boulder-{i // 2 + 1}", ellipse_pts(x, y, 1.1, 0.8, 9, rng=rng, wobble=0.2),
                  top=round(rng.uniform(1.75, 2.75) * 4) / 4)
        else:
            angle = rng.uniform(0, 180)
            piece(m, "scenery", None, f"fallen-trunk-{i // 2 + 1}", oriented_rect(x, y, 4.0, 0.6, angle), top=0.75,
                  kind="tree", cover="hard", blocks_los=True)
    ax, ay = CLEARING_A
    piece(m, "scenery", "vehicle", "truck-wreck", oriented_rect(ax + 2.75, ay + 1.5, 4.5, 2.0, 70.0), top=2.25)
    bx, by = CLEARING_B
    add_building(m, Building("forester-hut", bx - 4.75, by - 2.0, 4.0, 3.5, ruin=True, roof=False, storey_in=2.5,
                             openings=(Opening("e", 1.0, 1.75), Opening("n", 1.5, 1.0, window=True))))


def chernya_woods() -> TmxMap:
    """Walk in the Chernya Woods; deterministic (the same file byte for byte)."""
    rng = random.Random(SEED)
    m = TmxMap(SIZE, SIZE, ppi=32, title="Walk in the Chernya Woods")
    m.layer("ground")
    trail, open_ground = _open_ground()
    for i, pts in enumerate(poly_rings(clean_polygon(trail, tolerance=0.05))):
        ground(m, f"trail-{i + 1}", pts)
    for i, stand in enumerate(_stands(rng, open_ground)):
        woods(m, f"woods-{i + 1}", ring(list(stand.exterior.coords)[:-1]))
    m.layer("scenery")
    _camp(m)
    _scatter(m, rng, open_ground)
    for name, (x, y) in (("clearing-a", CLEARING_A), ("clearing-b", CLEARING_B)):
        m.point("anchors", "Anchor", name, q(x), q(y), kind="hotspot")
    m.rect("zones", "DeploymentZone", "deploy-nw", 0, 0, CORNER_IN, CORNER_IN)
    m.rect("zones", "DeploymentZone", "deploy-se", SIZE - CORNER_IN, SIZE - CORNER_IN, CORNER_IN, CORNER_IN)
    return m

