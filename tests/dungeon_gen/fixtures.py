"""Hand-built dungeons for the export and render tests, until the generator lands.

:func:`small_dungeon` is a two-level dungeon whose first level has six rooms
(one of them an irregular cavern), one door of each kind, a corridor with a
bend, monsters, a trap, a corpse, stairs down and an entrance.
:func:`big_level` is a synthetic level of 30 rooms on a 6 × 5 lattice, for
timing the renderer on a realistic size.
"""

from __future__ import annotations

import itertools
import random

from dungeon_gen.model import (
    Connection,
    Corpse,
    DoomEffect,
    DoomStep,
    Door,
    Dungeon,
    Feature,
    Grid,
    LevelData,
    MonsterGroup,
    Room,
    Rumour,
    Stairs,
    Trap,
    WanderingGroup,
)

DOOR_KINDS = ("archway", "wooden", "iron", "stuck", "locked", "secret", "barricaded")


def _line(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """Tiles from a to b inclusive, along one axis."""
    (ax, ay), (bx, by) = a, b
    if ax == bx:
        step = 1 if by >= ay else -1
        return [(ax, y) for y in range(ay, by + step, step)]
    if ay == by:
        step = 1 if bx >= ax else -1
        return [(x, ay) for x in range(ax, bx + step, step)]
    raise ValueError("not a straight line")


def _path(*corners: tuple[int, int]) -> list[tuple[int, int]]:
    """A corridor through its corners, without repeating a corner tile."""
    out: list[tuple[int, int]] = []
    for a, b in itertools.pairwise(corners):
        seg = _line(a, b)
        out.extend(seg if not out else seg[1:])
    return out


def _cavern() -> list[tuple[int, int]]:
    rows = {14: (29, 32), 15: (28, 33), 16: (27, 34), 17: (27, 34), 18: (27, 34), 19: (27, 33), 20: (28, 33)}
    rows[21] = (29, 32)
    return [(x, y) for y, (a, b) in rows.items() for x in range(a, b + 1)]


def _doom() -> list[DoomStep]:
    return [
        DoomStep(ticks=2, effect=DoomEffect(kind="wandering_group", text="The scavengers come.", group="Scavengers")),
        DoomStep(ticks=2, effect=DoomEffect(kind="lights_snuffed", text="A cold wind snuffs every torch.")),
        DoomStep(ticks=2, effect=DoomEffect(kind="final_fight", text="The hobgoblin chief hunts the party.")),
    ]


def _wanderers() -> list[WanderingGroup]:
    from dungeon_gen.model import MonsterCount

    return [
        WanderingGroup(
            name="Scavengers",
            text="Looking for anything shiny.",
            monsters=[MonsterCount(monster="Goblin Scrapper", count=3)],
        )
    ]


def level_one_rooms() -> list[Room]:
    return [
        Room(
            id=1,
            name="The Tomb Entrance",
            kind="entrance",
            x=3,
            y=10,
            w=6,
            h=5,
            description="Roots cover every wall; a moldy smell.",
            lit=True,
        ),
        Room(
            id=2,
            name="Fountain Room",
            kind="shrine",
            x=14,
            y=3,
            w=7,
            h=6,
            description="A murky fountain bubbling with a strange foam.",
            monsters=[MonsterGroup(monster="Goblin Scrapper", count=2, positions=[(16, 5), (18, 6)])],
            features=[Feature(name="Brazier", text="A brazier of green coals.")],
            lit=True,
        ),
        Room(
            id=3,
            name="Small Prayer Room",
            kind="crypt",
            x=14,
            y=15,
            w=8,
            h=6,
            description="A row of broken benches before an amber statue.",
            monsters=[
                MonsterGroup(
                    monster="Slumbering Corpse",
                    count=3,
                    positions=[(15, 16), (16, 16), (17, 16)],
                    aware=False,
                    note="praying to the statue with a low chant",
                )
            ],
            corpses=[Corpse(tile=(19, 18), text="A goblin, throat cut.", rises_as="Slumbering Corpse")],
        ),
        Room(
            id=4,
            name="Illustrated Vault",
            kind="vault",
            x=28,
            y=4,
            w=5,
            h=5,
            description="Frescoes of the necromancer's triumphs.",
            traps=[
                Trap(
                    name="Spiked plate",
                    text="A red plate with holes in the middle of the floor.",
                    tile=(30, 7),
                    trigger="stepping on the plate",
                    effect="spikes shoot up",
                    attack="-DEX 2+1B",
                )
            ],
        ),
        Room(
            id=5,
            name="Primordial Cave",
            kind="cave",
            x=27,
            y=14,
            w=8,
            h=8,
            outline=_cavern(),
            description="A wet natural cave; stairs cut into the rock lead down.",
            monsters=[MonsterGroup(monster="Hobgoblin", count=1, positions=[(30, 17)])],
            boss=True,
        ),
        Room(id=6, name="Cell", kind="cell", x=3, y=21, w=4, h=4, description="A cramped cell, chains on the wall."),
    ]


def level_one_connections() -> list[Connection]:
    def conn(cid: int, a: int, b: int, kind: str, path: list[tuple[int, int]], vertical: bool) -> Connection:
        door = Door(kind=kind, tile=path[-1], vertical=vertical)
        return Connection(id=cid, from_=a, to=b, door=door, path=path)

    return [
        # The corridor with a bend: east out of the entrance hall, north, then east into the fountain room.
        conn(1, 1, 2, "wooden", _path((9, 11), (11, 11), (11, 6), (13, 6)), True),
        conn(2, 1, 3, "archway", _path((6, 15), (6, 17), (13, 17)), True),
        conn(3, 2, 3, "iron", _path((17, 9), (17, 14)), False),
        conn(4, 2, 4, "locked", _path((21, 6), (27, 6)), True),
        conn(5, 3, 5, "stuck", _path((22, 18), (26, 18)), True),
        conn(6, 4, 5, "secret", _path((30, 9), (30, 13)), False),
        conn(7, 1, 6, "barricaded", _path((4, 15), (4, 20)), False),
    ]


def level_two() -> LevelData:
    rooms = [
        Room(id=1, name="Landing", kind="cave", x=4, y=4, w=5, h=4, description="The stairs end in a wet landing."),
        Room(id=2, name="Weaver's Vault", kind="vault", x=14, y=3, w=6, h=7, description="Webs.", boss=True),
        Room(id=3, name="Ossuary", kind="crypt", x=5, y=13, w=7, h=4, description="Bones, neatly stacked."),
    ]
    connections = [
        Connection(
            id=1, from_=1, to=2, door=Door(kind="iron", tile=(13, 5), vertical=True), path=_path((9, 5), (13, 5))
        ),
        Connection(id=2, from_=1, to=3, door=Door(kind="archway", tile=(6, 12)), path=_path((6, 8), (6, 12))),
    ]
    return LevelData(
        depth=2,
        name="The Burial Chamber",
        seed=2,
        grid=Grid(width=24, height=20),
        rooms=rooms,
        connections=connections,
        stairs=[Stairs(room=1, tile=(4, 4), to_depth=1, to_room=5, text="Up to the cave.")],
        doom_track=_doom(),
        wandering_monsters=_wanderers(),
    )


def small_dungeon() -> Dungeon:
    return Dungeon(
        depth=1,
        name="The Mausoleum",
        seed=1234,
        grid=Grid(width=40, height=28),
        rooms=level_one_rooms(),
        connections=level_one_connections(),
        stairs=[Stairs(room=5, tile=(33, 19), to_depth=2, to_room=1, text="Slick steps going down.")],
        doom_track=_doom(),
        wandering_monsters=_wanderers(),
        title="Shattered Tomb of Acheron Zul",
        theme="undead",
        level=2,
        hook="The fief of Trinta is cursed; bring back the necromancer's remains for 80 silver.",
        bounty=80,
        rumours=[Rumour(roll=r, text=f"Rumour {r}.", true=r % 2 == 0) for r in range(2, 13)],
        history="Acheron Zul died in his own ritual; goblins woke his curse.",
        entrances=[1],
        deeper_levels=[level_two()],
    )


def big_level(rooms_wide: int = 6, rooms_high: int = 5, seed: int = 7) -> LevelData:
    """About 30 rectangular rooms on a lattice of 12-tile cells, joined by bent corridors."""
    rng = random.Random(seed)
    cell = 12
    rooms: list[Room] = []
    at: dict[tuple[int, int], Room] = {}
    for cy in range(rooms_high):
        for cx in range(rooms_wide):
            w, h = rng.randint(4, 8), rng.randint(4, 8)
            x = cx * cell + 2 + rng.randint(0, cell - 3 - w)
            y = cy * cell + 2 + rng.randint(0, cell - 3 - h)
            room = Room(
                id=len(rooms) + 1,
                name=f"Room {len(rooms) + 1}",
                kind="hall",
                x=x,
                y=y,
                w=w,
                h=h,
                description="A room.",
                lit=rng.random() < 0.2,
            )
            rooms.append(room)
            at[(cx, cy)] = room
    connections: list[Connection] = []
    for (cx, cy), a in sorted(at.items()):
        for dx, dy in ((1, 0), (0, 1)):
            b = at.get((cx + dx, cy + dy))
            if b is None or (rng.random() < 0.25 and connections):
                continue
            kind = DOOR_KINDS[len(connections) % len(DOOR_KINDS)]
            if dx:  # east out of a, a bend in the gap between cells, east into b
                ya, yb, mid = rng.randint(a.y, a.y + a.h - 1), rng.randint(b.y, b.y + b.h - 1), (cx + 1) * cell
                path = _path((a.x + a.w, ya), (mid, ya), (mid, yb), (b.x - 1, yb))
            else:  # south out of a, a bend, south into b
                xa, xb, mid = rng.randint(a.x, a.x + a.w - 1), rng.randint(b.x, b.x + b.w - 1), (cy + 1) * cell
                path = _path((xa, a.y + a.h), (xa, mid), (xb, mid), (xb, b.y - 1))
            door = Door(kind=kind, tile=path[-1], vertical=bool(dx))
            connections.append(Connection(id=len(connections) + 1, from_=a.id, to=b.id, door=door, path=path))
    last = rooms[-1]
    return LevelData(
        depth=1,
        name="The Lattice",
        seed=seed,
        grid=Grid(width=rooms_wide * cell + 2, height=rooms_high * cell + 2),
        rooms=rooms,
        connections=connections,
        stairs=[Stairs(room=last.id, tile=(last.x, last.y), to_depth=2, to_room=1)],
        doom_track=_doom(),
        wandering_monsters=_wanderers(),
    )
