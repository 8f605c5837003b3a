"""The dice tray: pymunk only animates (seeded by the event, settling inside the tray), the faces, rings and numbers
come from the roll events (INTRO-1.2.D10, INTRO-1.2.CRIT-SUCCESS, INTRO-1.2.CRIT-FAIL, COMBAT-4.1.SAVE/GAP-14)."""
from __future__ import annotations

import math
import time
from functools import cache
from typing import Any

import pytest

from game.client.dice import DiceTray, Look, TrayRoll
from game.client.physics import DiceTable
from game.client.theme import THEME
from game.client.widget import Shared
from game.core.events import Event
from game.core.state import GameState

DT = 1 / 60


def roll(seq: int, **data: Any) -> Event:
    """A roll event shaped like the engine's (game/core/rules/context.py `roll_pool`)."""
    return Event("roll", ("COMBAT-4.1.RANGED",), data, seq=seq)


# Data copied from `python -m game demo --scenario crossroads-blyatsk --seed 1 --json` (who renamed to models of
# the open-table demo, so the state knows them).
MISS = roll(79, breakdown=[["CA", 5, "VITALS-2.1.CA"], ["Hard cover", -1, "CORE-3.6.TABLE"]], crit="none", dice=[8],
            outcome=[False], round=1, successes=0, tn=4, tn_text="TN 4 = CA 5 Hard cover -1",
            what="40mm Grenade Launcher at (23.4519,36.6394)", who="v-boris")
CRIT = roll(215, breakdown=[["CA", 5, "VITALS-2.1.CA"]], crit="success", dice=[5, 1], outcome=[True, True], round=7,
            successes=2, tn=5, tn_text="TN 5 = CA 5", what="SMG attack on w-dasha", who="w-gennady")
FUMBLE = roll(122, breakdown=[["CA", 5, "VITALS-2.1.CA"]], crit="failure", dice=[7, 10], outcome=[False, False],
              round=2, successes=0, tn=5, tn_text="TN 5 = CA 5", what="Battle Rifle (AK-15) attack on w-nina",
              who="v-katya")
HIT = roll(151, breakdown=[["CA", 5, "VITALS-2.1.CA"]], crit="none", dice=[8, 3], outcome=[False, True], round=3,
           successes=1, tn=4, tn_text="TN 4 = CA 5 Hard cover -1", what="Assault Rifle attack on w-ilya",
           who="v-lev")
SIX = roll(300, breakdown=[["CA", 5, "VITALS-2.1.CA"]], crit="none", dice=[8, 3, 5, 9, 2, 6],
           outcome=[False, True, True, False, True, False], round=9, successes=3, tn=5, tn_text="TN 5 = CA 5",
           what="Squad LMG (RPD or RPK) attack on v-oleg", who="w-kolya")
PAIRS = Event("roll", ("COMBAT-4.1.SAVE", "GAP-14"),
              {"crit": "none", "dice": [3, 2], "rolled": [[3, 7], [9, 2]], "outcome": [True, True], "successes": 2,
               "tn": 5, "tn_text": "TN 5 = Armor (military) 6 Damage -1", "what": "armour saves", "who": "w-ilya",
               "breakdown": [], "round": 4}, seq=154)


@cache
def _state() -> GameState:
    from game.core.rules.setup import new_game, scenario

    return new_game(scenario("open-table-demo"), 1)[0]


@pytest.fixture
def state() -> GameState:
    return _state()


def tray(app: Any, *, size: tuple[int, int] = (420, 160)) -> DiceTray:
    import pygame

    shared = Shared()
    shared.crews = ["vultures", "wolves"]
    t = DiceTray(shared)
    t.layout(pygame.Rect(20, 20, *size))
    return t


def run(t: DiceTray, seconds: float) -> None:
    for _ in range(round(seconds / DT)):
        t.update(DT)


def corners(x: float, y: float, angle: float, side: float) -> list[tuple[float, float]]:
    h = side / 2
    c, s = math.cos(angle), math.sin(angle)
    return [(x + dx * c - dy * s, y + dx * s + dy * c) for dx, dy in ((-h, -h), (h, -h), (h, h), (-h, h))]


def settle(table: DiceTable, limit: float = 10.0) -> float:
    t = 0.0
    while not table.settled and t < limit:
        table.step(DT)
        t += DT
    return t


def has_colour(surface: Any, rect: Any, colour: tuple[int, int, int], tol: int = 3) -> bool:
    """Some pixel of rect has this colour (within tol per channel)."""
    import pygame

    data = pygame.image.tobytes(surface.subsurface(rect), "RGB")
    r, g, b = colour
    return any(abs(data[i] - r) <= tol and abs(data[i + 1] - g) <= tol and abs(data[i + 2] - b) <= tol
               for i in range(0, len(data), 3))


# -- DiceTable ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3, 79, 215])
def test_a_throw_of_five_settles_within_three_seconds_inside_the_tray(seed: int) -> None:
    table = DiceTable((420, 160))
    table.throw(5, seed)
    assert not table.settled
    table.step(0.1)
    moved = table.dice()
    assert settle(table) <= 3.0 and table.settled
    assert len(table.dice()) == 5 and table.dice() != moved  # it moved on after 0.1 s
    for x, y, a in table.dice():
        for cx, cy in corners(x, y, a, table.side):
            assert -1.5 <= cx <= 421.5 and -1.5 <= cy <= 161.5, (seed, x, y, a)


def test_the_same_seed_gives_the_same_tumble_and_another_seed_another() -> None:
    def final(seed: int) -> list[tuple[float, float, float]]:
        table = DiceTable((420, 160))
        table.throw(5, seed)
        settle(table)
        return table.dice()

    assert final(7) == final(7)
    assert final(7) != final(8)
    reused = DiceTable((420, 160))  # a table that threw before throws the same again (a fresh space per throw)
    reused.throw(5, 3)
    settle(reused)
    reused.throw(5, 7)
    settle(reused)
    assert reused.dice() == final(7)


def test_place_lays_the_dice_in_a_row_at_rest() -> None:
    table = DiceTable((420, 160))
    table.place(4)
    assert table.settled
    ds = table.dice()
    assert len({round(y, 6) for _, y, _ in ds}) == 1 and all(a == 0 for *_, a in ds)
    xs = [x for x, _, _ in ds]
    assert xs == sorted(xs) and min(xs) - table.side / 2 > 0 and max(xs) + table.side / 2 < 420
    table.step(1.0)
    assert table.dice() == ds


def test_crowded_throws_use_smaller_dice_and_resize_keeps_them_inside() -> None:
    table = DiceTable((260, 100))
    table.throw(2, 1)
    big = table.side
    table.throw(10, 1)
    assert table.side < big <= 44
    settle(table)
    table.resize((160, 80))
    for x, y, _ in table.dice():
        assert 0 < x < 160 and 0 < y < 80


# -- DiceTray ---------------------------------------------------------------------------------------------------------


def test_busy_while_tumbling_and_for_the_hold_then_not(app: Any, state: GameState) -> None:
    t = tray(app)
    assert not t.busy
    t.feed([MISS, Event("move", ("MOVE-1",), {}, seq=80)], state)
    assert t.busy and len(t.queue) == 1
    t.update(DT)
    assert t.current is not None and t.current.seq == 79 and t.busy
    tumble = 0.0
    while t.table is not None and not t.table.settled:
        t.update(DT)
        tumble += DT
        assert t.busy
    assert 0.1 < tumble <= 2.6
    run(t, t.hold - 0.1)
    assert t.busy
    run(t, 0.2)
    assert not t.busy


def test_rolls_in_one_feed_show_one_after_another_and_go_to_the_history(app: Any, state: GameState) -> None:
    t = tray(app)
    t.feed([MISS, HIT, CRIT], state)
    seen: list[int] = []
    for _ in range(round(12 / DT)):
        t.update(DT)
        if t.current is not None and (not seen or seen[-1] != t.current.seq):
            seen.append(t.current.seq)
        if not t.busy:
            break
    assert seen == [79, 151, 215] and not t.busy
    assert [r.seq for r in t.history] == [151, 79]
    assert t.history[0].line() == "Lev: [8 3] vs TN 4 \u2192 1 success"


def test_many_queued_rolls_show_quicker(app: Any, state: GameState) -> None:
    def busy_time(events: list[Event]) -> float:
        t = tray(app)
        t.feed(events, state)
        n = 0
        t.update(DT)
        while t.busy and n < 2000:
            t.update(DT)
            n += 1
        return n * DT

    one = busy_time([HIT])
    assert busy_time([HIT] * 6) < 6 * one * 0.7


def test_animation_off_places_the_dice_at_once_and_holds_the_result(app: Any, state: GameState) -> None:
    t = tray(app)
    t.animate = False
    t.feed([SIX], state)
    t.update(DT)
    assert t.table is not None and t.table.settled and len(t.table.dice()) == 6
    assert len({round(y, 3) for _, y, _ in t.table.dice()}) == 1  # a neat row
    assert t.busy  # the hold: the viewer reads it
    run(t, t.hold + 0.05)
    assert not t.busy


def test_speed_shortens_the_tumble_and_the_hold(app: Any, state: GameState) -> None:
    def frames(speed: float) -> int:
        t = tray(app)
        t.speed = speed
        t.feed([HIT], state)
        n = 0
        while (t.busy or n == 0) and n < 1000:
            t.update(DT)
            n += 1
        return n

    assert frames(3.0) < frames(1.0) / 2


def _settled(app: Any, state: GameState, e: Event) -> DiceTray:
    t = tray(app)
    t.feed([e], state)
    t.update(DT)
    run(t, 3.0)
    app.screen.fill((0, 0, 0))
    t.draw(app.screen)
    return t


def test_a_success_gets_a_hit_ring_and_a_miss_none(app: Any, state: GameState) -> None:
    t = _settled(app, state, HIT)
    assert has_colour(app.screen, t.felt, THEME.die_hit)
    assert not has_colour(app.screen, t.felt, THEME.die_crit)
    t = _settled(app, state, MISS)
    assert not has_colour(app.screen, t.felt, THEME.die_hit)
    assert has_colour(app.screen, t.felt, THEME.die_miss)  # the miss is dim


def test_a_natural_one_of_a_critical_success_gets_the_crit_ring(app: Any, state: GameState) -> None:
    t = _settled(app, state, CRIT)
    assert has_colour(app.screen, t.felt, THEME.die_crit)
    assert [look for _, look in t.current.faces()] == [Look.HIT, Look.CRIT]  # type: ignore[union-attr]


def test_a_natural_ten_of_a_critical_failure_gets_the_wounded_ring(app: Any, state: GameState) -> None:
    t = _settled(app, state, FUMBLE)
    assert has_colour(app.screen, t.felt, THEME.badge_wounded)
    assert not has_colour(app.screen, t.felt, THEME.die_hit)


def test_no_rings_while_the_dice_tumble(app: Any, state: GameState) -> None:
    t = tray(app)
    t.feed([CRIT], state)
    t.update(DT)
    t.update(DT)
    app.screen.fill((0, 0, 0))
    t.draw(app.screen)
    assert t.busy and not has_colour(app.screen, t.felt, THEME.die_crit)
    assert has_colour(app.screen, t.felt, THEME.die_face)


def test_best_of_two_shows_every_die_and_which_is_kept(app: Any, state: GameState) -> None:
    r = TrayRoll.from_event(PAIRS, state)
    assert r.faces() == [(3, Look.HIT), (7, Look.DROPPED), (9, Look.DROPPED), (2, Look.HIT)]
    assert r.kept_text() == "(3 7) (9 2) keep [3 2]"
    t = _settled(app, state, PAIRS)
    assert t.table is not None and len(t.table.dice()) == 4


def test_names_and_side_colours_come_from_the_state(app: Any, state: GameState) -> None:
    t = tray(app)
    t.feed([CRIT], state)
    assert t.queue[0].who == "Gennady" and t.queue[0].side == 1
    assert TrayRoll.from_event(CRIT).who == "w-gennady"  # no state: the id


def test_the_panel_is_cached_and_draws_are_cheap(app: Any, state: GameState) -> None:
    import pygame

    t = tray(app)
    t.feed([SIX], state)
    t.update(DT)
    t.update(DT)
    start = time.perf_counter()
    for _ in range(100):
        t.update(DT)
        t.draw(app.screen)
    tumbling = time.perf_counter() - start
    run(t, 3.0)
    t.draw(app.screen)
    bg = t._bg
    start = time.perf_counter()
    for _ in range(100):
        t.draw(app.screen)
    settled = time.perf_counter() - start
    assert t._bg is bg
    assert tumbling < 0.2 and settled < 0.2, (tumbling, settled)
    assert t.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=t.felt.center, button=1)) is False


def test_crit_rings_follow_the_roll_crit_not_the_face(app: Any, state: GameState) -> None:
    """A Burn save that changes no crit reports crit none with a natural 1 (burn.py): no crit mark; a Critical
    Mix (INTRO-1.2.CRIT-MIX) marks both the 1 and the 10."""
    burn = roll(400, crit="none", burn_crit="success", dice=[1], outcome=[True], successes=1, tn=4,
                tn_text="TN 4 = Armor (light) 4", what="burn save", who="v-pasha")
    t = _settled(app, state, burn)
    assert t.current is not None and t.current.faces() == [(1, Look.HIT)]
    assert not has_colour(app.screen, t.felt, THEME.die_crit) and has_colour(app.screen, t.felt, THEME.die_hit)
    mix = roll(401, crit="mix", dice=[1, 10, 4], outcome=[True, False, True], successes=2, tn=5,
               tn_text="TN 5 = CA 5", what="SMG attack on w-dasha", who="v-pasha")
    assert [look for _, look in TrayRoll.from_event(mix).faces()] == [Look.CRIT, Look.FUMBLE, Look.HIT]


def test_skip_shows_the_newest_roll_settled_and_ends_busy(app: Any, state: GameState) -> None:
    t = tray(app)
    t.feed([MISS, HIT, CRIT, FUMBLE], state)
    t.update(DT)
    t.skip()
    assert not t.busy and t.current is not None and t.current.seq == 122
    assert [r.seq for r in t.history] == [215, 151, 79]
    app.screen.fill((0, 0, 0))
    t.draw(app.screen)
    assert has_colour(app.screen, t.felt, THEME.badge_wounded)


def test_the_dice_enter_one_after_another_from_the_left_edge() -> None:
    table = DiceTable((420, 160))
    table.throw(5, 4)
    assert len(table.dice()) == 1 and table.dice()[0][0] < table.side
    table.step(0.1)
    assert 1 < len(table.dice()) < 5
    table.resize((400, 150))  # a resize mid-throw keeps the dice still to come
    table.step(0.6)
    assert len(table.dice()) == 5
    settle(table)
    assert table.settled and len(table.dice()) == 5


def test_switching_the_animation_off_mid_throw_lays_the_dice_down(app: Any, state: GameState) -> None:
    t = tray(app)
    t.feed([SIX], state)
    t.update(DT)
    t.update(DT)
    assert t.table is not None and not t.table.settled
    t.animate = False
    t.update(DT)
    assert t.table.settled and len(t.table.dice()) == 6 and t.busy
