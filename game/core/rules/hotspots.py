"""Hot Spots for a map demo (GAP-118, MISSION-8.2.HOTSPOT-COUNT): 2 x TL mirror-symmetric points plus the map's MO.

`demo_locations(bf, tl)` picks, deterministically:

1. The mirror: the symmetry that swaps the map's two deployment zones (its first two zones of kind "deployment")
   with the least error, of a point reflection through the table centre and a reflection across the
   perpendicular bisector of the zone centres; a tie goes to the one that pairs more of the map's hotspot
   anchors, then to the smaller total pair error, then to the point reflection. A map with fewer than two
   deployment zones uses the point reflection.
2. Pairs of anchors of kind "hotspot" whose mirror images miss each other by at most `MIRROR_TOLERANCE_IN`,
   smallest error first, ties by anchor name; each point >= 6" from the table edges, from the other chosen
   points and from the Mission Objective (`MIN_GAP_IN`). An anchor is taken where the map puts it (a Hot Spot
   on a roof stays on the roof).
3. When the anchors run out, generated mirror pairs from a 0.5" scan of the table: the candidate whose pair lies
   farthest from the points already chosen, the MO and the deployment zones (a maximin spread: "evenly
   distributed", MISSION-8.2.INGREDIENTS), ties by (y, x); both points meet the same distance rules and a
   human base may stand on each at ground level (GEO-7, `position_fact`).

TL n's Hot Spots are the first n pairs of TL 3's, so raising the TL only adds pairs. What the shipped maps get
(TL1 takes the first pair, TL2 the first two; tests/core/rules/test_hotspots.py pins it):

* sandbox (36"x36", west/east strips; both mirrors swap them exactly, the centre reflection pairs more anchors):
  hotspot-5 + hotspot-2 (error 0.56"), hotspot-1 + hotspot-4 (3.13"), generated (13.5, 20) + (22.5, 16). No MO.
* chernya-woods (NW/SE corners; the centre reflection, the diagonal bisector pairs nothing): clearing-a +
  clearing-b (1.41"), generated (19.5, 6.5) + (28.5, 41.5) and (6.5, 19.5) + (41.5, 28.5); MO: the camp.
* crossroads-blyatsk (its first two zones are NW/NE, so the bisector x = 24; no hotspot anchors): generated
  (6.5, 25) + (41.5, 25), (17.5, 12.5) + (30.5, 12.5), (17.5, 35.5) + (30.5, 35.5); MO: the BTR, with its footprint.
* ishikhov (north/south strips; both mirrors exact, the bisector y = 24 pairs more anchors): hotspot-nw +
  hotspot-sw (2.66"), hotspot-ne + hotspot-se (3.72"), generated (6, 18.5) + (6, 29.5); MO: the CPO, with its
  footprint.
* bench-town (north/south strips; centre reflection): its three hotspot anchors miss each other's images by
  8.97" or more, so all are generated: (6, 24) + (42, 24), (19, 17.5) + (29, 30.5), (31.5, 17) + (16.5, 31). No MO.
"""
from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import shapely

from game.core.battlefield import Anchor, Battlefield, Point2, Zone
from game.core.catalog import load_catalog
from game.core.geometry.movement.positions import position_fact
from game.core.rules.setup import LocationSpec
from game.core.settings import Settings

MIN_GAP_IN = 6.0  # GAP-118: >= 6" from the edges, from each other and from the MO (house `mapgen.hotspots` min gap)
MIRROR_TOLERANCE_IN = 4.0  # house: two anchors are a mirror pair if one's image misses the other by <= 4"
SCAN_STEP_IN = 0.5  # the grid generated Hot Spots are scanned on
TIE_IN = 1e-6  # zone errors closer than this are equal
HOTSPOTS_PER_TL = 2  # MISSION-8.2.HOTSPOT-COUNT: 2 x TL
DEMO_TLS = (1, 2, 3)  # MISSION-8.2.TL; TL0 (White) scenarios have no Hot Spots


class MirrorKind(enum.Enum):
    """The symmetry that swaps the two deployment zones (GAP-118)."""

    CENTRE = "centre"  # point reflection through the table centre
    BISECTOR = "bisector"  # reflection across the perpendicular bisector of the zone centres


@dataclass(frozen=True, slots=True)
class Mirror:
    """A symmetry of the table: `image(p)` is where the other side finds p's counterpart (an isometric involution).

    CENTRE reflects through `origin` (the table centre); BISECTOR reflects across the line through `origin` (the
    midpoint of the zone centres) perpendicular to the unit vector `normal`. `zone_error`: how far the image of
    the first zone lies from the second (inches, the larger of the centre miss and the Hausdorff distance)."""

    kind: MirrorKind
    origin: Point2
    normal: Point2 = (0.0, 0.0)
    zone_error: float = 0.0

    def image(self, p: Point2) -> Point2:
        ox, oy = self.origin
        if self.kind is MirrorKind.CENTRE:
            return (2 * ox - p[0], 2 * oy - p[1])
        nx, ny = self.normal
        d = (p[0] - ox) * nx + (p[1] - oy) * ny
        return (p[0] - 2 * d * nx, p[1] - 2 * d * ny)

    def error(self, a: Point2, b: Point2) -> float:
        """How far a's image misses b (equal to b's image missing a)."""
        q = self.image(a)
        return math.hypot(q[0] - b[0], q[1] - b[1])


@dataclass(frozen=True, slots=True)
class AnchorPair:
    """Two hotspot anchors that mirror each other (GAP-118) and how far one's image misses the other (inches)."""

    first: Anchor  # the one nearer the first deployment zone
    second: Anchor
    error: float


def deployment_zones(bf: Battlefield) -> tuple[Zone, Zone] | None:
    """The two zones the crews deploy in (the map's first two zones of kind "deployment", TURN-4), or None."""
    zones = [z for z in bf.zones if z.kind == "deployment"]
    return (zones[0], zones[1]) if len(zones) >= 2 else None


def candidate_mirrors(bf: Battlefield) -> tuple[Mirror, ...]:
    """The point reflection through the table centre and (when the zone centres differ) the reflection across
    their perpendicular bisector, each with its zone error (GAP-118)."""
    centre = Mirror(MirrorKind.CENTRE, (bf.width / 2, bf.height / 2))
    zones = deployment_zones(bf)
    if zones is None:
        return (centre,)
    a, b = (shapely.Polygon(z.footprint) for z in zones)
    ca, cb = a.centroid, b.centroid
    dx, dy = cb.x - ca.x, cb.y - ca.y
    out = [centre]
    if math.hypot(dx, dy) > TIE_IN:
        n = math.hypot(dx, dy)
        out.append(Mirror(MirrorKind.BISECTOR, ((ca.x + cb.x) / 2, (ca.y + cb.y) / 2), (dx / n, dy / n)))
    return tuple(Mirror(m.kind, m.origin, m.normal, _zone_error(m, a, b)) for m in out)


def _zone_error(m: Mirror, a: shapely.Polygon, b: shapely.Polygon) -> float:
    image = shapely.Polygon([m.image(p) for p in a.exterior.coords])
    ci, cb = image.centroid, b.centroid
    return max(math.hypot(ci.x - cb.x, ci.y - cb.y), float(shapely.hausdorff_distance(image, b)))


def mission_objective(bf: Battlefield) -> Anchor | None:
    """The map's Mission Objective: its first anchor of kind "objective" (MISSION-8.2.OBJECTIVE), or None."""
    return next((a for a in bf.anchors if a.kind == "objective"), None)


def _edge_gap(bf: Battlefield, p: Point2) -> float:
    return min(p[0], bf.width - p[0], p[1], bf.height - p[1])


def _far(p: Point2, others: list[Point2]) -> bool:
    return all(math.hypot(p[0] - q[0], p[1] - q[1]) >= MIN_GAP_IN - TIE_IN for q in others)


def anchor_pairs(bf: Battlefield, mirror: Mirror) -> list[AnchorPair]:
    """GAP-118 on the map's own hotspot anchors: the mirror pairs picked greedily, smallest error first (ties by
    name), each point >= 6" from the edges, the MO and the points picked before."""
    mo = mission_objective(bf)
    spots = sorted((a for a in bf.anchors if a.kind == "hotspot" and _edge_gap(bf, a.point) >= MIN_GAP_IN - TIE_IN
                    and (mo is None or _far(a.point, [mo.point]))), key=lambda a: a.name)
    zones = deployment_zones(bf)
    home = shapely.Polygon(zones[0].footprint) if zones else None
    options = []
    for i, a in enumerate(spots):
        for b in spots[i + 1:]:
            err = mirror.error(a.point, b.point)
            if err <= MIRROR_TOLERANCE_IN and _far(a.point, [b.point]):
                if home is not None and home.distance(shapely.Point(b.point)) < home.distance(shapely.Point(a.point)):
                    a_, b_ = b, a
                else:
                    a_, b_ = a, b
                options.append(AnchorPair(a_, b_, err))
    options.sort(key=lambda p: (round(p.error, 9), min(p.first.name, p.second.name),
                                max(p.first.name, p.second.name)))
    picked: list[AnchorPair] = []
    used: list[Point2] = []
    for p in options:
        if _far(p.first.point, used) and _far(p.second.point, used):
            picked.append(p)
            used += [p.first.point, p.second.point]
    return picked


def choose_mirror(bf: Battlefield) -> Mirror:
    """The mirror of step 1 of the module docstring: least zone error, then most anchor pairs, then the smallest
    total pair error, then the point reflection (GAP-118)."""
    mirrors = candidate_mirrors(bf)
    best = min(m.zone_error for m in mirrors)
    tied = [m for m in mirrors if m.zone_error <= best + TIE_IN]

    def key(im: tuple[int, Mirror]) -> tuple[int, float, int]:
        pairs = anchor_pairs(bf, im[1])
        return (-len(pairs), round(sum(p.error for p in pairs), 9), im[0])

    return min(enumerate(tied), key=key)[1]


def _standable(bf: Battlefield, settings: Settings) -> Callable[[Point2], bool]:
    """GEO-7: may a human base stand at a point at ground level? (position_fact, asked once per point)"""
    body = load_catalog(settings).body("human")  # geo.bases: the crew's base and height (GEO-3)
    radius, height = body.diameter / 2, body.height
    seen: dict[Point2, bool] = {}

    def ok(p: Point2) -> bool:
        if p not in seen:
            seen[p] = position_fact(bf, p[0], p[1], 0.0, radius=radius, height=height, settings=settings).legal
        return seen[p]

    return ok


def _scan(bf: Battlefield, mirror: Mirror) -> tuple[np.ndarray, np.ndarray]:
    """The grid points >= 6" from every edge, row by row (y, then x), whose images are >= 6" from the edges and
    from them; and those images."""
    xs = np.arange(MIN_GAP_IN, bf.width - MIN_GAP_IN + TIE_IN, SCAN_STEP_IN)
    ys = np.arange(MIN_GAP_IN, bf.height - MIN_GAP_IN + TIE_IN, SCAN_STEP_IN)
    gy, gx = np.meshgrid(ys, xs, indexing="ij")
    pts = np.column_stack([gx.ravel(), gy.ravel()]).reshape(-1, 2)
    imgs = np.array([mirror.image((float(x), float(y))) for x, y in pts]).reshape(-1, 2)
    keep = np.array([_edge_gap(bf, (float(x), float(y))) >= MIN_GAP_IN - TIE_IN for x, y in imgs], dtype=bool)
    keep &= np.hypot(pts[:, 0] - imgs[:, 0], pts[:, 1] - imgs[:, 1]) >= MIN_GAP_IN - TIE_IN
    return pts[keep], imgs[keep]


def generated_pairs(bf: Battlefield, mirror: Mirror, chosen: list[Point2], count: int, *,
                    settings: Settings | None = None) -> list[tuple[Point2, Point2]]:
    """GAP-118 where the map has too few hotspot anchors: `count` mirror pairs from the 0.5" scan, each the
    candidate pair farthest (maximin) from the points already chosen, the MO and the deployment zones, ties by
    the scan order; every point >= 6" from the edges, the MO, its partner and the chosen points, and standable
    (GEO-7). ValueError if the table has no room for them."""
    standable = _standable(bf, settings or Settings.defaults())
    pts, imgs = _scan(bf, mirror)
    gap = np.hypot(pts[:, 0] - imgs[:, 0], pts[:, 1] - imgs[:, 1])  # to the partner, the MO, the chosen points
    mo = mission_objective(bf)
    for q in [*chosen, *([mo.point] if mo else [])]:
        gap = _closer(gap, pts, imgs, q)
    zones = [shapely.Polygon(z.footprint) for z in bf.zones if z.kind == "deployment"]
    to_zones = np.full(len(pts), np.inf)  # the spread also keeps away from the zones (not a GAP-118 rule)
    for z in zones:
        to_zones = np.minimum(to_zones, np.minimum(shapely.distance(z, shapely.points(pts)),
                                                   shapely.distance(z, shapely.points(imgs))))
    free = gap >= MIN_GAP_IN - TIE_IN
    home = zones[0] if zones else None
    out: list[tuple[Point2, Point2]] = []
    while len(out) < count:
        spread = np.round(np.where(free, np.minimum(gap, to_zones), -1.0), 9)
        pair = None
        for k in np.argsort(-spread, kind="stable"):  # best first, ties in scan order
            if not free[k]:
                break
            a, b = (float(pts[k, 0]), float(pts[k, 1])), (float(imgs[k, 0]), float(imgs[k, 1]))
            if standable(a) and standable(b):
                pair = (a, b)
                break
            free[k] = False
        if pair is None:
            return _no_room(bf, count, len(out))
        a, b = pair
        if home is not None and home.distance(shapely.Point(b)) < home.distance(shapely.Point(a)):
            a, b = b, a
        out.append((a, b))
        for q in (a, b):
            gap = _closer(gap, pts, imgs, q)
        free &= gap >= MIN_GAP_IN - TIE_IN
    return out


def _closer(gap: np.ndarray, pts: np.ndarray, imgs: np.ndarray, q: Point2) -> np.ndarray:
    """`gap` lowered to each candidate pair's distance from q."""
    return np.minimum(gap, np.minimum(np.hypot(pts[:, 0] - q[0], pts[:, 1] - q[1]),
                                       np.hypot(imgs[:, 0] - q[0], imgs[:, 1] - q[1])))


def _no_room(bf: Battlefield, count: int, found: int) -> list[tuple[Point2, Point2]]:
    raise ValueError(f"{bf.source or bf.name}: room for only {found} of the {count} generated Hot Spot pairs "
                     f"GAP-118 asks for ({MIN_GAP_IN:g}\" from the edges, each other and the MO) on a "
                     f"{bf.width:g}\"x{bf.height:g}\" table; use a lower TL or a larger table")


def check_tl(tl: object) -> int:
    """The demo's Threat Level, or ValueError naming `tl` and what is allowed (MISSION-8.2.TL)."""
    if isinstance(tl, bool) or not isinstance(tl, int) or tl not in DEMO_TLS:
        raise ValueError(f"tl is {tl!r}; allowed: a Threat Level 1, 2 or 3 (MISSION-8.2.TL: 2 x TL Hot Spots, "
                         "MISSION-8.2.HOTSPOT-COUNT; TL0 scenarios have no Hot Spots)")
    return tl


def _hotspot_name(anchor: str) -> str:
    for prefix in ("hotspot-", "hot-spot-"):
        if anchor.startswith(prefix) and len(anchor) > len(prefix):
            return f"Hot Spot {anchor[len(prefix):]}"
    return f"Hot Spot {anchor}"


def _spec(anchor: Anchor, kind: str, name: str, tl: int) -> LocationSpec:
    return LocationSpec(anchor.name, name, kind, (float(anchor.point[0]), float(anchor.point[1])), tl,
                        tuple((float(x), float(y)) for x, y in anchor.footprint or ()))


def demo_locations(bf: Battlefield, tl: int = 1, *, settings: Settings | None = None) -> tuple[LocationSpec, ...]:
    """GAP-118, MISSION-8.2.HOTSPOT-COUNT: 2 x `tl` Hot Spots mirror-symmetric with respect to the two deployment
    zones (pair by pair, the point nearer the first zone first), then the map's Mission Objective (an anchor of
    kind "objective", same TL) if it has one. How the points are picked: the module docstring.

    `tl` 1-3 (MISSION-8.2.TL); anything else is a ValueError (TL0 scenarios have no Hot Spots and are not set up
    here). Ids: the anchor's name, or "hotspot-gN" for a generated point.

    This placement keeps the 6" gap (`MIN_GAP_IN`): a `mapgen.hotspots.min_gap` other than 6 is refused here (a
    ValueError naming it), never ignored; the mission generator (game.scenarios.generate) plays any value."""
    tl = check_tl(tl)
    gap = float((settings or Settings.defaults())["mapgen.hotspots.min_gap"])
    if abs(gap - MIN_GAP_IN) > TIE_IN:
        raise ValueError(f"mapgen.hotspots.min_gap is {gap:g}; the map demos and hotspots = \"generate\" place Hot "
                         f"Spots {MIN_GAP_IN:g}\" apart only (allowed: {MIN_GAP_IN:g}); zona-alfa generate-mission "
                         "plays other gaps")
    pairs_wanted = tl * HOTSPOTS_PER_TL // 2
    mirror = choose_mirror(bf)
    picked = anchor_pairs(bf, mirror)[:pairs_wanted]
    out = [_spec(a, "hotspot", _hotspot_name(a.name), tl) for p in picked for a in (p.first, p.second)]
    chosen = [spec.point for spec in out]
    extra = generated_pairs(bf, mirror, chosen, pairs_wanted - len(picked), settings=settings)
    names = {a.name for a in bf.anchors}
    n = 0
    for pair in extra:
        for point in pair:
            n += 1
            while f"hotspot-g{n}" in names:
                n += 1
            out.append(LocationSpec(f"hotspot-g{n}", f"Hot Spot g{n} (generated)", "hotspot", point, tl))
    mo = mission_objective(bf)
    if mo is not None:
        out.append(_spec(mo, "objective", f"Mission Objective {mo.name}", tl))
    return tuple(out)
