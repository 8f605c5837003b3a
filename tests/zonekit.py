"""Tiny boards with Zone Hostiles for tests: crews from tests.enginekit, a hostile force bound to a location at a
point (its leash), its units placed where the test says, and its memory as the test sets it (AI-D.02/AI-D.03)."""
from __future__ import annotations

from collections.abc import Sequence

from game.core.dice import ScriptedDice
from game.core.rules.context import Ctx
from game.core.rules.dispatch import ACTIONS
from game.core.rules.spawn import add_units, new_force
from game.core.state import GameState, LocationState, Phase
from tests.enginekit import game


def zone_game(crew: list, *, pieces: tuple = (), table: tuple[float, float] = (36.0, 36.0),
              settings: dict | None = None, seed: int = 1) -> GameState:
    """A deployed game in turn 1 with crews "a" (and "b" when given); add forces with `add_force`."""
    return game(crew, pieces=pieces, table=table, settings=settings, seed=seed)


def add_force(st: GameState, hostile: str, at: Sequence[Sequence[float]], *, location: tuple[float, float] | None,
              tl: int = 2, actions: int | None = None, loc_id: str = "hs", units: int | None = None) -> list[str]:
    """A force of `hostile` from a location at `location` (None: no location, no leash), its figures standing at
    `at` (one point per figure, in order; GAP-20 decides the units); returns its unit ids. The force joins the
    order list after the crews."""
    ctx = Ctx(st, ScriptedDice([]), st.battlefield, ACTIONS)
    loc = None
    if location is not None:
        lid = loc_id
        loc = st.locations.get(lid) or LocationState(lid, f"the {lid}", "hotspot", float(location[0]),
                                                     float(location[1]), tl, triggered=True)
        st.locations[lid] = loc
    side = f"zone-{loc_id}"
    force = new_force(ctx, side=side, name=f"{hostile} of {loc_id}", hostile=hostile, location=loc,
                      actions=actions if actions is not None else max(1, tl), roll=None)
    groups = add_units(ctx, force, units if units is not None else len(at))
    pts = iter(at)
    for models in groups:
        for m in models:
            p = next(pts)
            m.x, m.y = float(p[0]), float(p[1])
            m.z = float(p[2]) if len(p) > 2 else 0.0
            m.deployed = True
    st.order.append(side)
    return [g[0].unit for g in groups]


def lock(st: GameState, unit: str, target: str | None, *, at: Sequence[float] | None = None,
         draw: str | None = None, attackers: Sequence[str] = ()) -> None:
    """Set a hostile unit's memory as a test needs it."""
    mem = st.ai[unit]
    mem.lock = target
    if target is not None:
        t = st.models[target]
        mem.last_known = [float(at[0]), float(at[1])] if at is not None else [t.x, t.y]
    else:
        mem.last_known = []
    mem.draw = draw
    mem.attackers = list(attackers)


def activate_hostile(st: GameState, unit: str) -> list:
    """Activate a hostile unit now (its side decides), as the activation cycle would."""
    from game.core.actions import Activate
    from game.core.rules.apply import apply

    st.phase = Phase.ACTIVATE
    st.deciding = st.units[unit].side
    return apply(st, Activate(unit))
