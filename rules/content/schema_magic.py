"""Schema of ``magic.toml``: casting rules, spells, mishaps, miracles, prayers and gods.

The Alchemists' transmuting rules, extracts and potion recipes are in ``alchemy.toml`` (schema_equipment).

Field meanings and every ``special`` tag are documented in ``resources/content/docs/magic.md``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from rules.content.base import AttrCode, Dice, Name, Notation, Strict, Text, check_unique
from rules.content.effects import Outcome, RollTable
from rules.dice import DiceExpr

SchoolName = Literal[
    "Necromancers of Yadar",
    "Alchemists of the Golden Ridge",
    "Thaumaturgists of Ravenhome",
    "Wandering Mystics",
    "The Awakened",
]
SCHOOLS: tuple[str, ...] = SchoolName.__args__  # type: ignore[attr-defined]

NewGod = Literal["Goshkalon", "Cador", "Yulak", "Akhzu", "Kaal Rafir"]
NEW_GODS: tuple[str, ...] = NewGod.__args__  # type: ignore[attr-defined]
OLD_GODS: tuple[str, ...] = ("Ulass", "Achernar", "Gyrrath", "Ngaazh'theg")

RangeBand = Literal["Close", "Nearby", "Far", "Distant"]
DurationUnit = Literal[
    "turns",  # combat turns in combat, exploration turns out of it (book: "Time in spell descriptions")
    "exploration_turns",
    "combat_turns",
    "rounds",
    "decays",
    "combat",  # until the end of the current combat
    "expedition",  # until the end of the expedition
    "channelled",  # while the caster keeps channelling
]


class SpellTestResults(Strict):
    """What each result of the casting test does (tags documented in magic.md)."""

    success: Literal["cast", "answered"]
    failure: Literal["forget_spell", "ignored"]
    critical_failure: Literal["spell_mishap", "god_angered"]
    great_success: Literal["arcane_well", "miracle"]


class Casting(Strict):
    """The numbers of the spell and prayer rules."""

    text: Text  # the book's spell rules
    prayer_text: Text  # the book's prayer rules
    time_text: Text  # the book's "Time in spell descriptions"
    spells_known_attr: AttrCode  # spells chosen at creation = this score
    spells_memorised_attr: AttrCode  # one memorised spell per point of this score
    spell_test_attr: AttrCode  # tested after each spell
    spell_results: SpellTestResults
    spell_always_works: bool  # the spell takes effect before the test
    no_conductor_failure_is_critical: bool
    grimoire_needed_to_study: bool
    mishap_adds_previous_mishaps: bool  # 3d6 + mishaps so far this expedition
    prayers_known_attr: AttrCode
    prayers_memorised_attr: AttrCode
    prayer_test_attr: AttrCode  # tested before each prayer
    prayer_results: SpellTestResults
    prayer_uses_before_camp_rest: int = Field(ge=1, le=1)  # then exhausted until resting at camp
    ignored_prayer_exhausts: bool
    desperate_pleas_per_expedition: int = Field(ge=1, le=1)  # use one exhausted prayer once
    holy_symbol_required: bool
    combat_actions_default: int = Field(ge=1, le=1)
    exploration_turns_per_cast: int = Field(ge=1, le=1)  # even a 2-action spell takes one exploration turn

    @model_validator(mode="after")
    def _shapes(self) -> Casting:
        s, p = self.spell_results, self.prayer_results
        if (s.success, s.failure, s.critical_failure, s.great_success) != (
            "cast", "forget_spell", "spell_mishap", "arcane_well"
        ):  # fmt: skip
            raise ValueError("spell_results must be cast / forget_spell / spell_mishap / arcane_well")
        if (p.success, p.failure, p.critical_failure, p.great_success) != (
            "answered", "ignored", "god_angered", "miracle"
        ):  # fmt: skip
            raise ValueError("prayer_results must be answered / ignored / god_angered / miracle")
        return self


class MagicEffect(Strict):
    """Shared fields of spells and prayers."""

    name: Name
    text: Text
    actions: int = Field(1, ge=1, le=2)  # combat actions to cast
    attack: Notation | None = None
    range: RangeBand | None = None  # the band named for the target or area (absent: none given)
    range_text: str | None = None  # the book's parenthesis when it says more than the band ("Nearby ally")
    duration: Dice | None = None  # "1d6" rolled, "2" fixed; in duration_unit
    duration_unit: DurationUnit | None = None
    secret_duration: bool = False  # the GM rolls the duration in secret
    channelled: bool = False
    combat_only: bool = False  # only has an effect during a combat
    summon: Name | None = None  # the bestiary creature it summons
    banishes_undead: bool = False  # it banishes the undead: an exorcism book adds its dice to the test (R203)
    terrain: str | None = None  # the kind of place it must be aimed at (a key of ``[terrain]``: Eyes of the forest)

    @model_validator(mode="after")
    def _duration(self) -> MagicEffect:
        numeric = self.duration is not None
        if numeric and self.duration_unit in (None, "combat", "expedition", "channelled"):
            raise ValueError("a numeric duration needs a unit: turns, exploration_turns, combat_turns, rounds, decays")
        if not numeric and self.duration_unit not in (None, "combat", "expedition", "channelled"):
            raise ValueError(f"duration_unit {self.duration_unit!r} needs a duration")
        if self.secret_duration and (self.duration is None or DiceExpr.parse(self.duration).count == 0):
            raise ValueError("secret_duration needs a rolled duration")
        if self.channelled != (self.duration_unit == "channelled"):
            raise ValueError("channelled spells have duration_unit = 'channelled'")
        return self


class Terrain(Strict):
    """A kind of place a power needs (RULINGS R202): how the GM recognises it in a dungeon's rooms."""

    text: Text  # the ruling in a sentence
    words: Annotated[list[str], Field(min_length=1)]  # whole words, any case, in a room's name, description or features
    entrances: bool = False  # the rooms the party enters a dungeon by (depth 1) have it in sight outside

    @model_validator(mode="after")
    def _words(self) -> Terrain:
        bad = [w for w in self.words if not w.strip() or w != w.strip().lower()]
        if bad:
            raise ValueError(f"terrain words are lower case and trimmed: {bad}")
        check_unique(self.words, "terrain word")
        return self


class Spell(MagicEffect):
    school: SchoolName
    casting_note: str | None = None  # special casting costs the text gives (Transmute)


class Prayer(MagicEffect):
    source: Literal["basic"] | NewGod  # the basic prayers or one god's list


class School(Strict):
    name: SchoolName
    text: Text  # the book's description of the school


class Sacrifice(Strict):
    """How an angered god is pleased again."""

    text: Text  # the book's words (or the ruling's, when from_book is false)
    from_book: bool = True
    kind: Literal["kill_captured_undead", "self_harm", "bury_rations", "camp_prayer"]
    cost: Outcome | None = None  # what the cleric suffers (self_harm)
    rations: int = Field(0, ge=0, le=6)  # rations buried (bury_rations)
    on_anger: Outcome | None = None  # what happens when the god is angered, besides refusing prayers


class God(Strict):
    name: Name
    kind: Literal["new", "old"]
    title: str | None = None  # "God of death"
    epithet: str | None = None  # old gods: "The Never-ending"
    text: Text
    sacrifice: Sacrifice | None = None

    @model_validator(mode="after")
    def _kind(self) -> God:
        if self.kind == "new" and (self.sacrifice is None or self.title is None):
            raise ValueError("a new god needs a title and a sacrifice")
        if self.kind == "old" and (self.sacrifice is not None or self.epithet is None):
            raise ValueError("an old god has an epithet and no sacrifice")
        return self


class MagicFile(Strict):
    casting: Casting
    schools: Annotated[list[School], Field(min_length=5, max_length=5)]
    spells: list[Spell]
    spell_mishaps: RollTable
    miracles: RollTable
    gods_text: Text  # the book's introduction to the new gods
    old_gods_text: Text
    gods: list[God]
    prayers: list[Prayer]
    terrain: dict[str, Terrain] = {}  # what a power's ``terrain`` names (RULINGS R202)

    @model_validator(mode="after")
    def _check(self) -> MagicFile:
        check_unique([s.name for s in self.schools], "school")
        check_unique([s.name for s in self.spells], "spell")
        check_unique([g.name for g in self.gods], "god")
        check_unique([p.name for p in self.prayers], "prayer")
        for school in SCHOOLS:
            if not any(s.school == school for s in self.spells):
                raise ValueError(f"school {school!r} has no spells")
        if sorted(g.name for g in self.gods if g.kind == "new") != sorted(NEW_GODS):
            raise ValueError(f"the new gods must be exactly {NEW_GODS}")
        if sorted(g.name for g in self.gods if g.kind == "old") != sorted(OLD_GODS):
            raise ValueError(f"the old gods must be exactly {OLD_GODS}")
        for god in NEW_GODS:
            if not any(p.source == god for p in self.prayers):
                raise ValueError(f"god {god!r} has no prayers")
        if not any(p.source == "basic" for p in self.prayers):
            raise ValueError("there must be basic prayers")
        for e in [*self.spells, *self.prayers]:
            if e.terrain is not None and e.terrain not in self.terrain:
                raise ValueError(f"{e.name}: terrain {e.terrain!r} is not one of [terrain] ({sorted(self.terrain)})")
        return self

    def spells_of(self, school: str) -> list[Spell]:
        return [s for s in self.spells if s.school == school]

    def prayers_of(self, source: str) -> list[Prayer]:
        return [p for p in self.prayers if p.source == source]


FILES: dict[str, type[Strict]] = {"magic.toml": MagicFile}
