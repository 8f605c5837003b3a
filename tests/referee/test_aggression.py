"""AI-8.3.RULE2 (AI-D.06..AI-D.08) and RULE4 judged by the referee: a hostile that could attack must attack (or take
the cover move or the Aim the rules prescribe), a mover uses cover within the slack, a drawn hostile fights back."""
from __future__ import annotations

from game.core.actions import Aim, Alert, EndActivation, MeleeAttack, Move, Rally, RangedAttack
from game.core.rules import exposure as ex
from tests.referee.kit import CREW, Table, rules_of, wall, zone_game

B = "hs-bandit-1"
AR = "assault_rifle"
MISS = [9, 9, 9]


def bandit(crew=(("c1", (18.0, 24.0)),), **kw) -> Table:  # type: ignore[no-untyped-def]
    t = Table(zone_game(list(crew), [kw.pop("at", (18.0, 18.0))], **kw))
    assert t.activate(B) == []
    return t


def test_going_on_alert_with_a_shot_available_breaks_rule2() -> None:
    t = bandit()
    found = t.do(Alert(B))
    assert rules_of(found) == ["AI-8.3.RULE2"] and "RangedAttack assault_rifle on c1" in found[0].allowed
    t = bandit()
    n = t.checks.get("AI-8.3.RULE2", 0)
    assert t.do(RangedAttack(B, "c1", AR), MISS) == []
    assert t.checks["AI-8.3.RULE2"] == n + 1


def test_ending_the_activation_with_an_attack_available_breaks_rule2() -> None:
    t = bandit()
    assert rules_of(t.do(EndActivation(B))) == ["AI-8.3.RULE2"]


def test_a_pinned_hostile_rallies() -> None:
    t = bandit()
    t.st.units[B].pins = 1
    assert rules_of(t.do(EndActivation(B))) == ["AI-D.07"]
    t = bandit()
    t.st.units[B].pins = 1
    assert t.do(Rally(B)) == [] and t.checks["AI-D.07"] == 1


def test_a_bandit_in_the_open_moves_to_cover_before_shooting() -> None:
    """AI-D.07 step 3: not in cover, 2 actions, a wall with LOS and range 2" away: shooting first is flagged, the
    move to the wall passes (and then the shot)."""
    kw = {"crew": (("c1", (18.0, 28.0)),), "pieces": [wall(1, 16.0, 20.6, 20.0, 21.1)]}
    t = bandit(**kw)
    found = t.do(RangedAttack(B, "c1", AR), MISS)
    assert rules_of(found) == ["AI-D.07"] and "cover" in found[0].allowed
    t = bandit(**kw)
    assert t.do(Move(B, ((18.0, 20.05),))) == [] and t.checks["AI-D.07"] == 1
    assert ex.in_cover_against(t.st, B, "c1")
    assert t.do(RangedAttack(B, "c1", AR), MISS) == []
    # a move that stops short of the wall is no cover move
    t = bandit(**kw)
    assert rules_of(t.do(Move(B, ((18.0, 19.0),)))) == ["AI-D.07"]


DOG = "hs-dogs-1"


def dog_table() -> Table:
    """A dog 18" from c1 (no contact this move, allowance 9"); a wall beside its path lies within the slack."""
    st = zone_game([("c1", (18.0, 30.0))], [(18.0, 12.0)], hostile="dogs", pieces=[wall(1, 19.5, 21.2, 23.5, 21.7)])
    t = Table(st)
    assert t.activate(DOG) == []
    return t


def test_a_melee_mover_that_ignores_cover_within_the_slack_breaks_ai_d06() -> None:
    t = dog_table()
    cands = ex.candidate_points(t.st, DOG, 9.0, target="c1", leash_centre=(18.0, 18.0))
    best = ex.choose_melee_move(cands, cover_slack=1.0)
    assert best.why == "cover" and best.chosen is not None
    found = t.do(Move(DOG, ((18.0, 21.0),)))  # full progress, in the open
    assert rules_of(found) == ["AI-D.06"] and "cover" in found[0].allowed

    t = dog_table()
    c = best.chosen
    assert t.do(Move(DOG, tuple((p[0], p[1]) for p in c.path[1:]))) == []
    assert t.checks["AI-D.06"] == 1 and ex.in_cover_against(t.st, DOG, "c1")


Z = "hs-zombies-1"


def zombie_table(actions: int = 2, crew=(("c1", (18.0, 19.05)),)) -> Table:  # type: ignore[no-untyped-def]
    t = Table(zone_game(list(crew), [(18.0, 18.0)], hostile="zombies", actions=actions))
    assert t.activate(Z) == []
    return t


def test_a_zombie_in_contact_with_two_actions_aims_then_attacks() -> None:
    """AI-D.08: FP 1, 2 actions, the attack possible without moving: the Aim is mandatory."""
    t = zombie_table()
    assert rules_of(t.do(MeleeAttack(Z, "c1", "claws"), [9, 9])) == ["AI-D.08"]
    t = zombie_table()
    assert t.do(Aim(Z)) == []
    assert t.do(MeleeAttack(Z, "c1", "claws"), [9, 9]) == []
    assert t.checks["AI-D.08"] == 1 and t.checks["AI-8.3.RULE3"] == 1
    t = zombie_table()
    t.do(Aim(Z))
    assert rules_of(t.do(EndActivation(Z))) == ["AI-D.08"]  # Aim, then the attack
    t = zombie_table(actions=1)
    assert rules_of(t.do(Aim(Z))) == ["AI-D.08"]  # one action: never Aim


def test_drawn_by_a_melee_attacker_in_contact_it_fights_that_attacker() -> None:
    """RULE4 / AI-D.03: c2's melee attack draws the zombie away from its lock on c1."""
    crew = (("c1", (18.0, 19.05)), ("c2", (18.0, 16.95)))
    for target, broken in (("c1", ["AI-8.3.RULE3", "AI-8.3.RULE4"]), ("c2", [])):
        t = Table(zone_game(list(crew), [(18.0, 18.0)], hostile="zombies", actions=1, crew_profile=CREW))
        assert t.activate(Z) == [] and t.st.ai[Z].lock == "c1"
        assert t.do(MeleeAttack(Z, "c1", "claws"), [9, 9]) == []  # its one action ends the activation
        assert t.activate("c2") == []
        assert t.do(MeleeAttack("c2", Z, "unarmed"), [9, 9]) == []
        assert t.st.ai[Z].draw == "c2"
        t.st.units[Z].activated = False
        assert t.activate(Z) == []
        assert rules_of(t.do(MeleeAttack(Z, target, "claws"), [9, 9])) == broken
        assert t.checks["AI-8.3.RULE4"] == 1
