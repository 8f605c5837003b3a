"""Generated missions (game.scenarios.generate, issue 16 part 3): the Mission Table lookup (CAMPAIGN-9.1.MISSION-TABLE,
TV-37), determinism (SHA-256-seeded), GAP-118 Hot Spots (MISSION-8.2.HOTSPOT-COUNT, `mapgen.hotspots.min_gap`), the
verbs' mechanics in the engine (Repair/Sabotage: [objective.task], CORE-3.4; Eliminate/Hunt: the force at the
objective, MISSION-8.2.CLEARING), every shipped table passing the checker, a whole checked headless game that
replays, and the command lines' refusals."""
from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from game import cli
from game.core.actions import ComplexTask, IllegalAction, Search
from game.core.dice import ScriptedDice
from game.core.rules.apply import apply, validate
from game.core.rules.hotspots import MIRROR_TOLERANCE_IN
from game.core.settings import Settings
from game.scenarios import generate as gen
from game.scenarios.check_cli import check_file
from game.scenarios.generate import (
    GenerateError,
    Mechanic,
    generate_mission,
    mission_prompt,
    tables_with_anchors,
    write_generated,
)
from game.scenarios.loader import parse_scenario, resolve_scenario
from game.scenarios.problems import ScenarioError
from tests.enginekit import activate
from tests.scenarios.kit import demo_crews

ROOT = Path(__file__).resolve().parents[2]
TABLES = ("bench-town", "chernya-woods", "crossroads-blyatsk", "ishikhov", "sandbox")


@cache
def mission(seed: int, table: str, tl: int | None = None) -> gen.GeneratedMission:
    return generate_mission(seed, table, tl=tl)


# --- the Mission Table ---------------------------------------------------------------------------------------

def test_tv37_the_books_example_rolls_read_eliminate_sabotage_supplies_old_factory() -> None:
    """TV-37: rolls (3, 3, 4) -> "Eliminate/Sabotage - Supplies - Old Factory" (CAMPAIGN-9.1.MISSION-TABLE)."""
    assert mission_prompt(3, 3, 4) == ("Eliminate/Sabotage", "Supplies", "Old Factory")
    assert mission_prompt(1, 6, 6) == ("Retrieve/Deliver", "Mutant", "Ruined City")
    for bad in (0, 7, True, "3"):
        with pytest.raises(ValueError, match="allowed: a D6 result 1-6"):
            mission_prompt(bad, 3, 4)  # type: ignore[arg-type]


def test_every_verb_plays_a_mechanic_or_is_never_chosen() -> None:
    """Retrieve/Investigate/Locate Search, Repair/Sabotage a task, Eliminate/Hunt a force; Deliver, Defend,
    Protect, Escort, Steal are left out: over 200 seeds no mission carries one, rows 2 and 6 are rolled again and
    the re-rolls are kept, and the D2 chooses both verbs of a row."""
    verbs = {v for row in gen.MISSION_TABLE.values() for v in row[0].split("/")}
    assert verbs == set(gen.VERBS)
    chosen = set()
    rerolled = 0
    for seed in range(200):
        m = generate_mission(seed, "chernya-woods", tl=1)
        assert gen.VERBS[m.verb] is m.mechanic is not None
        assert m.verb in m.prompt[0].split("/")
        assert all(r in (2, 6) for r in m.rolls["action"][:-1]) and m.rolls["action"][-1] not in (2, 6)
        rerolled += len(m.rolls["action"]) > 1
        chosen.add(m.verb)
        assert f"action D6 {', '.join(map(str, m.rolls['action']))}" in m.toml_text
    assert chosen == {"Retrieve", "Investigate", "Locate", "Repair", "Sabotage", "Eliminate", "Hunt"}
    assert rerolled > 0


# --- determinism -----------------------------------------------------------------------------------------------

def test_the_same_seed_and_table_write_the_same_bytes_and_other_seeds_differ(tmp_path: Path) -> None:
    a = write_generated(generate_mission(11, "ishikhov"), tmp_path / "a.toml").read_bytes()
    b = write_generated(generate_mission(11, "ishikhov"), tmp_path / "b.toml").read_bytes()
    assert a == b
    others = {generate_mission(s, "ishikhov").toml_text for s in range(12, 18)}
    assert a.decode() not in others and len(others) > 1
    assert generate_mission(11, "sandbox").toml_text != a.decode()
    assert generate_mission(11, "ishikhov", tl=1).path_hint == "generated/ishikhov-11-tl1.toml"
    assert generate_mission(11, "ishikhov").path_hint == "generated/ishikhov-11.toml"


def test_the_rolls_do_not_depend_on_pythons_hash_seed() -> None:
    """SHA-256 seeds the generator, never hash(): another PYTHONHASHSEED writes the same file."""
    code = "from game.scenarios.generate import generate_mission as g; print(g(5, 'bench-town').toml_text, end='')"
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert out.stdout == mission(5, "bench-town").toml_text


def test_tl_and_turn_limit_are_rolled_on_a_d3_unless_the_tl_is_given() -> None:
    """MISSION-8.2.TL (D3, 1-3) and MISSION-8.2.TURN-LIMIT: 4 + D3 on the 36" and 48" shipped tables."""
    tls, turns = set(), set()
    for seed in range(40):
        m = mission(seed, "sandbox")
        assert m.tl == m.rolls["tl"][0] and not m.tl_given
        assert m.turn_limit == 4 + m.rolls["turn_limit"][0]
        tls.add(m.tl)
        turns.add(m.turn_limit)
    assert tls == {1, 2, 3} and turns == {5, 6, 7}
    m = generate_mission(3, "sandbox", tl=2)
    assert m.tl == 2 and "tl" not in m.rolls and "# given (--tl)" in m.toml_text


# --- GAP-118 ---------------------------------------------------------------------------------------------------

def _layout(m: gen.GeneratedMission, settings: Settings | None = None):
    bf = gen.load_table(m.table)
    zones = gen.choose_zones(bf)
    mo = gen.choose_objective(bf, zones)
    mirror = gen.choose_mirror(bf, zones, mo, settings or Settings.defaults())
    return bf, zones, mo, mirror


def _check_gap118(m: gen.GeneratedMission, gap: float) -> None:
    bf, zones, mo, mirror = _layout(m, Settings({"mapgen.hotspots.min_gap": gap}))
    spots = m.hotspots
    assert len(spots) == 2 * m.tl  # MISSION-8.2.HOTSPOT-COUNT
    centre = (bf.width / 2, bf.height / 2)
    assert math.dist(mirror.image(centre), centre) < 1e-9  # about the table centre
    assert math.dist(mirror.image(zones[0].footprint[0]), zones[0].footprint[0]) > 1.0  # ... swapping the zones
    stand = gen._standable(bf)
    pts = [h.point for h in spots]
    for i in range(0, len(spots), 2):
        a, b = spots[i], spots[i + 1]
        err = mirror.error(a.point, b.point)
        assert err <= (MIRROR_TOLERANCE_IN if a.anchor else 1e-9), (a, b, err)
    for i, h in enumerate(spots):
        assert min(h.point[0], bf.width - h.point[0], h.point[1], bf.height - h.point[1]) >= gap - 1e-6
        assert math.dist(h.point, mo.point) >= gap - 1e-6
        assert all(math.dist(h.point, q) >= gap - 1e-6 for j, q in enumerate(pts) if j != i)
        z = next(a.z for a in bf.anchors if a.name == h.anchor) if h.anchor else 0.0
        assert stand(h.point, z)  # GEO-7: a base may stand there (not inside a building's walls)


@pytest.mark.parametrize("table", TABLES)
def test_gap118_hot_spots_are_2_x_tl_mirror_pairs_far_from_edges_each_other_and_the_mo(table: str) -> None:
    for tl in (1, 2, 3):
        _check_gap118(mission(1, table, tl), 6.0)


def test_gap118_prefers_the_maps_hotspot_anchors() -> None:
    """Ishikhov's four quadrant anchors pair across the line between the zones; chernya's clearings through the
    centre; only then generated points."""
    assert [h.anchor for h in mission(1, "ishikhov", 2).hotspots] == ["hotspot-nw", "hotspot-sw", "hotspot-ne",
                                                                      "hotspot-se"]
    m = mission(1, "chernya-woods", 3)
    assert [h.anchor for h in m.hotspots][:2] == ["clearing-b", "clearing-a"] or \
        [h.anchor for h in m.hotspots][:2] == ["clearing-a", "clearing-b"]
    assert [h.anchor for h in m.hotspots][2:] == [None] * 4


@pytest.mark.setting("mapgen.hotspots.min_gap")
def test_min_gap_setting_spreads_the_hot_spots_further() -> None:
    """`mapgen.hotspots.min_gap` = 10: every Hot Spot >= 10" from the edges, each other and the MO (the 6" layout
    breaks that), and the file says so."""
    wide = Settings({"mapgen.hotspots.min_gap": 10.0})
    m = generate_mission(1, "crossroads-blyatsk", tl=2, settings=wide)
    _check_gap118(m, 10.0)
    default = mission(1, "crossroads-blyatsk", 2)
    assert [h.point for h in m.hotspots] != [h.point for h in default.hotspots]
    assert any(min(p[0], 48 - p[0], p[1], 48 - p[1]) < 10.0 for p in (h.point for h in default.hotspots))
    assert '>= 10" from the edges' in m.toml_text
    with pytest.raises(GenerateError, match="room for only"):
        generate_mission(1, "sandbox", tl=3, settings=Settings({"mapgen.hotspots.min_gap": 16.0}))


def test_the_objective_is_at_an_anchor_with_equal_access() -> None:
    """The MO: the map's objective anchor where it has one; bench-town and sandbox: the anchor nearest the centre
    whose distances to the two zones differ by <= 2"."""
    expect = {"chernya-woods": "camp", "crossroads-blyatsk": "btr", "ishikhov": "cpo", "bench-town": "hotspot-b",
              "sandbox": "hotspot-3"}
    for table, anchor in expect.items():
        m = mission(1, table)
        assert m.objective == anchor
        bf, zones, mo, _ = _layout(m)
        da, db = gen._access(zones, mo.point)
        assert abs(da - db) <= gen.ACCESS_TOLERANCE_IN + 1e-9
    assert mission(1, "crossroads-blyatsk").zones == ("deploy-nw", "deploy-se")


# --- every table loads and passes the checker ---------------------------------------------------------------

@pytest.mark.parametrize("table", TABLES)
def test_generated_files_load_and_pass_the_checker(table: str, tmp_path: Path) -> None:
    for seed in (1, 2, 3):
        m = mission(seed, table)
        path = write_generated(m, tmp_path / f"{table}-{seed}.toml")
        status, lines = check_file(str(path))
        assert status == 0, lines
        sf = resolve_scenario(str(path))
        assert (sf.id, sf.tl, sf.turn_limit, sf.crew_names) == (m.id, m.tl, m.turn_limit, ("military", "independents"))
        assert sum(1 for loc in sf.locations if loc.kind == "hotspot") == 2 * m.tl
        assert sf.k_limit == gen.crews_k_limit() == 12  # the starter rosters' own (ZONE-8.1.PARITY)
        mo = next(loc for loc in sf.locations if loc.kind == "objective")
        assert mo.loot is not None and mo.loot.items == (gen.ITEMS[m.prompt[1]][0],)
        assert (mo.key_task is not None) is (m.mechanic is Mechanic.TASK) and mo.key_item is None
        assert bool(sf.hostiles) is (m.mechanic is Mechanic.FORCE)
        assert all(h.location == mo.id for h in sf.hostiles)


# --- the verbs in the engine -----------------------------------------------------------------------------------

def _deployed(m: gen.GeneratedMission, tmp_path: Path):
    from game.ai.random_agent import RandomAgent
    from game.core.rules.setup import new_game
    from game.core.state import Phase

    sf = resolve_scenario(str(write_generated(m, tmp_path / "m.toml")))
    scen, bf = sf.build(demo_crews())
    st, _ = new_game(scen, 1, settings=dict(sf.settings), battlefield=bf)
    agents = {s.id: RandomAgent(10 + i) for i, s in enumerate(st.sides) if s.id not in st.forces}
    while st.phase is Phase.DEPLOY:
        apply(st, agents[st.deciding].choose(st))
    return st


def _at_the_cpo(st):
    cpo = st.locations["cpo"]
    m = next(x for x in st.models.values() if x.side not in st.forces)
    m.x, m.y = 21.0, 28.5 + m.radius + 0.01  # in base contact with the CPO's south wall
    activate(st, m.unit)
    return cpo, m


def test_repair_a_task_every_crew_completes_before_the_search(tmp_path: Path) -> None:
    """Repair (ishikhov seed 6, TL2): [objective.task] Difficulty 2, 2 actions (CORE-3.4); the Search is refused to
    every crew (whatever it carries) until it is done, whatever `scen.g3_keycard` says, then open."""
    m = mission(6, "ishikhov")
    assert (m.verb, m.tl) == ("Repair", 2)
    st = _deployed(m, tmp_path)
    cpo, model = _at_the_cpo(st)
    cpo.triggered = True
    task = st.tasks["cpo-key"]
    assert (task.difficulty, task.actions, task.name) == (2, 2, "the repair (Mutant)")
    model.items.append("keycard")
    with pytest.raises(IllegalAction, match="closed until a model completes") as err:
        validate(st, Search(model.unit, "cpo"))
    assert err.value.rule == "CORE-3.4"
    apply(st, ComplexTask(model.unit, "cpo-key"), ScriptedDice([1]))  # the free Skill Check passes; 1 of 2
    ev = apply(st, ComplexTask(model.unit, "cpo-key"), ScriptedDice([]))
    assert "task_complete" in [e.type for e in ev]
    validate(st, Search(model.unit, "cpo"))


def test_a_task_without_an_item_ignores_the_keycard_setting(tmp_path: Path) -> None:
    st_file = write_generated(mission(6, "ishikhov"), tmp_path / "m.toml")
    text = st_file.read_text() + '\n[settings]\n"scen.g3_keycard" = "ignore"\n'
    sf = parse_scenario(text.encode(), "m.toml", base=tmp_path)
    from game.core.rules.setup import new_game

    scen, bf = sf.build(demo_crews())
    st, _ = new_game(scen, 1, settings=dict(sf.settings), battlefield=bf)
    assert "cpo-key" in st.tasks


def test_objective_task_beside_a_key_is_refused(tmp_path: Path) -> None:
    text = write_generated(mission(6, "ishikhov"), tmp_path / "m.toml").read_text()
    text += '\n[objective.key]\nitem = "medkit"\ntask = { difficulty = 1, actions = 1 }\n'
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text.encode(), "m.toml", base=tmp_path)
    assert any(p.field == "objective.task" and "beside [objective.key]" in str(p) for p in err.value.problems)


def test_eliminate_the_search_completes_only_once_the_objectives_force_is_out(tmp_path: Path) -> None:
    """Eliminate (ishikhov seed 8, TL2: 6 zombies at the CPO, HOSTILE-8.3.ALT-DEPLOY): the MO is triggered from the
    start; the Search is refused while one of the force stands (MISSION-8.2.CLEARING), allowed once all are out."""
    m = mission(8, "ishikhov")
    assert m.verb == "Eliminate" and m.force == ("zombies", 6)
    st = _deployed(m, tmp_path)
    cpo, model = _at_the_cpo(st)
    assert cpo.triggered
    force = [x for x in st.models.values() if x.side in st.forces]
    assert len(force) == 6 and all(x.profile.name.lower().startswith("zombie") for x in force)
    for x in force:  # out of the way, still in play
        x.x, x.y = 40.0, 24.0 + force.index(x) * 1.5
    with pytest.raises(IllegalAction):
        validate(st, Search(model.unit, "cpo"))
    for x in force:
        x.ooa = True
    validate(st, Search(model.unit, "cpo"))


# --- a whole game, as a user plays it -------------------------------------------------------------------------

def test_simulate_generate_plays_checked_games_whose_record_replays(tmp_path: Path, monkeypatch, capsys) -> None:
    """`simulate --generate --seed 3 --table chernya-woods --games 1 --check --records DIR`: the file is written to
    generated/, the game ends by TURN-9/TURN-10 with no violation, and `replay` accepts its record."""
    monkeypatch.chdir(tmp_path)
    status = cli.main(["simulate", "--generate", "--seed", "3", "--table", "chernya-woods", "--games", "1",
                       "--check", "--records", "recs"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert (tmp_path / "generated" / "chernya-woods-3.toml").read_text() == mission(3, "chernya-woods").toml_text
    assert "crashed 0" in out and re.search(r"0 violation\(s\)", out)
    assert re.search(r"end reasons: .*\((TURN-9|TURN-10)\) 1(/1)? \(100\.0%", out)
    record = json.loads((tmp_path / "recs" / "game-00001.json").read_text())
    assert "chernya-woods-3.toml" in json.dumps(record)
    assert cli.main(["replay", "recs/game-00001.json"]) == 0
    capsys.readouterr()


def test_demo_generate_plays_the_mission(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["demo", "--generate", "--seed", "2", "--table", "sandbox", "--tl", "1",
                     "--out", "m.toml"]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "m.toml").read_text() == mission(2, "sandbox", 1).toml_text
    assert "Mission Objective hotspot-3" in out


def test_generate_mission_prints_the_card_and_writes_the_file(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["generate-mission", "--seed", "6", "--table", "ishikhov"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(mission(6, "ishikhov").card[0]) and "written: generated/ishikhov-6.toml" in out
    assert (tmp_path / "generated" / "ishikhov-6.toml").read_text() == mission(6, "ishikhov").toml_text


# --- bad input ---------------------------------------------------------------------------------------------------

def _no_anchor_maps(tmp_path: Path) -> Path:
    folder = tmp_path / "maps"
    folder.mkdir()
    text = (ROOT / "maps" / "sandbox.tmx").read_text(encoding="utf-8")
    bare = re.sub(r'<objectgroup id="4" name="anchors">.*?</objectgroup>', "", text, flags=re.S)
    assert bare != text
    (folder / "bare.tmx").write_text(bare, encoding="utf-8")
    (folder / "sandbox.tmx").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize(("argv", "argument", "says"), [
    (["generate-mission", "--seed", "1", "--table", "nowhere"], "--table", "is not a shipped table; allowed: "
                                                                           "bench-town, chernya-woods"),
    (["generate-mission", "--seed", "1", "--table", "ishikhov", "--tl", "4"], "--tl", "allowed: 1, 2 or 3"),
    (["generate-mission", "--seed", "1", "--table", "ishikhov", "--tl", "0"], "--tl", "allowed: 1, 2 or 3"),
    (["generate-mission", "--seed", "1", "--table", "ishikhov", "--out", "no-such-folder/m.toml"], "--out",
     "does not exist"),
    (["generate-mission", "--seed", "1", "--table", "ishikhov", "--out", "."], "--out", "is not a file name"),
    (["simulate", "ishikhov", "--generate", "--seed", "1", "--table", "ishikhov", "--games", "1"], "--generate",
     "drop the scenario 'ishikhov'"),
    (["simulate", "ishikhov", "--table", "ishikhov", "--games", "1"], "--table", "only means something with "
                                                                                 "--generate"),
    (["simulate", "ishikhov", "--tl", "2", "--games", "1"], "--tl", "only means something with --generate"),
    (["simulate", "--generate", "--seed", "1", "--games", "1"], "--table", "which table?"),
    (["demo", "--generate", "--seed", "1", "--table", "ishikhov", "--scenario", "ishikhov"], "--generate",
     "drop the scenario"),
    (["demo", "--table", "ishikhov"], "--table", "only means something with --generate"),
    (["demo", "--generate", "--table", "ishikhov", "--map", "maps/ishikhov.tmx"], "--generate", "drop --map"),
    (["demo", "--generate", "--table", "ishikhov", "--tl", "5"], "--tl", "allowed: 1, 2 or 3"),
])
def test_bad_input_is_one_line_exit_2(argv, argument, says, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"zona-alfa {argv[0]}: {argument}: ") and says in lines[0], lines[0]
    assert not (tmp_path / "generated").exists() or argv[0] == "simulate" and "--generate" not in argv


def test_a_table_without_anchors_is_refused_naming_those_that_qualify(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(gen, "MAP_DIR", _no_anchor_maps(tmp_path))
    assert tables_with_anchors() == ("sandbox",)
    with pytest.raises(GenerateError, match="bare has no anchors .*allowed: sandbox$"):
        generate_mission(1, "bare")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["generate-mission", "--seed", "1", "--table", "bare"]) == 2
    assert capsys.readouterr().err.startswith("zona-alfa generate-mission: --table: bare has no anchors")


@pytest.mark.setting("mapgen.hotspots.min_gap")
def test_the_map_demos_placement_refuses_a_min_gap_it_does_not_play() -> None:
    """game.core.rules.hotspots (map demos, `hotspots = "generate"`) keeps 6": another gap is refused, not ignored."""
    from game.core.rules.hotspots import demo_locations

    bf = gen.load_table("sandbox")
    assert len(demo_locations(bf, 1, settings=Settings({"mapgen.hotspots.min_gap": 6.0}))) == 2
    with pytest.raises(ValueError, match="min_gap is 8; .* 6\" apart only"):
        demo_locations(bf, 1, settings=Settings({"mapgen.hotspots.min_gap": 8.0}))


def test_an_edited_generated_file_is_never_overwritten(tmp_path: Path, monkeypatch, capsys) -> None:
    """The same command twice rewrites nothing new; once the designer edits the file, --generate refuses to write
    over it (exit 2, one line) and the edit stays."""
    monkeypatch.chdir(tmp_path)
    argv = ["generate-mission", "--seed", "2", "--table", "sandbox"]
    assert cli.main(argv) == 0 and cli.main(argv) == 0
    path = tmp_path / "generated" / "sandbox-2.toml"
    path.write_text(path.read_text() + "# my edit\n")
    capsys.readouterr()
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "exists and is not this mission" in err[0]
    assert path.read_text().endswith("# my edit\n")
