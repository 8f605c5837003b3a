"""Events: what `apply` reports, each citing its rule IDs; serialised as canonical JSON lines."""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
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


def _pt(p: Sequence[float]) -> str:
    return f"({_fmt_num(p[0])},{_fmt_num(p[1])})"


def _n(count: int, one: str, many: str | None = None) -> str:
    """`1 die`, `2 dice`: the count with the singular or the plural."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _bearing(angle: float) -> str:
    """An angle in radians as the table reads it: degrees from east, 90 = south (y grows down the table)."""
    return f"bearing {math.degrees(angle) % 360:.0f} deg (0 east, 90 south)"


def _names(items: Iterable[object]) -> str:
    return ", ".join(str(x) for x in items) or "none"


def describe(e: Event) -> str:
    """A readable account of an event for the log printed to players: one line, or for the setup (the rosters)
    and the mission end (the result) a headline and indented lines. It shows every number the JSON has that a
    player needs: both dice of a best-of-two save, a move's cost beside its length, a template's target."""
    rules = ", ".join(e.rules)
    line = _LINES.get(e.type)
    if line is None:
        parts = ", ".join(f"{k}={v}" for k, v in e.data.items() if k != "reason")
        out = f"  {e.type}: {parts}  ({rules})"
        reason = e.data.get("reason")
        if isinstance(reason, Mapping) and reason.get("text"):
            out += f"\n      why: {reason['text']}"
        return out
    text = line(e.data)
    head, sep, rest = text.partition("\n")
    out = f"{head}  ({rules}){sep}{rest}"
    reason = e.data.get("reason", e.data.get("decision_reason"))
    if isinstance(reason, Mapping) and reason.get("text"):
        out += f"\n      why: {reason['text']}"  # the agent's reason (ZONE HOSTILE AI)
    return out


# --- one function per event type -------------------------------------------------------------------------


def _setup(d: dict[str, Any]) -> str:
    table = d.get("table") or [0, 0]
    where = f"map {d['map']} (sha256 {str(d.get('map_sha256') or '?')[:12]})" if d.get("map") else "open table"
    settings = ", ".join(f"{k}={v}" for k, v in (d.get("settings") or {}).items()) or "house defaults"
    name = d.get("scenario_name") or d["scenario"]
    lines = [f"setup: {name} ({d['scenario']}), seed {d['seed']}, {where} {_fmt_num(table[0])}\"x"
             f"{_fmt_num(table[1])}\", settings: {settings}"]
    for crew in d.get("crews") or []:
        lines.append(f"  crew {crew['name']} ({crew['side']}, {crew['controller']}), {crew['khrabrost']}K, deploys "
                     f"in {crew['zone']}:")
        for m in crew["models"]:
            will = "NA" if m["will"] is None else m["will"]
            kit = [f"weapons {_names(m['weapons'])}"]
            kit += [f"skills {_names(m['skills'])}"] if m["skills"] else []
            kit += [f"items {_names(m['items'])}"] if m["items"] else []
            kit += [f"grenades {_names(f'{g} x{n}' for g, n in m['grenades'].items())}"] if m["grenades"] else []
            level = m["level"] if m["level"] == m["experience"] else f"{m['level']} ({m['experience']})"
            lines.append(f"    {m['name']} ({m['id']}): {level}, "
                         f"{_n(m['actions'], 'action')}; Move {_fmt_num(m['move'])}\", CA {m['ca']}, "
                         f"{m['armour']} armour {m['armor']}, Will {will}, {_n(m['wounds'], 'Wound')}; "
                         + "; ".join(kit))
    return "\n".join(lines)


def _turn_limit(d: dict[str, Any]) -> str:
    if "d3" in d:
        return (f"  turn limit {d['turn_limit']} = {d['base']} + D3 {d['d3']} (D6 {d['d6']}), "
                f"{d['source']}")
    return f"  turn limit {d['turn_limit']} ({d['source']})"


def _roll(d: dict[str, Any]) -> str:
    kept = "[" + " ".join(str(f) for f in d["dice"]) + "]"
    if d.get("rolled"):  # best-of-two armour (GAP-14): every pair rolled, then the die kept from each
        pairs = " ".join("(" + " ".join(str(f) for f in p) + ")" for p in d["rolled"])
        kept = f"{pairs} keeps {kept}"
    crit = f", critical {d['crit']}" if d.get("crit") not in (None, "none") else ""
    return (f"  roll {d['what']} for {d['who']}: {kept} vs {d['tn_text']} -> "
            f"{_n(d['successes'], 'success', 'successes')}{crit}")


def _vertical(d: dict[str, Any]) -> str:
    """Where a path changes level: stairs, ladders, steps and climbs, with the height and the pieces."""
    pts, zs, kinds = d["path"], d.get("path_z") or [], d.get("segments") or []
    pieces = d.get("pieces") or []
    out = []
    for i, kind in enumerate(kinds):
        if kind == "walk" or i + 1 >= len(zs):
            continue
        dz = zs[i + 1] - zs[i]
        what = f"{kind} {'up' if dz >= 0 else 'down'} {_fmt_num(abs(dz))}\" at {_pt(pts[i])}"
        if i < len(pieces) and pieces[i]:
            what += " over piece " + ", ".join(f"#{p}" for p in pieces[i])
        out.append(what)
    return "; ".join(out)


def _move(d: dict[str, Any]) -> str:
    pts = d["path"]
    zs = d.get("path_z") or []
    length, cost = d["length"], d["cost"]
    moved = f"{_fmt_num(length)}\""
    if abs(cost - length) > 0.005:
        difficult = sum(d.get("difficult") or [])  # inches per segment, when the event carries them
        if difficult > 0:
            why = f"{_fmt_num(difficult)}\" of difficult ground"
        elif "climbed" in d:
            why = f"{_fmt_num(d['climbed'])}\" climbed at {_fmt_num(d.get('climb_rate', 2))}\" per inch"
        else:
            why = "difficult ground, low obstacles or a climb over"
        moved += f" (costs {_fmt_num(cost)}\": {why})"
    start, end = _pt(pts[0]), _pt(pts[-1])
    if zs and (zs[0] or zs[-1]):
        start, end = f"{start} z {_fmt_num(zs[0])}\"", f"{end} z {_fmt_num(zs[-1])}\""
    via = _vertical(d)
    verb = "climbs" if "climbed" in d else "moves"
    extra = f" with {_n(d['actions'], 'Move action')}" if "climbed" in d else ""
    touched = sorted({p for seg in d.get("pieces") or [] for p in seg})  # per segment, when the event has them
    if "climbed" in d and touched:
        extra += " over " + ", ".join(f"piece #{p}" for p in touched)
    who = d["unit"] if d.get("model", d["unit"]) == d["unit"] else f"{d['unit']}: {d['model']}"
    return (f"  {who} {verb} {moved} of {_fmt_num(d['allowance'])}\" [{d['allowance_text']}]{extra}: "
            f"{start} -> {end}" + (f" ({via})" if via else ""))


def _unit_move(d: dict[str, Any]) -> str:
    """CORE-3.7 / GEO-21: after the per-model lines of a multi-model unit's move, who moved and the chain."""
    stayed = f"; {_names(d['stayed'])} stayed" if d["stayed"] else ""
    if d["cohesion"]:
        chain = "in cohesion" + (" again (restored)" if d["restored"] else "")
    else:
        chain = f"out of cohesion in {len(d['groups'])} groups, {_fmt_num(d['gap'])}\" short (closing up)"
    return f"  {d['unit']} ({d['action']}): {_names(d['moved'])} moved{stayed}; {chain}"


def _jump(d: dict[str, Any]) -> str:
    check = ", with a Will check" if d.get("checked") else ""
    return (f"  {d['unit']} jumps a {_fmt_num(d['gap'])}\" gap{check}: {_pt(d['path'][0])} -> {_pt(d['path'][-1])} "
            f"onto {d['to_level']} (z {_fmt_num(d['z'])}\")")


def _attack(d: dict[str, Any]) -> str:
    kind = d.get("kind")
    if kind == "ranged":
        extra = ", aimed" if d.get("aim") else ""
        extra += ", into a melee" if d.get("into_melee") else ""
        return (f"  {d['attacker']} shoots {d['target']} with {d['weapon']} at {_fmt_num(d['distance'])}\": "
                f"{_n(d['dice'], 'die', 'dice')}, Damage {d['damage']}, cover {d['cover']}, "
                f"{_n(d['obstructions'], 'obstruction')}{extra}")
    if kind == "blast" and d.get("indirect") == "flame: no roll":
        toward = f"toward {_bearing(d['angle'])}" if "angle" in d else "along the template below"
        return f"  {d['attacker']} sprays the {d['weapon']} {toward} (no roll)"
    if kind == "blast":
        target = f"{d['at_model']} at {_pt(d['point'])}" if d.get("at_model") else _pt(d["point"])
        return f"  {d['attacker']} fires/throws {d['weapon']} at {target}, {d['indirect']}"
    if kind == "coup_de_grace":
        return f"  {d['attacker']} strikes {d['target']}, who is Out of Action: automatic, no save"
    parts = ", ".join(f"{k}={v}" for k, v in d.items())
    return f"  attack: {parts}"


def _template(d: dict[str, Any]) -> str:
    hit = ", ".join(f"{m['model']} ({m['effect']})" for m in d["models"]) or "nobody"
    if d["kind"] == "flame":
        at = f"from {_pt(d['origin'])} toward {_bearing(d['angle'])}"
    else:
        at = f"centred at {_pt(d['centre'])}"
    return f"  {d['kind']} template {at} touches: {hit}"


def _mission_end(d: dict[str, Any]) -> str:
    """TURN-11: the verdict and why, then per crew its advances, fates, kills, loot and what it carries home, then
    the locations and the Mission Objective."""
    crews = d.get("crews") or {}
    adv = d.get("advances") or {}
    if d.get("winner"):
        name = crews.get(d["winner"], d["winner"])
        how = "completed the Mission Objective" if d.get("decided_by") == "objective" else "earned the most advances"
        verdict = f"{name} ({d['winner']}) win: {how}"
    elif d.get("decided_by") == "solo":
        verdict = "no winner: the crew alone did not complete the Mission Objective"
    elif "winner" in d:
        verdict = "a draw: no Mission Objective completed and the advances are level"
    else:
        verdict = "no result recorded"
    lines = [f"=== Mission over at turn {d['turn']}: {d['reason']}; {verdict} ==="]
    if d.get("why"):
        lines.append(f"  why: {d['why']}  (SCEN-10.5.VICTORY)")
    report = d.get("report") or {}
    for side, a in adv.items():
        units = (f"{a['rival_units']} rival + {a['hostile_units']} hostile unit(s) put out" if "rival_units" in a
                 else f"{a['units_out']} rival unit(s) out of action")
        lines.append(f"  {crews.get(side, side)} ({side}): {a['total']} advance(s) = {a['survivors']} survivor(s) + "
                     f"{units} + 3 x {a['hot_spots']} Hot Spot(s) looted + "
                     f"Mission Objective {'5' if a['objective'] else '0'}  (POST-8.5.EARN)")
        r = report.get(side)
        if r:
            lines.extend(_crew_lines(r))
    if not report:
        for side, fates in (d.get("fates") or {}).items():
            lines.append(f"  {side}: " + ", ".join(f"{m} {f}" for m, f in fates.items()))
    locs = d.get("locations")
    if locs and any(v for k, v in locs.items() if k != "objectives"):
        lines.append(f"  locations: triggered {_names(locs['triggered'])}; cleared {_names(locs['cleared'])}; "
                     f"searched {_names(locs['searched'])}"
                     + (f"; anomalies {_names(locs['anomalies'])}" if locs.get("anomalies") else ""))
    mo = d.get("objective")
    if mo:
        lines.append(f"  Mission Objective {mo['location']} completed by {mo['model']} ({mo['side']}) in turn "
                     f"{mo['turn']}")
    elif locs and locs.get("objectives"):
        lines.append(f"  Mission Objective {_names(locs['objectives'])}: not completed")
    if d.get("tasks_done"):
        lines.append(f"  tasks done: {_names(d['tasks_done'])}")
    return "\n".join(lines)


def _crew_lines(r: dict[str, Any]) -> list[str]:
    names = r.get("names") or {}

    def who(ids: Iterable[str]) -> str:
        return _names(f"{names.get(i, i)} ({i})" if names.get(i, i) != i else i for i in ids)

    k = r["kills"]
    out = [f"    survived: {who(r['survived'])}; Out of Action: {who(r['ooa'])}; dead: {who(r['dead'])}",
           f"    kills: rival units {_names(k['rival'])}; hostile units {_names(k['hostile'])}; "
           f"looted {_names(r['looted'])}"]
    arts = ", ".join(f"{a['value']} ZS" + (f" (+1 {a['bonus']})" if a.get("bonus") else "") for a in r["artifacts"])
    grenades = ", ".join(f"{g} x{n}" for g, n in r["grenades"].items())
    out.append(f"    carries home: {r['salvage_value']} ZS salvage; items {_names(r['items'])}"
               + (f"; grenades {grenades}" if grenades else "") + f"; artifacts {arts or 'none'}")
    return out


def _equipment_found(d: dict[str, Any]) -> str:
    dice = "+".join(str(x) for x in d["dice"]) if len(d["dice"]) > 1 else str(d["dice"][0])
    if d.get("choice"):
        return (f"  {d['model']} rolls {d['table']} equipment: D6 {dice}, a free choice for {d['side']} "
                f"({_names(d.get('choices') or [])})")
    return f"  {d['model']} rolls {d['table']} equipment: D6 {dice} -> {d['item']} (stowed)"


def _artifact(d: dict[str, Any]) -> str:
    bonus = f" and a {d['bonus']} bonus" if d.get("bonus") else ""
    return (f"  {d['model']} takes the artifact at {d['location']}: D6 {d['roll']} -> {d['value']} ZS{bonus}; "
            f"{d['note']}" + ("; the anomaly is inert" if d.get("inert") else "; a Scrounger may take one more"))


def _salvage(d: dict[str, Any]) -> str:
    if d.get("roll") is None:
        return f"  {d['model']} searches {d['location']}: {d.get('note', 'no Salvage roll')}"
    rolls = f" + {_n(d['equipment_rolls'], 'roll')} on the {d['table']} table" if d.get("equipment_rolls") else ""
    return (f"  {d['model']} rolls Salvage at {d['location']} (TL{d['tl']}): D6 {d['roll']} -> {d['value']} ZS"
            f"{rolls}" + (" (High Radiation x2)" if d.get("high_radiation") else "")
            + ("; an Anomaly is present" if d.get("anomaly") else "") + f"; carries {d['carried']} ZS")


def _hits(d: dict[str, Any]) -> str:
    return (f"  {d['model']}: {_n(d['hits'], 'hit')} -> {_n(d['wounds'], 'Wound')}, {d['deflected']} deflected")


def _initiative(d: dict[str, Any]) -> str:
    rolls = ", ".join(f"{s}: {r['die']} - {r['pinned_units']} pinned = {r['result']}" for s, r in d["rolls"].items())
    return f"initiative ({d.get('purpose', 'turn')}): {rolls}"


_LINES: Mapping[str, Callable[[dict[str, Any]], str]] = MappingProxyType({
    "setup": _setup,
    "turn_limit": _turn_limit,
    "roll": _roll,
    "move": _move,
    "climb": _move,
    "jump": _jump,
    "unit_move": _unit_move,
    "attack": _attack,
    "template": _template,
    "mission_end": _mission_end,
    "hits_resolved": _hits,
    "initiative": _initiative,
    "activation_start": lambda d: f"{d['side']} activates {d['unit']} with {_n(d['budget'], 'action')}",
    "turn_start": lambda d: f"=== Turn {d['turn']} of {d['turn_limit']} ===",
    "deploy": lambda d: f"  {d['model']} deployed at {_pt((d['x'], d['y']))}"
                        + (f" z {_fmt_num(d['z'])}\"" if d.get("z") else ""),
    "deviation": lambda d: (f"  missed: the template drifts {_fmt_num(d['distance'])}\" (D10 {d['d10']}, "
                            f"{_bearing(d['angle'])}) to {_pt(d['point'])}"),
    "wounded": lambda d: (f"  {d['model']} takes {_n(d['wounds'], 'Wound')} "
                          f"({d['wounds_taken']}/{d['wounds_max']})"),
    "out_of_action": lambda d: f"  {d['model']} is Out of Action: {d['reason']}",
    "pinned": lambda d: f"  {d['unit']} gains {_n(d['added'], 'Pin')} -> {d['pins']}: {d['reason']}",
    "location_triggered": lambda d: (f"  {d['model']} ({d['side']}) triggers {d['name']} ({d['kind']}, TL{d['tl']}): "
                                     f"{_fmt_num(d['distance'])}\" from its point, within {_fmt_num(d['limit'])}\""
                                     + (" (again)" if d.get("again") else "")),
    "inspect": lambda d: (f"  {d['model']} inspects {d['location']} from {_fmt_num(d['distance'])}\" (range "
                          f"{_fmt_num(d['limit'])}\"{', binoculars' if d.get('binoculars') else ''}): {d['side']} may "
                          f"shift its Zone Hostiles roll by up to {d['shift']} this turn"),
    "bolt_toss": lambda d: (f"  {d['model']} tosses a bolt at {d['location']} {_pt(d['point'])}: "
                            + ("it lands in the Reaction Radius" if d["success"]
                               else "it falls short, nothing happens")),
    "hostile_roll": lambda d: ("  " + str(d.get("note")) if d.get("roll") is None else
                               f"  {d['side']} rolls the Zone Hostiles Table for {d['location']} (TL{d['tl']}): D6 "
                               f"{d['roll']}" + (f", Inspect lets it pick {_names(d['choices'])}"
                                                 if len(d.get("choices") or []) > 1 else "")),
    "hostile_roll_chosen": lambda d: f"  {d['side']} picks {d['result']} (rolled {d['roll']}) for {d['location']}",
    "hostile_site_chosen": lambda d: (f"  {d['hostile']} of {d['group']} stand at {d['site']} {_pt(d['point'])}, "
                                      f"chosen among {_names(d['sites'])}"
                                      + (f" ({d['die']} {_names(str(r) for r in d['rolls'])})" if d["rolls"] else "")),
    "hostiles_placed": lambda d: (f"  {d['unit']}" + (f" ({d['name']})" if d.get("name") else "")
                                  + f" placed at {_names(_pt(p) for p in d['positions'])}"
                                  + (f" guarding {d['location']}" if d.get("location") else
                                     (f" at {d['site']}" if d.get("site") else ""))
                                  + (f", {d['cover']} cover" if d.get("in_cover") else "")
                                  + (", on Alert" if d.get("alert") else "")
                                  + f"; {_n(d['actions'], 'action')} each activation"),
    "hostiles_spawned": lambda d: (f"  Zone Hostiles at {d['location']}: {d['unit']}, {d['name']} x"
                                   f"{len(d['models'])}, at {_names(_pt(p) for p in d['positions'])}; "
                                   f"{_n(d['actions'], 'action')} each activation"
                                   + ("; an Anomaly is present" if d.get("anomaly") else "")),
    "free_move": lambda d: f"  {d['unit']} " + ("makes its free move" if d["moved"] else "stays where it appeared"),
    "force_joins": lambda d: (f"  {d['side']} joins the activation order" + (" this turn" if d["this_turn"]
                                                                          else " from next turn")
                              + f": {_names(d['order'])}"),
    "target_locked": lambda d: (f"  {d['unit']} locks onto {d['target']} ({_fmt_num(d['distance'])}\", pen "
                                f"{d['pen']}, {'in the open' if d['in_open'] else 'in cover'})"),
    "target_lock_dropped": lambda d: f"  {d['unit']} drops its lock on {d['target']}: {d['why']}",
    "melee_draw": lambda d: (f"  {d['unit']} is drawn by {d['target']}'s melee attack" if d["target"]
                             else f"  {d['unit']} is no longer drawn by {d['previous']}"),
    "break_alliance": lambda d: (f"  {d['leader']} ({d['side']}) tries to break the alliance with {d['target_side']}: "
                                 f"D10 {d['roll']} against TN {d['tn']} (Will - 4): "
                                 + ("it breaks, the crew may attack them this mission" if d["passed"]
                                    else "it holds, no attack on that crew this mission")),
    "faction_override": lambda d: (f"  {d['leader']} ({d['side']}) faces the Enemy crew {_names(d['enemies'])}: "
                                   f"override check D10 {d['roll']} against TN {d['tn']} (Will - 2): "
                                   + ("passed, the crew acts freely" if d["passed"] else
                                      "failed, no locations while an Enemy model is in play")),
    "crews_now_enemies": lambda d: (f"  {d['attacker']} attacks {d['target']}: {_names(d['sides'])} are Enemies "
                                    "from now on"),
    "search": lambda d: (f"  {d['model']} searches {d['location']} ({d['progress']}/{d['needed']})"
                         + (": searched, it never triggers again" if d["searched"] else "")),
    "salvage": _salvage,
    "equipment_found": _equipment_found,
    "equipment_chosen": lambda d: (f"  {d['side']} picks {d['item']} from the {d['table']} table for {d['model']} "
                                   "(stowed)"),
    "loot": lambda d: (f"  {d['model']} loots {d['location']}: {_names(d['items'])}"
                       + (", grenades " + ", ".join(f"{g} x{n}" for g, n in d["grenades"].items())
                          if d["grenades"] else "") + f", {d['value']} ZS fixed (stowed)"),
    "objective_completed": lambda d: (f"  {d['model']} ({d['side']}) completes the Mission Objective at "
                                      f"{d['name']} in turn {d['turn']}"),
    "artifact": _artifact,
    "anomaly_check_failed": lambda d: (f"  {d['model']} fails the anomaly Will check at {d['location']} (TN "
                                       f"{d['tn']}): no action spent, the anomaly discharges"),
    "anomaly_discharge": lambda d: (f"  the anomaly at {d['location']} discharges: Damage {d['damage']} on "
                                    + (", ".join(f"{m['model']} ({m['effect']})" for m in d["models"]) or "nobody")),
    "melee_round": lambda d: (f"  melee: {d['attacker']} scores {_n(d['attacker_hits'], 'hit')}, {d['defender']} "
                              f"({d['defender_weapon']}) scores {_n(d['defender_hits'], 'hit')}"),
})
