"""Draw the game's original top-down art into sprites/: `python -m game.tools.make_sprites` (seeded, repeatable).

Terrain textures are 64 px tiles covering 2" (32 px per inch) that wrap seamlessly; objects are drawn at 32 px per
inch; tokens at 64 px per inch of base (game/tools/sprite_tokens.py). Everything is drawn from noise and pygame
primitives here: no external images.
"""
from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from game.tools.spritekit import (
    CONCRETE,
    DARK_CONCRETE,
    INK,
    MOSS,
    MUD,
    RUST,
    fbm,
    ramp,
    shade,
    speckle,
    surface_rgb,
    value_noise,
)

if TYPE_CHECKING:
    import pygame

ROOT = Path(__file__).resolve().parents[2]
TILE = 64  # px: one terrain tile = 2" at 32 px per inch
PPI = 32
SS = 4  # supersampling factor for object sprites


def _rng(name: str) -> np.random.Generator:
    """A generator seeded by the sprite's name: each sprite is stable on its own."""
    return np.random.default_rng(sum((i + 1) * ord(ch) for i, ch in enumerate(name)) + 7919)


# ------------------------------------------------------------------ terrain tiles (tileable)


def mud(rng: np.random.Generator) -> np.ndarray:
    n = fbm(rng, TILE)
    rgb = ramp(n, [(0, (72, 58, 42)), (0.45, MUD), (0.8, (132, 112, 82)), (1, (146, 128, 96))])
    puddle = value_noise(rng, TILE, 4) > 0.78
    rgb[puddle] = rgb[puddle] * 0.7
    return speckle(rng, rgb, 0.02, (90, 74, 54))


def grass(rng: np.random.Generator) -> np.ndarray:
    n = fbm(rng, TILE)
    rgb = ramp(n, [(0, (70, 78, 48)), (0.5, (96, 104, 66)), (1, (122, 124, 80))])
    rgb = speckle(rng, rgb, 0.05, (84, 98, 56))
    return speckle(rng, rgb, 0.015, (128, 120, 82))


def forest_floor(rng: np.random.Generator) -> np.ndarray:
    n = fbm(rng, TILE, (4, 8, 16))
    rgb = ramp(n, [(0, (44, 50, 32)), (0.5, (62, 70, 42)), (1, (88, 84, 56))])
    rgb = speckle(rng, rgb, 0.05, (96, 76, 50))
    return speckle(rng, rgb, 0.03, (50, 64, 36))


def asphalt(rng: np.random.Generator) -> np.ndarray:
    n = fbm(rng, TILE, (8, 16, 32))
    rgb = ramp(n, [(0, (58, 60, 60)), (0.5, (74, 76, 76)), (1, (92, 92, 90))])
    rgb = speckle(rng, rgb, 0.06, (104, 104, 100))
    crack = np.abs(value_noise(rng, TILE, 4) - 0.5) < 0.012
    rgb[crack] = (40, 42, 42)
    return rgb


def trail(rng: np.random.Generator) -> np.ndarray:
    n = fbm(rng, TILE)
    rgb = ramp(n, [(0, (92, 76, 54)), (0.5, (122, 102, 74)), (1, (140, 122, 92))])
    rut = np.abs(np.sin(np.arange(TILE) / TILE * 2 * np.pi * 2))[None, :] * np.ones((TILE, 1))
    rgb *= (0.92 + 0.08 * rut)[..., None]
    return speckle(rng, rgb, 0.02, (80, 66, 48))


def gravel(rng: np.random.Generator) -> np.ndarray:
    n = fbm(rng, TILE, (8, 16, 32))
    rgb = ramp(n, [(0, (108, 104, 92)), (1, (142, 136, 120))])
    rgb = speckle(rng, rgb, 0.12, (164, 158, 142))
    return speckle(rng, rgb, 0.08, (86, 82, 72))


def pavement(rng: np.random.Generator) -> np.ndarray:
    rgb = ramp(fbm(rng, TILE, (8, 16)), [(0, (118, 118, 112)), (1, (146, 146, 140))])
    rgb[::16, :] = (92, 92, 88)
    rgb[:, ::16] = (92, 92, 88)
    return speckle(rng, rgb, 0.02, (100, 104, 90))


def yard(rng: np.random.Generator) -> np.ndarray:
    g, m = grass(rng), mud(rng)
    mix = np.clip((fbm(rng, TILE, (2, 4)) - 0.35) * 2.5, 0, 1)[..., None]
    return g * (1 - mix) + m * mix


def floor_planks(rng: np.random.Generator) -> np.ndarray:
    rgb = ramp(fbm(rng, TILE, (8, 16, 32)), [(0, (112, 90, 64)), (1, (150, 124, 90))])
    for k, y in enumerate(range(0, TILE, 16)):
        rgb[y:y + 16] *= 0.9 + 0.1 * ((k * 7919) % 5) / 4
        rgb[y] = (70, 56, 40)
        seam = (k * 37) % TILE
        rgb[y:y + 16, seam] = (80, 64, 46)
    grain = value_noise(rng, TILE, 32)[:, :1] * np.ones((1, TILE))
    return rgb * (0.94 + 0.06 * grain)[..., None]


def floor_concrete(rng: np.random.Generator) -> np.ndarray:
    rgb = ramp(fbm(rng, TILE), [(0, (104, 104, 98)), (1, (140, 138, 130))])
    stain = value_noise(rng, TILE, 4) > 0.7
    rgb[stain] *= 0.85
    return speckle(rng, rgb, 0.02, (90, 88, 84))


def roof_tin(rng: np.random.Generator) -> np.ndarray:
    x = np.arange(TILE)
    ridge = 0.82 + 0.18 * np.cos(x / TILE * 2 * np.pi * 8)[None, :] * np.ones((TILE, 1))
    rust = fbm(rng, TILE)
    rgb = ramp(rust, [(0, (112, 98, 84)), (0.5, (128, 96, 74)), (0.8, RUST), (1, (142, 84, 56))])
    return rgb * ridge[..., None]


def roof_slate(rng: np.random.Generator) -> np.ndarray:
    y = np.arange(TILE)
    wave = 0.85 + 0.15 * np.cos(y / TILE * 2 * np.pi * 6)[:, None] * np.ones((1, TILE))
    rgb = ramp(fbm(rng, TILE), [(0, (92, 96, 96)), (0.6, (120, 122, 118)), (1, (136, 138, 128))])
    moss = fbm(rng, TILE, (4, 8)) > 0.78
    rgb[moss] = rgb[moss] * 0.5 + np.array(MOSS) * 0.5
    return rgb * wave[..., None]


def wall_brick(rng: np.random.Generator) -> np.ndarray:
    rgb = ramp(fbm(rng, TILE, (8, 16)), [(0, (118, 70, 52)), (1, (156, 96, 70))])
    for r, y in enumerate(range(0, TILE, 8)):
        rgb[y] = (168, 160, 148)
        off = 0 if r % 2 == 0 else 8
        rgb[y:y + 8, off::16] = (168, 160, 148)
    return rgb


def wall_concrete(rng: np.random.Generator) -> np.ndarray:
    rgb = ramp(fbm(rng, TILE, (8, 16, 32)), [(0, (128, 128, 122)), (1, (168, 166, 158))])
    rgb[::32, :] = (100, 100, 96)
    return speckle(rng, rgb, 0.03, (110, 110, 104))


def hedge(rng: np.random.Generator) -> np.ndarray:
    n = fbm(rng, TILE, (8, 16, 32))
    rgb = ramp(n, [(0, (34, 52, 28)), (0.5, (58, 82, 44)), (1, (96, 118, 64))])
    return speckle(rng, rgb, 0.04, (108, 128, 72))


def fence(rng: np.random.Generator) -> np.ndarray:
    rgb = ramp(fbm(rng, TILE, (8, 16)), [(0, (96, 80, 58)), (1, (130, 110, 80))])
    rgb[:, ::8] = (70, 56, 40)
    rgb[:, ::32] = (54, 48, 42)
    return rgb


def water(rng: np.random.Generator) -> np.ndarray:
    n = fbm(rng, TILE, (4, 8, 16))
    rgb = ramp(n, [(0, (40, 58, 60)), (0.6, (58, 80, 82)), (1, (88, 110, 104))])
    ripple = np.abs(np.sin(value_noise(rng, TILE, 8) * 18)) > 0.97
    rgb[ripple] = (104, 124, 118)
    return rgb


def rubble(rng: np.random.Generator) -> np.ndarray:
    rgb = ramp(fbm(rng, TILE), [(0, (84, 74, 60)), (1, (120, 108, 90))])
    for _ in range(26):
        x, y = rng.integers(0, TILE, 2)
        s = int(rng.integers(3, 9))
        c = [CONCRETE, DARK_CONCRETE, (150, 92, 66), (128, 120, 104)][int(rng.integers(0, 4))]
        ys, xs = np.ogrid[:s, :s]
        rgb[(y + ys) % TILE, (x + xs) % TILE] = np.array(c) * rng.uniform(0.8, 1.1)
        rgb[(y + s) % TILE, (x + xs) % TILE] = (50, 44, 36)
    return rgb


def sandbags(rng: np.random.Generator) -> np.ndarray:
    base = ramp(fbm(rng, TILE, (8, 16, 32)), [(0, (128, 116, 84)), (1, (164, 150, 112))])
    y, x = np.mgrid[:TILE, :TILE]
    row = y // 16
    bx = (x + (row % 2) * 12) % 24
    by = y % 16
    bulge = 1 - ((bx - 12) / 12.5) ** 2 * 0.6 - ((by - 8) / 8.5) ** 2 * 0.6
    rgb: np.ndarray = base * np.clip(bulge, 0.45, 1.0)[..., None]
    return rgb


def stone(rng: np.random.Generator) -> np.ndarray:
    rgb = ramp(fbm(rng, TILE, (4, 8, 16, 32)), [(0, (96, 96, 90)), (0.6, (134, 132, 124)), (1, (160, 158, 148))])
    crack = np.abs(value_noise(rng, TILE, 6) - 0.5) < 0.02
    rgb[crack] = (70, 70, 66)
    return rgb


def steel(rng: np.random.Generator) -> np.ndarray:
    rgb = ramp(fbm(rng, TILE, (4, 8, 16)), [(0, (70, 76, 72)), (0.6, (92, 98, 92)), (0.85, RUST), (1, (150, 90, 60))])
    rgb[:, ::6] *= 0.8
    return rgb


def canvas(rng: np.random.Generator) -> np.ndarray:
    rgb = ramp(fbm(rng, TILE, (4, 8, 16)), [(0, (92, 96, 62)), (1, (122, 124, 84))])
    rgb[::12, :] *= 0.85
    return rgb


def junk(rng: np.random.Generator) -> np.ndarray:
    rgb = rubble(rng)
    for _ in range(10):
        x, y = rng.integers(0, TILE, 2)
        rgb[y % TILE, x:(x + int(rng.integers(6, 16)))] = (70, 62, 50)
    return speckle(rng, rgb, 0.02, RUST)


def logwood(rng: np.random.Generator) -> np.ndarray:
    y = np.arange(TILE)
    bark = 0.8 + 0.2 * np.abs(np.sin(y / TILE * 2 * np.pi * 10 + value_noise(rng, TILE, 8) * 3))
    rgb = ramp(fbm(rng, TILE, (8, 16)), [(0, (70, 56, 40)), (1, (110, 90, 64))])
    barked: np.ndarray = rgb * bark[..., None]
    return barked


TEXTURES: dict[str, Callable[[np.random.Generator], np.ndarray]] = {
    "mud": mud, "grass": grass, "forest-floor": forest_floor, "asphalt": asphalt, "trail": trail, "gravel": gravel,
    "pavement": pavement, "yard": yard, "floor-planks": floor_planks, "floor-concrete": floor_concrete,
    "roof-tin": roof_tin, "roof-slate": roof_slate, "wall-brick": wall_brick, "wall-concrete": wall_concrete,
    "hedge": hedge, "fence": fence, "water": water, "rubble": rubble, "sandbags": sandbags, "stone": stone,
    "steel": steel, "canvas": canvas, "junk": junk, "log": logwood,
}


def terrain_sprites() -> dict[str, pygame.Surface]:
    """Every terrain tile by name (sprites/terrain/NAME.png)."""
    return {name: surface_rgb(fn(_rng(name))) for name, fn in TEXTURES.items()}


# ------------------------------------------------------------------ objects (alpha, drawn at 4x then reduced)


def _canvas(w_in: float, h_in: float) -> pygame.Surface:
    import pygame

    return pygame.Surface((round(w_in * PPI * SS), round(h_in * PPI * SS)), pygame.SRCALPHA)


def _reduce(s: pygame.Surface) -> pygame.Surface:
    import pygame

    w, h = s.get_size()
    return pygame.transform.smoothscale(s, (w // SS, h // SS))


def tree(seed: int, kind: str) -> pygame.Surface:
    """A tree crown seen from above, 2" across: pine (needle star), birch (lumpy leaves) or dead (bare branches)."""
    import pygame

    rng = np.random.default_rng(seed)
    s = _canvas(2.0, 2.0)
    c = s.get_width() / 2
    if kind == "pine":
        for r, col in ((0.98, (34, 52, 34)), (0.75, (44, 66, 40)), (0.5, (58, 82, 50)), (0.22, (72, 96, 58))):
            pts = []
            for i in range(22):
                rr = c * r * (1.0 if i % 2 == 0 else 0.72) * rng.uniform(0.9, 1.05)
                a = 2 * math.pi * i / 22
                pts.append((c + rr * math.cos(a), c + rr * math.sin(a)))
            pygame.draw.polygon(s, col, pts)
    elif kind == "birch":
        for r, col, n in ((0.95, (58, 74, 40), 9), (0.7, (82, 100, 54), 8), (0.42, (108, 122, 70), 6)):
            for i in range(n):
                a = 2 * math.pi * i / n + rng.uniform(-0.3, 0.3)
                d = c * r * 0.45
                pygame.draw.circle(s, col, (c + d * math.cos(a), c + d * math.sin(a)), c * r * 0.55)
    else:
        for i in range(7):
            a = 2 * math.pi * i / 7 + rng.uniform(-0.3, 0.3)
            end = (c + c * 0.9 * math.cos(a), c + c * 0.9 * math.sin(a))
            pygame.draw.line(s, (78, 66, 50), (c, c), end, SS * 3)
            mid = (c + c * 0.55 * math.cos(a), c + c * 0.55 * math.sin(a))
            pygame.draw.line(s, (92, 80, 62), mid, (mid[0] + c * 0.3 * math.cos(a + 0.7),
                                                    mid[1] + c * 0.3 * math.sin(a + 0.7)), SS * 2)
        pygame.draw.circle(s, (70, 58, 44), (c, c), c * 0.16)
    return _reduce(s)


def btr() -> pygame.Surface:
    """The disabled eight-wheeled APC, 5.5" x 2.25", nose to the right (+x): olive hull, rust, open hatches."""
    import pygame

    s = _canvas(5.5, 2.25)
    k = PPI * SS
    olive, dark = (86, 92, 60), (52, 56, 38)
    for i in range(4):  # wheels peeking out on both sides
        for y in (0.02, 1.93):
            pygame.draw.rect(s, (34, 34, 32), pygame.Rect(round((0.7 + i * 1.15) * k), round(y * k), round(0.8 * k),
                                                          round(0.3 * k)), border_radius=SS * 3)
    hull = [(0.0, 0.3), (0.3, 0.125), (4.65, 0.125), (5.5, 0.575), (5.5, 1.675), (4.65, 2.125), (0.3, 2.125),
            (0.0, 1.95)]
    pygame.draw.polygon(s, olive, [(x * k, y * k) for x, y in hull])
    pygame.draw.polygon(s, dark, [(x * k, y * k) for x, y in hull], SS * 2)
    pygame.draw.polygon(s, shade(olive, 0.12), [(x * k, y * k) for x, y in
                                               ((4.65, 0.4), (5.25, 0.75), (5.25, 1.5), (4.65, 1.85))])
    rng = _rng("btr")
    for _ in range(14):  # rust and scorch
        x, y = rng.uniform(0.4, 5.0), rng.uniform(0.3, 1.9)
        pygame.draw.circle(s, RUST if rng.random() < 0.6 else (40, 40, 34), (x * k, y * k), rng.uniform(0.06, 0.2) * k)
    pygame.draw.circle(s, dark, (3.3 * k, 1.125 * k), 0.55 * k)  # turret
    pygame.draw.circle(s, shade(olive, -0.1), (3.3 * k, 1.125 * k), 0.47 * k)
    pygame.draw.line(s, dark, (3.7 * k, 1.125 * k), (5.6 * k, 1.125 * k), SS * 4)  # gun
    for x, y in ((1.2, 0.7), (1.2, 1.55), (2.2, 0.7)):
        pygame.draw.rect(s, dark, pygame.Rect(round(x * k), round(y * k) - SS * 6, round(0.5 * k), SS * 12))
    pygame.draw.circle(s, (30, 30, 28), (2.45 * k, 1.55 * k), 0.18 * k)  # the open hatch
    return _reduce(s)


def car() -> pygame.Surface:
    """A burnt-out saloon, 3.5" x 1.5", nose right: rust shell, empty windscreens."""
    import pygame

    s = _canvas(3.5, 1.5)
    k = PPI * SS
    body = pygame.Rect(0, round(0.05 * k), round(3.5 * k), round(1.4 * k))
    pygame.draw.rect(s, (112, 70, 50), body, border_radius=round(0.35 * k))
    pygame.draw.rect(s, (60, 40, 32), body, SS * 2, border_radius=round(0.35 * k))
    pygame.draw.rect(s, (46, 40, 36), pygame.Rect(round(1.0 * k), round(0.25 * k), round(1.5 * k), round(1.0 * k)),
                     border_radius=SS * 4)
    pygame.draw.rect(s, (84, 80, 72), pygame.Rect(round(1.25 * k), round(0.35 * k), round(1.0 * k), round(0.8 * k)))
    rng = _rng("car")
    for _ in range(10):
        pygame.draw.circle(s, (74, 46, 34), (rng.uniform(0.2, 3.3) * k, rng.uniform(0.2, 1.3) * k),
                           rng.uniform(2, 6) * SS)
    return _reduce(s)


def tank_top() -> pygame.Surface:
    """The water tower's tank seen from above, 4" across: riveted rusty steel, a roof hatch."""
    import pygame

    s = _canvas(4.0, 4.0)
    c = s.get_width() / 2
    pygame.draw.circle(s, (92, 96, 90), (c, c), c)
    rng = _rng("tank")
    for _ in range(30):
        pygame.draw.circle(s, RUST, (c + rng.uniform(-0.7, 0.7) * c, c + rng.uniform(-0.7, 0.7) * c),
                           rng.uniform(3, 9) * SS)
    for r in (0.96, 0.62, 0.3):
        pygame.draw.circle(s, (64, 66, 62), (c, c), c * r, SS * 2)
    for i in range(24):
        a = 2 * math.pi * i / 24
        pygame.draw.circle(s, (60, 60, 56), (c + 0.9 * c * math.cos(a), c + 0.9 * c * math.sin(a)), SS * 1.5)
    pygame.draw.rect(s, (48, 48, 46), pygame.Rect(round(c * 1.3), round(c * 0.85), round(c * 0.35), round(c * 0.3)))
    return _reduce(s)


def drums() -> pygame.Surface:
    """Three oil drums, 1.6" x 1.2": rusty lids with bungs."""
    import pygame

    s = _canvas(1.6, 1.2)
    k = PPI * SS
    for x, y, col in ((0.45, 0.42, (70, 88, 66)), (1.15, 0.45, RUST), (0.8, 0.85, (90, 72, 52))):
        pygame.draw.circle(s, shade(col, -0.3), (x * k, y * k), 0.36 * k)
        pygame.draw.circle(s, col, (x * k, y * k), 0.32 * k)
        pygame.draw.circle(s, shade(col, -0.3), (x * k, y * k), 0.22 * k, SS)
        pygame.draw.circle(s, INK, ((x + 0.12) * k, (y - 0.1) * k), SS * 2.5)
    return _reduce(s)


def campfire() -> pygame.Surface:
    """A ring of stones round ash and embers, 1" across (embers in dull red, not hazard yellow)."""
    import pygame

    s = _canvas(1.0, 1.0)
    c = s.get_width() / 2
    pygame.draw.circle(s, (58, 52, 46), (c, c), c * 0.7)
    pygame.draw.circle(s, (150, 60, 36), (c, c), c * 0.3)
    for i in range(9):
        a = 2 * math.pi * i / 9
        pygame.draw.circle(s, (126, 124, 116), (c + c * 0.78 * math.cos(a), c + c * 0.78 * math.sin(a)), c * 0.2)
    return _reduce(s)


def crates() -> pygame.Surface:
    """Two wooden crates, 2" x 1", planked lids with cross braces."""
    import pygame

    s = _canvas(2.0, 1.0)
    k = PPI * SS
    for x in (0.02, 1.02):
        r = pygame.Rect(round(x * k), round(0.02 * k), round(0.96 * k), round(0.96 * k))
        pygame.draw.rect(s, (138, 110, 72), r)
        for j in range(1, 4):
            pygame.draw.line(s, (100, 78, 50), (r.x, r.y + r.h * j // 4), (r.right, r.y + r.h * j // 4), SS)
        pygame.draw.line(s, (92, 70, 44), r.topleft, r.bottomright, SS * 3)
        pygame.draw.rect(s, (72, 56, 38), r, SS * 3)
    return _reduce(s)


OBJECTS: dict[str, Callable[[], pygame.Surface]] = {
    "tree-pine": lambda: tree(11, "pine"), "tree-pine-2": lambda: tree(12, "pine"),
    "tree-birch": lambda: tree(21, "birch"), "tree-birch-2": lambda: tree(22, "birch"),
    "tree-dead": lambda: tree(31, "dead"),
    "btr": btr, "car-wreck": car, "water-tower": tank_top, "drums": drums, "campfire": campfire, "crates": crates,
}


def write_all(root: Path) -> list[Path]:
    """Draw every sprite and save it under root (sprites/): terrain/, objects/, tokens/."""
    import pygame

    from game.tools.sprite_tokens import token_sprites

    written = []
    groups = {"terrain": terrain_sprites(), "objects": {n: f() for n, f in OBJECTS.items()}, "tokens": token_sprites()}
    for group, sprites in groups.items():
        for name, surf in sprites.items():
            path = root / group / f"{name}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(surf, str(path))
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "sprites")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    written = write_all(args.out)
    total = sum(p.stat().st_size for p in written)
    print(f"wrote {len(written)} sprites under {args.out} ({total / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
