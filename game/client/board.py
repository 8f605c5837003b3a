"""The board: the table's art under the camera, the overlays, the model tokens, moves animated along the real paths
the core chose (the `move` event's `path`, GEO-7), and a hover card naming the piece (with its height, GEO-8) or
model under the cursor. Input: drag to pan (left or right button), arrows/WASD, wheel and +/- zoom about the cursor,
Home or F fits the table. Nothing here computes a rule: positions, paths and facts come from the state and events."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.client.camera import ZOOM_STEP, Camera
from game.client.overlays import Effects, OverlayLayer
from game.client.table_art import TableArt
from game.client.theme import THEME, Colour, font, side_colour
from game.client.tokens import TokenArt, badges_of, draw_token
from game.client.widget import Shared
from game.core.battlefield import Battlefield
from game.core.events import Event
from game.core.state import GameState

if TYPE_CHECKING:
    import pygame

Point = tuple[float, float]
MOVE_IPS = 10.0  # animation speed of a move at speed 1, inches per second
PAN_PX_S = 900.0  # keyboard panning speed
CLICK_SLOP_PX = 5.0  # a press and release this close is a click on the table, farther a drag
PAN_KEYS = {"left": (1, 0), "right": (-1, 0), "up": (0, 1), "down": (0, -1)}


@dataclass
class Walk:
    """A model walking its path (a move being animated): the points, their cumulative lengths, how far it is."""

    points: list[Point]
    marks: list[float]
    done: float = 0.0

    @staticmethod
    def of(points: Sequence[Sequence[float]]) -> Walk:
        pts = [(float(p[0]), float(p[1])) for p in points]
        marks = [0.0]
        for a, b in zip(pts, pts[1:], strict=False):
            marks.append(marks[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))
        return Walk(pts, marks)

    @property
    def length(self) -> float:
        return self.marks[-1]

    def at(self) -> Point:
        s = min(self.done, self.length)
        for k in range(1, len(self.marks)):
            if self.marks[k] >= s:
                seg = self.marks[k] - self.marks[k - 1]
                f = 0.0 if seg <= 0 else (s - self.marks[k - 1]) / seg
                a, b = self.points[k - 1], self.points[k]
                return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
        return self.points[-1]


class BoardView:
    """The table widget (game.client.widget.Widget)."""

    def __init__(self, shared: Shared, bf: Battlefield, state: GameState) -> None:
        self.shared = shared
        self.bf = bf
        self.state = state
        self.cam = Camera(table=(bf.width, bf.height))
        self.art = TableArt(bf)
        self.tokens = TokenArt()
        self.layer = OverlayLayer(bf)
        self.fx = Effects()
        self.walks: dict[str, list[Walk]] = {}
        self.speed = 1.0
        self.animate = True
        self.rect: Any = None
        self.mouse: Point = (-1.0, -1.0)
        self._drag: int | None = None
        self._held: set[str] = set()
        self._fitted = False
        self.version = 0
        self._hover_key: tuple[Any, ...] = ()
        self._hover_text: list[str] = []
        self._pieces: Any = None
        self._pressed: Point | None = None
        self.on_click: Callable[[Point, str | None, int], None] | None = None  # a click: table point, model, button
        self.plan_points: list[Point] = []  # a planned path to draw (the player's move preview)
        self.plan_ok = True  # whether that plan is a legal Move (drawn in the path colour, else grey)
        self.waypoints: list[Point] = []  # the planned Move's waypoints (ringed on the path)
        self.cursor: Point | None = None  # the keyboard's table cursor (a crosshair)
        self.template_plan: Any = None  # a blast or flame template being placed (game.core.rules.template_preview)
        self.reach_bands: list[Any] = []  # the player's reach bands (core ReachRegions), drawn under the plan
        self._reach_img: Any = None
        self._reach_key: tuple[Any, ...] | None = None
        self._marks: dict[int, Any] = {}  # casualty crosses by size
        self._hover_img: tuple[list[str], Any] | None = None  # the hover card's lines and its rendered picture
        self._still: Any = None  # the art and overlays composed for a view at rest
        self._still_key: tuple[Any, ...] | None = None
        self.composed = 0  # how often the still picture was composed (the bench and tests read it)

    # -- Widget -------------------------------------------------------------------------------------------------
    def layout(self, rect: pygame.Rect) -> None:
        import pygame

        self.rect = pygame.Rect(rect)
        self.cam.set_view((self.rect.x, self.rect.y, self.rect.w, self.rect.h))
        if not self._fitted:
            self.cam.fit()
            self._fitted = True

    def feed(self, events: Sequence[Event], state: GameState) -> None:
        self.state = state
        self.fx.feed(events, state, self.bf)
        if self.animate:
            for e in events:
                if e.type in ("move", "climb", "jump") and e.data.get("path") and len(e.data["path"]) > 1:
                    model = str(e.data.get("model", e.data.get("unit")))
                    if model in state.models:
                        self.walks.setdefault(model, []).append(Walk.of(e.data["path"]))
        self.version += 1

    @property
    def busy(self) -> bool:
        return bool(self.walks)

    def skip_animations(self) -> None:
        self.walks.clear()

    def handle(self, ev: pygame.event.Event) -> bool:
        import pygame

        if self.rect is None:
            return False
        if ev.type == pygame.MOUSEMOTION:
            self.mouse = (float(ev.pos[0]), float(ev.pos[1]))
            if self._drag is not None:
                self.cam.pan(ev.rel[0], ev.rel[1])
                return True
            return self.rect.collidepoint(ev.pos)
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (1, 2, 3) and self.rect.collidepoint(ev.pos):
            self._drag = ev.button
            self._pressed = (float(ev.pos[0]), float(ev.pos[1]))
            self.mouse = self._pressed
            return True
        if ev.type == pygame.MOUSEBUTTONUP and self._drag is not None and ev.button == self._drag:
            self._drag = None
            start, self._pressed = self._pressed, None
            if start is not None and math.dist(start, ev.pos) <= CLICK_SLOP_PX and self.on_click is not None:
                pos = (float(ev.pos[0]), float(ev.pos[1]))
                self.on_click(self.cam.to_table(pos), self.model_at(pos), ev.button)  # a click, not a drag
            return True
        if ev.type == pygame.MOUSEWHEEL:
            mx, my = self.mouse
            if self.rect.collidepoint((mx, my)):
                steps = max(-5, min(5, int(ev.y)))
                if steps:
                    self.cam.zoom_by(ZOOM_STEP ** steps, (mx, my))
                return True
            return False
        if ev.type == pygame.WINDOWLEAVE:
            self._drag = None
            self._held.clear()
            return False
        if ev.type in (pygame.KEYDOWN, pygame.KEYUP):
            name = _pan_key(ev.key)
            if name is not None and not (getattr(ev, "mod", 0) & (pygame.KMOD_CTRL | pygame.KMOD_ALT)):
                (self._held.add if ev.type == pygame.KEYDOWN else self._held.discard)(name)
                return True
            if ev.type == pygame.KEYDOWN:
                centre = self.rect.center
                if ev.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                    self.cam.zoom_by(ZOOM_STEP, centre)
                    return True
                if ev.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                    self.cam.zoom_by(1 / ZOOM_STEP, centre)
                    return True
                if ev.key in (pygame.K_HOME, pygame.K_f):
                    self.cam.fit()
                    return True
        return False

    def update(self, dt: float) -> None:
        if self._held:
            dx = sum(PAN_KEYS[k][0] for k in self._held) * PAN_PX_S * dt
            dy = sum(PAN_KEYS[k][1] for k in self._held) * PAN_PX_S * dt
            self.cam.pan(dx, dy)
        self.cam.update(dt)
        if self.shared.focus is not None:
            sx, sy = self.cam.to_screen(self.shared.focus)
            if self.rect is not None and not self.rect.inflate(-80, -80).collidepoint((sx, sy)):
                self.cam.centre_on(self.shared.focus)
            self.shared.focus = None
        for model in list(self.walks):
            walks = self.walks[model]
            walks[0].done += dt * self.speed * MOVE_IPS
            if walks[0].done >= walks[0].length:
                walks.pop(0)
            if not walks:
                del self.walks[model]

    def positions(self) -> dict[str, Point]:
        """Models shown somewhere else than the state says: those walking their path."""
        return {m: w[0].at() for m, w in self.walks.items()}

    def draw(self, surface: pygame.Surface) -> None:
        import pygame

        if self.rect is None:
            return
        clip = surface.get_clip()
        surface.set_clip(self.rect)
        walking = self.positions()
        if self.cam.settled and not walking:
            self._draw_still(surface)
        else:
            self._draw_ground(surface, walking)
        self._draw_plan(surface)
        self._draw_models(surface, walking)
        self._draw_hover(surface)
        surface.set_clip(clip)
        pygame.draw.rect(surface, THEME.panel_edge, self.rect, 1)

    def _draw_ground(self, surface: pygame.Surface, walking: dict[str, Point]) -> None:
        """The table's art and the overlay layer, drawn into `surface` at the board's rectangle."""
        surface.fill(THEME.frame, self.rect)
        self.art.draw(surface, self.cam)
        self.layer.draw(surface, self.cam, self.state, self.fx, self.version, walking)

    def _draw_still(self, surface: pygame.Surface) -> None:
        """A view at rest: the art and the overlays composed once into one opaque picture, blitted while nothing
        under the tokens changes (a still frame is then one blit, the tokens and the hover card)."""
        import pygame

        key = (self.cam.view, self.cam.ppi, self.cam.ox, self.cam.oy, self.fx.version, self.version)
        if self._still is None or self._still.get_size() != surface.get_size():
            self._still = pygame.Surface(surface.get_size()).convert() if pygame.display.get_surface() else \
                pygame.Surface(surface.get_size())
            self._still_key = None
        if key != self._still_key:
            self._still.set_clip(self.rect)
            self._draw_ground(self._still, {})
            self._still_key = key if self.art.last_mode == "tiles" else None  # until every smooth tile is in
            self.composed += 1
        surface.blit(self._still, self.rect, area=self.rect)

    def set_reach(self, bands: Sequence[Any]) -> None:
        """The reach bands to draw under the planned path (ReachRegions: this Move first, then with a second)."""
        self.reach_bands = list(bands)
        self._reach_key = None

    def _draw_reach(self, surface: pygame.Surface) -> None:
        """Each band translucent in the path colour, the nearer band stronger, cached while the view holds."""
        import pygame

        if not self.reach_bands:
            return
        key = (self.cam.view, self.cam.ppi, self.cam.ox, self.cam.oy, id(self.reach_bands))
        if key != self._reach_key or self._reach_img is None:
            img = pygame.Surface(self.rect.size, pygame.SRCALPHA)
            ox, oy = self.rect.x, self.rect.y
            for k, region in reversed(list(enumerate(self.reach_bands))):
                alpha = 70 if k == 0 else 34
                for geom in region.regions.values():
                    polys = list(getattr(geom, "geoms", [geom]))
                    for poly in polys:
                        if poly.is_empty or not hasattr(poly, "exterior"):
                            continue
                        pts = [(x - ox, y - oy) for x, y in (self.cam.to_screen(p) for p in poly.exterior.coords)]
                        if len(pts) > 2:
                            pygame.draw.polygon(img, (*THEME.path, alpha), pts)
                            pygame.draw.lines(img, (*THEME.path, 160), True, pts, 1)
                        for hole in poly.interiors:
                            hp = [(x - ox, y - oy) for x, y in (self.cam.to_screen(p) for p in hole.coords)]
                            if len(hp) > 2:
                                pygame.draw.polygon(img, (0, 0, 0, 0), hp)
            self._reach_img, self._reach_key = img, key
        surface.blit(self._reach_img, self.rect)

    def _draw_plan(self, surface: pygame.Surface) -> None:
        """The player's planned path: the path colour when the Move is legal, grey when it is not, the end ringed."""
        import pygame

        self._draw_reach(surface)
        if self.template_plan is not None:
            from game.client.template_view import draw_template_plan

            draw_template_plan(surface, self.cam, self.template_plan, THEME)
        self._draw_cursor(surface)
        if len(self.plan_points) < 2:
            return
        colour = THEME.path if self.plan_ok else THEME.los_blocked
        pts = [self.cam.to_screen(p) for p in self.plan_points]
        pygame.draw.lines(surface, THEME.hostile_rim, False, pts, 6)
        pygame.draw.lines(surface, colour, False, pts, 3)
        pygame.draw.circle(surface, colour, pts[-1], max(5.0, 0.5 * self.cam.ppi), 2)
        for i, w in enumerate(self.waypoints):
            at = self.cam.to_screen(w)
            pygame.draw.circle(surface, THEME.hostile_rim, at, 8)
            pygame.draw.circle(surface, colour, at, 7, 2)
            label = font(11, bold=True).render(str(i + 1), True, colour)
            surface.blit(label, label.get_rect(center=(round(at[0]), round(at[1]))))

    def _draw_cursor(self, surface: pygame.Surface) -> None:
        """The keyboard cursor: a crosshair with a 1" ring, so a step of the arrows reads on the table."""
        import pygame

        if self.cursor is None:
            return
        x, y = self.cam.to_screen(self.cursor)
        r = max(6.0, self.cam.ppi)
        for colour, width in ((THEME.hostile_rim, 4), (THEME.selection, 2)):
            pygame.draw.circle(surface, colour, (x, y), r, width)
            pygame.draw.line(surface, colour, (x - r - 6, y), (x - 4, y), width)
            pygame.draw.line(surface, colour, (x + 4, y), (x + r + 6, y), width)
            pygame.draw.line(surface, colour, (x, y - r - 6), (x, y - 4), width)
            pygame.draw.line(surface, colour, (x, y + 4), (x, y + r + 6), width)

    # -- models -------------------------------------------------------------------------------------------------
    def model_colour(self, side: str) -> Colour:
        return side_colour(self.shared.side_index(side))

    def screen_pos(self, model: str) -> Point:
        """Where a model's token centre is on the screen now."""
        walking = self.walks.get(model)
        if walking:
            return self.cam.to_screen(walking[0].at())
        m = self.state.models[model]
        return self.cam.to_screen((m.x, m.y))

    def shown_models(self) -> list[str]:
        """Models with a token on the table: deployed, not dead, and not a hostile out of action."""
        return [m.id for m in self.state.models.values() if m.deployed and not m.dead
                and not (m.ooa and self.shared.side_index(m.side) is None)]

    def _draw_models(self, surface: pygame.Surface, walking: dict[str, Point]) -> None:
        st = self.state
        acting = st.activation.unit if st.activation is not None else None
        ppi = self.cam.ppi
        order = sorted((m.id for m in st.models.values() if m.deployed and not m.dead),
                       key=lambda mid: (not st.models[mid].ooa, st.models[mid].y))
        for mid in order:
            m = st.models[mid]
            p = walking.get(mid, (m.x, m.y))
            if m.ooa and self.shared.side_index(m.side) is None:
                self._casualty(surface, self.cam.to_screen(p), m.profile.base_diameter / 2 * ppi)
                continue  # a hostile out of action is out of the game: a small mark where it fell
            ring = THEME.selection if (mid in self.shared.highlight or m.unit == acting) else None
            draw_token(surface, self.tokens, st, m, self.cam.to_screen(p), ppi, self.model_colour(m.side),
                       self.shared.side_index(m.side), ring=ring)

    def _casualty(self, surface: pygame.Surface, c: Point, r: float) -> None:
        import pygame

        k = max(2, round(r * 0.35))
        mark = self._marks.get(k)
        if mark is None:
            col = (*THEME.hostile, 150)
            mark = self._marks[k] = pygame.Surface((2 * k + 4, 2 * k + 4), pygame.SRCALPHA)
            o = k + 2
            pygame.draw.line(mark, col, (o - k, o - k), (o + k, o + k), 2)
            pygame.draw.line(mark, col, (o - k, o + k), (o + k, o - k), 2)
        surface.blit(mark, (round(c[0]) - k - 2, round(c[1]) - k - 2))

    def model_at(self, s: Point) -> str | None:
        """The model whose token is under a screen point (the topmost)."""
        t = self.cam.to_table(s)
        best = None
        for mid in self.shown_models():
            m = self.state.models[mid]
            if math.hypot(m.x - t[0], m.y - t[1]) <= m.profile.base_diameter / 2:
                best = mid
        return best

    # -- hover card ----------------------------------------------------------------------------------------------
    def _piece_at(self, t: Point) -> int | None:
        """The highest terrain piece whose footprint holds a table point."""
        import shapely

        if self._pieces is None:
            self._pieces = shapely.STRtree([shapely.Polygon(p.footprint) for p in self.bf.pieces])
        hits = self._pieces.query(shapely.Point(t), predicate="intersects")
        if len(hits) == 0:
            return None
        return int(max(hits, key=lambda i: (self.bf.pieces[int(i)].top_z, -int(i))))

    def hover_lines(self) -> list[str]:
        """What the hover card says about the point under the cursor (cached per cursor inch tenth)."""
        if self.rect is None or not self.rect.collidepoint(self.mouse) or self._drag is not None:
            return []
        t = self.cam.to_table(self.mouse)
        if not (0 <= t[0] <= self.bf.width and 0 <= t[1] <= self.bf.height):
            return []
        key = (round(t[0], 1), round(t[1], 1), self.version)
        if key == self._hover_key:
            return self._hover_text
        self._hover_key = key
        lines: list[str] = []
        mid = self.model_at(self.mouse)
        st = self.state
        if mid is not None:
            m = st.models[mid]
            p = m.profile
            side = st.forces[m.side].hostile if m.side in st.forces else st.side(m.side).name
            lines.append(f"{p.name} ({mid})")
            lines.append(f"{side}; {p.experience}; Move {p.move:g}\" CA {p.ca} Armor {p.armor} "
                         f"Will {'NA' if p.will is None else p.will}")
            lines.append(f"Wounds {m.wounds_taken}/{p.wounds}" + (f"; z {m.z:g}\"" if m.z else ""))
            marks = [k if not v or k == "alert" else f"{k} {v}" for k, v in badges_of(st, m)]
            if marks:
                lines.append("; ".join(marks))
        pid = self._piece_at(t)
        if pid is not None:
            pc = self.bf.pieces[pid]
            top = f"top {pc.top_z:g}\"" + (f", from {pc.bottom_z:g}\"" if pc.bottom_z > 0 else "")
            lines.append(f"{pc.name or pc.kind}: {pc.kind}, {top}, {pc.cover.value} cover, {pc.movement.value}")
        lines.append(f"({t[0]:.1f}\", {t[1]:.1f}\")")
        self._hover_text = lines
        return lines

    def _draw_hover(self, surface: pygame.Surface) -> None:
        import pygame

        lines = self.hover_lines()
        if not lines:
            return
        if self._hover_img is None or self._hover_img[0] != lines:
            f = font(14)
            imgs = [f.render(s, True, THEME.ink) for s in lines]
            card = pygame.Surface((max(i.get_width() for i in imgs) + 14, sum(i.get_height() for i in imgs) + 10),
                                  pygame.SRCALPHA)
            pygame.draw.rect(card, THEME.panel, card.get_rect(), border_radius=4)
            pygame.draw.rect(card, THEME.panel_edge, card.get_rect(), 1, border_radius=4)
            yy = 5
            for img in imgs:
                card.blit(img, (7, yy))
                yy += img.get_height()
            self._hover_img = (list(lines), card)
        card = self._hover_img[1]
        w, h = card.get_size()
        x, y = int(self.mouse[0]) + 18, int(self.mouse[1]) + 18
        if x + w > self.rect.right:
            x = int(self.mouse[0]) - w - 12
        if y + h > self.rect.bottom:
            y = int(self.mouse[1]) - h - 12
        surface.blit(card, (x, y))


def _pan_key(key: int) -> str | None:
    import pygame

    return {pygame.K_LEFT: "left", pygame.K_a: "left", pygame.K_RIGHT: "right", pygame.K_d: "right",
            pygame.K_UP: "up", pygame.K_w: "up", pygame.K_DOWN: "down", pygame.K_s: "down"}.get(key)
