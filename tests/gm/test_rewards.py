"""What a room feature gives on a success (rules.gm.rewards), on the scripted corridor with loaded dice."""

from __future__ import annotations

import pytest

from dungeon_gen.model import Reward
from dungeon_gen.themes import _refs, check_reward, load_themes
from rules.content.registry import load_content
from rules.gm import rewards
from rules.gm.places import door_state
from rules.gm.site import SiteFeature, SiteReward, SiteSecret, SiteTrap
from rules.gm.state import Campaign, Phase
from rules.inventory import Carried
from tests.gm.test_freeform import do, listed, load, of, setup

CONTENT = load_content()

RACKS = SiteReward("item", items=("Crossbow", "Short sword", "Short Spear"))
STANDS = SiteReward("item", items=("Gambeson", "Chainmail", "Soldier helmet"))


def feature(*rw: SiteReward, test: str = "INT", name: str = "Weapon racks") -> SiteFeature:
    return SiteFeature(name, "Racks of old weapons.", test, "One weapon is still good.", "Everything is rust.",
                       tuple(rw))  # fmt: skip


def names(gm_member_items: list[Carried]) -> list[str]:
    return [i.name for i in gm_member_items]


@pytest.mark.parametrize(("draw", "item"), [(1, "Crossbow"), (2, "Short sword"), (3, "Short Spear")])
def test_the_weapon_racks_give_the_drawn_weapon_to_the_one_who_tested(draw: int, item: str) -> None:
    gm = setup(party=2, r1={"features": (feature(RACKS),)})
    load(gm, 5, 3, draw)  # INT 2 dice: a success; then the draw among three
    _, events = do(gm, "feature:0")
    tester = gm.c.member(str(of(events, "feature")[0].data["who"]))
    assert item in names(tester.adv.inventory.items)
    other = next(m for m in gm.c.party if m is not tester)
    assert item not in names(other.adv.inventory.items)
    (gain,) = of(events, "reward")
    assert gain.text == f"{tester.name} takes {item.lower()} (weapon racks)." and gain.data["item"] == item


def test_the_armour_stands_give_a_fitting_piece_worn_on_the_torso() -> None:
    gm = setup(r1={"features": (feature(STANDS, test="STR", name="Armour stands"),)})
    load(gm, 6, 2, 2)
    do(gm, "feature:0")
    (chain,) = [i for i in gm.c.party[0].adv.inventory.items if i.name == "Chainmail"]
    assert chain.equipped and chain.place == "Torso"


def test_a_failure_gives_nothing() -> None:
    gm = setup(r1={"features": (feature(RACKS),)})
    before = names(gm.c.party[0].adv.inventory.items)
    load(gm, 2, 3)
    _, events = do(gm, "feature:0")
    assert not of(events, "reward") and names(gm.c.party[0].adv.inventory.items) == before


def test_every_item_of_an_all_pick() -> None:
    fallen = SiteReward("item", items=("Soldier helmet", "Wooden shield"), pick="all")
    gm = setup(r1={"features": (feature(fallen),)})
    load(gm, 4, 4)
    _, events = do(gm, "feature:0")
    got = names(gm.c.party[0].adv.inventory.items)
    assert "Soldier helmet" in got and "Wooden shield" in got and len(of(events, "reward")) == 2


def test_a_count_of_rations() -> None:
    gm = setup(r1={"features": (feature(SiteReward("item", items=("Ration",), count=3)),)})
    load(gm, 4, 4)
    do(gm, "feature:0")
    assert sum(i.count for i in gm.c.party[0].adv.inventory.items if i.name == "Ration") == 3


def test_loot_is_worth_its_rarity_price_rolled() -> None:
    cargo = SiteReward("loot", name="Wreckers' cargo", rarity="valuable", big=True)
    gm = setup(r1={"features": (feature(cargo, test="STR", name="Great winch"),)})
    load(gm, 5, 5, 4, 5)  # the test, then 3 x 2d6 = 3 x 9
    _, events = do(gm, "feature:0")
    (item,) = [i for i in gm.c.party[0].adv.inventory.items if i.name == "Wreckers' cargo"]
    assert (item.value, item.rarity, item.slots) == (27, "valuable", 2)
    assert of(events, "reward")[0].text.endswith("takes Wreckers' cargo, valuable, worth 27 silver (great winch).")


def test_silver_goes_into_the_purse() -> None:
    gm = setup(r1={"features": (feature(SiteReward("silver", value="3 x 2d6"), test="STR"),)})
    purse = gm.c.party[0].adv.character.silver
    load(gm, 5, 5, 6, 6)
    do(gm, "feature:0")
    assert gm.c.party[0].adv.character.silver == purse + 36


def test_with_no_room_anywhere_it_is_left_on_the_floor_and_picked_up_later() -> None:
    gm = setup(r1={"features": (feature(SiteReward("loot", name="Silver ring", rarity="valuable", value=20)),)})
    inv = gm.c.party[0].adv.inventory
    rocks = [Carried("Rock", p.name, slots=inv.free(p.name)) for p in inv.places if inv.free(p.name)]
    inv.items.extend(rocks)
    load(gm, 4, 4)
    _, events = do(gm, "feature:0")
    assert [i.name for i in gm.room_state().floor] == ["Silver ring"] and of(events, "reward_floor")
    assert not listed(gm)["floor:0"].available and listed(gm)["floor:0"].reason == "No one has room for it."
    saved = Campaign.from_dict(gm.c.to_dict())  # the floor is saved with the room
    assert saved.locations["test-site"].levels[1].rooms[1].floor == gm.room_state().floor
    inv.items.remove(next(r for r in rocks if r.place == "Bag"))
    assert listed(gm)["floor:0"].available
    _, events = do(gm, "floor:0")
    assert "Silver ring" in names(inv.items) and not gm.room_state().floor and "floor:0" not in listed(gm)


def test_a_way_finds_the_rooms_hidden_door() -> None:
    gm = setup(doors={1: "secret"},
               r1={"features": (feature(SiteReward("way", reveals="secret_door"), name="Black mirror"),)})  # fmt: skip
    link = gm.site_level().links_of(1)[0]
    assert not door_state(gm, link).found
    load(gm, 4, 4)
    _, events = do(gm, "feature:0")
    assert door_state(gm, link).found and of(events, "reward")[0].data["room"] == 2


def test_a_way_down_shows_the_stairs_room() -> None:
    gm = setup(r1={"features": (feature(SiteReward("way", reveals="stairs")),)}, r3={"stairs": ((2, 1),)})
    assert not gm.room_state(3).seen
    load(gm, 4, 4)
    do(gm, "feature:0")
    assert gm.room_state(3).seen


def test_info_the_doom_and_the_masters_room() -> None:
    gm = setup(r1={"features": (feature(SiteReward("info", reveals="doom"), SiteReward("info", reveals="boss")),)},
               r4={"boss": True})  # fmt: skip
    gm.level_state().doom = 3
    load(gm, 4, 4)
    do(gm, "feature:0")
    lv = gm.level_state()
    assert (lv.doom_known, lv.doom_next_known) == (3, 2) and gm.room_state(4).seen


def test_info_the_rooms_traps_and_secrets() -> None:
    trap = SiteTrap("Pressure plate", "A plate.", "stepping", "a darker tile", "INT", "DEX", None, "Darts.")
    secret = SiteSecret("treasure", "A loose stone hides a purse.")
    gm = setup(r1={"features": (feature(SiteReward("info", reveals="traps"), SiteReward("info", reveals="secrets")),),
                   "traps": (trap,), "secrets": (secret,)})  # fmt: skip
    load(gm, 4, 4)
    do(gm, "feature:0")
    st = gm.room_state()
    assert st.traps[0].found and st.secrets_found == [0]


def test_a_friendly_creature_stays_and_a_hostile_one_fights() -> None:
    gm = setup(r1={"features": (feature(SiteReward("creature", monster="Bounty Hunter", attitude="friendly")),)})
    load(gm, 4, 4)
    do(gm, "feature:0")
    (g,) = gm.room_state().monsters
    assert (g.monster, g.count, g.attitude) == ("Bounty Hunter", 1, "friendly")
    gm = setup(r1={"features": (feature(SiteReward("creature", monster="Giant Rat", count=2)),)})
    load(gm, 4, 4)
    do(gm, "feature:0")
    assert gm.c.phase is Phase.COMBAT


# --- the content check --------------------------------------------------------------------------------------------


def test_every_reward_kind_has_a_handler_and_a_bad_one_is_refused() -> None:
    themes = load_themes()  # refuses a reward the GM cannot play
    kinds = {r.kind for t in themes.values() for k in t.room_kinds for f in k.features for r in f.rewards}
    assert kinds <= set(rewards.HANDLERS)
    refs = _refs(CONTENT)
    assert "no handler in the GM" in check_reward(refs, Reward(kind="teleport"))[0]
    assert "in no item" in check_reward(refs, Reward(kind="item", items=["Vorpal blade"]))[0]
    assert "reveals one of" in check_reward(refs, Reward(kind="way", reveals="moon"))[0]
    assert "unknown extract kind" in check_reward(refs, Reward(kind="extract", name="gold"))[0]


def test_an_extract_is_kept_as_an_alchemist_keeps_it() -> None:
    gm = setup(r1={"features": (feature(SiteReward("extract", name="rot", count=2), test="DEX"),)})
    load(gm, 4, 4)
    _, events = do(gm, "feature:0")
    (rot,) = [i for i in gm.c.party[0].adv.inventory.items if i.name == "Rot extract"]
    assert rot.count == 2 and len(of(events, "reward")) == 2


def test_every_reward_of_every_theme_plays() -> None:
    from dungeon_gen.site import _reward

    played = 0
    for tid, t in load_themes().items():
        for k in t.room_kinds:
            for f in k.features:
                for r in f.rewards:
                    gm = setup(party=2, r3={"stairs": ((2, 1),)}, r4={"boss": True})
                    gm.events = []
                    rewards.give(gm, gm.c.party[0], _reward(r), f.name.lower())
                    assert of(gm.events, "reward") or of(gm.events, "reward_floor"), (tid, f.name)
                    played += 1
    assert played >= 80
