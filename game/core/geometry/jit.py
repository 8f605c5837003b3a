"""Lazy numba compilation of pure-Python kernel modules, with the plain functions as the fallback.

`compile_kernels(modules)` clones every function defined in the given modules with a globals table in which
the kernel names point to their compiled twins, wraps each in `numba.njit(cache=True)` (compiled on first call,
cached on disk beside the source) and returns them as one namespace. Without numba, or with
`ZONA_ALFA_NO_JIT=1`, the namespace holds the plain Python functions: the same answers, slower. Nothing is
compiled at import of `game.core`.
"""
from __future__ import annotations

import inspect
import os
import types


def kernel_functions(mod: types.ModuleType) -> dict[str, types.FunctionType]:
    """The functions a kernel module defines itself (not the ones it imports)."""
    return {name: f for name, f in vars(mod).items() if inspect.isfunction(f) and f.__module__ == mod.__name__}


def compile_kernels(modules: tuple[types.ModuleType, ...]) -> types.SimpleNamespace:
    """The compiled kernels of `modules` (numba.njit, cache=True), or the Python ones when JIT is off."""
    funcs: dict[str, types.FunctionType] = {}
    for mod in modules:
        funcs.update(kernel_functions(mod))
    if os.environ.get("ZONA_ALFA_NO_JIT") == "1":
        return types.SimpleNamespace(compiled=False, **funcs)
    try:
        import numba
    except ImportError:
        return types.SimpleNamespace(compiled=False, **funcs)
    tables = {mod.__name__: dict(vars(mod)) for mod in modules}
    compiled: dict[str, object] = {}
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
