"""GM advice on running a room's fight (issue #15, after the sample dungeon's "if the combat is too easy, add
1 or 2 dire spiders coming from the outside tunnel"): drawn from the level as it is, so every line names only
what the map has.

Run last on a furnished level, from its own stream (``Random("<seed>:advice")``), so nothing drawn before it
changes.  For each room with a fight (not a group that can be talked to), up to three of:

* **what to mind**: a special rule of one of its monsters that changes how the fight goes (flight, immunity,
  bursting on death...), in the bestiary's own words;
* **morale** (R108): whether they ever break, and where they run if they do: the first open way out that
  leads on, away from where the party comes in (R252);
* **too easy**: the monsters of a room next door, through an open way, that hear it and join in the second
  round (R253);
* **too hard**: the spikeable door the party came in by, to fall back through and spike;
* **the room's trap**: where it lies, still armed while they fight (R254);
* a group that never breaks: the door to get out by and shut on them.

The master's lair keeps its own line first: the hardest fight of the dungeon.
"""

from __future__ import annotations

import re
from functools import cache
from random import Random

from dungeon_gen.export.markdown import direction, plural
from dungeon_gen.geometry import compass, steps_from
from dungeon_gen.model import Connection, LevelData, MonsterGroup, Room

#: Doors a fleeing group or a reinforcement passes without stopping: open, or opened by a push.
OPEN = {"archway", "wooden", "iron"}
#: The special rules worth a line of advice, in the order they are preferred.
MIND = (
    "only_fire_or_spells",
    "explodes_on_death",
    "incorporeal",
    "immaterial",
    "fly",
    "wall_climber",
    "terrifying",
    "nauseating_aura",
    "toxic_spores",
    "frenzied",
    "damage_cap",
    "jumpy",
)
#: The lair's line, from three independent parts (issue #15: a sentence every key has needs many variants).
LAIR = (
    ("The master of this place", "The master of the dungeon", "The dungeon's master", "The one who rules here"),
    ("waits here", "holds this room", "keeps to this room", "makes its stand here", "waits in this room"),
    (
        "the hardest fight of the dungeon",
        "no fight in the dungeon is harder",
        "the dungeon's hardest fight",
        "nothing in the dungeon is harder to beat",
        "the hardest fight the party will meet here",
    ),
)
#: What to mind: the words that open the line.
HEADS = ("Mind", "Remember", "Keep in mind", "Do not forget", "Bear in mind", "Note")
#: A lone enemy (R108): the two halves of its line.
ALONE = (
    (
        "is alone and never tests its morale",
        "fights alone and never tests its morale",
        "has no one beside it and never tests its morale",
        "stands by itself and never tests its morale",
        "has no pack to lose heart with and never tests its morale",
    ),
    (
        "it fights to the end",
        "it fights until it falls",
        "it does not run",
        "it stands until it is cut down",
        "no rout, no flight",
        "it will not turn tail",
        "it never gives ground of its own will",
        "it stays until one side is dead",
    ),
)
#: A group with morale (R108): when it tests, what it rolls, and where it runs when cornered.
HALF = (
    "When half of {names} are down",
    "Once half of {names} have fallen",
    "With half of {names} down",
    "As soon as half of {names} fall",
)
ROLL = (
    "each left{some} rolls its level in dice and runs unless one shows 4+",
    "each one left{some} rolls as many dice as its level and runs unless one shows 4+",
    "every one still standing{some} rolls its level in dice and flees unless one shows 4+",
)
CORNERED = (
    "with no way on but past the party, they run back the way the party came",
    "with no way on but past the party, they break back the way the party came",
    "the only way on is past the party, so they run back the way the party came",
)
#: A trap in the fight's room: who keeps clear of it, and what a step onto it does.
CLEAR = (
    "the monsters keep clear of it",
    "the monsters know where it is and step around it",
    "the monsters fight around it",
)
ONTO = (
    "an adventurer driven back onto it sets it off",
    "an adventurer who gives ground onto it springs it",
    "whoever backs onto it in the melee sets it off",
)


@cache
def _monsters() -> dict[str, tuple[bool, tuple[tuple[str, str], ...]]]:
    """Bestiary name (lower case) -> (has morale, ((rule, text) of its specials))."""
    from rules.content.registry import load_content

    return {
        m.name.lower(): (m.morale, tuple((s.rule, s.text) for s in m.specials))
        for m in load_content().bestiary.monsters
    }


def _who(g: MonsterGroup) -> str:
    return f"the {plural(g.monster, g.count)}" if g.count > 1 else f"the {g.monster}"


def _side(room: Room, c: Connection) -> str:
    return direction(room, c.path[0] if c.from_ == room.id and c.path else c.door.tile)


def _door(c: Connection) -> str:
    return "open archway" if c.door.kind == "archway" else f"{c.door.kind} door"


def _starts(level: LevelData, entrances: list[int]) -> set[int]:
    starts = set(entrances) if level.depth == 1 else set()
    starts |= {s.room for s in level.stairs if s.to_depth < level.depth}
    return starts or {level.rooms[0].id}


def _distances(level: LevelData, starts: set[int]) -> dict[int, int]:
    """Doors from the way in, through every door the party can find without searching."""
    adj: dict[int, list[int]] = {r.id: [] for r in level.rooms}
    for c in level.connections:
        if c.door.kind != "secret":
            adj[c.from_].append(c.to)
            adj[c.to].append(c.from_)
    return steps_from(adj, starts)


def _mind(room: Room, rng: Random) -> str | None:
    found: list[tuple[int, MonsterGroup, str]] = []
    for g in room.monsters:
        for rule, text in _monsters().get(g.monster.lower(), (True, ()))[1]:
            if rule in MIND:
                found.append((MIND.index(rule), g, text))
    if not found:
        return None
    _, g, text = min(found, key=lambda f: f[0])
    head = rng.choice(HEADS)
    # The rule's sentences run on as one line after the head (issue #15: the bestiary's second sentence, the
    # same in every key that meets the monster, no longer stands alone): "Jumpy! If the rat..." reads "Jumpy (if
    # the rat...)".
    text = re.sub(r"\.\s+([A-Z])(?=[a-z])", lambda m: "; " + m[1].lower(), text.rstrip(".!"))
    text = re.sub(r"^([A-Z][\w ]*)! ([A-Z])(?=[a-z])(.*)$", lambda m: f"{m[1]} ({m[2].lower()}{m[3]})", text)
    where = f" ({_place(room, g.positions[0]).lower()})" if g.positions else ""  # which of the room's enemies
    return f"{head} {_who(g)}{where}: {text}."


def _morale(room: Room, exits: list[Connection], dist: dict[int, int], rooms: dict[int, Room], rng: Random) -> str:
    fighting = [g for g in room.monsters if g.want is None]
    brave = [g for g in fighting if _monsters().get(g.monster.lower(), (True, ()))[0]]
    if not brave:
        who = " and ".join(_who(g) for g in fighting)
        here = dist.get(room.id, 0)
        shut = sorted(
            (c for c in exits if c.door.kind not in ("archway", "secret", "barricaded")),
            key=lambda c: (dist.get(_other(c, room.id), here) >= here, c.id),
        )
        if shut:
            c = shut[0]
            way = f"get out {_side(room, c)} through the {_door(c)} to room {_other(c, room.id)} and shut it on them"
        else:
            way = "there is no door here to shut on them"
        return _cap_first(
            rng.choice(
                (
                    f"{who} never break: finish them, or {way}.",
                    f"No morale to break here: {who} fight until they fall; to escape, {way}.",
                    f"{who} never break and never run: kill them all, or {way}.",
                    f"{who} never break; if the party cannot finish them, {way}.",
                    f"No morale to break: {who} fight on while one stands; to be rid of them, {way}.",
                )
            )
        )
    if sum(g.count for g in fighting) == 1:
        return _cap_first(f"{_who(brave[0])} {rng.choice(ALONE[0])}: {rng.choice(ALONE[1])}.")
    here = dist.get(room.id, 0)
    ways = sorted(
        (c for c in exits if c.door.kind in OPEN and dist.get(_other(c, room.id), -1) > here),
        key=lambda c: (rooms[_other(c, room.id)].boss, c.id),
    )
    names = " and ".join(_who(g) for g in fighting)
    some = " with morale" if len(brave) < len(fighting) else ""
    test = f"{rng.choice(HALF).format(names=names)}, {rng.choice(ROLL).format(some=some)}"
    if not ways:
        return f"{test}; {rng.choice(CORNERED)}."
    c = ways[0]
    other = _other(c, room.id)
    return f"{test}: they run {_side(room, c)} through the {_door(c)} to room {other} ({rooms[other].name})."


def _other(c: Connection, here: int) -> int:
    return c.to if c.from_ == here else c.from_


def _too_easy(room: Room, exits: list[Connection], rooms: dict[int, Room], rng: Random) -> str | None:
    near = [(c, rooms[_other(c, room.id)]) for c in exits if c.door.kind in OPEN and not rooms[_other(c, room.id)].boss]
    near = [(c, r) for c, r in near if any(g.want is None for g in r.monsters)]
    if not near:
        return None
    c, r = min(near, key=lambda cr: cr[1].id)
    g = next(g for g in r.monsters if g.want is None)
    what = f"the {g.count} {plural(g.monster, g.count)}" if g.count > 1 else f"the {g.monster}"
    lead = rng.choice(
        ("Too easy?", "If the fight is too easy,", "To make it harder,", "If the party wins too easily,", "Too quick?")
    )
    hear, join = ("hear", "join") if g.count > 1 else ("hears", "joins")
    return _cap(
        f"{lead} {what} of room {r.id} ({r.name}) {hear} it through the {_door(c)} to the {_side(room, c)} "
        f"and {join} in at the start of the second round."
    )


def _cap(text: str) -> str:
    """A capital after a question mark that opens the line ("Too easy? The...")."""
    head, sep, rest = text.partition("? ")
    return f"{head}{sep}{rest[:1].upper()}{rest[1:]}" if sep else text


def _too_hard(room: Room, exits: list[Connection], dist: dict[int, int], rng: Random) -> str | None:
    here = dist.get(room.id)
    if here is None:
        return None
    back = [c for c in exits if c.door.spikeable and dist.get(_other(c, room.id), here) < here]
    if not back:
        return None
    c = min(back, key=lambda c: c.id)
    lead = rng.choice(
        ("Too hard?", "If it goes badly,", "If the party is losing,", "If the fight turns,", "Outmatched?")
    )
    return _cap(
        f"{lead} the party can fall back {_side(room, c)} through the {_door(c)} to room {_other(c, room.id)} "
        f"and spike it behind them."
    )


def _cap_first(text: str) -> str:
    return f"{text[0].upper()}{text[1:]}"


def _trap(room: Room, rng: Random) -> str | None:
    if not room.traps:
        return None
    t = room.traps[0]
    where = f" ({_place(room, t.tile).lower()})" if t.tile is not None else ""
    return f"The {t.name.lower()}{where} is still armed while they fight: {rng.choice(CLEAR)}, and {rng.choice(ONTO)}."


def _place(room: Room, tile: tuple[int, int]) -> str:
    """Where a tile lies in its room ("In the north-west corner", "By the east wall", "In the middle")."""
    col, row = compass(room.x, room.y, room.w, room.h, tile)
    if col and row:
        return f"In the {row}-{col} corner"
    return f"By the {row or col} wall" if col or row else "In the middle"


def advise_level(level: LevelData, entrances: list[int], rng: Random) -> None:
    """Write the GM's advice into ``room.notes`` for every room with a fight on ``level``."""
    rooms = {r.id: r for r in level.rooms}
    dist = _distances(level, _starts(level, entrances))
    exits: dict[int, list[Connection]] = {r.id: [] for r in level.rooms}
    for c in level.connections:
        exits[c.from_].append(c)
        exits[c.to].append(c)
    for room in level.rooms:
        if not any(g.want is None for g in room.monsters):
            continue
        lines = [_morale(room, exits[room.id], dist, rooms, rng)]
        drawn = [
            _mind(room, rng),
            _trap(room, rng),
            _too_easy(room, exits[room.id], rooms, rng) if not room.boss else None,
            _too_hard(room, exits[room.id], dist, rng),
        ]
        # the way out of a fight that never breaks is already the door to shut: no second line for it
        extra = [x for x in drawn if x and not (x.endswith("spike it behind them.") and "shut it on them" in lines[0])]
        lines += extra[:2]
        if room.boss:
            lead, waits, hardest = (rng.choice(part) for part in LAIR)
            lines.insert(0, f"{lead}, the {room.monsters[0].monster}, {waits}: {hardest}.")
        room.notes = " ".join(lines)
