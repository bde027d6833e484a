"""Wall geometry and the Universal VTT export (Qt-free)."""

from __future__ import annotations

import base64
import itertools
import json
import math
import struct
import zlib
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dungeon_gen.export import uvtt
from dungeon_gen.export.walls import (
    STEPS,
    Seen,
    Segment,
    boundary_edges,
    door_edge,
    door_edges,
    edge_between,
    floor_tiles,
    geometry_cache,
    interior_edges,
    level_geometry,
    map_frame,
    merge,
    open_part,
    polylines,
    wall_segments,
)
from dungeon_gen.model import Connection, Door, LevelData, Room
from tests.dungeon_gen.fixtures import DOOR_KINDS, big_level, small_dungeon

Tile = tuple[int, int]


def units(segments: list[Segment]) -> list[Segment]:
    return [u for s in segments for u in s.units()]


def brute_force_walls(floor: set[Tile]) -> set[Segment]:
    """Every unit edge of the grid around the floor whose two sides differ."""
    xs = [x for x, _ in floor]
    ys = [y for _, y in floor]
    out: set[Segment] = set()
    for x in range(min(xs) - 1, max(xs) + 2):
        for y in range(min(ys) - 1, max(ys) + 2):
            if ((x, y) in floor) != ((x + 1, y) in floor):
                out.add(Segment(x + 1, y, x + 1, y + 1))
            if ((x, y) in floor) != ((x, y + 1) in floor):
                out.add(Segment(x, y + 1, x + 1, y + 1))
    return out


def sides(unit: Segment) -> tuple[Tile, Tile]:
    """The two tiles either side of a unit edge."""
    if unit.horizontal:
        return (unit.x1, unit.y1 - 1), (unit.x1, unit.y1)
    return (unit.x1 - 1, unit.y1), (unit.x1, unit.y1)


def assert_maximal(segments: list[Segment]) -> None:
    """No unit edge twice, and no two collinear segments that touch (they would have merged)."""
    counts = Counter(units(segments))
    assert all(n == 1 for n in counts.values()), [u for u, n in counts.items() if n > 1]
    ends = {(s.horizontal, s.end) for s in segments}
    for s in segments:
        assert (s.horizontal, s.start) not in ends, f"{s} continues another segment"


# --- segments and merging -----------------------------------------------------------------------


def test_segment_is_normalised_and_axis_aligned() -> None:
    assert Segment.between((3, 2), (1, 2)) == Segment(1, 2, 3, 2)
    assert Segment(1, 2, 3, 2).length == 2
    assert list(Segment(0, 0, 0, 2).units()) == [Segment(0, 0, 0, 1), Segment(0, 1, 0, 2)]
    with pytest.raises(ValueError):
        Segment(0, 0, 1, 1)
    with pytest.raises(ValueError):
        Segment(2, 0, 1, 0)
    with pytest.raises(ValueError):
        Segment(1, 1, 1, 1)


def test_edge_between_adjacent_tiles() -> None:
    assert edge_between((2, 3), (3, 3)) == Segment(3, 3, 3, 4)
    assert edge_between((2, 3), (2, 2)) == Segment(2, 3, 3, 3)
    with pytest.raises(ValueError):
        edge_between((0, 0), (1, 1))


def test_merge_joins_touching_and_overlapping_segments() -> None:
    merged = merge([Segment(0, 0, 2, 0), Segment(2, 0, 3, 0), Segment(1, 0, 4, 0), Segment(6, 0, 7, 0)])
    assert merged == [Segment(0, 0, 4, 0), Segment(6, 0, 7, 0)]


def test_a_single_room_has_four_walls() -> None:
    floor = {(x, y) for x in range(2, 6) for y in range(1, 4)}
    assert wall_segments(floor) == sorted(
        [Segment(2, 1, 6, 1), Segment(2, 4, 6, 4), Segment(2, 1, 2, 4), Segment(6, 1, 6, 4)]
    )
    # The grid inside: 3 vertical lines of 3 and 2 horizontal lines of 4.
    assert sum(s.length for s in interior_edges(floor)) == 3 * 3 + 2 * 4


def blob(start: Tile, moves: list[int]) -> set[Tile]:
    """A connected blob: a random walk that keeps every tile it visits."""
    x, y = start
    out = {(x, y)}
    for m in moves:
        dx, dy = STEPS[m]
        x, y = min(max(x + dx, 0), 15), min(max(y + dy, 0), 15)
        out.add((x, y))
    return out


blobs = st.builds(
    blob,
    st.tuples(st.integers(0, 15), st.integers(0, 15)),
    st.lists(st.integers(0, 3), min_size=0, max_size=60),
)
scatters = st.sets(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=1, max_size=40)


@given(st.one_of(blobs, scatters))
def test_walls_equal_the_brute_force_edges_merged(floor: set[Tile]) -> None:
    walls = wall_segments(floor)
    assert set(units(walls)) == brute_force_walls(floor)
    assert boundary_edges(floor) == brute_force_walls(floor)
    assert_maximal(walls)
    assert merge(brute_force_walls(floor)) == walls


@given(st.one_of(blobs, scatters))
def test_polylines_use_every_wall_once(floor: set[Tile]) -> None:
    walls = wall_segments(floor)
    pieces: list[Segment] = []
    for line in polylines(walls):
        assert len(line) >= 2
        pieces += [u for a, b in itertools.pairwise(line) for u in Segment.between(a, b).units()]
    assert sorted(pieces) == sorted(units(walls))


# --- the fixture dungeon ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dungeon() -> LevelData:
    return small_dungeon()


def test_fixture_has_every_door_kind(dungeon: LevelData) -> None:
    assert sorted(c.door.kind for c in dungeon.connections) == sorted(DOOR_KINDS)
    assert len(door_edges(dungeon)) == len(dungeon.connections)


def test_fixture_walls_lie_between_floor_and_rock(dungeon: LevelData) -> None:
    floor = floor_tiles(dungeon)
    walls = wall_segments(floor)
    for u in units(walls):
        a, b = sides(u)
        assert (a in floor) != (b in floor), u
    assert_maximal(walls)
    assert set(units(walls)) == brute_force_walls(floor)


def test_door_segments_lie_on_room_boundaries(dungeon: LevelData) -> None:
    floor = floor_tiles(dungeon)
    walls = set(units(wall_segments(floor)))
    for conn in dungeon.connections:
        d = door_edge(dungeon, conn)
        assert d is not None and d.segment.length == 1
        room = dungeon.room(conn.to).floor()
        a, b = sides(d.segment)
        assert (a in room) != (b in room), f"door {conn.id} is not on room {conn.to}'s boundary"
        assert d.tile in (a, b) and d.tile not in room
        assert (d.tile[0] + d.inward[0], d.tile[1] + d.inward[1]) in room
        assert a in floor and b in floor
        assert d.segment not in walls  # an open doorway, not a wall
        assert d.vertical == conn.door.vertical


def test_gm_view_draws_the_wall_through_secret_doors(dungeon: LevelData) -> None:
    geo = level_geometry(dungeon)
    secret = next(d for d in geo.doors if d.secret)
    assert secret.segment in set(units(list(geo.walls)))
    open_secret = level_geometry(dungeon, wall_secret_doors=False)
    assert secret.segment not in set(units(list(open_secret.walls)))
    assert open_secret.floor == geo.floor == frozenset(floor_tiles(dungeon))


def test_player_view_hides_unfound_secret_passages(dungeon: LevelData) -> None:
    secret = next(c for c in dungeon.connections if c.door.kind == "secret")
    geo = level_geometry(dungeon, reveal_secrets=False)
    assert not any(d.secret for d in geo.doors)
    assert [d.connection for d in geo.hidden_doors] == [secret.id]
    assert not set(map(tuple, secret.path)) & geo.floor
    edge = door_edge(dungeon, secret)
    assert edge is not None and edge.segment in set(units(list(geo.walls)))


def test_seen_filter_shows_only_what_the_party_saw(dungeon: LevelData) -> None:
    seen = Seen.of(rooms=[1, 2], connections=[1])
    geo = level_geometry(dungeon, seen=seen, reveal_secrets=False)
    room1, room2, room3 = (dungeon.room(i).floor() for i in (1, 2, 3))
    assert room1 | room2 <= geo.floor
    assert not room3 & geo.floor
    conn1 = next(c for c in dungeon.connections if c.id == 1)
    assert {(x, y) for x, y in conn1.path} <= geo.floor
    # The mouth of a corridor leaving a seen room is known, not the rest of it.
    conn2 = next(c for c in dungeon.connections if c.id == 2)
    mouth = (conn2.path[0][0], conn2.path[0][1])
    assert mouth in geo.floor and (conn2.path[-1][0], conn2.path[-1][1]) not in geo.floor
    shown = {d.connection for d in geo.doors}
    assert 1 in shown and 5 not in shown
    assert set(units(list(geo.walls))) == brute_force_walls(set(geo.floor))
    # Nothing seen: nothing drawn.
    empty = level_geometry(dungeon, seen=Seen(), reveal_secrets=False)
    assert not empty.floor and not empty.walls and not empty.doors


def test_a_found_secret_door_shows_on_the_players_map(dungeon: LevelData) -> None:
    secret = next(c for c in dungeon.connections if c.door.kind == "secret")
    seen = Seen.of(rooms=[secret.from_, secret.to], connections=[secret.id])
    geo = level_geometry(dungeon, seen=seen, reveal_secrets=False)
    assert [d.connection for d in geo.doors if d.secret] == [secret.id]


def test_door_tile_inside_room_to_falls_back_to_the_outer_edge() -> None:
    base = small_dungeon()
    rooms = [
        Room(id=1, name="A", kind="hall", x=1, y=1, w=3, h=3, description="."),
        Room(id=2, name="B", kind="hall", x=4, y=1, w=3, h=3, description="."),
    ]
    # Rooms sharing a wall, the door given on room 2's own edge tile.
    conn = Connection(id=1, from_=1, to=2, door=Door(kind="wooden", tile=(4, 2), vertical=True), path=[])
    level = LevelData(
        seed=0,
        grid=base.grid,
        rooms=rooms,
        connections=[conn],
        doom_track=base.doom_track,
        wandering_monsters=base.wandering_monsters,
    )
    d = door_edge(level, conn)
    assert d is not None
    assert d.segment == Segment(4, 2, 4, 3) and d.tile == (3, 2) and d.inward == (1, 0)


def test_map_frame_pads_the_floor(dungeon: LevelData) -> None:
    f = map_frame(dungeon, pad=2)
    floor = floor_tiles(dungeon)
    assert min(x for x, _ in floor) - 2 == f.x and max(x for x, _ in floor) + 3 == f.x + f.w
    wide = map_frame(dungeon, pad=0, min_w=100)
    assert wide.w == 100


def test_big_level_geometry_is_consistent() -> None:
    level = big_level()
    floor = floor_tiles(level)
    assert len(level.rooms) == 30
    assert set(units(wall_segments(floor))) == brute_force_walls(floor)


# --- Universal VTT ------------------------------------------------------------------------------


def solid_png(width: int, height: int) -> bytes:
    """A grey PNG of the given size, built by hand (no Qt in these tests)."""
    raw = b"".join(b"\x00" + b"\x80\x80\x80" * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (
        uvtt.PNG_SIGNATURE
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def is_num(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def check_point(p: object, size: dict[str, Any]) -> None:
    assert isinstance(p, dict) and set(p) == {"x", "y"}, p
    assert is_num(p["x"]) and is_num(p["y"])
    assert 0 <= p["x"] <= size["x"] and 0 <= p["y"] <= size["y"], (p, size)


def validate_uvtt(data: dict[str, Any]) -> None:
    """The fields and types of a Universal VTT file, exactly."""
    assert set(data) == {
        "format",
        "resolution",
        "line_of_sight",
        "objects_line_of_sight",
        "portals",
        "environment",
        "lights",
        "image",
    }
    assert data["format"] == 0.3
    res = data["resolution"]
    assert set(res) == {"map_origin", "map_size", "pixels_per_grid"}
    assert set(res["map_origin"]) == {"x", "y"} and all(is_num(v) for v in res["map_origin"].values())
    size = res["map_size"]
    assert set(size) == {"x", "y"} and all(is_num(v) and v > 0 for v in size.values())
    assert isinstance(res["pixels_per_grid"], int) and res["pixels_per_grid"] > 0
    assert isinstance(data["line_of_sight"], list) and data["line_of_sight"]
    for line in data["line_of_sight"]:
        assert isinstance(line, list) and len(line) >= 2
        for p in line:
            check_point(p, size)
    assert data["objects_line_of_sight"] == []
    for portal in data["portals"]:
        assert set(portal) == {"position", "bounds", "rotation", "closed", "freestanding"}
        check_point(portal["position"], size)
        assert isinstance(portal["bounds"], list) and len(portal["bounds"]) == 2
        for p in portal["bounds"]:
            check_point(p, size)
        assert is_num(portal["rotation"])
        assert isinstance(portal["closed"], bool) and portal["freestanding"] is False
    env = data["environment"]
    assert set(env) == {"baked_lighting", "ambient_light"}
    assert isinstance(env["baked_lighting"], bool)
    assert isinstance(env["ambient_light"], str) and len(env["ambient_light"]) == 8
    int(env["ambient_light"], 16)
    for light in data["lights"]:
        assert set(light) == {"position", "range", "intensity", "color", "shadows"}
        check_point(light["position"], size)
        assert is_num(light["range"]) and light["range"] > 0 and is_num(light["intensity"])
        assert isinstance(light["color"], str) and len(light["color"]) == 8
        int(light["color"], 16)
        assert isinstance(light["shadows"], bool)
    image = base64.b64decode(data["image"], validate=True)
    assert image.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", image[16:24])
    ppg = res["pixels_per_grid"]
    assert (width, height) == (size["x"] * ppg, size["y"] * ppg)


def fixture_uvtt(level: LevelData, ppg: int = 20, **kw: Any) -> dict[str, Any]:
    frame = uvtt.vtt_frame(level)
    return uvtt.build_uvtt(level, solid_png(frame.w * ppg, frame.h * ppg), pixels_per_grid=ppg, **kw)


def test_uvtt_has_exactly_the_fields_of_the_format(dungeon: LevelData) -> None:
    data = fixture_uvtt(dungeon)
    validate_uvtt(data)
    assert json.loads(uvtt.dumps(data)) == data
    # The picture is spliced in unescaped (issue #15): the very text the encoder writes.
    assert uvtt.dumps(data) == json.dumps(data) + "\n"
    odd = {**data, "image": 'not "base64"\n'}
    assert uvtt.dumps(odd) == json.dumps(odd) + "\n"


def test_uvtt_portals_are_the_doors_not_the_archways(dungeon: LevelData) -> None:
    data = fixture_uvtt(dungeon)
    doors = [c for c in dungeon.connections if c.door.kind != "archway"]
    assert len(data["portals"]) == len(doors)  # the GM's copy: every door, the secret one too
    assert all(p["closed"] for p in data["portals"])
    rotations = {p["rotation"] for p in data["portals"]}
    assert rotations == {0.0, math.pi / 2}
    players = fixture_uvtt(dungeon, audience=uvtt.PLAYER)
    assert len(players["portals"]) == len(doors) - 1  # no secret door
    validate_uvtt(players)
    with pytest.raises(ValueError, match="audience"):
        fixture_uvtt(dungeon, audience="everyone")


def wall_units(data: dict[str, Any]) -> set[Segment]:
    """The unit edges of a VTT file's walls, in its own coordinates."""
    pieces: set[Segment] = set()
    for line in data["line_of_sight"]:
        pts = [(int(p["x"]), int(p["y"])) for p in line]
        assert all(float(p["x"]).is_integer() and float(p["y"]).is_integer() for p in line)
        pieces |= {u for a, b in itertools.pairwise(pts) for u in Segment.between(a, b).units()}
    return pieces


def portal_segments(data: dict[str, Any]) -> list[Segment]:
    return [Segment.between(*((int(q["x"]), int(q["y"])) for q in p["bounds"])) for p in data["portals"]]


def test_uvtt_walls_match_the_geometry(dungeon: LevelData) -> None:
    data = fixture_uvtt(dungeon)
    pieces = wall_units(data)
    geo = level_geometry(dungeon, wall_secret_doors=False)
    assert pieces == set(units(list(geo.walls)))  # the JSON's own tile grid: no offset
    # Each portal fills a gap in the walls.
    for seg in portal_segments(data):
        assert seg not in pieces


def test_uvtt_lights_the_lit_rooms(dungeon: LevelData) -> None:
    data = fixture_uvtt(dungeon)
    assert len(data["lights"]) == sum(1 for r in dungeon.rooms if r.lit)


def test_uvtt_refuses_a_picture_of_the_wrong_size(dungeon: LevelData) -> None:
    with pytest.raises(ValueError, match="image"):
        uvtt.build_uvtt(dungeon, solid_png(10, 10), pixels_per_grid=20)
    with pytest.raises(ValueError, match="PNG"):
        uvtt.build_uvtt(dungeon, b"GIF89a" + bytes(40), pixels_per_grid=20)


def test_uvtt_write(tmp_path: Any, dungeon: LevelData) -> None:
    frame = uvtt.vtt_frame(dungeon)
    path = tmp_path / "level.dd2vtt"
    uvtt.write_uvtt(dungeon, solid_png(frame.w * 10, frame.h * 10), path, pixels_per_grid=10)
    validate_uvtt(json.loads(path.read_text(encoding="utf-8")))


# --- Universal VTT over many generated dungeons ----------------------------------------------------


def generated_levels() -> list[tuple[str, LevelData]]:
    """Every level of generated dungeons over the themes, sizes and depths."""
    from dungeon_gen.generate import generate
    from dungeon_gen.themes import load_themes

    out: list[tuple[str, LevelData]] = []
    themes = sorted(load_themes())
    for seed in range(12):
        d = generate(
            seed, level=1 + seed % 10, rooms=8 + 3 * seed, theme=themes[seed % len(themes)], depth=1 + seed % 3
        )
        out += [(f"seed {seed} level {lv.depth}", lv) for lv in d.levels]
    return out


@pytest.fixture(scope="module")
def generated() -> list[tuple[str, LevelData]]:
    return generated_levels()


def sides_in(unit: Segment, tiles: set[Tile]) -> bool:
    a, b = sides(unit)
    return a in tiles and b in tiles


def test_vtt_has_no_portal_and_no_wall_at_an_opening(generated: list[tuple[str, LevelData]]) -> None:
    archways = 0
    for name, level in generated:
        for audience in (uvtt.GM, uvtt.PLAYER):
            data = fixture_uvtt(level, ppg=1, audience=audience)
            walls = wall_units(data)
            portals = set(portal_segments(data))
            for d in door_edges(level):
                if d.kind != "archway":
                    continue
                archways += 1
                assert d.segment not in portals, f"{name}: archway {d.connection} exported as a portal"
                assert d.segment not in walls, f"{name}: a wall crosses archway {d.connection}"
            # Every portal is a door, closed, in a gap of the walls with wall or rock on both sides.
            for seg in portals:
                assert seg not in walls, f"{name}: a wall across door {seg}"
    assert archways > 50  # the seeds do make openings


def flood(start: Tile, walls: set[Segment], size: tuple[int, int]) -> set[Tile]:
    """Every tile a token can walk to from ``start`` without crossing a wall (doors are open)."""
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= n[0] < size[0] and 0 <= n[1] < size[1] and n not in seen and edge_between((x, y), n) not in walls:
                seen.add(n)
                todo.append(n)
    return seen


def test_secret_doors_are_wall_in_the_players_file(generated: list[tuple[str, LevelData]]) -> None:
    secrets = hidden_rooms = 0
    for name, level in generated:
        gm = fixture_uvtt(level, ppg=1)
        player = fixture_uvtt(level, ppg=1, audience=uvtt.PLAYER)
        gm_portals, player_portals = set(portal_segments(gm)), set(portal_segments(player))
        player_walls, gm_walls = wall_units(player), wall_units(gm)
        size = (int(player["resolution"]["map_size"]["x"]), int(player["resolution"]["map_size"]["y"]))
        # Walk the players' file from every way in, through doors but never through a wall.
        starts = [
            r for r in level.rooms if r.id in set(getattr(level, "entrances", [])) | {s.room for s in level.stairs}
        ]
        walked: set[Tile] = set()
        for room in starts:
            walked |= flood(min(room.floor()), player_walls, size)
        assert len(walked) < size[0] * size[1], f"{name}: the players' walls leak to the map's edge"
        # Over the GM's file, the same walk without crossing a secret door reaches the same rooms.
        gm_walk: set[Tile] = set()
        secret_edges = {d.segment for d in door_edges(level) if d.secret}
        for room in starts:
            gm_walk |= flood(min(room.floor()), gm_walls | secret_edges, size)
        for room in level.rooms:
            open_room = bool(room.floor() & gm_walk)
            assert open_room == (room.floor() <= walked), f"{name}: room {room.id} in the players' file"
            hidden_rooms += not open_room
            if not open_room:  # not even a box of walls where it lies
                touching = [u for u in player_walls if set(sides(u)) & room.floor()]
                assert not touching, f"{name}: the players' file outlines secret room {room.id}"
        for d in door_edges(level):
            if not d.secret:
                continue
            secrets += 1
            assert d.segment in gm_portals and d.segment not in gm_walls, f"{name}: GM's secret door {d.connection}"
            assert d.segment not in player_portals, f"{name}: players' file shows secret door {d.connection}"
            a, b = sides(d.segment)
            assert not ({a, b} <= walked), f"{name}: players can walk through secret door {d.connection}"
        assert not player_portals - gm_portals
    assert secrets >= 5 and hidden_rooms >= 1


def test_vtt_coordinates_are_the_json_tiles_on_every_level(generated: list[tuple[str, LevelData]]) -> None:
    for name, level in generated:
        data = fixture_uvtt(level, ppg=1)
        assert data["resolution"]["map_origin"] == {"x": 0.0, "y": 0.0}
        size = data["resolution"]["map_size"]
        assert size["x"] >= level.grid.width and size["y"] >= level.grid.height, name
        # The walls are exactly the floor's edges, the floor taken straight from the JSON's tiles.
        floor = floor_tiles(level)
        assert wall_units(data) == set(units(wall_segments(floor))), name
        for d in door_edges(level):
            if d.closed:
                assert d.segment in set(portal_segments(data)), name
        # Each light sits at the centre of a room's floor, in the same tiles.
        centres = set()
        for room in level.rooms:
            tiles = room.floor()
            centres.add((sum(x + 0.5 for x, _ in tiles) / len(tiles), sum(y + 0.5 for _, y in tiles) / len(tiles)))
        for light in data["lights"]:
            assert (light["position"]["x"], light["position"]["y"]) in centres, name
        assert len(data["lights"]) >= sum(1 for r in level.rooms if r.lit)


def test_players_file_lights_no_room_it_leaves_out(generated: list[tuple[str, LevelData]]) -> None:
    from dungeon_gen.export.walls import open_part

    left_out = 0
    for name, level in generated:
        hidden = [r for r in level.rooms if r.id not in open_part(level).rooms and r.lit]
        if not hidden:
            continue
        player = fixture_uvtt(level, ppg=1, audience=uvtt.PLAYER)
        gm = fixture_uvtt(level, ppg=1)
        spots = {(light["position"]["x"], light["position"]["y"]) for light in player["lights"]}
        for room in hidden:
            left_out += 1
            assert not any((x - 0.5, y - 0.5) in room.floor() or (int(x), int(y)) in room.floor() for x, y in spots), (
                name
            )
        assert len(gm["lights"]) - len(player["lights"]) >= len(hidden), name
    assert left_out >= 1


def test_geometry_cache_computes_each_view_once_and_only_inside() -> None:
    """Within geometry_cache a view of a level is the same object every time it is asked for (the
    exports ask for each several times), equal to a fresh computation; outside it, a new one."""
    level = big_level()
    seen = open_part(level)
    outside = level_geometry(level, seen=seen, reveal_secrets=False)
    with geometry_cache():
        first = level_geometry(level, seen=open_part(level), reveal_secrets=False)
        assert level_geometry(level, seen=Seen.of(seen.rooms, seen.connections), reveal_secrets=False) is first
        assert open_part(level) is open_part(level)
        gm = level_geometry(level)
        assert gm is not first and gm == level_geometry(level) and gm.walls != first.walls
        other = big_level()  # an equal level, another object: its own entry
        assert level_geometry(other, seen=seen, reveal_secrets=False) is not first
    assert first == outside
    assert level_geometry(level, seen=seen, reveal_secrets=False) is not first


def test_geometry_cache_is_the_calling_threads_only() -> None:
    import threading

    level = big_level()
    with geometry_cache():
        first = level_geometry(level)
        other: list[object] = []
        worker = threading.Thread(target=lambda: other.append(level_geometry(level)))
        worker.start()
        worker.join()
        assert other[0] is not first and other[0] == first
        assert level_geometry(level) is first
