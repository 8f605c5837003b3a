"""The crew autopilot (issue 16): plays a crew as a sensible player would, at a chosen level (`easy`, `normal`,
`hard`), from public queries only, with a reason on every decision. `CrewAutopilot(seed, level)`."""
from game.ai.autopilot.agent import CrewAutopilot
from game.ai.autopilot.levels import LEVELS, Level

__all__ = ["LEVELS", "CrewAutopilot", "Level"]
