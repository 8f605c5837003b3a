"""Salvage (SALVAGE-8.4.SEARCH, SALVAGE-8.4.TABLE, SALVAGE-8.4.BACKPACK, GAP-26, GAP-58): the D6 a completed Search
rolls on its location's TL column, the Salvage Value and the equipment rolls it earns, its anomaly `*` (GAP-54), High
Radiation doubling the value but not the rolls (GAP-58, TV-36), and the result stowed with the searcher (unusable
this mission). The equipment rolls themselves (GAP-57) are resolved by the next slice of issue 15; the stowed entry
records how many are owed and on which table."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core.settings import Settings
from game.core.state import LocationState, ModelState

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

RULES = ("SALVAGE-8.4.SEARCH", "SALVAGE-8.4.TABLE", "SALVAGE-8.4.BACKPACK")

# SALVAGE-8.4.TABLE rows 1-5 by TL: (Salvage Value, equipment rolls, table, anomaly `*`); row 6 is GAP-26's
# (`salvage.row6.*` settings).
TABLE: dict[int, dict[int, tuple[int, int, str, bool]]] = {
    1: {1: (200, 0, "", False), 2: (350, 0, "", False), 3: (500, 0, "", False), 4: (200, 1, "basic", False),
        5: (350, 1, "basic", False)},
    2: {1: (350, 0, "", False), 2: (500, 0, "", False), 3: (750, 0, "", False), 4: (500, 2, "basic", False),
        5: (750, 2, "basic", True)},
    3: {1: (500, 0, "", False), 2: (750, 0, "", False), 3: (1000, 0, "", False), 4: (750, 2, "advanced", True),
        5: (1000, 2, "advanced", True)},
}


def _row6(s: Settings, tl: int) -> tuple[Any, Any, Any, Any]:
    """GAP-26 (`salvage.row6`): row 6 at a TL: value, equipment rolls, table, anomaly."""
    if tl == 1:
        return (s["salvage.row6.tl1.value"], s["salvage.row6.tl1.rolls"], s["salvage.row6.tl1.table"],
                s["salvage.row6.tl1.anomaly"])
    if tl == 2:
        return (s["salvage.row6.tl2.value"], s["salvage.row6.tl2.rolls"], s["salvage.row6.tl2.table"],
                s["salvage.row6.tl2.anomaly"])
    return (s["salvage.row6.tl3.value"], s["salvage.row6.tl3.rolls"], s["salvage.row6.tl3.table"],
            s["salvage.row6.tl3.anomaly"])


def salvage_row(ctx: Ctx, tl: int, roll: int) -> tuple[int, int, str, bool]:
    """SALVAGE-8.4.TABLE / GAP-26: (value, equipment rolls, table, anomaly) for TL 1-3 and a D6."""
    if roll == 6:
        value, rolls, table, anomaly = _row6(ctx.settings, tl)
        return int(value), int(rolls), str(table) if int(rolls) else "", bool(anomaly)
    return TABLE[tl][roll]


def roll_salvage(ctx: Ctx, loc: LocationState, m: ModelState) -> dict[str, Any] | None:
    """SALVAGE-8.4.SEARCH: roll the location's TL column (TL0 has no Salvage table, GAP-60); High Radiation doubles
    the Salvage Value (`env.high_rad`=double_value, GAP-58); an `*` reveals an anomaly (GAP-54, one per location);
    the result is stowed with the searcher (SALVAGE-8.4.BACKPACK). One `salvage` event; None at TL0."""
    if loc.tl == 0:
        ctx.emit("salvage", RULES + ("GAP-60",), location=loc.id, model=m.id, roll=None, value=0,
                 note="TL0 (White) has no Salvage table")
        return None
    roll = ctx.dice.d6()
    value, rolls, table, star = salvage_row(ctx, loc.tl, roll)
    doubled = ctx.state.environment == "high_radiation"
    assert ctx.settings["env.high_rad"] == "double_value"  # GAP-58: the one reading (the setting's only choice)
    if doubled:
        value *= 2
    if star:
        loc.anomaly = True
    item: dict[str, Any] = {"location": loc.id, "roll": roll, "value": value, "equipment_rolls": rolls,
                            "table": table, "turn": ctx.state.turn}
    m.salvage.append(item)
    ctx.emit("salvage", RULES + (("GAP-26",) if roll == 6 else ()) + (("GAP-58",) if doubled else ())
             + (("GAP-54",) if star else ()), location=loc.id, model=m.id, side=m.side, tl=loc.tl, roll=roll,
             value=value, equipment_rolls=rolls, table=table, anomaly=star, high_radiation=doubled,
             carried=sum(int(x["value"]) for x in m.salvage))
    return item
