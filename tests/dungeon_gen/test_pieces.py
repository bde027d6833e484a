"""What ties a level together (issue #15): on every generated level, two or more set pieces that link rooms,
one or more skill-gated notes and one or more groups that want something; all in the key, all checked at load."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from dungeon_gen.export.markdown import to_markdown
from dungeon_gen.generate import generate
from dungeon_gen.geometry import steps_from
from dungeon_gen.model import LevelData
from dungeon_gen.themes import load_theme, load_themes, themes_dir
from rules.content.base import ContentError
from rules.content.registry import load_content
from rules.gm.encounters import load_encounters

THEMES = sorted(load_themes())
#: every theme, 1-3 levels, 3 to 30 rooms, level 1 to 10
CASES = [(700 + i, THEMES[i % len(THEMES)], 1 + i % 3, (3, 5, 8, 14, 22, 30)[i % 6], 1 + i % 10) for i in range(42)]


def doors_apart(level: LevelData, a: int, b: int) -> int:
    adj: dict[int, list[int]] = {r.id: [] for r in level.rooms}
    for c in level.connections:
        adj[c.from_].append(c.to)
        adj[c.to].append(c.from_)
    return steps_from(adj, [a]).get(b, 99)


@pytest.mark.parametrize(("seed", "theme", "depth", "rooms", "level"), CASES)
def test_every_level_has_set_pieces_skill_notes_and_a_want(seed: int, theme: str, depth: int, rooms: int,
                                                           level: int) -> None:  # fmt: skip
    th = load_themes()[theme]
    d = generate(seed, theme=theme, depth=depth, rooms=rooms, level=max(level, th.min_level))
    content = load_content()
    skills = {s.name for s in content.character.skills}
    minds = load_encounters().minds
    key = to_markdown(d)
    for lv in d.levels:
        assert len(lv.set_pieces) >= 2, (lv.depth, lv.set_pieces)
        for p in lv.set_pieces:
            assert p.control != p.target and 1 <= doors_apart(lv, p.control, p.target) <= 3
            assert not lv.room(p.control).boss
            assert f"(changes room {p.target}, {lv.room(p.target).name})" in key
            assert f"(worked from room {p.control}, {lv.room(p.control).name})" in key
            if p.holds:
                assert lv.room(p.target).loot, "a piece that holds loot holds some"
        notes = [n for r in lv.rooms for n in r.lore]
        assert notes and all(n.skill in skills for n in notes)
        for n in notes:
            assert f"**{n.skill}** (only someone with the skill makes this out)" in key
        wanting = [g for r in lv.rooms for g in r.monsters if g.want is not None]
        assert wanting
        for g in wanting:
            assert g.want is not None
            sheet = content.bestiary.monster(g.monster)
            mind = next((m for m in minds if m.monster == sheet.name), None) or next(
                m for m in minds if m.family == sheet.family
            )
            assert "living" in sheet.tags and g.want.asks in mind.takes
            if g.want.reveals == "boss":
                assert any(r.boss for r in lv.rooms), "only where the master is"
            if g.want.reveals == "stairs":
                assert any(s.to_depth > lv.depth for s in lv.stairs), "only where there are stairs down"
        assert "**They want something**" in key
        texts = [t for p in lv.set_pieces for t in (p.text, p.success, p.failure, p.before, p.after)]
        assert not any("{" in t or "[" in t for t in texts), "every part drawn, every placeholder filled"


def test_the_same_seed_ties_the_same_rooms() -> None:
    a = generate(5, theme="salt_mine", rooms=12, depth=2)
    b = generate(5, theme="salt_mine", rooms=12, depth=2)
    assert [lv.set_pieces for lv in a.levels] == [lv.set_pieces for lv in b.levels]


def _broken(tmp_path: Path, theme: str, change: str) -> Path:
    src = themes_dir() / f"{theme}.toml"
    data = src.read_text(encoding="utf-8")
    out = tmp_path / f"{theme}.toml"
    out.write_text(data + change, encoding="utf-8")
    tomllib.loads(out.read_text(encoding="utf-8"))
    return out


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ('\n[[set_pieces]]\nname = "A lever"\ntext = "A lever."\nsuccess = "Clunk."\nbefore = "A."\nafter = "B."\n',
         "must change its target"),
        ('\n[[set_pieces]]\nname = "A lever"\ntext = "A lever."\nsuccess = "Clunk."\nbefore = "A."\nafter = "B."\n'
         'holds = true\nskill = "Lockpicking"\n', "unknown skill 'Lockpicking'"),
        ('\n[[set_pieces]]\nname = "A lever"\ntext = "A lever in the {nowhere}."\nsuccess = "Clunk."\nbefore = "A."\n'
         'after = "B."\nholds = true\n', "unknown placeholder"),
        ('\n[[lore]]\nskill = "Astrology"\ntext = "Stars."\n', "unknown skill 'Astrology'"),
        ('\n[[wants]]\ntext = "They want."\nmonsters = [{ monster = "Reanimated Husk" }]\nasks = "food"\n'
         'amount = "1"\n', "no mind to want anything"),
        ('\n[[wants]]\ntext = "They want."\nmonsters = [{ monster = "Plagued Rat" }]\nasks = "silver"\namount = "1"\n',
         "does not take silver"),
        ('\n[[wants]]\ntext = "They want."\nmonsters = [{ monster = "Plagued Rat" }]\nasks = "food"\namount = "1"\n'
         'reveals = "boss"\ntold = "Squeak."\n', "a beast: it cannot tell"),
    ],
)  # fmt: skip
def test_broken_set_pieces_lore_and_wants_are_refused_at_load(tmp_path: Path, change: str, message: str) -> None:
    with pytest.raises((ContentError, ValueError)) as err:
        load_theme(_broken(tmp_path, "necromancer_tomb", change))
    assert message in str(err.value)
