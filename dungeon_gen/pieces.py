"""What ties a level together (issue #15, after the sample dungeon): set pieces, skill notes and wants.

Run after a level is furnished, from its own stream (``Random("<seed>:pieces")``), so the rooms, doors and
monsters drawn before are the same with or without it:

* **set pieces**: two or more of the theme's (three on a level of 20 rooms or more), each worked in one room
  (the *control*) and changing another a few doors away (the *target*): a hazard that ends, loot that can be
  reached, something that comes out.  No room controls two, none is changed by two;
* **skill notes**: one to three of the theme's ``lore``, each in its own room;
* **wants**: one of the theme's ``wants`` (two on a level of 20 rooms or more), its group placed in a room with
  no monsters (never the master's lair).
"""

from __future__ import annotations

from random import Random

from dungeon_gen.contents import LevelPlan, fresh, loot_for, place_of, strongest_lair
from dungeon_gen.difficulty import monster_level
from dungeon_gen.geometry import steps_from
from dungeon_gen.layout import LevelLayout, RoomShape
from dungeon_gen.model import MonsterCount, MonsterGroup, Room, SetPiece, SkillNote, Want
from dungeon_gen.story import fill
from dungeon_gen.themes import PieceTemplate, WantTemplate, parse_count

#: How many doors away a set piece's target may lie from its control room.
REACH = 3


def _distances(layout: LevelLayout, start: int) -> dict[int, int]:
    adj: dict[int, list[int]] = {r.id: [] for r in layout.rooms}
    for link in layout.links:
        adj[link.a].append(link.b)
        adj[link.b].append(link.a)
    return steps_from(adj, [start])


def tie_level(
    plan: LevelPlan, layout: LevelLayout, rooms: list[Room], rng: Random, used: set[str] | None = None
) -> tuple[list[Room], list[SetPiece]]:
    """The level's rooms with their skill notes and wanting groups, and its set pieces.  ``used``: what the
    dungeon's other levels drew (names and texts), so a deeper level ties its rooms with other pieces."""
    th = plan.theme
    by_id = {r.id: r for r in rooms}
    shapes = {s.id: s for s in layout.rooms}
    used = used if used is not None else set()
    pieces: list[SetPiece] = []
    controls: set[int] = set()
    targets: set[int] = set()
    fitting = [p for p in th.set_pieces if p.fits(plan.level)]
    for _ in range(3 if len(rooms) >= 20 else 2):
        if not fitting:
            break
        template: PieceTemplate = fresh(rng, fitting, used, key=lambda p: p.name)
        fitting = [p for p in fitting if p is not template]
        ways_in = {e.room for e in layout.entrances} | ({layout.stairs_up.room} if layout.stairs_up else set())
        # a small level may have to tie a room twice, or change a way in, to have its two
        pair = (_pair(layout, by_id, controls, targets | ways_in, rng, template.holds)
                or _pair(layout, by_id, set(), ways_in, rng, template.holds)
                or _pair(layout, by_id, set(), set(), rng, template.holds))  # fmt: skip
        if pair is None:
            break
        control, target = pair
        controls.add(control)
        targets.add(target)
        values = plan.story.values(
            room=by_id[control].name.lower(), control=by_id[control].name.lower(), target=by_id[target].name.lower()
        )
        pieces.append(
            SetPiece(
                name=template.name,
                control=control,
                target=target,
                text=fill(template.text, values, rng),
                test=template.test,
                skill=template.skill,
                success=fill(template.success, values, rng),
                failure=fill(template.failure, values, rng),
                before=fill(template.before, values, rng),
                after=fill(template.after, values, rng),
                hazard=template.hazard,
                holds=template.holds,
                releases=[
                    MonsterCount(monster=m.monster, count=rng.randint(*parse_count(m.count))) for m in template.releases
                ],
                doom=template.doom,
            )
        )
        if template.holds and not by_id[target].loot:  # what the water hides
            values = plan.story.values(room=by_id[target].name.lower())
            by_id[target] = by_id[target].model_copy(update={"loot": loot_for(plan, rng, values)})

    # skill notes, each in a room of its own
    lore_rooms = rng.sample(sorted(by_id), k=min(len(by_id), rng.choice((1, 2, 2, 3))))
    for rid in lore_rooms:
        note = fresh(rng, list(th.lore), used, key=lambda n: n.text)
        room = by_id[rid]
        text = fill(note.text, plan.story.values(room=room.name.lower()), rng)
        by_id[rid] = room.model_copy(update={"lore": [*room.lore, SkillNote(skill=note.skill, text=text)]})

    # wants: a group the party can talk to, in a room no one holds
    wants = [w for w in th.wants if w.fits(plan.level) and _tells_truly(w, plan, layout)]
    cap = monster_level(plan.story.boss)
    wants = [w for w in wants if all(monster_level(m.monster) <= cap for m in w.monsters)] or wants
    for _ in range(2 if len(rooms) >= 20 else 1):
        if not wants:
            break
        want: WantTemplate = fresh(rng, wants, used, key=lambda w: w.text)
        wants = [w for w in wants if w is not want]
        rid = _room_for_want(by_id, rng)
        room = by_id[rid]
        values = plan.story.values(room=room.name.lower())
        shape = shapes[rid]
        occupied = {t for g in room.monsters for t in g.positions}
        groups = list(room.monsters)
        gift = Want(
            text=fill(want.text, values, rng),
            asks=want.asks,
            amount=rng.randint(*parse_count(want.amount)),
            reveals=want.reveals,
            told=fill(want.told, values, rng),
            leaves=want.leaves,
        )
        for i, m in enumerate(want.monsters):
            count = rng.randint(*parse_count(m.count))
            tiles = _tiles(shape, rng, count, occupied)
            occupied.update(tiles)
            note = ""
            if i == 0:
                place = place_of(shape, tiles[0], rng)
                doing = rng.choice(("watching the door", "keeping to themselves", "waiting"))
                note = f"{place[0].lower()}{place[1:]}, {doing}"
            want_of = gift if i == 0 else None
            groups.append(MonsterGroup(monster=m.monster, count=count, positions=tiles, note=note, want=want_of))
        by_id[rid] = room.model_copy(update={"monsters": groups})
    out = [by_id[r.id] for r in rooms]
    strongest_lair(plan, out, shapes, rng)  # a group that wants something may not outdo the master's lair
    return out, pieces


def _pair(
    layout: LevelLayout, rooms: dict[int, Room], controls: set[int], targets: set[int], rng: Random, holds: bool
) -> tuple[int, int] | None:
    """A control room and a target room one to :data:`REACH` doors from it (the master's lair controls
    nothing; a room may be worked from one piece and work another, as a chain; a piece that holds loot
    prefers a target that has some).  ``targets``: rooms that may not be targets."""
    options: list[tuple[int, int]] = []
    for c in sorted(rooms):
        if rooms[c].boss or c in controls:
            continue
        dist = _distances(layout, c)
        for t, n in sorted(dist.items()):
            if 1 <= n <= REACH and t not in targets:
                options.append((c, t))
    if not options:
        return None
    if holds:
        rich = [o for o in options if rooms[o[1]].loot and not any(x.name.startswith("Key to") for x in
                                                                    rooms[o[1]].loot)]  # fmt: skip
        options = rich or options
    return rng.choice(options)


def _tells_truly(want: WantTemplate, plan: LevelPlan, layout: LevelLayout) -> bool:
    """A group tells of the master only on the master's level, of the stairs down only where there are some."""
    if want.reveals == "boss":
        return plan.last
    if want.reveals == "stairs":
        return layout.stairs_down is not None
    return True


def _room_for_want(rooms: dict[int, Room], rng: Random) -> int:
    empty = [r for r in sorted(rooms) if not rooms[r].monsters and not rooms[r].boss and not rooms[r].traps]
    empty = empty or [r for r in sorted(rooms) if not rooms[r].boss]
    return rng.choice(empty or sorted(rooms))


def _tiles(shape: RoomShape, rng: Random, n: int, avoid: set[tuple[int, int]]) -> list[tuple[int, int]]:
    floor = sorted(t for t in shape.tiles if t not in avoid) or sorted(shape.tiles)
    if n <= len(floor):
        return rng.sample(floor, n)
    return [rng.choice(floor) for _ in range(n)]
