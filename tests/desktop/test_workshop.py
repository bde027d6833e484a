"""The dungeon workshop, driven through its widgets: generate, select, re-roll, undo, export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox

from desktop.screens.workshop import WorkshopScreen
from dungeon_gen.export.json_io import dumps
from dungeon_gen.generate import generate
from dungeon_gen.model import Dungeon
from dungeon_gen.reroll import reroll_doom, reroll_room


@pytest.fixture
def screen(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> WorkshopScreen:
    monkeypatch.setenv("BLACKSALT_CONFIG_DIR", str(tmp_path / "config"))
    w = WorkshopScreen(autogenerate=False)
    qtbot.addWidget(w)
    w.export_folder = tmp_path / "exports"
    w.resize(1280, 720)
    w.show()
    qtbot.waitExposed(w)
    return w


def _generate(
    qtbot: Any, w: WorkshopScreen, seed: int = 77, rooms: int = 10, depth: int = 2, level: int = 2
) -> Dungeon:
    w.seed.setText(str(seed))
    w.rooms.setValue(rooms)
    w.depth_spin.setValue(depth)
    w.level.setValue(level)
    w.setFocus()
    qtbot.keyClick(w, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: w.dungeon is not None and w.job is None, timeout=20000)
    assert w.dungeon is not None
    return w.dungeon


def _click_room(qtbot: Any, w: WorkshopScreen, room_id: int) -> None:
    level = w.current_level()
    assert level is not None
    room = level.room(room_id)
    # a floor tile of the room that carries no mark, so the click lands on the room
    tile = sorted(room.floor())[len(room.floor()) // 2]
    qtbot.mouseClick(w.map_view, Qt.MouseButton.LeftButton, pos=w.map_view.tile_pos(tile).toPoint())


def test_generate_shows_the_map_tabs_and_key(screen: WorkshopScreen, qtbot: Any) -> None:
    d = _generate(qtbot, screen)
    assert dumps(d) == dumps(generate(77, level=2, rooms=10, depth=2))  # the parameters as given
    assert screen.map_view.level() is d.levels[0]
    assert screen.map_view.renders >= 1
    assert screen.tabs.count() == 2
    assert d.title in screen.subtitle.text()
    text = screen.key_rooms.toPlainText()
    for room in d.rooms:
        assert room.name in text
    assert d.doom_track[0].effect.text.split(".")[0] in screen.key_doom.toPlainText()
    assert d.hook.splitlines()[0][:40] in screen.key_story.toPlainText()
    story = screen.key_story.toPlainText()
    assert d.outside in story and d.entrance_ways[0].text in story and d.outside_lore[0].text in story
    # another level tab shows that level
    screen.tabs.setCurrentIndex(1)
    assert screen.map_view.level() is d.levels[1]
    assert d.levels[1].rooms[0].name in screen.key_rooms.toPlainText()


def test_the_chosen_theme_is_used(screen: WorkshopScreen, qtbot: Any) -> None:
    qtbot.waitUntil(lambda: screen.theme.count() > 1, timeout=10000)
    index = screen.theme.count() - 1
    screen.theme.setCurrentIndex(index)
    d = _generate(qtbot, screen, seed=5, rooms=6, depth=1)
    assert d.theme == screen.theme.itemData(index)


def test_generating_a_big_dungeon_keeps_the_window_alive(screen: WorkshopScreen, qtbot: Any) -> None:
    screen.seed.setText("2024")
    screen.rooms.setValue(40)
    screen.depth_spin.setValue(3)
    screen.generate()
    assert screen.job is not None and screen.dungeon is None  # it returned at once: the work runs elsewhere
    assert not screen.generate_button.isEnabled()
    assert screen.progress.isVisible()
    qtbot.waitUntil(lambda: screen.dungeon is not None, timeout=30000)  # the event loop turns meanwhile
    assert screen.generate_button.isEnabled()
    assert not screen.progress.isVisible()
    assert screen.dungeon is not None and len(screen.dungeon.levels) == 3
    assert len(screen.dungeon.rooms) == 40


def test_select_a_room_on_the_map_and_reroll_it(screen: WorkshopScreen, qtbot: Any) -> None:
    d = _generate(qtbot, screen)
    assert not screen.reroll_room_button.isEnabled()  # nothing selected yet
    _click_room(qtbot, screen, 4)
    assert screen.selected == 4
    assert "4. " + d.room(4).name in screen.room_label.text()
    before = dumps(d)
    qtbot.mouseClick(screen.reroll_room_button, Qt.MouseButton.LeftButton)
    after = screen.dungeon
    assert after is not None and after is not d
    assert dumps(d) == before  # the old dungeon was not changed in place
    # exactly what dungeon_gen.reroll gives for the first re-roll of the session
    assert dumps(after) == dumps(reroll_room(d, 1, 4, 1))
    for room in d.rooms:
        if room.id != 4:
            assert after.room(room.id) == room
    assert after.room(4) != d.room(4)
    assert screen.map_view.level() is after.levels[0]  # the map shows the new room
    assert screen.selected == 4  # still selected
    # Ctrl+Z takes it back
    screen.setFocus()
    qtbot.keyClick(screen, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert screen.dungeon is d
    assert not screen.undo_button.isEnabled()


def test_rerolls_replay_the_same_way(screen: WorkshopScreen, qtbot: Any) -> None:
    d = _generate(qtbot, screen)
    screen.select_room(3)
    screen.reroll_room()
    screen.reroll_room()
    first = dumps(screen.dungeon)  # type: ignore[arg-type]
    expected = reroll_room(reroll_room(d, 1, 3, 1), 1, 3, 2)
    assert first == dumps(expected)


def test_reroll_the_doom_table_of_the_shown_level(screen: WorkshopScreen, qtbot: Any) -> None:
    d = _generate(qtbot, screen)
    screen.tabs.setCurrentIndex(1)
    screen.setFocus()
    qtbot.keyClick(screen, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    after = screen.dungeon
    assert after is not None
    assert dumps(after) == dumps(reroll_doom(d, 2, 1))
    assert after.doom_track == d.doom_track  # level 1 untouched
    assert after.levels[1].rooms == d.levels[1].rooms
    assert screen.level_depth == 2  # the view stays on level 2
    assert screen.key_tabs.currentWidget() is screen.key_doom
    assert after.levels[1].doom_track[0].effect.text.split(".")[0] in screen.key_doom.toPlainText()


def test_clicking_a_room_in_the_key_selects_it(screen: WorkshopScreen, qtbot: Any) -> None:
    d = _generate(qtbot, screen)
    with qtbot.waitSignal(screen.key_rooms.anchorClicked, timeout=1000):
        screen.key_rooms.anchorClicked.emit(QUrl("room:6"))
    assert screen.selected == 6
    screen.key_story.anchorClicked.emit(QUrl(f"room:{d.entrances[0]}"))
    assert screen.selected == d.entrances[0]
    assert screen.key_tabs.currentWidget() is screen.key_rooms


def test_player_view_toggle(screen: WorkshopScreen, qtbot: Any) -> None:
    _generate(qtbot, screen)
    assert not screen.map_view.options().player
    assert screen.map_view.options().tokens
    screen.setFocus()
    qtbot.keyClick(screen, Qt.Key.Key_V)
    assert screen.map_view.options().player
    assert not screen.map_view.options().tokens
    qtbot.mouseClick(screen.gm_button, Qt.MouseButton.LeftButton)
    assert not screen.map_view.options().player


def test_escape_goes_back(screen: WorkshopScreen, qtbot: Any) -> None:
    screen.setFocus()
    with qtbot.waitSignal(screen.back, timeout=1000):
        qtbot.keyClick(screen, Qt.Key.Key_Escape)


def test_export_writes_the_chosen_formats(screen: WorkshopScreen, qtbot: Any, tmp_path: Path) -> None:
    d = _generate(qtbot, screen, rooms=6, depth=1)
    screen.setFocus()
    qtbot.keyClick(screen, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    dialog = screen.export_dialog
    assert dialog is not None and dialog.isVisible()
    for fmt, cb in dialog.checks.items():
        cb.setChecked(fmt in ("json", "md", "png", "uvtt"))
    out = tmp_path / "my table"
    dialog.folder.setText(str(out))
    progress: list[int] = []
    screen.export_progress.valueChanged.connect(progress.append)
    with qtbot.waitSignal(screen.exported, timeout=30000) as blocker:
        qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    files: list[Path] = blocker.args[0]
    names = sorted(p.name for p in files)
    assert names == sorted(p.name for p in out.iterdir())
    assert {Path(n).suffix for n in names} == {".json", ".md", ".png", ".dd2vtt"}
    data = json.loads(next(p for p in files if p.suffix == ".json").read_text(encoding="utf-8"))
    assert data["title"] == d.title
    assert any(v > 0 for v in progress)
    box = screen.message
    assert box is not None and box.icon() == QMessageBox.Icon.Information
    assert all(n in box.informativeText() for n in names)
    assert not screen.export_progress.isVisible()


def test_export_errors_are_a_dialog_and_leave_nothing(screen: WorkshopScreen, qtbot: Any, tmp_path: Path) -> None:
    _generate(qtbot, screen, rooms=5, depth=1)
    blocker_file = tmp_path / "not a folder"
    blocker_file.write_text("x")
    screen.start_export(["json", "md"], blocker_file / "inside")
    qtbot.waitUntil(lambda: screen.export_job is None, timeout=10000)
    box = screen.message
    assert box is not None and box.icon() == QMessageBox.Icon.Warning
    assert "cannot create the folder" in box.text()
    assert screen.export_button.isEnabled()
    assert blocker_file.read_text() == "x"


def test_cancelling_the_export_dialog_writes_nothing(screen: WorkshopScreen, qtbot: Any, tmp_path: Path) -> None:
    _generate(qtbot, screen, rooms=5, depth=1)
    screen.export()
    dialog = screen.export_dialog
    assert dialog is not None
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    assert screen.export_job is None
    assert not (tmp_path / "exports").exists()


def test_the_workshop_opens_with_a_fresh_dungeon(qtbot: Any) -> None:
    w = WorkshopScreen()
    qtbot.addWidget(w)
    assert not w.export_button.isEnabled()
    w.show()
    qtbot.waitUntil(lambda: w.dungeon is not None, timeout=20000)
    assert w.dungeon is not None and w.dungeon.seed == int(w.seed.text())
    assert w.map_view.level() is w.dungeon.levels[0]
    assert w.export_button.isEnabled()
    assert w.theme.count() > 1  # the themes were loaded on the way
