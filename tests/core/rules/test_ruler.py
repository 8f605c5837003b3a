"""The ruler (GEO-4 distance, GEO-10 LOS verdict, the side-view profile) on Game One's shipped map."""
from __future__ import annotations

import json
import math

import pytest

from game.core.geometry.distance import base_distance, point_distance
from game.core.geometry.sight.los import line_of_sight
from game.core.rules.ruler import measure
from game.core.settings import Settings
from game.core.state import GameState, Phase


@pytest.fixture(scope="module")
def deployed() -> GameState:
    """Game One (seed 1, random agents) at the first Action phase: every model on the table."""
    from game.client.driver import InlineDriver
    from game.client.session import open_session
    from game.client.setup import GameSetup

    s = open_session(GameSetup(seed=1, agents=("random", "random")))
    d = InlineDriver(s)
    while s.state.phase is not Phase.ACTION:
        act = d.next_action()
        assert act is not None
        s.apply(act)
    return s.state


def _models(st: GameState) -> list[str]:
    return sorted(m.id for m in st.models.values() if m.deployed)


def test_two_models_measure_base_distance_and_sections_lie_on_the_line(deployed: GameState) -> None:
    """GEO-4 model to model, edge to edge; every section inside [0, length]."""
    ids = _models(deployed)
    a, b = ids[0], ids[-1]
    r = measure(deployed, a, b)
    assert r.distance == base_distance(deployed.models[a].base(), deployed.models[b].base()).distance
    assert r.distance > 0 and r.profile
    for s in r.profile:
        assert -1e-9 <= s.start_in <= s.end_in <= r.length + 1e-9


def test_model_to_point_is_centre_distance_less_radius(deployed: GameState) -> None:
    """GEO-4 model to point: max(0, |c - p| - r)."""
    m = deployed.models[_models(deployed)[0]]
    p = (m.x + 3.0, m.y + 4.0)
    r = measure(deployed, m.id, p)
    assert r.distance == pytest.approx(5.0 - m.radius)
    assert r.distance == point_distance(m.base(), p)
    assert measure(deployed, (0.0, 0.0), (3.0, 4.0)).distance == pytest.approx(5.0)
    assert r.los is None and r.blocking is None


def test_a_blocked_line_marks_the_engines_blocker_in_its_profile(deployed: GameState) -> None:
    """GEO-10: the blocking piece is the LOS verdict's blocker, in the profile with blocks=True and taller
    than the lower eye."""
    ids = _models(deployed)
    found = 0
    for a in ids[:3]:
        for b in ids:
            if a == b:
                continue
            r = measure(deployed, a, b)
            fact = line_of_sight(deployed.battlefield, deployed.scene(), a, b,
                                 settings=Settings(dict(deployed.settings)))
            assert r.los is not None and r.los.visible == fact.visible
            if r.blocking is None:
                assert fact.visible or not fact.blocked_by
                continue
            found += 1
            assert not fact.visible and r.blocking in fact.blocked_by
            sec = [s for s in r.profile if s.piece_id == r.blocking]
            assert sec and all(s.blocks for s in sec)
            assert r.eye_a is not None and r.eye_b is not None
            assert sec[0].top >= min(r.eye_a, r.eye_b)
    assert found > 0


def test_measure_is_pure(deployed: GameState) -> None:
    before = json.dumps(deployed.to_json(), sort_keys=True)
    ids = _models(deployed)
    for b in ids[1:]:
        measure(deployed, ids[0], b)
    measure(deployed, ids[0], (10.0, 10.0))
    assert json.dumps(deployed.to_json(), sort_keys=True) == before
    assert math.isfinite(measure(deployed, ids[0], ids[1]).length)
