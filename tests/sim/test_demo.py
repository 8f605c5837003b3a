"""What the README's demo row promises, checked on the seeds it names: every game, nearly every game, and the
melee seed (issue 13 item 8: the demo shows what it promises)."""
from __future__ import annotations

import pytest

from game.ai.random_agent import RandomAgent
from game.core.rules.setup import scenario
from game.sim import play
from tests.paths import REPO_ROOT

EVERY_GAME = {"deploy", "initiative", "activation_start", "interrupt", "move", "aim", "electric_juice", "medkit",
              "attack", "template", "setup", "mission_end"}


def demo(seed: int) -> tuple[set[str], list]:
    scen = scenario("open-table-demo")
    agents = {c.side: RandomAgent(seed * 1000 + i) for i, c in enumerate(scen.crews)}
    _, _, events = play(scen, agents, seed)
    return {e.type for e in events}, events


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_game_shows_the_basics(seed: int) -> None:
    """README: every game shows deployment, initiative, activation, Alert interrupts, Move, Aim, Electric Juice,
    Med-Kits, shooting and templates, the rosters (setup) and the result (mission_end)."""
    types, events = demo(seed)
    assert EVERY_GAME <= types, EVERY_GAME - types
    assert any(e.type == "attack" and e.data.get("kind") == "ranged" for e in events)


def test_the_melee_seed_shows_melee_parries_and_a_withdraw() -> None:
    """README: `--seed 46` shows melee (COMBAT-4.2.SIMULTANEOUS), parries (COMBAT-4.2.PARRY) and a Withdraw
    (COMBAT-4.3.WITHDRAW). If an engine change moves them to another seed, update the README row."""
    assert "`--seed 46` shows melee, parries and a Withdraw" in (REPO_ROOT / "README.md").read_text()
    types, events = demo(46)
    assert {"melee_round", "parry"} <= types
    assert any("COMBAT-4.3.WITHDRAW" in e.rules for e in events)  # the free attack on the withdrawing model
