"""The crew autopilot (issue 16): what it chooses on small boards, that every decision carries a reason naming a
rule, that it keeps no memory outside the state, and that whole games with it end and replay."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.ai.autopilot import LEVELS, CrewAutopilot
from game.core.actions import (
    DeclineMedKit,
    EndActivation,
    Move,
    Rally,
    RangedAttack,
    Reasoned,
    Search,
    ThrowGrenade,
    UseItem,
)
from game.core.rules.apply import apply
from game.core.state import LocationState, Phase, WoundDecision
from tests.enginekit import activate, game, profile

RULE_IDS = set(re.findall(r"`([A-Z][A-Z0-9]*(?:[.-][A-Z0-9]+)+)`",
                          (Path(__file__).resolve().parents[3] / "shared" / "RULES.md").read_text()
                          if (Path(__file__).resolve().parents[3] / "shared" / "RULES.md").exists() else ""))

RIFLE = ("assault_rifle",)


def trooper(**kw) -> object:
    return profile(weapons=kw.pop("weapons", RIFLE), **kw)


def inner(a):
    assert isinstance(a, Reasoned), f"{a} carries no reason"
    assert a.reason["rule"] and a.reason["text"].startswith("autopilot (") and "numbers" in a.reason
    return a.action


def test_levels_differ_where_the_docs_say() -> None:
    easy, normal, hard = LEVELS["easy"], LEVELS["normal"], LEVELS["hard"]
    assert easy.cover == 0 and easy.exposure == 0 and not easy.grenades and not easy.alert and easy.slip > 0
    assert normal.cover > 0 and normal.focus > 0 and normal.grenades and normal.alert and normal.slip == 0
    assert hard.exposure >= normal.exposure and hard.aim
    with pytest.raises(ValueError, match="unknown autopilot level 'expert'; known: easy, normal, hard"):
        CrewAutopilot(0, "expert")


def test_shoots_the_better_odds_and_names_the_rule() -> None:
    """COMBAT-4.1.RANGED: of two enemies in view, the one in the open at short range is shot, not the far one."""
    st = game([("a1", "a", trooper(), (5, 18)), ("b1", "b", trooper(), (12, 18)),
               ("b2", "b", trooper(), (30, 18))])
    activate(st, "a1")
    a = CrewAutopilot(1, "normal").choose(st)
    act = inner(a)
    assert isinstance(act, RangedAttack) and act.target == "b1"
    assert a.reason["rule"] == "COMBAT-4.1.RANGED" and a.reason["numbers"]["p_ooa"] > 0
    ev = apply(st, a)
    assert "COMBAT-4.1.RANGED" in ev[0].rules and ev[0].data.get("reason", {}).get("text", "").startswith("autopilot")


def test_focus_fire_prefers_the_wounded_of_equal_targets() -> None:
    """Two equal enemies at equal range: normal shoots the one already Wounded (a 2-Wound model with one taken)."""
    st = game([("a1", "a", trooper(), (18, 10)), ("b1", "b", trooper(wounds=2), (12, 20)),
               ("b2", "b", trooper(wounds=2), (24, 20))])
    st.models["b2"].wounds_taken = 1
    activate(st, "a1")
    act = inner(CrewAutopilot(1, "normal").choose(st))
    assert isinstance(act, RangedAttack) and act.target == "b2"


def test_pinned_unit_rallies() -> None:
    """COMBAT-4.4.PIN-LOCK: a pinned unit's only useful action is a Rally (CORE-3.3.RALLY)."""
    st = game([("a1", "a", trooper(), (5, 18)), ("b1", "b", trooper(), (12, 18))])
    st.units["a1"].pins = 2
    activate(st, "a1")
    a = CrewAutopilot(1, "normal").choose(st)
    assert isinstance(inner(a), Rally) and a.reason["rule"] == "CORE-3.3.RALLY"


def test_grenade_at_a_group_never_near_a_friend() -> None:
    """CORE-3.3.GRENADE: three enemies bunched 6" away draw a grenade; with a friend within the template's radius
    plus the longest deviation (GEO-18) of the aim point, no grenade is thrown."""
    pistol = ("pistol",)
    group = [("b1", "b", trooper(weapons=pistol), (14, 18)), ("b2", "b", trooper(weapons=pistol), (15.2, 18.6)),
             ("b3", "b", trooper(weapons=pistol), (14.6, 17.2))]
    st = game([("a1", "a", trooper(weapons=pistol), (8, 18)), *group],
              grenades={"a1": {"hand_grenade": 2}})
    activate(st, "a1")
    act = inner(CrewAutopilot(1, "normal").choose(st))
    assert isinstance(act, ThrowGrenade)
    st2 = game([("a1", "a", trooper(weapons=pistol), (8, 18)), ("a2", "a", trooper(weapons=pistol), (17, 22)),
                *group], grenades={"a1": {"hand_grenade": 2}})
    activate(st2, "a1")
    assert not isinstance(inner(CrewAutopilot(1, "normal").choose(st2)), ThrowGrenade)
    st3 = game([("a1", "a", trooper(weapons=pistol), (8, 18)), *group], grenades={"a1": {"hand_grenade": 2}})
    activate(st3, "a1")
    assert not isinstance(inner(CrewAutopilot(1, "easy").choose(st3)), ThrowGrenade)  # easy throws none


def test_searches_a_cleared_location_in_reach() -> None:
    """MISSION-8.2.CLEARING: a triggered objective with no force left, the model within 1" of its point: Search."""
    st = game([("a1", "a", trooper(), (10, 10)), ("b1", "b", trooper(), (33, 33))])
    st.locations["obj"] = LocationState("obj", "the crate", "objective", 10.5, 10.0, 1, triggered=True)
    activate(st, "a1")
    a = CrewAutopilot(1, "normal").choose(st)
    assert isinstance(inner(a), Search) and a.reason["rule"] == "MISSION-8.2.CLEARING"


def test_goes_for_the_objective_and_keeps_a_wounded_model_out_of_its_radius() -> None:
    """The healthy model walks toward the untriggered objective; a wounded one never ends or passes within its 3"
    Reaction Radius (MISSION-8.2.TRIGGER) - it waits at the rim."""
    st = game([("a1", "a", trooper(wounds=2), (4, 18)), ("b1", "b", trooper(), (70, 34))], table=(72, 36))
    st.locations["obj"] = LocationState("obj", "the crate", "objective", 14.0, 18.0, 1)
    activate(st, "a1")
    act = inner(CrewAutopilot(1, "normal").choose(st))
    assert isinstance(act, Move)
    end = act.path[-1] if act.path else None
    assert end is not None and end[0] > 8.0  # a full move toward it
    st.models["a1"].wounds_taken = 1
    st2 = game([("a1", "a", trooper(wounds=2), (8, 18)), ("b1", "b", trooper(), (70, 34))], table=(72, 36))
    st2.models["a1"].wounds_taken = 1
    st2.locations["obj"] = LocationState("obj", "the crate", "objective", 14.0, 18.0, 1)
    activate(st2, "a1")
    act2 = inner(CrewAutopilot(1, "normal").choose(st2))
    if isinstance(act2, Move):
        for p in act2.path:
            assert ((p[0] - 14.0) ** 2 + (p[1] - 18.0) ** 2) ** 0.5 > 3.0 + 0.5
    assert not st2.locations["obj"].triggered


def test_medkit_only_when_it_keeps_the_model_in_play() -> None:
    """COMBAT-4.4.MEDKIT-SELF: one Wound on a 1-Wound model: dress it; two Wounds on it: a kit leaves it Out of
    Action (and adds Pins), so it is kept."""
    for taken, want in ((1, UseItem), (2, DeclineMedKit)):
        st = game([("a1", "a", trooper(), (5, 18)), ("b1", "b", trooper(), (30, 18))], items={"a1": ["medkit"]})
        st.models["a1"].wounds_taken = taken
        st.phase, st.deciding = Phase.MEDKIT, "a"
        st.wound_queue = [WoundDecision("a1", 1, taken)]
        assert isinstance(inner(CrewAutopilot(1, "normal").choose(st)), want)


def test_no_memory_outside_the_state() -> None:
    """At normal the agent's generator is read only to deploy: a fresh agent decides exactly as the one that played
    the game so far, on every decision of a whole game."""
    from game.sim.sources import crews_source, scenario_source

    src = scenario_source("crossroads-blyatsk")
    crews = crews_source(list(src.crew_names), k_limit=src.k_limit)
    scen, bf = src.build(crews, battlefield=src.table())
    from game.ai.zone.agent import ZoneAgent
    from game.core.rules import new_game

    st, _ = new_game(scen, 11, battlefield=bf, settings=dict(src.settings))
    sides = [c.side for c in scen.crews]
    agents = {s: CrewAutopilot(7 + i, "normal") for i, s in enumerate(sides)}
    zone = ZoneAgent()
    checked = 0
    for _ in range(150):
        if st.phase is Phase.MISSION_END:
            break
        ag = agents.get(st.deciding)
        if ag is None:
            apply(st, zone.choose(st))
            continue
        a = ag.choose(st)
        if st.phase is not Phase.DEPLOY:
            assert CrewAutopilot(99, "normal").choose(st) == a
            checked += 1
        apply(st, a)
    assert checked > 40


def test_every_rule_a_reason_names_is_a_rules_md_id() -> None:
    if not RULE_IDS:
        pytest.skip("RULES.md not beside the project")
    st = game([("a1", "a", trooper(), (5, 18)), ("b1", "b", trooper(), (12, 18))])
    activate(st, "a1")
    a = CrewAutopilot(1, "normal").choose(st)
    assert a.reason["rule"] in RULE_IDS


def test_end_when_nothing_to_do() -> None:
    """No enemy, no location: the activation ends (TURN-6) with a reason."""
    st = game([("a1", "a", trooper(), (5, 18))])
    st.sides = st.sides[:1]
    st.order = ["a"]
    activate(st, "a1")
    a = CrewAutopilot(1, "normal").choose(st)
    assert isinstance(inner(a), EndActivation) and a.reason["rule"] == "TURN-6"


def test_no_shot_into_a_melee_with_a_friend_and_no_grenade_on_a_friend_lying_out() -> None:
    """GAP-76: an enemy in base contact with a friend is not shot at normal (hits may fall on the friend; easy
    shoots); GAP-93: a friend lying Out of Action near the aim point stops a grenade (the template could kill it)
    - the regression of simulate game 193 of `crossroads-blyatsk --paired --seed 1 --agents normal,random`."""
    st = game([("a1", "a", trooper(), (5, 18)), ("a2", "a", trooper(), (11.0, 18)),
               ("b1", "b", trooper(), (12.05, 18))])
    activate(st, "a1")
    assert not isinstance(inner(CrewAutopilot(1, "normal").choose(st)), RangedAttack)
    st_e = game([("a1", "a", trooper(), (5, 18)), ("a2", "a", trooper(), (11.0, 18)),
                 ("b1", "b", trooper(), (12.05, 18))])
    activate(st_e, "a1")
    easy = CrewAutopilot(3, "easy")
    assert any(isinstance(inner(easy.choose(st_e)), RangedAttack) for _ in range(8))
    pistol = ("pistol",)
    group = [("b1", "b", trooper(weapons=pistol), (14, 18)), ("b2", "b", trooper(weapons=pistol), (15.2, 18.6)),
             ("b3", "b", trooper(weapons=pistol), (14.6, 17.2))]
    st2 = game([("a1", "a", trooper(weapons=pistol), (8, 18)), ("a2", "a", trooper(weapons=pistol), (16, 20)),
                *group], grenades={"a1": {"hand_grenade": 2}})
    st2.models["a2"].ooa = True
    activate(st2, "a1")
    assert not isinstance(inner(CrewAutopilot(1, "normal").choose(st2)), ThrowGrenade)


def test_a_location_it_cannot_walk_near_is_set_off_with_a_bolt() -> None:
    """MISSION-8.2.BOLT-TOSS: the objective's point sits in the middle of an impassable block whose edge is more than
    3" from it; the model standing at the edge spot nearest the point tosses a bolt rather than standing still."""
    from game.core.actions import BoltToss
    from tests.zonekit import piece

    block = piece(1, 14, 12, 26, 24, 1.0, impassable=True)
    st = game([("a1", "a", trooper(), (13.46, 18)), ("b1", "b", trooper(), (70, 34))], table=(72, 36),
              pieces=(block,))
    st.locations["obj"] = LocationState("obj", "the crate", "objective", 20.0, 18.0, 1,
                                        footprint=[[14, 12], [26, 12], [26, 24], [14, 24]])
    activate(st, "a1")
    a = CrewAutopilot(1, "normal").choose(st)
    assert isinstance(inner(a), BoltToss) and a.reason["rule"] == "MISSION-8.2.BOLT-TOSS"
