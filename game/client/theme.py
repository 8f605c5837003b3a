"""The client's look (STYLE.md "Look and feel"): one colour per meaning, side colours a colour-blind player can
tell apart (Okabe-Ito hues: blue, vermillion, and reddish purple for the Zone), the shipped font family.
Pure data, and `font`, which loads pygame only when called.

Every widget takes its colours and fonts from here, so the same colour means the same thing everywhere.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.render.style import BOLD_FONT_FILE, FONT_FILE, PALETTE, Colour, font_path

if TYPE_CHECKING:
    import pygame

__all__ = ["THEME", "Theme", "font", "font_file", "side_colour"]


@dataclass(frozen=True, slots=True)
class Theme:
    """Colours by meaning. Sides: crew 1 blue, crew 2 vermillion, hostiles reddish purple with a dark rim, as the
    token sprites' rings are drawn (game/tools/sprite_tokens.py; Okabe-Ito: the three stay apart under protanopia,
    deuteranopia and tritanopia). A hostile's leash ring and lock line are its intent, so they take its colour.
    Hazard yellow and anomaly cyan are kept for what the player must notice (Hot Spots, Reaction Radii,
    anomalies); nothing else uses them."""

    # panels and text
    panel: Colour = (34, 36, 31)
    panel_edge: Colour = (78, 82, 66)
    panel_hi: Colour = (52, 56, 46)
    ink: Colour = PALETTE.ink
    dim_ink: Colour = (160, 158, 140)
    dark_ink: Colour = PALETTE.dark_ink
    frame: Colour = PALETTE.frame
    # sides (bases, rings, log names)
    crew_a: Colour = (0, 114, 178)       # Okabe-Ito blue
    crew_b: Colour = (213, 94, 0)        # Okabe-Ito vermillion
    hostile: Colour = (204, 121, 167)    # Okabe-Ito reddish purple, drawn with a dark rim
    hostile_rim: Colour = (40, 36, 30)
    # overlays, each one meaning
    hazard: Colour = PALETTE.hazard      # Hot Spots, Reaction Radii
    anomaly: Colour = PALETTE.anomaly    # anomalies
    objective: Colour = (240, 228, 66)   # the Mission Objective marker (Okabe-Ito yellow, outlined dark)
    leash: Colour = (204, 121, 167)      # a hostile's leash ring and its lock line: the hostile's colour
    los_clear: Colour = (245, 245, 235)  # a line of sight that is open
    los_blocked: Colour = (120, 120, 120)
    template: Colour = (230, 159, 0)     # blast and flame templates (Okabe-Ito orange)
    smoke: Colour = (200, 200, 200)
    path: Colour = (86, 180, 233)        # a move's real path (Okabe-Ito sky blue)
    selection: Colour = (255, 255, 255)
    # dice
    die_face: Colour = (236, 232, 214)
    die_hit: Colour = (0, 158, 115)      # Okabe-Ito bluish green
    die_crit: Colour = (240, 228, 66)
    die_miss: Colour = (120, 118, 108)
    # badges
    badge_activated: Colour = (110, 110, 104)
    badge_alert: Colour = (86, 180, 233)
    badge_pinned: Colour = (230, 159, 0)
    badge_wounded: Colour = (213, 94, 0)
    badge_ooa: Colour = (20, 20, 20)


THEME = Theme()


def side_colour(side_index: int | None, theme: Theme = THEME) -> Colour:
    """The colour of a side: crew 0 blue, crew 1 vermillion, None (a hostile force) reddish purple."""
    if side_index is None:
        return theme.hostile
    return theme.crew_a if side_index % 2 == 0 else theme.crew_b


def font_file(bold: bool = False) -> str:
    """The shipped font (game/assets/fonts): every text of the client uses this one family."""
    return font_path(BOLD_FONT_FILE if bold else FONT_FILE)


_FONTS: dict[tuple[int, bool], object] = {}


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The shipped font at a pixel size (cached; pygame.font must be initialised)."""
    import pygame

    key = (max(6, int(size)), bold)
    f = _FONTS.get(key)
    if f is None:
        f = _FONTS[key] = pygame.font.Font(font_file(bold), key[0])
    return f  # type: ignore[return-value]
