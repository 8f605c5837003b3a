"""Property: the fast sight path equals the naive reference on random boards (GEO-10, GEO-12, GEO-13, GEO-14).

Coordinates are multiples of 1/8 (binary-exact), and many rays run through vertices and along edges. Pieces
belong to one of two buildings or none, so GEO-13's walls (pieces of one building crossed within 1.0") form.
"""
from __future__ import annotations

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.battlefield import Area, Base, Battlefield, Cover, Scene, TerrainPiece
from game.core.geometry.crossing import MODE_CROSS, seg_piece
from game.core.geometry.sight.batch import all_pairs, check_pairs, naive_check, naive_or_fact_check
from game.core.geometry.sight.los import FAST
from game.core.geometry.sight.naive import NAIVE
from game.core.geometry.sight.world import world_of
from game.core.settings import Settings

VARIANTS = (Settings.defaults(), Settings({"obstruction.building_walls": "per_piece", "cover.below_feet": True}))

EIGHTHS = st.integers(min_value=0, max_value=16 * 8).map(lambda k: k / 8)
HEIGHTS = st.sampled_from([0.5, 1.0, 1.25, 2.0, 3.0, 4.0])
SHAPES = (
    ((0, 0), (1, 0), (1, 1), (0, 1)),
    ((0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)),  # U: concave
    ((0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)),  # L: concave
    ((0, 0), (2, 1), (0, 2)),
)


@st.composite
def pieces(draw, pid):
    shape = draw(st.sampled_from(SHAPES))
    sx = draw(st.integers(1, 24)) / 8
    sy = draw(st.integers(1, 24)) / 8
    ox, oy = draw(EIGHTHS), draw(EIGHTHS)
    top = draw(HEIGHTS)
    woods = draw(st.integers(0, 9)) == 0
    return TerrainPiece(
        pid, f"p{pid}", tuple((ox + x * sx, oy + y * sy) for x, y in shape), 0.0, top,
        blocks_los=draw(st.booleans()), cover=draw(st.sampled_from(list(Cover))),
        area=Area.WOODS if woods else Area.NONE, building=draw(st.sampled_from(["", "", "a", "b"])),
    )


@st.composite
def boards(draw):
    n = draw(st.integers(1, 7))
    drawn = [draw(pieces(i + 1)) for i in range(n)]
    for p in list(drawn):  # twins: the same footprint nearby in the same building (a sill and its lintel, ...)
        if p.building and draw(st.booleans()):
            dx = draw(st.sampled_from([0.0, 0.25, 0.875, 1.0, 1.25, 2.0]))
            dy = draw(st.sampled_from([0.0, 0.5]))
            bottom = draw(st.sampled_from([0.0, 2.0, 3.25]))
            drawn.append(TerrainPiece(
                len(drawn) + 1, f"p{len(drawn) + 1}", tuple((x + dx, y + dy) for x, y in p.footprint), bottom,
                bottom + draw(HEIGHTS), blocks_los=p.blocks_los, cover=draw(st.sampled_from(list(Cover))),
                building=p.building))
    return Battlefield("random", 18.0, 18.0, pieces=tuple(drawn))


def vertices(bf):
    return [v for p in bf.pieces for v in p.footprint]


@st.composite
def rays(draw, bf):
    vs = vertices(bf)
    pick = st.one_of(st.sampled_from(vs), st.tuples(EIGHTHS, EIGHTHS))
    a, b = draw(pick), draw(pick)
    if draw(st.booleans()):  # extend a vertex pair along its own line: runs along edges, through vertices
        k = draw(st.integers(-2, 2))
        a = (a[0] + k * (b[0] - a[0]), a[1] + k * (b[1] - a[1]))
    za = draw(st.sampled_from([0.0, 0.5, 1.0, 1.25, 2.0, 3.0, 4.25]))
    zb = draw(st.sampled_from([0.0, 0.5, 1.0, 1.25, 2.0, 3.0, 4.25]))
    return (float(a[0]), float(a[1]), za, float(b[0]), float(b[1]), zb)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.data())
def test_fast_trace_and_crossing_equal_the_naive_reference(data):
    bf = data.draw(boards())
    world = world_of(bf)
    rs = [data.draw(rays(bf)) for _ in range(12)]
    assert FAST.trace(world, rs, []) == [(tuple(sorted(h)), c, w) for h, c, w in NAIVE.trace(world, rs, [])]
    for r in rs:
        assert FAST.crossed(world, r[:2], r[3:5]) == NAIVE.crossed(world, r[:2], r[3:5])
        assert FAST.crossed(world, r[:2], r[3:5]) == FAST.crossed(world, r[3:5], r[:2])


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.data())
def test_crossing_predicate_agrees_with_shapely_interior_on_exact_inputs(data):
    """GEO-12 crossing = shapely's 'meets the interior' (DE-9IM T********) on binary-exact segments."""
    bf = data.draw(boards())
    world = world_of(bf)
    ed, _, pn, _ = world.as_lists()
    r = data.draw(rays(bf))
    line = shapely.LineString([r[:2], r[3:5]]) if r[:2] != r[3:5] else shapely.Point(r[:2])
    for p, piece in enumerate(bf.pieces):
        ours = seg_piece(r[0], r[1], 0.0, r[3], r[4], 0.0, ed, pn[5 * p], pn[5 * p + 1], 0.0, 0.0, MODE_CROSS,
                         [0.0] * 64)[0]
        theirs = shapely.relate_pattern(line, shapely.Polygon(piece.footprint), "T********")
        assert ours == theirs, (r, piece.footprint)


@st.composite
def scenes(draw, bf):
    vs = vertices(bf)
    bases = []
    for i in range(draw(st.integers(2, 5))):
        if draw(st.booleans()):  # a base touching a vertex or edge: cover and contact cases
            vx, vy = draw(st.sampled_from(vs))
            x, y = vx + draw(st.sampled_from([-0.5, 0.5, 0.0])), vy + draw(st.sampled_from([-0.5, 0.5]))
        else:
            x, y = draw(EIGHTHS), draw(EIGHTHS)
        z = draw(st.sampled_from([0.0, 0.0, 1.0, 3.0]))
        bases.append(Base(f"m{i}", x, y, z, 0.5, 1.25, "crew"))
    return Scene(bases=tuple(b for i, b in enumerate(bases) if all((b.x, b.y) != (o.x, o.y) for o in bases[:i])))


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.data())
def test_fast_verdicts_equal_the_naive_reference(data):
    bf = data.draw(boards())
    sc = data.draw(scenes(bf))
    ids = [b.id for b in sc.bases]
    pairs = [(a, t) for a in ids for t in ids if a != t]
    settings = data.draw(st.sampled_from(VARIANTS))
    fast = check_pairs(bf, sc, pairs, settings=settings)
    table = all_pairs(bf, sc, settings=settings)
    for (a, t), v in zip(pairs, fast, strict=False):
        assert v == naive_check(bf, sc, a, t, settings=settings)
        assert v == naive_or_fact_check(bf, sc, a, t, settings=settings)
        assert v == table.verdict(a, t)


def _reference_spans(line, poly, lower):
    """Shapely reference of `crossing.cross_spans`: the interior parts of the line in the polygon, as distances from
    the segment's (x, y)-lower end."""
    inside = line.intersection(poly).difference(poly.boundary)
    parts = [g for g in getattr(inside, "geoms", [inside]) if not g.is_empty and g.length > 1e-9]
    out = []
    for g in parts:
        ends = [shapely.Point(lower).distance(shapely.Point(c)) for c in g.coords]
        out.append((min(ends), max(ends)))
    return out


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.data())
def test_geo13_walls_equal_a_shapely_reference(data):
    """GEO-13 per_wall: the crossing spans match shapely's interior intersection, and the walls the kernel forms
    (pieces of one building whose crossings lie within 1.0" along the segment, transitively) match a reference
    single-linkage grouping of those spans; the fast and naive backends agree, in both directions."""
    bf = data.draw(boards())
    world = world_of(bf)
    if data.draw(st.booleans()):
        r = data.draw(rays(bf))
        a, b = r[:2], r[3:5]
    else:  # through the middle of a piece (and so, often, its twin)
        fp = data.draw(st.sampled_from(bf.pieces)).footprint
        cx, cy = sum(x for x, _ in fp) / len(fp), sum(y for _, y in fp) / len(fp)
        dx, dy = data.draw(st.sampled_from([(1.0, 0.0), (0.0, 1.0), (1.0, 0.5), (0.75, -1.0), (1.0, 1.0)]))
        a, b = (cx - 8 * dx, cy - 8 * dy), (cx + 8 * dx, cy + 8 * dy)
    if a == b:
        return
    r = (*a, 0.0, *b, 0.0)
    lower = min(a, b)
    line = shapely.LineString([a, b])
    crossed = FAST.crossed(world, a, b)
    spans = {}
    for p in crossed:
        piece = bf.pieces[p]
        ref = _reference_spans(line, shapely.Polygon(piece.footprint), lower)
        assert ref, (r, piece.footprint)  # crossed iff some interior part
        spans[p] = ref
    eligible = [p for p in crossed if bf.pieces[p].cover is not Cover.NONE or bf.pieces[p].area is Area.WOODS]
    excluded = [False] * len(eligible)
    grp = FAST.walls(world, a, b, eligible, excluded, 1.0)
    assert grp == NAIVE.walls(world, a, b, eligible, excluded, 1.0) == FAST.walls(world, b, a, eligible, excluded, 1.0)
    parent = list(range(len(eligible)))

    def root(k):
        while parent[k] != k:
            k = parent[k]
        return k

    for i, p in enumerate(eligible):
        for j in range(i + 1, len(eligible)):
            q = eligible[j]
            bp, bq = bf.pieces[p].building, bf.pieces[q].building
            near = any(max(s[0], u[0]) - min(s[1], u[1]) <= 1.0 + 1e-6 for s in spans[p] for u in spans[q])
            if bp and bp == bq and near:
                ri, rj = root(i), root(j)
                parent[max(ri, rj)] = min(ri, rj)
    assert grp == tuple(root(k) for k in range(len(eligible)))
    assert FAST.walls(world, a, b, eligible, excluded, -1.0) == tuple(range(len(eligible)))  # per_piece
