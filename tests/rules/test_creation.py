"""Character creation: life path effects, clamps, insight re-rolls, classes and kits."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.attributes import ATTRS, Attr
from rules.content.registry import Content, load_content
from rules.creation import (
    Adventurer,
    RandomChooser,
    apply_lifepath_row,
    gain_skill,
    new_adventurer,
    random_adventurer,
    roll_lifepath,
)


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


class Scripted(RandomChooser):
    """Deterministic answers for the tests."""

    def __init__(self, rng: Random, rerolls: list[list[int] | None] | None = None, attr: Attr | None = None) -> None:
        super().__init__(rng)
        self.rerolls = list(rerolls or [])
        self.attr = attr
        self.asked: list[str] = []

    def lifepath_reroll(self, adv, table, dice):  # type: ignore[no-untyped-def]
        return self.rerolls.pop(0) if self.rerolls else None

    def attribute(self, adv, purpose, options):  # type: ignore[no-untyped-def]
        self.asked.append(purpose)
        return self.attr if self.attr in options else options[0]


def row(content: Content, table: str, roll: int):  # type: ignore[no-untyped-def]
    return content.lifepath.table(table).lookup(roll)  # type: ignore[arg-type]


def test_start_values(content: Content) -> None:
    adv = new_adventurer(content, "Zael")
    for a in ATTRS:
        assert adv.character.attrs[a].score == 1
        assert adv.character.attrs[a].proficiency == 0
    assert adv.character.insight == 1


def test_battleborn_adds_two_str_and_fearless(content: Content) -> None:
    adv = new_adventurer(content, "A")
    apply_lifepath_row(adv, content, row(content, "infancy", 7), Scripted(Random(1)), Random(1))
    assert adv.character.attrs[Attr.STR].score == 3
    assert adv.character.has_skill("Fearless")


def test_scores_clamp_to_three_and_zero(content: Content) -> None:
    adv = new_adventurer(content, "A")
    battleborn = row(content, "infancy", 7)  # +2 STR
    apply_lifepath_row(adv, content, battleborn, Scripted(Random(1)), Random(1))
    apply_lifepath_row(adv, content, battleborn, Scripted(Random(1)), Random(1))
    assert adv.character.attrs[Attr.STR].score == 3  # "ignore any excess points"
    nothing_to_lose = row(content, "tragedy", 8)  # +1 STR prof, +1 PRE, -2 INT
    apply_lifepath_row(adv, content, nothing_to_lose, Scripted(Random(1)), Random(1))
    assert adv.character.attrs[Attr.INT].score == 0
    assert adv.character.attrs[Attr.PRE].score == 2
    assert adv.character.attrs[Attr.STR].proficiency == 1


def test_proficiency_clamps_to_two(content: Content) -> None:
    adv = new_adventurer(content, "A")
    deserter = row(content, "career", 3)  # +1 STR, +1 STR prof
    for _ in range(3):
        apply_lifepath_row(adv, content, deserter, Scripted(Random(1)), Random(1))
    assert adv.character.attrs[Attr.STR].proficiency == 2


def test_duplicate_skill_upgrades(content: Content) -> None:
    adv = new_adventurer(content, "A")
    assert gain_skill(adv, content, "Cooking") == "Cooking"
    assert gain_skill(adv, content, "cooking") == "Master Chef"
    assert adv.character.skills == ["Master Chef"]


def test_duplicate_skill_without_upgrade_is_noted(content: Content) -> None:
    adv = new_adventurer(content, "A")
    gain_skill(adv, content, "Surgeon")
    gain_skill(adv, content, "Surgeon")
    assert adv.character.skills == ["Surgeon"]
    assert any("Surgeon" in n for n in adv.notes)


def test_chosen_attribute_effects_ask_the_chooser(content: Content) -> None:
    adv = new_adventurer(content, "A")
    chooser = Scripted(Random(1), attr=Attr.PRE)
    meditation = row(content, "tragedy", 6)  # -1 of any attribute score
    apply_lifepath_row(adv, content, meditation, chooser, Random(1))
    assert adv.character.attrs[Attr.PRE].score == 0
    assert chooser.asked == ["score -1"]


def test_prof_of_lowest_score(content: Content) -> None:
    adv = new_adventurer(content, "A")
    adv.character.attrs[Attr.DEX].score = 0
    haunted = row(content, "tragedy", 9)  # +1 prof of lowest attribute score, -1 PRE
    apply_lifepath_row(adv, content, haunted, Scripted(Random(1)), Random(1))
    assert adv.character.attrs[Attr.DEX].proficiency == 1


def test_silver_and_insight(content: Content) -> None:
    adv = new_adventurer(content, "A")
    blue_blood = row(content, "infancy", 17)  # +4d6 silver
    apply_lifepath_row(adv, content, blue_blood, Scripted(Random(5)), Random(5))
    assert 4 <= adv.character.silver <= 24
    city_kid = row(content, "infancy", 11)  # +1 insight
    apply_lifepath_row(adv, content, city_kid, Scripted(Random(5)), Random(5))
    assert adv.character.insight == 2


def test_insight_reroll_costs_one_and_records_the_old_dice(content: Content) -> None:
    adv = new_adventurer(content, "A")
    chooser = Scripted(Random(3), rerolls=[[0, 1, 2]])
    rec = roll_lifepath(adv, content, "tragedy", Random(3), chooser)
    assert adv.character.insight == 0
    assert len(rec.rerolls) == 1 and len(rec.rerolls[0]) == 3
    assert rec.roll == sum(rec.dice)
    assert 3 <= rec.roll <= 18


def test_no_reroll_without_insight(content: Content) -> None:
    adv = new_adventurer(content, "A")
    adv.character.insight = 0
    chooser = Scripted(Random(3), rerolls=[[0]])
    rec = roll_lifepath(adv, content, "burden", Random(3), chooser)
    assert rec.rerolls == [] and chooser.rerolls == [[0]]
    assert adv.burden == rec.row


@pytest.mark.parametrize("klass", ["Warrior", "Thief", "Wizard", "Cleric"])
def test_each_class(content: Content, klass: str) -> None:
    adv = random_adventurer(content, Random(42), klass=klass)
    ch = adv.character
    assert adv.klass == klass
    assert len(adv.lifepath) == 5
    assert adv.inventory.items, "a starting kit"
    if klass == "Warrior":
        assert adv.background in {"Footman", "Gladiator", "Barbarian"}
        assert len(adv.manoeuvres) == 1
        assert ch.attrs[Attr.STR].proficiency >= 1
    if klass == "Thief":
        assert adv.background in {"Stalker", "Lone Rogue", "Hoodlum", "Moon-curser"}
    if klass == "Wizard":
        assert ch.has_trait("Magic user") and ch.has_skill("Loremaster")
        assert adv.spellbook is not None
        spells = {s.name for s in content.magic.spells if s.school == adv.school}
        assert set(adv.spellbook.known) <= spells
        assert len(adv.spellbook.known) == min(ch.attrs[Attr.INT].score, len(spells))
    if klass == "Cleric":
        assert ch.has_trait("Divine mandate") and ch.has_skill("Ward the dead")
        assert adv.god in {g.name for g in content.magic.gods if g.kind == "new"}
        assert adv.prayers is not None
        assert len(adv.prayers.memorised) == ch.attrs[Attr.PRE].score
        legal = {p.name for p in content.magic.prayers if p.source in ("basic", adv.god)}
        assert set(adv.prayers.memorised) <= legal


def test_footman_kit(content: Content) -> None:
    class Footman(RandomChooser):
        def pick(self, adv, what, options, count=1):  # type: ignore[no-untyped-def]
            return ["Footman"] if what == "background" else options[:count]

    adv = random_adventurer(content, Random(1), klass="Warrior", chooser=Footman(Random(1)))
    names = [i.name for i in adv.inventory.items]
    assert "Long Spear" in names and "Metal shield" in names
    assert "Padded armor" in names and "Soldier helmet" in names
    assert adv.character.has_trait("Hardened")
    torso = [i.name for i in adv.inventory.items if i.place == "Torso"]
    assert set(torso) == {"Padded armor", "Soldier helmet"}
    # a backpack replaces the starting bag
    containers = [p.container for p in adv.inventory.places if p.container]
    assert "Backpack" in containers and "Bag" not in containers


def test_same_seed_same_adventurer(content: Content) -> None:
    a = random_adventurer(content, Random(2024)).to_dict()
    b = random_adventurer(content, Random(2024)).to_dict()
    assert a == b
    assert random_adventurer(content, Random(2025)).to_dict() != a


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_adventurers_are_legal(seed: int) -> None:
    content = load_content()
    adv: Adventurer = random_adventurer(content, Random(seed))
    ch = adv.character
    for a in ATTRS:
        assert 0 <= ch.attrs[a].score <= 3
        assert 0 <= ch.attrs[a].proficiency <= 2
        assert ch.attrs[a].fatigue == 0 and ch.attrs[a].wounds == 0
    assert ch.insight >= 0 and ch.silver >= 0
    assert adv.burden and adv.quirk and adv.klass
    assert len(set(s.lower() for s in ch.skills)) == len(ch.skills)
    known = {s.name.lower() for s in content.character.skills}
    assert all(s.lower() in known for s in ch.skills)
    assert not adv.inventory.encumbered(ch.attrs[Attr.STR].score) or ch.attrs[Attr.STR].score == 0
    for p in adv.inventory.places:
        assert adv.inventory.used(p.name) <= p.slots


@pytest.mark.parametrize("name", ["First aid kit", "Holy water"])
def test_an_item_with_a_usage_die_keeps_it(content: Content, name: str) -> None:
    """items.toml gives the first aid kit and holy water a usage die (Ud6): one bought or packed carries it, so it
    lasts several uses instead of vanishing after the first (or never running out)."""
    from rules.content.schema_creation import StartingItem
    from rules.creation import add_kit_item

    adv = random_adventurer(content, Random(3), klass="Warrior")
    add_kit_item(adv, content, StartingItem(item=name, book=name))
    held = [i for i in adv.inventory.items if i.name == name]
    assert len(held) == 1 and held[0].usage == 6 and held[0].count == 1


def test_insight_that_raises_int_adds_the_spells_it_allows(content: Content) -> None:
    """A wizard whose INT is 0 when the class is taken knows no spell; the leftover insight raising INT to 1
    ("Increase lowest score") must add one spell of the school, memorised (seed 127's Yoss had none)."""
    from rules.creation import apply_class, spend_leftover_insight

    adv = new_adventurer(content, "Yoss")
    ch = adv.character
    ch.attrs[Attr.INT].score = 0
    ch.attrs[Attr.STR].score = ch.attrs[Attr.DEX].score = ch.attrs[Attr.PRE].score = 2
    chooser = Scripted(Random(3))
    apply_class(adv, content, "Wizard", Random(3), chooser)
    assert adv.spellbook is not None and adv.spellbook.known == []
    ch.insight = 2
    spend_leftover_insight(adv, content, chooser)
    assert ch.attrs[Attr.INT].score == 1
    school = {s.name for s in content.magic.spells if s.school == adv.school}
    assert len(adv.spellbook.known) == 1 and adv.spellbook.known[0] in school
    assert adv.spellbook.memorised == adv.spellbook.known
