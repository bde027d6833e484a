"""The expedition told whole when the party is back in town (#16.5): what the engine's ``expedition_summary``
event says (``Campaign.last_expedition``): days, turns, rooms, fights, what was carried out and its worth,
the bounty, the fallen, and how far the party is from its passage."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from desktop.widgets.wrap_label import WrapLabel


def summary_html(data: dict[str, Any]) -> str:
    """The summary's body as rich text (every name escaped)."""
    days, turns = int(data.get("days", 0)), int(data.get("turns", 0))
    rooms, fights = int(data.get("rooms", 0)), int(data.get("fights", 0))
    rows = [f"<p>{days} day{'s' if days != 1 else ''} away · {turns} turns in the dark · {rooms} new "
            f"room{'s' if rooms != 1 else ''} · {fights} fight{'s' if fights != 1 else ''}</p>"]  # fmt: skip
    loot = [tuple(x) for x in data.get("loot", [])]
    if loot:
        items = "".join(f"<li>{escape(str(name))}{f' ×{n}' if int(n) > 1 else ''} — {int(v)} silver</li>"
                        for name, n, v in loot)  # fmt: skip
        rows.append(f"<p><b>Carried out</b> (worth {int(data.get('loot_value', 0))} silver):</p><ul>{items}</ul>")
    else:
        rows.append("<p><b>Carried out:</b> nothing of value.</p>")
    bounty = int(data.get("bounty", 0))
    if bounty:
        rows.append(f"<p><b>Bounty:</b> {bounty} silver, shared out.</p>")
    elif not data.get("master_dead"):
        rows.append("<p><b>Bounty:</b> none — the master of the place still lives.</p>")
    fallen = [str(n) for n in data.get("fallen", [])]
    if fallen:
        rows.append(f"<p style='color:#c4806e'><b>Fallen:</b> {escape(', '.join(fallen))}.</p>")
    else:
        rows.append("<p><b>Fallen:</b> no one.</p>")
    earned = int(data.get("earned", 0))
    silver, goal = int(data.get("silver", 0)), int(data.get("goal", 0))
    to_go = int(data.get("to_go", max(0, goal - silver)))
    rows.append(f"<p>The party's silver: {silver} ({'+' if earned >= 0 else ''}{earned} on this expedition). "
                + (f"Passage off Blacksalt costs {goal}: {to_go} to go.</p>" if to_go else
                   f"Passage off Blacksalt costs {goal}: <b>enough to leave</b>.</p>"))  # fmt: skip
    return "".join(rows)


class SummaryDialog(QDialog):
    """The summary over the town; Enter or Esc closes it (a key pressed before it showed does nothing)."""

    def __init__(self, parent: QWidget | None, data: dict[str, Any]) -> None:
        from desktop.keys import DialogKeyGuard

        super().__init__(parent)
        self.setObjectName("expedition_summary")
        title = str(data.get("title", "The expedition"))
        self.setWindowTitle(f"Back from {title}")
        self.setMinimumWidth(420)
        col = QVBoxLayout(self)
        col.setContentsMargins(18, 14, 18, 14)
        col.setSpacing(8)
        head = QLabel(f"Back from {title}")
        head.setTextFormat(Qt.TextFormat.PlainText)
        head.setProperty("role", "heading")
        head.setWordWrap(True)
        col.addWidget(head)
        self.body = WrapLabel(summary_html(data))
        self.body.setObjectName("summary_text")
        self.body.setTextFormat(Qt.TextFormat.RichText)
        col.addWidget(self.body)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        col.addWidget(buttons)
        self.key_guard = DialogKeyGuard(self)
