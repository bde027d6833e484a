"""Table outcomes applied to characters, the decay climb, settlement markets and doom."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from rules.attributes import Attr
from rules.character import Character
from rules.content.effects import Outcome
from rules.content.registry import Content, load_content
from rules.outcomes import apply_outcome, roll_decay
from rules.settlement import availability_chance, doom_state, roll_availability, roll_price


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


def test_decay_climbs_past_held_afflictions(content: Content) -> None:
    ch = Character("Z")
    for a in ("terrified", "sleepy", "parched"):
        ch.add_affliction(a)
    seen = Counter(roll_decay(ch, Random(s), content.tables.decay).total for s in range(3000))
    assert seen[4] == seen[5] == seen[6] == 0  # held: climbed to 7
    assert seen[7] > seen[8]  # 7 gets its own 6/36 plus 4, 5 and 6's


def test_decay_with_every_affliction_lands_on_doom_or_wound(content: Content) -> None:
    ch = Character("Z")
    for a in ("terrified", "sleepy", "parched", "hungry", "hopeless", "angry"):
        ch.add_affliction(a)
    totals = {roll_decay(ch, Random(s), content.tables.decay).total for s in range(500)}
    assert totals <= {2, 3, 7, 11, 12}


def test_decay_distribution_without_afflictions(content: Content) -> None:
    ch = Character("Z")
    n = 6000
    seen = Counter(roll_decay(ch, Random(s), content.tables.decay).total for s in range(n))
    assert abs(seen[7] / n - 6 / 36) < 0.03


def test_apply_fatigue_wound_affliction(content: Content) -> None:
    ch = Character("Z")
    ch.attrs[Attr.STR].score = 3
    out = Outcome(text="t", fatigue=1, fatigue_attr="STR", afflictions=["angry"], doom=1)
    done = apply_outcome(ch, out, Random(1))
    assert ch.attrs[Attr.STR].fatigue == 1 and "angry" in ch.afflictions
    assert done.doom == 1 and done.lines == ["t"]


def test_apply_alternatives_and_risk(content: Content) -> None:
    ch = Character("Z", silver=20)
    out = Outcome(
        text="You get mugged; pay 2d6 silver or take 2 wounds.",
        alternatives=[Outcome(text="pay", lose_silver="2d6"), Outcome(text="wounds", wounds=2)],
    )
    done = apply_outcome(ch, out, Random(3), choose=lambda c, w, o: o[0])
    assert 2 <= done.silver_lost <= 12 and ch.silver == 20 - done.silver_lost
    drunk = Outcome(
        text="drunk", remove=["terrified"], risk_dice=6, on_risk=Outcome(text="sick", afflictions=["nauseated"])
    )
    ch.add_affliction("terrified")
    apply_outcome(ch, drunk, Random(0))
    assert "terrified" not in ch.afflictions


def test_interlude_picks_another_affliction(content: Content) -> None:
    ch = Character("Z")
    ch.add_affliction("sleepy")
    apply_outcome(ch, Outcome(text="restless", afflictions=["sleepy"]), Random(1), interlude=True)
    assert len(ch.afflictions) == 2


def test_sleep_tables_apply_cleanly(content: Content) -> None:
    """Every row of every sleep table applies to a tired, hurt character without error."""
    for table in content.blacksalt.sleep:
        for row in table.table.rows:
            ch = Character("Z", silver=30)
            ch.attrs[Attr.STR].score = 3
            ch.add_fatigue(Attr.STR, 2)
            ch.add_wounds(1)
            ch.add_affliction("sleepy")
            apply_outcome(ch, row, Random(1), interlude=True)
            ch.check_invariants()


def test_availability_by_size(content: Content) -> None:
    assert availability_chance(content, 5, "common") == 1.0
    assert availability_chance(content, 1, "valuable") == 0.0
    assert availability_chance(content, 3, "rare") == pytest.approx(1 / 6)
    assert availability_chance(content, 3, "common") == pytest.approx(1 - (5 / 6) ** 4)
    hits = sum(roll_availability(Random(s), content, 3, "rare").available for s in range(6000))
    assert abs(hits / 6000 - 1 / 6) < 0.02


def test_settlement_doom_limits_the_market(content: Content) -> None:
    assert doom_state(content, 0) is None
    assert availability_chance(content, 5, "valuable", doom=3) == 0.0  # only common and uncommon
    assert availability_chance(content, 5, "uncommon", doom=3) == 1.0
    assert availability_chance(content, 5, "uncommon", doom=5) == 0.0  # only common
    assert availability_chance(content, 5, "common", doom=6) == 0.0  # no shopping at all
    assert not roll_availability(Random(1), content, 5, "common", doom=6).available
    state = doom_state(content, 4)
    assert state is not None and state.no_inn and state.inn_surcharge == 1


def test_prices(content: Content) -> None:
    prices = [roll_price(Random(s), content, "valuable") for s in range(2000)]
    assert min(prices) >= 6 and max(prices) <= 36 and all(p % 3 == 0 for p in prices)
    assert abs(sum(prices) / len(prices) - 21) < 1.0  # 3 × 2d6 averages 21 (the book rounds to 20)
    assert all(roll_price(Random(s), content, "common", doom=3) >= 3 for s in range(200))  # +2 at doom 3
    assert roll_price(Random(1), content, "free", doom=7) == 0
