"""The player's seat (issue 18): from an input to the preview on screen, headless at 1920x1080.

Workload: maps/ishikhov.tmx (Game Three) mid-game: the first crew is the player's seat, played to turn 3 by the crew
autopilot and on to an activation of one of its one-model units with a Move open; the rival crew and the Zone are
their agents. The battle screen is built on that state with the seat (the action bar, the profile card, the
preview panels) and the table at rest. Then, with the move chosen (the reach bands made once per state, as the seat
does), many distinct seeded cursor moves over new destinations within 10" of the model: each timed from the posted
MOUSEMOTION to the end of the frame that draws its path, length, allowance, Reaction Radius warning and exposure
(`App.step` under a fixed time step, where the seat makes the preview in the frame); then, with Shoot chosen, a
click on each enemy in turn, to the frame that shows the LOS rays and the odds panel (the attack preview).
Baseline, in the same process on the same screen: a frame with no input. Figure: input_to_preview_ms (p95, goal
50 ms); the Move's reach bands for the activation (once per state, off the frame loop in a real window) beside it.
"""
from __future__ import annotations

import math
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from game.benchmarks.goals import Better, Goal, goal_note

GOALS = (Goal("input_to_preview_ms", Better.LOWER, 50.0),)
SIZE = (1920, 1080)
SCENARIO = "ishikhov"


def _p(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def _seat_state(seed: int, turn: int) -> Any:
    """Ishikhov with the first crew at the seat, played by the autopilot to `turn` and on to a Move it could make."""
    from game.client.driver import InlineDriver
    from game.client.session import open_session
    from game.client.setup import HUMAN, GameSetup
    from game.core.state import Phase
    from game.sim.simulate import AGENTS

    s = open_session(GameSetup(scenario=SCENARIO, seed=seed, agents=(HUMAN, "normal"), autoplay=False))
    d = InlineDriver(s)
    brain = AGENTS["normal"](seed)
    while not s.over:
        st = s.state
        if s.human_to_decide():
            act = st.activation
            if (st.turn >= turn and st.phase is Phase.ACTION and act is not None and act.spent == 0
                    and len(st.units[act.unit].models) == 1):
                return s
            s.apply(brain.choose(st))
            continue
        action = d.next_action()
        assert action is not None
        s.apply(action)
    raise RuntimeError(f"{SCENARIO} seed {seed}: the game ended before a seat's Move on turn {turn}")


def run(quick: bool, say: Callable[[str], None]) -> dict[str, float]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from game.client.app import App
    from game.client.battle import BattleScene

    n_moves = 60 if quick else 240
    say(f"workload: the seat's previews at {SIZE[0]}x{SIZE[1]} on {SCENARIO} mid-game (turn 3+, a one-model crew "
        f"unit to act): {n_moves} distinct seeded cursor moves over destinations within 10\", then a click on each "
        "enemy with Shoot chosen; each timed from the posted event to the end of the frame that shows the preview")
    t0 = time.perf_counter()
    session = _seat_state(seed=11, turn=3)
    st = session.state
    say(f"  seat reached in {time.perf_counter() - t0:.1f} s: turn {st.turn}, {len(session.events)} events, "
        f"{st.activation.unit} to act")
    app = App(SIZE, fixed_dt=1 / 60)
    scene = BattleScene(app, session, inline=True)
    scene.playing = False
    app.push(scene)
    seat = scene.seat
    try:
        for _ in range(40):
            app.step([])
        base: list[float] = []
        for _ in range(60):
            t = time.perf_counter()
            app.step([])
            base.append((time.perf_counter() - t) * 1e3)
        move = next(o for o in seat.options if o.kind == "move" and o.legal)
        t = time.perf_counter()
        seat.choose(move)
        reach_ms = (time.perf_counter() - t) * 1e3
        unit = st.activation.unit
        m = st.models[st.units[unit].models[0]]
        rng = random.Random(18)
        cam = scene.board.cam
        hover: list[float] = []
        for _ in range(n_moves):
            a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.5, 10.0)
            p = (min(st.table[0], max(0.0, m.x + r * math.cos(a))), min(st.table[1], max(0.0, m.y + r * math.sin(a))))
            cam.centre_on(p) if not scene.board.rect.collidepoint(cam.to_screen(p)) else None
            s = cam.to_screen(p)
            ev = pygame.event.Event(pygame.MOUSEMOTION, pos=(round(s[0]), round(s[1])), rel=(1, 1), buttons=(0, 0, 0))
            t = time.perf_counter()
            app.step([ev])
            hover.append((time.perf_counter() - t) * 1e3)
        seat.cancel()
        shots: list[float] = []
        shoot = next((o for o in seat.options if o.kind == "shoot" and o.legal), None)
        if shoot is not None:
            targets = sorted({a.target for a in shoot.actions})
            for target in targets:
                seat.cancel()
                seat.choose(shoot)
                if seat.armed is not None:  # one target only: armed on choosing, timed as a click on it
                    seat.cancel()
                    seat.choose(shoot)
                    seat.armed = None
                tm = st.models[target]
                cam.centre_on((tm.x, tm.y))
                app.step([])
                s = cam.to_screen((tm.x, tm.y))
                pos = (round(s[0]), round(s[1]))
                evs = [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                       pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                       pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)]
                t = time.perf_counter()
                app.step(evs)
                shots.append((time.perf_counter() - t) * 1e3)
    finally:
        seat.close()
        app.close_all()
    every = hover + shots
    floor = statistics.median(base)
    p95 = _p(every, 0.95)
    say(f"  baseline (a frame with no input on the same screen): median {floor:.2f} ms")
    say(f"  destination hovers: median {statistics.median(hover):.1f} ms, p95 {_p(hover, 0.95):.1f}, max "
        f"{max(hover):.1f} ms over {len(hover)}")
    if shots:
        say(f"  target clicks (LOS rays + odds panel): median {statistics.median(shots):.1f} ms, max "
            f"{max(shots):.1f} ms over {len(shots)} enemies")
    else:
        say("  target clicks: the unit had no legal shot in this state")
    say(f"  reach bands for the Move (once per state; a thread in a real window): {reach_ms:.0f} ms")
    say(f"input_to_preview_ms {p95:.1f} p95 over {len(every)} inputs ({p95 / floor:.1f}x the no-input frame); "
        f"{goal_note(GOALS, 'input_to_preview_ms', p95)}")
    return {"input_to_preview_ms": round(p95, 1)}
