"""The only pytmx user: a Tiled .tmx file -> an immutable Battlefield in inches (GEO-1, GEO-7, GEO-10)."""
from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

import game.maps.safexml as mapxml
from game.core.battlefield import (
    Anchor,
    Area,
    Battlefield,
    Connector,
    ConnectorKind,
    Cover,
    Movement,
    Point2,
    TerrainPiece,
    Zone,
)
from game.maps.safexml import RawObject, XmlFault
from game.maps.schema import (
    ELLIPSE_SEGMENTS,
    MAX_TABLE_IN,
    UNSET_HEIGHT,
    ClassType,
    Member,
    MemberType,
    class_type,
    enum_type,
    object_class_names,
    property_types,
)

if TYPE_CHECKING:
    from game.core.settings import Settings

AREA_CLASSES = ("Terrain", "DeploymentZone", "Anchor")
MAP_PATH_FIX = "give the path of a readable Tiled .tmx file (e.g. maps/sandbox.tmx)"
UNREADABLE = "unreadable"  # the problem code of a path that names no readable file (missing, a directory, ...)
CONNECTOR_CLASSES = {"Stairs": ConnectorKind.STAIRS, "Ladder": ConnectorKind.LADDER}


@dataclass(frozen=True, slots=True)
class MapProblem:
    """One problem in a map: the file, the object (id 0 = the map or a layer), what is wrong, how to fix it."""

    file: str
    object_id: int
    object_name: str
    code: str
    what: str
    fix: str

    def __str__(self) -> str:
        where = f"object #{self.object_id} {self.object_name!r}" if self.object_id else (
            f"layer {self.object_name!r}" if self.object_name else "map")
        return f"{self.file}: {where}: {self.what} [{self.code}]; fix: {self.fix}"


class MapError(ValueError):
    """A map that cannot be loaded: every problem found, each naming the file, the object, what and how to fix."""

    def __init__(self, problems: list[MapProblem] | tuple[MapProblem, ...]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def summary(self) -> str:
        """One line: the first problem, and how many more there are (`zona-alfa check-map FILE` lists them all)."""
        if not self.problems:
            return "the map cannot be loaded"
        more = len(self.problems) - 1
        tail = f" (and {more} more: run `zona-alfa check-map {self.problems[0].file}`)" if more else ""
        return f"{self.problems[0]}{tail}"


@dataclass(frozen=True, slots=True)
class MapObject:
    """One map object in inches: class, shape, points (rotated, absolute) and schema-typed properties."""

    id: int
    name: str
    cls: str
    shape: str
    layer: str
    points: tuple[Point2, ...]
    props: Mapping[str, Any]
    ok: bool  # False when the object has a problem that keeps it out of the Battlefield


@dataclass(frozen=True, slots=True)
class ParsedMap:
    """A map read and checked object by object; `problems` lists everything wrong so far."""

    file: str
    name: str
    width: float
    height: float
    pixels_per_inch: float
    sha256: str
    objects: tuple[MapObject, ...]
    problems: tuple[MapProblem, ...]
    polygons: Mapping[int, Any] = field(default_factory=dict)  # object id -> shapely Polygon (area objects)


def _fatal(file: str, what: str, fix: str, code: str = "file") -> MapError:
    return MapError([MapProblem(file, 0, "", code, what, fix)])


def _map_header(root: Any, file: str) -> tuple[int, int, int, int]:
    if root.tag != "map":
        raise _fatal(file, f"the root element is <{root.tag}>, not <map>", "open a Tiled .tmx map file")
    if root.get("infinite", "0") == "1":
        raise _fatal(file, "the map is infinite", "uncheck Map > Map Properties > Infinite in Tiled and resize the map")
    if root.get("orientation", "orthogonal") != "orthogonal":
        raise _fatal(file, f"orientation is {root.get('orientation')!r}",
                     "make an orthogonal map (one tile = one inch)")
    try:
        dims = tuple(int(root.get(k, "0")) for k in ("width", "height", "tilewidth", "tileheight"))
    except ValueError:
        raise _fatal(file, "map width/height/tilewidth/tileheight are not integers",
                     "re-save the map from Tiled") from None
    if min(dims) <= 0:
        raise _fatal(file, f"map size {dims[0]}x{dims[1]} tiles of {dims[2]}x{dims[3]} px is empty",
                     "give the map a positive size")
    return dims  # type: ignore[return-value]


def _coerce(member: Member, value: Any) -> tuple[Any, str | None]:
    """Cast a property value to the member's type; (value, None) or (None, reason)."""
    t = member.type
    if t is MemberType.FLOAT:
        if isinstance(value, bool):
            return None, f"is {value!r}, expected a number"
        try:
            v = float(value)
        except (TypeError, ValueError):
            return None, f"is {value!r}, expected a number"
        return (v, None) if math.isfinite(v) else (None, f"is {value!r}, expected a finite number")
    if t is MemberType.BOOL:
        if isinstance(value, bool):
            return value, None
        s = str(value).strip().lower()
        if s in ("true", "1", "false", "0"):
            return s in ("true", "1"), None
        return None, f"is {value!r}, expected true or false"
    if t is MemberType.ENUM:
        values = enum_type(member.enum).values
        if str(value) in values:
            return str(value), None
        return None, f"is {value!r}, not one of the {member.enum} values {list(values)}"
    return ("" if value is None else str(value)), None


def _typed_props(raw: Mapping[str, Any], ct: ClassType, note: Callable[[str, str, str], None]) -> dict[str, Any]:
    """Class defaults merged with the object's own properties (Tiled omits values equal to the defaults)."""
    props = ct.defaults
    for key, value in raw.items():
        member = ct.member(key)
        if member is None:
            note("unknown-property", f"property {key!r} is not a member of class {ct.name}",
                 f"remove it or use one of {[m.name for m in ct.members]}")
            continue
        v, why = _coerce(member, value)
        if why:
            note("bad-enum" if member.type is MemberType.ENUM else "bad-value", f"property {key!r} {why}",
                 f"set {key} in Tiled's Properties panel (maps/README.md)")
        else:
            props[key] = v
    return props


def _rotate_px(pts: np.ndarray, ox: float, oy: float, rotation: float) -> np.ndarray:
    """Rotate points clockwise on screen (y down) by `rotation` degrees about (ox, oy), as Tiled does."""
    if rotation == 0.0:
        return pts
    a = math.radians(rotation)
    c, s = math.cos(a), math.sin(a)
    d = pts - (ox, oy)
    return np.column_stack((d[:, 0] * c - d[:, 1] * s + ox, d[:, 0] * s + d[:, 1] * c + oy))


def _shape_points(shape: str, o: Any, el: Any) -> np.ndarray:
    """The object's outline in map pixels, before rotation (pytmx polygon points are absolute)."""
    x, y, w, h = float(o.x), float(o.y), float(o.width), float(o.height)
    if shape in ("polygon", "polyline"):
        return np.asarray(o.points, dtype=float).reshape(-1, 2)
    if shape == "point":
        return np.array([[x, y]])
    if shape == "ellipse":
        t = np.linspace(0.0, 2.0 * math.pi, ELLIPSE_SEGMENTS, endpoint=False)
        return np.column_stack((x + w / 2 + w / 2 * np.cos(t), y + h / 2 + h / 2 * np.sin(t)))
    if shape == "tile":  # Tiled anchors tile objects at their bottom-left corner
        by = float(el.get("y", "0"))
        return np.array([[x, by], [x + w, by], [x + w, by - h], [x, by - h]])
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


def _clean_ring(pts: np.ndarray) -> np.ndarray:
    """Drop repeated vertices and a closing vertex; orient with positive shoelace area in (x, y)."""
    if len(pts) > 1:
        keep = np.ones(len(pts), dtype=bool)
        keep[1:] = np.any(np.abs(np.diff(pts, axis=0)) > 1e-9, axis=1)
        pts = pts[keep]
    if len(pts) > 1 and np.all(np.abs(pts[0] - pts[-1]) <= 1e-9):
        pts = pts[:-1]
    if len(pts) >= 3:
        x, y = pts[:, 0], pts[:, 1]
        twice_area = float(x[:-1] @ y[1:] - x[1:] @ y[:-1]) + float(x[-1] * y[0] - x[0] * y[-1])
        if twice_area < 0:
            pts = pts[::-1]
    return pts


def _object_geometry(raw: RawObject, o: Any, ppi: float) -> np.ndarray:
    pts = _shape_points(raw.shape, o, raw.element)
    origin_y = float(raw.element.get("y", "0")) if raw.shape == "tile" else float(o.y)
    pts = _rotate_px(pts, float(o.x), origin_y, float(o.rotation or 0.0))
    return np.round((pts + raw.offset) / ppi, 9)  # drops float noise such as 13.799999999999999


def _check_shape(ct: ClassType, raw: RawObject, pts: np.ndarray, note: Callable[[str, str, str], None]) -> bool:
    if raw.shape not in ct.shapes:
        if raw.shape == "polyline" and ct.name in AREA_CLASSES:
            note("open-polygon", f"a {ct.name} is an open polyline",
                 "draw it as a closed polygon, rectangle or ellipse (polylines are only for Stairs and Ladder)")
        else:
            note("bad-shape", f"a {ct.name} cannot be a {raw.shape}", f"draw it as one of {list(ct.shapes)}")
        return False
    if not np.all(np.isfinite(pts)):
        note("not-finite", "its coordinates are not finite numbers (NaN or infinity)", "move the object in Tiled")
        return False
    if raw.shape == "polyline" and len(pts) != 2:
        note("bad-connector", f"a {ct.name} polyline has {len(pts)} points, not 2",
             "draw it as a 2-point polyline from the low end to the high end")
        return False
    return True


def _check_heights(ct: ClassType, props: dict[str, Any], note: Callable[[str, str, str], None]) -> bool:
    if ct.name == "Terrain":
        lo, hi, names = props["bottom_in"], props["top_in"], ("bottom_in", "top_in")
    elif ct.name in CONNECTOR_CLASSES:
        lo, hi, names = props["from_in"], props["to_in"], ("from_in", "to_in")
    else:
        return True
    ok = True
    for name, v in zip(names, (lo, hi), strict=False):
        if v <= UNSET_HEIGHT + 1e-9 or v < 0:
            note("missing-height", f"{name} is not set ({v:g})", f"give {name} in inches (>= 0)")
            ok = False
    if ok and hi < lo:
        note("inverted-height", f"{names[1]} {hi:g} is below {names[0]} {lo:g}", f"swap them: {names[1]} is the top")
        ok = False
    if ok and ct.name in CONNECTOR_CLASSES and hi <= lo:
        note("stairs-nothing", f"{names[0]} and {names[1]} are both {lo:g}: it joins no levels",
             "set from_in to the low floor and to_in to the high floor")
        ok = False
    if ok and ct.name == "Terrain" and hi == lo and (props["blocks_los"] or props["movement"] == "impassable"):
        note("zero-height", "a flat piece (top_in = bottom_in) cannot block LOS or be impassable",
             "give it a height or clear blocks_los/impassable")
        ok = False
    return ok


class _Reader:
    """Collects problems while turning pytmx objects into MapObjects."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[MapProblem] = []

    def note(self, oid: int, name: str, code: str, what: str, fix: str) -> None:
        self.problems.append(MapProblem(self.file, oid, name, code, what, fix))

    def object(self, raw: RawObject, o: Any, ppi: float) -> MapObject | None:
        def note(code: str, what: str, fix: str) -> None:
            self.note(raw.id, raw.name, code, what, fix)

        for name in raw.reserved:
            note("reserved-name", f"property {name!r} is a reserved name", f"rename it to {name}_in or similar")
        for name, ptype, value in raw.bad_values:
            note("bad-value" if ptype not in ("attribute", "points") else "not-finite",
                 f"{name} = {value!r} is not a valid {ptype}", "fix the value in Tiled")
        if not raw.cls:
            if raw.shape == "text":
                return None  # an annotation: no rules meaning
            note("unknown-class", "the object has no class",
                 f"set its Class to one of {list(object_class_names())} (maps/README.md)")
            return None
        ct = class_type(raw.cls)
        if ct is None or "object" not in ct.use_as:
            note("unknown-class", f"unknown class {raw.cls!r}", f"use one of {list(object_class_names())}")
            return None
        props = _typed_props(dict(o.properties), ct, note)
        ok = not raw.bad_values and not raw.reserved
        pts = _object_geometry(raw, o, ppi)
        ok = _check_shape(ct, raw, pts, note) and ok
        ok = _check_heights(ct, props, note) and ok
        if ct.name in ("Anchor", "DeploymentZone") and not raw.name.strip():
            note("no-name", f"a {ct.name} has no name", "name it: scenarios refer to it by name")
            ok = False
        if ok and raw.shape in ("rectangle", "ellipse", "polygon", "tile"):
            pts = _clean_ring(pts)
        points = tuple((float(x), float(y)) for x, y in pts)
        return MapObject(raw.id, raw.name, ct.name, raw.shape, raw.layer, points, MappingProxyType(props), ok)


def _map_properties(root: Any, reader: _Reader) -> dict[str, Any]:
    reserved, bad = mapxml.strip_map_reserved(root)
    for name in reserved:
        reader.note(0, "", "reserved-name", f"map property {name!r} is a reserved name", f"rename it (e.g. {name}_in)")
    for name, ptype, value in bad:
        reader.note(0, "", "bad-value", f"map property {name!r} = {value!r} is not a valid {ptype}", "fix the value")
    cls = root.get("class") or root.get("type") or "Battlefield"
    if cls != "Battlefield":
        reader.note(0, "", "unknown-class", f"the map's class is {cls!r}",
                    "set Map > Map Properties > Class to Battlefield")
    ct = class_type("Battlefield")
    assert ct is not None
    raw = {k: v[2] for k, v in mapxml.raw_properties(root).items()}
    return _typed_props(raw, ct, lambda code, what, fix: reader.note(0, "", code, f"map {what}", fix))


def _validate_polygons(objects: list[MapObject], reader: _Reader) -> tuple[list[MapObject], dict[int, Any]]:
    """Vectorised validity check of every area footprint: closed, simple, non-zero area (shapely)."""
    idx = [i for i, m in enumerate(objects) if m.ok and m.shape in ("rectangle", "ellipse", "polygon", "tile")]
    polys: dict[int, Any] = {}
    short = [i for i in idx if len(objects[i].points) < 3]
    for i in short:
        m = objects[i]
        reader.note(m.id, m.name, "zero-area", f"the footprint has {len(m.points)} distinct points",
                    "draw at least 3 corners")
        objects[i] = _replace_ok(m)
    idx = [i for i in idx if len(objects[i].points) >= 3]
    geoms = np.array([shapely.Polygon(objects[i].points) for i in idx], dtype=object)
    if len(idx):
        valid = shapely.is_valid(geoms)
        areas = shapely.area(geoms)
        for k, i in enumerate(idx):
            m = objects[i]
            if not valid[k] and shapely.area(shapely.make_valid(geoms[k])) > 1e-6:
                reader.note(m.id, m.name, "self-intersecting",
                            f"the footprint is not a simple polygon ({shapely.is_valid_reason(geoms[k])})",
                            "move the vertices so no edges cross, or split it into several objects")
                objects[i] = _replace_ok(m)
            elif not valid[k] or areas[k] <= 1e-6:
                reader.note(m.id, m.name, "zero-area", f"the footprint has zero area ({areas[k]:.2g} sq in)",
                            "give it a width and depth, or delete it")
                objects[i] = _replace_ok(m)
            else:
                polys[m.id] = geoms[k]
    return objects, polys


def _replace_ok(m: MapObject) -> MapObject:
    return MapObject(m.id, m.name, m.cls, m.shape, m.layer, m.points, m.props, False)


def _run_pytmx(root: Any, path: Path) -> list[Any]:
    """pytmx reads the pre-cleaned tree (templates resolved, tilesets inlined, reserved names removed)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pytmx  # the only pytmx import in the project

    tm = pytmx.TiledMap()  # resets pytmx's class-wide allow_duplicate_names flag
    tm.filename = str(path)
    tm.parse_json(property_types())  # only the propertyTypes list (passing the project file crashes pytmx)
    tm.parse_xml(root)
    return [layer for layer in tm.layers if isinstance(layer, pytmx.TiledObjectGroup)]


def read_map(path: str | os.PathLike[str]) -> ParsedMap:
    """Read a .tmx safely and check every object; file-level faults raise MapError, object problems are listed."""
    p = Path(path)
    file = str(path)
    try:
        data = mapxml.read_file(p, "map file", fix=MAP_PATH_FIX)
    except XmlFault as fault:  # the path names no readable file: a bad argument rather than a bad map
        raise _fatal(file, fault.what, fault.fix, UNREADABLE) from None
    try:
        root = mapxml.parse_bytes(data, "the map")
        w, h, tw, th = _map_header(root, file)
        reader = _Reader(file)
        props = _map_properties(root, reader)
        mapxml.inline_tilesets(root, p.parent)
        raws = mapxml.collect_objects(root, p.parent, reader.note)
        mapxml.clean_layer_attributes(root)
    except XmlFault as fault:
        raise _fatal(file, fault.what, fault.fix) from None
    ppi = props["pixels_per_inch"]
    if not (ppi > 0 and tw == th == ppi):
        raise _fatal(file, f"tiles are {tw}x{th} px but pixels_per_inch is {ppi:g}",
                     "make the tile size equal pixels_per_inch (one tile = one inch)", "pixels-per-inch")
    width, height = w * tw / ppi, h * th / ppi
    if max(width, height) > MAX_TABLE_IN:
        raise _fatal(file, f"the table is {width:g}x{height:g} in", f"maps are at most {MAX_TABLE_IN:g} in a side")
    try:
        groups = _run_pytmx(root, p)
    except Exception as exc:  # pytmx raises bare Exception/ValueError/KeyError on what it cannot read
        raise _fatal(file, f"pytmx could not read the map: {type(exc).__name__}: {exc}",
                     "re-save it from Tiled") from None
    tmx_objects = [o for g in groups for o in g]
    if len(tmx_objects) != len(raws):
        raise _fatal(file, "object layers could not be matched", "re-save the map from Tiled")
    objects = [m for m in (reader.object(r, o, ppi) for r, o in zip(raws, tmx_objects, strict=False)) if m is not None]
    objects, polys = _validate_polygons(objects, reader)
    name = props["title"] or p.stem
    sha = hashlib.sha256(data).hexdigest()
    return ParsedMap(file, name, width, height, ppi, sha, tuple(objects), tuple(reader.problems), polys)


def _piece(m: MapObject) -> TerrainPiece:
    q = m.props
    return TerrainPiece(
        id=m.id, name=m.name, footprint=m.points, bottom_z=q["bottom_in"], top_z=q["top_in"],
        blocks_los=q["blocks_los"], cover=Cover(q["cover"]), movement=Movement(q["movement"]), area=Area(q["area"]),
        platform=q["platform"], surface=q["surface"], climbable=q["climbable"], kind=q["kind"], building=q["building"],
    )


def build_battlefield(parsed: ParsedMap) -> Battlefield:
    """The Battlefield of a parsed map (objects with problems are left out); layer document order is kept."""
    pieces: list[TerrainPiece] = []
    connectors: list[Connector] = []
    anchors: list[Anchor] = []
    zones: list[Zone] = []
    for m in parsed.objects:
        if not m.ok:
            continue
        if m.cls == "Terrain":
            pieces.append(_piece(m))
        elif m.cls in CONNECTOR_CLASSES:
            (x0, y0), (x1, y1) = m.points
            connectors.append(Connector(m.id, m.name, CONNECTOR_CLASSES[m.cls], (x0, y0, m.props["from_in"]),
                                        (x1, y1, m.props["to_in"]), m.props["width_in"]))
        elif m.cls == "DeploymentZone":
            zones.append(Zone(m.id, m.name, m.points, "deployment"))
        elif m.cls == "Anchor":
            if m.shape == "point":
                anchors.append(Anchor(m.id, m.name, m.points[0], m.props["z_in"], None, m.props["kind"]))
            else:
                c = parsed.polygons[m.id].centroid
                anchors.append(Anchor(m.id, m.name, (c.x, c.y), m.props["z_in"], m.points, m.props["kind"]))
    bf = Battlefield(parsed.name, parsed.width, parsed.height, tuple(pieces), tuple(connectors), tuple(anchors),
                     tuple(zones), source=parsed.file, sha256=parsed.sha256)
    footprints = tuple(parsed.polygons[p.id] for p in bf.pieces)
    bf.cache["footprints"] = footprints
    bf.cache["strtree"] = shapely.STRtree(footprints)
    return bf


def load_map(path: str | os.PathLike[str], *, settings: Settings | None = None) -> Battlefield:
    """Load a Tiled map as an immutable Battlefield in inches (GEO-1); MapError lists every problem found.

    `bf.cache["footprints"]` holds the shapely polygon of each piece (same order as `bf.pieces`) and
    `bf.cache["strtree"]` an STRtree over them. The loader reads no house setting: `settings` is accepted
    so every map consumer has the same signature. Cross-object checks live in `zona-alfa check-map`.
    """
    parsed = read_map(path)
    if parsed.problems:
        raise MapError(parsed.problems)
    return build_battlefield(parsed)


def footprint_polygons(bf: Battlefield) -> tuple[Any, ...]:
    """The shapely footprint of every piece of `bf` (cached in bf.cache["footprints"])."""
    if "footprints" not in bf.cache:
        bf.cache["footprints"] = tuple(shapely.Polygon(p.footprint) for p in bf.pieces)
    polys: tuple[Any, ...] = bf.cache["footprints"]
    return polys
