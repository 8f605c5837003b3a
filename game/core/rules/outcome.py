"""The mission result (TURN-11, SCEN-10.5.VICTORY): each crew model's fate, the advances each crew earned this
mission (POST-8.5.EARN) and the winner, or a draw."""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from game.core.state import GameState, SideKind

VICTORY_RULES = ("SCEN-10.5.VICTORY", "POST-8.5.EARN")
SURVIVOR, UNIT_OUT, HOT_SPOT, OBJECTIVE = 1, 1, 3, 5  # POST-8.5.EARN, advances per achievement


@dataclass(frozen=True, slots=True)
class Advances:
    """POST-8.5.EARN, what one crew earned this mission: survivors (in play at the end; a revived model counts),
    rival units put out of play, Hot Spots looted and the Mission Objective."""

    survivors: int = 0
    units_out: int = 0
    hot_spots: int = 0
    objective: bool = False

    @property
    def total(self) -> int:
        return (SURVIVOR * self.survivors + UNIT_OUT * self.units_out + HOT_SPOT * self.hot_spots
                + (OBJECTIVE if self.objective else 0))

    def to_json(self) -> dict[str, int | bool]:
        return {"survivors": self.survivors, "units_out": self.units_out, "hot_spots": self.hot_spots,
                "objective": self.objective, "total": self.total}


def fates(st: GameState) -> dict[str, dict[str, str]]:
    """TURN-11: each crew model's fate: survived, ooa, dead, or absent (never deployed)."""
    out: dict[str, dict[str, str]] = {}
    for s in crew_ids(st):
        out[s] = {m.id: "dead" if m.dead else "ooa" if m.ooa else "survived" if m.deployed else "absent"
                  for m in st.models.values() if m.side == s}
    return out


def crew_ids(st: GameState) -> list[str]:
    return [s.id for s in st.sides if s.kind is SideKind.CREW]


def advances_earned(st: GameState, side: str, *, objectives: Collection[str] = ()) -> Advances:
    """POST-8.5.EARN for one crew, from the board as it stands at the end (TURN-11).

    What the engine does not track yet is decided so: no kill is attributed to anyone, so a rival crew's unit
    counts once it is wholly out of play (OOA or Dead) after being deployed, whoever put it there; hostile units
    count for no crew until kills are attributed; no Hot Spot can be looted yet (0); the Mission Objective is one
    of the `objectives` (task ids) completed by a model of this crew."""
    survivors = sum(1 for m in st.models.values() if m.side == side and m.in_play)
    rivals = [s for s in crew_ids(st) if s != side]
    units_out = 0
    for u in st.units.values():
        if u.side not in rivals:
            continue
        models = [st.models[x] for x in u.models]
        if any(m.deployed for m in models) and not any(m.in_play for m in models):
            units_out += 1
    done = any(t.done and t.holder is not None and t.holder in st.models and st.models[t.holder].side == side
               for tid, t in st.tasks.items() if tid in objectives)
    return Advances(survivors, units_out, 0, done)


def mission_result(st: GameState, *, victory: str = "objective_then_advances",
                   objectives: Collection[str] = ()) -> dict[str, Any]:
    """SCEN-10.5.VICTORY (`scen.victory`=objective_then_advances): the crew that completed the Mission Objective
    wins; otherwise the crew with the most advances earned this mission (POST-8.5.EARN); a tie for the most is a
    draw. Returns the plain-JSON fields the mission_end event carries: winner (a side id or None), draw,
    decided_by ("objective", "advances" or "tie"), advances {side: {...}}, crews {side: name}, victory."""
    if victory != "objective_then_advances":
        raise ValueError(f"scen.victory={victory!r}: the engine knows only 'objective_then_advances' "
                         "(SCEN-10.5.VICTORY)")
    sides = crew_ids(st)
    earned = {s: advances_earned(st, s, objectives=objectives) for s in sides}
    by_mo = [s for s in sides if earned[s].objective]
    winner: str | None = None
    if len(by_mo) == 1:
        winner, decided_by = by_mo[0], "objective"
    else:
        contenders = by_mo or sides
        best = max((earned[s].total for s in contenders), default=0)
        top = [s for s in contenders if earned[s].total == best]
        winner, decided_by = (top[0], "advances") if len(top) == 1 else (None, "tie")
    return {"winner": winner, "draw": winner is None, "decided_by": decided_by,
            "advances": {s: earned[s].to_json() for s in sides},
            "crews": {s.id: s.name for s in st.sides if s.kind is SideKind.CREW}, "victory": victory}
