"""Rearranging one's trappings out of combat: a free action (expedition chapter, "Take a free action")."""

from __future__ import annotations

import pytest

from rules.checks import RuleError
from rules.gm import exploration, rearrange
from rules.gm.engine import GM
from rules.gm.state import Phase
from rules.inventory import HANDS, TORSO, Carried, Inventory
from tests.gm.scripted import corridor, game


def explorer() -> GM:
    gm = game(corridor(4), party=1)
    m = gm.c.party[0]
    inv = Inventory.body()
    inv.add_container("Bag", 5)  # room for a torch kept after the expedition
    inv.add(Carried("Battle axe", "", equipped=True), "Left hand")
    inv.add(Carried("(Battle axe)", "", notes="two-handed grip"), "Right hand")
    inv.add(Carried("Padded armor", "", equipped=True), TORSO)
    inv.add(Carried("Ration", ""), "Bag")
    inv.add(Carried("Falchion", ""), "Bag")
    inv.add(Carried("Torches", "", count=2), "Bag")
    m.adv.inventory = inv
    exploration.enter(gm, "test-site")
    return gm


def ids(gm: GM) -> dict[str, object]:
    return {a.id: a for a in gm.legal_actions() if a.kind in rearrange.KINDS}


def test_putting_the_two_handed_axe_away_frees_both_hands_and_costs_no_turn() -> None:
    gm = explorer()
    m = gm.c.party[0]
    inv = m.adv.inventory
    assert gm.c.expedition is not None
    turns, decay = gm.c.expedition.turns, gm.c.expedition.decay
    axe = next(i for i, it in enumerate(inv.items) if it.name == "Battle axe")
    gm.apply(f"stow:{m.id}:{axe}:Bag")
    assert gm.c.expedition.turns == turns and gm.c.expedition.decay == decay
    held = [i.name for i in inv.items if i.place in HANDS]
    assert held == [] and next(i for i in inv.items if i.name == "Battle axe").equipped is False
    assert gm.c.phase is Phase.EXPLORATION


def test_a_spare_weapon_is_taken_in_hand_for_free() -> None:
    gm = explorer()
    m = gm.c.party[0]
    assert gm.c.expedition is not None
    turns = gm.c.expedition.turns
    gm.apply(f"equip:{m.id}:Falchion")
    falchion = next(i for i in m.adv.inventory.items if i.name == "Falchion")
    assert falchion.place in HANDS and falchion.equipped and gm.c.expedition.turns == turns
    assert not any(i.name == "(Battle axe)" for i in m.adv.inventory.items)  # the axe went back to the bag


def test_what_may_go_where() -> None:
    gm = explorer()
    m = gm.c.party[0]
    inv = m.adv.inventory
    acts = ids(gm)
    armour = next(i for i, it in enumerate(inv.items) if it.name == "Padded armor")
    grip = next(i for i, it in enumerate(inv.items) if it.name == "(Battle axe)")
    assert not any(k.startswith(f"stow:{m.id}:{armour}:") for k in acts)  # worn armour stays worn
    assert not any(k.startswith(f"stow:{m.id}:{grip}:") for k in acts)  # a grip is not an item
    assert not any(k.endswith(f":{TORSO}") for k in acts)  # nothing onto the torso
    ration = next(i for i, it in enumerate(inv.items) if it.name == "Ration")
    assert f"stow:{m.id}:{ration}:Left hand" not in acts  # both hands hold the axe
    with pytest.raises(RuleError):
        gm.apply(f"stow:{m.id}:{ration}:{TORSO}")


def test_rearranging_in_town_keeps_the_day_where_it_was() -> None:
    gm = explorer()
    exploration.leave(gm)
    assert gm.c.phase is Phase.INTERLUDE and gm.c.interlude is not None
    step = gm.c.interlude.step
    m = gm.c.party[0]
    inv = m.adv.inventory
    ration = next(i for i, it in enumerate(inv.items) if it.name == "Ration")
    axe = next(i for i, it in enumerate(inv.items) if it.name == "Battle axe")
    gm.apply(f"stow:{m.id}:{axe}:Bag")
    ration = next(i for i, it in enumerate(inv.items) if it.name == "Ration")
    gm.apply(f"stow:{m.id}:{ration}:Right hand")
    assert next(i for i in inv.items if i.name == "Ration").place == "Right hand"
    assert gm.c.interlude.step == step


def test_a_spare_weapon_sharing_a_hand_with_its_twin_is_taken_in_hand_without_losing_either() -> None:
    """Found by random play (seed 227): a pair of alike weapons wielded, a third alike one stowed in a hand.
    Taking it in hand removed its wielded twin by equal fields and then failed to find the spare."""
    gm = game(corridor(4), party=1)
    m = gm.c.party[0]
    inv = Inventory.body()
    inv.add_container("Bag", 4)
    inv.add(Carried("Short sword", "", equipped=True), "Left hand")
    inv.add(Carried("Short sword", "", equipped=True), "Right hand")
    spare = inv.add(Carried("Short sword", ""), "Left hand")
    m.adv.inventory = inv
    exploration.enter(gm, "test-site")
    gm.apply(f"equip:{m.id}:Short sword")
    swords = [i for i in inv.items if i.name == "Short sword"]
    assert len(swords) == 3 and len({id(i) for i in inv.items}) == len(inv.items)  # none lost, none doubled
    assert spare.equipped and spare.place in HANDS
    assert sum(1 for i in swords if i.equipped and i.place in HANDS) == 2


def swordsman(held: list[str], bag: list[str]) -> GM:
    """One adventurer exploring with ``held`` in hand (left, then right) and ``bag`` in the bag."""
    gm = game(corridor(4), party=1)
    m = gm.c.party[0]
    inv = Inventory.body()
    inv.add_container("Bag", 6)
    for name, hand in zip(held, HANDS, strict=False):
        inv.add(Carried(name, "", equipped=True, count=3 if name == "Torches" else 1), hand)
    for name in bag:
        inv.add(Carried(name, ""), "Bag")
    m.adv.inventory = inv
    exploration.enter(gm, "test-site")
    return gm


def in_hand(gm: GM) -> set[str]:
    return {i.name for i in gm.c.party[0].adv.inventory.items if i.place in HANDS and i.equipped}


def test_a_shield_goes_to_the_free_hand_beside_the_weapon() -> None:
    gm = swordsman(["Falchion"], ["Metal shield"])
    gm.apply(f"equip:{gm.c.party[0].id}:Metal shield")
    assert in_hand(gm) == {"Falchion", "Metal shield"}


def test_taking_another_weapon_keeps_the_shield_and_swaps_the_weapon() -> None:
    gm = swordsman(["Falchion", "Metal shield"], ["Flail"])
    gm.apply(f"equip:{gm.c.party[0].id}:Flail")
    assert in_hand(gm) == {"Flail", "Metal shield"}
    assert gm.c.party[0].adv.inventory.find("Falchion") is not None  # back in the bag


def test_taking_the_weapon_back_keeps_the_shield_in_hand() -> None:
    gm = swordsman(["Metal shield"], ["Falchion"])
    gm.apply(f"equip:{gm.c.party[0].id}:Falchion")
    assert in_hand(gm) == {"Falchion", "Metal shield"}


def test_another_shield_replaces_the_shield_not_the_weapon() -> None:
    gm = swordsman(["Falchion", "Metal shield"], ["Wooden shield"])
    gm.apply(f"equip:{gm.c.party[0].id}:Wooden shield")
    assert in_hand(gm) == {"Falchion", "Wooden shield"}


def test_a_weapon_taken_in_hand_leaves_the_torch_alone() -> None:
    gm = swordsman(["Torches", "Falchion"], ["Flail"])
    gm.apply(f"equip:{gm.c.party[0].id}:Flail")
    assert in_hand(gm) == {"Torches", "Flail"}


def test_nothing_bought_or_found_goes_into_a_hand_that_wields_something() -> None:
    """R182: a hand that wields something holds nothing else. The playtests bought Torches into a hand wielding a
    whip, and looted a spyglass into a hand wielding a short sword."""
    from rules.inventory import Carried, Inventory

    inv = Inventory.body()
    inv.add(Carried("Notched whip", "", equipped=True), "Left hand")
    assert inv.wields("Left hand")
    assert inv.room_for(Carried("Torches", "")) == "Right hand"
    inv.add(Carried("Short sword", "", equipped=True), "Right hand")
    assert inv.room_for(Carried("Brass spyglass", "")) is None  # no bag: nowhere to put it
    inv.add_container("Backpack", 4)
    assert inv.room_for(Carried("Brass spyglass", "")) == "Backpack"
