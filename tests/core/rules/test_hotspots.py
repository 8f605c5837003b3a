"""Hot Spot placement for a map demo (GAP-118, MISSION-8.2.HOTSPOT-COUNT): 2 x TL mirror-symmetric points, >= 6" from
the edges, each other and the MO, on every shipped map and on tiny inline tables."""
from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from game.core.battlefield import Anchor, Battlefield, Movement, TerrainPiece, Zone
from game.core.geometry.movement.positions import position_fact
from game.core.geometry.polygon import rect
from game.core.rules.hotspots import (
    MIN_GAP_IN,
    MIRROR_TOLERANCE_IN,
    MirrorKind,
    choose_mirror,
    demo_locations,
)
from game.core.rules.setup import LocationSpec
from game.maps.loader import load_map
from tests.paths import MAPS, REPO_ROOT

Point = tuple[float, float]
SHIPPED = ("sandbox", "chernya-woods", "crossroads-blyatsk", "ishikhov", "bench-town")
# Each map's mirror written out by hand (the module docstring's choice): what the other side finds opposite p.
MIRRORS: dict[str, Callable[[Point], Point]] = {
    "sandbox": lambda p: (36 - p[0], 36 - p[1]),
    "chernya-woods": lambda p: (48 - p[0], 48 - p[1]),
    "crossroads-blyatsk": lambda p: (48 - p[0], p[1]),  # NW and NE deploy: mirrored across x = 24
    "ishikhov": lambda p: (p[0], 48 - p[1]),  # north and south strips: the bisector y = 24 pairs more anchors
    "bench-town": lambda p: (48 - p[0], 48 - p[1]),
}
# TL3's Hot Spots on each map, pair by pair (TL1 and TL2 take the first one and two pairs), and its MO.
EXPECTED = {
    "sandbox": (["hotspot-5", "hotspot-2", "hotspot-1", "hotspot-4", "hotspot-g1", "hotspot-g2"], None),
    "chernya-woods": (["clearing-a", "clearing-b", "hotspot-g1", "hotspot-g2", "hotspot-g3", "hotspot-g4"], "camp"),
    "crossroads-blyatsk": ([f"hotspot-g{i}" for i in range(1, 7)], "btr"),
    "ishikhov": (["hotspot-nw", "hotspot-sw", "hotspot-ne", "hotspot-se", "hotspot-g1", "hotspot-g2"], "cpo"),
    "bench-town": ([f"hotspot-g{i}" for i in range(1, 7)], None),
}


@pytest.fixture(scope="module")
def maps() -> dict[str, Battlefield]:
    return {name: load_map(MAPS / f"{name}.tmx") for name in SHIPPED}


def hotspots(specs: tuple[LocationSpec, ...]) -> list[LocationSpec]:
    return [s for s in specs if s.kind == "hotspot"]


def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def edge_gap(bf: Battlefield, p: Point) -> float:
    return min(p[0], bf.width - p[0], p[1], bf.height - p[1])


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("tl", [1, 2, 3])
def test_two_hot_spots_per_threat_level_and_the_map_objective(maps, name, tl) -> None:  # type: ignore[no-untyped-def]
    """MISSION-8.2.HOTSPOT-COUNT (TV-12): TL1 2, TL2 4, TL3 6 Hot Spots; the map's MO last, at the same TL."""
    specs = demo_locations(maps[name], tl)
    spots = hotspots(specs)
    assert len(spots) == 2 * tl
    ids, mo = EXPECTED[name]
    assert [s.id for s in spots] == ids[: 2 * tl]
    assert all(s.tl == tl and s.kind == "hotspot" and s.name for s in spots)
    objectives = [s for s in specs if s.kind == "objective"]
    assert [s.id for s in objectives] == ([mo] if mo else [])
    if mo:
        assert specs[-1].id == mo and specs[-1].tl == tl and specs[-1].point == maps[name].anchor(mo).point
    assert len({s.id for s in specs}) == len(specs)


@pytest.mark.parametrize("name", SHIPPED)
def test_hot_spots_come_in_mirror_pairs_between_the_deployment_zones(maps, name) -> None:  # type: ignore[no-untyped-def]
    """GAP-118: each pair mirrors about the table centre with respect to the two zones; an anchor pair misses by at
    most the tolerance, a generated pair not at all."""
    bf = maps[name]
    spots = hotspots(demo_locations(bf, 3))
    image = MIRRORS[name]
    for a, b in zip(spots[::2], spots[1::2], strict=True):
        err = dist(image(a.point), b.point)
        if a.id.startswith("hotspot-g"):
            assert err < 1e-9, (a, b)
        else:
            assert err <= MIRROR_TOLERANCE_IN, (a, b, err)
    mirror = choose_mirror(bf)
    for p in [(7.0, 9.5), (20.0, 13.0)]:
        assert dist(mirror.image(p), image(p)) < 1e-9


def test_the_mirror_swaps_the_zones(maps) -> None:  # type: ignore[no-untyped-def]
    """The first two deployment zones swap under the chosen mirror; a tie goes to the one pairing more anchors."""
    assert choose_mirror(maps["crossroads-blyatsk"]).kind is MirrorKind.BISECTOR  # NW/NE: the centre maps NW on SE
    assert choose_mirror(maps["ishikhov"]).kind is MirrorKind.BISECTOR  # both exact, the bisector pairs all four
    for name in ("sandbox", "chernya-woods", "bench-town"):
        assert choose_mirror(maps[name]).kind is MirrorKind.CENTRE
    for name in SHIPPED:
        assert choose_mirror(maps[name]).zone_error < 1e-6


@pytest.mark.parametrize("name", SHIPPED)
def test_distance_rules_and_legal_positions(maps, name) -> None:  # type: ignore[no-untyped-def]
    """GAP-118: >= 6" from the edges, from each other and from the MO; generated points are where a base stands
    (GEO-7)."""
    bf = maps[name]
    specs = demo_locations(bf, 3)
    spots = hotspots(specs)
    mo = [s.point for s in specs if s.kind == "objective"]
    for i, s in enumerate(spots):
        assert edge_gap(bf, s.point) >= MIN_GAP_IN - 1e-9, s
        for other in spots[i + 1:]:
            assert dist(s.point, other.point) >= MIN_GAP_IN - 1e-9, (s, other)
        for p in mo:
            assert dist(s.point, p) >= MIN_GAP_IN - 1e-9, s
        if s.id.startswith("hotspot-g"):
            assert position_fact(bf, *s.point, 0.0, radius=0.5, height=1.25).legal, s


@pytest.mark.parametrize("name", SHIPPED)
def test_deterministic_and_nested(maps, name) -> None:  # type: ignore[no-untyped-def]
    """The same map gives the same Hot Spots, loaded again or not; a higher TL only adds pairs."""
    bf = maps[name]
    again = demo_locations(load_map(MAPS / f"{name}.tmx"), 3)
    assert demo_locations(bf, 3) == again
    for tl in (1, 2):
        assert hotspots(demo_locations(bf, tl)) == [
            LocationSpec(s.id, s.name, s.kind, s.point, tl, s.footprint) for s in hotspots(again)[: 2 * tl]]


def test_footprints_and_names_come_from_the_anchors(maps) -> None:  # type: ignore[no-untyped-def]
    crossroads = demo_locations(maps["crossroads-blyatsk"], 1)
    btr = crossroads[-1]
    assert btr.kind == "objective" and btr.footprint == maps["crossroads-blyatsk"].anchor("btr").footprint
    assert "btr" in btr.name
    ishikhov = hotspots(demo_locations(maps["ishikhov"], 1))
    assert [s.name for s in ishikhov] == ["Hot Spot nw", "Hot Spot sw"] and ishikhov[0].footprint == ()
    assert hotspots(crossroads)[0].name == "Hot Spot g1 (generated)"


def tiny(**kw: object) -> Battlefield:
    """A 24" table with west and east strips and a solid block in the middle third."""
    block = TerrainPiece(1, "block", rect(9, 4, 15, 20), 0.0, 3.0, blocks_los=True, movement=Movement.IMPASSABLE)
    zones = (Zone(1, "west", rect(0, 0, 3, 24)), Zone(2, "east", rect(21, 0, 24, 24)))
    return Battlefield(**{"name": "tiny", "width": 24.0, "height": 24.0, "pieces": (block,), "zones": zones, **kw})


def test_a_map_without_anchors_gets_generated_pairs() -> None:
    """No hotspot anchors: mirror pairs from the scan, legal (not in the impassable block) and >= 6" apart."""
    bf = tiny()
    specs = demo_locations(bf, 2)
    assert [s.id for s in specs] == ["hotspot-g1", "hotspot-g2", "hotspot-g3", "hotspot-g4"]
    for a, b in zip(specs[::2], specs[1::2], strict=True):
        assert dist((24 - a.point[0], 24 - a.point[1]), b.point) < 1e-9  # the centre reflection swaps W and E
        assert a.point[0] < b.point[0]  # the point nearer the first zone first
    for s in specs:
        assert position_fact(bf, *s.point, 0.0, radius=0.5, height=1.25).legal
        assert not (9 - 0.5 < s.point[0] < 15 + 0.5 and 4 - 0.5 < s.point[1] < 20 + 0.5)
        assert edge_gap(bf, s.point) >= MIN_GAP_IN
    assert all(dist(a.point, b.point) >= MIN_GAP_IN for i, a in enumerate(specs) for b in specs[i + 1:])
    assert demo_locations(bf, 2) == specs


def test_an_open_table_without_zones_mirrors_through_its_centre() -> None:
    specs = demo_locations(Battlefield.open_table(36, 36), 3)
    assert len(specs) == 6 and all(s.kind == "hotspot" for s in specs)
    for a, b in zip(specs[::2], specs[1::2], strict=True):
        assert dist((36 - a.point[0], 36 - a.point[1]), b.point) < 1e-9


def test_generated_ids_skip_the_maps_own_names() -> None:
    bf = tiny(anchors=(Anchor(7, "hotspot-g1", (3.0, 3.0), kind="structure"),))
    assert [s.id for s in demo_locations(bf, 1)] == ["hotspot-g2", "hotspot-g3"]


def test_an_objective_too_close_keeps_hot_spots_away() -> None:
    mo = Anchor(1, "mo", (12.0, 22.0), kind="objective")
    west, east = Anchor(2, "near-w", (8.0, 19.0), kind="hotspot"), Anchor(3, "near-e", (16.0, 5.0), kind="hotspot")
    bf = tiny(anchors=(mo, west, east))
    specs = demo_locations(bf, 1)
    assert "near-w" not in {s.id for s in specs}  # 5" from the MO: left out, its partner alone; the pair is generated
    assert specs[-1].id == "mo" and all(dist(s.point, (12.0, 22.0)) >= MIN_GAP_IN for s in specs[:-1])


def test_a_table_too_small_is_refused() -> None:
    with pytest.raises(ValueError, match=r"tiny.*room for only 0 of the 1 generated Hot Spot pairs.*GAP-118"):
        demo_locations(Battlefield(name="tiny", width=12.0, height=12.0), 1)


@pytest.mark.parametrize("tl", [0, 4, -1, 1.5, True, "2", None])
def test_threat_levels_outside_one_to_three_are_refused(tl) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError) as err:
        demo_locations(Battlefield.open_table(), tl)
    text = str(err.value)
    assert text.startswith(f"tl is {tl!r}") and "allowed: a Threat Level 1, 2 or 3" in text
    assert "MISSION-8.2.TL" in text


def test_setup_does_not_import_the_placement() -> None:
    """The other way round: hotspots.py builds on setup.py's LocationSpec; setup.py wires it in later."""
    assert "hotspots" not in (REPO_ROOT / "game" / "core" / "rules" / "setup.py").read_text(encoding="utf-8")
