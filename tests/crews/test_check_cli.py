"""`zona-alfa check-crew [--list]` (docs/crews.md): legal rosters exit 0, a roster with problems 1 (every problem
with its field on stderr), an unknown name or missing file 2; never a traceback."""
from __future__ import annotations

import subprocess
import sys

from game.cli import main as cli_main
from tests.paths import REPO_ROOT


def main(argv: list[str]) -> int:
    return cli_main(["check-crew", *(a for a in argv if a != "check")])


def test_check_exit_codes(capsys) -> None:
    assert main(["check", "military", "crews/bandits-14k.toml"]) == 0
    assert "legal: Detachment Kestrel (military, 12K of 12K" in capsys.readouterr().out
    assert main(["check", "military", "tests/fixtures/crews/bad/two-leaders.toml"]) == 1
    err = capsys.readouterr().err
    assert "two-leaders.toml: models: 2 Leaders" in err and "[CREW-7.1.LEADER]" in err
    assert main(["check", "stalkers"]) == 2
    assert "unknown crew 'stalkers'" in capsys.readouterr().err
    assert main(["check", "military-14k", "--k-limit", "12"]) == 1
    assert main(["check", "military", "--set", "crew.start_weapons=bogus"]) == 2


def test_list_and_no_traceback() -> None:
    r = subprocess.run([sys.executable, "-m", "game", "check-crew", "tests/fixtures/crews/bad/not-toml.toml"],
                       cwd=REPO_ROOT, capture_output=True, text=True)
    assert r.returncode == 1 and "Traceback" not in r.stderr and "not valid TOML" in r.stderr
    r = subprocess.run([sys.executable, "-m", "game", "check-crew", "--list"], cwd=REPO_ROOT, capture_output=True,
                       text=True)
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 12
