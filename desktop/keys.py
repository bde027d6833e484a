"""Keys: one press acts once, a dialog never takes a key pressed before it showed, and the list of every key.

* :func:`bind` makes the shortcut of a screen: window-wide (it works wherever the focus is, even after a
  mouse click deleted the focused button), live only while its screen is shown, and deaf to auto-repeat
  (holding a key down acts once).
* :class:`DialogKeyGuard` watches a dialog's keys: a press that arrives in the first :data:`GUARD_MS` after
  the dialog showed (typed ahead, meant for the screen behind it) or an auto-repeated one is dropped, and a
  release whose press the dialog never saw does nothing.
* :func:`key_help` gathers every screen's table of keys (each screen declares its ``KEYS`` beside the code
  that binds them) for the Help menu.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QKeyEvent, QKeySequence, QShortcut, QWindow
from PySide6.QtWidgets import QApplication, QWidget

#: Keys that reach a dialog this soon after it showed were pressed for what was there before: dropped.
GUARD_MS = 300

#: A screen's keys for the help: (the key as written on the keyboard, what it does).
KeyTable = Sequence[tuple[str, str]]


def bind(owner: QWidget, key: str | QKeySequence, slot: Callable[[], object]) -> QShortcut:
    """A shortcut of ``owner``'s screen: window-wide while ``owner`` is visible, never auto-repeated."""
    sc = QShortcut(QKeySequence(key), owner)
    sc.setContext(Qt.ShortcutContext.WindowShortcut)
    sc.setAutoRepeat(False)
    sc.activated.connect(lambda: slot())
    return sc


def bind_numbers(owner: QWidget, trigger: Callable[[int], object]) -> list[QShortcut]:
    """The keys 1–9 of ``owner``'s screen, each calling ``trigger(n)``."""

    def number(n: int) -> Callable[[], object]:
        return lambda: trigger(n)

    return [bind(owner, str(n), number(n)) for n in range(1, 10)]


class DialogKeyGuard(QObject):
    """Installed on a dialog: drops the keys it should not take (see the module's notes)."""

    def __init__(self, dialog: QWidget, guard_ms: int = GUARD_MS) -> None:
        super().__init__(dialog)
        self.dialog = dialog
        self.guard_ms = guard_ms
        self._shown_at = 0.0
        self._pressed: set[int] = set()
        self.dropped = 0  # how many key events were dropped (tests)
        dialog.installEventFilter(self)

    def armed(self) -> bool:
        """True once the guard time since the dialog showed has passed."""
        return (time.monotonic() - self._shown_at) * 1000 >= self.guard_ms

    def _give_focus_back(self) -> None:
        """The dialog had the keys and closes: the window it was opened over takes them back. Under X with no
        window manager nobody else does, and Qt says nothing when a focused dialog is deleted right after it
        closed (as every dialog of the game is), so :func:`keep_activation` never heard of it: every key after a
        warning went nowhere until the player clicked."""
        handle = self.dialog.windowHandle()
        if handle is None or QGuiApplication.focusWindow() != handle:
            return  # the player was in another program: the game does not take the focus back
        owner = self.dialog.parentWidget()
        if owner is None:
            return
        top = owner.window()  # a widget: a QWindow's wrapper from transientParent() dies with the dialog

        def back() -> None:
            try:
                now = QGuiApplication.focusWindow()
                if (now is None or not now.isVisible()) and top.isVisible():
                    top.activateWindow()
            except RuntimeError:  # the window was deleted meanwhile
                return

        QTimer.singleShot(0, top, back)

    def _inside(self, obj: QObject) -> bool:
        return isinstance(obj, QWidget) and (obj is self.dialog or self.dialog.isAncestorOf(obj))

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        kind = event.type()
        if obj is self.dialog and kind == QEvent.Type.Show:
            self._shown_at = time.monotonic()
            self._pressed.clear()
            app = QApplication.instance()
            if app is not None:
                app.installEventFilter(self)  # the dialog's children receive the keys: watch them all
            return False
        if obj is self.dialog and kind == QEvent.Type.Hide:
            app = QApplication.instance()
            if app is not None:
                app.removeEventFilter(self)
            self._give_focus_back()
            return False
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride, QEvent.Type.KeyRelease):
            return False
        if not self._inside(obj) or not isinstance(event, QKeyEvent):
            return False
        if event.key() in (Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Meta):
            return False
        if kind == QEvent.Type.KeyRelease:
            if event.isAutoRepeat():
                return True
            if event.key() not in self._pressed:
                self.dropped += 1
                return True  # its press went elsewhere: the release must not finish a click here
            self._pressed.discard(event.key())
            return False
        if event.isAutoRepeat() or not self.armed():
            if kind == QEvent.Type.ShortcutOverride:
                event.accept()  # claimed, so no shortcut of the dialog fires
            else:
                self.dropped += 1
            return True
        if kind == QEvent.Type.KeyPress:
            self._pressed.add(event.key())
        return False


def keep_activation(app: QGuiApplication) -> None:
    """When one of the game's dialogs closes and no window is active afterwards (under X with no window
    manager, which is what gives the window back elsewhere), the window it was opened over is made active
    again: otherwise every key after a warning or a dice roll went nowhere until the player clicked.
    A dialog left for another program (still shown) is not followed: the game never takes the focus back."""
    if app.property("blacksalt_keeps_activation"):
        return
    app.setProperty("blacksalt_keeps_activation", True)
    last: list[QWindow | None] = [None]

    def back(parent: QWindow) -> None:
        if QGuiApplication.focusWindow() is None and parent.isVisible():
            parent.requestActivate()

    def changed(window: QWindow | None) -> None:
        before, last[0] = last[0], window
        if window is not None or before is None:
            return
        try:
            parent = before.transientParent()
            closed = not before.isVisible()
        except RuntimeError:  # the dialog is already deleted
            return
        if closed and parent is not None:
            QTimer.singleShot(0, parent, lambda: back(parent))

    app.focusWindowChanged.connect(changed)


def key_help() -> list[tuple[str, KeyTable]]:
    """Every key of the game, screen by screen (read from the screens' own tables)."""
    from desktop.decider import CHOICE_KEYS
    from desktop.main_window import WINDOW_KEYS
    from desktop.screens.camp import CampView
    from desktop.screens.combat import CombatView
    from desktop.screens.expedition import ExplorationView
    from desktop.screens.game import GameScreen
    from desktop.screens.interlude import InterludeView
    from desktop.screens.new_campaign import NewCampaignScreen
    from desktop.widgets.dice_tray import DiceTray
    from desktop.widgets.map_view import MapView

    return [
        ("Anywhere", WINDOW_KEYS),
        ("A new company", NewCampaignScreen.KEYS),
        ("Playing", GameScreen.KEYS),
        ("Exploring", ExplorationView.KEYS),
        ("The map", MapView.KEYS),
        ("Combat", CombatView.KEYS),
        ("Camp", CampView.KEYS),
        ("In town", InterludeView.KEYS),
        ("The dice tray", DiceTray.KEYS),
        ("A decision", CHOICE_KEYS),
    ]


def key_help_html() -> str:
    """:func:`key_help` as a table for the Help menu's dialog."""
    from html import escape

    rows = []
    for title, table in key_help():
        rows.append(f"<tr><td colspan='2'><h3 style='margin:8px 0 2px 0'>{escape(title)}</h3></td></tr>")
        for key, what in table:
            rows.append(f"<tr><td style='padding-right:14px'><b>{escape(key)}</b></td><td>{escape(what)}</td></tr>")
    return "<table>" + "".join(rows) + "</table>"
