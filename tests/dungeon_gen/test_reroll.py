"""dungeon_gen.reroll: one room's contents, or a level's doom track, drawn again and nothing else."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from dungeon_gen.export.json_io import dumps, loads
from dungeon_gen.generate import generate
from dungeon_gen.model import Dungeon, LevelData
from dungeon_gen.reroll import RerollError, level_seeds, reroll_doom, reroll_room, story_of
from dungeon_gen.themes import load_themes

THEMES = sorted(load_themes())


@cache
def dungeon(seed: int, theme: str | None = None, rooms: int = 16, depth: int = 2) -> Dungeon:
    return generate(seed, level=2, rooms=rooms, depth=depth, theme=theme)


def dump(x: Any) -> Any:
    return x.model_dump(by_alias=True, mode="json")


def level_dump_without(level: LevelData, room_id: int | None = None, doom: bool = False) -> Any:
    data = dump(LevelData.model_validate(level.model_dump(by_alias=True, include=set(LevelData.model_fields))))
    if room_id is not None:
        data["rooms"] = [r for r in data["rooms"] if r["id"] != room_id]
    if doom:
        data.pop("doom_track")
    return data


def meta(d: Dungeon) -> Any:
    data = dump(d)
    for f in LevelData.model_fields:
        data.pop(f, None)
    data.pop("deeper_levels")
    return data


@pytest.mark.parametrize("theme", [None, *THEMES])
def test_the_story_is_rebuilt_from_the_seed(theme: str | None) -> None:
    d = dungeon(3, theme)
    story = story_of(d)
    assert story.title == d.title
    assert story.boss in {m.monster for r in d.levels[-1].rooms if r.boss for m in r.monsters}
    seeds = level_seeds(d)
    assert seeds[1:] == [lv.seed for lv in d.deeper_levels]


def test_one_level_dungeons_with_a_random_theme() -> None:
    d = generate(21, rooms=8, depth=1)
    assert story_of(d).title == d.title
    reroll_room(d, 1, 2, 0)  # no error


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rerolling_a_room_changes_that_room_only(seed: int) -> None:
    d = dungeon(seed)
    before = dumps(d)
    for depth in (1, 2):
        level = d.levels[depth - 1]
        for room in level.rooms[::3]:
            out = reroll_room(d, depth, room.id, 7)
            assert dumps(d) == before  # the original is untouched
            assert meta(out) == meta(d)
            for lv_old, lv_new in zip(d.levels, out.levels, strict=True):
                if lv_old.depth == depth:
                    assert level_dump_without(lv_new, room.id) == level_dump_without(lv_old, room.id)
                else:
                    assert level_dump_without(lv_new) == level_dump_without(lv_old)
            new = out.levels[depth - 1].room(room.id)
            # the place, shape, kind and name stay
            for f in ("id", "name", "kind", "x", "y", "w", "h", "outline", "boss"):
                assert getattr(new, f) == getattr(room, f), f
            assert new.floor() == room.floor()
            for group in new.monsters:
                assert len(group.positions) == group.count
                assert all(tuple(p) in room.floor() for p in group.positions)
            assert all(t.tile is None or tuple(t.tile) in room.floor() for t in new.traps)
            assert all(tuple(c.tile) in room.floor() for c in new.corpses)
            # still a valid dungeon file
            assert dumps(loads(dumps(out))) == dumps(out)


def test_rerolling_is_deterministic_and_the_seed_matters() -> None:
    d = dungeon(4)
    room = d.rooms[5]
    a = reroll_room(d, 1, room.id, 11)
    b = reroll_room(d, 1, room.id, 11)
    assert dumps(a) == dumps(b)
    rolls = {dumps(reroll_room(d, 1, room.id, s)) for s in range(6)}
    assert len(rolls) >= 4  # different seeds, different rooms
    assert all(dump(reroll_room(d, 1, room.id, s).room(room.id)) != dump(room) for s in range(6))


def test_rerolling_twice_in_a_row_builds_on_the_last() -> None:
    d = dungeon(4)
    once = reroll_room(d, 1, 3, 1)
    twice = reroll_room(once, 1, 6, 2)
    assert dump(twice.room(3)) == dump(once.room(3))
    assert dump(twice.room(6)) != dump(d.room(6))


def _room_with(d: Dungeon, pred: Any) -> tuple[int, int] | None:
    for lv in d.levels:
        for r in lv.rooms:
            if pred(r):
                return lv.depth, r.id
    return None


def test_keys_and_secret_doors_stay_with_their_room() -> None:
    found_key = found_door = False
    for seed in range(1, 12):
        d = dungeon(seed)
        for pred, what in (
            (lambda r: any(lt.name.startswith("Key to the locked door") for lt in r.loot), "key"),
            (lambda r: any(s.kind == "door" and s.reveals.startswith("connection ") for s in r.secrets), "door"),
        ):
            hit = _room_with(d, pred)
            if hit is None:
                continue
            depth, rid = hit
            old = d.levels[depth - 1].room(rid)
            new = reroll_room(d, depth, rid, 5).levels[depth - 1].room(rid)
            if what == "key":
                found_key = True
                keys = [dump(lt) for lt in old.loot if lt.name.startswith("Key to the locked door")]
                assert [dump(lt) for lt in new.loot][: len(keys)] == keys
            else:
                found_door = True
                doors = [dump(s) for s in old.secrets if s.kind == "door" and s.reveals.startswith("connection ")]
                assert [dump(s) for s in new.secrets][: len(doors)] == doors
        if found_key and found_door:
            break
    assert found_key and found_door


def test_the_boss_lair_keeps_its_master() -> None:
    d = dungeon(6)
    lair = next(r for r in d.levels[-1].rooms if r.boss)
    out = reroll_room(d, len(d.levels), lair.id, 9)
    new = out.levels[-1].room(lair.id)
    assert new.boss
    assert new.monsters[0].monster == story_of(d).boss == lair.monsters[0].monster
    # and an ordinary room of the last level never becomes a lair
    other = next(r for r in d.levels[-1].rooms if not r.boss)
    assert not reroll_room(d, len(d.levels), other.id, 9).levels[-1].room(other.id).boss


def test_entrance_rooms_stay_entrances() -> None:
    d = dungeon(8)
    theme = load_themes()[d.theme]
    for rid in d.entrances:
        new = reroll_room(d, 1, rid, 2).room(rid)
        assert theme.room_kind(new.kind).entrance
        assert "exposed" in new.camp


def test_rerolling_the_doom_track_changes_only_that_track() -> None:
    d = dungeon(2)
    before = dumps(d)
    out = reroll_doom(d, 2, 3)
    assert dumps(d) == before
    assert level_dump_without(out.levels[1], doom=True) == level_dump_without(d.levels[1], doom=True)
    assert level_dump_without(out.levels[0]) == level_dump_without(d.levels[0])
    assert meta(out) == meta(d)
    assert dumps(reroll_doom(d, 2, 3)) == dumps(out)
    tracks = {str([dump(s) for s in reroll_doom(d, 2, s).levels[1].doom_track]) for s in range(5)}
    assert len(tracks) >= 3
    track = out.levels[1].doom_track
    assert len(track) == len(d.levels[1].doom_track)
    assert track[-1].effect.kind == "final_fight"
    names = {g.name for g in out.levels[1].wandering_monsters}
    assert all(s.effect.group is None or s.effect.group in names for s in track)
    assert dumps(loads(dumps(out))) == dumps(out)


def test_rerolling_the_doom_track_with_new_wanderers() -> None:
    d = dungeon(2)
    changed = False
    for s in range(4):
        out = reroll_doom(d, 1, s, wanderers=True)
        names = {g.name for g in out.wandering_monsters}
        assert all(st.effect.group is None or st.effect.group in names for st in out.doom_track)
        changed |= dump(out)["wandering_monsters"] != dump(d)["wandering_monsters"]
        loads(dumps(out))
    assert changed


def test_errors_name_what_is_wrong() -> None:
    d = dungeon(1)
    with pytest.raises(RerollError, match="no level 7"):
        reroll_room(d, 7, 1, 0)
    with pytest.raises(RerollError, match="no room 999"):
        reroll_room(d, 1, 999, 0)
    with pytest.raises(RerollError, match="unknown theme"):
        reroll_doom(d.model_copy(update={"theme": "nowhere"}), 1, 0)
    with pytest.raises(RerollError, match="not made by this generator"):
        reroll_doom(d.model_copy(update={"seed": d.seed + 1}), 1, 0)
