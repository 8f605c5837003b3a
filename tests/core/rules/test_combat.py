"""Rules engine part 2 with scripted dice: ranged and melee combat, grenades, templates, Burn, wounds (TV vectors)."""
from __future__ import annotations

import math
from dataclasses import replace

import pytest

from game.core.actions import (
    Activate,
    Aim,
    DeclineMedKit,
    EndActivation,
    FlameAttack,
    IllegalAction,
    MeleeAttack,
    Parry,
    Rally,
    RangedAttack,
    Reload,
    TemplateAttack,
    ThrowGrenade,
    UseItem,
    Withdraw,
)
from game.core.battlefield import Cover, Movement, TerrainPiece
from game.core.dice import ScriptedDice
from game.core.geometry.polygon import rect
from game.core.rules.apply import apply
from game.core.state import Phase
from tests.enginekit import activate, game, profile, types


def rolls(events) -> list:
    return [e for e in events if e.type == "roll"]


def tn_of(events, what: str) -> int:
    return next(e.data["tn"] for e in rolls(events) if e.data["what"].startswith(what))


def piece(pid: int, name: str, x0, y0, x1, y1, top: float, *, cover: Cover, blocks: bool = False,
          movement: Movement = Movement.OPEN, bottom: float = 0.0, surface: bool = False) -> TerrainPiece:
    return TerrainPiece(pid, name, rect(x0, y0, x1, y1), bottom, top, blocks_los=blocks, cover=cover,
                        movement=movement, surface=surface)


HEDGE = piece(1, "split-log fence", 14.0, 9.0, 14.5, 13.0, 0.75, cover=Cover.OBSTRUCTION)
WALL = piece(2, "stone wall", 19.6, 9.0, 20.0, 13.0, 1.0, cover=Cover.HARD)


# --- TV-00 / TV-01 / TV-03 ranged numbers ---------------------------------------------------------


def test_tv01_weasel_shoots_the_bloodsucker():
    """TV-01: CA 5, AK, one obstruction, Armor 3, no cover -> attack TN 4 with 3 dice, save TN 2; with the
    Mutant profile (2 Wounds, Will 6) the deflection Will TN is 6, and 4 once wounded (GAP-91)."""
    st = game([("weasel", "a", profile(ca=5, weapons=("assault_rifle",)), (10, 11)),
               ("sucker", "b", profile(ca=6, armor=3, will=6, wounds=2, creature=True, base=1.6), (20, 11))],
              pieces=(HEDGE,))
    activate(st, "weasel")
    ev = apply(st, RangedAttack("weasel", "sucker", "assault_rifle"), ScriptedDice([4, 5, 9, 2, 5]))
    assert tn_of(ev, "Assault Rifle") == 4 and len(rolls(ev)[0].data["dice"]) == 3
    assert tn_of(ev, "armour saves") == 2
    assert tn_of(ev, "Will check") == 6  # 0 wounds: 2 hits, 1 deflected, 1 wound (dressed? no kit) -> wound kept
    st2 = game([("weasel", "a", profile(ca=5, weapons=("assault_rifle",)), (10, 11)),
                ("sucker", "b", profile(ca=6, armor=3, will=6, wounds=2, creature=True, base=1.6), (20, 11))],
               pieces=(HEDGE,))
    st2.models["sucker"].wounds_taken = 1
    activate(st2, "weasel")
    ev = apply(st2, RangedAttack("weasel", "sucker", "assault_rifle"), ScriptedDice([4, 9, 9, 2, 5]))
    assert tn_of(ev, "Will check") == 4


def test_tv01_wound_count_is_after_will_order():
    """COMBAT-4.3.ORDER: Wounds are applied before the Will check for deflections."""
    st = game([("weasel", "a", profile(ca=5, weapons=("assault_rifle",)), (10, 11)),
               ("sucker", "b", profile(armor=3, will=6, wounds=2, creature=True, base=1.6), (20, 11))],
              pieces=(HEDGE,))
    activate(st, "weasel")
    ev = apply(st, RangedAttack("weasel", "sucker", "assault_rifle"), ScriptedDice([1, 2, 9, 1, 8, 6]))
    order = [e.type for e in ev if e.type in ("wounded", "roll")]
    assert order.index("wounded") < [i for i, e in enumerate(ev) if e.type == "roll"][-1]
    assert st.models["sucker"].wounds_taken == 1


def test_tv03_raven_vs_rad_ghoul_behind_wall_and_hedge():
    """TV-03: CA 6 AK over a hedge at a Ghoul in contact with a stone wall -> TN 4; save 4 + 1 - 1 = 4;
    Will 6 + 2 = 8; a creature is never Obscured (ARMORY-5.3.NATURAL)."""
    st = game([("raven", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11)),
               ("ghoul", "b", profile(ca=5, armor=4, will=6, creature=True), (20.55, 11))],
              pieces=(HEDGE, WALL))
    activate(st, "raven")
    ev = apply(st, RangedAttack("raven", "ghoul", "assault_rifle"), ScriptedDice([3, 9, 9, 2, 7]))
    assert tn_of(ev, "Assault Rifle") == 4
    assert tn_of(ev, "armour saves") == 4
    assert tn_of(ev, "Will check") == 8
    breakdown = rolls(ev)[0].data["breakdown"]
    assert ["1 obstruction(s)", -1, "CORE-3.6.OBSTRUCTION"] in breakdown
    assert ["Hard cover", -1, "CORE-3.6.TABLE"] in breakdown


def test_tv19_pinned_target_soft_cover_civilian():
    """TV-19: CA 5 ranged vs a Pinned defender in soft cover wearing Civilian armour -> 5 - 2 - 1 - 1 = 1."""
    bush = piece(3, "scrub", 19.6, 9.0, 20.0, 13.0, 1.0, cover=Cover.SOFT)
    st = game([("a1", "a", profile(ca=5, weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(armor=5), (20.55, 11))], pieces=(bush,))
    st.units["b1"].pins = 1
    activate(st, "a1")
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([9, 9, 9]))
    assert tn_of(ev, "Assault Rifle") == 1
    labels = [b[0] for b in rolls(ev)[0].data["breakdown"]]
    assert "Obscured" in labels and "Pinned target" in labels


def test_tv19_melee_first_round_kick():
    """TV-19 / COMBAT-4.3.KICK-MELEE: CA 5 melee vs a Pinned defender, first round TN 7, then 5 (GAP-80)."""
    st = game([("a1", "a", profile(ca=5, actions=2, weapons=("machete",)), (10, 10)),
               ("b1", "b", profile(ca=4, weapons=("knife",)), (11.0, 10))])
    st.units["b1"].pins = 1
    activate(st, "a1")
    ev = apply(st, MeleeAttack("a1", "b1", "machete"), ScriptedDice([9, 9]))
    assert tn_of(ev, "melee with Machete") == 7
    ev = apply(st, MeleeAttack("a1", "b1", "machete"), ScriptedDice([9, 9]))
    assert tn_of(ev, "melee with Machete") == 5


# --- TV-02 melee and the parry decision -----------------------------------------------------------


def test_tv02_weasel_vs_bloodsucker_melee_and_parry():
    """TV-02: Bloodsucker CA 6 Big Claws FP 2 vs Weasel CA 5 with only an AK (-2): TN 6 x2 and TN 3 x3;
    the attacker then decides the parry (COMBAT-4.2.PARRY); deflected melee hits are misses."""
    sucker = replace(profile(ca=6, armor=3, will=6, wounds=2, creature=True, base=1.6, weapons=("big_claws",)),
                     fp_overrides=(("big_claws", 2, 1),))
    st = game([("sucker", "b", sucker, (11.3, 10)),
               ("weasel", "a", profile(ca=5, armor=5, weapons=("assault_rifle",)), (10, 10))])
    activate(st, "sucker")
    ev = apply(st, MeleeAttack("sucker", "weasel", "big_claws"), ScriptedDice([2, 3, 1, 7, 8]))
    assert tn_of(ev, "melee with Big") == 6 and len(rolls(ev)[0].data["dice"]) == 2
    assert tn_of(ev, "defending with Assault") == 3 and len(rolls(ev)[1].data["dice"]) == 3
    assert st.phase is Phase.PARRY and st.deciding == "b"
    with pytest.raises(IllegalAction):
        apply(st, Parry("sucker", 2))
    ev = apply(st, Parry("sucker", 1), ScriptedDice([9]))
    assert "parry" in types(ev)
    # 2 - 1 = 1 hit on Weasel (save TN 5 - 1 = 4, rolled 9: wound); Weasel's 1 hit parried.
    assert st.models["weasel"].ooa
    assert "will_exempt" not in types(ev) and not any(e.data.get("what", "").startswith("Will") for e in rolls(ev))


def test_melee_deadlock_and_withdraw():
    """COMBAT-4.3.DEADLOCK / COMBAT-4.3.WITHDRAW: a round with no result deadlocks; withdrawing takes a free
    attack (no parry, no attack dice for the withdrawer), then moves out of contact."""
    st = game([("a1", "a", profile(ca=5, actions=2, weapons=("knife",)), (10, 10)),
               ("b1", "b", profile(ca=5, weapons=("knife",)), (11.0, 10))])
    activate(st, "a1")
    ev = apply(st, MeleeAttack("a1", "b1", "knife"), ScriptedDice([9, 9]))
    assert "deadlock" in types(ev)
    with pytest.raises(IllegalAction) as ei:
        apply(st, Withdraw("a1", ((9.95, 10.0),)))
    assert ei.value.rule == "COMBAT-4.3.WITHDRAW"
    ev = apply(st, Withdraw("a1", ((5.0, 10.0),)), ScriptedDice([3, 2]))
    assert st.models["a1"].x == 5.0
    assert [e.data["what"] for e in rolls(ev)][0].startswith("free attack")


def test_forbidden_weapon_in_melee_and_knife_man_dual_wield():
    """ARMORY-5.1.MELEE-USE (`melee.forbidden`) and GAP-08: only a Knife Man uses two weapons (+1 CA)."""
    st = game([("a1", "a", profile(ca=5, weapons=("grenade_launcher", "knife", "pistol")), (10, 10)),
               ("b1", "b", profile(ca=5, weapons=("knife",)), (11.0, 10))])
    activate(st, "a1")
    with pytest.raises(IllegalAction) as ei:
        apply(st, MeleeAttack("a1", "b1", "grenade_launcher"))
    assert ei.value.rule == "ARMORY-5.1.MELEE-USE"
    with pytest.raises(IllegalAction):
        apply(st, MeleeAttack("a1", "b1", "knife", "pistol"))
    st2 = game([("a1", "a", profile(ca=5, skills=("knife_man",), weapons=("knife", "pistol")), (10, 10)),
                ("b1", "b", profile(ca=5, weapons=("knife",)), (11.0, 10))])
    activate(st2, "a1")
    ev = apply(st2, MeleeAttack("a1", "b1", "knife", "pistol"), ScriptedDice([9, 9, 9]))
    assert tn_of(ev, "melee with Knife") == 6 and tn_of(ev, "melee with Pistol") == 6


def test_shooting_into_contact_is_melee_only():
    """GEO-5: a target in base contact can only be attacked in melee; Engaged models may not shoot (GAP-78)."""
    st = game([("a1", "a", profile(weapons=("pistol",)), (10, 10)), ("b1", "b", profile(), (11.0, 10))])
    activate(st, "a1")
    with pytest.raises(IllegalAction):
        apply(st, RangedAttack("a1", "b1", "pistol"))


# --- saves (TV-29), Unload (TV-28), Reload and Limited Ammo --------------------------------------


def test_tv29_advanced_armour_best_of_two_and_pinned_hard_cover():
    """TV-29: Advanced (7) vs AK: TN 6, two dice per hit keep the best; Military (6) in hard cover,
    Pinned, vs AK: 6 + 1 + 2 - 1 = 8."""
    st = game([("a1", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(armor=7, save_dice=2, armour="advanced"), (16, 11))])
    activate(st, "a1")
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 9, 9, 8, 6, 6]))
    save = [e for e in rolls(ev) if e.data["what"] == "armour saves"][0]
    assert save.data["tn"] == 6 and save.data["rolled"] == [[8, 6]] and save.data["dice"] == [6]
    assert save.data["successes"] == 1
    st2 = game([("a1", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11)),
                ("b1", "b", profile(armor=6, armour="military"), (20.55, 11))], pieces=(WALL,))
    st2.units["b1"].pins = 1
    activate(st2, "a1")
    ev = apply(st2, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([1, 9, 9, 8, 6]))
    assert tn_of(ev, "armour saves") == 8


def test_tv29_bdu_two_hits_natural_one_fails_in_a_mix():
    """TV-29 / GAP-11: BDU (0) saves only on a natural 1, unless a 10 in the same roll makes it a mix."""
    st = game([("a1", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(armor=0, wounds=3, will=None), (16, 11))])
    activate(st, "a1")
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 2, 9, 1, 10]))
    save = [e for e in rolls(ev) if e.data["what"] == "armour saves"][0]
    assert save.data["crit"] == "mix" and save.data["successes"] == 0


def test_tv28_unload_eight_dice_then_reload():
    """TV-28: AK Unload = 3 + 3 + 2 = 8 dice in one round, two actions, then a Reload is needed."""
    st = game([("a1", "a", profile(ca=5, actions=3, skills=("unload",), weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(armor=5), (20, 11))])
    activate(st, "a1")
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle", unload=True), ScriptedDice([9] * 8))
    assert len(rolls(ev)[0].data["dice"]) == 8 and st.activation.spent == 2
    with pytest.raises(IllegalAction) as ei:
        apply(st, RangedAttack("a1", "b1", "assault_rifle"))
    assert ei.value.rule == "ARMORY-5.1.SR-RELOAD"
    apply(st, Reload("a1", "assault_rifle"))
    assert "assault_rifle" not in st.models["a1"].unloaded


def test_limited_ammo_and_reload_grenade_launcher():
    """ARMORY-5.1.SR-LIMITED (5 rounds) and SR-RELOAD: the 40 mm GL must reload after each shot."""
    st = game([("a1", "a", profile(ca=5, actions=3, weapons=("grenade_launcher",)), (10, 11)),
               ("b1", "b", profile(armor=5), (20, 11))])
    st.models["a1"].ammo["grenade_launcher"] = 1
    activate(st, "a1")
    apply(st, TemplateAttack("a1", "grenade_launcher", 20.0, 11.0), ScriptedDice([9, 1, 0.0, 9]))
    assert st.models["a1"].ammo["grenade_launcher"] == 0
    with pytest.raises(IllegalAction) as ei:
        apply(st, TemplateAttack("a1", "grenade_launcher", 20.0, 11.0))
    assert ei.value.rule == "ARMORY-5.1.SR-RELOAD"
    apply(st, Reload("a1", "grenade_launcher"))
    with pytest.raises(IllegalAction) as ei:
        apply(st, TemplateAttack("a1", "grenade_launcher", 20.0, 11.0))
    assert ei.value.rule == "ARMORY-5.1.SR-LIMITED"


@pytest.mark.parametrize("gap,damage", [(4.9, 3), (5.0, 3), (5.1, 2)])
def test_tv30_shotgun_damage_by_range(gap, damage):
    """TV-30: centre distance = edge distance + 1; 5.9" -> 3, 6.0" -> 3, 6.1" -> 2 (edge to edge)."""
    st = game([("a1", "a", profile(ca=5, weapons=("shotgun",)), (10, 11)),
               ("b1", "b", profile(armor=5), (10 + 1.0 + gap + 1.0, 11))])
    activate(st, "a1")
    ev = apply(st, RangedAttack("a1", "b1", "shotgun"), ScriptedDice([1, 9, 9, 9]))
    assert next(e for e in ev if e.type == "attack").data["damage"] == damage


def test_tv30_shotgun_in_base_contact_is_damage_3():
    st = game([("a1", "a", profile(ca=5, weapons=("shotgun",)), (10, 10)), ("b1", "b", profile(armor=5), (11, 10))])
    activate(st, "a1")
    ev = apply(st, MeleeAttack("a1", "b1", "shotgun"), ScriptedDice([1, 9, 9, 9, 9, 8]))
    assert tn_of(ev, "armour saves") == 2  # Armor 5 - Damage 3


def test_aim_adds_ca_and_damage_then_expires():
    """CORE-3.3.AIM: +1 CA and +1 Damage on the next attack only."""
    st = game([("a1", "a", profile(ca=5, actions=3, weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(armor=5), (20, 11))])
    activate(st, "a1")
    apply(st, Aim("a1"))
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([9, 9, 9]))
    assert tn_of(ev, "Assault Rifle") == 6
    assert next(e for e in ev if e.type == "attack").data["damage"] == 2
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([9, 9, 9]))
    assert tn_of(ev, "Assault Rifle") == 5


def test_red_dot_and_scope_bands():
    """EQUIP-6.2.RED-DOT/SCOPE (`sights.boundary`): <= half range Red Dot +1, beyond it Scope +1."""
    st = game([("a1", "a", profile(ca=5, actions=3, weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(armor=5), (28, 11)), ("b2", "b", profile(armor=5), (31, 11))],
              items={"a1": ["red_dot", "scope"]})
    activate(st, "a1")
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([9, 9, 9]))  # 17" <= 18"
    assert "Red Dot Sight" in [b[0] for b in rolls(ev)[0].data["breakdown"]]
    ev = apply(st, RangedAttack("a1", "b2", "assault_rifle"), ScriptedDice([9, 9, 9]))  # 20" > 18"
    assert "Scope" in [b[0] for b in rolls(ev)[0].data["breakdown"]]


def test_out_of_range_and_no_los_refused():
    """COMBAT-4.1.REQUIREMENTS / GEO-5: out of range and no LOS raise IllegalAction; nothing changes."""
    tall = piece(5, "bunker wall", 14.0, 5.0, 15.0, 17.0, 4.0, cover=Cover.HARDENED, blocks=True,
                 movement=Movement.IMPASSABLE)
    st = game([("a1", "a", profile(ca=5, weapons=("pistol",)), (10, 11)), ("b1", "b", profile(), (26, 11))])
    activate(st, "a1")
    before = st.to_json()
    with pytest.raises(IllegalAction) as ei:
        apply(st, RangedAttack("a1", "b1", "pistol"))
    assert ei.value.rule == "GEO-5" and st.to_json() == before
    st2 = game([("a1", "a", profile(ca=5, weapons=("assault_rifle",)), (10, 11)), ("b1", "b", profile(), (20, 11))],
               pieces=(tall,))
    activate(st2, "a1")
    with pytest.raises(IllegalAction) as ei:
        apply(st2, RangedAttack("a1", "b1", "assault_rifle"))
    assert ei.value.rule == "COMBAT-4.1.REQUIREMENTS"


# --- elevation (TV-31) ----------------------------------------------------------------------------


def test_tv31_elevated_attacker_degrades_cover():
    """TV-31: 3" above a defender behind hard cover -> soft: -1 CA, +1 Will, no Armor bonus; obstructions gone."""
    roof = piece(6, "roof", 8.0, 9.0, 12.0, 13.0, 3.0, cover=Cover.NONE, surface=True, movement=Movement.IMPASSABLE)
    st = game([("a1", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11, 3.0)),
               ("b1", "b", profile(armor=5, will=5), (20.55, 11))], pieces=(roof, HEDGE, WALL))
    activate(st, "a1")
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([3, 9, 9, 2, 7]))
    bd = rolls(ev)[0].data["breakdown"]
    assert tn_of(ev, "Assault Rifle") == 4  # 6 - 1 (soft, degraded) - 1 (Obscured in soft cover)
    assert not any(b[2] == "CORE-3.6.OBSTRUCTION" for b in bd)
    assert tn_of(ev, "armour saves") == 4  # 5 - 1: no hard-cover Armor
    assert tn_of(ev, "Will check") == 6  # 5 + 1 (soft)


# --- grenades and templates (TV-17, GAP-70..75, GEO-16) -------------------------------------------


def test_tv17_grenade_over_a_wall_direct_and_hidden():
    """TV-17: CA 5 throwing at a visible target over a wall (indirect) -> TN 4; not visible -> TN 2."""
    low = piece(7, "garden wall", 15.8, 5.0, 16.2, 17.0, 1.5, cover=Cover.HARD, blocks=True,
                movement=Movement.IMPASSABLE)
    deck = piece(8, "watchtower deck", 8.0, 9.0, 12.0, 13.0, 2.0, cover=Cover.NONE, surface=True,
                 movement=Movement.IMPASSABLE)
    st = game([("a1", "a", profile(ca=5, weapons=("knife",)), (10, 11, 2.0)), ("b1", "b", profile(), (20, 11))],
              pieces=(low, deck), grenades={"a1": {"hand_grenade": 2}})
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "hand_grenade", 20.0, 11.0), ScriptedDice([9, 4, 0.0, 9]))
    assert tn_of(ev, "Hand Grenade") == 4
    assert next(e for e in ev if e.type == "attack").data["indirect"] == "in_los"
    high = piece(9, "blast wall", 15.8, 5.0, 16.2, 17.0, 4.0, cover=Cover.HARDENED, blocks=True,
                 movement=Movement.IMPASSABLE)
    st2 = game([("a1", "a", profile(ca=5, weapons=("knife",)), (10, 11)), ("b1", "b", profile(), (21, 11))],
               pieces=(high,), grenades={"a1": {"hand_grenade": 2}})
    activate(st2, "a1")
    ev = apply(st2, ThrowGrenade("a1", "hand_grenade", 21.0, 11.0), ScriptedDice([9, 4, 0.0, 9]))
    assert tn_of(ev, "Hand Grenade") == 2


def test_tv15_shadow_forbids_indirect():
    """TV-15 / ARMORY-5.4.SHADOW: a target within 3" behind a 3" wall can only be grenaded from within 3"."""
    wall = piece(10, "concrete wall", 15.8, 5.0, 16.2, 17.0, 3.0, cover=Cover.HARDENED, blocks=True,
                 movement=Movement.IMPASSABLE)
    st = game([("a1", "a", profile(ca=5), (12.2, 11)), ("b1", "b", profile(), (18.0, 11))], pieces=(wall,),
              grenades={"a1": {"hand_grenade": 2}})
    activate(st, "a1")
    with pytest.raises(IllegalAction) as ei:
        apply(st, ThrowGrenade("a1", "hand_grenade", 18.0, 11.0))
    assert ei.value.rule == "ARMORY-5.4.SHADOW"


def test_hand_grenade_hits_every_touched_model_and_hard_cover_shields():
    """ARMORY-5.1.SBT-LBT / GAP-70 / GEO-16: each touched model takes one hit at Damage 2 and saves;
    a model behind a hard wall is unaffected; soft cover between gives +2 to the save."""
    wall = piece(11, "brick wall", 21.6, 9.0, 22.0, 13.0, 2.0, cover=Cover.HARD, blocks=True,
                 movement=Movement.IMPASSABLE)
    bush = piece(12, "bush", 19.6, 11.5, 20.0, 13.5, 0.75, cover=Cover.SOFT)
    st = game([("a1", "a", profile(ca=5), (10, 11)),
               ("b1", "b", profile(armor=5), (20.0, 11.0)),
               ("b2", "b", profile(armor=5), (19.0, 13.0)),
               ("b3", "b", profile(armor=5), (22.5, 12.0))],
              pieces=(wall, bush), grenades={"a1": {"hand_grenade": 1}})
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "hand_grenade", 20.5, 12.0), ScriptedDice([2, 9, 1, 9]))
    tmpl = next(e for e in ev if e.type == "template").data["models"]
    effects = {m["model"]: m["effect"] for m in tmpl}
    assert effects == {"b1": "affected", "b2": "soft_cover", "b3": "shielded"}
    saves = {e.data["who"]: e.data["tn"] for e in rolls(ev) if e.data["what"].startswith("armour save")}
    assert saves == {"b1": 3, "b2": 5}
    assert st.models["a1"].grenades["hand_grenade"] == 0


def test_grenade_miss_deviates_roll_over_two():
    """ARMORY-5.4.DEVIATION / GEO-18 / TV-16: a miss moves the template k/2 inches at the rolled angle."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=5), (20, 11))],
              grenades={"a1": {"hand_grenade": 1}})
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "hand_grenade", 20.0, 11.0), ScriptedDice([9, 7, math.pi / 2]))
    dev = next(e for e in ev if e.type == "deviation").data
    assert dev["distance"] == 3.5 and dev["point"] == pytest.approx([20.0, 14.5])
    # 3.5" away: the SBT (r 1.5) still reaches b1's base (r 0.5)? 3.5 > 2.0 -> untouched.
    assert next(e for e in ev if e.type == "template").data["models"] == []


def test_flash_bang_pins_without_save_will_na_immune():
    """ARMORY-5.1.GRENADE-TABLE / GAP-112: 1 Pin per model, no save; Will-NA models are immune."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(), (20, 11)),
               ("z1", "b", profile(will=None), (20, 12.0))], grenades={"a1": {"flash_bang": 1}})
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "flash_bang", 20.0, 11.5), ScriptedDice([2]))
    assert st.units["b1"].pins == 1 and st.units["z1"].pins == 0
    assert not any(e.data["what"].startswith("armour") for e in rolls(ev))


def test_smoke_cloud_blocks_los_and_will_check_gas_mask():
    """GAP-72: an LBT cloud 3" tall blocks LOS; touched models check Will at -2; a Gas Mask is exempt."""
    st = game([("a1", "a", profile(ca=5, actions=3, weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(will=5), (20, 11)), ("b2", "b", profile(will=5), (20, 12.5))],
              grenades={"a1": {"smoke": 1}}, items={"b2": ["gas_mask"]})
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "smoke", 20.0, 11.5), ScriptedDice([2, 4]))
    assert len(st.smoke) == 1
    assert tn_of(ev, "Will check in smoke") == 3
    assert any(e.type == "will_exempt" and e.data["model"] == "b2" for e in ev)
    assert st.units["b1"].pins == 1
    with pytest.raises(IllegalAction) as ei:
        apply(st, RangedAttack("a1", "b1", "assault_rifle"))
    assert ei.value.rule == "COMBAT-4.1.REQUIREMENTS"


def test_tv33_burn_chain_single_and_multi_wound():
    """TV-33: flame Damage 3 vs Civilian (5): TN 2; a Leader in Military (6): TN 3, saves until one passes or
    the Wounds run out (ARMORY-5.1.BURN, GAP-74)."""
    st = game([("a1", "a", profile(ca=5, weapons=("flame_thrower",)), (10, 11)),
               ("b1", "b", profile(armor=5), (15.0, 11)),
               ("lead", "b", profile(armor=6, wounds=2, actions=3, armour="military"), (16.5, 12.4))])
    activate(st, "a1")
    ev = apply(st, FlameAttack("a1", "flame_thrower", 0.0), ScriptedDice([5, 5, 3, 9]))
    burns = [e for e in rolls(ev) if e.data["what"].startswith("Burn")]
    assert [(b.data["who"], b.data["tn"]) for b in burns] == [("b1", 2), ("lead", 3), ("lead", 3)]
    assert st.models["b1"].ooa
    assert st.models["lead"].wounds_taken == 1 and not st.models["lead"].ooa  # failed once, then saved
    assert any(e.type == "burn_out" for e in ev)


def test_template_deflection_takes_will_check():
    """GAP-75: a model with a deflected template hit takes one Will check (no Pinned-in-cover bonus)."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=5, will=5), (20, 11))],
              grenades={"a1": {"hand_grenade": 1}})
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "hand_grenade", 20.0, 11.0), ScriptedDice([2, 1, 8]))
    assert tn_of(ev, "Will check") == 5 and st.units["b1"].pins == 1


# --- wounds in combat (TV-27, TV-34, TV-39) -------------------------------------------------------


def test_perma_dead_second_wound_different_round():
    """COMBAT-4.4.PERMA-DEAD / GAP-93: an OOA model hit again in a different round is dead; melee on an OOA
    model in contact is automatic."""
    st = game([("a1", "a", profile(ca=5, actions=3, weapons=("assault_rifle", "knife")), (10, 11)),
               ("b1", "b", profile(armor=5), (11.0, 11))])
    st.models["b1"].ooa = True
    st.models["b1"].wounds_taken = 1
    activate(st, "a1")
    ev = apply(st, MeleeAttack("a1", "b1", "knife"), ScriptedDice([]))
    assert st.models["b1"].dead and "dead" in types(ev)


def test_tv27_medkit_at_the_moment_of_a_ranged_wound_then_will_check():
    """TV-27 in combat: the Wound pauses for the Med-Kit decision, then the deflection Will check runs."""
    st = game([("a1", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(armor=5, will=5), (20, 11))], items={"b1": ["medkit"]})
    activate(st, "a1")
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 3, 9, 9, 2]))
    assert st.phase is Phase.MEDKIT and st.deciding == "b"
    ev = apply(st, UseItem("b1", "medkit"), ScriptedDice([7]))
    assert st.units["b1"].pins == 3  # 2 from the kit + 1 failed Will check
    assert not st.models["b1"].ooa and st.phase is Phase.ACTION and st.deciding == "a"
    assert tn_of(ev, "Will check") == 5


def test_tv34_multi_model_will_check_minus_losses():
    """TV-34: 6 Dogs (Will 4) lose 2 models and the round also has deflections -> Will TN 2."""
    dogs = [(f"d{i}", "b", profile(ca=4, armor=2, will=4, creature=True, base=1.0), (20 + (i % 3) * 1.05,
                                                                                     10 + (i // 3) * 1.05))
            for i in range(6)]
    st = game([("a1", "a", profile(ca=6, actions=3, skills=("unload",), weapons=("assault_rifle",)), (10, 11))] + dogs,
              units={"pack": [d[0] for d in dogs]})
    activate(st, "a1")
    # 8 dice, 3 hits; saves TN 1: [9, 9, 1] -> 2 wounds, 1 deflection; Will TN 4 - 2 = 2.
    ev = apply(st, RangedAttack("a1", "d0", "assault_rifle", unload=True),
               ScriptedDice([2, 2, 2, 9, 9, 9, 9, 9, 9, 9, 1, 5]))
    assert sum(1 for d in dogs if st.models[d[0]].ooa) == 2
    assert tn_of(ev, "Will check") == 2


def test_tv39_offturn_crit_success_banks_an_action():
    """TV-39 (GAP-12 `crit.offturn`): a 1 on a save by an unactivated model -> +1 action at its activation;
    an already-activated model gets nothing."""
    st = game([("a1", "a", profile(ca=6, actions=2, weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(armor=5, actions=2), (20, 11))])
    activate(st, "a1")
    apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 9, 9, 1, 5]))
    assert st.units["b1"].bonus_banked == 1
    apply(st, EndActivation("a1"))
    ev = apply(st, Activate("b1"))
    assert ev[0].data["banked_bonus"] == 1 and st.activation.bonus == 1
    st2 = game([("a1", "a", profile(ca=6, actions=2, weapons=("assault_rifle",)), (10, 11)),
                ("b1", "b", profile(armor=5, actions=2), (20, 11))])
    st2.units["b1"].activated = True
    activate(st2, "a1")
    ev = apply(st2, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 9, 9, 1, 5]))
    assert st2.units["b1"].bonus_banked == 0 and "extra_action_lost" in types(ev)


def test_declining_kit_then_ooa_in_combat():
    """COMBAT-4.4.OOA: a single-wound model that declines its kit goes Out of Action."""
    st = game([("a1", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(armor=5), (20, 11))], items={"b1": ["medkit"]})
    activate(st, "a1")
    apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 9, 9, 9]))
    apply(st, DeclineMedKit("b1"))
    assert st.models["b1"].ooa and st.phase is not Phase.MEDKIT


# --- every weapon special rule and grenade type ------------------------------------------------------


def test_tv00_single_die_table():
    """TV-00: P(success) of one die = clamp(TN, 1, 9) / 10 (natural 1 always, natural 10 never)."""
    from fractions import Fraction

    from game.core.dice import evaluate_pool

    for tn in range(-2, 13):
        p = Fraction(sum(evaluate_pool((f,), tn).successes for f in range(1, 11)), 10)
        assert p == Fraction(min(9, max(1, tn)), 10)


def test_molotov_sbt_damage_1_and_burn():
    """ARMORY-5.1.GRENADE-TABLE: Molotov SBT, 1/model, Burn: saves until one passes."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=3), (20, 11))],
              grenades={"a1": {"molotov": 1}})
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "molotov", 20.0, 11.0), ScriptedDice([3, 1, 9]))
    burns = [e for e in rolls(ev) if e.data["what"].startswith("Burn")]
    assert [b.data["tn"] for b in burns] == [2]  # Armor 3 - Damage 1
    assert any(e.type == "burn_out" for e in ev)


def test_satchel_charge_lbt_damage_3():
    """ARMORY-5.1.GRENADE-TABLE: Satchel Charge 2-12", LBT (r 2.5"), Damage 3."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=5), (20, 11)),
               ("b2", "b", profile(armor=5), (20, 13.9))], grenades={"a1": {"satchel_charge": 1}})
    activate(st, "a1")
    with pytest.raises(IllegalAction) as ei:
        apply(st, ThrowGrenade("a1", "satchel_charge", 25.0, 11.0))
    assert ei.value.rule == "GEO-5"
    ev = apply(st, ThrowGrenade("a1", "satchel_charge", 20.0, 11.5), ScriptedDice([3, 9, 9]))
    assert sorted(m["model"] for m in next(e for e in ev if e.type == "template").data["models"]) == ["b1", "b2"]
    assert {e.data["tn"] for e in rolls(ev) if e.data["what"].startswith("armour")} == {2}


def test_rpg_warheads_share_ammo_anti_infantry_needs_los():
    """GAP-05: one RPG, two warheads from one 5-round pool; anti-armour Damage 4 at a model, anti-infantry SBT
    direct only (not Indirect Fire)."""
    wall = piece(13, "wall", 15.8, 5.0, 16.2, 17.0, 4.0, cover=Cover.HARD, blocks=True, movement=Movement.IMPASSABLE)
    st = game([("a1", "a", profile(ca=5, actions=3, weapons=("rpg",)), (10, 11)),
               ("b1", "b", profile(armor=6), (20, 11)), ("b2", "b", profile(armor=6), (10, 20))], pieces=(wall,))
    activate(st, "a1")
    with pytest.raises(IllegalAction) as ei:
        apply(st, TemplateAttack("a1", "rpg", 21.0, 11.0, profile="anti_infantry"))
    assert ei.value.rule == "GAP-05"
    ev = apply(st, RangedAttack("a1", "b2", "rpg", profile="anti_armour"), ScriptedDice([2, 9]))
    assert tn_of(ev, "armour saves") == 2  # Armor 6 - Damage 4
    assert st.models["a1"].ammo["rpg"] == 4 and "rpg" in st.models["a1"].unloaded


def test_crew_served_weapon_never_moves():
    """ARMORY-5.1.SR-CREW / GAP-94: the model manning an HMG cannot move."""
    from game.core.actions import Move

    st = game([("a1", "a", profile(ca=5, weapons=("hmg",)), (10, 11)), ("b1", "b", profile(armor=5), (30, 11))])
    activate(st, "a1")
    with pytest.raises(IllegalAction) as ei:
        apply(st, Move("a1", ((12.0, 11.0),)))
    assert ei.value.rule == "ARMORY-5.1.SR-CREW"
    ev = apply(st, RangedAttack("a1", "b1", "hmg"), ScriptedDice([9] * 5))
    assert len(rolls(ev)[0].data["dice"]) == 5


def test_firing_into_melee_without_aim_assigns_hits_at_random():
    """GAP-76 (`melee.fire_into`=random_per_hit): un-aimed hits go at random to the target and every model in
    contact with it, friends included."""
    st = game([("a1", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11)),
               ("a2", "a", profile(armor=5), (19.0, 11)), ("b1", "b", profile(armor=5), (20.0, 11))])
    activate(st, "a1")
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 9, 9, 2, 9]))
    assigned = next(e for e in ev if e.type == "hits_assigned").data["assigned"]
    assert assigned == {"a2": 1}
    assert st.models["a2"].ooa


def test_template_kills_an_out_of_action_figure():
    """GAP-93 (`ooa.targetable`=templates_and_melee): an OOA figure under a template is hit; a Wound in a
    different round kills it (COMBAT-4.4.PERMA-DEAD)."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=5), (20, 11)),
               ("b2", "b", profile(armor=5), (21.1, 11))], grenades={"a1": {"hand_grenade": 1}})
    st.models["b1"].ooa = True
    st.models["b1"].wounds_taken = 1
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "hand_grenade", 20.5, 11.0), ScriptedDice([2, 9]))
    assert st.models["b1"].dead and "dead" in types(ev)
    st2 = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=5), (20, 11))],
               grenades={"a1": {"hand_grenade": 1}}, settings={"ooa.targetable": "never"})
    st2.models["b1"].ooa = True
    activate(st2, "a1")
    apply(st2, ThrowGrenade("a1", "hand_grenade", 20.0, 11.0), ScriptedDice([2]))
    assert not st2.models["b1"].dead


def test_kick_bonus_returns_after_rallying_clear():
    """GAP-80: the +2 is used once per set of Pins and returns when the defender is un-Pinned."""
    st = game([("a1", "a", profile(ca=5, actions=3, weapons=("machete",)), (10, 10)),
               ("b1", "b", profile(ca=4, actions=1, weapons=("knife",)), (11.0, 10))])
    st.units["b1"].pins = 1
    activate(st, "a1")
    apply(st, MeleeAttack("a1", "b1", "machete"), ScriptedDice([9, 9]))
    assert st.models["b1"].kicked
    apply(st, EndActivation("a1"))
    apply(st, Activate("b1"))
    apply(st, Rally("b1"))
    assert not st.models["b1"].kicked


def test_casualties_closest_to_the_attacker_first():
    """GAP-77: each unsaved hit on a multi-model unit removes the model closest to the attacker, whichever
    model was aimed at."""
    dogs = [("near", "b", profile(ca=4, armor=2, will=4, creature=True), (16.0, 11)),
            ("mid", "b", profile(ca=4, armor=2, will=4, creature=True), (17.05, 11)),
            ("far", "b", profile(ca=4, armor=2, will=4, creature=True), (18.1, 11))]
    st = game([("a1", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11))] + dogs,
              units={"pack": ["near", "mid", "far"]})
    activate(st, "a1")
    apply(st, RangedAttack("a1", "far", "assault_rifle"), ScriptedDice([2, 9, 9, 9]))
    assert st.models["near"].ooa and not st.models["far"].ooa and not st.models["mid"].ooa
