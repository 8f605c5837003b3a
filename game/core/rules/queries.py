"""Who sees, touches, leads and helps whom: the read-only questions every action family asks (GEO-6, GEO-10, GAP-78)."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import game.core.rules.factions as factions
from game.core.actions import IllegalAction
from game.core.battlefield import SmokeCloud
from game.core.catalog import Catalog, load_catalog
from game.core.dice import Modifier
from game.core.state import ModelState, TaskState
from game.core.tolerance import EPS

if TYPE_CHECKING:
    from game.core.rules.context import Ctx


def catalog_of(ctx: Ctx) -> Catalog:
    return load_catalog(ctx.settings)


def contact_tol(ctx: Ctx) -> float:
    return float(ctx.settings["geo.contact_tol"])


def in_contact(ctx: Ctx, a: ModelState, b: ModelState) -> bool:
    """GEO-6 base contact (edge distance within `geo.contact_tol`), on the models' coordinates."""
    return math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius <= contact_tol(ctx) + EPS


def contacts_of(ctx: Ctx, m: ModelState) -> list[ModelState]:
    """Every other model in play in base contact with m (any side): `in_contact`'s test, its tolerance read once."""
    tol = contact_tol(ctx) + EPS
    x, y, r = m.x, m.y, m.radius
    return [o for o in ctx.state.models.values()
            if o.id != m.id and o.in_play and math.hypot(x - o.x, y - o.y) - r - o.radius <= tol]


def opposed(ctx: Ctx, a: str, b: str) -> bool:
    """Sides a and b are enemies: different sides, except two hostile forces, which never fight each other
    (GAP-114, `ai.hostile_vs_hostile`=false)."""
    if a == b:
        return False
    forces = ctx.state.forces
    return not (a in forces and b in forces) or bool(ctx.settings["ai.hostile_vs_hostile"])


def enemy_contacts(ctx: Ctx, m: ModelState) -> list[ModelState]:
    return [o for o in contacts_of(ctx, m) if opposed(ctx, m.side, o.side)]


def unit_mates(ctx: Ctx, m: ModelState) -> list[ModelState]:
    """The models in play of m's unit, in unit order (CORE-3.7.AS-ONE-MODEL)."""
    st = ctx.state
    return [st.models[x] for x in st.units[m.unit].models if st.models[x].in_play]


def target_model(ctx: Ctx, a: ModelState, target_id: str) -> ModelState:
    t = ctx.state.models.get(target_id)
    if t is None or not t.deployed:
        raise IllegalAction(f"no model {target_id!r} on the table", "CORE-3.3.ATTACK")
    if t.side == a.side:
        raise IllegalAction(f"{target_id} is a friend", "CORE-3.3.ATTACK")
    if not opposed(ctx, a.side, t.side):
        raise IllegalAction(f"{target_id} belongs to another hostile force: hostile forces never attack each other",
                            "GAP-114")
    if t.dead:
        raise IllegalAction(f"{target_id} is dead", "COMBAT-4.4.PERMA-DEAD")
    factions.check_attack(ctx, a, t)  # FACTION-7.2.ALLIED: Allied crews do not attack each other
    return t


def sole_model(ctx: Ctx, unit_id: str) -> ModelState:
    models = ctx.state.unit_models(unit_id)
    live = [m for m in models if m.in_play]
    if not live:
        raise IllegalAction(f"{unit_id} has no model in play", "COMBAT-4.4.OOA")
    return live[0]


def can_see(ctx: Ctx, a: ModelState, b: ModelState) -> bool:
    """GEO-10 mutual LOS between two models. On a table with no terrain and no smoke nothing can block
    a ray (models never block, `los.models_block`=false), so the answer is known without tracing."""
    bf = ctx.battlefield
    dark = ctx.state.environment == "sudden_darkness" and "nods" not in a.items
    limit = float(ctx.settings["env.darkness_los"]) if dark else None  # GAP-59, NODs ignore it (GAP-109)
    if not bf.pieces and not ctx.state.smoke and not ctx.settings["los.models_block"]:
        return limit is None or math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius <= limit + EPS
    from game.core.geometry.sight.los import line_of_sight, sees

    if ctx.settings["los.models_block"] or not (a.in_play and b.in_play):
        return line_of_sight(bf, ctx.state.scene(), a.id, b.id, settings=ctx.settings, max_distance=limit).visible
    # the other bases play no part: the two bases and the smoke are the scene's (`GameState.scene`), no more
    smoke = tuple(SmokeCloud(c["x"], c["y"], c["z"], c["radius"], c["height"]) for c in ctx.state.smoke)
    return sees(bf, a.base(), b.base(), smoke, settings=ctx.settings, max_distance=limit)


def enemies_of(ctx: Ctx, side: str) -> list[ModelState]:
    return [m for m in ctx.state.models.values() if m.in_play and opposed(ctx, side, m.side)]


def engaged(ctx: Ctx, m: ModelState) -> bool:
    """GAP-78: a model in base contact with an enemy is Engaged."""
    tol = ctx.settings["geo.contact_tol"] + EPS
    return any(math.hypot(m.x - e.x, m.y - e.y) - m.radius - e.radius <= tol for e in enemies_of(ctx, m.side))


def leader_bonus(ctx: Ctx, m: ModelState) -> tuple[Modifier, ...]:
    """SKILL-6.1.LEADER / GAP-36 (`leader.bonus_applies`, `leader.self_bonus`): +1 to Will-based rolls of allies
    in the Leader's LOS, any range; `leader.bonus_needs_los`=false: at any range without LOS."""
    if ctx.settings["leader.bonus_applies"] != "all_will_based_rolls":
        return ()
    needs_los = ctx.settings["leader.bonus_needs_los"]
    for other in ctx.state.models.values():
        if not other.in_play or other.side != m.side or not other.profile.leader:
            continue
        if other.id == m.id and not ctx.settings["leader.self_bonus"]:
            continue
        if not needs_los:
            return (Modifier("Leader", 1, "SKILL-6.1.LEADER"),)
        if other.id == m.id or can_see(ctx, other, m):
            return (Modifier("Leader in LOS", 1, "SKILL-6.1.LEADER"),)
    return ()


def in_task_contact(ctx: Ctx, m: ModelState, task: TaskState) -> bool:
    d = max(0.0, math.hypot(m.x - task.x, m.y - task.y) - m.radius - task.radius)
    return d <= ctx.settings["geo.contact_tol"] + EPS


def aim_pending(ctx: Ctx, m: ModelState, context: str) -> bool:
    """CORE-3.3.AIM: an Aim pays off on the attack that immediately follows it: in the model's own activation, or
    when a Leader's consecutive Orders hand the same recipient an Aim then the attack (a transferred pair, GAP-37).
    A held Alert action is a single action and never follows an Aim (GAP-17)."""
    act = ctx.state.activation
    if act is None:
        return False
    if context == "own":
        return act.unit == m.unit and act.aim
    return context == "ordered" and act.ordered_aim == m.unit
