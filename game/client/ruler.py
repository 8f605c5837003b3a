"""The ruler's panel and board line: draws `game.core.rules.ruler.measure`'s answer, computes no rule."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from game.client.theme import THEME, font
from game.client.widget import Static

if TYPE_CHECKING:
    import pygame

    from game.client.camera import Camera
    from game.client.widget import Shared
    from game.core.events import Event
    from game.core.rules.ruler import Ruler
    from game.core.state import GameState

WIDTH, HEIGHT, PAD = 320, 170, 8
BLOCKER = THEME.badge_wounded  # the blocking piece: the warning colour


class RulerView(Static):
    """A panel: the distance in inches, the LOS verdict, and the side view (x along the line, y height)."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.rect: pygame.Rect | None = None
        self.ruler: Ruler | None = None

    def show(self, ruler: Ruler | None) -> None:
        self.ruler = ruler

    def layout(self, rect: pygame.Rect) -> None:
        import pygame

        self.rect = pygame.Rect(rect)

    def feed(self, events: Sequence[Event], state: GameState) -> None:
        if events:
            self.ruler = None

    def lines(self) -> list[str]:
        r = self.ruler
        if r is None:
            return []
        out = [f"{r.distance:.1f}\""]
        if r.los is not None:
            out.append("LOS clear" if r.los.visible else f"LOS blocked by {self._name(r.blocking)}")
        return out

    def _name(self, pid: int | None) -> str:
        assert self.ruler is not None
        for s in self.ruler.profile:
            if s.piece_id == pid:
                return s.name or s.kind or str(pid)
        return str(pid)

    def draw(self, surface: pygame.Surface) -> None:
        import pygame

        r = self.ruler
        if r is None or self.rect is None:
            return
        x0, y0 = self.rect.topleft
        pygame.draw.rect(surface, THEME.panel, (x0, y0, WIDTH, HEIGHT), border_radius=8)
        y = y0 + PAD
        for i, text in enumerate(self.lines()):
            img = font(20 if i == 0 else 14, bold=i == 0).render(text, True, THEME.ink)
            surface.blit(img, (x0 + PAD, y))
            y += img.get_height()
        box = pygame.Rect(x0 + PAD, y + 4, WIDTH - 2 * PAD, y0 + HEIGHT - PAD - y - 4)
        pygame.draw.rect(surface, THEME.panel_hi, box)
        tops = [s.top for s in r.profile] + [e for e in (r.eye_a, r.eye_b) if e is not None] + [1.0]
        zmax = max(tops) * 1.1
        length = max(r.length, 1e-6)

        def at(d: float, z: float) -> tuple[int, int]:
            return (round(box.left + d / length * box.width), round(box.bottom - z / zmax * box.height))

        for s in r.profile:
            (left, top), (right, bottom) = at(s.start_in, s.top), at(s.end_in, s.bottom)
            colour = BLOCKER if s.piece_id == r.blocking else THEME.panel_edge
            pygame.draw.rect(surface, colour, (left, top, max(1, right - left), max(1, bottom - top)))
        ends = [(0.0, r.ground_a, r.eye_a), (r.length, r.ground_b, r.eye_b)]
        for d, ground, eye in ends:
            if eye is not None:
                pygame.draw.line(surface, THEME.selection, at(d, ground), at(d, eye), 3)
        if r.eye_a is not None and r.eye_b is not None:
            line = THEME.los_clear if r.blocking is None else THEME.los_blocked
            pygame.draw.line(surface, line, at(0.0, r.eye_a), at(r.length, r.eye_b), 1)


def draw_ruler_line(surface: pygame.Surface, camera: Camera, ruler: Ruler, ends: tuple[tuple[float, float],
                    tuple[float, float]]) -> None:
    """The ruler on the board, centre to centre between `ends` (table inches), its GEO-4 length at the middle."""
    import pygame

    a, b = camera.to_screen(ends[0]), camera.to_screen(ends[1])
    pygame.draw.line(surface, THEME.los_clear, a, b, 2)
    img = font(16, bold=True).render(f"{ruler.distance:.1f}\"", True, THEME.ink)
    surface.blit(img, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
