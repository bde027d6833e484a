"""The generated dungeon: invariants over many seeds, determinism, and the JSON contract."""

from __future__ import annotations

import json
from collections import deque
from functools import cache

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dungeon_gen.export.json_io import DungeonFileError, loads, schema_path, schema_text
from dungeon_gen.export.markdown import to_markdown
from dungeon_gen.generate import GenerationError, generate
from dungeon_gen.model import Dungeon, LevelData
from dungeon_gen.themes import load_themes
from rules.content.registry import load_content

THEMES = sorted(load_themes())
PRICE_RANGE = {"free": (0, 0), "common": (1, 6), "uncommon": (4, 14), "valuable": (6, 36), "rare": (15, 90),
               "exotic": (40, 240)}  # fmt: skip


@cache
def dungeon(seed: int, rooms: int = 14, depth: int = 2, level: int = 2, theme: str | None = None) -> Dungeon:
    return generate(seed, rooms=rooms, depth=depth, level=level, theme=theme)


def reachable(level: LevelData, starts: list[int]) -> set[int]:
    adj: dict[int, set[int]] = {r.id: set() for r in level.rooms}
    for c in level.connections:
        adj[c.from_].add(c.to)
        adj[c.to].add(c.from_)
    seen = set(starts)
    todo = deque(starts)
    while todo:
        for n in adj[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def check_invariants(d: Dungeon) -> None:
    monsters = {m.name for m in load_content().bestiary.monsters}
    for level in d.levels:
        floors = {r.id: r.floor() for r in level.rooms}
        # no overlaps, and rock between rooms
        ids = sorted(floors)
        for i, a in enumerate(ids):
            halo = {(x + dx, y + dy) for x, y in floors[a] for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            for b in ids[i + 1 :]:
                assert not (halo & floors[b]), f"rooms {a} and {b} touch or overlap"
        # every room reachable from the way in
        starts = d.entrances if level.depth == 1 else [s.room for s in level.stairs if s.to_depth < level.depth]
        assert starts
        assert reachable(level, starts) == set(ids)
        # doors stand on walls: the door tile is on the corridor and touches the room it opens into
        all_floor = set().union(*floors.values())
        for c in level.connections:
            assert c.door.tile in c.path
            x, y = c.door.tile
            assert {(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)} & floors[c.to]
            assert not set(c.path) & all_floor, "corridors never run through rooms"
        for r in level.rooms:
            for g in r.monsters:
                assert g.monster in monsters, g.monster
                assert len(g.positions) == g.count
                assert all(p in floors[r.id] for p in g.positions)
            for loot in r.loot:
                lo, hi = PRICE_RANGE[loot.rarity]
                if loot.name.startswith("Key to"):
                    continue
                assert lo * 0.3 <= loot.value <= hi * 3, (loot.name, loot.rarity, loot.value)
            for t in r.traps:
                assert t.tile in floors[r.id]
        for g in level.wandering_monsters:
            assert all(m.monster in monsters for m in g.monsters)
        # the doom track escalates to a very hard fight with the master
        track = level.doom_track
        assert len(track) == 7
        assert track[-1].effect.kind == "final_fight"
        assert track[-1].effect.monsters and track[-1].effect.monsters[0].monster in monsters
        assert sum(s.ticks for s in track) >= 10
        assert all(m.monster in monsters for s in track for m in s.effect.monsters)
    last = d.levels[-1]
    assert any(r.boss for r in last.rooms), "the master waits on the deepest level"


@pytest.mark.parametrize("theme", THEMES)
def test_each_theme_makes_a_sound_dungeon(theme: str) -> None:
    for seed in range(6):
        check_invariants(dungeon(seed, rooms=10 + seed * 4, depth=1 + seed % 3, level=1 + seed, theme=theme))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), rooms=st.integers(3, 40), depth=st.integers(1, 3), level=st.integers(1, 10))
def test_invariants_hold_for_any_seed(seed: int, rooms: int, depth: int, level: int) -> None:
    check_invariants(generate(seed, rooms=rooms, depth=depth, level=level))


def test_same_seed_same_bytes() -> None:
    a = generate(424242, rooms=18, depth=2, level=3).to_json()
    b = generate(424242, rooms=18, depth=2, level=3).to_json()
    assert a == b
    assert generate(424243, rooms=18, depth=2, level=3).to_json() != a


def test_level_seeds_are_drawn_up_front() -> None:
    two = generate(99, rooms=10, depth=2)
    three = generate(99, rooms=10, depth=3)
    assert two.seed == three.seed and two.deeper_levels[0].seed == three.deeper_levels[0].seed
    assert two.levels[0].seed == three.levels[0].seed


def test_json_round_trip_and_schema() -> None:
    d = dungeon(5)
    text = d.to_json()
    data = json.loads(text)
    for key in ("schema_version", "seed", "title", "theme", "level", "hook", "rumours", "grid", "rooms",
                "connections", "entrances", "doom_track", "wandering_monsters"):  # fmt: skip
        assert key in data, key
    assert set(data["grid"]) >= {"width", "height", "tile_m"}
    room = data["rooms"][0]
    for key in ("id", "name", "x", "y", "w", "h", "description", "monsters", "traps", "loot", "secrets", "camp"):
        assert key in room
    assert {"from", "to", "door"} <= set(data["connections"][0])
    assert "kind" in data["connections"][0]["door"]
    assert {"ticks", "effect"} <= set(data["doom_track"][0])
    assert {"name", "monsters"} <= set(data["wandering_monsters"][0])
    schema = json.loads(schema_path().read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema)
    assert loads(text).to_json() == text


def test_shipped_schema_is_current() -> None:
    assert schema_path().read_text() == schema_text(), "regenerate resources/dungeon/dungeon.schema.json"


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d["rooms"][0].pop("name"), "rooms[0].name"),
        (lambda d: d["rooms"][1]["monsters"].append({"monster": "Rat", "count": -2}), "rooms[1].monsters"),
        (lambda d: d.update(level=99), "level"),
        (lambda d: d["connections"][0]["door"].update(kind="portcullis"), "connections[0].door.kind"),
        (lambda d: d.update(surprise=True), "surprise"),
    ],
)
def test_malformed_file_names_the_field(mutate, field: str) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(dungeon(5).to_json())
    mutate(data)
    with pytest.raises(DungeonFileError) as exc:
        loads(json.dumps(data), "x.json")
    assert field in str(exc.value), str(exc.value)


def test_not_json_and_wrong_version() -> None:
    with pytest.raises(DungeonFileError, match="not JSON"):
        loads("{nope", "x.json")
    with pytest.raises(DungeonFileError, match="schema_version"):
        loads('{"schema_version": 7}', "x.json")


@pytest.mark.parametrize(
    "kwargs",
    [{"rooms": 2}, {"rooms": 61}, {"level": 0}, {"level": 11}, {"depth": 0}, {"depth": 6}, {"theme": "moon_base"}],
)
def test_nonsense_parameters(kwargs: dict[str, object]) -> None:
    with pytest.raises(GenerationError):
        generate(1, **kwargs)  # type: ignore[arg-type]


def test_markdown_key_has_every_part() -> None:
    d = dungeon(11, depth=2)
    md = to_markdown(d)
    for part in ("### Hook", "### Rumours", "### Dungeon History", "### Entrances", "### Doom Tracker",
                 "### Wandering Monsters", "# Level 2"):  # fmt: skip
        assert part in md
    for level in d.levels:
        prefix = "" if level.depth == 1 else f"{level.depth}."
        for r in level.rooms:
            assert f"## {prefix}{r.id} {r.name}" in md
    assert "Pedro Medeiros" in md and "{" not in md
