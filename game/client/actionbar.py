"""The action bar: one button per option the core lists for the selected unit (`game.core.rules.options`), each with
its fixed shortcut key; an illegal option is greyed and says why not, with the rule, on hover and on keyboard focus.

The bar decides nothing: what is legal, the reason and its rule come from the options (the same `validate` the
engine resolves with); a chosen legal option goes to `on_choose`, which picks the target or the point.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from game.client.theme import THEME, font

if TYPE_CHECKING:
    import pygame

    from game.client.widget import Shared
    from game.core.events import Event
    from game.core.state import GameState
    from game.render.style import Colour

__all__ = ["BAR_HEIGHT", "SHORTCUTS", "ActionBar", "OptionLike", "shortcuts_text", "tooltip_for"]

# One key per kind of option, fixed, so a player learns them once. The battle scene already uses Space . N T 1 2 V H P
# Escape F, the arrows and WASD (camera), +/- and Home; those are left alone. The action phase's kinds take the 16
# free letters and the digits 3-9; the phase choices (which never share the bar with an action, except a spawned
# unit's free move with Stay put) take F1-F12 and 0. A kind the core lists several times (a Reload or a grenade per
# weapon, a Deploy per model) shares its key: the key moves the focus among them and Enter chooses.
SHORTCUTS: Mapping[str, str] = MappingProxyType({
    # the actions of an activation (CORE-3.3, CORE-3.4, COMBAT-4, TURN-6)
    "move": "M", "climb": "C", "jump": "J", "aim": "I", "alert": "L", "rally": "R", "reload": "Q",
    "use_item": "U", "task": "Y", "search": "Z", "bolt_toss": "B", "order": "O", "shoot": "X", "melee": "K",
    "grenade": "G", "end": "E",
    "inspect": "3", "recover": "4", "withdraw": "5", "template": "6", "flame": "7", "search_anomaly": "8",
    "break_alliance": "9",
    # the phase choices (CORE-3.1.PASS, TURN-4, TURN-5, TURN-7, COMBAT-4.2.PARRY, COMBAT-4.4.MEDKIT-DELAY, TURN-8)
    "go_first": "F1", "pass": "F2", "activate": "F3", "deploy": "F4", "interrupt": "F5", "interrupt_move": "F6",
    "decline": "F7", "medkit": "F8", "decline_medkit": "F9", "parry": "F10", "hostile_roll": "F11",
    "found_item": "F12", "stay": "0",
})

BUTTON_H = 30
GAP = 6
PAD_X = 8
MAX_ROWS = 2
BAR_HEIGHT = MAX_ROWS * BUTTON_H + (MAX_ROWS + 1) * GAP  # the layout height that holds two rows
LABEL_SIZE = (14, 12)  # the label font, and the smaller one tried when the buttons do not fit
KEY_SIZE = 12
TIP_SIZE = 13
TIP_MAX_W = 720
DARK_PANEL: Colour = (24, 25, 22)  # an illegal option: darker than THEME.panel
LIT_PANEL: Colour = (72, 77, 63)  # a legal option under the mouse or the focus
_RULE_PAREN = re.compile(r"\s*\((?:[A-Z]+-[^()]*)\)")
_BRACKETS = re.compile(r"\s*\([^()]*\)\s*$")


class OptionLike(Protocol):
    """What the bar reads of an option (game.core.rules.options.Option, or any object with these attributes);
    read-only, so a frozen dataclass fits."""

    @property
    def kind(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def actions(self) -> tuple[Any, ...]: ...
    @property
    def needs(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def reason_rule(self) -> str: ...
    @property
    def cost(self) -> int: ...
    @property
    def legal(self) -> bool: ...


def shortcuts_text() -> str:
    """The mapping as a hint line shows it: "M move  C climb  ..."."""
    return "  ".join(f"{key} {kind.replace('_', ' ')}" for kind, key in SHORTCUTS.items())


def _doc_sentence(action: object) -> str:
    """The first sentence of an action class's own docstring, without its rule IDs (the tooltip adds the option's
    rule); "" for a class with none of its own."""
    cls = type(action)
    doc = cls.__dict__.get("__doc__") or ""
    if not doc or doc.startswith(f"{cls.__name__}("):  # a dataclass's generated signature, not a description
        return ""
    first = " ".join(doc.split()).split(". ")[0].split(";")[0].rstrip(".")
    return _RULE_PAREN.sub("", first).strip()


def tooltip_for(option: OptionLike) -> str:
    """What the bar says about an option: for an illegal one "why not: <reason> (<rule>)"; for a legal one what it
    does (its Action's docstring), its rule and its cost, and what is picked next (a target, a point)."""
    if not option.legal:
        rule = f" ({option.reason_rule})" if option.reason_rule else ""
        return f"why not: {option.reason or 'not possible now'}{rule}"
    what, tail = _legal_parts(option)
    return f"{option.label}: {what} ({option.rule}), {tail}" if what else f"{option.label} ({option.rule}), {tail}"


def _legal_parts(option: OptionLike) -> tuple[str, str]:
    """A legal option's description (its Action's docstring, "" without one) and its cost and next pick."""
    example = option.actions[0] if option.actions else getattr(option, "example", None)  # a point option's
    what = _doc_sentence(example) if example is not None else ""
    tail = "free" if option.cost == 0 else f"{option.cost} action{'s' if option.cost != 1 else ''}"
    if option.needs == "target" and len(option.actions) > 1:
        tail += "; then pick the target"
    elif option.needs == "point":
        tail += "; then pick a point on the table"
    return what, tail


class ActionBar:
    """The row of option buttons along the bottom of the board (Widget). `set_options` gives what the core lists;
    a click, the option's shortcut (`SHORTCUTS`) or Enter on the focused button (Tab / Shift+Tab move the focus)
    calls `on_choose(option)` for a legal option only. The tooltip (`tooltip_text`) is drawn above the buttons for
    the hovered button, else the focused one. The buttons are drawn bottom-aligned in the layout rectangle, one or
    two rows; the tooltip goes above them, over the board (draw the bar after the board)."""

    def __init__(self, shared: Shared, on_choose: Callable[[Any], None]) -> None:
        self.shared = shared
        self.on_choose = on_choose
        self.options: list[OptionLike] = []
        self.rect: pygame.Rect | None = None
        self.buttons: list[pygame.Rect] = []  # one per option, screen coordinates
        self.hover: int | None = None
        self.focus: int | None = None
        self._label_size = LABEL_SIZE[0]
        self._labels: list[str] = []  # as drawn (shortened when the bar is crowded)
        self._keys: dict[int, str] | None = None  # pygame key code -> kind
        self._img: pygame.Surface | None = None
        self._img_key: tuple[object, ...] = ()
        self._tip: tuple[str, pygame.Surface] | None = None
        self.renders = 0  # bar renders (tests check the cache)

    # -- what is shown ------------------------------------------------------------------------------------------
    def set_options(self, options: Sequence[OptionLike]) -> None:
        """The options of the selected unit now (empty: no bar). Hover and focus are kept on the same kind."""
        old = [o.kind for o in self.options]
        kinds = [o.kind for o in options]
        if kinds != old:
            self.hover = None
            if self.focus is not None:
                kind = old[self.focus] if self.focus < len(old) else None
                self.focus = kinds.index(kind) if kind in kinds else None
        self.options = list(options)
        self._place()

    def shortcut(self, option: OptionLike) -> str:
        """The option's key as shown ("" for a kind with none: Tab and the mouse still reach it)."""
        return SHORTCUTS.get(option.kind, "")

    def shown(self) -> int | None:
        """The button the tooltip is about: the hovered one, else the focused one."""
        return self.hover if self.hover is not None else self.focus

    def tooltip_text(self) -> str:
        i = self.shown()
        return tooltip_for(self.options[i]) if i is not None and i < len(self.options) else ""

    def labels(self) -> list[str]:
        """Each button's text as drawn: "[key] label"."""
        pairs = zip(self.options, self._labels, strict=True)
        return [f"[{self.shortcut(o)}] {lab}" if self.shortcut(o) else lab for o, lab in pairs]

    # -- the Widget protocol ------------------------------------------------------------------------------------
    def layout(self, rect: pygame.Rect) -> None:
        import pygame

        self.rect = pygame.Rect(rect)
        self._place()

    def feed(self, events: Sequence[Event], state: GameState) -> None:
        """The options come from `set_options` (the scene asks the core after every applied action)."""

    def update(self, dt: float) -> None:
        """Nothing moves in the bar."""

    @property
    def busy(self) -> bool:
        return False

    def handle(self, ev: pygame.event.Event) -> bool:
        import pygame

        if self.rect is None or not self.options:
            return False
        if ev.type == pygame.MOUSEMOTION:
            self.hover = self.button_at(ev.pos)
            return self.hover is not None
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            i = self.button_at(ev.pos)
            if i is None:
                return False
            self.choose(i)
            return True
        if ev.type == pygame.WINDOWLEAVE:
            self.hover = None
            return False
        if ev.type == pygame.KEYDOWN:
            return self._key(ev)
        return False

    def _key(self, ev: pygame.event.Event) -> bool:
        import pygame

        mod = getattr(ev, "mod", 0)
        if mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META):
            return False
        n = len(self.options)
        if ev.key == pygame.K_TAB:
            step = -1 if mod & pygame.KMOD_SHIFT else 1
            start = (-1 if step > 0 else 0) if self.focus is None else self.focus
            self.focus = (start + step) % n
            return True
        if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.focus is not None:
            self.choose(self.focus)
            return True
        if ev.key == pygame.K_ESCAPE and self.focus is not None:
            self.focus = None
            return True
        kind = self._key_codes().get(ev.key)
        if kind is None:
            return False
        same = [j for j, o in enumerate(self.options) if o.kind == kind]
        if not same:
            return False
        if len(same) > 1:  # several of a kind (a grenade per type): the key walks them, Enter chooses
            later = [j for j in same if self.focus is not None and j > self.focus]
            self.focus = later[0] if later and self.focus in same else same[0]
            return True
        if not self.options[same[0]].legal:
            self.focus = same[0]  # a keyboard player learns why not, as a mouse player does by hovering
        self.choose(same[0])
        return True

    def _key_codes(self) -> dict[int, str]:
        import pygame

        if self._keys is None:
            self._keys = {pygame.key.key_code(key.lower()): kind for kind, key in SHORTCUTS.items()}
            pad = (pygame.K_KP0, pygame.K_KP3, pygame.K_KP4, pygame.K_KP5, pygame.K_KP6, pygame.K_KP7, pygame.K_KP8,
                   pygame.K_KP9)
            keypad = dict(zip("03456789", pad, strict=True))
            self._keys.update({keypad[key]: kind for kind, key in SHORTCUTS.items() if key in keypad})
        return self._keys

    def choose(self, i: int) -> bool:
        """Choose button i: on_choose(option) when the option is legal; False (nothing happens) otherwise."""
        option = self.options[i]
        if not option.legal:
            return False
        self.on_choose(option)
        return True

    def button_at(self, pos: tuple[int, int] | Sequence[int]) -> int | None:
        return next((i for i, r in enumerate(self.buttons) if r.collidepoint(pos)), None)

    # -- placing and drawing ------------------------------------------------------------------------------------
    def _widths(self, size: int, labels: Sequence[str]) -> list[int]:
        f, k = font(size), font(KEY_SIZE, bold=True)
        out = []
        for o, lab in zip(self.options, labels, strict=True):
            key = self.shortcut(o)
            out.append(f.size(lab)[0] + 2 * PAD_X + (k.size(key)[0] + 10 if key else 0))
        return out

    def _rows(self, widths: Sequence[int], room: int) -> list[list[int]]:
        rows: list[list[int]] = [[]]
        x = 0
        for i, w in enumerate(widths):
            if rows[-1] and x + w > room:
                rows.append([])
                x = 0
            rows[-1].append(i)
            x += w + GAP
        return rows

    def _place(self) -> None:
        """Lay the buttons out left to right, wrapping to a second row; when two rows do not hold them, the labels
        without their bracketed cost, then the smaller font, then shortened labels."""
        import pygame

        self.buttons = []
        self._img = None
        if self.rect is None or not self.options:
            self._labels = [o.label for o in self.options]
            return
        room = self.rect.w - 2 * GAP
        full = [o.label for o in self.options]
        short = [_BRACKETS.sub("", lab) or lab for lab in full]  # the cost in brackets is in the tooltip too
        rows: list[list[int]] = []
        widths: list[int] = []
        labels = full
        for size, labels in ((s, lab) for s in LABEL_SIZE for lab in (full, short)):
            self._label_size = size
            widths = self._widths(size, labels)
            rows = self._rows(widths, room)
            if len(rows) <= MAX_ROWS:
                break
        labels = list(labels)
        while len(rows) > MAX_ROWS and max(len(lab) for lab in labels) > 4:
            i = max(range(len(labels)), key=lambda j: (len(labels[j]), -j))
            labels[i] = labels[i].rstrip("\u2026")[:-1].rstrip() + "\u2026"
            widths = self._widths(self._label_size, labels)
            rows = self._rows(widths, room)
        self._labels = labels
        rects: dict[int, pygame.Rect] = {}
        bottom = self.rect.bottom - GAP
        for r, row in enumerate(reversed(rows[:MAX_ROWS])):
            y = bottom - (r + 1) * BUTTON_H - r * GAP
            x = self.rect.x + GAP
            for i in row:
                rects[i] = pygame.Rect(x, y, widths[i], BUTTON_H)
                x += widths[i] + GAP
        self.buttons = [rects.get(i, pygame.Rect(0, 0, 0, 0)) for i in range(len(self.options))]

    def _state_key(self) -> tuple[object, ...]:
        opts = tuple((o.kind, o.label, o.legal, o.reason, o.reason_rule, o.cost) for o in self.options)
        return opts, self.hover, self.focus, tuple(self.rect) if self.rect else None, self._label_size

    def draw(self, surface: pygame.Surface) -> None:
        if self.rect is None or not self.options or not self.buttons:
            return
        key = self._state_key()
        if self._img is None or key != self._img_key:
            self._img, self._img_key = self._render(), key
            self.renders += 1
        top = min(r.y for r in self.buttons if r.w) - GAP
        surface.blit(self._img, (self.rect.x, top))
        self._draw_tip(surface, top)

    def _render(self) -> pygame.Surface:
        """All the buttons in one picture (from the top of the first row to the bar's bottom)."""
        import pygame

        assert self.rect is not None
        top = min(r.y for r in self.buttons if r.w) - GAP
        img = pygame.Surface((self.rect.w, self.rect.bottom - top), pygame.SRCALPHA)
        label_f, key_f = font(self._label_size), font(KEY_SIZE, bold=True)
        for i, (o, r, lab) in enumerate(zip(self.options, self.buttons, self._labels, strict=True)):
            if not r.w:
                continue
            b = r.move(-self.rect.x, -top)
            legal = bool(o.legal)
            lit = i in (self.hover, self.focus)
            fill = (LIT_PANEL if lit else THEME.panel_hi) if legal else DARK_PANEL
            pygame.draw.rect(img, fill, b, border_radius=5)
            edge = THEME.selection if i == self.focus else ((THEME.ink if legal else THEME.dim_ink) if lit
                                                            else THEME.panel_edge)
            pygame.draw.rect(img, edge, b, 2 if i == self.focus else 1, border_radius=5)
            ink = THEME.ink if legal else THEME.dim_ink
            x = b.x + PAD_X
            shortcut = self.shortcut(o)
            if shortcut:
                k = key_f.render(shortcut, True, THEME.dark_ink if legal else DARK_PANEL)
                chip = pygame.Rect(x - 2, b.centery - 8, max(16, k.get_width() + 6), 16)
                pygame.draw.rect(img, THEME.dim_ink if legal else THEME.panel_edge, chip, border_radius=3)
                img.blit(k, k.get_rect(center=chip.center))
                x = chip.right + 6
            t = label_f.render(lab, True, ink)
            img.blit(t, (x, b.centery - t.get_height() // 2))
        return img

    def _draw_tip(self, surface: pygame.Surface, top: int) -> None:
        import pygame

        i = self.shown()
        text = self.tooltip_text()
        if i is None or not text or self.rect is None:
            return
        if self._tip is None or self._tip[0] != f"{i}:{text}":
            self._tip = (f"{i}:{text}", self._render_tip(self.options[i], text))
        tip = self._tip[1]
        anchor = self.buttons[i]
        x = max(self.rect.x + GAP, min(anchor.x, self.rect.right - tip.get_width() - GAP))
        surface.blit(tip, pygame.Rect(x, top - tip.get_height() - 2, *tip.get_size()))

    def _render_tip(self, option: OptionLike, text: str) -> pygame.Surface:
        import pygame

        from game.client.ui import wrap

        head_f, body_f = font(TIP_SIZE, bold=True), font(TIP_SIZE)
        legal = bool(option.legal)
        key = self.shortcut(option)
        head = f"{option.label}" + (f"  [{key}]" if key else "") + ("" if legal else "  (not now)")
        most = min(TIP_MAX_W, self.rect.w - 2 * GAP) if self.rect is not None else TIP_MAX_W
        if legal:  # the heading names it already
            what, tail = _legal_parts(option)
            text = f"{what} ({option.rule}), {tail}" if what else f"{option.rule}, {tail}"
        body = wrap(text, body_f, most - 20)
        w = min(most, max(head_f.size(head)[0], *(body_f.size(b)[0] for b in body)) + 20)
        h = 12 + head_f.get_linesize() + body_f.get_linesize() * len(body)
        img = pygame.Surface((w, h))
        img.fill(THEME.panel)
        pygame.draw.rect(img, THEME.ink if legal else THEME.dim_ink, img.get_rect(), 1)
        img.blit(head_f.render(head, True, THEME.ink), (10, 6))
        y = 6 + head_f.get_linesize()
        for line in body:
            img.blit(body_f.render(line, True, THEME.ink), (10, y))
            y += body_f.get_linesize()
        return img
