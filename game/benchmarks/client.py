"""The battle screen's frame times (issue 17), rendered headless at 1920x1080 (SDL's dummy driver).

Workload: maps/ishikhov.tmx (Game Three, the busiest playing table: 334 pieces) mid-game: the scenario played by
the crews' autopilots (the Zone's agent for the hostiles) to turn 3 and on to the next ranged attack and the next
template, whose LOS rays, cover, obstructions and template stay on the board; every token, leash ring and lock
line, the activation strip, the HUD and why-card, the dice tray and the event log (every line of the game so far)
on screen, and an agent deciding in the background: a worker process (game.client.driver) playing another seeded
game of the scenario the whole time. Then a scripted path of frames, each `App.step` timed (fixed 1/60 s step):
  pan: drags in seeded directions, a wheel zoom step about the cursor every 40 frames (in and out), and after each
       zoom 14 frames at rest, so the smooth tiles are re-cached (those frames are counted here);
  still: the view at rest, the mouse moving over seeded points of the board (the hover card changes).
Baseline, in the same process on the same window: a frame that only blits one cached full-window picture and
flips (the floor of any frame). Figures: frame_ms_p99_pan, frame_ms_median (all frames), frame_ms_p99_still.
"""
from __future__ import annotations

import cProfile
import io
import os
import pstats
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from game.benchmarks.goals import Better, Goal

GOALS = (Goal("frame_ms_p99_pan", Better.LOWER, 16.7),
         Goal("frame_ms_median", Better.LOWER, 8.0),
         Goal("frame_ms_p99_still", Better.LOWER, 8.0))
SIZE = (1920, 1080)
SCENARIO = "ishikhov"


def _p(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def _mid_game(seed: int, turn: int = 3) -> Any:
    """Ishikhov played to `turn` (and on until a ranged attack and a template have happened): the events of the
    last of each are returned, to be drawn together."""
    from game.client.driver import InlineDriver
    from game.client.session import open_session
    from game.client.setup import GameSetup

    s = open_session(GameSetup(scenario=SCENARIO, seed=seed, autoplay=False))
    d = InlineDriver(s)
    shot: list[Any] = []
    blast: list[Any] = []
    while not s.over:
        action = d.next_action()
        assert action is not None  # the game is not over, so the deciding side's agent chose
        new = s.apply(action)
        if any(e.type == "attack" and e.data.get("kind") == "ranged" for e in new):
            shot = new
        if any(e.type == "template" for e in new):
            blast = new
        if s.state.turn >= turn and shot and blast:
            break
    return s, shot + [e for e in blast if e not in shot]


def run(quick: bool, say: Callable[[str], None], *, frames: tuple[int, int] | None = None,
        turn: int = 3) -> dict[str, float]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from game.client.app import App
    from game.client.battle import BattleScene
    from game.client.driver import WorkerDriver
    from game.client.session import open_session
    from game.client.setup import GameSetup

    frames_pan, frames_still = frames or ((150, 90) if quick else (480, 240))
    say(f"workload: the battle screen at {SIZE[0]}x{SIZE[1]} on {SCENARIO} mid-game (turn 3+, the last ranged "
        f"attack's LOS rays and a template shown, the whole log), {frames_pan} pan/zoom frames (zoom steps with "
        f"settle re-caches) then {frames_still} still frames with the mouse moving, a worker process playing "
        "another game in the background")
    t0 = time.perf_counter()
    session, marks = _mid_game(seed=11, turn=turn)
    say(f"  mid-game reached in {time.perf_counter() - t0:.1f} s: turn {session.state.turn}, "
        f"{len(session.record.actions)} actions, {len(session.events)} events")
    app = App(SIZE, fixed_dt=1 / 60)
    t0 = time.perf_counter()
    scene = BattleScene(app, session, inline=True)
    scene.playing = False
    app.push(scene)
    scene.board.feed(marks, session.state)  # the attack's rays and the template drawn together
    say(f"  battle screen built in {time.perf_counter() - t0:.2f} s (table art at 48 px/in included)")
    background = WorkerDriver(open_session(GameSetup(scenario=SCENARIO, seed=12, autoplay=True)))
    background.start()
    rng = random.Random(17)
    board = scene.board.rect
    try:
        for _ in range(30):  # settle: the first smooth tiles, the first log lines rendered
            app.step([])
        pan: list[float] = []
        still: list[float] = []
        drained = 0
        x, y = board.center
        app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0))])
        app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1)])
        direction = (rng.uniform(-1, 1), rng.uniform(-1, 1))
        zoom_in = True
        rest = 0
        for k in range(frames_pan):
            evs = []
            if k % 40 == 20:
                evs.append(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1))
                x, y = rng.randint(board.left + 100, board.right - 100), rng.randint(board.top + 100,
                                                                                   board.bottom - 100)
                evs.append(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0)))
                evs.append(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1 if zoom_in else -1, flipped=False))
                zoom_in = not zoom_in if rng.random() < 0.5 else zoom_in
                rest = 14 + 20  # the eased zoom, then 14 frames at rest: the smooth re-cache happens in them
            elif rest > 0:
                rest -= 1
                if rest == 0:
                    evs.append(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
                    direction = (rng.uniform(-1, 1), rng.uniform(-1, 1))
            else:
                dx, dy = round(direction[0] * 14), round(direction[1] * 14)
                x, y = x + dx, y + dy
                if not board.inflate(-60, -60).collidepoint((x, y)):
                    x, y = board.center
                    direction = (-direction[0], -direction[1])
                evs.append(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(dx, dy), buttons=(1, 0, 0)))
            t = time.perf_counter()
            app.step(evs)
            pan.append((time.perf_counter() - t) * 1e3)
            if background.next_action() is not None:
                drained += 1
        app.step([pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1)])
        for _ in range(40):
            app.step([])
        for _ in range(frames_still):
            nx, ny = rng.randint(board.left + 10, board.right - 10), rng.randint(board.top + 10, board.bottom - 10)
            ev = pygame.event.Event(pygame.MOUSEMOTION, pos=(nx, ny), rel=(nx - x, ny - y), buttons=(0, 0, 0))
            x, y = nx, ny
            t = time.perf_counter()
            app.step([ev])
            still.append((time.perf_counter() - t) * 1e3)
            if background.next_action() is not None:
                drained += 1
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(60):  # where a still frame's time goes (not counted in the figures)
            nx, ny = rng.randint(board.left + 10, board.right - 10), rng.randint(board.top + 10, board.bottom - 10)
            app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=(nx, ny), rel=(1, 1), buttons=(0, 0, 0))])
        prof.disable()
        base_pic = app.screen.copy()
        base: list[float] = []
        for _ in range(120):
            t = time.perf_counter()
            app.screen.blit(base_pic, (0, 0))
            pygame.display.flip()
            base.append((time.perf_counter() - t) * 1e3)
    finally:
        background.stop()
        app.close_all()
    every = pan + still
    floor = statistics.median(base)
    out = {"frame_ms_p99_pan": _p(pan, 0.99), "frame_ms_median": statistics.median(every),
           "frame_ms_p99_still": _p(still, 0.99)}
    say(f"  baseline (blit one cached window picture + flip): median {floor:.2f} ms")
    say(f"  pan/zoom: median {statistics.median(pan):.2f} ms, p95 {_p(pan, 0.95):.2f}, "
        f"p99 {out['frame_ms_p99_pan']:.2f}, max {max(pan):.2f} ms ({out['frame_ms_p99_pan'] / floor:.1f}x "
        f"baseline at p99); smooth tiles built {scene.board.art.built}")
    say(f"  still, mouse moving: median {statistics.median(still):.2f} ms, p99 {out['frame_ms_p99_still']:.2f} ms "
        f"({out['frame_ms_p99_still'] / floor:.1f}x baseline); overlay layer redrawn {scene.board.layer.redraws} times")
    say(f"  all frames: median {out['frame_ms_median']:.2f} ms ({out['frame_ms_median'] / floor:.1f}x baseline); the "
        f"background worker sent {drained} decisions meanwhile")
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(8)
    say("  profile of 60 still frames, by own time:")
    for line in text.getvalue().splitlines():
        if line.strip() and ("{" in line or ".py:" in line):
            say("    " + line.strip())
    return out
