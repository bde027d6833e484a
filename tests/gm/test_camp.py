"""The camp phase through the engine: setup points, camp actions, the ambush roll, break camp."""

from __future__ import annotations

from typing import Any

import pytest

from rules.attributes import ATTRS, Attr
from rules.autoplay import camp_policy
from rules.checks import RuleError
from rules.gm import camp, exploration
from rules.gm.engine import GM, AutoDecider
from rules.gm.events import Event
from rules.gm.state import Campaign, Member, Phase
from rules.inventory import Carried
from rules.magic import Prayers, Spellbook
from tests.gm.scripted import corridor, game

#: items a test gives explicitly (everything camp-related a random kit might carry is taken away)
CAMP_GEAR = {
    "camping supplies", "ration", "special ration", "medical supply", "first aid kit", "sewing tools",
    "leatherworker's toolkit", "armourer supplies", "firewood", "water", "bandages", "cloth", "wine",
}  # fmt: skip


def plain(m: Member) -> None:
    """A blank slate: no skills, traumas, quirk, afflictions, fatigue, wounds or camp gear."""
    ch = m.adv.character
    ch.skills = []
    ch.traumas = set()
    ch.afflictions = set()
    m.adv.quirk = None
    m.adv.prayers = None
    m.adv.spellbook = None
    for a in ATTRS:
        ch.attrs[a].fatigue = 0
        ch.attrs[a].wounds = 0
    m.adv.inventory.items = [i for i in m.adv.inventory.items if i.name.lower() not in CAMP_GEAR]


def camp_game(*quals: str, party: int = 2, seed: int = 1) -> GM:
    """A party standing in room 1 of a corridor whose first room has the camp qualities ``quals``."""
    gm = game(corridor(3, r1={"camp": frozenset(quals)}), seed=seed, party=party)
    exploration.enter(gm, "test-site")
    for m in gm.c.party:
        plain(m)
    return gm


def give(m: Member, name: str, count: int = 1, **kw: Any) -> Carried:
    return m.adv.inventory.add(Carried(name, "", count=count, **kw))


def ids(gm: GM) -> dict[str, Any]:
    return {a.id: a for a in gm.legal_actions()}


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def state(gm: GM) -> camp.CampState:
    assert gm.c.camp is not None
    return gm.c.camp


@pytest.fixture
def fights(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[tuple[str, int]], dict[str, Any]]]:
    """Every combat the camp starts (the combat procedure itself is not under test here)."""
    calls: list[tuple[list[tuple[str, int]], dict[str, Any]]] = []

    def start(gm: GM, groups: list[tuple[str, int]], **kw: Any) -> None:
        calls.append((groups, kw))
        gm.c.phase = Phase.COMBAT

    from rules.gm import combat

    monkeypatch.setattr(combat, "start", start)
    return calls


# --- starting and setup ---------------------------------------------------------------------------------------


def test_setting_up_camp_starts_the_camp_phase() -> None:
    gm = camp_game("dry")
    turns = gm.c.expedition.turns if gm.c.expedition else -1
    events = gm.apply("camp")
    assert gm.c.phase is Phase.CAMP
    assert gm.c.stats.camps == 1
    assert gm.c.expedition is not None and gm.c.expedition.turns == turns + 1  # the whole camp: one turn
    assert "camp" in kinds(events)
    assert state(gm).stage == camp.SETUP and state(gm).dry
    assert set(ids(gm)) >= {"fire", "long_rest", "settle", "supply"}


def test_setup_points_dry_supplies_fire_long_rest_survivalist() -> None:
    gm = camp_game("dry", party=2)
    a, b = gm.c.party
    a.adv.character.skills = ["Survivalist"]
    give(a, "Camping supplies", 1)
    give(b, "Camping supplies", 2)
    gm.apply("camp")
    assert camp.setup_total(gm, state(gm)) == 2  # dry +1, one survivalist +1
    assert not ids(gm)["fire"].available
    gm.apply(f"supply:{a.id}")
    assert a.adv.inventory.find("Camping supplies") is None  # used up
    gm.apply(f"supply:{b.id}")
    assert b.adv.inventory.find("Camping supplies").count == 1  # type: ignore[union-attr]
    gm.apply("fire")
    assert not ids(gm)["fire"].available
    gm.apply("long_rest")
    assert not ids(gm)["long_rest"].available
    # dry 1 + supplies 2 + survivalist 1 + fire 1 + long rest 2
    assert ids(gm)["settle"].label == "Settle in with 7 camp actions"
    gm.apply("settle")
    st = state(gm)
    assert (st.stage, st.points, st.left) == (camp.ACTIONS, 7, 7)


def test_a_filthy_place_costs_an_action_and_the_total_never_goes_below_zero() -> None:
    gm = camp_game("filthy")
    give(gm.c.party[0], "Camping supplies", 1)
    gm.apply("camp")
    assert camp.setup_total(gm, state(gm)) == 0  # -1, but never below zero
    gm.apply(f"supply:{gm.c.party[0].id}")
    assert camp.setup_total(gm, state(gm)) == 0  # supply +1, filthy -1
    gm.apply("fire")
    gm.apply("settle")
    assert state(gm).points == 1
    assert not ids(gm)["sleep"].available
    assert ids(gm)["sleep"].reason == "Not enough camp actions (1 left, 2 needed)."


def test_a_fire_needs_camping_supplies_or_firewood() -> None:
    gm = camp_game()
    gm.apply("camp")
    fire = ids(gm)["fire"]
    assert not fire.available and "camping supplies" in (fire.reason or "")
    assert not ids(gm)["supply"].available
    with pytest.raises(RuleError):
        gm.apply("fire")
    give(gm.c.party[1], "Firewood", 1)
    gm.apply("fire")
    assert state(gm).fire and state(gm).firewood
    assert gm.c.party[1].adv.inventory.find("Firewood") is None


# --- camp actions --------------------------------------------------------------------------------------------


def settle(gm: GM, *setup: str) -> None:
    gm.apply("camp")
    for action in setup:
        gm.apply(action)
    gm.apply("settle")


def test_sleep_heals_one_wound_of_any_attribute_and_cures_sleepy_and_shaken() -> None:
    gm = camp_game("dry", party=3)
    a, b, c = gm.c.party
    for m in gm.c.party:
        m.adv.character.attrs[Attr.STR].score = max(2, m.adv.character.attrs[Attr.STR].score)
        m.adv.character.attrs[Attr.DEX].score = max(2, m.adv.character.attrs[Attr.DEX].score)
    a.adv.character.attrs[Attr.STR].wounds = 2  # the later chapter: any attribute heals
    a.adv.character.attrs[Attr.DEX].fatigue = 1
    a.adv.character.afflictions |= {"sleepy", "shaken"}
    b.adv.character.attrs[Attr.DEX].wounds = 1
    b.adv.character.afflictions |= {"hungry"}  # Hungry: wounds do not heal
    c.adv.character.attrs[Attr.STR].wounds = 1
    c.adv.character.afflictions |= {"cursed"}  # Cursed: wounds do not heal by resting
    c.adv.prayers = Prayers(memorised=["Bless"], exhausted=["Bless"])
    give(a, "Camping supplies")
    settle(gm, f"supply:{a.id}")  # dry 1 + supply 1 = 2
    events = gm.apply("sleep")
    assert state(gm).left == 0 and state(gm).slept
    assert a.adv.character.attrs[Attr.STR].wounds == 1
    assert a.adv.character.attrs[Attr.DEX].fatigue == 0
    assert not {"sleepy", "shaken"} & a.adv.character.afflictions
    assert b.adv.character.attrs[Attr.DEX].wounds == 1 and "hungry" in b.adv.character.afflictions
    assert c.adv.character.attrs[Attr.STR].wounds == 1
    assert c.adv.prayers is not None and c.adv.prayers.exhausted == []
    texts = " ".join(e.text for e in events)
    assert "hungry: wounds do not heal" in texts and "cursed: wounds do not heal" in texts
    assert not ids(gm)["sleep"].available and ids(gm)["sleep"].reason == "Already slept in this camp."


def test_a_well_deserved_rest_recovers_fatigue_and_shaken_but_heals_nothing() -> None:
    gm = camp_game("dry")
    a = gm.c.party[0]
    a.adv.character.attrs[Attr.DEX].fatigue = 1
    a.adv.character.attrs[Attr.STR].wounds = 1
    a.adv.character.afflictions |= {"shaken", "sleepy"}
    settle(gm)
    gm.apply("rest")
    ch = a.adv.character
    assert ch.attrs[Attr.DEX].fatigue == 0 and ch.attrs[Attr.STR].wounds == 1
    assert "shaken" not in ch.afflictions and "sleepy" in ch.afflictions


def test_parched_adventurers_recover_no_fatigue() -> None:
    gm = camp_game("dry")
    a = gm.c.party[0]
    a.adv.character.attrs[Attr.DEX].fatigue = 1
    a.adv.character.afflictions |= {"parched"}
    settle(gm)
    gm.apply("rest")
    assert a.adv.character.attrs[Attr.DEX].fatigue == 1


@pytest.mark.parametrize(
    ("skill", "feeds", "rations_used"),
    [(None, 2, 2), ("Cooking", 3, 2), ("Master Chef", 4, 1)],
)
def test_a_cooked_ration_feeds_two_three_or_four(skill: str | None, feeds: int, rations_used: int) -> None:
    gm = camp_game("dry", party=4)
    cook = gm.c.party[0]
    if skill:
        cook.adv.character.skills = [skill]
    for m in gm.c.party:
        m.adv.character.afflictions |= {"hungry", "parched"}
    give(cook, "Camping supplies")
    give(gm.c.party[1], "Ration", 3)
    settle(gm, f"supply:{cook.id}", "fire")
    action = ids(gm)["cook:ration"]
    assert action.available and f"each feeds {feeds}" in action.label
    events = gm.apply("cook:ration")
    meal = next(e for e in events if e.kind == "cook")
    assert meal.data["feeds"] == feeds and meal.data["rations"] == rations_used
    assert len(meal.data["fed"]) == 4
    assert gm.c.party[1].adv.inventory.find("Ration").count == 3 - rations_used  # type: ignore[union-attr]
    for m in gm.c.party:  # a regular ration removes both hungry and parched
        assert not {"hungry", "parched"} & m.adv.character.afflictions


def test_one_ration_feeds_only_two_and_the_hungriest_eat_first() -> None:
    gm = camp_game("dry", party=3)
    a, b, c = gm.c.party
    a.adv.character.afflictions |= {"parched"}
    b.adv.character.afflictions |= {"hungry"}
    c.adv.character.afflictions |= {"hungry"}
    give(a, "Camping supplies")
    give(a, "Ration", 1)
    settle(gm, f"supply:{a.id}", "fire")
    gm.apply("cook:ration")
    assert a.adv.inventory.find("Ration") is None
    assert "hungry" not in b.adv.character.afflictions and "hungry" not in c.adv.character.afflictions
    assert "parched" in a.adv.character.afflictions  # no ration left for the thirsty one


def test_cooking_needs_a_fire_and_camping_supplies() -> None:
    gm = camp_game("dry")
    gm.c.party[0].adv.character.afflictions |= {"hungry"}
    give(gm.c.party[0], "Ration", 2)
    give(gm.c.party[1], "Firewood")
    settle(gm, "fire")  # a fire of firewood, but no camping supplies used
    cook = ids(gm)["cook:ration"]
    assert not cook.available and cook.reason == "Cooking needs camping supplies used in this camp."
    gm2 = camp_game("dry")
    gm2.c.party[0].adv.character.afflictions |= {"hungry"}
    give(gm2.c.party[0], "Ration", 2)
    give(gm2.c.party[0], "Camping supplies")
    settle(gm2, f"supply:{gm2.c.party[0].id}")
    assert ids(gm2)["cook:ration"].reason == "Cooking needs a fire."


def test_special_rations_cure_sleepy_or_angry_and_parched() -> None:
    gm = camp_game("dry", party=3)
    a, b, c = gm.c.party
    a.adv.character.afflictions |= {"sleepy", "hungry"}
    b.adv.character.afflictions |= {"parched"}
    c.adv.character.afflictions |= {"angry"}
    give(a, "Camping supplies", 2)
    give(c, "Special ration", 2)
    settle(gm, f"supply:{a.id}", f"supply:{a.id}", "fire")  # 1 + 2 + 1 = 4
    assert "2 to feed, 1 ration" in ids(gm)["cook:tea"].label  # angry c and parched b
    gm.apply("cook:coffee")  # sleepy a and parched b drink; one special ration feeds 2
    assert "sleepy" not in a.adv.character.afflictions
    assert "hungry" in a.adv.character.afflictions  # a special ration does not feed
    assert "parched" not in b.adv.character.afflictions
    assert gm.c.expedition is not None and a.id in gm.c.expedition.had_coffee
    gm.apply("cook:tea")
    assert "angry" not in c.adv.character.afflictions
    assert c.adv.inventory.find("Special ration") is None


def test_use_camp_items_heals_repairs_and_shares() -> None:
    gm = camp_game("dry", party=2)
    a, b = gm.c.party
    a.adv.character.attrs[Attr.STR].score = 2
    a.adv.character.attrs[Attr.STR].wounds = 1
    armour = give(b, "Leather armor", equipped=True, ap=[0])
    give(b, "Sewing tools", usage=8)  # cloth only: no use on leather
    give(b, "Medical supply", 2)
    settle(gm)
    assert ids(gm)["camp_items"].label == f"Use camp items ({a.name})"
    give(b, "Leatherworker's toolkit", usage=6)
    assert ids(gm)["camp_items"].label == f"Use camp items ({a.name}, {b.name})"
    events = gm.apply("camp_items")
    assert a.adv.character.attrs[Attr.STR].wounds == 0  # b's medical supply, shared
    assert b.adv.inventory.find("Medical supply").count == 1  # type: ignore[union-attr]
    assert armour.ap == [1]
    assert "share" in kinds(events) and "repair" in kinds(events)


def test_paranoid_adventurers_share_no_camp_items() -> None:
    gm = camp_game("dry", party=2)
    a, b = gm.c.party
    a.adv.character.attrs[Attr.STR].score = 2
    a.adv.character.attrs[Attr.STR].wounds = 1
    b.adv.character.traumas = {"paranoid"}
    give(b, "Medical supply", 2)
    settle(gm)
    assert not ids(gm)["camp_items"].available


def test_keep_a_lookout_as_long_as_there_are_actions() -> None:
    gm = camp_game("dry", "exposed")
    give(gm.c.party[0], "Camping supplies")
    settle(gm, f"supply:{gm.c.party[0].id}")
    assert camp.ambush_pool(gm, state(gm)) == 1
    gm.apply("lookout")
    assert camp.ambush_pool(gm, state(gm)) == 0
    gm.apply("lookout")
    assert camp.ambush_pool(gm, state(gm)) == 0  # never below zero
    assert not ids(gm)["lookout"].available


def test_surgeon_ritualist_and_crafting() -> None:
    gm = camp_game("dry", party=2, seed=4)
    a, b = gm.c.party
    a.adv.character.skills = ["Surgeon", "Crafting"]
    b.adv.character.skills = ["Ritualist"]
    for m in gm.c.party:
        m.adv.character.attrs[Attr.INT].score = 3
        m.adv.character.attrs[Attr.INT].proficiency = 2
        m.adv.character.attrs[Attr.DEX].score = 2
        m.adv.character.attrs[Attr.DEX].wounds = 1
    armour = give(b, "Padded armor", equipped=True, ap=[0])
    gm.level_state().doom = 1
    events = []
    gm.apply("camp")
    events += gm.apply("settle")  # Crafting repairs 2 armour points at once
    assert armour.ap == [2]
    assert "repair" in kinds(events)
    action = ids(gm)[f"surgeon:{a.id}"]
    assert action.available and action.cost.actions == 0
    surgery = gm.apply(f"surgeon:{a.id}")
    test = next(e for e in surgery if e.kind == "test")
    assert test.data["attr"] == "INT" and test.data["outcome"] in ("success", "great success")
    assert all(m.adv.character.attrs[Attr.DEX].wounds == 0 for m in gm.c.party)
    assert not ids(gm)[f"surgeon:{a.id}"].available
    gm.apply(f"ritual:{b.id}:doom")
    assert gm.level_state().doom == 0
    assert state(gm).spent == 1
    assert not ids(gm)[f"ritual:{b.id}:omens"].available


def test_memorise_refreshes_forgotten_spells_with_a_grimoire() -> None:
    gm = camp_game("dry")
    wiz = gm.c.party[0]
    wiz.adv.character.attrs[Attr.INT].score = 2
    wiz.adv.spellbook = Spellbook(known=["Light", "Sleep"], memorised=["Light", "Sleep"], forgotten=["Sleep"])
    wiz.adv.inventory.items = [i for i in wiz.adv.inventory.items if i.name.lower() != "spell book"]
    settle(gm)
    memo = ids(gm)["memorise"]
    assert not memo.available and memo.reason == "The wizard has no grimoire to study."
    give(wiz, "Spell book")
    gm.apply("memorise")
    assert wiz.adv.spellbook.memorised == ["Light", "Sleep"] and wiz.adv.spellbook.forgotten == []


def test_an_angered_kaal_rafir_hears_a_camp_prayer() -> None:
    gm = camp_game("dry")
    cleric = gm.c.party[0]
    cleric.adv.god = "Kaal Rafir"
    cleric.adv.prayers = Prayers(memorised=["Bless"], angered=True)
    settle(gm)
    gm.apply(f"pray:{cleric.id}")
    assert not cleric.adv.prayers.angered
    assert state(gm).spent == 0


def test_quick_and_slow_items_are_free() -> None:
    gm = camp_game("dry")
    a = gm.c.party[0]
    a.adv.character.afflictions |= {"hungry", "parched"}
    give(a, "Ration", 2)
    settle(gm)
    action = ids(gm)[f"item:{a.id}:Ration"]
    assert action.available and action.cost.actions == 0
    gm.apply(f"item:{a.id}:Ration")  # eaten raw: feeds one
    assert not {"hungry", "parched"} & a.adv.character.afflictions
    assert a.adv.inventory.find("Ration").count == 1  # type: ignore[union-attr]
    assert state(gm).spent == 0


# --- quirks ---------------------------------------------------------------------------------------------------


def test_coffee_addicts_stay_sleepy_without_coffee() -> None:
    gm = camp_game("dry")
    a, b = gm.c.party
    a.adv.quirk = "Coffee addict"
    for m in (a, b):
        m.adv.character.afflictions |= {"sleepy"}
    give(a, "Camping supplies")
    settle(gm, f"supply:{a.id}")
    gm.apply("sleep")
    assert "sleepy" in a.adv.character.afflictions
    assert "sleepy" not in b.adv.character.afflictions


class Snorer(AutoDecider):
    """A decider that lets the snore add an ambush die."""

    def choose(self, gm: GM, member: Member | None, prompt: str, options: list[str]) -> str:
        if "loud snore" in prompt:
            return "an extra ambush die"
        return super().choose(gm, member, prompt, options)


def test_loud_snore_adds_a_die_or_stays_sleepy() -> None:
    gm = camp_game("dry")
    a = gm.c.party[0]
    a.adv.quirk = "Loud snore"
    a.adv.character.afflictions |= {"sleepy"}
    give(a, "Camping supplies")
    settle(gm, f"supply:{a.id}")
    gm.apply("sleep")  # the default: stay sleepy
    assert "sleepy" in a.adv.character.afflictions
    assert camp.ambush_pool(gm, state(gm)) == 1  # sleep
    gm2 = camp_game("dry")
    gm2.decider = Snorer()
    b = gm2.c.party[0]
    b.adv.quirk = "Loud snore"
    b.adv.character.afflictions |= {"sleepy"}
    give(b, "Camping supplies")
    settle(gm2, f"supply:{b.id}")
    gm2.apply("sleep")
    assert "sleepy" not in b.adv.character.afflictions
    assert camp.ambush_pool(gm2, state(gm2)) == 2  # sleep + loud snore


# --- ambush and break camp ------------------------------------------------------------------------------------


def test_the_ambush_pool_counts_every_source() -> None:
    gm = camp_game("dry", "exposed", party=3)
    a, b, _ = gm.c.party
    b.adv.character.traumas = {"paranoid"}
    give(a, "Camping supplies", 2)
    assert gm.c.expedition is not None
    gm.c.expedition.camped = 1  # camped before in this expedition
    gm.c.expedition.ambush_dice = 2  # the doom tracker's events
    settle(gm, f"supply:{a.id}", f"supply:{a.id}", "fire")  # dry 1 + 2 supplies + fire 1 = 4
    # exposed 1 + fire 1 + camped before 1 + doom 2 - paranoid 1
    assert camp.ambush_pool(gm, state(gm)) == 4
    gm.apply("sleep")
    assert camp.ambush_pool(gm, state(gm)) == 5
    gm.apply("lookout")
    gm.apply("lookout")
    assert camp.ambush_pool(gm, state(gm)) == 3
    names = [n for n, _ in camp.ambush_breakdown(gm, state(gm))]
    assert names[:5] == ["Exposed place", "Fire", "Camped before", "Sleep", "Keep a lookout"]
    assert ids(gm)["break"].label == "Break camp (ambush roll: 3 dice)"


def ambush_ready(seed: int) -> GM:
    """A camp with three ambush dice (exposed, fire, sleep), the campaign RNG reseeded to ``seed``."""
    gm = camp_game("dry", "exposed")
    a = gm.c.party[0]
    give(a, "Camping supplies")
    settle(gm, f"supply:{a.id}", "fire")  # 3 actions
    gm.apply("sleep")
    assert camp.ambush_pool(gm, state(gm)) == 3
    gm.rng.seed(seed)
    return gm


def test_an_ambush_with_one_six_is_a_fight_with_the_wanderers(fights: list[Any]) -> None:
    gm = ambush_ready(5)  # dice 5, 3, 6
    doom = gm.level_state().doom
    events = gm.apply("break")
    roll = next(e for e in events if e.kind == "ambush_roll")
    assert roll.data["dice"] == [5, 3, 6] and roll.data["sixes"] == 1
    assert fights == [([("Plagued Rat", 3)], {"source": "ambush", "surprise": None})]
    assert gm.c.stats.ambushes == 1
    assert gm.c.camp is None and gm.c.phase is Phase.COMBAT
    assert gm.c.expedition is not None and gm.c.expedition.camped == 1
    assert gm.level_state().doom == doom  # the ambush ends the camp: no break-camp doom


def test_two_sixes_and_the_party_is_surprised(fights: list[Any]) -> None:
    gm = ambush_ready(20)  # dice 6, 6, 2
    events = gm.apply("break")
    assert next(e for e in events if e.kind == "ambush_roll").data["dice"] == [6, 6, 2]
    assert fights[0][1] == {"source": "ambush", "surprise": "enemies"}
    assert "surprise" in next(e for e in events if e.kind == "ambush").text


def test_no_six_and_the_party_breaks_camp(fights: list[Any]) -> None:
    gm = ambush_ready(0)
    events = gm.apply("break")
    dice = next(e for e in events if e.kind == "ambush_roll").data["dice"]
    assert len(dice) == 3 and 6 not in dice
    assert fights == [] and gm.c.phase is Phase.EXPLORATION and gm.c.stats.ambushes == 0


@pytest.mark.parametrize(("long_rest", "doom"), [(False, 1), (True, 2)])
def test_break_camp_advances_doom_once_or_twice_after_a_long_rest(long_rest: bool, doom: int) -> None:
    gm = camp_game("dry")  # not exposed, no fire, first camp: no ambush dice
    settle(gm, *(["long_rest"] if long_rest else []))
    assert state(gm).points == (3 if long_rest else 1)
    before = gm.level_state().doom
    assert before == 0
    events = gm.apply("break")
    assert gm.level_state().doom == before + doom
    assert "break_camp" in kinds(events)
    assert gm.c.phase is Phase.EXPLORATION and gm.c.camp is None
    assert gm.c.expedition is not None and gm.c.expedition.camped == 1
    assert next(e for e in events if e.kind == "ambush_roll").data["dice"] == []


def test_a_second_camp_rolls_the_camped_before_die() -> None:
    gm = camp_game("dry")
    settle(gm)
    gm.apply("break")
    settle(gm)
    assert camp.ambush_breakdown(gm, state(gm)) == [("Camped before", 1)]


# --- saves and autoplay -----------------------------------------------------------------------------------------


def test_a_camp_in_progress_survives_a_save() -> None:
    gm = camp_game("dry", "exposed")
    give(gm.c.party[0], "Camping supplies")
    settle(gm, f"supply:{gm.c.party[0].id}", "fire")
    gm.apply("lookout")
    back = Campaign.from_dict(gm.c.to_dict())
    assert back.camp == gm.c.camp
    assert back.phase is Phase.CAMP


def test_autoplay_camps_and_moves_on(fights: list[Any]) -> None:
    for seed in range(1, 6):
        gm = camp_game("dry", "exposed", party=3, seed=seed)
        a, b, c = gm.c.party
        a.adv.character.afflictions |= {"hungry"}
        b.adv.character.attrs[Attr.DEX].score = max(2, b.adv.character.attrs[Attr.DEX].score)
        b.adv.character.attrs[Attr.DEX].wounds = 1
        give(c, "Camping supplies", 2)
        give(c, "Ration", 2)
        gm.apply("camp")
        chosen = []
        for _ in range(40):
            if gm.c.phase is not Phase.CAMP:
                break
            action = camp_policy.suggest(gm, gm.legal_actions())
            chosen.append(action.id)
            gm.apply(action.id)
        assert gm.c.phase in (Phase.EXPLORATION, Phase.COMBAT)
        assert chosen[:2] == [f"supply:{c.id}", "fire"]  # a supply first: it makes the fire and the meal
        assert chosen[2:4] == [f"supply:{c.id}", "settle"]  # a second one: sleep, cook and a lookout want 4
        assert "cook:ration" in chosen and "sleep" in chosen and chosen[-1] == "break"
        assert "hungry" not in a.adv.character.afflictions
        assert b.adv.character.attrs[Attr.DEX].wounds == 0


def test_autoplay_without_supplies_takes_a_long_rest_to_sleep_off_its_wounds(fights: list[Any]) -> None:
    """Seed 4 camped three times with 0 camp actions (no supplies, not dry): it healed nothing and paid the doom and
    the ambush roll each time.  Short of a sleep's two actions, the autoplay takes the long rest."""
    gm = camp_game("exposed", party=2, seed=1)
    a, _ = gm.c.party
    a.adv.character.attrs[Attr.STR].score = max(2, a.adv.character.attrs[Attr.STR].score)
    a.adv.character.attrs[Attr.STR].wounds = 1
    gm.apply("camp")
    chosen = []
    for _ in range(20):
        if gm.c.phase is not Phase.CAMP:
            break
        action = camp_policy.suggest(gm, gm.legal_actions())
        chosen.append(action.id)
        gm.apply(action.id)
    assert chosen[:3] == ["long_rest", "settle", "sleep"]
    assert a.adv.character.attrs[Attr.STR].wounds == 0


@pytest.mark.parametrize(("quals", "supplies", "camps"), [
    (("filthy",), 0, False),  # a long rest (+2) less the filth (-1): one action, no sleep
    (("filthy",), 1, True),  # a supply and its fire: three
    ((), 0, True),  # a long rest alone: the sleep's two
])  # fmt: skip
def test_autoplay_camps_for_its_wounds_only_where_a_sleep_can_be_had(
    quals: tuple[str, ...], supplies: int, camps: bool
) -> None:
    """Seed 7 camped twice running in a filthy ward with no supplies (one camp action) for its wounds: wounds
    heal only in a sleep (two actions), so it healed nothing and paid two turns of torchlight and the doom."""
    from rules.autoplay import player

    gm = camp_game(*quals, party=2)
    a, b = gm.c.party
    for m in (a, b):
        m.adv.character.attrs[Attr.STR].score = max(3, m.adv.character.attrs[Attr.STR].score)
        m.adv.character.attrs[Attr.STR].wounds = 2
    if supplies:
        give(a, "Camping supplies")
    assert player.camp_points(gm) == {(("filthy",), 0): 1, (("filthy",), 1): 3, ((), 0): 2}[(quals, supplies)]
    actions = [x for x in gm.legal_actions() if x.available]
    assert (player.explore(gm, actions).id == "camp") is camps


def test_an_angered_yulak_is_pleased_by_self_flagellation_at_camp() -> None:
    """Playtest seed 101: Yulak's cleric angered the god (a critical failure praying for Martyr) and no sacrifice
    was ever offered: "To please Yulak, the cleric must self-flagellate, causing 2 wounds and bleeding to self."
    Now it is a free camp action (R212)."""
    gm = camp_game("dry")
    cleric = gm.c.party[0]
    cleric.adv.god = "Yulak"
    cleric.adv.prayers = Prayers(memorised=["Martyr"], angered=True)
    for a in ATTRS:
        cleric.adv.character.attrs[a].score = 3
    settle(gm)
    action = ids(gm)[f"sacrifice:{cleric.id}"]
    assert action.available and action.cost.actions == 0
    gm.apply(action.id)
    ch = cleric.adv.character
    assert not cleric.adv.prayers.angered
    assert sum(ch.attrs[a].wounds for a in ATTRS) == 2 and "bleeding" in ch.afflictions
    assert f"sacrifice:{cleric.id}" not in ids(gm)  # pleased: nothing more to offer
    assert state(gm).spent == 0


def test_an_angered_akhzu_is_pacified_by_burying_two_rations() -> None:
    """"To pacify Akhzu, the cleric must feed the earth, burying 2 rations." (the party's rations, R212)"""
    gm = camp_game("dry")
    cleric, other = gm.c.party
    cleric.adv.god = "Akhzu"
    cleric.adv.prayers = Prayers(memorised=["Prayer of Spring"], angered=True)
    give(other, "Ration", 1)
    settle(gm)
    action = ids(gm)[f"sacrifice:{cleric.id}"]
    assert action.reason == "Needs 2 rations to bury: the party carries 1."
    give(cleric, "Ration", 1)
    gm.apply(f"sacrifice:{cleric.id}")
    assert not cleric.adv.prayers.angered
    assert cleric.adv.inventory.find("Ration") is None and other.adv.inventory.find("Ration") is None


def test_a_door_wedged_shut_warns_the_camp_or_holds_the_ambush(fights: list[Any]) -> None:
    """R246: the ambush comes by the way the party came; wedged shut, the Rats must burst it first (one die, the
    Plagued Rat's level). Seed 20: ambush dice 6, 6, 2 (surprise), burst with a 6: heard, so no surprise.
    Seed 12: the door holds (a 2): no fight now, the Rats wait at the door."""
    from rules.gm.places import door_state

    for seed in (20, 12):
        gm = ambush_ready(seed)
        assert gm.c.expedition is not None
        gm.c.expedition.came_from = 2
        door_state(gm, gm.site_level().links[0]).wedged = True
        fights.clear()
        events = gm.apply("break")
        doors = [e.text for e in events if e.kind.startswith("door")]
        if seed == 20:
            assert doors == [
                "A crash: something bursts the door (wedged shut) from an unexplored room (2) (1 die: [6])."]
            assert fights == [([("Plagued Rat", 3)], {"source": "ambush", "surprise": None})]
        else:
            assert doors == [
                "Something pounds at the door to an unexplored room (2): it holds (wedged shut; 1 die: [2])."]
            assert fights == [] and gm.c.expedition.at_door == [[1, 1, 1, -1, "ambush", [["Plagued Rat", 3]]]]
