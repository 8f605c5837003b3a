"""What the autopilot reads of the table for one decision: its side's models, the enemies, who sees whom and from
behind what (one compiled batch of GEO-10/GEO-12 checks), the locations' state, and the threat at a spot. Built
fresh for each decision from the state alone, so the agent keeps no memory outside the state."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property

from game.core.battlefield import Cover, Scene
from game.core.catalog import Catalog
from game.core.geometry.distance import base_distance
from game.core.geometry.sight.batch import CheckVerdict, check_pairs
from game.core.rules.context import Ctx, read_ctx
from game.core.rules.queries import catalog_of, opposed
from game.core.rules.scouting import cleared
from game.core.state import GameState, LocationState, ModelState

# How much of a hit lands through each cover class (the autopilot's own weighting, not a rule).
COVER_LETS = {Cover.NONE: 1.0, Cover.OBSTRUCTION: 0.85, Cover.SOFT: 0.6, Cover.HARD: 0.45, Cover.HARDENED: 0.3}
REACTION = 3.0  # MISSION-8.2.TRIGGER: the Reaction Radius


@dataclass(frozen=True, slots=True)
class Spot:
    """A spot a model could end on, judged against the enemies: `threat` (the weighted enemies that see it, each
    let through by the cover there), `seen_by` (how many), `best_cover` (the best cover class against them) and
    `shots` (the enemies it could shoot from there, within its best range and seen)."""

    x: float
    y: float
    z: float
    threat: float
    seen_by: int
    covered: int
    shots: tuple[str, ...]


class View:
    """One side's view of the state for one decision."""

    def __init__(self, state: GameState, side: str) -> None:
        self.st = state
        self.side = side
        self.ctx: Ctx = read_ctx(state)
        self.cat: Catalog = catalog_of(self.ctx)
        models = sorted((m for m in state.models.values() if m.in_play), key=lambda m: m.id)
        self.mine = [m for m in models if m.side == side]
        self.foes = [m for m in models if opposed(self.ctx, side, m.side)]
        self.settings = self.ctx.settings

    # -- weapons ------------------------------------------------------------------------------------------------
    def reach(self, m: ModelState) -> float:
        """The longest range of m's ranged weapons (0 with none)."""
        best = 0.0
        for wid in m.profile.weapons:
            p = self.cat.weapon(wid).profile
            if p.range_max and p.template is None:
                best = max(best, float(p.range_max))
        return best

    def menace(self, foe: ModelState) -> float:
        """How dangerous an enemy model is to stand in view of: a shooter more than a biter."""
        return 1.0 if self.reach(foe) > 0 else 0.6

    # -- sight --------------------------------------------------------------------------------------------------
    @cached_property
    def sight(self) -> dict[tuple[str, str], CheckVerdict]:
        """(viewer, target) -> the GEO-10/GEO-12 check of one of mine against one enemy, under both orders of the
        pair: only `visible` is read, and GEO-10 LOS is mutual (a check traces both ways), so one check per pair
        answers both."""
        pairs = [(a.id, b.id) for a in self.mine for b in self.foes]
        if not pairs:
            return {}
        out = check_pairs(self.st.battlefield, self.st.scene(), pairs, settings=self.settings)
        return {k: v for v in out for k in ((v.attacker, v.target), (v.target, v.attacker))}

    def sees(self, a: str, b: str) -> bool:
        v = self.sight.get((a, b))
        return bool(v and v.visible)

    def gap(self, a: ModelState, b: ModelState) -> float:
        return base_distance(a.base(), b.base()).distance

    def spots(self, m: ModelState, points: list[tuple[float, float, float]]) -> list[Spot]:
        """Each point judged as m would stand there: the enemies that would see it, through what cover, and the
        enemies m could shoot from it (one batch of checks with a ghost base per point)."""
        if not points:
            return []
        foes = [f for f in self.foes if math.hypot(f.x - m.x, f.y - m.y) < 40.0]
        base = m.base()
        ghosts = [replace(base, id=f"@spot{k}", x=p[0], y=p[1], z=p[2]) for k, p in enumerate(points)]
        scene = self.st.scene()
        scene = Scene(tuple(b for b in scene.bases if b.id != m.id) + tuple(ghosts), scene.smoke)
        pairs = [(f.id, g.id) for g in ghosts for f in foes]
        verdicts = check_pairs(self.st.battlefield, scene, pairs, settings=self.settings) if pairs else ()
        reach = self.reach(m)
        out: list[Spot] = []
        for k, (g, p) in enumerate(zip(ghosts, points, strict=True)):
            threat, seen, covered, shots = 0.0, 0, 0, []
            for j, f in enumerate(foes):
                v = verdicts[k * len(foes) + j]
                if not v.visible:
                    continue
                d = base_distance(f.base(), g).distance
                seen += 1
                lets = COVER_LETS.get(v.degraded, 1.0)
                covered += lets < 0.7
                fr = self.reach(f)
                near = 1.0 if (fr and d <= fr) else (0.7 if d <= 10.0 else 0.25)
                threat += self.menace(f) * lets * near
                if reach and d <= reach:
                    shots.append(f.id)
            out.append(Spot(p[0], p[1], p[2], round(threat, 4), seen, covered, tuple(shots)))
        return out

    # -- locations ----------------------------------------------------------------------------------------------
    def open_locations(self) -> list[LocationState]:
        """Locations still worth going to: not searched (or searchable again by a Scrounger), objective first."""
        locs = [loc for loc in self.st.locations.values() if not loc.searched]
        return sorted(locs, key=lambda loc: (loc.kind != "objective", loc.id))

    def is_clear(self, loc: LocationState) -> bool:
        return cleared(self.ctx, loc)

    def force_models(self, loc: LocationState) -> list[ModelState]:
        return [f for f in self.foes if loc.force is not None and f.side == loc.force]

    def wounded(self, m: ModelState) -> bool:
        return m.wounds_taken > 0

    def fragile(self, m: ModelState) -> bool:
        """One more Wound puts it Out of Action."""
        return m.profile.wounds - m.wounds_taken <= 1 and m.wounds_taken > 0
