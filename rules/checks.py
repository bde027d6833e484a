"""Attribute tests and checks.

A test rolls the attribute's available dice: any 4–6 succeeds, two or more 6s
is a great success, a failed roll showing a 1 is a critical failure, and any 1
or 4 costs one fatigue point (checks cost none).  Around that core:

* proficiency rerolls, one die at a time (not while Angry, not for a burden roll);
* advantage and disadvantage cancel one for one, and stack;
* dodge and shield tokens spent by a defender force the attacker to reroll;
* extra effort (+1 die, one fatigue paid up front, the roll itself costs none);
* keeping it safe (−2 dice, 1s and 4s cost fatigue only if the test fails);
* help (one die from a helper, who takes the fatigue that die shows and may
  reroll it with the helper's own proficiency);
* zero and negative pools (roll 2 + |n| dice and keep the lowest);
* afflictions: Terrified (4 is not a success), Hopeless (5 and 6 also cost
  fatigue), Angry (no proficiency rerolls), Sleepy (no extra effort, no help);
* Dauntless (after a success, may add 2 more dice).

Rerolls are decisions.  :class:`TestRoll` runs a test step by step so the UI
can ask the person which die to reroll; :mod:`rules.odds` gives the default
policy (the GM rerolls first to hurt the roll, then the helper, then the
player, each choosing the die that is best for them) and the exact odds under
it.  See RULINGS.md for the order of rerolls.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from random import Random

from rules.dice import roll

#: Afflictions that change how a test is rolled.
TEST_AFFLICTIONS = frozenset({"terrified", "hopeless", "angry", "sleepy"})


class RuleError(ValueError):
    """An action the rules do not allow (the message says which rule)."""


class Side(StrEnum):
    GM = "gm"  # disadvantage rerolls and spent dodge/shield tokens
    HELPER = "helper"  # the helper's proficiency, on the helper's die only
    PLAYER = "player"  # proficiency and advantage rerolls


@dataclass(frozen=True)
class TestSpec:
    """Everything announced before the dice hit the table."""

    dice: int  # available dice of the attribute (may be zero or negative)
    proficiency: int = 0
    advantage: int = 0
    disadvantage: int = 0
    opponent_rerolls: int = 0  # dodge / shield tokens spent against this roll
    extra_effort: bool = False
    keep_safe: bool = False
    check: bool = False  # a check: 1s and 4s cost no fatigue
    help: bool = False
    helper_proficiency: int = 0
    afflictions: frozenset[str] = frozenset()
    dauntless: bool = False
    burden: bool = False  # the burden: disadvantage and no proficiency, earns insight

    def __post_init__(self) -> None:
        unknown = set(self.afflictions) - TEST_AFFLICTIONS
        if unknown:
            # other afflictions do not change a roll; drop them so specs compare equal
            object.__setattr__(self, "afflictions", frozenset(self.afflictions) & TEST_AFFLICTIONS)
        for name in ("proficiency", "advantage", "disadvantage", "opponent_rerolls", "helper_proficiency"):
            if getattr(self, name) < 0:
                raise RuleError(f"{name.replace('_', ' ')} cannot be negative")
        if self.extra_effort and self.keep_safe:
            raise RuleError("You cannot use extra effort when you are keeping it safe.")
        if self.extra_effort and "sleepy" in self.afflictions:
            raise RuleError("Sleepy: can't use extra effort.")
        if self.helper_proficiency and not self.help:
            raise RuleError("helper proficiency needs a helper")

    # --- derived numbers -----------------------------------------------------------

    @property
    def terrified(self) -> bool:
        return "terrified" in self.afflictions

    @property
    def hopeless(self) -> bool:
        return "hopeless" in self.afflictions

    @property
    def pool(self) -> int:
        """The number of dice the test is worth, helper's die included."""
        return self.dice + int(self.extra_effort) - 2 * int(self.keep_safe) + int(self.help)

    @property
    def keep_lowest(self) -> bool:
        """Zero or fewer dice: roll 2 + |n| and keep the lowest."""
        return self.pool <= 0

    @property
    def main_dice(self) -> int:
        """Dice the tester rolls (the helper's die is separate)."""
        if self.keep_lowest:
            return 2 + abs(self.pool)
        return self.pool - int(self.help)

    @property
    def helper_die(self) -> bool:
        return self.help and not self.keep_lowest

    @property
    def player_rerolls(self) -> int:
        prof = 0 if ("angry" in self.afflictions or self.burden) else self.proficiency
        return prof + max(0, self.advantage - self.net_disadvantage_raw)

    @property
    def net_disadvantage_raw(self) -> int:
        return self.disadvantage + int(self.burden)

    @property
    def gm_rerolls(self) -> int:
        return max(0, self.net_disadvantage_raw - self.advantage) + self.opponent_rerolls

    @property
    def helper_rerolls(self) -> int:
        return self.helper_proficiency if self.helper_die else 0

    @property
    def success_faces(self) -> frozenset[int]:
        return frozenset({5, 6} if self.terrified else {4, 5, 6})

    @property
    def fatigue_faces(self) -> frozenset[int]:
        return frozenset({1, 4, 5, 6} if self.hopeless else {1, 4})

    def with_(self, **changes: object) -> TestSpec:
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Verdict:
    """How a final set of dice reads."""

    success: bool
    great_success: bool
    critical_failure: bool
    fatigue: bool  # the tester takes one fatigue point (extra effort's point included)
    helper_fatigue: bool
    kept: tuple[int, ...]  # the faces that count (one die when keeping the lowest)


def evaluate(spec: TestSpec, main: tuple[int, ...], helper: int | None) -> Verdict:
    """Read a final roll.  ``main`` are the tester's faces, ``helper`` the helper's die."""
    kept: tuple[int, ...]
    kept_main: tuple[int, ...]
    if spec.keep_lowest:
        kept = (min(main),)
        kept_main = kept
        helper_face = None
    else:
        kept_main = tuple(main)
        helper_face = helper
        kept = kept_main + ((helper,) if helper is not None else ())
    succ = spec.success_faces
    success = any(f in succ for f in kept)
    great = success and sum(1 for f in kept if f == 6) >= 2
    crit = (not success) and 1 in kept
    ff = spec.fatigue_faces
    if spec.extra_effort:
        fatigue = True  # paid before the roll, even in a check; 1s and 4s cost nothing more
    elif spec.check:
        fatigue = False
    elif spec.keep_safe:
        fatigue = (not success) and any(f in ff for f in kept_main)
    else:
        fatigue = any(f in ff for f in kept_main)
    helper_fatigue = (not spec.check) and helper_face is not None and helper_face in (1, 4)
    return Verdict(success, great, crit, fatigue, helper_fatigue, kept)


@dataclass(frozen=True)
class Reroll:
    side: Side
    index: int  # index into TestRoll.main, or -1 for the helper's die
    old: int
    new: int


@dataclass
class TestRoll:
    """A test in progress: roll, rerolls one at a time, then the verdict.

    The UI drives it with :meth:`reroll` and :meth:`stop`; :func:`resolve`
    drives it with a policy.
    """

    spec: TestSpec
    main: list[int]
    helper: int | None
    gm_left: int
    helper_left: int
    player_left: int
    history: list[Reroll] = field(default_factory=list)
    dauntless_dice: tuple[int, ...] = ()
    dauntless_decided: bool = False

    @classmethod
    def start(cls, spec: TestSpec, rng: Random) -> TestRoll:
        main = roll(rng, spec.main_dice)
        helper = roll(rng, 1)[0] if spec.helper_die else None
        return cls(spec, main, helper, spec.gm_rerolls, spec.helper_rerolls, spec.player_rerolls)

    @property
    def side_to_act(self) -> Side | None:
        """Whose reroll it is: the GM first, then the helper, then the player."""
        if self.gm_left > 0:
            return Side.GM
        if self.helper_left > 0:
            return Side.HELPER
        if self.player_left > 0:
            return Side.PLAYER
        return None

    def reroll(self, index: int, rng: Random) -> Reroll:
        """Reroll one die (``-1``: the helper's die) for the side to act."""
        side = self.side_to_act
        if side is None:
            raise RuleError("no rerolls are left")
        if side is Side.HELPER and index != -1:
            raise RuleError("the helper may only reroll the helper's own die")
        if index == -1:
            if self.helper is None:
                raise RuleError("there is no helper's die")
            old = self.helper
            new = roll(rng, 1)[0]
            self.helper = new
        else:
            if not 0 <= index < len(self.main):
                raise RuleError(f"no die at position {index}")
            old = self.main[index]
            new = roll(rng, 1)[0]
            self.main[index] = new
        self._spend(side)
        rr = Reroll(side, index, old, new)
        self.history.append(rr)
        return rr

    def stop(self) -> None:
        """The side to act declines its remaining rerolls."""
        side = self.side_to_act
        if side is Side.GM:
            self.gm_left = 0
        elif side is Side.HELPER:
            self.helper_left = 0
        elif side is Side.PLAYER:
            self.player_left = 0

    def _spend(self, side: Side) -> None:
        if side is Side.GM:
            self.gm_left -= 1
        elif side is Side.HELPER:
            self.helper_left -= 1
        else:
            self.player_left -= 1

    @property
    def dauntless_available(self) -> bool:
        return (
            self.spec.dauntless
            and not self.dauntless_decided
            and self.side_to_act is None
            and evaluate(self.spec, tuple(self.main), self.helper).success
        )

    def use_dauntless(self, rng: Random, use: bool = True) -> None:
        if not self.dauntless_available:
            raise RuleError("Dauntless needs a finished, successful test")
        self.dauntless_decided = True
        if use:
            self.dauntless_dice = tuple(roll(rng, 2))

    @property
    def finished(self) -> bool:
        return self.side_to_act is None and not self.dauntless_available

    @property
    def verdict(self) -> Verdict:
        return evaluate(self.spec, tuple(self.main) + self.dauntless_dice, self.helper)

    @property
    def initial(self) -> tuple[int, ...]:
        """The faces first rolled (before any reroll)."""
        faces = list(self.main)
        helper = self.helper
        for rr in reversed(self.history):
            if rr.index == -1:
                helper = rr.old
            else:
                faces[rr.index] = rr.old
        return tuple(faces) + ((helper,) if helper is not None else ())
