"""The procedural art in sprites/ (STYLE.md "Look and feel", GEO-3 base sizes) and `render-map --art`."""
from __future__ import annotations

import os
import tomllib

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from game.maps.loader import load_map  # noqa: E402
from game.render import picture as render_map  # noqa: E402
from game.tools import make_sprites, sprite_tokens  # noqa: E402
from game.tools.spritekit import HOSTILE, SIDE_A, SIDE_B, pixels  # noqa: E402
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
SPRITES = ROOT / "sprites"
DATA = ROOT / "game" / "data"
REQUIRED = [
    "terrain/mud", "terrain/grass", "terrain/asphalt", "terrain/gravel", "terrain/floor-planks",
    "terrain/floor-concrete",
    "terrain/wall-brick", "terrain/wall-concrete", "terrain/roof-tin", "terrain/roof-slate", "terrain/hedge",
    "terrain/fence", "terrain/rubble", "terrain/sandbags", "terrain/junk", "terrain/stone", "terrain/forest-floor",
    "objects/tree-pine", "objects/tree-birch", "objects/tree-dead", "objects/btr", "objects/water-tower",
    "objects/crates", "objects/drums", "objects/car-wreck",
]
RESERVED = {"hazard yellow": render_map.PALETTE.hazard, "anomaly cyan": render_map.PALETTE.anomaly}


def _load(rel: str) -> pygame.Surface:
    return pygame.image.load(str(SPRITES / f"{rel}.png"))


def _catalog_diameters() -> dict[str, float]:
    """Base diameter per catalog id from the data files (GEO-3 via bodies.toml)."""
    bodies = tomllib.loads((DATA / "bodies.toml").read_text())
    out = {}
    for file in ("hostiles.toml", "recruits.toml"):
        for key, entry in tomllib.loads((DATA / file).read_text()).items():
            out[key] = bodies[entry["body"]]["diameter"]
    return out


@pytest.mark.parametrize("rel", REQUIRED)
def test_required_art_exists(rel):
    """Issue 8 item 6: ground, walls, roofs, trees, hedges, fences, the BTR, the water tower, barriers, rubble."""
    img = _load(rel)
    assert img.get_width() >= 16 and img.get_height() >= 16


def test_a_token_for_every_model_type_sized_by_its_base():
    """GEO-3, HOSTILE-8.3.STATS: one token per crew and hostile catalog id, 64 px per inch of base diameter."""
    diam = _catalog_diameters()
    assert set(sprite_tokens.HOSTILES) | set(sprite_tokens.CREW) <= set(diam)
    for kind in (*sprite_tokens.CREW, *sprite_tokens.HOSTILES):
        img = _load(f"tokens/{kind}")
        assert img.get_size() == (round(diam[kind] * 64),) * 2, kind
        assert sprite_tokens.HOSTILES.get(kind, 1.0) == diam[kind]


@pytest.mark.parametrize("rel,colour", [("tokens/leader", SIDE_A), ("tokens/side-b/leader", SIDE_B),
                                        ("tokens/rookie", SIDE_A), ("tokens/dogs", HOSTILE),
                                        ("tokens/large_mutant", HOSTILE)])
def test_base_rings_carry_the_side_colour(rel, colour):
    """STYLE.md: side colours on the base ring (Okabe-Ito blue and vermillion; hostiles reddish purple, notched)."""
    px = pixels(_load(rel)).astype(int)
    h, w, _ = px.shape
    ring = px[h // 2, round(w * 0.04):round(w * 0.12), :3]
    assert np.abs(ring - np.array(colour)).sum(axis=1).min() <= 30


def test_side_colours_stay_apart():
    """Colour-blind safety: the three ring colours differ in lightness as well as hue."""
    def lum(c):
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    ls = sorted(lum(c) for c in (SIDE_A, SIDE_B, HOSTILE))
    assert ls[1] - ls[0] >= 15 and ls[2] - ls[1] >= 15


def test_no_sprite_uses_the_reserved_colours():
    """STYLE.md: hazard yellow and anomaly cyan are kept for what the player must notice."""
    for f in sorted(SPRITES.rglob("*.png")):
        px = pixels(pygame.image.load(str(f))).astype(int)
        opaque = px[px[..., 3] > 128][:, :3]
        for name, c in RESERVED.items():
            assert np.abs(opaque - np.array(c)).sum(axis=1).min() > 40, f"{f.name} uses {name}"


@pytest.mark.parametrize("name", ["mud", "grass", "asphalt", "forest-floor", "gravel"])
def test_terrain_tiles_wrap_seamlessly(name):
    """Tiles are periodic: the seam between copies is no harsher than the texture's own pixel-to-pixel change."""
    px = pixels(_load(f"terrain/{name}")).astype(float)[..., :3]
    inner = np.abs(np.diff(px, axis=1)).mean()
    seam = np.abs(px[:, 0] - px[:, -1]).mean()
    assert seam <= 1.6 * inner + 2.0
    inner_y = np.abs(np.diff(px, axis=0)).mean()
    assert np.abs(px[0] - px[-1]).mean() <= 1.6 * inner_y + 2.0


def test_sprites_are_redrawn_identically():
    """The art is seeded: redrawing a tile and a token gives the shipped pixels."""
    tiles = make_sprites.terrain_sprites()
    assert pixels(tiles["asphalt"]).tobytes() == pixels(_load("terrain/asphalt")).tobytes()
    tokens = sprite_tokens.token_sprites()
    assert pixels(tokens["ghouls"]).tobytes() == pixels(_load("tokens/ghouls")).tobytes()


def test_sprites_stay_small():
    """The whole sprites/ folder stays under 3 MB."""
    assert sum(f.stat().st_size for f in SPRITES.rglob("*") if f.is_file()) < 3_000_000


def test_render_map_art_textures_the_table():
    """`render-map --art`: same frame as the geometry picture; the road is asphalt-grey, the result deterministic."""
    pygame.font.init()
    bf = load_map(ROOT / "maps" / "sandbox.tmx")
    plain = render_map.render_battlefield(bf, px_per_inch=10)
    art = render_map.render_battlefield(bf, px_per_inch=10, art=SPRITES)
    again = render_map.render_battlefield(bf, px_per_inch=10, art=SPRITES)
    assert art.get_size() == plain.get_size()
    assert pygame.image.tobytes(art, "RGBA") == pygame.image.tobytes(again, "RGBA")
    margin = 24.0
    r, g, b, _ = art.get_at((round(margin + 30 * 10), round(2 * margin + 33 * 10)))  # on the road
    assert max(r, g, b) - min(r, g, b) < 25 and r < 120
    assert pygame.image.tobytes(art, "RGBA") != pygame.image.tobytes(plain, "RGBA")
