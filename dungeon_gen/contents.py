"""Painting a laid-out level: door kinds, room kinds and everything inside the rooms.

Steps (each from the level's "rooms" stream, in this order so the result is
reproducible): choose doors for every link (secret doors only where a loop or
a dead end allows it, keys for locked doors placed on the near side) → give
every room a kind (entrances, the boss lair on the last level, then a shuffled
deck weighted by the theme so kinds rarely repeat) → fill each room: monsters
by the dungeon level and the room's distance from the way in, traps, loot
with rolled silver values, secrets, features, corpses, camp qualities.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache
from random import Random
from typing import Any

from dungeon_gen.difficulty import fight, monster_level, trap_strength
from dungeon_gen.geometry import compass
from dungeon_gen.layout import LevelLayout, Link, RoomShape
from dungeon_gen.model import (
    Connection,
    Corpse,
    Door,
    EntranceWay,
    Feature,
    Loot,
    MonsterGroup,
    Room,
    Secret,
    Stairs,
    Trap,
)
from dungeon_gen.story import _WORD, Story, fill, proper_nouns
from dungeon_gen.themes import LootTemplate, Role, RoomKind, RosterEntry, Theme, parse_count
from rules.dice import DiceExpr

#: Door kinds and their weights for an ordinary link (secret doors are chosen separately).
DOOR_WEIGHTS: tuple[tuple[str, int], ...] = (
    ("archway", 26),
    ("wooden", 30),
    ("iron", 10),
    ("stuck", 13),
    ("locked", 9),
    ("barricaded", 6),
)
SECRET_CHANCE = 0.18  # of links that may be secret (loops and the way into a dead end)
SPIKEABLE = frozenset({"wooden", "stuck", "iron", "locked"})
SIZE_FIT = {"small": ("small",), "medium": ("medium", "small"), "large": ("large", "huge", "medium")}
PRICE = {"free": "0", "common": "1d6", "uncommon": "2 + 2d6", "valuable": "3 x 2d6", "rare": "5 x 3d6",
         "exotic": "10 x 4d6"}  # fmt: skip
RANK = {"free": 0, "common": 0, "uncommon": 1, "valuable": 2, "rare": 3, "exotic": 4}

#: The share of a room's groups that expect the party (the rest can be surprised or sneaked past), RULINGS R228:
#: the author's sample dungeon has 4 of its 9 room groups on level 1 waiting for intruders (the cadaver behind
#: the door, the barricaded goblins, the husks by the stairs, the screamer in the tunnel); the frogs, the praying
#: corpses, the feeding leeches and husks and the goblin camp are caught unawares.
AWARE_SHARE = 0.45


@dataclass(frozen=True)
class LevelPlan:
    theme: Theme
    story: Story
    depth: int
    last: bool  # the deepest level: the boss waits here
    level: int  # difficulty at this depth
    seed: int


def _weighted(rng: Random, items: list[Any], weights: list[int] | list[float]) -> Any:
    return rng.choices(items, weights=weights)[0]


def fresh(rng: Random, options: list[Any], used: set[str], key: Any = str) -> Any:
    """A random option not used yet on this level (any option once all are used); marks it used."""
    unused = [o for o in options if key(o) not in used] or list(options)
    pick = rng.choice(unused)
    used.add(key(pick))
    return pick


def unused(rng: Random, options: list[Any], used: set[str], key: Any = str) -> Any | None:
    """A random option not used yet on this level, marked used; None once all are used (a text that
    must not repeat: the same hidden cache or the same lore found in two rooms reads as a mistake)."""
    left = [o for o in options if key(o) not in used]
    if not left:
        return None
    pick = rng.choice(left)
    used.add(key(pick))
    return pick


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?" else text + "."


def _count(rng: Random, text: str) -> int:
    lo, hi = parse_count(text)
    return rng.randint(lo, hi)


# --- where a thing lies in its room -------------------------------------------------------------


def place_of(shape: RoomShape, tile: tuple[int, int], rng: Random) -> str:
    """Where a tile lies in its room, in a GM's words: "In the north-west corner", "Against the east
    wall", "In the middle" (issue #15: the key says where things are, as the sample dungeon does)."""
    col, row = compass(shape.x, shape.y, shape.w, shape.h, tile)
    if col and row:
        return f"In the {row}-{col} corner"
    if col or row:
        return f"{rng.choice(('Against', 'By', 'Along'))} the {row or col} wall"
    return rng.choice(("In the middle", "At the centre", "In the middle of the floor"))


def placed(th: Theme, place: str, text: str) -> str:
    """``text`` put after a place: "In the north-west corner, a headless saint..." (a name keeps its capital)."""
    text = text.strip()
    if not text:
        return text
    first = _WORD.match(text)
    if first is None or first[0] in proper_nouns(th) or first[0] == "I" or (text[1:2].isalpha() and text[:2].isupper()):
        return f"{place}: {text}"
    return f"{place}, {text[0].lower()}{text[1:]}"


# --- doors --------------------------------------------------------------------------------------


def _graph(layout: LevelLayout, skip: set[int] | None = None) -> dict[int, list[int]]:
    adj: dict[int, list[int]] = {r.id: [] for r in layout.rooms}
    for link in layout.links:
        if skip and link.id in skip:
            continue
        adj[link.a].append(link.b)
        adj[link.b].append(link.a)
    return adj


def _reachable(adj: dict[int, list[int]], starts: list[int]) -> set[int]:
    seen = set(starts)
    todo = deque(starts)
    while todo:
        r = todo.popleft()
        for n in adj[r]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def choose_doors(plan: LevelPlan, layout: LevelLayout, rng: Random) -> dict[int, str]:
    """A door kind for every link.  Secret doors never cut a room off from every ordinary way in,
    except a dead end reached by a secret door (a hidden room, as in the sample dungeon)."""
    starts = [e.room for e in layout.entrances] or ([layout.stairs_up.room] if layout.stairs_up else [1])
    kinds: dict[int, str] = {}
    secret: set[int] = set()
    degree = {r.id: 0 for r in layout.rooms}
    for link in layout.links:
        degree[link.a] += 1
        degree[link.b] += 1
    for link in layout.links:
        may_hide = not link.in_tree or degree[link.b] == 1 or degree[link.a] == 1
        if may_hide and link.a not in starts and rng.random() < SECRET_CHANCE:
            trial = secret | {link.id}
            reach = _reachable(_graph(layout, trial), starts)
            cut = {r.id for r in layout.rooms} - reach
            # allowed: nothing cut off, or only a dead end behind this very door
            if not cut or (len(cut) == 1 and degree[next(iter(cut))] == 1 and cut <= {link.a, link.b}):
                secret = trial
                kinds[link.id] = "secret"
                continue
        names = [k for k, _ in DOOR_WEIGHTS]
        kinds[link.id] = _weighted(rng, names, [w for _, w in DOOR_WEIGHTS])
    return kinds


def _key_room(layout: LevelLayout, kinds: dict[int, str], link: Link, rng: Random) -> int:
    """A room on the near side of a locked door, reachable without passing it or any secret."""
    starts = [e.room for e in layout.entrances] or ([layout.stairs_up.room] if layout.stairs_up else [1])
    blocked = {lid for lid, k in kinds.items() if k in ("locked", "secret")}
    reach = sorted(_reachable(_graph(layout, blocked), starts))
    near = [r for r in reach if r not in (link.a, link.b)] or reach or starts
    return rng.choice(near)


# --- rooms ----------------------------------------------------------------------------------------


def _kind_deck(plan: LevelPlan, layout: LevelLayout, rng: Random) -> dict[int, RoomKind]:
    th = plan.theme
    kinds: dict[int, RoomKind] = {}
    ordinary = [k for k in th.room_kinds if k.min_depth <= plan.depth and not k.boss_lair and not k.entrance]
    fits_depth = [k for k in ordinary if not k.stairs]
    stair_kinds = [k for k in ordinary if k.stairs]
    entrance_kinds = [k for k in th.room_kinds if k.entrance]
    lairs = [k for k in th.room_kinds if k.boss_lair]
    entrance_rooms = {e.room for e in layout.entrances}
    stair_rooms = {s.room for s in (layout.stairs_down, layout.stairs_up) if s is not None}
    by_id = {r.id: r for r in layout.rooms}
    lair_room: int | None = None
    if plan.last:
        far = max(layout.rooms, key=lambda r: (r.depth, r.w * r.h, -r.id))
        lair_room = far.id
    deck: list[RoomKind] = []
    for room in sorted(layout.rooms, key=lambda r: r.id):
        if room.id in entrance_rooms and entrance_kinds:
            kinds[room.id] = rng.choice(entrance_kinds)
            continue
        if room.id == lair_room and lairs:
            kinds[room.id] = rng.choice(lairs)
            continue
        if room.id in stair_rooms and stair_kinds:
            # A stairwell ("The Descent") only where the map has stairs.
            kinds[room.id] = rng.choice(stair_kinds)
            continue
        fitting = [k for k in fits_depth if set(SIZE_FIT[room.size]) & set(k.sizes)] or fits_depth
        if not deck:
            deck = [k for k in fits_depth for _ in range(k.weight)]
            rng.shuffle(deck)
        pick = next((k for k in deck if k in fitting), None)
        if pick is None:
            pick = _weighted(rng, fitting, [k.weight for k in fitting])
        else:
            deck.remove(pick)
        kinds[room.id] = pick
    _ = by_id
    return kinds


def _names(kinds: dict[int, RoomKind], rng: Random, shapes: dict[int, RoomShape] | None = None) -> dict[int, str]:
    """A name for every room; once a kind's names are all taken, the rooms that share one are told
    apart by where they lie ("The North Ossuary", "The South Ossuary"): no name twice on a level."""
    used: set[str] = set()
    out: dict[int, str] = {}
    for rid in sorted(kinds):
        options = [n for n in kinds[rid].names if n not in used] or list(kinds[rid].names)
        name = rng.choice(options)
        used.add(name)
        out[rid] = name
    if shapes:
        _tell_apart(out, shapes)
    return out


_ORDINALS = ("Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth")


def _qualified(name: str, word: str) -> str:
    return f"The {word} {name[4:]}" if name.startswith("The ") else f"The {word} {name}"


def _tell_apart(names: dict[int, str], shapes: dict[int, RoomShape]) -> None:
    """Rename rooms that share a name after the compass side of their group they lie on."""
    groups: dict[str, list[int]] = {}
    for rid, name in sorted(names.items()):
        groups.setdefault(name, []).append(rid)
    taken = set(names.values())
    for name, rids in groups.items():
        if len(rids) < 2:
            continue
        centre = {r: (shapes[r].x + shapes[r].w / 2, shapes[r].y + shapes[r].h / 2) for r in rids}
        mx = sum(c[0] for c in centre.values()) / len(rids)
        my = sum(c[1] for c in centre.values()) / len(rids)
        for i, rid in enumerate(rids):
            dx, dy = centre[rid][0] - mx, centre[rid][1] - my
            side = ("East" if dx > 0 else "West") if abs(dx) >= abs(dy) else ("South" if dy > 0 else "North")
            new = _qualified(name, side)
            if new in taken:
                new = _qualified(name, _ORDINALS[min(i, len(_ORDINALS) - 1)]) if i else name
            if new in taken and new != name:
                new = f"{name} ({rid})"
            if new != name:
                taken.add(new)
                names[rid] = new


def _tiles(shape: RoomShape, rng: Random, n: int, avoid: set[tuple[int, int]]) -> list[tuple[int, int]]:
    floor = sorted(t for t in shape.tiles if t not in avoid) or sorted(shape.tiles)
    if n <= len(floor):
        return rng.sample(floor, n)
    return [rng.choice(floor) for _ in range(n)]


def _budget(plan: LevelPlan, shape: RoomShape) -> float:
    """The strength (summed bestiary levels) a room's fight aims at: it grows with the level's difficulty
    and, a little, with the room's distance from the way in (issue #15)."""
    return 1.0 + 1.5 * plan.level + 0.4 * min(shape.depth, 6)


def _cap(plan: LevelPlan) -> int:
    """No monster of the dungeon is stronger than its master (issue #15)."""
    return monster_level(plan.story.boss)


def _monsters(plan: LevelPlan, shape: RoomShape, rng: Random, occupied: set[tuple[int, int]],
              values: dict[str, Any]) -> list[MonsterGroup]:  # fmt: skip
    th = plan.theme
    danger = shape.depth + plan.depth
    role: Role = "elite" if rng.random() < min(0.6, 0.04 * plan.level + 0.1 * danger) else "minion"
    pool: list[RosterEntry] = th.roster(plan.level, role) or th.roster(plan.level, "minion") or list(th.monsters)
    cap = _cap(plan)
    weakest = min(monster_level(e.monster) for e in pool)
    pool = [e for e in pool if monster_level(e.monster) <= max(cap, weakest)]
    # Monsters near the level's strength are likelier than the weakest of the window.
    ideal = plan.level + (1 if role == "elite" else 0)
    entry = _weighted(rng, pool, [e.weight / (1 + abs(monster_level(e.monster) - ideal)) for e in pool])
    lo, hi = parse_count(entry.group)
    first = rng.randint(lo, hi)
    escort = [(m.monster, _count(rng, m.count)) for m in entry.escort]
    # Weak monsters come in larger numbers at a higher level, up to the room's budget.
    level = monster_level(entry.monster)
    room = max(0.0, _budget(plan, shape) - fight(escort))
    most = min(hi + plan.level // 2, max(1, len(shape.tiles) // 3), 8)
    target = max(1, round(room / level))
    first = target if first > target else max(first, min(most, target))
    groups = [(entry.monster, first), *escort]
    out = []
    aware = rng.random() < AWARE_SHARE
    note = fill(rng.choice(entry.doing), values, rng) if entry.doing else ""
    for monster, count in groups:
        tiles = _tiles(shape, rng, count, occupied)
        occupied.update(tiles)
        if note:  # where they are, then what they are doing: "in the north-west corner, gnawing on a bone"
            place = place_of(shape, tiles[0], rng)
            note = f"{place[0].lower()}{place[1:]}, {note}"
        out.append(MonsterGroup(monster=monster, count=count, positions=tiles, aware=aware, note=note))
        note = ""
    return out


def _boss(plan: LevelPlan, shape: RoomShape, rng: Random, occupied: set[tuple[int, int]],
          values: dict[str, Any]) -> list[MonsterGroup]:  # fmt: skip
    entry = plan.theme.monsters[plan.story.boss_entry]
    groups = [(entry.monster, 1)] + [(m.monster, _count(rng, m.count)) for m in entry.escort]
    out = []
    note = fill(rng.choice(entry.doing), values, rng) if entry.doing else "waiting in the dark"
    for monster, count in groups:
        tiles = _tiles(shape, rng, count, occupied)
        occupied.update(tiles)
        out.append(MonsterGroup(monster=monster, count=count, positions=tiles, aware=True, note=note))
        note = "guarding their master"
    return out


def loot_for(plan: LevelPlan, rng: Random, values: dict[str, Any], *, rich: bool = False) -> list[Loot]:
    pool = [lt for lt in plan.theme.loot if lt.fits(plan.level)] or list(plan.theme.loot)
    rarities = [lt.rarity or _item_rarity(lt.item or "") for lt in pool]
    # Richer finds at a higher level (issue #15): rarer things likelier, and now and then one more.
    weights = [lt.weight * (1 + RANK[r] * (plan.level - 1) / 6) for lt, r in zip(pool, rarities, strict=True)]
    extra = 1 if rng.random() < 0.06 * (plan.level - 1) else 0
    out: list[Loot] = []
    for _ in range(rng.choice((1, 1, 2, 2, 3)) + (2 if rich else 0) + extra):
        i = _weighted(rng, list(range(len(pool))), weights)
        lt: LootTemplate = pool[i]
        rarity = rarities[i]
        formula = lt.value if lt.value is not None else PRICE[rarity]
        value = DiceExpr.parse(formula).roll(rng) if isinstance(formula, str) else int(formula)
        count = _count(rng, lt.count)
        text = fill(lt.text, values, rng) if lt.text else ""
        out.append(
            Loot(
                name=fill(lt.label, values, rng),
                text=text,
                rarity=rarity,
                value=value,
                count=count,
                item=lt.item,
                big=lt.big,
            )
        )
    return out


@cache
def _item_rarity(name: str) -> str:
    """The rarity of an item of the book's tables (looked up once per name: every loot roll of every level
    asked, a fifth of the job board's time)."""
    from rules.content.registry import load_content

    c = load_content()
    for group in (c.items.items, c.weapons.weapons, c.armor.armor, c.armor.shields):
        for e in group:
            if e.name.lower() == name.lower():
                return str(e.rarity)
    return "common"


def _camp(kind: RoomKind, monsters: bool, traps: bool, degree: int, entrance: bool) -> list[str]:
    quals: list[str] = [q for q in kind.camp if q != "safe"]
    if not monsters and not traps and "safe" in kind.camp:
        quals.insert(0, "safe")
    if (degree >= 3 or entrance) and "exposed" not in quals:
        quals.append("exposed")
    order = ("safe", "dry", "filthy", "exposed")
    return [q for q in order if q in quals]


#: A room's chance of treasure (its kind's ``chances.loot``) is multiplied by this where monsters hold the room ...
GUARDED_LOOT = 0.6
#: ... and by this where none do: most of a level's treasure is guarded by something other than a fight (weight,
#: traps, secrets, a risk: issue #14, after the author's sample dungeon, RULINGS R234).
UNGUARDED_LOOT = 1.5


def _fresh_features(rng: Random, kind: RoomKind, used: set[str], *, secret_door: bool) -> list[Any]:
    """One or two of the kind's features; one that reveals a door only where the room has a secret one."""
    fits = [f for f in kind.features if secret_door or not f.reveals_door]
    n = min(len(fits), rng.choice((1, 1, 2)))
    out: list[Any] = []
    for _ in range(n):
        f = fresh(rng, [f for f in fits if f not in out], used, key=lambda x: f"{kind.id}:{x.name}")
        out.append(f)
    return out


def furnish_level(
    plan: LevelPlan, layout: LevelLayout, rng: Random
) -> tuple[list[Room], list[Connection], list[Stairs]]:
    """Everything of a level but its doom and wanderers."""
    th = plan.theme
    door_kinds = choose_doors(plan, layout, rng)
    kinds = _kind_deck(plan, layout, rng)
    names = _names(kinds, rng, {r.id: r for r in layout.rooms})
    degree = {r.id: 0 for r in layout.rooms}
    for link in layout.links:
        degree[link.a] += 1
        degree[link.b] += 1
    entrance_rooms = {e.room for e in layout.entrances}
    used: set[str] = set()  # texts already used on this level, so rooms rarely repeat each other
    secrets: dict[int, list[Secret]] = {r.id: [] for r in layout.rooms}
    hidden_to: dict[int, list[int]] = {r.id: [] for r in layout.rooms}  # the rooms a secret door leads to
    extra_loot: dict[int, list[Loot]] = {r.id: [] for r in layout.rooms}

    # How a secret door is hidden: the theme's secret doors, and its door and passage secrets (a tunnel
    # behind a banner).  Those secrets are told only where the map has such a door, never on their own.
    hiding: list[tuple[str, str]] = [("door", t) for t in th.doors.secret]
    hiding += [(s.kind, s.text) for s in th.secrets if s.kind in ("door", "passage")]
    # A treasure secret is where a room's hidden loot lies; lore and traps stand on their own.
    stashes = [s for s in th.secrets if s.kind == "treasure"]
    room_secrets = [s for s in th.secrets if s.kind in ("lore", "trap")]
    connections: list[Connection] = []
    for link in layout.links:
        door_kind = door_kinds[link.id]
        values = plan.story.values(room=names[link.a].lower())
        if door_kind == "secret":
            _, template = fresh(rng, hiding, used, key=lambda h: h[1])
            text = fill(template, values, rng)
        else:
            text = fill(fresh(rng, th.doors.for_kind(door_kind), used), values, rng)  # type: ignore[arg-type]
        key: str | None = None
        if door_kind == "locked":
            key_room = _key_room(layout, door_kinds, link, rng)
            where = f"{names[key_room].lower()} (room {key_room})"
            key = fill(fresh(rng, th.doors.keys, used), plan.story.values(room=where), rng)
            extra_loot[key_room].append(
                Loot(
                    name=f"Key to the locked door between rooms {link.a} and {link.b}", rarity="free", value=0, text=key
                )
            )
        if door_kind == "secret":
            for here, there in ((link.a, link.b), (link.b, link.a)):
                hidden_to[here].append(there)
                secrets[here].append(
                    Secret(
                        kind="door",  # the GM opens the passage it reveals (rules.gm.exploration)
                        text=f"{_sentence(text)} It leads to room {there}.",
                        find="INT",
                        reveals=f"connection {link.id}",
                    )
                )
        door = Door(
            kind=door_kind,
            tile=link.door_tile,
            vertical=link.door_vertical,
            spikeable=door_kind in SPIKEABLE and rng.random() < 0.5,
            key=key,
            text=text,
        )
        connections.append(Connection(id=link.id, from_=link.a, to=link.b, door=door, path=list(link.path)))

    rooms: list[Room] = []
    for shape in sorted(layout.rooms, key=lambda r: r.id):
        kind = kinds[shape.id]
        values = plan.story.values(room=names[shape.id].lower())
        occupied: set[tuple[int, int]] = set()
        is_lair = kind.boss_lair and plan.last
        # the room's treasure draws from a stream of its own: where the treasure lies never moves the monsters
        treasure_rng = Random(rng.getrandbits(63))
        monsters: list[MonsterGroup] = []
        if is_lair:
            monsters = _boss(plan, shape, rng, occupied, values)
        elif (shape.id not in entrance_rooms or rng.random() < 0.5) and rng.random() < kind.chances.monsters:
            monsters = _monsters(plan, shape, rng, occupied, values)
        traps: list[Trap] = []
        if rng.random() < min(1.0, kind.chances.trap * (0.75 + 0.08 * plan.level)):
            pool = [t for t in th.traps if t.fits(plan.level)] or list(th.traps)
            # Deadlier traps at a higher level (issue #15): the closer to the level's aim, the likelier.
            aim = 1.0 + 0.7 * plan.level
            left = [t for t in pool if t.name not in used] or pool
            t = _weighted(rng, left, [1 / (1 + abs(trap_strength(t.attack, t.doom) - aim)) for t in left])
            used.add(t.name)
            tile = _tiles(shape, rng, 1, occupied)[0]
            traps.append(
                Trap(
                    name=t.name,
                    text=placed(th, place_of(shape, tile, rng), fill(t.text, values, rng)),
                    tile=tile,
                    trigger=t.trigger,
                    find=t.find,
                    clue=fill(t.clue, values, rng),
                    disarm=f"{t.disarm}: {t.disarm_text}",
                    attack=t.attack,
                    effect=fill(t.effect, values, rng),
                    afflictions=list(t.afflictions),
                    doom=t.doom,
                )
            )
        loot: list[Loot] = list(extra_loot[shape.id])
        if is_lair or treasure_rng.random() < kind.chances.loot * (GUARDED_LOOT if monsters else UNGUARDED_LOOT):
            found = loot_for(plan, treasure_rng, values, rich=is_lair)
            if found and treasure_rng.random() < 0.2:
                hidden = found[0].model_copy(update={"hidden": True})
                found[0] = hidden
                text = fill(
                    f"[Hidden here, out of plain sight|Tucked away here, out of sight|Put by here where no one looks"
                    f"|Kept out of sight here]: {hidden.name}.",
                    values,
                    treasure_rng,
                )
                find = "INT"
                stash = unused(treasure_rng, stashes, used, key=lambda x: x.text)
                if stash is not None:
                    place = fill(stash.text, values, treasure_rng).strip().rstrip(".")
                    text = f"Hidden {place}: {hidden.name}."
                    find = stash.find
                secrets[shape.id].append(Secret(kind="treasure", text=text, find=find, reveals=hidden.name))
            loot += found
        s = unused(rng, room_secrets, used, key=lambda x: x.text) if rng.random() < kind.chances.secret else None
        if s is not None:
            secrets[shape.id].append(
                Secret(kind=s.kind, text=fill(s.text, values, rng), find=s.find, reveals=fill(s.reveals, values, rng))
            )
        features = [
            Feature(
                name=f.name,
                text=placed(th, place_of(shape, _tiles(shape, rng, 1, occupied)[0], rng), fill(f.text, values, rng)),
                test=f.test,
                success=_sentence(fill(f.success, values, rng))
                + (f" It is the secret door to room {hidden_to[shape.id][0]}." if f.reveals_door else ""),
                failure=fill(f.failure, values, rng),
                rewards=list(f.rewards),
            )
            for f in _fresh_features(rng, kind, used, secret_door=bool(hidden_to[shape.id]))
        ]
        corpses: list[Corpse] = []
        if rng.random() < kind.chances.corpses:
            for tile in _tiles(shape, rng, rng.choice((1, 1, 2, 3)), occupied):
                c = fresh(rng, list(th.corpses), used, key=lambda x: x.text)
                text = placed(th, place_of(shape, tile, rng), fill(c.text, values, rng))
                corpses.append(Corpse(tile=tile, text=text, rises_as=c.rises_as, warded=c.warded))
        lit = rng.random() < kind.chances.lit
        rooms.append(
            Room(
                id=shape.id,
                name=names[shape.id],
                kind=kind.id,
                x=shape.x,
                y=shape.y,
                w=shape.w,
                h=shape.h,
                outline=sorted(shape.tiles) if shape.shape != "rect" else None,
                description=fill(fresh(rng, kind.descriptions, used), values, rng),
                monsters=monsters,
                traps=traps,
                loot=loot,
                secrets=secrets[shape.id],
                features=features,
                corpses=corpses,
                camp=_camp(kind, bool(monsters), bool(traps), degree[shape.id], shape.id in entrance_rooms),
                lit=lit,
                boss=is_lair,
                notes="The master of this place waits here: the hardest fight of the dungeon." if is_lair else "",
            )
        )

    strongest_lair(plan, rooms, {r.id: r for r in layout.rooms}, rng)
    stairs: list[Stairs] = []
    if layout.stairs_down is not None:
        s = layout.stairs_down
        stairs.append(
            Stairs(
                room=s.room, tile=s.tile, to_depth=plan.depth + 1, to_room=1, text="Worn steps lead down into the dark."
            )
        )
    if layout.stairs_up is not None:
        s = layout.stairs_up
        stairs.append(
            Stairs(
                room=s.room,
                tile=s.tile,
                to_depth=plan.depth - 1,
                to_room=1,
                text="Steps climb back towards the level above.",
            )
        )
    return rooms, connections, stairs


def strongest_lair(plan: LevelPlan, rooms: list[Room], shapes: dict[int, RoomShape], rng: Random) -> None:
    """The master's lair is the hardest fight of its level (issue #15): while another room's fight is as
    hard, one more of the master's guards stands in the lair."""
    for i, room in enumerate(rooms):
        if not room.boss or not room.monsters:
            continue
        hardest = max((fight(r.monsters) for r in rooms if r.id != room.id), default=0)
        groups = list(room.monsters)
        if len(groups) > 1:
            guard, added = groups[-1].monster, 0
        else:  # a master with no guards of its own takes the level's weakest as guards
            pool = plan.theme.roster(plan.level, "minion") or [e for e in plan.theme.monsters if e.role != "boss"]
            guard, added = min(pool, key=lambda e: (monster_level(e.monster), e.monster)).monster, 0
        occupied = {t for g in groups for t in g.positions}
        tiles: list[tuple[int, int]] = []
        while fight(groups) + monster_level(guard) * added <= hardest and added < 30:
            tiles += _tiles(shapes[room.id], rng, 1, occupied)
            occupied.update(tiles)
            added += 1
        if not added:
            continue
        if len(groups) > 1:
            g = groups[-1]
            groups[-1] = g.model_copy(update={"count": g.count + added, "positions": [*g.positions, *tiles]})
        else:
            groups.append(MonsterGroup(monster=guard, count=added, positions=tiles, note="guarding their master"))
        rooms[i] = room.model_copy(update={"monsters": groups})


def entrance_ways(th: Theme, story: Story, layout: LevelLayout, rng: Random) -> list[EntranceWay]:
    """The corridors from outside into each entrance room, with their doors."""
    used: set[str] = set()
    out = []
    for e in layout.entrances:
        kind = rng.choice(("archway", "wooden", "iron", "barricaded"))
        door = Door(
            kind=kind,
            tile=e.door_tile,
            vertical=e.door_vertical,
            spikeable=kind in SPIKEABLE,
            text=fill(fresh(rng, th.doors.for_kind(kind), used), story.values(), rng),  # type: ignore[arg-type]
        )
        out.append(EntranceWay(room=e.room, side=e.side, path=list(e.path), door=door))
    return out
