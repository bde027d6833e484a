"""Encounters through the engine: reactions, parley, bribes, wanderers that move on, looting where it is safe.

Every roll that matters is loaded (:class:`Loaded`): the attitude table is a d6 (two, keeping the higher, for a
gift to a group not met yet; keeping the lower for an aggressive temper), parley is a PRE test with the dice
of the best talker (here PRE 2, no proficiency), a wandering group stays 1d4 turns.
"""

from __future__ import annotations

import pytest

from rules.attributes import Attr
from rules.checks import RuleError
from rules.content.base import ContentError
from rules.content.registry import load_content
from rules.gm import encounters, exploration
from rules.gm.engine import GM
from rules.gm.events import Action, Event
from rules.gm.site import SiteDoomStep, SiteMonsters
from rules.gm.state import GroupState, Phase
from rules.inventory import Carried
from tests.gm.scripted import Loaded, SiteLoot, SiteTrap, corridor, game
from tests.gm.test_combat import plain

TRAP = SiteTrap("Needle", "A needle in the floor.", "stepping", "a glint", "INT", "DEX: carefully", None, "A prick.")
CUP = SiteLoot("Silver cup", "uncommon", 9)


def meet(monster: str = "Goblin Scrapper", count: int = 2, *, aware: bool = True, faces: tuple[int, ...] = (),
         party: int = 2, loot: bool = True) -> GM:  # fmt: skip
    """A party in room 1; room 2 holds ``count`` ``monster`` (and a silver cup), room 3 a trap.  The dice are
    loaded with ``faces`` and the party walks into room 2."""
    site = corridor(
        4,
        r2={
            "monsters": (SiteMonsters(monster, count, ((11, 0), (11, 2), (12, 1))[:count], aware=aware),),
            "loot": (CUP,) if loot else (),
        },
        r3={"traps": (TRAP,)},
    )
    gm = game(site, seed=5, party=party)
    for m in gm.c.party:
        plain(m)
        m.adv.character.silver = 0
    gm.c.party[0].adv.inventory.add(Carried("Torches", "", count=2))
    exploration.enter(gm, "test-site")
    gm.rng = Loaded(5, list(faces))
    gm.apply("move:2")
    return gm


def group(gm: GM, room: int = 2) -> GroupState:
    return gm.room_state(room).monsters[0]


def action(gm: GM, action_id: str) -> Action:
    return next(a for a in gm.legal_actions() if a.id == action_id)


def can(gm: GM, action_id: str) -> bool:
    return any(a.id == action_id and a.available for a in gm.legal_actions())


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def load(gm: GM, *faces: int) -> None:
    assert isinstance(gm.rng, Loaded)
    gm.rng.load(*faces)


# --- the reaction when they have seen the party ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "attitude"),
    [(1, "hostile"), (2, "unfriendly"), (3, "unfriendly"), (4, "neutral"), (5, "neutral"), (6, "friendly")],
)
def test_the_attitude_table_decides_what_aware_goblins_do(face: int, attitude: str) -> None:
    gm = meet(faces=(face,))
    assert [e.data["attitude"] for e in gm.events if e.kind == "reaction"] == [attitude]
    assert group(gm).attitude == attitude
    if attitude == "hostile":  # "Actively tries to harm": they attack
        assert gm.c.phase is Phase.COMBAT and gm.c.combat is not None
        assert gm.c.combat.source == "they attack"
        return
    assert gm.c.phase is Phase.EXPLORATION
    assert can(gm, "move:3")  # wary or friendly, they let the party pass on
    assert can(gm, "loot") is (attitude == "friendly")  # only the friendly make the room safe
    assert can(gm, "camp") is (attitude == "friendly")
    assert can(gm, "fight")
    assert can(gm, "parley") is (attitude != "friendly")  # no need to talk with friends


def test_an_aggressive_temper_keeps_the_lower_die() -> None:
    gm = meet("Bugbear", 1, faces=(6, 2))  # feral and always hungry: 2d6, the lower counts
    assert group(gm).attitude == "unfriendly"


def test_unaware_groups_are_not_rolled_until_spoken_to() -> None:
    gm = meet(aware=False, faces=())
    assert group(gm).attitude == "" and gm.c.phase is Phase.EXPLORATION
    assert "reaction" not in kinds(gm.events)
    assert not can(gm, "loot")  # not met yet: not safe
    assert can(gm, "move:3")  # sneak past, as before


def test_a_friendly_group_tells_of_the_trap_in_the_next_room() -> None:
    gm = meet(faces=(6,))
    rumours = [e for e in gm.events if e.kind == "rumour"]
    assert len(rumours) == 1 and "needle" in rumours[0].text.lower() and "Room 3" in rumours[0].text
    assert gm.room_state(3).traps[0].found


def test_the_mindless_attack_without_a_reaction_roll() -> None:
    gm = meet("Reanimated Husk", 2, faces=())
    assert gm.c.phase is Phase.COMBAT
    assert "reaction" not in kinds(gm.events)


# --- parley ------------------------------------------------------------------------------------------------------


def talker(gm: GM) -> None:
    """The first adventurer talks: PRE 2 (the others PRE 1)."""
    for i, m in enumerate(gm.c.party):
        m.adv.character.attrs[Attr.PRE].score = 2 if i == 0 else 1


@pytest.mark.parametrize(
    ("mood", "pre", "after"),
    [
        (2, (5, 2), "neutral"),  # unfriendly, a success: one step better
        (2, (6, 6), "friendly"),  # unfriendly, a great success: two steps
        (4, (6, 6), "friendly"),  # neutral, a great success: friendly is the top
        (4, (2, 3), "neutral"),  # a plain failure changes nothing
        (6, (3, 5), "friendly"),  # friendly stays friendly
    ],
)
def test_parley_rolls_the_attitude_then_the_pre_test_moves_it(mood: int, pre: tuple[int, int], after: str) -> None:
    gm = meet(aware=False)
    talker(gm)
    load(gm, mood, *pre)
    events = gm.apply("parley")
    tests = [e for e in events if e.kind == "test"]
    assert len(tests) == 1 and tests[0].data["attr"] == "PRE" and tests[0].data["dice"] == list(pre)
    g = group(gm)
    assert g.attitude == after and g.parleyed and g.aware
    assert gm.c.phase is Phase.EXPLORATION
    assert gm.c.expedition is not None and gm.c.expedition.turns == 2  # the move and the parley
    assert not can(gm, "parley")  # once per group
    reason = action(gm, "parley").reason
    assert reason == (
        "They are already at peace with you." if after == "friendly" else "You have already talked with them."
    )
    assert ("rumour" in kinds(events)) is (after == "friendly")


def test_a_critical_failure_makes_them_hostile_and_they_act_first() -> None:
    gm = meet(aware=False)
    talker(gm)
    load(gm, 5, 1, 2)  # neutral, then a failure with a 1: a critical failure
    events = gm.apply("parley")
    assert group(gm).attitude == "hostile"
    assert gm.c.phase is Phase.COMBAT and gm.c.combat is not None
    assert gm.c.combat.surprise == "enemies" and "The talk turns to blows." in [e.text for e in events]


def test_a_hostile_roll_on_parley_is_a_fight_unless_the_talk_turns_it() -> None:
    gm = meet(aware=False)
    talker(gm)
    load(gm, 1, 5, 3)  # hostile, a success: unfriendly
    gm.apply("parley")
    assert group(gm).attitude == "unfriendly" and gm.c.phase is Phase.EXPLORATION
    gm = meet(aware=False)
    talker(gm)
    load(gm, 1, 2, 3)  # hostile, a failure: the fight is on (no surprise)
    gm.apply("parley")
    assert gm.c.phase is Phase.COMBAT and gm.c.combat is not None and gm.c.combat.surprise is None


def test_a_mindless_group_refuses_to_talk() -> None:
    gm = meet("Reanimated Husk", 2, aware=False)
    parley = action(gm, "parley")
    assert not parley.available
    assert parley.reason == "There is no reasoning with them: they do not talk."
    assert not [a for a in gm.legal_actions() if a.kind == "bribe"]  # nor takes a bribe
    with pytest.raises(RuleError):
        gm.apply("parley")


def test_beasts_do_not_talk_but_take_food() -> None:
    gm = meet("Giant Rat", 1, aware=False)
    parley = action(gm, "parley")
    assert not parley.available and parley.reason == "Beasts do not talk: food may calm them."
    assert [a.id for a in gm.legal_actions() if a.kind == "bribe"] == ["bribe:food"]


# --- bribes ------------------------------------------------------------------------------------------------------


def test_a_neutral_group_takes_a_fair_price_and_lets_the_party_loot() -> None:
    gm = meet(faces=(4,))  # neutral: "open to mutually beneficial deals"
    gm.c.party[0].adv.character.silver = 1
    gm.c.party[1].adv.character.silver = 5
    offer = action(gm, "bribe:silver")
    assert offer.cost.silver == 2 and offer.available  # level 1 x 2 goblins
    events = gm.apply("bribe:silver")
    assert group(gm).attitude == "bribed"
    assert [e.data["paid"] for e in events if e.kind == "bribe"] == [2]
    assert (gm.c.party[0].adv.character.silver, gm.c.party[1].adv.character.silver) == (1, 3)  # richest first
    assert can(gm, "loot") and not can(gm, "parley")
    gm.apply("loot")
    assert gm.room_state(2).loot_taken == [0]


def test_an_unfriendly_group_wants_a_big_favour() -> None:
    gm = meet(faces=(3,))
    gm.c.party[0].adv.character.silver = 3
    offer = action(gm, "bribe:silver")
    assert offer.cost.silver == 4 and not offer.available
    assert offer.reason == "You have 3; they want 4 silver."
    gm.c.party[0].adv.character.silver = 4
    gm.apply("bribe:silver")
    assert group(gm).attitude == "bribed" and gm.c.party[0].adv.character.silver == 0


def test_food_for_a_group_not_met_rolls_as_a_peaceful_approach() -> None:
    gm = meet(aware=False)
    gm.c.party[0].adv.inventory.add(Carried("Ration", "", count=3))
    offer = action(gm, "bribe:food")
    assert offer.cost.items == ("2 × Ration",)  # one per goblin
    load(gm, 1, 5)  # 2d6 keep the higher: neutral
    events = gm.apply("bribe:food")
    assert [e.data["roll"] for e in events if e.kind == "reaction"] == [[1, 5]]
    assert group(gm).attitude == "bribed" and group(gm).aware
    rations = next(i for i in gm.c.party[0].adv.inventory.items if i.name == "Ration")
    assert rations.count == 1
    assert can(gm, "loot")


def test_a_gift_to_the_hostile_is_refused_and_they_attack() -> None:
    gm = meet(aware=False)
    gm.c.party[0].adv.inventory.add(Carried("Ration", "", count=3))
    load(gm, 1, 1)
    events = gm.apply("bribe:food")
    assert "will not be bought" in " ".join(e.text for e in events)
    assert gm.c.phase is Phase.COMBAT
    assert next(i for i in gm.c.party[0].adv.inventory.items if i.name == "Ration").count == 3  # nothing paid


# --- looting is only where it is safe ----------------------------------------------------------------------------


def test_looting_is_allowed_after_a_friendly_reaction() -> None:
    gm = meet(faces=(6,))
    assert can(gm, "loot")
    events = gm.apply("loot")
    assert "Silver cup" in " ".join(e.text for e in events if e.kind == "loot")


def test_looting_is_refused_with_a_hostile_group() -> None:
    gm = meet(aware=False)
    g = group(gm)
    g.attitude = "hostile"  # they want a fight, and have not seen the party yet
    loot = action(gm, "loot")
    assert not loot.available and loot.reason == "Enemies are here."
    with pytest.raises(RuleError):
        gm.apply("loot")
    assert not can(gm, "search") and not can(gm, "camp")


def test_friendly_groups_stand_aside_when_others_attack() -> None:
    gm = meet(faces=(6,))
    gm.room_state(2).monsters.append(GroupState("Reanimated Husk", 1))  # a husk shambles in, hostile
    gm.apply("move:1")
    gm.rng = Loaded(5, [4, 4, 4, 4])
    gm.apply("move:2")
    assert gm.c.phase is Phase.COMBAT and gm.c.combat is not None
    assert [g.monster for g in gm.c.combat.groups] == ["Reanimated Husk"]
    assert group(gm).attitude == "friendly"


# --- wanderers move on ---------------------------------------------------------------------------------------


def test_survivors_of_a_fight_move_on_after_their_stay() -> None:
    gm = meet(faces=(6,))
    # the survivors of an ambush are left in room 2 (as combat records them): aware, wanderers
    gm.room_state(2).monsters.append(GroupState("Giant Rat", 1, aware=True))
    gm.apply("move:1")
    assert isinstance(gm.rng, Loaded)
    gm.rng.faces = [3]  # 1d4: three turns
    gm.events = []
    for _ in range(3):
        assert gm.room_state(2).monsters[1].count == 1
        exploration.end_turn(gm, 1, "waiting")
    assert gm.room_state(2).monsters[1].count == 0
    assert [e.data["hidden"] for e in gm.events if e.kind == "wanderers"] == [True]  # the party was elsewhere
    assert group(gm).count == 2  # the room's own goblins stay: they are guarding


def test_a_wandering_group_with_a_mind_may_arrive_without_a_fight() -> None:
    gm = meet(faces=(6,))
    step = SiteDoomStep(2, "wandering_group", "Rats come.", group="Rats")
    load(gm, 5, 1)  # the attitude: neutral; their stay: 1 turn
    exploration.fire_doom(gm, step)
    assert gm.c.phase is Phase.EXPLORATION
    rats = gm.room_state(2).monsters[1]
    assert (rats.monster, rats.count, rats.attitude, rats.aware) == ("Plagued Rat", 3, "neutral", True)
    assert not can(gm, "loot")  # wary rats: no looting
    exploration.end_turn(gm, 1, "waiting")
    assert rats.count == 0 and [e.data["hidden"] for e in gm.events if e.kind == "wanderers"] == [False]
    assert can(gm, "loot")


def test_a_hostile_wandering_group_fights() -> None:
    gm = meet(faces=(6,))
    load(gm, 1, 4, 4, 4, 4)
    exploration.fire_doom(gm, SiteDoomStep(2, "wandering_group", "Rats come.", group="Rats"))
    assert gm.c.phase is Phase.COMBAT


def test_wanderers_are_gone_by_the_next_expedition() -> None:
    gm = meet(faces=(6,))
    gm.room_state(1).monsters.append(GroupState("Giant Rat", 1, aware=True, attitude="hostile"))  # at the door
    gm.c.expedition = None  # days pass
    exploration.enter(gm, "test-site")
    assert gm.room_state(1).monsters[0].count == 0
    assert gm.c.phase is Phase.EXPLORATION  # no fight at the way in
    assert group(gm).count == 2  # the goblins of room 2 are still at home


def test_the_living_are_met_anew_on_the_next_expedition() -> None:
    gm = meet(faces=(1,))  # hostile: they attack
    gm.c.combat, gm.c.phase = None, Phase.EXPLORATION  # (the party gets away)
    st = gm.room_state(2)
    goblins = st.monsters[0]
    assert goblins.attitude == "hostile"
    st.monsters.append(GroupState("Giant Rat", 1, aware=True))  # survivors of another fight: wanderers
    gm.c.expedition = None  # days pass
    exploration.enter(gm, "test-site")
    assert (goblins.attitude, goblins.count) == ("", 2)  # rolled again when they see the party
    assert st.monsters[1].count == 0  # the wanderers are gone
    goblins.attitude, goblins.parleyed = "bribed", True
    gm.c.expedition = None
    exploration.enter(gm, "test-site")
    assert (goblins.attitude, goblins.parleyed) == ("neutral", False)  # a bribe buys one visit


def test_ghosts_of_a_living_family_do_not_react() -> None:
    gm = meet("Ectoplasmic Worm", 1, faces=())  # scavengers by family, but a ghost
    assert encounters.mind_of(gm, "Ectoplasmic Worm") is None
    assert gm.c.phase is Phase.COMBAT and "reaction" not in kinds(gm.events)


def test_the_party_may_sneak_out_past_unaware_groups() -> None:
    site = corridor(3, r1={"monsters": (SiteMonsters("Reanimated Husk", 2, ((5, 0), (6, 0)), aware=False),)})
    gm = game(site, seed=5)
    exploration.enter(gm, "test-site")
    assert gm.c.phase is Phase.EXPLORATION
    assert can(gm, "exit") and not can(gm, "loot") and not can(gm, "search")
    group(gm, 1).aware = True
    assert not can(gm, "exit")  # they watch the way out


# --- the autoplay ------------------------------------------------------------------------------------------------


def pick(gm: GM) -> str:
    from rules.autoplay import suggest

    chosen = suggest(gm)
    assert chosen is not None
    return chosen.id


def test_the_autoplay_buys_its_way_to_the_loot_when_fighting_is_bad() -> None:
    gm = meet("Hobgoblin", 2, faces=(4,))  # two hobgoblins: no clean win; neutral
    gm.c.party[0].adv.character.silver = 20
    assert pick(gm) == "bribe:silver"  # 2 x level 3: 6 silver, within half the purse
    gm.apply("bribe:silver")
    assert pick(gm) in ("loot", "traps")


def test_the_autoplay_talks_when_it_cannot_pay() -> None:
    gm = meet("Hobgoblin", 2, faces=(4,))
    assert pick(gm) == "parley"


def test_the_autoplay_leaves_the_mindless_alone() -> None:
    gm = meet("Reanimated Husk", 3, aware=False)
    assert pick(gm) == "move:3"  # sneaks on, as before


def test_the_autoplay_keeps_rations_to_eat() -> None:
    gm = meet("Giant Crab", 1, faces=(4,))  # a beast: food only
    gm.c.party[0].adv.inventory.add(Carried("Ration", "", count=2))  # one each for two: none to spare
    assert pick(gm) != "bribe:food"
    gm.c.party[0].adv.inventory.add(Carried("Ration", "", count=1))
    assert pick(gm) == "bribe:food"


# --- the data ----------------------------------------------------------------------------------------------------


def test_the_data_names_real_monsters_and_families() -> None:
    content = load_content()
    data = encounters.load_encounters()
    encounters.check(data, content)
    bad = data.model_copy(update={"minds": [*data.minds, data.minds[0].model_copy(update={"family": "elves"})]})
    with pytest.raises(ContentError):
        encounters.check(bad, content)
