"""Actions: every player decision, named after the rulebook, as frozen JSON-serialisable dataclasses."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import ClassVar, cast

from game.core.events import JSONObject, JSONValue

Path2 = tuple[tuple[float, float], ...]
Waypoint = tuple[float, float] | tuple[float, float, float]  # (x, y) stays on the level; (x, y, z) names it
Path3 = tuple[Waypoint, ...]
UnitPaths = tuple[tuple[str, Path3], ...]  # (model id, waypoints) for every model of a unit in play; () stays put
Landings = tuple[tuple[str, Waypoint | tuple[()]], ...]  # (model id, landing point) of a unit's Jump; () stays put


class IllegalAction(Exception):
    """An action the rules forbid now: the reason and the rule ID; the state is unchanged."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__(f"{reason} [{rule}]")
        self.reason = reason
        self.rule = rule

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[str, str]]:
        return (IllegalAction, (self.reason, self.rule))  # survives a trip between processes


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every decision. `cost` is the actions it spends (CORE-3.3.GENERAL)."""

    cost: ClassVar[int] = 1
    kind: ClassVar[str] = "action"

    def to_json(self) -> JSONObject:
        out: JSONObject = {"type": type(self).__name__}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = _jsonable(v)
        return out


def _jsonable(v: object) -> JSONValue:
    if isinstance(v, Action):
        return v.to_json()
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return cast(JSONValue, v)  # str, number, bool or None by the field annotations


# --- setup and sequencing decisions (TURN-4, TURN-4.1, TURN-5, TURN-7) ------------------------


@dataclass(frozen=True, slots=True)
class Deploy(Action):
    """Place one model wholly inside its side's deployment zone (TURN-4)."""

    model: str
    x: float
    y: float
    z: float = 0.0
    cost: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class ChooseInitiative(Action):
    """The initiative winner activates first, or passes (CORE-3.1.PASS)."""

    side: str
    go_first: bool
    cost: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class Activate(Action):
    """Choose the unit to activate next (CORE-3.1.ALTERNATE, TURN-5)."""

    unit: str
    cost: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class EndActivation(Action):
    """Stop taking actions; unused actions are lost (TURN-6)."""

    unit: str
    cost: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class Interrupt(Action):
    """Spend a held Alert action during an opponent's activation (CORE-3.3.ALERT, TURN-7)."""

    unit: str
    action: Action
    cost: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class DeclineInterrupt(Action):
    """Let this interrupt window pass without using Alert (TURN-7)."""

    side: str
    cost: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class DeclineMedKit(Action):
    """Do not dress this Wound now (COMBAT-4.4.MEDKIT-DELAY)."""

    model: str
    cost: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class ChooseHostileRoll(Action):
    """The triggering player picks the Zone Hostiles result within its Inspect shift, after seeing the D6
    (HOSTILE-8.3.ROLL, GAP-52 `inspect.after_roll`)."""

    side: str
    result: int
    cost: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class ChooseFoundItem(Action):
    """A 6 on an equipment table roll: the searching side picks any item of that table (GAP-57
    `equip.roll`=d6_6_is_choice); the item is stowed with the searcher (SALVAGE-8.4.BACKPACK)."""

    side: str
    item: str
    cost: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class StayPut(Action):
    """A spawned unit forgoes its free move (AI-S.SPAWN: melee types with no visible enemy stay)."""

    unit: str
    cost: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class Reasoned(Action):
    """A decision with the reason its agent took it (ZONE HOSTILE AI): `apply` resolves `action` and puts `reason`
    ({rule, target, goal, text, numbers}) on the decision's first event, with `reason["rule"]` in its rules."""

    action: Action
    reason: Mapping[str, JSONValue]
    cost: ClassVar[int] = 0

    def to_json(self) -> JSONObject:
        return {"type": "Reasoned", "action": self.action.to_json(), "reason": dict(self.reason)}


# --- actions of CORE-3.3 -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move along a path of waypoints (CORE-3.3.MOVE, GEO-8); `path` excludes the start point.

    A waypoint is (x, y), on the level of the point before it, or (x, y, z) to change level by stairs,
    ladder, a step or a climb (GEO-24).

    A unit of one model gives `path`. A multi-model unit (pack, swarm, mob) gives `paths` instead: one
    (model id, waypoints) pair for every model of the unit in play, an empty path for a model that stays put
    (CORE-3.7.COMMON-ACTIONS, GEO-21); `Move.of_unit` builds it from a mapping."""

    unit: str
    path: Path3 = ()
    paths: UnitPaths = ()
    kind: ClassVar[str] = "move"

    @classmethod
    def of_unit(cls, unit: str, paths: Mapping[str, Sequence[Sequence[float]]]) -> Move:
        """A Move of every model of a unit: model id -> waypoints ([] to stay put), in the mapping's order."""
        return cls(unit, paths=unit_paths(paths))

    def to_json(self) -> JSONObject:
        return _paths_json(Action.to_json(self), self.paths)


@dataclass(frozen=True, slots=True)
class Climb(Action):
    """A move that climbs (CORE-3.3.CLIMB, GEO-24), committing `actions` Move actions so that a long climb is
    completed within them (`climb.allow_end_mid_climb`=false); counts as that many Moves for Hustle.
    A multi-model unit gives `paths` as for `Move` (each model climbs or walks within the committed allowances)."""

    unit: str
    path: Path3 = ()
    actions: int = 1
    paths: UnitPaths = ()
    kind: ClassVar[str] = "move"

    @classmethod
    def of_unit(cls, unit: str, paths: Mapping[str, Sequence[Sequence[float]]], actions: int = 1) -> Climb:
        """A Climb of every model of a unit: model id -> waypoints ([] to stay put)."""
        return cls(unit, actions=actions, paths=unit_paths(paths))

    def to_json(self) -> JSONObject:
        return _paths_json(Action.to_json(self), self.paths)


@dataclass(frozen=True, slots=True)
class Jump(Action):
    """Jump a gap between two floors to `to` (x, y) or (x, y, z) (CORE-3.3.JUMP, GEO-24, GAP-88).

    A multi-model unit gives `landings` instead: (model id, landing point) for every model in play, () for a
    model that stays put; each model's gap is judged (and, over 2", checked) on its own."""

    unit: str
    to: Waypoint | tuple[()] = ()
    landings: Landings = ()
    kind: ClassVar[str] = "move"

    @classmethod
    def of_unit(cls, unit: str, landings: Mapping[str, Sequence[float]]) -> Jump:
        """A Jump of every model of a unit: model id -> landing point ([] to stay put)."""
        return cls(unit, landings=tuple((mid, _waypoint_or_stay(p, "Jump")) for mid, p in landings.items()))

    def to_json(self) -> JSONObject:
        out = Action.to_json(self)
        if self.landings:
            if not out.get("to"):
                out.pop("to", None)
            out["landings"] = {mid: _jsonable(p) for mid, p in self.landings}
        else:
            out.pop("landings", None)
        return out


def unit_paths(paths: Mapping[str, Sequence[Sequence[float]]]) -> UnitPaths:
    """Per-model paths as the frozen (model id, waypoints) pairs `Move.paths` holds."""
    return tuple((mid, tuple(_waypoint(p, "Move") for p in path)) for mid, path in paths.items())


def _paths_json(out: JSONObject, paths: UnitPaths) -> JSONObject:
    """A one-model move keeps today's form ({"path": [...]}, no `paths`); a unit's move writes
    {"paths": {model: [...]}} and no `path`."""
    if paths:
        if not out.get("path"):
            out.pop("path", None)
        out["paths"] = {mid: _jsonable(p) for mid, p in paths}
    else:
        out.pop("paths", None)
    return out


@dataclass(frozen=True, slots=True)
class Aim(Action):
    """+1 CA and +1 Damage on the attack that immediately follows (CORE-3.3.AIM)."""

    unit: str


@dataclass(frozen=True, slots=True)
class Alert(Action):
    """Two actions to hold one in reserve for an interrupt (CORE-3.3.ALERT)."""

    unit: str
    cost: ClassVar[int] = 2


@dataclass(frozen=True, slots=True)
class Rally(Action):
    """Remove one Pinned counter, automatically (CORE-3.3.RALLY)."""

    unit: str


@dataclass(frozen=True, slots=True)
class Recover(Action):
    """Stand up after being knocked prone (CORE-3.3.RECOVER, GAP-89)."""

    unit: str


@dataclass(frozen=True, slots=True)
class Reload(Action):
    """Reload a weapon that must be reloaded after firing (CORE-3.3.RELOAD)."""

    unit: str
    weapon: str


@dataclass(frozen=True, slots=True)
class UseItem(Action):
    """Use an item: a Med-Kit on self (free, at a Wound) or on an ally in contact (1 action),
    or Electric Juice (free) (CORE-3.3.INTERACT, COMBAT-4.4.MEDKIT-*, EQUIP-6.2.ELECTRIC-JUICE)."""

    unit: str
    item: str
    target: str | None = None  # the model treated; None = self


@dataclass(frozen=True, slots=True)
class ComplexTask(Action):
    """Work on a complex task in base contact: free Skill Check first, then banked actions (CORE-3.4)."""

    unit: str
    task: str


@dataclass(frozen=True, slots=True)
class Order(Action):
    """The Leader hands one of his actions to a crew member in 12" and LOS (SKILL-6.1.LEADER-ORDER)."""

    unit: str  # the Leader
    recipient: str
    action: Action


@dataclass(frozen=True, slots=True)
class Inspect(Action):
    """Survey a location in 12" (24" with Binoculars) and LOS: this turn its player may shift the location's Zone
    Hostiles roll by 1 (CORE-3.3.INSPECT, EQUIP-6.2.BINOCULARS, GEO-23, GAP-52)."""

    unit: str
    location: str


@dataclass(frozen=True, slots=True)
class BoltToss(Action):
    """Toss a bolt at a point in a location's 3" Reaction Radius and 18" of the thrower: one die against CA with the
    indirect penalty; a success triggers the location, a failure wastes the action (MISSION-8.2.BOLT-TOSS, GAP-51)."""

    unit: str
    location: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Search(Action):
    """Search a triggered location whose own hostiles are all gone, standing within 1" of its point (or touching its
    scenic item): one action each of the location's search actions, a free Skill Check first when it demands one;
    the last action loots it (MISSION-8.2.CLEARING, SALVAGE-8.4.SEARCH, GAP-53)."""

    unit: str
    location: str


@dataclass(frozen=True, slots=True)
class SearchAnomaly(Action):
    """Take the artifact of a location's anomaly, standing where its search stands: a free Will check first (Will -
    TL, Leader in LOS +1, a Detector in a slot +2); a pass spends the action and rolls the Artifact table, a failure
    discharges the anomaly (a Damage 2 hit on every model under its LBT) and costs no action
    (SALVAGE-8.4.ANOMALY-SEARCH/-MODS/-EFFECT, GAP-55, GAP-56)."""

    unit: str
    location: str


# --- attacks (COMBAT-4.*, ARMORY-5.*) --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RangedAttack(Action):
    """Fire one weapon once at one enemy unit (COMBAT-4.1.RANGED); `unload` spends two actions on one
    combined round of 2xFP+2 dice (SKILL-6.1.UNLOAD)."""

    unit: str
    target: str
    weapon: str
    profile: str | None = None
    unload: bool = False


@dataclass(frozen=True, slots=True)
class MeleeAttack(Action):
    """Attack an enemy model in base contact; the defender fights back at once (COMBAT-4.2)."""

    unit: str
    target: str
    weapon: str
    second_weapon: str | None = None  # Knife Man only (SKILL-6.1.KNIFE-MAN, GAP-08)


@dataclass(frozen=True, slots=True)
class Parry(Action):
    """After both sides rolled, the melee attacker spends hits to cancel the defender's (COMBAT-4.2.PARRY)."""

    unit: str
    hits: int
    cost: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """Leave a deadlocked melee after the enemy's free attack, then move out of contact (COMBAT-4.3.WITHDRAW)."""

    unit: str
    path: Path2


@dataclass(frozen=True, slots=True)
class ThrowGrenade(Action):
    """Prepare and throw one grenade at a point, direct or indirect (CORE-3.3.GRENADE, GAP-70)."""

    unit: str
    grenade: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class TemplateAttack(Action):
    """Fire a blast weapon (40 mm GL, RPG anti-infantry, mortar) at a point (ARMORY-5.1, GAP-70)."""

    unit: str
    weapon: str
    x: float
    y: float
    profile: str | None = None


@dataclass(frozen=True, slots=True)
class FlameAttack(Action):
    """Place the flame template from the attacker's base at an angle; no roll (ARMORY-5.1.FLAME)."""

    unit: str
    weapon: str
    angle: float


@dataclass(frozen=True, slots=True)
class BreakAlliance(Action):
    """The crew Leader tries to break his crew's alliance with crew `side`: a Will check at Difficulty 4 costing two
    actions, one attempt per mission (FACTION-7.2.ALLIED, GAP-44); success lets his crew attack that crew."""

    unit: str  # the Leader
    side: str  # the Allied crew
    cost: ClassVar[int] = 2


ACTION_TYPES: dict[str, type[Action]] = {
    c.__name__: c
    for c in (Deploy, ChooseInitiative, Activate, EndActivation, Interrupt, DeclineInterrupt, DeclineMedKit,
              Move, Climb, Jump, Aim, Alert, Rally, Recover, Reload, UseItem, ComplexTask, Order, RangedAttack,
              MeleeAttack, Parry, Withdraw, ThrowGrenade, TemplateAttack, FlameAttack, Inspect, BoltToss,
              ChooseHostileRoll, StayPut, Reasoned, Search, SearchAnomaly, ChooseFoundItem, BreakAlliance)
}


def action_from_json(data: object) -> Action:
    """Rebuild an action from its JSON form (as json.loads returns it); a clear ValueError names what is wrong."""
    if not isinstance(data, dict) or "type" not in data:
        raise ValueError(f"an action must be an object with a 'type' field, got {data!r}")
    cls = ACTION_TYPES.get(data["type"])
    if cls is None:
        raise ValueError(f"unknown action type {data['type']!r}; known: {sorted(ACTION_TYPES)}")
    kwargs: dict[str, object] = {}
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise ValueError(f"action {data['type']}: unknown field(s) {sorted(extra)}")
    for f in fields(cls):
        if f.name not in data:
            continue
        v = data[f.name]
        if f.name == "action":
            v = action_from_json(v)
        elif f.name == "reason":
            if not isinstance(v, dict) or not isinstance(v.get("rule"), str):
                raise ValueError(f"action {data['type']}: field 'reason' must be an object with a 'rule' string, "
                                 f"got {v!r}")
        elif f.name == "path":
            v = _path(v, data["type"])
        elif f.name == "paths":
            v = tuple((str(mid), _path(p, data["type"])) for mid, p in _per_model(v, data["type"]).items())
        elif f.name == "landings":
            v = tuple((str(mid), _waypoint_or_stay(p, data["type"]))
                      for mid, p in _per_model(v, data["type"]).items())
        elif f.name == "to":
            v = _waypoint(v, data["type"])
        kwargs[f.name] = v
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"action {data['type']}: {exc}") from None


def _per_model(v: object, type_name: str) -> dict[str, object]:
    """A JSON object model id -> value (the per-model paths or landings of a unit's movement)."""
    if not isinstance(v, dict):
        raise ValueError(f"action {type_name}: per-model paths must be an object model id -> waypoints, got {v!r}")
    return {str(k): x for k, x in v.items()}


def _path(v: object, type_name: str) -> Path3:
    if not isinstance(v, (list, tuple)):
        raise ValueError(f"action {type_name}: a path must be a list of waypoints, got {v!r}")
    return tuple(_waypoint(p, type_name) for p in v)


def _waypoint_or_stay(p: object, type_name: str) -> Waypoint | tuple[()]:
    """A landing point, or () / [] for a model that stays put."""
    if isinstance(p, (list, tuple)) and len(p) == 0:
        return ()
    return _waypoint(p, type_name)


def _waypoint(p: object, type_name: str) -> Waypoint:
    """A JSON waypoint [x, y] or [x, y, z] as a tuple of floats (GEO-1)."""
    if not isinstance(p, (list, tuple)) or len(p) not in (2, 3):
        raise ValueError(f"action {type_name}: a waypoint must be [x, y] or [x, y, z], got {p!r}")
    try:
        c = [float(v) for v in p]
    except (TypeError, ValueError):
        raise ValueError(f"action {type_name}: waypoint {p!r} has a coordinate that is not a number") from None
    return (c[0], c[1]) if len(c) == 2 else (c[0], c[1], c[2])
