"""The exact odds equal `apply` over every die outcome class (INTRO-1.2.CRIT-*, COMBAT-4.*, GAP-11, GAP-14, GAP-74,
GAP-76, GAP-77, GAP-91, AI-D.11, AI-D.12): each scenario is enumerated through the resolver with scripted dice."""
from __future__ import annotations

import pytest

from game.core.actions import FlameAttack, MeleeAttack, RangedAttack, TemplateAttack, ThrowGrenade
from game.core.battlefield import Cover
from game.core.odds.actions import attack_odds
from game.core.state import GameState
from tests.core.odds.test_odds_kit import Leaf, Policy, enumerate_apply, marginal, nonzero, rolls
from tests.core.rules.test_combat import HEDGE, WALL, piece
from tests.enginekit import activate, game, profile


def _first(lf: Leaf, kind: str, who: str, default):
    for e in lf.events:
        if e.type == kind and (e.data.get("model") == who or e.data.get("who") == who):
            return e
    return default


def round_marginals(base: GameState, leaves: list[Leaf], target: str) -> dict[str, dict]:
    """What the resolver did to `target` in each leaf, as the marginals RoundOdds reports."""
    unit = base.models[target].unit
    pins0 = base.units[unit].pins
    lost0 = sum(1 for m in base.unit_models(unit) if not m.in_play)

    def hr(lf: Leaf):
        return _first(lf, "hits_resolved", target, None)

    members = set(base.units[unit].models)

    def will(lf: Leaf) -> str:
        w = [e for e in lf.events if e.type == "roll" and e.data["what"] == "Will check for deflected hits"
             and e.data["who"] in members]
        if w:
            return "pass" if w[0].data["successes"] else "fail"
        if any(e.type == "will_exempt" and e.data["model"] in members for e in lf.events):
            return "exempt"
        return "none"

    def will_crit(lf: Leaf) -> str:
        w = [e for e in lf.events if e.type == "roll" and e.data["what"] == "Will check for deflected hits"
             and e.data["who"] in members]
        return w[0].data["crit"] if w else "no_roll"

    def save_crit(lf: Leaf) -> str:
        s = [e for e in lf.events
             if e.type == "roll" and e.data["what"].startswith("armour save") and e.data["who"] == target]
        return s[0].data["crit"] if s else "no_roll"

    return {
        "wounds": marginal(leaves, lambda lf: hr(lf).data["wounds"] if hr(lf) else 0),
        "deflections": marginal(leaves, lambda lf: hr(lf).data["deflected"] if hr(lf) else 0),
        "will": marginal(leaves, will),
        "will_crit": marginal(leaves, will_crit),
        "save_crit": marginal(leaves, save_crit),
        "ooa": marginal(leaves, lambda lf: lf.state.models[target].ooa),
        "models_lost": marginal(leaves, lambda lf: sum(1 for m in lf.state.unit_models(unit) if not m.in_play) - lost0),
        "pins": marginal(leaves, lambda lf: lf.state.units[unit].pins - pins0),
    }


def assert_round(rnd, expected: dict[str, dict]) -> None:
    for name, exp in expected.items():
        got = nonzero(getattr(rnd, name).fractions())
        assert got == exp, (name, got, exp)


def check_ranged(st: GameState, act: RangedAttack, *, pooled: bool = False) -> int:
    odds = attack_odds(st, act)
    leaves = enumerate_apply(st, act, pooled=pooled)
    assert sum(lf.weight for lf in leaves) == 1
    first = lambda lf: [e for e in lf.events if e.type == "roll"][0]  # noqa: E731
    assert nonzero(odds.attacker_crit.fractions()) == marginal(leaves, lambda lf: first(lf).data["crit"])
    assert nonzero(odds.hits.fractions()) == marginal(leaves, lambda lf: first(lf).data["successes"])
    assert_round(odds.target_round, round_marginals(st, leaves, act.target))
    return len(leaves)


MUTANT = profile(ca=6, armor=3, will=6, wounds=2, creature=True, base=1.6)


def ranged_game(target_profile, *, weapon: str = "smg", pieces=(), items=None, pins: int = 0, wounds_taken: int = 0,
                ai: bool = False, attacker=None, extra=(), units=None, pos=(20, 11)):
    a = attacker or profile(ca=5, weapons=(weapon,), skills=("unload",))
    st = game([("a1", "a", a, (10, 11)), ("t1", "b", target_profile, pos)] + list(extra), pieces=pieces, items=items,
              units=units)
    st.units[st.models["t1"].unit].pins = pins
    st.models["t1"].wounds_taken = wounds_taken
    if ai:
        st.side("b").controller = "ai"
    activate(st, "a1")
    return st


RANGED = {
    "smg_mutant_obstruction_gap91": lambda: ranged_game(MUTANT, pieces=(HEDGE,)),
    "smg_wounded_mutant_two_wound_rule": lambda: ranged_game(MUTANT, wounds_taken=1),
    "smg_bdu_tn0_saves_gap11": lambda: ranged_game(profile(armor=0, will=5)),
    "pistol_advanced_best_of_two_gap14": lambda: ranged_game(profile(armor=7, save_dice=2, armour="advanced"),
                                                             weapon="pistol"),
    "smg_advanced_will_na": lambda: ranged_game(profile(armor=7, save_dice=2, will=None, armour="advanced")),
    "smg_hard_target_pins_cap": lambda: ranged_game(profile(armor=4, will=4, skills=("hard",)), pins=3),
    "smg_pinned_hard_cover_ghoul": lambda: ranged_game(profile(armor=4, will=6, creature=True), pieces=(HEDGE, WALL),
                                                       pos=(20.55, 11), pins=1),
    "smg_ai_medkit_single_wound": lambda: ranged_game(profile(armor=3, will=5), items={"t1": ["medkit"]}, ai=True),
    "smg_ai_medkits_leader": lambda: ranged_game(profile(armor=2, will=7, wounds=2),
                                                 items={"t1": ["medkit", "medkit"]}, ai=True),
    "smg_human_medkit_declined": lambda: ranged_game(profile(armor=3, will=5), items={"t1": ["medkit"]}),
    "smg_multi_model_dogs_tv34": lambda: ranged_game(
        profile(ca=4, armor=2, will=4, creature=True),
        extra=[("t2", "b", profile(ca=4, armor=2, will=4, creature=True), (21.05, 11)),
               ("t3", "b", profile(ca=4, armor=2, will=4, creature=True), (20, 12.05))],
        units={"pack": ["t1", "t2", "t3"]}),
    "smg_exo_will_exempt": lambda: ranged_game(profile(armor=8, will=6, will_exempt=True)),
}


@pytest.mark.parametrize("name", sorted(RANGED))
def test_ranged_odds_equal_apply(name):
    """COMBAT-4.1.RANGED / COMBAT-4.3.*: every marginal of the exact odds equals the enumerated resolver."""
    st = RANGED[name]()
    assert check_ranged(st, RangedAttack("a1", "t1", "pistol" if "pistol" in name else "smg")) > 1


def test_unload_odds_equal_apply_pooled():
    """SKILL-6.1.UNLOAD: SMG 2 + 2 + 2 = 6 dice at TN 9 vs saves at TN 1 (GAP-11 mixes), pools as class multisets."""
    st = ranged_game(profile(armor=1, will=None), attacker=profile(ca=9, actions=3, weapons=("smg",),
                                                                   skills=("unload",)))
    assert check_ranged(st, RangedAttack("a1", "t1", "smg", unload=True), pooled=True) > 1


def test_fire_into_melee_random_assignment_gap76():
    """GAP-76: firing un-aimed into a melee, each hit lands on the target with chance 1/2 (D10 parity)."""
    st = ranged_game(profile(armor=3, will=5), weapon="pistol",
                     extra=[("f1", "a", profile(armor=3, will=5), (21.0, 11))])
    odds = attack_odds(st, RangedAttack("a1", "t1", "pistol"))
    assert odds.share == pytest.approx(0.5)
    leaves = enumerate_apply(st, RangedAttack("a1", "t1", "pistol"))
    assert_round(odds.target_round, {k: v for k, v in round_marginals(st, leaves, "t1").items()})


# --- melee (COMBAT-4.2, AI-D.12) --------------------------------------------------------------------


def melee_game(a_prof, d_prof, *, d_pins: int = 0, ai: bool = False, d_items=None):
    st = game([("a1", "a", a_prof, (10, 10)), ("d1", "b", d_prof, (11.0, 10))], items={"d1": d_items or []})
    st.units["d1"].pins = d_pins
    if ai:
        st.side("b").controller = "ai"
    activate(st, "a1")
    return st


def pack_melee_game():
    """GAP-77: a pack whose dog nearest the attacker (d0, tied at 1" with d1, first by id) is already down."""
    dog = profile(ca=4, armor=2, will=4, creature=True, weapons=("claws",))
    st = game([("a1", "a", profile(ca=5, weapons=("machete",)), (10, 10)), ("d0", "b", dog, (11.0, 10)),
               ("d1", "b", dog, (10, 11.0)), ("d2", "b", dog, (11.0, 11.05))], units={"pack": ["d0", "d1", "d2"]})
    st.models["d0"].ooa = True
    activate(st, "a1")
    return st


MELEE = {
    "pack_defender_closest_down_gap77": (pack_melee_game, MeleeAttack("a1", "d1", "machete")),
    "knife_vs_knife": (lambda: melee_game(profile(ca=5, weapons=("knife",)), profile(ca=5, armor=3,
                                                                                     weapons=("knife",))),
                       MeleeAttack("a1", "d1", "knife")),
    "knife_man_dual_vs_machete": (lambda: melee_game(profile(ca=5, skills=("knife_man",), weapons=("knife", "pistol")),
                                                     profile(ca=4, armor=4, weapons=("machete",))),
                                  MeleeAttack("a1", "d1", "knife", "pistol")),
    "kick_pinned_leader_ai_kit": (lambda: melee_game(profile(ca=5, weapons=("machete",)),
                                                     profile(ca=6, armor=2, wounds=2,
                                                             weapons=("knife",)), d_pins=1, ai=True,
                                                     d_items=["medkit"]),
                                  MeleeAttack("a1", "d1", "machete")),
}


@pytest.mark.parametrize("policy", ["ai", "max"])
@pytest.mark.parametrize("name", sorted(MELEE))
def test_melee_odds_equal_apply(name, policy):
    """COMBAT-4.2.SIMULTANEOUS / PARRY: both rolls, the parry (AI-D.12 or as many as possible), both saves."""
    make, act = MELEE[name]
    st = make()
    odds = attack_odds(st, act)
    oc = odds.outcomes[policy]
    leaves = enumerate_apply(st, act, pol=Policy(policy, odds.p_a, odds.p_b))
    assert sum(lf.weight for lf in leaves) == 1
    a_rolls = lambda lf: [e for e in lf.events if e.type == "roll" and e.data["what"].startswith("melee with")]  # noqa: E731
    mr = lambda lf: next(e for e in lf.events if e.type == "melee_round")  # noqa: E731
    parried = lambda lf: next((e.data["parried"] for e in lf.events if e.type == "parry"), 0)  # noqa: E731

    def hr(lf, who):
        return next((e.data["wounds"] for e in lf.events if e.type == "hits_resolved" and e.data["model"] == who), 0)

    def crit(faces):
        if 1 in faces:
            return "mix" if 10 in faces else "success"
        return "failure" if 10 in faces else "none"

    assert nonzero(odds.attacker_crit.fractions()) == marginal(
        leaves, lambda lf: crit(sum((r.data["dice"] for r in a_rolls(lf)), [])))
    assert nonzero(odds.defender_crit.fractions()) == marginal(
        leaves, lambda lf: rolls(lf, "defending")[0].data["crit"])
    du = st.models["d1"].unit
    expected = {
        "attacker_hits": marginal(leaves, lambda lf: mr(lf).data["attacker_hits"]),
        "defender_hits": marginal(leaves, lambda lf: mr(lf).data["defender_hits"]),
        "parried": marginal(leaves, parried),
        "unparried": marginal(leaves, lambda lf: (mr(lf).data["attacker_hits"] - parried(lf),
                                                  mr(lf).data["defender_hits"] - parried(lf))),
        "wounds_to_defender": marginal(leaves, lambda lf: hr(lf, "d1")),
        "wounds_to_attacker": marginal(leaves, lambda lf: hr(lf, "a1")),
        "defender_ooa": marginal(leaves, lambda lf: lf.state.models["d1"].ooa),
        "attacker_ooa": marginal(leaves, lambda lf: lf.state.models["a1"].ooa),
        "defender_pins": marginal(leaves, lambda lf: lf.state.units[du].pins - st.units[du].pins),
        "attacker_pins": marginal(leaves, lambda lf: lf.state.units["a1"].pins - st.units["a1"].pins),
    }
    assert_round(oc, expected)


# --- templates: the throw, deviation, saves, Burn (GAP-70..75) ----------------------------------------


def test_grenade_on_a_model_equal_apply_all_deviations():
    """GAP-70 / GEO-18: a grenade at a model's centre: hit, or each D10 deviation (touching iff k/2 <= 2"), then
    the save and the Will check; P(each effect) and the model's round equal the resolver's."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("t1", "b", profile(armor=5, will=5), (20, 11))],
              grenades={"a1": {"hand_grenade": 1}})
    activate(st, "a1")
    act = ThrowGrenade("a1", "hand_grenade", 20.0, 11.0)
    odds = attack_odds(st, act)
    leaves = enumerate_apply(st, act, angle=1.234)
    touched = lambda lf: any(m["model"] == "t1" for e in lf.events if e.type == "template" for m in e.data["models"])  # noqa: E731
    assert odds.models["t1"].effects["affected"] == marginal(leaves, touched)[True]
    hit_leaves = [Leaf(lf.state, lf.events,
                       lf.weight / odds.models["t1"].effects["affected"]) for lf in leaves if touched(lf)]
    assert_round(odds.models["t1"].given["affected"], round_marginals(st, hit_leaves, "t1"))


def test_grenade_launcher_soft_cover_given_a_hit():
    """GEO-16 / ARMORY-5.2.TEMPLATE-COVER: soft cover between the centre and the model gives +2 to its save."""
    bush = piece(12, "bush", 19.6, 9.5, 20.0, 12.5, 0.75, cover=Cover.SOFT)
    st = game([("a1", "a", profile(ca=5, weapons=("grenade_launcher",)), (10, 11)),
               ("t1", "b", profile(armor=3, will=6), (20.5, 11))], pieces=(bush,))
    activate(st, "a1")
    act = TemplateAttack("a1", "grenade_launcher", 19.0, 11.0)
    odds = attack_odds(st, act)
    leaves = enumerate_apply(st, act, prefix=[1])  # a natural 1: the template lands on the point
    assert_round(odds.models["t1"].given["soft_cover"], round_marginals(st, leaves, "t1"))


@pytest.mark.parametrize("ai", [False, True])
def test_flame_burn_chain_equal_apply(ai):
    """ARMORY-5.1.BURN / GAP-74 / TV-33: the chain of saves up to the Leader's Wounds, Med-Kits between rolls (ai)."""
    st = game([("a1", "a", profile(ca=5, weapons=("flame_thrower",)), (10, 11)),
               ("t1", "b", profile(armor=6, wounds=2, will=6, actions=3, armour="military"), (15.0, 11))],
              items={"t1": ["medkit"] if ai else []})
    if ai:
        st.side("b").controller = "ai"
    activate(st, "a1")
    act = FlameAttack("a1", "flame_thrower", 0.0)
    odds = attack_odds(st, act)
    leaves = enumerate_apply(st, act)
    exp = round_marginals(st, leaves, "t1")
    burns = lambda lf: [e for e in lf.events if e.type == "roll" and e.data["what"].startswith("Burn")]  # noqa: E731
    exp["wounds"] = marginal(leaves, lambda lf: sum(1 for b in burns(lf) if not b.data["successes"]))
    exp["deflections"] = marginal(leaves, lambda lf: int(any(b.data["successes"] for b in burns(lf))))
    exp["hits"] = marginal(leaves, lambda lf: len(burns(lf)))
    exp["save_crit"] = marginal(leaves, lambda lf: burns(lf)[-1].data["burn_crit"] if burns(lf) else "no_roll")
    assert_round(odds.models["t1"].given["affected"], exp)


def test_the_enumeration_tells_a_wrong_will_tn_apart():
    """The comparison can fail: odds taken with `wounded.will_stack`=false differ from the default resolver (GAP-91)."""
    st = ranged_game(MUTANT, wounds_taken=1)
    other = ranged_game(MUTANT, wounds_taken=1)
    other.settings["wounded.will_stack"] = False
    wrong = attack_odds(other, RangedAttack("a1", "t1", "smg")).target_round
    leaves = enumerate_apply(st, RangedAttack("a1", "t1", "smg"))
    assert nonzero(wrong.will.fractions()) != round_marginals(st, leaves, "t1")["will"]
