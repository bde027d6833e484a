"""Dice of Dead Weight: dN, XdN, price formulas, usage dice and risk dice.

Every function takes an explicit :class:`random.Random`; nothing here touches
the global RNG, so the same seed always gives the same rolls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from random import Random

#: The usage-die chain, largest first (core rules, "Usage dice").
USAGE_CHAIN: tuple[int, ...] = (20, 12, 10, 8, 6, 4)


def d(rng: Random, sides: int) -> int:
    """Roll one die with ``sides`` faces."""
    if sides < 1:
        raise ValueError(f"a die needs at least one face, got d{sides}")
    return rng.randint(1, sides)


def roll(rng: Random, count: int, sides: int = 6) -> list[int]:
    """Roll ``count`` dice of ``sides`` faces and return every face."""
    if count < 0:
        raise ValueError(f"cannot roll a negative number of dice ({count})")
    return [d(rng, sides) for _ in range(count)]


_EXPR = re.compile(
    r"""^\s*
    (?:(?P<mult>\d+)\s*[x*×]\s*)?          # optional multiplier: 3 x 2d6
    (?:(?P<pre>\d+)\s*\+\s*)?              # optional leading bonus: 2 + 2d6
    (?:(?P<count>\d*)d(?P<sides>\d+))?     # dice: 2d6 or d6
    (?:\s*(?P<sign>[+-])\s*(?P<post>\d+))? # optional trailing bonus: 2d6+2
    \s*$""",
    re.VERBOSE | re.IGNORECASE,
)


@dataclass(frozen=True)
class DiceExpr:
    """A dice formula: ``mult × (count d sides) + bonus``.

    Covers every formula in the rule texts: ``1d6``, ``3d6``, ``2 + 2d6``
    (uncommon price), ``3 x 2d6`` (valuable price), ``10 x 4d6`` and plain
    numbers (``5``).
    """

    count: int = 0
    sides: int = 6
    bonus: int = 0
    mult: int = 1

    @classmethod
    def parse(cls, text: str | int) -> DiceExpr:
        if isinstance(text, int):
            return cls(count=0, sides=6, bonus=text)
        if re.fullmatch(r"\s*\d+\s*", text):  # a plain number: "5"
            return cls(count=0, sides=6, bonus=int(text))
        m = _EXPR.match(text)
        # a leading "N +" needs dice after it ("2 +" alone is not a formula)
        if not m or not (m["sides"] or m["post"]) or (m["pre"] and not m["sides"]):
            raise ValueError(f"not a dice formula: {text!r} (expected e.g. '2d6', '2 + 2d6', '3 x 2d6')")
        count = 0
        sides = 6
        if m["sides"]:
            count = int(m["count"]) if m["count"] else 1
            sides = int(m["sides"])
            if sides < 1:
                raise ValueError(f"a die needs at least one face: {text!r}")
        bonus = int(m["pre"] or 0)
        if m["post"]:
            bonus += int(m["post"]) * (1 if m["sign"] == "+" else -1)
        mult = int(m["mult"]) if m["mult"] else 1
        if not m["sides"] and mult != 1:
            raise ValueError(f"a multiplier needs dice: {text!r}")
        return cls(count=count, sides=sides, bonus=bonus, mult=mult)

    def roll(self, rng: Random) -> int:
        return self.mult * sum(roll(rng, self.count, self.sides)) + self.bonus

    @property
    def minimum(self) -> int:
        return self.mult * self.count + self.bonus

    @property
    def maximum(self) -> int:
        return self.mult * self.count * self.sides + self.bonus

    @property
    def mean(self) -> float:
        return self.mult * self.count * (self.sides + 1) / 2 + self.bonus

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.bonus)
        dice = f"{self.count}d{self.sides}"
        if self.bonus and self.mult == 1:
            dice = f"{dice}{self.bonus:+d}"
        elif self.bonus:
            dice = f"{self.bonus} + {dice}"
        return f"{self.mult} x {dice}" if self.mult != 1 else dice


# --- usage dice -----------------------------------------------------------------


def parse_usage_die(text: str | int) -> int:
    """``Ud8`` / ``d8`` / ``8`` -> 8; only sizes of the usage chain are legal."""
    if isinstance(text, int):
        sides = text
    else:
        m = re.fullmatch(r"\s*(?:U?d)?(\d+)\s*", text, re.IGNORECASE)
        if not m:
            raise ValueError(f"not a usage die: {text!r} (expected e.g. 'Ud8')")
        sides = int(m[1])
    if sides not in USAGE_CHAIN:
        raise ValueError(f"usage dice are d20, d12, d10, d8, d6 or d4, not d{sides}")
    return sides


def downgrade(sides: int) -> int | None:
    """The next smaller usage die, or ``None`` when a d4 is used up."""
    i = USAGE_CHAIN.index(sides)
    return USAGE_CHAIN[i + 1] if i + 1 < len(USAGE_CHAIN) else None


@dataclass(frozen=True)
class UsageRoll:
    before: int
    face: int
    after: int | None  # None: the item is gone

    @property
    def downgraded(self) -> bool:
        return self.after != self.before

    @property
    def exhausted(self) -> bool:
        return self.after is None


def roll_usage(rng: Random, sides: int) -> UsageRoll:
    """Roll a usage die: on 1–2 it steps down the chain; a d4 that rolls 1–2 is gone."""
    sides = parse_usage_die(sides)
    face = d(rng, sides)
    after: int | None = sides if face > 2 else downgrade(sides)
    return UsageRoll(before=sides, face=face, after=after)


# --- risk dice ----------------------------------------------------------------


@dataclass(frozen=True)
class RiskRoll:
    faces: tuple[int, ...]

    @property
    def triggered(self) -> bool:
        return 1 in self.faces


def roll_risk(rng: Random, count: int) -> RiskRoll:
    """Risk dice (``Xd!``): roll ``count`` d6; the thing happens if any shows a 1."""
    return RiskRoll(tuple(roll(rng, count, 6)))


def risk_probability(count: int) -> float:
    """Exact chance that ``count`` risk dice trigger: 1 − (5/6)^count."""
    return 1.0 - (5 / 6) ** count if count > 0 else 0.0


def parse_risk(text: str) -> int:
    """``2d!`` -> 2."""
    m = re.fullmatch(r"\s*(\d+)\s*d!\s*", text)
    if not m:
        raise ValueError(f"not risk dice: {text!r} (expected e.g. '2d!')")
    return int(m[1])
