"""Room shapes for the layout stage: floor templates, their wall ring and their doorway candidates.

A :class:`Template` is a room's floor relative to its bounding box's top-left
corner, with the two things the corridor router needs precomputed:

* ``ring``: every tile outside the floor that touches it orthogonally.  Walls
  are drawn on the floor's boundary, so these tiles are where the walls
  stand; no corridor may run through another room's ring.
* ``doors``: per side (north, east, south, west), the ring tiles where a
  corridor may meet the room: each touches exactly one floor tile, on that
  side, and the wall continues on both sides of it (no doors in corners or
  in the notches of L-shaped rooms and caves).

Built shapes (``rect``, ``L``, ``cross``, ``round``) are pure functions of
their parameters and cached; cave blobs are carved with the caller's
``random.Random`` (a drunkard's walk with a 2×2 brush, then one smoothing
pass).  Nothing here touches the global RNG, and every tuple is
sorted so results never depend on set iteration order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

Tile = tuple[int, int]

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
SIDE_NAMES = ("north", "east", "south", "west")
STEPS: tuple[Tile, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
OPPOSITE = (SOUTH, WEST, NORTH, EAST)
_EIGHT: tuple[Tile, ...] = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


@dataclass(frozen=True, slots=True)
class Template:
    """A room's floor relative to its bounding box, with its wall ring and doorway candidates."""

    shape: str
    w: int
    h: int
    tiles: tuple[Tile, ...]  # row by row: sorted by (y, x)
    ring: tuple[Tile, ...]
    doors: tuple[tuple[Tile, ...], ...]  # indexed by NORTH, EAST, SOUTH, WEST

    @property
    def area(self) -> int:
        return len(self.tiles)

    def door_sides(self) -> int:
        """How many sides offer at least one doorway."""
        return sum(1 for side in self.doors if side)


def make_template(shape: str, tiles: set[Tile]) -> Template:
    """Normalise ``tiles`` to the origin and compute the ring and the doorway candidates."""
    x0 = min(x for x, _ in tiles)
    y0 = min(y for _, y in tiles)
    pw = max(x for x, _ in tiles) - x0 + 1 + 2 * _PAD
    ph = max(y for _, y in tiles) - y0 + 1 + 2 * _PAD
    cells = bytearray(pw * ph)
    for x, y in tiles:
        cells[(y - y0 + _PAD) * pw + x - x0 + _PAD] = 1
    return _from_cells(shape, cells, pw, ph)


_PAD = 2  # empty tiles around a template's working grid: room for the ring and for looking past it


def _from_cells(shape: str, cells: bytearray, pw: int, ph: int) -> Template:
    """The template of the floor marked in ``cells``, a pw×ph grid with at least _PAD empty tiles all round.

    Works on the grid as one big integer, a byte per tile, so growing the
    floor into its ring and finding the doorways are a few shifts and masks.
    """
    size = pw * ph
    row = 8 * pw
    m = int.from_bytes(cells, "little")
    north_of, south_of = m << row, m >> row  # bit i: the tile north / south of i is floor
    west_of, east_of = m << 8, m >> 8
    ring = (north_of | south_of | west_of | east_of) & ~m
    two = (
        (north_of & south_of)
        | (north_of & east_of)
        | (north_of & west_of)
        | (south_of & east_of)
        | (south_of & west_of)
        | (east_of & west_of)
    )
    one = ring & ~two
    flat = ring & (ring << 8) & (ring >> 8)  # the ring continues west and east
    upright = ring & (ring << row) & (ring >> row)  # ... north and south
    floor_at = _positions(cells)
    xs = [i % pw for i in floor_at]
    ys = [i // pw for i in floor_at]
    x0, y0 = min(xs), min(ys)

    def tiles(mask: int) -> tuple[Tile, ...]:
        return tuple((i % pw - x0, i // pw - y0) for i in _positions(mask.to_bytes(size, "little")))

    return Template(
        shape=shape,
        w=max(xs) - x0 + 1,
        h=max(ys) - y0 + 1,
        tiles=tuple((x - x0, y - y0) for x, y in zip(xs, ys, strict=True)),
        ring=tiles(ring),
        doors=(
            tiles(one & south_of & flat),  # north side: the floor lies south of the doorway
            tiles(one & west_of & upright),
            tiles(one & north_of & flat),
            tiles(one & east_of & upright),
        ),
    )


def _positions(buf: bytes | bytearray) -> list[int]:
    """The indices of the non-zero bytes of ``buf`` (each 0 or 1), in order."""
    out = []
    find = buf.find
    i = find(1)
    while i != -1:
        out.append(i)
        i = find(1, i + 1)
    return out


@cache
def rect(w: int, h: int) -> Template:
    """A w×h rectangle."""
    return make_template("rect", {(x, y) for x in range(w) for y in range(h)})


@cache
def l_shape(w: int, h: int, cut_w: int, cut_h: int, corner: int) -> Template:
    """A w×h rectangle with a cut_w×cut_h block removed at one corner (0 NW, 1 NE, 2 SE, 3 SW)."""
    cx0 = w - cut_w if corner in (1, 2) else 0
    cy0 = h - cut_h if corner in (2, 3) else 0
    tiles = {(x, y) for x in range(w) for y in range(h) if not (cx0 <= x < cx0 + cut_w and cy0 <= y < cy0 + cut_h)}
    return make_template("L", tiles)


@cache
def cross(w: int, h: int, arm_w: int, arm_h: int) -> Template:
    """A plus sign in a w×h box: a vertical arm arm_w wide and a horizontal arm arm_h high, centred."""
    ax0 = (w - arm_w) // 2
    ay0 = (h - arm_h) // 2
    tiles = {(x, y) for x in range(w) for y in range(h) if ax0 <= x < ax0 + arm_w or ay0 <= y < ay0 + arm_h}
    return make_template("cross", tiles)


@cache
def round_hall(w: int, h: int, octagon: bool) -> Template:
    """An octagon (corners cut at about a third of the short side) or an ellipse, in a w×h box."""
    if octagon:
        c = max(1, min(min(w, h) // 3, (min(w, h) - 3) // 2))  # flat sides at least three tiles long
        tiles = {
            (x, y)
            for x in range(w)
            for y in range(h)
            if x + y >= c and (w - 1 - x) + y >= c and x + (h - 1 - y) >= c and (w - 1 - x) + (h - 1 - y) >= c
        }
    else:
        # (2x+1-w)²/w² + (2y+1-h)²/h² <= 1 + slack, in integers; the slack rounds the flat sides out.
        ww, hh = w * w, h * h
        limit = ww * hh + ww * hh // 5
        tiles = {
            (x, y) for x in range(w) for y in range(h) if (2 * x + 1 - w) ** 2 * hh + (2 * y + 1 - h) ** 2 * ww <= limit
        }
    return make_template("round", tiles)


def cave_blob(rng: random.Random, w: int, h: int) -> Template | None:
    """A cave chamber carved in a w×h box; None when the carve came out too thin to use.

    A drunkard's walk with a 3×3 brush carves about half the box, starting at
    its centre, so the floor is one 4-connected piece at least three tiles
    across everywhere (no spurs, room for doorways).  Then each row's floor
    is closed up into one run: the outline stays ragged but the floor has no
    holes (a rock tile inside a row's run would be a pillar with doorway
    candidates of its own).
    """
    pw, ph = w + 2 * _PAD, h + 2 * _PAD
    cells = bytearray(pw * ph)
    target = (w * h) * (8 + rng.randrange(3)) // 16
    x, y = (w - 3) // 2, (h - 3) // 2
    three = b"\x01\x01\x01"
    bits = left = 0
    count = cells.count
    for steps in range(w * h * 4):
        i = (y + _PAD) * pw + x + _PAD
        cells[i : i + 3] = three
        cells[i + pw : i + pw + 3] = three
        cells[i + 2 * pw : i + 2 * pw + 3] = three
        if steps & 3 == 0 and count(1) >= target:
            break
        if not left:
            bits, left = rng.getrandbits(60), 20
        d = bits & 3
        step = 1 + (bits >> 2 & 1)  # one or two tiles: two carves faster, one keeps the outline fine-grained
        bits >>= 3
        left -= 1
        if d == 0:
            y = y - step if y >= step else y + step
        elif d == 1:
            x = x + step if x + step <= w - 3 else x - step
        elif d == 2:
            y = y + step if y + step <= h - 3 else y - step
        else:
            x = x - step if x >= step else x + step
    ones = b"\x01" * pw
    for row in range(_PAD, _PAD + h):
        lo = cells.find(1, row * pw, (row + 1) * pw)
        if lo != -1:
            hi = cells.rfind(1, row * pw, (row + 1) * pw)
            cells[lo : hi + 1] = ones[: hi + 1 - lo]
    tpl = _from_cells("cave", cells, pw, ph)
    if tpl.door_sides() < 3:
        return None
    return tpl


def neighbours8(tile: Tile) -> tuple[Tile, ...]:
    """The eight tiles around ``tile``."""
    x, y = tile
    return tuple((x + dx, y + dy) for dx, dy in _EIGHT)


def steps_from(adj: dict[int, list[int]], starts: list[int] | set[int]) -> dict[int, int]:
    """Breadth-first: each room reachable over ``adj`` (room -> neighbouring rooms) and the fewest steps to it from
    any of ``starts``."""
    from collections import deque

    dist = dict.fromkeys(starts, 0)
    todo = deque(sorted(starts))
    while todo:
        r = todo.popleft()
        for n in adj[r]:
            if n not in dist:
                dist[n] = dist[r] + 1
                todo.append(n)
    return dist


def compass(x: int, y: int, w: int, h: int, tile: tuple[int, int]) -> tuple[str, str]:
    """Where ``tile`` lies in the box at ``x, y`` of ``w`` by ``h`` tiles, by thirds: (column, row), each "west" /
    "east", "north" / "south" or "" for the middle third."""
    fx = (tile[0] - x + 0.5) / max(1, w)
    fy = (tile[1] - y + 0.5) / max(1, h)
    col = "west" if fx < 1 / 3 else "east" if fx > 2 / 3 else ""
    row = "north" if fy < 1 / 3 else "south" if fy > 2 / 3 else ""
    return col, row
