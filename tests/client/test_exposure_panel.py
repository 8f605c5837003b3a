"""The exposure panel and the cover badges draw the core's answers (issue 18) onto a Surface."""
from __future__ import annotations

from typing import Any, cast

import pygame

from game.client.camera import Camera
from game.client.exposure_panel import ExposurePanel, draw_cover_icons
from game.core.battlefield import Cover
from game.core.odds.danger import Exposure, Threat


def _exposure() -> Exposure:
    t = Threat("bandit-1", "zone", "hostile", ("bandit-1.1",), Cover.NONE, True, 0.25, True, ("AI-D.01",))
    return Exposure("crew-a.1", (10.0, 10.0, 0.0), (t,), ("bandit-1",))


def test_the_panel_draws_each_threat_and_the_target_line() -> None:
    pygame.init()
    surf = pygame.Surface((400, 300))
    surf.fill((0, 0, 0))
    panel = ExposurePanel(cast(Any, None))
    panel.layout(pygame.Rect(0, 0, 400, 300))
    panel.draw(surf)
    assert surf.get_at((20, 20))[:3] == (0, 0, 0)  # hidden without an exposure
    panel.show(_exposure())
    panel.draw(surf)
    assert surf.get_at((20, 20))[:3] != (0, 0, 0)
    lines = panel.lines()
    assert "  would be targeted" in lines and "  in the open (AI-D.01)" in lines
    assert any("sees you: 1" in s and "25%" in s and "no cover" in s for s in lines)


def test_cover_badges_are_drawn_beside_the_enemy_tokens() -> None:
    pygame.init()

    class M:
        x, y, radius = 10.0, 10.0, 0.5

    class St:
        models = {"e": M()}

    surf = pygame.Surface((480, 480))
    surf.fill((0, 0, 0))
    cam = Camera(table=(48.0, 48.0))
    draw_cover_icons(surf, cam, cast(Any, St()), {"e": Cover.HARD})
    cx, cy = cam.to_screen((10.0, 10.0))
    changed = sum(surf.get_at((int(cx) + dx, int(cy) + dy))[:3] != (0, 0, 0) for dx in range(-20, 5)
                  for dy in range(-20, 5))
    assert changed > 10
