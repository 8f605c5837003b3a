"""Deploy (TURN-4): a model placed wholly inside its side's zone, outside every Reaction Radius, on a legal spot."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.core.actions import Deploy, IllegalAction
from game.core.geometry.polygon import circle_inside_polygon
from game.core.rules.movepath import LOCATION_KINDS, check_position
from game.core.tolerance import EPS

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

REACTION_RADIUS = 3.0  # MISSION-8.2.TRIGGER / GEO-15: a location's Reaction Radius


def check_deploy(ctx: Ctx, a: Deploy) -> None:
    st = ctx.state
    m = st.models.get(a.model)
    if m is None:
        raise IllegalAction(f"no model {a.model!r}", "TURN-4")
    if m.side != st.deciding:
        raise IllegalAction(f"{a.model} belongs to {m.side}; {st.deciding} is deploying", "TURN-4")
    if m.deployed:
        raise IllegalAction(f"{a.model} is already deployed", "TURN-4")
    zone_name = st.side(m.side).zone
    if zone_name is not None:
        zone = ctx.battlefield.zone(zone_name)
        if not circle_inside_polygon((a.x, a.y), m.radius, zone.footprint):
            raise IllegalAction(f"{a.model} at ({a.x:g},{a.y:g}) is not wholly inside zone {zone_name}", "TURN-4")

    # The map's location anchors and the scenario's locations (MISSION-8.2) alike.
    points = [(loc.name, loc.point) for loc in ctx.battlefield.anchors if loc.kind in LOCATION_KINDS]
    points += [(loc.name, (loc.x, loc.y)) for loc in st.locations.values()]
    for name, (px, py) in points:
        gap = math.hypot(a.x - px, a.y - py) - m.radius
        if gap <= REACTION_RADIUS + EPS:
            raise IllegalAction(f"{a.model} at ({a.x:g},{a.y:g}) would start inside the Reaction Radius of "
                                f"{name} ({gap:.2f} in from it)", "TURN-4")
    check_position(ctx, m, a.x, a.y, a.z, rule="GEO-7")


def do_deploy(ctx: Ctx, a: Deploy) -> None:
    m = ctx.state.models[a.model]
    m.x, m.y, m.z = float(a.x), float(a.y), float(a.z)
    m.deployed = True
    ctx.emit("deploy", ("TURN-4",), model=a.model, x=m.x, y=m.y, z=m.z)
