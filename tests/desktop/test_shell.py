"""The window's shell: theme, start screen, continue / load / errors, navigation and shortcuts, the
chronicle, closing and continuing, and the command line's top level.  Driven through the real widgets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop.settings import ENV_CONFIG_DIR, Settings


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv(ENV_CONFIG_DIR, str(folder))
    return folder


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    folder = tmp_path / "saves"
    folder.mkdir()
    return folder


def played(folder: Path, seed: int = 5, steps: int = 12, party: int = 2) -> Path:
    """A saved campaign a few steps in; returns its path (closed)."""
    from desktop.session import Session

    with Session.new(seed=seed, party_size=party, folder=folder) as s:
        for _ in range(steps):
            if not s.autoplay():
                break
        return s.path


def make_window(qtbot, saves: Path):  # type: ignore[no-untyped-def]
    from desktop.app import create_app
    from desktop.main_window import MainWindow

    create_app(["test"], Settings())
    w = MainWindow(Settings(), saves_folder=saves)
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    qtbot.waitExposed(w)
    start = w.start_screen()
    qtbot.waitUntil(lambda: start._loaded, timeout=3000)
    return w


def activate(qtbot, w) -> None:  # type: ignore[no-untyped-def]
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow, timeout=2000)


# --- theme -------------------------------------------------------------------------------------------


def test_theme_palette_fonts_and_stylesheet(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop import theme

    keys = {"bg", "panel", "panel_alt", "ink", "muted", "accent", "gold", "good", "danger", "border", "paper",
            "paper_ink"}  # fmt: skip
    assert keys <= set(theme.COLORS)
    families = theme.load_fonts()
    assert {"DejaVu Sans", "DejaVu Serif"} <= set(families)
    assert theme.ui_font(12).family() == "DejaVu Sans"
    f = theme.serif_font(14, bold=True, italic=True)
    assert (f.family(), f.pointSizeF(), f.bold(), f.italic()) == ("DejaVu Serif", 14, True, True)
    qss = theme.stylesheet(12)
    for role in ("title", "subtitle", "muted", "danger", "good", "gold", "panel", "log", "primary"):
        assert f'[role="{role}"]' in qss
    for widget in ("QToolTip", "QScrollBar", "QTabBar", "QHeaderView", "QProgressBar", "QMenu", "QGroupBox"):
        assert widget in qss
    assert "28.8pt" in theme.stylesheet(12) and "28.8pt" not in theme.stylesheet(10)  # scaled with the size
    for name in ("arrow-down.svg", "arrow-up.svg", "check.svg"):
        assert Path(theme.icon(name)).is_file()
    assert (Path(theme.FONTS_DIR) / "LICENSE-DejaVu.txt").is_file()


def test_create_app_is_named_and_themed(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop.app import ICON_PATH, create_app

    app = create_app(["test"], Settings(text_size=12))
    assert app is QApplication.instance()
    assert app.applicationName() == "Blacksalt"
    assert app.organizationName() == "Blacksalt"
    assert "28.8pt" in app.styleSheet() and app.font().pointSizeF() == 12
    assert ICON_PATH.is_file() and not app.windowIcon().isNull()
    create_app(["test"], Settings())  # back to the default size for the other tests


# --- start screen ------------------------------------------------------------------------------------


def test_start_screen_without_saves(qtbot, saves: Path) -> None:  # type: ignore[no-untyped-def]
    w = make_window(qtbot, saves)
    start = w.start_screen()
    assert w.current_name() == "start"
    assert not start.continue_button.isEnabled()
    assert start.empty_label.isVisible()
    assert not w.menuBar().isVisible()  # the start screen has its own buttons
    qtbot.mouseClick(start.continue_button, Qt.MouseButton.LeftButton)
    assert w.session is None


def test_the_engine_is_not_loaded_for_the_start_screen() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from desktop.app import create_app; from desktop.main_window import MainWindow; "
        "app = create_app(['t']); w = MainWindow(); "
        "print(sorted(m for m in ('rules.gm.engine', 'rules.content.registry', 'dungeon_gen') if m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60,
                         env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_continue_opens_the_last_campaign_exactly_where_it_was(qtbot, saves: Path) -> None:  # type: ignore[no-untyped-def]
    from desktop.persistence import SaveFile

    older = played(saves, seed=3, steps=4)
    path = played(saves, seed=9, steps=15)
    with SaveFile.open(path) as save:
        step = save.step
    (saves / "zz-broken.sqlite3").write_bytes(b"this is not a save")
    w = make_window(qtbot, saves)
    start = w.start_screen()
    assert start.continue_button.isEnabled()
    assert start.table.rowCount() == 3
    assert start.last is not None and start.last.path == path
    # the broken file is listed last, greyed and not selectable
    bad = start.table.item(2, 0)
    assert bad.text() == "zz-broken.sqlite3"
    assert not bad.flags() & Qt.ItemFlag.ItemIsSelectable
    assert "cannot be opened" in start.table.item(2, 1).text()
    assert older in {s.path for s in start.saves}

    qtbot.mouseClick(start.continue_button, Qt.MouseButton.LeftButton)
    assert w.session is not None
    assert w.session.path == path
    assert w.session.campaign.stats.steps == step
    assert w.current_name() == "game"
    assert w.menuBar().isVisible()
    assert "Blacksalt —" in w.windowTitle()


def test_double_click_opens_a_save_and_broken_rows_do_nothing(qtbot, saves: Path) -> None:  # type: ignore[no-untyped-def]
    first = played(saves, seed=3, steps=4)
    second = played(saves, seed=4, steps=2)
    (saves / "broken.sqlite3").write_bytes(b"junk")
    w = make_window(qtbot, saves)
    start = w.start_screen()
    rows = {str(s.path): i for i, s in enumerate(start.saves)}
    # a broken row: nothing opens, no dialog
    start._open_row(rows[str(saves / "broken.sqlite3")])
    assert w.session is None
    # double-click the older campaign's row
    row = rows[str(first)]
    rect = start.table.visualItemRect(start.table.item(row, 0))
    qtbot.mouseClick(start.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert start.selected() is not None and start.selected().path == first
    qtbot.mouseDClick(start.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert w.session is not None and w.session.path == first
    assert second != first


def test_a_damaged_save_gives_a_dialog_and_stays_untouched(qtbot, saves: Path) -> None:  # type: ignore[no-untyped-def]
    path = saves / "damaged.sqlite3"
    data = b"SQLite format 3\x00" + b"\x07" * 3000
    path.write_bytes(data)
    w = make_window(qtbot, saves)
    assert w.open_campaign(path) is False
    assert w.session is None
    box = w.error_box
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert box.icon() is QMessageBox.Icon.Warning
    assert "damaged.sqlite3" in box.text() or "not" in box.text()
    assert path.read_bytes() == data
    assert w.current_name() == "start"
    box.close()
    # a missing file as well
    assert w.open_campaign(saves / "gone.sqlite3") is False
    assert w.error_box.isVisible()


def test_keyboard_navigation(qtbot, saves: Path) -> None:  # type: ignore[no-untyped-def]
    played(saves, seed=6, steps=8)
    w = make_window(qtbot, saves)
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    assert w.current_name() == "settings"
    qtbot.keyClick(w.screens["settings"], Qt.Key.Key_Escape)
    assert w.current_name() == "start"
    qtbot.keyClick(w, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)  # the last campaign's chronicle
    assert w.current_name() == "chronicle"
    qtbot.keyClick(w.screens["chronicle"], Qt.Key.Key_Escape)
    assert w.current_name() == "start"
    qtbot.keyClick(w.start_screen(), Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # Continue
    assert w.current_name() == "game" and w.session is not None
    # settings from the game and back to the game, the campaign still open
    qtbot.keyClick(w, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    assert w.current_name() == "settings"
    qtbot.keyClick(w.screens["settings"], Qt.Key.Key_Escape)
    assert w.current_name() == "game" and w.session is not None
    qtbot.keyClick(w, Qt.Key.Key_F1)
    assert "CC BY 4.0" in w.about_box.text() and "Pedro Medeiros" in w.about_box.text()
    assert "logo is not used" in w.about_box.text()
    w.about_box.close()


def test_settings_change_restyles_the_window(qtbot, saves: Path) -> None:  # type: ignore[no-untyped-def]
    w = make_window(qtbot, saves)
    w.show_settings()
    screen = w.screens["settings"]
    screen.text_size.setValue(26)  # 13 pt
    with qtbot.waitSignal(screen.changed, timeout=2000):
        pass
    sheet = QApplication.instance().styleSheet()  # type: ignore[union-attr]
    assert "16.2pt" in sheet  # headings: 1.25 × 13 pt
    assert "31.2pt" not in sheet and "30.0pt" in sheet  # titles stop growing at 30 pt (#16.1)
    assert w.settings.text_size == 13.0
    assert Settings.load().text_size == 13.0
    screen.restore_defaults()


def test_closing_the_window_loses_nothing_and_continue_is_exact(qtbot, saves: Path) -> None:  # type: ignore[no-untyped-def]
    played(saves, seed=8, steps=5)
    w = make_window(qtbot, saves)
    w.continue_last()
    session = w.session
    assert session is not None
    for _ in range(6):
        session.autoplay()
    steps, day, phase = session.campaign.stats.steps, session.campaign.day, session.phase
    rng = session.campaign.rng
    w.close()
    assert w.session is None and session.save.closed
    w2 = make_window(qtbot, saves)
    assert w2.start_screen().last is not None and w2.start_screen().last.steps == steps
    w2.continue_last()
    c = w2.session.campaign
    assert (c.stats.steps, c.day, w2.session.phase, c.rng) == (steps, day, phase, rng)
    w2.close()


def test_quit_to_menu_closes_the_campaign(qtbot, saves: Path) -> None:  # type: ignore[no-untyped-def]
    path = played(saves, seed=2, steps=3)
    w = make_window(qtbot, saves)
    assert w.open_campaign(path)
    session = w.session
    game = w.screens["game"]
    game.quit_to_menu.emit()
    assert w.current_name() == "start" and w.session is None and session.save.closed
    assert "game" not in w.screens


def test_game_screen_failure_is_a_dialog(qtbot, saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import desktop.screens.game as game_module

    path = played(saves, seed=2, steps=1)

    def broken(*_a: object, **_k: object) -> None:
        raise RuntimeError("the screen fell over")

    monkeypatch.setattr(game_module, "GameScreen", broken)
    w = make_window(qtbot, saves)
    assert w.open_campaign(path) is False
    assert "the screen fell over" in w.error_box.text()
    assert w.session is None and w.current_name() == "start"


# --- chronicle ---------------------------------------------------------------------------------------


def test_chronicle_groups_filters_and_exports(qtbot, saves: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from desktop.screens.chronicle import ChronicleScreen

    path = played(saves, seed=11, steps=60, party=3)
    screen = ChronicleScreen(path)
    qtbot.addWidget(screen)
    screen.resize(1280, 720)
    screen.show()
    days = [d for d, _ in screen.groups]
    assert days == sorted(days, key=lambda d: -1 if d is None else d)  # each day once, in order
    assert len(days) == len(set(days))
    total = sum(len(e) for _, e in screen.groups)
    assert screen.count_label.text() == f"{total} entries"
    assert screen.days.count() == len(screen.groups)
    name = screen.summary["party"][0].split()[0]
    qtbot.keyClicks(screen.filter, name.lower())
    qtbot.keyClick(screen.filter, Qt.Key.Key_Return)
    kept = sum(len(e) for _, e in screen.matches())
    assert 0 < kept < total
    assert all(name.lower() in f"{e['text']} {e['kind']}".lower() for _, evs in screen.matches() for e in evs)
    assert screen.count_label.text() == f"{kept} of {total} entries"
    assert "class='hit'" in screen.text.toHtml() or "hit" in screen.text.toHtml()
    screen.filter.clear()
    screen.filter.setText("zzqx no such thing")
    screen.redraw()
    assert "Nothing in the chronicle matches" in screen.text.toPlainText()

    md = screen.export(tmp_path / "out.md", "md")
    text = md.read_text()
    assert text.startswith("# The chronicle of") and "## Day 1" in text
    page = screen.export(tmp_path / "out.html", "html").read_text()
    assert page.startswith("<!DOCTYPE html>")


def test_chronicle_export_dialog_and_failure(
    qtbot, saves: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QFileDialog

    from desktop.screens.chronicle import ChronicleScreen

    path = played(saves, seed=12, steps=10)
    screen = ChronicleScreen(path)
    qtbot.addWidget(screen)
    target = tmp_path / "chronicle"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    qtbot.mouseClick(screen.md_button, Qt.MouseButton.LeftButton)
    assert (tmp_path / "chronicle.md").read_text().startswith("# The chronicle of")
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, title, text: warned.append(text))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "no" / "such" / "x.html"), ""))
    qtbot.mouseClick(screen.html_button, Qt.MouseButton.LeftButton)
    assert warned and "could not be written" in warned[0]


def test_chronicle_of_the_open_session_follows_play(qtbot, saves: Path) -> None:  # type: ignore[no-untyped-def]
    from desktop.screens.chronicle import ChronicleScreen
    from desktop.session import Session

    with Session.new(seed=21, party_size=1, folder=saves) as s:
        for _ in range(5):
            s.autoplay()
        screen = ChronicleScreen(s)
        qtbot.addWidget(screen)
        n = sum(len(e) for _, e in screen.groups)
        assert n == len([e for e in s.log() if str(e["text"]).strip()])


# --- command line ------------------------------------------------------------------------------------


def test_cli_version_and_window(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import desktop.app
    from desktop.cli import run, version

    with pytest.raises(SystemExit) as exc:
        run(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"blacksalt {version()}"
    opened: list[object] = []
    monkeypatch.setattr(desktop.app, "run_window", lambda argv: opened.append(argv) or 0)
    assert run([]) == 0
    assert opened
    assert run(["--seed", "3"]) == 2  # --seed alone is a mistake, not a window
    assert run(["odds", "--dice", "2"]) == 0  # the sub-commands still work


def test_cli_screenshots_is_dispatched(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import desktop.screenshots
    from desktop.cli import run

    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(desktop.screenshots, "main", lambda out, seed=None, size=None, text_size=None, scale=None:
                        calls.append((out, seed, size, text_size, scale)) or 0)  # fmt: skip
    assert run(["--screenshots", str(tmp_path), "--seed", "42"]) == 0
    assert calls == [(tmp_path, 42, (1280, 720), None, None)]
    # every screen at the sizes #16 asks for: 1024×640, text size 20, a 2560×1440 screen at twice the density
    assert run(["--screenshots", str(tmp_path), "--size", "1024x640", "--text-size", "20", "--scale", "2"]) == 0
    assert calls[-1] == (tmp_path, None, (1024, 640), 20.0, 2.0)
    assert run(["--size", "1024x640"]) == 2  # only with --screenshots
