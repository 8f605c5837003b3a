"""The window and its frame loop: the scene stack, input, a fixed time step under --screenshot, and the last line of
defence (a scene that raises is replaced by the error scene; the client never crashes)."""
from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from game.client.scene import Scene

if TYPE_CHECKING:
    import pygame

    from game.client.setup import GameSetup

MIN_SIZE = (960, 600)
DEFAULT_SIZE = (1280, 720)
FPS = 60


class App:
    """Owns the window and the stack of scenes. `fixed_dt` (seconds): every frame advances exactly that much time
    and the loop never sleeps, so frame N is a deterministic point of the game (`--screenshot`)."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, *, fixed_dt: float | None = None,
                 title: str = "Zona Alfa Tabletop") -> None:
        import pygame

        pygame.display.init()
        pygame.font.init()
        self.pg = pygame
        self.size = (max(MIN_SIZE[0], int(size[0])), max(MIN_SIZE[1], int(size[1])))
        self.screen = pygame.display.set_mode(self.size, pygame.RESIZABLE)
        pygame.display.set_caption(title)
        pygame.key.set_repeat(300, 40)
        self.fixed_dt = fixed_dt
        self.clock = pygame.time.Clock()
        self.stack: list[Scene] = []
        self.running = True
        self.frame = 0
        self.errors: list[str] = []  # every error a scene raised, one line each (tests read it)
        self.on_frame: Callable[[App], None] | None = None  # called after each frame is drawn (tests, benches)

    # -- the stack --------------------------------------------------------------------------------------------
    @property
    def top(self) -> Scene | None:
        return self.stack[-1] if self.stack else None

    def push(self, scene: Scene) -> None:
        self.stack.append(scene)
        self._guard(scene, partial(scene.layout, self.size))
        if scene in self.stack:
            self._guard(scene, scene.enter)

    def pop(self) -> Scene | None:
        out = self.stack.pop() if self.stack else None
        if out is not None:
            self._guard(out, out.leave)
        if self.top is not None:
            top = self.top
            self._guard(top, top.enter)
        return out

    def replace(self, scene: Scene) -> None:
        if self.stack:
            old = self.stack.pop()
            self._guard(old, old.leave)
        self.push(scene)

    def reset(self, scene: Scene) -> None:
        """Clear the stack down to this one scene (back to the title)."""
        self.close_all()
        self.push(scene)

    def close_all(self) -> None:
        """Every scene left, top first (on quit too: workers stop, records are written)."""
        while self.stack:
            old = self.stack.pop()
            self._guard(old, old.leave)

    def quit(self) -> None:
        self.running = False

    def title(self) -> None:
        """Back to the title screen."""
        from game.client.menus import TitleScene

        self.reset(TitleScene(self))

    def start_game(self, setup: GameSetup) -> None:
        """Build the game and push the battle scene; a scenario or crew that does not load goes to the error scene
        with its message (back to the menu from there)."""
        from game.client.battle import BattleScene
        from game.client.session import SessionError, open_session

        self.loading(f"Setting the table: {setup.scenario}, seed {setup.seed}")
        try:
            session = open_session(setup)
        except SessionError as exc:
            self.show_error("This game cannot start", str(exc))
            return
        self.push(BattleScene(self, session))

    def loading(self, text: str) -> None:
        """One frame saying what is being prepared (building a table's art takes a second or two)."""
        from game.client.theme import THEME, font

        self.screen.fill(THEME.frame)
        img = font(26, bold=True).render(text, True, THEME.ink)
        self.screen.blit(img, img.get_rect(center=(self.size[0] // 2, self.size[1] // 2)))
        self.pg.display.flip()

    def show_error(self, title: str, message: str) -> None:
        from game.client.error import ErrorScene

        self.errors.append(f"{title}: {message}")
        self.push(ErrorScene(self, title, message))

    # -- the loop ---------------------------------------------------------------------------------------------
    def _guard(self, scene: Scene, step: Callable[[], object]) -> bool:
        """Run one step of a scene; an exception replaces that scene by the error scene (never a traceback)."""
        try:
            step()
            return True
        except Exception as exc:  # noqa: BLE001 - the client never crashes: the error is shown and the menu stays
            text = " ".join(str(exc).split())[:400] or "(no message)"
            if scene in self.stack:
                self.stack.remove(scene)
                try:
                    scene.leave()
                except Exception:  # noqa: BLE001 - already failing: the error screen says what matters
                    pass
            from game.client.error import ErrorScene

            self.errors.append(f"{scene.name}: {type(exc).__name__}: {text}")
            if isinstance(scene, ErrorScene):  # the error screen itself failed: back to the title
                self.title()
                return False
            self.push(ErrorScene(self, f"The {scene.name} screen failed", f"{type(exc).__name__}: {text}. "
                                 "This is a bug, not your input; please report it with the command line."))
            return False

    def resize(self, size: tuple[int, int]) -> None:
        pg = self.pg
        self.size = (max(MIN_SIZE[0], int(size[0])), max(MIN_SIZE[1], int(size[1])))
        if self.screen.get_size() != self.size:
            self.screen = pg.display.set_mode(self.size, pg.RESIZABLE)
        for s in list(self.stack):
            self._guard(s, partial(s.layout, self.size))

    def step(self, events: list[pygame.event.Event] | None = None) -> float:
        """One frame: input to the top scene, update, draw, flip. Returns the frame's dt."""
        pg = self.pg
        dt = self.fixed_dt if self.fixed_dt is not None else min(0.1, self.clock.tick(FPS) / 1000.0)
        for ev in pg.event.get() if events is None else events:
            if ev.type == pg.QUIT:
                self.ask_quit()
                continue
            if ev.type in (pg.VIDEORESIZE, pg.WINDOWSIZECHANGED) and hasattr(ev, "w"):
                self.resize((ev.w, ev.h))
                continue
            top = self.top
            if top is not None:
                self._guard(top, partial(top.handle, ev))
        top = self.top
        if top is not None:
            self._guard(top, partial(top.update, dt))
            for s in self.stack[:-1]:
                if getattr(s, "runs_covered", False):
                    self._guard(s, partial(s.update, dt))
        self.draw()
        pg.display.flip()
        self.frame += 1
        if self.on_frame is not None:
            self.on_frame(self)
        return dt

    def draw(self) -> None:
        visible = len(self.stack)
        while visible > 1 and not self.stack[visible - 1].opaque:
            visible -= 1
        if not self.stack:
            self.screen.fill((20, 20, 18))  # every scene paints its whole window
        for s in self.stack[max(0, visible - 1):]:
            self._guard(s, partial(s.draw, self.screen))

    def ask_quit(self) -> None:
        """The window's close button or Escape on the title: quit with confirmation (unless already asking)."""
        from game.client.dialogs import ConfirmDialog

        if isinstance(self.top, ConfirmDialog):
            self.quit()
            return
        self.push(ConfirmDialog(self, "Quit Zona Alfa?", "The game in progress is not saved (saves come later).",
                                yes="Quit", on_yes=self.quit))

    def run(self, frames: int | None = None) -> None:
        """Run until quit, or for `frames` frames."""
        while self.running and (frames is None or self.frame < frames):
            if not self.stack:
                self.title()
            self.step()

    def save_screenshot(self, path: str | Path) -> None:
        """The window as a PNG, written atomically (a temporary file in the same folder, then renamed)."""
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f".{out.name}.{os.getpid()}.{time.monotonic_ns()}.png")
        try:
            self.pg.image.save(self.screen, str(tmp))
            os.replace(tmp, out)
        finally:
            if tmp.exists():
                tmp.unlink()
