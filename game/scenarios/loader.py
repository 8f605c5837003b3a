"""Scenario files (TOML, `format = "zona-alfa-scenario"`, `version = 1`): read, validated against their map and the
catalog, and built into a `Scenario` and its `Battlefield` (TURN-2 "load scenario card"). docs/scenarios.md is the
designer's guide; every problem is reported at once as `file: field: what is wrong; allowed: ...` (ScenarioError).

    sf = resolve_scenario("crossroads-blyatsk")       # a shipped name (scenarios/<name>.toml) or a path
    scenario, battlefield = sf.build(crews)            # crews: CrewSpecs, deployed in the file's zones in order
    state, events = new_game(scenario, seed, settings=sf.settings, battlefield=battlefield)
"""
from __future__ import annotations

import hashlib
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import shapely

import game.scenarios.fields as f
from game.core.battlefield import Anchor, Battlefield, Zone
from game.core.catalog import Catalog, load_catalog
from game.core.catalog.profiles import EquipmentTable
from game.core.rules.hotspots import HOTSPOTS_PER_TL, demo_locations
from game.core.rules.preplace import STAT_FIELDS, HostileSpec
from game.core.rules.setup import (
    CrewSpec,
    FixedSpawn,
    KeyTask,
    LocationSpec,
    LootSpec,
    Scenario,
    build_profile,
)
from game.core.rules.special_rules import setting_fields
from game.core.settings import Settings, SettingsError
from game.maps.loader import MapError, load_map
from game.scenarios.problems import Collector, Problem, ScenarioError
from game.scenarios.special import check_special

FORMAT = "zona-alfa-scenario"
VERSION = 1
ROOT = Path(__file__).resolve().parents[2]
SCENARIO_DIR = ROOT / "scenarios"
MAP_DIR = ROOT / "maps"
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
TOP = ("format", "version", "id", "name", "map", "tl", "turn_limit", "k_limit", "notes", "rules", "crews",
       "deployment", "objective", "hotspots", "hostiles", "special_rules", "victory", "settings", "items")
OBJECTIVE = ("id", "name", "anchor", "point", "footprint", "tl", "search_actions", "search_difficulty",
             "hostile_actions", "loot", "fixed_spawn", "key", "task")
HOTSPOT = ("id", "name", "anchor", "point", "tl", "search_actions", "search_difficulty", "hostile_actions")
HOSTILE = ("hostile", "figures", "location", "anchor", "at", "sites", "site_group", "leash", "force", "name",
           "actions", "alert", "stats", "armour", "weapons", "items", "grenades", "converge")
LOOT = ("items", "grenades", "equipment_rolls", "value", "tl_roll")
VICTORY = ("objective_then_advances",)  # SCEN-10.5.VICTORY (`scen.victory`)
MAX_TURNS = 20
HOTSPOTS_GENERATE = "generate"


@dataclass(frozen=True, slots=True)
class Deployment:
    """A crew's deployment zone (TURN-4): a map zone name, and the size the card gives it (checked when given)."""

    zone: str
    size: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class ScenarioFile:
    """A validated scenario file and its loaded map; `build(crews)` makes the playable Scenario."""

    path: str  # as given (a shipped name resolves to the file under scenarios/)
    id: str
    name: str
    sha256: str
    battlefield: Battlefield
    tl: int
    turn_limit: int | None
    k_limit: int | None
    crew_names: tuple[str, ...]  # the default crews (roster ids of game.crews)
    deployment: tuple[Deployment, ...]
    locations: tuple[LocationSpec, ...]
    hostiles: tuple[HostileSpec, ...]
    special_rules: tuple[str, ...]
    settings: dict[str, Any]  # overrides of the house settings (new_game(settings=...))
    victory: str
    items: Mapping[str, str]  # scenario-only items by id (the attache case, the keycard)
    notes: str = ""
    rules: tuple[str, ...] = ()
    doc: dict[str, Any] = field(default_factory=dict, repr=False)

    def build(self, crews: Sequence[CrewSpec] | None = None, *, solo: bool = False) -> tuple[Scenario, Battlefield]:
        """The Scenario with these crews, one per deployment zone in order (TURN-4); ScenarioError when their number
        differs from the zones', a crew cannot fit its zone or is over the K limit (ZONE-8.1.PARITY). `crews`
        None: the default crews, which game.crews loads (the caller passes them; this package does not import it).
        `solo`: exactly one crew, against the Zone alone, in the first zone; the other zones stay empty
        (docs/scenarios.md, SCEN-10.5.VICTORY with one crew)."""
        if crews is None:
            raise ScenarioError([Problem(self.path, "crews", "no crews were given to build with",
                                         f"the caller loads the default crews {', '.join(self.crew_names)} "
                                         "(game.crews) or others and passes them")])
        c = Collector(self.path)
        check_crews(c, self, crews, solo=solo)
        c.raise_if_any()
        zones = self.deployment[:1] if solo else self.deployment
        placed = tuple(replace(crew, zone=d.zone) for crew, d in zip(crews, zones, strict=True))
        scen = Scenario(self.id, self.name, (self.battlefield.width, self.battlefield.height), (), placed,
                        turn_limit=self.turn_limit, notes=self.notes,
                        extra={"victory": self.victory, "tl": self.tl, "settings": dict(self.settings)},
                        k_limit=self.k_limit, locations=self.locations, hostiles=self.hostiles,
                        special_rules=self.special_rules, map=self.battlefield.source, source=self.path,
                        sha256=self.sha256)
        return scen, self.battlefield


def check_crews(c: Collector, sf: ScenarioFile, crews: Sequence[CrewSpec], *, solo: bool = False) -> None:
    """One crew per deployment zone (`solo`: one crew, in the first zone); each crew fits its zone (its bases'
    squares, 1" apart at most, within the zone's area: "a deployment zone too small for the crew"); each within the
    K limit (ZONE-8.1.PARITY)."""
    zones = sf.deployment[:1] if solo else sf.deployment
    if solo and len(crews) != 1:
        c.add("crews", f"{len(crews)} crew(s) given for a solo game", "one crew, against the Zone alone")
        return
    if len(crews) != len(zones):
        c.add("crews", f"{len(crews)} crew(s) given for {len(sf.deployment)} deployment zone(s)",
              "one crew per [[deployment]] zone")
        return
    settings = Settings(dict(sf.settings), where=sf.path)
    catalog = load_catalog(settings)
    for i, (crew, d) in enumerate(zip(crews, zones, strict=True)):
        try:
            profiles = [build_profile(catalog, m) for m in crew.models]
        except (KeyError, ValueError) as exc:
            c.add(f"crews[{i}]", f"crew {crew.name!r} cannot be built: {exc}", "catalog weapons, armour, levels")
            continue
        zone = sf.battlefield.zone(d.zone)
        area = shapely.Polygon(zone.footprint).area
        need = sum(p.base_diameter ** 2 for p in profiles)
        if need > area + 1e-9:
            c.add(f"deployment[{i}].zone", f"zone {d.zone!r} ({area:g} sq in) is too small for crew {crew.name!r} "
                                           f"({len(profiles)} models need {need:g} sq in, a base-wide square each)",
                  "a larger zone or a smaller crew (TURN-4: every model wholly inside its zone)")
        k = sum(p.actions for p in profiles)
        if sf.k_limit is not None and k > sf.k_limit:
            c.add(f"crews[{i}]", f"crew {crew.name!r} is {k}K, over the scenario's {sf.k_limit}K limit",
                  f"a crew of at most {sf.k_limit}K (ZONE-8.1.PARITY, CREW-7.1.K-LIMITS)")


# --- resolving a name or a path -----------------------------------------------------------------------------


def known_scenarios() -> tuple[str, ...]:
    """The shipped scenario names (scenarios/*.toml), sorted."""
    return tuple(sorted(p.stem for p in SCENARIO_DIR.glob("*.toml")))


class ScenarioNotFound(ScenarioError):
    """A name that is no shipped scenario and a path that names no readable file (a CLI exits 2)."""


def scenario_path(name_or_path: str) -> Path:
    """A shipped name -> scenarios/<name>.toml; anything else is a path (ScenarioNotFound when unreadable)."""
    p = Path(name_or_path)
    if p.suffix != ".toml" and "/" not in name_or_path and os.sep not in name_or_path:
        shipped = SCENARIO_DIR / f"{name_or_path}.toml"
        if shipped.is_file():
            return shipped
        raise ScenarioNotFound([Problem(name_or_path, "scenario", "no shipped scenario of this name and no such file",
                                        f"a file path, or one of {', '.join(known_scenarios())}")])
    if not p.is_file():
        raise ScenarioNotFound([Problem(name_or_path, "scenario", "no readable file at this path",
                                        f"a scenario .toml file, or one of {', '.join(known_scenarios())}")])
    return p


def resolve_scenario(name_or_path: str) -> ScenarioFile:
    """Read, validate and load a scenario (its map included); ScenarioError lists every problem."""
    p = scenario_path(name_or_path)
    shown = name_or_path if Path(name_or_path).suffix == ".toml" else _shown(p)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ScenarioNotFound([Problem(shown, "scenario", f"cannot be read ({exc.strerror})",
                                        "a readable scenario .toml file")]) from None
    return parse_scenario(data, shown, base=p.parent)


def _shown(p: Path) -> str:
    """A path as records and messages name it: relative to the working directory when under it."""
    rel = os.path.relpath(p.resolve())
    return rel if not rel.startswith("..") else str(p.resolve())


def parse_scenario(data: bytes, file: str, *, base: Path) -> ScenarioFile:
    """Validate the bytes of a scenario file (`file` names it in problems; `base` is where its map path starts)."""
    c = Collector(file)
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ScenarioError([Problem(file, "file", "is not UTF-8 text", "a TOML file in UTF-8")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError([Problem(file, "file", f"is not valid TOML ({exc})", "a TOML file")]) from None
    fmt = doc.get("format")
    if fmt != FORMAT:
        c.add("format", f"is {fmt!r}" if "format" in doc else "missing", f'"{FORMAT}"')
    ver = doc.get("version")
    if isinstance(ver, bool) or ver != VERSION:
        c.add("version", f"is {ver!r}" if "version" in doc else "missing", f"{VERSION} (this engine reads version "
                                                                           f"{VERSION})")
    c.raise_if_any()  # another format or version: its other fields mean nothing to this reader
    f.keys(c, doc, "", TOP)
    sid = f.text(c, doc, "id")
    if sid is not None and not ID_RE.match(sid):
        c.add("id", f"is {sid!r}", "lowercase letters, digits and '-', starting with a letter or digit")
    name = f.text(c, doc, "name")
    tl = f.integer(c, doc, "tl", lo=0, hi=3)
    if "tl" in doc and tl is None:
        c.problems[-1] = Problem(file, "tl", c.problems[-1].what, "a Threat Level 0, 1, 2 or 3 (MISSION-8.2.TL)")
    turn_limit = f.integer(c, doc, "turn_limit", lo=1, hi=MAX_TURNS, default=None)
    k_limit = f.integer(c, doc, "k_limit", lo=1, hi=100, default=12)
    notes = f.text(c, doc, "notes", default="") or ""
    rules = f.strings(c, doc, "rules", default=[]) or []
    crews = f.strings(c, doc, "crews", default=None)
    victory = f.text(c, doc, "victory", default=VICTORY[0], choices=VICTORY)
    settings = _settings(c, doc)
    items = _items(c, doc)
    bf = _map(c, doc, base)
    catalog = load_catalog(Settings(settings)) if settings is not None else load_catalog(Settings({}))
    deployment = _deployment(c, doc, bf)
    zones_given = len(doc["deployment"]) if isinstance(doc.get("deployment"), list) else 0
    if crews is not None and zones_given and len(crews) != zones_given:
        c.add("crews", f"names {len(crews)} crew(s) for {zones_given} deployment zone(s)",
              "one default crew per [[deployment]] zone")
    locations = _locations(c, doc, bf, tl, catalog, items, settings or {})
    hostiles = _hostiles(c, doc, bf, locations, catalog)
    special = check_special(c, doc, f.strings(c, doc, "special_rules", default=[]) or [])
    if settings is not None:
        _check_rule_settings(c, special, settings, catalog, hostiles, doc)
    c.raise_if_any()
    assert bf is not None and sid is not None and name is not None and tl is not None
    return ScenarioFile(file, sid, name, hashlib.sha256(data).hexdigest(), bf, tl, turn_limit, k_limit,
                        tuple(crews or ()), tuple(deployment), tuple(locations), tuple(hostiles), special,
                        dict(settings or {}), victory or VICTORY[0], items, notes, tuple(rules), doc)


# --- the parts ---------------------------------------------------------------------------------------------


def _settings(c: Collector, doc: Mapping[str, Any]) -> dict[str, Any] | None:
    raw = f.table(c, doc, "settings")
    if raw is None:
        return {} if "settings" not in doc else None
    flat: dict[str, Any] = {}

    def walk(prefix: str, t: Mapping[str, Any]) -> None:  # [settings] "ai.alert" = true, or nested tables
        for k, v in t.items():
            key = f"{prefix}.{k}" if prefix else k
            if isinstance(v, dict):
                walk(key, v)
            else:
                flat[key] = v

    walk("", raw)
    try:
        Settings(flat, where="[settings]")
    except SettingsError as exc:
        c.add("settings", str(exc).removeprefix("[settings]: "),
              "house settings by key (docs/settings.md) at values they allow")
        return None
    return flat


def _items(c: Collector, doc: Mapping[str, Any]) -> dict[str, str]:
    raw = f.table(c, doc, "items")
    out: dict[str, str] = {}
    for k, v in (raw or {}).items():
        if not ID_RE.match(k.replace("_", "-")):
            c.add(f"items.{k}", "is not an id", "lowercase letters, digits, '_' and '-'")
        elif not isinstance(v, str) or not v.strip():
            c.add(f"items.{k}", f"is {v!r}", "the item's name, a non-empty string")
        else:
            out[k] = v
    return out


def _map(c: Collector, doc: Mapping[str, Any], base: Path) -> Battlefield | None:
    ref = f.text(c, doc, "map", allowed="a shipped map name or a .tmx path relative to the scenario file")
    if ref is None:
        return None
    if "/" not in ref and not ref.endswith(".tmx"):
        path = MAP_DIR / f"{ref}.tmx"
        shipped = sorted(p.stem for p in MAP_DIR.glob("*.tmx"))
        if not path.is_file():
            c.add("map", f"{ref!r} is no shipped map", f"{', '.join(shipped)}, or a .tmx path")
            return None
    else:
        path = (base / ref) if not Path(ref).is_absolute() else Path(ref)
        if not path.is_file():
            c.add("map", f"no map file at {ref!r} (looked at {path})", "a .tmx path relative to the scenario file")
            return None
    try:
        return load_map(_shown(path))
    except MapError as exc:
        c.add("map", f"the map cannot be loaded: {exc.summary()}", "a map that `zona-alfa check-map` accepts")
    except (OSError, ValueError) as exc:
        c.add("map", f"the map cannot be loaded: {exc}", "a map that `zona-alfa check-map` accepts")
    return None


def _anchor(c: Collector, bf: Battlefield | None, name: Any, field: str) -> Anchor | None:
    if bf is None:
        return None
    if not isinstance(name, str):
        c.add(field, f"is {name!r}", "a map anchor name")
        return None
    for a in bf.anchors:
        if a.name == name:
            return a
    c.add(field, f"no anchor {name!r} on {bf.source or bf.name}", ", ".join(sorted(a.name for a in bf.anchors)))
    return None


def _on_table(c: Collector, bf: Battlefield | None, p: tuple[float, float] | None, field: str) -> None:
    if bf is not None and p is not None and not (0 <= p[0] <= bf.width and 0 <= p[1] <= bf.height):
        c.add(field, f"({p[0]:g}, {p[1]:g}) is off the table", f"0 <= x <= {bf.width:g}, 0 <= y <= {bf.height:g}")


def _where(c: Collector, bf: Battlefield | None, t: Mapping[str, Any], path: str) \
        -> tuple[tuple[float, float] | None, Anchor | None]:
    """`anchor` (a map anchor name) or `point` ([x, y]): exactly one."""
    if ("anchor" in t) == ("point" in t):
        c.add(path, "gives both `anchor` and `point`" if "anchor" in t else "gives neither `anchor` nor `point`",
              "exactly one: an anchor name of the map, or a point [x, y]")
        return None, None
    if "anchor" in t:
        a = _anchor(c, bf, t["anchor"], f"{path}.anchor")
        return (a.point if a else None), a
    p = f.point(c, t["point"], f"{path}.point")
    _on_table(c, bf, p, f"{path}.point")
    return p, None


def _deployment(c: Collector, doc: Mapping[str, Any], bf: Battlefield | None) -> list[Deployment]:
    raw = doc.get("deployment")
    if raw is None:
        c.add("deployment", "missing", "[[deployment]] tables, one per crew: zone = a map zone name")
        return []
    if not isinstance(raw, list) or not raw or not all(isinstance(x, dict) for x in raw):
        c.add("deployment", f"is {raw!r}", "[[deployment]] tables, one per crew: zone = a map zone name")
        return []
    zones = [z for z in bf.zones if z.kind == "deployment"] if bf is not None else []
    out: list[Deployment] = []
    for i, t in enumerate(raw):
        path = f"deployment[{i}]"
        f.keys(c, t, path, ("zone", "size"))
        zname = f.text(c, t, "zone", path)
        size = None
        if "size" in t:
            size = f.point(c, t["size"], f"{path}.size")
            if size is not None and min(size) <= 0:
                c.add(f"{path}.size", f"is {list(size)}", "[width, height] in inches, both > 0")
                size = None
        if zname is None:
            continue
        if any(d.zone == zname for d in out):
            c.add(f"{path}.zone", f"zone {zname!r} is given twice", "a different zone for each crew")
            continue
        if bf is not None:
            zone = next((z for z in zones if z.name == zname), None)
            if zone is None:
                c.add(f"{path}.zone", f"no deployment zone {zname!r} on {bf.source or bf.name}",
                      ", ".join(z.name for z in zones) or "the map has none")
                continue
            if size is not None:
                _check_size(c, zone, size, f"{path}.size")
        out.append(Deployment(zname, size))
    return out


def _check_size(c: Collector, zone: Zone, size: tuple[float, float], field: str) -> None:
    """The card's size (e.g. 6"x6", SCEN-10.1.CARD) against the map zone's bounding box, to 0.25"."""
    poly = shapely.Polygon(zone.footprint)
    x0, y0, x1, y1 = poly.bounds
    w, h = x1 - x0, y1 - y0
    if sorted((round(w, 2), round(h, 2))) != sorted((round(size[0], 2), round(size[1], 2))) and not (
            abs(w - size[0]) <= 0.25 and abs(h - size[1]) <= 0.25):
        c.add(field, f"the card gives {size[0]:g}\"x{size[1]:g}\" but zone {zone.name!r} is {w:g}\"x{h:g}\"",
              "the zone's own size (or drop `size`)")


def _search(c: Collector, t: Mapping[str, Any], path: str) -> tuple[Any, Any, Any]:
    return (f.integer(c, t, "search_actions", path, lo=1, hi=10, default=1),
            f.integer(c, t, "search_difficulty", path, lo=0, hi=10, default=None),
            f.integer(c, t, "hostile_actions", path, lo=1, hi=3, default=None))


def _locations(c: Collector, doc: Mapping[str, Any], bf: Battlefield | None, tl: int | None, cat: Catalog,
               items: Mapping[str, str], settings: Mapping[str, Any]) -> list[LocationSpec]:
    out: list[LocationSpec] = []
    spots = doc.get("hotspots", [])
    if spots == HOTSPOTS_GENERATE:
        if tl is not None and bf is not None:
            if tl == 0:
                c.add("hotspots", "is \"generate\" at TL0", "[] at TL0 (White: no Hot Spots, MISSION-8.2.TL)")
            else:
                try:
                    gen = demo_locations(bf, tl, settings=Settings(dict(settings)))
                    out += [loc for loc in gen if loc.kind == "hotspot"]
                except ValueError as exc:
                    c.add("hotspots", f"cannot be generated: {exc}", "a list of anchors or points")
    elif isinstance(spots, list):
        for i, s in enumerate(spots):
            path = f"hotspots[{i}]"
            t: Mapping[str, Any] = {"anchor": s} if isinstance(s, str) else s
            if not isinstance(t, dict):
                c.add(path, f"is {s!r}", "an anchor name, or a table {anchor|point, id, name, tl, search_actions}")
                continue
            f.keys(c, t, path, HOTSPOT)
            p, a = _where(c, bf, t, path)
            ltl = f.integer(c, t, "tl", path, lo=1, hi=3, default=tl)
            if tl == 0 and "tl" not in t:
                c.add(path, "a Hot Spot in a TL0 scenario", "no Hot Spots at TL0 (MISSION-8.2.TL)")
            sa, sd, ha = _search(c, t, path)
            lid = f.text(c, t, "id", path, default=a.name if a else f"hotspot-{i + 1}")
            lname = f.text(c, t, "name", path, default=f"Hot Spot {lid}")
            if p is not None and lid and ltl is not None and sa is not None:
                out.append(LocationSpec(lid, lname, "hotspot", p, ltl, (), sa, sd, ha))
        if tl is not None and tl > 0 and len(spots) != HOTSPOTS_PER_TL * tl:
            c.add("hotspots", f"gives {len(spots)} Hot Spot(s) at TL{tl}",
                  f"{HOTSPOTS_PER_TL * tl} (2 x TL, MISSION-8.2.HOTSPOT-COUNT), or \"generate\"")
    else:
        c.add("hotspots", f"is {spots!r}", "a list of anchors/points, or \"generate\" (GAP-118)")
    obj = f.table(c, doc, "objective")
    if obj is None and "objective" not in doc:
        c.add("objective", "missing", "an [objective] table (MISSION-8.2.INGREDIENTS: one Mission Objective)")
    if obj is not None:
        spec = _objective(c, obj, bf, tl, cat, items)
        if spec is not None:
            out.append(spec)
    seen: set[str] = set()
    for loc in out:
        if loc.id in seen:
            c.add("hotspots" if loc.kind == "hotspot" else "objective.id", f"location id {loc.id!r} is used twice",
                  "a unique id per location")
        seen.add(loc.id)
    return out


def _objective(c: Collector, t: Mapping[str, Any], bf: Battlefield | None, tl: int | None, cat: Catalog,
               items: Mapping[str, str]) -> LocationSpec | None:
    path = "objective"
    f.keys(c, t, path, OBJECTIVE)
    p, a = _where(c, bf, t, path)
    otl = f.integer(c, t, "tl", path, lo=0, hi=3, default=tl)
    sa, sd, ha = _search(c, t, path)
    footprint: tuple[tuple[float, float], ...] = ()
    fp = t.get("footprint", False)
    if fp is True:
        if a is not None and not a.footprint:
            c.add(f"{path}.footprint", f"anchor {a.name!r} has no footprint", "false, or a list of points")
        elif a is not None and a.footprint:
            footprint = tuple((float(x), float(y)) for x, y in a.footprint)
        elif a is None and "point" in t:
            c.add(f"{path}.footprint", "true needs an anchor", "false, or a list of points")
    elif isinstance(fp, list):
        pts = [f.point(c, q, f"{path}.footprint[{i}]") for i, q in enumerate(fp)]
        if len(pts) < 3:
            c.add(f"{path}.footprint", f"has {len(pts)} point(s)", "3 or more points, true (the anchor's) or false")
        elif all(q is not None for q in pts):
            footprint = tuple(q for q in pts if q is not None)
    elif fp is not False:
        c.add(f"{path}.footprint", f"is {fp!r}", "true (the anchor's footprint), false, or a list of points")
    lid = f.text(c, t, "id", path, default=a.name if a else "objective")
    lname = f.text(c, t, "name", path, default=f"Mission Objective {lid}")
    loot = _loot(c, t, cat, items)
    fixed = _fixed(c, t, cat)
    key_item, key_task = _key(c, t, cat, items)
    if "task" in t:
        if "key" in t:
            c.add(f"{path}.task", "is given beside [objective.key]", "one of them: [objective.key] (an item or its "
                  "task) or [objective.task] (a task every crew completes first)")
        elif (task := f.table(c, t, "task", path)) is not None:
            key_task = _task(c, task, f"{path}.task")
    if p is None or lid is None or otl is None or sa is None:
        return None
    return LocationSpec(lid, lname, "objective", p, otl, footprint, sa, sd, ha, loot=loot, fixed_spawn=fixed,
                        key_item=key_item, key_task=key_task)


def _known_item(c: Collector, cat: Catalog, items: Mapping[str, str], v: Any, field: str) -> str | None:
    if isinstance(v, str) and (v in cat.equipment_items or v in items):
        return v
    c.add(field, f"unknown item {v!r}", "an equipment.toml id or an id of the file's [items] "
                                        f"({', '.join(sorted(items)) or 'none'})")
    return None


def _loot(c: Collector, t: Mapping[str, Any], cat: Catalog, items: Mapping[str, str]) -> LootSpec | None:
    raw = f.table(c, t, "loot", "objective")
    if raw is None:
        return None
    path = "objective.loot"
    f.keys(c, raw, path, LOOT)
    got = [_known_item(c, cat, items, v, f"{path}.items[{i}]") for i, v in enumerate(
        f.strings(c, raw, "items", path, default=[]) or [])]
    grenades = f.counts(c, raw["grenades"], f"{path}.grenades", tuple(cat.grenades), "grenade") \
        if "grenades" in raw else ()
    tables = tuple(e.value for e in EquipmentTable)
    rolls = f.counts(c, raw["equipment_rolls"], f"{path}.equipment_rolls", tables, "equipment table") \
        if "equipment_rolls" in raw else ()
    value = f.integer(c, raw, "value", path, lo=0, default=0)
    tl_roll = f.boolean(c, raw, "tl_roll", path, default=True)
    return LootSpec(tuple(x for x in got if x), grenades, rolls, value or 0, tl_roll)


def _fixed(c: Collector, t: Mapping[str, Any], cat: Catalog) -> FixedSpawn | None:
    raw = f.table(c, t, "fixed_spawn", "objective")
    if raw is None:
        return None
    path = "objective.fixed_spawn"
    f.keys(c, raw, path, ("hostile", "figures", "actions"))
    h = f.text(c, raw, "hostile", path, choices=sorted(cat.hostiles))
    n = f.integer(c, raw, "figures", path, lo=1, hi=30)
    act = f.integer(c, raw, "actions", path, lo=1, hi=3, default=None)
    return FixedSpawn(h, n, act) if h is not None and n is not None else None


def _key(c: Collector, t: Mapping[str, Any], cat: Catalog, items: Mapping[str, str]) \
        -> tuple[str | None, KeyTask | None]:
    raw = f.table(c, t, "key", "objective")
    if raw is None:
        return None, None
    path = "objective.key"
    f.keys(c, raw, path, ("item", "task"))
    item = _known_item(c, cat, items, raw.get("item"), f"{path}.item") if "item" in raw else None
    if "item" not in raw:
        c.add(f"{path}.item", "missing", "the item that opens the objective (an equipment or [items] id)")
    task = f.table(c, raw, "task", path)
    if task is None:
        if "task" not in raw:
            c.add(f"{path}.task", "missing", "{difficulty, actions, name}: the Complex Task without the item")
        return item, None
    return item, _task(c, task, f"{path}.task")


def _task(c: Collector, task: Mapping[str, Any], path: str) -> KeyTask | None:
    """A Complex Task (CORE-3.4) at the objective: `{difficulty, actions, name}` ([objective.key] `task` or
    [objective.task])."""
    f.keys(c, task, path, ("difficulty", "actions", "name"))
    d = f.integer(c, task, "difficulty", path, lo=0, hi=10)
    a = f.integer(c, task, "actions", path, lo=1, hi=10)
    n = f.text(c, task, "name", path, default="")
    return KeyTask(d, a, n or "") if d is not None and a is not None else None


def _points(c: Collector, bf: Battlefield | None, v: Any, field: str) -> list[tuple[str, float, float]]:
    """A list of anchor names or [x, y] points -> (name, x, y)."""
    if not isinstance(v, list) or not v:
        c.add(field, f"is {v!r}", "a non-empty list of anchor names or points [x, y]")
        return []
    out = []
    for i, q in enumerate(v):
        if isinstance(q, str):
            a = _anchor(c, bf, q, f"{field}[{i}]")
            if a is not None:
                out.append((a.name, float(a.point[0]), float(a.point[1])))
        else:
            p = f.point(c, q, f"{field}[{i}]")
            _on_table(c, bf, p, f"{field}[{i}]")
            if p is not None:
                out.append((f"({p[0]:g}, {p[1]:g})", p[0], p[1]))
    return out


def _hostiles(c: Collector, doc: Mapping[str, Any], bf: Battlefield | None, locations: list[LocationSpec],
              cat: Catalog) -> list[HostileSpec]:
    raw = doc.get("hostiles", [])
    if not isinstance(raw, list) or not all(isinstance(x, dict) for x in raw):
        c.add("hostiles", f"is {raw!r}", "[[hostiles]] tables")
        return []
    objective = next((loc.id for loc in locations if loc.kind == "objective"), None)
    out: list[HostileSpec] = []
    forces: dict[str, str] = {}
    tags: set[str] = {loc.id for loc in locations}
    for i, t in enumerate(raw):
        path = f"hostiles[{i}]"
        f.keys(c, t, path, HOSTILE)
        h = f.text(c, t, "hostile", path, choices=sorted(cat.hostiles))
        n = f.integer(c, t, "figures", path, lo=1, hi=30)
        loc = f.text(c, t, "location", path, default=None)
        unresolved = loc == "objective" and objective is None  # the [objective] problem is reported already
        if loc == "objective":
            loc = objective
        if loc is not None and loc not in {x.id for x in locations} and not unresolved:
            c.add(f"{path}.location", f"no location {loc!r} in this scenario",
                  f"\"objective\" or a location id ({', '.join(x.id for x in locations) or 'none'})")
        at = None
        places = [k for k in ("anchor", "at", "sites") if k in t]
        if len(places) > 1:
            c.add(path, f"gives {' and '.join(places)}", "at most one of anchor, at, sites")
        if "anchor" in t:
            a = _anchor(c, bf, t["anchor"], f"{path}.anchor")
            at = (float(a.point[0]), float(a.point[1])) if a else None
        elif "at" in t:
            at = f.point(c, t["at"], f"{path}.at")
            _on_table(c, bf, at, f"{path}.at")
        sites = tuple(_points(c, bf, t["sites"], f"{path}.sites")) if "sites" in t else ()
        if len(sites) > 10:
            c.add(f"{path}.sites", f"names {len(sites)} sites", "1 to 10 (one die roll)")
        if "location" not in t and at is None and not sites and not places:
            c.add(path, "stands nowhere", "a `location`, an `anchor`, a point `at` or `sites`")
        converge = tuple((x, y) for _, x, y in _points(c, bf, t["converge"], f"{path}.converge")) \
            if "converge" in t else ()
        if converge and loc is not None:
            c.add(f"{path}.converge", "a force with a location is leashed to it", "converge only without a location "
                                                                                  "(AI-S.G3ZOMBIES)")
        stats_raw = f.table(c, t, "stats", path) or {}
        stats = []
        for k in stats_raw:
            if k not in STAT_FIELDS:
                c.add(f"{path}.stats.{k}", "unknown stat", ", ".join(STAT_FIELDS))
                continue
            v = f.number(c, stats_raw, k, f"{path}.stats", lo=1, hi=20) if k == "move" else \
                f.integer(c, stats_raw, k, f"{path}.stats", lo=1, hi=10)
            if v is not None:
                stats.append((k, v))
        armour = f.text(c, t, "armour", path, default=None, choices=sorted(cat.armours))
        weapons = f.strings(c, t, "weapons", path, default=None)
        for j, w in enumerate(weapons or ()):
            if w not in cat.weapons:
                c.add(f"{path}.weapons[{j}]", f"unknown weapon {w!r}", "a weapons.toml id")
        its = f.strings(c, t, "items", path, default=[]) or []
        for j, it in enumerate(its):
            if it not in cat.equipment_items:
                c.add(f"{path}.items[{j}]", f"unknown item {it!r}", ", ".join(sorted(cat.equipment_items)))
        grenades = f.counts(c, t["grenades"], f"{path}.grenades", tuple(cat.grenades), "grenade") \
            if "grenades" in t else ()
        force = f.text(c, t, "force", path, default="")
        if force and h is not None:
            if forces.setdefault(force, h) != h:
                c.add(f"{path}.force", f"force {force!r} is of {forces[force]!r}, this entry of {h!r}",
                      "the same hostile for every entry of one force")
        if force and not ID_RE.match(force):
            c.add(f"{path}.force", f"is {force!r}", "lowercase letters, digits and '-'")
        tag = ""
        if "anchor" in t and isinstance(t["anchor"], str) and not force:
            tag = t["anchor"]
            nth = 2
            while tag in tags:
                tag, nth = f"{t['anchor']}-{nth}", nth + 1
            tags.add(tag)
        if h is None or n is None:
            continue
        out.append(HostileSpec(
            h, n, loc, actions=f.integer(c, t, "actions", path, lo=1, hi=3, default=None),
            alert=f.boolean(c, t, "alert", path, default=False), at=at, sites=sites,
            site_group=f.text(c, t, "site_group", path, default="") or "",
            leash=f.boolean(c, t, "leash", path, default=True), force=force or "",
            name=f.text(c, t, "name", path, default=None), stats=tuple(stats), armour=armour,
            weapons=tuple(weapons) if weapons is not None else None, items=tuple(its), grenades=grenades,
            converge=converge, tag=tag))
    return out


def _check_rule_settings(c: Collector, rules: tuple[str, ...], settings: Mapping[str, Any], cat: Catalog,
                         hostiles: list[HostileSpec], doc: Mapping[str, Any]) -> None:
    """A field a named special rule sets from a house setting must not say otherwise (game.core.rules.special_rules):
    change the setting in [settings] instead; `scen.g3.mobs` may not ask for more mobs than the file places."""
    s = Settings(dict(settings))
    raw = doc.get("hostiles", [])
    index = [i for i, t in enumerate(raw) if isinstance(t, dict)] if isinstance(raw, list) else []
    keys = {"figures": {"g1-dog-packs": "scen.g1.dogs_per_pack", "g3-intersection-mobs": "scen.g3.mob_size"},
            "actions": {"g1-dog-packs": "scen.g1.dog_actions"}, "alert": {"g2-bandit-camp": "scen.g2.free_alert"},
            "weapons": {"g2-bandit-camp": "scen.g2.melee_weapon"}}
    for n, h in enumerate(hostiles):
        i = index[n] if n < len(index) else n
        t = raw[i] if isinstance(raw, list) and i < len(raw) and isinstance(raw[i], dict) else {}
        for fname, want in setting_fields(rules, s, cat, h, n).items():
            if fname not in keys or fname not in t or getattr(h, fname) == want:
                continue
            rule, key = next((r, k) for r, k in keys[fname].items() if r in rules)
            c.add(f"hostiles[{i}].{fname}", f"is {getattr(h, fname)!r} but special rule {rule!r} sets it to "
                                            f"{want!r} (setting {key!r})",
                  f"{want!r}, or the value you want as \"{key}\" in [settings]")
    if "g3-intersection-mobs" in rules:
        given = sum(1 for h in hostiles if h.converge and h.location is None)
        if int(s["scen.g3.mobs"]) > given:
            c.add("settings", f"'scen.g3.mobs' = {s['scen.g3.mobs']} asks for more mobs than the file places ({given})",
                  f"1 to {given}")
