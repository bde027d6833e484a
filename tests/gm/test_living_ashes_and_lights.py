"""Living ashes (#13), and lights that will not burn.

Living ashes: "+1 damage to a weapon during expedition, Ud4 uses" — rubbed on a weapon in someone's hand,
played as the weapon's damage until the party leaves; its usage die rolled."""

from __future__ import annotations

from rules.autoplay.player import explore
from rules.gm import exploration
from rules.gm.combat_gear import weapon_arms
from rules.gm.engine import GM
from rules.gm.state import Member
from rules.inventory import Carried
from tests.gm.scripted import corridor, game


def _armed() -> tuple[GM, Member, Member]:
    gm = game(corridor(2), seed=4, party=2)
    exploration.enter(gm, "test-site")
    carrier, fighter = gm.c.party
    fighter.adv.inventory.items = [i for i in fighter.adv.inventory.items if i.place not in ("Left hand", "Right hand")]
    fighter.adv.inventory.add(Carried("Dagger", "", equipped=True, rarity="common"), "Right hand")
    carrier.adv.inventory.add(Carried("Living ashes", "", usage=4, rarity="rare"))
    return gm, carrier, fighter


def test_living_ashes_add_their_damage_to_the_weapon_until_the_party_leaves() -> None:
    gm, carrier, fighter = _armed()
    club = next(a for a in weapon_arms(gm, fighter) if a.key == "Dagger")
    rub = next(a for a in gm.legal_actions() if a.kind == "living_ashes" and a.target == fighter.id)
    assert rub.available and rub.who == carrier.id and rub.cost.turns == 0
    gm.apply(rub.id)
    hot = next(a for a in weapon_arms(gm, fighter) if a.key == "Dagger")
    assert hot.attack.damage == club.attack.damage + 1 and "living ashes" in hot.name
    again = next(a for a in gm.legal_actions() if a.id == rub.id)
    assert not again.available  # once is enough for the expedition
    ashes = next((i for i in carrier.adv.inventory.items if i.name == "Living ashes"), None)
    assert ashes is None or (ashes.usage or 0) <= 4  # the usage die was rolled
    exploration.leave(gm)
    assert gm.c.expedition is None  # the next expedition starts without it


def test_the_autoplay_rubs_living_ashes_on_a_weapon() -> None:
    gm, _, _ = _armed()
    pick = explore(gm, [a for a in gm.legal_actions() if a.available])
    assert pick.kind == "living_ashes"


def test_a_dry_lantern_without_oil_is_not_offered_as_a_light() -> None:
    """A lantern run dry, and no oil: lighting it was offered and lit nothing (the autoplay asked again and again,
    12,000 steps on seed 2); with oil it is offered and lights."""
    from rules.autoplay.player import has_light

    gm = game(corridor(2), seed=4, party=1, light=False)
    exploration.enter(gm, "test-site")
    (m,) = gm.c.party
    m.lit = None
    m.adv.inventory.items = [i for i in m.adv.inventory.items if i.name not in ("Torches", "Candles", "Lantern", "Oil")]
    m.adv.inventory.add(Carried("Lantern", "", notes="lantern:dry", rarity="uncommon"))
    assert not any(a.kind == "light" for a in gm.legal_actions()) and not has_light(gm)
    m.adv.inventory.add(Carried("Oil", "", rarity="common"))
    light = next(a for a in gm.legal_actions() if a.kind == "light")
    gm.apply(light.id)
    assert m.lit == "Lantern" and has_light(gm)
