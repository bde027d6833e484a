"""Schemas of the equipment files: items, weapons, armour and shields, alchemy.

Transcribed from the core rules v0.6 ("Inventory", "Light", "Equipment",
"Weapons", "Shields", "Armor", "Transmuting").  Every field is documented in
``resources/content/docs/equipment.md``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from rules.content.base import AttrCode, Dice, Name, Notation, Rarity, Strict, Text, UsageDie, check_unique
from rules.content.effects import Outcome
from rules.content.schema_tables import WeaponClass
from rules.dice import DiceExpr
from rules.notation import parse_attack, parse_range


def _check_range(v: str) -> str:
    parse_range(v)
    return v


#: A range as the book writes it: ``"Close"``, ``"Nearby"``, ``"Far"``, ``"Distant"`` or ``"2 tiles"``.
RangeText = Annotated[str, AfterValidator(_check_range)]

ItemTag = Literal["quick", "slow", "camp", "equipment"]
ItemRule = Literal[
    "camp_fire",
    "draw_maps",
    "probe_traps",
    "spike_door",
    "dig",
    "climb",
    "pick_lock",
    "build_trap",
    "navigate",
    "banish_undead",
    "mechanics",
    "identify_or_reveal",
    "miracles",
    "pack_animal",
    "weapon_damage_bonus_expedition",
    "alchemy",
    "grimoire",
]
ArmorType = Literal["cloth", "leather", "heavy"]
ExtractKind = Literal["flame", "water", "smoke", "necro", "rot", "ether"]

RARITY_ORDER: tuple[str, ...] = ("free", "common", "uncommon", "valuable", "rare", "exotic")


# --- items.toml -------------------------------------------------------------------


class RarityCategory(Strict):
    """One item category: its price formula in silver and the book's stated average."""

    name: Rarity
    price: Dice | Literal[0]  # 0: free
    average: int = Field(ge=0, le=200)
    text: Text

    @model_validator(mode="after")
    def _average_near_mean(self) -> RarityCategory:
        mean = 0.0 if self.price == 0 else DiceExpr.parse(self.price).mean
        if abs(self.average - mean) > 0.1 * mean + 0.5:
            raise ValueError(f"average {self.average} is far from the mean {mean} of {self.price}")
        return self


class Container(Strict):
    """Inventory space an item (or a carrying place) gives."""

    slots: int = Field(ge=1, le=10)
    liquid_only: bool = False  # a canteen or skin: liquids only


class Light(Strict):
    """A light source: how far it lights and for how many decays."""

    range: Literal["Close", "Nearby"]
    usage_die: UsageDie | None = None  # tested at every decay
    decays: int | None = Field(None, ge=1, le=3)  # a fixed duration instead (light spell)
    fuel: Name | None = None  # item used to refuel ("Oil")
    quick_toggle: bool = False  # quick to turn on and off (lantern)

    @model_validator(mode="after")
    def _one_duration(self) -> Light:
        if (self.usage_die is None) == (self.decays is None):
            raise ValueError("a light lasts either a usage die or a fixed number of decays")
        return self


class Attack(Strict):
    """An attack an item makes (holy water)."""

    notation: Notation
    range: RangeText = "Close"
    targets: list[Literal["undead", "living", "ghost", "goblin", "voidspawn", "human"]] = []  # empty: any
    thrown: bool = False


class Repair(Strict):
    """Armour repair kits: AP restored per use and which armour types."""

    ap: int = Field(ge=1, le=3)
    armor_types: Annotated[list[ArmorType], Field(min_length=1)]


class Item(Strict):
    name: Name
    rarity: Rarity
    text: Text
    tags: list[ItemTag] = []
    big: bool = False
    extra_slots: int = Field(0, ge=0, le=2)
    usage_die: UsageDie | None = None
    pack: int | None = Field(None, ge=2, le=12)
    per_slot: int = Field(1, ge=1, le=4)  # units that share one slot ("2 units of water can fit one slot")
    liquid: bool = False
    food: Literal["ration", "special_ration"] | None = None
    cooked_feeds: int | None = Field(None, ge=1, le=4)
    cooked_feeds_with_cooking: int | None = Field(None, ge=1, le=4)
    container: Container | None = None
    light: Light | None = None
    fuel_for: Name | None = None
    rope_m: int | None = Field(None, ge=1, le=50)
    effects: list[Outcome] = []  # what using (drinking, applying) it does; all apply
    attack: Attack | None = None
    repair: Repair | None = None
    trap: Outcome | None = None  # what a trap built with it does to whoever steps on it
    bonus_dice: int = Field(0, ge=0, le=3)  # extra dice to the roll named by ``rule``
    damage_bonus: int = Field(0, ge=0, le=3)
    spell_capacity: int | None = Field(None, ge=1, le=10)
    upkeep: Text | None = None
    rule: ItemRule | None = None

    @model_validator(mode="after")
    def _consistency(self) -> Item:
        if self.big != (self.extra_slots > 0):
            raise ValueError("big items occupy extra slots and only they do")
        if len(set(self.tags)) != len(self.tags):
            raise ValueError("repeated tag")
        if self.food is not None and "ration" not in self.name.lower():
            raise ValueError("only rations are food")
        if self.light is not None and self.usage_die is not None:
            raise ValueError("a light source keeps its usage die in light.usage_die")
        return self


class CarryPlace(Strict):
    """A place where items are carried (Inventory rules)."""

    name: Name
    slots: int = Field(ge=1, le=10)
    liquid_only: bool = False
    text: Text


class InventoryRules(Strict):
    text: Text
    base_slots: int = Field(ge=0, le=20)
    slots_per_str: int = Field(ge=0, le=5)
    encumbered_movement: Literal["half"]
    encumbered_test: AttrCode  # every turn; failing drops something
    containers: Annotated[list[CarryPlace], Field(min_length=1)]
    starting_containers: Annotated[list[Name], Field(min_length=1)]
    torso_slots: int = Field(ge=1, le=8)
    hand_slots: int = Field(ge=1, le=4)  # per hand
    hands: int = Field(ge=2, le=2)
    wielded_per_hand: int = Field(ge=1, le=2)
    carried_per_hand: int = Field(ge=1, le=4)
    awkward_extra_slots: int = Field(ge=1, le=2)  # oversized, fragile, unstable...
    tiny_items_free: bool
    clothes_free: bool
    torso_holds: list[Literal["armor", "helmet"]]

    @model_validator(mode="after")
    def _starting_known(self) -> InventoryRules:
        names = {c.name.lower() for c in self.containers}
        missing = [s for s in self.starting_containers if s.lower() not in names]
        if missing:
            raise ValueError(f"starting containers not listed: {missing}")
        return self


class LightSource(Strict):
    """A row of the Light list."""

    name: Name
    range: Literal["Close", "Nearby"]
    usage_die: UsageDie | None = None
    decays: int | None = Field(None, ge=1, le=3)
    fuel: Name | None = None
    text: Text

    @model_validator(mode="after")
    def _one_duration(self) -> LightSource:
        if (self.usage_die is None) == (self.decays is None):
            raise ValueError("a light lasts either a usage die or a fixed number of decays")
        return self


class ItemsFile(Strict):
    rarities: Annotated[list[RarityCategory], Field(min_length=6, max_length=6)]
    inventory: InventoryRules
    light_sources: Annotated[list[LightSource], Field(min_length=1)]
    darkness: Outcome  # ending a turn in the dark
    items: Annotated[list[Item], Field(min_length=1)]

    @model_validator(mode="after")
    def _check(self) -> ItemsFile:
        if [r.name for r in self.rarities] != list(RARITY_ORDER):
            raise ValueError(f"rarities must be {RARITY_ORDER} in order")
        check_unique([i.name for i in self.items], "item")
        check_unique([s.name for s in self.light_sources], "light source")
        names = {i.name.lower() for i in self.items}
        for i in self.items:
            for ref in (i.fuel_for, i.light.fuel if i.light else None):
                if ref is not None and ref.lower() not in names:
                    raise ValueError(f"{i.name}: unknown item {ref!r}")
        return self


# --- weapons.toml ---------------------------------------------------------------


class WeaponEffect(Strict):
    symbol: Literal["B", "P", "R", "N"]
    text: Text


WeaponRule = Literal[
    "flail_self_hit",
    "dodge_token_on_hit",
    "breaks_when_fully_reduced",
    "stun_if_unarmored",
    "stun_on_six",
    "str_throw_coin_flip",
    "str_melee",
    "thrown",
]


class Weapon(Strict):
    name: Name
    notation: Notation
    rarity: Rarity
    weapon_class: WeaponClass  # for the arsenal rule (character.toml)
    hands: Literal[1, 2] = 1
    one_handed_penalty: int = Field(0, ge=0, le=1)  # dice fewer when a 2-handed weapon is used with 1 hand
    range: RangeText = "Close"
    reach_diagonal: bool = False
    close_notation: Notation | None = None  # used instead when hitting a Close tile
    reload_actions: int = Field(0, ge=0, le=3)
    needs: Name | None = None  # ammunition
    ignore_shield_tokens: bool = False
    dual_wield_notation: Notation | None = None
    impact: bool = False  # a blunt weapon: chainmail does not protect against it (ruling)
    special: Text | None = None  # the book's special rules, as printed
    rules: list[WeaponRule] = []

    @model_validator(mode="after")
    def _consistency(self) -> Weapon:
        if self.one_handed_penalty and self.hands != 2:
            raise ValueError("only two-handed weapons have a one-handed penalty")
        if (self.special is None) != (
            self.hands == 1
            and not self.rules
            and self.range == "Close"
            and not self.reach_diagonal
            and not self.ignore_shield_tokens
            and self.close_notation is None
            and self.dual_wield_notation is None
            and not self.reload_actions
            and self.needs is None
        ):
            raise ValueError("special text and special fields must go together")
        if len(set(self.rules)) != len(self.rules):
            raise ValueError("repeated rule")
        if (self.weapon_class == "two_handed_melee") != (self.hands == 2 and self.range in ("Close", "2 tiles")):
            raise ValueError("two_handed_melee is the class of two-handed melee weapons, and only theirs")
        base = parse_attack(self.notation)
        for alt in (self.close_notation, self.dual_wield_notation):
            if alt is not None and parse_attack(alt).attributes != base.attributes:
                raise ValueError(f"{alt!r} tests another attribute than {self.notation!r}")
        return self


class WeaponsFile(Strict):
    default_hands: Literal[1]
    default_hands_text: Text
    weapon_effects: Annotated[list[WeaponEffect], Field(min_length=4, max_length=4)]
    weapons: Annotated[list[Weapon], Field(min_length=1)]

    @model_validator(mode="after")
    def _check(self) -> WeaponsFile:
        check_unique([w.name for w in self.weapons], "weapon")
        if sorted(e.symbol for e in self.weapon_effects) != ["B", "N", "P", "R"]:
            raise ValueError("weapon effects must be B, P, R and N once each")
        return self


# --- armor.toml -----------------------------------------------------------------

ShieldRule = Literal["same_hand_as_weapon"]
ArmorRule = Literal[
    "worn_with_other_armor",
    "under_heavy_armor",
    "four_does_not_break",
    "not_vs_impact",
    "dex_dice_minus_one",
    "breaks_exactly_one",
]


class Shield(Strict):
    name: Name
    tokens: int = Field(ge=1, le=3)
    rarity: Rarity
    text: Text | None = None  # the book's special effect
    break_risk: int | None = Field(None, ge=1, le=6)  # risk dice rolled when shield tokens are used
    no_dodge: bool = False
    same_hand_as_weapon: bool = False
    big: bool = False
    slots: int = Field(1, ge=1, le=2)
    spikes_wound: int = Field(0, ge=0, le=2)  # wounds to a melee attacker when blocking

    @model_validator(mode="after")
    def _consistency(self) -> Shield:
        if self.big != (self.slots > 1):
            raise ValueError("big shields occupy 2 slots")
        flagged = self.break_risk or self.no_dodge or self.same_hand_as_weapon or self.big or self.spikes_wound
        if bool(flagged) != (self.text is not None):
            raise ValueError("special text and special fields must go together")
        return self


class Armor(Strict):
    name: Name
    ap: Annotated[list[Annotated[int, Field(ge=1, le=3)]], Field(min_length=1, max_length=2)]  # one number per part
    type: ArmorType
    metal: bool  # made of metal (Machine spirit fixes "metal armor", RULINGS R192); every piece says
    helmet: bool = False
    slots: int = Field(1, ge=1, le=2)
    rarity: Rarity
    text: Text | None = None  # the book's special effect
    dex_dice_penalty: int = Field(0, ge=0, le=1)
    rules: list[ArmorRule] = []

    @model_validator(mode="after")
    def _consistency(self) -> Armor:
        if bool(self.rules) != (self.text is not None):
            raise ValueError("special text and rule tags must go together")
        if ("dex_dice_minus_one" in self.rules) != (self.dex_dice_penalty == 1):
            raise ValueError("dex_dice_minus_one and dex_dice_penalty go together")
        return self

    @property
    def total_ap(self) -> int:
        return sum(self.ap)


class ArmorFile(Strict):
    shields: Annotated[list[Shield], Field(min_length=1)]
    armor: Annotated[list[Armor], Field(min_length=1)]

    @model_validator(mode="after")
    def _check(self) -> ArmorFile:
        check_unique([s.name for s in self.shields] + [a.name for a in self.armor], "shield/armour")
        return self


# --- alchemy.toml ---------------------------------------------------------------


class Extract(Strict):
    name: Name
    kind: ExtractKind
    yig: int = Field(ge=-3, le=3)
    grai: int = Field(ge=-3, le=3)


class Recipe(Strict):
    name: Name
    yig: int = Field(ge=-6, le=6)
    grai: int = Field(ge=-6, le=6)
    rarity: Rarity  # the potion's rarity at the market (RULINGS R196)
    text: Text
    usage_die: UsageDie | None = None
    duration_usage_die: UsageDie | None = None  # "this and the next Ud4 turns"
    range: RangeText | None = None  # thrown potions
    effects: Annotated[list[Outcome], Field(min_length=1)]


class AlchemyRules(Strict):
    text: Text
    different_extracts_per_slot: int = Field(ge=1, le=4)
    same_type_stacks: bool
    extraction_requires: Name
    extraction_turns: int = Field(ge=1, le=3)
    extra_corpses_per_int_proficiency: int = Field(ge=0, le=3)
    transmute_requires: list[Name]
    transmute_combat_actions: int = Field(ge=1, le=3)
    transmute_exploration_turns: int = Field(ge=0, le=3)
    transmute_camp_free: bool


class AlchemyFile(Strict):
    rules: AlchemyRules
    extracts: Annotated[list[Extract], Field(min_length=6, max_length=6)]
    recipes: Annotated[list[Recipe], Field(min_length=1)]

    @model_validator(mode="after")
    def _check(self) -> AlchemyFile:
        check_unique([e.name for e in self.extracts], "extract")
        check_unique([r.name for r in self.recipes], "recipe")
        if sorted(e.kind for e in self.extracts) != sorted(ExtractKind.__args__):  # type: ignore[attr-defined]
            raise ValueError("every extract kind exactly once")
        return self


FILES: dict[str, type[Strict]] = {
    "items.toml": ItemsFile,
    "weapons.toml": WeaponsFile,
    "armor.toml": ArmorFile,
    "alchemy.toml": AlchemyFile,
}
