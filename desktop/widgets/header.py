"""The head of a full-window screen: "← Back" (Esc), the title, and lines under it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout


def screen_header(
    title: str,
    on_back: Callable[[], object],
    lines: Sequence[tuple[str, str]] = (),
) -> tuple[QHBoxLayout, QPushButton, QLabel, list[QLabel]]:
    """The row, its back button, the title label and one label per ``(text, role)`` line under the title.
    The caller may add more widgets (buttons on the right) to the row."""
    top = QHBoxLayout()
    back = QPushButton("← Back")
    back.setToolTip("Back (Esc)")
    back.clicked.connect(on_back)
    top.addWidget(back, 0, Qt.AlignmentFlag.AlignTop)
    top.addSpacing(12)
    heads = QVBoxLayout()
    heads.setSpacing(2)
    title_label = QLabel(title)
    title_label.setProperty("role", "title")
    heads.addWidget(title_label)
    labels = []
    for text, role in lines:
        label = QLabel(text)
        label.setProperty("role", role)
        heads.addWidget(label)
        labels.append(label)
    top.addLayout(heads, 1)
    return top, back, title_label, labels
