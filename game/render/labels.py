"""Text on a picture that never collides: labels placed beside what they name, reasons boxes kept inside the picture.

Overlays queue their text in one `Annotations` per picture; the last overlay (`Annotations.flush`) places every
label in priority order where it overlaps no other label, box or token (falling back to covering only the map's
own labels, then to the first spot), and every reasons box in the table corner or edge farthest from what the
overlays draw, wrapped and shrunk so it fits inside the picture.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.render.style import BOLD_FONT_FILE, FONT_FILE, Colour, font_path

if TYPE_CHECKING:
    import pygame

Rect = tuple[float, float, float, float]  # x, y, width, height in pixels
INK: Colour = (240, 236, 220)
BACK: Colour = (24, 24, 20)


def overlaps(a: Rect, b: Rect, pad: float = 1.0) -> bool:
    """Do two rectangles overlap (closer than `pad` pixels)?

    >>> overlaps((0, 0, 10, 10), (10.5, 0, 5, 5)), overlaps((0, 0, 10, 10), (12, 0, 5, 5))
    (True, False)
    """
    return a[0] < b[0] + b[2] + pad and b[0] < a[0] + a[2] + pad and a[1] < b[1] + b[3] + pad and \
        b[1] < a[1] + a[3] + pad


def inside(r: Rect, bounds: Rect) -> bool:
    """Is `r` wholly inside `bounds`?

    >>> inside((1, 1, 5, 5), (0, 0, 10, 10)), inside((8, 1, 5, 5), (0, 0, 10, 10))
    (True, False)
    """
    return r[0] >= bounds[0] and r[1] >= bounds[1] and r[0] + r[2] <= bounds[0] + bounds[2] and \
        r[1] + r[3] <= bounds[1] + bounds[3]


def clamp(r: Rect, bounds: Rect) -> Rect:
    """`r` moved (not resized) as little as possible to lie inside `bounds` (its top-left kept if it is larger).

    >>> clamp((8, -2, 5, 5), (0, 0, 10, 10))
    (5, 0, 5, 5)
    """
    x = max(bounds[0], min(r[0], bounds[0] + bounds[2] - r[2]))
    y = max(bounds[1], min(r[1], bounds[1] + bounds[3] - r[3]))
    return (x, y, r[2], r[3])


class Taken:
    """The rectangles already used on one picture: hard ones (overlay labels, boxes, tokens) must not be covered;
    soft ones (the map's own labels) are avoided when there is room."""

    def __init__(self) -> None:
        self.hard: list[Rect] = []
        self.soft: list[Rect] = []

    def add(self, r: Rect, *, soft: bool = False) -> None:
        (self.soft if soft else self.hard).append(r)

    def clear_of(self, r: Rect, *, soft_too: bool) -> bool:
        if any(overlaps(r, q) for q in self.hard):
            return False
        return not (soft_too and any(overlaps(r, q) for q in self.soft))

    def choose(self, candidates: Sequence[Rect], bounds: Rect, *, near: int = 4) -> Rect:
        """The first of the `near` candidates (right beside the point) inside `bounds` and clear of everything,
        else the first candidate clear of the hard rectangles (nearness beats sparing a map label), else the first
        candidate, each clamped into `bounds`."""
        fits = [c if inside(c, bounds) else clamp(c, bounds) for c in candidates]
        for c in fits[:near]:
            if self.clear_of(c, soft_too=True):
                return c
        for c in fits:
            if self.clear_of(c, soft_too=False):
                return c
        return fits[0]


@dataclass(frozen=True, slots=True)
class Label:
    """A queued label: text beside a pixel (`gap` pixels away: the radius of the base it names), its colour and
    size, where it prefers to go ("above", "below", "right", "left" or "center") and its priority (low first)."""

    text: str
    at: tuple[float, float]
    colour: Colour = INK
    size: int = 13
    prefer: str = "above"
    gap: float = 2.0
    priority: int = 5


@dataclass(frozen=True, slots=True)
class Box:
    """A queued reasons box: its lines and the pixels it should stay away from (what its overlay draws)."""

    lines: tuple[tuple[str, Colour], ...]
    avoid: tuple[tuple[float, float], ...]
    table: Rect  # the table's area on the picture: boxes sit in its corners or along its edges


def candidates(label: Label, w: float, h: float) -> list[Rect]:
    """Where a label may go, best first: its preferred side, the other sides, then further out above and below."""
    x, y = label.at
    g = label.gap + 2
    sides = {
        "above": (x - w / 2, y - g - h), "below": (x - w / 2, y + g), "right": (x + g, y - h / 2),
        "left": (x - g - w, y - h / 2), "center": (x - w / 2, y - h / 2),
    }
    order = [label.prefer] + [s for s in ("above", "below", "right", "left") if s != label.prefer]
    out = [(*sides[s], w, h) for s in order]
    for k in range(1, 5):
        out += [(x - w / 2, y - g - h - k * (h + 1), w, h), (x - w / 2, y + g + k * (h + 1), w, h),
                (x + g + k * w / 2, y - h / 2, w, h), (x - g - w - k * w / 2, y - h / 2, w, h)]
    return out


@dataclass
class Annotations:
    """Every label and reasons box of one picture, placed together when the picture is finished (`flush`)."""

    taken: Taken = field(default_factory=Taken)
    labels: list[Label] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)

    def label(self, text: str, at: tuple[float, float], colour: Colour = INK, *, size: int = 13, prefer: str = "above",
              gap: float = 2.0, priority: int = 5) -> None:
        self.labels.append(Label(text, at, colour, size, prefer, gap, priority))

    def box(self, lines: Sequence[tuple[str, Colour]], avoid: Sequence[tuple[float, float]], table: Rect) -> None:
        self.boxes.append(Box(tuple(lines), tuple(avoid), table))

    def flush(self, surface: pygame.Surface) -> None:
        """Place and draw the queued labels (by priority), then the boxes; the queues are emptied."""
        bounds: Rect = (2.0, 2.0, surface.get_width() - 4.0, surface.get_height() - 4.0)
        for lab in sorted(self.labels, key=lambda q: q.priority):
            img = plate(lab.text, lab.colour, lab.size)
            w, h = img.get_size()
            r = self.taken.choose(candidates(lab, w, h), bounds)
            self.taken.add(r)
            surface.blit(img, (round(r[0]), round(r[1])))
        for box in self.boxes:
            draw_box(surface, box, self.taken, bounds)
        self.labels.clear()
        self.boxes.clear()


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The shipped font (one family, STYLE.md) at a pixel size."""
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(font_path(BOLD_FONT_FILE if bold else FONT_FILE), size)


def plate(text: str, colour: Colour, size: int) -> pygame.Surface:
    """Bold text on a dark translucent plate (3 px of padding left and right, 1 px above and below)."""
    import pygame

    img = font(size, bold=True).render(text, True, colour)
    out = pygame.Surface((img.get_width() + 6, img.get_height() + 2), pygame.SRCALPHA)
    out.fill((*BACK, 190))
    out.blit(img, (3, 1))
    return out


def wrap(text: str, fnt: pygame.font.Font, width: float) -> list[str]:
    """`text` broken at spaces into lines no wider than `width` pixels (a single long word stays whole)."""
    words, lines, line = text.split(" "), [], ""
    for word in words:
        trial = f"{line} {word}" if line else word
        if line and fnt.size(trial)[0] > width:
            lines.append(line)
            line = "    " + word
        else:
            line = trial
    lines.append(line)
    return lines


def _box_lines(box: Box, fnt: pygame.font.Font, width: float) -> list[tuple[str, Colour]]:
    return [(part, colour) for text, colour in box.lines for part in wrap(text, fnt, width)]


def _spots(table: Rect, w: float, h: float) -> list[Rect]:
    """Corners of the table, then the middles of its edges, for a w x h box 4 px in from the edge."""
    x0, y0, tw, th = table
    xs = (x0 + 4, x0 + tw - w - 4, x0 + (tw - w) / 2)
    ys = (y0 + 4, y0 + th - h - 4, y0 + (th - h) / 2)
    spots = [(xs[0], ys[0]), (xs[1], ys[0]), (xs[0], ys[1]), (xs[1], ys[1]),
             (xs[2], ys[0]), (xs[2], ys[1]), (xs[0], ys[2]), (xs[1], ys[2])]
    return [(x, y, w, h) for x, y in spots]


def draw_box(surface: pygame.Surface, box: Box, taken: Taken, bounds: Rect) -> Rect:
    """Draw a reasons box where it covers no label or other box and stays farthest from what it explains; the
    text is wrapped to the table's width and the font shrunk (down to 9 px) until the box fits in the picture."""
    import pygame

    table = box.table
    max_w = max(80.0, min(max(table[2] * 0.62, 320.0), table[2] - 8, bounds[2] - 8))  # a third of the table free
    for size in (12, 11, 10, 9):
        fnt = font(size)
        lines = _box_lines(box, fnt, max_w - 12)
        line_h = fnt.get_linesize() + 1
        h = len(lines) * line_h + 8
        if h <= bounds[3] * 0.6 or size == 9:
            break
    limit = max(1, int((bounds[3] - 8) // line_h))
    if len(lines) > limit:
        lines = lines[: limit - 1] + [(f"... ({len(lines) - limit + 1} more lines)", INK)]
        h = len(lines) * line_h + 8
    w = min(max_w, max(fnt.size(t)[0] for t, _ in lines) + 12)

    def clearance(r: Rect) -> float:
        cx, cy = r[0] + r[2] / 2, r[1] + r[3] / 2
        return min((abs(px - cx) - r[2] / 2) + (abs(py - cy) - r[3] / 2) for px, py in box.avoid) \
            if box.avoid else 0.0

    spots = [clamp(s, bounds) for s in _spots(table, w, h)]
    free = [s for s in spots if taken.clear_of(s, soft_too=False)]
    best = max(free or spots, key=clearance)
    taken.add(best)
    x, y = round(best[0]), round(best[1])
    back = pygame.Surface((round(w), round(h)), pygame.SRCALPHA)
    back.fill((*BACK, 215))
    surface.blit(back, (x, y))
    yy = y + 4
    for text, colour in lines:
        surface.blit(fnt.render(text, True, colour), (x + 6, yy))
        yy += line_h
    return best
