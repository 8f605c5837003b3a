"""GEO-7 legal positions and GEO-25 nearest legal point (game/core/geometry/movement/positions.py)."""
from __future__ import annotations

from game.core.battlefield import Base, Battlefield, Movement, TerrainPiece
from game.core.geometry.movement.positions import nearest_legal, position_fact
from game.core.geometry.polygon import rect

R, H = 0.5, 1.25
BF = Battlefield("t", 24, 24, pieces=(
    TerrainPiece(1, "block", rect(10, 10, 14, 14), 0.0, 3.0, movement=Movement.IMPASSABLE),
    TerrainPiece(2, "hedge", rect(2, 2, 2.5, 8), 0.0, 1.0, kind="hedge"),
    TerrainPiece(3, "roof", rect(10, 10, 14, 14), 3.0, 3.0, surface=True),
))


def test_position_rules() -> None:
    """GEO-7/GEO-26/GEO-6: impassable at its level, low obstacles, the table edge, other bases; a roof is fine."""
    assert not position_fact(BF, 12, 12, 0, radius=R, height=H).legal
    assert position_fact(BF, 12, 12, 3.0, radius=R, height=H).legal  # on the roof (GEO-7)
    assert not position_fact(BF, 16, 16, 3.0, radius=R, height=H).legal  # no floor there
    hedge = position_fact(BF, 2.25, 5, 0, radius=R, height=H)
    assert not hedge.legal and hedge.piece == 2
    assert position_fact(BF, 0.5, 5, 0, radius=R, height=H).legal
    assert position_fact(BF, 0.45, 5, 0, radius=R, height=H).rule == "GEO-26"
    other = Base("o", 20, 20, 0, 0.5, 1.25, "b")
    assert position_fact(BF, 20.9, 20, 0, radius=R, height=H, others=[other]).other == "o"
    assert position_fact(BF, 21.0, 20, 0, radius=R, height=H, others=[other]).legal
    assert position_fact(BF, 20, 20, 0, radius=R, height=H, others=[other], mover="o").legal


def test_nearest_legal_point_on_the_quarter_inch_grid() -> None:
    """GEO-25: the nearest legal 0.25" grid point; ties by the smallest angle from +x toward +y (GEO-1)."""
    near = nearest_legal(BF, 10.0, 12.0, 0, radius=R, height=H)
    assert (near.x, near.y) == (9.5, 12.0)
    centre = nearest_legal(BF, 12.0, 12.0, 0, radius=R, height=H)  # 2.5" to every side: +x wins the tie
    assert (centre.x, centre.y) == (14.5, 12.0)
    assert nearest_legal(BF, 12.0, 12.0, 0, radius=R, height=H, max_distance=1.0) is None
    assert nearest_legal(BF, 5.0, 5.0, 0, radius=R, height=H).x == 5.0  # already legal
