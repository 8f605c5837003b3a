"""Behaviour rates (issue 16 "Done when": winning by hiding does not count): what each crew did that a player would
call sensible or not, counted per crew side while a game is played, from public queries only.

`Behaviour` is an observer for `game.sim.loop.play` (it forwards to an inner observer, e.g. the Zone's checker) and
wraps each crew's agent: the wrapper sees every crew decision with the state *before* it is applied (the shooter's
cover is read there, with the same `exposure.in_cover_against` the Zone's A.I. uses), and `observe` sees the
events it made. Nothing is cloned and nothing is written to the game. The counters (`COUNTERS`):

* shots (RangedAttack, TemplateAttack, FlameAttack, ThrowGrenade; inside an Interrupt or an Order too) and
  `shots_from_cover`: the shooter in cover against its target before the shot (GEO-12/GEO-14 after elevation:
  soft or better). The target of a grenade or blast is the enemy model nearest its point, of a flame the enemy
  model nearest the attacker;
* `attacks` (every shot with a target, and every MeleeAttack blow) and `focus`: at a unit the same side already
  attacked this turn, or at a unit with a model Wounded or Out of Action;
* `medkit_offers`: a crew model Wounded with a Med-Kit to dress it (a COMBAT-4.4.MEDKIT-SELF decision, one per
  model and round), `medkit_used`: of those, dressed; `medkit_ally`: kits used on a friend in contact;
* `objective_search_actions` / `objective_searches` (Search actions at the Mission Objective / searches it
  completed), likewise `hotspot_search_actions` / `hotspot_searches`;
* `grenades` thrown, `grenades_harmful` (those with Damage or an effect besides smoke: ARMORY-5.1.GRENADE-TABLE) and
  `grenades_hit_friend`: of those, the template touched (GEO-16: affected) a model of the thrower's side;
* `activations`, `alerts` (Alert taken, CORE-3.3.ALERT), `pinned_activations` (the unit Pinned as it activated) and
  `rallied_when_pinned` (it took a Rally in that activation, CORE-3.3.RALLY; a Pinned unit may do nothing else,
  COMBAT-4.4.PIN-LOCK, so the other choice is to end the activation still Pinned);
* `triggers` (locations triggered, MISSION-8.2.TRIGGER) and `triggers_wounded` (by a model carrying a Wound).

`RATES` names the rates the reports print: (label, numerator, denominator)."""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from game.core.actions import (
    Action,
    Activate,
    Alert,
    FlameAttack,
    Interrupt,
    MeleeAttack,
    Order,
    Rally,
    RangedAttack,
    Reasoned,
    Search,
    TemplateAttack,
    ThrowGrenade,
    UseItem,
)
from game.core.catalog.profiles import GrenadeEffect
from game.core.events import Event
from game.core.rules.context import read_ctx
from game.core.rules.exposure import in_cover_against
from game.core.rules.queries import catalog_of
from game.core.state import GameState, ModelState, Phase

COUNTERS = ("shots", "shots_from_cover", "attacks", "focus", "medkit_offers", "medkit_used", "medkit_ally",
            "objective_search_actions", "objective_searches", "hotspot_search_actions", "hotspot_searches",
            "grenades", "grenades_harmful", "grenades_hit_friend", "activations", "alerts", "pinned_activations",
            "rallied_when_pinned", "triggers", "triggers_wounded")

RATES: tuple[tuple[str, str, str], ...] = (
    ("shots from cover", "shots_from_cover", "shots"),
    ("focus fire", "focus", "attacks"),
    ("Med-Kits used when wounded", "medkit_used", "medkit_offers"),
    ("objective searches completed", "objective_searches", "objective_search_actions"),
    ("Hot Spot searches completed", "hotspot_searches", "hotspot_search_actions"),
    ("harmful grenades that hit a friend", "grenades_hit_friend", "grenades_harmful"),
    ("Alert per activation", "alerts", "activations"),
    ("Rally when pinned", "rallied_when_pinned", "pinned_activations"),
    ("triggers by a wounded model", "triggers_wounded", "triggers"),
)

SHOTS = (RangedAttack, TemplateAttack, FlameAttack, ThrowGrenade)


def unwrap(action: Action) -> Action:
    """The rules action a decision takes: inside a Reasoned wrapper, an Interrupt (Alert) or an Order."""
    while isinstance(action, (Reasoned, Interrupt, Order)):
        action = action.action
    return action


@dataclass(slots=True)
class _Pending:
    """What a crew decision was, read on the state before it: its side, the wounded models, a grenade's thrower."""

    side: str
    wounded: frozenset[str]
    grenade: bool


class _Watched:
    """A crew's agent, seen by its Behaviour: the same decisions, each shown to the observer before it is applied."""

    def __init__(self, agent: Any, owner: Behaviour) -> None:
        self._agent = agent
        self._owner = owner

    def choose(self, state: GameState) -> Action:
        action: Action = self._agent.choose(state)
        self._owner.before(state, action)
        return action

    def __getattr__(self, name: str) -> Any:
        return getattr(self._agent, name)


class Behaviour:
    """Counts what each crew side did (see the module docstring); `inner` is another observer it forwards to."""

    def __init__(self, crews: Iterable[str], inner: Any | None = None) -> None:
        self.crews = tuple(crews)
        self.inner = inner
        self.count: dict[str, Counter[str]] = {s: Counter() for s in self.crews}
        self._attacked: dict[str, set[str]] = {s: set() for s in self.crews}  # units attacked this turn, per side
        self._turn = -1
        self._offers: dict[str, set[tuple[str, int]]] = {s: set() for s in self.crews}
        self._dressed: dict[str, set[tuple[str, int]]] = {s: set() for s in self.crews}
        self._pinned: dict[str, str | None] = {s: None for s in self.crews}  # the activation's unit, if Pinned
        self._pending: _Pending | None = None

    def wrap(self, agent: Any) -> _Watched:
        """The agent, watched: give this to `play` in its place."""
        return _Watched(agent, self)

    # -- the observer protocol (game.sim.loop.Observer) ----------------------------------------------------------
    def needs_before(self, state: GameState) -> bool:
        return self.inner is not None and self.inner.needs_before(state)

    def observe(self, before: GameState | None, action: Action, events: list[Event], after: GameState) -> None:
        if self.inner is not None:
            self.inner.observe(before, action, events, after)
        pending, self._pending = self._pending, None
        for e in events:
            d = e.data
            if e.type == "location_triggered" and d.get("side") in self.count:
                c = self.count[d["side"]]
                c["triggers"] += 1
                wounded = pending.wounded if pending is not None else _wounded(after, d["side"])
                c["triggers_wounded"] += d.get("model") in wounded
            elif e.type == "search" and d.get("searched") and d.get("side") in self.count:
                kind = _kind(after, d.get("location"))
                if kind in ("objective", "hotspot"):
                    self.count[d["side"]][f"{kind}_searches"] += 1
        if pending is not None and pending.grenade:
            self.count[pending.side]["grenades_hit_friend"] += _hit_friend(after, pending.side, events)

    # -- a crew decision, on the state before it -----------------------------------------------------------------
    def before(self, state: GameState, action: Action) -> None:
        side = state.deciding
        if side not in self.count:
            return
        if state.turn != self._turn:
            self._turn = state.turn
            for s in self._attacked.values():
                s.clear()
        c = self.count[side]
        a = unwrap(action)
        self._pending = _Pending(side, _wounded(state, side), isinstance(a, ThrowGrenade) and _harmful(state, a))
        if state.phase is Phase.MEDKIT:
            self._medkit(state, side, a)
        elif isinstance(a, Activate):
            unit = state.units.get(a.unit)
            c["activations"] += 1
            self._pinned[side] = a.unit if unit is not None and unit.pins > 0 else None
            c["pinned_activations"] += self._pinned[side] is not None
        elif isinstance(a, Rally) and self._pinned[side] == a.unit:
            c["rallied_when_pinned"] += 1
            self._pinned[side] = None  # one per activation
        elif isinstance(a, Alert):
            c["alerts"] += 1
        elif isinstance(a, UseItem) and a.item == "medkit" and a.target is not None:
            c["medkit_ally"] += 1
        elif isinstance(a, Search):
            kind = _kind(state, a.location)
            if kind in ("objective", "hotspot"):
                c[f"{kind}_search_actions"] += 1
        elif isinstance(a, SHOTS) or isinstance(a, MeleeAttack):
            self._attack(state, side, a)

    def _medkit(self, state: GameState, side: str, a: Action) -> None:
        """COMBAT-4.4.MEDKIT-SELF: the head of the wound queue is the Wound being decided (one offer per model and
        round, however many kits it takes)."""
        if not state.wound_queue:
            return
        head = state.wound_queue[0]
        key = (head.model, head.round_id)
        self._offers[side].add(key)
        if isinstance(a, UseItem) and a.item == "medkit":
            self._dressed[side].add(key)

    def _attack(self, state: GameState, side: str, a: Action) -> None:
        c = self.count[side]
        unit = str(getattr(a, "unit", ""))
        shooter = _first_in_play(state, unit)
        if isinstance(a, SHOTS):
            c["shots"] += 1
            c["grenades"] += isinstance(a, ThrowGrenade)
            c["grenades_harmful"] += isinstance(a, ThrowGrenade) and _harmful(state, a)
        target = _target(state, a, side, shooter)
        if target is None:
            return
        if isinstance(a, SHOTS) and shooter is not None:
            c["shots_from_cover"] += in_cover_against(state, unit, target.id)
        c["attacks"] += 1
        seen = self._attacked[side]
        hurt = any(m.wounds_taken > 0 or m.ooa for m in state.unit_models(target.unit))
        c["focus"] += target.unit in seen or hurt
        seen.add(target.unit)

    def counts(self) -> dict[str, dict[str, int]]:
        """Every counter of every crew side (zeros included, so summaries have one shape)."""
        out = {}
        for s in self.crews:
            c = self.count[s]
            c["medkit_offers"] = len(self._offers[s])
            c["medkit_used"] = len(self._dressed[s])
            out[s] = {k: int(c[k]) for k in COUNTERS}
        return out


def _harmful(state: GameState, a: ThrowGrenade) -> bool:
    """A grenade that hurts whom it lands on: Damage, or an effect other than smoke (ARMORY-5.1.GRENADE-TABLE)."""
    try:
        g = catalog_of(read_ctx(state)).grenade(a.grenade)
    except (KeyError, ValueError):  # an unknown grenade: apply refuses the throw with its reason
        return False
    return g.damage is not None or bool(g.effects - {GrenadeEffect.SMOKE})


def _wounded(state: GameState, side: str) -> frozenset[str]:
    return frozenset(m.id for m in state.models.values() if m.side == side and m.wounds_taken > 0 and m.in_play)


def _kind(state: GameState, location: Any) -> str | None:
    loc = state.locations.get(str(location)) if location is not None else None
    return loc.kind if loc is not None else None


def _first_in_play(state: GameState, unit: str) -> ModelState | None:
    u = state.units.get(unit)
    if u is None:
        return None
    return next((state.models[i] for i in u.models if i in state.models and state.models[i].in_play), None)


def _target(state: GameState, a: Action, side: str, shooter: ModelState | None) -> ModelState | None:
    """The model an attack is aimed at: the named one, for a grenade or blast the enemy model nearest its point, for
    a flame the enemy model nearest the attacker (None when there is none)."""
    if isinstance(a, (RangedAttack, MeleeAttack)):
        return state.models.get(a.target)
    if isinstance(a, (ThrowGrenade, TemplateAttack)):
        x, y = a.x, a.y
    elif shooter is not None:
        x, y = shooter.x, shooter.y
    else:
        return None
    foes = [m for m in state.models.values() if m.in_play and m.side != side]
    if not foes:
        return None
    return min(foes, key=lambda m: (max(0.0, math.hypot(m.x - x, m.y - y) - m.radius), m.id))


def _hit_friend(state: GameState, side: str, events: list[Event]) -> bool:
    """A grenade's template touched (GEO-16: affected, with or without soft cover) a model of the thrower's side."""
    for e in events:
        if e.type == "template":
            for t in e.data.get("models", ()):
                m = state.models.get(t.get("model", ""))
                if m is not None and m.side == side and t.get("effect") in ("affected", "soft_cover"):
                    return True
    return False
