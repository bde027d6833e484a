"""The traps a new player walks into get a warning first (a job with no rations, no light; leaving a job
unfinished), each with "don't ask again" remembered in the settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLabel

from desktop.cautions import Caution
from desktop.screens.game import CautionDialog, GameScreen
from desktop.session import Session
from desktop.settings import Settings
from rules.gm.engine import AutoDecider
from rules.gm.events import Action
from rules.gm.state import Phase
from rules.inventory import Carried


@pytest.fixture
def screen(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("BLACKSALT_CONFIG_DIR", str(tmp_path / "config"))
    s = Session.new(seed=5, party_size=2, folder=tmp_path)
    g = GameScreen(s, Settings(gm_rerolls=True), decider=AutoDecider())
    qtbot.addWidget(g)
    g.resize(1280, 720)
    g.show()
    g.play(s.actions()[0])  # begin the interlude: the job board is up
    assert s.phase is Phase.INTERLUDE
    yield g
    s.close()


class Script:
    """Answers every caution with ``answer`` and keeps the keys asked."""

    def __init__(self, answer: tuple[bool, bool]) -> None:
        self.answer = answer
        self.asked: list[str] = []

    def __call__(self, c: Caution) -> tuple[bool, bool]:
        self.asked.append(c.key)
        return self.answer


def job(s: Session) -> Action:
    return next(a for a in s.actions() if a.kind == "expedition" and a.available)


def give(s: Session, name: str, count: int = 1) -> None:
    s.campaign.party[0].adv.inventory.items.append(Carried(name, "Bag", count=count))


def test_a_job_with_no_rations_is_warned_and_not_taking_it_changes_nothing(screen: GameScreen) -> None:
    s = screen.session
    give(s, "Torches", 3)
    screen.caution = script = Script((False, False))
    steps = s.campaign.stats.steps
    assert screen.play(job(s)) == []
    assert script.asked == ["no_rations"]
    assert s.campaign.stats.steps == steps and s.phase is Phase.INTERLUDE
    screen.caution = script = Script((True, False))
    assert screen.play(job(s))
    assert script.asked == ["no_rations"] and s.campaign.expedition is not None
    assert screen.settings.dont_ask == []


def test_a_job_with_no_light_is_warned(screen: GameScreen) -> None:
    s = screen.session
    give(s, "Ration", 4)
    screen.caution = script = Script((False, False))
    assert screen.play(job(s)) == []
    assert script.asked == ["no_light"]
    give(s, "Lantern")
    screen.caution = script = Script((False, False))
    assert screen.play(job(s))
    assert script.asked == []  # food and light: no word


def test_dont_ask_again_is_kept_in_the_settings_file(screen: GameScreen) -> None:
    s = screen.session
    screen.caution = script = Script((True, True))
    assert screen.play(job(s))
    assert script.asked == ["no_rations", "no_light"]
    assert Settings.load().dont_ask == ["no_light", "no_rations"]
    assert screen.settings.dont_ask == ["no_light", "no_rations"]


def test_silenced_cautions_are_not_asked(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLACKSALT_CONFIG_DIR", str(tmp_path / "config"))
    Settings(dont_ask=["no_rations", "no_light"]).save()
    s = Session.new(seed=5, party_size=2, folder=tmp_path)
    g = GameScreen(s, Settings.load(), decider=AutoDecider())
    qtbot.addWidget(g)
    g.play(s.actions()[0])
    g.caution = script = Script((False, False))
    assert g.play(job(s)) and script.asked == []
    s.close()


def test_leaving_a_job_unfinished_is_warned(screen: GameScreen) -> None:
    s = screen.session
    give(s, "Ration", 4)
    give(s, "Torches", 3)
    screen.play(job(s))
    for _ in range(6):
        if s.phase is Phase.EXPLORATION:
            break
        screen.play(next(a for a in s.actions() if a.available))
    exit_ = next(a for a in s.actions() if a.kind == "exit")
    screen.caution = script = Script((False, False))
    assert screen.play(exit_) == []
    assert script.asked == ["job_unfinished"] and s.campaign.expedition is not None
    loc = s.campaign.locations[s.campaign.expedition.location]
    loc.cleared = True  # the master is dead: leaving is what the party should do
    screen.caution = script = Script((False, False))
    assert screen.play(exit_)
    assert script.asked == []


def test_the_dialog_says_why_and_its_default_is_not_to_go(qtbot: Any, screen: GameScreen) -> None:
    s = screen.session
    seen: list[CautionDialog] = []

    def answer() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, CautionDialog)
        seen.append(dlg)
        assert dlg.stay.isDefault() and not dlg.never_again.isChecked()
        dlg.never_again.setChecked(True)
        dlg.stay.click()

    QTimer.singleShot(50, answer)
    assert screen.play(job(s)) == []
    text = seen[0].findChild(QLabel, "caution_text")
    assert text is not None and "ration" in text.text()
    assert screen.settings.dont_ask == ["no_rations"]  # asked never again, even though the party stayed
