"""A random-legal agent: picks uniformly among sampled legal decisions (a baseline and a fuzzer)."""
from __future__ import annotations

import math
import random

from game.core.actions import (
    Action,
    Activate,
    Aim,
    Alert,
    ChooseInitiative,
    ComplexTask,
    DeclineInterrupt,
    DeclineMedKit,
    Deploy,
    EndActivation,
    FlameAttack,
    IllegalAction,
    Interrupt,
    MeleeAttack,
    Move,
    Order,
    Parry,
    Rally,
    RangedAttack,
    Recover,
    Reload,
    TemplateAttack,
    ThrowGrenade,
    UseItem,
    Withdraw,
)
from game.core.geometry.polygon import polygon_bounds
from game.core.rules import eligible_units, hustle_due, remaining, settings_of, validate
from game.core.rules.stats import move_allowance
from game.core.state import GameState, ModelState, Phase


class RandomAgent:
    """Chooses a random legal decision for the side that must decide (STYLE habit 7: just another player).

    Its own random.Random is separate from the game's PRNG: its choices are recorded as Actions, so
    replays never need it."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.used: dict[str, int] = {}  # action types taken so far: rarely used ones are preferred

    def choose(self, state: GameState) -> Action:
        ph = state.phase
        if ph is Phase.DEPLOY:
            return self._deploy(state)
        if ph is Phase.INITIATIVE:
            return ChooseInitiative(state.deciding, self.rng.random() < 0.7)
        if ph is Phase.ACTIVATE:
            return Activate(self.rng.choice(eligible_units(state, state.deciding)))
        if ph is Phase.MEDKIT:
            dec = state.wound_queue[0]
            m = state.models[dec.model]
            if self.rng.random() < 0.8:
                return UseItem(m.unit, "medkit")
            return DeclineMedKit(dec.model)
        if ph is Phase.PARRY:
            c = state.continuations[0]
            return Parry(state.models[c["attacker"]].unit, self.rng.randint(0, min(c["a_hits"], c["d_hits"])))
        if ph is Phase.INTERRUPT:
            return self._interrupt(state)
        if ph is Phase.ACTION:
            return self._action(state)
        raise ValueError(f"nothing to decide in phase {ph.value}")

    # -- phases -----------------------------------------------------------------------------------
    def _deploy(self, st: GameState) -> Action:
        models = [m for m in st.models.values() if m.side == st.deciding and not m.deployed]
        m = self.rng.choice(models)
        zone = st.battlefield.zone(st.side(st.deciding).zone or "")
        x0, y0, x1, y1 = polygon_bounds(zone.footprint)
        for _ in range(400):
            x = self.rng.uniform(x0 + m.radius, x1 - m.radius)
            y = self.rng.uniform(y0 + m.radius, y1 - m.radius)
            a = Deploy(m.id, round(x, 3), round(y, 3))
            if _legal(st, a):
                return a
        raise RuntimeError(f"no legal deployment point found for {m.id} in {zone.name}")

    def _interrupt(self, st: GameState) -> Action:
        win = st.interrupt
        assert win is not None
        units = [u.id for u in st.units.values() if u.side == st.deciding and (u.alert or u.id == win.extra_unit)
                 and st.unit_in_play(u.id)]
        if units and self.rng.random() < 0.5:
            uid = self.rng.choice(units)
            for inner in self._candidates(st, uid, context="alert"):
                if inner.cost == 1:
                    a = Interrupt(uid, inner)
                    if _legal(st, a):
                        return a
        return DeclineInterrupt(st.deciding)

    def _action(self, st: GameState) -> Action:
        act = st.activation
        assert act is not None
        uid = act.extra_unit if act.extra_left > 0 and act.extra_unit is not None else act.unit
        if self.rng.random() < 0.04:
            return EndActivation(uid)
        legal = [a for a in self._candidates(st, uid, context="own") if _legal(st, a)]
        if not legal:
            return EndActivation(uid)
        # Novelty weighting: an action type used n times weighs 1/(1+n)^2, so a game shows every action.
        labels = [_label(st, a) for a in legal]
        # Each kind of decision weighs the same in total however many variants were sampled; closing in and
        # fighting hand to hand weigh more, so a demo game shows melee as well as shooting.
        bias = {"Move:charge": 8.0, "Move:advance": 4.0, "MeleeAttack": 8.0, "Aim": 0.3, "RangedAttack": 0.4}
        count = {lab: labels.count(lab) for lab in labels}
        weights = [bias.get(lab, 1.0) / count[lab] / (1 + self.used.get(lab, 0)) ** 2 for lab in labels]
        i = self.rng.choices(range(len(legal)), weights=weights, k=1)[0]
        self.used[labels[i]] = self.used.get(labels[i], 0) + 1
        return legal[i]

    # -- candidate decisions ----------------------------------------------------------------------
    def _candidates(self, st: GameState, uid: str, *, context: str) -> list[Action]:
        m = next(st.models[x] for x in st.units[uid].models if st.models[x].in_play)
        c: list[Action] = []
        c += [self._move(st, uid, m) for _ in range(4)]
        charge = self._charge(st, uid, m)
        if charge is not None:
            c.append(charge)
        c += [Aim(uid), Alert(uid), Rally(uid), Recover(uid)]
        c += [Reload(uid, w) for w in m.unloaded]
        c += [UseItem(uid, "electric_juice"), UseItem(uid, "medkit")]
        c += [UseItem(uid, "medkit", o.id) for o in st.models.values() if o.side == m.side and o.id != m.id]
        c += [ComplexTask(uid, t) for t in st.tasks]
        attacks = self._attacks(st, uid, m)
        if m.profile.leader and context == "own":
            for other in st.units.values():
                if other.side == m.side and other.id != uid and st.unit_in_play(other.id):
                    o = st.models[other.models[0]]
                    inner = self.rng.choice([self._move(st, other.id, o), Rally(other.id),
                                             *(ComplexTask(other.id, t) for t in st.tasks)])
                    c.append(Order(uid, other.id, inner))
        self.rng.shuffle(c)
        self.rng.shuffle(attacks)
        # Working a task the model stands at, or attacking, is what a player would usually do first.
        c.sort(key=lambda a: 0 if isinstance(a, ComplexTask) else 1)
        return attacks + c if self.rng.random() < 0.7 else c + attacks

    def _attacks(self, st: GameState, uid: str, m: ModelState) -> list[Action]:
        """Every attack worth trying: shots, Unload, blows, grenades, blasts and flame at enemies."""
        from game.core.catalog import load_catalog

        cat = load_catalog(settings_of(st))
        enemies = [e for e in st.models.values() if e.in_play and e.side != m.side]
        out: list[Action] = []
        for e in enemies:
            touching = math.hypot(e.x - m.x, e.y - m.y) - e.radius - m.radius <= 0.1
            for wid in m.profile.weapons:
                w = cat.weapon(wid)
                p = w.profile
                if touching:
                    out.append(MeleeAttack(uid, e.id, wid))
                elif p.template is not None and p.template.value == "flame":
                    out.append(FlameAttack(uid, wid, round(math.atan2(e.y - m.y, e.x - m.x), 4)))
                elif p.template is not None:
                    out.append(TemplateAttack(uid, wid, e.x, e.y))
                elif p.range_max:
                    out.append(RangedAttack(uid, e.id, wid))
                    if m.profile.has("unload"):
                        out.append(RangedAttack(uid, e.id, wid, unload=True))
            for g, n in m.grenades.items():
                if n > 0:
                    out.append(ThrowGrenade(uid, g, e.x, e.y))
        if any(math.hypot(e.x - m.x, e.y - m.y) - e.radius - m.radius <= 0.1 for e in enemies):
            ang = self.rng.uniform(0, 2 * math.pi)
            reach = move_allowance(m, hustle_bonus=False).inches * 0.9
            x = min(max(m.x + reach * math.cos(ang), m.radius), st.table[0] - m.radius)
            y = min(max(m.y + reach * math.sin(ang), m.radius), st.table[1] - m.radius)
            out.append(Withdraw(uid, ((round(x, 4), round(y, 4)),)))
        return out

    def _charge(self, st: GameState, uid: str, m: ModelState) -> Move | None:
        """A straight move at the nearest enemy: into base contact if the allowance reaches, else closer."""
        enemies = [e for e in st.models.values() if e.in_play and e.side != m.side]
        if not enemies:
            return None
        e = min(enemies, key=lambda o: math.hypot(o.x - m.x, o.y - m.y))
        d = math.hypot(e.x - m.x, e.y - m.y)
        gap = d - e.radius - m.radius
        hustle = hustle_due(st.activation, m, settings_of(st))
        if gap <= 0.1:
            return None
        budget = move_allowance(m, hustle_bonus=hustle).inches * 0.999
        if st.battlefield.pieces:
            return self._route(st, uid, m, e, budget)
        step = min(gap - 0.02, budget)
        f = step / d
        return Move(uid, ((round(m.x + f * (e.x - m.x), 4), round(m.y + f * (e.y - m.y), 4)),))

    def _route(self, st: GameState, uid: str, m: ModelState, e: ModelState, budget: float) -> Move | None:
        """Over terrain: the shortest legal path (GEO-27) to base contact with the enemy, cut at the allowance."""
        from game.core.geometry.movement.paths import shortest_path

        d = math.hypot(e.x - m.x, e.y - m.y)
        f = (e.radius + m.radius + 0.02) / d
        goal = (e.x - f * (e.x - m.x), e.y - f * (e.y - m.y), e.z)
        others = [o.base() for o in st.models.values() if o.in_play and o.id != m.id]
        res = shortest_path(st.battlefield, (m.x, m.y, m.z), goal, radius=m.radius, height=m.profile.height,
                            others=others, side=m.side)
        if not res.found:
            return None
        pts = [res.points[0]]
        left = budget
        for a, b in zip(res.points, res.points[1:], strict=False):
            seg = math.dist(a, b)
            if seg <= left:
                pts.append(b)
                left -= seg
                continue
            t = left / seg if seg else 0.0
            pts.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])))
            break
        if len(pts) < 2:
            return None
        # Exact floats: rounding a tangent point would push the base into the corner it skirts.
        return Move(uid, tuple((p[0], p[1], p[2]) for p in pts[1:]))

    def _move(self, st: GameState, uid: str, m: ModelState) -> Move:
        """A move toward a task, a random point, or a random direction, within the allowance."""
        hustle = hustle_due(st.activation, m, settings_of(st))
        reach = move_allowance(m, hustle_bonus=hustle).inches * self.rng.uniform(0.3, 0.999)
        roll = self.rng.random()
        enemies = [e for e in st.models.values() if e.in_play and e.side != m.side]
        if roll < 0.25 and enemies:
            e = min(enemies, key=lambda o: math.hypot(o.x - m.x, o.y - m.y))
            d = math.hypot(e.x - m.x, e.y - m.y)
            full = move_allowance(m, hustle_bonus=hustle).inches
            step = min(reach if d - e.radius - m.radius > full else full, max(0.0, d - e.radius - m.radius - 0.02))
            ang = math.atan2(e.y - m.y, e.x - m.x)
        elif roll < 0.6 and st.tasks:
            t = self.rng.choice(list(st.tasks.values()))
            tx, ty = t.x, t.y
            d = math.hypot(tx - m.x, ty - m.y)
            stop = max(0.0, d - t.radius - m.radius - 0.05)
            step = min(reach, stop)
            ang = math.atan2(ty - m.y, tx - m.x)
        else:
            ang = self.rng.uniform(0, 2 * math.pi)
            step = reach
        x = min(max(m.x + step * math.cos(ang), m.radius), st.table[0] - m.radius)
        y = min(max(m.y + step * math.sin(ang), m.radius), st.table[1] - m.radius)
        return Move(uid, ((round(x, 4), round(y, 4)),))


def _label(st: GameState, a: Action) -> str:
    """The novelty class of a decision: its type, with charges (moves into enemy contact) apart."""
    if isinstance(a, Move):
        m = next(st.models[x] for x in st.units[a.unit].models if st.models[x].in_play)
        x, y = a.path[-1][0], a.path[-1][1]
        for e in st.models.values():
            if e.in_play and e.side != m.side and math.hypot(e.x - x, e.y - y) - e.radius - m.radius <= 0.1:
                return "Move:charge"
        if len(a.path) == 1 and _toward_enemy(st, m, x, y):
            return "Move:advance"
    return type(a).__name__


def _toward_enemy(st: GameState, m: ModelState, x: float, y: float) -> bool:
    enemies = [e for e in st.models.values() if e.in_play and e.side != m.side]
    if not enemies:
        return False
    e = min(enemies, key=lambda o: math.hypot(o.x - m.x, o.y - m.y))
    return math.hypot(e.x - x, e.y - y) < math.hypot(e.x - m.x, e.y - m.y) - 1.0


def _legal(st: GameState, a: Action) -> bool:
    try:
        validate(st, a)
    except IllegalAction:
        return False
    return True


__all__ = ["RandomAgent", "remaining"]
