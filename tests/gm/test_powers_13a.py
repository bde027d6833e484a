"""Playtest 13a (seed 110, an alchemist and a cleric of Akhzu): powers that misbehaved in play, scripted."""

from __future__ import annotations

from rules.attributes import ATTRS
from rules.gm import combat_core as core
from rules.gm import exploration, powers
from rules.inventory import Carried
from tests.gm.scripted import corridor, game
from tests.gm.test_combat import answered, cleric, cs_of, healer_and_ally, put
from tests.gm.test_fight_powers import cast, end_round, listed, one_on_one, wizard
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


def test_smoke_forms_two_actions_are_for_moving_only() -> None:
    """Seed 110, the Lazaretto: Smoke form (1 action) topped the alchemist's actions up to its "one combat turn
    (2 actions)" of moving, and he spent them on Silver cannon: the spell cost nothing and made him untouchable
    while he shot (RULINGS R245)."""
    gm, _cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Smoke form", "Silver cannon")
    gm.c.member(f.id).adv.character.attrs[ATTRS[2]].score = 3  # INT 3: both spells memorised
    put(gm, e, 9, 1)
    cast(gm, f, "Smoke form", f.id)
    assert f.actions == 2
    acts = listed(gm)
    shot = acts[f"cast:{f.id}:Silver cannon"]
    assert not shot.available and shot.reason == "Smoke: only moving until the form ends."  # type: ignore[attr-defined]
    assert any(a.kind == "move" and a.available for a in gm.legal_actions() if a.who == f.id)
    assert acts[f"end:{f.id}"].available  # type: ignore[attr-defined]


def test_a_fast_wizards_smoke_ends_before_their_next_turn() -> None:
    """The smoke lasted the caster's next turn as well (RULINGS R193 says it ends as that turn begins): with
    moving the only thing smoke can do, the wizard would have lost the turn after to it."""
    gm, cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Smoke form")
    put(gm, e, 12, 1)
    cast(gm, f, "Smoke form", f.id)
    assert core.lasting(cs, f, "Smoke form") and cs.phase == "fast"
    end_round(gm, f)
    assert cs.round == 2 and not core.lasting(cs, f, "Smoke form")


def test_enemies_do_not_strike_at_the_smoke() -> None:
    """Seed 110, the Lazaretto, round 2: the plagued rats bit at the alchemist in smoke; he rolled STR to defend
    and took the defence's fatigue, though nothing could harm him (the arcane prison is passed over already)."""
    gm, _cs, f, e = one_on_one("Hobgoblin")
    wizard(gm, f, "Smoke form")
    put(gm, e, 7, 1)  # Close
    cast(gm, f, "Smoke form", f.id)
    ch = gm.c.member(f.id).adv.character
    before = {a: (ch.attrs[a].fatigue, ch.attrs[a].wounds) for a in ATTRS}
    mark = len(gm.events)
    end_round(gm, f)
    assert not [ev for ev in gm.events[mark:] if ev.kind == "test" and ev.data.get("who") == f.id]
    assert {a: (ch.attrs[a].fatigue, ch.attrs[a].wounds) for a in ATTRS} == before


def test_a_potion_of_giants_is_offered_to_one_whose_strength_is_tired() -> None:
    """Seed 110, the Lazaretto: the alchemist brewed a potion of giants ("Heals all strength wounds and fatigue")
    for the warrior, STR fatigue 2 and hungry; out of a fight it was offered only to the cleric (STR wounds), not
    to him: the listing counted healing, not fatigue restored (the fight's listing counted both)."""
    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    a, b = gm.c.party[0], gm.c.party[1]
    a.adv.inventory.add(Carried("Potion of giants", "", usage=4))
    ch = b.adv.character
    ch.attrs[ATTRS[0]].fatigue = 2
    ch.afflictions.add("hungry")
    key = f"use:{a.id}:Potion of giants:{b.id}"
    assert key in {x.id for x in gm.legal_actions() if x.available}
    gm.apply(key)
    assert ch.attrs[ATTRS[0]].fatigue == 0


def test_a_potion_of_giants_restores_strength_fatigue_only() -> None:
    """"Heals all strength wounds and fatigue": the recipe's fatigue_attr (STR) was ignored and the potion took
    the fatigue off every attribute."""
    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    a, b = gm.c.party[0], gm.c.party[1]
    a.adv.inventory.add(Carried("Potion of giants", "", usage=4))
    ch = b.adv.character
    ch.attrs[ATTRS[0]].fatigue = 2
    ch.attrs[ATTRS[1]].fatigue = 1
    gm.apply(f"use:{a.id}:Potion of giants:{b.id}")
    assert (ch.attrs[ATTRS[0]].fatigue, ch.attrs[ATTRS[1]].fatigue) == (0, 1)
