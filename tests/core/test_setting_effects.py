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
from game.core.state import GameState
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
