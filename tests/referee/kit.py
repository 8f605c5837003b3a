"""Tiny Zone games for the referee's tests: a crew (side "a") and one hostile force from a location, built with the
core's own spawn helpers, and a table that applies each decision and lets the ZoneChecker observe it."""
from __future__ import annotations

from collections.abc import Sequence

from game.core.actions import Action, Activate
from game.core.battlefield import Cover, TerrainPiece
from game.core.dice import ScriptedDice
from game.core.events import Event
from game.core.geometry.polygon import rect
from game.core.rules.apply import apply
from game.core.rules.context import Ctx
from game.core.rules.dispatch import ACTIONS
from game.core.rules.spawn import add_units, new_force
from game.core.state import GameState, LocationState, ModelProfile, Phase
from game.referee.report import Violation
from game.referee.zone import ZoneChecker, needs_before
from tests.enginekit import game, profile

CREW = profile("stalker", actions=2)
ZONE = "zone-hs"


def wall(pid: int, x0: float, y0: float, x1: float, y1: float, *, top: float = 1.0,
         cover: Cover = Cover.HARD, blocks: bool = False) -> TerrainPiece:
    """A cover piece (a low wall by default: hard cover, no LOS block)."""
    return TerrainPiece(pid, f"wall-{pid}", rect(x0, y0, x1, y1), 0.0, top, blocks_los=blocks, cover=cover)


def zone_game(crew: Sequence[tuple[str, tuple[float, float]]], hostiles: Sequence[tuple[float, float]], *,
              hostile: str = "bandit", actions: int = 2, centre: tuple[float, float] = (18.0, 18.0),
              pieces: Sequence[TerrainPiece] = (), crew_profile: ModelProfile = CREW,
              settings: dict | None = None) -> GameState:
    """Crew models on side "a"; one force of `hostile` (one figure per position: Bandits are a unit each, the other
    types one unit) from a TL2 location at `centre`, placed where given; turn 1, side "a" to activate."""
    st = game([(mid, "a", crew_profile, pos) for mid, pos in crew], pieces=tuple(pieces), settings=settings)
    st.sides = [s for s in st.sides if s.id == "a"]
    st.order = ["a"]
    loc = LocationState("hs", "the shed", "hotspot", centre[0], centre[1], 2, triggered=True)
    st.locations["hs"] = loc
    ctx = Ctx(st, ScriptedDice([]), st.battlefield, ACTIONS)
    force = new_force(ctx, side=ZONE, name="the Zone", hostile=hostile, location=loc, actions=actions, roll=None)
    models = [m for unit in add_units(ctx, force, len(hostiles)) for m in unit]
    for m, (x, y) in zip(models, hostiles, strict=True):
        m.x, m.y, m.deployed = x, y, True
    st.order.append(ZONE)
    return st


class Table:
    """Applies decisions to a game and shows each to a ZoneChecker, cloning the state first when it asks."""

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.checker = ZoneChecker.from_state(st)
        self.events: list[Event] = []

    def do(self, action: Action, dice: Sequence[int | float] = ()) -> list[Violation]:
        before = self.st.clone() if needs_before(self.st) else None
        events = apply(self.st, action, ScriptedDice(list(dice)))
        self.events += events
        self.checker.observe(before, action, events, self.st)
        return self.checker.last

    def activate(self, unit: str) -> list[Violation]:
        """Activate a unit (switching the deciding side for the test)."""
        st = self.st
        st.phase = Phase.ACTIVATE
        st.deciding = st.units[unit].side
        st.cycle = st.order.index(st.deciding)
        return self.do(Activate(unit))

    @property
    def checks(self) -> dict[str, int]:
        return self.checker.report.checks

    def broken(self) -> list[str]:
        return [v.rule for v in self.checker.report.violations]


def rules_of(found: Sequence[Violation]) -> list[str]:
    return [v.rule for v in found]
