"""Movement overlays for `zona-alfa render-map`: a model's shortest path and its move range (GEO-6, GEO-8, GEO-27).

`--path A:B` draws the cheapest legal path of model A (a `--model` name, an anchor or x,y[,z]) to B, with its
cost in inches; when B is a model, to the legal spot in base contact with B (GEO-6: edge distance 0) that the
cheapest path reaches. `--reach A[@INCHES]` shades where A's centre can end for INCHES of allowance (default 7: a
6" Move with a 1" base, GEO-8). Other declared models stand in the way: different sides block, the same side may
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
from game.render.models import ppi_of
from game.render.overlays import INK, Sheet
from game.render.placements import PlacementError, Table
from game.render.style import Overlay, ToPx

if TYPE_CHECKING:
    import pygame

MOVE = (178, 140, 236)  # movement: path line and move range (one colour, one meaning)
MOVE_UP = (236, 170, 236)  # the part of a move range on a raised floor
NO_PATH = (214, 64, 52)
DEFAULT_REACH = 7.0  # a 6" Move with a 1" base (GEO-8, GAP-86)
MAX_REACH = 48.0  # more than any one action's allowance: a bigger range says nothing about a Move
CONTACT_STEPS = 36  # spots tried round a model for base contact (every 10 degrees)


def add_move_arguments(parser: argparse.ArgumentParser) -> None:
    """The movement options of `render-map` (docs/movement.md)."""
    parser.add_argument("--path", action="append", default=[], metavar="A:B",
                        help="draw the shortest legal path of model A to B (model, anchor or x,y[,z]; to a model: "
                             "to the nearest legal spot in base contact) and its cost")
    parser.add_argument("--reach", action="append", default=[], metavar="A[@INCHES]",
                        help="shade where model A can move with INCHES of centre travel (default 7)")


def _polys(geom: Any) -> list[Any]:
    """The non-empty polygons of a shapely geometry."""
    return [g for g in shapely.get_parts(geom) if g.geom_type == "Polygon" and not g.is_empty]


def reach_overlay(region: ReachRegion, base: Base, sheet: Sheet) -> Overlay:
    """The move range, translucent, outlined, per level (raised floors in their own tint, labelled with z)."""
    sheet.marks.ring(base.id, MOVE)
    sheet.marks.note(base.id, f"move {region.budget:g} in")

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
                sheet.notes.label(f"z {region.heights[lid]:g}\"", to_px((c.x, c.y)), MOVE_UP, size=12,
                                  prefer="center", priority=4)

    return draw


def path_overlay(result: PathResult, base: Base, goal: tuple[float, float, float], sheet: Sheet,
                 target: str | None = None) -> Overlay:
    """The path as a thick line (arcs round corners included), level changes marked, cost next to the goal; to a
    model, the goal is drawn as a ghost base touching it."""
    sheet.marks.ring(base.id, MOVE if result.found else NO_PATH)
    to = f" to contact {target}" if target else ""
    if result.found:
        cost = result.fact.cost if result.fact is not None else result.cost
        sheet.marks.note(base.id, f"path{to} {cost:.2f} in")
    else:
        sheet.marks.note(base.id, f"no path{to}")

    def draw(surface: pygame.Surface, to_px: ToPx) -> None:
        import pygame

        ppi = ppi_of(to_px)
        g = to_px(goal[:2])
        if not result.found:
            pygame.draw.line(surface, NO_PATH, to_px((base.x, base.y)), g, 2)
            for dx, dy in ((-1, -1), (1, 1)):
                pygame.draw.line(surface, NO_PATH, (g[0] - 8 * dx, g[1] - 8 * dy), (g[0] + 8 * dx, g[1] + 8 * dy), 3)
            sheet.notes.label(f"no path: {result.reason[:90]}", g, NO_PATH, size=13, prefer="below", gap=10,
                              priority=2)
            return
        pts = [to_px(p[:2]) for p in result.points]
        pygame.draw.lines(surface, (20, 18, 16), False, pts, max(5, round(ppi * 0.3)))
        pygame.draw.lines(surface, MOVE, False, pts, max(3, round(ppi * 0.15)))
        for (a, b) in zip(result.points, result.points[1:], strict=False):
            if abs(b[2] - a[2]) > 0.01:
                mid = to_px(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
                step = f"{'up' if b[2] > a[2] else 'down'} {abs(b[2] - a[2]):g}\""
                sheet.notes.label(step, mid, MOVE_UP, size=12, prefer="center", priority=3)
        pygame.draw.circle(surface, MOVE, g, max(3, base.radius * ppi), 2)
        cost = result.fact.cost if result.fact is not None else result.cost
        sheet.notes.label(f"{cost:.2f} in", g, INK, size=15, prefer="below" if target else "above",
                          gap=base.radius * ppi, priority=2)

    return draw


def contact_path(bf: Battlefield, table: Table, mover: Base, target: Base) -> tuple[PathResult, tuple[float, float,
                                                                                                      float]]:
    """GEO-6/GEO-27: the cheapest legal path from `mover` into base contact with `target` (edge distance 0), tried
    at CONTACT_STEPS spots round it on its level; the failure of the nearest spot when none can be reached."""
    others = [o for o in table.models.values() if o.id != mover.id]
    ring = mover.radius + target.radius + 1e-4  # touching: inside the GEO-6 tolerance, never overlapping
    spots = []
    for k in range(CONTACT_STEPS):
        a = 2 * math.pi * k / CONTACT_STEPS
        x, y = target.x + ring * math.cos(a), target.y + ring * math.sin(a)
        fact = position_fact(bf, x, y, target.z, radius=mover.radius, height=mover.height, others=others,
                             settings=table.settings)
        if fact.legal:
            spots.append((math.hypot(x - mover.x, y - mover.y), (x, y, target.z)))
    if not spots:
        goal = (target.x - ring, target.y, target.z)
        why = (f"no legal spot in base contact with {target.id}: every spot round it is blocked by terrain, "
               "other bases or the table edge (GEO-6, GEO-7)")
        return PathResult(False, math.inf, ((mover.x, mover.y, mover.z),), reason=why), goal
    best: tuple[PathResult, tuple[float, float, float]] | None = None
    for _, spot in sorted(spots):
        if best is not None and best[0].found and math.hypot(spot[0] - mover.x, spot[1] - mover.y) > best[0].cost:
            break  # a straight line to this spot is already longer than the best path
        res = shortest_path(bf, (mover.x, mover.y, mover.z), spot, radius=mover.radius, height=mover.height,
                            others=others, side=mover.side, settings=table.settings)
        if best is None or (res.found and (not best[0].found or res.cost < best[0].cost - 1e-9)):
            best = (res, spot)
    assert best is not None
    return best


def _mover(table: Table, who: str, option: str) -> Base:
    """A model that moves: it must stand where a base may (GEO-7), or the path would start inside a wall."""
    b = table.model(who, option)
    fact = position_fact(table.bf, b.x, b.y, b.z, radius=b.radius, height=b.height,
                         others=[o for o in table.models.values() if o.id != b.id], settings=table.settings)
    if not fact.legal:
        raise PlacementError(f"{option} {b.id}: {fact.reason}; place the model where a base may stand (GEO-7)")
    return b


def _budget(text: str) -> tuple[str, float]:
    who, _, inches = text.partition("@")
    try:
        budget = float(inches) if inches else DEFAULT_REACH
    except ValueError:
        raise PlacementError(f"--reach {text!r}: write MODEL or MODEL@INCHES, e.g. --reach raven@7") from None
    if not who:
        raise PlacementError(f"--reach {text!r}: name the model first: MODEL@INCHES, e.g. --reach raven@7")
    if not math.isfinite(budget) or budget <= 0 or budget > MAX_REACH:
        raise PlacementError(f"--reach {text!r}: the allowance must be a number of inches above 0 and at most "
                             f"{MAX_REACH:g} (a 6\" Move with a 1\" base is 7)")
    return who, budget


def resolve_movers(args: argparse.Namespace, table: Table) -> None:
    """Read --reach and --path before any overlay is built, so every overlay sees every model."""
    for text in getattr(args, "reach", []):
        _mover(table, _budget(text)[0], "--reach")
    for text in getattr(args, "path", []):
        a, colon, goal = text.partition(":")
        if not colon or not a or not goal:
            raise PlacementError(f"--path {text!r}: write A:B (model, anchor or x,y[,z] on each side)")
        mover = _mover(table, a, "--path")
        if goal in table.models and goal == mover.id:
            raise PlacementError(f"--path {text!r}: A and B are the same model; give another goal")
        table.point(goal, "--path")


def move_overlays_from_args(bf: Battlefield, args: argparse.Namespace, sheet: Sheet) -> list[Overlay]:
    """Build the --path/--reach overlays; PlacementError names the option and how to write it."""
    table = sheet.table
    resolve_movers(args, table)
    out: list[Overlay] = []
    movers: set[str] = set()
    for text in getattr(args, "reach", []):
        who, budget = _budget(text)
        b = _mover(table, who, "--reach")
        movers.add(b.id)
        others = [o for o in table.models.values() if o.id != b.id]
        region = reach(bf, (b.x, b.y, b.z), budget, radius=b.radius, height=b.height, others=others, side=b.side,
                       settings=table.settings)
        out.append(reach_overlay(region, b, sheet))
    for text in getattr(args, "path", []):
        a, _, goal_text = text.partition(":")
        b = _mover(table, a, "--path")
        movers.add(b.id)
        target = table.models.get(goal_text)
        if target is not None and goal_text in table.declared:
            res, goal = contact_path(bf, table, b, target)
            out.append(path_overlay(res, b, goal, sheet, target.id))
            continue
        goal = table.point(goal_text, "--path")
        others = [o for o in table.models.values() if o.id != b.id]
        res = shortest_path(bf, (b.x, b.y, b.z), goal, radius=b.radius, height=b.height, others=others,
                            side=b.side, settings=table.settings)
        out.append(path_overlay(res, b, goal, sheet))
    _mark_obstacles(sheet, movers)
    return out


def _mark_obstacles(sheet: Sheet, movers: set[str]) -> None:
    """Every other model: an obstacle to the movers (another side) or passable (the movers' side)."""
    sides = {sheet.table.models[m].side for m in movers}
    for b in sheet.table.models.values():
        if b.id in movers or not sides:
            continue
        if b.side in sides:
            sheet.marks.note(b.id, "friend: passable")
        else:
            sheet.marks.note(b.id, "enemy: blocks moves")
