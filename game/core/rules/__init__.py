"""The rules: `apply` (the one writer of the game state) and `validate`, the turn machine, one module per action
family, and every target number.

Layering: imports the data model (game.core.*) and game.core.geometry, never game.core.odds or anything above the
core. Inside: `apply` -> `phases` (each phase's decisions) -> `flow` (turns, activations, interrupt windows) ->
`dispatch` (the explicit action table and the continuations) -> the families (`moves`, `basic`, `items`, `tasks`,
`orders`, `fire`, `melee`, `blasts`, `scouting`, `deploy`) -> what they share (`attack`, `movepath`, `queries`,
`delivery`, `template_effects`, `burn`, `locations`, `exposure`, `modifiers`, `stats`, `wounds`, `outcome`,
`context`). Families never import each other: a nested action (an Order's) re-enters dispatch through
`Ctx.check_action` / `Ctx.resolve`. This face re-exports the entry points other packages use.
"""
from __future__ import annotations

from game.core.rules.apply import apply, validate
from game.core.rules.context import settings_of
from game.core.rules.flow import eligible_units, remaining
from game.core.rules.movepath import hustle_due
from game.core.rules.setup import Scenario, map_demo, new_game, scenario

__all__ = ["Scenario", "apply", "eligible_units", "hustle_due", "map_demo", "new_game", "remaining", "scenario",
           "settings_of", "validate"]
