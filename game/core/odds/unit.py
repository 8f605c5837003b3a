"""The defending unit as a small immutable snapshot, with the resolver's Pin, Wound, Out of Action and Med-Kit
steps mirrored on it for the exact odds (COMBAT-4.3.WOUND, COMBAT-4.4.*, GAP-22, GAP-32, GAP-33, GAP-92, AI-D.11)."""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from game.core.dice import TargetNumber
from game.core.rules.wounds import PIN_CAP
from game.core.settings import Settings
from game.core.state import ModelState

# A unit snapshot: (wounds taken per model, OOA per model, Hard used per model, Med-Kits per model, Pins).
Snap = tuple[tuple[int, ...], tuple[bool, ...], tuple[bool, ...], tuple[int, ...], int]


@dataclass(frozen=True, slots=True)
class Dist:
    """An exact distribution: outcome -> integer weight over one denominator (Fractions on demand)."""

    weights: dict
    denom: int

    def p(self, key: object) -> Fraction:
        return Fraction(self.weights.get(key, 0), self.denom)

    def fractions(self) -> dict:
        return {k: Fraction(w, self.denom) for k, w in sorted(self.weights.items(), key=lambda kv: str(kv[0]).zfill(8))}

    def at_least(self, k: int) -> Fraction:
        return Fraction(sum(w for x, w in self.weights.items() if x >= k), self.denom)

    def mean(self) -> Fraction:
        return Fraction(sum(x * w for x, w in self.weights.items()), self.denom)


def medkit_use_now(wounds_taken: int, wounds_max: int, kits: int, cap_left: int) -> bool:
    """AI-D.11: a hostile dresses a Wound at once when the kits it may still use this round (COMBAT-4.4.MEDKIT-MULTI)
    prevent Out of Action, or clear every Wound (removing the Two-Wound penalties). One decision per kit."""
    can = min(kits, cap_left)
    if can <= 0 or wounds_taken <= 0:
        return False
    prevents_ooa = wounds_taken >= wounds_max and wounds_taken - can < wounds_max
    clears = wounds_taken - can <= 0
    return prevents_ooa or clears


@dataclass(frozen=True, slots=True)
class UnitFacts:
    """What does not change in a round: the unit's models in wound order (GAP-77), their profiles and kits policy.

    `models` holds every model of the unit, those already Out of Action too (they count as models lost for the
    Will check, COMBAT-4.3.WILL-CASUALTY-MOD, and Wounds pass over them); `hit` is the index of the model the
    attack is resolved against (who saves, whose Out of Action is reported); `check_order` the unit's own order,
    in which a standing model takes the Will check when the hit one is down (attack.deflection_will)."""

    models: tuple[ModelState, ...]
    ai_medkits: bool  # AI-D.11: SideState.controller == "ai"
    settings: Settings
    pins: int = 0  # the unit's Pinned counters when this step starts
    base_pins: int | None = None  # the Pins before the round, when earlier steps already added some
    hit: int = 0
    check_order: tuple[int, ...] | None = None  # None: the wound order

    @property
    def pins_before(self) -> int:
        return self.pins if self.base_pins is None else self.base_pins

    @property
    def multi(self) -> bool:
        return len(self.models) > 1

    def start(self) -> Snap:
        ms = self.models
        return (tuple(m.wounds_taken for m in ms), tuple(not m.in_play for m in ms),
                tuple(m.hard_pin_ignored for m in ms), tuple(m.items.count("medkit") for m in ms),
                self.pins)

    def state_of(self, snap: Snap, i: int) -> ModelState:
        """Model i as it stands in the snapshot, for the TN functions (wounds and OOA drive the Two-Wound Rule)."""
        m = self.models[i]
        if m.wounds_taken == snap[0][i] and m.ooa == snap[1][i]:
            return m
        c = copy.copy(m)
        c.wounds_taken, c.ooa = snap[0][i], snap[1][i]
        return c


def in_play(snap: Snap) -> bool:
    return not all(snap[1])


def add_pins(u: UnitFacts, snap: Snap, n: int) -> Snap:
    """wounds.add_pins: nothing if no model stands or all are Will NA (GAP-22); Hard ignores the first Pin of the
    mission (`hard.scope`); cap 4 (COMBAT-4.4.PIN-CAP)."""
    wounds, ooa, hard, kits, pins = snap
    if all(ooa):
        return snap
    if all(m.profile.will is None for m in u.models):
        return snap
    if n > 0 and u.settings["hard.scope"] == "first_pin_each_mission":
        for i, m in enumerate(u.models):
            if m.profile.has("hard") and not hard[i]:
                hard = hard[:i] + (True,) + hard[i + 1:]
                n -= 1
                break
    return (wounds, ooa, hard, kits, min(PIN_CAP, pins + max(0, n)))


def _go_ooa(u: UnitFacts, snap: Snap, i: int) -> Snap:
    wounds, ooa, hard, kits, pins = snap
    ooa = ooa[:i] + (True,) + ooa[i + 1:]
    if all(ooa) and u.settings["pin.on_ooa"] == "discard":
        pins = 0
    return (wounds, ooa, hard, kits, pins)


def settle(u: UnitFacts, snap: Snap, i: int) -> Snap:
    """wounds.settle_wounds: OOA once undressed Wounds reach the model's Wounds (GAP-92)."""
    if not snap[1][i] and snap[0][i] >= u.models[i].profile.wounds:
        return _go_ooa(u, snap, i)
    return snap


def inflict(u: UnitFacts, snap: Snap, i: int, n: int, queue: list[tuple[int, int]]) -> Snap:
    """wounds.inflict_wounds: n Wounds from one round; 3+ is OOA whatever the kits (GAP-92); a model with a
    Med-Kit waits for its decision (queued); otherwise settle at once."""
    if n <= 0 or snap[1][i]:
        return snap
    wounds, ooa, hard, kits, pins = snap
    snap = (wounds[:i] + (wounds[i] + n,) + wounds[i + 1:], ooa, hard, kits, pins)
    if n >= 3:
        return _go_ooa(u, snap, i)
    if kits[i] and min(n, 2) > 0:
        queue.append((i, n))
        return snap
    return settle(u, snap, i)


def inflict_on_unit(u: UnitFacts, snap: Snap, first: int, n: int) -> Snap:
    """attack.inflict_on_unit, then the Med-Kit decisions in order (rules._on_medkit): a single model takes all
    n Wounds at once; in a multi-model unit each Wound goes to the first model still standing in the wound order
    (`casualty_order`, GAP-77), passing over those already Out of Action."""
    queue: list[tuple[int, int]] = []
    if not u.multi or n <= 0:
        snap = inflict(u, snap, first, n, queue)
    else:
        for _ in range(n):
            alive = [i for i in range(len(u.models)) if not snap[1][i]]
            if not alive:
                break
            snap = inflict(u, snap, alive[0], 1, queue)
    for i, n_round in queue:
        snap = decide_medkits(u, snap, i, n_round)
    return snap


def decide_medkits(u: UnitFacts, snap: Snap, i: int, n_round: int) -> Snap:
    """One MEDKIT decision (COMBAT-4.4.MEDKIT-SELF): kits used per AI-D.11 for an `ai` side, none otherwise;
    each kit removes a Wound (reviving an OOA model) for 2 Pins (Bone Doc 1); then settle."""
    s = u.settings
    cap = min(s["medkit.max_per_round"], n_round)
    dressed = 0
    m = u.models[i]
    pins_each = s["medkit.pins_bone_doc"] if m.profile.has("bone_doc") else s["medkit.pins"]
    while u.ai_medkits and medkit_use_now(snap[0][i], m.profile.wounds, snap[3][i], cap - dressed):
        wounds, ooa, hard, kits, pins = snap
        snap = (wounds[:i] + (max(0, wounds[i] - 1),) + wounds[i + 1:], ooa[:i] + (False,) + ooa[i + 1:], hard,
                kits[:i] + (kits[i] - 1,) + kits[i + 1:], pins)
        snap = add_pins(u, snap, pins_each)
        dressed += 1
        if dressed >= cap or snap[3][i] == 0 or snap[0][i] == 0:
            break
    return settle(u, snap, i)


def will_target(u: UnitFacts, snap: Snap, first: int, tn_of: Callable[[ModelState, int], TargetNumber | None],
                cache: dict) -> tuple[int, TargetNumber | None] | None:
    """attack.deflection_will: who takes the check (the hit model, else the first one standing in the unit's
    order) and its TN, with models lost for a multi-model unit (COMBAT-4.3.WILL-CASUALTY-MOD); None if nobody
    stands."""
    ooa = snap[1]
    i = first
    if ooa[first]:
        order = u.check_order if u.check_order is not None else range(len(ooa))
        standing = [j for j in order if not ooa[j]]
        if not standing:
            return None
        i = standing[0]
    lost = sum(ooa) if u.multi else 0
    key = (i, snap[0][i], lost)
    if key not in cache:
        cache[key] = tn_of(u.state_of(snap, i), lost)
    return i, cache[key]
