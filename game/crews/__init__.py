"""Crews as roster files (docs/crews.md): the versioned TOML roster format holding every ROSTER-12 field, its
reader and writer, the shipped starter crews (crews/*.toml) and `load_crew`, which checks a roster against the
starting-crew rules of PART 7 (game.core.rules.crews) before play. Stands beside game.scenarios: imports only the
core."""
from __future__ import annotations

from game.crews.loader import CREWS_DIR, LoadedCrew, crew_path, known_crews, load_crew, read_roster
from game.crews.roster import FORMAT, VERSION, CrewFileError, crew_from_doc, roster_toml, validate_doc

__all__ = ["CREWS_DIR", "FORMAT", "VERSION", "CrewFileError", "LoadedCrew", "crew_from_doc", "crew_path",
           "known_crews", "load_crew", "read_roster", "roster_toml", "validate_doc"]
