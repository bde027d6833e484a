"""The dice tray's and the decision dialog's keys, through the real widgets: Enter keeps, numbers reroll,
Esc and the X never roll or choose silently, a key pressed before a dialog showed is not taken."""

from __future__ import annotations

from random import Random
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop.decider import DecisionDialog, choose_dialog
from desktop.keys import GUARD_MS
from desktop.widgets.dice_tray import DiceTray
from rules.checks import TestSpec as Spec


def open_tray(qtbot: Any, spec: Spec, seed: int = 3) -> DiceTray:
    tray = DiceTray()
    qtbot.addWidget(tray)
    tray.play(spec, Random(seed))
    tray.show()
    qtbot.waitExposed(tray)
    tray.activateWindow()
    qtbot.waitUntil(tray.isActiveWindow, timeout=2000)
    qtbot.wait(GUARD_MS + 50)  # a player's first key comes after the tray is on screen
    return tray


def key(qtbot: Any, tray: Any, k: Qt.Key) -> None:
    qtbot.keyClick(QApplication.focusWidget() or tray, k)


def answer_question(qtbot: Any, tray: DiceTray, button_text: str) -> None:
    """Click ``button_text`` in the question the tray asks."""
    qtbot.waitUntil(lambda: tray.question is not None and tray.question.isVisible(), timeout=2000)
    box = tray.question
    assert box is not None
    target = next(b for b in box.buttons() if b.text() == button_text)
    qtbot.mouseClick(target, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tray.question is None, timeout=2000)


def test_enter_rolls_then_keeps_these_dice(qtbot: Any) -> None:
    tray = open_tray(qtbot, Spec(dice=3, proficiency=2))
    key(qtbot, tray, Qt.Key.Key_Return)
    assert tray.stage == "reroll"
    test = tray.live_test
    assert test is not None and test.player_left == 2
    key(qtbot, tray, Qt.Key.Key_Return)  # Enter: keep these dice
    assert tray.stage == "outcome"
    assert test.history == []  # kept, not rerolled


def test_a_number_rerolls_that_die(qtbot: Any) -> None:
    tray = open_tray(qtbot, Spec(dice=3, proficiency=2))
    key(qtbot, tray, Qt.Key.Key_Return)
    test = tray.live_test
    assert test is not None
    before = list(test.main)
    key(qtbot, tray, Qt.Key.Key_2)
    assert test.player_left == 1
    assert test.history[-1].index == 1 and test.history[-1].old == before[1]


def test_esc_before_the_roll_asks_and_never_rolls_unasked(qtbot: Any) -> None:
    tray = open_tray(qtbot, Spec(dice=2, proficiency=1))
    key(qtbot, tray, Qt.Key.Key_Escape)
    answer_question(qtbot, tray, "Back to the tray")
    assert tray.stage == "before" and tray.live_test is None and tray.isVisible()
    tray.close()  # the window's X
    answer_question(qtbot, tray, "Back to the tray")
    assert tray.stage == "before" and tray.live_test is None and tray.isVisible()
    key(qtbot, tray, Qt.Key.Key_Escape)
    answer_question(qtbot, tray, "Roll the dice")
    assert tray.live_test is not None and tray.stage in ("reroll", "outcome")


def test_esc_between_rerolls_asks_before_keeping(qtbot: Any) -> None:
    tray = open_tray(qtbot, Spec(dice=2, proficiency=2))
    key(qtbot, tray, Qt.Key.Key_Return)
    assert tray.stage == "reroll"
    key(qtbot, tray, Qt.Key.Key_Escape)
    answer_question(qtbot, tray, "Back to the tray")
    assert tray.stage == "reroll"
    key(qtbot, tray, Qt.Key.Key_Escape)
    answer_question(qtbot, tray, "Keep these dice")
    assert tray.stage == "outcome"
    key(qtbot, tray, Qt.Key.Key_Escape)  # the outcome: Esc closes it like Continue
    assert not tray.isVisible()


def test_closing_a_decision_with_its_x_chooses_nothing(qtbot: Any) -> None:
    dlg = DecisionDialog(None, "Noll: which affliction?", ["angry", "terrified", "sleepy"])
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    dlg.close()
    assert dlg.isVisible() and dlg.chosen is None
    assert dlg.note.isVisible() and "must be answered" in dlg.note.text()
    QTest.keyClick(dlg, Qt.Key.Key_Escape)
    assert dlg.isVisible() and dlg.chosen is None
    qtbot.wait(GUARD_MS + 50)
    dlg.activateWindow()
    qtbot.waitUntil(dlg.isActiveWindow, timeout=2000)
    QTest.keyClick(QApplication.focusWidget() or dlg, Qt.Key.Key_2)
    qtbot.waitUntil(lambda: dlg.chosen is not None, timeout=1000)  # the button shows its press, then acts
    assert dlg.chosen == 1 and not dlg.isVisible()


def test_a_key_pressed_before_the_decision_showed_is_not_taken(qtbot: Any) -> None:
    """The dice tray closes, the engine goes on and asks; the "2" the player had typed for the screen behind
    arrives as the question appears: it must not answer a question never seen."""
    seen: list[str] = []

    def typed_ahead() -> None:
        dlg = QApplication.activeModalWidget()
        if not isinstance(dlg, DecisionDialog):
            QTimer.singleShot(1, typed_ahead)
            return
        QTest.keyClick(QApplication.focusWidget() or dlg, Qt.Key.Key_2)  # the key queued before it showed
        seen.append(f"dropped {dlg.key_guard.dropped}")
        QTimer.singleShot(GUARD_MS + 80, lambda: answer(dlg))

    def answer(dlg: DecisionDialog) -> None:
        seen.append("visible" if dlg.isVisible() else "closed")
        dlg.activateWindow()
        QTest.keyClick(QApplication.focusWidget() or dlg, Qt.Key.Key_3)  # read, then answered

    QTimer.singleShot(0, typed_ahead)
    chosen = choose_dialog(None, "Noll: which affliction?", ["angry", "terrified", "sleepy"])
    assert seen[0] != "dropped 0" and seen[1] == "visible"
    assert chosen == 2


def test_the_tray_drops_keys_pressed_as_it_opens(qtbot: Any) -> None:
    tray = DiceTray()
    qtbot.addWidget(tray)
    tray.play(Spec(dice=2, proficiency=1), Random(3))
    tray.show()
    QTest.keyClick(QApplication.focusWidget() or tray, Qt.Key.Key_Return)  # at once: pressed for what was before
    assert tray.stage == "before" and tray.live_test is None
    qtbot.wait(GUARD_MS + 50)
    tray.activateWindow()
    qtbot.waitUntil(tray.isActiveWindow, timeout=2000)
    QTest.keyClick(QApplication.focusWidget() or tray, Qt.Key.Key_Return)
    assert tray.live_test is not None


def test_the_question_box_is_a_message_box(qtbot: Any) -> None:
    tray = open_tray(qtbot, Spec(dice=1))
    tray.reject()
    assert isinstance(tray.question, QMessageBox) and tray.question.isVisible()
    assert tray.stage == "before" and tray.isVisible()
    answer_question(qtbot, tray, "Back to the tray")


def test_the_window_behind_a_closed_and_deleted_dialog_takes_the_keys_back(qtbot: Any) -> None:
    """Under X with no window manager a caution dialog closed by Esc and deleted at once left no window active
    (Qt says nothing when a focused window is deleted): every key after it went nowhere until a click."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QMainWindow

    from desktop.cautions import Caution
    from desktop.screens.game import CautionDialog

    main = QMainWindow()
    qtbot.addWidget(main)
    main.show()
    qtbot.waitExposed(main)
    main.activateWindow()
    qtbot.waitUntil(lambda: QGuiApplication.focusWindow() == main.windowHandle(), timeout=2000)
    dlg = CautionDialog(main, Caution(key="no_light", title="No light", text="No one carries a light.", go="Go"))
    dlg.show()
    qtbot.waitExposed(dlg)
    dlg.activateWindow()
    qtbot.waitUntil(lambda: QGuiApplication.focusWindow() == dlg.windowHandle(), timeout=2000)
    dlg.reject()
    dlg.deleteLater()
    QApplication.sendPostedEvents(None, 52)  # QEvent.DeferredDelete: deleted before any focus news arrives
    qtbot.waitUntil(lambda: QGuiApplication.focusWindow() == main.windowHandle(), timeout=2000)
    assert QApplication.activeWindow() is main
