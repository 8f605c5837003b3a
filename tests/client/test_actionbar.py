"""The action bar and the profile card (issue 18 scope 2): one button per option with its shortcut, an illegal one
greyed with its reason and rule on hover and on keyboard focus (Tab, Enter), only legal ones chosen; the selected
model's card on a real Game One state."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from game.core.actions import Aim, EndActivation

SHOTS = Path("/tmp")


@dataclass(frozen=True, slots=True)
class Option:
    """A stand-in of game.core.rules.options.Option (the bar takes any object with these attributes)."""

    kind: str
    label: str
    rule: str
    actions: tuple[Any, ...]
    needs: str
    reason: str
    reason_rule: str
    cost: int

    @property
    def legal(self) -> bool:
        return bool(self.actions) or (self.needs == "point" and self.reason == "")


U = "military-balanov"
OPTIONS = (
    Option("move", "Move", "CORE-3.3.MOVE", (), "point", "", "", 1),
    Option("aim", "Aim", "CORE-3.3.AIM", (Aim(U),), "", "", "", 1),
    Option("alert", "Alert (2 actions)", "CORE-3.3.ALERT", (), "", "needs 2 actions, 1 left", "CORE-3.3.ALERT", 2),
    Option("rally", "Rally", "CORE-3.3.RALLY", (), "", "no Pinned counter to remove", "CORE-3.3.RALLY", 1),
    Option("shoot", "Shoot", "COMBAT-4.1.RANGED", (), "target", "no enemy in sight", "INTRO-1.2.LOS", 1),
    Option("end", "End activation", "TURN-6", (EndActivation(U),), "", "", "", 0),
)
LEGAL = {"move", "aim", "end"}


@pytest.fixture
def bar(app: Any) -> Any:
    import pygame

    from game.client.actionbar import ActionBar
    from game.client.widget import Shared

    chosen: list[Any] = []
    b = ActionBar(Shared(), chosen.append)
    b.chosen = chosen  # type: ignore[attr-defined]
    b.layout(pygame.Rect(0, 620, 860, 80))
    b.set_options(OPTIONS)
    return b


def _key(key: int, mod: int = 0) -> Any:
    import pygame

    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="")


def _click(pos: tuple[int, int]) -> Any:
    import pygame

    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)


def _hover(pos: tuple[int, int]) -> Any:
    import pygame

    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def _index(bar: Any, kind: str) -> int:
    return next(i for i, o in enumerate(bar.options) if o.kind == kind)


def test_shortcuts_are_unique_and_clear_of_the_battle_keys() -> None:
    from game.client.actionbar import SHORTCUTS, shortcuts_text

    keys = list(SHORTCUTS.values())
    assert len(keys) == len(set(keys))
    battle = {" ", ".", "N", "T", "1", "2", "V", "H", "P", "F", "W", "A", "S", "D", "+", "-", "="}
    assert not battle & set(keys)
    for kind in ("move", "climb", "jump", "aim", "alert", "rally", "recover", "reload", "use_item", "task", "search",
                 "search_anomaly", "inspect", "bolt_toss", "order", "withdraw", "shoot", "melee", "grenade",
                 "template", "flame", "break_alliance", "end", "deploy", "activate", "go_first", "pass",
                 "interrupt", "interrupt_move", "decline", "medkit", "decline_medkit", "parry", "hostile_roll",
                 "found_item", "stay"):
        assert kind in SHORTCUTS, kind
    assert "X shoot" in shortcuts_text()


def test_a_button_per_option_drawn_with_its_key(app: Any, bar: Any) -> None:
    import pygame

    assert len(bar.buttons) == len(OPTIONS)
    assert all(r.w > 0 and bar.rect.contains(r) for r in bar.buttons)
    assert bar.labels()[1] == "[I] Aim" and bar.labels()[-1] == "[E] End activation"
    surf = pygame.Surface((860, 720))
    surf.fill((90, 100, 80))
    bar.draw(surf)
    legal, illegal = bar.buttons[_index(bar, "aim")], bar.buttons[_index(bar, "rally")]
    assert surf.get_at((legal.x + 3, legal.centery))[:3] != surf.get_at((illegal.x + 3, illegal.centery))[:3]
    assert surf.get_at((legal.centerx, legal.y - 20))[:3] == (90, 100, 80)  # no tooltip without hover or focus
    pygame.image.save(surf, str(SHOTS / "actionbar-plain.png"))


def test_clicking_a_legal_option_chooses_it_and_an_illegal_one_does_not(bar: Any) -> None:
    for r in bar.buttons:
        assert bar.handle(_click(r.center))  # the bar takes the click either way (no drag starts under it)
    assert [o.kind for o in bar.chosen] == [o.kind for o in OPTIONS if o.kind in LEGAL]
    assert bar.chosen[1] is OPTIONS[1]
    assert not bar.handle(_click((bar.rect.right - 3, bar.rect.y + 2)))  # not on a button: the board's


def test_shortcut_chooses_a_legal_option_and_shows_why_not_for_an_illegal_one(bar: Any) -> None:
    import pygame

    assert bar.handle(_key(pygame.K_i))
    assert bar.chosen == [OPTIONS[1]]
    assert bar.handle(_key(pygame.K_r))  # Rally is illegal: not chosen, focused so the reason shows
    assert bar.chosen == [OPTIONS[1]]
    assert bar.focus == _index(bar, "rally")
    assert bar.tooltip_text() == "why not: no Pinned counter to remove (CORE-3.3.RALLY)"
    assert not bar.handle(_key(pygame.K_g))  # no grenade option: the key is left to others
    assert not bar.handle(_key(pygame.K_i, pygame.KMOD_CTRL))
    assert not bar.handle(_key(pygame.K_SPACE))
    assert bar.chosen == [OPTIONS[1]]


def test_phase_choices_and_digits_have_their_keys(bar: Any) -> None:
    import pygame

    from game.core.actions import ChooseInitiative

    first = Option("go_first", "Go first", "CORE-3.1.PASS", (ChooseInitiative("military", True),), "", "", "", 0)
    inspect = Option("inspect", "Inspect", "CORE-3.3.INSPECT", (), "target", "no location in 12\"",
                     "CORE-3.3.INSPECT", 1)
    bar.set_options([first, inspect])
    assert bar.labels() == ["[F1] Go first", "[3] Inspect"]
    assert bar.handle(_key(pygame.K_F1))
    assert bar.chosen == [first]
    assert bar.handle(_key(pygame.K_KP3)) and bar.handle(_key(pygame.K_3))
    assert bar.chosen == [first]
    assert bar.tooltip_text() == "why not: no location in 12\" (CORE-3.3.INSPECT)"


def test_a_key_shared_by_several_options_walks_them_and_enter_chooses(bar: Any) -> None:
    import pygame

    from game.core.actions import ThrowGrenade

    hand = Option("grenade", "Throw Hand Grenade", "CORE-3.3.GRENADE", (), "point", "", "", 1)
    smoke = Option("grenade", "Throw Smoke Grenade", "CORE-3.3.GRENADE", (), "point", "", "", 1)
    bar.set_options([OPTIONS[0], hand, smoke, OPTIONS[-1]])
    assert bar.handle(_key(pygame.K_g))
    assert bar.focus == 1 and bar.chosen == []
    assert bar.handle(_key(pygame.K_g))
    assert bar.focus == 2
    assert bar.handle(_key(pygame.K_g))
    assert bar.focus == 1  # round again
    assert bar.handle(_key(pygame.K_RETURN))
    assert bar.chosen == [hand]
    assert bar.handle(_key(pygame.K_m))  # one Move: chosen at once
    assert bar.chosen == [hand, OPTIONS[0]]

    @dataclass(frozen=True, slots=True)
    class PointOption(Option):
        example: Any = None

    throw = PointOption("grenade", "Throw Hand Grenade", "CORE-3.3.GRENADE", (), "point", "", "", 1,
                        ThrowGrenade(U, "hand_grenade", 1.0, 2.0))
    assert tooltip_for_(throw) == ("Throw Hand Grenade: Prepare and throw one grenade at a point, direct or indirect "
                                   "(CORE-3.3.GRENADE), 1 action; then pick a point on the table")


def tooltip_for_(option: Any) -> str:
    from game.client.actionbar import tooltip_for

    return tooltip_for(option)


def test_a_legal_option_says_what_it_does_its_rule_cost_and_what_is_picked_next() -> None:
    from game.client.actionbar import tooltip_for
    from game.core.actions import RangedAttack

    shots = tuple(RangedAttack(U, t, "assault_rifle") for t in ("a", "b"))
    shoot = Option("shoot", "Shoot", "COMBAT-4.1.RANGED", shots, "target", "", "", 1)
    assert tooltip_for(shoot) == ("Shoot: Fire one weapon once at one enemy unit (COMBAT-4.1.RANGED), 1 action; "
                                  "then pick the target")
    end = Option("end", "End activation", "TURN-6", (EndActivation(U),), "", "", "", 0)
    assert tooltip_for(end) == "End activation: Stop taking actions (TURN-6), free"
    assert tooltip_for(Option("rally", "Rally", "CORE-3.3.RALLY", (), "", "", "", 1)) == \
        "why not: not possible now"


def test_hover_over_an_illegal_option_shows_its_reason_and_rule(app: Any, bar: Any) -> None:
    import pygame

    i = _index(bar, "shoot")
    assert bar.handle(_hover(bar.buttons[i].center))
    assert bar.tooltip_text() == "why not: no enemy in sight (INTRO-1.2.LOS)"
    surf = pygame.Surface((860, 720))
    surf.fill((90, 100, 80))
    bar.draw(surf)
    r = bar.buttons[i]
    assert surf.get_at((r.x + 12, r.y - 12))[:3] == THEME_PANEL()  # the tooltip above the button
    pygame.image.save(surf, str(SHOTS / "actionbar-hover-illegal.png"))
    bar.handle(_hover(bar.buttons[_index(bar, "aim")].center))
    assert bar.tooltip_text() == ("Aim: +1 CA and +1 Damage on the attack that immediately follows (CORE-3.3.AIM), "
                                  "1 action")
    assert not bar.handle(_hover((bar.rect.right - 3, bar.rect.y + 2)))
    assert bar.tooltip_text() == ""


def THEME_PANEL() -> tuple[int, int, int]:
    from game.client.theme import THEME

    return THEME.panel


def test_tab_focus_shows_the_same_tooltip_and_enter_chooses(app: Any, bar: Any) -> None:
    import pygame

    assert bar.handle(_key(pygame.K_TAB))
    assert bar.focus == 0
    assert bar.tooltip_text() == "Move (CORE-3.3.MOVE), 1 action; then pick a point on the table"
    assert bar.handle(_key(pygame.K_RETURN))
    assert bar.chosen == [OPTIONS[0]]
    for _ in range(_index(bar, "alert")):
        bar.handle(_key(pygame.K_TAB))
    assert bar.tooltip_text() == "why not: needs 2 actions, 1 left (CORE-3.3.ALERT)"
    assert bar.handle(_key(pygame.K_RETURN))
    assert bar.chosen == [OPTIONS[0]]  # Enter on an illegal option does nothing
    surf = pygame.Surface((860, 720))
    surf.fill((90, 100, 80))
    bar.draw(surf)
    pygame.image.save(surf, str(SHOTS / "actionbar-focus-illegal.png"))
    assert bar.handle(_key(pygame.K_TAB, pygame.KMOD_SHIFT))
    assert bar.options[bar.focus].kind == "aim"
    assert bar.handle(_key(pygame.K_KP_ENTER))
    assert bar.chosen == [OPTIONS[0], OPTIONS[1]]
    bar.focus = 0
    bar.handle(_key(pygame.K_TAB, pygame.KMOD_SHIFT))
    assert bar.focus == len(OPTIONS) - 1  # Shift+Tab wraps round
    bar.set_options(OPTIONS[3:])  # new options: the focus stays on the same kind
    assert bar.options[bar.focus].kind == "end"


def test_many_options_wrap_to_two_rows_and_the_draw_is_cached(app: Any, bar: Any) -> None:
    import pygame

    from game.client.actionbar import SHORTCUTS

    many = [Option(k, k.replace("_", " ").capitalize() + " (1 action)", "CORE-3.3", (Aim(U),) if n % 3 else (),
                   "", "" if n % 3 else "not now", "CORE-3.3", 1) for n, k in enumerate(SHORTCUTS) if n < 23]
    bar.layout(pygame.Rect(0, 620, 860, 80))
    bar.set_options(many)
    rows = sorted({r.y for r in bar.buttons})
    assert len(rows) == 2 and all(r.w > 0 for r in bar.buttons)
    assert all(bar.rect.contains(r) for r in bar.buttons)
    assert not any(a.colliderect(b) for i, a in enumerate(bar.buttons) for b in bar.buttons[i + 1:])
    surf = pygame.Surface((1280, 720))
    surf.fill((90, 100, 80))
    bar.handle(_hover(bar.buttons[4].center))
    bar.draw(surf)
    pygame.image.save(surf, str(SHOTS / "actionbar-two-rows.png"))
    renders = bar.renders
    t = time.perf_counter()
    for _ in range(50):
        bar.draw(surf)
    per_draw = (time.perf_counter() - t) / 50
    assert bar.renders == renders
    assert per_draw < 0.001, per_draw
    bar.handle(_hover(bar.buttons[5].center))
    bar.draw(surf)
    assert bar.renders == renders + 1


# -- the profile card -----------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def acting() -> Any:
    """Game One (crossroads-blyatsk, seed 1) played by its agents to the first activation with an action spent."""
    from game.client.driver import InlineDriver
    from game.client.session import open_session
    from game.client.setup import GameSetup
    from game.core.state import Phase

    s = open_session(GameSetup(seed=1))
    d = InlineDriver(s)
    for _ in range(200):
        action = d.next_action()
        assert action is not None
        s.apply(action)
        act = s.state.activation
        if s.state.phase is Phase.ACTION and act is not None and act.spent > 0:
            return s
    raise AssertionError("no activation reached")


def test_profile_card_names_weapons_wounds_and_actions_left(app: Any, acting: Any) -> None:
    import pygame

    from game.client.profile import ProfileCard
    from game.client.widget import Shared
    from game.core.rules.flow import remaining

    st = acting.state
    shared = Shared()
    shared.crews = acting.crew_sides()
    card = ProfileCard(shared)
    card.layout(pygame.Rect(20, 100, 300, 260))
    card.feed(list(acting.events), st)
    assert card.lines() == []  # nothing selected
    unit = st.activation.unit
    m = st.models[st.units[unit].models[0]]
    card.show(m.id)
    text = "\n".join(card.lines())
    assert m.profile.name in text
    assert f"Wounds {m.wounds_taken}/{m.profile.wounds}" in text
    assert "Assault Rifle (AK 74)" in text and "Range 1-36\"  FP 3  Damage 1" in text
    assert "Knife" in text and "Range Melee" in text
    assert f"Actions left {remaining(st.activation)} of {st.activation.budget}" in text
    assert "Binoculars" in text and "Med-Kit" in text and "Scrounger" in text
    surf = pygame.Surface((1280, 720))
    surf.fill((90, 100, 80))
    card.draw(surf)
    assert surf.get_at((22, 150))[:3] == shared_colour(shared, m.side)  # the side's stripe
    pygame.image.save(surf.subsurface(pygame.Rect(0, 80, 360, 320)), str(SHOTS / "profile-acting.png"))
    renders = card.renders
    card.draw(surf)
    assert card.renders == renders
    card.show(None)
    assert card.lines() == []


def shared_colour(shared: Any, side: str) -> tuple[int, int, int]:
    from game.client.theme import side_colour

    return side_colour(shared.side_index(side))


def test_profile_card_of_a_wounded_hostile_and_a_pinned_unit(app: Any, acting: Any) -> None:
    import pygame

    from game.client.profile import ProfileCard
    from game.client.widget import Shared

    st = acting.state.clone()
    dog = next(m for m in st.models.values() if m.profile.creature)
    st.units[dog.unit].pins = 2
    vyun = st.models["military-vyun"]
    vyun.unloaded.append("squad_lmg")
    shared = Shared()
    shared.crews = acting.crew_sides()
    card = ProfileCard(shared)
    card.layout(pygame.Rect(0, 0, 300, 260))
    card.feed([], st)
    card.show(dog.id)
    surf = pygame.Surface((300, 260))
    card.draw(surf)
    pygame.image.save(surf, str(SHOTS / "profile-dog.png"))
    text = "\n".join(card.lines())
    assert "Feral Dogs" in text and "Claws/Teeth" in text and "Pins 2" in text and "Will 4" in text
    assert "unit of 4, 4 in play" in text
    assert "Actions left" not in text
    card.show("military-vyun")
    text = "\n".join(card.lines())
    assert "Squad LMG (RPD or RPK) - must Reload" in text and "Hand Grenade x2" in text
    surf = pygame.Surface((300, 260))
    card.draw(surf)
    pygame.image.save(surf, str(SHOTS / "profile-vyun.png"))


def test_profile_card_of_every_model_of_ishikhov(app: Any) -> None:
    """Every model of Ishikhov at setup (crews and the pre-placed mobs) has a card naming its weapons and Wounds."""
    import pygame

    from game.client.profile import ProfileCard
    from game.client.session import open_session
    from game.client.setup import GameSetup
    from game.client.widget import Shared
    from game.core.catalog import load_catalog
    from game.core.settings import Settings

    s = open_session(GameSetup(scenario="ishikhov", seed=4))
    st = s.state
    cat = load_catalog(Settings(dict(st.settings)))
    shared = Shared()
    shared.crews = s.crew_sides()
    card = ProfileCard(shared)
    card.layout(pygame.Rect(0, 0, 300, 260))
    card.feed(list(s.events), st)
    surf = pygame.Surface((300, 260))
    kinds = set()
    for mid, m in st.models.items():
        card.show(mid)
        text = "\n".join(card.lines())
        assert f"Wounds {m.wounds_taken}/{m.profile.wounds}" in text, mid
        for w in m.profile.weapons:
            assert cat.weapon(w).name in text, (mid, w)
        card.draw(surf)
        kinds.add(m.profile.name if m.profile.creature or m.side not in shared.crews else "crew")
    assert len(kinds) >= 2
    pygame.image.save(surf, str(SHOTS / "profile-ishikhov-last.png"))
