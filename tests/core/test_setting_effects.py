"""Each house setting flipped in a tiny game with scripted dice, asserting the effect it governs: the rule's event,
TN or verdict (issue 12; DOC-0.2, CFG). A test names the keys it flips with `pytest.mark.setting`; the meta-test
tests/core/test_settings_coverage.py fails for an enforced key with alternatives that no marked test flips."""
from __future__ import annotations

import pytest

from game.core.actions import IllegalAction, MeleeAttack, RangedAttack
from game.core.battlefield import Cover, TerrainPiece
from game.core.dice import ScriptedDice
from game.core.geometry.polygon import rect
from game.core.rules.apply import apply
from game.core.settings import Settings
from game.core.state import GameState, Phase
from tests.enginekit import activate, game, profile


def rolls(events: list) -> list:
    return [e for e in events if e.type == "roll"]


def roll_of(events: list, what: str):  # type: ignore[no-untyped-def]
    return next(e for e in rolls(events) if e.data["what"].startswith(what))


def labels(event) -> list[str]:  # type: ignore[no-untyped-def]
    return [b[0] for b in event.data["breakdown"]]


def duel(settings: dict | None = None, *, a: dict | None = None, b: dict | None = None,
         apos: tuple = (10, 11), bpos: tuple = (20, 11), pieces: tuple = (), **kw) -> GameState:
    """Side a's a1 against side b's b1, a1 activated."""
    st = game([("a1", "a", profile(**(a or {})), apos), ("b1", "b", profile(**(b or {})), bpos)],
              settings=settings, pieces=pieces, **kw)
    activate(st, "a1")
    return st


def test_every_flip_below_is_a_legal_override() -> None:
    """The values flipped here pass the loader (a refused key would make its test meaningless)."""
    Settings({"elev.melee": False, "range.min_rule": "centre"})


# --- attacks: situation and range (attack.py, fire.py) ----------------------------------------------

DECK = TerrainPiece(1, "deck", rect(16.0, 9.0, 20.0, 13.0), 0.0, 1.0, cover=Cover.NONE, surface=True)
PARAPET = TerrainPiece(2, "parapet", rect(20.0, 9.0, 20.04, 13.0), 0.0, 2.2, cover=Cover.HARD)


@pytest.mark.setting("elev.melee")
@pytest.mark.parametrize("flag, cover, save_tn", [(True, "Soft cover (degraded by elevation)", 5),
                                                  (False, "Hard cover", 6)])
def test_gap82_elevation_degrades_cover_in_melee_only_with_elev_melee(flag: bool, cover: str, save_tn: int) -> None:
    """GAP-82 / GEO-14: a knife fighter standing 1" higher across a hard parapet: with `elev.melee` the defender's
    Hard cover becomes Soft (no Armor bonus, save 5); without it the cover stays Hard (+1 Armor, save 6)."""
    st = duel({"elev.melee": flag}, a={"ca": 6, "weapons": ("knife",)}, b={"armor": 5},
              apos=(19.5, 11, 1.0), bpos=(20.55, 11), pieces=(DECK, PARAPET))
    ev = apply(st, MeleeAttack("a1", "b1", "knife"), ScriptedDice([2, 9, 9, 9]))
    attack = roll_of(ev, "melee with Knife")
    assert cover in labels(attack)
    assert roll_of(ev, "armour saves").data["tn"] == save_tn


@pytest.mark.setting("range.min_rule")
def test_gap116_minimum_range_edge_to_edge_or_centre_to_centre() -> None:
    """GAP-116 (GEO-5): an AK (1-36") at a target 0.5" edge to edge (1.5" centre to centre) is too close when the
    minimum is measured between the closest edges; `range.min_rule`=centre lets the shot go."""
    with pytest.raises(IllegalAction, match="closer than the minimum") as err:
        apply(duel(a={"weapons": ("assault_rifle",)}, bpos=(11.5, 11)), RangedAttack("a1", "b1", "assault_rifle"))
    assert err.value.rule == "GEO-5"
    st = duel({"range.min_rule": "centre"}, a={"weapons": ("assault_rifle",)}, bpos=(11.5, 11))
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([9, 9, 9]))
    attack = next(e for e in ev if e.type == "attack")
    assert attack.data["distance"] == pytest.approx(0.5) and len(roll_of(ev, "Assault Rifle").data["dice"]) == 3


# --- catalog stat lines (catalog/loader.py): the number each profile carries into play -------------------

def _hostile(key: str, field: str):  # type: ignore[no-untyped-def]
    who = key.split(".")[1]

    def read(cat):  # type: ignore[no-untyped-def]
        h = cat.hostile(who)
        if field in ("weapon", "fp", "damage"):
            return getattr(h.attacks[0], field)
        return getattr(h, field)
    return read


CATALOG_FLIPS = [
    pytest.param("hostiles.bandit.thugs.move", 7.0, _hostile("x.bandit", "move"),
                 marks=pytest.mark.setting("hostiles.bandit.thugs.move")),
    pytest.param("hostiles.bandit.thugs.ca", 6, _hostile("x.bandit", "ca"),
                 marks=pytest.mark.setting("hostiles.bandit.thugs.ca")),
    pytest.param("hostiles.bandit.thugs.will", 6, _hostile("x.bandit", "will"),
                 marks=pytest.mark.setting("hostiles.bandit.thugs.will")),
    pytest.param("hostiles.mutant.move", 8.0, _hostile("x.mutant", "move"),
                 marks=pytest.mark.setting("hostiles.mutant.move")),
    pytest.param("hostiles.mutant.ca", 7, _hostile("x.mutant", "ca"), marks=pytest.mark.setting("hostiles.mutant.ca")),
    pytest.param("hostiles.mutant.armor", 4, _hostile("x.mutant", "armor"),
                 marks=pytest.mark.setting("hostiles.mutant.armor")),
    pytest.param("hostiles.mutant.will", 7, _hostile("x.mutant", "will"),
                 marks=pytest.mark.setting("hostiles.mutant.will")),
    pytest.param("hostiles.mutant.weapon", "very_big_claws", _hostile("x.mutant", "weapon"),
                 marks=pytest.mark.setting("hostiles.mutant.weapon")),
    pytest.param("hostiles.mutant.fp", 3, _hostile("x.mutant", "fp"), marks=pytest.mark.setting("hostiles.mutant.fp")),
    pytest.param("hostiles.mutant.damage", 2, _hostile("x.mutant", "damage"),
                 marks=pytest.mark.setting("hostiles.mutant.damage")),
    pytest.param("hostiles.large_mutant.move", 5.0, _hostile("x.large_mutant", "move"),
                 marks=pytest.mark.setting("hostiles.large_mutant.move")),
    pytest.param("hostiles.large_mutant.ca", 7, _hostile("x.large_mutant", "ca"),
                 marks=pytest.mark.setting("hostiles.large_mutant.ca")),
    pytest.param("hostiles.large_mutant.armor", 6, _hostile("x.large_mutant", "armor"),
                 marks=pytest.mark.setting("hostiles.large_mutant.armor")),
    pytest.param("hostiles.large_mutant.will", 8, _hostile("x.large_mutant", "will"),
                 marks=pytest.mark.setting("hostiles.large_mutant.will")),
    pytest.param("hostiles.large_mutant.fp", 4, _hostile("x.large_mutant", "fp"),
                 marks=pytest.mark.setting("hostiles.large_mutant.fp")),
    pytest.param("hostiles.large_mutant.damage", 3, _hostile("x.large_mutant", "damage"),
                 marks=pytest.mark.setting("hostiles.large_mutant.damage")),
    pytest.param("hostiles.large_mutant.wounds", 4, _hostile("x.large_mutant", "wounds"),
                 marks=pytest.mark.setting("hostiles.large_mutant.wounds")),
    pytest.param("geo.bases.human.height", 1.5, lambda c: c.recruit("rookie").height,
                 marks=pytest.mark.setting("geo.bases.human.height")),
    pytest.param("geo.bases.dog.diameter", 1.25, lambda c: c.hostile("dogs").base_diameter,
                 marks=pytest.mark.setting("geo.bases.dog.diameter")),
    pytest.param("geo.bases.dog.height", 1.0, lambda c: c.hostile("dogs").height,
                 marks=pytest.mark.setting("geo.bases.dog.height")),
    pytest.param("geo.bases.vermin.diameter", 2.0, lambda c: c.hostile("vermin").base_diameter,
                 marks=pytest.mark.setting("geo.bases.vermin.diameter")),
    pytest.param("geo.bases.vermin.height", 0.75, lambda c: c.hostile("vermin").height,
                 marks=pytest.mark.setting("geo.bases.vermin.height")),
    pytest.param("geo.bases.mutant.diameter", 2.0, lambda c: c.hostile("mutant").base_diameter,
                 marks=pytest.mark.setting("geo.bases.mutant.diameter")),
    pytest.param("geo.bases.mutant.height", 2.0, lambda c: c.hostile("mutant").height,
                 marks=pytest.mark.setting("geo.bases.mutant.height")),
    pytest.param("geo.bases.large_mutant.diameter", 2.5, lambda c: c.hostile("large_mutant").base_diameter,
                 marks=pytest.mark.setting("geo.bases.large_mutant.diameter")),
]


@pytest.mark.parametrize("key, value, read", CATALOG_FLIPS)
def test_catalog_stat_line_takes_the_setting(key: str, value: object, read) -> None:  # type: ignore[no-untyped-def]
    """HOSTILE-8.3.STATS, GAP-23..25, GEO-3: the stat lines the Zone fields and the bodies models stand on are
    the settings' numbers (the loader writes them into the data before validation)."""
    from game.core.catalog.loader import load_catalog

    assert read(load_catalog()) != value, f"{key}: pick a value that differs from the default"
    assert read(load_catalog(Settings({key: value}))) == value


@pytest.mark.setting("hostiles.bandit.rookie.move", "hostiles.bandit.rookie.ca", "hostiles.bandit.rookie.will")
def test_gap23_rookie_bandit_preset_reads_its_own_leaves() -> None:
    """GAP-23: with `hostiles.bandit`=rookie the Bandit's Move, CA and Will are the rookie leaves."""
    from game.core.catalog.loader import load_catalog

    s = Settings({"hostiles.bandit": "rookie", "hostiles.bandit.rookie.move": 4.0, "hostiles.bandit.rookie.ca": 3,
                  "hostiles.bandit.rookie.will": 3})
    bandit = load_catalog(s).hostile("bandit")
    assert (bandit.move, bandit.ca, bandit.will) == (4.0, 3, 3)


@pytest.mark.setting("hostiles.melee_fp.frenzied.dogs", "hostiles.melee_fp.frenzied.ghouls")
def test_gap09_frenzied_preset_reads_its_fp_leaves() -> None:
    """GAP-09: the frenzied preset gives Dogs and Rad Ghouls the FP of their leaves."""
    from game.core.catalog.loader import load_catalog

    cat = load_catalog(Settings({"hostiles.melee_fp": "frenzied", "hostiles.melee_fp.frenzied.dogs": 3,
                                 "hostiles.melee_fp.frenzied.ghouls": 4}))
    assert (cat.hostile("dogs").attacks[0].fp, cat.hostile("ghouls").attacks[0].fp) == (3, 4)


# --- weapon numbers in an attack: dice rolled and Damage (GAP-01..04, GAP-42) ------------------------------

@pytest.mark.setting("weapons.smg.damage")
def test_gap01_smg_damage_lowers_the_save() -> None:
    """GAP-01: SMG Damage 0 -> a hit's save TN is the Armor; `weapons.smg.damage`=1 -> Armor - 1."""
    for dmg, save in ((0, 5), (1, 4)):
        st = duel({"weapons.smg.damage": dmg}, a={"ca": 5, "weapons": ("smg",)}, b={"armor": 5})
        ev = apply(st, RangedAttack("a1", "b1", "smg"), ScriptedDice([2, 9, 9, 9, 9]))
        assert next(e for e in ev if e.type == "attack").data["damage"] == dmg
        assert roll_of(ev, "armour saves").data["tn"] == save


@pytest.mark.setting("weapons.sniper.fp")
def test_gap02_sniper_fp_is_the_number_of_dice() -> None:
    for fp in (1, 2):
        st = duel({"weapons.sniper.fp": fp}, a={"weapons": ("sniper_rifle",)})
        ev = apply(st, RangedAttack("a1", "b1", "sniper_rifle"), ScriptedDice([9] * 3))
        assert len(roll_of(ev, "Sniper").data["dice"]) == fp


@pytest.mark.setting("weapons.hmg.damage")
def test_gap03_hmg_damage_in_the_attack() -> None:
    for dmg in (2, 3):
        st = duel({"weapons.hmg.damage": dmg}, a={"weapons": ("hmg",), "support": True})
        ev = apply(st, RangedAttack("a1", "b1", "hmg"), ScriptedDice([9] * 6))
        assert next(e for e in ev if e.type == "attack").data["damage"] == dmg


@pytest.mark.setting("melee.unarmed.fp", "melee.unarmed.damage")
def test_gap42_unarmed_fp_and_damage_of_a_defender_striking_back() -> None:
    """GAP-42: an unarmed defender strikes back with `melee.unarmed.fp` dice; its hits carry the unarmed Damage
    into the attacker's save (Armor 5 - Damage)."""
    for fp, dmg in ((1, 0), (2, 1)):
        st = duel({"melee.unarmed.fp": fp, "melee.unarmed.damage": dmg}, a={"weapons": ("knife",), "armor": 5},
                  bpos=(11.05, 11))
        ev = apply(st, MeleeAttack("a1", "b1", "knife"), ScriptedDice([9] + [2] * fp + [9] * 4))
        back = roll_of(ev, "defending with Unarmed")
        assert len(back.data["dice"]) == fp
        assert roll_of(ev, "armour saves").data["tn"] == 5 - dmg


# --- criticals (dice.py, context.py, attack.py) -----------------------------------------------------------

@pytest.mark.setting("crit.enabled")
def test_gap10_a_natural_1_is_a_critical_success_only_with_crits_enabled() -> None:
    """GAP-10: an attack rolling a natural 1 is a Critical Success (+1 action); `crit.enabled`=false: a plain hit."""
    for flag, crit in ((True, "success"), (False, "none")):
        st = duel({"crit.enabled": flag}, a={"weapons": ("assault_rifle",)})
        ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([1, 9, 9, 9, 9]))
        assert roll_of(ev, "Assault Rifle").data["crit"] == crit
        assert any(e.type == "extra_action" for e in ev) is flag


@pytest.mark.setting("crit.max_bonus_per_activation")
def test_turn6_cap_on_bonus_actions_from_criticals() -> None:
    """TURN-6: a Critical Success in the model's own activation gives +1 action unless the cap is reached."""
    for cap, extra in ((None, True), (0, False)):
        st = duel({"crit.max_bonus_per_activation": cap}, a={"weapons": ("assault_rifle",)})
        ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([1, 9, 9, 9, 9]))
        assert any(e.type == "extra_action" for e in ev) is extra
        assert st.activation is not None and st.activation.bonus == int(extra)


@pytest.mark.setting("crit.best_of_two")
def test_gap14_best_of_two_saves_read_criticals_on_the_kept_die_or_any_die() -> None:
    """GAP-14: a two-dice save rolling (10, 3) keeps the 3; the 10 is a Critical Failure (a Pin) only with
    `crit.best_of_two`=any_die."""
    for policy, crit in (("kept_die_only", "none"), ("any_die", "failure")):
        st = duel({"crit.best_of_two": policy}, a={"weapons": ("assault_rifle",)}, b={"armor": 5, "save_dice": 2})
        ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 9, 9, 10, 3, 9]))
        save = roll_of(ev, "armour saves")
        assert save.data["dice"] == [3] and save.data["crit"] == crit


# --- target numbers (modifiers.py, attack.py) --------------------------------------------------------------

WALL = TerrainPiece(3, "stone wall", rect(20.0, 9.0, 20.04, 13.0), 0.0, 1.0, cover=Cover.HARD)


@pytest.mark.setting("melee.cover")
def test_gap79_melee_cover_only_if_between_or_never() -> None:
    """GAP-79: a wall between two models in base contact gives melee cover (`only_if_between`); `never` drops it."""
    for policy, covered in (("only_if_between", True), ("never", False)):
        st = duel({"melee.cover": policy}, a={"weapons": ("knife",)}, apos=(19.5, 11), bpos=(20.55, 11),
                  pieces=(WALL,))
        ev = apply(st, MeleeAttack("a1", "b1", "knife"), ScriptedDice([9, 9]))
        assert ("Hard cover" in labels(roll_of(ev, "melee with Knife"))) is covered


@pytest.mark.setting("prone.melee_ca")
def test_gap89_a_prone_model_fights_back_at_the_prone_modifier() -> None:
    for mod in (-2, -1):
        st = duel({"prone.melee_ca": mod}, a={"weapons": ("knife",)}, b={"weapons": ("knife",)}, bpos=(11.05, 11))
        st.models["b1"].prone = True
        ev = apply(st, MeleeAttack("a1", "b1", "knife"), ScriptedDice([9, 9]))
        assert ["prone", mod, "GAP-89"] in roll_of(ev, "defending with Knife").data["breakdown"]


@pytest.mark.setting("knife_man.bonus_scope")
def test_knife_man_bonus_on_melee_saves_only_with_scope_all() -> None:
    """SKILL-6.1.KNIFE-MAN: +1 to melee attacks; `knife_man.bonus_scope`=all also +1 to its melee saves."""
    for scope, save in (("attack", 5), ("all", 6)):
        st = duel({"knife_man.bonus_scope": scope}, a={"weapons": ("knife",)},
                  b={"weapons": ("knife",), "skills": ("knife_man",), "armor": 5}, bpos=(11.05, 11))
        ev = apply(st, MeleeAttack("a1", "b1", "knife"), ScriptedDice([2, 9, 9, 9]))
        assert roll_of(ev, "armour saves").data["tn"] == save


@pytest.mark.setting("advances.caps.armor")
def test_gap62_armor_cap_limits_kevlar_plates() -> None:
    """GAP-62: Armor 8 with two Kevlar Plates reaches the cap 9 (+1); a cap of 10 lets both count (+2)."""
    for cap, kevlar in ((9, 1), (10, 2)):
        st = duel({"advances.caps.armor": cap}, a={"weapons": ("assault_rifle",)}, b={"armor": 8},
                  items={"b1": ["kevlar_plates", "kevlar_plates"]})
        ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 9, 9, 9, 9]))
        assert ["Kevlar Plates", kevlar, "EQUIP-6.2.KEVLAR"] in roll_of(ev, "armour saves").data["breakdown"]


@pytest.mark.setting("leader.self_bonus")
def test_gap36_leader_bonus_on_the_leaders_own_will_check_only_with_self_bonus() -> None:
    """GAP-36: the Leader's +1 goes to allies in its LOS; `leader.self_bonus`=true gives it to the Leader too."""
    for flag in (False, True):
        st = duel({"leader.self_bonus": flag}, a={"weapons": ("assault_rifle",)}, b={"armor": 5, "leader": True})
        ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 9, 9, 2, 9]))
        assert ("Leader in LOS" in labels(roll_of(ev, "Will check"))) is flag


# --- movement: the allowance and the cost of a path (stats.py, geometry/movement/cost.py) ------------------

def moved(st: GameState, to: tuple[float, float]):  # type: ignore[no-untyped-def]
    from game.core.actions import Move

    ev = apply(st, Move("a1", (to,)))
    return next(e for e in ev if e.type == "move")


@pytest.mark.setting("move.min")
def test_geo8_move_floor() -> None:
    """GEO-8: Move 1.5 - 1 (support weapon) = 0.5 is raised to `move.min` (1"): allowance 1 + 1" base = 2"."""
    for floor, allowance in ((1.0, 2.0), (0.0, 1.5)):
        st = duel({"move.min": floor}, a={"move": 1.5, "support": True})
        assert moved(st, (10.2, 11)).data["allowance"] == allowance


@pytest.mark.setting("wounded.move_round")
def test_gap91_halved_movement_rounding() -> None:
    """GAP-91: a wounded two-wound model with Move 5 moves 2.5" (`none`) or 3" (`up`), + 1" base."""
    for rounding, allowance in (("none", 3.5), ("up", 4.0)):
        st = duel({"wounded.move_round": rounding}, a={"move": 5.0, "wounds": 2})
        st.models["a1"].wounds_taken = 1
        assert moved(st, (10.2, 11)).data["allowance"] == allowance


@pytest.mark.setting("env.rain_move")
def test_gap59_rainstorm_movement_loss() -> None:
    for loss, allowance in ((1.0, 6.0), (2.0, 5.0)):
        st = duel({"env.enabled": True, "env.rain_move": loss})
        st.environment = "rainstorm"
        assert moved(st, (10.2, 11)).data["allowance"] == allowance


MUD = TerrainPiece(4, "mud", rect(11.0, 9.0, 13.0, 13.0), 0.0, 0.0, cover=Cover.NONE,
                   movement=__import__("game.core.battlefield", fromlist=["Movement"]).Movement.DIFFICULT)
LOG = TerrainPiece(5, "log", rect(11.0, 9.0, 11.3, 13.0), 0.0, 0.5, cover=Cover.OBSTRUCTION)


@pytest.mark.setting("move.difficult_mult")
def test_gap85_difficult_terrain_multiplies_the_cost() -> None:
    """GAP-85: 4" of path with 2" in mud costs 2 + 2 x 2 = 6"; with `move.difficult_mult`=1.5, 2 + 3 = 5"."""
    for mult, cost in ((2.0, 6.0), (1.5, 5.0)):
        st = duel({"move.difficult_mult": mult}, pieces=(MUD,))
        assert moved(st, (14.0, 11)).data["cost"] == pytest.approx(cost)


@pytest.mark.setting("move.low_obstacle_extra")
def test_geo8_low_obstacle_extra_cost() -> None:
    """GEO-8: stepping over an obstacle at most 1" high costs nothing extra by default; the setting adds to it."""
    for extra, cost in ((0.0, 4.0), (1.0, 5.0)):
        st = duel({"move.low_obstacle_extra": extra}, pieces=(LOG,))
        assert moved(st, (14.0, 11)).data["cost"] == pytest.approx(cost)


# --- range and sight in the environment (turnrolls.py, queries.py) ------------------------------------------

@pytest.mark.setting("env.rain_range_mult")
def test_gap59_rainstorm_shortens_maximum_ranges() -> None:
    """GAP-59: an AK (36") at 20" in a Rainstorm: x0.5 = 18" is out of range; x0.75 = 27" is in range."""
    st = duel({"env.enabled": True}, a={"weapons": ("assault_rifle",)}, bpos=(31, 11))
    st.environment = "rainstorm"
    with pytest.raises(IllegalAction, match="beyond the maximum range.*1-18"):
        apply(st, RangedAttack("a1", "b1", "assault_rifle"))
    st = duel({"env.enabled": True, "env.rain_range_mult": 0.75}, a={"weapons": ("assault_rifle",)}, bpos=(31, 11))
    st.environment = "rainstorm"
    ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([9, 9, 9]))
    assert next(e for e in ev if e.type == "attack").data["distance"] == pytest.approx(20.0)


@pytest.mark.setting("env.darkness_los")
def test_gap59_sudden_darkness_limits_sight() -> None:
    """GAP-59: in Sudden Darkness a target 14" away is not seen (12"); with `env.darkness_los`=16 it is."""
    st = duel({"env.enabled": True}, a={"weapons": ("assault_rifle",)}, bpos=(25, 11))
    st.environment = "sudden_darkness"
    with pytest.raises(IllegalAction) as err:
        apply(st, RangedAttack("a1", "b1", "assault_rifle"))
    assert err.value.rule == "COMBAT-4.1.REQUIREMENTS"
    st = duel({"env.enabled": True, "env.darkness_los": 16.0}, a={"weapons": ("assault_rifle",)}, bpos=(25, 11))
    st.environment = "sudden_darkness"
    assert rolls(apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([9, 9, 9])))


# --- the turn limit (turnrolls.py, GAP-48) ---------------------------------------------------------------

def turn_limit(settings: dict, *, table: tuple[float, float] = (36.0, 36.0), d6: int = 3) -> int:
    from game.core.rules.context import Ctx
    from game.core.rules.turnrolls import roll_turn_limit

    st = game([("a1", "a", profile(), (2, 2)), ("b1", "b", profile(), (20, 20))], settings=settings, table=table)
    ctx = Ctx(st, ScriptedDice([d6]), st.battlefield)
    limit = roll_turn_limit(ctx, None)
    event = next(e for e in ctx.events if e.type == "turn_limit")
    assert event.data["turn_limit"] == limit and event.data["d3"] == 2
    return limit


@pytest.mark.setting("mission.turn_limit.small_base", "mission.turn_limit.large_base",
                     "mission.turn_limit.max_small_side", "mission.turn_limit.large_players")
def test_gap48_turn_limit_bases_table_size_and_players() -> None:
    """GAP-48: 4 + D3 on a 36" table, 6 + D3 on a 60" one (D6 3 -> D3 2); each number is its setting."""
    assert turn_limit({}) == 6 and turn_limit({"mission.turn_limit.small_base": 5}) == 7
    assert turn_limit({}, table=(60.0, 36.0)) == 8
    assert turn_limit({"mission.turn_limit.large_base": 7}, table=(60.0, 36.0)) == 9
    assert turn_limit({"mission.turn_limit.max_small_side": 60.0}, table=(60.0, 36.0)) == 6
    assert turn_limit({"mission.turn_limit.large_players": 2}) == 8


# --- Med-Kits, Electric Juice and Pins (wounds.py, items.py, phases.py, dispatch.py) ----------------------

def wounded(st: GameState, model: str, n: int) -> list:
    """n Wounds from one round (the round's Med-Kit decisions follow)."""
    from game.core.rules.context import Ctx
    from game.core.rules.wounds import inflict_wounds

    ctx = Ctx(st, ScriptedDice([]), st.battlefield)
    st.round_counter += 1
    inflict_wounds(ctx, model, n, st.round_counter)
    return ctx.events


def kit_game(settings: dict, *, skills: tuple[str, ...] = (), wounds: int = 1, kits: int = 1) -> GameState:
    return game([("m", "a", profile(skills=skills, wounds=wounds, actions=3), (10, 10)),
                 ("e", "b", profile(), (30, 30))], items={"m": ["medkit"] * kits}, settings=settings)


@pytest.mark.setting("medkit.pins", "medkit.pins_bone_doc")
def test_tv27_a_dressed_wound_becomes_the_settings_pins() -> None:
    """TV-27 / COMBAT-4.4.MEDKIT-SELF: a dressed Wound becomes 2 Pins (a Bone Doc's 1); each is its setting."""
    from game.core.actions import UseItem

    for settings, skills, pins in (({}, (), 2), ({"medkit.pins": 1}, (), 1), ({}, ("bone_doc",), 1),
                                   ({"medkit.pins_bone_doc": 0}, ("bone_doc",), 0)):
        st = kit_game(settings, skills=skills)
        wounded(st, "m", 1)
        apply(st, UseItem("m", "medkit"))
        assert st.units["m"].pins == pins and st.models["m"].wounds_taken == 0, (settings, skills)


@pytest.mark.setting("medkit.max_per_round")
def test_tv27_kits_dress_at_most_the_settings_wounds_of_one_round() -> None:
    """COMBAT-4.4.MEDKIT-MULTI: two Wounds in one round, two kits: both may be dressed; with `medkit.max_per_round`=1
    the decision closes after the first kit and the second Wound stays (the Two-Wound Rule applies)."""
    from game.core.actions import UseItem

    st = kit_game({}, wounds=2, kits=2)
    wounded(st, "m", 2)
    apply(st, UseItem("m", "medkit"))
    assert st.phase is Phase.MEDKIT
    apply(st, UseItem("m", "medkit"))
    assert st.models["m"].wounds_taken == 0
    st = kit_game({"medkit.max_per_round": 1}, wounds=2, kits=2)
    wounded(st, "m", 2)
    ev = apply(st, UseItem("m", "medkit"))
    assert st.phase is not Phase.MEDKIT and "two_wound_rule" in [e.type for e in ev]
    assert st.models["m"].wounds_taken == 1 and st.models["m"].items == ["medkit"]


@pytest.mark.setting("medkit.ally_cost")
def test_medkit_on_an_ally_costs_the_settings_actions() -> None:
    """COMBAT-4.4.MEDKIT-ALLY: reviving an Out of Action ally in base contact spends `medkit.ally_cost` actions."""
    from game.core.actions import DeclineMedKit, UseItem

    for cost in (1, 2):
        st = game([("m", "a", profile(), (10, 10)), ("doc", "a", profile(actions=3), (11.05, 10)),
                   ("e", "b", profile(), (30, 30))], items={"doc": ["medkit"]}, settings={"medkit.ally_cost": cost})
        wounded(st, "m", 1)
        if st.wound_queue:
            apply(st, DeclineMedKit("m"))
        activate(st, "doc")
        apply(st, UseItem("doc", "medkit", "m"))
        assert not st.models["m"].ooa
        assert st.activation is not None and st.activation.spent == cost


@pytest.mark.setting("ej.use_cost")
def test_gap31_electric_juice_costs_the_settings_actions() -> None:
    from game.core.actions import UseItem

    for cost in (0, 1):
        st = game([("j", "a", profile(actions=2), (10, 10)), ("b1", "b", profile(), (26, 26))],
                  items={"j": ["electric_juice"]}, settings={"ej.use_cost": cost})
        activate(st, "j")
        apply(st, UseItem("j", "electric_juice"))
        assert st.activation is not None and (st.activation.budget, st.activation.spent) == (4, cost)


@pytest.mark.setting("ej.hangover_budget")
def test_gap31_the_hangover_turn_has_the_settings_actions() -> None:
    """GAP-31: the turn after a dose the model has 1 action (`ej.hangover_budget`)."""
    for budget in (1, 0):
        st = game([("j", "a", profile(actions=2), (10, 10)), ("b1", "b", profile(), (26, 26))],
                  settings={"ej.hangover_budget": budget})
        st.units["j"].ej_hangover = True
        ev = activate(st, "j")
        start = next(e for e in ev if e.type == "activation_start")
        assert start.data["budget"] == budget and start.data["hangover"] is True


@pytest.mark.setting("pin.allowed")
def test_pin_lock_lets_a_pinned_model_dress_itself_only_if_listed() -> None:
    """COMBAT-4.4.PIN-LOCK: a Pinned model may Rally or (listed by default) dress its own delayed Wound."""
    from game.core.actions import UseItem

    for allowed, ok in ((["Rally", "self_medkit"], True), (["Rally"], False)):
        st = game([("m", "a", profile(wounds=2, actions=2), (10, 10)), ("e", "b", profile(), (30, 30))],
                  items={"m": ["medkit"]}, settings={"pin.allowed": allowed})
        st.models["m"].wounds_taken = 1
        st.units["m"].pins = 1
        activate(st, "m")
        if ok:
            apply(st, UseItem("m", "medkit"))
            assert st.models["m"].wounds_taken == 0
        else:
            with pytest.raises(IllegalAction, match="may only Rally") as err:
                apply(st, UseItem("m", "medkit"))
            assert err.value.rule == "COMBAT-4.4.PIN-LOCK"


# --- cover and Will in the resolver (geometry/sight/cover.py, modifiers.py) --------------------------------

ROOF = TerrainPiece(6, "roof", rect(8.0, 9.0, 12.0, 13.0), 0.0, 3.0, cover=Cover.NONE, surface=True)
HEDGE = TerrainPiece(7, "split-log fence", rect(14.0, 9.0, 14.5, 13.0), 0.0, 0.75, cover=Cover.OBSTRUCTION)


@pytest.mark.setting("elev.ignore_obstructions")
def test_gap82_an_elevated_attacker_ignores_obstructions_only_with_the_setting() -> None:
    """GAP-82 / GEO-14: shooting from a 3" roof over a fence: the obstruction's -1 vanishes by default and counts
    with `elev.ignore_obstructions`=false."""
    for flag, counted in ((True, False), (False, True)):
        st = duel({"elev.ignore_obstructions": flag}, a={"weapons": ("assault_rifle",)}, apos=(10, 11, 3.0),
                  bpos=(20.55, 11), pieces=(ROOF, HEDGE))
        ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([9, 9, 9]))
        assert ("1 obstruction(s)" in labels(roll_of(ev, "Assault Rifle"))) is counted
        assert next(e for e in ev if e.type == "attack").data["obstructions"] == int(counted)


@pytest.mark.setting("wounded.will_stack")
def test_gap91_wounds_sustained_lower_the_deflection_will_only_when_stacking() -> None:
    """GAP-91: a two-wound model with one Wound takes -1 (Two-Wound Rule) and, stacking, -1 per Wound sustained."""
    for flag, tn in ((True, 3), (False, 4)):
        st = duel({"wounded.will_stack": flag}, a={"weapons": ("assault_rifle",)}, b={"armor": 5, "will": 5,
                                                                                     "wounds": 2})
        st.models["b1"].wounds_taken = 1
        ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 9, 9, 2, 9]))
        will = roll_of(ev, "Will check")
        assert will.data["tn"] == tn
        assert ("Wounds sustained" in labels(will)) is flag


BUNKER = TerrainPiece(8, "bunker wall", rect(20.0, 9.0, 20.04, 13.0), 0.0, 1.0, cover=Cover.HARDENED)


@pytest.mark.setting("pin.cover_bonus_hardened")
def test_gap81_pinned_behind_hardened_cover_armor_bonus() -> None:
    """COMBAT-4.4.PIN-COVER / GAP-81: a Pinned model behind Hardened cover adds +3 Armor against direct fire
    (`pin.cover_bonus_hardened`; alternative 2)."""
    for bonus in (3, 2):
        st = duel({"pin.cover_bonus_hardened": bonus}, a={"ca": 9, "weapons": ("assault_rifle",)}, b={"armor": 3},
                  bpos=(20.55, 11), pieces=(BUNKER,))
        st.units["b1"].pins = 1
        ev = apply(st, RangedAttack("a1", "b1", "assault_rifle"), ScriptedDice([2, 9, 9, 9, 9]))
        breakdown = roll_of(ev, "armour saves").data["breakdown"]
        assert any(b[0].startswith("Pinned in") and b[1] == bonus for b in breakdown), breakdown


# --- the odds command's model check (odds_cli.py) -----------------------------------------------------------

@pytest.mark.setting("skills.max")
def test_gap40_a_model_with_more_skills_than_the_cap_is_refused() -> None:
    """GAP-40 / SKILL-6.1.LIMIT: three Skills are refused under `skills.max`=2 and accepted under 3."""
    from game.odds_cli import SpecError, check_spec

    spec = {"weapon": "assault_rifle", "target_skills": ["hard", "hustle", "knife_man"]}
    with pytest.raises(SpecError, match="more than 2 Skills"):
        check_spec(spec)
    assert check_spec(spec, settings=Settings({"skills.max": 3})).target_skills == ("hard", "hustle", "knife_man")
