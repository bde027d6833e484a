"""The fight stays in sight (#16.7): a dice tray asked while the enemies act stands beside the grid, and the
fight screen says why the fight began."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect

from desktop.screens.game import GameScreen
from desktop.session import Session
from desktop.settings import ENV_CONFIG_DIR, Settings
from desktop.widgets.dice_tray import DiceTray
from rules.attributes import Attr
from tests.desktop.test_combat_view import _to_combat

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(ENV_CONFIG_DIR, str(tmp_path / "config"))
    return tmp_path / "config"


@pytest.fixture
def fight(qtbot: Any, tmp_path: Path) -> Iterator[GameScreen]:
    s = Session.new(seed=7, party_size=3, folder=tmp_path)
    _to_combat(s)
    game = GameScreen(s, Settings())
    qtbot.addWidget(game)
    yield game
    s.close()


@pytest.mark.parametrize("size", [(1024, 640), (1280, 720), (2560, 1440)])
def test_the_dice_tray_stands_beside_the_grid(qtbot: Any, fight: GameScreen, size: tuple[int, int]) -> None:
    game = fight
    game.resize(*size)
    game.show()
    qtbot.waitExposed(game)
    qtbot.wait(30)
    keep = game.keep_in_sight()
    assert keep is not None and keep.width() > 100
    m = game.session.campaign.party[0]
    tray = DiceTray(game)
    tray.prepare(m.adv.character.test_spec(Attr.DEX), title=f"{m.name} tests DEX — dodge the Goblin's blow")
    tray.adjustSize()
    centred = QRect(game.mapToGlobal(game.rect().center()) - tray.rect().center(), tray.size())
    game.decider._place(tray)
    tray.show()
    qtbot.waitExposed(tray)
    over = tray.frameGeometry().intersected(keep)
    hidden = over.width() * over.height() / (keep.width() * keep.height()) if over.isValid() else 0.0
    was = centred.intersected(keep)
    hidden_before = was.width() * was.height() / (keep.width() * keep.height()) if was.isValid() else 0.0
    shots = os.environ.get("BLACKSALT_TEST_SHOTS")
    if shots:
        pix = game.grab()
        from PySide6.QtGui import QPainter

        p = QPainter(pix)
        p.drawPixmap(game.mapFromGlobal(tray.frameGeometry().topLeft()), tray.grab())
        p.end()
        pix.save(str(Path(shots) / f"tray-beside-grid-{size[0]}x{size[1]}.png"))
    tray.hide()
    assert hidden < 0.3 and hidden < hidden_before, (hidden, hidden_before, keep, tray.frameGeometry(), centred)


@pytest.mark.parametrize(
    ("source", "surprise", "says"),
    [
        ("they attack", None, "attacked as the party came into the Chapel"),
        ("the party attacks", "party", "The party attacked"),
        ("ambush", "enemies", "fell on the camp by surprise"),
        ("the sarcophagus", None, "came out fighting when the party searched the sarcophagus"),
        ("doom: wanderers", None, "found the party in the Chapel"),
        ("parley failed", None, "The talk with"),
    ],
)
def test_why_the_fight_began(source: str, surprise: str | None, says: str) -> None:
    from desktop.screens.combat import why_text
    from rules.gm.combat_state import CombatState, FoeGroup

    cs = CombatState(source=source, surprise=surprise)
    cs.groups.append(FoeGroup("Slumbering Corpse", 2))
    text = why_text(cs, "the Chapel")
    assert text.startswith("Why this fight: ") and says in text and "2 Slumbering Corpse" in text
    assert source.split(":")[0] not in ("doom",) or "doom:" not in text  # never the GM's own label


def test_the_fight_screen_says_why_it_began(qtbot: Any, fight: GameScreen) -> None:
    """Entering a room or searching once jumped to an initiative roll without a word: the screen says why."""
    view = fight.current_view()
    fight.resize(1280, 720)
    fight.show()
    qtbot.waitExposed(fight)
    cs = fight.session.campaign.combat
    assert cs is not None
    label = view.why  # type: ignore[union-attr]
    assert label.isVisible() and label.text().startswith("Why this fight: ")
    names = {g.monster for g in cs.groups}
    assert any(n in label.text() for n in names)


def test_a_question_while_the_enemies_act_stands_beside_the_grid(qtbot: Any, fight: GameScreen) -> None:
    """ "No STR dice left to defend: take the hit or roll anyway?" stood over the grid like the dice tray did."""
    from desktop.decider import DecisionDialog
    from desktop.widgets.dice_tray import place_beside

    game = fight
    game.resize(1280, 720)
    game.show()
    qtbot.waitExposed(game)
    qtbot.wait(30)
    keep = game.decider._keep()
    assert keep is not None
    dlg = DecisionDialog(game, "Wend has no STR dice left to defend against a bite", ["take the hit", "roll anyway"])
    place_beside(dlg, keep)
    dlg.show()
    qtbot.waitExposed(dlg)
    over = dlg.frameGeometry().intersected(keep)
    hidden = over.width() * over.height() / (keep.width() * keep.height()) if over.isValid() else 0.0
    dlg.chosen = 0
    dlg.accept()
    assert hidden < 0.3, (hidden, keep, dlg.frameGeometry())


def test_f_where_no_one_can_flee_says_why(qtbot: Any, fight: GameScreen) -> None:
    """F away from a way out did nothing at all in a real window: it says why, where the hint is."""
    import dataclasses

    from desktop.screens.combat import CombatView

    view = fight.current_view()
    assert isinstance(view, CombatView)
    fight.resize(1280, 720)
    fight.show()
    qtbot.waitExposed(fight)
    fight.activateWindow()
    qtbot.waitUntil(fight.isActiveWindow, timeout=2000)
    acting = view.acting
    flee = next(a for a in fight.session.actions() if a.kind == "flee" and a.who == acting)
    played: list[Any] = []
    view.act.connect(played.append)
    view._actions = [dataclasses.replace(flee, available=False, reason="No way out within reach.")]
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    qtbot.keyClick(QApplication.focusWidget() or fight, Qt.Key.Key_F)  # the key, as the player presses it
    assert not played
    assert view.hint.text() == "Flee: not now — No way out within reach."
