"""The lazily read themes (ThemeShelf): the same themes as load_themes, read one at a time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dungeon_gen import themes as themes_module
from dungeon_gen.generate import generate
from dungeon_gen.themes import ThemeShelf, load_theme, load_themes, themes_dir
from rules.content.base import ContentError


def test_shelf_holds_the_same_themes_as_load_themes() -> None:
    shelf = ThemeShelf()
    every = load_themes()
    assert list(shelf) == sorted(every) and len(shelf) == len(every)
    for theme_id, theme in every.items():
        assert theme_id in shelf
        assert shelf[theme_id] == theme
    assert "no_such_theme" not in shelf
    with pytest.raises(KeyError):
        shelf["no_such_theme"]


def test_generating_a_dungeon_reads_only_its_theme() -> None:
    themes_module._shelved.cache_clear()
    d = generate(11, rooms=6)
    read = themes_module._shelved.cache_info().currsize
    assert read == 1
    assert generate(11, rooms=6, themes=load_themes()).to_json() == d.to_json()


def test_what_only_the_gm_knows_is_checked_by_load_themes_not_by_the_shelf(tmp_path: Path) -> None:
    """A reward the GM cannot play passes the shelf's check (generating a dungeon does not import the
    GM) but not ``load_theme``'s, which ``blacksalt validate`` and the tests use (issue #15)."""
    src = themes_dir() / "necromancer_tomb.toml"
    old = 'rewards = [{ kind = "info", reveals = "secrets" }]'
    text = src.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / src.name
    path.write_text(text.replace(old, 'rewards = [{ kind = "info", reveals = "the moon" }]', 1), encoding="utf-8")
    assert load_theme(path, against_gm=False).id == "necromancer_tomb"
    wanted = r"rewards\[0\]: a info reward reveals one of \['doom', 'boss', 'traps', 'secrets'\], not 'the moon'"
    with pytest.raises(ContentError, match=wanted):
        load_theme(path)


def test_generating_a_dungeon_imports_no_gm() -> None:
    """``blacksalt dungeon`` needs no automated GM: importing it was a third of its start-up."""
    code = (
        "import sys; from dungeon_gen.generate import generate; generate(3, rooms=8);"
        "print(sorted(m for m in sys.modules if m.startswith('rules.gm')))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
