"""Zone Hostiles appear (TURN-8, HOSTILE-8.3): the Zone Hostiles Table roll of a triggered location with the Inspect
shift (HOSTILE-8.3.ROLL, GAP-52), the force and its units (GAP-20, GAP-21), their stat lines (HOSTILE-8.3.STATS,
GAP-22..GAP-25), placement by deviation from the location (HOSTILE-8.3.DEPLOY, GEO-25), the free move of each new
unit (HOSTILE-8.3.FREE-MOVE, AI-S.SPAWN) and the force joining the activation cycle (HOSTILE-8.3.ACTIVATION,
TURN-5.1, GAP-19).

The steps that need a decision stop in a phase: Phase.HOSTILE_ROLL (the triggering player picks within the Inspect
shift) and Phase.SPAWN_MOVE (the force's controller moves each new unit or lets it stay). `advance` runs every step
it can and answers "decide" (a decision is pending) or "done:<then>" (every queued location is resolved; the caller
finishes what the trigger interrupted, `SpawnState.then`). This module never imports the turn flow."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from game.core.actions import IllegalAction, Move, StayPut
from game.core.battlefield import Base
from game.core.catalog import Catalog
from game.core.catalog.profiles import HostileProfile, UnitForm
from game.core.geometry.indirect import deviation_point
from game.core.geometry.movement.positions import position_fact
from game.core.geometry.zone import LEASH, cohesion
from game.core.rules.locations import HOSTILE_TABLE
from game.core.rules.memory import checkpoint
from game.core.rules.queries import catalog_of
from game.core.rules.scouting import inspect_shift, roll_choices
from game.core.state import (
    ForceState,
    HostileMemory,
    LocationState,
    ModelProfile,
    ModelState,
    Phase,
    SideKind,
    SideState,
    SpawnState,
    UnitState,
)
from game.core.tolerance import EPS

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

SPAWN_RULES = ("TURN-8", "HOSTILE-8.3.DEPLOY", "GEO-25")
GRID = 0.25  # GEO-25: the breadth-first search grid
# HOSTILE-8.3.TABLE names -> catalog ids (game/data/hostiles.toml)
HOSTILE_IDS = {"Vermin Swarm": "vermin", "Feral Dogs": "dogs", "Zombies": "zombies", "Rad Ghoul": "ghouls",
               "Rad Ghouls": "ghouls", "Bandits": "bandit", "Mutant": "mutant", "Mutants": "mutant",
               "Large Mutant": "large_mutant"}


class SpawnError(ValueError):
    """A hostile force that cannot be set up: names the field, the value and what is allowed."""


def table_entry(ctx: Ctx, tl: int, result: int) -> tuple[str, int, bool]:
    """HOSTILE-8.3.TABLE: (catalog id, figures, anomaly `*`) for a TL 1-3 and a D6 result; "Vermin Swarm (X 2)" at
    TL2 is `hostiles.vermin_x2` figures (GAP-21)."""
    name, figures, anomaly = HOSTILE_TABLE[tl][result]
    if tl == 2 and result == 1:
        figures = int(ctx.settings["hostiles.vermin_x2"])
    return HOSTILE_IDS[name], figures, anomaly


def hostile_profile(cat: Catalog, hp: HostileProfile, actions: int) -> ModelProfile:
    """A hostile's frozen ModelProfile from its stat line (HOSTILE-8.3.STATS): its attacks' FP and Damage as
    overrides of the Armory weapons they use (GAP-09), Will "NA" as None (GAP-22), worn armour for Bandits."""
    worn = cat.armour(hp.armour) if hp.armour else None
    return ModelProfile(
        name=hp.name, move=float(hp.move), ca=hp.ca, armour=hp.armour or "natural", armor=hp.armor,
        armour_move_mod=float(worn.move_mod) if worn else 0.0, will=hp.will, wounds=hp.wounds, actions=actions,
        experience="hostile", base_diameter=hp.base_diameter, height=hp.height,
        weapons=tuple(a.weapon for a in hp.attacks), creature=hp.creature,
        obscured=hp.obscured.value if hp.obscured is not None else None,
        save_dice=worn.save_dice if worn else 1, will_exempt=worn.will_exempt if worn else False,
        fp_overrides=tuple((a.weapon, a.fp, a.damage) for a in hp.attacks))


def unit_sizes(hp: HostileProfile, figures: int) -> list[int]:
    """GAP-20 (`hostiles.grouping`): a group result is one unit of every figure; individual hostiles (Bandits) are a
    unit each; a single hostile is one unit."""
    if hp.unit_form is UnitForm.INDIVIDUAL:
        return [1] * figures
    return [figures]


def force_tag(ctx: Ctx, loc_id: str) -> str:
    """The id stem of a location's force: the location id, then `-2`, `-3`... when it spawns again
    (`trigger.once`=false)."""
    sides = {s.id for s in ctx.state.sides}
    n, tag = 1, loc_id
    while f"zone-{tag}" in sides:
        n += 1
        tag = f"{loc_id}-{n}"
    return tag


def new_force(ctx: Ctx, *, side: str, name: str, hostile: str, location: LocationState | None, actions: int,
              roll: int | None, leash: bool = True, centre: Sequence[float] | None = None) -> ForceState:
    """Add a hostile force (its SideState and ForceState; side id "zone-<tag>"); its units come after. Its leash
    centre pL is the location point, or `centre` for a scenario force leashed to a point of its own (GAP-99: Game
    One's dogs round their structure); with neither it has no leash (GEO-20)."""
    st = ctx.state
    if any(s.id == side for s in st.sides):
        raise SpawnError(f"a side {side!r} already exists; a location spawns one force")
    cat = catalog_of(ctx)
    if hostile not in cat.hostiles:
        raise SpawnError(f"field 'hostile' is {hostile!r}; allowed: {', '.join(sorted(cat.hostiles))}")
    if not isinstance(actions, int) or isinstance(actions, bool) or not 1 <= actions <= 3:
        raise SpawnError(f"field 'actions' is {actions!r}; allowed: 1, 2 or 3 (HOSTILE-8.3.ACTIONS-TL)")
    st.sides.append(SideState(side, name, SideKind.HOSTILE, "ai", None, True))
    pl = [float(centre[0]), float(centre[1])] if centre is not None else \
        ([location.x, location.y] if location is not None else None)
    force = ForceState(side, hostile, location.id if location else None, pl,
                       LEASH if (leash and pl is not None) else None, actions,
                       st.turn, roll)
    st.forces[side] = force
    if location is not None:
        location.force = side
    return force


def add_units(ctx: Ctx, force: ForceState, figures: int, *, hostile: str | None = None,
              start: int = 1) -> list[list[ModelState]]:
    """The force's units (GAP-20) with their models, not yet placed; `hostile` (default: the force's) and the first
    unit number `start` let a scenario add more units to a force (HOSTILE-8.3.ALT-DEPLOY, GAP-100)."""
    st = ctx.state
    cat = catalog_of(ctx)
    kind = hostile or force.hostile
    hp = cat.hostile(kind)
    prof = hostile_profile(cat, hp, force.actions)
    out = []
    base = force.side.removeprefix("zone-")
    for k, size in enumerate(unit_sizes(hp, figures), start):
        uid = f"{base}-{kind}-{k}"
        ids = [uid] if size == 1 else [f"{uid}.{j}" for j in range(1, size + 1)]
        st.units[uid] = UnitState(uid, force.side, list(ids))
        models = []
        for mid in ids:
            m = ModelState(mid, uid, force.side, prof)
            st.models[mid] = m
            models.append(m)
        st.ai[uid] = HostileMemory(uid)
        out.append(models)
    return out


def _others(ctx: Ctx, exclude: str = "") -> list[Base]:
    return [o.base() for o in ctx.state.models.values() if o.in_play and o.id != exclude]


def _rings(max_distance: float) -> list[tuple[float, float, float, float]]:
    """Grid offsets (dx, dy, distance, angle) sorted by distance then angle from +x toward +y (GEO-1, GEO-25)."""
    k = int(math.ceil(max_distance / GRID))
    cells = []
    for i in range(-k, k + 1):
        for j in range(-k, k + 1):
            d = math.hypot(i, j) * GRID
            if d <= max_distance + EPS:
                a = math.atan2(j, i)
                cells.append((i * GRID, j * GRID, d, a + 2 * math.pi if a < 0 else a))
    cells.sort(key=lambda c: (round(c[2], 9), c[3]))
    return cells


_RING_CACHE: dict[float, list[tuple[float, float, float, float]]] = {}


def _offsets(max_distance: float) -> list[tuple[float, float, float, float]]:
    if max_distance not in _RING_CACHE:
        _RING_CACHE[max_distance] = _rings(max_distance)
    return _RING_CACHE[max_distance]


def place_model(ctx: Ctx, m: ModelState, want: tuple[float, float], *, centre: Sequence[float] | None,
                mates: Sequence[ModelState] = ()) -> tuple[float, float] | None:
    """GEO-25: the legal point nearest `want` (0.25" grid searched outward, ties by angle), inside the 12" leash of
    `centre` (GEO-20), and, for a follower, within 1" of an already-placed model of its unit (GEO-21). None when
    nothing within 12" is legal."""
    others = _others(ctx, m.id)
    placed = [x.base() for x in mates]
    for dx, dy, _d, _a in _offsets(12.0):
        x, y = want[0] + dx, want[1] + dy
        if centre is not None and math.hypot(x - centre[0], y - centre[1]) > LEASH + EPS:
            continue
        fact = position_fact(ctx.battlefield, x, y, 0.0, radius=m.radius, height=m.profile.height, others=others,
                             mover=m.id, settings=ctx.settings)
        if not fact.legal:
            continue
        if placed and not cohesion([replace(m.base(), x=x, y=y, z=fact.z), *placed],
                                   settings=ctx.settings).connected:
            continue
        return x, y
    return None


def place_unit(ctx: Ctx, models: Sequence[ModelState], want: tuple[float, float], centre: Sequence[float] | None) \
        -> None:
    """GEO-25: the first model centred on `want` (or the nearest legal point), the others one by one at the legal
    point closest to the first model that keeps cohesion. A figure with no legal point within 12" stays off the
    table (its `hostiles_spawned` event lists only the placed models)."""
    first: ModelState | None = None
    for m in models:
        placed = [x for x in models if x.deployed]
        at = place_model(ctx, m, want if first is None else (first.x, first.y), centre=centre, mates=placed)
        if at is None:
            continue  # no room within 12": the figure does not appear (it stays off the table)
        m.x, m.y = at
        m.z, m.deployed = 0.0, True
        first = first or m


# --- the trigger queue (TURN-8) ------------------------------------------------------------------------------


def begin(ctx: Ctx, then: str) -> str:
    """Start resolving the queued triggered locations (TURN-8); "decide" or "done"."""
    st = ctx.state
    if st.spawning is None:
        if not st.trigger_queue:
            return f"done:{then}"
        st.spawning = SpawnState(location=st.trigger_queue.pop(0), then=then)
        return _roll(ctx)
    return advance(ctx)


def _roll(ctx: Ctx) -> str:
    """HOSTILE-8.3.ROLL: the triggering player rolls 1 D6 on the TL's column; with an Inspect this turn it may pick
    a result within the shift (GAP-52), a decision; TL0 locations spawn nothing (MISSION-8.2.TL)."""
    st = ctx.state
    sp = st.spawning
    assert sp is not None
    loc = st.locations[sp.location]
    if loc.fixed_spawn is not None:
        return _spawn_fixed(ctx, loc.fixed_spawn)
    if loc.tl == 0:
        ctx.emit("hostile_roll", ("HOSTILE-8.3.ROLL", "MISSION-8.2.TL"), location=loc.id, tl=0, roll=None,
                 note="TL0 (White) has no Zone Hostiles Table")
        return _next(ctx)
    roll = ctx.dice.d6()
    side = loc.triggered_side or ""
    shift = inspect_shift(ctx, loc, side) if side else 0
    choices = list(roll_choices(roll, shift)) if shift else [roll]
    sp.roll = roll
    sp.choices = choices
    ctx.emit("hostile_roll", ("HOSTILE-8.3.ROLL",) + (("GAP-52", "CORE-3.3.INSPECT") if shift else ()),
             location=loc.id, tl=loc.tl, roll=roll, side=side, shift=shift, choices=choices)
    if len(choices) > 1:
        st.phase = Phase.HOSTILE_ROLL
        st.deciding = side
        return "decide"
    return _spawn(ctx, roll)


def check_roll_choice(ctx: Ctx, side: str, result: int) -> None:
    st = ctx.state
    sp = st.spawning
    assert sp is not None
    if side != st.deciding:
        raise IllegalAction(f"{st.deciding} picks this roll, not {side}", "HOSTILE-8.3.ROLL")
    if result not in sp.choices:
        raise IllegalAction(f"result {result!r} is not allowed; the D6 showed {sp.roll}, the Inspect allows "
                            f"{', '.join(map(str, sp.choices))}", "GAP-52")


def choose_roll(ctx: Ctx, side: str, result: int) -> str:
    check_roll_choice(ctx, side, result)
    sp = ctx.state.spawning
    assert sp is not None
    ctx.emit("hostile_roll_chosen", ("GAP-52", "CORE-3.3.INSPECT"), location=sp.location, side=side, roll=sp.roll,
             result=result)
    return _spawn(ctx, result)


def _spawn_fixed(ctx: Ctx, fixed: dict[str, Any]) -> str:
    """A scenario's fixed spawn (SCEN-10.1.CARD, GAP-99: Game One's zombified vehicle crew, 4 Zombies with 2 actions):
    the location's own hostiles appear without a Zone Hostiles Table roll, placed by the standard deployment
    (HOSTILE-8.3.DEPLOY, GEO-25: deviation from the location point), then make their free moves."""
    st = ctx.state
    sp = st.spawning
    assert sp is not None
    loc = st.locations[sp.location]
    hostile, figures = str(fixed["hostile"]), int(fixed["figures"])
    actions = fixed.get("actions") or loc.hostile_actions or max(1, loc.tl)
    ctx.emit("hostile_roll", ("HOSTILE-8.3.ROLL", "SCEN-10.1.CARD", "GAP-99"), location=loc.id, tl=loc.tl, roll=None,
             fixed={"hostile": hostile, "figures": figures, "actions": actions},
             note="the scenario fixes this location's hostiles: no Zone Hostiles Table roll")
    return _spawn(ctx, None, (hostile, figures, False), int(actions))


def _spawn(ctx: Ctx, result: int | None, fixed: tuple[str, int, bool] | None = None,
           actions: int | None = None) -> str:
    """HOSTILE-8.3.TABLE and GEO-25: the force, its units placed by deviation from pL, one `hostiles_spawned` event
    per unit; then the free moves. `fixed`: a scenario's (hostile, figures, anomaly) instead of the table's."""
    st = ctx.state
    sp = st.spawning
    assert sp is not None
    loc = st.locations[sp.location]
    if fixed is None:
        assert result is not None
        hostile, figures, anomaly = table_entry(ctx, loc.tl, result)
        loc.hostile_roll = result
    else:
        hostile, figures, anomaly = fixed
    if anomaly:
        loc.anomaly = True  # SALVAGE-8.4.ANOMALY-PRESENCE (the `*` rows)
    cat = catalog_of(ctx)
    force = new_force(ctx, side=f"zone-{force_tag(ctx, loc.id)}", name=f"{cat.hostile(hostile).name} of {loc.name}",
                      hostile=hostile, location=loc, actions=actions or loc.hostile_actions or loc.tl, roll=result)
    sp.force = force.side
    units = add_units(ctx, force, figures)
    for models in units:
        d10, angle = ctx.dice.d10(), ctx.dice.angle()
        dev = deviation_point((loc.x, loc.y), d10, angle, settings=ctx.settings)
        place_unit(ctx, models, (dev.point[0], dev.point[1]), force.centre)
        unit = models[0].unit
        ctx.emit("hostiles_spawned", SPAWN_RULES + (("HOSTILE-8.3.TABLE",) if fixed is None else
                                                    ("SCEN-10.1.CARD", "GAP-99")) + ("GAP-20",), location=loc.id,
                 unit=unit, side=force.side, hostile=hostile, name=cat.hostile(hostile).name, figures=len(models),
                 models=[m.id for m in models if m.deployed],
                 positions=[[m.x, m.y] for m in models if m.deployed], roll=result,
                 anomaly=anomaly, deviation={"d10": d10, "angle": round(angle, 6), "distance": dev.distance,
                                             "point": [dev.point[0], dev.point[1]]},
                 actions=force.actions)
    sp.pending = [models[0].unit for models in units]
    return _free_moves(ctx)


def _free_moves(ctx: Ctx) -> str:
    """AI-S.SPAWN: each new unit in turn may make its free move (its controller decides)."""
    st = ctx.state
    sp = st.spawning
    assert sp is not None
    while sp.pending:
        unit = sp.pending[0]
        if not st.unit_in_play(unit):
            sp.pending.pop(0)
            continue
        checkpoint(ctx, unit)  # AI-D.01/AI-D.02: the target it moves toward is locked now
        st.phase = Phase.SPAWN_MOVE
        st.deciding = st.units[unit].side
        return "decide"
    return _join(ctx)


def check_free_move(ctx: Ctx, action: Move | StayPut) -> str:
    """HOSTILE-8.3.FREE-MOVE: the unit whose free move it is, a Move (checked like any Move, leash included) or
    StayPut; returns the unit."""
    st = ctx.state
    sp = st.spawning
    assert sp is not None and sp.pending
    unit = sp.pending[0]
    if action.unit != unit:
        raise IllegalAction(f"it is {unit}'s free move, not {action.unit}'s", "HOSTILE-8.3.FREE-MOVE")
    if isinstance(action, Move):
        assert ctx.rules is not None
        ctx.check_action(action, actor=unit, context="spawn")
    return unit


def do_free_move(ctx: Ctx, action: Move | StayPut) -> str:
    """Resolve the free move (no action spent) and log it; the caller opens the TURN-7 window after it."""
    unit = check_free_move(ctx, action)
    sp = ctx.state.spawning
    assert sp is not None
    if isinstance(action, Move):
        ctx.emit("free_move", ("HOSTILE-8.3.FREE-MOVE", "AI-S.SPAWN"), unit=unit, moved=True)
        ctx.resolve(action, actor=unit, context="spawn")
    else:
        ctx.emit("free_move", ("HOSTILE-8.3.FREE-MOVE", "AI-S.SPAWN"), unit=unit, moved=False)
    sp.pending.pop(0)
    return unit


def advance(ctx: Ctx) -> str:
    """Go on after a free move (and its window): the next unit, then the force joins, then the next location."""
    return _free_moves(ctx)


def _join(ctx: Ctx) -> str:
    """HOSTILE-8.3.ACTIVATION / TURN-5.1: the force joins the order list in last place (order of appearance); with
    `hostiles.activate_on_spawn_turn`=false its units wait for the next turn (GAP-19)."""
    st = ctx.state
    sp = st.spawning
    assert sp is not None
    if sp.force is not None:
        if sp.force not in st.order:
            st.order.append(sp.force)
        if not ctx.settings["hostiles.activate_on_spawn_turn"]:
            for u in st.units.values():
                if u.side == sp.force:
                    u.activated = True
        ctx.emit("force_joins", ("HOSTILE-8.3.ACTIVATION", "TURN-5.1", "GAP-19"), side=sp.force,
                 location=sp.location, order=list(st.order),
                 this_turn=bool(ctx.settings["hostiles.activate_on_spawn_turn"]))
    return _next(ctx)


def _next(ctx: Ctx) -> str:
    st = ctx.state
    sp = st.spawning
    assert sp is not None
    then = sp.then
    if st.trigger_queue:
        st.spawning = SpawnState(location=st.trigger_queue.pop(0), then=then)
        return _roll(ctx)
    st.spawning = None
    return f"done:{then}"
