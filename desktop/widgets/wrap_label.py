"""A word-wrapped label that keeps the height of the lines it wraps into.

A plain ``QLabel`` with word wrap tells its layout it needs one line's height; in a column squeezed for room
(1024×640, a large text size) the parts below were drawn over its other lines.  This one raises its minimum
height to what its text needs at the width it was given, so the column grows or scrolls instead.
"""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class WrapLabel(QLabel):
    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)

    def _fit(self) -> None:
        need = self.heightForWidth(self.width()) if self.width() > 0 else -1
        if need > 0 and need != self.minimumHeight():
            self.setMinimumHeight(need)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()
