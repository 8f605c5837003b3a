"""What the odds read from a game: a read-only resolution context and the defending unit as the resolver sees it."""
from __future__ import annotations

from game.core.odds.unit import UnitFacts
from game.core.rules.attack import casualty_order
from game.core.rules.context import Ctx, read_ctx
from game.core.state import GameState, ModelState


def odds_ctx(state: GameState) -> Ctx:
    """A read-only resolution context: dice that refuse to roll, so computing odds never draws randomness."""
    return read_ctx(state)


def unit_facts(ctx: Ctx, m: ModelState, attacker: ModelState | None = None) -> UnitFacts:
    """The unit of `m` as the resolver sees it: every model in the wound order (game.core.rules.attack.casualty_order,
    GAP-77, those already Out of Action included: Wounds pass over them and they count as models lost), `m` as the
    hit model, the unit's own order for who takes the Will check when `m` is down, its Pins, and whether an `ai`
    side uses Med-Kits (AI-D.11)."""
    st = ctx.state
    unit = st.units[m.unit]
    order = casualty_order(st, m, attacker)
    index = {o.id: i for i, o in enumerate(order)}
    ai = st.side(m.side).controller == "ai"
    return UnitFacts(tuple(order), ai, ctx.settings, unit.pins, hit=index[m.id],
                     check_order=tuple(index[x] for x in unit.models))
