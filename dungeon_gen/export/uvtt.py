"""Universal VTT (``.dd2vtt``) export: a level's walls, doors and lights with its picture.

The format (0.3, as written by Dungeondraft and read by the Foundry, Owlbear,
Roll20-via-converter and Fantasy Grounds importers) is JSON:

* ``resolution``: ``map_origin`` {x, y}, ``map_size`` {x, y} in grid units,
  ``pixels_per_grid``;
* ``line_of_sight``: the walls, a list of polylines of {x, y} points in grid units;
* ``objects_line_of_sight``: walls of objects (none here);
* ``portals``: doors, each with ``position``, ``bounds`` (its two ends),
  ``rotation`` (radians), ``closed`` (true for doors, false for archways) and
  ``freestanding`` (false: every door stands in a wall);
* ``environment``: ``baked_lighting`` and ``ambient_light`` (AARRGGBB hex);
* ``lights``: ``position``, ``range`` (grid units), ``intensity``, ``color``
  (AARRGGBB), ``shadows``;
* ``image``: the picture, base64 PNG.

Coordinates are relative to the picture's top-left corner, which is the
level's grid corner ``frame.x, frame.y`` (the floor's bounding box grown by
:data:`DEFAULT_PAD` tiles); ``map_origin`` is written as 0, 0 because the
importers differ on whether they subtract it.

Secret doors: by default a secret door is a *closed portal* and its edge is
not a wall, so the GM can open it in the VTT once the party finds it (the
picture draws it as plain wall).  ``secret_doors_as_portals=False`` makes
them plain walls instead (a file to hand to players).

The picture comes in as PNG bytes from the caller (``desktop.render.export``
draws it) so this module stays free of Qt.
"""

from __future__ import annotations

import base64
import json
import math
import struct
from pathlib import Path
from typing import Any

from dungeon_gen.export.walls import Frame, level_geometry, map_frame, polylines
from dungeon_gen.model import LevelData

FORMAT = 0.3
DEFAULT_PAD = 1
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


def _pt(x: float, y: float, frame: Frame) -> dict[str, float]:
    return {"x": float(x - frame.x), "y": float(y - frame.y)}


def build_uvtt(
    level: LevelData,
    image_png: bytes,
    *,
    pixels_per_grid: int,
    frame: Frame | None = None,
    secret_doors_as_portals: bool = True,
    ambient_light: str = AMBIENT_DARK,
) -> dict[str, Any]:
    """The ``.dd2vtt`` object of one level.

    ``image_png`` must show exactly ``frame`` (default: :func:`map_frame` with
    :data:`DEFAULT_PAD`) at ``pixels_per_grid``; a picture of another size is refused.
    """
    if pixels_per_grid < 1:
        raise ValueError("pixels_per_grid must be at least 1")
    frame = frame or map_frame(level, pad=DEFAULT_PAD)
    width, height = png_size(image_png)
    if (width, height) != (frame.w * pixels_per_grid, frame.h * pixels_per_grid):
        raise ValueError(
            f"the image is {width}×{height} px but the map is {frame.w}×{frame.h} tiles at {pixels_per_grid} px"
        )
    geometry = level_geometry(level, reveal_secrets=True, wall_secret_doors=not secret_doors_as_portals)
    walls = [[_pt(x, y, frame) for x, y in line] for line in polylines(geometry.walls)]
    portals: list[dict[str, Any]] = []
    for d in geometry.doors:
        if d.secret and not secret_doors_as_portals:
            continue
        s = d.segment
        portals.append(
            {
                "position": _pt(*s.midpoint, frame),
                "bounds": [_pt(s.x1, s.y1, frame), _pt(s.x2, s.y2, frame)],
                "rotation": 0.0 if s.horizontal else math.pi / 2,
                "closed": d.closed,
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
        "lights": lights(level, frame),
        "image": base64.b64encode(image_png).decode("ascii"),
    }


def lights(level: LevelData, frame: Frame) -> list[dict[str, Any]]:
    """A light in the middle of every lit room, and a small one for a fire in an unlit room."""
    out: list[dict[str, Any]] = []
    for room in level.rooms:
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


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1) + "\n"


def write_uvtt(level: LevelData, image_png: bytes, path: str | Path, *, pixels_per_grid: int, **kw: Any) -> None:
    Path(path).write_text(dumps(build_uvtt(level, image_png, pixels_per_grid=pixels_per_grid, **kw)), encoding="utf-8")
