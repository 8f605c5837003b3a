"""The one shape every part of the battle screen has (board, dice tray, log, strip, HUD), so scenes compose them.

A widget is fed the core's events as they are applied, lays itself out in a screen rectangle, handles input it
owns, advances its animations by a time step and draws itself; it never computes a rule (it reads the state and
the events the core produced).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import pygame

    from game.core.events import Event
    from game.core.state import GameState


class Widget(Protocol):
    def layout(self, rect: pygame.Rect) -> None:
        """Take this screen rectangle (called on start and on every window resize)."""

    def feed(self, events: Sequence[Event], state: GameState) -> None:
        """The events one applied action produced, and the state after it."""

    def handle(self, ev: pygame.event.Event) -> bool:
        """React to an input event; True when the widget used it (the scene stops passing it on)."""

    def update(self, dt: float) -> None:
        """Advance animations by dt seconds (a fixed step under --screenshot)."""

    @property
    def busy(self) -> bool:
        """True while an animation the viewer should see finish is playing (autoplay waits at normal speed)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw into the rectangle given by `layout`."""


class Shared:
    """What the battle screen's widgets share, so one can point at what another shows: the models highlighted (a
    log line selected, an attack's models), a table point to bring into view, the whole event log so far, and
    which side ids are crews (their index picks the side colour) and which are hostile forces."""

    def __init__(self) -> None:
        self.highlight: frozenset[str] = frozenset()  # model ids
        self.focus: tuple[float, float] | None = None  # a table point in inches the board should centre on
        self.events: list[Event] = []  # every engine event so far, in order
        self.crews: list[str] = []  # crew side ids in scenario order (index 0 blue, 1 vermillion)
        self.paused: bool = False

    def side_index(self, side: str) -> int | None:
        """The crew index of a side (its colour), None for a hostile force."""
        return self.crews.index(side) if side in self.crews else None


class Static:
    """The Widget parts of a panel that takes no input and never animates (the HUD, the strip, the profile card,
    the attack preview): mix it in and write layout, feed and draw."""

    def handle(self, ev: pygame.event.Event) -> bool:
        return False

    def update(self, dt: float) -> None:
        """Nothing moves."""

    @property
    def busy(self) -> bool:
        return False


def opaque(size: tuple[int, int]) -> pygame.Surface:
    """A surface for a cached panel picture, in the window's pixel format when a window exists (fast blits)."""
    import pygame

    img = pygame.Surface(size)
    return img.convert() if pygame.display.get_surface() is not None else img
