"""LOS and template overlays for `zona-alfa render-map` (GEO-10..16): each verdict drawn with its reasons.

Placements, as a scenario designer writes them on the command line:
  * `x,y` or `x,y,z`: a point in inches (GEO-1: origin top-left, y down; z = height of the floor stood on);
  * an anchor name of the map (`hotspot-a`, `btr`): its point and z;
  * a model name declared with `--model NAME=PLACEMENT[/KIND]` (KIND: human, dog, vermin, mutant,
    large_mutant; default human, sizes from `geo.bases.*`).
`--los A,B` (repeatable): mutual LOS between two placements, plus B's cover against A. Two coordinate
placements are separated by ':' (`--los 3,4:20,12,3`); with names a ',' is enough (`--los raven,bandit`).
`--template KIND@...` (repeatable): `sbt@P`, `lbt@P` (blast centred on P), `flame@A>P` (from the model or
point A, aimed at P) or `flame@A^DEG` (angle in degrees from +x toward +y). `--smoke P` adds a smoke cloud.
"""
from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING

from game.core.battlefield import Base, Battlefield, Point2, Point3, Scene, SmokeCloud
from game.core.geometry.sight.cover import CoverFact, cover_against
from game.core.geometry.sight.los import LosFact, line_of_sight
from game.core.geometry.templates import TemplateEffect, TemplateFact, TemplateKind, template_coverage
from game.core.settings import Settings
from game.render.style import BOLD_FONT_FILE, FONT_FILE, Colour, Overlay, ToPx, font_path

if TYPE_CHECKING:
    import pygame

OPEN_RAY = (150, 226, 120)  # open sight line
BLOCKED_RAY = (214, 64, 52)  # blocked sight line and the pieces that block
COVER = (88, 150, 230)  # the defender's cover piece
OBSTRUCTION = (236, 140, 40)  # each obstruction on the centre line
TEMPLATE = (222, 96, 40)  # template area
SHIELDED = (170, 170, 170)
INK = (240, 236, 220)
BACK = (24, 24, 20)
KINDS = ("human", "dog", "vermin", "mutant", "large_mutant")


class PlacementError(ValueError):
    """A --model/--los/--template/--smoke value that cannot be read: says which option and how to write it."""


def _font(size: int, bold: bool = False) -> pygame.font.Font:
    import pygame

    return pygame.font.Font(font_path(BOLD_FONT_FILE if bold else FONT_FILE), size)


def ppi_of(to_px: ToPx) -> float:
    """The scale of a picture in pixels per inch, read from its inches-to-pixels transform."""
    return to_px((1.0, 0.0))[0] - to_px((0.0, 0.0))[0]


def _numbers(text: str) -> list[float] | None:
    try:
        return [float(v) for v in text.split(",")]
    except ValueError:
        return None


class Table:
    """The scene being built from the command line: named models and smoke, resolved against the map."""

    def __init__(self, bf: Battlefield, settings: Settings) -> None:
        self.bf = bf
        self.settings = settings
        self.models: dict[str, Base] = {}
        self.smoke: list[SmokeCloud] = []
        self._anon = 0

    def size(self, kind: str) -> tuple[float, float]:
        if kind not in KINDS:
            raise PlacementError(f"unknown model kind {kind!r}; use one of {', '.join(KINDS)}")
        return (self.settings[f"geo.bases.{kind}.diameter"] / 2, self.settings[f"geo.bases.{kind}.height"])

    def point(self, text: str, option: str) -> tuple[float, float, float]:
        """x,y[,z] in inches, an anchor name, or a declared model's position."""
        nums = _numbers(text)
        if nums is not None:
            if len(nums) not in (2, 3):
                raise PlacementError(f"{option} {text!r}: a point is x,y or x,y,z in inches")
            return (nums[0], nums[1], nums[2] if len(nums) == 3 else 0.0)
        if text in self.models:
            b = self.models[text]
            return (b.x, b.y, b.z)
        try:
            a = self.bf.anchor(text)
        except KeyError as err:
            raise PlacementError(
                f"{option} {text!r}: not a point x,y[,z], a --model name or an anchor ({err})") from None
        return (a.point[0], a.point[1], a.z)

    def model(self, text: str, option: str) -> Base:
        """A declared model, or an anonymous human-sized model at a point or anchor."""
        if text in self.models:
            return self.models[text]
        x, y, z = self.point(text, option)
        self._anon += 1
        r, h = self.size("human")
        base = Base(f"{text}" if _numbers(text) is None else f"({text})", x, y, z, r, h, "marker")
        self.models[base.id] = base
        return base

    def declare(self, text: str) -> None:
        name, eq, rest = text.partition("=")
        if not eq or not name:
            raise PlacementError(f"--model {text!r}: write NAME=x,y[,z][/KIND], e.g. --model raven=4,5/human")
        where, _, kind = rest.partition("/")
        r, h = self.size(kind or "human")
        x, y, z = self.point(where, f"--model {name}")
        side = "crew" if len(self.models) % 2 == 0 else "hostile"
        self.models[name] = Base(name, x, y, z, r, h, side)

    def scene(self) -> Scene:
        return Scene(bases=tuple(self.models.values()), smoke=tuple(self.smoke))


def split_pair(text: str) -> tuple[str, str]:
    """`A,B` or `A:B` into two placements (':' when both are coordinates)."""
    if ":" in text:
        a, _, b = text.partition(":")
        return a, b
    nums = _numbers(text)
    if nums is not None and len(nums) in (4, 6):
        half = len(nums) // 2
        return ",".join(str(v) for v in nums[:half]), ",".join(str(v) for v in nums[half:])
    parts = text.split(",")
    if len(parts) == 2 and nums is None:
        return parts[0], parts[1]
    raise PlacementError(f"--los {text!r}: write A,B with names, or x,y[,z]:x,y[,z] with coordinates")


def draw_label(surface: pygame.Surface, text: str, at: tuple[float, float], colour: Colour = INK,
               size: int = 14, anchor: str = "midbottom") -> None:
    """Bold text on a dark plate anchored at a pixel, kept inside the picture."""
    import pygame

    img = _font(size, bold=True).render(text, True, colour)
    rect = img.get_rect(**{anchor: (round(at[0]), round(at[1]))})
    rect.clamp_ip(surface.get_rect().inflate(-8, -4))  # never cut off at the picture's edge
    back = pygame.Surface((rect.w + 6, rect.h + 2), pygame.SRCALPHA)
    back.fill((*BACK, 190))
    surface.blit(back, (rect.x - 3, rect.y - 1))
    surface.blit(img, rect)


def _legend(surface: pygame.Surface, lines: list[tuple[str, Colour]], avoid: list[tuple[float, float]],
            slot: int, to_px: ToPx, bf: Battlefield) -> None:
    """A box of reason lines in the table corner farthest from what the overlay draws (`slot`: n-th best)."""
    import pygame

    font = _font(12)
    imgs = [font.render(t, True, c) for t, c in lines]
    w = max(i.get_width() for i in imgs) + 12
    h = sum(i.get_height() + 2 for i in imgs) + 8
    x0, y0 = to_px((0.0, 0.0))
    x1, y1 = to_px((bf.width, bf.height))
    corners = [(x0 + 4, y0 + 4), (x1 - w - 4, y0 + 4), (x0 + 4, y1 - h - 4), (x1 - w - 4, y1 - h - 4)]

    def clearance(c: tuple[float, float]) -> float:
        cx, cy = c[0] + w / 2, c[1] + h / 2
        return min((abs(px - cx) - w / 2) + (abs(py - cy) - h / 2) for px, py in avoid) if avoid else 0.0

    x, y = sorted(corners, key=clearance, reverse=True)[slot % 4]
    x, y = max(0.0, x), max(0.0, y)
    back = pygame.Surface((w, h), pygame.SRCALPHA)
    back.fill((*BACK, 215))
    surface.blit(back, (x, y))
    yy = y + 4
    for img in imgs:
        surface.blit(img, (x + 6, yy))
        yy += img.get_height() + 2


def _outline(surface: pygame.Surface, bf: Battlefield, pid: int, colour: Colour, to_px: ToPx, width: int = 3) -> None:
    import pygame

    pygame.draw.polygon(surface, colour, [to_px(p) for p in bf.piece(pid).footprint], width)


def draw_base(surface: pygame.Surface, b: Base, colour: Colour, to_px: ToPx, label: str | None = None,
              below: bool = False) -> None:
    """A model's base ring, labelled with its name and height (or `label`) above it, or below it if `below`."""
    import pygame

    c = to_px((b.x, b.y))
    r = max(3.0, b.radius * ppi_of(to_px))
    pygame.draw.circle(surface, (40, 40, 36), c, r)
    pygame.draw.circle(surface, colour, c, r, 3)
    at, anchor = ((c[0], c[1] + r + 2), "midtop") if below else ((c[0], c[1] - r - 2), "midbottom")
    draw_label(surface, label or f"{b.id} z{b.z:g}", at, colour, 13, anchor)


def los_overlay(bf: Battlefield, scene: Scene, a_id: str, t_id: str, *, settings: Settings | None = None,
                legend_slot: int = 0) -> tuple[Overlay, LosFact, CoverFact]:
    """GEO-10/12/13/14 drawn: every ray (open green, blocked red), blocking pieces, cover piece, obstructions."""
    los = line_of_sight(bf, scene, a_id, t_id, settings=settings)
    cov = cover_against(bf, scene, a_id, t_id, settings=settings)
    a, t = scene.base(a_id), scene.base(t_id)

    def draw(surface: pygame.Surface, to_px: ToPx) -> None:
        import pygame

        for pid in los.blocked_by:
            _outline(surface, bf, pid, BLOCKED_RAY, to_px, 2)
        for pid in cov.obstructions:
            _outline(surface, bf, pid, OBSTRUCTION, to_px, 3)
            c = bf.piece(pid).footprint
            cx, cy = sum(p[0] for p in c) / len(c), sum(p[1] for p in c) / len(c)
            draw_label(surface, "-1", to_px((cx, cy)), OBSTRUCTION, 12, "center")
        if cov.piece is not None:
            _outline(surface, bf, cov.piece, COVER, to_px, 4)
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        for r in los.rays:
            colour = (*BLOCKED_RAY, 110) if r.blocked else (*OPEN_RAY, 230)
            pygame.draw.line(layer, colour, to_px(r.start[:2]), to_px(r.end[:2]), 1 if r.blocked else 2)
        surface.blit(layer, (0, 0))
        draw_base(surface, a, OPEN_RAY if los.a_sees_t else BLOCKED_RAY, to_px, below=a.y > t.y)
        draw_base(surface, t, OPEN_RAY if los.t_sees_a else BLOCKED_RAY, to_px, below=t.y >= a.y)
        mid = to_px(((a.x + t.x) / 2, (a.y + t.y) / 2))
        verdict = "VISIBLE" if los.visible else "NO LOS"
        draw_label(surface, f"{a.id} -> {t.id}: {verdict}", mid, OPEN_RAY if los.visible else BLOCKED_RAY, 15)
        lines = [(f"GEO-10  {a.id} -> {t.id}: {verdict}", OPEN_RAY if los.visible else BLOCKED_RAY)]
        lines += [(r, INK) for r in los.reasons]
        cover_colour = COVER if cov.piece is not None else INK
        lines += [(r, cover_colour if "GEO-12" in r else OBSTRUCTION if "GEO-13" in r else INK) for r in cov.reasons]
        if cov.piece is None and not cov.obstructions and not cov.elevated:
            lines.append(("GEO-13: no obstructions on the centre line", INK))
        _legend(surface, lines, [to_px(r.start[:2]) for r in los.rays] + [to_px(r.end[:2]) for r in los.rays],
                legend_slot, to_px, bf)

    return draw, los, cov


def template_overlay(bf: Battlefield, scene: Scene, kind: TemplateKind, origin: Point2 | Point3 | None, *,
                     angle: float | None = None, attacker_id: str | None = None, settings: Settings | None = None,
                     legend_slot: int = 0) -> tuple[Overlay, TemplateFact]:
    """GEO-15/16 drawn: the template, each touched model (affected, soft cover +2, shielded) and its shields."""
    fact = template_coverage(bf, scene, kind, origin, angle=angle, attacker_id=attacker_id, settings=settings)

    def draw(surface: pygame.Surface, to_px: ToPx) -> None:
        import pygame

        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        pts = [to_px(p) for p in fact.outline]
        pygame.draw.polygon(layer, (*TEMPLATE, 90), pts)
        pygame.draw.polygon(layer, (*TEMPLATE, 255), pts, 2)
        surface.blit(layer, (0, 0))
        o = to_px(fact.origin[:2])
        pygame.draw.line(surface, TEMPLATE, (o[0] - 6, o[1]), (o[0] + 6, o[1]), 2)
        pygame.draw.line(surface, TEMPLATE, (o[0], o[1] - 6), (o[0], o[1] + 6), 2)
        touched = {m.model: m for m in fact.models}
        for k, b in enumerate(sorted(scene.bases, key=lambda q: (q.y, q.x))):
            m = touched.get(b.id)
            if m is None:
                draw_base(surface, b, INK if b.id != fact.attacker else OPEN_RAY, to_px)
                continue
            colour = {TemplateEffect.AFFECTED: BLOCKED_RAY, TemplateEffect.SOFT_COVER: COVER,
                      TemplateEffect.SHIELDED: SHIELDED}[m.effect]
            for pid in m.shielded_by:
                _outline(surface, bf, pid, SHIELDED, to_px, 4)
            for pid in m.soft_cover_between:
                _outline(surface, bf, pid, COVER, to_px, 3)
            pygame.draw.line(surface, colour, o, to_px((b.x, b.y)), 1)
            tag = {TemplateEffect.AFFECTED: "hit", TemplateEffect.SOFT_COVER: "hit, +2 save",
                   TemplateEffect.SHIELDED: "shielded"}[m.effect]
            draw_base(surface, b, colour, to_px, f"{b.id}: {tag}", below=k % 2 == 1)
        lines = [(f"GEO-15  {fact.kind.value.upper()} at ({fact.origin[0]:.1f}, {fact.origin[1]:.1f}): "
                  f"{len(fact.models)} touched, {len(fact.affected)} affected", TEMPLATE)]
        for m in fact.models:
            c = {TemplateEffect.AFFECTED: BLOCKED_RAY, TemplateEffect.SOFT_COVER: COVER,
                 TemplateEffect.SHIELDED: SHIELDED}[m.effect]
            lines.append((f"{m.model}: {m.reason}", c))
        _legend(surface, lines, pts + [to_px((b.x, b.y)) for b in scene.bases], legend_slot, to_px, bf)

    return draw, fact


def parse_template(table: Table, text: str) -> tuple[TemplateKind, Point3 | None, float | None, str | None]:
    """`sbt@P`, `lbt@P`, `flame@A>P` or `flame@A^DEG` into (kind, origin, angle, attacker id)."""
    kind_s, at, rest = text.partition("@")
    try:
        kind = TemplateKind(kind_s.strip().lower())
    except ValueError:
        raise PlacementError(f"--template {text!r}: kind must be sbt, lbt or flame (e.g. lbt@20,12)") from None
    if not at or not rest:
        raise PlacementError(f"--template {text!r}: write KIND@PLACEMENT, e.g. sbt@20,12 or flame@raven>20,12")
    if kind is not TemplateKind.FLAME:
        return kind, table.point(rest, "--template"), None, None
    if ">" in rest:
        who, _, aim = rest.partition(">")
        return kind, table.point(aim, "--template"), None, table.model(who, "--template").id
    if "^" in rest:
        who, _, deg = rest.partition("^")
        try:
            angle = math.radians(float(deg))
        except ValueError:
            raise PlacementError(f"--template {text!r}: the angle after ^ is in degrees") from None
        return kind, None, angle, table.model(who, "--template").id
    raise PlacementError(f"--template {text!r}: a flame needs its attacker and aim: flame@A>P or flame@A^DEG")


def add_overlay_arguments(parser: argparse.ArgumentParser) -> None:
    """The overlay options of `render-map` (see the module docstring and docs/geometry.md)."""
    parser.add_argument("--model", action="append", default=[], metavar="NAME=P[/KIND]",
                        help="place a named model (P: x,y[,z] inches or an anchor; KIND: human, dog, ...)")
    parser.add_argument("--los", action="append", default=[], metavar="A,B",
                        help="draw mutual LOS A<->B and B's cover against A (A, B: model, anchor or x,y[,z]; "
                             "two coordinates: x,y:x,y)")
    parser.add_argument("--template", action="append", default=[], metavar="KIND@...",
                        help="draw a template and who it touches: sbt@P, lbt@P, flame@A>P, flame@A^DEG")
    parser.add_argument("--smoke", action="append", default=[], metavar="P",
                        help="a smoke cloud (LBT, GAP-72) centred on P")


def overlays_from_args(bf: Battlefield, args: argparse.Namespace, *, settings: Settings | None = None) -> list[Overlay]:
    """Build the requested overlays; PlacementError names the option and how to write it."""
    settings = settings or Settings.defaults()
    table = Table(bf, settings)
    for text in args.model:
        table.declare(text)
    for text in args.smoke:
        x, y, z = table.point(text, "--smoke")
        table.smoke.append(SmokeCloud(x, y, z, TemplateKind.LBT.radius, float(settings["smoke.height"])))
    pairs = [split_pair(t) for t in args.los]
    los_pairs = [(table.model(a, "--los").id, table.model(b, "--los").id) for a, b in pairs]
    templates = [parse_template(table, t) for t in args.template]
    scene = table.scene()
    out: list[Overlay] = []
    for a, b in los_pairs:
        out.append(los_overlay(bf, scene, a, b, settings=settings, legend_slot=len(out))[0])
    for kind, origin, angle, attacker in templates:
        out.append(template_overlay(bf, scene, kind, origin, angle=angle, attacker_id=attacker, settings=settings,
                                    legend_slot=len(out))[0])
    return out
