"""The walls and doors of a level, as plain geometry (no Qt).

Coordinates are the level's tile grid: tile ``(x, y)`` is the unit square
from corner ``(x, y)`` to corner ``(x + 1, y + 1)``; a :class:`Segment` runs
between two grid corners.  The *floor* of a level is every room's floor plus
every corridor tile; a *wall* is an edge between a floor tile and a tile that
is not floor, and walls are merged into maximal straight segments.

A door stands on the edge between its door tile (the corridor tile touching
room ``to``) and room ``to``'s floor.  Both sides of that edge are floor, so a
door is never a wall unless the caller asks for it (secret doors on a printed
map: the wall is drawn through them).

"What the party has seen" is a :class:`Seen` (room ids and connection ids);
:func:`level_geometry` turns a level and an optional :class:`Seen` into the
floor, walls and doors to draw or export.  The same function feeds the
painter (``desktop/render``) and the Universal VTT export (:mod:`.uvtt`), so
the picture and the line-of-sight data always agree.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from dungeon_gen.model import Connection, LevelData

Tile = tuple[int, int]
Step = tuple[int, int]

STEPS: tuple[Step, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True, order=True)
class Segment:
    """An axis-aligned segment between grid corners, stored with ``(x1, y1) <= (x2, y2)``."""

    x1: int
    y1: int
    x2: int
    y2: int

    def __post_init__(self) -> None:
        if not (self.x1 == self.x2) ^ (self.y1 == self.y2):
            raise ValueError(f"a segment is horizontal or vertical and not empty: {self}")
        if (self.x1, self.y1) > (self.x2, self.y2):
            raise ValueError(f"segment ends out of order: {self}")

    @classmethod
    def between(cls, a: tuple[int, int], b: tuple[int, int]) -> Segment:
        """The segment between two corners, in either order."""
        (x1, y1), (x2, y2) = sorted((a, b))
        return cls(x1, y1, x2, y2)

    @property
    def horizontal(self) -> bool:
        return self.y1 == self.y2

    @property
    def length(self) -> int:
        return (self.x2 - self.x1) + (self.y2 - self.y1)

    @property
    def start(self) -> tuple[int, int]:
        return (self.x1, self.y1)

    @property
    def end(self) -> tuple[int, int]:
        return (self.x2, self.y2)

    @property
    def midpoint(self) -> tuple[float, float]:
        return ((self.x1 + self.x2) / 2, (self.y1 + self.y2) / 2)

    def units(self) -> Iterator[Segment]:
        """The unit-length pieces of the segment, in order."""
        if self.horizontal:
            for x in range(self.x1, self.x2):
                yield Segment(x, self.y1, x + 1, self.y1)
        else:
            for y in range(self.y1, self.y2):
                yield Segment(self.x1, y, self.x1, y + 1)


def edge_between(a: Tile, b: Tile) -> Segment:
    """The unit edge shared by two 4-adjacent tiles."""
    (ax, ay), (bx, by) = a, b
    if ay == by and abs(ax - bx) == 1:
        x = max(ax, bx)
        return Segment(x, ay, x, ay + 1)
    if ax == bx and abs(ay - by) == 1:
        y = max(ay, by)
        return Segment(ax, y, ax + 1, y)
    raise ValueError(f"tiles {a} and {b} are not 4-adjacent")


def boundary_edges(floor: Iterable[Tile]) -> set[Segment]:
    """Every unit edge between a floor tile and a tile that is not floor (unmerged)."""
    tiles = set(floor)
    edges: set[Segment] = set()
    for x, y in tiles:
        for dx, dy in STEPS:
            n = (x + dx, y + dy)
            if n not in tiles:
                edges.add(edge_between((x, y), n))
    return edges


def interior_edges(floor: Iterable[Tile]) -> list[Segment]:
    """The edges between two floor tiles, merged (the faint tile grid of a map)."""
    tiles = set(floor)
    edges: set[Segment] = set()
    for x, y in tiles:
        if (x + 1, y) in tiles:
            edges.add(Segment(x + 1, y, x + 1, y + 1))
        if (x, y + 1) in tiles:
            edges.add(Segment(x, y + 1, x + 1, y + 1))
    return merge(edges)


def merge(edges: Iterable[Segment]) -> list[Segment]:
    """Merge segments into maximal straight segments covering exactly the same unit edges.

    Collinear segments that touch or overlap become one; the result is sorted.
    """
    rows: dict[int, set[int]] = defaultdict(set)  # y -> x of each horizontal unit edge's west end
    cols: dict[int, set[int]] = defaultdict(set)  # x -> y of each vertical unit edge's north end
    for seg in edges:
        if seg.horizontal:
            rows[seg.y1].update(range(seg.x1, seg.x2))
        else:
            cols[seg.x1].update(range(seg.y1, seg.y2))
    out: list[Segment] = []
    for y, xs in rows.items():
        out.extend(Segment(a, y, b, y) for a, b in runs(xs))
    for x, ys in cols.items():
        out.extend(Segment(x, a, x, b) for a, b in runs(ys))
    out.sort()
    return out


def runs(values: Iterable[int]) -> Iterator[tuple[int, int]]:
    """Maximal runs of consecutive integers as half-open ``(start, stop)`` pairs."""
    ordered = sorted(values)
    if not ordered:
        return
    start = prev = ordered[0]
    for v in ordered[1:]:
        if v != prev + 1:
            yield start, prev + 1
            start = v
        prev = v
    yield start, prev + 1


def wall_segments(floor: Iterable[Tile], barriers: Iterable[Segment] = ()) -> list[Segment]:
    """The walls around ``floor``, plus ``barriers`` (edges to close, e.g. secret doors), merged."""
    return merge(boundary_edges(floor) | set(barriers))


def polylines(segments: Iterable[Segment]) -> list[list[tuple[int, int]]]:
    """Chain segments that share ends into polylines (corner points), each segment used once.

    A closed loop comes back to its first point.  At a crossing (two rooms
    touching at a corner) the chain goes on along any unused segment.
    """
    segs = sorted(set(segments))
    at: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, s in enumerate(segs):
        at[s.start].append(i)
        at[s.end].append(i)
    used = [False] * len(segs)

    def walk(point: tuple[int, int]) -> list[tuple[int, int]]:
        line = [point]
        while True:
            nxt = next((i for i in at[point] if not used[i]), None)
            if nxt is None:
                return line
            used[nxt] = True
            s = segs[nxt]
            point = s.end if s.start == point else s.start
            line.append(point)

    out: list[list[tuple[int, int]]] = []
    # Open chains first start at dead ends (odd degree), then the loops that remain.
    starts = [p for p, ids in sorted(at.items()) if len(ids) % 2 == 1]
    for p in starts:
        if any(not used[i] for i in at[p]):
            out.append(walk(p))
    for i, s in enumerate(segs):
        if not used[i]:
            out.append(walk(s.start))
    return out


# --- levels -------------------------------------------------------------------------------------


def room_floor(level: LevelData) -> set[Tile]:
    """Every room's floor tiles."""
    out: set[Tile] = set()
    for r in level.rooms:
        out |= r.floor()
    return out


ENTRANCE_IDS = 9000  # connection ids given to the corridors from outside (entrance ways)


def all_connections(level: LevelData) -> list[Connection]:
    """The level's connections, plus its entrance ways (the corridors from outside) as connections
    from the map's edge into their room, numbered from :data:`ENTRANCE_IDS`."""
    out = list(level.connections)
    for i, way in enumerate(getattr(level, "entrance_ways", [])):
        out.append(Connection(id=ENTRANCE_IDS + i, from_=way.room, to=way.room, door=way.door, path=way.path))
    return out


def corridor_tiles(level: LevelData) -> set[Tile]:
    """Every corridor tile of every connection and entrance way."""
    return {(x, y) for c in all_connections(level) for x, y in c.path}


def floor_tiles(level: LevelData) -> set[Tile]:
    """The whole floor of a level: rooms and corridors."""
    return room_floor(level) | corridor_tiles(level)


@dataclass(frozen=True)
class DoorEdge:
    """Where a connection's door stands: the edge between its door tile and room ``to``."""

    connection: int
    kind: str
    segment: Segment
    tile: Tile  # the door tile (the corridor side)
    inward: Step  # one step from ``tile`` into room ``to``

    @property
    def vertical(self) -> bool:
        """True when the door stands in a west or east wall."""
        return not self.segment.horizontal

    @property
    def secret(self) -> bool:
        return self.kind == "secret"

    @property
    def closed(self) -> bool:
        """Doors block sight; archways do not."""
        return self.kind != "archway"


def door_edge(level: LevelData, conn: Connection, floors: dict[int, set[Tile]] | None = None) -> DoorEdge | None:
    """The door of ``conn`` on its edge, or None when the data places it nowhere sensible.

    The door tile should lie just outside room ``to``; when it lies inside
    (rooms sharing a wall, or a generator placing the door on the room's own
    edge tile), the edge towards room ``from`` or the corridor is used instead.
    """
    floors = floors if floors is not None else {r.id: r.floor() for r in level.rooms}
    to_floor = floors.get(conn.to, set())
    tile: Tile = (conn.door.tile[0], conn.door.tile[1])
    preferred: tuple[Step, ...] = ((1, 0), (-1, 0)) if conn.door.vertical else ((0, 1), (0, -1))
    others = tuple(s for s in STEPS if s not in preferred)
    if tile not in to_floor:
        for dx, dy in preferred + others:
            n = (tile[0] + dx, tile[1] + dy)
            if n in to_floor:
                return DoorEdge(conn.id, conn.door.kind, edge_between(tile, n), tile, (dx, dy))
        return None
    # The door tile is inside room ``to``: the edge leads out to the corridor or to room ``from``.
    outside = {(x, y) for x, y in conn.path} | floors.get(conn.from_, set())
    outside -= to_floor
    for dx, dy in preferred + others:
        n = (tile[0] + dx, tile[1] + dy)
        if n in outside:
            return DoorEdge(conn.id, conn.door.kind, edge_between(n, tile), n, (-dx, -dy))
    return None


def door_edges(level: LevelData) -> list[DoorEdge]:
    """Every door of the level that can be placed (see :func:`door_edge`)."""
    floors = {r.id: r.floor() for r in level.rooms}
    out = [door_edge(level, c, floors) for c in all_connections(level)]
    return [d for d in out if d is not None]


@dataclass(frozen=True)
class Seen:
    """What the party has seen: room ids and connection ids."""

    rooms: frozenset[int] = frozenset()
    connections: frozenset[int] = frozenset()

    @classmethod
    def of(cls, rooms: Iterable[int] = (), connections: Iterable[int] = ()) -> Seen:
        return cls(frozenset(rooms), frozenset(connections))


class _Views(threading.local):
    """Level views computed once within :func:`geometry_cache`, in this thread only (keyed by the
    level object and the arguments; the level itself is kept so its id is not reused)."""

    cache: dict[tuple[Any, ...], tuple[LevelData, Any]] | None = None


_views = _Views()


@contextmanager
def geometry_cache() -> Iterator[None]:
    """Within this block, :func:`level_geometry` and :func:`open_part` of the same level object
    with the same arguments are computed once: the exports of one dungeon draw each view of a
    level several times (the PNG, the SVG's layers, the PDF's fitting rounds, the VTT files).
    The levels must not change inside the block.  Only the calling thread's calls are cached (an
    export on a worker thread leaves the window's map drawing as it was)."""
    outer = _views.cache
    _views.cache = {} if outer is None else outer
    try:
        yield
    finally:
        _views.cache = outer


def _cached(key: tuple[Any, ...], level: LevelData, compute: Any) -> Any:
    cache = _views.cache
    if cache is None:
        return compute()
    full = (id(level), *key)
    hit = cache.get(full)
    if hit is None or hit[0] is not level:
        hit = cache[full] = (level, compute())
    return hit[1]


def level_memo(level: LevelData, name: str) -> dict[Any, Any]:
    """A dict kept for ``level`` within :func:`geometry_cache` (a fresh one outside it), for a
    drawing's own work that every picture of the level shares (the hatching's strokes)."""
    return _cached(("memo", name), level, dict)  # type: ignore[no-any-return]


def open_part(level: LevelData) -> Seen:
    """The rooms and passages the players can reach without finding a secret door: from the
    level's ways in (its entrances and their corridors, and its stairs) through every passage
    that is not secret.  A level with no way in at all is open everywhere."""
    return _cached(("open_part",), level, lambda: _open_part(level))  # type: ignore[no-any-return]


def _open_part(level: LevelData) -> Seen:
    starts = set(getattr(level, "entrances", [])) | {w.room for w in getattr(level, "entrance_ways", [])}
    starts |= {s.room for s in level.stairs}
    connections = all_connections(level)
    if not starts:
        return Seen.of(rooms=[r.id for r in level.rooms], connections=[c.id for c in connections])
    links: dict[int, set[int]] = defaultdict(set)
    for c in connections:
        if c.door.kind != "secret":
            links[c.from_].add(c.to)
            links[c.to].add(c.from_)
    reached = set(starts)
    todo = sorted(starts)
    while todo:
        room = todo.pop()
        for other in sorted(links[room] - reached):
            reached.add(other)
            todo.append(other)
    passages = [c.id for c in connections if c.door.kind != "secret" and c.from_ in reached and c.to in reached]
    return Seen.of(rooms=sorted(reached), connections=passages)


def seen_floor(level: LevelData, seen: Seen) -> set[Tile]:
    """The floor the party knows: seen rooms, seen corridors, and the mouths of corridors
    (not secret ones) that open into a seen room."""
    floor: set[Tile] = set()
    for r in level.rooms:
        if r.id in seen.rooms:
            floor |= r.floor()
    rooms_floor = set(floor)
    for c in all_connections(level):
        path = {(x, y) for x, y in c.path}
        if c.id in seen.connections:
            floor |= path
        elif c.door.kind != "secret":
            floor |= {t for t in path if any((t[0] + dx, t[1] + dy) in rooms_floor for dx, dy in STEPS)}
    return floor


@dataclass(frozen=True)
class LevelGeometry:
    """The floor, walls and doors of one view of a level."""

    floor: frozenset[Tile]
    walls: tuple[Segment, ...]
    doors: tuple[DoorEdge, ...]
    hidden_doors: tuple[DoorEdge, ...]  # secret doors drawn as plain wall (not yet found)


def level_geometry(
    level: LevelData,
    *,
    seen: Seen | None = None,
    reveal_secrets: bool = True,
    wall_secret_doors: bool = True,
) -> LevelGeometry:
    """What to draw or export for one view of a level.

    * ``seen``: None shows everything; otherwise only the seen rooms and
      corridors (see :func:`seen_floor`), and the doors of seen connections or
      on the edge of a seen room.
    * ``reveal_secrets``: False hides the secret doors that are not among the
      seen connections (all of them when ``seen`` is None): their edge is a
      wall and their corridor is not floor, unless another passage uses it.
    * ``wall_secret_doors``: True closes the edge of every shown secret door
      with wall as well (a printed map draws the wall through and marks an
      "S"); False leaves it open so a VTT can treat it as a door.
    """
    key = ("geometry", seen, reveal_secrets, wall_secret_doors)
    return _cached(  # type: ignore[no-any-return]
        key, level, lambda: _level_geometry(level, seen, reveal_secrets, wall_secret_doors)
    )


def _level_geometry(
    level: LevelData, seen: Seen | None, reveal_secrets: bool, wall_secret_doors: bool
) -> LevelGeometry:
    seen_connections = seen.connections if seen is not None else frozenset()
    hidden_ids = {
        c.id
        for c in level.connections
        if c.door.kind == "secret" and not reveal_secrets and c.id not in seen_connections
    }
    if seen is None:
        floor = room_floor(level)
        for c in all_connections(level):
            if c.id not in hidden_ids:
                floor |= {(x, y) for x, y in c.path}
    else:
        floor = seen_floor(level, seen)  # never holds an unseen secret corridor
    all_doors = door_edges(level)
    shown: list[DoorEdge] = []
    hidden: list[DoorEdge] = []
    for d in all_doors:
        if d.connection in hidden_ids:
            hidden.append(d)
            continue
        # Unseen passages still show their door when it stands between two known floor tiles.
        unseen = seen is not None and d.connection not in seen_connections
        if unseen and (d.secret or d.tile not in floor or _step(d.tile, d.inward) not in floor):
            continue
        shown.append(d)
    closed = hidden + [d for d in shown if d.secret] if wall_secret_doors else hidden
    # A closed doorway needs its own wall only between two floor tiles; beside rock it is one already.
    barriers = [d.segment for d in closed if d.tile in floor and _step(d.tile, d.inward) in floor]
    walls = wall_segments(floor, barriers)
    return LevelGeometry(frozenset(floor), tuple(walls), tuple(shown), tuple(hidden))


def _step(tile: Tile, step: Step) -> Tile:
    return (tile[0] + step[0], tile[1] + step[1])


@dataclass(frozen=True)
class Frame:
    """The part of the grid a map shows, in tiles: ``x``, ``y`` may be negative when padded."""

    x: int
    y: int
    w: int
    h: int

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px <= self.x + self.w and self.y <= py <= self.y + self.h


def map_frame(level: LevelData, pad: int = 2, min_w: int = 0, min_h: int = 0) -> Frame:
    """The bounding box of the whole floor (secrets included, so it never changes as a party
    explores), grown by ``pad`` tiles, and widened evenly to at least ``min_w`` by ``min_h``."""
    tiles = floor_tiles(level) | {(s.tile[0], s.tile[1]) for s in level.stairs}
    if not tiles:
        return Frame(0, 0, max(level.grid.width, min_w), max(level.grid.height, min_h))
    xs = [x for x, _ in tiles]
    ys = [y for _, y in tiles]
    x0, y0 = min(xs) - pad, min(ys) - pad
    w, h = max(xs) + 1 + pad - x0, max(ys) + 1 + pad - y0
    if w < min_w:
        x0 -= (min_w - w) // 2
        w = min_w
    if h < min_h:
        y0 -= (min_h - h) // 2
        h = min_h
    return Frame(x0, y0, w, h)
