"""Client tests run headless: SDL's dummy video and audio drivers, chosen before pygame starts (TECH-NOTES)."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture
def app() -> Iterator[object]:
    """A headless App at 1280x720 with a fixed 1/60 s step (frames are deterministic)."""
    from game.client.app import App

    a = App((1280, 720), fixed_dt=1 / 60)
    yield a
