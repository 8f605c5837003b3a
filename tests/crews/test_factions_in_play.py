"""Faction rules in whole headless games with the random-legal agent (FACTION-7.2.ALLIED/ENEMY, GAP-44): the agent
takes only what apply allows, so Allied crews never attack each other before a passed break, and a crew facing an
un-overridden Enemy crew never searches, inspects or tosses a bolt while an Enemy model is in play."""
from __future__ import annotations

from dataclasses import replace

from game.ai.random_agent import RandomAgent
from game.core.rules.setup import LocationSpec, _open_table_demo
from game.crews import load_crew
from game.sim.loop import play

ATTACKS = ("attack", "melee_round")


def _scenario(a: str, b: str):
    base = _open_table_demo()
    crews = (load_crew(a, zone=base.zones[0].name).spec, load_crew(b, zone=base.zones[1].name).spec)
    locs = (LocationSpec("well", "the well", "hotspot", (12.0, 12.0), 1),
            LocationSpec("shed", "the shed", "hotspot", (24.0, 24.0), 1))
    return replace(base, crews=crews, tasks=(), locations=locs, k_limit=12)


def _games(a: str, b: str, seeds: range):
    scen = _scenario(a, b)
    for seed in seeds:
        agents = {c.side: RandomAgent(seed * 7 + i) for i, c in enumerate(scen.crews)}
        st, _, events = play(scen, agents, seed)
        yield st, events


def test_allied_crews_only_fight_after_a_passed_break() -> None:
    """Military and Scientists are Allied (FACTION-7.2.TABLE): every attack between them follows a passed
    break_alliance by the attacker's crew (or the Enemies that attack made); the agent tries the break
    (BreakAlliance is one of its kinds)."""
    tries = 0
    for st, events in _games("military", "scientists", range(1, 5)):
        broken: set[str] = set()
        owner = {mid: m.side for mid, m in st.models.items()}
        for e in events:
            if e.type == "break_alliance":
                tries += 1
                if e.data["passed"]:
                    broken.add(e.data["side"])
            if e.type == "crews_now_enemies":  # the first attack after a break makes both crews Enemies
                broken.update(e.data["sides"])
            a, t = owner.get(e.data.get("attacker")), owner.get(e.data.get("target"))
            if e.type == "attack" and {a, t} == {"military", "scientists"}:
                assert a in broken, (e.seq, e.data)
        assert st.phase.name == "MISSION_END"
    assert tries > 0


def test_enemy_crews_respect_the_priority_rule() -> None:
    """Military and Bandits are Enemies: no Search, Inspect or Bolt Toss by a crew whose Leader has not passed the
    override while an Enemy model is in play (GAP-44)."""
    checks = 0
    for st, events in _games("military", "bandits", range(1, 5)):
        passed: set[str] = set()
        for e in events:
            if e.type == "faction_override":
                checks += 1
                if e.data["passed"]:
                    passed.add(e.data["side"])
            if e.type in ("search", "inspect", "bolt_toss"):
                side = e.data.get("side") or st.models[e.data["model"]].side
                assert side in passed or not _enemy_in_play_at(st, events, e.seq, side), (e.seq, e.data)
    assert checks > 0


def _enemy_in_play_at(st, events, seq: int, side: str) -> bool:
    """Whether a model of the other crew was still in play when event `seq` happened (OOA/dead events before)."""
    gone = {e.data["model"] for e in events if e.seq < seq and e.type == "out_of_action"}
    return any(m.side != side and m.side in ("military", "bandits") and mid not in gone
               for mid, m in st.models.items())


def test_a_second_queued_wound_after_the_last_kit_needs_no_decision() -> None:
    """COMBAT-4.4.MEDKIT-SELF: two free attacks on a withdrawing model each queue a Wound while it still has its one
    Med-Kit; once the kit dressed the first, the second is settled without a decision (seed 16 of these crews
    without factions once offered it and the agent's UseItem was refused: "carries no Med-Kit")."""
    scen = _scenario("military", "bandits")
    scen = replace(scen, crews=tuple(replace(c, faction=None) for c in scen.crews))
    st, _, events = play(scen, {c.side: RandomAgent(16 * 7 + i) for i, c in enumerate(scen.crews)}, 16)
    assert st.phase.name == "MISSION_END"
    assert [e for e in events if e.type == "medkit" and e.data["patient"] == "military-dorn"]
