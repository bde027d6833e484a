"""Freeform actions, listening, room features, Veteran and Ward the dead, on the scripted corridor.

The lead wires :mod:`rules.gm.freeform` into exploration; these tests call its two entry points
directly (``actions`` to find an action, ``apply`` to do it) with loaded dice.
"""

from __future__ import annotations

import pytest

from rules.attributes import ATTRS, Attr
from rules.character import Condition
from rules.content.registry import load_content
from rules.gm import exploration, freeform
from rules.gm.engine import GM
from rules.gm.events import Action, Event
from rules.gm.site import SiteCorpse, SiteFeature, SiteMonsters
from rules.gm.state import GroupState, Member
from rules.inventory import Carried, Inventory
from tests.gm.scripted import Loaded, corridor, game

CONTENT = load_content()


def plain(m: Member) -> None:
    """Score 2 everywhere, no proficiency, no skills, traits, afflictions or past; a bag and torches."""
    ch = m.adv.character
    ch.skills, ch.traits, ch.afflictions, ch.traumas = [], [], set(), set()
    ch.condition = Condition.ACTIVE
    for a in ATTRS:
        st = ch.attrs[a]
        st.score, st.proficiency, st.fatigue, st.wounds = 2, 0, 0, 0
    m.adv.klass = m.adv.background = m.adv.school = m.adv.god = None
    m.adv.lifepath = []
    inv = Inventory.body()
    inv.add_container("Bag", 6)
    inv.add(Carried("Torches", "", count=2, rarity="common"))
    m.adv.inventory = inv


def setup(party: int = 1, seed: int = 1, doors: dict[int, str] | None = None, **rooms: dict[str, object]) -> GM:
    gm = game(corridor(4, doors=doors, **rooms), seed=seed, party=party, light=False)
    for m in gm.c.party:
        plain(m)
    exploration.enter(gm, "test-site")
    gm.rng = Loaded(seed)
    gm.events = []
    return gm


def load(gm: GM, *faces: int) -> None:
    assert isinstance(gm.rng, Loaded)
    gm.rng.load(*faces)


def listed(gm: GM) -> dict[str, Action]:
    return {a.id: a for a in freeform.actions(gm)}


def do(gm: GM, action_id: str) -> tuple[int, list[Event]]:
    """Apply one of the module's actions (it must be available); its turns and events."""
    action = listed(gm)[action_id]
    assert action.available, action.reason
    gm.events = []
    turns = freeform.apply(gm, action)
    return turns, gm.events


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def skill(m: Member, name: str) -> None:
    m.adv.character.skills.append(name)


# --- the Die of Fate ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "grade", "name"),
    [(1, "no_and", "No, and…"), (2, "no", "No"), (3, "no_but", "No, but…"),
     (4, "yes_but", "Yes, but…"), (5, "yes", "Yes"), (6, "yes_and", "Yes, and…")],
)  # fmt: skip
def test_every_face_of_the_die_of_fate_answers_a_question(face: int, grade: str, name: str) -> None:
    gm = setup()
    question = listed(gm)["freeform:question"]
    assert question.cost.turns == 0 and question.param("roll") == "fate"
    load(gm, face)
    turns, events = do(gm, "freeform:question")
    assert turns == 0
    (fate,) = of(events, "fate")
    assert fate.data["face"] == face and fate.data["grade"] == grade and name in fate.text
    (answer,) = of(events, "freeform")
    assert answer.data["grade"] == grade
    assert answer.text == CONTENT.freeform.verb("question").outcome(grade).text
    assert not of(events, "test")  # no attribute fits: no test, no fatigue


def test_a_questions_no_and_falls_back_on_the_verbs_words() -> None:
    verb = CONTENT.freeform.verb("calm")  # only yes and no are written
    assert verb.outcome("yes_and") is verb.outcomes["yes"] and verb.outcome("no_and") is verb.outcomes["no"]


def test_a_test_answers_in_the_die_of_fates_words() -> None:
    g = CONTENT.freeform.grades
    assert (g.great_success, g.success, g.failure, g.critical_failure) == ("yes_and", "yes", "no", "no_and")


# --- Time / Gear / Skill ----------------------------------------------------------------------------------


def spikes(m: Member) -> Carried:
    item = Carried("Iron spikes", "", usage=8, rarity="common")
    m.adv.inventory.add(item)
    return item


def test_time_gear_and_skill_need_no_roll() -> None:
    gm = setup(doors={1: "wooden"})
    a = gm.c.party[0]
    skill(a, "Crafting")
    spikes(a)
    action = listed(gm)["freeform:barricade:1"]
    assert action.param("roll") == "none" and action.param("legs") == ("time", "gear", "skill")
    assert "no roll" in action.label and action.cost.turns == 1
    load(gm, 5)  # the spikes' usage die (Ud8): 5, kept
    turns, events = do(gm, "freeform:barricade:1")
    assert turns == 1
    assert not of(events, "test") and of(events, "freeform_sure")
    assert gm.level_state().doors[1].spiked
    assert of(events, "usage")  # the spikes are spent as used
    assert gm.c.expedition is not None and gm.c.expedition.turns == 0  # the caller ends the turn


@pytest.mark.parametrize(
    ("faces", "spiked", "doom"),
    [([6, 6], True, 0), ([5, 3], True, 0), ([2, 3], False, 0), ([1, 2], False, 1)],
)
def test_a_missing_leg_means_a_test(faces: list[int], spiked: bool, doom: int) -> None:
    gm = setup(doors={1: "wooden"})
    spikes(gm.c.party[0])  # time and gear, but no skill
    action = listed(gm)["freeform:barricade:1"]
    assert action.param("roll") == "test" and action.param("legs") == ("time", "gear") and "(STR)" in action.label
    load(gm, 5, *faces)  # the spikes' usage die, then the STR test
    _, events = do(gm, "freeform:barricade:1")
    (test,) = of(events, "test")
    assert test.data["attr"] == "STR"
    assert gm.level_state().doors[1].spiked is spiked
    assert gm.level_state().doom == doom  # "No, and…": the clatter carries


def test_unaware_enemies_in_the_room_take_the_time_away() -> None:
    gm = setup(doors={1: "wooden"})
    a = gm.c.party[0]
    skill(a, "Crafting")
    spikes(a)
    gm.room_state().monsters = [GroupState("Goblin Scrapper", 2, aware=False)]
    action = listed(gm)["freeform:barricade:1"]
    assert action.available and action.param("legs") == ("gear", "skill") and action.param("roll") == "test"


def test_no_gear_and_no_skill_still_test() -> None:
    gm = setup(doors={1: "wooden"})
    action = listed(gm)["freeform:barricade:1"]
    assert action.available and action.param("legs") == ("time",)


def test_a_past_counts_as_skill_and_the_skilled_one_acts() -> None:
    gm = setup(party=2, doors={1: "wooden"})
    builder = gm.c.party[1]
    builder.adv.lifepath = []
    from rules.creation import LifepathRoll

    builder.adv.lifepath.append(LifepathRoll("career", [3, 3, 3], "Builder", 9))
    spikes(gm.c.party[0])  # anyone's gear will do
    action = listed(gm)["freeform:barricade:1"]
    assert action.who == builder.id and action.param("roll") == "none"


def test_heavy_armour_takes_the_gear_leg_away() -> None:
    feature = SiteFeature("Robbers' rope", "A rope down a shaft.", "DEX", "The climb is easy and quiet.",
                          "The rope snaps halfway: 1 wound from the fall, and a lot of noise.")  # fmt: skip
    gm = setup(r1={"features": (feature,)})
    a = gm.c.party[0]
    a.adv.klass = "Thief"
    a.adv.inventory.add(Carried("Climbing gear", "", usage=6))
    assert listed(gm)["feature:0"].param("roll") == "none"
    a.adv.inventory.add(Carried("Chainmail", "", equipped=True), "Torso")
    assert listed(gm)["feature:0"].param("roll") == "test"


# --- the catalogue ----------------------------------------------------------------------------------------


def test_aware_enemies_leave_only_hiding_and_questions() -> None:
    gm = setup(doors={1: "wooden"})
    gm.room_state().monsters = [GroupState("Goblin Scrapper", 2, aware=True)]
    acts = listed(gm)
    assert acts["freeform:hide"].available and acts["freeform:question"].available
    for aid in ("listen:1", "freeform:barricade:1"):
        assert not acts[aid].available and acts[aid].reason == "Enemies are watching you."
    assert not any(a.startswith("freeform:calm") for a in acts)  # goblins are not animals


def test_a_friendly_group_does_not_rush_anyone() -> None:
    gm = setup(doors={1: "wooden"})
    a = gm.c.party[0]
    skill(a, "Crafting")
    spikes(a)
    gm.room_state().monsters = [GroupState("Goblin Scrapper", 2, aware=True, attitude="friendly")]
    acts = listed(gm)
    assert "freeform:hide" not in acts
    assert acts["freeform:barricade:1"].available and acts["freeform:barricade:1"].param("roll") == "none"


@pytest.mark.parametrize(("faces", "hidden"), [([5, 3], True), ([2, 3], False)])
def test_hiding_makes_the_enemies_lose_track(faces: list[int], hidden: bool) -> None:
    gm = setup()
    gm.room_state().monsters = [GroupState("Goblin Scrapper", 2, aware=True)]
    load(gm, *faces)
    _, events = do(gm, "freeform:hide")
    assert of(events, "test")[0].data["attr"] == "DEX"
    assert gm.room_state().monsters[0].aware is not hidden


def test_calming_animals() -> None:
    gm = setup()
    gm.room_state().monsters = [GroupState("Giant Rat", 3, aware=True)]
    action = listed(gm)["freeform:calm:0"]
    assert "Giant Rat" in action.label and "(PRE)" in action.label
    load(gm, 6, 2)
    _, events = do(gm, "freeform:calm:0")
    assert of(events, "test")[0].data["attr"] == "PRE"
    assert gm.room_state().monsters[0].aware is False


@pytest.mark.parametrize(("faces", "broken"), [([5, 3], True), ([2, 3], False)])
def test_breaking_down_a_locked_door_is_noisy(faces: list[int], broken: bool) -> None:
    gm = setup(doors={1: "locked"})
    load(gm, *faces)
    turns, _ = do(gm, "freeform:break:1")
    assert turns == 1
    assert gm.level_state().doors[1].broken is broken
    assert gm.level_state().doom == 1  # noisy whatever comes of it (R99)
    moves = {a.id: a for a in exploration.actions(gm)}
    assert moves["move:2"].available is broken


def test_a_locked_door_can_be_smashed_without_a_roll_with_gear_and_a_tough_past() -> None:
    gm = setup(doors={1: "locked"})
    a = gm.c.party[0]
    a.adv.background = "Barbarian"
    a.adv.inventory.add(Carried("Shovel or pickaxe", ""))
    assert listed(gm)["freeform:break:1"].param("roll") == "none"
    _, events = do(gm, "freeform:break:1")
    assert not of(events, "test") and gm.level_state().doors[1].broken


# --- listening at doors -----------------------------------------------------------------------------------


def beyond(monsters: tuple[SiteMonsters, ...]) -> GM:
    return setup(doors={1: "wooden"}, r2={"monsters": monsters})


@pytest.mark.parametrize(
    ("monsters", "faces", "heard", "aware"),
    [
        ((SiteMonsters("Goblin Scrapper", 2, aware=False),), [5, 3], True, False),
        ((SiteMonsters("Goblin Scrapper", 2, aware=True),), [5, 3], True, True),
        ((SiteMonsters("Goblin Scrapper", 2),), [2, 3], False, None),  # a failure hears nothing
        ((), [5, 3], False, None),  # silence
        ((SiteMonsters("Reanimated Husk", 2),), [6, 5], False, None),  # "the undead make no sound"
    ],
)
def test_listening_at_a_door(
    monsters: tuple[SiteMonsters, ...], faces: list[int], heard: bool, aware: bool | None
) -> None:
    gm = beyond(monsters)
    action = listed(gm)["listen:1"]
    assert action.cost.turns == 1 and "(INT)" in action.label
    load(gm, *faces)
    turns, events = do(gm, "listen:1")
    assert turns == 1
    assert of(events, "test")[0].data["attr"] == "INT"
    (ev,) = of(events, "listen")
    assert ev.data["heard"] is heard and ev.data.get("aware") is aware
    if not heard:
        assert ev.text == "Nothing can be heard beyond the door."
    # remembered for the expedition, for the player (and the autoplay) to weigh the door by
    assert freeform.heard(gm, 2) == ("alert" if aware else "unaware" if heard else "nothing")
    assert freeform.heard(gm, 3) == ""


def test_the_autoplay_listens_before_it_opens_a_door_and_leaves_an_alert_room_for_last() -> None:
    """Entering a room where something waits alert starts the fight on its terms (most of the autoplay's deaths):
    the autoplay listens at the shut door first, and goes the other way when it hears them (here there is none,
    and two Void Demons, which never parley, are too much for one: it leaves)."""
    from rules.autoplay import player

    gm = beyond((SiteMonsters("Void Demon", 2, aware=True),))
    (m,) = gm.c.party
    m.lit = "Torches"
    first = player.explore(gm, [a for a in gm.legal_actions() if a.available])
    assert first.id == "listen:1"
    load(gm, 5, 3)
    gm.apply(first)
    assert freeform.heard(gm, 2) == "alert"
    after = player.explore(gm, [a for a in gm.legal_actions() if a.available])
    assert after.id != "move:2" and after.kind != "listen"


def test_no_listening_at_archways_or_open_doors() -> None:
    gm = setup(doors={1: "wooden"})
    assert "listen:1" in listed(gm)
    gm.level_state().doors[1].opened = True
    assert "listen:1" not in listed(gm)
    assert "listen:2" not in listed(setup())  # an archway


# --- Veteran ----------------------------------------------------------------------------------------------


def test_no_veteran_no_action() -> None:
    assert "veteran" not in listed(setup())


@pytest.mark.parametrize(("faces", "known"), [([5, 3], True), ([2, 3], False)])
def test_the_veteran_reads_the_doom(faces: list[int], known: bool) -> None:
    gm = setup()
    skill(gm.c.party[0], "Veteran")
    lv = gm.level_state()
    lv.doom, lv.fired = 3, [0]  # steps of 2 ticks: the first fired at 2, the next at 4
    action = listed(gm)["veteran"]
    assert action.cost.turns == 1 and "(Veteran, PRE)" in action.label
    load(gm, *faces)
    turns, events = do(gm, "veteran")
    assert turns == 1 and of(events, "test")[0].data["attr"] == "PRE"
    if known:
        assert (lv.doom_known, lv.doom_next_known) == (3, 4)
        assert "stands at 3" in of(events, "veteran")[0].text
    else:
        assert (lv.doom_known, lv.doom_next_known) == (None, None)


def test_the_veteran_knows_when_nothing_is_left() -> None:
    gm = setup()
    skill(gm.c.party[0], "Veteran")
    lv = gm.level_state()
    lv.doom, lv.fired = 14, list(range(7))
    load(gm, 6, 5)
    do(gm, "veteran")
    assert (lv.doom_known, lv.doom_next_known) == (14, None)


# --- Ward the dead ----------------------------------------------------------------------------------------


def crypt() -> GM:
    return setup(r1={"corpses": (SiteCorpse("A body.", "Reanimated Husk"), SiteCorpse("Another."),
                                 SiteCorpse("A sealed one.", warded=True))})  # fmt: skip


def test_warding_the_dead() -> None:
    gm = crypt()
    assert "ward" not in listed(gm)  # no one has the skill
    skill(gm.c.party[0], "Ward the dead")
    assert gm.room_state().corpses == ["lying", "lying", "warded"]
    turns, events = do(gm, "ward")
    assert turns == 1 and not of(events, "test")
    assert gm.room_state().corpses == ["warded", "warded", "warded"]
    again = listed(gm)["ward"]
    assert not again.available and again.reason


def test_no_dead_no_ward() -> None:
    gm = setup()
    skill(gm.c.party[0], "Ward the dead")
    assert "ward" not in listed(gm)


# --- room features ----------------------------------------------------------------------------------------


def with_feature(feature: SiteFeature, party: int = 1) -> GM:
    return setup(party=party, r1={"features": (feature,)})


BELL = SiteFeature("Bell rope", "A frayed rope hangs from the bell.", "DEX", "Climbed without touching the bell.",
                   "The rope breaks and the bell tolls once: tick the doom tracker twice.")  # fmt: skip


@pytest.mark.parametrize(("faces", "words", "doom"), [([5, 3], BELL.success, 0), ([2, 3], BELL.failure, 2)])
def test_a_features_test_and_its_words(faces: list[int], words: str, doom: int) -> None:
    gm = with_feature(BELL)
    action = listed(gm)["feature:0"]
    assert action.available and action.cost.turns == 1 and "(DEX)" in action.label
    load(gm, *faces)
    turns, events = do(gm, "feature:0")
    assert turns == 1 and of(events, "test")[0].data["attr"] == "DEX"
    assert of(events, "feature_outcome")[0].text == words
    assert gm.level_state().doom == doom
    again = listed(gm)["feature:0"]
    assert not again.available and again.reason == "Already done."


def test_a_feature_without_a_test_is_only_told() -> None:
    gm = with_feature(SiteFeature("Crying statue", "A statue weeps salt water."))
    turns, events = do(gm, "feature:0")
    assert turns == 1 and not of(events, "test") and not of(events, "feature_outcome")
    assert "weeps salt water" in of(events, "feature")[0].text


def test_wounds_and_afflictions_from_a_features_words() -> None:
    gap = SiteFeature("Air gap", "A low passage.", "STR", "Swum under.", "Half-drowned: 1 STR wound, and shaken.")
    gm = with_feature(gap)
    load(gm, 2, 3)
    do(gm, "feature:0")
    ch = gm.c.party[0].adv.character
    assert ch.attrs[Attr.STR].wounds == 1 and "shaken" in ch.afflictions


def test_everyone_in_the_words_means_everyone() -> None:
    circle = SiteFeature("Circle", "A silver circle.", "INT", "It holds.",
                         "The circle flares at a touch: everyone in the room is shaken.")  # fmt: skip
    gm = with_feature(circle, party=2)
    load(gm, 2, 3)
    do(gm, "feature:0")
    assert all("shaken" in m.adv.character.afflictions for m in gm.c.party)


def test_fatigue_from_a_features_words() -> None:
    grins = SiteFeature("Grins", "Painted grins.", "PRE", "Nothing happens.",
                        "The adventurer starts to laugh and cannot stop for a turn: 1 PRE fatigue.")  # fmt: skip
    gm = with_feature(grins)
    load(gm, 2, 3)
    do(gm, "feature:0")
    assert gm.c.party[0].adv.character.attrs[Attr.PRE].fatigue == 1


def test_an_attack_in_a_features_failure_words() -> None:
    gm = with_feature(SiteFeature("Oil slick", "Oil on the water.", "INT", "It burns everything on the surface.",
                                  "Lit carelessly, it burns the one who lit it too: DEX 2."))  # fmt: skip
    load(gm, 2, 3, 2, 3)  # the INT test fails; the DEX defence fails too
    _, events = do(gm, "feature:0")
    assert [e.data["attr"] for e in of(events, "test")] == ["INT", "DEX"]
    assert of(events, "harm")[0].data["wounds"] == 2


def test_a_cure_in_a_features_success_words() -> None:
    gm = with_feature(SiteFeature("Salt saint", "A saint of salt.", "PRE",
                                  "A prayer here steadies the nerves: remove shaken from one adventurer.",
                                  "Shaken."), party=2)  # fmt: skip
    gm.c.party[1].adv.character.afflictions.add("shaken")
    load(gm, 5, 3)
    do(gm, "feature:0")
    assert "shaken" not in gm.c.party[1].adv.character.afflictions


@pytest.mark.parametrize(("risk", "plagued"), [(1, True), (4, False)])
def test_risk_dice_in_a_features_words(risk: int, plagued: bool) -> None:
    gm = with_feature(SiteFeature("Black water", "Still water.", "INT", "It is the source.", "A sip: plagued on 1d!."))
    load(gm, 2, 3, risk)
    do(gm, "feature:0")
    assert ("plagued" in gm.c.party[0].adv.character.afflictions) is plagued


def test_a_feature_whose_words_name_a_verb_uses_its_gear_and_skill() -> None:
    ledger = SiteFeature("Wardens' ledger", "A ledger in an old script.", "INT", "It shows which wards hold.",
                         "The script is old and cramped.")  # fmt: skip
    gm = with_feature(ledger)
    verb = freeform.feature_verb(gm, ledger)
    assert verb is not None and verb.id == "read"
    assert listed(gm)["feature:0"].param("roll") == "test"
    skill(gm.c.party[0], "Loremaster")
    assert listed(gm)["feature:0"].param("roll") == "none"
    _, events = do(gm, "feature:0")
    assert not of(events, "test") and of(events, "feature_outcome")[0].text == ledger.success


def test_aware_enemies_keep_hands_off_the_features() -> None:
    gm = with_feature(BELL)
    gm.room_state().monsters = [GroupState("Goblin Scrapper", 1, aware=True)]
    assert listed(gm)["feature:0"].reason == "Enemies are watching you."


# --- the plain phrases ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "failure", "expected"),
    [
        ("It flickers: tick the doom tracker.", True, [("doom", "self", 1, None, "")]),
        ("The bell tolls once: tick the doom tracker twice.", True, [("doom", "self", 2, None, "")]),
        ("It jams with a bang that ticks the doom tracker.", True, [("doom", "self", 1, None, "")]),
        ("Rubble slides: 1 wound and noise.", True,
         [("doom", "self", 1, None, "noise"), ("wounds", "self", 1, None, "")]),
        ("Pried off with little noise.", False, []),
        ("Touching the burned lock: 1 INT wound, cold as ice.", True, [("wounds", "self", 1, Attr.INT, "")]),
        ("1 wound, bleeding.", True, [("wounds", "self", 1, None, ""), ("afflict", "self", 0, None, "bleeding")]),
        ("everyone takes 2 non-lethal PRE fatigue.", True, [("fatigue", "party", 2, Attr.PRE, "")]),
        ("Eaten anyway: sleepy and nauseated.", True,
         [("afflict", "self", 0, None, "sleepy"), ("afflict", "self", 0, None, "nauseated")]),
        ("Staying more than 3 turns still makes everyone nauseated.", False, []),
        ("A stun marker in combat, or shaken out of it.", True, []),
        ("The lock jams; it will have to be broken, loudly.", True, []),
        ("It falls the wrong way: DEX 1 or 1 wound.", True, [("attack", "self", 0, None, "DEX 1")]),
        ("Someone's torch comes too close: DEX 3 for everyone in the room.", True,
         [("attack", "party", 0, None, "DEX 3")]),
        ("Re-strung, it can fire once: STR 4P to whatever stands in its line.", False, []),
        ("A drink: nauseated and plagued on 1d!.", True,
         [("risk", "self", 1, None, "plagued"), ("afflict", "self", 0, None, "nauseated")]),
        ("A prayer steadies the nerves: remove shaken from one adventurer.", False,
         [("cure", "one", 0, None, "shaken")]),
        ("It is worth a fortune to a collector in Yoros.", False, []),
    ],
)  # fmt: skip
def test_plain_phrases(text: str, failure: bool, expected: list[tuple[object, ...]]) -> None:
    got = [(e.kind, e.who, e.amount, e.attr, e.name) for e in freeform.plain_effects(text, failure=failure)]
    assert got == expected


# --- the content ------------------------------------------------------------------------------------------


def test_the_catalogue_loads_with_its_references() -> None:
    ff = CONTENT.freeform
    assert [f.face for f in ff.fate.faces] == [1, 2, 3, 4, 5, 6]
    ids = {v.id for v in ff.verbs}
    assert {"barricade", "break", "hide", "calm", "question", "climb", "swim", "read"} <= ids
    for v in ff.verbs:
        if v.target != "feature":
            assert v.outcome("yes").text and v.outcome("no").text


def test_every_generated_feature_is_read_without_error() -> None:
    """The words of every room feature of every theme parse (the generator's own data)."""
    import tomllib
    from pathlib import Path

    from rules.content.base import content_dir

    themes = Path(content_dir()).parent / "dungeon" / "themes"
    count = 0
    for path in sorted(themes.glob("*.toml")):
        data = tomllib.loads(path.read_text())
        for kind in data["room_kinds"]:
            for f in kind.get("features", []):
                for key in ("success", "failure"):
                    if f.get(key):
                        freeform.plain_effects(f[key], failure=key == "failure")
                        count += 1
    assert count > 100


# --- looting quietly past the unaware (RULINGS R235) --------------------------------------------------------------


def sleepers(aware: bool = False) -> GM:
    """The party in room 2, with two unaware Reanimated Husks (no mind: awake, they attack) and a silver cup."""
    from rules.gm.site import SiteLoot

    gm = setup(r2={"monsters": (SiteMonsters("Reanimated Husk", 2, aware=aware),),
                   "loot": (SiteLoot("Silver cup", "valuable", 20),)})  # fmt: skip
    gm.apply("move:2")
    gm.events = []
    return gm


def explored(gm: GM) -> dict[str, Action]:
    return {a.id: a for a in gm.legal_actions()}


def test_loot_quietly_is_offered_past_the_unaware_only_with_its_odds() -> None:
    gm = sleepers()
    acts = explored(gm)
    assert not acts["loot"].available  # "only where it is safe"
    quiet = acts["loot_quietly"]
    assert quiet.available and quiet.cost.turns == 1
    # two DEX dice, a 4 or better on either: 75%
    assert "past the unaware 2 Reanimated Husk" in quiet.label and "(DEX 75%; failed, they see you)" in quiet.label
    assert "loot_quietly" not in explored(sleepers(aware=True))  # no sneaking past eyes that are on you


@pytest.mark.parametrize(("faces", "taken", "fight"), [
    ([5, 3], True, False),  # a success: the cup, and they sleep on
    ([6, 6], True, False),  # a great success: the same
    ([2, 3], False, True),  # a failure: they see the party, and attack
])  # fmt: skip
def test_looting_quietly_takes_the_loot_or_wakes_them(faces: list[int], taken: bool, fight: bool) -> None:
    gm = sleepers()
    (m,) = gm.c.party
    load(gm, *faces)
    events = gm.apply("loot_quietly")
    assert (m.adv.inventory.find("Silver cup") is not None) is taken
    assert any(e.kind == "combat" for e in events) is fight
    assert all(g.aware for g in gm.room_state().monsters) is fight


def test_the_autoplay_loots_quietly_when_the_copies_say_no_one_dies_of_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules.autoplay import lookahead, player

    gm = sleepers()
    (m,) = gm.c.party
    m.lit = "Torches"
    pick = player.explore(gm, [a for a in gm.legal_actions() if a.available])
    assert pick.id == "loot_quietly"
    risky = lookahead.Outlook(runs=12, won=0.0, deaths=0.25, dying=0.25)
    monkeypatch.setattr(lookahead, "play_out", lambda *a, **k: risky)
    assert player.explore(gm, [a for a in gm.legal_actions() if a.available]).id != "loot_quietly"


@pytest.mark.parametrize(("monsters", "party", "enters"), [
    ((SiteMonsters("Plagued Rat", 1, aware=True),), 3, True),  # a fresh party of three and one rat
    ((SiteMonsters("Void Demon", 2, aware=True),), 1, False),  # one adventurer and two demons (they never parley)
])
def test_the_autoplay_enters_an_alert_room_last_when_it_would_live_through_it(
    monsters: tuple[SiteMonsters, ...], party: int, enters: bool
) -> None:
    """Alert is not hostile: once nothing else is left, a fresh, lit party goes in where its copies of the game all
    live through what waits there (before, a room heard alert was never entered, and a level whose first doors
    all had something alert behind them was left at full strength)."""
    from rules.autoplay import player

    gm = setup(party=party, doors={1: "wooden"}, r2={"monsters": monsters})
    for m in gm.c.party:
        m.lit = "Torches"
    gm.rng = __import__("random").Random(5)
    exp = gm.c.expedition
    assert exp is not None
    exp.heard["1:2"] = "alert"
    assert freeform.heard(gm, 2) == "alert"
    choice = player.explore(gm, [a for a in gm.legal_actions() if a.available])
    assert (choice.id == "move:2") is enters
