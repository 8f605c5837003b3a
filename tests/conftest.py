"""Session fixtures: the compiled kernels are warmed once for the whole run, so test durations show the tests."""
from __future__ import annotations

import os
import time

import pytest

from tests.paths import MAPS


@pytest.fixture(scope="session", autouse=True)
def warm_compiled_kernels() -> None:
    """Compile (or load from numba's disk cache) every sight, cover, batch and reach kernel once, on the sandbox
    table, before the first test: the JIT's first-call cost lands here, not in whichever test calls first."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.core.battlefield import Base, Scene
    from game.core.geometry.movement.paths import shortest_path
    from game.core.geometry.movement.reach import reach
    from game.core.geometry.sight.batch import all_pairs
    from game.core.geometry.sight.cover import cover_against
    from game.core.geometry.sight.los import line_of_sight
    from game.maps.loader import load_map

    t0 = time.perf_counter()
    bf = load_map(MAPS / "sandbox.tmx")
    a = Base("warm-a", 3.0, 3.0, 0.0, 0.5, 1.25, "a")
    b = Base("warm-b", bf.width - 3.0, bf.height - 3.0, 0.0, 0.5, 1.25, "b")
    scene = Scene(bases=(a, b))
    line_of_sight(bf, scene, a.id, b.id)
    cover_against(bf, scene, a.id, b.id)
    all_pairs(bf, scene)
    reach(bf, (a.x, a.y, a.z), 6.0, radius=a.radius, height=a.height, others=(b,), side="a")
    shortest_path(bf, (a.x, a.y, a.z), (a.x + 6.0, a.y + 4.0, 0.0), radius=a.radius, height=a.height)
    print(f"\n[conftest] compiled kernels warm in {time.perf_counter() - t0:.2f} s")
