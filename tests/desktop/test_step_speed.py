"""A step redraws what changed, in place (#16.12: every click painted within 50 ms): the action buttons of a list
whose layout stayed show the new actions without being built again, and the party card's signature sees every
change of a member."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from desktop.widgets.action_list import ActionButton, ActionList
from rules.gm.events import Action, Cost

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GROUPS = [("Move", ["move"]), ("Doors", ["force"])]


def test_a_list_of_the_same_layout_updates_its_buttons_in_place(qtbot: Any) -> None:
    lst = ActionList()
    qtbot.addWidget(lst)
    lst.resize(400, 400)
    lst.show()
    chosen: list[Action] = []
    lst.chosen.connect(chosen.append)
    first = [Action("move:2", "move", "Go to room 2", Cost(turns=1)),
             Action("force:3", "force", "Force the door to room 3", Cost(turns=1))]  # fmt: skip
    lst.set_actions(first, groups=GROUPS)
    before = lst.buttons()
    assert [b.number for b in before] == [1, 2]
    second = [Action("move:5", "move", "Go to room 5", Cost(turns=2)),
              Action("force:6", "force", "Force the stuck door to room 6", Cost(turns=1))]  # fmt: skip
    lst.set_actions(second, groups=GROUPS)
    after = lst.buttons()
    assert [id(b) for b in after] == [id(b) for b in before]  # the same buttons, not built again...
    assert [b.objectName() for b in after] == ["action:move:5", "action:force:6"]  # ...showing the new actions
    assert after[0].text_label.text() == "Go to room 5" and after[0].cost_label.text() == "2 turns"
    assert after[1].isEnabled() and after[1].number == 2 and after[1].key_label.text() == "2"
    assert lst.numbered_actions() == second
    qtbot.mouseClick(after[1], Qt.MouseButton.LeftButton)
    assert chosen == [second[1]]  # a click takes the action the button shows now
    assert lst.trigger(1) and chosen[-1] == second[0]
    # a button that turns unavailable is built anew (enabling or disabling a button in place, inside its own click's
    # handler, crashed Qt in the full-loop test)
    shut = [second[0], Action("force:6", "force", "Force the stuck door to room 6", Cost(turns=1), available=False,
                               reason="The door is open.")]  # fmt: skip
    lst.set_actions(shut, groups=GROUPS)
    rebuilt = lst.buttons()
    assert rebuilt[1] is not after[1] and not rebuilt[1].isEnabled() and rebuilt[1].number is None
    assert rebuilt[1].property("unavailable") is True
    assert rebuilt[0] is after[0]  # ...but only that one: the button of an action still there is moved, not built
    page = lst.scroller.widget()
    third = [Action("move:9", "move", "Go to room 9", Cost(turns=1)), *shut]  # another layout: one button more
    lst.set_actions(third, groups=GROUPS)
    now = lst.buttons()
    assert len(now) == 3 and now[1] is rebuilt[0] and now[2] is rebuilt[1]  # move:5 and force:6 kept, moved down
    assert [b.number for b in now] == [1, 2, None] and now[0].objectName() == "action:move:9"
    assert lst.scroller.widget() is page  # the scroll area keeps its page: nothing is swapped and styled anew
    assert [w.text() for w in page.findChildren(QLabel, "group_heading") if w.isVisibleTo(page)] == ["MOVE", "DOORS"]
    lst.set_actions(second[:1], groups=GROUPS)  # one button fewer: the others are hidden and go
    assert len(lst.buttons()) == 1 and lst.buttons()[0] is now[1]
    assert [b for b in page.findChildren(ActionButton) if b.isVisibleTo(page)] == [now[1]]
    assert [w.text() for w in page.findChildren(QLabel, "group_heading") if w.isVisibleTo(page)] == ["MOVE"]
    # Tab goes down the list in the order shown, moved buttons included
    lst.set_actions(third, groups=GROUPS)
    order = lst.buttons()
    chain, w = [], order[0]
    for _ in range(40):
        if isinstance(w, ActionButton) and w.isVisibleTo(page):
            chain.append(w)
        w = w.nextInFocusChain()
    assert chain[:3] == order


def test_the_party_card_is_redrawn_when_a_member_changes(qtbot: Any, tmp_path: Path) -> None:
    from desktop.session import Session
    from desktop.widgets.party_panel import PartyPanel

    s = Session.new(seed=7, party_size=2, folder=tmp_path)
    panel = PartyPanel(s)
    qtbot.addWidget(panel)
    m = s.campaign.party[0]
    card = panel.cards[m.id]
    panel.refresh()
    assert panel.cards[m.id] is card  # nothing changed: nothing redrawn
    m.adv.character.silver += 7
    panel.refresh()
    assert panel.cards[m.id] is not card and panel.cards[s.campaign.party[1].id] is not None
    card = panel.cards[m.id]
    assert card.findChild(QLabel, "silver").text() == f"{m.adv.character.silver} s"
    m.joined_day += 3  # a change the card does not show: the card stays
    panel.refresh()
    assert panel.cards[m.id] is card
    from rules.attributes import ATTRS

    m.adv.character.attrs[ATTRS[0]].fatigue += 1  # one it shows (a die marked fatigued): drawn again
    panel.refresh()
    assert panel.cards[m.id] is not card
    assert "◩" in panel.cards[m.id].findChild(QLabel, f"dice:{ATTRS[0].value}").text()
    s.close()
