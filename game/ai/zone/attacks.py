"""The Zone's attack choices: which attacks on a target are legal now, the weapon that maximises expected wounds
(AI-D.07 step 2: FP x P(hit) x P(save fails), from the resolver's own plans), when to Aim (AI-D.08), the Alert
interrupt (AI-D.09) and the parry (AI-D.12)."""
from __future__ import annotations

from dataclasses import dataclass

from game.ai.zone.look import ctx_of, legal, ranged_weapons, weapons
from game.core.actions import Action, MeleeAttack, RangedAttack
from game.core.rules.attack import expected_wound_chance
from game.core.rules.fire import ranged_plan
from game.core.rules.melee import melee_plan
from game.core.rules.modifiers import AttackNumbers
from game.core.rules.queries import enemy_contacts, sole_model
from game.core.state import GameState


@dataclass(frozen=True, slots=True)
class Shot:
    """A legal attack with its expected wounds (dice x P(hit) x P(one hit wounds)) and the plan's numbers."""

    action: Action
    weapon: str
    dice: int
    p_hit: float
    p_wound: float
    into_melee: bool

    @property
    def expected(self) -> float:
        return self.dice * self.p_hit * self.p_wound

    def numbers(self) -> dict[str, float | int | str | bool]:
        return {"weapon": self.weapon, "dice": self.dice, "p_hit": round(self.p_hit, 4),
                "p_wound": round(self.p_wound, 4), "expected_wounds": round(self.expected, 4),
                "into_melee": self.into_melee}


def _p_hit(nums: AttackNumbers) -> float:
    return min(9, max(1, nums.hit.value)) / 10.0


def ranged_shots(state: GameState, unit: str, target: str, context: str = "own") -> list[Shot]:
    """Every legal RangedAttack of the unit on `target` (each ranged weapon), best expected wounds first."""
    ctx = ctx_of(state)
    m = sole_model(ctx, unit)
    out = []
    for w in ranged_weapons(state, m):
        a = RangedAttack(unit, target, w.id)
        if not legal(state, a, unit, context):
            continue
        plan = ranged_plan(ctx, a, m, context)
        n = plan.numbers
        out.append(Shot(a, w.id, n.dice, _p_hit(n), expected_wound_chance(n), plan.into_melee))
    return sorted(out, key=lambda s: (-s.expected, s.weapon))


def melee_blows(state: GameState, unit: str, target: str, context: str = "own") -> list[Shot]:
    """Every legal MeleeAttack of the unit on `target` (each weapon usable in melee), best expected wounds first
    (AI-D.07 step 2: an assault rifle at -2 against a knife)."""
    ctx = ctx_of(state)
    m = sole_model(ctx, unit)
    t = state.models[target]
    out = []
    for w in weapons(state, m):
        if not w.usable_in_melee:
            continue
        a = MeleeAttack(unit, target, w.id)
        if not legal(state, a, unit, context):
            continue
        plan = melee_plan(ctx, a, m, t, context)
        n = plan.weapons[0][1]
        out.append(Shot(a, w.id, n.dice, _p_hit(n), expected_wound_chance(n), False))
    return sorted(out, key=lambda s: (-s.expected, s.weapon))


def contact_enemies(state: GameState, unit: str) -> list[str]:
    """Enemy models in base contact with any model of the unit, by id."""
    ctx = ctx_of(state)
    out: set[str] = set()
    for mid in state.units[unit].models:
        m = state.models[mid]
        if m.in_play:
            out.update(o.id for o in enemy_contacts(ctx, m))
    return sorted(out)


def aim_first(shot: Shot, actions_left: int, *, aimed: bool) -> bool:
    """AI-D.08: Aim exactly when (a) the attack rolls FP 1, (b) >= 2 actions remain, (c) it is possible from here
    and (d) no move is needed (both true for a shot found here); firing into a melee always Aims with 2 actions."""
    if aimed or actions_left < 2:
        return False
    return shot.dice == 1 or shot.into_melee


def parry_hits(a_hits: int, d_hits: int, p_a: float, p_b: float) -> int:
    """AI-D.12: parry k = min(a, b) if pB > pA (a defender hit is likelier to wound it than its own hit to wound
    the defender), else 0."""
    return min(a_hits, d_hits) if p_b > p_a else 0
