"""Draws a core TemplatePlan (game.core.rules.template_preview): the outline where a hit lands, rings on touched
models (friends in a warning colour), a miss's deviation ring (GEO-18), and the panel's words. No rule here."""
from __future__ import annotations

import math
from typing import Any

import pygame

from game.client.camera import Camera
from game.client.theme import THEME, Theme
from game.core.rules.template_preview import TemplatePlan, deviation_outline

ENEMY: tuple[int, int, int] = (213, 94, 0)
FRIEND_WARN: tuple[int, int, int] = (240, 228, 66)  # Okabe-Ito yellow: friendly fire
SPARED: tuple[int, int, int] = (0, 158, 115)


def template_words(plan: TemplatePlan) -> list[str]:
    """Panel lines, e.g. "touches 3: 2 enemies, 1 FRIEND (not spared) — friendly fire"."""
    if not plan.legal:
        return [f"illegal: {plan.reason} [{plan.rule}]"]
    hit_friends = [f for f in plan.friends if not f.spared and f.effect != "shielded"]
    spared = [f for f in plan.friends if f.spared]
    parts = [f"{len(plan.enemies)} enem{'y' if len(plan.enemies) == 1 else 'ies'}"]
    if hit_friends:
        parts.append(f"{len(hit_friends)} FRIEND{'S' if len(hit_friends) > 1 else ''} (not spared)")
    if spared:
        parts.append(f"{len(spared)} friend{'s' if len(spared) > 1 else ''} spared")
    line = f"touches {len(plan.models)}: " + ", ".join(parts)
    if hit_friends:
        line += " \u2014 friendly fire"
    out = [line, "direct" if plan.direct else f"indirect ({plan.indirect})"]
    if plan.deviation is not None:
        d = plan.deviation
        out.append(f"a miss deviates {d.min_distance:g}-{d.max_distance:g}\" ({d.rule})")
    return out


def draw_template_plan(surface: pygame.Surface, camera: Camera, plan: TemplatePlan, theme: Theme = THEME) -> None:
    """Translucent outline, rings on touched models, the deviation ring (dashed outer circle, faint band)."""
    layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    colour: Any = theme.template
    if plan.deviation is not None:
        inner, outer = deviation_outline(plan.deviation)
        c = camera.to_screen(plan.deviation.centre)
        r_out = plan.deviation.max_distance * camera.ppi
        r_in = plan.deviation.min_distance * camera.ppi
        pygame.draw.circle(layer, (*colour, 40), c, r_out, max(1, int(r_out - r_in)))
        n = 24
        for k in range(0, n, 2):
            a0, a1 = 2 * math.pi * k / n, 2 * math.pi * (k + 1) / n
            pygame.draw.line(layer, (*colour, 200), (c[0] + r_out * math.cos(a0), c[1] + r_out * math.sin(a0)),
                             (c[0] + r_out * math.cos(a1), c[1] + r_out * math.sin(a1)), 2)
    if len(plan.outline) >= 3:
        poly = [camera.to_screen(p) for p in plan.outline]
        pygame.draw.polygon(layer, (*colour, 80), poly)
        pygame.draw.polygon(layer, (*colour, 240), poly, 2)
    for t in plan.models:
        ring = SPARED if t.spared else (FRIEND_WARN if t.friend else ENEMY)
        if t.effect == "shielded":
            ring = (128, 128, 128)
        pygame.draw.circle(layer, (*ring, 255), camera.to_screen(t.centre), max(3.0, t.radius * camera.ppi + 3), 3)
    surface.blit(layer, (0, 0))
