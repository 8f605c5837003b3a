"""The battle screen's panels fed a real game: the event log (text, selection, scrolling, saving), the
activation-order strip and the HUD with its why-card (issue 17 scopes 2, 3, 4)."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.core.events import Event, describe
from game.core.state import GameState

SHOTS = Path("/tmp")


@dataclass
class Game:
    """A played game: every event, the final state, the crews, and `points`: the state (a clone) and the number of
    events logged so far at moments the panels must show (after the setup, during deployment, at the start of turn
    1, the first activation with an action spent, the first interrupt window, the first hostile reason)."""

    events: list[Event]
    final: GameState
    crews: list[str]
    points: dict[str, tuple[GameState, int]]


@pytest.fixture(scope="module")
def game() -> Game:
    """Crossroads at Blyatsk, seed 1, two random-legal crews (the Zone's agent plays the dogs), replayed once from
    its record to keep the states the tests need."""
    from game.ai.random_agent import RandomAgent
    from game.client.hud import why_card
    from game.core.rules import apply, new_game
    from game.core.state import Phase
    from game.sim.loop import play
    from game.sim.sources import crews_source, scenario_source

    source = scenario_source("crossroads-blyatsk")
    loaded = crews_source(list(source.crew_names), k_limit=source.k_limit)
    scen, bf = source.build(loaded)
    settings = dict(source.settings)
    agents = {c.side: RandomAgent(1000 + i) for i, c in enumerate(scen.crews)}
    final, record, events = play(scen, agents, 1, settings=settings, battlefield=bf)

    state, log = new_game(scen, 1, settings=settings, battlefield=bf)
    points: dict[str, tuple[GameState, int]] = {"setup": (state.clone(), len(log))}
    wanted: dict[str, Callable[[list[Event], GameState], bool]] = {
        "deploying": lambda new, st: st.phase is Phase.DEPLOY and any(m.deployed for m in st.models.values()),
        "turn1": lambda new, st: any(e.type == "turn_start" for e in new),
        "acting": lambda new, st: st.phase is Phase.ACTION and st.activation is not None and st.activation.spent > 0,
        "interrupt": lambda new, st: st.phase is Phase.INTERRUPT,
        "hostile_reason": lambda new, st: any(why_card(e) is not None and e.data.get("unit", "").startswith("struct")
                                              for e in new),
    }
    for a in record.actions:
        new = apply(state, a)
        log += new
        for name, hit in list(wanted.items()):
            if hit(new, state):
                points[name] = (state.clone(), len(log))
                del wanted[name]
        if not wanted:
            break
    assert not wanted, f"the game never reached {sorted(wanted)}"
    assert [e.line() for e in log] == [e.line() for e in events[:len(log)]]  # the replay is the game
    return Game(events, final, [c.side for c in scen.crews], points)


@pytest.fixture
def shared(game: Game) -> Iterator[object]:
    from game.client.widget import Shared

    s = Shared()
    s.crews = list(game.crews)
    yield s


def _rect(x: int, y: int, w: int, h: int) -> object:
    import pygame

    return pygame.Rect(x, y, w, h)


def _colours(img: object) -> set[tuple[int, int, int]]:
    """The opaque colours of a surface (glyph cores keep their exact colour)."""
    out = set()
    w, h = img.get_size()  # type: ignore[attr-defined]
    for y in range(h):
        for x in range(w):
            c = img.get_at((x, y))  # type: ignore[attr-defined]
            if c.a == 255:
                out.add((c.r, c.g, c.b))
    return out


def _log(shared: object, game: Game, rect: tuple[int, int, int, int] = (20, 40, 420, 600)) -> object:
    from game.client.log import EventLog

    log = EventLog(shared)  # type: ignore[arg-type]
    log.layout(_rect(*rect))
    for k in range(0, len(game.events), 37):  # in chunks, as actions are applied
        log.feed(game.events[k:k + 37], game.final)
    return log


# -- the event log -----------------------------------------------------------------------------------------------

def test_log_text_is_every_describe_line(app: object, game: Game, shared: object) -> None:
    from game.client.theme import font

    log = _log(shared, game)
    expected = "".join(describe(e) + "\n" for e in game.events)
    assert log.text() == expected  # type: ignore[attr-defined]
    assert len(log.events) == len(game.events)  # type: ignore[attr-defined]
    lines = log.lines  # type: ignore[attr-defined]
    # the wrapped display lines hold every word of the text, in order, and each came from its event
    assert " ".join(" ".join(line.split()) for line in lines) == " ".join(expected.split())
    assert len(lines) > expected.count("\n")  # long lines did wrap
    widest = max(font(14, bold=line.kind == "head").size(line.text)[0] for line in log._lines)  # type: ignore
    assert widest <= 420 - 12  # every line fits the panel
    first_attack = next(i for i in range(len(lines)) if log.line_event(i).type == "attack")  # type: ignore
    assert "shoots" in lines[first_attack] or "fires" in lines[first_attack] or "strikes" in lines[first_attack]


def test_log_rewraps_on_layout(app: object, game: Game, shared: object) -> None:
    log = _log(shared, game)
    wide = len(log.lines)  # type: ignore[attr-defined]
    log.layout(_rect(20, 40, 260, 600))  # type: ignore[attr-defined]
    assert len(log.lines) > wide  # type: ignore[attr-defined]
    assert log.text() == "".join(describe(e) + "\n" for e in game.events)  # type: ignore[attr-defined]
    assert log.follow and log.top == len(log.lines) - log.visible_count  # type: ignore[attr-defined]


def test_models_of(game: Game) -> None:
    from game.client.log import models_of

    attack = next(e for e in game.events if e.type == "attack" and e.data.get("kind") == "ranged")
    assert models_of(attack, game.final) == {attack.data["attacker"], attack.data["target"]}
    unit = next(u for u in game.final.units.values() if len(u.models) > 1)  # the dogs: four models, one unit
    start = next(e for e in game.events if e.type == "activation_start" and e.data["unit"] == unit.id)
    assert models_of(start, game.final) == set(unit.models)
    template = next(e for e in game.events if e.type == "template")
    assert models_of(template, game.final) == {m["model"] for m in template.data["models"]}
    placed = next(e for e in game.events if e.type == "hostiles_placed")
    assert models_of(placed, game.final) >= set(game.final.units[placed.data["unit"]].models)
    deploy = next(e for e in game.events if e.type == "deploy")
    assert models_of(deploy, game.final) == {deploy.data["model"]}  # x, y are a position, not models
    turn = next(e for e in game.events if e.type == "turn_start")
    assert models_of(turn, game.final) == frozenset()
    medkit = Event("medkit", ("X-1",), {"applier": "military-moss", "patient": "military-sorrel", "pins": 0})
    assert models_of(medkit, game.final) == {"military-moss", "military-sorrel"}
    listed = Event("x", ("X-1",), {"models": ["military-moss", {"model": "military-dorn"}], "target": "nobody"})
    assert models_of(listed, game.final) == {"military-moss", "military-dorn"}
    assert models_of(listed, None) == {"military-moss", "military-dorn", "nobody"}


def test_click_selects_and_highlights(app: object, game: Game, shared: object) -> None:
    import pygame

    from game.client.theme import THEME

    log = _log(shared, game)
    log.scroll(-10_000)  # type: ignore[attr-defined]  # to the top
    log.scroll(next(i for i, _ in enumerate(log.lines) if log.line_event(i).type == "attack"  # type: ignore
                    and log.line_event(i).data["kind"] == "ranged") - 5)  # type: ignore[attr-defined]
    line = log.top + 5  # type: ignore[attr-defined]
    event = log.line_event(line)  # type: ignore[attr-defined]
    assert event.type == "attack" and event.data["kind"] == "ranged"
    y = 40 + 6 + 5 * log.line_height + log.line_height // 2  # type: ignore[attr-defined]
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(100, y))
    assert log.handle(down)  # type: ignore[attr-defined]
    assert log.selected_event is event  # type: ignore[attr-defined]
    assert shared.highlight == {event.data["attacker"], event.data["target"]}  # type: ignore[attr-defined]
    screen = app.screen  # type: ignore[attr-defined]
    screen.fill((0, 0, 0))
    log.draw(screen)  # type: ignore[attr-defined]
    pygame.image.save(screen, str(SHOTS / "panels_log_selected.png"))
    assert tuple(screen.get_at((415, y)))[:3] == THEME.panel_hi  # the selected line's background
    assert tuple(screen.get_at((415, y + 3 * log.line_height)))[:3] == THEME.panel  # type: ignore[attr-defined]
    assert log.handle(down)  # type: ignore[attr-defined]  # clicking it again clears
    assert log.selected_event is None and shared.highlight == frozenset()  # type: ignore[attr-defined]
    log.handle(down)  # type: ignore[attr-defined]
    esc = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="")
    assert log.handle(esc)  # type: ignore[attr-defined]
    assert log.selected_event is None and shared.highlight == frozenset()  # type: ignore[attr-defined]
    assert not log.handle(esc)  # type: ignore[attr-defined]  # nothing selected: Escape is not the log's
    outside = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(900, y))
    assert not log.handle(outside)  # type: ignore[attr-defined]


def test_scrolling(app: object, game: Game, shared: object) -> None:
    import pygame

    log = _log(shared, game)
    bottom = log.top  # type: ignore[attr-defined]
    assert log.follow and bottom == len(log.lines) - log.visible_count  # type: ignore[attr-defined]
    pygame.mouse.set_pos((900, 300))  # not over the log: the wheel is not the log's
    wheel = pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False)
    assert not log.handle(wheel) and log.top == bottom  # type: ignore[attr-defined]
    pygame.mouse.set_pos((200, 300))
    assert log.handle(wheel)  # type: ignore[attr-defined]
    assert log.top == bottom - 6 and not log.follow  # type: ignore[attr-defined]
    first = log.lines[log.top]  # type: ignore[attr-defined]
    page_up = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PAGEUP, mod=0, unicode="")
    assert log.handle(page_up)  # type: ignore[attr-defined]
    assert log.top == bottom - 6 - (log.visible_count - 1)  # type: ignore[attr-defined]
    assert log.lines[log.top] != first  # type: ignore[attr-defined]
    # new events while scrolled up: the view stays, a hint counts what is below
    top = log.top  # type: ignore[attr-defined]
    log.feed(game.events[-3:], game.final)  # type: ignore[attr-defined]
    assert log.top == top  # type: ignore[attr-defined]
    screen = app.screen  # type: ignore[attr-defined]
    screen.fill((0, 0, 0))
    log.draw(screen)  # type: ignore[attr-defined]
    pygame.image.save(screen, str(SHOTS / "panels_log_scrolled.png"))
    end = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END, mod=0, unicode="")
    assert log.handle(end)  # type: ignore[attr-defined]
    assert log.follow and log.top == len(log.lines) - log.visible_count  # type: ignore[attr-defined]
    assert log.lines[-1] == describe(game.events[-1]).split("\n")[-1] or log.line_event(
        len(log.lines) - 1) is game.events[-1]  # type: ignore[attr-defined]
    log.scroll(-4)  # type: ignore[attr-defined]
    log.scroll(+4)  # type: ignore[attr-defined]  # back at the bottom: following again
    assert log.follow  # type: ignore[attr-defined]


def test_rule_ids_dim_reasons_leash_headlines_bold(app: object, game: Game, shared: object) -> None:
    from game.client.theme import THEME

    log = _log(shared, game, (0, 0, 1200, 700))
    lines = log.lines  # type: ignore[attr-defined]
    move = next(i for i, t in enumerate(lines) if "CORE-3.3.MOVE" in t)
    colours = _colours(log._render(log._lines[move]))  # type: ignore[attr-defined]
    assert THEME.ink in colours and THEME.dim_ink in colours
    # only the event's own rule IDs are dimmed: "roll Battle Rifle (AK-15) attack ..." keeps its weapon in ink
    roll = next(i for i, t in enumerate(lines) if "(AK-15)" in t and t.lstrip().startswith("roll"))
    segs = log._segments(lines[roll], THEME.ink, frozenset(log.line_event(roll).rules))  # type: ignore
    assert ("(AK-15)", THEME.dim_ink) not in segs and any("AK-15" in t and c == THEME.ink for t, c in segs)
    assert any(c == THEME.dim_ink for _, c in segs)
    why = next(i for i, t in enumerate(lines) if t.startswith("      why: "))
    colours = _colours(log._render(log._lines[why]))  # type: ignore[attr-defined]
    assert THEME.leash in colours and THEME.ink not in colours
    head = next(i for i, t in enumerate(lines) if t.startswith("=== Turn 1"))
    assert log._lines[head].kind == "head"  # type: ignore[attr-defined]
    start = next(i for i, t in enumerate(lines) if t.startswith(f"{game.crews[1]} activates"))
    colours = _colours(log._render(log._lines[start]))  # type: ignore[attr-defined]
    assert THEME.crew_b in colours  # the second crew's name in its side colour


def test_save_text(app: object, game: Game, shared: object, tmp_path: Path) -> None:
    log = _log(shared, game)
    out = log.save_text(tmp_path / "logs" / "game.txt")  # type: ignore[attr-defined]
    assert out == tmp_path / "logs" / "game.txt"
    assert out.read_text(encoding="utf-8") == log.text()  # type: ignore[attr-defined]
    assert out.read_text(encoding="utf-8").splitlines() == [
        line for e in game.events for line in describe(e).split("\n")]
    assert [p.name for p in out.parent.iterdir()] == ["game.txt"]  # no temporary file left behind


def test_log_draw_time(app: object, game: Game, shared: object) -> None:
    """A frame blits only the visible lines (cached): under 2 ms with a whole game, and with 5,000+ lines, even
    while scrolling (the page is composed again every frame then)."""
    from game.client.log import EventLog

    screen = app.screen  # type: ignore[attr-defined]
    log = _log(shared, game)
    big = EventLog(shared)  # type: ignore[arg-type]
    big.layout(_rect(20, 40, 420, 600))
    while len(big.lines) < 5000:
        big.feed(game.events, game.final)
    for w in (log, big):
        w.draw(screen)  # type: ignore[attr-defined]
        still = []
        for _ in range(30):
            t = time.perf_counter()
            w.draw(screen)  # type: ignore[attr-defined]
            still.append(time.perf_counter() - t)
        w.scroll(-200)  # type: ignore[attr-defined]
        for _ in range(2):  # render the lines once (the cache), then time scrolling over cached lines
            moving = []
            for k in range(30):
                w.scroll(1 if k % 2 else -1)  # type: ignore[attr-defined]
                t = time.perf_counter()
                w.draw(screen)  # type: ignore[attr-defined]
                moving.append(time.perf_counter() - t)
        assert sorted(still)[15] < 0.002, sorted(still)[15]
        assert sorted(moving)[15] < 0.002, sorted(moving)[15]
        print(f"log draw: {sorted(still)[15] * 1e3:.3f} ms still, {sorted(moving)[15] * 1e3:.3f} ms scrolling")


# -- the activation-order strip ----------------------------------------------------------------------------------

def _strip(shared: object, game: Game, point: str) -> tuple[object, GameState]:
    from game.client.strip import ActivationStrip

    state, n = game.points[point]
    strip = ActivationStrip(shared)  # type: ignore[arg-type]
    strip.layout(_rect(0, 32, 1280, 48))
    strip.feed(game.events[:n], state)
    return strip, state


def _shot(app: object, widget: object, name: str, area: tuple[int, int, int, int] | None = None) -> object:
    import pygame

    screen = app.screen  # type: ignore[attr-defined]
    screen.fill((20, 20, 18))
    widget.draw(screen)  # type: ignore[attr-defined]
    if hasattr(widget, "draw_card"):
        widget.draw_card(screen)
    pygame.image.save(screen.subsurface(area) if area else screen, str(SHOTS / name))
    return screen


def test_strip_names_the_acting_side_and_unit(app: object, game: Game, shared: object) -> None:
    from game.client.strip import side_name
    from game.client.theme import THEME

    strip, state = _strip(shared, game, "acting")
    act = state.activation
    assert act is not None and act.spent > 0
    side = state.units[act.unit].side
    assert state.deciding == side
    now = [c for c in strip.chips if c.acting]  # type: ignore[attr-defined]
    assert len(now) == 1 and now[0].side == side and now[0].name == state.side(side).name
    assert now[0].unit == act.unit and now[0].actions.startswith(f"{act.spent}/{act.budget}")
    text = strip.text()  # type: ignore[attr-defined]
    assert f"{state.side(side).name} [now]: {act.unit} {act.spent}/{act.budget}" in text
    assert [c.side for c in strip.chips] == state.order  # type: ignore[attr-defined]
    assert any(c.hostile and c.name == side_name(state, c.side) for c in strip.chips)  # type: ignore[attr-defined]
    assert sum(c.next for c in strip.chips) == 1  # type: ignore[attr-defined]
    screen = _shot(app, strip, "panels_strip_acting.png", (0, 0, 1280, 90))
    outline = {tuple(screen.get_at((x, 35)))[:3] for x in range(0, 1280)}  # type: ignore[attr-defined]
    assert THEME.selection in outline  # the acting chip is outlined
    # cached: drawn again without a change, it is not rendered again; a new state is
    renders = strip.renders  # type: ignore[attr-defined]
    strip.draw(screen)  # type: ignore[attr-defined]
    strip.feed([], state)  # type: ignore[attr-defined]
    strip.draw(screen)  # type: ignore[attr-defined]
    assert strip.renders == renders  # type: ignore[attr-defined]
    later, n = game.points["hostile_reason"]
    strip.feed(game.events[:n], later)  # type: ignore[attr-defined]
    strip.draw(screen)  # type: ignore[attr-defined]
    assert strip.renders == renders + 1  # type: ignore[attr-defined]


def test_strip_interrupt_names_the_deciding_side(app: object, game: Game, shared: object) -> None:
    strip, state = _strip(shared, game, "interrupt")
    assert state.activation is not None
    deciding = [c for c in strip.chips if c.deciding]  # type: ignore[attr-defined]
    assert [c.side for c in deciding] == [state.deciding]
    assert "[decides]" in strip.text()  # type: ignore[attr-defined]
    _shot(app, strip, "panels_strip_interrupt.png", (0, 0, 1280, 90))


def test_strip_shows_the_deployment_order(app: object, game: Game, shared: object) -> None:
    strip, state = _strip(shared, game, "deploying")
    assert state.turn == 0
    assert [c.side for c in strip.chips] == state.deploy_order  # type: ignore[attr-defined]
    now = next(c for c in strip.chips if c.acting)  # type: ignore[attr-defined]
    assert now.side == state.deciding
    todo = sum(1 for m in state.models.values() if m.side == state.deciding and not m.deployed)
    assert f"{todo} to deploy" in now.detail
    _shot(app, strip, "panels_strip_deploy.png", (0, 0, 1280, 90))


# -- the HUD -----------------------------------------------------------------------------------------------------

def _hud(shared: object, game: Game, point: str) -> tuple[object, GameState]:
    from game.client.hud import Hud

    state, n = game.points[point]
    hud = Hud(shared, "The Crossroads at Blyatsk")  # type: ignore[arg-type]
    hud.layout(_rect(0, 0, 1280, 32))
    hud.feed(game.events[:n], state)
    return hud, state


def test_hud_turn_and_limit(app: object, game: Game, shared: object) -> None:
    hud, _ = _hud(shared, game, "deploying")
    assert hud.bar_parts()[:2] == ["The Crossroads at Blyatsk", "Deployment"]  # type: ignore[attr-defined]
    hud, state = _hud(shared, game, "turn1")
    assert "Turn 1 / 7" in hud.bar_parts()  # type: ignore[attr-defined]
    assert not any(p.startswith("Environment") for p in hud.bar_parts())  # type: ignore[attr-defined]
    hud.status = "autoplay: normal"  # type: ignore[attr-defined]
    _shot(app, hud, "panels_hud_turn1.png", (0, 0, 1280, 40))
    renders = hud.renders  # type: ignore[attr-defined]
    hud.draw(app.screen)  # type: ignore[attr-defined]
    assert hud.renders == renders  # type: ignore[attr-defined]
    hud.status = "paused"  # type: ignore[attr-defined]
    hud.draw(app.screen)  # type: ignore[attr-defined]
    assert hud.renders == renders + 1 and hud.bar_parts()[-1] == "paused"  # type: ignore[attr-defined]
    rolled = state.clone()
    rolled.environment = "high_radiation"
    hud.feed([], rolled)  # type: ignore[attr-defined]
    assert "Environment: High Radiation" in hud.bar_parts()  # type: ignore[attr-defined]
    _shot(app, hud, "panels_hud_env.png", (0, 0, 1280, 40))


def test_why_card_shows_the_hostile_reason(app: object, game: Game, shared: object) -> None:
    from game.client.theme import THEME

    hud, state = _hud(shared, game, "hostile_reason")
    _, n = game.points["hostile_reason"]
    event = next(e for e in reversed(game.events[:n]) if isinstance(e.data.get("reason"), dict))
    reason = event.data["reason"]
    assert hud.card is not None and hud.card.who == event.data["unit"]  # type: ignore[attr-defined]
    shown = " ".join(hud.card_lines())  # type: ignore[attr-defined]
    assert reason["text"].split(": ", 1)[1] in shown  # the reason, wrapped
    assert f"rule {reason['rule']}" in shown
    hud.card_rect = _rect(10, 90, 380, 0)  # type: ignore[attr-defined]
    rect = hud.card_rect  # type: ignore[attr-defined]
    assert rect.topleft == (10, 90) and rect.width == 380 and rect.height > 60
    screen = _shot(app, hud, "panels_hud_card.png", (0, 0, 1280, 260))
    assert tuple(screen.get_at((rect.x + 1, rect.centery)))[:3] == THEME.leash  # type: ignore[attr-defined]
    # it stays until the next reasoned event
    card = hud.card  # type: ignore[attr-defined]
    hud.feed([Event("turn_end", ("TURN-9",), {"turn": 1})], state)  # type: ignore[attr-defined]
    assert hud.card is card  # type: ignore[attr-defined]
    later = next(e for e in game.events[n:] if isinstance(e.data.get("reason"), dict)
                 and e.data["reason"].get("text") != reason["text"])
    hud.feed([later], game.final)  # type: ignore[attr-defined]
    assert hud.card is not card and hud.card.seq == later.seq  # type: ignore[attr-defined]


def test_widgets_import_without_pygame() -> None:
    """`import game.client.X` stays light: no pygame at module import."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['pygame'] = None; import game.client.log, game.client.strip, "
            "game.client.hud; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "ok", out.stderr


def test_log_keeps_only_lines_near_the_view(app: object, game: Game, shared: object,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import game.client.log as log_module

    monkeypatch.setattr(log_module, "CACHE_LINES", 120)
    log = _log(shared, game)
    screen = app.screen  # type: ignore[attr-defined]
    log.scroll(-10_000)  # type: ignore[attr-defined]
    for _ in range(12):
        log.draw(screen)  # type: ignore[attr-defined]
        log.scroll(log.visible_count)  # type: ignore[attr-defined]
    log.draw(screen)  # type: ignore[attr-defined]
    cached = log._cache  # type: ignore[attr-defined]
    assert len(cached) <= 120 + log.visible_count  # type: ignore[attr-defined]
    assert all(i in cached for i in range(log.top, log.top + log.visible_count))  # type: ignore[attr-defined]


def test_why_card_reads_decision_reason_and_rules() -> None:
    """An event that has its own `reason` (a string, e.g. an Out of Action cause) carries the agent's reason as
    `decision_reason` (game.core.rules.apply); a reason may name several rules."""
    from game.client.hud import why_card

    e = Event("pinned", ("COMBAT-4.4.PIN",), {"unit": "military-moss", "reason": "shot at", "decision_reason": {
        "text": "AUTO-3: rally first", "rules": ["AUTO-3", "CORE-3.3.RALLY"]}}, seq=9)
    card = why_card(e)
    assert card is not None and card.who == "military-moss" and card.seq == 9
    assert card.text == "AUTO-3: rally first" and card.rule == "AUTO-3, CORE-3.3.RALLY"
    assert why_card(Event("out_of_action", ("X-1",), {"model": "m", "reason": "3 Wounds"})) is None
    assert why_card(Event("move", ("X-1",), {"unit": "u", "reason": {"text": ""}})) is None
