"""The menus (issue 17): the title screen and the scenario choice with the table's picture and its card (the
card and the picture: game.client.card; the dialogs: game.client.dialogs)."""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from game.client.card import AGENT_LABELS, SEED_MAX, Card, scenario_card, table_picture
from game.client.scene import Scene
from game.client.setup import DEFAULT_SCENARIO, HUMAN, GameSetup
from game.client.theme import THEME, font, side_colour
from game.client.ui import Button, Buttons, Ink, clip, dim, draw_button, fit, panel

if TYPE_CHECKING:
    import pygame

    from game.client.app import App



# -- the title screen -----------------------------------------------------------------------------------------------
class TitleScene(Scene):
    """The game's name over a darkened table of the Zone; New game, Continue (greyed until saves exist), Quit.
    Escape asks to quit."""

    name = "title"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.ink = Ink()
        self.buttons = Buttons([Button("New game", self.new_game),
                                Button("Continue", lambda: None, enabled=False, note="saves arrive in a later version"),
                                Button("Quit", app.ask_quit)])
        self._backdrop: tuple[tuple[int, int], pygame.Surface | None] | None = None

    def new_game(self) -> None:
        self.app.push(ChooseScene(self.app))

    def handle(self, ev: pygame.event.Event) -> None:
        pg = self.app.pg
        if ev.type == pg.KEYDOWN and getattr(ev, "key", None) == pg.K_ESCAPE:
            self.app.ask_quit()
            return
        self.buttons.handle(ev)

    def backdrop(self, size: tuple[int, int]) -> pygame.Surface | None:
        """A table of the Zone, blurred and darkened to sit behind the menu (None when no table loads)."""
        if self._backdrop is not None and self._backdrop[0] == size:
            return self._backdrop[1]
        pg = self.app.pg
        from game.sim.sources import SourceError

        try:
            pic = table_picture(DEFAULT_SCENARIO)
        except SourceError:
            self._backdrop = (size, None)
            return None
        pw, ph = pic.get_size()
        mat = pic.subsurface(pg.Rect(pw // 8, ph // 8, pw * 3 // 4, ph * 3 // 4))  # the mat, not its rulers
        small = fit(mat, (max(1, size[0] // 14), max(1, size[1] // 14)), cover=True)  # soft: down, then up again
        big = fit(small, size, cover=True)
        out = pg.Surface(size)
        out.blit(big, big.get_rect(center=(size[0] // 2, size[1] // 2)))
        dim(out, 185)
        self._backdrop = (size, out)
        return out

    def draw(self, surface: pygame.Surface) -> None:
        pg = self.app.pg
        self.ink.clear()
        w, h = surface.get_size()
        back = self.backdrop((w, h))
        if back is None:
            surface.fill(THEME.frame)
        else:
            surface.blit(back, (0, 0))
        x = w // 8
        big = max(48, h // 9)
        r = self.ink.text(surface, "ZONA ALFA", (x, h // 5), size=big, bold=True)
        pg.draw.rect(surface, THEME.panel_edge, pg.Rect(x, r.bottom + 6, r.width, 3))
        r = self.ink.text(surface, "Skirmishes in the Zone, on a tabletop", (x, r.bottom + 18), size=max(18, h // 32),
                          colour=THEME.dim_ink)
        y = r.bottom + max(28, h // 14)
        bw, bh = 300, 48
        for k, b in enumerate(self.buttons.items):
            rect = pg.Rect(x, y + k * (bh + 14), bw, bh)
            draw_button(surface, self.ink, b, rect, focused=k == self.buttons.focus, size=22)
            if b.note:
                self.ink.text(surface, b.note, (rect.right + 16, rect.centery), size=16, colour=THEME.dim_ink,
                              anchor="midleft")
        self.ink.text(surface, "Up/Down or Tab: move   Enter: choose   Esc: quit", (x, h - 36), size=15,
                      colour=THEME.dim_ink)


# -- the scenario choice --------------------------------------------------------------------------------------------
Row = tuple[str, int]  # ("scenario", i), ("seed", 0), ("agent", crew index), ("difficulty", 0), ("start", 0), ...
NOBODY = "nobody"  # a crew left out: the first crew plays solo against the Zone
DIFFICULTIES = ("book", "easy", "hard", "brutal")  # hostiles.difficulty (HOSTILE-8.3.SCALING); book first
DIFFICULTY_LABELS = {"book": "as the book has them", "easy": "easy: weaker", "hard": "hard: tougher",
                     "brutal": "brutal: much tougher"}


def campaign_order(names: Sequence[str]) -> list[str]:
    """Shipped scenarios in the order a campaign plays them: by Threat Level (Red Gypsy 3's Game One is TL0, Two
    TL1, Three TL2: MISSION-8.2.TL), then by name; a file that does not read goes last (its card says why)."""
    import tomllib
    from pathlib import Path

    from game.scenarios.loader import scenario_path

    def tl(name: str) -> int:
        try:
            value = tomllib.loads(Path(scenario_path(name)).read_text(encoding="utf-8")).get("tl")
        except (OSError, ValueError):
            return 99
        return value if isinstance(value, int) else 99

    return sorted(names, key=lambda n: (tl(n), n))


class ChooseScene(Scene):
    """Choose a scenario (its table's picture and card beside the list), the seed and each crew's agent, then
    Start. A file that does not load shows its problems in the card panel and cannot be started."""

    name = "choose"

    def __init__(self, app: App, scenarios: Sequence[str] | None = None) -> None:
        super().__init__(app)
        from game.sim.simulate import AGENTS, DEFAULT_AGENT
        from game.sim.sources import known_scenarios

        self.scenarios = list(scenarios) if scenarios is not None else campaign_order(known_scenarios())
        order = (DEFAULT_AGENT, "normal", "easy", "hard", "random")
        self.agent_ids = [HUMAN] + sorted(AGENTS, key=lambda a: (order.index(a) if a in order else len(order), a))
        self.difficulty = DIFFICULTIES[0]  # the Zone's hostiles (hostiles.difficulty, HOSTILE-8.3.SCALING)
        self.ink = Ink()
        self.selected = 0
        self.seed = 1
        self.typing: str | None = None  # the digits typed so far, while the seed is being typed
        self.agents: list[str] = []
        self.focus: Row = ("scenario", 0)
        self.scroll = 0
        self.regions: list[tuple[pygame.Rect, Row, Callable[[], None] | None]] = []
        self._pressed: tuple[Row, int] | None = None
        self.hover: Row | None = None  # the row under the mouse (the list highlights it without selecting it)
        self._scaled: dict[tuple[str, tuple[int, int]], pygame.Surface] = {}
        self.card_rect: pygame.Rect | None = None
        first = self.scenarios.index(DEFAULT_SCENARIO) if DEFAULT_SCENARIO in self.scenarios else 0
        self.select(first)
        self.focus = ("scenario", self.selected)

    # -- the model ---------------------------------------------------------------------------------------------
    @property
    def card(self) -> Card:
        return scenario_card(self.scenarios[self.selected]) if self.scenarios else Card("", "No scenario",
                                                                                          error="none shipped")

    def select(self, i: int) -> None:
        if not self.scenarios:
            return
        self.selected = max(0, min(len(self.scenarios) - 1, i))
        self.agents = [HUMAN] + [self.agent_ids[1]] * (len(self.card.crews) - 1)  # you, against the autopilot
        self.scroll = 0

    def rows(self) -> list[Row]:
        out: list[Row] = [("scenario", i) for i in range(len(self.scenarios))]
        out.append(("seed", 0))
        out.extend(("agent", k) for k in range(len(self.agents)))
        out.append(("difficulty", 0))
        if self.card.error is None:
            out.append(("start", 0))
        out.append(("back", 0))
        return out

    def move_focus(self, step: int) -> None:
        rows = self.rows()
        i = rows.index(self.focus) if self.focus in rows else 0
        self.set_focus(rows[(i + step) % len(rows)])

    def set_focus(self, row: Row) -> None:
        if row != self.focus:
            self.typing = None
        self.focus = row
        if row[0] == "scenario" and row[1] != self.selected:
            self.select(row[1])

    def change_seed(self, step: int) -> None:
        self.typing = None
        self.seed = max(0, min(SEED_MAX, self.seed + step))

    def type_digit(self, d: str) -> None:
        """Typing digits replaces the seed, then extends it (never past SEED_MAX); Backspace takes one back."""
        self.focus = ("seed", 0)
        text = d if self.typing is None else str(int(self.typing + d))
        if int(text) <= SEED_MAX:
            self.typing, self.seed = text, int(text)

    def backspace(self) -> None:
        self.focus = ("seed", 0)
        text = (self.typing if self.typing is not None else str(self.seed))[:-1]
        self.typing, self.seed = text, int(text or "0")

    def cycle_agent(self, k: int, step: int) -> None:
        """Who plays crew k: you, an autopilot or the random agent; the crews after the first may also stay out
        (NOBODY: the first crew plays solo against the Zone)."""
        if 0 <= k < len(self.agents):
            ids = self.agent_ids + ([NOBODY] if k > 0 else [])
            self.agents[k] = ids[(ids.index(self.agents[k]) + step) % len(ids)] if self.agents[k] in ids else ids[0]

    def cycle_difficulty(self, step: int) -> None:
        i = DIFFICULTIES.index(self.difficulty)
        self.difficulty = DIFFICULTIES[(i + step) % len(DIFFICULTIES)]

    def setup(self) -> GameSetup:
        solo = len(self.agents) > 1 and all(a == NOBODY for a in self.agents[1:])
        agents = tuple(self.agents[:1]) if solo else tuple(a if a != NOBODY else self.agent_ids[1]
                                                           for a in self.agents)
        return GameSetup(scenario=self.scenarios[self.selected], seed=self.seed, agents=agents, autoplay=True,
                         solo=solo, difficulty=None if self.difficulty == DIFFICULTIES[0] else self.difficulty)

    def start(self) -> None:
        if self.scenarios and self.card.error is None:
            self.app.start_game(self.setup())

    def back(self) -> None:
        if self.app.top is self:
            self.app.pop()

    # -- input -------------------------------------------------------------------------------------------------
    def handle(self, ev: pygame.event.Event) -> None:
        pg = self.app.pg
        if ev.type == pg.KEYDOWN:
            self.key(ev)
        elif ev.type == pg.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - 40 * int(getattr(ev, "y", 0)))
        elif ev.type in (pg.MOUSEMOTION, pg.MOUSEBUTTONDOWN, pg.MOUSEBUTTONUP):
            self.mouse(ev)

    def key(self, ev: pygame.event.Event) -> None:
        pg = self.app.pg
        key, mod, uni = getattr(ev, "key", None), getattr(ev, "mod", 0), getattr(ev, "unicode", "") or ""
        kind, k = self.focus
        if key == pg.K_ESCAPE:
            self.back()
        elif key == pg.K_UP or (key == pg.K_TAB and mod & pg.KMOD_SHIFT):
            self.move_focus(-1)
        elif key in (pg.K_DOWN, pg.K_TAB):
            self.move_focus(1)
        elif key in (pg.K_LEFT, pg.K_RIGHT):
            step = -1 if key == pg.K_LEFT else 1
            if kind == "seed":
                self.change_seed(step)
            elif kind == "agent":
                self.cycle_agent(k, step)
            elif kind == "difficulty":
                self.cycle_difficulty(step)
            elif kind in ("start", "back"):
                self.move_focus(step)
        elif key in (pg.K_PLUS, pg.K_KP_PLUS, pg.K_EQUALS) or uni == "+":
            self.change_seed(1)
        elif key in (pg.K_MINUS, pg.K_KP_MINUS) or uni == "-":
            self.change_seed(-1)
        elif len(uni) == 1 and uni.isdigit() and uni.isascii():
            self.type_digit(uni)
        elif key == pg.K_BACKSPACE:
            self.backspace()
        elif key in (pg.K_PAGEUP, pg.K_PAGEDOWN):
            self.scroll = max(0, self.scroll + (-200 if key == pg.K_PAGEUP else 200))
        elif key in (pg.K_RETURN, pg.K_KP_ENTER):
            self.back() if kind == "back" else self.start()
        elif key == pg.K_SPACE and kind == "agent":
            self.cycle_agent(k, 1)
        elif key == pg.K_SPACE and kind == "difficulty":
            self.cycle_difficulty(1)
        elif key == pg.K_SPACE and kind in ("start", "back"):
            self.back() if kind == "back" else self.start()

    def mouse(self, ev: pygame.event.Event) -> None:
        pg = self.app.pg
        pos = getattr(ev, "pos", None)
        if not isinstance(pos, tuple) or len(pos) != 2:
            return
        hit = next(((i, row, act) for i, (rect, row, act) in enumerate(self.regions) if rect.collidepoint(pos)),
                   None)
        button = getattr(ev, "button", 0)
        if ev.type == pg.MOUSEMOTION:
            self.hover = None if hit is None else hit[1]
            if hit is not None and hit[1][0] != "scenario":  # hovering the list does not change the selection
                self.set_focus(hit[1])
        elif ev.type == pg.MOUSEBUTTONDOWN and button == 1:
            self._pressed = None if hit is None else (hit[1], hit[0])
        elif ev.type == pg.MOUSEBUTTONUP and button == 1:
            pressed, self._pressed = self._pressed, None
            if hit is not None and pressed == (hit[1], hit[0]):
                self.set_focus(hit[1])
                if hit[2] is not None:
                    hit[2]()

    # -- drawing -----------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        self.ink.clear()
        self.regions = []
        surface.fill(THEME.frame)
        w, h = surface.get_size()
        m = 24
        left = 300 if w >= 1200 else 260
        self.ink.text(surface, "Choose a scenario", (m, 18), size=30, bold=True)
        self.ink.text(surface, "Up/Down: move   Left/Right or +/-: change   digits: type a seed   PgUp/PgDn: "
                               "scroll the card   Enter: start   Esc: back", (m, h - 28), size=14, colour=THEME.dim_ink)
        top, bottom = 70, h - 40
        self.draw_options(surface, m, top, left, bottom)
        x = m + left + m
        rest = w - x - m
        side = max(120, min(bottom - top, (rest - m) // 2))
        self.draw_picture(surface, self.app.pg.Rect(x, top, side, side))
        self.draw_card(surface, self.app.pg.Rect(x + side + m, top, w - m - (x + side + m), bottom - top))

    def region(self, rect: pygame.Rect, row: Row, action: Callable[[], None] | None) -> pygame.Rect:
        self.regions.append((rect, row, action))
        return rect

    def draw_options(self, surface: pygame.Surface, x: int, y: int, width: int, bottom: int) -> None:
        pg = self.app.pg
        ink = self.ink
        row_h = 46 if bottom - y > 560 else 40
        ink.text(surface, "Scenario", (x, y), size=15, bold=True, colour=THEME.dim_ink)
        y += 22
        for i, name in enumerate(self.scenarios):
            card = scenario_card(name)
            rect = self.region(pg.Rect(x, y, width, row_h - 4), ("scenario", i), functools.partial(self.select, i))
            chosen, focused = i == self.selected, self.focus == ("scenario", i)
            lit = chosen or self.hover == ("scenario", i)
            pg.draw.rect(surface, THEME.panel_hi if lit else THEME.panel, rect, border_radius=6)
            if focused or chosen:
                pg.draw.rect(surface, THEME.ink if focused else THEME.panel_edge, rect, 2, border_radius=6)
            colour = THEME.badge_wounded if card.error else THEME.ink
            title = card.title if card.error is None else f"{name.rsplit('/', 1)[-1]} (does not load)"
            ink.text(surface, clip(title, font(17, True), width - 20), (rect.x + 10, rect.y + 4), size=17, bold=True,
                     colour=colour)
            if row_h >= 46 and card.subtitle:
                ink.text(surface, card.subtitle, (rect.x + 10, rect.y + 24), size=13, colour=THEME.dim_ink)
            y += row_h
        y += 10
        ink.text(surface, "Seed (same seed, same game)", (x, y), size=15, bold=True, colour=THEME.dim_ink)
        y += 22
        seed_text = (self.typing + "_") if self.typing is not None else str(self.seed)
        self.stepper(surface, pg.Rect(x, y, width, 36), ("seed", 0), seed_text,
                     lambda: self.change_seed(-1), lambda: self.change_seed(1), "-", "+")
        y += 46
        ink.text(surface, "Crews and who plays them", (x, y), size=15, bold=True, colour=THEME.dim_ink)
        y += 22
        if not self.card.crews:
            ink.text(surface, "none (the scenario does not load)", (x, y), size=15, colour=THEME.dim_ink)
            y += 24
        for k, (_, crew) in enumerate(self.card.crews):
            ink.text(surface, clip(crew, font(15, True), width), (x, y), size=15, bold=True,
                     colour=side_colour(k))
            y += 20
            agent = self.agents[k] if k < len(self.agents) else "?"
            agent = AGENT_LABELS.get(agent, agent)
            self.stepper(surface, pg.Rect(x, y, width, 34), ("agent", k), agent,
                         functools.partial(self.cycle_agent, k, -1), functools.partial(self.cycle_agent, k, 1),
                         "<", ">")
            y += 42
        if self.card.crews:
            ink.text(surface, "The Zone's hostiles", (x, y), size=15, bold=True, colour=THEME.dim_ink)
            y += 20
            self.stepper(surface, pg.Rect(x, y, width, 34), ("difficulty", 0), DIFFICULTY_LABELS[self.difficulty],
                         functools.partial(self.cycle_difficulty, -1), functools.partial(self.cycle_difficulty, 1),
                         "<", ">")
            y += 42
        y = max(y + 6, min(bottom - 48, y + 20))
        half = (width - 12) // 2
        start = Button("Start", self.start, enabled=self.card.error is None)
        back = Button("Back", self.back)
        for b, rect, row in ((start, pg.Rect(x, y, half, 44), ("start", 0)),
                             (back, pg.Rect(x + half + 12, y, half, 44), ("back", 0))):
            draw_button(surface, ink, b, rect, focused=self.focus == row)
            if b.enabled:
                self.region(rect, row, b.on_press)

    def stepper(self, surface: pygame.Surface, rect: pygame.Rect, row: Row, value: str,
                down: Callable[[], None], up: Callable[[], None], minus: str, plus: str) -> None:
        """A value with a button either side (the seed, an agent)."""
        pg = self.app.pg
        focused = self.focus == row
        for r, label, act in ((pg.Rect(rect.x, rect.y, rect.h, rect.h), minus, down),
                              (pg.Rect(rect.right - rect.h, rect.y, rect.h, rect.h), plus, up)):
            self.region(r, row, act)
            draw_button(surface, self.ink, Button(label, act), r, focused=focused, size=18)
        mid = self.region(pg.Rect(rect.x + rect.h + 6, rect.y, rect.w - 2 * rect.h - 12, rect.h), row, up
                          if row[0] in ("agent", "difficulty") else None)
        pg.draw.rect(surface, THEME.panel_hi if focused else THEME.panel, mid, border_radius=4)
        pg.draw.rect(surface, THEME.ink if focused else THEME.panel_edge, mid, 2 if focused else 1, border_radius=4)
        size = 18
        while size > 11 and font(size).size(value)[0] > mid.w - 12:
            size -= 1
        self.ink.text(surface, value, mid.center, size=size, anchor="center")

    def draw_picture(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        panel(surface, box)
        card = self.card
        if card.error is not None:
            self.ink.paragraph(surface, "No picture: the scenario file does not load.", box.x + 16, box.y + 16,
                               box.w - 32, size=15, colour=THEME.dim_ink)
            return
        key = (card.scenario, box.size)
        pic = self._scaled.get(key)
        if pic is None:
            from game.sim.sources import SourceError

            try:
                pic = fit(table_picture(card.scenario), (box.w - 12, box.h - 12))
            except SourceError as exc:
                self.ink.paragraph(surface, str(exc), box.x + 16, box.y + 16, box.w - 32, size=14)
                return
            if len(self._scaled) > 12:
                self._scaled.clear()
            self._scaled[key] = pic
        surface.blit(pic, pic.get_rect(center=box.center))

    def draw_card(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """The card text, wrapped to the panel; the wheel or PageUp/PageDown scroll it when it is longer."""
        self.card_rect = box
        panel(surface, box)
        card, ink = self.card, self.ink
        x, width = box.x + 16, box.w - 32
        clip = surface.get_clip()
        surface.set_clip(box.inflate(-4, -4))
        y0 = box.y + 14 - self.scroll
        if card.error is not None:
            y = ink.paragraph(surface, "This scenario file does not load", x, y0, width, size=20, bold=True,
                              colour=THEME.badge_wounded)
            lines = card.error.split("\n")
            file = lines[0].split(": ", 1)[0]
            if not all(line.startswith(f"{file}: ") for line in lines):
                file = card.scenario
            y = ink.paragraph(surface, file, x, y + 4, width, size=14, colour=THEME.dim_ink)
            for line in lines:  # each problem without the file it names (shown once, above)
                y = ink.paragraph(surface, line.removeprefix(f"{file}: "), x, y + 6, width, size=15)
        else:
            y = ink.paragraph(surface, card.title, x, y0, width, size=22, bold=True)
            if card.notes:
                y = ink.paragraph(surface, card.notes, x, y + 4, width, size=15, colour=THEME.dim_ink)
            for head, text in card.sections:
                y = self.section(surface, head, text, x, y + 8, width)
        surface.set_clip(clip)
        tall, room = int(y - y0), box.h - 28
        self.scroll = max(0, min(self.scroll, tall - room))
        if tall > room:  # a scroll bar: where the panel's view lies in the whole card
            pg = self.app.pg
            track = pg.Rect(box.right - 9, box.y + 10, 4, box.h - 20)
            pg.draw.rect(surface, THEME.panel_hi, track, border_radius=2)
            thumb = pg.Rect(track.x, track.y + track.h * self.scroll // tall, 4, max(16, track.h * room // tall))
            pg.draw.rect(surface, THEME.dim_ink, thumb.clamp(track), border_radius=2)

    def section(self, surface: pygame.Surface, head: str, text: str, x: int, y: float, width: int) -> float:
        """A card section: its heading, and its text beside it when both fit on one line, else under it."""
        ink = self.ink
        hw = font(14, True).size(head)[0] + 10
        if hw + font(15).size(text)[0] <= width:
            ink.text(surface, head, (x, y + 2), size=14, bold=True, colour=THEME.dim_ink)
            return ink.paragraph(surface, text, x + hw, y, width - hw, size=15)
        y = ink.paragraph(surface, head, x, y, width, size=14, bold=True, colour=THEME.dim_ink)
        return ink.paragraph(surface, text, x, y, width, size=15)
