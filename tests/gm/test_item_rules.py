"""What an item is for, played (#13, RULINGS R203): wine drunk too often, drawing tools that map the way back, a
compass off the roads, the exorcism book against the undead, ashes of insight that show the hidden — and the
check that every item rule and effect has a handler."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from pytest import MonkeyPatch

from rules.content.registry import load_content
from rules.gm import combat, exploration, interlude, powers
from rules.gm.events import Action, Cost
from rules.gm.places import move_cost
from rules.gm.site import SiteLink, SiteMonsters
from rules.inventory import Carried
from rules.magic import Prayers
from tests.gm.scripted import SiteSecret, SiteTrap, corridor, game
from tests.gm.test_freeform import load, setup

if TYPE_CHECKING:
    from rules.gm.services import GM


def test_every_item_rule_and_effect_of_the_content_has_a_handler() -> None:
    content = load_content()
    assert not [x for x in powers.unplayed(content) if x.startswith(("item", "potion"))]
    assert {i.rule for i in content.items.items if i.rule} <= set(powers.ITEM_RULES)


def test_an_item_rule_with_no_handler_is_refused() -> None:
    content = load_content()
    compass = next(i for i in content.items.items if i.rule == "navigate")
    items = content.items.model_copy(update={"items": [*content.items.items, compass.model_copy(update={
        "name": "Dowsing rod", "rule": "find_water"})]})  # fmt: skip
    assert powers.unplayed(replace(content, files={**content.files, "items.toml": items})) == [
        "item: Dowsing rod (rule 'find_water')"]  # fmt: skip


def test_each_item_rule_is_one_handler_an_action_a_tool_a_move_or_said_where() -> None:
    for key, h in powers.ITEM_RULES.items():
        acts = h.room is not None or h.door is not None
        assert acts == (h.apply is not None) == bool(h.kinds), key
        assert sum((acts, bool(h.tool_for), h.moved is not None, bool(h.elsewhere))) == 1, key
    assert sorted(k for k, h in powers.ITEM_RULES.items() if not h.elsewhere) == [
        "draw_maps", "identify_or_reveal", "pick_lock", "probe_traps", "spike_door",
        "weapon_damage_bonus_expedition"]  # fmt: skip


def test_the_exploration_lists_and_applies_an_item_rule_through_its_handler(monkeypatch: MonkeyPatch) -> None:
    """A door's item actions come from the registry: a handler swapped in is what the exploration offers and plays."""
    gm = game(corridor(3), party=1)
    exploration.enter(gm, "test-site")
    link = gm.site_level().links[0]
    played: list[str] = []

    def lists(gm: GM, lk: SiteLink, threat: bool) -> list[Action]:
        return [Action(f"spike:{lk.id}", "spike", "Wedge the door with a chair", Cost(turns=2), target=str(lk.id))]

    def apply(gm: GM, action: Action) -> int:
        played.append(action.id)
        return 2

    rule = powers.ItemRule("spike_door", door=lists, kinds=("spike",), apply=apply, doing="wedging")
    monkeypatch.setitem(powers.ITEM_RULES, "spike_door", rule)
    action = next(a for a in gm.legal_actions() if a.kind == "spike")
    assert action.label == "Wedge the door with a chair" and action.target == str(link.id)
    exp = gm.c.expedition
    assert exp is not None
    turns = exp.turns
    gm.apply(action.id)
    assert played == [action.id] and exp.turns == turns + 2


def test_the_pole_is_the_tool_that_looks_for_traps_found_by_its_rule() -> None:
    gm = game(corridor(3), party=1)
    exploration.enter(gm, "test-site")
    look = next(a for a in gm.legal_actions() if a.kind == "look_for_traps")
    assert not look.available and "3 meter pole" in (look.reason or "")
    gm.c.party[0].adv.inventory.add(Carried("3 meter pole", "", slots=2))
    assert powers.tool_for(gm, "look_for_traps") is not None
    assert next(a for a in gm.legal_actions() if a.kind == "look_for_traps").available


def test_a_second_wine_before_a_camp_is_too_much() -> None:
    gm = game(corridor(3), party=1)
    exploration.enter(gm, "test-site")
    m = gm.c.party[0]
    m.adv.inventory.add(Carried("Wine", "", usage=4, liquid=True))
    m.adv.character.afflictions.add("parched")
    gm.apply(f"use:{m.id}:Wine:{m.id}")
    assert "nauseated" not in m.adv.character.afflictions and "parched" not in m.adv.character.afflictions
    if m.adv.inventory.find("Wine") is None:  # (the usage die may have run out)
        m.adv.inventory.add(Carried("Wine", "", usage=4, liquid=True))
    m.adv.character.afflictions.add("parched")
    gm.apply(f"use:{m.id}:Wine:{m.id}")
    assert "nauseated" in m.adv.character.afflictions
    exp = gm.c.expedition
    assert exp is not None
    exp.camped += 1  # a camp between: a fresh start
    m.adv.character.afflictions -= {"nauseated"}
    if m.adv.inventory.find("Wine") is None:
        m.adv.inventory.add(Carried("Wine", "", usage=4, liquid=True))
    m.adv.character.afflictions.add("parched")
    gm.apply(f"use:{m.id}:Wine:{m.id}")
    assert "nauseated" not in m.adv.character.afflictions and exp.drunk[m.id] == exp.camped


def test_drawing_tools_map_the_way_back_through_a_long_corridor() -> None:
    site = corridor(3)
    level = site.levels[0]
    site = replace(site, levels=(replace(level, links=tuple(replace(lk, length=10) for lk in level.links)),))
    gm = game(site, party=1)
    exploration.enter(gm, "test-site")
    link = gm.site_level().links[0]
    gm.apply("move:2")
    assert move_cost(gm, link, 1) == 1  # explored, but 10 tiles away: a turn, by the book
    m = gm.c.party[0]
    m.adv.inventory.add(Carried("Drawing tools", "", usage=8))
    assert move_cost(gm, link, 1) == 0 and move_cost(gm, gm.site_level().links[1], 3) == 1  # only the explored
    turns = gm.c.expedition.turns if gm.c.expedition else 0
    events = gm.apply("move:1")
    assert any(e.kind == "map" for e in events) and any(e.kind == "usage" for e in events)
    assert gm.c.expedition is not None and gm.c.expedition.turns == turns and gm.c.expedition.room == 1


def test_a_compass_finds_a_shorter_way_to_a_dungeon_off_the_roads() -> None:
    gm = game(corridor(3), party=2)
    assert [interlude.road_days(gm, d) for d in (0, 1, 2)] == [0, 1, 2]
    gm.c.party[1].adv.inventory.add(Carried("Compass", ""))
    assert [interlude.road_days(gm, d) for d in (0, 1, 2)] == [0, 0, 1]  # a day's road is close by (R227)


def test_the_exorcism_book_adds_a_die_to_a_prayer_that_banishes_the_undead() -> None:
    gm = game(corridor(3, r2={"monsters": (SiteMonsters("Slumbering Corpse", 1),)}), party=1, seed=2)
    exploration.enter(gm, "test-site")
    m = gm.c.party[0]
    m.adv.character.traits.append("Divine mandate")
    m.adv.inventory.add(Carried("Holy symbol", ""))
    m.adv.prayers = Prayers(memorised=["Judgment", "Cure Light Wounds"])
    assert powers.banishing_dice(gm, m, "prayer", "Judgment") == (0, "")
    combat.start(gm, [("Slumbering Corpse", 1)], source="test")

    def odds() -> str:
        label = next(a.label for a in gm.legal_actions() if a.kind == "pray" and "Judgment" in a.id)
        return label.rsplit("PRE ", 1)[1]

    before = odds()
    m.adv.inventory.add(Carried("Exorcism book", ""))
    assert powers.banishing_dice(gm, m, "prayer", "Judgment") == (1, "Exorcism book")
    assert powers.banishing_dice(gm, m, "prayer", "Cure Light Wounds") == (0, "")
    assert int(odds().rstrip("%)")) > int(before.rstrip("%)"))
    pray = next(a for a in gm.legal_actions() if a.kind == "pray" and "Judgment" in a.id and a.available)
    events = gm.apply(pray.id)
    assert any(e.kind == "bonus_dice" and "Exorcism book".lower() in e.text for e in events)


def test_ashes_of_insight_show_every_secret_and_hidden_trap_of_the_room() -> None:
    trap = SiteTrap("Pit", "A covered pit.", "stepping", "loose boards", "INT", "DEX: planks", None, "You fall.")
    secret = SiteSecret("treasure", "A loose stone hides a pouch.")
    gm = game(corridor(3, r1={"traps": (trap,), "secrets": (secret,)}), party=1)
    exploration.enter(gm, "test-site")
    m = gm.c.party[0]
    m.adv.inventory.add(Carried("Ashes of insight", ""))
    action = next(a for a in gm.legal_actions() if a.kind == "ashes")
    assert action.available and action.cost.turns == 0
    gm.apply(action.id)
    st = gm.room_state(1)
    assert st.secrets_found == [0] and st.traps[0].found
    assert m.adv.inventory.find("Ashes of insight") is None
    assert not [a for a in gm.legal_actions() if a.kind == "ashes"]


def test_an_effect_tag_is_one_handler_played_in_a_phase_or_said_where() -> None:
    for tag, h in powers.ITEM_SPECIALS.items():
        assert (h.outside is not None or h.fight is not None) != bool(h.elsewhere), tag
    assert powers.ITEM_SPECIALS["extra_combat_action"].outside is None  # a tonic's extra action is a fight's


def test_a_tonic_of_bravery_out_of_a_fight_is_played_by_its_handler() -> None:
    gm = game(corridor(3), party=1)
    exploration.enter(gm, "test-site")
    m = gm.c.party[0]
    powers.item_effect(gm, m, "immune_terrified_expedition", "Tonic of bravery")
    assert m.immune == ["terrified"] and gm.events[-1].kind == "tonic"


def test_lockpicking_tools_pick_a_lock_a_turn_and_a_usage_roll() -> None:
    gm = setup(doors={1: "locked"})
    pick = next(a for a in gm.legal_actions() if a.id == "pick:1")
    assert not pick.available and pick.reason == "Needs lockpicking tools."
    gm.c.party[0].adv.inventory.add(Carried("Lockpicking tools", "", usage=20))
    assert "pick:1" in {a.id for a in gm.legal_actions() if a.available}
    load(gm, 5, 6, 12)  # DEX 2: a success; the tools' usage die (Ud20): 12, kept
    events = gm.apply("pick:1")
    assert gm.level_state().doors[1].unlocked and any(e.text == "The lock gives." for e in events)
    assert gm.c.expedition is not None and gm.c.expedition.turns == 1
    assert not [a for a in gm.legal_actions() if a.kind == "pick"]  # unlocked: nothing left to pick


def test_iron_spikes_hold_a_spikeable_door() -> None:
    site = corridor(3, doors={1: "wooden"})
    level = site.levels[0]
    site = replace(site, levels=(replace(level, links=tuple(replace(lk, spikeable=True) for lk in level.links)),))
    gm = game(site, party=1)
    exploration.enter(gm, "test-site")
    spike = next(a for a in gm.legal_actions() if a.id == "spike:1")
    assert not spike.available and spike.reason == "Needs iron spikes."
    gm.c.party[0].adv.inventory.add(Carried("Iron spikes", "", usage=8))
    events = gm.apply("spike:1")
    door = gm.level_state().doors[1]
    assert door.spiked and door.wedged and any(
        e.text == "The door is wedged shut with iron spikes: whatever comes through must burst it." for e in events)
    assert not [a for a in gm.legal_actions() if a.kind == "spike"]


def test_iron_spikes_wedge_a_door_open() -> None:
    site = corridor(3, doors={1: "wooden"})
    level = site.levels[0]
    site = replace(site, levels=(replace(level, links=tuple(replace(lk, spikeable=True) for lk in level.links)),))
    gm = game(site, party=1)
    exploration.enter(gm, "test-site")
    gm.c.party[0].adv.inventory.add(Carried("Iron spikes", "", usage=8))
    events = gm.apply("spike:1:open")
    door = gm.level_state().doors[1]
    assert (door.spiked, door.wedged, door.opened) == (True, False, True)
    assert any(e.text == "The door is spiked open: a clear way back." for e in events)
    move = next(a for a in gm.legal_actions() if a.id == "move:2")
    assert move.label == "Go to an unexplored room (2) through the wooden door, spiked open"
