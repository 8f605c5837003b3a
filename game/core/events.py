"""Events: what `apply` reports, each citing its rule IDs; serialised as canonical JSON lines."""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias, cast

# JSON data as the core writes it (events, actions, state, records): read-only containers, so a list[str]
# or a dict[str, int] is JSON too. Data read back from json.loads is Any until a from_json validates it.
JSONScalar: TypeAlias = "str | int | float | bool | None"
JSONValue: TypeAlias = "JSONScalar | Sequence[JSONValue] | Mapping[str, JSONValue]"
JSONObject: TypeAlias = "dict[str, JSONValue]"


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: a type, the rule IDs behind it and plain data (docs/events.md)."""

    type: str
    rules: tuple[str, ...]
    data: dict[str, Any] = field(default_factory=dict)  # plain JSON data; its keys depend on `type`
    seq: int = 0

    def to_json(self) -> JSONObject:
        return {"seq": self.seq, "type": self.type, "rules": list(self.rules),
                **{k: _round(v) for k, v in self.data.items()}}

    def line(self) -> str:
        """Canonical JSON line: sorted keys, coordinates rounded to 1e-6 (record determinism)."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))


def _round(v: object) -> JSONValue:
    if isinstance(v, float):
        r = round(v, 6)
        return 0.0 if r == 0 else r
    if isinstance(v, dict):
        return {k: _round(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_round(x) for x in v]
    return cast(JSONValue, v)  # a scalar: event data is plain JSON data by contract (docs/events.md)


def _fmt_num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def describe(e: Event) -> str:
    """A readable one-line account of an event for the log printed to players."""
    d = e.data
    rules = ", ".join(e.rules)
    t = e.type
    if t == "roll":
        faces = " ".join(str(f) for f in d["dice"])
        crit = f", critical {d['crit']}" if d.get("crit") not in (None, "none") else ""
        return (f"  roll {d['what']} for {d['who']}: [{faces}] vs {d['tn_text']} -> "
                f"{d['successes']} success{'es' if d['successes'] != 1 else ''}{crit}  ({rules})")
    if t == "move":
        pts = " -> ".join(f"({_fmt_num(x)},{_fmt_num(y)})" for x, y in d["path"])
        return (f"  {d['unit']} moves {_fmt_num(d['length'])}\" of {_fmt_num(d['allowance'])}\" "
                f"[{d['allowance_text']}]: {pts}  ({rules})")
    if t == "activation_start":
        return f"{d['side']} activates {d['unit']} with {d['budget']} action(s)  ({rules})"
    if t == "turn_start":
        return f"=== Turn {d['turn']} of {d['turn_limit']} ===  ({rules})"
    if t == "initiative":
        rolls = ", ".join(f"{s}: {r['die']} - {r['pinned_units']} pinned = {r['result']}" for s,
                          r in d["rolls"].items())
        return f"initiative: {rolls}  ({rules})"
    if t == "deploy":
        return f"  {d['model']} deployed at ({_fmt_num(d['x'])},{_fmt_num(d['y'])})  ({rules})"
    if t == "attack" and d.get("kind") == "ranged":
        extra = ", aimed" if d.get("aim") else ""
        extra += ", into a melee" if d.get("into_melee") else ""
        return (f"  {d['attacker']} shoots {d['target']} with {d['weapon']} at {_fmt_num(d['distance'])}\": "
                f"{d['dice']} dice, Damage {d['damage']}, cover {d['cover']}, {d['obstructions']} obstruction(s)"
                f"{extra}  ({rules})")
    if t == "attack" and d.get("kind") == "blast":
        return (f"  {d['attacker']} fires/throws {d['weapon']} at ({_fmt_num(d['point'][0])},"
                f"{_fmt_num(d['point'][1])}), {d['indirect']}  ({rules})")
    if t == "hits_resolved":
        return (f"  {d['model']}: {d['hits']} hit(s) -> {d['wounds']} Wound(s), {d['deflected']} deflected"
                f"  ({rules})")
    if t == "template":
        hit = ", ".join(f"{m['model']} ({m['effect']})" for m in d["models"]) or "nobody"
        return f"  {d['kind']} template touches: {hit}  ({rules})"
    if t == "deviation":
        return (f"  missed: the template drifts {_fmt_num(d['distance'])}\" (D10 {d['d10']}) to "
                f"({_fmt_num(d['point'][0])},{_fmt_num(d['point'][1])})  ({rules})")
    if t == "wounded":
        return f"  {d['model']} takes {d['wounds']} Wound(s) ({d['wounds_taken']}/{d['wounds_max']})  ({rules})"
    if t == "out_of_action":
        return f"  {d['model']} is Out of Action: {d['reason']}  ({rules})"
    if t == "pinned":
        return f"  {d['unit']} gains {d['added']} Pin(s) -> {d['pins']}: {d['reason']}  ({rules})"
    if t == "melee_round":
        return (f"  melee: {d['attacker']} scores {d['attacker_hits']}, {d['defender']} ({d['defender_weapon']}) "
                f"scores {d['defender_hits']}  ({rules})")
    parts = ", ".join(f"{k}={v}" for k, v in d.items())
    return f"  {t}: {parts}  ({rules})"
