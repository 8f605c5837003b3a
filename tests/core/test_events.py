"""Events: every emitted type is documented in docs/formats.md, and the text log (`describe`) shows what the
JSON has (issue 13 item 7)."""
from __future__ import annotations

import ast
import re

from game.core.events import Event, describe
from tests.paths import REPO_ROOT

FORMATS = REPO_ROOT / "docs" / "formats.md"


def emitted_types() -> dict[str, list[str]]:
    """Every `<x>.emit("type", ...)` literal in game/, with where it is."""
    found: dict[str, list[str]] = {}
    for path in sorted((REPO_ROOT / "game").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.setdefault(node.args[0].value, []).append(f"{path.relative_to(REPO_ROOT)}:{node.lineno}")
    return found


def documented_types() -> set[str]:
    """The event types named in the first column of the event table of docs/formats.md."""
    text = FORMATS.read_text(encoding="utf-8")
    table = text[text.index("| type | when | data |"):text.index("## Records")]
    names: set[str] = set()
    for row in table.splitlines()[2:]:
        if row.startswith("|"):
            names.update(re.findall(r"`([a-z_]+)`", row.split("|")[1]))
    return names


def test_every_emitted_event_type_is_documented() -> None:
    """docs/formats.md lists every event type the engine emits, and no type the engine never emits."""
    emitted, documented = emitted_types(), documented_types()
    assert len(emitted) >= 55
    missing = {t: where for t, where in emitted.items() if t not in documented}
    assert not missing, f"event types emitted but missing from docs/formats.md: {missing}"
    assert documented <= set(emitted), f"documented but never emitted: {sorted(documented - set(emitted))}"


def ev(type_: str, rules: tuple[str, ...] = ("X-1",), **data: object) -> Event:
    return Event(type_, rules, dict(data))


def test_best_of_two_save_shows_both_dice_of_each_pair() -> None:
    """GAP-14 / COMBAT-4.1.SAVE: an Advanced armour save rolls two dice per hit and keeps the better; the text
    shows every pair and the kept dice, as the JSON does."""
    line = describe(ev("roll", ("COMBAT-4.1.SAVE", "GAP-14"), what="armour saves", who="w-gennady", dice=[7, 4],
                       rolled=[[7, 9], [4, 10]], tn=6, tn_text="TN 6 = Armor 7 Damage -1", breakdown=[],
                       successes=1, outcome=[False, True], crit="none", round=3))
    assert "(7 9) (4 10) keeps [7 4]" in line and "1 success " in line and "GAP-14" in line


def test_one_die_is_singular_and_two_dice_plural() -> None:
    """COMBAT-4.1.RANGED: "1 die", "2 dice", "1 obstruction"."""
    data = dict(kind="ranged", attacker="a", target="b", weapon="pistol", distance=8.0, aim=False, into_melee=False,
                cover="none", obstructions=1, damage=0)
    assert "1 die," in describe(ev("attack", dice=1, **data)) and "1 obstruction" in describe(ev("attack", dice=1,
                                                                                                  **data))
    assert "2 dice," in describe(ev("attack", dice=2, **data))


def test_move_shows_start_end_cost_and_level_changes_not_every_waypoint() -> None:
    """GEO-8 / GEO-24: a move prints its start, its end, its cost beside its length when they differ, and where it
    changed level (stairs, ladders, climbs) — not dozens of waypoints 0.01" apart."""
    path = [[1.0, 1.0]] + [[2.0 + i * 0.01, 2.0] for i in range(40)] + [[5.0, 5.0], [5.5, 5.0]]
    zs = [0.0] * 42 + [3.25]
    segments = ["walk"] * 41 + ["stairs"]
    line = describe(ev("move", ("CORE-3.3.MOVE", "GEO-8"), unit="v-lev", model="v-lev", path=path, path_z=zs,
                       length=6.5, cost=8.25, allowance=9.0, allowance_text="Move 6 +3", segments=segments, z=3.25))
    assert "(1,1) z 0\" -> (5.5,5) z 3.25\"" in line
    assert "stairs up 3.25\" at (5,5)" in line
    assert "moves 6.5\" (costs 8.25\"" in line
    assert "2.01" not in line and line.count("->") == 1


def test_move_on_flat_ground_prints_no_heights_and_no_cost() -> None:
    line = describe(ev("move", unit="u", model="u", path=[[1, 1], [4, 5]], path_z=[0.0, 0.0], length=5.0, cost=5.0,
                       allowance=7.0, allowance_text="Move 6 +1", segments=["walk"], z=0.0))
    assert line.startswith("  u moves 5\" of 7\" [Move 6 +1]: (1,1) -> (4,5)") and "costs" not in line


def test_climb_names_its_pieces_when_the_event_carries_them() -> None:
    """CORE-3.3.CLIMB: the climbed height, the rate, the Move actions committed; pieces by id when present."""
    line = describe(ev("climb", ("CORE-3.3.CLIMB",), unit="u", model="u", path=[[1, 1], [3, 1]], path_z=[0.0, 0.0],
                       length=2.0, cost=10.0, allowance=12.0, allowance_text="a + b", segments=["walk"], z=0.0,
                       climbed=4.0, climb_rate=2.0, actions=2, pieces=[[17]]))
    assert "u climbs 2\" (costs 10\": 4\" climbed at 2\" per inch)" in line and "2 Move actions over piece #17" in line


def test_template_attacks_show_their_target_not_a_point_by_the_shooter() -> None:
    """ARMORY-5.4 / ARMORY-5.1.FLAME: a blast names the model aimed at; a flame shows its bearing."""
    blast = describe(ev("attack", kind="blast", attacker="w-ilya", weapon="Molotov", point=[16.3, 17.8],
                        indirect="direct", at_model="v-boris"))
    assert "at v-boris at (16.3,17.8)" in blast
    flame = describe(ev("attack", kind="blast", attacker="v-oleg", weapon="Flame Thrower", point=[2.7, 2.1],
                        indirect="flame: no roll"))
    assert "(2.7,2.1)" not in flame and "template below" in flame
    template = describe(ev("template", kind="flame", attacker="v-oleg", origin=[2.4, 1.8, 0.0], angle=1.5707963,
                           models=[{"model": "v-boris", "effect": "affected"}]))
    assert "bearing 90 deg" in template and "v-boris (affected)" in template


def test_setup_shows_a_short_map_hash_and_both_rosters() -> None:
    """TURN-2 / ROSTER-12.MODEL: the setup line names the map with a short hash; every crew model follows."""
    model = dict(id="v-boris", name="Boris", level="leader", experience="veteran", actions=3, move=6.0, ca=6,
                 armour="military", armor=6, will=7, wounds=2, weapons=["assault_rifle"], skills=["leader"],
                 items=["medkit"], grenades={"smoke": 1})
    text = describe(ev("setup", ("TURN-2",), scenario="map-demo", scenario_name="Demo", seed=3, settings={},
                       map="maps/ishikhov.tmx", map_sha256="e83f60b36133" + "0" * 52, table=[48.0, 48.0],
                       crews=[{"side": "vultures", "name": "The Vultures", "zone": "deploy-north",
                               "controller": "human", "khrabrost": 3, "models": [model]}]))
    head, *rows = text.splitlines()
    assert "sha256 e83f60b36133)" in head and "0" * 52 not in head and head.endswith("(TURN-2)")
    assert any("The Vultures" in r and "3K" in r for r in rows)
    assert any("Boris (v-boris): leader (veteran), 3 actions" in r and "2 Wounds" in r and "smoke x1" in r
               for r in rows)


def test_mission_end_shows_the_winner_and_the_advances() -> None:
    """SCEN-10.5.VICTORY / POST-8.5.EARN: the result headline names the winner (or a draw), then each crew's
    advances and the fates."""
    adv = {"vultures": {"survivors": 4, "units_out": 2, "hot_spots": 0, "objective": False, "total": 6},
           "wolves": {"survivors": 3, "units_out": 1, "hot_spots": 0, "objective": False, "total": 4}}
    text = describe(ev("mission_end", ("TURN-11", "SCEN-10.5.VICTORY"), reason="turn limit reached", turn=7,
                       fates={"vultures": {"v-boris": "survived"}}, tasks_done=[], winner="vultures", draw=False,
                       decided_by="advances", advances=adv, crews={"vultures": "The Vultures", "wolves": "Wolves"},
                       victory="objective_then_advances"))
    head = text.splitlines()[0]
    assert "The Vultures (vultures) win" in head and "turn 7" in head and "SCEN-10.5.VICTORY" in head
    assert "6 advance(s) = 4 survivor(s) + 2 rival unit(s)" in text and "v-boris survived" in text
    draw = describe(ev("mission_end", reason="turn limit reached", turn=7, fates={}, tasks_done=[], winner=None,
                       draw=True, decided_by="tie", advances={}, crews={}, victory="objective_then_advances"))
    assert "a draw" in draw


def test_unknown_types_fall_back_to_every_field() -> None:
    assert describe(ev("burn_out", ("ARMORY-5.1.BURN",), model="v-boris")) == \
        "  burn_out: model=v-boris  (ARMORY-5.1.BURN)"
