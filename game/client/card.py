"""A scenario as the choice screen shows it (SCEN-10 cards): its card text from the scenario file and its table's
picture, each made once per process."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pygame

    from game.scenarios.loader import ScenarioFile

TL_NAMES = MappingProxyType({0: "White", 1: "Blue", 2: "Yellow", 3: "Red"})  # MISSION-8.2.TL
VICTORY_TEXT = MappingProxyType({  # `scen.victory` as the card says it (SCEN-10.5.VICTORY)
    "objective_then_advances": "the crew that completes the Mission Objective wins; otherwise the crew that earned "
                               "more advances this mission (POST-8.5.EARN); level: a draw (SCEN-10.5.VICTORY)"})
AGENT_LABELS = MappingProxyType({"human": "you, at this computer", "normal": "autopilot, normal",
                                 "easy": "autopilot, easy", "hard": "autopilot, hard", "random": "random legal actions",
                                 "nobody": "nobody: solo against the Zone"})  # seats and AGENTS, in words
SEED_MAX = 2**64 - 1  # game.sim.options.SEED_MAX: the PRNG takes 64 bits; a larger seed is refused, never reduced


# -- the scenario card and picture (per process) ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Card:
    """A scenario's card as the choice screen shows it: its title, the crews that play it (roster id, crew name) and
    its sections (heading, text); or, for a file that does not load, `error` (the loader's message)."""

    scenario: str  # the shipped name or file, as listed
    title: str
    crews: tuple[tuple[str, str], ...] = ()
    sections: tuple[tuple[str, str], ...] = ()
    subtitle: str = ""
    notes: str = ""
    error: str | None = None


@functools.lru_cache(maxsize=32)
def scenario_card(scenario: str) -> Card:
    """The card of a shipped scenario or a scenario file; a file that fails validation gives a Card with `error`
    (SourceError's message: every problem, one per line)."""
    from game.sim.sources import SourceError, scenario_source

    try:
        sf = scenario_source(scenario).file()
    except SourceError as exc:
        return Card(scenario, scenario, error=str(exc))
    crews = tuple((c, _crew_name(c, sf.k_limit)) for c in sf.crew_names)
    turns = f"{sf.turn_limit} turns" if sf.turn_limit else "4 + D3 turns, rolled at setup (MISSION-8.2.TURN-LIMIT)"
    limit = f", at most {sf.k_limit}K each (ZONE-8.1.PARITY)" if sf.k_limit else ""
    sections = [("Threat Level", f"TL{sf.tl} {TL_NAMES.get(sf.tl, '')} (MISSION-8.2.TL)".replace("  ", " ")),
                ("Turn limit", turns),
                ("Crews", ", ".join(name for _, name in crews) + limit),
                ("Mission Objective", _objective_text(sf)),
                ("Hot Spots", _hotspots_text(sf)),
                ("Hostiles", _hostiles_text(sf))]
    if sf.special_rules:
        from game.scenarios.special import SPECIAL_RULES

        texts = [SPECIAL_RULES[r].text if r in SPECIAL_RULES else r for r in sf.special_rules]
        sections.append(("Special rules", ". ".join(t[:1].upper() + t[1:] for t in texts) + "."))
    victory = VICTORY_TEXT.get(sf.victory, sf.victory)
    sections.append(("Victory", victory[:1].upper() + victory[1:]))
    sub = f"TL{sf.tl} - {turns.split(',')[0]} - {sf.battlefield.width:g}\" x {sf.battlefield.height:g}\""
    return Card(scenario, sf.name, crews, tuple(sections), sub, " ".join(sf.notes.split()))


def _crew_name(roster: str, k_limit: int | None) -> str:
    from game.crews import CrewFileError, load_crew

    try:
        return load_crew(roster, k_limit=k_limit).spec.name
    except (CrewFileError, OSError, ValueError):
        return roster


def _hostile_name(hostile: str) -> str:
    from game.core.catalog import load_catalog

    try:
        return load_catalog().hostile(hostile).name
    except (KeyError, ValueError):
        return hostile


def _actions(n: int | None) -> str:
    return "" if n is None else f", {n} action{'s' if n != 1 else ''}"


def _objective_text(sf: ScenarioFile) -> str:
    """The Mission Objective (MISSION-8.2.OBJECTIVE): where, its search, what it wakes, its key."""
    mos = [loc for loc in sf.locations if loc.kind == "objective"]
    if not mos:
        return "none"
    out = []
    for mo in mos:
        text = f"{mo.name} (TL{mo.tl}): search, {mo.search_actions} action{'s' if mo.search_actions != 1 else ''}"
        if mo.search_difficulty is not None:
            text += f", Difficulty {mo.search_difficulty}"
        if mo.fixed_spawn is not None:
            fs = mo.fixed_spawn
            text += f"; triggering it wakes {fs.figures} {_hostile_name(fs.hostile)}{_actions(fs.actions)}"
        if mo.key_task is not None:
            item = sf.items.get(mo.key_item or "", mo.key_item or "its key")
            text += (f"; a crew without {item} first completes {mo.key_task.name or 'a task'} (Difficulty "
                     f"{mo.key_task.difficulty}, {mo.key_task.actions} actions)")
        out.append(text)
    return "; ".join(out)


def _hotspots_text(sf: ScenarioFile) -> str:
    spots = [loc for loc in sf.locations if loc.kind == "hotspot"]
    if not spots:
        return "none"
    tls = sorted({s.tl for s in spots})
    return f"{len(spots)}, TL{'/'.join(str(t) for t in tls)} (MISSION-8.2.HOTSPOTS)"


def _hostiles_text(sf: ScenarioFile) -> str:
    """The pre-placed hostiles (HOSTILE-8.3.ALT-DEPLOY): how many of what, where, on Alert, actions."""
    if not sf.hostiles:
        return "none pre-placed; each location rolls its own when triggered (HOSTILE-8.3.ROLL)"
    out: list[str] = []
    for h in sf.hostiles:
        kind = _hostile_name(h.hostile)
        what = (f"{h.name} ({kind})" if h.figures == 1 else f"{h.figures} {h.name} ({kind})") if h.name else \
            f"{h.figures} {kind}"
        if h.sites:
            where = f" in one of {len(h.sites)} sites"
        elif h.location:
            where = f" at {h.location}"
        else:
            where = " roaming" if h.converge else ""
        out.append(what + where + (", on Alert" if h.alert else "") + _actions(h.actions))
    groups = {t: out.count(t) for t in out}  # identical forces once, counted (the four mobs of Ishikhov)
    return "; ".join(t if n == 1 else f"{n} groups of {t}" for t, n in groups.items())


@functools.lru_cache(maxsize=8)
def table_picture(scenario: str) -> pygame.Surface:
    """The scenario's table drawn with its art (~0.15 s, once per scenario per process); SourceError when the file
    does not load."""
    from game.render.models import SPRITES_DIR
    from game.render.picture import render_battlefield
    from game.sim.sources import scenario_source

    return render_battlefield(scenario_source(scenario).table(), px_per_inch=9, art=SPRITES_DIR)


