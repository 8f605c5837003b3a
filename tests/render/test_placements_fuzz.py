"""Any text given to a placement option is either read or refused with PlacementError, never another exception
(issue 13; GEO-1 points, GEO-3 kinds, GEO-26 the table edge): property tests on the parsers, no drawing."""
from __future__ import annotations

import argparse

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.battlefield import Anchor, Battlefield, Cover, TerrainPiece
from game.core.settings import Settings
from game.render.overlays import overlays_from_args, parse_template, sheet_from_args
from game.render.overlays_move import resolve_movers
from game.render.placements import PlacementError, Table, split_pair

WALL = TerrainPiece(1, "wall", ((10, 0), (10.5, 0), (10.5, 8), (10, 8)), 0.0, 2.0, blocks_los=True, cover=Cover.HARD)
BOARD = Battlefield("inline", 24.0, 16.0, pieces=(WALL,), anchors=(Anchor(1, "hotspot-a", (18.0, 12.0)),))
PIECES = st.sampled_from(["raven", "bandit", "hotspot-a", "3", "4.5", "-1", "nan", "inf", "1e400", "", ",", ":",
                          "@", ">", "^", "/", "=", "human", "mutant", "lbt", "sbt", "flame", "12", "0", "24", "16"])
TEXT = st.one_of(st.text(max_size=30), st.lists(PIECES, max_size=8).map("".join))


def _only_placement_errors(fn, *a) -> None:  # type: ignore[no-untyped-def]
    try:
        fn(*a)
    except PlacementError as err:
        assert str(err) and "\n" not in str(err)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=TEXT)
def test_any_model_point_pair_or_template_text(text: str) -> None:
    table = Table(BOARD, Settings.defaults())
    table.declare("raven=4,4")
    _only_placement_errors(table.declare, text)
    _only_placement_errors(table.point, text, "--los")
    _only_placement_errors(table.model, text, "--los")
    _only_placement_errors(split_pair, text)
    _only_placement_errors(parse_template, table, text)
    _only_placement_errors(table.add_smoke, text)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(los=st.lists(TEXT, max_size=2), path=st.lists(TEXT, max_size=2), reach=st.lists(TEXT, max_size=2))
def test_any_los_path_and_reach_texts(los: list[str], path: list[str], reach: list[str]) -> None:
    args = argparse.Namespace(model=["raven=4,4", "bandit=20,12"], smoke=[], los=los, template=[], path=path,
                              reach=reach)
    sheet = sheet_from_args(BOARD, args)

    def resolve() -> None:
        resolve_movers(args, sheet.table)
        overlays_from_args(BOARD, args, sheet)

    _only_placement_errors(resolve)
