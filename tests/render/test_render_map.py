"""`zona-alfa render-map`: headless pictures from object geometry, with overlays (STYLE.md look and feel)."""
from __future__ import annotations

import argparse
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.maps.loader import load_map  # noqa: E402
from game.render import picture as render_map  # noqa: E402
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
EVERY = ROOT / "tests" / "fixtures" / "maps" / "every-field.tmx"


@pytest.fixture(scope="module")
def bf():
    pygame.font.init()
    return load_map(EVERY)


def _colour(surface, px):
    return tuple(surface.get_at((round(px[0]), round(px[1]))))[:3]


def test_picture_size_and_palette(bf):
    calls = []

    def overlay(surface, to_px):
        calls.append(to_px((0.0, 0.0)))
        pygame.draw.circle(surface, (255, 0, 255), to_px((12.0, 20.0)), 5)

    s = render_map.render_battlefield(bf, px_per_inch=20, overlays=(overlay,))
    margin = 30.0
    assert s.get_size() == (round(24 * 20 + 2 * margin), round(24 * 20 + margin + 2 * margin))
    assert calls == [(margin, 2 * margin)]
    to_px = lambda p: (margin + p[0] * 20, 2 * margin + p[1] * 20)  # noqa: E731
    assert _colour(s, to_px((12.0, 20.0))) == (255, 0, 255)  # the overlay is drawn last
    pal = render_map.PALETTE
    assert _colour(s, to_px((17.0, 7.5))) == pal.hazard  # the hot spot marker in hazard yellow
    assert _colour(s, to_px((0.5, 6.5))) == pal.mat  # open table in muted olive
    r, g, b = _colour(s, to_px((20.0, 16.0)))  # the hard container: a concrete grey
    assert abs(r - g) < 10 and abs(g - b) < 12 and r > 120


def test_pictures_are_deterministic(bf):
    a = render_map.render_battlefield(bf, px_per_inch=16)
    b = render_map.render_battlefield(bf, px_per_inch=16)
    assert pygame.image.tobytes(a, "RGBA") == pygame.image.tobytes(b, "RGBA")


def test_render_map_command_writes_a_png(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    render_map.add_arguments(parser)
    out = tmp_path / "pic.png"
    assert render_map.run(parser.parse_args([str(EVERY), "--out", str(out), "--px-per-inch", "12"])) == 0
    img = pygame.image.load(str(out))
    assert img.get_width() == round(24 * 12 + 2 * 24)
    assert "pieces" in capsys.readouterr().out


def test_render_map_reports_a_broken_map(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    render_map.add_arguments(parser)
    bad = ROOT / "tests" / "fixtures" / "maps" / "broken" / "bad-enum.tmx"
    assert render_map.run(parser.parse_args([str(bad), "--out", str(tmp_path / "x.png")])) == 2
    err = capsys.readouterr().err
    assert "[bad-enum]" in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())  # nothing written, no temporary file left behind


def test_shipped_font_and_licence():
    fonts = ROOT / "game" / "assets" / "fonts"
    assert (fonts / render_map.FONT_FILE).stat().st_size > 100_000
    assert "Bitstream" in (fonts / "LICENSE-DejaVu.txt").read_text()
