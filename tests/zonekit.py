"""Tiny boards with Zone Hostiles for tests: crews from tests.enginekit, a hostile force bound to a location at a
point (its leash), its units placed where the test says, and its memory as the test sets it (AI-D.02/AI-D.03)."""
from __future__ import annotations

from collections.abc import Sequence

from game.ai.zone.agent import Decision, ZoneAgent
from game.core.battlefield import Cover, Movement, TerrainPiece
from game.core.dice import ScriptedDice
from game.core.geometry.polygon import rect
from game.core.rules.apply import apply
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


# --- terrain for tiny boards ----------------------------------------------------------------------------------

def piece(pid: int, x0: float, y0: float, x1: float, y1: float, top: float, *, cover: Cover = Cover.HARD,
          blocks: bool = False, impassable: bool = False) -> TerrainPiece:
    """A rectangular terrain prism from the ground to `top` (GEO-10): its cover class (GEO-12), whether it blocks
    LOS, and whether it is impassable (GEO-7; a piece with open movement is walked through)."""
    return TerrainPiece(pid, f"piece-{pid}", rect(x0, y0, x1, y1), 0.0, top, blocks_los=blocks, cover=cover,
                        movement=Movement.IMPASSABLE if impassable else Movement.OPEN)


def wall(pid: int, x0: float, y0: float, x1: float, y1: float, top: float = 6.0,
         cover: Cover = Cover.HARD) -> TerrainPiece:
    """A tall wall: hard cover, blocks LOS, impassable."""
    return piece(pid, x0, y0, x1, y1, top, cover=cover, blocks=True, impassable=True)


def low_wall(pid: int, x0: float, y0: float, x1: float, y1: float, cover: Cover = Cover.HARD) -> TerrainPiece:
    """A 1" high wall (crossed at no extra cost, GEO-8; never blocks LOS of a standing model): cover only."""
    return piece(pid, x0, y0, x1, y1, 1.0, cover=cover)


# --- deciding and applying ------------------------------------------------------------------------------------

REASON_KEYS = {"rule", "target", "goal", "text", "numbers"}


def check_reason(d: Decision) -> None:
    """Every decision of the Zone's agent has a reason {rule, target, goal, text, numbers} naming its rule."""
    r = d.reason
    assert set(r) == REASON_KEYS, r
    assert isinstance(r["rule"], str) and r["rule"].startswith("AI-"), r
    assert isinstance(r["text"], str) and r["text"].startswith(f"{r['rule']}: "), r
    assert isinstance(r["numbers"], dict), r
    assert r["goal"] is None or (isinstance(r["goal"], list) and len(r["goal"]) == 2), r
    assert d.kind in ("standing", "moving")


def decide(st: GameState) -> Decision:
    """The Zone's decision for the state (its reason checked)."""
    d = ZoneAgent().decide(st)
    check_reason(d)
    return d


def step(st: GameState, dice: Sequence[float] | None = None) -> tuple[Decision, list]:
    """Decide and apply (scripted dice when given): the decision's reason is on its first event, with its rule."""
    d = decide(st)
    ev = apply(st, d.reasoned(), ScriptedDice(list(dice)) if dice is not None else None)
    assert ev, d
    first = ev[0]
    assert d.reason["rule"] in first.rules, (first.rules, d.reason)
    assert first.data.get("reason", first.data.get("decision_reason")) == d.reason, first.data
    return d, ev


def play(st: GameState, unit: str, *, limit: int = 6) -> list[tuple[Decision, list]]:
    """Activate the hostile unit and let the Zone's agent play its activation out (the state's own dice)."""
    activate_hostile(st, unit)
    out = []
    while st.phase is Phase.ACTION and st.activation is not None and st.activation.unit == unit and limit > 0:
        out.append(step(st))
        limit -= 1
    return out


def events_of(ev: list, kind: str) -> list:
    return [e for e in ev if e.type == kind]
