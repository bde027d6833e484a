"""The settings screen: text size, who decides rerolls, animation speed, and where the saves live.

Every change applies at once and is written to the settings file (the player saving it).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from desktop.settings import ANIMATION_SPEEDS, TEXT_SIZE_MAX, TEXT_SIZE_MIN, Settings, settings_path
from desktop.widgets.header import screen_header

PROFICIENCY_RULE = (
    "“Players may reroll a number of dice if they have proficiency on that attribute. For example a character "
    "with 2 points in intelligence proficiency can reroll 2 dice when testing for intelligence. Players may "
    "choose to use their proficiency dice one at the time.” — Dead Weight, core rules"
)


#: The window's shortcuts (the game screens add their own, shown on their buttons).
SHORTCUTS = [
    ("Ctrl+N", "New campaign"),
    ("Ctrl+O", "Load a campaign"),
    ("Ctrl+Enter", "Continue (start screen)"),
    ("Ctrl+L", "Chronicle"),
    ("Ctrl+W", "Dungeon workshop"),
    ("Ctrl+,", "Settings"),
    ("F1", "About Blacksalt"),
    ("Esc", "Back"),
    ("Ctrl+F", "Search the chronicle"),
    ("Ctrl+Q", "Quit (everything is saved)"),
]


class SettingsScreen(QWidget):
    """``changed(Settings)`` after every change (already saved); ``back()`` to leave."""

    changed = Signal(object)
    back = Signal()

    def __init__(self, settings: Settings, saves_folder: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self._saves_folder = saves_folder
        self._apply_timer = QTimer(self)
        self._apply_timer.setSingleShot(True)
        self._apply_timer.setInterval(250)
        self._apply_timer.timeout.connect(self._commit)

        root = QVBoxLayout(self)
        root.setContentsMargins(40, 24, 40, 24)
        root.setSpacing(16)
        top, self.back_button, _, _ = screen_header(
            "Settings", self._leave, [("Changes take effect at once and are kept for the next time.", "muted")]
        )
        root.addLayout(top)

        self.error_label = QLabel(settings.load_error or "")
        self.error_label.setProperty("role", "danger")
        self.error_label.setWordWrap(True)
        self.error_label.setVisible(bool(settings.load_error))
        root.addWidget(self.error_label)

        columns = QHBoxLayout()
        columns.setSpacing(18)
        root.addLayout(columns, 1)

        # --- reading and play ---
        play, pl = self._panel("Reading and play")
        grid = QGridLayout()
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(14)
        grid.setColumnStretch(1, 1)
        grid.addWidget(self._caption("Text size"), 0, 0)
        self.text_size = QSlider(Qt.Orientation.Horizontal)
        self.text_size.setRange(int(TEXT_SIZE_MIN * 2), int(TEXT_SIZE_MAX * 2))  # half points
        self.text_size.setSingleStep(1)
        self.text_size.setPageStep(2)
        self.text_size.setValue(round(settings.text_size * 2))
        self.text_size.setToolTip("The size of every text in the game (Ctrl+= larger, Ctrl+- smaller)")
        self.text_size.valueChanged.connect(self._text_size_moved)
        grid.addWidget(self.text_size, 0, 1)
        self.text_size_value = QLabel()
        self.text_size_value.setProperty("role", "gold")
        self.text_size_value.setMinimumWidth(60)
        grid.addWidget(self.text_size_value, 0, 2)
        self.sample = QLabel("The lantern gutters. Something breathes beyond the door.")
        self.sample.setProperty("role", "log")
        self.sample.setWordWrap(True)
        grid.addWidget(self.sample, 1, 1, 1, 2)

        grid.addWidget(self._caption("Rerolls"), 2, 0, Qt.AlignmentFlag.AlignTop)
        self.gm_rerolls = QCheckBox("The GM decides all rerolls")
        self.gm_rerolls.setChecked(settings.gm_rerolls)
        self.gm_rerolls.setToolTip(
            "On: proficiency rerolls are chosen for you and the dice tray does not stop for them — a faster game."
            f"<br><br><i>{PROFICIENCY_RULE}</i>"
        )
        self.gm_rerolls.toggled.connect(lambda on: self._set(gm_rerolls=on))
        grid.addWidget(self.gm_rerolls, 2, 1, 1, 2)
        hint = QLabel("Off: after each roll you click the dice to reroll with your proficiency.")
        hint.setProperty("role", "muted")
        hint.setWordWrap(True)
        grid.addWidget(hint, 3, 1, 1, 2)

        grid.addWidget(self._caption("Animations"), 4, 0)
        self.animation = QSlider(Qt.Orientation.Horizontal)
        self.animation.setRange(min(ANIMATION_SPEEDS), max(ANIMATION_SPEEDS))
        self.animation.setPageStep(1)
        self.animation.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.animation.setTickInterval(1)
        self.animation.setValue(settings.animation_speed)
        self.animation.setToolTip("How long the dice tumble in the tray before they settle: off, normal or fast")
        self.animation.valueChanged.connect(lambda v: self._set(animation_speed=v))
        grid.addWidget(self.animation, 4, 1)
        self.animation_value = QLabel()
        self.animation_value.setProperty("role", "gold")
        grid.addWidget(self.animation_value, 4, 2)
        pl.addLayout(grid)
        left = QVBoxLayout()
        left.setSpacing(18)
        left.addWidget(play)
        keys, kl = self._panel("Keyboard")
        kgrid = QGridLayout()
        kgrid.setHorizontalSpacing(18)
        kgrid.setVerticalSpacing(6)
        half = (len(SHORTCUTS) + 1) // 2
        for i, (key, what) in enumerate(SHORTCUTS):
            k = QLabel(key)
            k.setProperty("role", "gold")
            w = QLabel(what)
            kgrid.addWidget(k, i % half, (i // half) * 2)
            kgrid.addWidget(w, i % half, (i // half) * 2 + 1)
        kgrid.setColumnStretch(1, 1)
        kgrid.setColumnStretch(3, 1)
        kl.addLayout(kgrid)
        kl.addStretch(1)
        left.addWidget(keys, 1)
        columns.addLayout(left, 3)

        # --- saving ---
        saving, sl = self._panel("Saving")
        auto = QCheckBox("Autosave after every step")
        auto.setChecked(True)
        auto.setEnabled(False)
        auto.setToolTip("Always on: each action is written to the campaign's file before its result is shown.")
        sl.addWidget(auto)
        expl = QLabel(
            "Always on. Each action is written to the campaign's file the moment it is played: close the "
            "window at any time and Continue picks up exactly there."
        )
        expl.setProperty("role", "muted")
        expl.setWordWrap(True)
        sl.addWidget(expl)
        sl.addWidget(self._caption("Campaigns are saved in"))
        self.folder_label = QLabel(str(self.saves_folder))
        self.folder_label.setWordWrap(True)
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.folder_label.setProperty("role", "gold")
        sl.addWidget(self.folder_label)
        self.open_folder = QPushButton("Open the saves folder")
        self.open_folder.setToolTip("Show the campaign files in your file manager")
        self.open_folder.clicked.connect(self.open_saves_folder)
        sl.addWidget(self.open_folder, 0, Qt.AlignmentFlag.AlignLeft)
        sl.addSpacing(10)
        sl.addWidget(self._caption("Settings file"))
        cfg = QLabel(str(settings_path()))
        cfg.setProperty("role", "muted")
        cfg.setWordWrap(True)
        cfg.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        sl.addWidget(cfg)
        sl.addStretch(1)
        self.reset_button = QPushButton("Restore the defaults")
        self.reset_button.clicked.connect(self.restore_defaults)
        sl.addWidget(self.reset_button, 0, Qt.AlignmentFlag.AlignLeft)
        columns.addWidget(saving, 2)

        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self._leave)
        QShortcut(QKeySequence.StandardKey.ZoomIn, self, lambda: self.text_size.setValue(self.text_size.value() + 1))
        QShortcut(QKeySequence("Ctrl+="), self, lambda: self.text_size.setValue(self.text_size.value() + 1))
        QShortcut(QKeySequence.StandardKey.ZoomOut, self, lambda: self.text_size.setValue(self.text_size.value() - 1))
        self._show_values()

    @property
    def saves_folder(self) -> Path:
        return self._saves_folder if self._saves_folder is not None else self.settings.saves_folder

    @staticmethod
    def _panel(title: str) -> tuple[QFrame, QVBoxLayout]:
        f = QFrame()
        f.setProperty("role", "panel")
        lay = QVBoxLayout(f)
        lay.setContentsMargins(20, 16, 20, 18)
        lay.setSpacing(10)
        head = QLabel(title)
        head.setProperty("role", "heading")
        lay.addWidget(head)
        return f, lay

    @staticmethod
    def _caption(text: str) -> QLabel:
        label = QLabel(text)
        label.setProperty("role", "gold")
        return label

    def _show_values(self) -> None:
        size = self.text_size.value() / 2
        self.text_size_value.setText(f"{size:g} pt")
        self.animation_value.setText(ANIMATION_SPEEDS[self.animation.value()])

    # --- changing ----------------------------------------------------------------------------------------

    def _text_size_moved(self, _value: int) -> None:
        self._show_values()
        self._apply_timer.start()  # re-styling the whole window is not free: wait until the slider rests

    def _set(self, **changes: object) -> None:
        # changed in place: the game screen and the dice tray hold this same object
        for key, value in changes.items():
            setattr(self.settings, key, value)
        self.settings.__post_init__()
        self._show_values()
        self._save_and_tell()

    def _commit(self) -> None:
        size = self.text_size.value() / 2
        if size != self.settings.text_size:
            self._set(text_size=size)

    def _save_and_tell(self) -> None:
        try:
            self.settings.save()
        except OSError as exc:
            QMessageBox.warning(self, "Settings not saved", f"The settings could not be written: {exc}")
        self.error_label.hide()
        self.changed.emit(self.settings)

    def restore_defaults(self) -> None:
        d = Settings()
        for w in (self.text_size, self.gm_rerolls, self.animation):
            w.blockSignals(True)
        self.text_size.setValue(round(d.text_size * 2))
        self.gm_rerolls.setChecked(d.gm_rerolls)
        self.animation.setValue(d.animation_speed)
        for w in (self.text_size, self.gm_rerolls, self.animation):
            w.blockSignals(False)
        # the warnings silenced with "don't ask again" come back too
        self._set(text_size=d.text_size, gm_rerolls=d.gm_rerolls, animation_speed=d.animation_speed,
                  dont_ask=list(d.dont_ask))  # fmt: skip

    def _leave(self) -> None:
        if self._apply_timer.isActive():
            self._apply_timer.stop()
            self._commit()
        self.back.emit()

    def open_saves_folder(self) -> None:
        folder = self.saves_folder
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            QMessageBox.warning(self, "Saves folder", f"{folder} cannot be created: {exc}")
            return
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))):
            QMessageBox.information(self, "Saves folder", f"Your campaigns are saved in:\n{folder}")
