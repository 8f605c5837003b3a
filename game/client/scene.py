"""Scenes on a stack (title, scenario choice, battle, summary, dialogs, error): the top scene gets the input; the
scenes under a non-opaque one (a dialog) are drawn first. The App owns the stack; a scene only asks it to push,
pop or replace."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pygame

    from game.client.app import App


class Scene:
    """One screen. Subclasses override what they need; `opaque=False` lets the scene below show through."""

    opaque = True
    name = "scene"

    def __init__(self, app: App) -> None:
        self.app = app

    def enter(self) -> None:
        """Pushed on the stack, or uncovered again."""

    def leave(self) -> None:
        """Taken off the stack for good (stop workers, write what must be written)."""

    def layout(self, size: tuple[int, int]) -> None:
        """The window is this size now (start, resize)."""

    def handle(self, ev: pygame.event.Event) -> None:
        """One input event (only the top scene gets them)."""

    def update(self, dt: float) -> None:
        """Advance by dt seconds (only the top scene, and the battle under a dialog when it keeps running)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the whole window (or, for a non-opaque scene, over the scene below)."""
