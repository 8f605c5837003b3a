"""The dialogs over a dimmed scene: confirm (quit, back to the title) and pause."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from game.client.scene import Scene
from game.client.theme import THEME, font
from game.client.ui import Button, Buttons, Ink, dim, draw_button, panel, wrap

if TYPE_CHECKING:
    import pygame

    from game.client.app import App

# -- dialogs ----------------------------------------------------------------------------------------------------
class Dialog(Scene):
    """A box over the dimmed scene below (not opaque); its buttons take the keys and the mouse. A click outside
    does nothing."""

    opaque = False
    name = "dialog"

    def __init__(self, app: App, title: str, text: str, buttons: Sequence[Button], *, row: bool) -> None:
        super().__init__(app)
        self.title, self.text, self.row = title, text, row
        self.buttons = Buttons(buttons)
        self.ink = Ink()

    def close(self) -> None:
        if self.app.top is self:
            self.app.pop()

    def handle(self, ev: pygame.event.Event) -> None:
        self.buttons.handle(ev)

    def draw(self, surface: pygame.Surface) -> None:
        pg = self.app.pg
        self.ink.clear()
        i = self.app.stack.index(self) if self in self.app.stack else 0
        if i == 0 or self.app.stack[i - 1].opaque:  # dim once, not again under a dialog on a dialog
            dim(surface, 190)
        w, h = surface.get_size()
        bw = min(600, w - 80)
        body = font(17)
        lines = wrap(self.text, body, bw - 48) if self.text else []
        n = len(self.buttons.items)
        buttons_h = 48 if self.row else n * 54
        bh = 32 + 40 + len(lines) * body.get_linesize() + 24 + buttons_h + 28
        box = pg.Rect(0, 0, bw, bh)
        box.center = (w // 2, h // 2)
        panel(surface, box)
        self.ink.text(surface, self.title, (box.x + 24, box.y + 24), size=26, bold=True)
        y = box.y + 72
        for line in lines:
            self.ink.text(surface, line, (box.x + 24, y), size=17, colour=THEME.dim_ink)
            y += body.get_linesize()
        y += 24
        if self.row:
            each = min(220, (bw - 48 - 16 * (n - 1)) // n)
            x = box.right - 24 - n * each - (n - 1) * 16
            for k, b in enumerate(self.buttons.items):
                draw_button(surface, self.ink, b, pg.Rect(x + k * (each + 16), y, each, 44),
                            focused=k == self.buttons.focus)
        else:
            for k, b in enumerate(self.buttons.items):
                draw_button(surface, self.ink, b, pg.Rect(box.x + 48, y + k * 54, bw - 96, 44),
                            focused=k == self.buttons.focus)


class ConfirmDialog(Dialog):
    """A question with two answers: Enter presses the focused button (yes, unless the player moved to no), Escape
    is no (the dialog closes)."""

    name = "confirm"

    def __init__(self, app: App, title: str, text: str, *, yes: str, on_yes: Callable[[], None],
                 no: str = "Cancel") -> None:
        self.on_yes = on_yes
        super().__init__(app, title, text, [Button(yes, self._yes), Button(no, self.close)], row=True)

    def _yes(self) -> None:
        self.close()
        self.on_yes()

    def handle(self, ev: pygame.event.Event) -> None:
        pg = self.app.pg
        if ev.type == pg.KEYDOWN and getattr(ev, "key", None) == pg.K_ESCAPE:
            self.close()
            return
        super().handle(ev)


class PauseDialog(Dialog):
    """The game waits: Resume (Escape or P too), Back to the title (asked first: the game is not saved), Quit."""

    name = "pause"

    def __init__(self, app: App, on_resume: Callable[[], None] | None = None) -> None:
        self.on_resume = on_resume
        super().__init__(app, "Paused", "The battle waits until you resume.",
                         [Button("Resume", self.resume), Button("Back to the title", self._to_title),
                          Button("Quit", app.ask_quit)], row=False)

    def resume(self) -> None:
        self.close()
        if self.on_resume is not None:
            self.on_resume()

    def _to_title(self) -> None:
        self.app.push(ConfirmDialog(self.app, "Back to the title?", "The game in progress is not saved (saves "
                                    "come later).", yes="Back to the title", on_yes=self.app.title))

    def handle(self, ev: pygame.event.Event) -> None:
        pg = self.app.pg
        if ev.type == pg.KEYDOWN and getattr(ev, "key", None) in (pg.K_ESCAPE, pg.K_p):
            self.resume()
            return
        super().handle(ev)


