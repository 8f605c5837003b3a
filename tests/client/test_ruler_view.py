"""The ruler panel and line draw measure()'s answer: pixels change; the blocker's warning colour appears."""
from __future__ import annotations

import pygame

from game.client.camera import Camera
from game.client.ruler import BLOCKER, RulerView, draw_ruler_line
from game.client.widget import Shared
from game.core.rules.ruler import measure
from game.core.state import GameState
from tests.core.rules.test_ruler import _models, deployed  # noqa: F401  (the fixture)


def _blank() -> pygame.Surface:
    s = pygame.Surface((400, 300))
    s.fill((0, 0, 0))
    return s


def test_the_panel_draws_and_marks_the_blocker(deployed: GameState) -> None:  # noqa: F811
    pygame.init()
    ids = _models(deployed)
    blocked = next(r for a in ids[:3] for b in ids if a != b
                   for r in [measure(deployed, a, b)] if r.blocking is not None)
    view = RulerView(Shared())
    view.layout(pygame.Rect(0, 0, 400, 300))
    view.show(blocked)
    surf = _blank()
    view.draw(surf)
    assert pygame.transform.average_color(surf) != (0, 0, 0, 255)
    assert any(surf.get_at((x, y))[:3] == BLOCKER for x in range(400) for y in range(300))
    assert view.lines()[1].startswith("LOS blocked by")
    line = _blank()
    m, n = deployed.models[blocked.a], deployed.models[str(blocked.b)]  # type: ignore[index]
    draw_ruler_line(line, Camera(table=(48.0, 48.0), ppi=5.0), blocked, ((m.x, m.y), (n.x, n.y)))
    assert pygame.transform.average_color(line) != (0, 0, 0, 255)


def test_a_clear_line_shows_no_warning_colour(deployed: GameState) -> None:  # noqa: F811
    pygame.init()
    ids = _models(deployed)
    clear = next(r for a in ids[:3] for b in ids if a != b
                 for r in [measure(deployed, a, b)] if r.los is not None and r.los.visible)
    view = RulerView(Shared())
    view.layout(pygame.Rect(0, 0, 400, 300))
    view.show(clear)
    surf = _blank()
    view.draw(surf)
    assert view.lines()[1] == "LOS clear"
    assert not any(surf.get_at((x, y))[:3] == BLOCKER for x in range(400) for y in range(300))
