"""Pictures of a battlefield and the overlays that show geometry verdicts, drawn from core queries (map pictures
now, the client later). The face offers the picture entry points: `render_battlefield` draws a table with its
overlays (each an `Overlay`: `overlay(surface, to_px)`, `to_px` a `ToPx` from inches to pixels), `headless`
selects SDL's dummy drivers, `Palette`/`PALETTE` are the Zone's colours. The LOS, template and movement overlays
are built in game.render.overlays and game.render.overlays_move; `zona-alfa render-map` is game.render.picture.
The package may import game.core (and game.maps in the command, to read a .tmx); pygame only inside the
functions that draw, never at import time; never game.ai, game.sim or the tools.
"""
from game.render.picture import headless, render_battlefield
from game.render.style import PALETTE, Overlay, Palette, ToPx

__all__ = ["PALETTE", "Overlay", "Palette", "ToPx", "headless", "render_battlefield"]
