"""The generated dungeon, as data: what the JSON export writes and ``--from`` reads back.

A :class:`Dungeon` is its first (entry) level plus the dungeon's metadata,
with any deeper levels in ``deeper_levels``; every level has its own grid,
rooms, connections, doom track and wandering monsters.  Coordinates are in
tiles of 1.5 m, ``x`` to the east and ``y`` to the south, origin at the
top-left corner of the level's grid.

The models are strict pydantic models: a malformed file is refused with the
field named, and :func:`json_schema` is the JSON Schema shipped with the
project (``resources/dungeon/dungeon.schema.json``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

SCHEMA_VERSION = 1

Coord = Annotated[int, Field(ge=0, le=511)]
Tile = tuple[Coord, Coord]
RoomId = Annotated[int, Field(ge=1, le=999)]
Silver = Annotated[int, Field(ge=0, le=100_000)]

DoorKind = Literal["archway", "wooden", "iron", "stuck", "locked", "secret", "barricaded"]
CampQuality = Literal["safe", "dry", "filthy", "exposed"]
Attr = Literal["STR", "DEX", "INT", "PRE"]
Rarity = Literal["free", "common", "uncommon", "valuable", "rare", "exotic"]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class Grid(Model):
    """A level's tile grid: tile (x, y) is the square from corner (x, y) to corner (x + 1, y + 1), x to the east
    and y to the south, origin at the grid's top-left corner, each tile tile_m metres across.  The level's
    Universal VTT files (.dd2vtt) use this same frame on every level: a VTT point (x, y) in grid units is grid
    corner (x, y), their map_origin is (0, 0) and their picture's top-left corner is grid corner (0, 0), so a
    tile here is the same square there with no offset; map_size is at least width by height."""

    width: int = Field(ge=8, le=512)
    height: int = Field(ge=8, le=512)
    tile_m: float = Field(1.5, gt=0, le=10)


class MonsterCount(Model):
    monster: str = Field(min_length=1)  # the bestiary's exact name
    count: int = Field(ge=1, le=40)


class Want(Model):
    """What a group with a mind wants, and what it gives for it (issue #15: creatures the party can talk to,
    as the sample dungeon's goblins who will leave once it is safe, or the spiderlings who take meat).  The GM
    plays it (``rules.gm.setpieces``): given ``amount`` of ``asks`` (rations or silver), the group turns
    friendly, tells what ``reveals`` names and, with ``leaves``, goes its way."""

    text: str  # what they want, in the GM's words
    asks: Literal["food", "silver"]
    amount: int = Field(ge=1, le=500)
    reveals: Literal["", "doom", "boss", "traps", "secrets", "stairs"] = ""
    told: str = ""  # what they say when they get it
    leaves: bool = False


class MonsterGroup(MonsterCount):
    """Monsters placed in a room, each at a tile."""

    positions: list[Tile] = []  # one per monster, inside the room
    aware: bool = True  # False: the party may surprise them
    note: str = ""  # what they are doing ("praying to the statue with a low chant")
    want: Want | None = None  # what they want, if they can be talked to


class Trap(Model):
    name: str
    text: str  # what it looks like and where it is
    tile: Tile | None = None
    trigger: str  # what sets it off
    find: str = "INT"  # the test to find it when looking for traps ("INT"), or how to spot it
    clue: str = ""  # a visible hint for attentive players
    disarm: str = "DEX"  # the test to disarm it, or how
    attack: str | None = None  # attack notation, defended by the victim ("-DEX 2+1B")
    effect: str  # what happens when it goes off, in words
    afflictions: list[str] = []
    doom: int = Field(0, ge=0, le=3)  # doom the noise adds when it goes off


class Loot(Model):
    name: str
    text: str = ""
    rarity: Rarity
    value: Silver  # silver, when sold at full price
    count: int = Field(1, ge=1, le=99)
    item: str | None = None  # the equipment table's name, when it is a usable item
    hidden: bool = False  # found only by searching (a secret)
    big: bool = False


class Secret(Model):
    kind: Literal["door", "passage", "treasure", "lore", "trap"]
    text: str
    find: str = "INT"  # the test (searching for secrets)
    reveals: str = ""  # what finding it gives ("connection 7", "the key to the iron door")


RewardKind = Annotated[str, Field(pattern=r"^[a-z][a-z_]*$", max_length=20)]


class Reward(Model):
    """What a room feature gives on a success, played by the GM (``rules.gm.rewards``, one handler per kind).

    ``item``: one of ``items`` (drawn by the GM when it is won; ``pick = "all"``: each), ``count`` of it;
    ``loot``: a valuable ``name`` of ``rarity``, worth ``value`` silver (a number or dice; default the rarity's
    price); ``silver``: ``value`` coins; ``extract``: ``count`` alchemical extracts of kind ``name``;
    ``creature``: ``count`` × ``monster`` (the bestiary's name) come into the room with ``attitude``; ``way`` and
    ``info``: what the feature ``reveals``."""

    kind: RewardKind  # item, loot, silver, extract, creature, way, info
    items: list[str] = []
    count: int = Field(1, ge=1, le=20)
    name: str = ""
    rarity: Rarity | None = None
    value: int | str | None = None  # silver, or dice ("3 x 2d6")
    big: bool = False
    monster: str = ""
    attitude: Literal["hostile", "unfriendly", "neutral", "friendly"] = "hostile"
    reveals: str = ""  # way: secret_door, stairs; info: doom, boss, traps, secrets
    pick: Literal["one", "all"] = "one"  # item: one of the items (drawn), or all of them

    @model_validator(mode="after")
    def _fields(self) -> Reward:
        need = {"item": ("items",), "loot": ("name", "rarity"), "silver": ("value",), "creature": ("monster",),
                "extract": ("name",), "way": ("reveals",), "info": ("reveals",)}.get(self.kind, ())  # fmt: skip
        missing = [f for f in need if getattr(self, f) in (None, "", [])]
        if missing:
            raise ValueError(f"a {self.kind} reward needs {', '.join(missing)}")
        if isinstance(self.value, str):
            from rules.dice import DiceExpr

            try:
                DiceExpr.parse(self.value)
            except ValueError as e:
                raise ValueError(f"value {self.value!r} is not dice: {e}") from e
        return self


class Feature(Model):
    name: str
    text: str
    test: Attr | None = None  # the attribute tested to interact with it, if any
    success: str = ""
    failure: str = ""
    rewards: list[Reward] = []  # what a success gives, played by the GM


class SkillNote(Model):
    """What only someone with ``skill`` makes out in a room (the sample dungeon's Loremaster, Holy Rites and
    Occult Studies notes): the GM tells it on arrival to a party with the skill."""

    skill: str  # a skill of the rules (character.toml), by its exact name
    text: str


class Corpse(Model):
    tile: Tile
    text: str
    rises_as: str | None = None  # the bestiary name the dead vigil raises it as
    warded: bool = False


class Room(Model):
    id: RoomId
    name: str
    kind: str  # the theme's room kind ("crypt", "shrine", ...)
    x: Coord
    y: Coord
    w: int = Field(ge=1, le=128)
    h: int = Field(ge=1, le=128)
    outline: list[Tile] | None = None  # the floor tiles, when the room is not its bounding rectangle
    description: str
    monsters: list[MonsterGroup] = []
    traps: list[Trap] = []
    loot: list[Loot] = []
    secrets: list[Secret] = []
    features: list[Feature] = []
    corpses: list[Corpse] = []
    camp: list[CampQuality] = []
    lit: bool = False
    boss: bool = False
    notes: str = ""  # advice for the GM
    lore: list[SkillNote] = []  # what a skill makes out here

    def floor(self) -> set[tuple[int, int]]:
        """Every floor tile of the room."""
        if self.outline is not None:
            return {(x, y) for x, y in self.outline}
        return {(x, y) for x in range(self.x, self.x + self.w) for y in range(self.y, self.y + self.h)}


class Door(Model):
    kind: DoorKind
    tile: Tile  # the doorway tile, on the room's wall line
    vertical: bool = False  # True: the door stands in a west/east wall (passage runs east-west)
    spikeable: bool = False
    key: str | None = None  # where its key is, for locked doors
    text: str = ""


class Connection(Model):
    id: int = Field(ge=1, le=9999)
    from_: RoomId = Field(alias="from")
    to: RoomId
    door: Door
    path: list[Tile] = []  # corridor tiles between the two rooms (empty: the rooms share a wall)
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Stairs(Model):
    room: RoomId
    tile: Tile
    to_depth: int = Field(ge=1, le=9)
    to_room: RoomId
    text: str = ""


class EntranceWay(Model):
    """How an entrance reaches its room from outside: a corridor from the map's edge."""

    room: RoomId
    side: Literal["north", "south", "east", "west"]
    path: Annotated[list[Tile], Field(min_length=1)]  # from the map edge inward
    door: Door  # at the room's wall
    text: str = ""  # the place outside where it opens, and where its passage leads


class DoomEffect(Model):
    kind: Literal[
        "wandering_group", "monsters_appear", "lights_snuffed", "ceiling_collapse", "ambush_dice",
        "boss_hunts", "decay_doubled", "affliction", "flood", "seal_exit", "final_fight",
    ]  # fmt: skip
    text: str
    group: str | None = None  # a wandering group's name
    monsters: list[MonsterCount] = []
    attack: str | None = None  # attack notation everyone must defend
    affliction: str | None = None
    dice: int = Field(0, ge=0, le=6)  # ambush dice added


class DoomStep(Model):
    ticks: int = Field(ge=1, le=6)  # boxes to tick before this step fires
    effect: DoomEffect


class WanderingGroup(Model):
    name: str
    text: str = ""
    monsters: Annotated[list[MonsterCount], Field(min_length=1)]


class Rumour(Model):
    roll: int = Field(ge=2, le=12)
    text: str
    true: bool


class SetPiece(Model):
    """Two rooms tied together (issue #15; the sample dungeon's pump that drains the flooded embalming room):
    worked in ``control`` (a test of ``test``; someone with ``skill`` needs none), it changes ``target`` from
    ``before`` to ``after``: its ``hazard`` (attack notation, defended by each who comes in) ends, the loot it
    ``holds`` can be taken, and what it ``releases`` comes out into it.  ``doom``: the noise of working it."""

    name: str
    control: RoomId
    target: RoomId
    text: str  # what the party finds in the control room
    test: Attr | None = None
    skill: str | None = None
    success: str
    failure: str = ""
    before: str  # the target room until it is worked
    after: str  # the target room once it is worked
    hazard: str | None = None
    holds: bool = False  # the target's loot cannot be reached until it is worked
    releases: list[MonsterCount] = []
    doom: int = Field(0, ge=0, le=3)

    @model_validator(mode="after")
    def _piece(self) -> SetPiece:
        if self.control == self.target:
            raise ValueError(f"set piece {self.name!r} must tie two rooms, not room {self.control} to itself")
        if self.test is not None and not self.failure:
            raise ValueError(f"set piece {self.name!r} has a test, so it needs failure words")
        return self


class LevelData(Model):
    """One level of a dungeon: its map, rooms, doors, doom and wanderers."""

    depth: int = Field(1, ge=1, le=9)
    name: str = ""
    seed: int = Field(ge=0)
    grid: Grid
    rooms: Annotated[list[Room], Field(min_length=1)]
    connections: list[Connection]
    stairs: list[Stairs] = []
    doom_track: Annotated[list[DoomStep], Field(min_length=1)]
    wandering_monsters: Annotated[list[WanderingGroup], Field(min_length=1)]
    set_pieces: list[SetPiece] = []

    @model_validator(mode="after")
    def _references(self) -> LevelData:
        ids = [r.id for r in self.rooms]
        if len(set(ids)) != len(ids):
            raise ValueError("room ids must be unique within a level")
        known = set(ids)
        for c in self.connections:
            if c.from_ not in known or c.to not in known:
                raise ValueError(f"connection {c.id} joins unknown room(s) {c.from_} -> {c.to}")
        for s in self.stairs:
            if s.room not in known:
                raise ValueError(f"stairs in unknown room {s.room}")
        groups = {g.name for g in self.wandering_monsters}
        for step in self.doom_track:
            if step.effect.group is not None and step.effect.group not in groups:
                raise ValueError(f"doom step names unknown wandering group {step.effect.group!r}")
        for p in self.set_pieces:
            if p.control not in known or p.target not in known:
                raise ValueError(f"set piece {p.name!r} ties unknown room(s) {p.control} -> {p.target}")
        for r in self.rooms:
            if r.x + r.w > self.grid.width or r.y + r.h > self.grid.height:
                raise ValueError(f"room {r.id} lies outside the grid")
        return self

    def room(self, room_id: int) -> Room:
        return next(r for r in self.rooms if r.id == room_id)


class Dungeon(LevelData):
    """A whole dungeon: the entry level's data, the dungeon's story, and deeper levels."""

    schema_version: Literal[1] = 1  # SCHEMA_VERSION
    generator: str = "blacksalt"
    title: str
    theme: str
    level: int = Field(ge=1, le=10)  # difficulty: roughly the monsters' levels
    hook: str
    bounty: Silver
    rumours: Annotated[list[Rumour], Field(min_length=11, max_length=11)]
    history: str
    entrances: Annotated[list[RoomId], Field(min_length=1)]
    entrance_ways: list[EntranceWay] = []  # the corridors from outside, one per entrance
    quest: str = ""  # the job: what the adventurers are given or told when they accept
    quest_after: str = ""  # what happens when they come back
    outside: str = ""  # the land before the way in, for the GM to read out
    outside_lore: list[SkillNote] = []  # what a skill makes out outside
    deeper_levels: list[LevelData] = []

    @model_validator(mode="after")
    def _dungeon(self) -> Dungeon:
        if sorted(r.roll for r in self.rumours) != list(range(2, 13)):
            raise ValueError("rumours must be one per 2d6 result, 2 to 12")
        known = {r.id for r in self.rooms}
        bad = [e for e in self.entrances if e not in known]
        if bad:
            raise ValueError(f"entrances name unknown rooms {bad}")
        stray = [w.room for w in self.entrance_ways if w.room not in self.entrances]
        if stray:
            raise ValueError(f"entrance_ways lead to rooms that are not entrances: {stray}")
        depths = [lv.depth for lv in self.deeper_levels]
        if depths != list(range(2, 2 + len(depths))):
            raise ValueError("deeper levels must have depths 2, 3, ... in order")
        return self

    @property
    def levels(self) -> list[LevelData]:
        return [self, *self.deeper_levels]

    def to_json(self) -> str:
        return self.model_dump_json(by_alias=True, indent=2) + "\n"


def json_schema() -> dict[str, Any]:
    schema = Dungeon.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://blacksalt.invalid/dungeon.schema.json"
    schema["title"] = "Blacksalt dungeon"
    return schema
