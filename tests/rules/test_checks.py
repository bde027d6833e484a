"""Reading a roll (``evaluate``), what a TestSpec announces, and TestRoll step by step."""

from __future__ import annotations

from random import Random

import pytest

from rules.checks import TEST_AFFLICTIONS, Reroll, RuleError, Side, evaluate
from rules.checks import TestRoll as Roll
from rules.checks import TestSpec as Spec


class Scripted(Random):
    """A Random whose ``randint`` answers from a script."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


def side(t: Roll) -> Side | None:
    """Whose turn it is, read through a call so that type checkers do not narrow it across rerolls."""
    return t.side_to_act


def ev(spec: Spec, *main: int, helper: int | None = None) -> tuple[bool, bool, bool, bool, bool]:
    v = evaluate(spec, tuple(main), helper)
    return v.success, v.great_success, v.critical_failure, v.fatigue, v.helper_fatigue


# --- evaluate -------------------------------------------------------------------------------

PLAIN = Spec(dice=3)


@pytest.mark.parametrize(
    ("faces", "expected"),
    [
        # (success, great, crit, fatigue, helper fatigue)
        ((2, 3, 3), (False, False, False, False, False)),
        ((1, 2, 3), (False, False, True, True, False)),
        ((4, 2, 3), (True, False, False, True, False)),
        ((5, 2, 3), (True, False, False, False, False)),
        ((6, 6, 2), (True, True, False, False, False)),
        ((6, 6, 1), (True, True, False, True, False)),  # a 1 on a success is no critical failure
        ((6, 5, 5), (True, False, False, False, False)),  # one 6 is not a great success
        ((1, 1, 1), (False, False, True, True, False)),
        ((4, 1, 6), (True, False, False, True, False)),  # only one fatigue point either way
    ],
)
def test_plain_test(faces: tuple[int, ...], expected: tuple[bool, ...]) -> None:
    assert ev(PLAIN, *faces) == expected


def test_check_never_costs_fatigue() -> None:
    chk = Spec(dice=3, check=True)
    assert ev(chk, 1, 4, 2) == (True, False, False, False, False)
    assert ev(chk, 1, 2, 3) == (False, False, True, False, False)
    helped = Spec(dice=2, check=True, help=True)
    assert ev(helped, 2, 3, helper=4) == (True, False, False, False, False)


def test_check_with_extra_effort_still_pays_the_point() -> None:
    # Checks spare the fatigue of 1s and 4s; extra effort's point is paid before the roll.
    assert evaluate(Spec(dice=2, check=True, extra_effort=True), (2, 3, 5), None).fatigue


def test_extra_effort_always_costs_exactly_its_point() -> None:
    ee = Spec(dice=2, extra_effort=True)
    assert ev(ee, 5, 5, 6) == (True, False, False, True, False)
    assert ev(ee, 2, 3, 2) == (False, False, False, True, False)
    assert ev(ee, 1, 4, 1)[3] is True


def test_keep_safe_fatigue_only_when_the_test_fails() -> None:
    ks = Spec(dice=4, keep_safe=True)
    assert ks.main_dice == 2
    assert ev(ks, 4, 1) == (True, False, False, False, False)
    assert ev(ks, 1, 2) == (False, False, True, True, False)
    assert ev(ks, 2, 3) == (False, False, False, False, False)
    terrified = Spec(dice=4, keep_safe=True, afflictions=frozenset({"terrified"}))
    assert ev(terrified, 4, 2) == (False, False, False, True, False)


def test_terrified_four_is_not_a_success() -> None:
    t = Spec(dice=2, afflictions=frozenset({"terrified"}))
    assert t.success_faces == {5, 6}
    assert ev(t, 4, 4) == (False, False, False, True, False)
    assert ev(t, 4, 1) == (False, False, True, True, False)
    assert ev(t, 5, 3) == (True, False, False, False, False)
    assert ev(t, 6, 6) == (True, True, False, False, False)


def test_hopeless_five_and_six_cost_fatigue() -> None:
    h = Spec(dice=2, afflictions=frozenset({"hopeless"}))
    assert h.fatigue_faces == {1, 4, 5, 6}
    assert ev(h, 5, 2) == (True, False, False, True, False)
    assert ev(h, 6, 3) == (True, False, False, True, False)
    assert ev(h, 2, 3) == (False, False, False, False, False)


@pytest.mark.parametrize(("dice", "rolled"), [(0, 2), (-1, 3), (-2, 4), (-5, 7)])
def test_zero_and_negative_pools_keep_the_lowest(dice: int, rolled: int) -> None:
    spec = Spec(dice=dice)
    assert spec.keep_lowest
    assert spec.main_dice == rolled
    six = (6,) * rolled
    v = evaluate(spec, six, None)
    assert v.kept == (6,)
    assert v.success and not v.great_success  # one kept die can never be a great success
    faces = (6,) * (rolled - 1) + (2,)
    assert ev(spec, *faces) == (False, False, False, False, False)
    faces = (5,) * (rolled - 1) + (1,)
    assert ev(spec, *faces) == (False, False, True, True, False)
    assert ev(spec, *((4,) * (rolled - 1) + (6,))) == (True, False, False, True, False)


def test_help_die_counts_for_success_but_its_fatigue_is_the_helpers() -> None:
    h = Spec(dice=2, help=True)
    assert h.pool == 3 and h.main_dice == 2 and h.helper_die
    assert ev(h, 2, 3, helper=5) == (True, False, False, False, False)
    assert ev(h, 2, 3, helper=4) == (True, False, False, False, True)
    assert ev(h, 2, 3, helper=1) == (False, False, True, False, True)
    assert ev(h, 4, 6, helper=6) == (True, True, False, True, False)
    assert ev(h, 2, 3, helper=3) == (False, False, False, False, False)


def test_help_with_hopeless_tester_only_tester_dice_follow_hopeless() -> None:
    h = Spec(dice=1, help=True, afflictions=frozenset({"hopeless"}))
    assert ev(h, 2, helper=5) == (True, False, False, False, False)


def test_help_on_zero_pool_keeps_lowest_without_a_helper_die() -> None:
    s = Spec(dice=-1, help=True)
    assert s.pool == 0 and s.keep_lowest and s.main_dice == 2 and not s.helper_die
    assert s.helper_rerolls == 0


def test_help_on_zero_dice_is_just_the_helpers_die() -> None:
    s = Spec(dice=0, help=True, helper_proficiency=1)
    assert s.pool == 1 and not s.keep_lowest and s.main_dice == 0 and s.helper_die
    assert s.helper_rerolls == 1
    assert ev(s, helper=5) == (True, False, False, False, False)


# --- TestSpec -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "pool", "main"),
    [
        ({"dice": 3}, 3, 3),
        ({"dice": 1}, 1, 1),
        ({"dice": 3, "extra_effort": True}, 4, 4),
        ({"dice": 0, "extra_effort": True}, 1, 1),
        ({"dice": 3, "keep_safe": True}, 1, 1),
        ({"dice": 2, "keep_safe": True}, 0, 2),
        ({"dice": 1, "keep_safe": True}, -1, 3),
        ({"dice": 2, "help": True}, 3, 2),
        ({"dice": 3, "keep_safe": True, "help": True}, 2, 1),
        ({"dice": 2, "extra_effort": True, "help": True}, 4, 3),
    ],
)
def test_pool_and_main_dice(kwargs: dict[str, object], pool: int, main: int) -> None:
    s = Spec(**kwargs)  # type: ignore[arg-type]
    assert s.pool == pool
    assert s.main_dice == main


@pytest.mark.parametrize(
    ("kwargs", "player", "gm"),
    [
        ({"proficiency": 2}, 2, 0),
        ({"proficiency": 1, "advantage": 2}, 3, 0),
        ({"advantage": 1, "disadvantage": 1}, 0, 0),
        ({"advantage": 3, "disadvantage": 1}, 2, 0),
        ({"advantage": 1, "disadvantage": 3}, 0, 2),
        ({"proficiency": 2, "afflictions": frozenset({"angry"})}, 0, 0),
        ({"proficiency": 2, "advantage": 1, "afflictions": frozenset({"angry"})}, 1, 0),
        ({"proficiency": 2, "burden": True}, 0, 1),
        ({"proficiency": 2, "burden": True, "advantage": 1}, 0, 0),
        ({"proficiency": 1, "opponent_rerolls": 2}, 1, 2),
        ({"disadvantage": 1, "opponent_rerolls": 1}, 0, 2),
    ],
)
def test_reroll_budgets(kwargs: dict[str, object], player: int, gm: int) -> None:
    s = Spec(dice=3, **kwargs)  # type: ignore[arg-type]
    assert s.player_rerolls == player
    assert s.gm_rerolls == gm


@pytest.mark.parametrize("name", ["proficiency", "advantage", "disadvantage", "opponent_rerolls", "helper_proficiency"])
def test_negative_counts_raise(name: str) -> None:
    with pytest.raises(RuleError):
        Spec(dice=2, help=True, **{name: -1})  # type: ignore[arg-type]


def test_extra_effort_and_keep_safe_raise() -> None:
    with pytest.raises(RuleError, match="keeping it safe"):
        Spec(dice=3, extra_effort=True, keep_safe=True)


def test_sleepy_cannot_use_extra_effort() -> None:
    with pytest.raises(RuleError, match="Sleepy"):
        Spec(dice=3, extra_effort=True, afflictions=frozenset({"sleepy"}))
    Spec(dice=3, afflictions=frozenset({"sleepy"}))  # a plain test is fine


def test_helper_proficiency_needs_a_helper() -> None:
    with pytest.raises(RuleError):
        Spec(dice=3, helper_proficiency=1)


def test_other_afflictions_are_dropped() -> None:
    s = Spec(dice=2, afflictions=frozenset({"hungry", "terrified", "plagued"}))
    assert s.afflictions == {"terrified"}
    assert s == Spec(dice=2, afflictions=frozenset({"terrified"}))
    assert hash(s) == hash(Spec(dice=2, afflictions=frozenset({"terrified"})))
    assert frozenset({"terrified", "hopeless", "angry", "sleepy"}) == TEST_AFFLICTIONS


def test_with_copies() -> None:
    s = Spec(dice=2)
    t = s.with_(proficiency=1)
    assert s.proficiency == 0 and t.proficiency == 1
    with pytest.raises(RuleError):
        s.with_(extra_effort=True, keep_safe=True)


# --- TestRoll -------------------------------------------------------------------------------


def test_start_rolls_main_then_helper() -> None:
    spec = Spec(dice=2, help=True, helper_proficiency=1, proficiency=1, disadvantage=1)
    t = Roll.start(spec, Scripted([3, 5, 2]))
    assert t.main == [3, 5]
    assert t.helper == 2
    assert (t.gm_left, t.helper_left, t.player_left) == (1, 1, 1)


def test_gm_then_helper_then_player() -> None:
    spec = Spec(dice=2, help=True, helper_proficiency=1, proficiency=2, disadvantage=1, opponent_rerolls=1)
    t = Roll.start(spec, Scripted([5, 6, 1]))
    order = []
    rng = Scripted([1, 2, 6, 4, 3])
    assert side(t) is Side.GM
    order.append(t.reroll(1, rng))  # GM: the 6 becomes 1
    assert side(t) is Side.GM
    order.append(t.reroll(0, rng))  # GM again (opponent token): the 5 becomes 2
    assert side(t) is Side.HELPER
    with pytest.raises(RuleError, match="helper"):
        t.reroll(0, rng)
    order.append(t.reroll(-1, rng))  # helper: 1 becomes 6
    assert side(t) is Side.PLAYER
    order.append(t.reroll(0, rng))  # player: 2 becomes 4
    order.append(t.reroll(-1, rng))  # player may reroll the helper's die too: 6 becomes 3
    assert side(t) is None
    assert [r.side for r in order] == [Side.GM, Side.GM, Side.HELPER, Side.PLAYER, Side.PLAYER]
    assert order[0] == Reroll(Side.GM, 1, 6, 1)
    assert order[2] == Reroll(Side.HELPER, -1, 1, 6)
    assert t.history == order
    assert t.main == [4, 1] and t.helper == 3
    assert t.initial == (5, 6, 1)
    assert t.finished
    v = t.verdict
    assert v.success and v.fatigue and not v.helper_fatigue
    with pytest.raises(RuleError, match="no rerolls"):
        t.reroll(0, rng)


def test_stop_hands_over_to_the_next_side() -> None:
    spec = Spec(dice=2, help=True, helper_proficiency=2, proficiency=1, disadvantage=2)
    t = Roll.start(spec, Scripted([2, 3, 4]))
    t.stop()
    assert t.gm_left == 0 and side(t) is Side.HELPER
    t.stop()
    assert t.helper_left == 0 and side(t) is Side.PLAYER
    t.stop()
    assert side(t) is None and t.finished
    t.stop()  # nothing left: harmless
    assert t.history == []
    assert t.initial == (2, 3, 4)


def test_initial_after_the_same_die_is_rerolled_twice() -> None:
    t = Roll.start(Spec(dice=3, proficiency=3), Scripted([1, 2, 3]))
    rng = Scripted([2, 5, 6])
    t.reroll(0, rng)
    t.reroll(0, rng)
    t.reroll(2, rng)
    assert t.main == [5, 2, 6]
    assert t.initial == (1, 2, 3)
    assert [(r.old, r.new) for r in t.history] == [(1, 2), (2, 5), (3, 6)]


@pytest.mark.parametrize("index", [3, -2, 99])
def test_reroll_a_missing_die_raises(index: int) -> None:
    t = Roll.start(Spec(dice=3, proficiency=1), Random(1))
    with pytest.raises(RuleError):
        t.reroll(index, Random(2))
    assert t.player_left == 1 and t.history == []


def test_reroll_helper_die_without_helper_raises() -> None:
    t = Roll.start(Spec(dice=3, proficiency=1), Random(1))
    with pytest.raises(RuleError, match="helper"):
        t.reroll(-1, Random(2))
    assert t.player_left == 1


def test_no_rerolls_at_all() -> None:
    t = Roll.start(Spec(dice=3), Random(4))
    assert side(t) is None
    with pytest.raises(RuleError):
        t.reroll(0, Random(1))


def test_keep_lowest_roll_has_no_helper_die() -> None:
    t = Roll.start(Spec(dice=-1, help=True, helper_proficiency=1), Scripted([6, 2]))
    assert t.main == [6, 2] and t.helper is None and t.helper_left == 0
    assert t.verdict.kept == (2,)


def test_dauntless_adds_two_dice_after_a_success() -> None:
    spec = Spec(dice=2, dauntless=True)
    t = Roll.start(spec, Scripted([6, 2]))
    assert t.dauntless_available and not t.finished
    t.use_dauntless(Scripted([6, 1]))
    assert t.dauntless_dice == (6, 1)
    assert t.finished and not t.dauntless_available
    v = t.verdict
    assert v.great_success and v.fatigue
    with pytest.raises(RuleError):
        t.use_dauntless(Random(0))


def test_dauntless_may_be_declined() -> None:
    t = Roll.start(Spec(dice=2, dauntless=True), Scripted([6, 2]))
    t.use_dauntless(Random(0), use=False)
    assert t.dauntless_dice == () and t.finished


def test_dauntless_needs_a_success_and_no_pending_rerolls() -> None:
    t = Roll.start(Spec(dice=2, dauntless=True), Scripted([2, 3]))
    assert not t.dauntless_available
    with pytest.raises(RuleError):
        t.use_dauntless(Random(0))
    t2 = Roll.start(Spec(dice=2, dauntless=True, proficiency=1), Scripted([6, 3]))
    assert not t2.dauntless_available  # the player may still reroll
    t2.stop()
    assert t2.dauntless_available
    t3 = Roll.start(Spec(dice=2), Scripted([6, 3]))
    assert not t3.dauntless_available  # no trait


def test_same_seed_same_test() -> None:
    spec = Spec(dice=4, proficiency=2)
    a = Roll.start(spec, Random(8))
    b = Roll.start(spec, Random(8))
    assert a.main == b.main
