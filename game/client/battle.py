"""The battle screen: the board, the activation-order strip, the HUD with the why-card, the dice tray and the event
log, fed with the events of every action as it is applied; the agents play every side (the crews' autopilot or the
random-legal agent, the Zone's agent for the hostiles), paced for a viewer.

Keys: Space play/pause, "." one action, N skip to the end of the activation, T skip to the end of the turn, 1 normal
speed, 2 fast, V dice animation on/off, H the why-cards, Ctrl+S save the log as text, Escape or P the pause menu;
the board takes the mouse, arrows/WASD, the wheel and +/-. Decisions come from the driver (game.client.driver): a
worker process
normally, in the frame loop itself under --screenshot so that frame N is a deterministic point of the game."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.client.board import BoardView
from game.client.driver import DriverError, InlineDriver, WorkerDriver
from game.client.scene import Scene
from game.client.session import Session
from game.client.theme import THEME, font
from game.client.widget import Shared
from game.core.actions import IllegalAction
from game.core.events import Event

if TYPE_CHECKING:
    import pygame

    from game.client.app import App

GAP_S = {"normal": 0.45, "fast": 0.06}  # pause between two actions once the animations are done
QUICK_GAP_S = {"normal": 0.12, "fast": 0.03}  # after a deployment or a choice that moved nothing: nothing to watch
QUICK = frozenset({"deploy", "deployment_order", "initiative", "initiative_choice", "interrupt_declined"})
ANIM_SPEED = {"normal": 1.0, "fast": 3.0}  # moves: 10"/s at normal
DICE_SPEED = {"normal": 1.6, "fast": 4.0}  # a throw settles in about 0.6 s at normal, then its result holds
DICE_HOLD_S = 0.5
SKIP_PER_FRAME = 8  # actions applied per frame while skipping (a fixed count: frames stay deterministic)
HINTS = ("Space play/pause  . one action  N end of activation  T end of turn  1/2 speed  V dice  H why-cards  "
         "Ctrl+S save log  Ctrl+R ruler to a point  Esc menu  drag/WASD/arrows pan (arrows: the cursor when you "
         "decide)  wheel zoom  F fit")


class BattleScene(Scene):
    name = "battle"

    def __init__(self, app: App, session: Session, *, inline: bool | None = None) -> None:
        from game.client.dice import DiceTray
        from game.client.hud import Hud
        from game.client.log import EventLog
        from game.client.strip import ActivationStrip

        super().__init__(app)
        self.session = session
        self.shared = Shared()
        self.shared.crews = session.crew_sides()
        st = session.state
        self.board = BoardView(self.shared, session.battlefield, st)
        self.dice = DiceTray(self.shared)
        self.log = EventLog(self.shared)
        self.strip = ActivationStrip(self.shared)
        self.hud = Hud(self.shared, session.name)
        self.dice.hold = DICE_HOLD_S
        self.widgets: list[Any] = [self.board, self.strip, self.hud, self.dice, self.log]
        self.seat: Any = None
        self._card_rect: Any = None
        if session.human_sides:  # a player's seat: the action bar, the profile card and the attack preview
            from game.client.seat import Seat

            self.seat = Seat(self)
            self.widgets += [self.seat.bar, self.seat.card, self.seat.preview, self.seat.exposure, self.seat.ruler]
            self.board.on_click = self._board_click
        self._feed(list(session.events))
        sync = app.fixed_dt is not None if inline is None else inline
        self.driver: InlineDriver | WorkerDriver = InlineDriver(session) if sync else WorkerDriver(session)
        self.sync = sync
        self.playing = session.setup.autoplay
        self.speed = "normal"
        self.skip: str | None = None  # "activation" or "turn" while skipping
        self.step_once = False
        self.gap = 0.6  # a moment to look at the table before the first action
        self.started = False
        self.summary_shown = False
        self.record_written = False
        self.applied = 0  # actions applied in this window
        self.message = ""  # a short note in the HUD (log saved, ...)
        self.message_t = 0.0

    # -- scene ------------------------------------------------------------------------------------------------
    def enter(self) -> None:
        if not self.started:
            self.driver.start()
            self.started = True

    def leave(self) -> None:
        self.driver.stop()
        if self.seat is not None:
            self.seat.close()
        self._write_record()

    def layout(self, size: tuple[int, int]) -> None:
        import pygame

        w, h = size
        bar = 34
        side_w = max(360, min(540, int(w * 0.33)))
        strip_h = 46
        dice_h = max(150, min(210, int(h * 0.25)))
        self.hud.layout(pygame.Rect(0, 0, w, bar))
        self.strip.layout(pygame.Rect(0, bar, w - side_w, strip_h))
        self.board_rect = pygame.Rect(0, bar + strip_h, w - side_w, h - bar - strip_h - 22)
        self.board.layout(self.board_rect)
        card_w = max(300, min(420, self.board_rect.w // 3))
        self.hud.card_rect = pygame.Rect(self.board_rect.right - card_w - 10, self.board_rect.top + 10, card_w, 0)
        self.dice.layout(pygame.Rect(w - side_w, bar, side_w, dice_h))
        self.log.layout(pygame.Rect(w - side_w, bar + dice_h, side_w, h - bar - dice_h))
        self.hint_rect = pygame.Rect(0, h - 22, w - side_w, 22)
        self._hint_img: pygame.Surface | None = None
        if self.seat is not None:
            b = self.board_rect
            bar_h = 70
            self.seat.bar.layout(pygame.Rect(b.x, b.bottom - bar_h, b.w, bar_h))
            self.seat.card.layout(pygame.Rect(b.x + 8, b.y + 8, 300, max(160, b.h - bar_h - 24)))
            self.seat.preview.layout(pygame.Rect(b.right - 410, b.y + 8, 400, max(200, min(520, b.h - bar_h - 24))))
            self.seat.exposure.layout(pygame.Rect(b.right - 330, b.y + 8, 320, max(160, min(420, b.h - bar_h - 24))))
            self.seat.ruler.layout(pygame.Rect(b.right - 330, b.bottom - bar_h - 180, 320, 170))

    def handle(self, ev: pygame.event.Event) -> None:
        pg = self.app.pg
        seat = self.seat if self.seat is not None and self.seat.active else None
        if seat is not None:
            if ev.type == pg.KEYDOWN and seat.handle_key(ev):
                return
            for w in (seat.bar, seat.preview, seat.card):
                if w.handle(ev):
                    if ev.type == pg.MOUSEMOTION:
                        self.board.mouse = (-1.0, -1.0)  # over the bar: no hover card on the board under it
                    return
            if ev.type == pg.MOUSEMOTION and self.board_rect.collidepoint(ev.pos):
                at = self.board.cam.to_table((float(ev.pos[0]), float(ev.pos[1])))
                seat.measure_to(at, self.board.model_at((float(ev.pos[0]), float(ev.pos[1]))))
                seat.hover(at)
        if ev.type == pg.KEYDOWN and self._key(ev):
            return
        for w in (self.hud, self.dice, self.log, self.strip, self.board):  # the topmost first
            if w.handle(ev):
                return

    def _place_card(self, seat: Any) -> None:
        """The profile card in the board's left corner away from the selected model (top-left, or above the bar
        when the model stands in the top half), so it never hides what it describes."""
        import pygame

        b = self.board_rect
        top = True
        if seat.selected is not None and seat.selected in self.session.state.models:
            x, y = self.board.screen_pos(seat.selected)
            top = not (x < b.x + 330 and y < b.centery)
        h = min(300, max(160, b.h // 2 - 50))
        rect = pygame.Rect(b.x + 8, b.y + 8 if top else b.bottom - 78 - h, 300, h)
        if rect != self._card_rect:
            self._card_rect = rect
            seat.card.layout(rect)

    def _board_click(self, point: tuple[float, float], model: str | None, button: int) -> None:
        if self.seat is not None and self.seat.active and not self.board.busy:
            self.seat.click(point, model, button)

    def commit(self, action: Any) -> None:
        """A player's decision: applied by the engine here (refused with its reason if illegal) and passed to the
        agents' worker, which applies it too."""
        try:
            self._apply(action)
        except DriverError as exc:
            if self.seat is not None:
                self.seat.note = str(exc)
            return
        self.driver.submit(action)

    def _key(self, ev: pygame.event.Event) -> bool:
        pg = self.app.pg
        ctrl = bool(getattr(ev, "mod", 0) & pg.KMOD_CTRL)
        if ctrl and ev.key == pg.K_s:
            self.save_log()
            return True
        if ctrl:
            return False
        if ev.key in (pg.K_ESCAPE, pg.K_p):
            from game.client.dialogs import PauseDialog

            self.app.push(PauseDialog(self.app))
            return True
        if ev.key == pg.K_SPACE:
            self.playing = not self.playing
            return True
        if ev.key in (pg.K_PERIOD, pg.K_KP_PERIOD):
            self.step_once = True
            return True
        if ev.key == pg.K_n:
            self.skip = "activation"
            return True
        if ev.key == pg.K_t:
            self.skip = "turn"
            return True
        if ev.key in (pg.K_1, pg.K_2):
            self.speed = "normal" if ev.key == pg.K_1 else "fast"
            return True
        if ev.key == pg.K_h:
            self.hud.cards_shown = not self.hud.cards_shown
            return True
        if ev.key == pg.K_v:
            self.dice.animate = not self.dice.animate
            self._flash("dice animation " + ("on" if self.dice.animate else "off"))
            return True
        return False

    # -- play -------------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        speed = ANIM_SPEED[self.speed]
        self.board.speed = speed
        self.dice.speed = DICE_SPEED[self.speed]
        for w in self.widgets:
            w.update(dt)
        if self.message_t > 0:
            self.message_t -= dt
        if self.session.over:
            self._finish()
        else:
            try:
                self._advance(dt)
            except DriverError as exc:
                self.playing = False
                self.app.show_error("The agents stopped", str(exc))
                return
        if self.seat is not None:
            self.seat.refresh()  # after the agents' action: the player's options are those of the state drawn
            self.seat.poll()
        self.hud.status = self._status()

    def _advance(self, dt: float) -> None:
        if self.skip is not None:
            self._skip()
            return
        if not (self.playing or self.step_once):
            return
        if self.board.busy or self.dice.busy:
            return
        self.gap -= dt
        if self.gap > 0 and not self.step_once:
            return
        action = self.driver.next_action(wait=self.sync)
        if action is None:
            return
        self.step_once = False
        new = self._apply(action)
        quick = all(e.type in QUICK or e.type.startswith(("turn_", "activation_")) for e in new)
        self.gap = (QUICK_GAP_S if quick else GAP_S)[self.speed]

    def _skip(self) -> None:
        """Apply actions without animation until the activation (or the turn) ends."""
        anim = self.board.animate
        self.board.animate = False
        try:
            for _ in range(SKIP_PER_FRAME):
                action = self.driver.next_action(wait=self.sync)
                if action is None:
                    return
                new = self._apply(action)
                ends = {"turn_end", "mission_end"} | ({"activation_end"} if self.skip == "activation" else set())
                if self.session.over or any(e.type in ends for e in new):
                    self.skip = None
                    self.board.skip_animations()
                    self.gap = GAP_S[self.speed]
                    return
        finally:
            self.board.animate = anim

    def _apply(self, action: Any) -> list[Event]:
        try:
            new = self.session.apply(action)
        except IllegalAction as exc:  # the worker and the window disagree: a bug, shown, never a crash
            raise DriverError(f"decision #{len(self.session.record.actions) + 1} was refused: {exc}") from exc
        self.applied += 1
        self._feed(new)
        return new

    def _feed(self, events: list[Event]) -> None:
        self.shared.events.extend(events)
        st = self.session.state
        for w in self.widgets:
            w.feed(events, st)

    def _finish(self) -> None:
        if self.summary_shown or self.board.busy or self.dice.busy:
            return
        self.summary_shown = True
        self._write_record()
        end = next((e for e in reversed(self.session.events) if e.type == "mission_end"), None)
        if end is None:
            return
        from game.client.summary import SummaryScene

        names = {s.id: s.name for s in self.session.state.sides}
        self.app.push(SummaryScene(self.app, dict(end.data), names))

    def _write_record(self) -> None:
        path = self.session.setup.record
        if path is None or (self.record_written and not self.session.over):
            return
        try:
            self.session.write_record(path)
            self.record_written = True
        except OSError as exc:
            self._flash(f"cannot write the record {path}: {exc.strerror or exc}")

    def save_log(self, path: str | None = None) -> Path | None:
        st = self.session
        out = path or f"zona-alfa-log-{st.source.name}-seed{st.setup.seed}.txt"
        try:
            written = self.log.save_text(out)
        except OSError as exc:
            self._flash(f"cannot save the log to {out}: {exc.strerror or exc}")
            return None
        self._flash(f"log saved to {written}")
        return Path(written)

    def _flash(self, text: str) -> None:
        self.message, self.message_t = text, 4.0

    def _status(self) -> str:
        if self.session.over:
            return "mission over"
        if self.seat is not None and self.seat.active:
            return f"your decision: {self.seat.note}" if self.seat.note else "your decision"
        parts = [("playing" if self.playing else "paused") + f", {self.speed}"]
        if self.skip:
            parts.append(f"skipping to the end of the {self.skip}")
        if not self.sync and self.driver.thinking and (self.playing or self.skip or self.step_once):
            parts.append("thinking...")
        if not self.dice.animate:
            parts.append("dice animation off")
        if self.message_t > 0:
            parts.append(self.message)
        return "  |  ".join(parts)

    # -- draw -------------------------------------------------------------------------------------------------
    def _draw_cover_badges(self, surface: pygame.Surface, seat: Any) -> None:
        """Each enemy's cover against the selected model, as a badge by its token, and the ruler's line (clipped to
        the board)."""
        if self.board.rect is None:
            return
        from game.client.exposure_panel import draw_cover_icons
        from game.client.ruler import draw_ruler_line

        clip = surface.get_clip()
        surface.set_clip(self.board.rect)
        icons = seat.cover_icons() if not self.board.walks else {}  # a token on its way: no badge until it stands
        if icons:
            draw_cover_icons(surface, self.board.cam, self.session.state, icons)
        if seat.ruler.ruler is not None and seat.ruler_ends is not None:
            draw_ruler_line(surface, self.board.cam, seat.ruler.ruler, seat.ruler_ends)
        surface.set_clip(clip)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(THEME.frame)
        self.board.draw(surface)
        self.strip.draw(surface)
        self.dice.draw(surface)
        self.log.draw(surface)
        self.hud.draw(surface)
        seat = self.seat if self.seat is not None and self.seat.active else None
        if seat is None or (seat.armed is None and seat.exposure.exposure is None):
            self.hud.draw_card(surface)  # the why-card gives way to the attack preview and the exposure
        if seat is not None:
            self._draw_cover_badges(surface, seat)
            self._place_card(seat)
            seat.card.draw(surface)
            seat.preview.draw(surface)
            if seat.preview.preview is None:
                seat.exposure.draw(surface)
            seat.ruler.draw(surface)
            seat.bar.draw(surface)
        if self._hint_img is None:
            self._hint_img = font(12).render(HINTS, True, THEME.dim_ink)
        surface.fill(THEME.panel, self.hint_rect)
        surface.blit(self._hint_img, (self.hint_rect.x + 8, self.hint_rect.y + 4))
