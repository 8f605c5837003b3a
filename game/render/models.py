"""Models on a picture: each drawn once with its token sprite (sprites/tokens/), a ring in the colour of what the
overlays found for it, and one label with its name and every overlay's note (STYLE.md: tokens on round bases)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from game.core.battlefield import Base
from game.render.labels import Annotations
from game.render.placements import OTHER_SIDE, Table
from game.render.style import Colour, Overlay, ToPx

if TYPE_CHECKING:
    import pygame

SPRITES_DIR = Path(__file__).resolve().parents[2] / "sprites"
INK: Colour = (240, 236, 220)
DISC: Colour = (40, 40, 36)
CREW_TOKENS = ("leader", "veteran", "hardened", "rookie")  # side B has its own ring colour: tokens/side-b/


def ppi_of(to_px: ToPx) -> float:
    """The scale of a picture in pixels per inch, read from its inches-to-pixels transform."""
    return to_px((1.0, 0.0))[0] - to_px((0.0, 0.0))[0]


def token_path(token: str | None, side: str) -> str | None:
    """The sprite of a catalog id on a side, relative to sprites/ (game/tools/sprite_tokens.py names them).

    >>> token_path("rookie", "crew"), token_path("rookie", "hostile"), token_path("bandit", "hostile")
    ('tokens/rookie', 'tokens/side-b/rookie', 'tokens/bandit')
    """
    if token is None:
        return None
    if token in CREW_TOKENS and side == OTHER_SIDE:
        return f"tokens/side-b/{token}"
    return f"tokens/{token}"


class Tokens:
    """Token sprites loaded from a sprites folder and scaled to a base diameter in pixels (cached); None when a
    sprite is missing or unreadable, so the model is drawn as a plain disc."""

    def __init__(self, root: Path = SPRITES_DIR) -> None:
        self.root = Path(root)
        self._cache: dict[tuple[str, int], pygame.Surface | None] = {}

    def image(self, rel: str | None, diameter_px: int) -> pygame.Surface | None:
        if rel is None or diameter_px < 4:
            return None
        key = (rel, diameter_px)
        if key not in self._cache:
            import pygame

            path = self.root / f"{rel}.png"
            try:
                img = pygame.image.load(str(path))
                self._cache[key] = pygame.transform.smoothscale(img, (diameter_px, diameter_px))
            except (pygame.error, OSError, ValueError):
                self._cache[key] = None
        return self._cache[key]


@dataclass
class Marks:
    """What the overlays found for each model: the ring colour (first overlay to set it wins) and notes."""

    rings: dict[str, Colour] = field(default_factory=dict)
    notes: dict[str, list[str]] = field(default_factory=dict)

    def ring(self, model: str, colour: Colour) -> None:
        self.rings.setdefault(model, colour)

    def note(self, model: str, text: str) -> None:
        seen = self.notes.setdefault(model, [])
        if text not in seen:
            seen.append(text)


def draw_token(surface: pygame.Surface, b: Base, to_px: ToPx, tokens: Tokens, rel: str | None,
               ring: Colour | None) -> tuple[float, float, float, float]:
    """A model's token (its sprite, or a plain disc when the sprite is missing) with an outer ring in `ring`;
    returns the pixel rectangle it covers."""
    import pygame

    c = to_px((b.x, b.y))
    r = max(3.0, b.radius * ppi_of(to_px))
    img = tokens.image(rel, max(1, round(2 * r)))
    if img is not None:
        surface.blit(img, img.get_rect(center=(round(c[0]), round(c[1]))))
    else:
        pygame.draw.circle(surface, DISC, c, r)
        pygame.draw.circle(surface, ring or INK, c, r, 3)
    if ring is not None and img is not None:
        pygame.draw.circle(surface, (20, 20, 18), c, r + 3, 2)
        pygame.draw.circle(surface, ring, c, r + 2, 2)
    rr = r + 4
    return (c[0] - rr, c[1] - rr, 2 * rr, 2 * rr)


def model_label(b: Base, notes: list[str]) -> str:
    """Name, the height stood on when off the ground, and the overlays' notes.

    >>> model_label(Base("raven", 1, 2, 3.25, 0.5, 1.25, "crew"), ["sees bandit"])
    'raven z3.25: sees bandit'
    """
    head = b.id + (f" z{b.z:g}" if b.z else "")
    return head + (": " + "; ".join(notes) if notes else "")


def models_overlay(table: Table, marks: Marks, notes: Annotations, tokens: Tokens) -> Overlay:
    """Every model of the table, once, on top of the other overlays; then every queued label and reasons box."""

    def draw(surface: pygame.Surface, to_px: ToPx) -> None:
        ppi = ppi_of(to_px)
        for b in table.models.values():
            kind = table.kinds.get(b.id)
            rect = draw_token(surface, b, to_px, tokens, token_path(kind.token if kind else None, b.side),
                              marks.rings.get(b.id))
            notes.taken.add(rect)
        for b in sorted(table.models.values(), key=lambda q: (q.y, q.x)):
            c = to_px((b.x, b.y))
            notes.label(model_label(b, marks.notes.get(b.id, [])), c, INK, size=13, prefer="above",
                        gap=b.radius * ppi + 3, priority=1)
        notes.flush(surface)

    return draw
