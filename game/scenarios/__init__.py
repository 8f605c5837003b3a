"""Scenarios as data (issue 15 part 3): versioned TOML scenario files (docs/scenarios.md), their loader and checker.

    from game.scenarios import resolve_scenario, known_scenarios, ScenarioError
    sf = resolve_scenario("chernya-woods")      # or a path to a .toml file
    scenario, battlefield = sf.build(crews)      # CrewSpecs, one per deployment zone

This package stands on game.maps and game.core; it never imports game.sim or game.ai (pyproject's layers)."""
from game.scenarios.loader import (
    FORMAT,
    SCENARIO_DIR,
    VERSION,
    Deployment,
    ScenarioFile,
    ScenarioNotFound,
    known_scenarios,
    parse_scenario,
    resolve_scenario,
)
from game.scenarios.problems import Problem, ScenarioError
from game.scenarios.special import SPECIAL_RULES

__all__ = ["FORMAT", "SCENARIO_DIR", "SPECIAL_RULES", "VERSION", "Deployment", "Problem", "ScenarioError",
           "ScenarioFile", "ScenarioNotFound", "known_scenarios", "parse_scenario", "resolve_scenario"]
