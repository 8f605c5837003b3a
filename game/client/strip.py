"""The activation-order strip: one chip per side in this turn's order (crews and hostile forces), who acts now with
which unit and actions, who is next, and how many units each may still activate (TURN-4, TURN-5, TURN-6)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.client.theme import THEME, font, side_colour
from game.client.widget import Static, opaque
from game.core.rules.flow import eligible_units, next_seat
from game.core.settings import Settings
from game.core.state import ActivationState, Phase
from game.render.style import Colour

if TYPE_CHECKING:
    import pygame

    from game.client.widget import Shared
    from game.core.events import Event
    from game.core.state import GameState

__all__ = ["ActivationStrip", "Chip", "chips", "side_name"]

NAME_SIZE = 14
SMALL_SIZE = 12
GAP = 8


@dataclass(frozen=True, slots=True)
class Chip:
    """One side's place in the order: `left` is units it may still activate after the acting one (TURN-5), or
    during deployment models still to deploy (TURN-4); `unit`/`actions` the acting unit and its actions spent of
    its budget (TURN-6)."""

    side: str
    name: str
    colour: Colour
    hostile: bool
    left: int
    acting: bool = False
    next: bool = False
    deciding: bool = False
    unit: str = ""
    actions: str = ""
    deploying: bool = False

    @property
    def detail(self) -> str:
        """The chip's second line: the acting unit and its actions, then what is left."""
        left = f"{self.left} to deploy" if self.deploying else f"{self.left} left"
        return f"{self.unit} {self.actions} · {left}" if self.unit else left


def side_name(state: GameState, side: str) -> str:
    """A crew's name; a hostile force as its hostile and where it came from, e.g. "Dogs (structure-3-1)"."""
    force = state.forces.get(side)
    if force is None:
        return state.side(side).name
    where = side.removeprefix("zone-")
    return f"{force.hostile.replace('_', ' ').capitalize()} ({where})"


def chips(state: GameState, shared: Shared) -> list[Chip]:
    """The strip's chips from the state only: before turn 1 the deployment order (TURN-4), then this turn's
    activation order (TURN-5) with the acting side (the active unit's, TURN-6), the side that must decide when that
    is another one (an interrupt, the initiative choice) and the next side with a unit left to activate."""
    if state.turn == 0 or state.phase is Phase.DEPLOY:
        return _deployment(state, shared)
    act = state.activation
    acting = state.units[act.unit].side if act is not None and act.unit in state.units else None
    if acting is None and state.phase is Phase.ACTIVATE:
        acting = state.deciding
    left = {s: [u for u in eligible_units(state, s) if act is None or u != act.unit] for s in state.order}
    nxt = _next_side(state, act) if state.phase is not Phase.MISSION_END else None
    out = []
    for s in state.order:
        is_acting = s == acting and state.phase is not Phase.MISSION_END
        unit, actions = "", ""
        if is_acting and act is not None and act.unit in state.units:
            unit = act.unit
            actions = f"{act.spent}/{act.budget}" + (f" +{act.bonus}" if act.bonus else "")
        out.append(Chip(s, side_name(state, s), side_colour(shared.side_index(s)), s in state.forces, len(left[s]),
                        acting=is_acting, next=s == nxt, deciding=s == state.deciding and not is_acting
                        and state.phase is not Phase.MISSION_END, unit=unit, actions=actions))
    return out


def _deployment(state: GameState, shared: Shared) -> list[Chip]:
    order = state.deploy_order or [s.id for s in state.sides if s.id not in state.forces]
    todo = {s: sum(1 for m in state.models.values() if m.side == s and not m.deployed) for s in order}
    rest = [s for s in order if todo[s] and s != state.deciding]
    nxt = rest[0] if rest else None
    return [Chip(s, side_name(state, s), side_colour(shared.side_index(s)), s in state.forces, todo[s],
                 acting=s == state.deciding, next=s == nxt, deploying=True) for s in order]


def _next_side(state: GameState, act: ActivationState | None) -> str | None:
    """The side the activation cycle reaches next, from the core's own query (game.core.rules.flow.next_seat:
    TURN-5, GAP-18), the acting unit counted as done."""
    if not state.order:
        return None
    later = Settings(dict(state.settings))["hostiles.interleave"] == "after_players"
    idx = next_seat(state, after_players=later, done=act.unit if act is not None else None)
    return state.order[idx] if idx is not None else None


class ActivationStrip(Static):
    """The strip (Widget): chips left to right in order; the acting side raised and outlined, "next" marked. The
    rendered strip is cached until the state's order, activation or activated flags change."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.rect: pygame.Rect | None = None
        self.chips: list[Chip] = []
        self._key: tuple[object, ...] = ()
        self._image: pygame.Surface | None = None
        self._image_key: tuple[object, ...] = ()
        self.renders = 0  # how many times the strip was rendered (tests check the cache)

    def layout(self, rect: pygame.Rect) -> None:
        import pygame

        self.rect = pygame.Rect(rect)

    def feed(self, events: Sequence[Event], state: GameState) -> None:
        act = state.activation
        key = (state.turn, state.phase, tuple(state.order), tuple(state.deploy_order), state.deciding, state.cycle,
               None if act is None else (act.unit, act.spent, act.budget, act.bonus),
               tuple(u.activated for u in state.units.values()),
               sum(1 for m in state.models.values() if m.in_play))
        if key != self._key:
            self._key = key
            self.chips = chips(state, self.shared)

    def text(self) -> str:
        """The strip in words, chip by chip (tests, and a screen reader later)."""
        out = []
        for c in self.chips:
            mark = " [now]" if c.acting else " [decides]" if c.deciding else ""
            mark += " [next]" if c.next else ""
            out.append(f"{c.name}{mark}: {c.detail}")
        return " | ".join(out)

    def draw(self, surface: pygame.Surface) -> None:
        if self.rect is None:
            return
        key = (self._key, self.rect.size)
        if self._image is None or key != self._image_key:
            self._image, self._image_key = self._render(), key
            self.renders += 1
        surface.blit(self._image, self.rect)

    def _render(self) -> pygame.Surface:
        import pygame

        assert self.rect is not None
        w, h = self.rect.size
        img = opaque((w, h))
        img.fill(THEME.panel)
        pygame.draw.line(img, THEME.panel_edge, (0, h - 1), (w, h - 1))
        if not self.chips:
            return img
        x = GAP
        room = (w - GAP) // len(self.chips) - GAP
        for c in self.chips:
            x += self._chip(img, c, x, min(room, 260)) + GAP
        return img

    def _chip(self, img: pygame.Surface, c: Chip, x: int, room: int) -> int:
        """Draw one chip at x; returns its width."""
        import pygame

        h = img.get_height()
        big, small = font(NAME_SIZE, bold=c.acting), font(SMALL_SIZE)
        tag = ", ".join(t for t, on in (("decides", c.deciding), ("next", c.next)) if on)
        sw = 14  # the side colour swatch
        tag_w = small.size(tag)[0] + 8 if tag else 0  # the tag sits at the end of the second line
        text_room = max(20, room - sw - 18)
        name = _fit(big, c.name, text_room)
        detail = _fit(small, c.detail, max(20, text_room - tag_w))
        tw = max(big.size(name)[0], small.size(detail)[0] + tag_w)
        cw = min(room, sw + 18 + tw)
        top = 3 if c.acting else 6
        box = pygame.Rect(x, top, cw, h - top - 5)
        pygame.draw.rect(img, THEME.panel_hi if c.acting else THEME.panel, box, border_radius=6)
        pygame.draw.rect(img, THEME.selection if c.acting else THEME.panel_edge, box, 2 if c.acting else 1,
                         border_radius=6)
        centre = (box.x + 6 + sw // 2, box.centery)
        pygame.draw.circle(img, c.colour, centre, sw // 2)
        pygame.draw.circle(img, THEME.hostile_rim if c.hostile else THEME.panel_edge, centre, sw // 2, 2)
        tx = box.x + sw + 12
        name_img = big.render(name, True, THEME.ink)
        detail_img = small.render(detail, True, THEME.ink if c.acting else THEME.dim_ink)
        gap = max(0, (box.height - name_img.get_height() - detail_img.get_height()) // 2)
        img.blit(name_img, (tx, box.y + gap))
        img.blit(detail_img, (tx, box.y + gap + name_img.get_height()))
        if tag:
            t = font(SMALL_SIZE, bold=True).render(tag, True, THEME.ink)
            img.blit(t, (box.right - t.get_width() - 6, box.y + gap + name_img.get_height()))
        return cw


def _fit(f: pygame.font.Font, text: str, width: int) -> str:
    """The text, cut with an ellipsis to fit the width."""
    if f.size(text)[0] <= width:
        return text
    while text and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"
