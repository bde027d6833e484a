"""What the GM needs to know of a place: the small interface ``dungeon_gen`` implements.

The GM never imports the generator: a dungeon arrives as a :class:`Site`, plain
frozen data built by ``dungeon_gen.site.to_site`` from a generated (or loaded)
dungeon.  What changes while the party is there (doom, looted rooms, dead
monsters, opened doors) lives in :class:`rules.gm.state.LocationState`, never
here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

Tile = tuple[int, int]


@dataclass(frozen=True)
class SiteWant:
    """What a group wants (rations or silver) and what it gives for it (:mod:`rules.gm.setpieces`)."""

    text: str
    asks: str  # food, silver
    amount: int
    reveals: str = ""  # doom, boss, traps, secrets, stairs (the rewards' info and way)
    told: str = ""
    leaves: bool = False


@dataclass(frozen=True)
class SiteMonsters:
    monster: str  # the bestiary's name
    count: int
    positions: tuple[Tile, ...] = ()
    aware: bool = True
    note: str = ""
    want: SiteWant | None = None


@dataclass(frozen=True)
class SiteTrap:
    name: str
    text: str
    trigger: str
    clue: str
    find: str  # attribute tested to find it ("INT")
    disarm: str  # "DEX: how"
    attack: str | None  # attack notation, defended by the victim
    effect: str
    afflictions: tuple[str, ...] = ()
    doom: int = 0
    tile: Tile | None = None
    floor: bool = False  # set in the floor: a foot springs it (the theme's trap table says; Hover, RULINGS R200)


@dataclass(frozen=True)
class SiteLoot:
    name: str
    rarity: str
    value: int
    count: int = 1
    item: str | None = None  # an equipment table's name, when usable
    hidden: bool = False
    big: bool = False
    text: str = ""


@dataclass(frozen=True)
class SiteSecret:
    kind: str  # door, passage, treasure, lore, trap
    text: str
    find: str = "INT"
    reveals: str = ""


@dataclass(frozen=True)
class SiteReward:
    """What a room feature gives on a success; :mod:`rules.gm.rewards` plays it by ``kind``."""

    kind: str  # item, loot, silver, extract, creature, way, info
    items: tuple[str, ...] = ()  # item: one is drawn when it is won
    count: int = 1
    name: str = ""  # loot: the valuable; extract: its kind (rot, necro, ...)
    rarity: str = ""  # loot
    value: str = ""  # loot, silver: silver or dice ("3 x 2d6"); loot: default the rarity's price
    big: bool = False
    monster: str = ""  # creature: the bestiary's name
    attitude: str = "hostile"  # creature
    reveals: str = ""  # way: secret_door, stairs; info: doom, boss, traps, secrets
    pick: str = "one"  # item: "one" of the items (drawn) or "all"


@dataclass(frozen=True)
class SiteFeature:
    name: str
    text: str
    test: str | None = None
    success: str = ""
    failure: str = ""
    rewards: tuple[SiteReward, ...] = ()  # what a success gives (rules.gm.rewards)


@dataclass(frozen=True)
class SiteCorpse:
    text: str
    rises_as: str | None = None
    warded: bool = False
    tile: Tile | None = None


@dataclass(frozen=True)
class SiteRoom:
    id: int
    name: str
    description: str
    tiles: frozenset[Tile]
    monsters: tuple[SiteMonsters, ...] = ()
    traps: tuple[SiteTrap, ...] = ()
    loot: tuple[SiteLoot, ...] = ()
    secrets: tuple[SiteSecret, ...] = ()
    features: tuple[SiteFeature, ...] = ()
    corpses: tuple[SiteCorpse, ...] = ()
    camp: frozenset[str] = frozenset()  # safe, dry, filthy, exposed
    lit: bool = False
    boss: bool = False
    entrance: bool = False
    stairs: tuple[tuple[int, int], ...] = ()  # (to depth, to room)
    lore: tuple[tuple[str, str], ...] = ()  # (skill, what someone with it makes out here)

    @property
    def centre(self) -> Tile:
        xs = sorted(x for x, _ in self.tiles)
        ys = sorted(y for _, y in self.tiles)
        return xs[len(xs) // 2], ys[len(ys) // 2]


@dataclass(frozen=True)
class SiteLink:
    id: int
    a: int
    b: int
    door: str  # archway, wooden, iron, stuck, locked, secret, barricaded
    spikeable: bool = False
    key: str | None = None  # where the key of a locked door is
    length: int = 1  # corridor tiles
    a_tile: Tile | None = None  # the corridor tile touching room a (None: not known)
    b_tile: Tile | None = None  # the corridor tile touching room b, where the door stands

    def other(self, room: int) -> int:
        return self.b if room == self.a else self.a

    def mouth(self, room: int) -> Tile | None:
        """The corridor tile just outside ``room`` on this link (where a fight at its doorway starts)."""
        return self.a_tile if room == self.a else self.b_tile


@dataclass(frozen=True)
class SiteDoomStep:
    ticks: int
    kind: str  # wandering_group, monsters_appear, lights_snuffed, ceiling_collapse, ambush_dice, ...
    text: str
    group: str | None = None
    monsters: tuple[tuple[str, int], ...] = ()
    attack: str | None = None
    affliction: str | None = None
    dice: int = 0


@dataclass(frozen=True)
class SitePiece:
    """Worked in room ``control``, it changes room ``target`` (:mod:`rules.gm.setpieces`)."""

    name: str
    control: int
    target: int
    text: str
    success: str
    after: str
    before: str = ""
    test: str | None = None  # STR, DEX, INT, PRE; None: no test
    skill: str | None = None  # someone with it needs no test
    failure: str = ""
    hazard: str | None = None  # attack notation on whoever comes into the target before it is worked
    holds: bool = False  # the target's valuables are out of reach until it is worked
    releases: tuple[tuple[str, int], ...] = ()
    doom: int = 0


@dataclass(frozen=True)
class SiteGroup:
    name: str
    text: str
    monsters: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class SiteLevel:
    depth: int
    name: str
    rooms: tuple[SiteRoom, ...]
    links: tuple[SiteLink, ...]
    entrances: tuple[int, ...]  # rooms entered from outside (depth 1) or by the stairs up
    doom: tuple[SiteDoomStep, ...]
    wanderers: tuple[SiteGroup, ...]
    pieces: tuple[SitePiece, ...] = ()

    def room(self, room_id: int) -> SiteRoom:
        for r in self.rooms:
            if r.id == room_id:
                return r
        raise KeyError(f"level {self.depth} has no room {room_id}")

    def links_of(self, room_id: int) -> list[SiteLink]:
        return [lk for lk in self.links if room_id in (lk.a, lk.b)]


@dataclass(frozen=True)
class Site:
    id: str
    title: str
    theme: str
    level: int  # difficulty
    bounty: int
    hook: str
    levels: tuple[SiteLevel, ...] = field(default_factory=tuple)

    def depth(self, depth: int) -> SiteLevel:
        return self.levels[depth - 1]


class DungeonMaker(Protocol):
    """Makes the places of a campaign (``dungeon_gen`` implements it).

    ``make`` returns the site and its data (the dungeon's JSON text, saved with
    the campaign); ``load`` rebuilds a site from saved data.
    """

    def make(self, seed: int, *, level: int, rooms: int, theme: str | None, depth: int) -> tuple[Site, str]: ...

    def load(self, data: str) -> Site: ...

    def themes(self, level: int | None = None) -> list[str]:
        """Theme ids; with ``level``, only those whose monsters suit a dungeon of that level."""
        ...
