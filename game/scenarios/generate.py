"""Generated missions (issue 16 part 3): a custom run from the Mission Table (CAMPAIGN-9.1.MISSION-TABLE) on a
shipped table with anchors, written as an ordinary scenario file (zona-alfa-scenario v1, with comments) that a
designer can edit and that loads through `resolve_scenario` and `zona-alfa check-scenario`.

    m = generate_mission(7, "ishikhov")             # or tl=2; settings=Settings(...) for mapgen.hotspots.*
    print("\\n".join(m.card)); path = write_generated(m)   # default generated/ishikhov-7.toml

The procedure (docs/scenarios.md "Generated missions"), every roll from the generator's own `random.Random`, seeded
with the first 8 bytes of SHA-256("zona-alfa-mission|<seed>|<table>") (never Python's hash()), in this order:

1. The prompt: one D6 per column (CAMPAIGN-9.1.MISSION-TABLE; TV-37: (3, 3, 4) is "Eliminate/Sabotage - Supplies -
   Old Factory"). An action row none of whose verbs this version plays (2 Defend/Protect, 6 Escort/Steal) is
   rolled again, every roll kept in the file; a D2 picks one of the row's played verbs (row 1 has one: Retrieve).
2. TL: a D3 (1-3) unless given (MISSION-8.2.TL; TL0 is scenario-only and has no Hot Spots).
3. The turn limit: 4 + D3 on a table up to 48"x48", 6 + D3 on a larger one (MISSION-8.2.TURN-LIMIT, GAP-48).
4. Eliminate/Hunt only: a D6 on the TL's Zone Hostiles Table column (HOSTILE-8.3.TABLE) names the objective's force.
5. Placement (no dice): the two deployment zones farthest apart; the MO at the anchor with equal access for both
   (see `choose_objective`); 2 x TL Hot Spots by GAP-118 (see `place_hotspots`).

The verbs and their mechanics (`VERBS`): Retrieve, Investigate, Locate: Search the objective (Investigate takes 2
actions, Locate a free Skill Check of Difficulty 1, MISSION-8.2.CLEARING). Repair, Sabotage: a Complex Task at the
objective (`[objective.task]`, CORE-3.4, Difficulty = TL, 2 actions) that some crew completes before any Search
(game.core.rules.keycard). Eliminate, Hunt: the force of the D6 above stands at the objective from the start
(HOSTILE-8.3.ALT-DEPLOY: the location is triggered, no roll); the MO is completed by the Search a crew model makes
once every model of that force is out (MISSION-8.2.CLEARING: the engine refuses the Search before). Deliver, Defend,
Protect, Escort, Steal: not played (no rule of RULES.md says what success is), so never chosen.
Crews: the starter crews `military` and `independents` and the K limit of their rosters (12, `crews_k_limit`)."""
from __future__ import annotations

import enum
import functools
import hashlib
import json
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import shapely

from game.core.battlefield import Anchor, Battlefield, Point2, Zone
from game.core.catalog import load_catalog
from game.core.geometry.movement.positions import position_fact
from game.core.record import atomic_write_text
from game.core.rules.hotspots import MIRROR_TOLERANCE_IN, Mirror, MirrorKind
from game.core.rules.locations import HOSTILE_TABLE
from game.core.rules.spawn import HOSTILE_IDS
from game.core.settings import Settings
from game.crews import load_crew
from game.maps.loader import MapError, load_map

RULES = ("CAMPAIGN-9.1.MISSION-TABLE", "MISSION-8.2.TL", "MISSION-8.2.TURN-LIMIT", "MISSION-8.2.HOTSPOT-COUNT",
         "GAP-118", "MISSION-8.2.CLEARING", "CORE-3.4", "HOSTILE-8.3.ALT-DEPLOY")
MAP_DIR = Path(__file__).resolve().parents[2] / "maps"
GENERATED_DIR = Path("generated")  # the default folder of written missions, relative to the working directory
TLS = (1, 2, 3)
CREWS = ("military", "independents")  # the default starter crews (docs/crews.md)
ACCESS_TOLERANCE_IN = 2.0  # house: the MO's distances to the two zones may differ by this much ("equal access")
ZONE_TOLERANCE_IN = 0.5  # house: the mirror must carry one deployment zone onto the other within this
SCAN_STEP_IN = 0.5  # the grid generated Hot Spots are scanned on (as game.core.rules.hotspots)
EPS = 1e-6
LARGE_TABLE_IN = 48.0  # MISSION-8.2.TURN-LIMIT / GAP-48: a side longer than this is a "larger table"


class Mechanic(enum.Enum):
    """What a verb plays as (docs/scenarios.md "Generated missions")."""

    SEARCH = "search"  # Search the objective (MISSION-8.2.CLEARING)
    TASK = "task"  # a Complex Task at the objective before its Search (CORE-3.4, [objective.task])
    FORCE = "force"  # clear the force standing at the objective, then Search it (HOSTILE-8.3.ALT-DEPLOY)


# CAMPAIGN-9.1.MISSION-TABLE: D6 -> (action, item, location)
MISSION_TABLE: dict[int, tuple[str, str, str]] = {
    1: ("Retrieve/Deliver", "Data Recorder", "Disabled Vehicle Convoy"),
    2: ("Defend/Protect", "Downed Aerial Drone", "Remote Outpost"),
    3: ("Eliminate/Sabotage", "Supplies", "Abandoned Village"),
    4: ("Investigate/Repair", "V.I.P.", "Old Factory"),
    5: ("Locate/Hunt", "Vital Component", "Military Bunker"),
    6: ("Escort/Steal", "Mutant", "Ruined City"),
}
VERBS: dict[str, Mechanic | None] = {
    "Retrieve": Mechanic.SEARCH, "Investigate": Mechanic.SEARCH, "Locate": Mechanic.SEARCH,
    "Repair": Mechanic.TASK, "Sabotage": Mechanic.TASK,
    "Eliminate": Mechanic.FORCE, "Hunt": Mechanic.FORCE,
    "Deliver": None, "Defend": None, "Protect": None, "Escort": None, "Steal": None,  # not played: never chosen
}
# The item column -> the loot the objective's Search gives (an [items] entry, like Game One's attache case)
ITEMS: dict[str, tuple[str, str]] = {
    "Data Recorder": ("data_recorder", "Data recorder"),
    "Downed Aerial Drone": ("drone_flight_computer", "Flight computer of a downed aerial drone"),
    "Supplies": ("supply_manifest", "Stamped manifest of the supply cache"),
    "V.I.P.": ("vip_dossier", "The V.I.P.'s dossier"),
    "Vital Component": ("vital_component", "Vital component"),
    "Mutant": ("mutant_sample", "Sealed mutant tissue sample"),
}
SEARCH_ACTIONS = {"Investigate": 2}  # the others: 1 (MISSION-8.2.CLEARING "may demand more actions")
SEARCH_DIFFICULTY = {"Locate": 1}  # "... or a Skill Check"
TASK_ACTIONS = 2  # house: a Repair/Sabotage task takes 2 actions (Game Three's door: 2), Difficulty = TL


class GenerateError(ValueError):
    """Bad input to the generator: `argument` names it (`--table`, `--tl`, ...); the text says what is allowed."""

    def __init__(self, argument: str, text: str) -> None:
        super().__init__(text)
        self.argument = argument


@dataclass(frozen=True, slots=True)
class HotSpot:
    """A placed Hot Spot: an anchor of the map, or a generated point (anchor None)."""

    id: str
    point: Point2
    anchor: str | None = None


@dataclass(frozen=True, slots=True)
class GeneratedMission:
    """A generated mission: the scenario file's text and what went into it."""

    seed: int
    table: str
    tl: int
    tl_given: bool
    prompt: tuple[str, str, str]  # the Mission Table's action, item and location cells
    verb: str
    mechanic: Mechanic
    rolls: Mapping[str, tuple[int, ...]]  # every die rolled, in order, by what it decided
    turn_limit: int
    objective: str  # the MO's anchor
    zones: tuple[str, str]
    mirror: str  # "centre" or "bisector"
    hotspots: tuple[HotSpot, ...]  # in pairs, the point nearer the first zone first
    force: tuple[str, int] | None  # Eliminate/Hunt: (hostile id, figures)
    toml_text: str
    path_hint: str  # generated/<table>-<seed>.toml (-tl<N> when the TL was given)

    @property
    def id(self) -> str:
        return f"gen-{self.table}-{self.seed}" + (f"-tl{self.tl}" if self.tl_given else "")

    @property
    def name(self) -> str:
        return f"{self.prompt[2]}: {self.verb} - {self.prompt[1]}"

    @property
    def card(self) -> tuple[str, ...]:
        """The mission card, as `zona-alfa generate-mission` prints it."""
        r = self.rolls
        lines = [f"{self.name} (seed {self.seed}, table {self.table})",
                 f"prompt: rolls {', '.join(str(x) for x in (r['action'][-1], r['item'][0], r['location'][0]))} -> "
                 f"{' - '.join(self.prompt)}" + (f" (action rolled {', '.join(map(str, r['action']))}: rows without "
                                                  "a played verb are rolled again)" if len(r["action"]) > 1 else ""),
                 f"verb: {self.verb} ({_verb_note(self.verb)})",
                 f"TL{self.tl}" + (" (given)" if self.tl_given else f" (D3 = {r['tl'][0]})")
                 + f", {len(self.hotspots)} Hot Spot(s); turn limit {self.turn_limit} (D3 = {r['turn_limit'][0]})",
                 f"objective: {self.objective}; deployment: {self.zones[0]} vs {self.zones[1]}; crews: "
                 f"{', '.join(CREWS)}",
                 "hot spots: " + ", ".join(f"{h.id} {_pt(h.point)}" for h in self.hotspots)]
        if self.force is not None:
            lines.append(f"force at the objective: {self.force[1]} x {self.force[0]} (D6 = {r['force'][0]} on the "
                         f"TL{self.tl} Zone Hostiles Table)")
        return tuple(lines)


def _verb_note(verb: str) -> str:
    m = VERBS[verb]
    if m is Mechanic.SEARCH:
        return "Search the objective"
    if m is Mechanic.TASK:
        return "a Complex Task at the objective, then its Search"
    return "clear the force at the objective, then Search it"


def _pt(p: Point2) -> str:
    return f"[{_num(p[0])}, {_num(p[1])}]"


def _num(x: float) -> str:
    r = round(float(x), 3)
    return str(int(r)) if r == int(r) else f"{r:g}"


def mission_prompt(action: int, item: int, location: int) -> tuple[str, str, str]:
    """CAMPAIGN-9.1.MISSION-TABLE: the three D6 results -> (action, item, location) cells (TV-37)."""
    for name, v in (("action", action), ("item", item), ("location", location)):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise ValueError(f"{name} roll is {v!r}; allowed: a D6 result 1-6")
    return MISSION_TABLE[action][0], MISSION_TABLE[item][1], MISSION_TABLE[location][2]


def mission_rng(seed: int, table: str) -> random.Random:
    """The generator's own PRNG for (seed, table): SHA-256, never hash(), so every run and machine agrees."""
    digest = hashlib.sha256(f"zona-alfa-mission|{seed}|{table}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def shipped_tables() -> tuple[str, ...]:
    """The shipped tables (maps/*.tmx) by name."""
    return tuple(sorted(p.stem for p in MAP_DIR.glob("*.tmx")))


@functools.cache
def crews_k_limit() -> int:
    """The K limit of the default crews: the largest of their rosters' own (ZONE-8.1.PARITY; 12 for the starters)."""
    return max(int(load_crew(name).doc["crew"]["k_limit"]) for name in CREWS)


@functools.lru_cache(maxsize=16)
def _read_map(path: str, stamp: tuple[int, int]) -> Battlefield:
    """A map loaded once per process and file version (`stamp`: mtime and size); a Battlefield is immutable."""
    return load_map(path)


def _table_map(name: str) -> Battlefield:
    path = MAP_DIR / f"{name}.tmx"
    st = path.stat()
    return _read_map(str(path), (st.st_mtime_ns, st.st_size))


def tables_with_anchors() -> tuple[str, ...]:
    """The shipped tables a mission can be generated on: those with anchors and two deployment zones."""
    out = []
    for name in shipped_tables():
        try:
            bf = _table_map(name)
        except (MapError, OSError):
            continue
        if _usable(bf):
            out.append(name)
    return tuple(out)


def _usable(bf: Battlefield) -> bool:
    return bool(bf.anchors) and sum(1 for z in bf.zones if z.kind == "deployment") >= 2


def load_table(table: str) -> Battlefield:
    """The shipped table `table` (a name from maps/), or GenerateError naming the tables that qualify."""
    names = shipped_tables()
    if not isinstance(table, str) or table not in names:
        raise GenerateError("--table", f"{table!r} is not a shipped table; allowed: "
                                       f"{', '.join(tables_with_anchors())} (maps/*.tmx with anchors)")
    try:
        bf = _table_map(table)
    except MapError as exc:
        raise GenerateError("--table", f"{table}: the map does not load: {exc.summary()}") from None
    except OSError as exc:
        raise GenerateError("--table", f"{table}: the map cannot be read: {exc.strerror or exc}") from None
    if not _usable(bf):
        raise GenerateError("--table", f"{table} has no anchors or fewer than two deployment zones, so no objective "
                                       f"can be placed; allowed: {', '.join(tables_with_anchors())}")
    return bf


def _d(rng: random.Random, n: int) -> int:
    return rng.randint(1, n)


def generate_mission(seed: int, table: str, *, tl: int | None = None,
                     settings: Settings | None = None) -> GeneratedMission:
    """The mission for (seed, table[, tl]): same arguments, byte-identical `toml_text` (module docstring).
    `settings`: the house settings the placement reads (`mapgen.hotspots.symmetry`, `mapgen.hotspots.min_gap`).
    GenerateError (naming `--seed`, `--table` or `--tl`) on bad input."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise GenerateError("--seed", f"{seed!r} is not a seed; allowed: a whole number from 0 to {2**64 - 1}")
    if tl is not None and (isinstance(tl, bool) or not isinstance(tl, int) or tl not in TLS):
        raise GenerateError("--tl", f"{tl!r} is not a Threat Level a generated mission plays; allowed: 1, 2 or 3 "
                                    "(MISSION-8.2.TL; TL0 is scenario-only)")
    bf = load_table(table)
    s = settings or Settings.defaults()
    rng = mission_rng(seed, table)
    action_rolls = [_d(rng, 6)]
    while not _played(MISSION_TABLE[action_rolls[-1]][0]):
        action_rolls.append(_d(rng, 6))
    item_roll, location_roll = _d(rng, 6), _d(rng, 6)
    prompt = mission_prompt(action_rolls[-1], item_roll, location_roll)
    verbs = _played(prompt[0])
    verb_roll = _d(rng, len(verbs)) if len(verbs) > 1 else 1
    verb = verbs[verb_roll - 1]
    rolls: dict[str, tuple[int, ...]] = {"action": tuple(action_rolls), "item": (item_roll,),
                                         "location": (location_roll,), "verb": (verb_roll,)}
    if tl is None:
        rolls["tl"] = (_d(rng, 3),)
        level = rolls["tl"][0]
    else:
        level = tl
    rolls["turn_limit"] = (_d(rng, 3),)
    base_turns = 6 if max(bf.width, bf.height) > LARGE_TABLE_IN + EPS else 4
    turn_limit = base_turns + rolls["turn_limit"][0]
    mechanic = VERBS[verb]
    assert mechanic is not None
    force = None
    if mechanic is Mechanic.FORCE:
        rolls["force"] = (_d(rng, 6),)
        name, figures, _anomaly = HOSTILE_TABLE[level][rolls["force"][0]]
        if level == 2 and rolls["force"][0] == 1:
            figures = int(s["hostiles.vermin_x2"])  # "Vermin Swarm (X 2)", GAP-21
        force = (HOSTILE_IDS[name], figures)
    zones = choose_zones(bf)
    mo = choose_objective(bf, zones)
    mirror = choose_mirror(bf, zones, mo, s)
    spots = place_hotspots(bf, zones, mo, mirror, level, s)
    hint = str(GENERATED_DIR / (f"{table}-{seed}" + (f"-tl{tl}" if tl is not None else "") + ".toml"))
    draft = GeneratedMission(seed, table, level, tl is not None, prompt, verb, mechanic, rolls, turn_limit, mo.name,
                             (zones[0].name, zones[1].name), mirror.kind.value, spots, force, "", hint)
    text = _toml(draft, bf, zones, mo, float(s["mapgen.hotspots.min_gap"]))
    return GeneratedMission(seed, table, level, tl is not None, prompt, verb, mechanic, rolls, turn_limit, mo.name,
                            (zones[0].name, zones[1].name), mirror.kind.value, spots, force, text, hint)


def _played(action: str) -> list[str]:
    return [v for v in action.split("/") if VERBS[v] is not None]


def write_generated(mission: GeneratedMission, out: str | Path | None = None) -> Path:
    """Write the mission's file to `out` (default: its `path_hint`, the folder made if missing); OSError when it
    cannot be written."""
    path = Path(out) if out is not None else Path(mission.path_hint)
    atomic_write_text(path, mission.toml_text)
    return path


# --- placement -------------------------------------------------------------------------------------------------

def _poly(z: Zone) -> shapely.Polygon:
    return shapely.Polygon(z.footprint)


def choose_zones(bf: Battlefield) -> tuple[Zone, Zone]:
    """The two deployment zones whose centres are farthest apart (TURN-4; ties: the map's order)."""
    zones = [z for z in bf.zones if z.kind == "deployment"]
    best: tuple[float, int, int] | None = None
    for i, a in enumerate(zones):
        for j in range(i + 1, len(zones)):
            ca, cb = _poly(a).centroid, _poly(zones[j]).centroid
            d = round(math.hypot(ca.x - cb.x, ca.y - cb.y), 6)
            if best is None or d > best[0]:
                best = (d, i, j)
    assert best is not None
    return zones[best[1]], zones[best[2]]


def _access(zones: tuple[Zone, Zone], p: Point2) -> tuple[float, float]:
    q = shapely.Point(p)
    return float(_poly(zones[0]).distance(q)), float(_poly(zones[1]).distance(q))


def choose_objective(bf: Battlefield, zones: tuple[Zone, Zone]) -> Anchor:
    """The MO's anchor (MISSION-8.2.OBJECTIVE, "equal access for both sides"): of the anchors a model can reach
    (a footprint to stand in contact with, or a point a base may stand on), those whose distances to the two zones
    differ by at most 2" (else every one), an anchor of kind "objective" first, then the least distance to the
    table centre plus access difference, then the name."""
    centre = (bf.width / 2, bf.height / 2)
    stand = _standable(bf)

    def key(a: Anchor) -> tuple[bool, bool, float, str]:
        da, db = _access(zones, a.point)
        diff = abs(da - db)
        return (diff > ACCESS_TOLERANCE_IN + EPS, a.kind != "objective",
                round(diff + math.hypot(a.point[0] - centre[0], a.point[1] - centre[1]), 6), a.name)

    usable = [a for a in bf.anchors if a.footprint or stand(a.point, a.z)]
    if not usable:
        raise GenerateError("--table", f"{bf.name}: no anchor a model can reach for the Mission Objective")
    return min(usable, key=key)


def _standable(bf: Battlefield) -> Callable[..., bool]:
    """GEO-7: may a crew base stand at (x, y) at height z? (position_fact, asked once per point)"""
    body = load_catalog(Settings.defaults()).body("human")  # GEO-3: the crew's base
    seen: dict[tuple[float, float, float], bool] = {}

    def ok(p: Point2, z: float = 0.0) -> bool:
        k = (float(p[0]), float(p[1]), float(z))
        if k not in seen:
            seen[k] = position_fact(bf, k[0], k[1], k[2], radius=body.diameter / 2, height=body.height).legal
        return seen[k]

    return ok


def _zone_error(m: Mirror, zones: tuple[Zone, Zone]) -> float:
    a, b = _poly(zones[0]), _poly(zones[1])
    image = shapely.Polygon([m.image(p) for p in a.exterior.coords])
    ci, cb = image.centroid, b.centroid
    return max(math.hypot(ci.x - cb.x, ci.y - cb.y), float(shapely.hausdorff_distance(image, b)))


def _mirrors(bf: Battlefield, zones: tuple[Zone, Zone]) -> list[Mirror]:
    """GAP-118 `mapgen.hotspots.symmetry` = "mirror_centre": the point reflection through the table centre and, when
    the two zones' centres straddle the centre, the reflection across their perpendicular bisector (a line through
    the table centre); each with its zone error."""
    centre = (bf.width / 2, bf.height / 2)
    ca, cb = _poly(zones[0]).centroid, _poly(zones[1]).centroid
    out = [Mirror(MirrorKind.CENTRE, centre)]
    mid = ((ca.x + cb.x) / 2, (ca.y + cb.y) / 2)
    dx, dy = cb.x - ca.x, cb.y - ca.y
    n = math.hypot(dx, dy)
    if n > EPS and math.hypot(mid[0] - centre[0], mid[1] - centre[1]) <= ZONE_TOLERANCE_IN:
        out.append(Mirror(MirrorKind.BISECTOR, centre, (dx / n, dy / n)))
    return [Mirror(m.kind, m.origin, m.normal, _zone_error(m, zones)) for m in out]


def choose_mirror(bf: Battlefield, zones: tuple[Zone, Zone], mo: Anchor, settings: Settings) -> Mirror:
    """The symmetry of GAP-118 (`mapgen.hotspots.symmetry`): of the mirrors about the table centre that carry the
    first zone onto the second within 0.5", the one that pairs more hotspot anchors, then the point reflection.
    GenerateError when none does (the zones are not mirror images)."""
    if settings["mapgen.hotspots.symmetry"] != "mirror_centre":  # the only value house.toml allows
        raise GenerateError("--set", f"mapgen.hotspots.symmetry = {settings['mapgen.hotspots.symmetry']!r}; "
                                     "allowed: mirror_centre")
    ok = [m for m in _mirrors(bf, zones) if m.zone_error <= ZONE_TOLERANCE_IN]
    if not ok:
        raise GenerateError("--table", f"{bf.name}: no mirror about the table centre carries {zones[0].name} onto "
                                       f"{zones[1].name} (GAP-118 places Hot Spots symmetrically for both sides)")
    gap = float(settings["mapgen.hotspots.min_gap"])
    return min(enumerate(ok), key=lambda im: (-len(_anchor_pairs(bf, im[1], zones, mo, gap)), im[0]))[1]


def _edge(bf: Battlefield, p: Point2) -> float:
    return min(p[0], bf.width - p[0], p[1], bf.height - p[1])


def _far(p: Point2, others: list[Point2], gap: float) -> bool:
    return all(math.hypot(p[0] - q[0], p[1] - q[1]) >= gap - EPS for q in others)


def _anchor_pairs(bf: Battlefield, mirror: Mirror, zones: tuple[Zone, Zone], mo: Anchor,
                  gap: float) -> list[tuple[Anchor, Anchor]]:
    """The map's hotspot anchors in mirror pairs (one's image within 4" of the other, the house tolerance of
    game.core.rules.hotspots), smallest error first, ties by name; every point >= `gap` from the edges, the MO, its
    partner and the points picked before, and a base may stand on it at the anchor's height."""
    stand = _standable(bf)
    spots = sorted((a for a in bf.anchors if a.kind == "hotspot" and a.name != mo.name
                    and _edge(bf, a.point) >= gap - EPS and _far(a.point, [mo.point], gap) and stand(a.point, a.z)),
                   key=lambda a: a.name)
    home = _poly(zones[0])
    options = []
    for i, a in enumerate(spots):
        for b in spots[i + 1:]:
            err = mirror.error(a.point, b.point)
            if err <= MIRROR_TOLERANCE_IN and _far(a.point, [b.point], gap):
                first, second = (b, a) if home.distance(shapely.Point(b.point)) < home.distance(
                    shapely.Point(a.point)) else (a, b)
                options.append((round(err, 9), a.name, b.name, first, second))
    options.sort(key=lambda o: o[:3])
    picked: list[tuple[Anchor, Anchor]] = []
    used: list[Point2] = []
    for _, _, _, first, second in options:
        if _far(first.point, used, gap) and _far(second.point, used, gap):
            picked.append((first, second))
            used += [first.point, second.point]
    return picked


def place_hotspots(bf: Battlefield, zones: tuple[Zone, Zone], mo: Anchor, mirror: Mirror, tl: int,
                   settings: Settings) -> tuple[HotSpot, ...]:
    """GAP-118, MISSION-8.2.HOTSPOT-COUNT: 2 x TL Hot Spots in mirror pairs (`mirror`), each >= the
    `mapgen.hotspots.min_gap` setting (6") from the table edges, from every other Hot Spot and from the MO, on a
    spot a base may stand: the map's hotspot anchors first (`_anchor_pairs`), then generated pairs from a 0.5" scan,
    each the pair farthest from the points already chosen, the MO and the map's deployment zones (maximin: "spread
    evenly", MISSION-8.2.HOTSPOT-COUNT), ties in
    scan order (y, then x). GenerateError when the table has no room."""
    gap = float(settings["mapgen.hotspots.min_gap"])
    pairs = _anchor_pairs(bf, mirror, zones, mo, gap)[:tl]
    out = [HotSpot(a.name, (float(a.point[0]), float(a.point[1])), a.name) for p in pairs for a in p]
    chosen = [h.point for h in out] + [(float(mo.point[0]), float(mo.point[1]))]
    want = tl - len(pairs)
    if want:
        names = {a.name for a in bf.anchors}
        n = 0
        for pair in _generated_pairs(bf, mirror, zones, chosen, want, gap):
            for p in pair:
                n += 1
                while f"hotspot-g{n}" in names:
                    n += 1
                out.append(HotSpot(f"hotspot-g{n}", p))
    return tuple(out)


def _generated_pairs(bf: Battlefield, mirror: Mirror, zones: tuple[Zone, Zone], chosen: list[Point2], count: int,
                     gap_in: float) -> list[tuple[Point2, Point2]]:
    stand = _standable(bf)
    xs = np.arange(gap_in, bf.width - gap_in + EPS, SCAN_STEP_IN)
    ys = np.arange(gap_in, bf.height - gap_in + EPS, SCAN_STEP_IN)
    gy, gx = np.meshgrid(ys, xs, indexing="ij")
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    if len(pts) == 0:
        _no_room(bf, count, 0, gap_in)
    imgs = np.array([mirror.image((float(x), float(y))) for x, y in pts]).reshape(-1, 2)
    edge = np.minimum(np.minimum(imgs[:, 0], bf.width - imgs[:, 0]), np.minimum(imgs[:, 1], bf.height - imgs[:, 1]))
    gap = np.hypot(pts[:, 0] - imgs[:, 0], pts[:, 1] - imgs[:, 1])
    for q in chosen:
        gap = _closer(gap, pts, imgs, q)
    to_zones = np.full(len(pts), np.inf)  # the spread keeps away from every deployment zone of the map too
    for z in (z for z in bf.zones if z.kind == "deployment"):
        poly = _poly(z)
        to_zones = np.minimum(to_zones, np.minimum(shapely.distance(poly, shapely.points(pts)),
                                                   shapely.distance(poly, shapely.points(imgs))))
    free = (gap >= gap_in - EPS) & (edge >= gap_in - EPS)
    home = _poly(zones[0])
    out: list[tuple[Point2, Point2]] = []
    while len(out) < count:
        spread = np.round(np.where(free, np.minimum(gap, to_zones), -1.0), 9)
        pair = None
        for k in np.argsort(-spread, kind="stable"):
            if not free[k]:
                break
            a, b = (float(pts[k, 0]), float(pts[k, 1])), (float(imgs[k, 0]), float(imgs[k, 1]))
            if stand(a) and stand(b):
                pair = (a, b)
                break
            free[k] = False
        if pair is None:
            _no_room(bf, count, len(out), gap_in)
            break
        a, b = pair
        if home.distance(shapely.Point(b)) < home.distance(shapely.Point(a)):
            a, b = b, a
        out.append((a, b))
        for q in (a, b):
            gap = _closer(gap, pts, imgs, q)
        free &= gap >= gap_in - EPS
    return out


def _closer(gap: np.ndarray, pts: np.ndarray, imgs: np.ndarray, q: Point2) -> np.ndarray:
    return np.minimum(gap, np.minimum(np.hypot(pts[:, 0] - q[0], pts[:, 1] - q[1]),
                                       np.hypot(imgs[:, 0] - q[0], imgs[:, 1] - q[1])))


def _no_room(bf: Battlefield, count: int, found: int, gap: float) -> None:
    raise GenerateError("--tl", f"{bf.name}: room for only {found} of the {count} generated Hot Spot pairs GAP-118 "
                                f"asks for ({gap:g}\" from the edges, each other and the MO, "
                                f"mapgen.hotspots.min_gap) on a {bf.width:g}\"x{bf.height:g}\" table; use a lower TL")


# --- the file --------------------------------------------------------------------------------------------------

def _q(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's for these texts)."""
    return json.dumps(text, ensure_ascii=False)


def _toml(m: GeneratedMission, bf: Battlefield, zones: tuple[Zone, Zone], mo: Anchor, gap: float) -> str:
    item_id, item_name = ITEMS[m.prompt[1]]
    r = m.rolls
    left_out = [v for v in m.prompt[0].split("/") if VERBS[v] is None]
    action_note = (f"action D6 {', '.join(map(str, r['action']))} (2 and 6 rolled again: no played verb)"
                   if len(r["action"]) > 1 else f"action D6 {r['action'][0]}")
    verb_note = (f"{m.verb} (D2 = {r['verb'][0]} of {m.prompt[0]})" if len(_played(m.prompt[0])) > 1 else
                 f"{m.verb} ({', '.join(left_out)} is not played by this version, docs/scenarios.md)")
    lines = [
        f"# Generated mission (CAMPAIGN-9.1.MISSION-TABLE): zona-alfa generate-mission --seed {m.seed} --table "
        f"{m.table}" + (f" --tl {m.tl}" if m.tl_given else ""),
        "# The same command writes this file again byte for byte. Edit freely: it is an ordinary scenario file",
        "# (docs/scenarios.md, \"Generated missions\"); check it with zona-alfa check-scenario FILE.",
        f"# Prompt: {action_note}, item D6 {r['item'][0]}, location D6 {r['location'][0]}",
        f"# -> {' - '.join(m.prompt)}.",
        f"# Verb: {verb_note}: {_verb_note(m.verb)}.",
        "format = \"zona-alfa-scenario\"",
        "version = 1",
        f"id = {_q(m.id)}",
        f"name = {_q(m.name)}",
        f"map = {_q(m.table)}",
        _commented(f"tl = {m.tl}", "given (--tl)" if m.tl_given else f"D3 = {r['tl'][0]} (MISSION-8.2.TL)"),
        _commented(f"turn_limit = {m.turn_limit}",
                   f"{m.turn_limit - r['turn_limit'][0]} + D3 (D3 = {r['turn_limit'][0]}) on a {_num(bf.width)}\"x"
                   f"{_num(bf.height)}\" table (MISSION-8.2.TURN-LIMIT)"),
        _commented(f"k_limit = {crews_k_limit()}", "the starter crews' K limit (ZONE-8.1.PARITY)"),
        f"crews = [{', '.join(_q(c) for c in CREWS)}]",
        "victory = \"objective_then_advances\"",
        "rules = [" + ", ".join(_q(x) for x in _rules(m)[:4]) + ",",
        "         " + ", ".join(_q(x) for x in _rules(m)[4:]) + "]",
        f"notes = {_q(_notes(m))}",
    ]
    lines += ["", f"# GAP-118: {len(m.hotspots)} Hot Spots (2 x TL) in mirror pairs "
              + ("through the table centre" if m.mirror == "centre" else "across the line through the table centre "
                 "between the zones") + ",",
              f"# each >= {gap:g}\" from the edges, from each other and from the MO (mapgen.hotspots.min_gap);",
              "# the map's hotspot anchors first, then generated points spread as far apart as the table allows.",
              "# Triggered, each rolls on its TL's Zone Hostiles Table (HOSTILE-8.3.ROLL).",
              "hotspots = ["]
    for h in m.hotspots:
        where = f"anchor = {_q(h.anchor)}" if h.anchor else f"point = {_pt(h.point)}"
        short = h.id.removeprefix("hotspot-") or h.id
        name = f"Hot Spot {short}" + ("" if h.anchor else " (generated)")
        lines.append(f"    {{ {where}, id = {_q(h.id)}, name = {_q(name)} }},")
    lines += ["]", "", "[items]", f"{item_id} = {_q(item_name)}", "",
              "# The two deployment zones farthest apart (TURN-4)."]
    for z in zones:
        x0, y0, x1, y1 = _poly(z).bounds
        lines += ["[[deployment]]", f"zone = {_q(z.name)}", f"size = [{_num(x1 - x0)}, {_num(y1 - y0)}]", ""]
    da, db = _access(zones, mo.point)
    lines += [f"# The MO at the anchor {mo.name!r} {_pt(mo.point)}: {_num(da)}\" from {zones[0].name}, {_num(db)}\" "
              f"from {zones[1].name} (equal access).", *_objective_comment(m), "[objective]",
              f"anchor = {_q(mo.name)}", f"name = {_q(_objective_name(m))}"]
    if mo.footprint:
        lines.append(_commented("footprint = true", "a searcher stands in base contact with it (GAP-53)"))
    if m.verb in SEARCH_ACTIONS:
        lines.append(f"search_actions = {SEARCH_ACTIONS[m.verb]}")
    if m.verb in SEARCH_DIFFICULTY:
        lines.append(f"search_difficulty = {SEARCH_DIFFICULTY[m.verb]}")
    lines += ["", "[objective.loot]", f"items = [{_q(item_id)}]",
              _commented("tl_roll = true", "the MO's free TL Salvage roll (MISSION-8.2.OBJECTIVE)")]
    if m.mechanic is Mechanic.TASK:
        task = f"the {m.verb.lower()} ({m.prompt[1]})"
        lines += ["", "# CORE-3.4: every crew is barred from the Search until some model completes this task (no item "
                  "spares it).", "[objective.task]", f"difficulty = {m.tl}", f"actions = {TASK_ACTIONS}",
                  f"name = {_q(task)}"]
    if m.force is not None:
        hostile, figures = m.force
        lines += ["", f"# The objective's force: D6 = {r['force'][0]} on the TL{m.tl} Zone Hostiles Table "
                  "(HOSTILE-8.3.TABLE), placed at the start",
                  "# (HOSTILE-8.3.ALT-DEPLOY, AI-S.PREPLACE): the MO counts as triggered and is cleared when all "
                  "of them are out.", "[[hostiles]]", f"hostile = {_q(hostile)}", f"figures = {figures}",
                  "location = \"objective\""]
    return "\n".join(lines) + "\n"


def _commented(line: str, comment: str) -> str:
    return f"{line:<29} # {comment}"


def _rules(m: GeneratedMission) -> list[str]:
    out = ["CAMPAIGN-9.1.MISSION-TABLE", "MISSION-8.2.TURN-LIMIT", "MISSION-8.2.HOTSPOT-COUNT", "GAP-118",
           "MISSION-8.2.CLEARING"]
    if m.mechanic is Mechanic.TASK:
        out.append("CORE-3.4")
    if m.mechanic is Mechanic.FORCE:
        out.append("HOSTILE-8.3.ALT-DEPLOY")
    return [*out, "SCEN-10.5.VICTORY"]


def _objective_name(m: GeneratedMission) -> str:
    return f"The {m.prompt[1]} at the {m.prompt[2]}"


def _notes(m: GeneratedMission) -> str:
    what = {"Retrieve": "Find the {item} and bring it out.",
            "Investigate": "Investigate the objective (a Search of 2 actions) for the {item}.",
            "Locate": "Locate the {item}: a Search with a free Skill Check (Difficulty 1).",
            "Repair": "Repair (a Complex Task at the objective), then Search it for the {item}.",
            "Sabotage": "Sabotage (a Complex Task at the objective), then Search it for the {item}.",
            "Eliminate": "Eliminate the force at the objective, then Search it for the {item}.",
            "Hunt": "Hunt down the force at the objective, then Search it for the {item}."}[m.verb]
    return f"{m.prompt[2]}. " + what.format(item=m.prompt[1])


def _objective_comment(m: GeneratedMission) -> list[str]:
    if m.mechanic is Mechanic.SEARCH:
        return ["# Triggered, it rolls on its TL's Zone Hostiles Table; once that force is out a Search completes the "
                "MO (MISSION-8.2.CLEARING)."]
    if m.mechanic is Mechanic.TASK:
        return ["# Triggered, it rolls on its TL's table; the Search that completes the MO needs its force out and "
                "the task below done."]
    return ["# Eliminate/Hunt: the MO is completed by the Search a crew model makes once every model of the force "
            "below is out", "# (MISSION-8.2.CLEARING: the engine refuses the Search before)."]
