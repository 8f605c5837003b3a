"""The dice tray: every roll's D10s tumble on felt (pymunk only animates them: the faces are the rules' seeded dice,
INTRO-1.2.D10), hits and criticals ringed once they settle, the Target Number beside them, the last rolls below."""
from __future__ import annotations

import enum
import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.client.theme import THEME, font, side_colour
from game.render.style import Colour

if TYPE_CHECKING:
    import pygame

    from game.client.physics import DiceTable
    from game.client.widget import Shared
    from game.core.events import Event
    from game.core.state import GameState

QUICK_QUEUE = 3  # this many rolls waiting: show them quicker
QUICK_FACTOR = 3.0
HISTORY = 3  # rolls remembered below the tray


class Look(enum.Enum):
    """How one die is drawn: tumbling, or once settled what the roll's own outcome and crit say about it."""

    ROLLING = "rolling"
    HIT = "hit"  # a success (INTRO-1.2.D10: face <= TN)
    MISS = "miss"
    CRIT = "crit"  # a natural 1 of a roll whose crit is a Critical Success (INTRO-1.2.CRIT-SUCCESS)
    FUMBLE = "fumble"  # a natural 10 of a roll whose crit is a Critical Failure (INTRO-1.2.CRIT-FAIL)
    DROPPED = "dropped"  # the die not kept of a best-of-two save (COMBAT-4.1.SAVE, GAP-14)


def _plural(n: int) -> str:
    return f"{n} success" if n == 1 else f"{n} successes"


def _terms(breakdown: Any, tn_text: str) -> tuple[str, ...]:
    """The TN's terms as tn_text writes them (the base stat, then each modifier signed), from the breakdown."""
    if breakdown:
        return tuple(f"{b[0]} {b[1]}" if i == 0 else f"{b[0]} {int(b[1]):+d}" for i, b in enumerate(breakdown))
    rest = tn_text.partition(" = ")[2]
    return (rest,) if rest else ()


def _crit_label(crit: str) -> tuple[str, Colour] | None:
    """The roll-level critical as the player reads it (INTRO-1.2.CRIT-*), with its colour."""
    return {"success": ("CRITICAL SUCCESS", THEME.die_crit), "failure": ("CRITICAL FAILURE", THEME.badge_wounded),
            "mix": ("critical mix: cancelled", THEME.dim_ink)}.get(crit)


@dataclass(frozen=True, slots=True)
class TrayRoll:
    """One `roll` event as the tray shows it: every number comes from the event (the client computes no rule)."""

    seq: int
    dice: tuple[int, ...]  # the kept faces
    outcome: tuple[bool, ...]  # per kept die: a success
    crit: str  # "none", "success", "failure", "mix"
    tn: int
    tn_text: str
    what: str
    who: str  # the rolling model's name (its id when the state does not know it)
    side: int | None  # its crew index (the side colour), None for a hostile
    successes: int
    rolled: tuple[tuple[int, ...], ...] = ()  # best-of-two: every group rolled, one kept from each
    terms: tuple[str, ...] = ()  # the TN's breakdown, one term each: `CA 5`, `Hard cover -1`

    @classmethod
    def from_event(cls, e: Event, state: GameState | None = None, shared: Shared | None = None) -> TrayRoll:
        d = e.data
        who = str(d.get("who", ""))
        model = state.models.get(who) if state is not None else None
        side = shared.side_index(model.side) if model is not None and shared is not None else None
        dice = tuple(int(f) for f in d.get("dice") or ())
        outcome = tuple(bool(x) for x in d.get("outcome") or ())
        return cls(seq=e.seq, dice=dice, outcome=(outcome + (False,) * len(dice))[: len(dice)],
                   crit=str(d.get("crit") or "none"), tn=int(d.get("tn", 0)), tn_text=str(d.get("tn_text", "")),
                   what=str(d.get("what", "")), who=model.profile.name if model is not None else who, side=side,
                   successes=int(d.get("successes", 0)),
                   rolled=tuple(tuple(int(f) for f in g) for g in d.get("rolled") or ()),
                   terms=_terms(d.get("breakdown"), str(d.get("tn_text", ""))))

    def faces(self) -> list[tuple[int, Look]]:
        """Every die on the felt and its settled look: the kept dice, or with best-of-two every die of each group
        (the one the event kept marked by its outcome, the others dropped)."""
        out: list[tuple[int, Look]] = []
        groups = self.rolled if len(self.rolled) == len(self.dice) else tuple((f,) for f in self.dice)
        for group, kept, hit in zip(groups, self.dice, self.outcome, strict=True):
            k = group.index(kept) if kept in group else 0
            for i, f in enumerate(group):
                out.append((f, self._look(f, hit, dropped=i != k)))
        return out

    def _look(self, face: int, hit: bool, *, dropped: bool) -> Look:
        if face == 1 and self.crit in ("success", "mix"):
            return Look.CRIT
        if face == 10 and self.crit in ("failure", "mix"):
            return Look.FUMBLE
        if dropped:
            return Look.DROPPED
        return Look.HIT if hit else Look.MISS

    def kept_text(self) -> str:
        """`[8 3]`, or with best-of-two `(3 7) (2 9) keep [3 2]` (the describe() reading of events.py)."""
        kept = "[" + " ".join(str(f) for f in self.dice) + "]"
        if self.rolled:
            return " ".join("(" + " ".join(str(f) for f in g) + ")" for g in self.rolled) + f" keep {kept}"
        return kept

    def line(self) -> str:
        """The history line: `Hlyna: [8 3] vs TN 4 -> 1 success`."""
        label = _crit_label(self.crit)
        crit = f", {label[0].lower()}" if label and self.crit != "mix" else ""
        return f"{self.who}: {self.kept_text()} vs TN {self.tn} \u2192 {_plural(self.successes)}{crit}"


def felt_colour(panel: Colour = THEME.panel) -> Colour:
    """The tray's felt: the panel colour darkened and pulled towards green."""
    r, g, b = panel[:3]
    return (int(r * 0.55), int(min(255, g * 1.05)), int(b * 0.6))


def _fit(f: pygame.font.Font, text: str, width: int) -> str:
    """The text, cut with an ellipsis to fit width pixels."""
    if f.size(text)[0] <= width:
        return text
    while text and f.size(text + "\u2026")[0] > width:
        text = text[:-1]
    return text + "\u2026"


class DiceTray:
    """The battle screen's dice tray (the Widget protocol): rolls queue up and are thrown one after another."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.animate: bool = True
        self.speed: float = 1.0
        self.hold: float = 0.8  # seconds a settled result stays busy at speed 1 (the viewer reads it)
        self.queue: deque[TrayRoll] = deque()
        self.current: TrayRoll | None = None
        self.history: deque[TrayRoll] = deque(maxlen=HISTORY)
        self.rect: Any = None  # pygame.Rect, set by layout
        self.felt: Any = None  # the felt's pygame.Rect (screen coordinates)
        self._table: DiceTable | None = None
        self._faces: list[tuple[int, Look]] = []
        self._holding = 0.0
        self._tumbling = False
        self._quick = 1.0
        self._bg: Any = None  # the cached panel: felt, texts, history (rebuilt when what it shows changes)
        self._sprites: list[tuple[Any, tuple[int, int]]] | None = None  # settled dice, rotated once
        self._face_cache: dict[tuple[int, Look, int], Any] = {}

    # -- the Widget protocol ---------------------------------------------------------------------------------------
    def layout(self, rect: pygame.Rect) -> None:
        import pygame

        self.rect = pygame.Rect(rect)
        self._bg, self._sprites = None, None
        self._layout_parts()
        if self._table is not None:
            self._table.resize(self.felt.size)

    def feed(self, events: Sequence[Event], state: GameState) -> None:
        """Queue every `roll` event; the first throws at the next update."""
        for e in events:
            if e.type == "roll":
                self.queue.append(TrayRoll.from_event(e, state, self.shared))

    def handle(self, ev: pygame.event.Event) -> bool:
        """The tray owns no input: the battle scene owns keys and clicks."""
        return False

    @property
    def busy(self) -> bool:
        """A throw tumbles, its result is held for the viewer, or rolls wait. With `animate` off the dice lie still
        at once, and the result is still held for `hold` (at speed 1) so autoplay leaves time to read it."""
        return bool(self.queue) or self._tumbling or self._holding > 0

    def update(self, dt: float) -> None:
        """Throw the next queued roll when the last one is done, tumble (physics time runs `speed` times faster, and
        faster again when many rolls wait), then count the hold down."""
        if not self._tumbling and self._holding <= 0 and self.queue:
            self._start(self.queue.popleft())
        rate = self.speed * self._quick
        if self._tumbling:
            table = self._ensure_table()
            if not self.animate:  # switched off mid-throw: the dice lie down at once
                if not table.settled:
                    table.place(len(self._faces))
            else:
                table.step(dt * rate)
            if table.settled:
                self._settle()
        elif self._holding > 0:
            self._holding -= dt

    def draw(self, surface: pygame.Surface) -> None:
        """The cached panel, then the dice (rotated each frame while they tumble, once when they settle)."""
        if self.rect is None:
            return
        if self._bg is None:
            self._bg = self._render_panel()
        surface.blit(self._bg, self.rect.topleft)
        if self.current is None or self._table is None:
            return
        if self._sprites is None:
            sprites = self._dice_sprites()
            if self._tumbling:
                for img, pos in sprites:
                    surface.blit(img, pos)
                return
            self._sprites = sprites
        for img, pos in self._sprites:
            surface.blit(img, pos)

    @property
    def table(self) -> DiceTable | None:
        """The physics of the tray (None before the first roll): where each die lies, for tests and tools."""
        return self._table

    def skip(self) -> None:
        """Show the newest roll settled at once (the others go to the history) and stop being busy: for a jump
        ahead (a resumed game, a skip key)."""
        while self.queue:
            self._start(self.queue.popleft())
        if self._tumbling and self._table is not None:
            self._table.place(len(self._faces))
            self._settle()
        self._holding = 0.0

    # -- throws ------------------------------------------------------------------------------------------------------
    def _ensure_table(self) -> DiceTable:
        if self._table is None:
            from game.client.physics import DiceTable

            self._table = DiceTable(self.felt.size if self.felt is not None else (260, 100))
        return self._table

    def _start(self, roll: TrayRoll) -> None:
        if self.current is not None:
            self.history.appendleft(self.current)
        self.current = roll
        self._faces = roll.faces()
        self._quick = QUICK_FACTOR if len(self.queue) >= QUICK_QUEUE else 1.0
        table = self._ensure_table()
        if self.animate:
            table.throw(len(self._faces), roll.seq)  # the event's seq seeds the animation (never the game's RNG)
        else:
            table.place(len(self._faces))
        self._tumbling = True
        self._holding = 0.0
        self._bg, self._sprites = None, None

    def _settle(self) -> None:
        self._tumbling = False
        self._holding = self.hold / max(1e-6, self.speed * self._quick)
        self._bg, self._sprites = None, None

    # -- drawing -----------------------------------------------------------------------------------------------------
    def _layout_parts(self) -> None:
        """Header (who and what) on top, the history at the bottom, the felt left and the numbers right between."""
        import pygame

        r = self.rect
        pad = max(4, r.h // 40)
        self._pad = pad
        self._head_h = 18 if r.h >= 90 else 0
        self._hist_n = 3 if r.h >= 150 else 2 if r.h >= 110 else 0
        self._hist_lh = 14
        mid_top = r.y + pad + self._head_h
        mid_h = max(20, r.h - 2 * pad - self._head_h - self._hist_n * self._hist_lh - (pad if self._hist_n else 0))
        felt_w = max(60, min(int(r.w * 0.58), r.w - 2 * pad - 120))
        self.felt = pygame.Rect(r.x + pad, mid_top, felt_w, mid_h)
        self._info = pygame.Rect(self.felt.right + pad * 2, mid_top, r.right - self.felt.right - pad * 3, mid_h)

    def _render_panel(self) -> pygame.Surface:
        import pygame

        r = self.rect
        surf = pygame.Surface(r.size)
        surf.fill(THEME.panel)
        pygame.draw.rect(surf, THEME.panel_edge, surf.get_rect(), 1)
        felt = self.felt.move(-r.x, -r.y)
        pygame.draw.rect(surf, felt_colour(), felt, border_radius=6)
        pygame.draw.rect(surf, THEME.panel_edge, felt, 1, border_radius=6)
        roll = self.current
        if roll is None:
            txt = font(13).render("no roll yet", True, THEME.dim_ink)
            surf.blit(txt, txt.get_rect(center=felt.center))
        else:
            self._render_head(surf, roll)
            self._render_info(surf, roll)
        self._render_history(surf)
        return surf

    def _render_head(self, surf: pygame.Surface, roll: TrayRoll) -> None:
        if not self._head_h:
            return
        x, y, w = self._pad, self._pad, self.rect.w - 2 * self._pad
        who = font(13, True).render(_fit(font(13, True), roll.who, w // 2), True, side_colour(roll.side))
        surf.blit(who, (x, y))
        what = font(13).render(_fit(font(13), roll.what, w - who.get_width() - 8), True, THEME.ink)
        surf.blit(what, (x + who.get_width() + 8, y))

    def _render_info(self, surf: pygame.Surface, roll: TrayRoll) -> None:
        """The TN large (STYLE.md: numbers that matter are large) with its terms, then once settled the successes,
        the roll's critical (INTRO-1.2.CRIT-*) and the best-of-two groups; the terms get the room left over."""
        box = self._info.move(-self.rect.x, -self.rect.y)
        big = max(16, min(34, box.h // 3))
        tn_font, mid_font, small = font(big, True), font(max(14, big * 2 // 3), True), font(12)
        label = _crit_label(roll.crit) if not self._tumbling else None
        after = [mid_font.get_linesize() + 2] + ([small.get_linesize()] if label else [])
        after += [small.get_linesize()] if roll.rolled and not self._tumbling else []
        room = box.h - tn_font.get_linesize() - sum(after)
        n = max(1, min(len(roll.terms), room // small.get_linesize()))
        lines = list(roll.terms[: n - 1]) + [" ".join(roll.terms[n - 1:])] if roll.terms else []
        y = self._blit(surf, tn_font, f"TN {roll.tn}", THEME.ink, box.x, box.y, box.w)
        for i, line in enumerate(lines):
            y = self._blit(surf, small, ("= " if i == 0 else "  ") + line, THEME.dim_ink, box.x, y, box.w)
        if self._tumbling:
            self._blit(surf, font(14), "rolling\u2026", THEME.dim_ink, box.x, y + 2, box.w)
            return
        colour = THEME.ink if roll.successes else THEME.dim_ink
        result = f"\u2192 {_plural(roll.successes)}"
        fits = mid_font if mid_font.size(result)[0] <= box.w else font(14, True)  # never cut the result short
        y = self._blit(surf, fits, result, colour, box.x, y + 2, box.w)
        if label is not None:
            y = self._blit(surf, font(12, True), label[0], label[1], box.x, y, box.w)
        if roll.rolled:
            self._blit(surf, small, roll.kept_text(), THEME.dim_ink, box.x, y, box.w)

    @staticmethod
    def _blit(surf: pygame.Surface, f: pygame.font.Font, text: str, colour: Colour, x: int, y: int, w: int) -> int:
        img = f.render(_fit(f, text, w), True, colour)
        surf.blit(img, (x, y))
        return y + img.get_height()

    def _render_history(self, surf: pygame.Surface) -> None:
        if not self._hist_n:
            return
        f = font(11)
        y = self.rect.h - self._pad - self._hist_n * self._hist_lh
        for roll in list(self.history)[: self._hist_n]:
            self._blit(surf, f, roll.line(), THEME.dim_ink, self._pad, y, self.rect.w - 2 * self._pad)
            y += self._hist_lh

    def _dice_sprites(self) -> list[tuple[Any, tuple[int, int]]]:
        import pygame

        assert self._table is not None
        side = int(round(self._table.side))
        out = []
        for (face, look), (x, y, angle) in zip(self._faces, self._table.dice(), strict=False):  # dice enter one by one
            img = self._face(face, Look.ROLLING if self._tumbling else look, side)
            # a square looks the same turned by 90 degrees: turn it by at most 45 so its number reads upright
            rot = pygame.transform.rotozoom(img, (-math.degrees(angle) + 45) % 90 - 45, 1.0)
            rect = rot.get_rect(center=(round(self.felt.x + x), round(self.felt.y + y)))
            out.append((rot, rect.topleft))
        return out

    def _face(self, value: int, look: Look, side: int) -> pygame.Surface:
        """One die face (cached per value, look and size): a rounded square, its number, a ring once settled."""
        key = (value, look, side)
        img = self._face_cache.get(key)
        if img is None:
            img = self._face_cache[key] = _draw_face(value, look, side)
        return img


_RINGS: dict[Look, Colour] = {Look.HIT: THEME.die_hit, Look.CRIT: THEME.die_crit, Look.FUMBLE: THEME.badge_wounded}


def _draw_face(value: int, look: Look, side: int) -> pygame.Surface:
    import pygame

    ring = max(2, side // 10)
    size = side + 2 * ring
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    radius = max(3, side // 5)
    ring_colour = _RINGS.get(look)
    if ring_colour is not None:
        pygame.draw.rect(surf, ring_colour, surf.get_rect(), border_radius=radius + ring)
    body = pygame.Rect(ring, ring, side, side)
    fill = THEME.die_miss if look in (Look.MISS, Look.DROPPED) else THEME.die_face
    pygame.draw.rect(surf, fill, body, border_radius=radius)
    pygame.draw.rect(surf, THEME.dark_ink, body, 1, border_radius=radius)
    num = font(max(8, int(side * 0.5)), True).render(str(value), True, THEME.dark_ink)
    surf.blit(num, num.get_rect(center=body.center))
    if look is Look.CRIT:
        _star(surf, (size - ring - side // 5, ring + side // 5), max(5, side // 4))
    if look is Look.DROPPED:
        pygame.draw.line(surf, THEME.dark_ink, (ring + 3, size - ring - 3), (size - ring - 3, ring + 3), 2)
        surf.fill((255, 255, 255, 185), special_flags=pygame.BLEND_RGBA_MULT)  # dimmed: not kept
    return surf


def _star(surf: pygame.Surface, centre: tuple[int, int], r: int) -> None:
    """A five-pointed star: the mark of a Critical Success (INTRO-1.2.CRIT-SUCCESS)."""
    import pygame

    pts = [(centre[0] + (r if i % 2 == 0 else r * 0.45) * math.sin(i * math.pi / 5),
            centre[1] - (r if i % 2 == 0 else r * 0.45) * math.cos(i * math.pi / 5)) for i in range(10)]
    pygame.draw.polygon(surf, THEME.die_crit, pts)
    pygame.draw.polygon(surf, THEME.dark_ink, pts, 1)
