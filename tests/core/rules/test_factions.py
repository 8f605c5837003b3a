"""Factions on the table (FACTION-7.2.RELATIONS/TABLE/ALLIED/ENEMY, GAP-43, GAP-44, TV-20): the relation table,
Allied crews refusing to attack each other until the Leader breaks the alliance (TN Will-4, 2 actions, once per
mission), and the Enemy priority rule with the Leader's free override check (TN Will-2) at his first activation."""
from __future__ import annotations

import pytest

from game.core.actions import (
    Activate,
    BoltToss,
    BreakAlliance,
    IllegalAction,
    Inspect,
    MeleeAttack,
    RangedAttack,
    Search,
)
from game.core.dice import ScriptedDice
from game.core.events import describe
from game.core.rules.apply import apply, validate
from game.core.rules.factions import FACTIONS, Relation, alliance_targets, relation, side_relation
from game.core.settings import Settings
from game.core.state import GameState, LocationState, Phase
from tests.enginekit import activate, profile
from tests.zonekit import add_force, zone_game

S = Settings.defaults()


def refused(st: GameState, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as ei:
        validate(st, action)
    return ei.value


def crews(fa: str | None, fb: str | None, *, settings: dict | None = None, b_at: tuple = (20.0, 10.0),
          leader_will: int = 7) -> GameState:
    """Crew a (Leader a-boss and a rookie) against crew b, each with a faction; a location near a-boss."""
    boss = profile("boss", will=leader_will, actions=3, skills=("leader",), weapons=("assault_rifle", "knife"),
                   wounds=2)
    st = zone_game([("a-boss", "a", boss, (10.0, 10.0)),
                    ("a-kid", "a", profile("kid", actions=1, weapons=("pistol", "knife")), (10.0, 14.0)),
                    ("b-boss", "b", boss, b_at),
                    ("b-kid", "b", profile("kid", actions=1, weapons=("pistol", "knife")), (30.0, 30.0))],
                   settings=settings)
    st.sides[0].faction, st.sides[1].faction = fa, fb
    st.locations["hs"] = LocationState("hs", "the shed", "hotspot", 11.0, 10.0, 1, triggered=True)
    return st


# --- the table (FACTION-7.2.TABLE, GAP-43) ---------------------------------------------------------------


def test_the_book_rows_and_the_house_rows() -> None:
    """FACTION-7.2.TABLE: rows 1-3 from the book, rows 4-6 the GAP-43 house rows; every faction Allied to itself."""
    assert relation(S, "military", "bandits") is Relation.ENEMY
    assert relation(S, "scientists", "independents") is Relation.ALLIED
    assert relation(S, "bandits", "cultists") is Relation.NEUTRAL
    assert [relation(S, "cultists", f).value for f in FACTIONS] == ["enemy", "allied", "enemy", "enemy", "allied",
                                                                   "allied"]
    assert [relation(S, "traders", f).value for f in FACTIONS] == ["neutral", "allied", "enemy", "neutral",
                                                                  "neutral", "allied"]
    assert all(relation(S, f, f) is Relation.ALLIED for f in FACTIONS)


def test_relations_are_read_row_against_column_and_need_not_be_symmetric() -> None:
    """FACTION-7.2.RELATIONS: Bandits see Independents as Neutral, Independents see Bandits as Enemies (GAP-43)."""
    assert relation(S, "bandits", "independents") is Relation.NEUTRAL
    assert relation(S, "independents", "bandits") is Relation.ENEMY


def test_no_faction_is_neutral() -> None:
    """FACTION-7.2.NEUTRAL: a crew without a faction has no obligations either way."""
    assert relation(S, None, "military") is relation(S, "military", None) is Relation.NEUTRAL


@pytest.mark.setting("factions.table.independents", "factions.table.cultists", "factions.table.traders")
def test_the_house_rows_are_settings() -> None:
    """GAP-43 `factions.table.*`: the rows the book lost are read from the settings."""
    s = Settings({"factions.table.independents": ["enemy"] * 6, "factions.table.cultists": ["neutral"] * 6,
                  "factions.table.traders": ["enemy"] * 6})
    assert relation(s, "independents", "scientists") is Relation.ENEMY
    assert relation(s, "cultists", "cultists") is Relation.NEUTRAL
    assert relation(s, "traders", "scientists") is Relation.ENEMY
    assert relation(s, "military", "scientists") is Relation.ALLIED  # book rows are not settings


def test_hostile_forces_have_no_relation() -> None:
    st = crews("military", "bandits")
    add_force(st, "zombies", [(30.0, 5.0)], location=(30.0, 5.0), loc_id="z", units=1)
    assert side_relation(st, S, "a", "zone-z") is None and side_relation(st, S, "a", "b") is Relation.ENEMY


# --- Allied crews (FACTION-7.2.ALLIED) --------------------------------------------------------------------


def test_allied_crews_may_not_attack_each_other() -> None:
    """FACTION-7.2.ALLIED: Military and Scientists are Allied: no shot, no blow."""
    st = crews("military", "scientists")
    activate(st, "a-boss")
    e = refused(st, RangedAttack("a-boss", "b-boss", "assault_rifle"))
    assert e.rule == "FACTION-7.2.ALLIED" and "break-alliance" in e.reason
    st.models["b-boss"].x, st.models["b-boss"].y = 11.0, 10.0  # base contact
    assert refused(st, MeleeAttack("a-boss", "b-boss", "knife")).rule == "FACTION-7.2.ALLIED"


def test_neutral_crews_may_attack() -> None:
    st = crews("military", "traders")
    activate(st, "a-boss")
    validate(st, RangedAttack("a-boss", "b-boss", "assault_rifle"))


def test_break_alliance_tv20_pass_then_attack_makes_them_enemies() -> None:
    """TV-20: Leader Will 7 -> TN 3, 2 actions; a 3 passes; the next attack on that crew is legal and makes the two
    crews Enemies (FACTION-7.2.ALLIED), so the Enemy priority rule now binds them."""
    st = crews("military", "scientists")
    activate(st, "a-boss")
    assert alliance_targets(st, S, "a") == ["b"]
    ev = apply(st, BreakAlliance("a-boss", "b"), ScriptedDice([3]))
    (e,) = [x for x in ev if x.type == "break_alliance"]
    assert e.data["tn"] == 3 and e.data["roll"] == 3 and e.data["passed"] and "FACTION-7.2.ALLIED" in e.rules
    assert st.activation.spent == 2 and "breaks" in describe(e)
    assert alliance_targets(st, S, "a") == []
    ev = apply(st, RangedAttack("a-boss", "b-boss", "assault_rifle"), ScriptedDice([10, 10, 10]))
    assert "crews_now_enemies" in [x.type for x in ev]
    assert side_relation(st, S, "a", "b") is side_relation(st, S, "b", "a") is Relation.ENEMY


def test_break_alliance_fail_and_one_attempt_per_mission() -> None:
    """TV-20: a 4 fails TN 3; no attack on that crew this mission and no second attempt (GAP-44)."""
    st = crews("military", "scientists")
    activate(st, "a-boss")
    ev = apply(st, BreakAlliance("a-boss", "b"), ScriptedDice([4]))
    assert not [x for x in ev if x.type == "break_alliance"][0].data["passed"]
    assert "failed" in refused(st, RangedAttack("a-boss", "b-boss", "assault_rifle")).reason
    st.activation.spent = 0
    assert refused(st, BreakAlliance("a-boss", "b")).rule == "GAP-44"


@pytest.mark.setting("factions.checks.break_attempts")
def test_break_attempts_setting() -> None:
    """GAP-44 `factions.checks.break_attempts`=2: a second attempt after a failure."""
    st = crews("military", "scientists", settings={"factions.checks.break_attempts": 2})
    activate(st, "a-boss")
    apply(st, BreakAlliance("a-boss", "b"), ScriptedDice([9]))
    st.activation.spent = 0
    ev = apply(st, BreakAlliance("a-boss", "b"), ScriptedDice([2]))
    assert [x for x in ev if x.type == "break_alliance"][0].data["attempts"] == 2
    validate(st, RangedAttack("a-boss", "b-boss", "assault_rifle"))


def test_only_the_leader_breaks_and_only_an_alliance() -> None:
    st = crews("military", "scientists")
    activate(st, "a-kid")
    assert "not the crew Leader" in refused(st, BreakAlliance("a-kid", "b")).reason
    st2 = crews("military", "traders")
    activate(st2, "a-boss")
    assert "not Allied" in refused(st2, BreakAlliance("a-boss", "b")).reason


def test_break_alliance_costs_two_actions() -> None:
    st = crews("military", "scientists")
    activate(st, "a-boss")
    st.activation.spent = 2
    assert refused(st, BreakAlliance("a-boss", "b")).rule == "CORE-3.3.GENERAL"


# --- Enemy crews (FACTION-7.2.ENEMY, GAP-44) ---------------------------------------------------------------


def _activate(st: GameState, unit: str, dice: list[int]) -> list:
    st.phase, st.deciding = Phase.ACTIVATE, st.units[unit].side
    st.cycle = st.order.index(st.deciding)
    return apply(st, Activate(unit), ScriptedDice(dice))


def test_enemy_override_tv20_pass_lets_the_crew_search() -> None:
    """TV-20: Will 7 -> TN 5; free at the start of the Leader's first activation with an Enemy model in play."""
    st = crews("military", "bandits")
    ev = _activate(st, "a-boss", [5])
    (e,) = [x for x in ev if x.type == "faction_override"]
    assert e.data["tn"] == 5 and e.data["passed"] and e.data["enemies"] == ["b"] and "GAP-44" in e.rules
    assert st.activation.spent == 0 and "override" in describe(e)
    validate(st, Search("a-boss", "hs"))


def test_enemy_override_fail_blocks_location_actions_but_not_attacks() -> None:
    """GAP-44: after a failed check the crew may not Search, Inspect or Bolt Toss while an Enemy model is in play;
    it may still attack (the priority is the Enemy)."""
    st = crews("military", "bandits")
    st.locations["far"] = LocationState("far", "the pump", "hotspot", 10.0, 20.0, 1)
    _activate(st, "a-boss", [6])
    for act in (Search("a-boss", "hs"), Inspect("a-boss", "far"), BoltToss("a-boss", "far", 10.0, 20.0)):
        e = refused(st, act)
        assert e.rule == "FACTION-7.2.ENEMY" and "failed" in e.reason
    validate(st, RangedAttack("a-boss", "b-boss", "assault_rifle"))
    for mid in ("b-boss", "b-kid"):  # "dealt with": no Enemy model in play
        st.models[mid].ooa = True
    validate(st, Search("a-boss", "hs"))


def test_the_override_is_taken_once_per_mission_and_only_by_the_leader() -> None:
    st = crews("military", "bandits")
    assert not [x for x in _activate(st, "a-kid", []) if x.type == "faction_override"]
    assert refused(st, Search("a-kid", "hs")).rule == "FACTION-7.2.ENEMY"  # not yet overridden
    _activate(st, "a-boss", [8])
    st.units["a-boss"].activated = False
    assert not [x for x in _activate(st, "a-boss", []) if x.type == "faction_override"]


def test_no_check_without_an_enemy_in_play() -> None:
    st = crews("military", "scientists")
    assert not [x for x in _activate(st, "a-boss", []) if x.type == "faction_override"]
    validate(st, Search("a-boss", "hs"))


@pytest.mark.setting("factions.checks.blocked")
def test_blocked_setting() -> None:
    """GAP-44 `factions.checks.blocked`: with only "inspect" listed, a blocked crew may still Search."""
    st = crews("military", "bandits", settings={"factions.checks.blocked": ["inspect"]})
    st.locations["far"] = LocationState("far", "the pump", "hotspot", 10.0, 20.0, 1)
    _activate(st, "a-boss", [9])
    validate(st, Search("a-boss", "hs"))
    assert refused(st, Inspect("a-boss", "far")).rule == "FACTION-7.2.ENEMY"


def test_crews_without_factions_play_as_before() -> None:
    st = crews(None, None)
    assert not [x for x in _activate(st, "a-boss", []) if x.type == "faction_override"]
    validate(st, Search("a-boss", "hs"))
    validate(st, RangedAttack("a-boss", "b-boss", "assault_rifle"))


def test_faction_state_round_trips() -> None:
    st = crews("military", "scientists")
    activate(st, "a-boss")
    apply(st, BreakAlliance("a-boss", "b"), ScriptedDice([1]))
    back = GameState.from_json(st.to_json())
    assert back.sides[0].alliance_broken == ["b"] and back.sides[0].break_tries == {"b": 1}
    assert back.sides[0].faction == "military"


def test_a_grenade_aimed_at_an_allied_model_is_an_attack() -> None:
    """FACTION-7.2.ALLIED with GAP-70: a throw whose point is on an Allied model's base is an attack on it."""
    from game.core.actions import ThrowGrenade

    st = crews("military", "scientists")
    st.models["a-boss"].grenades = {"hand_grenade": 2}
    activate(st, "a-boss")
    assert refused(st, ThrowGrenade("a-boss", "hand_grenade", 20.0, 10.0)).rule == "FACTION-7.2.ALLIED"
    validate(st, ThrowGrenade("a-boss", "hand_grenade", 15.0, 3.0))  # open ground: not aimed at anyone


def test_a_crew_attacked_by_one_it_counts_as_allied_is_freed() -> None:
    """GAP-43 rows are not symmetric: Traders see Independents as Neutral and may attack them; the Independents,
    who count Traders as Allied, then count them as Enemies (house: the victim is freed) and may shoot back."""
    st = crews("traders", "independents")
    activate(st, "a-boss")
    ev = apply(st, RangedAttack("a-boss", "b-boss", "assault_rifle"), ScriptedDice([10, 10, 10]))
    (e,) = [x for x in ev if x.type == "crews_now_enemies"]
    assert e.data["now_enemy"] == ["b"]
    assert side_relation(st, S, "b", "a") is Relation.ENEMY and side_relation(st, S, "a", "b") is Relation.NEUTRAL
    st.units["a-boss"].activated = True
    ev = _activate(st, "b-boss", [5])  # the Independents now face an Enemy crew: their Leader's override check
    assert [x.data["passed"] for x in ev if x.type == "faction_override"] == [True]
    validate(st, RangedAttack("b-boss", "a-boss", "assault_rifle"))


def test_limited_ammo_carries_over_from_the_roster() -> None:
    """GAP-67 (`ammo.persistent`): a roster's rounds left reach the table (ModelSpec.ammo)."""
    from dataclasses import replace as _replace

    from game.core.rules.setup import ModelSpec, _open_table_demo, new_game

    base = _open_table_demo()
    crew = base.crews[0]
    oleg = next(m for m in crew.models if m.id == "v-oleg")
    models = tuple(_replace(m, ammo=(("flame_thrower", 2),)) if m is oleg else m for m in crew.models)
    scen = _replace(base, crews=(_replace(crew, models=models), base.crews[1]))
    st, _ = new_game(scen, seed=1)
    assert st.models["v-oleg"].ammo == {"flame_thrower": 2} and isinstance(oleg, ModelSpec)


def test_a_blocked_crew_may_not_work_on_a_task() -> None:
    """GAP-44 "interact with locations" (`factions.checks.blocked` interact): complex tasks of the mission area."""
    from game.core.actions import ComplexTask
    from game.core.state import TaskState

    st = crews("military", "bandits")
    st.tasks["door"] = TaskState("door", "the bunker door", 11.0, 10.0, 0.5, difficulty=1, actions=1)
    _activate(st, "a-boss", [7])
    assert refused(st, ComplexTask("a-boss", "door")).rule == "FACTION-7.2.ENEMY"
    st.models["b-boss"].ooa = st.models["b-kid"].ooa = True
    validate(st, ComplexTask("a-boss", "door"))


def test_an_order_cannot_get_round_the_rules() -> None:
    """SKILL-6.1.LEADER-ORDER re-enters the same checks: no ordered shot at an Allied crew, no ordered Search while
    an un-overridden Enemy crew is in play."""
    from game.core.actions import Order

    st = crews("military", "scientists")
    activate(st, "a-boss")
    assert refused(st, Order("a-boss", "a-kid", RangedAttack("a-kid", "b-boss", "pistol"))).rule == \
        "FACTION-7.2.ALLIED"
    st2 = crews("military", "bandits")
    st2.models["a-kid"].x, st2.models["a-kid"].y = 11.5, 10.5
    _activate(st2, "a-boss", [9])
    assert refused(st2, Order("a-boss", "a-kid", Search("a-kid", "hs"))).rule == "FACTION-7.2.ENEMY"
