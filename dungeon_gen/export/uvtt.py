"""Universal VTT (``.dd2vtt``) export: a level's walls, doors and lights with its picture.

The format (0.3, as written by Dungeondraft and read by the Foundry, Owlbear,
Roll20-via-converter and Fantasy Grounds importers) is JSON:

* ``resolution``: ``map_origin`` {x, y}, ``map_size`` {x, y} in grid units,
  ``pixels_per_grid``;
* ``line_of_sight``: the walls, a list of polylines of {x, y} points in grid units;
* ``objects_line_of_sight``: walls of objects (none here);
* ``portals``: doors, each with ``position``, ``bounds`` (its two ends),
  ``rotation`` (radians), ``closed`` (true: every portal here is a door) and
  ``freestanding`` (false: every door stands in a wall);
* ``environment``: ``baked_lighting`` and ``ambient_light`` (AARRGGBB hex);
* ``lights``: ``position``, ``range`` (grid units), ``intensity``, ``color``
  (AARRGGBB), ``shadows``;
* ``image``: the picture, base64 PNG.

**One frame of reference.**  Every coordinate is the dungeon JSON's own tile
grid, on every level: UVTT point ``(x, y)`` is grid corner ``(x, y)``, so JSON
tile ``(x, y)`` is the square from ``(x, y)`` to ``(x + 1, y + 1)`` in the VTT
file too.  The picture's top-left corner is grid corner ``(0, 0)`` and
``map_origin`` is 0, 0 (importers differ on whether they subtract it, and with
0 they all agree); ``map_size`` is the level's grid, grown when a corridor runs
past it (see :func:`vtt_frame`).

**Archways** are openings, not portals: the importers turn every portal into
a door or a window that blocks movement (Foundry's Universal Battlemap
Importer makes an open portal a movement-blocking wall; uvtt2fgu a closed
window).  As Dungeondraft does for an opening, an archway is a gap in the
walls and nothing else.

**Secret doors** come in two copies (:data:`GM` and :data:`PLAYER`):

* the GM's copy carries a secret door as a closed portal (a door the GM can
  hide or open in the VTT), its edge not a wall;
* the players' copy makes it plain wall, with no portal, and leaves out of the
  walls and out of the picture the secret passage behind it and every room
  that only a secret door leads to (:func:`walls.open_part`): nothing in the
  file gives the secret away.

In both, the picture draws a secret door as wall.

The picture comes in as PNG bytes from the caller (``desktop.render.export``
draws it) so this module stays free of Qt.
"""

from __future__ import annotations

import base64
import json
import math
import re
import struct
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from dungeon_gen.export.walls import Frame, LevelGeometry, floor_tiles, level_geometry, open_part, polylines
from dungeon_gen.model import LevelData

FORMAT = 0.3
Audience = Literal["gm", "player"]
GM: Audience = "gm"
PLAYER: Audience = "player"
AMBIENT_DARK = "ff000000"  # a dungeon is dark: only its lights and the party's show anything
LIGHT_COLOUR = "ffffcf8a"  # torchlight
_FIRE_WORDS = ("brazier", "torch", "fire", "hearth", "lamp", "lantern", "candle", "forge", "pyre")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk; ValueError if it is not a PNG."""
    if len(data) < 24 or not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise ValueError("not a PNG image")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def vtt_frame(level: LevelData) -> Frame:
    """The part of the grid a VTT file covers: from grid corner (0, 0) to the far corner of the
    level's grid, or further where a corridor or stairs lie past it.  Its origin is always
    (0, 0), so VTT coordinates are the JSON's tile coordinates on every level."""
    tiles = floor_tiles(level) | {(s.tile[0], s.tile[1]) for s in level.stairs}
    w = max([level.grid.width, *(x + 1 for x, _ in tiles)])
    h = max([level.grid.height, *(y + 1 for _, y in tiles)])
    return Frame(0, 0, w, h)


def _pt(x: float, y: float, frame: Frame) -> dict[str, float]:
    return {"x": float(x - frame.x), "y": float(y - frame.y)}


def build_uvtt(
    level: LevelData,
    image_png: bytes,
    *,
    pixels_per_grid: int,
    audience: Audience = GM,
    ambient_light: str = AMBIENT_DARK,
) -> dict[str, Any]:
    """The ``.dd2vtt`` object of one level, for the GM or for the players (see the module's notes).

    ``image_png`` must show exactly :func:`vtt_frame` at ``pixels_per_grid``
    (drawn for the same audience); a picture of another size is refused.
    """
    if pixels_per_grid < 1:
        raise ValueError("pixels_per_grid must be at least 1")
    if audience not in (GM, PLAYER):
        raise ValueError(f"audience is {GM!r} or {PLAYER!r}, not {audience!r}")
    frame = vtt_frame(level)
    width, height = png_size(image_png)
    if (width, height) != (frame.w * pixels_per_grid, frame.h * pixels_per_grid):
        raise ValueError(
            f"the image is {width}×{height} px but the map is {frame.w}×{frame.h} tiles at {pixels_per_grid} px"
        )
    geometry = vtt_geometry(level, audience)
    walls = [[_pt(x, y, frame) for x, y in line] for line in polylines(geometry.walls)]
    portals: list[dict[str, Any]] = []
    for d in geometry.doors:
        if not d.closed:
            continue  # an archway: a gap in the wall, no portal
        s = d.segment
        portals.append(
            {
                "position": _pt(*s.midpoint, frame),
                "bounds": [_pt(s.x1, s.y1, frame), _pt(s.x2, s.y2, frame)],
                "rotation": 0.0 if s.horizontal else math.pi / 2,
                "closed": True,
                "freestanding": False,
            }
        )
    return {
        "format": FORMAT,
        "resolution": {
            "map_origin": {"x": 0.0, "y": 0.0},
            "map_size": {"x": float(frame.w), "y": float(frame.h)},
            "pixels_per_grid": int(pixels_per_grid),
        },
        "line_of_sight": walls,
        "objects_line_of_sight": [],
        "portals": portals,
        "environment": {"baked_lighting": True, "ambient_light": ambient_light},
        "lights": lights(level, frame, rooms=None if audience == GM else open_part(level).rooms),
        "image": base64.b64encode(image_png).decode("ascii"),
    }


def vtt_geometry(level: LevelData, audience: Audience) -> LevelGeometry:
    """The walls and doors a VTT file of ``audience`` carries: the GM's has every passage and its
    secret doors open for a portal; the players' has only what they can reach without finding a
    secret door (:func:`open_part`), the secret doors walled."""
    if audience == GM:
        return level_geometry(level, reveal_secrets=True, wall_secret_doors=False)
    return level_geometry(level, seen=open_part(level), reveal_secrets=False, wall_secret_doors=True)


def lights(level: LevelData, frame: Frame, rooms: Iterable[int] | None = None) -> list[dict[str, Any]]:
    """A light in the middle of every lit room, and a small one for a fire in an unlit room; only
    in ``rooms`` when given (the players' file lights no room it leaves out)."""
    out: list[dict[str, Any]] = []
    shown = None if rooms is None else set(rooms)
    for room in level.rooms:
        if shown is not None and room.id not in shown:
            continue
        fire = any(any(w in f.name.lower() for w in _FIRE_WORDS) for f in room.features)
        if not (room.lit or fire):
            continue
        tiles = room.floor()
        if not tiles:
            continue
        cx = sum(x + 0.5 for x, _ in tiles) / len(tiles)
        cy = sum(y + 0.5 for _, y in tiles) / len(tiles)
        xs = [x for x, _ in tiles]
        ys = [y for _, y in tiles]
        reach = max(max(xs) + 1 - min(xs), max(ys) + 1 - min(ys)) * 0.75 + 1 if room.lit else 3.0
        out.append(
            {
                "position": _pt(cx, cy, frame),
                "range": float(round(reach, 2)),
                "intensity": 1.0,
                "color": LIGHT_COLOUR,
                "shadows": True,
            }
        )
    return out


_BASE64 = re.compile(r"[A-Za-z0-9+/=]*")


def dumps(data: dict[str, Any]) -> str:
    """The file's JSON, one line and a new line.

    Not indented: Python's JSON encoder writes indented text in Python, compact text in C, and
    the walls' thousands of points took a tenth of a second a file indented (issue #15); the
    file is megabytes of base64 picture, read by programs.  The picture (the last key) is put in
    as it is: base64 never needs escaping, and the encoder's scan of it for characters to escape
    was as long again."""
    image = data.get("image")
    if not (isinstance(image, str) and list(data)[-1] == "image" and len(data) > 1 and _BASE64.fullmatch(image)):
        return json.dumps(data) + "\n"
    head = json.dumps({k: v for k, v in data.items() if k != "image"})
    return f'{head[:-1]}, "image": "{image}"}}\n'


def write_uvtt(level: LevelData, image_png: bytes, path: str | Path, *, pixels_per_grid: int, **kw: Any) -> None:
    Path(path).write_text(dumps(build_uvtt(level, image_png, pixels_per_grid=pixels_per_grid, **kw)), encoding="utf-8")
