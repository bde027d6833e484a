"""Schemas of ``blacksalt.toml`` (settlements, Blacksalt events, sleep tables, interlude actions,
shopping, settlement doom) and ``names.toml`` (the name generator).

Transcribed from *Dead Weight* v0.6 (core rules, "Blacksalt" and "Interlude") and the later
expedition chapter, which wins where they differ.  Fields: ``resources/content/docs/blacksalt.md``.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from rules.content.base import AttrCode, Name, Rarity, Strict, Text, check_unique
from rules.content.effects import Outcome, RollTable, TableRow

Size = Annotated[int, Field(ge=1, le=5)]
RuleTag = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=60)]
SizeName = Literal["Small Camp", "Hamlet", "Fief", "Stronghold", "City"]
SIZE_NAMES: tuple[str, ...] = SizeName.__args__  # type: ignore[attr-defined]
#: rarities in rising order (as shopping and doom steps use them; "free" is never sold)
RARITY_ORDER: tuple[str, ...] = ("common", "uncommon", "valuable", "rare", "exotic")

DayStep = Literal["events", "actions", "hunger", "sleep"]


class SettlementSize(Strict):
    size: Size
    name: SizeName
    text: Text


class Settlement(Strict):
    name: Name
    size: Size
    text: Text
    aliases: list[Name] = []


class Location(Strict):
    """A place of Blacksalt that is not a settlement (no interlude there)."""

    name: Name
    kind: Literal["ruin", "other_place"]
    text: Text | None = None  # None: the book lists the name only
    mentions: list[Text] = []  # what the book says of it elsewhere


class EventRow(TableRow):
    """A Blacksalt event row: an Outcome plus price effects."""

    price_category: Literal["food", "housing"] | None = None
    price_multiplier: float | None = Field(None, gt=0, le=4)
    sell_multiplier: float | None = Field(None, gt=0, le=4)
    days: int | None = Field(None, ge=1, le=7)  # a fixed duration in days ("for one day", "today")
    stops: RuleTag | None = None  # the ongoing event (its special tag) this one ends

    @model_validator(mode="after")
    def _price(self) -> EventRow:
        if (self.price_multiplier is None) != (self.price_category is None):
            raise ValueError("price_multiplier and price_category go together")
        if self.price_multiplier is not None and self.duration is None and self.days is None:
            raise ValueError("a price change needs duration (dice) or days")
        return self


class EventTable(RollTable):
    rows: Annotated[list[EventRow], Field(min_length=1)]  # type: ignore[assignment]


class SleepLocation(Strict):
    name: Name
    text: Text
    rule: RuleTag
    cost_silver: int | None = Field(None, ge=0, le=5)  # None: "special" (story), no price
    camping_supplies_per_character: int = Field(0, ge=0, le=1)  # required (not spent) to use it
    min_size: Size = 1
    max_size: Size = 5
    availability: Literal["always", "story"] = "always"
    table: RollTable

    @model_validator(mode="after")
    def _sizes(self) -> SleepLocation:
        if self.min_size > self.max_size:
            raise ValueError("min_size above max_size")
        if self.table.dice != "2d6":
            raise ValueError("sleep tables are rolled on 2d6")
        return self


class InterludeOption(Strict):
    """An optional additional effect of an interlude action ("You may choose an additional effect")."""

    name: Name
    text: Text
    rule: RuleTag
    cost_silver: int = Field(0, ge=0, le=10)
    min_size: Size = 1
    max_size: Size = 5
    requires_item: Name | None = None
    outcome: Outcome

    @model_validator(mode="after")
    def _sizes(self) -> InterludeOption:
        if self.min_size > self.max_size:
            raise ValueError("min_size above max_size")
        return self


class InterludeAction(Strict):
    name: Name
    text: Text
    rule: RuleTag
    test_attr: AttrCode | None = None
    on_fail: RuleTag | None = None  # what a failed test does (a special tag)
    outcome: Outcome  # the base effect, always applied
    options: list[InterludeOption] = []

    @model_validator(mode="after")
    def _names_unique(self) -> InterludeAction:
        check_unique([o.name for o in self.options], "option")
        if self.on_fail is not None and self.test_attr is None:
            raise ValueError("on_fail needs test_attr")
        return self


Availability = Annotated[int, Field(ge=1, le=6)] | Literal["always", "unavailable"]


class Shopping(Strict):
    """Item availability by settlement size: risk dice (``2`` is 2d!), ``always`` or ``unavailable``."""

    size: Size
    common: Availability
    uncommon: Availability
    valuable: Availability
    rare: Availability
    exotic: Availability

    def availability(self, rarity: str) -> int | str:
        value: int | str = getattr(self, rarity)
        return value


def _rank(a: int | str) -> int:
    """Order availabilities: unavailable < 1d! < ... < 6d! < always."""
    if a == "unavailable":
        return 0
    if a == "always":
        return 100
    assert isinstance(a, int)
    return a


class DoomStep(Strict):
    """A step of the default settlement doom tracker; the flags are CUMULATIVE (the state at this step)."""

    step: int = Field(ge=1, le=7)
    text: Text
    price_increase: int = Field(ge=0, le=3)  # silver added to every item price
    inn_surcharge: int = Field(ge=0, le=1)  # extra silver per person at the inn
    max_rarity: Rarity | None = None  # None: no limit
    no_inn: bool = False
    no_shopping: bool = False
    no_surgeon: bool = False  # surgeon and witch doctor
    no_entertainment: bool = False
    hunted: bool = False  # no longer a safe place


class HungerBites(Strict):
    text: Text
    rations_per_day: int = Field(ge=1, le=1)
    outcome: Outcome  # what an adventurer who does not eat gets
    if_already_hungry: Literal["roll_decay"]


class Interlude(Strict):
    text: Text
    actions_per_day: int = Field(ge=1, le=1)
    day_steps: list[DayStep]
    after_expedition_step: DayStep  # an expedition counts as a whole day: skip to this step
    duplicate_affliction: Literal["choose_another"]
    duplicate_affliction_text: Text
    decay_tracker: bool  # is there a decay tracker in the interlude?
    price_rounding: Literal["up"]  # halved prices round up to whole silver

    @model_validator(mode="after")
    def _steps(self) -> Interlude:
        if sorted(self.day_steps) != sorted(DayStep.__args__) or len(self.day_steps) != 4:  # type: ignore[attr-defined]
            raise ValueError("day_steps lists events, actions, hunger and sleep once each")
        return self


class BlacksaltFile(Strict):
    """``blacksalt.toml``."""

    sizes: Annotated[list[SettlementSize], Field(min_length=5, max_length=5)]
    settlements: Annotated[list[Settlement], Field(min_length=1)]
    locations: list[Location] = []
    interlude: Interlude
    events: EventTable
    bad_events: EventTable
    opportunities: EventTable
    hunger_bites: HungerBites
    sleep: Annotated[list[SleepLocation], Field(min_length=1)]
    interlude_actions: Annotated[list[InterludeAction], Field(min_length=1)]
    shopping: Annotated[list[Shopping], Field(min_length=5, max_length=5)]
    settlement_doom: Annotated[list[DoomStep], Field(min_length=7, max_length=7)]

    @field_validator("sizes")
    @classmethod
    def _sizes(cls, v: list[SettlementSize]) -> list[SettlementSize]:
        if [s.size for s in v] != [1, 2, 3, 4, 5] or [s.name for s in v] != list(SIZE_NAMES):
            raise ValueError("sizes are 1 Small Camp .. 5 City, in order")
        return v

    @field_validator("events", "bad_events", "opportunities")
    @classmethod
    def _d6(cls, v: EventTable) -> EventTable:
        if v.dice != "1d6":
            raise ValueError(f"{v.name} is rolled on 1d6")
        return v

    @field_validator("sleep")
    @classmethod
    def _sleep(cls, v: list[SleepLocation]) -> list[SleepLocation]:
        check_unique([s.name for s in v], "sleep location")
        check_unique([s.rule for s in v], "sleep rule")
        return v

    @field_validator("interlude_actions")
    @classmethod
    def _actions(cls, v: list[InterludeAction]) -> list[InterludeAction]:
        check_unique([a.name for a in v], "interlude action")
        check_unique([a.rule for a in v] + [o.rule for a in v for o in a.options], "interlude action or option rule")
        return v

    @field_validator("shopping")
    @classmethod
    def _shopping(cls, v: list[Shopping]) -> list[Shopping]:
        if [s.size for s in v] != [1, 2, 3, 4, 5]:
            raise ValueError("shopping lists sizes 1..5 in order")
        for rarity in RARITY_ORDER:
            ranks = [_rank(s.availability(rarity)) for s in v]
            if ranks != sorted(ranks):
                raise ValueError(f"{rarity} items must not get rarer in bigger settlements")
        for s in v:
            ranks = [_rank(s.availability(r)) for r in RARITY_ORDER]
            if ranks != sorted(ranks, reverse=True):
                raise ValueError(f"size {s.size}: rarer items must not be easier to find")
        return v

    @field_validator("settlement_doom")
    @classmethod
    def _doom(cls, steps: list[DoomStep]) -> list[DoomStep]:
        if [d.step for d in steps] != list(range(1, 8)):
            raise ValueError("settlement_doom lists steps 1..7 in order")
        flags = ("no_inn", "no_shopping", "no_surgeon", "no_entertainment", "hunted")
        for a, b in pairwise(steps):
            if b.price_increase < a.price_increase or b.inn_surcharge < a.inn_surcharge:
                raise ValueError(f"doom step {b.step}: effects are cumulative (numbers never drop)")
            for f in flags:
                if getattr(a, f) and not getattr(b, f):
                    raise ValueError(f"doom step {b.step}: effects are cumulative ({f} lost)")
            if a.max_rarity is not None and (
                b.max_rarity is None or RARITY_ORDER.index(b.max_rarity) > RARITY_ORDER.index(a.max_rarity)
            ):
                raise ValueError(f"doom step {b.step}: effects are cumulative (max_rarity widened)")
        return steps

    @model_validator(mode="after")
    def _places(self) -> BlacksaltFile:
        check_unique(
            [s.name for s in self.settlements]
            + [a for s in self.settlements for a in s.aliases]
            + [loc.name for loc in self.locations],
            "place name or alias",
        )
        return self


# --------------------------------------------------------------------------- names.toml


class NamePattern(Strict):
    """How a full name is built: ``{given}``, ``{surname}`` and ``{epithet}`` placeholders."""

    pattern: Annotated[str, Field(pattern=r"^[^{}]*(\{(given|surname|epithet)\}[^{}]*)+$")]
    weight: int = Field(ge=1, le=100)

    @model_validator(mode="after")
    def _given(self) -> NamePattern:
        if "{given}" not in self.pattern:
            raise ValueError("every pattern uses {given}")
        return self


NameWord = Annotated[str, Field(min_length=2, max_length=30, pattern=r"^([a-z]+[ -])?[A-Z][A-Za-z' -]*[a-z]$")]
Epithet = Annotated[str, Field(min_length=3, max_length=40, pattern=r"^(the )?[A-Z][A-Za-z' -]*[a-z]$")]


class NamesFile(Strict):
    """``names.toml``: a name generator for Blacksalt's adventurers and locals."""

    text: Text
    given_names: Annotated[list[NameWord], Field(min_length=80)]
    surnames: Annotated[list[NameWord], Field(min_length=60)]
    epithets: Annotated[list[Epithet], Field(min_length=40)]
    patterns: Annotated[list[NamePattern], Field(min_length=1)]
    reserved: list[Name] = []  # the book's own names, never generated

    @model_validator(mode="after")
    def _names_unique(self) -> NamesFile:
        check_unique(self.given_names, "given name")
        check_unique(self.surnames, "surname")
        check_unique(self.epithets, "epithet")
        reserved = {r.casefold() for r in self.reserved}
        for n in [*self.given_names, *self.surnames]:
            if n.casefold() in reserved:
                raise ValueError(f"{n!r} is one of the book's names (reserved)")
        return self


FILES: dict[str, type[Strict]] = {"blacksalt.toml": BlacksaltFile, "names.toml": NamesFile}
