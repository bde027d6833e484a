"""Mortal wounds, Hardened, insight spending and the inventory accounts."""

from __future__ import annotations

from random import Random

import pytest

from rules.attributes import ATTRS, Attr
from rules.character import Character, Condition
from rules.checks import RuleError
from rules.content.registry import load_content
from rules.injury import hardened, mortal_wound, stabilise
from rules.inventory import Carried, Inventory
from rules.progression import learnable_skills, spend, spend_options


class FixedRandom(Random):
    """Rolls the faces given, in order (for d6 rolls via randint)."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


@pytest.fixture(scope="module")
def tables():  # type: ignore[no-untyped-def]
    c = load_content()
    return c.tables.mortal_wounds, [t.name for t in c.character.traumas], c


def mortally_wounded(name: str = "Zael") -> Character:
    ch = Character(name)
    ch.condition = Condition.MORTALLY_WOUNDED
    return ch


@pytest.mark.parametrize(
    ("face", "previous", "outcome", "condition"),
    [
        (1, 0, "knocked out", Condition.MORTALLY_WOUNDED),
        (6, 0, "bleeding out", Condition.MORTALLY_WOUNDED),
        (6, 1, "dead", Condition.DEAD),  # 6 + 1 previous mortal wound = 7+
        (1, 0, "knocked out", Condition.MORTALLY_WOUNDED),
    ],
)
def test_mortal_wound_rows(tables, face: int, previous: int, outcome: str, condition: Condition) -> None:  # type: ignore[no-untyped-def]
    table, traumas, _ = tables
    ch = mortally_wounded()
    ch.mortal_wounds_this_expedition = previous
    res = mortal_wound(ch, FixedRandom([face]), table, traumas)
    assert res.total == face + previous
    assert res.outcome == outcome and ch.condition is condition
    assert ch.mortal_wounds_this_expedition == previous + 1


def test_scratch_with_negative_modifier(tables) -> None:  # type: ignore[no-untyped-def]
    table, traumas, _ = tables
    ch = mortally_wounded()
    res = mortal_wound(ch, FixedRandom([1]), table, traumas, modifier=-1)
    assert res.outcome == "scratch" and ch.condition is Condition.ACTIVE


def test_chronic_pain_lowers_a_score_and_brain_damage_a_proficiency(tables) -> None:  # type: ignore[no-untyped-def]
    table, traumas, _ = tables
    ch = mortally_wounded()
    ch.attrs[Attr.STR].score = 3
    res = mortal_wound(ch, FixedRandom([2]), table, traumas, pick=lambda c, w, o: "STR" if "STR" in o else o[0])
    assert res.trauma == "Chronic pain" and ch.attrs[Attr.STR].score == 2
    ch2 = mortally_wounded()
    ch2.attrs[Attr.INT].proficiency = 1
    res = mortal_wound(ch2, FixedRandom([4]), table, traumas)
    assert res.trauma == "Brain damage" and ch2.attrs[Attr.INT].proficiency == 0


def test_a_trauma_already_held_is_ignored(tables) -> None:  # type: ignore[no-untyped-def]
    table, traumas, _ = tables
    ch = mortally_wounded()
    ch.add_trauma("Visions")
    res = mortal_wound(ch, FixedRandom([5]), table, traumas)
    assert res.trauma is None and ch.traumas == {"visions"}


def test_choose_a_trauma_you_do_not_have(tables) -> None:  # type: ignore[no-untyped-def]
    table, traumas, _ = tables
    ch = mortally_wounded()
    ch.add_trauma(traumas[0])
    res = mortal_wound(ch, FixedRandom([3]), table, traumas)
    assert res.trauma is not None and res.trauma != traumas[0]


def test_rejected_by_death(tables) -> None:  # type: ignore[no-untyped-def]
    table, traumas, _ = tables
    ch = mortally_wounded()
    ch.traits.append("Rejected by death")
    res = mortal_wound(ch, FixedRandom([1, 6]), table, traumas)  # 2d! shows a 1: triggered
    assert res.ignored_by_trait and ch.condition is Condition.ACTIVE
    assert ch.mortal_wounds_this_expedition == 0
    ch2 = mortally_wounded()
    ch2.traits.append("Rejected by death")
    res = mortal_wound(ch2, FixedRandom([2, 6, 1]), table, traumas)  # not triggered, then the table's 1
    assert not res.ignored_by_trait and res.outcome == "knocked out"


def test_stabilise() -> None:
    ch = mortally_wounded()
    assert stabilise(ch) and ch.condition is Condition.ACTIVE
    assert not stabilise(ch)


def test_hardened() -> None:
    ch = Character("Brute")
    ch.attrs[Attr.STR].score = 2
    assert hardened(ch, Random(1), 3).tested is False  # no trait
    ch.traits.append("Hardened")
    res = hardened(ch, FixedRandom([6, 6]), 3)  # great success
    assert (res.resisted, res.remaining) == (2, 1)
    res = hardened(ch, FixedRandom([5, 2]), 3)
    assert (res.resisted, res.remaining) == (1, 2)
    res = hardened(ch, FixedRandom([2, 3]), 1)
    assert (res.resisted, res.remaining) == (0, 1)


def test_insight_spending() -> None:
    c = load_content()
    spends = list(c.character.insight.spends)
    skills = [(s.name, s.advanced_of) for s in c.character.skills]
    ch = Character("Vex")
    ch.insight = 4
    ch.attrs[Attr.STR].score = 3
    opts = {o.rule: o for o in spend_options(ch, spends, learnable_skills(ch, skills))}
    assert opts["increase_proficiency"].unavailable is None
    assert opts["heal_trauma"].unavailable == "no trauma to heal"
    assert "STR>DEX" in opts["move_attribute_score"].targets
    assert set(opts["increase_lowest_score"].targets) == {"DEX", "INT", "PRE"}
    spend(ch, opts["increase_lowest_score"], "DEX")
    assert ch.attrs[Attr.DEX].score == 2 and ch.insight == 2
    opts = {o.rule: o for o in spend_options(ch, spends, learnable_skills(ch, skills))}
    assert opts["increase_score"].unavailable and "needs 3" in opts["increase_score"].unavailable
    with pytest.raises(RuleError):
        spend(ch, opts["increase_score"], "STR")
    with pytest.raises(RuleError):
        spend(ch, opts["learn_skill"], "Flying")


def test_advanced_skill_replaces_the_basic_one() -> None:
    c = load_content()
    skills = [(s.name, s.advanced_of) for s in c.character.skills]
    upgrades = {s.name: s.advanced_of for s in c.character.skills if s.advanced_of}
    ch = Character("Cook")
    ch.insight = 2
    assert "Master Chef" not in learnable_skills(ch, skills)
    ch.skills.append("Cooking")
    assert "Master Chef" in learnable_skills(ch, skills)
    opt = next(o for o in spend_options(ch, list(c.character.insight.spends), learnable_skills(ch, skills))
               if o.rule == "learn_skill")  # fmt: skip
    spend(ch, opt, "Master Chef", upgrades=upgrades)
    assert ch.skills == ["Master Chef"]


def test_creation_caps_scores() -> None:
    c = load_content()
    ch = Character("Max")
    for a in ATTRS:
        ch.attrs[a].score = 3
    ch.insight = 9
    opts = {o.rule: o for o in spend_options(ch, list(c.character.insight.spends), [], at_creation=True)}
    assert opts["increase_score"].unavailable == "every score is at its maximum"


def test_inventory_accounts() -> None:
    inv = Inventory.body()
    inv.add_container("Belt", 1)
    inv.add_container("Canteen", 1, liquid_only=True)
    inv.add_container("Bag", 4)
    assert inv.capacity(2) == 13
    water = inv.add(Carried("Water", "", liquid=True))
    assert water.place == "Canteen"
    rope = inv.add(Carried("Rope", ""))
    assert rope.place == "Belt"
    pole = inv.add(Carried("3 meter pole", "", slots=2))
    assert pole.place == "Bag"
    with pytest.raises(RuleError):
        inv.add(Carried("Rations", ""), "Canteen")  # liquids only
    for i in range(6):
        inv.add(Carried(f"Thing {i}", ""))
    assert inv.carried_slots == 10
    assert not inv.encumbered(1) and inv.carried_slots <= inv.capacity(1)
    mule = inv.add_container("Pack mule", 10, on_body=False)
    for i in range(5):
        inv.add(Carried(f"Crate {i}", ""), mule.name)
    assert inv.carried_slots == 10  # the mule carries its own load
    spare = inv.add(Carried("Spare anvil", "", slots=2))
    assert spare.place == "Pack mule"  # the body is full: it goes on the mule
    inv.add(Carried("Anvil", "", slots=2), "Torso")
    assert inv.carried_slots == 12 and inv.encumbered(1) and not inv.encumbered(2)
    with pytest.raises(RuleError):
        for i in range(20):
            inv.add(Carried(f"Junk {i}", ""))
