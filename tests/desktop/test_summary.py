"""After every expedition the window tells it whole (#16.5): the engine's summary, in a dialog the player
sees on the way back to town; Enter or Esc closes it, and a key pressed before it showed is not taken."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from desktop.screens.game import GameScreen
from desktop.session import Session
from desktop.settings import Settings
from desktop.widgets.summary import SummaryDialog, summary_html
from rules.gm.engine import AutoDecider
from rules.gm.state import Phase

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DATA = {"title": "The Lightless Quarry", "days": 3, "turns": 41, "rooms": 6, "fights": 2,
        "loot": [["Silver chalice", 1, 40], ["Gold ring", 2, 30]], "loot_value": 70, "bounty": 80,
        "master_dead": True, "fallen": ["Fitch"], "silver": 174, "goal": 600, "to_go": 426, "earned": 150}  # fmt: skip


def test_every_expedition_ends_with_its_summary_on_screen(qtbot: Any, tmp_path: Path) -> None:
    s = Session.new(seed=77, party_size=3, folder=tmp_path)
    for _ in range(400):  # headless to the dungeon's door
        if s.phase is Phase.EXPLORATION:
            break
        s.autoplay()
    assert s.phase is Phase.EXPLORATION
    g = GameScreen(s, Settings(gm_rerolls=True), decider=AutoDecider())
    qtbot.addWidget(g)
    told: list[dict[str, Any]] = []
    g.summary = told.append
    g.show()
    for _ in range(1500):  # the GM plays the expedition through the window, to the way back
        if s.phase is Phase.INTERLUDE or s.phase is Phase.OVER:
            break
        g.autoplay()
    assert s.phase is Phase.INTERLUDE
    assert len(told) == 1
    data = told[0]
    assert data == s.campaign.last_expedition
    for key in ("title", "days", "turns", "rooms", "fights", "loot", "bounty", "fallen"):
        assert key in data
    s.close()


def test_the_summary_says_what_the_engine_says(qtbot: Any) -> None:
    dlg = SummaryDialog(None, DATA)
    qtbot.addWidget(dlg)
    text = dlg.body.text()
    assert "Back from The Lightless Quarry" in dlg.windowTitle()
    for bit in ("3 days away", "41 turns", "6 new rooms", "2 fights", "Silver chalice", "Gold ring ×2",
                "worth 70 silver", "Bounty:</b> 80 silver", "Fallen:</b> Fitch", "426 to go", "+150"):  # fmt: skip
        assert bit in text, bit
    alive = summary_html({**DATA, "bounty": 0, "master_dead": False, "fallen": [], "to_go": 0, "silver": 600})
    assert "still lives" in alive and "no one" in alive and "enough to leave" in alive
    assert "&lt;b&gt;" in summary_html({**DATA, "fallen": ["<b>"]})  # names are text, never markup


def test_esc_closes_the_summary_and_a_key_typed_ahead_is_not_taken(qtbot: Any) -> None:
    dlg = SummaryDialog(None, DATA)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    qtbot.keyClick(dlg, Qt.Key.Key_Escape)  # within the guard time: meant for the screen behind it
    assert dlg.isVisible()
    assert dlg.key_guard.dropped >= 1
    qtbot.wait(dlg.key_guard.guard_ms + 50)
    qtbot.keyClick(dlg, Qt.Key.Key_Escape)
    assert not dlg.isVisible()


def test_the_window_shows_the_dialog(qtbot: Any, tmp_path: Path) -> None:
    s = Session.new(seed=5, party_size=2, folder=tmp_path)
    g = GameScreen(s, Settings(gm_rerolls=True), decider=AutoDecider())
    qtbot.addWidget(g)
    g.show()
    from rules.gm.events import Event

    g._tell_summary([Event("expedition_summary", "…", dict(DATA))])
    dlg = g._summary
    assert isinstance(dlg, SummaryDialog) and dlg.isVisible() and dlg.parent() is g
    dlg.close()
    s.close()
