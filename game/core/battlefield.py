"""The geometry seam: the immutable Battlefield and the mutable-by-replacement Scene (GEO-1..GEO-3)."""
from __future__ import annotations

import enum
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

Point2 = tuple[float, float]
Point3 = tuple[float, float, float]


class Cover(enum.Enum):
    """Cover classes of a terrain piece (CORE-3.6.TABLE, GEO-12)."""

    NONE = "none"
    OBSTRUCTION = "obstruction"
    SOFT = "soft"
    HARD = "hard"
    HARDENED = "hardened"

    @property
    def rank(self) -> int:
        """Order used to pick the best cover (GEO-12: hardened > hard > soft)."""
        return _COVER_RANK[self]


_COVER_RANK = {Cover.NONE: 0, Cover.OBSTRUCTION: 1, Cover.SOFT: 2, Cover.HARD: 3, Cover.HARDENED: 4}


class Movement(enum.Enum):
    """How a piece affects movement (GEO-8, GAP-85)."""

    OPEN = "open"
    DIFFICULT = "difficult"
    IMPASSABLE = "impassable"


class Area(enum.Enum):
    """Area terrain kinds (GEO-10.WOODS)."""

    NONE = "none"
    WOODS = "woods"


WOODS_CANOPY_IN = 4.0  # GEO-10.WOODS: a woods footprint has a canopy 4" high


@dataclass(frozen=True, slots=True)
class TerrainPiece:
    """A vertical prism of terrain (GEO-10): footprint in inches, bottom z0, top z1 and flags.

    Buildings are several pieces: walls with gaps, floor slabs, a roof.
    """

    id: int
    name: str
    footprint: tuple[Point2, ...]
    bottom_z: float
    top_z: float
    blocks_los: bool = False
    cover: Cover = Cover.NONE
    movement: Movement = Movement.OPEN
    area: Area = Area.NONE
    platform: bool = False
    surface: bool = False
    climbable: bool = False
    kind: str = ""  # free label from the map class ("wall", "roof", "hedge", ...)
    holes: tuple[tuple[Point2, ...], ...] = ()
    building: str = ""  # the building this piece belongs to (map property `building`), "" for none

    def impassable_at(self, z: float, model_height: float) -> bool:
        """True if this piece blocks a base standing at z (vertical test only; GEO-7).

        A piece is impassable to a base at z iff its movement is impassable, its bottom is below
        z + the model's height and its top is above z + 1" (low obstacles are crossed, GEO-8).
        """
        return (
            self.movement is Movement.IMPASSABLE
            and self.bottom_z < z + model_height
            and self.top_z > z + 1.0
        )


class ConnectorKind(enum.Enum):
    """Stairs and ladders join levels at the normal movement rate (CORE-3.3.CLIMB)."""

    STAIRS = "stairs"
    LADDER = "ladder"


@dataclass(frozen=True, slots=True)
class Connector:
    """A stairs or ladder object: walking from `start` to `end` changes level (GEO-24)."""

    id: int
    name: str
    kind: ConnectorKind
    start: Point3
    end: Point3
    width: float = 1.0


@dataclass(frozen=True, slots=True)
class Anchor:
    """A named point or area scenarios refer to (`structure-1`, `btr`, `hotspot-a`, ...)."""

    id: int
    name: str
    point: Point2
    z: float = 0.0
    footprint: tuple[Point2, ...] | None = None
    kind: str = ""


@dataclass(frozen=True, slots=True)
class Zone:
    """A named area of the table, e.g. a deployment zone (TURN-4)."""

    id: int
    name: str
    footprint: tuple[Point2, ...]
    kind: str = "deployment"


@dataclass(frozen=True, slots=True)
class Battlefield:
    """The immutable table: size in inches (GEO-1, GEO-2), terrain, connectors, anchors, zones."""

    name: str
    width: float
    height: float
    pieces: tuple[TerrainPiece, ...] = ()
    connectors: tuple[Connector, ...] = ()
    anchors: tuple[Anchor, ...] = ()
    zones: tuple[Zone, ...] = ()
    source: str | None = None  # map file path, None for the open table
    sha256: str | None = None  # of the map file bytes, None for the open table
    # Derived data memoised by the geometry (footprints, STRtree, nav graphs), keyed by name or tuple; the value's
    # type depends on the key, so only the module that owns a key reads it.
    cache: dict[Hashable, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @staticmethod
    def open_table(width: float = 36.0, height: float = 36.0) -> Battlefield:
        """An open table with no terrain (INTRO-1.1.TABLE default 36"x36")."""
        return Battlefield(name=f"open-{width:g}x{height:g}", width=width, height=height)

    def anchor(self, name: str) -> Anchor:
        """The anchor with this name; KeyError names the known anchors."""
        for a in self.anchors:
            if a.name == name:
                return a
        raise KeyError(f"no anchor named {name!r} on {self.name}; known: {sorted(a.name for a in self.anchors)}")

    def zone(self, name: str) -> Zone:
        """The zone with this name; KeyError names the known zones."""
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(f"no zone named {name!r} on {self.name}; known: {sorted(z.name for z in self.zones)}")

    def piece(self, piece_id: int) -> TerrainPiece:
        """The terrain piece with this map object id."""
        for p in self.pieces:
            if p.id == piece_id:
                return p
        raise KeyError(f"no terrain piece with id {piece_id} on {self.name}")

    @property
    def surfaces(self) -> tuple[TerrainPiece, ...]:
        """Pieces whose top is a floor or roof models may stand on (GEO-7)."""
        return tuple(p for p in self.pieces if p.surface or p.platform)


@dataclass(frozen=True, slots=True)
class Base:
    """A model's round base on the table (GEO-3): centre, z of the surface stood on, radius, height."""

    id: str
    x: float
    y: float
    z: float
    radius: float
    height: float
    side: str

    @property
    def centre(self) -> Point2:
        return (self.x, self.y)


@dataclass(frozen=True, slots=True)
class SmokeCloud:
    """A smoke cloud: an LBT cylinder that blocks LOS (GAP-72, GEO-10)."""

    x: float
    y: float
    z: float
    radius: float
    height: float


@dataclass(frozen=True, slots=True)
class Scene:
    """What changes during play: every base in play and the smoke clouds."""

    bases: tuple[Base, ...] = ()
    smoke: tuple[SmokeCloud, ...] = ()

    def base(self, model_id: str) -> Base:
        for b in self.bases:
            if b.id == model_id:
                return b
        raise KeyError(f"no base for model {model_id!r} in the scene")
