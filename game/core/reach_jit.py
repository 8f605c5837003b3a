"""Lazy numba compilation of the reach kernels (GEO-27): the same source runs as Python without numba.

Nothing is compiled at import: `kernels()` clones every function of `game.core.reachkernels` with a
globals table in which the kernel names point to their compiled twins, wraps each in
`numba.njit(cache=True)` (compiled on first call, cached on disk beside the source; the small helpers of
the sweep's inner loop are inlined) and returns them as one namespace. Without numba (or with
`ZONA_ALFA_NO_JIT=1`) the namespace holds the plain functions: same answers, slower.
"""
from __future__ import annotations

import inspect
import os
import types
from functools import lru_cache

from game.core import reachkernels

INLINED = ("curve_dist", "curve_point", "nearest", "norm_angle", "put", "regular")  # the sweep's inner loop


def _kernel_functions() -> dict[str, types.FunctionType]:
    return {name: f for name, f in vars(reachkernels).items()
            if inspect.isfunction(f) and f.__module__ == reachkernels.__name__}


@lru_cache(maxsize=1)
def kernels() -> types.SimpleNamespace:
    """The compiled reach kernels (numba.njit, cache=True), or the Python ones when numba is unavailable."""
    funcs = _kernel_functions()
    if os.environ.get("ZONA_ALFA_NO_JIT") == "1":
        return types.SimpleNamespace(compiled=False, **funcs)
    try:
        import numba
    except ImportError:
        return types.SimpleNamespace(compiled=False, **funcs)
    table = dict(vars(reachkernels))
    compiled: dict[str, object] = {}
    for name, f in funcs.items():
        clone = types.FunctionType(f.__code__, table, f.__name__, f.__defaults__, f.__closure__)
        clone.__qualname__ = f.__qualname__
        clone.__module__ = f.__module__
        inline = "never"  # helpers are inlined into the sweep
        compiled[name] = numba.njit(cache=True, inline=inline)(clone)
    table.update(compiled)
    return types.SimpleNamespace(compiled=True, **compiled)
