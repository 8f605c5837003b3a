"""Every enforced house setting with alternatives has a test that flips it and asserts the effect it governs
(issue 12; DOC-0.2, CFG): tests declare the keys they flip with `pytest.mark.setting("key", ...)`, found here
by reading the test sources (AST), so a key that loses its test, or a newly wired key without one, fails."""
from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from game.core.settings import SettingSpec, house_specs
from tests.paths import REPO_ROOT

TESTS = REPO_ROOT / "tests"

# Keys whose flip test exists but still lacks its marker: key -> (test file, test function). The test must name
# the key; delete an entry once the marker is added there.
MARKER_PENDING: dict[str, tuple[str, str]] = {}


def _is_setting_mark(func: ast.expr) -> bool:
    """`pytest.mark.setting` or `mark.setting` (imported `mark`)."""
    if not (isinstance(func, ast.Attribute) and func.attr == "setting"):
        return False
    owner = func.value
    return (isinstance(owner, ast.Attribute) and owner.attr == "mark") or (
        isinstance(owner, ast.Name) and owner.id == "mark")


def marked_keys_in(source: str) -> dict[str, int]:
    """The keys named by `setting(...)` markers in one test module, with the line of their first marker.

    >>> marked_keys_in('import pytest\\n@pytest.mark.setting("a.b", "c.d")\\ndef test_x(): pass\\n')
    {'a.b': 2, 'c.d': 2}
    """
    out: dict[str, int] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _is_setting_mark(node.func):
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    out.setdefault(arg.value, node.lineno)
    return out


def marked_keys(root: Path = TESTS) -> dict[str, list[str]]:
    """Every key a `setting(...)` marker names anywhere under tests/, with where (file:line)."""
    out: dict[str, list[str]] = {}
    for path in sorted(root.rglob("test_*.py")):
        for key, line in marked_keys_in(path.read_text(encoding="utf-8")).items():
            out.setdefault(key, []).append(f"{path.relative_to(REPO_ROOT)}:{line}")
    return out


def uncovered(specs: Iterable[SettingSpec], marked: Iterable[str]) -> list[str]:
    """The enforced keys with alternatives that no marker names."""
    seen = set(marked)
    return sorted(s.key for s in specs if s.has_alternatives and s.key not in seen)


def _test_source(file: str, function: str) -> str:
    """The source of one test function, its decorators (parameters) included; "" when there is none."""
    text = (REPO_ROOT / file).read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            return "\n".join(text.splitlines()[start - 1:node.end_lineno])
    return ""


def test_every_enforced_key_with_alternatives_has_a_marked_flip_test() -> None:
    """Bool keys, keys with choices, numeric keys and lists an enforced module reads: each is flipped by a test
    that says so with `@pytest.mark.setting("key")`."""
    missing = [k for k in uncovered(house_specs().values(), marked_keys()) if k not in MARKER_PENDING]
    assert not missing, ("enforced settings with alternatives but no test marked @pytest.mark.setting(...) that flips "
                         "them and asserts the effect they govern: " + ", ".join(missing))


def test_markers_name_declared_keys() -> None:
    specs = house_specs()
    bad = {k: where for k, where in marked_keys().items() if k not in specs}
    assert not bad, f"markers name undeclared settings: {bad}"


def test_pending_markers_point_at_a_test_that_names_the_key() -> None:
    """A key awaiting its marker names an existing test that already flips it (entries already marked elsewhere are
    no longer needed: delete them when convenient)."""
    marked = marked_keys()
    for key, (file, function) in MARKER_PENDING.items():
        if key in marked:
            continue
        source = _test_source(file, function)
        assert source, f"{key}: no test {function} in {file}"
        assert f'"{key}' in source or f"'{key}" in source, f"{key}: {file}::{function} never names it"


def test_the_scan_finds_markers_and_reports_uncovered_keys() -> None:
    """The meta-test itself: markers in decorators, parameters and module marks count; an unmarked key fails."""
    src = ('import pytest\nfrom pytest import mark\npytestmark = pytest.mark.setting("m.mod")\n'
           '@mark.setting("a.one")\ndef test_a(): pass\n'
           '@pytest.mark.parametrize("v", [pytest.param(1, marks=pytest.mark.setting("b.two"))])\n'
           'def test_b(v): pass\n')
    assert set(marked_keys_in(src)) == {"m.mod", "a.one", "b.two"}
    flip = SettingSpec("a.one", True, "bool", "GAP-1", "game.core.rules.stats", "x")
    other = SettingSpec("c.three", 1, "int", "GAP-1", "game.core.rules.stats", "x", min=0, max=3)
    fixed = SettingSpec("d.four", "x", "str", "GAP-1", "game.core.rules.stats", "x", choices=("x",))
    later = SettingSpec("e.five", True, "bool", "GAP-1", "later: anomalies", "x")
    assert uncovered([flip, other, fixed, later], marked_keys_in(src)) == ["c.three"]
