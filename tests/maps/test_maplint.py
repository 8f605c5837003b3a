"""`zona-alfa check-map`: every problem with its object id, clean shipped maps, stats (GEO-7, GEO-10, GEO-24)."""
from __future__ import annotations

import argparse
import json

import pytest

from game.maps import lint as maplint
from game.maps.loader import load_map
from game.tools.make_bench_map import bench_town
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
FIX = ROOT / "tests" / "fixtures" / "maps"
BROKEN = FIX / "broken"
EXPECTED = json.loads((BROKEN / "EXPECTED.json").read_text())
SHIPPED = sorted((ROOT / "maps").glob("*.tmx"))


def _run(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    maplint.add_arguments(parser)
    return maplint.run(parser.parse_args(list(argv)))


def test_corpus_covers_every_required_problem():
    codes = {e["code"] for e in EXPECTED.values()}
    assert codes >= {
        "unknown-class", "bad-enum", "missing-height", "inverted-height", "open-polygon", "self-intersecting",
        "zero-area", "impassable-overlap", "surface-gap", "woods-height", "door-gap", "off-table",
        "duplicate-name", "stairs-nothing", "reserved-name", "not-finite",
    }
    assert sorted(EXPECTED) == sorted(p.name for p in BROKEN.glob("*.tmx"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_map_is_reported_with_its_object_id(name):
    report = maplint.lint_map(BROKEN / name)
    want = EXPECTED[name]
    found = {(p.code, p.object_id) for p in report.problems}
    assert (want["code"], want["id"]) in found, [str(p) for p in report.problems]
    # the spoilt object is the only one reported: the rest of the base map is clean
    assert {p.object_id for p in report.problems} == {want["id"]}
    assert all(p.object_name in str(p) and f"#{want['id']}" in str(p) for p in report.problems)


def test_check_map_exit_status(capsys):
    assert _run(str(FIX / "every-field.tmx")) == 0
    assert _run(str(FIX / "every-field.tmx"), str(BROKEN / "door-gap.tmx")) == 1
    out = capsys.readouterr().out
    assert "[door-gap]" in out and "every-field.tmx: ok" in out


@pytest.mark.parametrize("path", [FIX / "every-field.tmx", *SHIPPED], ids=lambda p: p.name)
def test_every_shipped_map_and_the_test_map_pass_check_map(path):
    report = maplint.lint_map(path)
    assert report.clean, "\n".join(str(p) for p in report.problems)
    load_map(path)


def test_stats_count_edges_of_all_terrain_footprints(capsys):
    bf = load_map(FIX / "every-field.tmx")
    assert _run("--stats", str(FIX / "every-field.tmx")) == 0
    out = capsys.readouterr().out
    edges = sum(len(p.footprint) for p in bf.pieces)
    assert (f"pieces {len(bf.pieces)}, edges {edges}, surfaces {len(bf.surfaces)}, anchors {len(bf.anchors)}"
            in out)


def test_bench_map_is_big_and_deterministic():
    """maps/bench-town.tmx: 48"x48", 40+ buildings with doors, windows, upper floors, woods, hedges, 1,500+ edges."""
    path = ROOT / "maps" / "bench-town.tmx"
    assert bench_town().to_xml() == path.read_text(encoding="utf-8")
    bf = load_map(path)
    stats = maplint.lint_map(path).stats
    assert stats is not None and stats.edges >= 1500
    assert (bf.width, bf.height) == (48.0, 48.0)
    buildings = {p.building for p in bf.pieces if p.building}
    assert len(buildings) >= 40
    kinds = {p.kind for p in bf.pieces}
    assert {"wall", "sill", "lintel", "floor", "roof", "woods", "hedge"} <= kinds
    assert {c.kind.value for c in bf.connectors} == {"stairs", "ladder"}


def test_window_gap_is_not_a_door_gap(tmp_path):
    """A gap under 1.5" with a sill of the same building in it is a window; without the sill it is a door."""
    from game.tools.tmxwriter import Building, Opening, TmxMap, add_building

    m = TmxMap(12, 12)
    add_building(m, Building("h", 1, 1, 6, 5, openings=(Opening("n", 2.0, 1.0, window=True),)))
    clean = m.write(tmp_path / "window.tmx")
    assert maplint.lint_map(clean).clean
    text = clean.read_text()
    start = text.index('name="h-n0-window1-sill"')
    obj_start = text.rindex("<object", 0, start)
    obj_end = text.index("</object>", start) + len("</object>")
    door = tmp_path / "door.tmx"
    door.write_text(text[:obj_start] + text[obj_end:])
    assert "door-gap" in {p.code for p in maplint.lint_map(door).problems}
