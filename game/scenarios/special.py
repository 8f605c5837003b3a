"""Special rules a scenario names (`special_rules = [...]`): each is a behaviour of the Red Gypsy 3 cards that the
engine plays from the file's data, and naming it makes the loader check that the data it needs is there (a
designer who names "g3-keycard" but gives the objective no key is told so). docs/scenarios.md lists them."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from game.scenarios.problems import Collector


@dataclass(frozen=True, slots=True)
class SpecialRule:
    name: str
    rules: tuple[str, ...]
    text: str
    check: Callable[[dict[str, Any]], str | None]  # the raw file -> what is missing, or None


def _hostiles(doc: dict[str, Any]) -> list[dict[str, Any]]:
    h = doc.get("hostiles", [])
    return [x for x in h if isinstance(x, dict)] if isinstance(h, list) else []


def _objective(doc: dict[str, Any]) -> dict[str, Any]:
    o = doc.get("objective")
    return o if isinstance(o, dict) else {}


def _dogs(doc: dict[str, Any]) -> str | None:
    packs = [h for h in _hostiles(doc) if h.get("sites")]
    groups = {str(h.get("site_group")) if isinstance(h.get("site_group"), str) else None for h in packs}
    if len(packs) < 2 or len(groups) != 1 or None in groups:
        return "needs two or more [[hostiles]] with `sites` and one shared `site_group` (both packs in one " \
               "structure)"
    return None


def _vehicle(doc: dict[str, Any]) -> str | None:
    return None if isinstance(_objective(doc).get("fixed_spawn"), dict) else "needs [objective.fixed_spawn]"


def _camp(doc: dict[str, Any]) -> str | None:
    obj = _objective(doc).get("id", _objective(doc).get("anchor"))
    ok = [h for h in _hostiles(doc) if isinstance(h.get("location"), str)
          and h.get("location") in ("objective", obj) and h.get("alert") is True]
    return None if ok else "needs [[hostiles]] at the objective (`location`) with `alert = true`"


def _mobs(doc: dict[str, Any]) -> str | None:
    ok = [h for h in _hostiles(doc) if "location" not in h and h.get("converge")]
    return None if ok else "needs [[hostiles]] without a `location`, with `converge` points"


def _key(doc: dict[str, Any]) -> str | None:
    return None if isinstance(_objective(doc).get("key"), dict) else "needs [objective.key]"


SPECIAL_RULES: Mapping[str, SpecialRule] = MappingProxyType({r.name: r for r in (
    SpecialRule("g1-dog-packs", ("SCEN-10.1.CARD", "GAP-99"),
                "packs pre-placed at one site chosen at random (a D4 among four structures), leashed to it", _dogs),
    SpecialRule("g1-vehicle-crew", ("SCEN-10.1.CARD", "GAP-99"),
                "the objective spawns fixed hostiles when triggered (the zombified vehicle crew), no table roll",
                _vehicle),
    SpecialRule("g2-bandit-camp", ("SCEN-10.2.CARD", "GAP-100", "AI-S.PREPLACE"),
                "a named gang pre-placed in cover on Alert round the objective, which counts as triggered", _camp),
    SpecialRule("g3-intersection-mobs", ("SCEN-10.3.CARD", "GAP-101", "AI-S.G3ZOMBIES"),
                "mobs with no location and no leash that converge on the objective while they see no player model",
                _mobs),
    SpecialRule("g3-keycard", ("SCEN-10.3.CARD", "scen.g3_keycard"),
                "a crew without the objective's key item completes its key task before the Search", _key),
)})


def check_special(c: Collector, doc: dict[str, Any], names: list[str]) -> tuple[str, ...]:
    out = []
    for i, name in enumerate(names):
        rule = SPECIAL_RULES.get(name)
        if rule is None:
            c.add(f"special_rules[{i}]", f"unknown special rule {name!r}", ", ".join(SPECIAL_RULES))
            continue
        if name in out:
            c.add(f"special_rules[{i}]", f"{name!r} is named twice", "each special rule once")
            continue
        missing = rule.check(doc)
        if missing:
            c.add(f"special_rules[{i}]", f"{name!r} {missing}", rule.text)
        out.append(name)
    return tuple(out)
