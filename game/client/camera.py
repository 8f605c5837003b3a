"""The board's view of the table: inches to screen pixels (GEO-1: x right, y down) at a zoom, panned and zoomed
about the cursor, with eased zoom steps and a `settled` flag (the art is re-cached smooth once the view rests:
TECH-NOTES "Client rendering"). Pure arithmetic: no pygame."""
from __future__ import annotations

import math
from dataclasses import dataclass

MAX_PPI = 96.0  # pixels per inch at the closest zoom (a 1" base 96 px wide)
ZOOM_STEP = 1.25  # one wheel notch or +/- key
SETTLE_S = 0.18  # the view counts as settled this long after it last moved
EASE_PER_S = 14.0  # how fast an eased zoom closes on its target (exponential)


@dataclass
class Camera:
    """`ppi`: screen pixels per inch; (`ox`, `oy`): the screen pixel where the table's (0, 0) corner lands."""

    table: tuple[float, float]
    view: tuple[int, int, int, int] = (0, 0, 1280, 720)  # the board's screen rectangle x, y, w, h
    ppi: float = 20.0
    ox: float = 0.0
    oy: float = 0.0
    target_ppi: float = 20.0
    anchor: tuple[float, float] = (0.0, 0.0)  # the screen point an eased zoom keeps still
    still_for: float = 10.0  # seconds since the view last changed

    # -- transforms ---------------------------------------------------------------------------------------------
    def to_screen(self, p: tuple[float, float]) -> tuple[float, float]:
        return (self.ox + p[0] * self.ppi, self.oy + p[1] * self.ppi)

    def to_table(self, s: tuple[float, float]) -> tuple[float, float]:
        return ((s[0] - self.ox) / self.ppi, (s[1] - self.oy) / self.ppi)

    @property
    def min_ppi(self) -> float:
        """The zoom at which the whole table (and a little frame) fits the view."""
        _, _, w, h = self.view
        return max(2.0, min(w / (self.table[0] + 2.0), h / (self.table[1] + 2.0)))

    @property
    def settled(self) -> bool:
        return self.still_for >= SETTLE_S and abs(self.ppi - self.target_ppi) < 1e-9

    @property
    def moving(self) -> bool:
        return not self.settled

    # -- changes ------------------------------------------------------------------------------------------------
    def set_view(self, rect: tuple[int, int, int, int]) -> None:
        """A new board rectangle (start, window resize): keep the table point at the view's centre."""
        old = self.view
        centre = self.to_table((old[0] + old[2] / 2, old[1] + old[3] / 2))
        self.view = rect
        self.ppi = self.target_ppi = min(MAX_PPI, max(self.min_ppi, self.ppi))
        self.centre_on(centre)

    def fit(self) -> None:
        """The whole table in view, centred."""
        self.ppi = self.target_ppi = self.min_ppi
        self.centre_on((self.table[0] / 2, self.table[1] / 2))

    def centre_on(self, p: tuple[float, float]) -> None:
        x, y, w, h = self.view
        self.ox = x + w / 2 - p[0] * self.ppi
        self.oy = y + h / 2 - p[1] * self.ppi
        self._clamp()
        self.still_for = 0.0

    def pan(self, dx: float, dy: float) -> None:
        """Move the table by (dx, dy) screen pixels (a drag, arrow keys)."""
        if dx == 0 and dy == 0:
            return
        self.ox += dx
        self.oy += dy
        self._clamp()
        self.still_for = 0.0

    def zoom_by(self, factor: float, about: tuple[float, float] | None = None, *, eased: bool = True) -> None:
        """Zoom by `factor` keeping the table point under `about` (the cursor; default the view's centre) still."""
        x, y, w, h = self.view
        self.anchor = about if about is not None else (x + w / 2, y + h / 2)
        self.target_ppi = min(MAX_PPI, max(self.min_ppi, self.target_ppi * factor))
        if not eased:
            self._set_ppi(self.target_ppi)
        self.still_for = 0.0

    def _set_ppi(self, ppi: float) -> None:
        ax, ay = self.anchor
        tx, ty = self.to_table((ax, ay))
        self.ppi = ppi
        self.ox = ax - tx * ppi
        self.oy = ay - ty * ppi
        self._clamp()

    def update(self, dt: float) -> bool:
        """Advance an eased zoom by dt seconds; True when the view changed this step."""
        changed = False
        if abs(self.ppi - self.target_ppi) > 1e-9:
            k = 1.0 - math.exp(-EASE_PER_S * dt)
            nxt = self.ppi + (self.target_ppi - self.ppi) * k
            if abs(nxt - self.target_ppi) < 0.01 * self.target_ppi:
                nxt = self.target_ppi
            self._set_ppi(nxt)
            self.still_for = 0.0
            changed = True
        else:
            self.still_for += dt
        return changed

    def _clamp(self) -> None:
        """Keep the table in view: along a side where it fits the view it stays centred; where it is larger, its
        edge may come in by at most a quarter of the view (room to see past the edge, never an empty view)."""
        x, y, w, h = self.view
        tw, th = self.table[0] * self.ppi, self.table[1] * self.ppi
        self.ox = _clamped(self.ox, x, w, tw)
        self.oy = _clamped(self.oy, y, h, th)


def _clamped(o: float, start: float, size: float, extent: float) -> float:
    if extent <= size:
        return start + (size - extent) / 2
    room = 0.25 * size
    return min(start + room, max(start + size - extent - room, o))
