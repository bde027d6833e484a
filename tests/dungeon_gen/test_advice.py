"""GM advice on running a room's fight (issue #15): every line names only what the map has: the room it sends
fleeing monsters to lies on through an open way, the room whose monsters join in is next door with those
monsters, the door to spike is spikeable and leads back towards the way in, and a group said never to break
has no morale in the bestiary."""

from __future__ import annotations

import re

import pytest

from dungeon_gen.advice import ALONE, HALF, HEADS, LAIR, _distances, _starts
from dungeon_gen.export.markdown import direction, plural, to_markdown
from dungeon_gen.generate import generate
from dungeon_gen.model import Connection, LevelData, Room
from dungeon_gen.themes import load_themes
from rules.content.registry import load_content

THEMES = sorted(load_themes())
CASES = [(700 + i, THEMES[i % len(THEMES)], 1 + i % 2, (8, 20)[i % 2]) for i in range(21)]
DOOR = r"(open archway|[a-z]+ door)"
FLEE = re.compile(rf"they run (north|south|east|west) through the {DOOR} to room (\d+) \(([^)]+)\)")
JOIN = re.compile(
    rf"the (?:(\d+) )?([A-Z][\w' -]+?) of room (\d+) \(([^)]+)\) hears? it through the {DOOR} to the (\w+)"
)
SPIKE = re.compile(rf"fall back (north|south|east|west) through the {DOOR} to room (\d+) and spike it")


def _door(c: Connection) -> str:
    return "open archway" if c.door.kind == "archway" else f"{c.door.kind} door"


def _link(level: LevelData, room: Room, other: int, door: str, side: str) -> Connection:
    found = [
        c
        for c in level.connections
        if {c.from_, c.to} == {room.id, other}
        and _door(c) == door
        and direction(room, c.path[0] if c.from_ == room.id and c.path else c.door.tile) == side
    ]
    assert found, f"room {room.id}: no {door} to the {side} leads to room {other}"
    return found[0]


@pytest.mark.parametrize(("seed", "theme", "depth", "rooms"), CASES)
def test_the_advice_agrees_with_the_map(seed: int, theme: str, depth: int, rooms: int) -> None:
    d = generate(seed, theme=theme, level=load_themes()[theme].min_level, depth=depth, rooms=rooms)
    bestiary = {m.name: m for m in load_content().bestiary.monsters}
    for level in d.levels:
        rooms_by_id = {r.id: r for r in level.rooms}
        dist = _distances(level, _starts(level, d.entrances if level.depth == 1 else []))
        for room in level.rooms:
            fighting = [g for g in room.monsters if g.want is None]
            assert bool(room.notes) == bool(fighting), (room.id, room.notes)
            if not fighting:
                continue
            if room.boss:
                lead, waits, hardest = ("|".join(map(re.escape, part)) for part in LAIR)
                master = re.escape(room.monsters[0].monster)
                assert re.match(rf"({lead}), the {master}, ({waits}): ({hardest})\.", room.notes), room.notes
            fearless = all(not bestiary[g.monster].morale for g in fighting)
            assert ("never break" in room.notes or "No morale to break" in room.notes) == fearless, room.notes
            if m := FLEE.search(room.notes):
                side, door, other, name = m[1], m[2], int(m[3]), m[4]
                _link(level, room, other, door, side)
                assert rooms_by_id[other].name == name
                assert dist[other] > dist[room.id], (room.id, other)
                assert door in ("open archway", "wooden door", "iron door")
            if m := JOIN.search(room.notes):
                count, monster, other, name, door, side = int(m[1] or 1), m[2], int(m[3]), m[4], m[5], m[6]
                _link(level, room, other, door, side)
                assert rooms_by_id[other].name == name and not rooms_by_id[other].boss
                assert any(plural(g.monster, g.count) == monster and g.count == count
                           for g in rooms_by_id[other].monsters), (monster, count)  # fmt: skip
            if m := SPIKE.search(room.notes):
                side, door, other = m[1], m[2], int(m[3])
                c = _link(level, room, other, door, side)
                assert c.door.spikeable and dist[other] < dist[room.id]
            for t in re.findall(r"The ([a-z' -]+?)(?: \([a-z -]+\))? is still armed", room.notes):
                assert t in {x.name.lower() for x in room.traps}
            if m := re.search(
                rf"get out (north|south|east|west) through the {DOOR} to room (\d+) and shut it", room.notes
            ):
                c = _link(level, room, int(m[3]), m[2], m[1])
                assert c.door.kind not in ("archway", "secret", "barricaded") and fearless
    opens = "|".join(re.escape(h.split("{")[0]) for h in HALF) + "|" + "|".join(map(re.escape, LAIR[0]))
    assert re.search(rf"^> ({opens})", to_markdown(d), re.MULTILINE)


def test_the_advice_for_a_lone_jumpy_rat() -> None:
    """A lone Giant Rat (morale, R108: a lone enemy never tests; 'Jumpy!' in the bestiary): the first such room of
    the salt mine's seeds, its advice word for word."""
    room = next(
        r
        for seed in range(1, 40)
        for r in generate(seed, theme="salt_mine", level=1, depth=1, rooms=20).rooms
        if [(g.monster, g.count, g.want) for g in r.monsters] == [("Giant Rat", 1, None)] and not r.boss
    )
    alone, end, heads = ("|".join(map(re.escape, part)) for part in (*ALONE, HEADS))
    assert re.match(
        rf"The Giant Rat ({alone}): ({end})\. ({heads}) the "
        r"Giant Rat \((in the (north|south)-(east|west) corner|by the (north|south|east|west) wall|in the middle)\): "
        r"Jumpy \(if the rat is hit by an attack, it can Move immediately\)\.",
        room.notes,
    ), room.notes
