"""The registry: every file loads, references between files hold, damage is named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rules.content.base import ContentError, content_dir
from rules.content.registry import KINDS, load_content


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    dst = tmp_path / "content"
    shutil.copytree(content_dir(), dst, ignore=shutil.ignore_patterns("docs"))
    return dst


def test_everything_loads() -> None:
    c = load_content(cached=False)
    assert len(c.files) == 13
    counts = c.counts()
    assert counts["bestiary.monsters"] == 37
    assert counts["weapons.weapons"] == 16
    assert counts["lifepath.infancy"] == 16


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_has_entries_and_finds_them_case_insensitively(kind: str) -> None:
    c = load_content()
    entries = c.entries(kind)
    assert entries
    for e in entries:
        assert c.find(kind, e.name.upper()) is e


def test_missing_file_is_named(copy: Path) -> None:
    (copy / "bestiary.toml").unlink()
    with pytest.raises(ContentError, match=r"bestiary\.toml: missing"):
        load_content(copy, cached=False)


def test_stray_file_is_refused(copy: Path) -> None:
    (copy / "dragons.toml").write_text("[[dragons]]\nname = 'Smaug'\n")
    with pytest.raises(ContentError, match=r"dragons\.toml"):
        load_content(copy, cached=False)


def test_not_toml_is_named(copy: Path) -> None:
    (copy / "weapons.toml").write_text("[[weapons]\nname = ")
    with pytest.raises(ContentError, match=r"weapons\.toml: not valid TOML"):
        load_content(copy, cached=False)


def test_broken_kit_reference_is_named(copy: Path) -> None:
    path = copy / "classes.toml"
    text = path.read_text()
    assert 'item = "Falchion"' in text
    path.write_text(text.replace('item = "Falchion"', 'item = "Vorpal blade"', 1))
    with pytest.raises(ContentError, match=r"background 'Gladiator'.*'Vorpal blade'"):
        load_content(copy, cached=False)


def test_broken_skill_reference_is_named(copy: Path) -> None:
    path = copy / "character.toml"
    text = path.read_text()
    assert 'name = "Fearless"' in text
    path.write_text(text.replace('name = "Fearless"', 'name = "Fearful"', 1))
    with pytest.raises(ContentError, match=r"infancy row 7 \('Battleborn'\): unknown skill 'Fearless'|Fearless"):
        load_content(copy, cached=False)


def test_out_of_range_value_names_file_entry_field(copy: Path) -> None:
    path = copy / "bestiary.toml"
    text = path.read_text()
    path.write_text(text.replace('name = "Bugbear"\nfamily = "child_stealers"\nlevel = 5', 'name = "Bugbear"\n'
                                 'family = "child_stealers"\nlevel = 50', 1))  # fmt: skip
    with pytest.raises(ContentError) as exc:
        load_content(copy, cached=False)
    msg = str(exc.value)
    assert "bestiary.toml" in msg and "'Bugbear'" in msg and "field level" in msg
