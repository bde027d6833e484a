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
