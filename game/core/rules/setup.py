"""Scenarios and new games: crews, zones, tasks, the turn limit and deployment order (TURN-2, TURN-4)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from game.core.battlefield import Battlefield, Zone
from game.core.catalog import Catalog, load_catalog
from game.core.dice import Rng, seed_state
from game.core.events import Event
from game.core.geometry.polygon import rect
from game.core.rules.context import Ctx
from game.core.rules.keycard import add_key_tasks
from game.core.rules.preplace import HostileSpec, preplace
from game.core.rules.special_rules import scenario_hostiles
from game.core.rules.turnrolls import begin_deployment, roll_environment, roll_turn_limit
from game.core.settings import Settings
from game.core.state import (
    GameState,
    LocationState,
    ModelProfile,
    ModelState,
    SideKind,
    SideState,
    TaskState,
    UnitState,
    check_location,
)


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """One crew member as the roster gives it (ROSTER-12.MODEL)."""

    id: str
    name: str
    level: str  # "leader", "rookie", "hardened", "veteran"
    armour: str
    weapons: tuple[str, ...]
    skills: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    grenades: tuple[tuple[str, int], ...] = ()  # ARMORY-5.1.GRENADE-CARRY (2 free)
    raises: tuple[tuple[str, int], ...] = ()  # stat raises (move/ca/will/armor) from leftover K and advances
    ammo: tuple[tuple[str, int], ...] = ()  # rounds left per Limited-Ammo weapon (GAP-67); absent: a full load-out


@dataclass(frozen=True, slots=True)
class CrewSpec:
    side: str
    name: str
    zone: str
    models: tuple[ModelSpec, ...]
    controller: str = "human"
    faction: str | None = None  # FACTION-7.2.LIST id ("military", ...); None: no faction (no FACTION-7.2 relations)
    k_limit: int | None = None  # the K limit the roster was built to (CREW-7.1.K-LIMITS); None: not given


@dataclass(frozen=True, slots=True)
class TaskSpec:
    """A complex task object on the table (CORE-3.4.TASK)."""

    id: str
    name: str
    x: float
    y: float
    radius: float
    difficulty: int
    actions: int
    mechanical: bool = False
    explosive: bool = False


@dataclass(frozen=True, slots=True)
class LootSpec:
    """What a location's successful Search gives besides its TL Salvage roll (SCEN-10.*.CARD "Salvage / reward"):
    named items (catalog equipment ids or scenario items such as the Game One attache case or the Game Two
    keycard), grenades, rolls on the equipment tables (GAP-57), a fixed Salvage Value (never doubled, GAP-58), and
    whether the Mission Objective's free roll on its TL's Salvage table is made (GAP-60; none at TL0)."""

    items: tuple[str, ...] = ()
    grenades: tuple[tuple[str, int], ...] = ()
    equipment_rolls: tuple[tuple[str, int], ...] = ()  # (table "basic"/"advanced"/"special", rolls)
    value: int = 0
    tl_roll: bool = True

    def to_json(self) -> dict[str, Any]:
        """The form `LocationState.loot` holds (plain JSON; checked by `state.check_location`)."""
        return {"items": list(self.items), "grenades": {g: n for g, n in self.grenades},
                "equipment_rolls": [[t, n] for t, n in self.equipment_rolls], "value": self.value,
                "tl_roll": self.tl_roll}


@dataclass(frozen=True, slots=True)
class FixedSpawn:
    """Hostiles a location spawns when triggered instead of a Zone Hostiles Table roll (SCEN-10.1.CARD: the
    zombified vehicle crew, GAP-99): a hostiles.toml id, figures and actions per activation."""

    hostile: str
    figures: int
    actions: int | None = None


@dataclass(frozen=True, slots=True)
class KeyTask:
    """The Complex Task a crew without a location's key item completes there before its Search (SCEN-10.3.CARD,
    `scen.g3_keycard`="task_without_card": Difficulty 2, 2 actions at the CPO for a crew without the Game Two
    keycard); played as a CORE-3.4 task at the location (game.core.rules.keycard)."""

    difficulty: int
    actions: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class LocationSpec:
    """A Hot Spot or the Mission Objective as the scenario gives it (MISSION-8.2): a point, an optional footprint,
    its Threat Level and what a search demands (MISSION-8.2.CLEARING)."""

    id: str
    name: str
    kind: str  # "hotspot" or "objective"
    point: tuple[float, float]
    tl: int
    footprint: tuple[tuple[float, float], ...] = ()
    search_actions: int = 1
    search_difficulty: int | None = None
    hostile_actions: int | None = None  # its hostiles' actions per activation; None: its TL (HOSTILE-8.3.ACTIONS-TL)
    loot: LootSpec | None = None  # what its Search gives besides the TL roll (the salvage slice honours it)
    fixed_spawn: FixedSpawn | None = None  # spawned on trigger instead of a table roll (game.core.rules.spawn)
    key_item: str | None = None  # an item that lets a crew Search without the key task (SCEN-10.3.CARD)
    key_task: KeyTask | None = None  # the task a crew without key_item completes first (game.core.rules.keycard)

    def state(self) -> LocationState:
        fs = self.fixed_spawn
        kt = self.key_task
        return LocationState(self.id, self.name, self.kind, float(self.point[0]), float(self.point[1]), self.tl,
                             [[float(x), float(y)] for x, y in self.footprint], self.search_actions,
                             self.search_difficulty, hostile_actions=self.hostile_actions,
                             fixed_spawn=None if fs is None else {"hostile": fs.hostile, "figures": fs.figures,
                                                                  "actions": fs.actions},
                             key_item=self.key_item,
                             key_task=None if kt is None else {"difficulty": kt.difficulty, "actions": kt.actions,
                                                               "name": kt.name},
                             loot=self.loot.to_json() if self.loot is not None else None)


@dataclass(frozen=True, slots=True)
class Scenario:
    """A playable setup: table, zones, crews, tasks and an optional fixed turn limit (SCEN-10)."""

    id: str
    name: str
    table: tuple[float, float]
    zones: tuple[Zone, ...]
    crews: tuple[CrewSpec, ...]
    tasks: tuple[TaskSpec, ...] = ()
    turn_limit: int | None = None
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    k_limit: int | None = 12  # agreed Khrabrost' limit per crew (CREW-7.1.K-LIMITS, ZONE-8.1.PARITY); None = no limit
    locations: tuple[LocationSpec, ...] = ()  # Hot Spots and the Mission Objective (MISSION-8.2)
    hostiles: tuple[HostileSpec, ...] = ()  # hostiles placed at the start (HOSTILE-8.3.ALT-DEPLOY)
    special_rules: tuple[str, ...] = ()  # named special rules the engine applies (docs/scenarios.md)
    map: str | None = None  # the map file the scenario is played on (None: the open table of `table`)
    source: str | None = None  # the scenario file it was loaded from (None: built in code)
    sha256: str | None = None  # of the scenario file bytes (records name the scenario by it)


def build_profile(catalog: Catalog, spec: ModelSpec) -> ModelProfile:
    """Resolve a roster entry into numbers: recruit profile, armour, support weapon (CREW-7.1, ARMORY-5.3)."""
    rec = catalog.recruit(spec.level)
    armour = catalog.armour(spec.armour)
    support = any(catalog.weapon(w).is_support for w in spec.weapons)
    up = dict(spec.raises)  # CREW-7.1.LEFTOVER (GAP-41) and POST-8.5.SPEND raises
    return ModelProfile(
        name=spec.name,
        move=float(rec.move) + up.get("move", 0),
        ca=rec.ca + up.get("ca", 0),
        armour=spec.armour,
        armor=armour.armor + up.get("armor", 0),
        armour_move_mod=float(armour.move_mod),
        will=rec.will + up.get("will", 0),
        wounds=rec.wounds,
        actions=rec.actions,
        experience=rec.experience,
        base_diameter=rec.base_diameter,
        height=rec.height,
        skills=tuple(spec.skills),
        weapons=tuple(spec.weapons),
        support_weapon=support,
        leader="leader" in spec.skills,
        obscured=armour.obscured.value,
        save_dice=armour.save_dice,
        will_exempt=armour.will_exempt,
    )


def check_k_limit(scenario: Scenario, profiles: Mapping[str, list[ModelProfile]]) -> None:
    """TURN-2 / ZONE-8.1.PARITY: every crew's Khrabrost' (its members' actions per turn, CREW-7.1.KHRABROST)
    must not exceed the scenario's K limit (TV-05: 9K is legal at 9, 10 is not)."""
    if scenario.k_limit is None:
        return
    for crew in scenario.crews:
        k = sum(p.actions for p in profiles[crew.side])
        if k > scenario.k_limit:
            raise ValueError(f"scenario {scenario.id}: crew {crew.name!r} ({crew.side}) is {k}K, over the "
                             f"{scenario.k_limit}K limit (ZONE-8.1.PARITY); field fewer or less experienced "
                             f"models, or raise the scenario's k_limit")


def roster_json(crew: CrewSpec, profiles: list[ModelProfile]) -> dict[str, Any]:
    """A crew's roster as the setup event shows it (ROSTER-12.MODEL): per model its level, resolved stats
    (Move, CA, Armor, Will, Wounds, actions), armour, weapons, skills, items and grenades carried."""
    models = []
    for ms, p in zip(crew.models, profiles, strict=True):
        models.append({"id": ms.id, "name": ms.name, "level": ms.level, "experience": p.experience,
                       "actions": p.actions, "move": p.move, "ca": p.ca, "armour": p.armour, "armor": p.armor,
                       "will": p.will, "wounds": p.wounds, "weapons": list(ms.weapons), "skills": list(ms.skills),
                       "items": list(ms.items), "grenades": {g: n for g, n in ms.grenades}})
    out = {"side": crew.side, "name": crew.name, "zone": crew.zone, "controller": crew.controller,
           "khrabrost": sum(p.actions for p in profiles), "models": models}
    if crew.faction is not None:
        out["faction"] = crew.faction  # FACTION-7.2.LIST (absent for a crew without one, as before)
    return out


def new_game(
    scenario: Scenario,
    seed: int,
    *,
    settings: dict[str, Any] | None = None,
    battlefield: Battlefield | None = None,
) -> tuple[GameState, list[Event]]:
    """Set up a game (TURN-2): seed the PRNG, place nothing, roll the turn limit and the deployment order."""

    overrides = dict(settings or {})
    s = Settings(overrides, where=f"scenario {scenario.id}")
    catalog = load_catalog(s)
    if battlefield is None:
        battlefield = Battlefield(name=f"open-{scenario.id}", width=scenario.table[0], height=scenario.table[1],
                                  zones=scenario.zones)
    st = GameState(scenario=scenario.id, seed=seed, rng=Rng(seed_state(seed)), settings=s.overrides,
                   table=(battlefield.width, battlefield.height), map_path=battlefield.source,
                   map_sha256=battlefield.sha256, battlefield=battlefield)
    profiles = {crew.side: [build_profile(catalog, ms) for ms in crew.models] for crew in scenario.crews}
    check_k_limit(scenario, profiles)
    for crew in scenario.crews:
        st.sides.append(SideState(crew.side, crew.name, SideKind.CREW, crew.controller, crew.zone,
                                  faction=crew.faction))
        for ms, profile in zip(crew.models, profiles[crew.side], strict=False):
            st.units[ms.id] = UnitState(ms.id, crew.side, [ms.id])
            st.models[ms.id] = ModelState(ms.id, ms.id, crew.side, profile, items=list(ms.items),
                                          grenades=dict(ms.grenades), ammo=dict(ms.ammo))
    for t in scenario.tasks:
        st.tasks[t.id] = TaskState(t.id, t.name, t.x, t.y, t.radius, t.difficulty, t.actions, t.mechanical,
                                   t.explosive)
    for spec in scenario.locations:
        if spec.id in st.locations:
            raise ValueError(f"scenario {scenario.id}: location {spec.id!r} is given twice; ids must be unique")
        loc = spec.state()
        check_location(loc, st.table, where=f"scenario {scenario.id}")
        st.locations[loc.id] = loc
    ctx = Ctx(st, st.rng, battlefield)
    ctx.emit("setup", ("TURN-2", "ROSTER-12.MODEL"), scenario=scenario.id, scenario_name=scenario.name, seed=seed,
             settings=s.overrides, map=battlefield.source, map_sha256=battlefield.sha256,
             table=[battlefield.width, battlefield.height],
             crews=[roster_json(crew, profiles[crew.side]) for crew in scenario.crews],
             **({"locations": [{"id": loc.id, "name": loc.name, "kind": loc.kind, "point": [loc.x, loc.y],
                                "tl": loc.tl} for loc in st.locations.values()]} if st.locations else {}))
    add_key_tasks(ctx)  # SCEN-10.3.CARD: the key task of a location with a key item (`scen.g3_keycard`)
    placed = scenario_hostiles(scenario.special_rules, ctx.settings, catalog, scenario.hostiles,
                               f"scenario {scenario.id}")  # the special rules' settings (scen.g1/g2/g3.*)
    for n, hspec in enumerate(placed):
        preplace(ctx, hspec, n)  # HOSTILE-8.3.ALT-DEPLOY / AI-S.PREPLACE, before the crews deploy (TURN-2)
    st.turn_limit = roll_turn_limit(ctx, scenario.turn_limit)
    roll_environment(ctx)
    begin_deployment(ctx)
    return st, ctx.events


# --- the open-table demo (issue 2) -----------------------------------------------------------------


def _open_table_demo() -> Scenario:
    """Two crews of six on an open 36"x36" table with three complex tasks; corners 6"x6" (GAP-103)."""
    zones = (Zone(1, "corner-nw", rect(0, 0, 6, 6)), Zone(2, "corner-se", rect(30, 30, 36, 36)))
    vultures = CrewSpec("vultures", "The Vultures", "corner-nw", (
        ModelSpec("v-boris", "Boris", "leader", "military", ("assault_rifle", "pistol"),
                  ("leader", "unload"), ("electric_juice", "medkit", "red_dot"),
                  (("hand_grenade", 1), ("smoke", 1))),
        ModelSpec("v-katya", "Katya", "hardened", "civilian", ("assault_rifle", "knife"),
                  ("bone_doc",), ("medkit", "medkit"),
                  (("flash_bang", 2),)),
        ModelSpec("v-lev", "Lev", "hardened", "civilian", ("shotgun", "machete"), ("fuse_cutter",),
                  ("tool_kit", "electric_juice"), (("hand_grenade", 2), ("satchel_charge", 1))),
        ModelSpec("v-misha", "Misha", "rookie", "improvised", ("squad_lmg", "knife"), (), ("medkit",)),
        ModelSpec("v-oleg", "Oleg", "rookie", "improvised", ("flame_thrower", "knife"), (), ("binoculars",)),
        ModelSpec("v-pasha", "Pasha", "rookie", "improvised", ("pistol", "knife"), (), ("gas_mask",),
                  (("molotov", 2),)),
    ))
    wolves = CrewSpec("wolves", "The Grey Wolves", "corner-se", (
        ModelSpec("w-gennady", "Gennady", "leader", "advanced", ("battle_rifle", "pistol"),
                  ("leader", "hard"), ("medkit", "electric_juice", "scope"), (("hand_grenade", 2),)),
        ModelSpec("w-dasha", "Dasha", "hardened", "civilian", ("assault_rifle", "knife"), ("hustle",),
                  ("medkit", "red_dot")),
        ModelSpec("w-ilya", "Ilya", "hardened", "civilian", ("smg", "machete"), ("knife_man",),
                  ("electric_juice", "tool_kit"), (("smoke", 1), ("molotov", 1))),
        ModelSpec("w-kolya", "Kolya", "rookie", "improvised", ("grenade_launcher", "knife"), (), ("medkit",)),
        ModelSpec("w-nina", "Nina", "rookie", "improvised", ("shotgun", "knife"), (), ("electric_juice",),
                  (("flash_bang", 2),)),
        ModelSpec("w-sasha", "Sasha", "rookie", "improvised", ("pistol", "knife"), (), ("binoculars",)),
    ))
    tasks = (
        TaskSpec("radio", "the radio mast", 18.0, 18.0, 1.0, difficulty=1, actions=2, mechanical=True),
        TaskSpec("ied", "the roadside IED", 10.0, 26.0, 0.5, difficulty=2, actions=2, explosive=True),
        TaskSpec("locker", "the supply locker", 26.0, 10.0, 0.75, difficulty=0, actions=1),
    )
    return Scenario("open-table-demo", "Open-table demo", (36.0, 36.0), zones, (vultures, wolves), tasks,
                    notes="Two crews, no terrain: moves, tasks, orders, shooting, melee, grenades, blasts and flame.")


SCENARIOS: Mapping[str, Scenario] = MappingProxyType({s.id: s for s in (_open_table_demo(),)})
MAP_DEMO = "map-demo"


def scenario(scenario_id: str) -> Scenario:
    try:
        return SCENARIOS[scenario_id]
    except KeyError:
        raise KeyError(f"unknown scenario {scenario_id!r}; known: {sorted(SCENARIOS)}") from None


def map_demo(bf: Battlefield) -> Scenario:
    """The demo crews on a map: they deploy in the map's first two deployment zones (TURN-4); no tasks."""
    zones = [z for z in bf.zones if z.kind == "deployment"]
    if len(zones) < 2:
        raise ValueError(f"{bf.source or bf.name}: a demo needs two deployment zones, the map has {len(zones)}")
    base = _open_table_demo()
    crews = tuple(replace(c, zone=zones[i].name) for i, c in enumerate(base.crews))
    return Scenario(MAP_DEMO, f"Demo on {bf.name}", (bf.width, bf.height), (), crews,
                    notes="The demo crews on a terrain map.")
