"""Safe TMX pre-parsing for game.maps.loader: defused XML, templates, tilesets, shape tags, layer order (GEO-1)."""
from __future__ import annotations

import math
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as DET
from defusedxml.common import DefusedXmlException

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_GROUP_DEPTH = 32
SHAPE_TAGS = ("ellipse", "point", "polygon", "polyline", "text")
# Attributes pytmx sets on objects, layers and maps: a custom property with one of these names makes
# pytmx refuse the whole file (TECH-NOTES "pytmx traps").
RESERVED_OBJECT = frozenset({
    "id", "name", "type", "class", "x", "y", "width", "height", "rotation", "gid", "visible", "closed",
    "template", "points", "properties", "parent", "custom_types", "image",
    "apply_transformations", "as_points", "parse_xml",
})
RESERVED_LAYER = frozenset({
    "id", "name", "class", "color", "opacity", "visible", "offsetx", "offsety", "draworder", "parent",
    "custom_types", "properties", "tintcolor", "locked", "parallaxx", "parallaxy", "parse_xml",
})
RESERVED_MAP = frozenset({
    "version", "tiledversion", "orientation", "renderorder", "width", "height", "tilewidth", "tileheight",
    "hexsidelength", "staggeraxis", "staggerindex", "backgroundcolor", "background_color", "nextobjectid",
    "nextlayerid", "infinite", "class", "compressionlevel", "parallaxoriginx", "parallaxoriginy",
    "layers", "tilesets", "images", "filename", "properties", "custom_types", "objects",
    "layernames", "tile_properties", "gidmap", "imagemap", "tiledgidmap", "maxgid",
})


class XmlFault(Exception):
    """A file-level problem that stops loading: what is wrong and how to fix it."""

    def __init__(self, what: str, fix: str) -> None:
        super().__init__(what)
        self.what = what
        self.fix = fix


@dataclass(frozen=True, slots=True)
class RawObject:
    """What the XML says about one object that pytmx does not: shape tag, layer, offset, reserved names."""

    id: int
    name: str
    cls: str
    shape: str
    layer: str
    offset: tuple[float, float]
    reserved: tuple[str, ...]
    bad_values: tuple[tuple[str, str, str], ...]
    element: Element


def parse_bytes(data: bytes, what: str) -> Element:
    """Parse XML with entity expansion, external entities and external DTDs forbidden."""
    try:
        root: Element = DET.fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
        return root
    except DefusedXmlException as exc:
        raise XmlFault(
            f"{what} declares XML entities or external references ({type(exc).__name__}), which maps never need",
            "save the map again from Tiled, or remove the <!DOCTYPE>/<!ENTITY> declarations",
        ) from None
    except ParseError as exc:
        raise XmlFault(f"{what} is not well-formed XML ({exc})", "open and save it again in Tiled") from None


def read_file(path: Path, what: str, *, fix: str = "check the path (relative paths are relative to the map)") -> bytes:
    """The bytes of a regular file, refusing missing, unreadable, oversized and non-regular files (a directory,
    a device or a pipe would raise or block); every refusal is an XmlFault saying what and how to fix it."""
    try:
        st = path.stat()
    except OSError as exc:
        why = "does not exist" if isinstance(exc, FileNotFoundError) else f"cannot be read ({exc.strerror or exc})"
        raise XmlFault(f"{what} {path} {why}", fix) from None
    if stat.S_ISDIR(st.st_mode):
        raise XmlFault(f"{what} {path} is a directory, not a file", "give the path of a file inside it")
    if not stat.S_ISREG(st.st_mode):
        raise XmlFault(f"{what} {path} is not a regular file (a device, pipe or socket)", fix)
    if st.st_size > MAX_FILE_BYTES:
        raise XmlFault(f"{what} is {st.st_size} bytes (limit {MAX_FILE_BYTES})", "maps are small: remove embedded data")
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise XmlFault(f"{what} {path} cannot be read ({exc.strerror or exc})",
                       f"check the file's permissions; {fix}") from None
    if len(data) > MAX_FILE_BYTES:
        raise XmlFault(f"{what} is more than {MAX_FILE_BYTES} bytes", "maps are small: remove embedded data")
    return data


def _strip_reserved(el: Element, reserved: frozenset[str]) -> tuple[str, ...]:
    found: list[str] = []
    for props in el.findall("properties"):
        for p in list(props.findall("property")):
            if p.get("name", "") in reserved:
                found.append(p.get("name", ""))
                props.remove(p)
    return tuple(found)


def _bad_value(ptype: str | None, value: str) -> bool:
    if ptype in ("float", "int", "object"):
        try:
            v = float(value) if ptype == "float" else int(value or "0")
        except ValueError:
            return True
        return not math.isfinite(v)
    if ptype == "bool":
        return value.strip().lower() not in ("true", "false", "1", "0")
    return False


def _strip_bad_values(el: Element) -> tuple[tuple[str, str, str], ...]:
    """Remove typed properties whose value does not parse (pytmx would abort); return (name, type, value)."""
    found: list[tuple[str, str, str]] = []
    for props in el.findall("properties"):
        for p in list(props.findall("property")):
            written = p.get("value")
            value = written if written is not None else (p.text or "")
            if _bad_value(p.get("type"), value):
                found.append((p.get("name", ""), p.get("type", ""), value))
                props.remove(p)
    return tuple(found)


_OBJECT_ATTRS = (("x", "float"), ("y", "float"), ("width", "float"), ("height", "float"),
                 ("rotation", "float"), ("gid", "int"), ("visible", "bool"))


def _bad_geometry(obj: Element) -> tuple[tuple[str, str, str], ...]:
    """Unparsable or non-finite object attributes and points (replaced so pytmx can go on), as problems."""
    found: list[tuple[str, str, str]] = []
    for key, kind in _OBJECT_ATTRS:
        value = obj.get(key)
        if value is not None and _bad_value(kind, value):
            found.append((key, "attribute", value))
            obj.set(key, "0")
    for tag in ("polygon", "polyline"):
        child = obj.find(tag)
        if child is None:
            continue
        text = child.get("points", "")
        try:
            ok = all(len(xy.split(",")) == 2 and all(math.isfinite(float(c)) for c in xy.split(","))
                     for xy in text.split())
        except ValueError:
            ok = False
        if not ok or not text.strip():
            found.append(("points", "points", text[:60]))
            child.set("points", "0,0")
    return tuple(found)


def clean_layer_attributes(root: Element) -> None:
    """Drop layer attributes pytmx casts badly (fractional offsets are read as int); offsets are applied here."""
    for layer in root.iter():
        if layer.tag in ("group", "objectgroup"):
            for key in ("offsetx", "offsety", "opacity", "visible", "parallaxx", "parallaxy", "tintcolor"):
                layer.attrib.pop(key, None)


def _merge_template(obj: Element, template: Element) -> None:
    """Resolve a Tiled template in place: the instance's attributes and properties override the template's."""
    tobj = template.find("object")
    if tobj is None:
        raise XmlFault("template has no <object>", "re-save the template from Tiled")
    for k, v in tobj.attrib.items():
        obj.attrib.setdefault(k, v)
    obj.attrib.pop("template", None)
    for tag in SHAPE_TAGS:
        child = tobj.find(tag)
        if child is not None and obj.find(tag) is None:
            obj.append(child)
    tprops = tobj.find("properties")
    if tprops is not None:
        props = obj.find("properties")
        if props is None:
            props = Element("properties")
            obj.insert(0, props)
        have = {p.get("name") for p in props.findall("property")}
        for p in tprops.findall("property"):
            if p.get("name") not in have:
                props.append(p)


def _external(base: Path, source: str, what: str, cache: dict[str, Element]) -> Element:
    path = (base / source).resolve()
    key = str(path)
    if key not in cache:
        cache[key] = parse_bytes(read_file(path, what), f"{what} {source}")
    return cache[key]


def inline_tilesets(root: Element, base: Path) -> None:
    """Replace external tilesets by their content (parsed safely) and drop tile collision shapes."""
    cache: dict[str, Element] = {}
    for ts in root.findall("tileset"):
        source = ts.get("source")
        if source:
            ext = _external(base, source, "tileset file", cache)
            firstgid = ts.get("firstgid", "1")
            ts.attrib.clear()
            ts.attrib.update(ext.attrib)
            ts.set("firstgid", firstgid)
            for child in list(ext):
                ts.append(child)
        for tile in ts.findall("tile"):
            for og in tile.findall("objectgroup"):
                tile.remove(og)


def _float(el: Element, key: str, default: float = 0.0) -> float:
    raw = el.get(key)
    if raw is None:
        return default
    try:
        v = float(raw)
    except ValueError:
        raise XmlFault(f"<{el.tag} {el.get('name', '')}> attribute {key}={raw!r} is not a number",
                       "fix the value in a text editor or re-save from Tiled") from None
    if not math.isfinite(v):
        raise XmlFault(f"<{el.tag} {el.get('name', '')}> attribute {key}={raw!r} is not finite",
                       "give the layer a finite offset") from None
    return v


def collect_objects(
    root: Element, base: Path, note: Callable[[int, str, str, str, str], None]
) -> list[RawObject]:
    """Walk the layers in document (draw) order, resolve templates and strip reserved property names.

    Removes tile and image layers from the tree (art only: the rules loader never decodes them).
    `note(id, name, code, what, fix)` records a per-object problem.
    """
    templates: dict[str, Element] = {}
    out: list[RawObject] = []

    def walk(parent: Element, offset: tuple[float, float], depth: int = 0) -> None:
        if depth > MAX_GROUP_DEPTH:
            raise XmlFault(f"group layers are nested more than {MAX_GROUP_DEPTH} deep", "flatten the layer groups")
        for layer in list(parent):
            if layer.tag in ("layer", "imagelayer"):
                parent.remove(layer)
                continue
            if layer.tag not in ("group", "objectgroup"):
                continue
            off = (offset[0] + _float(layer, "offsetx"), offset[1] + _float(layer, "offsety"))
            for name in _strip_reserved(layer, RESERVED_LAYER):
                note(0, layer.get("name", ""), "reserved-name", f"layer property {name!r} is a reserved name",
                     f"rename it (e.g. {name}_in)")
            for name, ptype, value in _strip_bad_values(layer):
                note(0, layer.get("name", ""), "bad-value",
                     f"layer property {name!r} = {value!r} is not a valid {ptype}", "fix the value")
            if layer.tag == "group":
                walk(layer, off, depth + 1)
                continue
            for obj in layer.findall("object"):
                out.append(_raw_object(obj, layer.get("name", ""), off, base, templates))

    walk(root, (0.0, 0.0))
    return out


def _raw_object(obj: Element, layer: str, off: tuple[float, float], base: Path,
                templates: dict[str, Element]) -> RawObject:
    tpl = obj.get("template")
    if tpl:
        _merge_template(obj, _external(base, tpl, "template file", templates))
    reserved = _strip_reserved(obj, RESERVED_OBJECT)
    bad = _strip_bad_values(obj) + _bad_geometry(obj)
    shape = "rectangle"
    for tag in SHAPE_TAGS:
        if obj.find(tag) is not None:
            shape = tag
            break
    if shape == "rectangle" and obj.get("gid"):
        shape = "tile"
    try:
        oid = int(obj.get("id", "0"))
    except ValueError:
        raise XmlFault(f"object id {obj.get('id')!r} is not an integer", "re-save the map from Tiled") from None
    cls = obj.get("type") or obj.get("class") or ""
    return RawObject(oid, obj.get("name", ""), cls, shape, layer, off, reserved, bad, obj)


def strip_map_reserved(root: Element) -> tuple[tuple[str, ...], tuple[tuple[str, str, str], ...]]:
    """Remove map properties that pytmx would refuse: reserved names, unparsable typed values."""
    return _strip_reserved(root, RESERVED_MAP), _strip_bad_values(root)


def raw_properties(el: Element) -> dict[str, tuple[str | None, str | None, str]]:
    """name -> (type, propertytype, value) of an element's properties as written."""
    out: dict[str, tuple[str | None, str | None, str]] = {}
    for props in el.findall("properties"):
        for p in props.findall("property"):
            value = p.get("value")
            if value is None:
                value = p.text or ""
            out[p.get("name", "")] = (p.get("type"), p.get("propertytype"), value)
    return out
