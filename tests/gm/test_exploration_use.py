"""Items, spells and prayers in exploration."""

from __future__ import annotations

from random import Random

import pytest

from rules.attributes import Attr
from rules.content.registry import load_content
from rules.creation import random_adventurer
from rules.gm import exploration
from rules.gm.state import Phase
from rules.inventory import Carried
from rules.magic import Spellbook
from tests.gm.scripted import corridor, game


def test_bandages_are_quick_and_stop_bleeding() -> None:
    gm = game(corridor())
    exploration.enter(gm, "test-site")
    a, b = gm.c.party
    a.adv.inventory.add(Carried("Bandages", "", count=1, rarity="common"))
    b.adv.character.add_affliction("bleeding")
    use = next(x for x in gm.legal_actions() if x.kind == "use_item" and x.param("item") == "Bandages")
    assert use.cost.turns == 0 and use.target == b.id
    turns = gm.c.expedition.turns if gm.c.expedition else 0
    gm.apply(use)
    assert "bleeding" not in b.adv.character.afflictions
    assert not any(i.name == "Bandages" for i in a.adv.inventory.items)
    assert gm.c.expedition is not None and gm.c.expedition.turns == turns


def test_no_use_when_no_one_needs_it() -> None:
    gm = game(corridor())
    exploration.enter(gm, "test-site")
    gm.c.party[0].adv.inventory.add(Carried("Bandages", "", count=1, rarity="common"))
    assert not any(x.kind == "use_item" for x in gm.legal_actions())


def cleric(seed: int):  # type: ignore[no-untyped-def]
    class Pick:
        def __init__(self, rng: Random) -> None:
            self.rng = rng

        def lifepath_reroll(self, adv, table, dice):  # type: ignore[no-untyped-def]
            return None

        def attribute(self, adv, purpose, options):  # type: ignore[no-untyped-def]
            return Attr.PRE if Attr.PRE in options else options[0]

        def pick(self, adv, what, options, count=1):  # type: ignore[no-untyped-def]
            if what == "prayers":
                return ["Cure Light Wounds", *[o for o in options if o != "Cure Light Wounds"]][:count]
            return options[:count]

    return random_adventurer(load_content(), Random(seed), klass="Cleric", chooser=Pick(Random(seed)))


def test_cure_light_wounds_heals_two() -> None:
    for seed in range(30):
        adv = cleric(seed)
        gm = game(corridor(), seed=seed, party=2, adventurers=[adv])
        exploration.enter(gm, "test-site")
        priest = next(m for m in gm.c.party if m.adv is adv)
        other = next(m for m in gm.c.party if m is not priest)
        other.adv.character.attrs[Attr.STR].score = 3
        other.adv.character.add_wounds(2, forced=Attr.STR)
        pray = next((x for x in gm.legal_actions() if x.id == f"pray:{priest.id}:Cure Light Wounds"), None)
        if pray is None or not pray.available:
            continue
        events = gm.apply(pray)
        if any(e.kind == "heal" for e in events):
            assert other.adv.character.attrs[Attr.STR].wounds == 0
            assert "Cure Light Wounds" in priest.adv.prayers.exhausted  # type: ignore[union-attr]
            return
    raise AssertionError("no seed gave an answered prayer")


def test_a_spent_action_list_stays_consistent_after_casting() -> None:
    content = load_content()
    wizard = random_adventurer(content, Random(4), klass="Wizard")
    gm = game(corridor(), seed=4, party=2, adventurers=[wizard])
    exploration.enter(gm, "test-site")
    wizard.spellbook.memorised.append("Light")  # (a spell that works out of a fight)
    casts = [x for x in gm.legal_actions() if x.kind == "cast" and x.available]
    assert casts, "a wizard has spells to cast"
    gm.apply(casts[0])
    assert gm.c.phase in (Phase.EXPLORATION, Phase.COMBAT, Phase.OVER)
    assert gm.c.expedition is None or gm.c.expedition.turns >= 1


def test_out_of_a_fight_a_fight_only_spell_says_so_and_an_unplayed_power_is_not_offered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rules.gm import powers
    from rules.magic import Prayers

    gm = game(corridor(), seed=4, party=1)
    exploration.enter(gm, "test-site")
    m = gm.c.party[0]
    m.adv.character.traits += ["Magic user", "Divine mandate"]
    m.adv.spellbook = Spellbook(known=["Glue"], memorised=["Glue"])
    m.adv.prayers = Prayers(memorised=["Eyes of the forest"])
    listed = {a.id: a for a in gm.legal_actions() if a.kind in ("cast", "pray")}
    assert listed[f"cast:{m.id}:Glue"].reason == "Works only in a fight."
    assert f"pray:{m.id}:Eyes of the forest" in listed  # played since #13 (RULINGS R202)
    monkeypatch.delitem(powers.POWERS, ("prayer", "Eyes of the forest"))  # a power with no handler...
    listed = {a.id: a for a in gm.legal_actions() if a.kind in ("cast", "pray")}
    assert f"pray:{m.id}:Eyes of the forest" not in listed  # ...is never offered as a no-op


def test_out_of_a_fight_the_seasons_and_martyrdom_play_on_the_party() -> None:
    """Prayer of Spring heals one wound of each adventurer; Martyr wounds the cleric and frees the others of
    bleeding, terror, shaking and sleepiness (the party stands together out of a fight)."""
    from rules.gm import powers

    gm = game(corridor(), seed=3, party=2)
    exploration.enter(gm, "test-site")
    priest, other = gm.c.party
    for m in gm.c.party:
        m.adv.character.afflictions.clear()
        m.adv.character.attrs[Attr.DEX].score = 3
        m.adv.character.add_wounds(1, forced=Attr.DEX)
    spring = powers.handler("prayer", "Prayer of Spring")
    assert spring is not None and spring.outside is not None
    spring.outside(gm, priest)
    assert [m.adv.character.attrs[Attr.DEX].wounds for m in gm.c.party] == [0, 0]
    other.adv.character.afflictions |= {"terrified", "bleeding"}
    martyr = powers.handler("prayer", "Martyr")
    assert martyr is not None and martyr.outside is not None
    martyr.outside(gm, priest)
    assert not other.adv.character.afflictions & {"terrified", "bleeding"}
    assert sum(priest.adv.character.attrs[a].wounds for a in Attr) == 1


def test_a_parched_drinker_is_told_the_fatigue_stays() -> None:
    """"Parched: cannot recover fatigue": a Potion of giants drunk while parched printed "Heals all strength
    fatigue." and took none away (seen on seed 110); the game now says why, as it does for hungry wounds."""
    gm = game(corridor())
    exploration.enter(gm, "test-site")
    a = gm.c.party[0]
    ch = a.adv.character
    ch.add_affliction("parched")
    ch.attrs[Attr.STR].fatigue = 1
    (recipe,) = [r for r in gm.content.alchemy.recipes if r.name == "Potion of giants"]
    gm.events = []
    for row in recipe.effects:
        gm.apply_row(a, row, "Potion of giants")
    assert ch.attrs[Attr.STR].fatigue == 1
    told = [e for e in gm.events if e.kind == "no_healing"]
    assert [e.text for e in told] == [f"{a.name} is parched: fatigue does not go until they drink."]
