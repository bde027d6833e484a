"""The chronicle's days never run backwards; the saves folder can be moved with BLACKSALT_DATA_DIR."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop.persistence.chronicle import _days
from desktop.persistence.library import DATA_DIR_ENV, default_folder


def ev(day: int | None, text: str) -> dict[str, object]:
    return {"kind": "x", "text": text, "day": day}


def test_a_step_across_a_night_does_not_repeat_a_day() -> None:
    events = [ev(10, "a"), ev(11, "depart"), ev(10, "road"), ev(11, "enter"), ev(None, "more"), ev(12, "b")]
    groups = _days(events, skip=())
    assert [d for d, _ in groups] == [10, 11, 12]
    assert [e["text"] for e in groups[1][1]] == ["depart", "road", "enter", "more"]


def test_the_data_dir_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert default_folder() == tmp_path / "campaigns"
    monkeypatch.delenv(DATA_DIR_ENV)
    assert default_folder().name == "campaigns" and tmp_path not in default_folder().parents
