"""The autoplay uses the powers and the tools (#13): a potion for the downed ally, Light with no torch, Transmute
in camp, the ashes where it would search, a light bought for the companion who has none."""

from __future__ import annotations

from rules.attributes import Attr
from rules.autoplay import camp_policy, powers_policy
from rules.autoplay.player import explore
from rules.character import Condition
from rules.gm import alchemy, exploration
from rules.inventory import Carried
from tests.gm import test_interlude as town
from tests.gm.scripted import corridor, game
from tests.gm.test_alchemy import alchemist
from tests.gm.test_combat import arena, cs_of, put
from tests.gm.test_outside_powers import caster


def test_a_healing_potion_goes_to_the_collapsed_ally_in_reach() -> None:
    gm = arena([("Goblin Scrapper", 1)], party=2, surprise=None)
    cs = cs_of(gm)
    f, g = cs.fighters
    me, ally = gm.c.member(f.id), gm.c.member(g.id)
    me.adv.inventory.add(Carried("Healing tonic", "", rarity="uncommon", usage=4))
    for m in (me, ally):
        m.adv.character.afflictions.clear()
    put(gm, g, f.x + 1, f.y)
    ally.adv.character.attrs[Attr.DEX].wounds = 1
    mine = [a for a in gm.legal_actions() if a.who == f.id]
    assert powers_policy.in_fight(gm, cs, f, mine) is None  # a scratch on one standing: not worth an action
    ally.adv.character.condition = Condition.COLLAPSED
    pick = powers_policy.in_fight(gm, cs, f, [a for a in gm.legal_actions() if a.who == f.id])
    assert pick is not None and pick.kind == "item" and pick.target == g.id


def test_with_no_light_to_light_the_wizard_casts_light() -> None:
    gm = game(corridor(3), light=False)
    exploration.enter(gm, "test-site")
    who = caster(gm, spell="Light")
    pick = explore(gm, [a for a in gm.legal_actions() if a.available])
    assert pick.id == f"cast:{who}:Light"
    gm.c.party[1].adv.inventory.add(Carried("Torches", "", count=1, rarity="common"))
    assert explore(gm, [a for a in gm.legal_actions() if a.available]).kind == "light"  # a torch first


def test_in_camp_the_alchemist_transmutes_the_extracts() -> None:
    gm = game(corridor(3, r1={"camp": frozenset({"dry"})}))
    exploration.enter(gm, "test-site")
    who = alchemist(gm)
    for _ in range(2):
        alchemy.add_extract(gm.c.member(who).adv.inventory, "ether")
    gm.apply("camp")
    gm.apply("settle")
    pick = camp_policy.suggest(gm, gm.legal_actions())
    assert pick.id == f"transmute:{who}"


def test_the_ashes_are_scattered_where_the_party_would_search() -> None:
    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    actions = [a for a in gm.legal_actions() if a.available]
    search = next(a for a in actions if a.id == "search")
    assert powers_policy.ashes_instead(gm, actions, search) is search
    m = gm.c.party[0]
    m.adv.inventory.add(Carried("Ashes of insight", "", rarity="valuable"))
    actions = [a for a in gm.legal_actions() if a.available]
    assert powers_policy.ashes_instead(gm, actions, search).kind == "ashes"


def test_a_light_is_bought_for_the_companion_who_carries_none() -> None:
    gm = town.game()
    town.begin(gm)
    town.shop(gm)
    buyer, other = gm.c.party
    by_id = {a.id: a for a in gm.legal_actions() if a.available}
    buy = by_id["buy:Torches"]
    assert powers_policy.for_whom(gm, buyer, buy, by_id) is buy  # the shopper has none: it is theirs
    town.give(buyer, "Lantern")
    assert powers_policy.for_whom(gm, buyer, buy, by_id).id == f"buy_for:Torches:{other.id}"


def test_no_market_label_says_free_twice() -> None:
    """The text client read "buys Water (free) for 0 silver (free)": the rarity and the price both said it."""
    gm = town.game()
    town.begin(gm)
    town.shop(gm)
    water = [a for a in gm.legal_actions() if a.target == "Water" and a.kind in ("buy", "buy_for")]
    assert water and all("(free)" not in a.label and "0 silver" not in a.label for a in water)
    assert str(water[0].cost) == "free"


def test_a_shopper_with_full_bags_still_buys_for_a_companion() -> None:
    """Wizard playtest: "buy_for:3 meter pole:a2 — Delva Marcezzo has no room": the shopper's bags barred a ware
    meant for the warrior's."""
    gm = town.game()
    town.begin(gm)
    town.shop(gm)
    buyer, other = gm.c.party
    inv = buyer.adv.inventory
    while inv.room_for(Carried("Rock", "")) is not None:
        inv.add(Carried("Rock", ""))
    listed = {a.id: a for a in gm.legal_actions()}
    assert listed["buy:Torches"].reason == f"{buyer.name} has no room for Torches."
    assert listed[f"buy_for:Torches:{other.id}"].available


def test_the_wizard_does_not_lock_the_last_free_enemy_in_a_crystal() -> None:
    """Wizard playtest: both worms locked in arcane crystals, the party could strike neither and the fight stalled
    round after round."""
    from rules.autoplay.combat_policy import suggest
    from tests.gm.test_fight_powers import hall, wizard

    gm = arena([("Goblin Scrapper", 2)], party=3, surprise=None)
    cs = hall(gm)
    f = cs.fighters[0]
    wizard(gm, f, "Arcane prison")
    for i, e in enumerate(cs.foes):
        put(gm, e, f.x + 2, f.y + i)
    first = suggest(gm, gm.legal_actions())
    assert first.param("spell") == "Arcane prison"
    cs.foes[0].effects["Arcane prison"] = cs.round + 3  # one is locked already
    again = suggest(gm, gm.legal_actions())
    assert again.param("spell") != "Arcane prison"


def test_a_cleric_of_cador_seals_a_dead_end_before_camping_in_it() -> None:
    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    who = caster(gm, prayer="Seal")
    camp = next(a for a in gm.legal_actions() if a.id == "camp")
    pick = powers_policy.before_camp(gm, [a for a in gm.legal_actions() if a.available], camp)
    assert pick.id == f"pray:{who}:Seal"
    gm.c.expedition.sealed.append([1, gm.site_level().links[0].id])  # type: ignore[union-attr]
    assert powers_policy.before_camp(gm, [a for a in gm.legal_actions() if a.available], camp) is camp


def test_a_cleric_prays_for_the_dying_ally_before_leaving_a_lost_fight(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Autoplay sims (#13): with the fight judged lost the cleric walked off from a dying ally it could heal."""
    from rules.autoplay import combat_policy
    from tests.gm.test_combat import healer_and_ally

    gm, fa, fb = healer_and_ally(9)
    ally = gm.c.member(fb.id)
    ally.adv.character.attrs[Attr.STR].wounds = 2
    ally.adv.character.condition = Condition.MORTALLY_WOUNDED
    for m in gm.c.party:
        m.adv.character.afflictions.discard("hungry")
    monkeypatch.setattr(combat_policy, "should_flee", lambda gm, cs: True)
    pick = combat_policy.suggest(gm, [a for a in gm.legal_actions() if a.who == fa.id])
    assert pick.kind == "pray" and pick.param("prayer") == "Cure Light Wounds" and pick.target == fb.id
    ally.adv.character.condition = Condition.ACTIVE  # only wounded: leaving comes first
    pick = combat_policy.suggest(gm, [a for a in gm.legal_actions() if a.who == fa.id])
    assert pick.kind != "pray"
