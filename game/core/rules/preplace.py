"""Hostiles a scenario places at the start (HOSTILE-8.3.ALT-DEPLOY, AI-S.PREPLACE, AI-C.8): their location counts as
already triggered and no roll is made; each unit stands within 6" of the location point in base contact with the
best available cover whose protected side faces the centre of the nearest enemy deployment zone, units at least 1"
apart; Alert tokens as the scenario says. A force without a location (AI-S.G3ZOMBIES) stands where the scenario
puts it and has no leash (GEO-20).

Scenario extensions (SCEN-10.*.CARD):
* `sites`: the force stands at one of several points chosen at random at setup (GAP-99: Game One's dogs "in one of
  the four structures", a D4); specs with the same `site_group` share one roll (both packs in the same structure).
  The die: a D6 for up to 6 sites, a D10 for 7 to 10, re-rolled while above the number of sites (uniform); the
  `hostile_site_chosen` event gives the rolls. The chosen point is the force's leash centre pL (GEO-20) unless
  `leash` is false, and AI-S.PREPLACE places round it.
* `force`: specs with the same force key join one force (GAP-100: Big Nikolai and his four rookies are one force,
  so the camp is cleared only when all five are down, GAP-53); each spec's units keep their own profile and actions.
* Overrides of the stat line (HOSTILE-8.3.SUBSTITUTE, HOSTILE-8.3.WEAPONS, GAP-100): a name, Move/CA/Will/Wounds/
  Armor, worn armour (its Armor value, save dice and Obscured from the Armory), weapons (the hostile's own attacks
  keep their FP and Damage; any other weapon fights with its Armory line), items in slots and grenades carried.
* `converge`: points a force without a location heads for while it sees no player model (AI-S.G3ZOMBIES: the CPO's
  doors); the Zone's agent and the rules checker read `ForceState.converge`."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import shapely

from game.core.battlefield import Base, Cover, Point2
from game.core.catalog.difficulty import scaled
from game.core.geometry.distance import base_distance
from game.core.geometry.movement.positions import position_fact
from game.core.rules.exposure import COVER_CLASSES, contact_points
from game.core.rules.queries import catalog_of
from game.core.rules.spawn import SpawnError, add_units, new_force, place_model
from game.core.state import ForceState, LocationState, ModelProfile, ModelState
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
    sites: tuple[tuple[str, float, float], ...] = ()  # (name, x, y) chosen among at random (GAP-99)
    site_group: str = ""  # specs of one group share the site roll
    leash: bool = True  # a force at a site is leashed to it (GEO-20); False: no leash
    force: str = ""  # specs with the same key form one force (GAP-100)
    name: str | None = None  # the models' name (e.g. "Big Nikolai")
    stats: tuple[tuple[str, float], ...] = ()  # overrides of move, ca, will, wounds, armor
    armour: str | None = None  # worn armour (armour.toml id)
    weapons: tuple[str, ...] | None = None  # weapons.toml ids instead of the stat line's attacks
    items: tuple[str, ...] = ()  # Equipment Slot contents (e.g. a Med-Kit, AI-D.11)
    grenades: tuple[tuple[str, int], ...] = ()  # grenades carried (e.g. a Molotov, AI-D.10)
    converge: tuple[tuple[float, float], ...] = ()  # AI-S.G3ZOMBIES goal points (a force without a location)


STAT_FIELDS = ("move", "ca", "will", "wounds", "armor")


def check_spec(ctx: Ctx, spec: HostileSpec, where: str) -> None:
    """Bad input: an unknown hostile, a missing location, a figure count below 1, a point off the table."""
    cat = catalog_of(ctx)
    if spec.hostile not in cat.hostiles:
        raise SpawnError(f"{where}: field 'hostile' is {spec.hostile!r}; allowed: {', '.join(sorted(cat.hostiles))}")
    if spec.location is not None and spec.location not in ctx.state.locations:
        raise SpawnError(f"{where}: field 'location' is {spec.location!r}; allowed: a location of the scenario "
                         f"({', '.join(sorted(ctx.state.locations)) or 'none'}) or null")
    if spec.location is None and spec.at is None and not spec.sites:
        raise SpawnError(f"{where}: a force without a location needs field 'at' (where it stands) or 'sites'")
    if len(spec.sites) > 10:
        raise SpawnError(f"{where}: field 'sites' names {len(spec.sites)} points; allowed: 1 to 10 (one die roll)")
    for stat, _ in spec.stats:
        if stat not in STAT_FIELDS:
            raise SpawnError(f"{where}: field 'stats.{stat}' is unknown; allowed: {', '.join(STAT_FIELDS)}")
    if spec.armour is not None and spec.armour not in cat.armours:
        raise SpawnError(f"{where}: field 'armour' is {spec.armour!r}; allowed: {', '.join(sorted(cat.armours))}")
    for weapon in spec.weapons or ():
        if weapon not in cat.weapons:
            raise SpawnError(f"{where}: field 'weapons' names {weapon!r}; allowed: a weapons.toml id")
    for g, count in spec.grenades:
        if g not in cat.grenades or not isinstance(count, int) or count < 1:
            raise SpawnError(f"{where}: field 'grenades' has {g!r} = {count!r}; allowed: a grenades.toml id = a "
                             "whole number >= 1")
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


def _site_die(ctx: Ctx, n: int) -> tuple[int, list[int], str]:
    """A uniform choice among n (1-10) sites: a D6 (n <= 6) or a D10, re-rolled while above n; (pick, rolls, die)."""
    if n == 1:
        return 1, [], "none"
    roll, die = (ctx.dice.d6, "D6") if n <= 6 else (ctx.dice.d10, "D10")
    rolls = [roll()]
    while rolls[-1] > n:
        rolls.append(roll())
    return rolls[-1], rolls, die


def choose_site(ctx: Ctx, spec: HostileSpec, n: int) -> tuple[str, float, float]:
    """GAP-99: the site the spec's force stands at; specs of one `site_group` share the first roll (the
    `hostile_site_chosen` event of that group says which)."""
    group = spec.site_group or f"hostiles[{n}]"
    for e in ctx.events:
        if e.type == "hostile_site_chosen" and e.data.get("group") == group:
            return str(e.data["site"]), float(e.data["point"][0]), float(e.data["point"][1])
    pick, rolls, die = _site_die(ctx, len(spec.sites))
    name, x, y = spec.sites[pick - 1]
    ctx.emit("hostile_site_chosen", ("GAP-99", "HOSTILE-8.3.ALT-DEPLOY"), group=group, site=name, point=[x, y],
             sites=[s[0] for s in spec.sites], die=die, rolls=rolls, hostile=spec.hostile)
    return name, float(x), float(y)


def override_profile(ctx: Ctx, spec: HostileSpec, prof: ModelProfile) -> ModelProfile:
    """The stat line with the spec's overrides (see the module docstring): name, stats, worn armour, weapons; the
    stats and the worn armour's Armor take the game's `hostiles.difficulty` change for the hostile, as its catalog
    line did (HOSTILE-8.3.SCALING, game.core.catalog.difficulty)."""
    cat = catalog_of(ctx)
    changes: dict[str, object] = {}
    if spec.name:
        changes["name"] = spec.name
    if spec.armour is not None:
        worn = cat.armour(spec.armour)
        changes.update(armour=spec.armour, armor=scaled(cat, spec.hostile, "armor", worn.armor),
                       armour_move_mod=float(worn.move_mod),
                       obscured=worn.obscured.value, save_dice=worn.save_dice, will_exempt=worn.will_exempt)
    for k, v in spec.stats:  # the scenario's numbers at the game's difficulty level (HOSTILE-8.3.SCALING)
        changes[k] = float(scaled(cat, spec.hostile, k, float(v))) if k == "move" else int(scaled(cat, spec.hostile,
                                                                                                  k, int(v)))
    if spec.weapons is not None:
        changes["weapons"] = tuple(spec.weapons)
        changes["fp_overrides"] = tuple(o for o in prof.fp_overrides if o[0] in spec.weapons)
        changes["support_weapon"] = any(cat.weapon(w).is_support for w in spec.weapons)
    return replace(prof, **changes) if changes else prof  # type: ignore[arg-type]


def _force_for(ctx: Ctx, spec: HostileSpec, n: int, loc: LocationState | None, actions: int,
               site: tuple[str, float, float] | None) -> ForceState:
    """The spec's force: a new one, or the one an earlier spec with the same `force` key made (GAP-100)."""
    st = ctx.state
    if spec.force:
        for f in st.forces.values():
            if f.side == f"zone-{spec.force}":
                if f.hostile != spec.hostile:
                    raise SpawnError(f"field 'hostile' is {spec.hostile!r} but force {spec.force!r} is of "
                                     f"{f.hostile!r}; allowed: the hostile of the force it joins")
                return f
    tag = spec.force or spec.tag or (loc.id if loc is not None else (site[0] if site else f"scenario-{n + 1}"))
    if spec.sites and not spec.force and not spec.tag:
        tag = f"{tag}-{n + 1}"  # several packs at one site: one force each
    cat = catalog_of(ctx)
    where = loc.name if loc is not None else (site[0] if site else tag)
    centre = (site[1], site[2]) if site is not None and spec.leash else None
    force = new_force(ctx, side=f"zone-{tag}", name=f"{cat.hostile(spec.hostile).name} of {where}",
                      hostile=spec.hostile, location=loc, actions=actions, roll=None, leash=spec.leash,
                      centre=centre)
    force.converge = [[float(x), float(y)] for x, y in spec.converge]
    return force


def preplace(ctx: Ctx, spec: HostileSpec, n: int) -> None:
    """Place one HostileSpec's force (see the module docstring); one `hostiles_placed` event per unit."""
    st = ctx.state
    where = f"scenario {st.scenario}: hostiles[{n}]"
    check_spec(ctx, spec, where)
    loc = st.locations[spec.location] if spec.location is not None else None
    tl = loc.tl if loc is not None else 1
    own = loc.hostile_actions if loc is not None else None
    actions = spec.actions if spec.actions is not None else own or max(1, tl)
    site = choose_site(ctx, spec, n) if spec.sites else None
    try:
        force = _force_for(ctx, spec, n, loc, actions, site)
    except SpawnError as exc:
        raise SpawnError(f"{where}: {exc}") from None
    if loc is not None:
        loc.triggered = True  # HOSTILE-8.3.ALT-DEPLOY: already triggered, no roll
    if site is not None:
        centre: Point2 = (site[1], site[2])
    elif loc is not None:
        centre = (loc.x, loc.y)
    else:
        centre = (float(spec.at[0]), float(spec.at[1]))  # type: ignore[index]
    facing = _enemy_zone_centre(ctx, centre)
    taken: list[Base] = [m.base() for m in st.models.values() if m.deployed and m.side == force.side]
    for models in add_units(ctx, force, spec.figures, start=sum(1 for u in st.units.values()
                                                                  if u.side == force.side) + 1):
        first = models[0]
        for m in models:
            m.profile = override_profile(ctx, spec, m.profile)
            m.profile = replace(m.profile, actions=actions) if m.profile.actions != actions else m.profile
            m.items = list(spec.items)
            m.grenades = dict(spec.grenades)
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
                 cover=spots[0][0].value if spots else "none", facing=list(facing) if facing else None,
                 actions=actions, **({"name": spec.name} if spec.name else {}),
                 **({"site": site[0]} if site else {}),
                 **({"items": list(spec.items)} if spec.items else {}),
                 **({"grenades": dict(spec.grenades)} if spec.grenades else {}),
                 **({"armour": spec.armour} if spec.armour else {}))
