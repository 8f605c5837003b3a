"""The Zone referee (issue 14 item 5, "a checker that trusts nobody"): after every decision of any game it judges
the hostile decisions against RULES.md's ZONE HOSTILE AI, and re-derives the A.I. memory (AI-D.02, AI-D.03) on its
own to compare with the engine's `GameState.ai`.

    checker = ZoneChecker.from_state(state)              # or ZoneChecker(settings)
    before = state.clone() if needs_before(state) else None
    events = apply(state, action)
    checker.observe(before, action, events, state)
    checker.report                                       # ZoneReport(violations, checks)

It never imports the agents (game.ai) and never reads a decision's reason; the engine's `target_locked`,
`target_lock_dropped` and `melee_draw` events are not read either. The memory comes from: `activation_start` and
`activation_end` of hostile units, the hostile unit's own actions (the decision), crew melee attacks on hostiles
(`melee_round` and `attack` coup_de_grace events), models leaving play (the state after), `hostiles_spawned`,
and the spawn free-move phase.

What is checked, each count under its rule id in `report.checks`:
- AI-D.02 / AI-D.03: after every decision, the engine's lock, last known position and draw equal the referee's.
- AI-8.3.RULE3: every hostile attack (own action or held Interrupt attack; grenades and blasts: the enemy base
  nearest the point) is on its target: the draw, else the lock, else the AI-D.01 choice now.
- AI-D.14: no attack on an Out of Action model.
- AI-8.3.RULE2: while an attack is possible (some RangedAttack / MeleeAttack with a weapon of the unit passes
  `apply.validate`), the unit neither ends its activation, nor goes on Alert, nor takes any other non-attacking
  action but AI-D.07 step 1 (Rally), step 3 (the cover move) and AI-D.08's Aim.
- AI-D.07: Pinned: Rally (step 1). Step 3: with an attack possible, a ranged unit not in cover against its target
  with >= 2 actions left and a point in cover with a shot (LOS and range) reachable with one Move must move there
  (a shot then is a violation) and the move must end in cover of at least that class with a shot.
- AI-D.08: an Aim only when (a)-(d) hold (or into a melee with >= 2 actions), an un-aimed attack with an FP 1
  weapon (or into a melee) with >= 2 actions left and no move due is a violation, and an Aim is followed by the
  attack.
- AI-D.06: a move toward a visible target with no attack possible: melee movers end in base contact when it was
  reachable, else in cover when a candidate in cover lay within `ai.cover_slack` of the best progress, else with
  progress >= best - slack; ranged movers (AI-D.07 step 4) end in cover with a shot when such a point was
  reachable, else with a shot when one was, else as a melee mover away from contact.
- AI-8.3.RULE4: drawn by a melee attacker in base contact, the unit attacks it (or takes AI-D.08's Aim).
- AI-D.09: a melee-only hostile never goes on Alert; at a window where a hostile on Alert can attack with one
  action, declining is a violation, the held action is that attack, on the allowed target.
- AI-D.12: parry k = min(a, b) if pB > pA else 0, pA and pB from `game.core.odds.melee.melee_odds` priced before
  the roll.
- AI-D.13: hostiles never Withdraw; every hostile in contact with a withdrawing crew model made its free attack.
- AI-S.ORDER: the activated unit is the force's eligible unit nearest any enemy (ties: lowest id).
- AI-S.SPAWN: melee types with a visible AI-D.01 enemy move as AI-D.06 says (contact if reachable), with none
  they stay; ranged types end in the best cover with LOS to it when one is reachable, or with none visible in
  the nearest cover (touching a soft, hard or hardened piece).

Interpretations (to reconcile with the Zone agent, game/ai/zone/, which follows the same text):
1. The checks of AI-D.02 are: the start of each activation of the unit, the end of the resolution of each of its
   actions (own or a held Interrupt action, after any Parry or Med-Kit decision it waited for), and the moment
   its spawn free move is asked. At a check with no lock, the AI-D.01 choice among vis(H) becomes the lock (last
   known position: where it stands); with a lock, seeing it refreshes the last known position.
2. AI-D.02 (ii) counts every check since the end of the unit's previous activation (its spawn check and
   Interrupt checks included), not only those inside the activation that ends.
3. AI-D.03: the attackers "since H's last activation" are those since the end of its previous activation; an
   attack draws at once (the attacker was in play when it attacked); if the drawer leaves play the draw passes
   to the most recent attacker still in play, else ends; at the end of the activation the attackers are
   forgotten and the draw is kept only while in base contact. A coup de grace on an Out of Action model of a
   multi-model unit is a melee attack on that unit. The attacker is the model that rolled (`melee_round`).
4. The target: the draw overrides the lock (AI-D.03), a lock holds even when hidden (AI-D.02), with neither the
   AI-D.01 choice now. Targets allowed besides it: with one action left (and always in a window, a held action
   being one action) and only shots into a melee on the target, the AI-D.01 choice among the other visible
   enemies not in a melee that it can attack (AI-D.08); Engaged away from its target, any enemy in base contact
   (AI-D.07 step 2).
5. "Attack possible" = a RangedAttack (each firing profile) or MeleeAttack of some weapon of the unit on an
   allowed target passes `apply.validate` now; grenades, blasts and flames never make an attack "possible".
6. AI-D.08 (a) "FP 1 with the chosen weapon": an Aim is allowed when some possible attack has FP 1 (or fires
   into a melee), (b) >= 2 actions left (the current stage's actions, `flow.remaining`), (c) an attack is
   possible, (d) no AI-D.07 step 3 move is due. An un-aimed attack is judged by its own weapon's FP.
7. AI-D.07 step 3 "in cover vs the target" is the hostile's GEO-12/GEO-14 cover with the target as the shooter
   (`exposure.cover_against`, the lead model, i.e. the unit's model nearest the target); the qualifying positions
   are `exposure.candidate_points` (allowance of one Move, the leash), in cover, with a ranged attack passing
   `validate` from there; the end must be in cover of the best class found, with a shot; path cost is not judged.
8. AI-D.06 moves are judged only toward a visible target with no attack possible (a hidden lock's last known
   position, AI-D.04 goals and the return to pL are not judged). The lead model's candidates take no cohesion
   (the followers close up after it, AI-D.15); the end is the lead's. "Highest progress" is held to within
   `ai.cover_slack` of the best; "best cover type first" to the class of the best candidate in cover.
9. AI-D.09 with a lock or draw: the window is due only when that target can be attacked with one action (it never
   attacks other enemies); with neither, when any enemy can be, the AI-D.01 choice among those. A side with
   several Alert units: declining is a violation if any of them is due.
10. AI-S.SPAWN ranged: "best cover position with LOS" = a candidate in cover against the enemy with LOS to it,
   best class first; with no visible enemy the nearest cover is `exposure.nearest_cover`; its end must touch a
   cover piece (its path cost is not judged). When no such point is reachable nothing is required; a unit Pinned
   before its free move (by an interrupt at an earlier free move's window) is not judged (only StayPut is legal).
11. Not judged: AI-D.04 (no visible enemy), AI-D.05, AI-D.07 step 2's weapon choice and step 4's Alert, AI-D.11
   Med-Kits, AI-D.15 followers, AI-S.PREPLACE; the legality rules (leash AI-8.3.RULE1/GEO-20,
   AI-C.6) are refused by `apply` itself.
12. A check whose resolution also ended the turn (TURN-9 smoke expiry) is judged on the state after the apply.
13. AI-S.G3ZOMBIES (a force with converge points whose unit has no target and no attack possible) is judged in
   game.referee.converge: a Move along the shortest path toward the nearest converge point by the lead's whole
   allowance (less `ai.cover_slack`) when the unit could follow it, never an Alert, no other action before it
   arrives.
14. AI-D.10 (a hostile with a grenade, an attack possible on its target, no AI-D.07 step 3 move due, no Aim taken)
   is judged from the core's `hostile_grenades.grenade_call`: a shot when the call says throw is a violation, a
   throw must be the call's (that grenade at the target's centre), a throw with no call is a violation.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from game.core.actions import Action, EndActivation, Interrupt
from game.core.events import Event
from game.core.rules.context import settings_of
from game.core.settings import Settings
from game.core.state import GameState, Phase
from game.referee.choices import judge_action
from game.referee.memory import Memory
from game.referee.report import Judge, Violation, ZoneReport
from game.referee.situation import Tuning, is_crew_model, is_hostile, touching, unwrap
from game.referee.windows import (
    judge_order,
    judge_parry,
    judge_spawn,
    judge_window,
    judge_withdraw,
    melee_chances,
)

UNIT_ACTIONS = ("Move", "Climb", "Jump", "Aim", "Alert", "Rally", "Recover", "Reload", "UseItem", "ComplexTask",
                "Order", "RangedAttack", "MeleeAttack", "Withdraw", "ThrowGrenade", "TemplateAttack", "FlameAttack",
                "Inspect", "BoltToss")
RESOLVING = (Phase.PARRY, Phase.MEDKIT)


def needs_before(state: GameState) -> bool:
    """Whether the caller should clone the state before the next decision: a hostile force decides (which unit
    activates, its actions, an interrupt, a parry, a free move), or a crew model of the deciding side stands in
    base contact with a hostile (a Withdraw, AI-D.13)."""
    if state.phase is Phase.MISSION_END:
        return False
    if state.deciding in state.forces:
        return True
    if state.phase not in (Phase.ACTION, Phase.INTERRUPT):
        return False
    crew = [m for m in state.models.values() if m.in_play and m.side == state.deciding]
    foes = [m for m in state.models.values() if m.in_play and m.side in state.forces]
    return any(touching(state, c.id, f.id) for c in crew for f in foes)


class ZoneChecker:
    """Observes every decision of a game and judges the hostile ones (see the module docstring)."""

    def __init__(self, settings: Mapping[str, Any] | None = None, *, start: GameState | None = None) -> None:
        s = settings if isinstance(settings, Settings) else Settings(dict(settings or {}))
        self.tune = Tuning(float(s["ai.close_tol"]), float(s["ai.cover_slack"]), bool(s["ai.alert"]),
                           bool(s["ai.hostile_vs_hostile"]))
        self.report = ZoneReport()
        self.memory = Memory(close_tol=self.tune.close_tol, hostile_vs_hostile=self.tune.hostile_vs_hostile)
        self._phase: Phase | None = None
        self._pending: str | None = None  # a hostile unit whose action's check waits for the end of its resolution
        self._spawn_checked: tuple[str, str] | None = None
        self._chances: dict[tuple[str, str], tuple[float, float]] = {}
        self.last: list[Violation] = []  # the violations of the last decision observed
        if start is not None:
            self.memory.seed(start)
            self._phase = start.phase

    @classmethod
    def from_state(cls, state: GameState) -> ZoneChecker:
        """A checker with the game's settings, starting from its memory (empty at the start of a game)."""
        return cls(settings_of(state), start=state)

    needs_before = staticmethod(needs_before)

    def observe(self, before: GameState | None, action: Action, events: list[Event], after: GameState) -> None:
        """Judge one applied decision (`before`: a clone of the state before it, or None when `needs_before` said
        no; `after`: the state after it) and update the referee's memory; `last` holds the violations found."""
        decision = unwrap(action)
        ref = before if before is not None else after
        j = Judge(self.report, turn=ref.turn, seq=events[0].seq if events else after.event_seq)
        phase = before.phase if before is not None else self._phase
        if before is not None:
            self._judge(j, before, decision, events, after)
        self._remember(phase, decision, events, after, before)
        for unit, rule, ok, happened, allowed in self.memory.compare(after):
            j.check(rule, unit, ok, happened, allowed)
        self._phase = after.phase
        self.last = j.found

    def _judge(self, j: Judge, before: GameState, decision: Action, events: list[Event], after: GameState) -> None:
        ph = before.phase
        hostile_decides = before.deciding in before.forces
        if ph is Phase.ACTIVATE and hostile_decides:
            judge_order(j, before, decision, self.tune)
        elif ph is Phase.ACTION and before.activation is not None and is_hostile(before, before.activation.unit):
            judge_action(j, before, after, decision, self.memory, self.tune)
        elif ph is Phase.INTERRUPT and hostile_decides:
            judge_window(j, before, decision, self.memory, self.tune)
        elif ph is Phase.PARRY and hostile_decides:
            judge_parry(j, before, decision, self._chances)
        elif ph is Phase.SPAWN_MOVE and hostile_decides:
            judge_spawn(j, before, decision, after, self.memory, self.tune)
        if ph in (Phase.ACTION, Phase.INTERRUPT):
            judge_withdraw(j, before, decision, events, after)
            got = melee_chances(before, decision)
            if got is not None:
                unit, defender, p_a, p_b = got
                self._chances[(unit, defender)] = (p_a, p_b)

    def _remember(self, phase: Phase | None, decision: Action, events: list[Event], after: GameState,
                  before: GameState | None = None) -> None:
        """The referee's memory from this decision (interpretations 1-3). The check after the unit's action sees the
        table as that action left it: when the action also ended the turn, before the turn's smoke expired
        (TURN-9 runs after the check, `_as_acted`)."""
        mem = self.memory
        acted = _as_acted(before, events, after)
        actor = None
        if phase is Phase.ACTION and type(decision).__name__ in UNIT_ACTIONS:
            actor = getattr(decision, "unit", None)
        elif phase is Phase.INTERRUPT and isinstance(decision, Interrupt):
            actor = decision.unit
        if actor is not None and is_hostile(after, actor) and not isinstance(decision, EndActivation):
            self._pending = actor
        for e in events:
            if e.type == "hostiles_spawned":
                mem.of(str(e.data["unit"]))
            elif e.type == "melee_round" or (e.type == "attack" and e.data.get("kind") == "coup_de_grace"):
                a, t = e.data.get("attacker"), e.data.get("defender", e.data.get("target"))
                if a in after.models and t in after.models and self._attacker_counts(after, str(a)):
                    unit = after.models[str(t)].unit
                    if is_hostile(after, unit):
                        mem.melee(after, unit, str(a))
            elif e.type == "activation_start" and is_hostile(after, str(e.data["unit"])):
                mem.check(after, str(e.data["unit"]))
            elif e.type == "activation_end" and is_hostile(after, str(e.data["unit"])):
                unit = str(e.data["unit"])
                if self._pending == unit:
                    mem.check(acted, unit)
                    self._pending = None
                mem.end(after, unit)
        if self._pending is not None and after.phase not in RESOLVING:
            if after.phase is not Phase.MISSION_END:
                mem.check(acted, self._pending)
            self._pending = None
        sp = after.spawning
        if after.phase is Phase.SPAWN_MOVE and sp is not None and sp.pending:
            key = (sp.location, sp.pending[0])
            if key != self._spawn_checked:
                mem.check(after, sp.pending[0])
                self._spawn_checked = key
        mem.sweep(after)

    def _attacker_counts(self, state: GameState, attacker: str) -> bool:
        """AI-D.03: the melee attacker is an enemy (a crew model; another force's hostile with
        `ai.hostile_vs_hostile`)."""
        return is_crew_model(state, attacker) or (self.tune.hostile_vs_hostile and is_hostile(
            state, state.models[attacker].unit))


def _as_acted(before: GameState | None, events: list[Event], after: GameState) -> GameState:
    """The state an AI-D.02 check after an action sees: `after`, except that when the decision also ended the turn
    (a `turn_end` among its events), the smoke clouds that expired at that turn end still stand (the engine checks
    right after the action, before TURN-9's expiry). Without the state before the decision, `after` itself."""
    if before is None or not any(e.type == "turn_end" for e in events):
        return after
    gone = [c for c in before.smoke if c not in after.smoke]
    if not gone:
        return after
    view = copy.copy(after)
    view.smoke = [*after.smoke, *gone]
    return view
