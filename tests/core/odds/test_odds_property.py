"""Property: on random small boards the exact odds equal the enumerated resolution (COMBAT-4.*, GAP-70..77,
ARMORY-5.1.BURN, SKILL-6.1.LEADER). Random positions, profiles, armour, Pins, Wounds taken, Med-Kits, Leaders,
damaged packs and one piece of cover; a ranged attack, a flame or a grenade that lands on its point, each
enumerated through `apply` with scripted dice and compared marginal by marginal as Fractions. Budgeted for CI:
a fixed number of examples, derandomised, no per-example deadline (a few enumerations take a second)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import hypothesis.strategies as hs
import pytest
from hypothesis import HealthCheck, assume, event, given, settings

from game.core.actions import FlameAttack, IllegalAction, RangedAttack, ThrowGrenade
from game.core.battlefield import Cover, TerrainPiece
from game.core.odds.actions import attack_odds
from game.core.odds.templates import Case
from game.core.rules.apply import validate
from game.core.state import GameState
from tests.core.odds.test_odds_exhaustive import assert_round, round_marginals
from tests.core.odds.test_odds_exhaustive_templates import burn_marginals
from tests.core.odds.test_odds_kit import Leaf, enumerate_apply, marginal, nonzero
from tests.core.rules.test_combat import piece
from tests.enginekit import activate, game, profile

ARMOURS = {0: "bdu", 3: "improvised", 5: "civilian", 6: "military", 7: "advanced"}


@dataclass(frozen=True)
class Model:
    x: float
    y: float
    armor: int
    will: int | None
    wounds: int
    taken: int
    leader: bool
    kit: bool


@dataclass(frozen=True)
class Board:
    kind: str  # "ranged", "flame", "grenade"
    weapon: str
    ca: int
    models: tuple[Model, ...]
    pack: bool  # side b is one multi-model unit (dogs); else single-model crew units
    lost: tuple[int, ...]  # pack models already Out of Action
    pins: int
    ai: bool
    cover: str | None
    cover_at: float  # x of the cover piece, between the attacker and the first model
    settings: tuple[tuple[str, Any], ...]


@hs.composite
def model(draw: hs.DrawFn, x0: float, spread: float, leader: bool) -> Model:
    wounds = draw(hs.sampled_from([1, 1, 2]))
    return Model(x=draw(hs.floats(x0, x0 + spread)), y=draw(hs.floats(11.0 - spread / 2, 11.0 + spread / 2)),
                 armor=draw(hs.sampled_from(sorted(ARMOURS))), will=draw(hs.sampled_from([None, 3, 5, 7])),
                 wounds=wounds, taken=draw(hs.integers(0, wounds - 1)), leader=leader and draw(hs.booleans()),
                 kit=draw(hs.booleans()))


@hs.composite
def board(draw: hs.DrawFn, kind: str) -> Board:
    """A board for one kind of attack; for templates the first model (resolved first) may be a Leader near the
    second, so the second's Leader bonus may hang on his fate (SKILL-6.1.LEADER)."""
    pack = kind == "ranged" and draw(hs.booleans())
    n = draw(hs.integers(1, 3)) if kind == "ranged" else draw(hs.sampled_from([2, 2, 1]))
    x0, spread = (13.0, 2.0) if kind == "flame" else (16.0, 3.0) if kind == "ranged" else (17.0, 1.5)
    models = tuple(draw(model(x0 + 1.2 * i, spread, kind == "ranged" or i == 0)) for i in range(n))
    lost = tuple(i for i in range(n) if pack and n > 1 and i < n - 1 and draw(hs.booleans()))
    flips = draw(hs.sampled_from([(), (("crit.mix_keeps_auto", True),), (("crit.best_of_two", "any_die"),),
                                  (("wounded.will_stack", False),), (("leader.self_bonus", True),)]))
    return Board(kind=kind, weapon=draw(hs.sampled_from(["pistol", "smg"])), ca=draw(hs.integers(2, 8)),
                 models=models, pack=pack, lost=lost, pins=draw(hs.integers(0, 4)), ai=draw(hs.booleans()),
                 cover=draw(hs.sampled_from([None, "obstruction", "soft", "hard"])),
                 cover_at=draw(hs.floats(12.0, 14.0)), settings=flips)


def build(b: Board) -> GameState:
    ids = [f"t{i}" for i in range(len(b.models))]
    rows = [("a1", "a", profile(ca=b.ca, actions=3, weapons=(b.weapon, "flame_thrower")), (10.0, 11.0))]
    for mid, m in zip(ids, b.models, strict=True):
        if b.pack:
            p = profile(ca=4, armor=min(m.armor, 3), will=m.will, creature=True)
        else:
            armour = ARMOURS[m.armor]
            p = profile(armor=m.armor, armour=armour, will=m.will, wounds=m.wounds, leader=m.leader,
                        save_dice=2 if armour == "advanced" else 1, actions=3 if m.leader else 2)
        rows.append((mid, "b", p, (m.x, m.y)))
    for i, (x0, y0) in enumerate(r[3] for r in rows):
        for x1, y1 in [r[3] for r in rows][i + 1:]:
            assume(math.hypot(x1 - x0, y1 - y0) > 1.15)
    pieces: tuple[TerrainPiece, ...] = ()
    if b.cover is not None:
        pieces = (piece(40, "cover", b.cover_at, 9.0, b.cover_at + 0.4, 13.0, 0.75, cover=Cover(b.cover)),)
    st = game(rows, pieces=pieces, settings=dict(b.settings), grenades={"a1": {"hand_grenade": 1}},
              units={"pack": ids} if b.pack else None,
              items={mid: ["medkit"] for mid, m in zip(ids, b.models, strict=True) if m.kit and not b.pack})
    for i, mid in enumerate(ids):
        st.models[mid].wounds_taken = 0 if b.pack else b.models[i].taken
        st.models[mid].ooa = i in b.lost
    st.units[st.models["t0"].unit].pins = b.pins
    if b.ai:
        st.side("b").controller = "ai"
    activate(st, "a1")
    return st


def action(b: Board, st: GameState) -> Any:
    target = next(m for m in st.models.values() if m.side == "b" and m.in_play)
    if b.kind == "ranged":
        return RangedAttack("a1", target.id, b.weapon)
    if b.kind == "flame":  # pointed between side b's models, so that the flame may catch them all
        xs = [m for m in st.models.values() if m.side == "b" and m.in_play]
        cx, cy = sum(m.x for m in xs) / len(xs), sum(m.y for m in xs) / len(xs)
        return FlameAttack("a1", "flame_thrower", math.atan2(cy - 11.0, cx - 10.0))
    return ThrowGrenade("a1", "hand_grenade", target.x, target.y)


def compare(b: Board, st: GameState, act: Any) -> None:
    odds = attack_odds(st, act)
    if b.kind == "ranged":
        leaves = enumerate_apply(st, act, pooled=True)
        first = [next(e for e in lf.events if e.type == "roll") for lf in leaves]
        assert nonzero(odds.hits.fractions()) == marginal(
            [Leaf(lf.state, [f], lf.weight) for lf, f in zip(leaves, first, strict=True)],
            lambda lf: lf.events[0].data["successes"])
        assert_round(odds.target_round, round_marginals(st, leaves, odds.target))
        event(f"ranged{' on a damaged pack' if b.lost else ' on a pack' if b.pack else ''}")
        return
    leaves = enumerate_apply(st, act, prefix=[] if b.kind == "flame" else [1])
    for mid, case in odds.on_hit.items():
        if mid not in odds.models or case not in odds.models[mid].rounds:
            continue  # not hit where the template lands
        exp = burn_marginals(st, leaves, mid) if b.kind == "flame" else round_marginals(st, leaves, mid)
        assert_round(odds.models[mid].rounds[case], exp)
        event(f"{b.kind} round compared" + (" (Leader case)" if isinstance(case, Case) and case.leaders else ""))


BUDGET = {"ranged": 20, "flame": 8, "grenade": 12}  # examples per kind: about 15 s in all on this 2-core machine


@pytest.mark.parametrize("kind", sorted(BUDGET))
def test_random_boards_odds_equal_the_enumerated_resolution(kind: str) -> None:
    """COMBAT-4.*, GAP-70..77, ARMORY-5.1.BURN, SKILL-6.1.LEADER: attack_odds == the resolver over every die
    outcome class, on random boards (a ranged attack, a flame, a grenade landing on its point)."""

    @settings(max_examples=BUDGET[kind], deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(board(kind))
    def check(b: Board) -> None:
        one_board(b)

    check()


def one_board(b: Board) -> None:
    st = build(b)
    act = action(b, st)
    try:
        validate(st, act)
    except IllegalAction:
        assume(False)
    compare(b, st, act)
