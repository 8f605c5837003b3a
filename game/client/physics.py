"""The dice tray's table physics (pymunk): square D10s tumble top-down and settle. Animation only: the values come
from the rules' seeded dice (INTRO-1.2.D10); this module's randomness never touches the game's RNG."""
from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pymunk

SUBSTEP = 1 / 240  # seconds per physics step (fixed, for stable contacts)
DAMPING = 0.35  # fraction of velocity a die keeps per second (the felt's drag)
FELT_DRAG = 220.0  # px/s^2 of constant deceleration (sliding friction on the felt), so dice come to rest
FELT_SPIN_DRAG = 9.0  # rad/s^2, the same for spin
WALL_ELASTICITY = 0.6
WALL_FRICTION = 0.8
WALL_RADIUS = 6.0
SETTLE_SPEED = 6.0  # px/s: below this (and SETTLE_SPIN) every die counts as at rest
SETTLE_SPIN = 0.25  # rad/s
MAX_TUMBLE = 2.5  # seconds of simulated time before the dice are stopped where they are
MAX_SIDE = 44.0
STAGGER = 0.07  # seconds between two dice entering the tray (the whole throw enters within 0.5 s)
MAX_WAIT = 0.4  # seconds a die waits for room at the edge before it enters anyway


def die_side(size: tuple[int, int], n: int = 1) -> float:
    """The side of a die in pixels for n dice in a tray of this size: ~0.42 of its height, at most 44 px, smaller
    when n dice would cover more than ~40% of the felt (a 10-dice LMG burst still has room to tumble)."""
    crowded = math.sqrt(size[0] * size[1] * 0.4 / max(1, n))
    return max(8.0, min(size[1] * 0.42, MAX_SIDE, crowded))


def _felt(body: pymunk.Body, gravity: tuple[float, float], damping: float, dt: float) -> None:
    """Velocity update: pymunk's damping, then a constant drag so a slow die stops instead of creeping."""
    import pymunk

    pymunk.Body.update_velocity(body, gravity, damping, dt)
    vx, vy = body.velocity
    speed = math.hypot(vx, vy)
    if speed > 0:
        k = max(0.0, speed - FELT_DRAG * dt) / speed
        body.velocity = (vx * k, vy * k)
    w = body.angular_velocity
    body.angular_velocity = math.copysign(max(0.0, abs(w) - FELT_SPIN_DRAG * dt), w)


class DiceTable:
    """A top-down tray of `size` pixels (y down) with walls; dice are thrown in from the left edge and settle."""

    def __init__(self, size: tuple[int, int]) -> None:
        import pymunk

        self._pm: Any = pymunk
        self.size = (max(1, int(size[0])), max(1, int(size[1])))
        self.side = die_side(self.size)
        self.elapsed = 0.0
        self._acc = 0.0
        self._settled = True
        self.bodies: list[pymunk.Body] = []
        self._pending: list[tuple[float, float, float, tuple[float, float], float]] = []  # dice still to enter
        self.space = self._new_space()

    # -- building -------------------------------------------------------------------------------------------------
    def _new_space(self) -> pymunk.Space:
        pm = self._pm
        space = pm.Space()
        space.gravity = (0.0, 0.0)
        space.damping = DAMPING
        w, h, r = self.size[0], self.size[1], WALL_RADIUS
        corners = [(-r, -r), (w + r, -r), (w + r, h + r), (-r, h + r)]
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            seg = pm.Segment(space.static_body, a, b, r)
            seg.elasticity, seg.friction = WALL_ELASTICITY, WALL_FRICTION
            space.add(seg)
        return space

    def _add_die(self, x: float, y: float, angle: float) -> pymunk.Body:
        pm = self._pm
        s = self.side
        body = pm.Body(1.0, pm.moment_for_box(1.0, (s, s)))
        body.position, body.angle = (x, y), angle
        body.velocity_func = _felt
        shape = pm.Poly.create_box(body, (s, s), radius=s * 0.08)
        shape.elasticity, shape.friction = 0.5, 0.3
        self.space.add(body, shape)
        self.bodies.append(body)
        return body

    def _reset(self, n: int) -> None:
        self.side = die_side(self.size, n)
        self.space = self._new_space()  # a fresh space each throw: the same seed gives the same tumble
        self.bodies, self._pending = [], []
        self.elapsed, self._acc = 0.0, 0.0

    def resize(self, size: tuple[int, int]) -> None:
        """A new tray size: the walls move, the dice keep their places (pulled inside) and their motion."""
        old = [(b.position, b.angle, b.velocity, b.angular_velocity) for b in self.bodies]
        pending, elapsed = self._pending, self.elapsed
        self.size = (max(1, int(size[0])), max(1, int(size[1])))
        self._reset(len(old) + len(pending))
        self._pending, self.elapsed = pending, elapsed
        for (x, y), angle, v, w in old:
            m = self.side * 0.75
            body = self._add_die(min(max(x, m), self.size[0] - m), min(max(y, m), self.size[1] - m), angle)
            body.velocity, body.angular_velocity = v, w

    def throw(self, n: int, seed: int) -> None:
        """Remove the old dice and throw n in: one after another from the left edge, like a hand letting them go,
        with seeded velocities and spins (animation only)."""
        self._reset(n)
        rnd = random.Random(seed)  # local: physics randomness is only animation, never the game's dice
        w, h = max(self.size[0], 200), max(self.size[1], 100)
        every = min(STAGGER, 0.5 / max(1, n))
        self._pending = [(i * every, rnd.random(), rnd.uniform(0, math.tau),
                          (rnd.uniform(1.4, 2.2) * w, rnd.uniform(-1.0, 1.0) * h), rnd.uniform(-14.0, 14.0))
                         for i in range(n)]
        self._settled = n == 0
        self._enter()

    def _enter(self) -> None:
        """Bring in the dice whose time has come, each at the freest place of the left edge near its seeded height
        (a die that would land on another waits a little: dice that start overlapping grind to a halt)."""
        s, h = self.side, self.size[1]
        m = s * 0.75
        lo, hi = m, max(m, h - m)
        while self._pending and self._pending[0][0] <= self.elapsed + 1e-9:
            t, u, angle, v, spin = self._pending[0]
            ys = [lo + (hi - lo) * ((u + k / 8) % 1.0) for k in range(8)]
            room = [min((math.dist((m, y), b.position) for b in self.bodies), default=math.inf) for y in ys]
            best = next((i for i, r in enumerate(room) if r >= s * 1.45), max(range(8), key=room.__getitem__))
            if room[best] < s * 1.1 and self.elapsed - t < MAX_WAIT:
                return
            self._pending.pop(0)
            body = self._add_die(m, ys[best], angle)
            body.velocity, body.angular_velocity = v, spin

    def place(self, n: int) -> None:
        """Lay n dice in a neat row (slightly smaller dice, or more rows, when they do not fit), at rest: the
        animation is off."""
        self._reset(n)
        w, h = self.size
        one_row = (w - 0.2 * self.side) / (max(1, n) * 1.15)
        if one_row >= 0.7 * self.side:  # a little smaller dice rather than a second row
            self.side = min(self.side, one_row)
        s = self.side
        gap = s * 1.15
        per_row = max(1, int((w - 0.2 * s) / gap + 1e-6))
        rows = math.ceil(n / per_row) if n else 0
        y0 = h / 2 - (rows - 1) * gap / 2
        for i in range(n):
            row, col = divmod(i, per_row)
            in_row = min(per_row, n - row * per_row)
            x0 = w / 2 - (in_row - 1) * gap / 2
            self._add_die(x0 + col * gap, y0 + row * gap, 0.0)
        self._settled = True

    # -- running --------------------------------------------------------------------------------------------------
    def step(self, dt: float) -> None:
        """Advance by dt seconds of physics time in fixed substeps; stop the dice when at rest or after 2.5 s."""
        if self._settled:
            return
        self._acc += max(0.0, dt)
        while self._acc >= SUBSTEP and not self._settled:
            self.space.step(SUBSTEP)
            self._acc -= SUBSTEP
            self.elapsed += SUBSTEP
            self._enter()
            if self.elapsed >= MAX_TUMBLE or self._at_rest():
                self._snap()

    def _at_rest(self) -> bool:
        return not self._pending and all(b.velocity.length < SETTLE_SPEED and abs(b.angular_velocity) < SETTLE_SPIN
                                         for b in self.bodies)

    def _snap(self) -> None:
        while self._pending:  # only after 2.5 s: every die is in by then
            self.elapsed = max(self.elapsed, self._pending[0][0] + MAX_WAIT)
            self._enter()
        for b in self.bodies:
            b.velocity, b.angular_velocity = (0.0, 0.0), 0.0
        self._settled = True
        self._acc = 0.0

    @property
    def settled(self) -> bool:
        """True when every die is at rest (or was stopped after 2.5 s of tumbling)."""
        return self._settled

    def dice(self) -> list[tuple[float, float, float]]:
        """Each die's centre (x, y) in tray pixels and its angle in radians (clockwise on screen, y down), in the
        order they were thrown in (a die still in the hand is not listed yet)."""
        return [(float(b.position.x), float(b.position.y), float(b.angle)) for b in self.bodies]
