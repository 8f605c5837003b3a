"""Difficulty levels for solo play (HOSTILE-8.3.SCALING, HOSTILE-8.3.WEAPONS; setting `hostiles.difficulty`):
game/data/difficulty.toml applied once in the catalog, so a spawned hostile, the exact odds and `apply` agree."""
from __future__ import annotations

import doctest
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from game.core.actions import MeleeAttack, RangedAttack
from game.core.catalog import CatalogError, load_catalog
from game.core.catalog import difficulty as difficulty_module
from game.core.catalog.difficulty import changes_text, parse_difficulty, shifted
from game.core.catalog.loader import default_data_dir, read_raw
from game.core.odds.actions import attack_odds
from game.core.settings import Settings, SettingsError, house_specs
from tests.core.odds.test_odds_exhaustive import check_ranged
from tests.core.odds.test_odds_kit import Policy, enumerate_apply, marginal, nonzero
from tests.enginekit import activate, profile
from tests.paths import REPO_ROOT
from tests.zonekit import activate_hostile, add_force, zone_game

LEVELS = ("book", "easy", "hard", "brutal")

# Every hostile's stat line at every level with the other settings at their defaults:
# (move, CA, Armor, Will, Wounds, (FP, Damage) of each attack). Written out by hand from difficulty.toml.
EXPECTED = {
    "book": {"vermin": (6.0, 4, 2, 4, 1, ((1, 0),)), "dogs": (8.0, 4, 2, 4, 1, ((1, 0),)),
             "zombies": (4.0, 4, 6, None, 1, ((1, 0),)), "ghouls": (7.0, 5, 4, 6, 1, ((1, 1),)),
             "bandit": (6.0, 5, 3, 5, 1, ((3, 1), (1, 0))), "mutant": (7.0, 6, 3, 6, 2, ((2, 1),)),
             "large_mutant": (6.0, 6, 5, 7, 3, ((3, 2),))},
    "easy": {"vermin": (6.0, 3, 2, 4, 1, ((1, 0),)), "dogs": (7.0, 3, 2, 4, 1, ((1, 0),)),
             "zombies": (4.0, 4, 5, None, 1, ((1, 0),)), "ghouls": (6.0, 4, 4, 6, 1, ((1, 1),)),
             "bandit": (6.0, 4, 3, 4, 1, ((3, 1), (1, 0))), "mutant": (7.0, 5, 2, 6, 2, ((2, 1),)),
             "large_mutant": (6.0, 5, 5, 7, 2, ((3, 2),))},
    "hard": {"vermin": (6.0, 5, 2, 4, 1, ((1, 0),)), "dogs": (8.0, 4, 2, 4, 1, ((2, 0),)),
             "zombies": (5.0, 4, 6, None, 1, ((2, 0),)), "ghouls": (7.0, 5, 4, 6, 1, ((2, 1),)),
             "bandit": (6.0, 6, 3, 6, 1, ((3, 1), (1, 0))), "mutant": (7.0, 6, 4, 6, 2, ((2, 1),)),
             "large_mutant": (6.0, 6, 6, 7, 3, ((3, 2),))},
    "brutal": {"vermin": (6.0, 5, 2, 4, 1, ((2, 0),)), "dogs": (9.0, 4, 2, 4, 1, ((3, 0),)),
               "zombies": (6.0, 5, 6, None, 1, ((2, 0),)), "ghouls": (7.0, 6, 4, 6, 1, ((3, 1),)),
               "bandit": (6.0, 7, 4, 7, 1, ((3, 1), (1, 0))), "mutant": (7.0, 7, 4, 6, 3, ((2, 1),)),
               "large_mutant": (6.0, 7, 6, 7, 4, ((3, 2),))},
}


def line(h) -> tuple:  # type: ignore[no-untyped-def]
    return (h.move, h.ca, h.armor, h.will, h.wounds, tuple((a.fp, a.damage) for a in h.attacks))


def at(level: str, **more: object):  # type: ignore[no-untyped-def]
    return load_catalog(Settings({"hostiles.difficulty": level, **more}))


def test_doctests() -> None:
    assert doctest.testmod(difficulty_module).failed == 0


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_applies_its_table(level: str) -> None:
    """HOSTILE-8.3.SCALING: each level's stat lines, every hostile, every stat (book: the HOSTILE-8.3.STATS table)."""
    cat = at(level)
    assert {h: line(p) for h, p in cat.hostiles.items()} == EXPECTED[level]


def test_every_choice_has_a_table_and_every_table_is_a_choice() -> None:
    """The setting's choices and the file's levels are the same set ("book" has no table: it changes nothing)."""
    spec = house_specs()["hostiles.difficulty"]
    raw = read_raw(default_data_dir())["difficulty.toml"]
    assert set(spec.choices) == {"book"} | (set(raw) - {"bounds"})
    assert spec.enforced and spec.default == "book"


def _hostile(st, side: str = "zone-hs"):  # type: ignore[no-untyped-def]
    return next(m for m in st.models.values() if m.side == side)


# --- a spawned hostile and the odds preview, per level ---------------------------------------------------------

MUTANT_ARMOR = {"book": 3, "easy": 2, "hard": 4, "brutal": 4}
MUTANT_WOUNDS = {"book": 2, "easy": 2, "hard": 2, "brutal": 3}


@pytest.mark.parametrize("level", [pytest.param(lv, marks=pytest.mark.setting("hostiles.difficulty"))
                                   for lv in LEVELS])
def test_spawned_mutant_and_the_odds_of_shooting_it(level: str) -> None:
    """HOSTILE-8.3.SCALING: a Mutant spawned (add_units, the spawn path) at each level carries the level's stat
    line; a crew SMG burst at it is previewed with that line's Armor (save TN = Armor - Damage) and Wounds, and
    the exact odds equal the resolver enumerated over every die class."""
    st = zone_game([("a1", "a", profile(ca=5, weapons=("smg",)), (10, 11))],
                   settings={"hostiles.difficulty": level})
    add_force(st, "mutant", [(20, 11)], location=(20, 11))
    mutant = _hostile(st)
    assert (mutant.profile.ca, mutant.profile.armor, mutant.profile.wounds) == (
        EXPECTED[level]["mutant"][1], MUTANT_ARMOR[level], MUTANT_WOUNDS[level])
    activate(st, "a1")
    act = RangedAttack("a1", mutant.unit, "smg")
    odds = attack_odds(st, act)
    assert odds.numbers.save.value == MUTANT_ARMOR[level]  # SMG Damage 0: save TN = Armor (COMBAT-4.1.SAVE)
    assert check_ranged(st, act) > 1


def test_hard_rabid_dog_melee_odds_equal_apply() -> None:
    """HOSTILE-8.3.WEAPONS at `hard`: a rabid dog bites with FP 2 (two dice; book: one); the exact melee odds of its
    attack (AI-D.12 parry policy) equal the resolver enumerated over every die class."""
    dice = {}
    for level in ("book", "hard"):
        st = zone_game([("a1", "a", profile(ca=5, armor=3, weapons=("knife",)), (10, 10))],
                       settings={"hostiles.difficulty": level})
        (unit,) = add_force(st, "dogs", [(11.0, 10)], location=(11.0, 10), tl=1)
        activate_hostile(st, unit)
        act = MeleeAttack(unit, "a1", "claws")
        odds = attack_odds(st, act)
        dice[level] = odds.attacker_numbers[0].dice
    assert dice == {"book": 1, "hard": 2}
    oc = odds.outcomes["ai"]
    leaves = enumerate_apply(st, act, pol=Policy("ai", odds.p_a, odds.p_b))
    assert sum(lf.weight for lf in leaves) == 1
    mr = lambda lf: next(e for e in lf.events if e.type == "melee_round")  # noqa: E731
    assert nonzero(oc.attacker_hits.fractions()) == marginal(leaves, lambda lf: mr(lf).data["attacker_hits"])
    assert nonzero(oc.defender_ooa.fractions()) == marginal(leaves, lambda lf: lf.state.models["a1"].ooa)
    assert max(nonzero(oc.attacker_hits.fractions())) == 2


# --- composition with the other hostile settings ---------------------------------------------------------------

@pytest.mark.parametrize("level, dogs, ghouls", [("book", 2, 2), ("easy", 2, 2), ("hard", 3, 3), ("brutal", 3, 3)])
def test_on_top_of_the_frenzied_preset_within_fp_3(level: str, dogs: int, ghouls: int) -> None:
    """GAP-09 `hostiles.melee_fp`=frenzied (dogs and ghouls FP 2) then the level: hard adds 1 (FP 3, the top of
    HOSTILE-8.3.WEAPONS' 2-3), brutal adds 2 but stops at the FP ceiling 3."""
    cat = at(level, **{"hostiles.melee_fp": "frenzied"})
    assert (cat.hostile("dogs").attacks[0].fp, cat.hostile("ghouls").attacks[0].fp) == (dogs, ghouls)


def test_a_stat_a_setting_put_past_a_bound_is_not_moved_further() -> None:
    """A setting may put a stat past the level bounds (frenzied dogs FP 5, a Mutant with Armor 10): a raise leaves
    it there, a cut takes it down from where it is, never up to the bound."""
    frenzied5 = {"hostiles.melee_fp": "frenzied", "hostiles.melee_fp.frenzied.dogs": 5}
    assert at("hard", **frenzied5).hostile("dogs").attacks[0].fp == 5
    assert at("hard", **{"hostiles.mutant.armor": 10}).hostile("mutant").armor == 10
    assert at("easy", **{"hostiles.mutant.armor": 10}).hostile("mutant").armor == 9
    assert at("hard", **{"hostiles.mutant.armor": 8}).hostile("mutant").armor == 9
    assert at("brutal", **{"hostiles.mutant.armor": 9}).hostile("mutant").armor == 9


def test_on_top_of_the_bandit_preset_and_the_mutant_leaves() -> None:
    """GAP-23 `hostiles.bandit`=rookie (CA 4, Will 4) at hard: seasoned rookies CA 5, Will 5; GAP-24
    `hostiles.mutant.ca`=7 at easy: CA 6; `hostiles.large_mutant.wounds`=1 at easy stays 1 (the Wounds floor)."""
    rookie = at("hard", **{"hostiles.bandit": "rookie"}).hostile("bandit")
    assert (rookie.move, rookie.ca, rookie.will) == (5.0, 5, 5)
    assert at("easy", **{"hostiles.mutant.ca": 7}).hostile("mutant").ca == 6
    assert at("easy", **{"hostiles.large_mutant.wounds": 1}).hostile("large_mutant").wounds == 1


def test_shifted_floors_and_ceilings() -> None:
    assert [shifted(4.0, -1.0, 3.0, 10.0), shifted(3.0, -1.0, 3.0, 10.0), shifted(9.0, 2.0, 3.0, 10.0)] == \
        [3.0, 3.0, 10.0]
    assert [shifted(1, -1, 1, 3), shifted(0, -1, 1, 3), shifted(0, 1, 1, 3), shifted(3, 0, 1, 3)] == [1, 0, 1, 3]


# --- refusals and broken data ----------------------------------------------------------------------------------

def test_an_unknown_level_is_refused_naming_the_key_and_the_levels() -> None:
    with pytest.raises(SettingsError) as err:
        Settings({"hostiles.difficulty": "nightmare"})
    for word in ("hostiles.difficulty", "'nightmare'", "'book'", "'easy'", "'hard'", "'brutal'"):
        assert word in str(err.value)


def _copy(tmp_path: Path, old: str, new: str) -> Path:
    data = tmp_path / "data"
    shutil.copytree(default_data_dir(), data, ignore=shutil.ignore_patterns("*.py", "__pycache__", "house.toml"))
    text = (data / "difficulty.toml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (data / "difficulty.toml").write_text(text.replace(old, new), encoding="utf-8")
    return data


BROKEN = [
    ("dogs = { fp = 1 }", "dogz = { fp = 1 }", ["difficulty.toml [hard].dogz", "unknown hostile", "'dogs'"]),
    ("dogs = { fp = 1 }", "dogs = { teeth = 1 }", ["difficulty.toml [hard].dogs.teeth", "unknown stat", "'fp'"]),
    ("dogs = { fp = 1 }", 'dogs = { fp = "1" }', ["[hard].dogs.fp", "expected a whole number", "str"]),
    ("dogs = { fp = 1 }", "dogs = { fp = 1.5 }", ["[hard].dogs.fp", "expected a whole number", "float"]),
    ("zombies = { armor = -1 }", "zombies = { will = -1 }", ["[easy].zombies.will", "Will NA", "GAP-22"]),
    ('name = "Hard"\n', "", ["difficulty.toml [hard].name", "missing"]),
    ("fp = [1, 3]", "fp = [3, 1]", ["difficulty.toml [bounds].fp", "floor 3 is above ceiling 1"]),
    ("fp = [1, 3]\n", "", ["difficulty.toml [bounds].fp", "expected [floor, ceiling]"]),
    ("[easy]", "[book]\nname = \"Book\"\ndoc = \"x\"\n\n[easy]", ["difficulty.toml [book]", "takes no table"]),
]


@pytest.mark.parametrize("old, new, words", BROKEN, ids=[b[2][0] + ":" + b[2][1] for b in BROKEN])
def test_broken_difficulty_data_names_file_level_hostile_and_stat(tmp_path: Path, old: str, new: str,
                                                                  words: list[str]) -> None:
    """Checked when any catalog is built, whatever the level in play (a broken level never waits to be chosen)."""
    with pytest.raises(CatalogError) as err:
        load_catalog(data_dir=_copy(tmp_path, old, new))
    for word in words:
        assert word in str(err.value), str(err.value)


def test_a_level_without_its_table_names_the_levels_there_are(tmp_path: Path) -> None:
    data = _copy(tmp_path, "[brutal]", "[cruel]")
    assert load_catalog(data_dir=data).hostile("dogs").attacks[0].fp == 1  # book: still loads
    with pytest.raises(CatalogError, match=r"'brutal' has no table \[brutal\]; levels: \['book', 'easy', 'hard', "
                                           r"'cruel'\]"):
        load_catalog(Settings({"hostiles.difficulty": "brutal"}), data_dir=data)


# --- the docs list every level's changes ------------------------------------------------------------------------

def test_docs_zone_difficulty_table_is_the_data() -> None:
    """docs/zone.md "Difficulty" holds the table of difficulty.toml, row for row."""
    cat = load_catalog()
    diff = parse_difficulty(tomllib.loads((default_data_dir() / "difficulty.toml").read_text(encoding="utf-8")),
                            cat.hostiles)
    levels = list(diff.levels.values())
    rows = ["| Hostile | " + " | ".join(f"{lv.name} (`{lv.id}`)" for lv in levels) + " |",
            "|---|" + "---|" * len(levels)]
    rows += [f"| {h.name} | " + " | ".join(changes_text(lv.changes.get(h.id, {})) for lv in levels) + " |"
             for h in cat.hostiles.values()]
    doc = (REPO_ROOT / "docs" / "zone.md").read_text(encoding="utf-8")
    section = re.search(r"^## Difficulty.*?(?=^## )", doc, re.S | re.M)
    assert section is not None, "docs/zone.md has no '## Difficulty' section"
    assert "\n".join(rows) in section.group(0)
    for lv in levels:
        assert f"`{lv.id}`" in section.group(0) and lv.doc in section.group(0)


# --- scenarios: their own stat lines, their [settings] table ----------------------------------------------------

def _camp(st):  # type: ignore[no-untyped-def]
    out = {}
    for m in st.models.values():
        if m.side == "zone-camp":
            out.setdefault(m.profile.name, (m.profile.move, m.profile.ca, m.profile.will, m.profile.armor))
    return out


@pytest.mark.parametrize("level, nikolai, rookie", [
    ("book", (6.0, 5, 5, 5), (5.0, 4, 4, 5)),
    ("easy", (6.0, 4, 4, 5), (5.0, 3, 3, 5)),
    ("hard", (6.0, 6, 6, 5), (5.0, 5, 5, 5)),
    ("brutal", (6.0, 7, 7, 6), (5.0, 6, 6, 6)),
])
def test_a_scenario_stat_line_takes_the_level(level: str, nikolai: tuple, rookie: tuple) -> None:
    """SCEN-10.2.CARD (Game Two): Big Nikolai (M6 CA5 W5) and his Rookies (M5 CA4 W4) in Civilian armour (Armor 5)
    are Bandits written by the scenario (HOSTILE-8.3.SUBSTITUTE); the level changes their numbers as it changes the
    table Bandit's: seasoned at hard (CA/Will +1), veterans at brutal (CA/Will +2, Armor +1)."""
    from tests.scenarios.kit import fresh

    st, _ = fresh("chernya-woods", settings={"hostiles.difficulty": level})
    assert _camp(st) == {"Big Nikolai": nikolai, "Rookie bandit": rookie}


def test_a_scenario_files_settings_table_sets_the_level(tmp_path: Path) -> None:
    """docs/scenarios.md `[settings]`: a scenario file may play its hostiles at a level; the run's own setting
    (`simulate --difficulty`, a record's settings) goes over it (TURN-2)."""
    from game.core.rules.setup import new_game
    from game.scenarios import ScenarioError, resolve_scenario
    from tests.scenarios.kit import demo_crews

    path = tmp_path / "chernya-woods-hard.toml"
    text = (REPO_ROOT / "scenarios" / "chernya-woods.toml").read_text(encoding="utf-8")
    path.write_text(text + '\n[settings]\n"hostiles.difficulty" = "hard"\n', encoding="utf-8")
    sf = resolve_scenario(str(path))
    assert sf.settings == {"hostiles.difficulty": "hard"}
    scen, bf = sf.build(demo_crews())
    st, _ = new_game(scen, 1, settings=sf.settings, battlefield=bf)
    assert _camp(st)["Big Nikolai"] == (6.0, 6, 6, 5)
    st, _ = new_game(scen, 1, settings={**sf.settings, "hostiles.difficulty": "easy"}, battlefield=bf)
    assert _camp(st)["Big Nikolai"] == (6.0, 4, 4, 5)
    bad = tmp_path / "chernya-woods-bad.toml"
    bad.write_text(text + '\n[settings]\n"hostiles.difficulty" = "nightmare"\n', encoding="utf-8")
    with pytest.raises(ScenarioError, match="hostiles.difficulty") as err:
        resolve_scenario(str(bad))
    assert "'hard'" in str(err.value)


# --- the command line: simulate --difficulty, checked, recorded, replayed ----------------------------------------

def test_simulate_at_hard_and_easy_with_check_and_a_record_that_replays(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """`zona-alfa simulate crossroads-blyatsk --difficulty LEVEL --check`: the header names the level, the rules
    checker finds no violation, the record keeps the setting and replays byte for byte with the level's dogs
    (Game One's two packs: FP 2 at hard, Move 7" and CA 3 at easy)."""
    from game.cli import main
    from game.core.record import load_record
    from game.sim.loop import replay_record

    for level, dog in (("hard", (8.0, 4, (2,))), ("easy", (7.0, 3, (1,)))):
        folder = tmp_path / level
        code = main(["simulate", "crossroads-blyatsk", "--games", "1", "--seed", "3", "--check", "--difficulty", level,
                     "--records", str(folder)])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert f"hostiles at difficulty {level}" in out.splitlines()[0]
        assert "0 violation(s)" in out and "crashed 0" in out
        rec = load_record(str(folder / "game-00001.json"))
        assert dict(rec.settings)["hostiles.difficulty"] == level
        done = replay_record(rec, where=level)
        dogs = [m.profile for m in done.state.models.values() if m.side in done.state.forces
                and m.profile.name == "Feral Dogs"]  # the BTR's zombies too, once a crew sets it off
        assert dogs and {(p.move, p.ca, tuple(o[1] for o in p.fp_overrides)) for p in dogs} == {dog}


def test_simulate_refuses_an_unknown_level_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from game.cli import main

    code = main(["simulate", "crossroads-blyatsk", "--games", "1", "--difficulty", "nightmare"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("zona-alfa simulate: --difficulty: ") and "'nightmare'" in err and "'brutal'" in err
