"""The battle screen as a spectator sees it: an autoplayed Game One runs to the mission summary in the window with
every action applied by the engine, the frames are deterministic under a fixed step, and no sequence of input
events crashes it or leaves the state invalid."""
from __future__ import annotations

import hashlib
import random

import pytest

from game.client.setup import GameSetup


def _battle(app: object, setup: GameSetup) -> object:
    app.title()
    app.start_game(setup)
    scene = app.top
    assert scene is not None and scene.name == "battle", app.errors
    return scene


def test_autoplayed_game_one_reaches_the_summary(app: object) -> None:
    scene = _battle(app, GameSetup(seed=1, agents=("random", "random")))
    scene.speed = "fast"
    scene.dice.animate = False
    frames = 0
    while app.top is scene and frames < 20_000:
        app.step([])
        frames += 1
    assert not app.errors, app.errors
    assert app.top is not None and app.top.name != "battle", "the summary is pushed over the battle when it ends"
    assert scene.session.over and scene.applied == len(scene.session.record.actions) > 50
    assert scene in app.stack  # the battle stays under the summary
    # the window applied exactly what the engine logged: the log widget holds every event's line
    from game.core.events import describe

    assert scene.log.text().strip() == "\n".join(describe(e) for e in scene.session.events).strip()
    from game.sim.loop import replay

    _, events = replay(scene.session.record)
    assert [e.line() for e in events] == [e.line() for e in scene.session.events]


def _frames_hash(app_cls: type, n: int) -> str:
    from game.client.app import App

    app = App((1280, 720), fixed_dt=1 / 60)
    try:
        _battle(app, GameSetup(seed=4, agents=("random", "random")))
        for _ in range(n):
            app.step([])
        return hashlib.sha256(app.pg.image.tobytes(app.screen, "RGB")).hexdigest()
    finally:
        app.close_all()


def test_frame_n_is_a_deterministic_point_of_the_game() -> None:
    from game.client.app import App

    assert _frames_hash(App, 150) == _frames_hash(App, 150)


EVENT_KINDS = ("key", "click", "drag", "wheel", "motion", "resize")
KEYS = ("SPACE", "PERIOD", "n", "t", "1", "2", "v", "ESCAPE", "p", "RETURN", "LEFT", "RIGHT", "UP", "DOWN", "w", "a",
        "s", "d", "PLUS", "MINUS", "HOME", "f", "TAB", "PAGEUP", "PAGEDOWN", "END", "BACKSPACE", "0", "9", "q")


def _random_event(pg: object, rng: random.Random, size: tuple[int, int]) -> list[object]:
    w, h = size
    kind = rng.choices(EVENT_KINDS, weights=(30, 25, 10, 15, 18, 2))[0]
    # biased toward the board (left) and the widgets on the right
    pos = (rng.randint(0, w - 1), rng.randint(0, h - 1)) if rng.random() < 0.3 else (
        (rng.randint(0, int(w * 0.68)), rng.randint(80, h - 30)) if rng.random() < 0.6 else
        (rng.randint(int(w * 0.69), w - 1), rng.randint(30, h - 1)))
    if kind == "key":
        key = getattr(pg, f"K_{rng.choice(KEYS)}")
        mod = pg.KMOD_CTRL if rng.random() < 0.05 else 0
        return [pg.event.Event(pg.KEYDOWN, key=key, mod=mod, unicode="", scancode=0),
                pg.event.Event(pg.KEYUP, key=key, mod=mod, unicode="", scancode=0)]
    if kind == "click":
        b = rng.choice((1, 1, 1, 3))
        return [pg.event.Event(pg.MOUSEBUTTONDOWN, pos=pos, button=b), pg.event.Event(pg.MOUSEBUTTONUP, pos=pos,
                                                                                         button=b)]
    if kind == "drag":
        end = (pos[0] + rng.randint(-200, 200), pos[1] + rng.randint(-200, 200))
        return [pg.event.Event(pg.MOUSEBUTTONDOWN, pos=pos, button=1),
                pg.event.Event(pg.MOUSEMOTION, pos=end, rel=(end[0] - pos[0], end[1] - pos[1]), buttons=(1, 0, 0)),
                pg.event.Event(pg.MOUSEBUTTONUP, pos=end, button=1)]
    if kind == "wheel":
        return [pg.event.Event(pg.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                pg.event.Event(pg.MOUSEWHEEL, x=0, y=rng.choice((-3, -1, 1, 2, 5)), flipped=False)]
    if kind == "resize":
        nw, nh = rng.randint(400, 2000), rng.randint(300, 1200)
        return [pg.event.Event(pg.VIDEORESIZE, w=nw, h=nh, size=(nw, nh))]
    return [pg.event.Event(pg.MOUSEMOTION, pos=pos, rel=(rng.randint(-9, 9), rng.randint(-9, 9)), buttons=(0, 0, 0))]


@pytest.mark.parametrize("seed", [5])
def test_fuzz_5000_events_never_crash_and_the_state_stays_valid(app: object, seed: int) -> None:
    from game.core.state import GameState

    rng = random.Random(seed)
    scene = _battle(app, GameSetup(seed=seed, agents=("random", "random")))
    scene.speed = "fast"
    pg = app.pg
    sent = 0
    applied = 0
    seen: set[str] = set()
    while sent < 5000:
        batch = [ev for _ in range(rng.randint(1, 8)) for ev in _random_event(pg, rng, app.size)]
        sent += len(batch)
        app.step(batch)
        seen.add(app.top.name if app.top is not None else "")
        if app.top is not None and app.top.name in ("title", "choose", "error", "summary") and rng.random() < 0.3:
            # the fuzz left the battle (quit to title, summary): start a new one and go on
            applied += scene.applied
            scene = _battle(app, GameSetup(seed=rng.randint(0, 99), agents=("random", "random")))
            scene.speed = "fast"
        if not app.running:  # quit confirmed by the fuzz: a fresh window loop
            app.running = True
    applied += scene.applied
    assert not app.errors, app.errors
    assert applied >= 50 and {"battle", "pause"} <= seen  # the game went on under the input, menus were reached
    st = scene.session.state
    again = GameState.from_json(st.to_json(), battlefield=st.battlefield)
    assert again.to_json() == st.to_json()
    from game.sim.loop import replay

    _, events = replay(scene.session.record) if scene.session.over else (None, None)
    if events is not None:
        assert [e.line() for e in events] == [e.line() for e in scene.session.events]
