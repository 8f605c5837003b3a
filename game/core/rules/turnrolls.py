"""The rolls that set up a mission and each turn: turn limit, environment, initiative and deployment order
(TURN-2, TURN-3, TURN-4, TURN-4.1)."""
from __future__ import annotations

from game.core.dice import d3_from_d6
from game.core.rules.context import Ctx
from game.core.state import GameState, Phase, SideKind


def roll_initiative(ctx: Ctx, sides: list[str], *, purpose: str) -> list[str]:
    """CORE-3.1.INITIATIVE / TURN-4.1: D10 minus units with a Pin, ties re-rolled among the tied
    (`init.tie`=reroll_tied); crit rules do not apply. Returns the sides, highest first."""
    st = ctx.state
    results: dict[str, int] = {}
    rolls: dict[str, dict[str, int]] = {}
    pins: dict[str, int] = {}
    for s in sides:
        pinned = sum(1 for u in st.units.values() if u.side == s and u.pins > 0 and st.unit_in_play(u.id))
        pins[s] = pinned
        die = ctx.dice.d10()
        results[s] = die - pinned
        rolls[s] = {"die": die, "pinned_units": pinned, "result": die - pinned}
    ctx.emit("initiative", ("CORE-3.1.INITIATIVE", "TURN-4.1"), purpose=purpose, rolls=rolls)
    if ctx.settings["init.tie"] != "reroll_tied":
        raise ValueError(f"unsupported init.tie {ctx.settings['init.tie']!r}")
    return _order_with_ties(ctx, results, purpose, pins)


def _order_with_ties(ctx: Ctx, results: dict[str, int], purpose: str, pins: dict[str, int] | None = None) -> list[str]:
    """Tied sides re-roll among themselves with the same Pinned-unit modifier (GAP-16, TV-18: P = 0.64/0.92)."""
    pins = pins or {}
    groups: dict[int, list[str]] = {}
    for s, r in results.items():
        groups.setdefault(r, []).append(s)
    order: list[str] = []
    for r in sorted(groups, reverse=True):
        tied = groups[r]
        if len(tied) == 1:
            order.extend(tied)
            continue
        rerolls: dict[str, int] = {}
        for s in tied:
            rerolls[s] = ctx.dice.d10() - pins.get(s, 0)
        ctx.emit("initiative_reroll", ("GAP-16",), purpose=purpose, tied=tied, rolls=rerolls)
        order.extend(_order_with_ties(ctx, rerolls, purpose, pins))
    return order


def crew_sides(st: GameState) -> list[str]:
    return [s.id for s in st.sides if s.kind is SideKind.CREW]


def begin_deployment(ctx: Ctx) -> None:
    """TURN-4 (`deploy.order`=initiative_loser_first): the loser places all models first."""
    st = ctx.state
    order = roll_initiative(ctx, crew_sides(st), purpose="deployment")
    # `deploy.order`=initiative_loser_first: the lowest result places all its models first.
    st.deploy_order = list(reversed(order)) if ctx.settings["deploy.order"] == "initiative_loser_first" else order
    st.phase = Phase.DEPLOY
    st.deciding = st.deploy_order[0]
    ctx.emit("deployment_order", ("TURN-4",), order=st.deploy_order)


def roll_turn_limit(ctx: Ctx, fixed: int | None) -> int:
    """TURN-2 / MISSION-8.2.TURN-LIMIT / GAP-48: scenario value, else 4+D3 (tables up to 48"x48", 2 players)
    or 6+D3 (larger tables or 3+ players)."""
    st = ctx.state
    if fixed is not None:
        ctx.emit("turn_limit", ("MISSION-8.2.TURN-LIMIT",), turn_limit=fixed, source="scenario")
        return fixed
    s = ctx.settings
    w, h = st.table
    big = (max(w, h) > s["mission.turn_limit.max_small_side"] + 1e-9
           or len(crew_sides(st)) >= s["mission.turn_limit.large_players"])
    base = s["mission.turn_limit.large_base"] if big else s["mission.turn_limit.small_base"]
    if s["dice.d3"] != "ceil(d6/2)":  # `dice.d3` (INTRO-1.2.D3): the only reading RULES.md gives
        raise ValueError(f"unsupported dice.d3 {s['dice.d3']!r}")
    face = ctx.dice.d6()
    d3 = d3_from_d6(face)
    limit = base + d3
    ctx.emit("turn_limit", ("MISSION-8.2.TURN-LIMIT", "GAP-48", "INTRO-1.2.D3"), d6=face, d3=d3,
             base=base, turn_limit=limit, source="rolled")
    return limit


ENVIRONMENT = ("overcast", "sudden_darkness", "overcast", "rainstorm", "sunny_day", "high_radiation")


def roll_environment(ctx: Ctx) -> None:
    """TURN-3 (`env.enabled`): D6 on the Environmental Hazards table (SALVAGE-8.4.ENV); High Radiation takes
    one turn off the limit at once, fixed scenario limits included (GAP-58)."""
    st = ctx.state
    if not ctx.settings["env.enabled"]:
        return
    face = ctx.dice.d6()
    st.environment = ENVIRONMENT[face - 1]
    effect = {"sudden_darkness": f"LOS limited to {ctx.settings['env.darkness_los']:g}\" without NODs",
              "rainstorm": f"Movement -{ctx.settings['env.rain_move']:g}\", "
                           f"maximum ranges x{ctx.settings['env.rain_range_mult']:g}",
              "high_radiation": "Turn Limit -1, Salvage Values x2"}.get(st.environment, "no effect")
    if st.environment == "high_radiation":
        st.turn_limit -= 1
    ctx.emit("environment", ("TURN-3", "SALVAGE-8.4.ENV", "GAP-58", "GAP-59"), d6=face, hazard=st.environment,
             effect=effect, turn_limit=st.turn_limit)


def range_multiplier(ctx: Ctx) -> float:
    """GAP-59: a Rainstorm halves every weapon's maximum range (minimum ranges unchanged)."""
    return float(ctx.settings["env.rain_range_mult"]) if ctx.state.environment == "rainstorm" else 1.0
