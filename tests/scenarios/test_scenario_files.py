"""Scenario files (docs/scenarios.md): the three shipped Red Gypsy 3 games load and build (SCEN-10.1/2/3.CARD),
a name and a path give the same scenario and hash, the crews are checked when built (one per zone, room in the zone,
the K limit: ZONE-8.1.PARITY), and `zona-alfa check-scenario` refuses every file of the broken corpus naming its
field (exit 1), an unreadable path with exit 2, and passes the shipped ones (exit 0)."""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import pytest

from game.cli import main
from game.core.rules.setup import ModelSpec
from game.scenarios import ScenarioError, ScenarioNotFound, known_scenarios, resolve_scenario
from tests.scenarios.kit import demo_crews, shipped

BAD = Path(__file__).resolve().parents[1] / "fixtures" / "scenarios" / "bad"
EXPECTED: dict[str, str] = json.loads((BAD / "EXPECTED.json").read_text())
SHIPPED = ("chernya-woods", "crossroads-blyatsk", "ishikhov")


def test_the_three_red_gypsy_games_are_shipped() -> None:
    assert known_scenarios() == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_scenario_builds_with_its_cards_fields(name: str) -> None:
    """SCEN-10.x.CARD: turn limit 7, the card's TL and K limit, two deployment zones taken in order, the scenario's
    source and the SHA-256 of its bytes (records name the scenario by it)."""
    sf, scen, bf = shipped(name)
    assert scen.id == name and scen.turn_limit == 7 and scen.map == bf.source == f"maps/{name}.tmx"
    assert [c.zone for c in scen.crews] == [d.zone for d in sf.deployment]
    assert scen.sha256 == hashlib.sha256(Path(f"scenarios/{name}.toml").read_bytes()).hexdigest()
    assert scen.source == f"scenarios/{name}.toml"
    tl = {"crossroads-blyatsk": 0, "chernya-woods": 1, "ishikhov": 2}[name]
    assert sf.tl == tl and sf.k_limit == (14 if name == "ishikhov" else 12)
    hot = [loc for loc in scen.locations if loc.kind == "hotspot"]
    assert len(hot) == 2 * tl  # MISSION-8.2.HOTSPOT-COUNT (TV-12)
    assert [loc.kind for loc in scen.locations].count("objective") == 1
    assert len(sf.crew_names) == 2 and (name != "ishikhov" or all(c.endswith("-14k") for c in sf.crew_names))


def test_game_one_card() -> None:
    """SCEN-10.1.CARD / GAP-99: 6"x6" corners; the BTR with its footprint spawns 4 zombies (2 actions); its loot is
    the attache case, 2 hand grenades and 1 Basic roll, no TL roll; two packs of 4 dogs, 1 action, one site group
    over the four structures."""
    sf, scen, _ = shipped("crossroads-blyatsk")
    assert [d.size for d in sf.deployment] == [(6.0, 6.0), (6.0, 6.0)]
    (btr,) = scen.locations
    assert btr.id == "btr" and btr.tl == 0 and btr.footprint
    assert btr.fixed_spawn is not None and (btr.fixed_spawn.hostile, btr.fixed_spawn.figures,
                                            btr.fixed_spawn.actions) == ("zombies", 4, 2)
    assert btr.loot is not None and btr.loot.items == ("attache_case",) and btr.loot.tl_roll is False
    assert btr.loot.grenades == (("hand_grenade", 2),) and btr.loot.equipment_rolls == (("basic", 1),)
    assert len(scen.hostiles) == 2 and {h.site_group for h in scen.hostiles} == {"dog-packs"}
    assert all(h.hostile == "dogs" and h.figures == 4 and h.actions == 1 and len(h.sites) == 4 for h in scen.hostiles)


def test_game_two_and_three_cards() -> None:
    """SCEN-10.2.CARD: 4"x4" trail corners, the camp's loot (keycard, 1 Molotov, 2 Basic rolls, the free TL1 roll);
    SCEN-10.3.CARD: the CPO's loot (2,500 ZS, 2 rolls on each table), its key (the keycard, Difficulty 2, 2
    actions), four mobs of 4 zombies at the intersections converging on the four doors."""
    sf2, s2, _ = shipped("chernya-woods")
    assert [d.size for d in sf2.deployment] == [(4.0, 4.0), (4.0, 4.0)]
    camp = next(loc for loc in s2.locations if loc.kind == "objective")
    assert camp.loot is not None and camp.loot.items == ("keycard",) and camp.loot.tl_roll is True
    assert camp.loot.grenades == (("molotov", 1),) and camp.loot.equipment_rolls == (("basic", 2),)
    assert sum(h.figures for h in s2.hostiles) == 5 and {h.force for h in s2.hostiles} == {"camp"}
    sf3, s3, _ = shipped("ishikhov")
    cpo = next(loc for loc in s3.locations if loc.kind == "objective")
    assert cpo.loot is not None and cpo.loot.value == 2500
    assert dict(cpo.loot.equipment_rolls) == {"basic": 2, "advanced": 2, "special": 2}
    assert cpo.key_item == "keycard" and cpo.key_task is not None
    assert (cpo.key_task.difficulty, cpo.key_task.actions) == (2, 2)
    assert len(s3.hostiles) == 4 and all(h.location is None and len(h.converge) == 4 and h.figures == 4
                                         and h.actions == 2 for h in s3.hostiles)


def test_a_name_and_a_path_give_the_same_scenario() -> None:
    a, b = resolve_scenario("ishikhov"), resolve_scenario("scenarios/ishikhov.toml")
    assert a.sha256 == b.sha256 and a.path == b.path and a.locations == b.locations


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(ScenarioNotFound) as err:
        resolve_scenario("zaton")
    assert "chernya-woods, crossroads-blyatsk, ishikhov" in str(err.value)


def test_building_refuses_a_wrong_number_of_crews_a_crowded_zone_and_a_crew_over_k() -> None:
    sf, _, _ = shipped("chernya-woods")
    crews = demo_crews()
    with pytest.raises(ScenarioError) as err:
        sf.build(crews[:1])
    assert err.value.fields == ("crews",)
    big = replace(crews[0], models=tuple(ModelSpec(f"r{i}", f"R{i}", "rookie", "improvised", ("knife",))
                                         for i in range(17)))
    with pytest.raises(ScenarioError) as err:
        sf.build([big, crews[1]])
    assert set(err.value.fields) == {"deployment[0].zone", "crews[0]"}  # 17 bases in 16 sq in; 17K over 12K
    assert "too small" in str(err.value) and "ZONE-8.1.PARITY" in str(err.value)
    with pytest.raises(ScenarioError, match="no crews were given"):
        sf.build(None)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_broken_scenario_file_is_refused_naming_its_field(name: str) -> None:
    with pytest.raises(ScenarioError) as err:
        resolve_scenario(str(BAD / name))
    assert EXPECTED[name] in err.value.fields, err.value
    for p in err.value.problems:
        assert p.file.endswith(name) and p.what
    assert "Traceback" not in str(err.value)


def test_the_corpus_covers_one_mistake_per_file() -> None:
    files = sorted(p.name for p in BAD.glob("*.toml"))
    assert files == sorted(EXPECTED) and len(files) >= 30


def test_check_scenario_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    """0 clean (the shipped three, by name and path), 1 a file with problems (each printed with its field), 2 a path
    that names no readable file; every FILE is checked."""
    assert main(["check-scenario", "crossroads-blyatsk", "scenarios/chernya-woods.toml", "ishikhov"]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok (") == 3
    assert main(["check-scenario", str(BAD / "unknown-anchor.toml"), "ishikhov"]) == 1
    out = capsys.readouterr().out
    assert "objective.anchor: no anchor 'campfire'" in out and "ishikhov.toml: ok" in out
    assert main(["check-scenario", "no/such/file.toml", str(BAD / "tl-5.toml")]) == 2
    cap = capsys.readouterr()
    assert "no readable file" in cap.err and "tl: is 5" in cap.out and "Traceback" not in cap.out + cap.err


def test_the_guides_example_is_a_valid_scenario(tmp_path: Path) -> None:
    """docs/scenarios.md's example loads; with the figures as a string it is refused naming the field."""
    import re

    text = (Path(__file__).resolve().parents[2] / "docs" / "scenarios.md").read_text()
    example = re.search(r"```toml\n(.*?)```", text, re.S)
    assert example is not None
    good = tmp_path / "woodcutters-stash.toml"
    good.write_text(example.group(1))
    sf = resolve_scenario(str(good))
    assert sf.id == "woodcutters-stash" and len(sf.locations) == 3 and sf.locations[-1].key_item == "tool_kit"
    bad = tmp_path / "bad.toml"
    bad.write_text(example.group(1).replace("figures = 3", 'figures = "3"'))
    with pytest.raises(ScenarioError) as err:
        resolve_scenario(str(bad))
    assert err.value.fields == ("hostiles[0].figures",)
