"""The HUD: the top bar (scenario, turn and Turn Limit, the phase in words, the Environmental Hazard, the scene's
status) and the why-card (the reason the latest reasoned decision gives: the hostiles' A.I. and the autopilot)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from game.client.strip import side_name
from game.client.theme import THEME, font, side_colour
from game.client.ui import wrap
from game.client.widget import Static, opaque
from game.core.state import Phase
from game.render.style import Colour

if TYPE_CHECKING:
    import pygame

    from game.client.widget import Shared
    from game.core.events import Event
    from game.core.state import GameState

__all__ = ["Hud", "WhyCard", "hazard_words", "phase_words", "turn_words", "why_card"]

BAR_SIZE = 15
CARD_WIDTH = 380
CARD_PAD = 10
MAX_TEXT_LINES = 5
WHO_KEYS = ("unit", "model", "attacker", "leader", "applier", "side")


def turn_words(state: GameState) -> str:
    """ "Turn t / limit" (TURN-1, MISSION-8.2.TURN-LIMIT), "Deployment" before turn 1 (TURN-4)."""
    return "Deployment" if state.turn == 0 else f"Turn {state.turn} / {state.turn_limit}"


def phase_words(state: GameState) -> str:
    """Where the turn stands and who must decide (TURN-1), in words."""
    who = _name(state, state.deciding)
    act = state.activation
    words = {
        Phase.DEPLOY: f"{who} deploys",
        Phase.INITIATIVE: f"{who} won the initiative: go first or pass",
        Phase.ACTIVATE: f"{who} picks a unit to activate",
        Phase.ACTION: f"{act.unit if act else who} takes an action",
        Phase.INTERRUPT: f"{who} may interrupt from Alert",
        Phase.MEDKIT: f"{who} may use a Med-Kit",
        Phase.PARRY: f"{who} chooses hits to parry",
        Phase.HOSTILE_ROLL: f"{who} picks the Zone Hostiles result",
        Phase.SPAWN_MOVE: "new Zone Hostiles make their free move",
        Phase.FOUND_ITEM: f"{who} picks an item found",
        Phase.MISSION_END: "mission over",
    }
    return words.get(state.phase, state.phase.value)


def hazard_words(state: GameState) -> str:
    """The Environmental Hazard rolled for this Zone Run (TURN-3, SALVAGE-8.4.ENV); "" when none was rolled."""
    return state.environment.replace("_", " ").title() if state.environment else ""


def _name(state: GameState, side: str) -> str:
    try:
        return side_name(state, side) if side else "nobody"
    except KeyError:
        return side


@dataclass(frozen=True, slots=True)
class WhyCard:
    """What a reasoned decision says: who decided, the event in a few words, the reason and its rule(s)."""

    seq: int
    who: str
    side: str | None
    what: str
    text: str
    rule: str


def why_card(event: Event) -> WhyCard | None:
    """The card of an event whose data carries an agent's reason (`reason` or `decision_reason` with "text"; the
    Zone Hostiles' A.I. rules AI-D.*, AI-S.*, and the crew autopilot); None for any other event."""
    d = event.data
    reason = d.get("reason")
    if not (isinstance(reason, Mapping) and reason.get("text")):
        reason = d.get("decision_reason")
    if not (isinstance(reason, Mapping) and reason.get("text")):
        return None
    rules = reason.get("rules")
    rule = str(reason.get("rule") or "") or (", ".join(str(r) for r in rules) if isinstance(rules, Sequence)
                                             and not isinstance(rules, str) else "")
    text = str(reason["text"])
    if rule and text.startswith(f"{rule}: "):
        text = text[len(rule) + 2:]  # the rule is shown on its own line
    who = next((str(d[k]) for k in WHO_KEYS if isinstance(d.get(k), str)), event.type)
    side = d.get("side") if isinstance(d.get("side"), str) else None
    return WhyCard(event.seq, who, side, _few_words(event.type, d), text, rule)


def _few_words(kind: str, d: Mapping[str, Any]) -> str:
    """The event in a few words (the log has the full line)."""
    def num(k: str) -> str:
        v = d.get(k)
        return f"{v:.1f}" if isinstance(v, (int, float)) else "?"

    words = {
        "activation_start": lambda: f"activates with {d.get('budget', '?')} action(s)",
        "activation_end": lambda: "ends its activation",
        "move": lambda: f"moves {num('length')}\"",
        "climb": lambda: f"climbs {num('length')}\"",
        "attack": lambda: f"attacks {d.get('target') or d.get('at_model') or 'a point'} with {d.get('weapon', '?')}",
        "alert": lambda: "goes on Alert",
        "aim": lambda: "aims",
        "rally": lambda: "rallies",
        "interrupt": lambda: f"interrupts {d.get('acting_unit', '')}".strip(),
        "interrupt_declined": lambda: "does not interrupt",
        "target_locked": lambda: f"locks onto {d.get('target', '?')}",
        "free_move": lambda: "makes its free move" if d.get("moved") else "stays where it appeared",
    }
    f = words.get(kind)
    return f() if f is not None else kind.replace("_", " ")


class Hud(Static):
    """The top bar and the why-card (Widget). `status` is the scene's text (autoplay speed, "thinking...",
    "paused"); `card_rect` places the card (the scene may set its top-left and width). Both surfaces are cached
    until what they show changes."""

    def __init__(self, shared: Shared, scenario_name: str) -> None:
        self.shared = shared
        self.scenario_name = scenario_name
        self.status = ""
        self.rect: pygame.Rect | None = None
        self.turn = ""
        self.phase = ""
        self.hazard = ""
        self.card: WhyCard | None = None
        self._card_pos = (0, 0)
        self._card_width = CARD_WIDTH
        self._card_placed = False  # the scene set card_rect: layout leaves it alone
        self._bar: pygame.Surface | None = None
        self._bar_key: tuple[object, ...] = ()
        self._card_cache: dict[tuple[object, ...], pygame.Surface] = {}
        self.zone_card: WhyCard | None = None  # the latest hostile decision's reason
        self.crew_card: WhyCard | None = None  # the latest crew autopilot decision's reason
        self.cards_shown = True
        self.renders = 0  # bar and card renders (tests check the cache)

    # -- the Widget protocol ------------------------------------------------------------------------------------
    def layout(self, rect: pygame.Rect) -> None:
        """The bar's rectangle; the card goes by default under its right end."""
        import pygame

        self.rect = pygame.Rect(rect)
        if not self._card_placed:
            self._card_pos = (self.rect.right - self._card_width - 8, self.rect.bottom + 8)

    def feed(self, events: Sequence[Event], state: GameState) -> None:
        self.turn, self.phase, self.hazard = turn_words(state), phase_words(state), hazard_words(state)
        for e in reversed(events):
            card = why_card(e)
            if card is not None:
                if card.side is None:  # the side of who decided, for the card's colour
                    owner = state.units.get(card.who) or state.models.get(card.who)
                    card = replace(card, side=owner.side if owner is not None else None)
                self.card = card
                if card.side is not None and card.side in self.shared.crews:
                    self.crew_card = card
                else:
                    self.zone_card = card  # the hostiles' intent stays on screen (AI-D.*, AI-8.3.RULE*)
                break

    # -- the bar ------------------------------------------------------------------------------------------------
    def bar_parts(self) -> list[str]:
        """What the bar shows, left to right (empty parts left out)."""
        hazard = f"Environment: {self.hazard}" if self.hazard else ""
        return [p for p in (self.scenario_name, self.turn, self.phase, hazard, self.status) if p]

    def draw(self, surface: pygame.Surface) -> None:
        """The top bar."""
        if self.rect is None:
            return
        key = (self.scenario_name, self.turn, self.phase, self.hazard, self.status, self.rect.size)
        if self._bar is None or key != self._bar_key:
            self._bar, self._bar_key = self._render_bar(), key
            self.renders += 1
        surface.blit(self._bar, self.rect)

    def _render_bar(self) -> pygame.Surface:
        import pygame

        assert self.rect is not None
        w, h = self.rect.size
        img = opaque((w, h))
        img.fill(THEME.frame)
        pygame.draw.line(img, THEME.panel_edge, (0, h - 1), (w, h - 1))
        bold, plain = font(BAR_SIZE, bold=True), font(BAR_SIZE)
        x = 10
        items: list[tuple[str, pygame.font.Font, Colour]] = [(self.scenario_name, bold, THEME.ink),
                                                             (self.turn, bold, THEME.ink),
                                                             (self.phase, plain, THEME.ink)]
        if self.hazard:
            items.append((f"Environment: {self.hazard}", plain, THEME.ink))
        for text, f, colour in items:
            if not text:
                continue
            t = f.render(text, True, colour)
            img.blit(t, (x, (h - t.get_height()) // 2))
            x += t.get_width() + 12
            pygame.draw.line(img, THEME.panel_edge, (x - 6, 6), (x - 6, h - 7))
        if self.status:
            t = plain.render(self.status, True, THEME.dim_ink)
            img.blit(t, (max(x, w - t.get_width() - 10), (h - t.get_height()) // 2))
        return img

    # -- the why-card -------------------------------------------------------------------------------------------
    @property
    def card_rect(self) -> pygame.Rect:
        """Where the cards are drawn: top-left and width as placed, the height of the stack (0 with no card)."""
        import pygame

        cards = self.shown_cards()
        h = sum(self._card_surface(c).get_height() for c in cards) + 6 * max(0, len(cards) - 1)
        return pygame.Rect(self._card_pos, (self._card_width, h))

    @card_rect.setter
    def card_rect(self, rect: pygame.Rect) -> None:
        self._card_pos, self._card_width = (int(rect[0]), int(rect[1])), max(160, int(rect[2]))
        self._card_placed = True

    def shown_cards(self) -> list[WhyCard]:
        """The cards on screen: the Zone's latest reasoned decision (its intent stays in view), and over it the
        crew autopilot's latest when that is newer; none when hidden (`cards_shown`)."""
        if not self.cards_shown:
            return []
        out = [self.zone_card] if self.zone_card is not None else []
        if self.crew_card is not None and (self.zone_card is None or self.crew_card.seq > self.zone_card.seq):
            out.append(self.crew_card)
        return out

    def card_lines(self) -> list[str]:
        """The cards' text, line by line as drawn (wrapped to the card)."""
        return [t for card in self.shown_cards() for t, _, _ in self._card_rows(card)]

    def draw_card(self, surface: pygame.Surface) -> None:
        """The why-cards (`shown_cards`), stacked from the placed top-left; each stays until the next one."""
        x, y = self._card_pos
        for card in self.shown_cards():
            img = self._card_surface(card)
            surface.blit(img, (x, y))
            y += img.get_height() + 6

    def _card_surface(self, card: WhyCard | None = None) -> pygame.Surface:
        card = card if card is not None else self.card
        assert card is not None
        key = (card, self._card_width)
        cached = self._card_cache.get(key)
        if cached is None:
            if len(self._card_cache) > 8:
                self._card_cache.clear()
            cached = self._card_cache[key] = self._render_card(card)
            self.renders += 1
        return cached

    def _card_rows(self, card: WhyCard) -> list[tuple[str, pygame.font.Font, Colour]]:
        room = self._card_width - 2 * CARD_PAD
        head, body, small = font(15, bold=True), font(14), font(12)
        rows: list[tuple[str, pygame.font.Font, Colour]] = [(f"Why: {card.who}", head, THEME.ink),
                                                            (card.what, body, THEME.dim_ink)]
        text = wrap(card.text, body, room)
        if len(text) > MAX_TEXT_LINES:  # the log has the whole reason
            text = text[:MAX_TEXT_LINES - 1] + [text[MAX_TEXT_LINES - 1] + " ..."]
        rows += [(line, body, THEME.ink) for line in text]
        if card.rule:
            rows += [(line, small, THEME.dim_ink) for line in wrap(f"rule {card.rule}", small, room)]
        return rows

    def _render_card(self, card: WhyCard) -> pygame.Surface:
        import pygame

        rows = self._card_rows(card)
        h = 2 * CARD_PAD + sum(f.get_linesize() for _, f, _ in rows) + 6
        img = pygame.Surface((self._card_width, h))
        if pygame.display.get_surface() is not None:
            img = img.convert()
        img.fill(THEME.panel)
        crew = self.shared.side_index(card.side) if card.side else None
        edge = THEME.leash if crew is None else side_colour(crew)  # the hostiles' intent colour, or the crew's
        pygame.draw.rect(img, edge, img.get_rect(), 2)
        pygame.draw.rect(img, edge, (0, 0, 5, h))
        y = CARD_PAD
        for i, (text, f, colour) in enumerate(rows):
            img.blit(f.render(text, True, colour), (CARD_PAD + 2, y))
            y += f.get_linesize() + (6 if i == 1 else 0)
        return img
