"""`zona-alfa odds`: the exact outcome distribution of a ranged attack given by flags or a JSON file (COMBAT-4.*)."""
from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from game.core.battlefield import Cover
from game.core.catalog import load_catalog
from game.core.geometry.sight.cover import degrade
from game.core.odds.ranged import RangedOdds, ranged_round
from game.core.odds.unit import UnitFacts
from game.core.rules.modifiers import AttackSituation, attack_numbers
from game.core.settings import Settings
from game.core.state import ModelProfile, ModelState

FIELDS: dict[str, tuple[type, Any, str]] = {
    "ca": (int, 5, "attacker CA"),
    "weapon": (str, "assault_rifle", "attacker weapon id (game/data/weapons.toml)"),
    "attacker_items": (str, "", "attacker items, comma separated (red_dot, scope, hot_load)"),
    "attacker_skills": (str, "", "attacker skills, comma separated (unload, ...)"),
    "armor": (int, 5, "target Armor"),
    "armour": (str, "civilian", "target armour type (civilian, military, advanced, mimetic, ...)"),
    "obscured": (str, "in_cover", "target Obscured rule: in_cover, always or none"),
    "will": (str, "5", "target Will, or NA"),
    "wounds": (int, 1, "target Wounds"),
    "wounds_taken": (int, 0, "target Wounds already taken"),
    "save_dice": (int, 1, "dice per hit kept best (2: Advanced armour, Exo)"),
    "target_skills": (str, "", "target skills, comma separated (hard, ...)"),
    "target_items": (str, "", "target items, comma separated (medkit, kevlar_plates, ...)"),
    "models": (int, 1, "models in the target unit (GAP-77)"),
    "cover": (str, "none", "target cover class: none, obstruction, soft, hard, hardened"),
    "obstructions": (int, 0, "obstructions on the line (GEO-13)"),
    "range": (float, 10.0, "edge-to-edge distance in inches"),
}
FLAGS = ("elevated", "aim", "pinned", "unload", "creature", "will_exempt", "ai", "leader_bonus")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", nargs="?", help="JSON file with any of the fields below (flags override it)")
    for name, (typ, default, help_text) in FIELDS.items():
        parser.add_argument("--" + name.replace("_", "-"), dest=name, type=typ, default=None,
                            help=f"{help_text} (default {default})")
    for name in FLAGS:
        parser.add_argument("--" + name.replace("_", "-"), dest=name, action="store_true", default=None)
    parser.add_argument("--json", dest="as_json", action="store_true",
                        help="print exact probabilities as \"p/q\" strings")


def _csv(v: Any) -> tuple[str, ...]:
    if isinstance(v, (list, tuple)):
        return tuple(str(x) for x in v)
    return tuple(x.strip() for x in str(v).split(",") if x.strip())


def spec_from(args: argparse.Namespace) -> dict[str, Any]:
    """Defaults, then the JSON file, then the flags; unknown JSON keys are an error naming the file and key."""
    spec: dict[str, Any] = {k: v[1] for k, v in FIELDS.items()} | {k: False for k in FLAGS}
    if args.spec:
        path = Path(args.spec)
        try:
            data = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: cannot read the attack description: {exc}") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: the attack description must be a JSON object of fields")
        bad = sorted(set(data) - set(spec))
        if bad:
            raise ValueError(f"{path}: unknown field(s) {bad}; known: {sorted(spec)}")
        spec.update(data)
    for k in list(FIELDS) + list(FLAGS):
        v = getattr(args, k, None)
        if v is not None:
            spec[k] = v
    return spec


def build_attack(spec: dict[str, Any], *,
                 settings: Settings | None = None) -> tuple[Any, UnitFacts, AttackSituation, Any]:
    """(AttackNumbers, target unit, situation, catalog) of a plain description, through modifiers.attack_numbers."""
    s = settings or Settings.defaults()
    cat = load_catalog(s)
    try:
        weapon = cat.weapon(spec["weapon"])
        cover = Cover(spec["cover"])
    except (KeyError, ValueError) as exc:
        raise ValueError(f"bad attack description: {exc}") from None
    profile = weapon.profile
    will = None if str(spec["will"]).upper() == "NA" else int(spec["will"])
    a_prof = ModelProfile("attacker", 6.0, int(spec["ca"]), "civilian", 5, 0.0, 5, 1, 2, "hardened",
                          skills=_csv(spec["attacker_skills"]), weapons=(weapon.id,))
    obscured = None if spec["obscured"] == "none" or spec["creature"] else spec["obscured"]
    t_prof = ModelProfile("target", 6.0, 5, spec["armour"], int(spec["armor"]), 0.0, will, int(spec["wounds"]), 2,
                          "hardened", skills=_csv(spec["target_skills"]), creature=bool(spec["creature"]),
                          obscured=obscured, save_dice=int(spec["save_dice"]), will_exempt=bool(spec["will_exempt"]))
    attacker = ModelState("attacker", "attacker", "a", a_prof, deployed=True, items=list(_csv(spec["attacker_items"])))
    models = tuple(ModelState(f"target{i + 1}" if i else "target", "target", "b", t_prof, deployed=True,
                              items=list(_csv(spec["target_items"])),
                              wounds_taken=int(spec["wounds_taken"]) if i == 0 else 0)
                   for i in range(max(1, int(spec["models"]))))
    elevated = bool(spec["elevated"])
    sit = AttackSituation(distance=float(spec["range"]), cover=degrade(cover, settings=s) if elevated else cover,
                          cover_before_elevation=cover, elevated=elevated,
                          obstructions=0 if elevated else int(spec["obstructions"]), aim=bool(spec["aim"]),
                          leader_bonus=bool(spec["leader_bonus"]),
                          extra_dice=(profile.fp or 0) + 2 if spec["unload"] else 0)
    nums = attack_numbers(attacker, models[0], weapon, profile, sit, catalog=cat, settings=s,
                          target_pinned=bool(spec["pinned"]))
    return nums, UnitFacts(models, bool(spec["ai"]), s, 1 if spec["pinned"] else 0), sit, cat


def odds_from_spec(spec: dict[str, Any], *, settings: Settings | None = None) -> RangedOdds:
    """A ranged attack from a plain description (every field of FIELDS and FLAGS), with its exact odds."""
    full = {k: v[1] for k, v in FIELDS.items()} | {k: False for k in FLAGS} | dict(spec)
    nums, unit, sit, cat = build_attack(full, settings=settings)
    return ranged_round("attacker", "target", nums, unit, sit, catalog=cat)


def _pq(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def odds_json(o: RangedOdds) -> dict[str, Any]:
    r = o.target_round
    dists = {"hits": r.hits, "deflections": r.deflections, "wounds": r.wounds, "pins_gained": r.pins,
             "models_lost": r.models_lost, "will_check": r.will, "will_crit": r.will_crit, "save_crit": r.save_crit,
             "attacker_crit": o.attacker_crit}
    return {"numbers": {"dice": o.numbers.dice, "hit_tn": o.numbers.hit.text(), "save_tn": o.numbers.save.text(),
                        "save_dice": o.numbers.save_dice, "damage": o.numbers.damage,
                        "will_tn": o.numbers.will.text() if o.numbers.will else o.numbers.will_exempt_reason},
            "summary": {k: _pq(v) for k, v in o.summary().items()},
            "distributions": {name: {str(k): _pq(v) for k, v in d.fractions().items()} for name, d in dists.items()}}


def odds_text(o: RangedOdds) -> str:
    r = o.target_round
    n = o.numbers
    lines = [f"{n.dice} dice, hit {n.hit.text()}", f"Damage {n.damage}; save ({n.save_dice} die/hit kept best) "
             f"{n.save.text()}", "deflection Will check: " + (n.will.text() if n.will else n.will_exempt_reason), ""]

    def row(label: str, d: Any) -> str:
        return f"  {label:<14}" + "  ".join(f"{k}: {float(v):.6g}" for k, v in d.fractions().items())

    lines += ["distributions (exact; decimals shown):", row("hits", r.hits), row("deflections", r.deflections),
              row("wounds", r.wounds), row("pins gained", r.pins), row("Will check", r.will),
              row("attacker crit", o.attacker_crit), row("save crit", r.save_crit), ""]
    for k, v in o.summary().items():
        lines.append(f"  {k:<18}{float(v):<12.10g}= {_pq(v)}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        o = odds_from_spec(spec_from(args))
    except ValueError as exc:
        print(f"zona-alfa odds: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(odds_json(o), indent=2) if args.as_json else odds_text(o))
    return 0
