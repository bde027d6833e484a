"""Re-rolling part of a generated dungeon: one room's contents, or a level's doom track.

Both re-run the generator's own stage functions (``furnish_level`` and
``doom_track``) with a stream derived from the level's seed, the stage and an
explicit ``seed``, so the same call always gives the same result and nothing
else of the dungeon moves.  The dungeon's story (names, boss) is rebuilt from
its seed exactly as :func:`dungeon_gen.generate.generate` drew it.

A re-rolled room keeps its place, shape, kind and name, and what belongs to
its doors rather than to it (the keys of locked doors kept here, the secret
doors found from here); its description, monsters, traps, loot, secrets,
features, corpses, light and camp qualities are drawn again.
"""

from __future__ import annotations

import re
from collections import deque
from random import Random

from dungeon_gen.contents import LevelPlan, _camp, furnish_level
from dungeon_gen.difficulty import fight
from dungeon_gen.doom import doom_track, wandering_groups
from dungeon_gen.generate import stream
from dungeon_gen.layout import Entrance, LevelLayout, RoomShape, size_of
from dungeon_gen.model import Dungeon, LevelData, Room
from dungeon_gen.story import Story, fill
from dungeon_gen.themes import Theme, load_themes

_KEY = re.compile(r"^Key to the locked door between rooms \d+ and \d+$")
_DOOR_SECRET = re.compile(r"^connection \d+$")


class RerollError(ValueError):
    """The dungeon cannot be re-rolled (an unknown theme, a level or room that does not exist, or a
    dungeon this generator did not make)."""


# --- the dungeon's plan, rebuilt ----------------------------------------------------------------


def _theme(d: Dungeon, themes: dict[str, Theme] | None) -> tuple[dict[str, Theme], Theme]:
    catalogue = themes if themes is not None else load_themes()
    if d.theme not in catalogue:
        raise RerollError(f"unknown theme {d.theme!r}: this dungeon cannot be re-rolled here")
    return catalogue, catalogue[d.theme]


def story_of(d: Dungeon, themes: dict[str, Theme] | None = None) -> Story:
    """The :class:`Story` ``generate`` drew for ``d`` (title, owner, boss ...), from its seed."""
    return _origin(d, themes)[0]


def level_seeds(d: Dungeon, themes: dict[str, Theme] | None = None) -> list[int]:
    """The seed ``generate`` drew for each level (the first level's ``seed`` field holds the dungeon's)."""
    return _origin(d, themes)[1]


def _origin(d: Dungeon, themes: dict[str, Theme] | None) -> tuple[Story, list[int]]:
    """The story and level seeds, drawn again from the master seed.  The master RNG drew a random
    theme first when none was asked for; both ways are tried, and the one that gives the dungeon's
    deeper levels' seeds and its title is kept."""
    catalogue, th = _theme(d, themes)
    deeper = [lv.seed for lv in d.deeper_levels]
    for random_theme in (False, True):
        master = Random(d.seed)
        if random_theme and sorted(catalogue)[master.randrange(len(catalogue))] != d.theme:
            continue
        seeds = [master.getrandbits(63) for _ in d.levels]
        if seeds[1:] != deeper:
            continue
        story_seed = master.getrandbits(63)
        story = Story.draw(th, stream(story_seed, "names"), level=d.level, depth=len(seeds))
        if story.title == d.title:
            return story, seeds
    raise RerollError("this dungeon's seeds do not match its contents: it was not made by this generator")


def _level(d: Dungeon, depth: int) -> LevelData:
    for lv in d.levels:
        if lv.depth == depth:
            return lv
    raise RerollError(f"the dungeon has no level {depth}")


def _plan(d: Dungeon, level: LevelData, th: Theme, story: Story, seed: int) -> LevelPlan:
    depth = level.depth
    return LevelPlan(
        theme=th,
        story=story,
        depth=depth,
        last=depth == len(d.levels),
        level=min(10, d.level + depth - 1),
        seed=seed,
    )


def _with_level(d: Dungeon, level: LevelData) -> Dungeon:
    """``d`` with one level replaced (a deep copy: the original is untouched)."""
    fields = ("rooms", "connections", "stairs", "doom_track", "wandering_monsters")
    if level.depth == 1:
        out = d.model_copy(update={f: getattr(level, f) for f in fields})
    else:
        deeper = [level if lv.depth == level.depth else lv for lv in d.deeper_levels]
        out = d.model_copy(update={"deeper_levels": deeper})
    return out.model_copy(deep=True)


# --- one room -----------------------------------------------------------------------------------


def _starts(d: Dungeon, level: LevelData) -> list[int]:
    """The rooms a level is entered by: its entrances, or the room of its stairs up."""
    if level.depth == 1:
        return list(d.entrances)
    up = [s.room for s in level.stairs if s.to_depth < level.depth]
    return up or [level.rooms[0].id]


def _room_depths(level: LevelData, starts: list[int]) -> dict[int, int]:
    adj: dict[int, set[int]] = {r.id: set() for r in level.rooms}
    for c in level.connections:
        adj[c.from_].add(c.to)
        adj[c.to].add(c.from_)
    dist = dict.fromkeys(starts, 0)
    todo = deque(starts)
    while todo:
        r = todo.popleft()
        for n in sorted(adj[r]):
            if n not in dist:
                dist[n] = dist[r] + 1
                todo.append(n)
    return dist


def _shape(level: LevelData, room: Room, depth: int) -> RoomShape:
    tiles = frozenset(room.floor())
    degree = sum(1 for c in level.connections if room.id in (c.from_, c.to))
    return RoomShape(
        id=room.id,
        x=room.x,
        y=room.y,
        w=room.w,
        h=room.h,
        tiles=tiles,
        shape="rect" if room.outline is None else "outline",
        size=size_of(len(tiles)),
        depth=depth,
        is_dead_end=degree == 1,
    )


def reroll_room(d: Dungeon, depth: int, room_id: int, seed: int, *, themes: dict[str, Theme] | None = None) -> Dungeon:
    """A copy of ``d`` whose room ``room_id`` on level ``depth`` has its contents drawn again.

    Deterministic: the same dungeon, room and ``seed`` give the same room.  Every other room, the
    connections, stairs, doom track and wandering monsters stay as they were."""
    _, th = _theme(d, themes)
    story, seeds = _origin(d, themes)
    level = _level(d, depth)
    lseed = seeds[depth - 1]
    room = next((r for r in level.rooms if r.id == room_id), None)
    if room is None:
        raise RerollError(f"level {depth} has no room {room_id}")
    plan = _plan(d, level, th, story, lseed)
    starts = _starts(d, level)
    depths = _room_depths(level, starts)
    shape = _shape(level, room, depths.get(room_id, max(depths.values(), default=0) + 1))
    kind = th.room_kind(room.kind) if any(k.id == room.kind for k in th.room_kinds) else None
    if kind is None:
        raise RerollError(f"room {room_id} is of kind {room.kind!r}, which the theme {th.id!r} does not know")
    # The theme, narrowed to this room's kind and name: furnish_level then fills this one room.
    # Its description is drawn from the others of its kind, so a re-roll reads differently.
    others = [t for t in kind.descriptions if fill(t, story.values(room=room.name.lower())) != room.description]
    narrowed = kind.model_copy(
        update={"names": [room.name], "descriptions": others or kind.descriptions, "stairs": False}
    )  # the stairs are the map's: this one room of the narrowed theme takes its kind wherever it is
    one_kind = th.model_copy(update={"room_kinds": [narrowed]})
    entrance = room_id in d.entrances and depth == 1
    layout = LevelLayout(
        width=level.grid.width,
        height=level.grid.height,
        rooms=(shape,),
        links=(),
        entrances=(Entrance(room_id, (0, 0), "north", ((0, 0),), (0, 0), False),) if entrance else (),
        stairs_down=None,
        stairs_up=None,
    )
    plan1 = LevelPlan(
        theme=one_kind,
        story=plan.story,
        depth=plan.depth,
        last=plan.last and room.boss,  # the lair is the deepest level's boss room, and only it
        level=plan.level,
        seed=plan.seed,
    )
    rooms, _, _ = furnish_level(plan1, layout, stream(lseed, f"reroll-room:{room_id}:{seed}"))
    fresh = rooms[0]
    keys = [lt for lt in room.loot if _KEY.match(lt.name) and lt.rarity == "free"]
    doors = [s for s in room.secrets if s.kind == "door" and _DOOR_SECRET.match(s.reveals)]
    degree = sum(1 for c in level.connections if room_id in (c.from_, c.to))
    new_room = fresh.model_copy(
        update={
            "id": room.id,
            "name": room.name,
            "kind": room.kind,
            "x": room.x,
            "y": room.y,
            "w": room.w,
            "h": room.h,
            "outline": room.outline,
            "loot": [*keys, *fresh.loot],
            "secrets": [*doors, *fresh.secrets],
            "camp": _camp(kind, bool(fresh.monsters), bool(fresh.traps), degree, entrance),
        }
    )
    new_level = level.model_copy(update={"rooms": [new_room if r.id == room_id else r for r in level.rooms]})
    return _with_level(d, new_level)


# --- the doom track -----------------------------------------------------------------------------


def reroll_doom(
    d: Dungeon, depth: int, seed: int, *, wanderers: bool = False, themes: dict[str, Theme] | None = None
) -> Dungeon:
    """A copy of ``d`` whose level ``depth`` has a new doom track (and, with ``wanderers``, new
    wandering monsters first, which the track's steps may then name).  Deterministic in ``seed``."""
    _, th = _theme(d, themes)
    story, seeds = _origin(d, themes)
    level = _level(d, depth)
    lseed = seeds[depth - 1]
    plan = _plan(d, level, th, story, lseed)
    groups = level.wandering_monsters
    if wanderers:
        groups = wandering_groups(plan, stream(lseed, f"reroll-wanderers:{seed}"))
    hardest = max((fight(r.monsters) for r in level.rooms), default=0)
    track = doom_track(plan, groups, stream(lseed, f"reroll-doom:{seed}"), hardest=hardest)
    new_level = level.model_copy(update={"doom_track": track, "wandering_monsters": groups})
    return _with_level(d, new_level)
