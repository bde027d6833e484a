"""Schema of the bestiary: every enemy of the core rules v0.6, with its actions.

Enemy attack notation names the attribute the *adventurer* tests to defend
(``Rend(-STR 2+2B)``: a Strength test with disadvantage).  Special rules and
actions keep the book's words in ``text`` and carry a ``rule`` tag that the
engine implements by name; every tag is listed here (``SpecialRule``,
``ActionRule``) and documented in ``resources/content/docs/bestiary.md``.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from typing import Annotated, Literal

from pydantic import Field, model_validator

from rules.content.base import Name, Notation, Strict, Text
from rules.content.effects import Outcome
from rules.content.schema_equipment import ExtractKind, RangeText
from rules.notation import Range, parse_attack, parse_range

MonsterTag = Literal["living", "undead", "ghost", "goblin", "voidspawn", "human"]
FamilyKey = Literal["demons", "child_stealers", "scavengers", "shore", "undead", "ghosts", "humans"]

SpecialRule = Literal[
    "fearless_undead",
    "immune_pre",
    "fly",
    "incorporeal",
    "immaterial",
    "ethereal",
    "terrifying",
    "disadvantage_to_hit",
    "nauseating_aura",
    "explodes_on_death",
    "frenzied",
    "wall_climber",
    "toxic_spores",
    "damage_cap",
    "jumpy",
    "only_fire_or_spells",
    "edible",
    "straight_line_movement",
    "crawls",
    "no_personal_space",
    "nimble",
    "stack",
    "dodge_token_each_turn",
    "acid_pustules",
    "will_to_live",
]

ActionRule = Literal[
    "move",
    "recover",
    "bind",
    "phase_out",
    "consume_corpse",
    "gaze_stun_close",
    "chew_armor",
    "take_aim",
    "heal",
    "hook",
    "attach",
    "attach_on_crit",
    "disarm",
    "grab",
    "eat",
    "push",
    "ram",
    "lunge",
    "heal_on_hit",
    "shield_breaks_when_used",
    "no_defense",
]

#: Special-rule tags that need a ``value``.
VALUED_SPECIALS: frozenset[str] = frozenset({"frenzied", "damage_cap", "stack"})


class MonsterSpecial(Strict):
    """A special rule of an enemy sheet (a line that is not an action)."""

    text: Text
    rule: SpecialRule
    value: int | None = Field(None, ge=1, le=5)  # frenzied: actions per turn; damage_cap: max wounds; stack: per tile
    notation: Notation | None = None  # an attack the rule makes ("attack(STR 1) everyone Close")
    area: Literal["tile", "close", "nearby"] | None = None  # who the rule's effect reaches
    effect: Outcome | None = None  # what it does to whoever it reaches

    @model_validator(mode="after")
    def _value(self) -> MonsterSpecial:
        if (self.rule in VALUED_SPECIALS) != (self.value is not None):
            raise ValueError(f"rule {self.rule!r}: value is required for {sorted(VALUED_SPECIALS)} and only for them")
        return self


class MonsterAction(Strict):
    """An action of an enemy sheet; with ``notation`` it is an attack the adventurer defends."""

    name: Name
    notation: Notation | None = None  # the notation the engine uses (the book's string unless book_notation says)
    book_notation: str | None = None  # the book's printed string, only where it could not be used as printed
    actions: int = Field(1, ge=1, le=3)  # action cost
    range: RangeText | None = None  # None: Close
    text: Text | None = None  # the book's words after the colon
    rule: ActionRule | None = None
    value: int | Literal["all"] | None = None  # heal: wounds healed
    hits_all_close: bool = False
    hits_all_nearby: bool = False
    hits_everyone: bool = False  # "on everyone"
    alive_only: bool = False  # "everyone alive"
    sound: bool = False  # made of sound (a cry, a song, a scream): Silence stops it (RULINGS R197)
    friendly_fire: bool = False  # "including other enemies"
    diagonal: bool = False  # hits diagonally
    ignore_shields: bool = False
    impact: bool = False  # a blunt blow (chainmail does not protect)
    stun: int = Field(0, ge=0, le=3)  # stun tokens added to the target on a hit
    shield_tokens: int = Field(0, ge=0, le=3)  # shield tokens the enemy gains
    dodge_tokens: int = Field(0, ge=0, le=3)  # dodge tokens the enemy gains
    move_tiles: int | None = Field(None, ge=1, le=8)  # the enemy moves (Close = 1)
    reload_actions: int = Field(0, ge=0, le=3)
    becomes: Name | None = None  # the enemy turns into another bestiary entry
    on_hit: Outcome | None = None  # what a hit (or the action, without notation) does to the target

    @model_validator(mode="after")
    def _consistency(self) -> MonsterAction:
        if self.book_notation is not None and self.notation is None:
            raise ValueError("book_notation only alongside a usable notation")
        if sum((self.hits_all_close, self.hits_all_nearby, self.hits_everyone)) > 1:
            raise ValueError("hits_all_close, hits_all_nearby and hits_everyone exclude each other")
        if self.notation is not None:
            atk = parse_attack(self.notation)
            ranged = atk.range is not Range.CLOSE or atk.range_tiles is not None
            if ranged and (self.range is None or parse_range(self.range) != (atk.range, atk.range_tiles)):
                raise ValueError(f"range {self.range!r} disagrees with the notation {self.notation!r}")
        if (self.rule in ("heal", "heal_on_hit")) != (self.value is not None):
            raise ValueError("value goes with the heal and heal_on_hit rules only")
        if (self.rule in ("consume_corpse",)) != (self.becomes is not None):
            raise ValueError("becomes goes with consume_corpse")
        if self.rule == "no_defense" and self.notation is not None:
            raise ValueError("no_defense actions have no notation")
        return self


class Monster(Strict):
    name: Name
    family: FamilyKey
    level: int = Field(ge=1, le=10)
    wounds: int = Field(ge=1, le=20)
    armor: int = Field(0, ge=0, le=6)
    resist: int = Field(0, ge=0, le=3)
    movement: int = Field(ge=1, le=10)
    tags: Annotated[list[MonsterTag], Field(min_length=1)]
    extract: ExtractKind | None = None
    morale: bool = True  # False: ignores morale, never flees
    specials: list[MonsterSpecial] = []
    actions: Annotated[list[MonsterAction], Field(min_length=1)]
    description: Text | None = None  # the book's lore text
    ruling: str | None = Field(None, pattern=r"^R\d+$")  # not printed: the RULINGS entry that derives the sheet

    @model_validator(mode="after")
    def _consistency(self) -> Monster:
        fearless = any(s.rule == "fearless_undead" for s in self.specials)
        if self.morale == fearless:
            raise ValueError("morale must be false exactly when the enemy has the fearless_undead rule")
        if len(set(self.tags)) != len(self.tags):
            raise ValueError("repeated tag")
        dup = [n for n, c in Counter(a.name.lower() for a in self.actions).items() if c > 1]
        if dup:
            raise ValueError(f"duplicate action names: {dup}")
        return self

    def action(self, name: str) -> MonsterAction:
        for a in self.actions:
            if a.name.lower() == name.lower():
                return a
        raise KeyError(f"{self.name} has no action {name!r}")


class Family(Strict):
    key: FamilyKey
    name: Name
    text: Text | None = None  # the book's introduction to the family, where it has one


class EnemyRules(Strict):
    """Rules shared by every enemy ("Enemies in the Dark", "Taking damage")."""

    text: Text
    common_actions: Annotated[list[MonsterAction], Field(min_length=1)]
    bleed_tags: list[MonsterTag]  # only these can bleed
    evil_tags: Annotated[list[MonsterTag], Field(min_length=1)]  # what Detect Evil shows glowing (RULINGS R194)
    bleed_wound_on_max: int = Field(ge=1, le=5)  # start of turn d6: this or lower takes 1 wound
    test_dice: Literal["level"]  # an enemy test rolls LVL dice
    crit_on_defender_crit_fail: bool
    no_roll_auto_hit: bool  # an adventurer may skip the defence roll; the attack then hits


class BestiaryFile(Strict):
    enemy_rules: EnemyRules
    families: Annotated[list[Family], Field(min_length=1)]
    monsters: Annotated[list[Monster], Field(min_length=1)]

    @model_validator(mode="after")
    def _check(self) -> BestiaryFile:
        dup = [n for n, c in Counter(m.name.lower() for m in self.monsters).items() if c > 1]
        if dup:
            raise ValueError(f"duplicate monster names: {dup}")
        keys = [f.key for f in self.families]
        if len(set(keys)) != len(keys):
            raise ValueError("duplicate family keys")
        missing = {m.family for m in self.monsters} - set(keys)
        if missing:
            raise ValueError(f"families not described: {sorted(missing)}")
        names = {m.name.lower() for m in self.monsters}
        for m in self.monsters:
            for a in m.actions:
                if a.becomes is not None and a.becomes.lower() not in names:
                    raise ValueError(f"{m.name}: {a.name} becomes unknown enemy {a.becomes!r}")
        return self

    @cached_property
    def _by_name(self) -> dict[str, Monster]:
        return {m.name.lower(): m for m in self.monsters}

    def monster(self, name: str) -> Monster:
        """The monster named ``name`` (any case); KeyError if there is none.  By a table: a fight reads the
        enemies' sheets tens of thousands of times."""
        try:
            return self._by_name[name.lower()]
        except KeyError:
            raise KeyError(name) from None


FILES: dict[str, type[Strict]] = {"bestiary.toml": BestiaryFile}
