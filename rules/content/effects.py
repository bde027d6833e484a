"""Machine-readable outcomes shared by every roll table.

A table row (decay, omens, mortal wounds, spell mishaps, miracles, Blacksalt
events, sleep tables, ...) keeps the book's words in ``text`` and says what
the engine must do in the optional fields below.  Anything the fields cannot
express is named by a ``special`` tag that the engine implements by name
(for example ``"equipment_breaks"``), so no rule is ever hidden in prose.

Conventions: affliction, trauma and skill names are the book's names in
lower case (``"terrified"``, ``"brain damage"``); ``"all"`` means every point.
"""

from __future__ import annotations

import itertools
from typing import Annotated, Literal

from pydantic import Field, model_validator

from rules.content.base import AttrCode, Dice, Strict, Text
from rules.dice import DiceExpr

Affliction = Literal[
    "hungry", "parched", "bleeding", "sleepy", "angry", "shaken",
    "nauseated", "terrified", "hopeless", "cursed", "plagued", "doomed",
]  # fmt: skip
AFFLICTIONS: tuple[str, ...] = Affliction.__args__  # type: ignore[attr-defined]

Who = Literal["self", "party", "close", "nearby", "target"]


class Outcome(Strict):
    """What a table result does.  Every field is optional; ``text`` is the book's."""

    text: Text
    who: Who = "self"  # who it applies to
    # fatigue and wounds taken
    fatigue: int = Field(0, ge=0, le=12)
    fatigue_attr: AttrCode | None = None  # None: the player chooses
    wounds: int = Field(0, ge=0, le=12)
    wound_attr: AttrCode | None = None  # None: the player chooses
    wounds_each_attr: int = Field(0, ge=0, le=3)  # "take 1 wound to each attribute"
    non_lethal: bool = False
    # healing
    restore_fatigue: int | Literal["all"] = 0  # per attribute
    heal_wounds: int | Literal["all"] = 0
    heal_attrs: list[AttrCode] = []  # empty: any attribute (player's choice)
    # afflictions
    afflictions: list[Affliction] = []  # gain every one listed
    affliction_choice: list[Affliction] = []  # gain one of these (player's choice)
    remove: list[Affliction] = []  # remove every one listed
    remove_one_of: list[Affliction] = []  # remove one of these (player's choice)
    trauma: str | None = None  # a trauma name, or "choose"
    # silver and items
    gain_silver: Dice | None = None
    lose_silver: Dice | None = None
    # trackers
    doom: int = Field(0, ge=-3, le=3)  # the current location's doom tracker
    settlement_doom: int = Field(0, ge=-3, le=3)
    omens: int = Field(0, ge=-3, le=3)
    # a risk roll that adds a further outcome when triggered ("on a 2d! you get nauseated")
    risk_dice: int = Field(0, ge=0, le=6)
    on_risk: Outcome | None = None
    # "pay 2d6 silver or take 2 wounds": the player picks one alternative
    alternatives: list[Outcome] = []
    # a named rule the engine implements (documented in resources/content/docs/<area>.md)
    special: str | None = None
    duration: Dice | None = None  # turns / days the effect lasts, where the book says

    @model_validator(mode="after")
    def _risk_needs_outcome(self) -> Outcome:
        if bool(self.risk_dice) != (self.on_risk is not None):
            raise ValueError("risk_dice and on_risk go together")
        return self


class TableRow(Outcome):
    """One row of a roll table: results ``min``..``max`` (``None``: open-ended)."""

    min: int | None = None
    max: int | None = None


class RollTable(Strict):
    """A roll table: ``dice`` and rows that cover every result without overlap."""

    name: Text
    dice: Dice
    modifier_note: str | None = None  # e.g. "+ previous mishaps this expedition"
    rows: Annotated[list[TableRow], Field(min_length=1)]

    @model_validator(mode="after")
    def _covers_range(self) -> RollTable:
        expr = DiceExpr.parse(self.dice)
        rows = self.rows
        for a, b in itertools.pairwise(rows):
            if a.max is None or b.min is None or b.min != a.max + 1:
                raise ValueError(f"rows must be in order and contiguous: {a.min}-{a.max} then {b.min}-{b.max}")
        for r in rows:
            if r.min is not None and r.max is not None and r.min > r.max:
                raise ValueError(f"row {r.min}-{r.max} is empty")
        lo, hi = rows[0].min, rows[-1].max
        if (lo is not None and lo > expr.minimum) or (hi is not None and hi < expr.maximum):
            raise ValueError(f"rows {lo}..{hi} do not cover {self.dice} ({expr.minimum}..{expr.maximum})")
        return self

    def lookup(self, total: int) -> TableRow:
        """The row for ``total``; open-ended rows catch results beyond the ends."""
        for r in self.rows:
            if (r.min is None or total >= r.min) and (r.max is None or total <= r.max):
                return r
        # results beyond a closed end clamp to the nearest row (RULINGS.md)
        return self.rows[0] if total < (self.rows[0].min or 0) else self.rows[-1]
