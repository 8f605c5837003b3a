"""The modifiers a sight verdict gives an attack, as the rules engine states them (COMBAT-4.1.MODIFIERS).

Nothing is computed here: the cover fact becomes the engine's AttackSituation and game.core.rules.modifiers
(`cover_modifiers`, `save_tn`, `will_tn`, the functions the resolver calls) lists the CA, Armor and Will
modifiers. The defender is a plain profile of the drawn model's kind: it carries no skills, items or Pins, so
only what the terrain gives (obstructions, cover, Obscured for armoured models, soft cover against templates)
appears.
"""
from __future__ import annotations

from game.core.dice import Modifier
from game.core.geometry.sight.cover import CoverFact
from game.core.rules.modifiers import AttackSituation, cover_modifiers, save_tn, will_tn
from game.core.settings import Settings
from game.core.state import ModelProfile, ModelState

DAMAGE_RULE = "VITALS-2.2.DAMAGE"  # save_tn's first modifier: the weapon's Damage, not the terrain's


def plain_defender(name: str, *, creature: bool) -> ModelState:
    """A defender with no skills, items or wounds: armoured models may be Obscured in cover, creatures never."""
    profile = ModelProfile(name=name, move=6.0, ca=5, armour="any", armor=0, armour_move_mod=0.0, will=5, wounds=1,
                           actions=2, experience="plain", obscured=None if creature else "in_cover",
                           creature=creature)
    return ModelState(name, name, "defender", profile, deployed=True)


def _line(stat: str, m: Modifier) -> str:
    return f"{m.value:+d} {stat} {m.label} ({m.rule})"


def situation_of(cov: CoverFact) -> AttackSituation:
    """The ranged attack's situation from its cover fact, as game.core.rules.attack.situation builds it."""
    return AttackSituation(cover=cov.degraded, cover_before_elevation=cov.cover, elevated=cov.elevated,
                           obstructions=cov.obstruction_count)


def ranged_modifier_lines(cov: CoverFact, *, creature: bool, settings: Settings) -> list[str]:
    """'-1 CA 1 obstruction(s) (CORE-3.6.OBSTRUCTION)', '+1 Armor Hard cover (CORE-3.6.TABLE)', ... for a
    ranged attack by `cov.attacker` on `cov.target`; empty when the terrain changes nothing."""
    from game.core.catalog import load_catalog

    catalog = load_catalog(settings)
    target = plain_defender(cov.target, creature=creature)
    s = situation_of(cov)
    lines = [_line("CA", m) for m in cover_modifiers(target, s, catalog=catalog, settings=settings)]
    save = save_tn(target, 0, s, catalog=catalog, settings=settings, target_pinned=False)
    lines += [_line("Armor", m) for m in save.mods if m.rule != DAMAGE_RULE]
    will, _ = will_tn(target, s, catalog=catalog, settings=settings)
    if will is not None:
        lines += [_line("Will", m) for m in will.mods]
    return lines


def template_save_lines(*, soft_cover: bool, settings: Settings) -> list[str]:
    """The save modifiers of a template hit (ARMORY-5.2.TEMPLATE-COVER): '+2 Armor soft cover vs template ...'."""
    from game.core.catalog import load_catalog

    catalog = load_catalog(settings)
    s = AttackSituation(template=True, template_soft_cover=soft_cover)
    save = save_tn(plain_defender("target", creature=False), 0, s, catalog=catalog, settings=settings,
                   target_pinned=False)
    return [_line("Armor", m) for m in save.mods if m.rule != DAMAGE_RULE]
