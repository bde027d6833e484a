"""The land before the way in (issue #15, after the sample dungeon's "Entrances": "The tomb is on top of an old
hill... three main points of interest outside... the mausoleum entrance... If you allow the players to explore,
they will most likely want to use their skills").

Drawn from its own stream (``Random("<seed>:outside")`` of the first level), after the level is made, so nothing
drawn before it changes: where the dungeon lies (the theme's ``outside.setting``), for each entrance the place
outside where it opens (``outside.ways``, none twice) with the passage it leads to, taken from the map (its
side, length, door and room), and two things a skill makes out outside (``outside.lore``).
"""

from __future__ import annotations

from random import Random

from dungeon_gen.contents import placed
from dungeon_gen.model import EntranceWay, LevelData, SkillNote
from dungeon_gen.story import Story, fill
from dungeon_gen.themes import Theme

_DOOR = {"archway": "an open archway", "barricaded": "a barricaded door"}


def way_in(th: Theme, level: LevelData, way: EntranceWay, place: str) -> str:
    """An entrance's line: the place outside, then where its passage goes, from the map."""
    room = level.room(way.room)
    door = _DOOR.get(way.door.kind, f"{'an' if way.door.kind[0] in 'aeiou' else 'a'} {way.door.kind} door")
    metres = len(way.path) * level.grid.tile_m
    length = f"{metres:g} metres" if metres != 1 else "a metre"
    return (
        f"{placed(th, f'On the {way.side} side', place)} A passage of {length} leads in from it to {door} "
        f"and room {room.id} ({room.name})."
    )


def describe_outside(
    th: Theme, story: Story, level: LevelData, ways: list[EntranceWay], rng: Random
) -> tuple[str, list[SkillNote]]:
    """Fill each way's text; return the setting and the skill notes of the land outside."""
    values = story.values()
    setting = fill(rng.choice(th.outside.setting), values, rng)
    places = rng.sample(th.outside.ways, k=min(len(ways), len(th.outside.ways)))
    for i, way in enumerate(ways):
        place = fill(places[i % len(places)], values, rng)
        way.text = way_in(th, level, way, place)
    notes = [SkillNote(skill=n.skill, text=fill(n.text, values, rng)) for n in rng.sample(th.outside.lore, k=2)]
    return setting, notes
