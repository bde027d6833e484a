"""Every dungeon its own (issue #15): ten dungeons of one theme and level should not meet the same
wanderers every time."""

from __future__ import annotations

import pytest

from dungeon_gen.generate import generate
from dungeon_gen.themes import load_themes


@pytest.mark.parametrize("theme", ["necromancer_tomb", "goblin_warren", "salt_mine"])
def test_wanderers_come_from_the_whole_roster_of_the_level(theme: str) -> None:
    th = load_themes()[theme]
    ds = [generate(seed, theme=theme, level=th.min_level, depth=1, rooms=8) for seed in range(1, 11)]
    roster = {e.monster for e in th.monsters if e.fits(th.min_level) and e.role != "boss"}
    met = {m.monster for d in ds for g in d.wandering_monsters for m in g.monsters}
    assert roster <= met, f"never wandering: {sorted(roster - met)}"
    line_ups = {tuple(sorted(g.name for g in d.wandering_monsters)) for d in ds}
    assert len(line_ups) >= 5, line_ups
    for d in ds:
        names = [g.name for g in d.wandering_monsters]
        assert len(set(names)) == len(names)
        assert {s.effect.group for s in d.doom_track if s.effect.group} <= set(names)
