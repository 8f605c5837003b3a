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


def _invariants(st: Any) -> None:
    """What must hold after every applied action: models on the table with Wounds and Pins in range, the side that
    decides is in the game, an activation belongs to a unit of its side."""
    w, h = st.table
    for m in st.models.values():
        assert 0 <= m.wounds_taken <= m.profile.wounds + 3, m.id
        if m.deployed and not m.dead:
            assert -1e-6 <= m.x <= w + 1e-6 and -1e-6 <= m.y <= h + 1e-6, (m.id, m.x, m.y)
    for u in st.units.values():
        assert u.pins >= 0, u.id
    if st.phase is not Phase.MISSION_END:
        assert st.deciding in {s.id for s in st.sides} | set(st.forces), st.deciding
    if st.activation is not None and st.phase is Phase.ACTION:
        assert st.activation.unit in st.units and st.activation.spent <= st.activation.budget + st.activation.bonus


def _meaningful(scene: Any, rng: Any) -> tuple[float, float]:
    """A screen point where a player's decision is likely made: a spot in the deploying side's zone, a model's
    token, or a point within 7" of the acting model (still random: it may be refused)."""
    import shapely

    st = scene.session.state
    cam = scene.board.cam
    if st.phase is Phase.DEPLOY:
        side = next(s for s in st.sides if s.id == st.deciding)
        zone = shapely.Polygon(st.battlefield.zone(side.zone).footprint)
        x0, y0, x1, y1 = zone.bounds
        return cam.to_screen((rng.uniform(x0, x1), rng.uniform(y0, y1)))
    models = [m for m in st.models.values() if m.deployed and not m.dead]
    if st.activation is not None and rng.random() < 0.5:
        lead = next((st.models[x] for x in st.units[st.activation.unit].models if st.models[x].in_play), None)
        if lead is not None:
            return cam.to_screen((lead.x + rng.uniform(-7, 7), lead.y + rng.uniform(-7, 7)))
    m = rng.choice(models)
    return cam.to_screen((m.x, m.y))


def test_fuzz_over_the_seat_applies_actions_and_keeps_the_state_valid(app: Any) -> None:
    """5,000 random events biased to the action bar, the board and the panels while a player's seat decides: no
    error, at least 50 actions applied (the player's and the agents'), and after each applied action the state is
    one the engine reaches by replaying the record (its invariants: the replay refuses anything else)."""
    import random
    import sys
    from pathlib import Path as _P

    sys.path.insert(0, str(_P(__file__).parent))
    from test_battle import _random_event

    rng = random.Random(11)
    app.title()
    app.start_game(GameSetup(seed=3, agents=(HUMAN, "random"), autoplay=True))
    scene = app.top
    scene.speed = "fast"
    scene.dice.animate = False
    pg = app.pg
    sent, applied, checked = 0, 0, 0
    seen = 0
    while sent < 5000:
        seat = scene.seat
        roll = rng.random()
        if seat is not None and seat.active and seat.bar.buttons and roll < 0.3:
            at = rng.choice(seat.bar.buttons).center  # a press on a bar button, as a player would
        elif seat is not None and seat.active and roll < 0.6:
            at = _meaningful(scene, rng)  # a press where the decision is: the zone, a token, near the acting model
        else:
            at = None
        if at is not None:
            at = (round(at[0]), round(at[1]))
            batch = [pg.event.Event(pg.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)),
                     pg.event.Event(pg.MOUSEBUTTONDOWN, pos=at, button=1),
                     pg.event.Event(pg.MOUSEBUTTONUP, pos=at, button=1)]
        else:
            batch = _random_event(pg, rng, app.size)
        batch = [e for e in batch if e.type != pg.VIDEORESIZE or rng.random() < 0.3]
        sent += len(batch)
        app.step(batch)
        if app.top is not scene:
            if app.top is not None and app.top.name in ("pause", "confirm"):
                app.step([pg.event.Event(pg.KEYDOWN, key=pg.K_ESCAPE, mod=0, unicode="", scancode=0)])
            if app.top is not scene:  # left the battle (summary, title): a new game
                applied += scene.applied
                app.running = True
                app.title()
                app.start_game(GameSetup(seed=rng.randint(0, 50), agents=(HUMAN, "random"), autoplay=True))
                scene = app.top
                scene.speed = "fast"
                scene.dice.animate = False
                seen = 0
        if len(scene.session.record.actions) != seen:
            seen = len(scene.session.record.actions)
            _invariants(scene.session.state)
            checked += 1
    applied += scene.applied
    assert not app.errors, app.errors
    print("seat fuzz: actions applied", applied, "states checked", checked)
    assert applied >= 50 and checked >= 50, (applied, checked)
    from game.sim.loop import replay_record

    done = replay_record(scene.session.record)
    assert [e.line() for e in done.events] == [e.line() for e in scene.session.events]


def test_the_move_preview_is_planned_off_the_frame_loop_and_only_for_the_latest_point(app: Any) -> None:
    """Not under a fixed time step, the hover's plan runs in a thread: the frame returns at once, and the path shown
    is `plan_move`'s for the last point hovered (a stale one is dropped)."""
    import time

    from game.core.rules.moveplan import plan_move

    app.title()
    app.start_game(GameSetup(seed=2, agents=(HUMAN, "random"), autoplay=True))
    scene = app.top
    seat = scene.seat
    for _ in range(3000):
        app.step([])
        st = scene.session.state
        if seat.active and st.phase is Phase.ACTION and any(o.kind == "move" and o.legal for o in seat.options):
            break
        if seat.active:  # deploy, activate or pass as the autopilot would, straight through the seat
            from game.sim.simulate import AGENTS

            want = AGENTS["normal"](5).choose(st)
            inner = getattr(want, "action", want)
            if isinstance(inner, Deploy):
                seat.click((inner.x, inner.y), None, 1, waypoint=False)
            else:
                seat.commit(inner)
    assert seat.active and scene.session.state.phase is Phase.ACTION
    seat.choose(next(o for o in seat.options if o.kind == "move" and o.legal))
    scene.sync = False  # as in a real window
    st = scene.session.state
    m = st.models[st.units[st.activation.unit].models[0]]
    points = [(m.x + 0.5 * k, m.y + 0.3 * k) for k in range(1, 7)]
    for p in points:
        seat.hover(p)
    deadline = time.monotonic() + 20
    while (seat._hover_job is not None or seat._hover_want[2] != seat._hover) and time.monotonic() < deadline:
        time.sleep(0.01)
        seat.poll()
    last = (round(points[-1][0], 1), round(points[-1][1], 1))
    want = plan_move(st, st.activation.unit, last)
    assert scene.board.plan_points == [(p[0], p[1]) for p in want.points]
    seat.close()


def test_a_grenade_under_the_cursor_shows_what_the_resolver_would_touch() -> None:
    """Templates placed with the cursor (issue 18): the drawn template is `template_preview`'s for the action the
    click would arm (the resolver's coverage, GAP-70/GEO-16), its words name the models touched and the deviation
    (GEO-18); a point beyond the grenade's range says the engine's reason (GEO-5)."""
    import math

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.benchmarks.seat import _seat_state
    from game.client.app import App
    from game.client.battle import BattleScene
    from game.core.rules.template_preview import template_preview

    session = _seat_state(11, 3)
    st = session.state
    app = App((1280, 720), fixed_dt=1 / 60)
    try:
        scene = BattleScene(app, session, inline=True)
        scene.playing = False
        app.push(scene)
        app.step([])
        seat = scene.seat
        throw = next(o for o in seat.options if o.kind == "grenade")
        assert throw.legal, throw.reason  # a far enemy does not grey the throw: the player picks a nearer point
        seat.choose(throw)
        m = st.models[st.units[st.activation.unit].models[0]]
        foe = min((x for x in st.models.values() if x.side != m.side and x.in_play and x.deployed),
                  key=lambda e: math.hypot(e.x - m.x, e.y - m.y))
        d = math.hypot(foe.x - m.x, foe.y - m.y)
        near = (m.x + (foe.x - m.x) * 12 / d, m.y + (foe.y - m.y) * 12 / d)
        seat.hover(near)
        plan = scene.board.template_plan
        truth = template_preview(st, seat._at_point(throw, (round(near[0], 1), round(near[1], 1))))
        assert plan == truth and plan.legal
        assert "touches" in seat.note and "GEO-18" in seat.note
        far = (m.x + (foe.x - m.x) * 30 / d, m.y + (foe.y - m.y) * 30 / d)
        seat.hover(far)
        assert not scene.board.template_plan.legal and "GEO-5" in seat.note
        from game.core.rules.ruler import measure

        seat.cancel()
        seat.measure_to(None, foe.id)  # the pointer over an enemy: the ruler from the selected model
        assert seat.ruler.ruler == measure(st, seat.selected, foe.id) and seat.ruler_ends is not None
        app.step([])
    finally:
        app.close_all()
