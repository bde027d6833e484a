"""The combat grid: tiles, distances, who stands where, and how far a mover can go.

Every distance counts orthogonal steps (RULINGS R73: Close is 1 square, no
diagonal; Nearby is 6 squares, R72); weapons and attacks that "hit
diagonally" also reach the four diagonal neighbours.  Movement is orthogonal
and stops right after leaving a square adjacent to an enemy (for an
adventurer) or to an adventurer (for an enemy).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from rules.gm.combat_state import CombatState, Tile
from rules.notation import RANGE_TILES, Range

CLOSE = RANGE_TILES[Range.CLOSE] or 1
NEARBY = RANGE_TILES[Range.NEARBY] or 6
STEPS: tuple[Tile, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
DIAGONALS: tuple[Tile, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def distance(a: Tile, b: Tile) -> int:
    """Orthogonal steps between two tiles (R73)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def diagonal(a: Tile, b: Tile) -> bool:
    return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1


def in_reach(a: Tile, b: Tile, tiles: int | None, *, diagonals: bool = False) -> bool:
    """``b`` is within ``tiles`` orthogonal steps of ``a`` (None: any distance), or diagonally adjacent."""
    if a == b:
        return True
    if diagonals and diagonal(a, b):
        return True
    return tiles is None or distance(a, b) <= tiles


def close(a: Tile, b: Tile) -> bool:
    return distance(a, b) <= CLOSE


def around(t: Tile, *, diagonals: bool = False) -> list[Tile]:
    steps = STEPS + (DIAGONALS if diagonals else ())
    return [(t[0] + dx, t[1] + dy) for dx, dy in steps]


def ordered(tiles: Iterable[Tile]) -> list[Tile]:
    """Tiles in a fixed order (row by row), so every choice among them is deterministic."""
    return sorted(tiles, key=lambda t: (t[1], t[0]))


def centre(tiles: Iterable[Tile]) -> Tile:
    ts = list(tiles)
    xs = sorted(x for x, _ in ts)
    ys = sorted(y for _, y in ts)
    return xs[len(xs) // 2], ys[len(ys) // 2]


# --- the room and its doorway --------------------------------------------------------------------------


def doorway(room: frozenset[Tile], towards: Tile | None) -> tuple[Tile, Tile]:
    """The room tile by the door and the doorway tile just outside it, on the side facing ``towards``.

    The dungeon interface gives links without door positions, so the door is
    taken on the room's wall nearest to the room it leads to (its centre).
    """
    target = towards if towards is not None else centre(room)
    edge = [t for t in ordered(room) if any(n not in room for n in around(t))]
    inside = min(edge, key=lambda t: (distance(t, target), t[1], t[0]))
    outs = [n for n in around(inside) if n not in room]
    outside = min(outs, key=lambda n: (distance(n, target), n[1], n[0]))
    return inside, outside


def corridor(room: frozenset[Tile], inside: Tile, outside: Tile, length: int) -> list[Tile]:
    """``length`` tiles in a straight line from the doorway away from the room (spill-over room to stand)."""
    dx, dy = outside[0] - inside[0], outside[1] - inside[1]
    out: list[Tile] = []
    t = outside
    for _ in range(length):
        t = (t[0] + dx, t[1] + dy)
        if t in room:
            break
        out.append(t)
    return out


# --- who is where ----------------------------------------------------------------------------------------


def occupants(cs: CombatState) -> dict[Tile, list[str]]:
    """Every standing creature's tile: fighter ids (members) and foe ids."""
    where: dict[Tile, list[str]] = {}
    for f in cs.fighters:
        if not f.fled and not f.dead:
            where.setdefault(f.tile, []).append(f.id)
    for e in cs.foes:
        if e.active:
            where.setdefault(e.tile, []).append(e.id)
    return where


def nearest_free(cs: CombatState, start: Tile, taken: set[Tile], *, avoid: Iterable[Tile] = ()) -> Tile | None:
    """The free grid tile nearest to ``start`` (breadth first over the grid)."""
    grid = set(cs.tiles)
    avoid_set = set(avoid)
    if start in grid and start not in taken and start not in avoid_set:
        return start
    seen = {start}
    todo = deque([start])
    while todo:
        t = todo.popleft()
        for n in around(t):
            if n in seen or n not in grid:
                continue
            seen.add(n)
            if n not in taken and n not in avoid_set:
                return n
            todo.append(n)
    # the start may lie off the grid: fall back to the grid's nearest free tile
    free = [t for t in ordered(grid) if t not in taken and t not in avoid_set]
    return min(free, key=lambda t: distance(t, start)) if free else None


def reachable(
    start: Tile,
    steps: int,
    grid: set[Tile],
    *,
    blocked: set[Tile],
    occupied: set[Tile],
    threat: set[Tile],
    ignore_stop: bool = False,
    straight: bool = False,
    stops: set[Tile] | None = None,
) -> dict[Tile, int]:
    """Tiles a mover can end on with at most ``steps`` orthogonal steps, and how many steps each takes.

    ``blocked``: tiles it cannot pass through; ``occupied``: tiles it may pass but
    not stop on; ``threat``: tiles adjacent to an enemy — leaving one ends the move
    one tile later (unless ``ignore_stop``); ``straight``: no change of direction; ``stops``: tiles that end
    the move of whoever steps on them (a trap).
    """
    best: dict[Tile, int] = {}
    if steps <= 0:
        return best
    # states: (tile, direction or None, may continue)
    todo: deque[tuple[Tile, Tile | None, int]] = deque([(start, None, 0)])
    seen: set[tuple[Tile, Tile | None]] = {(start, None)}
    while todo:
        t, heading, used = todo.popleft()
        if used >= steps:
            continue
        dirs = [heading] if straight and heading is not None else list(STEPS)
        for d in dirs:
            assert d is not None
            n = (t[0] + d[0], t[1] + d[1])
            if n not in grid or n in blocked:
                continue
            if n not in occupied and n != start and (n not in best or best[n] > used + 1):
                best[n] = used + 1
            if not ignore_stop and t in threat:
                continue  # arriving next to an enemy does not stop a move; leaving such a square does
            if stops and n in stops:
                continue
            key = (n, d if straight else None)
            if key in seen:
                continue
            seen.add(key)
            todo.append((n, d, used + 1))
    return best
