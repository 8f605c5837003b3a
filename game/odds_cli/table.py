"""Template attacks on a tiny table: the odds of a placed template and what a touched model faces (GAP-70)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from game.core.actions import FlameAttack, IllegalAction, TemplateAttack, ThrowGrenade
from game.core.battlefield import Battlefield, Cover, TerrainPiece
from game.core.catalog import GrenadeEffect, Template, load_catalog
from game.core.dice import Rng, TargetNumber, seed_state
from game.core.geometry.polygon import rect
from game.core.odds.facts import odds_ctx
from game.core.odds.templates import ModelTemplateOdds, TemplateOdds, template_odds
from game.core.rules import validate
from game.core.rules.attack import situation
from game.core.rules.context import Ctx
from game.core.rules.delivery import Blast, flame_blast, grenade_blast, weapon_blast
from game.core.rules.modifiers import will_tn
from game.core.rules.template_effects import smoke_will_tn, template_save, template_will_situation
from game.core.settings import Settings
from game.core.state import ActivationState, GameState, ModelState, Phase, SideKind, SideState, UnitState
from game.odds_cli.attack import Attack
from game.odds_cli.build import crew_models, described_situation
from game.odds_cli.exact import Prob
from game.odds_cli.spec import SpecError


@dataclass(frozen=True, slots=True)
class BlastOdds:
    """A template attack (GAP-70, ARMORY-5.1.FLAME) priced by odds.templates.template_odds on a tiny table, with
    the numbers a touched target model faces (template_effects.template_save, template_will_situation)."""

    attack: Attack
    odds: TemplateOdds
    damage: int | None
    save: TargetNumber | None  # the save of an affected model; None: no damage roll (smoke, flash bang)
    save_soft: TargetNumber | None  # behind soft cover (ARMORY-5.2.TEMPLATE-COVER, GAP-73)
    save_dice: int
    will: TargetNumber | None
    will_soft: TargetNumber | None  # touching the soft cover that gave the save bonus (GAP-75)
    will_reason: str

    @property
    def target(self) -> ModelTemplateOdds | None:
        return self.odds.models.get("target")

    def summary(self) -> dict[str, Prob]:
        t = self.target
        zero = Fraction(0)
        return {"p_hit": self.odds.p_hit, "p_touched": t.p_touched if t else zero,
                "p_affected": (t.effects["affected"] + t.effects["soft_cover"]) if t else zero,
                "expected_wounds": t.expected_wounds if t else zero, "p_wound": t.p_wound if t else zero,
                "p_ooa": t.p_ooa if t else zero, "p_pinned_by_will": t.p_pinned_by_will if t else zero,
                "p_any_pin": t.p_any_pin if t else zero}


def tiny_table(a: Attack, attacker: ModelState, targets: tuple[ModelState, ...], s: Settings) -> GameState:
    """A game in the attacker's activation on an open table: the target `range` inches away edge to edge along +x,
    its unit mates in a line behind it 0.05" apart (GEO-21), a low wall of the described cover class in contact in
    front of it (GEO-12), the obstructions spread on the line between (GEO-13), the attacker on a 1" platform when
    elevated (GEO-14), the target's Leader 10" aside, out of any template's reach, for --leader-bonus. No piece
    blocks sight, so every throw is direct (GAP-70)."""
    ra, rt = attacker.radius, targets[0].radius
    ax, y = 6.0, 12.0
    tx = ax + ra + a.range + rt
    pieces: list[TerrainPiece] = []
    front = tx - rt
    if a.cover is not Cover.NONE:
        pieces.append(TerrainPiece(1, f"{a.cover.value} cover", rect(front - 0.25, y - 2.0, front - 0.05, y + 2.0),
                                   0.0, 1.0, cover=a.cover))
        front -= 0.25
    n = a.obstructions
    if n:
        lo, hi = ax + ra + 0.3, front - 0.2
        if hi - lo < 0.15 * n:
            raise SpecError(f"--obstructions {n}: {n} obstruction(s) do not fit on a {a.range:g}\" line between "
                            f"the bases (GEO-13); give a longer --range")
        step = (hi - lo) / n
        for i in range(n):
            x0 = lo + i * step
            pieces.append(TerrainPiece(10 + i, f"obstruction {i + 1}", rect(x0, y - 2.0, x0 + 0.1, y + 2.0), 0.0,
                                       0.75, cover=Cover.OBSTRUCTION))
    z = float(s["elev.step"]) if a.elevated else 0.0
    if a.elevated:  # the attacker stands on a 1" platform (GEO-7) reaching no farther than its base
        pieces.append(TerrainPiece(2, "platform", rect(ax - ra, y - 1.0, ax + ra, y + 1.0), 0.0, z, surface=True))
    width = tx + rt * 2 * a.models + 12.0
    bf = Battlefield(name="odds", width=width, height=2 * y, pieces=tuple(pieces))
    st = GameState(scenario="odds", seed=0, rng=Rng(seed_state(0)), settings=dict(s.overrides),
                   table=(width, 2 * y), battlefield=bf, turn=1, turn_limit=6, phase=Phase.ACTION)
    st.sides = [SideState("a", "attacker", SideKind.CREW, deployed=True),
                SideState("b", "target", SideKind.CREW, controller="ai" if a.ai else "human", deployed=True)]
    st.models["attacker"] = replace(attacker, x=ax, y=y, z=z)
    st.units["attacker"] = UnitState("attacker", "a", ["attacker"])
    for i, m in enumerate(targets):
        st.models[m.id] = replace(m, x=tx + i * (2 * rt + 0.05), y=y)
    st.units["target"] = UnitState("target", "b", [m.id for m in targets], pins=1 if a.pinned else 0)
    if a.leader_bonus:
        lead = replace(targets[0], id="leader", unit="leader", x=tx, y=y + 10.0, wounds_taken=0, items=[],
                       profile=replace(targets[0].profile, name="leader", leader=True))
        st.models["leader"] = lead
        st.units["leader"] = UnitState("leader", "b", ["leader"])
    st.order, st.deciding = ["a", "b"], "a"
    st.activation = ActivationState("attacker", budget=3, aim=a.aim)
    return st


def _template_action(a: Attack, st: GameState) -> FlameAttack | TemplateAttack | ThrowGrenade:
    t = st.models["target"]
    if a.grenade is not None:
        return ThrowGrenade("attacker", a.grenade.id, t.x, t.y)
    assert a.weapon is not None and a.profile is not None
    if a.profile.template is Template.FLAME:
        return FlameAttack("attacker", a.weapon.id, 0.0)
    return TemplateAttack("attacker", a.weapon.id, t.x, t.y, a.profile.name if len(a.weapon.profiles) > 1 else None)


def _blast_of(ctx: Ctx, a: Attack, m: ModelState) -> Blast:
    if a.grenade is not None:
        return grenade_blast(ctx, a.grenade.id)
    assert a.weapon is not None and a.profile is not None
    if a.profile.template is Template.FLAME:
        return flame_blast(ctx, m, a.weapon.id)
    return weapon_blast(ctx, m, a.weapon.id, a.profile.name)[2]


def blast_odds(a: Attack, s: Settings) -> BlastOdds:
    cat = load_catalog(s)
    attacker, targets = crew_models(a, cat)
    st = tiny_table(a, attacker, targets, s)
    action = _template_action(a, st)
    try:
        validate(st, action)
    except IllegalAction as exc:
        raise SpecError(f"--weapon {a.item_id} at --range {a.range:g}: the engine refuses the attack: {exc.reason} "
                        f"({exc.rule})") from None
    ctx = odds_ctx(st)
    geo = situation(ctx, st.models["attacker"], st.models["target"], melee=False)
    want = described_situation(a, s)
    if (geo.cover, geo.cover_before_elevation, geo.elevated, geo.obstructions, geo.leader_bonus) != (
            want.cover, want.cover_before_elevation, want.elevated, want.obstructions, want.leader_bonus):
        raise SpecError(f"--cover/--obstructions/--elevated: the table laid out for this attack gives cover "
                        f"{geo.cover.value}, {geo.obstructions} obstruction(s), elevated {geo.elevated}, not the "
                        f"described ones (GEO-12..14); try a longer --range")
    odds = template_odds(st, action)
    t = st.models["target"]
    blast = _blast_of(ctx, a, st.models["attacker"])
    sv = soft = None
    if blast.damage is not None:
        sv, soft = template_save(ctx, t, blast, False), template_save(ctx, t, blast, True)
    will, why = will_tn(t, replace(template_will_situation(False), leader_bonus=a.leader_bonus), catalog=cat,
                        settings=s)
    if GrenadeEffect.AUTO_PIN in blast.effects:
        will, why = None, "the Flash Bang pins each model it touches, no save, no check (GAP-112)"
    elif GrenadeEffect.SMOKE in blast.effects:
        exempt = "Will NA (GAP-22)" if t.profile.will is None else "Gas Mask (EQUIP-6.2.GAS-MASK)" if (
            "gas_mask" in t.items) else ""
        will, why = (None, exempt) if exempt else (smoke_will_tn(ctx, t), "")
    will_soft = will_tn(t, replace(template_will_situation(True), leader_bonus=a.leader_bonus), catalog=cat,
                        settings=s)[0]
    return BlastOdds(a, odds, blast.damage, sv, soft, max(1, t.profile.save_dice), will, will_soft, why)
