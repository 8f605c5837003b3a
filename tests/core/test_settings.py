"""House settings (CFG, DOC-0.2): every [HOUSE key] of RULES.md is declared, typed, validated and documented."""
from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from game.core.settings import (
    DEFAULT_ONLY,
    LABELS,
    NOT_PLAYED,
    Settings,
    SettingsError,
    SettingSpec,
    _check_value,
    house_specs,
    parse_specs,
)
from game.tools import gen_settings_doc
from tests.paths import REPO_ROOT, RULES_MD

REPO = REPO_ROOT
RULES = RULES_MD
KEY = re.compile(r"`([a-z][a-z0-9_]*(?:\.(?:[a-z0-9_]+|\*))+)`")
SIMPLE_DEFAULT = re.compile(
    r"`([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)`\s*=\s*(\"[^\"]*\"|true|false|null|-?\d+(?:\.\d+)?)(?![\d,])"
)
# DOC-0.2 explains the notation with the example key `cfg.key`; it is not a setting.
NOTATION_EXAMPLES = {"cfg.key"}


def _rules_text() -> str:
    if not RULES.exists():
        pytest.skip(f"{RULES} is absent (CI places shared/ beside the clone)")
    return RULES.read_text(encoding="utf-8")


def _house_brackets(text: str) -> list[str]:
    """Bodies of `[HOUSE ...]` brackets (HOUSE before the first backtick) and of brackets opening with a backticked
    key."""
    bodies = []
    for start in (m.start() for m in re.finditer(r"\[", text)):
        depth, end = 0, start
        while end < len(text) and text[end] != "\n":
            depth += {"[": 1, "]": -1}.get(text[end], 0)
            if depth == 0:
                break
            end += 1
        body = text[start + 1:end]
        if "HOUSE" in body.split("`")[0] or body.startswith("`"):
            bodies.append(body)
    return bodies


def _cfg_keys(text: str) -> set[str]:
    table = text[text.index("## CFG"):]
    table = table[:table.index("\n## ", 1)]
    keys: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            keys.update(KEY.findall(line.split("|")[1]))
    return keys


def rules_house_keys(text: str) -> set[str]:
    keys = {k for body in _house_brackets(text) for k in KEY.findall(body)} | _cfg_keys(text)
    return keys - NOTATION_EXAMPLES


def _declared_as(key: str, declared: set[str]) -> bool:
    if key in declared:
        return True
    prefix = key[:-1] if key.endswith(".*") else key + "."
    return any(d.startswith(prefix) for d in declared)


# --- loading and types -------------------------------------------------------------------------

def test_defaults_load_with_rules_values() -> None:
    """DOC-0.2: the defaults are the RULES.md HOUSE defaults."""
    s = Settings.defaults()
    assert len(s) == len(house_specs()) > 250
    assert s["deviation.distance"] == "roll/2"          # GAP-71
    assert s["los.woods_depth"] == 2.0                  # GEO-10.WOODS
    assert s["crit.max_bonus_per_activation"] is None   # TURN-6: null = no cap
    assert s["melee.forbidden"] == ("hmg", "mortar", "rpg", "grenade_launcher", "flame_thrower")
    assert s["weapons.smg.range_max"] == 18.0 and s["weapons.smg.fp"] == 2 and s["weapons.smg.damage"] == 0
    assert s["advances.caps.ca"] == 9 and s["bolt.range"] == 18.0
    assert s.overrides == {}


def test_every_default_type_checks() -> None:
    for key, spec in house_specs().items():
        assert _check_value(spec, spec.default, "test") == spec.default, key
        if spec.type == "float":
            assert isinstance(spec.default, float), key
        if spec.choices and spec.type == "list":
            assert set(spec.default) <= set(spec.choices), key
        elif spec.choices:
            assert spec.type == "str" and spec.default in spec.choices, key
        assert re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z0-9_]+)+", key), f"{key}: keys are dotted lower_snake"
        assert re.fullmatch(r"[A-Z]+-[0-9A-Z.\-]+", spec.rule), f"{key}: rule {spec.rule!r} is not a RULES.md ID"


def test_simple_defaults_equal_rules_md() -> None:
    """Every `key`=value written inside a HOUSE bracket of RULES.md matches the declared default."""
    specs = house_specs()
    checked = 0
    for body in _house_brackets(_rules_text()):
        for key, raw in SIMPLE_DEFAULT.findall(body):
            if key not in specs:
                continue
            expected = {"true": True, "false": False, "null": None}.get(raw, raw)
            if raw.startswith('"'):
                expected = raw[1:-1]
            elif expected is not None and not isinstance(expected, bool):
                expected = float(raw)
            default = specs[key].default
            assert default == expected, f"{key}: declared {default!r}, RULES.md says {raw}"
            checked += 1
    assert checked > 80


# --- overrides ----------------------------------------------------------------------------------

def test_from_options_parses_json_else_string() -> None:
    s = Settings.from_options(["deviation.distance=roll*2", "weapons.smg.fp=3", "melee.forbidden=[]",
                               "crit.max_bonus_per_activation=2"])
    assert s["deviation.distance"] == "roll*2"
    assert s["weapons.smg.fp"] == 3
    assert s["melee.forbidden"] == ()
    assert s["crit.max_bonus_per_activation"] == 2
    assert s.overrides == {"crit.max_bonus_per_activation": 2, "deviation.distance": "roll*2",
                           "melee.forbidden": [], "weapons.smg.fp": 3}
    assert Settings.defaults()["deviation.distance"] == "roll/2"


@pytest.mark.parametrize("option, words", [
    ("no.such.key=1", ["--set", "'no.such.key'", "unknown setting"]),
    ("weapons.smg.fp=three", ["--set", "'weapons.smg.fp'", "type int"]),
    ("crit.enabled=1", ["--set", "'crit.enabled'", "type bool"]),
    ("deviation.distance=roll*3", ["--set", "'deviation.distance'", "not one of"]),
    ("deviation.distance", ["--set", "key=value"]),
])
def test_bad_option_names_option_key_and_reason(option: str, words: list[str]) -> None:
    with pytest.raises(SettingsError) as err:
        Settings.from_options([option])
    for word in words:
        assert word in str(err.value)


@pytest.mark.parametrize("text, words", [
    ('["a.b"\ndefault = 1', ["bad.toml", "not valid TOML"]),
    ('["a.b"]\ndefault = 1\ntype = "int"\nrule = "GAP-1"\ndoc = "x"\n', ["bad.toml", "'a.b'", "enforced_by"]),
    ('["a.b"]\ndefault = 1\ntype = "int"\nrule = "GAP-1"\nenforced_by = "x"\ndoc = "x"\ncolour = 1\n',
     ["bad.toml", "'a.b'", "unknown field", "colour"]),
    ('["a.b"]\ndefault = "1"\ntype = "int"\nrule = "GAP-1"\nenforced_by = "x"\ndoc = "x"\n',
     ["bad.toml", "'a.b'", "type int"]),
    ('["a.b"]\ndefault = "z"\ntype = "str"\nrule = "GAP-1"\nenforced_by = "x"\ndoc = "x"\nchoices = ["y"]\n',
     ["bad.toml", "'a.b'", "not one of"]),
    ('["a.b"]\ndefault = 1\ntype = "number"\nrule = "GAP-1"\nenforced_by = "x"\ndoc = "x"\n',
     ["bad.toml", "'a.b'", "type 'number'"]),
    ('["a.b"]\ndefault = 1\ntype = "int"\nrule = "GAP-1"\nenforced_by = "x"\ndoc = "x"\nleaf_of = "a.*"\n',
     ["bad.toml", "'a.b'", "leaf_of and gap_text"]),
])
def test_malformed_house_file_names_file_key_and_reason(text: str, words: list[str]) -> None:
    with pytest.raises(SettingsError) as err:
        parse_specs(text, "bad.toml")
    for word in words:
        assert word in str(err.value)


# --- enforcement ------------------------------------------------------------------------------

def _module_file(module: str) -> Path | None:
    base = REPO.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def unread_enforced(specs: Iterable[SettingSpec]) -> list[str]:
    """Keys whose enforced_by names a module that does not exist or never names the key as a string literal."""
    problems = []
    for spec in specs:
        if not spec.enforced:
            continue
        path = _module_file(spec.enforced_by)
        if path is None:
            problems.append(f"{spec.key}: enforced_by {spec.enforced_by!r} has no module file under {REPO}")
            continue
        text = path.read_text(encoding="utf-8")
        if f'"{spec.key}"' not in text and f"'{spec.key}'" not in text:
            problems.append(f"{spec.key}: {path.relative_to(REPO)} never names it")
    return problems


def test_enforced_settings_are_read_by_their_module() -> None:
    """A key whose enforced_by names a module must appear in that module as a string literal."""
    problems = unread_enforced(house_specs().values())
    assert not problems, "\n".join(problems)


def test_enforcement_check_catches_unread_and_missing_modules() -> None:
    read = SettingSpec("weapons.smg.fp", 2, "int", "GAP-01", "game.core.catalog.loader", "x")
    unread = SettingSpec("nothing.reads_me", 1, "int", "GAP-1", "game.core.settings", "x")
    nowhere = SettingSpec("los.woods_depth", 2.0, "float", "GEO-10", "game.core.no_such_module", "x")
    issue = SettingSpec("los.mode", "2.5d_rays", "str", "GEO-10", "issue 4: LOS, cover, templates", "x")
    problems = unread_enforced([read, unread, nowhere, issue])
    assert len(problems) == 2
    assert "nothing.reads_me" in problems[0] and "never names it" in problems[0]
    assert "los.woods_depth" in problems[1] and "no module file" in problems[1]


def test_unenforced_settings_name_their_issue() -> None:
    """A key no module reads names the feature it waits for, from the table its refusal message is made of."""
    allowed = set(LABELS)
    assert allowed == set(NOT_PLAYED) | set(DEFAULT_ONLY)
    for key, spec in house_specs().items():
        assert spec.enforced or spec.enforced_by in allowed, f"{key}: enforced_by {spec.enforced_by!r}"


def test_enforced_module_check_catches_an_unread_key(tmp_path: Path) -> None:
    """The enforcement test itself fails for a key its module never reads."""
    spec = SettingSpec("nothing.reads_me", 1, "int", "GAP-1", "game.core.settings", "x")
    path = _module_file(spec.enforced_by)
    assert path is not None and '"nothing.reads_me"' not in path.read_text(encoding="utf-8")


# --- coverage of RULES.md ---------------------------------------------------------------------

def test_every_rules_house_key_is_declared() -> None:
    keys = rules_house_keys(_rules_text())
    assert len(keys) > 140
    declared = set(house_specs())
    missing = sorted(k for k in keys if not _declared_as(k, declared))
    assert not missing, f"RULES.md HOUSE keys not declared in game/data/house.toml: {missing}"


def test_leaves_are_listed_and_named_under_their_rules_key() -> None:
    """A declared key that RULES.md does not name exactly is a leaf of a wildcard/compound RULES.md key."""
    keys = rules_house_keys(_rules_text())
    for key, spec in house_specs().items():
        if key in keys:
            continue
        assert spec.leaf_of, f"{key}: not a RULES.md key and not marked leaf_of"
        assert spec.leaf_of in keys, f"{key}: leaf_of {spec.leaf_of!r} is not a RULES.md key"
        prefix = spec.leaf_of[:-1] if spec.leaf_of.endswith(".*") else spec.leaf_of + "."
        assert key.startswith(prefix), f"{key}: leaf of {spec.leaf_of!r} must be named under it"


# --- generated documentation -------------------------------------------------------------------

def test_settings_doc_is_up_to_date() -> None:
    assert gen_settings_doc.main(["--check"]) == 0, "run: python -m game.tools.gen_settings_doc"


def test_settings_doc_lists_every_key_and_the_leaves(tmp_path: Path) -> None:
    out = tmp_path / "settings.md"
    assert gen_settings_doc.main(["--output", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    for key in house_specs():
        assert f"| `{key}` |" in text
    leaves = text[text.index("## Wildcard leaves"):]
    assert "| `bolt.*` | `bolt.range` | `18.0` |" in leaves
    assert "| `weapons.smg` | `weapons.smg.range_max` | `18.0` |" in leaves
    assert gen_settings_doc.main(["--check", "--output", str(tmp_path / "missing.md")]) == 1


# --- ranges, choices and keys whose feature is not built (issue 12) ------------------------------------

def test_every_numeric_key_declares_its_range_and_every_str_key_its_choices() -> None:
    """Settings carry their allowed values: numbers a min and a max, strings their choices (CFG)."""
    for key, spec in house_specs().items():
        if spec.type in ("int", "float", "int_or_null"):
            assert spec.min is not None and spec.max is not None and spec.min <= spec.max, key
        if spec.type == "str":
            assert spec.choices, f"{key}: a str setting lists its choices"


def test_weapon_lists_name_catalog_weapons() -> None:
    """List choices that name weapons stay in step with weapons.toml."""
    from game.core.catalog.loader import load_catalog

    weapons = set(load_catalog().weapons)
    for key in ("melee.forbidden", "hostiles.bandit.weapons"):
        assert set(house_specs()[key].choices) <= weapons, key


@pytest.mark.parametrize("option, words", [
    ("move.difficult_mult=-1", ["'move.difficult_mult'", "out of range", "use 1 to 4"]),
    ("alert.cost=0", ["'alert.cost'", "out of range", "use 1 to 3"]),
    ("geo.contact_tol=-1", ["'geo.contact_tol'", "out of range", "use 0 to 1"]),
    ("weapons.smg.fp=0", ["'weapons.smg.fp'", "out of range"]),
    ("geo.bases.vermin.diameter=0", ["'geo.bases.vermin.diameter'", "out of range"]),
    ("jump.max=NaN", ["'jump.max'", "finite number", "nan"]),
    ("los.woods_depth=Infinity", ["'los.woods_depth'", "finite number", "inf"]),
    ("move.min=1e999", ["'move.min'", "finite number"]),
    ("alert.cost=2.5", ["'alert.cost'", "type int", "from 1 to 3"]),
    ("alert.cost=true", ["'alert.cost'", "type int"]),
    ("crit.max_bonus_per_activation=-1", ["'crit.max_bonus_per_activation'", "null or 0 to 10"]),
    ("hostiles.bandit=brutes", ["'hostiles.bandit'", "not one of"]),
    ('melee.forbidden=["lance"]', ["'melee.forbidden'", "'lance'", "not one of"]),
    ("melee.forbidden=[1]", ["'melee.forbidden'", "list of strings"]),
    ("pin.allowed=Rally", ["'pin.allowed'", "list of strings"]),
    ("mission.turn_limit.small_base=0", ["'mission.turn_limit.small_base'", "out of range"]),
])
def test_out_of_range_and_wrong_values_are_refused(option: str, words: list[str]) -> None:
    """A corpus of bad values: negative, zero where invalid, NaN, inf, wrong type, unknown choice or item."""
    with pytest.raises(SettingsError) as err:
        Settings.from_options([option])
    text = str(err.value)
    assert text.startswith("--set: ") and "\n" not in text
    for word in words:
        assert word in text, text


def test_step_bounds_the_values_between_min_and_max() -> None:
    """GAP-21 `hostiles.vermin_x2`: 2 or 4 figures (steps of 2), nothing in between."""
    spec = SettingSpec("hostiles.vermin_x2", 2, "int", "GAP-21", "game.core.rules.stats", "x", min=2, max=4, step=2)
    assert _check_value(spec, 4, "t") == 4
    with pytest.raises(SettingsError, match="2 to 4 in steps of 2"):
        _check_value(spec, 3, "t")


@pytest.mark.parametrize("option, feature", [
    ("bolt.deviation=true", "`bolt.deviation` belongs to locations"),
    ("ai.human_controls_hostiles=true", "belongs to hot-seat play"),
    ("stalls.extra_weapon_prices.rpg=1000", "belongs to the Stalls"),
    ("trigger.timing=at_entry", "belongs to locations"),
    ("burn.stop_on_save=false", "belongs to a Burn that goes on after a passed save"),
    ("promotion.missions=4", "belongs to the campaign"),
    ("scen.g3.one_off_k=12", "belongs to the book's scenarios"),
    ("scale.unit=cm", "belongs to the graphical client"),
    ("weapons.powered=true", "belongs to the optional powered (hi-tech) weapons"),
])
def test_a_key_whose_feature_is_not_built_is_refused_naming_the_feature(option: str, feature: str) -> None:
    with pytest.raises(SettingsError) as err:
        Settings.from_options([option])
    text = str(err.value)
    assert feature in text and "leave it at its default" in text and "\n" not in text


def test_every_unenforced_key_refuses_a_legal_alternative() -> None:
    """Any key no module reads refuses every value but its default, with a message naming the key."""
    for key, spec in house_specs().items():
        if spec.enforced:
            continue
        if spec.type == "bool":
            other: object = not spec.default
        elif spec.type in ("int", "float", "int_or_null"):
            other = spec.max if spec.default != spec.max else spec.min
        elif spec.choices and spec.type == "str":
            other = next((c for c in spec.choices if c != spec.default), None)
        else:
            other = []
        if other is None or other == spec.default:
            continue
        with pytest.raises(SettingsError, match=re.escape(f"`{key}`")):
            Settings({key: other})


def test_an_unbuilt_value_of_an_enforced_key_is_refused() -> None:
    """GAP-87 `climb.allow_end_mid_climb`=true is not built: refused, while the key itself is read."""
    spec = house_specs()["climb.allow_end_mid_climb"]
    assert spec.enforced and spec.unbuilt == (True,)
    with pytest.raises(SettingsError, match="`climb.allow_end_mid_climb`=true belongs to models that stop part-way"):
        Settings.from_options(["climb.allow_end_mid_climb=true"])


def test_a_not_built_key_at_its_default_is_accepted() -> None:
    """The default is what the engine plays (or inert): records and sweeps that spell it out still load."""
    s = Settings({"anomaly.area": "LBT", "ai.alert": True, "scale.unit": "inch"})
    assert s["anomaly.area"] == "LBT"


def test_loaded_settings_and_scenarios_are_checked_too() -> None:
    """A record, save or scenario carrying a refused value fails like --set does (the same Settings check)."""
    from game.core.rules.context import settings_of
    from game.core.rules.setup import new_game, scenario
    from tests.enginekit import game, profile

    st = game([("a1", "a", profile(), (5, 5))], settings={"anomaly.area": "reaction_radius"})
    with pytest.raises(SettingsError, match="`anomaly.area`=\"reaction_radius\" belongs to an anomaly discharge"):
        settings_of(st)
    with pytest.raises(SettingsError, match=r"scenario open-table-demo: setting 'alert.cost' = 0 is out of range"):
        new_game(scenario("open-table-demo"), 1, settings={"alert.cost": 0})


@pytest.mark.parametrize("text, words", [
    ('["a.b"]\ndefault = 1\ntype = "int"\nrule = "GAP-1"\nenforced_by = "x"\ndoc = "x"\nmin = 2\nmax = 3\n',
     ["bad.toml", "'a.b'", "out of range"]),
    ('["a.b"]\ndefault = 1\ntype = "int"\nrule = "GAP-1"\nenforced_by = "x"\ndoc = "x"\nmin = 3\nmax = 2\n',
     ["bad.toml", "'a.b'", "min 3 is greater than max 2"]),
    ('["a.b"]\ndefault = "x"\ntype = "str"\nrule = "GAP-1"\nenforced_by = "x"\ndoc = "x"\nmin = 1\n',
     ["bad.toml", "'a.b'", "only for numeric"]),
    ('["a.b"]\ndefault = 1.0\ntype = "float"\nrule = "GAP-1"\nenforced_by = "x"\ndoc = "x"\nstep = 0\n',
     ["bad.toml", "'a.b'", "'step' must be positive"]),
    ('["a.b"]\ndefault = true\ntype = "bool"\nrule = "GAP-1"\nenforced_by = "x"\ndoc = "x"\nunbuilt = [false]\n',
     ["bad.toml", "'a.b'", "unbuilt and unbuilt_by go together"]),
    ('["a.b"]\ndefault = true\ntype = "bool"\nrule = "GAP-1"\nenforced_by = "x"\ndoc = "x"\nunbuilt = [true]\n'
     'unbuilt_by = "later: client"\n', ["bad.toml", "'a.b'", "cannot be unbuilt"]),
    ('["a.b"]\ndefault = true\ntype = "bool"\nrule = "GAP-1"\nenforced_by = "x"\ndoc = "x"\nchoices = [true]\n',
     ["bad.toml", "'a.b'", "only for str and list"]),
])
def test_malformed_ranges_name_file_key_and_reason(text: str, words: list[str]) -> None:
    with pytest.raises(SettingsError) as err:
        parse_specs(text, "bad.toml")
    for word in words:
        assert word in str(err.value)


@pytest.mark.parametrize("option, words", [
    ("anomaly.area=reaction_radius", "`anomaly.area`=\"reaction_radius\" belongs to an anomaly discharge over the 3\""),
    ("move.difficult_mult=-1", "setting 'move.difficult_mult' = -1.0 is out of range: use 1 to 4"),
])
def test_demo_refuses_on_one_stderr_line_with_exit_2(option: str, words: str) -> None:
    """`zona-alfa demo --set K=V`: a refused key or value is one stderr line naming it, exit 2 (as an unknown key)."""
    import subprocess
    import sys

    env = {"SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, "-m", "game", "demo", "--seed", "3", "--set", option], cwd=REPO,
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 2 and not r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], r.stderr


# --- house.toml's enforced_by follows the code ---------------------------------------------------------

def test_enforced_by_names_the_module_that_reads_each_key() -> None:
    """`python -m game.tools.sync_enforced --check`: a key a module reads is labelled with that module, so
    docs/settings.md (generated from house.toml) says which keys are enforced and where."""
    from game.tools import sync_enforced

    text = (REPO / "game" / "data" / "house.toml").read_text(encoding="utf-8")
    _, changes = sync_enforced.sync(text, sync_enforced.readers())
    assert not changes, "run: python -m game.tools.sync_enforced && python -m game.tools.gen_settings_doc\n" + \
        "\n".join(f"{k}: {old} -> {new}" for k, old, new in changes)
    assert sync_enforced.main(["--check"]) == 0
