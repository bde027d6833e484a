"""A buy redraws the shop in place (#16.12): the table's cells that read the same and the "For…" menus that list
the same are kept, not made anew every step; what changed is shown."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QPushButton

from desktop.screens.interlude import TABS, InterludeView
from tests.desktop.test_interlude_view import begin, click, session, view  # noqa: F401  (fixtures)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MARK = Qt.ItemDataRole.UserRole + 1


def test_a_buy_keeps_the_cells_and_menus_that_read_the_same(qtbot, view: InterludeView) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    s = view.session
    begin(qtbot, view)
    view.tabs.setCurrentIndex(TABS.index("Shop"))
    shopper = max(s.campaign.party, key=lambda m: m.adv.character.silver)
    click(qtbot, view, f"shop:{shopper.id}")
    view.tabs.setCurrentIndex(TABS.index("Day"))
    click(qtbot, view, "resolve")
    t = view.shop_table
    rows = t.rowCount()
    assert rows > 10
    for r in range(rows):
        t.item(r, 1).setData(MARK, f"kind {r}")  # the ware's kind: the same after any buy
    menus = {}
    for r in range(rows):
        holder = t.cellWidget(r, 8)
        button = holder.findChild(QPushButton) if holder is not None else None
        if button is not None and button.menu().actions():
            entry = button.menu().actions()[0]
            entry.setData(f"menu {r}")
            menus[r] = (entry.objectName(), entry.text(), entry.isEnabled())
    assert menus
    buy = next(a for a in s.actions() if a.kind == "buy" and a.available and a.cost.silver > 0)
    silver = shopper.adv.character.silver
    click(qtbot, view, buy.id)
    assert shopper.adv.character.silver == silver - buy.cost.silver
    assert t.rowCount() == rows
    assert [t.item(r, 1).data(MARK) for r in range(rows)] == [f"kind {r}" for r in range(rows)]  # kept
    assert f"{silver - buy.cost.silver} silver" in view.shop_sub.text()  # what changed is shown
    kept = 0
    for r, (name, text, enabled) in menus.items():
        button = t.cellWidget(r, 8).findChild(QPushButton)
        entry = button.menu().findChild(QAction, name)
        assert entry is not None  # the companion is offered still
        if entry.data() == f"menu {r}":
            kept += 1
            assert (entry.text(), entry.isEnabled()) == (text, enabled)  # kept only when it reads the same
    assert kept > 0
    # a kept menu's pick plays the row's current action (from this step's listing)
    gift = next(a for a in s.actions() if a.kind == "buy_for" and a.available)
    row = next(r for r in range(rows) if t.item(r, 0).text() == gift.target)
    entry = t.cellWidget(row, 8).findChild(QPushButton).menu().findChild(QAction, f"action:{gift.id}")
    view.played.clear()
    entry.trigger()
    assert view.played == [gift]
