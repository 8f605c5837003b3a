"""Builders for rule tests: small games assembled directly from profiles, with scripted dice."""
from __future__ import annotations

from game.core.actions import Activate
from game.core.battlefield import Battlefield, Zone
from game.core.dice import Rng, ScriptedDice, seed_state
from game.core.geometry.polygon import rect
from game.core.rules.apply import apply
from game.core.state import GameState, ModelProfile, ModelState, Phase, SideKind, SideState, TaskState, UnitState


def profile(name: str = "trooper", *, move: float = 6.0, ca: int = 5, armor: int = 5, will: int | None = 5,
            wounds: int = 1, actions: int = 2, skills: tuple[str, ...] = (), armour_move_mod: float = 0.0,
            support: bool = False, leader: bool = False, base: float = 1.0, weapons: tuple[str, ...] = (),
            armour: str = "civilian", obscured: str | None = "in_cover", save_dice: int = 1,
            will_exempt: bool = False, creature: bool = False, height: float = 1.25) -> ModelProfile:
    return ModelProfile(name=name, move=move, ca=ca, armour=armour, armor=armor, armour_move_mod=armour_move_mod,
                        will=will, wounds=wounds, actions=actions,
                        experience={1: "rookie", 2: "hardened", 3: "veteran"}.get(actions, "hostile"),
                        base_diameter=base, height=height, skills=skills, weapons=weapons, support_weapon=support,
                        leader=leader or "leader" in skills, obscured=None if creature else obscured,
                        save_dice=save_dice, will_exempt=will_exempt, creature=creature)


def game(models: list[tuple[str, str, ModelProfile, tuple[float, float]]], *, items: dict[str, list[str]] | None = None,
         tasks: list[TaskState] | None = None, table: tuple[float, float] = (36.0, 36.0), seed: int = 1,
         settings: dict | None = None, turn_limit: int = 6, pieces: tuple = (),
         grenades: dict[str, dict[str, int]] | None = None, units: dict[str, list[str]] | None = None) -> GameState:
    """A game already deployed and in turn 1, with side "a" to activate first, then "b".

    Positions are (x, y) or (x, y, z); `units` groups model ids into multi-model units (unit id -> models)."""
    bf = Battlefield(name="test", width=table[0], height=table[1], pieces=tuple(pieces),
                     zones=(Zone(1, "za", rect(0, 0, 6, 6)), Zone(2, "zb", rect(table[0] - 6, table[1] - 6, *table))))
    st = GameState(scenario="test", seed=seed, rng=Rng(seed_state(seed)), settings=dict(settings or {}),
                   table=table, battlefield=bf, turn=1, turn_limit=turn_limit)
    st.sides = [SideState("a", "Side A", SideKind.CREW, zone="za", deployed=True),
                SideState("b", "Side B", SideKind.CREW, zone="zb", deployed=True)]
    owner = {m: u for u, ms in (units or {}).items() for m in ms}
    for mid, side, prof, pos in models:
        x, y = pos[0], pos[1]
        z = pos[2] if len(pos) > 2 else 0.0
        uid = owner.get(mid, mid)
        if uid not in st.units:
            st.units[uid] = UnitState(uid, side, [])
        st.units[uid].models.append(mid)
        st.models[mid] = ModelState(mid, uid, side, prof, x=x, y=y, z=z, deployed=True,
                                    items=list((items or {}).get(mid, [])),
                                    grenades=dict((grenades or {}).get(mid, {})))
    for t in tasks or []:
        st.tasks[t.id] = t
    st.order = ["a", "b"]
    st.phase = Phase.ACTIVATE
    st.deciding = "a"
    st.cycle = 0
    return st


def activate(st: GameState, unit: str) -> list:
    """Activate a unit of the deciding side (switching sides if needed for the test)."""
    st.phase = Phase.ACTIVATE
    st.deciding = st.units[unit].side
    st.cycle = st.order.index(st.deciding)
    return apply(st, Activate(unit), ScriptedDice([]))


def types(events) -> list[str]:
    return [e.type for e in events]


def settle(st: GameState, *, result: int | None = None) -> list:
    """Finish a spawn in progress (TURN-8): pick `result` (or the D6 as rolled) when an Inspect lets the player
    choose, and let every spawned unit forgo its free move (StayPut); interrupt windows it opens are declined."""
    from game.core.actions import ChooseHostileRoll, DeclineInterrupt, StayPut

    ev: list = []
    while st.spawning is not None or st.phase in (Phase.HOSTILE_ROLL, Phase.SPAWN_MOVE):
        if st.phase is Phase.HOSTILE_ROLL:
            sp = st.spawning
            assert sp is not None
            ev += apply(st, ChooseHostileRoll(st.deciding, result if result is not None else sp.roll))
        elif st.phase is Phase.SPAWN_MOVE:
            assert st.spawning is not None
            ev += apply(st, StayPut(st.spawning.pending[0]))
        elif st.phase is Phase.INTERRUPT:
            ev += apply(st, DeclineInterrupt(st.deciding))
        else:
            break
    return ev
