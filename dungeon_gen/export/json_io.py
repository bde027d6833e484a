"""Dungeon JSON: write, read back, and refuse a malformed file with the field named."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from dungeon_gen.model import SCHEMA_VERSION, Dungeon, LevelData, Room, json_schema


class DungeonFileError(ValueError):
    """A dungeon file that cannot be read; the message names the field."""


def dumps(d: Dungeon) -> str:
    return d.to_json()


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def loads(text: str, source: str = "dungeon file") -> Dungeon:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DungeonFileError(f"{source}: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(raw, dict):
        raise DungeonFileError(f"{source}: a dungeon file holds a JSON object, not {type(raw).__name__}")
    version = raw.get("schema_version")
    if version != SCHEMA_VERSION:
        raise DungeonFileError(
            f"{source}: field schema_version is {version!r}; this Blacksalt reads version {SCHEMA_VERSION}"
        )
    try:
        dungeon = Dungeon.model_validate(raw)
    except ValidationError as exc:
        problems = [f"  field {_where(tuple(e['loc']))}: {e['msg']}" for e in exc.errors()[:12]]
        more = exc.error_count() - len(problems)
        tail = [f"  … and {more} more"] if more > 0 else []
        raise DungeonFileError("\n".join([f"{source}: not a valid Blacksalt dungeon", *problems, *tail])) from None
    overlaps = [line for level in dungeon.levels for line in overlapping_rooms(level)]
    if overlaps:
        more = len(overlaps) - 12
        tail = [f"  … and {more} more"] if more > 0 else []
        raise DungeonFileError(
            "\n".join([f"{source}: not a valid Blacksalt dungeon: rooms overlap", *overlaps[:12], *tail])
        )
    return dungeon


def overlapping_rooms(level: LevelData) -> list[str]:
    """One line for every pair of rooms of ``level`` that share floor tiles (none in a good file)."""
    owner: dict[tuple[int, int], Room] = {}
    shared: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for room in level.rooms:
        for tile in sorted(room.floor()):
            other = owner.setdefault(tile, room)
            if other is not room:
                shared.setdefault((other.id, room.id), []).append(tile)
    names = {r.id: r.name for r in level.rooms}
    return [
        f"  level {level.depth}: room {a} ({names[a]}) and room {b} ({names[b]}) share {len(tiles)} "
        f"tile{'s' if len(tiles) != 1 else ''}, the first at {tiles[0]}"
        for (a, b), tiles in sorted(shared.items())
    ]


def load(path: Path) -> Dungeon:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DungeonFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DungeonFileError(f"{path}: cannot be read ({exc})") from None
    return loads(text, str(path))


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"


def schema_path() -> Path:
    from rules.content.base import resources_dir

    return resources_dir() / "dungeon" / "dungeon.schema.json"
