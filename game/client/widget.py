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
