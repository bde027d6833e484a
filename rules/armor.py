"""Armour rolls, for adventurers and enemies alike.

Roll one die per armour point of the one piece (or part) used: each 4, 5 or
6 removes a wound; each 1 or 4 costs that piece an armour point until it is
repaired (enemies' armour is never repaired).  The wearer may roll fewer
dice.  Piercing (P) attacks ignore armour.  After armour, an enemy's
resistance removes that many more wounds unless the attack is R (can't be
reduced except by armour).  Nothing goes below zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random

from rules.dice import roll
from rules.notation import Effect


@dataclass
class ArmorPart:
    """One piece, or one part of a multi-part armour ("2, 3 AP" is two parts)."""

    name: str
    max_ap: int
    ap: int = -1  # current; -1 means "as new"
    four_does_not_break: bool = False  # Padded armor
    breaks_exactly_one: bool = False  # Soldier helmet: "Always breaks 1 and only 1 AP on use"
    not_against_impact: bool = False  # Chainmail

    def __post_init__(self) -> None:
        if self.ap < 0:
            self.ap = self.max_ap

    def repair(self, points: int) -> int:
        n = min(points, self.max_ap - self.ap)
        self.ap += n
        return n


@dataclass(frozen=True)
class ArmorRoll:
    faces: tuple[int, ...]
    blocked: int
    broken: int


def roll_armor(rng: Random, part: ArmorPart, dice: int | None = None) -> ArmorRoll:
    """Roll ``dice`` (default: every current AP) for ``part``; apply the breakage."""
    n = part.ap if dice is None else max(0, min(dice, part.ap))
    faces = tuple(roll(rng, n))
    blocked = sum(1 for f in faces if f >= 4)
    breaking = (1,) if part.four_does_not_break else (1, 4)
    broken = sum(1 for f in faces if f in breaking)
    if part.breaks_exactly_one and n > 0:
        broken = 1
    broken = min(broken, part.ap)
    part.ap -= broken
    return ArmorRoll(faces, blocked, broken)


@dataclass(frozen=True)
class DamageResult:
    incoming: int
    armor: ArmorRoll | None
    resisted: int
    wounds: int  # what gets through


@dataclass
class Defender:
    """What reduces incoming wounds: armour parts and resistance."""

    parts: list[ArmorPart] = field(default_factory=list)
    resist: int = 0


def reduce_damage(
    rng: Random,
    wounds: int,
    effects: frozenset[Effect],
    defender: Defender,
    part: ArmorPart | None = None,
    *,
    ignore_resist: bool = False,
    impact: bool = False,
) -> DamageResult:
    """Armour then resistance.  ``part``: the piece chosen (default: the one with most AP)."""
    armor: ArmorRoll | None = None
    remaining = wounds
    if Effect.PIERCING not in effects and remaining > 0:
        usable = [p for p in defender.parts if p.ap > 0 and not (impact and p.not_against_impact)]
        chosen = part if part is not None and part in usable else max(usable, key=lambda p: p.ap, default=None)
        if chosen is not None:
            armor = roll_armor(rng, chosen)
            remaining = max(0, remaining - armor.blocked)
    resisted = 0
    if Effect.UNRESISTABLE not in effects and not ignore_resist and remaining > 0:
        resisted = min(defender.resist, remaining)
        remaining -= resisted
    return DamageResult(wounds, armor, resisted, remaining)
