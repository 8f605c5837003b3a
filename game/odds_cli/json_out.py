"""`--json`: the attack, the target, the numbers with breakdowns and every distribution as exact "p/q"."""
from __future__ import annotations

from typing import Any

from game.core.dice import TargetNumber
from game.core.odds.ranged import RangedOdds, RoundOdds
from game.core.odds.templates import Case
from game.core.odds.unit import Dist
from game.core.settings import Settings
from game.odds_cli.attack import Attack
from game.odds_cli.exact import Prob, p_saved, pq
from game.odds_cli.table import BlastOdds


def _tn_json(tn: TargetNumber | None) -> dict[str, Any] | None:
    return None if tn is None else {"tn": tn.value, "breakdown": tn.breakdown()}


def _dist_json(d: Dist) -> dict[str, str | float]:
    return {str(k): pq(v) for k, v in d.fractions().items()}


def _round_json(r: RoundOdds) -> dict[str, dict[str, str | float]]:
    return {"hits": _dist_json(r.hits), "deflections": _dist_json(r.deflections), "wounds": _dist_json(r.wounds),
            "pins_gained": _dist_json(r.pins), "models_lost": _dist_json(r.models_lost),
            "will_check": _dist_json(r.will), "will_crit": _dist_json(r.will_crit),
            "save_crit": _dist_json(r.save_crit), "ooa": _dist_json(r.ooa)}


def target_json(a: Attack) -> dict[str, Any]:
    return {"armour_type": a.armour.id if a.armour else "natural", "armour_value": a.armour_value,
            "save_dice": a.save_dice, "will": a.will, "will_exempt": a.will_exempt, "wounds": a.wounds,
            "wounds_taken": a.wounds_taken, "models": a.models, "cover": a.cover.value,
            "obstructions": a.obstructions, "elevated": a.elevated, "pinned": a.pinned}


def odds_json(o: RangedOdds | BlastOdds, *, settings: Settings | None = None) -> dict[str, Any]:
    """The numbers (with breakdowns), the summary and every distribution; probabilities as exact "p/q"."""
    s = settings or Settings.defaults()
    if isinstance(o, BlastOdds):
        return _blast_json(o, s)
    r = o.target_round
    n = o.numbers
    dists = _round_json(r) | {"attacker_crit": _dist_json(o.attacker_crit)}
    return {"numbers": {"dice": n.dice, "hit_tn": n.hit.text(), "hit": _tn_json(n.hit), "damage": n.damage,
                        "damage_breakdown": [m.as_list() for m in n.damage_parts], "save_tn": n.save.text(),
                        "save": _tn_json(n.save), "save_dice": n.save_dice,
                        "p_save_one_hit": pq(p_saved(n.save.value, n.save_dice, s)),
                        "will_tn": n.will.text() if n.will else n.will_exempt_reason, "will": _tn_json(n.will)},
            "summary": {k: pq(v) for k, v in o.summary().items()},
            "distributions": dists}


def _blast_json(o: BlastOdds, s: Settings) -> dict[str, Any]:
    t = o.target
    tn = o.odds.tn
    numbers = {"dice": 0 if tn is None else 1,
               "hit_tn": "no roll (ARMORY-5.1.FLAME)" if tn is None else tn.text(), "hit": _tn_json(tn),
               "template": o.attack.template.value if o.attack.template else None, "damage": o.damage,
               "save_tn": o.save.text() if o.save else None, "save": _tn_json(o.save),
               "save_soft_cover": _tn_json(o.save_soft), "save_dice": o.save_dice,
               "p_save_one_hit": pq(p_saved(o.save.value, o.save_dice, s)) if o.save else None,
               "will_tn": o.will.text() if o.will else o.will_reason, "will": _tn_json(o.will),
               "will_soft_cover": _tn_json(o.will_soft)}
    others = {mid: {"p_touched": pq(m.p_touched), "p_wound": pq(m.p_wound), "p_ooa": pq(m.p_ooa)}
              for mid, m in o.odds.models.items() if mid != "target"}
    return {"numbers": numbers, "summary": {k: pq(v) for k, v in o.summary().items()},
            "effects": {k: pq(v) for k, v in (t.effects.items() if t else ())},
            "cases": [_case_json(c, p, t.rounds[c]) for c, p in t.cases.items()] if t else [],
            "attacker_crit": _dist_json(o.odds.attacker_crit), "other_models": others}


def _case_json(c: Case, p: Prob, r: RoundOdds) -> dict[str, Any]:
    """One way the template can leave the target hit (odds.templates.Case) with its probability and round."""
    return {"effect": c.effect, "will_cover": c.will_cover, "leaders": list(c.leaders), "leader_sees": c.leader_sees,
            "p": pq(p), "round": _round_json(r)}


def attack_json(a: Attack) -> dict[str, Any]:
    lo, hi = a.band
    return {"kind": "template" if a.template else "ranged", "weapon": a.item_id,
            "profile": a.profile.name if a.profile else None,
            "template": a.template.value if a.template else None, "range": a.range, "range_band": [lo, hi],
            "ca": a.ca, "aim": a.aim, "unload": a.unload, "items": list(a.attacker_items),
            "skills": list(a.attacker_skills)}
