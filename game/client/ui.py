"""Small drawing helpers the menus share: text that remembers what it showed (the tests' text model), wrapping to a
pixel width, a dimmed backdrop, and a column of buttons with one keyboard focus and a mouse hover."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.client.theme import THEME, font

if TYPE_CHECKING:
    import pygame

    from game.render.style import Colour

Anchor = str  # a pygame.Rect attribute: "topleft", "center", "midtop", ...


class Ink:
    """Draws text with the shipped font and keeps every string drawn this frame in `shown` (a scene's text model:
    tests read it instead of pixels). `clear()` at the start of each frame."""

    def __init__(self) -> None:
        self.shown: list[str] = []
        self._cache: dict[tuple[str, int, bool, Colour], pygame.Surface] = {}

    def clear(self) -> None:
        self.shown = []
        if len(self._cache) > 600:  # a scene that shows many different strings (typing a seed) stays small
            self._cache.clear()

    def render(self, text: str, size: int, colour: Colour, *, bold: bool = False) -> pygame.Surface:
        key = (text, size, bold, colour)
        surf = self._cache.get(key)
        if surf is None:
            surf = self._cache[key] = font(size, bold).render(text, True, colour)
        return surf

    def text(self, surface: pygame.Surface, text: str, pos: tuple[float, float], *, size: int = 18,
             colour: Colour = THEME.ink, bold: bool = False, anchor: Anchor = "topleft") -> pygame.Rect:
        """Draw one line; returns where it went."""
        surf = self.render(text, size, colour, bold=bold)
        rect = surf.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
        surface.blit(surf, rect)
        self.shown.append(text)
        return rect

    def paragraph(self, surface: pygame.Surface, text: str, x: float, y: float, width: float, *, size: int = 16,
                  colour: Colour = THEME.ink, bold: bool = False, clip_bottom: float | None = None) -> float:
        """Draw `text` wrapped to `width` pixels from (x, y); returns the y under it. Lines below `clip_bottom`
        are counted but not drawn (a scrolled panel)."""
        f = font(size, bold)
        step = f.get_linesize()
        for line in wrap(text, f, width):
            if clip_bottom is None or y + step <= clip_bottom:
                if line:
                    self.text(surface, line, (x, y), size=size, colour=colour, bold=bold)
            y += step
        return y

    def has(self, needle: str) -> bool:
        """Whether a string drawn this frame contains `needle` (wrapped lines are joined by spaces)."""
        return needle in " ".join(self.shown) or any(needle in s for s in self.shown)


def wrap(text: str, fnt: pygame.font.Font, width: float) -> list[str]:
    """`text` broken into lines no wider than `width` pixels (a word longer than the width gets a line of its
    own); blank lines between paragraphs are kept."""
    out: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}" if line else word
            if not line or fnt.size(trial)[0] <= width:
                line = trial
            else:
                out.append(line)
                line = word
        out.append(line)
    return out


def dim(surface: pygame.Surface, alpha: int = 150) -> None:
    """Darken the whole surface (the scene under a dialog stays visible)."""
    import pygame

    veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((*THEME.frame, max(0, min(255, alpha))))
    surface.blit(veil, (0, 0))


def panel(surface: pygame.Surface, rect: pygame.Rect, *, edge: bool = True) -> None:
    """A flat panel with a thin edge."""
    import pygame

    pygame.draw.rect(surface, THEME.panel, rect, border_radius=8)
    if edge:
        pygame.draw.rect(surface, THEME.panel_edge, rect, 2, border_radius=8)


@dataclass(slots=True)
class Button:
    """A button: its label, what it does, whether it can be chosen (a greyed one shows `note` beside it), and
    where it was last drawn (None before the first frame)."""

    label: str
    on_press: Callable[[], None]
    enabled: bool = True
    note: str = ""
    rect: pygame.Rect | None = field(default=None, repr=False)


def draw_button(surface: pygame.Surface, ink: Ink, button: Button, rect: pygame.Rect, *, focused: bool,
                size: int = 20) -> None:
    """A button in `rect`: focused (keyboard or hover) lighter and outlined, greyed when it cannot be chosen."""
    import pygame

    button.rect = rect
    fill = THEME.panel_hi if focused and button.enabled else THEME.panel
    pygame.draw.rect(surface, fill, rect, border_radius=6)
    edge = THEME.ink if focused and button.enabled else THEME.panel_edge
    pygame.draw.rect(surface, edge, rect, 2, border_radius=6)
    colour = THEME.ink if button.enabled else THEME.dim_ink
    ink.text(surface, button.label, rect.center, size=size, colour=colour, bold=button.enabled, anchor="center")


class Buttons:
    """Buttons with one focus: Up/Down/Left/Right/Tab (Shift+Tab back) move it over the buttons that can be chosen,
    Enter/Space presses the focused one; the mouse moves the focus by hovering and presses by a click (pressed and
    released on the same button, so a click that opened this screen does not press a button of it)."""

    def __init__(self, buttons: Sequence[Button], *, focus: int = 0) -> None:
        self.items = list(buttons)
        self.focus = focus if 0 <= focus < len(self.items) and self.items[focus].enabled else self._next(0, 1)
        self._pressed: int | None = None

    def _next(self, start: int, step: int) -> int:
        n = len(self.items)
        for k in range(n):
            i = (start + step * k) % n
            if self.items[i].enabled:
                return i
        return 0

    def move(self, step: int) -> None:
        self.focus = self._next((self.focus + step) % max(1, len(self.items)), step)

    def at(self, pos: tuple[int, int]) -> int | None:
        for i, b in enumerate(self.items):
            if b.rect is not None and b.enabled and b.rect.collidepoint(pos):
                return i
        return None

    def press(self, i: int | None = None) -> None:
        b = self.items[self.focus if i is None else i]
        if b.enabled:
            b.on_press()

    def handle(self, ev: pygame.event.Event) -> bool:
        """One input event; True when it was a button's (focus moved, a button pressed)."""
        import pygame

        if ev.type == pygame.KEYDOWN:
            key, mod = getattr(ev, "key", None), getattr(ev, "mod", 0)
            if key in (pygame.K_UP, pygame.K_LEFT) or (key == pygame.K_TAB and mod & pygame.KMOD_SHIFT):
                self.move(-1)
            elif key in (pygame.K_DOWN, pygame.K_RIGHT, pygame.K_TAB):
                self.move(1)
            elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.press()
            else:
                return False
            return True
        pos = getattr(ev, "pos", None)
        if not isinstance(pos, tuple) or len(pos) != 2:
            return False
        hit = self.at(pos)
        if ev.type == pygame.MOUSEMOTION and hit is not None:
            self.focus = hit
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and getattr(ev, "button", 0) == 1:
            self._pressed = hit
            return hit is not None
        if ev.type == pygame.MOUSEBUTTONUP and getattr(ev, "button", 0) == 1:
            pressed, self._pressed = self._pressed, None
            if hit is not None and hit == pressed:
                self.focus = hit
                self.press(hit)
                return True
        return False


def fit(surf: pygame.Surface, box: tuple[int, int], *, cover: bool = False) -> pygame.Surface:
    """`surf` scaled to fit inside `box` (or to cover it), keeping its proportions."""
    import pygame

    w, h = surf.get_size()
    k = (max if cover else min)(box[0] / max(1, w), box[1] / max(1, h))
    return pygame.transform.smoothscale(surf, (max(1, round(w * k)), max(1, round(h * k))))


def clip(text: str, fnt: pygame.font.Font, width: int) -> str:
    """`text` shortened with an ellipsis to fit `width` pixels."""
    if fnt.size(text)[0] <= width:
        return text
    while text and fnt.size(text + "...")[0] > width:
        text = text[:-1]
    return text + "..."
