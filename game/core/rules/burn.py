"""The Burn: save after save until one passes, all of them one roll for criticals (ARMORY-5.1.BURN, GAP-74)."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from game.core.dice import Crit, Modifier, PoolResult, TargetNumber, evaluate_pool
from game.core.rules.attack import situation_json
from game.core.rules.context import record_crit
from game.core.rules.modifiers import AttackSituation
from game.core.rules.wounds import inflict_wounds
from game.core.settings import Settings
from game.core.state import ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx


@dataclass(frozen=True, slots=True)
class BurnCrits:
    """GAP-74: the saves of one model's Burn are one roll for criticals (INTRO-1.2.CRIT-PER-ROUND): which
    natural 1s and 10s it has shown so far (on the kept dice, and on every die for GAP-14 `any_die`), and
    whether its one crit Pin or one extra action was already given, and the Burn's crit so far."""

    kept_one: bool = False
    kept_ten: bool = False
    any_one: bool = False
    any_ten: bool = False
    pinned: bool = False
    extra: bool = False
    crit: str = "none"


def burn_save(chain: BurnCrits, dice: tuple[int, ...], tn: int,
              settings: Settings) -> tuple[bool, Crit, BurnCrits, bool, bool]:
    """One save of a Burn (ARMORY-5.1.BURN) judged as part of the Burn's one roll (GAP-74): best-of-two armour
    keeps the lower die (COMBAT-4.1.SAVE); a Critical Mix is judged on the dice so far (GAP-11: in a mix, with
    `crit.mix_keeps_auto`=false, the die is compared with the TN normally); the crit Pin comes with the first
    Critical Failure, the extra action with the first Critical Success, never after a mix.

    Returns (saved, the Burn's crit so far, the new chain, a crit Pin now, an extra action now)."""
    kept = min(dice)
    prev = (1,) * chain.kept_one + (10,) * chain.kept_ten
    saved = evaluate_pool(prev + (kept,), tn, settings=settings).success[-1]
    if settings["crit.best_of_two"] == "any_die":
        flat = (1,) * chain.any_one + (10,) * chain.any_ten + tuple(dice)
    else:
        flat = prev + (kept,)
    crit = evaluate_pool(flat, tn, settings=settings).crit
    pin = crit is Crit.FAILURE and not chain.pinned
    extra = crit is Crit.SUCCESS and not chain.extra
    new = BurnCrits(chain.kept_one or kept == 1, chain.kept_ten or kept == 10, chain.any_one or 1 in dice,
                    chain.any_ten or 10 in dice, chain.pinned or pin, chain.extra or extra, crit.value)
    return saved, crit, new, pin, extra


def burn_save_roll(ctx: Ctx, m: ModelState, tn: TargetNumber, save_dice: int, chain: BurnCrits, *,
                   what: str) -> tuple[bool, BurnCrits, PoolResult]:
    """Roll and log one Burn save (`burn_save`): `crit` is what this save changed in the Burn's crit (a roll that
    leaves it as it was shows none), `burn_crit` the Burn's crit so far. Returns the save, the new chain and the
    roll's crit effect for `record_crit` (FAILURE: the Pin now; SUCCESS: the action now)."""
    dice = tuple(ctx.dice.d10() for _ in range(max(1, save_dice)))
    saved, crit, new, pin, extra = burn_save(chain, dice, tn.value, ctx.settings)
    ctx.state.round_counter += 1
    kept = min(dice)
    now = crit if crit.value != chain.crit else Crit.NONE
    rules = ("ARMORY-5.1.BURN", "GAP-74") + (("COMBAT-4.1.SAVE", "GAP-14") if save_dice > 1 else ())
    crit_rule = {Crit.SUCCESS: ("INTRO-1.2.CRIT-SUCCESS",), Crit.FAILURE: ("INTRO-1.2.CRIT-FAIL",),
                 Crit.MIX: ("INTRO-1.2.CRIT-MIX",), Crit.NONE: ()}[now]
    data: dict[str, Any] = {"what": what, "who": m.id, "dice": [kept]}
    if save_dice > 1:
        data["rolled"] = [list(dice)]
    ctx.emit("roll", rules + crit_rule, **data, tn=tn.value, tn_text=tn.text(), breakdown=tn.breakdown(),
             successes=int(saved), outcome=[saved], crit=now.value, burn_crit=crit.value,
             round=ctx.state.round_counter)
    effect = Crit.FAILURE if pin else Crit.SUCCESS if extra else Crit.NONE
    return saved, new, PoolResult((kept,), tn.value, (saved,), effect)


def _tn_from(breakdown: list[list[Any]]) -> TargetNumber:
    base = Modifier(*breakdown[0])
    return TargetNumber(base, tuple(Modifier(*x) for x in breakdown[1:]))


def burn_step(ctx: Ctx, c: dict[str, Any]) -> None:
    """ARMORY-5.1.BURN / GAP-74: save after save until one passes (a deflection: one Will check, unless
    `burn.deflection_will`=false) or the model runs out of Wounds; a Med-Kit may be used between rolls
    (`burn.medkit_between`); all the saves are one roll for criticals (`burn_save`)."""

    st = ctx.state
    m = st.models[c["model"]]
    if not m.in_play:
        return
    tn = _tn_from(c["save"])
    chain = BurnCrits(**c.get("crits", {}))
    saved, chain, effect = burn_save_roll(ctx, m, tn, c["save_dice"], chain, what=f"Burn save vs {c['name']}")
    record_crit(ctx, m.unit, effect, context="offturn", rules=("ARMORY-5.1.BURN", "GAP-74"))
    if saved:
        ctx.emit("burn_out", ("ARMORY-5.1.BURN", "GAP-74"), model=m.id)
        if ctx.settings["burn.deflection_will"]:
            will_s = c.get("will") or situation_json(AttackSituation(template=True))
            st.continuations.insert(0, {"kind": "deflect_will", "model": m.id, "round": c["round"],
                                        "situation": will_s})
        return
    st.continuations.insert(0, dict(c, crits=asdict(chain)))
    if ctx.settings["burn.medkit_between"]:
        inflict_wounds(ctx, m.id, 1, c["round"])
    else:
        inflict_wounds(ctx, m.id, 1, c["round"], kit_window=False)  # GAP-74 `burn.medkit_between`=false
