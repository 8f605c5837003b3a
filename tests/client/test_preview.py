"""The attack preview (issue 18 scope 4) on real states of Game One (Crossroads at Blyatsk, seed 1): its odds are
`attack_odds`' own, its TN is the TN `apply` then rolls against (COMBAT-4.1.MODIFIERS), an illegal attack shows the
reason `validate` gives, and the panel draws it."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from game.client.preview import AttackPreview
from game.core.actions import Action, Interrupt, MeleeAttack, RangedAttack, ThrowGrenade
from game.core.events import Event
from game.core.state import GameState, Phase

SHOTS = Path("/tmp")
MAX_STEPS = 400


@dataclass
class Found:
    """States of one played game (clones) where the acting unit may make each kind of attack, and the attack."""

    ranged: tuple[GameState, RangedAttack] | None = None
    melee: tuple[GameState, MeleeAttack] | None = None
    grenade: tuple[GameState, ThrowGrenade] | None = None
    idle: tuple[GameState, str] | None = None  # a state and a crew unit that is not acting now
    interrupt: tuple[GameState, Interrupt] | None = None  # a shot from Alert in an interrupt window
    steps: dict[str, int] = field(default_factory=dict)


def _attacks(st: GameState) -> Iterator[Action]:
    """Every shot, blow and grenade throw of the acting unit's model at every enemy model in play."""
    from game.ai.common import lead

    act = st.activation
    assert act is not None
    m = lead(st, act.unit)
    for e in st.models.values():
        if not e.in_play or e.side == m.side:
            continue
        for w in m.profile.weapons:
            yield RangedAttack(act.unit, e.id, w)
            yield MeleeAttack(act.unit, e.id, w)
        for g, n in sorted(m.grenades.items()):
            if n > 0:
                yield ThrowGrenade(act.unit, g, e.x, e.y)


def _alert_shots(st: GameState) -> Iterator[Interrupt]:
    """Every shot from Alert (CORE-3.3.ALERT) the deciding side's units could take in an interrupt window."""
    for u in st.units.values():
        if u.side != st.deciding or not st.unit_in_play(u.id):
            continue
        m = st.models[u.models[0]]
        for e in st.models.values():
            if e.in_play and e.side != m.side:
                for w in m.profile.weapons:
                    yield Interrupt(u.id, RangedAttack(u.id, e.id, w))


@pytest.fixture(scope="module")
def found() -> Found:
    """Game One seed 1 played by its agents (InlineDriver) until a legal shot, blow and grenade throw were met
    (each found with `game.ai.common.legal`, the engine's `validate`)."""
    from game.ai.common import legal
    from game.client.driver import InlineDriver
    from game.client.session import open_session
    from game.client.setup import GameSetup

    s = open_session(GameSetup(seed=1))
    d = InlineDriver(s)
    out = Found()
    for step in range(MAX_STEPS):
        st = s.state
        if st.phase is Phase.ACTION and st.activation is not None:
            for a in _attacks(st):
                kind = {RangedAttack: "ranged", MeleeAttack: "melee", ThrowGrenade: "grenade"}[type(a)]
                if getattr(out, kind) is None and legal(st, a):
                    setattr(out, kind, (st.clone(), a))
                    out.steps[kind] = step
            if out.idle is None:
                idle = [u for u in st.units.values() if u.side in s.crew_sides() and u.id != st.activation.unit
                        and st.unit_in_play(u.id)]
                if idle:
                    out.idle = (st.clone(), idle[0].id)
        if st.phase is Phase.INTERRUPT and out.interrupt is None:
            shot = next((x for x in _alert_shots(st) if legal(st, x)), None)
            if shot is not None:
                out.interrupt = (st.clone(), shot)
                out.steps["interrupt"] = step
        if out.ranged and out.melee and out.grenade and out.interrupt or s.over:
            break
        action = d.next_action()
        assert action is not None
        s.apply(action)
    assert out.ranged is not None, "Game One seed 1 never offered a legal shot"
    return out


def _rolls(state: GameState, action: Action) -> list[Event]:
    """The roll events `apply` emits for the action on a clone (the state's own seeded dice)."""
    from game.core.rules import apply

    st = state.clone()
    return [e for e in apply(st, action) if e.type == "roll"]


def _preview(state: GameState, action: Action) -> AttackPreview:
    from game.client.preview import attack_preview

    p = attack_preview(state, action)
    print(f"preview of {type(action).__name__}: {p.ms:.2f} ms")
    return p


# -- the numbers are the engine's ------------------------------------------------------------------------------
def test_ranged_odds_are_attack_odds(found: Found) -> None:
    """COMBAT-4.1.RANGED: the preview's odds object and every headline number are attack_odds' own, exactly."""
    from game.client.preview import AttackPreview
    from game.core.odds.actions import attack_odds

    assert found.ranged is not None
    st, a = found.ranged
    p = _preview(st, a)
    assert isinstance(p, AttackPreview) and p.legal, p
    odds = attack_odds(st, a)
    assert p.odds == odds
    r = odds.target_round
    assert p.chance("hit").exact == odds.attack_hits.at_least(1)
    assert p.chance("wounds").exact == r.expected_wounds
    assert p.chance("wounded").exact == r.p_wound
    assert p.chance("pinned").exact == r.p_any_pin
    assert p.chance("ooa").exact == r.p_ooa
    assert p.chance("crit_success").exact == odds.attacker_crit.p("success")
    assert p.chance("crit_failure").exact == odds.attacker_crit.p("failure")
    for c in p.chances:
        assert c.exact is not None and c.value == float(c.exact)
        assert c.expected or 0 <= c.value <= 1
    assert p.tn == odds.numbers.hit and p.dice == odds.numbers.dice
    assert p.save == odds.numbers.save and p.will == odds.numbers.will


def test_ranged_tn_is_the_rolled_tn(found: Found) -> None:
    """COMBAT-4.1.MODIFIERS: the TN shown is the TN the engine rolls the shot against (the first `roll` event of
    `apply` on a clone), its breakdown too, and base plus modifiers sum to it."""
    assert found.ranged is not None
    st, a = found.ranged
    p = _preview(st, a)
    first = _rolls(st, a)[0]
    assert p.tn is not None
    assert first.data["tn"] == p.tn.value
    assert first.data["breakdown"] == p.tn.breakdown()
    assert len(first.data["dice"]) == p.dice
    assert p.modifiers_sum == p.tn.value
    assert all(m.rule for m in (p.tn.base, *p.tn.mods))


def test_ranged_geometry_is_the_situation(found: Found) -> None:
    """GEO-4, GEO-12..14: distance, cover and obstructions are the resolver's situation (rules.attack.situation)
    and the cover query's; the `attack` event `apply` emits names the same ones."""
    from game.core.odds.facts import odds_ctx
    from game.core.rules.apply import apply
    from game.core.rules.attack import situation

    assert found.ranged is not None
    st, a = found.ranged
    p = _preview(st, a)
    ctx = odds_ctx(st)
    assert p.target is not None
    s = situation(ctx, st.models[p.attacker], st.models[p.target], melee=False)
    assert (p.distance, p.cover, p.obstructions) == (s.distance, s.cover.value, s.obstructions)
    ev = next(e for e in apply(st.clone(), a) if e.type == "attack")
    assert (ev.data["distance"], ev.data["cover"], ev.data["obstructions"]) == (p.distance, p.cover, p.obstructions)
    assert ev.data["attacker"] == p.attacker and ev.data["target"] == p.target
    if p.cover_fact is not None:
        assert p.cover_fact.obstruction_count == p.obstructions
        assert p.los is not None and p.los.visible
    assert p.words.startswith(f"{p.words.split()[0]} shoots ") and f'{p.distance:.1f}"' in p.words


def test_preview_is_fast(found: Found) -> None:
    """A preview (validate, odds, plan, LOS and cover) takes under 20 ms."""
    from game.client.preview import attack_preview

    assert found.ranged is not None
    st, a = found.ranged
    attack_preview(st, a)  # caches warm, as in play after the first hover
    best = min(_timed(lambda: attack_preview(st, a)) for _ in range(5))
    print(f"ranged preview: {best:.2f} ms")
    assert best < 20


def test_preview_adds_little_to_the_odds(found: Found) -> None:
    """Melee and template previews cost what their exact odds cost (melee_odds, template_odds: printed), plus
    under 20 ms of the preview's own (validate, the plan, the sight queries, the words)."""
    from game.client.preview import attack_preview

    items: list[tuple[GameState, Action]] = [x for x in (found.melee, found.grenade) if x is not None]
    for st, a in items:
        attack_preview(st, a)
        p = min((attack_preview(st, a) for _ in range(2)), key=lambda q: q.ms - q.odds_ms)
        print(f"{type(a).__name__} preview: {p.ms:.2f} ms, of which the odds {p.odds_ms:.2f} ms")
        assert 0 < p.odds_ms <= p.ms and p.ms - p.odds_ms < 20


def _timed(f: Callable[[], object]) -> float:
    t = time.perf_counter()
    f()
    return (time.perf_counter() - t) * 1000


# -- illegal attacks ---------------------------------------------------------------------------------------------
def p_attacker(st: GameState, a: RangedAttack) -> str:
    return st.units[a.unit].models[0]


def _validate_error(st: GameState, a: Action) -> tuple[str, str]:
    from game.core.actions import IllegalAction
    from game.core.rules import validate

    with pytest.raises(IllegalAction) as exc:
        validate(st, a)
    return exc.value.reason, exc.value.rule


def test_illegal_target_gives_the_validate_reason(found: Found) -> None:
    """COMBAT-4.1.REQUIREMENTS / GEO-5: an enemy the acting unit cannot shoot (out of LOS or range) gives
    legal=False with validate's reason and rule, and no odds."""
    from game.ai.common import legal

    assert found.ranged is not None
    st, a = found.ranged
    side = st.models[p_attacker(st, a)].side
    bad = next(RangedAttack(a.unit, e.id, a.weapon) for e in st.models.values()
               if e.in_play and e.side != side and not legal(st, RangedAttack(a.unit, e.id, a.weapon)))
    p = _preview(st, bad)
    assert not p.legal and p.odds is None and p.tn is None
    assert (p.reason, p.rule) == _validate_error(st, bad)


def test_unit_not_acting_gives_the_validate_reason(found: Found) -> None:
    """TURN-6: a crew unit that is not the acting one has no action to spend: legal=False, validate's reason."""
    assert found.idle is not None and found.ranged is not None
    st, uid = found.idle
    _, a = found.ranged
    act = RangedAttack(uid, a.target, a.weapon)
    p = _preview(st, act)
    assert not p.legal
    assert (p.reason, p.rule) == _validate_error(st, act)


def test_not_an_attack(found: Found) -> None:
    """Only attacks have a preview (CORE-3.3.ATTACK)."""
    from game.client.preview import attack_preview
    from game.core.actions import Aim

    assert found.ranged is not None
    st, a = found.ranged
    p = attack_preview(st, Aim(a.unit))
    assert not p.legal and p.rule == "CORE-3.3.ATTACK"


# -- melee and grenades ------------------------------------------------------------------------------------------
def test_melee_preview(found: Found) -> None:
    """COMBAT-4.2.SIMULTANEOUS: models in base contact: the odds are melee_odds', the attacker's TN and the
    defender's are the two TNs `apply` rolls, in that order."""
    from game.core.odds.actions import attack_odds

    if found.melee is None:
        pytest.skip(f"Game One seed 1 reached no base contact in {MAX_STEPS} decisions")
    st, a = found.melee
    p = _preview(st, a)
    assert p.legal and p.kind == "melee", p
    odds = attack_odds(st, a)
    assert p.odds == odds
    out = odds.outcomes[p.parry_policy]
    assert p.chance("ooa").exact == out.p_defender_ooa
    assert p.chance("wounded").exact == out.wounds_to_defender.at_least(1)
    assert p.chance("attacker_ooa").exact == out.p_attacker_ooa
    rolls = _rolls(st, a)
    assert p.tn is not None and p.defender_tn is not None
    assert rolls[0].data["tn"] == p.tn.value and rolls[0].data["breakdown"] == p.tn.breakdown()
    assert rolls[-1].data["tn"] == p.defender_tn.value
    assert p.modifiers_sum == p.tn.value


def test_grenade_preview(found: Found) -> None:
    """GAP-70: a thrown grenade: P(the throw hits) is template_odds' exact p_hit and the TN is the throw's die."""
    from game.core.odds.actions import attack_odds

    if found.grenade is None:
        pytest.skip(f"Game One seed 1 offered no legal grenade throw in {MAX_STEPS} decisions")
    st, a = found.grenade
    p = _preview(st, a)
    assert p.legal and p.kind == "template", p
    odds = attack_odds(st, a)
    assert p.odds == odds and p.chance("hit").exact == odds.p_hit
    assert p.tn is not None and p.tn == odds.tn
    assert _rolls(st, a)[0].data["tn"] == p.tn.value
    assert p.modifiers_sum == p.tn.value


def test_shot_from_alert(found: Found) -> None:
    """CORE-3.3.ALERT / TURN-7: a shot from Alert, wrapped in its Interrupt, is previewed in the "alert" context
    (no Aim of its own activation): the odds are attack_odds' in that context, the TN the one `apply` rolls."""
    from game.core.odds.actions import attack_odds

    if found.interrupt is None:
        pytest.skip(f"Game One seed 1 opened no interrupt window with a legal shot in {MAX_STEPS} decisions")
    st, a = found.interrupt
    p = _preview(st, a)
    assert p.legal and p.kind == "ranged", p
    assert isinstance(a.action, RangedAttack)
    assert p.odds == attack_odds(st, a.action, context="alert")
    assert p.tn is not None and _rolls(st, a)[0].data["tn"] == p.tn.value


def test_percent_doctest() -> None:
    """The panel's percentages never round to a false 0% or 100% (the doctest of `percent`)."""
    import doctest

    import game.client.preview as preview

    result = doctest.testmod(preview)
    assert result.attempted >= 1 and result.failed == 0


# -- the panel ---------------------------------------------------------------------------------------------------
def test_panel_draws(app: object, found: Found) -> None:
    """The panel at 1280x720: the attack in words, the TN and every modifier line, the percentages, the keys;
    an illegal one shows its reason and rule; the picture is cached until the preview changes."""
    import pygame

    from game.client.preview import PreviewPanel, attack_preview, percent
    from game.client.widget import Shared, Widget

    assert found.ranged is not None
    st, a = found.ranged
    p = attack_preview(st, a)
    screen = pygame.display.get_surface()
    assert screen is not None
    assert screen.get_size() == (1280, 720)
    screen.fill((58, 64, 50))
    panel = PreviewPanel(Shared())
    widget: Widget = panel  # the battle screen composes it like its other panels (mypy checks the protocol)
    assert not widget.busy and not widget.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN))
    panel.layout(pygame.Rect(860, 60, 400, 640))
    panel.show(p)
    panel.draw(screen)
    lines = panel.lines()
    text = "\n".join(lines)
    assert p.tn is not None
    assert f"TN {p.tn.value}" in text
    for m in p.tn.mods:
        assert any(m.label in line and f"{m.value:+d}" in line and m.rule in line for line in lines), m
    for c in p.chances:
        shown = f"{c.value:.2f}" if c.expected else percent(c.value)
        assert any(c.label in line and shown in line for line in lines), c
    assert "Enter to fire, Esc to cancel" in text
    assert p.words.split()[0] in text
    renders = panel.renders
    panel.show(attack_preview(st, a))  # an equal preview: the cached picture stays
    panel.draw(screen)
    assert panel.renders == renders
    rect = panel.panel_rect
    assert rect is not None and screen.get_rect().contains(rect)

    bad = attack_preview(st, RangedAttack(a.unit, a.target, "no_such_weapon"))
    other = PreviewPanel(Shared())
    other.layout(pygame.Rect(20, 60, 400, 300))
    other.show(bad)
    other.draw(screen)
    assert not bad.legal and any(bad.rule in line for line in other.lines())
    assert other.renders == 1
    pygame.image.save(screen, str(SHOTS / "zona-preview-panel.png"))
    panel.feed([_rolls(st, a)[0]], st)  # an applied action: the preview belongs to the state before it
    assert panel.preview is None
    panel.show(p)
    panel.show(None)
    assert panel.lines() == [] and panel.panel_rect is None


def test_panel_melee_and_grenade(app: object, found: Found) -> None:
    """The melee and grenade previews draw too (their TN and chances are in the lines)."""
    import pygame

    from game.client.preview import PreviewPanel, attack_preview
    from game.client.widget import Shared

    screen = pygame.display.get_surface()
    assert screen is not None
    screen.fill((58, 64, 50))
    x = 20
    for item in (found.melee, found.grenade):
        if item is None:
            continue
        st, a = item
        p = attack_preview(st, a)
        panel = PreviewPanel(Shared())
        panel.layout(pygame.Rect(x, 20, 400, 680))
        panel.show(p)
        panel.draw(screen)
        assert p.tn is not None and f"TN {p.tn.value}" in "\n".join(panel.lines())
        x += 420
    pygame.image.save(screen, str(SHOTS / "zona-preview-others.png"))


# -- tiny tables from RULES.md's test values -----------------------------------------------------------------------
def test_tv03_cover_and_obstruction_on_the_panel(app: object) -> None:
    """TV-03: CA 6 AK over a hedge at a Ghoul in contact with a stone wall: TN 4 = CA 6, 1 obstruction -1
    (CORE-3.6.OBSTRUCTION), Hard cover -1 (CORE-3.6.TABLE); save 4, Will 8; the cover piece and the obstruction
    are the cover query's; the panel prints each modifier with its rule."""
    from game.client.preview import PreviewPanel, attack_preview
    from game.client.widget import Shared
    from tests.core.rules.test_combat import HEDGE, WALL
    from tests.enginekit import activate, game, profile

    st = game([("raven", "a", profile(ca=6, weapons=("assault_rifle",)), (10, 11)),
               ("ghoul", "b", profile(ca=5, armor=4, will=6, creature=True), (20.55, 11))],
              pieces=(HEDGE, WALL))
    activate(st, "raven")
    p = attack_preview(st, RangedAttack("raven", "ghoul", "assault_rifle"))
    assert p.legal, p
    assert p.tn is not None and p.save is not None and p.will is not None
    assert (p.tn.value, p.save.value, p.will.value) == (4, 4, 8)
    assert (p.cover, p.cover_piece, p.obstructions, p.obstruction_pieces) == ("hard", WALL.id, 1, (HEDGE.id,))
    assert ["1 obstruction(s)", -1, "CORE-3.6.OBSTRUCTION"] in p.tn.breakdown()
    assert ["Hard cover", -1, "CORE-3.6.TABLE"] in p.tn.breakdown()
    assert p.los is not None and p.los.visible and len(p.los.rays) == 20
    panel = PreviewPanel(Shared())
    import pygame

    panel.layout(pygame.Rect(0, 0, 400, 700))
    panel.show(p)
    lines = panel.lines()
    assert any("Hard cover" in x and "-1" in x and "CORE-3.6.TABLE" in x for x in lines)
    assert any("cover hard (piece 2)" in x and "1 obstruction(s)" in x for x in lines)


def test_tv33_flame_has_no_roll(app: object) -> None:
    """TV-33 (ARMORY-5.1.FLAME, GAP-73 `flame.auto_hit`): the flame places its template with no roll: no TN, the
    template hits for sure, and the civilian target goes Out of Action with 0.8 exactly."""
    from fractions import Fraction

    from game.client.preview import PreviewPanel, attack_preview, model_words
    from game.client.widget import Shared
    from game.core.actions import FlameAttack
    from tests.enginekit import activate, game, profile

    st = game([("a1", "a", profile(ca=5, weapons=("flame_thrower",)), (10, 11)),
               ("b1", "b", profile(armor=5), (15.0, 11)),
               ("lead", "b", profile(armor=6, wounds=2, actions=3, armour="military"), (16.5, 12.4))])
    activate(st, "a1")
    p = attack_preview(st, FlameAttack("a1", "flame_thrower", 0.0))
    assert p.legal and p.kind == "flame" and p.tn is None and p.dice == 0, p
    assert p.target == "b1" and p.chance("hit").exact == 1
    assert p.chance("ooa").exact == Fraction(8, 10)
    assert [name for name, _ in p.others] == [model_words(st, "lead")]
    panel = PreviewPanel(Shared())
    panel.show(p)
    assert any("No roll" in x for x in panel.lines())


def test_blow_on_a_model_out_of_action(app: object) -> None:
    """GAP-93 (`ooa.targetable`): a blow on a model Out of Action in base contact is legal and automatic: the
    preview is legal with no odds, the odds' reason and rule, and the panel says so with the keys."""
    from game.client.preview import PreviewPanel, attack_preview
    from game.client.widget import Shared
    from tests.enginekit import activate, game, profile

    st = game([("a1", "a", profile(ca=5, weapons=("knife",)), (10, 11)),
               ("b1", "b", profile(armor=5, weapons=("knife",)), (11.0, 11))])
    activate(st, "a1")
    p = attack_preview(st, MeleeAttack("a1", "b1", "knife"))
    assert p.legal and p.odds is not None and p.tn is not None
    assert _rolls(st, MeleeAttack("a1", "b1", "knife"))[0].data["tn"] == p.tn.value
    st.models["b1"].ooa = True
    p = attack_preview(st, MeleeAttack("a1", "b1", "knife"))
    assert p.legal and p.odds is None and p.rule == "GAP-93" and p.kind == "melee"
    panel = PreviewPanel(Shared())
    panel.show(p)
    lines = panel.lines()
    assert any("GAP-93" in x for x in lines) and "Enter to fire, Esc to cancel" in lines
