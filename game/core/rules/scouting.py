"""Scouting a location: Inspect / Binoculars (CORE-3.3.INSPECT, GEO-23, GAP-52, TV-35), Bolt Toss
(MISSION-8.2.BOLT-TOSS, GAP-51) and Search (MISSION-8.2.CLEARING, GAP-53), all refused for hostiles (AI-C.6): the
action family over rules/locations.py."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import game.core.rules.factions as factions
from game.core.actions import BoltToss, IllegalAction, Inspect, Search
from game.core.catalog.profiles import Template
from game.core.dice import Modifier, TargetNumber
from game.core.geometry.distance import EPS, point_distance
from game.core.geometry.zone import InspectFact, inspect_range
from game.core.rules.context import record_crit
from game.core.rules.delivery import Blast, delivery
from game.core.rules.keycard import check_key
from game.core.rules.locations import location_of, record_trigger, refuse_hostile
from game.core.rules.queries import contact_tol, leader_bonus
from game.core.rules.salvage import search_reward
from game.core.rules.stats import effective_ca, will_tn
from game.core.state import LocationState, ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx


def inspect_fact(ctx: Ctx, m: ModelState, loc: LocationState) -> InspectFact:
    """GEO-23: the location point within 12" of the model's base (24" with Binoculars, EQUIP-6.2.BINOCULARS) and
    in its LOS (a 0.5"-tall marker at the point)."""
    return inspect_range(ctx.battlefield, ctx.state.scene(), m.id, (loc.x, loc.y),
                         binoculars="binoculars" in m.items, settings=ctx.settings)


def check_inspect(ctx: Ctx, a: Inspect, m: ModelState, context: str) -> int:
    """CORE-3.3.INSPECT: a player model, a location not yet triggered or searched, not inspected by this player
    this turn already (GAP-52: no stacking), in range and LOS (GEO-23)."""
    refuse_hostile(ctx, m, "Inspect")
    factions.check_location_action(ctx, m, "inspect")  # FACTION-7.2.ENEMY / GAP-44
    loc = location_of(ctx, a.location, "CORE-3.3.INSPECT")
    if loc.searched or loc.triggered:
        state = "searched" if loc.searched else "triggered"
        raise IllegalAction(f"{loc.id} is already {state}: an Inspect shifts only a Zone Hostiles roll still to "
                            "come", "CORE-3.3.INSPECT")
    if loc.inspected.get(m.side) == ctx.state.turn:
        raise IllegalAction(f"{m.side} has already inspected {loc.id} this turn (Inspects do not stack)", "GAP-52")
    fact = inspect_fact(ctx, m, loc)
    if not fact.ok:
        why = [] if fact.in_range else [f"{fact.distance:.2f}\" away, over the {fact.limit:g}\" Inspect range"]
        why += [] if fact.in_los else ["the location point is not in LOS"]
        raise IllegalAction(f"{m.id} cannot inspect {loc.id}: {'; '.join(why)}", "GEO-23")
    return 1


def do_inspect(ctx: Ctx, a: Inspect, m: ModelState, context: str) -> int:
    loc = ctx.state.locations[a.location]
    fact = inspect_fact(ctx, m, loc)
    loc.inspected[m.side] = ctx.state.turn
    binoculars = "binoculars" in m.items
    rules = ("CORE-3.3.INSPECT", "GEO-23", "GAP-52") + (("EQUIP-6.2.BINOCULARS",) if binoculars else ())
    ctx.emit("inspect", rules, unit=m.unit, model=m.id, side=m.side, location=loc.id, distance=round(fact.distance, 4),
             limit=fact.limit, binoculars=binoculars, shift=int(ctx.settings["inspect.max_shift"]), turn=ctx.state.turn)
    return 1


def inspect_shift(ctx: Ctx, loc: LocationState, side: str) -> int:
    """HOSTILE-8.3.ROLL / GAP-52: the largest shift the triggering `side` may apply to the location's roll this
    turn: `inspect.max_shift` when it inspected the location this turn (`inspect.own_trigger_only`=false: when any
    player did), else 0."""
    turn = ctx.state.turn
    if ctx.settings["inspect.own_trigger_only"]:
        inspected = loc.inspected.get(side) == turn
    else:
        inspected = turn in loc.inspected.values()
    return int(ctx.settings["inspect.max_shift"]) if inspected else 0


def roll_choices(roll: int, shift: int) -> tuple[int, ...]:
    """GAP-52 (`inspect.after_roll`=true): the results a player may pick after seeing the D6, shifted by up to
    `shift` either way and clamped to 1-6 (TV-35: a 6 with Inspect -> 5 or 6; a 1 -> 1 or 2; never 0 or 7)."""
    return tuple(sorted({max(1, min(6, roll + k)) for k in range(-shift, shift + 1)}))


def _bolt(ctx: Ctx) -> Blast:
    return Blast("bolt", "GAP-51", Template.SBT, None, frozenset(), 0.0, float(ctx.settings["bolt.range"]), True)


def bolt_tn(ctx: Ctx, m: ModelState, indirect: str | None) -> TargetNumber:
    """GAP-51: CA with the indirect modifier, `bolt.in_los_mod` (-1) if the point is in LOS, else `bolt.no_los_mod`
    (-3); a bolt always arcs (it is never a direct attack on a model)."""
    if indirect == "no_los":
        mods = (Modifier("bolt, point not in LOS", int(ctx.settings["bolt.no_los_mod"]), "GAP-51"),)
    else:
        mods = (Modifier("bolt, point in LOS", int(ctx.settings["bolt.in_los_mod"]), "GAP-51"),)
    return TargetNumber(effective_ca(m), mods)


def _bolt_check(ctx: Ctx, a: BoltToss, m: ModelState) -> tuple[LocationState, str | None]:
    refuse_hostile(ctx, m, "Bolt Toss")
    loc = location_of(ctx, a.location, "MISSION-8.2.BOLT-TOSS")
    if not (math.isfinite(a.x) and math.isfinite(a.y)):
        raise IllegalAction(f"bolt point ({a.x},{a.y}) is not a number", "GEO-1")
    if loc.searched or (loc.triggered and ctx.settings["trigger.once"]):
        state = "searched" if loc.searched else "triggered"
        raise IllegalAction(f"{loc.id} is already {state}: a bolt cannot trigger it again", "MISSION-8.2.TRIGGER")
    radius = float(ctx.settings["bolt.target_radius"])
    off = math.hypot(a.x - loc.x, a.y - loc.y)
    if off > radius + EPS:
        raise IllegalAction(f"the point ({a.x:g},{a.y:g}) is {off:.2f}\" from {loc.id}'s point, outside its "
                            f"{radius:g}\" Reaction Radius", "GAP-51")
    reach = float(ctx.settings["bolt.range"])
    d = point_distance(m.base(), (a.x, a.y))
    if d > reach + EPS:
        raise IllegalAction(f"the point is {d:.2f}\" from {m.id}; a bolt reaches {reach:g}\"", "GAP-51")
    d_ = delivery(ctx, m, a.x, a.y, _bolt(ctx))  # the shadow rule (ARMORY-5.4.SHADOW) refuses here
    if d_.indirect is None:
        return loc, "in_los"
    return loc, d_.indirect


def check_bolt(ctx: Ctx, a: BoltToss, m: ModelState, context: str) -> int:
    """GAP-51: a player model (AI-C.6), a point in the location's radius and the bolt's range, the shadow rule."""
    factions.check_location_action(ctx, m, "bolt_toss")  # FACTION-7.2.ENEMY / GAP-44
    _bolt_check(ctx, a, m)
    return 1


def do_bolt(ctx: Ctx, a: BoltToss, m: ModelState, context: str) -> int:
    """GAP-51: `bolt.dice` dice against the TN, crits apply; a success triggers the location (the thrower's player
    rolls its Zone Hostiles Table), a failure does nothing (no deviation)."""
    loc, indirect = _bolt_check(ctx, a, m)
    rules = ("MISSION-8.2.BOLT-TOSS", "GAP-51")
    res = ctx.roll_pool(int(ctx.settings["bolt.dice"]), bolt_tn(ctx, m, indirect),
                        what=f"bolt toss at {loc.id} ({a.x:g},{a.y:g})", who=m.id, rules=rules)
    record_crit(ctx, m.unit, res, context=context, rules=rules)
    hit = res.successes > 0
    ctx.emit("bolt_toss", rules, unit=m.unit, model=m.id, location=loc.id, point=[a.x, a.y], indirect=indirect,
             success=hit)
    if hit:
        record_trigger(ctx, loc, m, how="bolt", distance=math.hypot(a.x - loc.x, a.y - loc.y),
                       limit=float(ctx.settings["bolt.target_radius"]), segment=-1, at=0.0)
    return 1


# --- Search (MISSION-8.2.CLEARING, SALVAGE-8.4.SEARCH, GAP-53) --------------------------------------------------


def cleared(ctx: Ctx, loc: LocationState) -> bool:
    """GAP-53 (`search.cleared`=force_out): every model of the hostile force spawned or placed at the location is
    Out of Action or Dead (models elsewhere do not matter); a location that produced no force is clear."""
    assert ctx.settings["search.cleared"] == "force_out"  # the one reading GAP-53 gives (the setting's only choice)
    if loc.force is None:
        return True
    return not any(m.in_play for m in ctx.state.models.values() if m.side == loc.force)


def search_reach(ctx: Ctx, m: ModelState, loc: LocationState) -> tuple[bool, float]:
    """GAP-53: the searcher's base within `search.range` (1") of the location point, or in base contact with the
    scenic item's footprint when it has one. (ok, the distance measured)."""
    if loc.footprint:
        import shapely

        d = max(0.0, shapely.Polygon(loc.footprint).distance(shapely.Point(m.x, m.y)) - m.radius)
        return d <= contact_tol(ctx) + EPS, d
    d = point_distance(m.base(), (loc.x, loc.y))
    return d <= float(ctx.settings["search.range"]) + EPS, d


def second_search(m: ModelState, loc: LocationState) -> bool:
    """SKILL-6.1.SCROUNGER / SALVAGE-8.4.SEARCH: a Hot Spot searched once by a Scrounger may be searched once more
    by that model alone (another Search of its search actions, another Salvage roll); nobody else searches it
    again, and the Mission Objective is searched once."""
    return (loc.kind == "hotspot" and m.profile.has("scrounger") and loc.searched_by == [m.id])


def check_search(ctx: Ctx, a: Search, m: ModelState, context: str) -> int:
    """MISSION-8.2.CLEARING / GAP-53: a player model (AI-C.6), a triggered location (`search.needs_trigger`) not yet
    searched, its own hostiles all gone (`search.cleared`), the searcher in reach; a model that failed the location's
    Skill Check tries again in a later activation; another model's search under way is not taken over."""
    refuse_hostile(ctx, m, "Search")
    factions.check_location_action(ctx, m, "search")  # FACTION-7.2.ENEMY / GAP-44
    loc = location_of(ctx, a.location, "MISSION-8.2.CLEARING")
    if loc.searched and not second_search(m, loc):
        raise IllegalAction(f"{loc.id} has already been searched (each location is searched once; a Scrounger "
                            "searches a Hot Spot twice)", "SALVAGE-8.4.SEARCH")
    if ctx.settings["search.needs_trigger"] and not loc.triggered:
        raise IllegalAction(f"{loc.id} has not been triggered: an untriggered location cannot be searched", "GAP-53")
    if not cleared(ctx, loc):
        left = sorted(x.id for x in ctx.state.models.values() if x.side == loc.force and x.in_play)
        raise IllegalAction(f"{loc.id}'s hostiles must be eliminated first ({', '.join(left)} still in play)",
                            "MISSION-8.2.CLEARING")
    ok, d = search_reach(ctx, m, loc)
    if not ok:
        where = "in contact with its scenic item" if loc.footprint else \
            f"within {float(ctx.settings['search.range']):g}\" of its point"
        raise IllegalAction(f"{m.id} is {d:.2f}\" away; a searcher stands {where}", "GAP-53")
    if m.id in loc.search_tried:
        raise IllegalAction(f"{m.id} already failed the Skill Check for {loc.id} this activation",
                            "MISSION-8.2.CLEARING")
    check_key(ctx, loc, m)  # SCEN-10.3.CARD: the key item, or the key task first (game.core.rules.keycard)
    if loc.searcher is not None and loc.searcher != m.id and loc.search_progress:
        other = ctx.state.models.get(loc.searcher)
        if other is not None and other.in_play:
            raise IllegalAction(f"{loc.searcher} is searching {loc.id} ({loc.search_progress} of "
                                f"{loc.search_actions} actions)", "MISSION-8.2.CLEARING")
    return 1


def do_search(ctx: Ctx, a: Search, m: ModelState, context: str) -> int:
    """One search action; a location that demands a Skill Check takes it first, free (Will - difficulty, Leader
    +1; a failure costs no action). The last action loots the location: it never triggers again (GEO-19). The
    Salvage table roll this earns follows (SALVAGE-8.4.TABLE, game.core.rules.salvage)."""
    loc = ctx.state.locations[a.location]
    rules = ("MISSION-8.2.CLEARING", "GAP-53")
    if loc.search_difficulty is not None and loc.searcher != m.id:
        mods = [Modifier("Difficulty", -loc.search_difficulty, "MISSION-8.2.CLEARING")] if loc.search_difficulty \
            else []
        mods.extend(leader_bonus(ctx, m))
        res = ctx.roll_pool(1, will_tn(m, tuple(mods)), what=f"Skill Check to search {loc.name}", who=m.id,
                            rules=rules)
        record_crit(ctx, m.unit, res, context=context, rules=rules)
        if not res.successes:
            loc.search_tried.append(m.id)
            ctx.emit("search_check_failed", rules, location=loc.id, model=m.id,
                     note="the check is free; try again in a later activation")
            return 0
    if loc.searcher != m.id:
        loc.searcher, loc.search_progress = m.id, 0
    loc.search_progress += 1
    done = loc.search_progress >= loc.search_actions
    second = done and loc.searched
    if done:
        loc.searched = True
        loc.searched_by.append(m.id)
        loc.search_progress = 0 if second_search(m, loc) else loc.search_progress  # a Scrounger's second starts anew
    ctx.emit("search", rules + (("SALVAGE-8.4.SEARCH",) if done else ())
             + (("SKILL-6.1.SCROUNGER",) if second else ()), unit=m.unit, model=m.id, side=m.side,
             location=loc.id, progress=loc.search_progress if not done else loc.search_actions,
             needed=loc.search_actions, searched=done, anomaly=loc.anomaly)
    if done:
        search_reward(ctx, loc, m)  # SALVAGE-8.4.SEARCH / GAP-60: the Salvage roll or the MO's reward, stowed
    return 1
