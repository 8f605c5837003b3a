"""The scene `zona-alfa render-map` draws, read from the command line: points, anchors and named models (GEO-1, GEO-3).

Placements, as a scenario designer writes them:
  * `x,y` or `x,y,z`: a point in inches (GEO-1: origin top-left, y down; z = height of the floor stood on);
  * an anchor name of the map (`hotspot-a`, `btr`): its point and z;
  * a model name declared with `--model NAME=PLACEMENT[/KIND]`. KIND is a base size (human, dog, vermin, mutant,
    large_mutant: `geo.bases.*`) or a catalog id (leader, veteran, hardened, rookie, bandit, dogs, zombies, ghouls,
    vermin, mutant, large_mutant: its base, height and token sprite); a NAME that is a catalog id is its own KIND.
Models alternate between the crew side and the other side in the order declared (hostile ids are always the
other side). Every value is checked here: a bad one raises PlacementError naming the option and how to write it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from game.core.battlefield import Base, Battlefield, Scene, SmokeCloud
from game.core.catalog import Catalog, load_catalog
from game.core.geometry.movement.positions import position_fact
from game.core.settings import Settings

BODY_KINDS = ("human", "dog", "vermin", "mutant", "large_mutant")
BODY_TOKENS = {"human": "rookie", "dog": "dogs", "vermin": "vermin", "mutant": "mutant",
               "large_mutant": "large_mutant"}  # the token drawn for a plain base size
CREW_SIDE, OTHER_SIDE = "crew", "hostile"
NAME_SEPARATORS = ",:@>^/= "  # characters the placement syntax uses: never part of a model name
MAX_Z_IN = 100.0


class PlacementError(ValueError):
    """A --model/--los/--template/--smoke/--path/--reach value that cannot be read: says which option and how
    to write it."""


def numbers(text: str) -> list[float] | None:
    """Comma-separated numbers, or None when `text` is not a list of numbers (then it is a name).

    >>> numbers("3,4.5"), numbers("raven")
    ([3.0, 4.5], None)
    """
    try:
        return [float(v) for v in text.split(",")]
    except ValueError:
        return None


def split_pair(text: str, option: str = "--los") -> tuple[str, str]:
    """`A,B` or `A:B` into two placements (':' when both are coordinates; 4 or 6 plain numbers split in half)."""
    if ":" in text:
        a, _, b = text.partition(":")
        if a and b:
            return a, b
    else:
        nums = numbers(text)
        if nums is not None and len(nums) in (4, 6):
            half = len(nums) // 2
            return ",".join(str(v) for v in nums[:half]), ",".join(str(v) for v in nums[half:])
        parts = text.split(",")
        if len(parts) == 2 and nums is None and all(parts):
            return parts[0], parts[1]
    raise PlacementError(f"{option} {text!r}: write A,B with names, or x,y[,z]:x,y[,z] with coordinates")


@dataclass(frozen=True, slots=True)
class ModelKind:
    """What a KIND (or a NAME that is a catalog id) stands for: base radius and height, token, forced side."""

    name: str
    radius: float
    height: float
    token: str | None  # catalog id of the token sprite (sprites/tokens/<id>.png), None for a plain marker
    creature: bool  # never Obscured (ARMORY-5.3.NATURAL): the modifiers shown for it leave Obscured out
    side: str | None = None  # hostile catalog ids always stand on the other side


class Table:
    """The scene being built from the command line: named models and smoke, resolved against the map."""

    def __init__(self, bf: Battlefield, settings: Settings) -> None:
        self.bf = bf
        self.settings = settings
        self.models: dict[str, Base] = {}
        self.kinds: dict[str, ModelKind] = {}
        self.declared: dict[str, str] = {}  # model name -> the --model text that declared it
        self.smoke: list[SmokeCloud] = []
        self._catalog: Catalog | None = None

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = load_catalog(self.settings)
        return self._catalog

    def kind_names(self) -> list[str]:
        return sorted(set(BODY_KINDS) | set(self.catalog.recruits) | set(self.catalog.hostiles))

    def kind(self, name: str) -> ModelKind:
        """A base size or catalog id: its base (GEO-3, `geo.bases.*`), token and side."""
        cat = self.catalog
        if name in cat.recruits:
            r = cat.recruits[name]
            return ModelKind(name, r.base_diameter / 2, r.height, name, False)
        if name in cat.hostiles:
            h = cat.hostiles[name]
            return ModelKind(name, h.base_diameter / 2, h.height, name, h.creature or h.obscured is None, OTHER_SIDE)
        if name in BODY_KINDS:
            return ModelKind(name, self.settings[f"geo.bases.{name}.diameter"] / 2,
                             self.settings[f"geo.bases.{name}.height"], BODY_TOKENS[name], name != "human")
        raise PlacementError(f"unknown model kind {name!r}; use a base size ({', '.join(BODY_KINDS)}) or a catalog "
                             f"id ({', '.join(sorted(set(cat.recruits) | set(cat.hostiles)))})")

    def size(self, kind: str) -> tuple[float, float]:
        """Base radius and model height of a KIND."""
        k = self.kind(kind)
        return k.radius, k.height

    def point(self, text: str, option: str) -> tuple[float, float, float]:
        """x,y[,z] in inches on the table, an anchor name, or a declared model's position."""
        nums = numbers(text)
        if nums is not None:
            if len(nums) not in (2, 3):
                raise PlacementError(f"{option} {text!r}: a point is x,y or x,y,z in inches")
            x, y, z = nums[0], nums[1], nums[2] if len(nums) == 3 else 0.0
            if not all(math.isfinite(v) for v in (x, y, z)):
                raise PlacementError(f"{option} {text!r}: coordinates must be finite numbers of inches (not nan/inf)")
            w, h = self.bf.width, self.bf.height
            if not (0.0 <= x <= w and 0.0 <= y <= h):
                raise PlacementError(f"{option} {text!r}: ({x:g}, {y:g}) is off the {w:g}x{h:g} in table; "
                                     f"give 0 <= x <= {w:g} and 0 <= y <= {h:g} (GEO-1: origin top-left, y down)")
            if not 0.0 <= z <= MAX_Z_IN:
                raise PlacementError(f"{option} {text!r}: z = {z:g} is the height of the floor stood on: "
                                     f"between 0 (the ground) and {MAX_Z_IN:g} in")
            return (x, y, z)
        if text in self.models:
            b = self.models[text]
            return (b.x, b.y, b.z)
        try:
            a = self.bf.anchor(text)
        except KeyError:
            names = sorted(q.name for q in self.bf.anchors)
            known = ", ".join(names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12 else "")
            raise PlacementError(f"{option} {text!r}: not a point x,y[,z], a --model name or an anchor of "
                                 f"{self.bf.name} (anchors: {known or 'none'})") from None
        return (a.point[0], a.point[1], a.z)

    def model(self, text: str, option: str) -> Base:
        """A declared model, or an anonymous human-sized marker at a point or anchor."""
        if text in self.models:
            return self.models[text]
        x, y, z = self.point(text, option)
        r, h = self.size("human")
        name = text if numbers(text) is None else f"({text})"
        base = Base(name, x, y, z, r, h, "marker")
        self._on_table(base, f"{option} {text!r}")
        self.models[base.id] = base
        self.kinds[base.id] = ModelKind("marker", r, h, None, False)
        return base

    def declare(self, text: str) -> None:
        """`--model NAME=PLACEMENT[/KIND]`: a named model on the table, its base wholly on it (GEO-26)."""
        name, eq, rest = text.partition("=")
        if not eq or not name or not rest:
            raise PlacementError(f"--model {text!r}: write NAME=x,y[,z][/KIND], e.g. --model raven=4,5/human")
        if any(c in NAME_SEPARATORS for c in name) or numbers(name) is not None:
            raise PlacementError(f"--model {text!r}: the name {name!r} may not be a number nor contain any of "
                                 f"{' '.join(NAME_SEPARATORS.strip())} or a space (they separate placements)")
        if name in self.models:
            raise PlacementError(f"--model {text!r}: the name {name!r} is already used by --model "
                                 f"{self.declared.get(name, name)!r}; give each model its own name")
        where, _, kind_name = rest.partition("/")
        catalog_name = name in self.catalog.recruits or name in self.catalog.hostiles
        kind = self.kind(kind_name or (name if catalog_name else "human"))
        x, y, z = self.point(where, f"--model {name}")
        side = kind.side or (CREW_SIDE if len(self.models) % 2 == 0 else OTHER_SIDE)
        base = Base(name, x, y, z, kind.radius, kind.height, side)
        self._on_table(base, f"--model {text!r}")
        self.models[name] = base
        self.kinds[name] = kind
        self.declared[name] = text

    def _on_table(self, b: Base, what: str) -> None:
        w, h = self.bf.width, self.bf.height
        if b.x - b.radius < -1e-9 or b.y - b.radius < -1e-9 or b.x + b.radius > w + 1e-9 or \
                b.y + b.radius > h + 1e-9:
            raise PlacementError(f"{what}: a {2 * b.radius:g}\" base at ({b.x:g}, {b.y:g}) would leave the "
                                 f"{w:g}x{h:g} in table (GEO-26); keep its centre {b.radius:g} in from every edge")

    def add_smoke(self, text: str) -> SmokeCloud:
        """`--smoke P`: an LBT-sized cloud `smoke.height` tall centred on P (GAP-72)."""
        from game.core.geometry.templates import TemplateKind

        x, y, z = self.point(text, "--smoke")
        cloud = SmokeCloud(x, y, z, TemplateKind.LBT.radius, float(self.settings["smoke.height"]))
        self.smoke.append(cloud)
        return cloud

    def position_warnings(self) -> list[tuple[str, str]]:
        """GEO-7 for every declared model: (name, why) for each that stands where no base may (inside a solid
        piece, on a low obstacle, off any floor at its z, overlapping another base). It is drawn anyway."""
        out = []
        for name, b in self.models.items():
            if name not in self.declared:
                continue
            fact = position_fact(self.bf, b.x, b.y, b.z, radius=b.radius, height=b.height,
                                 others=[o for o in self.models.values() if o.id != name], settings=self.settings)
            if not fact.legal:
                out.append((name, f"{fact.reason} ({fact.rule})"))
        return out

    def scene(self) -> Scene:
        return Scene(bases=tuple(self.models.values()), smoke=tuple(self.smoke))
