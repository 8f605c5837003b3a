"""The Zona Alfa Tiled map format: classes, enums, typed members and defaults (GEO-1, GEO-7, GEO-10)."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

PROJECT_FILE = "zona-alfa.tiled-project"
ELLIPSE_SEGMENTS = 32  # an ellipse becomes a polygon with this many vertices
UNSET_HEIGHT = -1.0  # default of heights that every object must state explicitly
DOOR_GAP_MIN_IN = 1.5  # a door gap must let a 1" base through with room to spare
SURFACE_GAP_MIN_IN = 2.5  # stacked surfaces leave at least this much headroom
CONNECTOR_END_TOL_IN = 0.5  # a stairs/ladder end may sit up to half a base off its surface
MAX_TABLE_IN = 240.0  # larger maps are refused (the largest table is 48"x72", GEO-2)


class MemberType(enum.Enum):
    """Tiled property types used by the format."""

    FLOAT = "float"
    BOOL = "bool"
    STRING = "string"
    ENUM = "enum"


@dataclass(frozen=True, slots=True)
class EnumType:
    """A Tiled custom enum (stored as a string)."""

    name: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Member:
    """One typed member of a Tiled custom class, with its default and its documentation."""

    name: str
    type: MemberType
    default: Any
    doc: str
    enum: str = ""  # the EnumType name when type is ENUM


@dataclass(frozen=True, slots=True)
class ClassType:
    """A Tiled custom class: what it may be used as, which shapes it accepts, its members."""

    name: str
    use_as: tuple[str, ...]
    shapes: tuple[str, ...]
    members: tuple[Member, ...]
    colour: str
    doc: str

    def member(self, name: str) -> Member | None:
        for m in self.members:
            if m.name == name:
                return m
        return None

    @property
    def defaults(self) -> dict[str, Any]:
        return {m.name: m.default for m in self.members}


ENUMS: tuple[EnumType, ...] = (
    EnumType("Cover", ("none", "obstruction", "soft", "hard", "hardened")),
    EnumType("Movement", ("open", "difficult", "impassable")),
    EnumType("AreaKind", ("none", "woods")),
    EnumType(
        "TerrainKind",
        (
            "other", "wall", "sill", "lintel", "floor", "roof", "platform", "hedge", "fence",
            "barricade", "woods", "tree", "rubble", "rocks", "vehicle", "container", "water", "crater",
        ),
    ),
)

AREA_SHAPES = ("rectangle", "polygon", "ellipse", "tile")  # tile objects count as their rectangle

_TERRAIN = ClassType(
    name="Terrain",
    use_as=("object",),
    shapes=AREA_SHAPES,
    colour="#ff8a8a5c",
    doc="A vertical prism of terrain (GEO-10): footprint, bottom, top and flags.",
    members=(
        Member("bottom_in", MemberType.FLOAT, 0.0, "height of the prism's bottom above the ground, inches (GEO-10 z0)"),
        Member("top_in", MemberType.FLOAT, UNSET_HEIGHT,
               "height of the prism's top, inches (GEO-10 z1); -1 = unset, must be given"),
        Member("blocks_los", MemberType.BOOL, False, "rays through the prism's interior are blocked (GEO-10)"),
        Member("cover", MemberType.ENUM, "none", "cover class given to a defender in base contact (GEO-12)", "Cover"),
        Member("movement", MemberType.ENUM, "open", "open, difficult (x2 cost) or impassable (GEO-8)", "Movement"),
        Member("area", MemberType.ENUM, "none", "area terrain kind; woods have a 4\" canopy (GEO-10.WOODS)",
               "AreaKind"),
        Member("platform", MemberType.BOOL, False, "a low piece (<= 1\") that may be stood on, z = its top (GEO-7)"),
        Member("surface", MemberType.BOOL, False, "its top is a floor or roof that models may stand on (GEO-7)"),
        Member("climbable", MemberType.BOOL, False,
               "faces may be climbed: onto the top if surface, else up and over (GEO-24)"),
        Member("building", MemberType.STRING, "", "the building this piece belongs to (groups walls, floors, roofs)"),
        Member("kind", MemberType.ENUM, "other", "what the piece is (wall, sill, lintel, floor, roof, hedge, ...)",
               "TerrainKind"),
    ),
)

_CONNECTOR_MEMBERS = (
    Member("from_in", MemberType.FLOAT, UNSET_HEIGHT, "height of the low end (the polyline's first point), inches"),
    Member("to_in", MemberType.FLOAT, UNSET_HEIGHT, "height of the high end (the polyline's second point), inches"),
    Member("width_in", MemberType.FLOAT, 1.0, "usable width, inches"),
    Member("building", MemberType.STRING, "", "the building it belongs to, if any"),
)

CLASSES: tuple[ClassType, ...] = (
    ClassType(
        name="Battlefield",
        use_as=("map",),
        shapes=(),
        colour="#ff55557f",
        doc="The map itself: one tile = one inch (GEO-1).",
        members=(
            Member("pixels_per_inch", MemberType.FLOAT, 32.0, "pixels per inch; must equal the tile width and height"),
            Member("title", MemberType.STRING, "", "display name of the table (defaults to the file name)"),
        ),
    ),
    _TERRAIN,
    ClassType(
        name="Stairs",
        use_as=("object",),
        shapes=("polyline",),
        colour="#ffc8a050",
        doc="Stairs: a 2-point polyline from the low end to the high end, crossed at the normal rate (CORE-3.3.CLIMB).",
        members=_CONNECTOR_MEMBERS,
    ),
    ClassType(
        name="Ladder",
        use_as=("object",),
        shapes=("polyline",),
        colour="#ffb07040",
        doc="A ladder: a 2-point polyline from the low end to the high end, crossed at the normal rate (GEO-24).",
        members=_CONNECTOR_MEMBERS,
    ),
    ClassType(
        name="DeploymentZone",
        use_as=("object",),
        shapes=AREA_SHAPES,
        colour="#ff6a8fb0",
        doc="A named deployment zone (TURN-4); its name is what scenarios refer to.",
        members=(),
    ),
    ClassType(
        name="Anchor",
        use_as=("object",),
        shapes=("point",) + AREA_SHAPES,
        colour="#ffe0c040",
        doc="A named point or area scenarios refer to (structure-1, btr, cpo-door-n, hotspot-a).",
        members=(
            Member("z_in", MemberType.FLOAT, 0.0, "height of the anchor above the ground, inches"),
            Member("kind", MemberType.STRING, "", "free label: structure, vehicle, door, hotspot, objective, ..."),
        ),
    ),
)


def class_type(name: str) -> ClassType | None:
    """The class with this name, or None."""
    for c in CLASSES:
        if c.name == name:
            return c
    return None


def enum_type(name: str) -> EnumType:
    """The enum with this name."""
    for e in ENUMS:
        if e.name == name:
            return e
    raise KeyError(name)


def object_class_names() -> tuple[str, ...]:
    """Names of every class that map objects may use."""
    return tuple(c.name for c in CLASSES if "object" in c.use_as)


def _member_json(m: Member) -> dict[str, Any]:
    if m.type is MemberType.ENUM:
        return {"name": m.name, "propertyType": m.enum, "type": "string", "value": m.default}
    return {"name": m.name, "type": m.type.value, "value": m.default}


def property_types() -> list[dict[str, Any]]:
    """The `propertyTypes` list of the Tiled project (enums first, then classes), ids from 1."""
    out: list[dict[str, Any]] = []
    for e in ENUMS:
        out.append({
            "id": len(out) + 1, "name": e.name, "storageType": "string", "type": "enum",
            "values": list(e.values), "valuesAsFlags": False,
        })
    for c in CLASSES:
        out.append({
            "color": c.colour, "drawFill": True, "id": len(out) + 1, "members": [_member_json(m) for m in c.members],
            "name": c.name, "type": "class", "useAs": list(c.use_as),
        })
    return out


def project_document() -> dict[str, Any]:
    """The whole `.tiled-project` document (Tiled 1.10 layout)."""
    return {
        "automappingRulesFile": "",
        "commands": [],
        "compatibilityVersion": 1100,
        "extensionsPath": "extensions",
        "folders": ["."],
        "properties": [],
        "propertyTypes": property_types(),
    }
