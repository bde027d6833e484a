"""Exact odds of a test, and the default reroll policy they assume.

The default policy is the one the automated GM and "let the GM decide"
play: each side, when its turn to reroll comes, picks the die (or stops)
that gives the best expected :class:`Utility` for it, looking ahead
through every later reroll — the GM minimises the tester's utility, the
helper and the player maximise it.  Because the policy is computed by the
same enumeration, the odds shown before a roll are exact for the way the
game will play it.  Nothing here samples.

State space: multisets of faces (order never matters), the helper's die,
and the rerolls left to each side, memoised per :class:`~rules.checks.TestSpec`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from random import Random

from rules.checks import Side, TestRoll, TestSpec, Verdict, evaluate

FACES = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class Utility:
    """What a roll is worth to the tester: success matters most, then the extras.

    The weights only steer choices between rerolls; they never change a rule.
    """

    success: float = 1.0
    great_success: float = 0.35
    critical_failure: float = -0.35
    fatigue: float = -0.3
    helper_fatigue: float = -0.15

    def of(self, v: Verdict) -> float:
        return (
            self.success * v.success
            + self.great_success * v.great_success
            + self.critical_failure * v.critical_failure
            + self.fatigue * v.fatigue
            + self.helper_fatigue * v.helper_fatigue
        )


DEFAULT_UTILITY = Utility()


@dataclass(frozen=True)
class Odds:
    """Probabilities of a test's outcomes under the default policy."""

    success: float
    great_success: float
    critical_failure: float
    fatigue: float  # the tester ends with a fatigue point from this test
    helper_fatigue: float = 0.0
    expected_rerolls: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return {
            "success": self.success,
            "great_success": self.great_success,
            "critical_failure": self.critical_failure,
            "fatigue": self.fatigue,
            "helper_fatigue": self.helper_fatigue,
        }


# A value: (utility, success, great, crit, fatigue, helper_fatigue, rerolls used)
_V = tuple[float, float, float, float, float, float, float]
_EPS = 1e-12


def _leaf(spec: TestSpec, main: tuple[int, ...], helper: int | None, utility: Utility) -> _V:
    v = evaluate(spec, main, helper)
    return (utility.of(v), float(v.success), float(v.great_success), float(v.critical_failure),
            float(v.fatigue), float(v.helper_fatigue), 0.0)  # fmt: skip


def _mean(values: list[_V]) -> _V:
    n = len(values)
    return tuple(sum(v[i] for v in values) / n for i in range(7))  # type: ignore[return-value]


def _replace_one(main: tuple[int, ...], face: int, new: int) -> tuple[int, ...]:
    lst = list(main)
    lst.remove(face)
    lst.append(new)
    return tuple(sorted(lst))


class Policy:
    """The default reroll policy for one :class:`TestSpec` (memoised)."""

    def __init__(self, spec: TestSpec, utility: Utility = DEFAULT_UTILITY) -> None:
        self.spec = spec
        self.utility = utility
        self.value = lru_cache(maxsize=None)(self._value)
        self._dauntless_value = lru_cache(maxsize=None)(self._dauntless_value_uncached)
        self._chosen = lru_cache(maxsize=None)(self._choose_uncached)  # each live roll asks for it afresh

    # -- search ----------------------------------------------------------------------

    def _options(self, main: tuple[int, ...], helper: int | None, side: Side) -> Iterator[int | None]:
        """Stop (None), reroll the helper's die (-1) or reroll a main die showing face f (f)."""
        yield None
        if helper is not None:
            yield -1
        if side is not Side.HELPER:
            yield from sorted(set(main))

    def _after(
        self, main: tuple[int, ...], helper: int | None, left: tuple[int, int, int], side: Side, opt: int | None
    ) -> _V:
        gm, hp, pl = left
        if opt is None:  # this side stops for good
            nl = (0, hp, pl) if side is Side.GM else (gm, 0, pl) if side is Side.HELPER else (gm, hp, 0)
            return self.value(main, helper, nl)
        nl = (gm - 1, hp, pl) if side is Side.GM else (gm, hp - 1, pl) if side is Side.HELPER else (gm, hp, pl - 1)
        if opt == -1:
            outs = [self.value(main, f, nl) for f in FACES]
        else:
            outs = [self.value(_replace_one(main, opt, f), helper, nl) for f in FACES]
        m = _mean(outs)
        return (*m[:6], m[6] + 1.0)

    def choose(self, main: tuple[int, ...], helper: int | None, left: tuple[int, int, int]) -> tuple[int | None, _V]:
        """The side to act's best option and its value."""
        result: tuple[int | None, _V] = self._chosen(main, helper, left)
        return result

    def _choose_uncached(
        self, main: tuple[int, ...], helper: int | None, left: tuple[int, int, int]
    ) -> tuple[int | None, _V]:
        side = _side(left)
        assert side is not None
        best: tuple[int | None, _V] | None = None
        for opt in self._options(main, helper, side):
            v = self._after(main, helper, left, side, opt)
            if best is None:
                best = (opt, v)
                continue
            better = v[0] < best[1][0] - _EPS if side is Side.GM else v[0] > best[1][0] + _EPS
            if better:
                best = (opt, v)
        assert best is not None
        return best

    def _value(self, main: tuple[int, ...], helper: int | None, left: tuple[int, int, int]) -> _V:
        if _side(left) is None:
            return self._terminal(main, helper)
        return self.choose(main, helper, left)[1]

    def _terminal(self, main: tuple[int, ...], helper: int | None) -> _V:
        base = _leaf(self.spec, main, helper, self.utility)
        if not (self.spec.dauntless and base[1] == 1.0):
            return base
        extra = self._dauntless_value(main, helper)
        return extra if extra[0] > base[0] + _EPS else base

    def _dauntless_value_uncached(self, main: tuple[int, ...], helper: int | None) -> _V:
        return _mean([_leaf(self.spec, (*main, a, b), helper, self.utility) for a in FACES for b in FACES])

    def use_dauntless(self, main: tuple[int, ...], helper: int | None) -> bool:
        base = _leaf(self.spec, main, helper, self.utility)
        return base[1] == 1.0 and self._dauntless_value(main, helper)[0] > base[0] + _EPS

    # -- driving a live roll ----------------------------------------------------------------

    def decide(self, test: TestRoll) -> int | None:
        """For the side to act in ``test``: the index to reroll (-1 helper's die) or None to stop."""
        left = (test.gm_left, test.helper_left, test.player_left)
        opt, _ = self.choose(tuple(sorted(test.main)), test.helper, left)
        if opt is None or opt == -1:
            return opt
        return test.main.index(opt)


def _side(left: tuple[int, int, int]) -> Side | None:
    gm, hp, pl = left
    return Side.GM if gm > 0 else Side.HELPER if hp > 0 else Side.PLAYER if pl > 0 else None


@lru_cache(maxsize=512)
def policy_for(spec: TestSpec) -> Policy:
    return Policy(spec)


def _multisets(n: int) -> Iterator[tuple[tuple[int, ...], float]]:
    """Every sorted roll of n d6 with its probability."""
    total = 6**n
    for combo in combinations_with_replacement(FACES, n):
        ways = factorial(n)
        for f in FACES:
            ways //= factorial(combo.count(f))
        yield combo, ways / total


@lru_cache(maxsize=512)
def odds(spec: TestSpec) -> Odds:
    """Exact probabilities of every outcome of ``spec`` under the default policy."""
    pol = policy_for(spec)
    left = (spec.gm_rerolls, spec.helper_rerolls, spec.player_rerolls)
    helpers: list[int | None] = list(FACES) if spec.helper_die else [None]
    acc = [0.0] * 7
    for main, p in _multisets(spec.main_dice):
        for h in helpers:
            v = pol.value(main, h, left)
            w = p / len(helpers)
            for i in range(7):
                acc[i] += w * v[i]
    return Odds(
        success=acc[1],
        great_success=acc[2],
        critical_failure=acc[3],
        fatigue=acc[4],
        helper_fatigue=acc[5],
        expected_rerolls=acc[6],
    )


#: A chooser for the player's (or helper's) rerolls: index, -1 for the helper's die, None to stop.
Chooser = Callable[[TestRoll], int | None]


def resolve(
    spec: TestSpec,
    rng: Random,
    player: Chooser | None = None,
    dauntless: Callable[[TestRoll], bool] | None = None,
) -> TestRoll:
    """Roll a whole test: the GM's rerolls by the default policy, the player's by
    ``player`` (default policy when None), then Dauntless."""
    pol = policy_for(spec)
    test = TestRoll.start(spec, rng)
    while (side := test.side_to_act) is not None:
        choice = player(test) if (player is not None and side is not Side.GM) else pol.decide(test)
        if choice is None:
            test.stop()
        else:
            test.reroll(choice, rng)
    if test.dauntless_available:
        use = dauntless(test) if dauntless is not None else pol.use_dauntless(tuple(sorted(test.main)), test.helper)
        test.use_dauntless(rng, use)
    return test
