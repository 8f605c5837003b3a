"""The readable report: every number with where it comes from, the distributions and the summary."""
from __future__ import annotations

import textwrap
from fractions import Fraction
from typing import Any

from game.core.catalog import GrenadeEffect, Special, Template
from game.core.dice import TargetNumber
from game.core.odds.ranged import RangedOdds, RoundOdds
from game.core.odds.unit import Dist
from game.core.settings import Settings
from game.odds_cli.attack import Attack
from game.odds_cli.exact import Prob, p_saved, pq
from game.odds_cli.table import BlastOdds

EFFECTS_TEXT = {"affected": "affected", "soft_cover": "soft cover between (+2 save)",
                "shielded": "shielded (hard or hardened cover, or a blocking piece, between)", "untouched": "untouched"}
_ORDER = {"none": 0, "no_roll": 0, "exempt": 1, "pass": 2, "fail": 3, "success": 4, "failure": 5, "mix": 6}
_NOTES = {
    "hits": "dice that hit",
    "template hits": "the template's automatic hit on a model it touches (GAP-70)",
    "smoke check": "none: no check (a Flash Bang); exempt: Will NA or a Gas Mask (GAP-72)",
    "saves rolled": "the Burn's saves, one after each failed one (ARMORY-5.1.BURN)",
    "deflections": "hits the armour saved",
    "wounds": "hits not saved, one Wound each (COMBAT-4.3.WOUND)",
    "pins gained": "change of the unit's Pinned counters: a failed Will check +1 (on a natural 10 +2), a natural "
                   "10 among the saves +1, a Med-Kit +2, at most 4 (COMBAT-4.4.PIN-CAP); a unit that goes Out of "
                   "Action drops its Pins (GAP-33)",
    "Will check": "none: no deflected hit or the target is down; exempt: never checks (COMBAT-4.3.DEFLECT-WILL)",
    "attacker crit": "success: a natural 1 (an extra action); failure: a natural 10 (a Pin); mix: both, "
                     "neither counts (INTRO-1.2.CRIT-*)",
    "save crit": "read on the kept dice (GAP-14); no_roll: no hit to save",
}
_SUMMARY = {"p_hit": "P(at least one hit)", "p_touched": "P(the template touches it)",
            "p_affected": "P(touched, not shielded)", "expected_wounds": "expected Wounds",
            "p_wound": "P(at least one Wound)", "p_ooa": "P(target Out of Action)",
            "p_pinned_by_will": "P(Pinned by the Will check)", "p_any_pin": "P(any Pin this round)"}


def tn_text(tn: TargetNumber) -> str:
    """"TN 4 = CA 5, 1 obstruction(s) -1 (CORE-3.6.OBSTRUCTION)": the TN, its base and each modifier's rule."""
    parts = [f"{tn.base.label} {tn.base.value}"] + [f"{m.label} {m.value:+d} ({m.rule})" for m in tn.mods]
    return f"TN {tn.value} = " + ", ".join(parts)


def _save_formula(tn: int, dice: int) -> str:
    t = min(9, max(1, tn))
    clamp = "" if 1 <= tn <= 9 else (" (a natural 1 always saves)" if tn < 1 else " (a natural 10 never saves)")
    one = f"{t}/10"
    return (one if dice == 1 else f"1 - (1 - {one})^{dice}") + clamp


def _row(label: str, d: Dist) -> list[str]:
    def key(k: Any) -> tuple[int, str]:
        return (int(k), "") if isinstance(k, (int, bool)) else (_ORDER.get(str(k).split(">")[0], 9), str(k))

    items = sorted(d.fractions().items(), key=lambda kv: key(kv[0]))
    return [f"  {label:<14}" + "  ".join(f"{k}: {float(v):.6g}" for k, v in items), f"  {'':<14}({_NOTES[label]})"]


def _round_lines(r: RoundOdds, attacker_crit: Dist | None, *, kind: str = "ranged") -> list[str]:
    """The rows of one round; `kind` "template" (one automatic hit), "burn" (the saves of the Burn) or "no_damage"
    (a smoke or Flash Bang template: Pins and the smoke Will check only)."""
    first = {"burn": "saves rolled", "template": "template hits"}.get(kind, "hits")
    rows = [] if kind == "no_damage" else [(first, r.hits), ("deflections", r.deflections), ("wounds", r.wounds)]
    rows += [("pins gained", r.pins), ("smoke check" if kind == "no_damage" else "Will check", r.will)]
    rows += [("attacker crit", attacker_crit)] if attacker_crit is not None else []
    rows += [] if kind == "no_damage" else [("save crit", r.save_crit)]
    return [line for label, d in rows for line in _row(label, d)]


def _summary_lines(summary: dict[str, Prob], labels: dict[str, str]) -> list[str]:
    out = []
    for k, v in summary.items():
        exact = f"= {pq(v)}" if isinstance(v, Fraction) else "(a float: deviation arcs from the geometry)"
        out.append(f"  {labels.get(k, _SUMMARY[k]):<32}{float(v):<12.10g}{exact}  [{k}]")
    return out


def _band(a: Attack) -> str:
    """The range band as the tables write it: "Melee-12" for guns usable in base contact (VITALS-2.2.RANGE)."""
    lo, hi = a.band
    return f"{'Melee' if a.profile is not None and a.profile.melee_capable else f'{lo:g}'}-{hi:g}"


def _distance(a: Attack) -> str:
    return f"{a.range:g}\"" + ("" if a.range_given else " (the default --range)")


def _mods(tn: TargetNumber) -> str:
    return ", ".join([f"{tn.base.label} {tn.base.value}"] + [f"{m.label} {m.value:+d} ({m.rule})" for m in tn.mods])


def _target_lines(a: Attack, save: TargetNumber | None, dice: int, will: TargetNumber | None, why: str,
                  s: Settings, *, check: str = "deflection Will check: once per round with a deflected hit while it "
                                              "stands; failed: 1 Pin (COMBAT-4.3.DEFLECT-WILL)") -> list[str]:
    if a.armour is None:
        kind = f"natural armour, Armor {a.armour_value} (ARMORY-5.3.NATURAL)"
    else:
        own = "the type's rating" if a.armour_value == a.armour.armor else f"given; the type's is {a.armour.armor}"
        kind = f"{a.armour.name}, Armor {a.armour_value} ({own})"
    taken = f", {a.wounds_taken} taken" if a.wounds_taken else ""
    lines = [f"Target: {kind}; {a.models} model(s) of {a.wounds} Wound(s){taken}"]
    if save is not None:
        how = "2 dice per hit, the better kept (ARMORY-5.3.TABLE, GAP-14)" if dice == 2 else f"{dice} die per hit"
        lines += [f"  save: {how}; a die <= the TN deflects the hit (COMBAT-4.1.SAVE)", f"    save {tn_text(save)}",
                  f"    one hit alone is saved with P {float(p_saved(save.value, dice, s)):.6g} = "
                  f"{_save_formula(save.value, dice)}"]
    if will is None:
        return lines + [f"  {check.split(':')[0]}: none: {why}"]
    return lines + [f"  {check}", f"    Will {tn_text(will)}"]


def odds_text(o: RangedOdds | BlastOdds, attack: Attack, *, settings: Settings | None = None) -> str:
    """The readable report: every number with where it comes from, then the distributions and the summary."""
    s = settings or Settings.defaults()
    if isinstance(o, BlastOdds):
        return _blast_text(o, s)
    n, a = o.numbers, attack
    assert a.weapon is not None and a.profile is not None
    fp = a.profile.fp
    prof = f" ({a.profile.name})" if len(a.weapon.profiles) > 1 else ""
    lines = [f"Attack: {a.weapon.name}{prof}, FP {fp}, range {_band(a)}\"; the target is {_distance(a)} "
             f"away edge to edge (GEO-4)",
             f"  {n.dice} dice (" + (f"FP {fp} + FP {fp} + 2: Unload, SKILL-6.1.UNLOAD" if a.unload else f"FP {fp}")
             + "); a die <= the TN hits, a natural 1 always, a natural 10 never (INTRO-1.2.CRIT-*)",
             f"    hit {tn_text(n.hit)}"]
    if a.elevated and a.obstructions:
        lines.append(f"    {a.obstructions} obstruction(s) ignored: the attacker is higher (GEO-14)")
    lines.append(f"  each hit: Damage {n.damage} = {_mods(TargetNumber(n.damage_parts[0], n.damage_parts[1:]))}")
    lines += _target_lines(a, n.save, n.save_dice, n.will, n.will_exempt_reason, s)
    lines += ["", "The round (exact distributions; decimals shown):"] + _round_lines(o.target_round, o.attacker_crit)
    return _wrapped(lines + ["", "Summary:"] + _summary_lines(dict(o.summary()), {}))


def _blast_text(o: BlastOdds, s: Settings) -> str:
    a, tn, t = o.attack, o.odds.tn, o.target
    kind = {Template.SBT: "SBT, 3\" across", Template.LBT: "LBT, 5\" across",
            Template.FLAME: "flame template, 8\" long and 3\" wide"}[a.template or Template.SBT]
    burn = bool(a.grenade and GrenadeEffect.BURN in a.grenade.effects) or bool(
        a.profile and Special.BURN in a.profile.specials)
    if tn is None:
        lines = [f"Attack: {a.name} ({kind}, GEO-15), its tip on the attacker's base, pointed at the target "
                 f"{_distance(a)} away edge to edge; no roll: every model under it is hit (ARMORY-5.1.FLAME, GAP-73)"]
        labels = {"p_hit": "P(placed: no roll)"}
    else:
        prof = f" ({a.profile.name})" if a.weapon is not None and a.profile and len(a.weapon.profiles) > 1 else ""
        lines = [f"Attack: {a.name}{prof} ({kind}), range {_band(a)}\", aimed at the centre of the target "
                 f"{_distance(a)} away edge to edge (GAP-70)",
                 f"  1 die: a roll <= the TN lands on the point, P {float(o.odds.p_hit):.6g} (INTRO-1.2.CRIT-*)",
                 f"    throw {tn_text(tn)}",
                 "  a miss deviates D10/2\" in a random direction (ARMORY-5.4.DEVIATION, GEO-18, GAP-71)"]
        labels = {"p_hit": "P(lands on the point)"}
    if t is not None:
        lines.append("  the target (1\" base) ends: " + ", ".join(f"{EFFECTS_TEXT[e]} {float(p):.6g}"
                                                                   for e, p in t.effects.items() if p))
    if o.damage is None:
        pin = bool(a.grenade and GrenadeEffect.AUTO_PIN in a.grenade.effects)
        lines.append("  each model touched: no damage; " + ("1 automatic Pin, no save (GAP-112)" if pin else
                                                            "a Will check at -2, failed: 1 Pin (GAP-72)"))
    else:
        rule = "GAP-73" if a.template is Template.FLAME else "ARMORY-5.1.SBT-LBT, GAP-70"
        lines.append(f"  each model touched: 1 automatic hit at Damage {o.damage} ({rule})" + (
            "; it Burns: saves again after each failed save until one passes or it is down (ARMORY-5.1.BURN, "
            "GAP-74)" if burn else ""))
    smoke = bool(a.grenade and GrenadeEffect.SMOKE in a.grenade.effects)
    check = ("smoke Will check: once for each model the cloud lands on; failed: 1 Pin (GAP-72)" if smoke else
             "deflection Will check: once with a deflected hit while it stands; failed: 1 Pin "
             "(COMBAT-4.3.DEFLECT-WILL, GAP-75)")
    lines += _target_lines(a, o.save, o.save_dice, o.will, o.will_reason, s, check=check)
    if o.save_soft is not None and t is not None and t.effects.get("soft_cover"):
        lines.append(f"    behind soft cover: save {tn_text(o.save_soft)}")
    if o.will_soft is not None and t is not None and any(c.will_cover for c in t.cases):
        lines.append(f"    touching the soft cover that gave it the save bonus: Will {tn_text(o.will_soft)} (GAP-75)")
    for c, p in (t.cases.items() if t is not None else ()):
        assert t is not None
        how = EFFECTS_TEXT[c.effect] + (", touching that soft cover (GAP-75)" if c.will_cover else "") + (
            ", its Leader's sight through the new smoke " + ("kept" if c.leader_sees else "lost")
            if c.leader_sees is not None and a.leader_bonus else "")
        lines += ["", f"If the target is {how} (P {float(p):.6g}; exact distributions, decimals shown):"]
        lines += _round_lines(t.rounds[c], None, kind="no_damage" if o.damage is None else "burn" if burn
                              else "template")
    lines += ["", "Summary, over where the template lands:"] + _summary_lines(o.summary(), labels)
    others = [f"  {mid}: touched {float(m.p_touched):.6g}" + ("" if mid == "attacker" else
                                                             f", P(at least one Wound) {float(m.p_wound):.6g}")
              for mid, m in o.odds.models.items() if mid != "target"]
    if others:
        lines += ["", "Other models it may touch (the attacker's own armour is not described here):"] + others
    if a.elevated and a.obstructions:
        lines.insert(1, f"  {a.obstructions} obstruction(s) ignored: the attacker is higher (GEO-14)")
    return _wrapped(lines)


def _wrapped(lines: list[str], width: int = 112) -> str:
    """Long lines folded at commas and spaces, the rest indented under their start."""
    out = []
    for line in lines:
        lead = len(line) - len(line.lstrip(" "))
        out.append(textwrap.fill(line, width, subsequent_indent=" " * (lead + 4), break_on_hyphens=False,
                                 break_long_words=False) if len(line) > width else line)
    return "\n".join(out)
