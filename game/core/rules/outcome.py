"""The mission result (TURN-11, SCEN-10.5.VICTORY): each crew model's fate, the kills, the locations, what each crew
carries home, the advances each crew earned this mission (POST-8.5.EARN) and the winner, or a draw, with why.

Kills are attributed: every Wound a model takes in play records its source (`ModelState.wounded_by`: the model and
side whose action or hits caused it, or "anomaly"), so a unit wholly out of play at the end (OOA or Dead, every
model) counts for the side that put its last model out, once (POST-8.5.EARN "multi-model unit counts once"); a unit
put out by its own side, by a Zone Hostile or by an anomaly earns no crew anything. Hot Spots count for the side
whose model searched them first (POST-8.5.MESSY: kills and loot are credited apart); the Mission Objective for the
side that completed it (`GameState.objective`, MISSION-8.2.OBJECTIVE) or that holds one of the `objectives` tasks."""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from game.core.rules.context import read_ctx
from game.core.rules.scouting import cleared
from game.core.state import GameState, LocationState, ModelState, SideKind

VICTORY_RULES = ("SCEN-10.5.VICTORY", "POST-8.5.EARN")
SURVIVOR, UNIT_OUT, HOT_SPOT, OBJECTIVE = 1, 1, 3, 5  # POST-8.5.EARN, advances per achievement


@dataclass(frozen=True, slots=True)
class Advances:
    """POST-8.5.EARN, what one crew earned this mission: survivors (in play at the end; a revived model counts),
    units it put out of play (rival crew units and Zone Hostile units), Hot Spots looted and the Mission Objective."""

    survivors: int = 0
    rival_units: int = 0
    hostile_units: int = 0
    hot_spots: int = 0
    objective: bool = False

    @property
    def units_out(self) -> int:
        return self.rival_units + self.hostile_units

    @property
    def total(self) -> int:
        return (SURVIVOR * self.survivors + UNIT_OUT * self.units_out + HOT_SPOT * self.hot_spots
                + (OBJECTIVE if self.objective else 0))

    def to_json(self) -> dict[str, int | bool]:
        return {"survivors": self.survivors, "units_out": self.units_out, "rival_units": self.rival_units,
                "hostile_units": self.hostile_units, "hot_spots": self.hot_spots, "objective": self.objective,
                "total": self.total}


def fates(st: GameState) -> dict[str, dict[str, str]]:
    """TURN-11: each crew model's fate: survived, ooa, dead, or absent (never deployed)."""
    out: dict[str, dict[str, str]] = {}
    for s in crew_ids(st):
        out[s] = {m.id: fate(m) for m in st.models.values() if m.side == s}
    return out


def fate(m: ModelState) -> str:
    return "dead" if m.dead else "ooa" if m.ooa else "survived" if m.deployed else "absent"


def crew_ids(st: GameState) -> list[str]:
    return [s.id for s in st.sides if s.kind is SideKind.CREW]


def unit_put_out_by(st: GameState, unit_id: str) -> dict[str, Any] | None:
    """POST-8.5.EARN: for a unit wholly out of play (deployed, every model OOA or Dead), the source of the Wound
    that put its last model out (`wounded_by` with the latest event number); None while a model is in play, for a
    unit never deployed, or when no source was recorded."""
    models = [st.models[x] for x in st.units[unit_id].models]
    if not any(m.deployed for m in models) or any(m.in_play for m in models):
        return None
    sources = [m.wounded_by for m in models if m.deployed and m.wounded_by is not None]
    if not sources:
        return None
    return max(sources, key=lambda b: int(b.get("seq", 0)))


def casualties(st: GameState) -> list[dict[str, Any]]:
    """Every unit wholly out of play, with who put it out: unit, side, kind (crew/hostile), by_model, by_side,
    cause (the action or "melee"/"ranged"/"anomaly"), turn."""
    out = []
    for u in st.units.values():
        by = unit_put_out_by(st, u.id)
        models = [st.models[x] for x in u.models]
        if by is None and not (any(m.deployed for m in models) and not any(m.in_play for m in models)):
            continue
        out.append({"unit": u.id, "side": u.side, "kind": st.side(u.side).kind.value,
                    "by_model": by.get("model") if by else None, "by_side": by.get("side") if by else None,
                    "cause": by.get("cause") if by else None, "turn": by.get("turn") if by else None})
    return out


def kills(st: GameState, side: str) -> dict[str, list[str]]:
    """POST-8.5.EARN: the rival crew units and the Zone Hostile units `side` put out of play (unit ids)."""
    rival: list[str] = []
    hostile: list[str] = []
    for c in casualties(st):
        if c["by_side"] != side or c["side"] == side:
            continue
        (rival if c["kind"] == SideKind.CREW.value else hostile).append(c["unit"])
    return {"rival": rival, "hostile": hostile}


def looted_by(st: GameState, loc: LocationState) -> str | None:
    """POST-8.5.EARN / POST-8.5.MESSY: the side whose model searched the location first."""
    if not loc.searched_by or loc.searched_by[0] not in st.models:
        return None
    return st.models[loc.searched_by[0]].side


def objective_side(st: GameState, objectives: Collection[str] = ()) -> str | None:
    """MISSION-8.2.OBJECTIVE: the side that completed the Mission Objective (a search of the objective location, or
    one of the `objectives` tasks done, credited to its holder's side)."""
    if st.objective is not None:
        return str(st.objective["side"])
    for tid, t in st.tasks.items():
        if tid in objectives and t.done and t.holder is not None and t.holder in st.models:
            return st.models[t.holder].side
    return None


def advances_earned(st: GameState, side: str, *, objectives: Collection[str] = ()) -> Advances:
    """POST-8.5.EARN for one crew, from the board as it stands at the end (TURN-11): survivors, units it put out
    (`kills`), Hot Spots it looted first, the Mission Objective (`objective_side`)."""
    survivors = sum(1 for m in st.models.values() if m.side == side and m.in_play)
    k = kills(st, side)
    hot = sum(1 for loc in st.locations.values() if loc.kind == "hotspot" and looted_by(st, loc) == side)
    return Advances(survivors, len(k["rival"]), len(k["hostile"]), hot, objective_side(st, objectives) == side)


def mission_result(st: GameState, *, victory: str = "objective_then_advances",
                   objectives: Collection[str] = ()) -> dict[str, Any]:
    """SCEN-10.5.VICTORY (`scen.victory`=objective_then_advances): the crew that completed the Mission Objective
    wins; otherwise the crew with the most advances earned this mission (POST-8.5.EARN); a tie for the most is a
    draw. A crew playing alone against the Zone (a solo game) has no one to out-earn: it wins by completing the
    Mission Objective and otherwise does not win, and there is no draw (decided_by "solo"). Returns the plain-JSON
    fields the mission_end event carries: winner (a side id or None), draw, decided_by ("objective", "advances",
    "tie" or "solo"), why (a sentence), advances {side: {...}}, crews {side: name}, victory."""
    if victory != "objective_then_advances":
        raise ValueError(f"scen.victory={victory!r}: the engine knows only 'objective_then_advances' "
                         "(SCEN-10.5.VICTORY)")
    sides = crew_ids(st)
    names = {s.id: s.name for s in st.sides if s.kind is SideKind.CREW}
    earned = {s: advances_earned(st, s, objectives=objectives) for s in sides}
    by_mo = [s for s in sides if earned[s].objective]
    winner: str | None = None
    if len(sides) == 1:  # SCEN-10.5.VICTORY with one crew: the objective, or no winner
        done = bool(by_mo)
        winner, decided_by = (sides[0], "objective") if done else (None, "solo")
        why = (f"{names[sides[0]]} played alone against the Zone and "
               f"{'completed' if done else 'did not complete'} the Mission Objective")
        return {"winner": winner, "draw": False, "decided_by": decided_by, "why": why,
                "advances": {s: earned[s].to_json() for s in sides}, "crews": names, "victory": victory}
    if len(by_mo) == 1:
        winner, decided_by = by_mo[0], "objective"
        why = f"{names[winner]} completed the Mission Objective"
    else:
        contenders = by_mo or sides
        best = max((earned[s].total for s in contenders), default=0)
        top = [s for s in contenders if earned[s].total == best]
        winner, decided_by = (top[0], "advances") if len(top) == 1 else (None, "tie")
        scores = ", ".join(f"{names[s]} {earned[s].total}" for s in sides)
        why = (f"no Mission Objective completed; {names[winner]} earned the most advances ({scores})" if winner
               else f"no Mission Objective completed and the advances are level ({scores})")
    return {"winner": winner, "draw": winner is None, "decided_by": decided_by, "why": why,
            "advances": {s: earned[s].to_json() for s in sides}, "crews": names, "victory": victory}


def location_report(st: GameState) -> dict[str, list[str]]:
    """TURN-11: location ids: the Mission Objective(s), and those triggered, cleared (triggered and its own hostiles
    all out of play, GAP-53), searched, with an anomaly, and whose artifact was taken."""
    locs = list(st.locations.values())
    ctx = read_ctx(st)

    def clear(loc: LocationState) -> bool:
        return loc.triggered and cleared(ctx, loc)

    return {"objectives": [x.id for x in locs if x.kind == "objective"],
            "triggered": [x.id for x in locs if x.triggered], "cleared": [x.id for x in locs if clear(x)],
            "searched": [x.id for x in locs if x.searched], "anomalies": [x.id for x in locs if x.anomaly],
            "artifacts_taken": [x.id for x in locs if x.artifacts_taken]}


def crew_report(st: GameState, side: str) -> dict[str, Any]:
    """TURN-11 for one crew: its models by fate (ids, with their names), the units it put out of play, the locations
    it looted, and what its models carry home (SALVAGE-8.4.BACKPACK: every model's stowed salvage, the Out of Action
    and the dead included, whose kit goes to the crew, COMBAT-4.4.PERMA-DEAD): Salvage Value, items found, grenades
    found, artifacts."""
    models = [m for m in st.models.values() if m.side == side]
    by_fate: dict[str, list[str]] = {"survived": [], "ooa": [], "dead": [], "absent": []}
    for m in models:
        by_fate[fate(m)].append(m.id)
    items: list[str] = []
    grenades: dict[str, int] = {}
    for m in models:
        for e in m.salvage:
            items.extend(str(x) for x in e.get("items", []))
            for g, n in dict(e.get("grenades", {})).items():
                grenades[g] = grenades.get(g, 0) + int(n)
    arts = [{"model": m.id, "value": a["value"], "bonus": a.get("bonus"), "location": a["location"]}
            for m in models for a in m.artifacts]
    return {**by_fate, "names": {m.id: m.profile.name for m in models}, "kills": kills(st, side),
            "looted": [x.id for x in st.locations.values() if looted_by(st, x) == side],
            "searched": sorted({x.id for x in st.locations.values() for mid in x.searched_by
                                if st.models.get(mid) is not None and st.models[mid].side == side}),
            "salvage_value": sum(int(e["value"]) for m in models for e in m.salvage), "items": items,
            "grenades": grenades, "artifacts": arts, "artifact_value": sum(int(a["value"]) for a in arts)}


def mission_report(st: GameState) -> dict[str, Any]:
    """TURN-11: what the mission_end event adds to the result: `report` {side: crew_report}, `locations`
    (location_report), `objective` (who completed it, or None) and `casualties`."""
    return {"report": {s: crew_report(st, s) for s in crew_ids(st)}, "locations": location_report(st),
            "objective": dict(st.objective) if st.objective is not None else None, "casualties": casualties(st)}
