"""AI-8.3.RULE3 (AI-D.01..AI-D.03) and AI-D.14 judged by the referee: scripted broken agents are flagged, the
correct decision in the same situation passes with the check counted."""
from __future__ import annotations

from game.core.actions import RangedAttack
from tests.referee.kit import Table, rules_of, wall, zone_game

B = "hs-bandit-1"
AR = "assault_rifle"
MISS = [9, 9, 9]  # three AR dice that miss (TN 5) without a critical


def bandit_table(**kw) -> Table:  # type: ignore[no-untyped-def]
    crew = kw.pop("crew", [("c1", (18.0, 24.0)), ("c2", (18.0, 30.0))])
    t = Table(zone_game(crew, [kw.pop("at", (18.0, 18.0))], **kw))
    assert t.activate(B) == []
    return t


def test_shooting_the_farthest_enemy_breaks_rule3_and_the_nearest_passes() -> None:
    t = bandit_table()
    assert t.st.ai[B].lock == "c1"  # the engine's lock agrees with the referee's (no AI-D.02 violation above)
    found = t.do(RangedAttack(B, "c2", AR), MISS)
    assert rules_of(found) == ["AI-8.3.RULE3"]
    assert found[0].unit == B and "c2" in found[0].happened and "c1" in found[0].allowed

    t = bandit_table()
    n = t.checks.get("AI-8.3.RULE3", 0)
    assert t.do(RangedAttack(B, "c1", AR), MISS) == []
    assert t.checks["AI-8.3.RULE3"] == n + 1 and t.checks["AI-D.14"] >= 1


def test_switching_away_from_the_held_lock_is_flagged() -> None:
    """AI-D.02: the lock on c1 holds though c2 has come nearer (as if it moved in a window); shooting c2 breaks
    RULE3, shooting c1 keeps it."""
    for target, broken in (("c2", ["AI-8.3.RULE3"]), ("c1", [])):
        t = bandit_table()
        t.st.models["c2"].y = 21.0  # c2 now nearer than c1
        assert rules_of(t.do(RangedAttack(B, target, AR), MISS)) == broken


def test_shooting_a_non_target_in_cover_while_one_stands_in_the_open() -> None:
    """AI-D.01: enemies in the open are preferred: c1 in the open 3" beyond c2, c2 behind a wall, is the target (the
    wall is out of the bandit's reach: no cover move is due, AI-D.07 step 3)."""
    crew = [("c1", (18.0, 27.0)), ("c2", (18.0, 24.0))]
    kw = {"crew": crew, "pieces": [wall(1, 16.0, 22.9, 20.0, 23.4)], "at": (18.0, 10.0)}
    t = bandit_table(**kw)
    assert t.st.ai[B].lock == "c1"
    assert rules_of(t.do(RangedAttack(B, "c2", AR), MISS)) == ["AI-8.3.RULE3"]
    t = bandit_table(**kw)
    assert t.do(RangedAttack(B, "c1", AR), MISS) == []


def test_a_blow_on_an_out_of_action_model_breaks_ai_d14() -> None:
    """AI-D.14: the zombie in contact with c1 (Out of Action) and c2 attacks c2; a coup de grace on c1 is flagged."""
    from game.core.actions import MeleeAttack

    z = "hs-zombies-1"
    for target, broken, dice in (("c1", ["AI-D.14", "AI-8.3.RULE3"], []), ("c2", [], [9, 9])):
        t = Table(zone_game([("c1", (18.0, 19.05)), ("c2", (18.0, 16.95))], [(18.0, 18.0)], hostile="zombies",
                            actions=1))
        t.st.models["c1"].ooa = True
        assert t.activate(z) == [] and t.st.ai[z].lock == "c2"
        assert rules_of(t.do(MeleeAttack(z, target, "claws"), dice)) == broken
        assert t.checks["AI-D.14"] == 1
