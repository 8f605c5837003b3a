"""The hostiles' memory kept by `apply` (AI-D.02 target lock, AI-D.03 melee draw): set, kept, dropped, as plain data
in the state, never by an agent."""
from __future__ import annotations

from game.core.actions import EndActivation, MeleeAttack, Move
from game.core.battlefield import Cover, Movement, TerrainPiece
from game.core.dice import ScriptedDice
from game.core.geometry.polygon import rect
from game.core.rules.apply import apply
from tests.enginekit import activate, profile
from tests.zonekit import activate_hostile, add_force, lock, zone_game

WALL = TerrainPiece(1, "wall", rect(17.0, 0.0, 18.0, 36.0), 0.0, 4.0, blocks_los=True, cover=Cover.HARD,
                    movement=Movement.IMPASSABLE)


def types(ev: list) -> list[str]:
    return [e.type for e in ev]


def test_the_lock_is_set_to_the_ai_d01_choice_at_the_start_of_an_activation() -> None:
    """AI-D.01/AI-D.02: with no lock, the check at activation start locks the closest enemy it sees."""
    st = zone_game([("a1", "a", profile(), (10.0, 10.0)), ("a2", "a", profile(), (10.0, 20.0))])
    (unit,) = add_force(st, "zombies", [(13.0, 10.0)], location=(14.0, 12.0), units=1)
    ev = activate_hostile(st, unit)
    (e,) = [x for x in ev if x.type == "target_locked"]
    assert e.data["target"] == "a1" and e.data["candidates"] == ["a1"] and "AI-D.02" in e.rules
    assert st.ai[unit].lock == "a1" and st.ai[unit].last_known == [10.0, 10.0] and st.ai[unit].lock_ok


def test_the_lock_holds_when_another_enemy_comes_closer() -> None:
    """AI-D.02: the locked target stays the target although another enemy is now closer."""
    st = zone_game([("a1", "a", profile(), (10.0, 10.0)), ("a2", "a", profile(), (10.0, 20.0))])
    (unit,) = add_force(st, "zombies", [(13.0, 10.0)], location=(14.0, 12.0), units=1)
    lock(st, unit, "a2")
    activate_hostile(st, unit)
    assert st.ai[unit].lock == "a2"


def test_an_unseen_target_outside_the_territory_is_dropped_at_the_end_of_the_activation() -> None:
    """AI-D.02 (ii): neither visible nor within 12" of pL at any check of the activation -> dropped at its end."""
    st = zone_game([("a1", "a", profile(), (30.0, 10.0))], pieces=(WALL,))
    (unit,) = add_force(st, "zombies", [(8.0, 10.0)], location=(6.0, 10.0), units=1)
    lock(st, unit, "a1", at=(16.0, 10.0))
    activate_hostile(st, unit)
    assert st.ai[unit].lock == "a1" and st.ai[unit].unseen == 1
    ev = apply(st, EndActivation(unit))
    (e,) = [x for x in ev if x.type == "target_lock_dropped"]
    assert e.data["target"] == "a1" and "neither visible nor inside" in e.data["why"]
    assert st.ai[unit].lock is None and st.ai[unit].last_known == []


def test_an_unseen_target_inside_the_territory_keeps_the_lock() -> None:
    """AI-D.02 (ii): the target's centre within 12" of pL counts as a check passed (they "sense" it)."""
    st = zone_game([("a1", "a", profile(), (19.0, 10.0))], pieces=(WALL,))
    (unit,) = add_force(st, "zombies", [(8.0, 10.0)], location=(10.0, 10.0), units=1)
    lock(st, unit, "a1")
    activate_hostile(st, unit)
    ev = apply(st, EndActivation(unit))
    assert "target_lock_dropped" not in types(ev) and st.ai[unit].lock == "a1"


def test_a_lock_on_a_model_out_of_action_drops_at_once() -> None:
    """AI-D.02 (i): as soon as the target is OOA/Dead."""
    st = zone_game([("a1", "a", profile(), (10.0, 10.0)), ("a2", "a", profile(), (10.0, 20.0))])
    (unit,) = add_force(st, "zombies", [(13.0, 10.0)], location=(14.0, 12.0), units=1)
    lock(st, unit, "a1")
    activate(st, "a2")
    st.models["a1"].ooa = True
    ev = apply(st, EndActivation("a2"))
    assert "target_lock_dropped" in types(ev) and st.ai[unit].lock is None


def test_a_melee_attack_draws_the_hostile_and_the_draw_ends_out_of_contact() -> None:
    """AI-D.03 / AI-8.3.RULE4: an enemy's melee attack on H makes the attacker H's target (over the lock) while in
    contact; out of contact at the end of H's activation, the draw ends."""
    st = zone_game([("a1", "a", profile(weapons=("knife",)), (10.0, 10.0)), ("a2", "a", profile(), (10.0, 20.0))])
    (unit,) = add_force(st, "zombies", [(11.0, 10.0)], location=(14.0, 12.0), units=1)
    lock(st, unit, "a2")
    activate(st, "a1")
    ev = apply(st, MeleeAttack("a1", f"{unit}", "knife"), ScriptedDice([10, 10, 10, 10, 10]))
    assert [x.data["target"] for x in ev if x.type == "melee_draw"] == ["a1"]
    mem = st.ai[unit]
    assert mem.draw == "a1" and mem.attackers == ["a1"] and mem.lock == "a2"
    st.models["a1"].x = 3.0  # the attacker is no longer in contact
    activate_hostile(st, unit)
    ev = apply(st, EndActivation(unit))
    assert [x.data["target"] for x in ev if x.type == "melee_draw"] == [None] and st.ai[unit].draw is None


def test_hostile_moves_never_trigger_and_crew_moves_do() -> None:
    """HOSTILE-8.3.NO-TRIGGER / AI-C.6: a hostile path through a Reaction Radius triggers nothing."""
    from game.core.state import LocationState

    st = zone_game([("a1", "a", profile(), (30.0, 30.0))])
    (unit,) = add_force(st, "zombies", [(5.0, 10.0)], location=(6.0, 10.0), units=1)
    st.locations["other"] = LocationState("other", "the other", "hotspot", 8.0, 10.0, 1)
    activate_hostile(st, unit)
    ev = apply(st, Move(unit, ((8.0, 11.0),)))
    assert "location_triggered" not in types(ev) and not st.locations["other"].triggered
