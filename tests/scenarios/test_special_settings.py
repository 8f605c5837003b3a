"""The house settings of the Red Gypsy 3 special rules (game.core.rules.special_rules): each flipped changes the
hostiles its scenario places at setup (GAP-99, GAP-100, GAP-101); the file names the rule, the settings change it."""
from __future__ import annotations

import pytest

from tests.scenarios.kit import fresh


def _forces(st, hostile: str):
    return [f for f in st.forces.values() if f.hostile == hostile]


@pytest.mark.setting("scen.g1.dogs_per_pack", "scen.g1.dog_actions")
def test_g1_pack_size_and_actions() -> None:
    st, _ = fresh("crossroads-blyatsk", 1, {"scen.g1.dogs_per_pack": 6, "scen.g1.dog_actions": 2})
    dogs = [m for m in st.models.values() if m.side in st.forces]
    assert len(dogs) == 12 and all(m.profile.actions == 2 for m in dogs)
    assert all(f.actions == 2 for f in _forces(st, "dogs"))
    base, _ = fresh("crossroads-blyatsk", 1)
    assert len([m for m in base.models.values() if m.side in base.forces]) == 8


@pytest.mark.setting("scen.g1.packs_share_structure")
def test_g1_packs_may_roll_their_structures_apart() -> None:
    """false: each pack rolls its own structure (two `hostile_site_chosen` events); over seeds they differ."""
    differ = 0
    for seed in range(1, 9):
        st, ev = fresh("crossroads-blyatsk", seed, {"scen.g1.packs_share_structure": False})
        chosen = [e.data["site"] for e in ev if e.type == "hostile_site_chosen"]
        assert len(chosen) == 2
        differ += chosen[0] != chosen[1]
        centres = {tuple(f.centre) for f in _forces(st, "dogs")}
        assert len(centres) == len(set(chosen))
    assert differ >= 1
    _, ev = fresh("crossroads-blyatsk", 1)
    assert len([e for e in ev if e.type == "hostile_site_chosen"]) == 1


@pytest.mark.setting("scen.g2.free_alert", "scen.g2.melee_weapon")
def test_g2_alert_and_melee_weapon() -> None:
    st, _ = fresh("chernya-woods", 1, {"scen.g2.free_alert": False, "scen.g2.melee_weapon": "machete"})
    gang = [m for m in st.models.values() if m.side == "zone-camp"]
    assert len(gang) == 5 and not any(st.units[m.unit].alert for m in gang)
    assert all(m.profile.weapons == ("assault_rifle", "machete") for m in gang)


@pytest.mark.setting("scen.g3.mobs", "scen.g3.mob_size")
def test_g3_number_and_size_of_the_mobs() -> None:
    st, _ = fresh("ishikhov", 1, {"scen.g3.mobs": 2, "scen.g3.mob_size": 3})
    mobs = [u for u, un in st.units.items() if un.side in st.forces]
    assert len(mobs) == 2 and all(len(st.units[u].models) == 3 for u in mobs)
    with pytest.raises(ValueError, match="scen.g3.mobs"):
        fresh("ishikhov", 1, {"scen.g3.mobs": 5})
