"""Keyboard play through the real game screen: every key acts once, wherever the focus is after a click.

Keys are sent where the window sends them: to the widget with the focus (or the window)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QShortcut
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from desktop.screens.camp import CampView
from desktop.screens.combat import CombatView
from desktop.screens.game import GameScreen
from desktop.session import Session
from desktop.settings import ENV_CONFIG_DIR, Settings
from rules.gm.state import Phase
from tests.desktop.test_camp_view import _to_camp
from tests.desktop.test_combat_view import _to_combat


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(ENV_CONFIG_DIR, str(tmp_path / "config"))
    return tmp_path / "config"


def screen_for(qtbot: Any, s: Session) -> GameScreen:
    game = GameScreen(s, Settings(gm_rerolls=True))
    qtbot.addWidget(game)
    game.resize(1280, 720)
    game.show()
    qtbot.waitExposed(game)
    game.activateWindow()
    qtbot.waitUntil(game.isActiveWindow, timeout=2000)
    return game


NOMOD = Qt.KeyboardModifier.NoModifier


def press(qtbot: Any, game: GameScreen, key: Qt.Key, mods: Qt.KeyboardModifier = NOMOD) -> None:
    """A key as the window gets it: to the focus widget, or the window when nothing has the focus."""
    target = QApplication.focusWidget() or game
    qtbot.keyClick(target, key, mods)


@pytest.fixture
def fight(qtbot: Any, tmp_path: Path) -> Iterator[GameScreen]:
    s = Session.new(seed=7, party_size=3, folder=tmp_path)
    _to_combat(s)
    game = screen_for(qtbot, s)
    yield game
    s.close()


@pytest.fixture
def fast_fight(qtbot: Any, tmp_path: Path) -> Iterator[GameScreen]:
    """A fight whose first phase has two fast adventurers, who act in the order the player likes."""
    s = Session.new(seed=5, party_size=3, folder=tmp_path)
    _to_combat(s)
    game = screen_for(qtbot, s)
    yield game
    s.close()


@pytest.fixture
def camp_screen(qtbot: Any, tmp_path: Path) -> Iterator[GameScreen]:
    s = Session.new(seed=7, party_size=3, folder=tmp_path)
    _to_camp(s)
    game = screen_for(qtbot, s)
    yield game
    s.close()


def steps(game: GameScreen) -> int:
    return game.session.campaign.stats.steps


def combat_view(game: GameScreen) -> CombatView:
    v = game.current_view()
    assert isinstance(v, CombatView)
    return v


def test_number_keys_take_the_numbered_combat_action(qtbot: Any, fight: GameScreen) -> None:
    v = combat_view(fight)
    numbered = v.list.numbered_actions()
    assert numbered
    played: list[Any] = []
    fight.stepped.connect(played.append)
    before = steps(fight)
    press(qtbot, fight, Qt.Key.Key_1)
    assert steps(fight) == before + 1
    log = fight.session.log()
    assert log  # the step was saved
    assert played


def test_keys_work_after_a_mouse_click_rebuilt_the_buttons(qtbot: Any, fight: GameScreen) -> None:
    v = combat_view(fight)
    button = next(b for b in v.list.buttons() if b.isEnabled())
    who = v.acting
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    if fight.session.phase is not Phase.COMBAT:
        pytest.skip("the click ended the fight")
    # the clicked button is gone (the list was rebuilt): E still ends the turn of whoever acts now
    acting = combat_view(fight).acting
    assert acting is not None
    before = steps(fight)
    press(qtbot, fight, Qt.Key.Key_E)
    assert steps(fight) == before + 1
    assert who is not None


def test_tab_picks_the_next_adventurer_and_e_ends_only_that_turn(qtbot: Any, fast_fight: GameScreen) -> None:
    fight = fast_fight
    order = list(dict.fromkeys(a.who for a in fight.session.actions() if a.available and a.who))
    assert len(order) >= 2, "seed 5's first fight opens with two fast adventurers"
    v = combat_view(fight)
    # Tab works wherever the focus is: on a button of the list, say
    next(b for b in v.list.buttons() if b.isEnabled()).setFocus()
    assert v.acting in order
    first = v.acting
    press(qtbot, fight, Qt.Key.Key_Tab)
    assert v.acting == order[(order.index(first) + 1) % len(order)]
    press(qtbot, fight, Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier)
    assert v.acting == first
    press(qtbot, fight, Qt.Key.Key_Tab)
    second = v.acting
    cs = fight.session.campaign.combat
    assert cs is not None
    press(qtbot, fight, Qt.Key.Key_E)
    cs = fight.session.campaign.combat
    if cs is not None and cs.round == 1:
        assert cs.fighter(second).actions == 0
        assert cs.fighter(first).actions > 0  # Tab chose whose turn E ended


def test_f_flees(qtbot: Any, fight: GameScreen) -> None:
    v = combat_view(fight)
    flee = next((a for a in fight.session.actions() if a.kind == "flee" and a.who == v.acting), None)
    if flee is None or not flee.available:
        pytest.skip(f"no flight possible here ({flee.reason if flee else 'no flee action'})")
    who = v.acting
    press(qtbot, fight, Qt.Key.Key_F)
    cs = fight.session.campaign.combat
    assert cs is None or cs.fighter(who).fled


def test_a_held_key_acts_once(qtbot: Any, fight: GameScreen) -> None:
    """Auto-repeat: holding E must not end the next adventurer's turn too."""
    before = steps(fight)
    target = QApplication.focusWidget() or fight
    QTest.simulateEvent(target, True, Qt.Key.Key_E, Qt.KeyboardModifier.NoModifier, "e", False)
    after_first = steps(fight)
    assert after_first == before + 1
    for _ in range(3):
        target = QApplication.focusWidget() or fight
        QTest.simulateEvent(target, True, Qt.Key.Key_E, Qt.KeyboardModifier.NoModifier, "e", True)
    QTest.simulateEvent(QApplication.focusWidget() or fight, False, Qt.Key.Key_E, Qt.KeyboardModifier.NoModifier,
                        "e", False)  # fmt: skip
    assert steps(fight) == after_first


def test_a_key_pressed_while_the_step_runs_does_nothing(qtbot: Any, fight: GameScreen, monkeypatch: Any) -> None:
    """One E ended a turn and skipped the next adventurer's: a second press queued while the engine worked
    reached the next adventurer.  Input that arrives during a step is dropped."""
    session = fight.session
    real = session.apply

    def slow_apply(action: Any, **kw: Any) -> Any:
        # the player presses E again while the step runs: the key waits in the queue until the step is done
        QTimer.singleShot(0, lambda: press(qtbot, fight, Qt.Key.Key_E))
        return real(action, **kw)

    monkeypatch.setattr(session, "apply", slow_apply)
    before = steps(fight)
    press(qtbot, fight, Qt.Key.Key_E)
    qtbot.wait(100)
    assert steps(fight) == before + 1


def test_camp_number_keys_and_b_after_a_click(qtbot: Any, camp_screen: GameScreen) -> None:
    game = camp_screen
    v = game.current_view()
    assert isinstance(v, CampView)
    numbered = v.list.numbered_actions()
    assert numbered
    before = steps(game)
    press(qtbot, game, Qt.Key.Key_1)
    assert steps(game) == before + 1
    press(qtbot, game, Qt.Key.Key_S)
    st = game.session.campaign.camp
    assert st is not None and st.stage == "actions"
    # a camp action taken with the mouse (the button is rebuilt), then B breaks camp
    button = next((b for b in v.list.buttons() if b.isEnabled()), None)
    if button is not None:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    if game.session.phase is Phase.CAMP:
        press(qtbot, game, Qt.Key.Key_B)
    assert game.session.campaign.camp is None


def expand(written: str) -> set[str]:
    """The keys a help line names: "Ctrl+1–5" is Ctrl+1 … Ctrl+5, "Enter" is also Return, "A / B" both."""
    out: set[str] = set()
    for part in written.replace(", ", " / ").split(" / "):
        part = part.strip()
        head, _, rng = part.rpartition("+") if "–" in part and "+" in part else ("", "", part)
        if "–" in rng and rng[0].isdigit():
            lo, hi = rng.split("–")
            keys = [str(n) for n in range(int(lo), int(hi) + 1)]
        else:
            keys = [rng]
        for k in keys:
            full = f"{head}+{k}" if head else k
            out.add(full)
            out.add(full.replace("Enter", "Return"))
    return out


def test_every_key_bound_is_in_the_help_and_the_help_lists_every_screen(qtbot: Any, fight: GameScreen) -> None:
    from desktop.keys import key_help, key_help_html

    tables = dict(key_help())
    listed = set()
    for _title, table in key_help():
        for written, _ in table:
            listed |= expand(written)
    for view in [fight, *fight.views.values()]:
        for sc in view.findChildren(QShortcut):
            assert sc.key().toString() in listed, sc.key().toString()
    assert {"Combat", "Camp", "Exploring", "The dice tray", "A decision", "In town", "A new company"} <= set(tables)
    from desktop.screens.new_campaign import NewCampaignScreen

    company = NewCampaignScreen()
    qtbot.addWidget(company)
    for sc in company.findChildren(QShortcut):  # the new company's keys are in the help too
        assert sc.key().toString() in listed, sc.key().toString()
    html = key_help_html()
    for key in ("Tab / Shift+Tab", "Flee", "Break camp", "Keep these dice"):
        assert key in html


def test_the_help_menu_shows_the_keys(qtbot: Any, tmp_path: Path) -> None:
    from desktop.app import create_app
    from desktop.main_window import MainWindow

    create_app(["test"], Settings())
    w = MainWindow(Settings(), saves_folder=tmp_path)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    help_menu = next(a.menu() for a in w.menuBar().actions() if a.text() == "&Help")
    assert w.act_keys in help_menu.actions()
    w.act_keys.trigger()
    assert w.keys_dialog.isVisible()
    from PySide6.QtWidgets import QTextBrowser

    text = w.keys_dialog.findChild(QTextBrowser, "keys_text").toPlainText()
    assert "End this adventurer's turn" in text and "Break camp" in text and "Reroll that die" in text
    w.keys_dialog.close()
