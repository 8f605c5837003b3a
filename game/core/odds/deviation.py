"""Where a template deviated by each D10 touches a model: exact touch arcs, split by GEO-16 effect (GEO-16, GEO-18)."""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from game.core.battlefield import Battlefield, Point2, Scene
from game.core.geometry.distance import EPS
from game.core.geometry.indirect import deviation_distance
from game.core.geometry.templates import TemplateKind, template_coverage
from game.core.settings import Settings


@dataclass(frozen=True, slots=True)
class Arc:
    """Deviation angles [start, end] (radians, start < end, may exceed 2*pi) giving one template effect (GEO-18)."""

    start: float
    end: float
    effect: Any  # a GEO-16 effect, or the Case a key function gave

    @property
    def width(self) -> float:
        return self.end - self.start


def touch_arc(point: Point2, d: float, centre: Point2, reach: float) -> tuple[float, float] | None:
    """The angles t for which |point + d(cos t, sin t) - centre| <= reach, as [start, end], or None if none.

    A full circle is (0, 2*pi). Closed form of templates.template_coverage's touch test (GEO-16, GEO-18)."""
    vx, vy = centre[0] - point[0], centre[1] - point[1]
    dist = math.hypot(vx, vy)
    if dist == 0.0:
        return (0.0, 2 * math.pi) if d <= reach else None
    c = (d * d + dist * dist - reach * reach) / (2.0 * d * dist)
    if c <= -1.0:
        return (0.0, 2 * math.pi)
    if c > 1.0:
        return None
    half = math.acos(c)
    phi = math.atan2(vy, vx)
    return (phi - half, phi + half)


def _effect_at(bf: Battlefield, scene: Scene, kind: TemplateKind, at: Point2, model: str, settings: Settings) -> str:
    cov = template_coverage(bf, scene, kind, (at[0], at[1], 0.0), settings=settings).model(model)
    return "untouched" if cov is None else cov.effect.value


def deviation_arcs(bf: Battlefield, scene: Scene, kind: TemplateKind, point: Point2, model: str, d10: int, *,
                   settings: Settings, samples: int = 64, key: Callable[[Point2], Hashable] | None = None,
                   seeds: tuple[float, ...] = ()) -> list[Arc]:
    """Where a template deviated by roll `d10` (GEO-18) touches `model`, split by GEO-16 effect.

    The touch arc is exact (closed form); on a table with terrain its sub-arcs per effect are found by sampling
    the resolver's own template_coverage and bisecting each change of effect to 1e-12 rad. `key(landing point)`
    splits the arc by anything else the model's round depends on (sampled likewise, even on an open table);
    `seeds` are angles where it may change (other models' exact touch-arc ends), sampled too."""
    base = scene.base(model)
    d = deviation_distance(d10, settings=settings)
    arc = touch_arc(point, d, (base.x, base.y), kind.radius + base.radius + EPS)
    if arc is None:
        return []
    lo, hi = arc
    if key is None and not bf.pieces:
        return [Arc(lo, hi, "affected")]

    def at(t: float) -> Point2:
        return (point[0] + d * math.cos(t), point[1] + d * math.sin(t))

    def eff(t: float) -> Hashable:
        if key is not None:
            return key(at(t))
        e = _effect_at(bf, scene, kind, at(t), model, settings)
        return "affected" if e == "untouched" else e  # the arc's ends are touches; rounding never splits there

    ts = [lo + (hi - lo) * (i + 0.5) / samples for i in range(samples)]
    for sd in seeds:  # just either side of a seed, brought into [lo, hi] by whole turns
        sd = lo + (sd - lo) % (2 * math.pi)
        ts += [x for x in (sd - 1e-9, sd + 1e-9) if lo < x < hi]
    ts.sort()
    es = [eff(t) for t in ts]
    cuts = [lo]
    kinds = [es[0]]
    for (t0, e0), (t1, e1) in itertools.pairwise(zip(ts, es, strict=True)):
        if e0 == e1:
            continue
        a, b = t0, t1
        while b - a > 1e-12:
            mid = 0.5 * (a + b)
            if eff(mid) == e0:
                a = mid
            else:
                b = mid
        cuts.append(0.5 * (a + b))
        kinds.append(e1)
    cuts.append(hi)
    return [Arc(cuts[i], cuts[i + 1], kinds[i]) for i in range(len(kinds))]
