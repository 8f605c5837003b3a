"""What a placed template does to the models it touches: saves, Will, smoke, Flash Bang, Burn (GAP-70, GAP-72..75)."""
from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from game.core.catalog.profiles import GrenadeEffect, Template
from game.core.dice import Modifier, TargetNumber
from game.core.geometry.templates import ModelCoverage, TemplateEffect, TemplateFact
from game.core.rules.attack import situation_json, take_hits
from game.core.rules.burn import BurnCrits
from game.core.rules.context import record_crit
from game.core.rules.delivery import Blast
from game.core.rules.modifiers import AttackNumbers, AttackSituation, save_tn
from game.core.rules.queries import catalog_of, leader_bonus
from game.core.rules.stats import will_tn as plain_will_tn
from game.core.rules.wounds import add_pins, inflict_wounds
from game.core.settings import Settings
from game.core.state import ModelState, SmokeState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

SMOKE_RADIUS = 2.5  # GAP-72: the cloud is an LBT


def spared(settings: Settings, attacker: ModelState, blast: Blast, side: str) -> bool:
    """GAP-73 `flame.friendly`=false: the flame does not affect the attacker's friends it touches."""
    return blast.template is Template.FLAME and side == attacker.side and not settings["flame.friendly"]


def spared_friends(ctx: Ctx, attacker: ModelState, blast: Blast, fact: TemplateFact) -> tuple[str, ...]:
    """GAP-73 `flame.friendly`=false: the touched friends the flame spares (`spared`)."""
    return tuple(c.model for c in fact.models if c.effect is not TemplateEffect.SHIELDED
                 and spared(ctx.settings, attacker, blast, c.side))


def smoke_cloud(settings: Settings, centre: tuple[float, ...], turn: int) -> SmokeState:
    """GAP-72: an LBT cylinder `smoke.height` tall blocking LOS, until the end of the next turn (`smoke.duration`)."""
    lasts = 1 if settings["smoke.duration"] == "until_end_of_next_turn" else 0
    return {"x": centre[0], "y": centre[1], "z": 0.0, "radius": SMOKE_RADIUS, "height": float(settings["smoke.height"]),
            "expires_after_turn": turn + lasts}


def template_save(ctx: Ctx, m: ModelState, blast: Blast, soft_cover: bool) -> TargetNumber:
    """COMBAT-4.1.SAVE against a template hit: Armor - Damage, +2 behind soft cover (ARMORY-5.2.TEMPLATE-COVER;
    the flame's bonus is `flame.soft_save_bonus`, GAP-73); never the Pinned-in-cover bonus (GAP-75)."""
    assert blast.damage is not None
    flame = blast.template is Template.FLAME
    s = AttackSituation(distance=0.0, template=True, template_soft_cover=soft_cover and not flame)
    sv = save_tn(m, blast.damage, s, catalog=catalog_of(ctx), settings=ctx.settings,
                 target_pinned=ctx.state.units[m.unit].pins > 0)
    bonus = int(ctx.settings["flame.soft_save_bonus"])
    if soft_cover and flame and bonus:
        sv = TargetNumber(sv.base, sv.mods + (Modifier("soft cover vs flame", bonus, "GAP-73"),))
    return sv


def template_will_situation(will_cover: bool) -> AttackSituation:
    """GAP-75: the deflection Will check of a template hit has the cover Will bonus only of a soft piece that gave
    the model its template save bonus (GEO-16) and that its base touches (GEO-12); otherwise none
    (`modifiers.will_tn` cites GAP-75 for it). The Leader bonus and the models lost are added when the check is
    taken."""
    return AttackSituation(template=True, template_will_cover=will_cover)


def will_cover(cov: ModelCoverage) -> bool:
    """GAP-75: the model touches a soft piece that gave it the template save bonus."""
    return cov.effect is TemplateEffect.SOFT_COVER and bool(cov.soft_cover_contact)


def apply_template_effects(ctx: Ctx, attacker: ModelState, blast: Blast, fact: TemplateFact, round_id: int) -> None:
    """GEO-16 / GAP-70: the smoke cloud (GAP-72), then every model the template touches and neither shields nor
    spares (GAP-73): its smoke Will check (GAP-72), the Flash Bang's Pin (GAP-112), then one automatic hit at the
    template's Damage with its save and Will check (GAP-75), or its Burn (GAP-74); an Out of Action figure takes a
    Wound (GAP-93)."""
    st = ctx.state
    if GrenadeEffect.SMOKE in blast.effects:
        centre = fact.origin
        st.smoke.append(smoke_cloud(ctx.settings, centre, st.turn))
        ctx.emit("smoke", ("ARMORY-5.1.GRENADE-TABLE", "GAP-72"), centre=[centre[0], centre[1]],
                 height=ctx.settings["smoke.height"])
    friends = spared_friends(ctx, attacker, blast, fact)
    if friends:
        ctx.emit("template_spared", ("GAP-73",), models=list(friends),
                 reason="flame.friendly=false: friends are spared")
    for cov in fact.models:
        m = st.models.get(cov.model)
        if m is None or m.dead or cov.effect is TemplateEffect.SHIELDED or cov.model in friends:
            continue
        if m.ooa:
            # GAP-93: an Out of Action figure under a template takes the hit; a Wound in another round kills it.
            if blast.damage is not None:
                inflict_wounds(ctx, m.id, 1, round_id)
            continue
        if GrenadeEffect.SMOKE in blast.effects:
            st.continuations.append({"kind": "smoke_will", "model": m.id})
        if GrenadeEffect.AUTO_PIN in blast.effects:
            add_pins(ctx, m.unit, 1, reason=f"{blast.name}: automatic Pin, no save",
                     rules=("ARMORY-5.1.GRENADE-TABLE", "GAP-112"))
        if blast.damage is None:
            continue
        sv = template_save(ctx, m, blast, cov.effect is TemplateEffect.SOFT_COVER)
        will_s = template_will_situation(will_cover(cov))
        if GrenadeEffect.BURN in blast.effects:
            st.continuations.append({"kind": "burn", "model": m.id, "save": sv.breakdown(),
                                     "save_dice": max(1, m.profile.save_dice), "round": round_id,
                                     "deflected": 0, "name": blast.name, "will": situation_json(will_s),
                                     "crits": asdict(BurnCrits())})
            continue

        nums = AttackNumbers(1, TargetNumber(Modifier("automatic", 10, "GAP-70")), blast.damage, (), sv,
                             max(1, m.profile.save_dice), None)
        take_hits(ctx, m, 1, nums, will_s, round_id=round_id, ranged=True, what=f"armour save vs {blast.name}",
                  rules=("ARMORY-5.1.SBT-LBT", "GAP-70"))


def smoke_will_tn(ctx: Ctx, m: ModelState, *, leader: tuple[Modifier, ...] | None = None) -> TargetNumber:
    """GAP-72: Will at `smoke.will_mod` (-2) with the Leader bonus (SKILL-6.1.LEADER): `leader`, or as the model
    stands now, the new cloud in place."""
    bonus = leader_bonus(ctx, m) if leader is None else leader
    return plain_will_tn(m, (Modifier("smoke", int(ctx.settings["smoke.will_mod"]), "GAP-72"),) + bonus)


def smoke_check(ctx: Ctx, c: dict[str, Any]) -> None:
    """GAP-72: each model touched by the smoke takes a Will check at `smoke.will_mod` (-2; Gas Mask and Will NA
    exempt); fail: `smoke.fail_pins` (1) Pin."""

    m = ctx.state.models[c["model"]]
    if not m.in_play:
        return
    if m.profile.will is None or "gas_mask" in m.items:
        ctx.emit("will_exempt", ("GAP-72", "EQUIP-6.2.GAS-MASK"), model=m.id,
                 reason="Gas Mask" if m.profile.will is not None else "Will NA")
        return
    res = ctx.roll_pool(1, smoke_will_tn(ctx, m), what="Will check in smoke", who=m.id, rules=("GAP-72",))
    if not res.successes:
        add_pins(ctx, m.unit, int(ctx.settings["smoke.fail_pins"]), reason="failed the smoke Will check",
                 rules=("GAP-72",))
    record_crit(ctx, m.unit, res, context="offturn", rules=("GAP-72",))
