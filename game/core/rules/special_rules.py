"""The house settings of the Red Gypsy 3 special rules, applied at setup (TURN-2) to the hostiles a scenario places
when it names the special rule (docs/scenarios.md): the file gives the card's resolution, these settings may change
it for a game (`--set`, a record's or the scenario file's settings).

* `g1-dog-packs` (GAP-99): each pack with `sites` has `scen.g1.dogs_per_pack` dogs and `scen.g1.dog_actions`
  actions; `scen.g1.packs_share_structure`=false gives each pack its own site roll.
* `g2-bandit-camp` (GAP-100): the gang at the objective starts on Alert when `scen.g2.free_alert`, and carries
  `scen.g2.melee_weapon` as its melee weapon.
* `g3-intersection-mobs` (GAP-101): the first `scen.g3.mobs` converging mobs are placed (refused when the scenario
  gives fewer), each of `scen.g3.mob_size` zombies.

The scenario loader (game.scenarios) refuses a file that names one of these rules and sets one of its fields to
another value than the setting holds, so the two never disagree silently."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from game.core.catalog import Catalog
from game.core.catalog.profiles import WeaponKind
from game.core.rules.preplace import HostileSpec

G1_DOGS = "g1-dog-packs"
G2_CAMP = "g2-bandit-camp"
G3_MOBS = "g3-intersection-mobs"


def is_pack(spec: HostileSpec) -> bool:
    return bool(spec.sites)


def is_gang(spec: HostileSpec) -> bool:
    return spec.hostile == "bandit" and spec.location is not None


def is_mob(spec: HostileSpec) -> bool:
    return bool(spec.converge) and spec.location is None


def setting_fields(rules: tuple[str, ...], settings: Mapping[str, Any], catalog: Catalog,
                   spec: HostileSpec, n: int) -> dict[str, Any]:
    """The fields of hostiles[n] that a named special rule sets from the settings (field -> value)."""
    out: dict[str, Any] = {}
    if G1_DOGS in rules and is_pack(spec):
        out["figures"] = int(settings["scen.g1.dogs_per_pack"])
        out["actions"] = int(settings["scen.g1.dog_actions"])
        if not settings["scen.g1.packs_share_structure"]:
            out["site_group"] = f"{spec.site_group or 'sites'}-{n + 1}"
    if G2_CAMP in rules and is_gang(spec):
        out["alert"] = bool(settings["scen.g2.free_alert"])
        melee = str(settings["scen.g2.melee_weapon"])
        if spec.weapons is not None:
            kept = tuple(w for w in spec.weapons  # an unknown id is refused by the spec's own check
                         if w not in catalog.weapons or catalog.weapon(w).kind is not WeaponKind.MELEE)
            out["weapons"] = kept + (melee,)
    if G3_MOBS in rules and is_mob(spec):
        out["figures"] = int(settings["scen.g3.mob_size"])
    return out


def scenario_hostiles(rules: tuple[str, ...], settings: Mapping[str, Any], catalog: Catalog,
                      hostiles: tuple[HostileSpec, ...], where: str) -> tuple[HostileSpec, ...]:
    """The hostiles to place: each with the fields its special rules set (see the module docstring)."""
    out = []
    mobs = 0
    wanted = int(settings["scen.g3.mobs"]) if G3_MOBS in rules else None
    given = sum(1 for h in hostiles if is_mob(h))
    if wanted is not None and wanted > given:
        raise ValueError(f"{where}: setting 'scen.g3.mobs' = {wanted} asks for more mobs than the scenario places "
                         f"({given}); allowed: 1 to {given}")
    for n, h in enumerate(hostiles):
        if wanted is not None and is_mob(h):
            mobs += 1
            if mobs > wanted:
                continue
        fields = setting_fields(rules, settings, catalog, h, n)
        out.append(replace(h, **fields) if fields else h)
    return tuple(out)
