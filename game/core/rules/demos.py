"""The demo scenarios on a map: the demo crews alone (`map-demo`, the records made before Zone Hostiles existed
replay with it), and with the Zone (`map-zone-demo`, the default since issue 14): TL1 with the two Hot Spots GAP-118
chooses mirror-symmetrically from the map's anchors, plus its Mission Objective anchor (game.core.rules.hotspots)."""
from __future__ import annotations

from dataclasses import replace

from game.core.battlefield import Battlefield
from game.core.rules.hotspots import demo_locations
from game.core.rules.setup import MAP_DEMO, Scenario, map_demo
from game.core.settings import Settings

MAP_ZONE_DEMO = "map-zone-demo"
DEMO_TL = 1  # GAP-118 / MISSION-8.2.HOTSPOT-COUNT: TL1, 2 Hot Spots


def zone_demo_id(tl: int) -> str:
    """`map-zone-demo` at TL1, `map-zone-demo-tl2` / `-tl3` above: a record names the TL it was played at."""
    return MAP_ZONE_DEMO if tl == DEMO_TL else f"{MAP_ZONE_DEMO}-tl{tl}"


def zone_map_demo(bf: Battlefield, tl: int = DEMO_TL, *, settings: Settings | None = None) -> Scenario:
    """The demo crews on a map with its Hot Spots and Mission Objective at `tl` (GAP-118); `settings` are the game's
    (demo_locations refuses a `mapgen.hotspots.min_gap` it does not play)."""
    base = map_demo(bf)
    return replace(base, id=zone_demo_id(tl), name=f"Zone demo on {bf.name}, TL{tl}",
                   locations=demo_locations(bf, tl, settings=settings),
                   notes=f"The demo crews on a terrain map, TL{tl}: Hot Spots spawn Zone Hostiles (GAP-118).")


def demo_of(bf: Battlefield, scenario_id: str) -> Scenario:
    """The map demo a record names: `map-demo` (no locations) or `map-zone-demo[-tlN]` (Hot Spots at TL N)."""
    for tl in (1, 2, 3):
        if scenario_id == zone_demo_id(tl):
            return zone_map_demo(bf, tl)
    if scenario_id == MAP_DEMO:
        return map_demo(bf)
    known = ", ".join([MAP_DEMO] + [zone_demo_id(t) for t in (1, 2, 3)])
    raise ValueError(f"scenario {scenario_id!r} is not a map demo; map demos: {known}")
