"""`zona-alfa play`: open the game's window (the title screen, or straight into a scenario with --scenario or
--autoplay). Every argument is checked, and the game built, before the window opens, so a bad one is refused in one
line (exit 2) with no window. This module imports no pygame, pymunk or pygame_gui: the window's modules are imported
in `run`, so the rest of the command line works without them."""
from __future__ import annotations

import argparse
import os
import re
import sys

from game.sim.options import SEED_MAX, fail, output_problem, seed_arg

COMMAND = "play"
FRAMES_MAX = 1_000_000
SIZE_MIN = (960, 600)
SIZE_MAX = (7680, 4320)
INVISIBLE = ("offscreen", "dummy")  # SDL video drivers that draw to no screen


def frames_arg(text: str) -> int:
    try:
        value = int(text.strip(), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number of frames; give 1 to "
                                         f"{FRAMES_MAX}") from None
    if not 1 <= value <= FRAMES_MAX:
        raise argparse.ArgumentTypeError(f"{value} frames is out of range; give 1 to {FRAMES_MAX}")
    return value


def size_arg(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d{1,5})\s*[xX]\s*(\d{1,5})\s*", text)
    if m is None:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a window size; write WIDTHxHEIGHT, e.g. 1920x1080")
    w, h = int(m.group(1)), int(m.group(2))
    if not (SIZE_MIN[0] <= w <= SIZE_MAX[0] and SIZE_MIN[1] <= h <= SIZE_MAX[1]):
        raise argparse.ArgumentTypeError(f"{w}x{h} is out of range; the window is {SIZE_MIN[0]}x{SIZE_MIN[1]} to "
                                         f"{SIZE_MAX[0]}x{SIZE_MAX[1]}")
    return w, h


def add_arguments(p: argparse.ArgumentParser) -> None:
    from game.sim.simulate import AGENTS, DEFAULT_AGENT

    p.add_argument("--scenario", metavar="NAME|FILE",
                   help="start this scenario at once (crossroads-blyatsk, chernya-woods, ishikhov, or a scenario "
                        "file); without it the title screen opens")
    p.add_argument("--seed", type=seed_arg, default=1, help=f"the game's seed, 0 to {SEED_MAX} (default 1)")
    p.add_argument("--crews", metavar="A,B", help="the crews, starter crew names or roster files, one per "
                                                  "deployment zone (default: the scenario's own)")
    p.add_argument("--agents", metavar="A,B",
                   help=f"who plays each crew: human (you, at this computer) or an agent, {', '.join(sorted(AGENTS))} "
                        f"(default {DEFAULT_AGENT}); the Zone's agent plays every hostile")
    p.add_argument("--solo", action="store_true",
                   help="one crew (the scenario's first, or the one --crews names) alone against the Zone")
    p.add_argument("--difficulty", metavar="LEVEL",
                   help="the Zone's hostiles at a difficulty level: book (default), easy, hard or brutal "
                        "(setting hostiles.difficulty, HOSTILE-8.3.SCALING)")
    p.add_argument("--autoplay", action="store_true",
                   help="the agents play from the first frame (without it the game waits for Space); without "
                        "--scenario it starts crossroads-blyatsk")
    p.add_argument("--screenshot", metavar="FILE",
                   help="render headless, --frames N frames with a fixed 1/60 s step (autoplay paced per frame, so "
                        "frame N is a deterministic point of the game), save the window as a PNG and exit")
    p.add_argument("--frames", type=frames_arg, default=None, metavar="N",
                   help="with --screenshot: how many frames to render (default 120)")
    p.add_argument("--record", metavar="FILE",
                   help="write the replayable record when the game ends or the window closes (`zona-alfa replay "
                        "FILE`); checked writable before the window opens")
    p.add_argument("--size", type=size_arg, default=None, metavar="WxH",
                   help="the window size in pixels (default 1280x720; 960x600 at least)")
    p.epilog = ("exit status: 0 the window was closed (or the screenshot written); 2 a bad argument, scenario or crew "
                "(one line names it, no window opens); 1 no display to open a window on")


def run(args: argparse.Namespace) -> int:
    if args.frames is not None and args.screenshot is None:
        return fail(COMMAND, "--frames", "only means something with --screenshot FILE")
    if args.crews is not None and args.scenario is None and not args.autoplay:
        return fail(COMMAND, "--crews", "needs --scenario (or --autoplay): the crews of which game?")
    for option, given in (("--agents", args.agents), ("--solo", args.solo or None),
                          ("--difficulty", args.difficulty)):
        if given is not None and args.scenario is None and not args.autoplay:
            return fail(COMMAND, option, "needs --scenario (or --autoplay): of which game?")
    for option, path in (("--screenshot", args.screenshot), ("--record", args.record)):
        if path is not None:
            problem = output_problem(path)
            if problem is not None:
                return fail(COMMAND, option, problem)
    if args.screenshot is not None and not args.screenshot.lower().endswith(".png"):
        return fail(COMMAND, "--screenshot", f"{args.screenshot} does not end in .png; the picture is a PNG file")
    from game.client.session import SessionError, open_session
    from game.client.setup import DEFAULT_SCENARIO, HUMAN, GameSetup

    setup = None
    if args.scenario is not None or args.autoplay:
        agents = _names(args.agents)
        setup = GameSetup(scenario=args.scenario or DEFAULT_SCENARIO, seed=args.seed,
                          crews=_names(args.crews), agents=agents, record=args.record, solo=args.solo,
                          difficulty=args.difficulty, autoplay=args.autoplay or HUMAN in (agents or ()))
        try:
            open_session(setup)  # built once here so a bad scenario, crew or agent is refused before the window
        except SessionError as exc:
            return fail(COMMAND, f"--{exc.field}", exc.problem)
    headless = args.screenshot is not None
    if headless:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    return _window(args, setup, headless)


def _names(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    return tuple(x.strip() for x in text.split(",") if x.strip())


def _window(args: argparse.Namespace, setup: object, headless: bool) -> int:
    import pygame

    from game.client.app import DEFAULT_SIZE, App

    chosen = os.environ.get("SDL_VIDEODRIVER", "")
    try:
        app = App(args.size or DEFAULT_SIZE, fixed_dt=1 / 60 if headless else None)
        driver = pygame.display.get_driver()
        if not headless and driver in INVISIBLE and chosen != driver:  # SDL fell back to a window no one sees
            pygame.quit()
            raise pygame.error(f"no display (SDL fell back to its {driver} driver)")
    except pygame.error as exc:
        print(f"zona-alfa {COMMAND}: cannot open a window: {exc}; on a machine without a display use --screenshot "
              "FILE, or run under a virtual display (xvfb-run -a zona-alfa play)", file=sys.stderr)
        return 1
    try:
        app.title()
        if setup is not None:
            app.start_game(setup)  # type: ignore[arg-type]
        app.run(frames=(args.frames or 120) if headless else None)
        if headless:
            app.save_screenshot(args.screenshot)
            print(f"zona-alfa {COMMAND}: wrote {args.screenshot} after {app.frame} frames", file=sys.stderr)
        for line in app.errors:
            print(f"zona-alfa {COMMAND}: {line}", file=sys.stderr)
    finally:
        app.close_all()
        pygame.quit()
    return 0
