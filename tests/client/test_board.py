"""The board: the camera's transforms, crisp art at every zoom (nearest while moving, smooth tiles once settled),
tokens where the state puts the models, moves animated along the event's path, the last attack's LOS rays from the
core's own query (GEO-10), and the hover card."""
from __future__ import annotations

import math

import pytest

from game.client.camera import MAX_PPI, Camera


def test_camera_round_trip_and_zoom_about_the_cursor() -> None:
    cam = Camera(table=(48.0, 48.0))
    cam.set_view((0, 0, 1200, 800))
    cam.fit()
    assert cam.ppi == pytest.approx(cam.min_ppi)
    p = (10.0, 30.0)
    assert cam.to_table(cam.to_screen(p)) == pytest.approx(p)
    cursor = (300.0, 500.0)
    before = cam.to_table(cursor)
    cam.zoom_by(2.0, cursor, eased=False)
    assert cam.to_table(cursor) == pytest.approx(before, abs=1e-9)  # the point under the cursor stays put
    cam.zoom_by(100.0, cursor, eased=False)
    assert cam.ppi == MAX_PPI  # clamped
    cam.zoom_by(1e-6, cursor, eased=False)
    assert cam.ppi == pytest.approx(cam.min_ppi)


def test_camera_eased_zoom_settles() -> None:
    cam = Camera(table=(48.0, 48.0))
    cam.set_view((0, 0, 1000, 800))
    cam.fit()
    cam.zoom_by(1.25, (500.0, 400.0))
    assert not cam.settled
    for _ in range(120):
        cam.update(1 / 60)
    assert cam.settled and cam.ppi == pytest.approx(cam.target_ppi)


def test_camera_keeps_the_table_in_view() -> None:
    cam = Camera(table=(48.0, 48.0))
    cam.set_view((0, 0, 1000, 800))
    cam.fit()
    centred = cam.to_screen((0.0, 0.0))
    cam.pan(300, -200)
    assert cam.to_screen((0.0, 0.0)) == pytest.approx(centred)  # at fit the table fits: it stays centred
    cam.zoom_by(3.0, (500.0, 400.0), eased=False)
    cam.pan(1e6, -1e6)
    sx, sy = cam.to_screen((0.0, 48.0))
    assert sx == pytest.approx(250) and sy == pytest.approx(600)  # an edge comes in a quarter of the view at most


@pytest.fixture(scope="module")
def played() -> object:
    """Game One, seed 1, played by the autopilots until the first ranged attack (the session the board shows)."""
    from game.client.driver import InlineDriver
    from game.client.session import open_session
    from game.client.setup import GameSetup

    s = open_session(GameSetup(seed=1))
    d = InlineDriver(s)
    last: list = []
    for _ in range(600):
        last = s.apply(d.next_action())
        if any(e.type == "attack" and e.data.get("kind") == "ranged" for e in last):
            break
    return s, last


def _board(app: object, session: object) -> object:
    from game.client.board import BoardView
    from game.client.widget import Shared

    shared = Shared()
    shared.crews = session.crew_sides()
    b = BoardView(shared, session.battlefield, session.state)
    b.layout(app.pg.Rect(0, 0, 900, 700))
    b.animate = False  # the history so far is shown as it stands, not walked again
    b.feed(session.events, session.state)
    b.animate = True
    return b


def test_tokens_are_drawn_where_the_models_stand(app: object, played: object) -> None:
    session, _ = played
    b = _board(app, session)
    for _ in range(30):
        b.update(1 / 60)
    app.screen.fill((0, 0, 0))
    b.draw(app.screen)
    st = session.state
    crew = [m for m in st.models.values() if m.deployed and not m.ooa and m.side in session.crew_sides()]
    assert crew
    for m in crew:
        x, y = b.screen_pos(m.id)
        assert (x, y) == pytest.approx(b.cam.to_screen((m.x, m.y)))
        # the token's ring: a pixel in the side's colour family within the base (blue or vermillion dominant)
        r = m.profile.base_diameter / 2 * b.cam.ppi
        found = False
        for k in range(16):
            a = 2 * math.pi * k / 16
            for f in (0.80, 0.88, 0.95):
                px = app.screen.get_at((round(x + f * r * math.cos(a)), round(y + f * r * math.sin(a))))
                if session.crew_sides().index(m.side) == 0 and px.b > 120 and px.b > px.r + 60:
                    found = True
                if session.crew_sides().index(m.side) == 1 and px.r > 150 and px.r > px.b + 80:
                    found = True
        assert found, f"no side-coloured ring pixel around {m.id} at {(x, y)}"


def test_the_last_attack_shows_the_cores_los_rays(app: object, played: object) -> None:
    from game.core.geometry.sight.los import line_of_sight
    from game.core.settings import Settings

    session, last = played
    b = _board(app, session)
    b.feed(last, session.state)
    assert b.fx.shots, "a ranged attack leaves its LOS rays on the board"
    shot = b.fx.shots[-1]
    attack = next(e for e in last if e.type == "attack")
    assert (shot.attacker, shot.target) == (attack.data["attacker"], attack.data["target"])
    again = line_of_sight(session.battlefield, session.state.scene(include_ooa=True), shot.attacker, shot.target,
                          settings=Settings(dict(session.state.settings)))
    assert [(r.start, r.end, r.blocked) for r in shot.los.rays] == [(r.start, r.end, r.blocked) for r in again.rays]
    assert shot.los.visible  # the engine let it shoot: the same query says it could see


def test_a_move_is_animated_along_its_path(app: object) -> None:
    from game.client.driver import InlineDriver
    from game.client.session import open_session
    from game.client.setup import GameSetup

    s = open_session(GameSetup(seed=1))
    d = InlineDriver(s)
    b = _board(app, s)
    for _ in range(300):
        new = s.apply(d.next_action())
        moves = [e for e in new if e.type == "move" and len(e.data["path"]) > 1 and e.data["length"] > 2]
        if moves:
            break
    b.feed(new, s.state)
    mv = moves[0]
    model = mv.data["model"]
    assert b.busy
    start = b.cam.to_screen(tuple(mv.data["path"][0]))
    assert b.screen_pos(model) == pytest.approx(start, abs=1.0)
    seen = []
    for _ in range(600):
        b.update(1 / 60)
        seen.append(b.screen_pos(model))
        if not b.busy:
            break
    assert not b.busy
    m = s.state.models[model]
    assert b.screen_pos(model) == pytest.approx(b.cam.to_screen((m.x, m.y)), abs=1e-6)
    assert len(set(seen)) > 5  # it walked, it did not jump


def test_art_is_nearest_while_moving_and_smooth_tiles_once_settled(app: object, played: object) -> None:
    session, _ = played
    b = _board(app, session)
    b.cam.zoom_by(1.25, (450.0, 350.0))
    b.update(1 / 60)
    b.draw(app.screen)
    assert b.art.last_mode == "nearest"
    for _ in range(60):
        b.update(1 / 60)
        b.draw(app.screen)
    assert b.art.last_mode == "tiles" and b.art.built > 0


def test_hover_card_names_the_model_and_the_piece(app: object, played: object) -> None:
    session, _ = played
    b = _board(app, session)
    st = session.state
    m = next(m for m in st.models.values() if m.deployed and not m.ooa)
    b.mouse = b.screen_pos(m.id)
    lines = b.hover_lines()
    assert lines and m.id in lines[0]
    piece = max(session.battlefield.pieces, key=lambda p: p.top_z)
    xs, ys = [q[0] for q in piece.footprint], [q[1] for q in piece.footprint]
    import shapely

    inside = shapely.Polygon(piece.footprint).representative_point()
    b.mouse = b.cam.to_screen((inside.x, inside.y))
    text = " ".join(b.hover_lines())
    assert f"top {piece.top_z:g}\"" in text
    assert min(xs) <= inside.x <= max(xs) and min(ys) <= inside.y <= max(ys)
