"""Who makes a test is the player's choice (best odds first, and the default); the odds are the exact ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from desktop.chances import testers as chances_of
from desktop.decider import QtDecider, TesterDialog
from desktop.screens.game import GameScreen
from desktop.session import Session
from desktop.settings import Settings
from rules.gm.events import Action
from rules.gm.state import Phase


@pytest.fixture
def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("BLACKSALT_CONFIG_DIR", str(tmp_path / "config"))
    # the first seed whose first job lets the party search its first room (which seed moves whenever the
    # generator's dungeons change)
    for seed in range(3, 40):
        s = Session.new(seed=seed, party_size=3, folder=tmp_path / str(seed))
        s.apply(next(a for a in s.actions() if a.id == "begin"))
        s.apply(next(a for a in s.actions() if a.kind == "expedition" and a.available))
        if s.phase is Phase.EXPLORATION and search(s).available:
            break
        s.close()
    assert s.phase is Phase.EXPLORATION
    yield s
    s.close()


def search(s: Session) -> Action:
    return next(a for a in s.actions() if a.id == "search")


def screen_for(qtbot: Any, s: Session, ask: Any, gm_decides: bool = False) -> GameScreen:
    settings = Settings(gm_rerolls=gm_decides)
    g = GameScreen(s, settings, decider=QtDecider(settings, ask=ask))
    qtbot.addWidget(g)
    g.resize(1280, 720)
    g.show()
    return g


def who_tested(events: list[Any]) -> list[str]:
    return [e.data["who"] for e in events if e.kind == "test"]


def test_everyone_who_may_search_best_odds_first_and_the_campaign_untouched(session: Session) -> None:
    action = search(session)
    before = session.campaign.to_dict()
    chances = chances_of(session.gm, action)
    assert {c.who for c in chances} == {m.id for m in session.gm.active()}
    assert [c.key for c in chances] == sorted(c.key for c in chances)
    assert all(0 <= c.success <= 1 and c.attr == "INT" for c in chances)
    assert session.campaign.to_dict() == before  # probed in a copy


def test_the_player_sends_someone_else(qtbot: Any, session: Session) -> None:
    asked: list[Any] = []

    def ask(kind: str, p: dict[str, Any]) -> Any:
        if kind == "tester":
            asked.append(p["chances"])
            return p["chances"][-1].who  # not the best odds: the player's choice stands
        return None

    g = screen_for(qtbot, session, ask)
    able = len(session.gm.active())  # before: the worst odds may collapse the one sent
    events = g.play(search(session))
    assert asked and len(asked[0]) == able
    assert who_tested(events) == [asked[0][-1].who]


def test_taking_it_back_does_nothing(qtbot: Any, session: Session) -> None:
    g = screen_for(qtbot, session, lambda kind, p: "" if kind == "tester" else None)
    steps = session.campaign.stats.steps
    assert g.play(search(session)) == []
    assert session.campaign.stats.steps == steps


def test_when_the_gm_decides_the_best_odds_go(qtbot: Any, session: Session) -> None:
    best = chances_of(session.gm, search(session))[0]

    def ask(kind: str, p: dict[str, Any]) -> Any:
        raise AssertionError(f"asked {kind}")

    g = screen_for(qtbot, session, ask, gm_decides=True)
    assert who_tested(g.play(search(session))) == [best.who]


def test_the_dialog_offers_the_best_odds_by_default(qtbot: Any, session: Session) -> None:
    chances = chances_of(session.gm, search(session))
    seen: list[TesterDialog] = []

    def answer() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, TesterDialog)
        seen.append(dlg)
        dlg.buttons[1].click()

    from desktop.decider import tester_dialog

    QTimer.singleShot(50, answer)
    who = tester_dialog(None, search(session), chances)
    dlg = seen[0]
    assert dlg.buttons[0].isDefault() and "best odds" in dlg.buttons[0].text()
    assert all("% success" in b.text() for b in dlg.buttons)
    assert who == chances[1].who
