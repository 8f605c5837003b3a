"""The game the client shows: a scenario built for its crews, the state, every event so far and the record, with
`apply` the one way an action enters it (the same `apply` the headless loop and `replay` use). Pure: no pygame."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from game.client.setup import HUMAN, GameSetup
from game.core.actions import Action
from game.core.battlefield import Battlefield
from game.core.events import Event
from game.core.record import Record, RecordEnd, atomic_write_text
from game.core.rules import Scenario, apply, new_game
from game.core.state import GameState, Phase
from game.sim.loop import Agent
from game.sim.simulate import AGENTS, DEFAULT_AGENT
from game.sim.sources import CrewSource, ScenarioSource, SourceError, crews_source, scenario_source


class SessionError(ValueError):
    """A game that cannot start: `field` is what was given wrong ("scenario", "crews", "agents", "difficulty"),
    `problem` names the file or value and what is wrong with it; str() is both, for the error screen."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field} {problem}")
        self.field = field
        self.problem = problem


@dataclass
class Session:
    """One game in progress. `agent_ids[side]` is the agent id of each crew (the Zone's agent plays the hostiles)."""

    setup: GameSetup
    source: ScenarioSource
    crews: list[CrewSource]
    scenario: Scenario
    battlefield: Battlefield
    settings: dict[str, Any]
    state: GameState
    events: list[Event]
    record: Record
    agent_ids: dict[str, str] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.MISSION_END

    @property
    def name(self) -> str:
        return self.source.file().name

    def crew_sides(self) -> list[str]:
        return [c.side for c in self.scenario.crews]

    def apply(self, action: Action) -> list[Event]:
        """Apply one decision (game.core.rules.apply), log its events and record it; the record is sealed when the
        mission ends (docs/formats.md)."""
        new = apply(self.state, action)
        self.events += new
        self.record.actions.append(action)
        if self.over:
            self.record.end = RecordEnd.of(self.state.phase.value, self.state.turn, self.events)
        return new

    def agents(self) -> dict[str, Agent]:
        """Fresh agents for the crews no player controls, seeded as `simulate` seeds them (game seed x 1000 + crew
        index), so a driver in another process that makes its own gets the same decisions."""
        return {side: AGENTS[a](self.setup.seed * 1000 + i) for i, (side, a) in enumerate(self.agent_ids.items())
                if a != HUMAN}

    @property
    def human_sides(self) -> frozenset[str]:
        """The crews a player controls at this computer."""
        return frozenset(side for side, a in self.agent_ids.items() if a == HUMAN)

    def human_to_decide(self) -> bool:
        """Whether the side that must decide now is a player's (the window waits for the player)."""
        return not self.over and self.state.deciding in self.human_sides

    def record_json(self) -> str:
        return json.dumps(self.record.to_json(), indent=1, sort_keys=True)

    def write_record(self, path: str) -> None:
        """The replayable record (`zona-alfa replay FILE`), written atomically."""
        atomic_write_text(path, self.record_json())


def open_session(setup: GameSetup) -> Session:
    """Build the game a setup names: the scenario (shipped name or file), its crews (the scenario's own unless
    given), their agents; SessionError names the file and the problem (the client shows it, back to the menu)."""
    try:
        source = scenario_source(setup.scenario)
    except SourceError as exc:
        text = " ".join(str(exc).split())
        raise SessionError("scenario", text if text.startswith(setup.scenario.strip()) else
                           f"{setup.scenario}: {text}") from None
    names = list(setup.crews) if setup.crews else list(source.crew_names)
    if setup.solo and not setup.crews:
        names = names[:1]
    if setup.solo and len(names) != 1:
        raise SessionError("crews", f"{','.join(names)}: a solo game is one crew against the Zone; give one")
    if not setup.solo and len(names) != len(source.crew_names):
        raise SessionError("crews", f"{','.join(names)}: {len(names)} crew(s) given; {source.name} is played by "
                           f"{len(source.crew_names)}, e.g. {','.join(source.crew_names)}")
    try:
        loaded = crews_source(names, k_limit=source.k_limit)
        scen, bf = source.build(loaded, solo=setup.solo)
    except SourceError as exc:
        raise SessionError("crews", f"{','.join(names)}: {' '.join(str(exc).split())}") from None
    ids = list(setup.agents) if setup.agents else [DEFAULT_AGENT] * len(scen.crews)
    if len(ids) != len(scen.crews):
        raise SessionError("agents", f"{','.join(ids)}: one agent per crew ({len(scen.crews)}), e.g. "
                           f"{','.join([DEFAULT_AGENT] * len(scen.crews))}")
    unknown = [a for a in ids if a not in AGENTS and a != HUMAN]
    if unknown:
        raise SessionError("agents", f"unknown agent {unknown[0]!r}; known: {', '.join(sorted([*AGENTS, HUMAN]))}")
    settings = dict(source.settings)
    if setup.difficulty is not None:
        from game.core.settings import Settings, SettingsError

        try:
            Settings({**settings, "hostiles.difficulty": setup.difficulty}, where="difficulty")
        except SettingsError as exc:
            raise SessionError("difficulty", ' '.join(str(exc).split()).removeprefix("difficulty: ")) from None
        settings["hostiles.difficulty"] = setup.difficulty
    state, events = new_game(scen, setup.seed, settings=settings, battlefield=bf)
    record = Record(scenario=scen.id, seed=setup.seed, settings=dict(state.settings), map_path=state.map_path,
                    map_sha256=state.map_sha256, scenario_file=source.path, scenario_sha256=source.sha256,
                    crews=[c.record(spec.side) for c, spec in zip(loaded, scen.crews, strict=True)])
    return Session(setup, source, loaded, scen, bf, settings, state, events, record,
                   {c.side: a for c, a in zip(scen.crews, ids, strict=True)})
