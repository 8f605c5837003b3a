"""Rules data (ARMORY-5, CORE-3.2, CORE-3.6, SKILL-6.1, EQUIP-6.2, CREW-7.1, HOSTILE-8.3, GEO-3): values, settings,
errors."""
from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest

from game.core.catalog import (
    FILES,
    Catalog,
    CatalogError,
    EquipmentTable,
    GrenadeEffect,
    Obscured,
    Special,
    Template,
    TemplateCover,
    UnitForm,
    default_data_dir,
    load_catalog,
    setting_fields,
)
from game.core.settings import Settings, SettingsError
from tests.paths import RULES_MD

RULES = RULES_MD


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog()


def _band(cat: Catalog, id: str) -> tuple[float, float | None, int | None, int]:
    p = cat.weapon(id).profile
    return p.range_min, p.range_max, p.fp, p.damage


# --- ARMORY-5.1 -------------------------------------------------------------------------------------

def test_melee_table_armory_5_1(cat: Catalog) -> None:
    for id, damage in (("knife", 0), ("claws", 0), ("machete", 1), ("big_claws", 1), ("very_big_claws", 2)):
        w = cat.weapon(id)
        assert w.melee_only and w.profile.fp == 1 and w.profile.damage == damage, id
        assert w.melee_penalty == 0
    for id, damage in (("pistol", 0), ("magnum_pistol", 1)):
        w = cat.weapon(id)
        assert w.melee_capable and not w.melee_only and _band(cat, id) == (0.0, 12.0, 1, damage)
    assert _band(cat, "axe") == _band(cat, "machete")              # GAP-06
    assert _band(cat, "chainsaw") == _band(cat, "very_big_claws")  # GAP-06
    unarmed = cat.weapon("unarmed").profile                        # GAP-42
    assert (unarmed.fp, unarmed.damage, unarmed.ca_mod) == (1, 0, -2)


@pytest.mark.setting("weapons.shotgun_boundary")
def test_shotgun_damage_boundary_gap_07_tv_30(cat: Catalog) -> None:
    shotgun = cat.weapon("shotgun").profile
    assert (shotgun.range_max, shotgun.fp, shotgun.near_max) == (12.0, 3, 6.0)
    assert [shotgun.damage_at(d) for d in (0.0, 5.9, 6.0, 6.1, 12.0)] == [3, 3, 3, 2, 2]
    strict = load_catalog(Settings.from_options(["weapons.shotgun_boundary=lt6_is_3"])).weapon("shotgun").profile
    assert [strict.damage_at(d) for d in (5.9, 6.0)] == [3, 2]


def test_smg_gap_01(cat: Catalog) -> None:
    smg = cat.weapon("smg")
    assert smg.profile.melee_capable and _band(cat, "smg") == (0.0, 18.0, 2, 0)
    assert smg.red_dot_eligible and smg.unload_eligible and smg.usable_in_melee and smg.melee_penalty == 0


def test_rifles_armory_5_1_rifle_table(cat: Catalog) -> None:
    assert _band(cat, "assault_rifle") == (1.0, 36.0, 3, 1)
    assert _band(cat, "battle_rifle") == (1.0, 48.0, 2, 2)
    assert cat.weapon("assault_rifle").melee_penalty == -2 and cat.weapon("assault_rifle").usable_in_melee
    assert cat.weapon("assault_rifle").accepts == {"red_dot", "scope", "ubgl"}


def test_support_table_and_gaps_02_to_05(cat: Catalog) -> None:
    flame = cat.weapon("flame_thrower")
    assert flame.profile.fp is None and flame.profile.damage == 3 and flame.profile.template is Template.FLAME
    assert flame.specials == {Special.LIMITED_AMMO, Special.SUPPORT, Special.BURN} and flame.ammo == 5
    gl = cat.weapon("grenade_launcher")
    assert _band(cat, "grenade_launcher") == (4.0, 24.0, 1, 1) and gl.profile.template is Template.SBT
    assert gl.specials == {Special.INDIRECT, Special.RELOAD, Special.LIMITED_AMMO, Special.SUPPORT}
    assert _band(cat, "squad_lmg") == (1.0, 48.0, 4, 1) and cat.weapon("squad_lmg").is_support
    assert _band(cat, "sniper_rifle") == (1.0, 60.0, 1, 3) and cat.weapon("sniper_rifle").scope_eligible  # GAP-02
    hmg = cat.weapon("hmg")                                                                              # GAP-03
    assert _band(cat, "hmg") == (1.0, 60.0, 5, 2) and hmg.specials == {Special.CREW_SERVED} and hmg.unload_eligible
    mortar = cat.weapon("mortar")                                                                        # GAP-04
    assert _band(cat, "mortar") == (6.0, 60.0, 1, 2) and mortar.profile.template is Template.LBT
    assert mortar.specials == {Special.CREW_SERVED, Special.INDIRECT, Special.RELOAD, Special.LIMITED_AMMO}
    rpg = cat.weapon("rpg")                                                                              # GAP-05
    assert [p.name for p in rpg.profiles] == ["anti_armour", "anti_infantry"] and rpg.ammo == 5
    aa, ai = rpg.profile_named("anti_armour"), rpg.profile_named("anti_infantry")
    assert (aa.range_min, aa.range_max, aa.fp, aa.damage, aa.template) == (4.0, 48.0, 1, 4, None)
    assert (ai.range_min, ai.range_max, ai.fp, ai.damage, ai.template) == (4.0, 48.0, 1, 2, Template.SBT)
    assert Special.ANTI_ARMOUR in aa.specials and Special.INDIRECT not in ai.specials
    with pytest.raises(KeyError, match="anti_armour"):
        rpg.profile_named("thermobaric")


def test_weapon_eligibility_lists(cat: Catalog) -> None:
    """SKILL-6.1.UNLOAD, EQUIP-6.2.RED-DOT/SCOPE, ARMORY-5.1.MELEE-USE, CREW-7.1.WEAPON-CHOICE."""
    ids = lambda pred: {w.id for w in cat.weapons.values() if pred(w)}  # noqa: E731
    assert ids(lambda w: w.unload_eligible) == {"smg", "assault_rifle", "battle_rifle", "squad_lmg", "hmg"}
    assert ids(lambda w: w.red_dot_eligible) == {"pistol", "magnum_pistol", "shotgun", "smg", "assault_rifle"}
    assert ids(lambda w: w.scope_eligible) == {"assault_rifle", "battle_rifle", "sniper_rifle"}
    assert ids(lambda w: not w.usable_in_melee) == {"hmg", "mortar", "rpg", "grenade_launcher", "flame_thrower"}
    assert set(cat.starting_weapons()) == {"pistol", "magnum_pistol", "shotgun", "smg", "assault_rifle",
                                           "battle_rifle", "flame_thrower", "grenade_launcher", "squad_lmg",
                                           "knife", "machete", "axe", "chainsaw"}
    assert ids(lambda w: w.is_support) == {"flame_thrower", "grenade_launcher", "squad_lmg", "rpg", "sniper_rifle"}


def test_grenade_table(cat: Catalog) -> None:
    rows = {g.id: (g.range_min, g.range_max, g.fp, g.damage, g.template, g.effects) for g in cat.grenades.values()}
    assert rows == {
        "molotov": (1.0, 18.0, 1, 1, Template.SBT, {GrenadeEffect.BURN}),
        "flash_bang": (1.0, 18.0, 1, None, Template.SBT, {GrenadeEffect.AUTO_PIN}),
        "smoke": (1.0, 18.0, 1, None, Template.LBT, {GrenadeEffect.SMOKE}),
        "hand_grenade": (1.0, 18.0, 1, 2, Template.SBT, set()),
        "satchel_charge": (2.0, 12.0, 1, 3, Template.LBT, set()),
    }
    assert all(g.indirect for g in cat.grenades.values())  # ARMORY-5.1.GRENADE-CARRY


# --- ARMORY-5.3, CORE-3.6 ----------------------------------------------------------------------------

def test_armour_table_armory_5_3(cat: Catalog) -> None:
    rows = {a.id: (a.armor, a.move_mod, a.obscured, a.save_dice, a.will_exempt) for a in cat.armours.values()}
    ic, al = Obscured.IN_COVER, Obscured.ALWAYS
    assert rows == {"bdu": (0, 0.0, ic, 1, False), "improvised": (3, 0.0, ic, 1, False),
                    "civilian": (5, 0.0, ic, 1, False), "military": (6, 0.0, ic, 1, False),
                    "advanced": (7, -1.0, ic, 2, False), "mimetic": (4, 0.0, al, 1, False),
                    "exo": (7, 2.0, ic, 2, True)}


def test_cover_table_core_3_6_and_gap_81(cat: Catalog) -> None:
    rows = {c.id: (c.ca_mod, c.armor_mod, c.will_mod, c.template, c.template_save_bonus, c.pinned_armor, c.elevated)
            for c in cat.covers.values()}
    assert rows == {
        "obstruction": (-1, 0, 0, TemplateCover.NONE, 0, 0, None),
        "soft": (-1, 0, 1, TemplateCover.SAVE_BONUS, 2, 1, "obstruction"),
        "hard": (-1, 1, 2, TemplateCover.BLOCKS, 0, 2, "soft"),
        "hardened": (-2, 2, 3, TemplateCover.BLOCKS, 0, 3, "hard"),
    }
    assert cat.cover("obstruction").cumulative and not cat.cover("soft").cumulative


# --- CORE-3.2, SKILL-6.1, EQUIP-6.2, CREW-7.1 -------------------------------------------------------

def test_experience_levels_core_3_2(cat: Catalog) -> None:
    rows = {lv.id: (lv.nickname, lv.actions, lv.skills, lv.slots, lv.k_cost) for lv in cat.levels.values()}
    assert rows == {"rookie": ("Dukh", 1, 0, 1, 1), "hardened": ("Kirza", 2, 1, 2, 2),
                    "veteran": ("Tyazheliy", 3, 2, 3, 3)}
    assert "Green" in cat.level("rookie").also_called  # GAP-28


def test_skills_skill_6_1(cat: Catalog) -> None:
    assert set(cat.skills) == {"bone_doc", "fuse_cutter", "hard", "hustle", "knife_man", "leader", "scrounger",
                               "unload"}
    assert cat.skill("leader").unique and not cat.skill("hustle").unique
    assert cat.skill("salvager") is cat.skill("scrounger")  # GAP-27
    assert cat.skill("unload").rule == "SKILL-6.1.UNLOAD"


def test_equipment_values_equip_6_2(cat: Catalog) -> None:
    rows = {e.id: (e.table.value, e.number, e.value) for e in cat.equipment_items.values()}
    assert rows == {
        "binoculars": ("basic", 1, 200), "electric_juice": ("basic", 2, 100), "gas_mask": ("basic", 3, 200),
        "medkit": ("basic", 4, 250), "red_dot": ("basic", 5, 400),
        "detector": ("advanced", 1, 500), "tool_kit": ("advanced", 2, 600), "nods": ("advanced", 3, 750),
        "hot_load": ("advanced", 4, 350), "scope": ("advanced", 5, 750),
        "chest_rig": ("special", 1, 1000), "load_bearing_vest": ("special", 2, 1500), "ubgl": ("special", 3, 1800),
        "kevlar_plates": ("special", 4, 1800), "heavy_weapon_reload": ("special", 5, 2000),
    }
    assert {e.id for e in cat.equipment_items.values() if not e.uses_slot} == {
        e.id for e in cat.equipment_items.values() if e.table is EquipmentTable.SPECIAL}
    assert (cat.equipment("chest_rig").slot_bonus, cat.equipment("chest_rig").grenade_bonus) == (1, 1)
    assert (cat.equipment("load_bearing_vest").slot_bonus, cat.equipment("load_bearing_vest").grenade_bonus) == (2, 2)
    kevlar = cat.equipment("kevlar_plates")
    assert (kevlar.armor_bonus, kevlar.max_per_model) == (1, 2)
    assert cat.equipment("ubgl").adds_weapon == "grenade_launcher"
    assert cat.equipment("heavy_weapon_reload").ammo_bonus == 5 and cat.equipment("hot_load").damage_bonus == 1
    assert cat.equipment("medkit").consumable and not cat.equipment("binoculars").consumable


def test_recruit_profiles_crew_7_1(cat: Catalog) -> None:
    rows = {r.id: (r.experience, r.actions, r.move, r.ca, r.armour, r.will, r.wounds, r.k_cost, r.skills,
                   r.basic_items) for r in cat.recruits.values()}
    assert rows == {
        "rookie": ("rookie", 1, 5.0, 4, "improvised", 4, 1, 1, 0, 1),
        "hardened": ("hardened", 2, 6.0, 5, "civilian", 5, 1, 2, 1, 2),
        "veteran": ("veteran", 3, 6.0, 6, "civilian", 6, 1, 3, 2, 3),
        "leader": ("veteran", 3, 6.0, 6, "military", 7, 2, 3, 2, 3),
    }
    assert cat.recruit("leader").required_skills == ("leader",)
    for r in cat.recruits.values():  # GEO-3: crew are human-sized
        assert (r.base_diameter, r.height, r.ranged, r.melee, r.grenades) == (1.0, 1.25, 1, 1, 2)


# --- HOSTILE-8.3 -------------------------------------------------------------------------------------

def test_hostile_stats_hostile_8_3(cat: Catalog) -> None:
    rows = {h.id: (h.move, h.ca, h.armor, h.will, tuple((a.weapon, a.fp, a.damage) for a in h.attacks), h.wounds,
                   h.base_diameter, h.height, h.unit_form, h.creature) for h in cat.hostiles.values()}
    g, i, s = UnitForm.GROUP, UnitForm.INDIVIDUAL, UnitForm.SINGLE
    assert rows == {
        "vermin": (6.0, 4, 2, 4, (("claws", 1, 0),), 1, 1.6, 0.5, g, True),
        "dogs": (8.0, 4, 2, 4, (("claws", 1, 0),), 1, 1.0, 0.75, g, True),
        "zombies": (4.0, 4, 6, None, (("claws", 1, 0),), 1, 1.0, 1.25, g, True),
        "ghouls": (7.0, 5, 4, 6, (("big_claws", 1, 1),), 1, 1.0, 1.25, g, True),
        "bandit": (6.0, 5, 3, 5, (("assault_rifle", 3, 1), ("knife", 1, 0)), 1, 1.0, 1.25, i, False),
        "mutant": (7.0, 6, 3, 6, (("big_claws", 2, 1),), 2, 1.6, 1.75, g, True),
        "large_mutant": (6.0, 6, 5, 7, (("very_big_claws", 3, 2),), 3, 2.0, 2.5, s, True),
    }
    assert cat.hostile("bandit").armour == "improvised" and cat.hostile("bandit").obscured is Obscured.IN_COVER
    assert all(h.obscured is None for h in cat.hostiles.values() if h.creature)  # ARMORY-5.3.NATURAL


def test_every_entry_cites_a_rules_id(cat: Catalog) -> None:
    tables = (cat.weapons, cat.grenades, cat.armours, cat.covers, cat.levels, cat.skills, cat.equipment_items,
              cat.bodies, cat.recruits, cat.hostiles)
    rules_text = RULES.read_text(encoding="utf-8") if RULES.exists() else None
    for table in tables:
        for entry in table.values():
            assert re.fullmatch(r"[A-Z]+-[0-9A-Z.\-]+", entry.rule), entry
            if rules_text is not None:
                assert f"`{entry.rule}`" in rules_text, f"{entry.id}: {entry.rule} is not a RULES.md ID"


def test_lookup_errors_list_known_ids(cat: Catalog) -> None:
    with pytest.raises(KeyError, match="assault_rifle"):
        cat.weapon("ak47")
    with pytest.raises(KeyError, match="large_mutant"):
        cat.hostile("bloodsucker")
    with pytest.raises(KeyError, match="military"):
        cat.armour("plate")


# --- settings (CFG) ------------------------------------------------------------------------------

def test_default_settings_change_no_data_value() -> None:
    """The numbers in the data files are the house defaults: applying the default settings changes nothing."""
    raw = {f: tomllib.loads((default_data_dir() / f).read_text(encoding="utf-8")) for f in FILES}
    for file, path, value, key in setting_fields(Settings.defaults()):
        node = raw[file]
        for part in path:
            node = node[part]
        assert node == value, f"{file} {path}: data {node!r} but setting {key} = {value!r}"


def test_catalog_is_cached_per_overrides(cat: Catalog) -> None:
    assert load_catalog() is cat and load_catalog(Settings.defaults()) is cat
    s = Settings.from_options(["weapons.smg.fp=3"])
    assert load_catalog(s) is load_catalog(Settings.from_options(["weapons.smg.fp=3"])) is not cat


@pytest.mark.parametrize("option, check", [
    ("weapons.smg.fp=3", lambda c: c.weapon("smg").profile.fp == 3),
    ("weapons.smg.range_max=24", lambda c: c.weapon("smg").profile.range_max == 24.0),
    ("weapons.sniper.damage=4", lambda c: c.weapon("sniper_rifle").profile.damage == 4),
    ("weapons.hmg.fp=6", lambda c: c.weapon("hmg").profile.fp == 6),
    ("weapons.mortar_fp=2", lambda c: c.weapon("mortar").profile.fp == 2),
    ("weapons.extra.axe=knife", lambda c: c.weapon("axe").profile.damage == 0),
    ("weapons.extra.chainsaw=machete", lambda c: c.weapon("chainsaw").profile.damage == 1),
    ("melee.unarmed.ca_mod=-3", lambda c: c.weapon("unarmed").profile.ca_mod == -3),
    ("melee.forbidden=[]", lambda c: all(w.usable_in_melee for w in c.weapons.values())),
    ("crew.start_weapons=any", lambda c: "hmg" in c.starting_weapons() and "claws" not in c.starting_weapons()),
    ("weapons.rpg_single_weapon=false",
     lambda c: "rpg" not in c.weapons and c.weapon("rpg_anti_infantry").profile.template is Template.SBT
     and c.weapon("rpg_anti_armour").ammo == 5),
    ("pin.cover_bonus_hardened=2", lambda c: c.cover("hardened").pinned_armor == 2),
    ("elev.hardened_becomes=soft", lambda c: c.cover("hardened").elevated == "soft"),
    ("grenades.lbv=3", lambda c: c.equipment("load_bearing_vest").grenade_bonus == 3),
    ("grenades.chest_rig=2", lambda c: c.equipment("chest_rig").grenade_bonus == 2),
    ("skills.unload=disabled", lambda c: "unload" not in c.skills),
    ("skills.salvager_alias=Hustle", lambda c: c.skill("salvager").id == "hustle"),
    ("hostiles.bandit=rookie", lambda c: (c.hostile("bandit").move, c.hostile("bandit").ca,
                                          c.hostile("bandit").will) == (5.0, 4, 4)),
    ("hostiles.bandit.armour=civilian", lambda c: c.hostile("bandit").armor == 5),
    ('hostiles.bandit.weapons=["shotgun", "machete"]',
     lambda c: [(a.weapon, a.fp, a.damage) for a in c.hostile("bandit").attacks] == [("shotgun", 3, 3),
                                                                                    ("machete", 1, 1)]),
    ("hostiles.melee_fp=frenzied", lambda c: (c.hostile("dogs").attacks[0].fp, c.hostile("ghouls").attacks[0].fp,
                                              c.hostile("zombies").attacks[0].fp) == (2, 2, 1)),
    ("hostiles.mutant.wounds=3", lambda c: c.hostile("mutant").wounds == 3),
    ("hostiles.large_mutant.weapon=big_claws", lambda c: c.hostile("large_mutant").attacks[0].weapon == "big_claws"),
    ("hostiles.grouping=all_individual", lambda c: all(h.unit_form is UnitForm.INDIVIDUAL
                                                       for h in c.hostiles.values())),
    ("obscured.creatures=true", lambda c: c.hostile("dogs").obscured is Obscured.IN_COVER),
    ("geo.bases.human.diameter=1.25", lambda c: c.recruit("rookie").base_diameter == 1.25
     and c.hostile("zombies").base_diameter == 1.25),
    ("geo.bases.large_mutant.height=3", lambda c: c.hostile("large_mutant").height == 3.0),
])
@pytest.mark.setting(
    "crew.start_weapons", "geo.bases.human.diameter", "geo.bases.large_mutant.height", "grenades.chest_rig",
    "grenades.lbv", "hostiles.bandit", "hostiles.bandit.armour", "hostiles.bandit.weapons", "hostiles.grouping",
    "hostiles.large_mutant.weapon", "hostiles.melee_fp", "hostiles.mutant.wounds", "melee.forbidden",
    "melee.unarmed.ca_mod", "obscured.creatures", "skills.salvager_alias", "skills.unload", "weapons.extra.axe",
    "weapons.extra.chainsaw", "weapons.hmg.fp", "weapons.mortar_fp", "weapons.rpg_single_weapon",
    "weapons.smg.fp", "weapons.smg.range_max", "weapons.sniper.damage"
)
def test_setting_changes_catalog_value(option: str, check, cat: Catalog) -> None:
    changed = load_catalog(Settings.from_options([option]))
    assert check(changed), option
    assert not check(cat), f"{option}: the default catalog already satisfies the check"


def test_out_of_range_setting_is_refused_before_the_catalog_sees_it() -> None:
    """CFG: the settings loader refuses values outside a key's range or items (game/data/house.toml min/max/items),
    naming the key; the catalog's own data checks still name the file and field (the broken-data cases below)."""
    with pytest.raises(SettingsError, match=r"weapons\.smg\.fp.*out of range"):
        Settings.from_options(["weapons.smg.fp=0"])
    with pytest.raises(SettingsError, match=r"geo\.bases\.vermin\.diameter.*out of range"):
        Settings.from_options(["geo.bases.vermin.diameter=0"])
    with pytest.raises(SettingsError, match="'lance'.*not one of"):
        Settings.from_options(['melee.forbidden=["lance"]'])


# --- broken data -----------------------------------------------------------------------------------

BROKEN = [
    # (file, text to replace, replacement, words the error must contain)
    ("weapons.toml", "range_max = 36.0\nfp = 3\n", "range_max = 36.0\n",
     ["weapons.toml [assault_rifle].fp", "missing field"]),
    ("weapons.toml", "range_max = 36.0\nfp = 3\n", 'range_max = 36.0\nfp = "3"\n',
     ["weapons.toml [assault_rifle].fp", "expected int, got str"]),
    ("weapons.toml", 'name = "Knife"\n', 'name = "Knife"\ncolour = "red"\n',
     ["weapons.toml [knife].colour", "unknown field"]),
    ("weapons.toml", '["crew_served", "indirect", "reload", "limited_ammo"]', '["crew_served", "laser"]',
     ["weapons.toml [mortar].specials[1]", "unknown value 'laser'"]),
    ("weapons.toml", 'kind = "hmg"', 'kind = "gatling"', ["weapons.toml [hmg].kind", "unknown value 'gatling'"]),
    ("weapons.toml", "range_max = 48.0\nfp = 2\n", "range_max = -48.0\nfp = 2\n",
     ["weapons.toml [battle_rifle].range_max", "negative length"]),
    ("weapons.toml", "range_min = 6.0\n", "range_min = 61.0\n",
     ["weapons.toml [mortar].range_min", "greater than maximum range"]),
    ("weapons.toml", "[rpg.profiles.anti_armour]\nrange_min = 4.0\nrange_max = 48.0\nfp = 1",
     "[rpg.profiles.anti_armour]\nrange_min = 4.0\nrange_max = 48.0\nfp = 0",
     ["weapons.toml [rpg].profiles.anti_armour.fp", "must be >= 1"]),
    ("weapons.toml", "[claws]\n", "[knife]\n", ["weapons.toml", "duplicate id"]),
    ("weapons.toml", "[big_claws]\n", "[Big-Claws]\n", ["weapons.toml [Big-Claws]", "lower_snake_case"]),
    ("weapons.toml", 'kind = "natural"\nsame_as = "knife"', 'kind = "natural"\nsame_as = "big_claws"',
     ["weapons.toml [claws].same_as", "copies"]),
    ("weapons.toml", 'accepts = ["scope"]\nunload', 'accepts = ["laser_sight"]\nunload',
     ["weapons.toml [battle_rifle].accepts", "unknown equipment item 'laser_sight'"]),
    ("weapons.toml", 'name = "Machete"', 'name = "Knife"', ["weapons.toml [machete].name", "duplicate name"]),
    ("weapons.toml", "ammo = 5\nrange_min = 4.0\nrange_max = 24.0", "range_min = 4.0\nrange_max = 24.0",
     ["weapons.toml [grenade_launcher].ammo", "missing field"]),
    ("grenades.toml", "[smoke]", "[knife]", ["grenades.toml [knife]", "duplicate id", "weapons.toml"]),
    ("grenades.toml", 'template = "lbt"\neffects', 'template = "huge"\neffects',
     ["grenades.toml [smoke].template", "unknown value 'huge'"]),
    ("armour.toml", 'obscured = "always"', 'obscured = "sometimes"',
     ["armour.toml [mimetic].obscured", "unknown value 'sometimes'"]),
    ("armour.toml", "will_exempt = true", "will_exempt = 1", ["armour.toml [exo].will_exempt", "expected bool"]),
    ("armour.toml", "armor = 6", "armor = -6", ["armour.toml [military].armor", "must be >= 0"]),
    ("cover.toml", 'elevated = "soft"', 'elevated = "medium"', ["cover.toml [hard].elevated", "unknown cover class"]),
    ("experience.toml", "actions = 2", "actions = 0", ["experience.toml [hardened].actions", "must be >= 1"]),
    ("equipment.toml", 'table = "advanced"\nnumber = 3', 'table = "rare"\nnumber = 3',
     ["equipment.toml [nods].table", "unknown value 'rare'"]),
    ("equipment.toml", "value = 250", 'value = "250"', ["equipment.toml [medkit].value", "expected int"]),
    ("recruits.toml", 'level = "hardened"', 'level = "elite"', ["recruits.toml [hardened].level",
                                                                 "unknown experience level 'elite'"]),
    ("recruits.toml", 'required_skills = ["leader"]', 'required_skills = ["boss"]',
     ["recruits.toml [leader].required_skills[0]", "unknown skill 'boss'"]),
    ("hostiles.toml", '{ weapon = "big_claws", fp = 1, damage = 1 }', '{ weapon = "fangs", fp = 1, damage = 1 }',
     ["hostiles.toml [ghouls].attacks[0].weapon", "unknown weapon 'fangs'"]),
    ("hostiles.toml", "armor = 6\nattacks", 'armor = 6\narmour = "military"\nattacks',
     ["hostiles.toml [zombies].armor", "exactly one of"]),
    ("hostiles.toml", 'unit = "single"', 'unit = "horde"', ["hostiles.toml [large_mutant].unit", "unknown value"]),
    ("bodies.toml", 'name = "Dog (25 mm)"\n', "", ["bodies.toml [dog].name", "missing field"]),
    ("skills.toml", 'name = "Hard"\n', "", ["skills.toml [hard].name", "missing field"]),
]


def _broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    data = tmp_path / "data"
    shutil.copytree(default_data_dir(), data, ignore=shutil.ignore_patterns("*.py", "__pycache__", "house.toml"))
    text = (data / file).read_text(encoding="utf-8")
    assert text.count(old) == 1, f"fixture text {old!r} must occur once in {file}"
    (data / file).write_text(text.replace(old, new), encoding="utf-8")
    return data


@pytest.mark.parametrize("file, old, new, words", BROKEN, ids=[f"{b[0]}:{b[3][0]}" for b in BROKEN])
def test_broken_data_names_file_key_and_reason(tmp_path: Path, file: str, old: str, new: str,
                                               words: list[str]) -> None:
    data = _broken_copy(tmp_path, file, old, new)
    with pytest.raises(CatalogError) as err:
        load_catalog(data_dir=data)
    for word in words:
        assert word in str(err.value), str(err.value)


def test_missing_file_and_intact_copy(tmp_path: Path) -> None:
    data = _broken_copy(tmp_path, "cover.toml", "[soft]", "[soft]")
    assert load_catalog(data_dir=data).cover("soft").will_mod == 1  # an intact copy loads
    (data / "cover.toml").unlink()
    with pytest.raises(CatalogError, match=r"cover\.toml: missing"):
        load_catalog(data_dir=data)
