"""The headless loop: `play` a whole game with agents (its record sealed with how it ended), `replay` a record
to the same events byte for byte, refusing a record that is cut short, edited or illegal (GEO-28)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from game.core.actions import Action, IllegalAction
from game.core.battlefield import Battlefield
from game.core.events import Event
from game.core.record import Record, RecordCrew, RecordEnd, RecordError, check_map_hash, check_scenario_hash, log_sha256
from game.core.rules import Scenario, apply, new_game, scenario
from game.core.rules.demos import demo_of
from game.core.rules.setup import MAP_DEMO
from game.core.state import GameState, Phase
from game.core.version import ENGINE_VERSION


class Agent(Protocol):
    def choose(self, state: GameState) -> Action: ...


class Observer(Protocol):
    """Watches every decision of a game (the Zone's rules checker, game.referee): `needs_before` says whether it wants
    a copy of the state before this decision (copies cost time, so only when it will look)."""

    def needs_before(self, state: GameState) -> bool: ...

    def observe(self, before: GameState | None, action: Action, events: list[Event], after: GameState) -> None: ...


class ReplayError(RecordError):
    """A record that does not replay: names the record, the action (#1 is the first) and why."""


@dataclass(frozen=True, slots=True)
class Replayed:
    """A replayed record: the final state, every event, and `marks[k]` = the events logged once action #k was
    applied (`marks[0]`: the setup). `checked` is False when the record could not be checked for truncation
    (`note` says why)."""

    state: GameState
    events: list[Event]
    marks: tuple[int, ...]
    checked: bool
    note: str = ""


def play(
    scen: Scenario,
    agents: Mapping[str, Agent],
    seed: int,
    *,
    settings: dict[str, Any] | None = None,
    max_decisions: int = 100_000,
    battlefield: Battlefield | None = None,
    zone: Agent | None = None,
    observer: Observer | None = None,
    scenario_file: str | None = None,
    scenario_sha256: str | None = None,
    crews: list[RecordCrew] | None = None,
    on_crash: Callable[[Record, Exception, Action | None], None] | None = None,
) -> tuple[GameState, Record, list[Event]]:
    """Drive a whole game: ask the deciding side's agent, apply, repeat until the mission ends. The record is
    sealed with the phase, turn, event count and log hash it ended on (docs/formats.md).

    `agents` maps the crews' side ids to their agents; hostile forces (which appear during play) are decided by
    `zone` (the Zone's agent, game.ai.zone, by default). `observer` sees every decision (e.g. `demo --check`).
    `scenario_file` / `scenario_sha256` and `crews` (the roster documents, in the scenario's crew order) make the
    record self-contained (version 3, docs/formats.md): replay checks the file and builds the crews from them.
    `on_crash` is called with the record of the decisions made so far, the exception and the action being applied
    (None when an agent raised) before an exception from an agent or the engine propagates (`simulate` writes
    that record, so a crash is reported with it)."""
    state, events = new_game(scen, seed, settings=settings, battlefield=battlefield)
    record = Record(scenario=scen.id, seed=seed, settings=dict(state.settings),
                    map_path=state.map_path, map_sha256=state.map_sha256, scenario_file=scenario_file,
                    scenario_sha256=scenario_sha256, crews=list(crews) if crews is not None else None)
    action: Action | None = None
    try:
        for _ in range(max_decisions):
            if state.phase is Phase.MISSION_END:
                break
            action = None
            agent, zone = agent_for(state, agents, zone)
            action = agent.choose(state)
            before = state.clone() if observer is not None and observer.needs_before(state) else None
            new = apply(state, action)
            if observer is not None:
                observer.observe(before, action, new, state)
            events += new
            record.actions.append(action)
        else:
            raise RuntimeError(f"the game did not end within {max_decisions} decisions")
    except Exception as exc:
        if on_crash is not None:
            on_crash(record, exc, action)
        raise
    record.end = RecordEnd.of(state.phase.value, state.turn, events)
    return state, record, events


def agent_for(state: GameState, agents: Mapping[str, Agent], zone: Agent | None) -> tuple[Agent, Agent | None]:
    """Who decides now: the deciding crew's agent, or for a hostile force the Zone's agent (made on first use)."""
    agent = agents.get(state.deciding)
    if agent is not None:
        return agent, zone
    if state.deciding not in state.forces:
        raise KeyError(f"no agent plays side {state.deciding!r}; agents: {sorted(agents)}")
    if zone is None:
        from game.ai.zone.agent import ZoneAgent

        zone = ZoneAgent()
    return zone, zone


def replay(record: Record, scen: Scenario | None = None) -> tuple[GameState, list[Event]]:
    """Re-apply a record's decisions from a fresh setup; same record -> same events, byte for byte.

    Raises ReplayError (a RecordError) for a record that is cut short, edited or illegal; see `replay_record`."""
    done = replay_record(record, scen)
    return done.state, done.events


def replay_record(record: Record, scen: Scenario | None = None, *, where: str = "record") -> Replayed:
    """Replay every action of a record and check it against its seal (version 2): an illegal or unusable action
    is refused with its number, an end other than the recorded one (phase, turn, events, log SHA-256) as a cut
    or edited record. A version-1 record carries no seal: it replays unchecked and `note` says so.

    A record made on a map reloads that map and refuses it if its SHA-256 changed; one that names its scenario
    file refuses that file likewise (version 3); one that embeds its crews plays them, built from their documents
    (`game.sim.sources.crew_from_doc`), not from whatever roster files say now."""
    check_scenario_hash(record, where=where)
    bf: Battlefield | None
    if scen is None and record.scenario_file is not None:
        scen, bf = scenario_of(record, where)
    else:
        bf = battlefield_of(record, where=where)
        if scen is None:
            scen = map_demo_of(bf, where, record.scenario) if bf is not None else _scenario(record.scenario, where)
        if record.crews is not None:
            scen = _with_crews(scen, record.crews, where)
    try:
        state, events = new_game(scen, record.seed, settings=dict(record.settings), battlefield=bf)
    except (ValueError, KeyError) as exc:  # a bad setting (SettingsError), catalog value or crew
        raise RecordError(f"{where}: field 'settings': {_first_line(exc)}") from None
    marks = [len(events)]
    for k, a in enumerate(record.actions, 1):
        if state.phase is Phase.MISSION_END:
            raise ReplayError(f"{where}: corrupt at action #{k} ({_name(a)}): the mission already ended after "
                              f"action #{k - 1}, yet the record goes on")
        try:
            events += apply(state, a)
        except IllegalAction as exc:
            raise ReplayError(f"{where}: corrupt at action #{k} ({_name(a)}): illegal here: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - a record is untrusted input: any field may be nonsense
            raise ReplayError(f"{where}: corrupt at action #{k} ({_name(a)}): it cannot be applied: "
                              f"{type(exc).__name__}: {_first_line(exc)}") from None
        marks.append(len(events))
    checked, note = _check_end(record, state, events, where)
    return Replayed(state, events, tuple(marks), checked, note)


def battlefield_of(record: Record, *, where: str = "record") -> Battlefield | None:
    """The record's map, reloaded and checked against its SHA-256 (None on the open table)."""
    if record.map_path is None:
        return None
    check_map_hash(record, where=where)
    from game.maps.loader import MapError, load_map

    try:
        return load_map(record.map_path)
    except MapError as exc:
        raise RecordError(f"{where}: field 'map': {exc.summary()}") from None
    except (ValueError, OSError) as exc:
        raise RecordError(f"{where}: field 'map': {_first_line(exc)}") from None


def scenario_of(record: Record, where: str) -> tuple[Scenario, Battlefield]:
    """The scenario a version-3 record names by file, played by the crews it embeds (their roster documents, not
    whatever the roster files say now); its map is checked against the record's SHA-256 like any record's."""
    from game.sim.sources import SourceError, crew_from_doc, scenario_file

    assert record.scenario_file is not None
    check_map_hash(record, where=where)
    if not record.crews:
        raise RecordError(f"{where}: field 'crews': a record of scenario file {record.scenario_file} must embed its "
                          "crews")
    try:
        sf = scenario_file(record.scenario_file, record.scenario_sha256)
        specs = [crew_from_doc(c.doc, side=c.side, zone="", where=f"{where}: field 'crews[{k}]'")
                 for k, c in enumerate(record.crews)]
        scen, bf = sf.build(specs, solo=len(specs) == 1 < len(sf.deployment))  # a solo game embeds one crew
    except SourceError as exc:
        raise RecordError(f"{where}: {_first_line(exc)}") from None
    except ValueError as exc:  # ScenarioError: the embedded crews no longer fit the scenario
        raise RecordError(f"{where}: field 'crews': {_first_line(exc)}") from None
    return scen, bf


def map_demo_of(bf: Battlefield, where: str, scenario_id: str = MAP_DEMO) -> Scenario:
    """The map demo a record names (`map-demo`: the crews alone; `map-zone-demo`: with Hot Spots)."""
    try:
        return demo_of(bf, scenario_id)
    except ValueError as exc:
        raise RecordError(f"{where}: field 'map': {_first_line(exc)}") from None


def _with_crews(scen: Scenario, crews: list[RecordCrew], where: str) -> Scenario:
    """The scenario played by the record's embedded crews (crew k in the zone of the scenario's crew k)."""
    from dataclasses import replace

    from game.sim.sources import SourceError, crew_from_doc

    if len(crews) != len(scen.crews):
        raise RecordError(f"{where}: field 'crews': {len(crews)} crew(s) embedded, but scenario {scen.id} is played "
                          f"by {len(scen.crews)}")
    try:
        specs = tuple(crew_from_doc(c.doc, side=c.side, zone=s.zone, where=f"{where}: field 'crews[{k}]'")
                      for k, (c, s) in enumerate(zip(crews, scen.crews, strict=True)))
    except SourceError as exc:
        raise RecordError(str(exc)) from None
    return replace(scen, crews=specs)


def _scenario(scenario_id: str, where: str) -> Scenario:
    try:
        return scenario(scenario_id)
    except KeyError as exc:
        raise RecordError(f"{where}: field 'scenario': {exc.args[0]}") from None


def _check_end(record: Record, state: GameState, events: list[Event], where: str) -> tuple[bool, str]:
    n = len(record.actions)
    if record.version < 2:
        note = (f"{where}: a version-{record.version} record carries no action count and no end seal, so it "
                f"cannot be checked for truncation or edits")
        if state.phase is not Phase.MISSION_END:
            note += f"; it stops after action #{n} with the game in progress (turn {state.turn}, {state.phase.value})"
        return False, note
    end = record.end
    if end is None:
        return False, (f"{where}: the record has no end seal (written mid-game): its {n} action(s) match the "
                       f"declared count, the log is not checked")
    if (state.phase.value, state.turn) != (end.phase, end.turn):
        raise ReplayError(f"{where}: truncated after action #{n}: the game stands at turn {state.turn} "
                          f"({state.phase.value}) but was recorded to end at turn {end.turn} ({end.phase})")
    digest = log_sha256(events)
    if len(events) != end.events or digest != end.log_sha256:
        raise ReplayError(
            f"{where}: corrupt by action #{n}: the replayed log ({len(events)} events, SHA-256 {digest[:12]}) "
            f"differs from the recorded one ({end.events} events, {end.log_sha256[:12]}); the record was edited "
            f"or made by another engine (record {record.engine or '?'}, this engine {ENGINE_VERSION})")
    return True, ""


def _name(a: Action) -> str:
    data = a.to_json()
    who = data.get("unit") or data.get("model") or data.get("side") or ""
    return f"{data['type']} {who}".strip()


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines() or [type(exc).__name__]
    more = f" (and {len(lines) - 1} more problem(s))" if len(lines) > 1 else ""
    return lines[0] + more
