"""Drawing helpers for the procedural sprites: seeded tileable noise, palettes, supersampled pygame surfaces."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pygame

Colour = tuple[int, int, int]

# STYLE.md "Look and feel": muted olive, moss, mud, concrete greys, rust. Hazard yellow and anomaly cyan are
# reserved for hot spots and anomalies: no sprite uses them.
OLIVE: Colour = (104, 108, 74)
MOSS: Colour = (70, 94, 52)
MUD: Colour = (110, 90, 64)
CONCRETE: Colour = (150, 150, 144)
DARK_CONCRETE: Colour = (92, 95, 97)
RUST: Colour = (134, 78, 52)
BONE: Colour = (230, 224, 204)
INK: Colour = (30, 30, 26)
# Side colours from the Okabe-Ito set (distinct for the common colour-vision deficiencies); hostile rings are
# also notched, so sides differ in shape as well as colour.
SIDE_A: Colour = (0, 114, 178)  # blue
SIDE_B: Colour = (213, 94, 0)  # vermillion
HOSTILE: Colour = (204, 121, 167)  # reddish purple


def value_noise(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    """Periodic smooth value noise in [0, 1], size x size, tileable (wraps at the edges)."""
    grid = rng.random((cells, cells))
    t = np.arange(size) * cells / size
    i0 = np.floor(t).astype(int)
    f = t - i0
    f = f * f * (3 - 2 * f)
    i1 = (i0 + 1) % cells
    a, b = grid[np.ix_(i0, i0)], grid[np.ix_(i0, i1)]
    c, d = grid[np.ix_(i1, i0)], grid[np.ix_(i1, i1)]
    fx, fy = f[None, :], f[:, None]
    out: np.ndarray = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
    return out


def fbm(rng: np.random.Generator, size: int, cells: Sequence[int] = (4, 8, 16, 32), gain: float = 0.55) -> np.ndarray:
    """Fractal sum of octaves of periodic noise, normalised to [0, 1]."""
    out = np.zeros((size, size))
    amp, total = 1.0, 0.0
    for c in cells:
        out += amp * value_noise(rng, size, c)
        total += amp
        amp *= gain
    out /= total
    lo, hi = out.min(), out.max()
    norm: np.ndarray = (out - lo) / (hi - lo + 1e-12)
    return norm


def ramp(t: np.ndarray, stops: Sequence[tuple[float, Colour]]) -> np.ndarray:
    """Map values in [0, 1] through colour stops -> (h, w, 3) float array."""
    xs = [s for s, _ in stops]
    return np.stack([np.interp(t, xs, [c[k] for _, c in stops]) for k in range(3)], axis=-1)


def speckle(rng: np.random.Generator, rgb: np.ndarray, density: float, colour: Colour, *, size: int = 1) -> np.ndarray:
    """Scatter single-pixel (or size x size) specks of a colour (grit, aggregate, needles)."""
    h, w, _ = rgb.shape
    n = int(h * w * density)
    ys, xs = rng.integers(0, h, n), rng.integers(0, w, n)
    out = rgb.copy()
    for dy in range(size):
        for dx in range(size):
            out[(ys + dy) % h, (xs + dx) % w] = colour
    return out


def surface_rgb(rgb: np.ndarray) -> pygame.Surface:
    """An (h, w, 3) array as an opaque pygame surface."""
    import pygame

    arr = np.clip(rgb, 0, 255).astype(np.uint8)
    h, w, _ = arr.shape
    return pygame.image.frombuffer(arr.tobytes(), (w, h), "RGB").copy()


def surface_rgba(rgb: np.ndarray, alpha: np.ndarray) -> pygame.Surface:
    """An (h, w, 3) colour array and (h, w) alpha as a per-pixel-alpha surface."""
    import pygame

    arr = np.concatenate([np.clip(rgb, 0, 255), np.clip(alpha, 0, 255)[..., None]], axis=-1).astype(np.uint8)
    h, w, _ = arr.shape
    return pygame.image.frombuffer(arr.tobytes(), (w, h), "RGBA").copy()


def pixels(surface: pygame.Surface) -> np.ndarray:
    """The RGBA pixels of a surface, rows first: an (h, w, 4) uint8 array."""
    import pygame

    w, h = surface.get_size()
    return np.frombuffer(pygame.image.tobytes(surface, "RGBA"), dtype=np.uint8).reshape(h, w, 4)


def shade(c: Colour, k: float) -> Colour:
    """Lighter (k > 0) or darker (k < 0) by a fraction."""
    if k >= 0:
        r, g, b = (int(v + (255 - v) * k) for v in c)
    else:
        r, g, b = (int(v * (1 + k)) for v in c)
    return (r, g, b)


def polar(cx: float, cy: float, r: float, deg: float) -> tuple[float, float]:
    """The point at distance r from (cx, cy) at `deg` degrees (from +x toward +y)."""
    a = math.radians(deg)
    return (cx + r * math.cos(a), cy + r * math.sin(a))


def star(cx: float, cy: float, r_out: float, r_in: float, points: int = 5,
         rot: float = -90.0) -> list[tuple[float, float]]:
    """The outline of a star of `points` points, alternating between radii r_out and r_in."""
    return [polar(cx, cy, r_out if i % 2 == 0 else r_in, rot + i * 180.0 / points) for i in range(2 * points)]
