"""The exposure panel (issue 18): what a destination would cost the selected model, from the core's
`game.core.odds.danger.exposure_at` (who sees it, its cover, the odds of a Wound, in the open, would be targeted),
and the small cover badges (none/soft/hard/hardened) beside each enemy token from `danger.cover_icons`. It computes
no rule: it draws the core's answers."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from game.client.theme import THEME, font
from game.client.widget import Static
from game.core.battlefield import Cover
from game.core.odds.danger import Exposure
from game.core.state import GameState

if TYPE_CHECKING:
    import pygame

    from game.client.camera import Camera
    from game.client.widget import Shared
    from game.core.events import Event

WIDTH = 300
PAD = 8
LETTER = {Cover.NONE: "N", Cover.OBSTRUCTION: "N", Cover.SOFT: "S", Cover.HARD: "H", Cover.HARDENED: "X"}
COLOUR = {Cover.NONE: THEME.badge_wounded, Cover.OBSTRUCTION: THEME.badge_wounded, Cover.SOFT: THEME.template,
          Cover.HARD: THEME.die_hit, Cover.HARDENED: THEME.path}


def threat_lines(exposure: Exposure | None) -> list[tuple[str, bool]]:
    """The panel's text lines, top to bottom, each with whether it is bold."""
    if exposure is None:
        return []
    out: list[tuple[str, bool]] = [(f"Exposure of {exposure.model} here", True)]
    if not exposure.threats:
        out.append(("no enemy sees you here", False))
    for t in exposure.threats:
        out.append((f"{t.unit} ({t.kind})", True))
        word = "in cover: " + t.cover.value if t.cover in (Cover.SOFT, Cover.HARD, Cover.HARDENED) else "no cover"
        odds = f"Wound {t.p_wound * 100:.0f}%" if t.p_wound > 0 else "no shot"
        out.append((f"  sees you: {len(t.shooters)}  {word}  {odds}", False))
        if t.in_open and t.kind == "hostile":  # the hostiles' targeting prefers those in the open (AI-D.01)
            out.append(("  in the open (AI-D.01)", False))
        if t.would_target:
            out.append(("  would be targeted", True))
    return out


class ExposurePanel(Static):
    """The exposure panel (Widget): one block per threat; hidden without an exposure. Cached until it changes."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.rect: pygame.Rect | None = None
        self.exposure: Exposure | None = None
        self._img: pygame.Surface | None = None

    def show(self, exposure: Exposure | None) -> None:
        """Show an exposure (None hides the panel)."""
        if exposure != self.exposure:
            self.exposure = exposure
            self._img = None

    def layout(self, rect: pygame.Rect) -> None:
        import pygame

        self.rect = pygame.Rect(rect)

    def feed(self, events: Sequence[Event], state: GameState) -> None:
        """An exposure belongs to the state it was made on: any applied action hides it."""
        if events and self.exposure is not None:
            self.show(None)

    def lines(self) -> list[str]:
        return [s for s, _ in threat_lines(self.exposure)]

    def draw(self, surface: pygame.Surface) -> None:
        if self.rect is None or self.exposure is None:
            return
        if self._img is None:
            self._img = self._picture()
        surface.blit(self._img, self.rect.topleft, (0, 0, self.rect.width, self.rect.height))

    def _picture(self) -> pygame.Surface:
        import pygame

        rows = threat_lines(self.exposure)
        fonts = [font(14, bold) for _, bold in rows]
        h = PAD * 2 + sum(f.get_linesize() for f in fonts)
        img = pygame.Surface((WIDTH, h), pygame.SRCALPHA)
        pygame.draw.rect(img, (*THEME.panel, 242), img.get_rect(), border_radius=8)
        pygame.draw.rect(img, THEME.panel_edge, img.get_rect(), width=1, border_radius=8)
        y = PAD
        for (text, bold), f in zip(rows, fonts, strict=True):
            img.blit(f.render(text, True, THEME.ink if bold else THEME.dim_ink), (PAD, y))
            y += f.get_linesize()
        return img


def draw_cover_icons(surface: pygame.Surface, camera: Camera, state: GameState, icons: dict[str, Cover]) -> None:
    """A small badge (N none, S soft, H hard, X hardened) at the upper left of each enemy token, placed through the
    camera as the tokens are."""
    import pygame

    size = max(10, int(camera.ppi * 0.45))
    f = font(max(8, size - 3), True)
    for mid, cov in icons.items():
        m = state.models.get(mid)
        if m is None:
            continue
        cx, cy = camera.to_screen((m.x, m.y))
        r = m.radius * camera.ppi
        at = (int(cx - r * 0.8 - size / 2), int(cy - r * 0.8 - size / 2))
        rect = pygame.Rect(at, (size, size))
        pygame.draw.rect(surface, COLOUR[cov], rect, border_radius=3)
        pygame.draw.rect(surface, THEME.hostile_rim, rect, width=1, border_radius=3)
        t = f.render(LETTER[cov], True, THEME.dark_ink)
        surface.blit(t, t.get_rect(center=rect.center))
