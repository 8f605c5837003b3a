"""The exact odds pinned to RULES.md's worked examples (TV-01..TV-03, TV-17..TV-19, TV-21, TV-28, TV-29, TV-33,
TV-34), and `zona-alfa odds` printing TV-01 and TV-03."""
from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction as F

from game.cli import main as cli_main
from game.core.actions import FlameAttack, MeleeAttack, RangedAttack, ThrowGrenade
from game.core.battlefield import Cover, Movement
from game.core.catalog import load_catalog
from game.core.dice import ScriptedDice
from game.core.odds.actions import attack_odds
from game.core.odds.facts import odds_ctx, unit_facts
from game.core.odds.pools import pool_dist
from game.core.odds.ranged import defender_round, initiative_odds
from game.core.rules.context import Ctx
from game.core.rules.modifiers import AttackSituation, save_tn
from game.core.rules.turnrolls import roll_initiative
from game.odds_cli import odds_from_spec
from tests.core.rules.test_combat import HEDGE, WALL, piece
from tests.enginekit import activate, game, profile

D = F  # decimals from RULES.md are written as Fraction("0.784")


def tv01_state(settings=None):
    st = game([("weasel", "a", profile(ca=5, weapons=("assault_rifle",)), (10, 11)),
               ("sucker", "b", profile(ca=6, armor=3, will=6, wounds=2, creature=True, base=1.6), (20, 11))],
              pieces=(HEDGE,), settings=settings)
    activate(st, "weasel")
    return st


def test_tv01_weasel_shoots_the_bloodsucker_every_probability():
    """TV-01: hits Bin(3, 0.4), unsaved hits Bin(3, 0.32), P(OOA) of the 2-Wound Mutant, P(Pinned by the
    deflection Will check) with GAP-91 stacking, P(any Pin) with save crits (INTRO-1.2.CRIT-SCOPE), crits."""
    o = attack_odds(tv01_state(), RangedAttack("weasel", "sucker", "assault_rifle"))
    r = o.target_round
    assert (o.numbers.hit.value, o.numbers.dice, o.numbers.save.value) == (4, 3, 2)
    assert r.hits.fractions() == {0: D("0.216"), 1: D("0.432"), 2: D("0.288"), 3: D("0.064")}
    assert r.hits.at_least(1) == D("0.784") and r.hits.mean() == D("1.2")
    assert r.wounds.fractions() == {0: D("0.314432"), 1: D("0.443904"), 2: D("0.208896"), 3: D("0.032768")}
    assert r.p_wound == D("0.685568") and r.wounds.at_least(2) == D("0.241664")
    assert r.expected_wounds == D("0.96")
    assert r.p_ooa == D("0.241664")
    assert 1 - r.will.p("none") == D("0.098432") + D("0.098304")  # survives with >= 1 deflection
    assert r.p_pinned_by_will == D("0.0983552") == D("0.0393728") + D("0.0589824")
    assert r.p_any_pin == D("0.143936") == F(2249, 15625)
    assert o.attacker_crit.fractions() == {"success": D("0.217"), "failure": D("0.217"), "mix": D("0.054"),
                                           "none": D("0.512")}


def test_tv01_will_stack_false():
    """TV-01 with `wounded.will_stack`=false: the wounded Mutant checks at TN 5 -> 0.0885248 (GAP-91)."""
    o = attack_odds(tv01_state({"wounded.will_stack": False}), RangedAttack("weasel", "sucker", "assault_rifle"))
    assert o.target_round.p_pinned_by_will == D("0.0885248")


def test_tv02_melee_parry_as_many_as_possible():
    """TV-02: Weasel TN 3 x3 (AK in melee -2), Bloodsucker TN 6 x2; parrying all it can: P(Weasel keeps a hit)
    0.21852, P(Bloodsucker keeps a hit) 0.44688, P(all cancelled) 0.3346 (COMBAT-4.2.PARRY)."""
    sucker = replace(profile(ca=6, armor=3, will=6, wounds=2, creature=True, base=1.6, weapons=("big_claws",)),
                     fp_overrides=(("big_claws", 2, 1),))
    st = game([("sucker", "b", sucker, (11.3, 10)),
               ("weasel", "a", profile(ca=5, armor=5, weapons=("assault_rifle",)), (10, 10))])
    activate(st, "sucker")
    o = attack_odds(st, MeleeAttack("sucker", "weasel", "big_claws"))
    assert (o.defender_numbers.hit.value, o.defender_numbers.dice) == (3, 3)
    assert (o.attacker_numbers[0].hit.value, o.attacker_numbers[0].dice) == (6, 2)
    oc = o.outcomes["max"]
    assert oc.defender_hits.fractions() == {0: D("0.343"), 1: D("0.441"), 2: D("0.189"), 3: D("0.027")}
    assert oc.defender_hits.at_least(1) == D("0.657")
    assert oc.attacker_hits.fractions() == {0: D("0.16"), 1: D("0.48"), 2: D("0.36")}
    assert oc.attacker_hits.at_least(1) == D("0.84")
    left = oc.unparried.fractions()
    assert sum(p for (a, d), p in left.items() if d > 0) == D("0.21852")
    assert sum(p for (a, d), p in left.items() if a > 0) == D("0.44688")
    assert left[(0, 0)] == D("0.3346")
    assert o.attacker_numbers[0].save.value == 4  # Weasel's saves vs Big Claws; Bloodsucker's vs the AK:
    assert o.defender_numbers.save.value == 2


def test_tv03_raven_vs_rad_ghoul():
    """TV-03: TN 4, P(>=1 hit) 0.784, save TN 4, Will TN 8; P(>=1 wound) 0.561024; P(no wound, >=1
    deflection) 0.222976; P(Pinned) 0.0445952 (COMBAT-4.3.DEFLECT-WILL)."""
    st = game([("raven", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11)),
               ("ghoul", "b", profile(ca=5, armor=4, will=6, creature=True), (20.55, 11))], pieces=(HEDGE, WALL))
    activate(st, "raven")
    o = attack_odds(st, RangedAttack("raven", "ghoul", "assault_rifle"))
    r = o.target_round
    assert (o.numbers.hit.value, o.numbers.save.value, o.numbers.will.value) == (4, 4, 8)
    assert r.hits.at_least(1) == D("0.784")
    assert r.p_wound == D("0.561024")
    assert 1 - r.will.p("none") == D("0.222976")
    assert r.p_pinned_by_will == D("0.0445952") == D("0.222976") * D("0.2")


def test_tv17_grenade_over_a_wall():
    """TV-17: CA 5 throwing at a visible target over a wall -> TN 4 (P 0.4); target not visible -> TN 2 (0.2)."""
    low = piece(7, "garden wall", 15.8, 5.0, 16.2, 17.0, 1.5, cover=Cover.HARD, blocks=True,
                movement=Movement.IMPASSABLE)
    deck = piece(8, "deck", 8.0, 9.0, 12.0, 13.0, 2.0, cover=Cover.NONE, surface=True, movement=Movement.IMPASSABLE)
    st = game([("a1", "a", profile(ca=5), (10, 11, 2.0)), ("b1", "b", profile(), (20, 11))], pieces=(low, deck),
              grenades={"a1": {"hand_grenade": 2}})
    activate(st, "a1")
    o = attack_odds(st, ThrowGrenade("a1", "hand_grenade", 20.0, 11.0))
    assert o.tn.value == 4 and o.p_hit == D("0.4")
    high = piece(9, "blast wall", 15.8, 5.0, 16.2, 17.0, 4.0, cover=Cover.HARDENED, blocks=True,
                 movement=Movement.IMPASSABLE)
    st2 = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(), (21, 11))], pieces=(high,),
               grenades={"a1": {"hand_grenade": 2}})
    activate(st2, "a1")
    o2 = attack_odds(st2, ThrowGrenade("a1", "hand_grenade", 21.0, 11.0))
    assert o2.tn.value == 2 and o2.p_hit == D("0.2")


def test_tv18_initiative_odds_and_ties_keep_the_modifier():
    """TV-18: A (no Pinned units) vs B (2): 0.64 / 0.08 / 0.28; re-rolling ties P(A wins) = 0.64/0.92. The resolver
    re-rolls ties with the same modifier (GAP-16): a tie then 3 vs 4 - 2 goes to A."""
    o = initiative_odds(0, 2)
    assert (o["a_higher"], o["tie"], o["b_higher"]) == (D("0.64"), D("0.08"), D("0.28"))
    assert o["a_wins"] == D("0.64") / D("0.92")
    st = game([("a1", "a", profile(), (3, 3)), ("b1", "b", profile(), (30, 30)), ("b2", "b", profile(), (33, 33))])
    st.units["b1"].pins = 1
    st.units["b2"].pins = 2
    first = roll_initiative(Ctx(st, ScriptedDice([5, 7, 3, 4]), st.battlefield), ["a", "b"], purpose="turn")
    assert first == ["a", "b"]
    second = roll_initiative(Ctx(st, ScriptedDice([5, 7, 3, 6]), st.battlefield), ["a", "b"], purpose="turn")
    assert second == ["b", "a"]


def test_tv19_pinned_targets():
    """TV-19: CA 5 melee vs a Pinned defender, first round TN 7 (P 0.7); ranged vs a Pinned defender in soft
    cover with Civilian armour TN 1 (P 0.1 per die)."""
    st = game([("a1", "a", profile(ca=5, weapons=("machete",)), (10, 10)),
               ("b1", "b", profile(ca=4, weapons=("knife",)), (11.0, 10))])
    st.units["b1"].pins = 1
    activate(st, "a1")
    o = attack_odds(st, MeleeAttack("a1", "b1", "machete"))
    assert o.attacker_numbers[0].hit.value == 7
    assert o.outcomes["ai"].attacker_hits.fractions() == {0: D("0.3"), 1: D("0.7")}
    bush = piece(3, "scrub", 19.6, 9.0, 20.0, 13.0, 1.0, cover=Cover.SOFT)
    st2 = game([("a1", "a", profile(ca=5, weapons=("pistol",)), (10, 11)), ("b1", "b", profile(armor=5), (20.55, 11))],
               pieces=(bush,))
    st2.units["b1"].pins = 1
    activate(st2, "a1")
    o2 = attack_odds(st2, RangedAttack("a1", "b1", "pistol"))
    assert o2.numbers.hit.value == 1 and o2.hits.fractions() == {0: D("0.9"), 1: D("0.1")}


def test_tv21_anomaly_checks_and_lbt_discharge():
    """TV-21: Will 5 at TL2 -> TN 3 (0.3); Detector 5 (0.5); Leader 6 (0.6); each model touched by the LBT takes a
    Damage-2 hit: Military armour saves at TN 4, P(wound) 0.6 (ARMORY-5.2, COMBAT-4.1.SAVE)."""
    for tn, p in ((3, "0.3"), (5, "0.5"), (6, "0.6")):
        assert F(pool_dist(1, tn).by_succ[1], 10) == D(p)
    st = game([("a1", "a", profile(), (3, 3)), ("b1", "b", profile(armor=6, armour="military"), (20, 20))])
    ctx = odds_ctx(st)
    s = AttackSituation(template=True)
    sv = save_tn(st.models["b1"], 2, s, catalog=load_catalog(ctx.settings), settings=ctx.settings, target_pinned=False)
    r = defender_round(unit_facts(ctx, st.models["b1"]), {1: 1}, 1, save_tn=sv.value, save_group=1, ranged=True,
                       will_tn_of=None)
    assert sv.value == 4 and r.p_wound == D("0.6")


def test_tv28_unload_eight_dice():
    """TV-28: AK Unload = 3 + 3 + 2 = 8 dice; at TN 5, P(>=1 hit) = 1 - 0.5^8 = 0.99609375."""
    st = game([("a1", "a", profile(ca=5, actions=3, skills=("unload",), weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(armor=5), (20, 11))])
    activate(st, "a1")
    o = attack_odds(st, RangedAttack("a1", "b1", "assault_rifle", unload=True))
    assert o.numbers.dice == 8 and o.numbers.hit.value == 5
    assert o.hits.at_least(1) == D("0.99609375")


def test_tv29_saves():
    """TV-29: Advanced (7) vs AK: TN 6 best of two -> 0.84; BDU: 0.1 for one hit, 0.09 per die for two (GAP-11);
    Military in hard cover, Pinned, vs AK: TN 8 (0.8)."""
    adv = pool_dist(1, 6, group=2)
    assert adv.by_succ[1] / F(adv.denom) == D("0.84")
    assert pool_dist(1, 0).by_succ[1] / F(10) == D("0.1")
    two = pool_dist(2, 0)
    assert sum(k * w for k, w in enumerate(two.by_succ)) / F(2 * two.denom) == D("0.09")
    st = game([("a1", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11)),
               ("b1", "b", profile(armor=6, armour="military"), (20.55, 11))], pieces=(WALL,))
    st.units["b1"].pins = 1
    activate(st, "a1")
    o = attack_odds(st, RangedAttack("a1", "b1", "assault_rifle"))
    assert o.numbers.save.value == 8
    assert pool_dist(1, o.numbers.save.value).by_succ[1] / F(10) == D("0.8")


def test_tv33_burn():
    """TV-33: Flame Damage 3 vs Civilian (5): TN 2, P(OOA) 0.8; Leader in Military (6): TN 3, P(0 wounds) 0.3,
    P(1 wound then saves) 0.21, P(OOA) 0.49 (ARMORY-5.1.BURN, GAP-74; no Med-Kit)."""
    st = game([("a1", "a", profile(ca=5, weapons=("flame_thrower",)), (10, 11)),
               ("b1", "b", profile(armor=5), (15.0, 11)),
               ("lead", "b", profile(armor=6, wounds=2, actions=3, armour="military"), (16.5, 12.4))])
    activate(st, "a1")
    o = attack_odds(st, FlameAttack("a1", "flame_thrower", 0.0))
    assert o.models["b1"].p_ooa == D("0.8")
    lead = o.models["lead"].given["affected"]
    assert lead.wounds.fractions() == {0: D("0.3"), 1: D("0.21"), 2: D("0.49")}
    assert lead.p_ooa == D("0.49")


def test_tv34_multi_model_will_check_minus_losses():
    """TV-34: 6 Dogs (Will 4) that have lost 2 models check deflections at TN 2 (P fail 0.8)."""
    dogs = [(f"d{i}", "b", profile(ca=4, armor=2, will=4, creature=True), (20 + (i % 3) * 1.05, 10 + (i // 3) * 1.05))
            for i in range(6)]
    st = game([("a1", "a", profile(ca=6, weapons=("pistol",)), (10, 11))] + dogs, units={"pack": [d[0] for d in dogs]})
    st.models["d4"].ooa = st.models["d5"].ooa = True
    activate(st, "a1")
    o = attack_odds(st, RangedAttack("a1", "d0", "pistol"))
    r = o.target_round
    # one die: a deflection (no wound) leaves 2 lost -> TN 2
    p_defl = r.deflections.p(1)
    assert p_defl > 0 and r.p_pinned_by_will == p_defl * D("0.8")


def test_cli_odds_prints_tv01_and_tv03(capsys):
    """`zona-alfa odds` prints TV-01 (readable) and TV-03 (--json as exact "p/q")."""
    assert cli_main(["odds", "--ca", "5", "--obstructions", "1", "--armor", "3", "--will", "6", "--wounds", "2",
                     "--creature"]) == 0
    out = capsys.readouterr().out
    assert "hit TN 4" in out and "TN 2" in out
    for text in ("0.784", "0.685568", "0.241664", "0.0983552", "0.143936", "= 2249/15625"):
        assert text in out
    assert cli_main(["odds", "--ca", "6", "--obstructions", "1", "--cover", "hard", "--armor", "4", "--will", "6",
                     "--creature", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["p_hit"] == "98/125"
    assert F(data["summary"]["p_wound"]) == D("0.561024")
    assert F(data["summary"]["p_pinned_by_will"]) == D("0.0445952")
    assert data["numbers"]["will_tn"].startswith("TN 8")


def test_cli_odds_json_file_and_bad_field(tmp_path, capsys):
    """A JSON description works like the flags; an unknown field is named with the file."""
    good = tmp_path / "tv01.json"
    good.write_text(json.dumps({"ca": 5, "obstructions": 1, "armor": 3, "will": "6", "wounds": 2, "creature": True}))
    assert cli_main(["odds", str(good), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["p_any_pin"] == "2249/15625"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"armour_class": 3}))
    assert cli_main(["odds", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "armour_class" in err


def test_spec_matches_game_state_tv01():
    """The command-line description and the game-state path give the same exact odds (one TN function)."""
    a = odds_from_spec({"ca": 5, "obstructions": 1, "armor": 3, "will": "6", "wounds": 2, "creature": True})
    b = attack_odds(tv01_state(), RangedAttack("weasel", "sucker", "assault_rifle"))
    assert a.target_round.pins.fractions() == b.target_round.pins.fractions()
    assert a.summary() == b.summary()
