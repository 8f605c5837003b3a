"""`render-map --locations [--tl N] [--leash]`: Hot Spots and the Mission Objective drawn headless with their 3"
Reaction Radius (GEO-19, GAP-50) and 12" leash (GEO-20), placed by GAP-118; bad arguments refused in one line."""
from __future__ import annotations

import argparse
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.core.battlefield import Anchor, Battlefield, Zone  # noqa: E402
from game.core.geometry.polygon import rect  # noqa: E402
from game.core.rules.hotspots import demo_locations  # noqa: E402
from game.maps.loader import load_map  # noqa: E402
from game.render import picture  # noqa: E402
from game.render.labels import Annotations  # noqa: E402
from game.render.legend import Swatch  # noqa: E402
from game.render.overlays_locations import (  # noqa: E402
    HOT_SPOT,
    OBJECTIVE,
    TRIGGERED,
    LocationMark,
    add_location_arguments,
    check_location_args,
    draw_marker,
    location_key,
    location_marks_from_args,
    locations_overlay,
    marks_from_specs,
)
from game.render.placements import PlacementError  # noqa: E402
from tests.paths import MAPS  # noqa: E402
from tests.render.test_render_args import refused, run_cli  # noqa: E402

PPI = 20.0
SANDBOX = MAPS / "sandbox.tmx"


def board() -> Battlefield:
    """An open 36" table with west/east strips and one hot spot anchor."""
    zones = (Zone(1, "west", rect(0, 0, 3, 36)), Zone(2, "east", rect(33, 0, 36, 36)))
    return Battlefield("inline", 36.0, 36.0, zones=zones, anchors=(Anchor(1, "hotspot-a", (12.0, 12.0),
                                                                          kind="hotspot"),))


def draw(bf: Battlefield, marks: list[LocationMark], **kw: object) -> pygame.Surface:
    notes = Annotations()
    overlays = [locations_overlay(bf, marks, notes), lambda s, to_px: notes.flush(s)] if marks else []
    return picture.render_battlefield(bf, px_per_inch=PPI, overlays=overlays, taken=notes.taken, **kw)  # type: ignore[arg-type]


def px(bf: Battlefield, p: tuple[float, float]) -> tuple[int, int]:
    margin = max(24.0, PPI * 1.5)
    return (round(margin + p[0] * PPI), round(2 * margin + p[1] * PPI))


def colour(s: pygame.Surface, at: tuple[int, int]) -> tuple[int, int, int]:
    r, g, b, _ = s.get_at(at)
    return (r, g, b)


def test_marker_rings_and_leash_are_drawn_where_the_location_is() -> None:
    """The marker at the centre point, the dashed 3" Reaction Radius (a dash starts due east, GEO-19) and the
    dotted 12" leash (GEO-20): pixels change there and nowhere near the other side of the table."""
    bf = board()
    plain = draw(bf, [])
    mark = LocationMark((18.0, 18.0), leash=12.0, tl=2, label="spot")
    s = draw(bf, [mark], locations=[])
    x, y = px(bf, (18.0, 18.0))
    r = 0.5 * PPI
    inside = (round(x - 0.4 * r), round(y + 0.4 * r))  # in the triangle, off its "!"
    assert colour(s, inside) == HOT_SPOT != colour(plain, inside)
    ring = (round(x + 3 * PPI), y)
    assert colour(s, ring) != colour(plain, ring)
    leash = (round(x + 12 * PPI), y)
    assert colour(s, leash) != colour(plain, leash)
    far = px(bf, (33.5, 1.0))
    assert colour(s, far) == colour(plain, far)
    no_leash = draw(bf, [LocationMark((18.0, 18.0), tl=2, label="spot")], locations=[])
    assert colour(no_leash, leash) == colour(plain, leash)


def test_rings_stay_on_the_table() -> None:
    """A leash that reaches past the edge is clipped: the ruler and title round the table are untouched."""
    bf = board()
    plain = draw(bf, [])
    s = draw(bf, [LocationMark((1.0, 18.0), radius=2.0, leash=2.5)], locations=[])
    left, _ = px(bf, (0.0, 0.0))
    _, top = px(bf, (0.0, 12.0))
    frame = pygame.Rect(0, top, left, round(12 * PPI))  # the frame west of the table, beside the rings
    assert pygame.image.tobytes(s.subsurface(frame), "RGB") == pygame.image.tobytes(plain.subsurface(frame), "RGB")
    inside = pygame.Rect(left, top, 2 * PPI, round(12 * PPI))
    assert pygame.image.tobytes(s.subsurface(inside), "RGB") != pygame.image.tobytes(plain.subsurface(inside), "RGB")


def test_hot_spot_and_objective_differ_in_shape_not_only_colour() -> None:
    def painted(kind: str) -> set[tuple[int, int]]:
        surf = pygame.Surface((60, 60), pygame.SRCALPHA)
        draw_marker(surf, LocationMark((0.0, 0.0), kind=kind), (30.0, 30.0), 12.0)
        return {(i, j) for i in range(60) for j in range(60) if surf.get_at((i, j))[3] > 0}

    hot, mo = painted("hotspot"), painted("objective")
    assert len(hot ^ mo) > 0.3 * min(len(hot), len(mo))


def test_a_triggered_location_is_drawn_grey_and_hollow() -> None:
    bf = board()
    x, y = px(bf, (18.0, 18.0))
    r = 0.5 * PPI
    live = draw(bf, [LocationMark((18.0, 18.0))], locations=[])
    done = draw(bf, [LocationMark((18.0, 18.0), triggered=True)], locations=[])
    inside = (round(x - 0.4 * r), round(y + 0.4 * r))
    assert colour(live, inside) == HOT_SPOT and colour(done, inside) != HOT_SPOT
    edge = (round(x - 0.92 * r * 0.5), round(y + 0.62 * r - 1))  # on the triangle's base: the grey outline
    assert TRIGGERED in {colour(done, (edge[0] + dx, edge[1] + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    assert LocationMark((1, 2), triggered=True, label="a").text == "a TL1 (triggered)"


def test_the_map_leaves_its_hot_spot_rings_to_the_overlay() -> None:
    """With locations the map's own 3" rings go (the overlay's rings are the ones in play), and the anchors the
    overlay draws are left out."""
    bf = board()
    x, y = px(bf, (15.0, 12.0))
    ring = (x - 1, y)  # hotspot-a's ring, due east
    assert colour(draw(bf, []), ring) == picture.PALETTE.hazard
    assert colour(draw(bf, [], locations=[]), ring) != picture.PALETTE.hazard
    marker = px(bf, (12.0, 12.0))
    assert colour(draw(bf, [], locations=[("hotspot-a", (12.0, 12.0))]), marker) != picture.PALETTE.hazard


def test_marks_from_the_demo_locations() -> None:
    bf = load_map(MAPS / "chernya-woods.tmx")
    marks = marks_from_specs(demo_locations(bf, 2), leash=True)
    assert [m.kind for m in marks] == ["hotspot"] * 4 + ["objective"]
    assert all(m.radius == 3.0 and m.leash == 12.0 and m.tl == 2 for m in marks)
    assert marks[0].text == "clearing-a TL2" and marks[-1].text == "MO camp TL2"
    assert [m.id for m in marks][:2] == ["clearing-a", "clearing-b"]
    assert all(m.leash is None for m in marks_from_specs(demo_locations(bf, 1)))
    with pytest.raises(ValueError, match="kind is 'crate'; allowed: hotspot, objective"):
        LocationMark((1.0, 1.0), kind="crate")


def test_the_key_lists_what_is_drawn() -> None:
    marks = [LocationMark((8.0, 8.0), tl=3), LocationMark((9.0, 9.0), kind="objective", tl=3, leash=12.0)]
    entries = location_key(marks)
    swatches = [e.swatch for e in entries]
    assert swatches == [Swatch.TRIANGLE, Swatch.STAR, Swatch.DASHED_RING, Swatch.DOTTED_RING]
    assert "TL3: 6" in entries[0].text and entries[1].colour == OBJECTIVE
    assert [e.swatch for e in location_key([LocationMark((8.0, 8.0))])] == [Swatch.TRIANGLE, Swatch.DASHED_RING]


def args(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_location_arguments(p)
    return p.parse_args(list(argv))


def test_argument_checks() -> None:
    assert check_location_args(args()) is None
    assert check_location_args(args("--locations", "--tl", "3", "--leash")) is None
    assert "1, 2 or 3" in (check_location_args(args("--locations", "--tl", "0")) or "")
    assert "add --locations" in (check_location_args(args("--tl", "2")) or "")
    assert "add --locations" in (check_location_args(args("--leash")) or "")
    assert location_marks_from_args(board(), args()) == []
    with pytest.raises(PlacementError, match=r"--locations: tiny: room for only 0 of the 1"):
        location_marks_from_args(Battlefield("tiny", 12.0, 12.0), args("--locations"))


@pytest.mark.parametrize("extra, words", [
    (["--locations", "--tl", "0"], ["--tl 0", "1, 2 or 3"]),
    (["--locations", "--tl", "4"], ["--tl 4", "1, 2 or 3"]),
    (["--tl", "2"], ["--tl 2", "--locations"]),
    (["--leash"], ["--leash", "--locations"]),
    (["--locations", "--tl", "two"], ["--tl", "invalid int value"]),
])
def test_bad_location_arguments_are_refused_in_one_line(tmp_path, capsys, extra, words) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "o.png"
    refused(["render-map", str(SANDBOX), "--out", str(out), *extra], capsys, *words)
    assert not out.exists() and not list(tmp_path.iterdir())


def test_render_map_draws_the_locations(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """The command: every Hot Spot of TL2 and its ring drawn, the key lists them; no warning, no traceback."""
    base, shown = tmp_path / "base.png", tmp_path / "locs.png"
    common = ["render-map", str(SANDBOX), "--plain", "--px-per-inch", str(PPI)]
    assert run_cli([*common, "--out", str(base)], capsys)[0] == 0
    rc, out, err = run_cli([*common, "--out", str(shown), "--locations", "--tl", "2", "--leash"], capsys)
    assert rc == 0 and err == "" and "locs.png" in out
    a, b = pygame.image.load(str(base)), pygame.image.load(str(shown))
    assert b.get_height() > a.get_height()  # the key gained the location entries
    bf = load_map(SANDBOX)
    for spec in demo_locations(bf, 2):
        x, y = px(bf, spec.point)
        inside = (round(x - 0.2 * PPI), round(y + 0.2 * PPI))
        assert colour(b, inside) == HOT_SPOT != colour(a, inside), spec.id
        ring = (round(x + 3 * PPI), y)
        assert colour(b, ring) != colour(a, ring), spec.id
