"""Multi-model hostile units move as a block (AI-D.15, AI-C.7, GEO-21): the lead moves per AI-D.06, each follower
to the least-cost point within 1" of a placed mate, and in melee as many models as possible end in base contact
with the target; then the whole pack attacks together."""
from __future__ import annotations

import math

from game.core.actions import MeleeAttack, Move
from game.core.geometry.distance import base_distance
from game.core.geometry.zone import cohesion
from tests.enginekit import profile
from tests.zonekit import activate_hostile, add_force, decide, events_of, step, zone_game

CREW = profile("stalker", weapons=("knife",))
PACK = [(10.0, 10.0), (11.2, 10.0), (10.0, 11.2), (11.2, 11.2)]


def models(st, unit):
    return [st.models[m] for m in st.units[unit].models]


def in_contact(st, m, target: str) -> bool:
    return base_distance(m.base(), st.models[target].base()).distance <= 0.1 + 1e-9


def test_a_pack_of_four_dogs_charges_all_into_contact_and_keeps_cohesion() -> None:
    """AI-D.15, AI-D.06: a pack of 4 Feral Dogs (one unit, GAP-20) 5" from a lone target: one Move of the unit
    puts every dog in base contact with it (as many as possible), each path within its allowance, the pack a
    connected 1" chain (GEO-21); the next action is one melee attack of the pack (AI-C.7)."""
    st = zone_game([("c1", "a", CREW, (17.0, 10.6))])
    (pack,) = add_force(st, "dogs", PACK, location=(10.0, 10.0), tl=2)
    assert len(st.units[pack].models) == 4
    activate_hostile(st, pack)
    d, ev = step(st)
    assert isinstance(d.action, Move) and d.reason["numbers"]["branch"] == "contact"
    moves = events_of(ev, "move")
    assert {e.data["model"] for e in moves} == set(st.units[pack].models)
    assert all(e.data["cost"] <= e.data["allowance"] + 1e-6 for e in moves)
    dogs = models(st, pack)
    assert all(in_contact(st, m, "c1") for m in dogs)
    assert cohesion([m.base() for m in dogs]).connected
    d = decide(st)
    assert isinstance(d.action, MeleeAttack) and d.action.unit == pack and d.action.target == "c1"


def test_a_pack_out_of_reach_advances_behind_its_lead_in_cohesion() -> None:
    """AI-D.15: the target 20" off: the dog nearest the goal leads a full Move's progress (AI-D.06) and the
    followers end within 1" of placed mates; no model leaves the leash (GEO-20)."""
    st = zone_game([("c1", "a", CREW, (31.0, 10.6))])
    (pack,) = add_force(st, "dogs", PACK, location=(14.0, 10.0), tl=2)
    activate_hostile(st, pack)
    first = min(models(st, pack), key=lambda m: (math.hypot(m.x - 31.0, m.y - 10.6), m.id))
    lead_id, x0, y0 = first.id, first.x, first.y
    d, ev = step(st)
    assert isinstance(d.action, Move) and d.reason["numbers"]["branch"] == "progress"
    dogs = models(st, pack)
    assert cohesion([m.base() for m in dogs]).connected
    lead = st.models[lead_id]
    assert math.hypot(lead.x - x0, lead.y - y0) >= 8.0 and d.reason["numbers"]["progress"] >= 8.0
    assert all(math.hypot(m.x - 14.0, m.y - 10.0) <= 12.0 + 1e-6 for m in dogs)
    assert not any(in_contact(st, m, "c1") for m in dogs)
