"""Model tokens on the board (STYLE.md: miniatures on round bases): the token sprite of the model's type on a ring
of its side's colour, and badges on the base edge for Activated, Alert, Pinned xN, Wounded and Out of Action, all
read from the state (CORE-3.3.ALERT, COMBAT-4.4.PIN-CAP, COMBAT-4.3.WOUND, COMBAT-4.4.OOA)."""
from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from game.client.theme import THEME, Colour, font
from game.core.state import GameState, ModelState

if TYPE_CHECKING:
    import pygame

CREW_TOKENS = ("leader", "veteran", "hardened", "rookie")
MAX_IMAGES = 256


def token_rel(st: GameState, m: ModelState, crew_index: int | None) -> str | None:
    """The token sprite of a model, relative to sprites/ (game/tools/sprite_tokens.py): a crew model by its level
    (the Leader's star, the chevrons of experience), the second crew's with its own ring colour; a hostile by its
    catalog id."""
    if crew_index is None:
        force = st.forces.get(m.side)
        return f"tokens/{force.hostile}" if force is not None else None
    kind = "leader" if m.profile.leader else m.profile.experience
    if kind not in CREW_TOKENS:
        return None
    return f"tokens/side-b/{kind}" if crew_index % 2 == 1 else f"tokens/{kind}"


class TokenArt:
    """Token sprites scaled to a base diameter in pixels (cached, least recently used dropped)."""

    def __init__(self) -> None:
        from game.render.models import SPRITES_DIR

        self.root = SPRITES_DIR
        self._cache: OrderedDict[tuple[str, int], pygame.Surface | None] = OrderedDict()
        self._sources: dict[str, pygame.Surface | None] = {}  # each sprite file read once

    def image(self, rel: str | None, diameter: int) -> pygame.Surface | None:
        if rel is None or diameter < 4:
            return None
        key = (rel, diameter)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        import pygame

        if rel not in self._sources:
            try:
                loaded = pygame.image.load(str(self.root / f"{rel}.png"))
                self._sources[rel] = loaded.convert_alpha() if pygame.display.get_surface() is not None else loaded
            except (pygame.error, OSError, ValueError):
                self._sources[rel] = None
        src = self._sources[rel]
        img = None if src is None else pygame.transform.smoothscale(src, (diameter, diameter))
        self._cache[key] = img
        if len(self._cache) > MAX_IMAGES:
            self._cache.popitem(last=False)
        return img


def draw_token(surface: pygame.Surface, art: TokenArt, st: GameState, m: ModelState, centre: tuple[float, float],
               ppi: float, colour: Colour, crew_index: int | None, *, ring: Colour | None = None) -> float:
    """One model at a screen point: sprite (or a disc in its side colour), an extra ring when `ring` is given
    (highlight, the acting unit), and its badges. Returns the token's radius in pixels."""
    import pygame

    r = max(4.0, m.profile.base_diameter / 2 * ppi)
    cx, cy = round(centre[0]), round(centre[1])
    img = art.image(token_rel(st, m, crew_index), max(4, round(2 * r)))
    if img is not None:
        surface.blit(img, img.get_rect(center=(cx, cy)))
    else:
        pygame.draw.circle(surface, THEME.hostile_rim, (cx, cy), r)
        pygame.draw.circle(surface, colour, (cx, cy), r, max(2, round(r / 4)))
    if m.ooa:
        shade = pygame.Surface((round(2 * r) + 2, round(2 * r) + 2), pygame.SRCALPHA)
        pygame.draw.circle(shade, (0, 0, 0, 150), (r + 1, r + 1), r)
        surface.blit(shade, (cx - r - 1, cy - r - 1))
        k = r * 0.55
        pygame.draw.line(surface, THEME.badge_wounded, (cx - k, cy - k), (cx + k, cy + k), max(2, round(r / 5)))
        pygame.draw.line(surface, THEME.badge_wounded, (cx - k, cy + k), (cx + k, cy - k), max(2, round(r / 5)))
    if ring is not None:
        pygame.draw.circle(surface, THEME.hostile_rim, (cx, cy), r + 4, 2)
        pygame.draw.circle(surface, ring, (cx, cy), r + 3, 2)
    _badges(surface, st, m, (cx, cy), r)
    return r


def _badge(surface: pygame.Surface, at: tuple[float, float], size: float, colour: Colour, text: str = "") -> None:
    import pygame

    pygame.draw.circle(surface, THEME.hostile_rim, at, size + 1)
    pygame.draw.circle(surface, colour, at, size)
    if text and size >= 5:
        img = font(max(8, round(size * 1.5)), bold=True).render(text, True, THEME.dark_ink)
        surface.blit(img, img.get_rect(center=(round(at[0]), round(at[1]))))


def badges_of(st: GameState, m: ModelState) -> list[tuple[str, str]]:
    """The badges a model shows, as (kind, text): activated, alert, pinned (count), wounded (Wounds taken), ooa."""
    u = st.units.get(m.unit)
    out: list[tuple[str, str]] = []
    if m.ooa:
        out.append(("ooa", ""))
    if u is not None and u.pins:
        out.append(("pinned", str(u.pins)))
    if m.wounds_taken and not m.ooa:
        out.append(("wounded", str(m.wounds_taken)))
    if u is not None and u.alert:
        out.append(("alert", "!"))
    if u is not None and u.activated:
        out.append(("activated", ""))
    return out


_BADGE_COLOURS = {"pinned": THEME.badge_pinned, "wounded": THEME.badge_wounded, "alert": THEME.badge_alert,
                  "activated": THEME.badge_activated, "ooa": THEME.badge_ooa}
# badge places on the base edge, clockwise from the top right (degrees; y down)
_SLOTS = (-45.0, 45.0, 135.0, -135.0, 0.0)


def _badges(surface: pygame.Surface, st: GameState, m: ModelState, c: tuple[int, int], r: float) -> None:
    import math

    if r < 7:
        return  # too small to read: the ring and the sprite say enough
    size = max(4.0, min(9.0, r * 0.32))
    for k, (kind, text) in enumerate(b for b in badges_of(st, m) if b[0] != "ooa"):
        a = math.radians(_SLOTS[k % len(_SLOTS)])
        at = (c[0] + r * math.cos(a), c[1] + r * math.sin(a))
        _badge(surface, at, size, _BADGE_COLOURS[kind], text)
