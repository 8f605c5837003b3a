"""The player's seat at the table (issue 18): what the player may decide now comes from the core's own query
(`game.core.rules.options.options`: every decision with its legal instances, or the engine's reason and rule when
none is legal), shown in the action bar; the board's clicks supply the target or the point an option needs; a Move
is planned by the core (`plan_move`: the shortest path cut at the allowance, checked by `validate`) and drawn before
it is committed; an attack shows its exact odds (`attack_preview`: the odds API and the TN the engine rolls
against) and fires on Enter or a second click. Every action committed here goes through the engine's `apply`."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from game.core.actions import Action, Deploy, IllegalAction
from game.core.rules import validate
from game.core.state import GameState, Phase

if TYPE_CHECKING:
    import pygame

    from game.client.battle import BattleScene

Point = tuple[float, float]
TARGETED = frozenset({"shoot", "melee", "activate", "interrupt"})  # a "target" option the board's click picks
ATTACKS = frozenset({"shoot", "melee", "grenade", "template", "flame"})
TEMPLATES = frozenset({"grenade", "template", "flame"})  # placed under the cursor, previewed as they would land
WALKS = frozenset({"move", "climb", "withdraw", "interrupt_move"})  # movements to a point along a planned path


class Seat:
    """The player's hands for the sides the session marks HUMAN; the battle scene routes input here while one of
    them must decide."""

    def __init__(self, scene: BattleScene) -> None:
        from game.client.actionbar import ActionBar
        from game.client.exposure_panel import ExposurePanel
        from game.client.preview import PreviewPanel
        from game.client.profile import ProfileCard

        self.scene = scene
        self.session = scene.session
        self.bar = ActionBar(scene.shared, on_choose=self.choose)
        self.card = ProfileCard(scene.shared)
        self.preview = PreviewPanel(scene.shared)
        self.exposure = ExposurePanel(scene.shared)  # who could shoot the model at the hovered destination
        from game.client.ruler import RulerView

        self.ruler = RulerView(scene.shared)  # from the selected model to the model (or point) under the pointer
        self.ruler_ends: tuple[Point, Point] | None = None
        self.ruler_free = False  # Ctrl+R: the ruler measures to any point, not only to a model
        self._ruler_key: tuple[Any, ...] | None = None
        self._icons: tuple[tuple[int, str], dict[str, Any]] | None = None  # cover badges per (state, selection)
        self.options: list[Any] = []
        self.pending: Any = None  # an option waiting for its target or point
        self.armed: Action | None = None  # an attack previewed, fired on confirmation
        self.selected: str | None = None
        self.note = ""  # what the player is asked for, or why the last try was refused
        self._seen = -1  # the number of events the options were computed for
        self._hover: tuple[float, float] | None = None
        self.cursor: Point | None = None  # the keyboard's table cursor (arrows 1", Shift 0.1")
        self.via: list[Point] = []  # the Move's waypoints so far (Shift+click, middle click, or Enter on the cursor)
        self._tab = -1  # where Tab is in the cycle of models or targets
        self._cursor_for: str | None = None  # the activation the cursor was last put back for
        self._hover_want: tuple[int, str, Point, tuple[Point, ...]] | None = None  # the latest point to preview
        self._hover_job: tuple[Any, Any] | None = None  # (what it was asked for, its future)
        self._hover_pool: Any = None
        self._pool: Any = None  # one thread for the reach bands
        self._reach_job: tuple[int, Any] | None = None
        self._reach_done: tuple[int, list[Any]] | None = None  # the bands of the state they were made for

    # -- state --------------------------------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self.session.human_to_decide()

    @property
    def state(self) -> GameState:
        return self.session.state

    def refresh(self) -> None:
        """New options when the game moved on (each applied action)."""
        if len(self.session.events) == self._seen:
            return
        self._seen = len(self.session.events)
        self.pending, self.armed = None, None
        self.via, self._hover, self._tab = [], None, -1
        self.preview.show(None)
        self.exposure.show(None)
        self.ruler.show(None)
        self.ruler_ends, self._ruler_key = None, None
        self.scene.board.plan_points = []
        self.scene.board.waypoints = []
        self.scene.board.template_plan = None
        self.scene.board.set_reach([])
        if not self.active:
            self.options = []
            self.bar.set_options([])
            return
        from game.core.rules.options import options

        st = self.state
        unit = st.activation.unit if st.activation is not None and st.phase is Phase.ACTION else None
        self.options = self._expand(options(st, unit))
        self.bar.set_options(self.options)
        self.note = self._ask()
        if st.phase is Phase.DEPLOY:  # deployment: the first model still to place waits for its spot
            first = next((o for o in self.options if o.kind == "deploy"), None)
            if first is not None:
                self.choose(first)
        if unit is not None:
            self.select(st.units[unit].models[0])
            if unit != self._cursor_for:  # a new activation: the cursor starts again at its model
                self._cursor_for, self.cursor = unit, None
                self.scene.board.cursor = None

    def _expand(self, opts: list[Any]) -> list[Any]:
        """A "target" option the board cannot pick (a task, a Med-Kit's patient, an Order's recipient...) becomes
        one button per instance, each labelled by the core's `describe`."""
        from game.core.rules.options import describe

        out: list[Any] = []
        for o in opts:
            if o.needs == "target" and o.kind not in TARGETED and len(o.actions) > 1:
                out += [replace(o, label=describe(self.state, a), actions=(a,), needs="") for a in o.actions]
            else:
                out.append(o)
        return out

    def _ask(self) -> str:
        st = self.state
        side = st.side(st.deciding).name if st.deciding in [s.id for s in st.sides] else st.deciding
        words = {Phase.DEPLOY: "click a spot in your deployment zone", Phase.ACTIVATE: "click a unit to activate",
                 Phase.ACTION: "choose an action", Phase.INITIATIVE: "go first or pass",
                 Phase.INTERRUPT: "interrupt from Alert, or let it pass"}
        return f"{side}: {words.get(st.phase, 'your decision')}"

    def select(self, model: str | None) -> None:
        self.selected = model
        self.card.show(model)
        self.scene.shared.highlight = frozenset([model]) if model else frozenset()

    # -- choices ------------------------------------------------------------------------------------------------
    def choose(self, option: Any) -> None:
        """An option from the bar: commit it, or wait for the board to supply its target or point."""
        if not option.legal:
            self.note = f"not now: {option.reason} ({option.reason_rule})"
            return
        self.armed = None
        self.preview.show(None)
        if option.needs == "":
            action = option.actions[0]
            if option.kind in ATTACKS:
                self._arm(action)
            else:
                self.commit(action)
            return
        if option.needs == "target" and len(option.actions) == 1 and option.kind not in ("activate",):
            if option.kind in ATTACKS:
                self._arm(option.actions[0])
            else:
                self.commit(option.actions[0])
            return
        self.pending = option
        if option.kind == "move":
            self._start_reach()
        self.via = []
        self.note = {"move": "click where to move (Esc cancels)", "deploy": f"{option.label}: click a spot",
                     "shoot": "click the target (Esc cancels)", "melee": "click the model you fight",
                     "activate": "click a unit to activate", "grenade": "click where it lands",
                     "template": "click the template's centre", "flame": "click the direction to spray",
                     "interrupt": "click the unit that interrupts"}.get(option.kind, f"{option.label}: click the table")

    def click(self, point: Point, model: str | None, button: int, *, waypoint: bool | None = None) -> None:
        """A click on the board while the player decides; during a Move, Shift+click or the middle button adds a
        waypoint instead of moving."""
        if button == 3:
            self.cancel()
            return
        if self.pending is not None and self.pending.kind in WALKS:
            if waypoint is None:
                import pygame

                waypoint = button == 2 or bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
            if waypoint:
                self.add_waypoint(point)
                return
        st = self.state
        if self.armed is not None and model is not None and model == getattr(self.armed, "target", None):
            self.confirm()  # a second click on the target fires
            return
        opt = self.pending
        if opt is None:
            if model is not None:
                self.select(model)
                act = next((o for o in self.options if o.kind == "activate"), None)
                if act is not None:
                    self._pick(act, model)
            return
        if opt.needs == "target":
            if model is None:
                self.note = "click a model"
                return
            self._pick(opt, model)
            return
        action = self._at_point(opt, point)
        if action is None:
            return
        try:
            validate(st, action)
        except IllegalAction as exc:
            self.note = f"not there: {exc.reason} ({exc.rule})"
            return
        if opt.kind in ATTACKS:
            self._arm(action)
        else:
            self.commit(action)

    def _pick(self, opt: Any, model: str) -> None:
        st = self.state
        unit = st.models[model].unit
        for a in opt.actions:
            if getattr(a, "target", None) == model or (opt.kind in ("activate", "interrupt")
                                                       and getattr(a, "unit", None) == unit):
                if opt.kind in ATTACKS:
                    self._arm(a)
                else:
                    self.commit(a)
                return
        self.note = f"{model} is not a choice for {opt.label}"

    def _at_point(self, opt: Any, point: Point) -> Action | None:
        """The action an option makes of a point on the table."""
        st = self.state
        if opt.kind == "deploy":
            from game.core.rules.moveplan import goal_level

            return Deploy(opt.actor, round(point[0], 4), round(point[1], 4), goal_level(st, point[0], point[1], 0.0))
        if opt.kind in ("grenade", "template") and opt.example is not None:
            return replace(opt.example, x=round(point[0], 4), y=round(point[1], 4))
        if opt.kind == "flame" and opt.example is not None and st.activation is not None:
            import math

            lead = next(st.models[m] for m in st.units[st.activation.unit].models if st.models[m].in_play)
            return replace(opt.example, angle=round(math.atan2(point[1] - lead.y, point[0] - lead.x), 4))
        from game.core.rules.pointplan import KINDS, point_action

        unit = opt.actor or (st.activation.unit if st.activation is not None else None)
        if opt.kind in KINDS and unit is not None:
            got = point_action(st, opt.kind, unit, point, via=self.via if opt.kind in WALKS else ())
            if got.action is None:
                self.note = f"no {opt.label.lower()} there: {got.reason} ({got.rule})"
            return got.action
        self.note = f"{opt.label} is not chosen on the table: choose it from the bar"
        return None

    def _arm(self, action: Action) -> None:
        from game.client.preview import attack_preview

        pv = attack_preview(self.state, action)
        self.preview.show(pv)
        if not pv.legal:
            self.note = f"not possible: {pv.reason} ({pv.rule})"
            return
        self.armed = action
        fx = self.scene.board.fx
        if pv.los is not None and pv.cover_fact is not None and pv.target:  # the rays the engine will judge
            from game.client.overlays import Shot

            fx.shots = [Shot(pv.attacker, pv.target, pv.los, pv.cover_fact)]
            fx.version += 1
        self.note = "Enter or click the target again to attack, Esc to cancel"

    def confirm(self) -> None:
        if self.armed is not None:
            self.commit(self.armed)

    def _start_reach(self) -> None:
        """The reach bands of the acting unit (this Move, and with a second Move when it has the actions), from the
        core's `move_reach`: computed in a thread so the frame loop goes on (inline under a fixed time step, so
        frames stay deterministic)."""
        st = self.state
        act = st.activation
        if act is None or len(st.units[act.unit].models) != 1:
            return
        from game.core.rules.flow import remaining
        from game.core.rules.moveplan import move_reach

        moves = (1, 2) if remaining(act) >= 2 else (1,)
        if self._reach_done is not None and self._reach_done[0] == self._seen:  # this state's bands, once
            self.scene.board.set_reach(self._reach_done[1])
            return

        def work() -> list[Any]:
            return [move_reach(st, act.unit, moves=k) for k in moves]

        if self.scene.sync:
            bands = work()
            self._reach_done = (self._seen, bands)
            self.scene.board.set_reach(bands)
            return
        from concurrent.futures import ThreadPoolExecutor

        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="zona-alfa-reach")
        self._reach_job = (self._seen, self._pool.submit(work))

    def poll(self) -> None:
        """Take the hover preview and the reach bands once their threads are done (for the state and the point
        they were asked for)."""
        hj = self._hover_job
        if hj is not None and hj[1].done():
            self._hover_job = None
            want, fut = hj
            try:
                got = fut.result()
                if want == self._hover_want and self.pending is not None and self.pending.kind in WALKS:
                    self._show_hover(got)
            except Exception as exc:  # noqa: BLE001 - a preview that fails leaves the Move itself usable
                self.note = f"no preview: {type(exc).__name__}: {exc}"
            if self._hover_want != want and self._hover_want is not None and self._hover_want[0] == self._seen:
                self._submit_hover()
        job = self._reach_job
        if job is None or not job[1].done():
            return
        self._reach_job = None
        if job[0] == self._seen and self.pending is not None and self.pending.kind == "move":
            try:
                bands = job[1].result()
                self._reach_done = (job[0], bands)
                self.scene.board.set_reach(bands)
            except Exception as exc:  # noqa: BLE001 - a preview that fails leaves the Move itself usable
                self.note = f"no reach bands: {type(exc).__name__}: {exc}"

    def measure_to(self, point: Point | None, model: str | None) -> None:
        """The ruler (GEO-4 edge to edge, the LOS verdict and its side view, `game.core.rules.ruler.measure`) from
        the selected model to the model under the pointer or the cursor, or with Ctrl+R to any point; once per
        pair and state."""
        st = self.state
        sel = self.selected
        if model is not None and not (st.models[model].in_play and st.models[model].deployed):
            model = None  # a model out of play is on no line of sight: measured as the point under it, if at all
        end: str | Point | None = model if model is not None and model != sel else (
            (round(point[0], 1), round(point[1], 1)) if self.ruler_free and point is not None else None)
        if sel is None or sel not in st.models or not st.models[sel].in_play or not st.models[sel].deployed \
                or end is None:
            self.ruler.show(None)
            self.ruler_ends = None
            self._ruler_key = None
            return
        key = (self._seen, sel, end)
        if key == self._ruler_key:
            return
        self._ruler_key = key
        from game.core.rules.ruler import measure

        r = measure(st, sel, end)
        self.ruler.show(r)
        a = st.models[sel]
        b = (st.models[end].x, st.models[end].y) if isinstance(end, str) else end
        self.ruler_ends = ((a.x, a.y), b)

    def cover_icons(self) -> dict[str, Any]:
        """The cover badge of every enemy against the selected model (`danger.cover_icons`), once per state and
        selection."""
        sel = self.selected
        if sel is None or sel not in self.state.models or not self.state.models[sel].deployed \
                or not self.state.models[sel].in_play:
            return {}
        key = (self._seen, sel)
        if self._icons is None or self._icons[0] != key:
            from game.core.odds.danger import cover_icons

            self._icons = (key, cover_icons(self.state, sel))
        return self._icons[1]

    def close(self) -> None:
        """The battle is left: the reach thread is stopped."""
        for pool in (self._pool, self._hover_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)

    def cancel(self) -> None:
        if self.armed is not None:
            self.scene.board.fx.shots = []
            self.scene.board.fx.version += 1
        self.pending, self.armed = None, None
        self.via, self._hover = [], None
        self.preview.show(None)
        self.exposure.show(None)
        self.scene.board.plan_points = []
        self.scene.board.waypoints = []
        self.scene.board.template_plan = None
        self.scene.board.set_reach([])
        self.note = self._ask() if self.active else ""

    def commit(self, action: Action) -> None:
        self.scene.commit(action)

    # -- hover: the move preview ---------------------------------------------------------------------------------
    def hover(self, point: Point, *, force: bool = False) -> None:
        opt, st = self.pending, self.state
        if opt is not None and opt.kind in TEMPLATES:
            self._template_hover(opt, point)
            return
        unit = (opt.actor or (st.activation.unit if st.activation is not None else None)) if opt is not None else None
        if opt is None or opt.kind not in WALKS or unit is None:
            return
        key = (round(point[0], 1), round(point[1], 1))
        if key == self._hover and not force:
            return
        self._hover = key
        self._hover_want = (self._seen, unit, key, tuple(self.via))
        if self.scene.sync:  # a fixed time step: frames stay deterministic, the preview is made in the frame
            self._show_hover(self._hover_work(st, *self._hover_want[1:]))
            return
        if self._hover_job is None:
            self._submit_hover()

    def _hover_work(self, st: GameState, unit: str, key: Point, via: tuple[Point, ...]) -> dict[str, Any]:
        """What a hover over a destination shows, from the core: the planned Move (path, length, allowance,
        waypoints, the Reaction Radius warning) and the exposure where it ends (`game.core.odds.danger.exposure_at`:
        who could see and shoot the model there, the odds of a Wound, in the open, would be targeted)."""
        from game.core.odds.danger import exposure_at
        from game.core.rules.moveplan import plan_move

        plan = plan_move(st, unit, key, via=via)
        seen = exposure_at(st, plan.model, plan.points[-1]) if plan.action is not None and plan.points else None
        return {"plan": plan, "exposure": seen}

    def _submit_hover(self) -> None:
        """The hover preview in its own thread (a long detour takes tens of ms): one job at a time, the latest
        point asked next, so the frame loop never waits and a stale point is never planned twice."""
        want = self._hover_want
        if want is None:
            return
        from concurrent.futures import ThreadPoolExecutor

        if self._hover_pool is None:
            self._hover_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="zona-alfa-hover")
        st = self.state
        self._hover_job = (want, self._hover_pool.submit(self._hover_work, st, *want[1:]))

    def _show_hover(self, got: dict[str, Any]) -> None:
        plan = got["plan"]
        self.exposure.show(got["exposure"])
        self.scene.board.plan_points = [(p[0], p[1]) for p in plan.points]
        self.scene.board.plan_ok = plan.action is not None
        self.note = self.plan_words(plan)

    def _template_hover(self, opt: Any, point: Point) -> None:
        """A blast or flame template under the cursor (a flame turns toward it): the models it would touch, friends
        warned, direct or indirect, and where a miss can land (`template_preview`, the resolver's own coverage)."""
        key = (round(point[0], 1), round(point[1], 1))
        if key == self._hover:
            return
        self._hover = key
        action = self._at_point(opt, key)
        if action is None:
            return
        from game.client.template_view import template_words
        from game.core.rules.template_preview import template_preview

        plan = template_preview(self.state, action)  # type: ignore[arg-type]  # a template option builds one of them
        self.scene.board.template_plan = plan
        words = template_words(plan)
        if plan.legal and plan.deviation is not None:
            from game.core.odds.templates import template_odds

            try:
                words.insert(1, f"hits {float(template_odds(self.state, action).p_hit) * 100:.0f}%")
            except IllegalAction:
                pass
        self.note = "; ".join(words)

    def plan_words(self, plan: Any) -> str:
        """The move preview's line: length of allowance, the waypoints, and the Reaction Radius warning (GEO-19)."""
        if plan.action is None:
            return f"no move there: {plan.reason} ({plan.rule})"
        text = f"move {plan.length:.1f}\" of {plan.allowance:g}\" ({plan.allowance_text})"
        if not plan.reached:
            text += ", as far as the allowance goes"
        if plan.via:
            text += f", via {len(plan.via)} waypoint(s)"
        if plan.triggers:
            names = ", ".join(self.state.locations[t].name for t in plan.triggers)
            text += f"; WARNING: enters the Reaction Radius of {names} (GEO-19, MISSION-8.2.TRIGGER)"
        return text

    def add_waypoint(self, point: Point) -> None:
        """A waypoint of the Move being planned (the path passes through it, `plan_move`'s `via`)."""
        self.via.append((round(point[0], 2), round(point[1], 2)))
        self.scene.board.waypoints = list(self.via)
        self.hover(point, force=True)

    def drop_waypoint(self) -> None:
        if self.via:
            self.via.pop()
            self.scene.board.waypoints = list(self.via)
            if self._hover is not None:
                self.hover(self._hover, force=True)

    # -- the keyboard's table cursor -------------------------------------------------------------------------------
    def _cursor_start(self) -> Point:
        st = self.state
        if self.selected is not None and self.selected in st.models and st.models[self.selected].deployed:
            m = st.models[self.selected]
            return (m.x, m.y)
        side = next((s for s in st.sides if s.id == st.deciding), None)
        if st.phase is Phase.DEPLOY and side is not None and side.zone:
            import shapely

            c = shapely.Polygon(st.battlefield.zone(side.zone).footprint).representative_point()
            return (c.x, c.y)
        return (st.table[0] / 2, st.table[1] / 2)

    def move_cursor(self, dx: float, dy: float) -> None:
        """Arrows move the cursor 1" (Shift 0.1"), kept on the table; the view follows it; it previews as a hover."""
        x, y = self.cursor if self.cursor is not None else self._cursor_start()
        w, h = self.state.table
        self.cursor = (min(w, max(0.0, round(x + dx, 4))), min(h, max(0.0, round(y + dy, 4))))
        self._show_cursor()
        self.measure_to(self.cursor, self.model_under_cursor())
        self.hover(self.cursor)

    def _show_cursor(self) -> None:
        board = self.scene.board
        board.cursor = self.cursor
        if self.cursor is not None:
            s = board.cam.to_screen(self.cursor)
            if not board.rect.inflate(-160, -220).collidepoint(s):
                board.cam.centre_on(self.cursor)

    def model_under_cursor(self) -> str | None:
        if self.cursor is None:
            return None
        import math

        st = self.state
        near = [(math.hypot(m.x - self.cursor[0], m.y - self.cursor[1]), m.id) for m in st.models.values()
                if m.deployed and not m.dead and math.hypot(m.x - self.cursor[0], m.y - self.cursor[1]) <= m.radius]
        return min(near)[1] if near else None

    def _cycle(self) -> list[str]:
        """What Tab walks: the targets of the option waiting for one, else the units that may activate (their first
        model), else the deciding side's models on the table."""
        st = self.state
        opt = self.pending
        if opt is not None and opt.needs == "target":
            ids = [getattr(a, "target", None) or next(iter(st.units[a.unit].models), None) for a in opt.actions]
            return sorted({i for i in ids if i is not None and i in st.models and st.models[i].deployed})
        act = next((o for o in self.options if o.kind == "activate"), None)
        if act is not None and opt is None:
            return [next(x for x in st.units[a.unit].models if st.models[x].in_play) for a in act.actions
                    if any(st.models[x].in_play for x in st.units[a.unit].models)]
        return sorted(m.id for m in st.models.values() if m.side == st.deciding and m.deployed and m.in_play)

    def tab(self, back: bool = False) -> bool:
        ring = self._cycle()
        if not ring:
            return False
        self._tab = (self._tab + (-1 if back else 1)) % len(ring)
        m = self.state.models[ring[self._tab]]
        self.cursor = (m.x, m.y)
        self._show_cursor()
        self.measure_to(self.cursor, m.id)
        if self.pending is None:
            self.select(m.id)
        self.note = f"{m.id}: Enter to choose it" + (f" ({self.note})" if self.pending is None else "")
        return True

    def enter(self) -> bool:
        """Enter on the cursor: the focus equivalent of a click (a target, a spot, a unit); during a Move the first
        Enter on a spot adds it as a waypoint and a second Enter there moves."""
        if self.cursor is None:
            return False
        opt = self.pending
        if opt is not None and opt.kind in WALKS:
            if self.via and self.via[-1] == (round(self.cursor[0], 2), round(self.cursor[1], 2)):
                end = self.via.pop()
                self.click(end, None, 1, waypoint=False)
            else:
                self.add_waypoint(self.cursor)
                self.note += " - Enter again here to move"
            return True
        if opt is None and not any(o.kind == "activate" for o in self.options) and self.state.phase is not Phase.DEPLOY:
            return False  # nothing on the board is asked for: the bar's focused button takes Enter
        self.click(self.cursor, self.model_under_cursor(), 1, waypoint=False)
        return True

    def handle_key(self, ev: pygame.event.Event) -> bool:
        """The seat's keys: Enter confirms an armed attack or acts on the cursor, Esc cancels, Backspace drops the
        last waypoint, the arrows move the table cursor (Shift: 0.1"), Tab / Shift+Tab walk the models or targets
        when the board is asked for one (otherwise Tab stays the action bar's focus)."""
        import pygame

        mod = getattr(ev, "mod", 0)
        if ev.key == pygame.K_r and mod & pygame.KMOD_CTRL:
            self.ruler_free = not self.ruler_free
            self.note = "ruler: to any point under the pointer" if self.ruler_free else "ruler: to models only"
            if not self.ruler_free:
                self.measure_to(None, None)
            return True
        if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.armed is not None:
                self.confirm()
                return True
            if self.bar.focus is not None and self.pending is None:
                return False
            return self.enter()
        if ev.key == pygame.K_ESCAPE and (self.pending is not None or self.armed is not None):
            self.cancel()
            return True
        if ev.key == pygame.K_BACKSPACE and self.via:
            self.drop_waypoint()
            return True
        step = 0.1 if mod & pygame.KMOD_SHIFT else 1.0
        arrows = {pygame.K_LEFT: (-step, 0.0), pygame.K_RIGHT: (step, 0.0), pygame.K_UP: (0.0, -step),
                  pygame.K_DOWN: (0.0, step)}
        if ev.key in arrows and not mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            self.move_cursor(*arrows[ev.key])
            return True
        if ev.key == pygame.K_TAB and (self.pending is not None or any(o.kind == "activate" for o in self.options)):
            return self.tab(back=bool(mod & pygame.KMOD_SHIFT))
        return False
