"""`zona-alfa play`: every bad argument refused in one line before a window opens (exit 2), the module light
(no pygame, pymunk or pygame_gui imported by loading it), and --screenshot writing a picture of a game in progress."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_play_module_imports_no_pygame() -> None:
    code = ("import sys; import game.cli, game.client.play_cli as p, argparse; "
            "a = argparse.ArgumentParser(); p.add_arguments(a); "
            "bad = [m for m in ('pygame', 'pymunk', 'pygame_gui') if m in sys.modules]; print(bad); "
            "sys.exit(1 if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("argv, words", [
    (["play", "--frames", "10"], "--frames: only means something with --screenshot"),
    (["play", "--screenshot", "x.png", "--frames", "0"], "out of range"),
    (["play", "--screenshot", "x.png", "--frames", "ten"], "not a whole number of frames"),
    (["play", "--screenshot", "shot.jpg"], "does not end in .png"),
    (["play", "--screenshot", "/no/such/folder/x.png"], "does not exist"),
    (["play", "--scenario", "atlantis"], "--scenario"),
    (["play", "--scenario", "crossroads-blyatsk", "--crews", "military"], "1 crew(s) given"),
    (["play", "--scenario", "crossroads-blyatsk", "--crews", "military,ghosts"], "ghosts"),
    (["play", "--scenario", "crossroads-blyatsk", "--agents", "normal,oracle"], "unknown agent 'oracle'"),
    (["play", "--crews", "military,bandits"], "--crews: needs --scenario"),
    (["play", "--agents", "normal,normal"], "--agents: needs --scenario"),
    (["play", "--seed", "-4"], "negative"),
    (["play", "--seed", str(2**64)], "over 2^64-1"),
    (["play", "--size", "10x10"], "out of range"),
    (["play", "--size", "huge"], "not a window size"),
    (["play", "--record", "/no/such/dir/r.json", "--autoplay"], "does not exist"),
])
def test_bad_arguments_are_refused_in_one_line(argv: list[str], words: str, capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    last = err.splitlines()[-1]
    assert words in last and last.startswith("zona-alfa play")  # one line names the argument and the problem
    assert "Traceback" not in err
    assert all(line.startswith(("usage:", " ")) for line in err.splitlines()[:-1])  # before it, argparse's usage


def test_a_screenshot_of_a_game_in_progress(tmp_path: Path) -> None:
    """The command of the issue's "Done when", fewer frames: tokens, a reason, the dice tray and the log drawn."""
    shot = tmp_path / "shot.png"
    rec = tmp_path / "game.json"
    out = subprocess.run([sys.executable, "-m", "game", "play", "--scenario", "crossroads-blyatsk", "--seed", "1",
                          "--autoplay", "--screenshot", str(shot), "--frames", "240", "--record", str(rec)],
                         capture_output=True, text=True, cwd=ROOT, timeout=240,
                         env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    assert out.returncode == 0, out.stderr
    assert shot.is_file() and shot.stat().st_size > 50_000
    assert "internal error" not in out.stderr and "failed" not in out.stderr
    assert rec.is_file()  # the record written when the window closed mid-game
    again = subprocess.run([sys.executable, "-m", "game", "replay", str(rec)], capture_output=True, text=True,
                           cwd=ROOT, timeout=120)
    assert again.returncode == 0, again.stderr


@pytest.mark.skipif(bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")), reason="a display exists")
def test_no_display_is_said_not_a_window_no_one_sees(tmp_path: Path) -> None:
    """Without a display SDL falls back to its offscreen driver: the command says so (exit 1) instead of running a
    window nobody can see."""
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")}
    out = subprocess.run([sys.executable, "-m", "game", "play"], capture_output=True, text=True, cwd=ROOT, timeout=60,
                         env=env)
    assert out.returncode == 1
    assert "cannot open a window" in out.stderr and "xvfb-run" in out.stderr and "Traceback" not in out.stderr
