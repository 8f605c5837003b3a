"""Grenades, blast weapons and the flame with scripted dice: the house settings they read flipped one by one, and
the readings RULES.md states for them (GAP-70 with GEO-5, GAP-72..75, ARMORY-5.1.BURN, COMBAT-4.3.KICK-RANGED)."""
from __future__ import annotations

import math

import pytest

from game.core.actions import Aim, FlameAttack, IllegalAction, RangedAttack, ThrowGrenade
from game.core.battlefield import Cover, Movement
from game.core.dice import ScriptedDice
from game.core.events import Event
from game.core.geometry.sight.los import line_of_sight
from game.core.rules.apply import apply, validate
from game.core.rules.context import settings_of
from game.core.settings import Settings, SettingsError
from game.core.state import GameState, Phase
from tests.core.rules.test_combat import HEDGE, WALL, piece
from tests.enginekit import activate, game, profile, types


def rolls(events: list, what: str = "") -> list:
    return [e for e in events if e.type == "roll" and e.data["what"].startswith(what)]


def burns(events: list) -> list:
    return rolls(events, "Burn save")


def labels(event: Event) -> list[str]:
    return [b[0] for b in event.data["breakdown"]]


def template_effects(events: list) -> dict[str, str]:
    tmpl = [e for e in events if e.type == "template"]
    return {m["model"]: m["effect"] for m in tmpl[0].data["models"]} if tmpl else {}


def flame_game(settings: dict | None = None, *, target: dict | None = None, extra: tuple = (), pieces: tuple = (),
               items: dict | None = None) -> GameState:
    """a1 with a flame thrower at (10, 11) pointing along +x (tip at 10.5; the teardrop reaches 18.5); b1 at 15."""
    st = game([("a1", "a", profile(ca=5, actions=3, weapons=("flame_thrower",)), (10, 11)),
               ("b1", "b", profile(**(target or {"armor": 5})), (15.0, 11))] + list(extra),
              settings=settings, pieces=pieces, items=items)
    activate(st, "a1")
    return st


FLAME = FlameAttack("a1", "flame_thrower", 0.0)
BUSH = piece(21, "bush", 12.0, 10.0, 12.4, 12.0, 0.75, cover=Cover.SOFT)  # between the flame's tip and b1


# --- GAP-73: the flame (`flame.*`) --------------------------------------------------------------------


@pytest.mark.setting("flame.auto_hit")
def test_gap73_flame_auto_hit_false_rolls_to_hit_at_the_flames_tn():
    """GAP-73 `flame.auto_hit`: by default the flame never rolls (FP NA); false gives one to-hit die at the flame's
    TN (CA 5, +1 for Aim, GAP-117): a 6 hits and b1 burns, a 7 misses and the flame touches nobody."""
    st = flame_game()
    ev = apply(st, FLAME, ScriptedDice([9]))
    assert not rolls(ev, "Flame Thrower") and len(burns(ev)) == 1

    for die, hit in ((6, True), (7, False)):
        st = flame_game({"flame.auto_hit": False})
        apply(st, Aim("a1"), ScriptedDice([]))
        ev = apply(st, FLAME, ScriptedDice([die, 9]))
        to_hit = rolls(ev, "Flame Thrower / Chemical Sprayer to hit")
        assert [r.data["tn"] for r in to_hit] == [6] and labels(to_hit[0]) == ["CA", "Aim"]
        assert bool(burns(ev)) is hit and ("flame_miss" in types(ev)) is not hit
        assert st.models["a1"].ammo["flame_thrower"] == 4  # the miss still spends the shot


@pytest.mark.setting("flame.friendly")
def test_gap73_flame_friendly_false_spares_the_attackers_friends():
    """GAP-73 `flame.friendly`: friends under the flame burn by default; with false only the enemy b1 does."""
    friend = ("a2", "a", profile(armor=5), (16.5, 12.4))
    st = flame_game(extra=(friend,))
    ev = apply(st, FLAME, ScriptedDice([9, 9]))
    assert [b.data["who"] for b in burns(ev)] == ["b1", "a2"] and st.models["a2"].ooa
    st = flame_game({"flame.friendly": False}, extra=(friend,))
    ev = apply(st, FLAME, ScriptedDice([9]))
    assert [b.data["who"] for b in burns(ev)] == ["b1"] and not st.models["a2"].ooa
    assert next(e for e in ev if e.type == "template_spared").data["models"] == ["a2"]
    assert template_effects(ev) == {"b1": "affected", "a2": "spared"}


@pytest.mark.setting("flame.soft_save_bonus")
@pytest.mark.parametrize("bonus, tn", [(None, 4), (3, 5), (0, 2)])
def test_gap73_flame_soft_save_bonus(bonus: int | None, tn: int):
    """GAP-73 `flame.soft_save_bonus`: soft cover between the tip and the model adds the setting (default +2) to its
    Burn save: Armor 5 - Damage 3 = 2, so 4 by default, 5 with 3, and no modifier with 0."""
    st = flame_game(None if bonus is None else {"flame.soft_save_bonus": bonus}, pieces=(BUSH,))
    ev = apply(st, FLAME, ScriptedDice([1, 2]))
    assert template_effects(ev) == {"b1": "soft_cover"}
    save = burns(ev)[0]
    assert save.data["tn"] == tn and ("soft cover vs flame" in labels(save)) is (bonus != 0)


@pytest.mark.setting("flame.blocked_by")
def test_gap73_flame_blocked_by_soft_terrain_shields():
    """GAP-73 `flame.blocked_by`: with "soft" in the list a bush between the tip and b1 shields it (no Burn)."""
    st = flame_game({"flame.blocked_by": ["blocks_los", "hard", "hardened", "soft"]}, pieces=(BUSH,))
    ev = apply(st, FLAME, ScriptedDice([]))
    assert template_effects(ev) == {"b1": "shielded"} and not burns(ev)


# --- GAP-74: the Burn (`burn.*`) --------------------------------------------------------------------------


@pytest.mark.setting("burn.stop_on_save")
def test_gap74_burn_stop_on_save_false_is_refused():
    """GAP-74 `burn.stop_on_save`: RULES.md states no Burn that goes on after a passed save (ARMORY-5.1.BURN: "until
    it passes one or runs out of Wounds"), so false is refused by the settings loader (a `--set`, a scenario or a
    loaded record), never silently played; the default plays the chain that stops at the first success."""
    with pytest.raises(SettingsError, match="burn.stop_on_save.*goes on after a passed save"):
        Settings({"burn.stop_on_save": False})
    Settings({"burn.stop_on_save": True})


@pytest.mark.setting("burn.deflection_will")
@pytest.mark.parametrize("flag", [True, False])
def test_gap74_burn_deflection_will(flag: bool):
    """GAP-74 `burn.deflection_will`: a passed Burn save is a deflection and calls for one Will check; with false
    the chain just ends."""
    st = flame_game({"burn.deflection_will": flag}, target={"armor": 5, "will": 5})
    ev = apply(st, FLAME, ScriptedDice([2, 9] if flag else [2]))
    assert "burn_out" in types(ev)
    assert len(rolls(ev, "Will check")) == (1 if flag else 0)


@pytest.mark.setting("burn.medkit_between")
@pytest.mark.parametrize("flag", [True, False])
def test_gap74_burn_medkit_between(flag: bool):
    """GAP-74 `burn.medkit_between`: a failed Burn save on a model with a Med-Kit waits for its decision before the
    next roll; with false the Wound settles at once and the next save follows, the kit unused."""
    st = flame_game({"burn.medkit_between": flag}, target={"armor": 5, "wounds": 2, "will": 5},
                    items={"b1": ["medkit"]})
    ev = apply(st, FLAME, ScriptedDice([9] if flag else [9, 2, 2]))
    if flag:
        assert st.phase is Phase.MEDKIT and len(burns(ev)) == 1
    else:
        assert st.phase is Phase.ACTION and len(burns(ev)) == 2 and "burn_out" in types(ev)
        assert st.models["b1"].items == ["medkit"] and st.models["b1"].wounds_taken == 1


def test_gap74_burn_saves_are_one_roll_for_criticals():
    """GAP-74 / INTRO-1.2.CRIT-PER-ROUND: two natural 10s in one Burn give one crit Pin, not two (TN 2 saves; the
    deflection check at Will 5 - 1 - 2 = 2 passes on the 2)."""
    st = flame_game(target={"armor": 5, "wounds": 3, "will": 5})
    ev = apply(st, FLAME, ScriptedDice([10, 10, 2, 2]))
    assert [b.data["crit"] for b in burns(ev)] == ["failure", "none", "none"]
    assert [b.data["burn_crit"] for b in burns(ev)] == ["failure", "failure", "failure"]
    assert [e.data["added"] for e in ev if e.type == "pinned"] == [1] and st.units["b1"].pins == 1


def test_gap74_burn_critical_mix_is_judged_on_the_dice_so_far():
    """GAP-74 / INTRO-1.2.CRIT-MIX: a 10 (Pin) then a 1 make the Burn a Critical Mix: the 1 gives no extra action;
    a lone 1 does (banked for the unit's own activation, GAP-12)."""
    st = flame_game(target={"armor": 5, "wounds": 2, "will": 5})
    ev = apply(st, FLAME, ScriptedDice([10, 1, 2]))
    assert [b.data["crit"] for b in burns(ev)] == ["failure", "mix"] and "burn_out" in types(ev)
    assert "extra_action" not in types(ev) and st.units["b1"].pins == 1
    st = flame_game(target={"armor": 5, "wounds": 2, "will": 5})
    ev = apply(st, FLAME, ScriptedDice([1, 2]))
    assert "extra_action" in types(ev) and st.units["b1"].bonus_banked == 1


def test_gap74_gap11_a_mix_so_far_compares_the_one_with_the_tn():
    """GAP-74 with GAP-11 (`crit.mix_keeps_auto`=false): improvised armour (3) against Damage 3 saves on TN 0; after
    a 10, a 1 is compared with the TN like any die of a mix and fails: the two-Wound model goes Out of Action."""
    st = flame_game(target={"armor": 3, "armour": "improvised", "wounds": 2, "will": 5})
    ev = apply(st, FLAME, ScriptedDice([10, 1]))
    assert [(b.data["tn"], b.data["successes"]) for b in burns(ev)] == [(0, 0), (0, 0)]
    assert st.models["b1"].ooa and "burn_out" not in types(ev)


# --- GAP-75: the template deflection check's cover Will bonus -------------------------------------------------


@pytest.mark.parametrize("bush_x, will_tn", [((19.0, 19.45), 6), ((18.8, 19.2), 5)])
def test_gap75_template_will_cover_only_from_a_soft_piece_in_base_contact(bush_x: tuple, will_tn: int):
    """GAP-75: a bush between the blast centre and b1 gives +2 to its save (GEO-16); its deflection Will check gets
    the soft cover Will bonus (+1) only when b1's base touches that bush (GEO-12 contact), not 0.3" away."""
    bush = piece(22, "bush", bush_x[0], 10.0, bush_x[1], 12.0, 0.75, cover=Cover.SOFT)
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=5, will=5), (20, 11))],
              pieces=(bush,), grenades={"a1": {"hand_grenade": 1}})
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "hand_grenade", 18.6, 11.0), ScriptedDice([2, 3, 9]))
    assert template_effects(ev) == {"b1": "soft_cover"}
    assert rolls(ev, "armour save")[0].data["tn"] == 5
    will = rolls(ev, "Will check")[0].data
    assert will["tn"] == will_tn
    cited = [b[2] for b in will["breakdown"] if b[0] != "Will"]
    assert cited == (["GAP-75"] if will_tn == 6 else [])  # the bonus cites GAP-75, not the direct-fire table


def test_gap75_template_will_check_gets_no_bonus_from_a_piece_not_between():
    """GAP-75: a hedge b1 stands against but that is not between the blast and b1 gives no cover Will bonus."""
    hedge = piece(23, "hedge", 20.5, 10.0, 20.9, 12.0, 0.75, cover=Cover.SOFT)  # behind b1, in contact
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=5, will=5), (20, 11))],
              pieces=(hedge,), grenades={"a1": {"hand_grenade": 1}})
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "hand_grenade", 18.6, 11.0), ScriptedDice([2, 3, 9]))
    assert template_effects(ev) == {"b1": "affected"}
    assert rolls(ev, "Will check")[0].data["tn"] == 5


def test_skill_leader_bonus_in_a_template_will_check_needs_the_leader_standing():
    """SKILL-6.1.LEADER / GAP-75: an ally's template deflection check has the Leader bonus while the Leader, under
    the same grenade, is still in play when it is taken; all saves come first, so a Leader downed by that grenade
    gives none."""
    for lead_save, will_tn in ((2, 6), (9, 5)):
        st = game([("a1", "a", profile(ca=5), (10, 11)),
                   ("b1", "b", profile(armor=5, will=5), (20, 11)),
                   ("lead", "b", profile(armor=5, will=5, leader=True), (20, 12.2))],
                  grenades={"a1": {"hand_grenade": 1}})
        activate(st, "a1")
        ev = apply(st, ThrowGrenade("a1", "hand_grenade", 20.0, 11.6), ScriptedDice([2, 3, lead_save, 9, 9]))
        checks = {r.data["who"]: r.data["tn"] for r in rolls(ev, "Will check")}
        assert checks["b1"] == will_tn, (lead_save, checks)
        assert st.models["lead"].ooa is (lead_save == 9)


# --- GAP-70 with GEO-5: a throw at a model is an attack on it ---------------------------------------------


def throw_tn(st: GameState, x: float, y: float, dice: list) -> Event:
    ev = apply(st, ThrowGrenade("a1", "hand_grenade", x, y), ScriptedDice(dice))
    return rolls(ev, "Hand Grenade")[0]


@pytest.mark.parametrize("dy", [0.0, 0.3, 0.499])
def test_gap70_a_throw_anywhere_on_a_base_keeps_its_cover_and_obstructions(dy: float):
    """GAP-70 ("normal modifiers"): aimed at any point of b1's base, the throw is an attack on b1: the split-log
    fence between counts -1 (GEO-13) and the stone wall b1 stands against is its Hard cover (CORE-3.6.TABLE), off
    the centre as at it."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=5), (20.55, 11))],
              pieces=(HEDGE, WALL), grenades={"a1": {"hand_grenade": 1}})
    activate(st, "a1")
    roll = throw_tn(st, 20.55, 11.0 + dy, [1, 9])
    assert labels(roll) == ["CA", "1 obstruction(s)", "Hard cover", "Obscured"]
    assert roll.data["tn"] == 2


def test_gap70_kick_ranged_a_throw_at_a_pinned_model_is_at_minus_two():
    """GAP-70 / COMBAT-4.3.KICK-RANGED: a throw aimed at a Pinned model (off its centre too) gets -2; a throw at
    an empty point beside it does not."""
    st = game([("a1", "a", profile(ca=5, actions=3), (10, 11)), ("b1", "b", profile(armor=5), (20, 11))],
              grenades={"a1": {"hand_grenade": 3}})
    st.units["b1"].pins = 1
    activate(st, "a1")
    assert labels(throw_tn(st, 20.2, 11.2, [2, 9])) == ["CA", "Pinned target"]
    assert labels(throw_tn(st, 20.0, 12.0, [2, 9])) == ["CA"]  # 1" from the centre: off the base


def test_gap70_geo5_range_to_a_model_is_edge_to_edge_to_a_point_model_to_point():
    """GAP-70 / GEO-5 / GEO-4: b1's centre is 18.4" from the thrower's edge, its near edge 17.9": aimed at b1 (even
    at its far side) the 18" grenade reaches; an empty point 18.4" away is out of range. The minimum range is
    measured to the base the same way: a Molotov (1-18") at a model whose edge is 0.5" away is too close even
    aimed at its far side, 1.5" from the thrower."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=5), (28.9, 11)),
               ("b2", "b", profile(armor=5), (10, 12.5))], grenades={"a1": {"hand_grenade": 1, "molotov": 1}})
    activate(st, "a1")
    validate(st, ThrowGrenade("a1", "hand_grenade", 28.9, 11.0))
    validate(st, ThrowGrenade("a1", "hand_grenade", 29.35, 11.0))
    with pytest.raises(IllegalAction) as ei:
        validate(st, ThrowGrenade("a1", "hand_grenade", 10.0, 11.0 + 18.9))
    assert ei.value.rule == "GEO-5"
    with pytest.raises(IllegalAction) as ei:
        validate(st, ThrowGrenade("a1", "molotov", 10.0, 12.95))
    assert ei.value.rule == "GEO-5"


# --- GAP-72 smoke (`smoke.*`), GAP-93 (`ooa.targetable`), GAP-71 (`deviation.distance`) ----------------


def smoke_game(settings: dict | None = None, *, pieces: tuple = (), extra: tuple = ()) -> GameState:
    st = game([("a1", "a", profile(ca=5, weapons=("assault_rifle",)), (10, 11, 2.0)),
               ("b1", "b", profile(will=5), (20, 11, 2.0))] + list(extra),
              pieces=pieces, grenades={"a1": {"smoke": 1}}, settings=settings)
    activate(st, "a1")
    return st


DECKS = (piece(31, "deck", 8.0, 9.0, 12.0, 13.0, 2.0, cover=Cover.NONE, surface=True, movement=Movement.IMPASSABLE),
         piece(32, "deck", 18.0, 9.0, 22.0, 13.0, 2.0, cover=Cover.NONE, surface=True, movement=Movement.IMPASSABLE))


@pytest.mark.setting("smoke.height")
@pytest.mark.parametrize("height, seen", [(None, True), (5.0, False)])
def test_gap72_smoke_height_decides_who_sees_over_the_cloud(height: float | None, seen: bool):
    """GAP-72 / GEO-10 `smoke.height`: two models on 2" decks see each other over a 3" cloud between them (their eyes
    at 3.25"), not over a 5" one."""
    st = smoke_game(None if height is None else {"smoke.height": height}, pieces=DECKS)
    apply(st, ThrowGrenade("a1", "smoke", 15.0, 11.0), ScriptedDice([1]))
    assert st.smoke[0]["height"] == (height or 3.0)
    fact = line_of_sight(st.battlefield, st.scene(), "a1", "b1", settings=settings_of(st))
    assert fact.visible is seen


@pytest.mark.setting("smoke.duration")
@pytest.mark.parametrize("duration, lasts", [("until_end_of_next_turn", 1), ("end_of_turn", 0)])
def test_gap72_smoke_duration(duration: str, lasts: int):
    """GAP-72 / TURN-9 `smoke.duration`: the cloud clears after the next turn, or at the end of this one."""
    st = smoke_game({"smoke.duration": duration})
    apply(st, ThrowGrenade("a1", "smoke", 15.0, 11.0), ScriptedDice([1]))
    assert st.smoke[0]["expires_after_turn"] == st.turn + lasts


@pytest.mark.setting("smoke.will_mod", "smoke.fail_pins")
@pytest.mark.parametrize("settings, tn, pins", [({}, 3, 1), ({"smoke.will_mod": -3, "smoke.fail_pins": 2}, 2, 2)])
def test_gap72_smoke_will_check_modifier_and_pins(settings: dict, tn: int, pins: int):
    """GAP-72 `smoke.will_mod` / `smoke.fail_pins`: a model caught checks Will 5 at -2 (default) and takes 1 Pin on
    a failure; at -3 and 2 Pins with the settings."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(will=5), (20, 11))],
              grenades={"a1": {"smoke": 1}}, settings=settings)
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "smoke", 20.0, 11.0), ScriptedDice([2, 4]))
    assert rolls(ev, "Will check in smoke")[0].data["tn"] == tn and st.units["b1"].pins == pins


@pytest.mark.setting("ooa.targetable")
@pytest.mark.parametrize("setting, dead", [("templates_and_melee", True), ("never", False)])
def test_gap93_ooa_targetable_a_template_over_an_out_of_action_figure(setting: str, dead: bool):
    """GAP-93 `ooa.targetable`: an OOA figure under a grenade is hit and, wounded in another round, dies; with
    "never" the template passes it by (it is not even listed as touched)."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=5), (20, 11))],
              grenades={"a1": {"hand_grenade": 1}}, settings={"ooa.targetable": setting})
    st.models["b1"].ooa = True
    st.models["b1"].wounds_taken = 1
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "hand_grenade", 20.0, 11.0), ScriptedDice([2]))
    assert st.models["b1"].dead is dead and ("b1" in template_effects(ev)) is dead


@pytest.mark.setting("deviation.distance")
@pytest.mark.parametrize("rule, inches", [("roll/2", 3.5), ("roll*2", 14.0), ("roll", 7.0)])
def test_gap71_deviation_distance(rule: str, inches: float):
    """GAP-71 / GEO-18 `deviation.distance`: a miss with a deviation roll of 7 drifts 3.5" (roll/2), 14" or 7"."""
    st = game([("a1", "a", profile(ca=5), (10, 11)), ("b1", "b", profile(armor=5), (20, 11))],
              grenades={"a1": {"hand_grenade": 1}}, settings={"deviation.distance": rule})
    activate(st, "a1")
    ev = apply(st, ThrowGrenade("a1", "hand_grenade", 20.0, 11.0), ScriptedDice([9, 7, math.pi / 2]))
    dev = next(e for e in ev if e.type == "deviation").data
    assert dev["distance"] == inches and dev["point"] == pytest.approx([20.0, 11.0 + inches])


def test_ranged_attack_through_smoke_is_refused_as_before():
    """GAP-72: the default 3" cloud between two ground models blocks the shot (COMBAT-4.1.REQUIREMENTS)."""
    st = game([("a1", "a", profile(ca=5, weapons=("assault_rifle",)), (10, 11)), ("b1", "b", profile(), (20, 11))],
              grenades={"a1": {"smoke": 1}})
    activate(st, "a1")
    apply(st, ThrowGrenade("a1", "smoke", 15.0, 11.0), ScriptedDice([1]))
    with pytest.raises(IllegalAction) as ei:
        validate(st, RangedAttack("a1", "b1", "assault_rifle"))
    assert ei.value.rule == "COMBAT-4.1.REQUIREMENTS"
