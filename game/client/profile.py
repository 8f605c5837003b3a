"""The profile card of the selected model: its stat line, weapons with their Range, FP and Damage, ammunition and
weapons to reload, grenades, items, skills, the unit's tokens and, for the acting unit, the actions left.

Everything is read from the state the card was fed and the catalog the game was built with; the few numbers a rule
changes (CA and Will of a wounded multi-wound model, a hostile's own FP and Damage, the actions left) come from the
core's own functions.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from game.client.theme import THEME, font, side_colour
from game.client.widget import Static, opaque

if TYPE_CHECKING:
    import pygame

    from game.client.widget import Shared
    from game.core.catalog import Catalog, Weapon, WeaponProfile
    from game.core.events import Event
    from game.core.state import GameState, ModelState
    from game.render.style import Colour

__all__ = ["ProfileCard", "profile_rows", "range_text"]

CARD_W = 300
NBSP = "\u00a0"
PAD = 10
STRIPE = 5
Row = tuple[str, str]  # (style, text); style: a key of STYLES ("warn": Wounds, the wounded colour)
STYLES: dict[str, tuple[int, bool, str, int]] = {  # font size, bold, colour name in THEME, indent
    "title": (15, True, "ink", 0), "sub": (12, False, "dim_ink", 0), "stats": (13, True, "ink", 0),
    "head": (12, True, "dim_ink", 0), "body": (12, False, "ink", 0), "warn": (12, True, "badge_wounded", 0),
    "dim": (12, False, "dim_ink", 0), "need": (12, True, "ink", 0), "weapon": (12, False, "dim_ink", 12),
}


def range_text(p: WeaponProfile) -> str:
    """A weapon profile's Range as the book writes it (VITALS-2.2.RANGE): "1-36\"", "Melee", "M-12\"", or the
    template for a weapon with no range."""
    if p.range_max is None:
        if p.melee_capable:
            return "Melee"
        return p.template.value.upper() if p.template is not None else "-"
    lo = "M" if p.melee_capable else f"{p.range_min:g}"
    return f"{lo}-{p.range_max:g}\""


def _damage_text(p: WeaponProfile) -> str:
    if p.far_damage is not None and p.near_max is not None:  # a shotgun's Damage falls off (GAP-07)
        return _glued(f"{p.damage} ({p.far_damage} beyond {p.near_max:g}\")")
    return str(p.damage)


def _weapon_rows(m: ModelState, w: Weapon) -> list[Row]:
    """A weapon: its catalog name, each profile's Range, FP and Damage (a hostile's own numbers, HOSTILE-8.3.STATS),
    its ammunition left (ARMORY-5.1.SR-LIMITED, GAP-67) and whether it must Reload (ARMORY-5.1.SR-RELOAD)."""
    from game.core.catalog import Special
    from game.core.rules.attack import model_profile

    notes = []
    left = m.ammo.get(w.id, w.ammo or 0)  # as check_ammo counts the rounds
    if Special.LIMITED_AMMO in w.specials:
        notes.append(f"ammo {left}/{w.ammo or 0}")
    if w.id in m.unloaded:
        notes.append("must Reload")
    head = w.name + (f" - {', '.join(notes)}" if notes else "")
    stuck = w.id in m.unloaded or (Special.LIMITED_AMMO in w.specials and left <= 0)
    rows: list[Row] = [("need" if stuck else "body", head)]
    for p in w.profiles:
        q = model_profile(m, w, p)
        name = f"{q.name}: " if len(w.profiles) > 1 else ""
        fp = "-" if q.fp is None else str(q.fp)
        tpl = f", {q.template.value.upper()}" if q.template is not None and q.range_max is not None else ""
        rows.append(("weapon", f"{name}Range {range_text(q)}  FP {fp}  Damage {_damage_text(q)}{tpl}"))
    return rows


def _glued(text: str) -> str:
    """One name kept on one line when the card wraps (no-break spaces)."""
    return text.replace(" ", NBSP)


def _wrap(text: str, f: pygame.font.Font, width: int) -> list[str]:
    """Wrap at plain spaces only (a name glued with no-break spaces stays whole; double spaces are kept)."""
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and f.size(trial)[0] > width:
            out.append(line)
            line = word
        else:
            line = trial
    return [*out, line]


def _names(ids: Sequence[str], lookup: object) -> list[str]:
    out = []
    for i in ids:
        try:
            out.append(str(lookup(i).name))  # type: ignore[operator]
        except KeyError:
            out.append(i.replace("_", " "))
    return out


def profile_rows(state: GameState, model_id: str, cat: Catalog) -> list[Row]:
    """The card's rows for one model (VITALS-2.1 stat line, VITALS-2.2 weapons, INTRO-1.3.TOKENS)."""
    from game.client.strip import side_name
    from game.core.rules.flow import remaining
    from game.core.rules.stats import effective_ca, effective_will

    m = state.models[model_id]
    p = m.profile
    u = state.units.get(m.unit)
    try:
        level = cat.level(p.experience).name
    except KeyError:
        level = p.experience.replace("_", " ").capitalize()
    try:
        armour = cat.armour(p.armour).name
    except KeyError:
        armour = p.armour.replace("_", " ")
    try:
        side = side_name(state, m.side)
    except KeyError:
        side = m.side
    rows: list[Row] = [("title", p.name), ("sub", f"{side}; {level}" + ("; Leader" if p.leader else ""))]
    ca, will = effective_ca(m).value, effective_will(m)  # halved CA, -1 Will when wounded (COMBAT-4.4)
    ca_text = f"CA {ca}" + (f" (of {p.ca})" if ca != p.ca else "")
    will_text = "Will NA" if will is None else f"Will {will}" + (f" (of {p.will})" if will != p.will else "")
    rows.append(("stats", f"Move {p.move:g}\"  {ca_text}  Armor {p.armor}  {will_text}"))
    state_bits = [f"Wounds {m.wounds_taken}/{p.wounds}"]
    state_bits += [w for w, on in (("Out of Action", m.ooa), ("Dead", m.dead), ("Prone", m.prone)) if on]
    rows.append(("warn" if m.wounds_taken or m.ooa or m.dead else "body", ", ".join(state_bits)))
    rows.append(("dim", f"Armour: {armour}"))
    tokens = []
    if u is not None:
        tokens += [f"Pins {u.pins}"] if u.pins else []
        tokens += ["Alert"] if u.alert else []
        tokens += ["Activated"] if u.activated else []
    if u is not None and len(u.models) > 1:  # a pack acts as one (INTRO-1.2.UNIT)
        left = sum(1 for mid in u.models if state.models[mid].in_play)
        tokens.insert(0, f"unit of {len(u.models)}, {left} in play")
    rows.append(("body" if tokens else "dim", ", ".join(tokens) if tokens else "no tokens"))
    act = state.activation
    if act is not None and act.unit == m.unit:
        left = remaining(act)  # TURN-6: the budget of this stage
        stage = " (critical bonus)" if act.stage == "bonus" else f" of {act.budget}"
        rows.append(("need", f"Actions left {left}{stage}" + ("; Aim pending" if act.aim else "")))
    rows.append(("head", "WEAPONS"))
    for wid in p.weapons:
        try:
            rows += _weapon_rows(m, cat.weapon(wid))
        except KeyError:
            rows.append(("body", wid.replace("_", " ")))
    if m.grenades:
        names = dict(zip(m.grenades, _names(list(m.grenades), cat.grenade), strict=True))
        rows.append(("body", "Grenades: " + ", ".join(_glued(f"{names[g]} x{n}") for g, n in m.grenades.items())))
    if m.items:
        rows.append(("body", "Items: " + ", ".join(_glued(n) for n in _names(m.items, cat.equipment))))
    if p.skills:
        rows.append(("body", "Skills: " + ", ".join(_glued(n) for n in _names(p.skills, cat.skill))))
    return rows


class ProfileCard(Static):
    """The selected model's card (Widget): `show(model_id)` picks the model (None hides the card); it is drawn
    from the state given to `feed`, at the top-left of the layout rectangle, as wide as it, as tall as its rows
    (cut at the rectangle's bottom), with the side's colour down its left edge. Cached until its text changes."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.model: str | None = None
        self.state: GameState | None = None
        self.rect: pygame.Rect | None = None
        self._cat: tuple[object, Catalog] | None = None
        self._rows: list[Row] = []
        self._img: pygame.Surface | None = None
        self._img_key: tuple[object, ...] = ()
        self.renders = 0

    def show(self, model_id: str | None) -> None:
        self.model = model_id
        self._refresh()

    def lines(self) -> list[str]:
        """The card's text, row by row (before wrapping)."""
        return [t.replace(NBSP, " ") for _, t in self._rows]

    # -- the Widget protocol ------------------------------------------------------------------------------------
    def layout(self, rect: pygame.Rect) -> None:
        import pygame

        self.rect = pygame.Rect(rect)

    def feed(self, events: Sequence[Event], state: GameState) -> None:
        self.state = state
        self._refresh()

    def draw(self, surface: pygame.Surface) -> None:
        if self.rect is None or not self._rows:
            return
        key = (tuple(self._rows), self.rect.size, self._stripe())
        if self._img is None or key != self._img_key:
            self._img, self._img_key = self._render(), key
            self.renders += 1
        surface.blit(self._img, self.rect.topleft)

    # -- inside -------------------------------------------------------------------------------------------------
    def _catalog(self, state: GameState) -> Catalog:
        from game.core.catalog import load_catalog
        from game.core.settings import Settings

        key = tuple(sorted((k, repr(v)) for k, v in state.settings.items()))
        if self._cat is None or self._cat[0] != key:
            self._cat = (key, load_catalog(Settings(dict(state.settings))))
        return self._cat[1]

    def _refresh(self) -> None:
        st = self.state
        if st is None or self.model is None or self.model not in st.models:
            self._rows = []
            return
        self._rows = profile_rows(st, self.model, self._catalog(st))

    def _stripe(self) -> Colour:
        st = self.state
        if st is None or self.model is None or self.model not in st.models:
            return THEME.panel_edge
        return side_colour(self.shared.side_index(st.models[self.model].side))

    def _render(self) -> pygame.Surface:
        import pygame

        assert self.rect is not None
        w = self.rect.w
        room = w - 2 * PAD - STRIPE
        drawn: list[tuple[pygame.Surface, int, int]] = []
        for style, text in self._rows:
            size, bold, colour, indent = STYLES[style]
            f = font(size, bold)
            ink: Colour = getattr(THEME, colour)
            gap = 6 if style == "head" else 0
            for j, line in enumerate(_wrap(text, f, room - indent)):
                drawn.append((f.render(line, True, ink), indent, gap if j == 0 else 0))
        h = 2 * PAD + sum(s.get_height() + g for s, _, g in drawn)
        h = min(h, self.rect.h)
        img = opaque((w, h))
        img.fill(THEME.panel)
        pygame.draw.rect(img, THEME.panel_edge, img.get_rect(), 1)
        pygame.draw.rect(img, self._stripe(), (0, 0, STRIPE, h))
        y = PAD
        for s, indent, g in drawn:
            y += g
            if y + s.get_height() > h - PAD // 2:
                img.blit(font(12).render("...", True, THEME.dim_ink), (PAD + STRIPE, h - PAD - 8))
                break
            img.blit(s, (PAD + STRIPE + indent, y))
            y += s.get_height()
        return img
