"""Roster files and the starting-crew checks (ROSTER-12, CREW-7.1.*, FACTION-7.2.PERKS, GAP-40..GAP-42, GAP-47,
TV-05, TV-07): every shipped starter crew loads and passes; every file of the bad corpus is refused with its field
and the rule it breaks; the format round-trips; a roster sets up a game."""
from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from game.core.catalog import load_catalog
from game.core.rules.crews import check_crew, khrabrost
from game.core.rules.factions import FACTIONS, starting_gear
from game.core.rules.setup import Scenario, _open_table_demo, new_game
from game.core.settings import Settings
from game.crews import CrewFileError, crew_from_doc, known_crews, load_crew, roster_toml, validate_doc
from tests.paths import REPO_ROOT

BAD = REPO_ROOT / "tests" / "fixtures" / "crews" / "bad"
CAT = load_catalog()
S = Settings.defaults()


def test_one_12k_and_one_14k_crew_per_faction() -> None:
    """FACTION-7.2.LIST: six factions, each a 12K starter crew and a 14K variant (GAP-101)."""
    assert known_crews() == sorted([*FACTIONS, *(f"{f}-14k" for f in FACTIONS)])


@pytest.mark.parametrize("name", known_crews())
def test_every_shipped_crew_passes_the_checks(name: str) -> None:
    """CREW-7.1.*: legal at its K, exactly one Leader with the Leader kit, the faction gear in Spare Equipment."""
    c = load_crew(name)
    k = 14 if name.endswith("-14k") else 12
    assert c.doc["crew"]["k_limit"] == k and khrabrost(c.doc, CAT) == k
    assert check_crew(c.doc, CAT, S, k_limit=k) == []
    assert check_crew(c.spec, CAT, S, k_limit=k) == []  # the CrewSpec judged the same way
    faction = c.doc["crew"]["faction"]
    assert c.spec.faction == faction and Counter(c.doc["crew"]["spare_equipment"]) == Counter(starting_gear(faction))
    (leader,) = [m for m in c.doc["models"] if m["level"] == "leader"]
    assert "leader" in leader["skills"] and len(leader["skills"]) == 2 and len(leader["equipment"]) == 3
    assert sum(leader["grenades"].values()) == 2 and leader["armour"] == "military" and leader["wounds"] == 2
    assert all(m.id.startswith(f"{c.spec.side}-") for m in c.spec.models)
    assert c.spec.side == name and len(c.sha256) == 64


def test_the_12k_crews_are_refused_at_a_lower_limit_and_14k_at_12() -> None:
    """CREW-7.1.K-LIMITS / ZONE-8.1.PARITY: the caller's limit (a scenario's) overrides the roster's own."""
    with pytest.raises(CrewFileError, match="CREW-7.1.K-LIMITS"):
        load_crew("military-14k", k_limit=12)
    load_crew("military", k_limit=14)  # built under the limit is fine


def test_names_are_distinct() -> None:
    """Characterful, distinct names: no two models or crews share one."""
    docs = [load_crew(n).doc for n in known_crews() if not n.endswith("-14k")]
    names = [m["name"] for d in docs for m in d["models"]] + [d["crew"]["name"] for d in docs]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("name", known_crews())
def test_the_format_round_trips(name: str) -> None:
    """ROSTER-12: writing the parsed document and reading it back gives the same document."""
    c = load_crew(name)
    again, problems = validate_doc(tomllib.loads(roster_toml(c.doc)))
    assert problems == [] and again == c.doc


def test_every_roster_field_is_held() -> None:
    """ROSTER-12.CREW and ROSTER-12.MODEL: the document carries every field so campaigns need no migration."""
    d = load_crew("bandits").doc
    assert set(d["crew"]) >= {"name", "faction", "advances", "retirement_fund", "salvage", "zone_script",
                              "spare_equipment", "artifacts", "notes"}
    assert set(d["models"][0]) >= {"name", "level", "experience", "wounds", "wounds_current", "move", "ca",
                                   "armour", "will", "skills", "slots", "equipment", "weapons", "grenades",
                                   "missions", "scars", "advanced", "status"}


def test_crew_from_doc_rebuilds_the_spec_a_record_embeds() -> None:
    c = load_crew("scientists", side="blue", zone="north")
    assert c.spec.side == "blue" and c.spec.zone == "north" and c.spec.models[0].id == "blue-ostrova"
    assert crew_from_doc(c.doc, side="blue", zone="north", where="record") == c.spec


def test_dead_and_retired_models_stay_home() -> None:
    """ROSTER-12.MODEL status: only active models take the field (and count K)."""
    doc = load_crew("military").doc
    doc["models"][5]["status"] = "dead"
    spec = crew_from_doc(doc, side="m", zone="", where="test")
    assert len(spec.models) == 5 and khrabrost(doc, CAT) == 11


def test_unknown_names_list_the_known_crews() -> None:
    with pytest.raises(CrewFileError) as ei:
        load_crew("stalkers")
    assert "unknown crew 'stalkers'" in str(ei.value) and "military-14k" in str(ei.value)
    with pytest.raises(CrewFileError, match="no such roster file"):
        load_crew("nowhere/crew.toml")


def _expect(path: Path) -> tuple[str, str]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name}: first line must say what it expects"
    field, rule = first.removeprefix("# expect: ").split()
    return field, rule


@pytest.mark.parametrize("path", sorted(BAD.glob("*.toml")), ids=lambda p: p.stem)
def test_the_bad_corpus_is_refused_with_field_and_rule(path: Path) -> None:
    """Bad input: each broken roster is refused naming the file, the field and the rule it breaks."""
    field, rule = _expect(path)
    with pytest.raises(CrewFileError) as ei:
        load_crew(path)
    err = ei.value
    assert any(p.field == field and p.rule == rule for p in err.problems), err.problems
    assert str(path) in str(err) and "allowed:" in str(err)


def test_the_corpus_covers_the_issue_list() -> None:
    names = {p.stem for p in BAD.glob("*.toml")}
    assert {"over-k", "rpg-at-creation", "two-leaders", "unknown-weapon", "skill-count", "wrong-type",
            "bad-version"} <= names and len(names) >= 25


def test_every_problem_is_collected() -> None:
    """CrewFileError collects every problem, not the first."""
    doc = load_crew("military").doc
    doc["models"][4]["weapons"] = ["rpg", "knife"]
    doc["models"][2]["skills"] = ["hard", "hustle"]
    doc["crew"]["spare_equipment"] = []
    with pytest.raises(CrewFileError) as ei:
        crew_from_doc(doc, side="m", zone="", where="x.toml")
    rules = {p.rule for p in ei.value.problems}
    assert {"CREW-7.1.WEAPON-CHOICE", "SKILL-6.1.GENERAL", "GAP-47"} <= rules


def test_tv05_and_tv07_k_arithmetic() -> None:
    """TV-05: Leader + 3 Hardened = 9K, legal at 9; one Rookie more is 10K, refused. TV-07: 9 Rookies after the
    Leader make 12K."""
    doc = load_crew("independents").doc
    doc["models"] = [m for m in doc["models"] if m["level"] != "rookie"][:4]  # the Leader and 3 Hardened
    assert khrabrost(doc, CAT) == 9 and not [p for p in check_crew(doc, CAT, S, k_limit=9)
                                            if p.rule == "CREW-7.1.K-LIMITS"]
    rookie = next(m for m in load_crew("independents").doc["models"] if m["level"] == "rookie")
    doc["models"].append(rookie)
    assert khrabrost(doc, CAT) == 10 and [p for p in check_crew(doc, CAT, S, k_limit=9)
                                         if p.rule == "CREW-7.1.K-LIMITS"]
    doc["models"] = doc["models"][:1] + [dict(rookie, id=f"r{i}") for i in range(9)]
    assert khrabrost(doc, CAT) == 12 and check_crew(doc, CAT, S, k_limit=12) == []


@pytest.mark.setting("k.leftover_rate", "k.leftover_max_per_stat")
def test_leftover_k_raises_gap41() -> None:
    """CREW-7.1.LEFTOVER / GAP-41: TV-07's 1 Hardened + 1 Rookie leaves 6K: up to 6 points, +1 per stat per model;
    the raise reaches the table (build_profile)."""
    doc = load_crew("military").doc
    doc["models"] = [doc["models"][0], doc["models"][2], doc["models"][4]]  # Leader, Hardened, Rookie: 6K
    doc["models"][1]["leftover"] = {"ca": 1, "will": 1, "move": 1}
    doc["models"][2]["leftover"] = {"ca": 1, "will": 1, "move": 1}
    assert check_crew(doc, CAT, S, k_limit=12) == []
    spec = crew_from_doc(doc, side="m", zone="", where="t")
    assert dict(spec.models[1].raises) == {"ca": 1, "move": 1, "will": 1}
    doc["models"][0]["leftover"] = {"ca": 1}
    assert [p.rule for p in check_crew(doc, CAT, S, k_limit=12)] == ["GAP-41"]  # 7 points, 6K left
    assert check_crew(doc, CAT, Settings({"k.leftover_rate": 2}), k_limit=12) == []
    doc["models"][0]["leftover"] = {"ca": 2}
    assert any(p.field == "models[0].leftover.ca" for p in check_crew(doc, CAT, Settings({"k.leftover_rate": 2}),
                                                                      k_limit=12))
    assert not [p for p in check_crew(doc, CAT, Settings({"k.leftover_rate": 2, "k.leftover_max_per_stat": 2}),
                                      k_limit=12) if p.field == "models[0].leftover.ca"]


def test_start_weapons_any_allows_the_rpg() -> None:
    """GAP-42 `crew.start_weapons`=any: the RPG becomes a starting weapon, the check follows the catalog."""
    doc = load_crew("military").doc
    doc["models"][4]["weapons"] = ["rpg", "knife"]
    s = Settings({"crew.start_weapons": "any"})
    assert check_crew(doc, load_catalog(s), s, k_limit=12) == []


@pytest.mark.setting("skills.max")
def test_skills_max_null_lifts_the_cap_but_not_the_creation_count() -> None:
    """GAP-40 `skills.max`=null: no absolute cap; a new Leader still has Leader + one other (SKILL-6.1.GENERAL)."""
    doc = load_crew("military").doc
    doc["models"][0]["skills"] = ["leader", "hustle", "hard"]
    rules = {p.rule for p in check_crew(doc, CAT, Settings({"skills.max": None}), k_limit=12)}
    assert rules == {"SKILL-6.1.GENERAL"}
    assert "GAP-40" in {p.rule for p in check_crew(doc, CAT, S, k_limit=12)}


def test_a_loaded_crew_sets_up_a_game() -> None:
    """The roster's models reach the table with their profiles and the faction on the side (FACTION-7.2.LIST)."""
    base = _open_table_demo()
    a = load_crew("military", zone=base.zones[0].name).spec
    b = load_crew("bandits", zone=base.zones[1].name).spec
    st, events = new_game(replace(base, crews=(a, b), tasks=()), seed=7)
    assert st.side("military").faction == "military" and st.side("bandits").faction == "bandits"
    assert st.models["military-balanov"].profile.leader and st.models["military-balanov"].profile.wounds == 2
    setup = events[0]
    assert [c["faction"] for c in setup.data["crews"]] == ["military", "bandits"]
    assert sum(m["actions"] for m in setup.data["crews"][0]["models"]) == 12


def test_a_14k_crew_is_over_a_12k_scenario_limit() -> None:
    base = _open_table_demo()
    a = load_crew("military-14k", zone=base.zones[0].name).spec
    b = load_crew("bandits", zone=base.zones[1].name).spec
    with pytest.raises(ValueError, match="ZONE-8.1.PARITY"):
        new_game(Scenario("t", "t", base.table, base.zones, (a, b)), seed=1)


def test_the_document_is_plain_json_for_records() -> None:
    """Records embed `.doc` (issue 15 item 6): plain JSON, rebuilt to the same CrewSpec; an edited copy is checked
    again and refused when it breaks a rule."""
    import json

    c = load_crew("cultists")
    doc = json.loads(json.dumps(c.doc))
    assert crew_from_doc(doc, side="cultists", zone="", where="record") == c.spec
    doc["models"][1]["weapons"] = ["hmg", "knife"]
    with pytest.raises(CrewFileError, match=r"record: models\[1\]\.weapons\[0\].*CREW-7.1.WEAPON-CHOICE"):
        crew_from_doc(doc, side="cultists", zone="", where="record")
