"""The attack preview: before a shot, blow, throw or flame is confirmed, the engine's own verdict (validate), the
exact odds (game.core.odds) and the target number with every modifier and its rule, and the panel that shows them."""
from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from game.client.theme import THEME, font
from game.client.widget import Static
from game.core.actions import (
    FlameAttack,
    IllegalAction,
    Interrupt,
    MeleeAttack,
    RangedAttack,
    Reasoned,
    TemplateAttack,
    ThrowGrenade,
)
from game.core.dice import TargetNumber
from game.core.odds.actions import attack_odds
from game.core.rules import validate
from game.core.state import GameState
from game.render.style import Colour

if TYPE_CHECKING:
    import pygame

    from game.client.widget import Shared
    from game.core.events import Event
    from game.core.geometry.sight.cover import CoverFact
    from game.core.geometry.sight.los import LosFact
    from game.core.rules.context import Ctx
    from game.core.state import ModelState

__all__ = ["ATTACKS", "AttackPreview", "Chance", "PreviewPanel", "attack_preview", "intent_words", "model_words",
           "percent"]

ATTACKS = (RangedAttack, MeleeAttack, TemplateAttack, ThrowGrenade, FlameAttack)
Prob = Fraction | float


@dataclass(frozen=True, slots=True)
class Chance:
    """One headline number of the odds: `key` (hit, wounds, wounded, pinned, ooa, crit_success, crit_failure, and
    for melee attacker_wounded, attacker_ooa), how a player reads it, the exact Fraction where the odds API gives
    one (None where the geometry makes it a float: a deviated template's arcs), and the float. `expected` marks an
    expected count (Wounds), not a probability."""

    key: str
    label: str
    exact: Fraction | None
    value: float
    expected: bool = False


def _chance(key: str, label: str, p: Prob, *, expected: bool = False) -> Chance:
    exact = p if isinstance(p, Fraction) else None
    return Chance(key, label, exact, float(p), expected)


@dataclass(frozen=True, slots=True)
class AttackPreview:
    """What a player sees before confirming an attack, all from the engine: `legal` (validate; else `reason` and
    `rule` of its IllegalAction; a legal attack the odds cannot price, such as a blow on a model Out of Action
    (GAP-93), has `odds` None and the odds' reason and rule), the attack in words, the rolling model and the
    target (GAP-77: a unit's model that rolls), the hit TN with its breakdown (modifiers.attack_numbers, blast_tn:
    the numbers `apply` rolls against), the dice, the distance (GEO-4), the cover class after elevation and its
    piece (GEO-12, GEO-14), the obstructions counted and their pieces (GEO-13), the LOS rays (GEO-10), the save
    and Will TNs, the exact odds object (`attack_odds`) and its headline `chances`. `ms` is the time it took,
    `odds_ms` the part of it the exact odds took (a deviated template's arcs on a table with terrain take a few
    hundred ms)."""

    legal: bool
    action: Any = None
    reason: str = ""
    rule: str = ""
    kind: str = ""  # "ranged", "melee", "template" (grenade or blast weapon), "flame"
    words: str = ""
    attacker: str = ""
    target: str | None = None
    weapon: str = ""
    tn: TargetNumber | None = None  # None: the flame places its template with no roll (ARMORY-5.1.FLAME)
    dice: int = 0
    distance: float | None = None
    cover: str = "none"
    cover_piece: int | None = None
    elevated: bool = False
    obstructions: int = 0
    obstruction_pieces: tuple[int, ...] = ()
    indirect: str | None = None  # ARMORY-5.4.PENALTY: "in_los" or "no_los"
    save: TargetNumber | None = None
    save_dice: int = 1
    will: TargetNumber | None = None
    will_exempt: str = ""
    defender_tn: TargetNumber | None = None  # melee: the defender's blow back (COMBAT-4.2.SIMULTANEOUS)
    parry_policy: str = ""  # melee: the parry policy the chances are read under (AI-D.12 "ai", or "max")
    los: LosFact | None = field(default=None, compare=False)
    cover_fact: CoverFact | None = field(default=None, compare=False)
    odds: Any = None
    chances: tuple[Chance, ...] = ()
    others: tuple[tuple[str, Prob], ...] = ()  # templates: other models it may touch (as named), P(touched)
    ms: float = field(default=0.0, compare=False)
    odds_ms: float = field(default=0.0, compare=False)  # of `ms`, the time attack_odds took

    def chance(self, key: str) -> Chance:
        """The headline number named `key` (KeyError when this attack has none)."""
        for c in self.chances:
            if c.key == key:
                return c
        raise KeyError(key)

    @property
    def modifiers_sum(self) -> int | None:
        """The TN's base plus every modifier: equals `tn.value` (the breakdown explains the whole number)."""
        if self.tn is None:
            return None
        return self.tn.base.value + sum(m.value for m in self.tn.mods)


def attack_preview(state: GameState, action: Any, *, context: str = "own") -> AttackPreview:
    """The preview of a declared attack (RangedAttack, MeleeAttack, TemplateAttack, ThrowGrenade, FlameAttack, or
    one wrapped in an Interrupt from Alert, CORE-3.3.ALERT): validate first (an IllegalAction gives legal=False
    with its reason and rule), then the exact odds and the numbers through the resolver's own plans. Pure: it
    never changes the state or draws a die."""
    t0 = time.perf_counter()
    inner = action.action if isinstance(action, Reasoned) else action
    if isinstance(inner, Interrupt):
        inner, context = inner.action, "alert"
    if not isinstance(inner, ATTACKS):
        return AttackPreview(False, action, f"{type(inner).__name__} is not an attack", "CORE-3.3.ATTACK")
    try:
        validate(state, action)
    except IllegalAction as exc:
        return AttackPreview(False, action, exc.reason, exc.rule, words=intent_words(state, inner),
                             ms=(time.perf_counter() - t0) * 1000)
    t1 = time.perf_counter()
    try:
        odds = attack_odds(state, inner, context=context)
    except IllegalAction as exc:  # legal, but priced by no closed form (a blow on a model Out of Action, GAP-93)
        return AttackPreview(True, action, exc.reason, exc.rule, kind=_KIND.get(type(inner), "template"),
                             words=intent_words(state, inner), ms=(time.perf_counter() - t0) * 1000)
    odds_ms = (time.perf_counter() - t1) * 1000
    if isinstance(inner, RangedAttack):
        out = _ranged(state, inner, odds, context)
    elif isinstance(inner, MeleeAttack):
        out = _melee(state, inner, odds, context)
    else:
        out = _template(state, inner, odds)
    return replace(out, action=action, ms=(time.perf_counter() - t0) * 1000, odds_ms=odds_ms)


_KIND = {RangedAttack: "ranged", MeleeAttack: "melee", FlameAttack: "flame"}


# -- names, as a player reads them ------------------------------------------------------------------------------
def model_words(state: GameState, model_id: str) -> str:
    """A model as the preview names it: the last word of its profile's name ("Kovalchuk", "Dogs"), with the
    number a hostile model's id ends with ("Dogs 1.3"); when another model of the game has the same name (two
    packs of Dogs), its unit is added ("Dogs 1.3 (structure-3-2-dogs-1)")."""
    m = state.models.get(model_id)
    if m is None:
        return model_id
    name = _short_name(m.id, m.profile.name)
    if any(o.id != m.id and _short_name(o.id, o.profile.name) == name for o in state.models.values()):
        return f"{name} ({m.unit})"
    return name


def _short_name(model_id: str, profile_name: str) -> str:
    words = profile_name.replace('"', " ").split()
    name = words[-1] if words else model_id
    tail = model_id.rsplit("-", 1)[-1]
    return f"{name} {tail}" if any(ch.isdigit() for ch in tail) else name


def intent_words(state: GameState, act: Any) -> str:
    """What an attack declares, in a few words, before any rule is asked ("Kovalchuk shoots Dogs 1.3")."""
    unit = state.units.get(getattr(act, "unit", ""))
    me = model_words(state, unit.models[0]) if unit is not None and unit.models else str(getattr(act, "unit", "?"))
    target = getattr(act, "target", None)
    them = model_words(state, target) if isinstance(target, str) else ""
    if isinstance(act, RangedAttack):
        return f"{me} shoots {them}"
    if isinstance(act, MeleeAttack):
        return f"{me} strikes {them}"
    if isinstance(act, ThrowGrenade):
        return f"{me} throws a grenade at ({act.x:.1f}, {act.y:.1f})"
    if isinstance(act, TemplateAttack):
        return f"{me} fires at ({act.x:.1f}, {act.y:.1f})"
    if isinstance(act, FlameAttack):
        return f"{me} sprays the flame"
    return me


def _inches(d: float | None) -> str:
    return "" if d is None else f"{d:.1f}\""


# -- the three kinds --------------------------------------------------------------------------------------------
def _ctx(state: GameState) -> Ctx:
    from game.core.odds.facts import odds_ctx

    return odds_ctx(state)


def _sight(ctx: Ctx, a: ModelState, t: ModelState) -> tuple[LosFact | None, CoverFact | None]:
    """GEO-10 rays and the GEO-12/13 cover fact of a -> t, by the same queries `situation` and `can_see` use."""
    bf = ctx.battlefield
    if not bf.pieces and not ctx.state.smoke:
        return None, None
    from game.core.geometry.sight.cover import cover_against
    from game.core.geometry.sight.los import line_of_sight

    scene = ctx.state.scene()
    return (line_of_sight(bf, scene, a.id, t.id, settings=ctx.settings),
            cover_against(bf, scene, a.id, t.id, settings=ctx.settings))


def _ranged(state: GameState, act: RangedAttack, odds: Any, context: str) -> AttackPreview:
    """COMBAT-4.1.RANGED through rules.fire.ranged_plan, the plan `do_ranged` rolls and `ranged_odds` prices."""
    from game.core.rules.fire import ranged_plan
    from game.core.rules.queries import sole_model

    ctx = _ctx(state)
    plan = ranged_plan(ctx, act, sole_model(ctx, act.unit), context)
    s, nums = plan.situation, plan.numbers
    los, cov = _sight(ctx, plan.attacker, plan.target)
    extra = (" (Unload)" if act.unload else "") + (", Aimed" if plan.aim else "") + \
        (", into a melee" if plan.into_melee else "")
    words = (f"{model_words(state, plan.attacker.id)} shoots {model_words(state, plan.target.id)} with the "
             f"{plan.weapon.name} at {_inches(s.distance)}{extra}")
    r = odds.target_round
    chances = (_chance("hit", "at least one hit", odds.attack_hits.at_least(1)),
               _chance("wounds", "expected Wounds", r.expected_wounds, expected=True),
               _chance("wounded", "target Wounded", r.p_wound),
               _chance("pinned", "target Pinned", r.p_any_pin),
               _chance("ooa", "target Out of Action", r.p_ooa),
               _chance("crit_success", "Critical Success", odds.attacker_crit.p("success")),
               _chance("crit_failure", "Critical Failure", odds.attacker_crit.p("failure")))
    return AttackPreview(True, kind="ranged", words=words, attacker=plan.attacker.id, target=plan.target.id,
                         weapon=plan.weapon.name, tn=nums.hit, dice=nums.dice, distance=s.distance,
                         cover=s.cover.value, cover_piece=cov.piece if cov is not None else None,
                         elevated=s.elevated, obstructions=s.obstructions,
                         obstruction_pieces=cov.obstructions if cov is not None else (), save=nums.save,
                         save_dice=nums.save_dice, will=nums.will, will_exempt=nums.will_exempt_reason, los=los,
                         cover_fact=cov, odds=odds, chances=chances)


def _melee(state: GameState, act: MeleeAttack, odds: Any, context: str) -> AttackPreview:
    """COMBAT-4.2 through rules.melee.melee_plan, the plan `do_melee` rolls and `melee_odds` prices. The chances
    are read under the parry policy of the attacking side: AI-D.12 for an `ai` side, else parry all it can."""
    from game.core.rules.attack import lead_model
    from game.core.rules.melee import melee_plan
    from game.core.rules.queries import sole_model

    ctx = _ctx(state)
    t = state.models[act.target]
    m = lead_model(ctx, sole_model(ctx, act.unit), t, None, melee=True)
    plan = melee_plan(ctx, act, m, t, context)
    s = plan.situation
    first_w, nums = plan.weapons[0]
    policy = "ai" if state.side(m.side).controller == "ai" else "max"
    out = odds.outcomes[policy]
    second = f" and the {plan.weapons[1][0].name}" if len(plan.weapons) > 1 else ""
    words = (f"{model_words(state, m.id)} strikes {model_words(state, t.id)} with the {first_w.name}{second}; "
             f"{model_words(state, t.id)} fights back with the {plan.defender_weapon.name}")
    chances = (_chance("hit", "at least one hit", out.attacker_hits.at_least(1)),
               _chance("wounds", "expected Wounds", out.wounds_to_defender.mean(), expected=True),
               _chance("wounded", "target Wounded", out.wounds_to_defender.at_least(1)),
               _chance("pinned", "target Pinned", out.defender_pins.at_least(1)),
               _chance("ooa", "target Out of Action", out.p_defender_ooa),
               _chance("crit_success", "Critical Success", odds.attacker_crit.p("success")),
               _chance("crit_failure", "Critical Failure", odds.attacker_crit.p("failure")),
               _chance("attacker_wounded", "you are Wounded back", out.wounds_to_attacker.at_least(1)),
               _chance("attacker_ooa", "you are Out of Action", out.p_attacker_ooa))
    dice = sum(n.dice for _, n in plan.weapons)
    return AttackPreview(True, kind="melee", words=words, attacker=m.id, target=t.id, weapon=first_w.name,
                         tn=nums.hit, dice=dice, distance=s.distance, cover=s.cover.value, elevated=s.elevated,
                         obstructions=s.obstructions, save=nums.save, save_dice=nums.save_dice, will=None,
                         will_exempt="melee: no deflection Will check (COMBAT-4.3.DEFLECT-WILL)",
                         defender_tn=plan.defender_numbers.hit, parry_policy=policy, odds=odds, chances=chances)


def _template(state: GameState, act: Any, odds: Any) -> AttackPreview:
    """GAP-70 throws and blasts (rules.delivery: direct or indirect, the throw's TN by blast_tn) and the flame
    (ARMORY-5.1.FLAME): the model aimed at (or the likeliest touched enemy) is the target of the headline."""
    from game.core.rules.attack import situation
    from game.core.rules.delivery import delivery, flame_blast, grenade_blast, throw_distance, weapon_blast
    from game.core.rules.queries import sole_model

    ctx = _ctx(state)
    m = sole_model(ctx, act.unit)
    target: str | None = None
    distance: float | None = None
    indirect: str | None = None
    cover, piece, obs, elevated = "none", None, 0, False
    obs_pieces: tuple[int, ...] = ()
    los: LosFact | None = None
    cov: CoverFact | None = None
    if isinstance(act, FlameAttack):
        blast = flame_blast(ctx, m, act.weapon)
        kind = "flame"
    else:
        blast = grenade_blast(ctx, act.grenade) if isinstance(act, ThrowGrenade) else \
            weapon_blast(ctx, m, act.weapon, act.profile)[2]
        kind = "template"
        dlv = delivery(ctx, m, act.x, act.y, blast)
        target, indirect = dlv.target, dlv.indirect
        distance = throw_distance(ctx, m, act.x, act.y, blast)[0]
        if target is not None and indirect is None:
            t = state.models[target]
            s = situation(ctx, m, t, melee=False)
            cover, obs, elevated = s.cover.value, s.obstructions, s.elevated
            los, cov = _sight(ctx, m, t)
            if cov is not None:
                piece, obs_pieces = cov.piece, cov.obstructions
    enemies = {mid: mo for mid, mo in odds.models.items() if state.models[mid].side != m.side}
    if target is None and enemies:
        target = max(sorted(enemies), key=lambda mid: enemies[mid].p_touched)
    me = model_words(state, m.id)
    at = model_words(state, target) if target is not None else f"({act.x:.1f}, {act.y:.1f})" \
        if not isinstance(act, FlameAttack) else ""
    how = {None: "", "in_los": ", indirect", "no_los": ", indirect, unseen"}[indirect]
    if isinstance(act, FlameAttack):
        toward = f" toward {model_words(state, target)}" if target is not None else \
            f" at {math.degrees(act.angle):.0f} degrees"
        words = f"{me} sprays the {blast.name}{toward}"
    elif isinstance(act, ThrowGrenade):
        words = f"{me} throws a {blast.name} at {at} ({_inches(distance)}{how})"
    else:
        words = f"{me} fires the {blast.name} at {at} ({_inches(distance)}{how})"
    mt = odds.models.get(target) if target is not None else None
    chances: list[Chance] = [_chance("hit", "the throw hits" if kind == "template" else "the flame hits",
                                     odds.p_hit)]
    if mt is not None:
        chances += [_chance("touched", "template touches target", mt.p_touched),
                    _chance("wounds", "expected Wounds", mt.expected_wounds, expected=True),
                    _chance("wounded", "target Wounded", mt.p_wound),
                    _chance("pinned", "target Pinned", mt.p_any_pin),
                    _chance("ooa", "target Out of Action", mt.p_ooa)]
    if odds.tn is not None:  # the flame with `flame.auto_hit` rolls no die: no critical (GAP-73)
        chances += [_chance("crit_success", "Critical Success", odds.attacker_crit.p("success")),
                    _chance("crit_failure", "Critical Failure", odds.attacker_crit.p("failure"))]
    others = tuple((model_words(state, mid), mo.p_touched) for mid, mo in sorted(odds.models.items())
                   if mid != target)
    tn = odds.tn
    return AttackPreview(True, kind=kind, words=words, attacker=m.id, target=target, weapon=blast.name, tn=tn,
                         dice=0 if tn is None else 1, distance=distance, cover=cover, cover_piece=piece,
                         elevated=elevated, obstructions=obs, obstruction_pieces=obs_pieces, indirect=indirect,
                         los=los, cover_fact=cov, odds=odds, chances=tuple(chances), others=others)


# -- the panel --------------------------------------------------------------------------------------------------
def percent(p: float) -> str:
    """A probability as the panel prints it: one decimal, never rounded to a false 0% or 100%.

    >>> percent(0.4567), percent(0.0), percent(1.0), percent(0.0004), percent(0.9996)
    ('45.7%', '0%', '100%', '<0.1%', '>99.9%')
    """
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.0005:
        return "<0.1%"
    if p > 0.9995:
        return ">99.9%"
    return f"{100 * p:.1f}%"


PAD = 12
WIDTH = 400
BAR_W = 90
HINT = "Enter to fire, Esc to cancel"
_BAR_COLOUR = {"hit": "die_hit", "touched": "die_hit", "wounded": "badge_wounded", "ooa": "badge_wounded",
               "attacker_wounded": "badge_wounded", "attacker_ooa": "badge_wounded", "pinned": "badge_pinned",
               "crit_success": "die_crit", "crit_failure": "die_crit"}


def _bar_colour(key: str) -> Colour:
    return getattr(THEME, _BAR_COLOUR.get(key, "dim_ink"))


class PreviewPanel(Static):
    """The attack preview panel (Widget): the attack in words, the TN large with each modifier and its rule on its
    own line, the context (distance, cover, obstructions, save and Will TNs), the odds as large percentages with
    small bars, and the keys; an illegal attack shows the reason and its rule. The picture is cached until the
    preview (or the rectangle) changes. Enter and Esc belong to the scene that asked for the preview."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.rect: pygame.Rect | None = None
        self.preview: AttackPreview | None = None
        self._state: GameState | None = None
        self._img: pygame.Surface | None = None
        self._key: tuple[object, ...] = ()
        self._lines: list[str] = []
        self.renders = 0  # renders of the picture (tests check the cache)

    def show(self, preview: AttackPreview | None) -> None:
        """Show a preview (None hides the panel); the same preview again keeps the cached picture."""
        if preview is not self.preview and preview != self.preview:
            self.preview = preview
            self._img = None

    # -- the Widget protocol ------------------------------------------------------------------------------------
    def layout(self, rect: pygame.Rect) -> None:
        import pygame

        self.rect = pygame.Rect(rect)

    def feed(self, events: Sequence[Event], state: GameState) -> None:
        """A preview belongs to the state it was made on: any applied action makes it stale, so it is hidden."""
        if events and self.preview is not None:
            self.show(None)
        self._state = state

    @property
    def panel_rect(self) -> pygame.Rect | None:
        """Where the panel is drawn: the laid-out rectangle's top-left, the picture's size (a picture taller than
        the rectangle is cut at its bottom: give it ~500 px for a melee)."""
        import pygame

        if self.rect is None or self.preview is None:
            return None
        w, h = self._picture().get_size()
        return pygame.Rect(self.rect.topleft, (min(w, self.rect.width), min(h, self.rect.height)))

    def draw(self, surface: pygame.Surface) -> None:
        if self.rect is None or self.preview is None:
            return
        surface.blit(self._picture(), self.rect.topleft, (0, 0, self.rect.width, self.rect.height))

    def lines(self) -> list[str]:
        """Every text line the panel draws, top to bottom (the tests' text model)."""
        if self.preview is None:
            return []
        self._picture()
        return list(self._lines)

    # -- drawing ------------------------------------------------------------------------------------------------
    def _picture(self) -> pygame.Surface:
        assert self.preview is not None
        width = min(WIDTH, self.rect.width) if self.rect is not None else WIDTH
        key = (id(self.preview), width)
        if self._img is None or key != self._key:
            self._img, self._key = self._render(self.preview, width), key
            self.renders += 1
        return self._img

    def _render(self, p: AttackPreview, width: int) -> pygame.Surface:
        import pygame

        rows = _rows(p, width - 2 * PAD)
        h = 2 * PAD + sum(r.height for r in rows)
        img = pygame.Surface((width, h), pygame.SRCALPHA)
        pygame.draw.rect(img, (*THEME.panel, 242), img.get_rect(), border_radius=8)
        edge = THEME.panel_edge if p.legal else THEME.badge_wounded
        pygame.draw.rect(img, edge, img.get_rect(), 2, border_radius=8)
        y = PAD
        self._lines = []
        for r in rows:
            r.draw(img, PAD, y, width - 2 * PAD)
            self._lines += r.texts
            y += r.height
        return img


@dataclass
class _Row:
    """One row of the panel: texts (left, right-aligned, dim note), their fonts, a bar, the height it takes."""

    left: str
    size: int = 14
    bold: bool = False
    colour: Colour = THEME.ink
    right: str = ""
    right_size: int = 14
    note: str = ""
    bar: float | None = None
    bar_colour: Colour = THEME.dim_ink
    gap: int = 0  # extra space under the row

    @property
    def texts(self) -> list[str]:
        return [" ".join(t for t in (self.left, self.right, self.note) if t)]

    @property
    def height(self) -> int:
        return max(font(self.size, self.bold).get_linesize(), font(self.right_size, True).get_linesize()
                   if self.right else 0) + self.gap

    def draw(self, img: pygame.Surface, x: int, y: int, width: int) -> None:
        """Right to left: the bar, the right-aligned number, the note; the label gets the room left (clipped)."""
        import pygame

        from game.client.ui import clip

        body = self.height - self.gap
        right_x = x + width
        if self.bar is not None:
            right_x -= BAR_W + 8
            by = y + body // 2 - 4
            pygame.draw.rect(img, THEME.panel_hi, (right_x + 8, by, BAR_W, 9), border_radius=3)
            fill = round(BAR_W * max(0.0, min(1.0, self.bar)))
            if fill:
                pygame.draw.rect(img, self.bar_colour, (right_x + 8, by, max(2, fill), 9), border_radius=3)
        if self.right:
            r = font(self.right_size, True).render(self.right, True, self.colour)
            img.blit(r, (right_x - r.get_width(), y + body - r.get_height()))
            right_x -= r.get_width() + 8
        f = font(self.size, self.bold)
        label_w = f.size(self.left)[0]
        if self.note:
            small = font(11)
            room = right_x - (x + min(label_w, (right_x - x) // 2) + 8)
            note = clip(self.note, small, max(10, room))
            n = small.render(note, True, THEME.dim_ink)
            right_x -= n.get_width() + 8
            img.blit(n, (right_x + 8, y + body - n.get_height() - 2))
        left = f.render(clip(self.left, f, max(10, right_x - x)), True, self.colour)
        img.blit(left, (x, y + body - left.get_height()))


def _wrapped(text: str, size: int, width: int, *, bold: bool = False, colour: Colour = THEME.ink,
             gap: int = 0) -> list[_Row]:
    from game.client.ui import wrap

    lines = wrap(text, font(size, bold), width)
    rows = [_Row(line, size, bold, colour) for line in lines]
    if rows:
        rows[-1].gap = gap
    return rows


def _rows(p: AttackPreview, width: int) -> list[_Row]:
    """The panel's rows for a preview: what, the TN and its lines, the context, the odds, the keys."""
    if not p.legal:
        return (_wrapped("Cannot attack", 18, width, bold=True, colour=THEME.badge_wounded, gap=2)
                + _wrapped(p.words, 14, width, bold=True, gap=4) + _wrapped(p.reason, 14, width, gap=2)
                + _wrapped(f"rule {p.rule}", 12, width, colour=THEME.dim_ink, gap=6)
                + [_Row("Esc to cancel", 12, colour=THEME.dim_ink)])
    rows = _wrapped(p.words, 16, width, bold=True, gap=6)
    if p.odds is None:  # legal, no exact odds: the reason, its rule, the keys
        return (rows + _wrapped(p.reason, 14, width, gap=2)
                + _wrapped(f"rule {p.rule}", 12, width, colour=THEME.dim_ink, gap=8)
                + [_Row(HINT, 13, True, colour=THEME.dim_ink)])
    if p.tn is None:
        rows.append(_Row("No roll: the template is placed", 14, gap=4, note="ARMORY-5.1.FLAME"))
    else:
        dice = f" on {p.dice} D10" if p.dice else ""
        rows.append(_Row(f"TN {p.tn.value}", 36, True, note=f"roll {p.tn.value} or less{dice}", gap=2))
        rows.append(_Row(f"  {p.tn.base.label}", 13, right=f"{p.tn.base.value}", right_size=14,
                         note=p.tn.base.rule))
        for mod in p.tn.mods:
            rows.append(_Row(f"  {mod.label}", 13, right=f"{mod.value:+d}", right_size=14, note=mod.rule))
        rows[-1].gap = 6
    rows += _context_rows(p, width)
    for c in p.chances:
        if c.key == "crit_success" and rows:
            rows[-1].gap = 6
        if c.expected:
            rows.append(_Row(c.label, 14, right=f"{c.value:.2f}", right_size=22))
        else:
            rows.append(_Row(c.label, 14, right=percent(c.value), right_size=22, bar=c.value,
                             bar_colour=_bar_colour(c.key)))
    if p.others:
        touched = ", ".join(f"{name} {percent(float(q))}" for name, q in p.others[:4])
        rows += _wrapped(f"also under the template: {touched}", 12, width, colour=THEME.dim_ink)
    rows[-1].gap = 8
    rows.append(_Row(HINT, 13, True, colour=THEME.dim_ink))
    return rows


def _parts(tn: TargetNumber) -> str:
    """A TN's breakdown after its "TN n =": the base, then each modifier signed."""
    return ", ".join([f"{tn.base.label} {tn.base.value}"] + [f"{m.label} {m.value:+d}" for m in tn.mods])


def _context_rows(p: AttackPreview, width: int) -> list[_Row]:
    """Distance, cover, obstructions, indirect fire, the save and the Will check, as small lines."""
    parts = []
    if p.distance is not None and p.kind != "melee":
        parts.append(f"distance {_inches(p.distance)}")
    if p.kind != "flame" and p.kind != "melee" or p.cover != "none":
        piece = f" (piece {p.cover_piece})" if p.cover_piece is not None and p.cover != "none" else ""
        parts.append(f"cover {p.cover}{piece}" + (", elevated" if p.elevated else ""))
    if p.obstructions:
        parts.append(f"{p.obstructions} obstruction(s)")
    if p.indirect is not None:
        parts.append("indirect: point in LOS" if p.indirect == "in_los" else "indirect: point not in LOS")
    rows = _wrapped(", ".join(parts), 12, width, colour=THEME.dim_ink) if parts else []
    if p.save is not None:
        dice = " (best of 2)" if p.save_dice > 1 else ""
        rows.append(_Row(f"save TN {p.save.value}{dice}", 12, colour=THEME.dim_ink, note=_parts(p.save)))
    if p.defender_tn is not None:
        rows.append(_Row(f"blow back TN {p.defender_tn.value}", 12, colour=THEME.dim_ink,
                         note=f"parry: {'A.I. (AI-D.12)' if p.parry_policy == 'ai' else 'as many as possible'}"))
    if p.will is not None:
        rows.append(_Row(f"Will TN {p.will.value}", 12, colour=THEME.dim_ink, note=_parts(p.will)))
    elif p.will_exempt and p.kind == "ranged":
        rows += _wrapped(f"no Will check: {p.will_exempt}", 12, width, colour=THEME.dim_ink)
    if rows:
        rows[-1].gap = 8
    return rows
