"""Salvage (SALVAGE-8.4.SEARCH, SALVAGE-8.4.TABLE, SALVAGE-8.4.BACKPACK, GAP-26, GAP-57, GAP-58, GAP-60): what a
completed Search gives and where it goes.

* The D6 on the location's TL column, its Salvage Value and equipment rolls, its anomaly `*` (GAP-54,
  `anomaly.source`), High Radiation doubling the value but not the rolls (GAP-58, TV-36); TL0 has none.
* The equipment rolls (GAP-57, `equip.roll`): a D6 per roll on the Basic/Advanced/Special table in its `number`
  order (game/data/equipment.toml); a 6 is the searching side's free choice from that table, a decision
  (Phase.FOUND_ITEM, `ChooseFoundItem`) taken right after the search; `d6_6_reroll` rolls a 6 again instead.
* The Mission Objective (MISSION-8.2.OBJECTIVE, GAP-60): its first completed search completes it for the
  searcher's side (`GameState.objective`) and gives the scenario's loot (LootSpec: items, grenades, equipment
  rolls, a fixed value never doubled) plus, unless the loot says otherwise, one free roll on its TL's Salvage table.
* Everything found is stowed with the searcher (`ModelState.salvage`, SALVAGE-8.4.BACKPACK: unusable this mission):
  one entry per roll or loot, {location, roll, value, equipment_rolls, table, items, turn} (loot entries also
  `grenades` and `fixed`: true)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core.actions import IllegalAction
from game.core.rules.queries import catalog_of
from game.core.settings import Settings
from game.core.state import LocationState, ModelState, Phase

if TYPE_CHECKING:
    from game.core.rules.context import Ctx

RULES = ("SALVAGE-8.4.SEARCH", "SALVAGE-8.4.TABLE", "SALVAGE-8.4.BACKPACK")
EQUIP_RULES = ("GAP-57", "EQUIP-6.2.CATEGORIES", "SALVAGE-8.4.BACKPACK")
MO_RULES = ("MISSION-8.2.OBJECTIVE", "GAP-60")
TABLES = ("basic", "advanced", "special")  # EQUIP-6.2.CATEGORIES

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
    the Salvage Value (`env.high_rad`=double_value, GAP-58); an `*` reveals an anomaly (GAP-54, one per location;
    `anomaly.source`=hostile_roll_only: only the Zone Hostiles roll reveals one); the result is stowed with the
    searcher (SALVAGE-8.4.BACKPACK) and its equipment rolls are made (GAP-57). One `salvage` event; None at TL0."""
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
    reveals = star and ctx.settings["anomaly.source"] == "either_roll"  # GAP-54
    if reveals:
        loc.anomaly = True
    item: dict[str, Any] = {"location": loc.id, "roll": roll, "value": value, "equipment_rolls": rolls,
                            "table": table, "items": [], "turn": ctx.state.turn}
    m.salvage.append(item)
    ctx.emit("salvage", RULES + (("GAP-26",) if roll == 6 else ()) + (("GAP-58",) if doubled else ())
             + (("GAP-54",) if star else ()), location=loc.id, model=m.id, side=m.side, tl=loc.tl, roll=roll,
             value=value, equipment_rolls=rolls, table=table, anomaly=reveals, high_radiation=doubled,
             carried=carried_value(m))
    if rolls:
        roll_equipment(ctx, m, len(m.salvage) - 1, table, rolls, location=loc.id)
    return item


def carried_value(m: ModelState) -> int:
    """The Salvage Value (ZS) a model has stowed (artifacts apart)."""
    return sum(int(x["value"]) for x in m.salvage)


# --- equipment rolls (GAP-57) ------------------------------------------------------------------------------------


def table_items(ctx: Ctx, table: str) -> list[str]:
    """EQUIP-6.2.BASIC/ADVANCED/SPECIAL: the item ids of an equipment table in their `number` (D6) order."""
    if table not in TABLES:
        raise ValueError(f"equipment table {table!r} is unknown; allowed: {', '.join(TABLES)}")
    items = [e for e in catalog_of(ctx).equipment_items.values() if e.table.value == table]
    return [e.id for e in sorted(items, key=lambda e: e.number)]


def roll_equipment(ctx: Ctx, m: ModelState, entry: int, table: str, n: int, *, location: str) -> None:
    """GAP-57 (`equip.roll`): `n` D6 on `table`; 1-5 is that item, stowed in the salvage entry `entry` of `m`;
    a 6 is the searching side's free choice from the table (`d6_6_is_choice`: a FOUND_ITEM decision owed, opened
    by `open_choices` once the search is resolved) or rolled again (`d6_6_reroll`). High Radiation never doubles
    these rolls (GAP-58). One `equipment_found` event per roll."""
    items = table_items(ctx, table)
    how = ctx.settings["equip.roll"]
    for _ in range(n):
        dice = [ctx.dice.d6()]
        while dice[-1] > len(items) and how == "d6_6_reroll":
            dice.append(ctx.dice.d6())
        roll = dice[-1]
        if roll <= len(items):
            item = items[roll - 1]
            m.salvage[entry]["items"].append(item)
            ctx.emit("equipment_found", EQUIP_RULES, model=m.id, side=m.side, location=location, table=table,
                     dice=dice, item=item, choice=False)
            continue
        ctx.state.found_choices.append({"model": m.id, "side": m.side, "table": table, "entry": entry,
                                        "location": location})
        ctx.emit("equipment_found", EQUIP_RULES, model=m.id, side=m.side, location=location, table=table,
                 dice=dice, item=None, choice=True, choices=items)


def open_choices(ctx: Ctx) -> bool:
    """GAP-57: when item choices are owed, the side of the first decides now (Phase.FOUND_ITEM); True if so."""
    st = ctx.state
    if not st.found_choices:
        return False
    if st.phase is not Phase.FOUND_ITEM:
        ctx.push_phase(Phase.FOUND_ITEM, str(st.found_choices[0]["side"]))
    return True


def check_found_item(ctx: Ctx, side: str, item: str) -> dict[str, Any]:
    """GAP-57: the side owed the first choice picks an item of that roll's table."""
    st = ctx.state
    if not st.found_choices:
        raise IllegalAction("no equipment choice is owed", "GAP-57")
    c = st.found_choices[0]
    if side != c["side"]:
        raise IllegalAction(f"{c['side']} picks this item (its {c['model']} searched), not {side}", "GAP-57")
    allowed = table_items(ctx, str(c["table"]))
    if item not in allowed:
        raise IllegalAction(f"{item!r} is not on the {c['table']} equipment table; allowed: {', '.join(allowed)}",
                            "GAP-57")
    return c


def choose_found_item(ctx: Ctx, side: str, item: str) -> bool:
    """GAP-57: stow the chosen item with the searcher; True when more choices are owed (the next side decides)."""
    st = ctx.state
    check_found_item(ctx, side, item)
    c = st.found_choices.pop(0)
    m = st.models[str(c["model"])]
    m.salvage[int(c["entry"])]["items"].append(item)
    ctx.emit("equipment_chosen", EQUIP_RULES, model=m.id, side=side, location=c["location"], table=c["table"],
             item=item)
    if st.found_choices:
        st.deciding = str(st.found_choices[0]["side"])
        return True
    return False


# --- what a completed search gives (SALVAGE-8.4.SEARCH, MISSION-8.2.OBJECTIVE, GAP-60) ----------------------------


def search_reward(ctx: Ctx, loc: LocationState, m: ModelState) -> None:
    """A completed search: the Mission Objective's completion (its first search), the location's scenario loot
    on its first search, then the TL Salvage roll (a Hot Spot's; the MO's free roll, GAP-60, unless its loot says
    `tl_roll`=false; none at TL0); then any item choice owed is opened (GAP-57)."""
    first = len(loc.searched_by) == 1
    if loc.kind == "objective":
        complete_objective(ctx, m, loc.id, loc.name)
    loot = loc.loot if first else None
    if loot:
        stow_loot(ctx, loc, m, loot)
    if loot is None or loot.get("tl_roll", True):
        roll_salvage(ctx, loc, m)
    open_choices(ctx)


def complete_objective(ctx: Ctx, m: ModelState, where: str, name: str) -> bool:
    """MISSION-8.2.OBJECTIVE: the Mission Objective is completed by `m`'s side (`GameState.objective`, read by
    rules/outcome.py: +5 advances, POST-8.5.EARN; the winner, SCEN-10.5.VICTORY); `where` is the location (or task)
    id. Only the first completion counts; False when it was already completed."""
    st = ctx.state
    if st.objective is not None:
        return False
    st.objective = {"side": m.side, "model": m.id, "location": where, "turn": st.turn}
    ctx.emit("objective_completed", MO_RULES + ("SCEN-10.5.VICTORY",), side=m.side, model=m.id, location=where,
             name=name, turn=st.turn)
    return True


def stow_loot(ctx: Ctx, loc: LocationState, m: ModelState, loot: dict[str, Any]) -> None:
    """SCEN-10.*.CARD "Salvage / reward" (LootSpec): the named items and grenades, a fixed Salvage Value (never
    doubled by High Radiation, GAP-58) and the equipment rolls (GAP-57), stowed with the searcher
    (SALVAGE-8.4.BACKPACK: grenades found are not carried, they cannot be thrown this mission)."""
    rolls = [(str(t), int(n)) for t, n in loot.get("equipment_rolls", [])]
    entry: dict[str, Any] = {"location": loc.id, "roll": None, "value": int(loot.get("value", 0)),
                             "equipment_rolls": sum(n for _, n in rolls), "table": rolls[0][0] if rolls else "",
                             "items": [str(x) for x in loot.get("items", [])],
                             "grenades": {str(g): int(n) for g, n in dict(loot.get("grenades", {})).items()},
                             "fixed": True, "turn": ctx.state.turn}
    m.salvage.append(entry)
    ctx.emit("loot", ("SALVAGE-8.4.BACKPACK", "GAP-58") + (MO_RULES if loc.kind == "objective" else ()),
             location=loc.id, model=m.id, side=m.side, items=list(entry["items"]), grenades=dict(entry["grenades"]),
             value=entry["value"], equipment_rolls=[[t, n] for t, n in rolls], carried=carried_value(m))
    for table, n in rolls:
        roll_equipment(ctx, m, len(m.salvage) - 1, table, n, location=loc.id)
