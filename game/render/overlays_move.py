"""Movement overlays for `zona-alfa render-map`: a model's shortest path and its move range (GEO-8, GEO-27).

`--path A:B` draws the cheapest legal path of model A (a `--model` name, an anchor or x,y[,z]) to B, with its
cost in inches; `--reach A[@INCHES]` shades where A's centre can end for INCHES of allowance (default 7: a 6"
Move with a 1" base, GEO-8). Other declared models stand in the way: different sides block, the same side may
be passed but not ended on.
"""
from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING, Any

import shapely

from game.core.battlefield import Base, Battlefield
from game.core.geometry.movement.paths import PathResult, shortest_path
from game.core.geometry.movement.positions import position_fact
from game.core.geometry.movement.reach import ReachRegion, reach
from game.core.settings import Settings
from game.render.overlays import INK, PlacementError, Table, draw_base, draw_label, ppi_of
from game.render.style import Overlay, ToPx

if TYPE_CHECKING:
    import pygame

MOVE = (178, 140, 236)  # movement: path line and move range (one colour, one meaning)
MOVE_UP = (236, 170, 236)  # the part of a move range on a raised floor
NO_PATH = (214, 64, 52)
DEFAULT_REACH = 7.0  # a 6" Move with a 1" base (GEO-8, GAP-86)


def add_move_arguments(parser: argparse.ArgumentParser) -> None:
    """`--path` and `--reach` (see the module docstring and docs/movement.md)."""
    parser.add_argument("--path", action="append", default=[], metavar="A:B",
                        help="draw model A's shortest legal path to B with its cost (A, B: model, anchor or x,y[,z])")
    parser.add_argument("--reach", action="append", default=[], metavar="A[@INCHES]",
                        help="shade where model A can end with INCHES of centre travel (default 7)")


def _polys(geom: Any) -> list[Any]:
    """The non-empty polygons of a shapely geometry."""
    return [g for g in shapely.get_parts(geom) if g.geom_type == "Polygon" and not g.is_empty]


def reach_overlay(region: ReachRegion, base: Base) -> Overlay:
    """The move range, translucent, outlined, per level (raised floors in their own tint, labelled with z)."""

    def draw(surface: pygame.Surface, to_px: ToPx) -> None:
        import pygame

        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        for lid, geom in region.regions.items():
            colour = MOVE if region.heights[lid] <= 0.01 else MOVE_UP
            for poly in _polys(geom):
                outer = [to_px(p) for p in poly.exterior.coords]
                pygame.draw.polygon(layer, (*colour, 80), outer)
                for hole in poly.interiors:
                    pygame.draw.polygon(layer, (0, 0, 0, 0), [to_px(p) for p in hole.coords])
        surface.blit(layer, (0, 0))
        for lid, geom in region.regions.items():
            colour = MOVE if region.heights[lid] <= 0.01 else MOVE_UP
            for poly in _polys(geom):
                for ring in (poly.exterior, *poly.interiors):
                    pygame.draw.lines(surface, colour, True, [to_px(p) for p in ring.coords], 2)
            if region.heights[lid] > 0.01:
                c = geom.representative_point()
                draw_label(surface, f"z {region.heights[lid]:g}\"", to_px((c.x, c.y)), colour=MOVE_UP, size=12,
                           anchor="center")
        if region.regions:
            top = min(g.bounds[1] for g in region.regions.values())
            draw_label(surface, f"{base.id}: move {region.budget:g} in", to_px((base.x, top)), colour=MOVE, size=13)

    return draw


def path_overlay(result: PathResult, base: Base, goal: tuple[float, float, float]) -> Overlay:
    """The path as a thick line (arcs round corners included), level changes marked, cost next to the goal."""

    def draw(surface: pygame.Surface, to_px: ToPx) -> None:
        import pygame

        ppi = ppi_of(to_px)
        g = to_px(goal[:2])
        if not result.found:
            pygame.draw.line(surface, NO_PATH, to_px((base.x, base.y)), g, 2)
            for dx, dy in ((-1, -1), (1, 1)):
                pygame.draw.line(surface, NO_PATH, (g[0] - 8 * dx, g[1] - 8 * dy), (g[0] + 8 * dx, g[1] + 8 * dy), 3)
            draw_label(surface, f"no path: {result.reason[:70]}", (g[0], g[1] - 10), colour=NO_PATH, size=13)
            return
        pts = [to_px(p[:2]) for p in result.points]
        pygame.draw.lines(surface, (20, 18, 16), False, pts, max(5, round(ppi * 0.3)))
        pygame.draw.lines(surface, MOVE, False, pts, max(3, round(ppi * 0.15)))
        for (a, b) in zip(result.points, result.points[1:], strict=False):
            if abs(b[2] - a[2]) > 0.01:
                mid = to_px(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
                step = f"{'up' if b[2] > a[2] else 'down'} {abs(b[2] - a[2]):g}\""
                draw_label(surface, step, mid, colour=MOVE_UP, size=12, anchor="center")
        pygame.draw.circle(surface, MOVE, g, max(3, base.radius * ppi), 2)
        cost = result.fact.cost if result.fact is not None else result.cost
        draw_label(surface, f"{cost:.2f} in", (g[0], g[1] - base.radius * ppi - 2), colour=INK, size=16)

    return draw


def move_overlays_from_args(bf: Battlefield, args: argparse.Namespace, *,
                            settings: Settings | None = None) -> list[Overlay]:
    """Build the --path/--reach overlays; PlacementError names the option and how to write it."""
    settings = settings or Settings.defaults()
    if not (getattr(args, "path", None) or getattr(args, "reach", None)):
        return []
    table = Table(bf, settings)
    for text in getattr(args, "model", []):
        table.declare(text)
    out: list[Overlay] = []

    def placed(b: Base, option: str) -> Base:
        fact = position_fact(bf, b.x, b.y, b.z, radius=b.radius, height=b.height,
                             others=[o for o in table.models.values() if o.id != b.id], settings=settings)
        if not fact.legal:
            raise PlacementError(f"{option} {b.id}: {fact.reason}; place the model where a base may stand (GEO-7)")
        return b

    movers = {t.partition("@")[0] for t in args.reach} | {t.partition(":")[0] for t in args.path}
    for text in args.reach:
        who, _, inches = text.partition("@")
        try:
            budget = float(inches) if inches else DEFAULT_REACH
        except ValueError:
            raise PlacementError(f"--reach {text!r}: write MODEL or MODEL@INCHES, e.g. --reach raven@7") from None
        if not math.isfinite(budget) or budget <= 0:
            raise PlacementError(f"--reach {text!r}: the allowance must be a positive number of inches")
        b = placed(table.model(who, "--reach"), "--reach")
        others = [o for o in table.models.values() if o.id != b.id]
        region = reach(bf, (b.x, b.y, b.z), budget, radius=b.radius, height=b.height, others=others, side=b.side,
                       settings=settings)
        out.append(reach_overlay(region, b))
    for text in args.path:
        if ":" not in text:
            raise PlacementError(f"--path {text!r}: write A:B (model, anchor or x,y[,z] on each side)")
        a, _, goal_text = text.partition(":")
        b = placed(table.model(a, "--path"), "--path")
        goal = table.point(goal_text, "--path")
        others = [o for o in table.models.values() if o.id != b.id]
        res = shortest_path(bf, (b.x, b.y, b.z), goal, radius=b.radius, height=b.height, others=others,
                            side=b.side, settings=settings)
        out.append(path_overlay(res, b, goal))
    out.append(_bases_overlay(table, movers))
    return out


def _bases_overlay(table: Table, movers: set[str]) -> Overlay:
    """Every declared model: movers in the movement colour, the rest marked as blocking (another side) or
    passable (the mover's side)."""
    moving = [b for b in table.models.values() if b.id in movers or b.id.strip("()") in movers]
    sides = {b.side for b in moving}

    def draw(surface: pygame.Surface, to_px: ToPx) -> None:
        for b in table.models.values():
            if b in moving:
                draw_base(surface, b, MOVE, to_px, label=b.id)
            elif b.side in sides:
                draw_base(surface, b, MOVE, to_px, label=f"{b.id} (friend: passable)", below=True)
            else:
                draw_base(surface, b, NO_PATH, to_px, label=f"{b.id} (enemy: blocks)", below=True)

    return draw
