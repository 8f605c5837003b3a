"""`render-map` pictures show what the README says (issue 13): the smoke cloud (GAP-72), a path into base contact
(GEO-6, GEO-27), token sprites, a key for --plain, the engine's modifiers in the reasons box (COMBAT-4.1.MODIFIERS,
TV-03), labels that do not collide and boxes kept inside the picture."""
from __future__ import annotations

import argparse
import math
import os
from itertools import combinations

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.cli import main  # noqa: E402
from game.core.battlefield import Battlefield, Cover, TerrainPiece  # noqa: E402
from game.core.geometry.movement.positions import position_fact  # noqa: E402
from game.core.geometry.sight.los import line_of_sight  # noqa: E402
from game.core.settings import Settings  # noqa: E402
from game.render.attack_mods import template_save_lines  # noqa: E402
from game.render.labels import Annotations, inside, overlaps  # noqa: E402
from game.render.legend import map_entries  # noqa: E402
from game.render.models import Tokens  # noqa: E402
from game.render.overlays import (  # noqa: E402
    SMOKE,
    add_overlay_arguments,
    los_lines,
    los_overlay,
    sheet_from_args,
    smoke_overlay,
)
from game.render.overlays_move import add_move_arguments, contact_path, move_overlays_from_args  # noqa: E402
from game.render.picture import PALETTE, render_battlefield  # noqa: E402
from game.tools.spritekit import HOSTILE  # noqa: E402
from tests.paths import MAPS  # noqa: E402

SANDBOX = MAPS / "sandbox.tmx"
PPI = 10


@pytest.fixture(autouse=True, scope="module")
def fonts():  # type: ignore[no-untyped-def]
    pygame.font.init()


def rect(pid, x0, y0, x1, y1, top, **kw):  # type: ignore[no-untyped-def]
    return TerrainPiece(pid, kw.pop("name", f"piece-{pid}"), ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), 0.0, top,
                        **kw)


def tv03_board() -> Battlefield:
    """TV-03: a low hedge on the line (obstruction) and a stone wall in contact with the defender (hard cover)."""
    hedge = rect(1, 6.0, 0.0, 6.5, 24.0, 0.75, cover=Cover.SOFT, name="hedge")
    stone = rect(2, 11.0, 9.0, 11.5, 15.0, 1.0, blocks_los=True, cover=Cover.HARD, name="stone wall")
    return Battlefield("inline", 24.0, 24.0, pieces=(hedge, stone))


def args(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_overlay_arguments(p)
    add_move_arguments(p)
    return p.parse_args(list(argv))


def picture(bf: Battlefield, *argv: str, smoke: bool = True) -> tuple[pygame.Surface, object]:
    a = args(*argv)
    sheet = sheet_from_args(bf, a)
    ovs = [smoke_overlay(c, sheet) for c in sheet.table.smoke] if smoke else []
    ovs += move_overlays_from_args(bf, a, sheet)
    return render_battlefield(bf, px_per_inch=PPI, overlays=[*ovs, sheet.finish()], taken=sheet.notes.taken), sheet


def test_gap72_the_smoke_cloud_is_drawn_and_blocks_sight() -> None:
    """--smoke P draws the cloud: pixels inside its LBT radius change; LOS across it is blocked (GEO-10)."""
    bf = Battlefield("open", 24.0, 24.0)
    plain, _ = picture(bf, "--model", "a=2,12", "--model", "b=22,12")
    smoky, sheet = picture(bf, "--model", "a=2,12", "--model", "b=22,12", "--smoke", "12,12")
    cloud = sheet.table.smoke[0]  # type: ignore[attr-defined]
    to_px = lambda p: (max(24.0, PPI * 1.5) + p[0] * PPI, 2 * max(24.0, PPI * 1.5) + p[1] * PPI)  # noqa: E731
    samples = [(cloud.x + r * math.cos(t), cloud.y + r * math.sin(t)) for r in (0.5, 1.0, 2.0, 2.5)
               for t in [k * math.pi / 6 for k in range(12)]]
    changed = sum(plain.get_at(tuple(map(round, to_px(p))))[:3] != smoky.get_at(tuple(map(round, to_px(p))))[:3]
                  for p in samples)
    assert changed >= 0.9 * len(samples)
    far = to_px((4.0, 4.0))
    assert plain.get_at(tuple(map(round, far))) == smoky.get_at(tuple(map(round, far)))
    scene = sheet.table.scene()  # type: ignore[attr-defined]
    assert not line_of_sight(bf, scene, "a", "b").visible
    inner = tuple(map(round, to_px((cloud.x + 1.5, cloud.y + 1.5))))
    assert sum(smoky.get_at(inner)[:3]) > sum(plain.get_at(inner)[:3]) + 90  # lighter: grey smoke over the mat
    assert sum(smoky.get_at(inner)[:3]) < sum(SMOKE)


def test_geo6_a_path_to_a_model_ends_in_base_contact() -> None:
    """--path A:B with B a model: the cheapest legal spot touching B (edge distance 0 within GEO-6's 0.1")."""
    wall = rect(1, 10.0, 4.0, 10.5, 20.0, 3.0, blocks_los=True, cover=Cover.HARD)
    bf = Battlefield("walled", 24.0, 24.0, pieces=(wall,))
    sheet = sheet_from_args(bf, args("--model", "raven=4,12", "--model", "bandit=16,12"))
    table = sheet.table
    raven, bandit = table.models["raven"], table.models["bandit"]
    res, goal = contact_path(bf, table, raven, bandit)
    assert res.found and res.points[-1][:2] == pytest.approx(goal[:2])
    gap = math.hypot(goal[0] - bandit.x, goal[1] - bandit.y) - raven.radius - bandit.radius
    assert 0.0 <= gap <= float(Settings.defaults()["geo.contact_tol"])
    assert position_fact(bf, *goal, radius=raven.radius, height=raven.height, others=[bandit]).legal
    assert goal[0] < bandit.x  # the near side: round the wall's end, not the far side of the bandit
    others = [bandit]
    from game.core.geometry.movement.paths import shortest_path

    for k in range(0, 360, 30):  # no other contact spot is cheaper
        a = math.radians(k)
        spot = (bandit.x + 1.0001 * math.cos(a), bandit.y + 1.0001 * math.sin(a), 0.0)
        other = shortest_path(bf, (raven.x, raven.y, 0.0), spot, radius=0.5, height=1.25, others=others,
                              side=raven.side)
        assert not other.found or other.cost >= res.cost - 0.05


def test_readme_path_to_a_model_succeeds(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """The README's --path raven:bandit (it always failed before: the goal was the bandit's own centre)."""
    out = tmp_path / "p.png"
    assert main(["render-map", str(SANDBOX), "--out", str(out), "--px-per-inch", "8", "--model", "raven=4,4",
                 "--model", "bandit=30,30", "--path", "raven:bandit"]) == 0
    assert out.exists() and capsys.readouterr().err == ""


def test_plain_pictures_have_a_key(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """--plain adds a key under the table listing what the map holds and the overlays drawn."""
    from game.maps.loader import load_map

    plain, art = tmp_path / "plain.png", tmp_path / "art.png"
    common = ["--px-per-inch", "8", "--model", "raven=4,4", "--model", "bandit=30,30", "--los", "raven,bandit"]
    assert main(["render-map", str(SANDBOX), "--out", str(plain), "--plain", *common]) == 0
    assert main(["render-map", str(SANDBOX), "--out", str(art), *common]) == 0
    a, b = pygame.image.load(str(plain)), pygame.image.load(str(art))
    assert a.get_width() == b.get_width() and a.get_height() > b.get_height() + 60
    texts = [e.text for e in map_entries(load_map(SANDBOX), PALETTE)]
    assert {"open ground", "hard cover", "soft cover", "difficult ground (GEO-8)"} <= set(texts)
    strip = {tuple(a.get_at((x, y)))[:3] for x in range(0, a.get_width(), 2)
             for y in range(b.get_height(), a.get_height(), 2)}
    assert PALETTE.concrete in strip and PALETTE.soft in strip  # the swatches of hard and soft cover


def test_tv03_the_reasons_box_states_the_engines_modifiers() -> None:
    """COMBAT-4.1.MODIFIERS, TV-03: -1 CA obstruction, -1 CA hard cover, +1 Armor and +2 Will; a creature is never
    Obscured (ARMORY-5.3.NATURAL), an armoured human in hard cover is (ARMORY-5.3.OBSCURED)."""
    bf = tv03_board()
    for kind, obscured in (("ghouls", False), ("human", True)):
        sheet = sheet_from_args(bf, args("--model", "raven=2,12", "--model", f"ghoul=12,12/{kind}"))
        _, los, cov = los_overlay(bf, sheet, "raven", "ghoul")
        text = [t for t, _ in los_lines(los, cov, _mods(sheet, cov, kind))]
        assert "raven shooting ghoul (COMBAT-4.1.MODIFIERS):" in text
        assert "  -1 CA 1 obstruction(s) (CORE-3.6.OBSTRUCTION)" in text
        assert "  -1 CA Hard cover (CORE-3.6.TABLE)" in text
        assert "  +1 Armor Hard cover (CORE-3.6.TABLE)" in text
        assert "  +2 Will Hard cover (CORE-3.6.TABLE)" in text
        assert ("  -1 CA Obscured (ARMORY-5.3.OBSCURED)" in text) is obscured


def _mods(sheet, cov, kind):  # type: ignore[no-untyped-def]
    from game.render.attack_mods import ranged_modifier_lines

    return ranged_modifier_lines(cov, creature=sheet.table.kinds["ghoul"].creature, settings=sheet.settings)


def test_no_los_means_no_attack_line() -> None:
    """COMBAT-4.1.REQUIREMENTS: without LOS the box says no attack can be made instead of listing modifiers."""
    wall = rect(1, 10.0, 0.0, 10.5, 24.0, 3.0, blocks_los=True, cover=Cover.HARD)
    bf = Battlefield("wall", 24.0, 24.0, pieces=(wall,))
    sheet = sheet_from_args(bf, args("--model", "a=2,12", "--model", "b=20,12"))
    _, los, cov = los_overlay(bf, sheet, "a", "b")
    text = [t for t, _ in los_lines(los, cov, [])]
    assert not los.visible and any("no ranged attack" in t and "COMBAT-4.1.REQUIREMENTS" in t for t in text)


def test_armory52_soft_cover_against_a_template_is_stated() -> None:
    assert template_save_lines(soft_cover=True, settings=Settings.defaults()) == [
        "+2 Armor soft cover vs template (ARMORY-5.2.TEMPLATE-COVER)"]


def test_models_are_drawn_with_their_token_sprites_or_a_disc_if_missing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A bandit is drawn with sprites/tokens/bandit.png (the hostile ring); without the sprite, a plain disc."""
    bf = Battlefield("open", 24.0, 24.0)
    ppi = 40
    a = args("--model", "bandit=12,12")
    img = render_battlefield(bf, px_per_inch=ppi, overlays=[sheet_from_args(bf, a).finish()])
    margin = max(24.0, ppi * 1.5)
    cx, cy = margin + 12 * ppi, 2 * margin + 12 * ppi
    ring = [img.get_at((round(cx + 0.45 * ppi * math.cos(t)), round(cy + 0.45 * ppi * math.sin(t))))[:3]
            for t in [k * math.pi / 8 for k in range(16)]]
    assert sum(max(abs(a - b) for a, b in zip(c, HOSTILE, strict=True)) < 40 for c in ring) >= 5
    sheet = sheet_from_args(bf, a, tokens=Tokens(tmp_path))  # an empty sprites folder
    bare = render_battlefield(bf, px_per_inch=ppi, overlays=[sheet.finish()])
    assert bare.get_at((round(cx), round(cy)))[:3] == (40, 40, 36)  # the plain disc


def test_labels_never_overlap_and_stay_inside() -> None:
    """Twenty labels at one spot and a long reasons box on a small picture: no two overlap, all inside."""
    surface = pygame.Surface((300, 220), pygame.SRCALPHA)
    notes = Annotations()
    for k in range(20):
        notes.label(f"model-{k}: something to say", (150, 110), size=11)
    long_line = "GEO-10: every one of the ten rays is blocked by pieces " + ", ".join(str(i) for i in range(60))
    notes.box([(long_line, (255, 255, 255))] * 3, [(150, 110)], (10.0, 10.0, 280.0, 200.0))
    notes.flush(surface)
    bounds = (0.0, 0.0, 300.0, 220.0)
    placed = notes.taken.hard
    assert len(placed) == 21 and all(inside(r, bounds) for r in placed)
    box = placed[-1]
    assert box[2] <= 280  # wrapped to the table's width
    label_rects = placed[:-1]
    clear = [r for r in label_rects if not overlaps(r, box)]
    assert sum(not overlaps(p, q) for p, q in combinations(clear, 2)) >= 0.9 * len(list(combinations(clear, 2)))


def test_labels_avoid_each_other_when_there_is_room() -> None:
    surface = pygame.Surface((800, 600), pygame.SRCALPHA)
    notes = Annotations()
    for k in range(8):
        notes.label(f"label {k}", (400, 300), size=12)
    notes.flush(surface)
    assert not any(overlaps(p, q) for p, q in combinations(notes.taken.hard, 2))
