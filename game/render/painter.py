"""The Painter: one Battlefield drawn at a scale, its fonts, layers and the inches-to-pixels transform (GEO-1)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from game.core.battlefield import Battlefield
from game.render.labels import Rect, Taken
from game.render.style import BOLD_FONT_FILE, FONT_FILE, Colour, Palette, font_path

if TYPE_CHECKING:
    import pygame


class Painter:
    """Draws one Battlefield at a scale; keeps fonts and the coordinate transform together.

    `pg` is pygame, imported when the first Painter is made, so importing this module stays light.
    """

    def __init__(self, bf: Battlefield, ppi: float, margin: float, pal: Palette, *, bottom: float = 0.0,
                 taken: Taken | None = None) -> None:
        import pygame

        self.pg = pygame
        self.bf = bf
        self.ppi = ppi
        self.margin = margin
        self.pal = pal
        self.top = margin * 2.0  # room for the title above the ruler
        self.taken = taken if taken is not None else Taken()  # the map's labels, avoided by the overlays' labels
        size = (round(bf.width * ppi + 2 * margin), round(bf.height * ppi + margin + self.top + bottom))
        self.surface = pygame.Surface(size, pygame.SRCALPHA)
        self.layer = pygame.Surface(size, pygame.SRCALPHA)
        self.small = pygame.font.Font(font_path(FONT_FILE), max(9, round(ppi * 0.42)))
        self.label = pygame.font.Font(font_path(BOLD_FONT_FILE), max(10, round(ppi * 0.5)))
        self.title = pygame.font.Font(font_path(BOLD_FONT_FILE), max(12, round(margin * 0.6)))

    def to_px(self, p: tuple[float, float]) -> tuple[float, float]:
        """A table point in inches to a pixel of the picture."""
        return (self.margin + p[0] * self.ppi, self.top + p[1] * self.ppi)

    def poly_px(self, pts: Sequence[tuple[float, float]], dx: float = 0.0,
                dy: float = 0.0) -> list[tuple[float, float]]:
        """A polygon in inches to pixels, shifted by (dx, dy) pixels (shadows)."""
        arr = np.asarray(pts, dtype=float) * self.ppi + (self.margin + dx, self.top + dy)
        return [tuple(q) for q in arr]

    def text(self, s: str, at: tuple[float, float], *, font: pygame.font.Font | None = None,
             colour: Colour | None = None, anchor: str = "center", halo: bool = True, optional: bool = False) -> None:
        """A line of text anchored at a pixel, on a dark halo unless `halo=False`. A haloed label (one on the
        table) moves up or down by its height to clear the labels already drawn; an `optional` one that cannot
        is left out (small scales), the others are drawn where they were asked for."""
        font = font or self.small
        colour = colour or self.pal.ink
        img = font.render(s, True, colour)
        rect = img.get_rect(**{anchor: (round(at[0]), round(at[1]))})
        if halo:
            box: Rect = (rect.x - 2, rect.y, rect.w + 4, rect.h)
            tries = [box] + [(box[0], box[1] + k * (rect.h + 1), box[2], box[3]) for k in (-1, 1)]
            free = next((b for b in tries if self.taken.clear_of(b, soft_too=True)), None)
            if free is None and optional:
                return
            box = free or box
            self.taken.add(box, soft=True)
            rect.topleft = (round(box[0]) + 2, round(box[1]))
            back = self.pg.Surface((rect.w + 4, rect.h), self.pg.SRCALPHA)
            back.fill((*self.pal.dark_ink, 150))
            self.surface.blit(back, (rect.x - 2, rect.y))
        self.surface.blit(img, rect)

    def translucent_polygon(self, pts: list[tuple[float, float]], rgba: tuple[int, int, int, int]) -> None:
        """A filled polygon blended over the picture through the scratch layer."""
        self.layer.fill((0, 0, 0, 0))
        self.pg.draw.polygon(self.layer, rgba, pts)
        self.surface.blit(self.layer, (0, 0))

    def dashed(self, pts: list[tuple[float, float]], colour: Colour, *, closed: bool = True, dash: float = 6.0,
               width: int = 2) -> None:
        """A dashed outline (zones, anchor areas)."""
        ring = pts + [pts[0]] if closed else pts
        for (x0, y0), (x1, y1) in zip(ring, ring[1:], strict=False):
            length = float(np.hypot(x1 - x0, y1 - y0))
            n = max(1, int(length // dash))
            for k in range(0, n, 2):
                a, b = k / n, min(1.0, (k + 1) / n)
                self.pg.draw.line(self.surface, colour, (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a),
                                  (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b), width)
