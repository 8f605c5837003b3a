"""The menus, the dialogs and the mission summary, headless: each draws at 1280x720 and 960x600 and shows its texts;
the keyboard reaches a started game; a broken scenario file is shown, not raised; random input never breaks them."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from game.client.app import App
from game.client.setup import GameSetup
from game.client.theme import THEME, side_colour

SIZES = [(1280, 720), (960, 600)]
BAD_TOML = 'format = "zona-alfa-scenario"\nversion = 1\nid = "Bad Id"\nname = "Broken"\ntl = 9\n'


def _strip(app: App, y: int) -> list[tuple[int, int, int]]:
    """The colours along one row of the window, every 7th pixel."""
    return [tuple(app.screen.get_at((x, y))[:3]) for x in range(0, app.size[0], 7)]


def key(app: App, k: int, unicode: str = "", mod: int = 0) -> Any:
    return app.pg.event.Event(app.pg.KEYDOWN, key=k, mod=mod, unicode=unicode)


def click(app: App, pos: tuple[int, int]) -> list[Any]:
    pg = app.pg
    return [pg.event.Event(pg.MOUSEBUTTONDOWN, pos=pos, button=1), pg.event.Event(pg.MOUSEBUTTONUP, pos=pos, button=1)]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[GameSetup]:
    """App.start_game records the setup instead of building a game (the battle scene is not part of this)."""
    got: list[GameSetup] = []
    monkeypatch.setattr(App, "start_game", lambda self, setup: got.append(setup))
    return got


def test_the_client_under_test_is_this_worktree() -> None:
    import game.client.menus as menus

    assert Path(menus.__file__).resolve().parents[2] == Path(__file__).resolve().parents[2]


# -- the title ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_title_draws_its_buttons_over_a_table(app: App, size: tuple[int, int], tmp_path: Path) -> None:
    from game.client.menus import TitleScene

    app.resize(size)
    app.title()
    app.step([])
    title = app.top
    assert isinstance(title, TitleScene) and app.errors == []
    for text in ("ZONA ALFA", "New game", "Continue", "saves arrive in a later version", "Quit"):
        assert title.ink.has(text), text
    new_game = title.buttons.items[0].rect
    assert new_game is not None and app.screen.get_at((new_game.x + 1, new_game.centery))[:3] == THEME.ink  # focus
    assert len(set(_strip(app, size[1] * 9 // 10))) > 10  # the backdrop is a (darkened) table, not a flat fill
    app.save_screenshot(tmp_path / f"title-{size[0]}.png")


def test_title_continue_is_greyed_and_skipped_by_the_focus(app: App) -> None:
    from game.client.dialogs import ConfirmDialog

    app.title()
    app.step([key(app, app.pg.K_DOWN)])
    assert app.top.buttons.focus == 2  # New game -> Quit: Continue cannot be chosen
    app.step([key(app, app.pg.K_RETURN)])
    assert isinstance(app.top, ConfirmDialog) and app.running
    app.step([key(app, app.pg.K_ESCAPE)])
    assert app.top.name == "title" and app.running


def test_title_mouse_hover_focuses_and_a_click_opens_the_choice(app: App) -> None:
    from game.client.menus import ChooseScene

    pg = app.pg
    app.title()
    app.step([])
    title = app.top
    new_game, cont, quit_ = (b.rect for b in title.buttons.items)
    app.step([pg.event.Event(pg.MOUSEMOTION, pos=quit_.center, rel=(0, 0), buttons=(0, 0, 0))])
    assert title.buttons.focus == 2
    app.step([pg.event.Event(pg.MOUSEMOTION, pos=cont.center, rel=(0, 0), buttons=(0, 0, 0))])
    app.step(click(app, cont.center))
    assert title.buttons.focus == 2 and app.top is title  # Continue takes neither the focus nor a click
    app.step([pg.event.Event(pg.MOUSEBUTTONUP, pos=new_game.center, button=1)])
    assert app.top is title  # a release without its press (the click that opened the screen) does nothing
    app.step(click(app, new_game.center))
    assert isinstance(app.top, ChooseScene) and app.errors == []


# -- the scenario choice -------------------------------------------------------------------------------------------
def test_keyboard_title_to_a_started_game(app: App, started: list[GameSetup]) -> None:
    from game.client.menus import ChooseScene

    pg = app.pg
    app.title()
    app.step([key(app, pg.K_RETURN)])
    choose = app.top
    assert isinstance(choose, ChooseScene)
    app.step([])
    assert choose.card.title == "The Crossroads at Blyatsk" and choose.ink.has("The Crossroads at Blyatsk")
    assert choose.ink.has("Detachment Kestrel") and choose.ink.has("The Stray Compass")
    while choose.focus[0] != "seed":
        app.step([key(app, pg.K_DOWN)])
    app.step([key(app, pg.K_RIGHT), key(app, pg.K_RIGHT), key(app, pg.K_LEFT)])
    assert choose.seed == 2
    app.step([key(app, pg.K_4, "4"), key(app, pg.K_2, "2"), key(app, pg.K_7, "7"), key(app, pg.K_BACKSPACE)])
    assert choose.seed == 42 and choose.ink.has("42_")
    app.step([key(app, pg.K_DOWN), key(app, pg.K_RIGHT), key(app, pg.K_RIGHT)])  # the first crew: you -> normal -> easy
    app.step([key(app, pg.K_DOWN), key(app, pg.K_DOWN), key(app, pg.K_RIGHT)])  # the Zone: book -> easy
    app.step([key(app, pg.K_RETURN)])
    name = choose.scenarios[choose.selected]
    assert started == [GameSetup(scenario=name, seed=42, agents=("easy", "normal"), autoplay=True,
                                 difficulty="easy")]
    app.step([key(app, pg.K_ESCAPE)])
    assert app.top.name == "title" and app.errors == []  # Escape: back


def test_the_seed_stays_within_what_the_dice_take(app: App) -> None:
    from game.client.card import SEED_MAX
    from game.client.menus import ChooseScene
    from game.sim.options import SEED_MAX as SIM_SEED_MAX

    assert SEED_MAX == SIM_SEED_MAX
    choose = ChooseScene(app)
    app.push(choose)
    app.step([key(app, app.pg.K_MINUS), key(app, app.pg.K_MINUS)])
    assert choose.seed == 0
    app.step([key(app, app.pg.K_9, "9")] * 25)
    assert choose.seed == 10**19 - 1  # a 20th nine would pass 2^64 - 1: refused, not reduced
    app.step([key(app, app.pg.K_PLUS)])
    assert choose.typing is None and app.errors == []


def test_seed_buttons_and_agents_by_mouse(app: App, started: list[GameSetup]) -> None:
    from game.client.menus import ChooseScene

    app.title()
    choose = ChooseScene(app)
    app.push(choose)
    app.step([])
    rects = {(row, i): rect for i, (rect, row, _) in enumerate(choose.regions)}
    plus = [r for (row, _), r in rects.items() if row == ("seed", 0)][1]
    agent_right = [r for (row, _), r in rects.items() if row == ("agent", 1)][1]
    app.step([*click(app, plus.center), *click(app, plus.center), *click(app, agent_right.center)])
    assert choose.seed == 3 and choose.agents[1] == "easy"
    app.step([])
    start = next(r for (row, _), r in rects.items() if row == ("start", 0))
    app.step(click(app, start.center))
    assert started and started[0].seed == 3 and started[0].agents == ("human", "easy")  # you, against the autopilot


@pytest.mark.parametrize("size", SIZES)
def test_choose_draws_every_scenario_with_picture_and_card(app: App, size: tuple[int, int], tmp_path: Path) -> None:
    from game.client.menus import ChooseScene

    app.resize(size)
    choose = ChooseScene(app)
    app.push(choose)
    assert set(choose.scenarios) >= {"crossroads-blyatsk", "chernya-woods", "ishikhov"}
    for i, name in enumerate(choose.scenarios):
        choose.select(i)
        app.step([])
        card = choose.card
        assert card.error is None, card.error
        for text in (card.title, "Threat Level", "Mission Objective", "Victory", "Start"):
            assert choose.ink.has(text), (name, text)
        assert choose.ink.has(f"TL{card.sections[0][1][2]}")
        app.save_screenshot(tmp_path / f"choose-{name}-{size[0]}.png")
    assert app.errors == []


def test_a_broken_scenario_file_is_shown_not_raised(app: App, started: list[GameSetup], tmp_path: Path) -> None:
    from game.client.menus import ChooseScene

    bad = tmp_path / "broken.toml"
    bad.write_text(BAD_TOML, encoding="utf-8")
    choose = ChooseScene(app, ["crossroads-blyatsk", str(bad), "no-such-scenario"])
    app.push(choose)
    app.step([key(app, app.pg.K_DOWN)])  # focus and select the broken file
    assert choose.selected == 1 and choose.card.error is not None
    assert choose.ink.has("This scenario file does not load") and choose.ink.has("broken.toml")
    assert choose.ink.has("'Bad Id'") and choose.ink.has("MISSION-8.2.TL")  # the loader's own problems
    app.step([key(app, app.pg.K_RETURN)])
    assert started == [] and app.errors == []  # Start is not offered
    app.step([key(app, app.pg.K_DOWN)])
    assert choose.ink.has("no shipped scenario of this name")
    app.resize((960, 600))  # a small window: the card is longer than its panel
    app.step([key(app, app.pg.K_UP), key(app, app.pg.K_UP), key(app, app.pg.K_PAGEDOWN)])
    assert choose.card.error is None and 0 < choose.scroll <= 200  # the card scrolls, as far as it is long
    app.step([key(app, app.pg.K_PAGEDOWN)] * 20)
    deepest = choose.scroll
    app.step([app.pg.event.Event(app.pg.MOUSEWHEEL, x=0, y=1)])
    assert choose.scroll == max(0, deepest - 40)
    app.save_screenshot(tmp_path / "choose-broken.png")
    assert app.errors == []


# -- the dialogs ---------------------------------------------------------------------------------------------------
def test_confirm_enter_is_yes_escape_pops_and_a_click_outside_does_nothing(app: App, tmp_path: Path) -> None:
    from game.client.dialogs import ConfirmDialog

    pg = app.pg
    yes: list[int] = []
    app.title()
    app.step([])
    under = sum(map(sum, _strip(app, 700)))
    dialog = ConfirmDialog(app, "Really?", "A question.", yes="Do it", on_yes=lambda: yes.append(1))
    app.push(dialog)
    app.step(click(app, (3, 3)))
    assert app.top is dialog and yes == []
    assert dialog.ink.has("Really?") and dialog.ink.has("Do it") and dialog.ink.has("Cancel")
    assert 0 < sum(map(sum, _strip(app, 700))) < under * 0.9  # the title stays visible, dimmed
    app.save_screenshot(tmp_path / "confirm.png")
    app.step([key(app, pg.K_ESCAPE)])
    assert app.top.name == "title" and yes == []
    app.push(dialog)
    app.step([key(app, pg.K_RETURN)])
    assert yes == [1] and app.top.name == "title"
    again = ConfirmDialog(app, "Again?", "", yes="Yes", on_yes=lambda: yes.append(2))
    app.push(again)
    app.step([])
    app.step(click(app, again.buttons.items[0].rect.center))
    assert yes == [1, 2] and app.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_pause_resumes_and_asks_before_the_title(app: App, size: tuple[int, int], tmp_path: Path) -> None:
    from game.client.dialogs import ConfirmDialog, PauseDialog
    from game.client.menus import ChooseScene

    pg = app.pg
    app.resize(size)
    resumed: list[int] = []
    app.title()
    app.push(ChooseScene(app))
    app.push(PauseDialog(app, on_resume=lambda: resumed.append(1)))
    app.step([])
    for text in ("Paused", "Resume", "Back to the title", "Quit"):
        assert app.top.ink.has(text)
    app.save_screenshot(tmp_path / f"pause-{size[0]}.png")
    app.step([key(app, pg.K_p)])
    assert resumed == [1] and app.top.name == "choose"
    app.push(PauseDialog(app))
    app.step([key(app, pg.K_DOWN), key(app, pg.K_RETURN)])
    assert isinstance(app.top, ConfirmDialog)
    app.step([])  # the confirmation over the pause dialog draws without error
    app.step([key(app, pg.K_RETURN)])
    assert [s.name for s in app.stack] == ["title"] and app.errors == []


# -- the summary ---------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mission_end() -> dict[str, Any]:
    """A real game's mission_end: Red Gypsy 3's first game cut to 3 turns (a second, not four), seed 1, both crews
    played by the random agent."""
    from dataclasses import replace

    from game.ai.random_agent import RandomAgent
    from game.sim.loop import play
    from game.sim.sources import crews_source, scenario_source

    src = scenario_source("crossroads-blyatsk")
    loaded = crews_source(list(src.crew_names), k_limit=src.k_limit)
    scen, bf = src.build(loaded)
    scen = replace(scen, turn_limit=3)
    agents = {c.side: RandomAgent(1000 + i) for i, c in enumerate(scen.crews)}
    _, _, events = play(scen, agents, 1, settings=dict(src.settings), battlefield=bf)
    assert events[-1].type == "mission_end"
    return events[-1].data


@pytest.mark.parametrize("size", SIZES)
def test_summary_of_a_real_game(app: App, mission_end: dict[str, Any], size: tuple[int, int],
                                tmp_path: Path) -> None:
    from game.client.menus import TitleScene
    from game.client.summary import SummaryScene

    end = mission_end
    assert end["winner"] in end["crews"]
    app.resize(size)
    scene = SummaryScene(app, end, dict(end["crews"]))
    app.push(scene)
    app.step([])
    winner = end["crews"][end["winner"]]
    assert scene.ink.has(f"{winner} wins") and scene.ink.has("SCEN-10.5.VICTORY")
    for i, (side, name) in enumerate(end["crews"].items()):
        r = end["report"][side]
        assert scene.ink.has(name) and scene.ink.has(f"Advances: {end['advances'][side]['total']}")
        for model in r["survived"]:
            assert scene.ink.has(r["names"][model].split()[-1])
        x = 24 + i * ((size[0] - 48 - 16) // 2 + 16) + 40  # inside column i: its top bar is the crew's colour
        assert side_colour(i) in {app.screen.get_at((x, y))[:3] for y in range(60, size[1] // 2)}
    assert scene.ink.has("Mission Objective") and scene.ink.has("Back to the title")
    app.save_screenshot(tmp_path / f"summary-{size[0]}.png")
    app.step([key(app, app.pg.K_RETURN)])
    assert isinstance(app.top, TitleScene) and app.errors == []


def test_summary_texts_of_a_draw_a_solo_game_and_an_objective() -> None:
    from game.client.summary import Summary

    draw = Summary({"turn": 7, "reason": "turn limit reached", "winner": None, "decided_by": "advances",
                    "crews": {"a": "Crew A", "b": "Crew B"}}, {})
    assert draw.headline() == "A draw" and "level" in draw.how()
    assert draw.sections("a")[0] == ("Advances", "not recorded")
    solo = Summary({"turn": 5, "reason": "turn limit reached", "winner": None, "decided_by": "solo",
                    "crews": {"a": "Crew A"}}, {"a": "Lonely"})
    assert solo.headline().startswith("No winner") and solo.crew("a") == "Lonely"
    won = Summary({"turn": 4, "reason": "objective", "winner": "a", "decided_by": "objective",
                   "crews": {"a": "Crew A"}, "objective": {"location": "btr", "model": "a-1", "side": "a", "turn": 4},
                   "report": {"a": {"names": {"a-1": "Ivan"}, "survived": ["a-1"], "ooa": [], "dead": [],
                                    "kills": {"rival": [], "hostile": ["h-1"]}, "salvage_value": 7,
                                    "items": ["case", "medkit"], "grenades": {"hand_grenade": 2}, "looted": ["btr"],
                                    "artifacts": []}},
                   "advances": {"a": {"total": 7, "survivors": 1, "rival_units": 0, "hostile_units": 1,
                                      "hot_spots": 0, "objective": True}}}, {})
    assert won.headline() == "Crew A wins" and won.how() == "completed the Mission Objective"
    assert won.objective() == "Mission Objective btr completed by Ivan (Crew A) in turn 4"
    sections = dict(won.sections("a"))
    assert "Mission Objective 5" in sections["Advances: 7"] and sections["Salvage"] == "7 ZS"
    assert sections["Items found"] == "case, Med-Kit, Hand Grenade x2; looted btr"
    assert sections["Survivors (1)"] == "Ivan"


# -- random input --------------------------------------------------------------------------------------------------
def _fuzz(app: App, rng: random.Random, n: int, extra: Path | None = None) -> dict[str, int]:
    """`n` random keys, mouse moves, presses, releases (70% on a button or region), wheel turns and window resizes,
    a few at a time; after each frame no scene has failed. Returns how many frames each scene was on top."""
    pg = app.pg
    keys = [pg.K_UP, pg.K_DOWN, pg.K_LEFT, pg.K_RIGHT, pg.K_TAB, pg.K_RETURN, pg.K_SPACE, pg.K_ESCAPE,
            pg.K_BACKSPACE, pg.K_PLUS, pg.K_MINUS, pg.K_PAGEUP, pg.K_PAGEDOWN, pg.K_p, pg.K_a, pg.K_0, pg.K_9]
    seen: dict[str, int] = {}
    events = 0
    while events < n:
        batch = []
        for _ in range(rng.randint(1, 4)):
            roll = rng.random()
            if roll < 0.5:
                k = rng.choice(keys)
                uni = chr(k) if pg.K_0 <= k <= pg.K_9 else ""
                batch.append(pg.event.Event(pg.KEYDOWN, key=k, mod=rng.choice([0, pg.KMOD_SHIFT]), unicode=uni))
            elif roll < 0.9:
                targets = _targets(app)
                pos = (rng.choice(targets).center if targets and rng.random() < 0.7
                       else (rng.randrange(app.size[0]), rng.randrange(app.size[1])))
                kind = rng.choice([pg.MOUSEMOTION, pg.MOUSEBUTTONDOWN, pg.MOUSEBUTTONUP, pg.MOUSEBUTTONUP])
                batch.append(pg.event.Event(kind, pos=pos, button=rng.choice([1, 1, 3]), rel=(0, 0), buttons=(0, 0, 0)))
            elif roll < 0.97:
                batch.append(pg.event.Event(pg.MOUSEWHEEL, x=0, y=rng.choice([-2, -1, 1, 3])))
            else:
                w, h = rng.choice([(960, 600), (1280, 720), (800, 500), (1600, 900)])
                batch.append(pg.event.Event(pg.VIDEORESIZE, w=w, h=h, size=(w, h)))
        events += len(batch)
        app.step(batch)
        top = app.top
        if extra is not None and top is not None and top.name == "choose" and str(extra) not in top.scenarios:
            top.scenarios.append(str(extra))  # a broken file joins the list now and then
        assert app.errors == [], app.errors
        assert top is not None
        seen[top.name] = seen.get(top.name, 0) + 1
    return seen


def test_random_input_never_breaks_title_or_choose(app: App, started: list[GameSetup], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "broken.toml"
    bad.write_text(BAD_TOML, encoding="utf-8")
    monkeypatch.setattr(app, "quit", lambda: None)
    app.title()
    seen = _fuzz(app, random.Random(17), 500, bad)
    assert app.stack[0].name == "title"
    assert seen.keys() >= {"title", "choose", "confirm"} and started  # the fuzz reached the quit question, Start


def test_random_input_never_breaks_the_summary_or_a_pause(app: App, mission_end: dict[str, Any],
                                                          started: list[GameSetup],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from game.client.dialogs import PauseDialog
    from game.client.summary import SummaryScene

    monkeypatch.setattr(app, "quit", lambda: None)
    app.push(SummaryScene(app, mission_end, dict(mission_end["crews"])))
    app.push(PauseDialog(app))
    seen = _fuzz(app, random.Random(5), 300)
    assert seen.keys() >= {"pause", "summary"}


def _targets(app: App) -> list[Any]:
    top = app.top
    out = [b.rect for b in getattr(getattr(top, "buttons", None), "items", []) if b.rect is not None]
    out += [rect for rect, _, _ in getattr(top, "regions", [])]
    return out


def test_a_long_summary_scrolls_in_a_small_window(app: App, mission_end: dict[str, Any]) -> None:
    import copy

    from game.client.summary import SummaryScene

    end = copy.deepcopy(mission_end)
    side = next(iter(end["crews"]))
    end["report"][side]["items"] = [f"crate_{i:02d}" for i in range(80)]
    app.resize((960, 600))
    scene = SummaryScene(app, end, dict(end["crews"]))
    app.push(scene)
    app.step([])
    assert scene.ink.has("more: scroll") and scene.scroll == 0
    app.step([key(app, app.pg.K_DOWN), key(app, app.pg.K_PAGEDOWN)])
    assert 0 < scene.scroll <= 280 and scene.ink.has("crate 79")
    app.step([key(app, app.pg.K_PAGEDOWN)] * 30)
    deepest = scene.scroll
    app.step([key(app, app.pg.K_PAGEDOWN)])
    assert scene.scroll == deepest < 30 * 240  # as far as the longest column goes, no further
    app.step([key(app, app.pg.K_UP)])
    assert scene.scroll == deepest - 40 and app.errors == []


def test_the_choice_offers_a_seat_solo_and_the_zones_difficulty(app: object) -> None:
    from game.client.menus import NOBODY, ChooseScene

    app.title()
    choose = ChooseScene(app)
    app.push(choose)
    app.step([])
    assert choose.agents[0] == "human" and choose.ink.has("you, at this computer")
    while choose.agents[1] != NOBODY:
        choose.cycle_agent(1, 1)
    choose.cycle_difficulty(1)
    choose.cycle_difficulty(1)
    setup = choose.setup()
    assert setup.solo and setup.agents == ("human",) and setup.difficulty == "hard"
    app.step([])
    assert choose.ink.has("nobody: solo against the Zone") and choose.ink.has("hard: tougher")
