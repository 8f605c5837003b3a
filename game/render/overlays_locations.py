"""`zona-alfa render-map --locations`: Hot Spots and the Mission Objective, their Reaction Radius and leash.

Each location is a marker at its centre point (a Hot Spot a hazard-yellow warning triangle, the Mission Objective
a white star: told apart by shape, not only colour), its 3" Reaction Radius as a dashed hazard-yellow circle
measured from that point (GEO-19, GAP-50: even when the scenic item is larger) and, with `--leash`, the 12" leash
of the hostiles it spawns as a thinner dotted circle (GEO-20). A triggered location is drawn hollow and grey with a
solid grey ring (GEO-19: it is ignored from then on). The label gives the name and the Threat Level (MISSION-8.2.TL).
`--locations` draws `demo_locations(bf, tl)` (game.core.rules.hotspots, GAP-118) for `--tl N` (1-3, default 1).
"""
from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.core.battlefield import Battlefield, Point2
from game.core.geometry.zone import LEASH, REACTION_RADIUS
from game.core.rules.hotspots import DEMO_TLS, demo_locations
from game.core.rules.setup import LocationSpec
from game.render.labels import Annotations
from game.render.legend import Entry, Swatch
from game.render.models import ppi_of
from game.render.placements import PlacementError
from game.render.style import PALETTE, Colour, Overlay, ToPx

if TYPE_CHECKING:
    import pygame

HOT_SPOT: Colour = PALETTE.hazard  # Hot Spots and every Reaction Radius: hazard yellow (STYLE.md)
OBJECTIVE: Colour = (246, 244, 236)  # the Mission Objective's star
LEASH_RING: Colour = (214, 178, 64)  # the 12" leash: a dimmer yellow, dotted and thin
TRIGGERED: Colour = (150, 150, 144)  # a triggered location: grey
OUTLINE: Colour = (28, 28, 24)
MARKER_IN = 0.5  # the marker's radius in inches (at least MARKER_MIN_PX)
MARKER_MIN_PX = 6.0
KINDS = ("hotspot", "objective")  # MISSION-8.2.HOTSPOTS, MISSION-8.2.OBJECTIVE


@dataclass(frozen=True, slots=True)
class LocationMark:
    """One location as the picture draws it: the centre point (inches), the Reaction Radius (GEO-19, measured
    from the point: GAP-50), the leash or None (GEO-20), "hotspot" or "objective", the Threat Level, a label,
    whether it has been triggered, the scenic item's outline if any (drawn dashed) and the location's id."""

    point: Point2
    radius: float = REACTION_RADIUS
    leash: float | None = None
    kind: str = "hotspot"
    tl: int = 1
    label: str = ""
    triggered: bool = False
    footprint: tuple[Point2, ...] = ()
    id: str = ""  # the location's id: an anchor's name when the map holds it (the map then leaves it to this overlay)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"LocationMark kind is {self.kind!r}; allowed: {', '.join(KINDS)}")

    @property
    def text(self) -> str:
        """The label drawn beside the marker: name, Threat Level, and whether it has been triggered.

        >>> LocationMark((1, 2), label="camp", kind="objective", tl=2, triggered=True).text
        'camp TL2 (triggered)'
        """
        head = f"{self.label} TL{self.tl}" if self.label else f"TL{self.tl}"
        return head + (" (triggered)" if self.triggered else "")


def marker_radius_px(ppi: float) -> float:
    """The radius of a location's marker in pixels at a scale (the map keeps its labels off it)."""
    return max(MARKER_MIN_PX, MARKER_IN * ppi)


def marks_from_specs(specs: Sequence[LocationSpec], *, leash: bool = False) -> list[LocationMark]:
    """The marks of a scenario's locations: the 3" Reaction Radius, the 12" leash when asked for."""
    return [LocationMark(s.point, REACTION_RADIUS, LEASH if leash else None, s.kind, s.tl,
                         s.id if s.kind == "hotspot" else f"MO {s.id}", False, tuple(s.footprint), s.id) for s in specs]


def _circle(surface: pygame.Surface, colour: Colour | tuple[int, int, int, int], c: Point2, r: float, *, on: int,
            off: int, width: int) -> None:
    """A circle of arcs: `on` pixels drawn, `off` pixels left out, all the way round (dashes or dots)."""
    import pygame

    if r < 1:
        return
    n = max(8, int(2 * math.pi * r / (on + off)))
    step = 2 * math.pi / n
    arc = step * on / (on + off)
    rect = pygame.Rect(round(c[0] - r), round(c[1] - r), round(2 * r), round(2 * r))
    for k in range(n):
        a0 = k * step
        if on <= 2:  # a dot
            pygame.draw.circle(surface, colour, (c[0] + r * math.cos(a0), c[1] - r * math.sin(a0)), max(1, width))
        else:
            pygame.draw.arc(surface, colour, rect, a0, a0 + arc, width)


def _triangle(c: Point2, r: float) -> list[Point2]:
    return [(c[0], c[1] - r), (c[0] + r * 0.92, c[1] + r * 0.62), (c[0] - r * 0.92, c[1] + r * 0.62)]


def _star(c: Point2, r: float) -> list[Point2]:
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((c[0] + rr * math.cos(a), c[1] + rr * math.sin(a)))
    return pts


def draw_marker(surface: pygame.Surface, mark: LocationMark, c: Point2, r: float) -> None:
    """The marker at the centre point: a triangle (Hot Spot) or a star (Mission Objective), dark-edged; hollow
    and grey once triggered."""
    import pygame

    pts = _triangle(c, r) if mark.kind == "hotspot" else _star(c, r * 1.15)
    fill = HOT_SPOT if mark.kind == "hotspot" else OBJECTIVE
    if mark.triggered:
        pygame.draw.polygon(surface, OUTLINE, pts, 4)
        pygame.draw.polygon(surface, TRIGGERED, pts, 2)
        return
    pygame.draw.polygon(surface, fill, pts)
    pygame.draw.polygon(surface, OUTLINE, pts, 2)
    if mark.kind == "hotspot":  # the "!" of a warning sign
        pygame.draw.line(surface, OUTLINE, (c[0], c[1] - r * 0.45), (c[0], c[1] + r * 0.12), max(1, round(r / 5)))
        pygame.draw.circle(surface, OUTLINE, (c[0], c[1] + r * 0.35), max(1, r / 9))


def locations_overlay(bf: Battlefield, marks: Sequence[LocationMark], notes: Annotations) -> Overlay:
    """Every location's leash (under), Reaction Radius and marker; the labels are queued in `notes` (placed with
    the other overlays' labels when the picture is finished) and the markers are kept clear of them."""

    def draw(surface: pygame.Surface, to_px: ToPx) -> None:
        import pygame

        ppi = ppi_of(to_px)
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        for m in marks:  # the leash rings: thin, dotted, under everything else
            if m.leash is not None:
                _circle(layer, (*LEASH_RING, 235), to_px(m.point), m.leash * ppi, on=1, off=5, width=1)
        for m in marks:  # a faint wash inside each Reaction Radius, so its area reads at a glance
            if not m.triggered:
                pygame.draw.circle(layer, (*HOT_SPOT, 28), to_px(m.point), m.radius * ppi)
        x0, y0 = to_px((0.0, 0.0))
        x1, y1 = to_px((bf.width, bf.height))
        clip = surface.get_clip()
        surface.set_clip(pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0)))  # rings stay on the table
        surface.blit(layer, (0, 0))
        r = marker_radius_px(ppi)
        for m in marks:
            c = to_px(m.point)
            if m.footprint:
                _dashed_polygon(surface, [to_px(p) for p in m.footprint], TRIGGERED if m.triggered else fill_of(m))
            if m.triggered:
                pygame.draw.circle(surface, TRIGGERED, c, m.radius * ppi, 1)
            else:
                _circle(surface, OUTLINE, c, m.radius * ppi, on=9, off=5, width=4)
                _circle(surface, HOT_SPOT, c, m.radius * ppi, on=9, off=5, width=2)
        surface.set_clip(clip)
        for m in marks:  # markers over every ring, so a ring never crosses another location's marker
            c = to_px(m.point)
            draw_marker(surface, m, c, r)
            notes.taken.add((c[0] - r - 1, c[1] - r - 1, 2 * r + 2, 2 * r + 2))
            notes.label(m.text, c, TRIGGERED if m.triggered else fill_of(m), size=12, prefer="above", gap=r + 1,
                        priority=2)

    return draw


def fill_of(mark: LocationMark) -> Colour:
    """The marker colour of a location: hazard yellow for a Hot Spot, white for the Mission Objective."""
    return HOT_SPOT if mark.kind == "hotspot" else OBJECTIVE


def _dashed_polygon(surface: pygame.Surface, pts: list[Point2], colour: Colour) -> None:
    import pygame

    ring = pts + pts[:1]
    for (x0, y0), (x1, y1) in zip(ring, ring[1:], strict=False):
        length = math.hypot(x1 - x0, y1 - y0)
        n = max(1, int(length // 5))
        for k in range(0, n, 2):
            a, b = k / n, min(1.0, (k + 1) / n)
            pygame.draw.line(surface, colour, (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a),
                             (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b), 2)


def add_location_arguments(parser: argparse.ArgumentParser) -> None:
    """The location options of `render-map` (docs/geometry.md)."""
    parser.add_argument("--locations", action="store_true",
                        help="draw the demo's Hot Spots (2 x TL, mirror-symmetric between the deployment zones, "
                             "GAP-118) and the map's Mission Objective, each with its 3\" Reaction Radius (GEO-19)")
    parser.add_argument("--tl", type=int, default=None, metavar="N",
                        help="the Threat Level of --locations: 1, 2 or 3 (default 1; MISSION-8.2.HOTSPOT-COUNT)")
    parser.add_argument("--leash", action="store_true",
                        help="with --locations: add each location's 12\" hostile leash ring (GEO-20)")


def check_location_args(args: argparse.Namespace) -> str | None:
    """Why --locations/--tl/--leash cannot be used, or None."""
    tl = getattr(args, "tl", None)
    if not getattr(args, "locations", False):
        if tl is not None:
            return f"--tl {tl}: sets the Threat Level of --locations; add --locations or leave --tl out"
        if getattr(args, "leash", False):
            return "--leash: draws the leash rings of --locations; add --locations or leave --leash out"
        return None
    if tl is not None and tl not in DEMO_TLS:
        return (f"--tl {tl}: the Threat Level is 1, 2 or 3 (2 x TL Hot Spots, MISSION-8.2.HOTSPOT-COUNT; TL0 has "
                "none)")
    return None


def location_marks_from_args(bf: Battlefield, args: argparse.Namespace) -> list[LocationMark]:
    """The marks `--locations [--tl N] [--leash]` asks for ([] without --locations); PlacementError when the map
    has no room for the Hot Spots."""
    if not getattr(args, "locations", False):
        return []
    try:
        specs = demo_locations(bf, args.tl if args.tl is not None else 1)
    except ValueError as err:
        raise PlacementError(f"--locations: {err}") from None
    return marks_from_specs(specs, leash=bool(args.leash))


def location_key(marks: Sequence[LocationMark]) -> list[Entry]:
    """The key entries of the locations drawn: each marker shape present, the Reaction Radius, the leash ring and
    the triggered look when any is drawn."""
    out = []
    tls = sorted({m.tl for m in marks if m.kind == "hotspot"})
    if tls:
        count = ", ".join(f"TL{t}: {2 * t}" for t in tls)
        out.append(Entry(f"Hot Spot ({count} of them, GAP-118)", HOT_SPOT, Swatch.TRIANGLE))
    if any(m.kind == "objective" for m in marks):
        out.append(Entry("Mission Objective", OBJECTIVE, Swatch.STAR))
    out.append(Entry(f'{REACTION_RADIUS:g}" Reaction Radius (GEO-19, GAP-50)', HOT_SPOT, Swatch.DASHED_RING))
    if any(m.leash is not None for m in marks):
        out.append(Entry(f'{LEASH:g}" hostile leash (GEO-20)', LEASH_RING, Swatch.DOTTED_RING))
    if any(m.triggered for m in marks):
        out.append(Entry("triggered location (GEO-19)", TRIGGERED, Swatch.RING))
    return out
