"""Giving items to a companion (#13): free out of a fight, one action in a fight to an ally next to you.

"You can also give or use an item on someone in the same tile if they have inventory space." (Use item or
change equipment; R187 for how the grid and the party's room read "the same tile".)
"""

from __future__ import annotations

from rules.character import Condition
from rules.gm import exploration
from rules.gm.engine import GM
from rules.gm.state import Phase
from rules.inventory import HANDS, TORSO, Carried, Inventory
from tests.gm.scripted import corridor, game


def two(light: bool = False) -> GM:
    """Two adventurers in room 1, each with a bag of 3 slots; the first holds a lantern and two rations."""
    gm = game(corridor(3), party=2, light=light)
    for m in gm.c.party:
        inv = Inventory.body()
        inv.add_container("Bag", 3)
        m.adv.inventory = inv
    a = gm.c.party[0].adv.inventory
    a.add(Carried("Lantern", "", equipped=True), HANDS[0])
    a.add(Carried("Oil", "", count=2), "Bag")
    a.add(Carried("Ration", "", count=2), "Bag")
    exploration.enter(gm, "test-site")
    return gm


def gives(gm: GM) -> dict[str, object]:
    return {a.id: a for a in gm.legal_actions() if a.kind == "give"}


def index_of(gm: GM, member: int, name: str) -> int:
    return next(i for i, it in enumerate(gm.c.party[member].adv.inventory.items) if it.name == name)


def test_one_ration_of_a_stack_changes_hands_for_free() -> None:
    gm = two()
    a, b = gm.c.party
    assert gm.c.expedition is not None
    turns = gm.c.expedition.turns
    events = gm.apply(f"give:{a.id}:{index_of(gm, 0, 'Ration')}:{b.id}")
    assert a.adv.inventory.find("Ration").count == 1  # type: ignore[union-attr]
    got = b.adv.inventory.find("Ration")
    assert got is not None and got.count == 1 and got.place == "Bag"
    assert gm.c.expedition.turns == turns and gm.c.phase is Phase.EXPLORATION
    assert [e.kind for e in events] == ["give"]


def test_a_burning_lantern_passes_lit_to_a_companion_with_no_light() -> None:
    gm = two()
    a, b = gm.c.party
    exp = gm.c.expedition
    assert exp is not None
    assert a.lit == "Lantern"  # lit on the way in: the dungeon is dark
    burns = exp.light_burns[a.id]
    gm.apply(f"give:{a.id}:{index_of(gm, 0, 'Lantern')}:{b.id}")
    assert (a.lit, b.lit) == (None, "Lantern") and exp.light_burns[b.id] == burns and a.id not in exp.light_burns
    assert b.adv.inventory.find("Lantern") is not None and a.adv.inventory.find("Lantern") is None


def test_a_collapsed_companions_lantern_is_taken_by_one_who_can_act() -> None:
    gm = two()
    a, b = gm.c.party
    a.adv.character.condition = Condition.COLLAPSED
    take = gives(gm)[f"give:{a.id}:{index_of(gm, 0, 'Lantern')}:{b.id}"]
    assert take.who == b.id and take.available and "take the Lantern from" in take.label  # type: ignore[attr-defined]
    gm.apply(take.id)  # type: ignore[attr-defined]
    assert b.adv.inventory.find("Lantern") is not None


def test_no_room_no_gift_and_worn_armour_stays_worn() -> None:
    gm = two()
    a, b = gm.c.party
    for _ in range(3):
        b.adv.inventory.add(Carried("Rope", ""), "Bag")
    for h in HANDS:
        b.adv.inventory.add(Carried("Rock", "", slots=2), h)
    a.adv.inventory.add(Carried("Padded armor", "", equipped=True), TORSO)
    listed = gives(gm)
    full = listed[f"give:{a.id}:{index_of(gm, 0, 'Ration')}:{b.id}"]
    assert not full.available and full.reason == f"{b.name} has no room for the Ration."  # type: ignore[attr-defined]
    worn = listed[f"give:{a.id}:{index_of(gm, 0, 'Padded armor')}:{b.id}"]
    assert not worn.available and "stays worn" in (worn.reason or "")  # type: ignore[attr-defined]


def test_armour_given_is_put_on_where_the_torso_has_room() -> None:
    gm = two()
    a, b = gm.c.party
    a.adv.inventory.items = [i for i in a.adv.inventory.items if i.name != "Ration"]
    a.adv.inventory.add(Carried("Padded armor", ""), "Bag")
    gm.apply(f"give:{a.id}:{index_of(gm, 0, 'Padded armor')}:{b.id}")
    armour = b.adv.inventory.find("Padded armor")
    assert armour is not None and armour.place == TORSO and armour.equipped


def test_in_a_fight_giving_to_an_ally_next_to_you_costs_one_action() -> None:
    from rules.gm import combat
    from tests.gm.test_combat import cs_of, put

    gm = two()
    a, b = gm.c.party
    combat.start(gm, [("Giant Rat", 1)], source="a test", surprise="party")
    cs = cs_of(gm)
    fa, fb = cs.fighter(a.id), cs.fighter(b.id)
    put(gm, fa, 1, 1)
    put(gm, fb, 1, 2)
    put(gm, cs.foes[0], 9, 1)
    ration = f"give:{a.id}:{index_of(gm, 0, 'Ration')}:{b.id}"
    listed = {x.id: x for x in gm.legal_actions()}
    assert listed[ration].available and listed[ration].cost.actions == 1
    before = fa.actions
    gm.apply(ration)
    assert fa.actions == before - 1 and fb.actions == 2  # receiving costs nothing
    assert b.adv.inventory.find("Ration") is not None
    put(gm, fb, 5, 2)  # no longer next to each other: nothing to give
    assert not any(x.kind == "give" for x in gm.legal_actions() if x.who == a.id)


def test_a_shield_given_away_in_a_fight_takes_its_tokens_and_one_torch_is_said_so() -> None:
    """Playtest (seed 13): the giver kept the shield's 2 tokens after handing the shield over; and "give a
    torch" was announced as "gives ... the Torches"."""
    from rules.gm import combat
    from tests.gm.test_combat import cs_of, put

    gm = two()
    a, b = gm.c.party
    a.adv.inventory.add(Carried("Wooden shield", "", equipped=True), HANDS[1])
    b.adv.inventory.add(Carried("Torches", "", count=2), "Bag")
    combat.start(gm, [("Giant Rat", 1)], source="a test", surprise="party")
    cs = cs_of(gm)
    fa, fb = cs.fighter(a.id), cs.fighter(b.id)
    put(gm, fa, 1, 1)
    put(gm, fb, 1, 2)
    put(gm, cs.foes[0], 9, 1)
    fa.shield = 2
    gm.apply(f"give:{a.id}:{index_of(gm, 0, 'Wooden shield')}:{b.id}")
    assert fa.shield == 0
    events = gm.apply(f"give:{b.id}:{index_of(gm, 1, 'Torches')}:{a.id}")
    assert any(e.kind == "give" and f"gives {a.name} a torch" in e.text for e in events)


def test_a_multi_part_armours_piece_is_named_for_the_player_not_by_its_id() -> None:
    """The log read "Lorn Velloux's Gladiator Armor#0 blocks 0" (a playtest)."""
    from rules.gm.services import armour_label

    assert armour_label("Gladiator Armor#0") == "Gladiator Armor (piece 1)"
    assert armour_label("Gladiator Armor#1") == "Gladiator Armor (piece 2)"
    assert armour_label("Padded armor") == "Padded armor"
