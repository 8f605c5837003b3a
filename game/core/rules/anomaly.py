"""Anomalies and artifacts (SALVAGE-8.4.ANOMALY-*, SALVAGE-8.4.ARTIFACT-TABLE, GAP-54, GAP-55, GAP-56, GAP-106).

An anomaly is present at a location when its Zone Hostiles roll or its Salvage roll shows `*` (GAP-54; set by
rules/spawn.py and rules/salvage.py). `SearchAnomaly(unit, location)` takes its artifact:

* who and where: a player model (AI-C.6: hostiles never do), standing where the location's search stands
  (`anomaly.search_range`=same_as_hotspot_search, GAP-53), once the location's own hostiles are gone and its
  salvage is resolved (it has been searched: SALVAGE-8.4.ANOMALY-NOSPAWN "hostiles and salvage are always
  resolved first"); a model whose check failed may not try again in the same activation (`anomaly.retry`, GAP-56);
* the free Will check (CORE-3.3.FREE): TN = Will - TL, +1 with its Leader in LOS (SKILL-6.1.LEADER, GAP-36), +2
  when the searcher carries a Detector in a slot (EQUIP-6.2.DETECTOR) (TV-21);
* a pass spends the Search action and rolls the Artifact table (`anomaly.artifact_roll`=on_successful_search,
  TV-38); the artifact is stowed with the model (`ModelState.artifacts`, SALVAGE-8.4.BACKPACK). Its stat bonus
  needs an Equipment Slot (`artifact.bonus_needs_slot`, GAP-106), so it never applies during this mission: the
  entry records the bonus for the campaign. The anomaly is then inert, except that a Scrounger may take a second
  artifact from it (one more attempt, that model only: SALVAGE-8.4.ANOMALY-TWICE);
* a failure costs no action (GAP-56) and discharges the anomaly: one Damage 2 hit with an armour save on every
  model under or touched by an LBT centred on the location point (`anomaly.area`=LBT, GAP-55), the searcher too,
  template cover rules applied (GEO-16, ARMORY-5.2.TEMPLATE-COVER: the blast template code); it stays active."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core.actions import IllegalAction, SearchAnomaly
from game.core.catalog.profiles import Template
from game.core.dice import Modifier, TargetNumber
from game.core.geometry.templates import TemplateFact, TemplateKind, template_coverage
from game.core.rules.context import record_crit
from game.core.rules.delivery import Blast
from game.core.rules.locations import location_of, refuse_hostile
from game.core.rules.queries import leader_bonus
from game.core.rules.scouting import cleared, search_reach
from game.core.rules.stats import will_tn
from game.core.rules.template_effects import apply_template_effects
from game.core.state import LocationState, ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

RULES = ("SALVAGE-8.4.ANOMALY-SEARCH", "SALVAGE-8.4.ANOMALY-MODS")
DISCHARGE_RULES = ("SALVAGE-8.4.ANOMALY-EFFECT", "GAP-55", "GAP-56", "GEO-16", "ARMORY-5.2.TEMPLATE-COVER")
DISCHARGE_DAMAGE = 2  # SALVAGE-8.4.ANOMALY-EFFECT
DETECTOR_BONUS = 2  # SALVAGE-8.4.ANOMALY-MODS / EQUIP-6.2.DETECTOR
# SALVAGE-8.4.ARTIFACT-TABLE: D6 -> (Value in ZS, stat bonus or None); "3.500" is 3,500 (GAP-29)
ARTIFACTS: dict[int, tuple[int, str | None]] = {1: (2000, None), 2: (3500, None), 3: (4500, None),
                                                4: (4500, "move"), 5: (5000, "armor"), 6: (5500, "will")}
BONUS_TEXT = {"move": "+1\" Movement", "armor": "+1 Armor", "will": "+1 Will"}


def artifact_row(roll: int) -> tuple[int, str | None]:
    """SALVAGE-8.4.ARTIFACT-TABLE (TV-38): the artifact's Value and stat bonus for a D6."""
    return ARTIFACTS[roll]


def anomaly_tn(ctx: Ctx, m: ModelState, loc: LocationState) -> TargetNumber:
    """SALVAGE-8.4.ANOMALY-SEARCH/-MODS (TV-21): Will - TL, Leader in LOS +1 (GAP-36), a Detector in one of the
    searcher's slots +2; a wounded multi-Wound model -1 as on every Will roll (COMBAT-4.4.TWO-WOUND-RULE)."""
    mods: list[Modifier] = [Modifier(f"TL{loc.tl}", -loc.tl, "SALVAGE-8.4.ANOMALY-SEARCH")] if loc.tl else []
    mods.extend(leader_bonus(ctx, m))
    if "detector" in m.items:
        mods.append(Modifier("Detector", DETECTOR_BONUS, "EQUIP-6.2.DETECTOR"))
    return will_tn(m, tuple(mods))


def may_take_again(m: ModelState, loc: LocationState) -> bool:
    """SALVAGE-8.4.ANOMALY-TWICE: after one artifact is taken, only the Scrounger who took it may take a second."""
    return m.profile.has("scrounger") and loc.artifacts_taken == [m.id]


def check_search_anomaly(ctx: Ctx, a: SearchAnomaly, m: ModelState, context: str) -> int:
    """The refusals of `SearchAnomaly`, in the order a player would meet them (see the module docstring)."""
    refuse_hostile(ctx, m, "search an anomaly")
    loc = location_of(ctx, a.location, "SALVAGE-8.4.ANOMALY-SEARCH")
    if not loc.anomaly:
        raise IllegalAction(f"{loc.id} has no anomaly (none of its rolls showed *)", "GAP-54")
    if loc.anomaly_inert:
        raise IllegalAction(f"the anomaly at {loc.id} is inert: its artifact is taken", "SALVAGE-8.4.ANOMALY-TWICE")
    if loc.artifacts_taken and not may_take_again(m, loc):
        raise IllegalAction(f"only {loc.artifacts_taken[0]}, a Scrounger, may take a second artifact at {loc.id}",
                            "SALVAGE-8.4.ANOMALY-TWICE")
    if not cleared(ctx, loc):
        raise IllegalAction(f"{loc.id}'s hostiles must be eliminated first", "MISSION-8.2.CLEARING")
    if not loc.searched:
        raise IllegalAction(f"{loc.id} must be searched first: hostiles and salvage are resolved before the anomaly",
                            "SALVAGE-8.4.ANOMALY-NOSPAWN")
    if m.profile.will is None:
        raise IllegalAction(f"{m.id} has Will NA and takes no Will check", "GAP-22")
    assert ctx.settings["anomaly.search_range"] == "same_as_hotspot_search"  # the setting's only choice
    ok, d = search_reach(ctx, m, loc)
    if not ok:
        where = "in contact with its scenic item" if loc.footprint else \
            f"within {float(ctx.settings['search.range']):g}\" of its point"
        raise IllegalAction(f"{m.id} is {d:.2f}\" away; an anomaly searcher stands {where}",
                            "SALVAGE-8.4.ANOMALY-SEARCH")
    assert ctx.settings["anomaly.retry"] == "once_per_model_per_activation"  # GAP-56, the setting's only choice
    if m.id in loc.anomaly_tried:
        raise IllegalAction(f"{m.id} already failed the anomaly check at {loc.id} this activation", "GAP-56")
    return 1


def do_search_anomaly(ctx: Ctx, a: SearchAnomaly, m: ModelState, context: str) -> int:
    """The free Will check; a pass spends the action and takes the artifact, a failure discharges the anomaly
    and spends nothing (GAP-56). Returns the actions spent (1 or 0)."""
    loc = ctx.state.locations[a.location]
    tn = anomaly_tn(ctx, m, loc)
    res = ctx.roll_pool(1, tn, what=f"Will check to search the anomaly at {loc.name}", who=m.id,
                        rules=RULES + ("CORE-3.3.FREE",))
    record_crit(ctx, m.unit, res, context=context, rules=RULES)
    if not res.successes:
        loc.anomaly_tried.append(m.id)
        ctx.emit("anomaly_check_failed", RULES + ("GAP-56",), location=loc.id, model=m.id, side=m.side, tn=tn.value,
                 note="the check is free: no action spent; the anomaly discharges and stays active")
        discharge(ctx, loc, m)
        return 0
    take_artifact(ctx, loc, m)
    return 1


def take_artifact(ctx: Ctx, loc: LocationState, m: ModelState) -> dict[str, Any]:
    """SALVAGE-8.4.ANOMALY-EFFECT / ARTIFACT-TABLE: roll D6, stow the artifact (GAP-106: its bonus needs a slot,
    so none this mission), mark the anomaly inert unless a Scrounger may take a second (ANOMALY-TWICE)."""
    assert ctx.settings["anomaly.artifact_roll"] == "on_successful_search"  # GAP-54, the setting's only choice
    needs_slot = bool(ctx.settings["artifact.bonus_needs_slot"])  # GAP-106 (false is not built: refused)
    roll = ctx.dice.d6()
    value, bonus = artifact_row(roll)
    art: dict[str, Any] = {"location": loc.id, "roll": roll, "value": value, "bonus": bonus,
                           "bonus_needs_slot": needs_slot, "active": False, "turn": ctx.state.turn}
    m.artifacts.append(art)
    loc.artifacts_taken.append(m.id)
    second = m.profile.has("scrounger") and len(loc.artifacts_taken) < 2
    loc.anomaly_inert = not second
    ctx.emit("artifact", ("SALVAGE-8.4.ANOMALY-EFFECT", "SALVAGE-8.4.ARTIFACT-TABLE", "SALVAGE-8.4.BACKPACK",
                          "GAP-106") + (("SALVAGE-8.4.ANOMALY-TWICE", "SKILL-6.1.SCROUNGER")
                                        if len(loc.artifacts_taken) > 1 or second else ()),
             location=loc.id, model=m.id, side=m.side, roll=roll, value=value, bonus=bonus,
             inert=loc.anomaly_inert, note=("stowed: its bonus needs an Equipment Slot, so not this mission"
                                            if bonus else "stowed"))
    return art


def discharge(ctx: Ctx, loc: LocationState, m: ModelState) -> None:
    """SALVAGE-8.4.ANOMALY-EFFECT / GAP-55 (`anomaly.area`=LBT): one Damage 2 hit with its armour save on every
    model under or touched by an LBT centred on the location point, the searcher too, through the template code
    (GEO-16 shielding and soft cover, deflection Will checks, Out of Action figures per GAP-93). Kills it causes are
    the anomaly's (`GameState.blame`)."""
    assert ctx.settings["anomaly.area"] == "LBT"  # "reaction_radius" is not built (refused by the settings)
    st = ctx.state
    blast = Blast("anomaly discharge", "SALVAGE-8.4.ANOMALY-EFFECT", Template.LBT, DISCHARGE_DAMAGE, frozenset(),
                  0.0, 0.0, False)
    scene = st.scene(include_ooa=ctx.settings["ooa.targetable"] == "templates_and_melee")
    fact = template_coverage(ctx.battlefield, scene, TemplateKind.LBT, (loc.x, loc.y, 0.0), settings=ctx.settings)
    ctx.emit("anomaly_discharge", DISCHARGE_RULES, location=loc.id, model=m.id, centre=[loc.x, loc.y],
             radius=TemplateKind.LBT.radius, damage=DISCHARGE_DAMAGE, models=coverage_json(fact))
    st.blame = {"model": None, "side": None, "cause": "anomaly", "location": loc.id}
    st.round_counter += 1
    apply_template_effects(ctx, m, blast, fact, st.round_counter)


def coverage_json(fact: TemplateFact) -> list[dict[str, Any]]:
    """Each model the template touches with its GEO-16 effect."""
    return [{"model": c.model, "effect": c.effect.value, "shielded_by": list(c.shielded_by),
             "soft_cover": list(c.soft_cover_between)} for c in fact.models]
