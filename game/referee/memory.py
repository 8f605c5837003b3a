"""The hostile memory re-derived by the referee (AI-D.02 target lock, AI-D.03 melee draw) from what it observes:
the checks (activation start, after each of the unit's actions, before its spawn free move), the melee attacks
crew models make on hostiles, the ends of activations and who leaves play. Never from the engine's
`target_locked` / `target_lock_dropped` / `melee_draw` events, nor from `GameState.ai` (except a checker started
mid-game, which takes that as its starting point)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from game.core.rules.context import read_ctx
from game.core.rules.exposure import seen_by, unit_models
from game.core.state import GameState, HostileMemory
from game.core.tolerance import EPS
from game.referee.targeting import choice

TERRITORY = 12.0  # AI-D.02 / AI-D.04(b): the enemy's centre within 12.0" of pL


@dataclass(slots=True)
class Recall:
    """What the referee believes a hostile unit remembers: the lock and its last known position, whether the
    target was seen or inside the territory at a check since the unit's last activation ended, the melee attackers
    since then (oldest first) and the draw."""

    unit: str
    lock: str | None = None
    last_known: tuple[float, float] | None = None
    lock_ok: bool = False
    attackers: list[str] = field(default_factory=list)
    draw: str | None = None


def _gone(state: GameState, model: str | None) -> bool:
    m = state.models.get(model) if model else None
    return m is None or not m.in_play


def in_contact(state: GameState, unit: str, model: str) -> bool:
    """GEO-6: some model of the unit in base contact with `model` (`geo.contact_tol`)."""
    e = state.models[model]
    tol = float(read_ctx(state).settings["geo.contact_tol"])
    return any(math.hypot(m.x - e.x, m.y - e.y) - m.radius - e.radius <= tol + EPS for m in unit_models(state, unit))


def in_territory(state: GameState, unit: str, model: str) -> bool:
    """AI-D.02: the model's centre within 12.0" of the unit's location point (a force without one: never)."""
    force = state.forces.get(state.units[unit].side)
    if force is None or force.centre is None:
        return False
    m = state.models[model]
    return math.hypot(m.x - force.centre[0], m.y - force.centre[1]) <= TERRITORY + EPS


class Memory:
    """The referee's AI-D.02/AI-D.03 bookkeeping for every hostile unit it has seen."""

    def __init__(self, *, close_tol: float, hostile_vs_hostile: bool) -> None:
        self.close_tol = close_tol
        self.hvh = hostile_vs_hostile
        self.units: dict[str, Recall] = {}

    def seed(self, state: GameState) -> None:
        """Start from a state's memory (a checker started mid-game): the only time `GameState.ai` is read as input."""
        for mem in state.ai.values():
            known = (float(mem.last_known[0]), float(mem.last_known[1])) if mem.last_known else None
            self.units[mem.unit] = Recall(mem.unit, mem.lock, known, mem.lock_ok, list(mem.attackers), mem.draw)

    def of(self, unit: str) -> Recall:
        r = self.units.get(unit)
        if r is None:
            r = self.units[unit] = Recall(unit)
        return r

    def target(self, state: GameState, unit: str) -> tuple[str | None, str]:
        """The unit's target from memory: the draw (AI-D.03 overrides the lock), else the lock; (None, "none")."""
        r = self.units.get(unit)
        if r is None:
            return None, "none"
        if r.draw is not None and not _gone(state, r.draw):
            return r.draw, "draw"
        if r.lock is not None and not _gone(state, r.lock):
            return r.lock, "lock"
        return None, "none"

    # --- the moments the rules name ------------------------------------------------------------------------

    def check(self, state: GameState, unit: str) -> None:
        """A check of AI-D.02 (start of an activation, after each of the unit's actions, before its free move)."""
        if unit not in state.units or not state.unit_in_play(unit):
            return
        r = self.of(unit)
        if r.lock is not None and _gone(state, r.lock):
            self._drop(r)  # AI-D.02 (i)
        if r.lock is None:
            pick = choice(state, unit, self.close_tol, hostile_vs_hostile=self.hvh)
            if pick is not None:
                t = state.models[pick]
                r.lock, r.last_known, r.lock_ok = pick, (t.x, t.y), True
        else:
            t = state.models[r.lock]
            if seen_by(state, unit, t.id):
                r.last_known = (t.x, t.y)
                r.lock_ok = True
            elif in_territory(state, unit, t.id):
                r.lock_ok = True
        self._draw(state, r)

    def melee(self, state: GameState, unit: str, attacker: str) -> None:
        """AI-D.03: an enemy model made a melee attack on the unit: it is the most recent attacker, so the draw."""
        if unit not in state.units or state.units[unit].side not in state.forces:
            return
        r = self.of(unit)
        if attacker in r.attackers:
            r.attackers.remove(attacker)
        r.attackers.append(attacker)
        r.draw = attacker  # it just attacked: in play at that moment

    def end(self, state: GameState, unit: str) -> None:
        """The end of the unit's activation: AI-D.02 (ii), and AI-D.03's attackers "since its last activation"
        are forgotten; the draw stays while in base contact."""
        r = self.of(unit)
        if r.lock is not None and not r.lock_ok:
            self._drop(r)
        r.lock_ok = False
        r.attackers = []
        if r.draw is not None and (_gone(state, r.draw) or not in_contact(state, unit, r.draw)):
            r.draw = None

    def sweep(self, state: GameState) -> None:
        """AI-D.02 (i) and AI-D.03: a lock or draw on a model no longer in play is dropped at once (the draw passes
        to the previous attacker still in play)."""
        for r in self.units.values():
            if r.lock is not None and _gone(state, r.lock):
                self._drop(r)
            if r.draw is not None and _gone(state, r.draw):
                live = [a for a in r.attackers if not _gone(state, a)]
                r.draw = live[-1] if live else None

    def _draw(self, state: GameState, r: Recall) -> None:
        live = [a for a in r.attackers if not _gone(state, a)]
        if live:
            r.draw = live[-1]
        elif r.draw is not None and not _gone(state, r.draw) and in_contact(state, r.unit, r.draw):
            pass  # "H keeps meleeing it while in contact"
        else:
            r.draw = None

    @staticmethod
    def _drop(r: Recall) -> None:
        r.lock, r.last_known, r.lock_ok = None, None, False

    # --- the comparison ------------------------------------------------------------------------------------

    def compare(self, state: GameState) -> list[tuple[str, str, bool, str, str]]:
        """(unit, rule, agrees, the engine's memory, the referee's) for AI-D.02 (lock and last known position)
        and AI-D.03 (draw) of every hostile unit, against `state.ai`."""
        out = []
        for unit in sorted(set(self.units) | set(state.ai)):
            mine = self.of(unit)
            theirs = state.ai.get(unit) or HostileMemory(unit)
            known = (float(theirs.last_known[0]), float(theirs.last_known[1])) if theirs.last_known else None
            same = theirs.lock == mine.lock and _same_point(known, mine.last_known)
            out.append((unit, "AI-D.02", same, f"the engine keeps lock {theirs.lock} last seen at {_pt(known)}",
                        f"lock {mine.lock} last seen at {_pt(mine.last_known)}"))
            out.append((unit, "AI-D.03", theirs.draw == mine.draw, f"the engine keeps draw {theirs.draw}",
                        f"draw {mine.draw}"))
        return out


def _same_point(a: tuple[float, ...] | None, b: tuple[float, ...] | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a[0] - b[0]) <= 1e-6 and abs(a[1] - b[1]) <= 1e-6


def _pt(p: tuple[float, ...] | None) -> str:
    return "-" if p is None else f"({p[0]:.2f}, {p[1]:.2f})"
