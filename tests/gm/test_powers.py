"""Powers in one place (rules.gm.powers): handlers keyed by the content's names, and the gap named.

Issue #13 plays every spell and prayer; until then the ones the GM cannot play are listed here and by
``blacksalt validate``.  The list only shrinks: a handler added must take its power off it, and a power added
to the content with no handler fails this test.
"""

from __future__ import annotations

from rules.content.registry import load_content
from rules.gm import combat, powers

CONTENT = load_content()

NOT_YET_PLAYED: list[str] = []


def test_every_handler_is_named_after_a_power_of_the_content() -> None:
    names = {("spell", s.name) for s in CONTENT.magic.spells} | {("prayer", p.name) for p in CONTENT.magic.prayers}
    assert set(powers.POWERS) <= names, sorted(set(powers.POWERS) - names)


def test_the_powers_the_gm_cannot_play_yet_are_exactly_the_known_ones() -> None:
    assert powers.unplayed(CONTENT) == NOT_YET_PLAYED


def test_the_basic_prayers_work_in_a_fight_and_out_of_one() -> None:
    for name in ("Cure Light Wounds", "Light", "Create food and water"):
        p = powers.handler("prayer", name)
        assert p is not None and p.outside is not None and p.fight is not None, name


def test_every_manoeuvre_is_one_handler_an_action_or_a_reaction() -> None:
    assert combat.start  # (importing the combat wires the manoeuvres)
    names = {m.name.lower() for b in CONTENT.classes.backgrounds for m in b.manoeuvres}
    assert names <= set(powers.MANOEUVRES)
    reactions = sorted(k for k, h in powers.MANOEUVRES.items() if h.reaction)
    assert reactions == ["aegis", "going somewhere?", "payback"]
    assert all(h.lists is not None and h.apply is not None for h in powers.MANOEUVRES.values() if not h.reaction)
