"""Which attack is worth an action: every legal shot, blow, grenade and template at every enemy, valued with the
exact odds the resolver uses (game.core.odds) - the expected enemy models put out of action, wounds and pins,
weighted by who the target is - plus focus fire. Grenades are thrown only where the odds put no friend at risk."""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.ai.autopilot.levels import Level
from game.ai.autopilot.view import View
from game.ai.common import legal
from game.core.actions import (
    Action,
    FlameAttack,
    IllegalAction,
    MeleeAttack,
    RangedAttack,
    TemplateAttack,
    ThrowGrenade,
)
from game.core.geometry.templates import TemplateKind
from game.core.odds.actions import attack_odds
from game.core.odds.melee import melee_odds
from game.core.state import ModelState

CONTACT = 0.1
GRENADE_REACH = 10.0  # enemies farther than this are not considered for a throw (ARMORY-5.1.GRENADE-TABLE ranges)


@dataclass(frozen=True, slots=True)
class Option:
    """One attack: the action (unwrapped), its value, the rule it is made under and the numbers behind it."""

    action: Action
    value: float
    rule: str
    text: str
    numbers: dict[str, Any]


def target_worth(view: View, t: ModelState, goal_force: str | None) -> float:
    """How much putting `t` out is worth: a rival crew's Leader most, any crew model (half as much again within 8" of
    an unsearched objective: it is racing us to it; two and a half times within 5" of a cleared one: it could search
    it next), a hostile guarding the location the crew is going for, other hostiles."""
    if t.side in view.st.forces:
        return 1.0 if t.side == goal_force else 0.8
    race = 1.0
    for loc in view.st.locations.values():
        if loc.kind != "objective" or loc.searched:
            continue
        d = math.hypot(t.x - loc.x, t.y - loc.y)
        if d <= 5.0 and loc.triggered and view.is_clear(loc):
            race = max(race, 2.5)  # it can search the objective on its next action
        elif d <= 8.0:
            race = max(race, 1.5)
    return (1.5 if t.profile.leader else 1.0) * race


def focus_bonus(view: View, t: ModelState, level: Level) -> float:
    """Focus fire (normal and hard): a unit already Wounded, Pinned or in a fight is nearer to going out."""
    if not level.focus:
        return 0.0
    u = view.st.units[t.unit]
    return level.focus * ((t.wounds_taken > 0) + (u.pins > 0) * 0.5)


def attacks(view: View, m: ModelState, level: Level, *, goal_force: str | None,
            wrap: Callable[[Action], Action] | None = None) -> list[Option]:
    """Every legal attack of m's unit, best first. `wrap` turns the attack into the decision validated (an
    Interrupt of an Alert unit)."""
    out: list[Option] = []
    context = "alert" if wrap is not None else "own"
    for t in view.foes:
        d = view.gap(m, t)
        touching = d <= CONTACT
        if not touching and not view.sees(m.id, t.id):
            continue
        worth = target_worth(view, t, goal_force)
        bonus = focus_bonus(view, t, level)
        for wid in m.profile.weapons:
            p = view.cat.weapon(wid).profile
            a: Action
            if touching:
                a = MeleeAttack(m.unit, t.id, wid)
            elif p.template is not None or not p.range_max or d > float(p.range_max) + 0.01:
                continue
            elif not level.melee_fire and _in_friendly_melee(view, t):
                continue  # GAP-76: hits into a melee fall on friends too; a careful player holds fire
            else:
                a = RangedAttack(m.unit, t.id, wid)
            opt = _valued(view, a, t, worth, bonus, context, wrap)
            if opt is not None:
                out.append(opt)
    if (level.grenades or any(view.cat.weapon(w).profile.template for w in m.profile.weapons)) and wrap is None:
        out += _throws(view, m, goal_force, grenades=level.grenades)
    out.sort(key=lambda o: (-o.value, o.action.to_json().__repr__()))
    return out


def _in_friendly_melee(view: View, t: ModelState) -> bool:
    """The target is in base contact with one of the crew's models (a shot at it is a shot into a melee)."""
    return any(view.gap(f, t) <= CONTACT for f in view.mine)


def _friends_on_table(view: View, m: ModelState) -> list[ModelState]:
    """The crew's models a template could touch: those in play and those lying Out of Action (GAP-93: a template
    can finish them)."""
    return [f for f in view.st.models.values() if f.side == m.side and f.deployed and not f.dead
            and (f.in_play or f.ooa)]


def _valued(view: View, a: Action, t: ModelState, worth: float, bonus: float, context: str,
            wrap: Callable[[Action], Action] | None) -> Option | None:
    decision = wrap(a) if wrap is not None else a
    if not legal(view.st, decision):
        return None
    if isinstance(a, MeleeAttack):
        try:  # under the A.I.'s parry policy only (AI-D.12): the other policy's odds would double the work
            out = melee_odds(view.st, a, context=context, policies=("ai",)).outcomes["ai"]
        except IllegalAction:
            return None
        p_out = float(out.p_defender_ooa)
        wounds = float(out.wounds_to_defender.mean())
        back = float(out.p_attacker_ooa)
        value = worth * (p_out + 0.3 * max(0.0, wounds - p_out)) * (1 + bonus) - 0.9 * back
        return Option(decision, round(value, 4), "COMBAT-4.2.MELEE-REQ",
                      f"fight {t.id} with the {a.weapon}: P(it goes out) {p_out:.2f}, P(I go out) {back:.2f}",
                      {"p_ooa": round(p_out, 4), "p_self_ooa": round(back, 4), "worth": worth})
    try:
        r = attack_odds(view.st, a, context=context).target_round
    except IllegalAction:
        return None
    p_out = float(r.p_ooa)
    wounds = float(r.expected_wounds)
    pins = float(r.p_any_pin)
    value = worth * (p_out + 0.3 * max(0.0, wounds - p_out) + 0.15 * pins) * (1 + bonus)
    assert isinstance(a, RangedAttack)
    return Option(decision, round(value, 4), "COMBAT-4.1.RANGED",
                  f"shoot {t.id} with the {a.weapon}: P(out) {p_out:.2f}, wounds {wounds:.2f}, P(pin) {pins:.2f}"
                  + (" (focus fire)" if bonus else ""),
                  {"p_ooa": round(p_out, 4), "wounds": round(wounds, 4), "p_pin": round(pins, 4), "worth": worth,
                   "focus": round(bonus, 3)})


def _throws(view: View, m: ModelState, goal_force: str | None, *, grenades: bool) -> list[Option]:
    """Grenades (CORE-3.3.GRENADE), blast weapons (a TemplateAttack) and flame (a FlameAttack) at the enemies with the
    most other enemies near them. Never where a friend could be hurt: a blast is aimed only where no friend stands
    within the template's radius plus the longest deviation (GEO-18), so even a miss cannot touch one; a flame only
    when its exact odds touch no friend. A grenade needs two enemies under its template; a template weapon one.
    Blasts are valued by the enemies under the template at the aim point (a quarter of each one's worth: the chance
    of a hit times the chance it puts the model out, roughly), not by their exact odds, which integrate every
    deviation and cost too much for a choice made many times a game."""
    near = sorted((t for t in view.foes if math.hypot(t.x - m.x, t.y - m.y) <= GRENADE_REACH + 8.0),
                  key=lambda t: (-sum(math.hypot(t.x - o.x, t.y - o.y) <= 3.0 for o in view.foes), t.id))[:2]
    if not near:
        return []
    longest = 5.0 if view.settings["deviation.distance"] == "roll/2" else 20.0
    best: list[Option] = []
    for t in near:
        tries: list[tuple[Action, float, int, str]] = []
        for g in sorted(g for g, n in m.grenades.items() if n > 0 and grenades)[:2]:
            gp = view.cat.grenade(g)
            if gp.damage is not None and math.hypot(t.x - m.x, t.y - m.y) <= GRENADE_REACH:
                r = TemplateKind(gp.template.value).radius
                tries.append((ThrowGrenade(m.unit, g, round(t.x, 4), round(t.y, 4)), r, 2, "CORE-3.3.GRENADE"))
        for wid in m.profile.weapons:
            tp = view.cat.weapon(wid).profile.template
            if tp is None or wid in m.unloaded:
                continue
            if tp.value == "flame":
                best += _flame(view, m, t, wid, goal_force)
            else:
                aim = TemplateAttack(m.unit, wid, round(t.x, 4), round(t.y, 4))
                tries.append((aim, TemplateKind(tp.value).radius, 1, "COMBAT-4.1.RANGED"))
        for a, radius, least, rule in tries:
            if any(math.hypot(f.x - t.x, f.y - t.y) <= radius + longest + f.radius for f in _friends_on_table(view, m)):
                continue
            under = [o for o in view.foes if math.hypot(o.x - t.x, o.y - t.y) <= radius + o.radius]
            if len(under) < least or not legal(view.st, a):
                continue
            gain = sum(0.25 * target_worth(view, o, goal_force) for o in under)
            what = getattr(a, "grenade", None) or getattr(a, "weapon", "")
            best.append(Option(a, round(gain, 4), rule,
                               f"{what} at {t.id}: {len(under)} enemies under the template, no friend within "
                               f"{radius + longest:g}\" of the aim point", {"gain": round(gain, 4),
                                                                             "enemies": len(under)}))
    return best


def _flame(view: View, m: ModelState, t: ModelState, wid: str, goal_force: str | None) -> list[Option]:
    """ARMORY-5.1.BURN: the flame toward `t`, valued by its exact odds over every model it touches; none if a
    friend is among them."""
    a = FlameAttack(m.unit, wid, round(math.atan2(t.y - m.y, t.x - m.x), 4))
    if not legal(view.st, a):
        return []
    try:
        odds = attack_odds(view.st, a)
    except IllegalAction:
        return []
    friends = {x.id for x in _friends_on_table(view, m)}
    gain, hit = 0.0, 0
    for mid, mo in odds.models.items():
        if mid in friends and float(mo.p_touched) > 0:
            return []
        who = view.st.models[mid]
        if who.side == m.side or not who.in_play:
            continue
        p = float(mo.p_ooa)
        gain += target_worth(view, who, goal_force) * (p + 0.3 * max(0.0, float(mo.expected_wounds) - p))
        hit += float(mo.p_touched) > 0.3
    if not hit:
        return []
    return [Option(a, round(gain, 4), "ARMORY-5.1.BURN", f"flame {hit} enemies: expected out {gain:.2f}, no friend "
                   "touched", {"gain": round(gain, 4), "enemies": hit})]
