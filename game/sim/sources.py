"""Where `zona-alfa simulate`, the games benchmark and a self-contained record's replay get their scenario and crews:
the one seam between the headless tools and the scenario and roster loaders (game.scenarios, game.crews).

* `scenario_source(name_or_path) -> ScenarioSource` or SourceError (one line per problem, naming the known
  scenarios): a shipped scenario name (`scenarios/*.toml`: crossroads-blyatsk, chernya-woods, ishikhov) or a scenario
  file. Both forms of one scenario give the same source: it is named by the file's canonical path and SHA-256.
  `.build(crews) -> (Scenario, Battlefield)`, `.crew_names` (its default starter crews), `.settings` (its house
  overrides), `.name`, `.path`, `.sha256`.
* `crews_source(names, k_limit=) -> list[CrewSource]` or SourceError (naming the known crews): starter crew names or
  roster files; each CrewSource carries the CrewSpec, the plain roster document (records embed it) and its SHA-256.
  Side ids are the crews' ids (`military`), `-2`, `-3`... when one crew plays twice.
* `crew_from_doc(doc, side=, zone=) -> CrewSpec` rebuilds a crew from an embedded document (replay).

A ScenarioSource is small and picklable (worker processes get it in their jobs); each process loads the file and its
map once (`scenario_file`) and keeps it, so a worker's nav graphs and sight world stay warm across its games."""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.core.battlefield import Battlefield
from game.core.record import RecordCrew, doc_sha256
from game.core.rules.setup import CrewSpec, Scenario
from game.crews import CrewFileError, known_crews, load_crew
from game.crews import crew_from_doc as _crew_from_doc
from game.scenarios.loader import ScenarioFile, known_scenarios, resolve_scenario
from game.scenarios.problems import ScenarioError

__all__ = ["CrewSource", "ScenarioSource", "SourceError", "crew_from_doc", "crews_source", "known_crews",
           "known_scenarios", "scenario_file", "scenario_source"]


class SourceError(ValueError):
    """An unknown or unusable scenario or crew: what is wrong, naming what is known or allowed."""


@dataclass(frozen=True, slots=True)
class CrewSource:
    """A crew ready to play: its spec (side id and model ids set), the roster document it was built from (embedded
    in records), that document's SHA-256 (of its canonical JSON) and the roster file it was read from."""

    name: str
    spec: CrewSpec
    doc: dict[str, Any]
    sha256: str
    source: str | None = None

    def record(self, side: str) -> RecordCrew:
        """This crew as a record embeds it (playing as `side`)."""
        return RecordCrew(side, self.name, self.doc, self.sha256, self.source)


_FILES: dict[tuple[str, str], ScenarioFile] = {}  # per process: (path, sha256) -> the loaded file and its map


def scenario_file(path: str, sha256: str | None = None) -> ScenarioFile:
    """The process's loaded copy of a scenario file (loaded once per process and file content); SourceError when it
    cannot be loaded or its bytes no longer hash to `sha256`."""
    key = (path, sha256 or "")
    sf = _FILES.get(key)
    if sf is None:
        try:
            sf = resolve_scenario(path)
        except ScenarioError as exc:
            raise SourceError(str(exc)) from None
        if sha256 is not None and sf.sha256 != sha256:
            raise SourceError(f"{path}: the scenario file changed (SHA-256 {sf.sha256[:12]}, expected {sha256[:12]})")
        _FILES[key] = sf
    return sf


@dataclass(frozen=True, slots=True)
class ScenarioSource:
    """A scenario resolved from a name or a file: `build` makes the Scenario and its table for these crews (crew k
    deploys in the scenario's deployment zone k)."""

    name: str  # the scenario's id
    path: str  # the scenario file, canonical (relative to the working folder when inside it)
    sha256: str  # of the file's bytes
    map_path: str
    tl: int
    crew_names: tuple[str, ...]
    k_limit: int | None
    settings: tuple[tuple[str, Any], ...]  # the file's house-setting overrides, in file order

    def file(self) -> ScenarioFile:
        return scenario_file(self.path, self.sha256)

    def build(self, crews: Sequence[CrewSource], battlefield: Battlefield | None = None, *,
              solo: bool = False) -> tuple[Scenario, Battlefield]:
        """The Scenario with `crews` on the scenario's table (the process's loaded copy: `battlefield`, if given,
        must be that copy, as `table_of` returns it); `solo`: one crew against the Zone alone (first zone)."""
        sf = self.file()
        if battlefield is not None and battlefield is not sf.battlefield:
            raise ValueError("ScenarioSource.build: pass the scenario's own table (ScenarioSource.table())")
        try:
            return sf.build([c.spec for c in crews], solo=solo)
        except ScenarioError as exc:
            raise SourceError(str(exc)) from None

    def table(self) -> Battlefield:
        return self.file().battlefield


def canonical_path(path: str | Path) -> str:
    """A file's path as records and logs write it whichever way it was named: relative to the current folder
    when it lies inside it, else absolute (so `ishikhov` and `scenarios/ishikhov.toml` give the same game)."""
    full = Path(os.path.abspath(path))
    try:
        return full.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return full.as_posix()


def scenario_source(name_or_path: str) -> ScenarioSource:
    """A scenario by shipped name (`known_scenarios()`) or by file; SourceError lists every problem of a bad file."""
    try:
        sf = resolve_scenario(name_or_path.strip())
    except ScenarioError as exc:
        raise SourceError(str(exc)) from None
    from game.scenarios.loader import scenario_path

    path = canonical_path(scenario_path(name_or_path.strip()))
    _FILES.setdefault((path, sf.sha256), sf)
    return ScenarioSource(sf.id, path, sf.sha256, sf.battlefield.source or "", sf.tl, sf.crew_names, sf.k_limit,
                          tuple(sf.settings.items()))


def crews_source(names: Sequence[str], *, k_limit: int | None = None) -> list[CrewSource]:
    """The crews by starter-crew name or roster file, in order; `k_limit`: the scenario's agreed limit the rosters
    are checked against (ZONE-8.1.PARITY). SourceError names the crew, every problem, and the known crews."""
    out: list[CrewSource] = []
    seen: dict[str, int] = {}
    for raw in names:
        name = raw.strip()
        try:
            first = load_crew(name, k_limit=k_limit)
            cid = first.spec.side
            seen[cid] = seen.get(cid, 0) + 1
            side = cid if seen[cid] == 1 else f"{cid}-{seen[cid]}"
            loaded = first if side == cid else load_crew(name, side=side, k_limit=k_limit)
        except CrewFileError as exc:
            raise SourceError(f"{exc}; known crews: {', '.join(known_crews())}") from None
        source = canonical_path(loaded.source) if loaded.source else None
        out.append(CrewSource(name, loaded.spec, loaded.doc, doc_sha256(loaded.doc), source))
    return out


def crew_from_doc(doc: object, *, side: str, zone: str, where: str = "record") -> CrewSpec:
    """A crew rebuilt from the roster document a record embeds (replay); SourceError names what is wrong."""
    if not isinstance(doc, dict):
        raise SourceError(f"{where}: an embedded crew is not a roster document (a JSON object)")
    try:
        return _crew_from_doc(doc, side=side, zone=zone, where=where)
    except CrewFileError as exc:
        raise SourceError(str(exc)) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise SourceError(f"{where}: an embedded roster document is corrupt: {type(exc).__name__}: {exc}") from None
