"""Every screen usable at the window's least size (1024×640) and at text size 20 (#16.1): nothing drawn over
anything else, no strip of cards that scrolls sideways, and the window scrolls when a screen needs more room."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget

from desktop.settings import Settings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(params=[10.5, 20.0], ids=["text-10.5", "text-20"])
def text_size(request: Any) -> Iterator[float]:
    from desktop.app import create_app
    from desktop.theme import apply_theme

    app = create_app(["test"], Settings(text_size=request.param))
    apply_theme(app, Settings(text_size=request.param))
    yield request.param
    apply_theme(app, Settings())


def box(w: QWidget) -> QRect:
    """``w``'s rectangle in its window's coordinates."""
    return QRect(w.mapTo(w.window(), QPoint(0, 0)), w.size())


def settle(qtbot: Any) -> None:
    for _ in range(4):
        QApplication.processEvents()
        qtbot.wait(10)


def window(qtbot: Any, tmp_path: Path, text_size: float) -> Any:
    from desktop.main_window import MainWindow

    w = MainWindow(Settings(text_size=text_size), saves_folder=tmp_path)
    qtbot.addWidget(w)
    w.resize(1024, 640)
    w.show()
    qtbot.waitExposed(w)
    settle(qtbot)
    return w


def test_the_start_screens_campaigns_never_cover_its_menu(qtbot: Any, tmp_path: Path, text_size: float) -> None:
    from desktop.session import Session

    with Session.new(seed=3, party_size=2, folder=tmp_path):
        pass
    w = window(qtbot, tmp_path, text_size)
    start = w.start_screen()
    start.refresh()
    settle(qtbot)
    menu, panel = start.menu_box, start.campaigns_panel
    assert menu.isVisible() and panel.isVisible()
    assert not box(menu).intersects(box(panel)), (box(menu), box(panel))
    # every menu button at its full height (the 20 pt menu was squeezed into slivers)
    for b in (start.continue_button, start.new_button, start.settings_button, start.quit_button):
        assert b.height() >= b.minimumSizeHint().height()


def test_the_town_at_1024_wraps_its_cards_and_draws_nothing_over_them(
    qtbot: Any, tmp_path: Path, text_size: float
) -> None:
    from desktop.session import Session

    s = Session.new(seed=77, party_size=3, folder=tmp_path)
    for _ in range(3):  # the day begun: each adventurer's card with the day's actions
        s.autoplay()
    w = window(qtbot, tmp_path, text_size)
    w.start_session(s)
    settle(qtbot)
    game = w.screens["game"]
    view = game.current_view()
    assert view._step == "actions"
    cards = view.day_inner
    area = cards.parentWidget().parentWidget()
    assert isinstance(area, QScrollArea)
    assert not area.horizontalScrollBar().isVisible()  # the cards flow onto rows, never a strip sideways
    assert cards.width() <= area.viewport().width()
    # the note and the day's buttons sit below the cards, not over them; the header's lines are not cut
    assert box(view.day_note).top() >= box(area).bottom()
    assert view.day_note.height() >= view.day_note.heightForWidth(view.day_note.width())
    assert view.event_label.height() >= view.event_label.heightForWidth(view.event_label.width())
    assert box(view.tabs).top() >= box(view.doom_label).bottom()
    s.close()


def test_a_wrapped_label_keeps_the_height_of_its_lines(qtbot: Any) -> None:
    from desktop.widgets.wrap_label import WrapLabel

    label = WrapLabel("word " * 60)
    qtbot.addWidget(label)
    label.resize(120, 10)
    label.show()
    settle(qtbot)
    assert label.minimumHeight() >= label.heightForWidth(120) > label.fontMetrics().lineSpacing() * 3


def test_the_fights_side_panel_fits_its_buttons_and_shows_actions(qtbot: Any, tmp_path: Path, text_size: float) -> None:
    from desktop.screens.combat import CombatView
    from desktop.session import Session
    from tests.desktop.test_combat_view import _to_combat

    s = Session.new(seed=7, party_size=3, folder=tmp_path)
    _to_combat(s)
    v = CombatView(s)
    qtbot.addWidget(v)
    v.resize(900, 560)
    v.show()
    settle(qtbot)
    for b in (v.end_button, v.flee_button):
        assert b.width() >= b.sizeHint().width(), (b.text(), b.width(), b.sizeHint().width())
    assert v.list.height() >= v.fontMetrics().lineSpacing() * 5  # the actions in sight, not a sliver
    s.close()


def test_the_fight_and_the_inventory_never_scroll_sideways(qtbot: Any, tmp_path: Path, text_size: float) -> None:
    """At 1024×640 (and text size 20) the fight's side panel and the party column give way to the grid, and the
    inventory shows the item's panel only where it fits: neither scrolls sideways."""
    from desktop.session import Session
    from tests.desktop.test_combat_view import _to_combat

    w = window(qtbot, tmp_path, text_size)
    s = Session.new(seed=7, party_size=3, folder=tmp_path / "saves")
    _to_combat(s)
    w.start_session(s)
    settle(qtbot)
    scroll = w.stack.currentWidget()
    assert isinstance(scroll, QScrollArea)
    assert scroll.horizontalScrollBar().maximum() == 0, scroll.widget().minimumSizeHint()
    game = w.screens["game"]
    dlg = game.inventory_dialog()
    dlg.show()
    settle(qtbot)
    for i in range(game.inventory_tabs.count()):
        game.inventory_tabs.setCurrentIndex(i)
        settle(qtbot)
        page = game.inventory_tabs.widget(i)
        assert isinstance(page, QScrollArea)
        assert page.horizontalScrollBar().maximum() == 0, (i, page.widget().minimumSizeHint(), page.width())
    dlg.reject()
    w.close_session()


def test_at_the_least_size_the_fight_gives_the_grid_most_of_the_window(qtbot: Any, tmp_path: Path,
                                                                       text_size: float) -> None:  # fmt: skip
    """#16 (3): at 1024×640 the party column steps aside during a fight (the order beside the grid names
    everyone) and the side panel takes at most 40% of the fight: the grid had a third of the width at 20 pt."""
    from desktop.screens.combat import CombatView
    from desktop.session import Session
    from tests.desktop.test_combat_view import _to_combat

    w = window(qtbot, tmp_path, text_size)
    s = Session.new(seed=7, party_size=3, folder=tmp_path / "saves")
    _to_combat(s)
    w.start_session(s)
    settle(qtbot)
    game = w.screens["game"]
    view = game.current_view()
    assert isinstance(view, CombatView)
    assert not game.party.isVisible()
    assert view.grid.width() >= 0.5 * view.width(), (view.grid.width(), view.width(), view.side.width())
    for b in (view.end_button, view.flee_button):
        assert b.width() >= b.sizeHint().width(), (b.text(), b.width(), b.sizeHint().width())
    w.close_session()
    w.resize(1280, 720)  # a wider window keeps the party column in a fight
    w.start_session(Session.open(s.path))
    settle(qtbot)
    assert w.screens["game"].party.isVisible()
    w.close_session()
