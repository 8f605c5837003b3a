"""LOS, template and smoke overlays for `zona-alfa render-map` (GEO-10..16, GAP-72): each verdict drawn with its
reasons and the modifiers the rules engine gives it.

Placements are read by game.render.placements (points, anchors, `--model NAME=PLACEMENT[/KIND]`).
`--los A,B` (repeatable): mutual LOS between two placements, plus B's cover against A and the resulting CA, Armor
and Will modifiers. Two coordinate placements are separated by ':' (`--los 3,4:20,12,3`); with names a ',' is
enough (`--los raven,bandit`). `--template KIND@...` (repeatable): `sbt@P`, `lbt@P` (blast centred on P),
`flame@A>P` (from the model or point A, aimed at P) or `flame@A^DEG` (angle in degrees from +x toward +y).
`--smoke P` adds a smoke cloud, drawn, that blocks LOS.
"""
from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.core.battlefield import Battlefield, Point2, Point3, SmokeCloud
from game.core.geometry.sight.cover import CoverFact, cover_against
from game.core.geometry.sight.los import LosFact, line_of_sight
from game.core.geometry.templates import TemplateEffect, TemplateFact, TemplateKind, template_coverage
from game.core.settings import Settings
from game.render.attack_mods import ranged_modifier_lines, template_save_lines
from game.render.labels import Annotations, Rect
from game.render.models import Marks, Tokens, models_overlay, ppi_of
from game.render.placements import PlacementError, Table, split_pair
from game.render.style import Colour, Overlay, ToPx

if TYPE_CHECKING:
    import pygame

OPEN_RAY = (150, 226, 120)  # open sight line
BLOCKED_RAY = (214, 64, 52)  # blocked sight line and the pieces that block
COVER = (88, 150, 230)  # the defender's cover piece
OBSTRUCTION = (236, 140, 40)  # each obstruction on the centre line
TEMPLATE = (222, 96, 40)  # template area
SHIELDED = (170, 170, 170)
SMOKE = (206, 210, 214)  # a smoke cloud (GAP-72)
INK = (240, 236, 220)
MODIFIERS = (246, 214, 120)  # the modifiers lines of a reasons box


@dataclass
class Sheet:
    """One picture's scene and what its overlays share: the table of models, their marks, the queued text."""

    table: Table
    marks: Marks = field(default_factory=Marks)
    notes: Annotations = field(default_factory=Annotations)
    tokens: Tokens = field(default_factory=Tokens)

    @property
    def settings(self) -> Settings:
        return self.table.settings

    def finish(self) -> Overlay:
        """The last overlay: every model once, with its token, ring and label; then every label and box."""
        return models_overlay(self.table, self.marks, self.notes, self.tokens)


def table_rect(bf: Battlefield, to_px: ToPx) -> Rect:
    """The table's area on the picture in pixels."""
    x0, y0 = to_px((0.0, 0.0))
    x1, y1 = to_px((bf.width, bf.height))
    return (x0, y0, x1 - x0, y1 - y0)


def _outline(surface: pygame.Surface, bf: Battlefield, pid: int, colour: Colour, to_px: ToPx, width: int = 3) -> None:
    import pygame

    pygame.draw.polygon(surface, colour, [to_px(p) for p in bf.piece(pid).footprint], width)


def _centre(bf: Battlefield, pid: int) -> Point2:
    c = bf.piece(pid).footprint
    return (sum(p[0] for p in c) / len(c), sum(p[1] for p in c) / len(c))


def obstruction_items(cov: CoverFact) -> tuple[tuple[int, ...], ...]:
    """The GEO-13 items that count -1 each (the pieces of one building's wall are one item)."""
    return cov.obstruction_groups


def _creature(sheet: Sheet, model: str) -> bool:
    kind = sheet.table.kinds.get(model)
    return bool(kind and kind.creature)


def los_lines(los: LosFact, cov: CoverFact, modifiers: list[str]) -> list[tuple[str, Colour]]:
    """The reasons box of a LOS verdict: the verdict, GEO-10's reasons, GEO-12/13's reasons, the modifiers."""
    verdict = "VISIBLE" if los.visible else "NO LOS"
    lines = [(f"GEO-10  {los.viewer} -> {los.target}: {verdict}", OPEN_RAY if los.visible else BLOCKED_RAY)]
    lines += [(r, INK) for r in los.reasons]
    cover_colour = COVER if cov.piece is not None else INK
    lines += [(r, cover_colour if "GEO-12" in r else OBSTRUCTION if "GEO-13" in r else INK) for r in cov.reasons]
    if cov.piece is None and not cov.obstructions and not cov.elevated:
        lines.append(("GEO-13: no obstructions on the centre line", INK))
    if not los.visible:
        lines.append((f"no ranged attack: {los.target} is not in LOS (COMBAT-4.1.REQUIREMENTS)", MODIFIERS))
    elif modifiers:
        lines.append((f"{los.viewer} shooting {los.target} (COMBAT-4.1.MODIFIERS):", MODIFIERS))
        lines += [(f"  {m}", MODIFIERS) for m in modifiers]
    else:
        lines.append((f"{los.viewer} shooting {los.target}: no terrain modifiers (COMBAT-4.1.MODIFIERS)", MODIFIERS))
    return lines


def los_overlay(bf: Battlefield, sheet: Sheet, a_id: str, t_id: str) -> tuple[Overlay, LosFact, CoverFact]:
    """GEO-10/12/13/14 drawn: every ray (open green, blocked red), blocking pieces, cover piece, obstructions; the
    reasons box ends with the CA/Armor/Will modifiers of a ranged attack by A on B (game.core.rules.modifiers)."""
    scene, settings = sheet.table.scene(), sheet.settings
    los = line_of_sight(bf, scene, a_id, t_id, settings=settings)
    cov = cover_against(bf, scene, a_id, t_id, settings=settings)
    mods = ranged_modifier_lines(cov, creature=_creature(sheet, t_id), settings=settings) if los.visible else []
    a, t = scene.base(a_id), scene.base(t_id)
    sheet.marks.ring(a_id, OPEN_RAY if los.a_sees_t else BLOCKED_RAY)
    sheet.marks.ring(t_id, OPEN_RAY if los.t_sees_a else BLOCKED_RAY)
    if cov.piece is not None and los.visible:
        sheet.marks.note(t_id, f"{cov.degraded.value} cover")

    def draw(surface: pygame.Surface, to_px: ToPx) -> None:
        import pygame

        for pid in los.blocked_by:
            _outline(surface, bf, pid, BLOCKED_RAY, to_px, 2)
        if los.visible:  # obstructions and cover only change an attack that can be made
            for group in obstruction_items(cov):  # one "-1" per item: a wall of several pieces counts once
                for pid in group:
                    _outline(surface, bf, pid, OBSTRUCTION, to_px, 3)
                sheet.notes.label("-1", to_px(_centre(bf, group[0])), OBSTRUCTION, size=12, prefer="center",
                                  priority=3)
            if cov.piece is not None:
                _outline(surface, bf, cov.piece, COVER, to_px, 4)
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        for r in los.rays:
            colour = (*BLOCKED_RAY, 110) if r.blocked else (*OPEN_RAY, 230)
            pygame.draw.line(layer, colour, to_px(r.start[:2]), to_px(r.end[:2]), 1 if r.blocked else 2)
        surface.blit(layer, (0, 0))
        mid = to_px(((a.x + t.x) / 2, (a.y + t.y) / 2))
        verdict = "VISIBLE" if los.visible else "NO LOS"
        sheet.notes.label(f"{a.id} -> {t.id}: {verdict}", mid, OPEN_RAY if los.visible else BLOCKED_RAY, size=15,
                          prefer="center", priority=2)
        avoid = [to_px(r.start[:2]) for r in los.rays] + [to_px(r.end[:2]) for r in los.rays]
        sheet.notes.box(los_lines(los, cov, mods), avoid, table_rect(bf, to_px))

    return draw, los, cov


EFFECT_COLOUR = {TemplateEffect.AFFECTED: BLOCKED_RAY, TemplateEffect.SOFT_COVER: COVER,
                 TemplateEffect.SHIELDED: SHIELDED}
EFFECT_NOTE = {TemplateEffect.AFFECTED: "hit", TemplateEffect.SOFT_COVER: "hit, soft cover",
               TemplateEffect.SHIELDED: "shielded"}


def template_overlay(bf: Battlefield, sheet: Sheet, kind: TemplateKind, origin: Point2 | Point3 | None, *,
                     angle: float | None = None, attacker_id: str | None = None) -> tuple[Overlay, TemplateFact]:
    """GEO-15/16 drawn: the template, each touched model (hit, hit with soft cover +2 save, shielded) and the
    pieces between; the reasons box gives each model's reason and the save modifier of soft cover."""
    settings = sheet.settings
    fact = template_coverage(bf, sheet.table.scene(), kind, origin, angle=angle, attacker_id=attacker_id,
                             settings=settings)
    for m in fact.models:
        sheet.marks.ring(m.model, EFFECT_COLOUR[m.effect])
        sheet.marks.note(m.model, f"{fact.kind.value} {EFFECT_NOTE[m.effect]}")
    if fact.attacker:
        sheet.marks.ring(fact.attacker, OPEN_RAY)

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
        bases = {b.id: b for b in sheet.table.models.values()}
        for m in fact.models:
            for pid in m.shielded_by:
                _outline(surface, bf, pid, SHIELDED, to_px, 4)
            for pid in m.soft_cover_between:
                _outline(surface, bf, pid, COVER, to_px, 3)
            b = bases[m.model]
            pygame.draw.line(surface, EFFECT_COLOUR[m.effect], o, to_px((b.x, b.y)), 1)
        lines = [(f"GEO-15  {fact.kind.value.upper()} at ({fact.origin[0]:.1f}, {fact.origin[1]:.1f}): "
                  f"{len(fact.models)} touched, {len(fact.affected)} affected", TEMPLATE)]
        lines += [(f"{m.model}: {m.reason}", EFFECT_COLOUR[m.effect]) for m in fact.models]
        soft = [m.model for m in fact.models if m.effect is TemplateEffect.SOFT_COVER]
        if soft:
            for text in template_save_lines(soft_cover=True, settings=settings):
                lines.append((f"{', '.join(soft)}: {text}", MODIFIERS))
        sheet.notes.box(lines, pts + [to_px((b.x, b.y)) for b in bases.values()], table_rect(bf, to_px))

    return draw, fact


def smoke_overlay(cloud: SmokeCloud, sheet: Sheet) -> Overlay:
    """A smoke cloud (GAP-72): a translucent grey disc of its radius with a dashed rim, labelled with its height."""

    def draw(surface: pygame.Surface, to_px: ToPx) -> None:
        import pygame

        c = to_px((cloud.x, cloud.y))
        r = cloud.radius * ppi_of(to_px)
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        for k, alpha in ((1.0, 150), (0.78, 45), (0.55, 45), (0.3, 45)):  # denser towards the middle
            pygame.draw.circle(layer, (*SMOKE, alpha), c, r * k)
        surface.blit(layer, (0, 0))
        steps = 36
        for i in range(0, steps, 2):
            a0, a1 = 2 * math.pi * i / steps, 2 * math.pi * (i + 1) / steps
            pygame.draw.line(surface, SMOKE, (c[0] + r * math.cos(a0), c[1] + r * math.sin(a0)),
                             (c[0] + r * math.cos(a1), c[1] + r * math.sin(a1)), 2)
        sheet.notes.label(f"smoke {cloud.height:g}\" tall (GAP-72)", (c[0], c[1] - r), SMOKE, size=12,
                          prefer="above", gap=0.0, priority=4)

    return draw


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
        origin = table.point(aim, "--template")
        attacker = table.model(who, "--template")
        if math.hypot(origin[0] - attacker.x, origin[1] - attacker.y) < 1e-6:
            raise PlacementError(f"--template {text!r}: the flame is aimed at its own attacker; aim it elsewhere")
        return kind, origin, None, attacker.id
    if "^" in rest:
        who, _, deg = rest.partition("^")
        try:
            angle = math.radians(float(deg))
        except ValueError:
            angle = math.nan
        if not math.isfinite(angle):
            raise PlacementError(f"--template {text!r}: the angle after ^ is a finite number of degrees") from None
        return kind, None, angle, table.model(who, "--template").id
    raise PlacementError(f"--template {text!r}: a flame needs its attacker and aim: flame@A>P or flame@A^DEG")


def add_overlay_arguments(parser: argparse.ArgumentParser) -> None:
    """The overlay options of `render-map` (see the module docstring and docs/geometry.md)."""
    parser.add_argument("--model", action="append", default=[], metavar="NAME=P[/KIND]",
                        help="place a named model, drawn with its token (P: x,y[,z] inches or an anchor; KIND: a "
                             "base size human, dog, vermin, mutant, large_mutant or a catalog id such as bandit, "
                             "leader, dogs; a NAME that is a catalog id is its own KIND)")
    parser.add_argument("--los", action="append", default=[], metavar="A,B",
                        help="draw mutual LOS A<->B, B's cover against A and the modifiers of A shooting B (A, B: "
                             "model, anchor or x,y[,z]; two coordinates: x,y:x,y)")
    parser.add_argument("--template", action="append", default=[], metavar="KIND@...",
                        help="draw a template and who it touches: sbt@P, lbt@P, flame@A>P, flame@A^DEG")
    parser.add_argument("--smoke", action="append", default=[], metavar="P",
                        help="a smoke cloud (LBT, GAP-72) centred on P: drawn, and it blocks LOS")


def sheet_from_args(bf: Battlefield, args: argparse.Namespace, *, settings: Settings | None = None,
                    tokens: Tokens | None = None) -> Sheet:
    """The models (`--model`) and smoke (`--smoke`) of the command line on this map."""
    table = Table(bf, settings or Settings.defaults())
    for text in getattr(args, "model", []):
        table.declare(text)
    for text in getattr(args, "smoke", []):
        table.add_smoke(text)
    return Sheet(table, tokens=tokens or Tokens())


def overlays_from_args(bf: Battlefield, args: argparse.Namespace, sheet: Sheet) -> list[Overlay]:
    """The LOS and template overlays requested (smoke: `smoke_overlay` per cloud of the sheet's table);
    PlacementError names the option and how to write it."""
    table = sheet.table
    pairs = [split_pair(t) for t in args.los]
    los_pairs = []
    for text, (a, b) in zip(args.los, pairs, strict=True):
        pair = (table.model(a, "--los").id, table.model(b, "--los").id)
        if pair[0] == pair[1]:
            raise PlacementError(f"--los {text!r}: A and B are the same model; name two different placements")
        los_pairs.append(pair)
    templates = [parse_template(table, t) for t in args.template]
    out: list[Overlay] = []
    for a, b in los_pairs:
        out.append(los_overlay(bf, sheet, a, b)[0])
    for kind, origin, angle, attacker in templates:
        out.append(template_overlay(bf, sheet, kind, origin, angle=angle, attacker_id=attacker)[0])
    return out
