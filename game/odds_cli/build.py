"""The attacker and the target unit from the catalog's profiles, and the numbers of a direct attack (COMBAT-4.1.*)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from game.core.catalog import Catalog, load_catalog
from game.core.geometry.sight.cover import degrade
from game.core.odds.unit import UnitFacts
from game.core.rules.modifiers import AttackNumbers, AttackSituation, attack_numbers
from game.core.rules.setup import ModelSpec, build_profile
from game.core.settings import Settings
from game.core.state import ModelState
from game.odds_cli.attack import Attack
from game.odds_cli.checks import check_spec
from game.odds_cli.spec import SpecError


def crew_models(a: Attack, cat: Catalog) -> tuple[ModelState, tuple[ModelState, ...]]:
    """The attacker and the target unit as the engine builds crew models (setup.build_profile), with the
    described numbers; a creature's profile carries its hide's Armor and no Obscured rule (ARMORY-5.3.NATURAL)."""
    weapons = (a.weapon.id,) if a.weapon is not None else ()
    a_prof = replace(build_profile(cat, ModelSpec("attacker", "attacker", "veteran", "civilian", weapons,
                                                  a.attacker_skills, a.attacker_items)), ca=a.ca)
    t_spec = ModelSpec("target", "target", "hardened", a.armour.id if a.armour else "civilian", (), a.target_skills,
                       a.target_items)
    base = build_profile(cat, t_spec)
    natural = a.armour is None  # ARMORY-5.3.NATURAL: a hide, never Obscured, one save die
    t_prof = replace(base, will=a.will, wounds=a.wounds, armor=a.armour_value, will_exempt=a.will_exempt,
                     armour="natural" if natural else base.armour, armour_move_mod=0.0 if natural else
                     base.armour_move_mod, creature=natural, obscured=None if natural else base.obscured,
                     save_dice=1 if natural else base.save_dice)
    attacker = ModelState("attacker", "attacker", "a", a_prof, deployed=True, items=list(a.attacker_items),
                          grenades={a.grenade.id: 2} if a.grenade is not None else {})
    targets = tuple(ModelState(f"target{i + 1}" if i else "target", "target", "b", t_prof, deployed=True,
                               items=list(a.target_items), wounds_taken=a.wounds_taken if i == 0 else 0)
                    for i in range(a.models))
    return attacker, targets


def described_situation(a: Attack, s: Settings) -> AttackSituation:
    """The facts the geometry would give (GEO-12..14): cover after elevation, obstructions unless higher."""
    return AttackSituation(distance=a.range, cover=degrade(a.cover, settings=s) if a.elevated else a.cover,
                           cover_before_elevation=a.cover, elevated=a.elevated,
                           obstructions=0 if a.elevated else a.obstructions, aim=a.aim, leader_bonus=a.leader_bonus,
                           extra_dice=((a.profile.fp or 0) + 2) if a.unload and a.profile else 0)


def build_attack(spec: dict[str, Any], *,
                 settings: Settings | None = None) -> tuple[AttackNumbers, UnitFacts, AttackSituation, Catalog]:
    """(AttackNumbers, target unit, situation, catalog) of a direct ranged attack, through modifiers.attack_numbers
    with the catalog's weapon and armour profiles; a template weapon is refused (it has no such numbers)."""
    s = settings or Settings.defaults()
    a = check_spec(spec, settings=s)
    if a.template is not None:
        raise SpecError(f"{a.name} places a template: its odds come from odds_from_spec (template_odds)")
    return ranged_parts(a, s)


def ranged_parts(a: Attack, s: Settings) -> tuple[AttackNumbers, UnitFacts, AttackSituation, Catalog]:
    cat = load_catalog(s)
    assert a.weapon is not None and a.profile is not None
    attacker, targets = crew_models(a, cat)
    sit = described_situation(a, s)
    nums = attack_numbers(attacker, targets[0], a.weapon, a.profile, sit, catalog=cat, settings=s,
                          target_pinned=a.pinned)
    return nums, UnitFacts(targets, a.ai, s, 1 if a.pinned else 0), sit, cat
