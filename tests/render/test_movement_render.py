"""`render-map --path/--reach` (game/render/overlays_move.py): the move range and paths drawn from core queries."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.cli import main  # noqa: E402
from game.render.overlays_move import MOVE  # noqa: E402
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
TOWN = ROOT / "maps" / "bench-town.tmx"


def _count(img: pygame.Surface, rgb: tuple[int, int, int], tol: int = 40) -> int:
    w, h = img.get_size()
    return sum(1 for x in range(0, w, 3) for y in range(0, h, 3)
               if all(abs(a - b) <= tol for a, b in zip(img.get_at((x, y))[:3], rgb, strict=False)))


def test_path_and_reach_overlays_are_drawn(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """GEO-27: the path's cost and the move range appear in the movement colour; the command succeeds."""
    plain, drawn = tmp_path / "plain.png", tmp_path / "drawn.png"
    assert main(["render-map", str(TOWN), "--out", str(plain), "--px-per-inch", "8"]) == 0
    assert main(["render-map", str(TOWN), "--out", str(drawn), "--px-per-inch", "8", "--model", "raven=12.4,17",
                 "--reach", "raven", "--path", "raven:12,33"]) == 0
    before, after = pygame.image.load(str(plain)), pygame.image.load(str(drawn))
    assert _count(after, MOVE) > _count(before, MOVE) + 50


def test_illegal_model_placement_is_reported(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """GEO-7: a mover standing in a wall is refused with the piece named and how to fix it."""
    rc = main(["render-map", str(TOWN), "--out", str(tmp_path / "x.png"), "--model", "stalker=33.5,23",
               "--reach", "stalker"])
    err = capsys.readouterr().err
    assert rc == 2 and "stalker" in err and "impassable" in err and "GEO-7" in err
    rc = main(["render-map", str(TOWN), "--out", str(tmp_path / "y.png"), "--reach", "12,17@lots"])
    assert rc == 2 and "MODEL@INCHES" in capsys.readouterr().err
