"""The table's art on screen at any zoom, crisp and cheap (TECH-NOTES "Client rendering"): the map is drawn once
from its art at BASE_PPI (game.render: the same painter as `render-map`, anchors left to the live overlays); while the
view moves it is scaled nearest from that picture (about 1-2 ms a frame), and once the view rests it is re-cached as
smooth-scaled tiles at the exact zoom, built a few per frame within a time budget, so no frame stalls."""
from __future__ import annotations

import math
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

from game.client.camera import Camera
from game.core.battlefield import Battlefield

if TYPE_CHECKING:
    import pygame

BASE_PPI = 48.0  # the table art's own scale; the camera zooms from about 0.4x to 2x of it
TILE = 256  # art pixels per tile side
MAX_TILES = 400  # cached smooth tiles (about 100 MB at the closest zoom at most)
TILE_BUDGET_S = 0.004  # time per frame spent building smooth tiles


class TableArt:
    """The rendered table and its smooth tile cache; `draw(surface, camera)` fills the camera's view."""

    def __init__(self, bf: Battlefield, *, ppi: float = BASE_PPI) -> None:
        import pygame

        from game.render.models import SPRITES_DIR
        from game.render.picture import frame_margin, render_battlefield

        self.pg = pygame
        self.ppi = ppi
        pic = render_battlefield(bf, px_per_inch=ppi, art=SPRITES_DIR, anchors=False)
        self.surface: pygame.Surface = pic.convert() if pygame.display.get_surface() is not None else pic
        m = frame_margin(ppi)
        self.origin = (m, 2.0 * m)  # the art pixel of the table's (0, 0) corner
        self._tiles: OrderedDict[tuple[int, int, int], pygame.Surface] = OrderedDict()
        self._zkey = -1
        self.built = 0  # smooth tiles built so far (the bench reads it)
        self.last_mode = ""  # "nearest", "tiles" or "mixed": how the last frame was drawn

    def _placement(self, cam: Camera) -> tuple[float, float, float]:
        """Zoom (screen px per art px) and the screen point of the art's (0, 0) pixel."""
        z = cam.ppi / self.ppi
        return z, cam.ox - self.origin[0] * z, cam.oy - self.origin[1] * z

    def draw(self, surface: pygame.Surface, cam: Camera) -> None:
        """The art under the camera's view: nearest-scaled while the view moves, smooth tiles once it rests."""
        vx, vy, vw, vh = cam.view
        clip = surface.get_clip()
        surface.set_clip(self.pg.Rect(vx, vy, vw, vh))
        try:
            if cam.settled:
                missing = self._draw_tiles(surface, cam, build=True)
                self.last_mode = "tiles"
                if missing:
                    self._draw_nearest(surface, cam)
                    self._draw_tiles(surface, cam, build=False)
                    self.last_mode = "mixed"
            else:
                self._draw_nearest(surface, cam)
                self.last_mode = "nearest"
        finally:
            surface.set_clip(clip)

    def _draw_nearest(self, surface: pygame.Surface, cam: Camera) -> None:
        z, x0, y0 = self._placement(cam)
        vx, vy, vw, vh = cam.view
        w, h = self.surface.get_size()
        ax0 = max(0, math.floor((vx - x0) / z))
        ay0 = max(0, math.floor((vy - y0) / z))
        ax1 = min(w, math.ceil((vx + vw - x0) / z) + 1)
        ay1 = min(h, math.ceil((vy + vh - y0) / z) + 1)
        if ax1 <= ax0 or ay1 <= ay0:
            return
        sub = self.surface.subsurface((ax0, ay0, ax1 - ax0, ay1 - ay0))
        sx0, sy0 = round(x0 + ax0 * z), round(y0 + ay0 * z)
        size = (max(1, round(x0 + ax1 * z) - sx0), max(1, round(y0 + ay1 * z) - sy0))
        surface.blit(self.pg.transform.scale(sub, size), (sx0, sy0))

    def _draw_tiles(self, surface: pygame.Surface, cam: Camera, *, build: bool) -> int:
        """Blit the smooth tiles in view, building missing ones within the frame's budget; returns how many are
        still missing."""
        z, x0, y0 = self._placement(cam)
        zkey = round(z * 10000)
        if zkey != self._zkey:  # a new resting zoom: the old tiles are of no use
            self._tiles.clear()
            self._zkey = zkey
        vx, vy, vw, vh = cam.view
        w, h = self.surface.get_size()
        step = TILE * z
        i0, i1 = max(0, math.floor((vx - x0) / step)), min(math.ceil(w / TILE), math.ceil((vx + vw - x0) / step))
        j0, j1 = max(0, math.floor((vy - y0) / step)), min(math.ceil(h / TILE), math.ceil((vy + vh - y0) / step))
        bx, by = round(x0), round(y0)
        deadline = time.perf_counter() + TILE_BUDGET_S
        missing = 0
        for j in range(j0, j1):
            for i in range(i0, i1):
                key = (zkey, i, j)
                tile = self._tiles.get(key)
                if tile is None:
                    if not build or time.perf_counter() > deadline:
                        missing += 1
                        continue
                    tile = self._tile(i, j, z)
                    self._tiles[key] = tile
                    self.built += 1
                    if len(self._tiles) > MAX_TILES:
                        self._tiles.popitem(last=False)
                else:
                    self._tiles.move_to_end(key)
                surface.blit(tile, (bx + round(i * step), by + round(j * step)))
        return missing

    def _tile(self, i: int, j: int, z: float) -> pygame.Surface:
        w, h = self.surface.get_size()
        ax, ay = i * TILE, j * TILE
        tw, th = min(TILE, w - ax), min(TILE, h - ay)
        size = (max(1, round((ax + tw) * z) - round(ax * z)), max(1, round((ay + th) * z) - round(ay * z)))
        sub = self.surface.subsurface((ax, ay, tw, th))
        return self.pg.transform.smoothscale(sub, size)
