"""The menus (issue 17): the title screen, the scenario choice with the table's picture and its card, the
confirmation dialog and the pause dialog. Everything shown comes from the scenario files (SCEN-10 cards)."""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from game.client.scene import Scene
from game.client.setup import DEFAULT_SCENARIO, GameSetup
from game.client.theme import THEME, font, side_colour
from game.client.ui import Button, Buttons, Ink, clip, dim, draw_button, fit, panel, wrap

if TYPE_CHECKING:
    import pygame

    from game.client.app import App
    from game.scenarios.loader import ScenarioFile

TL_NAMES = MappingProxyType({0: "White", 1: "Blue", 2: "Yellow", 3: "Red"})  # MISSION-8.2.TL
VICTORY_TEXT = MappingProxyType({  # `scen.victory` as the card says it (SCEN-10.5.VICTORY)
    "objective_then_advances": "the crew that completes the Mission Objective wins; otherwise the crew that earned "
                               "more advances this mission (POST-8.5.EARN); level: a draw (SCEN-10.5.VICTORY)"})
AGENT_LABELS = MappingProxyType({"normal": "autopilot, normal", "easy": "autopilot, easy", "hard": "autopilot, hard",
                                 "random": "random legal actions"})  # game.sim.simulate.AGENTS, as a player reads them
SEED_MAX = 2**64 - 1  # game.sim.options.SEED_MAX: the PRNG takes 64 bits; a larger seed is refused, never reduced


# -- the scenario card and picture (per process) ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Card:
    """A scenario's card as the choice screen shows it: its title, the crews that play it (roster id, crew name) and
    its sections (heading, text); or, for a file that does not load, `error` (the loader's message)."""

    scenario: str  # the shipped name or file, as listed
    title: str
    crews: tuple[tuple[str, str], ...] = ()
    sections: tuple[tuple[str, str], ...] = ()
    subtitle: str = ""
    notes: str = ""
    error: str | None = None


@functools.lru_cache(maxsize=32)
def scenario_card(scenario: str) -> Card:
    """The card of a shipped scenario or a scenario file; a file that fails validation gives a Card with `error`
    (SourceError's message: every problem, one per line)."""
    from game.sim.sources import SourceError, scenario_source

    try:
        sf = scenario_source(scenario).file()
    except SourceError as exc:
        return Card(scenario, scenario, error=str(exc))
    crews = tuple((c, _crew_name(c, sf.k_limit)) for c in sf.crew_names)
    turns = f"{sf.turn_limit} turns" if sf.turn_limit else "4 + D3 turns, rolled at setup (MISSION-8.2.TURN-LIMIT)"
    limit = f", at most {sf.k_limit}K each (ZONE-8.1.PARITY)" if sf.k_limit else ""
    sections = [("Threat Level", f"TL{sf.tl} {TL_NAMES.get(sf.tl, '')} (MISSION-8.2.TL)".replace("  ", " ")),
                ("Turn limit", turns),
                ("Crews", ", ".join(name for _, name in crews) + limit),
                ("Mission Objective", _objective_text(sf)),
                ("Hot Spots", _hotspots_text(sf)),
                ("Hostiles", _hostiles_text(sf))]
    if sf.special_rules:
        from game.scenarios.special import SPECIAL_RULES

        texts = [SPECIAL_RULES[r].text if r in SPECIAL_RULES else r for r in sf.special_rules]
        sections.append(("Special rules", ". ".join(t[:1].upper() + t[1:] for t in texts) + "."))
    victory = VICTORY_TEXT.get(sf.victory, sf.victory)
    sections.append(("Victory", victory[:1].upper() + victory[1:]))
    sub = f"TL{sf.tl} - {turns.split(',')[0]} - {sf.battlefield.width:g}\" x {sf.battlefield.height:g}\""
    return Card(scenario, sf.name, crews, tuple(sections), sub, " ".join(sf.notes.split()))


def _crew_name(roster: str, k_limit: int | None) -> str:
    from game.crews import CrewFileError, load_crew

    try:
        return load_crew(roster, k_limit=k_limit).spec.name
    except (CrewFileError, OSError, ValueError):
        return roster


def _hostile_name(hostile: str) -> str:
    from game.core.catalog import load_catalog

    try:
        return load_catalog().hostile(hostile).name
    except (KeyError, ValueError):
        return hostile


def _actions(n: int | None) -> str:
    return "" if n is None else f", {n} action{'s' if n != 1 else ''}"


def _objective_text(sf: ScenarioFile) -> str:
    """The Mission Objective (MISSION-8.2.OBJECTIVE): where, its search, what it wakes, its key."""
    mos = [loc for loc in sf.locations if loc.kind == "objective"]
    if not mos:
        return "none"
    out = []
    for mo in mos:
        text = f"{mo.name} (TL{mo.tl}): search, {mo.search_actions} action{'s' if mo.search_actions != 1 else ''}"
        if mo.search_difficulty is not None:
            text += f", Difficulty {mo.search_difficulty}"
        if mo.fixed_spawn is not None:
            fs = mo.fixed_spawn
            text += f"; triggering it wakes {fs.figures} {_hostile_name(fs.hostile)}{_actions(fs.actions)}"
        if mo.key_task is not None:
            item = sf.items.get(mo.key_item or "", mo.key_item or "its key")
            text += (f"; a crew without {item} first completes {mo.key_task.name or 'a task'} (Difficulty "
                     f"{mo.key_task.difficulty}, {mo.key_task.actions} actions)")
        out.append(text)
    return "; ".join(out)


def _hotspots_text(sf: ScenarioFile) -> str:
    spots = [loc for loc in sf.locations if loc.kind == "hotspot"]
    if not spots:
        return "none"
    tls = sorted({s.tl for s in spots})
    return f"{len(spots)}, TL{'/'.join(str(t) for t in tls)} (MISSION-8.2.HOTSPOTS)"


def _hostiles_text(sf: ScenarioFile) -> str:
    """The pre-placed hostiles (HOSTILE-8.3.ALT-DEPLOY): how many of what, where, on Alert, actions."""
    if not sf.hostiles:
        return "none pre-placed; each location rolls its own when triggered (HOSTILE-8.3.ROLL)"
    out: list[str] = []
    for h in sf.hostiles:
        kind = _hostile_name(h.hostile)
        what = (f"{h.name} ({kind})" if h.figures == 1 else f"{h.figures} {h.name} ({kind})") if h.name else \
            f"{h.figures} {kind}"
        if h.sites:
            where = f" in one of {len(h.sites)} sites"
        elif h.location:
            where = f" at {h.location}"
        else:
            where = " roaming" if h.converge else ""
        out.append(what + where + (", on Alert" if h.alert else "") + _actions(h.actions))
    groups = {t: out.count(t) for t in out}  # identical forces once, counted (the four mobs of Ishikhov)
    return "; ".join(t if n == 1 else f"{n} groups of {t}" for t, n in groups.items())


@functools.lru_cache(maxsize=8)
def table_picture(scenario: str) -> pygame.Surface:
    """The scenario's table drawn with its art (~0.15 s, once per scenario per process); SourceError when the file
    does not load."""
    from game.render.models import SPRITES_DIR
    from game.render.picture import render_battlefield
    from game.sim.sources import scenario_source

    return render_battlefield(scenario_source(scenario).table(), px_per_inch=9, art=SPRITES_DIR)


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
Row = tuple[str, int]  # ("scenario", i), ("seed", 0), ("agent", crew index), ("start", 0), ("back", 0)


class ChooseScene(Scene):
    """Choose a scenario (its table's picture and card beside the list), the seed and each crew's agent, then
    Start. A file that does not load shows its problems in the card panel and cannot be started."""

    name = "choose"

    def __init__(self, app: App, scenarios: Sequence[str] | None = None) -> None:
        super().__init__(app)
        from game.sim.simulate import AGENTS, DEFAULT_AGENT
        from game.sim.sources import known_scenarios

        self.scenarios = list(scenarios) if scenarios is not None else list(known_scenarios())
        order = (DEFAULT_AGENT, "normal", "easy", "hard", "random")
        self.agent_ids = sorted(AGENTS, key=lambda a: (order.index(a) if a in order else len(order), a))
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
        self.agents = [self.agent_ids[0]] * len(self.card.crews)
        self.scroll = 0

    def rows(self) -> list[Row]:
        out: list[Row] = [("scenario", i) for i in range(len(self.scenarios))]
        out.append(("seed", 0))
        out.extend(("agent", k) for k in range(len(self.agents)))
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
        if 0 <= k < len(self.agents):
            ids = self.agent_ids
            self.agents[k] = ids[(ids.index(self.agents[k]) + step) % len(ids)] if self.agents[k] in ids else ids[0]

    def setup(self) -> GameSetup:
        return GameSetup(scenario=self.scenarios[self.selected], seed=self.seed, agents=tuple(self.agents),
                         autoplay=True)

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
                          if row[0] == "agent" else None)
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
