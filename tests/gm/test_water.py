"""Water (R185): a canteen is filled for free in a settlement, and the autoplay drinks it when parched."""

from __future__ import annotations

import pytest

from rules.attributes import ATTRS, Attr
from rules.autoplay import interlude_policy, suggest
from rules.checks import RuleError
from rules.gm import exploration
from rules.gm.state import Phase
from rules.inventory import Carried
from tests.gm.scripted import corridor, game
from tests.gm.test_interlude import begin, ids
from tests.gm.test_interlude import game as town


def test_filling_a_canteen_is_free_and_spends_no_day_action() -> None:
    gm = town(party=2)
    begin(gm)
    a = gm.c.party[0]
    silver = a.adv.character.silver
    action = ids(gm)[f"water:{a.id}"]
    assert action.available and action.cost.silver == 0
    gm.apply(action.id)
    water = [i for i in a.adv.inventory.items if i.name == "Water"]
    assert len(water) == 1 and water[0].place == "Canteen" and water[0].liquid
    assert a.adv.character.silver == silver
    st = gm.c.interlude
    assert st is not None and not any(st.plans.values())
    assert f"water:{a.id}" not in ids(gm)  # the canteen is full: nothing more to fill
    with pytest.raises(RuleError):
        gm.apply(f"water:{a.id}")


def test_water_goes_only_into_a_canteen_not_the_bag() -> None:
    gm = town(party=1)
    begin(gm)
    a = gm.c.party[0]
    a.adv.inventory.add(Carried("Wine", "", liquid=True), "Canteen")  # the canteen already holds something
    assert f"water:{a.id}" not in ids(gm)


def test_the_autoplay_fills_canteens_before_setting_out() -> None:
    gm = town(party=2)
    begin(gm)
    picks = []
    for _ in range(2):
        pick = interlude_policy.suggest(gm, gm.legal_actions())
        picks.append(pick.kind)
        gm.apply(pick.id)
    assert picks == ["water", "water"]
    assert all(any(i.name == "Water" for i in m.adv.inventory.items) for m in gm.c.party)


def test_a_parched_explorer_drinks_for_free_before_anything_else() -> None:
    gm = game(corridor(3), party=1)
    m = gm.c.party[0]
    m.adv.inventory.add(Carried("Water", "", liquid=True, rarity="free"), "Canteen")
    exploration.enter(gm, "test-site")
    m.adv.character.add_affliction("parched")
    assert gm.c.expedition is not None
    turns = gm.c.expedition.turns
    pick = suggest(gm)
    assert pick is not None and pick.kind == "use_item" and pick.param("item") == "Water"
    gm.apply(pick.id)
    assert "parched" not in m.adv.character.afflictions
    assert not any(i.name == "Water" for i in m.adv.inventory.items)
    assert gm.c.expedition.turns == turns and gm.c.phase is Phase.EXPLORATION  # a quick item: no turn


def test_a_parched_party_with_no_water_does_not_waste_turns_catching_its_breath() -> None:
    """Parched: "cannot recover fatigue" — a breath would only spend a turn (decay, doom)."""
    gm = game(corridor(3), party=1)
    m = gm.c.party[0]
    exploration.enter(gm, "test-site")
    for a in ATTRS:
        m.adv.character.attrs[a].fatigue = 0
    m.adv.character.attrs[Attr.DEX].fatigue = 1
    assert "breath" in {a.id for a in gm.legal_actions() if a.available}
    assert suggest(gm).id == "breath"  # tired legs: catch breath ...
    m.adv.character.add_affliction("parched")
    assert suggest(gm).id != "breath"  # ... unless it cannot recover anything
