"""The random-legal baseline agent: a kind of action uniformly among the legal kinds, then one of its sampled
legal instances uniformly, with move destinations on every floor in reach (stairs, ladders and climbs)."""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from functools import partial

import shapely
from shapely.ops import nearest_points

from game.ai.common import cut, lead, legal
from game.core.actions import (
    Action,
    Activate,
    Aim,
    Alert,
    BoltToss,
    BreakAlliance,
    ChooseFoundItem,
    ChooseHostileRoll,
    ChooseInitiative,
    Climb,
    ComplexTask,
    DeclineInterrupt,
    DeclineMedKit,
    Deploy,
    EndActivation,
    FlameAttack,
    Inspect,
    Interrupt,
    Jump,
    MeleeAttack,
    Move,
    Order,
    Parry,
    Path3,
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
from game.core.battlefield import Base, Point3
from game.core.geometry.movement.paths import PathResult, shortest_path
from game.core.geometry.movement.reach import reach
from game.core.geometry.polygon import polygon_bounds
from game.core.geometry.terrain import LOW_OBSTACLE, Level, levels, pieces_at, walking_level
from game.core.rules import eligible_units, hustle_due, remaining, settings_of
from game.core.rules.context import read_ctx
from game.core.rules.factions import alliance_targets
from game.core.rules.flow import window_kits
from game.core.rules.salvage import table_items
from game.core.rules.stats import move_allowance
from game.core.state import GameState, ModelState, Phase

END_EARLY = 1 / 25  # chance to end an activation with actions left (a player sometimes holds back)
CONTACT = 0.1  # GEO-6 base contact tolerance
SAMPLES = 64  # points drawn at once when looking for a spot inside a reach region

Candidates = Callable[[], Iterator[Action]]


def found_item_choices(state: GameState) -> list[str]:
    """GAP-57: the items of the equipment table whose 6 the deciding side picks from (every one is legal)."""
    return table_items(read_ctx(state), str(state.found_choices[0]["table"]))


class RandomAgent:
    """The random-legal baseline: the agent every later agent (the crew autopilot, the Zone's hostiles) is
    measured against (STYLE habit 7: just another player, deciding from public queries only).

    In the action phase it decides in two steps: first a kind of action uniformly among the kinds that have at
    least one legal instance now (Move, Climb, Jump, Aim, Alert, Rally, Recover, Reload, UseItem, ComplexTask,
    Order, RangedAttack, MeleeAttack, Withdraw, ThrowGrenade, TemplateAttack, FlameAttack, and at locations Search,
    Inspect, a Bolt Toss at the location point and, once an anomaly is present, SearchAnomaly; a 6 on an equipment
    roll (GAP-57) is answered with any item of its table, uniformly; it ends the activation
    early with probability 1/25, and when no kind is legal), then one instance uniformly among the legal ones it
    sampled. A Move's destinations are one per destination class: a random spot on every level the model can
    reach with its allowance (the ground, upper floors up stairs and ladders, roofs by climbing:
    `game.core.geometry.movement.reach`), a step toward the nearest enemy (into base contact when it reaches)
    and a step toward a task; the path is the shortest legal one (`shortest_path`). A Climb commits 1 or 2 Move
    actions to reach a level by a path that climbs.

    Its own random.Random is separate from the game's PRNG: its choices are recorded as Actions, so replays
    never need it."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

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
            if (settings_of(state)["medkit.self_window"] == "any_time" and m.profile.wounds > 1
                    and m.wounds_taken < m.profile.wounds and self.rng.random() < 0.5):
                return DeclineMedKit(dec.model)  # COMBAT-4.4.MEDKIT-DELAY: fight on, dress it at a later window
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
        if ph is Phase.HOSTILE_ROLL:
            sp = state.spawning
            assert sp is not None
            return ChooseHostileRoll(state.deciding, self.rng.choice(sp.choices))  # GAP-52: any allowed result
        if ph is Phase.FOUND_ITEM:
            return ChooseFoundItem(state.deciding, self.rng.choice(found_item_choices(state)))  # GAP-57: any item
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
            if legal(st, a):
                return a
        raise RuntimeError(f"no legal deployment point found for {m.id} in {zone.name}")

    def _interrupt(self, st: GameState) -> Action:
        win = st.interrupt
        assert win is not None
        # COMBAT-4.4.MEDKIT-DELAY (`medkit.self_window`=any_time): a delayed self-kit offered at this window. The
        # dice are drawn only when such a kit is legal, so games without one play exactly as before.
        kits = [Interrupt(u, UseItem(u, "medkit")) for u in window_kits(read_ctx(st), st.deciding)]
        if kits and self.rng.random() < 0.3:
            return self.rng.choice(kits)
        units = [u.id for u in st.units.values() if u.side == st.deciding and (u.alert or u.id == win.extra_unit)
                 and st.unit_in_play(u.id)]
        if units and self.rng.random() < 0.5:
            uid = self.rng.choice(units)
            inner = self._pick(st, uid, context="alert", wrap=lambda a: Interrupt(uid, a) if a.cost == 1 else None)
            if inner is not None:
                return inner
        return DeclineInterrupt(st.deciding)

    def _action(self, st: GameState) -> Action:
        act = st.activation
        assert act is not None
        uid = act.extra_unit if act.extra_left > 0 and act.extra_unit is not None else act.unit
        if self.rng.random() < END_EARLY:
            return EndActivation(uid)
        return self._pick(st, uid, context="own") or EndActivation(uid)

    def _pick(self, st: GameState, uid: str, *, context: str,
              wrap: Callable[[Action], Action | None] | None = None) -> Action | None:
        """A kind uniformly among those with a legal instance, then an instance of it uniformly among the legal
        ones sampled. Both draws are "the first legal one in a random order", which is a uniform draw among the
        legal ones and lets an expensive kind (a Move over terrain) stop at its first legal destination."""
        kinds = list(self._kinds(st, uid, context=context).values())
        self.rng.shuffle(kinds)
        for make in kinds:
            for a in make():
                wrapped = wrap(a) if wrap is not None else a
                if wrapped is not None and legal(st, wrapped):
                    return wrapped
        return None

    # -- candidate decisions, by kind -------------------------------------------------------------------
    def _kinds(self, st: GameState, uid: str, *, context: str) -> dict[str, Candidates]:
        """Every kind of unit action, each a generator of its candidates in a random order."""
        m = lead(st, uid)
        kinds: dict[str, Candidates] = {
            "Move": lambda: self._moves(st, uid, m),
            "Climb": lambda: self._climbs(st, uid, m, context),
            "Jump": lambda: self._jumps(st, uid, m),
            "Aim": lambda: iter([Aim(uid)]),
            "Alert": lambda: iter([Alert(uid)]),
            "Rally": lambda: iter([Rally(uid)]),
            "Recover": lambda: iter([Recover(uid)]),
            "Reload": lambda: self._shuffled([Reload(uid, w) for w in m.unloaded]),
            "UseItem": lambda: self._shuffled([UseItem(uid, "electric_juice"), UseItem(uid, "medkit"),
                                               *(UseItem(uid, "medkit", o.id) for o in st.models.values()
                                                 if o.side == m.side and o.id != m.id)]),
            "ComplexTask": lambda: self._shuffled([ComplexTask(uid, t) for t in st.tasks]),
            "Withdraw": lambda: self._withdraws(st, uid, m),
        }
        if st.locations:  # only where there are locations, so games without them draw exactly as before
            kinds["Search"] = lambda: self._shuffled([Search(uid, lid) for lid in st.locations])
            kinds["Inspect"] = lambda: self._shuffled([Inspect(uid, lid) for lid in st.locations])
            kinds["BoltToss"] = lambda: self._shuffled([BoltToss(uid, lid, loc.x, loc.y)
                                                        for lid, loc in st.locations.items()])
        anomalies = [lid for lid, loc in st.locations.items() if loc.anomaly and not loc.anomaly_inert]
        if anomalies:  # only once an anomaly is present, so games without one draw exactly as before
            kinds["SearchAnomaly"] = lambda: self._shuffled([SearchAnomaly(uid, lid) for lid in anomalies])
        for kind, acts in self._attacks(st, uid, m).items():
            kinds[kind] = partial(self._shuffled, acts)
        if m.profile.leader and context == "own":
            kinds["Order"] = lambda: self._orders(st, uid, m)
            allies = alliance_targets(st, settings_of(st), m.side)  # FACTION-7.2.ALLIED (none: draws as before)
            if allies:
                kinds["BreakAlliance"] = lambda: self._shuffled([BreakAlliance(uid, s) for s in allies])
        return kinds

    def _shuffled(self, actions: list[Action]) -> Iterator[Action]:
        self.rng.shuffle(actions)
        return iter(actions)

    def _attacks(self, st: GameState, uid: str, m: ModelState) -> dict[str, list[Action]]:
        """Every attack at every enemy, grouped by kind: shots (and Unload), blows, grenades, blasts, flame."""
        from game.core.catalog import load_catalog

        cat = load_catalog(settings_of(st))
        enemies = [e for e in st.models.values() if e.in_play and e.side != m.side]
        out: dict[str, list[Action]] = {}
        for e in enemies:
            touching = _gap(m, e) <= CONTACT
            for wid in m.profile.weapons:
                p = cat.weapon(wid).profile
                if touching:
                    out.setdefault("MeleeAttack", []).append(MeleeAttack(uid, e.id, wid))
                elif p.template is not None and p.template.value == "flame":
                    angle = round(math.atan2(e.y - m.y, e.x - m.x), 4)
                    out.setdefault("FlameAttack", []).append(FlameAttack(uid, wid, angle))
                elif p.template is not None:
                    out.setdefault("TemplateAttack", []).append(TemplateAttack(uid, wid, e.x, e.y))
                elif p.range_max:
                    shots = out.setdefault("RangedAttack", [])
                    shots.append(RangedAttack(uid, e.id, wid))
                    if m.profile.has("unload"):
                        shots.append(RangedAttack(uid, e.id, wid, unload=True))
            for g, n in m.grenades.items():
                if n > 0:
                    out.setdefault("ThrowGrenade", []).append(ThrowGrenade(uid, g, e.x, e.y))
        return out

    def _orders(self, st: GameState, uid: str, m: ModelState) -> Iterator[Action]:
        """SKILL-6.1.LEADER-ORDER: an order to each other unit of the crew in play (in a random order), its
        action drawn uniformly from a Move, a Rally or a task."""
        others = [u.id for u in st.units.values() if u.side == m.side and u.id != uid and st.unit_in_play(u.id)]
        self.rng.shuffle(others)
        for other in others:
            inner: list[Action | None] = [Rally(other), None, *(ComplexTask(other, t) for t in st.tasks)]
            pick = self.rng.choice(inner)
            if pick is None:
                pick = next(self._moves(st, other, lead(st, other)), None)
            if pick is not None:
                yield Order(uid, other, pick)

    # -- where to go ------------------------------------------------------------------------------------
    def _budget(self, st: GameState, m: ModelState, offset: int = 0) -> float:
        """The Move allowance (GEO-8) with Hustle when due, a hair short so the path fits."""
        hustle = hustle_due(st.activation, m, settings_of(st), offset)
        return move_allowance(m, hustle_bonus=hustle, settings=settings_of(st)).inches * 0.999

    def _moves(self, st: GameState, uid: str, m: ModelState) -> Iterator[Action]:
        """Moves by destination class, the classes in a random order: a spot on a level in reach (each level in
        reach equally likely: the ground, an upper floor up stairs or a ladder, a roof by a climb), base contact
        with the nearest enemy, a task, or the way up to the nearest floor above (the last three cut where the
        allowance runs out)."""
        budget = self._budget(st, m)
        classes = ["spot", "enemy", "task"] + (["up"] if len(levels(st.battlefield)) > 1 else [])
        self.rng.shuffle(classes)
        for cls in classes:
            if cls == "spot":
                spots = self._level_spots(st, m, budget)
                self.rng.shuffle(spots)
                for goal in spots:
                    path = self._path(st, m, goal, budget)
                    if path:
                        yield Move(uid, path)
                continue
            target = {"enemy": self._toward_enemy, "task": self._toward_task, "up": self._way_up}[cls](st, m)
            if target is not None:
                for cut in self._cut_paths(st, m, target, budget):
                    yield Move(uid, cut)

    def _climbs(self, st: GameState, uid: str, m: ModelState, context: str) -> Iterator[Action]:
        """Climbs (GEO-24), committing the fewest Move actions (1 or 2) the climb needs: up and over a climbable
        wall or wreck nearby, or onto a floor at another height by the shortest path, when that path climbs."""
        if not st.battlefield.pieces:
            return
        act = st.activation
        most = 1 if context != "own" or act is None else max(1, min(2, remaining(act)))
        budgets = [sum(self._budget(st, m, offset=i) for i in range(k)) for k in range(1, most + 1)]
        ways = [self._over_climbs, self._floor_climbs]
        self.rng.shuffle(ways)
        for way in ways:
            yield from way(st, uid, m, budgets)

    def _over_climbs(self, st: GameState, uid: str, m: ModelState, budgets: list[float]) -> Iterator[Action]:
        """Up and over a climbable piece over 1" tall (a wall, a wreck): straight across its middle to where the
        base clears its far side; 2" of allowance per inch climbed, up and down (GEO-24)."""
        here = shapely.Point(m.x, m.y)
        at = pieces_at(st.battlefield, m.z, m.profile.height)
        near = [(piece, poly) for piece, poly in zip(at.blockers, at.blocker_polys, strict=True)
                if piece.climbable and not piece.surface and piece.top_z - m.z > LOW_OBSTACLE
                and poly.distance(here) < budgets[-1] / 2]
        self.rng.shuffle(near)
        for piece, poly in near[:4]:
            c = poly.centroid
            d = math.hypot(c.x - m.x, c.y - m.y)
            if d <= 0:
                continue
            ux, uy = (c.x - m.x) / d, (c.y - m.y) / d
            far = d + 4 * math.hypot(*_extent(poly)) + m.radius
            line = shapely.LineString([(m.x, m.y), (m.x + ux * far, m.y + uy * far)])
            crossing = line.intersection(poly)
            if crossing.is_empty:
                continue
            out = max(shapely.get_coordinates(crossing), key=lambda q: (q[0] - m.x) ** 2 + (q[1] - m.y) ** 2)
            gx, gy = out[0] + ux * (m.radius + 0.15), out[1] + uy * (m.radius + 0.15)
            cost = math.hypot(gx - m.x, gy - m.y) + 2 * 2 * (piece.top_z - m.z)  # CLIMB_RATE, up and down
            k = next((i + 1 for i, b in enumerate(budgets) if cost <= b), None)
            if k is not None:
                yield Climb(uid, path=((round(gx, 4), round(gy, 4), m.z),), actions=k)

    def _floor_climbs(self, st: GameState, uid: str, m: ModelState, budgets: list[float]) -> Iterator[Action]:
        """Onto a nearby floor at another height by the shortest path within the allowances, if it climbs."""
        here = shapely.Point(m.x, m.y)
        for k, budget in enumerate(budgets, start=1):
            near = [lv for lv in levels(st.battlefield) if abs(lv.z - m.z) > 0.01
                    and (lv.support is None or lv.support.distance(here) < budget / 2)]
            self.rng.shuffle(near)
            for lv in near[:3]:
                goal = self._on_level(st, m, lv)
                if goal is None:
                    continue
                res = shortest_path(st.battlefield, (m.x, m.y, m.z), goal, radius=m.radius, height=m.profile.height,
                                    others=_others(st, m), side=m.side, budget=budget, settings=settings_of(st))
                if res.found and res.fact is not None and res.fact.climbs and len(res.points) > 1:
                    yield Climb(uid, path=_exact(res.waypoints), actions=k)

    def _on_level(self, st: GameState, m: ModelState, lv: Level) -> Point3 | None:
        """A random spot on a level where the base fits (its floor shrunk by the base radius)."""
        if lv.support is None:
            spot = self._inside(shapely.box(m.radius, m.radius, st.table[0] - m.radius, st.table[1] - m.radius))
        else:
            spot = self._inside(lv.support.buffer(-(m.radius + 0.05)))
        return (spot[0], spot[1], lv.z) if spot is not None else None

    def _way_up(self, st: GameState, m: ModelState) -> Point3 | None:
        """A random spot on the nearest floor above the model (stairs, ladders or a climb lead there)."""
        here = shapely.Point(m.x, m.y)
        above = [(lv.support.distance(here), lv.id, lv) for lv in levels(st.battlefield)
                 if lv.support is not None and lv.z > m.z + 0.01]
        if not above:
            return None
        return self._on_level(st, m, min(above, key=lambda t: (t[0], t[1]))[2])

    def _jumps(self, st: GameState, uid: str, m: ModelState) -> Iterator[Action]:
        """Jumps from the edge of a raised floor to the nearest spot of another floor within 3" (GEO-24)."""
        bf = st.battlefield
        if not bf.pieces or m.z <= 0:
            return
        here = walking_level(bf, m.x, m.y, m.z)
        if here is None or here.support is None:
            return
        pos = shapely.Point(m.x, m.y)
        if here.support.exterior.distance(pos) > m.radius + 0.3:
            return
        for lv in levels(bf)[1:]:
            if lv.id == here.id or lv.support is None or lv.support.distance(here.support) > 3.0:
                continue
            inner = lv.support.buffer(-(m.radius + 0.05))
            if inner.is_empty:
                continue
            _, spot = nearest_points(pos, inner)
            yield Jump(uid, (round(spot.x, 4), round(spot.y, 4), lv.z))

    def _withdraws(self, st: GameState, uid: str, m: ModelState) -> Iterator[Action]:
        """COMBAT-4.3.WITHDRAW: out of a melee, a step in a random direction."""
        if not any(_gap(m, e) <= CONTACT for e in st.models.values() if e.in_play and e.side != m.side):
            return iter(())
        ang = self.rng.uniform(0, 2 * math.pi)
        step = move_allowance(m, hustle_bonus=False, settings=settings_of(st)).inches * 0.9
        x = min(max(m.x + step * math.cos(ang), m.radius), st.table[0] - m.radius)
        y = min(max(m.y + step * math.sin(ang), m.radius), st.table[1] - m.radius)
        return iter([Withdraw(uid, ((round(x, 4), round(y, 4)),))])

    def _level_spots(self, st: GameState, m: ModelState, budget: float, *,
                     other_levels: bool = False) -> list[Point3]:
        """A random spot on each level the base can end on within `budget` (the reach region per level)."""
        region = reach(st.battlefield, (m.x, m.y, m.z), budget, radius=m.radius, height=m.profile.height,
                       others=_others(st, m), side=m.side, settings=settings_of(st))
        spots: list[Point3] = []
        for lid in sorted(region.regions):
            z = region.heights[lid]
            if other_levels and abs(z - m.z) <= 0.01:
                continue
            spot = self._inside(region.regions[lid])
            if spot is not None:
                spots.append((spot[0], spot[1], z))
        return spots

    def _inside(self, geom: shapely.Geometry) -> tuple[float, float] | None:
        if geom.is_empty:
            return None
        x0, y0, x1, y1 = geom.bounds
        for _ in range(4):
            xs = [self.rng.uniform(x0, x1) for _ in range(SAMPLES)]
            ys = [self.rng.uniform(y0, y1) for _ in range(SAMPLES)]
            inside = shapely.contains_xy(geom, xs, ys)
            for x, y, ok in zip(xs, ys, inside, strict=True):
                if ok:
                    return round(x, 4), round(y, 4)
        return None

    def _toward_enemy(self, st: GameState, m: ModelState) -> Point3 | None:
        """Base contact with the nearest enemy (the path is cut at the allowance when it is farther)."""
        enemies = [e for e in st.models.values() if e.in_play and e.side != m.side]
        if not enemies:
            return None
        e = min(enemies, key=lambda o: math.hypot(o.x - m.x, o.y - m.y))
        d = math.hypot(e.x - m.x, e.y - m.y)
        if d - e.radius - m.radius <= CONTACT or d <= 0:
            return None
        f = (d - e.radius - m.radius - 0.02) / d
        return (m.x + f * (e.x - m.x), m.y + f * (e.y - m.y), e.z)

    def _toward_task(self, st: GameState, m: ModelState) -> Point3 | None:
        """Base contact with a random unfinished task (CORE-3.4.TASK)."""
        open_tasks = [t for t in st.tasks.values() if not t.done]
        if not open_tasks:
            return None
        t = self.rng.choice(open_tasks)
        d = math.hypot(t.x - m.x, t.y - m.y)
        stop = d - t.radius - m.radius - 0.05
        if stop <= 0.05:
            return None
        return (m.x + stop / d * (t.x - m.x), m.y + stop / d * (t.y - m.y), m.z)

    def _path(self, st: GameState, m: ModelState, goal: Point3, budget: float) -> tuple[Point3, ...]:
        """The shortest legal path to `goal` within `budget` (GEO-27), as Move waypoints; () if none."""
        res = shortest_path(st.battlefield, (m.x, m.y, m.z), goal, radius=m.radius, height=m.profile.height,
                            others=_others(st, m), side=m.side, budget=budget, settings=settings_of(st))
        if not res.found or len(res.points) < 2:
            return ()
        return _exact(res.waypoints)

    def _cut_paths(self, st: GameState, m: ModelState, goal: Point3, budget: float) -> Iterator[Path3]:
        """The shortest path toward `goal`; when it is out of reach, cut where a random 60-100% of the allowance
        runs out, then shorter (a cut may end on a low wall or a friend's base: the next one may not)."""
        if not st.battlefield.pieces:
            d = math.hypot(goal[0] - m.x, goal[1] - m.y)
            step = d if d <= budget else budget * self.rng.uniform(0.6, 1.0)
            x, y = m.x + step / d * (goal[0] - m.x), m.y + step / d * (goal[1] - m.y)
            x = min(max(x, m.radius), st.table[0] - m.radius)
            y = min(max(y, m.radius), st.table[1] - m.radius)
            yield ((round(x, 4), round(y, 4)),)
            return
        res = self._charge_path(st, m, goal)
        if res is None or len(res.points) < 2:
            return
        if res.cost <= budget:
            yield _exact(res.waypoints)
        reach_of = budget * self.rng.uniform(0.6, 1.0)
        for share in (1.0, 0.8, 0.55):
            part = cut(res.points, reach_of * share)
            if part:
                yield part


    def _charge_path(self, st: GameState, m: ModelState, goal: Point3) -> PathResult | None:
        """The shortest legal path to `goal` (GEO-27), searched within growing budgets (the ellipse `shortest_path`
        starts from, then twice and four times it), None when none of them holds one. `shortest_path` without a
        budget would go on doubling its search area up to the whole table, and when enemy bases close every way
        to the goal it searches the whole graph five or six times to learn that; a way to base contact that
        costs more than four times the first area is no charge, so the agent stops there."""
        direct = math.hypot(goal[0] - m.x, goal[1] - m.y)
        first = max(1.25 * direct + 1.0, direct + 4.0)
        for bound in (first, 2.0 * first, 4.0 * first):
            res = shortest_path(st.battlefield, (m.x, m.y, m.z), goal, radius=m.radius, height=m.profile.height,
                                others=_others(st, m), side=m.side, budget=bound, settings=settings_of(st))
            if res.found:
                return res
            if not res.reason.startswith("no legal path costs"):
                return None  # no budget makes it legal: the goal or the floors, or the found path refused
        return None


def _exact(points: Sequence[Point3]) -> tuple[Point3, ...]:
    # Exact floats: rounding a tangent point would push the base into the corner it skirts.
    return tuple((p[0], p[1], p[2]) for p in points)


def _extent(poly: shapely.Polygon) -> tuple[float, float]:
    x0, y0, x1, y1 = poly.bounds
    return x1 - x0, y1 - y0


def _others(st: GameState, m: ModelState) -> Sequence[Base]:
    return [o.base() for o in st.models.values() if o.in_play and o.id != m.id]


def _gap(a: ModelState, b: ModelState) -> float:
    return math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius


__all__ = ["RandomAgent", "remaining"]
