"""The start screen: continue, new campaign, the saved campaigns, the workshop, settings, about, quit.

Fast to show: it imports neither the engine nor the rules content; the list of saves is read just after
the screen first appears (:meth:`StartScreen.refresh`).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QKeySequence,
    QLinearGradient,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QRadialGradient,
    QResizeEvent,
    QShortcut,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.theme import COLORS

if TYPE_CHECKING:
    from desktop.persistence import SaveInfo

PHASE_WORDS = {
    "interlude": "in town",
    "exploration": "exploring",
    "combat": "fighting",
    "camp": "camping",
    "over": "ended",
}


def when(t: datetime | None, now: datetime | None = None) -> str:
    """'today 14:02', 'yesterday 09:10', '3 days ago', '12 Mar 2025'."""
    if t is None:
        return "—"
    now = now or datetime.now(t.tzinfo)
    local = t.astimezone() if t.tzinfo is not None else t
    days = (now.astimezone().date() if now.tzinfo is not None else now.date()) - local.date()
    if days.days <= 0:
        return f"today {local:%H:%M}"
    if days.days == 1:
        return f"yesterday {local:%H:%M}"
    if days.days < 7:
        return f"{days.days} days ago"
    return f"{local.day} {local:%b %Y}"


def describe(info: SaveInfo) -> str:
    """One line about a save: party, where, day, phase."""
    where = info.location or "somewhere"
    phase = info.outcome or PHASE_WORDS.get(info.phase, info.phase)
    day = f"day {info.day}" if info.day is not None else ""
    return " · ".join(x for x in (", ".join(info.party) or info.path.stem, where, day, phase) if x)


class _Backdrop(QWidget):
    """The painted background: black stone, a red glow from below, the sea's faint lines."""

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = QRectF(self.rect())
        base = QLinearGradient(r.topLeft(), r.bottomLeft())
        base.setColorAt(0.0, QColor("#0f0d0a"))
        base.setColorAt(0.55, QColor(COLORS["bg"]))
        base.setColorAt(1.0, QColor("#1d1510"))
        p.fillRect(r, base)
        glow = QRadialGradient(QPointF(r.width() * 0.18, r.height() * 1.05), r.width() * 0.55)
        glow.setColorAt(0.0, QColor(142, 27, 27, 95))
        glow.setColorAt(0.6, QColor(142, 27, 27, 20))
        glow.setColorAt(1.0, QColor(142, 27, 27, 0))
        p.fillRect(r, glow)
        # the sea: thin wavering lines low on the screen
        pen = QPen(QColor(176, 141, 87, 18), 1.0)
        p.setPen(pen)
        h0 = r.height() * 0.78
        for i in range(14):
            y = h0 + i * i * 0.9
            p.drawLine(QPointF(0, y), QPointF(r.width(), y + (i % 3 - 1) * 2))
        vignette = QRadialGradient(r.center(), max(r.width(), r.height()) * 0.75)
        vignette.setColorAt(0.6, QColor(0, 0, 0, 0))
        vignette.setColorAt(1.0, QColor(0, 0, 0, 150))
        p.fillRect(r, vignette)
        p.end()


class StartScreen(QWidget):
    """The first screen.  ``folder``: where saves are listed (default: the user's saves folder)."""

    continue_requested = Signal(object)  # Path of the last campaign
    open_requested = Signal(object)  # Path of a chosen save
    new_campaign = Signal()
    open_file = Signal()  # "Open a file…" (a save outside the saves folder)
    workshop = Signal()
    settings = Signal()
    about = Signal()
    quit = Signal()

    def __init__(self, folder: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.folder = folder
        self.saves: list[SaveInfo] = []
        self.last: SaveInfo | None = None
        self._loaded = False

        backdrop = _Backdrop(self)
        self._backdrop = backdrop
        root = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self.root_layout = root
        root.setContentsMargins(56, 32, 40, 28)
        root.setSpacing(40)

        # --- left: the title and the menu ---
        left = QVBoxLayout()
        left.setSpacing(10)
        emblem = QLabel()
        emblem.setPixmap(self._emblem(76))
        emblem.setFixedSize(76, 76)
        title = QLabel("BLACKSALT")
        title.setProperty("role", "hero")
        head = QHBoxLayout()
        head.setSpacing(14)
        head.addWidget(emblem, 0, Qt.AlignmentFlag.AlignVCenter)
        head.addWidget(title, 1, Qt.AlignmentFlag.AlignVCenter)
        left.addLayout(head)
        subtitle = QLabel("The island keeps what the sea gives it.")
        subtitle.setProperty("role", "subtitle")
        left.addWidget(subtitle)
        left.addSpacing(18)

        self.continue_button = self._menu_button("Continue", "Ctrl+Return", primary=True)
        self.continue_button.clicked.connect(self._continue)
        self.continue_button.setEnabled(False)  # until the saves are read, just after the first paint
        left.addWidget(self.continue_button)
        self.continue_label = QLabel("No campaign yet.")
        self.continue_label.setProperty("role", "muted")
        self.continue_label.setWordWrap(True)
        self.continue_label.setContentsMargins(4, 0, 0, 6)
        left.addWidget(self.continue_label)
        self.new_button = self._menu_button("New campaign", "Ctrl+N")
        self.new_button.clicked.connect(self.new_campaign)
        left.addWidget(self.new_button)
        self.load_button = self._menu_button("Load campaign", "Ctrl+O")
        self.load_button.clicked.connect(self._load)
        left.addWidget(self.load_button)
        self.workshop_button = self._menu_button("Dungeon workshop", "Ctrl+W")
        self.workshop_button.setToolTip("For GMs: generate, inspect and export dungeons for your own table.")
        self.workshop_button.clicked.connect(self.workshop)
        left.addWidget(self.workshop_button)
        self.settings_button = self._menu_button("Settings", "Ctrl+,")
        self.settings_button.clicked.connect(self.settings)
        left.addWidget(self.settings_button)
        row = QHBoxLayout()
        row.setSpacing(8)
        self.about_button = QPushButton("About")
        self.about_button.setToolTip("About Blacksalt and Dead Weight (F1)")
        self.about_button.clicked.connect(self.about)
        self.quit_button = QPushButton("Quit")
        self.quit_button.setToolTip("Quit (Ctrl+Q). Every step is already saved.")
        self.quit_button.clicked.connect(self.quit)
        row.addWidget(self.about_button)
        row.addWidget(self.quit_button)
        left.addLayout(row)
        left.addStretch(1)
        credit = QLabel("<i>Dead Weight</i> by Pedro Medeiros, CC BY 4.0. An unofficial adaptation.")
        credit.setProperty("role", "muted")
        credit.setWordWrap(True)
        left.addWidget(credit)
        left_box = QWidget()
        left_box.setLayout(left)
        # the menu keeps its width beside the campaigns where there is room, and gives way at 1024 px (the
        # campaigns once covered it: a fixed 520 px menu beside a panel that could not shrink)
        title.ensurePolished()  # the hero font of the stylesheet, so the title is measured as it is drawn
        subtitle.setWordWrap(True)  # italic runs past its measured width: wrapped, never cut
        left_box.setMinimumWidth(max(340, 76 + 14 + title.sizeHint().width() + 8))
        left_box.setMaximumWidth(520)
        left_box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.menu_box = left_box
        root.addWidget(left_box, 3)

        # --- right: the saved campaigns ---
        panel = QFrame()
        panel.setProperty("role", "panel")
        pl = QVBoxLayout(panel)
        pl.setContentsMargins(18, 16, 18, 16)
        pl.setSpacing(10)
        head = QHBoxLayout()
        heading = QLabel("Campaigns")
        heading.setProperty("role", "heading")
        head.addWidget(heading)
        head.addStretch(1)
        self.count_label = QLabel("")
        self.count_label.setProperty("role", "muted")
        head.addWidget(self.count_label)
        pl.addLayout(head)

        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["Party", "Where", "Day", "Last played"])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        hh.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        hh.setHighlightSections(False)
        hh.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.table.verticalHeader().setDefaultSectionSize(34)
        self.table.cellDoubleClicked.connect(lambda row, _col: self._open_row(row))
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.table.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        pl.addWidget(self.table, 1)

        self.empty_label = QLabel(
            "No campaigns yet. Begin one with <b>New campaign</b>: every step is saved as you play."
        )
        self.empty_label.setProperty("role", "muted")
        self.empty_label.setWordWrap(True)
        self.empty_label.hide()
        pl.addWidget(self.empty_label)

        buttons = QHBoxLayout()
        self.open_button = QPushButton("Open")
        self.open_button.setProperty("role", "primary")
        self.open_button.setToolTip("Open the chosen campaign (Enter, or double-click it)")
        self.open_button.clicked.connect(self._open_selected)
        self.open_button.setEnabled(False)
        self.file_button = QPushButton("Open a file…")
        self.file_button.setToolTip("Open a campaign saved somewhere else")
        self.file_button.clicked.connect(self.open_file)
        self.folder_label = QLabel("")
        self.folder_label.setProperty("role", "muted")
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # a long path is cut, not a reason for the panel to push over the menu (its tooltip has it whole)
        self.folder_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.folder_label.setMinimumWidth(40)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.file_button)
        buttons.addSpacing(10)
        buttons.addWidget(self.folder_label, 1)
        pl.addLayout(buttons)
        panel.setMinimumWidth(300)
        self.campaigns_panel = panel
        root.addWidget(panel, 4)

        QShortcut(QKeySequence("Ctrl+Return"), self, self._continue)
        QShortcut(QKeySequence(Qt.Key.Key_Return), self.table, self._open_selected)
        QShortcut(QKeySequence(Qt.Key.Key_Enter), self.table, self._open_selected)
        QShortcut(QKeySequence(Qt.Key.Key_Delete), self.table, lambda: None)  # never delete a save by accident

    # --- building ----------------------------------------------------------------------------------------

    @staticmethod
    def _emblem(size: int) -> QPixmap:
        from desktop.app import ICON_PATH

        pix = QPixmap(str(ICON_PATH)) if ICON_PATH.is_file() else QPixmap()
        if pix.isNull():
            pix = QPixmap(size, size)
            pix.fill(Qt.GlobalColor.transparent)
        return pix.scaled(size, size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)

    def _menu_button(self, text: str, shortcut: str, primary: bool = False) -> QPushButton:
        b = QPushButton(text)
        b.setProperty("role", "primary_menu" if primary else "menu")
        b.setToolTip(f"{text} ({shortcut})")
        b.setCursor(Qt.CursorShape.PointingHandCursor)
        b.setMinimumHeight(42)
        b.setAutoDefault(True)  # Enter presses the focused one (outside a dialog only Space did)
        return b

    def resizeEvent(self, event: QResizeEvent) -> None:
        # the campaigns beside the menu where both fit, under it where they do not (large text at 1024 px)
        m = self.root_layout.contentsMargins()
        side = (self.menu_box.minimumWidth() + self.campaigns_panel.minimumWidth() + self.root_layout.spacing()
                + m.left() + m.right())  # fmt: skip
        holder = self.parentWidget()  # the window's scroll area's viewport: the room there is, not the screen's own
        room = holder.width() if holder is not None else event.size().width()
        want = QBoxLayout.Direction.LeftToRight if room >= side else QBoxLayout.Direction.TopToBottom
        if self.root_layout.direction() != want:
            self.root_layout.setDirection(want)
            self.campaigns_panel.setMinimumHeight(0 if want == QBoxLayout.Direction.LeftToRight else 320)
        self._backdrop.setGeometry(self.rect())
        self._backdrop.lower()
        super().resizeEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._backdrop.setGeometry(self.rect())
        self._backdrop.lower()
        if not self._loaded:
            QTimer.singleShot(0, self.refresh)  # paint first, then read the saves

    # --- the saves -----------------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the saves folder again (after a campaign was played, created or closed)."""
        from desktop.persistence import default_folder, list_saves

        self._loaded = True
        folder = self.folder if self.folder is not None else default_folder()
        try:
            self.saves = list_saves(folder)
        except OSError as exc:
            self.saves = []
            self.count_label.setText(f"The saves folder cannot be read: {exc.strerror or exc}")
        good = [s for s in self.saves if s.error is None]
        self.last = good[0] if good else None
        self.folder_label.setText(f"Saved in {folder}")
        self.folder_label.setToolTip(str(folder))
        self._fill_table()
        if self.last is not None:
            self.continue_button.setEnabled(True)
            self.continue_label.setText(self._continue_text(self.last))
            self.continue_button.setToolTip(f"Continue {self.last.title} (Ctrl+Enter)")
        else:
            self.continue_button.setEnabled(False)
            self.continue_label.setText("No campaign yet.")
        n, bad = len(good), len(self.saves) - len(good)
        count = f"{n} campaign{'s' if n != 1 else ''}" + (f", {bad} unreadable" if bad else "")
        self.count_label.setText(count)
        self.focus_first()

    def focus_first(self) -> None:
        """Enter plays the first thing on the menu that can be done: Continue when there is a campaign, New
        campaign otherwise (the focus is moved only from nowhere or from the other of the two)."""
        focus = QApplication.focusWidget()
        if focus is not None and focus not in (self.continue_button, self.new_button) and focus.isVisible():
            return
        (self.continue_button if self.continue_button.isEnabled() else self.new_button).setFocus()
        self.empty_label.setVisible(not self.saves)
        self.table.setVisible(bool(self.saves))

    def _continue_text(self, info: SaveInfo) -> str:
        """Two short lines under Continue: who and which day; where and when last played."""
        fm = self.continue_label.fontMetrics()
        width = max(200, self.continue_label.width() - 8)
        who = ", ".join(info.party) or info.path.stem
        day = f" — day {info.day}" if info.day is not None else ""
        phase = info.outcome or PHASE_WORDS.get(info.phase, info.phase)
        where = (info.location or "somewhere") + (f" ({phase})" if phase else "")
        line1 = fm.elidedText(who, Qt.TextElideMode.ElideRight, width - fm.horizontalAdvance(day)) + day
        line2 = fm.elidedText(f"{where} · {when(info.last_played)}", Qt.TextElideMode.ElideMiddle, width)
        return f"{line1}\n{line2}"

    def _fill_table(self) -> None:
        self.table.setRowCount(0)
        muted = QColor(COLORS["muted"]).darker(125)
        for info in self.saves:
            row = self.table.rowCount()
            self.table.insertRow(row)
            if info.error is None:
                where = info.location or "—"
                phase = info.outcome or PHASE_WORDS.get(info.phase, info.phase)
                cells = [
                    ", ".join(info.party) or info.path.stem,
                    f"{where} ({phase})" if phase else where,
                    str(info.day) if info.day is not None else "—",
                    when(info.last_played),
                ]
                tip = f"{describe(info)}\n{info.path}"
            else:
                cells = [info.path.name, "cannot be opened", "", ""]
                tip = f"{info.path}\n{info.error}"
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                item.setData(Qt.ItemDataRole.UserRole, str(info.path))
                if info.error is not None:
                    item.setForeground(muted)
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsSelectable)
                    font = item.font()
                    font.setItalic(True)
                    item.setFont(font)
                if col == 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(row, col, item)
        if self.last is not None:
            self.table.selectRow(0)
        self._selection_changed()

    def selected(self) -> SaveInfo | None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        if not rows:
            return None
        info = self.saves[min(rows)]
        return info if info.error is None else None

    def _selection_changed(self) -> None:
        self.open_button.setEnabled(self.selected() is not None)

    # --- actions -----------------------------------------------------------------------------------------

    def _continue(self) -> None:
        if self.last is not None and self.continue_button.isEnabled():
            self.continue_requested.emit(self.last.path)

    def _load(self) -> None:
        """Load campaign: the list on the right (or a file dialog if the folder holds none)."""
        if any(s.error is None for s in self.saves):
            self.table.setFocus()
            if self.selected() is None:
                self.table.selectRow(0)
        else:
            self.open_file.emit()

    def _open_row(self, row: int) -> None:
        if 0 <= row < len(self.saves) and self.saves[row].error is None:
            self.open_requested.emit(self.saves[row].path)

    def _open_selected(self) -> None:
        info = self.selected()
        if info is not None:
            self.open_requested.emit(info.path)
