"""The Zone Hostiles' memory (AI-D.02 target lock, AI-D.03 melee draw), kept in the state by `apply` from what
happens, never written by an agent: so a save made mid-activation resumes with the same decisions and a replay
rebuilds it byte for byte.

When it is written:
- `checkpoint(unit)`: at the start of a hostile unit's activation, after each of its actions, and before its
  spawn free move. A lock on a target that is gone is dropped (AI-D.02 (i)); a held lock is refreshed (the last
  known position where the unit sees its target; `lock_ok` when seen or inside the territory); with no lock the
  AI-D.01 choice among vis(H) becomes the lock (`ai.close_tol`). The melee draw (AI-D.03) is the most recent
  attacker still in play.
- `note_melee(unit, attacker)`: an enemy model made a melee attack on the unit.
- `end_activation(unit)`: AI-D.02 (ii), the lock is dropped if its target was neither visible nor inside the
  territory at any check of this activation; the attackers are forgotten; the draw is kept while in base contact.
- `sweep()`: after every decision, locks and draws on models no longer in play are dropped at once.

Each change is an event (`target_locked`, `target_lock_dropped`, `melee_draw`) citing its rule."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.core.rules.exposure import choose_target, seen_by, unit_models
from game.core.rules.queries import in_contact
from game.core.state import HostileMemory, SideKind
from game.core.tolerance import EPS

if TYPE_CHECKING:
    from game.core.rules.context import Ctx


def is_hostile_unit(ctx: Ctx, unit: str) -> bool:
    u = ctx.state.units.get(unit)
    return u is not None and u.side in ctx.state.forces


def memory_of(ctx: Ctx, unit: str) -> HostileMemory:
    mem = ctx.state.ai.get(unit)
    if mem is None:
        mem = ctx.state.ai[unit] = HostileMemory(unit)
    return mem


def in_territory(ctx: Ctx, unit: str, model: str) -> bool:
    """AI-D.02/AI-D.04(b): the model's centre within 12.0" of the unit's location point pL (no location: never)."""
    force = ctx.state.forces.get(ctx.state.units[unit].side)
    m = ctx.state.models[model]
    if force is None or force.centre is None:
        return False
    limit = force.leash if force.leash is not None else 12.0
    return math.hypot(m.x - force.centre[0], m.y - force.centre[1]) <= limit + EPS


def _gone(ctx: Ctx, model: str | None) -> bool:
    m = ctx.state.models.get(model) if model else None
    return m is None or not m.in_play


def _drop(ctx: Ctx, mem: HostileMemory, why: str, rule: str) -> None:
    ctx.emit("target_lock_dropped", tuple(dict.fromkeys((rule, "AI-D.02"))), unit=mem.unit, target=mem.lock, why=why)
    mem.lock = None
    mem.last_known = []
    mem.lock_ok = False


def checkpoint(ctx: Ctx, unit: str) -> None:
    """AI-D.02/AI-D.03 at one check of hostile unit `unit` (see the module docstring)."""
    st = ctx.state
    if not is_hostile_unit(ctx, unit) or not st.unit_in_play(unit):
        return
    mem = memory_of(ctx, unit)
    if mem.lock is not None and _gone(ctx, mem.lock):
        _drop(ctx, mem, "the target is Out of Action or Dead", "AI-D.02")
    if mem.lock is None:
        choice = choose_target(st, unit, close_tol=float(ctx.settings["ai.close_tol"]),
                               hostile_vs_hostile=bool(ctx.settings["ai.hostile_vs_hostile"]))
        picked = choice.chosen
        if picked is not None:
            t = st.models[picked.enemy]
            mem.lock, mem.last_known, mem.lock_ok = t.id, [t.x, t.y], True
            ctx.emit("target_locked", ("AI-D.01", "AI-D.02", "AI-8.3.RULE3"), unit=unit, target=t.id,
                     at=[t.x, t.y], distance=round(picked.distance, 4), pen=picked.pen, in_open=picked.in_open,
                     candidates=[f.enemy for f in choice.ranked])
    else:
        t = st.models[mem.lock]
        if seen_by(st, unit, t.id):
            mem.last_known = [t.x, t.y]
            mem.lock_ok = True
        elif in_territory(ctx, unit, t.id):
            mem.lock_ok = True
        else:
            mem.unseen += 1
    _update_draw(ctx, mem)


def _update_draw(ctx: Ctx, mem: HostileMemory) -> None:
    """AI-D.03: the most recent melee attacker still in play draws the unit (if it is gone, the previous one)."""
    live = [a for a in mem.attackers if not _gone(ctx, a)]
    if live:
        pick: str | None = live[-1]
    elif mem.draw is not None and not _gone(ctx, mem.draw) and _in_contact(ctx, mem.unit, mem.draw):
        pick = mem.draw  # "H keeps meleeing it while in contact"
    else:
        pick = None
    if pick != mem.draw:
        ctx.emit("melee_draw", ("AI-D.03", "AI-8.3.RULE4"), unit=mem.unit, target=pick, previous=mem.draw)
        mem.draw = pick


def _in_contact(ctx: Ctx, unit: str, model: str) -> bool:
    e = ctx.state.models[model]
    return any(in_contact(ctx, m, e) for m in unit_models(ctx.state, unit))


def note_melee(ctx: Ctx, unit: str, attacker: str) -> None:
    """AI-D.03: an enemy model made a melee attack on hostile unit `unit`."""
    if not is_hostile_unit(ctx, unit):
        return
    a = ctx.state.models.get(attacker)
    if a is None:
        return
    if ctx.state.side(a.side).kind is not SideKind.CREW and not ctx.settings["ai.hostile_vs_hostile"]:
        return
    mem = memory_of(ctx, unit)
    if attacker in mem.attackers:
        mem.attackers.remove(attacker)
    mem.attackers.append(attacker)
    _update_draw(ctx, mem)


def end_activation(ctx: Ctx, unit: str) -> None:
    """AI-D.02 (ii) and AI-D.03 at the end of the unit's activation (see the module docstring)."""
    if not is_hostile_unit(ctx, unit):
        return
    mem = memory_of(ctx, unit)
    if mem.lock is not None and not mem.lock_ok:
        _drop(ctx, mem, "neither visible nor inside the territory at any check of this activation", "AI-D.02")
    mem.lock_ok = False
    mem.unseen = 0
    mem.attackers = []
    if mem.draw is not None and (_gone(ctx, mem.draw) or not _in_contact(ctx, unit, mem.draw)):
        ctx.emit("melee_draw", ("AI-D.03", "AI-8.3.RULE4"), unit=unit, target=None, previous=mem.draw)
        mem.draw = None


def sweep(ctx: Ctx) -> None:
    """AI-D.02 (i): a lock (or a draw) on a model no longer in play is dropped as soon as it happens."""
    for mem in ctx.state.ai.values():
        if mem.lock is not None and _gone(ctx, mem.lock):
            _drop(ctx, mem, "the target is Out of Action or Dead", "AI-D.02")
        if mem.draw is not None and _gone(ctx, mem.draw):
            live = [a for a in mem.attackers if not _gone(ctx, a)]
            new = live[-1] if live else None
            ctx.emit("melee_draw", ("AI-D.03", "AI-8.3.RULE4"), unit=mem.unit, target=new, previous=mem.draw)
            mem.draw = new


def target_of(ctx: Ctx, unit: str) -> str | None:
    """The unit's current target: the melee draw (AI-D.03 overrides the lock), else the lock (AI-D.02)."""
    mem = ctx.state.ai.get(unit)
    if mem is None:
        return None
    return mem.draw or mem.lock
