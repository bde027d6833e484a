"""Exploration through the engine, with a scripted dungeon and fixed seeds."""

from __future__ import annotations

import pytest

from rules.attributes import ATTRS, Attr
from rules.character import Condition
from rules.checks import RuleError
from rules.gm import exploration
from rules.gm.engine import GM
from rules.gm.gear import snuff
from rules.gm.site import SiteMonsters
from rules.gm.state import Campaign, Phase
from rules.inventory import Carried
from tests.gm.scripted import SiteLoot, SiteSecret, SiteTrap, corridor, game


def enter(gm: GM) -> None:
    exploration.enter(gm, "test-site")


def kinds(events: list[object]) -> list[str]:
    return [e.kind for e in events]  # type: ignore[attr-defined]


def test_entering_lights_a_torch_and_stands_in_room_one() -> None:
    gm = game(corridor())
    enter(gm)
    assert gm.c.phase is Phase.EXPLORATION and gm.c.expedition is not None
    assert gm.c.expedition.room == 1
    assert gm.c.party[0].lit == "Torches"
    assert gm.c.expedition.light_burns[gm.c.party[0].id] == 4  # Ud4
    torches = next(i for i in gm.c.party[0].adv.inventory.items if i.name == "Torches")
    assert torches.count == 1


def test_the_sixth_turn_rolls_decay() -> None:
    gm = game(corridor(8))
    enter(gm)
    for room in range(2, 7):
        events = gm.apply(f"move:{room}")
        assert "decay" not in kinds(events), f"decay too early, moving to room {room}"
    events = gm.apply("move:7")
    decays = [e for e in events if e.kind == "decay"]
    assert len(decays) == len(gm.alive())  # every adventurer rolls on the decay table
    assert gm.c.expedition is not None and gm.c.expedition.turns == 6 and gm.c.expedition.decay == 0
    assert gm.c.stats.decay_rolls == len(gm.alive())


def test_backtracking_nearby_is_free() -> None:
    gm = game(corridor())
    enter(gm)
    gm.apply("move:2")
    move_back = next(a for a in gm.legal_actions() if a.id == "move:1")
    assert move_back.cost.turns == 0
    gm.apply("move:1")
    assert gm.c.expedition is not None and gm.c.expedition.turns == 1


def test_a_torch_burns_out_and_the_dark_costs() -> None:
    gm = game(corridor(), seed=3)
    gm.c.party[0].adv.inventory.items = [i for i in gm.c.party[0].adv.inventory.items if i.name != "Torches"]
    gm.c.party[0].adv.inventory.add(Carried("Torches", "", count=1, rarity="common"))
    enter(gm)
    out = False
    for _ in range(60):  # decays every 6 turns; a Ud4 torch is gone within a few of them
        events = []
        for _ in range(6):
            exploration.end_turn(gm, 1, "waiting")
            events += gm.events
            gm.events = []
        if "light_out" in kinds(events):
            out = True
            break
    assert out, "the torch never burnt out"
    assert not any(m.lit for m in gm.alive())
    gm.events = []
    before = {m.id: (m.adv.character.attrs[Attr.PRE].fatigue, set(m.adv.character.afflictions)) for m in gm.alive()}
    exploration.end_turn(gm, 1, "in the dark")
    for m in gm.alive():
        fat, aff = before[m.id]
        ch = m.adv.character
        paid = ch.attrs[Attr.PRE].fatigue > fat or "terrified" in ch.afflictions - aff or ch.attrs[Attr.PRE].wounds
        # a PRE of 0 cannot take the fatigue: collapse; already terrified, choosing it again is ignored (R189)
        assert paid or ch.condition.value == "collapsed" or "terrified" in aff


def test_the_terrified_endure_the_dark_and_a_collapsed_party_comes_to_for_good() -> None:
    """R189: terrified again in the dark is ignored, so a party in the dark is not collapsed turn after turn
    (a campaign once spent turns 4 to 72 collapsing and coming to)."""
    gm = game(corridor(), seed=3, light=False)
    enter(gm)
    for m in gm.alive():
        m.adv.character.afflictions.add("terrified")
        m.adv.character.attrs[Attr.PRE].fatigue = m.adv.character.attrs[Attr.PRE].score  # no PRE die left
        m.adv.character.condition = Condition.COLLAPSED
    assert [a.id for a in gm.legal_actions()] == ["come_to"]
    gm.apply("come_to")
    assert all(m.adv.character.can_act for m in gm.alive())
    assert any(a.kind == "move" and a.available for a in gm.legal_actions())  # they can crawl back
    gm.apply("breath")  # another turn in the dark
    assert all(m.adv.character.can_act for m in gm.alive())


def test_locked_door_needs_its_key_or_picks() -> None:
    site = corridor(
        4, doors={1: "locked"}, r1={"loot": (SiteLoot("Key to the locked door between rooms 1 and 2", "free", 0),)}
    )
    gm = game(site)
    enter(gm)
    move = next(a for a in gm.legal_actions() if a.id == "move:2")
    assert not move.available and "locked" in (move.reason or "")
    unlock = next(a for a in gm.legal_actions() if a.id == "unlock:1")
    assert not unlock.available
    gm.apply("loot")
    gm.apply("unlock:1")
    gm.apply("move:2")
    assert gm.c.expedition is not None and gm.c.expedition.room == 2


def test_a_key_opens_only_the_door_of_the_dungeon_it_was_found_in() -> None:
    """Room numbers recur in every dungeon: seed 9's party carried the key to "the locked door between rooms 3 and
    4" of one dungeon into another, where the autoplay took it for the key to that dungeon's stuck door between
    rooms 3 and 4 and walked back and forth between two rooms forever (moving back is free: no turn passed)."""
    from rules.gm.places import key_for

    key = "Key to the locked door between rooms 1 and 2"
    gm = game(corridor(4, doors={1: "locked", 2: "stuck"}, r1={"loot": (SiteLoot(key, "free", 0),)}))
    enter(gm)
    gm.apply("loot")
    (carried,) = [i for m in gm.c.party for i in m.adv.inventory.items if i.name == key]
    assert carried.notes == "Found in test-site, level 1."
    level = gm.site_level()
    locked, stuck = (next(lk for lk in level.links if lk.id == i) for i in (1, 2))
    assert key_for(gm, locked) is carried
    assert key_for(gm, stuck) is None  # a stuck door has no key, whatever the numbers
    carried.notes = "Found in another place, level 1."
    assert key_for(gm, locked) is None
    assert not next(a for a in gm.legal_actions() if a.id == "unlock:1").available


def test_forcing_a_stuck_door_is_noisy() -> None:
    gm = game(corridor(4, doors={1: "stuck"}), seed=5)
    enter(gm)
    with pytest.raises(RuleError):
        gm.apply("move:2")
    gm.apply("force:1")
    assert gm.level_state().doom == 1
    while not gm.level_state().doors[1].broken:
        gm.apply("force:1")
    gm.apply("move:2")
    assert gm.c.expedition is not None and gm.c.expedition.room == 2


def test_a_secret_door_is_found_by_searching() -> None:
    secret = (SiteSecret("door", "A loose stone.", "INT", "connection 1"),)
    gm = game(corridor(3, doors={1: "secret"}, r1={"secrets": secret}), seed=2)
    enter(gm)
    assert not any(a.id == "move:2" for a in gm.legal_actions())
    for _ in range(40):  # search until an INT test succeeds
        gm.room_state().searched = False
        gm.apply("search")
        if gm.level_state().doors.get(1) and gm.level_state().doors[1].found:
            break
    assert any(a.id == "move:2" and a.available for a in gm.legal_actions())


def test_looting_sets_off_an_unfound_trap() -> None:
    trap = SiteTrap(
        "Needle", "A needle in the lock.", "opening", "a glint", "INT", "DEX: carefully", "DEX 1", "A needle bites."
    )
    gm = game(corridor(3, r1={"traps": (trap,), "loot": (SiteLoot("Silver cup", "uncommon", 9),)}), seed=4)
    enter(gm)
    events = gm.apply("loot")
    assert "trap" in kinds(events)
    assert gm.room_state().traps[0].triggered
    assert any(i.name == "Silver cup" and i.value == 9 for m in gm.alive() for i in m.adv.inventory.items)


def test_doom_steps_fire_at_their_ticks_and_feed_the_omens() -> None:
    gm = game(corridor())
    enter(gm)
    omens_before = gm.c.omens.filled + gm.c.omens.size * gm.c.omens.times_filled
    fired = gm.advance_doom(1, "test")
    assert fired == []
    fired = gm.advance_doom(1, "test")
    assert [s.kind for s in fired] == ["lights_snuffed"]
    assert not any(m.lit for m in gm.alive())
    assert gm.c.stats.doom_events == 1
    omens_after = gm.c.omens.filled + gm.c.omens.size * gm.c.omens.times_filled
    assert omens_after == omens_before + 1 or gm.c.omens.times_filled > 0
    fired = gm.advance_doom(2, "test")
    assert [s.kind for s in fired] == ["affliction"]
    assert all("shaken" in m.adv.character.afflictions for m in gm.alive())


def test_doomed_adds_a_tick_per_movement() -> None:
    gm = game(corridor())
    enter(gm)
    gm.c.party[0].adv.character.add_affliction("doomed")
    gm.advance_doom(1, "test")
    assert gm.level_state().doom == 2


def test_catch_breath_recovers_one_fatigue_each_attribute() -> None:
    gm = game(corridor())
    enter(gm)
    m = gm.c.party[0]
    for a in ATTRS:
        if m.adv.character.attrs[a].available > 0:
            m.adv.character.add_fatigue(a)
    tired = {a: m.adv.character.attrs[a].fatigue for a in ATTRS}
    gm.apply("breath")
    for a in ATTRS:
        assert m.adv.character.attrs[a].fatigue == max(0, tired[a] - 1)


def test_campaign_survives_a_save_round_trip_mid_expedition() -> None:
    gm = game(corridor())
    enter(gm)
    gm.apply("move:2")
    data = gm.c.to_dict()
    again = Campaign.from_dict(data)
    assert again == gm.c
    gm2 = GM(again, gm.content, gm.maker)
    assert [a.id for a in gm2.legal_actions()] == [a.id for a in gm.legal_actions()]


def test_a_sealed_exit_can_be_forced_at_a_cost() -> None:
    gm = game(corridor(), seed=6)
    enter(gm)
    assert gm.c.expedition is not None
    gm.c.expedition.exit_sealed = True
    exit_action = next(a for a in gm.legal_actions() if a.id == "exit")
    assert not exit_action.available and "sealed" in (exit_action.reason or "")
    doom = gm.level_state().doom
    for _ in range(30):
        gm.apply("unseal")
        if not gm.c.expedition.exit_sealed:
            break
    assert not gm.c.expedition.exit_sealed
    assert gm.level_state().doom > doom  # every attempt is noisy
    assert next(a for a in gm.legal_actions() if a.id == "exit").available


def test_doom_woken_by_leaving_plays_out_behind_the_party() -> None:
    """R184: the final fight fires as the party leaves; the monsters find no one, and no fight starts."""
    gm = game(corridor(3))
    enter(gm)
    lv = gm.level_state()
    lv.doom, lv.fired = 12, [0, 1, 2, 3, 4, 5]  # the next two ticks are the final fight
    combats = gm.c.stats.combats
    events = gm.apply("exit")
    assert lv.doom == 14 and 6 in lv.fired and gm.c.stats.doom_events == 1
    assert "too_late" in kinds(events) and "combat" not in kinds(events) and "test" not in kinds(events)
    assert gm.c.stats.combats == combats and gm.c.combat is None
    assert gm.c.phase is Phase.INTERLUDE and gm.c.expedition is None
    assert any("Bugbear" in e.text and "no one" in e.text for e in events)  # type: ignore[attr-defined]


def test_a_torch_snuffed_on_purpose_is_kept_and_burns_on_from_its_die() -> None:
    """R186: "snuffing out torches" is a free action; what is left of the torch goes back to the pack."""
    gm = game(corridor())
    enter(gm)
    m = gm.c.party[0]
    assert gm.c.expedition is not None
    gm.c.expedition.light_burns[m.id] = 3  # it has burnt a while
    turns = gm.c.expedition.turns
    action = next(a for a in gm.legal_actions() if a.id == f"snuff:{m.id}")
    assert action.available and action.cost.turns == 0 and "Ud3" in action.label
    gm.apply(action.id)
    assert m.lit is None and gm.c.expedition.turns == turns
    stub = next(i for i in m.adv.inventory.items if i.name == "Torches" and i.usage == 3)
    assert stub.count == 1
    pack = next(i for i in m.adv.inventory.items if i.name == "Torches" and i.usage is None)
    assert pack.count == 1  # the fresh one is untouched
    gm.apply(f"light:{m.id}")  # the stub is lit first, from its own die
    assert m.lit == "Torches" and gm.c.expedition.light_burns[m.id] == 3
    assert stub not in m.adv.inventory.items and pack.count == 1


def test_leaving_keeps_the_lit_torch_but_a_burnt_out_one_is_gone() -> None:
    gm = game(corridor())
    enter(gm)
    m = gm.c.party[0]
    assert gm.c.expedition is not None
    gm.c.expedition.light_burns[m.id] = 2
    gm.apply("exit")
    torches = sorted((i.count, i.usage or 0) for i in m.adv.inventory.items if i.name == "Torches")
    assert torches == [(1, 0), (1, 2)]  # the pack's other torch, and the stub of the lit one
    gm2 = game(corridor())
    enter(gm2)
    m2 = gm2.c.party[0]
    snuff(gm2, m2, "burnt out")
    assert [i.count for i in m2.adv.inventory.items if i.name == "Torches"] == [1]  # only the unlit one


# --- the master of the place (#14): there is one, wherever it is ------------------------------------------------


def lair_game() -> GM:
    """A corridor of 4 rooms whose room 4 is the Bugbear's lair (the final doom fight's master)."""
    site = corridor(4, r4={"boss": True, "monsters": (SiteMonsters("Bugbear", 1, ((22, 1),)),)})
    gm = game(site, party=2)
    exploration.enter(gm, "test-site")
    return gm


def bugbears(gm: GM) -> int:
    return sum(g.count for st in gm.level_state().rooms.values() for g in st.monsters if g.monster == "Bugbear")


def test_the_master_who_hunts_leaves_its_lair_instead_of_being_copied() -> None:
    gm = lair_game()
    assert gm.c.expedition is not None
    gm.c.expedition.boss_hunts = True
    gm.apply("move:2")
    assert gm.c.phase is Phase.COMBAT
    cs = gm.c.combat
    assert cs is not None and [f.monster for f in cs.foes] == ["Bugbear"]
    assert gm.room_state(4).monsters[0].count == 0  # the lair is empty: the one master is here
    assert bugbears(gm) == 0


def test_a_dead_master_does_not_come_back_for_the_final_fight() -> None:
    from rules.gm.site import SiteDoomStep

    gm = lair_game()
    lair = gm.room_state(4).monsters[0]
    lair.count, lair.killed = 0, 1  # the party killed it in its lair
    events_before = len(gm.events)
    exploration.fire_doom(gm, SiteDoomStep(2, "final_fight", "It comes.", monsters=(("Bugbear", 1),)))
    assert gm.c.phase is Phase.EXPLORATION and gm.c.combat is None
    assert any(e.kind == "master_gone" for e in gm.events[events_before:])


def test_the_final_fight_brings_the_master_from_its_lair() -> None:
    from rules.gm.site import SiteDoomStep

    gm = lair_game()
    step = SiteDoomStep(2, "final_fight", "It comes.", monsters=(("Bugbear", 1), ("Freshly Risen Corpse", 2)))
    exploration.fire_doom(gm, step)
    cs = gm.c.combat
    assert cs is not None and sorted(f.monster for f in cs.foes).count("Bugbear") == 1
    assert gm.room_state(4).monsters[0].count == 0


def test_a_room_that_never_held_loot_says_nothing_of_value_not_nothing_left() -> None:
    gm = game(corridor(3), party=1)
    enter(gm)
    loot = next(a for a in gm.legal_actions() if a.kind == "loot")
    assert not loot.available and loot.reason == "Nothing of value in sight."


def test_a_trap_is_disarmed_with_the_attribute_its_text_names() -> None:
    """The falling lid is lowered "with two people" (STR), not picked at (DEX)."""
    lid = SiteTrap("Falling lid", "A lid.", "looting", "scratches", "INT", "STR: lowering the lid with two people",
                   "-STR 3", "The lid falls.")  # fmt: skip
    gm = game(corridor(3, r1={"traps": (lid,)}), seed=4)
    enter(gm)
    gm.room_state().traps[0].found = True
    disarm = next(a for a in gm.legal_actions() if a.kind == "disarm")
    assert disarm.label == "Disarm the Falling lid (STR)"
    events = gm.apply(disarm.id)
    tests = [e for e in events if e.kind == "test"]
    assert tests and tests[0].data["attr"] == "STR"


def test_a_trap_set_off_by_looting_strikes_whoever_the_gm_rolls_not_always_the_first() -> None:
    """R190: over twenty seeds, the needle finds more than one of the three looters."""
    victims = set()
    for seed in range(20):
        trap = SiteTrap("Needle", "A needle.", "opening", "a glint", "INT", "DEX: carefully", None, "It bites.")
        gm = game(corridor(3, r1={"traps": (trap,), "loot": (SiteLoot("Silver cup", "uncommon", 9),)}), seed=seed,
                  party=3)  # fmt: skip
        enter(gm)
        events = gm.apply("loot")
        victims |= {e.data["who"] for e in events if e.kind == "trap"}
    assert len(victims) > 1


# --- the master of the place and the bounty (#14) -------------------------------------------------------


def escorted_lair_game() -> GM:
    """Room 4 is the Bugbear's lair, with two corpses guarding it."""
    site = corridor(4, r4={"boss": True, "monsters": (SiteMonsters("Bugbear", 1, ((22, 1),)),
                                                        SiteMonsters("Freshly Risen Corpse", 2, ((21, 1), (21, 2))))})
    gm = game(site, party=2)
    exploration.enter(gm, "test-site")
    return gm


def test_the_bounty_is_earned_when_the_master_dies_whatever_else_stands() -> None:
    """The master killed away from its lair, its escort still there: the bounty is earned, and said (R220)."""
    gm = escorted_lair_game()
    lair = gm.room_state(4)
    lair.monsters[0].count = 0  # the master left to hunt the party ...
    from rules.gm.state import GroupState

    gm.room_state(2).monsters.append(GroupState("Bugbear", 0, killed=1))  # ... and died in room 2
    assert lair.monsters[1].count == 2
    gm.events = []
    exploration.check_master(gm)
    loc = gm.location()
    assert loc.cleared
    said = next(e for e in gm.events if e.kind == "master_dead")
    assert "bounty" in said.text and gm.c.settlement in said.text
    gm.events = []
    exploration.check_master(gm)
    assert not any(e.kind == "master_dead" for e in gm.events)  # said once


def test_the_master_alive_somewhere_earns_nothing() -> None:
    gm = escorted_lair_game()
    gm.room_state(4).monsters[1].count = 0
    gm.room_state(4).monsters[1].killed = 2  # the escort dead, the master alive
    exploration.check_master(gm)
    assert not gm.location().cleared


def test_the_doom_of_leaving_strikes_no_one_at_the_door() -> None:
    """R221: a hazard woken by leaving (falling stones) happens behind the party."""
    from rules.gm.site import SiteDoomStep

    gm = lair_game()
    assert gm.c.expedition is not None
    gm.c.expedition.leaving = True
    before = [sum(m.adv.character.attrs[a].wounds for a in ATTRS) for m in gm.alive()]
    exploration.fire_doom(gm, SiteDoomStep(2, "ceiling_collapse", "The ceiling falls.", attack="DEX 3"))
    assert [sum(m.adv.character.attrs[a].wounds for a in ATTRS) for m in gm.alive()] == before
    assert any(e.kind == "too_late" for e in gm.events)


def test_a_doom_step_fired_by_leaving_is_told_as_behind_the_party() -> None:
    gm = lair_game()
    steps = gm.site_level().doom
    if not steps:
        pytest.skip("the test corridor has no doom track")
    assert gm.c.expedition is not None
    gm.c.expedition.leaving = True
    gm.events = []
    gm.advance_doom(sum(s.ticks for s in steps), "leaving the dungeon")
    fired = [e for e in gm.events if e.kind == "doom_event"]
    assert fired and all(e.data.get("hidden") and e.text.startswith("Behind the party") for e in fired)
