"""Combat audit against RULES.md: one scripted-dice test per discrepancy found (rule IDs in names/docstrings)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from game.core.actions import MeleeAttack, RangedAttack, ThrowGrenade
from game.core.dice import ScriptedDice
from game.core.odds.actions import attack_odds
from game.core.rules.apply import apply
from tests.enginekit import activate, game, profile


def rolls(events) -> list:
    return [e for e in events if e.type == "roll"]


def roll_of(events, what: str):
    return next(e for e in rolls(events) if e.data["what"].startswith(what))


def _pack(n_contact: int, *, extra_far: bool = True) -> list:
    """A human at (10, 10) and a dog pack: `n_contact` dogs in base contact with him, one more out of contact."""
    spots = [(11.0, 10.0), (9.0, 10.0), (10.0, 11.0)][:n_contact]
    if extra_far:
        spots.append((12.05, 10.0))
    dog = profile("dog", ca=4, armor=2, will=4, creature=True, weapons=("claws",))
    return [(f"d{i}", "b", dog, p) for i, p in enumerate(spots)]


def test_gap77_multimodel_unit_melee_attack_pools_fp_of_models_in_contact():
    """GAP-77 (`multimodel.fp`=sum_eligible) / CORE-3.7.AS-ONE-MODEL: a pack attacking in melee rolls the FP of
    every model in base contact with the target (3 dogs in contact -> 3 dice; the 4th, out of contact, adds none)."""
    dogs = _pack(3)
    st = game([("h", "a", profile(ca=5, armor=5, weapons=("knife",)), (10.0, 10.0))] + dogs,
              units={"pack": [d[0] for d in dogs]})
    activate(st, "pack")
    ev = apply(st, MeleeAttack("pack", "h", "claws"), ScriptedDice([9, 9, 9, 9]))
    assert len(roll_of(ev, "melee with Claws").data["dice"]) == 3
    assert len(roll_of(ev, "defending with Knife").data["dice"]) == 1


def test_gap77_multimodel_unit_acts_through_a_model_in_contact():
    """GAP-77 / COMBAT-4.2.MELEE-REQ: the pack may attack when any of its models touches the target, even if
    its first-listed model does not."""
    dog = profile("dog", ca=4, armor=2, will=4, creature=True, weapons=("claws",))
    st = game([("h", "a", profile(ca=5, armor=5, weapons=("knife",)), (10.0, 10.0)),
               ("d0", "b", dog, (13.05, 10.0)), ("d1", "b", dog, (11.0, 10.0))], units={"pack": ["d0", "d1"]})
    activate(st, "pack")
    ev = apply(st, MeleeAttack("pack", "h", "claws"), ScriptedDice([9, 9]))
    assert len(roll_of(ev, "melee with Claws").data["dice"]) == 1


def test_gap77_multimodel_defender_fights_back_with_every_model_in_contact():
    """GAP-77 / COMBAT-4.2.SIMULTANEOUS: a human attacking one dog of a pack is answered by every dog of that
    unit in base contact with him (2 dice), not by the targeted dog alone."""
    dogs = _pack(2)
    st = game([("h", "a", profile(ca=5, armor=5, weapons=("knife",)), (10.0, 10.0))] + dogs,
              units={"pack": [d[0] for d in dogs]})
    activate(st, "h")
    ev = apply(st, MeleeAttack("h", "d0", "knife"), ScriptedDice([9, 9, 9]))
    assert len(roll_of(ev, "defending with Claws").data["dice"]) == 2


def test_gap77_pooled_melee_odds_match_the_dice():
    """The exact odds mirror the pooled dice (GAP-77): P(attacker hits >= 1) with 3 dice at TN 4 = 1 - 0.6^3."""
    dogs = _pack(3)
    st = game([("h", "a", profile(ca=5, armor=5, weapons=("knife",)), (10.0, 10.0))] + dogs,
              units={"pack": [d[0] for d in dogs]})
    activate(st, "pack")
    odds = attack_odds(st, MeleeAttack("pack", "h", "claws"))
    assert odds.attacker_numbers[0].dice == 3 and odds.defender_numbers.dice == 1
    assert next(iter(odds.outcomes.values())).attacker_hits.at_least(1) == 1 - Fraction(6, 10) ** 3


def test_gap77_multimodel_unit_ranged_attack_pools_fp_in_range():
    """GAP-77: every model of the unit with LOS and range adds its FP (AK 36": the model at 30" adds 3 dice,
    the one at 40" none)."""
    thug = profile("bandit", ca=5, armor=3, weapons=("assault_rifle",))
    st = game([("t0", "a", thug, (2.0, 10.0)), ("t1", "a", thug, (2.0, 11.05)), ("t2", "a", thug, (-8.0, 12.1)),
               ("v", "b", profile(armor=5), (33.0, 10.0))], units={"gang": ["t0", "t1", "t2"]})
    activate(st, "gang")
    ev = apply(st, RangedAttack("gang", "v", "assault_rifle"), ScriptedDice([9] * 6))
    assert len(roll_of(ev, "Assault Rifle").data["dice"]) == 6
    st2 = game([("t0", "a", thug, (2.0, 10.0)), ("t1", "a", thug, (2.0, 11.05)), ("t2", "a", thug, (-8.0, 12.1)),
                ("v", "b", profile(armor=5), (33.0, 10.0))], units={"gang": ["t0", "t1", "t2"]})
    activate(st2, "gang")
    odds = attack_odds(st2, RangedAttack("gang", "v", "assault_rifle"))
    assert odds.numbers.dice == 6 and odds.hits.at_least(1) == 1 - Fraction(5, 10) ** 6


def test_gap62_armor_capped_at_9_including_kevlar():
    """GAP-62 / GAP-111 (`advances.caps.armor`=9, incl. Kevlar/artifacts) with EQUIP-6.2.KEVLAR: Armor 8 + 2
    Kevlar Plates is Armor 9, so the save vs an AK (Damage 1) is TN 8."""
    st = game([("a1", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(armor=8), (20, 11))], items={"b1": ["kevlar_plates", "kevlar_plates"]})
    activate(st, "a1")
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 9, 9, 9]))
    assert roll_of(ev, "armour saves").data["tn"] == 8


def test_gap89_prone_model_defends_in_melee_at_minus_2():
    """GAP-89 (`prone.melee_ca`=-2): a prone model defends in melee at -2 CA."""
    st = game([("a1", "a", profile(ca=5, weapons=("knife",)), (10, 10)),
               ("b1", "b", profile(ca=5, weapons=("knife",)), (11.0, 10))])
    st.models["b1"].prone = True
    activate(st, "a1")
    ev = apply(st, MeleeAttack("a1", "b1", "knife"), ScriptedDice([9, 9]))
    assert roll_of(ev, "defending with Knife").data["tn"] == 3


@pytest.mark.setting("prone.counts_as_pinned")
def test_gap89_prone_counts_as_pinned_setting():
    """GAP-89 (`prone.counts_as_pinned`): true -> ranged -2 vs a prone target; false -> no modifier."""
    for flag, tn in ((True, 3), (False, 5)):
        st = game([("a1", "a", profile(ca=5, weapons=("assault_rifle",)), (10, 11)),
                   ("b1", "b", profile(armor=5), (20, 11))], settings={"prone.counts_as_pinned": flag})
        st.models["b1"].prone = True
        activate(st, "a1")
        ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([9, 9, 9]))
        assert roll_of(ev, "Assault Rifle").data["tn"] == tn


def test_gap72_smoke_will_modifier_and_pins_are_settings():
    """GAP-72 (`smoke.will_mod`, `smoke.fail_pins`): the smoke check uses the configured modifier and Pins."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(will=5), (20, 11))],
              grenades={"a1": {"smoke": 1}}, settings={"smoke.will_mod": -3, "smoke.fail_pins": 2})
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "smoke", 20.0, 11.0), ScriptedDice([2, 4]))
    assert roll_of(ev, "Will check in smoke").data["tn"] == 2
    assert st.units["b1"].pins == 2


def test_gap77_ranged_attack_on_a_unit_uses_its_least_protected_visible_model():
    """GAP-77 (`multimodel.cover`=least_protected): shooting at a pack needs LOS and range to one of its models
    and takes the cover of the least-protected one: d0 hides behind a blocking wall, d1 stands in the open, so the
    attack on "d0" is legal and rolls at the open TN (CA 5, no cover)."""
    from game.core.battlefield import Cover, Movement, TerrainPiece
    from game.core.geometry.polygon import rect

    wall = TerrainPiece(1, "bunker wall", rect(18.0, 8.0, 18.5, 12.0), 0.0, 4.0, blocks_los=True, cover=Cover.HARDENED,
                        movement=Movement.IMPASSABLE)
    dog = profile("dog", ca=4, armor=2, will=4, creature=True, weapons=("claws",))
    st = game([("a1", "a", profile(ca=5, weapons=("assault_rifle",)), (10.0, 10.0)),
               ("d0", "b", dog, (19.05, 10.0)), ("d1", "b", dog, (19.05, 13.0))],
              pieces=(wall,), units={"pack": ["d0", "d1"]})
    activate(st, "a1")
    odds = attack_odds(st, RangedAttack("a1", "d0", "assault_rifle"))
    ev = apply(st, RangedAttack("a1", "d0", "assault_rifle"), ScriptedDice([9, 9, 9]))
    assert roll_of(ev, "Assault Rifle").data["tn"] == 5 == odds.numbers.hit.value
    assert next(e for e in ev if e.type == "attack").data["target"] == "d1"
