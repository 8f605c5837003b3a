"""The `zona-alfa` front end (game/cli.py): exit statuses, argparse refusals as return values, and the last line
of defence against a bug: one line with a hint to report it, exit 70, never a traceback (issue 13 item 1)."""
from __future__ import annotations

import argparse
import sys
import types

import pytest

from game import cli


def fake(monkeypatch: pytest.MonkeyPatch, run: object) -> None:
    mod = types.ModuleType("tests_fake_subcommand")
    mod.add_arguments = lambda p: p.add_argument("--x")  # type: ignore[attr-defined]
    mod.run = run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tests_fake_subcommand", mod)
    monkeypatch.setitem(cli.SUBCOMMANDS, "boom", ("tests_fake_subcommand", "a subcommand with a bug"))


def test_an_unexpected_error_is_one_line_and_exit_70(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    def run(args: argparse.Namespace) -> int:
        raise ZeroDivisionError("division by zero\nsecond line")

    fake(monkeypatch, run)
    code = cli.main(["boom"])
    out, err = capsys.readouterr()
    assert code == cli.INTERNAL_ERROR == 70 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("zona-alfa boom: internal error: ZeroDivisionError: division by zero second line")
    assert "please report it" in err


def test_argparse_refusals_and_help_return_their_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--seed"]) == 2
    assert "argument --seed" in capsys.readouterr().err
    assert cli.main(["--help"]) == 0
    assert "replay" in capsys.readouterr().out
    assert cli.main([]) == 2
    assert cli.main(["no-such-command"]) == 2


def test_a_subcommand_loads_only_its_own_module(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A broken module of another subcommand does not stop `replay` (the parser imports only the chosen one)."""
    monkeypatch.setitem(cli.SUBCOMMANDS, "broken", ("tests_no_such_module_anywhere", "cannot be imported"))
    assert cli.main(["replay", "--help"]) == 0
    assert "RECORD" in capsys.readouterr().out
