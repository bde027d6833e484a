"""Playtest 13a (seed 110, an alchemist and a cleric of Akhzu): powers that misbehaved in play, scripted."""

from __future__ import annotations

from rules.attributes import ATTRS
from rules.gm import combat_core as core
from rules.gm import exploration, powers
from rules.inventory import Carried
from tests.gm.scripted import corridor, game
from tests.gm.test_combat import answered, cleric, cs_of, healer_and_ally
from tests.gm.test_fight_powers import listed, one_on_one, wizard
from tests.gm.test_outside_powers import caster, offered


def _wounds(gm, f) -> int:  # type: ignore[no-untyped-def]
    ch = gm.c.member(f.id).adv.character
    return sum(ch.attrs[a].wounds for a in ATTRS)


def test_prayer_of_winter_cannot_harm_an_ally_in_smoke_form() -> None:
    """Seed 110, the Lazaretto: the alchemist cast Smoke form ("cannot be harmed while in smoke form"), then the
    cleric's Prayer of Winter gave him a wound all the same (it wounded the party past the fight's own harm)."""
    gm, fa, fb = healer_and_ally(7)
    cleric(gm, gm.c.member(fa.id), "Prayer of Winter")
    cs = cs_of(gm)
    core.put(cs, fb, "Smoke form", 2)
    events = answered(gm, fa, "Prayer of Winter")
    assert _wounds(gm, fb) == 0
    assert _wounds(gm, fa) == 1
    assert any(e.kind == "immune" and e.data["who"] == fb.id for e in events)  # type: ignore[attr-defined]


def test_machine_spirit_is_greyed_with_no_broken_metal_armour() -> None:
    """Seed 110, room 1 of the Lazaretto: Machine spirit was offered out of a fight with nothing to fix, and the
    cast spent the exploration turn to say "nothing to fix"; in a fight it was offered on every ally."""
    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    who = caster(gm, spell="Machine spirit")
    assert offered(gm, f"cast:{who}:Machine spirit").reason == "No one wears broken metal armour."  # type: ignore[attr-defined]
    gm.c.party[1].adv.inventory.add(Carried("Chainmail", "", equipped=True, ap=[0]))
    assert offered(gm, f"cast:{who}:Machine spirit").available  # type: ignore[attr-defined]
    gm.apply(f"cast:{who}:Machine spirit")  # the GM-decides player: the one whose armour is broken
    mail = next(i for i in gm.c.party[1].adv.inventory.items if i.name == "Chainmail")
    assert mail.ap and mail.ap[0] > 0

    gm2, _cs, f, _e = one_on_one("Hobgoblin")
    wizard(gm2, f, "Machine spirit")
    act = listed(gm2)[f"cast:{f.id}:Machine spirit:{f.id}"]
    assert not act.available and act.reason == "No one wears broken metal armour."  # type: ignore[attr-defined]
    gm2.c.member(f.id).adv.inventory.add(Carried("Chainmail", "", equipped=True, ap=[0]))
    assert listed(gm2)[f"cast:{f.id}:Machine spirit:{f.id}"].available  # type: ignore[attr-defined]


def test_prayer_of_summer_is_greyed_out_of_a_fight_with_no_armour_broken() -> None:
    """Seed 110: after Prayer of Summer had mended the warrior's padded armour, the prayer was offered again (as a
    desperate plea) with nothing left to mend."""
    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    who = caster(gm, prayer="Prayer of Summer")
    assert offered(gm, f"pray:{who}:Prayer of Summer").reason == "No one's armour is broken."  # type: ignore[attr-defined]
    gm.c.party[1].adv.inventory.add(Carried("Padded armor", "", equipped=True, ap=[0]))
    assert offered(gm, f"pray:{who}:Prayer of Summer").available  # type: ignore[attr-defined]
    assert powers.broken_armour(gm, gm.c.party[1]) == 2  # Padded armor: AP 2, both lost
