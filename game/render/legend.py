"""The key of a `--plain` picture: what each fill, edge and colour means, in a strip under the table.

Only what the map holds is listed (a table without water shows no water swatch), then the colours of the overlays
drawn on it; each entry is a swatch drawn the way the picture draws the thing, and a short text.
"""
from __future__ import annotations

import enum
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.core.battlefield import Area, Battlefield, Cover, Movement
from game.render.style import Colour, Palette, darker, piece_fill

if TYPE_CHECKING:
    import pygame

    from game.render.painter import Painter

ROW_PX = 20
SWATCH_PX = 26
FONT_PX = 12


class Swatch(enum.Enum):
    """How an entry's swatch is drawn."""

    FILL = "fill"  # a filled square with a darker edge
    HATCH = "hatch"  # hatched (difficult ground)
    THICK = "thick"  # a thick dark edge (impassable)
    DASHED = "dashed"  # a dashed outline (zones, anchor areas)
    LINE = "line"  # a line (rays, paths, stairs)
    RING = "ring"  # a circle outline (reaction radius, base rings)
    DIAMOND = "diamond"  # a point anchor
    TRIANGLE = "triangle"  # a Hot Spot (--locations)
    STAR = "star"  # the Mission Objective (--locations)
    DASHED_RING = "dashed_ring"  # a Reaction Radius (--locations)
    DOTTED_RING = "dotted_ring"  # a hostile leash (--locations --leash)


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the key."""

    text: str
    colour: Colour
    swatch: Swatch = Swatch.FILL


def map_entries(bf: Battlefield, pal: Palette, *, locations: Collection[str] | None = None) -> list[Entry]:
    """The entries for what the map holds, in the order the eye meets them: ground, pieces, edges, markers.

    `locations`: the anchors a locations overlay draws (their entries come from that overlay); the map's other
    hot spot anchors are then plain markers without a ring."""
    out = [Entry("open ground", pal.mat)]
    pieces = bf.pieces
    seen: set[str] = set()

    def add(key: str, entry: Entry) -> None:
        if key not in seen:
            seen.add(key)
            out.append(entry)

    for p in pieces:
        fill = piece_fill(p, pal)
        if p.area is Area.WOODS:
            add("woods", Entry("woods: LOS area (GEO-10.WOODS)", fill))
        elif p.kind == "roof":
            add("roof", Entry("roof (translucent)", fill))
        elif p.kind == "floor" or (p.cover is Cover.NONE and p.movement is Movement.OPEN and fill == pal.floor):
            add("floor", Entry("floor, road or yard: open ground", fill))
        elif p.kind == "water":
            add("water", Entry("water", fill))
        elif p.cover is not Cover.NONE:
            add(p.cover.value, Entry(f"{p.cover.value} cover" if p.cover is not Cover.OBSTRUCTION
                                     else "obstruction (-1 CA)", fill))
    if any(p.movement is Movement.DIFFICULT for p in pieces):
        out.append(Entry("difficult ground (GEO-8)", darker(pal.mud, 0.5), Swatch.HATCH))
    if any(p.movement is Movement.IMPASSABLE for p in pieces):
        out.append(Entry("impassable: thick edge", darker(pal.concrete), Swatch.THICK))
    if pieces:
        out.append(Entry("lighter = taller; numbers: top height", pal.concrete))
    if bf.connectors:
        out.append(Entry("stairs / ladder: from>to height", pal.stairs, Swatch.LINE))
    if bf.zones:
        out.append(Entry("deployment zone", pal.zone, Swatch.DASHED))
    tags = {f"{a.kind} {a.name}".lower() for a in bf.anchors if locations is None or a.name not in locations}
    if any("hotspot" in t or "hot-spot" in t for t in tags):
        out.append(Entry("hot spot, 3\" reaction radius", pal.hazard, Swatch.RING) if locations is None
                   else Entry("hot spot anchor not in play", pal.hazard, Swatch.DIAMOND))
    if any("anomaly" in t for t in tags):
        out.append(Entry("anomaly", pal.anomaly, Swatch.DIAMOND))
    if any(not ("hotspot" in t or "hot-spot" in t or "anomaly" in t) for t in tags):
        out.append(Entry("anchor (objective, marker)", pal.marker, Swatch.DIAMOND))
    return out


def layout(entries: Sequence[Entry], width: float) -> tuple[int, float]:
    """(columns, height in pixels) of the key for a strip `width` pixels wide."""
    from game.render.labels import font

    fnt = font(FONT_PX)
    col_w = max(fnt.size(e.text)[0] for e in entries) + SWATCH_PX + 18 if entries else width
    cols = max(1, int(width // col_w))
    rows = -(-len(entries) // cols)
    return cols, rows * ROW_PX + 26.0


def _swatch(surface: pygame.Surface, e: Entry, x: float, y: float) -> None:
    import pygame

    w, h = SWATCH_PX, ROW_PX - 6
    rect = pygame.Rect(round(x), round(y), w, h)
    if e.swatch is Swatch.FILL:
        pygame.draw.rect(surface, e.colour, rect)
        pygame.draw.rect(surface, darker(e.colour), rect, 1)
    elif e.swatch is Swatch.HATCH:
        clip = surface.get_clip()
        surface.set_clip(rect)
        for k in range(-h, w, 5):
            pygame.draw.line(surface, e.colour, (rect.x + k, rect.bottom), (rect.x + k + h, rect.y), 1)
        surface.set_clip(clip)
        pygame.draw.rect(surface, e.colour, rect, 1)
    elif e.swatch is Swatch.THICK:
        pygame.draw.rect(surface, (150, 150, 144), rect)
        pygame.draw.rect(surface, e.colour, rect, 3)
    elif e.swatch is Swatch.DASHED:
        for k in range(0, w, 6):
            pygame.draw.line(surface, e.colour, (rect.x + k, rect.y), (rect.x + min(w, k + 3), rect.y), 2)
            pygame.draw.line(surface, e.colour, (rect.x + k, rect.bottom), (rect.x + min(w, k + 3), rect.bottom), 2)
    elif e.swatch is Swatch.LINE:
        pygame.draw.line(surface, e.colour, (rect.x, rect.centery), (rect.right, rect.centery), 3)
    elif e.swatch is Swatch.RING:
        pygame.draw.circle(surface, e.colour, rect.center, h / 2, 2)
    elif e.swatch in (Swatch.DASHED_RING, Swatch.DOTTED_RING):
        _broken_ring(surface, e, rect.center, h / 2)
    elif e.swatch is Swatch.TRIANGLE:
        c, r = rect.center, h / 2
        pts = [(c[0], c[1] - r), (c[0] + r, c[1] + r * 0.7), (c[0] - r, c[1] + r * 0.7)]
        pygame.draw.polygon(surface, e.colour, pts)
        pygame.draw.polygon(surface, darker(e.colour, 0.8), pts, 1)
    elif e.swatch is Swatch.STAR:
        c, r = rect.center, h / 2 + 1
        pts = [(c[0] + (r if k % 2 == 0 else r * 0.45) * math.cos(-math.pi / 2 + k * math.pi / 5),
                c[1] + (r if k % 2 == 0 else r * 0.45) * math.sin(-math.pi / 2 + k * math.pi / 5)) for k in range(10)]
        pygame.draw.polygon(surface, e.colour, pts)
        pygame.draw.polygon(surface, darker(e.colour, 0.8), pts, 1)
    else:
        c = rect.center
        r = h / 2
        pygame.draw.polygon(surface, e.colour, [(c[0], c[1] - r), (c[0] + r, c[1]), (c[0], c[1] + r),
                                                (c[0] - r, c[1])])


def _broken_ring(surface: pygame.Surface, e: Entry, c: tuple[int, int], r: float) -> None:
    """A dashed (Reaction Radius) or dotted (leash) circle, as the locations overlay draws them."""
    import pygame

    n = 8 if e.swatch is Swatch.DASHED_RING else 12
    for k in range(n):
        a = 2 * math.pi * k / n
        if e.swatch is Swatch.DASHED_RING:
            box = pygame.Rect(round(c[0] - r), round(c[1] - r), round(2 * r), round(2 * r))
            pygame.draw.arc(surface, e.colour, box, a, a + math.pi / n, 2)
        else:
            pygame.draw.circle(surface, e.colour, (c[0] + r * math.cos(a), c[1] + r * math.sin(a)), 1)


def draw_legend(pt: Painter, entries: Sequence[Entry], top: float) -> None:
    """The key in columns from pixel row `top` down, across the table's width."""
    from game.render.labels import font

    x0, _ = pt.to_px((0.0, 0.0))
    x1, _ = pt.to_px((pt.bf.width, 0.0))
    width = max(x1 - x0, 120.0)
    cols, _ = layout(entries, width)
    col_w = width / cols
    fnt = font(FONT_PX)
    pt.surface.blit(font(FONT_PX + 1, bold=True).render("Key", True, pt.pal.ink), (round(x0), round(top)))
    for i, e in enumerate(entries):
        col, row = i % cols, i // cols
        x, y = x0 + col * col_w, top + 20 + row * ROW_PX
        _swatch(pt.surface, e, x, y)
        pt.surface.blit(fnt.render(e.text, True, pt.pal.ink), (round(x + SWATCH_PX + 6), round(y)))
