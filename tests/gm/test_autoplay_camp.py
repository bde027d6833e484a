"""The autoplay in camp (#14): an angered god's sacrifice (R212)."""

from __future__ import annotations

from rules.attributes import ATTRS
from rules.autoplay import camp_policy
from rules.magic import Prayers
from tests.gm.test_camp import camp_game, give, ids, settle


def test_the_autoplay_makes_an_angered_gods_sacrifice_when_it_can_bear_it() -> None:
    """#14: the autoplay never made the R212 sacrifices, and an angered cleric stayed deaf for good.  Yulak's (2 wounds
    and bleeding) with room for the wounds and a bandage to bind them; Akhzu's (2 rations) with a ration left for
    each who eats tonight."""
    gm = camp_game("dry")
    cleric, other = gm.c.party
    cleric.adv.god = "Yulak"
    cleric.adv.prayers = Prayers(memorised=["Martyr"], angered=True)
    for a in ATTRS:
        cleric.adv.character.attrs[a].score = 3
    settle(gm)
    actions = gm.legal_actions()
    assert f"sacrifice:{cleric.id}" in ids(gm)
    assert camp_policy.suggest(gm, actions).kind != "sacrifice"  # nothing to bind the bleeding
    give(other, "Bandages")
    pick = camp_policy.suggest(gm, gm.legal_actions())
    assert pick.id == f"sacrifice:{cleric.id}"
    gm.apply(pick.id)
    assert not cleric.adv.prayers.angered and "bleeding" in cleric.adv.character.afflictions

    gm = camp_game("dry")
    cleric, other = gm.c.party
    cleric.adv.god = "Akhzu"
    cleric.adv.prayers = Prayers(memorised=["Prayer of Spring"], angered=True)
    for m in (cleric, other):
        m.adv.character.afflictions.add("hungry")
    give(other, "Ration", 3)
    settle(gm)
    assert camp_policy.suggest(gm, gm.legal_actions()).kind != "sacrifice"  # two hungry, one ration left after
    give(cleric, "Ration", 1)
    assert camp_policy.suggest(gm, gm.legal_actions()).id == f"sacrifice:{cleric.id}"
