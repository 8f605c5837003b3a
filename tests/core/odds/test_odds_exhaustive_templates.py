"""The exact odds of templates equal `apply` over every die outcome class (GAP-70..75, GAP-77, GAP-93,
ARMORY-5.1.BURN, SKILL-6.1.LEADER, INTRO-1.2.CRIT-PER-ROUND): each case is enumerated through the resolver with
scripted dice, the template's landing fixed (a natural 1 on the throw, or the flame), and every marginal of the
touched model's round compared as Fractions."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from game.core.actions import FlameAttack, RangedAttack, ThrowGrenade
from game.core.battlefield import Cover
from game.core.odds.actions import attack_odds
from game.core.odds.ranged import RoundOdds
from game.core.odds.templates import Case, TemplateOdds
from game.core.state import GameState
from tests.core.odds.test_odds_exhaustive import assert_round, check_ranged, round_marginals
from tests.core.odds.test_odds_kit import Leaf, enumerate_apply, marginal, nonzero
from tests.core.rules.test_combat import piece
from tests.enginekit import activate, game, profile


def burn_marginals(base: GameState, leaves: list[Leaf], target: str) -> dict[str, dict]:
    """round_marginals for a Burn chain: saves rolled, Wounds, the deflection and the Burn's crit as one roll."""
    exp = round_marginals(base, leaves, target)

    def burns(lf: Leaf) -> list:
        return [e for e in lf.events if e.type == "roll" and e.data["what"].startswith("Burn")
                and e.data["who"] == target]

    exp["wounds"] = marginal(leaves, lambda lf: sum(1 for b in burns(lf) if not b.data["successes"]))
    exp["deflections"] = marginal(leaves, lambda lf: int(any(b.data["successes"] for b in burns(lf))))
    exp["hits"] = marginal(leaves, lambda lf: len(burns(lf)))
    exp["save_crit"] = marginal(leaves, lambda lf: burns(lf)[-1].data["burn_crit"] if burns(lf) else "no_roll")
    return exp


def smoke_marginals(base: GameState, leaves: list[Leaf], target: str) -> dict[str, dict]:
    """What the smoke's Will check (GAP-72) did to `target`."""
    unit = base.models[target].unit

    def check(lf: Leaf) -> Any:
        return next((e for e in lf.events if e.type == "roll" and e.data["what"] == "Will check in smoke"
                     and e.data["who"] == target), None)

    return {"will": marginal(leaves, lambda lf: ("pass" if check(lf).data["successes"] else "fail") if check(lf)
                             else "exempt"),
            "will_crit": marginal(leaves, lambda lf: check(lf).data["crit"] if check(lf) else "no_roll"),
            "pins": marginal(leaves, lambda lf: lf.state.units[unit].pins - base.units[unit].pins)}


def only_case(odds: TemplateOdds, model: str, case: Case) -> RoundOdds:
    mo = odds.models[model]
    assert case in mo.rounds, (case, list(mo.rounds))
    return mo.rounds[case]


def on_hit(st: GameState, act: ThrowGrenade) -> list[Leaf]:
    """Every outcome of the throw once it hits (a natural 1 always does): the template on the aim point."""
    leaves = enumerate_apply(st, act, prefix=[1])
    assert sum(lf.weight for lf in leaves) == 1
    return leaves


# --- SKILL-6.1.LEADER: a Leader under the same template ------------------------------------------------


def leader_game(*, lead_first: bool = False, flame: bool = False, ai: bool = False) -> GameState:
    ally = ("b1", "b", profile(armor=5, will=5, wounds=1), (15.0, 11) if flame else (20, 11))
    lead = ("lead", "b", profile(armor=4, will=6, wounds=2 if flame else 1, leader=True, actions=3),
            (16.5, 12.4) if flame else (20, 12.2))
    models = [lead, ally] if lead_first else [ally, lead]
    st = game([("a1", "a", profile(ca=5, actions=3, weapons=("flame_thrower",)), (10, 11))] + models,
              grenades={"a1": {"hand_grenade": 1}}, items={"lead": ["medkit"]} if ai else None)
    if ai:
        st.side("b").controller = "ai"
    activate(st, "a1")
    return st


def test_grenade_leader_under_the_same_template_equal_apply():
    """SKILL-6.1.LEADER / GAP-75: all saves come before any Will check, so the ally's check has the Leader's +1 only
    when the Leader survives his own hit; the odds mix the two by the Leader's exact P(OOA)."""
    st = leader_game()
    act = ThrowGrenade("a1", "hand_grenade", 20.0, 11.6)
    odds = attack_odds(st, act)
    leaves = on_hit(st, act)
    assert_round(only_case(odds, "b1", Case("affected", False, ("affected",))), round_marginals(st, leaves, "b1"))
    assert_round(only_case(odds, "lead", Case("affected")), round_marginals(st, leaves, "lead"))


@pytest.mark.parametrize("lead_first, ai", [(True, False), (True, True), (False, False)])
def test_flame_leader_burn_chains_equal_apply(lead_first: bool, ai: bool):
    """ARMORY-5.1.BURN / SKILL-6.1.LEADER: Burn chains run one model after the other; the ally's deflection check
    follows the Leader's whole chain (Med-Kits between rolls for an `ai` side) when he comes first, and always has
    his bonus when he comes after."""
    st = leader_game(lead_first=lead_first, flame=True, ai=ai)
    act = FlameAttack("a1", "flame_thrower", 0.0)
    odds = attack_odds(st, act)
    leaves = enumerate_apply(st, act)
    assert sum(lf.weight for lf in leaves) == 1
    case = Case("affected", False, ("affected",) if lead_first else ())
    assert_round(only_case(odds, "b1", case), burn_marginals(st, leaves, "b1"))
    assert_round(only_case(odds, "lead", Case("affected")), burn_marginals(st, leaves, "lead"))


def test_the_leader_mixture_is_needed():
    """The comparison can fail: with the Leader's bonus taken as certain, the ally's Will marginal differs."""
    st = leader_game()
    act = ThrowGrenade("a1", "hand_grenade", 20.0, 11.6)
    leaves = on_hit(st, act)
    odds = attack_odds(st, act)
    untouched_leader = only_case(odds, "b1", Case("affected", False, ("untouched",)))  # the Leader stands for sure
    assert nonzero(untouched_leader.will.fractions()) != round_marginals(st, leaves, "b1")["will"]


# --- GAP-75: the cover Will bonus of a soft piece in contact ---------------------------------------------


@pytest.mark.parametrize("bush_x, contact", [((19.0, 19.45), True), ((18.8, 19.2), False)])
def test_gap75_will_cover_equal_apply(bush_x: tuple, contact: bool):
    """GAP-75: the deflection check has the soft cover Will bonus only from a bush that gave the save bonus and that
    b1's base touches."""
    bush = piece(22, "bush", bush_x[0], 10.0, bush_x[1], 12.0, 0.75, cover=Cover.SOFT)
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=4, will=5), (20, 11))],
              pieces=(bush,), grenades={"a1": {"hand_grenade": 1}})
    activate(st, "a1")
    act = ThrowGrenade("a1", "hand_grenade", 18.6, 11.0)
    odds = attack_odds(st, act)
    assert_round(only_case(odds, "b1", Case("soft_cover", contact)), round_marginals(st, on_hit(st, act), "b1"))


# --- GAP-72: smoke hides the Leader ------------------------------------------------------------------


@pytest.mark.parametrize("lead_at, sees", [((26.0, 11.0), True), ((14.0, 11.0), False)])
def test_smoke_will_check_leader_bonus_through_the_new_cloud_equal_apply(lead_at: tuple, sees: bool):
    """GAP-72 / SKILL-6.1.LEADER: the smoke check is taken with the new cloud in place. b1 touches the cloud's edge
    (its centre 2.9" from the cloud's, outside the 2.5" cylinder): a Leader on its open side still sees it (+1,
    Will 5 - 2 + 1 = 4), one beyond the cloud no more (3); the odds ask the resolver's LOS with that cloud."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(will=5), (22.9, 11)),
               ("lead", "b", profile(will=6, leader=True), lead_at)], grenades={"a1": {"smoke": 1}})
    activate(st, "a1")
    act = ThrowGrenade("a1", "smoke", 20.0, 11.0)
    odds = attack_odds(st, act)
    leaves = on_hit(st, act)
    rnd = only_case(odds, "b1", Case("affected", False, (), sees))
    tn = {e.data["tn"] for lf in leaves for e in lf.events if e.type == "roll" and e.data["who"] == "b1"}
    assert tn == {4 if sees else 3}
    for name, dist in smoke_marginals(st, leaves, "b1").items():
        assert nonzero(getattr(rnd, name).fractions()) == dist, name


# --- ARMORY-5.1.BURN / GAP-74: crits as one roll, the burn.* settings -------------------------------------

BURNS: dict[str, tuple[dict[str, Any], dict[str, Any], list[str] | None]] = {
    "tn0_mix_improvised_two_wounds_gap11": ({}, dict(armor=3, armour="improvised", wounds=2, will=5), None),
    "best_of_two_any_die_gap14": ({"crit.best_of_two": "any_die"},
                                  dict(armor=7, armour="advanced", save_dice=2, wounds=2, will=6), None),
    "mix_keeps_auto_gap11": ({"crit.mix_keeps_auto": True}, dict(armor=3, armour="improvised", wounds=3, will=5),
                             None),
    "no_deflection_will": ({"burn.deflection_will": False}, dict(armor=6, wounds=2, will=6), None),
    "no_medkit_between_ai": ({"burn.medkit_between": False}, dict(armor=5, wounds=2, will=6), ["medkit"]),
    "medkit_between_ai_hard": ({}, dict(armor=5, wounds=2, will=4, skills=("hard",)), ["medkit", "medkit"]),
    "crits_off": ({"crit.enabled": False}, dict(armor=4, wounds=3, will=5), None),
}


@pytest.mark.parametrize("name", sorted(BURNS))
def test_burn_chain_equal_apply(name: str):
    """ARMORY-5.1.BURN / GAP-74 (one roll for criticals, a mix judged on the dice so far; `burn.deflection_will`,
    `burn.medkit_between`) / GAP-11 / GAP-14: the whole chain enumerated through `apply`."""
    settings, target, kits = BURNS[name]
    st = game([("a1", "a", profile(ca=5, actions=3, weapons=("flame_thrower",)), (10, 11)),
               ("b1", "b", profile(**target), (15.0, 11))], settings=settings, items={"b1": kits or []})
    if kits:
        st.side("b").controller = "ai"
    activate(st, "a1")
    act = FlameAttack("a1", "flame_thrower", 0.0)
    odds = attack_odds(st, act)
    leaves = enumerate_apply(st, act)
    assert sum(lf.weight for lf in leaves) == 1
    assert_round(odds.models["b1"].given["affected"], burn_marginals(st, leaves, "b1"))


def test_flame_auto_hit_false_equal_apply():
    """GAP-73 `flame.auto_hit`=false: P(hit) from the flame's TN, and the Burn round given a hit."""
    st = game([("a1", "a", profile(ca=4, actions=3, weapons=("flame_thrower",)), (10, 11)),
               ("b1", "b", profile(armor=5, wounds=2, will=5), (15.0, 11))], settings={"flame.auto_hit": False})
    activate(st, "a1")
    act = FlameAttack("a1", "flame_thrower", 0.0)
    odds = attack_odds(st, act)
    leaves = enumerate_apply(st, act)
    hit = [lf for lf in leaves if any(e.type == "template" for e in lf.events)]
    p_hit = sum((lf.weight for lf in hit), Fraction(0))
    assert odds.p_hit == p_hit == Fraction(4, 10) and odds.tn is not None and odds.tn.value == 4
    mo = odds.models["b1"]
    assert mo.effects["affected"] == p_hit and mo.effects["untouched"] == 1 - p_hit
    given = [Leaf(lf.state, lf.events, lf.weight / p_hit) for lf in hit]
    assert_round(mo.given["affected"], burn_marginals(st, given, "b1"))


# --- GAP-77 / GAP-93: a damaged pack under a template ------------------------------------------------------


def test_grenade_on_a_damaged_pack_equal_apply():
    """GAP-77: one dog of a pack that lost two is under the grenade; its Wound is its own, its Will check is at Will
    minus the models lost (COMBAT-4.3.WILL-CASUALTY-MOD)."""
    dog = profile(ca=4, armor=3, will=5, creature=True)
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("d1", "b", dog, (20, 11)), ("d2", "b", dog, (23.0, 11)),
               ("d3", "b", dog, (24.05, 11)), ("d4", "b", dog, (25.1, 11))], units={"pack": ["d1", "d2", "d3", "d4"]},
              grenades={"a1": {"hand_grenade": 1}})
    st.models["d2"].ooa = st.models["d3"].ooa = True
    activate(st, "a1")
    act = ThrowGrenade("a1", "hand_grenade", 20.0, 11.0)
    assert_round(only_case(attack_odds(st, act), "d1", Case("affected")), round_marginals(st, on_hit(st, act), "d1"))


# --- GAP-70 / COMBAT-4.3.KICK-RANGED: the throw's TN ------------------------------------------------------


def test_throw_off_centre_at_a_pinned_model_in_cover_p_hit_equals_apply():
    """GAP-70: aimed off the centre of a Pinned model behind a wall and a fence, P(hit) is that of the resolver's
    roll (CA 6 - obstruction - Hard cover - Obscured - Pinned 2 = 1)."""
    from tests.core.rules.test_combat import HEDGE, WALL

    st = game([("a1", "a", profile(ca=6), (10, 11)), ("b1", "b", profile(armor=5), (20.55, 11))],
              pieces=(HEDGE, WALL), grenades={"a1": {"hand_grenade": 1}})
    st.units["b1"].pins = 1
    activate(st, "a1")
    act = ThrowGrenade("a1", "hand_grenade", 20.55, 11.35)
    odds = attack_odds(st, act)
    leaves = enumerate_apply(st, act, angle=0.5)
    first = lambda lf: next(e for e in lf.events if e.type == "roll")  # noqa: E731
    assert odds.tn is not None and odds.tn.value == first(leaves[0]).data["tn"] == 1
    assert odds.p_hit == marginal(leaves, lambda lf: first(lf).data["successes"])[1]
    assert nonzero(odds.attacker_crit.fractions()) == marginal(leaves, lambda lf: first(lf).data["crit"])


# --- GAP-77: damaged packs shot at, Unload ------------------------------------------------------------------


def pack_game(*, lost: tuple[str, ...], attacker: dict | None = None) -> GameState:
    dog = profile(ca=4, armor=2, will=4, creature=True)
    st = game([("a1", "a", profile(**(attacker or {"ca": 5, "weapons": ("smg",)})), (10, 11)),
               ("t1", "b", dog, (19.0, 11)), ("t2", "b", dog, (20.05, 11)), ("t3", "b", dog, (21.1, 11)),
               ("t4", "b", dog, (20.05, 12.05))], units={"pack": ["t1", "t2", "t3", "t4"]})
    for x in lost:
        st.models[x].ooa = True
    activate(st, "a1")
    return st


@pytest.mark.parametrize("lost, target", [(("t1",), "t2"), (("t1", "t2"), "t4"), (("t2",), "t3")])
def test_ranged_on_a_damaged_pack_equal_apply(lost: tuple[str, ...], target: str):
    """GAP-77 / COMBAT-4.3.WILL-CASUALTY-MOD: Wounds pass over the dogs already down (closest first) and the
    Will check counts them; the odds no longer report "no wound possible" when the closest dog is down."""
    st = pack_game(lost=lost)
    assert check_ranged(st, RangedAttack("a1", target, "smg")) > 1
    assert attack_odds(st, RangedAttack("a1", target, "smg")).target_round.p_wound > 0


def test_unload_on_a_damaged_pack_equal_apply():
    """SKILL-6.1.UNLOAD / GAP-77: 6 dice at TN 9 on a pack whose closest dog is down, saves at TN 1 (pools as class
    multisets)."""
    st = pack_game(lost=("t1",), attacker={"ca": 9, "actions": 3, "weapons": ("smg",), "skills": ("unload",)})
    assert check_ranged(st, RangedAttack("a1", "t2", "smg", unload=True), pooled=True) > 1
