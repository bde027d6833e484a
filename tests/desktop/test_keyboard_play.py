"""A town day from the keyboard alone, as a player at a real window found it (#16.3): where the keys are after
each step, and that Tab walks every button there is to press."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from desktop.screens.game import GameScreen
from desktop.screens.interlude import TABS, InterludeView
from desktop.session import Session
from desktop.settings import ENV_CONFIG_DIR
from tests.desktop.test_keys import press, screen_for

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(ENV_CONFIG_DIR, str(tmp_path / "config"))
    return tmp_path / "config"


@pytest.fixture
def town(qtbot: Any, tmp_path: Path) -> Iterator[GameScreen]:
    s = Session.new(seed=7, party_size=3, folder=tmp_path)
    game = screen_for(qtbot, s)
    game.play(next(a for a in s.actions() if a.id == "begin"))  # as a new campaign lands: the day has begun
    yield game
    s.close()


def focused() -> str:
    w = QApplication.focusWidget()
    return w.objectName() if w is not None else ""


def tab_to(qtbot: Any, game: GameScreen, name: str, limit: int = 200) -> None:
    """Tab until the button ``name`` has the keys (as a player would), failing if Tab never gets there."""
    seen = []
    for _ in range(limit):
        if focused() == name:
            return
        press(qtbot, game, Qt.Key.Key_Tab)
        seen.append(focused())
    raise AssertionError(f"Tab never reached {name}: {seen[:40]}")


def to_market(qtbot: Any, game: GameScreen) -> InterludeView:
    view = game.current_view()
    assert isinstance(view, InterludeView)
    s = game.session
    shopper = max(s.campaign.party, key=lambda m: m.adv.character.silver)
    game.play(next(a for a in s.actions() if a.id == f"shop:{shopper.id}"))
    game.play(next(a for a in s.actions() if a.id == "resolve"))
    assert s.campaign.interlude is not None and s.campaign.interlude.step == "market"
    assert view.tabs.currentIndex() == TABS.index("Shop")
    return view


def test_tab_reaches_a_job_before_the_log(qtbot: Any, town: GameScreen) -> None:
    """The job board's buttons come right after the tabs (Tab once stopped in two scroll areas and the log)."""
    view = town.current_view()
    assert isinstance(view, InterludeView)
    view.tabs.setCurrentIndex(TABS.index("Jobs"))
    view.tabs.tabBar().setFocus()
    qtbot.wait(50)  # the page laid out
    press(qtbot, town, Qt.Key.Key_Tab)
    assert focused().startswith("action:expedition:"), focused()


def test_tab_walks_the_market_and_the_keys_stay_there_after_a_buy(qtbot: Any, town: GameScreen) -> None:
    view = to_market(qtbot, town)
    s = town.session
    buys = [a for a in s.actions() if a.kind == "buy" and a.available and a.cost.silver > 0]
    first, second = f"action:{buys[0].id}", f"action:{buys[1].id}"
    view.shop_filter.setFocus()
    tab_to(qtbot, town, first)
    tab_to(qtbot, town, second)  # the table's own Tab moved an invisible cell: the first Buy kept the keys
    before = s.campaign.member(s.campaign.interlude.market).adv.character.silver
    press(qtbot, town, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: s.campaign.member(s.campaign.interlude.market).adv.character.silver < before)
    w = QApplication.focusWidget()
    # still in the market, on a button that can be pressed: never back on the top bar's Inventory
    assert isinstance(w, QPushButton) and view.isAncestorOf(w) and w.isEnabled(), focused()
    assert focused().startswith("action:")


def test_the_keys_come_back_to_the_window_after_a_warning(qtbot: Any, town: GameScreen) -> None:
    """A warning said "Not yet": the next key still reaches the screen (the window was left inactive)."""
    asked = []

    def caution(c: Any) -> tuple[bool, bool]:
        asked.append(c.key)
        return False, False

    town.caution = caution
    view = town.current_view()
    assert isinstance(view, InterludeView)
    job = next(a for a in town.session.actions() if a.kind == "expedition" and a.available)
    town.play(job)
    assert asked and town.session.campaign.expedition is None
    view.tabs.setCurrentIndex(TABS.index("Jobs"))
    view.tabs.tabBar().setFocus()
    qtbot.wait(50)
    assert town.isActiveWindow()
    press(qtbot, town, Qt.Key.Key_Tab)
    assert focused().startswith("action:expedition:"), focused()


def test_a_buy_that_empties_the_purse_leaves_the_keys_on_the_market(qtbot: Any, town: GameScreen) -> None:
    """The Buy pressed turns grey (no silver left for another): the keys go on to a button that can be pressed in
    the market, not back to the top bar."""
    view = to_market(qtbot, town)
    s = town.session
    shopper = s.campaign.member(s.campaign.interlude.market)
    silver = shopper.adv.character.silver
    buy = max((a for a in s.actions() if a.kind == "buy" and a.available and 2 * a.cost.silver > silver),
              key=lambda a: a.cost.silver)  # fmt: skip
    view.shop_filter.setText(buy.target or "")
    view.shop_filter.setFocus()
    tab_to(qtbot, town, f"action:{buy.id}")
    press(qtbot, town, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: shopper.adv.character.silver < silver)
    qtbot.wait(50)
    w = QApplication.focusWidget()
    assert isinstance(w, QPushButton) and view.isAncestorOf(w) and w.isEnabled(), (focused(), w)


def test_from_the_first_window_enter_begins_a_company_and_r_rolls_at_once(qtbot: Any, tmp_path: Path) -> None:
    """The first thing a new player meets: the keys are on New campaign (Continue is grey, so the focus once
    went to the screen's scroll area and Enter did nothing), Enter opens it, and R rolls before any click."""
    from desktop.screens.new_campaign import NewCampaignScreen
    from tests.desktop.test_shell import activate, make_window

    folder = tmp_path / "saves"
    folder.mkdir()
    w = make_window(qtbot, folder)
    activate(qtbot, w)
    start = w.start_screen()
    assert QApplication.focusWidget() is start.new_button
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    screen = w.stack.currentWidget().widget()  # the screen inside its scroll area
    assert isinstance(screen, NewCampaignScreen)
    card = screen.current_page().cards[0]
    before = card.view.status if card.view is not None else None
    qtbot.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_R)
    assert card.view is not None and card.view.status != before


def test_the_window_opens_within_a_small_screen(qtbot: Any, tmp_path: Path) -> None:
    """On a 1280×720 screen the window opened 760 px tall and its bottom row (Begin the campaign) was off it."""
    from desktop.main_window import first_size

    room = QApplication.primaryScreen().availableGeometry()
    width, height = first_size()
    assert 1024 <= width <= max(1024, room.width()) and 640 <= height <= max(640, room.height())


def test_a_step_redraws_only_the_party_cards_it_changed(qtbot: Any, town: GameScreen) -> None:
    """Speed (#16.12): the whole party column was built anew after every step (~50 ms); a step that changes one
    adventurer builds that card again, and the others stay as they were."""
    panel = town.party
    s = town.session
    before = dict(panel.cards)
    member = s.campaign.party[0]
    member.adv.character.silver += 7  # what a sale does to the seller alone
    panel.refresh()
    after = panel.cards
    assert set(after) == set(before)
    assert after[member.id] is not before[member.id]
    assert all(after[m.id] is before[m.id] for m in s.campaign.party[1:])
    assert f"{member.adv.character.silver} s" in " ".join(w.text() for w in after[member.id].findChildren(QLabel))


def test_after_continue_into_a_fight_the_arrows_move_its_cursor(qtbot: Any, tmp_path: Path) -> None:
    """Continue left the keys on the game screen itself, which passes no arrow on: the fight's cursor stood
    still until the player clicked.  The keys go to the phase view as soon as the campaign is shown."""
    from desktop.screens.combat import CombatView
    from tests.desktop.test_combat_view import _to_combat
    from tests.desktop.test_shell import activate, make_window

    folder = tmp_path / "saves"
    folder.mkdir()
    w = make_window(qtbot, folder)
    activate(qtbot, w)
    s = Session.new(seed=7, party_size=3, folder=folder)
    _to_combat(s)
    w.start_session(s)
    game = w.screens["game"]
    view = game.current_view()
    assert isinstance(view, CombatView)
    assert QApplication.focusWidget() is view
    w.close_session()


@pytest.fixture
def dungeon(qtbot: Any, tmp_path: Path) -> Iterator[GameScreen]:
    from rules.gm.state import Phase

    s = Session.new(seed=7, party_size=3, folder=tmp_path)
    for _ in range(400):
        if s.phase is Phase.EXPLORATION:
            break
        assert s.autoplay(), "the autoplay stopped before a dungeon"
    assert s.phase is Phase.EXPLORATION
    game = screen_for(qtbot, s)
    yield game
    s.close()


def test_c_makes_camp_and_x_leaves_whatever_the_number_of_actions(qtbot: Any, dungeon: GameScreen) -> None:
    """Camp and leaving come after the ninth action in a room with doors, features and prayers: at a real window
    no key reached them (#16). C and X do, and the Help lists them."""
    from desktop.keys import key_help
    from desktop.screens.expedition import ExplorationView
    from rules.gm.state import Phase

    keys = dict(next(t for title, t in key_help() if title == "Exploring"))
    assert "C" in keys and "X" in keys
    s = dungeon.session
    view = dungeon.current_view()
    assert isinstance(view, ExplorationView)
    exits = [a for a in s.actions() if a.kind == "exit" and a.available]
    assert exits, [a.id for a in s.actions()]
    asked: list[str] = []

    def caution(c: Any) -> tuple[bool, bool]:
        asked.append(c.key)
        return False, False

    dungeon.caution = caution
    press(qtbot, dungeon, Qt.Key.Key_X)
    assert asked == ["job_unfinished"] and s.phase is Phase.EXPLORATION  # X asked to leave; "Not yet" stays
    camp = next(a for a in s.actions() if a.kind == "camp")
    press(qtbot, dungeon, Qt.Key.Key_C)
    if camp.available:
        assert s.phase is Phase.CAMP  # C made camp, past the ninth action
    else:
        assert camp.reason and s.phase is Phase.EXPLORATION  # C takes nothing where camp cannot be made


def test_c_makes_camp_where_the_party_may(qtbot: Any, tmp_path: Path) -> None:
    from rules.gm.state import Phase

    s = Session.new(seed=5, party_size=3, folder=tmp_path)
    for _ in range(100):
        if s.phase is Phase.EXPLORATION and any(a.kind == "camp" and a.available for a in s.actions()):
            break
        assert s.autoplay(), "the autoplay stopped before a place to camp"
    game = screen_for(qtbot, s)
    press(qtbot, game, Qt.Key.Key_C)
    assert s.phase is Phase.CAMP
    s.close()
