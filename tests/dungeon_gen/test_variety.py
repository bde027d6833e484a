"""Every dungeon its own (issue #15): ten dungeons of one theme and level should not meet the same
wanderers every time."""

from __future__ import annotations

import re

import pytest

from dungeon_gen.generate import generate
from dungeon_gen.model import Dungeon
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


def _sentences(d: Dungeon) -> set[str]:
    """The key's sentences of 25 characters or more, numbers blanked (as measure_variety.py counts them)."""
    texts = [d.hook, d.history, *(r.text for r in d.rumours), d.outside, *(w.text for w in d.entrance_ways)]
    texts += [n.text for n in d.outside_lore] + [d.quest, d.quest_after]
    for lv in d.levels:
        for r in lv.rooms:
            texts += [r.description, r.notes, *(g.note for g in r.monsters), *(x.text for x in r.loot)]
            texts += [t for tr in r.traps for t in (tr.text, tr.clue, tr.effect)]
            texts += [s.text for s in r.secrets] + [c.text for c in r.corpses]
            texts += [t for f in r.features for t in (f.text, f.success, f.failure)]
            texts += [n.text for n in r.lore] + [g.want.text for g in r.monsters if g.want is not None]
        texts += [c.door.text for c in lv.connections] + [c.door.key or "" for c in lv.connections]
        texts += [s.effect.text for s in lv.doom_track] + [w.text for w in lv.wandering_monsters]
        texts += [t for p in lv.set_pieces for t in (p.text, p.success, p.failure, p.before, p.after)]
    out = set()
    for t in texts:
        for s in re.split(r"(?<=[.!?])\s+", t or ""):
            s = re.sub(r"\d+", "#", s.strip())
            if len(s) >= 25:
                out.add(s)
    return out


#: The share of a key's sentences found in another of ten level-1 keys of its theme, at most (set pieces, skill
#: notes, wants, the fight advice, the land outside and the job counted).  The issue's goal is 0.25, which every
#: theme now meets (issue #15, measured with measure_variety.py: tomb 0.238, warren 0.248, salt 0.239, cellar 0.240,
#: chapel 0.240, tower 0.248, vault 0.248); the bounds keep two points of slack, so that they only go down.  A sentence
#: every key has needs some thirty variants before most keys stop sharing it: one part of two or three alternatives
#: barely helps (ten keys draw the same one), two or three independent parts of four or five do, and so does a phrase
#: bank larger than a dungeon draws from (a dungeon of twenty rooms drew nearly all of an 18-phrase "about" bank, so
#: every key held the same room lines; the banks are now 30).
SHARED_AT_MOST = {
    "necromancer_tomb": 0.26,
    "goblin_warren": 0.27,
    "salt_mine": 0.26,
    "flooded_cellar": 0.26,
    "plague_chapel": 0.26,
    "ruined_watchtower": 0.27,
    "demon_vault": 0.27,
}


@pytest.mark.parametrize("theme", sorted(SHARED_AT_MOST))
def test_ten_keys_of_a_theme_share_few_sentences(theme: str) -> None:
    keys = [_sentences(generate(seed, theme=theme, level=1, depth=1, rooms=20)) for seed in range(1, 11)]
    shares = []
    for i, key in enumerate(keys):
        others = set().union(*(k for j, k in enumerate(keys) if j != i))
        shares.append(len(key & others) / len(key))
    assert sum(shares) / len(shares) <= SHARED_AT_MOST[theme], sorted(round(s, 2) for s in shares)
