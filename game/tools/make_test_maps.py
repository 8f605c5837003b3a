"""Write the Tiled project, the every-field test map and the broken/hostile map corpus (tests/fixtures/maps)."""
from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType

from game.tools.tmxwriter import Building, Opening, TmxMap, add_building, write_project

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "maps"


def every_field_map() -> TmxMap:
    """A 24"x24" map using every class, every member (off its default) and every enum value."""
    m = TmxMap(24, 24, ppi=24, title="Every Field")
    m.ellipse("ground", "Terrain", "birch-stand", 1, 14, 6, 5, area="woods", kind="woods", cover="soft",
              movement="difficult", bottom_in=0.0, top_in=4.0)
    m.polygon("ground", "Terrain", "pond", [(9, 19), (13, 18), (14, 21), (10, 22.5)], kind="water",
              movement="difficult", bottom_in=0.0, top_in=0.0)
    m.terrain("ground", "rubble", "rubble-1", 16, 18, 3, 2, top=0.5, rotation=20)
    add_building(m, Building("house-1", 2, 2, 8, 7, storeys=2, anchor="structure-1", openings=(
        Opening("s", 3.0, 1.5), Opening("e", 2.0, 1.0, window=True), Opening("n", 5.0, 1.0, storey=1, window=True),
    )))
    add_building(m, Building("shed", 14, 2, 5, 4, access="ladder", ruin=True, openings=(Opening("w", 1.0, 1.5),)))
    m.terrain("obstacles", "hedge", "hedge-1", 12, 9, 6, 0.5, top=1.0)
    m.terrain("obstacles", "sandbags", "sandbags-1", 3, 11, 3, 0.75, top=1.0)
    m.terrain("obstacles", "platform", "loading-dock", 20, 9, 3, 2, top=1.0)
    m.terrain("obstacles", "container", "container-1", 19, 13, 2.5, 5, top=2.5)
    m.terrain("obstacles", "vehicle", "btr-hull", 12, 12, 3.5, 1.75, top=1.5, rotation=30)
    m.polyline("obstacles", "Stairs", "dock-steps", [(19.0, 10.0), (20.5, 10.0)], from_in=0.0, to_in=1.0, width_in=1.5)
    m.polyline("obstacles", "Ladder", "container-ladder", [(18.5, 15.0), (19.5, 15.0)], from_in=0.0, to_in=2.5,
               width_in=0.75)
    m.polygon("obstacles", "Terrain", "boulder", [(7, 12), (9, 11.5), (9.5, 13), (7.5, 13.5)], kind="rocks",
              blocks_los=True, cover="hard", movement="impassable", climbable=True, top_in=2.0)
    m.terrain("obstacles", "fence", "fence-1", 1, 21, 0.25, 2.5, top=1.25, cover="obstruction", kind="fence")
    m.rect("obstacles", "Terrain", "tarp", 16, 22, 2, 1, kind="other", cover="none", top_in=0.25, bottom_in=0.0)
    m.point("markers", "Anchor", "hotspot-a", 17, 7.5, kind="hotspot")
    m.point("markers", "Anchor", "btr", 13.8, 13, kind="vehicle", z_in=1.5)
    m.point("markers", "Anchor", "cpo-door-n", 5.75, 9.5, kind="door")
    m.ellipse("markers", "Anchor", "anomaly-1", 20, 19.5, 3, 3, kind="anomaly")
    m.rect("zones", "DeploymentZone", "deploy-a", 0, 0, 24, 1)
    m.polygon("zones", "DeploymentZone", "deploy-b", [(0, 23), (24, 23), (24, 24), (0, 24)])
    return m


def _base() -> TmxMap:
    """A small clean map that each broken variant spoils in one way."""
    m = TmxMap(12, 12, ppi=32, title="Broken Base")
    add_building(m, Building("hut", 1, 1, 6, 5, openings=(Opening("s", 2.0, 1.5),), access="ladder"))
    m.point("markers", "Anchor", "hotspot-a", 9, 9, kind="hotspot")
    m.rect("zones", "DeploymentZone", "deploy-a", 0, 11, 12, 1)
    return m


def _wall(m: TmxMap, name: str, x: float, y: float, w: float, h: float, **kw: object) -> int:
    props = {"building": "hut", "top": 3.0, **kw}
    return m.terrain("buildings", "wall", name, x, y, w, h, **props)  # type: ignore[arg-type]


BROKEN: Mapping[str, Callable[[TmxMap], int]] = MappingProxyType({
    "unknown-class": lambda m: m.rect("buildings", "Terain", "typo", 8, 8, 1, 1, top_in=1.0),
    "bad-enum": lambda m: m.terrain("buildings", "barricade", "crates", 8, 8, 1, 1, top=1.0, cover="heavy"),
    "missing-height": lambda m: m.rect("buildings", "Terrain", "no-top", 8, 8, 1, 1, kind="rubble"),
    "inverted-height": lambda m: m.terrain("buildings", "barricade", "upside-down", 8, 8, 1, 1, bottom=3.0, top=1.0),
    "open-polygon": lambda m: m.polyline("buildings", "Terrain", "open-hedge", [(8, 8), (10, 8), (10, 10)],
                                         kind="hedge", top_in=1.0),
    "self-intersecting": lambda m: m.polygon("buildings", "Terrain", "bow-tie", [(8, 8), (10, 10), (10, 8), (8, 10)],
                                             kind="rocks", top_in=1.0),
    "zero-area": lambda m: m.polygon("buildings", "Terrain", "sliver", [(8, 8), (9, 9), (10, 10)], top_in=1.0),
    "impassable-overlap": lambda m: _wall(m, "crossing-wall", 3, 0.5, 0.25, 2.0),
    "surface-gap": lambda m: m.terrain("buildings", "floor", "low-loft", 2, 2, 2, 2, bottom=4.0, top=4.25,
                                       building="hut"),
    "woods-height": lambda m: m.ellipse("ground", "Terrain", "short-woods", 8, 1, 3, 3, area="woods", kind="woods",
                                        top_in=3.0),
    "door-gap": lambda m: _wall(m, "door-blocker", 3.5, 5.75, 0.5, 0.25, top=2.0),
    "off-table-anchor": lambda m: m.point("markers", "Anchor", "lost", 13, 5),
    "off-table-zone": lambda m: m.rect("zones", "DeploymentZone", "deploy-b", 10, -1, 3, 2),
    "duplicate-name": lambda m: m.point("markers", "Anchor", "hotspot-a", 10, 10),
    "stairs-nothing": lambda m: m.polyline("buildings", "Stairs", "stairs-to-nowhere", [(9, 4), (9, 2)],
                                           from_in=0.0, to_in=2.0),
    "reserved-name": lambda m: m.rect("buildings", "Terrain", "tall", 8, 8, 1, 1, height=3.0, top_in=3.0),
    "unknown-property": lambda m: m.rect("buildings", "Terrain", "typo-prop", 8, 8, 1, 1, top_in=1.0, topin=2.0),
    "bad-shape": lambda m: m.point("buildings", "Terrain", "point-rock", 8, 8, top_in=1.0),
    "no-name": lambda m: m.point("markers", "Anchor", "", 6, 9),
    "wall-no-building": lambda m: m.terrain("buildings", "wall", "stray-wall", 9, 7, 2, 0.25, top=2.0),
    "bad-connector": lambda m: m.polyline("buildings", "Ladder", "bent-ladder", [(9, 4), (9, 3), (8, 3)],
                                          from_in=0.0, to_in=3.25),
})


def _not_finite(m: TmxMap) -> int:
    oid = m.rect("buildings", "Terrain", "nan-crate", 8, 8, 1, 1, kind="container", top_in=1.0)
    return oid


def write_broken(out: Path) -> dict[str, dict[str, object]]:
    """One map per problem; EXPECTED.json maps file -> problem code and object id."""
    out.mkdir(parents=True, exist_ok=True)
    expected: dict[str, dict[str, object]] = {}
    for code, spoil in BROKEN.items():
        m = _base()
        oid = spoil(m)
        m.write(out / f"{code}.tmx")
        expected[f"{code}.tmx"] = {"code": code.replace("off-table-anchor", "off-table").replace(
            "off-table-zone", "off-table"), "id": oid}
    m = _base()
    oid = _not_finite(m)
    text = m.to_xml().replace(f'<object id="{oid}" name="nan-crate" type="Terrain" x="256"', f'<object id="{oid}" '
                              'name="nan-crate" type="Terrain" x="nan"')
    (out / "not-finite.tmx").write_text(text, encoding="utf-8")
    expected["not-finite.tmx"] = {"code": "not-finite", "id": oid}
    (out / "EXPECTED.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return expected


_MAP_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n{doctype}<map version="1.10" orientation="orthogonal" '
             'width="12" height="12" tilewidth="32" tileheight="32" infinite="{inf}">\n')


def hostile_files() -> dict[str, str]:
    """Hostile or broken .tmx texts that must fail cleanly and fast."""
    laughs = '<!DOCTYPE map [\n <!ENTITY a "ha">\n' + "".join(
        f' <!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">\n' for i in range(9)) + "]>\n"
    obj = ('<objectgroup id="1" name="t"><object id="1" name="x" type="Terrain" x="{x}" y="32" width="32" '
           'height="32"><properties><property name="top_in" type="float" value="1"/>{extra}</properties>'
           '</object></objectgroup>\n')
    return {
        "malformed.tmx": _MAP_HEAD.format(doctype="", inf="0") + '<objectgroup id="1"><object id="1"\n</map>\n',
        "billion-laughs.tmx": _MAP_HEAD.format(doctype=laughs, inf="0").replace(
            'infinite="0">',
            'infinite="0">\n<properties><property name="title" value="&j;"/></properties>') + "</map>\n",
        "external-entity.tmx": _MAP_HEAD.format(doctype='<!DOCTYPE map [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n',
                                                inf="0").replace('infinite="0">', 'infinite="0">\n<properties>'
                                                '<property name="title" value="&x;"/></properties>') + "</map>\n",
        "missing-tileset.tmx": _MAP_HEAD.format(doctype="", inf="0") + '<tileset firstgid="1" source="nowhere.tsx"/>\n'
        + "</map>\n",
        "infinite.tmx": _MAP_HEAD.format(doctype="", inf="1") + '<layer id="1" name="g" width="12" height="12">'
        '<data encoding="csv"><chunk x="0" y="0" width="16" height="16">0</chunk></data></layer>\n</map>\n',
        "reserved-name.tmx": _MAP_HEAD.format(doctype="", inf="0") + obj.format(
            x="32", extra='<property name="height" type="float" value="3"/>') + "</map>\n",
        "nan-coordinates.tmx": _MAP_HEAD.format(doctype="", inf="0") + obj.format(x="NaN", extra="") + "</map>\n",
        "deep-groups.tmx": _MAP_HEAD.format(doctype="", inf="0") + '<group id="1" name="g">' * 5000
        + "</group>" * 5000 + "\n</map>\n",
        "not-a-map.tmx": '<?xml version="1.0"?>\n<tileset name="x"/>\n',
        "empty.tmx": "",
        "huge.tmx": _MAP_HEAD.format(doctype="", inf="0").replace('width="12" height="12"',
                                                                  'width="99999999" height="99999999"') + "</map>\n",
    }


def write_hostile(out: Path) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    for name, text in hostile_files().items():
        (out / name).write_text(text, encoding="utf-8")
    return sorted(hostile_files())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument("--maps", type=Path, default=ROOT / "maps")
    args = parser.parse_args(argv)
    write_project(args.maps / "zona-alfa.tiled-project")
    every_field_map().write(args.fixtures / "every-field.tmx")
    write_broken(args.fixtures / "broken")
    write_hostile(args.fixtures / "hostile")
    print(f"wrote {args.maps / 'zona-alfa.tiled-project'} and maps under {args.fixtures}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
