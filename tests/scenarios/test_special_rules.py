"""The Red Gypsy 3 special rules in the engine, on the shipped scenarios: Game One's dog packs in one structure chosen
at random and its zombified vehicle crew (SCEN-10.1.CARD, GAP-99), Game Two's bandit camp (SCEN-10.2.CARD, GAP-100,
AI-S.PREPLACE), Game Three's keycard task (SCEN-10.3.CARD, `scen.g3_keycard`) and intersection mobs
(AI-S.G3ZOMBIES, GAP-101)."""
from __future__ import annotations

import math

import pytest
import shapely

from game.ai.zone.agent import ZoneAgent
from game.core.actions import ComplexTask, EndActivation, IllegalAction, Move, Search
from game.core.dice import ScriptedDice
from game.core.rules.apply import apply, validate
from game.core.rules.context import Ctx
from game.core.rules.converge import converge_goal
from game.core.rules.dispatch import ACTIONS
from game.core.rules.exposure import vis
from game.core.rules.preplace import HostileSpec, choose_site
from game.core.rules.scouting import cleared
from game.core.state import Phase
from game.referee.zone import ZoneChecker
from tests.enginekit import activate
from tests.scenarios.kit import deployed, fresh, shipped

STRUCTURES = ("structure-1", "structure-2", "structure-3", "structure-4")


# --- Game One ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_g1_both_dog_packs_stand_in_one_structure_chosen_at_setup(seed: int) -> None:
    """GAP-99: two packs of 4 dogs (each one unit, GAP-20), 1 action, both round the one structure the D4 chose
    (the `hostile_site_chosen` event says which), leashed to that structure's centre (GEO-20); no location."""
    st, ev = fresh("crossroads-blyatsk", seed)
    chosen = [e for e in ev if e.type == "hostile_site_chosen"]
    assert len(chosen) == 1 and chosen[0].data["site"] in STRUCTURES
    assert all(1 <= r <= 6 for r in chosen[0].data["rolls"]) and chosen[0].data["rolls"][-1] <= 4
    site = chosen[0].data["point"]
    placed = [e for e in ev if e.type == "hostiles_placed"]
    assert len(placed) == 2 and {e.data["site"] for e in placed} == {chosen[0].data["site"]}
    forces = [st.forces[e.data["side"]] for e in placed]
    assert len({f.side for f in forces}) == 2
    for f in forces:
        assert f.hostile == "dogs" and f.location is None and f.centre == site and f.leash == 12.0
        assert f.actions == 1
    dogs = [m for m in st.models.values() if m.side in st.forces]
    assert len(dogs) == 8 and all(m.profile.actions == 1 for m in dogs)
    assert all(math.hypot(m.x - site[0], m.y - site[1]) <= 12.0 for m in dogs)


def test_g1_the_site_roll_rerolls_above_the_number_of_sites() -> None:
    """A D4 from the D6: 5 and 6 are rolled again (uniform); a second spec of the same group takes the same site."""
    st, _ = fresh("crossroads-blyatsk", 1)
    ctx = Ctx(st, ScriptedDice([6, 5, 3]), st.battlefield)
    sites = tuple((n, 1.0 + k, 2.0) for k, n in enumerate(STRUCTURES))
    spec = HostileSpec("dogs", 4, None, sites=sites, site_group="g")
    assert choose_site(ctx, spec, 0)[0] == "structure-3"
    assert choose_site(ctx, spec, 1)[0] == "structure-3"  # no die left: the group's roll is reused
    e = [x for x in ctx.events if x.type == "hostile_site_chosen"][-1]
    assert e.data["rolls"] == [6, 5, 3] and e.data["die"] == "D6"


def test_g1_the_btr_spawns_its_zombie_crew_when_triggered_without_a_table_roll() -> None:
    """SCEN-10.1.CARD / GAP-99: triggering the TL0 vehicle spawns 4 Zombies (one mob), 2 actions, by deviation from
    the vehicle's centre; no Zone Hostiles Table roll; the BTR is clear only when they are out."""
    st = deployed("crossroads-blyatsk", 2)
    btr = st.locations["btr"]
    assert btr.tl == 0 and btr.fixed_spawn == {"hostile": "zombies", "figures": 4, "actions": 2}
    crew = next(m for m in st.models.values() if m.side not in st.forces)
    activate(st, crew.unit)
    crew.x, crew.y = 30.5, 30.0  # 8" from the BTR's point, on the road
    path = ((26.5, 26.3),)  # ends 3.3" from its point: inside 3" + r (GEO-19)
    ev = apply(st, Move(crew.unit, path), ScriptedDice([1, 0.0]))
    rolls = [e for e in ev if e.type == "hostile_roll"]
    assert rolls and rolls[0].data["roll"] is None and rolls[0].data["fixed"]["figures"] == 4
    spawned = [e for e in ev if e.type == "hostiles_spawned"]
    assert len(spawned) == 1 and spawned[0].data["hostile"] == "zombies" and spawned[0].data["figures"] == 4
    assert spawned[0].data["actions"] == 2 and "GAP-99" in spawned[0].rules
    force = st.forces[spawned[0].data["side"]]
    assert force.location == "btr" and force.centre == [btr.x, btr.y] and btr.force == force.side
    assert not cleared(Ctx(st, ScriptedDice([]), st.battlefield), btr)


# --- Game Two ------------------------------------------------------------------------------------------------

def test_g2_big_nikolai_and_four_rookies_hold_the_camp_in_cover_on_alert_with_their_gear() -> None:
    """GAP-100: one force at the camp (the MO, already triggered): the boss M6 CA5 W5 with 2 actions, four Rookies M5
    CA4 W4 with 1, all 1 Wound, AK + Knife, Civilian armour (Armor 5), a Med-Kit and a Molotov each, on a free Alert
    in base contact with cover (AI-S.PREPLACE)."""
    st, ev = fresh("chernya-woods", 1)
    camp = st.locations["camp"]
    assert camp.triggered and camp.force == "zone-camp" and camp.kind == "objective"
    bandits = [m for m in st.models.values() if m.side == "zone-camp"]
    assert len(bandits) == 5 and len({m.unit for m in bandits}) == 5
    boss = [m for m in bandits if m.profile.name == "Big Nikolai"]
    rookies = [m for m in bandits if m.profile.name == "Rookie bandit"]
    assert len(boss) == 1 and len(rookies) == 4
    b = boss[0].profile
    assert (b.move, b.ca, b.will, b.wounds, b.actions) == (6.0, 5, 5, 1, 2)
    for r in rookies:
        p = r.profile
        assert (p.move, p.ca, p.will, p.wounds, p.actions) == (5.0, 4, 4, 1, 1)
    for m in bandits:
        assert m.profile.armour == "civilian" and m.profile.armor == 5
        assert m.profile.weapons == ("assault_rifle", "knife")
        assert m.items == ["medkit"] and m.grenades == {"molotov": 1}
        assert st.units[m.unit].alert
        assert math.hypot(m.x - camp.x, m.y - camp.y) <= 6.0 + 1e-6
    placed = [e for e in ev if e.type == "hostiles_placed"]
    assert all(e.data["in_cover"] for e in placed) and len(placed) == 5


def test_g2_the_camp_is_cleared_only_when_all_five_are_down() -> None:
    """GAP-53 with one force: the rookies out and Big Nikolai standing, the camp is not clear."""
    st, _ = fresh("chernya-woods", 1)
    ctx = Ctx(st, ScriptedDice([]), st.battlefield)
    camp = st.locations["camp"]
    for m in st.models.values():
        if m.side == "zone-camp" and m.profile.name == "Rookie bandit":
            m.ooa = True
    assert not cleared(ctx, camp)
    for m in st.models.values():
        if m.side == "zone-camp":
            m.ooa = True
    assert cleared(ctx, camp)


# --- Game Three: the keycard ---------------------------------------------------------------------------------

def _at_the_cpo(settings: dict | None = None):
    """A crew model touching the CPO (south wall), the CPO triggered with no force (clear), in its activation."""
    st = deployed("ishikhov", 1, settings)
    cpo = st.locations["cpo"]
    cpo.triggered = True
    m = next(x for x in st.models.values() if x.side not in st.forces)
    m.x, m.y = 21.0, 28.5 + m.radius + 0.01
    activate(st, m.unit)
    return st, cpo, m


def test_g3_a_crew_without_the_keycard_must_complete_the_task_before_its_search() -> None:
    """SCEN-10.3.CARD (`scen.g3_keycard`="task_without_card"): the Search is refused until the key task (Difficulty
    2, 2 actions, CORE-3.4) is done at the CPO; then it is allowed."""
    st, cpo, m = _at_the_cpo()
    task = st.tasks["cpo-key"]
    assert (task.difficulty, task.actions) == (2, 2)
    assert shapely.Polygon(cpo.footprint).distance(shapely.Point(task.x, task.y)) == 0.0
    with pytest.raises(IllegalAction, match="SCEN-10.3.CARD|carries no keycard") as err:
        validate(st, Search(m.unit, "cpo"))
    assert err.value.rule == "SCEN-10.3.CARD"
    ev = apply(st, ComplexTask(m.unit, "cpo-key"), ScriptedDice([1]))  # the free Skill Check passes; 1 of 2
    assert [e.type for e in ev if e.type.startswith("task")] == ["task_progress"]
    ev = apply(st, ComplexTask(m.unit, "cpo-key"), ScriptedDice([]))
    assert "task_complete" in [e.type for e in ev]
    validate(st, Search(m.unit, "cpo"))


def test_g3_a_crew_carrying_the_keycard_searches_at_once() -> None:
    st, _, m = _at_the_cpo()
    m.items.append("keycard")
    validate(st, Search(m.unit, "cpo"))


@pytest.mark.setting("scen.g3_keycard")
def test_g3_keycard_ignore_leaves_the_cpo_open() -> None:
    """`scen.g3_keycard`="ignore": no key task, the Search is open to a crew without the card."""
    st, _, m = _at_the_cpo({"scen.g3_keycard": "ignore"})
    assert "cpo-key" not in st.tasks
    validate(st, Search(m.unit, "cpo"))


# --- Game Three: the intersection mobs -----------------------------------------------------------------------

def _hidden_crews(st) -> None:
    """Every crew model out of sight of the mobs: into the northern corner buildings' lee (checked by vis)."""
    for m in st.models.values():
        if m.side not in st.forces:
            m.ooa = True
    keep = next(m for m in st.models.values() if m.side not in st.forces)
    keep.ooa = False
    keep.x, keep.y = 1.0, 1.0


def test_g3_mobs_have_no_leash_and_converge_on_the_cpo_doors_while_unseen() -> None:
    """AI-S.G3ZOMBIES: four mobs of 4 (one unit each, 2 actions) at the intersections, no location, no leash; with no
    player model in view each Move goes its whole allowance along the shortest path toward the CPO's nearest door,
    and the rules checker judges the decisions legal."""
    sf, _, _ = shipped("ishikhov")
    st = deployed("ishikhov", 3)
    mobs = sorted(u for u, un in st.units.items() if un.side in st.forces)
    assert len(mobs) == 4 and all(len(st.units[u].models) == 4 for u in mobs)
    for u in mobs:
        f = st.forces[st.units[u].side]
        assert f.location is None and f.leash is None and f.centre is None and len(f.converge) == 4
        assert all(m.profile.actions == 2 for m in st.unit_models(u))
    _hidden_crews(st)
    checker = ZoneChecker.from_state(st)
    agent = ZoneAgent()
    for u in mobs:
        if vis(st, u):
            continue
        before_goal = converge_goal(st, u)
        assert before_goal is not None
        st.phase = Phase.ACTIVATE
        st.deciding = st.units[u].side
        apply(st, agent.choose(st))
        while st.phase is Phase.ACTION and st.activation is not None and st.activation.unit == u:
            d = agent.decide(st)
            before = st.clone()
            ev = apply(st, d.reasoned())
            checker.observe(before, d.reasoned(), ev, st)
            if isinstance(d.action, Move):
                assert d.reason["rule"] == "AI-S.G3ZOMBIES"
            else:
                assert isinstance(d.action, EndActivation)
        after_goal = converge_goal(st, u)
        assert after_goal is not None
        assert after_goal.arrived(st) or after_goal.cost < before_goal.cost - 3.0  # 2 Moves of a 4" zombie
    assert not checker.report.violations, checker.report.violations
    assert checker.report.checks.get("AI-S.G3ZOMBIES", 0) >= 4


def test_g3_the_checker_flags_a_mob_that_stands_still_while_it_could_converge() -> None:
    """The referee's AI-S.G3ZOMBIES check can fail: ending the activation with a Move open is a violation."""
    st = deployed("ishikhov", 3)
    _hidden_crews(st)
    u = next(u for u, un in sorted(st.units.items()) if un.side in st.forces and not vis(st, u))
    checker = ZoneChecker.from_state(st)
    st.phase = Phase.ACTIVATE
    st.deciding = st.units[u].side
    apply(st, ZoneAgent().choose(st))
    before = st.clone()
    ev = apply(st, EndActivation(u))
    checker.observe(before, EndActivation(u), ev, st)
    assert [v.rule for v in checker.report.violations] == ["AI-S.G3ZOMBIES"]


def test_hostile_specs_with_bad_overrides_are_refused_naming_the_field() -> None:
    from game.core.rules.spawn import SpawnError

    st, _ = fresh("crossroads-blyatsk", 1)
    ctx = Ctx(st, ScriptedDice([]), st.battlefield, ACTIONS)
    from game.core.rules.preplace import check_spec

    for spec, field in ((HostileSpec("bandit", 1, None, at=(5.0, 5.0), armour="kevlar"), "armour"),
                        (HostileSpec("bandit", 1, None, at=(5.0, 5.0), stats=(("speed", 3),)), "stats.speed"),
                        (HostileSpec("bandit", 1, None, at=(5.0, 5.0), weapons=("ray_gun",)), "weapons"),
                        (HostileSpec("bandit", 1, None, at=(5.0, 5.0), grenades=(("nuke", 1),)), "grenades")):
        with pytest.raises(SpawnError, match=f"field '{field}'"):
            check_spec(ctx, spec, "t")
