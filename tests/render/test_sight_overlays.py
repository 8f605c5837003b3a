"""render-map LOS and template overlays (GEO-10..16): parsing placements and drawing the verdicts headless."""
from __future__ import annotations

import argparse
import os

import pytest

from game.core.battlefield import Anchor, Battlefield, Cover, TerrainPiece
from game.core.settings import Settings
from game.render.overlays import (
    BLOCKED_RAY,
    OPEN_RAY,
    TEMPLATE,
    add_overlay_arguments,
    overlays_from_args,
    sheet_from_args,
)
from game.render.placements import PlacementError, Table, split_pair

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def board():
    wall = TerrainPiece(1, "wall", ((10, 0), (10.5, 0), (10.5, 8), (10, 8)), 0.0, 2.0, blocks_los=True,
                        cover=Cover.HARD)
    return Battlefield("inline", 24.0, 16.0, pieces=(wall,), anchors=(Anchor(1, "hotspot-a", (18.0, 12.0)),))


def args(*argv):
    p = argparse.ArgumentParser()
    add_overlay_arguments(p)
    return p.parse_args(list(argv))


def colours(surface):
    return {tuple(surface.get_at((x, y)))[:3] for x in range(0, surface.get_width(), 2)
            for y in range(0, surface.get_height(), 2)}


def test_placements_points_anchors_models_and_pairs():
    """GEO-1/GEO-3: points, anchors and declared models; base sizes from geo.bases or the catalog."""
    t = Table(board(), Settings.defaults())
    t.declare("raven=2,3/mutant")
    assert t.models["raven"].radius == 0.8 and t.models["raven"].height == 1.75
    t.declare("bandit=6,3")  # a catalog id names its own kind: a hostile, on the other side
    assert t.kinds["bandit"].token == "bandit" and t.models["bandit"].side == "hostile"
    assert t.point("hotspot-a", "--los") == (18.0, 12.0, 0.0)
    assert t.point("4,5,3.25", "--los") == (4.0, 5.0, 3.25)
    assert split_pair("raven,hotspot-a") == ("raven", "hotspot-a")
    assert split_pair("1,2:3,4,5") == ("1,2", "3,4,5")
    assert split_pair("1,2,3,4") == ("1.0,2.0", "3.0,4.0")
    with pytest.raises(PlacementError, match="write A,B"):
        split_pair("3,4")
    with pytest.raises(PlacementError, match="not a point"):
        t.point("nowhere", "--los")
    with pytest.raises(PlacementError, match="unknown model kind"):
        t.declare("x=1,1/dragon")


def test_los_and_template_overlays_draw_their_verdicts():
    """GEO-10/GEO-15: open and blocked rays and the template area appear in their colours."""
    import pygame

    from game.render.picture import render_battlefield

    pygame.font.init()
    bf = board()
    a = args("--model", "a=4,4", "--model", "b=16,4", "--los", "a,b", "--los", "4,12:16,12",
             "--template", "lbt@hotspot-a", "--model", "c=18,13.5")
    sheet = sheet_from_args(bf, a)
    ovs = overlays_from_args(bf, a, sheet)
    assert len(ovs) == 3
    seen = colours(render_battlefield(bf, px_per_inch=12, overlays=[*ovs, sheet.finish()]))
    assert OPEN_RAY in seen and BLOCKED_RAY in seen and TEMPLATE in seen


def test_flame_template_options():
    """GEO-15: a flame from a model aimed at a point or along an angle; without an aim it is refused."""
    bf = board()
    a = args("--model", "p=2,12", "--template", "flame@p>10,12", "--template", "flame@p^90")
    assert len(overlays_from_args(bf, a, sheet_from_args(bf, a))) == 2
    a = args("--model", "p=2,12", "--template", "flame@p")
    with pytest.raises(PlacementError, match="flame needs"):
        overlays_from_args(bf, a, sheet_from_args(bf, a))
