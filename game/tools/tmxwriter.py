"""Write Zona Alfa Tiled maps from Python: typed objects in inches, terrain presets and a building recipe."""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any
from xml.sax.saxutils import quoteattr

from game.maps.schema import ClassType, MemberType, class_type, project_document

# Property sets of common terrain (GEO-10, GEO-12 cover defaults); heights are given per object.
PRESETS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "wall": {"kind": "wall", "blocks_los": True, "cover": "hard", "movement": "impassable"},
    "ruin-wall": {"kind": "wall", "blocks_los": True, "cover": "hard", "movement": "impassable", "climbable": True},
    "sill": {"kind": "sill", "blocks_los": True, "cover": "hard", "movement": "impassable"},
    "lintel": {"kind": "lintel", "blocks_los": True, "cover": "hard", "movement": "impassable"},
    "floor": {"kind": "floor", "blocks_los": True, "surface": True},
    "roof": {"kind": "roof", "blocks_los": True, "surface": True},
    "hedge": {"kind": "hedge", "blocks_los": True, "cover": "soft"},
    "fence": {"kind": "fence", "blocks_los": False, "cover": "soft"},
    "barricade": {"kind": "barricade", "blocks_los": True, "cover": "hard"},
    "sandbags": {"kind": "barricade", "blocks_los": True, "cover": "hardened"},
    "woods": {"kind": "woods", "area": "woods", "cover": "soft"},
    "rubble": {"kind": "rubble", "cover": "obstruction", "movement": "difficult"},
    "rocks": {"kind": "rocks", "blocks_los": True, "cover": "hard", "movement": "impassable", "climbable": True},
    "vehicle": {"kind": "vehicle", "blocks_los": True, "cover": "hard", "movement": "impassable", "climbable": True},
    "container": {"kind": "container", "blocks_los": True, "cover": "hard", "movement": "impassable",
                  "surface": True, "climbable": True},
    "platform": {"kind": "platform", "cover": "obstruction", "platform": True},
    "water": {"kind": "water", "movement": "difficult"},
})


def _num(v: float) -> str:
    """A pixel coordinate as Tiled writes it: up to 3 decimals, no trailing zeros."""
    s = f"{round(v, 3):.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


@dataclass(slots=True)
class TmxObject:
    """One object to write, in inches."""

    id: int
    name: str
    cls: str
    shape: str  # rectangle, ellipse, point, polygon, polyline
    x: float
    y: float
    w: float = 0.0
    h: float = 0.0
    rotation: float = 0.0
    points: tuple[tuple[float, float], ...] = ()
    props: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class TmxLayer:
    id: int
    name: str
    objects: list[TmxObject] = field(default_factory=list)


def _prop_xml(ct: ClassType | None, name: str, value: Any) -> str | None:
    """One <property>, or None when it equals the class default (Tiled omits those too)."""
    member = ct.member(name) if ct else None
    if member is not None and member.default == value and type(member.default) is type(value):
        return None
    n = quoteattr(name)
    if member is None:  # free properties are written as given (used by the broken-map corpus)
        if isinstance(value, bool):
            return f'<property name={n} type="bool" value="{str(value).lower()}"/>'
        if isinstance(value, float):
            return f'<property name={n} type="float" value={quoteattr(repr(value))}/>'
        return f"<property name={n} value={quoteattr(str(value))}/>"
    if member.type is MemberType.FLOAT:
        text = _num(float(value)) if isinstance(value, (int, float)) else str(value)
        return f'<property name={n} type="float" value={quoteattr(text)}/>'
    if member.type is MemberType.BOOL:
        return f'<property name={n} type="bool" value="{str(value).lower()}"/>'
    if member.type is MemberType.ENUM:
        return f"<property name={n} propertytype={quoteattr(member.enum)} value={quoteattr(str(value))}/>"
    return f"<property name={n} value={quoteattr(str(value))}/>"


class TmxMap:
    """A Tiled map under construction: orthogonal, one tile = one inch, object layers only."""

    def __init__(self, width_in: int, height_in: int, *, ppi: int = 32, title: str = "") -> None:
        self.width_in = width_in
        self.height_in = height_in
        self.ppi = ppi
        self.title = title
        self.layers: list[TmxLayer] = []
        self._next_id = 1

    def layer(self, name: str) -> TmxLayer:
        """The object layer with this name (created at the end of the draw order if new)."""
        for layer in self.layers:
            if layer.name == name:
                return layer
        layer = TmxLayer(len(self.layers) + 1, name)
        self.layers.append(layer)
        return layer

    def add(self, layer: str, cls: str, name: str, shape: str, x: float, y: float, **kw: Any) -> int:
        """Add an object; returns its id."""
        props = dict(kw.pop("props", {}))
        obj = TmxObject(self._next_id, name, cls, shape, x, y, props=props, **kw)
        self._next_id += 1
        self.layer(layer).objects.append(obj)
        return obj.id

    def rect(self, layer: str, cls: str, name: str, x: float, y: float, w: float, h: float, *,
             rotation: float = 0.0, **props: Any) -> int:
        return self.add(layer, cls, name, "rectangle", x, y, w=w, h=h, rotation=rotation, props=props)

    def ellipse(self, layer: str, cls: str, name: str, x: float, y: float, w: float, h: float, *,
                rotation: float = 0.0, **props: Any) -> int:
        return self.add(layer, cls, name, "ellipse", x, y, w=w, h=h, rotation=rotation, props=props)

    def polygon(self, layer: str, cls: str, name: str, points: list[tuple[float, float]], *,
                rotation: float = 0.0, **props: Any) -> int:
        x0, y0 = points[0]
        rel = tuple((px - x0, py - y0) for px, py in points)
        return self.add(layer, cls, name, "polygon", x0, y0, points=rel, rotation=rotation, props=props)

    def polyline(self, layer: str, cls: str, name: str, points: list[tuple[float, float]], **props: Any) -> int:
        x0, y0 = points[0]
        rel = tuple((px - x0, py - y0) for px, py in points)
        return self.add(layer, cls, name, "polyline", x0, y0, points=rel, props=props)

    def point(self, layer: str, cls: str, name: str, x: float, y: float, **props: Any) -> int:
        return self.add(layer, cls, name, "point", x, y, props=props)

    def terrain(self, layer: str, preset: str, name: str, x: float, y: float, w: float, h: float, *,
                top: float, bottom: float = 0.0, rotation: float = 0.0, **props: Any) -> int:
        """A rectangular Terrain piece with a preset's properties."""
        merged = {**PRESETS[preset], "bottom_in": bottom, "top_in": top, **props}
        return self.rect(layer, "Terrain", name, x, y, w, h, rotation=rotation, **merged)

    def object_count(self) -> int:
        return self._next_id - 1

    def _object_xml(self, o: TmxObject) -> str:
        s = self.ppi
        attrs = f'id="{o.id}"'
        if o.name:
            attrs += f" name={quoteattr(o.name)}"
        if o.cls:
            attrs += f" type={quoteattr(o.cls)}"
        attrs += f' x="{_num(o.x * s)}" y="{_num(o.y * s)}"'
        if o.shape in ("rectangle", "ellipse"):
            attrs += f' width="{_num(o.w * s)}" height="{_num(o.h * s)}"'
        if o.rotation:
            attrs += f' rotation="{_num(o.rotation)}"'
        ct = class_type(o.cls)
        props = [p for p in (_prop_xml(ct, k, v) for k, v in o.props.items()) if p]
        body = ""
        if props:
            body += "\n   <properties>\n" + "".join(f"    {p}\n" for p in props) + "   </properties>"
        if o.shape == "ellipse":
            body += "\n   <ellipse/>"
        elif o.shape == "point":
            body += "\n   <point/>"
        elif o.shape in ("polygon", "polyline"):
            pts = " ".join(f"{_num(px * s)},{_num(py * s)}" for px, py in o.points)
            body += f'\n   <{o.shape} points="{pts}"/>'
        return f"  <object {attrs}>{body}\n  </object>\n" if body else f"  <object {attrs}/>\n"

    def to_xml(self) -> str:
        """The .tmx text (Tiled 1.10 layout, object types written as `type`)."""
        n_layers = len(self.layers)
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<map version="1.10" tiledversion="1.10.2" class="Battlefield" orientation="orthogonal" '
            f'renderorder="right-down" width="{self.width_in}" height="{self.height_in}" tilewidth="{self.ppi}" '
            f'tileheight="{self.ppi}" infinite="0" nextlayerid="{n_layers + 1}" nextobjectid="{self._next_id}">\n'
        )
        ct = class_type("Battlefield")
        mprops = [p for p in (_prop_xml(ct, "pixels_per_inch", float(self.ppi)),
                              _prop_xml(ct, "title", self.title)) if p]
        if mprops:
            head += " <properties>\n" + "".join(f"  {p}\n" for p in mprops) + " </properties>\n"
        body = ""
        for layer in self.layers:
            body += f' <objectgroup id="{layer.id}" name={quoteattr(layer.name)}>\n'
            body += "".join(self._object_xml(o) for o in layer.objects)
            body += " </objectgroup>\n"
        return head + body + "</map>\n"

    def write(self, path: str | Path) -> Path:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(self.to_xml(), encoding="utf-8")
        return p


def write_project(path: str | Path) -> Path:
    """Write the `.tiled-project` with the format's propertyTypes (game.maps.schema)."""
    p = Path(path)
    p.write_text(json.dumps(project_document(), indent=4) + "\n", encoding="utf-8")
    return p


@dataclass(frozen=True, slots=True)
class Opening:
    """A door or window in a building side: side n/s/e/w, start offset from the building's corner, width."""

    side: str
    at: float
    width: float
    storey: int = 0
    window: bool = False


@dataclass(frozen=True, slots=True)
class Building:
    """The maps/README.md building recipe: walls with openings, floor slabs, a roof, stairs or a ladder."""

    name: str
    x: float
    y: float
    w: float
    h: float
    storeys: int = 1
    openings: tuple[Opening, ...] = ()
    access: str = "none"  # "ladder": an outside ladder to the roof (storeys are always joined by stairs)
    roof: bool = True
    wall_in: float = 0.25
    storey_in: float = 3.0
    slab_in: float = 0.25
    sill_in: float = 1.0  # window sill height above the storey's floor
    lintel_in: float = 2.0  # bottom of window and door lintels above the storey's floor
    stair_run_in: float = 3.0  # length of the stairwell between storeys
    ruin: bool = False  # climbable walls
    anchor: str = ""  # name of an area Anchor over the footprint ("" for none)

    def floor_z(self, storey: int) -> float:
        return storey * (self.storey_in + self.slab_in)


def _side_span(b: Building, side: str) -> tuple[float, float]:
    """Start and end of a side along its axis (north/south walls run the full width, east/west between them)."""
    t = b.wall_in
    return (b.x, b.x + b.w) if side in "ns" else (b.y + t, b.y + b.h - t)


def _side_rect(b: Building, side: str, a0: float, a1: float) -> tuple[float, float, float, float]:
    t = b.wall_in
    if side == "n":
        return a0, b.y, a1 - a0, t
    if side == "s":
        return a0, b.y + b.h - t, a1 - a0, t
    if side == "w":
        return b.x, a0, t, a1 - a0
    return b.x + b.w - t, a0, t, a1 - a0


def _wall_segments(b: Building, side: str, storey: int) -> tuple[list[tuple[float, float]], list[Opening]]:
    lo, hi = _side_span(b, side)
    base = b.x if side in "ns" else b.y
    ops = sorted((o for o in b.openings if o.side == side and o.storey == storey), key=lambda o: o.at)
    segs: list[tuple[float, float]] = []
    cur = lo
    for o in ops:
        start = base + o.at
        if start < cur - 1e-9 or start + o.width > hi + 1e-9:
            raise ValueError(f"{b.name}: opening {o} overlaps another opening or a corner")
        if start - cur > 1e-9:
            segs.append((cur, start))
        cur = start + o.width
    if hi - cur > 1e-9:
        segs.append((cur, hi))
    return segs, ops


def _storey(m: TmxMap, layer: str, b: Building, k: int) -> None:
    z0 = b.floor_z(k)
    z1 = z0 + b.storey_in
    wall = "ruin-wall" if b.ruin else "wall"
    for side in "nswe":
        segs, ops = _wall_segments(b, side, k)
        for i, (a0, a1) in enumerate(segs):
            m.terrain(layer, wall, f"{b.name}-{side}{k}-wall{i + 1}", *_side_rect(b, side, a0, a1),
                      bottom=z0, top=z1, building=b.name)
        origin = b.x if side in "ns" else b.y
        for i, o in enumerate(ops):
            r = _side_rect(b, side, origin + o.at, origin + o.at + o.width)
            label = f"{b.name}-{side}{k}-{'window' if o.window else 'door'}{i + 1}"
            if o.window:
                m.terrain(layer, "sill", f"{label}-sill", *r, bottom=z0, top=z0 + b.sill_in, building=b.name)
            if z1 - (z0 + b.lintel_in) > 1e-9:
                m.terrain(layer, "lintel", f"{label}-lintel", *r, bottom=z0 + b.lintel_in, top=z1, building=b.name)


def _stairwell(b: Building) -> tuple[float, float, float, float, bool]:
    """The stairwell (x0, y0, x1, y1, vertical): 1" wide, `stair_run_in` long, along the inside of the west
    wall when the building is deep enough, else along the north wall."""
    t, run = b.wall_in, b.stair_run_in
    if b.h >= run + 1.5:
        return b.x + t, b.y + t + 0.5, b.x + t + 1.0, b.y + t + 0.5 + run, True
    if b.w >= run + 1.5:
        return b.x + t + 0.5, b.y + t, b.x + t + 0.5 + run, b.y + t + 1.0, False
    raise ValueError(f"{b.name}: {b.w}x{b.h} in is too small for a {run} in stair run (needs a side of {run + 1.5})")


def _stairs_line(b: Building) -> list[tuple[float, float]]:
    """Low end then high end: the stairs climb toward the north (or west) end of the well."""
    wx0, wy0, wx1, wy1, vertical = _stairwell(b)
    if vertical:
        cx = (wx0 + wx1) / 2
        return [(cx, wy1), (cx, wy0)]
    cy = (wy0 + wy1) / 2
    return [(wx1, cy), (wx0, cy)]


def _slab(m: TmxMap, layer: str, b: Building, z: float, preset: str, name: str, well: bool) -> None:
    if not well:
        m.terrain(layer, preset, name, b.x, b.y, b.w, b.h, bottom=z, top=z + b.slab_in, building=b.name)
        return
    wx0, wy0, wx1, wy1, _ = _stairwell(b)
    parts = [
        (b.x, b.y, b.w, wy0 - b.y), (b.x, wy1, b.w, b.y + b.h - wy1),
        (b.x, wy0, wx0 - b.x, wy1 - wy0), (wx1, wy0, b.x + b.w - wx1, wy1 - wy0),
    ]
    for i, (x, y, w, h) in enumerate(p for p in parts if p[2] > 1e-9 and p[3] > 1e-9):
        m.terrain(layer, preset, f"{name}{i + 1}", x, y, w, h, bottom=z, top=z + b.slab_in, building=b.name)


def add_building(m: TmxMap, b: Building, *, layer: str = "buildings", anchors: str = "anchors") -> None:
    """Write a building by the recipe (maps/README.md): storeys of walls with door gaps and windows
    (a sill piece plus a lintel piece), floor slabs, a roof and stairs or a ladder as connectors."""
    for k in range(b.storeys):
        _storey(m, layer, b, k)
        top = b.floor_z(k) + b.storey_in
        if k < b.storeys - 1:
            _slab(m, layer, b, top, "floor", f"{b.name}-floor{k + 1}", True)
            m.polyline(layer, "Stairs", f"{b.name}-stairs{k + 1}", _stairs_line(b),
                       from_in=b.floor_z(k), to_in=top + b.slab_in, building=b.name)
        elif b.roof:
            _slab(m, layer, b, top, "roof", f"{b.name}-roof", False)
    if b.roof and b.access == "ladder":
        roof_top = b.floor_z(b.storeys - 1) + b.storey_in + b.slab_in
        cy = b.y + b.h / 2
        m.polyline(layer, "Ladder", f"{b.name}-ladder", [(b.x + b.w + 0.5, cy), (b.x + b.w - 0.5, cy)],
                   from_in=0.0, to_in=roof_top, building=b.name)
    if b.anchor:
        m.rect(anchors, "Anchor", b.anchor, b.x, b.y, b.w, b.h, kind="structure")
