"""The life path in two halves (roll the dice, then apply the row), as the desktop's step-by-step creation uses it."""

from __future__ import annotations

from random import Random

import pytest

from rules.attributes import Attr
from rules.content.registry import Content, load_content
from rules.creation import (
    LIFEPATH_ORDER,
    RandomChooser,
    finish_lifepath,
    free_lifepath_reroll,
    new_adventurer,
    roll_lifepath,
    roll_lifepath_dice,
)


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


class Keep(RandomChooser):
    def lifepath_reroll(self, adv, table, dice):  # type: ignore[no-untyped-def]
        return None


def test_dice_half_applies_nothing(content: Content) -> None:
    adv = new_adventurer(content, "Hedda")
    before = adv.to_dict()
    rec = roll_lifepath_dice(adv, content, "infancy", Random(5), Keep(Random(0)))
    assert len(rec.dice) == 3 and all(1 <= d <= 6 for d in rec.dice)
    assert rec.roll == sum(rec.dice)
    assert rec.row == content.lifepath.table("infancy").lookup(rec.roll).name
    assert adv.to_dict() == before and adv.lifepath == []


def test_finish_applies_the_row_and_records_it(content: Content) -> None:
    adv = new_adventurer(content, "Hedda")
    rng = Random(11)
    rec = roll_lifepath_dice(adv, content, "burden", rng, Keep(rng))
    finish_lifepath(adv, content, rec, rng, Keep(rng))
    assert adv.lifepath == [rec] and adv.burden == rec.row


def test_two_halves_equal_one_call(content: Content) -> None:
    """Same RNG, same chooser: the split consumes the dice exactly as roll_lifepath does."""
    for seed in range(30):
        a, b = new_adventurer(content, "A"), new_adventurer(content, "A")
        ra, rb = Random(seed), Random(seed)
        for t in LIFEPATH_ORDER:
            roll_lifepath(a, content, t, ra, RandomChooser(Random(seed)))
            finish_lifepath(b, content, roll_lifepath_dice(b, content, t, rb, RandomChooser(Random(seed))), rb,
                            RandomChooser(Random(seed)))  # fmt: skip
        assert a.to_dict() == b.to_dict()


def test_reroll_in_the_dice_half_spends_insight(content: Content) -> None:
    class Once(RandomChooser):
        def lifepath_reroll(self, adv, table, dice):  # type: ignore[no-untyped-def]
            return [0]

    adv = new_adventurer(content, "Hedda")
    rec = roll_lifepath_dice(adv, content, "tragedy", Random(2), Once(Random(0)))
    assert adv.character.insight == 0 and len(rec.rerolls) == 1
    assert rec.rerolls[0][1:] == rec.dice[1:]
    assert adv.character.attrs[Attr.STR].score == 1  # nothing applied yet


class Always(RandomChooser):
    def __init__(self) -> None:
        super().__init__(Random(0))
        self.asked = 0

    def lifepath_reroll(self, adv, table, dice):  # type: ignore[no-untyped-def]
        self.asked += 1
        return list(range(len(dice)))


def _row_of(content: Content, table: str, seed: int) -> str:
    return roll_lifepath_dice(new_adventurer(content, "X"), content, table, Random(seed), Keep(Random(0))).row


def test_same_life_path_as_a_party_member_rerolls_once_for_free(content: Content) -> None:
    row = _row_of(content, "burden", 8)  # what the first roll of this seed gives
    adv = new_adventurer(content, "Hedda")
    adv.character.insight = 0
    chooser = Always()
    rec = roll_lifepath_dice(adv, content, "burden", Random(8), chooser, shared={row})
    assert rec.free_rerolls == 1 and rec.rerolls and rec.rerolls[0] and adv.character.insight == 0
    assert chooser.asked == 1, "without insight only the free re-roll is offered, and only once"
    finish_lifepath(adv, content, rec, Random(0), chooser)
    # the free re-roll is spent: the next shared row costs insight as usual
    row2 = _row_of(content, "quirks", 3)
    assert not free_lifepath_reroll(adv, content, content.lifepath.table("quirks"), [6, 6, 6, 6], {row2})
    rec2 = roll_lifepath_dice(adv, content, "quirks", Random(3), chooser, shared={row2})
    assert rec2.free_rerolls == 0 and rec2.rerolls == []


def test_without_a_shared_row_nothing_is_free(content: Content) -> None:
    adv = new_adventurer(content, "Hedda")
    rec = roll_lifepath_dice(adv, content, "burden", Random(8), Always(), shared={"no such row"})
    assert rec.free_rerolls == 0 and len(rec.rerolls) == 1 and adv.character.insight == 0
