"""Difficulty levels for solo play: per-hostile stat changes from game/data/difficulty.toml (HOSTILE-8.3.SCALING,
HOSTILE-8.3.WEAPONS; setting `hostiles.difficulty`)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from game.core.catalog.profiles import Catalog, CatalogError, HostileProfile

FILE = "difficulty.toml"
BOOK = "book"  # the stat table unchanged: no table in the file
STATS = ("move", "ca", "armor", "will", "fp", "damage", "wounds")
ATTACK_STATS = ("fp", "damage")  # changed on every attack of the hostile
RULE = "HOSTILE-8.3.SCALING"


@dataclass(frozen=True, slots=True)
class Level:
    """One difficulty level: its name, what it stands for, and per hostile id the changes added to each stat."""

    id: str
    name: str
    doc: str
    changes: Mapping[str, Mapping[str, float | int]]


@dataclass(frozen=True, slots=True)
class Difficulty:
    """Every level of difficulty.toml and the [floor, ceiling] of each stat no change crosses."""

    bounds: Mapping[str, tuple[float | int, float | int]]
    levels: Mapping[str, Level]

    def level(self, id: str) -> Level | None:
        """The level's table; None for "book" (no change). An id without a table is a CatalogError."""
        if id == BOOK:
            return None
        if id not in self.levels:
            raise CatalogError(f"{FILE}: setting 'hostiles.difficulty' = {id!r} has no table [{id}]; "
                               f"levels: {[BOOK, *self.levels]}")
        return self.levels[id]


def _number(value: object, where: str, *, inches: bool) -> float | int:
    ok = isinstance(value, int) and not isinstance(value, bool) or inches and isinstance(value, float)
    if not ok:
        want = "a number of inches" if inches else "a whole number"
        raise CatalogError(f"{where}: expected {want}, got {type(value).__name__} {value!r}")
    assert isinstance(value, (int, float))
    return float(value) if inches else value


def _bounds(raw: object) -> dict[str, tuple[float | int, float | int]]:
    where = f"{FILE} [bounds]"
    if not isinstance(raw, dict):
        raise CatalogError(f"{where}: missing; give [floor, ceiling] for each of {list(STATS)}")
    out: dict[str, tuple[float | int, float | int]] = {}
    for stat in STATS:
        pair = raw.get(stat)
        if not isinstance(pair, list) or len(pair) != 2:
            raise CatalogError(f"{where}.{stat}: expected [floor, ceiling], got {pair!r}")
        lo, hi = (_number(v, f"{where}.{stat}", inches=stat == "move") for v in pair)
        if lo > hi:
            raise CatalogError(f"{where}.{stat}: floor {lo} is above ceiling {hi}")
        out[stat] = (lo, hi)
    extra = sorted(set(raw) - set(STATS))
    if extra:
        raise CatalogError(f"{where}.{extra[0]}: unknown stat; allowed: {list(STATS)}")
    return out


def _level(id: str, raw: object, hostiles: Mapping[str, HostileProfile]) -> Level:
    where = f"{FILE} [{id}]"
    if id == BOOK:
        raise CatalogError(f"{where}: 'book' is the stat table unchanged and takes no table")
    if not isinstance(raw, dict):
        raise CatalogError(f"{where}: expected a table, got {type(raw).__name__}")
    text = {}
    for key in ("name", "doc"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise CatalogError(f"{where}.{key}: missing or empty; give a string")
        text[key] = raw[key]
    changes: dict[str, Mapping[str, float | int]] = {}
    for hid, body in raw.items():
        if hid in ("name", "doc"):
            continue
        if hid not in hostiles:
            raise CatalogError(f"{where}.{hid}: unknown hostile; known (hostiles.toml): {sorted(hostiles)}")
        if not isinstance(body, dict):
            raise CatalogError(f"{where}.{hid}: expected a table of stat changes, e.g. {{ ca = 1 }}")
        row: dict[str, float | int] = {}
        for stat, delta in body.items():
            if stat not in STATS:
                raise CatalogError(f"{where}.{hid}.{stat}: unknown stat; allowed: {list(STATS)}")
            if stat == "will" and hostiles[hid].will is None:
                raise CatalogError(f"{where}.{hid}.will: {hostiles[hid].name} have Will NA (GAP-22); no level "
                                   "changes it")
            row[stat] = _number(delta, f"{where}.{hid}.{stat}", inches=stat == "move")
        changes[hid] = MappingProxyType(row)
    return Level(id, text["name"], text["doc"], MappingProxyType(changes))


def parse_difficulty(raw: Mapping[str, Any], hostiles: Mapping[str, HostileProfile]) -> Difficulty:
    """Every level of difficulty.toml, checked against the hostiles it names; errors name the file, the level,
    the hostile and the stat."""
    bounds = _bounds(raw.get("bounds"))
    levels = {id: _level(id, body, hostiles) for id, body in raw.items() if id != "bounds"}
    return Difficulty(MappingProxyType(bounds), MappingProxyType(levels))


def shifted(value: float | int, delta: float | int, lo: float | int, hi: float | int) -> float | int:
    """`value` + `delta`, never past the bound it moves toward, and never further past a bound it already
    crossed (HOSTILE-8.3.SCALING; FP 1-3 by HOSTILE-8.3.WEAPONS).

    >>> shifted(1, 1, 1, 3), shifted(2, 2, 1, 3), shifted(1, -1, 1, 3), shifted(5, 1, 1, 3), shifted(5, -1, 1, 3)
    (2, 3, 1, 5, 4)
    """
    new = value + delta
    if delta > 0:
        return min(new, max(value, hi))
    if delta < 0:
        return max(new, min(value, lo))
    return value


def apply_level(hostiles: Mapping[str, HostileProfile], difficulty: Difficulty,
                level: str) -> dict[str, HostileProfile]:
    """The stat lines at a difficulty level: each change of its table added within [bounds]; "book" changes
    nothing. Applied once, when the catalog is built, so spawn, the Zone's agent, the odds and the referee all
    read the same numbers (HOSTILE-8.3.SCALING)."""
    out = dict(hostiles)
    table = difficulty.level(level)
    if table is None:
        return out
    b = difficulty.bounds
    for hid, row in table.changes.items():
        h = out[hid]
        fields: dict[str, Any] = {}
        for stat, delta in row.items():
            if stat in ATTACK_STATS:
                continue
            old = getattr(h, stat)
            fields[stat] = shifted(old, delta, *b[stat])
        fp, dmg = row.get("fp", 0), row.get("damage", 0)
        attacks = tuple(replace(a, fp=int(shifted(a.fp, fp, *b["fp"])),
                                damage=int(shifted(a.damage, dmg, *b["damage"]))) for a in h.attacks)
        if "move" in fields:
            fields["move"] = float(fields["move"])
        out[hid] = replace(h, attacks=attacks, **fields)
    return out


def scaled(cat: Catalog, hostile: str, stat: str, value: float | int) -> float | int:
    """A stat a scenario writes for a hostile (HOSTILE-8.3.SUBSTITUTE: Game Two's Big Nikolai, CA 5) at the
    catalog's difficulty level: the level's change for that hostile and stat within [bounds], as `apply_level`
    gives the hostiles.toml line (HOSTILE-8.3.SCALING); `value` itself at "book" or without a change.

    >>> from game.core.catalog import load_catalog
    >>> from game.core.settings import Settings
    >>> hard = load_catalog(Settings({"hostiles.difficulty": "hard"}))
    >>> scaled(hard, "bandit", "ca", 5), scaled(hard, "bandit", "move", 6.0), scaled(load_catalog(), "bandit", "ca", 5)
    (6, 6.0, 5)
    """
    delta = cat.difficulty_changes.get(hostile, {}).get(stat)
    if delta is None:
        return value
    return shifted(value, delta, *cat.difficulty_bounds[stat])


NAMES = MappingProxyType({"move": "Move", "ca": "CA", "armor": "Armor", "will": "Will", "fp": "FP", "damage": "Dmg",
                          "wounds": "Wounds"})


def changes_text(changes: Mapping[str, float | int]) -> str:
    """One hostile's changes at one level as the docs list them, in stat order; "-" for none.

    >>> changes_text({"fp": 1, "move": 1.0}), changes_text({"ca": -1, "will": -1}), changes_text({})
    ('Move +1", FP +1', 'CA -1, Will -1', '-')
    """
    parts = [f"{NAMES[s]} {changes[s]:+g}" + ('"' if s == "move" else "") for s in STATS if s in changes]
    return ", ".join(parts) or "-"
