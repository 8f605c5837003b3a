"""What the deciding side may do now: every decision of the phase with its legal instances, or the engine's own reason
why not (the action bar greys an illegal action with its reason and rule ID; issue 18)."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

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
    EndActivation,
    FlameAttack,
    IllegalAction,
    Inspect,
    Interrupt,
    Jump,
    MeleeAttack,
    Move,
    Order,
    Parry,
    Rally,
    RangedAttack,
    Recover,
    Reload,
    Search,
    SearchAnomaly,
    StayPut,
    TemplateAttack,
    ThrowGrenade,
    UseItem,
    Withdraw,
)
from game.core.catalog import Catalog, Special, Template, load_catalog
from game.core.geometry.terrain import levels, walking_level
from game.core.rules.apply import validate
from game.core.rules.context import Ctx, NoDice, read_ctx, settings_of
from game.core.rules.dispatch import ACTIONS
from game.core.rules.factions import alliance_targets
from game.core.rules.flow import eligible_units, window_kits
from game.core.rules.phases import check_action
from game.core.rules.queries import engaged
from game.core.rules.salvage import table_items
from game.core.state import GameState, ModelState, Phase

# What the probe of a zero-length Move may fail on that is about the path the client will supply (bases it ends
# on, terrain, a unit's cohesion: GEO-6/7/8/21), not about the model: such a failure leaves the Move open.
PATH_RULES = frozenset({"GEO-6", "GEO-7", "GEO-8", "GEO-21", "HOSTILE-8.3.LEASH"})
POINT_NEEDS = "point"
TARGET_NEEDS = "target"
# Kinds whose instances are always a pick the player makes (whom, with what), even when only one is legal.
PICKS = frozenset({"activate", "shoot", "melee", "interrupt", "order", "parry", "hostile_roll", "found_item"})


@dataclass(frozen=True, slots=True)
class Option:
    """One decision open now (a button of the action bar): its legal instances, or why it is not legal.

    `kind` is the stable id of the decision ("move", "aim", "shoot", ...); a kind with one option per weapon or
    grenade (reload, grenade, template, flame) repeats, the weapon named in `label` and `example`. `actions` are the
    legal instances now (`validate` passes for each), () when the option is illegal or needs a point. `needs`: "" ready
    as is, "target" (pick one of `actions`), "point" (the client supplies a point on the table, builds the Action from
    `example` and `actor`, and calls `validate` itself). `reason`/`reason_rule`: IllegalAction.reason and .rule when
    illegal now. `cost`: the actions it spends. `actor`: the unit acting (for "deploy", the model placed). `example`:
    for a point option the probe instance the client copies with its own point (a zero-length Move, a grenade at the
    nearest enemy: legal as it stands unless its refusal was about the point alone); for an illegal option the
    instance whose refusal `reason` is."""

    kind: str
    label: str
    rule: str
    actions: tuple[Action, ...]
    needs: str = ""
    reason: str = ""
    reason_rule: str = ""
    cost: int = 1
    actor: str = ""
    example: Action | None = None

    @property
    def legal(self) -> bool:
        """Something may be done now: a legal instance, or a point option the engine did not refuse outright."""
        return bool(self.actions) or (self.needs == POINT_NEEDS and self.reason == "")


def options(state: GameState, unit: str | None = None) -> list[Option]:
    """Every decision open to `state.deciding` now, in a stable order (TURN-1: what each phase accepts).

    `unit`: in ACTION the acting unit (default: the active unit, or the one owed a crit extra action, GAP-12); in
    INTERRUPT the Alert unit whose options to list (default: every one). Reads the state only; every legal instance
    passed `validate`, every reason is the one `validate` gives (the client computes no rule)."""
    q = _Query(state)
    ph = state.phase
    if ph is Phase.DEPLOY:
        return q.deploy()
    if ph is Phase.INITIATIVE:
        return q.initiative()
    if ph is Phase.ACTIVATE:
        return q.activate()
    if ph is Phase.ACTION:
        act = state.activation
        assert act is not None
        uid = unit or (act.extra_unit if act.extra_left > 0 and act.extra_unit is not None else act.unit)
        return q.action(uid)
    if ph is Phase.INTERRUPT:
        return q.interrupt(unit)
    if ph is Phase.MEDKIT:
        return q.medkit()
    if ph is Phase.PARRY:
        return q.parry()
    if ph is Phase.HOSTILE_ROLL:
        return q.hostile_roll()
    if ph is Phase.FOUND_ITEM:
        return q.found_item()
    if ph is Phase.SPAWN_MOVE:
        return q.spawn_move()
    return []  # TURN-11: the mission is over


def _dist(m: ModelState, x: float, y: float) -> float:
    return math.hypot(m.x - x, m.y - y)


class _Query:
    """The engine's verdicts over one state: `validate` per instance (in ACTION with the cost `check_action` gives)."""

    def __init__(self, state: GameState) -> None:
        self.st = state
        self.settings = settings_of(state)
        self.cat: Catalog = load_catalog(self.settings)

    # -- the engine's verdict ---------------------------------------------------------------------------------------
    def verdict(self, action: Action) -> tuple[int, IllegalAction | None]:
        """(cost, None) when legal now, (the action's nominal cost, the refusal) when not."""
        st = self.st
        try:
            if st.phase is Phase.ACTION:
                cost = check_action(Ctx(st, NoDice(), st.battlefield, ACTIONS), action)[2]
            else:
                validate(st, action)
                cost = 0  # a decision of the turn machine spends no action of an activation (an Interrupt spends the
                # held Alert action, a free move and the Med-Kit at a Wound are free)
        except IllegalAction as exc:
            return self.nominal_cost(action), exc
        return cost, None

    def nominal_cost(self, action: Action) -> int:
        """What the action spends by the settings (CORE-3.3.GENERAL), for the label of an illegal option."""
        if self.st.phase is not Phase.ACTION:
            return 0
        if isinstance(action, Alert):
            return int(self.settings["alert.cost"])
        if isinstance(action, Withdraw):
            return int(self.settings["melee.withdraw_cost"])
        if isinstance(action, RangedAttack) and action.unload:
            return 2
        return type(action).cost

    def choice(self, kind: str, label: str, rule: str, candidates: Sequence[Action], *, actor: str = "",
               needs: str = "") -> Option | None:
        """An option picked among `candidates` (best first): the legal ones, else the first one's refusal.

        An Unload variant follows its single shot and is judged only when that shot is legal: the Unload checks
        come after every check of the shot (SKILL-6.1.UNLOAD), so a refused shot is refused the same way Unloaded."""
        if not candidates:
            return None
        legal: list[Action] = []
        cost = 0
        first: IllegalAction | None = None
        shot_ok = False
        for a in candidates:
            if isinstance(a, RangedAttack) and a.unload and not shot_ok:
                continue
            c, err = self.verdict(a)
            if isinstance(a, RangedAttack) and not a.unload:
                shot_ok = err is None
            if err is None:
                legal.append(a)
                cost = cost or c
            elif first is None:
                first = err
        if legal:
            pick = needs or (TARGET_NEEDS if len(legal) > 1 or kind in PICKS else "")
            return Option(kind, _costed(label, cost), rule, tuple(legal), pick, cost=cost, actor=actor)
        assert first is not None
        cost = self.nominal_cost(candidates[0])
        return Option(kind, _costed(label, cost), rule, (), needs or (TARGET_NEEDS if kind in PICKS else ""),
                      first.reason, first.rule, cost, actor, candidates[0])

    def at_point(self, kind: str, label: str, rule: str, probes: Sequence[Action], *, actor: str,
                 open_on: Callable[[IllegalAction], bool] = lambda e: False) -> Option | None:
        """A point option: legal when a probe instance validates, or its refusal is about the point itself
        (`open_on`); otherwise illegal with the first probe's refusal."""
        if not probes:
            return None
        first: IllegalAction | None = None
        for a in probes:
            c, err = self.verdict(a)
            if err is None or open_on(err):
                return Option(kind, _costed(label, c), rule, (), POINT_NEEDS, cost=c, actor=actor, example=a)
            first = first or err
        assert first is not None
        cost = self.nominal_cost(probes[0])
        return Option(kind, _costed(label, cost), rule, (), POINT_NEEDS, first.reason, first.rule, cost, actor,
                      probes[0])

    # -- names -----------------------------------------------------------------------------------------------------
    def name(self, model_or_unit: str) -> str:
        st = self.st
        m = st.models.get(model_or_unit)
        if m is None and model_or_unit in st.units:
            m = st.models[st.units[model_or_unit].models[0]]
        return m.profile.name if m is not None else model_or_unit

    def weapon(self, wid: str) -> str:
        return self.cat.weapon(wid).name if wid in self.cat.weapons else wid

    def lead(self, uid: str) -> ModelState:
        st = self.st
        live = [st.models[x] for x in st.units[uid].models if st.models[x].in_play]
        return live[0] if live else st.models[st.units[uid].models[0]]

    def enemies(self, m: ModelState) -> list[ModelState]:
        """Models in play of other sides, nearest first (the first is the representative of a refused attack)."""
        others = [e for e in self.st.models.values() if e.in_play and e.side != m.side]
        return sorted(others, key=lambda e: (_dist(m, e.x, e.y), e.id))

    def item(self, iid: str) -> str:
        if iid in self.cat.equipment_items:
            return self.cat.equipment(iid).name
        return self.cat.grenade(iid).name if iid in self.cat.grenades else iid

    def place(self, lid: str) -> str:
        loc = self.st.locations.get(lid)
        return loc.name if loc is not None else lid

    def describe(self, a: Action) -> str:
        """A picker row for one instance (see `describe`)."""
        st = self.st
        if isinstance(a, RangedAttack):
            return f"{self.weapon(a.weapon)} at {self.name(a.target)}" + (" (Unload)" if a.unload else "")
        if isinstance(a, MeleeAttack):
            return f"{self.weapon(a.weapon)} on {self.name(a.target)}"
        if isinstance(a, Activate):
            return self.name(a.unit)
        if isinstance(a, (Aim, Alert, Rally, Recover, EndActivation, StayPut)):
            return {"EndActivation": "End Activation", "StayPut": "Stay put"}.get(type(a).__name__, type(a).__name__)
        if isinstance(a, Reload):
            return f"Reload {self.weapon(a.weapon)}"
        if isinstance(a, UseItem):
            return f"{self.item(a.item)} on {self.name(a.target)}" if a.target else self.item(a.item)
        if isinstance(a, ComplexTask):
            task = st.tasks.get(a.task)
            return task.name if task is not None else a.task
        if isinstance(a, (Search, SearchAnomaly, Inspect, BoltToss)):
            return self.place(a.location)
        if isinstance(a, Order):
            return f"Order {self.name(a.recipient)}: {self.describe(a.action)}"
        if isinstance(a, Interrupt):
            return self.describe(a.action)
        if isinstance(a, Parry):
            return f"Parry {a.hits} hit(s)"
        if isinstance(a, ChooseHostileRoll):
            return f"Result {a.result}"
        if isinstance(a, ChooseFoundItem):
            return self.item(a.item)
        if isinstance(a, ChooseInitiative):
            return "Go First" if a.go_first else "Pass"
        if isinstance(a, BreakAlliance):
            side = next((x.name for x in st.sides if x.id == a.side), a.side)
            return f"Break the alliance with {side}"
        return type(a).__name__

    # -- the phases ------------------------------------------------------------------------------------------------
    def deploy(self) -> list[Option]:
        """TURN-4: each undeployed model of the deciding side, at a point the player picks in its zone."""
        st = self.st
        return [Option("deploy", f"Deploy {m.profile.name}", "TURN-4", (), POINT_NEEDS, cost=0, actor=m.id)
                for m in st.models.values() if m.side == st.deciding and not m.deployed]

    def initiative(self) -> list[Option]:
        """CORE-3.1.PASS: the initiative winner goes first or passes."""
        side = self.st.deciding
        out = [self.choice("go_first", "Go First", "CORE-3.1.PASS", [ChooseInitiative(side, True)]),
               self.choice("pass", "Pass", "CORE-3.1.PASS", [ChooseInitiative(side, False)])]
        return [o for o in out if o is not None]

    def activate(self) -> list[Option]:
        """TURN-5 / CORE-3.1.ALTERNATE: one Activate per unit the side may activate; if none, why not."""
        st = self.st
        mine = [u.id for u in st.units.values() if u.side == st.deciding]
        eligible = eligible_units(st, st.deciding)
        ordered = eligible + [u for u in mine if u not in eligible]
        opt = self.choice("activate", "Activate", "TURN-5", [Activate(u) for u in ordered])
        return [opt] if opt is not None else []

    def medkit(self) -> list[Option]:
        """COMBAT-4.4.MEDKIT-SELF/-DELAY: the wounded model dresses the Wound with its own kit, or not now."""
        dec = self.st.wound_queue[0]
        m = self.st.models[dec.model]
        out = [self.choice("medkit", f"Med-Kit on {m.profile.name}", "COMBAT-4.4.MEDKIT-SELF",
                           [UseItem(m.unit, "medkit")], actor=m.unit),
               self.choice("decline_medkit", "Not now", "COMBAT-4.4.MEDKIT-DELAY", [DeclineMedKit(dec.model)],
                           actor=m.unit)]
        return [o for o in out if o is not None]

    def parry(self) -> list[Option]:
        """COMBAT-4.2.PARRY: the melee attacker picks how many of its hits cancel the defender's."""
        c = self.st.continuations[0]
        uid = self.st.models[c["attacker"]].unit
        top = min(int(c["a_hits"]), int(c["d_hits"]))
        opt = self.choice("parry", "Parry", "COMBAT-4.2.PARRY", [Parry(uid, h) for h in range(top + 1)], actor=uid)
        return [opt] if opt is not None else []

    def hostile_roll(self) -> list[Option]:
        """HOSTILE-8.3.ROLL / GAP-52: a result the Inspect shift allows."""
        sp = self.st.spawning
        assert sp is not None
        side = self.st.deciding
        opt = self.choice("hostile_roll", "Zone Hostiles result", "HOSTILE-8.3.ROLL",
                          [ChooseHostileRoll(side, r) for r in sp.choices])
        return [opt] if opt is not None else []

    def found_item(self) -> list[Option]:
        """GAP-57: any item of the equipment table whose 6 was rolled."""
        side = self.st.deciding
        items = table_items(read_ctx(self.st), str(self.st.found_choices[0]["table"]))
        opt = self.choice("found_item", "Choose an item", "GAP-57", [ChooseFoundItem(side, i) for i in items])
        return [opt] if opt is not None else []

    def spawn_move(self) -> list[Option]:
        """HOSTILE-8.3.FREE-MOVE / AI-S.SPAWN: the spawned unit's free move to a point, or it stays put."""
        sp = self.st.spawning
        assert sp is not None and sp.pending
        uid = sp.pending[0]
        out = [self.at_point("move", f"Free move {self.name(uid)}", "HOSTILE-8.3.FREE-MOVE", [self.stay(uid)],
                             actor=uid, open_on=_about_path),
               self.choice("stay", "Stay put", "AI-S.SPAWN", [StayPut(uid)], actor=uid)]
        return [o for o in out if o is not None]

    def interrupt(self, unit: str | None) -> list[Option]:
        """TURN-7 / CORE-3.3.ALERT: an Alert unit's held action (a shot, a blow, a move to a point; a delayed
        self Med-Kit, COMBAT-4.4.MEDKIT-DELAY), or decline the window."""
        st = self.st
        win = st.interrupt
        assert win is not None
        kits = window_kits(Ctx(st, NoDice(), st.battlefield, ACTIONS), st.deciding)
        units = [u.id for u in st.units.values() if u.side == st.deciding and st.unit_in_play(u.id)
                 and (u.alert or u.id == win.extra_unit or u.id in kits) and (unit is None or u.id == unit)]
        out: list[Option | None] = []
        for uid in units:
            m = self.lead(uid)
            held: list[Action] = [UseItem(uid, "medkit")] if uid in kits else []
            held += self.attacks(uid, m, shots=True, blows=True)
            out.append(self.choice("interrupt", f"Interrupt with {m.profile.name}", "TURN-7",
                                   [Interrupt(uid, a) for a in held], actor=uid))
            if st.units[uid].alert or uid == win.extra_unit:
                out.append(self.at_point("interrupt_move", f"Interrupt: move {m.profile.name}", "TURN-7",
                                         [Interrupt(uid, self.stay(uid))], actor=uid, open_on=_about_path))
        out.append(self.choice("decline", "Decline", "TURN-7", [DeclineInterrupt(st.deciding)]))
        return [o for o in out if o is not None]

    # -- the active unit's actions (TURN-6, CORE-3.3) -------------------------------------------------------------
    def stay(self, uid: str) -> Move:
        """A zero-length Move of the unit (its lead model to where it stands, the others staying put): the probe of
        everything a Move checks before the path itself."""
        live = [m for m in self.st.unit_models(uid) if m.in_play]
        if len(live) <= 1:
            m = self.lead(uid)
            return Move(uid, ((m.x, m.y, m.z),))
        return Move.of_unit(uid, {m.id: ([(m.x, m.y, m.z)] if i == 0 else []) for i, m in enumerate(live)})

    def action(self, uid: str) -> list[Option]:
        """Every unit action kind for `uid`, legal or with the reason (kinds this model can never take left out)."""
        st = self.st
        m = self.lead(uid)
        out: list[Option | None] = [*self.movement(uid, m)]
        out += [self.choice("aim", "Aim", "CORE-3.3.AIM", [Aim(uid)], actor=uid),
                self.choice("alert", "Alert", "CORE-3.3.ALERT", [Alert(uid)], actor=uid),
                self.choice("rally", "Rally", "CORE-3.3.RALLY", [Rally(uid)], actor=uid),
                self.choice("recover", "Recover", "CORE-3.3.RECOVER", [Recover(uid)], actor=uid)]
        for wid in m.profile.weapons:
            if wid in self.cat.weapons and Special.RELOAD in self.cat.weapon(wid).specials:
                out.append(self.choice("reload", f"Reload {self.weapon(wid)}", "CORE-3.3.RELOAD",
                                       [Reload(uid, wid)], actor=uid))
        out.append(self.use_item(uid, m))
        tasks = sorted((t for t in st.tasks.values()), key=lambda t: (t.done, _dist(m, t.x, t.y), t.id))
        out.append(self.choice("task", "Complex Task", "CORE-3.4.TASK", [ComplexTask(uid, t.id) for t in tasks],
                               actor=uid))
        locs = sorted(st.locations.values(), key=lambda loc: (_dist(m, loc.x, loc.y), loc.id))
        out.append(self.choice("search", "Search", "MISSION-8.2.CLEARING", [Search(uid, loc.id) for loc in locs],
                               actor=uid))
        anomalies = [loc for loc in locs if loc.anomaly]
        out.append(self.choice("search_anomaly", "Search Anomaly", "SALVAGE-8.4.ANOMALY-SEARCH",
                               [SearchAnomaly(uid, loc.id) for loc in anomalies], actor=uid))
        out.append(self.choice("inspect", "Inspect", "CORE-3.3.INSPECT", [Inspect(uid, loc.id) for loc in locs],
                               actor=uid))
        out.append(self.choice("bolt_toss", "Bolt Toss", "MISSION-8.2.BOLT-TOSS",
                               [BoltToss(uid, loc.id, loc.x, loc.y) for loc in locs], actor=uid))
        if m.profile.leader:
            out.append(self.choice("order", "Order", "SKILL-6.1.LEADER-ORDER", self.orders(uid, m), actor=uid))
            allies = alliance_targets(st, self.settings, m.side)
            out.append(self.choice("break_alliance", "Break Alliance", "FACTION-7.2.ALLIED",
                                   [BreakAlliance(uid, s) for s in allies], actor=uid))
        out.append(self.withdraw(uid, m))
        enemies = self.enemies(m)
        if enemies:
            out.append(self.choice("shoot", "Shoot", "COMBAT-4.1.RANGED", self.attacks(uid, m, shots=True),
                                   actor=uid))
            out.append(self.choice("melee", "Melee", "COMBAT-4.2", self.attacks(uid, m, blows=True), actor=uid))
        out += self.blasts(uid, m, enemies)
        act = st.activation
        owed = act is not None and act.extra_left > 0 and act.extra_unit == uid  # GAP-12: EndActivation forgoes it
        out.append(self.choice("end", "Forgo the extra action" if owed else "End Activation",
                               "GAP-12" if owed else "TURN-6", [EndActivation(uid)], actor=uid))
        return [o for o in out if o is not None]

    def movement(self, uid: str, m: ModelState) -> list[Option | None]:
        """CORE-3.3.MOVE / CLIMB / JUMP to a point the client picks: refused only for what the model is (Pinned,
        prone, Engaged, crew-served...), found by a zero-length Move or Climb; a Jump by its nearest landings."""
        bf = self.st.battlefield
        probe = self.stay(uid)
        out: list[Option | None] = [self.at_point("move", "Move", "CORE-3.3.MOVE", [probe], actor=uid,
                                                  open_on=_about_path)]
        if any(p.climbable for p in bf.pieces):
            climb = Climb(uid, path=probe.path, paths=probe.paths)
            out.append(self.at_point("climb", "Climb", "CORE-3.3.CLIMB", [climb], actor=uid,
                                     open_on=lambda e: e.rule == "CORE-3.3.CLIMB" or _about_path(e)))
        if len(levels(bf)) > 1:
            out.append(self.at_point("jump", "Jump", "CORE-3.3.JUMP", self.landings(uid, m), actor=uid))
        return out

    def landings(self, uid: str, m: ModelState) -> list[Action]:
        """GEO-24: the nearest landing on each other floor near the model's own (nearest first); standing on the
        ground or nowhere near an edge, the probe is a jump to where it stands (the engine says why not)."""
        from shapely import Point
        from shapely.ops import nearest_points

        bf = self.st.battlefield
        here = walking_level(bf, m.x, m.y, m.z)
        stay: list[Action] = [self.jump(uid, m, (m.x, m.y, m.z))]
        if here is None or here.support is None:
            return stay
        pos = Point(m.x, m.y)
        reach = float(self.settings["jump.max"]) + 2 * m.radius
        found: list[tuple[float, Action]] = []
        for lv in levels(bf)[1:]:
            if lv.id == here.id or lv.support is None or lv.support.distance(pos) > reach:
                continue
            inner = lv.support.buffer(-(m.radius + 0.05))
            if inner.is_empty:
                continue
            _, spot = nearest_points(pos, inner)
            found.append((spot.distance(pos), self.jump(uid, m, (round(spot.x, 4), round(spot.y, 4), lv.z))))
        found.sort(key=lambda t: t[0])
        return [a for _, a in found[:4]] or stay

    def jump(self, uid: str, m: ModelState, to: tuple[float, float, float]) -> Jump:
        """The unit's Jump with its lead model `m` landing at `to` and the others staying put (CORE-3.7)."""
        live = [x for x in self.st.unit_models(uid) if x.in_play]
        if len(live) <= 1:
            return Jump(uid, to)
        return Jump.of_unit(uid, {x.id: (list(to) if x.id == m.id else []) for x in live})

    def withdraw(self, uid: str, m: ModelState) -> Option | None:
        """COMBAT-4.3.WITHDRAW: out of a melee to a point; refused when not Engaged (or Pinned, prone...)."""
        probe = Withdraw(uid, ())
        _, err = self.verdict(probe)
        st = self.st
        in_melee = engaged(Ctx(st, NoDice(), st.battlefield, ACTIONS), m)
        cost = self.nominal_cost(probe)
        label = _costed("Withdraw", cost)
        if err is None or (in_melee and err.rule == "COMBAT-4.3.WITHDRAW"):
            return Option("withdraw", label, "COMBAT-4.3.WITHDRAW", (), POINT_NEEDS, cost=cost, actor=uid,
                          example=probe)
        return Option("withdraw", label, "COMBAT-4.3.WITHDRAW", (), POINT_NEEDS, err.reason, err.rule, cost, uid,
                      probe)

    def use_item(self, uid: str, m: ModelState) -> Option | None:
        """CORE-3.3.INTERACT: Electric Juice, a Med-Kit on itself or on an ally (nearest first); left out when the
        model carries neither."""
        st = self.st
        cands: list[Action] = []
        if "electric_juice" in m.items:
            cands.append(UseItem(uid, "electric_juice"))
        if "medkit" in m.items:
            cands.append(UseItem(uid, "medkit"))
            allies = sorted((o for o in st.models.values() if o.side == m.side and o.id != m.id and o.deployed
                             and not o.dead), key=lambda o: (_dist(m, o.x, o.y), o.id))
            cands += [UseItem(uid, "medkit", o.id) for o in allies]
        opt = self.choice("use_item", "Use Item", "CORE-3.3.INTERACT", cands, actor=uid)
        if opt is not None and len(opt.actions) == 1:
            a = opt.actions[0]
            assert isinstance(a, UseItem)
            what = self.cat.equipment(a.item).name if a.item in self.cat.equipment_items else a.item
            label = f"{what} on {self.name(a.target)}" if a.target else what
            return Option(opt.kind, _costed(label, opt.cost), opt.rule, opt.actions, opt.needs, cost=opt.cost,
                          actor=uid)
        return opt

    def attacks(self, uid: str, m: ModelState, *, shots: bool = False, blows: bool = False) -> list[Action]:
        """RangedAttack (and Unload) per enemy x ranged weapon; MeleeAttack per enemy x weapon, nearest first."""
        out: list[Action] = []
        unload = m.profile.has("unload")
        near = float(self.settings["geo.contact_tol"]) + 0.5
        for i, e in enumerate(self.enemies(m)):
            # a blow needs base contact (COMBAT-4.2.MELEE-REQ): the enemies near it, and the nearest for the reason
            close = i == 0 or _dist(m, e.x, e.y) - m.radius - e.radius <= near
            for wid in m.profile.weapons:
                p = self.cat.weapon(wid).profile
                if shots and p.template is None and p.range_max:
                    out.append(RangedAttack(uid, e.id, wid))
                    if unload and self.cat.weapon(wid).unload_eligible:
                        out.append(RangedAttack(uid, e.id, wid, unload=True))
                if blows and close and p.template is None and not self.cat.weapon(wid).melee_forbidden:
                    out.append(MeleeAttack(uid, e.id, wid))
        return out

    def blasts(self, uid: str, m: ModelState, enemies: Sequence[ModelState]) -> list[Option | None]:
        """CORE-3.3.GRENADE, ARMORY-5.1.SBT-LBT, ARMORY-5.1.FLAME: one option per grenade carried and per blast or
        flame weapon, at a point (an angle) the client picks; legal when an instance at an enemy is."""
        spots = [(e.x, e.y) for e in enemies] or [(m.x, m.y)]
        out: list[Option | None] = []
        for g, n in sorted(m.grenades.items()):
            if n > 0:
                name = self.cat.grenade(g).name if g in self.cat.grenades else g
                out.append(self.at_point("grenade", f"Throw {name}", "CORE-3.3.GRENADE",
                                         [ThrowGrenade(uid, g, x, y) for x, y in spots], actor=uid,
                                         open_on=_about_point))
        for wid in m.profile.weapons:
            p = self.cat.weapon(wid).profile
            if p.template is Template.FLAME:
                angles = [round(math.atan2(y - m.y, x - m.x), 4) for x, y in spots]
                out.append(self.at_point("flame", f"Fire {self.weapon(wid)}", "ARMORY-5.1.FLAME",
                                         [FlameAttack(uid, wid, a) for a in angles], actor=uid))
            elif p.template is not None:
                out.append(self.at_point("template", f"Fire {self.weapon(wid)}", "ARMORY-5.1.SBT-LBT",
                                         [TemplateAttack(uid, wid, x, y) for x, y in spots], actor=uid,
                                         open_on=_about_point))
        return out

    def orders(self, uid: str, m: ModelState) -> list[Action]:
        """SKILL-6.1.LEADER-ORDER: to each other unit of the crew in play (nearest first), an Aim first (the
        representative: its refusal is the Order's own, range, LOS or Pins), then Rally, Recover, Reload, the tasks
        and the recipient's shots (each enemy x ranged weapon, as its own Shoot would be offered); a recipient's
        Move needs a point and is not offered here yet."""
        st = self.st
        others = sorted((u.id for u in st.units.values() if u.side == m.side and u.id != uid and st.unit_in_play(u.id)),
                        key=lambda o: (_dist(m, self.lead(o).x, self.lead(o).y), o))
        out: list[Action] = []
        for o in others:
            r = self.lead(o)
            inner: list[Action] = [Aim(o), Rally(o), Recover(o), *(Reload(o, w) for w in r.unloaded),
                                   *(ComplexTask(o, t) for t in st.tasks), *self.attacks(o, r, shots=True)]
            out += [Order(uid, o, a) for a in inner]
        return out


def describe(state: GameState, action: Action) -> str:
    """What a picker row says for one instance of an option, in catalog and model names: "Assault Rifle at Zombies
    (Unload)", "Med-Kit on Orest Hlyna", "Order Sergeant Marta Vyun: Aim", "Parry 2 hit(s)"."""
    q = _Query(state)
    return q.describe(action)


def _about_path(err: IllegalAction) -> bool:
    """A refusal of the zero-length probe that concerns the path or position the client will supply."""
    return err.rule in PATH_RULES


def _about_point(err: IllegalAction) -> bool:
    """A refusal of a throw or blast at the enemies' spots that concerns the point (its range, GEO-5, or its line of
    sight for a direct throw, GAP-70): another point the player picks may be legal."""
    return err.rule in ("GEO-5", "GAP-70")


def _costed(label: str, cost: int) -> str:
    return f"{label} ({cost} actions)" if cost > 1 else label


__all__ = ["Option", "describe", "options"]
