"""The player's settings: the JSON file, a damaged one, and the settings screen driven with clicks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt

from desktop.settings import ENV_CONFIG_DIR, Settings, settings_path


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv(ENV_CONFIG_DIR, str(folder))
    return folder


def test_defaults_when_there_is_no_file(config_dir: Path) -> None:
    s = Settings.load()
    assert s == Settings()
    assert s.load_error is None
    assert settings_path() == config_dir / "settings.json"
    assert not settings_path().exists()  # loading never writes


def test_save_and_load_round_trip(config_dir: Path) -> None:
    Settings(text_size=13.5, gm_rerolls=True, animation_speed=2).save()
    data = json.loads((config_dir / "settings.json").read_text())
    assert data == {"text_size": 13.5, "gm_rerolls": True, "animation_speed": 2, "dont_ask": []}
    s = Settings.load()
    assert (s.text_size, s.gm_rerolls, s.animation_speed) == (13.5, True, 2)


@pytest.mark.parametrize("junk", ["{not json", "[1, 2, 3]", "", '"text"', "\x00\x01\x02"])
def test_a_damaged_file_gives_the_defaults_and_is_left_alone(config_dir: Path, junk: str) -> None:
    config_dir.mkdir(parents=True)
    path = config_dir / "settings.json"
    path.write_text(junk)
    s = Settings.load()
    assert (s.text_size, s.gm_rerolls, s.animation_speed) == (10.5, False, 1)
    assert s.load_error and "defaults" in s.load_error
    assert path.read_text() == junk  # not overwritten until the player saves
    s.gm_rerolls = True
    s.save()
    assert Settings.load().gm_rerolls is True
    assert Settings.load().load_error is None


def test_wrong_types_and_unknown_keys_are_ignored_and_values_clamped(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    (config_dir / "settings.json").write_text(
        json.dumps({"text_size": 99, "gm_rerolls": "yes", "animation_speed": -4, "from_the_future": 1})
    )
    s = Settings.load()
    assert s.text_size == 20.0  # clamped to the largest size
    assert s.gm_rerolls is False  # "yes" is not a bool
    assert s.animation_speed == 0
    assert s.load_error is None


def test_saves_folder_is_the_persistence_default() -> None:
    from desktop.persistence import default_folder

    assert Settings().saves_folder == default_folder()


# --- the screen ------------------------------------------------------------------------------------------


def make_screen(qtbot, tmp_path: Path, settings: Settings | None = None):  # type: ignore[no-untyped-def]
    from desktop.screens.settings_screen import SettingsScreen

    screen = SettingsScreen(settings or Settings(), saves_folder=tmp_path / "saves")
    qtbot.addWidget(screen)
    screen.resize(1280, 720)
    screen.show()
    return screen


def test_clicking_gm_rerolls_saves_it_and_tells_the_window(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    settings = Settings()
    screen = make_screen(qtbot, tmp_path, settings)
    with qtbot.waitSignal(screen.changed, timeout=1000) as blocker:
        qtbot.mouseClick(screen.gm_rerolls, Qt.MouseButton.LeftButton, pos=QPoint(8, screen.gm_rerolls.height() // 2))
    assert blocker.args[0] is settings  # changed in place: the game's decider holds this object
    assert settings.gm_rerolls is True
    assert Settings.load().gm_rerolls is True


def test_text_size_slider_applies_when_it_rests(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    screen = make_screen(qtbot, tmp_path)
    screen.text_size.setFocus()
    with qtbot.waitSignal(screen.changed, timeout=2000):
        for _ in range(3):  # three half-point steps
            qtbot.keyClick(screen.text_size, Qt.Key.Key_Right)
    assert screen.text_size_value.text() == "12 pt"
    assert Settings.load().text_size == 12.0


def test_animation_speed_and_restore_defaults(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    screen = make_screen(qtbot, tmp_path, Settings(gm_rerolls=True))
    screen.animation.setValue(2)
    assert screen.animation_value.text() == "Fast"
    assert Settings.load().animation_speed == 2
    qtbot.mouseClick(screen.reset_button, Qt.MouseButton.LeftButton)
    s = Settings.load()
    assert (s.text_size, s.gm_rerolls, s.animation_speed) == (10.5, False, 1)
    assert not screen.gm_rerolls.isChecked()


def test_a_damaged_file_is_reported_on_the_screen(qtbot, tmp_path: Path, config_dir: Path) -> None:  # type: ignore[no-untyped-def]
    config_dir.mkdir(parents=True)
    (config_dir / "settings.json").write_text("{oops")
    screen = make_screen(qtbot, tmp_path, Settings.load())
    assert screen.error_label.isVisible()
    assert "damaged" in screen.error_label.text()
    assert str(tmp_path / "saves") in screen.folder_label.text()


def test_escape_goes_back(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    screen = make_screen(qtbot, tmp_path)
    screen.activateWindow()
    qtbot.waitUntil(screen.isActiveWindow, timeout=2000)
    with qtbot.waitSignal(screen.back, timeout=1000):
        qtbot.keyClick(screen, Qt.Key.Key_Escape)
