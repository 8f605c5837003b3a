"""The headless play loop (STYLE habit 8) and the `zona-alfa demo` subcommand."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Protocol

from game.core.actions import Action
from game.core.battlefield import Battlefield
from game.core.events import Event, describe
from game.core.record import Record
from game.core.rules import Scenario, apply, map_demo, new_game, scenario
from game.core.settings import Settings, SettingsError
from game.core.state import GameState, Phase


class Agent(Protocol):
    def choose(self, state: GameState) -> Action: ...


def play(
    scen: Scenario,
    agents: Mapping[str, Agent],
    seed: int,
    *,
    settings: dict | None = None,
    max_decisions: int = 100_000,
    battlefield: Battlefield | None = None,
) -> tuple[GameState, Record, list[Event]]:
    """Drive a whole game: ask the deciding side's agent, apply, repeat until the mission ends."""
    state, events = new_game(scen, seed, settings=settings, battlefield=battlefield)
    record = Record(scenario=scen.id, seed=seed, settings=dict(state.settings),
                    map_path=state.map_path, map_sha256=state.map_sha256)
    for _ in range(max_decisions):
        if state.phase is Phase.MISSION_END:
            break
        action = agents[state.deciding].choose(state)
        events += apply(state, action)
        record.actions.append(action)
    else:
        raise RuntimeError(f"the game did not end within {max_decisions} decisions")
    return state, record, events


def replay(record: Record, scen: Scenario | None = None) -> tuple[GameState, list[Event]]:
    """Re-apply a record's decisions from a fresh setup; same record -> same events, byte for byte.

    A record made on a map reloads that map and refuses it if its SHA-256 changed."""
    from game.core.record import check_map_hash

    bf = None
    if record.map_path is not None:
        check_map_hash(record)
        from game.maps.loader import load_map

        bf = load_map(record.map_path)
        scen = scen or map_demo(bf)
    scen = scen or scenario(record.scenario)
    state, events = new_game(scen, record.seed, settings=record.settings, battlefield=bf)
    for a in record.actions:
        events += apply(state, a)
    return state, events


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=1, help="game seed (same seed = same game)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a house setting (docs/settings.md), e.g. --set deviation.distance=roll*2")
    p.add_argument("--json", action="store_true", help="print the canonical JSON event log instead of text")
    p.add_argument("--record", metavar="FILE", help="also write the game record (JSON) to FILE")
    p.add_argument("--map", metavar="TMX",
                   help="play on a Tiled map (e.g. maps/bench-town.tmx) instead of the open table")


def run(args: argparse.Namespace) -> int:
    from game.ai.random_agent import RandomAgent
    from game.core.record import atomic_write_text

    try:
        overrides = Settings.from_options(args.set).overrides
    except SettingsError as exc:
        print(f"zona-alfa demo: {exc}", file=sys.stderr)
        return 2
    bf = None
    if args.map:
        from game.maps.loader import MapError, load_map

        try:
            bf = load_map(args.map)
            scen = map_demo(bf)
        except (MapError, ValueError, OSError) as exc:
            print(f"zona-alfa demo: {exc}", file=sys.stderr)
            return 2
    else:
        scen = scenario("open-table-demo")
    agents = {c.side: RandomAgent(args.seed * 1000 + i) for i, c in enumerate(scen.crews)}
    state, record, events = play(scen, agents, args.seed, settings=overrides, battlefield=bf)
    for e in events:
        print(e.line() if args.json else describe(e))
    if args.record:
        import json

        atomic_write_text(args.record, json.dumps(record.to_json(), indent=1, sort_keys=True))
    return 0
