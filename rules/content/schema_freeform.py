"""Schema of ``freeform.toml``: the automated GM's freeform actions.

The expedition chapter's Freeform action ("This allows the adventurers to do pretty much anything they
want and requires some improvisation from the GM") needs, in a game with no human GM, a catalogue of
what can be tried: a few verbs that make sense in a dungeon crawl, each with the attribute it tests, the
gear and the skills that make it sure, and what each answer does.  Whether a roll is needed at all is
decided by Time / Gear / Skill, and where no attribute fits the answer comes from the Die of Fate (both
from "Block, Dodge, Parry", CC BY-SA 4.0).  Also the exploration actions that sit beside them: listening
at doors (the Knave-style delving rules), the room features, and what the Veteran and Ward the dead
skills need beyond ``character.toml``.

Fields: ``resources/content/docs/freeform.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, model_validator

from rules.content.base import AttrCode, Name, Strict, Text, check_unique
from rules.content.effects import Affliction
from rules.content.schema_tables import ArmourType, RuleTag

if TYPE_CHECKING:
    from rules.content.registry import Content

#: the Die of Fate's answers, worst first
Grade = Literal["no_and", "no", "no_but", "yes_but", "yes", "yes_and"]
GRADES: tuple[str, ...] = Grade.__args__  # type: ignore[attr-defined]
#: what a verb is done to: nothing in particular, a closed door of the room, a locked door, aware animals
#: of the room, aware enemies of the room, or only a room feature whose words name it (an approach)
Target = Literal["none", "door", "locked_door", "animals", "enemies", "feature", "unaware"]
#: what a verb's outcome does to the place (the engine implements each by name)
Result = Literal["shut_door", "break_door", "calm", "hide", "loot", "loot_wake", "wake"]
Keyword = Annotated[str, Field(pattern=r"^[a-z][a-z' -]*[a-z]$", max_length=40)]
SmallInt = Annotated[int, Field(ge=0, le=3)]


class FateFace(Strict):
    face: int = Field(ge=1, le=6)
    grade: Grade
    name: Name  # "No, and…"
    text: Text  # what the GM reads it as


class Fate(Strict):
    """The Die of Fate: 1d6, No-and … Yes-and."""

    rule: Text
    faces: Annotated[list[FateFace], Field(min_length=6, max_length=6)]

    @model_validator(mode="after")
    def _every_face_once(self) -> Fate:
        if sorted(f.face for f in self.faces) != [1, 2, 3, 4, 5, 6]:
            raise ValueError("the faces must be 1 to 6, each once")
        if sorted(GRADES.index(f.grade) for f in self.faces) != list(range(6)):
            raise ValueError("every grade must be on exactly one face")
        return self

    def face(self, n: int) -> FateFace:
        return next(f for f in self.faces if f.face == n)


class TestGrades(Strict):
    """How a Dead Weight test answers a freeform action, in the Die of Fate's words."""

    great_success: Grade
    success: Grade
    failure: Grade
    critical_failure: Grade


class TimeGearSkill(Strict):
    rule: Text


class Gear(Strict):
    name: Name  # an item of the equipment tables
    spend: bool = False  # used up by the attempt: its usage die is rolled (or one of its count spent)


class VerbOutcome(Strict):
    """What one answer does.  ``text`` is told; the numbers are applied through the GM's services."""

    text: Text
    who: Literal["self", "party"] = "self"  # the one acting, or everyone
    fatigue: SmallInt = 0
    fatigue_attr: AttrCode | None = None  # None: the verb's attribute (the player chooses when it has none)
    wounds: SmallInt = 0
    wound_attr: AttrCode | None = None
    afflictions: list[Affliction] = []
    doom: SmallInt = 0  # the level's doom tracker (noise)
    result: Result | None = None


class Verb(Strict):
    id: Annotated[str, Field(pattern=r"^[a-z][a-z_]*$", max_length=30)]
    name: Name  # the button: "Barricade a door"
    target: Target
    attr: AttrCode | None = None  # None: no attribute fits, the Die of Fate answers
    turns: int = Field(ge=0, le=3)
    gear: list[Gear] = []  # any one carried is the Gear leg; empty: the task needs no gear
    hindered_by: list[ArmourType] = []  # armour worn by the one acting that takes the Gear leg away
    skills: list[Name] = []  # skills that are the Skill leg
    backgrounds: list[Name] = []  # classes, backgrounds, schools, gods or life-path rows that are too
    advantage_on: list[RuleTag] = []  # a skill whose advantage_on names one of these gives advantage
    keywords: list[Keyword] = []  # words of a room feature that make trying it this kind of action
    rule: Text  # the book's words, for the tooltip
    outcomes: dict[Grade, VerbOutcome] = {}

    @model_validator(mode="after")
    def _outcomes(self) -> Verb:
        if self.target == "feature":
            if self.outcomes:
                raise ValueError("an approach to room features takes its outcomes from the feature's words")
            if not self.keywords:
                raise ValueError("an approach to room features needs keywords")
        elif not {"yes", "no"} <= set(self.outcomes):
            raise ValueError("outcomes need at least 'yes' and 'no' (the other answers fall back on them)")
        if self.attr is None and self.target == "feature":
            raise ValueError("a room feature names its own test; an approach needs the attribute it usually tests")
        return self

    def outcome(self, grade: str) -> VerbOutcome:
        """The outcome of ``grade``; a missing "and"/"but" answer falls back on plain yes or no."""
        if grade in self.outcomes:
            return self.outcomes[grade]
        return self.outcomes["yes" if grade.startswith("yes") else "no"]


class Listen(Strict):
    """Hear Noises: "Characters can listen at doors and attempt to hear if the room is occupied"."""

    attr: AttrCode
    turns: int = Field(ge=0, le=3)
    silent_tags: list[RuleTag] = []  # monsters with one of these bestiary tags make no sound
    rule: Text


class SkillAction(Strict):
    """An exploration action a skill of ``character.toml`` gives (its text, cost and test are there)."""

    skill: Name


class Features(Strict):
    """Trying a room feature: a freeform action (its cost is the Freeform action's, ``tables.toml``)."""

    rule: Text


class Animals(Strict):
    """What "calm an animal" can calm: living monsters of these bestiary families."""

    families: list[Name]
    tags: list[RuleTag]  # every one of these tags is needed ("living": no ghosts or undead)


class FreeformFile(Strict):
    fate: Fate
    grades: TestGrades
    time_gear_skill: TimeGearSkill
    listen: Listen
    veteran: SkillAction
    ward: SkillAction
    features: Features
    animals: Animals
    verbs: Annotated[list[Verb], Field(min_length=1)]

    @model_validator(mode="after")
    def _unique(self) -> FreeformFile:
        check_unique((v.id for v in self.verbs), "verb ids")
        check_unique((v.name for v in self.verbs), "verb names")
        return self

    def verb(self, verb_id: str) -> Verb:
        for v in self.verbs:
            if v.id == verb_id:
                return v
        raise KeyError(f"no freeform verb {verb_id!r}")


FILES = {"freeform.toml": FreeformFile}


def check_references(c: Content) -> list[str]:
    """Names in ``freeform.toml`` that no other content file knows."""
    problems: list[str] = []
    ff = c.freeform
    items = {i.name.lower() for i in c.items.items} | {w.name.lower() for w in c.weapons.weapons}
    skills = {s.name.lower() for s in c.character.skills} | {a.lower() for s in c.character.skills for a in s.aliases}
    tags = {t for s in c.character.skills for t in s.advantage_on}
    known = {x.name.lower() for x in c.classes.classes}
    known |= {x.name.lower() for x in c.classes.backgrounds}
    known |= {x.name.lower() for x in c.classes.schools}
    known |= {g.name.lower() for g in c.magic.gods}
    known |= {row.name.lower() for t in c.lifepath.tables for row in t.rows}
    families = {f.key for f in c.bestiary.families}
    monster_tags = {t for m in c.bestiary.monsters for t in m.tags}
    for v in ff.verbs:
        where = f"freeform.toml: verb {v.id!r}"
        problems += [f"{where}: unknown item {g.name!r}" for g in v.gear if g.name.lower() not in items]
        problems += [f"{where}: unknown skill {s!r}" for s in v.skills if s.lower() not in skills]
        problems += [f"{where}: no class, background, school, god or life path {b!r}" for b in v.backgrounds
                     if b.lower() not in known]  # fmt: skip
        problems += [f"{where}: no skill gives advantage on {t!r}" for t in v.advantage_on if t not in tags]
    for s in (ff.veteran.skill, ff.ward.skill):
        if s.lower() not in skills:
            problems.append(f"freeform.toml: unknown skill {s!r}")
    problems += [f"freeform.toml: animals: unknown family {f!r}" for f in ff.animals.families if f not in families]
    problems += [f"freeform.toml: unknown monster tag {t!r}" for t in [*ff.animals.tags, *ff.listen.silent_tags]
                 if t not in monster_tags]  # fmt: skip
    return problems
