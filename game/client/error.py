"""The error screen: what went wrong, named (the file, the field, the problem), and the way back to the menu."""
from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from game.client.scene import Scene
from game.client.theme import THEME, font

if TYPE_CHECKING:
    import pygame

    from game.client.app import App


class ErrorScene(Scene):
    """A title, the message wrapped to the window, and "Back to the menu" (Enter, Escape or a click)."""

    name = "error"

    def __init__(self, app: App, title: str, message: str) -> None:
        super().__init__(app)
        self.title, self.message = title, message
        self.button: pygame.Rect | None = None

    def handle(self, ev: pygame.event.Event) -> None:
        pg = self.app.pg
        back = (ev.type == pg.KEYDOWN and ev.key in (pg.K_RETURN, pg.K_KP_ENTER, pg.K_ESCAPE, pg.K_SPACE)) or (
            ev.type == pg.MOUSEBUTTONUP and getattr(ev, "button", 0) == 1 and self.button is not None
            and self.button.collidepoint(ev.pos))
        if back:
            self.app.title()

    def draw(self, surface: pygame.Surface) -> None:
        pg = self.app.pg
        w, h = surface.get_size()
        surface.fill(THEME.frame)
        big, body = font(30, bold=True), font(18)
        y = h // 5
        surface.blit(big.render(self.title, True, THEME.badge_wounded), (w // 10, y))
        y += 56
        cols = max(30, int((w * 0.8) / max(1, body.size("n")[0])))
        for para in self.message.split("\n"):
            for line in textwrap.wrap(para, cols) or [""]:
                surface.blit(body.render(line, True, THEME.ink), (w // 10, y))
                y += body.get_linesize()
        label = font(20, bold=True).render("Back to the menu  (Enter)", True, THEME.ink)
        self.button = label.get_rect(topleft=(w // 10, min(h - 80, y + 30))).inflate(24, 14)
        pg.draw.rect(surface, THEME.panel_hi, self.button, border_radius=6)
        pg.draw.rect(surface, THEME.panel_edge, self.button, 2, border_radius=6)
        surface.blit(label, label.get_rect(center=self.button.center))
