"""`zona-alfa generate-mission --seed S --table T [--tl N] [--out FILE]`: roll a mission on the Mission Table
(CAMPAIGN-9.1.MISSION-TABLE), print its card and write it as a scenario file (game.scenarios.generate; default
generated/<table>-<seed>.toml). The same seed and table write the same bytes; a file already there with other bytes
(a designer's edit) is never overwritten (exit 2).

`add_generate_arguments` and `generated_scenario` give `simulate` and `demo` their `--generate --table --tl --out`:
the mission is written as a file and played as a FILE scenario, so its record names the file and its SHA-256 and
replays like any other. Exit status: 0 written, 2 wrong input (one line naming the argument)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from game.core.settings import Settings, SettingsError
from game.scenarios.generate import (
    GeneratedMission,
    GenerateError,
    generate_mission,
    tables_with_anchors,
    write_generated,
)

COMMAND = "generate-mission"
SEED_MAX = 2**64 - 1


def _seed(text: str) -> int:
    try:
        value = int(text.strip().replace("_", ""), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number; give one from 0 to "
                                         f"{SEED_MAX}") from None
    if not 0 <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is out of range; give a whole number from 0 to {SEED_MAX}")
    return value


def _tl(text: str) -> int:
    try:
        return int(text.strip(), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a Threat Level; give 1, 2 or 3") from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=_seed, required=True, help=f"the mission's seed, 0 to {SEED_MAX}")
    p.add_argument("--table", required=True, metavar="T",
                   help="a shipped table with anchors (maps/*.tmx by name, e.g. ishikhov)")
    p.add_argument("--tl", type=_tl, default=None, metavar="N",
                   help="the Threat Level, 1-3 (default: rolled on a D3, MISSION-8.2.TL)")
    p.add_argument("--out", metavar="FILE", help="where to write the scenario (default generated/<table>-<seed>.toml)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a house setting the placement reads: mapgen.hotspots.min_gap (6), mapgen.hotspots.symmetry")


def fail(command: str, argument: str, text: str) -> int:
    line = " ".join(str(text).split())
    print(f"zona-alfa {command}: {line if line.startswith(argument) else f'{argument}: {line}'}", file=sys.stderr)
    return 2


def make(command: str, seed: int, table: str | None, tl: int | None, out: str | None,
         options: list[str] | None = None) -> tuple[GeneratedMission, str] | int:
    """Generate and write; (mission, path written) or the exit status of a one-line refusal."""
    if table is None:
        return fail(command, "--table", f"which table? give one of {', '.join(tables_with_anchors())}")
    try:
        settings = Settings.from_options(options or [])
    except SettingsError as exc:
        return fail(command, "--set", str(exc))
    try:
        mission = generate_mission(seed, table, tl=tl, settings=settings)
    except GenerateError as exc:
        return fail(command, exc.argument, str(exc))
    if out is not None and (problem := _out_problem(out)) is not None:
        return fail(command, "--out", problem)
    target = Path(out if out is not None else mission.path_hint)
    if target.is_file() and _differs(target, mission.toml_text):  # never overwrite a designer's edits
        return fail(command, "--out", f"{target} exists and is not this mission (edited, or another one); play it as "
                                      f"a scenario file ({target}), move it away, or give another --out")
    try:
        path = write_generated(mission, out)
    except OSError as exc:
        where = out if out is not None else mission.path_hint
        return fail(command, "--out", f"cannot write {where}: {exc.strerror or exc}; give a file path in a folder "
                                      "you can write to")
    return mission, str(path)


def _differs(path: Path, text: str) -> bool:
    try:
        return path.read_bytes() != text.encode("utf-8")
    except OSError:
        return True


def _out_problem(out: str) -> str | None:
    """Why `--out` names no file to write (its folder must exist; the default folder generated/ is made)."""
    p = Path(out)
    if out.strip() == "" or p.name in ("", ".", ".."):
        return f"{out!r} is not a file name; give a path such as my-mission.toml"
    if p.is_dir():
        return f"{out} is a folder; give a file path inside it, e.g. {p / 'mission.toml'}"
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        return f"the folder {parent} does not exist; create it first or choose another path"
    return None


def run(args: argparse.Namespace) -> int:
    made = make(COMMAND, args.seed, args.table, args.tl, args.out, args.set)
    if isinstance(made, int):
        return made
    mission, path = made
    for line in mission.card:
        print(line)
    print(f"written: {path} (check it with zona-alfa check-scenario {path}; play it with zona-alfa simulate {path} "
          "--games N)")
    return 0


def add_generate_arguments(p: argparse.ArgumentParser, *, tl: bool = True) -> None:
    """`--generate --table T [--tl N] [--out FILE]` for a command that takes a scenario (`--seed` is the command's
    own: it seeds the mission too). `tl=False` when the command already has a `--tl` (demo)."""
    p.add_argument("--generate", action="store_true",
                   help="play a mission generated from the Mission Table with --seed on --table (written to --out, "
                        "default generated/<table>-<seed>.toml, and played as that scenario file)")
    p.add_argument("--table", metavar="T", help="with --generate: a shipped table with anchors (e.g. ishikhov)")
    if tl:
        p.add_argument("--tl", type=_tl, default=None, metavar="N",
                       help="with --generate: the mission's Threat Level 1-3 (default: rolled)")
    p.add_argument("--out", metavar="FILE", help="with --generate: where the generated scenario file is written")


def generated_scenario(command: str, args: argparse.Namespace, named: str | None, *,
                       own_tl: bool = True) -> str | None | int:
    """The scenario a command plays when given `--generate`: the path of the written file; None without --generate
    (then --table, --out and, when `own_tl` (the command's --tl is add_generate_arguments'), --tl are refused); an
    int is the exit status of a refusal. `named`: the scenario the command was also given (refused beside
    --generate)."""
    tl = getattr(args, "tl", None)
    if not args.generate:
        for opt, v in (("--table", args.table), ("--out", args.out), ("--tl", tl if own_tl else None)):
            if v is not None:
                return fail(command, opt, "only means something with --generate")
        return None
    if named is not None:
        return fail(command, "--generate", f"plays a generated mission; drop the scenario {named!r} (or drop "
                                           "--generate to play it)")
    made = make(command, args.seed, args.table, tl, args.out)
    if isinstance(made, int):
        return made
    return made[1]
