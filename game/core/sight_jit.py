"""Lazy numba compilation of the shared sight kernels (GEO-10): the same source the naive reference runs.

Nothing is compiled at import: `kernels()` clones every kernel function of `game.core.crossing`,
`game.core.sightkernels` and `game.core.sightverdicts` with a globals table in which the kernel names
point to their compiled twins, wraps each in `numba.njit(cache=True)` (compiled on first call, cached on
disk beside the source), and returns them as one namespace. Without numba (or with `ZONA_ALFA_NO_JIT=1`)
the namespace holds the plain Python functions: same answers, slower.
"""
from __future__ import annotations

import inspect
import os
import types
from functools import lru_cache

from game.core import crossing, sightkernels, sightverdicts

KERNEL_MODULES = (crossing, sightkernels, sightverdicts)


def _kernel_functions(mod: types.ModuleType) -> dict[str, types.FunctionType]:
    return {
        name: f
        for name, f in vars(mod).items()
        if inspect.isfunction(f) and f.__module__ == mod.__name__
    }


@lru_cache(maxsize=1)
def kernels() -> types.SimpleNamespace:
    """The compiled kernels (numba.njit, cache=True), or the Python ones when numba is unavailable."""
    funcs: dict[str, types.FunctionType] = {}
    for mod in KERNEL_MODULES:
        funcs.update(_kernel_functions(mod))
    if os.environ.get("ZONA_ALFA_NO_JIT") == "1":
        return types.SimpleNamespace(compiled=False, **funcs)
    try:
        import numba
    except ImportError:
        return types.SimpleNamespace(compiled=False, **funcs)
    compiled: dict[str, object] = {}
    tables: dict[str, dict] = {}
    for mod in KERNEL_MODULES:
        tables[mod.__name__] = dict(vars(mod))
    for name, f in funcs.items():
        clone = types.FunctionType(f.__code__, tables[f.__module__], f.__name__, f.__defaults__, f.__closure__)
        clone.__qualname__ = f.__qualname__
        clone.__module__ = f.__module__
        compiled[name] = numba.njit(cache=True)(clone)
    for table in tables.values():
        for name in list(table):
            if name in compiled:
                table[name] = compiled[name]
    return types.SimpleNamespace(compiled=True, **compiled)
