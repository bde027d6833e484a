"""Casting spells and invoking prayers.

Spells (Wizards, "Magic user"): the spell always works; *then* an INT test:
success — nothing more; failure — the spell is forgotten; critical failure —
forgotten and a roll on the mishap table (3d6 + mishaps so far this
expedition); great success — an arcane well: the next spell's test succeeds
automatically.  Without a conductor every failure is a critical failure.
Concentrating (1 turn, later chapter) refreshes one forgotten spell on an INT
success; on a failure roll a mishap without adding or counting mishaps.

Prayers (Clerics, "Divine mandate"): a PRE test first: success — answered and
exhausted until a rest; failure — ignored, not exhausted; critical failure —
the god is angered and answers nothing until a sacrifice; great success —
answered plus a miracle (1d6).  Once per expedition a desperate plea uses an
exhausted prayer.  No holy symbol, no prayer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from random import Random

from rules.checks import RuleError, TestRoll, TestSpec
from rules.content.effects import RollTable, TableRow
from rules.dice import DiceExpr
from rules.odds import Chooser, resolve


@dataclass
class Spellbook:
    """A wizard's spells: known, memorised, forgotten, and the expedition's counters."""

    known: list[str] = field(default_factory=list)
    memorised: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    mishaps_this_expedition: int = 0
    arcane_well: bool = False

    def memorise(self, spells: list[str], capacity: int) -> None:
        """Choose memorised spells (one per INT score point) from the known ones."""
        unknown = [s for s in spells if s not in self.known]
        if unknown:
            raise RuleError(f"not in the grimoire: {', '.join(unknown)}")
        if len(set(spells)) > capacity:
            raise RuleError(f"only {capacity} spell(s) can be memorised (one per INT point)")
        self.memorised = list(dict.fromkeys(spells))
        self.forgotten = []

    def new_expedition(self) -> None:
        self.mishaps_this_expedition = 0


class SpellOutcome(StrEnum):
    CAST = "cast"  # success: nothing else happens
    FORGOTTEN = "forgotten"
    MISHAP = "mishap"
    ARCANE_WELL = "arcane well"
    AUTOMATIC = "automatic success"  # the previous cast opened an arcane well


@dataclass(frozen=True)
class SpellResult:
    spell: str
    outcome: SpellOutcome
    test: TestRoll | None
    mishap_total: int | None = None
    mishap: TableRow | None = None


def cast_spell(
    book: Spellbook,
    spell: str,
    int_spec: TestSpec,
    rng: Random,
    mishaps: RollTable,
    *,
    has_conductor: bool = True,
    player: Chooser | None = None,
    woven: Callable[[TestRoll], None] | None = None,
) -> SpellResult:
    """Cast a memorised spell (its effect resolves first), then test INT.  ``woven`` may change the rolled dice
    before the verdict (Weave fate: "replace any dice result you roll")."""
    if spell not in book.memorised or spell in book.forgotten:
        raise RuleError(f"{spell} is not memorised")
    if book.arcane_well:
        book.arcane_well = False
        return SpellResult(spell, SpellOutcome.AUTOMATIC, None)
    test = resolve(int_spec, rng, player)
    if woven is not None:
        woven(test)
    v = test.verdict
    if v.success:
        if v.great_success:
            book.arcane_well = True
            return SpellResult(spell, SpellOutcome.ARCANE_WELL, test)
        return SpellResult(spell, SpellOutcome.CAST, test)
    book.forgotten.append(spell)
    if v.critical_failure or not has_conductor:
        total = DiceExpr.parse(mishaps.dice).roll(rng) + book.mishaps_this_expedition
        book.mishaps_this_expedition += 1
        return SpellResult(spell, SpellOutcome.MISHAP, test, total, mishaps.lookup(total))
    return SpellResult(spell, SpellOutcome.FORGOTTEN, test)


def concentrate(
    book: Spellbook, spell: str, int_spec: TestSpec, rng: Random, mishaps: RollTable, player: Chooser | None = None,
    woven: Callable[[TestRoll], None] | None = None,
) -> SpellResult:
    """Refresh a forgotten spell (1 exploration turn)."""
    if spell not in book.forgotten:
        raise RuleError(f"{spell} is not forgotten")
    test = resolve(int_spec, rng, player)
    if woven is not None:
        woven(test)
    if test.verdict.success:
        book.forgotten.remove(spell)
        return SpellResult(spell, SpellOutcome.CAST, test)
    total = DiceExpr.parse(mishaps.dice).roll(rng)  # no previous mishaps added, none counted
    return SpellResult(spell, SpellOutcome.MISHAP, test, total, mishaps.lookup(total))


@dataclass
class Prayers:
    memorised: list[str] = field(default_factory=list)
    exhausted: list[str] = field(default_factory=list)
    angered: bool = False
    plea_used: bool = False

    def rest(self) -> None:
        """A well deserved rest or sleep: un-exhaust all prayers."""
        self.exhausted = []

    def new_expedition(self) -> None:
        self.plea_used = False

    def sacrifice(self) -> None:
        self.angered = False


class PrayerOutcome(StrEnum):
    ANSWERED = "answered"
    IGNORED = "ignored"
    ANGERED = "angered"
    MIRACLE = "miracle"


@dataclass(frozen=True)
class PrayerResult:
    prayer: str
    outcome: PrayerOutcome
    test: TestRoll
    desperate_plea: bool = False
    miracle: TableRow | None = None
    miracle_roll: int | None = None


def invoke_prayer(
    prayers: Prayers,
    prayer: str,
    pre_spec: TestSpec,
    rng: Random,
    miracles: RollTable,
    *,
    has_holy_symbol: bool = True,
    desperate_plea: bool = False,
    player: Chooser | None = None,
    woven: Callable[[TestRoll], None] | None = None,
) -> PrayerResult:
    if not has_holy_symbol:
        raise RuleError("Casting a prayer without a holy symbol doesn't work.")
    if prayers.angered:
        raise RuleError("The god is angered and answers no prayer until a sacrifice.")
    if prayer not in prayers.memorised:
        raise RuleError(f"{prayer} is not memorised")
    if prayer in prayers.exhausted:
        if not desperate_plea:
            raise RuleError(f"{prayer} is exhausted until a rest (a desperate plea can use it once per expedition)")
        if prayers.plea_used:
            raise RuleError("the desperate plea of this expedition is spent")
    elif desperate_plea:
        raise RuleError("a desperate plea is for an exhausted prayer")
    test = resolve(pre_spec, rng, player)
    if woven is not None:
        woven(test)
    v = test.verdict
    if not v.success:
        if v.critical_failure:
            prayers.angered = True
            return PrayerResult(prayer, PrayerOutcome.ANGERED, test, desperate_plea)
        return PrayerResult(prayer, PrayerOutcome.IGNORED, test, desperate_plea)  # not exhausted
    if desperate_plea:
        prayers.plea_used = True
    elif prayer not in prayers.exhausted:
        prayers.exhausted.append(prayer)
    if v.great_success:
        total = DiceExpr.parse(miracles.dice).roll(rng)
        return PrayerResult(prayer, PrayerOutcome.MIRACLE, test, desperate_plea, miracles.lookup(total), total)
    return PrayerResult(prayer, PrayerOutcome.ANSWERED, test, desperate_plea)
