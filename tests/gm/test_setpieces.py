"""Set pieces, skill notes and wants (rules.gm.setpieces, issue #15), on the scripted corridor with loaded dice:
a pump worked in one room drains another, what it held can be taken and what it hid comes out; a skill makes
out a room's note; a group given what it wants turns friendly, tells what it knows and goes."""

from __future__ import annotations

from dataclasses import replace

from rules.gm import exploration
from rules.gm.engine import GM
from rules.gm.events import Event
from rules.gm.site import SiteLoot, SiteMonsters, SitePiece, SiteWant
from rules.inventory import Carried
from tests.gm.scripted import Loaded, corridor, game
from tests.gm.test_freeform import plain, skill

PUMP = SitePiece(
    "The old pump", control=2, target=3, text="A pump.", success="It draws.", after="The water is gone.",
    before="Water stands waist-deep.", test="STR", skill="Crafting", failure="It will not budge.",
    hazard="DEX 1", holds=True, releases=(("Giant Leech", 2),), doom=1,
)  # fmt: skip
GOLD = SiteLoot("Gold ring", "valuable", 20)


def setup(*pieces: SitePiece, party: int = 1, **rooms: dict[str, object]) -> GM:
    site = corridor(4, r3={"loot": (GOLD, SiteLoot("Key to the locked door between rooms 3 and 4", "free", 0))},
                    **rooms)  # fmt: skip
    site = replace(site, levels=(replace(site.levels[0], pieces=pieces),))
    gm = game(site, party=party, light=False)
    for m in gm.c.party:
        plain(m)
    exploration.enter(gm, "test-site")
    gm.rng = Loaded(1)
    gm.events = []
    return gm


def act(gm: GM, action_id: str) -> list[Event]:
    action = {a.id: a for a in gm.legal_actions()}[action_id]
    assert action.available, action.reason
    gm.events = []
    exploration.apply(gm, action)
    return gm.events


def walk(gm: GM, room: int) -> list[Event]:
    return act(gm, f"move:{room}")


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def test_the_pump_is_worked_in_one_room_and_drains_another() -> None:
    gm = setup(PUMP)
    walk(gm, 2)
    work = {a.id: a for a in gm.legal_actions()}["work:0"]
    assert work.label == "Work the old pump (STR)" and work.cost.turns == 1
    gm.rng.load(2, 3)  # STR 2: no success
    assert of(act(gm, "work:0"), "setpiece")[0].text == "It will not budge."
    assert gm.level_state().worked == []
    doom = gm.level_state().doom
    gm.rng.load(5, 3)
    events = act(gm, "work:0")
    assert of(events, "setpiece")[0].text == "It draws. The water is gone."
    assert gm.level_state().worked == [0] and gm.level_state().doom == doom + 1
    assert "work:0" not in {a.id for a in gm.legal_actions()}
    leeches = [g for g in gm.room_state(3).monsters if g.monster == "Giant Leech"]
    assert leeches and leeches[0].count == 2


def test_until_it_is_worked_the_target_hurts_who_comes_in_and_holds_its_valuables() -> None:
    gm = setup(PUMP)
    walk(gm, 2)
    gm.rng.load(1, 2)  # DEX 2 against the hazard: no success
    events = walk(gm, 3)
    assert "Water stands waist-deep." in [e.text for e in of(events, "setpiece")]
    me = gm.c.party[0].adv.character
    assert sum(me.attrs[a].wounds for a in me.attrs) >= 1
    gm.events = []
    act(gm, "loot")
    names = [i.name for i in gm.c.party[0].adv.inventory.items]
    assert "Gold ring" not in names  # under the water
    assert any(n.startswith("Key to") for n in names)  # a key is never held


def test_once_worked_the_target_is_safe_and_its_loot_can_be_taken() -> None:
    gm = setup(replace(PUMP, releases=()))
    walk(gm, 2)
    gm.rng.load(5, 5)
    act(gm, "work:0")
    events = walk(gm, 3)
    assert not of(events, "setpiece") and not of(events, "test")
    act(gm, "loot")
    assert "Gold ring" in [i.name for i in gm.c.party[0].adv.inventory.items]


def test_its_skill_works_it_without_a_test() -> None:
    gm = setup(PUMP)
    skill(gm.c.party[0], "Crafting")
    walk(gm, 2)
    work = {a.id: a for a in gm.legal_actions()}["work:0"]
    assert work.label == "Work the old pump"
    events = act(gm, "work:0")
    assert "knows how (Crafting)" in of(events, "setpiece")[0].text and gm.level_state().worked == [0]


def test_a_skill_makes_out_a_rooms_note_on_the_first_visit_only() -> None:
    gm = setup(r2={"lore": (("Loremaster", "The script is old."), ("Holy Rites", "No rites were said."))})
    gm.c.party[0].adv.character.skills.append("Loremaster")
    events = walk(gm, 2)
    (lore,) = of(events, "lore")
    assert lore.text == f"{gm.c.party[0].name} (Loremaster): The script is old."
    walk(gm, 1)
    assert not of(walk(gm, 2), "lore")


WANT = SiteWant("Hungry goblins.", "food", 2, reveals="stairs", told="They point the way.", leaves=True)


def test_a_group_given_what_it_wants_turns_friendly_tells_and_goes() -> None:
    gm = setup(r2={"monsters": (SiteMonsters("Goblin Scrapper", 2, aware=False, want=WANT),)},
               r4={"stairs": ((2, 1),)})  # fmt: skip
    gm.c.party[0].adv.inventory.add(Carried("Ration", "", count=3, rarity="common"))
    walk(gm, 2)
    give = {a.id: a for a in gm.legal_actions()}["want:0"]
    assert give.label == "Give 2 Goblin Scrapper what they want: 2 rations" and give.available
    events = act(gm, "want:0")
    assert of(events, "want")[0].text == "2 Goblin Scrapper take 2 rations. They point the way."
    assert [e.data["room"] for e in of(events, "reward")] == [4] and gm.room_state(4).seen
    assert gm.room_state().monsters[0].count == 0
    assert sum(i.count for i in gm.c.party[0].adv.inventory.items if i.name == "Ration") == 1


def test_a_want_the_party_cannot_pay_is_listed_with_its_reason() -> None:
    gm = setup(r2={"monsters": (SiteMonsters("Goblin Scrapper", 2, aware=False, want=WANT),)})
    walk(gm, 2)
    give = {a.id: a for a in gm.legal_actions()}["want:0"]
    assert not give.available and give.reason == "You have 0; they want 2 rations."


def test_the_autoplay_works_a_set_piece_that_holds_back_loot_it_has_seen() -> None:
    """#14: the autoplay works the pump once it has seen the gold the water keeps in room 3, not before."""
    from rules.autoplay.player import _set_piece

    gm = setup(PUMP)
    walk(gm, 2)
    assert _set_piece(gm, gm.legal_actions()) is None  # room 3 not seen yet: nothing known to be held back
    gm.rng.load(6, 6, 6)  # the hazard's DEX test on the way in
    walk(gm, 3)
    walk(gm, 2)
    pick = _set_piece(gm, gm.legal_actions())
    assert pick is not None and pick.id == "work:0"
