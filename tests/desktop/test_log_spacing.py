"""The log's lines sit close together (#16 follow-up): one-line steps no longer spread three lines apart."""

from __future__ import annotations

from typing import Any

from desktop.widgets.log_view import LogView
from rules.gm.events import Event


def test_one_line_steps_take_about_one_line_each(qtbot: Any) -> None:
    log = LogView()
    qtbot.addWidget(log)
    log.resize(700, 400)
    for n in range(20):
        log.append_events([Event("move", f"Kestrin Ostrowin moves {n} tiles.", {})])
    assert len(log.plain_lines()) == 20
    doc = log.document()
    doc.setTextWidth(680)
    line = log.fontMetrics().lineSpacing()
    assert doc.size().height() / 20 < 2.0 * line, (doc.size().height() / 20, line)
