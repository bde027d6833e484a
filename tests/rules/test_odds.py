"""Exact odds, checked against hand-computed fractions, brute-force enumeration,
an independent reference search, and Monte Carlo runs of :func:`resolve`."""

from __future__ import annotations

from dataclasses import fields
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from random import Random

import pytest

from rules.checks import Side, evaluate
from rules.checks import TestRoll as Roll
from rules.checks import TestSpec as Spec
from rules.odds import DEFAULT_UTILITY, FACES, Odds, Policy, odds, policy_for, resolve

TOL = 1e-9
F = Fraction
TERRIFIED = frozenset({"terrified"})
HOPELESS = frozenset({"hopeless"})


def sid(spec: object) -> str:
    """A short test id: the fields that differ from their defaults."""
    assert isinstance(spec, Spec)
    parts = []
    for f in fields(spec):
        v = getattr(spec, f.name)
        if f.name == "dice" or v != f.default:
            parts.append(f"{f.name}={'+'.join(sorted(v)) if isinstance(v, frozenset) else v}")
    return ",".join(parts)


KEYS = ("success", "great_success", "critical_failure", "fatigue", "helper_fatigue")


def assert_odds(o: Odds, **expected: Fraction | float) -> None:
    for k, v in expected.items():
        assert getattr(o, k) == pytest.approx(float(v), abs=TOL), k


def enumerate_no_rerolls(spec: Spec) -> dict[str, Fraction]:
    """Brute force over every ordered roll with ``evaluate``, as exact fractions."""
    assert spec.gm_rerolls == spec.helper_rerolls == spec.player_rerolls == 0
    helpers: list[int | None] = list(FACES) if spec.helper_die else [None]
    counts = dict.fromkeys(KEYS, 0)
    total = 0
    for main in product(FACES, repeat=spec.main_dice):
        for h in helpers:
            v = evaluate(spec, main, h)
            total += 1
            for k in KEYS:
                counts[k] += bool(getattr(v, k))
    return {k: F(c, total) for k, c in counts.items()}


# --- hand-computed odds, no rerolls -------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_plain_test(n: int) -> None:
    success = 1 - F(1, 2) ** n
    great = 1 - F(5, 6) ** n - n * F(1, 6) * F(5, 6) ** (n - 1)
    crit = F(1, 2) ** n - F(1, 3) ** n  # all below 4, not all in {2, 3}
    fatigue = 1 - F(4, 6) ** n
    o = odds(Spec(dice=n))
    assert_odds(o, success=success, great_success=great, critical_failure=crit, fatigue=fatigue, helper_fatigue=0)
    assert o.expected_rerolls == 0
    assert enumerate_no_rerolls(Spec(dice=n)) == {
        "success": success,
        "great_success": great,
        "critical_failure": crit,
        "fatigue": fatigue,
        "helper_fatigue": 0,
    }


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_check_has_no_fatigue(n: int) -> None:
    o = odds(Spec(dice=n, check=True))
    plain = odds(Spec(dice=n))
    assert o.fatigue == 0
    assert_odds(o, success=plain.success, great_success=plain.great_success, critical_failure=plain.critical_failure)


def keep_lowest(k: int) -> dict[str, Fraction]:
    """k dice, keep the lowest."""

    def at_least(t: int) -> Fraction:
        return F(7 - t, 6) ** k

    lowest_is = {f: at_least(f) - at_least(f + 1) for f in FACES}
    return {
        "success": at_least(4),
        "great_success": F(0),
        "critical_failure": lowest_is[1],
        "fatigue": lowest_is[1] + lowest_is[4],
        "helper_fatigue": F(0),
    }


@pytest.mark.parametrize(("dice", "rolled"), [(0, 2), (-1, 3), (-2, 4)])
def test_zero_and_negative_dice_keep_lowest(dice: int, rolled: int) -> None:
    expected = keep_lowest(rolled)
    assert expected["success"] == F(1, 2) ** rolled
    assert_odds(odds(Spec(dice=dice)), **expected)
    assert enumerate_no_rerolls(Spec(dice=dice)) == expected


def test_zero_dice_numbers() -> None:
    assert_odds(odds(Spec(dice=0)), success=F(1, 4), critical_failure=F(11, 36), fatigue=F(16, 36), great_success=0)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_terrified(n: int) -> None:
    spec = Spec(dice=n, afflictions=TERRIFIED)
    expected = {
        "success": 1 - F(4, 6) ** n,
        "great_success": 1 - F(5, 6) ** n - n * F(1, 6) * F(5, 6) ** (n - 1),
        "critical_failure": F(4, 6) ** n - F(3, 6) ** n,  # all in 1..4, not all in 2..4
        "fatigue": 1 - F(4, 6) ** n,
        "helper_fatigue": F(0),
    }
    assert_odds(odds(spec), **expected)
    assert enumerate_no_rerolls(spec) == expected


@pytest.mark.parametrize("n", [1, 2, 3])
def test_hopeless(n: int) -> None:
    spec = Spec(dice=n, afflictions=HOPELESS)
    o = odds(spec)
    assert_odds(o, success=1 - F(1, 2) ** n, fatigue=1 - F(1, 3) ** n)  # only 2s and 3s are safe
    assert enumerate_no_rerolls(spec)["fatigue"] == 1 - F(1, 3) ** n


@pytest.mark.parametrize("n", [3, 4, 5])
def test_keep_safe(n: int) -> None:
    k = n - 2
    spec = Spec(dice=n, keep_safe=True)
    # fatigue only on a failed roll showing a 1 (a failed roll never shows a 4)
    expected_fatigue = F(1, 2) ** k - F(1, 3) ** k
    assert_odds(odds(spec), success=1 - F(1, 2) ** k, fatigue=expected_fatigue, critical_failure=expected_fatigue)
    assert enumerate_no_rerolls(spec)["fatigue"] == expected_fatigue


def test_keep_safe_terrified_fails_on_fours_and_then_they_cost() -> None:
    spec = Spec(dice=4, keep_safe=True, afflictions=TERRIFIED)
    assert_odds(odds(spec), success=1 - F(2, 3) ** 2, fatigue=F(4, 6) ** 2 - F(2, 6) ** 2)


def test_keep_safe_down_to_zero_keeps_lowest() -> None:
    assert_odds(odds(Spec(dice=2, keep_safe=True)), success=F(1, 4))
    assert_odds(odds(Spec(dice=1, keep_safe=True)), success=F(1, 8))


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_extra_effort(n: int) -> None:
    o = odds(Spec(dice=n, extra_effort=True))
    assert_odds(o, success=1 - F(1, 2) ** (n + 1), fatigue=1)
    assert_odds(odds(Spec(dice=n, extra_effort=True, check=True)), fatigue=1)


def test_help_without_rerolls() -> None:
    o = odds(Spec(dice=2, help=True))
    assert_odds(
        o,
        success=F(7, 8),
        fatigue=1 - F(2, 3) ** 2,
        helper_fatigue=F(1, 3),
        great_success=odds(Spec(dice=3)).great_success,
    )
    assert_odds(odds(Spec(dice=2, help=True, check=True)), fatigue=0, helper_fatigue=0)


@pytest.mark.parametrize(
    "spec",
    [
        Spec(dice=1),
        Spec(dice=3),
        Spec(dice=4, check=True),
        Spec(dice=0),
        Spec(dice=-2),
        Spec(dice=3, keep_safe=True),
        Spec(dice=1, keep_safe=True),
        Spec(dice=2, extra_effort=True),
        Spec(dice=2, help=True),
        Spec(dice=0, help=True),
        Spec(dice=-1, help=True),
        Spec(dice=2, keep_safe=True, help=True),
        Spec(dice=3, afflictions=TERRIFIED | HOPELESS),
        Spec(dice=3, afflictions=frozenset({"sleepy"})),
        Spec(dice=2, help=True, afflictions=HOPELESS),
        Spec(dice=2, advantage=1, disadvantage=1),
        Spec(dice=2, proficiency=2, afflictions=frozenset({"angry"})),
    ],
    ids=sid,
)
def test_no_reroll_odds_match_brute_force(spec: Spec) -> None:
    exact = enumerate_no_rerolls(spec)
    assert_odds(odds(spec), **exact)


# --- with rerolls -----------------------------------------------------------------------------


def test_one_die_one_proficiency() -> None:
    o = odds(Spec(dice=1, proficiency=1))
    # a failed die is always rerolled; a 4 (success with fatigue) and 5-6 are kept
    assert_odds(
        o,
        success=F(1, 2) + F(1, 2) * F(1, 2),
        critical_failure=F(1, 2) * F(1, 6),
        fatigue=F(1, 6) + F(1, 2) * F(2, 6),
        great_success=0,
    )
    assert o.expected_rerolls == pytest.approx(0.5)


def test_one_die_one_disadvantage() -> None:
    # the GM rerolls any success (4, 5, 6) and leaves failures alone
    o = odds(Spec(dice=1, disadvantage=1))
    assert_odds(o, success=F(1, 4), critical_failure=F(1, 6) + F(1, 2) * F(1, 6))


def test_advantage_and_disadvantage_cancel() -> None:
    for n in (1, 2, 3):
        assert odds(Spec(dice=n, advantage=1, disadvantage=1)) == odds(Spec(dice=n))
        assert odds(Spec(dice=n, advantage=2, disadvantage=1)) == odds(Spec(dice=n, advantage=1))
        assert odds(Spec(dice=n, advantage=1, disadvantage=3)) == odds(Spec(dice=n, disadvantage=2))


def test_advantage_helps_and_disadvantage_hurts() -> None:
    base = odds(Spec(dice=2)).success
    assert odds(Spec(dice=2, advantage=1)).success > base
    assert odds(Spec(dice=2, advantage=2)).success > odds(Spec(dice=2, advantage=1)).success
    assert odds(Spec(dice=2, disadvantage=1)).success < base
    assert odds(Spec(dice=2, disadvantage=2)).success < odds(Spec(dice=2, disadvantage=1)).success


def test_advantage_is_like_proficiency() -> None:
    assert odds(Spec(dice=3, advantage=1)) == odds(Spec(dice=3, proficiency=1))


def test_burden_is_disadvantage_without_proficiency() -> None:
    assert odds(Spec(dice=3, proficiency=2, burden=True)) == odds(Spec(dice=3, disadvantage=1))
    assert odds(Spec(dice=3, proficiency=1, burden=True, advantage=1)) == odds(Spec(dice=3))


def test_angry_loses_proficiency_only() -> None:
    angry = frozenset({"angry"})
    assert odds(Spec(dice=3, proficiency=2, afflictions=angry)) == odds(Spec(dice=3))
    assert odds(Spec(dice=3, proficiency=2, advantage=1, afflictions=angry)) == odds(Spec(dice=3, advantage=1))


def test_opponent_rerolls_lower_success() -> None:
    for spec in (Spec(dice=3), Spec(dice=3, proficiency=1), Spec(dice=2, help=True)):
        with_tokens = spec.with_(opponent_rerolls=1)
        assert odds(with_tokens).success < odds(spec).success
        assert odds(spec.with_(opponent_rerolls=2)).success < odds(with_tokens).success


def test_help_adds_a_die_and_the_helper_may_tire() -> None:
    base = odds(Spec(dice=2, proficiency=1))
    helped = odds(Spec(dice=2, proficiency=1, help=True))
    assert helped.success > base.success
    assert helped.helper_fatigue > 0
    assert base.helper_fatigue == 0
    assert odds(Spec(dice=2, help=True, helper_proficiency=1)).success > odds(Spec(dice=2, help=True)).success


def test_proficiency_is_monotone() -> None:
    for n in (0, 1, 2, 3):
        s = [odds(Spec(dice=n, proficiency=p)).success for p in range(4)]
        assert s == sorted(s)
        assert s[1] > s[0]


def test_zero_dice_with_proficiency_brute_force() -> None:
    # 2 dice keep lowest, one reroll.  By hand: reroll the lowest die if it fails.
    total = F(0)
    for a, b in product(FACES, repeat=2):
        lo, hi = min(a, b), max(a, b)
        if lo >= 4:
            total += 1
        elif hi >= 4:
            total += F(1, 2)  # reroll the low die: success iff it comes up 4+
    assert odds(Spec(dice=0, proficiency=1)).success == pytest.approx(float(total / 36), abs=TOL)


@pytest.mark.parametrize(
    "spec",
    [
        Spec(dice=5, proficiency=2),
        Spec(dice=3, disadvantage=1, proficiency=1, help=True, helper_proficiency=1),
        Spec(dice=4, proficiency=2, advantage=1, opponent_rerolls=1, afflictions=TERRIFIED),
        Spec(dice=2, proficiency=2, keep_safe=True, help=True, helper_proficiency=1, afflictions=HOPELESS),
    ],
    ids=sid,
)
def test_policy_never_rerolls_to_lower_its_utility(spec: Spec) -> None:
    pol = policy_for(spec)
    helpers: list[int | None] = list(FACES) if spec.helper_die else [None]
    gm0, hp0, pl0 = spec.gm_rerolls, spec.helper_rerolls, spec.player_rerolls
    checked = 0
    for main in combinations_with_replacement(FACES, spec.main_dice):
        for h in helpers:
            for left in product(range(gm0 + 1), range(hp0 + 1), range(pl0 + 1)):
                gm, hp, pl = left
                if gm == hp == pl == 0:
                    continue
                opt, value = pol.choose(main, h, left)
                if gm:
                    stop = pol.value(main, h, (0, hp, pl))
                    assert value[0] <= stop[0] + 1e-12
                    if opt is not None:
                        assert value[0] < stop[0]
                else:
                    stop = pol.value(main, h, (0, 0, pl) if hp else (0, 0, 0))
                    assert value[0] >= stop[0] - 1e-12
                    if opt is not None:
                        assert value[0] > stop[0]
                        if hp:
                            assert opt == -1  # the helper only rerolls the helper's die
                checked += 1
    assert checked > 0


def _roll(spec: Spec, main: list[int], helper: int | None = None) -> Roll:
    return Roll(spec, main, helper, spec.gm_rerolls, spec.helper_rerolls, spec.player_rerolls)


def test_decide_one_die() -> None:
    pol = Policy(Spec(dice=1, proficiency=1))
    spec = Spec(dice=1, proficiency=1)
    assert [pol.decide(_roll(spec, [f])) for f in FACES] == [0, 0, 0, None, None, None]
    gm = Spec(dice=1, disadvantage=1)
    gpol = Policy(gm)
    assert [gpol.decide(_roll(gm, [f])) for f in FACES] == [None, None, None, 0, 0, 0]


def test_decide_rerolls_the_failing_die_not_the_success() -> None:
    spec = Spec(dice=3, proficiency=1)
    pol = policy_for(spec)
    t = _roll(spec, [5, 1, 2])
    assert pol.decide(t) == 1  # the 1 (critical risk and fatigue) goes first
    t = _roll(spec, [6, 6, 3])
    assert pol.decide(t) is None  # a great success is kept
    t = _roll(spec, [2, 3, 2])
    assert t.main[pol.decide(t)] in (2, 3)  # type: ignore[index]


def test_gm_rerolls_a_success_die() -> None:
    spec = Spec(dice=2, disadvantage=1)
    t = _roll(spec, [5, 2])
    assert policy_for(spec).decide(t) == 0


# an independent reference: ordered tuples, plain recursion, the same utility and tie-breaking


def reference_odds(spec: Spec) -> tuple[float, ...]:
    util = DEFAULT_UTILITY
    eps = 1e-12

    def leaf(main: tuple[int, ...], h: int | None) -> tuple[float, ...]:
        v = evaluate(spec, main, h)
        return (util.of(v), v.success, v.great_success, v.critical_failure, v.fatigue, v.helper_fatigue)

    def mean(vals: list[tuple[float, ...]]) -> tuple[float, ...]:
        return tuple(sum(x) / len(vals) for x in zip(*vals, strict=True))

    @cache
    def value(main: tuple[int, ...], h: int | None, gm: int, hp: int, pl: int) -> tuple[float, ...]:
        side = Side.GM if gm else Side.HELPER if hp else Side.PLAYER if pl else None
        if side is None:
            return leaf(main, h)
        dec = (gm - 1, hp, pl) if side is Side.GM else (gm, hp - 1, pl) if side is Side.HELPER else (gm, hp, pl - 1)
        stop = (0, hp, pl) if side is Side.GM else (gm, 0, pl) if side is Side.HELPER else (gm, hp, 0)
        options: list[tuple[float, ...]] = [value(main, h, *stop)]
        if h is not None:
            options.append(mean([value(main, f, *dec) for f in FACES]))
        if side is not Side.HELPER:
            for face in sorted(set(main)):
                i = main.index(face)
                options.append(mean([value((*main[:i], f, *main[i + 1 :]), h, *dec) for f in FACES]))
        best = options[0]
        for o in options[1:]:
            if (o[0] < best[0] - eps) if side is Side.GM else (o[0] > best[0] + eps):
                best = o
        return best

    helpers: list[int | None] = list(FACES) if spec.helper_die else [None]
    vals = [
        value(m, h, spec.gm_rerolls, spec.helper_rerolls, spec.player_rerolls)
        for m in product(FACES, repeat=spec.main_dice)
        for h in helpers
    ]
    return mean(vals)[1:]


@pytest.mark.parametrize(
    "spec",
    [
        Spec(dice=2, proficiency=1),
        Spec(dice=3, proficiency=2),
        Spec(dice=2, disadvantage=1, proficiency=1),
        Spec(dice=1, help=True, helper_proficiency=1, proficiency=1),
        Spec(dice=2, help=True, helper_proficiency=1, disadvantage=1),
        Spec(dice=0, proficiency=1),
        Spec(dice=-1, proficiency=2, disadvantage=1),
        Spec(dice=3, advantage=1, opponent_rerolls=1, afflictions=TERRIFIED),
        Spec(dice=3, proficiency=1, keep_safe=True, afflictions=HOPELESS),
        Spec(dice=2, proficiency=1, extra_effort=True),
    ],
    ids=sid,
)
def test_odds_match_reference_search(spec: Spec) -> None:
    o = odds(spec)
    ref = reference_odds(spec)
    got = (o.success, o.great_success, o.critical_failure, o.fatigue, o.helper_fatigue)
    assert got == pytest.approx(ref, abs=TOL)


# --- Dauntless --------------------------------------------------------------------------------


def test_dauntless_exact() -> None:
    """No rerolls: after a success, add 2 dice iff that raises the expected utility."""
    spec = Spec(dice=3, dauntless=True)
    util = DEFAULT_UTILITY
    acc = [F(0)] * 4
    for main in product(FACES, repeat=3):
        base = evaluate(spec, main, None)
        outcomes = [base]
        if base.success:
            extra = [evaluate(spec, (*main, a, b), None) for a in FACES for b in FACES]
            if sum(util.of(v) for v in extra) / 36 > util.of(base) + 1e-12:
                outcomes = extra
        for v in outcomes:
            w = F(1, 6**3 * len(outcomes))
            acc[0] += w * v.success
            acc[1] += w * v.great_success
            acc[2] += w * v.critical_failure
            acc[3] += w * v.fatigue
    o = odds(spec)
    assert_odds(o, success=acc[0], great_success=acc[1], critical_failure=acc[2], fatigue=acc[3])
    plain = odds(Spec(dice=3))
    assert o.success == pytest.approx(plain.success)  # the extra dice only come after a success
    assert o.great_success > plain.great_success
    assert o.fatigue >= plain.fatigue


# --- sanity over many specs -------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        Spec(dice=d, proficiency=p, disadvantage=g, help=h)
        for d in (-1, 0, 1, 3)
        for p in (0, 2)
        for g in (0, 1)
        for h in (False, True)
    ],
    ids=sid,
)
def test_probabilities_are_consistent(spec: Spec) -> None:
    o = odds(spec)
    for k in KEYS:
        assert 0 <= getattr(o, k) <= 1 + 1e-12
    assert o.great_success <= o.success + 1e-12
    assert o.critical_failure <= 1 - o.success + 1e-12
    assert o.expected_rerolls <= spec.gm_rerolls + spec.helper_rerolls + spec.player_rerolls + 1e-12
    assert o.as_dict() == {k: getattr(o, k) for k in KEYS}


# --- resolve, and Monte Carlo against the exact odds ------------------------------------------


def test_resolve_is_deterministic_per_seed() -> None:
    spec = Spec(dice=3, proficiency=1, disadvantage=1, help=True, helper_proficiency=1)
    a = resolve(spec, Random(12))
    b = resolve(spec, Random(12))
    assert (a.main, a.helper, a.history) == (b.main, b.helper, b.history)


def test_resolve_with_a_player_who_never_rerolls() -> None:
    spec = Spec(dice=3, proficiency=2, disadvantage=1)
    for seed in range(50):
        t = resolve(spec, Random(seed), player=lambda _t: None)
        assert t.finished
        assert all(r.side is Side.GM for r in t.history)
        assert t.player_left == 0


def test_resolve_uses_the_players_choice() -> None:
    spec = Spec(dice=2, proficiency=1)
    calls: list[tuple[int, ...]] = []

    def always_first(t: Roll) -> int | None:
        calls.append(tuple(t.main))
        return 0

    t = resolve(spec, Random(3), player=always_first)
    assert len(calls) == 1
    assert t.history[0].index == 0 and t.history[0].side is Side.PLAYER


def test_resolve_dauntless_callback() -> None:
    spec = Spec(dice=3, dauntless=True)
    for seed in range(40):
        t = resolve(spec, Random(seed), dauntless=lambda _t: True)
        assert t.finished
        assert len(t.dauntless_dice) == (2 if evaluate(spec, tuple(t.main), None).success else 0)


MC_SPECS = [
    Spec(dice=5, proficiency=2),
    Spec(dice=3, disadvantage=1),
    Spec(dice=2, help=True, helper_proficiency=1),
    Spec(dice=3, dauntless=True),
    Spec(dice=0, proficiency=1),
]


@pytest.mark.slow
@pytest.mark.parametrize("spec", MC_SPECS, ids=sid)
def test_monte_carlo_matches_exact(spec: Spec) -> None:
    n = 20_000
    exact = odds(spec)
    rng = Random(20240601)
    counts = dict.fromkeys(KEYS, 0)
    for _ in range(n):
        v = resolve(spec, rng).verdict
        for k in KEYS:
            counts[k] += bool(getattr(v, k))
    for k in KEYS:
        p = getattr(exact, k)
        se = max((p * (1 - p) / n) ** 0.5, 1 / n)
        assert abs(counts[k] / n - p) <= 4 * se, (k, counts[k] / n, p)
