"""The shipped Red Gypsy 3 tables and the sandbox (SCEN-10.1..10.3, GAP-99..GAP-101): anchors, capacity, rules
coverage."""
from __future__ import annotations

import math
from collections import defaultdict
from itertools import combinations

import pytest
import shapely
from shapely.geometry import Point, Polygon

from game.core.battlefield import Area, Base, Battlefield, ConnectorKind, Cover, Movement
from game.core.geometry.distance import point_distance
from game.core.geometry.movement.paths import shortest_path
from game.core.geometry.movement.positions import nearest_legal, position_fact
from game.core.geometry.terrain import blocking_piece_at
from game.core.geometry.zone import cohesion
from game.core.tolerance import EPS
from game.maps.lint import lint_map
from game.maps.loader import load_map
from game.tools import make_maps
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
MAPS = {name: ROOT / "maps" / name for name in make_maps.TABLES}
DOG_RADIUS, DOG_HEIGHT = 0.5, 0.75  # GEO-3, HOSTILE-8.3.STATS: dogs on 25 mm (1.0") bases, 0.75" tall
PACKS_IN_ONE_STRUCTURE = 8  # GAP-99: two packs of four dogs, both in the same structure
LEASH_START_IN = 6.0  # the issue's capacity rule: every dog within 6" of the structure's anchor


@pytest.fixture(scope="module")
def tables() -> dict[str, Battlefield]:
    return {name: load_map(path) for name, path in MAPS.items()}


def _poly(pts) -> Polygon:
    return Polygon(pts)


def _buildings(bf: Battlefield) -> dict[str, list]:
    out: dict[str, list] = defaultdict(list)
    for p in bf.pieces:
        if p.building:
            out[p.building].append(p)
    return out


# ---------------------------------------------------------------- every table


@pytest.mark.parametrize("name", sorted(MAPS))
def test_check_map_is_clean(name):
    """maps/README.md: `zona-alfa check-map` reports nothing for a shipped table."""
    report = lint_map(MAPS[name])
    assert report.clean, "\n".join(str(p) for p in report.problems)


@pytest.mark.parametrize("name", sorted(MAPS))
def test_scripts_regenerate_the_files_byte_for_byte(name):
    """game/tools/make_maps.py writes exactly the shipped file (reviewable, rebuildable tables)."""
    assert make_maps.build(name) == MAPS[name].read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(MAPS))
def test_no_two_buildings_share_footprint_and_height(name, tables):
    """Issue item 5: every building is its own model (footprint and height differ)."""
    seen: dict[tuple, str] = {}
    for building, pieces in _buildings(tables[name]).items():
        union = shapely.union_all([_poly(p.footprint) for p in pieces])
        x0, y0, x1, y1 = union.bounds
        key = (tuple(sorted((round(x1 - x0, 2), round(y1 - y0, 2)))), round(union.area, 1),
               round(max(p.top_z for p in pieces), 2))
        assert key not in seen, f"{building} repeats {seen[key]}: {key}"
        seen[key] = building


@pytest.mark.parametrize("name", sorted(MAPS))
def test_anchors_and_zones_lie_on_open_ground_or_a_surface(name, tables):
    """GEO-26: anchors and deployment zones are on the table; point anchors are not inside impassable terrain."""
    bf = tables[name]
    for a in bf.anchors:
        x, y = a.point
        assert 0 <= x <= bf.width and 0 <= y <= bf.height, a.name
        if a.footprint is None:
            assert blocking_piece_at(bf, x, y, a.z, 0.05, 1.25) is None, a.name
    for z in bf.zones:
        assert _poly(z.footprint).within(shapely.box(0, 0, bf.width, bf.height).buffer(EPS)), z.name


# ---------------------------------------------------------------- capacity (GAP-99, GEO-7, GEO-21)


def _low_obstacle_overlap(bf: Battlefield, x: float, y: float, r: float) -> bool:
    """GEO-7: a base may not end on a low obstacle (a sill, hedge, barricade) unless it is a platform."""
    disc = Point(x, y).buffer(r, quad_segs=16)
    for p in bf.pieces:
        if p.top_z <= EPS or p.area is Area.WOODS or p.platform or p.bottom_z >= DOG_HEIGHT:
            continue
        if _poly(p.footprint).intersection(disc).area > 1e-9:
            return True
    return False


def pack_bases(bf: Battlefield, structure: str, *, count: int = PACKS_IN_ONE_STRUCTURE, radius: float = DOG_RADIUS,
               height: float = DOG_HEIGHT, step: float = 0.25) -> list[Base]:
    """Deterministic greedy search: grid points inside the structure's ground floor, closest to the anchor first;
    each new base is legal (GEO-7), overlaps no placed base (GEO-6) and is within 1" of a placed one (GEO-21)."""
    anchor = bf.anchor(structure)
    region = _poly(anchor.footprint)
    x0, y0, x1, y1 = region.bounds
    cands = []
    for i in range(int((x1 - x0) / step) + 1):
        for j in range(int((y1 - y0) / step) + 1):
            x, y = x0 + i * step, y0 + j * step
            base = Base("probe", x, y, 0.0, radius, height, "hostile")
            if not region.contains(Point(x, y)) or point_distance(base, anchor.point) > LEASH_START_IN + EPS:
                continue
            if blocking_piece_at(bf, x, y, 0.0, radius, height) is None and not _low_obstacle_overlap(bf, x, y, radius):
                cands.append((math.hypot(x - anchor.point[0], y - anchor.point[1]), x, y))
    cands.sort()
    placed: list[Base] = []
    for _, x, y in cands:
        if len(placed) == count:
            break
        gaps = [math.hypot(x - b.x, y - b.y) - 2 * radius for b in placed]
        if all(g >= -EPS for g in gaps) and (not placed or min(gaps) <= 1.0 + EPS):
            placed.append(Base(f"dog-{len(placed) + 1}", x, y, 0.0, radius, height, "hostile"))
    return placed


@pytest.mark.parametrize("structure", ["structure-1", "structure-2", "structure-3", "structure-4"])
def test_each_structure_holds_both_dog_packs(structure, tables):
    """GAP-99: both packs (8 dogs, 1" bases) fit on one structure's ground floor: legal, in cohesion, within 6"."""
    bf = tables["crossroads-blyatsk.tmx"]
    anchor = bf.anchor(structure)
    dogs = pack_bases(bf, structure)
    assert len(dogs) == PACKS_IN_ONE_STRUCTURE
    for d in dogs:
        assert blocking_piece_at(bf, d.x, d.y, 0.0, d.radius, d.height) is None  # TerrainPiece.impassable_at
        assert not _low_obstacle_overlap(bf, d.x, d.y, d.radius)
        fact = position_fact(bf, d.x, d.y, 0.0, radius=d.radius, height=d.height, others=dogs, mover=d.id)
        assert fact.legal, fact.reason  # GEO-7 in full: table, floor, bases, impassable and low obstacles
        assert point_distance(d, anchor.point) <= LEASH_START_IN + EPS
        assert _poly(anchor.footprint).contains(Point(d.x, d.y))
    for a, b in combinations(dogs, 2):
        assert math.hypot(a.x - b.x, a.y - b.y) >= a.radius + b.radius - EPS  # GEO-6: bases never overlap
    assert cohesion(dogs).connected  # GEO-21


def test_capacity_search_refuses_a_wall():
    """The capacity search is not vacuous: a base centred on a ground-storey wall is illegal (GEO-7)."""
    bf = load_map(MAPS["crossroads-blyatsk.tmx"])
    wall = next(p for p in bf.pieces if p.building == "farmhouse" and p.kind == "wall" and p.bottom_z == 0)
    c = _poly(wall.footprint).centroid
    assert blocking_piece_at(bf, c.x, c.y, 0.0, DOG_RADIUS, DOG_HEIGHT) is wall


# ---------------------------------------------------------------- Game One: the Crossroads (SCEN-10.1.CARD)


def test_crossroads_has_its_scenario_anchors(tables):
    """SCEN-10.1.CARD: four structures round the middle, the BTR objective at the crossroads, 6" corner zones."""
    bf = tables["crossroads-blyatsk.tmx"]
    centre = Point(bf.width / 2, bf.height / 2)
    for i in range(1, 5):
        a = bf.anchor(f"structure-{i}")
        assert a.kind == "structure" and Point(a.point).distance(centre) < 16.0
    btr = bf.anchor("btr")
    assert Point(btr.point).distance(centre) < 2.0
    hull = next(p for p in bf.pieces if p.kind == "vehicle" and _poly(p.footprint).contains(Point(btr.point)))
    assert hull.cover is Cover.HARD and hull.top_z >= 1.5
    roads = [_poly(p.footprint) for p in bf.pieces if p.name.startswith("road-")]
    assert len(roads) == 2 and roads[0].intersection(roads[1]).contains(Point(btr.point))
    for z in bf.zones:
        minx, miny, maxx, maxy = _poly(z.footprint).bounds
        assert (maxx - minx, maxy - miny) == (6.0, 6.0)
        assert minx in (0.0, bf.width - 6) and miny in (0.0, bf.height - 6)
    names = {p.name.split("-")[0] for p in bf.pieces}
    assert {"hedge", "fence", "woods", "water"} <= names  # tree stands, hedges, fences, the water tower


# ---------------------------------------------------------------- Game Two: the Chernya Woods (SCEN-10.2.CARD)


def test_woods_trail_clearings_and_camp(tables):
    """SCEN-10.2.CARD, GAP-100: woods on 40%+, a corner-to-corner trail, the camp with four barriers on it,
    two side clearings off the trail, 4" zones in the two trail corners."""
    bf = tables["chernya-woods.tmx"]
    woods = shapely.union_all([_poly(p.footprint) for p in bf.pieces if p.area is Area.WOODS])
    assert woods.area / (bf.width * bf.height) >= 0.40
    trail = shapely.union_all([_poly(p.footprint) for p in bf.pieces if p.name.startswith("trail-")])
    assert trail.geom_type == "Polygon" and trail.intersects(Point(0, 0)) and trail.intersects(Point(48, 48))
    assert not trail.intersects(woods.buffer(-EPS))
    camp = bf.anchor("camp")
    assert trail.contains(Point(camp.point)) and not woods.intersects(Point(camp.point).buffer(6.0))
    barriers = [p for p in bf.pieces if p.name.startswith("camp-barrier-")]
    assert len(barriers) == 4 and all(_poly(p.footprint).distance(Point(camp.point)) < 6.0 for p in barriers)
    assert len({p.kind for p in barriers}) >= 3
    for name in ("clearing-a", "clearing-b"):
        a = bf.anchor(name)
        assert not trail.intersects(Point(a.point).buffer(3.0)) and not woods.intersects(Point(a.point).buffer(3.0))
    a, b = bf.anchor("clearing-a").point, bf.anchor("clearing-b").point
    assert (a[1] < a[0]) != (b[1] < b[0])  # one clearing in each triangle of the diagonal
    zones = {z.name: _poly(z.footprint) for z in bf.zones}
    assert set(zones) == {"deploy-nw", "deploy-se"}
    for zone in zones.values():
        minx, miny, maxx, maxy = zone.bounds
        assert (maxx - minx, maxy - miny) == (4.0, 4.0) and zone.intersects(trail)


# ---------------------------------------------------------------- Game Three: Ishikhov (SCEN-10.3.CARD)


def test_ishikhov_streets_cpo_and_hot_spots(tables):
    """SCEN-10.3.CARD, GAP-101: two streets each way, the CPO (2+ levels, 4+ doors) in the centre block, the four
    intersections, one hot spot per quadrant >= 6" from the edges and each other, 4" edge zones."""
    bf = tables["ishikhov.tmx"]
    streets = [_poly(p.footprint) for p in bf.pieces if p.name.startswith("road-")]
    assert len(streets) == 4
    for i in range(1, 5):
        pt = Point(bf.anchor(f"intersection-{i}").point)
        assert sum(s.contains(pt) for s in streets) == 2
    cpo = bf.anchor("cpo")
    assert abs(cpo.point[0] - 24) < 3 and abs(cpo.point[1] - 24) < 3
    floors = {p.top_z for p in bf.pieces if p.building == "cpo" and p.surface}
    assert len(floors) >= 2
    doors = [a for a in bf.anchors if a.name.startswith("cpo-door-")]
    assert len(doors) >= 4 and all(_poly(cpo.footprint).distance(Point(d.point)) <= 1.0 for d in doors)
    spots = [a for a in bf.anchors if a.kind == "hotspot"]
    assert len(spots) == 4
    assert {(a.point[0] > 24, a.point[1] > 24) for a in spots} == {(False, False), (True, False), (False, True),
                                                                     (True, True)}
    for a in spots:
        x, y = a.point
        assert min(x, y, bf.width - x, bf.height - y) >= 6.0
    for a, b in combinations(spots, 2):
        assert math.dist(a.point, b.point) >= 6.0
    for z in bf.zones:
        minx, miny, maxx, maxy = _poly(z.footprint).bounds
        assert maxy - miny == 4.0 and maxx - minx == bf.width


def _enterable(pieces) -> bool:
    """A building with a ground-storey door: two ground walls of one side 1.5"+ apart with no sill between."""
    walls = [_poly(p.footprint) for p in pieces if p.kind == "wall" and p.bottom_z == 0]
    sills = [_poly(p.footprint) for p in pieces if p.kind == "sill"]
    for a, b in combinations(walls, 2):
        d = a.distance(b)
        if 1.5 - EPS <= d <= 4.0:
            mid = shapely.shortest_line(a, b).interpolate(0.5, normalized=True)
            if not any(s.distance(mid) < 1e-6 for s in sills):
                return True
    return False


@pytest.mark.parametrize("name", ["crossroads-blyatsk.tmx", "ishikhov.tmx"])
def test_towns_have_enterable_buildings_with_upper_levels(name, tables):
    """Issue item 5: four or more enterable buildings, two or more with an upper floor or roof served by stairs
    or a ladder (GEO-24)."""
    bf = tables[name]
    groups = _buildings(bf)
    enterable = [b for b, pieces in groups.items() if _enterable(pieces)]
    assert len(enterable) >= 4, enterable
    served = {c.name.rsplit("-", 1)[0] for c in bf.connectors}
    upper = [b for b in enterable if b in served and any(p.surface for p in groups[b])]
    assert len(upper) >= 2, upper


# ---------------------------------------------------------------- the sandbox


def test_sandbox_has_every_terrain_rule(tables):
    """Sandbox: soft, hard and hardened cover, obstructions, woods, difficult ground, a two-level ruin with stairs
    and a ladder, a roof, one wall with a window and a door, a 2" jump between surfaces, six hot spots, two zones."""
    bf = tables["sandbox.tmx"]
    assert {Cover.SOFT, Cover.HARD, Cover.HARDENED, Cover.OBSTRUCTION} <= {p.cover for p in bf.pieces}
    assert any(p.area is Area.WOODS for p in bf.pieces)
    assert any(p.movement is Movement.DIFFICULT for p in bf.pieces)
    assert any(p.platform for p in bf.pieces) and any(p.climbable for p in bf.pieces)
    ruin = _buildings(bf)["ruin"]
    assert any(p.kind == "floor" for p in ruin) and not any(p.kind == "roof" for p in ruin)
    assert all(p.climbable for p in ruin if p.kind == "wall")
    kinds = {c.kind for c in bf.connectors if c.name.startswith("ruin-")}
    assert kinds == {ConnectorKind.STAIRS, ConnectorKind.LADDER}
    house = _buildings(bf)["house"]
    assert any(p.kind == "roof" for p in house) and any(c.name == "house-ladder" for c in bf.connectors)
    south = [p for p in house if p.name.startswith("house-s0-")]
    assert any("window" in p.name and p.kind == "sill" for p in south)
    assert _enterable([p for p in south if p.kind in ("wall", "sill")])  # the door is in the same wall
    tops = [p for p in bf.pieces if p.kind == "container" and p.surface]
    gaps = [_poly(a.footprint).distance(_poly(b.footprint)) for a, b in combinations(tops, 2) if a.top_z == b.top_z]
    assert any(abs(g - 2.0) <= EPS for g in gaps)  # GEO-24: a 2" gap is one Jump action
    assert len([a for a in bf.anchors if a.kind == "hotspot"]) == 6
    assert len(bf.zones) == 2


# ---------------------------------------------------------------- reachability (issue item 5, GAP-53, GEO-24, GEO-27)

HUMAN_RADIUS, HUMAN_HEIGHT = 0.5, 1.25  # GEO-3: crew on 1" bases


def _legal(bf: Battlefield, x: float, y: float, z: float):
    return position_fact(bf, x, y, z, radius=HUMAN_RADIUS, height=HUMAN_HEIGHT).legal


def _starts(bf: Battlefield) -> dict[str, tuple[float, float, float]]:
    """A legal ground point in each deployment zone, nearest its centre (GEO-25 search)."""
    out = {}
    for z in bf.zones:
        c = _poly(z.footprint).centroid
        p = nearest_legal(bf, c.x, c.y, 0.0, radius=HUMAN_RADIUS, height=HUMAN_HEIGHT, max_distance=3.0)
        assert p is not None and _poly(z.footprint).contains(Point(p.x, p.y)), z.name
        out[z.name] = (p.x, p.y, 0.0)
    return out


def _search_positions(bf: Battlefield, a) -> list[tuple[float, float, float]]:
    """GAP-53 search positions of an anchor: legal points whose base is within 1" of the anchor point or, for an
    anchor with a footprint, in contact (<= 0.1") with it; nearest first."""
    out = []
    if a.footprint is not None:
        ring = _poly(a.footprint).exterior.buffer(HUMAN_RADIUS + 0.05, quad_segs=4).exterior
        for k in range(int(ring.length / 0.5)):
            p = ring.interpolate(k * 0.5)
            out.append((p.x, p.y, a.z))
    p = nearest_legal(bf, a.point[0], a.point[1], a.z, radius=HUMAN_RADIUS, height=HUMAN_HEIGHT, max_distance=1.5)
    if p is not None:
        out.insert(0, (p.x, p.y, a.z))
    return [q for q in out if _legal(bf, *q)]


def _serves(a, q) -> bool:
    """GAP-53: base within 1" of the point, or in contact with the footprint."""
    near = math.hypot(q[0] - a.point[0], q[1] - a.point[1]) - HUMAN_RADIUS <= 1.0 + EPS
    touch = a.footprint is not None and _poly(a.footprint).distance(Point(q[0], q[1])) - HUMAN_RADIUS <= 0.1 + EPS
    return (near or touch) and abs(q[2] - a.z) <= EPS


def _reachable(bf: Battlefield, start, goals, *, tries: int = 6):
    for goal in goals[:tries]:
        r = shortest_path(bf, start, goal, radius=HUMAN_RADIUS, height=HUMAN_HEIGHT)
        if r.found:
            return r
    return None


def _targets(bf: Battlefield) -> dict[str, list[tuple[float, float, float]]]:
    """Every place item 5 names: objective and hot-spot search positions, the inside of every building, and
    every surface served by stairs, a ladder or a climb."""
    out: dict[str, list[tuple[float, float, float]]] = {}
    for a in bf.anchors:
        if a.kind in ("objective", "hotspot"):
            goals = _search_positions(bf, a)
            assert goals and all(_serves(a, g) for g in goals), a.name
            out[f"search {a.name}"] = goals
    for name, pieces in _buildings(bf).items():
        if not any(p.kind == "wall" for p in pieces):
            continue
        inside = shapely.union_all([_poly(p.footprint) for p in pieces]).envelope.buffer(-0.8)
        c = inside.centroid
        p = nearest_legal(bf, c.x, c.y, 0.0, radius=HUMAN_RADIUS, height=HUMAN_HEIGHT, max_distance=6.0)
        assert p is not None and inside.contains(Point(p.x, p.y)), f"nowhere to stand inside {name}"
        out[f"inside {name}"] = [(p.x, p.y, 0.0)]
    for c in bf.connectors:
        dx, dy = c.end[0] - c.start[0], c.end[1] - c.start[1]
        k = 1.0 / math.hypot(dx, dy)
        goals = []
        for x, y in ((c.end[0] + dx * k, c.end[1] + dy * k), c.end[:2]):  # a step onto the surface, then the end
            p = nearest_legal(bf, x, y, c.end[2], radius=HUMAN_RADIUS, height=HUMAN_HEIGHT, max_distance=1.5)
            if p is not None:
                goals.append((p.x, p.y, c.end[2]))
        assert goals, f"nowhere to stand at the top of {c.name}"
        out[f"top of {c.name}"] = goals
    for s in bf.pieces:
        if s.surface and s.climbable:
            c = _poly(s.footprint).centroid
            p = nearest_legal(bf, c.x, c.y, s.top_z, radius=HUMAN_RADIUS, height=HUMAN_HEIGHT, max_distance=2.0)
            assert p is not None, f"nowhere to stand on {s.name}"
            out[f"on {s.name}"] = [(p.x, p.y, s.top_z)]
    return out


@pytest.mark.parametrize("name", sorted(MAPS))
def test_every_target_is_reachable_from_every_deployment_zone(name, tables):
    """Issue item 5 (GEO-27 shortest legal paths for a 1" base): from each deployment zone a legal path reaches
    the GAP-53 search position of every objective and hot spot, the inside of every building, and every surface
    served by stairs, a ladder (GEO-24) or a climb."""
    bf = tables[name]
    targets = _targets(bf)
    assert targets
    missing = []
    for zone, start in _starts(bf).items():
        for what, goals in targets.items():
            r = _reachable(bf, start, goals)
            if r is None:
                missing.append(f"{zone} -> {what}")
            else:
                assert r.fact is None or r.fact.legal
    assert not missing, missing


def test_reachability_is_not_vacuous():
    """A base cannot reach the closed-off middle of a solid piece: the pathfinder refuses illegal goals."""
    bf = load_map(MAPS["crossroads-blyatsk.tmx"])
    hull = bf.anchor("btr").point
    r = shortest_path(bf, (3.0, 3.0, 0.0), (hull[0], hull[1], 0.0), radius=HUMAN_RADIUS, height=HUMAN_HEIGHT)
    assert not r.found
