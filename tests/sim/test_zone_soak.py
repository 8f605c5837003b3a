"""A small sample of the 300-demo soak (python -m game.sim.soak --demos 300): whole Zone demos on shipped maps at
TL1-3, every decision judged by the rules checker (game.referee), no violation, every rule counted."""
from __future__ import annotations

from game.sim.soak import main, soak


def test_checked_zone_demos_break_no_rule() -> None:
    results = soak(2, first_seed=2, maps=("ishikhov", "sandbox"))
    assert [(r.map, r.seed) for r in results] == [("ishikhov", 2), ("sandbox", 3)]
    broken = [v for r in results for v in r.violations]
    assert not broken, "\n".join(broken)
    checks: dict[str, int] = {}
    for r in results:
        for rule, n in r.checks.items():
            checks[rule] = checks.get(rule, 0) + n
    for rule in ("AI-8.3.RULE2", "AI-8.3.RULE3", "AI-D.02", "AI-D.03", "AI-S.ORDER", "AI-S.SPAWN"):
        assert checks.get(rule, 0) > 0, (rule, checks)
    assert sum(r.events.get("hostiles_spawned", 0) for r in results) > 0


def test_soak_refuses_nonsense(capsys) -> None:
    assert main(["--demos", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err
