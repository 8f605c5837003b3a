"""Every `zona-alfa render-map` example written in README.md and docs/*.md runs, with no warning (its models stand
where bases may, GEO-7), and writes its picture (issue 13: pictures that show what the README says)."""
from __future__ import annotations

import os
import re
import shlex

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402

from game.cli import main  # noqa: E402
from tests.paths import REPO_ROOT

SOURCES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md")), REPO_ROOT / "maps" / "README.md"]


def examples() -> list[tuple[str, str]]:
    """(file, command) for each runnable example: a real map and an --out, line continuations joined."""
    out = []
    for f in SOURCES:
        text = f.read_text(encoding="utf-8").replace("\\\n", " ")
        for m in re.finditer(r"zona-alfa render-map [^`\n|]*", text):
            cmd = " ".join(m.group(0).split())
            argv = shlex.split(cmd)
            if "--out" in argv and argv[2].endswith(".tmx"):
                out.append((f.name, cmd))
    return out


EXAMPLES = examples()


def test_the_docs_hold_the_examples() -> None:
    names = {f for f, _ in EXAMPLES}
    assert {"README.md", "geometry.md", "movement.md"} <= names
    joined = " ".join(c for _, c in EXAMPLES)
    for option in ("--los", "--template", "--smoke", "--path", "--reach", "--model"):
        assert option in joined


@pytest.mark.parametrize("source, command", EXAMPLES, ids=[f"{f}:{c[21:60]}" for f, c in EXAMPLES])
def test_a_documented_example_runs_cleanly(tmp_path, capsys, source, command) -> None:  # type: ignore[no-untyped-def]
    argv = shlex.split(command)[1:]
    k = argv.index("--out")
    argv[k + 1] = str(tmp_path / "example.png")
    argv += ["--px-per-inch", "6"]  # the same picture, smaller: the last --px-per-inch wins
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 0 and err == "", err
    assert (tmp_path / "example.png").stat().st_size > 1000 and "example.png" in out
