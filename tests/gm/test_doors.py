"""A door shut against the monsters means something (#13, RULINGS R246-R248): iron spikes or a barricade wedge it,
the Knock/Lock spell locks it, and whatever comes through must burst it, noisily, or wait at it."""

from __future__ import annotations

from dataclasses import replace

from rules.gm import exploration
from rules.gm.engine import GM
from rules.gm.places import door_state, holds
from rules.gm.site import SiteMonsters
from rules.gm.state import Phase
from rules.inventory import Carried
from tests.gm.scripted import Loaded, corridor, game
from tests.gm.test_combat import cs_of, plain
from tests.gm.test_outside_powers import caster, offered


def spikeable(**rooms: dict[str, object]) -> GM:
    """Rooms 1-2-3 joined by wooden doors iron spikes can wedge; one adventurer with spikes, no light to burn."""
    site = corridor(3, doors={1: "wooden", 2: "wooden"}, **rooms)
    level = site.levels[0]
    site = replace(site, levels=(replace(level, links=tuple(replace(lk, spikeable=True) for lk in level.links)),))
    gm = game(site, seed=6, party=1, light=False)
    for m in gm.c.party:
        plain(m)
    gm.c.party[0].adv.inventory.add(Carried("Iron spikes", "", usage=8))
    exploration.enter(gm, "test-site")
    return gm


def texts(gm: GM, kind: str) -> list[str]:
    return [e.text for e in gm.events if e.kind == kind]


def test_a_door_spiked_shut_stops_what_the_doom_sends_until_it_bursts_it() -> None:
    gm = spikeable()
    gm.apply("move:2")  # the party came from room 1 through door 1
    gm.rng = Loaded(6, [5])  # the spikes' usage die (Ud8): 5, kept
    gm.apply("spike:1")
    link = gm.site_level().links[0]
    assert door_state(gm, link).wedged and holds(gm, link) == "wedged shut"
    assert offered(gm, "move:1").label == "Go to Room 1 (room 1) through the wooden door, wedged shut"  # type: ignore[attr-defined]
    gm.events = []
    gm.rng = Loaded(6, [1, 2, 3, 3, 1])  # the Bugbear (level 5) at the door: five dice, no 4
    exploration._enemies_arrive(gm, [("Bugbear", 1)], "doom: it comes")
    assert gm.c.phase is Phase.EXPLORATION and gm.c.combat is None
    assert texts(gm, "door_holds") == [
        "Something pounds at the door to Room 1 (room 1): it holds (wedged shut; 5 dice: [1, 2, 3, 3, 1])."]
    exp = gm.c.expedition
    assert exp is not None and exp.at_door == [[1, 2, 1, -1, "doom: it comes", [["Bugbear", 1]]]]
    gm.rng = Loaded(6, [1, 1, 1, 1, 4])  # next turn: a 4, the door bursts
    exploration.end_turn(gm, 1, "waiting")
    assert texts(gm, "door_burst") == [
        "A crash: something bursts the door (wedged shut) from Room 1 (room 1) (5 dice: [1, 1, 1, 1, 4])."]
    st = door_state(gm, link)
    assert (st.broken, st.wedged) == (True, False) and exp.at_door == []
    assert gm.c.phase is Phase.COMBAT and [f.monster for f in cs_of(gm).foes] == ["Bugbear"]


def test_an_open_way_lets_the_doom_through_at_once() -> None:
    gm = spikeable()
    gm.apply("move:2")
    exploration._enemies_arrive(gm, [("Bugbear", 1)], "doom: it comes")
    assert gm.c.phase is Phase.COMBAT and not texts(gm, "door_holds")


def test_the_doom_loses_a_party_that_left_and_waits_beyond_the_door() -> None:
    gm = spikeable()
    gm.apply("move:2")
    gm.rng = Loaded(6, [5, 1, 1, 1, 1, 1])
    gm.apply("spike:1")
    exploration._enemies_arrive(gm, [("Bugbear", 1)], "doom: it comes")
    gm.rng = Loaded(6, [4])  # their stay as wanderers, once they lost the party: 1d4 = 4 turns
    gm.apply("move:3")  # on, through door 2: they lose the party and stay on their side, in room 1
    exp = gm.c.expedition
    assert exp is not None and exp.at_door == [] and gm.c.phase is Phase.EXPLORATION
    assert [(g.monster, g.count, g.leaves_in) for g in gm.room_state(1).monsters] == [("Bugbear", 1, 3)]


def flee_to_room_1(gm: GM) -> None:
    """The party meets a hostile Bugbear in room 2 and flees back through door 1."""
    gm.room_state(2).monsters[0].attitude = "hostile"
    gm.rng = Loaded(6, [5, 5])  # the initiative check: fast
    gm.apply("move:2")
    f = cs_of(gm).fighters[0]
    f.x, f.y = 10, 1
    gm.apply(f"flee:{f.id}")
    assert gm.c.phase is Phase.EXPLORATION and gm.c.expedition is not None and gm.c.expedition.room == 1


BUGBEAR = {"r2": {"monsters": (SiteMonsters("Bugbear", 1, ((12, 2),)),)}}


def test_a_fled_fight_pursues_the_party_through_an_open_door() -> None:
    gm = spikeable(**BUGBEAR)
    flee_to_room_1(gm)
    gm.apply("search")  # a turn spent in the room the party fled to: the Bugbear comes after it
    assert gm.c.phase is Phase.COMBAT and [f.monster for f in cs_of(gm).foes] == ["Bugbear"]
    assert gm.room_state(2).monsters[0].count == 0  # it left its room


def test_spiking_the_door_behind_a_fled_fight_stops_the_pursuers() -> None:
    gm = spikeable(**BUGBEAR)
    flee_to_room_1(gm)
    gm.events = []
    gm.rng = Loaded(6, [5, 3, 3, 2, 1, 1])  # the spikes' usage die: 5; the Bugbear's five dice: no 4
    gm.apply("spike:1")
    assert gm.c.phase is Phase.EXPLORATION and gm.c.combat is None
    assert texts(gm, "door_holds") == [
        "Something pounds at the door to Room 2 (room 2): it holds (wedged shut; 5 dice: [3, 3, 2, 1, 1])."]
    assert gm.room_state(2).monsters[0].count == 1  # still behind the door
    exp = gm.c.expedition
    assert exp is not None and exp.at_door and exp.at_door[0][3] == 2


def test_knock_lock_locks_a_door_that_then_holds_and_knocks_it_open_again() -> None:
    gm = game(corridor(3, doors={1: "wooden"}))
    exploration.enter(gm, "test-site")
    who = caster(gm, spell="Knock/Lock")
    link = gm.site_level().links[0]
    assert offered(gm, f"cast:{who}:Knock/Lock").available
    gm.apply(f"cast:{who}:Knock/Lock")
    st = door_state(gm, link)
    assert st.locked and holds(gm, link) == "locked"
    move = offered(gm, "move:2")
    assert not move.available and move.reason == "The door is locked: use its key or pick the lock."  # type: ignore[attr-defined]
    gm.c.party[0].adv.spellbook.forgotten.clear()
    gm.apply(f"cast:{who}:Knock/Lock")
    assert not st.locked and st.unlocked and holds(gm, link) is None and offered(gm, "move:2").available  # type: ignore[attr-defined]


def test_knock_lock_is_greyed_with_no_door_to_lock_or_open() -> None:
    gm = game(corridor(3))  # archways only
    exploration.enter(gm, "test-site")
    who = caster(gm, spell="Knock/Lock")
    assert offered(gm, f"cast:{who}:Knock/Lock").reason == "No door here to open or to lock."  # type: ignore[attr-defined]


def test_which_doors_hold_against_creatures_and_what_the_party_reads_on_them() -> None:
    gm = game(corridor(4, doors={1: "locked", 2: "stuck", 3: "barricaded"}))
    exploration.enter(gm, "test-site")
    locked, stuck, barricade = gm.site_level().links
    assert [holds(gm, lk) for lk in (locked, stuck, barricade)] == ["locked", None, "barricaded"]
    door_state(gm, locked).unlocked = True
    assert holds(gm, locked) is None
    assert offered(gm, "move:2").label == "Go to an unexplored room (2) through the locked door, unlocked"  # type: ignore[attr-defined]
    who = caster(gm, spell="Knock/Lock")
    gm.apply(f"cast:{who}:Knock/Lock")  # the only door here: it locks again
    assert holds(gm, locked) == "locked"
    assert offered(gm, "move:2").label == "Go to an unexplored room (2) through the locked door, locked by a spell"  # type: ignore[attr-defined]


def test_the_autoplay_spikes_the_door_behind_a_fled_fight_rather_than_wait_for_the_pursuers() -> None:
    """Pursuit added fights the autoplay walked into (balance.py 40 x 10: 1.17 -> 1.26 fights an expedition): after
    fleeing, it caught its breath or searched where the creatures would come through. With spikes it wedges the
    door in that turn; the turn spent anywhere but moving on."""
    from rules.autoplay import player

    gm = spikeable(**BUGBEAR)
    flee_to_room_1(gm)
    exp = gm.c.expedition
    assert exp is not None and [b[3] for b in exp.at_door] == [2]
    choice = player.explore(gm, [a for a in gm.legal_actions() if a.available])
    assert choice.id == "spike:1"
    gm.c.party[0].adv.inventory.items = [i for i in gm.c.party[0].adv.inventory.items if i.name != "Iron spikes"]
    choice = player.explore(gm, [a for a in gm.legal_actions() if a.available])
    assert choice.kind in ("move", "exit", "stairs") or choice.cost.turns == 0
