"""Game state: plain data (ids, numbers, enums, tuples) that round-trips through JSON; only `apply` writes it."""
from __future__ import annotations

import copy
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, TypeVar, cast

from game.core.battlefield import Base, Battlefield, Scene, SmokeCloud
from game.core.dice import Rng
from game.core.events import JSONObject, JSONValue

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

D = TypeVar("D", bound="DataclassInstance")

SAVE_VERSION = 1


class Phase(enum.Enum):
    """Where the turn state machine stands (TURN-1); each names who must decide next."""

    DEPLOY = "deploy"  # TURN-4: a side places its models
    INITIATIVE = "initiative"  # TURN-4.1: the initiative winner chooses to go first or pass
    ACTIVATE = "activate"  # TURN-5: a side picks which unit activates
    ACTION = "action"  # TURN-6: the active unit takes actions
    INTERRUPT = "interrupt"  # TURN-7: a side holding Alert may interrupt
    MEDKIT = "medkit"  # COMBAT-4.4.MEDKIT-SELF: a wounded model may dress the Wound at once
    PARRY = "parry"  # COMBAT-4.2.PARRY: the melee attacker chooses how many hits to parry
    HOSTILE_ROLL = "hostile_roll"  # HOSTILE-8.3.ROLL / GAP-52: the triggering player picks the Inspect-shifted result
    SPAWN_MOVE = "spawn_move"  # AI-S.SPAWN / HOSTILE-8.3.FREE-MOVE: a spawned unit makes its free move (or stays)
    FOUND_ITEM = "found_item"  # GAP-57: a 6 on an equipment table roll, the searching side picks the item
    MISSION_END = "mission_end"  # TURN-11


class SmokeState(TypedDict):
    """A smoke cloud in play (GAP-72): an LBT cylinder at (x, y, z) and the turn after which it clears."""

    x: float
    y: float
    z: float
    radius: float
    height: float
    expires_after_turn: NotRequired[int]  # absent: clears at the end of the current turn


class SideKind(enum.Enum):
    CREW = "crew"
    HOSTILE = "hostile"


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """A model's frozen profile (VITALS-2.1, CORE-3.2): resolved numbers, so state needs no catalog."""

    name: str
    move: float
    ca: int
    armour: str
    armor: int
    armour_move_mod: float
    will: int | None  # None = Will "NA" (GAP-22)
    wounds: int
    actions: int  # Combat Experience: 1/2/3 (CORE-3.2.LEVELS) or TL for hostiles
    experience: str
    base_diameter: float = 1.0
    height: float = 1.25
    skills: tuple[str, ...] = ()
    weapons: tuple[str, ...] = ()
    support_weapon: bool = False  # ARMORY-5.1.SR-SUPPORT: -1" per Move
    creature: bool = False
    leader: bool = False
    obscured: str | None = "in_cover"  # ARMORY-5.3.OBSCURED: "in_cover", "always" or None (creatures)
    save_dice: int = 1  # dice per hit, keep the best (Advanced armour, Exo)
    will_exempt: bool = False  # ARMORY-5.3.NERVES
    fp_overrides: tuple[tuple[str, int, int], ...] = ()  # (weapon, FP, Damage) of hostiles (HOSTILE-8.3.STATS, GAP-09)

    def has(self, skill: str) -> bool:
        return skill in self.skills


@dataclass(slots=True)
class ModelState:
    """One figure on the table: profile, position (x, y, z) in inches, wounds and kit."""

    id: str
    unit: str
    side: str
    profile: ModelProfile
    x: float = 0.0
    y: float = 0.0
    z: float = 0.0
    deployed: bool = False
    wounds_taken: int = 0
    ooa: bool = False
    dead: bool = False
    prone: bool = False
    items: list[str] = field(default_factory=list)  # Equipment Slot contents (EQUIP-6.2.SLOTS)
    unloaded: list[str] = field(default_factory=list)  # weapons that must Reload (ARMORY-5.1.SR-RELOAD)
    ammo: dict[str, int] = field(default_factory=dict)  # Limited Ammo rounds per weapon (GAP-67)
    hard_pin_ignored: bool = False  # SKILL-6.1.HARD: the first Pin of the mission was ignored (GAP-39)
    grenades: dict[str, int] = field(default_factory=dict)  # carried grenades by type (ARMORY-5.1.GRENADE-CARRY)
    scars: list[str] = field(default_factory=list)  # Battle Scars (POST-8.5.SCARS-TABLE)
    kicked: bool = False  # the +2 first-round bonus vs its current Pins is used (GAP-80)
    ooa_round: int = 0  # the round that put it Out of Action (COMBAT-4.4.PERMA-DEAD)
    ooa_beyond_kits: bool = False  # put Out of Action by three or more Wounds in one round: no Med-Kit helps (GAP-92)
    salvage: list[dict[str, Any]] = field(default_factory=list)  # stowed, unusable this mission (SALVAGE-8.4.BACKPACK)
    artifacts: list[dict[str, Any]] = field(default_factory=list)  # stowed artifacts (SALVAGE-8.4.ARTIFACT-TABLE)
    wounded_by: dict[str, Any] | None = None  # source of its last Wound in play: who put it out (POST-8.5.EARN)

    @property
    def in_play(self) -> bool:
        """On the table and neither Out of Action nor Dead."""
        return self.deployed and not self.ooa and not self.dead

    @property
    def radius(self) -> float:
        return self.profile.base_diameter / 2.0

    def base(self) -> Base:
        return Base(self.id, self.x, self.y, self.z, self.radius, self.profile.height, self.side)


@dataclass(slots=True)
class UnitState:
    """A unit: one model, or several acting as one (INTRO-1.2.UNIT); tokens live here (INTRO-1.3.TOKENS)."""

    id: str
    side: str
    models: list[str]
    pins: int = 0
    activated: bool = False
    alert: bool = False
    ej_this_turn: bool = False  # used Electric Juice this turn (EQUIP-6.2.ELECTRIC-JUICE)
    ej_hangover: bool = False  # only 1 action this turn (GAP-31)
    bonus_banked: int = 0  # off-turn critical successes for its own activation (GAP-12)


@dataclass(slots=True)
class SideState:
    """A player crew or a hostile force (DOC-0.6)."""

    id: str
    name: str
    kind: SideKind
    controller: str = "human"  # "human" or "ai" (AI-D.11 reads it)
    zone: str | None = None  # deployment zone name
    deployed: bool = False
    faction: str | None = None  # FACTION-7.2.LIST id of a crew; None: no faction (Neutral to all)
    faction_override: str = ""  # GAP-44 Enemy override check this mission: "" not taken, "passed", "failed"
    break_tries: dict[str, int] = field(default_factory=dict)  # FACTION-7.2.ALLIED attempts per Allied crew
    alliance_broken: list[str] = field(default_factory=list)  # crews whose alliance its Leader broke this mission
    faction_enemies: list[str] = field(default_factory=list)  # crews that became Enemies by an attack after a break


@dataclass(slots=True)
class TaskState:
    """A complex task in the scenario (CORE-3.4): where it is, how hard, and who has banked actions."""

    id: str
    name: str
    x: float
    y: float
    radius: float
    difficulty: int
    actions: int
    mechanical: bool = False
    explosive: bool = False
    done: bool = False
    holder: str | None = None  # the model that passed the Skill Check (CORE-3.4.BANKING)
    progress: int = 0
    tried: list[str] = field(default_factory=list)  # models that tried the check this activation


LOCATION_KINDS = ("hotspot", "objective")  # MISSION-8.2.HOTSPOTS, MISSION-8.2.OBJECTIVE
THREAT_LEVELS = (0, 1, 2, 3)  # MISSION-8.2.TL: TL0 White (scenario only) .. TL3 Red


class LocationError(ValueError):
    """A location a scenario or save cannot hold: the message names the location, the field and what is allowed."""


@dataclass(slots=True)
class LocationState:
    """A Hot Spot or the Mission Objective (MISSION-8.2): its point, optional footprint, Threat Level, what a search
    demands (MISSION-8.2.CLEARING: actions and an optional Skill Check), and what has happened to it."""

    id: str
    name: str
    kind: str  # "hotspot" or "objective" (LOCATION_KINDS)
    x: float
    y: float
    tl: int  # Threat Level 0-3 (MISSION-8.2.TL)
    footprint: list[list[float]] = field(default_factory=list)  # the scenic item's outline [[x, y]...] (GAP-50, GAP-53)
    search_actions: int = 1  # actions a search takes (MISSION-8.2.CLEARING)
    search_difficulty: int | None = None  # the Skill Check a search demands, None: none (MISSION-8.2.CLEARING)
    hostile_actions: int | None = None  # its hostiles' actions per activation by the scenario; None: its TL (AI-C.3)
    triggered: bool = False  # MISSION-8.2.TRIGGER (a pre-placed location counts as triggered)
    triggered_by: str | None = None  # the model whose path triggered it last
    triggered_side: str | None = None  # the player who rolls its Zone Hostiles Table (HOSTILE-8.3.ROLL)
    triggered_turn: int = 0
    cleared: bool = False  # its hostiles are all Out of Action or Dead (GAP-53)
    searched: bool = False  # searched / looted: never triggers again (GEO-19)
    inspected: dict[str, int] = field(default_factory=dict)  # side id -> the turn of its Inspect (GAP-52)
    hostile_roll: int | None = None  # the (shifted) Zone Hostiles Table result (HOSTILE-8.3.ROLL)
    anomaly: bool = False  # an Anomaly is present (SALVAGE-8.4.ANOMALY-PRESENCE, GAP-54)
    force: str | None = None  # the hostile force (side id) it spawned or had pre-placed (GAP-53)
    searcher: str | None = None  # the model whose search is under way (MISSION-8.2.CLEARING)
    search_progress: int = 0  # search actions it has spent
    search_tried: list[str] = field(default_factory=list)  # models that failed the Skill Check this activation
    fixed_spawn: dict[str, Any] | None = None  # {hostile, figures, actions}: spawned on trigger, no roll (GAP-99)
    key_item: str | None = None  # carried by a crew model, it spares the crew the key task (SCEN-10.3.CARD)
    key_task: dict[str, Any] | None = None  # {difficulty, actions, name} of the key task (game.core.rules.keycard)
    searched_by: list[str] = field(default_factory=list)  # models that completed a search, in order (a Scrounger twice)
    loot: dict[str, Any] | None = None  # the scenario's reward for searching it (LootSpec as JSON; GAP-60)
    anomaly_tried: list[str] = field(default_factory=list)  # models whose anomaly check failed this activation (GAP-56)
    artifacts_taken: list[str] = field(default_factory=list)  # who took its artifact (SALVAGE-8.4.ANOMALY-TWICE)
    anomaly_inert: bool = False  # its (last) artifact is taken (SALVAGE-8.4.ANOMALY-TWICE)


def check_location(loc: LocationState, table: tuple[float, float], *, where: str = "") -> None:
    """Refuse a location that cannot be played: a kind other than hotspot/objective, a TL outside 0-3, a point or
    footprint vertex off the table, fewer than 1 search action, or a footprint of fewer than 3 points."""
    at = f"{where}: " if where else ""
    lid = f"location {loc.id!r}"
    if loc.kind not in LOCATION_KINDS:
        raise LocationError(f"{at}{lid}: field 'kind' is {loc.kind!r}; allowed: {', '.join(LOCATION_KINDS)}")
    if isinstance(loc.tl, bool) or not isinstance(loc.tl, int) or loc.tl not in THREAT_LEVELS:
        raise LocationError(f"{at}{lid}: field 'tl' is {loc.tl!r}; allowed: a Threat Level 0, 1, 2 or 3 "
                            "(MISSION-8.2.TL)")
    w, h = table
    pts = [("x, y", (loc.x, loc.y))] + [(f"footprint[{i}]", (p[0], p[1])) for i, p in enumerate(loc.footprint)]
    for name, (x, y) in pts:
        if not (isinstance(x, (int, float)) and isinstance(y, (int, float)) and 0.0 <= x <= w and 0.0 <= y <= h):
            raise LocationError(f"{at}{lid}: field '{name}' is ({x}, {y}), off the table; allowed: 0 <= x <= {w:g}, "
                                f"0 <= y <= {h:g}")
    if loc.footprint and len(loc.footprint) < 3:
        raise LocationError(f"{at}{lid}: field 'footprint' has {len(loc.footprint)} points; allowed: none, or a "
                            "polygon of 3 or more")
    ha = loc.hostile_actions
    if ha is not None and (isinstance(ha, bool) or ha not in (1, 2, 3)):
        raise LocationError(f"{at}{lid}: field 'hostile_actions' is {ha!r}; allowed: null (its TL) or 1, 2 or 3 "
                            "(HOSTILE-8.3.ACTIONS-TL)")
    if not isinstance(loc.search_actions, int) or loc.search_actions < 1:
        raise LocationError(f"{at}{lid}: field 'search_actions' is {loc.search_actions!r}; allowed: a whole "
                            "number >= 1 (MISSION-8.2.CLEARING)")
    if loc.loot is not None:
        check_loot(loc.loot, f"{at}{lid}: field 'loot'")


LOOT_TABLES = ("basic", "advanced", "special")  # EQUIP-6.2.CATEGORIES


def _count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def check_loot(loot: Mapping[str, Any], at: str) -> None:
    """A location's loot (LootSpec JSON, GAP-60): items a list of names, grenades {id: count >= 0}, equipment_rolls
    [[table, count >= 0]...] on the basic/advanced/special tables, value a whole number of ZS >= 0, tl_roll a
    bool; anything else is refused naming the field and what is allowed."""
    if not isinstance(loot, Mapping):
        raise LocationError(f"{at} is {loot!r}; allowed: a table of items, grenades, equipment_rolls, value, tl_roll")
    extra = sorted(set(loot) - {"items", "grenades", "equipment_rolls", "value", "tl_roll"})
    if extra:
        raise LocationError(f"{at} has unknown key(s) {', '.join(extra)}; allowed: items, grenades, equipment_rolls, "
                            "value, tl_roll")
    items = loot.get("items", [])
    if not isinstance(items, list) or not all(isinstance(x, str) and x for x in items):
        raise LocationError(f"{at}.items is {items!r}; allowed: a list of item names")
    grenades = loot.get("grenades", {})
    if not isinstance(grenades, Mapping) or not all(isinstance(g, str) and _count(n) for g, n in grenades.items()):
        raise LocationError(f"{at}.grenades is {grenades!r}; allowed: grenade id -> a whole number >= 0")
    rolls = loot.get("equipment_rolls", [])
    if not isinstance(rolls, list) or not all(isinstance(r, (list, tuple)) and len(r) == 2 and r[0] in LOOT_TABLES
                                              and _count(r[1]) for r in rolls):
        raise LocationError(f"{at}.equipment_rolls is {rolls!r}; allowed: [[table, count]...] with table one of "
                            f"{', '.join(LOOT_TABLES)} and count a whole number >= 0 (GAP-57)")
    if not _count(loot.get("value", 0)):
        raise LocationError(f"{at}.value is {loot.get('value')!r}; allowed: a whole number of ZS >= 0")
    if not isinstance(loot.get("tl_roll", True), bool):
        raise LocationError(f"{at}.tl_roll is {loot.get('tl_roll')!r}; allowed: true or false (GAP-60)")


@dataclass(slots=True)
class ForceState:
    """A hostile force (HOSTILE-8.3.ACTIVATION): the location that produced it, its leash and its actions.

    `centre` is the location point pL its models are bound to (AI-8.3.RULE1, GEO-20); None for a scenario force
    without a location, which has no leash (AI-S.G3ZOMBIES)."""

    side: str
    hostile: str  # the catalog id of its models (HOSTILE-8.3.STATS)
    location: str | None
    centre: list[float] | None  # [x, y] of pL
    leash: float | None  # inches (GEO-20: 12.0), None: no leash
    actions: int  # actions per activation (HOSTILE-8.3.ACTIONS-TL, AI-C.3)
    appeared: int  # the turn it appeared (0: pre-placed at setup)
    roll: int | None = None  # its Zone Hostiles Table result (None: pre-placed)
    converge: list[list[float]] = field(default_factory=list)  # AI-S.G3ZOMBIES: points it heads for while unseen


@dataclass(slots=True)
class HostileMemory:
    """What a hostile unit remembers (AI-D.02, AI-D.03), kept by `apply` from what happens, never by an agent.

    `lock`: the locked target model; `last_known`: where the unit last saw it, or where it stood when the lock was
    set ([] when no lock); `lock_ok`: at some check of the current activation the target was visible or inside the
    territory; `unseen`: checks of the current activation at which it was neither; `attackers`: enemy models that
    made a melee attack on the unit since its last activation, oldest first; `draw`: the melee attacker that drew it
    (AI-D.03), kept while in base contact."""

    unit: str
    lock: str | None = None
    last_known: list[float] = field(default_factory=list)
    lock_ok: bool = False
    unseen: int = 0
    attackers: list[str] = field(default_factory=list)
    draw: str | None = None


def check_forces(st: GameState, *, where: str = "state") -> None:
    """Refuse hostile forces and memories a game cannot hold: a force naming an unknown hostile profile, a side or
    location that does not exist, a leash without a location; a memory of a unit that is not hostile, or a lock, draw
    or attacker naming a model that does not exist (LocationError names the field and what is allowed)."""
    from game.core.catalog import load_catalog
    from game.core.settings import Settings

    if not st.forces and not st.ai:
        return
    known = load_catalog(Settings(dict(st.settings))).hostiles
    sides = {s.id for s in st.sides}
    for fid, f in st.forces.items():
        at = f"{where}: force {fid!r}"
        if f.hostile not in known:
            raise LocationError(f"{at}: field 'hostile' is {f.hostile!r}; allowed: {', '.join(sorted(known))}")
        if f.side != fid or fid not in sides:
            raise LocationError(f"{at}: field 'side' is {f.side!r}; allowed: the id of a side of the game "
                                f"({', '.join(sorted(sides))})")
        if f.location is not None and f.location not in st.locations:
            raise LocationError(f"{at}: field 'location' is {f.location!r}; allowed: null or a location of the game "
                                f"({', '.join(sorted(st.locations)) or 'none'})")
        if f.leash is not None and (f.centre is None or len(f.centre) != 2):
            raise LocationError(f"{at}: field 'centre' is {f.centre!r}; a force with a leash needs its location "
                                "point [x, y]")
        if not isinstance(f.actions, int) or isinstance(f.actions, bool) or not 1 <= f.actions <= 3:
            raise LocationError(f"{at}: field 'actions' is {f.actions!r}; allowed: 1, 2 or 3 (HOSTILE-8.3.ACTIONS-TL)")
    for uid, mem in st.ai.items():
        at = f"{where}: memory of {uid!r}"
        unit = st.units.get(uid)
        if unit is None or unit.side not in st.forces:
            raise LocationError(f"{at}: no hostile unit {uid!r} in this game; memories belong to hostile units")
        for name, mid in (("lock", mem.lock), ("draw", mem.draw), *(("attackers", a) for a in mem.attackers)):
            if mid is not None and mid not in st.models:
                raise LocationError(f"{at}: field '{name}' names model {mid!r}, which does not exist; allowed: null "
                                    "or the id of a model of the game")
        if mem.lock is not None and len(mem.last_known) != 2:
            raise LocationError(f"{at}: field 'last_known' is {mem.last_known!r}; a lock needs the point [x, y]")


@dataclass(slots=True)
class SpawnState:
    """A triggered location being resolved (TURN-8): its roll, then the free move of each new unit (AI-S.SPAWN).

    `then` is what the interrupted flow does once every queued location is resolved: "after" (the rest of the
    acting unit's after-action step, with its interrupt window), "after_nowindow", or "window" (back to the open
    interrupt window whose held action triggered it)."""

    location: str
    then: str
    roll: int = 0  # the D6 as rolled
    choices: list[int] = field(default_factory=list)  # the results the triggering player may pick (GAP-52)
    force: str | None = None
    pending: list[str] = field(default_factory=list)  # units still to make their free move, in order


@dataclass(slots=True)
class ActivationState:
    """The activation in progress (TURN-6): budget, bonus pool and per-activation memory."""

    unit: str
    budget: int
    spent: int = 0
    bonus: int = 0  # crit extra actions earned this activation (TURN-6 step 4)
    stage: str = "normal"  # "normal" then "bonus"
    started: bool = False  # an action was taken (the interrupt window before the first action is past)
    move_run: int = 0  # consecutive Move actions, for Hustle (SKILL-6.1.HUSTLE)
    aim: bool = False  # Aim pending (CORE-3.3.AIM)
    ej_used: bool = False
    last_action: str = ""
    extra_unit: str | None = None  # a crit extra action owed right after an ordered action (GAP-12)
    extra_left: int = 0
    ordered_aim: str | None = None  # the Order recipient whose ordered Aim is pending (CORE-3.3.AIM, GAP-37)


@dataclass(slots=True)
class WoundDecision:
    """A pending Med-Kit choice at the moment of a Wound (COMBAT-4.4.MEDKIT-SELF, GAP-32)."""

    model: str
    round_id: int
    wounds: int  # undressed Wounds suffered in this round
    dressed: int = 0


@dataclass(slots=True)
class InterruptWindow:
    """An open Alert window (TURN-7): the sides still to be asked, in order."""

    acting_unit: str
    sides: list[str]
    resume: str  # phase to return to afterwards
    extra_unit: str | None = None  # a crit extra action owed right after the Alert action (GAP-12)
    extra_left: int = 0
    held_by: str | None = None  # the unit whose held action is resolving (its AI-D.02 check follows it)


@dataclass(slots=True)
class GameState:
    """The whole game: everything a save needs, JSON-serialisable."""

    scenario: str
    seed: int
    rng: Rng
    settings: dict[str, JSONValue]  # the overrides of the house defaults (Settings.overrides)
    table: tuple[float, float]
    map_path: str | None = None
    map_sha256: str | None = None
    turn: int = 0
    turn_limit: int = 0
    phase: Phase = Phase.DEPLOY
    sides: list[SideState] = field(default_factory=list)
    units: dict[str, UnitState] = field(default_factory=dict)
    models: dict[str, ModelState] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # side ids in activation order this turn
    deciding: str = ""  # side id that must decide now
    cycle: int = 0  # index into order of the side activating in the cycle
    activation: ActivationState | None = None
    interrupt: InterruptWindow | None = None
    wound_queue: list[WoundDecision] = field(default_factory=list)
    tasks: dict[str, TaskState] = field(default_factory=dict)
    deploy_order: list[str] = field(default_factory=list)
    smoke: list[SmokeState] = field(default_factory=list)
    round_counter: int = 0  # id of the last roll round (COMBAT-4.4.PERMA-DEAD "different round")
    event_seq: int = 0
    result: dict[str, Any] = field(default_factory=dict)
    continuations: list[dict[str, Any]] = field(default_factory=list)  # resolution steps after a decision
    locations: dict[str, LocationState] = field(default_factory=dict)  # Hot Spots and the MO (MISSION-8.2)
    trigger_queue: list[str] = field(default_factory=list)  # triggered locations awaiting the hostile roll (TURN-8)
    forces: dict[str, ForceState] = field(default_factory=dict)  # hostile forces by side id (HOSTILE-8.3.ACTIVATION)
    ai: dict[str, HostileMemory] = field(default_factory=dict)  # hostile units' memory (AI-D.02, AI-D.03)
    spawning: SpawnState | None = None  # a triggered location being resolved (TURN-8)
    environment: str = ""  # the Environmental Hazard of this Zone Run (SALVAGE-8.4.ENV), "" when not rolled
    objective: dict[str, Any] | None = None  # the Mission Objective completed: side, model, location, turn (GAP-60)
    found_choices: list[dict[str, Any]] = field(default_factory=list)  # GAP-57 item choices owed (Phase.FOUND_ITEM)
    blame: dict[str, Any] | None = None  # the source of the damage being resolved: model, side, cause (kills)
    battlefield: Battlefield = field(default_factory=Battlefield.open_table, repr=False, compare=False)

    # --- queries -------------------------------------------------------------
    def side(self, side_id: str) -> SideState:
        for s in self.sides:
            if s.id == side_id:
                return s
        raise KeyError(f"no side {side_id!r}")

    def unit_models(self, unit_id: str) -> list[ModelState]:
        return [self.models[m] for m in self.units[unit_id].models]

    def unit_in_play(self, unit_id: str) -> bool:
        return any(m.in_play for m in self.unit_models(unit_id))

    def scene(self, *, include_ooa: bool = False) -> Scene:
        """The bases in play and smoke clouds, for geometry queries; `include_ooa` adds the Out of Action
        figures lying on the table (templates can still hit them, GAP-93)."""
        bases = tuple(m.base() for m in self.models.values()
                      if m.in_play or (include_ooa and m.deployed and m.ooa and not m.dead))
        smoke = tuple(SmokeCloud(c["x"], c["y"], c["z"], c["radius"], c["height"]) for c in self.smoke)
        return Scene(bases, smoke)

    def clone(self) -> GameState:
        """An independent copy, PRNG included (python-chess Board.copy, OpenSpiel State.clone).

        The immutable battlefield is shared, not copied."""
        return copy.deepcopy(self, {id(self.battlefield): self.battlefield})

    # --- JSON ----------------------------------------------------------------
    def to_json(self) -> JSONObject:
        """Plain JSON data; the battlefield is referenced by map path and SHA-256, not embedded."""
        out = _fields_json(self)
        del out["battlefield"]
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any], battlefield: Battlefield | None = None) -> GameState:
        st = _from_json(GameState, {k: v for k, v in data.items() if k != "battlefield"})
        if battlefield is not None:
            st.battlefield = battlefield
        else:
            st.battlefield = Battlefield.open_table(*st.table)
        for loc in st.locations.values():
            check_location(loc, st.table, where="state")
        check_forces(st, where="state")
        return st


def _fields_json(obj: DataclassInstance) -> JSONObject:
    return {f.name: _to_json(getattr(obj, f.name)) for f in fields(obj)}


def _to_json(obj: object) -> JSONValue:
    if isinstance(obj, enum.Enum):
        return cast(JSONValue, obj.value)  # every enum of the state has str values
    if isinstance(obj, Rng):
        return str(obj.state)
    if is_dataclass(obj) and not isinstance(obj, type):
        return _fields_json(obj)
    if isinstance(obj, dict):
        return {str(k): _to_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_to_json(v) for v in obj]
    return cast(JSONValue, obj)  # a str, number, bool or None: the state is plain data


def _from_json(cls: type[D], data: Mapping[str, Any]) -> D:
    """Rebuild a dataclass from its JSON form using the field annotations (strings, PEP 563)."""
    kwargs: dict[str, object] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        kwargs[f.name] = _decode(str(f.type), data[f.name])  # str: annotations are strings (PEP 563)
    return cls(**kwargs)


def _decode(tp: str, value: Any) -> object:
    t = tp.replace(" ", "")
    if value is None:
        return None
    if t == "Rng":
        return Rng(int(value))
    if t in ("Phase",):
        return Phase(value)
    if t == "SideKind":
        return SideKind(value)
    for name, cls in _ONE:
        if t in (name, f"{name}|None"):
            return _from_json(cls, value)
    if t.startswith("tuple[float,float]"):
        return tuple(value)
    if t.startswith("tuple["):
        return tuple(value)
    for name, cls in _LISTS:
        if t == f"list[{name}]":
            return [_from_json(cls, v) for v in value]
    for name, cls in _BY_ID:
        if t == f"dict[str,{name}]":
            return {k: _from_json(cls, v) for k, v in value.items()}
    if t.startswith("list["):
        return list(value)
    if t.startswith("dict["):
        return dict(value)
    return value


# The dataclasses a field annotation names, by how the field holds them: one (or None), a list, a dict by id.
_ONE: tuple[tuple[str, type[DataclassInstance]], ...] = (
    ("ModelProfile", ModelProfile), ("ActivationState", ActivationState), ("InterruptWindow", InterruptWindow),
    ("SpawnState", SpawnState))
_LISTS: tuple[tuple[str, type[DataclassInstance]], ...] = (("SideState", SideState), ("WoundDecision", WoundDecision))
_BY_ID: tuple[tuple[str, type[DataclassInstance]], ...] = (
    ("UnitState", UnitState), ("ModelState", ModelState), ("TaskState", TaskState),
    ("LocationState", LocationState), ("ForceState", ForceState), ("HostileMemory", HostileMemory))
