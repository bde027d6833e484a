"""The dungeon pipeline: seed → theme → levels (layout → doors → rooms → doom → wanderers) → story.

Like Brogue's, every level's seed is drawn from the master seed up front, so
changing one level (more rooms, another layout) never shifts another, and
each stage of a level draws from its own stream (``Random("<seed>:<stage>")``,
which Python seeds by SHA-512 of the string: the same on every machine).
The same seed and parameters give the byte-identical dungeon every time.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from random import Random

from dungeon_gen.advice import advise_level
from dungeon_gen.contents import LevelPlan, entrance_ways, furnish_level
from dungeon_gen.difficulty import fight
from dungeon_gen.doom import doom_track, wandering_groups
from dungeon_gen.layout import build_level
from dungeon_gen.model import Dungeon, EntranceWay, LevelData
from dungeon_gen.outside import describe_outside
from dungeon_gen.pieces import tie_level
from dungeon_gen.story import Story, tell
from dungeon_gen.themes import Theme, ThemeShelf

GENERATOR = "blacksalt-dungeon-1"


class GenerationError(ValueError):
    """Parameters the generator cannot honour (the message says which and why)."""


def stream(seed: int, stage: str) -> Random:
    """An independent, reproducible RNG for one stage of one level."""
    return Random(f"{seed}:{stage}")


def generate(
    seed: int,
    *,
    level: int = 1,
    rooms: int = 12,
    theme: str | None = None,
    depth: int = 1,
    themes: Mapping[str, Theme] | None = None,
) -> Dungeon:
    """A whole dungeon.  ``level``: difficulty 1–10; ``rooms``: per level (3–60); ``depth``: levels (1–5)."""
    if not 1 <= level <= 10:
        raise GenerationError(f"level must be 1 to 10, not {level}")
    if not 3 <= rooms <= 60:
        raise GenerationError(f"rooms must be 3 to 60 per level, not {rooms}")
    if not 1 <= depth <= 5:
        raise GenerationError(f"depth must be 1 to 5 levels, not {depth}")
    if seed < 0:
        raise GenerationError(f"the seed must be zero or positive, not {seed}")
    catalogue = themes if themes is not None else ThemeShelf()  # reads only the theme drawn
    master = Random(seed)
    theme_id = theme if theme is not None else sorted(catalogue)[master.randrange(len(catalogue))]
    if theme_id not in catalogue:
        raise GenerationError(f"unknown theme {theme_id!r}; choose one of {', '.join(sorted(catalogue))}")
    th = catalogue[theme_id]
    level_seeds = [master.getrandbits(63) for _ in range(depth)]
    story_seed = master.getrandbits(63)
    story = Story.draw(th, stream(story_seed, "names"), level=level, depth=depth)

    levels: list[LevelData] = []
    entrances: list[int] = []
    ways: list[EntranceWay] = []
    down_at: tuple[int, int] | None = None
    tied: set[str] = set()  # set pieces, skill notes and wants drawn on the levels above
    for i, lseed in enumerate(level_seeds):
        d = i + 1
        layout = build_level(
            stream(lseed, "layout"),
            rooms,
            entrances=(1 + (rooms >= 12) + (rooms >= 30)) if d == 1 else 0,
            stairs_down=d < depth,
            stairs_up=d > 1,
            style=th.style,
            stairs_up_near=down_at if d > 1 else None,
        )
        plan = LevelPlan(theme=th, story=story, depth=d, last=d == depth, level=min(10, level + d - 1), seed=lseed)
        rooms_, connections, stairs = furnish_level(plan, layout, stream(lseed, "rooms"))
        rooms_, pieces = tie_level(plan, layout, rooms_, stream(lseed, "pieces"), tied)
        if d == 1:
            entrances = [e.room for e in layout.entrances]
            ways = entrance_ways(th, story, layout, stream(lseed, "entrances"))
        if layout.stairs_down is not None:
            down_at = layout.stairs_down.tile
        groups = wandering_groups(plan, stream(lseed, "wanderers"))
        track = doom_track(plan, groups, stream(lseed, "doom"), hardest=max(fight(r.monsters) for r in rooms_))
        data = LevelData(
            depth=d,
            name=story.level_names[i],
            seed=lseed,
            grid={"width": layout.width, "height": layout.height, "tile_m": 1.5},
            rooms=rooms_,
            connections=connections,
            stairs=stairs,
            doom_track=track,
            wandering_monsters=groups,
            set_pieces=pieces,
        )
        advise_level(data, entrances if d == 1 else [], stream(lseed, "advice"))
        levels.append(data)
    _link_stairs(levels)
    first = levels[0]
    outside, outside_lore = describe_outside(th, story, first, ways, stream(level_seeds[0], "outside"))
    text = tell(th, story, levels, stream(story_seed, "story"))
    return Dungeon(
        seed=seed,
        generator=GENERATOR,
        title=story.title,
        theme=th.id,
        level=level,
        hook=text.hook,
        quest=text.quest,
        quest_after=text.quest_after,
        bounty=story.bounty,
        rumours=text.rumours,
        history=text.history,
        entrances=entrances,
        entrance_ways=ways,
        outside=outside,
        outside_lore=outside_lore,
        depth=1,
        name=first.name,
        grid=first.grid,
        rooms=first.rooms,
        connections=first.connections,
        stairs=first.stairs,
        doom_track=first.doom_track,
        wandering_monsters=first.wandering_monsters,
        set_pieces=first.set_pieces,
        deeper_levels=levels[1:],
    )


def _link_stairs(levels: list[LevelData]) -> None:
    """Point each level's stairs down at the next level's stairs up, and back."""
    for upper, lower in pairwise(levels):
        down = next((s for s in upper.stairs if s.to_depth == lower.depth), None)
        up = next((s for s in lower.stairs if s.to_depth == upper.depth), None)
        if down is not None and up is not None:
            down.to_room = up.room
            up.to_room = down.room
