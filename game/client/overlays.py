"""What the board draws over the table, each with one meaning and one colour (STYLE.md), all from the state, the
events and core queries, never computed here: the locations in play with their Reaction Radius (GEO-19), each
active hostile force's leash ring (GEO-20, AI-8.3.RULE1) and a line from each hostile unit to its locked target
(AI-D.02), smoke, tasks, and the last attack's line-of-sight rays (GEO-10, the core's `line_of_sight`), cover
piece and obstructions (GEO-12, GEO-13), templates (GEO-15) and deviations (ARMORY-5.4.DEVIATION), and the paths
of this activation's moves."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from game.client.camera import Camera
from game.client.theme import THEME, Colour, font
from game.core.battlefield import Battlefield
from game.core.events import Event
from game.core.state import GameState

if TYPE_CHECKING:
    import pygame

    from game.core.geometry.sight.cover import CoverFact
    from game.core.geometry.sight.los import LosFact

Point = tuple[float, float]


@dataclass
class Shot:
    """A ranged attack as the core judged its sight: the LOS fact and the cover fact of attacker -> target."""

    attacker: str
    target: str
    los: LosFact
    cover: CoverFact


@dataclass
class Effects:
    """The transient marks of the last attack (until the next attack, or until another unit activates) and this
    activation's moves, and a version that changes whenever anything drawn changes (the overlay layer is cached on
    it)."""

    shots: list[Shot] = field(default_factory=list)
    templates: list[dict[str, Any]] = field(default_factory=list)  # template events' data
    deviations: list[tuple[Point, Point]] = field(default_factory=list)  # aimed point -> where it landed
    trails: list[list[Point]] = field(default_factory=list)  # this activation's move paths
    blast_lines: list[tuple[Point, Point]] = field(default_factory=list)  # a thrower or launcher -> its aim point
    version: int = 0
    attacker_unit: str | None = None  # the unit that made the attack whose marks are shown

    def feed(self, events: Sequence[Event], st: GameState, bf: Battlefield) -> None:
        """Take the marks of one applied action's events."""
        attack_seen = False
        for e in events:
            d = e.data
            if e.type == "activation_start":
                self.trails.clear()
                if d.get("unit") != self.attacker_unit:  # the attack's marks last through its unit's activation
                    self.shots.clear()
                    self.templates.clear()
                    self.deviations.clear()
                    self.blast_lines.clear()
            elif e.type in ("move", "climb", "jump") and d.get("path"):
                self.trails.append([(float(p[0]), float(p[1])) for p in d["path"]])
            elif e.type == "attack":
                if not attack_seen:  # a new attack replaces the last one's marks
                    self.shots.clear()
                    self.templates.clear()
                    self.deviations.clear()
                    self.blast_lines.clear()
                    attack_seen = True
                self._attack(d, st, bf)
            elif e.type == "template":
                self.templates.append(dict(d))
            elif e.type == "deviation" and self.blast_lines:
                self.deviations.append((self.blast_lines[-1][1], (float(d["point"][0]), float(d["point"][1]))))
        self.version += 1

    def _attack(self, d: dict[str, Any], st: GameState, bf: Battlefield) -> None:
        a = st.models.get(str(d.get("attacker")))
        if a is None:
            return
        self.attacker_unit = a.unit
        if d.get("kind") == "ranged" and d.get("target") in st.models:
            from game.core.geometry.sight.cover import cover_against
            from game.core.geometry.sight.los import line_of_sight
            from game.core.settings import Settings

            scene = st.scene(include_ooa=True)
            settings = Settings(dict(st.settings))
            try:
                los = line_of_sight(bf, scene, a.id, str(d["target"]), settings=settings)
                cov = cover_against(bf, scene, a.id, str(d["target"]), settings=settings)
            except (KeyError, ValueError):
                return  # a model no longer in the scene: nothing to draw
            self.shots.append(Shot(a.id, str(d["target"]), los, cov))
        elif d.get("kind") == "blast" and d.get("point") is not None:
            self.blast_lines.append(((a.x, a.y), (float(d["point"][0]), float(d["point"][1]))))


def _dashed_circle(surface: pygame.Surface, colour: tuple[int, ...], c: Point, r: float, width: int,
                   dash: float = 10.0) -> None:
    import pygame

    if r < 2:
        return
    n = max(12, int(2 * math.pi * r / (2 * dash)))
    rect = pygame.Rect(round(c[0] - r), round(c[1] - r), round(2 * r), round(2 * r))
    step = 2 * math.pi / n
    for k in range(n):
        pygame.draw.arc(surface, colour, rect, k * step, k * step + step * 0.55, width)


def _arrow(surface: pygame.Surface, colour: Colour, a: Point, b: Point, width: int, head: float) -> None:
    import pygame

    pygame.draw.line(surface, colour, a, b, width)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    for s in (-1, 1):
        t = ang + math.pi + s * 0.45
        pygame.draw.line(surface, colour, b, (b[0] + head * math.cos(t), b[1] + head * math.sin(t)), width)


def anchor_of(st: GameState, unit: str) -> Point | None:
    """Where a unit stands on the board: its first model still in play."""
    u = st.units.get(unit)
    if u is None:
        return None
    for mid in u.models:
        m = st.models.get(mid)
        if m is not None and m.deployed and not m.ooa and not m.dead:
            return (m.x, m.y)
    return None


class OverlayLayer:
    """The overlays drawn into one translucent layer, re-drawn only when the view or what they show changes."""

    def __init__(self, bf: Battlefield) -> None:
        self.bf = bf
        self._layer: pygame.Surface | None = None
        self._key: tuple[Any, ...] = ()
        self.redraws = 0

    def draw(self, surface: pygame.Surface, cam: Camera, st: GameState, fx: Effects, state_version: int,
             positions: dict[str, Point]) -> None:
        """The cached layer onto `surface`; `positions` overrides model positions (a move being animated)."""
        import pygame

        key = (cam.view, round(cam.ppi, 4), round(cam.ox, 2), round(cam.oy, 2), fx.version, state_version,
               tuple(sorted(positions.items())) if positions else ())
        size = (cam.view[2], cam.view[3])
        if self._layer is None or self._layer.get_size() != size or key != self._key:
            if self._layer is None or self._layer.get_size() != size:
                self._layer = pygame.Surface(size, pygame.SRCALPHA)
            self._layer.fill((0, 0, 0, 0))
            self._paint(self._layer, cam, st, fx, positions)
            self._key = key
            self.redraws += 1
        surface.blit(self._layer, (cam.view[0], cam.view[1]))

    def _paint(self, layer: pygame.Surface, cam: Camera, st: GameState, fx: Effects,
               positions: dict[str, Point]) -> None:
        import pygame

        vx, vy = cam.view[0], cam.view[1]

        def px(p: Sequence[float]) -> Point:
            s = cam.to_screen((float(p[0]), float(p[1])))
            return (s[0] - vx, s[1] - vy)

        def pos(mid: str) -> Point | None:
            if mid in positions:
                return positions[mid]
            m = st.models.get(mid)
            return (m.x, m.y) if m is not None and m.deployed and not m.dead else None

        ppi = cam.ppi
        self._locations(layer, st, px, ppi)
        for s in st.smoke:  # smoke clouds (GEO-11)
            pygame.draw.circle(layer, (*THEME.smoke, 110), px((s["x"], s["y"])), s["radius"] * ppi)
        for t in st.tasks.values():  # Complex Tasks (CORE-3.4)
            if not t.done:
                c = px((t.x, t.y))
                pygame.draw.circle(layer, (*THEME.ink, 150), c, t.radius * ppi, 1)
                r = max(4.0, 0.3 * ppi)
                pygame.draw.rect(layer, (*THEME.ink, 230), pygame.Rect(c[0] - r, c[1] - r, 2 * r, 2 * r), 2)
        self._leashes(layer, st, px, ppi)
        for trail in fx.trails:  # this activation's paths
            if len(trail) > 1:
                pygame.draw.lines(layer, (*THEME.path, 200), False, [px(p) for p in trail], max(2, round(ppi / 16)))
        for a, b in fx.blast_lines:
            pygame.draw.line(layer, (*THEME.template, 200), px(a), px(b), 2)
        for shot in fx.shots:
            self._shot(layer, shot, px)
        for tpl in fx.templates:
            self._template(layer, tpl, px, ppi)
        for a, b in fx.deviations:
            _arrow(layer, THEME.template, px(a), px(b), 2, max(6.0, ppi * 0.3))
        for unit, mem in sorted(st.ai.items()):  # locked targets (AI-D.02): the hostiles' intent
            if mem.lock is None:
                continue
            src, dst = anchor_of(st, unit), pos(mem.lock)
            if src is None or dst is None:
                continue
            if any(m in positions for m in st.units[unit].models):
                src = positions.get(st.units[unit].models[0], src)
            _arrow(layer, THEME.leash, px(src), px(dst), 2, max(7.0, ppi * 0.35))

    def _locations(self, layer: pygame.Surface, st: GameState, px: Any, ppi: float) -> None:
        import pygame

        from game.core.geometry.zone import REACTION_RADIUS
        from game.render.overlays_locations import LocationMark, draw_marker, marker_radius_px

        r = marker_radius_px(ppi)
        for loc in sorted(st.locations.values(), key=lambda q: q.id):
            c = px((loc.x, loc.y))
            done = loc.searched or loc.triggered
            if loc.anomaly and not loc.anomaly_inert:  # an Anomaly is present (SALVAGE-8.4.ANOMALY-PRESENCE)
                pygame.draw.circle(layer, (*THEME.anomaly, 46), c, REACTION_RADIUS * ppi)
                _dashed_circle(layer, (*THEME.anomaly, 220), c, REACTION_RADIUS * ppi + 3, 2, dash=6.0)
            if not done:
                pygame.draw.circle(layer, (*THEME.hazard, 34), c, REACTION_RADIUS * ppi)
                _dashed_circle(layer, (*THEME.hazard, 230), c, REACTION_RADIUS * ppi, 2)
            else:
                pygame.draw.circle(layer, (150, 150, 144, 200), c, REACTION_RADIUS * ppi, 1)
            if loc.footprint:
                pts = [px(p) for p in loc.footprint]
                if len(pts) > 2:
                    pygame.draw.polygon(layer, (*(THEME.hazard if not done else (150, 150, 144)), 160), pts, 1)
            mark = LocationMark((loc.x, loc.y), kind=loc.kind if loc.kind in ("hotspot", "objective") else "hotspot",
                                tl=loc.tl, label=loc.name, triggered=done, id=loc.id)
            draw_marker(layer, mark, c, r)
            state = "searched" if loc.searched else "cleared" if loc.cleared else "triggered" if loc.triggered else ""
            text = f"{loc.name} TL{loc.tl}" + (f" ({state})" if state else "") + (" anomaly" if loc.anomaly else "")
            colour = THEME.anomaly if loc.anomaly else THEME.hazard if not done else (170, 170, 160)
            img = font(max(11, min(16, round(ppi * 0.33))), bold=True).render(text, True, colour)
            back = pygame.Surface((img.get_width() + 6, img.get_height()), pygame.SRCALPHA)
            back.fill((*THEME.dark_ink, 170))
            at = (round(c[0] - img.get_width() / 2), round(c[1] + r + 3))
            layer.blit(back, (at[0] - 3, at[1]))
            layer.blit(img, at)

    def _leashes(self, layer: pygame.Surface, st: GameState, px: Any, ppi: float) -> None:
        """GEO-20: each hostile force with models in play, its leash about its location point."""
        for side, force in sorted(st.forces.items()):
            if force.leash is None or force.centre is None:
                continue
            alive = any(not m.ooa and not m.dead and m.deployed for m in st.models.values() if m.side == side)
            if alive:
                _dashed_circle(layer, (*THEME.leash, 150), px(force.centre), force.leash * ppi, 1 if ppi < 30 else 2,
                               dash=14.0)

    def _shot(self, layer: pygame.Surface, shot: Shot, px: Any) -> None:
        import pygame

        pieces = self.bf.pieces
        cov = shot.cover
        if cov.piece is not None and 0 <= cov.piece < len(pieces):
            pygame.draw.polygon(layer, (*THEME.los_clear, 230), [px(p) for p in pieces[cov.piece].footprint], 3)
        for group in cov.obstruction_groups:
            for pid in group:
                if 0 <= pid < len(pieces):
                    pygame.draw.polygon(layer, (*THEME.template, 220), [px(p) for p in pieces[pid].footprint], 2)
        for ray in shot.los.rays:
            colour = (*THEME.los_blocked, 120) if ray.blocked else (*THEME.los_clear, 235)
            pygame.draw.line(layer, colour, px(ray.start[:2]), px(ray.end[:2]), 1 if ray.blocked else 2)

    def _template(self, layer: pygame.Surface, tpl: dict[str, Any], px: Any, ppi: float) -> None:
        import pygame

        from game.core.geometry.templates import TemplateKind, circle_outline, flame_outline

        kind = TemplateKind(tpl["kind"])
        if kind is TemplateKind.FLAME:
            o = tpl.get("origin") or [0.0, 0.0]
            ang = float(tpl.get("angle") or 0.0)
            pts = flame_outline((float(o[0]), float(o[1])), (math.cos(ang), math.sin(ang)))
        else:
            c = tpl.get("centre") or [0.0, 0.0]
            pts = circle_outline((float(c[0]), float(c[1])), kind.radius)
        poly = [px(p) for p in pts]
        pygame.draw.polygon(layer, (*THEME.template, 70), poly)
        pygame.draw.polygon(layer, (*THEME.template, 240), poly, 2)
