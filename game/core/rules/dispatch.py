"""The action tables: which check and which resolution each unit action has, the checks every action shares
(Pins, prone, Engaged, crew-served weapons), and the continuations that finish a resolution (TURN-6, CORE-3.3)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import game.core.rules.anomaly as anomaly
import game.core.rules.basic as basic
import game.core.rules.blasts as blasts
import game.core.rules.burn as burn
import game.core.rules.factions as factions
import game.core.rules.fire as fire
import game.core.rules.items as items
import game.core.rules.melee as melee
import game.core.rules.memory as memory
import game.core.rules.moves as moves
import game.core.rules.orders as orders
import game.core.rules.scouting as scouting
import game.core.rules.tasks as tasks
import game.core.rules.template_effects as template_effects
from game.core.actions import (
    Action,
    Aim,
    Alert,
    BoltToss,
    BreakAlliance,
    Climb,
    ComplexTask,
    FlameAttack,
    IllegalAction,
    Inspect,
    Jump,
    MeleeAttack,
    Move,
    Order,
    Rally,
    RangedAttack,
    Recover,
    Reload,
    Search,
    SearchAnomaly,
    TemplateAttack,
    ThrowGrenade,
    UseItem,
    Withdraw,
)
from game.core.catalog.profiles import Special
from game.core.rules.attack import deflection_will
from game.core.rules.movepath import counts_for_hustle
from game.core.rules.queries import catalog_of, engaged, sole_model
from game.core.state import ModelState, Phase

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

Check = Callable[["Ctx", Any, ModelState, str], int]
Do = Callable[["Ctx", Any, ModelState, str], int]

# Every unit action: (check, do). check raises IllegalAction or returns the cost; do resolves and returns the actions
# spent. Deploy and the decisions of the turn machine (initiative, interrupts, Med-Kits, Parry) are not unit actions.
TABLE: dict[type, tuple[Check, Do]] = {
    Move: (moves.check_move, moves.do_move),
    Climb: (moves.check_climb, moves.do_climb),
    Jump: (moves.check_jump, moves.do_jump),
    Aim: (basic.check_aim, basic.do_aim),
    Alert: (basic.check_alert, basic.do_alert),
    Rally: (basic.check_rally, basic.do_rally),
    Recover: (basic.check_recover, basic.do_recover),
    Reload: (basic.check_reload, basic.do_reload),
    UseItem: (items.check_use_item, items.do_use_item),
    ComplexTask: (tasks.check_task, tasks.do_task),
    Order: (orders.check_order, orders.do_order),
    RangedAttack: (fire.check_ranged, fire.do_ranged),
    MeleeAttack: (melee.check_melee, melee.do_melee),
    Withdraw: (melee.check_withdraw, melee.do_withdraw),
    ThrowGrenade: (blasts.check_throw, blasts.do_throw),
    TemplateAttack: (blasts.check_template_attack, blasts.do_template_attack),
    FlameAttack: (blasts.check_flame, blasts.do_flame),
    Inspect: (scouting.check_inspect, scouting.do_inspect),
    BoltToss: (scouting.check_bolt, scouting.do_bolt),
    Search: (scouting.check_search, scouting.do_search),
    BreakAlliance: (factions.check_break, factions.do_break),
    SearchAnomaly: (anomaly.check_search_anomaly, anomaly.do_search_anomaly),
}


def check(ctx: Ctx, action: Action, *, actor: str, context: str) -> int:
    """Raise IllegalAction if `actor` may not take `action` now; return its cost in actions.

    context: "own" (its activation), "alert" (a held action, TURN-7; an Order held so, and its recipient's action),
    "ordered" (SKILL-6.1.LEADER-ORDER), "window" (a free self Med-Kit at a TURN-7 window, COMBAT-4.4.MEDKIT-DELAY).
    """
    st = ctx.state
    unit = st.units[actor]
    m = sole_model(ctx, actor)
    self_kit = isinstance(action, UseItem) and action.item == "medkit" and action.target in (None, m.id)
    if unit.pins > 0 and not isinstance(action, Rally):
        allowed = ctx.settings["pin.allowed"]
        if not (self_kit and "self_medkit" in allowed):
            raise IllegalAction(f"{actor} is Pinned ({unit.pins}) and may only Rally", "COMBAT-4.4.PIN-LOCK")
    if m.prone and not isinstance(action, Recover):
        raise IllegalAction(f"{actor} is prone and may only Recover", "GAP-89")
    _check_engaged(ctx, action, m)
    if type(action).__name__ in ("Move", "Climb", "Jump") and _crew_served(ctx, m):
        raise IllegalAction(f"{m.id} mans a crew-served weapon, a static emplacement", "ARMORY-5.1.SR-CREW")
    entry = TABLE.get(type(action))
    if entry is None:
        raise IllegalAction(f"{type(action).__name__} is not an action a unit can take now", "CORE-3.3.GENERAL")
    return entry[0](ctx, action, m, context)


# GAP-78 names of the actions `melee.engaged_actions` may list; Move, Climb and Jump refuse contact themselves
# (COMBAT-4.3.WITHDRAW) and Recover is the one thing a prone model may do (GAP-89).
_ENGAGED_NAMES = {"Aim": "aim", "Alert": "alert", "ComplexTask": "complex_task", "FlameAttack": "flame_attack",
                  "MeleeAttack": "melee_attack", "Order": "order", "RangedAttack": "ranged_attack",
                  "Rally": "rally", "Reload": "reload", "TemplateAttack": "template_attack",
                  "ThrowGrenade": "throw_grenade", "Withdraw": "withdraw", "Inspect": "inspect",
                  "BoltToss": "bolt_toss", "Search": "search", "SearchAnomaly": "search_anomaly"}


def engaged_action_name(action: Action, m: ModelState) -> str | None:
    """The GAP-78 name of an action for the Engaged whitelist, None when the whitelist does not judge it."""
    if isinstance(action, UseItem):
        if action.item == "medkit":
            return "self_medkit" if action.target in (None, m.id) else "medkit_ally"
        return action.item
    return _ENGAGED_NAMES.get(type(action).__name__)


def _check_engaged(ctx: Ctx, action: Action, m: ModelState) -> None:
    """TURN-6 step 3 / GAP-78 (`melee.engaged_actions`): a model in base contact with an enemy may only melee
    attack, Aim, Withdraw, Rally, use a Med-Kit on itself or an ally in contact, or take Electric Juice."""
    name = engaged_action_name(action, m)
    if name is None or name in ctx.settings["melee.engaged_actions"]:
        return
    if engaged(ctx, m):
        raise IllegalAction(f"{m.id} is Engaged in melee and may not {name.replace('_', ' ')}; allowed: "
                            f"{', '.join(ctx.settings['melee.engaged_actions'])}", "GAP-78")


def _crew_served(ctx: Ctx, m: ModelState) -> bool:
    """ARMORY-5.1.SR-CREW / GAP-94: a crew-served weapon never moves, nor does the model manning it."""
    cat = catalog_of(ctx)
    return any(Special.CREW_SERVED in cat.weapon(w).specials for w in m.profile.weapons)


def do(ctx: Ctx, action: Action, *, actor: str, context: str) -> int:
    """Resolve a checked action; return the actions actually spent."""
    m = sole_model(ctx, actor)
    act = ctx.state.activation
    blame(ctx, m, type(action).__name__)  # POST-8.5.EARN: what this action puts out of play is the actor's doing
    spent = TABLE[type(action)][1](ctx, action, m, context)
    if isinstance(action, MeleeAttack) and ctx.state.ai:
        t = ctx.state.models.get(action.target)
        if t is not None:
            memory.note_melee(ctx, t.unit, m.id)  # AI-D.03: the attack draws the hostile unit
    if isinstance(action, (RangedAttack, MeleeAttack)):
        factions.note_attack(ctx, m, action.target)  # FACTION-7.2.ALLIED: the attack makes the crews Enemies
    keeps = Order if context == "own" else Aim if context == "ordered" else None
    if act is not None and spent and keeps is not None and not isinstance(action, keeps):
        act.ordered_aim = None  # CORE-3.3.AIM/GAP-37: an ordered Aim is lost unless the next action is the attack
    if context == "own" and act is not None and act.unit == actor:
        if not isinstance(action, Aim) and spent and ctx.settings["aim.expires"] == "next_action":
            act.aim = False  # CORE-3.3.AIM: any other action loses the Aim (free acts are not actions)
        if counts_for_hustle(action, ctx.settings):
            act.move_run += spent  # a Climb commits `actions` Moves (GEO-24); a Withdraw is a Move (SKILL-6.1.HUSTLE)
        elif spent:
            act.move_run = 0
        act.last_action = type(action).__name__
    return spent


def blame(ctx: Ctx, m: ModelState, cause: str) -> None:
    """POST-8.5.EARN kills: the model whose action (or hits) is being resolved is the source of the Wounds it causes
    (`GameState.blame`, read when a model goes Out of Action or dies: `ModelState.out_by`)."""
    ctx.state.blame = {"model": m.id, "side": m.side, "cause": cause}


# What a Med-Kit or Parry decision interrupted, finished in order once the decision is made (kind -> step).
CONTINUATIONS: dict[str, Callable[[Ctx, dict[str, Any]], None]] = {
    "deflect_will": deflection_will,
    "melee_outcome": melee.melee_outcome,
    "withdraw_move": melee.withdraw_move,
    "burn": burn.burn_step,
    "smoke_will": template_effects.smoke_check,
}


def run_continuations(ctx: Ctx) -> None:
    """Finish what a Wound decision (Med-Kit) or a Parry decision interrupted, in order."""
    st = ctx.state
    while st.continuations and st.phase not in (Phase.MEDKIT, Phase.PARRY, Phase.FOUND_ITEM):
        c = st.continuations[0]
        if c["kind"] == "melee_round":
            if c["parry"] is None:
                return
            st.continuations.pop(0)
            melee.resolve_melee_round(ctx, c)
            continue
        st.continuations.pop(0)
        CONTINUATIONS[c["kind"]](ctx, c)


@dataclass(frozen=True, slots=True)
class _Actions:
    """The action table as the apply context's `rules` (game.core.rules.context.ActionRules)."""

    def check(self, ctx: Ctx, action: Action, *, actor: str, context: str) -> int:
        return check(ctx, action, actor=actor, context=context)

    def do(self, ctx: Ctx, action: Action, *, actor: str, context: str) -> int:
        return do(ctx, action, actor=actor, context=context)


ACTIONS = _Actions()
