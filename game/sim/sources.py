"""Where `zona-alfa simulate` (and a self-contained record's replay) gets its scenario and crews: the ONE seam between
the headless tools and the scenario / roster loaders.

Today (issue 15, before game.scenarios and game.crews are merged) a scenario is a Zone map demo: a shipped map's
name (`crossroads-blyatsk`, `chernya-woods`, `ishikhov`, any `maps/NAME.tmx`) or a `.tmx` path, played with
`game.core.rules.demos.zone_map_demo` at the Threat Level of the Red Gypsy 3 game on that table where the demo can
play it (Game One is TL0, which has no Hot Spots, so its table plays TL1; Game Two TL1; Game Three TL2); and the
crews are the two demo crews (`vultures`, `wolves`). When merging, the integrator points `scenario_source` at
`game.scenarios.resolve_scenario` (its ScenarioFile has the same `.build(crews)`, `.crew_names`, and the file's
path and SHA-256), `crews_source` at `game.crews.load_crew` and `crew_from_doc` at `game.crews.crew_from_doc`;
nothing else in game.sim names a loader. The contract the rest of game.sim relies on:

* `scenario_source(name_or_path) -> ScenarioSource` or SourceError (one line, naming the known scenarios);
  `.build(crews) -> (Scenario, Battlefield)`, `.crew_names`, `.name`, `.path` / `.sha256` (the scenario file,
  None for a built-in demo), `known_scenarios()`.
* `crews_source(names) -> list[CrewSource]` or SourceError (naming the known crews); a CrewSource carries the
  CrewSpec, the plain-dict roster document it came from and that document's SHA-256 (records embed both).
* `crew_from_doc(doc, side=, zone=) -> CrewSpec` rebuilds a crew from an embedded document (replay).
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from game.core.battlefield import Battlefield
from game.core.record import RecordCrew, doc_sha256
from game.core.rules.setup import CrewSpec, ModelSpec, Scenario

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
# The Red Gypsy 3 tables and the Threat Level their game is played at where the map demo can (SCEN-10.0.OVERVIEW:
# Game One TL0 has no Hot Spots, so the demo plays its table at TL1 until the scenario files replace it).
SCENARIO_TL = {"crossroads-blyatsk": 1, "chernya-woods": 1, "ishikhov": 2}
DEFAULT_TL = 1
DEMO_CREW_FORMAT = "zona-alfa-demo-crew"  # the embedded document of a built-in demo crew (not a roster file)


class SourceError(ValueError):
    """An unknown or unusable scenario or crew: one line naming it and what is known or allowed."""


@dataclass(frozen=True, slots=True)
class CrewSource:
    """A crew ready to play: its spec, the plain-dict document it was built from (embedded in records), that
    document's SHA-256 (of its canonical JSON) and the roster file it was read from (None for a built-in crew)."""

    name: str
    spec: CrewSpec
    doc: dict[str, Any]
    sha256: str
    source: str | None = None

    def record(self, side: str) -> RecordCrew:
        """This crew as a record embeds it (playing as `side`)."""
        return RecordCrew(side, self.name, self.doc, self.sha256, self.source)


@dataclass(frozen=True, slots=True)
class ScenarioSource:
    """A scenario resolved from a name or a file; `build` makes the Scenario and its Battlefield for these crews
    (crew k deploys in the table's deployment zone k)."""

    name: str
    map_path: str
    tl: int
    crew_names: tuple[str, ...]
    path: str | None = None  # the scenario file (None: a built-in map demo)
    sha256: str | None = None  # of the scenario file's bytes (None: a built-in map demo)

    def build(self, crews: Sequence[CrewSource], battlefield: Battlefield | None = None) -> tuple[Scenario,
                                                                                                    Battlefield]:
        """The Scenario on this table with `crews`; `battlefield` reuses an already loaded copy of the same map
        (its caches: nav graphs, the compiled world) instead of loading the file again."""
        from game.core.rules.demos import zone_map_demo

        bf = battlefield if battlefield is not None else load_table(self.map_path)
        base = zone_map_demo(bf, self.tl)
        zones = [c.zone for c in base.crews]
        if len(crews) != len(zones):
            raise SourceError(f"{self.name} is played by {len(zones)} crews, not {len(crews)}")
        specs = tuple(replace(c.spec, zone=zones[i]) for i, c in enumerate(crews))
        return replace(base, crews=specs), bf


def load_table(map_path: str) -> Battlefield:
    """Load a map as a scenario's table; SourceError (one line) when it cannot be."""
    from game.maps.loader import MapError, load_map

    try:
        return load_map(map_path)
    except MapError as exc:
        raise SourceError(f"{map_path}: {exc.summary()}") from None
    except (ValueError, OSError) as exc:
        raise SourceError(f"{map_path}: {exc}") from None


def known_scenarios() -> list[str]:
    """The scenario names this build can play: the shipped maps (`maps/*.tmx`), Red Gypsy 3's tables first."""
    names = sorted(p.stem for p in MAPS.glob("*.tmx"))
    return [n for n in SCENARIO_TL if n in names] + [n for n in names if n not in SCENARIO_TL]


def canonical_path(path: str | Path) -> str:
    """A file's path as records and logs write it whichever way it was named: relative to the current folder
    when it lies inside it, else absolute (so `ishikhov` and `maps/ishikhov.tmx` give the same game)."""
    full = Path(os.path.abspath(path))
    try:
        return full.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return full.as_posix()


def scenario_source(name_or_path: str) -> ScenarioSource:
    """A scenario by name (`known_scenarios()`) or by file (a `.tmx` table, played as its Zone map demo)."""
    text = name_or_path.strip()
    looks_like_file = text.endswith(".tmx") or os.sep in text or "/" in text or Path(text).is_file()
    if not looks_like_file:
        if text not in known_scenarios():
            raise SourceError(f"unknown scenario {text!r}; known: {', '.join(known_scenarios())} "
                              "(or give a scenario file)")
        path = MAPS / f"{text}.tmx"
    else:
        path = Path(text)
        if not path.is_file():
            raise SourceError(f"{text}: no such file; give a scenario file or one of: {', '.join(known_scenarios())}")
        if path.suffix != ".tmx":
            raise SourceError(f"{text}: not a file this build plays as a scenario (a Tiled .tmx table; scenario "
                              f"files arrive with game.scenarios, issue 15 part 3)")
    stem = path.stem
    return ScenarioSource(stem, canonical_path(path), SCENARIO_TL.get(stem, DEFAULT_TL), tuple(_DEMO_CREWS))


# -- crews ---------------------------------------------------------------------------------------------------------
def _demo_crews() -> dict[str, CrewSpec]:
    from game.core.rules.setup import scenario

    return {c.side: c for c in scenario("open-table-demo").crews}


_DEMO_CREWS = ("vultures", "wolves")


def known_crews() -> list[str]:
    return sorted(_demo_crews())


def crew_doc(spec: CrewSpec) -> dict[str, Any]:
    """A built-in crew as a plain document (what a record embeds for it; a roster file's own document replaces it
    once game.crews loads roster files)."""
    return {"format": DEMO_CREW_FORMAT, "version": 1, "side": spec.side, "name": spec.name, "faction": spec.faction,
            "models": [{"id": m.id, "name": m.name, "level": m.level, "armour": m.armour, "weapons": list(m.weapons),
                        "skills": list(m.skills), "items": list(m.items),
                        "grenades": [[g, n] for g, n in m.grenades]} for m in spec.models]}


def crews_source(names: Sequence[str]) -> list[CrewSource]:
    """The crews by name (`known_crews()`), in order; SourceError for an unknown name, a roster file (not readable
    before game.crews) or a crew named twice (its model ids would clash)."""
    demo = _demo_crews()
    out: list[CrewSource] = []
    for raw in names:
        name = raw.strip()
        if name in demo:
            if any(c.name == name for c in out):
                raise SourceError(f"crew {name!r} is named twice; a crew plays once per game (its model ids would "
                                  f"clash); known crews: {', '.join(known_crews())}")
            doc = crew_doc(demo[name])
            out.append(CrewSource(name, demo[name], doc, doc_sha256(doc)))
        elif name.endswith((".toml", ".json")) or "/" in name or Path(name).is_file():
            raise SourceError(f"{name}: roster files are read once game.crews is merged (issue 15 part 4); "
                              f"known crews: {', '.join(known_crews())}")
        else:
            raise SourceError(f"unknown crew {name!r}; known: {', '.join(known_crews())}")
    return out


def crew_from_doc(doc: object, *, side: str, zone: str, where: str = "record") -> CrewSpec:
    """A crew rebuilt from the document a record embeds (replay); SourceError names what is wrong."""
    if not isinstance(doc, dict) or doc.get("format") != DEMO_CREW_FORMAT:
        raise SourceError(f"{where}: an embedded crew is not a {DEMO_CREW_FORMAT} document (roster documents are "
                          "read once game.crews is merged)")
    try:
        models = tuple(ModelSpec(str(m["id"]), str(m["name"]), str(m["level"]), str(m["armour"]),
                                 tuple(str(w) for w in m["weapons"]), tuple(str(s) for s in m.get("skills", ())),
                                 tuple(str(i) for i in m.get("items", ())),
                                 tuple((str(g), int(n)) for g, n in m.get("grenades", ())))
                       for m in doc["models"])
        return CrewSpec(side, str(doc["name"]), zone, models, faction=doc.get("faction"))
    except (KeyError, TypeError, ValueError) as exc:
        raise SourceError(f"{where}: an embedded crew document is corrupt: {type(exc).__name__}: {exc}") from None
