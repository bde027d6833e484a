"""Rules that are content live in resources/ (#13): which armour is metal, which monster tags are evil, which enemy
actions are sounds, a potion's rarity, which traps lie in the floor.  Each is a field the loader requires and
checks, so a missing or unknown value is refused, naming the entry."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rules.content.base import ContentError
from rules.content.registry import load_content

ROOT = Path(__file__).resolve().parents[2]


def broken(tmp_path: Path, file: str, old: str, new: str, count: int = 1) -> Path:
    """A copy of the content with ``old`` replaced by ``new`` in ``file`` (``count`` times)."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "resources" / "content", content)
    text = (content / file).read_text()
    assert old in text, old
    (content / file).write_text(text.replace(old, new, count))
    return content


def refused(root: Path, *words: str) -> None:
    with pytest.raises(ContentError) as exc:
        load_content(root, cached=False)
    for w in words:
        assert re.search(w, str(exc.value)), (w, str(exc.value)[:2000])


def test_every_armour_says_whether_it_is_metal() -> None:
    metal = sorted(a.name for a in load_content().armor.armor if a.metal)
    assert metal == ["Cage helmet", "Chainmail", "Close helmet", "Frog-mouth helm", "Gladiator Armor",
                     "Gothic plate armor", "Scale Armor", "Soldier helmet"]  # fmt: skip


def test_an_armour_without_metal_is_refused(tmp_path: Path) -> None:
    refused(broken(tmp_path, "armor.toml", "metal = true\n", ""), "armor.toml", "metal", "[Mm]issing|required")


def test_the_evil_tags_and_the_sounds_are_the_bestiary_s() -> None:
    b = load_content().bestiary
    assert b.enemy_rules.evil_tags == ["undead", "ghost", "voidspawn"]
    sounds = sorted(a.name for m in b.monsters for a in m.actions if a.sound)
    assert sounds == ["Agony", "Cursed Sea shanty", "The cries of many"]


def test_missing_or_unknown_evil_tags_are_refused(tmp_path: Path) -> None:
    line = 'evil_tags = ["undead", "ghost", "voidspawn"]'
    refused(broken(tmp_path / "a", "bestiary.toml", line, ""), "bestiary.toml", "evil_tags")
    wicked = broken(tmp_path / "b", "bestiary.toml", line, 'evil_tags = ["undead", "wicked"]')
    refused(wicked, r"evil_tags\[1\]", "Input should be")


def test_a_sound_must_say_true_or_false(tmp_path: Path) -> None:
    refused(broken(tmp_path, "bestiary.toml", "sound = true", 'sound = "loud"'), "bestiary.toml", "sound")


def test_every_potion_has_a_rarity_and_a_missing_or_unknown_one_is_refused(tmp_path: Path) -> None:
    assert {r.rarity for r in load_content().alchemy.recipes} == {"uncommon"}
    refused(broken(tmp_path / "a", "alchemy.toml", 'rarity = "uncommon"\n', ""), "alchemy.toml", "rarity")
    refused(broken(tmp_path / "b", "alchemy.toml", 'rarity = "uncommon"', 'rarity = "cheap"'), "alchemy.toml", "rarity")


def test_the_traps_set_in_the_floor_are_the_theme_tables_and_reach_the_gm() -> None:
    from dungeon_gen.generate import generate
    from dungeon_gen.site import to_site
    from dungeon_gen.themes import load_themes

    floors = {t.name for th in load_themes().values() for t in th.traps if t.floor}
    assert {"Spike pit", "Collapsing floor", "Sprung floor hatch"} <= floors
    site = to_site(generate(7, level=2, rooms=18, theme="goblin_warren", depth=2))
    traps = [t for lv in site.levels for r in lv.rooms for t in r.traps]
    assert traps and all(t.floor == (t.name in floors) for t in traps)


def test_a_theme_trap_without_floor_is_refused(tmp_path: Path) -> None:
    from dungeon_gen.themes import load_themes

    themes = tmp_path / "themes"
    shutil.copytree(ROOT / "resources" / "dungeon" / "themes", themes)
    path = themes / "goblin_warren.toml"
    path.write_text(path.read_text().replace("floor = true\n", "", 1))
    with pytest.raises(ContentError) as exc:
        load_themes(themes, content=load_content())
    assert "goblin_warren" in str(exc.value) and "floor" in str(exc.value)
