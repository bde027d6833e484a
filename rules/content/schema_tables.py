"""Schemas of ``character.toml`` (skills, traits, traumas, afflictions, arsenal, insight) and
``tables.toml`` (decay, omens, mortal wounds, ranges, test constants, camp, exploration and
combat actions).

Transcribed from *Dead Weight* v0.6 (core rules) and the later expedition chapter, which wins
where they differ.  Every field is documented in ``resources/content/docs/tables.md``.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from rules.content.base import AttrCode, Dice, Name, Notation, Strict, Text, check_unique
from rules.content.effects import AFFLICTIONS, Affliction, Outcome, RollTable, TableRow
from rules.dice import DiceExpr

#: a snake_case tag naming a rule the engine implements by name
RuleTag = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=60)]
RangeBand = Literal["close", "nearby", "far", "distant"]

#: weapon classes of the arsenal rule (weapons data tags each weapon with one of these)
WeaponClass = Literal["small_one_handed", "one_handed_melee", "two_handed_melee", "staff", "ranged"]
WEAPON_CLASSES: tuple[str, ...] = WeaponClass.__args__  # type: ignore[attr-defined]
#: armour types as the Armor table prints them (Cloth, Leather, Heavy)
ArmourType = Literal["cloth", "leather", "heavy"]
ARMOUR_TYPES: tuple[str, ...] = ArmourType.__args__  # type: ignore[attr-defined]

#: what removes an affliction (the "Getting rid of" column, as tags)
RemovalTag = Literal[
    "eating",
    "drinking_water",
    "bandages",
    "first_aid",
    "camping",
    "coffee",
    "wound_in_combat",
    "tea",
    "hot_chocolate",
    "rest_in_camp",
    "potion",
    "interlude",
    "wine",
    "defeat_challenging_foe",
    "escape_dungeon",
    "survive_challenging_fight",
    "magic",
    "miracle",
]
#: what an affliction forbids
BlockTag = Literal[
    "wound_healing",
    "wound_healing_by_rest",
    "fatigue_recovery",
    "extra_effort",
    "helping",
    "proficiency_rerolls",
    "catch_breath",
]

SmallInt = Annotated[int, Field(ge=0, le=3)]


# --------------------------------------------------------------------------- character.toml


class Skill(Strict):
    """A skill of the Skills list (both lists of the book merged; the quick reference is complete)."""

    name: Name
    text: Text
    advanced_of: Name | None = None  # the basic skill this one upgrades (and replaces)
    rule: RuleTag
    aliases: list[Name] = []  # other spellings used by life paths and classes
    # how it is used
    test_attr: AttrCode | None = None  # attribute tested to use it
    action_name: Name | None = None  # the action it adds ("Feint", "Intimidate")
    exploration_turns: int | None = Field(None, ge=1, le=3)  # cost in exploration turns
    combat_actions: int | None = Field(None, ge=1, le=2)  # cost in combat actions
    camp_actions: int | None = Field(None, ge=1, le=2)  # cost in camp actions
    uses_per_combat: int | None = Field(None, ge=1, le=3)
    attack: Notation | None = None
    attack_range: RangeBand | None = None
    targets: Literal["all_enemies", "enemy", "party", "self"] | None = None
    # numbers of the text
    advantage_on: list[RuleTag] = []  # situations in which tests have advantage
    radius_m: float | None = Field(None, gt=0, le=10)
    heal_wounds: SmallInt = 0
    heal_attrs: list[AttrCode] = []  # empty: any attribute
    extra_fed_per_ration: SmallInt = 0  # extra adventurers fed by a cooked ration
    free_rations_interlude: int = Field(0, ge=0, le=5)  # free rations at the start of the interlude
    armour_repair_camp: int = Field(0, ge=0, le=5)  # armour points repaired automatically in camp
    price_rerolls: SmallInt = 0  # item price rerolls per interlude
    price_reroll_keep_either: bool = False  # False: the new result must be used
    availability_rerolls: SmallInt = 0
    interlude_silver: Dice | None = None  # silver earned at the start of the interlude
    remove_omens_or_doom: SmallInt = 0  # points removed from the omens or doom tracker
    extra_shield_tokens: SmallInt = 0  # when defending
    moving_keeps_shield_tokens: bool = False
    extra_daily_actions: SmallInt = 0  # interlude actions per day
    common_price_reduction: SmallInt = 0  # silver off common items
    min_price: int | None = Field(None, ge=0, le=5)
    no_robbery: bool = False  # does not get robbed in the interlude
    extra_camp_actions: SmallInt = 0
    extra_proficiency: SmallInt = 0  # proficiency points added, in advantage_on situations
    move_tiles: SmallInt = 0  # tiles moved by the skill's effect
    free_critical_hit: bool = False
    discards_enemy_tokens: bool = False  # the feint
    companion: str | None = None  # "medium ally"
    reveals_doom: bool = False

    @model_validator(mode="after")
    def _checks(self) -> Skill:
        if self.attack is not None and self.attack_range is None:
            raise ValueError("an attack needs attack_range")
        if self.advanced_of is not None and self.advanced_of.casefold() == self.name.casefold():
            raise ValueError("a skill cannot be the advanced form of itself")
        return self


class Trait(Strict):
    """A special trait."""

    name: Name
    text: Text
    rule: RuleTag
    aliases: list[Name] = []
    test_attr: AttrCode | None = None
    risk_dice: int = Field(0, ge=0, le=6)  # Rejected by death: 2d!
    extra_dice: SmallInt = 0  # Dauntless: 2 extra dice after a success
    extra_wounds: SmallInt = 0  # Cold blood: one extra wound
    resist_wounds_success: SmallInt = 0  # Hardened
    resist_wounds_great: SmallInt = 0  # Hardened
    extra_actions_per_kill: SmallInt = 0  # Battle trance
    omens_per_critical_fail: SmallInt = 0  # Bad omens
    ignore_attrs_in_combat: list[AttrCode] = []  # Berserker: fatigue and wounds ignored when testing
    casts: Literal["spells", "prayers"] | None = None
    requires_item: Name | None = None  # "holy symbol", "magic conductor"
    dex_instead_of_str: bool = False  # Cold blood back-stab
    ignores_resistance: bool = False  # Cold blood
    sees_omens: bool = False  # Third eye

    @model_validator(mode="after")
    def _checks(self) -> Trait:
        if self.casts is not None and self.requires_item is None:
            raise ValueError("a casting trait names its required item")
        return self


class Trauma(Strict):
    name: Name
    text: Text
    rule: RuleTag
    arms_lost: SmallInt = 0  # Broken arm
    movement_tiles: int | None = Field(None, ge=0, le=6)  # combat movement limit (Broken leg)
    move_action_cost: int | None = Field(None, ge=1, le=2)  # actions a combat move costs
    needs_aid_to_explore: bool = False  # help or a cane to move during exploration
    score_reduction: SmallInt = 0  # attribute score points lost (not from a zero score)
    proficiency_reduction: SmallInt = 0
    no_help_received: bool = False
    ambush_dice: int = Field(0, ge=-2, le=2)
    knockback_tiles: SmallInt = 0  # Fearful: moves back when attacked
    stun_tokens: SmallInt = 0
    trigger_range: RangeBand | None = None  # Visions: a spell cast nearby


class AfflictionEntry(Strict):
    name: Affliction  # the book's name in lower case
    cure: Text  # the "Getting rid of" column
    effect: Text
    rule: RuleTag
    removed_by: Annotated[list[RemovalTag], Field(min_length=1)]
    permanent_until_magic: bool = False
    blocks: list[BlockTag] = []
    fatigue_per_turn: SmallInt = 0  # Bleeding
    combat_actions_lost: SmallInt = 0  # Nauseated
    success_faces_lost: list[Annotated[int, Field(ge=1, le=6)]] = []  # Terrified: 4 is no success
    fatigue_faces_added: list[Annotated[int, Field(ge=1, le=6)]] = []  # Hopeless: 5 and 6 cause fatigue
    fatigue_becomes_wound: bool = False  # Plagued
    extra_doom_per_move: SmallInt = 0  # Doomed
    sees_ghosts: bool = False  # Cursed

    @model_validator(mode="after")
    def _permanent(self) -> AfflictionEntry:
        magic = {"magic", "miracle"}
        if self.permanent_until_magic and not set(self.removed_by) <= magic:
            raise ValueError("a permanent affliction is removed only by magic or miracles")
        if not self.permanent_until_magic and set(self.removed_by) <= magic:
            raise ValueError("removed only by magic or miracles: set permanent_until_magic")
        return self


class ArsenalLevel(Strict):
    name: Name
    text: Text
    rank: int = Field(ge=0, le=2)  # 0 none, 1 basic, 2 master
    any_weapon_or_armour: bool = False
    weapon_classes: list[WeaponClass]
    armour_types: list[ArmourType]

    @model_validator(mode="after")
    def _any(self) -> ArsenalLevel:
        if self.any_weapon_or_armour and (
            set(self.weapon_classes) != set(WEAPON_CLASSES) or set(self.armour_types) != set(ARMOUR_TYPES)
        ):
            raise ValueError("any_weapon_or_armour lists every weapon class and armour type")
        return self


class Arsenal(Strict):
    text: Text
    untrained_penalty: Literal["disadvantage"]
    untrained_applies_to: Literal["all_tests"]
    shields_restricted: bool  # does the arsenal rule govern shields?
    levels: Annotated[list[ArsenalLevel], Field(min_length=3, max_length=3)]

    @model_validator(mode="after")
    def _ranks(self) -> Arsenal:
        if sorted(lv.rank for lv in self.levels) != [0, 1, 2]:
            raise ValueError("arsenal levels have ranks 0, 1 and 2")
        by_rank = sorted(self.levels, key=lambda lv: lv.rank)
        for lower, higher in pairwise(by_rank):
            if not set(lower.weapon_classes) <= set(higher.weapon_classes):
                raise ValueError(f"{higher.name} must permit every weapon {lower.name} permits")
            if not set(lower.armour_types) <= set(higher.armour_types):
                raise ValueError(f"{higher.name} must permit every armour {lower.name} permits")
        return self


class InsightSpend(Strict):
    name: Name
    text: Text
    cost: int = Field(ge=1, le=4)
    rule: RuleTag


class Insight(Strict):
    text: Text
    start: int = Field(ge=0, le=3)
    max: int = Field(ge=1, le=20)  # insight bar circles; full: no more insight, may retire
    spends: Annotated[list[InsightSpend], Field(min_length=1)]

    @model_validator(mode="after")
    def _names_unique(self) -> Insight:
        check_unique([s.name for s in self.spends], "insight spend")
        check_unique([s.rule for s in self.spends], "insight rule")
        return self


class CharacterFile(Strict):
    """``character.toml``."""

    skills: Annotated[list[Skill], Field(min_length=1)]
    traits: Annotated[list[Trait], Field(min_length=1)]
    traumas: Annotated[list[Trauma], Field(min_length=1)]
    afflictions: Annotated[list[AfflictionEntry], Field(min_length=12, max_length=12)]
    arsenal: Arsenal
    insight: Insight

    @field_validator("skills")
    @classmethod
    def _skills(cls, v: list[Skill]) -> list[Skill]:
        check_unique([s.name for s in v] + [a for s in v for a in s.aliases], "skill name or alias")
        check_unique([s.rule for s in v], "skill rule")
        skills = {s.name.casefold(): s for s in v}
        for s in v:
            if s.advanced_of is None:
                continue
            basic = skills.get(s.advanced_of.casefold())
            if basic is None:
                raise ValueError(f"skill {s.name!r}: advanced_of names no skill: {s.advanced_of!r}")
            if basic.advanced_of is not None:
                raise ValueError(f"skill {s.name!r}: {basic.name!r} is itself advanced")
        return v

    @field_validator("traits")
    @classmethod
    def _traits(cls, v: list[Trait]) -> list[Trait]:
        check_unique([t.name for t in v] + [a for t in v for a in t.aliases], "trait name or alias")
        check_unique([t.rule for t in v], "trait rule")
        return v

    @field_validator("traumas")
    @classmethod
    def _traumas(cls, v: list[Trauma]) -> list[Trauma]:
        check_unique([t.name for t in v], "trauma")
        check_unique([t.rule for t in v], "trauma rule")
        return v

    @field_validator("afflictions")
    @classmethod
    def _afflictions(cls, v: list[AfflictionEntry]) -> list[AfflictionEntry]:
        if sorted(a.name for a in v) != sorted(AFFLICTIONS):
            raise ValueError("afflictions must list each of the 12 afflictions once")
        return v

    @model_validator(mode="after")
    def _cross(self) -> CharacterFile:
        skills = {s.name.casefold() for s in self.skills} | {a.casefold() for s in self.skills for a in s.aliases}
        for t in self.traits:
            for n in [t.name, *t.aliases]:
                if n.casefold() in skills:
                    raise ValueError(f"trait {t.name!r}: {n!r} is also a skill name")
        return self


# --------------------------------------------------------------------------- tables.toml


class AmountRow(TableRow):
    """A table row with an amount of things (``"2d4"`` items broken or discarded)."""

    amount: Dice | None = None


class AmountTable(RollTable):
    """A :class:`RollTable` whose rows may carry an ``amount``."""

    rows: Annotated[list[AmountRow], Field(min_length=1)]  # type: ignore[assignment]


def _single_rows(table: RollTable) -> None:
    """Every result of the dice has a row of its own (decay, omens)."""
    expr = DiceExpr.parse(table.dice)
    got = [(r.min, r.max) for r in table.rows]
    want = [(v, v) for v in range(expr.minimum, expr.maximum + 1)]
    if got != want:
        raise ValueError(f"{table.name}: one row per result {expr.minimum}..{expr.maximum} expected")


class DecayDuplicate(Strict):
    """What to do when a decay result gives an affliction the character already has."""

    text: Text
    step: int = Field(ge=1, le=1)  # add this to the result until a valid result is reached
    top: int = Field(ge=2, le=12)  # results past this (impossible by the book) use this row
    roll_light_usage_after: bool  # roll the usage dice of torches, lanterns, etc. after decay


class OmensShortfall(Strict):
    text: Text
    omens: int = Field(ge=0, le=1)  # omens tracker steps added, once, when an omen can't be fully paid


class MortalWoundRules(Strict):
    text: Text
    modifier_per_previous: int = Field(ge=1, le=1)  # + previous mortal wounds this expedition
    stabilise_with: list[Name]
    stabilise_turns_on_6: int = Field(ge=1, le=1)  # combat turns to stabilise on a 6
    duplicate_trauma_ignored: bool
    can_act: bool


class RangeEntry(Strict):
    name: Literal["Close", "Nearby", "Far", "Distant"]
    text: Text
    min_tiles: int = Field(ge=0, le=13)
    max_tiles: int | None = Field(None, ge=1, le=12)  # None: unlimited
    meters: float | None = Field(None, gt=0, le=20)  # None: "more than 20m"
    diagonal: bool

    @model_validator(mode="after")
    def _span(self) -> RangeEntry:
        if self.max_tiles is not None and self.max_tiles < self.min_tiles:
            raise ValueError("max_tiles below min_tiles")
        return self


class TestConstants(Strict):
    text: Text
    success_faces: list[Annotated[int, Field(ge=1, le=6)]]
    great_success_sixes: int = Field(ge=2, le=2)
    critical_failure_face: int = Field(ge=1, le=1)
    fatigue_faces: list[Annotated[int, Field(ge=1, le=6)]]
    fatigue_per_test: int = Field(ge=1, le=1)
    checks_cause_fatigue: bool
    keep_it_safe_dice: int = Field(ge=-2, le=-2)
    extra_effort_dice: int = Field(ge=1, le=1)
    extra_effort_fatigue: int = Field(ge=1, le=1)
    zero_dice_roll: int = Field(ge=2, le=2)  # roll this many, keep the lowest
    negative_dice_roll_base: int = Field(ge=2, le=2)  # n < 0: roll base + |n|, keep the lowest
    auto_fail_at_or_below: int = Field(ge=-2, le=-2)  # optional GM shortcut
    max_shield_tokens: int = Field(ge=5, le=5)
    max_helpers: int = Field(ge=1, le=1)
    help_dice: int = Field(ge=1, le=1)
    help_dice_extra_effort: int = Field(ge=2, le=2)

    @model_validator(mode="after")
    def _faces(self) -> TestConstants:
        if self.success_faces != [4, 5, 6] or self.fatigue_faces != [1, 4]:
            raise ValueError("success faces are 4, 5, 6 and fatigue faces 1 and 4")
        return self


class CampSetup(Strict):
    name: Name
    text: Text
    actions: int = Field(ge=-1, le=2)
    per: Literal["camp", "camping_supply", "survivalist"]  # counted once, per supply used, per adventurer
    requires: list[RuleTag] = []
    long_rest: bool = False


class CampAction(Strict):
    name: Name
    text: Text
    cost: int = Field(ge=0, le=2)  # camp actions
    ambush_dice: int = Field(0, ge=-1, le=1)
    requires: list[RuleTag] = []
    per_adventurer: bool = False  # each adventurer may do it once for this cost
    feeds_per_ration: int | None = Field(None, ge=1, le=2)  # Cook: cooked ration feeds this many
    outcome: Outcome | None = None


class AmbushSource(Strict):
    name: Name
    text: Text
    dice: int = Field(ge=-1, le=1)


class Ambush(Strict):
    text: Text
    sources: Annotated[list[AmbushSource], Field(min_length=1)]
    combat_on_sixes: int = Field(ge=1, le=1)
    surprised_on_sixes: int = Field(ge=2, le=2)


class BreakCamp(Strict):
    text: Text
    doom: int = Field(ge=1, le=1)
    doom_after_long_rest: int = Field(ge=2, le=2)


class Camp(Strict):
    text: Text
    exploration_turns: int = Field(ge=1, le=1)  # the whole camp phase
    setup: Annotated[list[CampSetup], Field(min_length=6, max_length=6)]
    actions: Annotated[list[CampAction], Field(min_length=7, max_length=7)]
    ambush: Ambush
    break_camp: BreakCamp

    @model_validator(mode="after")
    def _names_unique(self) -> Camp:
        check_unique([s.name for s in self.setup], "camp setup")
        check_unique([a.name for a in self.actions], "camp action")
        return self


class ExplorationAction(Strict):
    name: Name
    text: Text
    turns: int = Field(ge=0, le=1)  # 0: free
    more_turns_possible: bool = False  # "1 or more turns", or long distances
    test_attr: AttrCode | None = None
    requires: list[RuleTag] = []
    doom: int = Field(0, ge=0, le=2)
    outcome: Outcome | None = None
    rule: RuleTag


class CombatAction(Strict):
    name: Name
    text: Text
    actions: int = Field(ge=1, le=2)
    actions_max: int | None = Field(None, ge=2, le=2)  # "1 or 2 actions"
    test_attr: AttrCode | None = None
    requires: list[RuleTag] = []
    tiles_per_available_dex: int | None = Field(None, ge=2, le=2)  # Move
    dodge_tokens: SmallInt = 0
    dodge_tokens_great: SmallInt = 0
    outcome: Outcome | None = None
    rule: RuleTag


class Combat(Strict):
    text: Text
    actions_per_turn: int = Field(ge=2, le=2)
    initiative_attr: AttrCode
    exploration_turns: int = Field(ge=1, le=1)  # the whole combat
    default_range: RangeBand


class TablesFile(Strict):
    """``tables.toml``."""

    decay_steps: int = Field(ge=6, le=6)
    decay: RollTable
    decay_duplicate: DecayDuplicate
    omens_tracker_size: Dice
    omens_per_doom_effect: int = Field(ge=1, le=1)
    omens: AmountTable
    omens_shortfall: OmensShortfall
    mortal_wounds: RollTable
    mortal_wound_rules: MortalWoundRules
    ranges: Annotated[list[RangeEntry], Field(min_length=4, max_length=4)]
    tests: TestConstants
    camp: Camp
    exploration_actions: Annotated[list[ExplorationAction], Field(min_length=1)]
    combat: Combat
    combat_actions: Annotated[list[CombatAction], Field(min_length=1)]

    @field_validator("decay")
    @classmethod
    def _decay(cls, v: RollTable) -> RollTable:
        if v.dice != "2d6":
            raise ValueError("decay is rolled on 2d6")
        _single_rows(v)
        return v

    @field_validator("omens")
    @classmethod
    def _omens(cls, v: AmountTable) -> AmountTable:
        if v.dice != "1d6":
            raise ValueError("omens are rolled on 1d6")
        _single_rows(v)
        return v

    @field_validator("mortal_wounds")
    @classmethod
    def _mortal(cls, v: RollTable) -> RollTable:
        if v.dice != "1d6":
            raise ValueError("mortal wounds are rolled on 1d6")
        if v.rows[0].min is not None or v.rows[-1].max is not None:
            raise ValueError("mortal wounds: the first row is open-low (0-) and the last open-high (7+)")
        return v

    @field_validator("ranges")
    @classmethod
    def _ranges(cls, v: list[RangeEntry]) -> list[RangeEntry]:
        if [r.name for r in v] != ["Close", "Nearby", "Far", "Distant"]:
            raise ValueError("ranges are Close, Nearby, Far, Distant in that order")
        for a, b in pairwise(v):
            if a.max_tiles is None or b.min_tiles != a.max_tiles + 1:
                raise ValueError(f"range {b.name} must start right after {a.name}")
        return v

    @field_validator("exploration_actions", "combat_actions")
    @classmethod
    def _actions(cls, v: list[ExplorationAction] | list[CombatAction]) -> list[ExplorationAction] | list[CombatAction]:
        check_unique([a.name for a in v], "action")
        check_unique([a.rule for a in v], "action rule")
        return v


FILES: dict[str, type[Strict]] = {"character.toml": CharacterFile, "tables.toml": TablesFile}
