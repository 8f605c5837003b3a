"""The crew autopilot: `CrewAutopilot(seed, level).choose(state) -> Action`, like every agent, for each decision a
crew's player makes (deployment, initiative, which unit activates, each action, Alert interrupts, Med-Kits,
parries, Inspect-shifted hostile results, found items).

It plays as a sensible player would: it goes for the Mission Objective and the Hot Spots (trigger, clear, search),
shoots what it can hit with the best odds (the exact odds the resolver uses), focuses fire, rallies, uses
Med-Kits, goes on Alert to cover the crew, throws grenades at groups and never where a friend could be hurt, keeps
wounded models out of Reaction Radii and backs off when outmatched. It decides from the state alone (a fresh
`View` per decision): no memory outside the state, so a saved game resumes with the same decisions. Its own
seeded generator (easy's slips, deployment sampling, Med-Kit shares) is separate from the game's dice: every
choice is recorded as an Action, so replays never need it.

Every decision is a `Reasoned` action: {rule, goal, text, numbers, agent}; the log shows the text."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from game.ai.autopilot.fire import Option, attacks, target_worth
from game.ai.autopilot.levels import LEVELS, Level
from game.ai.autopilot.moves import choose_move, retreat_goal, search_spots
from game.ai.autopilot.view import REACTION, View
from game.ai.common import lead, legal
from game.ai.zone.attacks import parry_hits
from game.core.actions import (
    Action,
    Activate,
    Aim,
    Alert,
    BoltToss,
    ChooseFoundItem,
    ChooseHostileRoll,
    ChooseInitiative,
    ComplexTask,
    DeclineInterrupt,
    DeclineMedKit,
    Deploy,
    EndActivation,
    IllegalAction,
    Interrupt,
    Parry,
    Rally,
    RangedAttack,
    Reasoned,
    Reload,
    Search,
    SearchAnomaly,
    UseItem,
)
from game.core.geometry.polygon import polygon_bounds
from game.core.odds.actions import attack_odds
from game.core.rules import apply, eligible_units, remaining
from game.core.rules.context import NoDice, read_ctx
from game.core.rules.flow import window_kits
from game.core.rules.melee import parry_chances
from game.core.rules.salvage import table_items
from game.core.rules.stats import move_allowance
from game.core.state import GameState, LocationState, ModelState, Phase

THREATENED = 0.8  # threat at a fragile model's spot from which it backs off


@dataclass(frozen=True, slots=True)
class Job:
    """What a unit is doing for the crew this decision: `kind` ("trigger", "search", "fight", "escort", "hold",
    "hunt"), the location it serves (if any), the point it goes for and why."""

    kind: str
    location: str | None
    goal: tuple[float, float]
    text: str
    target: str | None = None  # the enemy model a fight or a hunt goes for


class CrewAutopilot:
    """A crew's player at `level` (easy, normal, hard; see game.ai.autopilot.levels)."""

    def __init__(self, seed: int = 0, level: str = "normal") -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown autopilot level {level!r}; known: {', '.join(LEVELS)}")
        self.level: Level = LEVELS[level]
        self.rng = random.Random(seed)

    # -- the reason every decision carries ----------------------------------------------------------------------
    def _why(self, action: Action, rule: str, goal: str, text: str, **numbers: Any) -> Reasoned:
        return Reasoned(action, {"rule": rule, "goal": goal, "text": f"autopilot ({self.level.name}): {text}",
                                 "numbers": _plain(numbers), "agent": f"autopilot:{self.level.name}"})

    def choose(self, state: GameState) -> Action:
        ph = state.phase
        if ph is Phase.DEPLOY:
            return self._deploy(state)
        if ph is Phase.INITIATIVE:
            return self._why(ChooseInitiative(state.deciding, True), "TURN-4.1", "tempo",
                             "go first: the first activation picks the first shot")
        if ph is Phase.ACTIVATE:
            return self._activate(state)
        if ph is Phase.MEDKIT:
            return self._medkit(state)
        if ph is Phase.PARRY:
            return self._parry(state)
        if ph is Phase.INTERRUPT:
            return self._interrupt(state)
        if ph is Phase.ACTION:
            return self._action(state)
        if ph is Phase.HOSTILE_ROLL:
            sp = state.spawning
            assert sp is not None
            pick = min(sp.choices)
            return self._why(ChooseHostileRoll(state.deciding, pick), "HOSTILE-8.3.ROLL", "safety",
                             f"take result {pick} of {sorted(sp.choices)}: the lowest row is the lightest threat",
                             choices=sorted(sp.choices))
        if ph is Phase.FOUND_ITEM:
            return self._found(state)
        raise ValueError(f"nothing for a crew to decide in phase {ph.value}")

    # -- setup ----------------------------------------------------------------------------------------------------
    def _deploy(self, st: GameState) -> Action:
        """TURN-4: each model at the legal spot of the zone nearest the objective (or the table centre), kept 2"
        from friends already placed."""
        view = View(st, st.deciding)
        models = sorted((m for m in st.models.values() if m.side == st.deciding and not m.deployed),
                        key=lambda m: m.id)
        m = models[0]
        goal = _objective_point(view)
        zone = st.battlefield.zone(st.side(st.deciding).zone or "")
        x0, y0, x1, y1 = polygon_bounds(zone.footprint)
        placed = [o for o in st.models.values() if o.side == st.deciding and o.deployed]
        best: tuple[float, Deploy] | None = None
        for _ in range(80):
            x = round(self.rng.uniform(x0 + m.radius, x1 - m.radius), 3)
            y = round(self.rng.uniform(y0 + m.radius, y1 - m.radius), 3)
            crowd = sum(max(0.0, 2.5 - (math.hypot(o.x - x, o.y - y) - o.radius - m.radius)) for o in placed)
            score = math.hypot(goal[0] - x, goal[1] - y) + 2.0 * crowd
            a = Deploy(m.id, x, y)
            if (best is None or score < best[0]) and legal(st, a):
                best = (score, a)
        if best is None:
            raise RuntimeError(f"no legal deployment point found for {m.id} in {zone.name}")
        return self._why(best[1], "TURN-4", "objective", f"deploy {m.id} toward the objective, spread out",
                         distance=round(best[0], 2))

    # -- which unit acts ------------------------------------------------------------------------------------------
    def _activate(self, st: GameState) -> Action:
        """TURN-5: a unit that can search a cleared location this activation first (the objective is a race: the
        first completed search takes it), then the unit with the best shot now (the odds of its best attack), then
        pinned units (a Rally early keeps them in the fight), then the unit nearest its job's goal."""
        view = View(st, st.deciding)
        jobs = plan(view, self.level)
        best: tuple[tuple[float, float, float, float], str, str] | None = None
        for uid in sorted(eligible_units(st, st.deciding)):
            m = lead(st, uid)
            job = jobs.get(uid)
            d = math.hypot(job.goal[0] - m.x, job.goal[1] - m.y) if job else 99.0
            race = 1.0
            if job is not None and job.kind == "search" and self.level.rush:
                reach = move_allowance(m, hustle_bonus=False, settings=view.settings).inches
                race = 0.0 if d <= reach * max(0, m.profile.actions - 1) + 1.5 else 1.0
            shot = _quick_shot(view, m) if race else 0.0
            pinned = st.units[uid].pins > 0
            key = (race, -shot, (0.0 if pinned else 1.0) if not shot else 0.0, d)
            text = (f"activate {uid}: it can reach and search {job.text.removeprefix('search ')} now"
                    if not race and job else
                    f"activate {uid}: a shot worth {shot:.2f}" if shot else
                    f"activate {uid}: pinned, rally first" if pinned else
                    f"activate {uid}: {job.text if job else 'nothing urgent'}")
            cand = (key, uid, text)
            if best is None or (cand[0], cand[1]) < (best[0], best[1]):
                best = cand
        assert best is not None
        return self._why(Activate(best[1]), "TURN-5", "objective" if not best[0][0] else "tempo", best[2],
                         shot=-best[0][1])

    # -- actions --------------------------------------------------------------------------------------------------
    def _action(self, st: GameState) -> Action:
        act = st.activation
        assert act is not None
        uid = act.extra_unit if act.extra_left > 0 and act.extra_unit is not None else act.unit
        m = lead(st, uid)
        view = View(st, st.deciding)
        lv = self.level
        left = remaining(act)
        unit = st.units[uid]
        job = plan(view, lv).get(uid)
        if job is not None and lv.distract and view.foes and self.rng.random() < lv.distract:
            f = min(view.foes, key=lambda x: (math.hypot(x.x - m.x, x.y - m.y), x.id))
            job = Job("hunt", None, (f.x, f.y), f"distracted: go for {f.id}", f.id)
        goal_force = _force_of(view, job)
        if unit.pins > 0:
            kit = UseItem(uid, "medkit")
            if m.wounds_taken and legal(st, kit):
                return self._why(kit, "COMBAT-4.4.MEDKIT-SELF", "survive", f"{m.id} dresses its Wound")
            if legal(st, Rally(uid)):
                return self._why(Rally(uid), "CORE-3.3.RALLY", "rally",
                                 f"{uid} is pinned ({unit.pins}): Rally removes one", pins=unit.pins)
            return self._end(uid, "pinned and nothing else allowed")
        opts = attacks(view, m, lv, goal_force=goal_force)
        engaged = any(view.gap(m, f) <= 0.1 for f in view.foes)
        if engaged:
            if opts:
                return self._attack(st, uid, opts, left)
            return self._end(uid, "in a melee with no legal blow")
        for a, rule, text in self._chores(view, m, uid):
            return self._why(a, rule, job.kind if job else "loot", text)
        if opts and opts[0].value >= lv.min_shot:
            return self._attack(st, uid, opts, left)
        reload = next((Reload(uid, w) for w in m.unloaded if legal(st, Reload(uid, w))), None)
        if reload is not None:
            return self._why(reload, "CORE-3.3.RELOAD", "fight", f"reload the {reload.weapon}")
        if lv.back_off and view.fragile(m):
            here = view.spots(m, [(m.x, m.y, m.z)])[0]
            if here.threat >= THREATENED:
                mv = choose_move(view, m, lv, self.rng, goal=retreat_goal(view, m), purpose="back off (wounded)",
                                 may_trigger=False)
                if mv is not None:
                    return self._why(mv.action, "CORE-3.3.MOVE", "survive", mv.text, **mv.numbers)
        if job is None:
            return self._end(uid, "no job left for this unit")
        waiting = job.kind == "escort" and math.hypot(m.x - job.goal[0], m.y - job.goal[1]) < 1.0
        if (lv.alert and left >= 2 and (job.kind in ("hold", "fight") or waiting) and not unit.alert
                and self._covering(view, m) and legal(st, Alert(uid))):
            return self._why(Alert(uid), "CORE-3.3.ALERT", job.kind,
                             f"{uid} goes on Alert to cover the crew: enemies may come into view")
        if job.kind == "hold":
            if lv.cover and view.spots(m, [(m.x, m.y, m.z)])[0].threat > 0.3:
                mv = choose_move(view, m, lv, self.rng, goal=(m.x, m.y), purpose="take cover", may_trigger=False)
                if mv is not None and mv.numbers.get("threat", 9.0) < view.spots(m, [(m.x, m.y, m.z)])[0].threat:
                    return self._why(mv.action, "CORE-3.6.COVER-ELIGIBILITY", "hold", mv.text, **mv.numbers)
            return self._end(uid, job.text)
        step = self._job_move(view, m, job, uid)
        if step is not None:
            return step
        if opts and opts[0].value > 0.0:
            return self._attack(st, uid, opts, left)
        return self._end(uid, f"{job.text}: no better place within reach")

    def _attack(self, st: GameState, uid: str, opts: list[Option], left: int) -> Action:
        pick = opts[1] if (self.level.slip and len(opts) > 1 and self.rng.random() < self.level.slip) else opts[0]
        if self.level.aim and left >= 2 and isinstance(pick.action, RangedAttack):
            aim = self._aim_first(st, uid, pick)
            if aim is not None:
                return aim
        return self._why(pick.action, pick.rule, "fight", pick.text, value=pick.value, **pick.numbers)

    def _aim_first(self, st: GameState, uid: str, pick: Option) -> Action | None:
        """CORE-3.3.AIM (hard): Aim first when the aimed shot (+1 CA, +1 Damage: its exact odds, taken on a copy of
        the state with the Aim made) is worth more than two plain shots at the same target."""
        shot = pick.action
        assert isinstance(shot, RangedAttack)
        if not legal(st, Aim(uid)):
            return None
        trial = st.clone()
        apply(trial, Aim(uid), NoDice())
        try:
            r = attack_odds(trial, shot).target_round
        except IllegalAction:
            return None
        p1 = float(pick.numbers.get("p_ooa", 0.0))
        aimed = float(r.p_ooa)
        if aimed <= p1 + p1 * (1 - p1):  # two plain shots: the second only if the first did not put it out
            return None
        return self._why(Aim(uid), "CORE-3.3.AIM", "fight",
                         f"aim before shooting {shot.target}: P(out) {aimed:.2f} aimed against {p1:.2f} a shot "
                         f"({1 - (1 - p1) ** 2:.2f} for two)", p_aimed=round(aimed, 4), p_plain=round(p1, 4))

    def _chores(self, view: View, m: ModelState, uid: str) -> list[tuple[Action, str, str]]:
        """Things worth an action where the model stands: a search of a cleared location (MISSION-8.2.CLEARING), a
        key task (CORE-3.4.TASK), an anomaly (SALVAGE-8.4.ANOMALY-SEARCH, not by a fragile model), a Med-Kit on a
        wounded friend in contact (COMBAT-4.4.MEDKIT-ALLY)."""
        st = view.st
        out: list[tuple[Action, str, str]] = []
        for loc in view.open_locations() + [x for x in st.locations.values() if x.searched]:
            a = Search(uid, loc.id)
            if legal(st, a):
                out.append((a, "MISSION-8.2.CLEARING", f"search {loc.name} ({loc.kind}): it is clear"))
                return out
        for tid, t in sorted(st.tasks.items()):
            if not t.done and legal(st, ComplexTask(uid, tid)):
                out.append((ComplexTask(uid, tid), "CORE-3.4.TASK", f"work on {t.name}"))
                return out
        if not view.fragile(m):
            for lid, loc in sorted(st.locations.items()):
                if loc.anomaly and not loc.anomaly_inert and legal(st, SearchAnomaly(uid, lid)):
                    out.append((SearchAnomaly(uid, lid), "SALVAGE-8.4.ANOMALY-SEARCH", f"take the artifact of {lid}"))
                    return out
        for f in view.mine:
            if f.id != m.id and f.wounds_taken and legal(st, UseItem(uid, "medkit", f.id)):
                out.append((UseItem(uid, "medkit", f.id), "COMBAT-4.4.MEDKIT-ALLY", f"dress {f.id}'s Wound"))
                return out
        return out

    def _covering(self, view: View, m: ModelState) -> bool:
        """Alert is worth two actions when no enemy is in view now but one is close enough to step into view, and
        the model stands unseen or in cover (CORE-3.3.ALERT: the held action interrupts their activation)."""
        seen = [f for f in view.foes if view.sees(m.id, f.id)]
        if seen:
            return False
        reach = view.reach(m)
        if not reach:
            return False
        near = [f for f in view.foes if view.gap(m, f) <= reach + 8.0]
        return bool(near)

    def _job_move(self, view: View, m: ModelState, job: Job, uid: str) -> Action | None:
        lv = self.level
        wounded = view.wounded(m) and lv.avoid_trigger_wounded
        if job.kind == "search" and job.location is not None:
            loc = view.st.locations[job.location]
            spots = search_spots(view, m, loc)
            goal = (spots[0][0], spots[0][1]) if spots else job.goal
            mv = choose_move(view, m, lv, self.rng, goal=goal, purpose=job.text, arrive=spots,
                             may_trigger=not wounded, rush=lv.rush)
        elif job.kind == "trigger" and job.location is not None:
            loc = view.st.locations[job.location]
            spots = search_spots(view, m, loc, by_point=True)
            goal = (spots[0][0], spots[0][1]) if spots else job.goal
            there = math.hypot(m.x - goal[0], m.y - goal[1]) < 0.1
            mv = None if there else choose_move(view, m, lv, self.rng, goal=goal, purpose=job.text, may_trigger=True,
                                                rush=lv.rush and view.is_clear(loc))
            if mv is None or float(mv.numbers.get("progress", 0.0)) < 0.5:
                toss = BoltToss(uid, loc.id, loc.x, loc.y)
                if legal(view.st, toss):
                    return self._why(toss, "MISSION-8.2.BOLT-TOSS", "trigger",
                                     f"toss a bolt into {loc.name}'s Reaction Radius: walking in gets no nearer")
        else:
            mv = choose_move(view, m, lv, self.rng, goal=job.goal, purpose=job.text, target=job.target,
                             fight=job.kind in ("fight", "hunt"), may_trigger=job.kind == "hunt" and not wounded)
        if mv is None:
            return None
        return self._why(mv.action, "CORE-3.3.MOVE", job.kind, mv.text, **mv.numbers)

    def _end(self, uid: str, text: str) -> Action:
        return self._why(EndActivation(uid), "TURN-6", "hold", f"end {uid}'s activation: {text}")

    # -- off-turn decisions ---------------------------------------------------------------------------------------
    def _interrupt(self, st: GameState) -> Action:
        """TURN-7: a unit on Alert spends its held action on the best shot now, if it is worth one; a delayed self
        Med-Kit (COMBAT-4.4.MEDKIT-DELAY) is taken first."""
        win = st.interrupt
        assert win is not None
        view = View(st, st.deciding)
        kits = [u for u in window_kits(read_ctx(st), st.deciding)]
        if kits and self.level.medkit >= 1.0:
            u = sorted(kits)[0]
            return self._why(Interrupt(u, UseItem(u, "medkit")), "COMBAT-4.4.MEDKIT-DELAY", "survive",
                             f"{u} dresses its Wound now")
        best: Option | None = None
        for u in sorted(x.id for x in st.units.values() if x.side == st.deciding
                        and (x.alert or x.id == win.extra_unit) and st.unit_in_play(x.id)):
            m = lead(st, u)
            opts = attacks(view, m, self.level, goal_force=None,
                           wrap=lambda a, u=u: Interrupt(u, a))  # type: ignore[misc]
            if opts and (best is None or opts[0].value > best.value):
                best = opts[0]
        if best is not None and best.value >= max(self.level.min_shot, 0.05):
            return self._why(best.action, "TURN-7", "fight", f"interrupt from Alert: {best.text}",
                             value=best.value, **best.numbers)
        return self._why(DeclineInterrupt(st.deciding), "TURN-7", "hold", "hold the Alert: no shot worth it now")

    def _medkit(self, st: GameState) -> Action:
        dec = st.wound_queue[0]
        m = st.models[dec.model]
        use = UseItem(m.unit, "medkit")
        helps = m.wounds_taken - 1 < m.profile.wounds  # a kit that leaves it Out of Action only adds Pins
        if helps and self.rng.random() < self.level.medkit and legal(st, use):
            return self._why(use, "COMBAT-4.4.MEDKIT-SELF", "survive", f"{m.id} dresses the Wound at once")
        return self._why(DeclineMedKit(dec.model), "COMBAT-4.4.MEDKIT-SELF", "survive",
                         f"{m.id} keeps the Med-Kit for later" if helps else
                         f"{m.id} keeps the Med-Kit: {m.wounds_taken} Wounds, one dressed still leaves it out")

    def _parry(self, st: GameState) -> Action:
        """COMBAT-4.2.PARRY: parry min(a, b) hits when a defender hit is likelier to wound than one of ours."""
        c = st.continuations[0]
        p_a, p_b = parry_chances(read_ctx(st), c)
        k = parry_hits(int(c["a_hits"]), int(c["d_hits"]), p_a, p_b)
        return self._why(Parry(st.models[c["attacker"]].unit, k), "COMBAT-4.2.PARRY", "fight",
                         f"parry {k}: one of their hits wounds with {p_b:.2f}, one of ours with {p_a:.2f}",
                         p_a=round(p_a, 4), p_b=round(p_b, 4))

    def _found(self, st: GameState) -> Action:
        """GAP-57: the item of the table worth most (a Med-Kit first while the crew is short of one)."""
        ctx = read_ctx(st)
        items = table_items(ctx, str(st.found_choices[0]["table"]))
        cat = View(st, st.deciding).cat

        def worth(i: str) -> tuple[float, str]:
            try:
                v = float(getattr(cat.equipment(i), "value", 0) or 0)
            except (KeyError, ValueError):
                v = 0.0
            return (v + (10_000 if i == "medkit" else 0), i)
        pick = max(items, key=worth)
        return self._why(ChooseFoundItem(st.deciding, pick), "GAP-57", "loot", f"take the {pick}: worth most")


# -- the crew's plan ------------------------------------------------------------------------------------------------
def plan(view: View, level: Level) -> dict[str, Job]:
    """Who does what, decided afresh from the state: the Mission Objective first (a healthy model sets it off, the
    rest close in just outside its Reaction Radius, then the crew fights its force and the nearest healthy model
    searches it), then - at normal and hard - the nearest Hot Spots, one model each; when the objective is done or
    the crew is outmatched, hold in cover and shoot; with nothing left, hunt the nearest enemy."""
    st = view.st
    units = sorted({m.unit for m in view.mine})
    leads = {u: lead(st, u) for u in units}
    free = list(units)
    jobs: dict[str, Job] = {}
    outmatched = level.back_off and len(view.mine) * 2 < len([f for f in view.foes if f.side not in st.forces])

    def take(kind: str, loc: LocationState | None, goal: tuple[float, float], text: str, *,
             healthy: bool) -> str | None:
        pool = [u for u in free if not (healthy and level.avoid_trigger_wounded and leads[u].wounds_taken)] or \
            ([] if healthy else free)
        if not pool:
            return None
        u = min(pool, key=lambda x: (math.hypot(leads[x].x - goal[0], leads[x].y - goal[1]), x))
        free.remove(u)
        jobs[u] = Job(kind, loc.id if loc else None, goal, text)
        return u

    locs = [x for x in view.open_locations() if x.kind == "objective" or level.search_hotspots]
    objective = next((x for x in st.locations.values() if x.kind == "objective"), None)
    for loc in locs:
        point = (loc.x, loc.y)
        if loc.triggered and view.is_clear(loc):
            take("search", loc, point, f"search {loc.name}", healthy=False)
        elif loc.triggered:
            force = view.force_models(loc)
            crowd = len(free) if loc.kind == "objective" else min(2, len(free))
            for _ in range(crowd):
                u = free[0] if free else None
                if u is None:
                    break
                ld = leads[u]
                f = min(force, key=lambda x: (math.hypot(x.x - ld.x, x.y - ld.y), x.id)) if force else None
                free.remove(u)
                jobs[u] = Job("fight", loc.id, (f.x, f.y) if f else point,
                              f"clear {loc.name}: fight {f.id if f else 'its hostiles'}", f.id if f else None)
        elif loc.kind == "objective" or len(free) >= 3:
            take("trigger", loc, point, f"set off {loc.name} with a healthy model", healthy=True)
    for u in list(free):
        ld = leads[u]
        if outmatched:
            jobs[u] = Job("hold", None, (ld.x, ld.y), "outmatched: hold in cover and shoot")
        elif objective is not None and not objective.searched and not objective.triggered:
            jobs[u] = Job("escort", objective.id, _rim(ld, objective), f"close in on {objective.name}")
        elif view.foes:
            f = min(view.foes, key=lambda x: (math.hypot(x.x - ld.x, x.y - ld.y), x.id))
            kind = "hold" if (objective is not None and objective.searched and
                              objective.searched_by and st.models[objective.searched_by[0]].side == view.side) \
                else "hunt"
            jobs[u] = Job(kind, None, (f.x, f.y), "objective taken: hold in cover and shoot" if kind == "hold"
                          else f"hunt {f.id}", f.id)
        free.remove(u)
    return jobs


def _rim(m: ModelState, loc: LocationState) -> tuple[float, float]:
    """The point just outside the location's Reaction Radius on m's side of it (the escorts wait there)."""
    d = math.hypot(m.x - loc.x, m.y - loc.y)
    if d <= REACTION + m.radius + 1.5:
        return (m.x, m.y)
    k = (REACTION + m.radius + 1.0) / d
    return (loc.x + (m.x - loc.x) * k, loc.y + (m.y - loc.y) * k)


def _force_of(view: View, job: Job | None) -> str | None:
    if job is None or job.location is None:
        return None
    return view.st.locations[job.location].force


def _objective_point(view: View) -> tuple[float, float]:
    obj = next((x for x in view.st.locations.values() if x.kind == "objective"), None)
    if obj is not None:
        return (obj.x, obj.y)
    w, h = view.st.table
    return (w / 2, h / 2)


def _quick_shot(view: View, m: ModelState) -> float:
    """The value of m's best shot now at an enemy it sees in range (odds only; legality is checked when it acts)."""
    best = 0.0
    for t in view.foes:
        if not view.sees(m.id, t.id):
            continue
        d = view.gap(m, t)
        for wid in m.profile.weapons:
            p = view.cat.weapon(wid).profile
            if p.template is not None or not p.range_max or d > float(p.range_max) or wid in m.unloaded:
                continue
            try:
                r = attack_odds(view.st, RangedAttack(m.unit, t.id, wid)).target_round
            except (IllegalAction, KeyError, ValueError):
                continue
            best = max(best, target_worth(view, t, None) * (float(r.p_ooa) + 0.3 * float(r.expected_wounds)))
    return round(best, 4)


def _plain(v: Any) -> Any:
    """Numbers for a reason: JSON-plain (floats rounded, tuples as lists)."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, float):
        return round(v, 4)
    if isinstance(v, (int, str, bool)) or v is None:
        return v
    return str(v)
