"""The App's last line of defence: a game that cannot start shows the error screen naming the file and the problem
(back to the title from there); a scene that raises is replaced by the error screen; the window never crashes."""
from __future__ import annotations

from pathlib import Path

from game.client.scene import Scene
from game.client.setup import GameSetup


def _key(app: object, key: int) -> list[object]:
    pg = app.pg
    return [pg.event.Event(pg.KEYDOWN, key=key, mod=0, unicode="", scancode=0),
            pg.event.Event(pg.KEYUP, key=key, mod=0, unicode="", scancode=0)]


def test_a_scenario_file_that_fails_validation_shows_the_error_screen(app: object, tmp_path: Path) -> None:
    bad = tmp_path / "my-mission.toml"
    bad.write_text('id = "x"\nname = 3\n')
    app.title()
    app.start_game(GameSetup(scenario=str(bad)))
    assert app.top is not None and app.top.name == "error"
    assert "my-mission.toml" in app.top.message
    app.step([])
    app.save_screenshot(tmp_path / "error.png")
    assert (tmp_path / "error.png").stat().st_size > 5000
    app.step(_key(app, app.pg.K_RETURN))
    assert app.top is not None and app.top.name == "title" and len(app.stack) == 1


def test_a_crew_that_fails_shows_the_error_screen(app: object) -> None:
    app.title()
    app.start_game(GameSetup(crews=("military", "no-such-crew")))
    assert app.top is not None and app.top.name == "error" and "no-such-crew" in app.top.message


class Broken(Scene):
    name = "broken"

    def draw(self, surface: object) -> None:
        raise ZeroDivisionError("drawn wrong")


def test_a_scene_that_raises_is_replaced_by_the_error_screen(app: object) -> None:
    app.title()
    app.push(Broken(app))
    app.step([])
    assert app.top is not None and app.top.name == "error"
    assert any("ZeroDivisionError: drawn wrong" in e for e in app.errors)
    app.step([])  # the error screen itself draws
    app.step(_key(app, app.pg.K_ESCAPE))
    assert app.top is not None and app.top.name == "title"


def test_window_resizes_are_taken_and_kept_above_the_minimum(app: object) -> None:
    pg = app.pg
    app.title()
    app.step([pg.event.Event(pg.VIDEORESIZE, w=300, h=200, size=(300, 200))])
    assert app.size == (960, 600) and app.screen.get_size() == (960, 600)
    app.step([pg.event.Event(pg.VIDEORESIZE, w=1600, h=900, size=(1600, 900))])
    assert app.screen.get_size() == (1600, 900)
    assert not app.errors


def test_closing_the_window_asks_first(app: object) -> None:
    pg = app.pg
    app.title()
    app.step([pg.event.Event(pg.QUIT)])
    assert app.running and app.top is not None and app.top.name != "title"  # the confirmation
    app.step(_key(app, pg.K_RETURN))
    assert not app.running
