"""The autopilot's levels: one table of weights and switches per level, so every difference between `easy`,
`normal` and `hard` is a number a designer can read (docs/autopilot.md lists them)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    """How a level plays.

    * `cover` / `exposure`: a move's worth of ending in cover against each enemy that sees the spot, and its cost
      per unit of threat there (0: the level ignores where it stands).
    * `min_shot`: the least attack value (expected enemy models put out, weighted) worth an action rather than a
      move; `focus`: the bonus for hitting a unit already Wounded or Pinned, or attacked by the crew this turn.
    * `grenades`, `alert`, `aim`, `back_off`, `avoid_trigger_wounded`, `search_hotspots`: behaviours switched on.
    * `medkit`: the share of Med-Kit offers taken (decided by the agent's own seeded generator).
    * `slip`: the chance of taking the second-best option instead of the best (a person's error); `distract`: the
      chance a unit forgets its job and goes for the nearest enemy instead (a beginner chasing the fight).
    * `rush`: searches and triggers go by the shortest path, not by cover (the objective is a race).
    * `melee_fire`: shoots at an enemy in base contact with a friend (GAP-76: some hits may fall on the friend).
    * `cover_step`: spacing of the cover points a move considers (inches; smaller is finer and slower)."""

    name: str
    cover: float
    exposure: float
    min_shot: float
    focus: float
    grenades: bool
    alert: bool
    aim: bool
    back_off: bool
    avoid_trigger_wounded: bool
    search_hotspots: bool
    medkit: float
    slip: float
    cover_step: float
    distract: float = 0.0
    rush: bool = True
    melee_fire: bool = False


LEVELS: dict[str, Level] = {
    "easy": Level("easy", cover=0.0, exposure=0.0, min_shot=0.0, focus=0.0, grenades=False, alert=False,
                  aim=False, back_off=False, avoid_trigger_wounded=False, search_hotspots=False, medkit=0.5,
                  slip=0.3, cover_step=2.0, distract=0.3, rush=False, melee_fire=True),
    "normal": Level("normal", cover=0.6, exposure=0.5, min_shot=0.08, focus=0.25, grenades=True, alert=True,
                    aim=False, back_off=True, avoid_trigger_wounded=True, search_hotspots=True, medkit=1.0,
                    slip=0.0, cover_step=1.0),
    "hard": Level("hard", cover=0.8, exposure=0.8, min_shot=0.06, focus=0.35, grenades=True, alert=True,
                  aim=True, back_off=True, avoid_trigger_wounded=True, search_hotspots=True, medkit=1.0,
                  slip=0.0, cover_step=1.0),
}
