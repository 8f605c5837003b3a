"""Lazy numba compilation of the reach kernels (GEO-27): the same source runs as Python without numba."""
from __future__ import annotations

import types
from functools import lru_cache

import game.core.geometry.movement.reach_kernels as reachkernels
from game.core.geometry.jit import compile_kernels


@lru_cache(maxsize=1)
def kernels() -> types.SimpleNamespace:
    """The compiled reach kernels (game.core.geometry.jit), or the Python ones when numba is unavailable."""
    return compile_kernels((reachkernels,))
