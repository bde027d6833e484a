"""The game screen: refused actions, the GM's autoplay, the end of the campaign, the party panel, the log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop.screens.game import GameScreen
from desktop.session import Session
from desktop.settings import Settings
from desktop.widgets.action_list import ActionList
from desktop.widgets.log_view import LogView
from desktop.widgets.party_panel import AVAILABLE, FATIGUED, WOUNDED
from rules.attributes import ATTRS
from rules.gm.events import Action, Cost, Event
from rules.gm.state import Phase


@pytest.fixture
def screen(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("BLACKSALT_CONFIG_DIR", str(tmp_path / "config"))
    s = Session.new(seed=5, party_size=2, folder=tmp_path)
    g = GameScreen(s, Settings(gm_rerolls=True))
    qtbot.addWidget(g)
    g.resize(1280, 720)
    g.show()
    yield g
    s.close()


def test_a_refused_action_shows_a_message_and_changes_nothing(
    screen: GameScreen, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: shown.append(text))
    s = screen.session
    steps = s.campaign.stats.steps
    events = screen.play(Action("no_such_thing", "nothing", "Do nothing"))
    assert events == [] and shown and "no_such_thing" in shown[0]
    assert s.campaign.stats.steps == steps
    assert s.log() == []


def test_the_gm_plays_one_step_from_the_menu(screen: GameScreen) -> None:
    s = screen.session
    assert s.phase is Phase.INTERLUDE
    screen.autoplay_action.trigger()
    assert s.campaign.stats.steps == 1
    assert "interlude" in screen.log.toPlainText().lower() or screen.log.count > 0
    # the decider was the GM's for that step only
    from desktop.decider import QtDecider

    assert isinstance(s.gm.decider, QtDecider)


def test_views_follow_the_phase_and_every_view_plays(screen: GameScreen) -> None:
    s = screen.session
    for _ in range(40):
        view = screen.current_view()
        if s.phase is Phase.OVER:
            break
        assert view is screen.views[s.phase]
        events = screen.autoplay()
        assert events or s.phase is Phase.OVER
        if s.phase is Phase.EXPLORATION:
            break
    assert screen.current_view() is screen.views.get(s.phase, screen.over)


def test_the_end_of_the_campaign(qtbot: Any, screen: GameScreen) -> None:
    s = screen.session
    s.campaign.outcome = "perished"
    s.campaign.phase = Phase.OVER
    screen.refresh([])
    assert screen.current_view() is screen.over
    assert "Island Keeps" in screen.over.title.text()
    for m in s.campaign.party:
        assert m.name in screen.over.roster.text()
    with qtbot.waitSignal(screen.quit_to_menu, timeout=1000):
        qtbot.mouseClick(
            screen.over.findChild(type(screen.inventory_button), "back_to_menu"), Qt.MouseButton.LeftButton
        )


def test_party_panel_draws_each_attribute_from_the_character(screen: GameScreen) -> None:
    s = screen.session
    m = s.campaign.party[0]
    ch = m.adv.character
    a = ATTRS[0]
    ch.attrs[a].score = 3
    ch.attrs[a].fatigue = 1
    ch.attrs[a].wounds = 1
    ch.afflictions.add("hungry")
    screen.refresh([])
    card = screen.party.cards[m.id]
    from PySide6.QtWidgets import QLabel

    dice = card.findChild(QLabel, f"dice:{a.value}")
    text = dice.text()
    assert text.count(AVAILABLE) == 1 and text.count(FATIGUED) == 1 and text.count(WOUNDED) == 1
    tags = [t for t in card.findChildren(QLabel, "tag") if t.property("affliction") == "hungry"]
    assert tags and "Wounds do not heal" in tags[0].toolTip()
    assert f"{ch.silver} s" == card.findChild(QLabel, "silver").text()


def test_top_bar_shows_silver_against_the_goal(screen: GameScreen) -> None:
    c = screen.session.campaign
    assert screen.silver_label.text().startswith(f"{c.silver} / {c.goal_silver}")
    assert screen.place_label.text() == c.settlement


def test_log_view_styles_and_hides() -> None:
    log = LogView()
    log.append_events([
        Event("test", "Ana tests DEX (a lock): success", {"dice": [1, 4, 6], "final": [2, 4, 6]}),
        Event("doom", "The dungeon stirs (noise).", {"hidden": True}),
        Event("loot", "The party takes 12 silver."),
    ])  # fmt: skip
    text = log.toPlainText()
    assert "The dungeon stirs" not in text
    assert "⚀ ⚃ ⚅ → ⚁ ⚃ ⚅" in text and "12 silver" in text
    assert log.count == 2


def test_action_list_numbers_only_what_can_be_done(qtbot: Any) -> None:
    lst = ActionList()
    qtbot.addWidget(lst)
    acts = [Action("a", "move", "Go west", Cost(turns=1)), Action("b", "loot", "Loot", Cost(turns=1), False,
            "Nothing left to take here."), Action("c", "exit", "Leave", Cost())]  # fmt: skip
    lst.set_actions(acts)
    assert [a.id for a in lst.numbered_actions()] == ["a", "c"]
    got: list[Action] = []
    lst.chosen.connect(got.append)
    assert lst.trigger(2) and got[-1].id == "c"
    b = lst.button_for("b")
    assert b is not None and not b.isEnabled() and "Nothing left" in b.toolTip()
    qtbot.mouseClick(lst.button_for("a"), Qt.MouseButton.LeftButton)
    assert got[-1].id == "a"


def test_the_log_is_readable_and_cannot_squeeze_the_view(screen: GameScreen) -> None:
    """#16.10: the log starts several lines high, and dragging it up leaves the map or grid usable."""
    from desktop.screens.game import LOG_KEEPS_VIEW

    screen.resize(1280, 720)
    lines = screen.log.height() / screen.log.fontMetrics().lineSpacing()
    assert lines >= 7
    screen.centre.setSizes([10, 2000])  # the player drags the log as high as it goes
    assert screen.stack.height() >= LOG_KEEPS_VIEW


def test_a_decision_with_an_apostrophe_shows_it(qtbot: Any) -> None:
    from PySide6.QtWidgets import QLabel

    from desktop.decider import DecisionDialog

    dlg = DecisionDialog(None, "The Swarm's nest: which way?", ["left", "right"])
    qtbot.addWidget(dlg)
    heads = [lab.text() for lab in dlg.findChildren(QLabel)]
    assert "The Swarm's nest: which way?" in heads
    assert not any("&#x27;" in h for h in heads)
