"""One `apply` call's context: the state, the dice, the settings, the events; roll logging and criticals."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol

from game.core.actions import Action
from game.core.battlefield import Battlefield
from game.core.dice import Crit, Dice, PoolResult, TargetNumber, evaluate_pool
from game.core.events import Event
from game.core.rules.wounds import add_pins
from game.core.settings import Settings
from game.core.state import GameState, Phase


@lru_cache(maxsize=64)
def _settings(items: tuple[tuple[str, Any], ...]) -> Settings:
    return Settings(dict(items))


def settings_of(state: GameState) -> Settings:
    """The Settings object of a game (house defaults plus the game's overrides)."""
    return _settings(tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in state.settings.items())))


_CRIT_RULES = {
    Crit.NONE: (),
    Crit.SUCCESS: ("INTRO-1.2.CRIT-SUCCESS",),
    Crit.FAILURE: ("INTRO-1.2.CRIT-FAIL",),
    Crit.MIX: ("INTRO-1.2.CRIT-MIX",),
}


class ActionRules(Protocol):
    """The check and the resolution of every unit action (game.core.rules.dispatch.ACTIONS)."""

    def check(self, ctx: Ctx, action: Action, *, actor: str, context: str) -> int: ...

    def do(self, ctx: Ctx, action: Action, *, actor: str, context: str) -> int: ...


class Ctx:
    """One `apply` call: the state, the dice, the settings, and the events emitted so far.

    `rules` is the action table an action nested in another (an Order's action) re-enters through
    `check_action` and `resolve`, so no action family imports another or `apply`."""

    __slots__ = ("state", "dice", "settings", "events", "battlefield", "memo", "rules")

    def __init__(self, state: GameState, dice: Dice, battlefield: Battlefield,
                 rules: ActionRules | None = None) -> None:
        self.state = state
        self.dice = dice
        self.settings = settings_of(state)
        self.events: list[Event] = []
        self.battlefield = battlefield
        self.memo: dict[Any, Any] = {}  # answers computed by an action's check and reused by its resolution
        self.rules = rules

    def _table(self) -> ActionRules:
        if self.rules is None:
            raise RuntimeError("this context resolves no nested action (built without the action table)")
        return self.rules

    def check_action(self, action: Action, *, actor: str, context: str) -> int:
        """The cost of a nested action after its checks (raises IllegalAction), through the action table."""
        return self._table().check(self, action, actor=actor, context=context)

    def resolve(self, action: Action, *, actor: str, context: str) -> int:
        """Resolve a nested, checked action through the action table; the actions it spent."""
        return self._table().do(self, action, actor=actor, context=context)

    def emit(self, type_: str, rules: tuple[str, ...], **data: Any) -> None:
        self.state.event_seq += 1
        self.events.append(Event(type_, rules, data, self.state.event_seq))

    def push_phase(self, phase: Phase, side: str) -> None:
        """Enter a decision phase owned by `side` (used for Med-Kit decisions mid-resolution)."""
        self.state.phase = phase
        self.state.deciding = side

    def roll_pool(self, n: int, tn: TargetNumber, *, what: str, who: str, rules: tuple[str, ...]) -> PoolResult:
        """Roll n D10 against a TN and log dice, TN, breakdown, outcome and rule IDs (INTRO-1.2.D10)."""
        faces = tuple(self.dice.d10() for _ in range(n))
        res = evaluate_pool(faces, tn.value, settings=self.settings)
        self.state.round_counter += 1
        crit_rules = _CRIT_RULES[res.crit]
        self.emit("roll", rules + crit_rules, what=what, who=who, dice=list(faces), tn=tn.value,
                  tn_text=tn.text(), breakdown=tn.breakdown(), successes=res.successes,
                  outcome=[bool(x) for x in res.success], crit=res.crit.value, round=self.state.round_counter)
        return res


def record_crit(ctx: Ctx, unit_id: str, res: PoolResult, *, context: str, rules: tuple[str, ...]) -> None:
    """Roll-level critical effects, once per roll (INTRO-1.2.CRIT-PER-ROUND): a Critical Success gives
    +1 action (TURN-6 step 4; off-turn per GAP-12 `crit.offturn`), a Critical Failure 1 Pin."""
    st = ctx.state
    if res.crit is Crit.FAILURE:
        add_pins(ctx, unit_id, 1, reason="critical failure (natural 10)", rules=("INTRO-1.2.CRIT-FAIL",) + rules)
    if res.crit is not Crit.SUCCESS:
        return
    cap = ctx.settings["crit.max_bonus_per_activation"]
    act = st.activation
    if act is not None and act.unit == unit_id and context in ("own", "offturn"):
        if cap is None or act.bonus < cap:
            act.bonus += 1
            ctx.emit("extra_action", ("INTRO-1.2.CRIT-SUCCESS", "TURN-6"), unit=unit_id, when="end of activation")
        return
    if context == "ordered" and act is not None:
        act.extra_unit = unit_id
        act.extra_left += 1
        ctx.emit("extra_action", ("INTRO-1.2.CRIT-SUCCESS", "GAP-12", "GAP-37"), unit=unit_id,
                 when="right after the ordered action")
        return
    if context == "alert" and st.interrupt is not None:
        st.interrupt.extra_unit = unit_id
        st.interrupt.extra_left += 1
        ctx.emit("extra_action", ("INTRO-1.2.CRIT-SUCCESS", "GAP-12"), unit=unit_id,
                 when="right after the Alert action")
        return
    policy = ctx.settings["crit.offturn"]
    unit = st.units[unit_id]
    if policy == "lost":
        ctx.emit("extra_action_lost", ("GAP-12",), unit=unit_id)
    elif not unit.activated or policy == "next_activation":
        unit.bonus_banked += 1
        ctx.emit("extra_action", ("INTRO-1.2.CRIT-SUCCESS", "GAP-12"), unit=unit_id, when="its own activation")
    else:
        ctx.emit("extra_action_lost", ("GAP-12",), unit=unit_id, reason="already activated this turn")


def read_ctx(state: GameState) -> Ctx:
    """A read-only context over `state` for previews and queries (odds, the A.I.'s exposure): dice that refuse to
    roll, so computing never draws randomness; nothing it emits is kept."""
    return Ctx(state, NoDice(), state.battlefield)


class NoDice:
    """Dice that refuse to roll: validation must never draw randomness."""

    def d10(self) -> int:
        raise RuntimeError("validation tried to roll a D10")

    def d6(self) -> int:
        raise RuntimeError("validation tried to roll a D6")

    def angle(self) -> float:
        raise RuntimeError("validation tried to draw an angle")
