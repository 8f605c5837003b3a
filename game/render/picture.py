"""`zona-alfa render-map`: a picture of a Battlefield drawn from its object geometry, with pluggable overlays."""
from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from game.core.battlefield import Anchor, Area, Battlefield, ConnectorKind, Movement, Point2, TerrainPiece
from game.render.labels import Rect, Taken, overlaps
from game.render.legend import Entry, draw_legend, layout, map_entries
from game.render.painter import Painter
from game.render.plan import PlanLayer, plan_order
from game.render.style import FONT_FILE as FONT_FILE  # re-exported: tests/test_render_map.py reads it here
from game.render.style import PALETTE, Colour, Overlay, Palette, darker, piece_fill, shade

if TYPE_CHECKING:
    import pygame

    from game.render.overlays_locations import LocationMark

REACTION_RADIUS_IN = 3.0  # MISSION-8.2.TRIGGER: drawn around hot spots
MIN_PPI, MAX_PPI = 4.0, 100.0  # below 4 px per inch a base is smaller than its ring; above 100 pictures get huge
MAX_SIDE_PX = 16384  # the largest picture side written
SPRITES = Path(__file__).resolve().parents[2] / "sprites"


def _draw_table(pt: Painter) -> None:
    pg, pal, bf = pt.pg, pt.pal, pt.bf
    pt.surface.fill(pal.frame)
    x0, y0 = pt.to_px((0, 0))
    x1, y1 = pt.to_px((bf.width, bf.height))
    pg.draw.rect(pt.surface, pal.mat, pg.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0)))
    for i in range(1, int(bf.width)):
        c = pal.grid_major if i % 6 == 0 else pal.grid
        pg.draw.line(pt.surface, c, pt.to_px((i, 0)), pt.to_px((i, bf.height)), 1)
    for j in range(1, int(bf.height)):
        c = pal.grid_major if j % 6 == 0 else pal.grid
        pg.draw.line(pt.surface, c, pt.to_px((0, j)), pt.to_px((bf.width, j)), 1)
    for i in range(0, int(bf.width) + 1, 6):
        pt.text(f'{i}"', (pt.to_px((i, 0))[0], y0 - pt.margin * 0.2), anchor="midbottom", halo=False)
    for j in range(0, int(bf.height) + 1, 6):
        pt.text(f'{j}"', (x0 - pt.margin * 0.15, pt.to_px((0, j))[1]), anchor="midright", halo=False)
    pt.text(f"{bf.name}  {bf.width:g}\" x {bf.height:g}\"", (x0, pt.margin * 0.2), font=pt.title,
            anchor="topleft", halo=False)


def _draw_zones(pt: Painter) -> None:
    for z in pt.bf.zones:
        pts = pt.poly_px(z.footprint)
        pt.translucent_polygon(pts, (*pt.pal.zone, 60))
        pt.dashed(pts, pt.pal.zone)
        c = shapely.Polygon(z.footprint).representative_point()
        pt.text(z.name, pt.to_px((c.x, c.y)), colour=pt.pal.ink)


def _woods_crowns(pt: Painter, p: TerrainPiece, poly: Any) -> None:
    """Tree crowns on a 1.2" grid inside a woods footprint (vectorised containment)."""
    minx, miny, maxx, maxy = poly.bounds
    gx, gy = np.meshgrid(np.arange(minx + 0.6, maxx, 1.2), np.arange(miny + 0.6, maxy, 1.2))
    xs, ys = gx.ravel(), gy.ravel()
    xs = xs + np.where((np.round((ys - miny) / 1.2) % 2) == 1, 0.6, 0.0)
    inside = shapely.contains_xy(poly, xs, ys)
    colour = darker(pt.pal.moss, 0.25)
    for x, y in zip(xs[inside], ys[inside], strict=False):
        pt.pg.draw.circle(pt.surface, colour, pt.to_px((x, y)), pt.ppi * 0.42)
        pt.pg.draw.circle(pt.surface, shade(pt.pal.moss, 2.0), pt.to_px((x - 0.1, y - 0.1)), pt.ppi * 0.22)


def _hatch(pt: Painter, pts: list[tuple[float, float]], colour: Colour) -> None:
    """Diagonal hatching for difficult ground, clipped to the piece (GEO-8)."""
    pg = pt.pg
    xs, ys = [q[0] for q in pts], [q[1] for q in pts]
    rect = pg.Rect(int(min(xs)), int(min(ys)), int(max(xs) - min(xs)) + 2, int(max(ys) - min(ys)) + 2)
    mask = pg.Surface(rect.size, pg.SRCALPHA)
    local = [(x - rect.x, y - rect.y) for x, y in pts]
    step = max(4, int(pt.ppi * 0.3))
    for k in range(-rect.h, rect.w, step):
        pg.draw.line(mask, (*colour, 170), (k, rect.h), (k + rect.h, 0), 1)
    clip = pg.Surface(rect.size, pg.SRCALPHA)
    pg.draw.polygon(clip, (255, 255, 255, 255), local)
    mask.blit(clip, (0, 0), special_flags=pg.BLEND_RGBA_MIN)
    pt.surface.blit(mask, rect.topleft)


def _draw_piece(pt: Painter, p: TerrainPiece, poly: Any) -> None:
    pg, pal = pt.pg, pt.pal
    pts = pt.poly_px(p.footprint)
    height = p.top_z - p.bottom_z
    shadow = min(0.35, 0.06 * p.top_z) * pt.ppi
    if height > 0 and shadow >= 1 and p.area is not Area.WOODS:
        pt.translucent_polygon(pt.poly_px(p.footprint, shadow, shadow), (0, 0, 0, 70))
    fill = shade(piece_fill(p, pal), p.top_z)
    if p.area is Area.WOODS:
        pt.translucent_polygon(pts, (*fill, 140))
        _woods_crowns(pt, p, poly)
    elif p.kind in ("roof", "floor"):
        pt.translucent_polygon(pts, (*fill, 120 if p.kind == "roof" else 95))
    elif p.kind == "lintel":  # a lintel spans a door or window gap: outline only, so the gap stays visible
        pg.draw.polygon(pt.surface, darker(fill, 0.25), pts, 1)
        return
    elif p.kind == "sill":
        pg.draw.polygon(pt.surface, shade(fill, 6.0), pts)
    else:
        pg.draw.polygon(pt.surface, fill, pts)
    if p.movement is Movement.DIFFICULT:
        _hatch(pt, pts, darker(fill, 0.5))
    edge = 2 if p.movement is Movement.IMPASSABLE else 1
    pg.draw.polygon(pt.surface, darker(fill), pts, edge)


def _draw_pieces(pt: Painter, polys: Sequence[Any]) -> None:
    """A ground plan: lowest tops first; upper-storey walls as outlines; ground-storey walls, sills and
    lintels last, so door gaps and windows show through roofs and upper floors."""
    for i, layer in plan_order(pt.bf):
        p = pt.bf.pieces[i]
        if layer is PlanLayer.UPPER_WALL:
            pt.pg.draw.polygon(pt.surface, darker(piece_fill(p, pt.pal), 0.2), pt.poly_px(p.footprint), 1)
        else:
            _draw_piece(pt, p, polys[i])


def _draw_height_labels(pt: Painter, polys: Sequence[Any], markers: Sequence[Rect] = ()) -> None:
    """One label per building (name and top height) and a height label on every larger loose piece. A building
    label that would sit on a location's marker (`markers`, pixels) goes just under it."""
    buildings: dict[str, list[int]] = {}
    for i, p in enumerate(pt.bf.pieces):
        if p.building:
            buildings.setdefault(p.building, []).append(i)
        elif polys[i].area >= 2.0 and p.top_z > 0:
            c = polys[i].representative_point()
            pt.text(f'{p.top_z:g}"', pt.to_px((c.x, c.y)), optional=True)
    for name, idx in buildings.items():
        union = shapely.union_all([polys[i] for i in idx])
        top = max(pt.bf.pieces[i].top_z for i in idx)
        minx, miny, maxx, maxy = union.bounds
        text = f'{name} {top:g}"'
        pt.text(text, _off_markers(pt, text, pt.to_px(((minx + maxx) / 2, (miny + maxy) / 2)), markers),
                font=pt.label)


def _off_markers(pt: Painter, text: str, at: tuple[float, float], markers: Sequence[Rect]) -> tuple[float, float]:
    """Where a building label goes: `at`, or when that covers a location's marker, the first free line under it."""
    w, h = pt.label.size(text)

    def box(y: float) -> Rect:
        return (at[0] - w / 2 - 2, y - h / 2, w + 4, h)

    hit = next((m for m in markers if overlaps(box(at[1]), m)), None)
    if hit is None:
        return at
    below = [hit[1] + hit[3] + h / 2 + 1 + k * (h + 1) for k in range(4)]
    return (at[0], next((y for y in below if pt.taken.clear_of(box(y), soft_too=True)), below[0]))


def _draw_connectors(pt: Painter) -> None:
    pg, pal = pt.pg, pt.pal
    for c in pt.bf.connectors:
        a, b = np.array(c.start[:2]), np.array(c.end[:2])
        d = b - a
        length = float(np.hypot(*d)) or 1.0
        n = np.array([-d[1], d[0]]) / length * c.width / 2
        rails = [(a + n, b + n), (a - n, b - n)] if c.kind is ConnectorKind.LADDER else []
        for r0, r1 in rails:
            pg.draw.line(pt.surface, pal.stairs, pt.to_px(tuple(r0)), pt.to_px(tuple(r1)), 2)
        steps = max(2, int(length / 0.3))
        for k in range(steps + 1):
            q = a + d * k / steps
            pg.draw.line(pt.surface, darker(pal.stairs, 0.2), pt.to_px(tuple(q + n)), pt.to_px(tuple(q - n)), 2)
        pg.draw.line(pt.surface, pal.stairs, pt.to_px(tuple(a)), pt.to_px(tuple(b)), 1)
        pg.draw.circle(pt.surface, pal.stairs, pt.to_px(tuple(b)), max(2, pt.ppi * 0.12))
        below = a - d / length * 0.45  # the heights go just past the low end, clear of building labels
        pt.text(f"{c.start[2]:g}>{c.end[2]:g}", pt.to_px(tuple(below)), optional=True)


def _anchor_colour(a: Anchor, pal: Palette) -> Colour:
    tag = f"{a.kind} {a.name}".lower()
    if "hotspot" in tag or "hot-spot" in tag:
        return pal.hazard
    if "anomaly" in tag:
        return pal.anomaly
    return pal.marker


def _keep_clear(pt: Painter, locations: Sequence[tuple[str, Point2]]) -> list[Rect]:
    """The pixel squares of the locations overlay's markers, kept clear of the map's labels."""
    from game.render.overlays_locations import marker_radius_px

    r = marker_radius_px(pt.ppi) + 1
    out = []
    for _, p in locations:
        x, y = pt.to_px(p)
        out.append((x - r, y - r, 2 * r, 2 * r))
        pt.taken.add(out[-1], soft=True)
    return out


def _draw_anchors(pt: Painter, locations: Sequence[tuple[str, Point2]] | None = None) -> None:
    """Every anchor with its name; a hot spot anchor with its 3" ring. With `locations` (the id and point of each
    location the locations overlay draws, `--locations`), the anchors of those names are left out and no anchor
    gets a ring: the overlay's rings are the Reaction Radii of the locations in play."""
    pg = pt.pg
    drawn = {name for name, _ in locations or ()}
    for a in pt.bf.anchors:
        if a.name in drawn:
            continue
        colour = _anchor_colour(a, pt.pal)
        centre = pt.to_px(a.point)
        if a.footprint:
            pt.dashed(pt.poly_px(a.footprint), colour, dash=4.0)
        else:
            r = pt.ppi * 0.28
            diamond = [(centre[0], centre[1] - r), (centre[0] + r, centre[1]), (centre[0], centre[1] + r),
                       (centre[0] - r, centre[1])]
            pg.draw.polygon(pt.surface, colour, diamond)
            pg.draw.polygon(pt.surface, pt.pal.dark_ink, diamond, 1)
            pt.taken.add((centre[0] - r, centre[1] - r, 2 * r, 2 * r), soft=True)
        if colour == pt.pal.hazard and locations is None:
            pg.draw.circle(pt.surface, colour, centre, REACTION_RADIUS_IN * pt.ppi, 2)
        pt.text(a.name, (centre[0], centre[1] + pt.ppi * 0.35), colour=colour, anchor="midtop",
                optional=bool(a.footprint))  # an area anchor's name may give way; a point's may not


def frame_margin(px_per_inch: float) -> float:
    """The frame around the table in a picture, in pixels: the table's (0, 0) corner is drawn at (margin,
    2 x margin) (the ruler on the left, the title and the ruler above)."""
    return max(24.0, px_per_inch * 1.5)


def render_battlefield(bf: Battlefield, *, px_per_inch: float = 20.0, overlays: Iterable[Overlay] = (),
                       palette: Palette = PALETTE, art: str | Path | None = None,
                       legend: Sequence[Entry] | None = None, taken: Taken | None = None,
                       locations: Sequence[tuple[str, Point2]] | None = None,
                       anchors: bool = True) -> pygame.Surface:
    """Draw the table from its object geometry, then each overlay as `overlay(surface, to_px)`.

    `art`: a sprites/ directory; the mat and the pieces are then textured by class (game/render/art.py).
    `legend`: entries of a key drawn in a strip under the table (game/render/legend.py; the map's own entries
    come first). `taken`: where the map's labels go, so overlay labels placed later can avoid them.
    `locations`: (id, point) of each location a locations overlay draws itself (game/render/overlays_locations.py);
    the map then draws neither the anchors of those names nor any hot spot ring, and keeps its labels off them.
    `anchors=False`: no anchor at all (the client draws the locations in play live, from the game state).

    Pieces are filled by cover class and movement, shaded and shadowed by height, labelled by height;
    zones, connectors and anchors are named. `to_px((x, y))` maps inches (GEO-1) to pixels.
    """
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    margin = frame_margin(px_per_inch)
    in_play = None if locations is None else {name for name, _ in locations}
    entries = [*map_entries(bf, palette, locations=in_play), *legend] if legend is not None else []
    key_h = layout(entries, max(bf.width * px_per_inch, 120.0))[1] if entries else 0.0
    pt = Painter(bf, px_per_inch, margin, palette, bottom=key_h, taken=taken)
    polys = [shapely.Polygon(p.footprint) for p in bf.pieces]
    _draw_table(pt)
    tile_art = None
    if art is not None:
        from game.render.art import Art, draw_ground

        tile_art = Art(Path(art), px_per_inch)
        draw_ground(pt, tile_art)
    _draw_zones(pt)
    if tile_art is None:
        _draw_pieces(pt, polys)
    else:
        from game.render.art import draw_pieces

        draw_pieces(pt, polys, tile_art)
    _draw_connectors(pt)
    markers = _keep_clear(pt, locations) if locations else []
    if anchors:
        _draw_anchors(pt, locations)  # before the height labels, which then move off the markers and their names
    _draw_height_labels(pt, polys, markers)
    for overlay in overlays:
        overlay(pt.surface, pt.to_px)
    if entries:
        draw_legend(pt, entries, pt.to_px((0.0, bf.height))[1] + margin * 0.8)
    return pt.surface


def headless() -> None:
    """Select SDL's dummy video and audio drivers before pygame starts (TECH-NOTES: headless pygame)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a Tiled .tmx map")
    parser.add_argument("--out", required=True, metavar="PNG", help="where to write the picture (a .png file; "
                        "missing folders are made)")
    parser.add_argument("--px-per-inch", type=float, default=20.0,
                        help=f"scale of the picture, {MIN_PPI:g} to {MAX_PPI:g} (default 20)")
    parser.add_argument("--art", nargs="?", const=str(SPRITES), default=str(SPRITES), metavar="SPRITES",
                        help="sprites folder for the tile art the table is textured with and the model tokens "
                             "(default: sprites/)")
    parser.add_argument("--plain", action="store_true",
                        help="draw the object geometry only, with a key under the table: fills by cover class and "
                             "movement, no tile art (models keep their tokens)")
    parser.epilog = ("exit status: 0 the picture was written; 2 a bad argument (one line names it, nothing is "
                     "written). A model standing where no base may (inside a solid piece, GEO-7) is drawn with a "
                     "warning line.")
    from game.render.overlays import add_overlay_arguments  # --model/--los/--template/--smoke (docs/geometry.md)

    add_overlay_arguments(parser)
    from game.render.overlays_move import add_move_arguments  # --path/--reach (docs/movement.md)

    add_move_arguments(parser)
    from game.render.overlays_locations import add_location_arguments  # --locations/--tl/--leash (GAP-118)

    add_location_arguments(parser)


def check_scale(ppi: float) -> str | None:
    """Why `--px-per-inch` cannot be used, or None."""
    if not (math.isfinite(ppi) and MIN_PPI <= ppi <= MAX_PPI):
        return (f"--px-per-inch {ppi:g}: the scale must be a number of pixels per inch from {MIN_PPI:g} to "
                f"{MAX_PPI:g} (default 20)")
    return None


def check_art(art: str, *, plain: bool) -> str | None:
    """Why `--art` cannot be used, or None (with --plain only the model tokens are read from it)."""
    path = Path(art)
    if not path.exists():
        return f"--art {art}: no such folder; give the sprites/ folder (the default) or leave --art out"
    if not path.is_dir():
        return f"--art {art}: is a file, not a sprites folder; give the folder that holds terrain/ and tokens/"
    if not plain and not (path / "terrain" / "grass.png").is_file():
        return (f"--art {art}: holds no terrain/grass.png, so it is not a sprites folder; give sprites/, run "
                "`python -m game.tools.make_sprites`, or draw with --plain")
    return None


def claim_out(out: str) -> tuple[Path, str] | str:
    """(the picture's path, a temporary file beside it that proves the folder is writable) or why `--out`
    cannot be written. Missing folders are made; the picture replaces the temporary file when it is done."""
    path = Path(out)
    if out.endswith(("/", os.sep)) or path.is_dir():
        return f"--out {out}: is a directory; give a file name such as {path / 'map.png'}"
    if path.suffix.lower() != ".png":
        return f"--out {out}: the picture is written as PNG; give a file name ending in .png"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".png", dir=path.parent)
        os.close(fd)
    except OSError as exc:
        return f"--out {out}: cannot be written ({exc.strerror or exc}); give a path in a folder you can write to"
    return path, tmp


def _fail(message: str) -> int:
    print(f"zona-alfa render-map: {message}", file=sys.stderr)
    return 2


def _too_big(bf: Battlefield, ppi: float) -> str | None:
    margin = max(24.0, ppi * 1.5)
    w, h = bf.width * ppi + 2 * margin, bf.height * ppi + 3 * margin
    if max(w, h) > MAX_SIDE_PX:
        fit = (MAX_SIDE_PX - 3 * 24.0) / max(bf.width, bf.height)
        return (f"--px-per-inch {ppi:g}: a {bf.width:g}x{bf.height:g} in table would be {w:.0f}x{h:.0f} px, more "
                f"than {MAX_SIDE_PX} a side; use --px-per-inch {math.floor(fit):d} or less")
    return None


def run(args: argparse.Namespace) -> int:
    """Check every argument, then draw and write the picture; one line and exit 2 for the first bad one."""
    from game.render.overlays_locations import check_location_args

    error = check_scale(args.px_per_inch) or check_art(args.art, plain=args.plain) or check_location_args(args)
    if error:
        return _fail(error)
    claimed = claim_out(args.out)
    if isinstance(claimed, str):
        return _fail(claimed)
    out, tmp = claimed
    try:
        return _draw(args, out, tmp)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _draw(args: argparse.Namespace, out: Path, tmp: str) -> int:
    from game.maps.loader import MapError, load_map

    headless()
    import pygame

    try:
        bf = load_map(args.file)
    except MapError as err:
        return _fail(f"FILE {err.summary()}")
    error = _too_big(bf, args.px_per_inch)
    if error:
        return _fail(error)
    pygame.font.init()
    from game.render.models import Tokens
    from game.render.overlays import PlacementError, overlays_from_args, sheet_from_args, smoke_overlay
    from game.render.overlays_locations import location_marks_from_args, locations_overlay
    from game.render.overlays_move import move_overlays_from_args, resolve_movers

    try:
        sheet = sheet_from_args(bf, args, tokens=Tokens(Path(args.art)))
        resolve_movers(args, sheet.table)
        sight = overlays_from_args(bf, args, sheet)
        moves = move_overlays_from_args(bf, args, sheet)
        marks = location_marks_from_args(bf, args)
    except PlacementError as err:
        return _fail(str(err))
    for name, why in sheet.table.position_warnings():
        print(f"zona-alfa render-map: warning: --model {name}: {why}; drawn there anyway", file=sys.stderr)
        sheet.marks.note(name, "cannot stand here (GEO-7)")
    smoke = [smoke_overlay(c, sheet) for c in sheet.table.smoke]
    places = [locations_overlay(bf, marks, sheet.notes)] if marks else []
    # locations under move range under LOS lines under templates (STYLE.md), the models and all labels on top
    overlays = places + smoke + moves + sight + [sheet.finish()]
    key = overlay_key(args, marks) if args.plain else None
    surface = render_battlefield(bf, px_per_inch=args.px_per_inch, overlays=overlays,
                                 art=None if args.plain else args.art, legend=key, taken=sheet.notes.taken,
                                 locations=[(m.id, m.point) for m in marks] if marks else None)
    try:
        pygame.image.save(surface, tmp)
        os.replace(tmp, out)
    except (pygame.error, OSError) as exc:
        return _fail(f"--out {out}: cannot be written ({exc}); give a path in a folder you can write to")
    print(f"{out}: {surface.get_width()}x{surface.get_height()} px, {len(bf.pieces)} pieces")
    return 0


def overlay_key(args: argparse.Namespace, marks: Sequence[LocationMark] = ()) -> list[Entry]:
    """The key entries of the overlays asked for on the command line (after the map's own entries); `marks`: the
    locations drawn (`--locations`)."""
    from game.render.legend import Swatch
    from game.render.overlays import BLOCKED_RAY, COVER, OBSTRUCTION, OPEN_RAY, SHIELDED, SMOKE, TEMPLATE
    from game.render.overlays_move import MOVE, MOVE_UP, NO_PATH

    out: list[Entry] = []
    if args.los:
        out += [Entry("open sight ray / model that sees", OPEN_RAY, Swatch.LINE),
                Entry("blocked ray / blocking piece", BLOCKED_RAY, Swatch.LINE),
                Entry("defender's cover piece (GEO-12)", COVER, Swatch.THICK),
                Entry("obstruction, -1 CA (GEO-13)", OBSTRUCTION, Swatch.THICK)]
    if args.template:
        out += [Entry("template (GEO-15)", TEMPLATE), Entry("hit", BLOCKED_RAY, Swatch.RING),
                Entry("hit, soft cover: +2 save", COVER, Swatch.RING),
                Entry("shielded (GEO-16)", SHIELDED, Swatch.RING)]
    if args.smoke:
        out.append(Entry("smoke cloud: blocks LOS (GAP-72)", SMOKE))
    if args.reach or args.path:
        out += [Entry("move range / path (GEO-8, GEO-27)", MOVE), Entry("move range on a raised floor", MOVE_UP),
                Entry("no path", NO_PATH, Swatch.LINE)]
    if marks:
        from game.render.overlays_locations import location_key

        out += location_key(marks)
    return out
