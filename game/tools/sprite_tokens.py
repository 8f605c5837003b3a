"""Model tokens: a round base of the model's size (GEO-3) with a side ring and one emblem per model type."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from game.tools.spritekit import BONE, HOSTILE, INK, SIDE_A, SIDE_B, Colour, polar, shade, star

TOKEN_PPI = 64  # px per inch of base diameter
SS = 4
CREW = ("leader", "veteran", "hardened", "rookie")  # catalog ids (game/data/recruits.toml)
HOSTILES = {  # catalog id (game/data/hostiles.toml) -> base diameter in inches (GEO-3, HOSTILE-8.3.STATS)
    "vermin": 1.6, "dogs": 1.0, "zombies": 1.0, "ghouls": 1.0, "bandit": 1.0, "mutant": 1.6, "large_mutant": 2.0,
}
BASE_FILL: Colour = (46, 46, 42)

if TYPE_CHECKING:
    import pygame


def _base(diameter_in: float, ring: Colour, *, notched: bool) -> tuple[pygame.Surface, float]:
    """The base disc with its side ring; hostile rings are notched so sides differ in shape too."""
    import pygame

    size = round(diameter_in * TOKEN_PPI * SS)
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    pygame.draw.circle(s, INK, (c, c), c)
    pygame.draw.circle(s, ring, (c, c), c - SS * 1.5)
    pygame.draw.circle(s, BASE_FILL, (c, c), c * 0.84)
    if notched:
        for i in range(8):
            a0 = i * 45 + 16
            pts = [(c, c)] + [polar(c, c, c * 1.02, a0 + t) for t in (0, 6, 13)]
            pygame.draw.polygon(s, INK, pts)
        pygame.draw.circle(s, BASE_FILL, (c, c), c * 0.84)
    return s, c


def _human(s: pygame.Surface, c: float, r: float, colour: Colour, *, arms_forward: bool = False) -> None:
    """A figure seen from above, facing +x: shoulders, head, and either a rifle or reaching arms."""
    import pygame

    pygame.draw.ellipse(s, colour,
                        pygame.Rect(round(c - r * 0.36), round(c - r * 0.78), round(r * 0.72), round(r * 1.56)))
    if arms_forward:
        for dy in (-0.52, 0.52):
            pygame.draw.line(s, colour, (c, c + dy * r), (c + r * 0.9, c + dy * r * 0.85), round(r * 0.22))
    pygame.draw.circle(s, shade(colour, -0.3), (c + r * 0.05, c), r * 0.36)
    pygame.draw.circle(s, colour, (c + r * 0.05, c), r * 0.29)


def _chevrons(s: pygame.Surface, c: float, r: float, n: int) -> None:
    import pygame

    w, h, t = r * 0.95, r * 0.42, r * 0.2
    top = c - (n * t * 1.35) / 2 - h * 0.3
    for i in range(n):
        y = top + i * t * 1.45
        pts = [(c - w / 2, y + h), (c, y), (c + w / 2, y + h), (c + w / 2, y + h + t), (c, y + t),
               (c - w / 2, y + h + t)]
        pygame.draw.polygon(s, BONE, pts)
        pygame.draw.polygon(s, INK, pts, SS * 2)


def crew_token(kind: str, ring: Colour) -> pygame.Surface:
    """Crew tokens share the human silhouette; the emblem is the rank: star, three, two or one chevron."""
    import pygame

    s, c = _base(1.0, ring, notched=False)
    r = c * 0.8
    _human(s, c, r, (92, 100, 70))
    if kind == "leader":
        pts = star(c, c, r * 0.78, r * 0.33)
        pygame.draw.polygon(s, BONE, pts)
        pygame.draw.polygon(s, INK, pts, SS * 2)
    else:
        _chevrons(s, c, r, {"veteran": 3, "hardened": 2, "rookie": 1}[kind])
    return s


def _dog(s: pygame.Surface, c: float, r: float) -> None:
    import pygame

    col = (184, 150, 108)
    for dx, dy in ((-0.4, -0.6), (-0.4, 0.6), (0.3, -0.58), (0.3, 0.58)):
        pygame.draw.line(s, shade(col, -0.2), (c + dx * r, c), (c + (dx + 0.12) * r, c + dy * r), round(r * 0.14))
    pygame.draw.ellipse(s, col, pygame.Rect(round(c - r * 0.66), round(c - r * 0.32), round(r * 1.25), round(r * 0.64)))
    pygame.draw.line(s, col, (c - r * 0.55, c), (c - r * 0.98, c - r * 0.36), round(r * 0.14))
    pygame.draw.circle(s, col, (c + r * 0.55, c), r * 0.3)
    pygame.draw.polygon(s, col, [(c + r * 0.7, c - r * 0.12), (c + r * 1.0, c - r * 0.05), (c + r * 1.0, c + r * 0.05),
                                 (c + r * 0.7, c + r * 0.12)])
    for sy in (-1, 1):
        pygame.draw.polygon(s, shade(col, -0.35), [(c + r * 0.45, c + sy * r * 0.15), (c + r * 0.38, c + sy * r * 0.42),
                                                   (c + r * 0.6, c + sy * r * 0.2)])


def _rats(s: pygame.Surface, c: float, r: float) -> None:
    import pygame

    col = (150, 140, 128)
    for ang, d in ((200, 0.45), (320, 0.5), (80, 0.42)):
        x, y = polar(c, c, r * d, ang)
        a = math.radians(ang + 100)
        ux, uy = math.cos(a), math.sin(a)
        body = [(x + ux * r * 0.28, y + uy * r * 0.28), (x - uy * r * 0.13, y + ux * r * 0.13),
                (x - ux * r * 0.22, y - uy * r * 0.22), (x + uy * r * 0.13, y - ux * r * 0.13)]
        pygame.draw.polygon(s, col, body)
        pygame.draw.circle(s, col, (x - ux * r * 0.08, y - uy * r * 0.08), r * 0.14)
        pygame.draw.line(s, shade(col, -0.3), (x - ux * r * 0.2, y - uy * r * 0.2),
                         (x - ux * r * 0.5 + uy * r * 0.1, y - uy * r * 0.5 - ux * r * 0.1), round(r * 0.04))
        pygame.draw.circle(s, INK, (x + ux * r * 0.2, y + uy * r * 0.2), r * 0.03)


def _bandit(s: pygame.Surface, c: float, r: float) -> None:
    import pygame

    _human(s, c, r, (158, 146, 112))
    pygame.draw.polygon(s, (52, 48, 42), [(c - r * 0.3, c - r * 0.26), (c + r * 0.34, c), (c - r * 0.3, c + r * 0.26)])
    a, b = (c - r * 0.75, c + r * 0.55), (c + r * 0.95, c - r * 0.35)  # the assault rifle, the bandits' emblem
    pygame.draw.line(s, INK, a, b, round(r * 0.3))
    pygame.draw.line(s, BONE, a, b, round(r * 0.18))
    mx, my = c + r * 0.2, c + r * 0.05
    pygame.draw.polygon(s, BONE, [(mx, my), (mx + r * 0.12, my - r * 0.06), (mx + r * 0.3, my + r * 0.3),
                                  (mx + r * 0.18, my + r * 0.36)])


def _ghoul(s: pygame.Surface, c: float, r: float) -> None:
    import pygame

    col = (206, 198, 164)
    pygame.draw.ellipse(s, col, pygame.Rect(round(c - r * 0.7), round(c - r * 0.62), round(r * 1.0), round(r * 1.24)))
    for k in range(4):  # the bent spine
        pygame.draw.circle(s, shade(col, -0.35), (c - r * 0.55 + k * r * 0.16, c), r * 0.06)
    for sy in (-1, 1):
        hx, hy = c + r * 0.45, c + sy * r * 0.5
        pygame.draw.line(s, col, (c - r * 0.1, c + sy * r * 0.45), (hx, hy), round(r * 0.2))
        for k in (-1, 0, 1):
            pygame.draw.line(s, INK, (hx, hy), (hx + r * 0.42, hy + k * r * 0.16 + sy * r * 0.05), round(r * 0.1))
            pygame.draw.line(s, BONE, (hx, hy), (hx + r * 0.4, hy + k * r * 0.16 + sy * r * 0.05), round(r * 0.05))
    pygame.draw.circle(s, shade(col, -0.3), (c + r * 0.3, c), r * 0.3)
    pygame.draw.circle(s, col, (c + r * 0.3, c), r * 0.24)
    for sy in (-1, 1):
        pygame.draw.circle(s, (200, 50, 40), (c + r * 0.42, c + sy * r * 0.1), r * 0.07)


def _zombie(s: pygame.Surface, c: float, r: float) -> None:
    import pygame

    col = (128, 158, 110)
    _human(s, c, r, col, arms_forward=True)
    for y0 in (-0.55, -0.15, 0.3):  # torn clothes
        pygame.draw.line(s, shade(col, -0.45), (c - r * 0.3, c + y0 * r), (c + r * 0.0, c + (y0 + 0.22) * r),
                         round(r * 0.07))


def _mutant(s: pygame.Surface, c: float, r: float, *, large: bool) -> None:
    import pygame

    col = (190, 128, 108) if not large else (150, 96, 96)
    dark = shade(col, -0.35)
    pygame.draw.ellipse(s, col, pygame.Rect(round(c - r * 0.45), round(c - r * 0.7), round(r * 0.9), round(r * 1.4)))
    arms = ((-0.55, 0.75), (0.55, 0.5)) if not large else ((-0.6, 0.8), (0.6, 0.8))
    for dy, ln in arms:
        end = (c + r * ln, c + dy * r * 1.1)
        pygame.draw.line(s, col, (c, c + dy * r * 0.7), end, round(r * (0.28 if ln > 0.6 else 0.18)))
        for k in (-1, 0, 1):
            pygame.draw.line(s, BONE, end, (end[0] + r * 0.22, end[1] + k * r * 0.1), round(r * 0.05))
    pygame.draw.circle(s, dark, (c + r * 0.15, c), r * 0.26)
    pygame.draw.circle(s, col, (c + r * 0.15, c), r * 0.2)
    if large:
        for sy in (-1, 1):  # horns
            pygame.draw.polygon(s, BONE, [(c + r * 0.1, c + sy * r * 0.15), (c + r * 0.25, c + sy * r * 0.2),
                                          (c + r * 0.05, c + sy * r * 0.55)])
        for k in range(5):
            x = c - r * 0.3 + k * r * 0.12
            pygame.draw.polygon(s, BONE, [(x, c - r * 0.05), (x - r * 0.06, c + r * 0.05), (x - r * 0.22, c)])
    for sy in (-1, 1):
        pygame.draw.circle(s, INK, (c + r * 0.26, c + sy * r * 0.08), r * 0.04)


def hostile_token(kind: str) -> pygame.Surface:
    """A hostile: notched reddish-purple ring, the creature's silhouette."""

    s, c = _base(HOSTILES[kind], HOSTILE, notched=True)
    r = c * 0.8
    emblems: dict[str, Callable[[pygame.Surface, float, float], None]] = {
        "dogs": _dog, "vermin": _rats, "bandit": _bandit, "ghouls": _ghoul, "zombies": _zombie,
        "mutant": lambda s_, c_, r_: _mutant(s_, c_, r_, large=False),
        "large_mutant": lambda s_, c_, r_: _mutant(s_, c_, r_, large=True)}
    emblems[kind](s, c, r)
    return s


def _reduce(s: pygame.Surface) -> pygame.Surface:
    import pygame

    w, h = s.get_size()
    return pygame.transform.smoothscale(s, (w // SS, h // SS))


def token_sprites() -> dict[str, pygame.Surface]:
    """Every token by relative name: crew on side A (`leader`), side B (`side-b/leader`), hostiles (`bandit`)."""
    out: dict[str, pygame.Surface] = {}
    for kind in CREW:
        out[kind] = _reduce(crew_token(kind, SIDE_A))
        out[f"side-b/{kind}"] = _reduce(crew_token(kind, SIDE_B))
    for kind in HOSTILES:
        out[kind] = _reduce(hostile_token(kind))
    return out
