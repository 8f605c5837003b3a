"""Multi-model units move (CORE-3.7, GEO-21, GEO-8, TURN-7, HOSTILE-8.3.NO-TRIGGER): each model its own path, cohesion
at the end, one action and one interrupt window, hostile paths never trigger a location; Move/Climb/Jump JSON."""
from __future__ import annotations

import dataclasses
import functools

import pytest

from game.core.actions import Climb, DeclineInterrupt, IllegalAction, Interrupt, Jump, Move, Withdraw, action_from_json
from game.core.battlefield import Anchor, Battlefield, TerrainPiece
from game.core.catalog.loader import load_catalog
from game.core.dice import ScriptedDice
from game.core.geometry.polygon import rect
from game.core.geometry.zone import path_triggers
from game.core.rules.apply import apply, validate
from game.core.state import GameState, ModelProfile, Phase, SideKind, SideState
from game.maps.loader import load_map
from tests.enginekit import activate, game, profile, types
from tests.paths import MAPS


def dog() -> ModelProfile:
    """A Feral Dog as the catalog's hostiles give it (HOSTILE-8.3.STATS; 1" base, GEO-3): Move 8" -> 9" of travel."""
    h = load_catalog().hostile("dogs")
    return profile(h.name, move=h.move, ca=h.ca, armor=h.armor, will=h.will, wounds=h.wounds, base=h.base_diameter,
                   height=h.height, creature=True, weapons=tuple(a.weapon for a in h.attacks))


@functools.cache
def sandbox() -> Battlefield:
    return load_map(MAPS / "sandbox.tmx")


def pack_game(dogs: list[tuple[float, float]], crew: list[tuple[str, tuple[float, float]]] | None = None, *,
              bf: Battlefield | None = None, settings: dict | None = None) -> GameState:
    """Side "a" a crew (default: one model far away), side "b" a hostile pack "pack" of dogs d1..dN."""
    ids = [f"d{i + 1}" for i in range(len(dogs))]
    crew = crew or [("a1", (3.0, 3.0))]
    st = game([(mid, "a", profile(), pos) for mid, pos in crew] + [(d, "b", dog(), p) for d, p in zip(ids, dogs,
                                                                                                        strict=True)],
              units={"pack": ids}, settings=settings)
    st.sides[1] = SideState("b", "Feral Dogs", SideKind.HOSTILE, "ai", zone="zb", deployed=True)
    if bf is not None:
        st.battlefield = bf
    return st


LINE = [(10.0, 10.0), (11.5, 10.0), (13.0, 10.0), (14.5, 10.0)]  # 0.5" apart edge to edge: one chain


def shifted(dx: float, dy: float = 0.0, pts: list[tuple[float, float]] = LINE) -> dict[str, list[list[float]]]:
    return {f"d{i + 1}": [[x + dx, y + dy]] for i, (x, y) in enumerate(pts)}


# --- the done-when: a pack on the sandbox table ---------------------------------------------------------------


def test_pack_of_four_dogs_moves_on_the_sandbox_alert_window_and_no_trigger() -> None:
    """CORE-3.7.COMMON-ACTIONS / GEO-21 / TURN-7 / HOSTILE-8.3.NO-TRIGGER / GEO-19 on maps/sandbox.tmx: 4 Feral Dogs
    each take their own path (9" allowance each, GEO-8) past hotspot-6's Reaction Radius and end in a connected
    chain; the single Move action gives the Alert crew model exactly one interrupt window, after every dog has
    moved; no dog triggers the location, while the crew model's interrupt Move passing through it does."""
    bf = sandbox()
    spot = next(a for a in bf.anchors if a.name == "hotspot-6")
    assert spot.kind == "hotspot" and spot.point[:2] == (29.5, 14.75)
    st = pack_game([(21.5, 18.0), (23.0, 18.0), (24.5, 18.0), (26.0, 18.0)], [("a1", (25.5, 11.3))], bf=bf)
    st.units["a1"].alert = True
    ev = activate(st, "pack")
    assert st.phase is Phase.INTERRUPT and st.deciding == "a"  # TURN-7 (a): before the pack's first action
    apply(st, DeclineInterrupt("a"))
    paths = {"d1": [[25.0, 18.0], [30.0, 17.0]],  # ends inside the radius
             "d2": [[31.5, 18.2]],
             "d3": [[28.0, 17.5], [33.0, 17.5]],
             "d4": [[34.5, 18.0]]}
    ev = apply(st, Move.of_unit("pack", paths))
    moves = [e for e in ev if e.type == "move"]
    assert [e.data["model"] for e in moves] == ["d1", "d2", "d3", "d4"]
    assert all(e.data["unit"] == "pack" and e.data["allowance"] == 9.0 and e.data["cost"] <= 9.0 for e in moves)
    for mid, pts in paths.items():
        m = st.models[mid]
        assert (m.x, m.y) == pytest.approx(tuple(pts[-1]))
    # every dog's path came within 3" + r of the location point: a crew model on it would have triggered it
    assert all(path_triggers(e.data["path"], 0.5, {"hotspot-6": spot.point[:2]})[0].triggered for e in moves)
    assert "reaction_radius" not in types(ev)  # HOSTILE-8.3.NO-TRIGGER, AI-C.6
    (summary,) = [e for e in ev if e.type == "unit_move"]
    assert summary.data["cohesion"] and summary.data["moved"] == ["d1", "d2", "d3", "d4"]
    assert "GEO-21" in summary.rules
    # one action, one window (TURN-7 (b)), after the whole move
    assert types(ev).count("interrupt_window") == 1
    assert types(ev).index("interrupt_window") > types(ev).index("unit_move")
    assert st.phase is Phase.INTERRUPT and st.deciding == "a" and st.activation.spent == 1
    ev = apply(st, Interrupt("a1", Move("a1", ((32.5, 11.3),))))
    (trig,) = [e for e in ev if e.type == "reaction_radius"]
    assert trig.data["model"] == "a1" and trig.data["location"] == "hotspot-6" and trig.rules[0] == "GEO-19"
    assert st.phase is Phase.ACTION and st.deciding == "b"  # the pack's activation resumes


# --- refusals: each names the model and why, and changes nothing ---------------------------------------------


def _refused(st: GameState, action: Move | Climb | Jump) -> IllegalAction:
    before = st.to_json()
    with pytest.raises(IllegalAction) as via_validate:
        validate(st, action)
    with pytest.raises(IllegalAction) as ei:
        apply(st, action)
    assert st.to_json() == before
    assert (via_validate.value.reason, via_validate.value.rule) == (ei.value.reason, ei.value.rule)
    return ei.value


def test_a_path_too_long_for_one_model_is_refused_naming_it() -> None:
    """GEO-8: each model's path within its own allowance (8" + 1" base = 9"); d3's 9.5" is refused."""
    st = pack_game(LINE)
    activate(st, "pack")
    paths = shifted(8.5)
    paths["d3"] = [[13.0 + 9.5, 10.0]]
    err = _refused(st, Move.of_unit("pack", paths))
    assert err.rule == "GEO-8" and err.reason.startswith("d3: ") and "too far" in err.reason and "= 9\"" in err.reason


def test_a_model_ending_out_of_cohesion_is_refused_naming_it() -> None:
    """GEO-21 / CORE-3.7.COHESION (`cohesion.mode`=connected_chain): d4 ends 1.5" from d3 (edge to edge) and no
    nearer any other dog: cut off."""
    st = pack_game(LINE)
    activate(st, "pack")
    paths = shifted(5.0)
    paths["d4"] = [[14.5 + 6.0, 10.0]]
    err = _refused(st, Move.of_unit("pack", paths))
    assert err.rule == "GEO-21" and "d4 cut off" in err.reason
    assert "nearest: d4 1.50\" from d3" in err.reason


def test_a_path_through_an_enemy_is_refused_naming_the_model() -> None:
    """GEO-8: a model may not pass through an enemy base; the unit's own models are passed freely."""
    st = pack_game(LINE, [("a1", (16.0, 13.0))])
    activate(st, "pack")
    paths = shifted(0.0, 6.0)
    paths["d2"] = [[17.5, 13.0], [11.5, 16.0]]  # through a1 at (16, 13)
    err = _refused(st, Move.of_unit("pack", paths))
    assert err.rule == "GEO-8" and err.reason.startswith("d2: ") and "enemy a1" in err.reason


def test_a_missing_model_path_is_refused() -> None:
    """CORE-3.7.COMMON-ACTIONS: every model in play moves or explicitly stays put; d4 is named."""
    st = pack_game(LINE)
    activate(st, "pack")
    paths = shifted(3.0)
    del paths["d4"]
    err = _refused(st, Move.of_unit("pack", paths))
    assert err.rule == "CORE-3.7.COMMON-ACTIONS" and err.reason.startswith("d4 of pack has no path")


def test_one_path_for_a_multi_model_unit_and_malformed_unit_paths_are_refused() -> None:
    """CORE-3.7.COMMON-ACTIONS: a pack needs per-model paths; not both forms, no stranger, no twice, no Out of
    Action model, and at least one model moves."""
    st = pack_game(LINE, [("a1", (3.0, 3.0)), ("a2", (5.0, 3.0))])
    activate(st, "pack")
    err = _refused(st, Move("pack", ((12.0, 12.0),)))
    assert err.rule == "CORE-3.7.COMMON-ACTIONS" and "4 models in play (d1, d2, d3, d4)" in err.reason
    assert "not both" in _refused(st, Move("pack", ((12.0, 12.0),), Move.of_unit("pack", shifted(1)).paths)).reason
    stranger = Move("pack", paths=Move.of_unit("pack", shifted(1)).paths + (("a2", ((6.0, 3.0),)),))
    assert "a2 is not a model of pack" in _refused(st, stranger).reason
    twice = Move("pack", paths=Move.of_unit("pack", shifted(1)).paths + (("d1", ((12.0, 12.0),)),))
    assert "d1 is given two paths" in _refused(st, twice).reason
    assert "moves no model" in _refused(st, Move.of_unit("pack", {f"d{i}": [] for i in range(1, 5)})).reason
    st.models["d4"].ooa = True
    paths = shifted(1.0)
    err = _refused(st, Move.of_unit("pack", paths))
    assert err.rule == "COMBAT-4.4.OOA" and "d4" in err.reason
    del paths["d4"]
    apply(st, Move.of_unit("pack", paths))  # the Out of Action dog needs no path
    assert st.models["d3"].x == 14.0 and st.models["d4"].x == 14.5


def test_models_of_a_unit_pass_each_other_but_do_not_end_on_each_other() -> None:
    """GEO-8 (friends may be passed, not ended on) / GEO-6: judged at the unit's final positions, so two dogs may
    swap places through each other; ending on a dog that stays put, or where another ends, is refused."""
    st = pack_game(LINE)
    activate(st, "pack")
    stay: dict[str, list[list[float]]] = {"d1": [], "d2": [], "d3": [], "d4": []}
    err = _refused(st, Move.of_unit("pack", {**stay, "d1": [[11.8, 10.0]]}))
    assert err.rule == "GEO-6" and err.reason.startswith("d1's path ends on d2's base (overlap")
    err = _refused(st, Move.of_unit("pack", {**stay, "d1": [[10.0, 12.0]], "d2": [[10.2, 12.0]]}))
    assert err.rule == "GEO-6" and "where d1 ends" in err.reason
    ev = apply(st, Move.of_unit("pack", {**stay, "d1": [[11.5, 10.0]], "d2": [[10.0, 10.0]]}))
    assert (st.models["d1"].x, st.models["d2"].x) == (11.5, 10.0)
    assert [e.data["model"] for e in ev if e.type == "move"] == ["d1", "d2"]
    (summary,) = [e for e in ev if e.type == "unit_move"]
    assert summary.data["stayed"] == ["d3", "d4"] and summary.data["cohesion"]


def test_an_engaged_model_may_stay_put_while_its_unit_moves_but_not_move() -> None:
    """COMBAT-4.3.WITHDRAW / GEO-8: a dog in base contact with an enemy does not Move away (it must Withdraw); it
    may stay in the fight while the rest of the pack moves (AI-D.15: as many as possible in contact)."""
    st = pack_game(LINE, [("a1", (10.0, 11.0))])
    activate(st, "pack")
    err = _refused(st, Move.of_unit("pack", shifted(0.5)))
    assert err.rule == "COMBAT-4.3.WITHDRAW" and err.reason.startswith("d1 is in base contact")
    paths = shifted(-1.0, 1.0)
    paths["d1"] = []
    paths["d2"] = [[11.0, 11.0]]
    paths["d3"] = [[12.2, 11.8]]
    paths["d4"] = [[13.4, 12.3]]
    apply(st, Move.of_unit("pack", paths))
    assert (st.models["d1"].x, st.models["d1"].y) == (10.0, 10.0) and st.models["d2"].x == 11.0


def test_casualties_break_the_chain_the_next_move_must_close_up() -> None:
    """GEO-21: after d2 falls, d1 is 2" from d3; a move that keeps the gap or widens it is refused, one that
    closes it partly is allowed, and one that restores the chain reports it."""
    st = pack_game(LINE)
    st.models["d2"].ooa = True
    activate(st, "pack")
    err = _refused(st, Move.of_unit("pack", {"d1": [[11.0, 10.0]], "d3": [[14.0, 10.0]], "d4": [[15.5, 10.0]]}))
    assert err.rule == "GEO-21" and "out of cohesion (1.00\" short" in err.reason and "d1 cut off" in err.reason
    err = _refused(st, Move.of_unit("pack", {"d1": [[10.0, 13.0]], "d3": [], "d4": []}))
    assert err.rule == "GEO-21" and "leaves it" in err.reason
    ev = apply(st, Move.of_unit("pack", {"d1": [[10.5, 10.0]], "d3": [], "d4": []}))  # 0.5" closer, still apart
    (summary,) = [e for e in ev if e.type == "unit_move"]
    assert not summary.data["cohesion"] and summary.data["gap"] == pytest.approx(0.5)
    ev = apply(st, Move.of_unit("pack", {"d1": [[11.5, 10.0]], "d3": [], "d4": []}))
    (summary,) = [e for e in ev if e.type == "unit_move"]
    assert summary.data["cohesion"] and summary.data["restored"] and summary.data["gap"] == 0.0


def test_a_unit_move_is_one_action_with_one_window_and_hustle_per_model() -> None:
    """TURN-7: the unit's Move is one action (one window after it, none per model); TURN-6 spends 1 of the budget."""
    st = pack_game(LINE, [("a1", (3.0, 30.0))])
    st.units["a1"].alert = True
    activate(st, "pack")
    apply(st, DeclineInterrupt("a"))
    ev = apply(st, Move.of_unit("pack", shifted(4.0)))
    assert types(ev).count("move") == 4 and types(ev).count("interrupt_window") == 1 and st.activation.spent == 1


def test_a_crew_unit_of_several_models_triggers_per_model() -> None:
    """GEO-19: the crew's multi-model unit triggers by each model's own path (the crew is a player: it triggers)."""
    spot = Anchor(20, "hotspot-x", (14.0, 14.5), kind="hotspot")
    st = game([("a1", "a", profile(), (10.0, 10.0)), ("a2", "a", profile(), (10.0, 11.5)),
               ("b1", "b", profile(), (30.0, 30.0))], units={"team": ["a1", "a2"]})
    st.battlefield = dataclasses.replace(st.battlefield, anchors=(spot,), cache={})
    activate(st, "team")
    ev = apply(st, Move.of_unit("team", {"a1": [[16.0, 10.0]], "a2": [[16.0, 11.5]]}))
    assert [e.data["model"] for e in ev if e.type == "reaction_radius"] == ["a2"]  # a1's path 4.5" off, a2's 3"


# --- Jump and Climb of a unit ----------------------------------------------------------------------------------


ROOFS = (TerrainPiece(10, "roof-w", tuple(rect(4, 4, 10, 12)), 2.75, 3.0, surface=True),
         TerrainPiece(11, "roof-e", tuple(rect(12, 4, 18, 12)), 2.75, 3.0, surface=True))


def test_a_pack_jumps_a_gap_each_dog_to_its_own_landing() -> None:
    """CORE-3.3.JUMP / GEO-24 for a unit: every dog at the near edge jumps the 2" gap to its own landing (one
    action, no roll); one may stay put, and the unit must still end in cohesion (GEO-21)."""
    st = pack_game([(9.5, 6.0), (9.5, 7.5), (8.0, 7.0)])
    st.battlefield = dataclasses.replace(st.battlefield, pieces=ROOFS, cache={})
    for d in ("d1", "d2", "d3"):
        st.models[d].z = 3.0
    activate(st, "pack")
    err = _refused(st, Jump.of_unit("pack", {"d1": [12.5, 6.0], "d2": [12.5, 7.5], "d3": []}))
    assert err.rule == "GEO-21" and "d3 cut off" in err.reason
    with pytest.raises(IllegalAction) as ei:
        apply(st, Jump("pack", (12.5, 6.0)))
    assert ei.value.rule == "CORE-3.7.COMMON-ACTIONS"
    st.models["d3"].x, st.models["d3"].y = 9.5, 9.0
    ev = apply(st, Jump.of_unit("pack", {"d1": [12.5, 6.0], "d2": [12.5, 7.5], "d3": [12.5, 9.0]}), ScriptedDice([]))
    assert [e.data["model"] for e in ev if e.type == "jump"] == ["d1", "d2", "d3"]
    assert all(st.models[d].x == 12.5 and st.models[d].z == 3.0 for d in ("d1", "d2", "d3"))
    assert [e for e in ev if e.type == "unit_move"][0].data["cohesion"]


def test_a_unit_climb_needs_some_path_to_climb() -> None:
    """CORE-3.3.CLIMB for a unit: per-model paths as for a Move; a Climb in which nothing climbs is a Move."""
    st = pack_game(LINE)
    activate(st, "pack")
    err = _refused(st, Climb.of_unit("pack", shifted(1.0)))
    assert err.rule == "CORE-3.3.CLIMB" and "no path of pack climbs" in err.reason


# --- JSON -------------------------------------------------------------------------------------------------------


def test_one_model_move_keeps_its_json_and_unit_moves_round_trip() -> None:
    """Records: a one-model Move still writes {"type", "unit", "path"} exactly; a unit's Move/Climb/Jump writes
    per-model objects and reads back equal."""
    assert Move("a1", ((1.0, 2.0), (3.0, 4.0, 3.25))).to_json() == {"type": "Move", "unit": "a1",
                                                                     "path": [[1.0, 2.0], [3.0, 4.0, 3.25]]}
    assert action_from_json({"type": "Move", "unit": "a1", "path": [[1, 2]]}) == Move("a1", ((1.0, 2.0),))
    assert Climb("a1", ((1.0, 2.0, 3.0),), 2).to_json() == {"type": "Climb", "unit": "a1", "path": [[1.0, 2.0, 3.0]],
                                                             "actions": 2}
    assert Jump("a1", (5.0, 6.0)).to_json() == {"type": "Jump", "unit": "a1", "to": [5.0, 6.0]}
    unit = Move.of_unit("pack", {"d2": [[1, 2], [3, 4, 3.25]], "d1": []})
    assert unit.to_json() == {"type": "Move", "unit": "pack", "paths": {"d2": [[1.0, 2.0], [3.0, 4.0, 3.25]],
                                                                         "d1": []}}
    for a in (unit, Climb.of_unit("pack", {"d1": [[1, 2, 3]]}, actions=2),
              Jump.of_unit("pack", {"d1": [5, 6, 3], "d2": []}), Interrupt("pack", unit)):
        assert action_from_json(a.to_json()) == a
    with pytest.raises(ValueError, match="per-model paths must be an object"):
        action_from_json({"type": "Move", "unit": "pack", "paths": [[1, 2]]})
    with pytest.raises(ValueError, match="waypoint"):
        action_from_json({"type": "Move", "unit": "pack", "paths": {"d1": [[1]]}})


@pytest.mark.setting("hustle.withdraw_counts")
@pytest.mark.parametrize("counts", [True, False])
def test_a_move_after_a_withdraw_pairs_for_hustle(counts: bool) -> None:
    """SKILL-6.1.HUSTLE (`hustle.withdraw_counts`): a Withdraw costs a Move action (COMBAT-4.3.WITHDRAW), so the Move
    right after it is the second of a pair and gets +2" when the setting is true; false: no pairing."""
    st = game([("h1", "a", profile(move=6.0, actions=3, skills=("hustle",)), (20.0, 10.0)),
               ("e1", "b", profile(), (21.0, 10.0))], settings={"hustle.withdraw_counts": counts})
    activate(st, "h1")
    apply(st, Withdraw("h1", ((18.0, 10.0),)), ScriptedDice([9]))  # e1's free attack misses
    x0 = st.models["h1"].x
    assert x0 == pytest.approx(18.0)
    far = Move("h1", ((x0 - 8.5, 10.0),))  # 8.5" of centre travel: 6 + base 1 + Hustle 2 = 9, without Hustle 7
    if counts:
        apply(st, far, ScriptedDice([]))
        assert st.models["h1"].x == pytest.approx(x0 - 8.5)
    else:
        with pytest.raises(IllegalAction, match="allowance|too far"):
            validate(st, far)
