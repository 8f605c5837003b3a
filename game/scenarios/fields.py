"""Typed reads of a parsed TOML table that record a Problem instead of raising (game.scenarios.problems)."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from game.scenarios.problems import Collector

MISSING = object()


def keys(c: Collector, table: Mapping[str, Any], path: str, allowed: Sequence[str]) -> None:
    """Every key of the table is one the format knows."""
    for k in table:
        if k not in allowed:
            c.add(f"{path}{k}" if not path or path.endswith(".") else f"{path}.{k}", "unknown field",
                  ", ".join(allowed))


def _at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def integer(c: Collector, table: Mapping[str, Any], key: str, path: str = "", *, lo: int | None = None,
            hi: int | None = None, default: Any = MISSING) -> Any:
    """A whole number in [lo, hi]; `default` when absent (absent without a default: a problem, None)."""
    f = _at(path, key)
    rng = f"a whole number{'' if lo is None else f' >= {lo}'}{'' if hi is None else f' and <= {hi}'}"
    if key not in table:
        if default is MISSING:
            c.add(f, "missing", rng)
            return None
        return default
    v = table[key]
    if isinstance(v, bool) or not isinstance(v, int):
        c.add(f, f"is {v!r} ({type(v).__name__})", rng)
        return None
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        c.add(f, f"is {v}", rng)
        return None
    return v


def number(c: Collector, table: Mapping[str, Any], key: str, path: str = "", *, lo: float | None = None,
           hi: float | None = None, default: Any = MISSING) -> Any:
    f = _at(path, key)
    rng = f"a number{'' if lo is None else f' >= {lo:g}'}{'' if hi is None else f' and <= {hi:g}'}"
    if key not in table:
        if default is MISSING:
            c.add(f, "missing", rng)
            return None
        return default
    v = table[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        c.add(f, f"is {v!r}", rng)
        return None
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        c.add(f, f"is {v:g}", rng)
        return None
    return float(v)


def text(c: Collector, table: Mapping[str, Any], key: str, path: str = "", *, default: Any = MISSING,
         choices: Sequence[str] | None = None, allowed: str = "a non-empty string") -> Any:
    f = _at(path, key)
    what = ", ".join(choices) if choices is not None else allowed
    if key not in table:
        if default is MISSING:
            c.add(f, "missing", what)
            return None
        return default
    v = table[key]
    if not isinstance(v, str) or not v.strip():
        c.add(f, f"is {v!r}", what)
        return None
    if choices is not None and v not in choices:
        c.add(f, f"is {v!r}", what)
        return None
    return v


def boolean(c: Collector, table: Mapping[str, Any], key: str, path: str = "", *, default: bool) -> bool:
    if key not in table:
        return default
    v = table[key]
    if not isinstance(v, bool):
        c.add(_at(path, key), f"is {v!r}", "true or false")
        return default
    return v


def strings(c: Collector, table: Mapping[str, Any], key: str, path: str = "", *, default: Any = MISSING) -> Any:
    """A list of non-empty strings."""
    f = _at(path, key)
    if key not in table:
        if default is MISSING:
            c.add(f, "missing", "a list of strings")
            return None
        return default
    v = table[key]
    if not isinstance(v, list) or not all(isinstance(x, str) and x.strip() for x in v):
        c.add(f, f"is {v!r}", "a list of non-empty strings")
        return None
    return list(v)


def point(c: Collector, v: Any, field: str) -> tuple[float, float] | None:
    """[x, y] in inches."""
    if (not isinstance(v, list) or len(v) != 2
            or not all(not isinstance(x, bool) and isinstance(x, (int, float)) and math.isfinite(x) for x in v)):
        c.add(field, f"is {v!r}", "a point [x, y] in inches")
        return None
    return (float(v[0]), float(v[1]))


def table(c: Collector, parent: Mapping[str, Any], key: str, path: str = "") -> dict[str, Any] | None:
    """A sub-table, or None when absent (a problem when present but not a table)."""
    if key not in parent:
        return None
    v = parent[key]
    if not isinstance(v, dict):
        c.add(_at(path, key), f"is {v!r}", "a table")
        return None
    return v


def counts(c: Collector, v: Any, field: str, known: Sequence[str], what: str) -> tuple[tuple[str, int], ...]:
    """{id = n, ...} with ids from `known` and n >= 1."""
    if not isinstance(v, dict):
        c.add(field, f"is {v!r}", f"a table {{{what} = count}}")
        return ()
    out = []
    for k, n in v.items():
        if k not in known:
            c.add(f"{field}.{k}", f"unknown {what}", ", ".join(sorted(known)))
            continue
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            c.add(f"{field}.{k}", f"is {n!r}", "a whole number >= 1")
            continue
        out.append((k, n))
    return tuple(out)
