"""The shape of game/ (STYLE.md, docs/architecture.md): layers, no import cycles, no cross-module private names,
package faces that only re-export, every module importable on its own."""
from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"
ABOVE_CORE = ("game.maps", "game.render", "game.ai", "game.sim", "game.client", "game.campaign", "game.tools",
              "game.benchmarks", "game.cli", "game.bench", "game.odds_cli")
NOT_IN_CORE = ("pygame", "pytmx", "pymunk")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, function-level ones included, except under `if TYPE_CHECKING:`."""
    out: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for sub in child.orelse:
                    visit_one(sub)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        else:
            visit(node)

    visit(tree)
    return out


def imported_names(node: ast.Import | ast.ImportFrom, mod: str, is_pkg: bool) -> list[str]:
    """Dotted names an import statement reaches: `from a.b import c` reaches `a.b` (the face) and `a.b.c`."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = mod.split(".") if is_pkg else mod.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join(base + ([node.module] if node.module else []))
    else:
        prefix = node.module or ""
    return [prefix] + [f"{prefix}.{a.name}" for a in node.names]


@functools.cache
def source_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(GAME.rglob("*.py")) if "__pycache__" not in p.parts}


@functools.cache
def parsed(path: Path) -> ast.Module:
    """Each module's syntax tree, read and parsed once for the whole run."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def game_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    return graph_of(source_modules())


def graph_of(mods: dict[str, Path]) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(module -> game modules it imports, module -> every dotted name it imports)."""
    graph: dict[str, set[str]] = {}
    raw: dict[str, set[str]] = {}
    for m, p in mods.items():
        tree = parsed(p)
        names: set[str] = set()
        for node in import_nodes(tree):
            names.update(imported_names(node, m, p.name == "__init__.py"))
        deps: set[str] = set()
        for name in names:
            parts = name.split(".")
            for k in range(len(parts), 0, -1):
                cand = ".".join(parts[:k])
                if cand in mods:
                    if cand != m:
                        deps.add(cand)
                    break
        graph[m], raw[m] = deps, names
    return graph, raw


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_cycle_finder_sees_a_face_cycle() -> None:
    """The checker itself: a face that re-exports a submodule importing the face back is a cycle."""
    g = {"p": {"p.a"}, "p.a": {"p"}, "p.b": {"p.a"}, "q": set()}
    assert cycles(g) == [["p", "p.a"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_import_cycles_in_game() -> None:
    """Every import counts, function-level ones too; only `if TYPE_CHECKING:` imports are exempt."""
    graph, _ = game_graph()
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_core_imports_nothing_above_it() -> None:
    _, raw = game_graph()
    bad = []
    for m, names in raw.items():
        if m != "game.core" and not m.startswith("game.core."):
            continue
        for name in names:
            if any(name == f or name.startswith(f + ".") for f in ABOVE_CORE + NOT_IN_CORE):
                bad.append(f"{m} imports {name}")
    assert not bad, bad


def test_nothing_imports_the_client() -> None:
    """Only the client itself and the front ends above it (the command line's `play`, the client's speed bench)
    import game.client; nothing the headless game runs on does."""
    _, raw = game_graph()
    above = ("game.client", "game.benchmarks", "game.bench", "game.cli", "game.__main__")
    bad = [f"{m} imports {n}" for m, names in raw.items() if not m.startswith(above)
           for n in names if n == "game.client" or n.startswith("game.client.")]
    assert not bad, bad


def test_no_cross_module_private_imports() -> None:
    """`from game.X import _name` is a private name crossing a module boundary; tests may, game/ may not."""
    bad = []
    for p in source_modules().values():
        for node in import_nodes(parsed(p)):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("game")):
                for a in node.names:
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        bad.append(f"{p.relative_to(ROOT)}:{node.lineno} imports {a.name} from {node.module}")
    assert not bad, "\n".join(bad)


def test_modules_import_siblings_by_full_path_not_through_a_face() -> None:
    """Inside a package, a module never imports from an ancestor package's face (`from game.core.rules import x`
    inside game/core/rules/): the face imports the module, so that would be a cycle waiting to happen."""
    mods = source_modules()
    bad = []
    for m, p in mods.items():
        is_pkg = p.name == "__init__.py"
        ancestors = {".".join(m.split(".")[:k]) for k in range(1, len(m.split(".")))}
        if is_pkg:
            ancestors.discard(m)
        for node in import_nodes(parsed(p)):
            if isinstance(node, ast.ImportFrom):
                target = imported_names(node, m, is_pkg)[0]
                if target in ancestors:
                    bad.append(f"{p.relative_to(ROOT)}:{node.lineno} imports from the face {target}")
    assert not bad, "\n".join(bad)


def test_faces_define_nothing_their_submodules_need() -> None:
    """A package face only re-exports (imports, `__all__`, a docstring); game/core/__init__.py imports nothing."""
    bad = []
    for m, p in source_modules().items():
        if p.name != "__init__.py":
            continue
        tree = parsed(p)
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if m == "game.core" and not (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
                    bad.append(f"{m}: the core face imports {ast.unparse(node)}")
                continue
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                continue  # the docstring
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]:
                continue
            bad.append(f"{p.relative_to(ROOT)}:{node.lineno} defines {type(node).__name__} in a package face")
    assert not bad, "\n".join(bad)


def test_every_module_imports_on_its_own() -> None:
    """Each module imports in a fresh interpreter state (no partially initialised face, no order dependence)."""
    names = [m for m in source_modules() if not m.endswith("__main__")]
    code = (
        "import importlib, sys\n"
        f"names = {names!r}\n"
        "bad = []\n"
        "for n in names:\n"
        "    for k in [k for k in sys.modules if k == 'game' or k.startswith('game.')]:\n"
        "        del sys.modules[k]\n"
        "    try:\n"
        "        importlib.import_module(n)\n"
        "    except Exception as exc:\n"
        "        bad.append(f'{n}: {type(exc).__name__}: {exc}')\n"
        "print('\\n'.join(bad))\n"
        "sys.exit(1 if bad else 0)\n"
    )
    env = {"SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1", "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def _tool(name: str) -> Path:
    exe = Path(sys.executable).with_name(name)
    if not exe.exists():
        pytest.fail(f"{name} is not installed beside {sys.executable}: install the test extra (.[test])")
    return exe


def test_import_linter_contracts_are_kept() -> None:
    """The layer contracts of pyproject.toml [tool.importlinter] (import-linter, grimp underneath)."""
    r = subprocess.run([str(_tool("lint-imports")), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "BROKEN" not in r.stdout


def test_ruff_is_clean() -> None:
    r = subprocess.run([str(_tool("ruff")), "check", "--no-cache", "game", "tests"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]


def test_mypy_is_clean() -> None:
    """mypy on game/ with the pyproject.toml configuration (--strict on the data-model modules)."""
    r = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(ROOT / ".mypy_cache")], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]
