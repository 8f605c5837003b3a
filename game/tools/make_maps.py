"""Write the shipped tables (maps/*.tmx) from their scripts: `python -m game.tools.make_maps [--check]`."""
from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from game.tools.table_crossroads import crossroads
from game.tools.table_ishikhov import ishikhov
from game.tools.table_sandbox import sandbox
from game.tools.table_woods import chernya_woods
from game.tools.tmxwriter import TmxMap

ROOT = Path(__file__).resolve().parents[2]

TABLES: dict[str, Callable[[], TmxMap]] = {
    "crossroads-blyatsk.tmx": crossroads,
    "chernya-woods.tmx": chernya_woods,
    "ishikhov.tmx": ishikhov,
    "sandbox.tmx": sandbox,
}


def build(name: str) -> str:
    """The .tmx text of one shipped table (deterministic: the same text every run)."""
    return TABLES[name]().to_xml()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "maps", help="directory to write to (default maps/)")
    parser.add_argument("--check", action="store_true",
                        help="only compare with the files on disk; exit 1 on a difference")
    parser.add_argument("names", nargs="*", help=f"tables to write (default all: {', '.join(TABLES)})")
    args = parser.parse_args(argv)
    names = args.names or list(TABLES)
    unknown = [n for n in names if n not in TABLES]
    if unknown:
        parser.error(f"unknown table(s) {unknown}; choose from {list(TABLES)}")
    stale = 0
    for name in names:
        text, path = build(name), args.out / name
        if args.check:
            same = path.exists() and path.read_text(encoding="utf-8") == text
            stale += not same
            print(f"{path}: {'up to date' if same else 'differs from its script'}")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}: {text.count('<object ')} objects")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
