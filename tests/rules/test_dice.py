"""Dice formulas, usage dice and risk dice (core rules, "Dice Notation")."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from random import Random

import pytest

from rules.dice import (
    USAGE_CHAIN,
    DiceExpr,
    RiskRoll,
    d,
    downgrade,
    parse_risk,
    parse_usage_die,
    risk_probability,
    roll,
    roll_risk,
    roll_usage,
)


class Scripted(Random):
    """A Random whose ``randint`` answers from a script (and checks the bounds asked for)."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        face = self.faces.pop(0)
        assert a <= face <= b, f"scripted face {face} outside {a}..{b}"
        return face


# --- DiceExpr -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count", "sides", "bonus", "mult", "lo", "hi", "mean"),
    [
        ("1d6", 1, 6, 0, 1, 1, 6, Fraction(7, 2)),
        ("3d6", 3, 6, 0, 1, 3, 18, Fraction(21, 2)),
        ("d6", 1, 6, 0, 1, 1, 6, Fraction(7, 2)),
        ("2D6", 2, 6, 0, 1, 2, 12, 7),
        ("2 + 2d6", 2, 6, 2, 1, 4, 14, 9),
        ("3 x 2d6", 2, 6, 0, 3, 6, 36, 21),
        ("3x2d6", 2, 6, 0, 3, 6, 36, 21),
        ("10 x 4d6", 4, 6, 0, 10, 40, 240, 140),
        ("2d6+2", 2, 6, 2, 1, 4, 14, 9),
        ("2d6 - 1", 2, 6, -1, 1, 1, 11, 6),
        ("1d20", 1, 20, 0, 1, 1, 20, Fraction(21, 2)),
        ("5", 0, 6, 5, 1, 5, 5, 5),
        (" 12 ", 0, 6, 12, 1, 12, 12, 12),
    ],
)
def test_parse_formula(
    text: str, count: int, sides: int, bonus: int, mult: int, lo: int, hi: int, mean: Fraction
) -> None:
    e = DiceExpr.parse(text)
    assert (e.count, e.sides, e.bonus, e.mult) == (count, sides, bonus, mult)
    assert e.minimum == lo
    assert e.maximum == hi
    assert e.mean == mean


@pytest.mark.parametrize("text", ["1d6", "3d6", "2 + 2d6", "3 x 2d6", "10 x 4d6", "2d6+2", "5"])
def test_bounds_and_mean_match_exhaustive_enumeration(text: str) -> None:
    e = DiceExpr.parse(text)
    totals = [e.mult * sum(faces) + e.bonus for faces in product(range(1, e.sides + 1), repeat=e.count)]
    assert min(totals) == e.minimum
    assert max(totals) == e.maximum
    assert Fraction(sum(totals), len(totals)) == e.mean


@pytest.mark.parametrize("text", ["1d6", "2 + 2d6", "3 x 2d6", "10 x 4d6", "2d6+2", "2d6-1", "5"])
def test_str_round_trips(text: str) -> None:
    e = DiceExpr.parse(text)
    assert DiceExpr.parse(str(e)) == e


def test_parse_int() -> None:
    assert DiceExpr.parse(7) == DiceExpr(count=0, bonus=7)
    assert DiceExpr.parse(7).roll(Random(1)) == 7


@pytest.mark.parametrize(
    "text",
    ["", "   ", "d", "2d", "2d0", "xd6", "2d6+", "3 x 5", "3 x", "two dice", "2d6 + 1d4", "1d6!", "-", "+", "2 +"],
)
def test_bad_formulas_raise(text: str) -> None:
    with pytest.raises(ValueError):
        DiceExpr.parse(text)


def test_multiplied_roll_multiplies_the_sum_not_each_die() -> None:
    # 3 x 2d6 with faces 2 and 5: 3 * 7 = 21
    rng = Scripted([2, 5])
    assert DiceExpr.parse("3 x 2d6").roll(rng) == 21
    assert rng.asked == [(1, 6), (1, 6)]
    assert DiceExpr.parse("2 + 2d6").roll(Scripted([1, 1])) == 4
    assert DiceExpr.parse("2d6-1").roll(Scripted([1, 1])) == 1


@pytest.mark.parametrize("text", ["1d6", "2 + 2d6", "3 x 2d6", "10 x 4d6", "2d6+2"])
def test_rolls_stay_within_bounds_and_hit_them(text: str) -> None:
    e = DiceExpr.parse(text)
    rng = Random(42)
    results = {e.roll(rng) for _ in range(3000)}
    assert min(results) >= e.minimum
    assert max(results) <= e.maximum
    if e.count * e.mult <= 6:  # small ranges are easy to cover entirely
        assert min(results) == e.minimum
        assert max(results) == e.maximum


def test_same_seed_same_rolls() -> None:
    e = DiceExpr.parse("3 x 2d6")
    a = [e.roll(Random(99)) for _ in range(5)]
    b = [e.roll(Random(99)) for _ in range(5)]
    assert a == b
    r1, r2 = Random(7), Random(7)
    assert roll(r1, 20, 6) == roll(r2, 20, 6)
    assert [roll_usage(r1, 8) for _ in range(20)] == [roll_usage(r2, 8) for _ in range(20)]
    assert [roll_risk(r1, 3) for _ in range(20)] == [roll_risk(r2, 3) for _ in range(20)]


def test_different_seeds_differ() -> None:
    assert roll(Random(1), 30) != roll(Random(2), 30)


def test_d_and_roll() -> None:
    rng = Random(3)
    faces = roll(rng, 600, 6)
    assert len(faces) == 600
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert roll(rng, 0) == []
    with pytest.raises(ValueError):
        roll(rng, -1)
    with pytest.raises(ValueError):
        d(rng, 0)
    assert d(rng, 1) == 1


def test_dice_never_touch_the_global_rng() -> None:
    import random

    random.seed(5)
    expected = random.random()
    random.seed(5)
    DiceExpr.parse("10 x 4d6").roll(Random(1))
    roll_usage(Random(1), 20)
    roll_risk(Random(1), 4)
    assert random.random() == expected


# --- usage dice ------------------------------------------------------------------------------


def test_usage_chain_order() -> None:
    assert USAGE_CHAIN == (20, 12, 10, 8, 6, 4)
    assert [downgrade(s) for s in USAGE_CHAIN] == [12, 10, 8, 6, 4, None]


@pytest.mark.parametrize(("text", "sides"), [("Ud8", 8), ("ud20", 20), ("d4", 4), ("12", 12), (" Ud6 ", 6), (10, 10)])
def test_parse_usage_die(text: str | int, sides: int) -> None:
    assert parse_usage_die(text) == sides


@pytest.mark.parametrize("bad", ["Ud7", "d3", "d100", "U8x", "", "Ud", 2, 7, 0, -4, 100])
def test_invalid_usage_die_raises(bad: str | int) -> None:
    with pytest.raises(ValueError):
        parse_usage_die(bad)


@pytest.mark.parametrize("bad", [7, 3, 100, 0])
def test_roll_usage_rejects_invalid_sizes(bad: int) -> None:
    with pytest.raises(ValueError):
        roll_usage(Random(0), bad)


@pytest.mark.parametrize("sides", USAGE_CHAIN)
def test_usage_every_face(sides: int) -> None:
    """Every face of every usage die: 1–2 steps down the chain, 3+ keeps the die."""
    smaller = {20: 12, 12: 10, 10: 8, 8: 6, 6: 4, 4: None}[sides]
    for face in range(1, sides + 1):
        rng = Scripted([face])
        u = roll_usage(rng, sides)
        assert rng.asked == [(1, sides)]  # the die rolled is the usage die itself
        assert u.before == sides
        assert u.face == face
        if face <= 2:
            assert u.after == smaller
            assert u.downgraded
            assert u.exhausted == (sides == 4)
        else:
            assert u.after == sides
            assert not u.downgraded
            assert not u.exhausted


def test_d4_on_one_or_two_is_gone() -> None:
    for face in (1, 2):
        u = roll_usage(Scripted([face]), 4)
        assert u.after is None
        assert u.exhausted
    for face in (3, 4):
        assert roll_usage(Scripted([face]), 4).after == 4


def test_usage_die_runs_down_the_whole_chain_over_seeds() -> None:
    rng = Random(2024)
    seen: Counter[tuple[int, int | None]] = Counter()
    for _ in range(200):
        sides: int | None = 20
        steps = 0
        while sides is not None:
            u = roll_usage(rng, sides)
            seen[(u.before, u.after)] += 1
            sides = u.after
            steps += 1
            assert steps < 10_000
    # every downgrade of the chain happened, and nothing else changed sizes
    transitions = {k for k in seen if k[0] != k[1]}
    assert transitions == {(20, 12), (12, 10), (10, 8), (8, 6), (6, 4), (4, None)}


def test_usage_downgrade_rate_is_two_in_n() -> None:
    rng = Random(11)
    n = 20_000
    downs = sum(roll_usage(rng, 8).downgraded for _ in range(n))
    p = 2 / 8
    assert abs(downs / n - p) < 4 * (p * (1 - p) / n) ** 0.5


# --- risk dice --------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_risk_triggered_iff_a_one_every_face(count: int) -> None:
    for faces in product(range(1, 7), repeat=count):
        r = roll_risk(Scripted(list(faces)), count)
        assert r.faces == faces
        assert r.triggered == (1 in faces)


@pytest.mark.parametrize("count", [0, 1, 2, 3, 4, 6])
def test_risk_probability_exact(count: int) -> None:
    assert risk_probability(count) == pytest.approx(1 - (5 / 6) ** count, abs=1e-15)
    if count:
        hits = sum(1 in f for f in product(range(1, 7), repeat=count))
        assert risk_probability(count) == pytest.approx(hits / 6**count, abs=1e-12)


def test_risk_zero_dice_never_triggers() -> None:
    assert risk_probability(0) == 0.0
    assert roll_risk(Random(0), 0) == RiskRoll(())
    assert not RiskRoll(()).triggered


def test_risk_rate_over_seeds() -> None:
    rng = Random(5)
    n = 20_000
    hits = sum(roll_risk(rng, 2).triggered for _ in range(n))
    p = risk_probability(2)
    assert abs(hits / n - p) < 4 * (p * (1 - p) / n) ** 0.5


@pytest.mark.parametrize(("text", "n"), [("1d!", 1), ("2d!", 2), (" 3 d! ", 3)])
def test_parse_risk(text: str, n: int) -> None:
    assert parse_risk(text) == n


@pytest.mark.parametrize("bad", ["d!", "2d6", "2", "!", "2d!!", "x d!"])
def test_parse_risk_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_risk(bad)
