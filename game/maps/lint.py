"""`zona-alfa check-map`: every problem of a Tiled map with its object id and name (GEO-7, GEO-10, GEO-24)."""
from __future__ import annotations

import argparse
import os
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from game.core.battlefield import WOODS_CANOPY_IN
from game.core.tolerance import EPS
from game.maps.loader import CONNECTOR_CLASSES, UNREADABLE, MapError, MapObject, MapProblem, ParsedMap, read_map
from game.maps.schema import CONNECTOR_END_TOL_IN, DOOR_GAP_MIN_IN, SURFACE_GAP_MIN_IN


@dataclass(frozen=True, slots=True)
class MapStats:
    """Counts shown by `check-map --stats`; edges = total polygon edge count of all terrain footprints."""

    pieces: int
    edges: int
    surfaces: int
    anchors: int
    connectors: int
    zones: int

    def line(self) -> str:
        return (f"pieces {self.pieces}, edges {self.edges}, surfaces {self.surfaces}, anchors {self.anchors}, "
                f"connectors {self.connectors}, zones {self.zones}")


@dataclass(frozen=True, slots=True)
class LintReport:
    """All problems of one map file (empty = clean) and its stats when it could be read."""

    file: str
    problems: tuple[MapProblem, ...]
    stats: MapStats | None

    @property
    def clean(self) -> bool:
        return not self.problems


Note = Callable[[MapObject, str, str, str], None]


def _terrain(parsed: ParsedMap) -> list[MapObject]:
    return [m for m in parsed.objects if m.ok and m.cls == "Terrain"]


def _vertical_overlap(a: MapObject, b: MapObject) -> float:
    overlap: float = min(a.props["top_in"], b.props["top_in"]) - max(a.props["bottom_in"], b.props["bottom_in"])
    return overlap


def _overlapping_pairs(parsed: ParsedMap, objs: list[MapObject]) -> Iterable[tuple[MapObject, MapObject, float]]:
    """Pairs (earlier, later) whose footprint interiors overlap, with the overlap area (vectorised)."""
    if len(objs) < 2:
        return []
    geoms = np.array([parsed.polygons[m.id] for m in objs], dtype=object)
    i, j = shapely.STRtree(geoms).query(geoms, predicate="intersects")
    keep = i < j
    i, j = i[keep], j[keep]
    areas = shapely.area(shapely.intersection(geoms[i], geoms[j]))
    return [(objs[a], objs[b], float(s)) for a, b, s in zip(i, j, areas, strict=False) if s > 1e-6]


def _impassable_overlaps(parsed: ParsedMap, note: Note) -> None:
    """Impassable prisms may touch but not intersect (GEO-7: a base could never stand in the overlap)."""
    objs = [m for m in _terrain(parsed) if m.props["movement"] == "impassable"]
    for a, b, area in _overlapping_pairs(parsed, objs):
        if _vertical_overlap(a, b) > EPS:
            note(b, "impassable-overlap",
                 f"impassable prism intersects #{a.id} {a.name!r} ({area:.2f} sq in overlap)",
                 "make the pieces meet edge to edge, or stack them (one's bottom_in = the other's top_in)")


def _surface_gaps(parsed: ParsedMap, note: Note) -> None:
    """Stacked floors need headroom: overlapping surfaces at least 2.5" apart in height (GEO-7)."""
    objs = [m for m in _terrain(parsed) if m.props["surface"] or m.props["platform"]]
    for a, b, _ in _overlapping_pairs(parsed, objs):
        gap = abs(a.props["top_in"] - b.props["top_in"])
        if gap < SURFACE_GAP_MIN_IN - EPS:
            note(b, "surface-gap", f"surface overlaps surface #{a.id} {a.name!r} only {gap:g} in apart in height",
                 f"keep overlapping floors at least {SURFACE_GAP_MIN_IN:g} in apart, or make them meet edge to edge")


def _woods(parsed: ParsedMap, note: Note) -> None:
    """Woods are ground-level area terrain with a 4" canopy (GEO-10.WOODS)."""
    for m in _terrain(parsed):
        if m.props["area"] == "woods" and (abs(m.props["top_in"] - WOODS_CANOPY_IN) > EPS
                                           or m.props["bottom_in"] > EPS):
            note(m, "woods-height", f"woods from {m.props['bottom_in']:g} to {m.props['top_in']:g} in",
                 f"woods run from bottom_in 0 to top_in {WOODS_CANOPY_IN:g} (the canopy, GEO-10.WOODS)")


def _walls_by_building(parsed: ParsedMap, note: Note) -> dict[str, list[MapObject]]:
    groups: dict[str, list[MapObject]] = defaultdict(list)
    for m in _terrain(parsed):
        if m.props["kind"] == "wall":
            if not m.props["building"]:
                note(m, "wall-no-building", "a wall has no building",
                     "set its building property so walls, floors and roofs group together")
            else:
                groups[m.props["building"]].append(m)
    return groups


def _door_gaps(parsed: ParsedMap, note: Note) -> None:
    """Two walls of one building that do not touch leave a door gap, which must be >= 1.5"; a gap with a
    sill piece of the same building in it is a window, not a door."""
    sills: dict[str, list[Any]] = defaultdict(list)
    for m in _terrain(parsed):
        if m.props["kind"] == "sill":
            sills[m.props["building"]].append(parsed.polygons[m.id])
    for building, walls in _walls_by_building(parsed, note).items():
        if len(walls) < 2:
            continue
        geoms = np.array([parsed.polygons[m.id] for m in walls], dtype=object)
        i, j = shapely.STRtree(geoms).query(geoms, predicate="dwithin", distance=DOOR_GAP_MIN_IN)
        keep = i < j
        for a, b in zip(i[keep], j[keep], strict=False):
            wa, wb = walls[a], walls[b]
            d = float(shapely.distance(geoms[a], geoms[b]))
            if not (EPS < d < DOOR_GAP_MIN_IN - EPS) or _vertical_overlap(wa, wb) <= EPS:
                continue
            mid = shapely.shortest_line(geoms[a], geoms[b]).interpolate(0.5, normalized=True)
            if any(s.distance(mid) <= 1e-6 for s in sills[building]):
                continue
            note(wb, "door-gap", f"door gap of {d:.2f} in to wall #{wa.id} {wa.name!r} of building {building!r}",
                 f"widen the gap to at least {DOOR_GAP_MIN_IN:g} in, close it, or put a sill in it (a window)")


def _off_table(parsed: ParsedMap, note: Note) -> None:
    """Anchors, zones and connectors lie on the table; terrain must at least touch it (GEO-26)."""
    w, h = parsed.width, parsed.height
    for m in parsed.objects:
        if not m.ok or not m.points:
            continue
        pts = np.asarray(m.points)
        inside = (pts[:, 0] >= -EPS) & (pts[:, 0] <= w + EPS) & (pts[:, 1] >= -EPS) & (pts[:, 1] <= h + EPS)
        if m.cls == "Terrain":
            if not inside.any() and not parsed.polygons[m.id].intersects(shapely.box(0, 0, w, h)):
                note(m, "off-table", f"the piece lies outside the {w:g}x{h:g} in table", "move it onto the table")
        elif not inside.all():
            note(m, "off-table", f"the {m.cls} reaches outside the {w:g}x{h:g} in table", "move it onto the table")


def _duplicate_names(parsed: ParsedMap, note: Note) -> None:
    """Scenarios find anchors and zones by name, so names are unique per kind."""
    for cls in ("Anchor", "DeploymentZone"):
        seen: dict[str, MapObject] = {}
        for m in parsed.objects:
            if m.ok and m.cls == cls:
                if m.name in seen:
                    first = seen[m.name]
                    note(m, "duplicate-name", f"{cls} name {m.name!r} is already used by #{first.id}",
                         "give every anchor and zone its own name")
                else:
                    seen[m.name] = m


def _connectors(parsed: ParsedMap, note: Note) -> None:
    """Each end of a stairs or ladder is on the ground (z 0) or on a surface whose top is that height (GEO-24)."""
    surfaces = [m for m in _terrain(parsed) if m.props["surface"] or m.props["platform"]]
    for m in parsed.objects:
        if not (m.ok and m.cls in CONNECTOR_CLASSES):
            continue
        ends = (("low end", m.points[0], m.props["from_in"]), ("high end", m.points[1], m.props["to_in"]))
        for label, (x, y), z in ends:
            if z <= EPS:
                continue
            pt = shapely.Point(x, y)
            if not any(abs(s.props["top_in"] - z) <= EPS and parsed.polygons[s.id].distance(pt) <= CONNECTOR_END_TOL_IN
                       for s in surfaces):
                note(m, "stairs-nothing", f"its {label} ({x:g}, {y:g}) at {z:g} in is on no surface of that height",
                     f"end it on (or within {CONNECTOR_END_TOL_IN:g} in of) a surface/platform whose top_in is {z:g}, "
                     "or on the ground at 0")


CHECKS = (_impassable_overlaps, _surface_gaps, _woods, _door_gaps, _off_table, _duplicate_names, _connectors)


def stats(parsed: ParsedMap) -> MapStats:
    """Counts of a parsed map (its valid objects)."""
    terrain = _terrain(parsed)
    return MapStats(
        pieces=len(terrain),
        edges=sum(len(m.points) for m in terrain),
        surfaces=sum(1 for m in terrain if m.props["surface"] or m.props["platform"]),
        anchors=sum(1 for m in parsed.objects if m.ok and m.cls == "Anchor"),
        connectors=sum(1 for m in parsed.objects if m.ok and m.cls in CONNECTOR_CLASSES),
        zones=sum(1 for m in parsed.objects if m.ok and m.cls == "DeploymentZone"),
    )


def lint_parsed(parsed: ParsedMap) -> list[MapProblem]:
    """Every problem: the loader's object checks plus the cross-object checks above."""
    problems = list(parsed.problems)

    def note(m: MapObject, code: str, what: str, fix: str) -> None:
        problems.append(MapProblem(parsed.file, m.id, m.name, code, what, fix))

    for check in CHECKS:
        check(parsed, note)
    return problems


def lint_map(path: str | os.PathLike[str]) -> LintReport:
    """Lint one map file; a file that cannot be read at all gives its MapError problems."""
    try:
        parsed = read_map(path)
    except MapError as err:
        return LintReport(str(path), err.problems, None)
    return LintReport(parsed.file, tuple(lint_parsed(parsed)), stats(parsed))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="Tiled .tmx map files; a directory lints the *.tmx files directly inside it "
                             "(not its subfolders) and is an error if it holds none")
    parser.add_argument("--stats", action="store_true", help="print pieces, edges, surfaces and anchors per map")
    parser.epilog = ("exit status: 0 every map is clean, 1 a map has problems, 2 an argument is not a readable "
                     "file (missing, unreadable, a folder without .tmx maps); every FILE is checked either way")


def _unreadable(report: LintReport) -> bool:
    """A report for a path that is not a readable file at all (a bad argument, exit 2, rather than a bad map)."""
    return any(p.code == UNREADABLE for p in report.problems)


def expand(arg: str) -> list[str] | str:
    """The map files one FILE argument names: itself, or a directory's *.tmx files (sorted); a string is the
    one-line reason a directory gives nothing to lint."""
    path = Path(arg)
    if not path.is_dir():
        return [arg]
    try:
        found = sorted(str(q) for q in path.glob("*.tmx") if not q.is_dir())
    except OSError as exc:
        return f"{arg}: the directory cannot be read ({exc.strerror or exc}); fix: check its permissions"
    if not found:
        return (f"{arg}: a directory holding no .tmx map; fix: name the map files (e.g. {path / '*.tmx'}) "
                "or a folder that holds them")
    return found


def run(args: argparse.Namespace) -> int:
    """Exit 0 when every map is clean, 1 when a map has problems, 2 when an argument names no readable map."""
    worst = 0
    for arg in args.files:
        files = expand(arg)
        if isinstance(files, str):
            print(f"zona-alfa check-map: {files}", file=sys.stderr)
            worst = 2
            continue
        for f in files:
            report = lint_map(f)
            for p in report.problems:
                print(p)
            if args.stats and report.stats is not None:
                print(f"{report.file}: {report.stats.line()}")
            print(f"{report.file}: {'ok' if report.clean else f'{len(report.problems)} problem(s)'}")
            worst = max(worst, 0 if report.clean else 2 if _unreadable(report) else 1)
    return worst
