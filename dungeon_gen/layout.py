"""The layout stage of the dungeon generator: rooms, corridors, entrances and stairs on a 1.5 m tile grid.

:func:`build_level` is a named pipeline in the spirit of Brogue CE; each step
is one function below and every random call goes through the caller's
``random.Random``:

1. **pick shapes** (:func:`_pick_templates`): how big each room is and what
   shape; ``"halls"`` are mostly rectangles with some L-shaped, cross-shaped
   and round/octagonal halls, ``"caves"`` are mostly carved cave blobs with
   some rectangles.
2. **carve rooms** (:func:`_carve_rooms`): the level grows room by room,
   each new room set beside one already placed, a few tiles away and facing
   it, the most central of several tries winning (so the level comes out
   compact and roughly square); every room keeps three tiles of rock from
   every other room's box, so walls can be drawn and corridors can always
   pass between them.  The grid is cropped to the rooms at the end.
3. **connect** (:func:`_connect`): a randomised minimum spanning tree over
   each room's nearest neighbours (Kruskal), each edge dug as a one-tile
   corridor: straight, L- or Z-shaped with collision checks, and a
   breadth-first search only when those are blocked.  Corridors never run
   through a room or its wall ring except at their own two doorways; they
   may cross and merge with other corridors.
4. **add loops** (:func:`_add_loops`): extra corridors between rooms that
   are close on the map but far apart in the tree (about ``loops`` × rooms),
   never touching half of the tree's leaves so dead ends remain.
5. **place entrances** (:func:`_place_entrances`): a short corridor from a
   room near the map's edge out to the edge; further entrances far (in the
   link graph) from the first.
6. **stairs** (:func:`_place_stairs`): depths from the entrances; down in
   a deepest room, up at the shallow end (in a room linked to the first
   entrance room, or nearest a given tile); on a level without entrances
   the up stairs come first and stand in for the entrance.
7. **number rooms** (:func:`_number_rooms`): rooms are numbered like a
   hand-made key (room 1 at the first entrance, then by link distance from
   it, then by distance on the map), links are reoriented so ``a < b`` and
   numbered by ``(a, b)``.

The same arguments and the same RNG state always give an equal
:class:`LevelLayout`; :func:`dump` is its canonical text and :func:`ascii` a
quick picture of it.  :func:`problems` checks every invariant the later
stages rely on.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import pairwise

from dungeon_gen.geometry import (
    EAST,
    NORTH,
    OPPOSITE,
    SIDE_NAMES,
    SOUTH,
    STEPS,
    WEST,
    Template,
    cave_blob,
    cross,
    l_shape,
    neighbours8,
    rect,
    round_hall,
)

Tile = tuple[int, int]

__all__ = [
    "SHAPES",
    "STYLES",
    "Entrance",
    "LevelLayout",
    "Link",
    "RoomShape",
    "Spot",
    "ascii",
    "build_level",
    "digest",
    "dump",
    "problems",
    "size_of",
]

STYLES = ("halls", "caves")
SHAPES = ("rect", "L", "cross", "round", "cave")
MIN_ROOMS, MAX_ROOMS = 3, 60
MAX_ENTRANCES = 4
GAP = 3  # rock tiles kept between two rooms' boxes: a free lane for corridors between their wall rings
MARGIN = 3  # tiles between the grid's edge and the nearest floor: border row, a free row, the wall ring
SMALL_MAX, MEDIUM_MAX = 20, 48  # floor area limits of "small" and "medium" rooms
_ATTEMPTS = 12


# --------------------------------------------------------------------------- the result


@dataclass(frozen=True, slots=True)
class RoomShape:
    """One room's floor.  ``x, y, w, h`` is the bounding box; ``tiles`` the floor inside it."""

    id: int
    x: int
    y: int
    w: int
    h: int
    tiles: frozenset[Tile]
    shape: str  # one of SHAPES
    size: str  # "small", "medium", "large": see size_of
    depth: int  # links to cross from the nearest entrance room (0 there), or from the up stairs' room
    is_dead_end: bool  # exactly one link (entrance corridors do not count)


@dataclass(frozen=True, slots=True)
class Link:
    """A corridor between rooms ``a`` and ``b`` (``a < b``), with a door where it meets room ``b``.

    ``path`` runs from the tile touching room ``a``'s floor (``a_tile``) to
    the tile touching room ``b``'s floor (``door_tile``); it is 4-connected,
    at least one tile long, and lies on rock (never on a room's floor).  The
    door stands on the edge between ``door_tile`` and room ``b``'s floor:
    ``door_vertical`` is True when that edge is vertical (a door in a west or
    east wall, passage running east-west).  ``in_tree``: part of the spanning
    tree (False: an extra loop).
    """

    id: int
    a: int
    b: int
    path: tuple[Tile, ...]
    door_tile: Tile
    door_vertical: bool
    a_tile: Tile
    in_tree: bool


@dataclass(frozen=True, slots=True)
class Entrance:
    """The way in from outside: a corridor from the map's edge to room ``room``.

    ``tile`` is the corridor's outer end, on the grid's border on ``side``
    ("north" is row 0, "west" column 0, ...); ``path`` runs from ``tile``
    inwards to ``door_tile``, which touches the room's floor (the door is on
    that edge, vertical as in :class:`Link`).
    """

    room: int
    tile: Tile
    side: str
    path: tuple[Tile, ...]
    door_tile: Tile
    door_vertical: bool


@dataclass(frozen=True, slots=True)
class Spot:
    """A floor tile of a room (where stairs stand)."""

    room: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class LevelLayout:
    """A level's map: its grid size, rooms (ids 1..n, in key order), links, entrances and stairs."""

    width: int
    height: int
    rooms: tuple[RoomShape, ...]
    links: tuple[Link, ...]
    entrances: tuple[Entrance, ...]
    stairs_down: Spot | None
    stairs_up: Spot | None

    def room(self, room_id: int) -> RoomShape:
        """The room with this id (rooms are stored in id order)."""
        if not 1 <= room_id <= len(self.rooms):
            raise KeyError(room_id)
        return self.rooms[room_id - 1]

    def corridor_tiles(self) -> frozenset[Tile]:
        """Every corridor tile: links' paths and entrance corridors."""
        tiles: set[Tile] = set()
        for link in self.links:
            tiles.update(link.path)
        for entrance in self.entrances:
            tiles.update(entrance.path)
        return frozenset(tiles)

    def neighbours(self, room_id: int) -> tuple[int, ...]:
        """The rooms linked to this one, sorted (with repeats if two links join the same pair)."""
        return tuple(
            sorted([lk.b for lk in self.links if lk.a == room_id] + [lk.a for lk in self.links if lk.b == room_id])
        )


def size_of(area: int) -> str:
    """ "small" up to 20 floor tiles (a 4×5 room), "medium" up to 48 (a 6×8 room), "large" beyond."""
    if area <= SMALL_MAX:
        return "small"
    if area <= MEDIUM_MAX:
        return "medium"
    return "large"


# --------------------------------------------------------------------------- the pipeline


class _Retry(Exception):
    """This attempt painted itself into a corner; the pipeline starts again with the RNG as it now stands."""


def build_level(
    rng: random.Random,
    rooms: int,
    *,
    entrances: int = 1,
    stairs_down: bool = False,
    stairs_up: bool = False,
    style: str = "halls",
    loops: float = 0.2,
    stairs_up_near: Tile | None = None,
) -> LevelLayout:
    """Lay out one level of ``rooms`` rooms (3..60), linked by corridors, with entrances and stairs.

    ``entrances``: corridors in from the map's edge (0..4, each to its own
    room); a level without entrances (a deeper level) needs ``stairs_up``,
    whose room then plays the entrance's part for depths and numbering.
    ``loops``: extra links as a fraction of ``rooms`` (0..1; at least one
    when ``rooms >= 6`` and ``loops > 0``).  ``stairs_up_near``: put the up
    stairs in the room nearest this tile (e.g. where the level above has its
    down stairs); by default they go next to the entrance.

    Raises ValueError, naming the argument, when the arguments are impossible.
    """
    _check_arguments(rooms, entrances, stairs_up, style, loops, stairs_up_near)
    for _ in range(_ATTEMPTS):
        try:
            return _attempt(rng, rooms, entrances, stairs_down, stairs_up, style, loops, stairs_up_near)
        except _Retry:
            continue
    raise RuntimeError(f"could not lay out {rooms} {style} rooms in {_ATTEMPTS} attempts")  # pragma: no cover


def _check_arguments(rooms: int, entrances: int, stairs_up: bool, style: str, loops: float, near: Tile | None) -> None:
    if isinstance(rooms, bool) or not isinstance(rooms, int) or not MIN_ROOMS <= rooms <= MAX_ROOMS:
        raise ValueError(f"rooms must be an integer from {MIN_ROOMS} to {MAX_ROOMS}, not {rooms!r}")
    if isinstance(entrances, bool) or not isinstance(entrances, int) or not 0 <= entrances <= MAX_ENTRANCES:
        raise ValueError(f"entrances must be an integer from 0 to {MAX_ENTRANCES}, not {entrances!r}")
    if entrances > rooms:
        raise ValueError(f"entrances ({entrances}) cannot outnumber rooms ({rooms}): each has its own room")
    if entrances == 0 and not stairs_up:
        raise ValueError("a level with no entrances needs stairs_up=True, or nobody can get in")
    if style not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}, not {style!r}")
    if isinstance(loops, bool) or not isinstance(loops, int | float) or not 0 <= loops <= 1:
        raise ValueError(f"loops must be a fraction of the rooms from 0 to 1, not {loops!r}")
    if near is not None and not (
        isinstance(near, tuple) and len(near) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in near)
    ):
        raise ValueError(f"stairs_up_near must be an (x, y) tile, not {near!r}")


def _attempt(
    rng: random.Random,
    n: int,
    entrances: int,
    stairs_down: bool,
    stairs_up: bool,
    style: str,
    loops: float,
    near: Tile | None,
) -> LevelLayout:
    templates = _pick_templates(rng, n, style)
    board = _carve_rooms(rng, templates)
    links = _connect(rng, board)
    links += _add_loops(rng, board, links, loops)
    ways = _place_entrances(rng, board, links, entrances)
    stairs = _place_stairs(rng, board, links, ways, stairs_down, stairs_up, near)
    return _number_rooms(board, links, ways, stairs)


# --------------------------------------------------------------------------- 1. pick shapes


def _pick_templates(rng: random.Random, n: int, style: str) -> list[Template]:
    """Choose every room's size and shape, before anything is placed.

    Sizes: about 40% small (3..5 a side), 45% medium (5..8), 12% large
    (8..10) and a few great halls (11..14 × 9..12, at most one in twelve
    rooms).  Halls: small rooms are
    rectangles; bigger ones are rectangles (60%), L-shaped (15%), round or
    octagonal (15%) or crosses (10%).  Caves: a quarter rectangles, the rest
    carved blobs in boxes of the same sizes (a blob fills about half its
    box, so cave boxes are two tiles bigger).
    """
    out: list[Template] = []
    great = 0
    for _ in range(n):
        roll = rng.random()
        if roll < 0.40:
            w, h = rng.randint(3, 5), rng.randint(3, 5)
        elif roll < 0.85:
            w, h = rng.randint(5, 8), rng.randint(5, 8)
        elif roll < 0.97 or great >= max(1, n // 12):
            w, h = rng.randint(8, 10), rng.randint(8, 10)
        else:
            great += 1
            w, h = rng.randint(11, 14), rng.randint(9, 12)
            if rng.random() < 0.5:
                w, h = h, w
        if style == "caves" and rng.random() >= 0.25:
            out.append(_cave(rng, w, h))
        else:
            out.append(_built(rng, w, h) if style == "halls" else rect(w, h))
    return out


def _cave(rng: random.Random, w: int, h: int) -> Template:
    bw, bh = min(w + 2, 14), min(h + 2, 13)
    for _ in range(8):
        tpl = cave_blob(rng, bw, bh)
        if tpl is not None:
            return tpl
    return round_hall(max(w, 5), max(h, 5), True)  # pragma: no cover - a blob fails eight times in a row


def _built(rng: random.Random, w: int, h: int) -> Template:
    tpl = _built_shape(rng, w, h)
    return tpl if tpl.door_sides() == 4 else rect(w, h)


def _built_shape(rng: random.Random, w: int, h: int) -> Template:
    if w < 5 or h < 5:
        return rect(w, h)
    roll = rng.random()
    if roll < 0.60:
        return rect(w, h)
    if roll < 0.75:
        cut_w = rng.randint(2, w - 3)
        cut_h = rng.randint(2, h - 3)
        return l_shape(w, h, cut_w, cut_h, rng.randrange(4))
    if roll < 0.90:
        return round_hall(w, w if w == h or rng.random() < 0.5 else h, octagon=rng.random() < 0.5)
    if w < 7 or h < 7:
        return rect(w, h)
    return cross(w, h, rng.randint(3, w - 4), rng.randint(3, h - 4))


# --------------------------------------------------------------------------- 2. carve rooms


class _Room:
    """A room while the level is built: its template and where its box's top-left corner lies."""

    __slots__ = ("doors", "floor", "tpl", "x", "y")

    def __init__(self, tpl: Template, x: int, y: int) -> None:
        self.tpl = tpl
        self.x = x
        self.y = y
        self.floor: frozenset[Tile] = frozenset()
        self.doors: tuple[tuple[Tile, ...], ...] = ()

    def settle(self) -> None:
        """Fix the absolute floor and doorway candidates once the room will not move again."""
        x, y = self.x, self.y
        self.floor = frozenset((x + tx, y + ty) for tx, ty in self.tpl.tiles)
        self.doors = tuple(tuple((x + tx, y + ty) for tx, ty in side) for side in self.tpl.doors)

    @property
    def box(self) -> tuple[int, int, int, int]:
        """Inclusive bounding box ``(x0, y0, x1, y1)``."""
        return self.x, self.y, self.x + self.tpl.w - 1, self.y + self.tpl.h - 1

    def centre2(self) -> Tile:
        """Twice the box's centre, in integers."""
        return 2 * self.x + self.tpl.w - 1, 2 * self.y + self.tpl.h - 1


class _Board:
    """The grid while corridors are dug: which tiles are closed to corridors and which doorways are used.

    ``blocked`` marks the grid's border, every room's floor and every room's
    wall ring: a corridor may only touch a ring at its two ends, on a free
    doorway candidate.  ``taken`` marks used doorways and the tiles around
    them (no two doors side by side).
    """

    def __init__(self, width: int, height: int, rooms: list[_Room]) -> None:
        self.w = width
        self.h = height
        self.rooms = rooms
        blocked = bytearray(width * height)
        blocked[0:width] = b"\x01" * width
        blocked[(height - 1) * width :] = b"\x01" * width
        for y in range(height):
            blocked[y * width] = 1
            blocked[y * width + width - 1] = 1
        for room in rooms:
            room.settle()
            x, y = room.x, room.y
            for tx, ty in room.tpl.tiles:
                blocked[(y + ty) * width + x + tx] = 1
            for tx, ty in room.tpl.ring:
                blocked[(y + ty) * width + x + tx] = 1
        self.blocked = blocked
        self.taken = bytearray(width * height)
        self.near: list[tuple[int, int, int]] = []  # (gap, i, j): each room's nearest rooms, set by _connect

    # doorways ------------------------------------------------------------

    def free(self, room: int, side: int) -> list[Tile]:
        """The room's unused doorway candidates on one side."""
        taken, w = self.taken, self.w
        return [t for t in self.rooms[room].doors[side] if not taken[t[1] * w + t[0]]]

    def free_all(self, room: int) -> list[Tile]:
        return [t for side in range(4) for t in self.free(room, side)]

    def take(self, tile: Tile) -> None:
        w, taken = self.w, self.taken
        taken[tile[1] * w + tile[0]] = 1
        for x, y in neighbours8(tile):
            if 0 <= x < w and 0 <= y < self.h:
                taken[y * w + x] = 1

    # corridors -----------------------------------------------------------

    def clear(self, path: list[Tile]) -> bool:
        """True when no tile strictly between the path's two ends is closed to corridors."""
        blocked, w = self.blocked, self.w
        return not any(blocked[y * w + x] for x, y in path[1:-1])

    def route(self, rng: random.Random, i: int, j: int) -> list[Tile] | None:
        """A corridor from a free doorway of room ``i`` to one of room ``j``, or None.

        Tries the straight/Z and L shapes that suit where ``j`` lies from
        ``i``, the best-aligned doorway pairs first, then falls back to a
        breadth-first search between all free doorways of the two rooms.
        """
        ax0, ay0, ax1, ay1 = self.rooms[i].box
        bx0, by0, bx1, by1 = self.rooms[j].box
        h = EAST if bx0 > ax1 else WEST if bx1 < ax0 else None
        v = SOUTH if by0 > ay1 else NORTH if by1 < ay0 else None
        plans: list[tuple[str, int, int]] = []
        if h is not None and v is not None:
            ls = [("L", h, OPPOSITE[v]), ("L", v, OPPOSITE[h])]
            zs = [("Z", h, OPPOSITE[h]), ("Z", v, OPPOSITE[v])]
            rng.shuffle(ls)
            rng.shuffle(zs)
            plans = ls + zs
        elif h is not None:
            plans = [("Z", h, OPPOSITE[h]), ("L", h, NORTH), ("L", h, SOUTH)]
        elif v is not None:
            plans = [("Z", v, OPPOSITE[v]), ("L", v, WEST), ("L", v, EAST)]
        for kind, sa, sb in plans:
            ca, cb = self.free(i, sa), self.free(j, sb)
            if not ca or not cb:
                continue
            path = self._z(rng, sa, ca, cb) if kind == "Z" else self._l(rng, sa, sb, ca, cb)
            if path is not None:
                return path
        return self.search(self.free_all(i), set(self.free_all(j)))

    def _z(self, rng: random.Random, sa: int, ca: list[Tile], cb: list[Tile]) -> list[Tile] | None:
        """A straight or Z-shaped corridor leaving through side ``sa`` and entering through the opposite side."""
        across = sa in (EAST, WEST)  # the corridor runs east-west
        sign = 1 if sa in (EAST, SOUTH) else -1
        pairs: list[tuple[int, Tile, Tile]] = []
        for a in ca:
            for b in cb:
                along = (b[0] - a[0] if across else b[1] - a[1]) * sign
                off = abs(b[1] - a[1]) if across else abs(b[0] - a[0])
                if along >= 1 and (off == 0 or along >= 2):
                    pairs.append((off, a, b))
        if not pairs:
            return None
        pairs.sort()
        best = [p for p in pairs if p[0] <= pairs[0][0] + 1]
        tries = [rng.choice(best), *pairs[:3]]
        for off, a, b in tries:
            if off == 0:
                points = [a, b]
            else:
                along = (b[0] - a[0] if across else b[1] - a[1]) * sign
                m = (a[0] if across else a[1]) + sign * rng.randint(1, along - 1)
                points = [a, (m, a[1]), (m, b[1]), b] if across else [a, (a[0], m), (b[0], m), b]
            path = _walk(points)
            if self.clear(path):
                return path
        return None

    def _l(self, rng: random.Random, sa: int, sb: int, ca: list[Tile], cb: list[Tile]) -> list[Tile] | None:
        """An L-shaped corridor leaving through side ``sa`` and entering through side ``sb`` (at right angles)."""
        across = sa in (EAST, WEST)  # the first leg runs east-west
        sign = 1 if sa in (EAST, SOUTH) else -1
        out_x, out_y = STEPS[sb]
        pairs: list[tuple[int, Tile, Tile]] = []
        for a in ca:
            for b in cb:
                dx, dy = b[0] - a[0], b[1] - a[1]
                # leave outwards through sa; reach b from outside its side sb
                if (dx * sign >= 1 and -dy * out_y >= 1) if across else (dy * sign >= 1 and -dx * out_x >= 1):
                    pairs.append((abs(dx) + abs(dy), a, b))
        if not pairs:
            return None
        pairs.sort()
        tries = [rng.choice(pairs[:4]), *pairs[:2]]
        for _, a, b in tries:
            corner = (b[0], a[1]) if across else (a[0], b[1])
            path = _walk([a, corner, b])
            if self.clear(path):
                return path
        return None

    def search(self, sources: list[Tile], targets: set[Tile]) -> list[Tile] | None:
        """A shortest corridor from any source tile to any target tile through open rock (breadth-first)."""
        if not targets:
            return None
        w = self.w
        goal = {y * w + x for x, y in targets}
        return self._bfs(sources, goal.__contains__)

    def to_border(self, sources: list[Tile]) -> list[Tile] | None:
        """A shortest corridor from any source tile out to the grid's border (corners excepted)."""
        w, h = self.w, self.h

        def on_border(j: int) -> bool:
            x, y = j % w, j // w
            return (x in (0, w - 1)) != (y in (0, h - 1))

        return self._bfs(sources, on_border)

    def _bfs(self, sources: list[Tile], is_goal: Callable[[int], bool]) -> list[Tile] | None:
        """Breadth-first from the sources until a goal tile; the path is then traced back with as few turns
        as a greedy walk finds (straight on wherever a shortest path allows)."""
        if not sources:
            return None
        w, blocked = self.w, self.blocked
        dist = [-1] * (w * self.h)
        queue: deque[int] = deque()
        for x, y in sources:
            i = y * w + x
            dist[i] = 0
            queue.append(i)
        found = -1
        while queue and found < 0:
            i = queue.popleft()
            d = dist[i] + 1
            for j in (i - w, i + 1, i + w, i - 1):
                if dist[j] != -1:
                    continue
                if is_goal(j):
                    dist[j] = d
                    found = j
                    break
                if not blocked[j]:
                    dist[j] = d
                    queue.append(j)
        if found < 0:
            return None
        steps = (-w, 1, w, -1)
        j, last = found, 0
        path = [j]
        while dist[j]:
            want = dist[j] - 1
            k = j + last
            if not last or dist[k] != want:
                k = next(j + s for s in steps if dist[j + s] == want)
                last = k - j
            j = k
            path.append(j)
        path.reverse()
        return [(i % w, i // w) for i in path]


def _walk(points: list[Tile]) -> list[Tile]:
    """The 4-connected tiles along straight segments through ``points`` (each turn on a point)."""
    x, y = points[0]
    path = [(x, y)]
    for px, py in points[1:]:
        step = 1 if px > x else -1
        while x != px:
            x += step
            path.append((x, y))
        step = 1 if py > y else -1
        while y != py:
            y += step
            path.append((x, y))
    return path


def _carve_rooms(rng: random.Random, templates: list[Template]) -> _Board:
    """Grow the level room by room from a first room, then crop the grid to the rooms.

    Each new room is tried beside a random room already placed, on a random
    side, a random gap away (GAP..GAP+6 tiles, mostly short) and sliding along
    that side so the two still face each other over three tiles or more.  Of
    the first few positions where its box, grown by GAP, touches no other
    box, it takes the one nearest the level's centre (jittered, the distance
    stretched by a random aspect so levels are roughly square, a little
    wider than tall or taller than wide).  The grid is then cropped to the
    rooms plus MARGIN and padded so neither side exceeds 3:2.
    """
    side = math.isqrt(sum((t.w + GAP) * (t.h + GAP) for t in templates))
    size = 2 * side + 2 * 16 + 8
    occ = bytearray(size * size)
    centre = size // 2
    wide = 100 + rng.randrange(40)  # percent: horizontal distances count for less when the level is wider
    tall = 100 + rng.randrange(20)
    placed: list[_Room] = []
    first = templates[0]
    placed.append(_Room(first, centre - first.w // 2, centre - first.h // 2))
    _mark(occ, size, placed[0].x, placed[0].y, first.w, first.h)
    # Open sides of the rooms placed so far: (room, side, misses); a side that misses four times is closed.
    sides: list[list[int]] = [[0, side, 0] for side in range(4)]
    gaps = (0, 0, 0, 1, 1, 2, 2, 3, 4, 6)
    rand = rng.random
    for tpl in templates[1:]:
        tw, th = tpl.w, tpl.h
        best: tuple[float, int, int] | None = None
        found = 0
        for _ in range(400):
            if not sides or found >= 8:
                break
            k = int(rand() * len(sides))
            slot = sides[k]
            ax0, ay0, ax1, ay1 = placed[slot[0]].box
            d = GAP + gaps[int(rand() * len(gaps))]
            if slot[1] in (NORTH, SOUTH):
                x = ax0 - tw + 3 + int(rand() * (ax1 - ax0 + tw - 4))
                y = ay0 - d - th if slot[1] == NORTH else ay1 + 1 + d
            else:
                y = ay0 - th + 3 + int(rand() * (ay1 - ay0 + th - 4))
                x = ax1 + 1 + d if slot[1] == EAST else ax0 - d - tw
            if x < 16 or y < 16 or x + tw > size - 16 or y + th > size - 16 or not _open(occ, size, size, x, y, tw, th):
                slot[2] += 1
                if slot[2] >= 4:
                    sides[k] = sides[-1]
                    sides.pop()
                continue
            dx = (2 * x + tw - 2 * centre) * 100 // wide
            dy = (2 * y + th - 2 * centre) * 100 // tall
            score = (dx * dx + dy * dy) * (1.0 + 0.3 * rand())
            if best is None or score < best[0]:
                best = (score, x, y)
            found += 1
        if best is None:
            raise _Retry
        _, x, y = best
        sides.extend([len(placed), side, 0] for side in range(4))
        placed.append(_Room(tpl, x, y))
        _mark(occ, size, x, y, tw, th)
    # Crop to the rooms plus the margin, keeping the map no more than 3:2 either way.
    x0 = min(r.x for r in placed)
    y0 = min(r.y for r in placed)
    x1 = max(r.x + r.tpl.w for r in placed)
    y1 = max(r.y + r.tpl.h for r in placed)
    width, height = x1 - x0 + 2 * MARGIN, y1 - y0 + 2 * MARGIN
    pad_x = max(0, (2 * height - 3 * width + 2) // 3, 8 - width)
    pad_y = max(0, (2 * width - 3 * height + 2) // 3, 8 - height)
    for room in placed:
        room.x += MARGIN - x0 + pad_x // 2
        room.y += MARGIN - y0 + pad_y // 2
    return _Board(width + pad_x, height + pad_y, placed)


def _open(occ: bytearray, width: int, height: int, x: int, y: int, w: int, h: int) -> bool:
    lo, hi = max(0, x - GAP), min(width, x + w + GAP)
    for row in range(max(0, y - GAP), min(height, y + h + GAP)):
        if occ.find(1, row * width + lo, row * width + hi) != -1:
            return False
    return True


def _mark(occ: bytearray, width: int, x: int, y: int, w: int, h: int) -> None:
    ones = b"\x01" * w
    for row in range(y, y + h):
        occ[row * width + x : row * width + x + w] = ones


# --------------------------------------------------------------------------- 3. connect


class _Link:
    __slots__ = ("i", "j", "path", "tree")

    def __init__(self, i: int, j: int, path: list[Tile], tree: bool) -> None:
        self.i, self.j, self.path, self.tree = i, j, path, tree


def _gap(a: _Room, b: _Room) -> int:
    """Rock tiles between two boxes, east-west plus north-south."""
    ax0, ay0, ax1, ay1 = a.box
    bx0, by0, bx1, by1 = b.box
    return max(0, bx0 - ax1 - 1, ax0 - bx1 - 1) + max(0, by0 - ay1 - 1, ay0 - by1 - 1)


def _near_pairs(board: _Board, k: int = 6) -> list[tuple[int, int, int]]:
    """``(gap, i, j)`` with ``i < j`` for each room's ``k`` nearest rooms, sorted."""
    rooms = board.rooms
    n = len(rooms)
    boxes = [r.box for r in rooms]
    gaps: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for i in range(n):
        ax0, ay0, ax1, ay1 = boxes[i]
        row = gaps[i]
        for j in range(i + 1, n):
            bx0, by0, bx1, by1 = boxes[j]
            g = max(0, bx0 - ax1 - 1, ax0 - bx1 - 1) + max(0, by0 - ay1 - 1, ay0 - by1 - 1)
            row.append((g, j))
            gaps[j].append((g, i))
    pairs: set[tuple[int, int, int]] = set()
    for i in range(n):
        for g, j in sorted(gaps[i])[:k]:
            pairs.add((g, min(i, j), max(i, j)))
    return sorted(pairs)


def _all_pairs(board: _Board) -> list[tuple[int, int, int]]:
    """``(gap, i, j)`` for every pair of rooms, ``i < j``, sorted."""
    rooms = board.rooms
    return sorted((_gap(rooms[i], rooms[j]), i, j) for i in range(len(rooms)) for j in range(i + 1, len(rooms)))


def _connect(rng: random.Random, board: _Board) -> list[_Link]:
    """The spanning tree: Kruskal over each room's nearest neighbours, gaps jittered, each edge dug as it is taken.

    An edge whose corridor cannot be dug is skipped; if the near pairs leave
    the rooms in pieces, every remaining pair is tried, nearest first.
    """
    n = len(board.rooms)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    board.near = _near_pairs(board)
    weighted = sorted((g * (0.7 + 0.6 * rng.random()), i, j) for g, i, j in board.near)
    links: list[_Link] = []
    for _, i, j in weighted:
        if len(links) == n - 1:
            break
        if find(i) != find(j):
            path = board.route(rng, i, j)
            if path is not None:
                _dig(board, links, i, j, path, tree=True)
                parent[find(i)] = find(j)
    if len(links) < n - 1:
        for _, i, j in _all_pairs(board):
            if find(i) != find(j):
                path = board.route(rng, i, j)
                if path is not None:
                    _dig(board, links, i, j, path, tree=True)
                    parent[find(i)] = find(j)
        if len(links) < n - 1:
            raise _Retry
    return links


def _dig(board: _Board, links: list[_Link], i: int, j: int, path: list[Tile], *, tree: bool) -> None:
    board.take(path[0])
    board.take(path[-1])
    links.append(_Link(i, j, path, tree))


def _adjacency(n: int, links: Iterable[_Link]) -> list[list[int]]:
    adj: list[list[int]] = [[] for _ in range(n)]
    for lk in links:
        adj[lk.i].append(lk.j)
        adj[lk.j].append(lk.i)
    return adj


def _hops(adj: list[list[int]], starts: Iterable[int]) -> list[int]:
    """Links crossed from the nearest start room to every room (-1: unreachable)."""
    dist = [-1] * len(adj)
    queue: deque[int] = deque()
    for s in starts:
        if dist[s] == -1:
            dist[s] = 0
            queue.append(s)
    while queue:
        i = queue.popleft()
        for j in adj[i]:
            if dist[j] == -1:
                dist[j] = dist[i] + 1
                queue.append(j)
    return dist


# --------------------------------------------------------------------------- 4. add loops


def _add_loops(rng: random.Random, board: _Board, tree: list[_Link], loops: float) -> list[_Link]:
    """Extra links between rooms near on the map but far apart in the tree, sparing half the tree's leaves.

    Wanted: ``round(loops × rooms)``, at least one when there are six rooms
    or more (and ``loops > 0``).  Candidates are the near pairs; a pair
    scores its tree distance over its gap, jittered, so the loops that
    shorten the walk most are dug first.
    """
    n = len(board.rooms)
    want = int(loops * n + 0.5)
    if loops > 0 and n >= 6:
        want = max(want, 1)
    if want == 0:
        return []
    adj = _adjacency(n, tree)
    leaves = [i for i in range(n) if len(adj[i]) == 1]
    rng.shuffle(leaves)
    spared = set(leaves[: max(1, len(leaves) // 2)])
    linked = {(min(lk.i, lk.j), max(lk.i, lk.j)) for lk in tree}
    dist_cache: dict[int, list[int]] = {}

    def tree_hops(i: int, j: int) -> int:
        if i not in dist_cache:
            dist_cache[i] = _hops(adj, [i])
        return dist_cache[i][j]

    out: list[_Link] = []
    # Stages, each only while no loop is dug: near pairs far apart in the tree; then any pair two links
    # apart or more; then the same, sparing a single leaf.
    stages = ((3, 14, spared), (2, 1 << 20, spared), (2, 1 << 20, set(leaves[:1])))
    for stage, (min_hops, max_gap, keep) in enumerate(stages):
        if out:
            break
        pool = board.near if stage == 0 else _all_pairs(board)
        scored = []
        for g, i, j in pool:
            if (i, j) in linked or i in keep or j in keep or g > max_gap:
                continue
            hops = tree_hops(i, j)
            if hops >= min_hops:
                scored.append((-hops * (0.7 + 0.6 * rng.random()) / (g + 4), i, j))
        scored.sort()
        for _, i, j in scored:
            if len(out) >= want:
                break
            path = board.route(rng, i, j)
            if path is not None:
                _dig(board, out, i, j, path, tree=False)
                linked.add((i, j))
    if not out and n >= 6:
        raise _Retry
    return out


# --------------------------------------------------------------------------- 5. place entrances


class _Way:
    __slots__ = ("path", "room", "side")

    def __init__(self, room: int, path: list[Tile], side: int) -> None:
        self.room, self.path, self.side = room, path, side


def _place_entrances(rng: random.Random, board: _Board, links: list[_Link], count: int) -> list[_Way]:
    """Dig ``count`` corridors in from the map's edge, each to its own room.

    Rooms near the edge are preferred, and a straight corridor out from the
    room's side facing that edge; a breadth-first search to the border is
    the fallback.  After the first, each entrance goes to a room far (in
    links) from the entrances already placed.
    """
    if count == 0:
        return []
    n = len(board.rooms)
    adj = _adjacency(n, links)
    ways: list[_Way] = []
    for _ in range(count):
        far = _hops(adj, [wy.room for wy in ways]) if ways else [0] * n
        options = []
        for i, room in enumerate(board.rooms):
            if any(wy.room == i for wy in ways):
                continue
            x0, y0, x1, y1 = room.box
            edges = (y0, board.w - 1 - x1, board.h - 1 - y1, x0)
            for side in range(4):
                score = edges[side] + 4 * rng.random() - 6 * far[i]
                options.append((score, i, side))
        options.sort()
        way = None
        for _, i, side in options[:12]:
            way = _straight_out(rng, board, i, side)
            if way is not None:
                break
        if way is None:
            for _, i, _side in options:
                path = board.to_border(board.free_all(i))
                if path is not None:
                    path.reverse()
                    way = _Way(i, path, _border_side(board, path[0]))
                    break
        if way is None:
            raise _Retry
        board.take(way.path[-1])
        ways.append(way)
    return ways


def _straight_out(rng: random.Random, board: _Board, i: int, side: int) -> _Way | None:
    doors = board.free(i, side)
    rng.shuffle(doors)
    dx, dy = STEPS[side]
    w, h, blocked = board.w, board.h, board.blocked
    for x, y in doors:
        path = [(x, y)]
        cx, cy = x + dx, y + dy
        while 0 < cx < w - 1 and 0 < cy < h - 1:
            if blocked[cy * w + cx]:
                break
            path.append((cx, cy))
            cx, cy = cx + dx, cy + dy
        else:
            path.append((cx, cy))
            path.reverse()
            return _Way(i, path, side)
    return None


def _border_side(board: _Board, tile: Tile) -> int:
    x, y = tile
    if y == 0:
        return NORTH
    if y == board.h - 1:
        return SOUTH
    return WEST if x == 0 else EAST


# --------------------------------------------------------------------------- 6. stairs


class _Stairs:
    """Where the level starts and where its stairs stand (room indices in build order)."""

    __slots__ = ("depth", "down", "origin", "root", "up")

    def __init__(
        self, depth: list[int], root: int, origin: Tile, down: tuple[int, Tile] | None, up: tuple[int, Tile] | None
    ) -> None:
        self.depth, self.root, self.origin, self.down, self.up = depth, root, origin, down, up


def _place_stairs(
    rng: random.Random,
    board: _Board,
    links: list[_Link],
    ways: list[_Way],
    want_down: bool,
    want_up: bool,
    near: Tile | None,
) -> _Stairs:
    """Measure every room's depth and place the stairs.

    The up stairs of a level without entrances go first (to the room nearest
    ``near``, or a room on the map's rim) and stand in for its entrance.
    Depth is the link distance from the nearest entrance room; the down
    stairs go to a deepest room (ties: farthest on the map from the
    entrances); the up stairs of a level with entrances go to the room
    nearest ``near``, or else to a room linked to the first entrance room.
    Each stairs tile is a floor tile well inside its room, near the centre,
    clear of the doorways.
    """
    rooms = board.rooms
    n = len(rooms)
    adj = _adjacency(n, links)
    up_room: int | None = None
    if ways:
        starts = [wy.room for wy in ways]
        origins = [wy.path[0] for wy in ways]
    else:
        up_room = _nearest_room(rooms, near, set()) if near is not None else _rim_room(rng, board)
        starts = [up_room]
        c = rooms[up_room].centre2()
        origins = [(c[0] // 2, c[1] // 2)]
    depth = _hops(adj, starts)
    if min(depth) < 0:  # pragma: no cover - the tree spans every room
        raise _Retry

    def away(i: int) -> int:
        cx, cy = rooms[i].centre2()
        return min((cx - 2 * ox) ** 2 + (cy - 2 * oy) ** 2 for ox, oy in origins)

    down_room: int | None = None
    if want_down:
        down_room = max(range(n), key=lambda i: (depth[i], away(i), -i))
    if want_up and up_room is None:
        avoid = {down_room} if down_room is not None else set()
        if near is not None:
            up_room = _nearest_room(rooms, near, avoid)
        else:
            nexts = sorted(j for j in adj[starts[0]] if j not in avoid)
            up_room = rng.choice(nexts) if nexts else starts[0]
    doorways: list[set[Tile]] = [set() for _ in range(n)]
    for lk in links:
        doorways[lk.i].add(lk.path[0])
        doorways[lk.j].add(lk.path[-1])
    for wy in ways:
        doorways[wy.room].add(wy.path[-1])
    down = up = None
    if down_room is not None:
        down = (down_room, _stairs_tile(rng, rooms[down_room], doorways[down_room], set()))
    if up_room is not None:
        used = {down[1]} if down is not None else set()
        up = (up_room, _stairs_tile(rng, rooms[up_room], doorways[up_room], used))
    return _Stairs(depth, starts[0], origins[0], down, up)


# --------------------------------------------------------------------------- 7. number rooms


def _number_rooms(board: _Board, links: list[_Link], ways: list[_Way], stairs: _Stairs) -> LevelLayout:
    """Number the rooms like a hand-made key and freeze the result.

    Room 1 is the first entrance's room (or the up stairs' room on a level
    without entrances); then rooms by link distance from it, ties by
    distance on the map from where the party comes in.  Links become
    ``a < b`` (the corridor reversed when needed, so the door is always at
    the higher-numbered room) and are numbered in ``(a, b)`` order.
    """
    rooms = board.rooms
    n = len(rooms)
    adj = _adjacency(n, links)
    hops = _hops(adj, [stairs.root])
    ox, oy = stairs.origin

    def key(i: int) -> tuple[int, int, int, int]:
        cx, cy = rooms[i].centre2()
        return hops[i], (cx - 2 * ox) ** 2 + (cy - 2 * oy) ** 2, cy, cx

    order = sorted(range(n), key=key)
    new_id = {old: k + 1 for k, old in enumerate(order)}
    shapes = tuple(
        RoomShape(
            id=new_id[old],
            x=rooms[old].x,
            y=rooms[old].y,
            w=rooms[old].tpl.w,
            h=rooms[old].tpl.h,
            tiles=rooms[old].floor,
            shape=rooms[old].tpl.shape,
            size=size_of(rooms[old].tpl.area),
            depth=stairs.depth[old],
            is_dead_end=len(adj[old]) == 1,
        )
        for old in order
    )
    finished = []
    for lk in links:
        a, b, path = new_id[lk.i], new_id[lk.j], lk.path
        if a > b:
            a, b, path = b, a, path[::-1]
        finished.append((a, b, tuple(path), lk.tree))
    finished.sort(key=lambda t: (t[0], t[1], t[2]))
    out_links = tuple(
        Link(
            id=k + 1,
            a=a,
            b=b,
            path=path,
            door_tile=path[-1],
            door_vertical=_vertical(path[-1], shapes[b - 1].tiles),
            a_tile=path[0],
            in_tree=tree,
        )
        for k, (a, b, path, tree) in enumerate(finished)
    )
    out_ways = tuple(
        Entrance(
            room=new_id[wy.room],
            tile=wy.path[0],
            side=SIDE_NAMES[_border_side(board, wy.path[0])],
            path=tuple(wy.path),
            door_tile=wy.path[-1],
            door_vertical=_vertical(wy.path[-1], rooms[wy.room].floor),
        )
        for wy in ways
    )
    return LevelLayout(
        width=board.w,
        height=board.h,
        rooms=shapes,
        links=out_links,
        entrances=out_ways,
        stairs_down=None if stairs.down is None else Spot(new_id[stairs.down[0]], stairs.down[1]),
        stairs_up=None if stairs.up is None else Spot(new_id[stairs.up[0]], stairs.up[1]),
    )


def _vertical(door: Tile, floor: frozenset[Tile]) -> bool:
    x, y = door
    return (x - 1, y) in floor or (x + 1, y) in floor


def _nearest_room(rooms: list[_Room], near: Tile, avoid: set[int]) -> int:
    nx, ny = 2 * near[0], 2 * near[1]
    options = [i for i in range(len(rooms)) if i not in avoid] or list(range(len(rooms)))
    return min(options, key=lambda i: ((rooms[i].centre2()[0] - nx) ** 2 + (rooms[i].centre2()[1] - ny) ** 2, i))


def _rim_room(rng: random.Random, board: _Board) -> int:
    """A room near the map's edge, at random among the third closest to it."""
    rooms = board.rooms

    def rim(i: int) -> tuple[int, int]:
        x0, y0, x1, y1 = rooms[i].box
        return min(x0, y0, board.w - 1 - x1, board.h - 1 - y1), i

    order = sorted(range(len(rooms)), key=rim)
    return rng.choice(order[: max(1, len(order) // 3)])


def _stairs_tile(rng: random.Random, room: _Room, doorways: set[Tile], used: set[Tile]) -> Tile:
    """A floor tile near the room's centre, with floor all round it if the room has any such tile."""
    floor = room.floor
    tiles = sorted(floor - used)
    inner = [t for t in tiles if all(nb in floor for nb in neighbours8(t))]
    if not inner:
        inner = [t for t in tiles if not any(nb in doorways for nb in neighbours8(t))] or tiles
    cx, cy = room.centre2()
    inner.sort(key=lambda t: ((2 * t[0] - cx) ** 2 + (2 * t[1] - cy) ** 2, t))
    return rng.choice(inner[:3])


# --------------------------------------------------------------------------- dump, picture, checks


def dump(layout: LevelLayout) -> str:
    """The layout as canonical JSON text (sorted keys, tiles sorted): equal layouts, equal text."""

    def tiles(ts: Iterable[Tile]) -> list[list[int]]:
        return [[x, y] for x, y in sorted(ts)]

    data = {
        "width": layout.width,
        "height": layout.height,
        "rooms": [
            {
                "id": r.id,
                "box": [r.x, r.y, r.w, r.h],
                "shape": r.shape,
                "size": r.size,
                "depth": r.depth,
                "dead_end": r.is_dead_end,
                "tiles": tiles(r.tiles),
            }
            for r in layout.rooms
        ],
        "links": [
            {
                "id": lk.id,
                "a": lk.a,
                "b": lk.b,
                "path": [[x, y] for x, y in lk.path],
                "door": [*lk.door_tile, lk.door_vertical],
                "a_tile": list(lk.a_tile),
                "tree": lk.in_tree,
            }
            for lk in layout.links
        ],
        "entrances": [
            {"room": e.room, "tile": list(e.tile), "side": e.side, "path": [[x, y] for x, y in e.path]}
            for e in layout.entrances
        ],
        "stairs_down": None if layout.stairs_down is None else [layout.stairs_down.room, *layout.stairs_down.tile],
        "stairs_up": None if layout.stairs_up is None else [layout.stairs_up.room, *layout.stairs_up.tile],
    }
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def digest(layout: LevelLayout) -> str:
    """SHA-256 of :func:`dump`, for golden tests."""
    return hashlib.sha256(dump(layout).encode("ascii")).hexdigest()


def ascii(layout: LevelLayout, *, labels: bool = False) -> str:
    """A quick picture: rooms '.', corridors ',', doors '+', entrances 'E', stairs '>' and '<', rock ' '.

    With ``labels``, each room's id is written from its floor tile nearest
    its box's centre.
    """
    grid = [[" "] * layout.width for _ in range(layout.height)]
    for room in layout.rooms:
        for x, y in room.tiles:
            grid[y][x] = "."
    for x, y in layout.corridor_tiles():
        grid[y][x] = ","
    for lk in layout.links:
        x, y = lk.door_tile
        grid[y][x] = "+"
    for e in layout.entrances:
        x, y = e.door_tile
        grid[y][x] = "+"
        x, y = e.tile
        grid[y][x] = "E"
    if labels:
        for room in layout.rooms:
            cx, cy = 2 * room.x + room.w - 1, 2 * room.y + room.h - 1
            x, y = min(room.tiles, key=lambda t: ((2 * t[0] - cx) ** 2 + (2 * t[1] - cy) ** 2, t))
            for k, ch in enumerate(str(room.id)):
                if (x + k, y) in room.tiles:
                    grid[y][x + k] = ch
    for spot, ch in ((layout.stairs_down, ">"), (layout.stairs_up, "<")):
        if spot is not None:
            grid[spot.tile[1]][spot.tile[0]] = ch
    return "\n".join("".join(row).rstrip() for row in grid) + "\n"


def problems(layout: LevelLayout, *, rooms: int | None = None, loops: bool = True) -> list[str]:
    """Every broken invariant of ``layout``, in words (an empty list when it is sound).

    ``rooms``: the number asked for.  ``loops``: whether the level was asked
    for loops (a level of six rooms or more must then have one).
    """
    out: list[str] = []
    w, h = layout.width, layout.height
    n = len(layout.rooms)

    def inside(t: Tile) -> bool:
        return 0 <= t[0] < w and 0 <= t[1] < h

    if rooms is not None and n != rooms:
        out.append(f"{n} rooms, not {rooms}")
    if [r.id for r in layout.rooms] != list(range(1, n + 1)):
        out.append("room ids are not 1..n in order")
    owner: dict[Tile, int] = {}
    for r in layout.rooms:
        if not r.tiles:
            out.append(f"room {r.id} has no floor")
            continue
        xs = [x for x, _ in r.tiles]
        ys = [y for _, y in r.tiles]
        if (min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1) != (r.x, r.y, r.w, r.h):
            out.append(f"room {r.id}'s box is not its floor's bounding box")
        if not all(inside(t) and 0 < t[0] < w - 1 and 0 < t[1] < h - 1 for t in r.tiles):
            out.append(f"room {r.id} reaches the grid's border")
        if r.shape not in SHAPES or r.size != size_of(len(r.tiles)):
            out.append(f"room {r.id} has shape {r.shape!r}, size {r.size!r}")
        if not _connected(set(r.tiles)):
            out.append(f"room {r.id}'s floor is not one 4-connected piece")
        for t in r.tiles:
            owner[t] = r.id
    # Rooms apart: no floor tile within two steps (Manhattan) of another room's floor, so rock separates them
    # and their walls never meet, even at a corner.
    close: set[tuple[int, int]] = set()
    for r in layout.rooms:
        for x, y in r.tiles:
            for dx, dy in _WITHIN_TWO:
                other = owner.get((x + dx, y + dy))
                if other is not None and other != r.id:
                    close.add((min(r.id, other), max(r.id, other)))
    out.extend(f"rooms {a} and {b} are not kept apart by rock" for a, b in sorted(close))
    links_of: dict[int, list[int]] = {r.id: [] for r in layout.rooms}
    doorways: set[Tile] = set()
    if [lk.id for lk in layout.links] != list(range(1, len(layout.links) + 1)):
        out.append("link ids are not 1..m in order")
    for lk in layout.links:
        if not (1 <= lk.a < lk.b <= n):
            out.append(f"link {lk.id} joins {lk.a} and {lk.b}")
            continue
        links_of[lk.a].append(lk.b)
        links_of[lk.b].append(lk.a)
        out.extend(f"link {lk.id}: {p}" for p in _path_problems(lk.path, owner, inside))
        if not lk.path:
            continue
        if lk.door_tile != lk.path[-1] or _touching(lk.door_tile, owner) != [lk.b]:
            out.append(f"link {lk.id}'s door tile does not end the path next to room {lk.b} alone")
        if lk.a_tile != lk.path[0] or _touching(lk.a_tile, owner) != [lk.a]:
            out.append(f"link {lk.id}'s a_tile does not start the path next to room {lk.a} alone")
        if lk.door_vertical != _vertical(lk.door_tile, layout.room(lk.b).tiles):
            out.append(f"link {lk.id}'s door_vertical is wrong")
        if any(_touching(t, owner) for t in lk.path[1:-1]):
            out.append(f"link {lk.id} runs along a room's wall")
        if lk.a_tile in doorways or lk.door_tile in doorways:
            out.append(f"link {lk.id} shares a doorway")
        doorways.update((lk.a_tile, lk.door_tile))
    starts = [e.room for e in layout.entrances]
    for e in layout.entrances:
        if not 1 <= e.room <= n:
            out.append(f"entrance to unknown room {e.room}")
            continue
        x, y = e.tile
        border = {"north": y == 0, "south": y == h - 1, "west": x == 0, "east": x == w - 1}
        if not border.get(e.side, False) or not e.path or e.path[0] != e.tile:
            out.append(f"entrance to room {e.room} does not start on the {e.side} edge")
        out.extend(f"entrance to room {e.room}: {p}" for p in _path_problems(e.path, owner, inside))
        if not e.path:
            continue
        if e.door_tile != e.path[-1] or _touching(e.door_tile, owner) != [e.room]:
            out.append(f"entrance to room {e.room} does not end next to its floor alone")
        if any(_touching(t, owner) for t in e.path[:-1]):
            out.append(f"entrance to room {e.room} runs along a room's wall")
        if e.door_tile in doorways:
            out.append(f"entrance to room {e.room} shares a doorway")
        doorways.add(e.door_tile)
    if not starts and layout.stairs_up is not None:
        starts = [layout.stairs_up.room]
    if not starts:
        out.append("no entrance and no up stairs")
    seen = {s: 0 for s in starts}
    queue = deque(starts)
    while queue:
        i = queue.popleft()
        for j in links_of.get(i, []):
            if j not in seen:
                seen[j] = seen[i] + 1
                queue.append(j)
    if len(seen) != n:
        out.append(f"rooms {sorted(set(links_of) - set(seen))} cannot be reached")
    for r in layout.rooms:
        if r.id in seen and r.depth != seen[r.id]:
            out.append(f"room {r.id} has depth {r.depth}, not {seen[r.id]}")
        if r.is_dead_end != (len(links_of[r.id]) == 1):
            out.append(f"room {r.id}'s is_dead_end is wrong")
    tree = [lk for lk in layout.links if lk.in_tree]
    if len(tree) != n - 1 or len(_reach_from_1(n, tree)) != n:
        out.append(f"the {len(tree)} tree links do not span the {n} rooms")
    pairs = [(lk.a, lk.b) for lk in layout.links]
    if len(set(pairs)) != len(pairs):
        out.append("two links join the same rooms")
    if loops and n >= 6 and len(tree) == len(layout.links):
        out.append("no loop")
    if n >= 5 and not any(r.is_dead_end for r in layout.rooms):
        out.append("no dead end")
    for name, spot in (("down", layout.stairs_down), ("up", layout.stairs_up)):
        if spot is not None and (not 1 <= spot.room <= n or spot.tile not in layout.room(spot.room).tiles):
            out.append(f"stairs {name} not on room {spot.room}'s floor")
    down, up = layout.stairs_down, layout.stairs_up
    if down is not None and 1 <= down.room <= n and layout.room(down.room).depth != max(r.depth for r in layout.rooms):
        out.append("stairs down are not in a deepest room")
    if down is not None and up is not None and down.tile == up.tile:
        out.append("both stairs on one tile")
    return out


def _reach_from_1(n: int, links: list[Link]) -> set[int]:
    """The room ids reachable from room 1 through ``links``."""
    adj: dict[int, list[int]] = {}
    for lk in links:
        adj.setdefault(lk.a, []).append(lk.b)
        adj.setdefault(lk.b, []).append(lk.a)
    seen = {1} if n else set()
    stack = [1]
    while stack:
        for j in adj.get(stack.pop(), []):
            if j not in seen:
                seen.add(j)
                stack.append(j)
    return seen


def _path_problems(path: tuple[Tile, ...], owner: dict[Tile, int], inside: Callable[[Tile], bool]) -> list[str]:
    out = []
    if not path:
        return ["empty path"]
    if not all(inside(t) for t in path):
        out.append("leaves the grid")
    if any(t in owner for t in path):
        out.append("runs over a room's floor")
    if any(abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 for a, b in pairwise(path)):
        out.append("is not 4-connected")
    return out


_WITHIN_TWO = tuple((dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if 0 < abs(dx) + abs(dy) <= 2)


def _touching(tile: Tile, owner: dict[Tile, int]) -> list[int]:
    """The rooms whose floor touches ``tile`` orthogonally, sorted."""
    x, y = tile
    return sorted({owner[t] for dx, dy in STEPS if (t := (x + dx, y + dy)) in owner})


def _connected(tiles: set[Tile]) -> bool:
    start = min(tiles)
    seen = {start}
    stack = [start]
    while stack:
        x, y = stack.pop()
        for dx, dy in STEPS:
            t = (x + dx, y + dy)
            if t in tiles and t not in seen:
                seen.add(t)
                stack.append(t)
    return len(seen) == len(tiles)
