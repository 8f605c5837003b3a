"""Broken or hostile .tmx files fail cleanly (MapError naming the file) within a second, never crash or hang."""
from __future__ import annotations

import time

import pytest

from game.maps.lint import lint_map
from game.maps.loader import MapError, load_map
from game.tools.make_test_maps import hostile_files
from tests.paths import FIXTURES

HOSTILE = FIXTURES / "maps" / "hostile"


def test_hostile_corpus_is_complete_and_generated():
    names = sorted(p.name for p in HOSTILE.glob("*.tmx"))
    assert names == sorted(hostile_files())
    for name, text in hostile_files().items():
        assert (HOSTILE / name).read_text(encoding="utf-8") == text


@pytest.mark.parametrize("name", sorted(hostile_files()))
def test_hostile_file_fails_cleanly_within_a_second(name):
    path = HOSTILE / name
    started = time.perf_counter()
    with pytest.raises(MapError) as err:
        load_map(path)
    elapsed = time.perf_counter() - started
    assert elapsed < 1.0, f"{name} took {elapsed:.2f} s"
    assert str(path) in str(err.value) and "fix:" in str(err.value)
    report = lint_map(path)
    assert not report.clean and all(p.file == str(path) for p in report.problems)


@pytest.mark.parametrize("name, words", [
    ("billion-laughs.tmx", "entities"), ("external-entity.tmx", "entities"), ("malformed.tmx", "well-formed"),
    ("missing-tileset.tmx", "nowhere.tsx"), ("infinite.tmx", "infinite"), ("reserved-name.tmx", "'height'"),
    ("nan-coordinates.tmx", "NaN"), ("not-a-map.tmx", "<tileset>"), ("huge.tmx", "at most"),
    ("deep-groups.tmx", "nested"), ("empty.tmx", "well-formed"),
])
def test_hostile_errors_say_what_is_wrong(name, words):
    with pytest.raises(MapError, match=words):
        load_map(HOSTILE / name)


def test_reserved_name_error_names_the_object():
    with pytest.raises(MapError) as err:
        load_map(HOSTILE / "reserved-name.tmx")
    (problem,) = err.value.problems
    assert (problem.object_id, problem.object_name, problem.code) == (1, "x", "reserved-name")


def test_a_hostile_tileset_is_defused_too(tmp_path):
    laughs = ('<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>\n'
              '<tileset name="&b;" tilewidth="32" tileheight="32"/>\n')
    (tmp_path / "evil.tsx").write_text(laughs)
    (tmp_path / "m.tmx").write_text('<?xml version="1.0"?>\n<map orientation="orthogonal" width="4" height="4" '
                                    'tilewidth="32" tileheight="32"><tileset firstgid="1" source="evil.tsx"/></map>\n')
    with pytest.raises(MapError, match="evil.tsx"):
        load_map(tmp_path / "m.tmx")
