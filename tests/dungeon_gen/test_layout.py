"""The layout stage: every invariant the later stages rely on, over many seeds; determinism; golden digests."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dungeon_gen.layout import (
    SHAPES,
    STYLES,
    LevelLayout,
    ascii,
    build_level,
    digest,
    dump,
    problems,
    size_of,
)

ROOT = Path(__file__).resolve().parents[2]


def level(seed: int, rooms: int, style: str = "halls", **kw: object) -> LevelLayout:
    return build_level(random.Random(seed), rooms, style=style, **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- invariants


@settings(max_examples=300)
@given(
    seed=st.integers(0, 2**32 - 1),
    rooms=st.integers(3, 60),
    style=st.sampled_from(STYLES),
    entrances=st.integers(1, 4),
    stairs_down=st.booleans(),
    stairs_up=st.booleans(),
    loops=st.sampled_from([0.1, 0.2, 0.35, 0.5]),
)
def test_every_invariant_holds(
    seed: int, rooms: int, style: str, entrances: int, stairs_down: bool, stairs_up: bool, loops: float
) -> None:
    entrances = min(entrances, rooms)
    lay = level(seed, rooms, style, entrances=entrances, stairs_down=stairs_down, stairs_up=stairs_up, loops=loops)
    assert problems(lay, rooms=rooms) == []
    assert len(lay.entrances) == entrances
    assert len({e.room for e in lay.entrances}) == entrances
    assert (lay.stairs_down is not None) == stairs_down
    assert (lay.stairs_up is not None) == stairs_up


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), rooms=st.integers(3, 60), style=st.sampled_from(STYLES))
def test_a_level_without_entrances_starts_at_its_up_stairs(seed: int, rooms: int, style: str) -> None:
    lay = level(seed, rooms, style, entrances=0, stairs_up=True, stairs_down=True)
    assert problems(lay, rooms=rooms) == []
    assert lay.entrances == ()
    assert lay.stairs_up is not None and lay.stairs_up.room == 1
    assert lay.room(1).depth == 0
    assert lay.stairs_down is not None and lay.stairs_down.room != 1


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("rooms", [3, 30, 60])
def test_sizes_the_contract_names(rooms: int, style: str) -> None:
    for seed in range(12):
        lay = level(seed, rooms, style, stairs_down=True, stairs_up=True)
        assert problems(lay, rooms=rooms) == [], (seed, problems(lay, rooms=rooms))


def test_loops_and_dead_ends() -> None:
    for seed in range(30):
        for rooms in (5, 6, 12, 30, 60):
            lay = level(seed, rooms, "halls" if seed % 2 else "caves")
            extra = [lk for lk in lay.links if not lk.in_tree]
            assert len(extra) <= round(0.2 * rooms) or len(extra) == 1
            if rooms >= 6:
                assert extra, (seed, rooms)
            assert any(r.is_dead_end for r in lay.rooms), (seed, rooms)
    # About loops × rooms extra links when there is room for them.
    counts = [sum(not lk.in_tree for lk in level(seed, 30).links) for seed in range(20)]
    assert sum(counts) / len(counts) >= 5
    assert all(lk.in_tree for lk in level(3, 30, loops=0).links)
    many = level(3, 30, loops=0.5)
    assert sum(not lk.in_tree for lk in many.links) >= 10


def test_numbering_reads_from_the_entrance() -> None:
    for seed in range(20):
        lay = level(seed, 25, entrances=2)
        assert lay.entrances[0].room == 1
        assert lay.room(1).depth == 0
        # Ids never go back towards the first entrance: link distance from room 1 does not decrease.
        hops = {1: 0}
        frontier = [1]
        while frontier:
            nxt = []
            for i in frontier:
                for j in lay.neighbours(i):
                    if j not in hops:
                        hops[j] = hops[i] + 1
                        nxt.append(j)
            frontier = nxt
        by_id = [hops[r.id] for r in lay.rooms]
        assert by_id == sorted(by_id)
        for lk in lay.links:
            assert lk.a < lk.b
            assert lk.a_tile == lk.path[0] and lk.door_tile == lk.path[-1]
        assert [lk.id for lk in lay.links] == list(range(1, len(lay.links) + 1))
        assert [(lk.a, lk.b) for lk in lay.links] == sorted((lk.a, lk.b) for lk in lay.links)


def test_stairs() -> None:
    for seed in range(20):
        lay = level(seed, 20, stairs_down=True, stairs_up=True)
        assert lay.stairs_down is not None and lay.stairs_up is not None
        deepest = max(r.depth for r in lay.rooms)
        assert lay.room(lay.stairs_down.room).depth == deepest >= 2
        # The up stairs stand at the shallow end, next to the entrance room.
        assert lay.room(lay.stairs_up.room).depth <= 1
        assert lay.stairs_up.room != lay.stairs_down.room
    # Placed near a given tile: the room whose centre is nearest it.
    for seed in range(10):
        lay = level(seed, 20, entrances=0, stairs_up=True, stairs_down=True, stairs_up_near=(0, 0))
        assert lay.stairs_up is not None
        up = lay.room(lay.stairs_up.room)
        nearest = min(lay.rooms, key=lambda r: (2 * r.x + r.w - 1) ** 2 + (2 * r.y + r.h - 1) ** 2)
        assert up.id == nearest.id


def test_entrances_come_in_from_the_edge() -> None:
    for seed in range(20):
        lay = level(seed, 20, "caves" if seed % 2 else "halls", entrances=3)
        assert len(lay.entrances) == 3
        for e in lay.entrances:
            x, y = e.tile
            assert {"north": y == 0, "south": y == lay.height - 1, "west": x == 0, "east": x == lay.width - 1}[e.side]
            assert e.path[0] == e.tile and e.path[-1] == e.door_tile and len(e.path) >= 2
        assert all(lay.room(e.room).depth == 0 for e in lay.entrances)


def test_shapes_sizes_and_grid_by_style() -> None:
    shapes: dict[str, Counter[str]] = {style: Counter() for style in STYLES}
    sizes: Counter[str] = Counter()
    for seed in range(20):
        for style in STYLES:
            lay = level(seed, 30, style)
            shapes[style].update(r.shape for r in lay.rooms)
            sizes.update(r.size for r in lay.rooms)
            long_side, short_side = max(lay.width, lay.height), min(lay.width, lay.height)
            assert 2 * long_side <= 3 * short_side + 2, (lay.width, lay.height)
            assert lay.width * lay.height <= 30 * 270, (lay.width, lay.height)  # about 90×90 at most
            for r in lay.rooms:
                assert 3 <= r.w <= 16 and 3 <= r.h <= 16
                assert r.shape in SHAPES and r.size == size_of(len(r.tiles))
    halls, caves = shapes["halls"], shapes["caves"]
    assert set(halls) == {"rect", "L", "cross", "round"}
    assert halls["rect"] > sum(halls.values()) / 2
    assert set(caves) == {"rect", "cave"}
    assert caves["cave"] > 2 * caves["rect"]
    assert set(sizes) == {"small", "medium", "large"}
    assert (size_of(20), size_of(21), size_of(48), size_of(49)) == ("small", "medium", "medium", "large")


def test_layouts_grow_with_the_room_count() -> None:
    areas = {n: sum(level(s, n).width * level(s, n).height for s in range(5)) for n in (3, 10, 30, 60)}
    assert areas[3] < areas[10] < areas[30] < areas[60]


def test_ascii_picture() -> None:
    lay = level(7, 12, stairs_down=True, stairs_up=True, entrances=2)
    pic = ascii(lay)
    lines = pic.splitlines()
    assert len(lines) == lay.height and all(len(line) <= lay.width for line in lines)
    assert pic.count(">") == 1 and pic.count("<") == 1 and pic.count("E") == 2
    assert pic.count("+") == len(lay.links) + len(lay.entrances)
    assert pic.count(".") == sum(len(r.tiles) for r in lay.rooms) - 2  # less the two stairs
    labelled = ascii(lay, labels=True)
    assert len(labelled.splitlines()) == lay.height and "1" in labelled


def test_problems_notices_broken_layouts() -> None:
    """The checker itself: each kind of damage is reported."""
    lay = level(8, 12, stairs_down=True, stairs_up=True)
    assert problems(lay, rooms=12) == []
    first, link = lay.rooms[0], lay.links[0]
    b = lay.room(link.b)
    grown = replace(b, tiles=b.tiles | {link.door_tile})  # floor over the corridor's end
    damaged = {
        "rooms": replace(lay, rooms=lay.rooms[:-1]),
        "floor": replace(lay, rooms=(*lay.rooms[: link.b - 1], grown, *lay.rooms[link.b :])),
        "gap": replace(lay, links=(replace(link, path=link.path[:1] + link.path[2:]), *lay.links[1:])),
        "door": replace(lay, links=(replace(link, door_vertical=not link.door_vertical), *lay.links[1:])),
        "reach": replace(lay, links=tuple(lk for lk in lay.links if first.id not in (lk.a, lk.b))),
        "stairs": replace(lay, stairs_down=replace(lay.stairs_down, tile=(0, 0))) if lay.stairs_down else lay,
        "dead end": replace(lay, rooms=tuple(replace(r, is_dead_end=not r.is_dead_end) for r in lay.rooms)),
        "depth": replace(lay, rooms=tuple(replace(r, depth=r.depth + 1) for r in lay.rooms)),
        "edge": replace(lay, entrances=tuple(replace(e, tile=(5, 5)) for e in lay.entrances)),
    }
    for what, broken in damaged.items():
        assert problems(broken, rooms=12), what


# --------------------------------------------------------------------------- determinism


def test_same_seed_same_layout() -> None:
    for style in STYLES:
        a = level(99, 30, style, entrances=2, stairs_down=True, stairs_up=True)
        b = level(99, 30, style, entrances=2, stairs_down=True, stairs_up=True)
        assert a == b
        assert repr(a) == repr(b)
        assert dump(a) == dump(b)


def test_different_seeds_different_layouts() -> None:
    for style in STYLES:
        digests = {digest(level(seed, 20, style)) for seed in range(25)}
        assert len(digests) == 25


def test_the_global_rng_is_left_alone() -> None:
    random.seed(1234)
    before = random.getstate()
    level(5, 30, "caves", stairs_down=True)
    assert random.getstate() == before


def test_same_digest_in_other_processes() -> None:
    """Nothing depends on hash randomisation or on anything else that varies between runs."""
    code = (
        "import random; from dungeon_gen.layout import build_level, digest; "
        "print(digest(build_level(random.Random(2024), 40, style='caves', entrances=2, stairs_down=True)))"
    )
    seen = set()
    for hash_seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        seen.add(run.stdout.strip())
    assert len(seen) == 1
    assert seen == {digest(level(2024, 40, "caves", entrances=2, stairs_down=True))}


GOLDEN = {
    (1, 3, "halls"): "35c1aea61ed3df3ece73425a0f7f1f8b65bec4961ceca56e7c2b57a2e6f4d99e",
    (2024, 30, "halls"): "5f94a7d516e743dc78ba25d3c4d2e9492b3f39c2db8cb59ede5be90ea02fcdad",
    (77, 60, "caves"): "a57df42fd96fe93d76778a76361ec718064e13a9021bb60a02d06e8904073716",
}


@pytest.mark.parametrize(("seed", "rooms", "style"), sorted(GOLDEN))
def test_golden_digests(seed: int, rooms: int, style: str) -> None:
    """Any change to the generator's output shows here: update the constants only on purpose."""
    lay = level(seed, rooms, style, stairs_down=True, stairs_up=True)
    assert digest(lay) == GOLDEN[(seed, rooms, style)]


# --------------------------------------------------------------------------- arguments


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"rooms": 2}, "rooms must be"),
        ({"rooms": 61}, "rooms must be"),
        ({"rooms": 10.0}, "rooms must be"),
        ({"rooms": True}, "rooms must be"),
        ({"rooms": 10, "entrances": 5}, "entrances must be"),
        ({"rooms": 3, "entrances": 4}, "cannot outnumber"),
        ({"rooms": 10, "entrances": 0}, "needs stairs_up"),
        ({"rooms": 10, "style": "mazes"}, "style must be"),
        ({"rooms": 10, "loops": 1.5}, "loops must be"),
        ({"rooms": 10, "loops": -0.1}, "loops must be"),
        ({"rooms": 10, "stairs_up": True, "stairs_up_near": (1, 2, 3)}, "stairs_up_near"),
    ],
)
def test_impossible_arguments_are_refused(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        build_level(random.Random(0), **kwargs)  # type: ignore[arg-type]
