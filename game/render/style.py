"""The look shared by every picture: the Zone's palette, the shipped fonts, shading by height, fills by cover class."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from game.core.battlefield import Area, Cover, Movement, TerrainPiece

if TYPE_CHECKING:
    import pygame

Colour = tuple[int, int, int]
ToPx = Callable[[tuple[float, float]], tuple[float, float]]
Overlay = Callable[["pygame.Surface", ToPx], None]

FONT_FILE = "DejaVuSans.ttf"
BOLD_FONT_FILE = "DejaVuSans-Bold.ttf"
FONTS_DIR = Path(__file__).resolve().parents[1] / "assets" / "fonts"


@dataclass(frozen=True, slots=True)
class Palette:
    """The Zone's palette (STYLE.md): olive, moss, mud, concrete greys, rust; yellow/cyan kept for hot spots."""

    frame: Colour = (38, 38, 33)
    mat: Colour = (104, 108, 74)  # muted olive table mat
    grid: Colour = (94, 98, 66)
    grid_major: Colour = (80, 84, 56)
    ink: Colour = (236, 232, 214)
    dark_ink: Colour = (30, 30, 26)
    moss: Colour = (70, 94, 52)
    soft: Colour = (96, 112, 62)
    mud: Colour = (126, 106, 76)
    concrete: Colour = (152, 152, 146)
    dark_concrete: Colour = (96, 99, 101)
    rust: Colour = (134, 78, 52)
    floor: Colour = (170, 150, 122)
    water: Colour = (62, 82, 84)
    stairs: Colour = (200, 172, 112)
    zone: Colour = (110, 138, 160)
    marker: Colour = (226, 222, 204)
    hazard: Colour = (232, 190, 36)  # hazard yellow: hot spots
    anomaly: Colour = (64, 214, 224)  # anomaly cyan


PALETTE = Palette()


def font_path(name: str) -> str:
    """The path of a shipped font file (game/assets/fonts/): text uses one font family (STYLE.md)."""
    return str(FONTS_DIR / name)


def piece_fill(p: TerrainPiece, pal: Palette) -> Colour:
    """Fill colour by kind, cover class and movement."""
    if p.area is Area.WOODS:
        return pal.moss
    if p.kind == "roof":
        return pal.rust
    if p.kind == "floor":
        return pal.floor
    if p.kind == "water":
        return pal.water
    return {
        Cover.NONE: pal.mud if p.movement is Movement.DIFFICULT else pal.floor,
        Cover.OBSTRUCTION: pal.mud,
        Cover.SOFT: pal.soft,
        Cover.HARD: pal.concrete,
        Cover.HARDENED: pal.dark_concrete,
    }[p.cover]


def shade(c: Colour, top: float) -> Colour:
    """Higher tops are lighter (they stand closer to the light), up to +30% at 6" and above.

    >>> shade((100, 100, 100), 2.0)
    (115, 115, 115)
    """
    k = min(0.30, max(0.0, top) * 0.05)
    r, g, b = (int(v + (255 - v) * k) for v in c)
    return (r, g, b)


def darker(c: Colour, k: float = 0.45) -> Colour:
    """The colour with a fraction k of its light taken away (outlines, shadows of a fill).

    >>> darker((100, 200, 50), 0.5)
    (50, 100, 25)
    """
    r, g, b = (int(v * (1 - k)) for v in c)
    return (r, g, b)
