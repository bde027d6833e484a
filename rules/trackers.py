"""Trackers (progress clocks): decay, doom, omens and settlement doom.

* Decay: 6 steps, advances every exploration turn; when it fills every
  adventurer rolls on the decay table and it starts again.
* Doom: one per location, never resets; a location's step table says what
  happens when it reaches each step; each step reached also advances omens.
  A Doomed adventurer makes it move one extra point.
* Omens: 2d6 steps for the whole campaign; when it fills, roll on the omens
  table and make a new tracker, rolling its size again.
* Settlement doom: the default 7-step track, effects cumulative.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random

from rules.dice import DiceExpr


@dataclass
class Tracker:
    """A clock of ``size`` segments, ``filled`` of them filled."""

    size: int
    filled: int = 0

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError("a tracker needs at least one segment")
        if not 0 <= self.filled <= self.size:
            raise ValueError(f"filled must be within 0..{self.size}")

    @property
    def full(self) -> bool:
        return self.filled >= self.size

    def advance(self, steps: int = 1) -> int:
        """Fill up to ``steps`` segments; returns how many were filled."""
        n = max(0, min(steps, self.size - self.filled))
        self.filled += n
        return n

    def reduce(self, steps: int = 1) -> int:
        n = max(0, min(steps, self.filled))
        self.filled -= n
        return n


DECAY_STEPS = 6


@dataclass
class DecayTracker:
    """Advances every turn; returns True on the turns the decay roll happens."""

    filled: int = 0
    size: int = DECAY_STEPS

    def tick(self) -> bool:
        self.filled += 1
        if self.filled >= self.size:
            self.filled = 0
            return True
        return False


@dataclass
class OmensTracker:
    """Campaign-wide; its size is rolled (2d6) anew each time it fills."""

    size: int
    filled: int = 0
    times_filled: int = 0

    @classmethod
    def new(cls, rng: Random, size_dice: str = "2d6") -> OmensTracker:
        return cls(size=DiceExpr.parse(size_dice).roll(rng))

    def advance(self, rng: Random, steps: int = 1, size_dice: str = "2d6") -> int:
        """Advance; returns how many times it filled (each fill = one omens roll)."""
        fills = 0
        for _ in range(steps):
            self.filled += 1
            if self.filled >= self.size:
                fills += 1
                self.times_filled += 1
                self.filled = 0
                self.size = DiceExpr.parse(size_dice).roll(rng)
        return fills


@dataclass(frozen=True)
class DoomStep:
    """A step of a doom table: reached when the tracker hits ``at``."""

    at: int
    effect: str


@dataclass
class DoomTracker:
    """A location's doom.  ``steps`` are the location's table, in order."""

    steps: tuple[DoomStep, ...]
    filled: int = 0
    fired: list[int] = field(default_factory=list)

    @property
    def size(self) -> int:
        return self.steps[-1].at if self.steps else 0

    @property
    def maxed(self) -> bool:
        return bool(self.steps) and self.filled >= self.size

    def advance(self, points: int = 1, *, doomed: int = 0) -> list[DoomStep]:
        """Advance ``points`` (+1 per Doomed adventurer for each movement); return the steps reached.

        "When the doom tracker moves, it moves one extra point" — one extra per
        movement, for each Doomed adventurer present.
        """
        if points <= 0:
            return []
        total = points + doomed
        reached: list[DoomStep] = []
        for _ in range(total):
            if self.maxed:
                break
            self.filled += 1
            for st in self.steps:
                if st.at == self.filled and st.at not in self.fired:
                    self.fired.append(st.at)
                    reached.append(st)
        return reached

    def reduce(self, points: int = 1) -> int:
        n = max(0, min(points, self.filled))
        self.filled -= n
        return n

    def next_step(self) -> DoomStep | None:
        """What the Veteran skill reveals: the next step not yet reached."""
        return next((s for s in self.steps if s.at > self.filled), None)
