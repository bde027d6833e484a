"""The dungeon workshop: a GM generates, inspects, re-rolls and exports dungeons.

Left, the generation parameters (seed with a dice button, level, rooms,
theme, depth) and the tools for the selected room; in the middle, the map of
the chosen level (GM or player view); right, the key: the rooms, the doom
track and wandering monsters, and the hook, rumours and history.  Generation
and export run in the background (:mod:`desktop.workers`), so even a 40-room,
three-level dungeon never freezes the window.

Everything shown comes from the generated :class:`~dungeon_gen.model.Dungeon`;
the key's wording is the Markdown key's own (:mod:`dungeon_gen.export.markdown`).
"""

from __future__ import annotations

import html
import os
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
    QShortcut,
)
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QTabBar,
    QTabWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.render.map_painter import MapLayout, MapOptions
from desktop.theme import COLORS, SERIF_FAMILY, ui_font
from desktop.widgets.map_view import MapView
from desktop.workers import Job, run_in_background
from dungeon_gen.model import Dungeon, LevelData, Room

#: The export formats of :mod:`desktop.dungeon_export`: (id, label, what it is).
FORMATS: tuple[tuple[str, str, str], ...] = (
    ("json", "JSON", "the dungeon as data; the generator and the game read it back"),
    ("md", "Markdown key", "the GM's key: hook, rumours, doom, wanderers, every room"),
    ("svg", "SVG maps", "GM and player maps of every level, as vector drawings"),
    ("png", "PNG maps", "GM and player maps of every level, as pictures"),
    ("pdf", "PDF booklet", "title page, maps and the whole key, ready to print"),
    ("uvtt", "Universal VTT", "battle maps with walls, doors and lights (.dd2vtt), a -gm and a -player copy"),
)
FORMAT_LABELS = {f: label for f, label, _ in FORMATS}
MAX_SEED = 10**12 - 1


def _random_seed() -> int:
    """A fresh seed for the dice button (not a game roll: no campaign RNG involved)."""
    return random.SystemRandom().randrange(1, 1_000_000)


def default_export_folder() -> Path:
    try:
        from platformdirs import user_documents_path

        return user_documents_path() / "Blacksalt" / "dungeons"
    except Exception:  # pragma: no cover - platformdirs is a dependency; a broken home is not
        return Path.home() / "Blacksalt dungeons"


# --- the key, as HTML ---------------------------------------------------------------------------

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])")
_ROOM_HEADING = re.compile(r"^## (?:\d+\.)?(\d+) ")


def inline(text: str) -> str:
    """The Markdown key's inline marks (**bold**, *italic*) as HTML, everything else escaped."""
    out = html.escape(text, quote=False)
    out = _BOLD.sub(r"<b>\1</b>", out)
    return _ITALIC.sub(r"<i>\1</i>", out)


def _css() -> str:
    c = COLORS
    return f"""
body {{ color: {c["ink"]}; font-family: "{SERIF_FAMILY}"; }}
.title {{ color: {c["paper"]}; font-size: 16pt; font-weight: bold; margin: 0 0 2px 0; }}
h2 {{ color: {c["gold"]}; font-size: 13pt; margin: 14px 0 4px 0; }}
h3 {{ color: {c["gold"]}; font-size: 11.5pt; margin: 12px 0 4px 0; }}
p {{ margin: 3px 0 6px 0; }}
li {{ margin: 1px 0 3px 0; }}
b {{ color: {c["paper"]}; }}
i {{ color: {c["muted"]}; }}
a {{ color: {c["gold"]}; text-decoration: none; }}
.note {{ color: {c["danger"]}; }}
.muted {{ color: {c["muted"]}; }}
.false {{ color: {c["danger"]}; }}
.boxes {{ color: {c["accent_hover"]}; font-family: "DejaVu Sans"; }}
td {{ padding: 3px 6px; }}
th {{ color: {c["gold"]}; text-align: left; padding: 3px 6px; }}
"""


def markdown_lines_to_html(lines: list[str], *, room_links: bool = True, selected: int | None = None) -> str:
    """The Markdown key's own lines (headings, paragraphs, bullets, quotes) as HTML.

    Room headings (``## 5 The Leech Room``) become anchors ``room-5`` and links ``room:5``; the
    selected room's heading is marked."""
    out: list[str] = []
    in_list = False

    def close_list() -> None:
        nonlocal in_list
        if in_list:
            out.append("</ul>")
            in_list = False

    for line in lines:
        if line.startswith("- "):
            if not in_list:
                out.append('<ul style="margin-left: -18px;">')
                in_list = True
            out.append(f"<li>{inline(line[2:])}</li>")
            continue
        close_list()
        if not line.strip():
            continue
        m = _ROOM_HEADING.match(line)
        if m and room_links:
            rid = int(m[1])
            title = html.escape(line[3:])
            mark = f' style="background-color: {COLORS["accent_dark"]}; color: {COLORS["paper"]};"'
            style = mark if rid == selected else ""
            out.append(f'<a name="room-{rid}"></a><h2{style}><a href="room:{rid}"{style}>{title}</a></h2>')
        elif line.startswith("### "):
            out.append(f"<h3>{inline(line[4:])}</h3>")
        elif line.startswith("## "):
            out.append(f"<h2>{inline(line[3:])}</h2>")
        elif line.startswith("# "):
            out.append(f'<p class="title">{inline(line[2:])}</p>')
        elif line.startswith("> "):
            out.append(f'<p class="note"><i>{inline(line[2:])}</i></p>')
        else:
            out.append(f"<p>{inline(line)}</p>")
    close_list()
    return "\n".join(out)


def rooms_html(level: LevelData, selected: int | None = None) -> str:
    from dungeon_gen.export import markdown as md

    exits = md.level_exits(level)
    lines: list[str] = []
    for room in sorted(level.rooms, key=lambda r: r.id):
        lines += md.room_section(level, room, exits)
    head = f'<p class="title">Level {level.depth}{" — " + html.escape(level.name) if level.name else ""}</p>'
    sub = f'<p class="muted">{len(level.rooms)} rooms. Click a room here or on the map to select it.</p>'
    return head + sub + markdown_lines_to_html(lines, selected=selected)


def doom_html(level: LevelData) -> str:
    from dungeon_gen.export import markdown as md

    out: list[str] = [f'<p class="title">Level {level.depth}: doom and wanderers</p>']
    chunk: list[str] = []
    steps: list[tuple[str, str]] = []
    for line in md.level_front(level):
        if line.startswith("- ☐"):  # a doom step: "- ☐☐ text"
            if chunk:
                out.append(markdown_lines_to_html(chunk, room_links=False))
                chunk = []
            boxes, _, text = line[2:].partition(" ")
            steps.append((boxes, text))
            continue
        if steps:
            out.append(_doom_table(steps))
            steps = []
        chunk.append(line)
    if steps:
        out.append(_doom_table(steps))
    if chunk:
        out.append(markdown_lines_to_html(chunk, room_links=False))
    return "\n".join(out)


def _doom_table(steps: list[tuple[str, str]]) -> str:
    rows = []
    for i, (boxes, text) in enumerate(steps, 1):
        last = i == len(steps)
        text_html = f"<b>{inline(text)}</b>" if last else inline(text)
        rows.append(
            f'<tr><td class="muted" valign="top">{i}</td><td class="boxes" valign="top">{html.escape(boxes)}</td>'
            f"<td>{text_html}</td></tr>"
        )
    return '<table cellspacing="0" width="100%">' + "".join(rows) + "</table>"


def story_html(d: Dungeon) -> str:
    c = COLORS
    out = [f'<p class="title">{html.escape(d.title)}</p>']
    out.append(
        f'<p class="muted">Level {d.level} · {len(d.levels)} level{"s" if len(d.levels) > 1 else ""} · '
        f"{len(d.rooms)} rooms on the first · theme {html.escape(d.theme.replace('_', ' '))} · seed {d.seed}</p>"
    )
    out.append("<h3>Hook</h3>" + markdown_lines_to_html(d.hook.splitlines(), room_links=False))
    out.append(f"<p><b>Bounty: {d.bounty} silver.</b></p>")
    if d.quest:
        out.append(f"<p><b>The job.</b> {html.escape(d.quest)}</p>")
    if d.quest_after:
        out.append(f"<p><b>When they come back.</b> {html.escape(d.quest_after)}</p>")
    out.append("<h3>Rumours</h3>")
    out.append('<p class="muted">Each adventurer hears one (2d6); false ones are marked for the GM only.</p>')
    rows = ["<tr><th>2d6</th><th>Rumour</th></tr>"]
    for r in sorted(d.rumours, key=lambda r: r.roll):
        false = "" if r.true else f' <span style="color: {c["danger"]};"><i>(false)</i></span>'
        rows.append(f'<tr><td align="center">{r.roll}</td><td>{inline(r.text)}{false}</td></tr>')
    out.append('<table cellspacing="0" width="100%">' + "".join(rows) + "</table>")
    out.append('<h3>History</h3><p class="muted"><i>For the GM only: what is really going on here.</i></p>')
    out.append(markdown_lines_to_html(d.history.splitlines(), room_links=False))
    out.append("<h3>Entrances</h3>")
    if d.outside:
        out.append(f"<p>{html.escape(d.outside)}</p>")
    out.append('<ul style="margin-left: -18px;">')
    ways = {w.room: w.text for w in d.entrance_ways}
    for e in d.entrances:
        told = f" {html.escape(ways[e])}" if ways.get(e) else ""
        out.append(f'<li><a href="room:{e}">Room {e}: {html.escape(d.room(e).name)}</a>.{told}</li>')
    out.append("</ul>")
    if d.outside_lore:
        out.append('<p class="muted">What a skill makes out outside, if the players look around first:</p><ul>')
        out += [f"<li><b>{html.escape(n.skill)}</b>: {html.escape(n.text)}</li>" for n in d.outside_lore]
        out.append("</ul>")
    return "\n".join(out)


# --- the export dialog --------------------------------------------------------------------------


class ExportDialog(QDialog):
    """Which formats, and where."""

    def __init__(self, dungeon: Dungeon, folder: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export the dungeon")
        self.setModal(True)
        self.setMinimumWidth(560)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(20, 18, 20, 16)
        lay.setSpacing(10)
        title = QLabel(f"Export “{dungeon.title}”")
        title.setProperty("role", "subtitle")
        title.setWordWrap(True)
        lay.addWidget(title)
        self.checks: dict[str, QCheckBox] = {}
        box = QFrame()
        box.setProperty("role", "panel")
        grid = QVBoxLayout(box)
        grid.setContentsMargins(12, 10, 12, 10)
        for fmt, label, what in FORMATS:
            row = QHBoxLayout()
            cb = QCheckBox(label)
            cb.setChecked(fmt in ("json", "md", "png", "pdf"))
            cb.setMinimumWidth(150)
            cb.setToolTip(what)
            desc = QLabel(what)
            desc.setProperty("role", "muted")
            desc.setWordWrap(True)
            row.addWidget(cb)
            row.addWidget(desc, 1)
            grid.addLayout(row)
            self.checks[fmt] = cb
        lay.addWidget(box)
        folder_row = QHBoxLayout()
        folder_label = QLabel("Folder")
        self.folder = QLineEdit(str(folder))
        self.folder.setToolTip("The files are written here, named after the dungeon's title")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        folder_row.addWidget(folder_label)
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        lay.addLayout(folder_row)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Export")
        ok.setProperty("role", "primary")
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        for cb in self.checks.values():
            cb.toggled.connect(self._update_ok)
        self._update_ok()

    def formats(self) -> list[str]:
        return [f for f, cb in self.checks.items() if cb.isChecked()]

    def target(self) -> Path:
        return Path(self.folder.text().strip()).expanduser()

    def _update_ok(self) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(self.formats()))

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "Export into", self.folder.text())
        if chosen:
            self.folder.setText(chosen)

    def _accept(self) -> None:
        if not self.formats() or not self.folder.text().strip():
            return
        self.accept()


def export_all(
    dungeon: Dungeon, formats: list[str], folder: Path, progress: Callable[[float, str], None]
) -> list[Path]:
    """Every format into ``folder``, one after another (for the progress bar); all or nothing:
    when one fails, the files of the formats before it are removed again."""
    from desktop.dungeon_export import export_dungeon
    from dungeon_gen.export.walls import geometry_cache

    written: list[Path] = []
    target = str(folder) + os.sep
    try:
        with geometry_cache():  # each view of a level worked out once for all the formats
            for i, fmt in enumerate(formats):
                progress(i / len(formats), f"Writing {FORMAT_LABELS.get(fmt, fmt)}…")
                written += export_dungeon(dungeon, [fmt], target)
    except BaseException:
        for p in written:
            p.unlink(missing_ok=True)
        raise
    progress(1.0, "Done")
    return written


# --- the screen ---------------------------------------------------------------------------------


class _KeyClicks(QObject):
    """Clicks in the rooms' key select the room whose section was clicked."""

    def __init__(self, browser: QTextBrowser, on_room: Callable[[int], None]) -> None:
        super().__init__(browser)
        self.browser = browser
        self.on_room = on_room

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.MouseButtonRelease
            and isinstance(event, QMouseEvent)
            and event.button() == Qt.MouseButton.LeftButton
            and not self.browser.textCursor().hasSelection()
            and not self.browser.anchorAt(event.position().toPoint())  # links go to anchorClicked
        ):
            block = self.browser.cursorForPosition(event.position().toPoint()).block()
            while block.isValid():
                if block.blockFormat().headingLevel() == 2:
                    m = re.match(r"^(?:\d+\.)?(\d+) ", block.text())
                    if m:
                        self.on_room(int(m[1]))
                    break
                block = block.previous()
        return False


class WorkshopScreen(QWidget):
    """Generate, inspect, re-roll and export dungeons."""

    back = Signal()
    generated = Signal(object)  # the new Dungeon
    exported = Signal(list)  # the paths written

    def __init__(self, parent: QWidget | None = None, *, autogenerate: bool = True) -> None:
        """``autogenerate``: dig a first dungeon (random seed) when the screen is first shown."""
        super().__init__(parent)
        self.autogenerate = autogenerate
        self._shown = False
        self.setProperty("role", "screen")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.dungeon: Dungeon | None = None
        self.level_depth = 1
        self.selected: int | None = None
        self.rerolls = 0  # the seed of the next re-roll: every re-roll of a session differs, and replays
        self.history: list[Dungeon] = []
        self.job: Job | None = None
        self.export_job: Job | None = None
        self.export_dialog: ExportDialog | None = None
        self.message: QMessageBox | None = None
        self.last_error: str = ""
        self.export_folder = default_export_folder()
        self._themes: list[tuple[str, str]] | None = None
        self._build()
        self._shortcuts()
        self._update_enabled()

    # --- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        root = QVBoxLayout(self)
        root.setContentsMargins(16, 12, 16, 12)
        root.setSpacing(10)

        top = QHBoxLayout()
        self.back_button = QPushButton("← Back")
        self.back_button.setToolTip("Back to where you came from (Esc)")
        self.back_button.clicked.connect(self.back.emit)
        title = QLabel("Dungeon Workshop")
        title.setProperty("role", "title")
        self.subtitle = QLabel("Prepare a dungeon for your table: generate, inspect, re-roll, export.")
        self.subtitle.setProperty("role", "muted")
        self.subtitle.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        top.addWidget(self.back_button)
        top.addSpacing(12)
        top.addWidget(title)
        top.addSpacing(16)
        top.addWidget(self.subtitle, 1)
        root.addLayout(top)

        body = QHBoxLayout()
        body.setSpacing(12)
        body.addWidget(self._build_side(), 0)
        body.addWidget(self._build_map(), 1)
        body.addWidget(self._build_key(), 0)
        root.addLayout(body, 1)

    def _build_side(self) -> QWidget:
        side = QFrame()
        side.setProperty("role", "panel")
        side.setFixedWidth(262)
        lay = QVBoxLayout(side)
        lay.setContentsMargins(14, 12, 14, 12)
        lay.setSpacing(8)
        head = QLabel("Generation")
        head.setProperty("role", "heading")
        lay.addWidget(head)

        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        form.setHorizontalSpacing(10)
        form.setVerticalSpacing(7)
        seed_row = QHBoxLayout()
        seed_row.setSpacing(4)
        self.seed = QLineEdit(str(_random_seed()))
        self.seed.setMaxLength(12)
        self.seed.setToolTip("The same seed and parameters give the same dungeon on every machine")
        from PySide6.QtGui import QRegularExpressionValidator

        self.seed.setValidator(QRegularExpressionValidator(r"\d{1,12}", self.seed))
        self.dice = QToolButton()
        self.dice.setText("⚄")
        self.dice.setFont(ui_font(15))
        self.dice.setToolTip("A random seed")
        self.dice.clicked.connect(self.random_seed)
        seed_row.addWidget(self.seed, 1)
        seed_row.addWidget(self.dice)
        form.addRow("Seed", seed_row)
        self.level = QSpinBox()
        self.level.setRange(1, 10)
        self.level.setValue(1)
        self.level.setToolTip("Difficulty 1–10: roughly the level of the monsters on the first level")
        form.addRow("Level", self.level)
        self.rooms = QSpinBox()
        self.rooms.setRange(3, 60)
        self.rooms.setValue(14)
        self.rooms.setToolTip("Rooms on each level (3–60)")
        form.addRow("Rooms", self.rooms)
        self.depth_spin = QSpinBox()
        self.depth_spin.setRange(1, 5)
        self.depth_spin.setValue(1)
        self.depth_spin.setToolTip("How many levels deep (1–5); the master waits on the deepest")
        form.addRow("Depth", self.depth_spin)
        self.theme = QComboBox()
        self.theme.addItem("Random", None)
        self.theme.setToolTip("The dungeon's theme: its monsters, rooms, traps and loot")
        form.addRow("Theme", self.theme)
        lay.addLayout(form)

        self.generate_button = QPushButton("Generate")
        self.generate_button.setProperty("role", "primary")
        self.generate_button.setToolTip("Dig a new dungeon with these parameters (Ctrl+G)")
        self.generate_button.clicked.connect(lambda: self.generate())
        lay.addWidget(self.generate_button)
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.progress.setVisible(False)
        lay.addWidget(self.progress)
        self.status = QLabel("")
        self.status.setProperty("role", "muted")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)

        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setStyleSheet(f"color: {COLORS['border']};")
        lay.addWidget(line)

        head2 = QLabel("Selected room")
        head2.setProperty("role", "heading")
        lay.addWidget(head2)
        self.room_label = QLabel("Click a room on the map or in the key.")
        self.room_label.setWordWrap(True)
        self.room_label.setProperty("role", "muted")
        self.room_label.setMinimumHeight(38)
        lay.addWidget(self.room_label)
        self.reroll_room_button = QPushButton("Re-roll this room")
        self.reroll_room_button.setToolTip(
            "Draw the room's contents again: description, monsters, traps, loot, secrets, features, corpses. "
            "Its shape, kind, name, doors and keys stay. (Ctrl+R)"
        )
        self.reroll_room_button.clicked.connect(self.reroll_room)
        lay.addWidget(self.reroll_room_button)
        self.reroll_doom_button = QPushButton("Re-roll doom table")
        self.reroll_doom_button.setToolTip(
            "Draw this level's doom tracker again, from the first wandering group to the final fight (Ctrl+D)"
        )
        self.reroll_doom_button.clicked.connect(self.reroll_doom)
        lay.addWidget(self.reroll_doom_button)
        self.undo_button = QPushButton("Undo re-roll")
        self.undo_button.setToolTip("Take back the last re-roll (Ctrl+Z)")
        self.undo_button.clicked.connect(self.undo)
        lay.addWidget(self.undo_button)
        lay.addStretch(1)
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Write the dungeon as JSON, Markdown, SVG, PNG, PDF or Universal VTT (Ctrl+E)")
        self.export_button.clicked.connect(self.export)
        lay.addWidget(self.export_button)
        self.export_progress = QProgressBar()
        self.export_progress.setRange(0, 100)
        self.export_progress.setVisible(False)
        lay.addWidget(self.export_progress)
        return side

    def _build_map(self) -> QWidget:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(6)
        bar = QHBoxLayout()
        bar.setSpacing(6)
        self.tabs = QTabBar()
        self.tabs.setExpanding(False)
        self.tabs.setDrawBase(False)
        self.tabs.setUsesScrollButtons(False)
        self.tabs.setElideMode(Qt.TextElideMode.ElideNone)
        self.tabs.currentChanged.connect(self._level_changed)
        bar.addWidget(self.tabs, 1)
        self.gm_button = QPushButton("GM map")
        self.gm_button.setCheckable(True)
        self.gm_button.setChecked(True)
        self.gm_button.setToolTip("Everything: room numbers, secret doors, traps, corpses and monsters (V)")
        self.player_button = QPushButton("Player map")
        self.player_button.setCheckable(True)
        self.player_button.setToolTip("What the players may see: no numbers, secrets, traps or monsters (V)")
        group = QButtonGroup(self)
        group.setExclusive(True)
        group.addButton(self.gm_button)
        group.addButton(self.player_button)
        self.gm_button.toggled.connect(lambda _: self._show_map())
        bar.addWidget(self.gm_button)
        bar.addWidget(self.player_button)
        self.fit_button = fit = QToolButton()
        fit.setText("Fit")
        fit.setToolTip("Show the whole level (F, or double-click the map). Wheel or +/− zoom, drag pans.")
        fit.clicked.connect(self._fit)
        bar.addWidget(fit)
        lay.addLayout(bar)
        self.map_view = MapView()
        self.map_view.set_placeholder("No dungeon yet.\nChoose the parameters and Generate (Ctrl+G).")
        self.map_view.tile_clicked.connect(self._tile_clicked)
        self.map_view.set_overlay(self._paint_selection)
        lay.addWidget(self.map_view, 1)
        return box

    def _build_key(self) -> QWidget:
        self.key_tabs = QTabWidget()
        self.key_tabs.setFixedWidth(400)
        self.key_rooms = self._browser()
        self.key_doom = self._browser()
        self.key_story = self._browser()
        self.key_tabs.addTab(self.key_rooms, "Rooms")
        self.key_tabs.setTabToolTip(0, "The keyed rooms of this level")
        self.key_tabs.addTab(self.key_doom, "Doom")
        self.key_tabs.addTab(self.key_story, "Story")
        self.key_rooms.viewport().installEventFilter(_KeyClicks(self.key_rooms, self.select_room))
        self._set_empty_key()
        return self.key_tabs

    def _browser(self) -> QTextBrowser:
        b = QTextBrowser()
        b.setOpenLinks(False)
        b.setOpenExternalLinks(False)
        b.document().setDefaultStyleSheet(_css())
        b.document().setDocumentMargin(10)
        b.anchorClicked.connect(self._anchor)
        return b

    def _shortcuts(self) -> None:
        ctx = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for seq, slot in (
            ("Ctrl+G", lambda: self.generate()),
            ("Ctrl+E", self.export),
            ("Ctrl+R", self.reroll_room),
            ("Ctrl+D", self.reroll_doom),
            ("Ctrl+Z", self.undo),
            ("V", self.toggle_view),
            ("Escape", self.back.emit),
        ):
            sc = QShortcut(QKeySequence(seq), self)
            sc.setContext(ctx)
            sc.activated.connect(slot)
        for i in range(1, 6):
            sc = QShortcut(QKeySequence(f"Alt+{i}"), self)
            sc.setContext(ctx)
            sc.activated.connect(lambda i=i: self.tabs.setCurrentIndex(i - 1) if i <= self.tabs.count() else None)

    # --- themes --------------------------------------------------------------------------------

    def _fill_themes(self, themes: list[tuple[str, str]]) -> None:
        if self._themes is not None:
            return
        self._themes = themes
        for tid, name in themes:
            self.theme.addItem(name, tid)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        first = not self._shown
        self._shown = True
        if first and self.autogenerate and self.dungeon is None and self.job is None:
            self.generate()  # also loads the themes
        elif self._themes is None and self.job is None:
            run_in_background(_theme_names, on_done=self._fill_themes, on_error=lambda e: None, parent=self)

    # --- generation ----------------------------------------------------------------------------

    def random_seed(self) -> None:
        self.seed.setText(str(_random_seed()))

    def parameters(self) -> dict[str, Any]:
        text = self.seed.text().strip()
        seed = int(text) if text.isdigit() else 0
        return {
            "seed": min(seed, MAX_SEED),
            "level": self.level.value(),
            "rooms": self.rooms.value(),
            "depth": self.depth_spin.value(),
            "theme": self.theme.currentData(),
        }

    def generate(self, *, blocking: bool = False) -> None:
        """Dig a dungeon with the parameters, in the background (``blocking`` for scripts)."""
        if self.job is not None:
            return
        params = self.parameters()
        if blocking:
            try:
                self._generated(_generate(params))
            except Exception as exc:
                self._failed("The dungeon could not be generated", exc)
            return
        levels = params["depth"]
        self.status.setText(
            f"Digging {levels} level{'s' if levels > 1 else ''} of {params['rooms']} rooms (seed {params['seed']})…"
        )
        self.map_view.set_placeholder("Digging the dungeon…")
        self.progress.setRange(0, 0)  # busy: the generator reports no steps
        self.progress.setVisible(True)
        self.job = run_in_background(
            lambda: _generate(params),
            on_done=self._generated,
            on_error=lambda exc: self._failed("The dungeon could not be generated", exc),
            parent=self,
        )
        self._update_enabled()

    def _generated(self, result: object) -> None:
        self.job = None
        self.progress.setVisible(False)
        if not isinstance(result, tuple):
            return
        dungeon, themes = result
        self._fill_themes(themes)
        self.history.clear()
        self.selected = None
        try:
            self.set_dungeon(dungeon)
        except Exception as exc:  # a dungeon the map or key cannot show: say so, never a traceback
            self._failed("The dungeon could not be shown", exc)
            return
        n = len(dungeon.levels)
        self.status.setText(
            f"Seed {dungeon.seed}: {n} level{'s' if n > 1 else ''}, "
            f"{sum(len(lv.rooms) for lv in dungeon.levels)} rooms, theme {dungeon.theme.replace('_', ' ')}."
        )
        self.generated.emit(dungeon)

    def set_dungeon(self, dungeon: Dungeon, *, keep_view: bool = False) -> None:
        """Show ``dungeon`` (after generation, a re-roll or an undo)."""
        self.dungeon = dungeon
        self.subtitle.setText(f"{dungeon.title}  ·  level {dungeon.level}  ·  seed {dungeon.seed}")
        self.subtitle.setProperty("role", "gold")
        self.subtitle.style().unpolish(self.subtitle)
        self.subtitle.style().polish(self.subtitle)
        depth = self.level_depth if keep_view else 1
        self.tabs.blockSignals(True)
        while self.tabs.count():
            self.tabs.removeTab(0)
        for lv in dungeon.levels:
            i = self.tabs.addTab(f"Level {lv.depth}")
            self.tabs.setTabToolTip(i, (lv.name or f"Level {lv.depth}") + f" (Alt+{lv.depth})")
        self.tabs.setCurrentIndex(depth - 1)
        self.tabs.blockSignals(False)
        self.level_depth = depth
        self._show_level()

    def current_level(self) -> LevelData | None:
        if self.dungeon is None:
            return None
        return self.dungeon.levels[self.level_depth - 1]

    def _level_changed(self, index: int) -> None:
        if self.dungeon is None or index < 0:
            return
        self.level_depth = index + 1
        self.selected = None
        self._show_level()

    def _show_level(self) -> None:
        self._show_map()
        self._show_key()
        self._show_selection()
        self._update_enabled()

    def _show_map(self) -> None:
        level = self.current_level()
        if level is None or self.dungeon is None:
            self.map_view.set_level(None)
            return
        player = self.player_button.isChecked()
        self.map_view.set_level(level, MapOptions(player=player, tokens=not player, title=self.dungeon.title))

    def _fit(self) -> None:
        self.map_view.fit()

    def toggle_view(self) -> None:
        (self.gm_button if self.player_button.isChecked() else self.player_button).setChecked(True)

    def is_player_view(self) -> bool:
        return self.player_button.isChecked()

    # --- the key -------------------------------------------------------------------------------

    def _set_empty_key(self) -> None:
        hint = (
            '<p class="title">No dungeon yet</p><p class="muted">Choose a seed and the parameters, then '
            "<b>Generate</b> (Ctrl+G). The key appears here: every room with its monsters, traps, loot "
            "and secrets; the doom tracker; the hook and rumours.</p>"
        )
        for b in (self.key_rooms, self.key_doom, self.key_story):
            b.setHtml(hint)

    def _show_key(self, *, scroll_to_room: bool = False) -> None:
        level = self.current_level()
        if level is None or self.dungeon is None:
            self._set_empty_key()
            return
        bar = self.key_rooms.verticalScrollBar()
        pos = bar.value()
        self.key_rooms.setHtml(rooms_html(level, self.selected))
        if scroll_to_room and self.selected is not None:
            self.key_rooms.scrollToAnchor(f"room-{self.selected}")
        else:
            bar.setValue(pos)
        dpos = self.key_doom.verticalScrollBar().value()
        self.key_doom.setHtml(doom_html(level))
        self.key_doom.verticalScrollBar().setValue(dpos)
        spos = self.key_story.verticalScrollBar().value()
        self.key_story.setHtml(story_html(self.dungeon))
        self.key_story.verticalScrollBar().setValue(spos)

    def _anchor(self, url: QUrl) -> None:
        if url.scheme() == "room":
            try:
                rid = int(url.path())
            except ValueError:
                return
            if self.level_depth != 1 and self.sender() is self.key_story:
                self.tabs.setCurrentIndex(0)  # the entrances are on the first level
            self.select_room(rid, scroll=self.sender() is not self.key_rooms)
            self.key_tabs.setCurrentWidget(self.key_rooms)

    # --- selection -----------------------------------------------------------------------------

    def room_at(self, x: int, y: int) -> Room | None:
        level = self.current_level()
        if level is None:
            return None
        return next((r for r in level.rooms if (x, y) in r.floor()), None)

    def _tile_clicked(self, x: int, y: int) -> None:
        room = self.room_at(x, y)
        if room is not None:
            self.select_room(room.id, scroll=True)
            self.key_tabs.setCurrentWidget(self.key_rooms)

    def select_room(self, room_id: int | None, *, scroll: bool = False) -> None:
        level = self.current_level()
        if level is None or (room_id is not None and all(r.id != room_id for r in level.rooms)):
            return
        self.selected = room_id
        self._show_key(scroll_to_room=scroll)
        self._show_selection()
        self._update_enabled()

    def _show_selection(self) -> None:
        level = self.current_level()
        if level is None or self.selected is None:
            self.room_label.setText("Click a room on the map or in the key.")
            self.room_label.setProperty("role", "muted")
        else:
            room = level.room(self.selected)
            bits = []
            if room.monsters:
                bits.append(f"{sum(g.count for g in room.monsters)} monsters")
            if room.traps:
                bits.append(f"{len(room.traps)} trap{'s' if len(room.traps) > 1 else ''}")
            if room.loot:
                bits.append(f"{len(room.loot)} loot")
            extra = f"<br><span style='color:{COLORS['muted']}'>{', '.join(bits) or 'empty'}</span>"
            self.room_label.setText(f"<b>{room.id}. {html.escape(room.name)}</b>{extra}")
            self.room_label.setProperty("role", "")
        self.room_label.style().unpolish(self.room_label)
        self.room_label.style().polish(self.room_label)
        self.map_view.update()

    def _paint_selection(self, p: QPainter, lay: MapLayout) -> None:
        level = self.current_level()
        if level is None or self.selected is None or lay.level is not level:
            return
        room = level.room(self.selected)
        path = QPainterPath()
        for x, y in room.floor():
            path.addRect(lay.tile_rect(x, y))
        path = path.simplified()
        fill = QColor(COLORS["accent"])
        fill.setAlpha(60)
        p.fillPath(path, fill)
        glow = QColor(COLORS["accent_hover"])
        glow.setAlpha(110)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(glow, lay.t * 0.45, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
        p.drawPath(path)
        p.setPen(QPen(QColor(COLORS["accent_hover"]), lay.t * 0.12))
        p.drawPath(path)

    # --- re-rolls ------------------------------------------------------------------------------

    def reroll_room(self) -> None:
        """Draw the selected room's contents again (deterministic: the n-th re-roll of the session)."""
        if self.dungeon is None or self.selected is None or self.job is not None:
            return
        from dungeon_gen.reroll import reroll_room

        self._reroll(
            lambda d, s: reroll_room(d, self.level_depth, self.selected or 0, s), f"Room {self.selected} re-rolled"
        )
        self.key_tabs.setCurrentWidget(self.key_rooms)

    def reroll_doom(self) -> None:
        """Draw the current level's doom track again."""
        if self.dungeon is None or self.job is not None:
            return
        from dungeon_gen.reroll import reroll_doom

        self._reroll(
            lambda d, s: reroll_doom(d, self.level_depth, s), f"Doom table of level {self.level_depth} re-rolled"
        )
        self.key_tabs.setCurrentWidget(self.key_doom)

    def _reroll(self, fn: Callable[[Dungeon, int], Dungeon], done: str) -> None:
        assert self.dungeon is not None
        self.rerolls += 1
        try:
            new = fn(self.dungeon, self.rerolls)
        except Exception as exc:
            self._failed("The re-roll failed", exc)
            return
        self.history.append(self.dungeon)
        selected = self.selected
        self.set_dungeon(new, keep_view=True)
        self.select_room(selected) if selected is not None else None
        self.status.setText(f"{done} (re-roll {self.rerolls}). Ctrl+Z takes it back.")

    def undo(self) -> None:
        if not self.history:
            return
        selected = self.selected
        self.set_dungeon(self.history.pop(), keep_view=True)
        if selected is not None:
            self.select_room(selected)
        self.status.setText("Re-roll taken back.")
        self._update_enabled()

    # --- export --------------------------------------------------------------------------------

    def export(self) -> None:
        """Open the export dialog (non-blocking); on Export, write the files in the background."""
        if self.dungeon is None or self.export_job is not None:
            return
        dialog = ExportDialog(self.dungeon, self.export_folder, self)
        dialog.accepted.connect(lambda: self.start_export(dialog.formats(), dialog.target()))
        self.export_dialog = dialog
        dialog.open()

    def start_export(self, formats: list[str], folder: Path) -> None:
        if self.dungeon is None or not formats:
            return
        self.export_folder = folder
        dungeon = self.dungeon
        self.export_progress.setValue(0)
        self.export_progress.setFormat("Starting…")
        self.export_progress.setVisible(True)
        self.export_job = run_in_background(
            lambda progress: export_all(dungeon, formats, folder, progress),
            on_done=self._exported,
            on_error=self._export_failed,
            on_progress=self._export_progress,
            parent=self,
        )
        self._update_enabled()

    def _export_progress(self, fraction: float, text: str) -> None:
        self.export_progress.setValue(round(fraction * 100))
        self.export_progress.setFormat(f"{text}  %p%")

    def _exported(self, paths: object) -> None:
        self.export_job = None
        self.export_progress.setVisible(False)
        files = [Path(p) for p in paths] if isinstance(paths, list) else []
        self._update_enabled()
        self.status.setText(f"Exported {len(files)} file{'s' if len(files) != 1 else ''} into {self.export_folder}.")
        names = "\n".join(f"  {p.name}" for p in files)
        box = QMessageBox(
            QMessageBox.Icon.Information, "Export done", f"Written into {self.export_folder}:", parent=self
        )
        box.setInformativeText(names)
        open_button = box.addButton("Open folder", QMessageBox.ButtonRole.ActionRole)
        box.addButton(QMessageBox.StandardButton.Ok)
        folder = self.export_folder
        open_button.clicked.connect(lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))))
        self._show_message(box)
        self.exported.emit(files)

    def _export_failed(self, exc: BaseException) -> None:
        self.export_job = None
        self.export_progress.setVisible(False)
        self._update_enabled()
        self._failed("The export failed", exc)

    # --- errors and state ----------------------------------------------------------------------

    def _failed(self, title: str, exc: BaseException) -> None:
        self.job = None
        self.progress.setVisible(False)
        if self.dungeon is None:
            self.map_view.set_placeholder("No dungeon yet.\nChoose the parameters and Generate (Ctrl+G).")
        text = str(exc) or type(exc).__name__
        self.last_error = text
        self.status.setText(f"{title}.")
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, parent=self)
        box.addButton(QMessageBox.StandardButton.Ok)
        self._show_message(box)
        self._update_enabled()

    def _show_message(self, box: QMessageBox) -> None:
        if self.message is not None:
            self.message.close()
        self.message = box
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.open()

    def _update_enabled(self) -> None:
        busy = self.job is not None
        has = self.dungeon is not None
        self.generate_button.setEnabled(not busy)
        self.reroll_room_button.setEnabled(has and not busy and self.selected is not None)
        self.reroll_doom_button.setEnabled(has and not busy)
        self.undo_button.setEnabled(bool(self.history) and not busy)
        can_export = has and self.export_job is None
        self.export_button.setEnabled(can_export)
        if self.export_button.property("role") != ("gold" if can_export else ""):
            self.export_button.setProperty("role", "gold" if can_export else "")
            self.export_button.style().unpolish(self.export_button)
            self.export_button.style().polish(self.export_button)
        self.fit_button.setEnabled(has)
        self.gm_button.setEnabled(has)
        self.player_button.setEnabled(has)


# --- work done off the GUI thread ---------------------------------------------------------------


def _theme_names() -> list[tuple[str, str]]:
    from dungeon_gen.themes import load_themes

    return sorted(((tid, th.name) for tid, th in load_themes().items()), key=lambda t: t[1])


def _generate(params: dict[str, Any]) -> tuple[Dungeon, list[tuple[str, str]]]:
    from dungeon_gen.generate import generate

    themes = _theme_names()
    d = generate(
        params["seed"], level=params["level"], rooms=params["rooms"], depth=params["depth"], theme=params["theme"]
    )
    return d, themes
