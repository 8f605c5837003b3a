"""Lazy numba compilation of the shared sight kernels (GEO-10): the same source the naive reference runs."""
from __future__ import annotations

import types
from functools import lru_cache

import game.core.geometry.crossing as crossing
import game.core.geometry.sight.kernels as sightkernels
import game.core.geometry.sight.verdicts as sightverdicts
from game.core.geometry.jit import compile_kernels

KERNEL_MODULES = (crossing, sightkernels, sightverdicts)


@lru_cache(maxsize=1)
def kernels() -> types.SimpleNamespace:
    """The compiled sight kernels (game.core.geometry.jit), or the Python ones when numba is unavailable."""
    return compile_kernels(KERNEL_MODULES)
