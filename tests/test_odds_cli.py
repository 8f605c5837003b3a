"""`zona-alfa odds` prices every weapon and armour as the engine does (ARMORY-5.3.TABLE, GAP-14, ARMORY-5.3.NERVES,
ARMORY-5.1.SBT-LBT, ARMORY-5.1.FLAME, SKILL-6.1.UNLOAD) and refuses nonsense with the argument and the rule."""
from __future__ import annotations

import json
import os
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from game.cli import main as cli_main
from game.core.actions import FlameAttack, RangedAttack, TemplateAttack, ThrowGrenade
from game.core.catalog import Template, load_catalog
from game.core.odds.actions import attack_odds
from game.core.odds.pools import pool_dist
from game.core.settings import Settings
from game.odds_cli import FIELDS, FLAGS, SpecError, build_attack, check_spec, odds_from_spec
from tests.enginekit import activate, game, profile

CAT = load_catalog(Settings.defaults())
ARMOURS = sorted(CAT.armours)
# every firing profile of every catalog weapon, then every grenade (ARMORY-5.1)
SHOTS = [(w.id, p.name if len(w.profiles) > 1 else None) for w in CAT.weapons.values() for p in w.profiles]
SHOTS += [(g, None) for g in CAT.grenades]


def pq(x: Any) -> Any:
    return f"{x.numerator}/{x.denominator}" if isinstance(x, F) else x


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`zona-alfa odds ARGV` in process; argparse's own refusals come back as exit 2 like ours."""
    try:
        rc = cli_main(["odds", *argv])
    except SystemExit as exc:
        rc = int(exc.code or 0)
    out, err = capsys.readouterr()
    return rc, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    rc, out, err = run(capsys, *argv, "--json")
    assert rc == 0, err
    return json.loads(out)


def dist(d: Any) -> dict[str, Any]:
    return {str(k): pq(v) for k, v in d.fractions().items()}


def round_json(r: Any) -> dict[str, Any]:
    return {"hits": dist(r.hits), "deflections": dist(r.deflections), "wounds": dist(r.wounds),
            "pins_gained": dist(r.pins), "models_lost": dist(r.models_lost), "will_check": dist(r.will),
            "will_crit": dist(r.will_crit), "save_crit": dist(r.save_crit), "ooa": dist(r.ooa)}


# --- Advanced armour: two save dice kept best (the Done-when) -------------------------------------------


def test_advanced_armour_rolls_two_save_dice_kept_best(capsys):
    """ARMORY-5.3.TABLE, COMBAT-4.1.SAVE, GAP-14: Advanced (7) vs the AK (Damage 1): save TN 6 on the better of two
    dice, P(one hit saved) = 1 - (1 - 6/10)^2 = 0.84 (TV-29) = pool_dist(1, 6, group=2); over 3 dice at TN 5,
    P(>= 1 Wound) = sum_h Bin(3, 1/2)(h) (1 - 0.84^h) = 3458/15625 (one die would give 61/125)."""
    data = run_json(capsys, "--armour-type", "advanced", "--armour-value", "7", "--weapon", "assault_rifle")
    n = data["numbers"]
    assert (n["save"]["tn"], n["save_dice"], n["dice"], n["hit"]["tn"]) == (6, 2, 3, 5)
    d = pool_dist(1, 6, group=2)
    assert F(n["p_save_one_hit"]) == F(d.by_succ[1], d.denom) == 1 - (1 - F(6, 10)) ** 2 == F("0.84")
    by_hand = sum(F(c, 8) * (1 - F("0.84") ** h) for h, c in enumerate((1, 3, 3, 1)))
    assert F(data["summary"]["p_wound"]) == by_hand == F(3458, 15625)
    assert data["target"] == data["target"] | {"armour_type": "advanced", "armour_value": 7, "save_dice": 2}
    rc, out, _ = run(capsys, "--armour-type", "advanced", "--armour-value", "7", "--weapon", "assault_rifle")
    assert rc == 0 and "2 dice per hit, the better kept (ARMORY-5.3.TABLE, GAP-14)" in out
    assert "save TN 6 = Armor (advanced) 7, Damage -1 (VITALS-2.2.DAMAGE)" in out
    assert "P 0.84 = 1 - (1 - 6/10)^2" in out and "= 3458/15625" in out


def test_armour_type_sets_the_rating_unless_a_value_is_given(capsys):
    """ARMORY-5.3.TABLE: Military is Armor 6 (AK save TN 5); --armour-value 4 overrides it (TN 3); the old
    --armour/--armor names still work and are hidden from --help."""
    assert run_json(capsys, "--armour-type", "military")["numbers"]["save"]["tn"] == 5
    assert run_json(capsys, "--armour-type", "military", "--armour-value", "4")["numbers"]["save"]["tn"] == 3
    old = run_json(capsys, "--armour", "military", "--armor", "4")
    assert old["numbers"]["save"]["tn"] == 3 and old["target"]["armour_type"] == "military"
    rc, out, _ = run(capsys, "--help")
    assert rc == 0 and "--armour-type" in out and "--armour-value" in out
    assert "--armour " not in out and "--armor " not in out and "--armour\n" not in out


def test_exo_takes_no_deflection_will_check(capsys):
    """ARMORY-5.3.NERVES: an Exo wearer deflects on two dice (GAP-14) and never takes the Will check: no Pin
    from deflections, only 'none'/'exempt' outcomes."""
    data = run_json(capsys, "--armour-type", "exo", "--will", "4")
    assert data["numbers"]["will"] is None and "ARMORY-5.3.NERVES" in data["numbers"]["will_tn"]
    assert data["numbers"]["save_dice"] == 2 and data["target"]["will_exempt"] is True
    assert set(data["distributions"]["will_check"]) <= {"none", "exempt"}
    assert data["summary"]["p_pinned_by_will"] == "0/1"


@pytest.mark.parametrize("weapon", sorted(w.id for w in CAT.weapons.values() if not w.melee_only))
def test_unload_only_for_the_weapons_skill_6_1_unload_allows(capsys, weapon):
    """SKILL-6.1.UNLOAD: FP >= 2 and no Reload, Limited Ammo or template (the catalog's unload_eligible): those
    roll FP + FP + 2 dice; the sniper rifle, the RPG and the rest are refused with the rule."""
    extra = ("--range", "5") if weapon == "flame_thrower" else ()
    rc, out, err = run(capsys, "--weapon", weapon, "--unload", "--json", *extra)
    if CAT.weapon(weapon).unload_eligible:
        assert rc == 0, err
        assert json.loads(out)["numbers"]["dice"] == 2 * (CAT.weapon(weapon).profile.fp or 0) + 2
    else:
        assert rc == 2 and "--unload" in err and "SKILL-6.1.UNLOAD" in err and "Traceback" not in err


def test_flame_thrower_is_priced_as_its_template(capsys):
    """ARMORY-5.1.FLAME, ARMORY-5.1.BURN, TV-33: no roll; Damage 3 vs Civilian (5): save TN 2, P(OOA) 0.8 (it was
    '0 dice, never wounds')."""
    data = run_json(capsys, "--weapon", "flame_thrower", "--range", "4")
    assert data["numbers"]["dice"] == 0 and data["numbers"]["hit"] is None
    assert data["numbers"]["save"]["tn"] == 2 and data["summary"]["p_ooa"] == "4/5"
    assert data["effects"]["affected"] == "1/1"


def test_template_table_gives_the_described_cover(capsys):
    """GEO-12..GEO-14, GAP-70: the tiny table laid out for a template attack gives the throw the cover,
    obstruction and elevation modifiers the flags describe: the GL's throw TN equals the AK's hit TN."""
    for cover in ("none", "soft", "hard", "hardened"):
        for obstructions in ("0", "2"):
            for elevated in ((), ("--elevated",)):
                args = ("--cover", cover, "--obstructions", obstructions, *elevated)
                gl = run_json(capsys, "--weapon", "grenade_launcher", *args)
                ak = run_json(capsys, "--weapon", "assault_rifle", *args)
                assert gl["numbers"]["hit"] == ak["numbers"]["hit"], args


# --- every weapon and every armour of the catalog against the odds API -------------------------------------------


def _engine_state(weapon: str, armour: str, distance: float) -> Any:
    arm = CAT.armour(armour)
    grenades = {"a1": {weapon: 2}} if weapon in CAT.grenades else None
    weapons = () if weapon in CAT.grenades else (weapon,)
    target = profile(armor=arm.armor, armour=arm.id, obscured=arm.obscured.value, save_dice=arm.save_dice,
                     will_exempt=arm.will_exempt)
    st = game([("a1", "a", profile(ca=5, weapons=weapons), (10.0, 12.0)),
               ("b1", "b", target, (10.0 + 0.5 + distance + 0.5, 12.0))], grenades=grenades)
    activate(st, "a1")
    return st


def _template_of(weapon: str, prof: str | None) -> Template | None:
    if weapon in CAT.grenades:
        return CAT.grenade(weapon).template
    w = CAT.weapon(weapon)
    return (w.profile_named(prof) if prof else w.profile).template


@pytest.mark.parametrize("armour", ARMOURS)
@pytest.mark.parametrize(("weapon", "prof"), SHOTS, ids=[f"{w}-{p}" if p else w for w, p in SHOTS])
def test_odds_json_equals_the_odds_api_for_every_weapon_and_armour(capsys, weapon, prof, armour):
    """COMBAT-4.1.*, ARMORY-5.3.TABLE, GAP-70, ARMORY-5.1.FLAME: `odds --json` for each catalog weapon (each RPG
    warhead) and grenade against each catalog armour equals game.core.odds on a game built from the same catalog
    profiles: ranged_round through attack_odds for direct fire, template_odds for templates (the target's
    effects, its round given each effect, and the summary). Melee-only weapons are refused (ARMORY-5.1.MELEE-USE)."""
    argv = ["--weapon", weapon, "--armour-type", armour] + (["--profile", prof] if prof else [])
    if weapon in CAT.weapons and CAT.weapon(weapon).melee_only:
        rc, _, err = run(capsys, *argv)
        assert rc == 2 and "ARMORY-5.1.MELEE-USE" in err and "--weapon" in err
        return
    template = _template_of(weapon, prof)
    distance = 4.0 if template is Template.FLAME else 10.0
    data = run_json(capsys, *argv, "--range", str(distance))
    st = _engine_state(weapon, armour, distance)
    if template is None:
        o = attack_odds(st, RangedAttack("a1", "b1", weapon, prof))
        assert data["summary"] == {k: pq(v) for k, v in o.summary().items()}
        assert data["distributions"] == round_json(o.target_round) | {"attacker_crit": dist(o.attacker_crit)}
        n = o.numbers
        assert (data["numbers"]["dice"], data["numbers"]["hit"]["tn"], data["numbers"]["save"]["tn"],
                data["numbers"]["save_dice"]) == (n.dice, n.hit.value, n.save.value, n.save_dice)
        assert data["numbers"]["will"] == (None if n.will is None else {"tn": n.will.value,
                                                                        "breakdown": n.will.breakdown()})
        return
    b1 = st.models["b1"]
    if template is Template.FLAME:
        action: Any = FlameAttack("a1", weapon, 0.0)
    elif weapon in CAT.grenades:
        action = ThrowGrenade("a1", weapon, b1.x, b1.y)
    else:
        action = TemplateAttack("a1", weapon, b1.x, b1.y, prof)
    o = attack_odds(st, action)
    mt = o.models["b1"]
    assert data["numbers"]["hit"] == (None if o.tn is None else {"tn": o.tn.value, "breakdown": o.tn.breakdown()})
    assert data["effects"] == {k: pq(v) for k, v in mt.effects.items()}
    assert data["cases"] == [{"effect": c.effect, "will_cover": c.will_cover, "leaders": list(c.leaders),
                              "leader_sees": c.leader_sees, "p": pq(p), "round": round_json(mt.rounds[c])}
                             for c, p in mt.cases.items()]
    assert data["attacker_crit"] == dist(o.attacker_crit)
    want = {"p_hit": o.p_hit, "p_touched": mt.p_touched, "p_affected": mt.effects["affected"] +
            mt.effects["soft_cover"], "expected_wounds": mt.expected_wounds, "p_wound": mt.p_wound,
            "p_ooa": mt.p_ooa, "p_pinned_by_will": mt.p_pinned_by_will, "p_any_pin": mt.p_any_pin}
    assert data["summary"] == {k: pq(v) for k, v in want.items()}
    assert data["numbers"]["save_dice"] == CAT.armour(armour).save_dice


UNIT_CASES = {  # the command's flags, and the same target on a game table
    "leader": (("--leader-bonus",), {"leader": True}),
    "unit of 3, pinned": (("--models", "3", "--pinned"), {"models": 3, "pinned": True}),
    "AI kit, wounded": (("--ai", "--target-items", "medkit", "--wounds", "2", "--wounds-taken", "1"),
                        {"ai": True, "items": ["medkit"], "wounds": 2, "taken": 1}),
    "hard, pinned, Will NA": (("--target-skills", "hard", "--pinned", "--will", "NA"),
                              {"skills": ("hard",), "pinned": True, "will": None}),
}


@pytest.mark.parametrize("weapon", ["assault_rifle", "hand_grenade", "flame_thrower"])
@pytest.mark.parametrize("case", sorted(UNIT_CASES))
def test_units_leaders_kits_and_pins_equal_the_engine(capsys, weapon, case):
    """SKILL-6.1.LEADER (a Leader in sight: +1 Will), GAP-77 (a unit of 3: casualties nearest first), AI-D.11 (an
    A.I. side's Med-Kit), GAP-91 (a wounded 2-Wound model), SKILL-6.1.HARD, COMBAT-4.3.KICK-RANGED, GAP-22: the
    command's numbers equal game.core.odds on a game holding those models."""
    extra, want = UNIT_CASES[case]
    distance = 4.0 if weapon == "flame_thrower" else 10.0
    data = run_json(capsys, "--weapon", weapon, "--range", str(distance), *extra)
    tx = 10.0 + 0.5 + distance + 0.5
    target = profile(wounds=want.get("wounds", 1), will=want.get("will", 5), skills=want.get("skills", ()))
    models = [("a1", "a", profile(ca=5, weapons=() if weapon == "hand_grenade" else (weapon,)), (10.0, 12.0)),
              ("b1", "b", target, (tx, 12.0))]
    units = None
    if want.get("models"):
        models += [(f"b{i}", "b", target, (tx + (i - 1) * 1.05, 12.0)) for i in (2, 3)]
        units = {"pack": ["b1", "b2", "b3"]}
    if want.get("leader"):
        models.append(("lead", "b", profile(leader=True), (tx, 22.0)))
    st = game(models, items={"b1": want.get("items", [])}, units=units, grenades={"a1": {"hand_grenade": 2}})
    st.models["b1"].wounds_taken = want.get("taken", 0)
    if want.get("pinned"):
        st.units[st.models["b1"].unit].pins = 1
    if want.get("ai"):
        st.side("b").controller = "ai"
    activate(st, "a1")
    b1 = st.models["b1"]
    if weapon == "assault_rifle":
        o = attack_odds(st, RangedAttack("a1", "b1", weapon))
        assert data["summary"] == {k: pq(v) for k, v in o.summary().items()}
        assert data["distributions"] == round_json(o.target_round) | {"attacker_crit": dist(o.attacker_crit)}
        return
    action = FlameAttack("a1", weapon, 0.0) if weapon == "flame_thrower" else ThrowGrenade("a1", weapon, b1.x, b1.y)
    o = attack_odds(st, action)
    mt = o.models["b1"]
    assert data["effects"] == {k: pq(v) for k, v in mt.effects.items()}
    assert data["summary"]["p_wound"] == pq(mt.p_wound) and data["summary"]["p_any_pin"] == pq(mt.p_any_pin)
    assert [c["round"] for c in data["cases"]] == [round_json(mt.rounds[c]) for c in mt.cases]
    if want.get("models"):
        assert {k: v["p_touched"] for k, v in data["other_models"].items() if k != "attacker"} == {
            f"target{i}": pq(o.models[f"b{i}"].p_touched) for i in (2, 3) if f"b{i}" in o.models}


# --- nonsense is refused: one line, the argument, the rule, exit 2 ------------------------------------------------

HUGE = "9" * 26
CORPUS: list[tuple[tuple[str, ...], str, str]] = [
    # (arguments, what the message names, the rule or reason it cites)
    (("--range", "nan"), "--range", "GEO-4"), (("--range", "inf"), "--range", "GEO-4"),
    (("--range=-inf",), "--range", "GEO-4"), (("--range", "-3"), "--range", "GEO-4"),
    (("--range", "1e400"), "--range", "GEO-4"), (("--range", "ten"), "--range", "GEO-4"),
    (("--range", HUGE), "--range", "GEO-5"), (("--range", "0"), "--range", "GEO-5"),
    (("--range", "40"), "--range", "GEO-5"),
    (("--weapon", "knife", "--range", "8"), "--weapon", "ARMORY-5.1.MELEE-USE"),
    (("--weapon", "rpg", "--range", "2"), "--range", "GEO-5"),
    (("--weapon", "grenade_launcher", "--range", "2"), "--range", "GEO-5"),
    (("--weapon", "flame_thrower", "--range", "9"), "--range", "ARMORY-5.1.FLAME"),
    (("--weapon", "sniper_rifle", "--unload"), "--unload", "SKILL-6.1.UNLOAD"),
    (("--weapon", "rpg", "--unload"), "--unload", "SKILL-6.1.UNLOAD"),
    (("--weapon", "laser"), "--weapon", "ARMORY-5.1"), (("--weapon", "rpg", "--profile", "anti_tank"), "--profile",
                                                        "ARMORY-5.1.CATEGORIES"),
    (("--obstructions", "-3"), "--obstructions", "GEO-13"), (("--obstructions", HUGE), "--obstructions", "GEO-13"),
    (("--obstructions", "1.5"), "--obstructions", "GEO-13"), (("--obstructions", "nan"), "--obstructions", "GEO-13"),
    (("--ca", "-1"), "--ca", "VITALS-2.1.CA"), (("--ca", HUGE), "--ca", "VITALS-2.1.CA"),
    (("--ca", "inf"), "--ca", "VITALS-2.1.CA"),
    (("--wounds", "0"), "--wounds", "COMBAT-4.4.WOUNDS"), (("--wounds", HUGE), "--wounds", "COMBAT-4.4.WOUNDS"),
    (("--wounds-taken", "1"), "--wounds-taken", "GAP-92"),
    (("--wounds", "2", "--wounds-taken", "5"), "--wounds-taken", "GAP-92"),
    (("--wounds-taken", "-1"), "--wounds-taken", "COMBAT-4.3.WOUND"),
    (("--save-dice", "0"), "--save-dice", "COMBAT-4.1.SAVE"),
    (("--armour-type", "advanced", "--save-dice", "1"), "--save-dice", "ARMORY-5.3.TABLE"),
    (("--armour-type", "civilian", "--save-dice", "2"), "--save-dice", "ARMORY-5.3.TABLE"),
    (("--armour-type", "kevlar"), "--armour-type", "ARMORY-5.3.TABLE"),
    (("--armour", "kevlar"), "--armour", "ARMORY-5.3.TABLE"),
    (("--armour-value", "-1"), "--armour-value", "GAP-62"), (("--armor", HUGE), "--armor", "GAP-62"),
    (("--armour-type", "mimetic", "--obscured", "in_cover"), "--obscured", "ARMORY-5.3.OBSCURED"),
    (("--obscured", "sometimes"), "--obscured", "ARMORY-5.3.OBSCURED"),
    (("--creature",), "--creature", "ARMORY-5.3.NATURAL"),
    (("--creature", "--armour-type", "military", "--armour-value", "4"), "--armour-type", "ARMORY-5.3.NATURAL"),
    (("--attacker-items", "laser_sight"), "--attacker-items", "EQUIP-6.2"),
    (("--weapon", "sniper_rifle", "--attacker-items", "red_dot"), "--attacker-items", "EQUIP-6.2.RED-DOT"),
    (("--target-items", "jetpack"), "--target-items", "EQUIP-6.2"),
    (("--target-items", "kevlar_plates,kevlar_plates,kevlar_plates"), "--target-items", "EQUIP-6.2"),
    (("--attacker-skills", "flying"), "--attacker-skills", "SKILL-6.1"),
    (("--target-skills", "hard,hustle,knife_man"), "--target-skills", "SKILL-6.1.LIMIT"),
    (("--cover", "wall"), "--cover", "GEO-12"), (("--cover", "obstruction"), "--cover", "GEO-12"),
    (("--will", "brave"), "--will", "VITALS-2.1.WILL"), (("--will", "11"), "--will", "VITALS-2.1.WILL"),
    (("--models", "0"), "--models", "GAP-77"), (("--models", HUGE), "--models", "GAP-77"),
    (("--weapon", "hand_grenade", "--range", "1.5", "--obstructions", "10", "--cover", "hard"), "--obstructions",
     "GEO-13"),
    (("--armour", "military", "--armour-type", "exo"), "--armour", "same field"),
    (("--leader-bonus", "--target-skills", "leader"), "--leader-bonus", "SKILL-6.1.LEADER"),
]


@pytest.mark.parametrize(("argv", "names", "rule"), CORPUS, ids=[" ".join(a) for a, _, _ in CORPUS])
def test_bad_arguments_are_refused_in_one_line(capsys, argv, names, rule):
    """Nonsense is refused, not absorbed: exit 2, no traceback, one line naming the argument and the rule
    (the rule IDs of each case are in CORPUS)."""
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == "" and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("zona-alfa odds: "), err
    assert names in err and rule in err, err


def test_argparse_refusals_name_the_argument(capsys):
    """A flag without its value or an unknown flag: argparse's usage and one error line, exit 2."""
    for argv, names in ((("--range",), "--range"), (("--nosuch", "3"), "--nosuch")):
        rc, _, err = run(capsys, *argv)
        assert rc == 2 and names in err and "Traceback" not in err


def _spec_cases(tmp: Path) -> list[tuple[str, str]]:
    (tmp / "dir.json").mkdir()
    (tmp / "random.json").write_bytes(bytes((i * 97 + 13) % 256 for i in range(512)))
    (tmp / "empty.json").write_bytes(b"")
    (tmp / "list.json").write_text("[1, 2]")
    (tmp / "unknown.json").write_text(json.dumps({"armour_class": 3}))
    (tmp / "nan.json").write_text('{"range": NaN}')
    (tmp / "text.json").write_text('{"ca": "abc"}')
    (tmp / "flag.json").write_text('{"aim": "yes"}')
    (tmp / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp / "big.json").write_bytes(b" " * (2 << 20))
    (tmp / "knife.json").write_text(json.dumps({"weapon": "knife", "range": 8}))
    cases = [("missing.json", "no such file"), ("dir.json", "directory"), ("random.json", "UTF-8"),
             ("empty.json", "not JSON"), ("list.json", "JSON object"), ("unknown.json", "armour_class"),
             ("nan.json", "'range'"), ("text.json", "'ca'"), ("flag.json", "'aim'"), ("deep.json", "deep"),
             ("big.json", "larger"), ("knife.json", "ARMORY-5.1.MELEE-USE")]
    if os.geteuid() != 0:
        (tmp / "locked.json").write_text("{}")
        (tmp / "locked.json").chmod(0)
        cases.append(("locked.json", "cannot be read"))
    return cases


def test_bad_spec_files_are_refused_in_one_line(capsys, tmp_path):
    """A spec file that is missing, a directory, unreadable, random bytes, not a JSON object, too large or too
    deep, or with unknown fields or wrong values: one line naming the file (and field), exit 2."""
    for name, reason in _spec_cases(tmp_path):
        rc, out, err = run(capsys, str(tmp_path / name))
        assert rc == 2 and out == "" and "Traceback" not in err, (name, err)
        assert err.count("\n") == 1 and name in err and reason in err, (name, err)


def test_spec_file_new_and_old_names(capsys, tmp_path):
    """A JSON description takes the new names and the old ones (armour = type, armor = value); flags override it."""
    new = tmp_path / "new.json"
    new.write_text(json.dumps({"armour_type": "military", "armour_value": 4, "weapon": "battle_rifle"}))
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"armour": "military", "armor": 4, "weapon": "battle_rifle"}))
    assert run_json(capsys, str(new)) == run_json(capsys, str(old))
    assert run_json(capsys, str(new), "--armour-value", "6")["numbers"]["save"]["tn"] == 4


def test_python_api_keeps_its_names():
    """game.benchmarks.odds reads FIELDS, FLAGS, build_attack and odds_from_spec (COMBAT-4.1.RANGED)."""
    spec = {k: v[1] for k, v in FIELDS.items()} | {k: False for k in FLAGS} | {"armor": 3, "creature": True}
    nums, unit, sit, _ = build_attack(spec)
    assert (nums.dice, nums.hit.value, nums.save.value, nums.save_dice) == (3, 5, 2, 1)
    assert odds_from_spec({"armour_type": "exo"}).numbers.will is None  # type: ignore[union-attr]


def test_skills_max_null_means_no_cap():
    """GAP-40, SKILL-6.1.LIMIT: the setting `skills.max` null is no cap: five Skills are refused under the default 2
    and accepted, and priced, under null (it used to crash on int(None))."""
    spec = {"weapon": "assault_rifle", "target_skills": ["hard", "hustle", "knife_man", "leader", "scrounger"]}
    with pytest.raises(SpecError, match="more than 2 Skills"):
        check_spec(spec)
    uncapped = Settings({"skills.max": None})
    assert check_spec(spec, settings=uncapped).target_skills == ("hard", "hustle", "knife_man", "leader", "scrounger")
    assert odds_from_spec(spec, settings=uncapped).numbers.dice == 3  # type: ignore[union-attr]


# --- the text a player reads -----------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ("--armour-type", "advanced", "--weapon", "assault_rifle", "--cover", "soft", "--obstructions", "1", "--aim"),
    ("--weapon", "shotgun", "--range", "5", "--pinned", "--cover", "hard", "--armour-type", "military"),
    ("--weapon", "smg", "--unload", "--range", "4", "--attacker-items", "red_dot"),
    ("--weapon", "mortar", "--range", "20", "--cover", "soft", "--armour-type", "exo"),
    ("--weapon", "flame_thrower", "--wounds", "2", "--armour-type", "military"),
    ("--weapon", "hand_grenade", "--models", "3"),
])
def test_text_explains_every_number(capsys, argv):
    """COMBAT-4.1.MODIFIERS: the default output names the dice and where they come from, every TN with its base
    and each modifier's rule, the save dice per hit, the Will check, a note under every distribution."""
    rc, out, err = run(capsys, *argv)
    assert rc == 0, err
    text = out.replace("\n        ", " ").replace("\n      ", " ")  # unfold wrapped lines
    assert "Attack: " in text and "Target: " in text and "Summary" in text
    assert "no roll" in text or ("dice (FP" in text or "1 die: a roll <= the TN" in text)
    for line in text.splitlines():
        if " TN " in line and " = " in line:  # each modifier after the base carries its rule
            for part in line.split(" = ", 1)[1].split(", ")[1:]:
                assert part.endswith(")") and "(" in part, (line, part)
    assert "die per hit" in text or "dice per hit" in text
    assert "deflection Will check" in text
    rows = [line for line in text.splitlines() if line.startswith("  ") and ": 0" in line and "  (" not in line]
    for row in rows:
        follows = text.splitlines()[text.splitlines().index(row) + 1]
        assert follows.strip().startswith("("), row
    assert max(len(line) for line in out.splitlines()) <= 112
