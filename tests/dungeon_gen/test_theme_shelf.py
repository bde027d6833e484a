"""The lazily read themes (ThemeShelf): the same themes as load_themes, read one at a time."""

from __future__ import annotations

import pytest

from dungeon_gen import themes as themes_module
from dungeon_gen.generate import generate
from dungeon_gen.themes import ThemeShelf, load_themes


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
