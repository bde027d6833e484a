"""Casting spells (INT test after the effect) and invoking prayers (PRE test first)."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

import pytest

from rules.checks import RuleError, Verdict
from rules.checks import TestSpec as Spec
from rules.content.effects import RollTable
from rules.dice import DiceExpr
from rules.magic import (
    PrayerOutcome,
    Prayers,
    Spellbook,
    SpellOutcome,
    cast_spell,
    concentrate,
    invoke_prayer,
)
from rules.odds import resolve

SPEC = Spec(dice=2)

MISHAPS = RollTable.model_validate(
    {
        "name": "Spell mishap",
        "dice": "3d6",
        "modifier_note": "+ previous mishaps this expedition",
        "rows": [{"min": k, "max": k, "text": f"mishap {k}"} for k in range(3, 18)]
        + [{"min": 18, "max": None, "text": "mishap 18+"}],
    }
)
MIRACLES = RollTable.model_validate(
    {"name": "Miracles", "dice": "1d6", "rows": [{"min": k, "max": k, "text": f"miracle {k}"} for k in range(1, 7)]}
)


class NoDice(Random):
    def randint(self, a: int, b: int) -> int:
        raise AssertionError("no die should be rolled")


def seed_where(pred: Callable[[Verdict], bool], spec: Spec = SPEC) -> int:
    for seed in range(5000):
        if pred(resolve(spec, Random(seed)).verdict):
            return seed
    raise AssertionError("no seed found")


def is_plain_success(v: Verdict) -> bool:
    return v.success and not v.great_success


def is_great(v: Verdict) -> bool:
    return v.great_success


def is_plain_failure(v: Verdict) -> bool:
    return not v.success and not v.critical_failure


def is_critical(v: Verdict) -> bool:
    return v.critical_failure


def roll_after_test(seed: int, dice: str, spec: Spec = SPEC) -> int:
    """What the table die shows when it is rolled right after the test with this seed."""
    rng = Random(seed)
    resolve(spec, rng)
    return DiceExpr.parse(dice).roll(rng)


def book() -> Spellbook:
    b = Spellbook(known=["Light", "Shackles", "Mystic ink"])
    b.memorise(["Light", "Shackles"], capacity=2)
    return b


def test_stub_tables() -> None:
    assert MISHAPS.lookup(3).text == "mishap 3"
    assert MISHAPS.lookup(25).text == "mishap 18+"
    assert MIRACLES.lookup(4).text == "miracle 4"


# --- spells ------------------------------------------------------------------------------------


def test_success_just_casts() -> None:
    b = book()
    r = cast_spell(b, "Light", SPEC, Random(seed_where(is_plain_success)), MISHAPS)
    assert r.outcome is SpellOutcome.CAST
    assert r.test is not None and r.test.verdict.success
    assert b.forgotten == [] and not b.arcane_well and b.mishaps_this_expedition == 0
    assert r.mishap is None and r.mishap_total is None


def test_failure_forgets_the_spell() -> None:
    b = book()
    r = cast_spell(b, "Light", SPEC, Random(seed_where(is_plain_failure)), MISHAPS)
    assert r.outcome is SpellOutcome.FORGOTTEN
    assert b.forgotten == ["Light"]
    assert b.mishaps_this_expedition == 0
    with pytest.raises(RuleError, match="not memorised"):
        cast_spell(b, "Light", SPEC, Random(0), MISHAPS)


def test_critical_failure_is_a_mishap() -> None:
    b = book()
    seed = seed_where(is_critical)
    r = cast_spell(b, "Light", SPEC, Random(seed), MISHAPS)
    assert r.outcome is SpellOutcome.MISHAP
    expected = roll_after_test(seed, "3d6")
    assert r.mishap_total == expected
    assert r.mishap is not None and r.mishap == MISHAPS.lookup(expected)
    assert b.mishaps_this_expedition == 1
    assert "Light" in b.forgotten


def test_mishap_counter_adds_to_the_roll() -> None:
    b = book()
    b.mishaps_this_expedition = 4
    seed = seed_where(is_critical)
    r = cast_spell(b, "Shackles", SPEC, Random(seed), MISHAPS)
    assert r.mishap_total == roll_after_test(seed, "3d6") + 4
    assert r.mishap == MISHAPS.lookup(r.mishap_total)
    assert b.mishaps_this_expedition == 5
    b.new_expedition()
    assert b.mishaps_this_expedition == 0


def test_consecutive_mishaps_count_up() -> None:
    b = Spellbook(known=["A", "B"])
    b.memorise(["A", "B"], capacity=2)
    seed = seed_where(is_critical)
    first = cast_spell(b, "A", SPEC, Random(seed), MISHAPS)
    second = cast_spell(b, "B", SPEC, Random(seed), MISHAPS)
    assert second.mishap_total == first.mishap_total + 1  # type: ignore[operator]
    assert b.mishaps_this_expedition == 2


def test_without_a_conductor_any_failure_is_a_mishap() -> None:
    b = book()
    seed = seed_where(is_plain_failure)
    r = cast_spell(b, "Light", SPEC, Random(seed), MISHAPS, has_conductor=False)
    assert r.outcome is SpellOutcome.MISHAP
    assert r.mishap_total == roll_after_test(seed, "3d6")
    assert b.mishaps_this_expedition == 1
    ok = cast_spell(book(), "Light", SPEC, Random(seed_where(is_plain_success)), MISHAPS, has_conductor=False)
    assert ok.outcome is SpellOutcome.CAST


def test_great_success_makes_the_next_cast_automatic() -> None:
    b = book()
    r = cast_spell(b, "Light", SPEC, Random(seed_where(is_great)), MISHAPS)
    assert r.outcome is SpellOutcome.ARCANE_WELL
    assert b.arcane_well
    auto = cast_spell(b, "Shackles", SPEC, NoDice(), MISHAPS)
    assert auto.outcome is SpellOutcome.AUTOMATIC and auto.test is None
    assert not b.arcane_well
    assert b.forgotten == []
    # the well is used up: the following cast tests again
    again = cast_spell(b, "Light", SPEC, Random(seed_where(is_plain_failure)), MISHAPS)
    assert again.outcome is SpellOutcome.FORGOTTEN


def test_arcane_well_is_not_spent_on_an_illegal_cast() -> None:
    b = book()
    b.arcane_well = True
    with pytest.raises(RuleError):
        cast_spell(b, "Mystic ink", SPEC, NoDice(), MISHAPS)
    assert b.arcane_well


def test_player_chooser_is_used() -> None:
    spec = Spec(dice=2, proficiency=2)
    r = cast_spell(book(), "Light", spec, Random(1), MISHAPS, player=lambda _t: None)
    assert r.test is not None and r.test.history == []


def test_memorise() -> None:
    b = Spellbook(known=["A", "B", "C"])
    with pytest.raises(RuleError, match="grimoire"):
        b.memorise(["A", "Z"], capacity=3)
    with pytest.raises(RuleError, match="only 2"):
        b.memorise(["A", "B", "C"], capacity=2)
    b.forgotten = ["A"]
    b.memorise(["A", "A", "B"], capacity=2)
    assert b.memorised == ["A", "B"] and b.forgotten == []


def test_concentrate_success_refreshes() -> None:
    b = book()
    b.forgotten = ["Light"]
    r = concentrate(b, "Light", SPEC, Random(seed_where(lambda v: v.success)), MISHAPS)
    assert r.outcome is SpellOutcome.CAST
    assert b.forgotten == []
    cast_spell(b, "Light", SPEC, Random(seed_where(is_plain_success)), MISHAPS)  # memorised again


def test_concentrate_failure_mishap_neither_adds_nor_counts() -> None:
    b = book()
    b.forgotten = ["Light"]
    b.mishaps_this_expedition = 3
    seed = seed_where(lambda v: not v.success)
    r = concentrate(b, "Light", SPEC, Random(seed), MISHAPS)
    assert r.outcome is SpellOutcome.MISHAP
    assert r.mishap_total == roll_after_test(seed, "3d6")
    assert b.mishaps_this_expedition == 3
    assert b.forgotten == ["Light"]


def test_concentrate_needs_a_forgotten_spell() -> None:
    with pytest.raises(RuleError, match="not forgotten"):
        concentrate(book(), "Light", SPEC, Random(0), MISHAPS)


# --- prayers -------------------------------------------------------------------------------------


def prayers() -> Prayers:
    return Prayers(memorised=["Light", "Cure Light Wounds"])


def test_ignored_prayers_are_not_exhausted() -> None:
    p = prayers()
    r = invoke_prayer(p, "Light", SPEC, Random(seed_where(is_plain_failure)), MIRACLES)
    assert r.outcome is PrayerOutcome.IGNORED
    assert p.exhausted == [] and not p.angered
    again = invoke_prayer(p, "Light", SPEC, Random(seed_where(is_plain_success)), MIRACLES)
    assert again.outcome is PrayerOutcome.ANSWERED


def test_answered_prayers_are_exhausted_until_a_rest() -> None:
    p = prayers()
    r = invoke_prayer(p, "Light", SPEC, Random(seed_where(is_plain_success)), MIRACLES)
    assert r.outcome is PrayerOutcome.ANSWERED and r.miracle is None
    assert p.exhausted == ["Light"]
    with pytest.raises(RuleError, match="exhausted"):
        invoke_prayer(p, "Light", SPEC, NoDice(), MIRACLES)
    invoke_prayer(p, "Cure Light Wounds", SPEC, Random(seed_where(is_plain_success)), MIRACLES)
    assert p.exhausted == ["Light", "Cure Light Wounds"]
    p.rest()
    assert p.exhausted == []
    invoke_prayer(p, "Light", SPEC, Random(seed_where(is_plain_success)), MIRACLES)


def test_desperate_plea_once_per_expedition() -> None:
    p = prayers()
    ok = seed_where(is_plain_success)
    invoke_prayer(p, "Light", SPEC, Random(ok), MIRACLES)
    with pytest.raises(RuleError, match="exhausted prayer"):
        invoke_prayer(p, "Cure Light Wounds", SPEC, NoDice(), MIRACLES, desperate_plea=True)
    r = invoke_prayer(p, "Light", SPEC, Random(ok), MIRACLES, desperate_plea=True)
    assert r.outcome is PrayerOutcome.ANSWERED and r.desperate_plea
    assert p.plea_used
    assert p.exhausted == ["Light"]
    with pytest.raises(RuleError, match="desperate plea"):
        invoke_prayer(p, "Light", SPEC, NoDice(), MIRACLES, desperate_plea=True)
    p.rest()
    assert p.plea_used  # resting does not give the plea back
    p.new_expedition()
    assert not p.plea_used


def test_angered_god_answers_nothing_until_a_sacrifice() -> None:
    p = prayers()
    r = invoke_prayer(p, "Light", SPEC, Random(seed_where(is_critical)), MIRACLES)
    assert r.outcome is PrayerOutcome.ANGERED
    assert p.angered and p.exhausted == []
    with pytest.raises(RuleError, match="angered"):
        invoke_prayer(p, "Cure Light Wounds", SPEC, NoDice(), MIRACLES)
    p.rest()
    assert p.angered  # a rest is no sacrifice
    p.sacrifice()
    assert not p.angered
    assert invoke_prayer(p, "Light", SPEC, Random(seed_where(is_plain_success)), MIRACLES).outcome is (
        PrayerOutcome.ANSWERED
    )


def test_no_holy_symbol_no_prayer() -> None:
    p = prayers()
    with pytest.raises(RuleError, match="holy symbol"):
        invoke_prayer(p, "Light", SPEC, NoDice(), MIRACLES, has_holy_symbol=False)
    assert p.exhausted == [] and not p.angered


def test_unknown_prayer_raises() -> None:
    with pytest.raises(RuleError, match="not memorised"):
        invoke_prayer(prayers(), "Silence", SPEC, NoDice(), MIRACLES)


def test_miracle_on_great_success() -> None:
    p = prayers()
    seed = seed_where(is_great)
    r = invoke_prayer(p, "Light", SPEC, Random(seed), MIRACLES)
    assert r.outcome is PrayerOutcome.MIRACLE
    expected = roll_after_test(seed, "1d6")
    assert r.miracle_roll == expected
    assert r.miracle == MIRACLES.lookup(expected)
    assert p.exhausted == ["Light"]  # the prayer is answered too
