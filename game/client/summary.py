"""The mission summary (TURN-11): the verdict (SCEN-10.5.VICTORY), then per crew its fates, kills, advances
(POST-8.5.EARN) and what it carries home, and the Mission Objective; everything read from the `mission_end` event."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from game.client.scene import Scene
from game.client.theme import THEME, font, side_colour
from game.client.ui import Button, Buttons, Ink, draw_button, panel

if TYPE_CHECKING:
    import pygame

    from game.client.app import App


def _list(items: Iterable[str], empty: str = "none") -> str:
    out = [str(x) for x in items]
    return ", ".join(out) if out else empty


def thing(item: str) -> str:
    """An item or grenade as the player knows it: its catalog name, else the id in words (a scenario's own item)."""
    from game.core.catalog import load_catalog

    try:
        cat = load_catalog()
    except (OSError, ValueError):
        return item.replace("_", " ")
    for table in (cat.equipment_items, cat.grenades):
        if item in table:
            return str(getattr(table[item], "name", item))
    return item.replace("_", " ")


class Summary:
    """What the summary shows, as text (no pygame): the verdict and per crew its sections (heading, text)."""

    def __init__(self, end: Mapping[str, Any], names: Mapping[str, str]) -> None:
        self.end = end
        self.crews: dict[str, str] = {str(k): str(v) for k, v in (end.get("crews") or {}).items()}
        self.names = {**self.crews, **{str(k): str(v) for k, v in names.items() if v}}
        report = end.get("report") or {}
        self.report: dict[str, Mapping[str, Any]] = {str(k): v for k, v in report.items() if isinstance(v, Mapping)}
        self.models: dict[str, str] = {}  # model id -> its name, every crew's
        for r in self.report.values():
            self.models.update({str(k): str(v) for k, v in (r.get("names") or {}).items()})
        self.sides = list(self.crews) or list(self.report)

    def crew(self, side: str) -> str:
        return self.names.get(side, side)

    def model(self, model: str) -> str:
        return self.models.get(model, model)

    def headline(self) -> str:
        """The verdict (SCEN-10.5.VICTORY): the winner, a draw, or no winner in a solo game."""
        end = self.end
        if end.get("winner"):
            return f"{self.crew(str(end['winner']))} wins"
        if end.get("decided_by") == "solo":
            return "No winner: the crew alone did not complete the Mission Objective"
        if "winner" in end:
            return "A draw"
        return "The mission is over"

    def how(self) -> str:
        end = self.end
        if end.get("winner"):
            return ("completed the Mission Objective" if end.get("decided_by") == "objective"
                    else "earned the most advances")
        if end.get("decided_by") != "solo" and "winner" in end:
            return "no Mission Objective completed and the advances are level"
        return ""

    def overview(self) -> str:
        return f"Mission over at turn {self.end.get('turn', '?')}: {self.end.get('reason', 'ended')}"

    def why(self) -> str:
        """Why this verdict (the event's own words), else how the winner won; with the rule behind it."""
        why = str(self.end.get("why") or "")
        if not why and self.how():
            why = f"{self.crew(str(self.end['winner']))} {self.how()}" if self.end.get("winner") else self.how()
        return f"{why[:1].upper()}{why[1:]} (SCEN-10.5.VICTORY)" if why else ""

    def advances(self, side: str) -> tuple[str, str]:
        """The advances a crew earned and their parts (POST-8.5.EARN)."""
        a = (self.end.get("advances") or {}).get(side)
        if not isinstance(a, Mapping):
            return "Advances", "not recorded"
        units = (f"{a.get('rival_units', 0)} rival + {a.get('hostile_units', 0)} hostile unit(s) put out"
                 if "rival_units" in a else f"{a.get('units_out', 0)} unit(s) put out")
        parts = (f"{a.get('survivors', 0)} survivor(s) + {units} + 3 x {a.get('hot_spots', 0)} Hot Spot(s) looted"
                 f" + Mission Objective {5 if a.get('objective') else 0}")
        return f"Advances: {a.get('total', 0)}", f"{parts} (POST-8.5.EARN)"

    def sections(self, side: str) -> list[tuple[str, str]]:
        """One crew's column: advances, survivors, Out of Action, dead, kills, salvage, items found."""
        out = [self.advances(side)]
        r = self.report.get(side)
        if r is None:
            fates = (self.end.get("fates") or {}).get(side) or {}
            out.append(("Fates", _list(f"{self.model(m)}: {f}" for m, f in fates.items())))
            return out
        for key, head in (("survived", "Survivors"), ("ooa", "Out of Action"), ("dead", "Dead")):
            ids = list(r.get(key) or [])
            out.append((f"{head} ({len(ids)})", _list(self.model(m) for m in ids)))
        k = r.get("kills") or {}
        rival, hostile = list(k.get("rival") or []), list(k.get("hostile") or [])
        out.append(("Kills", f"{len(rival)} rival: {_list(self.model(u) for u in rival)}; {len(hostile)} hostile: "
                             f"{_list(hostile)}"))
        arts = ", ".join(f"{x.get('value', 0)} ZS" + (f" (+1 {x['bonus']})" if x.get("bonus") else "")
                         for x in r.get("artifacts") or [])
        out.append(("Salvage", f"{r.get('salvage_value', 0)} ZS" + (f"; artifacts {arts}" if arts else "")))
        grenades = [f"{thing(str(g))} x{n}" for g, n in (r.get("grenades") or {}).items()]
        found = [thing(str(x)) for x in r.get("items") or []] + grenades
        looted = list(r.get("looted") or [])
        out.append(("Items found", _list(found) + (f"; looted {_list(looted)}" if looted else "")))
        return out

    def objective(self) -> str:
        """The Mission Objective line: who completed it and when, or not completed."""
        mo = self.end.get("objective")
        if isinstance(mo, Mapping):
            return (f"Mission Objective {mo.get('location', '?')} completed by {self.model(str(mo.get('model')))} "
                    f"({self.crew(str(mo.get('side')))}) in turn {mo.get('turn', '?')}")
        locs = self.end.get("locations") or {}
        if locs.get("objectives"):
            return f"Mission Objective {_list(locs['objectives'])}: not completed"
        return "No Mission Objective"


class SummaryScene(Scene):
    """The mission summary: the verdict, one column per crew in its side colour, the Mission Objective, and
    "Back to the title" (Enter) / "Quit". Up/Down, PageUp/PageDown and the wheel scroll the columns when long."""

    name = "summary"

    def __init__(self, app: App, end: dict[str, Any], names: dict[str, str]) -> None:
        super().__init__(app)
        self.summary = Summary(end, names)
        self.ink = Ink()
        self.buttons = Buttons([Button("Back to the title", app.title), Button("Quit", app.ask_quit)])
        self.scroll = 0

    def handle(self, ev: pygame.event.Event) -> None:
        pg = self.app.pg
        key = getattr(ev, "key", None) if ev.type == pg.KEYDOWN else None
        if key == pg.K_ESCAPE:
            self.app.title()
        elif key in (pg.K_UP, pg.K_DOWN, pg.K_PAGEUP, pg.K_PAGEDOWN):
            self.scroll += {pg.K_UP: -40, pg.K_DOWN: 40, pg.K_PAGEUP: -240, pg.K_PAGEDOWN: 240}[key]
            self.scroll = max(0, self.scroll)
        elif ev.type == pg.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - 40 * int(getattr(ev, "y", 0)))
        else:
            self.buttons.handle(ev)

    def draw(self, surface: pygame.Surface) -> None:
        pg, s, ink = self.app.pg, self.summary, self.ink
        ink.clear()
        surface.fill(THEME.frame)
        w, h = surface.get_size()
        m, small = 24, h < 700
        body = 14 if small else 15
        winner = s.end.get("winner")
        y = ink.paragraph(surface, s.headline(), m, 14, w - 2 * m, size=30 if small else 36, bold=True)
        if winner in s.sides:
            pg.draw.rect(surface, side_colour(s.sides.index(winner)), pg.Rect(m, y + 2, 160, 5))
        y += 10
        y = ink.paragraph(surface, s.overview(), m, y, w - 2 * m, size=body + 2)
        if s.why():
            y = ink.paragraph(surface, s.why(), m, y, w - 2 * m, size=body, colour=THEME.dim_ink)
        bottom = h - 70 - 2 * font(body).get_linesize()
        self.draw_columns(surface, pg.Rect(m, y + 12, w - 2 * m, bottom - y - 12), body)
        y = ink.paragraph(surface, s.objective(), m, bottom + 8, w - 2 * m, size=body + 1, bold=True)
        each = 240
        for k, b in enumerate(self.buttons.items):
            draw_button(surface, ink, b, pg.Rect(m + k * (each + 16), h - 60, each, 44),
                        focused=k == self.buttons.focus)
        ink.text(surface, "Enter: choose   Tab/Left/Right: move   Up/Down: scroll", (w - m, h - 38), size=13,
                 colour=THEME.dim_ink, anchor="midright")

    def draw_columns(self, surface: pygame.Surface, area: pygame.Rect, body: int) -> None:
        """One column per crew, in the crews' order (their side colours), scrolled together, clipped to `area`."""
        pg, s, ink = self.app.pg, self.summary, self.ink
        n = max(1, len(s.sides))
        gap = 16
        cw = (area.w - gap * (n - 1)) // n
        clip = surface.get_clip()
        tallest = 0
        for i, side in enumerate(s.sides):
            col = pg.Rect(area.x + i * (cw + gap), area.y, cw, area.h)
            panel(surface, col)
            pg.draw.rect(surface, side_colour(i), pg.Rect(col.x, col.y, col.w, 6), border_radius=3)
            surface.set_clip(col.inflate(-4, -8))
            x, width = col.x + 14, col.w - 28
            y0 = col.y + 14 - self.scroll
            y = ink.paragraph(surface, s.crew(side), x, y0, width, size=body + 7, bold=True, colour=side_colour(i))
            for k, (head, text) in enumerate(s.sections(side)):
                if k == 0:  # the advances: the number that matters most, in large
                    y = ink.paragraph(surface, head, x, y + 6, width, size=body + 4, bold=True)
                elif text == "none":  # an empty list on one line
                    y = ink.paragraph(surface, f"{head}: none", x, y + 6, width, size=body, bold=True,
                                      colour=THEME.dim_ink)
                    continue
                else:
                    y = ink.paragraph(surface, head, x, y + 6, width, size=body, bold=True, colour=THEME.dim_ink)
                y = ink.paragraph(surface, text, x, y, width, size=body)
            tallest = max(tallest, int(y - y0))
            surface.set_clip(clip)
        self.scroll = max(0, min(self.scroll, tallest - area.h + 24))
        if tallest > area.h - 8:  # there is more: say so under the columns
            ink.text(surface, "more: scroll (wheel, Up/Down)", (area.right, area.bottom + 2), size=12,
                     colour=THEME.dim_ink, anchor="topright")
