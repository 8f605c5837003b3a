"""Point each house setting's `enforced_by` at the module that reads it (`settings["key"]` literals).

`python -m game.tools.sync_enforced` rewrites game/data/house.toml in place and prints what changed; keys no
module reads keep the feature they wait for (and are refused at any value but their default). Run
`python -m game.tools.gen_settings_doc` afterwards; `--check` only reports (a test runs it).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READ = re.compile(r'(?:settings|\bs)\[\s*"([a-z0-9_.]+)"\s*\]')


def readers() -> dict[str, list[str]]:
    """Every settings key read with a literal name, and the modules that read it (sorted)."""
    out: dict[str, list[str]] = {}
    for p in sorted((ROOT / "game").rglob("*.py")):
        mod = ".".join(p.relative_to(ROOT).with_suffix("").parts)
        mod = mod.removesuffix(".__init__")
        for key in READ.findall(p.read_text(encoding="utf-8")):
            out.setdefault(key, [])
            if mod not in out[key]:
                out[key].append(mod)
    return out


def _names(module: str, key: str) -> bool:
    """The module's source names the key as a string literal (the enforcement test's criterion)."""
    base = ROOT.joinpath(*module.split("."))
    files = [base.with_suffix(".py")] if base.with_suffix(".py").exists() else sorted(base.glob("*.py"))
    sources = (f.read_text(encoding="utf-8") for f in files)
    return any(f'"{key}"' in src or f"'{key}'" in src for src in sources)


def sync(text: str, reads: dict[str, list[str]]) -> tuple[str, list[tuple[str, str, str]]]:
    changes: list[tuple[str, str, str]] = []

    def fix(m: re.Match[str]) -> str:
        key, body = m.group(1), m.group(2)
        em = re.search(r'^enforced_by = "([^"]*)"', body, re.M)
        mods = reads.get(key)
        if em is None:
            return m.group(0)
        current = em.group(1)
        if mods and current not in mods:
            changes.append((key, current, mods[0]))
            body = body.replace(em.group(0), f'enforced_by = "{mods[0]}"')
        elif not mods and current.startswith("game.") and not _names(current, key):
            changes.append((key, current, "(no reader left)"))
        return f'["{key}"]{body}'

    return re.sub(r'^\["([^"]+)"\](.*?)(?=^\["|\Z)', fix, text, flags=re.S | re.M), changes


def main(argv: list[str] | None = None) -> int:
    """Rewrite house.toml (or with --check only report, exit 1 on any difference); exit 1 when a module-labelled
    key has no reader left (relabel it by hand with the feature it waits for)."""
    args = sys.argv[1:] if argv is None else argv
    check = "--check" in args
    path = ROOT / "game" / "data" / "house.toml"
    new, changes = sync(path.read_text(encoding="utf-8"), readers())
    if not check:
        path.write_text(new, encoding="utf-8")
    for key, old, mod in changes:
        print(f"{key}: {old} -> {mod}")
    if check and changes:
        print("house.toml is out of step with the code: run python -m game.tools.sync_enforced", file=sys.stderr)
        return 1
    return 1 if any(mod == "(no reader left)" for _, _, mod in changes) else 0


if __name__ == "__main__":
    sys.exit(main())
