"""The event log panel: every event in plain words (`describe`), wrapped to the panel, scrollable, selectable (a
selected line highlights the models its event involves), and savable as text."""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from game.client.theme import THEME, font, side_colour
from game.core.events import Event, describe
from game.core.record import atomic_write_text
from game.render.style import Colour

if TYPE_CHECKING:
    import pygame

    from game.client.widget import Shared
    from game.core.state import GameState

__all__ = ["EventLog", "models_of"]

FONT_SIZE = 14
PAD = 6  # pixels inside the panel's edge
WHEEL_LINES = 3
CACHE_LINES = 1200  # rendered line surfaces kept (about 30 kB each at a 420 px panel)
MODEL_KEYS = ("model", "attacker", "target", "patient", "applier", "recipient", "leader", "at_model")
# A rule ID as RULES.md writes them (TURN-6, AI-S.ORDER, CORE-3.3.MOVE, GAP-99), with the "(" before it and the
# ", " or ")" after it when it sits in the rule list an event line ends with; only the event's own rule IDs are
# dimmed (a weapon called "AK-15" looks like one).
RULE_RE = re.compile(r"\(?\b([A-Z][A-Z0-9]*-[A-Z0-9](?:[A-Z0-9.\-]*[A-Z0-9])?)\b(?:\)|, )?")
WHY_PREFIX = "      why: "  # describe's line for an agent's reason (ZONE HOSTILE AI)

HEAD, WHY, CREW_WHY, BODY = "head", "why", "crew_why", "body"  # a hostile's reason, a crew autopilot's reason
CREW_WHY_INK = (196, 206, 214)  # a crew autopilot's reason: a cool light grey, apart from the hostiles' colour


def _crew_decided(e: Event, state: GameState, shared: Shared) -> bool:
    """Whether the reason on this event is a crew autopilot's (its unit or model is a crew's), not the Zone's."""
    for key in ("unit", "model", "attacker", "leader", "applier"):
        who = e.data.get(key)
        if isinstance(who, str):
            owner = state.units.get(who) or state.models.get(who)
            if owner is not None:
                return owner.side in shared.crews
    side = e.data.get("side")
    return isinstance(side, str) and side in shared.crews


def models_of(event: Event, state: GameState | None) -> frozenset[str]:
    """The model ids an event involves: its model-naming fields, its `models` list (ids or {"model": id}), and the
    models of its `unit` (INTRO-1.2.UNIT). Positions and sides are not models; with a state, only ids of models of
    the game are kept."""
    d = event.data
    out: set[str] = {str(d[k]) for k in MODEL_KEYS if isinstance(d.get(k), str)}
    listed = d.get("models")
    if isinstance(listed, Sequence) and not isinstance(listed, str):
        for m in listed:
            mid = m.get("model") if isinstance(m, Mapping) else m
            if isinstance(mid, str):
                out.add(mid)
    unit = d.get("unit")
    if isinstance(unit, str) and state is not None and unit in state.units:
        out.update(state.units[unit].models)
    if state is not None:
        out = {m for m in out if m in state.models}
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class _Line:
    """One display line: its text, the index of the event it came from, its kind (headline, reason, body)."""

    text: str
    event: int
    kind: str


class EventLog:
    """The scrolling event log (Widget). It follows the newest line unless scrolled up (wheel, PageUp/PageDown over
    it; End follows again); a click selects a line's event and sets `shared.highlight` to its models."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.rect: pygame.Rect | None = None
        self.events: list[Event] = []
        self._texts: list[str] = []  # describe(e) of each event
        self._raw: list[_Line] = []  # describe lines, unwrapped
        self._lines: list[_Line] = []  # wrapped to the panel width
        self._cache: dict[int, pygame.Surface] = {}  # display line index -> its rendered text
        self._width = 0  # the text width the lines are wrapped to
        self.top = 0  # first visible display line
        self.follow = True
        self._selected: int | None = None  # event index
        self._highlight: frozenset[str] = frozenset()  # what this log put in shared.highlight
        self._state: GameState | None = None
        self._version = 0  # bumped on every re-wrap (the cached line surfaces are stale)
        self._page: pygame.Surface | None = None
        self._page_key: tuple[object, ...] = ()

    # -- the Widget protocol ------------------------------------------------------------------------------------
    def layout(self, rect: pygame.Rect) -> None:
        import pygame

        self.rect = pygame.Rect(rect)
        width = max(40, self.rect.width - 2 * PAD)
        if width != self._width:
            self._width = width
            self._lines = [w for line in self._raw for w in self._wrap(line)]
            self._cache.clear()
            self._version += 1
        self._clamp()

    def feed(self, events: Sequence[Event], state: GameState) -> None:
        self._state = state
        for e in events:
            idx = len(self.events)
            self.events.append(e)
            text = describe(e)
            self._texts.append(text)
            for raw in text.split("\n"):
                kind = HEAD if (e.type == "turn_start" or "===" in raw) else WHY if raw.startswith(WHY_PREFIX) else BODY
                if kind == WHY and _crew_decided(e, state, self.shared):
                    kind = CREW_WHY
                line = _Line(raw, idx, kind)
                self._raw.append(line)
                if self._width:
                    self._lines.extend(self._wrap(line))
        self._clamp()

    def handle(self, ev: pygame.event.Event) -> bool:
        import pygame

        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE and self._selected is not None:
            self.select(None)
            return True
        if self.rect is None:
            return False
        pos = getattr(ev, "pos", None)
        over = self.rect.collidepoint(pos if pos is not None else pygame.mouse.get_pos())
        if not over:
            return False
        if ev.type == pygame.MOUSEWHEEL:
            self.scroll(-WHEEL_LINES * int(ev.y))
            return True
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN, pygame.K_END):
            if ev.key == pygame.K_END:
                self.follow = True
                self._clamp()
            else:
                page = max(1, self.visible_count - 1)
                self.scroll(-page if ev.key == pygame.K_PAGEUP else page)
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            line = self.line_at(ev.pos)
            if line is not None:
                event = self._lines[line].event
                self.select(None if event == self._selected else event)
            return True
        return ev.type == pygame.MOUSEBUTTONDOWN  # the log covers what is under it (a release may end a drag)

    def update(self, dt: float) -> None:
        """Nothing moves in the log."""

    @property
    def busy(self) -> bool:
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Blit the cached page; it is composed again only when what it shows changes (scroll, new visible lines,
        the selection, the hint)."""
        if self.rect is None:
            return
        end = min(len(self._lines), self.top + self.visible_count)
        below = 0 if self.follow else self._events_below(end)
        key = (self._version, self.top, end, self._selected, below, self.rect.size)
        if self._page is None or key != self._page_key:
            self._page, self._page_key = self._compose(end, below), key
        surface.blit(self._page, self.rect)

    def _compose(self, end: int, below: int) -> pygame.Surface:
        import pygame

        assert self.rect is not None
        page = self._page
        if page is None or page.get_size() != self.rect.size:  # one page surface, reused while the size holds
            page = pygame.Surface(self.rect.size)
            if pygame.display.get_surface() is not None:
                page = page.convert()
        page.fill(THEME.panel)
        lh = self.line_height
        y = PAD
        for i in range(self.top, end):
            line = self._lines[i]
            if line.event == self._selected:
                page.fill(THEME.panel_hi, (1, y, self.rect.width - 2, lh))
                page.fill(THEME.selection, (1, y, 2, lh))  # a mark at the edge: the selection reads at a glance
            img = self._cache.get(i)
            if img is None:
                img = self._cache[i] = self._render(line)
            page.blit(img, (PAD, y))
            y += lh
        if below:
            self._draw_hint(page, f"{below} new below  (End)")
        if len(self._cache) > CACHE_LINES:  # keep the rendered lines near the view only (memory)
            keep = range(self.top - CACHE_LINES // 4, end + CACHE_LINES // 4)
            self._cache = {i: img for i, img in self._cache.items() if i in keep}
        pygame.draw.rect(page, THEME.panel_edge, page.get_rect(), 1)
        return page

    # -- scrolling and selection ----------------------------------------------------------------------------------
    @property
    def line_height(self) -> int:
        return int(font(FONT_SIZE).get_linesize())

    @property
    def visible_count(self) -> int:
        if self.rect is None:
            return 0
        return max(1, (self.rect.height - 2 * PAD) // self.line_height)

    @property
    def lines(self) -> list[str]:
        """The display lines, wrapped to the panel."""
        return [line.text for line in self._lines]

    def line_event(self, line: int) -> Event:
        """The event a display line came from."""
        return self.events[self._lines[line].event]

    def scroll(self, lines: int) -> None:
        """Scroll by display lines (negative: up, to older lines); reaching the bottom follows again."""
        self.top += lines
        bottom = self._max_top()
        self.follow = self.top >= bottom
        self._clamp()

    def line_at(self, pos: tuple[int, int]) -> int | None:
        """The display line under a screen point, None outside the lines."""
        if self.rect is None or not self.rect.collidepoint(pos):
            return None
        i = self.top + (pos[1] - self.rect.y - PAD) // self.line_height
        return i if self.top <= i < min(len(self._lines), self.top + self.visible_count) else None

    @property
    def selected_event(self) -> Event | None:
        return None if self._selected is None else self.events[self._selected]

    def select(self, event: int | None) -> None:
        """Select an event by index (None clears): `shared.highlight` becomes the models it involves."""
        self._selected = event
        if event is None:
            if self.shared.highlight == self._highlight:
                self.shared.highlight = frozenset()
            self._highlight = frozenset()
            return
        self._highlight = models_of(self.events[event], self._state)
        self.shared.highlight = self._highlight

    # -- the text -----------------------------------------------------------------------------------------------
    def text(self) -> str:
        """The whole log as plain text: every event's describe lines, in order."""
        return "".join(t + "\n" for t in self._texts)

    def save_text(self, path: str | Path) -> Path:
        """Write the whole log as plain text (atomically); returns the path written."""
        out = Path(path)
        atomic_write_text(out, self.text())
        return out

    # -- helpers ------------------------------------------------------------------------------------------------
    def _max_top(self) -> int:
        return max(0, len(self._lines) - self.visible_count)

    def _clamp(self) -> None:
        bottom = self._max_top()
        self.top = bottom if self.follow else max(0, min(self.top, bottom))
        if self.top >= bottom and self.rect is not None:
            self.follow = True

    def _events_below(self, end: int) -> int:
        """Events after the last visible line's event."""
        if end >= len(self._lines) or not self._lines:
            return 0
        return len(self.events) - 1 - self._lines[max(0, end - 1)].event

    def _wrap(self, line: _Line) -> list[_Line]:
        """Wrap at spaces to the text width (never inside a word or rule ID); continuations indent 4 more."""
        f = font(FONT_SIZE, bold=line.kind == HEAD)
        if f.size(line.text)[0] <= self._width:
            return [line]
        body = line.text.lstrip(" ")
        lead = line.text[: len(line.text) - len(body)]
        indent = lead + "    "
        words = body.split(" ")
        out: list[str] = []
        cur = lead + words[0]
        for word in words[1:]:
            trial = f"{cur} {word}"
            if word and f.size(trial)[0] > self._width:
                out.append(cur.rstrip(" "))
                cur = indent + word
            else:
                cur = trial
        out.append(cur)
        return [_Line(t, line.event, line.kind) for t in out]

    def _render(self, line: _Line) -> pygame.Surface:
        """A display line as segments: the sentence in ink (bold headlines, reasons in the hostiles' intent
        colour), rule IDs dimmer, crew side names in their side colour."""
        import pygame

        f = font(FONT_SIZE, bold=line.kind == HEAD)
        base: Colour = THEME.leash if line.kind == WHY else CREW_WHY_INK if line.kind == CREW_WHY else THEME.ink
        segs = self._segments(line.text, base, frozenset(self.events[line.event].rules))
        w = sum(f.size(t)[0] for t, _ in segs)
        img = pygame.Surface((max(1, w), f.get_linesize()), pygame.SRCALPHA)
        x = 0
        for t, colour in segs:
            if t:
                img.blit(f.render(t, True, colour), (x, 0))
                x += f.size(t)[0]
        return img.convert_alpha() if pygame.display.get_surface() is not None else img

    def _segments(self, text: str, base: Colour, rules: frozenset[str]) -> list[tuple[str, Colour]]:
        out: list[tuple[str, Colour]] = []
        at = 0
        for m in RULE_RE.finditer(text):
            if m.group(1) not in rules:
                continue
            out.append((text[at:m.start()], base))
            out.append((m.group(0), THEME.dim_ink))
            at = m.end()
        out.append((text[at:], base))
        first, colour = out[0]
        side = first.lstrip(" ").split(" ", 1)[0]
        if side in self.shared.crews:  # "military activates ...": the crew's name in its side colour
            cut = first.index(side)
            out[0:1] = [(first[:cut], colour), (side, side_colour(self.shared.side_index(side))),
                        (first[cut + len(side):], colour)]
        return [(t, c) for t, c in out if t]

    def _draw_hint(self, page: pygame.Surface, text: str) -> None:
        import pygame

        w, h = page.get_size()
        img = font(12, bold=True).render(text, True, THEME.ink)
        box = img.get_rect(midbottom=(w // 2, h - 6)).inflate(14, 6)
        pygame.draw.rect(page, THEME.panel_hi, box, border_radius=8)
        pygame.draw.rect(page, THEME.panel_edge, box, 1, border_radius=8)
        page.blit(img, img.get_rect(center=box.center))
