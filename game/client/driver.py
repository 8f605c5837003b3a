"""Who decides next, off the frame loop (issue 17 scope 5: the window never blocks while an agent thinks).

`WorkerDriver` plays the same game in a spawned process: it builds the session from the same GameSetup, asks the
same seeded agents, applies each decision there and streams it as `Action.to_json()`; the window applies each one
at the viewing pace with the same `apply`, so both processes hold the same state (the game is deterministic: same
record, same events). It runs at most LOOKAHEAD decisions ahead. `InlineDriver` decides in the frame loop itself:
`--screenshot` uses it so that frame N is a deterministic point of the game. Pure: no pygame."""
from __future__ import annotations

import multiprocessing as mp
import queue
import time
from typing import Any

from game.client.session import Session, SessionError, open_session
from game.client.setup import GameSetup
from game.core.actions import Action, action_from_json
from game.core.state import Phase
from game.sim.loop import Agent, agent_for

LOOKAHEAD = 24  # decisions the worker may run ahead of what the window has shown


class DriverError(RuntimeError):
    """The deciding side's agent failed (a bug): the message names the decision and the error."""


class InlineDriver:
    """Decides in the caller's thread: `next_action()` returns at once with the deciding agent's choice."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.agents = session.agents()
        self.zone: Agent | None = None
        self.thinking = False

    def start(self) -> None:
        """Nothing to start: decisions are made when asked."""

    def next_action(self, *, wait: bool = False) -> Action | None:
        st = self.session.state
        if st.phase is Phase.MISSION_END or self.session.human_to_decide():
            return None  # over, or a player's decision: the window asks the player
        try:
            agent, self.zone = agent_for(st, self.agents, self.zone)
            return agent.choose(st)
        except Exception as exc:  # noqa: BLE001 - an agent bug is shown on the error screen, never a traceback
            raise DriverError(f"the agent of {st.deciding} failed at decision #{len(self.session.record.actions) + 1}"
                              f": {type(exc).__name__}: {' '.join(str(exc).split())[:300]}") from exc

    def submit(self, action: Action) -> None:
        """A player's decision, applied by the window: nothing to pass on."""

    def stop(self) -> None:
        """Nothing to stop."""


def _work(setup: GameSetup, out: Any, credit: Any, stop: Any, inbox: Any) -> None:
    """The worker process: the same game, decided and applied here, each decision sent as JSON; a player's
    decisions come in from the window through `inbox` and are applied here too, so both states stay the same."""
    try:
        session = open_session(setup)
        agents = session.agents()
        zone: Agent | None = None
        out.put(("ready", None))
        while not session.over and not stop.is_set():
            if session.human_to_decide():
                try:
                    data = inbox.get(timeout=0.2)
                except queue.Empty:
                    continue
                session.apply(action_from_json(data))
                continue
            if not credit.acquire(timeout=0.2):
                continue
            agent, zone = agent_for(session.state, agents, zone)
            action = agent.choose(session.state)
            session.apply(action)
            out.put(("action", action.to_json()))
        out.put(("end", None))
    except SessionError as exc:
        out.put(("error", str(exc)))
    except Exception as exc:  # noqa: BLE001 - reported to the window, which shows it
        out.put(("error", f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"))


class WorkerDriver:
    """Decisions from a spawned worker process (never blocks the frame loop unless asked to `wait`)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        ctx = mp.get_context("spawn")
        self._out: Any = ctx.Queue()
        self._credit: Any = ctx.Semaphore(LOOKAHEAD)
        self._stop: Any = ctx.Event()
        self._inbox: Any = ctx.Queue()
        self._proc = ctx.Process(target=_work, args=(session.setup, self._out, self._credit, self._stop, self._inbox),
                                 daemon=True, name="zona-alfa-agents")
        self._pending: list[Action] = []
        self._ended = False
        self.ready = False
        self.started_at = 0.0

    def start(self) -> None:
        self.started_at = time.monotonic()
        self._proc.start()

    @property
    def thinking(self) -> bool:
        """True while the window waits for a decision the worker has not sent yet."""
        return not self._pending and not self._ended and not self.session.over and not self.session.human_to_decide()

    def submit(self, action: Action) -> None:
        """A player's decision (already applied by the window): the worker applies it too, then decides on."""
        self._inbox.put(action.to_json())

    def _drain(self, wait: float) -> None:
        while True:
            try:
                kind, data = self._out.get(timeout=wait) if wait > 0 else self._out.get_nowait()
            except queue.Empty:
                if wait > 0 and not self._proc.is_alive() and not self._ended:
                    raise DriverError("the agents' worker process stopped without a word "
                                      f"(exit code {self._proc.exitcode})") from None
                return
            wait = 0
            if kind == "ready":
                self.ready = True
            elif kind == "action":
                self._pending.append(action_from_json(data))
            elif kind == "end":
                self._ended = True
            else:
                self._ended = True
                raise DriverError(f"the agents' worker failed: {data}")

    def next_action(self, *, wait: bool = False) -> Action | None:
        """The next decision if the worker has sent it (None otherwise, or when the game is over); `wait`: block
        until it comes (tests, benches)."""
        if self.session.over or self.session.human_to_decide():
            return None
        deadline = time.monotonic() + 120.0
        while True:
            self._drain(0.05 if wait and not self._pending else 0)
            if self._pending:
                self._credit.release()
                return self._pending.pop(0)
            if not wait or self._ended or time.monotonic() > deadline:
                return None

    def stop(self) -> None:
        self._stop.set()
        if self._proc.is_alive():
            self._proc.join(timeout=1.0)
        if self._proc.is_alive():
            self._proc.terminate()
            self._proc.join(timeout=1.0)
        for q in (self._out, self._inbox):
            q.close()
            q.cancel_join_thread()
