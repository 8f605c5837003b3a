"""Pre-placed hostiles (HOSTILE-8.3.ALT-DEPLOY, AI-S.PREPLACE, AI-C.8): in cover facing the nearest enemy zone, within
6" of the location, units 1" apart, on Alert as the scenario says; the location counts as triggered."""
from __future__ import annotations

import math

import pytest

from game.core.battlefield import Battlefield, Cover, TerrainPiece, Zone
from game.core.geometry.distance import base_distance
from game.core.geometry.polygon import rect
from game.core.rules.exposure import in_cover_at_rest
from game.core.rules.preplace import HostileSpec
from game.core.rules.setup import LocationSpec, Scenario, new_game, scenario

CRATES = TerrainPiece(1, "crates", rect(16.0, 14.0, 20.0, 15.0), 0.0, 1.5, cover=Cover.HARD)
HEDGE = TerrainPiece(2, "hedge", rect(16.0, 20.0, 20.0, 21.0), 0.0, 1.5, cover=Cover.SOFT)


def setup(*hostiles: HostileSpec, pieces: tuple = (CRATES, HEDGE)):
    demo = scenario("open-table-demo")
    zones = (Zone(1, "north", rect(0, 0, 36, 4)), Zone(2, "south", rect(0, 32, 36, 36)))
    bf = Battlefield(name="t", width=36.0, height=36.0, pieces=pieces, zones=zones)
    crews = tuple(c.__class__(c.side, c.name, z.name, c.models) for c, z in zip(demo.crews, zones, strict=True))
    scen = Scenario("t", "t", (36.0, 36.0), zones, crews, locations=(LocationSpec("camp", "the camp", "hotspot",
                                                                                  (18.0, 17.0), 2),),
                    hostiles=hostiles)
    return new_game(scen, 1, battlefield=bf)


def test_preplaced_bandits_stand_in_cover_facing_the_nearest_enemy_zone_on_alert() -> None:
    """AI-S.PREPLACE: each Bandit (its own unit, GAP-20) within 6" of pL, in base contact with the best cover (the
    hard crates, not the soft hedge) on the side away from the nearest enemy zone (north: the crates lie between),
    1" apart; Alert tokens per the scenario; the location is already triggered, no roll (HOSTILE-8.3.ALT-DEPLOY)."""
    st, ev = setup(HostileSpec("bandit", 2, "camp", alert=True))
    placed = [e for e in ev if e.type == "hostiles_placed"]
    assert [e.data["unit"] for e in placed] == ["camp-bandit-1", "camp-bandit-2"]
    assert all(e.data["cover"] == "hard" and e.data["alert"] for e in placed)
    a, b = st.models["camp-bandit-1"], st.models["camp-bandit-2"]
    for m in (a, b):
        assert math.hypot(m.x - 18.0, m.y - 17.0) <= 6.0 and m.y > 15.0  # south of the crates
        assert st.units[m.unit].alert and in_cover_at_rest(st, m.unit)
    assert base_distance(a.base(), b.base()).distance >= 1.0 - 1e-9
    loc = st.locations["camp"]
    assert loc.triggered and loc.force == "zone-camp" and loc.hostile_roll is None
    assert not [e for e in ev if e.type == "hostile_roll"]
    assert st.forces["zone-camp"].actions == 2  # TL2 (AI-C.3)


def test_a_pack_is_placed_together_and_keeps_cohesion() -> None:
    st, _ = setup(HostileSpec("dogs", 4, "camp", actions=1))
    dogs = [st.models[m] for m in st.units["camp-dogs-1"].models]
    assert all(d.deployed for d in dogs) and st.forces["zone-camp"].actions == 1
    from game.core.geometry.zone import cohesion

    assert cohesion([d.base() for d in dogs]).connected


@pytest.mark.parametrize("spec, field", [
    (HostileSpec("dragons", 1, "camp"), "hostile"),
    (HostileSpec("bandit", 1, "nowhere"), "location"),
    (HostileSpec("bandit", 0, "camp"), "figures"),
    (HostileSpec("bandit", 1, None), "at"),
    (HostileSpec("bandit", 1, None, at=(50.0, 1.0)), "at"),
    (HostileSpec("bandit", 1, "camp", actions=5), "actions"),
])
def test_bad_hostile_specs_are_refused(spec: HostileSpec, field: str) -> None:
    """Bad input: the scenario, the field and what is allowed."""
    with pytest.raises(ValueError) as ei:
        setup(spec)
    assert f"'{field}'" in str(ei.value) and "scenario t" in str(ei.value)
