"""Every file path and dotted module name that README.md, maps/README.md and docs/ mention exists."""
from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from tests.paths import REPO_ROOT

DOCS = [REPO_ROOT / "README.md", REPO_ROOT / "maps" / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
PATH = re.compile(r"(?<![\w./-])((?:game|maps|docs|tests|sprites|\.ci)/[\w./*-]*[\w*])")
DOTTED = re.compile(r"(?<![\w./-])(game(?:\.[a-z_][a-z0-9_]*)+)")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*$")  # sprites/tokens/ID.png, maps/X.tmx: a name to fill in


def _as_glob(path: str) -> str:
    parts = []
    for part in path.split("/"):
        stem, dot, ext = part.partition(".")
        parts.append(("*" if PLACEHOLDER.match(stem) else stem) + dot + ext)
    return "/".join(parts)


def path_exists(path: str) -> bool:
    """A path exists as written, or (with * or an upper-case placeholder) matches at least one file."""
    pattern = _as_glob(path)
    if "*" in pattern:
        return any(REPO_ROOT.glob(pattern))
    return (REPO_ROOT / path).exists()


@cache
def _top_names(module_file: Path) -> frozenset[str]:
    tree = ast.parse(module_file.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


def _module_file(dotted: str) -> Path | None:
    base = REPO_ROOT.joinpath(*dotted.split("."))
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


def dotted_exists(name: str) -> bool:
    """`game.a.b` is a module, or a name defined (or re-exported) at the top of the longest module prefix."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        f = _module_file(".".join(parts[:k]))
        if f is not None:
            return k == len(parts) or parts[k] in _top_names(f)
    return False


def mentions() -> list[tuple[str, str, str]]:
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        rel = str(doc.relative_to(REPO_ROOT))
        out += [(rel, "path", m.rstrip(".")) for m in PATH.findall(text)]
        out += [(rel, "module", m) for m in DOTTED.findall(text)]
    return out


def test_the_checker_sees_a_stale_name() -> None:
    assert path_exists("game/core/rules/apply.py") and not path_exists("game/core/rules.py")
    assert path_exists("sprites/tokens/ID.png") and not path_exists("maps/nosuch/X.tmx")
    assert dotted_exists("game.core.rules.apply") and dotted_exists("game.core.rules.attack.casualty_order")
    assert not dotted_exists("game.core.combat") and not dotted_exists("game.core.rules.attack.no_such_name")


def test_every_documented_path_and_module_exists() -> None:
    found = mentions()
    assert len(found) > 50
    stale = [f"{doc}: {kind} {name}" for doc, kind, name in found
             if not (path_exists(name) if kind == "path" else dotted_exists(name))]
    assert not stale, "documented but missing:\n" + "\n".join(sorted(set(stale)))
