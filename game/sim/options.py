"""What `zona-alfa demo` and `zona-alfa replay` check in their arguments before any game is played: seeds, counts,
output files and one-line messages that name the argument (issue 13: no traceback on any input)."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

SEED_MAX = 2**64 - 1  # the PRNG takes 64 bits (game/core/dice.py): larger seeds are refused, never reduced


def _shown(text: str) -> str:
    """An argument as a message quotes it: at most 40 characters."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def seed_arg(text: str) -> int:
    """argparse type of --seed: a whole number from 0 to 2^64-1."""
    try:
        value = int(text.strip().replace("_", ""), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number; give one "
                                         f"from 0 to {SEED_MAX}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is negative; give a whole number from 0 to {SEED_MAX}")
    if value > SEED_MAX:
        raise argparse.ArgumentTypeError(f"{_shown(text)} has {len(str(value))} digits, over 2^64-1; give a whole "
                                         f"number from 0 to {SEED_MAX} (a larger seed is refused, not reduced, so that "
                                         "no two seeds play one game)")
    return value


def count_arg(text: str) -> int:
    """argparse type of an action count (--until): a whole number >= 0."""
    try:
        value = int(text.strip(), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number of actions; give 0 or more") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is negative; give a number of actions, 0 or more")
    return value


def output_problem(path: str) -> str | None:
    """Why a file cannot be written at `path` (None if it can): checked before a game is played, by creating
    and removing a temporary file beside it, so that nothing is left behind either way."""
    p = Path(path)
    if path.strip() == "" or p.name in ("", ".", ".."):
        return f"{path!r} is not a file name; give a path such as game.json"
    if p.is_dir():
        return f"{path} is a folder; give a file path inside it, e.g. {p / 'game.json'}"
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        return f"the folder {parent} does not exist; create it first or choose another path"
    if not parent.is_dir():
        return f"{parent} is not a folder; choose a path inside a folder"
    if p.exists() and not p.is_file():
        return f"{path} exists and is not a regular file; choose another path"
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".probe", dir=parent)
    except OSError as exc:
        return f"cannot write in {parent}: {exc.strerror or exc}; choose a folder you can write to"
    os.close(fd)
    os.unlink(tmp)
    return None


def fail(command: str, argument: str, problem: str) -> int:
    """Print `zona-alfa COMMAND: ARGUMENT: PROBLEM` as one line on stderr (the argument once, if the problem already
    starts with it); returns 2, the exit status for wrong input."""
    text = one_line(problem)
    print(f"zona-alfa {command}: {text if text.startswith(argument) else f'{argument}: {text}'}", file=sys.stderr)
    return 2


def one_line(text: str) -> str:
    """The first line of a message, saying how many more lines (problems) it had."""
    lines = [x for x in str(text).strip().splitlines() if x.strip()] or ["(no message)"]
    return lines[0] + (f" (and {len(lines) - 1} more problem(s))" if len(lines) > 1 else "")
