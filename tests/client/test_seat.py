"""A player's seat, driven by posted input events only: a test driver asks the crew autopilot what it would do and
expresses that as clicks at screen coordinates from the view transform (the action bar's buttons, the board's tokens
and points) and keys, until the mission summary. Every action the window applies goes through the engine."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from game.client.setup import HUMAN, GameSetup
from game.core.actions import Activate, Deploy, EndActivation, Move, RangedAttack
from game.core.state import Phase

SHOTS = Path(os.environ["ZONA_SHOTS"]) if os.environ.get("ZONA_SHOTS") else None  # save pictures to look at


def _click(app: Any, pos: tuple[float, float], button: int = 1) -> None:
    pg = app.pg
    p = (round(pos[0]), round(pos[1]))
    app.step([pg.event.Event(pg.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(0, 0, 0)),
              pg.event.Event(pg.MOUSEBUTTONDOWN, pos=p, button=button),
              pg.event.Event(pg.MOUSEBUTTONUP, pos=p, button=button)])


def _key(app: Any, key: int) -> None:
    pg = app.pg
    app.step([pg.event.Event(pg.KEYDOWN, key=key, mod=0, unicode="", scancode=0),
              pg.event.Event(pg.KEYUP, key=key, mod=0, unicode="", scancode=0)])


def _bar_click(app: Any, seat: Any, kind: str) -> bool:
    """Click the bar's first legal button of this kind."""
    for i, o in enumerate(seat.bar.options):
        if o.kind == kind and o.legal and i < len(seat.bar.buttons):
            _click(app, seat.bar.buttons[i].center)
            return True
    return False


def _on_board(scene: Any, p: tuple[float, float]) -> tuple[float, float]:
    """A table point on screen, the camera centred on it first (a pan, as a player would) if it is hidden."""
    board = scene.board
    s = board.cam.to_screen(p)
    safe = board.rect.inflate(-120, -200)
    if not safe.collidepoint(s):
        board.cam.centre_on(p)
        s = board.cam.to_screen(p)
    return s


@pytest.mark.parametrize("seed", [2])
def test_a_solo_game_by_posted_events_reaches_the_summary(app: Any, seed: int) -> None:
    from game.sim.simulate import AGENTS

    app.title()
    app.start_game(GameSetup(seed=seed, agents=(HUMAN, "random"), autoplay=True))
    scene = app.top
    assert scene is not None and scene.name == "battle"
    scene.speed = "fast"
    scene.dice.animate = False
    seat = scene.seat
    brain = AGENTS["normal"](seed * 1000)
    done: dict[str, int] = {}
    for _ in range(12_000):
        if app.top is not scene:
            break
        app.step([])
        if not seat.active or scene.board.busy or seat.armed is not None:
            if seat.armed is not None:
                _key(app, app.pg.K_RETURN)
            continue
        st = scene.session.state
        want = brain.choose(st)
        inner = getattr(want, "action", want)  # a Reasoned decision carries the action
        before = len(scene.session.record.actions)
        if isinstance(inner, Deploy):
            _click(app, _on_board(scene, (inner.x, inner.y)))
        elif isinstance(inner, Activate):
            m = next(x for x in st.units[inner.unit].models if st.models[x].in_play)
            _click(app, _on_board(scene, (st.models[m].x, st.models[m].y)))
        elif isinstance(inner, Move) and inner.path and _bar_click(app, seat, "move"):
            end = inner.path[-1]
            at = _on_board(scene, (end[0], end[1]))
            if SHOTS is not None and not done.get("Move"):
                app.step([app.pg.event.Event(app.pg.MOUSEMOTION, pos=(round(at[0]), round(at[1])), rel=(1, 1),
                                             buttons=(0, 0, 0))])
                app.save_screenshot(SHOTS / "seat-move.png")
            _click(app, at)
        elif isinstance(inner, RangedAttack) and _bar_click(app, seat, "shoot"):
            t = st.models[inner.target]
            _click(app, _on_board(scene, (t.x, t.y)))
            if seat.armed is not None:
                if SHOTS is not None and not done.get("RangedAttack"):
                    app.save_screenshot(SHOTS / "seat-armed.png")
                _key(app, app.pg.K_RETURN)
        elif not isinstance(inner, EndActivation) and any(inner in o.actions for o in seat.bar.options):
            i = next(i for i, o in enumerate(seat.bar.options) if inner in o.actions)
            _click(app, seat.bar.buttons[i].center)
        elif st.phase is Phase.ACTION:
            _bar_click(app, seat, "end")
        else:
            i = next((i for i, o in enumerate(seat.bar.options) if o.legal and o.needs == ""), None)
            assert i is not None, (st.phase, want, [(o.kind, o.needs, o.legal, o.reason) for o in seat.bar.options])
            _click(app, seat.bar.buttons[i].center)
        if len(scene.session.record.actions) == before and seat.active:
            # the click did not make a decision (a refused spot, a cut move): end the activation or pass
            scene.seat.cancel()
            if st.phase is Phase.ACTION:
                _bar_click(app, seat, "end")
        if len(scene.session.record.actions) > before:
            kind = type(scene.session.record.actions[-1]).__name__
            done[kind] = done.get(kind, 0) + 1
    assert not app.errors, app.errors
    print("decisions made by posted events:", done)
    assert scene.session.over, (done, scene.session.state.phase, seat.note)
    assert done.get("Deploy", 0) >= 6 and done.get("Activate", 0) > 5 and done.get("Move", 0) > 3, done
    assert done.get("RangedAttack", 0) >= 1, done
    from game.sim.loop import replay

    _, events = replay(scene.session.record)
    assert [e.line() for e in events] == [e.line() for e in scene.session.events]
