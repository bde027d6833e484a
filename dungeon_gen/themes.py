"""Themes of the dungeon generator: the words and tables a dungeon is drawn from.

Each ``resources/dungeon/themes/<id>.toml`` is one theme (a necromancer's
tomb, a goblin warren, ...), validated as a whole by :class:`Theme` through
:func:`rules.content.base.load_toml`: unknown keys, missing fields, lists
shorter than their minimum, malformed attack notation and dice, and unknown
``{placeholders}`` are refused with the file, the entry and the field named.

:func:`load_themes` then checks every theme against the game's content
(:func:`rules.content.registry.load_content`): each monster is in the
bestiary at a level that suits the entry's level window, each item is in the
item, weapon, armour or shield tables, each affliction and settlement exists,
and each valuable's value is in line with its rarity.  Those problems are
reported in the same "file: entry: field: message" form.

Every field is documented in ``resources/dungeon/themes/README.md``.
"""

from __future__ import annotations

import difflib
import re
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, get_args

from pydantic import AfterValidator, Field, model_validator

from dungeon_gen.model import Reward
from rules.content.base import ContentError, Dice, Notation, Rarity, Strict, check_unique, load_toml, resources_dir
from rules.dice import DiceExpr

if TYPE_CHECKING:
    from rules.content.registry import Content

# --- shared field types ---------------------------------------------------------------------

Attr = Literal["STR", "DEX", "INT", "PRE"]
Role = Literal["minion", "elite", "boss"]
Style = Literal["halls", "caves"]
Size = Literal["small", "medium", "large", "huge"]
CampQuality = Literal["safe", "dry", "filthy", "exposed"]
DoorKind = Literal["archway", "wooden", "iron", "stuck", "locked", "secret", "barricaded"]
SecretKind = Literal["door", "passage", "treasure", "lore", "trap"]
DoomKind = Literal[
    "wandering_group", "monsters_appear", "lights_snuffed", "ceiling_collapse", "ambush_dice",
    "boss_hunts", "decay_doubled", "affliction", "flood", "seal_exit", "final_fight",
]  # fmt: skip
DOOM_KINDS: tuple[str, ...] = get_args(DoomKind)

Level = Annotated[int, Field(ge=1, le=10)]
Weight = Annotated[int, Field(ge=1, le=20)]
Chance = Annotated[float, Field(ge=0.0, le=1.0)]
Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]

#: Placeholders a template may use; the generator fills them (see README.md).
PLACEHOLDERS: frozenset[str] = frozenset(
    {"title", "owner", "settlement", "bounty", "boss", "room", "group", "level_name"}
)
#: Placeholders a set piece's texts may use besides those: the two rooms it ties (``the {target}``).
PIECE_PLACEHOLDERS: frozenset[str] = PLACEHOLDERS | {"control", "target"}
#: Placeholders of a title pattern.
TITLE_PLACEHOLDERS: frozenset[str] = frozenset({"adjective", "place", "owner"})

#: Characters of the book's own sample dungeon and lore: owners must be invented.
BOOK_NAMES: frozenset[str] = frozenset({"acheron zul", "ishnar zul", "guhlat", "irvine"})

_COUNT = re.compile(r"^(\d{1,2})(?:-(\d{1,2}))?$")


def parse_count(text: str) -> tuple[int, int]:
    """``"2-4"`` -> ``(2, 4)``; ``"3"`` -> ``(3, 3)``."""
    m = _COUNT.match(text.strip())
    if not m:
        raise ValueError(f"not a count: {text!r} (expected e.g. '3' or '2-4')")
    lo = int(m[1])
    hi = int(m[2]) if m[2] else lo
    if lo < 1 or hi < lo or hi > 40:
        raise ValueError(f"count {text!r} must run from at least 1 up to at most 40, low to high")
    return lo, hi


def _check_count(v: str) -> str:
    parse_count(v)
    return v


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a template uses; raises ``ValueError`` on a malformed one."""
    found: set[str] = set()
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise ValueError(f"unbalanced braces in {text[:40]!r}...: {exc}") from None
    for _literal, name, spec, conversion in parsed:
        if name is None:
            continue
        if not name or spec or conversion:
            raise ValueError(f"placeholder {{{name}}} must be a bare name")
        found.add(name)
    return found


_PHRASE_REF = re.compile(r"^@[a-z][a-z0-9_]*$")


def phrase_refs(text: str) -> set[str]:
    """The phrase banks a template draws from: ``{@smell}`` -> ``{"smell"}``."""
    return {name[1:] for name in placeholders(text) if name.startswith("@")}


def _check_alternatives(v: str) -> None:
    """``[a|b|c]`` parts: balanced, not nested, with two or more alternatives."""
    depth = 0
    start = 0
    for i, ch in enumerate(v):
        if ch == "[":
            if depth:
                raise ValueError(f"[...] alternatives may not nest (at {v[start : i + 1][:40]!r})")
            depth, start = 1, i
        elif ch == "]":
            if not depth:
                raise ValueError(f"a ] with no [ before it in {v[:40]!r}...")
            if "|" not in v[start:i]:
                raise ValueError(f"{v[start : i + 1]!r} needs two or more alternatives split by |")
            depth = 0
        elif ch == "|" and not depth:
            raise ValueError(f"a | outside [...] in {v[:40]!r}...")
    if depth:
        raise ValueError(f"a [ with no ] after it in {v[:40]!r}...")


def _check_template(v: str) -> str:
    names = placeholders(v)
    bad = sorted(n for n in names if n.startswith("@") and not _PHRASE_REF.match(n))
    if bad:
        raise ValueError(f"malformed phrase reference(s) {bad}: write {{@bank}} with a snake_case bank name")
    unknown = {n for n in names if not n.startswith("@")} - PLACEHOLDERS
    if unknown:
        raise ValueError(f"unknown placeholder(s) {sorted(unknown)}; allowed: {sorted(PLACEHOLDERS)}")
    _check_alternatives(v)
    return v


def _check_piece_template(v: str) -> str:
    names = {n for n in placeholders(v) if not n.startswith("@")}
    unknown = names - PIECE_PLACEHOLDERS
    if unknown:
        raise ValueError(f"unknown placeholder(s) {sorted(unknown)}; allowed: {sorted(PIECE_PLACEHOLDERS)}")
    _check_template(v.replace("{control}", "").replace("{target}", ""))  # the rest as any template
    return v


def _check_title(v: str) -> str:
    used = placeholders(v)
    unknown = used - TITLE_PLACEHOLDERS
    if unknown:
        raise ValueError(f"unknown placeholder(s) {sorted(unknown)}; allowed: {sorted(TITLE_PLACEHOLDERS)}")
    if not used & {"place", "owner"}:
        raise ValueError("a title pattern needs {place} or {owner}")
    if re.match(r"(Where|When|How|Why|Who|What|Whom|Whose)\b", v):
        # Hooks and rumours use the title as a place: "the cause is in {title}".
        raise ValueError(
            f"{v!r} does not read as a place in 'the cause is in ...': start with a noun "
            "('The {place} Where {owner} Lies')"
        )
    return v


def _check_plain(v: str) -> str:
    if "{" in v or "}" in v:
        raise ValueError("no {placeholders} here: this field is used as it is written")
    if "[" in v or "]" in v or "|" in v:
        raise ValueError("no [a|b] alternatives here: this field is used as it is written")
    return v


#: A name or a text used as written: no placeholders.
Plain = Annotated[str, Field(min_length=1), AfterValidator(_check_plain)]
#: Prose that may hold placeholders (``{owner}``, ``{boss}``, ...).
Template = Annotated[str, Field(min_length=1), AfterValidator(_check_template)]
#: A set piece's prose: a template that may also name the two rooms it ties (``{control}``, ``{target}``).
PieceText = Annotated[str, Field(min_length=1), AfterValidator(_check_piece_template)]
TitlePattern = Annotated[str, Field(min_length=1), AfterValidator(_check_title)]
Count = Annotated[str, AfterValidator(_check_count)]


class LevelWindow(Strict):
    """Mixin: the dungeon levels (difficulty) an entry is used at."""

    min_level: Level = 1
    max_level: Level = 10

    @model_validator(mode="after")
    def _window(self) -> LevelWindow:
        if self.max_level < self.min_level:
            raise ValueError(f"max_level {self.max_level} is below min_level {self.min_level}")
        return self

    def fits(self, level: int) -> bool:
        return self.min_level <= level <= self.max_level


# --- titles -------------------------------------------------------------------------------------


class DepthNames(Strict):
    """What the levels of a dungeon are called, by depth (1 is the entry level)."""

    depth: int = Field(ge=1, le=9)
    names: Annotated[list[Plain], Field(min_length=2)]
    notes: list[Plain] = []  # GM notes for a level at this depth ("an unnatural darkness...")


class Titles(Strict):
    patterns: Annotated[list[TitlePattern], Field(min_length=4)]
    adjectives: Annotated[list[Plain], Field(min_length=8)]
    places: Annotated[list[Plain], Field(min_length=6)]
    owners: Annotated[list[Plain], Field(min_length=8)]
    depths: Annotated[list[DepthNames], Field(min_length=3)]

    @model_validator(mode="after")
    def _titles(self) -> Titles:
        check_unique(self.adjectives, "adjectives")
        check_unique(self.places, "places")
        check_unique(self.owners, "owners")
        borrowed = sorted(o for o in self.owners if o.lower() in BOOK_NAMES)
        if borrowed:
            raise ValueError(f"owners must be invented, not the book's characters: {borrowed}")
        if [d.depth for d in self.depths] != list(range(1, len(self.depths) + 1)):
            raise ValueError("depths must be listed 1, 2, 3, ... in order")
        return self


# --- monsters -----------------------------------------------------------------------------------


class Member(Strict):
    """A monster and how many of it."""

    monster: Plain  # the bestiary's exact name
    count: Count = "1"


class RosterEntry(LevelWindow):
    """One monster the theme places in rooms, with its role and the levels it fits."""

    monster: Plain  # the bestiary's exact name
    role: Role
    weight: Weight = 1
    group: Count = "1"  # how many are placed together
    escort: list[Member] = []  # placed with it (a boss's guards)
    doing: list[Template] = []  # what they are doing when found


class WanderingTemplate(LevelWindow):
    name: Plain
    text: Template
    monsters: Annotated[list[Member], Field(min_length=1)]


# --- rooms --------------------------------------------------------------------------------------


class FeatureTemplate(Strict):
    name: Plain
    text: Template
    test: Attr | None = None
    success: Template | Literal[""] = ""
    failure: Template | Literal[""] = ""
    reveals_door: bool = False  # its success finds the room's secret door: only where there is one
    rewards: list[Reward] = []  # what a success gives (rules.gm.rewards plays them)

    @model_validator(mode="after")
    def _outcomes(self) -> FeatureTemplate:
        if self.rewards and not self.success:
            raise ValueError("rewards need success words that say what is gained")
        if self.test is not None and not (self.success and self.failure):
            raise ValueError("a feature with a test needs both success and failure")
        if self.test is None and self.failure:
            raise ValueError("a feature without a test cannot fail: drop failure or add a test")
        if self.reveals_door and not self.success:
            raise ValueError("a feature that reveals a door needs the success that finds it")
        return self


class Chances(Strict):
    """Probability (0 to 1) that a room of this kind gets each thing."""

    monsters: Chance
    trap: Chance
    loot: Chance
    corpses: Chance
    secret: Chance
    lit: Chance = 0.0


class RoomKind(Strict):
    id: Id
    names: Annotated[list[Plain], Field(min_length=2)]
    sizes: Annotated[list[Size], Field(min_length=1)]
    descriptions: Annotated[list[Template], Field(min_length=3)]
    features: Annotated[list[FeatureTemplate], Field(min_length=2)]
    chances: Chances
    camp: list[CampQuality] = []
    boss_lair: bool = False
    entrance: bool = False
    stairs: bool = False  # a stairwell: only given to a room that holds the level's stairs
    min_depth: int = Field(1, ge=1, le=9)
    weight: Weight = 1

    @model_validator(mode="after")
    def _room(self) -> RoomKind:
        check_unique(self.names, "names")
        check_unique((f.name for f in self.features), "feature names")
        if len(set(self.camp)) != len(self.camp):
            raise ValueError("camp qualities repeat")
        if self.entrance and self.min_depth != 1:
            raise ValueError("an entrance kind must fit depth 1 (min_depth = 1)")
        if self.stairs and (self.entrance or self.boss_lair):
            raise ValueError("a stairs kind is neither an entrance nor a boss lair")
        return self


# --- traps, loot, secrets, corpses ---------------------------------------------------------


class TrapTemplate(LevelWindow):
    name: Plain
    floor: bool  # set in the floor: a foot springs it, and one who hovers does not (Hover, RULINGS R200)
    text: Template  # what it looks like and where it is
    trigger: Plain  # what sets it off
    clue: Template  # a visible hint for attentive players
    find: Attr = "INT"
    disarm: Attr = "DEX"
    disarm_text: Plain  # how it is disarmed
    attack: Notation | None = None  # defended by the victim
    effect: Template  # what happens, in words
    afflictions: list[Plain] = []  # names from character.toml, lowercase
    doom: int = Field(0, ge=0, le=3)


class LootTemplate(LevelWindow):
    """A valuable of the theme (``name``, ``rarity``, ``value``) or an equipment item (``item``)."""

    name: Plain | None = None
    item: Plain | None = None  # an item, weapon, armour or shield, by its exact name
    text: Template | Literal[""] = ""
    rarity: Rarity | None = None  # an item's rarity defaults to its table's
    value: Annotated[int, Field(ge=0, le=5000)] | Dice | None = None  # silver; an item's defaults to its price
    count: Count = "1"
    big: bool = False
    weight: Weight = 1

    @model_validator(mode="after")
    def _kind(self) -> LootTemplate:
        if self.item is None:
            missing = [f for f in ("name", "rarity", "value") if getattr(self, f) is None]
            if missing:
                raise ValueError(f"a valuable (no item) needs {', '.join(missing)}")
        return self

    @property
    def label(self) -> str:
        return self.name or self.item or ""


class SecretTemplate(Strict):
    kind: SecretKind
    text: Template
    find: Attr = "INT"
    clue: Plain | Literal[""] = ""
    reveals: Template | Literal[""] = ""


class CorpseTemplate(Strict):
    text: Template
    rises_as: Plain | None = None  # the bestiary name the dead vigil raises it as; none: it stays dead
    warded: bool = False
    weight: Weight = 1

    @model_validator(mode="after")
    def _ward(self) -> CorpseTemplate:
        if self.warded and self.rises_as is not None:
            raise ValueError("a warded corpse does not rise: drop rises_as")
        return self


# --- set pieces, skill notes, wants (issue #15: what the sample dungeon has) --------------------------


class PieceTemplate(LevelWindow):
    """Something in one room that changes another when worked: a pump that drains a flooded room, a
    sluice, a bell that wakes what sleeps.  The generator ties its ``{control}`` room to a ``{target}``
    room near it; the GM plays it (``rules.gm.setpieces``)."""

    name: Plain
    text: PieceText  # what the party finds in the control room
    test: Attr | None = None
    skill: Plain | None = None  # someone with this skill works it without a test
    success: PieceText
    failure: PieceText | Literal[""] = ""
    before: PieceText  # the target room until it is worked
    after: PieceText  # the target room once it is worked
    hazard: Notation | None = None  # defended by each who comes into the target before it is worked
    holds: bool = False  # the target's loot is out of reach until it is worked
    releases: list[Member] = []  # what comes out into the target room when it is worked
    doom: int = Field(0, ge=0, le=3)

    @model_validator(mode="after")
    def _piece(self) -> PieceTemplate:
        if self.test is not None and not self.failure:
            raise ValueError("a set piece with a test needs failure words")
        if self.test is None and self.failure:
            raise ValueError("a set piece without a test cannot fail: drop failure or add a test")
        if not (self.hazard or self.holds or self.releases):
            raise ValueError("a set piece must change its target: a hazard, held loot or something released")
        return self


class LoreTemplate(Strict):
    """What only someone with ``skill`` makes out (the sample dungeon's Loremaster and Holy Rites notes)."""

    skill: Plain  # a skill of character.toml, by its exact name
    text: Template


class Outside(Strict):
    """The land before the way in (issue #15, the sample dungeon's "Entrances": the hill, the graveyard, the
    sacrificial pit, each a way in, and what a skill makes out there)."""

    setting: Annotated[list[Template], Field(min_length=3)]  # where the dungeon lies, one drawn
    ways: Annotated[list[Template], Field(min_length=4)]  # a place outside where a way in opens, one per entrance
    lore: Annotated[list[LoreTemplate], Field(min_length=3)]  # what a skill makes out outside, two drawn


class WantTemplate(LevelWindow):
    """A group with a mind that wants something, placed in a room: given ``amount`` of ``asks`` they turn
    friendly, say ``told``, give away what ``reveals`` names and, with ``leaves``, go their way."""

    text: Template  # what they want, in the GM's words
    monsters: Annotated[list[Member], Field(min_length=1)]  # who wants it: living, with a mind (encounters.toml)
    asks: Literal["food", "silver"]
    amount: Count  # rations or silver
    reveals: Literal["", "doom", "boss", "traps", "secrets", "stairs"] = ""
    told: Template | Literal[""] = ""
    leaves: bool = False

    @model_validator(mode="after")
    def _want(self) -> WantTemplate:
        if self.reveals and not self.told:
            raise ValueError("a want that reveals something needs the words they tell it with (told)")
        return self


# --- story --------------------------------------------------------------------------------------


class Bounty(Strict):
    """Silver offered: ``base + per_level x level + per_depth x depths``, rounded to ``round_to``, and kept
    between ``least`` and ``most`` (40-120 silver by level and depth: the sample dungeon's 80 for a three-level
    tomb sits in the middle; RULINGS.md R226)."""

    base: int = Field(ge=0, le=1000)
    per_level: int = Field(ge=0, le=200)
    per_depth: int = Field(ge=0, le=200)
    round_to: int = Field(5, ge=1, le=50)
    least: int = Field(40, ge=0, le=1000)
    most: int = Field(120, ge=1, le=5000)

    def silver(self, level: int, depths: int) -> int:
        raw = self.base + self.per_level * level + self.per_depth * depths
        rounded = max(self.round_to, round(raw / self.round_to) * self.round_to)
        return max(self.least, min(self.most, rounded))


class HookOffer(Strict):
    """A hook with its job (issue #15, after the sample's "give them a portable coffin"): what the adventurers
    are given or told when they accept, and what happens when they come back."""

    text: Template
    quest: Template  # "When the adventurers accept, ... gives them ..."
    after: Template  # what happens when they come back with it


class Hooks(Strict):
    templates: list[Template] = []  # hooks without a job
    offers: list[HookOffer] = []  # hooks with their job
    openers: Annotated[list[Template], Field(min_length=3)]  # "possible ideas for starting out"
    settlements: Annotated[list[Plain], Field(min_length=1)]  # where the hook is given (blacksalt.toml)
    bounty: Bounty

    @model_validator(mode="after")
    def _enough(self) -> Hooks:
        if len(self.templates) + len(self.offers) < 4:
            raise ValueError("four or more hooks are needed (templates and offers together)")
        return self

    def all(self) -> list[HookOffer | str]:
        """Every hook, those with their job first."""
        return [*self.offers, *self.templates]


class PlaceRumour(Strict):
    """A true rumour about a place ("The garrison chapel is still sealed"): true only where the
    dungeon has a room of that kind, so it is drawn only then, its ``{room}`` that room."""

    text: Template
    kind: Id  # a room kind of the theme


class Rumours(Strict):
    true: Annotated[list[Template | PlaceRumour], Field(min_length=8)]
    false: Annotated[list[Template], Field(min_length=8)]


class History(Strict):
    origin: Annotated[list[Template], Field(min_length=3)]
    fall: Annotated[list[Template], Field(min_length=3)]
    now: Annotated[list[Template], Field(min_length=3)]


class DoomTemplate(LevelWindow):
    kind: DoomKind
    text: Template
    tier: int | None = Field(None, ge=1, le=3)  # 1 early, 2 middle, 3 late; none for final_fight
    group: Plain | None = None  # wandering_group: one of the theme's wandering groups (none: any)
    monsters: list[Member] = []
    attack: Notation | None = None
    affliction: Plain | None = None
    dice: int = Field(0, ge=0, le=6)

    @model_validator(mode="after")
    def _kind_fields(self) -> DoomTemplate:
        k = self.kind
        if k == "final_fight":
            if self.tier is not None:
                raise ValueError("final_fight always closes the track: drop tier")
            if "boss" not in placeholders(self.text):
                raise ValueError("a final_fight text must name the {boss}")
            if not self.monsters:
                raise ValueError("a final_fight needs its reinforcements in monsters")
        elif self.tier is None:
            raise ValueError(f"a {k} event needs a tier (1 early, 2 middle, 3 late)")
        if k == "monsters_appear" and not self.monsters:
            raise ValueError("monsters_appear needs monsters")
        if k == "ceiling_collapse" and self.attack is None:
            raise ValueError("ceiling_collapse needs an attack")
        if k == "affliction" and self.affliction is None:
            raise ValueError("an affliction event needs its affliction")
        if k == "ambush_dice" and self.dice < 1:
            raise ValueError("ambush_dice needs dice of 1 or more")
        if self.group is not None and k != "wandering_group":
            raise ValueError("only a wandering_group event names a group")
        return self


class Doors(Strict):
    """Flavour text for each door kind of the generator."""

    archway: Annotated[list[Template], Field(min_length=2)]
    wooden: Annotated[list[Template], Field(min_length=2)]
    iron: Annotated[list[Template], Field(min_length=2)]
    stuck: Annotated[list[Template], Field(min_length=2)]
    locked: Annotated[list[Template], Field(min_length=2)]
    secret: Annotated[list[Template], Field(min_length=2)]
    barricaded: Annotated[list[Template], Field(min_length=2)]
    keys: Annotated[list[Template], Field(min_length=3)]  # where a locked door's key is

    def for_kind(self, kind: DoorKind) -> list[str]:
        texts: list[str] = getattr(self, kind)
        return texts


# --- the theme ----------------------------------------------------------------------------------


def _strings(obj: object) -> list[str]:
    """Every string inside a model, list or dict (the theme's texts, to check their phrase references)."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _strings(v)]
    if isinstance(obj, list | tuple):
        return [s for v in obj for s in _strings(v)]
    if hasattr(obj, "__pydantic_fields__"):
        return [s for name in type(obj).__pydantic_fields__ for s in _strings(getattr(obj, name))]
    return []


class Theme(Strict):
    id: Id
    name: Plain
    style: Style
    family_text: Plain
    min_level: Level
    max_level: Level
    titles: Titles
    monsters: Annotated[list[RosterEntry], Field(min_length=6)]
    wandering: Annotated[list[WanderingTemplate], Field(min_length=6)]
    room_kinds: Annotated[list[RoomKind], Field(min_length=14)]
    traps: Annotated[list[TrapTemplate], Field(min_length=8)]
    loot: Annotated[list[LootTemplate], Field(min_length=15)]
    secrets: Annotated[list[SecretTemplate], Field(min_length=6)]
    corpses: Annotated[list[CorpseTemplate], Field(min_length=4)]
    hooks: Hooks
    rumours: Rumours
    history: History
    doom: Annotated[list[DoomTemplate], Field(min_length=11)]
    doors: Doors
    #: Phrase banks (``{@smell}`` in a template draws one of ``phrases.smell``), so that ten keys of
    #: one theme rarely share a whole sentence.  A phrase may hold ``[a|b]`` and placeholders, not ``{@...}``.
    phrases: dict[Id, Annotated[list[Template], Field(min_length=4)]] = {}
    #: Two or more on every level (issue #15): rooms tied together.
    set_pieces: Annotated[list[PieceTemplate], Field(min_length=3)]
    #: One or more on every level: what a skill makes out.
    lore: Annotated[list[LoreTemplate], Field(min_length=4)]
    #: One or more on every level: a group the party can talk to.
    wants: Annotated[list[WantTemplate], Field(min_length=2)]
    #: The land before the way in.
    outside: Outside

    @model_validator(mode="after")
    def _theme(self) -> Theme:
        if self.max_level < self.min_level:
            raise ValueError(f"max_level {self.max_level} is below min_level {self.min_level}")
        check_unique((k.id for k in self.room_kinds), "room kind ids")
        check_unique((w.name for w in self.wandering), "wandering group names")
        check_unique((t.name for t in self.traps), "trap names")
        check_unique((lt.label for lt in self.loot), "loot names")
        if not any(k.entrance for k in self.room_kinds):
            raise ValueError("no room kind is an entrance (entrance = true)")
        if not any(k.boss_lair for k in self.room_kinds):
            raise ValueError("no room kind is a boss lair (boss_lair = true)")
        missing = [k for k in DOOM_KINDS if not any(d.kind == k for d in self.doom)]
        if missing:
            raise ValueError(f"doom templates missing for kind(s) {missing}")
        kinds = {k.id for k in self.room_kinds}
        plain = sum(isinstance(r, str) for r in self.rumours.true)
        if plain + len(self.rumours.false) < 11:
            raise ValueError("eleven rumours need at least 11 - len(false) true rumours that name no place")
        for r in self.rumours.true:
            if isinstance(r, PlaceRumour) and r.kind not in kinds:
                raise ValueError(f"rumour {r.text[:40]!r}... speaks of room kind {r.kind!r}, which the theme lacks")
        groups = {w.name for w in self.wandering}
        for d in self.doom:
            if d.group is not None and d.group not in groups:
                raise ValueError(f"doom template names unknown wandering group {d.group!r}")
        for bank, texts in self.phrases.items():
            nested = sorted({r for t in texts for r in phrase_refs(t)})
            if nested:
                raise ValueError(f"phrases.{bank}: a phrase may not draw from another bank ({nested})")
            check_unique(texts, f"phrases.{bank}")
        for level in range(self.min_level, 11):
            if sum(p.fits(level) for p in self.set_pieces) < 2:
                raise ValueError(f"set_pieces: fewer than two fit a level-{level} dungeon")
            if not any(w.fits(level) for w in self.wants):
                raise ValueError(f"wants: none fits a level-{level} dungeon")
        check_unique((p.name for p in self.set_pieces), "set piece names")
        unknown = sorted({r for t in _strings(self) for r in phrase_refs(t)} - set(self.phrases))
        if unknown:
            raise ValueError(f"templates draw from phrase bank(s) {unknown}, which phrases does not define")
        return self

    # --- what the generator asks -----------------------------------------------------------------

    def roster(self, level: int, role: Role) -> list[RosterEntry]:
        """Roster entries of ``role`` that fit a dungeon of ``level``."""
        return [e for e in self.monsters if e.role == role and e.fits(level)]

    def wandering_at(self, level: int) -> list[WanderingTemplate]:
        return [w for w in self.wandering if w.fits(level)]

    def doom_at(self, level: int, kind: str | None = None) -> list[DoomTemplate]:
        return [d for d in self.doom if d.fits(level) and (kind is None or d.kind == kind)]

    def depth_names(self, depth: int) -> DepthNames:
        """Names for a level at ``depth``; deeper than listed uses the deepest."""
        return self.titles.depths[min(depth, len(self.titles.depths)) - 1]

    def room_kind(self, kind_id: str) -> RoomKind:
        return next(k for k in self.room_kinds if k.id == kind_id)

    def phrase_banks(self) -> dict[str, tuple[str, ...]]:
        return {name: tuple(texts) for name, texts in self.phrases.items()}


# --- cross-checks against the game's content ---------------------------------------------------


#: How far a monster's bestiary level may stray from the dungeon levels of its entry.
#: A monster of level L suits entries whose window starts at ``L - ABOVE[role]`` or later
#: (a level-1 dungeon has minions of level 1-2) and ends at ``L + BELOW[role]`` or earlier.
ABOVE: dict[str, int] = {"minion": 1, "elite": 2, "boss": 4, "escort": 2, "wandering": 2, "doom": 3}
BELOW: dict[str, int] = {"minion": 4, "elite": 4, "boss": 3, "wandering": 5, "doom": 5}

#: A valuable's mean value must lie between these multiples of its rarity's average price.
VALUE_BAND: tuple[float, float] = (0.35, 3.0)


@dataclass(frozen=True)
class _Refs:
    monsters: dict[str, int]  # lowercased name -> level
    monster_names: list[str]
    items: dict[str, str]  # lowercased name -> rarity
    item_names: list[str]
    prices: dict[str, str]  # rarity -> price formula
    averages: dict[str, int]
    afflictions: set[str]
    settlements: set[str]
    settlement_names: list[str]
    extracts: frozenset[str] = frozenset()  # alchemical extract kinds


def _refs(c: Content) -> _Refs:
    items: dict[str, str] = {}
    names: list[str] = []
    for group in (c.items.items, c.weapons.weapons, c.armor.armor, c.armor.shields):
        for entry in group:
            items[entry.name.lower()] = entry.rarity
            names.append(entry.name)
    return _Refs(
        monsters={m.name.lower(): m.level for m in c.bestiary.monsters},
        monster_names=[m.name for m in c.bestiary.monsters],
        items=items,
        item_names=names,
        prices={r.name: str(r.price) for r in c.items.rarities},
        averages={r.name: r.average for r in c.items.rarities},
        afflictions={a.name.lower() for a in c.character.afflictions},
        settlements={s.name.lower() for s in c.blacksalt.settlements},
        settlement_names=[s.name for s in c.blacksalt.settlements],
        extracts=frozenset(e.kind for e in c.alchemy.extracts),
    )


def _hint(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _check_monster(refs: _Refs, name: str, kind: str, window: LevelWindow | None) -> list[str]:
    """Problems of one monster reference: unknown, or too strong for its entry's first level."""
    level = refs.monsters.get(name.lower())
    if level is None:
        return [f"unknown monster {name!r}{_hint(name, refs.monster_names)}"]
    if window is not None and level > window.min_level + ABOVE[kind]:
        return [
            f"{name} is level {level}, too strong for a level-{window.min_level} dungeon as {kind}: "
            f"raise min_level to {level - ABOVE[kind]} or more"
        ]
    return []


def check_theme(theme: Theme, c: Content, filename: str, *, against_gm: bool = True) -> list[str]:
    """Problems of ``theme`` against the game's content, each naming file, entry and field.

    ``against_gm``: also check what only the automated GM knows (a feature's reward has a handler,
    a group that wants something has a mind that takes it).  That imports most of ``rules.gm``
    (a third of a second, more than the rest of the check), so generating a dungeon leaves it to
    ``blacksalt validate`` and the tests, which load every theme with it (:func:`load_themes`)."""
    refs = _refs(c)
    out: list[str] = []

    def add(entry: str, fieldname: str, msg: str) -> None:
        where = f"entry {entry}" if entry else "top level"
        out.append(f"  {filename}: {where}: field {fieldname}: {msg}")

    for i, e in enumerate(theme.monsters):
        entry = f"monsters[{i}] ({e.monster!r})"
        for msg in _check_monster(refs, e.monster, e.role, e):
            add(entry, "monster", msg)
        for j, m in enumerate(e.escort):
            for msg in _check_monster(refs, m.monster, "escort", e):
                add(entry, f"escort[{j}].monster", msg)
        level = refs.monsters.get(e.monster.lower())
        strongest = max(
            [refs.monsters.get(m.monster.lower(), 0) for m in e.escort] + [level or 0],
        )
        if level is not None and e.max_level < 10 and strongest < e.max_level - BELOW[e.role]:
            add(
                entry,
                "max_level",
                f"{e.monster} (level {level}) is too weak as {e.role} for a level-{e.max_level} dungeon: "
                f"lower max_level to {strongest + BELOW[e.role]} or less",
            )
    for i, w in enumerate(theme.wandering):
        entry = f"wandering[{i}] ({w.name!r})"
        for j, m in enumerate(w.monsters):
            for msg in _check_monster(refs, m.monster, "wandering", w):
                add(entry, f"monsters[{j}].monster", msg)
        levels = [refs.monsters.get(m.monster.lower(), 0) for m in w.monsters]
        if w.max_level < 10 and max(levels) < w.max_level - BELOW["wandering"]:
            add(entry, "max_level", f"the group is too weak for a level-{w.max_level} dungeon")
    for i, d in enumerate(theme.doom):
        entry = f"doom[{i}] ({d.kind!r})"
        for j, m in enumerate(d.monsters):
            for msg in _check_monster(refs, m.monster, "doom", d):
                add(entry, f"monsters[{j}].monster", msg)
        if d.affliction is not None and d.affliction.lower() not in refs.afflictions:
            add(entry, "affliction", f"unknown affliction {d.affliction!r}")
    for i, corpse in enumerate(theme.corpses):
        if corpse.rises_as is not None:
            for msg in _check_monster(refs, corpse.rises_as, "doom", None):
                add(f"corpses[{i}]", "rises_as", msg)
    for i, t in enumerate(theme.traps):
        for j, a in enumerate(t.afflictions):
            if a.lower() not in refs.afflictions:
                add(f"traps[{i}] ({t.name!r})", f"afflictions[{j}]", f"unknown affliction {a!r}")
    for i, lt in enumerate(theme.loot):
        entry = f"loot[{i}] ({lt.label!r})"
        if lt.item is not None and lt.item.lower() not in refs.items:
            hint = _hint(lt.item, refs.item_names)
            add(entry, "item", f"{lt.item!r} is in no item, weapon, armour or shield table{hint}")
            continue
        rarity = lt.rarity or refs.items[(lt.item or "").lower()]
        value = lt.value if lt.value is not None else refs.prices[rarity]
        mean = DiceExpr.parse(value).mean
        average = refs.averages[rarity]
        lo, hi = VALUE_BAND
        if rarity == "free" and mean != 0:
            add(entry, "value", "a free thing is worth nothing")
        elif rarity != "free" and not (lo * average <= mean <= hi * average):
            add(
                entry,
                "value",
                f"{value!r} (about {mean:g} silver) is out of line with {rarity} "
                f"(about {average}: {lo * average:g} to {hi * average:g})",
            )
    for i, k in enumerate(theme.room_kinds):
        for j, f in enumerate(k.features):
            for n, r in enumerate(f.rewards):
                for msg in check_reward(refs, r, against_gm=against_gm):
                    add(f"room_kinds[{i}].features[{j}] ({f.name!r})", f"rewards[{n}]", msg)
    skills = {sk.name for sk in c.character.skills}
    for i, p in enumerate(theme.set_pieces):
        entry = f"set_pieces[{i}] ({p.name!r})"
        if p.skill is not None and p.skill not in skills:
            add(entry, "skill", f"unknown skill {p.skill!r}{_hint(p.skill, sorted(skills))}")
        for j, m in enumerate(p.releases):
            for msg in _check_monster(refs, m.monster, "doom", p):
                add(entry, f"releases[{j}].monster", msg)
    for i, note in enumerate(theme.lore):
        if note.skill not in skills:
            add(f"lore[{i}]", "skill", f"unknown skill {note.skill!r}{_hint(note.skill, sorted(skills))}")
    for i, note in enumerate(theme.outside.lore):
        if note.skill not in skills:
            add(f"outside.lore[{i}]", "skill", f"unknown skill {note.skill!r}{_hint(note.skill, sorted(skills))}")
    for i, want in enumerate(theme.wants):
        for j, m in enumerate(want.monsters):
            problems = _check_monster(refs, m.monster, "wandering", want)
            for msg in problems or (_check_mind(c, m.monster, want) if against_gm else []):
                add(f"wants[{i}]", f"monsters[{j}].monster", msg)
    for i, s in enumerate(theme.hooks.settlements):
        if s.lower() not in refs.settlements:
            add("hooks", f"settlements[{i}]", f"unknown settlement {s!r}{_hint(s, refs.settlement_names)}")
    return out


def _check_mind(c: Content, monster: str, want: WantTemplate) -> list[str]:
    """A group that wants something must have a mind that takes it (``resources/gm/encounters.toml``); a beast
    tells nothing."""
    from rules.gm.encounters import load_encounters

    sheet = c.bestiary.monster(monster)
    data = load_encounters()
    mind = next((m for m in data.minds if m.monster == sheet.name), None)
    if mind is None:
        mind = next((m for m in data.minds if m.family == sheet.family), None)
    if "living" not in sheet.tags or mind is None or mind.mind == "none":
        return [f"{monster} has no mind to want anything (encounters.toml minds; only the living)"]
    if want.asks not in mind.takes:
        return [f"{monster} does not take {want.asks} (encounters.toml: {mind.takes})"]
    if mind.mind == "beast" and want.reveals:
        return [f"{monster} is a beast: it cannot tell the party anything (drop reveals)"]
    return []


def check_reward(refs: _Refs, reward: Reward, *, against_gm: bool = True) -> list[str]:
    """Problems of a feature's reward: a kind the GM cannot play, an unknown item or monster, a bad reveal
    (the kind and the reveal only ``against_gm``: see :func:`check_theme`)."""
    if against_gm:
        from rules.gm.rewards import HANDLERS

        if reward.kind not in HANDLERS:
            return [f"reward kind {reward.kind!r} has no handler in the GM (rules.gm.rewards: {sorted(HANDLERS)})"]
    out = [
        f"{name!r} is in no item, weapon, armour or shield table{_hint(name, refs.item_names)}"
        for name in reward.items
        if name.lower() not in refs.items
    ]
    if reward.monster and reward.monster.lower() not in refs.monsters:
        out.append(f"unknown monster {reward.monster!r}{_hint(reward.monster, refs.monster_names)}")
    if reward.kind == "extract" and reward.name not in refs.extracts:
        out.append(f"unknown extract kind {reward.name!r} (one of {sorted(refs.extracts)})")
    if against_gm:
        from rules.gm.rewards import REVEALS

        if reward.kind in REVEALS and reward.reveals not in REVEALS[reward.kind]:
            out.append(f"a {reward.kind} reward reveals one of {list(REVEALS[reward.kind])}, not {reward.reveals!r}")
    return out


# --- loading ------------------------------------------------------------------------------------


def themes_dir() -> Path:
    return resources_dir() / "dungeon" / "themes"


def load_theme(path: Path, content: Content | None = None, *, against_gm: bool = True) -> Theme:
    """Read, validate and cross-check one theme file (``against_gm``: see :func:`check_theme`)."""
    from rules.content.registry import load_content

    theme = load_toml(path, Theme)
    if theme.id != path.stem:
        raise ContentError(f"{path.name}: top level: field id: {theme.id!r} must match the file name {path.stem!r}")
    problems = check_theme(theme, content or load_content(), path.name, against_gm=against_gm)
    if problems:
        raise ContentError(f"{path.name}: {len(problems)} problem(s)\n" + "\n".join(problems))
    return theme


def load_themes(directory: Path | None = None, content: Content | None = None) -> dict[str, Theme]:
    """Every theme of ``directory`` (default ``resources/dungeon/themes``), by id, in file-name order."""
    root = directory or themes_dir()
    if content is None:
        return dict(_load_cached(root))
    return _load(root, content)


@cache
def _load_cached(root: Path) -> dict[str, Theme]:
    paths = sorted(root.glob("*.toml"))
    if not paths:
        raise ContentError(f"{root}: no theme files (*.toml)")
    return {p.stem: _shelved(root, p.stem) for p in paths}  # each read once, whether asked for alone or all


def _load(root: Path, content: Content) -> dict[str, Theme]:
    paths = sorted(root.glob("*.toml"))
    if not paths:
        raise ContentError(f"{root}: no theme files (*.toml)")
    return {p.stem: load_theme(p, content) for p in paths}


class ThemeShelf(Mapping[str, Theme]):
    """The themes of ``resources/dungeon/themes`` by id, each read and checked only when it is
    first asked for: a dungeon needs one theme, and reading and checking all of them was most of
    the time of generating one (``blacksalt dungeon``).  The ids are the file names; asking for
    every theme (iterating values or items) reads them all.  They are checked against the content
    but not against the automated GM (``check_theme(against_gm=False)``): ``blacksalt validate``,
    the tests and :func:`load_themes` do that."""

    def __init__(self, directory: Path | None = None) -> None:
        self.root = directory or themes_dir()
        self.ids = sorted(p.stem for p in self.root.glob("*.toml"))
        if not self.ids:
            raise ContentError(f"{self.root}: no theme files (*.toml)")

    def __getitem__(self, theme_id: str) -> Theme:
        if theme_id not in self.ids:
            raise KeyError(theme_id)
        return _shelved(self.root, theme_id)

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, theme_id: object) -> bool:
        return theme_id in self.ids


@cache
def _shelved(root: Path, theme_id: str) -> Theme:
    from rules.content.registry import load_content

    return load_theme(root / f"{theme_id}.toml", load_content(), against_gm=False)
