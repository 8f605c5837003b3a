"""`zona-alfa replay RECORD`: re-play a record and print its log, the same text or JSON lines `demo` printed; a
record that is cut short, edited or illegal is refused with the action number and the reason."""
from __future__ import annotations

import argparse
import sys

from game.core.events import describe
from game.core.record import RecordError, load_record
from game.sim.loop import replay_record
from game.sim.options import count_arg, fail

COMMAND = "replay"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", metavar="RECORD", help="a record file, as `zona-alfa demo --record FILE` writes it")
    p.add_argument("--json", action="store_true", help="print the canonical JSON event log instead of text")
    p.add_argument("--until", type=count_arg, metavar="N",
                   help="print the log only as far as action #N (0: the setup alone); the whole record is "
                        "still replayed and checked first")


def run(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.record)
        done = replay_record(record, where=args.record)
    except RecordError as exc:
        return fail(COMMAND, "RECORD", str(exc))
    n = len(record.actions)
    if args.until is not None and args.until > n:
        return fail(COMMAND, "--until", f"{args.until} is past the end: {args.record} has {n} action(s); "
                                        f"give 0 to {n}")
    if done.note:
        print(f"zona-alfa {COMMAND}: note: {done.note}", file=sys.stderr)
    stop = done.marks[args.until] if args.until is not None else len(done.events)
    for e in done.events[:stop]:
        print(e.line() if args.json else describe(e))
    return 0
