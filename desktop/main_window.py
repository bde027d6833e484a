"""The one window: a stack of screens made when first needed, the menus and shortcuts, and the session.

Screens owned by other parts of the desktop are imported inside the methods that show them, so the start
screen appears before the engine is ever imported.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QFrame,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QStackedWidget,
    QWidget,
)

from desktop.screens.start import StartScreen
from desktop.settings import Settings

if TYPE_CHECKING:
    from desktop.session import Session

CREDIT = (
    "<p><i>Dead Weight</i> by Pedro Medeiros, licensed "
    '<a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a> '
    "(https://creativecommons.org/licenses/by/4.0/). Blacksalt is an unofficial adaptation; "
    "the Dead Weight logo is not used.</p>"
)


def about_text(version: str) -> str:
    """The About box's rich text (the licence's required credit included)."""
    return (
        f"<h2 style='font-family:\"DejaVu Serif\"'>Blacksalt</h2>"
        f"<p>Version {version}</p>"
        "<p>A solo game of <i>Dead Weight</i> on Blacksalt Island: a party of one to four adventurers, "
        "generated dungeons and an automated GM that runs every procedure of the rules.</p>"
        f"{CREDIT}"
        "<p>Fonts: DejaVu (Bitstream Vera licence). Code: MIT.</p>"
    )


#: The window's own keys (the Help menu lists them with every screen's).
WINDOW_KEYS = (
    ("Ctrl+N", "New campaign"),
    ("Ctrl+O", "Load a campaign"),
    ("Ctrl+Enter", "Continue the last campaign (start screen)"),
    ("Ctrl+L", "The chronicle"),
    ("Ctrl+W", "The dungeon workshop"),
    ("Ctrl+,", "Settings"),
    ("?", "This list of keys"),
    ("F1", "About Blacksalt"),
    ("Ctrl+Q", "Quit (every step is already saved)"),
    ("Esc", "Back from the chronicle or the settings"),
)


def first_size() -> tuple[int, int]:
    """The window's size when it opens: 1280×760, within the screen's free area (on a 1280×720 screen the
    bottom row of buttons was below the screen's edge), never under the least size the window allows."""
    screen = QApplication.primaryScreen()
    if screen is None:
        return 1280, 760
    room = screen.availableGeometry()
    return max(1024, min(1280, room.width())), max(640, min(760, room.height()))


class ScreenScroll(QScrollArea):
    """A screen in the window: it fills the window, and scrolls when the window is smaller than the least the
    screen needs (at 1024×640 with a large text size) rather than squeezing its parts over each other."""

    def __init__(self, screen: QWidget) -> None:
        super().__init__()
        self.setObjectName("screen_scroll")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        # never the focus itself: it took it when the window was activated, and the keys (Enter on the start
        # screen, the arrows on the map) went to scrolling instead of to the screen
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setWidget(screen)


def _accepts(cls: Any, name: str) -> bool:
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


class MainWindow(QMainWindow):
    """Blacksalt's window.  ``saves_folder``: where campaigns are listed and created (default: the user's)."""

    def __init__(
        self, settings: Settings | None = None, saves_folder: Path | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.settings = settings if settings is not None else Settings.load()
        self.saves_folder = saves_folder
        self.session: Session | None = None
        self.setWindowTitle("Blacksalt")
        self.setMinimumSize(1024, 640)
        self.resize(*first_size())

        self.stack = QStackedWidget()
        self.setCentralWidget(self.stack)
        self.screens: dict[str, QWidget] = {}
        self._back_to = "start"
        self._build_actions()
        self.show_start()

    # --- menus and shortcuts ------------------------------------------------------------------------------

    def _action(self, text: str, shortcut: QKeySequence | str | None, slot: Any, tip: str = "") -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        if tip:
            a.setStatusTip(tip)
        a.triggered.connect(lambda _checked=False: slot())
        self.addAction(a)  # shortcuts work while the menu bar is hidden
        return a

    def _build_actions(self) -> None:
        self.act_new = self._action("&New campaign…", "Ctrl+N", self.show_new_campaign)
        self.act_load = self._action("&Load campaign…", "Ctrl+O", self.load_campaign)
        self.act_continue = self._action("&Continue", None, self.continue_last)
        self.act_menu = self._action("Main &menu", None, self.show_start)
        self.act_chronicle = self._action("C&hronicle", "Ctrl+L", self.show_chronicle)
        self.act_workshop = self._action("Dungeon &workshop", "Ctrl+W", self.show_workshop)
        self.act_settings = self._action("&Settings", "Ctrl+,", self.show_settings)
        self.act_about = self._action("&About Blacksalt", QKeySequence(Qt.Key.Key_F1), self.show_about)
        self.act_quit = self._action("&Quit", "Ctrl+Q", self.close)
        self.act_quit.setMenuRole(QAction.MenuRole.QuitRole)
        self.act_settings.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.act_about.setMenuRole(QAction.MenuRole.AboutRole)
        bar = self.menuBar()
        game = bar.addMenu("&Game")
        for a in (self.act_new, self.act_load, self.act_continue, self.act_menu):
            game.addAction(a)
        game.addSeparator()
        game.addAction(self.act_chronicle)
        game.addAction(self.act_workshop)
        game.addAction(self.act_settings)
        game.addSeparator()
        game.addAction(self.act_quit)
        help_menu = bar.addMenu("&Help")
        self.act_keys = self._action("&Keys…", "?", self.show_keys)
        help_menu.addAction(self.act_keys)
        help_menu.addAction(self.act_about)

    # --- screens ----------------------------------------------------------------------------------------

    def current_name(self) -> str:
        w = self.stack.currentWidget()
        return next((name for name, s in self.screens.items() if self._holder(s) is w), "")

    def _holder(self, screen: QWidget) -> QWidget:
        """The page of the stack that shows ``screen`` (its :class:`ScreenScroll`)."""
        for i in range(self.stack.count()):
            page = self.stack.widget(i)
            if isinstance(page, ScreenScroll) and page.widget() is screen:
                return page
        return screen

    def _drop(self, screen: QWidget) -> None:
        page = self._holder(screen)
        self.stack.removeWidget(page)
        page.deleteLater()

    def _show(self, name: str, widget: QWidget) -> None:
        if self.screens.get(name) is not widget:
            old = self.screens.pop(name, None)
            if old is not None:
                self._drop(old)
            self.screens[name] = widget
            self.stack.addWidget(ScreenScroll(widget))
        here = self.current_name()
        if here and here not in ("chronicle", "settings", name):
            self._back_to = here
        self.stack.setCurrentWidget(self._holder(widget))
        self.menuBar().setVisible(name != "start")
        self._update_title()

    def _update_title(self) -> None:
        s = self.session
        if s is None:
            self.setWindowTitle("Blacksalt")
            return
        c = s.campaign
        self.setWindowTitle(f"Blacksalt — {', '.join(m.name.split()[0] for m in c.party)} — day {c.day}")

    def start_screen(self) -> StartScreen:
        screen = self.screens.get("start")
        if not isinstance(screen, StartScreen):
            screen = StartScreen(self.saves_folder)
            screen.continue_requested.connect(self.open_campaign)
            screen.open_requested.connect(self.open_campaign)
            screen.new_campaign.connect(self.show_new_campaign)
            screen.open_file.connect(self.open_file)
            screen.workshop.connect(self.show_workshop)
            screen.settings.connect(self.show_settings)
            screen.about.connect(self.show_about)
            screen.quit.connect(self.close)
        return screen

    def show_start(self) -> None:
        """The start screen (the open campaign, if any, is closed: every step of it is saved)."""
        self.close_session()
        screen = self.start_screen()
        self._show("start", screen)
        if screen._loaded:
            screen.refresh()
        screen.focus_first()

    def show_new_campaign(self) -> None:
        try:
            from desktop.screens.new_campaign import NewCampaignScreen
        except ImportError as exc:
            self.error("New campaign", f"The new campaign screen is missing from this build ({exc}).")
            return
        kwargs: dict[str, Any] = {}
        if self.saves_folder is not None and _accepts(NewCampaignScreen, "folder"):
            kwargs["folder"] = self.saves_folder
        if _accepts(NewCampaignScreen, "settings"):
            kwargs["settings"] = self.settings
        screen = NewCampaignScreen(**kwargs)
        screen.created.connect(self.start_session)
        screen.cancelled.connect(self.show_start)
        self._show("new_campaign", screen)
        screen.setFocus()  # its keys (R, K, 1–4) listen within the screen: they work at once, before any click

    def continue_last(self) -> None:
        from desktop.session import last_campaign

        path = last_campaign(self.saves_folder)
        if path is None:
            self.error("Continue", "There is no campaign to continue yet.")
            return
        self.open_campaign(path)

    def load_campaign(self) -> None:
        """Ctrl+O: the list of saves on the start screen."""
        self.show_start()
        screen = self.start_screen()
        if not screen._loaded:
            screen.refresh()
        screen._load()

    def open_file(self) -> None:
        from desktop.persistence import default_folder

        start = self.saves_folder if self.saves_folder is not None else default_folder()
        path, _ = QFileDialog.getOpenFileName(
            self, "Open a campaign", str(start if start.is_dir() else Path.home()), "Blacksalt campaigns (*.sqlite3)"
        )
        if path:
            self.open_campaign(Path(path))

    def open_campaign(self, path: Path | str) -> bool:
        """Open a saved campaign and play it; a bad file gives a dialog and stays as it was."""
        from desktop.persistence import SaveError
        from desktop.session import Session

        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            session = Session.open(Path(path))
        except SaveError as exc:
            QApplication.restoreOverrideCursor()
            self.error("This campaign cannot be opened", str(exc))
            return False
        except (ValueError, OSError) as exc:
            QApplication.restoreOverrideCursor()
            self.error("This campaign cannot be opened", f"{Path(path).name}: {exc}")
            return False
        QApplication.restoreOverrideCursor()
        if session.warnings:
            QMessageBox.information(self, "Campaign opened", "\n\n".join(session.warnings))
        return self.start_session(session)

    def start_session(self, session: Session) -> bool:
        """Play ``session`` (a new or opened campaign) on the game screen."""
        if self.session is not None and self.session is not session:
            self.close_session()
        self.session = session
        try:
            from desktop.screens.game import GameScreen

            screen = GameScreen(session, self.settings)
        except Exception as exc:  # a screen that cannot be built must not take the window down
            self.session = None
            session.close()
            self.error("The game screen could not open", f"{type(exc).__name__}: {exc}")
            self.show_start()
            return False
        quit_signal = getattr(screen, "quit_to_menu", None)
        if quit_signal is not None:
            quit_signal.connect(self.show_start)
        chronicle_signal = getattr(screen, "chronicle_requested", None)
        if chronicle_signal is not None:
            chronicle_signal.connect(self.show_chronicle)
        session.listeners.append(lambda _events: self._update_title())
        self._show("game", screen)
        screen.setFocus()
        refresh = getattr(screen, "refresh", None)
        if refresh is not None:
            refresh([])  # now shown: the keys go to the phase view (the arrows move the fight's cursor at once)
        return True

    def close_session(self) -> None:
        """Close the open campaign (nothing is lost: every step is committed before the next is played, and the
        last one here)."""
        game = self.screens.pop("game", None)
        if game is not None:
            self._drop(game)
        chronicle = self.screens.pop("chronicle", None)
        if chronicle is not None:
            self._drop(chronicle)
        if self.session is not None:
            session, self.session = self.session, None
            try:
                session.close()  # the last step's transaction, written while its result was painted, first
            except Exception as exc:  # closing must never crash the window; a step not saved must be told
                self.error("The last step was not saved", f"The save did not close cleanly: {exc}")
        self._update_title()

    def show_workshop(self) -> None:
        screen = self.screens.get("workshop")
        if screen is None:
            try:
                from desktop.screens.workshop import WorkshopScreen

                screen = WorkshopScreen()
            except Exception as exc:
                self.error("Dungeon workshop", f"The workshop could not open: {type(exc).__name__}: {exc}")
                return
            back = getattr(screen, "back", None)
            if back is not None:
                back.connect(self.go_back)
        self._show("workshop", screen)

    def show_chronicle(self) -> None:
        """The chronicle of the open campaign, or of the last one played."""
        from desktop.screens.chronicle import ChronicleScreen

        source: Session | Path | None = self.session
        if source is None:
            from desktop.session import last_campaign

            start = self.screens.get("start")
            chosen = start.selected() if isinstance(start, StartScreen) else None
            source = chosen.path if chosen is not None else last_campaign(self.saves_folder)
        if source is None:
            self.error("Chronicle", "There is no campaign yet, so no chronicle to read.")
            return
        try:
            screen = ChronicleScreen(source)
        except Exception as exc:
            self.error("Chronicle", f"The chronicle could not be read: {exc}")
            return
        screen.back.connect(self.go_back)
        self._show("chronicle", screen)

    def show_settings(self) -> None:
        from desktop.screens.settings_screen import SettingsScreen

        screen = self.screens.get("settings")
        if not isinstance(screen, SettingsScreen):
            screen = SettingsScreen(self.settings, self.saves_folder)
            screen.changed.connect(self.apply_settings)
            screen.back.connect(self.go_back)
        self._show("settings", screen)

    def apply_settings(self, settings: Settings) -> None:
        """New settings: re-dress the window, tell the game screen, keep them."""
        from desktop.theme import apply_theme

        self.settings = settings
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, settings)
        game = self.screens.get("game")
        hook = getattr(game, "apply_settings", None)
        if callable(hook):
            hook(settings)

    def go_back(self) -> None:
        """Back from the chronicle, settings or workshop to where the player came from."""
        target = self._back_to
        if target == "game" and "game" in self.screens and self.session is not None:
            self._show("game", self.screens["game"])
        elif target in self.screens and target not in ("start", "chronicle", "settings"):
            self._show(target, self.screens[target])
        else:
            self.show_start() if self.session is None else self._show("game", self.screens["game"])

    def show_keys(self) -> None:
        """Every key of the game, screen by screen (from the screens' own tables)."""
        from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

        from desktop.keys import key_help_html

        dlg = QDialog(self)
        dlg.setObjectName("keys_dialog")
        dlg.setWindowTitle("Keys")
        dlg.resize(620, 640)
        col = QVBoxLayout(dlg)
        text = QTextBrowser(dlg)
        text.setObjectName("keys_text")
        text.setHtml(key_help_html())
        col.addWidget(text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dlg)
        buttons.rejected.connect(dlg.reject)
        col.addWidget(buttons)
        self.keys_dialog = dlg
        dlg.open()

    def show_about(self) -> None:
        from desktop.app import version

        box = QMessageBox(self)
        box.setWindowTitle("About Blacksalt")
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(about_text(version()))
        icon = QApplication.windowIcon()
        if not icon.isNull():
            box.setIconPixmap(icon.pixmap(96, 96))
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        self.about_box = box
        box.open()

    # --- errors and closing -----------------------------------------------------------------------------

    def error(self, title: str, message: str) -> None:
        """An error the player must see: a dialog, never a traceback."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        self.error_box = box
        box.open()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.close_session()
        super().closeEvent(event)
