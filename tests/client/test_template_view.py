"""draw_template_plan paints the core plan: outline fill, friend warning ring, deviation ring; the panel words."""
from __future__ import annotations

import pygame

from game.client.camera import Camera
from game.client.template_view import ENEMY, FRIEND_WARN, draw_template_plan, template_words
from game.core.rules.template_preview import template_preview
from tests.core.rules.test_template_preview import THROW, grenade_game


def test_template_view_draws_outline_rings_and_deviation():
    pygame.init()
    plan = template_preview(grenade_game(), THROW)
    cam = Camera(table=(48.0, 48.0), view=(0, 0, 800, 600), ppi=10.0)
    surf = pygame.Surface((800, 600))
    surf.fill((0, 0, 0))
    draw_template_plan(surf, cam, plan)
    centre = surf.get_at((200, 110))[:3]
    assert centre != (0, 0, 0)  # translucent fill over the blast centre (20, 11)
    a2 = next(t for t in plan.models if t.model == "a2")
    b1 = next(t for t in plan.models if t.model == "b1")
    def ring_px(t):
        x, y = cam.to_screen(t.centre)
        return surf.get_at((round(x + t.radius * 10 + 2), round(y)))[:3]
    assert ring_px(a2) == FRIEND_WARN
    assert ring_px(b1) == ENEMY
    assert surf.get_at((200, 250))[:3] == (0, 0, 0)  # far outside the 5" deviation ring
    words = template_words(plan)
    assert words[0] == "touches 2: 1 enemy, 1 FRIEND (not spared) \u2014 friendly fire"
