"""The game's inventory dialog plays what it offers (#16.8): a right-click action ("put the Torches in the right
hand") and a drop are steps of the game, and an item dropped on a companion's tab is given to them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QMenu

from desktop.screens.game import GameScreen
from desktop.session import Session
from desktop.settings import Settings
from desktop.widgets.inventory import MIME
from rules.gm.engine import AutoDecider
from rules.gm.state import Phase

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def screen(qtbot: Any, tmp_path: Path) -> Any:
    s = Session.new(seed=77, party_size=3, folder=tmp_path)
    for _ in range(400):
        if s.phase is Phase.EXPLORATION:
            break
        s.autoplay()
    assert s.phase is Phase.EXPLORATION
    g = GameScreen(s, Settings(gm_rerolls=True), decider=AutoDecider())
    qtbot.addWidget(g)
    g.resize(1280, 720)
    g.show()
    yield g
    s.close()


def test_a_right_click_action_in_the_inventory_is_played(qtbot: Any, screen: GameScreen) -> None:
    s = screen.session
    dlg = screen.inventory_dialog()
    dlg.show()
    for page, m in zip(screen.inventory_pages, s.campaign.party, strict=True):
        inv = m.adv.inventory
        infos = [i for lst in page._infos(inv).values() for i in lst
                 if any(a.available and a.kind in ("equip", "stow") for a in page.item_actions(i))]  # fmt: skip
        if infos:
            break
    else:
        pytest.skip("no item to move in this party")
    info = infos[0]
    action = next(a for a in page.item_actions(info) if a.available and a.kind in ("equip", "stow"))
    before = s.campaign.stats.steps
    page.show_item_menu(info, page.mapToGlobal(page.rect().center()))
    menu = page.findChildren(QMenu)[-1]
    entry = next(qa for qa in menu.actions() if qa.text().startswith(action.label))
    entry.trigger()  # the player's choice in the right-click menu
    assert s.campaign.stats.steps == before + 1, "the menu's action was not played"
    assert m.id  # (the page is redrawn from the state)
    dlg.close()


def test_an_item_dropped_on_a_companions_tab_is_given_to_them(qtbot: Any, screen: GameScreen) -> None:
    s = screen.session
    dlg = screen.inventory_dialog()
    dlg.show()
    qtbot.waitExposed(dlg)
    party = s.campaign.party
    giver, receiver = party[0], party[1]
    give = next((a for a in s.actions() if a.kind == "give" and a.available and a.param("from") == giver.id
                 and a.target == receiver.id), None)  # fmt: skip
    assert give is not None, "the engine offers no give here"
    index = int(give.param("index"))
    item = giver.adv.inventory.items[index].name
    had = sum(i.count for i in receiver.adv.inventory.items if i.name == item)
    before = s.campaign.stats.steps
    tabs = screen.inventory_tabs
    tabs.setCurrentIndex(0)
    bar = tabs.tabBar()
    mime = QMimeData()
    mime.setData(MIME, str(index).encode())
    at = QPointF(bar.tabRect(1).center())
    drop = QDropEvent(at, Qt.DropAction.MoveAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    bar.dropEvent(drop)  # (offscreen Qt delivers no synthetic drop without a drag under way)
    assert s.campaign.stats.steps == before + 1, "the drop played no step"
    assert sum(i.count for i in receiver.adv.inventory.items if i.name == item) > had
    assert drop.isAccepted()
    dlg.close()


def test_a_drop_inside_the_dialog_is_played(qtbot: Any, screen: GameScreen) -> None:
    s = screen.session
    dlg = screen.inventory_dialog()
    dlg.show()
    m = s.campaign.party[0]
    move = next((a for a in s.actions() if a.kind == "stow" and a.who == m.id and a.available), None)
    if move is None:
        pytest.skip("nothing to rearrange")
    index, place = int(move.param("index")), str(move.param("place"))
    name = m.adv.inventory.items[index].name
    before = s.campaign.stats.steps
    assert screen.inventory_pages[0].drop(index, place)
    assert s.campaign.stats.steps == before + 1
    assert any(i.name == name and i.place == place for i in m.adv.inventory.items)
    dlg.close()
