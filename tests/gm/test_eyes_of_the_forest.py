"""Akhzu's Eyes of the forest (#13, RULINGS R202): an eye on a tree in sight that the cleric sees through for the
rest of the expedition — what "a tree" is in a dungeon, the eye's first look, the changes it tells, the camp it
watches, and the prayer in a fight."""

from __future__ import annotations

from typing import Any

import pytest

from rules.gm import combat, exploration, powers
from rules.gm.engine import GM
from rules.gm.site import SiteFeature, SiteLoot, SiteMonsters
from tests.gm.scripted import corridor, game
from tests.gm.test_camp import ambush_ready, fights  # noqa: F401  (a fixture)
from tests.gm.test_outside_powers import caster

EYE = "Eyes of the forest"
ROOTS: dict[str, Any] = {"features": (SiteFeature("Tangle", "Roots of the wood above come through the ceiling."),)}


def at(gm: GM, room: int) -> None:
    """The party stands in ``room`` (no door on the way opened)."""
    exp = gm.c.expedition
    assert exp is not None
    exp.room = room
    gm.room_state(room).seen = gm.room_state(room).visited = True


def eye() -> powers.Power:
    power = powers.handler("prayer", EYE)
    assert power is not None and power.outside is not None and power.ready is not None
    return power


def test_a_tree_is_living_wood_named_in_a_room_or_the_island_outside_the_way_in() -> None:
    site = corridor(5, r2={"features": (SiteFeature("Grooves", "The floor is cut with grooves."),)}, r3=ROOTS,
                    r4={"features": (SiteFeature("A dead oak", "Its branches scrape the ceiling."),)})  # fmt: skip
    gm = game(site)
    exploration.enter(gm, "test-site")
    found = {r: powers.has_terrain(gm, "tree", r) for r in range(1, 6)}
    assert found == {1: True, 2: False, 3: True, 4: True, 5: False}  # 1: the way in, on the island's surface


def test_the_eye_opens_on_a_tree_in_sight_and_shows_its_room() -> None:
    site = corridor(4, doors={1: "wooden"}, r3={**ROOTS, "monsters": (SiteMonsters("Hobgoblin", 2, aware=False),),
                    "loot": (SiteLoot("Silver cup", "valuable", 20),)})  # fmt: skip
    gm = game(site)
    exploration.enter(gm, "test-site")
    at(gm, 2)
    m = gm.c.party[0]
    assert eye().ready(gm, m) is None
    eye().outside(gm, m)  # type: ignore[misc]
    exp = gm.c.expedition
    assert exp is not None and (exp.eye_by, exp.eye_depth, exp.eye_room) == (m.id, 1, 3)
    shown = next(e for e in gm.events if e.kind == "eye")
    assert "2 Hobgoblin (unaware)" in shown.text and "Silver cup" in shown.text and gm.room_state(3).seen
    assert eye().ready(gm, m) == "No tree in sight: no roots or trees here or through an open way."


def test_no_tree_in_sight_behind_a_closed_door() -> None:
    gm = game(corridor(4, doors={1: "wooden", 2: "wooden"}, r3=ROOTS))
    exploration.enter(gm, "test-site")
    at(gm, 2)
    assert eye().ready(gm, gm.c.party[0]) == "No tree in sight: no roots or trees here or through an open way."


def test_through_the_eye_the_cleric_sees_the_creatures_of_its_room_come_and_go() -> None:
    site = corridor(4, doors={1: "wooden"}, r3={**ROOTS, "monsters": (SiteMonsters("Hobgoblin", 2),)})
    gm = game(site)
    exploration.enter(gm, "test-site")
    at(gm, 2)
    eye().outside(gm, gm.c.party[0])  # type: ignore[misc]
    mark = len(gm.events)
    exploration.end_turn(gm, 1, "waiting")
    assert not [e for e in gm.events[mark:] if e.kind == "eye"]  # nothing changed: nothing told
    gm.room_state(3).monsters[0].count = 0  # they move on
    exploration.end_turn(gm, 1, "waiting")
    told = [e for e in gm.events[mark:] if e.kind == "eye"]
    assert len(told) == 1 and "sees no one in room 3" in told[0].text


def test_the_eye_is_saved_with_the_expedition() -> None:
    from rules.gm import serial
    from rules.gm.state import ExpeditionState

    gm = game(corridor(3, doors={1: "wooden"}, r3=ROOTS))
    exploration.enter(gm, "test-site")
    at(gm, 2)
    eye().outside(gm, gm.c.party[0])  # type: ignore[misc]
    exp = gm.c.expedition
    assert serial.load(ExpeditionState, serial.dump(exp)) == exp


def test_a_camp_the_eye_watches_is_not_caught_by_surprise(fights: list[Any]) -> None:  # noqa: F811
    gm = ambush_ready(20)  # dice 6, 6, 2: surprise, but for the eye
    exp = gm.c.expedition
    assert exp is not None
    exp.eye_by, exp.eye_depth, exp.eye_room = gm.c.party[0].id, 1, exp.room  # the camp's room, the way in
    events = gm.apply("break")
    assert fights[0][1] == {"source": "ambush", "surprise": None}
    assert any(e.kind == "eye" and "no surprise" in e.text for e in events)


def test_in_a_fight_the_prayer_opens_the_eye_where_the_fight_is() -> None:
    gm = game(corridor(3, doors={1: "wooden", 2: "wooden"}, r2={**ROOTS, "monsters": (SiteMonsters("Hobgoblin", 1),)}),
              seed=4)  # fmt: skip
    exploration.enter(gm, "test-site")
    who = caster(gm, prayer=EYE)
    exp = gm.c.expedition
    assert exp is not None
    exp.room = 2
    combat.start(gm, [("Hobgoblin", 1)], source="test")
    cs = gm.c.combat
    assert cs is not None
    f = next(g for g in cs.fighters if g.id == who)
    offered = [a for a in gm.legal_actions() if a.kind == "pray" and EYE in a.id]
    assert offered and all(a.available or a.reason for a in offered)
    power = eye()
    assert power.fight is not None
    power.fight(gm, cs, f, gm.c.party[0], f)
    assert (exp.eye_depth, exp.eye_room) == (1, 2)  # the fight's room: the doors are shut


@pytest.mark.parametrize("kind", ["spell", "prayer"])
def test_every_power_is_played(kind: str) -> None:
    from rules.content.registry import load_content

    assert not [x for x in powers.unplayed(load_content()) if x.startswith(kind)]


def test_the_autoplay_opens_the_eye_only_on_a_room_it_has_not_explored() -> None:
    """Seed 4's cleric opened the eye on the entrance it stood in, every expedition: a PRE fatigue to see nothing."""
    from rules.autoplay import powers_policy
    from rules.magic import Prayers

    def chosen(gm: GM) -> str | None:
        a = powers_policy.exploring(gm, [a for a in gm.legal_actions() if a.available], leaving=False)
        return a.id if a is not None else None

    for doors, expect in (({1: "wooden"}, False), ({}, True)):  # the way to the roots shut, then open
        gm = game(corridor(4, doors=doors, r2=ROOTS))
        exploration.enter(gm, "test-site")
        m = gm.c.party[0]
        m.adv.prayers = Prayers(memorised=[EYE])
        pray = f"pray:{m.id}:{EYE}"
        assert pray in {a.id for a in gm.legal_actions() if a.available}  # the way in is a tree: it may be said
        assert powers.eye_trees(gm) == ([2, 1] if expect else [1])
        assert (chosen(gm) == pray) is expect  # ...but only the unexplored roots are worth it
