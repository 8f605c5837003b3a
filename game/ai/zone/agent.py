"""The Zone's agent (ZONE HOSTILE AI): `ZoneAgent.choose(state) -> Action`, like every agent, for each decision the
engine asks of a hostile force: which unit activates (AI-S.ORDER), each action (AI-D.04, AI-D.06..AI-D.08, AI-D.15),
Alert interrupts (AI-D.09), parries (AI-D.12), its own Med-Kit (AI-D.11) and the spawn free move (AI-S.SPAWN).

It decides from the state alone: the target memory (lock, last known position, melee draw: AI-D.02/AI-D.03) is kept
by `apply`, so the same state always gives the same decision (a save resumed mid-activation decides the same). Every
decision is a `Reasoned` action whose reason {rule, target, goal, text, numbers} names the deciding rule; `decide`
also says how much work the deciding step needed ("standing": no path search; "moving": it searched for a move)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from game.ai.zone.attacks import Shot, aim_first, contact_enemies, melee_blows, parry_hits, ranged_shots
from game.ai.zone.look import (
    Tuning,
    ctx_of,
    force_of,
    in_territory,
    is_ranged_unit,
    last_known,
    legal,
    ranged_weapons,
    target_of,
)
from game.ai.zone.moves import (
    best_legal,
    candidates,
    free_goal,
    lead_model,
    melee_choice,
    shot_positions,
    spawn_cover,
    toward_centre,
    unit_move,
)
from game.core.actions import (
    Action,
    Activate,
    Aim,
    Alert,
    DeclineInterrupt,
    DeclineMedKit,
    EndActivation,
    Interrupt,
    MeleeAttack,
    Parry,
    Rally,
    Reasoned,
    StayPut,
    UseItem,
)
from game.core.rules import remaining
from game.core.rules.converge import RULE as CONVERGE
from game.core.rules.converge import converge_goal, converge_step, converges
from game.core.rules.exposure import (
    Candidate,
    CandidateSet,
    choose_target,
    dist,
    enemies,
    in_cover_against,
    in_cover_at_rest,
    rank_targets,
    seen_by,
    unit_models,
    vis,
)
from game.core.rules.flow import eligible_units
from game.core.rules.formation import formation_move, leash_centre
from game.core.rules.hostile_grenades import RULE as GRENADES
from game.core.rules.hostile_grenades import grenade_call
from game.core.rules.melee import parry_chances
from game.core.state import GameState, ModelState, Phase

HOME = 3.0  # AI-D.04 (c): a unit more than 3" from pL walks back until within 3"
TERRITORY = 12.0  # AI-D.02 / AI-D.04 (b)
AMBUSH = 6.0  # AI-D.07 step 4: an enemy within weapon range + 6"


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: the action, its reason and the work its deciding step needed ("standing" or "moving")."""

    action: Action
    reason: dict[str, Any]
    kind: str = "standing"

    def reasoned(self) -> Reasoned:
        return Reasoned(self.action, self.reason)

    def as_kind(self, kind: str) -> Decision:
        return Decision(self.action, self.reason, kind)


def _r(rule: str, text: str, *, target: str | None = None, goal: tuple[float, float] | None = None,
       nums: dict[str, Any] | None = None, **numbers: Any) -> dict[str, Any]:
    """A reason: the deciding rule, the unit's current target, the goal of a move, a readable text, the numbers."""
    return {"rule": rule, "target": target, "goal": [round(goal[0], 4), round(goal[1], 4)] if goal else None,
            "text": f"{rule}: {text}", "numbers": {**(nums or {}), **numbers}}


def _in(x: float) -> str:
    return f"{x:.1f}\""


def _shot_spots(state: GameState, unit: str, lead: ModelState, cands: CandidateSet, target: str, *,
                cover_only: bool) -> list[Candidate]:
    """AI-D.07: the candidate points from which the unit could shoot `target` (the engine's own checks), best first:
    in cover only, best cover class (step 3); or cover first, then the better class (step 4); then the least path
    cost, then lowest (x, y)."""
    spots = shot_positions(state, unit, lead, cands, lambda: bool(ranged_shots(state, unit, target)))
    if cover_only:
        return sorted((c for c in spots if c.in_cover), key=lambda c: (-c.cover.rank, c.cost, c.x, c.y))
    return sorted(spots, key=lambda c: (not c.in_cover, -c.cover.rank, c.cost, c.x, c.y))


class ZoneAgent:
    """Plays every hostile force. Stateless: all its memory is the game state's (AI-D.02)."""

    def choose(self, state: GameState) -> Action:
        return self.decide(state).reasoned()

    def decide(self, state: GameState) -> Decision:
        ph = state.phase
        if ph is Phase.ACTIVATE:
            return self._order(state)
        if ph is Phase.ACTION:
            return self._act(state)
        if ph is Phase.INTERRUPT:
            return self._interrupt(state)
        if ph is Phase.PARRY:
            return self._parry(state)
        if ph is Phase.MEDKIT:
            return self._medkit(state)
        if ph is Phase.SPAWN_MOVE:
            return self._spawn_move(state)
        raise ValueError(f"the Zone's agent decides for hostile forces only; nothing of theirs is asked in phase "
                         f"{ph.value} (deciding: {state.deciding})")

    # --- AI-S.ORDER ---------------------------------------------------------------------------------------

    def _order(self, state: GameState) -> Decision:
        """AI-S.ORDER: the eligible unit with the smallest distance to any enemy; ties lowest id."""
        tune = Tuning.of(state)
        rows = []
        for u in eligible_units(state, state.deciding):
            foes = enemies(state, u, hostile_vs_hostile=tune.hostile_vs_hostile)
            rows.append((min((dist(state, u, e.id) for e in foes), default=math.inf), u))
        d, unit = min(rows)
        near = "no enemy on the table" if math.isinf(d) else f"{_in(d)} from the nearest enemy"
        return Decision(Activate(unit), _r("AI-S.ORDER", f"{unit} activates: {near}, the nearest of "
                                                         f"{len(rows)} eligible unit(s)", distance=d,
                                           eligible=[u for _, u in sorted(rows)]))

    # --- the action loop (AI-D.04, AI-D.07, AI-D.08) -----------------------------------------------------

    def _act(self, state: GameState) -> Decision:
        act = state.activation
        assert act is not None
        unit = act.unit
        left = remaining(act)
        u = state.units[unit]
        target = target_of(state, unit)
        if target is None:  # no lock (e.g. its target just fell): the AI-D.01 choice among those it sees now
            tune0 = Tuning.of(state)
            pick = choose_target(state, unit, close_tol=tune0.close_tol,
                                 hostile_vs_hostile=tune0.hostile_vs_hostile).chosen
            target = pick.enemy if pick is not None else None
        if u.pins > 0:
            return Decision(Rally(unit), _r("AI-D.07", f"{unit} is Pinned ({u.pins}): it must Rally (step 1)",
                                            target=target, pins=u.pins))
        # step 2 / RULE4: in base contact -> melee (the target first; else the enemy in contact)
        touching = contact_enemies(state, unit)
        if touching:
            foe = target if target in touching else touching[0]
            blows = melee_blows(state, unit, foe)
            if blows:
                return self._strike(state, unit, foe, blows[0], left, act.aim, melee=True,
                                    rule="AI-D.03" if foe == (state.ai[unit].draw if unit in state.ai else None)
                                    else "AI-D.07")
        if target is None:
            return self._no_target(state, unit, left)
        if is_ranged_unit(state, unit):
            return self._ranged(state, unit, target, left, act.aim)
        return self._melee(state, unit, target, left)

    def _strike(self, state: GameState, unit: str, foe: str, shot: Shot, left: int, aimed: bool, *, melee: bool,
                rule: str) -> Decision:
        what = "melee attacks" if melee else "shoots"
        if aim_first(shot, left, aimed=aimed):
            how = "attacks" if melee else "shoots"
            why_aim = "it fires into a melee" if shot.into_melee and shot.dice != 1 else f"FP {shot.dice}"
            return Decision(Aim(unit), _r("AI-D.08", f"{unit} Aims before it {how} {foe} ({why_aim}, {left} actions "
                                                     f"left, no move needed)", target=foe, nums=shot.numbers()))
        target = target_of(state, unit)
        contact = f"its target {foe} is in base contact" if foe == target else \
            f"it is in base contact with {foe} (step 2), not with its target {target}"
        why = {"AI-D.03": f"{foe} attacked it in melee and draws it (RULE4)",
               "AI-D.07": f"{foe} is its target" if not melee else contact,
               "AI-D.02": f"{foe} is its locked target"}.get(rule, f"{foe} is its target")
        return Decision(shot.action, _r(rule, f"{unit} {what} {foe} with {shot.weapon}: {why}; expected wounds "
                                              f"{shot.expected:.2f}", target=foe, nums=shot.numbers()))

    def _melee(self, state: GameState, unit: str, target: str, left: int) -> Decision:
        """Melee-only hostiles: Move toward the target (contact if reachable, AI-D.06), then attack (AI-D.07); a
        hidden target: toward its last known position (AI-D.02, AI-D.04 (a)); at the leash boundary it holds
        (AI-D.05)."""
        t = state.models[target]
        visible = bool(seen_by(state, unit, target))
        tune = Tuning.of(state)
        goal = (t.x, t.y) if visible else (last_known(state, unit) or (t.x, t.y))
        lead = lead_model(state, unit, goal)
        if visible:
            cands = candidates(state, unit, lead, target=target)
            rule = "AI-D.06"
        else:
            cands = candidates(state, unit, lead, point=free_goal(state, lead, goal))
            rule = "AI-D.02" if vis(state, unit, hostile_vs_hostile=tune.hostile_vs_hostile) else "AI-D.04"
        ch, order = melee_choice(cands, tune.cover_slack)
        got = best_legal(state, unit, lead, order, target=target if visible else None)
        seen = "" if visible else f" (hidden: its last known position {goal[0]:.1f},{goal[1]:.1f}" + \
            ("; (a))" if rule == "AI-D.04" else ")")
        if got is None:
            outside = not in_territory(state, unit, target)
            why = "it holds at its leash boundary" if outside else "it holds where it stands"
            return Decision(EndActivation(unit), _r("AI-D.05" if outside and visible else rule,
                                                    f"{unit} can make no progress toward {target}{seen}: {why} "
                                                    f"and ends its activation", target=target, goal=goal,
                                                    candidates=len(cands.kept), branch=ch.why,
                                                    best_progress=round(ch.best_progress, 4)), "moving")
        mv, end = got
        how = {"contact": "into base contact with", "cover": "to cover on the way to",
               "progress": "toward", "none": "toward"}[ch.why if end is ch.chosen else "progress"]
        return Decision(mv, _r(rule, f"{unit} moves {how} {target}{seen}: progress {end.progress:.1f}\" of best "
                                     f"{ch.best_progress:.1f}\", cover {end.cover.value}", target=target, goal=goal,
                               progress=round(end.progress, 4), best_progress=round(ch.best_progress, 4),
                               cover=end.cover.value, cost=round(end.cost, 4), branch=ch.why,
                               candidates=len(cands.kept)), "moving")

    def _ranged(self, state: GameState, unit: str, target: str, left: int, aimed: bool) -> Decision:
        """AI-D.07 steps 3 and 4 for ranged hostiles (Bandits); a hidden target is followed to its last known
        position (AI-D.02, AI-D.04 (a)); AI-D.08's exception for firing into a melee."""
        tune = Tuning.of(state)
        shots = ranged_shots(state, unit, target)
        lead = unit_models(state, unit)[0]
        t = state.models[target]
        if shots and shots[0].into_melee and left < 2 and not aimed:
            # AI-D.08 exception: never fire un-aimed into a melee; with 1 action it picks another target
            return self._other_target(state, unit, target, left, aimed)
        if shots:
            if left >= 2 and not in_cover_against(state, unit, target):
                cands = candidates(state, unit, lead, target=target)
                spots = _shot_spots(state, unit, lead, cands, target, cover_only=True)
                got = best_legal(state, unit, lead, spots, target=target)
                if got is not None:
                    mv, end = got
                    return Decision(mv, _r("AI-D.07", f"{unit} is in the open against {target}: it moves to "
                                                      f"{end.cover.value} cover that keeps its shot (step 3)",
                                           target=target, goal=(end.x, end.y), cover=end.cover.value,
                                           cost=round(end.cost, 4), spots=len(spots)), "moving")
                return self._throw_or_shoot(state, unit, target, shots[0], left, aimed).as_kind("moving")
            return self._throw_or_shoot(state, unit, target, shots[0], left, aimed)
        if not seen_by(state, unit, target):
            return self._follow_hidden(state, unit, target, tune)
        # step 4: the target is visible but there is no valid shot
        reach = max((p.range_max or 0.0 for w in ranged_weapons(state, lead) for p in w.profiles), default=0.0)
        near = [e for e in enemies(state, unit, hostile_vs_hostile=tune.hostile_vs_hostile)
                if math.hypot(e.x - lead.x, e.y - lead.y) - e.radius - lead.radius <= reach + AMBUSH]
        covered = in_cover_against(state, unit, target)  # Shared definitions: "in cover" against a visible target
        if tune.alert and left >= 2 and near and covered and not state.units[unit].alert:
            why = f"{near[0].id} is within {reach + AMBUSH:.0f}\" (step 4, ambush)"
            return Decision(Alert(unit), _r("AI-D.07", f"{unit} has no shot at {target} but waits in cover: {why}",
                                            target=target, within=[e.id for e in near], reach=reach))
        goal = (t.x, t.y)
        cands = candidates(state, unit, lead, target=target)
        spots = _shot_spots(state, unit, lead, cands, target, cover_only=False)
        got = best_legal(state, unit, lead, spots, target=target)
        if got is not None:
            mv, end = got
            return Decision(mv, _r("AI-D.07", f"{unit} moves where it can shoot {target} "
                                              f"({end.cover.value} cover, {end.cost:.1f}\" of travel; step 4)",
                                   target=target, goal=(end.x, end.y), cover=end.cover.value,
                                   cost=round(end.cost, 4), spots=len(spots)), "moving")
        ch, order = melee_choice(cands, tune.cover_slack)
        got = best_legal(state, unit, lead, [c for c in order if not c.contact], target=target)
        if got is None:
            return Decision(EndActivation(unit), _r("AI-D.07", f"{unit} can neither shoot nor close on {target} "
                                                               f"(step 4)", target=target, goal=goal), "moving")
        mv, end = got
        return Decision(mv, _r("AI-D.07", f"{unit} has no spot with a shot at {target} in reach: it closes in "
                                          f"(progress {end.progress:.1f}\", cover {end.cover.value}; step 4)",
                               target=target, goal=goal, progress=round(end.progress, 4), cover=end.cover.value),
                        "moving")

    def _throw_or_shoot(self, state: GameState, unit: str, target: str, shot: Shot, left: int,
                        aimed: bool) -> Decision:
        """AI-D.10: about to shoot, a hostile with a grenade throws it instead when its template on the target would
        touch 2+ enemies and no hostile, or the target is in hard cover against direct fire (rules.hostile_grenades);
        an Aim already taken is spent on the shot."""
        call = None if aimed else grenade_call(state, unit, target)
        if call is None:
            return self._strike(state, unit, target, shot, left, aimed, melee=False, rule="AI-D.07")
        why = (f"it would touch {len(call.enemies)} enemies ({', '.join(call.enemies)}) and no hostile (a)"
               if call.condition == "a" else f"{target} has {call.cover} cover against its fire (b)")
        return Decision(call.action, _r(GRENADES, f"{unit} throws a {call.action.grenade} at {target} instead of "
                                                  f"shooting: {why}", target=target,
                                        goal=(call.action.x, call.action.y), condition=call.condition,
                                        enemies=list(call.enemies), cover=call.cover))

    def _follow_hidden(self, state: GameState, unit: str, target: str, tune: Tuning) -> Decision:
        """AI-D.02 / AI-D.04 (a) for a ranged unit: its locked target is hidden; it moves toward the last known
        position along the shortest path within the leash (a shooter does not run into contact)."""
        t = state.models[target]
        goal = last_known(state, unit) or (t.x, t.y)
        lead = unit_models(state, unit)[0]
        rule = "AI-D.02" if vis(state, unit, hostile_vs_hostile=tune.hostile_vs_hostile) else "AI-D.04"
        tag = "" if rule == "AI-D.02" else "; (a)"
        cands = candidates(state, unit, lead, point=free_goal(state, lead, goal))
        ch, order = melee_choice(cands, tune.cover_slack)
        got = best_legal(state, unit, lead, [c for c in order if not c.contact], target=None)
        if got is None:
            return Decision(EndActivation(unit), _r(rule, f"{unit} cannot get nearer the last known position of "
                                                          f"{target} ({goal[0]:.1f},{goal[1]:.1f}{tag})",
                                                    target=target, goal=goal), "moving")
        mv, end = got
        return Decision(mv, _r(rule, f"{unit} moves toward {target}'s last known position "
                                     f"({goal[0]:.1f},{goal[1]:.1f}{tag}): progress {end.progress:.1f}\"",
                               target=target, goal=goal, progress=round(end.progress, 4),
                               best_progress=round(ch.best_progress, 4), cost=round(end.cost, 4)), "moving")

    def _other_target(self, state: GameState, unit: str, target: str, left: int, aimed: bool) -> Decision:
        """AI-D.08 exception with 1 action: the target is in a melee, so the bandit shoots the next enemy in the
        AI-D.01 order (the open first, then nearest; clearest line among near-equals) that it can shoot outside a
        melee; with none it holds its fire."""
        tune = Tuning.of(state)
        ch = choose_target(state, unit, close_tol=tune.close_tol, hostile_vs_hostile=tune.hostile_vs_hostile)
        shots = {f.enemy: [s for s in ranged_shots(state, unit, f.enemy) if not s.into_melee]
                 for f in ch.visible if f.enemy != target}
        able = [f for f in ch.visible if shots.get(f.enemy)]
        _, _, ranked = rank_targets(able, tune.close_tol)  # AI-D.01 among those it can shoot outside a melee
        if ranked:
            f = ranked[0]
            shot = shots[f.enemy][0]
            return Decision(shot.action, _r("AI-D.08", f"{unit} will not fire un-aimed into the melee round "
                                                       f"{target} with 1 action: it shoots {f.enemy} instead "
                                                       f"with {shot.weapon} (the AI-D.01 choice among the others; "
                                                       f"expected wounds {shot.expected:.2f})", target=f.enemy,
                                            nums=shot.numbers(), locked=target))
        return Decision(EndActivation(unit), _r("AI-D.08", f"{unit} will not fire un-aimed into the melee round "
                                                           f"{target} with 1 action and has no other shot: it holds "
                                                           f"its fire", target=target))

    def _converge(self, state: GameState, unit: str) -> Decision:
        """AI-S.G3ZOMBIES: no player model seen and no lock: along the shortest path toward the nearest converge point
        (the CPO's doors), the whole allowance of each Move (rules.converge); arrived, it holds there."""
        goal = converge_goal(state, unit)
        if goal is None:
            return Decision(EndActivation(unit), _r(CONVERGE, f"{unit} sees nobody and has no path to any of its "
                                                              "converge points: it holds"), "moving")
        at = (round(goal.point[0], 4), round(goal.point[1], 4))
        if goal.arrived(state):
            return Decision(EndActivation(unit), _r(CONVERGE, f"{unit} sees nobody and stands at {at}, the converge "
                                                              "point it heads for: it holds there", goal=goal.point),
                            "moving")
        for share in (1.0, 0.75, 0.5, 0.25):
            step = converge_step(state, unit, share=share)
            if step is None:
                break
            g, path = step
            mv = formation_move(state, unit, g.lead, path, target=None)
            if mv is not None:
                return Decision(mv, _r(CONVERGE, f"{unit} sees no player model: it shuffles along the shortest path "
                                                 f"toward {at} ({g.cost:.1f}\" away, led by {g.lead})",
                                       goal=g.point, cost=round(g.cost, 4), share=share), "moving")
        return Decision(EndActivation(unit), _r(CONVERGE, f"{unit} sees nobody and cannot move toward {at} as a "
                                                          "unit: it holds", goal=goal.point), "moving")

    def _no_target(self, state: GameState, unit: str, left: int) -> Decision:
        """AI-D.04 (b)-(d): no visible enemy and no lock; AI-S.G3ZOMBIES for a force with converge points."""
        if converges(state, unit):
            return self._converge(state, unit)
        tune = Tuning.of(state)
        force = force_of(state, unit)
        centre = leash_centre(state, unit)
        models = unit_models(state, unit)
        if force is not None and force.centre is not None:
            c = (force.centre[0], force.centre[1])
            inside = [e for e in enemies(state, unit, hostile_vs_hostile=tune.hostile_vs_hostile)
                      if math.hypot(e.x - c[0], e.y - c[1]) <= TERRITORY + 1e-9]
            if inside:
                e = min(inside, key=lambda x: (min(math.hypot(x.x - m.x, x.y - m.y) for m in models), x.id))
                lead = lead_model(state, unit, (e.x, e.y))
                cands = candidates(state, unit, lead, target=e.id)  # it "senses" where the intruder stands
                ranged = is_ranged_unit(state, unit)
                if ranged:
                    spots = _shot_spots(state, unit, lead, cands, e.id, cover_only=False)
                    got = best_legal(state, unit, lead, spots, target=e.id)
                    if got is not None:
                        mv, end = got
                        return Decision(mv, _r("AI-D.04", f"{unit} senses {e.id} inside its territory and moves "
                                                          f"where it can shoot ((b), {end.cover.value} cover)",
                                               target=None, goal=(end.x, end.y), intruder=e.id), "moving")
                ch, order = melee_choice(cands, tune.cover_slack)
                if ranged:  # no spot with a shot in reach: it closes in, but a shooter does not run into contact
                    order = [c for c in order if not c.contact]
                got = best_legal(state, unit, lead, order, target=e.id)
                if got is not None:
                    mv, end = got
                    return Decision(mv, _r("AI-D.04", f"{unit} senses {e.id} inside its territory (centre "
                                                      f"{math.hypot(e.x - c[0], e.y - c[1]):.1f}\" from its location) "
                                                      f"and moves toward it ((b))", target=None, goal=(e.x, e.y),
                                           intruder=e.id, progress=round(end.progress, 4)), "moving")
            far = max(math.hypot(m.x - c[0], m.y - c[1]) for m in models)
            if far > HOME + 1e-9 and centre is not None:
                lead = lead_model(state, unit, c)
                back = toward_centre(state, unit, lead, c, HOME)
                if back is not None:
                    walk = unit_move(state, unit, lead, back, target=None)
                    if walk is not None and legal(state, walk, unit):
                        return Decision(walk, _r("AI-D.04", f"{unit} sees nobody and walks back toward its location "
                                                          f"({far:.1f}\" away; (c))", goal=c, distance=far), "moving")
        # a unit that searched for a move ((b) or (c)) and found none still did the moving kind of work
        kind = "moving" if force is not None and force.centre is not None and (inside or far > HOME + 1e-9) \
            else "standing"
        if is_ranged_unit(state, unit) and left >= 2 and tune.alert and in_cover_at_rest(state, unit) \
                and not state.units[unit].alert:
            return Decision(Alert(unit), _r("AI-D.04", f"{unit} sees nobody and waits on Alert in cover ((d))"), kind)
        return Decision(EndActivation(unit), _r("AI-D.04", f"{unit} sees nobody and holds its ground ((d))"), kind)

    # --- AI-D.09 interrupts ------------------------------------------------------------------------------

    def _interrupt(self, state: GameState) -> Decision:
        """AI-D.09: at the first window where an enemy it could attack with one action exists, a hostile on Alert
        attacks the AI-D.01 choice among those (its lock or draw when it holds one and can attack it)."""
        win = state.interrupt
        assert win is not None
        side = state.deciding
        tune = Tuning.of(state)
        holders = sorted(u.id for u in state.units.values() if u.side == side and u.alert and state.unit_in_play(u.id))
        if win.extra_left > 0 and win.extra_unit is not None:
            holders = [win.extra_unit]  # GAP-12: the extra action a critical success owes comes first (or is forgone)
        for uid in holders:
            target = target_of(state, uid)
            foes = [e.id for e in enemies(state, uid, hostile_vs_hostile=tune.hostile_vs_hostile)]
            options: dict[str, Shot] = {}
            for e in foes:
                # AI-D.08: a held action is a single action, so never an un-aimed shot into a melee
                s = melee_blows(state, uid, e, "alert") or \
                    [x for x in ranged_shots(state, uid, e, "alert") if not x.into_melee]
                if s:
                    options[e] = s[0]
            if not options:
                continue
            contact = sorted(e for e, x in options.items() if isinstance(x.action, MeleeAttack))
            if target is not None and target not in options and contact:
                # AI-D.07 step 2 (the referee's reading, game.referee.choices.plan): Engaged away from a target it
                # cannot attack, it fights the enemy in base contact (the AI-D.01 choice among them)
                ch = choose_target(state, uid, close_tol=tune.close_tol, hostile_vs_hostile=tune.hostile_vs_hostile)
                pick = next((f.enemy for f in ch.ranked if f.enemy in contact), contact[0])
            elif target is not None:
                if target not in options:
                    continue  # AI-D.02: it attacks no one else while the lock holds
                pick = target
            else:
                ch = choose_target(state, uid, close_tol=tune.close_tol, hostile_vs_hostile=tune.hostile_vs_hostile)
                ranked = [f.enemy for f in ch.ranked if f.enemy in options] or sorted(options)
                pick = ranked[0]
            shot = options[pick]
            return Decision(Interrupt(uid, shot.action),
                            _r("AI-D.09", f"{uid} springs its Alert on {pick} after {win.acting_unit}'s action "
                                          f"({shot.weapon}, expected wounds {shot.expected:.2f})", target=pick,
                               nums=shot.numbers()))
        return Decision(DeclineInterrupt(side), _r("AI-D.09", "no hostile on Alert can attack with one action"))

    # --- AI-D.12 parry, AI-D.11 Med-Kit -------------------------------------------------------------------

    def _parry(self, state: GameState) -> Decision:
        """AI-D.12 with pA and pB from the numbers the round's saves will use (rules.melee.parry_chances)."""
        c = state.continuations[0]
        a, d = state.models[c["attacker"]], state.models[c["defender"]]
        p_a, p_b = parry_chances(ctx_of(state), c)
        k = parry_hits(int(c["a_hits"]), int(c["d_hits"]), p_a, p_b)
        why = (f"a hit of {d.id} wounds it likelier (pB {p_b:.2f}) than its own wounds {d.id} (pA {p_a:.2f})"
               if p_b > p_a else f"its own hit wounds at least as likely (pA {p_a:.2f}, pB {p_b:.2f})")
        return Decision(Parry(a.unit, k), _r("AI-D.12", f"{a.unit} parries {k} ({c['a_hits']} hit(s) against "
                                                        f"{d.id}'s {c['d_hits']}): {why}", target=d.id,
                                             pA=round(p_a, 4), pB=round(p_b, 4), a=c["a_hits"], b=c["d_hits"], k=k))

    def _medkit(self, state: GameState) -> Decision:
        """AI-D.11: a hostile with a Med-Kit uses it on itself at once if that prevents OOA or removes Two-Wound
        penalties; hostiles never heal others."""
        dec = state.wound_queue[0]
        m = state.models[dec.model]
        prevents_ooa = m.wounds_taken >= m.profile.wounds
        two_wound = m.profile.wounds > 1 and m.wounds_taken >= 1
        if "medkit" in m.items and (prevents_ooa or two_wound):
            return Decision(UseItem(m.unit, "medkit"), _r("AI-D.11", f"{m.id} dresses its Wound at once",
                                                          wounds_taken=m.wounds_taken))
        return Decision(DeclineMedKit(m.id), _r("AI-D.11", f"{m.id} has no Med-Kit that would help",
                                                 wounds_taken=m.wounds_taken))

    # --- AI-S.SPAWN ---------------------------------------------------------------------------------------

    def _spawn_move(self, state: GameState) -> Decision:
        """AI-S.SPAWN: melee types move toward the AI-D.01 enemy (contact if reachable, no attack); ranged types
        to the best cover with LOS to it, or with none visible to the nearest cover; melee types with none stay."""
        sp = state.spawning
        assert sp is not None
        unit = sp.pending[0]
        target = target_of(state, unit)
        touching = contact_enemies(state, unit)
        if touching:
            why = "a model in base contact must Withdraw to move, and hostiles never withdraw (AI-D.13)"
            return Decision(StayPut(unit), _r("AI-S.SPAWN", f"{unit} appeared in base contact with "
                                                            f"{', '.join(touching)}: {why}", target=target,
                                              contact=touching))
        pins = state.units[unit].pins
        if pins:
            why = "a Pinned unit may only Rally, so it stays (COMBAT-4.4.PIN-LOCK)"
            return Decision(StayPut(unit), _r("AI-S.SPAWN", f"{unit} was Pinned ({pins}) before its free move: {why}",
                                              target=target, pins=pins))
        visible = target is not None and bool(seen_by(state, unit, target))
        tune = Tuning.of(state)
        models = unit_models(state, unit)
        if is_ranged_unit(state, unit):
            lead = models[0]
            if visible and target is not None:
                cands = candidates(state, unit, lead, target=target, context="spawn")

                def can_see_target() -> bool:
                    return bool(seen_by(state, unit, target))

                spots = [c for c in shot_positions(state, unit, lead, cands, can_see_target) if c.in_cover]
                spots.sort(key=lambda c: (-c.cover.rank, c.cost, c.x, c.y))
                got = best_legal(state, unit, lead, spots, target=target, context="spawn")
                if got is not None:
                    mv, end = got
                    return Decision(mv, _r("AI-S.SPAWN", f"{unit} appears and takes {end.cover.value} cover with a "
                                                         f"view of {target}", target=target, goal=(end.x, end.y),
                                           cover=end.cover.value, cost=round(end.cost, 4)), "moving")
                return Decision(StayPut(unit), _r("AI-S.SPAWN", f"{unit} sees {target} but no cover with a view is "
                                                                f"in reach: it stays", target=target), "moving")
            if in_cover_at_rest(state, unit):
                return Decision(StayPut(unit), _r("AI-S.SPAWN", f"{unit} appears in cover and stays"))
            spot = spawn_cover(state, unit, lead)
            if spot is not None and len(spot.path) > 1:
                step = unit_move(state, unit, lead, spot, target=None, context="spawn")
                if step is not None:
                    return Decision(step, _r("AI-S.SPAWN", f"{unit} sees nobody and takes the nearest cover "
                                                           f"({spot.cost:.1f}\" away)", goal=(spot.x, spot.y),
                                             cost=round(spot.cost, 4)), "moving")
            return Decision(StayPut(unit), _r("AI-S.SPAWN", f"{unit} sees nobody and no cover is in reach: it stays"),
                            "moving")
        if not visible or target is None:
            return Decision(StayPut(unit), _r("AI-S.SPAWN", f"{unit} sees nobody: it stays where it appeared"))
        t = state.models[target]
        lead = lead_model(state, unit, (t.x, t.y))
        cands = candidates(state, unit, lead, target=target, context="spawn")
        ch, order = melee_choice(cands, tune.cover_slack)
        got = best_legal(state, unit, lead, order, target=target, context="spawn")
        if got is None:
            return Decision(StayPut(unit), _r("AI-S.SPAWN", f"{unit} can make no progress toward {target}: it stays",
                                              target=target), "moving")
        mv, end = got
        how = "into base contact with" if end.contact else "toward"
        return Decision(mv, _r("AI-S.SPAWN", f"{unit} appears and rushes {how} {target} (progress "
                                             f"{end.progress:.1f}\", cover {end.cover.value})", target=target,
                               goal=(t.x, t.y), progress=round(end.progress, 4), branch=ch.why), "moving")

