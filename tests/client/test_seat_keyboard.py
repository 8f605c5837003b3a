"""A player's seat by the keyboard alone (issue 18, "Keyboard alone"): a test driver asks the crew autopilot what it
would do and expresses it only as key presses: the action bar's shortcuts and focus, the table cursor (arrows 1",
Shift+arrows 0.1"), Tab over the models and targets, Enter to add a waypoint, pick or confirm. The game is played to
the mission summary; every armed attack's panel shows the odds API's numbers; the record replays to the same log."""
from __future__ import annotations

from typing import Any

from game.client.actionbar import SHORTCUTS
from game.client.setup import HUMAN, GameSetup
from game.core.actions import Activate, Deploy, EndActivation, Move, RangedAttack
from game.core.state import Phase


def _ev(pg: Any, key: int, mod: int = 0) -> list[Any]:
    return [pg.event.Event(pg.KEYDOWN, key=key, mod=mod, unicode="", scancode=0),
            pg.event.Event(pg.KEYUP, key=key, mod=mod, unicode="", scancode=0)]


def _press(app: Any, key: int, mod: int = 0) -> None:
    app.step(_ev(app.pg, key, mod))


def _cursor_to(app: Any, seat: Any, p: tuple[float, float]) -> None:
    """Arrows to a point: whole inches, then tenths with Shift (the cursor starts where the seat puts it)."""
    pg = app.pg
    if seat.cursor is None:
        app.step(_ev(pg, pg.K_RIGHT) + _ev(pg, pg.K_LEFT))  # the first press shows the cursor where it starts
    assert seat.cursor is not None, (seat.state.phase, seat.note)
    batch: list[Any] = []
    x, y = seat.cursor
    for d, plus, minus in ((p[0] - x, pg.K_RIGHT, pg.K_LEFT), (p[1] - y, pg.K_DOWN, pg.K_UP)):
        whole = int(abs(d))
        tenths = round((abs(d) - whole) * 10)
        key = plus if d > 0 else minus
        for _ in range(whole):
            batch += _ev(pg, key)
        for _ in range(tenths):
            batch += _ev(pg, key, pg.KMOD_SHIFT)
    if batch:
        app.step(batch)


def _bar_key(app: Any, seat: Any, kind: str, index: int | None = None) -> bool:
    """Choose a bar option by its shortcut; several of a kind: the shortcut walks them and Enter chooses."""
    pg = app.pg
    code = pg.key.key_code(SHORTCUTS[kind].lower())
    same = [i for i, o in enumerate(seat.bar.options) if o.kind == kind]
    if not same:
        return False
    if len(same) == 1:
        _press(app, code)
        return True
    want = same[0] if index is None else index
    for _ in range(len(same) + 1):
        _press(app, code)
        if seat.bar.focus == want:
            _press(app, pg.K_RETURN)
            return True
    return False


def _tab_to(app: Any, seat: Any, model: str) -> bool:
    for _ in range(len(seat.state.models) + 1):
        _press(app, app.pg.K_TAB)
        if seat.model_under_cursor() == model or (seat.cursor is not None and seat.cursor == (
                seat.state.models[model].x, seat.state.models[model].y)):
            return True
    return False


def test_a_solo_game_by_the_keyboard_alone_reaches_the_summary(app: Any) -> None:
    from game.core.odds.actions import attack_odds
    from game.sim.simulate import AGENTS

    app.title()
    app.start_game(GameSetup(seed=2, agents=(HUMAN, "random"), autoplay=True))
    scene = app.top
    assert scene is not None and scene.name == "battle"
    scene.speed = "fast"
    scene.dice.animate = False
    seat = scene.seat
    pg = app.pg
    brain = AGENTS["normal"](2000)
    done: dict[str, int] = {}
    bent, odds_checked = 0, 0
    for _ in range(12_000):
        if app.top is not scene:
            break
        app.step([])
        if not seat.active or scene.board.busy:
            continue
        if seat.armed is not None:
            _press(app, pg.K_RETURN)
            continue
        st = scene.session.state
        want = brain.choose(st)
        inner = getattr(want, "action", want)
        before = len(scene.session.record.actions)
        if isinstance(inner, Deploy):
            _cursor_to(app, seat, (inner.x, inner.y))
            _press(app, pg.K_RETURN)
        elif isinstance(inner, Activate):
            m = next(x for x in st.units[inner.unit].models if st.models[x].in_play)
            if _tab_to(app, seat, m):
                _press(app, pg.K_RETURN)
        elif isinstance(inner, Move) and inner.path and _bar_key(app, seat, "move"):
            end = inner.path[-1]
            _cursor_to(app, seat, (end[0], end[1]))
            _press(app, pg.K_RETURN)  # a waypoint at the end ...
            _press(app, pg.K_RETURN)  # ... and Enter again there moves
            made = scene.session.record.actions[before:]
            bent += bool(made) and isinstance(made[0], Move) and len(made[0].path) > 1  # around an obstacle
        elif isinstance(inner, RangedAttack) and _bar_key(app, seat, "shoot"):
            if seat.armed is None and _tab_to(app, seat, inner.target):
                _press(app, pg.K_RETURN)
            if seat.armed is not None:
                shown = seat.preview.preview
                assert shown is not None and shown.legal
                truth = attack_odds(scene.session.state, seat.armed)
                assert shown.odds == truth  # the panel's numbers are the odds API's
                odds_checked += 1
                _press(app, pg.K_RETURN)
        elif not isinstance(inner, EndActivation) and any(inner in o.actions for o in seat.bar.options):
            i = next(i for i, o in enumerate(seat.bar.options) if inner in o.actions)
            _bar_key(app, seat, seat.bar.options[i].kind, i)
        elif st.phase is Phase.ACTION:
            _bar_key(app, seat, "end")
        else:
            i = next((i for i, o in enumerate(seat.bar.options) if o.legal and o.needs == ""), None)
            assert i is not None, (st.phase, want, [(o.kind, o.needs, o.legal, o.reason) for o in seat.bar.options])
            _bar_key(app, seat, seat.bar.options[i].kind, i)
        if len(scene.session.record.actions) == before and seat.active and not seat.armed:
            _press(app, pg.K_ESCAPE)  # the keys made no decision (a refused spot, a cut move): end or pass
            if st.phase is Phase.ACTION:
                _bar_key(app, seat, "end")
        if len(scene.session.record.actions) > before:
            kind = type(scene.session.record.actions[-1]).__name__
            done[kind] = done.get(kind, 0) + 1
    assert not app.errors, app.errors
    print("decisions made by keys:", done, "bent moves:", bent, "odds panels checked:", odds_checked)
    assert scene.session.over, (done, scene.session.state.phase, seat.note)
    assert done.get("Deploy", 0) >= 6 and done.get("Activate", 0) > 5 and done.get("Move", 0) > 3, done
    assert done.get("RangedAttack", 0) >= 1 and odds_checked >= 1, done
    assert bent >= 1 and done.get("Search", 0) >= 1, (bent, done)
    mine = {m.id for m in scene.session.state.models.values() if m.side in scene.session.human_sides}
    kinds = {e.type for e in scene.session.events if e.type in ("location_triggered", "out_of_action")}
    assert any(e.type == "location_triggered" and e.data.get("model") in mine for e in scene.session.events)
    assert "out_of_action" in kinds  # a kill in the game the keys played
    from game.sim.loop import replay

    _, events = replay(scene.session.record)
    assert [e.line() for e in events] == [e.line() for e in scene.session.events]
