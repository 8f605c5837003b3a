"""Factions on the table (FACTION-7.2): the relation of two crews (FACTION-7.2.TABLE, GAP-43), Allied crews who may
not attack each other unless the Leader broke the alliance (FACTION-7.2.ALLIED, the BreakAlliance action), and the
Enemy priority rule with its free override check (FACTION-7.2.ENEMY, GAP-44). Hostile forces are never concerned:
only two crews (SideKind.CREW) with factions have a relation; a crew without a faction is Neutral to everyone."""
from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from game.core.actions import BreakAlliance, IllegalAction
from game.core.dice import Modifier
from game.core.rules.stats import will_tn
from game.core.settings import Settings
from game.core.state import GameState, ModelState, SideKind, SideState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

FACTIONS = ("military", "scientists", "bandits", "independents", "cultists", "traders")  # FACTION-7.2.LIST


class Relation(enum.Enum):
    """FACTION-7.2.RELATIONS."""

    ALLIED = "allied"
    NEUTRAL = "neutral"
    ENEMY = "enemy"


# FACTION-7.2.TABLE rows 1-3 [BOOK], columns in FACTIONS order; rows 4-6 are the `factions.table.*` settings (GAP-43).
_BOOK_ROWS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "military": ("allied", "allied", "enemy", "neutral", "enemy", "neutral"),
    "scientists": ("allied", "allied", "neutral", "allied", "neutral", "allied"),
    "bandits": ("enemy", "enemy", "allied", "neutral", "neutral", "enemy"),
})

# FACTION-7.2.PERKS: free starting gear (catalog equipment ids); it starts in Spare Equipment (GAP-47).
_STARTING_GEAR: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "military": ("red_dot", "red_dot", "hot_load"),
    "scientists": ("detector", "medkit", "tool_kit"),
    "bandits": ("electric_juice", "electric_juice", "chest_rig"),
    "independents": ("gas_mask", "medkit", "scope"),
    "cultists": ("nods", "medkit", "medkit"),
    "traders": (),
})

BREAK_DIFFICULTY = 4  # FACTION-7.2.ALLIED: TN = Will - 4, two Leader actions (TV-20: Will 7 -> TN 3)
OVERRIDE_DIFFICULTY = 2  # FACTION-7.2.ENEMY: TN = Will - 2, free (GAP-44; TV-20: Will 7 -> TN 5)


def starting_gear(faction: str | None) -> tuple[str, ...]:
    """FACTION-7.2.PERKS: the faction's free starting gear (none without a faction)."""
    return _STARTING_GEAR.get(faction or "", ())


def relation(settings: Settings, own: str | None, other: str | None) -> Relation:
    """FACTION-7.2.RELATIONS: read the row of `own` against the column of `other` (not symmetric); a crew without a
    faction (None) is Neutral both ways (FACTION-7.2.NEUTRAL)."""
    if own is None or other is None:
        return Relation.NEUTRAL
    if own not in FACTIONS or other not in FACTIONS:
        raise ValueError(f"unknown faction {own if own not in FACTIONS else other!r}; known: {', '.join(FACTIONS)}")
    row = _BOOK_ROWS.get(own) or _house_row(settings, own)
    return Relation(row[FACTIONS.index(other)])


def _house_row(s: Settings, own: str) -> tuple[str, ...]:
    """GAP-43 (`factions.table.*`): the rows the book lost."""
    rows = {"independents": s["factions.table.independents"], "cultists": s["factions.table.cultists"],
            "traders": s["factions.table.traders"]}
    return tuple(rows[own])


def side_relation(st: GameState, settings: Settings, own: str, other: str) -> Relation | None:
    """The relation of crew `own` toward crew `other` in this game, None when either is not a crew (hostile forces
    have no relation) or they are the same side. A broken alliance that led to an attack made them Enemies
    (FACTION-7.2.ALLIED: "Enemies for the rest of the campaign")."""
    if own == other:
        return None
    a, b = _crew(st, own), _crew(st, other)
    if a is None or b is None:
        return None
    if other in a.faction_enemies:
        return Relation.ENEMY
    return relation(settings, a.faction, b.faction)


def _crew(st: GameState, side_id: str) -> SideState | None:
    for s in st.sides:
        if s.id == side_id:
            return s if s.kind is SideKind.CREW else None
    return None


def in_play_of(st: GameState, side_id: str) -> bool:
    return any(m.side == side_id and m.in_play and m.deployed for m in st.models.values())


def enemy_crews_in_play(st: GameState, settings: Settings, side_id: str) -> list[str]:
    """GAP-44: the Enemy crews (toward `side_id`) with a model in play (deployed, not OOA or Dead)."""
    return [s.id for s in st.sides
            if side_relation(st, settings, side_id, s.id) is Relation.ENEMY and in_play_of(st, s.id)]


def alliance_targets(st: GameState, settings: Settings, side_id: str) -> list[str]:
    """The crews `side_id` is Allied to and has not yet broken with (the sides a BreakAlliance may name)."""
    me = _crew(st, side_id)
    if me is None or me.faction is None:
        return []
    return [s.id for s in st.sides if side_relation(st, settings, side_id, s.id) is Relation.ALLIED
            and s.id not in me.alliance_broken]


# --- hooks the action checks call -----------------------------------------------------------------------------


def check_attack(ctx: Ctx, attacker: ModelState, target: ModelState) -> None:
    """FACTION-7.2.ALLIED: a crew may not attack a model of a crew it is Allied to unless its Leader passed the
    break-alliance check this mission (attacks at a model: ranged and melee)."""
    st = ctx.state
    if side_relation(st, ctx.settings, attacker.side, target.side) is not Relation.ALLIED:
        return
    me = _crew(st, attacker.side)
    assert me is not None
    if target.side in me.alliance_broken:
        return
    tries = me.break_tries.get(target.side, 0)
    how = ("its Leader failed the break-alliance check this mission" if tries else
           "its Leader must first pass the break-alliance Will check (BreakAlliance, 2 actions, TN Will-4)")
    raise IllegalAction(f"{attacker.id}'s crew is Allied to {target.side}; {how}", "FACTION-7.2.ALLIED")


_BLOCK_NAMES = {"search": "Search", "inspect": "Inspect", "bolt_toss": "Bolt Toss", "interact": "interact with"}


def check_location_action(ctx: Ctx, m: ModelState, what: str) -> None:
    """GAP-44 (`factions.checks.blocked`): while an Enemy crew has a model in play and the crew's Leader has not
    passed the override check, the crew may not Search, Inspect, Bolt Toss or interact with locations (moving still
    triggers them). `what` is one of "search", "inspect", "bolt_toss", "interact"."""
    st, s = ctx.state, ctx.settings
    if what not in s["factions.checks.blocked"]:
        return
    me = _crew(st, m.side)
    if me is None or me.faction_override == "passed" or (me.faction is None and not me.faction_enemies):
        return  # no faction, no relations (FACTION-7.2.NEUTRAL)
    foes = enemy_crews_in_play(st, s, m.side)
    if foes:
        state = "failed its override check" if me.faction_override == "failed" else "not passed the override check"
        raise IllegalAction(f"{m.side} must deal with the Enemy crew {', '.join(foes)} first: it may not "
                            f"{_BLOCK_NAMES[what]} a location while an Enemy model is in play (its Leader has "
                            f"{state})", "FACTION-7.2.ENEMY")


def at_activation(ctx: Ctx, unit_id: str) -> None:
    """GAP-44 (`factions.checks.override_when`): the free override check (TN Will-2) of a crew Leader at the start
    of his first activation in which an Enemy crew model is in play, once per mission."""
    st, s = ctx.state, ctx.settings
    if s["factions.checks.override_when"] != "leader_first_activation_with_enemy":
        return
    leader = next((m for m in st.unit_models(unit_id) if m.in_play), None)
    if leader is None or not leader.profile.leader:
        return
    me = _crew(st, leader.side)
    if me is None or me.faction_override or (me.faction is None and not me.faction_enemies):
        return
    foes = enemy_crews_in_play(st, s, leader.side)
    if not foes or leader.profile.will is None:
        return
    tn = will_tn(leader, (Modifier("Difficulty 2", -OVERRIDE_DIFFICULTY, "FACTION-7.2.ENEMY"),))
    rules = ("FACTION-7.2.ENEMY", "GAP-44")
    res = ctx.roll_pool(1, tn, what="Enemy priority override", who=leader.id, rules=rules)
    me.faction_override = "passed" if res.successes else "failed"
    ctx.emit("faction_override", rules, side=leader.side, leader=leader.id, enemies=foes, tn=tn.value,
             roll=res.faces[0], passed=bool(res.successes))


# --- the break-alliance action (FACTION-7.2.ALLIED) -----------------------------------------------------------


def check_break(ctx: Ctx, act: BreakAlliance, m: ModelState, context: str) -> int:
    """FACTION-7.2.ALLIED / GAP-44: the crew Leader, in his own activation, two actions, against a crew his crew is
    Allied to; `factions.checks.break_attempts` attempts per mission against that crew."""
    st, s = ctx.state, ctx.settings
    if not m.profile.leader:
        raise IllegalAction(f"{m.id} is not the crew Leader: only the Leader may break an alliance",
                            "FACTION-7.2.ALLIED")
    if context != "own":
        raise IllegalAction("breaking an alliance takes two of the Leader's own actions", "FACTION-7.2.ALLIED")
    me = _crew(st, m.side)
    rel = side_relation(st, s, m.side, act.side)
    if me is None or rel is not Relation.ALLIED:
        shown = rel.value if rel is not None else "no crew relation"
        raise IllegalAction(f"{m.side} is not Allied to {act.side!r} ({shown})", "FACTION-7.2.ALLIED")
    if act.side in me.alliance_broken:
        raise IllegalAction(f"{m.side} has already broken its alliance with {act.side}", "FACTION-7.2.ALLIED")
    tries = me.break_tries.get(act.side, 0)
    if tries >= s["factions.checks.break_attempts"]:
        raise IllegalAction(f"{m.side} has made its {tries} break-alliance attempt(s) against {act.side} this "
                            f"mission (factions.checks.break_attempts)", "GAP-44")
    if m.profile.will is None:
        raise IllegalAction(f"{m.id} has Will NA", "GAP-22")
    return act.cost


def do_break(ctx: Ctx, act: BreakAlliance, m: ModelState, context: str) -> int:
    """FACTION-7.2.ALLIED: D10 against Will - 4 (TV-20); success frees the crew to attack that crew this mission."""
    me = _crew(ctx.state, m.side)
    assert me is not None
    me.break_tries[act.side] = me.break_tries.get(act.side, 0) + 1
    tn = will_tn(m, (Modifier("Difficulty 4", -BREAK_DIFFICULTY, "FACTION-7.2.ALLIED"),))
    rules = ("FACTION-7.2.ALLIED", "GAP-44")
    res = ctx.roll_pool(1, tn, what=f"break the alliance with {act.side}", who=m.id, rules=rules)
    passed = bool(res.successes)
    if passed:
        me.alliance_broken.append(act.side)
    ctx.emit("break_alliance", rules, side=m.side, leader=m.id, target_side=act.side, tn=tn.value,
             roll=res.faces[0], passed=passed, attempts=me.break_tries[act.side])
    return act.cost


def note_attack(ctx: Ctx, attacker: ModelState, target_id: str) -> None:
    """FACTION-7.2.ALLIED: once an attack is made on a crew whose alliance was broken, the two crews are Enemies
    (for the rest of the campaign; in this mission the Enemy priority rule then applies to both). [HOUSE] A crew
    attacked by one it counts as Allied (the table is not symmetric: Traders see Independents as Neutral, Independents
    see Traders as Allied) is freed: it counts the attacker as an Enemy from then on."""
    st = ctx.state
    t = st.models.get(target_id)
    if t is None:
        return
    me, them = _crew(st, attacker.side), _crew(st, t.side)
    if me is None or them is None:
        return
    changed = []
    if t.side in me.alliance_broken and t.side not in me.faction_enemies:
        me.faction_enemies.append(t.side)
        changed.append(attacker.side)
        if attacker.side not in them.faction_enemies:
            them.faction_enemies.append(attacker.side)
            changed.append(t.side)
    elif side_relation(st, ctx.settings, t.side, attacker.side) is Relation.ALLIED:
        them.faction_enemies.append(attacker.side)
        changed.append(t.side)
    if changed:
        ctx.emit("crews_now_enemies", ("FACTION-7.2.ALLIED",), sides=[attacker.side, t.side], attacker=attacker.id,
                 target=t.id, now_enemy=changed)
