"""Where a hostile's move had to end (AI-D.06 "use cover whenever possible", AI-D.07 steps 3 and 4, AI-S.SPAWN):
the candidate set is recomputed from the state before the move with the core's `exposure.candidate_points`, the
requirement it implies is named, and the move's end (every model where `after` has it) is held to it."""
from __future__ import annotations

import math
from dataclasses import dataclass

from game.core.rules.context import read_ctx
from game.core.rules.exposure import (
    Candidate,
    CandidateSet,
    candidate_points,
    choose_melee_move,
    cover_against,
    in_cover_at_rest,
    nearest_cover,
    nearest_model,
    pathdist,
    seen_by,
)
from game.core.rules.formation import formation_move
from game.core.rules.queries import enemy_contacts
from game.core.state import GameState
from game.referee.report import Judge
from game.referee.situation import Probe, allowance, leash_of, options, touching


@dataclass(frozen=True, slots=True)
class Need:
    """What a move had to achieve: "contact" (base contact with the target), "cover" (in cover against it, within
    the slack of the best progress), "progress" (at least best - slack), "cover_shot" (in cover with a shot, or
    "cover_sight" with LOS only, at spawn), "shot" (a shot), "rest_cover" (touching a cover piece), "none"."""

    kind: str
    text: str
    best: float = 0.0
    rank: int = 0
    spot: Candidate | None = None  # for the shot needs: the point found that meets it


def candidates(state: GameState, unit: str, target: str, context: str) -> tuple[str, CandidateSet]:
    """The lead (the model of the unit nearest the target, AI-D.15) and its AI-D.06 candidate set toward it."""
    lead = nearest_model(state, unit, target).id
    centre, leash = leash_of(state, unit)
    cands = candidate_points(state, lead, allowance(state, lead, context), target=target, leash_centre=centre,
                             leash=leash or 12.0)
    return lead, cands


def melee_need(cands: CandidateSet, slack: float) -> Need:
    """AI-D.06 for a melee mover: contact when reachable; else in cover within the slack; else best progress."""
    mc = choose_melee_move(cands, cover_slack=slack)
    if mc.chosen is None:
        return Need("none", "no candidate point")
    c = mc.chosen
    if mc.why == "contact":
        return Need("contact", f"base contact with the target was reachable at ({c.x:.2f}, {c.y:.2f}), "
                               f"path cost {c.cost:.2f}\"", mc.best_progress)
    if mc.why == "cover":
        return Need("cover", f"{len(mc.in_cover)} candidate point(s) in cover against the target within "
                             f"{slack:g}\" of the best progress {mc.best_progress:.2f}\", e.g. ({c.x:.2f}, {c.y:.2f}) "
                             f"({c.cover.value})", mc.best_progress, c.cover.rank)
    return Need("progress", f"no cover within the slack; the best progress was {mc.best_progress:.2f}\"",
                mc.best_progress)


def shot_need(state: GameState, unit: str, lead: str, target: str, cands: CandidateSet, slack: float, *,
              sight_only: bool = False) -> Need:
    """AI-D.07 step 4 (`sight_only`: AI-S.SPAWN's ranged free move): a point in cover with a shot (LOS at spawn),
    best cover class then least path cost; else a point with a shot; else AI-D.06 progress toward the target."""
    probe = Probe(state)
    covered = sorted((c for c in cands.kept if c.in_cover), key=lambda c: (-c.cover.rank, c.cost, c.x, c.y))
    for c in covered:
        if _shoots(probe, unit, lead, target, c, sight_only):
            what = "LOS to" if sight_only else "a shot at"
            return Need("cover_sight" if sight_only else "cover_shot",
                        f"({c.x:.2f}, {c.y:.2f}) was reachable, {c.cover.value} cover with {what} the target",
                        rank=c.cover.rank, spot=c)
    if sight_only:
        return Need("none", "no reachable point in cover with LOS to the target")
    for c in sorted(cands.kept, key=lambda c: (c.cost, c.x, c.y)):
        if _shoots(probe, unit, lead, target, c, sight_only):
            return Need("shot", f"({c.x:.2f}, {c.y:.2f}) was reachable with a shot at the target", spot=c)
    need = melee_need(cands, slack)
    return need if need.kind != "contact" else Need("progress", need.text, need.best)


def cover_move_need(state: GameState, unit: str, target: str, slack: float) -> Need | None:
    """AI-D.07 step 3: a position with cover against the target that keeps LOS and range, reachable with one Move
    (best cover class first); None when there is none."""
    lead, cands = candidates(state, unit, target, "own")
    need = shot_need(state, unit, lead, target, cands, slack)
    return need if need.kind == "cover_shot" else None


def _shoots(probe: Probe, unit: str, lead: str, target: str, c: Candidate, sight_only: bool) -> bool:
    m = probe.state.models[lead]
    old = (m.x, m.y, m.z)
    probe.stand(lead, c.x, c.y, c.z)
    try:
        if sight_only:
            return bool(seen_by(probe.state, unit, target))
        return any(o.ranged for o in options(probe.state, unit, target))
    finally:
        probe.stand(lead, *old)


def meets(before: GameState, after: GameState, unit: str, lead: str, target: str | None, need: Need,
          slack: float, cands: CandidateSet | None = None) -> tuple[bool, str]:
    """Whether the unit, standing where `after` has it, meets the need; and where it ended, in words."""
    probe = Probe(before)
    probe.stand_like(after, unit)
    st = probe.state
    m = st.models[lead]
    where = f"{lead} ended at ({m.x:.2f}, {m.y:.2f})"
    if need.kind == "contact":
        ok = any(touching(st, x.id, target) for x in st.unit_models(unit) if x.in_play) if target else True
        return ok, where + ("" if ok else ", out of base contact with the target")
    if need.kind == "rest_cover":
        ok = in_cover_at_rest(st, lead)
        return ok, where + ("" if ok else ", touching no cover piece")
    assert target is not None
    cover = cover_against(st, lead, target)
    if need.kind in ("cover", "progress"):
        progress = _progress(before, lead, target, (m.x, m.y, m.z), cands)
        enough = progress >= need.best - slack - 1e-6
        if need.kind == "cover":
            ok = cover.cover.rank >= need.rank and enough
        else:
            ok = enough
        return ok, f"{where}, {cover.cover.value} cover against the target, progress {progress:.2f}\""
    if need.kind in ("cover_shot", "cover_sight", "shot"):
        sight = need.kind == "cover_sight"
        shot = bool(seen_by(st, unit, target)) if sight else any(o.ranged for o in options(st, unit, target))
        covered = cover.cover.rank >= need.rank if need.kind != "shot" else True
        ok = shot and covered
        what = ("LOS" if sight else "a shot") if shot else ("no LOS" if sight else "no shot")
        return ok, f"{where}, {cover.cover.value} cover against the target, {what}"
    return True, where


def _progress(before: GameState, lead: str, target: str, end: tuple[float, float, float],
              cands: CandidateSet | None = None) -> float:
    """AI-D.06 progress of the lead's end. When the end is one of the candidate set's points, its progress as the
    candidate set measured it (the best progress the end is compared with is the candidate set's too: like with
    like; a separate shortest_path from the end can come out longer, e.g. routed around a pack-mate's base that the
    core's cost fields measure past, or refused for grazing a base by a few hundredths of an inch); otherwise the
    path distance to the target from the start minus that from the end."""
    if cands is not None:
        same = [c.progress for c in cands.kept if abs(c.x - end[0]) <= 1e-6 and abs(c.y - end[1]) <= 1e-6]
        if same and math.isfinite(same[0]):
            return same[0]
    m = before.models[lead]
    start = pathdist(before, lead, (m.x, m.y, m.z), target)
    there = pathdist(before, lead, end, target)
    if not math.isfinite(start) or not math.isfinite(there):
        return -math.inf
    return start - there


def judge_move(j: Judge, rule: str, before: GameState, after: GameState, unit: str, target: str, *, context: str,
               ranged: bool, slack: float) -> None:
    """AI-D.06 (melee movers) or AI-D.07 step 4 (ranged movers) for a move toward a visible target."""
    lead, cands = candidates(before, unit, target, context)
    need = shot_need(before, unit, lead, target, cands, slack) if ranged else melee_need(cands, slack)
    if need.kind == "none":
        return
    ok, where = meets(before, after, unit, lead, target, need, slack, cands)
    if not ok and not _could_follow(before, unit, lead, target, need, cands, slack, context):
        ok, where = True, where + "; no end point meeting it lets the whole unit follow (AI-D.15)"
    j.check(rule, unit, ok, where, need.text)


def _could_follow(before: GameState, unit: str, lead: str, target: str, need: Need, cands: CandidateSet,
                  slack: float, context: str, tries: int = 12) -> bool:
    """Whether some lead end point meeting the need was a Move the engine accepts (its own Move check: a candidate's
    path may still be refused at the allowance's edge) with every follower keeping cohesion within its allowance
    (the core's AI-D.15 query, game.core.rules.formation); a unit Engaged in melee cannot move at all
    (COMBAT-4.3.WITHDRAW)."""
    ctx = read_ctx(before)
    if any(enemy_contacts(ctx, m) for m in before.unit_models(unit) if m.in_play):
        return False
    kept = [c for c in cands.kept if c.source != "stay" and math.isfinite(c.progress)]
    if need.kind == "contact":
        meeting = [c for c in kept if c.contact]
    elif need.kind == "cover":
        meeting = [c for c in kept if c.cover.rank >= need.rank and c.progress >= need.best - slack - 1e-6]
    elif need.kind == "progress":
        meeting = [c for c in kept if c.progress >= need.best - slack - 1e-6]
    elif need.spot is not None:
        meeting = [need.spot]  # the shot needs name the one point found (the first in their order)
    else:
        return True
    meeting.sort(key=lambda c: (c.cost, c.x, c.y))
    return any(formation_move(before, unit, lead, c.path, target=target, context=context) is not None
               for c in meeting[:tries])


def judge_spawn_ranged(j: Judge, before: GameState, after: GameState, unit: str, target: str | None,
                       slack: float) -> None:
    """AI-S.SPAWN for a ranged type: the best cover with LOS to the AI-D.01 enemy, or with no enemy visible the
    nearest cover (touching a soft, hard or hardened piece)."""
    if target is not None:
        lead, cands = candidates(before, unit, target, "spawn")
        need = shot_need(before, unit, lead, target, cands, slack, sight_only=True)
    else:
        lead = before.unit_models(unit)[0].id
        centre, leash = leash_of(before, unit)
        spot = nearest_cover(before, lead, allowance(before, lead, "spawn"), leash_centre=centre, leash=leash or 12.0)
        if spot is None:
            return
        need = Need("rest_cover", f"the nearest cover was ({spot.x:.2f}, {spot.y:.2f}), path cost {spot.cost:.2f}\"")
    if need.kind == "none":
        return
    ok, where = meets(before, after, unit, lead, target, need, slack)
    if not ok and any(enemy_contacts(read_ctx(before), m) for m in before.unit_models(unit) if m.in_play):
        ok, where = True, where + "; it appeared in base contact with an enemy and cannot move (COMBAT-4.3.WITHDRAW)"
    j.check("AI-S.SPAWN", unit, ok, where, need.text)
