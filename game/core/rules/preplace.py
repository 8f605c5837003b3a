"""Hostiles a scenario places at the start (HOSTILE-8.3.ALT-DEPLOY, AI-S.PREPLACE, AI-C.8): their location counts as
already triggered and no roll is made; each unit stands within 6" of the location point in base contact with the
best available cover whose protected side faces the centre of the nearest enemy deployment zone, units at least 1"
apart; Alert tokens as the scenario says. A force without a location (AI-S.G3ZOMBIES) stands where the scenario
puts it and has no leash (GEO-20)."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import shapely

from game.core.battlefield import Base, Cover, Point2
from game.core.geometry.distance import base_distance
from game.core.geometry.movement.positions import position_fact
from game.core.rules.exposure import COVER_CLASSES, contact_points
from game.core.rules.queries import catalog_of
from game.core.rules.spawn import SpawnError, add_units, new_force, place_model
from game.core.state import ModelState
from game.core.tolerance import EPS

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

NEAR = 6.0  # AI-S.PREPLACE: within 6" of pL
SPREAD = 1.0  # AI-S.PREPLACE: units at least 1" apart
RULES = ("HOSTILE-8.3.ALT-DEPLOY", "AI-S.PREPLACE")


@dataclass(frozen=True, slots=True)
class HostileSpec:
    """Hostiles a scenario places at the start (HOSTILE-8.3.ALT-DEPLOY): what (a hostiles.toml id), how many
    figures (GAP-20 makes the units), the location they guard (None: no location and no leash, `at` required),
    actions per activation (None: the location's TL, AI-C.3), Alert tokens, and an optional point to stand at
    instead of AI-S.PREPLACE's choice."""

    hostile: str
    figures: int
    location: str | None
    actions: int | None = None
    alert: bool = False
    at: tuple[float, float] | None = None
    tag: str = ""  # the force's id stem (default: the location id, or "scenario-<n>")


def check_spec(ctx: Ctx, spec: HostileSpec, where: str) -> None:
    """Bad input: an unknown hostile, a missing location, a figure count below 1, a point off the table."""
    cat = catalog_of(ctx)
    if spec.hostile not in cat.hostiles:
        raise SpawnError(f"{where}: field 'hostile' is {spec.hostile!r}; allowed: {', '.join(sorted(cat.hostiles))}")
    if spec.location is not None and spec.location not in ctx.state.locations:
        raise SpawnError(f"{where}: field 'location' is {spec.location!r}; allowed: a location of the scenario "
                         f"({', '.join(sorted(ctx.state.locations)) or 'none'}) or null")
    if spec.location is None and spec.at is None:
        raise SpawnError(f"{where}: a force without a location needs field 'at' (where it stands)")
    if not isinstance(spec.figures, int) or isinstance(spec.figures, bool) or spec.figures < 1:
        raise SpawnError(f"{where}: field 'figures' is {spec.figures!r}; allowed: a whole number >= 1")
    if spec.at is not None:
        w, h = ctx.state.table
        if not (0.0 <= spec.at[0] <= w and 0.0 <= spec.at[1] <= h):
            raise SpawnError(f"{where}: field 'at' is {spec.at!r}, off the table; allowed: 0 <= x <= {w:g}, "
                             f"0 <= y <= {h:g}")


def _enemy_zone_centre(ctx: Ctx, p: Point2) -> Point2 | None:
    """The centre of the crews' deployment zone nearest the point (AI-S.PREPLACE)."""
    best: tuple[float, Point2] | None = None
    for s in ctx.state.sides:
        if s.zone is None:
            continue
        try:
            z = ctx.battlefield.zone(s.zone)
        except KeyError:
            continue
        c = shapely.Polygon(z.footprint).centroid
        d = math.hypot(c.x - p[0], c.y - p[1])
        if best is None or d < best[0]:
            best = (d, (c.x, c.y))
    return best[1] if best else None


def cover_spots(ctx: Ctx, m: ModelState, centre: Point2, facing: Point2 | None,
                taken: list[Base]) -> list[tuple[Cover, float, float, float]]:
    """AI-S.PREPLACE: (cover class, distance to pL, x, y) of every legal point within 6" of pL in base contact with a
    soft, hard or hardened piece whose protected side faces `facing` (the piece between the point and it), at least
    1" from the models already placed, best cover first, then nearest pL, then lowest (x, y)."""
    others = [o.base() for o in ctx.state.models.values() if o.in_play and o.id != m.id] + taken
    out = []
    for piece in ctx.battlefield.pieces:
        if piece.cover not in COVER_CLASSES:
            continue
        for (x, y), (nx, ny) in contact_points(piece.footprint, m.radius):
            d = math.hypot(x - centre[0], y - centre[1])
            if d > NEAR + EPS:
                continue
            if facing is not None and nx * (facing[0] - x) + ny * (facing[1] - y) >= 0:
                continue  # the piece must lie between the point and the enemy zone
            b = replace(m.base(), x=x, y=y, z=0.0)
            if any(base_distance(b, o).distance < SPREAD - EPS for o in taken):
                continue
            fact = position_fact(ctx.battlefield, x, y, 0.0, radius=m.radius, height=m.profile.height,
                                 others=others, mover=m.id, settings=ctx.settings)
            if fact.legal:
                out.append((piece.cover, d, round(x, 6), round(y, 6)))
    out.sort(key=lambda c: (-c[0].rank, c[1], c[2], c[3]))
    return out


def preplace(ctx: Ctx, spec: HostileSpec, n: int) -> None:
    """Place one HostileSpec's force (see the module docstring); one `hostiles_placed` event per unit."""
    st = ctx.state
    where = f"scenario {st.scenario}: hostiles[{n}]"
    check_spec(ctx, spec, where)
    loc = st.locations[spec.location] if spec.location is not None else None
    tl = loc.tl if loc is not None else 1
    own = loc.hostile_actions if loc is not None else None
    actions = spec.actions if spec.actions is not None else own or max(1, tl)
    tag = spec.tag or (loc.id if loc is not None else f"scenario-{n + 1}")
    cat = catalog_of(ctx)
    try:
        force = new_force(ctx, side=f"zone-{tag}", name=f"{cat.hostile(spec.hostile).name} of {tag}",
                          hostile=spec.hostile, location=loc, actions=actions, roll=None)
    except SpawnError as exc:
        raise SpawnError(f"{where}: {exc}") from None
    if loc is not None:
        loc.triggered = True  # HOSTILE-8.3.ALT-DEPLOY: already triggered, no roll
    centre: Point2 = (loc.x, loc.y) if loc is not None else (float(spec.at[0]), float(spec.at[1]))  # type: ignore[index]
    facing = _enemy_zone_centre(ctx, centre)
    taken: list[Base] = []
    for models in add_units(ctx, force, spec.figures):
        first = models[0]
        spots = [] if spec.at is not None else cover_spots(ctx, first, centre, facing, taken)
        want = (spots[0][2], spots[0][3]) if spots else (spec.at or centre)
        placed: list[ModelState] = []
        for m in models:
            at = place_model(ctx, m, want if not placed else (placed[0].x, placed[0].y), centre=force.centre,
                             mates=placed)
            if at is None:
                raise SpawnError(f"{where}: no legal point near ({want[0]:.2f},{want[1]:.2f}) for {m.id}")
            m.x, m.y = at
            m.z, m.deployed = 0.0, True
            placed.append(m)
            taken.append(m.base())
        st.units[first.unit].alert = spec.alert
        ctx.emit("hostiles_placed", RULES + ("GAP-20",), location=loc.id if loc else None, unit=first.unit,
                 side=force.side, hostile=spec.hostile, models=[m.id for m in placed],
                 positions=[[m.x, m.y] for m in placed], alert=spec.alert, in_cover=bool(spots),
                 cover=spots[0][0].value if spots else "none", facing=list(facing) if facing else None, actions=actions)

