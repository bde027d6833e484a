"""The chronicle: the campaign's log day by day, searchable, exportable to Markdown or HTML.

Built from a playing :class:`~desktop.session.Session` or from a save file on disk (opened, read, closed).
The text is the GM's own words as saved; nothing hidden by the GM (the doom, the omens) is in it.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop.theme import COLORS
from desktop.widgets.header import screen_header

if TYPE_CHECKING:
    from desktop.persistence import SaveFile
    from desktop.session import Session

Format = Literal["md", "html"]

#: Event kinds shown in red: the party's losses.
GRIM = frozenset({"death", "mortal_wound", "trauma", "collapse", "campaign_over"})


def _day_heading(day: int | None) -> str:
    return f"Day {day}" if day is not None else "Before the first day"


class ChronicleScreen(QWidget):
    """The campaign log.  ``source``: the open session, or a save file's path."""

    back = Signal()

    def __init__(self, source: Session | Path | str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from desktop.persistence.chronicle import MILESTONES

        self.milestones = MILESTONES
        self.session: Session | None = None
        self.path: Path
        if isinstance(source, str | Path):
            self.path = Path(source)
            self.events, self.summary = self._read(self.path)
        else:
            self.session = source
            self.path = source.path
            self.events, self.summary = source.log(), dict(source.save.summary)
        self.groups = self._group(self.events)
        self._build()
        self.redraw()

    # --- reading -----------------------------------------------------------------------------------------

    @staticmethod
    def _read(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        from desktop.persistence import SaveFile

        with SaveFile.open(path) as save:
            return save.events(), dict(save.summary)

    @staticmethod
    def _group(events: list[dict[str, Any]]) -> list[tuple[int | None, list[dict[str, Any]]]]:
        """Events by day, each day once and in order (an event without a day belongs to the one before it;
        a step that crossed a night may log a day out of order: it is shown under its own day)."""
        dated: list[tuple[int, dict[str, Any]]] = []
        day: int | None = None
        for ev in events:
            if not str(ev.get("text", "")).strip():
                continue
            if isinstance(ev.get("day"), int):
                day = ev["day"]
            dated.append((day if day is not None else -1, ev))
        dated.sort(key=lambda de: de[0])  # stable: the order within a day is kept
        groups: list[tuple[int | None, list[dict[str, Any]]]] = []
        for d, ev in dated:
            key = d if d >= 0 else None
            if not groups or groups[-1][0] != key:
                groups.append((key, []))
            groups[-1][1].append(ev)
        return groups

    def party(self) -> str:
        party = [p for p in self.summary.get("party") or [] if isinstance(p, str)]
        if not party:
            return ""
        return party[0] if len(party) == 1 else ", ".join(party[:-1]) + " and " + party[-1]

    def title(self) -> str:
        names = self.party()
        return f"The chronicle of {names}" if names else "A Blacksalt chronicle"

    def byline(self) -> str:
        s = self.summary
        bits = []
        if isinstance(s.get("day"), int):
            bits.append(f"Day {s['day']}")
        if s.get("location"):
            bits.append(f"last seen in {s['location']}")
        if s.get("outcome"):
            bits.append(f"outcome: {s['outcome']}")
        n = sum(len(evs) for _d, evs in self.groups)
        bits.append(f"{n} entr{'ies' if n != 1 else 'y'}")
        return " · ".join(bits)

    # --- building ----------------------------------------------------------------------------------------

    def _build(self) -> None:
        root = QVBoxLayout(self)
        root.setContentsMargins(28, 20, 28, 20)
        root.setSpacing(14)

        party = f"of {self.party()}" if self.party() else "of a Blacksalt campaign"
        top, self.back_button, self.title_label, (self.party_label, self.byline_label) = screen_header(
            "Chronicle", self.back.emit, [(party, "subtitle"), (self.byline(), "muted")]
        )
        self.party_label.setWordWrap(True)
        self.md_button = QPushButton("Export Markdown…")
        self.md_button.setToolTip("Write the chronicle as a Markdown file (Ctrl+E)")
        self.md_button.clicked.connect(lambda: self.export_dialog("md"))
        self.html_button = QPushButton("Export HTML…")
        self.html_button.setToolTip("Write the chronicle as a self-contained web page")
        self.html_button.clicked.connect(lambda: self.export_dialog("html"))
        top.addWidget(self.md_button, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.html_button, 0, Qt.AlignmentFlag.AlignTop)
        root.addLayout(top)

        body = QHBoxLayout()
        body.setSpacing(14)
        side = QFrame()
        side.setProperty("role", "panel")
        side.setFixedWidth(230)
        sl = QVBoxLayout(side)
        sl.setContentsMargins(10, 12, 10, 10)
        days_label = QLabel("Days")
        days_label.setProperty("role", "heading")
        sl.addWidget(days_label)
        self.days = QListWidget()
        self.days.setToolTip("Jump to a day")
        self.days.currentRowChanged.connect(self._jump)
        sl.addWidget(self.days, 1)
        body.addWidget(side)

        main = QVBoxLayout()
        main.setSpacing(8)
        search = QHBoxLayout()
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Search the chronicle (Ctrl+F): a name, a place, a monster…")
        self.filter.setClearButtonEnabled(True)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(150)
        self._debounce.timeout.connect(self.redraw)
        self.filter.textChanged.connect(lambda _t: self._debounce.start())
        self.filter.returnPressed.connect(self.redraw)
        search.addWidget(self.filter, 1)
        self.count_label = QLabel("")
        self.count_label.setProperty("role", "muted")
        self.count_label.setMinimumWidth(150)
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        search.addWidget(self.count_label)
        main.addLayout(search)
        self.text = QTextBrowser()
        self.text.setProperty("role", "log")
        self.text.setOpenLinks(False)
        main.addWidget(self.text, 1)
        body.addLayout(main, 1)
        root.addLayout(body, 1)

        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.back.emit)
        QShortcut(QKeySequence.StandardKey.Find, self, self._focus_filter)
        QShortcut(QKeySequence("Ctrl+E"), self, lambda: self.export_dialog("md"))

    def _focus_filter(self) -> None:
        self.filter.setFocus()
        self.filter.selectAll()

    # --- showing -----------------------------------------------------------------------------------------

    def matches(self) -> list[tuple[int | None, list[dict[str, Any]]]]:
        """The days and their entries that the filter keeps (all of them with an empty filter)."""
        words = self.filter.text().lower().split()
        if not words:
            return self.groups
        out = []
        for day, evs in self.groups:
            kept = [e for e in evs if all(w in f"{e['text']} {e['kind']}".lower() for w in words)]
            if kept:
                out.append((day, kept))
        return out

    def redraw(self) -> None:
        """Draw the chronicle (or what the filter keeps) and the list of days."""
        c = COLORS
        groups = self.matches()
        words = self.filter.text().lower().split()
        parts = [
            f"<style>h2 {{ color: {c['gold']}; font-size: large; margin: 14px 0 4px 0; }}"
            f" p {{ margin: 4px 0 4px 0; }} .m {{ font-weight: bold; color: {c['paper']}; }}"
            f" .grim {{ color: {c['danger']}; font-weight: bold; }} .hit {{ background: {c['accent_dark']}; }}</style>"
        ]
        if not self.groups:
            parts.append(f"<p style='color:{c['muted']}'><i>Nothing has happened yet.</i></p>")
        elif not groups:
            parts.append(f"<p style='color:{c['muted']}'><i>Nothing in the chronicle matches.</i></p>")
        for i, (day, evs) in enumerate(groups):
            parts.append(f"<a name='day{i}'></a><h2>{html.escape(_day_heading(day))}</h2>")
            for e in evs:
                text = self._mark(str(e["text"]).strip(), words)
                kind = str(e["kind"])
                cls = "grim" if kind in GRIM else ("m" if kind in self.milestones else "")
                parts.append(f"<p class='{cls}'>{text}</p>" if cls else f"<p>{text}</p>")
        self.text.setHtml("\n".join(parts))
        n = sum(len(evs) for _d, evs in groups)
        total = sum(len(evs) for _d, evs in self.groups)
        self.count_label.setText(f"{n} of {total} entries" if words else f"{total} entries")
        self.days.blockSignals(True)
        self.days.clear()
        for day, evs in groups:
            item = QListWidgetItem(f"{_day_heading(day)}  —  {len(evs)} entr{'ies' if len(evs) != 1 else 'y'}")
            item.setToolTip(html.escape(str(evs[0]["text"]))[:200])
            self.days.addItem(item)
        self.days.blockSignals(False)
        self._shown = groups

    @staticmethod
    def _mark(text: str, words: list[str]) -> str:
        """The text, escaped, with the searched words highlighted."""
        low = text.lower()
        spans: list[tuple[int, int]] = []
        for w in words:
            i = 0
            while w and (j := low.find(w, i)) >= 0:
                spans.append((j, j + len(w)))
                i = j + len(w)
        out, pos = [], 0
        for start, end in sorted(spans):
            if start < pos:
                start = pos
            if start >= end:
                continue
            out.append(html.escape(text[pos:start]))
            out.append(f"<span class='hit'>{html.escape(text[start:end])}</span>")
            pos = end
        out.append(html.escape(text[pos:]))
        return "".join(out).replace("\n", "<br>")

    def _jump(self, row: int) -> None:
        if row >= 0:
            self.text.scrollToAnchor(f"day{row}")

    # --- export ------------------------------------------------------------------------------------------

    def chronicle_text(self, fmt: Format) -> str:
        """The whole chronicle as Markdown or HTML (:func:`desktop.persistence.chronicle`)."""
        from desktop.persistence import chronicle

        if self.session is not None:
            self.session.flush()  # the last step's transaction is in the file
            return chronicle(self.session.save, fmt)
        save: SaveFile
        from desktop.persistence import SaveFile

        with SaveFile.open(self.path) as save:
            return chronicle(save, fmt)

    def export(self, path: Path, fmt: Format) -> Path:
        """Write the chronicle to ``path``; raises OSError / SaveError."""
        path.write_text(self.chronicle_text(fmt), encoding="utf-8")
        return path

    def export_dialog(self, fmt: Format) -> None:
        from desktop.persistence import SaveError, slugify

        suffix, label = (".md", "Markdown (*.md)") if fmt == "md" else (".html", "Web page (*.html)")
        default = Path.home() / f"{slugify(self.title())}{suffix}"
        name, _ = QFileDialog.getSaveFileName(self, "Export the chronicle", str(default), label)
        if not name:
            return
        target = Path(name)
        if not target.suffix:
            target = target.with_suffix(suffix)
        try:
            self.export(target, fmt)
        except (OSError, SaveError) as exc:
            QMessageBox.warning(self, "Export failed", f"The chronicle could not be written to {target}:\n{exc}")
            return
        self.count_label.setText(f"Written to {target.name}")
