"""Schemas for character creation: the lifepath tables and the four classes.

``lifepath.toml`` holds the creation rules (starting values, limits) and the five
lifepath tables (infancy, previous career, tragedy, burden, quirks).  A lifepath
row changes the character, so it has its own model (:class:`LifepathRow`) rather
than an :class:`~rules.content.effects.Outcome`.

``classes.toml`` holds the classes (Warrior, Thief, Wizard, Cleric), the warrior
and thief backgrounds with their equipment and combat manoeuvres, the wizard
schools' starting kits and the cleric's equipment options.

Field meanings are documented in ``resources/content/docs/creation.md``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from rules.content.base import AttrCode, Dice, Name, Notation, Strict, Text, UsageDie, check_unique
from rules.content.schema_magic import SchoolName
from rules.content.schema_tables import ArmourType, WeaponClass
from rules.dice import DiceExpr

# --- names used by the book ---------------------------------------------------------------------------------

#: Skills of the book's skill list (core rules, "Skills"), as printed.
BOOK_SKILLS: tuple[str, ...] = (
    "Animal Affinity", "Beastmaster", "Ward the dead", "Cooking", "Master Chef", "Crafting", "Duelist",
    "Swashbuckler", "Fearless", "Haggle", "Trade network", "Holy Rites", "Infiltration", "Intimidate",
    "Loremaster", "Pilfer", "Occult Studies", "Ritualist", "Shield Expert", "Shield Master", "Stalker",
    "Street Wise", "Surgeon", "Survivalist", "Slippery", "Veteran",
)  # fmt: skip

#: Special traits of the book's trait list (core rules, "Special Traits"), as printed.
BOOK_TRAITS: tuple[str, ...] = (
    "Berserker", "Bad omens", "Battle trance", "Cold blood", "Divine mandate", "Hardened", "Magic user",
    "Rejected by death", "Dauntless", "Third eye",
)  # fmt: skip

_SKILLS_LOWER = {s.lower() for s in BOOK_SKILLS}
_TRAITS_LOWER = {t.lower() for t in BOOK_TRAITS}


def _check_names(kind: str, names: list[str], known: set[str]) -> None:
    for n in names:
        if n.lower() not in known:
            raise ValueError(f"unknown {kind} {n!r} (not in the book's {kind} list)")
    lowered = [n.lower() for n in names]
    if len(set(lowered)) != len(lowered):
        raise ValueError(f"{kind} listed twice in one entry: {names}")


ScoreChange = Annotated[int, Field(ge=-3, le=3)]
ProfChange = Annotated[int, Field(ge=1, le=2)]

# --- lifepath.toml ------------------------------------------------------------------------------------------


class CreationRules(Strict):
    """Numbers of the character creation chapter."""

    text: Text
    starting_score: int = Field(ge=0, le=3)  # every attribute score starts here
    starting_proficiency: int = Field(ge=0, le=2)  # every attribute proficiency starts here
    starting_insight: int = Field(ge=0, le=3)
    score_min: int = Field(ge=0, le=0)  # clamp during creation ("ignore any excess points")
    score_max: int = Field(ge=3, le=3)
    proficiency_min: int = Field(ge=0, le=0)
    proficiency_max: int = Field(ge=2, le=2)
    duplicate_skill: Literal["upgrade"]  # "If you get the same skill twice upgrade it instead."
    insight_reroll_cost: int = Field(ge=1, le=1)  # insight spent to re-roll dice of one lifepath roll
    insight_reroll_dice: Literal["any"]  # which dice of that roll may be re-rolled
    same_lifepath_free_rerolls: int = Field(ge=0, le=1)  # same life path as a party member: once, free
    spend_leftover_insight: bool  # insight left at the end may be spent at once
    may_buy_before_first_expedition: bool
    may_sell_before_first_expedition: bool
    burden_uses_per_session: int = Field(ge=1, le=1)
    burden_insight: int = Field(ge=1, le=1)  # insight earned when the burden makes life harder
    burden_text: Text
    quirk_may_be_chosen: bool  # "you can choose this instead of rolling"
    quirk_text: Text

    @model_validator(mode="after")
    def _start_within_limits(self) -> CreationRules:
        if not self.score_min <= self.starting_score <= self.score_max:
            raise ValueError("starting_score outside score_min..score_max")
        if not self.proficiency_min <= self.starting_proficiency <= self.proficiency_max:
            raise ValueError("starting_proficiency outside proficiency_min..proficiency_max")
        return self


class LifepathRow(Strict):
    """One lifepath result and the changes it makes to the character."""

    roll: int = Field(ge=2, le=24)
    name: Name
    text: Text  # the book's description and effect words
    score: dict[AttrCode, ScoreChange] = {}  # attribute score changes (+ or -)
    proficiency: dict[AttrCode, ProfChange] = {}  # proficiency gains
    score_any: int = Field(0, ge=-2, le=2)  # change to an attribute score the player chooses
    proficiency_any: int = Field(0, ge=0, le=2)  # proficiency gain to an attribute the player chooses
    score_highest: int = Field(0, ge=-2, le=0)  # change to the highest attribute score (ties: player's choice)
    proficiency_of_lowest: int = Field(0, ge=0, le=2)  # proficiency gain to the lowest-score attribute
    skills: list[Name] = []
    traits: list[Name] = []
    silver: Dice | None = None
    insight: int = Field(0, ge=0, le=3)
    chosen_only: bool = False  # cannot be rolled; only taken by choice
    rule: str | None = Field(None, pattern=r"^[a-z][a-z0-9_]*$")  # a named rule (quirks), see docs

    @model_validator(mode="after")
    def _known_names(self) -> LifepathRow:
        _check_names("skill", self.skills, _SKILLS_LOWER)
        _check_names("trait", self.traits, _TRAITS_LOWER)
        if any(v == 0 for v in self.score.values()):
            raise ValueError("score changes of 0 must be left out")
        return self


LifepathId = Literal["infancy", "career", "tragedy", "burden", "quirks"]


class LifepathTable(Strict):
    id: LifepathId
    name: Name
    step: int = Field(ge=1, le=5)  # the creation step that rolls it
    dice: Dice
    text: Text  # the book's introduction to the step
    rows: Annotated[list[LifepathRow], Field(min_length=1)]

    @model_validator(mode="after")
    def _covers_dice(self) -> LifepathTable:
        expr = DiceExpr.parse(self.dice)
        rolled = [r.roll for r in self.rows if not r.chosen_only]
        expected = list(range(expr.minimum, expr.maximum + 1))
        if sorted(rolled) != expected:
            missing = sorted(set(expected) - set(rolled))
            extra = sorted(r for r in rolled if r not in expected or rolled.count(r) > 1)
            raise ValueError(f"rolls must cover {self.dice} ({expr.minimum}..{expr.maximum}) exactly once; "
                             f"missing {missing}, duplicated or out of range {sorted(set(extra))}")  # fmt: skip
        for r in self.rows:
            if r.chosen_only and expr.minimum <= r.roll <= expr.maximum:
                raise ValueError(f"row {r.roll} is chosen_only but {self.dice} can roll it")
        rolls = [r.roll for r in self.rows]
        if rolls != sorted(rolls) or len(set(rolls)) != len(rolls):
            raise ValueError("rows must be in roll order without repeats")
        check_unique([r.name for r in self.rows], "row")
        return self

    def lookup(self, total: int) -> LifepathRow:
        for r in self.rows:
            if r.roll == total:
                return r
        raise KeyError(f"{self.id}: no row {total}")


class LifepathFile(Strict):
    rules: CreationRules
    tables: Annotated[list[LifepathTable], Field(min_length=5, max_length=5)]

    @model_validator(mode="after")
    def _all_tables(self) -> LifepathFile:
        ids = [t.id for t in self.tables]
        if ids != ["infancy", "career", "tragedy", "burden", "quirks"]:
            raise ValueError(f"tables must be infancy, career, tragedy, burden, quirks in that order, got {ids}")
        if [t.step for t in self.tables] != [1, 2, 3, 4, 5]:
            raise ValueError("table steps must be 1..5")
        return self

    def table(self, table_id: LifepathId) -> LifepathTable:
        return next(t for t in self.tables if t.id == table_id)


# --- classes.toml -------------------------------------------------------------------------------------------

#: the arsenal levels of character.toml ("Weapon and armor use depends on the character arsenal skill")
Arsenal = Literal["Weapon master", "Basic weapon training", "No weapon training"]
ArmorType = ArmourType
Choice = Literal["background", "manoeuvre", "school", "spells", "equipment_option", "god", "prayers"]
RangeBand = Literal["Close", "Nearby", "Far", "Distant"]


class StartingItem(Strict):
    """An item of a starting kit: a table item (``item``) or one only the kit names (``name`` + ``custom``)."""

    item: Name | None = None  # the item's name in the equipment tables
    name: Name | None = None  # a kit-only item's name
    custom: bool = False
    book: Text  # the book's words for this item in the kit
    count: int = Field(1, ge=1, le=10)
    usage: UsageDie | None = None  # the kit's usage die (absent: the table item's own)
    notes: str | None = None
    ap: int | None = Field(None, ge=1, le=3)  # custom armour points
    armor_type: ArmorType | None = None  # custom armour's type
    attack: Notation | None = None  # custom weapon's attack
    conductor: bool = False
    grimoire: bool = False
    holy_symbol: bool = False

    @model_validator(mode="after")
    def _item_or_custom(self) -> StartingItem:
        if (self.item is None) == (self.name is None):
            raise ValueError("give exactly one of item (a table item) or name (a custom item)")
        if self.custom != (self.name is not None):
            raise ValueError("custom = true goes with name, and only with name")
        if self.item is not None and (self.ap is not None or self.attack is not None or self.armor_type):
            raise ValueError("ap, armor_type and attack are for custom items (table items have their own)")
        if (self.ap is None) != (self.armor_type is None):
            raise ValueError("custom armour needs both ap and armor_type")
        return self

    @property
    def label(self) -> str:
        return self.item or self.name or ""


class Kit(Strict):
    """Starting equipment and silver."""

    equipment: Annotated[list[StartingItem], Field(min_length=1)]
    silver: Dice
    counterfeit: bool = False  # the coins are counterfeit (Moon-curser)

    @model_validator(mode="after")
    def _conductor_items(self) -> Kit:
        check_unique([i.label for i in self.equipment], "equipment item")
        return self


class Manoeuvre(Strict):
    name: Name
    text: Text
    actions: int = Field(ge=0, le=2)  # 0: no action (reaction or free); default 1
    attack: Notation | None = None  # the roll, as printed ("STR 1", "-DEX 1", "PRE")
    weapon_attack: bool = False  # attacks with the (equipped or named) weapon's damage
    test: list[AttrCode] = []  # attributes tested (player's choice among them)
    range: RangeBand | None = None  # absent: Close
    range_tiles: int | None = Field(None, ge=1, le=12)
    reaction: bool = False  # used during the enemy turn / in response to an event
    once_per_combat: bool = False
    once_per_turn: bool = False
    target_requires_tag: list[Name] = []  # only works on enemies with these tags
    target_excludes_tag: list[Name] = []  # does not work on enemies with these tags


class Background(Strict):
    name: Name
    class_name: Literal["Warrior", "Thief"]
    text: Text  # the book's description
    traits: list[Name] = []
    skills: list[Name] = []
    trait_undefined: bool = False  # the book names a trait it never defines (see issues)
    kit: Kit
    equipment_text: Text  # the book's equipment line
    manoeuvres: list[Manoeuvre]
    issues: list[Text] = []  # gaps in the book that need a ruling

    @model_validator(mode="after")
    def _check(self) -> Background:
        _check_names("skill", self.skills, _SKILLS_LOWER)
        if self.trait_undefined:
            if not self.issues:
                raise ValueError("trait_undefined needs an issues entry")
        else:
            _check_names("trait", self.traits, _TRAITS_LOWER)
        check_unique([m.name for m in self.manoeuvres], "manoeuvre")
        if not self.manoeuvres and not self.issues:
            raise ValueError("a background without manoeuvres must say why in issues")
        return self


class School(Strict):
    """A wizard school's starting kit; its spells are in magic.toml under the same name."""

    name: SchoolName
    equipment_text: Text  # the book's line
    kit: Kit

    @model_validator(mode="after")
    def _has_conductor(self) -> School:
        if not any(i.conductor for i in self.kit.equipment):
            raise ValueError("a school kit needs a conductor")
        return self


class EquipmentOption(Strict):
    name: Literal["A", "B", "C"]
    equipment_text: Text
    kit: Kit

    @model_validator(mode="after")
    def _has_symbol(self) -> EquipmentOption:
        if not any(i.holy_symbol for i in self.kit.equipment):
            raise ValueError("a cleric equipment option needs a holy symbol")
        return self


class CharacterClass(Strict):
    name: Literal["Warrior", "Thief", "Wizard", "Cleric"]
    text: Text  # the book's class page
    proficiency: dict[AttrCode, ProfChange]
    traits: list[Name] = []
    skills: list[Name] = []
    arsenal: Arsenal
    arsenal_text: Text  # the class page's weapon/armour words
    weapons: Annotated[list[WeaponClass], Field(min_length=1)]
    armor: list[ArmorType]
    choices: Annotated[list[Choice], Field(min_length=1)]
    manoeuvres_to_choose: int = Field(0, ge=0, le=3)
    spells_known_attr: AttrCode | None = None  # number of spells chosen = this attribute's score
    prayers_known_attr: AttrCode | None = None  # number of prayers chosen = this attribute's score
    equipment_options: list[EquipmentOption] = []

    @model_validator(mode="after")
    def _check(self) -> CharacterClass:
        _check_names("skill", self.skills, _SKILLS_LOWER)
        _check_names("trait", self.traits, _TRAITS_LOWER)
        if ("manoeuvre" in self.choices) != (self.manoeuvres_to_choose > 0):
            raise ValueError("manoeuvre choice and manoeuvres_to_choose go together")
        if ("spells" in self.choices) != (self.spells_known_attr is not None):
            raise ValueError("spells choice and spells_known_attr go together")
        if ("prayers" in self.choices) != (self.prayers_known_attr is not None):
            raise ValueError("prayers choice and prayers_known_attr go together")
        if ("equipment_option" in self.choices) != bool(self.equipment_options):
            raise ValueError("equipment_option choice and equipment_options go together")
        return self


class ClassesFile(Strict):
    text: Text  # the book's "Choose your class" introduction
    manoeuvre_text: Text  # the book's rule for combat manoeuvres
    classes: Annotated[list[CharacterClass], Field(min_length=4, max_length=4)]
    backgrounds: list[Background]
    schools: list[School]

    @model_validator(mode="after")
    def _check(self) -> ClassesFile:
        check_unique([c.name for c in self.classes], "class")
        check_unique([b.name for b in self.backgrounds], "background")
        check_unique([s.name for s in self.schools], "school")
        for c in self.classes:
            if "background" in c.choices and not any(b.class_name == c.name for b in self.backgrounds):
                raise ValueError(f"class {c.name} chooses a background but has none")
        wizard = next(c for c in self.classes if c.name == "Wizard")
        if "school" not in wizard.choices or not self.schools:
            raise ValueError("the Wizard chooses a school and there must be schools")
        return self

    def class_(self, name: str) -> CharacterClass:
        return next(c for c in self.classes if c.name.lower() == name.lower())

    def background(self, name: str) -> Background:
        return next(b for b in self.backgrounds if b.name.lower() == name.lower())


FILES: dict[str, type[Strict]] = {"lifepath.toml": LifepathFile, "classes.toml": ClassesFile}
