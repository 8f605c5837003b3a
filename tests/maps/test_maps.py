"""The Tiled map loader: every field, every pytmx trap, inches and immutability (GEO-1, GEO-7, GEO-10)."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.battlefield import Area, Battlefield, ConnectorKind, Cover, Movement
from game.maps.loader import MapError, load_map, read_map
from game.maps.schema import CLASSES, ELLIPSE_SEGMENTS, ENUMS, MemberType, property_types
from game.tools.make_test_maps import every_field_map
from game.tools.tmxwriter import TmxMap
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
EVERY = ROOT / "tests" / "fixtures" / "maps" / "every-field.tmx"
PROJECT = ROOT / "maps" / "zona-alfa.tiled-project"

HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" width="12" '
        'height="12" tilewidth="32" tileheight="32" infinite="0">\n')
TOP1 = '<properties><property name="top_in" type="float" value="1"/></properties>'


def _write(tmp_path: Path, body: str, name: str = "m.tmx") -> Path:
    p = tmp_path / name
    p.write_text(HEAD + body + "</map>\n", encoding="utf-8")
    return p


def test_every_field_loads_in_inches_geo_1():
    """GEO-1: pixels -> inches once; source and SHA-256 of the file bytes recorded."""
    bf = load_map(EVERY)
    assert isinstance(bf, Battlefield)
    assert (bf.width, bf.height, bf.name) == (24.0, 24.0, "Every Field")
    assert bf.source == str(EVERY)
    assert bf.sha256 == hashlib.sha256(EVERY.read_bytes()).hexdigest()
    dock = next(p for p in bf.pieces if p.name == "loading-dock")
    assert dock.footprint == ((20.0, 9.0), (23.0, 9.0), (23.0, 11.0), (20.0, 11.0))
    assert dock.platform and dock.top_z == 1.0 and dock.cover is Cover.OBSTRUCTION
    with pytest.raises(dataclasses.FrozenInstanceError):
        bf.width = 3.0  # type: ignore[misc]


def test_every_field_exercises_every_class_member_and_enum_value():
    """The test map sets every member of every class off its default at least once, and uses every
    Cover, Movement and AreaKind value."""
    parsed = read_map(EVERY)
    assert not parsed.problems
    used = {m.cls for m in parsed.objects}
    assert used == {c.name for c in CLASSES if "object" in c.use_as}
    for c in CLASSES:
        if "object" not in c.use_as:
            continue
        for member in c.members:
            values = [m.props[member.name] for m in parsed.objects if m.cls == c.name]
            assert any(v != member.default for v in values), f"{c.name}.{member.name} never set"
    raw = EVERY.read_text()
    assert 'name="pixels_per_inch" type="float" value="24"' in raw and 'name="title"' in raw
    for enum in ENUMS:
        if enum.name == "TerrainKind":
            continue
        field = {"Cover": "cover", "Movement": "movement", "AreaKind": "area"}[enum.name]
        seen = {m.props[field] for m in parsed.objects if m.cls == "Terrain"}
        assert seen == set(enum.values), enum.name


def test_every_field_fixture_is_generated_by_the_script():
    assert every_field_map().to_xml() == EVERY.read_text(encoding="utf-8")


def _check_project_schema(doc: dict) -> None:
    """A hand-written schema of a Tiled 1.10 `.tiled-project` holding the format's propertyTypes."""
    assert set(doc) >= {"propertyTypes", "folders"} and isinstance(doc["folders"], list)
    types = doc["propertyTypes"]
    assert isinstance(types, list) and types
    ids = [t["id"] for t in types]
    assert len(ids) == len(set(ids)) and all(isinstance(i, int) and i > 0 for i in ids)
    enums = {}
    for t in types:
        assert isinstance(t["name"], str) and t["name"]
        assert t["type"] in ("enum", "class")
        if t["type"] == "enum":
            assert t["storageType"] == "string" and t["valuesAsFlags"] is False
            assert t["values"] and all(isinstance(v, str) for v in t["values"])
            assert len(set(t["values"])) == len(t["values"])
            enums[t["name"]] = t["values"]
    for t in types:
        if t["type"] != "class":
            continue
        assert set(t["useAs"]) <= {"map", "object", "layer", "tile", "tileset", "property", "project"}
        assert t["color"].startswith("#") and len(t["color"]) == 9
        names = [m["name"] for m in t["members"]]
        assert len(names) == len(set(names))
        for m in t["members"]:
            assert m["name"] not in ("height", "width", "name", "type", "x", "y", "rotation", "id", "visible")
            if "propertyType" in m:
                assert m["type"] == "string" and m["value"] in enums[m["propertyType"]]
            elif m["type"] == "float":
                assert isinstance(m["value"], (int, float)) and not isinstance(m["value"], bool)
            elif m["type"] == "bool":
                assert isinstance(m["value"], bool)
            else:
                assert m["type"] == "string" and isinstance(m["value"], str)


def test_project_file_validates_and_matches_the_loader_schema():
    doc = json.loads(PROJECT.read_text())
    _check_project_schema(doc)
    assert doc["propertyTypes"] == property_types()
    names = {t["name"] for t in doc["propertyTypes"]}
    assert {"Battlefield", "Terrain", "Stairs", "Ladder", "DeploymentZone", "Anchor", "Cover", "Movement"} <= names


def test_project_schema_rejects_a_reserved_member_name():
    doc = json.loads(PROJECT.read_text())
    terrain = next(t for t in doc["propertyTypes"] if t["name"] == "Terrain")
    terrain["members"].append({"name": "height", "type": "float", "value": 0})
    with pytest.raises(AssertionError):
        _check_project_schema(doc)


def test_pieces_connectors_anchors_and_zones():
    """GEO-10 prisms, GEO-24 connectors, named anchors (points and areas) and deployment zones."""
    bf = load_map(EVERY)
    woods = next(p for p in bf.pieces if p.area is Area.WOODS)
    assert len(woods.footprint) == ELLIPSE_SEGMENTS and woods.top_z == 4.0 and woods.movement is Movement.DIFFICULT
    assert shapely.Polygon(woods.footprint).area == pytest.approx(math.pi * 3 * 2.5, rel=0.01)
    stairs = next(c for c in bf.connectors if c.kind is ConnectorKind.STAIRS)
    assert stairs.start[2] == 0.0 and stairs.end[2] == 3.25
    ladder = next(c for c in bf.connectors if c.kind is ConnectorKind.LADDER)
    assert ladder.start == (19.5, 4.0, 0.0) and ladder.end == (18.5, 4.0, 3.25)
    assert bf.anchor("btr").point == (13.8, 13.0) and bf.anchor("btr").z == 1.5
    assert bf.anchor("structure-1").footprint is not None and bf.anchor("structure-1").point == (6.0, 5.5)
    assert {z.name for z in bf.zones} == {"deploy-a", "deploy-b"}
    walls = [p for p in bf.pieces if p.building == "house-1" and p.kind == "wall"]
    assert walls and all(p.cover is Cover.HARD and p.blocks_los for p in walls)
    lintel = next(p for p in bf.pieces if p.kind == "lintel")
    assert lintel.bottom_z == 2.0 and lintel.top_z == 3.0
    assert bf.cache["strtree"] is not None and len(bf.cache["footprints"]) == len(bf.pieces)


def test_class_defaults_are_merged_when_tiled_omits_them(tmp_path):
    """Tiled does not save members equal to their defaults: the loader merges the class defaults."""
    p = _write(tmp_path, f'<objectgroup id="1" name="t"><object id="1" name="crate" type="Terrain" x="32" y="32" '
               f'width="32" height="32">{TOP1}</object></objectgroup>\n')
    piece = load_map(p).pieces[0]
    assert (piece.bottom_z, piece.cover, piece.movement, piece.area, piece.blocks_los) == (
        0.0, Cover.NONE, Movement.OPEN, Area.NONE, False)


def test_class_attribute_of_tiled_1_9_is_read(tmp_path):
    p = _write(tmp_path, f'<objectgroup id="1" name="t"><object id="1" name="c" class="Terrain" x="32" y="32" '
               f'width="32" height="32">{TOP1}</object></objectgroup>\n')
    assert load_map(p).pieces[0].name == "c"


def test_rectangle_rotation_is_clockwise_about_the_object_origin(tmp_path):
    """Tiled rotates clockwise on screen (y down, GEO-1) about the object's x, y."""
    p = _write(tmp_path, f'<objectgroup id="1" name="t"><object id="1" name="r" type="Terrain" x="64" y="64" '
               f'width="64" height="32" rotation="90">{TOP1}</object></objectgroup>\n')
    fp = load_map(p).pieces[0].footprint
    assert {(round(x, 6), round(y, 6)) for x, y in fp} == {(2.0, 2.0), (2.0, 4.0), (1.0, 4.0), (1.0, 2.0)}


def test_polygon_points_are_rotated_and_ellipse_and_point_tags_are_read(tmp_path):
    p = _write(tmp_path, '<objectgroup id="1" name="t">'
               f'<object id="1" name="tri" type="Terrain" x="64" y="64" rotation="180">{TOP1}'
               '<polygon points="0,0 64,0 0,32"/></object>'
               f'<object id="2" name="blob" type="Terrain" x="0" y="0" width="64" height="64">{TOP1}<ellipse/></object>'
               '<object id="3" name="spot" type="Anchor" x="96" y="96"><point/></object>'
               '<object id="4" name="note" x="10" y="10" width="50" height="20"><text>hello</text></object>'
               '</objectgroup>\n')
    bf = load_map(p)
    tri = {(round(x, 6), round(y, 6)) for x, y in bf.piece(1).footprint}
    assert tri == {(2.0, 2.0), (0.0, 2.0), (2.0, 1.0)}
    assert len(bf.piece(2).footprint) == ELLIPSE_SEGMENTS
    assert bf.anchor("spot").point == (3.0, 3.0) and bf.anchor("spot").footprint is None
    assert len(bf.pieces) == 2  # the text annotation has no class and no rules meaning


def test_layer_document_order_groups_offsets_and_skipped_tile_layers(tmp_path):
    """Pieces follow the XML draw order (pytmx groups layers by kind); layer offsets are applied; tile
    layers are art and never decoded."""
    p = _write(tmp_path, '<layer id="9" name="ground" width="12" height="12"><data encoding="csv">'
               + ",".join(["0"] * 144) + '</data></layer>'
               f'<objectgroup id="1" name="first"><object id="5" name="a" type="Terrain" x="0" y="0" width="32" '
               f'height="32">{TOP1}</object></objectgroup>'
               '<group id="2" name="g" offsetx="16.5" offsety="32">'
               f'<objectgroup id="3" name="inner"><object id="2" name="b" type="Terrain" x="0" y="0" width="32" '
               f'height="32">{TOP1}</object></objectgroup></group>'
               f'<objectgroup id="4" name="last"><object id="1" name="c" type="Terrain" x="64" y="0" width="32" '
               f'height="32">{TOP1}</object></objectgroup>\n')
    bf = load_map(p)
    assert [q.name for q in bf.pieces] == ["a", "b", "c"]
    assert bf.piece(2).footprint[0] == (16.5 / 32, 1.0)


def test_templates_are_resolved(tmp_path):
    (tmp_path / "crate.tx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<template><object name="crate" type="Terrain" width="32" '
        'height="64"><properties><property name="top_in" type="float" value="1.5"/>'
        '<property name="cover" propertytype="Cover" value="soft"/></properties><ellipse/></object></template>\n')
    p = _write(tmp_path, '<objectgroup id="1" name="t"><object id="1" template="crate.tx" x="32" y="32">'
               '<properties><property name="cover" propertytype="Cover" value="hard"/></properties>'
               '</object></objectgroup>\n')
    piece = load_map(p).pieces[0]
    assert piece.name == "crate" and piece.top_z == 1.5 and piece.cover is Cover.HARD
    assert len(piece.footprint) == ELLIPSE_SEGMENTS


def test_external_tileset_is_inlined_and_tile_objects_anchor_bottom_left(tmp_path):
    (tmp_path / "ts.tsx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<tileset name="ts" tilewidth="32" tileheight="32" tilecount="1" '
        'columns="1"><image source="ts.png" width="32" height="32"/></tileset>\n')
    p = _write(tmp_path, '<tileset firstgid="1" source="ts.tsx"/>'
               f'<objectgroup id="1" name="t"><object id="1" name="drum" type="Terrain" gid="1" x="64" y="96" '
               f'width="32" height="32">{TOP1}</object></objectgroup>\n')
    fp = load_map(p).pieces[0].footprint
    assert {(round(x, 6), round(y, 6)) for x, y in fp} == {(2.0, 2.0), (3.0, 2.0), (3.0, 3.0), (2.0, 3.0)}


def test_map_error_names_file_object_problem_and_fix(tmp_path):
    p = _write(tmp_path, '<objectgroup id="1" name="t"><object id="7" name="crate" type="Terrain" x="0" y="0" '
               'width="32" height="32"><properties><property name="cover" propertytype="Cover" value="heavy"/>'
               '</properties></object></objectgroup>\n')
    with pytest.raises(MapError) as err:
        load_map(p)
    text = str(err.value)
    assert str(p) in text and "#7 'crate'" in text and "heavy" in text and "fix:" in text
    assert {q.code for q in err.value.problems} == {"bad-enum", "missing-height"}


def test_tile_size_must_equal_pixels_per_inch(tmp_path):
    p = tmp_path / "m.tmx"
    p.write_text(HEAD.replace('tilewidth="32" tileheight="32"', 'tilewidth="16" tileheight="16"') + "</map>\n")
    with pytest.raises(MapError, match="pixels_per_inch"):
        load_map(p)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(x=st.floats(1, 10), y=st.floats(1, 10), w=st.floats(0.5, 6), h=st.floats(0.5, 6), rot=st.floats(-180, 180))
def test_rotated_rectangles_keep_origin_and_area(tmp_path_factory, x, y, w, h, rot):
    """Any rotated rectangle keeps its origin corner and its area (GEO-1 clockwise rotation)."""
    m = TmxMap(20, 20, ppi=32)
    m.terrain("t", "barricade", "r", x, y, w, h, top=1.0, rotation=rot)
    path = m.write(tmp_path_factory.mktemp("rot") / "r.tmx")
    fp = load_map(path).pieces[0].footprint
    assert shapely.Polygon(fp).area == pytest.approx(w * h, rel=1e-3, abs=1e-3)
    assert min(math.dist(p, (x, y)) for p in fp) < 1e-3


def test_loader_runs_without_pygame_or_a_display():
    """The loader needs no display and works even when pygame cannot be imported."""
    code = ("import sys; sys.modules['pygame'] = None\n"
            "from game.maps.loader import load_map\n"
            f"bf = load_map({str(EVERY)!r}); print(len(bf.pieces))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.strip()) == len(load_map(EVERY).pieces)


def test_only_game_maps_imports_pytmx():
    users = [p.relative_to(ROOT).as_posix() for p in (ROOT / "game").rglob("*.py")
             if "import pytmx" in p.read_text(encoding="utf-8")]
    assert users == ["game/maps/loader.py"]


def test_schema_member_types_are_closed():
    assert {m.type for c in CLASSES for m in c.members} <= set(MemberType)
